"""Gradients of gradients through a tf.while_loop whose body holds a tf.cond: built the
same way by scripts/make_graph_fixtures_second_order.py (real TF, control flow v2) and
tests/test_second_order_loops.py (tf1compat, from TF's checkpoint)."""

from __future__ import annotations

import numpy as np

XS = (np.array([0.3, 0.7, -0.4], np.float32), np.array([-0.9, 0.2, 0.5], np.float32))
W0 = np.array([0.5, -0.3, 0.8], np.float32)


def loop_loss(tf, x, w):
    """A while loop over a counter and a state, the body's step chosen by a tf.cond on
    the counter; the loss is a sum over its result."""
    def body(i, h):
        h = tf.cond(i % 2 < 1, lambda: tf.sin(h * w) + h * h * 0.1,
                    lambda: tf.tanh(h) * w + 0.3 * h)
        return i + 1, h
    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), x])
    return tf.reduce_sum(h * h * w, name="loss")


def build_second_order(tf) -> None:
    """"g" = d loss/dx, "gg" = d g/dx, "hessian" = tf.hessians(loss, x), "g_w" =
    d sum(g * g)/dw for a fed x and a variable w the body captures."""
    x = tf.placeholder(tf.float32, [3], name="x")
    w = tf.Variable(W0, name="w")
    loss = loop_loss(tf, x, w)
    g = tf.gradients(loss, x)[0]
    tf.identity(g, name="g")
    tf.identity(tf.gradients(g, x)[0], name="gg")
    tf.identity(tf.hessians(loss, x)[0], name="hessian")
    tf.identity(tf.gradients(tf.reduce_sum(g * g), w)[0], name="g_w")


def build_gradient_penalty(tf) -> None:
    """"total" = loss + sum((d loss/dx) ** 2), its GradientDescent op "train"."""
    x = tf.placeholder(tf.float32, [3], name="x")
    w = tf.Variable(W0, name="w")
    loss = loop_loss(tf, x, w)
    g = tf.gradients(loss, x)[0]
    total = tf.add(loss, tf.reduce_sum(g * g), name="total")
    tf.train.GradientDescentOptimizer(0.1).minimize(total, name="train")
