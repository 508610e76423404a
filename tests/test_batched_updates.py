"""Optimizer updates batched across variables (runtime/codegen.py batches adjacent Apply*
ops; ops/training_ops.py `_batched_update`; ops/_apply_rules.py FOREACH): bit for bit
the op-by-op updates, and TF's op-by-op errors when the batch cannot take its inputs."""

import numpy as np
import pytest
import torch

import tf1compat as tf

_OPTIMIZERS = {
    "adam": lambda: tf.train.AdamOptimizer(0.01),
    "momentum": lambda: tf.train.MomentumOptimizer(0.05, 0.9),
    "nesterov": lambda: tf.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True),
    "rmsprop": lambda: tf.train.RMSPropOptimizer(0.01, momentum=0.5),
    "sgd": lambda: tf.train.GradientDescentOptimizer(0.1),
    "sgd_dynamic_lr": lambda: tf.train.GradientDescentOptimizer(
        tf.train.exponential_decay(0.1, tf.train.get_or_create_global_step(), 2, 0.5)),
    "adagrad": lambda: tf.train.AdagradOptimizer(0.1),
    "keras_sgd_momentum": lambda: tf.keras.optimizers.SGD(0.05, momentum=0.9),
    "keras_sgd_nesterov": lambda: tf.keras.optimizers.SGD(0.05, momentum=0.9, nesterov=True),
    "keras_adam": lambda: tf.keras.optimizers.Adam(0.01),
    "keras_rmsprop_momentum": lambda: tf.keras.optimizers.RMSprop(0.01, momentum=0.5),
}


def _train(make_optimizer, batched, monkeypatch, steps=4, resource=False, device=None):
    monkeypatch.setenv("TF1COMPAT_BATCH_KERNELS", "1" if batched else "0")
    rng = np.random.RandomState(0)
    with tf.Graph().as_default(), tf.device(device):
        tf.set_random_seed(1)
        x = tf.constant(rng.randn(16, 5).astype(np.float32))
        y = tf.constant(rng.randn(16, 3).astype(np.float32))
        with tf.variable_scope("net", use_resource=resource):
            w1 = tf.get_variable("w1", initializer=rng.randn(5, 7).astype(np.float32))
            b1 = tf.get_variable("b1", initializer=rng.randn(7).astype(np.float32))
            w2 = tf.get_variable("w2", initializer=rng.randn(7, 3).astype(np.float32))
        loss = tf.reduce_mean(tf.square(tf.matmul(tf.tanh(tf.matmul(x, w1) + b1), w2) - y))
        optimizer = make_optimizer()
        if isinstance(optimizer, tf.train.Optimizer):
            train = optimizer.minimize(loss, global_step=tf.train.get_global_step())
        else:
            train = optimizer.get_updates(loss, [w1, b1, w2])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(steps):
                sess.run(train)
            source = "\n".join(p.source for p in sess._plans.values() if p.source)
            values = sess.run(tf.global_variables())
    return values, source


@pytest.mark.parametrize("resource", [False, True], ids=["ref", "resource"])
@pytest.mark.parametrize("name", sorted(_OPTIMIZERS))
def test_batched_updates_equal_op_by_op_bit_for_bit(name, resource, monkeypatch):
    if name.startswith("keras") and not resource:
        pytest.skip("Keras optimizers make resource variables' updates only")
    alone, alone_source = _train(_OPTIMIZERS[name], False, monkeypatch, resource=resource)
    batched, source = _train(_OPTIMIZERS[name], True, monkeypatch, resource=resource)
    assert "_batch" not in alone_source
    assert "if not _batch(" in source, source
    for a, b in zip(alone, batched):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("resource", [False, True], ids=["ref", "resource"])
@pytest.mark.parametrize("name", sorted(_OPTIMIZERS))
def test_the_batched_call_takes_the_step(name, resource, monkeypatch):
    """The batched call applies the step itself (it does not decline to the ops)."""
    if name.startswith("keras") and not resource:
        pytest.skip("Keras optimizers make resource variables' updates only")
    if name == "keras_adam" and torch.cuda.is_available():
        pytest.skip("Keras Adam's betas are variables: reading them for the fused kernel "
                    "would wait for the GPU, so on CUDA its updates stay per variable")
    from tf1compat.ops import training_ops
    calls = []
    real = training_ops._batched_update

    def counting(*args):
        run = real(*args)

        def wrapped(*calls_args):
            calls.append(run(*calls_args))
            return calls[-1]
        return wrapped
    monkeypatch.setattr(training_ops, "_batched_update", counting)
    _train(_OPTIMIZERS[name], True, monkeypatch, steps=3, resource=resource)
    assert calls == [True, True, True]


def test_same_variable_twice_composes_in_order(monkeypatch):
    for batched in (False, True):
        monkeypatch.setenv("TF1COMPAT_BATCH_KERNELS", "1" if batched else "0")
        with tf.Graph().as_default():
            v = tf.Variable([1.0, 2.0])
            a = tf.raw_ops.ApplyGradientDescent(var=v._ref(), alpha=0.5, delta=tf.ones([2]))
            b = tf.raw_ops.ApplyGradientDescent(var=v._ref(), alpha=0.5,
                                                delta=tf.constant([2.0, 4.0]))
            with tf.Session() as sess:
                sess.run(v.initializer)
                sess.run(tf.group(a, b))
                np.testing.assert_array_equal(sess.run(v), [-0.5, -0.5])


def test_errors_name_the_failing_op(monkeypatch):
    monkeypatch.setenv("TF1COMPAT_BATCH_KERNELS", "1")
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0])
        w = tf.Variable([1.0, 2.0, 3.0], validate_shape=False)
        u = tf.Variable([5.0, 6.0])
        grad = tf.placeholder(tf.float32)
        a = tf.raw_ops.ApplyGradientDescent(var=v._ref(), alpha=0.5, delta=tf.ones([2]))
        b = tf.raw_ops.ApplyGradientDescent(var=w._ref(), alpha=0.5, delta=grad, name="bad")
        with tf.Session() as sess:
            sess.run([v.initializer, w.initializer])
            with pytest.raises(tf.errors.InvalidArgumentError, match="bad") as info:
                sess.run(tf.group(a, b), {grad: [1.0, 1.0]})
            assert "var and delta do not have the same shape" in str(info.value)
            c = tf.raw_ops.ApplyGradientDescent(var=u._ref(), alpha=0.5, delta=tf.ones([2]),
                                                name="uninit")
            with pytest.raises(tf.errors.FailedPreconditionError, match="uninit"):
                sess.run(tf.group(a, c))


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("name", ["adam", "momentum", "rmsprop", "sgd", "adagrad"])
def test_batched_updates_on_cuda_equal_op_by_op(name, monkeypatch):
    alone, _ = _train(_OPTIMIZERS[name], False, monkeypatch, resource=True, device="/gpu:0")
    batched, source = _train(_OPTIMIZERS[name], True, monkeypatch, resource=True,
                             device="/gpu:0")
    assert "if not _batch(" in source
    for a, b in zip(alone, batched):
        np.testing.assert_array_equal(a, b)
