"""Eager execution unit tests (what the eager goldens cannot express).

Every other test runs in graph mode, so these tests switch eager execution on for their
own duration only (the `eager` fixture restores graph mode, grad mode, scopes, tapes and
the eager seed), and never call `tf.enable_eager_execution()` in the test process: its
program-startup rule is covered by the golden cases that run in child processes
(tests/golden/eager_cases_basics.py, `@startup`).
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.framework import context as _context
from tests.child_env import child_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def eager():
    from tf1compat.autodiff import tape
    from tf1compat.framework import random_seed
    grad = torch.is_grad_enabled()
    saved = dict(_context._state)
    seed = dict(random_seed._eager_state)
    _context.set_default_eager(True)
    torch.set_grad_enabled(False)
    try:
        yield tf
    finally:
        tape._TAPES.clear()
        tape._WATCHERS.clear()
        tape._update_flag()
        _context._state.clear()
        _context._state.update(saved)
        random_seed._eager_state.update(seed)
        torch.set_grad_enabled(grad)
        # Keras objects an eager test made (metrics with eager variables) must not reach
        # the graph-mode tests that run next in this process.
        tf.keras.backend.clear_session()
    assert not tf.executing_eagerly()


def _value(t):
    if isinstance(t, (list, tuple)):
        return [_value(v) for v in t]
    return t.numpy() if hasattr(t, "numpy") else t


def _close(a, b):
    if isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b)
        for x, y in zip(a, b):
            _close(x, y)
        return
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    if a.dtype.kind in "fc":
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    else:
        np.testing.assert_array_equal(a, b)


# -- eager and graph agree ---------------------------------------------------------------------

def _tables():
    from tests.golden import eager_cases_ops as ops
    return ops.MATH + ops.REDUCTIONS + ops.ARRAYS + ops.NN


@pytest.mark.parametrize("name,build", _tables(), ids=[n for n, _ in _tables()])
def test_eager_values_equal_graph_values(eager, name, build):
    eager_value = _value(build(tf))
    with tf.Graph().as_default():
        assert not tf.executing_eagerly()
        fetch = build(tf)
        with tf.Session() as sess:
            graph_value = sess.run(fetch)
    assert tf.executing_eagerly()
    if isinstance(graph_value, list):
        graph_value = [np.asarray(v) for v in graph_value]
    _close(eager_value, graph_value)


# -- the kernel cache --------------------------------------------------------------------------

def test_kernel_cache_is_keyed_by_signature_and_baked_constants(eager):
    from tf1compat.runtime import eager_executor as executor
    x = tf.constant(np.arange(6, dtype=np.float32))
    tf.reshape(x, [2, 3])
    n = len(executor._CACHE)
    a = tf.reshape(x, [2, 3])
    assert len(executor._CACHE) == n            # same signature: the cached kernel
    b = tf.reshape(x, [3, 2])                    # the target shape is baked in: a variant
    c = tf.reshape(x, [-1, 1])
    assert a.shape.as_list() == [2, 3] and b.shape.as_list() == [3, 2]
    assert c.shape.as_list() == [6, 1]
    np.testing.assert_array_equal(b.numpy(), np.arange(6).reshape(3, 2))
    y = tf.constant(np.arange(12, dtype=np.float32))
    assert tf.reshape(y, [3, 4]).shape.as_list() == [3, 4]   # another input shape


def test_cached_kernels_follow_input_dtypes(eager):
    assert tf.add(tf.constant([1, 2]), tf.constant([3, 4])).dtype == tf.int32
    out = tf.add(tf.constant([1.5]), tf.constant([2.0]))
    assert out.dtype == tf.float32 and out.numpy()[0] == 3.5
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:AddV2\]"):
        tf.add(tf.constant([1.5]), tf.constant([2]))


def test_python_scalars_take_the_tensor_dtype(eager):
    x = tf.constant([1.0, 2.0], tf.float64)
    y = x * 2
    assert y.dtype == tf.float64
    np.testing.assert_array_equal(y.numpy(), [2.0, 4.0])
    z = x * -0.0
    assert np.signbit(z.numpy()).all()           # -0.0 is not the cached 0.0
    assert (tf.constant([1, 2]) * 3).numpy().tolist() == [3, 6]


def test_kernel_errors_map_to_tf_classes(eager):
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:MatMul\]"):
        tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.gather(tf.ones([2]), 5)


def test_random_streams_continue_and_reset_with_the_seed(eager):
    tf.set_random_seed(1)
    a = tf.random_normal([2], seed=3).numpy()
    b = tf.random_normal([2], seed=3).numpy()
    assert not np.array_equal(a, b)
    tf.set_random_seed(1)
    np.testing.assert_array_equal(tf.random_normal([2], seed=3).numpy(), a)


def test_device_scopes_use_soft_placement(eager):
    with tf.device("/gpu:0"):
        x = tf.constant([1.0]) + 1.0
    with tf.device("/cpu:0"):
        y = x * 2.0
    assert y.device.endswith("CPU:0")
    if not torch.cuda.is_available():
        assert x.device.endswith("CPU:0")
    np.testing.assert_array_equal(y.numpy(), [4.0])


# -- variables and the store ------------------------------------------------------------------

def test_variable_values_live_in_the_eager_store_and_die_with_the_variable(eager):
    from tf1compat.runtime.eager_executor import RUNTIME
    v = tf.Variable([1.0, 2.0])
    key = v.handle._value
    assert key in RUNTIME.state
    v.assign([3.0, 4.0])
    np.testing.assert_array_equal(RUNTIME.state[key].cpu().numpy(), [3.0, 4.0])
    del v
    gc.collect()
    assert key not in RUNTIME.state


def test_get_variable_without_store_creates_new_variables(eager):
    a = tf.get_variable("gv", [1])
    b = tf.get_variable("gv", [1])
    assert a is not b and a.name == b.name == "gv:0"
    from tf1compat.variables.variable_store import _VariableStore
    with pytest.raises(RuntimeError, match="EagerVariableStore"):
        _VariableStore().get_variable("x", [1], reuse=True)


def test_eager_variable_store_reuses_by_name(eager):
    store = tf.contrib.eager.EagerVariableStore()
    with store.as_default():
        a = tf.get_variable("w", [2], initializer=tf.ones_initializer())
        b = tf.get_variable("w", [2])
    assert a is b
    assert [v.name for v in store.variables()] == ["w:0"]


def _declare_stand_in_apply_op():
    """A ResourceApplyGradientDescent stand-in: its kernel reads and writes the store."""
    from tf1compat.framework import op_def
    if "_EagerTestApplyGradientDescent" in op_def.registered_op_types():
        return

    def kernel(node, kctx):
        state = kctx.state

        def apply(handle, alpha, delta):
            state[handle] = (state[handle] - alpha * delta).detach()
        return apply

    op_def.declare("_EagerTestApplyGradientDescent",
                   inputs=["var: resource", "alpha: T", "delta: T"],
                   attrs={"T": op_def.Type()}, shape=lambda ctx: [], kernel=kernel,
                   grad="none", stateful=True)


class _StandInSGD:
    """What an optimizer does under eager execution, on a resource apply op."""

    def __init__(self, learning_rate):
        self.learning_rate = learning_rate

    def compute_gradients(self, loss_fn, var_list):
        with tf.GradientTape() as tape:
            loss = loss_fn()
        return list(zip(tape.gradient(loss, var_list), var_list)), loss

    def apply_gradients(self, grads_and_vars):
        from tf1compat.framework.graph import apply_op
        for g, v in grads_and_vars:
            apply_op("_EagerTestApplyGradientDescent",
                     [v.handle, tf.constant(self.learning_rate, v.dtype), g])

    def minimize(self, loss_fn, var_list):
        grads_and_vars, loss = self.compute_gradients(loss_fn, var_list)
        self.apply_gradients(grads_and_vars)
        return loss


def test_resource_apply_ops_train_eager_variables(eager):
    _declare_stand_in_apply_op()
    xs = np.array([[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5]], np.float32)
    ys = np.array([[1.0], [2.0], [0.0]], np.float32)
    w = tf.Variable([[0.5], [-0.5]])
    b = tf.Variable([0.1])
    opt = _StandInSGD(0.05)
    w_np, b_np = w.numpy().copy(), b.numpy().copy()
    for _ in range(5):
        opt.minimize(lambda: tf.reduce_mean(tf.square(tf.matmul(xs, w) + b - ys)), [w, b])
        err = xs @ w_np + b_np - ys
        gw = 2.0 * xs.T @ err / len(xs)
        gb = 2.0 * err.mean(axis=0)
        w_np, b_np = w_np - 0.05 * gw, b_np - 0.05 * gb
    np.testing.assert_allclose(w.numpy(), w_np, rtol=1e-5)
    np.testing.assert_allclose(b.numpy(), b_np, rtol=1e-5)


def test_kernels_reused_across_variables_read_the_right_store_entry(eager):
    _declare_stand_in_apply_op()
    from tf1compat.framework.graph import apply_op
    a, b = tf.Variable([1.0]), tf.Variable([10.0])     # same signature: one cached kernel
    apply_op("_EagerTestApplyGradientDescent", [a.handle, tf.constant(1.0), tf.constant([1.0])])
    apply_op("_EagerTestApplyGradientDescent", [b.handle, tf.constant(1.0), tf.constant([2.0])])
    assert a.numpy().tolist() == [0.0] and b.numpy().tolist() == [8.0]


# -- tapes ------------------------------------------------------------------------------------

def test_ops_outside_a_tape_do_not_record(eager):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
    before = x * x                     # after the tape's block: not recorded
    assert not before._value.requires_grad
    assert t.gradient(before, x) is None


def test_variable_leaves_are_detached_when_no_tape_records(eager):
    from tf1compat.runtime.eager_executor import RUNTIME
    v = tf.Variable(3.0)
    with tf.GradientTape() as t:
        y = v * v
    assert t.gradient(y, v).numpy() == 6.0
    assert not RUNTIME.state[v.handle._value].requires_grad
    assert not (v * 2.0)._value.requires_grad


def test_custom_gradient_with_variables(eager):
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            return dy * 10.0, [dy * 100.0]
        return x * v, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    gx, gv = t.gradient(y, [x, v])
    assert (y.numpy(), gx.numpy(), gv.numpy()) == (6.0, 10.0, 100.0)


def test_tfe_gradient_functions(eager):
    tfe = tf.contrib.eager
    v = tf.Variable(3.0)
    grads = tfe.implicit_gradients(lambda x: v * v * x)(2.0)
    assert [(g.numpy(), var is v) for g, var in grads] == [(12.0, True)]
    value, grads = tfe.implicit_value_and_gradients(lambda: v * 2.0)()
    assert value.numpy() == 6.0 and grads[0][0].numpy() == 2.0
    with pytest.raises(ValueError, match="No trainable variables"):
        tfe.implicit_gradients(lambda: tf.constant(1.0))()

    def f(x, y):
        return x * x * y
    gx, gy = tfe.gradients_function(f)(2.0, 5.0)
    assert (gx.numpy(), gy.numpy()) == (20.0, 4.0)
    (gy_only,) = tfe.gradients_function(f, params=["y"])(2.0, 5.0)
    assert gy_only.numpy() == 4.0
    value, (g,) = tfe.value_and_gradients_function(lambda x: x * x)(3.0)
    assert (value.numpy(), g.numpy()) == (9.0, 6.0)


def test_tfe_aliases(eager):
    tfe = tf.contrib.eager
    from tf1compat.variables.resource_variable import ResourceVariable
    assert tfe.Variable is ResourceVariable
    v = tfe.Variable(1.0)
    assert type(v).__name__ == "EagerResourceVariable" and isinstance(v, tf.Variable)
    assert tfe.GradientTape is tf.GradientTape
    assert tfe.executing_eagerly() and tfe.in_eager_mode() and not tfe.in_graph_mode()
    assert tfe.num_gpus() == (torch.cuda.device_count() if torch.cuda.is_available() else 0)
    assert tfe.defun(lambda x: x * 2.0)(tf.constant(2.0)).numpy() == 4.0
    assert tfe.py_func(lambda x: x + 1.0, [tf.constant(1.0)], tf.float32).numpy() == 2.0
    from tf1compat.data.eager_iterator import EagerIterator
    assert tfe.Iterator is EagerIterator
    with pytest.raises(NotImplementedError, match="Sequential"):
        tfe.Sequential
    with pytest.raises(AttributeError):
        tfe.no_such_name
    if not hasattr(tf.train, "Checkpoint"):
        with pytest.raises(NotImplementedError, match="tf.train.Checkpoint"):
            tfe.Checkpoint


def test_tfe_network_trains_eagerly(eager):
    # aymericdamien's neural_network_eager_api.py: a tfe.Network of tracked tf.layers,
    # trained with tfe.implicit_gradients and an optimizer's apply_gradients
    tfe = tf.contrib.eager

    class Net(tfe.Network):
        def __init__(self):
            super(Net, self).__init__()
            self.hidden = self.track_layer(tf.layers.Dense(8, activation=tf.nn.relu))
            self.out = self.track_layer(tf.layers.Dense(2))

        def call(self, x):
            return self.out(self.hidden(x))

    net = Net()
    with pytest.raises(ValueError, match="does not yet have a final name"):
        net.name
    x = tf.constant(np.random.RandomState(0).randn(16, 4).astype(np.float32))
    y = tf.constant(np.arange(16) % 2)

    def loss_fn(inference, inputs, labels):
        return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            logits=inference(inputs), labels=labels))

    grad = tfe.implicit_gradients(loss_fn)
    optimizer = tf.train.GradientDescentOptimizer(0.5)
    first = float(loss_fn(net, x, y))
    for _ in range(20):
        optimizer.apply_gradients(grad(net, x, y))
    assert float(loss_fn(net, x, y)) < first
    assert net.name == "net"
    assert [v.name for v in net.variables] == [
        "net/dense/kernel:0", "net/dense/bias:0", "net/dense_1/kernel:0", "net/dense_1/bias:0"]
    assert net.get_layer(index=1) is net.out and len(net.trainable_weights) == 4


def test_tf_layers_weights_and_updates_under_eager(eager):
    # TF 1.x eager: tf.layers weights are trainable (no collections to consult), and batch
    # norm's moving averages update as the layer runs (nothing is left in `updates`)
    dense = tf.layers.Dense(3)
    dense(tf.zeros([2, 4]))
    assert len(dense.trainable_weights) == 2 and not dense.non_trainable_weights
    norm = tf.layers.BatchNormalization()
    norm(tf.ones([2, 4]) * 3.0, training=True)
    assert len(norm.trainable_weights) == 2 and len(norm.non_trainable_weights) == 2
    np.testing.assert_allclose(norm.moving_mean.numpy(), [0.03] * 4, rtol=1e-6)
    assert norm.updates == []


def test_py_function_under_eager(eager):
    out = tf.py_function(lambda x: x * 2.0 + tf.reduce_sum(x), [tf.constant([1.0, 2.0])],
                         tf.float32)
    np.testing.assert_array_equal(out.numpy(), [5.0, 7.0])


def test_function_runs_a_cached_plan(eager):
    from tf1compat.eager.function import Function
    calls = []

    @tf.function
    def f(x):
        calls.append(1)
        return tf.tanh(x) * 2.0

    assert isinstance(f, Function)
    for _ in range(3):
        f(tf.constant([0.5]))
    assert len(calls) == 1
    np.testing.assert_allclose(f(tf.constant([0.5])).numpy(), np.tanh([0.5]) * 2.0,
                               rtol=1e-6)


def test_function_needing_autograph_runs_eagerly(eager):
    @tf.function
    def f(x):
        if x > 0:              # Python control flow on a tensor: AutoGraph's job
            return x
        return -x
    assert f(tf.constant(-2.0)).numpy() == 2.0


def test_enable_v2_behavior_is_refused():
    with pytest.raises(NotImplementedError, match="enable_eager_execution"):
        tf.compat.v1.enable_v2_behavior()


def test_eager_tensor_in_graph_mode_is_refused(eager):
    x = tf.constant(1.0)
    with tf.Graph().as_default():
        with pytest.raises(RuntimeError, match="Attempting to capture an EagerTensor"):
            tf.identity(x)


# -- the benchmark -----------------------------------------------------------------------------

def test_bench_eager_dispatch_smoke():
    code = ("import sys; sys.path.insert(0, 'scripts'); import bench_eager; "
            "r = bench_eager.bench_eager_dispatch(batches=3); "
            "assert {'add', 'chain100', 'tape'} <= set(r); "
            "assert all(v['tf1compat_us'] > 0 and v['torch_us'] > 0 for v in r.values()); "
            "print('ok')")
    env = child_env()
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().endswith("ok")


def test_keras_models_run_eagerly(eager):
    """Sequential/functional models built on tf.keras.Input under eager execution:
    the build happens in a private Keras graph, the weights are eager variables, and
    calling the model runs its layers eagerly (gradients through a tape)."""
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu", input_shape=(3,),
                                                       kernel_initializer="ones"),
                                 tf.keras.layers.Dense(1, kernel_initializer="ones")])
    x = tf.constant(np.ones((2, 3), np.float32))
    with tf.GradientTape() as tape:
        y = model(x)
        loss = tf.reduce_mean(y * y)
    grads = tape.gradient(loss, model.trainable_variables)
    np.testing.assert_allclose(y.numpy(), [[12.0], [12.0]])
    assert [tuple(g.shape.as_list()) for g in grads] == [(3, 4), (4,), (4, 1), (1,)]
    inp = tf.keras.Input((3,))
    functional = tf.keras.Model(inp, tf.keras.layers.Dense(2, kernel_initializer="ones")(inp))
    np.testing.assert_allclose(functional(x).numpy(), [[3.0, 3.0], [3.0, 3.0]])
