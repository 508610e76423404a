"""The cached CSR matrix of a constant sparse operand (ops/_sparse_matmul.py) sees new
values when the operand's variable is assigned."""

import numpy as np

import tf1compat as tf


def test_cached_sparse_matrix_sees_assigned_values():
    indices = [[0, 1], [2, 0], [1, 2], [1, 0]]   # unordered rows: a reordered CSR matrix
    values = tf.Variable([1.0, 2.0, 3.0, 4.0])
    adj = tf.SparseTensor(indices, values, [3, 3])
    b = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    out = tf.sparse_tensor_dense_matmul(adj, b)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(out)
        again = sess.run(out)
        sess.run(values.assign([10.0, 20.0, 30.0, 40.0]))
        after = sess.run(out)
    dense = np.zeros((3, 3), np.float32)
    for (r, c), v in zip(indices, [1.0, 2.0, 3.0, 4.0]):
        dense[r, c] = v
    np.testing.assert_allclose(first, dense @ np.arange(6).reshape(3, 2))
    np.testing.assert_allclose(again, first)
    np.testing.assert_allclose(after, 10 * first)


def test_transposed_layout_keeps_each_columns_entries_in_coo_order():
    # The transposed layout's stable order (numpy's radix sort for 16-bit keys, torch's
    # sort above) must keep repeated entries in their COO order: CSR sums them in that
    # order, so an unstable sort would change the gradient's last bits.
    import torch
    from tf1compat.ops._sparse_matmul import CsrLayout
    for n_cols in (1433, 70000):
        gen = torch.Generator().manual_seed(0)
        cols = torch.randint(0, n_cols, (5000,), generator=gen)
        cols[::7] = 3                              # many ties
        rows = torch.arange(5000) // 3
        t = CsrLayout(rows, cols, 5000 // 3 + 1, n_cols).transposed()
        assert torch.equal(t.order, torch.argsort(cols, stable=True))
        assert torch.equal(t.col_indices, rows[t.order])


def test_sparse_times_scalar_reads_the_scalar_at_every_index():
    sp = tf.SparseTensor([[0, 1], [2, 0], [1, 2]], [1.0, 2.0, 3.0], [3, 3])
    keep = tf.placeholder(tf.float32, [])
    scaled = sp * (1.0 / keep)
    by_vector = sp * tf.constant([[0.5], [1.5], [2.5]])      # [3, 1] broadcast: gathered
    with tf.Session() as sess:
        values = sess.run(scaled.values, {keep: 0.5})
        vector_values = sess.run(by_vector.values)
    np.testing.assert_array_equal(values, [2.0, 4.0, 6.0])
    np.testing.assert_array_equal(vector_values, [0.5, 5.0, 4.5])


def test_where_lists_the_same_indices_as_torch_nonzero():
    # Where's CPU kernel takes numpy's nonzero (sparse_retain's mask); same order and dtype.
    import torch
    from tf1compat.ops.indexing_ops import _where
    gen = torch.Generator().manual_seed(1)
    for shape in [(0,), (7,), (3, 4), (2, 3, 4), (0, 3)]:
        for dtype in (torch.bool, torch.float32, torch.int32, torch.complex64):
            x = (torch.rand(shape, generator=gen) > 0.5).to(dtype)
            got, want = _where(x), torch.nonzero(x)
            assert got.dtype == want.dtype and got.is_contiguous()
            assert torch.equal(got, want), (shape, dtype)
    lazy = torch.tensor([1 + 1j, 0j, 2j]).conj()              # a conjugate view
    assert torch.equal(_where(lazy), torch.nonzero(lazy))
    with tf.Graph().as_default():
        mask = tf.placeholder(tf.bool, [None])
        with tf.Session() as sess:
            got = sess.run(tf.where(mask), {mask: [False, True, True, False, True]})
    np.testing.assert_array_equal(got, [[1], [2], [4]])
