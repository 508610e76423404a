"""Gradients of gradients without loops (a WGAN-GP critic's gradient penalty, d²/dx²,
`tf.hessians`) in the form tf1compat writes for real TF (graphdef/loop_second_order.py
with no loop: the first gradient a construct whose gradient is that of a tangent
function): built by tests/test_second_order_plain.py and, through
scripts/check_tf_reads_graphs.py, read and run by real TF."""

from __future__ import annotations

import numpy as np

X23 = np.array([[0.3, -0.8, 0.5], [1.1, 0.2, -0.4]], np.float32)
X23_B = np.array([[-0.6, 0.4, 0.9], [0.1, -1.2, 0.7]], np.float32)
W33 = np.array([[0.5, -0.3, 0.2], [0.1, 0.4, -0.6], [-0.2, 0.3, 0.7]], np.float32)
REAL = np.array([[0.8, -0.1, 0.4], [0.2, 0.9, -0.7], [-0.5, 0.3, 0.6], [0.1, 0.1, 0.2]],
                np.float32)
FAKE = np.array([[-0.3, 0.5, 0.1], [0.7, -0.6, 0.2], [0.0, 0.4, -0.9], [0.6, 0.2, 0.3]],
                np.float32)
ALPHA = np.array([[0.25], [0.6], [0.9], [0.1]], np.float32)


def case_second_order_plain(tf):
    """d/dx of tf.gradients(loss, x) (a tanh/matmul/bias_add/softplus loss), d sum(g*g)/dw
    of both variables, and tf.hessians(loss, x) (6 x 6, written row by row): no gradient
    op keeps tf1compat's form."""
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    w = tf.Variable(W33, name="w")
    b = tf.get_variable("b", initializer=np.array([0.1, -0.2, 0.3], np.float32),
                        use_resource=True)
    h = tf.tanh(tf.nn.bias_add(tf.matmul(x, w), b))
    loss = tf.reduce_sum(tf.nn.softplus(h) * tf.sin(x) + tf.square(h) / 3.0, name="loss")
    g = tf.identity(tf.gradients(loss, x)[0], name="g")
    tf.identity(tf.gradients(g, x)[0], name="gg")
    g_w, g_b = tf.gradients(tf.reduce_sum(g * g), [w, b])
    tf.identity(g_w, name="g_w")
    tf.identity(g_b, name="g_b")
    tf.identity(tf.hessians(loss, x)[0], name="hessian")
    tf.global_variables_initializer()
    fetches = ["loss:0", "g:0", "gg:0", "g_w:0", "g_b:0", "hessian:0"]
    return {"init": "init", "runs": [{"feeds": {"x:0": X23}, "fetches": fetches},
                                     {"feeds": {"x:0": X23_B}, "fetches": fetches}]}


def _critic(tf, inputs, reuse):
    with tf.variable_scope("critic", reuse=reuse):
        hidden = tf.layers.dense(inputs, 5, activation=tf.nn.relu, name="hidden",
                                 kernel_initializer=tf.constant_initializer(
                                     np.sin(np.arange(15)).reshape(3, 5) * 0.7))
        return tf.layers.dense(hidden, 1, name="out", kernel_initializer=tf.constant_initializer(
            np.cos(np.arange(5)).reshape(5, 1) * 0.6))


def case_train_gradient_penalty_plain(tf):
    """A WGAN-GP critic step (improved_wgan_training's pattern): the critic's
    Wasserstein loss plus 10 * mean((|d critic(interpolates)/d interpolates| - 1) ** 2),
    trained with GradientDescent from the file."""
    from tests.graph_training_cases import _training_spec
    real = tf.placeholder(tf.float32, [4, 3], name="real")
    fake = tf.placeholder(tf.float32, [4, 3], name="fake")
    alpha = tf.placeholder(tf.float32, [4, 1], name="alpha")
    interpolates = real + alpha * (fake - real)
    wasserstein = tf.reduce_mean(_critic(tf, fake, False)) - \
        tf.reduce_mean(_critic(tf, real, True))
    gradients = tf.gradients(_critic(tf, interpolates, True), [interpolates])[0]
    slopes = tf.sqrt(tf.reduce_sum(tf.square(gradients), axis=1))
    penalty = tf.reduce_mean((slopes - 1.0) ** 2)
    total = tf.add(wasserstein, 10.0 * penalty, name="total")
    tf.train.GradientDescentOptimizer(0.05).minimize(total, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"real:0": REAL, "fake:0": FAKE,
                                                  "alpha:0": ALPHA},
                          ["total:0", "critic/hidden/kernel:0", "critic/hidden/bias:0",
                           "critic/out/kernel:0"])


SECOND_ORDER_PLAIN_CASES = [case_second_order_plain, case_train_gradient_penalty_plain]
