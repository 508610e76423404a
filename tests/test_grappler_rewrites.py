"""Grappler's bit-changing rewrites as tf1compat replays them (ops/grappler_rewrites.py;
TF's values are in the golden module cases_grappler_rewrites): where they apply (session
plans and tf.function graphs, not eager ops) and that the graph itself is not changed."""

import numpy as np

import tf1compat as tf

_X = np.random.RandomState(0).uniform(-10, 10, 257).astype(np.float32)
_RECIPROCAL = _X * (np.float32(1) / np.float32(3))
_QUOTIENT = _X / np.float32(3)


def test_reference_values_differ():
    assert not np.array_equal(_RECIPROCAL, _QUOTIENT)


def test_eager_division_sees_no_grappler_but_a_function_does():
    from tf1compat.eager.context import eager_mode
    with eager_mode():
        eager = (tf.constant(_X) / 3.).numpy()
        function = tf.function(lambda x: x / 3.)(tf.constant(_X)).numpy()
    assert np.array_equal(eager, _QUOTIENT)
    assert np.array_equal(function, _RECIPROCAL)


def test_exported_graph_keeps_its_ops():
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None], name="x")
        y = tf.identity(x, name="y")
        q = tf.div(x, 3., name="q")
        s = tf.add_n([y, x], name="s")
        with tf.Session() as sess:
            got = sess.run(q, {x: _X})
    nodes = {n.name: n for n in g.as_graph_def().node}
    assert np.array_equal(got, _RECIPROCAL)
    assert nodes["q"].op == "RealDiv"
    assert list(nodes["s"].input) == ["y", "x"] and s.op.inputs[0] is y


def test_fed_divisor_divides():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None])
        c = tf.constant(3.)
        q = x / c
        with tf.Session() as sess:
            folded, fed = sess.run(q, {x: _X}), sess.run(q, {x: _X, c: 3.})
    assert np.array_equal(folded, _RECIPROCAL)
    assert np.array_equal(fed, _QUOTIENT)
