"""Python gradient functions inside tf.cond / tf.while_loop regions (values against TF:
tests/golden/cases_region_custom_gradients.py); what tf1compat refuses there."""

import numpy as np
import pytest

import tf1compat as tf


def test_gradient_function_reading_an_outside_placeholder_is_refused_by_name():
    scale = tf.placeholder(tf.float32, [], name="scale")

    @tf.custom_gradient
    def clip_grad(v):
        def grad(dy):
            return tf.clip_by_value(dy, -scale, scale)
        return tf.identity(v), grad

    w = tf.Variable(np.ones(3, np.float32))
    out = tf.while_loop(lambda i, h: i < 2, lambda i, h: (i + 1, clip_grad(h * w)),
                        [0, tf.ones([3])])[1]
    with pytest.raises(NotImplementedError, match="uses scale:0, computed outside it"):
        tf.gradients(tf.reduce_sum(out), w)


def test_iteration_values_reach_the_gradient_function_of_each_iteration():
    """The gradient reads the iteration's own forward value: d/dw of prod_i (w * c_i)
    through a custom gradient equal to the true one."""
    w = tf.Variable(2.0)

    @tf.custom_gradient
    def times(v, c):
        def grad(dy):
            return dy * c, dy * v
        return v * c, grad

    def body(i, acc):
        c = tf.cast(i + 1, tf.float32)
        return i + 1, acc * times(w, c)
    out = tf.while_loop(lambda i, a: i < 3, body, [0, tf.constant(1.0)])[1]
    grad = tf.gradients(out, w)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value, g = sess.run([out, grad])
    # out = w^3 * 3!, d/dw = 3 w^2 * 6 = 72 at w = 2.
    assert value == pytest.approx(48.0)
    assert g == pytest.approx(72.0)
