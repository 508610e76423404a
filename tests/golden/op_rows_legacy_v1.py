"""Op rows: op types of TF 0.x / 1.x graphs whose successors turned attrs or fixed values
into inputs (ops/legacy_ops.py): MatrixDiag, MatrixDiagPart, MatrixSetDiag (V1, written
by TF <= 1.15) and their V2 forms (TF 2.0-2.1), SpaceToBatch, BatchToSpace (TF 2.21
refuses to build TopK: tests/test_tf1_era_ops.py checks it against TopKV2)."""

import numpy as np

from tests.golden.op_harness import err, f32, row

_M = f32(2, 3, 4, seed=50)
_K = np.array([-1, 1], np.int32)

ROWS = [
    row("MatrixDiag", diagonal=f32(2, 3, seed=51)),
    row("MatrixDiag", diagonal=np.arange(4, dtype=np.int64)),
    row("MatrixDiagPart", input=_M),
    row("MatrixSetDiag", input=_M, diagonal=f32(2, 3, seed=52)),
    err("MatrixSetDiag", input=_M, diagonal=f32(2, 4, seed=52)),
    err("MatrixSetDiag", input=f32(3), diagonal=f32(3)),
    row("MatrixDiagV2", diagonal=f32(2, 3, 3, seed=53), k=_K,
        num_rows=np.array(-1, np.int32), num_cols=np.array(-1, np.int32),
        padding_value=np.array(9, np.float32)),
    row("MatrixDiagV2", diagonal=f32(4, seed=54), k=np.array(1, np.int32),
        num_rows=np.array(4, np.int32), num_cols=np.array(6, np.int32),
        padding_value=np.array(0, np.float32)),
    row("MatrixDiagPartV2", input=f32(3, 4, 5, seed=55), k=_K,
        padding_value=np.array(-1, np.float32)),
    row("MatrixSetDiagV2", input=f32(4, 5, seed=56), diagonal=f32(3, 4, seed=57), k=_K),
    row("SpaceToBatch", input=f32(1, 4, 6, 2, seed=60),
        paddings=np.array([[0, 0], [1, 1]], np.int32), block_size=2),
    row("SpaceToBatch", input=f32(2, 3, 3, 1, seed=61),
        paddings=np.array([[0, 0], [0, 0]], np.int64), block_size=3),
    row("BatchToSpace", input=f32(4, 2, 3, 2, seed=62),
        crops=np.array([[0, 1], [1, 0]], np.int32), block_size=2),
]
