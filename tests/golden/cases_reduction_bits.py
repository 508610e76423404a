"""Golden cases: `reduce_sum` / `reduce_mean` over every element of a float tensor of up to
8,192 floats, or over its trailing dimensions, give TF's CPU bits (compared exactly). TF
adds in Eigen's order (8-float packets in four interleaved accumulators, the packet
folded in halves, leftover scalars one by one); a linear regression's printed cost and
its [1]-shaped gradients show those bits from the first step (DeepLearningZeroToAll's
lab 2-2).
"""

import numpy as np

from tests.golden.harness import tolerance

# Up to one Eigen leaf (8,192 floats, 4,096 doubles): larger sums keep torch's order.
_SIZES32 = [1, 3, 4, 5, 7, 8, 9, 15, 16, 31, 32, 33, 63, 100, 1000, 4099, 8192]
_SIZES64 = [3, 5, 9, 17, 33, 1000, 4096]


def _vector(n, dtype, seed):
    return ((np.random.RandomState(seed).rand(n) - 0.3) * 7).astype(dtype)


@tolerance(rtol=0, atol=0)
def case_full_reduction_bits(tf):
    out = {}
    for dtype, sizes in ((np.float32, _SIZES32), (np.float64, _SIZES64)):
        with tf.Graph().as_default():
            x = tf.placeholder(dtype, [None])
            fetches = {"sum": tf.reduce_sum(x), "mean": tf.reduce_mean(x),
                       "sum_keep": tf.reduce_sum(x, keepdims=True),
                       "mean_axis0": tf.reduce_mean(x, axis=0)}
            with tf.Session() as sess:
                for n in sizes:
                    out[f"{np.dtype(dtype).name}_{n}"] = sess.run(
                        fetches, {x: _vector(n, dtype, n)})
    return out


@tolerance(rtol=0, atol=0)
def case_full_reduction_of_matrices(tf):
    out = {}
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, None])
        fetches = {"sum": tf.reduce_sum(x), "mean": tf.reduce_mean(x),
                   "mean_axes": tf.reduce_mean(x, axis=[0, 1]),
                   "sum_axes_reversed": tf.reduce_sum(x, axis=[1, 0]),
                   "mean_keep": tf.reduce_mean(x, keepdims=True)}
        with tf.Session() as sess:
            for shape in ((3, 7), (40, 25), (128, 10), (1, 33)):
                value = _vector(shape[0] * shape[1], np.float32, 7).reshape(shape)
                out[f"{shape[0]}x{shape[1]}"] = sess.run(fetches, {x: value})
            out["transposed"] = sess.run(fetches["sum"], {x: _vector(600, np.float32, 3)
                                                          .reshape(20, 30).T})
            empty = sess.run([fetches["sum"], fetches["mean"]],
                             {x: np.zeros((0, 3), np.float32)})
            out["empty"] = [float(empty[0]), bool(np.isnan(empty[1]))]
    return out


@tolerance(rtol=0, atol=0)
def case_linear_regression_costs(tf):
    """DeepLearningZeroToAll's lab 2-2: W * X + b fed, cost = mean(square(h - Y))."""
    tf.set_random_seed(777)
    W = tf.Variable(tf.random_normal([1]))
    b = tf.Variable(tf.random_normal([1]))
    X = tf.placeholder(tf.float32, [None])
    Y = tf.placeholder(tf.float32, [None])
    cost = tf.reduce_mean(tf.square(X * W + b - Y))
    grads = tf.gradients(cost, [W, b])
    train = tf.train.GradientDescentOptimizer(0.01).minimize(cost)
    feed = {X: [1, 2, 3, 4, 5], Y: [2.1, 3.1, 4.1, 5.1, 6.1]}
    costs = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(60):
            _, c = sess.run([train, cost], feed)
            costs.append(c)
        return {"costs": costs, "grads": sess.run(grads, feed), "W": sess.run(W),
                "b": sess.run(b)}


@tolerance(rtol=0, atol=0)
def case_row_reduction_bits(tf):
    """Sums over trailing dimensions add each row in the same order."""
    out = {}
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, None])
        x3 = tf.placeholder(tf.float32, [None, None, None])
        rows = {"sum": tf.reduce_sum(x, axis=1), "mean": tf.reduce_mean(x, axis=-1),
                "sum_keep": tf.reduce_sum(x, axis=1, keepdims=True)}
        trailing = {"sum_last2": tf.reduce_sum(x3, axis=[1, 2]),
                    "mean_last": tf.reduce_mean(x3, axis=2),
                    "mean_last2_keep": tf.reduce_mean(x3, axis=[2, 1], keepdims=True)}
        with tf.Session() as sess:
            for shape in ((3, 5), (100, 10), (7, 33), (50, 100), (8, 1000), (2, 8192)):
                value = _vector(shape[0] * shape[1], np.float32, 11).reshape(shape)
                out[f"{shape[0]}x{shape[1]}"] = sess.run(rows, {x: value})
            for shape in ((4, 3, 7), (2, 5, 40)):
                value = _vector(int(np.prod(shape)), np.float32, 5).reshape(shape)
                out["x".join(map(str, shape))] = sess.run(trailing, {x3: value})
    return out



@tolerance(rtol=0, atol=0)
def case_column_reduction_bits(tf):
    """Sums over leading dimensions (TF's [n, k] over n, or [a, n, k] over n): 8-float
    packets of four row accumulators from 16 rows on, the other outputs row by row."""
    out = {}
    shapes = [((8, 10), [0]), ((32, 10), [0]), ((64, 10), [0]), ((17, 33), [0]),
              ((128, 256), [0]), ((50, 784), [0]), ((3000, 21), [0]), ((6, 50, 17), [1]),
              ((40, 3, 20), [1]), ((2, 1, 30, 1, 9), [0, 2]), ((100, 1), [0])]
    with tf.Graph().as_default(), tf.Session() as sess:
        for dtype in (np.float32, np.float64):
            for shape, axes in shapes:
                value = _vector(int(np.prod(shape)), dtype, 13).reshape(shape)
                x = tf.constant(value)
                got = sess.run({"sum": tf.reduce_sum(x, axes),
                                "mean": tf.reduce_mean(x, axes),
                                "sum_keep": tf.reduce_sum(x, axes, keepdims=True)})
                out[f"{np.dtype(dtype).name}_{'x'.join(map(str, shape))}"] = got
    return out


@tolerance(rtol=0, atol=0)
def case_broadcast_gradient_bits(tf):
    """Gradients of broadcast inputs are TF's `Sum` over the broadcast axes, in Eigen's
    order: a bias added with `+`, a scale, a divisor, a scalar weight. (The data is fed:
    with constant data Grappler also re-associates the gradient's products.)"""
    rng = np.random.RandomState(3)
    x = tf.placeholder(tf.float32, [64, 20])
    xs = tf.placeholder(tf.float32, [100])
    feed = {x: rng.randn(64, 20).astype(np.float32), xs: rng.rand(100).astype(np.float32)}
    b = tf.Variable(rng.randn(20).astype(np.float32))
    w = tf.Variable(rng.rand(20).astype(np.float32) + 0.5)
    s = tf.Variable(np.float32(0.7))
    ws = tf.Variable([0.3], dtype=tf.float32)
    losses = {"add": tf.reduce_sum(tf.square(x + b)),
              "sub": tf.reduce_sum(tf.square(b - x) * 0.5),
              "mul": tf.reduce_sum(tf.square(x * w)),
              "div": tf.reduce_sum(tf.square(x / w)),
              "squared_difference": tf.reduce_sum(tf.squared_difference(x, b)),
              "scalar": tf.reduce_mean(tf.square(s * x - 1.0)),
              "vector_of_one": tf.reduce_mean(tf.square(ws * xs + 0.25))}
    grads = {k: tf.gradients(v, [b, w, s, ws]) for k, v in losses.items()}
    grads = {k: [g for g in v if g is not None] for k, v in grads.items()}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(grads, feed)
