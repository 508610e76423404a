"""Op rows: SparseTensor ops (components: int64 indices [N, rank], values [N], int64 dense
shape [rank])."""

import numpy as np

from tests.golden.op_harness import err, f32, i32, row

_IND = np.array([[0, 1], [1, 0], [1, 2], [2, 2]], np.int64)
_VAL = f32(4)
_SHAPE = np.array([3, 4], np.int64)
_UNORDERED = np.array([[2, 2], [0, 1], [1, 2], [1, 0]], np.int64)
_IND_B = np.array([[0, 1], [1, 1], [2, 3]], np.int64)
_VAL_B = f32(3, seed=1)

ROWS = [
    row("SparseAdd", a_indices=_IND, a_values=_VAL, a_shape=_SHAPE, b_indices=_IND_B,
        b_values=_VAL_B, b_shape=_SHAPE, thresh=np.float32(0.0)),
    row("SparseAdd", a_indices=_IND, a_values=i32(4), a_shape=_SHAPE, b_indices=_IND,
        b_values=-i32(4), b_shape=_SHAPE, thresh=np.int32(1)),
    err("SparseAdd", a_indices=_IND, a_values=_VAL, a_shape=_SHAPE, b_indices=_IND_B,
        b_values=_VAL_B, b_shape=np.array([3, 5], np.int64), thresh=np.float32(0.0)),
    row("SparseTensorDenseAdd", a_indices=_IND, a_values=_VAL, a_shape=_SHAPE,
        b=f32(3, 4, seed=2)),
    row("SparseTensorDenseAdd", a_indices=_IND.astype(np.int32), a_values=i32(4),
        a_shape=_SHAPE.astype(np.int32), b=i32(3, 4, seed=2)),
    row("SparseTensorDenseMatMul", a_indices=_IND, a_values=_VAL, a_shape=_SHAPE,
        b=f32(4, 2, seed=2)),
    row("SparseTensorDenseMatMul", a_indices=_IND, a_values=_VAL, a_shape=_SHAPE,
        b=f32(2, 3, seed=2), adjoint_a=True, adjoint_b=True),
    err("SparseTensorDenseMatMul", a_indices=_IND, a_values=_VAL, a_shape=_SHAPE,
        b=f32(3, 2, seed=2)),
    row("SparseToDense", sparse_indices=_IND, output_shape=_SHAPE, sparse_values=_VAL,
        default_value=np.float32(-1.0)),
    row("SparseToDense", sparse_indices=np.array([1, 3], np.int32),
        output_shape=np.array([5], np.int32), sparse_values=np.int32(7),
        default_value=np.int32(0)),
    row("SparseToDense", sparse_indices=_UNORDERED, output_shape=_SHAPE, sparse_values=_VAL,
        default_value=np.float32(0.0), validate_indices=False),
    err("SparseToDense", sparse_indices=_UNORDERED, output_shape=_SHAPE, sparse_values=_VAL,
        default_value=np.float32(0.0)),
    row("SparseReorder", input_indices=_UNORDERED, input_values=_VAL, input_shape=_SHAPE),
    row("SparseReshape", input_indices=_IND, input_shape=_SHAPE,
        new_shape=np.array([2, -1], np.int64)),
    row("SparseReshape", input_indices=_IND, input_shape=_SHAPE,
        new_shape=np.array([12], np.int64)),
    err("SparseReshape", input_indices=_IND, input_shape=_SHAPE,
        new_shape=np.array([5, -1], np.int64)),
    row("SparseSlice", indices=_IND, values=_VAL, shape=_SHAPE,
        start=np.array([1, 0], np.int64), size=np.array([2, 2], np.int64)),
    row("SparseSlice", indices=_IND, values=_VAL, shape=_SHAPE,
        start=np.array([0, 2], np.int64), size=np.array([5, 5], np.int64)),
    row("SparseSplit", split_dim=np.int64(1), indices=_IND, values=_VAL, shape=_SHAPE,
        num_split=2),
    row("SparseSplit", split_dim=np.int64(0), indices=_IND, values=_VAL, shape=_SHAPE,
        num_split=3),
    row("SparseConcat", indices=[_IND, _IND_B], values=[_VAL, _VAL_B], shapes=[_SHAPE, _SHAPE],
        concat_dim=1),
    row("SparseConcat", indices=[_IND, _IND_B], values=[_VAL, _VAL_B], shapes=[_SHAPE, _SHAPE],
        concat_dim=-2),
    err("SparseConcat", indices=[_IND, _IND_B], values=[_VAL, _VAL_B],
        shapes=[_SHAPE, np.array([4, 4], np.int64)], concat_dim=1),
    row("SparseFillEmptyRows", indices=np.array([[0, 1], [2, 0]], np.int64),
        values=f32(2), dense_shape=np.array([4, 3], np.int64), default_value=np.float32(5.0)),
    row("SparseFillEmptyRows", indices=np.array([[1, 1]], np.int64),
        values=np.array([3], np.int64), dense_shape=np.array([2, 2], np.int64),
        default_value=np.int64(-1)),
    row("SparseReduceSum", input_indices=_IND, input_values=_VAL, input_shape=_SHAPE,
        reduction_axes=np.array([1], np.int32)),
    row("SparseReduceSum", input_indices=_IND, input_values=_VAL, input_shape=_SHAPE,
        reduction_axes=np.array([0], np.int32), keep_dims=True),
    row("SparseReduceMax", input_indices=_IND, input_values=_VAL, input_shape=_SHAPE,
        reduction_axes=np.array([-1], np.int32)),
    row("SparseReduceMax", input_indices=_IND, input_values=i32(4), input_shape=_SHAPE,
        reduction_axes=np.array([0, 1], np.int32)),
    row("SparseReduceSumSparse", input_indices=_IND, input_values=_VAL, input_shape=_SHAPE,
        reduction_axes=np.array([1], np.int32)),
    row("SparseReduceMaxSparse", input_indices=_IND, input_values=_VAL, input_shape=_SHAPE,
        reduction_axes=np.array([0], np.int32), keep_dims=True),
    row("SparseSoftmax", sp_indices=_IND, sp_values=_VAL, sp_shape=_SHAPE),
    row("SparseSoftmax", sp_indices=np.array([[0, 0, 1], [0, 0, 2], [1, 0, 0]], np.int64),
        sp_values=f32(3, seed=4), sp_shape=np.array([2, 1, 3], np.int64)),
    # (TF's tf.gradients fails on it with a TypeError; values only.)
    row("SparseSparseMaximum", a_indices=_IND, a_values=_VAL, a_shape=_SHAPE,
        b_indices=_IND_B, b_values=_VAL_B, b_shape=_SHAPE, with_grad=False),
    row("SparseSparseMinimum", a_indices=_IND, a_values=i32(4), a_shape=_SHAPE,
        b_indices=_IND_B, b_values=i32(3, seed=1), b_shape=_SHAPE),
]
