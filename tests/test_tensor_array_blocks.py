"""TensorArrays that keep rows written as one block (ops/tensor_array_ops.py): the same
values, gradients and TF errors as row-by-row storage, without the unbind/stack pair."""

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.ops.tensor_array_ops import TensorArrayValue


def _array(size=4, dynamic=False, clear=True):
    return TensorArrayValue("ta", tf.float32, size, dynamic, clear, True,
                            tf.TensorShape(None), torch.device("cpu"))


def test_rows_from_zero_in_order_are_kept_as_the_block():
    ta = _array()
    rows = torch.arange(12.0).reshape(4, 3)
    ta.write_rows(range(4), rows)
    assert ta.block is rows
    assert ta.take_block(range(4)) is rows
    # clear_after_read: a gather reads every row, so a second one is TF's error
    with pytest.raises(tf.errors.InvalidArgumentError, match="cleared after a previous"):
        ta.read(0)


def test_other_orders_and_partial_blocks_are_rows():
    ta = _array()
    ta.write_rows([1, 0, 2, 3], torch.arange(4.0))
    assert ta.block is None and float(ta.read(0)) == 1.0
    ta = _array(size=5, clear=False)
    rows = torch.arange(6.0).reshape(3, 2)
    ta.write_rows([0, 1, 2], rows)
    assert ta.block is rows
    assert ta.take_block([0, 2, 1]) is None and ta.take_block(range(2)) is None
    np.testing.assert_array_equal(ta.read(2).numpy(), [4.0, 5.0])
    assert ta.block_rows(2).shape == (2, 2) and ta.block_rows(4) is None
    with pytest.raises(tf.errors.InvalidArgumentError, match="already been written"):
        ta.write(1, torch.zeros(2))
    ta.write(3, torch.ones(2))
    assert ta.take_block(range(3)) is rows      # not cleared: the block stays
    assert ta.block is rows


def test_a_dynamic_array_grows_to_hold_the_block():
    ta = _array(size=0, dynamic=True)
    ta.write_rows(range(3), torch.ones(3, 2))
    assert len(ta.elements) == 3 and ta.block is not None


def test_stack_of_unstack_same_values_and_gradients():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [5, 3])
        ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0], clear_after_read=False)
        ta = ta.unstack(x * 2.0)
        y = ta.stack()
        r = ta.read(2)
        loss = tf.reduce_sum(tf.square(y)) + tf.reduce_sum(r)
        g = tf.gradients(loss, x)[0]
        with tf.Session() as sess:
            xv = np.arange(15, dtype=np.float32).reshape(5, 3)
            yv, gv = sess.run([y, g], {x: xv})
    np.testing.assert_array_equal(yv, xv * 2)
    expected = 8 * xv
    expected[2] += 2
    np.testing.assert_allclose(gv, expected)


def test_fetched_stack_does_not_share_the_feed():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [4, 2])
        y = tf.TensorArray(tf.float32, size=4).unstack(x).stack()
        xv = np.ones([4, 2], np.float32)
        with tf.Session() as sess:
            out = sess.run(y, {x: xv})
    out[0, 0] = 7.0
    assert xv[0, 0] == 1.0 and not np.shares_memory(out, xv)


def test_gather_of_a_range_reads_no_index_from_the_device(monkeypatch):
    """stack/unstack's indices are range(0, n) with constant start and delta: the kernels
    take n from their shape (a host read of a CUDA tensor is a synchronisation)."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [6, 2])
        ta = tf.TensorArray(tf.float32, size=6).unstack(x)
        y = ta.stack()
        z = ta.gather([4, 0])
        with tf.Session() as sess:
            feed = {x: np.random.RandomState(0).rand(6, 2).astype(np.float32)}
            sess.run(y, feed)
            calls = []
            for name in ("tolist", "item", "__int__"):
                original = getattr(torch.Tensor, name)
                monkeypatch.setattr(torch.Tensor, name, (lambda original: lambda self, *a: (
                    calls.append(name), original(self, *a))[1])(original))
            np.testing.assert_array_equal(sess.run(y, feed), feed[x])
            assert calls == []
            monkeypatch.undo()
            with tf.Session() as sess2:
                np.testing.assert_array_equal(sess2.run(z, feed), feed[x][[4, 0]])
