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


def test_pow_of_a_fed_constant_exponent_is_not_rewritten():
    """Grappler's ConvertPow (`x ** 2` -> Square) needs a really constant exponent: a
    fed Const gives the fed power, as in TF (which prints x ** 3 here)."""
    x = np.array([1.5, -2.0, 3.1, 0.7], np.float32)
    with tf.Graph().as_default():
        base = tf.placeholder(tf.float32, [4])
        exponent = tf.constant(2.0)
        power = tf.pow(base, exponent)
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(power, {base: x}), np.square(x))
            np.testing.assert_allclose(sess.run(power, {base: x, exponent: 3.0}), x ** 3,
                                       rtol=1e-6)
