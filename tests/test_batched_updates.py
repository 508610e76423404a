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
    # The families batched by their per-variable rule on lists (ops/_apply_many.py).
    "adadelta": lambda: tf.train.AdadeltaOptimizer(0.5),
    "ftrl": lambda: tf.train.FtrlOptimizer(0.1, l1_regularization_strength=0.01,
                                           l2_regularization_strength=0.02),
    "ftrl_power": lambda: tf.train.FtrlOptimizer(0.1, learning_rate_power=-0.7),
    "ftrl_v2": lambda: tf.train.FtrlOptimizer(0.1, l2_shrinkage_regularization_strength=0.1),
    "proximal_adagrad": lambda: tf.train.ProximalAdagradOptimizer(
        0.1, l1_regularization_strength=0.01, l2_regularization_strength=0.02),
    "proximal_sgd": lambda: tf.train.ProximalGradientDescentOptimizer(
        0.1, l1_regularization_strength=0.01, l2_regularization_strength=0.02),
    "adagrad_da": lambda: tf.train.AdagradDAOptimizer(
        0.1, tf.train.get_or_create_global_step(), l1_regularization_strength=0.01,
        l2_regularization_strength=0.02),
    "centered_rmsprop": lambda: tf.train.RMSPropOptimizer(0.01, momentum=0.5, centered=True),
    "momentum_dynamic": lambda: tf.train.MomentumOptimizer(
        0.05, tf.train.exponential_decay(0.9, tf.train.get_or_create_global_step(), 2, 0.5)),
    "nadam": lambda: tf.contrib.opt.NadamOptimizer(0.01),
    "adamax": lambda: tf.contrib.opt.AdaMaxOptimizer(0.01),
    "add_sign": lambda: tf.contrib.opt.AddSignOptimizer(0.01),
    "power_sign": lambda: tf.contrib.opt.PowerSignOptimizer(0.01),
    "keras_adagrad": lambda: tf.keras.optimizers.Adagrad(0.1),
    "keras_adadelta": lambda: tf.keras.optimizers.Adadelta(0.5),
    "keras_adamax": lambda: tf.keras.optimizers.Adamax(0.01),
    "keras_amsgrad": lambda: tf.keras.optimizers.Adam(0.01, amsgrad=True),
    "keras_ftrl": lambda: tf.keras.optimizers.Ftrl(0.1, l2_shrinkage_regularization_strength=0.1),
    "keras_rmsprop_centered": lambda: tf.keras.optimizers.RMSprop(0.01, momentum=0.5,
                                                                  centered=True),
}


def _train(make_optimizer, batched, monkeypatch, steps=4, resource=False, device=None,
           dtype=np.float32):
    monkeypatch.setenv("TF1COMPAT_BATCH_KERNELS", "1" if batched else "0")
    rng = np.random.RandomState(0)
    with tf.Graph().as_default(), tf.device(device):
        tf.set_random_seed(1)
        x = tf.constant(rng.randn(16, 5).astype(dtype))
        y = tf.constant(rng.randn(16, 3).astype(dtype))
        with tf.variable_scope("net", use_resource=resource):
            w1 = tf.get_variable("w1", initializer=rng.randn(5, 7).astype(dtype))
            b1 = tf.get_variable("b1", initializer=rng.randn(7).astype(dtype))
            w2 = tf.get_variable("w2", initializer=rng.randn(7, 3).astype(dtype))
        loss = tf.reduce_mean(tf.square(tf.matmul(tf.tanh(tf.matmul(x, w1) + b1), w2) - y))
        train = _minimize(make_optimizer(), loss, [w1, b1, w2])
        return _run_steps(train, [{}] * steps)


def _minimize(optimizer, loss, variables):
    """The training op of a tf.train optimizer or a Keras one (graph mode)."""
    if isinstance(optimizer, tf.train.Optimizer):
        return optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return optimizer.get_updates(loss, variables)


def _run_steps(train, feeds):
    """Runs `train` once per feed dict in a new session: the variables' values after,
    and the source of the plans it ran."""
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for feed in feeds:
            sess.run(train, feed)
        source = "\n".join(p.source for p in sess._plans.values() if p.source)
        return sess.run(tf.global_variables()), source


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
    calls = _record_batched_calls(monkeypatch)
    _train(_OPTIMIZERS[name], True, monkeypatch, steps=3, resource=resource)
    assert calls == [True, True, True]


@pytest.mark.parametrize("dtype", [np.float64, np.float16], ids=["float64", "float16"])
@pytest.mark.parametrize("name", ["adadelta", "ftrl_power", "centered_rmsprop", "adamax",
                                  "power_sign", "nadam"])
def test_batched_updates_of_other_float_dtypes(name, dtype, monkeypatch):
    calls = _record_batched_calls(monkeypatch)
    batched, _ = _train(_OPTIMIZERS[name], True, monkeypatch, dtype=dtype)
    assert calls and all(calls), calls
    alone, _ = _train(_OPTIMIZERS[name], False, monkeypatch, dtype=dtype)
    for a, b in zip(alone, batched):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16],
                         ids=["float32", "float64", "float16"])
@pytest.mark.parametrize("name", ["ftrl", "ftrl_v2", "keras_ftrl", "ftrl_power"])
def test_ftrl_packed_update_equals_op_by_op(name, dtype, monkeypatch):
    """FTRL with lr_power -0.5 updates its variables packed end to end (one kernel per
    operation for all of them); other powers keep the list form. Same bits either way."""
    from tf1compat.ops import _apply_rules
    packed = []
    real = _apply_rules._packed

    def recording(*args):
        packed.append(real(*args))
        return packed[-1]
    monkeypatch.setattr(_apply_rules, "_packed", recording)
    batched, _ = _train(_OPTIMIZERS[name], True, monkeypatch, dtype=dtype,
                        resource=name.startswith("keras"))
    assert packed == ([] if name == "ftrl_power" else [True] * 4)
    alone, _ = _train(_OPTIMIZERS[name], False, monkeypatch, dtype=dtype,
                      resource=name.startswith("keras"))
    for a, b in zip(alone, batched):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def test_ftrl_packed_declines_large_variables(monkeypatch):
    """Past `_PACKED_ELEMENTS` the update keeps the list form (no packing copies)."""
    from tf1compat.ops import _apply_rules
    monkeypatch.setattr(_apply_rules, "_PACKED_ELEMENTS", 10)
    calls = _record_batched_calls(monkeypatch)
    batched, _ = _train(_OPTIMIZERS["ftrl"], True, monkeypatch)
    assert calls == [True] * 4
    monkeypatch.setattr(_apply_rules, "_PACKED_ELEMENTS", 1 << 16)
    alone, _ = _train(_OPTIMIZERS["ftrl"], False, monkeypatch)
    for a, b in zip(alone, batched):
        np.testing.assert_array_equal(a, b)


def _record_batched_calls(monkeypatch):
    """The results of the batched calls made from now on (True: it took the step)."""
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
    return calls


def _train_conv(make_optimizer, batched, monkeypatch, steps=3):
    """A convolution's filter gradient is a permuted view of torch's [out, in, kh, kw]
    result: the fused kernels take it as a contiguous copy."""
    monkeypatch.setenv("TF1COMPAT_BATCH_KERNELS", "1" if batched else "0")
    rng = np.random.RandomState(0)
    with tf.Graph().as_default():
        x = tf.constant(rng.rand(4, 8, 8, 3).astype(np.float32))
        f = tf.get_variable("f", initializer=rng.randn(3, 3, 3, 5).astype(np.float32))
        b = tf.get_variable("b", initializer=rng.randn(5).astype(np.float32))
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, f, [1, 1, 1, 1], "SAME"), b))
        loss = tf.reduce_mean(tf.square(h))
        return _run_steps(make_optimizer().minimize(loss), [{}] * steps)[0]


@pytest.mark.parametrize("name", ["adam", "momentum"])
def test_permuted_filter_gradients_are_batched(name, monkeypatch):
    calls = _record_batched_calls(monkeypatch)
    batched = _train_conv(_OPTIMIZERS[name], True, monkeypatch)
    assert calls == [True, True, True]
    alone = _train_conv(_OPTIMIZERS[name], False, monkeypatch)
    for a, b in zip(alone, batched):
        np.testing.assert_array_equal(a, b)


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
@pytest.mark.parametrize("name", ["adam", "momentum", "rmsprop", "sgd", "adagrad", "adadelta",
                                  "ftrl", "ftrl_v2", "centered_rmsprop", "nadam", "adamax",
                                  "proximal_adagrad", "adagrad_da", "power_sign",
                                  "keras_amsgrad"])
def test_batched_updates_on_cuda_equal_op_by_op(name, monkeypatch):
    alone, _ = _train(_OPTIMIZERS[name], False, monkeypatch, resource=True, device="/gpu:0")
    batched, source = _train(_OPTIMIZERS[name], True, monkeypatch, resource=True,
                             device="/gpu:0")
    assert "if not _batch(" in source
    for a, b in zip(alone, batched):
        np.testing.assert_array_equal(a, b)


_SPARSE_OPTIMIZERS = {
    "momentum": lambda: tf.train.MomentumOptimizer(0.05, 0.9),
    "nesterov": lambda: tf.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True),
    "adagrad": lambda: tf.train.AdagradOptimizer(0.1),
    "proximal_adagrad": lambda: tf.train.ProximalAdagradOptimizer(
        0.1, l1_regularization_strength=0.01, l2_regularization_strength=0.02),
    "proximal_sgd": lambda: tf.train.ProximalGradientDescentOptimizer(
        0.1, l1_regularization_strength=0.01, l2_regularization_strength=0.02),
    "adagrad_da": lambda: tf.train.AdagradDAOptimizer(
        0.1, tf.train.get_or_create_global_step(), l1_regularization_strength=0.01),
    "rmsprop": lambda: tf.train.RMSPropOptimizer(0.01, momentum=0.5),
    "centered_rmsprop": lambda: tf.train.RMSPropOptimizer(0.01, momentum=0.5, centered=True),
    "adadelta": lambda: tf.train.AdadeltaOptimizer(0.5),
    "ftrl": lambda: tf.train.FtrlOptimizer(0.1, l1_regularization_strength=0.01),
    "ftrl_v2": lambda: tf.train.FtrlOptimizer(0.1, l2_shrinkage_regularization_strength=0.1),
    "keras_sgd_momentum": lambda: tf.keras.optimizers.SGD(0.05, momentum=0.9),
    "keras_adagrad": lambda: tf.keras.optimizers.Adagrad(0.1),
    "keras_rmsprop": lambda: tf.keras.optimizers.RMSprop(0.01, momentum=0.5),
    "keras_adadelta": lambda: tf.keras.optimizers.Adadelta(0.5),
    "keras_ftrl": lambda: tf.keras.optimizers.Ftrl(0.1),
}


def _train_embeddings(make_optimizer, batched, monkeypatch, steps=4, resource=False,
                      device=None):
    """Two embedding tables looked up with tf.gather (IndexedSlices gradients: the
    optimizers' SparseApply* ops) and a dense output layer."""
    monkeypatch.setenv("TF1COMPAT_BATCH_KERNELS", "1" if batched else "0")
    rng = np.random.RandomState(0)
    with tf.Graph().as_default(), tf.device(device):
        with tf.variable_scope("net", use_resource=resource):
            words = tf.get_variable("words", initializer=rng.randn(10, 4).astype(np.float32))
            tags = tf.get_variable("tags", initializer=rng.randn(6, 4).astype(np.float32))
            out = tf.get_variable("out", initializer=rng.randn(8, 2).astype(np.float32))
        ids = tf.placeholder(tf.int32, [None])
        tag_ids = tf.placeholder(tf.int64, [None])
        features = tf.concat([tf.gather(words, ids), tf.gather(tags, tag_ids)], axis=1)
        loss = tf.reduce_sum(tf.square(tf.matmul(features, out) - 1.0))
        train = _minimize(make_optimizer(), loss, [words, tags, out])
        return _run_steps(train, [{ids: [(step * 3 + k) % 10 for k in range(3)],
                                   tag_ids: [(step + 2 * k) % 6 for k in range(3)]}
                                  for step in range(steps)])


@pytest.mark.parametrize("resource", [False, True], ids=["ref", "resource"])
@pytest.mark.parametrize("name", sorted(_SPARSE_OPTIMIZERS))
def test_batched_sparse_updates_equal_op_by_op_bit_for_bit(name, resource, monkeypatch):
    if name.startswith("keras") and not resource:
        pytest.skip("Keras optimizers make resource variables' updates only")
    make = _SPARSE_OPTIMIZERS[name]
    alone, _ = _train_embeddings(make, False, monkeypatch, resource=resource)
    calls = _record_batched_calls(monkeypatch)
    batched, source = _train_embeddings(make, True, monkeypatch, resource=resource)
    sparse_batch = [line for line in source.splitlines()
                    if "if not _batch(" in line and "SparseApply" in line]
    assert sparse_batch, source
    assert calls and all(calls), calls
    for a, b in zip(alone, batched):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("indices", [[0, 2, 2], [0, 7]], ids=["repeated", "out_of_range"])
def test_sparse_batch_declines_to_the_ops(indices, monkeypatch):
    """Repeated indices (applied row by row, as TF) and a bad index (TF's error, naming
    the op) are left to the op-by-op kernels."""
    results = []
    for batched in (False, True):
        monkeypatch.setenv("TF1COMPAT_BATCH_KERNELS", "1" if batched else "0")
        with tf.Graph().as_default():
            a = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3), use_resource=True)
            b = tf.Variable(np.ones((5, 3), np.float32), use_resource=True)
            acc_a = tf.Variable(np.full((4, 3), 0.1, np.float32), use_resource=True)
            acc_b = tf.Variable(np.full((5, 3), 0.1, np.float32), use_resource=True)
            idx = tf.placeholder(tf.int32, [None])
            grad = tf.constant(np.arange(9, dtype=np.float32).reshape(3, 3)[:len(indices)])
            first = tf.raw_ops.ResourceSparseApplyAdagrad(
                var=a.handle, accum=acc_a.handle, lr=0.5, grad=grad, indices=idx)
            second = tf.raw_ops.ResourceSparseApplyAdagrad(
                var=b.handle, accum=acc_b.handle, lr=0.5, grad=grad, indices=idx,
                name="second")
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                if indices[-1] >= 4:
                    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
                        sess.run(tf.group(first, second), {idx: indices})
                    continue
                sess.run(tf.group(first, second), {idx: indices})
                results.append(sess.run([a, b, acc_a, acc_b]))
    for x, y in zip(*results):
        np.testing.assert_array_equal(x, y)


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("name", ["momentum", "adagrad", "ftrl", "adadelta", "keras_rmsprop"])
def test_batched_sparse_updates_on_cuda_equal_op_by_op(name, monkeypatch):
    make = _SPARSE_OPTIMIZERS[name]
    alone, _ = _train_embeddings(make, False, monkeypatch, resource=True, device="/gpu:0")
    batched, source = _train_embeddings(make, True, monkeypatch, resource=True,
                                        device="/gpu:0")
    assert any("if not _batch(" in line and "SparseApply" in line
               for line in source.splitlines()), source
    for a, b in zip(alone, batched):
        np.testing.assert_array_equal(a, b)
