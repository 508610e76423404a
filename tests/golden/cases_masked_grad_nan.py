"""Golden cases: TF's ReluGrad and Relu6Grad multiply the incoming gradient by the mask
of active units, so a NaN or inf reaching an inactive unit stays NaN (torch's backward
selects 0 there). WGAN-GP's gradient penalty `sqrt(sum(g ** 2))` of a sample whose
critic gradient is 0 (every ReLU off) sends inf back, and TF's weights gradient is NaN."""

import numpy as np


def case_relu_and_relu6_gradients_of_nan_and_inf(tf):
    x = tf.placeholder(tf.float32, [6])
    up = tf.placeholder(tf.float32, [6])
    out = {}
    fetches = {}
    for name, fn in (("relu", tf.nn.relu), ("relu6", tf.nn.relu6)):
        g = tf.gradients(fn(x), x, grad_ys=up)[0]
        fetches[name] = g
        fetches[name + "_second"] = tf.gradients(tf.reduce_sum(g * g), [up])[0]
    feed = {x: np.array([-1., 0., 2., -3., 7., -0.5], np.float32),
            up: np.array([np.nan, np.inf, np.nan, -np.inf, 1., -2.], np.float32)}
    with tf.Session() as sess:
        for key, value in sess.run(fetches, feed).items():
            out[key] = value
    return out


def case_gradient_penalty_of_a_dead_sample_is_nan(tf):
    rng = np.random.RandomState(0)
    x = tf.placeholder(tf.float32, [None, 2])
    w1 = tf.Variable(rng.randn(2, 4).astype(np.float32), name="w1")
    b1 = tf.Variable(rng.randn(4).astype(np.float32), name="b1")
    w2 = tf.Variable(rng.randn(4, 1).astype(np.float32), name="w2")
    hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
    critic = tf.reshape(tf.matmul(hidden, w2), [-1])
    g = tf.gradients(critic, [x])[0]
    slopes = tf.sqrt(tf.reduce_sum(tf.square(g), reduction_indices=[1]))
    penalty = tf.reduce_mean((slopes - 1.) ** 2)
    grads = tf.gradients(penalty, [w1, b1, w2])
    # the last row switches every hidden unit off: its critic gradient is 0
    feed = {x: np.array([[0.5, -0.2], [1.0, 0.3], [-2.0, 0.0]], np.float32)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        h, s, gs = sess.run([hidden, slopes, grads], feed)
    return {"hidden": h, "slopes": s, "grads": gs}
