"""Unit tests for the linear-algebra, sparse, lookup and small-math additions: numeric
gradients, shim import paths, eager use and the explicit unsupported cases."""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield


def _grad_error(fn, value):
    x = tf.constant(value)
    y = fn(x)
    with tf.Session() as sess:
        y_shape = list(sess.run(y).shape)     # sparse results have no static shape
        return tf.test.compute_gradient_error(x, list(value.shape), y, y_shape,
                                              x_init_value=value)


A = np.array([[2.0, 0.3, -0.1], [0.4, 1.5, 0.2], [0.1, -0.3, 1.0]])


@pytest.mark.parametrize("fn", [
    lambda x: tf.svd(x, compute_uv=False),
    lambda x: tf.linalg.slogdet(x)[1],
    lambda x: tf.linalg.expm(x),
    lambda x: tf.norm(x, ord=2, axis=[0, 1]),
    lambda x: tf.cross(x, x[::-1]),
    lambda x: tf.matrix_solve_ls(x, tf.ones([3, 1], tf.float64)),
    lambda x: tf.sparse_tensor_dense_matmul(
        tf.SparseTensor([[0, 1], [2, 0]], np.array([1.5, -2.0]), [3, 3]), x),
    lambda x: tf.sparse.reduce_sum(tf.sparse.from_dense(x), axis=1),
    lambda x: tf.sparse.softmax(tf.sparse.from_dense(x)).values,
])
def test_numeric_gradients(fn):
    assert _grad_error(fn, A) < 1e-4


def test_svd_complex_singular_values_are_real():
    s, u, v = tf.svd(tf.constant([[1 + 1j, 2], [0, 1j]], tf.complex64))
    assert s.dtype == tf.float32 and u.dtype == tf.complex64
    with tf.Session() as sess:
        s_, u_, v_ = sess.run([s, u, v])
    np.testing.assert_allclose(u_ @ np.diag(s_) @ v_.conj().T,
                               [[1 + 1j, 2], [0, 1j]], atol=1e-5)


def test_shim_paths():
    tf.install()
    try:
        from tensorflow.python.ops import linalg_ops, lookup_ops, sparse_ops
        assert linalg_ops.svd is tf.svd
        assert sparse_ops.sparse_add is tf.sparse_add
        assert lookup_ops.HashTable is tf.contrib.lookup.HashTable
    finally:
        tf.uninstall()


def test_hasher_spec_must_be_a_hasher_spec():
    with pytest.raises(TypeError, match="hasher_spec"):
        tf.contrib.lookup.index_table_from_tensor(["a"], num_oov_buckets=1,
                                                  hasher_spec=object())


def test_expand_nonconcat_dim_unsupported():
    sp = tf.SparseTensor([[0, 0]], [1.0], [1, 1])
    with pytest.raises(NotImplementedError):
        tf.sparse_concat(0, [sp, sp], expand_nonconcat_dim=True)


def test_table_sessions_are_independent():
    t = tf.contrib.lookup.index_table_from_tensor(["a", "b"])
    out = t.lookup(tf.constant(["b", "x"]))
    with tf.Session() as s1:
        s1.run(tf.tables_initializer())
        assert s1.run(out).tolist() == [1, -1]
    with tf.Session() as s2:
        with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized"):
            s2.run(out)


def test_bincount_and_histogram_checks():
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(tf.histogram_fixed_width(tf.constant([1.0]), [2.0, 1.0], nbins=3))
        assert sess.run(tf.bincount(tf.constant([2, 2]), maxlength=2)).tolist() == [0, 0]
