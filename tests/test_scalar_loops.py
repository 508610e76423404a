"""While loops of 0-d values run on numpy scalars (tf1compat/ops/scalar_loops.py) only
where that gives torch's (and TF's) results: which loops take the path, and that the
others still run their torch regions. The values themselves are compared with TF in
tests/golden/cases_scalar_loops.py."""

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.ops import scalar_loops


@pytest.fixture
def scalar_runs(monkeypatch):
    """The results of every ScalarLoop call (None: the loop ran its torch regions)."""
    runs = []
    call = scalar_loops.ScalarLoop.__call__

    def recording(self, *args):
        result = call(self, *args)
        runs.append(result)
        return result
    monkeypatch.setattr(scalar_loops.ScalarLoop, "__call__", recording)
    return runs


def _counter_loop(x0, step):
    return tf.while_loop(lambda i, a: i < 10, lambda i, a: (i + 1, a * step + 1.0),
                         (tf.constant(0), x0))


def test_a_counter_and_accumulator_run_on_scalars(scalar_runs):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [])
        i, a = _counter_loop(tf.constant(0.5), x)
        with tf.Session() as sess:
            got = sess.run([i, a], {x: 0.75})
    want = np.float32(0.5)
    for _ in range(10):
        want = want * np.float32(0.75) + np.float32(1.0)
    assert got[0] == 10 and got[0].dtype == np.int32
    assert got[1] == want and got[1].dtype == np.float32
    assert len(scalar_runs) == 1 and scalar_runs[0] is not None


def test_a_vector_loop_variable_runs_the_torch_regions(scalar_runs):
    with tf.Graph().as_default():
        _, a = _counter_loop(tf.constant([0.5, 1.0]), 2.0)
        with tf.Session() as sess:
            got = sess.run(a)
    assert got.shape == (2,)
    assert scalar_runs == [None]


def test_ops_outside_the_set_and_variables_keep_the_torch_regions(scalar_runs):
    with tf.Graph().as_default():
        w = tf.Variable(0.5)
        _, by_variable = _counter_loop(tf.constant(1.0), w)
        _, divided = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a / 2.0),
                                   (tf.constant(0), tf.constant(8.0)))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(divided) == 1.0
            assert sess.run(by_variable) == 2.0 - 2.0 ** -10
    assert scalar_runs == []        # never built: the plans have ops outside the set


def test_a_loop_differentiated_through_runs_the_torch_regions(scalar_runs):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [])
        _, a = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * x),
                             (tf.constant(0), tf.constant(1.0)))
        grad, = tf.gradients(a, [x])
        with tf.Session() as sess:
            value, dx = sess.run([a, grad], {x: 2.0})
            assert sess.run(a, {x: 3.0}) == 27.0
    assert value == 8.0 and dx == 12.0              # d(x^3)/dx at 2
    assert scalar_runs[0] is None and scalar_runs[-1] is not None
