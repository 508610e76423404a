"""`K.batch_dot` on rank-4 operands follows TF 1.x (and Keras 2.2.4): one batched MatMul
over the last two axes, adjoint where the contracted axis is not MatMul's, the lower-rank
operand padded with trailing size-1 axes that are squeezed after. tf-keras 2.x contracts
rank 4 otherwise, so the oracle here is numpy applying TF 1.15's rule (ranks 2 and 3,
where both agree, are golden cases: tests/golden/cases_thirdparty_realcode_g.py). The
capsule network of Keras's examples (cifar10_cnn_capsule) depends on this rule."""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield


def _run(x_value, y_value, axes):
    x = tf.placeholder(tf.float32, (None,) + x_value.shape[1:])
    y = tf.placeholder(tf.float32, (None,) + y_value.shape[1:])
    z = tf.keras.backend.batch_dot(x, y, axes)
    with tf.Session() as sess:
        return z, sess.run(z, {x: x_value, y: y_value})


def test_rank4_is_a_batched_matmul_of_the_last_two_axes():
    rng = np.random.RandomState(0)
    x, y = rng.randn(2, 3, 4, 5).astype(np.float32), rng.randn(2, 3, 5, 6).astype(np.float32)
    z, value = _run(x, y, [3, 2])
    assert z.shape.as_list() == [None, 3, 4, 6]
    np.testing.assert_allclose(value, np.matmul(x, y), rtol=1e-5, atol=1e-6)


def test_rank4_adjoint_operands():
    rng = np.random.RandomState(1)
    x, y = rng.randn(2, 3, 5, 4).astype(np.float32), rng.randn(2, 3, 6, 5).astype(np.float32)
    _, value = _run(x, y, (2, 3))     # x's axis 2 and y's last: both adjoint
    np.testing.assert_allclose(value, np.matmul(x.transpose(0, 1, 3, 2),
                                                y.transpose(0, 1, 3, 2)), rtol=1e-5, atol=1e-6)


def test_capsule_routing_products():
    """The capsule layer's two products: coupling (b, 10, n) with predictions
    (b, 10, n, 16) over axes (2, 2), and outputs (b, 10, 16) with predictions over (2, 3)."""
    rng = np.random.RandomState(2)
    c = rng.rand(2, 10, 7).astype(np.float32)
    hat = rng.randn(2, 10, 7, 16).astype(np.float32)
    z, value = _run(c, hat, [2, 2])
    assert z.shape.as_list() == [None, 10, 16]
    np.testing.assert_allclose(value, np.einsum("bcn,bcnd->bcd", c, hat), rtol=1e-5,
                               atol=1e-5)
    o = rng.randn(2, 10, 16).astype(np.float32)
    z, value = _run(o, hat, [2, 3])
    assert z.shape.as_list() == [None, 10, 7]
    np.testing.assert_allclose(value, np.einsum("bcd,bcnd->bcn", o, hat), rtol=1e-5,
                               atol=1e-5)
