"""Multi-GPU towers in one process (cifar10_multi_gpu_train's pattern).

Each tower builds the model under `tf.device('/gpu:i')` with shared variables and computes
the gradients of its share of the batch; the averaged gradients are applied once. On
CPU-only machines the towers run on the CPU, so the equality with one device trained on
the whole batch is checked everywhere; the placement of `/gpu:i` on CUDA device i is
checked through the Placer, and for real with two GPUs (marked `cuda`).
"""

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.runtime.placement import Placer

BATCH, TOWERS, STEPS = 8, 2, 3


def _data():
    rng = np.random.RandomState(0)
    return rng.randn(BATCH, 5).astype(np.float32), rng.randn(BATCH, 1).astype(np.float32)


def _tower_loss(x, y):
    hidden = tf.layers.dense(x, 4, activation=tf.nn.tanh, name="hidden",
                             kernel_initializer=tf.constant_initializer(0.1))
    prediction = tf.layers.dense(hidden, 1, name="out",
                                 kernel_initializer=tf.constant_initializer(-0.2))
    return tf.losses.mean_squared_error(y, prediction)


def _average_gradients(tower_grads):
    averaged = []
    for grad_and_vars in zip(*tower_grads):
        grads = [tf.expand_dims(g, 0) for g, _ in grad_and_vars]
        averaged.append((tf.reduce_mean(tf.concat(grads, 0), 0), grad_and_vars[0][1]))
    return averaged


def _train(towers, config=None):
    features, labels = _data()
    with tf.Graph().as_default():
        opt = tf.train.MomentumOptimizer(0.1, 0.9)
        tower_grads = []
        share = BATCH // towers
        with tf.variable_scope(tf.get_variable_scope()):
            for i in range(towers):
                with tf.device(f"/gpu:{i}"), tf.name_scope(f"tower_{i}"):
                    rows = slice(i * share, (i + 1) * share)
                    loss = _tower_loss(tf.constant(features[rows]), tf.constant(labels[rows]))
                    tf.get_variable_scope().reuse_variables()
                    tower_grads.append(opt.compute_gradients(loss))
        train_op = opt.apply_gradients(_average_gradients(tower_grads))
        with tf.Session(config=config) as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(STEPS):
                sess.run(train_op)
            return {v.op.name: sess.run(v) for v in tf.trainable_variables()}


def test_two_towers_train_like_one_device_on_the_whole_batch():
    config = tf.ConfigProto(allow_soft_placement=True)
    one, two = _train(1, config), _train(TOWERS, config)
    assert sorted(one) == sorted(two) == ["hidden/bias", "hidden/kernel", "out/bias",
                                          "out/kernel"]
    for name in one:
        np.testing.assert_allclose(two[name], one[name], rtol=1e-5, atol=1e-7, err_msg=name)


def test_gpu_i_is_cuda_device_i_of_the_visible_list():
    with tf.Graph().as_default():
        with tf.device("/gpu:1"):
            op = tf.constant(1.0).op
    assert Placer(gpus=[0, 1]).device_for(op) == torch.device("cuda", 1)
    # visible_device_list "3,2": TF's GPU:1 is CUDA device 2.
    assert Placer(gpus=[3, 2]).device_for(op) == torch.device("cuda", 2)
    assert Placer(gpus=False).device_for(op) == torch.device("cpu")
    with pytest.raises(tf.errors.InvalidArgumentError, match="GPU:1"):
        Placer(gpus=[0]).device_for(op)


@pytest.mark.cuda
@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
def test_towers_on_two_gpus_match_the_cpu():
    on_gpus = _train(TOWERS)
    on_cpu = _train(TOWERS, tf.ConfigProto(device_count={"GPU": 0}))
    for name in on_cpu:
        np.testing.assert_allclose(on_gpus[name], on_cpu[name], rtol=1e-4, atol=1e-6)
