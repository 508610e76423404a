"""SparseTensorDenseMatMul on torch's CSR kernels (ops/_sparse_matmul.py) against the
gather/index_add oracle: values, gradients (first and second order), TF's bounds errors."""

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.ops._sparse_matmul import CsrLayout, sparse_dense_matmul as _csr_matmul


def sparse_dense_matmul(rows, cols, vals, b, m):
    return _csr_matmul(CsrLayout(rows, cols, m, b.shape[0]), vals, b)


def _oracle(rows, cols, vals, b, m):
    return torch.zeros((m, b.shape[1]), dtype=b.dtype).index_add(0, rows, vals[:, None] * b[cols])


def _case(seed, m=7, k=5, n=3, nnz=12, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    rows = torch.randint(0, m, (nnz,), generator=g)      # unordered, with repeats
    cols = torch.randint(0, k, (nnz,), generator=g)
    vals = torch.randn(nnz, generator=g, dtype=dtype)
    b = torch.randn(k, n, generator=g, dtype=dtype)
    return rows, cols, vals, b, m


@pytest.mark.parametrize("seed", range(4))
def test_values_and_gradients_match_oracle(seed):
    rows, cols, vals, b, m = _case(seed)
    got = sparse_dense_matmul(rows, cols, vals, b, m)
    torch.testing.assert_close(got, _oracle(rows, cols, vals, b, m))
    v1, b1 = vals.clone().requires_grad_(), b.clone().requires_grad_()
    v2, b2 = vals.clone().requires_grad_(), b.clone().requires_grad_()
    w = torch.randn(m, b.shape[1], dtype=b.dtype)
    g1 = torch.autograd.grad((sparse_dense_matmul(rows, cols, v1, b1, m) * w).sum(), [v1, b1])
    g2 = torch.autograd.grad((_oracle(rows, cols, v2, b2, m) * w).sum(), [v2, b2])
    for a, e in zip(g1, g2):
        torch.testing.assert_close(a, e)


def test_second_order_gradients():
    rows, cols, vals, b, m = _case(7)
    torch.autograd.gradcheck(lambda v, bb: sparse_dense_matmul(rows, cols, v, bb, m),
                             (vals.requires_grad_(), b.requires_grad_()))
    torch.autograd.gradgradcheck(lambda v, bb: sparse_dense_matmul(rows, cols, v, bb, m),
                                 (vals, b))


def test_no_entries():
    b = torch.randn(4, 2, requires_grad=True)
    e = torch.zeros(0, dtype=torch.long)
    out = sparse_dense_matmul(e, e, torch.zeros(0), b, 3)
    assert out.shape == (3, 2) and not out.any()
    (gb,) = torch.autograd.grad(out.sum(), [b])
    assert not gb.any()


@pytest.mark.parametrize("adjoint_a,adjoint_b", [(False, False), (True, False),
                                                 (False, True), (True, True)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_graph_op_matches_dense_product(adjoint_a, adjoint_b, dtype):
    rng = np.random.RandomState(0)
    dense = np.zeros((6, 4), dtype)
    idx = np.array([[0, 1], [0, 3], [2, 0], [5, 2], [3, 3], [2, 1]])
    dense[idx[:, 0], idx[:, 1]] = rng.randint(1, 5, len(idx))
    a = dense.T if adjoint_a else dense
    b = rng.randint(-3, 4, (a.shape[1], 3)).astype(dtype)
    b_in = b.T.copy() if adjoint_b else b
    with tf.Graph().as_default(), tf.Session() as sess:
        sp = tf.SparseTensor(idx[::-1].copy(), dense[idx[::-1, 0], idx[::-1, 1]], [6, 4])
        out = sess.run(tf.sparse_tensor_dense_matmul(sp, b_in, adjoint_a=adjoint_a,
                                                     adjoint_b=adjoint_b))
    np.testing.assert_allclose(out, a @ b, rtol=1e-6)
    assert out.dtype == dtype


def test_gradients_in_a_graph():
    idx = np.array([[0, 1], [0, 1], [2, 0]], np.int64)
    with tf.Graph().as_default(), tf.Session() as sess:
        vals = tf.constant([1.0, 2.0, 3.0])
        b = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        out = tf.sparse_tensor_dense_matmul(tf.SparseTensor(idx, vals, [3, 2]), b)
        gv, gb = sess.run(tf.gradients(tf.reduce_sum(out * [[1.0, 10.0]]), [vals, b]))
    np.testing.assert_allclose(gv, [43.0, 43.0, 21.0])   # w . b[col]
    np.testing.assert_allclose(gb, [[3.0, 30.0], [3.0, 30.0]])


@pytest.mark.parametrize("index,message", [([[0, 5]], "k (5) from index[0,1] out of bounds (>=4)"),
                                           ([[7, 1]], "m (7) from index[0,0] out of bounds (>=3)"),
                                           ([[-1, 1]], "m (-1) from index[0,0] out of bounds (>=3)")])
def test_out_of_bounds_is_tf_error(index, message):
    with tf.Graph().as_default(), tf.Session() as sess:
        sp = tf.SparseTensor(np.array(index, np.int64), [1.0], [3, 4])
        with pytest.raises(tf.errors.InvalidArgumentError, match=message.replace("(", r"\(")
                           .replace(")", r"\)").replace("[", r"\[").replace("]", r"\]")):
            sess.run(tf.sparse_tensor_dense_matmul(sp, tf.ones([4, 2])))


# -- SparseSegment{Sum,Mean,SqrtN} on embedding_bag (ops/nn_embedding._segment_bag) ---------

def _segment_oracle(data, indices, segs, num, mode):
    out = torch.zeros((num,) + tuple(data.shape[1:]), dtype=data.dtype)
    out = out.index_add(0, segs, data[indices])
    counts = torch.zeros(num, dtype=data.dtype).index_add(0, segs, torch.ones(len(segs),
                                                                             dtype=data.dtype))
    if mode == "sum":
        return out
    denom = counts if mode == "mean" else counts.sqrt()
    denom = torch.where(counts > 0, denom, torch.ones_like(denom))
    return out / denom.reshape((-1,) + (1,) * (data.dim() - 1))


@pytest.mark.parametrize("mode", ["sum", "mean", "sqrtn"])
@pytest.mark.parametrize("element", [(), (3,), (2, 3)])
def test_segment_bag_matches_oracle(mode, element):
    from tf1compat.ops.nn_embedding import _segment_bag
    g = torch.Generator().manual_seed(1)
    data = torch.randn((9,) + element, generator=g, dtype=torch.float64, requires_grad=True)
    indices = torch.tensor([4, 0, 4, 8, 2, 2, 7])
    segs = torch.tensor([0, 0, 1, 3, 3, 3, 5])        # segments 2 and 4 are empty
    got = _segment_bag(data, indices, segs, 6, mode)
    want = _segment_oracle(data, indices, segs, 6, mode)
    torch.testing.assert_close(got, want)
    w = torch.randn(want.shape, generator=g, dtype=torch.float64)
    torch.testing.assert_close(torch.autograd.grad((got * w).sum(), data)[0],
                               torch.autograd.grad((want * w).sum(), data)[0])


@pytest.mark.parametrize("combiner", ["sum", "mean", "sqrtn"])
def test_embedding_lookup_sparse_values(combiner):
    params = np.arange(24, dtype=np.float32).reshape(6, 4)
    ids = [[0, 0], [0, 1], [2, 0], [3, 0], [3, 1], [3, 2]]
    vals = np.array([1, 5, 3, 0, 0, 2], np.int64)
    with tf.Graph().as_default(), tf.Session() as sess:
        sp = tf.SparseTensor(ids, vals, [4, 3])
        out = sess.run(tf.nn.embedding_lookup_sparse(tf.constant(params), sp, None,
                                                     combiner=combiner))
    rows = {0: [1, 5], 2: [3], 3: [0, 0, 2]}
    want = np.zeros((4, 4), np.float32)
    for r, members in rows.items():
        s = params[members].sum(0)
        want[r] = {"sum": s, "mean": s / len(members),
                   "sqrtn": s / np.sqrt(len(members))}[combiner]
    np.testing.assert_allclose(out, want, rtol=1e-6)


def test_strided_index_columns():
    """Rows and columns are views of one [nnz, 2] tensor (regression: torch's COO -> CSR
    conversion misread a strided row vector)."""
    idx = torch.tensor([[0, 1], [2, 0]])
    b = torch.arange(6.0, dtype=torch.float64).reshape(2, 3)
    vals = torch.tensor([1.5, -2.0], dtype=torch.float64)
    got = sparse_dense_matmul(idx[:, 0], idx[:, 1], vals, b, 3)
    torch.testing.assert_close(got, _oracle(idx[:, 0], idx[:, 1], vals, b, 3))


def test_fed_indices_equal_to_the_last_reuse_their_layout(monkeypatch):
    """A GCN feeds the same sparse features every run: equal indices reuse the CSR layout
    (no sort), new values still give their own product, other indices a new layout."""
    import tf1compat.ops.sparse_math as sparse_math
    built = []

    class Counting(CsrLayout):
        def __init__(self, *args):
            built.append(args[2:])
            super().__init__(*args)
    monkeypatch.setattr(sparse_math, "CsrLayout", Counting)
    idx = np.array([[2, 0], [0, 1], [1, 2], [0, 0]], np.int64)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)

    def dense(indices, values):
        out = np.zeros((3, 3), np.float32)
        np.add.at(out, (indices[:, 0], indices[:, 1]), values)
        return out
    with tf.Graph().as_default():
        sp = tf.sparse_placeholder(tf.float32, shape=[3, 3])
        prod = tf.sparse_tensor_dense_matmul(sp, tf.constant(b))
        with tf.Session() as sess:
            for indices, values, layouts in [
                    (idx, np.array([1., 2., 3., 4.], np.float32), 1),
                    (idx.copy(), np.array([5., 6., 7., 8.], np.float32), 1),
                    (idx[::-1].copy(), np.array([1., 1., 1., 1.], np.float32), 2)]:
                got = sess.run(prod, {sp: tf.SparseTensorValue(indices, values, [3, 3])})
                np.testing.assert_allclose(got, dense(indices, values) @ b)
                assert len(built) == layouts
