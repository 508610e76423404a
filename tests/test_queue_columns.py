"""Columnar queue storage (ops/_queue_columns.py) against the per-row queues: the same
operations give the same elements in the same order (TF's seeded shuffle order included),
through timeouts, give-backs and closes; and the graph's queues pick columnar storage only
for fixed-shape components."""

import threading
import time

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import _queues
from tf1compat.ops._queue_columns import ColumnarFIFOQueue, ColumnarRandomShuffleQueue, \
    columnar

DTYPES = [D.int64, D.float32, D.string, D.bool]
SHAPES = [TensorShape([]), TensorShape([2, 3]), TensorShape([]), TensorShape([2])]


def _pair(kind: str, capacity: int = 50, min_after: int = 5):
    if kind == "fifo":
        return (_queues.FIFOQueue("q", DTYPES, SHAPES, capacity),
                ColumnarFIFOQueue("q", DTYPES, SHAPES, capacity))
    return (_queues.RandomShuffleQueue("q", DTYPES, SHAPES, capacity, min_after, 7, 11),
            ColumnarRandomShuffleQueue("q", DTYPES, SHAPES, capacity, min_after, 7, 11))


def _batch(start: int, n: int):
    ids = torch.arange(start, start + n, dtype=torch.int64)
    floats = torch.arange(start * 6, (start + n) * 6, dtype=torch.float32).reshape(n, 2, 3)
    strings = np.array([b"s%d" % i for i in range(start, start + n)], dtype=object)
    flags = torch.tensor([[i % 2 == 0, i % 3 == 0] for i in range(start, start + n)])
    return [ids, floats, strings, flags]


def _same(a, b) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b):
        if isinstance(x, torch.Tensor):
            assert isinstance(y, torch.Tensor) and x.dtype == y.dtype
            assert torch.equal(x, y)
        else:
            assert type(x) is type(y)
            if isinstance(x, np.ndarray):
                assert x.dtype == y.dtype and x.shape == y.shape and (x == y).all()
            else:
                assert x == y


def _enqueue_many(queue, batch) -> None:
    count = queue.check_batch(batch)
    queue.enqueue_many(queue.rows_of(batch), count, None)


def _element(i: int):
    return (torch.tensor(i), torch.full((2, 3), float(i)), b"e%d" % i,
            torch.tensor([True, False]))


@pytest.mark.parametrize("kind", ["fifo", "shuffle"])
def test_columnar_queue_gives_the_per_row_queues_order_and_values(kind):
    rows, cols = _pair(kind)
    start = 0
    for step in range(30):
        n = 1 + (step * 7) % 9
        for q in (rows, cols):
            _enqueue_many(q, _batch(start, n))
        start += n
        if step % 4 == 1:
            for q in (rows, cols):
                q.enqueue(_element(1000 + step), None)
        if step % 3 == 2:
            _same([_queues.as_tensor(v) for v in rows.dequeue(None)],
                  [_queues.as_tensor(v) for v in cols.dequeue(None)])
        take = min(rows.size() - (5 if kind == "shuffle" else 0), 6)
        if take > 0:
            _same(rows.dequeue_many(take, False, None), cols.dequeue_many(take, False, None))
        assert rows.size() == cols.size()
    for q in (rows, cols):
        q.close_queue(False, None)
    _same(rows.dequeue_many(rows.size() + 3, True, None),
          cols.dequeue_many(cols.size() + 3, True, None))
    for q in (rows, cols):
        with pytest.raises(errors.OutOfRangeError):
            q.dequeue_many(1, True, None)


@pytest.mark.parametrize("kind", ["fifo", "shuffle"])
def test_columnar_queue_gives_back_what_a_timed_out_dequeue_many_took(kind):
    """A dequeue_many that times out after taking some elements returns them; later
    dequeues see the per-row queue's order."""
    rows, cols = _pair(kind, capacity=100, min_after=0)
    for q in (rows, cols):
        _enqueue_many(q, _batch(0, 10))
    for q in (rows, cols):
        with pytest.raises(errors.DeadlineExceededError):
            q.dequeue_many(15, False, time.monotonic() + 0.05)
        assert q.size() == 10
    _same(rows.dequeue_many(10, False, None), cols.dequeue_many(10, False, None))


def test_columnar_queue_blocks_and_wakes_like_the_per_row_queue():
    """An enqueue_many larger than the room left goes in as room appears."""
    queue = ColumnarFIFOQueue("q", [D.int64], [TensorShape([])], 4)
    done = threading.Event()

    def feed():
        batch = [torch.arange(10)]
        queue.enqueue_many(queue.rows_of(batch), 10, None)
        done.set()
    t = threading.Thread(target=feed)
    t.start()
    got = [queue.dequeue_many(5, False, None)[0] for _ in range(2)]
    t.join(5)
    assert done.is_set()
    assert torch.cat(got).tolist() == list(range(10))


def test_columnar_storage_copies_what_it_is_given():
    queue = ColumnarRandomShuffleQueue("q", [D.float32], [TensorShape([2])], 10, 0, 1, 2)
    fed = torch.zeros(3, 2)
    queue.enqueue_many(queue.rows_of([fed]), 3, None)
    fed += 5
    out = queue.dequeue_many(3, False, None)[0]
    assert out.sum().item() == 0
    out += 1                           # the caller's batch: the queue never reads it again
    queue.enqueue_many(queue.rows_of([torch.zeros(3, 2)]), 3, None)
    assert queue.dequeue_many(3, False, None)[0].sum().item() == 0


def test_graph_queues_choose_columnar_storage_for_fixed_shapes_filled_in_blocks():
    assert columnar([D.int64, D.string], [TensorShape([]), TensorShape([3])])
    assert not columnar([D.int64], [TensorShape([None])])
    assert not columnar([D.int64], [])
    assert not columnar([D.bfloat16], [TensorShape([])])
    with tf.Graph().as_default():
        fixed = tf.RandomShuffleQueue(10, 2, [tf.int64], shapes=[[]], seed=3)
        loose = tf.FIFOQueue(10, [tf.int64])
        padding = tf.PaddingFIFOQueue(10, [tf.int64], shapes=[[None]])
        # Fixed shapes but filled one element per run (as tf.train.batch threads do):
        # lists are cheaper per row.
        per_row = tf.FIFOQueue(10, [tf.int64], shapes=[[]], name="per_row")
        ops = [fixed.enqueue_many([[1, 2, 3, 4]]), loose.enqueue([1]),
               padding.enqueue([[1, 2]]), per_row.enqueue([5])]
        with tf.Session() as sess:
            sess.run(ops)
            kinds = {type(r).__name__ for r in sess._runtime.resources.values()
                     if isinstance(r, _queues.Queue)}
            assert sess.run(fixed.dequeue_many(2)).shape == (2,)
    assert kinds == {"ColumnarRandomShuffleQueue", "FIFOQueue", "PaddingFIFOQueue"}
