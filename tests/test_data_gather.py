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
