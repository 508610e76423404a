"""Golden cases: which gradients of a gradient are None. TF's first gradient is a graph
of gradient functions that read only some forward tensors (MatMul's reads the other
operand, BiasAdd's and Add's nothing, Relu's its output), so a second gradient with
respect to a bias whose only path runs through the forward value is None (WGAN-GP's
penalty `tf.gradients(critic(x_hat), x_hat)` has none for the critic's last bias, and
a `minimize` of the penalty alone leaves that bias without an update)."""

import numpy as np


def _none_mask(grads):
    return [g is None for g in grads]


def _layer(tf, x, w, b, add):
    return tf.matmul(x, w) + b if add else tf.nn.bias_add(tf.matmul(x, w), b)


def _critic_variables(tf, rng, hidden):
    x = tf.placeholder(tf.float32, [None, 2])
    w1 = tf.Variable(rng.randn(2, hidden).astype(np.float32), name="w1")
    b1 = tf.Variable(rng.randn(hidden).astype(np.float32), name="b1")
    w2 = tf.Variable(rng.randn(hidden, 1).astype(np.float32), name="w2")
    b2 = tf.Variable(rng.randn(1).astype(np.float32), name="b2")
    return x, w1, b1, w2, b2


def case_second_gradients_through_dense_layers(tf):
    rng = np.random.RandomState(0)
    x, w1, b1, w2, b2 = _critic_variables(tf, rng, 4)
    params = [w1, b1, w2, b2, x]
    out = {}
    grads = {}
    for add in (False, True):
        tag = "add" if add else "bias_add"
        linear = _layer(tf, x, w1, b1, add)
        critic = tf.reshape(_layer(tf, tf.nn.relu(linear), w2, b2, add), [-1])
        g = tf.gradients(critic, [x])[0]
        grads[tag + "_relu"] = tf.gradients(tf.reduce_sum(tf.square(g)), params)
        plain = _layer(tf, x, w1, b1, add)
        g_plain = tf.gradients(plain, x)[0]
        grads[tag + "_linear"] = tf.gradients(g_plain, params)
        # (+1e-6: a row whose relus are all off has a zero gradient, and the NaN of
        # sqrt's gradient at 0 reaches w2 in TF but not here, which is not this case)
        slopes = tf.sqrt(tf.reduce_sum(tf.square(g), reduction_indices=[1]) + 1e-6)
        grads[tag + "_penalty"] = tf.gradients(tf.reduce_mean((slopes - 1.) ** 2), params)
    feed = {x: rng.randn(5, 2).astype(np.float32)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for key, gs in grads.items():
            out[key + "_none"] = _none_mask(gs)
            out[key] = sess.run([g for g in gs if g is not None], feed)
    return out


def case_penalty_only_minimize_skips_the_unconnected_bias(tf):
    rng = np.random.RandomState(1)
    x, w1, b1, w2, b2 = _critic_variables(tf, rng, 3)
    critic = tf.nn.bias_add(tf.matmul(tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w1), b1)),
                                      w2), b2)
    g = tf.gradients(critic, [x])[0]
    penalty = tf.reduce_mean(tf.square(tf.norm(g, axis=1) - 1.))
    opt = tf.train.AdamOptimizer(0.1)
    pairs = opt.compute_gradients(penalty, var_list=[w1, b1, w2, b2])
    train = opt.apply_gradients(pairs)
    feed = {x: rng.randn(6, 2).astype(np.float32)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train, feed)
        return {"none": [gv[0] is None for gv in pairs],
                "slots": sorted(v.op.name for v in tf.global_variables()),
                "values": sess.run([w1, b1, w2, b2])}
