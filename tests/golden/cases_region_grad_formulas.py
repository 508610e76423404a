"""Golden cases: TF's gradient formulas inside tf.cond branches, while_loop bodies and
graphs re-imported from a `.meta` file. Where TF's gradient of an op differs from
torch's (Maximum/Minimum at ties, Pow/Xlogy/DivNoNan at zeros, the order a broadcast
input's gradient is summed in), the region's function runs the op with TF's formula as
the top-level graph does: the outer gradient differentiates the region's kernels."""

import os
import tempfile

import numpy as np

from tests.golden.harness import tolerance

X = np.array([1.0, 2.0, 0.0, -1.0], np.float32)
Y = np.array([1.0, 3.0, 0.0, -1.0], np.float32)


def _formula_ops(tf, x, y):
    """Ops whose TF gradients differ from torch's at the points X and Y hold."""
    return (tf.reduce_sum(tf.maximum(x, y)) + tf.reduce_sum(tf.minimum(x, y) * 2.0)
            + tf.reduce_sum(tf.pow(tf.abs(x), y)) + tf.reduce_sum(tf.math.xlogy(x, y + 1.0))
            + tf.reduce_sum(tf.math.divide_no_nan(y, x)) + tf.reduce_sum(tf.atan2(x, y)))


@tolerance(rtol=1e-6, atol=1e-7)
def case_formulas_at_ties_in_cond_and_while(tf):
    """The same expression at the top level, in a tf.cond branch, in a while body, in a
    tf.cond inside a while body and in map_fn: the gradients agree with each other."""
    x = tf.Variable(X, name="x")
    y = tf.Variable(Y, name="y")
    pred = tf.placeholder(tf.bool, [])
    top = _formula_ops(tf, x, y)
    in_cond = tf.cond(pred, lambda: _formula_ops(tf, x, y), lambda: tf.reduce_sum(x * y))

    def body(i, acc):
        return i + 1, acc + _formula_ops(tf, x, y)
    in_while = tf.while_loop(lambda i, a: i < 2, body, [0, 0.0])[1]

    def cond_body(i, acc):
        return i + 1, acc + tf.cond(i < 1, lambda: _formula_ops(tf, x, y),
                                    lambda: tf.reduce_sum(tf.maximum(x, y)))
    cond_in_while = tf.while_loop(lambda i, a: i < 2, cond_body, [0, 0.0])[1]
    mapped = tf.reduce_sum(tf.map_fn(lambda row: tf.maximum(row[0], row[1]),
                                     tf.stack([x, y], axis=1)))
    losses = {"top": top, "cond": in_cond, "while": in_while,
              "cond_in_while": cond_in_while, "map_fn": mapped}
    grads = {k: tf.gradients(v, [x, y]) for k, v in losses.items()}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {"true": sess.run(grads, {pred: True}), "false": sess.run(grads, {pred: False})}


@tolerance(rtol=0, atol=0)
def case_broadcast_sums_in_while_body(tf):
    """A bias added with `+`, a scale and a divisor inside a while body: their broadcast
    gradients are summed in TF's order there as at the top level (fed data)."""
    rng = np.random.RandomState(11)
    x = tf.placeholder(tf.float32, [64, 20])
    feed = {x: rng.randn(64, 20).astype(np.float32)}
    b = tf.Variable(rng.randn(20).astype(np.float32), name="b")
    w = tf.Variable(rng.rand(20).astype(np.float32) + 0.5, name="w")

    def body(i, acc):
        h = ((x + b) * w) / w - b
        return i + 1, acc + tf.reduce_sum(tf.square(h))
    loss = tf.while_loop(lambda i, a: i < 3, body, [0, 0.0])[1]
    grads = tf.gradients(loss, [b, w])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(grads, feed)


@tolerance(rtol=1e-5, atol=1e-6)
def case_meta_graph_reimport_trains_to_the_same_bits(tf):
    """A regression net with a [N, 1] + [1] output bias, Adam, exported to a `.meta`
    file and imported again: the imported train op gives the losses and weights the
    graph built in code gives, bit for bit (TF runs its own gradient ops from the file;
    tf1compat the file's gradient function with the same formulas)."""
    rng = np.random.RandomState(0)
    data_x = rng.randn(32, 3).astype(np.float32)
    data_y = (data_x @ np.array([[1.5], [-2.0], [0.5]], np.float32) + 0.3).astype(np.float32)
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "net.meta")
    init = [rng.randn(3, 8).astype(np.float32) * 0.5, np.zeros(8, np.float32),
            rng.randn(8, 1).astype(np.float32) * 0.5, np.zeros(1, np.float32)]
    out = {}
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        y = tf.placeholder(tf.float32, [None, 1], name="y")
        w1, b1, w2, b2 = [tf.Variable(v, name=n) for v, n in zip(init, ["w1", "b1", "w2", "b2"])]
        pred = tf.matmul(tf.tanh(tf.matmul(x, w1) + b1), w2) + b2
        loss = tf.reduce_mean(tf.square(pred - y), name="loss")
        train = tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
        tf.add_to_collection("train_op", train)
        tf.train.export_meta_graph(path)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out["built"] = [sess.run([loss, train], {x: data_x, y: data_y})[0]
                            for _ in range(5)] + sess.run([w1, b1, w2, b2])
    with tf.Graph().as_default():
        tf.train.import_meta_graph(path)
        graph = tf.get_default_graph()
        train = tf.get_collection("train_op")[0]
        loss = graph.get_tensor_by_name("loss:0")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out["imported"] = [sess.run([loss, train], {"x:0": data_x, "y:0": data_y})[0]
                               for _ in range(5)] + sess.run(tf.trainable_variables())
    os.remove(path)
    os.rmdir(folder)
    same = all(np.array_equal(a, b) for a, b in zip(out["built"], out["imported"]))
    return {"built": out["built"], "imported_equals_built": same}
