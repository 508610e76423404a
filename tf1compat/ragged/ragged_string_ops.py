"""`tf.strings.split` / `tf.string_split` with `result_type="RaggedTensor"` (and so
`tf.compat.v2.strings.split`): the ops layer's SparseTensor of tokens, rows made ragged
(TF 1.15's ragged_string_ops). Inputs of rank 0 or 1, as the ops layer's split."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.ops import string_ops
from tf1compat.ragged.ragged_tensor import RaggedTensor

__all__ = ["strings_split_v1", "string_split"]


def _ragged(tokens: Any, value: Any, scalar: bool = False) -> Any:
    rt = RaggedTensor.from_sparse(tokens)
    nrows = getattr(value, "shape", None)
    nrows = len(value) if isinstance(value, (list, tuple)) else \
        (nrows.as_list()[0] if nrows is not None and nrows.rank == 1 else None)
    if nrows is not None:   # the input's length, as TF's static shape knows it
        rt.row_splits.set_shape([nrows + 1])
    return rt[0] if scalar else rt


def _is_scalar(value: Any) -> bool:
    shape = getattr(value, "shape", None)
    if shape is not None and hasattr(shape, "rank"):
        return shape.rank == 0
    return isinstance(value, (str, bytes))


def strings_split_v1(input: Any = None, sep: Any = None, maxsplit: int = -1,  # noqa: A002
                     result_type: str = "SparseTensor", source: Any = None,
                     name: Optional[str] = None) -> Any:
    """`tf.strings.split`: str.split rules; a SparseTensor, or a RaggedTensor of tokens
    with `result_type="RaggedTensor"` (a 1-D Tensor for a scalar input, as TF)."""
    if result_type != "RaggedTensor":
        return string_ops.strings_split_v1(input, sep, maxsplit, result_type, source, name)
    value = source if input is None else input
    tokens = string_ops.strings_split_v1(input, sep, maxsplit, "SparseTensor", source, name)
    return _ragged(tokens, value, _is_scalar(value))


def string_split(source: Any, sep: Any = None, skip_empty: bool = True, delimiter: Any = None,
                 result_type: str = "SparseTensor", name: Optional[str] = None) -> Any:
    """`tf.string_split` (TF1): tokens split at any byte of `delimiter`; a SparseTensor, or
    a RaggedTensor with `result_type="RaggedTensor"`."""
    if result_type != "RaggedTensor":
        return string_ops.string_split(source, sep, skip_empty, delimiter, result_type, name)
    tokens = string_ops.string_split(source, sep, skip_empty, delimiter, "SparseTensor", name)
    return _ragged(tokens, source)
