"""`tf.GradientTape` while a graph is built (autodiff/graph_tape.py), beyond what the
golden cases pin against TF (tests/golden/cases_graph_tape.py,
eager_cases_function_tape.py): where tf1compat gives more than TF's graph-mode tape."""

import numpy as np
import pytest

import tf1compat as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    with tf.Graph().as_default():
        yield


def test_gradient_through_a_while_loop_built_on_the_tape():
    """TF's graph-mode tape gives None here (it cannot see a v1 loop's body); the
    gradient equals tf.gradients' of the same loop."""
    v = tf.Variable(1.5, use_resource=True)
    with tf.GradientTape() as tape:
        _, acc = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * v),
                               (tf.constant(0), tf.constant(1.0)))
    through_tape = tape.gradient(acc, v)
    through_gradients = tf.gradients(acc, v)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got, want = sess.run([through_tape, through_gradients])
    assert got == pytest.approx(3 * 1.5 ** 2) and got == want


def test_ref_variables_are_watched_through_their_snapshot():
    """TF 2.21 refuses a ref variable on a graph-mode tape; tf1compat's (TF 1.x's
    default variables) are watched on read and differentiated through `v/read`."""
    v = tf.Variable([1.0, 2.0])
    frozen = tf.Variable([3.0, 4.0], trainable=False)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v * frozen)
    assert [w.name for w in tape.watched_variables()] == ["Variable:0"]
    grads = tape.gradient(y, [v, frozen])
    assert grads[1] is None
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(grads[0]), [6.0, 16.0])


def test_a_source_computed_outside_the_tape_from_another_source():
    """x = 3w before the tape, both watched: w's gradient does not go through x's op."""
    w = tf.placeholder(tf.float32, [])
    x = 3.0 * w
    with tf.GradientTape() as tape:
        tape.watch([w, x])
        y = x * x + w
    gw, gx = tape.gradient(y, [w, x])
    with tf.Session() as sess:
        assert sess.run([gw, gx], {w: 2.0}) == [1.0, 12.0]


def test_eager_tensors_are_not_sources_of_a_graph_tape():
    x = tf.placeholder(tf.float32, [])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(ValueError, match="not tf.Tensor or tf.Variable"):
        tape.gradient(y, [np.float32(1.0)])
