"""Op rows: TF's gradient ops of fractional pooling (FractionalMaxPoolGrad,
FractionalAvgPoolGrad, ops/nn_fractional_pool.py), which TF writes into training graphs of
`tf.nn.fractional_max_pool` / `fractional_avg_pool`. The pooling sequences are given, so
the rows need no random stream."""

from typing import Sequence

import numpy as np

from tests.golden.op_harness import err, f32, row

_X = f32(2, 7, 6, 3, seed=40)
_ROWS = np.array([0, 2, 3, 5, 7], np.int64)     # regions [0,2) [2,3) [3,5) [5,7)
_COLS = np.array([0, 1, 3, 4, 6], np.int64)
_TIES = np.repeat(np.array([1., 3., 3., 2., 3., 1., 0.], np.float32)[None, :, None, None],
                  6, axis=2)                    # equal maxima within a region


def _ends(seq: Sequence[int], limit: int, overlapping: bool) -> list:
    return [min(seq[i + 1] if overlapping else seq[i + 1] - 1, limit - 1)
            for i in range(len(seq) - 1)]


def _max_pool(x: np.ndarray, rows: np.ndarray, cols: np.ndarray, overlapping: bool
              ) -> np.ndarray:
    """Fractional max pooling of NHWC `x` over the given sequences (the forward output
    FractionalMaxPoolGrad checks its orig_output against)."""
    row_end, col_end = (_ends(rows, x.shape[1], overlapping),
                        _ends(cols, x.shape[2], overlapping))
    out = np.empty((x.shape[0], len(rows) - 1, len(cols) - 1, x.shape[3]), x.dtype)
    for i in range(len(rows) - 1):
        for j in range(len(cols) - 1):
            out[:, i, j] = x[:, rows[i]:row_end[i] + 1, cols[j]:col_end[j] + 1].max(axis=(1, 2))
    return out


ROWS = [
    row("FractionalMaxPoolGrad", orig_input=_X, orig_output=_max_pool(_X, _ROWS, _COLS, False),
        out_backprop=f32(2, 4, 4, 3, seed=41), row_pooling_sequence=_ROWS,
        col_pooling_sequence=_COLS),
    row("FractionalMaxPoolGrad", orig_input=_X, orig_output=_max_pool(_X, _ROWS, _COLS, True),
        out_backprop=f32(2, 4, 4, 3, seed=42), row_pooling_sequence=_ROWS,
        col_pooling_sequence=_COLS, overlapping=True),
    row("FractionalMaxPoolGrad", label="ties", orig_input=_TIES,
        orig_output=_max_pool(_TIES, _ROWS, _COLS, True),
        out_backprop=f32(1, 4, 4, 1, seed=43), row_pooling_sequence=_ROWS,
        col_pooling_sequence=_COLS, overlapping=True),
    err("FractionalMaxPoolGrad", label="wrong_output", orig_input=_X,
        orig_output=_max_pool(_X, _ROWS, _COLS, False) + 1, out_backprop=f32(2, 4, 4, 3),
        row_pooling_sequence=_ROWS, col_pooling_sequence=_COLS),
    row("FractionalAvgPoolGrad", orig_input_tensor_shape=np.array([2, 7, 6, 3], np.int64),
        out_backprop=f32(2, 4, 4, 3, seed=44), row_pooling_sequence=_ROWS,
        col_pooling_sequence=_COLS),
    row("FractionalAvgPoolGrad", orig_input_tensor_shape=np.array([2, 7, 6, 3], np.int64),
        out_backprop=f32(2, 4, 4, 3, seed=45).astype(np.float64), row_pooling_sequence=_ROWS,
        col_pooling_sequence=_COLS, overlapping=True),
    row("FractionalAvgPoolGrad", label="int32_truncates",
        orig_input_tensor_shape=np.array([1, 7, 6, 2], np.int64),
        out_backprop=np.arange(32, dtype=np.int32).reshape(1, 4, 4, 2) * 5,
        row_pooling_sequence=_ROWS, col_pooling_sequence=_COLS, overlapping=True),
]
