"""Runtime: pruning, plan cache, generated code vs interpreter, error mapping, devices."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.runtime.interpreter import Interpreter

cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield


def _plan(sess, fetches, feeds=()):
    from tf1compat.runtime.fetch import FetchMapper
    mapper = FetchMapper.for_fetch(fetches, sess.graph)
    feeds = sorted(feeds, key=lambda t: (t.op._id, t.value_index))
    return sess._plan_for(mapper.unique_fetches(), feeds)


def test_pruning_runs_only_what_fetches_need():
    x = tf.placeholder(tf.float32, [2])
    y = tf.placeholder(tf.float32, [2])
    used = tf.square(y, name="used")   # (of a constant it would be folded at plan build)
    unused = tf.sqrt(x, name="unused")  # would need the unfed placeholder
    with tf.Session() as sess:
        plan = _plan(sess, used, [y])
        names = [step.op.name for step in plan.steps]
        assert "used" in names and "unused" not in names
        np.testing.assert_allclose(sess.run(used, {y: [1.0, 2.0]}), [1.0, 4.0])
        del unused


def test_pruning_stops_at_fed_tensors():
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.square(x, name="y")
    z = tf.add(y, 1.0, name="z")
    with tf.Session() as sess:
        plan = _plan(sess, z, [y])
        assert [s.op.name for s in plan.steps] == ["z"]
        np.testing.assert_allclose(sess.run(z, {y: [3.0, 4.0]}), [4.0, 5.0])


def test_control_dependencies_are_executed_and_ordered():
    a = tf.constant(1.0)
    log = []
    from tf1compat.framework.op_def import declare
    from tf1compat.framework.graph import apply_op

    if "TestRecorder" not in __import__("tf1compat.framework.op_def",
                                        fromlist=["_REGISTRY"])._REGISTRY:
        declare("TestRecorder", attrs={"tag": ""}, shape=lambda ctx: [], stateful=True,
                kernel=lambda node, kctx: (lambda: TEST_LOG.append(node.get_attr("tag"))))
    TEST_LOG.clear()
    first = apply_op("TestRecorder", [], {"tag": "first"})
    with tf.control_dependencies([first]):
        second = apply_op("TestRecorder", [], {"tag": "second"})
    with tf.control_dependencies([second]):
        out = tf.identity(a)
    with tf.Session() as sess:
        sess.run(out)
    assert TEST_LOG == [b"first", b"second"]
    del log


TEST_LOG: list = []


def test_plan_cache_reused_and_not_invalidated_by_new_ops():
    x = tf.placeholder(tf.float32, [])
    y = x * 2.0
    with tf.Session() as sess:
        sess.run(y, {x: 1.0})
        plan = _plan(sess, y, [x])
        tf.square(x)  # adding ops elsewhere must not rebuild the plan
        assert _plan(sess, y, [x]) is plan
        assert sess.run(y, {x: 3.0}) == 6.0


def test_plan_cache_invalidated_by_control_input_edit():
    a = tf.constant(1.0)
    b = a + 1.0
    with tf.Session() as sess:
        plan = _plan(sess, b)
        extra = tf.no_op()
        b.op._add_control_input(extra)
        assert _plan(sess, b) is not plan


def test_feed_order_independent_cache():
    x = tf.placeholder(tf.float32, [])
    y = tf.placeholder(tf.float32, [])
    z = x - y
    with tf.Session() as sess:
        assert sess.run(z, {x: 5.0, y: 2.0}) == 3.0
        assert sess.run(z, {y: 2.0, x: 5.0}) == 3.0
        assert len(sess._plans) == 1


def test_generated_code_is_readable_and_frees_values():
    x = tf.placeholder(tf.float32, [None], name="x")
    h = tf.tanh(x * 2.0, name="h")
    out = tf.reduce_sum(h, name="out")
    with tf.Session() as sess:
        sess.run(out, {x: [1.0]})
        plan = _plan(sess, out, [x])
        src = plan.source
        # Values are named after their tensors, kernels after their op types.
        assert src == ("def plan(F, S):\n"
                       "    x, = F\n"
                       "    mul = Mul(x, c0)  # mul\n"
                       "    del x\n"
                       "    h = Tanh(mul)  # h\n"
                       "    del mul\n"
                       "    out = Sum(h, c1)  # out\n"
                       "    del h\n"
                       "    return (out,)\n")
        assert sess.plan_source(out, [x]) == src


GRAPHS = [
    lambda: (lambda x: tf.reduce_mean(tf.matmul(x, tf.transpose(x)) + 1.0, axis=0)),
    lambda: (lambda x: tf.concat([x, tf.square(x)], 1)[:, ::2]),
    lambda: (lambda x: tf.where(x > 0.5, x, -x) * tf.cast(tf.argmax(x, 1), tf.float32)[:, None]),
]


@pytest.mark.parametrize("build", GRAPHS)
def test_codegen_matches_interpreter(build):
    x = tf.placeholder(tf.float32, [3, 4])
    y = build()(x)
    value = np.random.RandomState(0).rand(3, 4).astype(np.float32)
    with tf.Session() as sess:
        compiled = sess.run(y, {x: value})
        plan = _plan(sess, y, [x])
        feeds = [torch.from_numpy(value).to(sess._runtime.placer.default)]
        interpreted = Interpreter(plan).run(feeds, sess._runtime.state)[0]
    np.testing.assert_allclose(compiled, interpreted.cpu().numpy(), rtol=1e-6)


def test_interpreter_env_switch(monkeypatch):
    import tf1compat.runtime.session as session_mod
    monkeypatch.setattr(session_mod, "_USE_INTERPRETER", True)
    x = tf.placeholder(tf.float32, [2])
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(x * 3.0, {x: [1.0, 2.0]}), [3.0, 6.0])


def test_runtime_error_names_op_and_user_line():
    idx = tf.placeholder(tf.int32, [None])
    g = tf.gather(tf.constant([1, 2, 3]), idx, name="lookup")  # the line to report
    line = g.op.traceback[-1][1]
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(g, {idx: [5]})
    err = info.value
    assert err.op is g.op
    assert "lookup" in err.message and "indices[0] = 5 is not in [0, 3)" in err.message
    assert f"test_runtime.py\", line {line}" in err.message
    assert "[[{{node lookup}}]]" in err.message


def test_unfed_placeholder_error():
    x = tf.placeholder(tf.float32, [None, 3], name="inputs")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="You must feed a value for "
                                                                  "placeholder tensor 'inputs' "
                                                                  "with dtype float and shape "
                                                                  r"\[\?,3\]"):
            sess.run(x + 1.0)


def test_runs_without_gradients_use_no_grad():
    seen = []
    from tf1compat.framework.op_def import declare, _REGISTRY
    from tf1compat.framework.graph import apply_op1
    if "TestGradMode" not in _REGISTRY:
        declare("TestGradMode", inputs=["x: T"], outputs=["y: T"],
                attrs={"T": tf1compat_type()}, shape=lambda ctx: [ctx.shape(0)],
                kernel=lambda node, kctx: (lambda v: (seen.append(torch.is_grad_enabled()),
                                                      v)[1]))
    y = apply_op1("TestGradMode", [tf.constant(1.0)])
    with tf.Session() as sess:
        sess.run(y)
    assert seen and seen[-1] is False


def tf1compat_type():
    from tf1compat.framework.op_def import Type
    return Type()


def test_fetches_do_not_alias_constants():
    c = tf.constant([1.0, 2.0])
    r = tf.reshape(c, [2, 1])
    with tf.Session() as sess:
        a = sess.run(r)
        a[0, 0] = 99.0
        assert sess.run(r)[0, 0] == 1.0


def test_make_callable_fast_path_matches_run():
    x = tf.placeholder(tf.float32, [None])
    y = tf.exp(x)
    with tf.Session() as sess:
        f = sess.make_callable(y, [x])
        np.testing.assert_allclose(f([0.0, 1.0]), sess.run(y, {x: [0.0, 1.0]}))


def test_device_placement_cpu_and_soft_gpu():
    with tf.device("/gpu:0"):
        a = tf.constant([1.0]) * 2.0
    with tf.device("/cpu:0"):
        b = a + 1.0
    with tf.Session() as sess:
        assert sess.run(b)[0] == 3.0
        assert sess._runtime.placer.device_for(b.op).type == "cpu"


def test_config_threads():
    before = torch.get_num_threads()
    try:
        with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=1)) as sess:
            sess.run(tf.constant(1))
            assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)


@cuda
def test_cuda_default_device_and_transfers():
    a = tf.placeholder(tf.float32, [3])
    b = tf.exp(a)
    with tf.device("/cpu:0"):
        c = b + 1.0
    with tf.Session() as sess:
        assert sess._runtime.placer.device_for(b.op).type == "cuda"
        np.testing.assert_allclose(sess.run(c, {a: [0.0, 0.0, 0.0]}), [2.0, 2.0, 2.0])


@cuda
def test_cuda_missing_gpu_index_without_soft_placement():
    with tf.device(f"/gpu:{torch.cuda.device_count()}"):
        a = tf.constant(1.0) + 1.0
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(a)
    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
        assert sess.run(a) == 2.0


def test_constant_subgraphs_fold_at_plan_build():
    x = tf.placeholder(tf.float32, [None, 3])
    rank_minus_one = tf.subtract(tf.rank(x), 1, name="rank_minus_one")
    begin = tf.stack([rank_minus_one], name="begin")
    big = tf.fill([64, 64], 2.0, name="big")              # too large to fold
    noisy = tf.random_uniform([2], name="noisy")           # stateful: never folded
    out = tf.slice(tf.shape(x), begin, [1]) + tf.cast(tf.reduce_sum(big), tf.int32) * 0
    with tf.Session() as sess:
        plan = _plan(sess, [out, noisy], [x])
        names = [step.op.name for step in plan.steps]
        assert "rank_minus_one" not in names and "begin" not in names
        assert "big" in names and "noisy/RandomUniform" in names
        got, _ = sess.run([out, noisy], {x: np.zeros((5, 3), np.float32)})
        np.testing.assert_array_equal(got, [3])




def test_view_ops_of_constants_fold_to_copies():
    # tf.shape(x)[0] of a statically known shape (what every feature column's reshape
    # builds) folds like any pure op; the folded slice is a copy, not a view of the shape.
    x = tf.placeholder(tf.float32, [128, 1])
    batch = tf.shape(x, name="shape")[0]
    target = tf.stack([batch, 1], name="target")
    out = tf.reshape(x, target, name="out")
    first = tf.strided_slice(tf.constant([7, 8]), [0], [1], name="first")
    with tf.Session() as sess:
        plan = _plan(sess, [out, first], [x])
        names = [step.op.name for step in plan.steps]
        assert names == ["out"]
        got = sess.run(first)
        got[0] = 99
        assert sess.run(first)[0] == 7
        assert sess.run(out, {x: np.ones((128, 1), np.float32)}).shape == (128, 1)


def test_gradient_sources_computed_from_constants_are_not_folded():
    # TF: d(z*z)/dz = 2z also where z is a pure op (a view or not) of constants.
    x = tf.constant([1.0, 2.0])
    doubled = x * 2.0
    reshaped = tf.reshape(x, [2])
    g = tf.gradients(doubled * doubled, doubled) + tf.gradients(reshaped * reshaped, reshaped)
    with tf.Session() as sess:
        got = sess.run(g)
    np.testing.assert_array_equal(got[0], [4.0, 8.0])
    np.testing.assert_array_equal(got[1], [2.0, 4.0])

def test_reshape_to_a_shape_tensor_follows_its_updates():
    # The Reshape kernel reads a shape tensor's ints once while it stays the same,
    # unchanged tensor (a folded tf.shape(x)[0]); a variable assigned in place is re-read.
    x = tf.placeholder(tf.float32, [None])
    shape = tf.Variable([2, 3])
    out = tf.reshape(x, shape)
    values = np.arange(6, dtype=np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(out, {x: values}).shape == (2, 3)
        sess.run(tf.assign(shape, [3, 2]))
        assert sess.run(out, {x: values}).shape == (3, 2)
        sess.run(tf.assign(shape, [6, 1]))
        np.testing.assert_array_equal(sess.run(out, {x: values}), values.reshape(6, 1))
# -- the plan builder's passes, one at a time ---------------------------------------------------

def test_prune_stops_at_feeds_and_orders_by_depth_then_creation():
    from tf1compat.runtime.plan import PlanBuilder
    a = tf.placeholder(tf.float32, [], name="a")
    b = tf.add(a, 1.0, name="b")
    c = tf.multiply(b, 2.0, name="c")
    tf.subtract(c, 3.0, name="unused")
    builder = PlanBuilder(runtime=None)
    # Each op as soon as its inputs are ready: the constant c/y before b.
    assert [op.name for op in builder.prune([c], {})] == ["a", "b/y", "c/y", "b", "c"]
    assert [op.name for op in builder.prune([c], {b: 0})] == ["c/y", "c"]
    assert [op.name for op in builder.prune([c.op], {b: 0})] == ["c/y", "c"]


def test_updates_wait_for_the_reads_they_are_not_ordered_after():
    from tf1compat.runtime.plan import PlanBuilder
    v = tf.Variable(1.0, name="v")
    late_read = tf.identity(tf.identity(tf.identity(v)), name="late_read")
    update = tf.assign_add(v, 1.0, name="update")
    with tf.control_dependencies([update]):
        after = tf.identity(v, name="after")
    order = [op.name for op in PlanBuilder(runtime=None).prune([late_read, after], {})]
    assert order.index("late_read") < order.index("update") < order.index("after")


def test_gradient_setup_marks_sources_only_for_gradient_plans():
    from tf1compat.runtime.plan import PlanBuilder, gradient_setup
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.reduce_sum(tf.square(x))
    (g,) = tf.gradients(y, [x])
    builder = PlanBuilder(runtime=None)
    plain = gradient_setup(builder.prune([y], {}))
    assert not plain.needs_grad and not plain.sources and plain.rewriter is None
    grad = gradient_setup(builder.prune([g], {}))
    assert grad.needs_grad and x in grad.sources and grad.rewriter is not None


def test_compute_frees_deletes_each_value_after_its_last_use_but_keeps_fetches():
    from tf1compat.runtime.plan import SLOT, Source, Step, compute_frees
    op = None     # (a step's op is only read for names and error messages)
    steps = [Step(op, None, [Source(SLOT, 0)], [1]),
             Step(op, None, [Source(SLOT, 1), Source(SLOT, 0)], [2]),
             Step(op, None, [Source(SLOT, 2)], [3])]
    compute_frees(steps, [Source(SLOT, 3), Source(SLOT, 1)])
    assert [s.frees for s in steps] == [[], [0], [2]]
