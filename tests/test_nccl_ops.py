"""`tensorflow.python.ops.nccl_ops` on tf1compat: the towers' collective values and
gradients (TF's NCCL kernels need GPUs, so the goldens pin only construction)."""

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.internal import nccl_ops


def _towers():
    values = [np.arange(6, dtype=np.float32).reshape(2, 3) - k for k in range(3)]
    tensors = []
    for k, v in enumerate(values):
        with tf.device(f"/gpu:{k}"):
            tensors.append(tf.constant(v))
    return values, tensors


@pytest.mark.parametrize("fn,expect", [(nccl_ops.all_sum, np.sum), (nccl_ops.all_prod, np.prod),
                                       (nccl_ops.all_min, np.min), (nccl_ops.all_max, np.max)])
def test_all_reduce_values(fn, expect):
    with tf.Graph().as_default():
        values, tensors = _towers()
        outs = fn(tensors)
        with tf.Session() as sess:
            got = sess.run(outs)
    for g in got:
        np.testing.assert_allclose(g, expect(np.stack(values), axis=0))


def test_all_sum_gradient_is_all_sum_of_grads():
    with tf.Graph().as_default():
        _, tensors = _towers()
        outs = nccl_ops.all_sum(tensors)
        loss = tf.add_n([tf.reduce_sum(o * float(k + 1)) for k, o in enumerate(outs)])
        grads = tf.gradients(loss, tensors)
        with tf.Session() as sess:
            got = sess.run(grads)
    for g in got:
        np.testing.assert_allclose(g, np.full([2, 3], 6.0))


def test_reduce_sum_needs_an_input_on_the_current_device():
    with tf.Graph().as_default():
        values, tensors = _towers()
        with tf.device("/gpu:1"):
            total = nccl_ops.reduce_sum(tensors)
        with tf.device("/gpu:5"):
            with pytest.raises(ValueError, match="current device"):
                nccl_ops.reduce_sum(tensors)
        copy = nccl_ops.broadcast(tensors[0])
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run(total), np.sum(values, axis=0))
            assert sess.run(copy).tolist() == values[0].tolist()
