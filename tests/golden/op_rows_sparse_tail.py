"""Op rows: the sparse tail (EditDistance, SparseCrossV2, sparse count ops, SparseMatMul)
and the set operations (SetSize, DenseToSparse and SparseToSparse set operations)."""

import numpy as np

from tests.golden.op_harness import err, f32, i64, row, strings

_H_IND = np.array([[0, 0], [0, 1], [1, 0]], np.int64)
_T_IND = np.array([[0, 0], [1, 0], [1, 1]], np.int64)
_SHAPE = np.array([2, 2], np.int64)
_SET_IND = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], np.int64)
_SET_VAL = np.array([1, 3, 2, 5], np.int64)

ROWS = [
    row("EditDistance", hypothesis_indices=_H_IND, hypothesis_values=strings("a", "b", "c"),
        hypothesis_shape=_SHAPE, truth_indices=_T_IND, truth_values=strings("a", "c", "d"),
        truth_shape=_SHAPE),
    row("EditDistance", hypothesis_indices=_H_IND, hypothesis_values=i64(3),
        hypothesis_shape=_SHAPE, truth_indices=_T_IND, truth_values=i64(3, seed=1),
        truth_shape=_SHAPE, normalize=False),
    err("EditDistance", hypothesis_indices=_H_IND, hypothesis_values=i64(3),
        hypothesis_shape=np.array([2, 2, 2], np.int64), truth_indices=_T_IND,
        truth_values=i64(3, seed=1), truth_shape=_SHAPE),
    row("SparseCrossV2", indices=[_H_IND], values=[strings("a", "b", "c")], shapes=[_SHAPE],
        dense_inputs=[strings("x", "y", shape=[2, 1])], sep=strings("_X_", shape=[])),
    row("SparseCrossV2", indices=[_H_IND, _T_IND], values=[i64(3), strings("p", "q", "r")],
        shapes=[_SHAPE, _SHAPE], dense_inputs=[], sep=strings("-", shape=[])),
    row("DenseCountSparseOutput", values=np.array([[1, 2, 2], [0, 5, 1]], np.int32),
        weights=np.zeros(0, np.float32), binary_output=False),
    row("DenseCountSparseOutput", values=np.array([1, 2, 2, 7], np.int64),
        weights=np.array([0.5, 1.0, 2.0, 3.0], np.float32), binary_output=False,
        maxlength=5, with_grad=False),
    row("SparseCountSparseOutput", indices=_SET_IND, values=_SET_VAL, dense_shape=_SHAPE,
        weights=np.zeros(0, np.float32), binary_output=True, minlength=6),
    row("SparseMatMul", a=f32(3, 4), b=f32(4, 2, seed=1), rtol=1e-4, atol=1e-5),
    row("SparseMatMul", a=f32(4, 3), b=f32(2, 4, seed=1), transpose_a=True,
        transpose_b=True, a_is_sparse=True, rtol=1e-4, atol=1e-5),
    row("SetSize", set_indices=_SET_IND, set_values=_SET_VAL, set_shape=_SHAPE),
    err("SetSize", set_indices=_SET_IND[::-1].copy(), set_values=_SET_VAL,
        set_shape=_SHAPE),
    row("DenseToSparseSetOperation", set1=np.array([[1, 2], [3, 5]], np.int64),
        set2_indices=_SET_IND, set2_values=_SET_VAL, set2_shape=_SHAPE,
        set_operation="intersection"),
    row("SparseToSparseSetOperation", set1_indices=_SET_IND, set1_values=_SET_VAL,
        set1_shape=_SHAPE, set2_indices=_SET_IND[:3], set2_values=np.array([3, 4, 2],
                                                                           np.int64),
        set2_shape=_SHAPE, set_operation="union"),
    row("SparseToSparseSetOperation", set1_indices=_SET_IND, set1_values=_SET_VAL,
        set1_shape=_SHAPE, set2_indices=_SET_IND[:3], set2_values=np.array([3, 4, 2],
                                                                           np.int64),
        set2_shape=_SHAPE, set_operation="a-b"),
]
