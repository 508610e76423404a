"""Op rows: manipulation ops (Roll, Diag, Bitcast, EnsureShape, GuaranteeConst,
ParallelConcat, TensorScatter*), sorting and set-like ops (bounds, InvertPermutation,
ListDiff, UniqueWithCounts, UnravelIndex)."""

import numpy as np

from tests.golden.op_harness import err, f32, i32, row

_IDX = np.array([[0], [2], [0]], np.int32)

ROWS = [
    row("Roll", input=f32(3, 4), shift=np.array([1, -2], np.int32),
        axis=np.array([0, 1], np.int32)),
    row("Roll", input=i32(5), shift=np.int64(7), axis=np.int64(0)),
    err("Roll", input=f32(3, 4), shift=np.array([1], np.int32), axis=np.int32(2)),
    row("Diag", diagonal=f32(2, 3)),
    row("Diag", diagonal=i32(3)),
    row("Bitcast", input=np.array([1.0, -2.5], np.float32), type="int32"),
    row("Bitcast", input=np.arange(8, dtype=np.uint8).reshape(2, 4), type="int32"),
    row("Bitcast", input=np.array([7], np.int64), type="uint8"),
    err("Bitcast", input=np.arange(3, dtype=np.uint8), type="int32"),
    row("EnsureShape", input=f32(2, 3), shape=[2, 3]),
    row("EnsureShape", input=f32(2, 3), shape=[None, 3]),
    err("EnsureShape", input=f32(2, 3), shape=[3, 2]),
    row("GuaranteeConst", input=f32(2, 2)),
    row("ParallelConcat", values=[f32(1, 3), f32(1, 3, seed=1)], shape=[2, 3],
        with_grad=False),
    *[row(op, tensor=f32(4, 2), indices=_IDX, updates=f32(3, 2, seed=1)) for op in (
        "TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMax",
        "TensorScatterMin")],
    row("TensorScatterAdd", tensor=i32(5), indices=np.array([[1], [4]], np.int64),
        updates=i32(2, seed=1)),
    err("TensorScatterUpdate", tensor=f32(4, 2), indices=np.array([[7]], np.int32),
        updates=f32(1, 2)),
    row("LowerBound", sorted_inputs=np.array([[1, 3, 5, 7], [0, 0, 2, 9]], np.float32),
        values=np.array([[3, 6], [0, 10]], np.float32)),
    row("UpperBound", sorted_inputs=np.array([[1, 3, 5, 7], [0, 0, 2, 9]], np.int32),
        values=np.array([[3, 6], [0, 10]], np.int32), out_type="int64"),
    row("InvertPermutation", x=np.array([2, 0, 3, 1], np.int32)),
    err("InvertPermutation", x=np.array([2, 2, 0], np.int32)),
    row("ListDiff", x=np.array([1, 2, 3, 4, 2], np.int32), y=np.array([2, 5], np.int32)),
    row("UniqueWithCounts", x=np.array([3, 1, 3, 2, 1, 3], np.int64)),
    row("UniqueWithCounts", x=f32(4), out_idx="int64"),
    row("UnravelIndex", indices=np.array([0, 5, 11], np.int32), dims=np.array([3, 4],
                                                                             np.int32)),
    row("UnravelIndex", indices=np.int64(7), dims=np.array([2, 2, 2], np.int64)),
    err("UnravelIndex", indices=np.array([12], np.int32), dims=np.array([3, 4], np.int32)),
]
