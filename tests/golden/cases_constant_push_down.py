"""Golden cases: Grappler's constant push-down. Before running a graph TF re-associates
`(X + Y) - C` with a constant C into `X + (Y - C)` (and the other Add/Sub trees by their
signs), which changes a float sum's last bits: the first linear regression of TF1
courses (DeepLearningZeroToAll's lab 2-1, TF's own "getting started": Python-list data,
`x_train * W + b - y_train`) prints other digits from the second step unless the same
association runs (tf1compat/ops/constant_push_down.py). Compared exactly.
"""

import numpy as np

from tests.golden.harness import tolerance


@tolerance(rtol=0, atol=0)
def case_linear_regression_on_lists(tf):
    """Lab 2-1: W, b drawn from seed 777, 300 steps of SGD; costs and variables."""
    tf.set_random_seed(777)
    x_train = [1, 2, 3]
    y_train = [1, 2, 3]
    W = tf.Variable(tf.random_normal([1]), name="weight")
    b = tf.Variable(tf.random_normal([1]), name="bias")
    hypothesis = x_train * W + b
    cost = tf.reduce_mean(tf.square(hypothesis - y_train))
    train = tf.train.GradientDescentOptimizer(learning_rate=0.01).minimize(cost)
    out = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(300):
            c, w_val, b_val, _ = sess.run([cost, W, b, train])
            if step % 20 == 0:
                out.append([c, w_val, b_val])
    return out


@tolerance(rtol=0, atol=0)
def case_getting_started_numpy_data(tf):
    """TF's getting-started regression: numpy data, `W * x_data + b`, loss against
    y_data, GradientDescent(0.5)."""
    rng = np.random.RandomState(0)
    x_data = rng.rand(100).astype(np.float32)
    y_data = x_data * 0.1 + 0.3
    W = tf.Variable(tf.random_uniform([1], -1.0, 1.0, seed=1))
    b = tf.Variable(tf.zeros([1]))
    y = W * x_data + b
    loss = tf.reduce_mean(tf.square(y - y_data))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    out = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(101):
            sess.run(train)
            if step % 20 == 0:
                out.append([sess.run(W), sess.run(b), sess.run(loss)])
    return out


@tolerance(rtol=0, atol=0)
def case_push_down_trees(tf):
    """The sign cases: the constant left or right, Sub or Add at either level, a
    broadcast constant, a constant larger than its partner (not pushed), the inner sum
    fetched too (not pushed)."""
    rng = np.random.RandomState(5)
    a = tf.Variable(rng.randn(4, 5).astype(np.float32) * 1e3, name="a")
    v = tf.Variable(rng.randn(5).astype(np.float32), name="v")
    c = rng.randn(4, 5).astype(np.float32) * 7
    c_row = rng.randn(5).astype(np.float32) * 7
    exprs = {
        "sum_minus_c": (a + v) - c,
        "c_minus_sum": c - (a + v),
        "diff_minus_c": (a - v) - c,
        "c_minus_diff": c - (a - v),
        "diff_plus_c": (a - v) + c,
        "c_plus_sum": c + (v + a),
        "sum_minus_row": (a + v) - c_row,
        "row_minus_diff": c_row - (v - a),
        "larger_constant": (v * 3.0 + v) - c,
    }
    inner = a * 2.0 + v
    fetched_inner = inner - c
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run(exprs)
        values["fetched_inner"] = sess.run([inner, fetched_inner])
        grads = {k: tf.gradients(tf.reduce_sum(tf.square(e)), [a, v])
                 for k, e in exprs.items()}
        values["grads"] = sess.run(grads)
    return values
