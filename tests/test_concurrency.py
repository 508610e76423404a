"""Sessions shared by many threads (runtime/session_state.py): no lost update, per-run
gradient leaves, one resource per op, queues under producers and consumers, and clean
shutdown. Threads start together on a barrier; nothing waits on a timer, so each check
is deterministic; each is repeated many times to give races their chance."""

from __future__ import annotations

import threading
from typing import Callable, List

import numpy as np
import pytest

import tf1compat as tf


def _in_threads(n: int, work: Callable[[int], None]) -> None:
    """Runs work(0..n-1) in n threads released together; re-raises the first failure."""
    barrier = threading.Barrier(n)
    failures: List[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            work(i)
        except BaseException as e:  # noqa: BLE001 - reported to the test
            failures.append(e)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise failures[0]


@pytest.mark.parametrize("use_locking", [True, False])
def test_assign_add_loses_no_update(use_locking):
    """8 threads x 2500 assign_add on one session: exactly 20000, as in TF."""
    tf.reset_default_graph()
    c = tf.Variable(0, dtype=tf.int32)
    inc = tf.assign_add(c, 1, use_locking=use_locking)
    with tf.Session() as sess:
        sess.run(c.initializer)
        _in_threads(8, lambda i: [sess.run(inc.op) for _ in range(2500)])
        assert sess.run(c) == 20000


def test_assign_add_repeated():
    tf.reset_default_graph()
    c = tf.Variable(0, dtype=tf.int64)
    inc = tf.assign_add(c, 1)
    dec = tf.assign_sub(c, 3)
    with tf.Session() as sess:
        for round_ in range(30):
            sess.run(c.initializer)
            _in_threads(6, lambda i: [sess.run(inc.op if i % 2 else dec.op)
                                      for _ in range(200)])
            assert sess.run(c) == 3 * 200 * 1 - 3 * 200 * 3, round_


def test_scatter_and_resource_updates_lose_nothing():
    tf.reset_default_graph()
    ref = tf.Variable(tf.zeros([4], tf.int32))
    res = tf.get_variable("r", initializer=tf.zeros([4], tf.int32), use_resource=True)
    res_scalar = tf.get_variable("s", initializer=tf.constant(0), use_resource=True)
    ops = tf.group(tf.scatter_add(ref, [0, 2], [1, 2]),
                   tf.scatter_nd_add(ref, [[3]], [5]),
                   tf.scatter_add(res, [1, 1], [1, 1]),
                   res_scalar.assign_add(1))
    with tf.Session() as sess:
        for _ in range(10):
            sess.run(tf.global_variables_initializer())
            _in_threads(8, lambda i: [sess.run(ops) for _ in range(50)])
            n = 8 * 50
            np.testing.assert_array_equal(sess.run(ref), [n, 0, 2 * n, 5 * n])
            np.testing.assert_array_equal(sess.run(res), [0, 2 * n, 0, 0])
            assert sess.run(res_scalar) == n


def test_count_up_to_hands_out_each_value_once():
    tf.reset_default_graph()
    counter = tf.Variable(0, dtype=tf.int64)
    up = tf.count_up_to(counter, 400)
    with tf.Session() as sess:
        for _ in range(10):
            sess.run(counter.initializer)
            seen: List[int] = []

            def take(i: int) -> None:
                while True:
                    try:
                        seen.append(int(sess.run(up)))
                    except tf.errors.OutOfRangeError:
                        return
            _in_threads(8, take)
            assert sorted(seen) == list(range(400))


@pytest.mark.parametrize("make", [lambda: tf.train.GradientDescentOptimizer(1.0),
                                  lambda: tf.train.MomentumOptimizer(0.5, 0.9),
                                  lambda: tf.train.AdagradOptimizer(0.1)])
@pytest.mark.parametrize("resource", [False, True])
def test_optimizer_steps_are_atomic(make, resource):
    """A constant gradient makes every step identical, so the result of N steps is the
    same in any interleaving; global_step counts every one."""
    tf.reset_default_graph()
    w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]), use_resource=resource)
    gs = tf.train.get_or_create_global_step()
    train = make().minimize(tf.reduce_sum(w * tf.constant([0.5, -1.0])), global_step=gs)
    steps = 8 * 60
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(steps):
            sess.run(train)
        serial = sess.run(w)
        for _ in range(3):
            sess.run(tf.global_variables_initializer())
            _in_threads(8, lambda i: [sess.run(train) for _ in range(60)])
            assert sess.run(gs) == steps
            np.testing.assert_allclose(sess.run(w), serial, rtol=1e-6)


def test_concurrent_gradients_use_their_own_reads():
    """Each run differentiates with respect to the values it read (its own autograd
    leaves), while other threads update the variable."""
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [None, 3])
    w = tf.Variable(tf.zeros([3, 1]))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    grad = tf.gradients(loss, [w])[0]
    data = np.random.RandomState(0).randn(4, 3).astype(np.float32)
    with tf.Session() as sess:
        sess.run(w.initializer)

        def work(i: int) -> None:
            for _ in range(150):
                sess.run(train, {x: data})
                g, wv = sess.run([grad, w], {x: data})
                expected = 2.0 / 4 * data.T @ (data @ wv - 1.0)
                np.testing.assert_allclose(g, expected, rtol=1e-4, atol=1e-5)
        _in_threads(6, work)


def test_first_runs_build_one_plan_and_one_resource():
    """Threads that run a new signature at once share one queue (one per-op resource)."""
    for _ in range(10):
        tf.reset_default_graph()
        q = tf.FIFOQueue(100, tf.int32, shapes=[[]])
        p = tf.placeholder(tf.int32, [])
        enq = q.enqueue(p)
        with tf.Session() as sess:
            _in_threads(8, lambda i: sess.run(enq, {p: i}))
            assert sess.run(q.size()) == 8
            assert sorted(sess.run(q.dequeue_many(8)).tolist()) == list(range(8))


@pytest.mark.parametrize("kind", ["fifo", "shuffle"])
def test_queue_producers_and_consumers(kind):
    """4 producers and 4 consumers through a small queue: every item exactly once. The
    last producer closes the queue; consumers drain it until OutOfRangeError."""
    tf.reset_default_graph()
    if kind == "fifo":
        q = tf.FIFOQueue(5, tf.int32, shapes=[[]])
    else:
        q = tf.RandomShuffleQueue(8, 2, tf.int32, shapes=[[]], seed=1)
    p = tf.placeholder(tf.int32, [None])
    enq, close = q.enqueue_many(p), q.close()
    one, up_to = q.dequeue(), q.dequeue_up_to(3)
    for _ in range(5):
        with tf.Session() as sess:         # a fresh queue each round
            got: List[int] = []
            producers_left = [4]
            lock = threading.Lock()

            def work(i: int) -> None:
                if i < 4:
                    for k in range(30):
                        sess.run(enq, {p: [i * 1000 + k * 2, i * 1000 + k * 2 + 1]})
                    with lock:
                        producers_left[0] -= 1
                        last = producers_left[0] == 0
                    if last:
                        sess.run(close)
                    return
                try:
                    while True:
                        if i % 2:
                            got.append(int(sess.run(one)))
                        else:
                            got.extend(int(v) for v in sess.run(up_to))
                except tf.errors.OutOfRangeError:
                    pass
            _in_threads(8, work)
            assert sorted(got) == sorted(i * 1000 + k for i in range(4) for k in range(60))


def _wait_until(predicate: Callable[[], bool]) -> None:
    """Spins (yielding the GIL) until `predicate` holds: state, not time, is awaited."""
    import time
    while not predicate():
        time.sleep(0)


def _queue_object(sess, queue):
    from tf1compat.ops._queues import Queue
    found = [r for r in sess._runtime.resources.values() if isinstance(r, Queue)]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize("blocked_op", ["dequeue", "enqueue"])
def test_session_close_cancels_blocked_runs(blocked_op):
    """A run blocked on an empty (or full) queue ends with CancelledError when another
    thread closes the session: no thread is left hanging."""
    for _ in range(10):
        tf.reset_default_graph()
        q = tf.FIFOQueue(1, tf.int32, shapes=[[]])
        dq, enq = q.dequeue(), q.enqueue(1)
        sess = tf.Session()
        sess.run(enq)
        if blocked_op == "dequeue":
            sess.run(dq)
        queue = _queue_object(sess, q)
        pending = queue._dequeues if blocked_op == "dequeue" else queue._enqueues
        outcome: List[BaseException] = []

        def blocked() -> None:
            try:
                sess.run(dq if blocked_op == "dequeue" else enq)
            except BaseException as e:  # noqa: BLE001 - examined below
                outcome.append(e)
        t = threading.Thread(target=blocked)
        t.start()
        _wait_until(lambda: len(pending) == 1)
        sess.close()
        t.join()
        assert isinstance(outcome[0], tf.errors.CancelledError), outcome


def test_deadline_leaves_queue_usable():
    tf.reset_default_graph()
    q = tf.FIFOQueue(4, tf.int32, shapes=[[]])
    dm = q.dequeue_many(3)
    with tf.Session() as sess:
        sess.run(q.enqueue_many([[1, 2]]))
        for _ in range(5):
            with pytest.raises(tf.errors.DeadlineExceededError):
                sess.run(dm, options=tf.RunOptions(timeout_in_ms=5))
            # The elements a timed-out dequeue_many held are back, in order.
            assert sess.run(q.size()) == 2
        sess.run(q.enqueue(3))
        assert sess.run(dm).tolist() == [1, 2, 3]


def test_queue_runner_pipelines_stop_cleanly():
    """Start a multi-threaded pipeline, take a few batches, stop: every thread ends."""
    for _ in range(15):
        tf.reset_default_graph()
        names = tf.train.string_input_producer(["a", "b", "c"], shuffle=False)
        reader = tf.IdentityReader()
        _, value = reader.read(names)
        batch = tf.train.shuffle_batch([value], batch_size=4, capacity=16,
                                       min_after_dequeue=4, num_threads=4, seed=1)
        with tf.Session() as sess:
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            for _ in range(3):
                assert set(sess.run(batch)) <= {b"a", b"b", b"c"}
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=10)
            assert not any(t.is_alive() for t in threads)


def test_monitored_session_with_queue_runners_closes():
    for _ in range(5):
        tf.reset_default_graph()
        q = tf.train.range_input_producer(1000, shuffle=False)
        b = tf.train.batch([q.dequeue()], batch_size=10, num_threads=3)
        with tf.train.MonitoredSession() as sess:
            first = sess.run(b)
        assert first.shape == (10,)
        assert all(not t.name.startswith("QueueRunnerThread") or not t.is_alive()
                   for t in threading.enumerate())


def test_iterator_get_next_from_threads():
    tf.reset_default_graph()
    ds = tf.data.Dataset.range(400).map(lambda v: v * 2)
    nx = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess:
        got: List[int] = []

        def work(i: int) -> None:
            while True:
                try:
                    got.append(int(sess.run(nx)))
                except tf.errors.OutOfRangeError:
                    return
        _in_threads(6, work)
        assert sorted(got) == [2 * v for v in range(400)]
