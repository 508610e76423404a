"""Unit tests for gradients: run-time behaviour goldens cannot express.

Variables are not part of this branch yet: a test-only variable op (aliasing a slot of the
session's store, as VariableV2 does) stands in for them.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import uuid
import weakref

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.framework.graph import apply_op1
from tf1compat.framework.op_def import Type, declare, get_op_def
from tests.child_env import child_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

try:
    get_op_def("TestOnlyVariableV2")
except NotImplementedError:
    declare("TestOnlyVariableV2", outputs=["ref: Ref(dtype)"],
            attrs={"dtype": Type(), "shape": None},
            shape=lambda ctx: [ctx.attrs["shape"]], kernel=None, grad="none",
            state_alias=lambda node: node.name)


def _variable(name: str, value: np.ndarray) -> tf.Tensor:
    return apply_op1("TestOnlyVariableV2", [],
                     {"dtype": tf.as_dtype(value.dtype), "shape": tf.TensorShape(value.shape)},
                     name=name)


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield


# -- variables -----------------------------------------------------------------------------

def test_gradient_wrt_variable_sums_over_all_reads():
    init = np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)
    v = _variable("v", init)
    read = tf.identity(v, name="v/read")
    loss = tf.reduce_sum(read * read) + tf.reduce_sum(v * 3.0) + tf.reduce_sum(tf.identity(v))
    g, = tf.gradients(loss, v)
    assert g.dtype == tf.float32 and g.shape.as_list() == [2, 2]
    with tf.Session() as sess:
        sess._runtime.state["v"] = torch.from_numpy(init.copy()).to(
            sess._runtime.placer.default)
        value, loss_value = sess.run([g, loss])
        assert not sess._runtime.state["v"].requires_grad
        np.testing.assert_allclose(sess._runtime.state["v"].cpu().numpy(), init)
    np.testing.assert_allclose(value, 2 * init + 3.0 + 1.0)
    np.testing.assert_allclose(loss_value, (init * init).sum() + 3 * init.sum() + init.sum())


def test_variable_gradient_through_gather_is_indexed_slices():
    init = np.arange(8, dtype=np.float32).reshape(4, 2)
    v = _variable("emb", init)
    read = tf.identity(v, name="emb/read")
    g, = tf.gradients(tf.reduce_sum(tf.gather(read, [3, 1, 3]) * 2.0), v)
    assert isinstance(g, tf.IndexedSlices)
    with tf.Session() as sess:
        sess._runtime.state["emb"] = torch.from_numpy(init.copy()).to(
            sess._runtime.placer.default)
        value = sess.run(g)
        dense = sess.run(tf.convert_to_tensor(g))
    np.testing.assert_array_equal(value.indices, [3, 1, 3])
    np.testing.assert_allclose(value.values, np.full((3, 2), 2.0))
    np.testing.assert_allclose(dense, [[0, 0], [2, 2], [0, 0], [4, 4]])


def test_uninitialized_variable_in_gradient_plan_fails_like_tf():
    v = _variable("w", np.zeros([2], np.float32))
    g, = tf.gradients(tf.reduce_sum(v * v), v)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(g)


# -- run-time modes and memory --------------------------------------------------------------

def test_plans_without_gradients_run_in_no_grad_mode():
    x = tf.placeholder(tf.float32, [3])
    y = tf.tanh(x) * 2.0
    g, = tf.gradients(y, x)
    with tf.Session() as sess:
        sess.run(y, {x: [1.0, 2.0, 3.0]})
        sess.run(g, {x: [1.0, 2.0, 3.0]})
        plans = list(sess._plans.values())
    needs = sorted(p.needs_grad for p in plans)
    assert needs == [False, True]


def test_forward_values_fetched_with_gradients_are_plain():
    x = tf.placeholder(tf.float32, [3])
    h = tf.sigmoid(x)
    y = tf.reduce_sum(h * h)
    g, = tf.gradients(y, x)
    with tf.Session() as sess:
        hv, yv, gv = sess.run([h, y, g], {x: [0.5, -1.0, 2.0]})
    s = 1 / (1 + np.exp(-np.array([0.5, -1.0, 2.0])))
    np.testing.assert_allclose(hv, s, rtol=1e-6)
    np.testing.assert_allclose(yv, (s * s).sum(), rtol=1e-6)
    np.testing.assert_allclose(gv, 2 * s * s * (1 - s), rtol=1e-5)


def test_autograd_graph_is_freed_after_the_run():
    x = tf.placeholder(tf.float32, [1000])
    y = tf.reduce_sum(tf.exp(tf.tanh(x)) * 3.0)
    g, = tf.gradients(y, x)
    refs = []
    original = torch.autograd.grad

    def spy(outputs, inputs, *args, **kwargs):
        refs.extend(weakref.ref(o) for o in outputs)
        return original(outputs, inputs, *args, **kwargs)

    with tf.Session() as sess:
        torch.autograd.grad = spy
        try:
            sess.run(g, {x: np.ones(1000, np.float32)})
        finally:
            torch.autograd.grad = original
        gc.collect()
    assert refs and all(r() is None for r in refs)


def test_single_gradient_op_does_not_retain_graph_but_two_do():
    x = tf.placeholder(tf.float32, [3])
    y = tf.reduce_sum(tf.sin(x) * x)
    g1, = tf.gradients(y, x)
    g2, = tf.gradients(y * 2.0, x)
    feed = {x: [0.1, 0.2, 0.3]}
    with tf.Session() as sess:
        a = sess.run(g1, feed)
        b, c = sess.run([g1, g2], feed)
    np.testing.assert_allclose(a, b)
    np.testing.assert_allclose(c, 2 * a, rtol=1e-6)


def test_interpreter_matches_generated_code():
    code = ("import numpy as np, tf1compat as tf\n"
            "x = tf.placeholder(tf.float32, [3])\n"
            "g = tf.gradients(tf.reduce_sum(tf.square(x) * tf.sin(x)), x)[0]\n"
            "gg = tf.gradients(tf.reduce_sum(g), x)[0]\n"
            "with tf.Session() as s:\n"
            "    print(np.round(s.run([g, gg], {x: [0.5, 1.0, 2.0]}), 5).tolist())\n")
    outs = []
    for interp in ("0", "1"):
        env = child_env(TF1COMPAT_INTERPRET=interp)
        outs.append(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                   text=True, check=True).stdout)
    assert outs[0] == outs[1]


def test_gradient_with_respect_to_fed_intermediate():
    x = tf.placeholder(tf.float32, [2])
    h = x * 3.0
    y = tf.reduce_sum(h * h)
    g_h, = tf.gradients(y, h)
    with tf.Session() as sess:
        vh = sess.run(g_h, {h: [1.0, 2.0]})
    np.testing.assert_allclose(vh, [2.0, 4.0])


def test_stop_gradients_conflict_between_gradient_ops_is_reported():
    x = tf.placeholder(tf.float32, [2])
    a = x * 2.0
    y = tf.reduce_sum(a * a) + tf.reduce_sum(x * 5.0)
    g_stop, = tf.gradients(y, x, stop_gradients=[a])
    g_full, = tf.gradients(y, x)
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(g_stop, {x: [1.0, 2.0]}), [5.0, 5.0])
        np.testing.assert_allclose(sess.run(g_full, {x: [1.0, 2.0]}), [13.0, 21.0])
        with pytest.raises(tf.errors.UnimplementedError, match="stop_gradients"):
            sess.run([g_stop, g_full], {x: [1.0, 2.0]})


def test_prevent_gradient_raises_lookup_error_with_tf_message():
    from tf1compat.ops.array_ops import prevent_gradient
    x = tf.placeholder(tf.float32, [2])
    with pytest.raises(LookupError, match=r"Gradient explicitly disabled. Reason: b'no'"):
        tf.gradients(prevent_gradient(x, message="no") * 2.0, x)


def test_gradients_in_eager_mode_raise():
    from tf1compat.framework import context
    context.set_eager(True)
    try:
        with pytest.raises(RuntimeError, match="GradientTape"):
            tf.gradients(1.0, 1.0)
    finally:
        context.set_eager(False)


def test_create_graph_is_marked_only_when_differentiated_again():
    x = tf.placeholder(tf.float32, [2])
    g, = tf.gradients(tf.reduce_sum(x ** 3.0), x)
    grad_op = [op for op in tf.get_default_graph().get_operations()
               if op.type == "SymbolicGradient"][0]
    assert grad_op.get_attr("create_graph") is False
    tf.gradients(g, x)
    assert grad_op.get_attr("create_graph") is True


def test_unconnected_sources_are_not_computed():
    x = tf.placeholder(tf.float32, [2])
    unused = tf.placeholder(tf.float32, [2])
    g = tf.gradients(tf.reduce_sum(x * x), [x, unused])
    assert g[1] is None
    grad_op = g[0].op.inputs[0].op
    assert grad_op.type == "SymbolicGradient"
    assert unused not in grad_op.inputs


# -- custom gradients at run time -----------------------------------------------------------

def test_custom_gradient_captures_forward_values():
    @tf.custom_gradient
    def f(x):
        e = tf.exp(x)
        p = tf.placeholder(tf.float32, [], name="scale")

        def grad(dy):
            return dy * e * p
        return e * 1.0, grad

    x = tf.placeholder(tf.float32, [2])
    y = f(x)
    g, = tf.gradients(tf.reduce_sum(y), x)
    scale = tf.get_default_graph().get_tensor_by_name("scale:0")
    with tf.Session() as sess:
        value = sess.run(g, {x: [0.0, 1.0], scale: 2.0})
    np.testing.assert_allclose(value, 2.0 * np.exp([0.0, 1.0]), rtol=1e-6)


def test_custom_gradient_kwargs_rejected_in_graph_mode():
    @tf.custom_gradient
    def f(x, scale=1.0):
        return x * scale, lambda dy: dy

    with pytest.raises(ValueError, match="keywords"):
        f(tf.constant(1.0), scale=2.0)


def test_py_func_gradient_override_runs_numpy_gradient_only_in_backward():
    calls = []

    def forward(a):
        calls.append("forward")
        return a * a

    def backward(a):
        calls.append("backward")
        return 2 * a

    name = "SquareGrad_" + str(uuid.uuid4())

    @tf.RegisterGradient(name)
    def _grad(op, grad):
        return grad * tf.py_func(backward, [op.inputs[0]], tf.float32)

    x = tf.placeholder(tf.float32, [3])
    with tf.get_default_graph().gradient_override_map({"PyFunc": name}):
        y = tf.py_func(forward, [x], tf.float32)
    g, = tf.gradients(tf.reduce_sum(y), x)
    with tf.Session() as sess:
        sess.run(y, {x: [1.0, 2.0, 3.0]})
        assert calls == ["forward"]
        np.testing.assert_allclose(sess.run(g, {x: [1.0, 2.0, 3.0]}), [2.0, 4.0, 6.0])
    assert calls == ["forward", "forward", "backward"]


def test_stateful_py_func_runs_every_time():
    counter = []
    x = tf.placeholder(tf.float32, [])
    y = tf.py_func(lambda a: counter.append(1) or a, [x], tf.float32)
    with tf.Session() as sess:
        for _ in range(3):
            sess.run(y, {x: 1.0})
    assert len(counter) == 3
    assert y.op._op_def.stateful and y.op._op_def.cpu_only


def test_py_func_error_message_names_the_op_and_exception():
    x = tf.placeholder(tf.float32, [2])

    def broken(a):
        raise ValueError("bad input here")

    y = tf.py_func(broken, [x], tf.float32, name="my_func")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(y, {x: [1.0, 2.0]})
    text = str(info.value)
    assert "Node: 'my_func'" in text and "ValueError: bad input here" in text
    assert "Traceback" in text and "[[{{node my_func}}]]" in text


def test_numpy_function_decorator_form():
    @tf.numpy_function(Tout=tf.float32)
    def double(a):
        return a * 2

    x = tf.placeholder(tf.float32, [2])
    y = double(x)
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(y, {x: [1.0, 2.0]}), [2.0, 4.0])


def test_py_function_runs_on_eager_tensors():
    # (the eager package provides EagerPyFunc's kernel: func gets EagerTensors)
    seen = []

    def func(a):
        seen.append(type(a).__name__)
        return a * 2.0

    x = tf.placeholder(tf.float32, [2])
    y = tf.py_function(func, [x], tf.float32)
    assert y.op.type == "EagerPyFunc"
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(y, {x: [1.0, 2.0]}), [2.0, 4.0])
    assert seen == ["EagerTensor"]
    assert not tf.executing_eagerly()


def test_framework_ops_exports_register_gradient():
    from tf1compat.internal import framework_ops as ops
    assert ops.RegisterGradient is tf.RegisterGradient
    assert ops.IndexedSlices is tf.IndexedSlices
    x = tf.placeholder(tf.float32, [2])
    assert ops.get_gradient_function(tf.tanh(x).op) is None


def test_indexed_slices_feed_and_fetch():
    values = tf.placeholder(tf.float32, [None, 2])
    indices = tf.placeholder(tf.int32, [None])
    s = tf.IndexedSlices(values, indices, tf.constant([3, 2]))
    dense = tf.convert_to_tensor(s)
    with tf.Session() as sess:
        out = sess.run(dense, {s: (np.ones([2, 2], np.float32), np.array([0, 2]),
                                   np.array([3, 2]))})
    np.testing.assert_allclose(out, [[1, 1], [0, 0], [1, 1]])


def test_two_gradient_ops_through_one_custom_gradient_in_one_run():
    @tf.custom_gradient
    def f(x):
        e = tf.exp(x)

        def grad(dy):
            return dy * e * 2.0
        return e, grad

    x = tf.placeholder(tf.float32, [2])
    y = tf.reduce_sum(f(x * 1.5))
    g1, = tf.gradients(y, x)
    g2, = tf.gradients(y * 3.0, x)
    with tf.Session() as sess:
        v1, v2 = sess.run([g1, g2], {x: [0.0, 1.0]})
    expected = np.exp(1.5 * np.array([0.0, 1.0])) * 2.0 * 1.5
    np.testing.assert_allclose(v1, expected, rtol=1e-6)
    np.testing.assert_allclose(v2, 3.0 * expected, rtol=1e-6)


def test_compute_gradient_error_with_respect_to_a_variable():
    init = np.array([0.3, -0.2, 0.1], np.float32)
    v = _variable("w", init)
    read = tf.identity(v, name="w/read")
    y = tf.reduce_sum(tf.tanh(read) * read)
    with tf.Session() as sess:
        sess._runtime.state["w"] = torch.from_numpy(init.copy())
        error = tf.test.compute_gradient_error(v, [3], y, [], x_init_value=init)
    assert error < 1e-3


def test_not_differentiable_gives_none_like_tf():
    # Registration is process-wide, so this runs in its own interpreter.
    code = ("import tf1compat as tf\n"
            "from tf1compat.framework.graph import apply_op1\n"
            "x = tf.placeholder(tf.float32, [2])\n"
            "snap = apply_op1('Snapshot', [x])\n"
            "try:\n"
            "    tf.gradients(snap, x)\n"
            "except LookupError as e:\n"
            "    print('lookup', 'Snapshot' in str(e))\n"
            "tf.no_gradient('Snapshot')\n"
            "print(tf.gradients(snap * 2.0, x), tf.gradients(snap + x, x)[0].name)\n"
            "try:\n"
            "    tf.NotDifferentiable('Snapshot')\n"
            "except KeyError:\n"
            "    print('duplicate')\n")
    env = child_env()
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split("\n")
    assert out[:3] == ["lookup True", "[None] gradients_2/grad_ys_0:0", "duplicate"]


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_gradient_of_a_cpu_pinned_variable_read_on_the_gpu():
    # word2vec's pattern: the embeddings under tf.device('/cpu:0'), the loss on the GPU.
    # The gradient op must differentiate the value the GPU ops read, not a moved copy.
    def gradients(cpu_only: bool) -> list:
        with tf.Graph().as_default():
            ids = tf.placeholder(tf.int32, [None])
            with tf.device("/cpu:0"):
                v = tf.Variable(np.arange(8, dtype=np.float32).reshape(4, 2))
                embed = tf.nn.embedding_lookup(v, ids)
                doubled = v * 2.0
            w = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
            loss = tf.reduce_sum(tf.matmul(embed, w)) + tf.reduce_sum(tf.matmul(doubled, w))
            grads = tf.gradients(loss, [v, embed, doubled])
            grads[0] = tf.convert_to_tensor(grads[0])
            config = tf.ConfigProto(device_count={"GPU": 0}) if cpu_only else None
            with tf.Session(config=config) as sess:
                sess.run(tf.global_variables_initializer())
                return sess.run(grads, {ids: [0, 3, 0]})
    on_cpu, on_gpu = gradients(True), gradients(False)
    assert np.abs(on_cpu[0]).sum() > 0
    for expected, got in zip(on_cpu, on_gpu):
        np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_a_gradient_runs_through_a_fed_intermediate_tensor():
    """TF takes a gradient through a fed intermediate tensor: dy/dh at the fed h, times
    dh/dx from h's producer (30 = 2 * 5 * 3 with h = 5 fed; TF 2.21 gives the same for
    a PlaceholderWithDefault and an Identity), not 0 as an autograd graph stopping at the
    feed would. Feeds off that path (an RNN's zero state) and feeding the variable itself
    are plain feeds."""
    with tf.Graph().as_default():
        x = tf.Variable(2.0)
        h = tf.placeholder_with_default(x * 3.0, [])
        y = h * h
        g = tf.gradients(y, x)
        h2 = tf.identity(x * 3.0)
        g2 = tf.gradients(h2 * h2, x)
        start = tf.zeros([])          # like cell.zero_state: no variable behind it
        z = (start + x) * x
        gz = tf.gradients(z, x)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(g) == [36.0]
            assert sess.run(gz, {start: 1.0}) == [5.0]
            assert sess.run(g, {x: 1.0}) == [18.0]
            assert sess.run(g, {h: 5.0}) == [30.0]
            assert sess.run(g2, {h2: 5.0}) == [30.0]
            assert sess.run([g, h], {h: 5.0})[1] == 5.0      # the fetch is the feed
