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
