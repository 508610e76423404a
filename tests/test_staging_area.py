"""tf.contrib.staging.StagingArea beyond the goldens (tests/golden/cases_contrib_legacy.py):
the waits TF's staging buffer makes (full, empty, memory limit), their deadline, and a
session close that wakes them."""

import threading

import numpy as np
import pytest

import tf1compat as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()


def _timeout(ms):
    return tf.RunOptions(timeout_in_ms=ms)


def test_put_waits_while_full_and_get_on_empty_waits():
    area = tf.contrib.staging.StagingArea([tf.float32], shapes=[[]], capacity=2)
    x = tf.placeholder(tf.float32, [])
    put, (got,) = area.put([x]), area.get()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(got, options=_timeout(50))
        sess.run(put, {x: 1.0})
        sess.run(put, {x: 2.0})
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(put, {x: 3.0}, options=_timeout(50))
        assert sess.run(area.size()) == 2
        # A get in another thread makes room for a waiting put.
        threading.Timer(0.1, lambda: sess.run(got)).start()
        sess.run(put, {x: 3.0}, options=_timeout(5000))
        assert [sess.run(got), sess.run(got)] == [2.0, 3.0]


def test_memory_limit_bounds_the_bytes_staged():
    area = tf.contrib.staging.StagingArea([tf.float32], shapes=[[4]], memory_limit=40)
    x = tf.placeholder(tf.float32, [None])
    put = area.put([x])
    with tf.Session() as sess:
        sess.run(put, {x: np.zeros(4)})
        sess.run(put, {x: np.zeros(4)})      # 32 bytes staged
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(put, {x: np.zeros(4)}, options=_timeout(50))
        with pytest.raises(tf.errors.InvalidArgumentError, match="memory limit of '40'"):
            sess.run(put, {x: np.zeros(11)})


def test_peek_waits_for_the_index_and_leaves_the_tuple():
    area = tf.contrib.staging.StagingArea([tf.int32])
    x = tf.placeholder(tf.int32, [])
    put = area.put([x])
    (peeked,) = area.peek(1)
    with tf.Session() as sess:
        sess.run(put, {x: 5})
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(peeked, options=_timeout(50))
        sess.run(put, {x: 6})
        assert sess.run(peeked) == 6 and sess.run(area.size()) == 2


def test_closing_the_session_cancels_a_waiting_get():
    area = tf.contrib.staging.StagingArea([tf.float32])
    (got,) = area.get()
    sess = tf.Session()
    raised = []

    def consume():
        try:
            sess.run(got)
        except tf.errors.CancelledError as e:
            raised.append(e)
    thread = threading.Thread(target=consume)
    thread.start()
    thread.join(0.2)
    sess.close()
    thread.join(5)
    assert not thread.is_alive() and len(raised) == 1


def test_staged_feed_is_copied():
    """The area keeps its own copy of a fed array, as TF's Stage copies its inputs."""
    area = tf.contrib.staging.StagingArea([tf.float32])
    x = tf.placeholder(tf.float32, [3])
    put, (got,) = area.put([x]), area.get()
    value = np.ones(3, np.float32)
    with tf.Session() as sess:
        sess.run(put, {x: value})
        value[:] = 7
        np.testing.assert_array_equal(sess.run(got), [1, 1, 1])


def test_put_checks_dtypes_and_shapes_at_graph_build():
    area = tf.contrib.staging.StagingArea([tf.float32, tf.int32], shapes=[[2], []])
    with pytest.raises(ValueError, match="Datatypes do not match"):
        area.put([tf.constant([1, 2]), tf.constant(1)])
    with pytest.raises(ValueError):
        area.put([tf.constant([1.0, 2.0, 3.0]), tf.constant(1)])
    with pytest.raises(ValueError, match="Unexpected number of inputs 3 vs 2"):
        area.put([tf.constant([1.0, 2.0]), tf.constant(1), tf.constant(2)])
    with pytest.raises(ValueError, match="must have names to enqueue a dictionary"):
        area.put({"a": tf.constant([1.0, 2.0])})
    with pytest.raises(ValueError, match="shapes must be the same length"):
        tf.contrib.staging.StagingArea([tf.float32], shapes=[[], []])
