"""Batches of shuffled/repeated in-memory slices by index gathers (data/_gather.py): the
same batches, in the same order, with the same seed draws, as the element path; other
pipelines keep the element path."""

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.data import _runtime as rt
from tf1compat.data._gather import _GatherBatchValue, batch_value
from tf1compat.data._shuffle import ShuffleValue


def _slices(n: int = 23) -> rt.TensorSliceValue:
    return rt.TensorSliceValue([
        torch.arange(n, dtype=torch.int64),
        torch.arange(n * 6, dtype=torch.float32).reshape(n, 2, 3),
        np.array([b"r%d" % i for i in range(n)], dtype=object)])


def _chains():
    """(name, builder) of the input chains the gather path takes."""
    def shuffle(v, size, seed=5, reshuffle=True):
        return ShuffleValue(v, size, seed, 9, reshuffle)
    return {
        "slices": lambda: _slices(),
        "shuffle": lambda: shuffle(_slices(), 7),
        "shuffle_big_buffer": lambda: shuffle(_slices(), 100),
        "shuffle_repeat": lambda: rt.RepeatValue(shuffle(_slices(), 10), 3),
        "shuffle_repeat_same_seeds": lambda: rt.RepeatValue(
            shuffle(_slices(), 10, reshuffle=False), 2),
        "repeat_shuffle": lambda: shuffle(rt.RepeatValue(_slices(), 2), 8),
        "shuffle_repeat_forever": lambda: rt.RepeatValue(shuffle(_slices(), 4), -1),
        "empty_repeat_forever": lambda: rt.RepeatValue(_slices(0), -1),
        "repeat_zero": lambda: rt.RepeatValue(_slices(), 0),
    }


def _batches(value, limit: int = 40):
    out = []
    it = value.iterator()
    for _ in range(limit):
        element = it.get_next()
        if element is None:
            break
        out.append(element)
    return out


@pytest.mark.parametrize("chain", sorted(_chains()))
@pytest.mark.parametrize("size,drop", [(5, False), (5, True), (1, False), (64, False)])
def test_gathered_batches_equal_the_element_paths(chain, size, drop):
    build = _chains()[chain]
    gathered, elements = batch_value(build(), size, drop), rt.BatchValue(build(), size, drop)
    assert isinstance(gathered, _GatherBatchValue)
    for _ in range(2):     # a second pass draws new seeds from the same generators
        got, want = _batches(gathered), _batches(elements)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert torch.equal(g[0], w[0]) and torch.equal(g[1], w[1])
            assert g[2].dtype == w[2].dtype and g[2].tolist() == w[2].tolist()


def test_other_pipelines_keep_the_element_path():
    mapped = rt.MapValue(_slices(), lambda caps, e: e, (), True)
    assert type(batch_value(mapped, 4, False)) is rt.BatchValue
    assert type(batch_value(rt.TakeValue(_slices(), 3), 4, False)) is rt.BatchValue


def test_graph_pipeline_batches_in_tf_seeded_order():
    """from_tensor_slices -> shuffle -> repeat -> batch through a session: every epoch a
    permutation, and the same order as the element path (mapped identity forces it)."""
    x = np.arange(20, dtype=np.float32)
    with tf.Graph().as_default():
        base = tf.data.Dataset.from_tensor_slices({"x": x, "y": x.astype(np.int64)})
        fast = base.shuffle(8, seed=3).repeat(2).batch(6)
        slow = base.map(lambda d: d).shuffle(8, seed=3).repeat(2).batch(6)
        fast_next = fast.make_one_shot_iterator().get_next()
        slow_next = slow.make_one_shot_iterator().get_next()
        got, want = [], []
        with tf.Session() as sess:
            for _ in range(7):
                a, b = sess.run([fast_next, slow_next])
                got.extend(a["x"].tolist())
                want.extend(b["x"].tolist())
                assert (a["y"] == a["x"]).all()
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(fast_next)
    assert got == want
    assert sorted(got[:20]) == list(range(20)) and sorted(got[20:]) == list(range(20))


@pytest.mark.parametrize("ahead", [1, 4, 7, 1024])
@pytest.mark.parametrize("chain", ["shuffle", "shuffle_big_buffer", "shuffle_repeat",
                                   "shuffle_repeat_forever", "repeat_shuffle"])
def test_rows_drawn_ahead_give_the_same_batches(monkeypatch, chain, ahead):
    """A shuffle pass over the slices draws its rows `_AHEAD` at a time: the batches are
    the element path's whatever the chunks' size (a pass's end inside a chunk, chunks
    smaller than a batch, one chunk for the whole pass)."""
    from tf1compat.data import _gather
    monkeypatch.setattr(_gather, "_AHEAD", ahead)
    build = _chains()[chain]
    for size in (3, 5, 64):
        gathered, elements = batch_value(build(), size, False), rt.BatchValue(build(), size,
                                                                              False)
        got, want = _batches(gathered), _batches(elements)
        assert [g[0].tolist() for g in got] == [w[0].tolist() for w in want]


def test_known_draws_equal_the_draws_item_by_item():
    """ShuffleIter.draw_known (every input item of a take known at once) gives `take`'s
    items and leaves the same state, for buffers filled partly or not at all, inputs
    ending inside a take, and takes that empty the buffer."""
    from tf1compat.data._shuffle import ShuffleIter
    from tf1compat.ops._philox import PhiloxWords
    rng = np.random.RandomState(0)
    for size in (1, 2, 3, 7, 16):
        for n in (0, 1, 5, 23, 40):
            counts = rng.randint(1, 12, 40).tolist()
            pulled = iter(range(n))
            general = ShuffleIter(size, PhiloxWords(7, 11),
                                  lambda count: (x for _, x in zip(range(count), pulled)))
            position = [0]

            def rows(count):
                start = position[0]
                position[0] = min(n, start + count)
                return range(start, position[0])
            known = ShuffleIter(size, PhiloxWords(7, 11), lambda count: iter(rows(count)))
            for count in counts:
                want = general.take(count)
                if known.pull is None:
                    got = known.take(count)
                else:
                    got = known.draw_known(count, rows(known.wanted(count)))
                assert got == want, (size, n, count)
                assert (known.start, known.end) == (general.start, general.end)
                assert known.buffer == general.buffer


def test_range_shuffle_draws_the_ring_buffers_items():
    """RangeShuffle (the windowed Fisher-Yates form) gives ShuffleIter's items over
    0..n-1, whatever the takes' sizes against the buffer and the pass."""
    from tf1compat.data._shuffle import RangeShuffle, ShuffleIter
    from tf1compat.ops._philox import PhiloxWords
    rng = np.random.RandomState(1)
    for size in (1, 2, 3, 7, 16, 1000):
        for n in (0, 1, 5, 23, 40):
            counts = rng.randint(1, 30, 12).tolist()
            items = iter(range(n))
            ring = ShuffleIter(size, PhiloxWords(3, 4),
                               lambda count: (x for _, x in zip(range(count), items)))
            line = RangeShuffle(size, PhiloxWords(3, 4), n)
            for count in counts:
                assert line.take(count) == ring.take(count), (size, n, count)
