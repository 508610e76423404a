"""Unit tests for control flow that golden cases cannot express.

Side effects on stderr (Print), variables inside regions (with stand-in variable ops, so
these tests do not depend on the variables issue), compile-once behaviour of loop
bodies, and torch autograd through the compiled regions (If, While, TensorArray, map_fn,
scan), which is what tf.gradients builds on.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Type, declare, get_op_def
from tf1compat.framework.tensor_shape import as_shape
from tf1compat.runtime.codegen import compile_plan


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield


# -- stand-in ref variables (the variables issue provides the real ones) ---------------------

def _declare_test_variable_ops() -> None:
    try:
        get_op_def("_CFTestVariable")
        return
    except NotImplementedError:
        pass

    def assign_kernel(node, kctx):
        key = kctx.ref_key(node._inputs[0])
        state = kctx.state

        def assign(value):
            state[key] = value
            return value
        return assign

    def assign_add_kernel(node, kctx):
        key = kctx.ref_key(node._inputs[0])
        state = kctx.state

        def assign_add(value):
            state[key] = state[key] + value
            return state[key]
        return assign_add

    declare("_CFTestVariable", outputs=["ref: Ref(dtype)"],
            attrs={"dtype": Type(), "shape": as_shape([])},
            shape=lambda ctx: [as_shape(ctx.attrs["shape"])], kernel=None, stateful=True,
            state_alias=lambda node: node.name)
    declare("_CFTestAssign", inputs=["ref: Ref(T)", "value: T"], outputs=["output_ref: Ref(T)"],
            attrs={"T": Type()}, shape=lambda ctx: [ctx.shape(1)], kernel=assign_kernel,
            stateful=True)
    declare("_CFTestAssignAdd", inputs=["ref: Ref(T)", "value: T"],
            outputs=["output_ref: Ref(T)"], attrs={"T": Type()},
            shape=lambda ctx: [ctx.shape(1)], kernel=assign_add_kernel, stateful=True)


class _Var:
    """A minimal ref variable: `ref` (the VariableV2-like output), `read` (v/read)."""

    def __init__(self, name: str, value, dtype=tf.float32):
        _declare_test_variable_ops()
        value = np.asarray(value, dtype=dtype.as_numpy_dtype)
        self.ref = apply_op("_CFTestVariable", [], {"dtype": dtype, "shape": as_shape(
            list(value.shape))}, name=name)._outputs[0]
        self.read = tf.identity(self.ref, name=name + "/read")
        self.init = apply_op("_CFTestAssign", [self.ref, tf.constant(value)],
                             name=name + "/Assign")

    def assign(self, value):
        return apply_op("_CFTestAssign", [self.ref, value])._outputs[0]

    def assign_add(self, value):
        return apply_op("_CFTestAssignAdd", [self.ref, value])._outputs[0]


def test_cond_assigns_only_in_taken_branch():
    v = _Var("v", 0, tf.int32)
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: v.assign_add(1), lambda: v.assign_add(100))
    s = tf.Session()
    s.run(v.init)
    assert [s.run(r, {p: True}), s.run(r, {p: True}), s.run(r, {p: False})] == [1, 2, 102]
    assert s.run(v.read) == 102


def test_cond_untaken_control_dependency_side_effect():
    v = _Var("v", 10.0)
    p = tf.placeholder(tf.bool, [])

    def bump():
        with tf.control_dependencies([v.assign(v.read * 2.0)]):
            return tf.identity(v.read)
    r = tf.cond(p, bump, lambda: tf.constant(-1.0))
    s = tf.Session()
    s.run(v.init)
    assert [s.run(r, {p: False}), s.run(v.read), s.run(r, {p: True}), s.run(v.read)] == \
        [-1.0, 10.0, 20.0, 20.0]


def test_while_assigns_and_reads_variable_each_iteration():
    v = _Var("v", 1.0)
    total = _Var("total", 0, tf.int32)

    def body(i, acc):
        with tf.control_dependencies([acc]):
            up = v.assign(v.read * 2.0)
        with tf.control_dependencies([up, total.assign_add(i)]):
            return i + 1, acc + tf.identity(v.read)
    i, acc = tf.while_loop(lambda i, acc: i < 3, body, [0, 0.0])
    s = tf.Session()
    s.run([v.init, total.init])
    assert s.run(acc) == 14.0
    assert s.run(v.read) == 8.0
    assert s.run(total.read) == 3
    assert s.run(acc) == 8.0 * (2 + 4 + 8)


def test_uninitialized_variable_read_in_untaken_branch_fails_as_in_tf():
    v = _Var("v", 1.0)
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: v.read + 1.0, lambda: tf.constant(0.0))
    s = tf.Session()
    with pytest.raises(errors.FailedPreconditionError, match="uninitialized value v"):
        s.run(r, {p: False})
    s.run(v.init)
    assert s.run(r, {p: False}) == 0.0 and s.run(r, {p: True}) == 2.0


def test_variable_assigned_in_branch_but_uninitialized_ref_is_not_read():
    v = _Var("v", 1.0)
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: v.assign(tf.constant(5.0)), lambda: tf.constant(0.0))
    s = tf.Session()
    assert s.run(r, {p: False}) == 0.0       # the ref input of an assign is not a read
    assert s.run(r, {p: True}) == 5.0


# -- Print and side effects --------------------------------------------------------------------

def test_print_format_matches_tf(capsys):
    x = tf.constant([1.0, 2.0, -3.0, 4.5, 0.1])
    y = tf.constant([[1, 2], [3, 4]])
    p = tf.Print(x, [x, y, tf.constant("hi"), tf.constant(True), tf.constant(3.0)], "msg: ")
    p2 = tf.Print(x, [x], summarize=10)
    p3 = tf.Print(x, [x], "first ", first_n=2)
    s = tf.Session()
    s.run(p)
    s.run(p2)
    for _ in range(4):
        s.run(p3)
    err = capsys.readouterr().err.splitlines()
    assert err == ["msg: [1 2 -3...][[1 2][3...]...][hi][1][3]", "[1 2 -3 4.5 0.1]",
                   "first [1 2 -3...]", "first [1 2 -3...]"]


def test_print_in_untaken_branch_does_not_print(capsys):
    x = tf.placeholder(tf.float32, [])
    outside = tf.Print(x, [x], "outside ")
    r = tf.cond(x > 0, lambda: tf.Print(outside, [x], "taken "),
                lambda: tf.Print(x, [x], "untaken "))
    s = tf.Session()
    s.run(r, {x: 2.0})
    assert capsys.readouterr().err.splitlines() == ["outside [2]", "taken [2]"]
    s.run(r, {x: -1.0})
    # `outside` is captured by the true branch only, yet it runs (it is outside the cond).
    assert capsys.readouterr().err.splitlines() == ["outside [-1]", "untaken [-1]"]


def test_print_in_loop_body_prints_every_iteration(capsys):
    i = tf.while_loop(lambda i: i < 3, lambda i: tf.Print(i + 1, [i], "i="), [0])
    assert tf.Session().run(i) == 3
    assert capsys.readouterr().err.splitlines() == ["i=[0]", "i=[1]", "i=[2]"]


# -- regions ------------------------------------------------------------------------------------

def test_region_tensors_cannot_be_fetched_or_fed():
    x = tf.placeholder(tf.float32, [])
    inner = {}

    def body(i):
        inner["t"] = tf.cast(i, tf.float32) * x
        return i + 1
    r = tf.while_loop(lambda i: i < 2, body, [0])
    s = tf.Session()
    with pytest.raises(ValueError, match="not fetchable"):
        s.run(inner["t"], {x: 1.0})
    with pytest.raises(ValueError, match="may not be fed"):
        s.run(r, {x: 1.0, inner["t"]: 3.0})
    assert inner["t"].op._control_flow_context.IsWhileContext()
    assert tf.get_default_graph()._get_control_flow_context() is None


def test_using_loop_tensor_outside_its_loop_is_an_error():
    inner = {}

    def body(i):
        inner["t"] = i * 2
        return i + 1
    tf.while_loop(lambda i: i < 2, body, [0])
    with pytest.raises(ValueError, match="different while loops|is in a while loop"):
        tf.while_loop(lambda j: j < inner["t"], lambda j: j + 1, [0])


def test_fetched_outputs_do_not_alias_state():
    c = tf.constant([1.0, 2.0])
    r = tf.cond(tf.constant(True), lambda: c, lambda: c * 2.0)
    s = tf.Session()
    first = s.run(r)
    first[0] = 100.0
    assert s.run(r).tolist() == [1.0, 2.0]


def test_while_loop_compiles_once_and_does_not_rebuild_per_iteration(monkeypatch):
    from tf1compat.runtime.plan import PlanBuilder
    n = tf.placeholder(tf.int32, [])
    i, x = tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x * 0.5 + 1.0),
                         [0, tf.zeros([3])])
    builds = []
    original = PlanBuilder.build

    def counting(self, *args, **kwargs):
        builds.append(kwargs.get("context"))
        return original(self, *args, **kwargs)
    monkeypatch.setattr(PlanBuilder, "build", counting)
    s = tf.Session()
    assert s.run(i, {n: 10000}) == 10000
    assert len(builds) == 3          # the top-level plan, the condition, the body
    s.run([i, x], {n: 5000})
    assert len(builds) == 4          # a new fetch signature: one top-level plan only
    np.testing.assert_allclose(s.run(x, {n: 60}), np.full([3], 2.0), rtol=1e-6)


def test_nested_loop_inner_body_compiles_once():
    from tf1compat.runtime.plan import PlanBuilder
    calls = []
    original = PlanBuilder.build

    def outer_body(i, total):
        inner = tf.while_loop(lambda j, a: j < i, lambda j, a: (j + 1, a + j), [0, 0])
        return i + 1, total + inner[1]
    _, total = tf.while_loop(lambda i, t: i < 20, outer_body, [0, 0])
    s = tf.Session()
    PlanBuilder.build = lambda self, *a, **k: calls.append(1) or original(self, *a, **k)
    try:
        assert s.run(total) == sum(j for i in range(20) for j in range(i))
    finally:
        PlanBuilder.build = original
    assert len(calls) == 5           # top level, outer cond/body, inner cond/body


def test_case_exclusive_error_names_predicates():
    x = tf.placeholder(tf.int32, [])
    r = tf.case([(x > 0, lambda: tf.constant(1)), (x > 1, lambda: tf.constant(2))],
                default=lambda: tf.constant(0), exclusive=True)
    s = tf.Session()
    assert s.run(r, {x: 1}) == 1
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"more than 1 conditions \(Greater:0, Greater_1:0\)"):
        s.run(r, {x: 5})


def test_control_flow_context_protocol():
    seen = {}

    def body(i):
        ctx = tf.get_default_graph()._get_control_flow_context()
        seen["while"] = (ctx.IsWhileContext(), ctx.GetWhileContext() is ctx, ctx.name)
        tf.cond(i > 0, lambda: seen.setdefault("cond", tf.get_default_graph()
                                               ._get_control_flow_context()) and i,
                lambda: i)
        return i + 1
    tf.while_loop(lambda i: i < 2, body, [0])
    assert seen["while"] == (True, True, "while/")
    cond_ctx = seen["cond"]
    assert cond_ctx.IsCondContext() and not cond_ctx.IsWhileContext()
    assert cond_ctx.GetWhileContext() is not None and cond_ctx.outer_context is not None


# -- autograd through the compiled regions (what tf.gradients will use) --------------------------

def _grad(fetch, feed, values):
    """d(sum(fetch))/d(feed) by running the plan under torch autograd."""
    s = tf.Session()
    plan = s._runtime.builder.build([fetch], [feed])
    assert plan.error is None
    compile_plan(plan)
    x = torch.tensor(values, dtype=torch.float32, requires_grad=True,
                     device=s._runtime.placer.default)    # where Session.run puts feeds
    with torch.enable_grad():
        (out,) = plan.fn([x], s._runtime.state)
        (g,) = torch.autograd.grad(out.sum(), x)
    return out.detach().cpu().numpy(), g.cpu().numpy()


def test_autograd_through_cond():
    x = tf.placeholder(tf.float32, [2])
    r = tf.cond(tf.reduce_sum(x) > 0, lambda: x * x, lambda: x * 3.0)
    out, g = _grad(r, x, [1.0, 2.0])
    np.testing.assert_allclose(g, [2.0, 4.0])
    out, g = _grad(r, x, [-1.0, -2.0])
    np.testing.assert_allclose(g, [3.0, 3.0])


def test_autograd_through_while_loop():
    x = tf.placeholder(tf.float32, [2])
    _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), [0, tf.ones([2])])
    out, g = _grad(y, x, [2.0, 3.0])
    np.testing.assert_allclose(out, [8.0, 27.0])
    np.testing.assert_allclose(g, [12.0, 27.0])


def test_autograd_through_tensor_array_and_map_fn_and_scan():
    x = tf.placeholder(tf.float32, [3])
    ta = tf.TensorArray(tf.float32, 3).unstack(x * 2.0)
    doubled = ta.stack()
    _, g = _grad(doubled, x, [1.0, 2.0, 3.0])
    np.testing.assert_allclose(g, [2.0, 2.0, 2.0])
    sq = tf.map_fn(lambda e: e * e, x)
    _, g = _grad(sq, x, [1.0, 2.0, 3.0])
    np.testing.assert_allclose(g, [2.0, 4.0, 6.0])
    cs = tf.scan(lambda a, e: a + e, x)          # [x0, x0+x1, x0+x1+x2]
    _, g = _grad(cs, x, [1.0, 2.0, 3.0])
    np.testing.assert_allclose(g, [3.0, 2.0, 1.0])
    fl = tf.foldl(lambda a, e: a * e, x)
    _, g = _grad(fl, x, [1.0, 2.0, 3.0])
    np.testing.assert_allclose(g, [6.0, 3.0, 2.0])


def test_while_back_prop_false_stops_gradients():
    x = tf.placeholder(tf.float32, [2])
    _, y = tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, y * x), [0, x],
                         back_prop=False)
    s = tf.Session()
    plan = s._runtime.builder.build([y], [x])
    compile_plan(plan)
    xt = torch.tensor([2.0, 3.0], requires_grad=True, device=s._runtime.placer.default)
    with torch.enable_grad():
        (out,) = plan.fn([xt], s._runtime.state)
    assert not out.requires_grad
    np.testing.assert_allclose(out.cpu().numpy(), [8.0, 27.0])


def test_tensor_array_elements_keep_autograd_history():
    x = tf.placeholder(tf.float32, [])

    def body(i, ta):
        return i + 1, ta.write(i, x * tf.cast(i + 1, tf.float32))
    _, ta = tf.while_loop(lambda i, ta: i < 4, body, [0, tf.TensorArray(tf.float32, 4)])
    out, g = _grad(ta.stack(), x, 1.5)
    np.testing.assert_allclose(out, [1.5, 3.0, 4.5, 6.0])
    np.testing.assert_allclose(g, 10.0)


def test_eager_fallbacks_do_not_exist_for_graph_only_ops():
    # The If/While ops are graph constructs: their kernels need traced regions.
    assert get_op_def("If").keeps_devices and get_op_def("While").keeps_devices
    assert get_op_def("If").view and get_op_def("While").stateful
    assert D.resource.name == "resource"


def test_control_dependencies_none_leaves_the_region():
    # TF's init_scope / control_dependencies(None) escape a branch or loop body: this is
    # how variables created inside them (e.g. RNN cells in dynamic_rnn) live outside.
    outside = {}

    def body(i):
        with tf.control_dependencies(None):
            outside["c"] = tf.constant(5, name="hoisted")
        return i + outside["c"] - 4
    r = tf.while_loop(lambda i: i < 3, body, [0])
    assert outside["c"].op._control_flow_context is None
    assert outside["c"].op.name == "while/hoisted"
    assert tf.Session().run([r, outside["c"]]) == [3, 5]


def test_internal_control_flow_ops_module():
    from tf1compat.internal import control_flow_ops as cfo
    assert cfo.smart_cond(True, lambda: 1, lambda: 2) == 1
    x = tf.placeholder(tf.bool, [])
    r = cfo.smart_cond(x, lambda: tf.constant(1), lambda: tf.constant(2))
    assert r.name == "cond/Merge:0"
    assert tf.Session().run(r, {x: False}) == 2
    assert cfo.smart_cond(tf.constant(False), lambda: "t", lambda: "f") == "f"
    for name in ("cond", "case", "while_loop", "group", "tuple", "no_op", "with_dependencies",
                 "Assert", "switch_case"):
        assert callable(getattr(cfo, name))


def test_second_order_gradient_through_while_loop():
    """TF 1.x raises TypeError ("Second-order gradient for while loops not supported");
    tf1compat differentiates the loop twice (torch autograd records both passes)."""
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [])
    _, y = tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a * x),
                         [tf.constant(0), tf.constant(1.0)])
    g = tf.gradients(y, x)[0]
    h = tf.gradients(g, x)[0]
    with tf.Session() as sess:
        assert sess.run([y, g, h], {x: 3.0}) == [9.0, 6.0, 2.0]


def test_tensor_array_scatter_writes_rows_at_once_with_write_errors():
    """TensorArrayScatterV3 checks dtype and shape once for all rows (write_rows) and
    keeps write()'s errors: out-of-range and duplicate indices, incompatible shapes."""
    with tf.Graph().as_default():
        values = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
        ta = tf.TensorArray(tf.float32, size=4).scatter([3, 1, 0, 2], values)
        stacked = ta.stack()
        bad_index = tf.TensorArray(tf.float32, size=3).scatter([0, 5], values[:2]).stack()
        twice = tf.TensorArray(tf.float32, size=3).scatter([1, 1], values[:2]).stack()
        grow = tf.TensorArray(tf.float32, size=0, dynamic_size=True).scatter(
            [2, 0, 1], values[:3]).stack()
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(stacked),
                                          sess.run(values)[[2, 1, 3, 0]])
            np.testing.assert_array_equal(sess.run(grow), sess.run(values)[[1, 2, 0]])
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="Tried to write to index 5 but array is not resizeable"):
                sess.run(bad_index)
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="index 1 because it has already been written"):
                sess.run(twice)


def test_cond_branch_assigns_another_variables_value():
    # The assigned value (w's read) is captured from outside the branch: the branch's plan
    # must not look it up among its own tensors (it used to raise KeyError).
    v = tf.Variable([1.0], name="v")
    w = tf.Variable([2.0], name="w")
    pred = tf.placeholder(tf.bool, [])
    out = tf.cond(pred, lambda: tf.assign(v, w), lambda: tf.identity(v))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(out, {pred: False}).tolist() == [1.0]
        assert sess.run(out, {pred: True}).tolist() == [2.0]
        sess.run(tf.assign(w, [3.0]))
        assert sess.run(v).tolist() == [2.0]    # assigned a copy, not w's storage


def test_gradient_in_a_branch_of_a_loss_computed_outside_is_refused_clearly():
    """tf.gradients in a tf.cond branch of a loss computed outside the cond (TF passes
    the forward values in through Switches; tf1compat's branch function has no autograd
    history for its inputs): TF's UnimplementedError naming the input, not a wrong zero.
    A branch computing its own loss from outside values is differentiated."""
    x = tf.placeholder(tf.float32, [3])
    w = tf.Variable([1.0, 2.0, 3.0])
    p = tf.placeholder(tf.bool, [])
    loss = tf.reduce_sum(tf.sin(x * w))
    outside = tf.cond(p, lambda: tf.gradients(loss, w)[0], lambda: w * 0.0)
    inside = tf.cond(p, lambda: tf.gradients(tf.reduce_sum(tf.sin(x * w)), w)[0],
                     lambda: w * 0.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        feeds = {x: [1.0, 2.0, 3.0], p: True}
        np.testing.assert_allclose(sess.run(inside, feeds),
                                   np.cos([1.0, 4.0, 9.0]) * [1.0, 2.0, 3.0], rtol=1e-6)
        with pytest.raises(tf.errors.UnimplementedError,
                           match=f"through its input {loss.name}"):
            sess.run(outside, feeds)
