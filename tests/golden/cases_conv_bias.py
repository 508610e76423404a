"""Golden cases: Conv2D + BiasAdd (+ Relu) chains, which TF 2.21's default x86 build runs as
one oneDNN convolution (ops/nn_conv_bias.py): NaN reaching the fused ReLU comes out as 0;
float64, and chains whose intermediate is fetched, stay unfused (NaN kept); gradients and
training steps through the fused chain, ties (ReLU inputs exactly 0) included."""

import numpy as np

from tests.golden.harness import tolerance


def _x(shape, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def _special(shape, seed=0):
    """Random data with a NaN, +inf and -inf, and a zero patch (ties at the ReLU where the
    bias is 0)."""
    x = _x(shape, seed)
    x[0, 1, 1, 0] = np.nan
    x[0, 3, 0, 1] = np.inf
    x[1, 0, 2, 2] = -np.inf
    x[1, 2:, 2:, :] = 0.0
    return x


def _chain(tf, x, w, b, act, **conv):
    y = tf.nn.bias_add(tf.nn.conv2d(x, w, **conv), b)
    return act(y) if act is not None else y


@tolerance(1e-4, 1e-4)
def case_conv_bias_relu_nan(tf):
    x = tf.placeholder(tf.float32, [2, 6, 5, 3], name="x")
    w = tf.constant(_x([3, 3, 3, 4], 1), name="w")
    b = tf.constant(np.array([0.5, 0.0, -0.5, 1.0], np.float32), name="b")
    relu = tf.nn.relu
    outs = {
        "relu_same": _chain(tf, x, w, b, relu, strides=[1, 1, 1, 1], padding="SAME"),
        "relu_valid_s2": _chain(tf, x, w, b, relu, strides=[1, 2, 2, 1], padding="VALID"),
        "relu_dil2": _chain(tf, x, w, b, relu, strides=[1, 1, 1, 1], padding="SAME",
                            dilations=[1, 2, 2, 1]),
        "relu_same_s2_odd": _chain(tf, x, w, b, relu, strides=[1, 2, 2, 1], padding="SAME"),
        # (Another filter: TF's graph optimizer would merge a repeat of relu_same's
        # Conv2D into it, which would then have two readers and stay unfused.)
        "bias_only": _chain(tf, x, w * 2.0, b, None, strides=[1, 1, 1, 1], padding="SAME"),
        "elu": _chain(tf, x, w, b, tf.nn.elu, strides=[1, 1, 1, 1], padding="VALID"),
    }
    with tf.Session() as sess:
        return sess.run(outs, {x: _special([2, 6, 5, 3])})


@tolerance(1e-4, 1e-4)
def case_conv_bias_relu_unfused_forms(tf):
    """The chains TF leaves unfused keep NaN: the BiasAdd output fetched too, float64."""
    xv = _special([2, 5, 5, 3])
    x = tf.placeholder(tf.float32, [2, 5, 5, 3])
    z = tf.nn.bias_add(tf.nn.conv2d(x, _x([3, 3, 3, 4], 1), 1, "SAME"), _x([4], 2))
    y = tf.nn.relu(z)
    x64 = tf.placeholder(tf.float64, [2, 5, 5, 3])
    y64 = _chain(tf, x64, _x([3, 3, 3, 4], 1).astype(np.float64),
                 _x([4], 2).astype(np.float64), tf.nn.relu, strides=1, padding="SAME")
    with tf.Session() as sess:
        both = sess.run({"relu": y, "bias_add": z}, {x: xv})
        return {"fetched_both": both,
                "float64": sess.run(y64, {x64: xv.astype(np.float64)})}


@tolerance(1e-4, 1e-4)
def case_conv_bias_relu_gradients(tf):
    """Gradients through the fused chain, on data with ties (ReLU inputs exactly 0)."""
    xv = _x([2, 6, 6, 3])
    xv[1, 2:, 2:, :] = 0.0
    x = tf.placeholder(tf.float32, [2, 6, 6, 3])
    w = tf.Variable(_x([3, 3, 3, 4], 1), name="w")
    b = tf.Variable(np.array([0.5, 0.0, -0.5, 1.0], np.float32), name="b")
    y = _chain(tf, x, w, b, tf.nn.relu, strides=[1, 2, 2, 1], padding="SAME")
    y2 = _chain(tf, y, tf.constant(_x([2, 2, 4, 2], 3)), tf.constant([0.1, 0.0]), None,
                strides=1, padding="VALID")
    loss = tf.reduce_sum(tf.square(y2 - 0.5))
    grads = tf.gradients(loss, [x, w, b])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        gx, gw, gb = sess.run(grads, {x: xv})
    return {"dx": gx, "dw": gw, "db": gb}


@tolerance(1e-4, 1e-4)
def case_conv_bias_relu_training(tf):
    """Adam steps on a two-layer conv net built by tf.layers (Conv2D + BiasAdd + Relu)."""
    tf.set_random_seed(3)
    rng = np.random.RandomState(3)
    x = tf.placeholder(tf.float32, [None, 8, 8, 2])
    net = tf.layers.conv2d(x, 4, 3, padding="same", activation=tf.nn.relu, name="c1")
    net = tf.layers.conv2d(net, 3, 3, strides=2, activation=tf.nn.relu, name="c2")
    loss = tf.reduce_mean(tf.square(net - 0.3))
    train = tf.train.AdamOptimizer(0.01).minimize(loss)
    out = {"losses": []}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(4):
            xb = rng.randn(4, 8, 8, 2).astype(np.float32)
            out["losses"].append(sess.run([train, loss], {x: xb})[1])
        out["variables"] = {v.name: sess.run(v) for v in tf.trainable_variables()}
    return out
