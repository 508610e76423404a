"""Softmax over a short last axis (padded to torch's fast width on CPU) and the cached
CSR matrix of a constant sparse operand: same values as the plain kernels."""

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.ops._kernels import softmax_last_axis


@pytest.mark.parametrize("shape", [(300, 2), (300, 7), (64, 15), (10, 7), (300, 16), (4, 5, 3)])
@pytest.mark.parametrize("log", [False, True])
def test_values_and_gradient_match_torch(shape, log):
    x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    got = softmax_last_axis(x, log=log)
    want = (torch.log_softmax if log else torch.softmax)(x, -1)
    assert got.shape == want.shape
    torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-12)
    g = torch.randn(*shape, dtype=torch.float64)
    (got_grad,) = torch.autograd.grad(got, x, g)
    (want_grad,) = torch.autograd.grad(want, x, g)
    torch.testing.assert_close(got_grad, want_grad, rtol=1e-12, atol=1e-12)


def test_graph_softmax_and_sparse_xent_on_short_rows():
    rng = np.random.RandomState(0)
    logits = rng.randn(500, 7).astype(np.float32) * 3
    labels = np.arange(500) % 7
    x = tf.placeholder(tf.float32, [None, 7])
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x)
    probs = tf.nn.softmax(x)
    grad = tf.gradients(tf.reduce_sum(loss), x)[0]
    with tf.Session() as sess:
        p, losses, g = sess.run([probs, loss, grad], {x: logits})
    shifted = logits - logits.max(1, keepdims=True)
    want_p = np.exp(shifted) / np.exp(shifted).sum(1, keepdims=True)
    np.testing.assert_allclose(p, want_p, rtol=1e-6, atol=1e-7)
    want_log = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
    np.testing.assert_allclose(losses, -want_log[np.arange(500), labels], rtol=1e-5, atol=1e-6)
    onehot = np.eye(7, dtype=np.float32)[labels]
    np.testing.assert_allclose(g, want_p - onehot, rtol=1e-5, atol=1e-6)


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
