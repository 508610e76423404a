"""tf.contrib.mixed_precision: LossScaleOptimizer with the fixed and the exponential-update
loss scale managers, against a numpy re-computation of TF 1.15's rules
(tensorflow/contrib/mixed_precision/python/loss_scale_manager.py and
loss_scale_optimizer.py; TF 2 has no contrib to record from)."""

import numpy as np
import pytest

import tf1compat as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()


def _manager_model(scale, xs, incr_every, decr_every, incr_ratio, decr_ratio):
    """TF 1.15's ExponentialUpdateLossScaleManager and a GD step on w, step by step: the
    scale, counters, w and global_step after each feed x (the gradient of the scaled
    loss w * x * scale is x * scale, in float32)."""
    good = bad = 0
    w, step, out = 1.0, 0, []
    for x in xs:
        with np.errstate(over="ignore", invalid="ignore"):
            scaled = np.float32(x) * np.float32(scale)
            grad = scaled * (np.float32(1) / np.float32(scale))
        if np.isfinite(scaled):
            w = np.float32(w - np.float32(0.5) * grad)
            step += 1
            if good + 1 >= incr_every:
                with np.errstate(over="ignore"):
                    raised = np.float32(scale) * np.float32(incr_ratio)
                if np.isfinite(raised):
                    scale = raised
                good = bad = 0
            else:
                good += 1
        else:
            if bad + 1 >= decr_every:
                scale = max(np.float32(1.0), np.float32(scale) * np.float32(decr_ratio))
                good = bad = 0
            else:
                bad += 1
                good = 0
        out.append((np.float32(scale), good, bad, np.float32(w), step))
    return out


@pytest.mark.parametrize("init,incr_every,decr_every,incr_ratio,decr_ratio", [
    (8.0, 2, 2, 2.0, 0.5),
    (2.0 ** 100, 1, 1, 2.0 ** 20, 0.8),   # a second raise would overflow float32: it stays
    (1.5, 3, 1, 3.0, 0.25),           # lowering stops at 1
])
def test_exponential_update_manager_follows_tf_rules(init, incr_every, decr_every,
                                                     incr_ratio, decr_ratio):
    x = tf.placeholder(tf.float32, [])
    w = tf.Variable(1.0, name="w")
    manager = tf.contrib.mixed_precision.ExponentialUpdateLossScaleManager(
        init, incr_every, decr_every_n_nan_or_inf=decr_every, incr_ratio=incr_ratio,
        decr_ratio=decr_ratio)
    opt = tf.contrib.mixed_precision.LossScaleOptimizer(
        tf.train.GradientDescentOptimizer(0.5), manager)
    global_step = tf.train.get_or_create_global_step()
    train = opt.minimize(w * x, global_step=global_step)
    state = [manager.get_loss_scale(), manager._num_good_steps, manager._num_bad_steps, w,
             global_step]
    xs = [1.0, 2.0, np.inf, 1.0, np.nan, np.inf, 3.0, 1.0, 1.0, -np.inf, 2.0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = []
        for v in xs:
            sess.run(train, {x: v})
            got.append(tuple(sess.run(state)))
    want = _manager_model(init, xs, incr_every, decr_every, incr_ratio, decr_ratio)
    for g, e in zip(got, want):
        np.testing.assert_allclose(g[0], e[0], rtol=1e-6)
        assert g[1:3] == e[1:3]
        np.testing.assert_allclose(g[3], e[3], rtol=1e-6)
        assert g[4] == e[4]


def test_manager_variables_have_tf_names_and_are_not_trainable():
    with tf.variable_scope("amp"):
        tf.contrib.mixed_precision.ExponentialUpdateLossScaleManager(2.0 ** 15, 1000)
    assert [v.name for v in tf.global_variables()] == [
        "amp/loss_scale:0", "amp/good_steps:0", "amp/bad_steps:0"]
    assert tf.trainable_variables() == []
    assert [v.dtype.base_dtype for v in tf.global_variables()] == [
        tf.float32, tf.int32, tf.int32]


def test_fixed_manager_scales_loss_and_unscales_gradients():
    w = tf.Variable([1.0, -2.0])
    loss = tf.reduce_sum(w * w)
    opt = tf.contrib.mixed_precision.LossScaleOptimizer(
        tf.train.GradientDescentOptimizer(0.1),
        tf.contrib.mixed_precision.FixedLossScaleManager(1024))
    (grad, var), = opt.compute_gradients(loss)
    assert var is w
    train = opt.apply_gradients([(grad, var)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(grad), [2.0, -4.0])
        sess.run(train)
        np.testing.assert_allclose(sess.run(w), [0.8, -1.6], rtol=1e-6)


def test_fixed_manager_refuses_a_scale_below_one():
    with pytest.raises(ValueError, match="loss scale must be at least 1"):
        tf.contrib.mixed_precision.FixedLossScaleManager(0.5)


def test_float16_model_with_adam_skips_the_overflowing_step():
    """The recipe NVIDIA's TF1 scripts follow: float16 compute, float32 variables, Adam
    wrapped in a LossScaleOptimizer; a step whose scaled gradients overflow float16 leaves
    the weights, Adam's slots and global_step as they were and lowers the scale."""
    x = tf.placeholder(tf.float32, [4, 3])
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(0.5))
    y = tf.matmul(tf.cast(x, tf.float16), tf.cast(w, tf.float16))
    loss = tf.reduce_mean(tf.cast(y, tf.float32) ** 2)
    manager = tf.contrib.mixed_precision.ExponentialUpdateLossScaleManager(
        2.0 ** 14, incr_every_n_steps=100, decr_every_n_nan_or_inf=1, decr_ratio=0.5)
    opt = tf.contrib.mixed_precision.LossScaleOptimizer(tf.train.AdamOptimizer(0.01),
                                                        manager)
    step = tf.train.get_or_create_global_step()
    train = opt.minimize(loss, global_step=step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        small = np.full((4, 3), 0.1, np.float32)
        sess.run(train, {x: small})
        w1 = sess.run(w)
        assert sess.run(step) == 1 and not np.allclose(w1, 0.5)
        sess.run(train, {x: np.full((4, 3), 300.0, np.float32)})   # 2**14 * grad > 65504
        np.testing.assert_array_equal(sess.run(w), w1)
        assert sess.run(step) == 1
        assert sess.run(manager.get_loss_scale()) == 2.0 ** 13
