"""Plan rewrites (runtime/plan_rewrites.py) and grad-mode kernels of clean inputs
(autodiff/grad_mode.py): the same values and errors as the ops they replace."""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf
from tests.test_runtime import _plan


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield


def _types(plan):
    return [step.op.type for step in plan.steps]


def test_reshape_to_own_batch_dimension_is_one_step():
    x = tf.placeholder(tf.float32, [None, 3, 2])
    y = tf.reshape(x, [tf.shape(x)[0], 6])
    z = tf.reshape(x, tf.stack([tf.shape(x)[-1], tf.shape(x)[0], -1]))
    value = np.arange(24, dtype=np.float32).reshape(4, 3, 2)
    with tf.Session() as sess:
        assert _types(_plan(sess, y, [x])) == ["Reshape"]
        assert _types(_plan(sess, z, [x])) == ["Reshape"]
        got_y, got_z = sess.run([y, z], {x: value})
    np.testing.assert_array_equal(got_y, value.reshape(4, 6))
    np.testing.assert_array_equal(got_z, value.reshape(2, 4, 3))


def test_reshape_rewrite_keeps_reshape_errors():
    x = tf.placeholder(tf.float32, [None, 3])
    bad = tf.reshape(x, [tf.shape(x)[0], 5])
    twice = tf.reshape(x, [tf.shape(x)[0], tf.shape(x)[0], 1])
    two_unknown = tf.reshape(x, [tf.shape(x)[0], -1, -1])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Input to reshape is a tensor with 12 values, but the "
                                 "requested shape has 20") as info:
            sess.run(bad, {x: np.zeros((4, 3), np.float32)})
        assert info.value.op is bad.op
        # A dimension read twice: 3 rows of 3 make 9 values, 3 x 3 x 1 is 9 too.
        assert sess.run(twice, {x: np.ones((3, 3), np.float32)}).shape == (3, 3, 1)
        with pytest.raises(tf.errors.InvalidArgumentError, match="has 4"):
            sess.run(twice, {x: np.ones((2, 3), np.float32)})
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Only one input size may be -1, not both 1 and 2"):
            sess.run(two_unknown, {x: np.ones((2, 3), np.float32)})


def test_reshape_rewrite_leaves_what_it_cannot_prove():
    x = tf.placeholder(tf.float32, [None, 3])
    shape = tf.stack([tf.shape(x)[0], 3])
    y = tf.reshape(x, shape)
    other = tf.placeholder(tf.float32, [None, 3])
    from_other = tf.reshape(x, [tf.shape(other)[0], 3])           # another tensor's shape
    rank_unknown = tf.placeholder(tf.float32)
    r = tf.reshape(rank_unknown, [tf.shape(rank_unknown)[0], -1])
    static = tf.placeholder(tf.float32, [4, 3])
    folded = tf.reshape(static, [tf.shape(static)[0], 3])
    value = np.ones((4, 3), np.float32)
    with tf.Session() as sess:
        assert "Pack" in _types(_plan(sess, from_other, [x, other]))
        assert "Pack" in _types(_plan(sess, r, [rank_unknown]))
        assert _types(_plan(sess, folded, [static])) == ["Reshape"]   # folded shape
        # A fed shape is the reshape's shape; a fetched one still runs.
        assert sess.run(y, {x: value, shape: [2, 6]}).shape == (2, 6)
        got, got_shape = sess.run([y, shape], {x: value})
        assert "Pack" in _types(_plan(sess, [y, shape], [x]))
        assert got.shape == (4, 3) and list(got_shape) == [4, 3]
        assert sess.run(from_other, {x: value, other: value}).shape == (4, 3)
        assert sess.run(r, {rank_unknown: value}).shape == (4, 3)


def test_reshape_rewrite_under_gradients():
    x = tf.placeholder(tf.float32, [None, 2])
    w = tf.Variable(np.array([[1., 2.], [3., 4.]], np.float32))
    h = tf.matmul(x, w)
    flat = tf.reshape(h, [tf.shape(h)[0] * 0 + tf.shape(h)[0], 2])   # not the pattern
    y = tf.reshape(h, [tf.shape(h)[0], 2])
    loss = tf.reduce_sum(y * y) + tf.reduce_sum(flat)
    grad = tf.gradients(loss, w)[0]
    value = np.array([[1., 0.], [0., 2.]], np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = sess.run(grad, {x: value})
    hv = value @ np.array([[1., 2.], [3., 4.]], np.float32)
    np.testing.assert_allclose(got, value.T @ (2 * hv + 1), rtol=1e-6)


def test_clean_inputs_run_unwrapped_kernels_in_gradient_plans():
    queue = tf.FIFOQueue(10, [tf.float32, tf.float32], shapes=[[], []])
    enqueue = queue.enqueue_many([[1., 2., 3.], [4., 5., 6.]])
    a, b = queue.dequeue_many(3)
    features = tf.concat([tf.reshape(tf.expand_dims(a, -1), [3, 1]),
                          tf.reshape(tf.expand_dims(b, -1), [3, 1])], 1)
    w = tf.Variable(np.ones((2, 1), np.float32))
    loss = tf.reduce_sum(tf.matmul(features, w))
    step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(enqueue)
        plan = _plan(sess, [step, loss])
        kernels = {s.op.type: s.kernel.__qualname__ for s in plan.steps
                   if s.kernel is not None}
        assert "_detach_inputs" not in kernels["ExpandDims"]
        assert "_detach_inputs" not in kernels["ConcatV2"]
        assert "_cut_outputs" in kernels["QueueDequeueManyV2"]
        _, got = sess.run([step, loss])
        assert got == pytest.approx(21.)
        np.testing.assert_allclose(sess.run(w), [[1. - 0.6], [1. - 1.5]], rtol=1e-6)
