"""Training steps compiled in pieces (runtime/compiled_steps.py, runtime/hot_plans.py): the
compiled step trains to the same variables as op by op, plans it cannot compile say why,
and failures of the compiled path fall back with the reason."""

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.runtime import hot_plans
from tf1compat.runtime.hot_plans import COMPILED, FALLBACK, OP_BY_OP, RETRIAL, TRIAL
from tf1compat.training import training_util

STEPS = 3 + 2 * hot_plans._TRIAL_RUNS + 4     # count, compile, trial, then steady runs


@pytest.fixture
def compile_env(monkeypatch):
    monkeypatch.setenv("TF1COMPAT_COMPILE_AFTER", "3")
    monkeypatch.setenv("TF1COMPAT_COMPILE_MIN_OPS", "4")
    # AOTAutograd without inductor's code generation: the compiled backward is traced
    # and run as in production, in a fraction of the compile time.
    monkeypatch.setenv("TF1COMPAT_COMPILE_BACKEND", "aot_eager")
    monkeypatch.setenv("TF1COMPAT_COMPILE_BACKGROUND", "0")
    # One verdict after the first pairs (runtime/hot_plans.trial_verdict): a trial timed
    # by the real clock could otherwise go on past the runs counted here.
    monkeypatch.setattr(hot_plans, "_TRIAL_MAX_RUNS", hot_plans._TRIAL_RUNS)
    return monkeypatch


def _train(build, feeds, steps=STEPS, device="/cpu:0"):
    """Runs `steps` training steps of `build()` -> (loss, train_op); returns the losses,
    the variables after, and the step plan's hot record."""
    with tf.Graph().as_default(), tf.device(device):
        tf.set_random_seed(3)
        loss, train = build()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            losses = [sess.run([loss, train], feeds(i))[0] for i in range(steps)]
            variables = sess.run(tf.global_variables())
            record, = (p.hot for p in sess._plans.values()
                       if any(s.op.type == "SymbolicGradient" for s in p.steps))
    return losses, variables, record


def _same_training(compile_env, build, feeds, rtol=1e-5, **kw):
    got = _train(build, feeds, **kw)
    compile_env.setenv("TF1COMPAT_COMPILE", "off")
    want = _train(build, feeds, **kw)
    compile_env.setenv("TF1COMPAT_COMPILE", "auto")
    np.testing.assert_allclose(got[0], want[0], rtol=rtol, atol=1e-6)
    for a, b in zip(got[1], want[1]):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-6)
    return got[2]


def _compiled_was_used(record):
    # (which one the trial keeps depends on the machine's load)
    assert record.status in (TRIAL, COMPILED, FALLBACK, RETRIAL), record
    if record.status == FALLBACK:
        assert "not faster" in record.reason, record.reason
    if record.status == RETRIAL:
        assert "inconclusive" in record.reason, record.reason
    assert record.compiled_us > 0


_RNG = np.random.RandomState(0)
_X = _RNG.rand(32, 12).astype(np.float32)
_Y = np.eye(3, dtype=np.float32)[_RNG.randint(0, 3, 32)]


def _mlp(use_resource=False, optimizer=lambda: tf.train.AdamOptimizer(0.01)):
    def build():
        with tf.variable_scope("mlp", use_resource=use_resource):
            x = tf.placeholder(tf.float32, [None, 12], name="x")
            y = tf.placeholder(tf.float32, [None, 3], name="y")
            h = tf.layers.dense(x, 16, tf.nn.relu)
            logits = tf.layers.dense(h, 3)
            loss = tf.losses.softmax_cross_entropy(y, logits)
        return loss, optimizer().minimize(loss)
    return build


def _feeds(i):
    return {"mlp/x:0": _X[i % 2 * 16:][:16], "mlp/y:0": _Y[i % 2 * 16:][:16]}


def test_mlp_with_adam_trains_to_the_op_by_op_variables(compile_env):
    _compiled_was_used(_same_training(compile_env, _mlp(), _feeds))


def test_resource_variables_and_momentum(compile_env):
    record = _same_training(compile_env, _mlp(True, lambda: tf.train.MomentumOptimizer(
        0.1, 0.9)), _feeds)
    _compiled_was_used(record)


def test_cnn_trains_to_the_op_by_op_variables(compile_env):
    images = _RNG.rand(8, 8, 8, 1).astype(np.float32)

    def build():
        x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="img")
        y = tf.placeholder(tf.float32, [None, 3], name="lab")
        h = tf.layers.conv2d(x, 4, 3, padding="same", activation=tf.nn.relu)
        h = tf.layers.max_pooling2d(h, 2, 2)
        logits = tf.layers.dense(tf.layers.flatten(h), 3)
        loss = tf.losses.softmax_cross_entropy(y, logits)
        return loss, tf.train.AdamOptimizer(0.01).minimize(loss)
    _compiled_was_used(_same_training(
        compile_env, build, lambda i: {"img:0": images, "lab:0": _Y[:8]}))


@pytest.mark.parametrize("size,window", [(7, 2), (7, 3)],
                         ids=["tiled_odd_same_padding", "overlapping"])
def test_a_cnn_step_pools_in_one_graph(compile_env, size, window):
    """Inside the compiled graph, windows that tile the input pool as elementwise ops
    (ops/_tiled_pool.py; SAME padding at the end included), other pools as ATen's
    kernels behind custom ops (ops/_traced_pool.py; inductor's own pooling gradient is
    several times slower on the CPU; here overlapping windows): one graph, no break, the
    op-by-op values."""
    from torch._dynamo.utils import counters
    from torch.profiler import profile
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))   # the trial keeps it
    images = _RNG.rand(8, size, size, 2).astype(np.float32)

    def build():
        x = tf.placeholder(tf.float32, [None, size, size, 2], name="img")
        y = tf.placeholder(tf.float32, [None, 3], name="lab")
        h = tf.layers.conv2d(x, 4, 3, padding="same", activation=tf.nn.relu)
        h = tf.layers.max_pooling2d(h, window, 2, padding="same")
        logits = tf.layers.dense(tf.layers.flatten(h), 3)
        loss = tf.losses.softmax_cross_entropy(y, logits)
        return loss, tf.train.AdamOptimizer(0.01).minimize(loss)
    feeds = {"img:0": images, "lab:0": _Y[:8]}
    counters.clear()
    record = _same_training(compile_env, build, lambda i: feeds)
    assert record.status == COMPILED, record
    assert not counters["graph_break"], dict(counters["graph_break"])
    assert counters["stats"]["unique_graphs"] == 1
    with tf.Graph().as_default():
        loss, train = build()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(STEPS):
                sess.run(train, feeds)
            assert _step_hot_plan(sess).hot.status == COMPILED
            with profile() as prof:
                sess.run(train, feeds)
    names = {e.key for e in prof.key_averages()}
    aten_pools = {"tf1compat::max_pool2d", "tf1compat::max_pool2d_grad"}
    if window == 3:
        assert aten_pools <= names, names
    else:
        assert not {n for n in names if "max_pool" in n}, names


def test_the_traced_pooling_ops_equal_atens_to_the_second_order():
    from tf1compat.ops import _traced_pool
    x = torch.randn(2, 3, 7, 6, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    x = x.contiguous(memory_format=torch.channels_last).requires_grad_()
    results = []
    for pool in (lambda v: torch.nn.functional.max_pool2d(v, 3, 2, 1),
                 lambda v: _traced_pool.max_pool2d(v, [3, 3], [2, 2], [1, 1])):
        y = pool(x)
        g, = torch.autograd.grad((y ** 3).sum(), x, create_graph=True)
        gg, = torch.autograd.grad((g * g).sum(), x)
        results.append((y, g, gg))
    for a, b in zip(*results):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-12)


def _batch_norm_step():
    x = tf.placeholder(tf.float32, [None, 12], name="x")
    h = tf.layers.batch_normalization(tf.layers.dense(x, 8), training=True)
    loss = tf.reduce_mean(tf.square(h - 0.5))
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        return loss, tf.train.GradientDescentOptimizer(0.1).minimize(loss)


def test_batch_norm_moving_averages_join_the_graph_after_the_gradient(compile_env):
    """Batch norm's moving-average updates come before the gradient op in the plan's
    order, but nothing up to it reads the averages: they run after it, in the compiled
    graph with the optimizer's updates, and the step trains to the op-by-op variables."""
    from tf1compat.runtime import compiled_steps
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))   # the trial keeps it
    record = _same_training(compile_env, _batch_norm_step, lambda i: {"x:0": _X})
    assert record.status == COMPILED and record.reason == "", record
    with tf.Graph().as_default():
        loss, train = _batch_norm_step()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run([loss, train], {"x:0": _X})
            pieces = compiled_steps.split(_step_hot_plan(sess))
    assert not pieces.tail_plan.steps
    assert "batch_normalization/moving_mean" in pieces.writes, pieces.writes


def test_dropout_keeps_tfs_random_stream_op_by_op(compile_env):
    def build():
        x = tf.placeholder(tf.float32, [None, 12], name="x")
        h = tf.nn.dropout(tf.layers.dense(x, 8), keep_prob=0.7)
        loss = tf.reduce_mean(tf.square(h))
        return loss, tf.train.AdamOptimizer(0.01).minimize(loss)
    record = _same_training(compile_env, build, lambda i: {"x:0": _X}, rtol=0)
    assert record.status == OP_BY_OP and "random" in record.reason


def _chain_gradient():
    x = tf.placeholder(tf.float32, [16], name="x")
    h = x
    for i in range(12):
        h = tf.tanh(h) if i % 2 else h * 1.01 + 0.01
    return x, tf.gradients(tf.reduce_sum(h), x)[0]


def test_gradients_without_updates_are_compiled(compile_env):
    feed = np.linspace(-1, 1, 16).astype(np.float32)
    with tf.Graph().as_default():
        x, g = _chain_gradient()
        with tf.Session() as sess:
            want = sess.run(g, {x: feed})
            for _ in range(STEPS):
                np.testing.assert_allclose(sess.run(g, {x: feed}), want, rtol=1e-6)
            record = list(sess._plans.values())[-1].hot
    _compiled_was_used(record)


def _fake_compile(monkeypatch, make):
    monkeypatch.setattr(hot_plans, "compile_recording", lambda fn, backend: make(fn))


@pytest.mark.parametrize("make,reason", [
    (lambda fn: (lambda *a: (_ for _ in ()).throw(RuntimeError("boom"))),
     "torch.compile failed: RuntimeError: boom"),
    (lambda fn: (lambda *a: tuple(v * 2 if isinstance(v, torch.Tensor) and
                                  v.is_floating_point() else v for v in fn(*a))),
     "compiled forward values differ"),
])
def test_compile_failures_fall_back_with_the_reason(compile_env, make, reason):
    _fake_compile(compile_env, make)
    record = _same_training(compile_env, _mlp(), _feeds)
    assert record.status == FALLBACK and reason in record.reason


def _failing_after_the_check(compile_env):
    """Compiles to a function that raises from its third call on (the check's runs pass);
    returns the list of its calls."""
    calls = []

    def make(fn):
        def compiled(*args):
            calls.append(1)
            if len(calls) > 2:
                raise RuntimeError("compiled kernel failed")
            return fn(*args)
        return compiled
    _fake_compile(compile_env, make)
    return calls


def test_errors_of_the_compiled_forward_run_op_by_op(compile_env):
    """The compiled segment raising after the check: the run goes op by op (nothing was
    updated), with the same result."""
    calls = _failing_after_the_check(compile_env)
    _same_training(compile_env, _mlp(), _feeds)
    assert len(calls) > 3


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_mlp_on_cuda(compile_env):
    _compiled_was_used(_same_training(compile_env, _mlp(), _feeds, rtol=1e-4,
                                      device="/gpu:0"))


def test_the_forward_segment_is_one_graph(compile_env):
    """The loss's shape arithmetic (tf.shape -> slice -> concat -> reshape) is baked in
    for the traced shapes: torch.compile sees the whole forward segment as one graph."""
    graphs = []

    def counting(gm, example_inputs):
        graphs.append(gm)
        return gm.forward
    _fake_compile(compile_env, lambda fn: torch.compile(fn, backend=counting, dynamic=False))
    record = _same_training(compile_env, _mlp(), _feeds)
    assert record.status in (TRIAL, COMPILED, FALLBACK, RETRIAL) and record.compiled_us > 0
    assert len(graphs) == 1


def test_plain_gradient_plans_compile_whole(compile_env):
    """`tf.gradients` of fed values with pure ops around it is one compiled graph (the
    gradient op traced, not a graph break); a gradient with respect to a variable is cut
    in pieces as a training step."""
    from torch._dynamo.utils import counters
    from tf1compat.runtime import compiled_steps
    counters.clear()
    feed = np.linspace(-1, 1, 16).astype(np.float32)
    with tf.Graph().as_default():
        x, g = _chain_gradient()
        w = tf.Variable(np.ones(16, np.float32))
        gw = tf.gradients(tf.reduce_sum(tf.tanh(x * w)), w)[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            want = sess.run(g, {x: feed})
            for _ in range(STEPS):
                np.testing.assert_allclose(sess.run(g, {x: feed}), want, rtol=1e-6)
            sess.run(gw, {x: feed})
            plans = list(sess._plans.values())
            whole = [p for p in plans if compiled_steps.compiles_whole(p)]
            pieces = [p for p in plans if p.needs_grad and
                      not compiled_steps.compiles_whole(p)]
    assert len(whole) == 1 and whole[0].hot.status in (TRIAL, COMPILED, FALLBACK, RETRIAL)
    assert whole[0].hot.compiled_us > 0 or whole[0].hot.status == TRIAL
    assert len(pieces) == 1 and pieces[0].state_marks
    assert not counters["graph_break"], dict(counters["graph_break"])


def _step_hot_plan(sess):
    plan, = (p for p in sess._plans.values()
             if any(s.op.type == "SymbolicGradient" for s in p.steps))
    return plan


def test_the_gradient_op_joins_the_compiled_graph(compile_env):
    """A plain gradient of the variables is traced into the forward segment's graph: one
    graph computes the loss and the gradients (no graph break at torch.autograd.grad),
    the tail gets values without a graph, and the updates after it (left out of the
    graph here) still write the stored variables in place."""
    from torch._dynamo.utils import counters
    from tf1compat.runtime import compiled_steps
    counters.clear()
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))   # the trial keeps it
    compile_env.setenv("TF1COMPAT_COMPILE_UPDATES", "0")
    with tf.Graph().as_default():
        loss, train = _mlp()()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for i in range(STEPS):
                sess.run([loss, train], _feeds(i))
            plan = _step_hot_plan(sess)
            assert plan.hot.status == COMPILED and plan.hot.reason == "", plan.hot
            pieces = compiled_steps.split(plan)
            assert pieces.merged and pieces.source_keys == plan.state_marks
            state = sess._runtime.state
            before = state["mlp/dense/kernel"].data_ptr()
            sess.run([loss, train], _feeds(0))
            stored = state["mlp/dense/kernel"]
            assert stored.data_ptr() == before and not stored.requires_grad
    assert not counters["graph_break"], dict(counters["graph_break"])
    assert counters["stats"]["unique_graphs"] == 1


@pytest.mark.parametrize("optimizer", [
    lambda: tf.train.AdamOptimizer(0.01),
    lambda: tf.train.RMSPropOptimizer(0.01, momentum=0.5),
    lambda: tf.train.MomentumOptimizer(0.05, 0.9),
    lambda: tf.train.AdagradOptimizer(0.1),
    lambda: tf.train.GradientDescentOptimizer(0.1),
], ids=["adam", "rmsprop", "momentum", "adagrad", "sgd"])
def test_the_optimizer_updates_join_the_compiled_graph(compile_env, optimizer):
    """Dense updates of ref variables (and Adam's beta-power assignments, the global
    step's increment) are computed in the compiled graph: one graph for the loss, the
    gradients and the new values of the variables and slots, which the step stores; the
    step trains to the op-by-op variables."""
    from torch._dynamo.utils import counters
    from tf1compat.runtime import compiled_steps
    counters.clear()
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))   # the trial keeps it

    def build():
        loss, _ = _mlp()()
        step = tf.train.get_or_create_global_step()
        return loss, optimizer().minimize(loss, global_step=step)
    record = _same_training(compile_env, build, _feeds)
    assert record.status == COMPILED and record.reason == "", record
    assert not counters["graph_break"], dict(counters["graph_break"])
    with tf.Graph().as_default():
        loss, train = build()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for i in range(STEPS):
                sess.run([loss, train], _feeds(i))
            assert sess.run(tf.train.get_global_step()) == STEPS
            pieces = compiled_steps.split(_step_hot_plan(sess))
            assert not pieces.tail_plan.steps
            assert "mlp/dense/kernel" in pieces.writes and "global_step" in pieces.writes
            assert not sess._runtime.state["mlp/dense/kernel"].requires_grad


def test_a_step_that_reads_what_it_updated_keeps_its_updates_op_by_op(compile_env):
    """An update after another of the same variable would read the value the step began
    with in the graph: such a tail stays op by op."""
    from tf1compat.runtime import compiled_steps

    def build():
        loss, train = _mlp(optimizer=lambda: tf.train.GradientDescentOptimizer(0.1))()
        kernel = [v for v in tf.global_variables() if v.op.name == "mlp/dense/kernel"][0]
        with tf.control_dependencies([train]):
            again = tf.assign(kernel, kernel * 0.5)
        return loss, again
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))
    record = _same_training(compile_env, build, _feeds)
    assert record.status == COMPILED
    with tf.Graph().as_default():
        loss, train = build()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run([loss, train], _feeds(0))
            pieces = compiled_steps.split(_step_hot_plan(sess))
    assert pieces.merged and not pieces.writes and pieces.tail_plan.steps


@pytest.mark.parametrize("op_type,reason", [
    ("ApplyAdam", "optimizer updates left out of the compiled graph"),
    ("SymbolicGradient", "gradient op left out of the compiled graph"),
])
def test_a_joined_graph_that_fails_falls_back_a_piece_at_a_time(compile_env, op_type,
                                                                  reason):
    """The updates (or the gradient op) cannot join the graph (here: compiling a graph
    with them fails): the step is compiled without them, as before, they run op by op,
    and the record says why."""
    def make(fn):
        if op_type in fn.__code__.co_names:
            return lambda *a: (_ for _ in ()).throw(RuntimeError("not in this graph"))
        return fn
    _fake_compile(compile_env, make)
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))   # the trial keeps it
    record = _same_training(compile_env, _mlp(), _feeds, rtol=0)
    assert record.status == COMPILED
    assert reason in record.reason and "not in this graph" in record.reason


def test_a_second_gradient_op_keeps_the_gradient_out_of_the_graph(compile_env):
    """Two gradient ops in one step (the second needs the forward's graph after the
    first): only the forward segment is compiled."""
    from tf1compat.runtime import compiled_steps

    def build():
        x = tf.placeholder(tf.float32, [None, 12], name="x")
        w = tf.Variable(np.ones((12, 3), np.float32))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
        g1 = tf.gradients(loss, w)[0]
        g2 = tf.gradients(loss * 2.0, w)[0]
        return loss, tf.assign_sub(w, 0.01 * (g1 + g2))
    with tf.Graph().as_default():
        loss, train = build()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run([loss, train], {"x:0": _X})
            plan = next(p for p in sess._plans.values() if p.needs_grad)
    pieces = compiled_steps.split(plan)
    assert isinstance(pieces, str) or not pieces.merged


_IDS = [np.array(ids, np.int32) for ids in ([1, 4, 4, 0, 9, 1, 2, 2], [3, 3, 3, 3, 5, 6, 7, 0],
                                             [8, 1, 8, 1, 8, 1, 8, 1])]


def _embedding_step(assign_first=False):
    """An embedding lookup (its gradient IndexedSlices: Adam's sparse update, whose slot
    scaling and unique indices need no gradient) and a dense layer, gradients clipped by
    their global norm. `assign_first`: the loss waits for an assignment of a variable."""
    def build():
        ids = tf.placeholder(tf.int32, [None], name="ids")
        y = tf.placeholder(tf.float32, [None, 3], name="y")
        emb = tf.get_variable("emb", [10, 4])
        extra = tf.Variable(1.0)
        first = [tf.assign(extra, 2.0)] if assign_first else []
        with tf.control_dependencies(first):
            logits = tf.layers.dense(tf.nn.embedding_lookup(emb, ids), 3) * extra
        loss = tf.losses.softmax_cross_entropy(y, logits)
        tvars = tf.trainable_variables()
        grads, _ = tf.clip_by_global_norm(tf.gradients(loss, tvars), 1.0)
        return loss, tf.train.AdamOptimizer(0.01).apply_gradients(zip(grads, tvars))
    return build


def _ids_feeds(i):
    return {"ids:0": _IDS[i % 3], "y:0": _Y[:8]}


def test_an_embedding_step_compiles_with_its_gradient_at_the_lookup(compile_env):
    """The gradient is taken at the lookup's output (a computed value): a source inside
    the graph that traces the gradient op. Adam's sparse update assigns its slots and
    finds the unique indices before the gradient op in the plan's order; that work runs
    after it instead, so the forward ops and the gradient are one graph (a different
    number of unique indices each step recompiles nothing) and the step trains to the
    op-by-op variables."""
    from torch._dynamo.utils import counters
    from tf1compat.runtime import compiled_steps
    counters.clear()
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))   # the trial keeps it
    record = _same_training(compile_env, _embedding_step(), _ids_feeds)
    assert record.status == COMPILED and record.reason == "", record
    assert not counters["graph_break"], dict(counters["graph_break"])
    with tf.Graph().as_default():
        loss, train = _embedding_step()()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run([loss, train], _ids_feeds(0))
            pieces = compiled_steps.split(_step_hot_plan(sess))
    assert pieces.merged
    forward = {s.op.type for s in pieces.forward_plan.steps}
    tail = [s.op.type for s in pieces.tail_plan.steps]
    assert "Unique" not in forward and "Assign" not in forward
    assert sorted(tail[:3]) == ["Assign", "Assign", "Unique"], tail


def _summarised_step(steps):
    """char-rnn's pattern: histograms of the logits and the per-example losses and a
    scalar of the loss, merged, fetched with the loss and the training op; the
    summaries' values (histogram sums and maxima, the scalar) of each step and the
    step plan's hot record."""
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        x = tf.placeholder(tf.float32, [None, 12], name="x")
        y = tf.placeholder(tf.float32, [None, 3], name="y")
        logits = tf.layers.dense(tf.layers.dense(x, 16, tf.nn.relu), 3)
        losses = tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits)
        loss = tf.reduce_mean(losses)
        train = tf.train.AdamOptimizer(0.01).minimize(loss)
        tf.summary.histogram("logits", logits)
        tf.summary.histogram("losses", losses)
        tf.summary.scalar("loss", loss)
        merged = tf.summary.merge_all()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = []
            for i in range(steps):
                feed = {x: _X[i % 2 * 16:][:16], y: _Y[i % 2 * 16:][:16]}
                v = tf.Summary.FromString(sess.run([merged, loss, train], feed)[0]).value
                values.append([v[0].histo.sum, v[0].histo.max, v[1].histo.sum,
                               v[2].simple_value])
            return values, _step_hot_plan(sess).hot


def test_summaries_of_forward_values_run_after_the_compiled_graph(compile_env):
    """The summaries need nothing the gradient makes but come before the gradient op in
    the plan's order: strings a graph cannot hold, they run after it, op by op, and give
    the op-by-op summaries."""
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))   # the trial keeps it
    got, record = _summarised_step(STEPS)
    compile_env.setenv("TF1COMPAT_COMPILE", "off")
    want, _ = _summarised_step(STEPS)
    assert record.status == COMPILED and record.reason == "", record
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_an_assignment_the_forward_ops_wait_for_keeps_the_step_op_by_op(compile_env):
    """An assignment before the gradient op that a forward op depends on (here a
    control dependency) is not moved after it: the step says why it is not compiled."""
    from tf1compat.runtime import compiled_steps
    with tf.Graph().as_default():
        loss, train = _embedding_step(assign_first=True)()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run([loss, train], _ids_feeds(0))
            reason = compiled_steps.split(_step_hot_plan(sess))
    assert reason == ("op Assign (Assign) updates variables before the gradient is "
                      "taken"), reason


def _data_mlp(rows, shuffle=True):
    """The MLP fed by tf.data: `rows` examples, batches of 16 (the last one smaller
    when 16 does not divide `rows`), repeated."""
    def build():
        ds = tf.data.Dataset.from_tensor_slices((_X[:rows], _Y[:rows]))
        if shuffle:
            ds = ds.shuffle(8, seed=1)
        x, y = tf.data.make_one_shot_iterator(ds.batch(16).repeat()).get_next()
        h = tf.layers.dense(x, 16, tf.nn.relu)
        loss = tf.losses.softmax_cross_entropy(y, tf.layers.dense(h, 3))
        return loss, tf.train.AdamOptimizer(0.01).minimize(loss)
    return build


def test_a_tf_data_step_compiles_with_its_iterator_run_first(compile_env):
    """The iterator's ops (stateful) run before the compiled graph, once a step: the
    same batches in the same order as op by op, the same variables bit for bit."""
    from tf1compat.runtime import compiled_steps
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))   # the trial keeps it
    record = _same_training(compile_env, _data_mlp(32), lambda i: None, rtol=0)
    assert record.status == COMPILED and record.reason == "", record
    with tf.Graph().as_default():
        loss, train = _data_mlp(32)()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run([loss, train])
            pieces = compiled_steps.split(_step_hot_plan(sess))
    assert pieces.merged
    assert [s.op.type for s in pieces.head_plan.steps] == ["OneShotIterator",
                                                          "IteratorGetNext"]


@pytest.mark.parametrize("failing", [False, True])
def test_a_tf_data_step_whose_compiled_graph_fails_skips_no_batch(compile_env, failing):
    """The compiled graph cannot run a step after the iterator gave its batch (a smaller
    last batch: another shape; or the compiled kernels raising): the step goes on op by
    op with that batch, and every batch is used once, in TF's order."""
    calls = _failing_after_the_check(compile_env) if failing else []
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))
    record = _same_training(compile_env, _data_mlp(32 if failing else 24), lambda i: None,
                            rtol=0)
    if failing:
        assert len(calls) > 3 and record.status == COMPILED
    else:
        assert record.status == FALLBACK and "did not cover" in record.reason


@pytest.mark.parametrize("batches", [3, STEPS + 2])
def test_the_end_of_a_tf_data_input_raises_out_of_range_after_its_last_batch(compile_env,
                                                                            batches):
    """Without repeat: every batch is trained on once, then the step raises TF's
    OutOfRangeError naming IteratorGetNext, from the run that starts the compile (3
    batches) or from the compiled step."""
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))
    rng = np.random.RandomState(1)
    xs = rng.rand(16 * batches, 12).astype(np.float32)
    ys = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 16 * batches)]
    with tf.Graph().as_default():
        ds = tf.data.Dataset.from_tensor_slices((xs, ys)).batch(16)
        x, y = tf.data.make_one_shot_iterator(ds).get_next()
        loss = tf.losses.softmax_cross_entropy(y, tf.layers.dense(x, 3))
        train = tf.train.AdamOptimizer(0.01).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(batches):
                sess.run([loss, train])
            with pytest.raises(tf.errors.OutOfRangeError, match="IteratorGetNext"):
                sess.run([loss, train])
            status = _step_hot_plan(sess).hot.status
    assert status == (COMPILED if batches > 3 else TRIAL)


def _checked_mlp(limit=3):
    """The MLP with sparse labels checked as a canned Estimator head checks them (an
    Assert under the labels' control dependencies and two AssertGuard conds), its step
    reading `initialized_value() + 0` of the global step first as Estimator does."""
    def build():
        step = tf.train.get_or_create_global_step()
        with tf.control_dependencies([training_util._get_or_create_global_step_read()]):
            x = tf.placeholder(tf.float32, [None, 12], name="x")
            labels = tf.placeholder(tf.int64, [None, 1], name="labels")
            shape_ok = tf.assert_equal(tf.shape(labels)[1:], [1], message="labels shape")
            in_range = tf.assert_less_equal(labels, tf.constant(limit - 1, tf.int64))
            positive = tf.assert_non_negative(labels)
            with tf.control_dependencies([shape_ok, in_range, positive]):
                labels = tf.identity(labels)
            logits = tf.layers.dense(tf.layers.dense(x, 16, tf.nn.relu), 3)
            loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
        return loss, tf.train.AdagradOptimizer(0.1).minimize(loss, global_step=step)
    return build


_LABELS = _RNG.randint(0, 3, (32, 1)).astype(np.int64)


def _checked_feeds(i):
    return {"x:0": _X[i % 2 * 16:][:16], "labels:0": _LABELS[i % 2 * 16:][:16]}


def test_a_step_with_checks_compiles_and_runs_them_before_its_updates(compile_env):
    """Asserts (and tf.Assert's AssertGuard conds) run after the compiled graph, before
    the updates are stored; the initialized-value read runs first: the step compiles,
    trains to the op-by-op variables, and its pieces say so. The read gives the global
    step's stored tensor, which the compiled graph also takes as the variable it
    increments: passed as one object twice, Dynamo's guard on duplicate inputs failed at
    the first compiled run and the step went back to op by op for good (the canned
    Estimator's step did), unless the read's value is passed as its own tensor."""
    from tf1compat.runtime import compiled_steps
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))
    record = _same_training(compile_env, _checked_mlp(), _checked_feeds)
    assert record.status == COMPILED and record.reason == "", record
    with tf.Graph().as_default():
        loss, train = _checked_mlp()()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run([loss, train], _checked_feeds(0))
            pieces = compiled_steps.split(_step_hot_plan(sess))
    assert pieces.merged and pieces.writes
    assert {s.op.type for s in pieces.head_plan.steps} == {"IsVariableInitialized",
                                                          "_VariableInitializedValue"}
    assert pieces.head_reads and "global_step" in pieces.writes
    assert sorted(s.op.type for s in pieces.check_plan.steps
                  if s.op.type in ("Assert", "If")) == ["Assert", "If", "If"]


def test_a_failing_check_in_a_compiled_step_raises_tfs_error_and_changes_nothing(
        compile_env):
    """A label out of range after the step compiled: TF's InvalidArgumentError from the
    Assert (its message and data), and no variable and no global step moved."""
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        loss, train = _checked_mlp()()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for i in range(STEPS):
                sess.run([loss, train], _checked_feeds(i))
            assert _step_hot_plan(sess).hot.status == COMPILED
            before = sess.run(tf.global_variables())
            bad = dict(_checked_feeds(0))
            bad["labels:0"] = np.full((16, 1), 7, np.int64)
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"assert_less_equal/Assert/AssertGuard/Assert"):
                sess.run([loss, train], bad)
            after = sess.run(tf.global_variables())
            assert _step_hot_plan(sess).hot.status == COMPILED
            losses = [sess.run([loss, train], _checked_feeds(i))[0] for i in range(2)]
    for a, b in zip(before, after):
        np.testing.assert_array_equal(a, b)
    assert np.all(np.isfinite(losses))


def test_a_queue_fed_step_compiles_with_its_dequeue_run_first(compile_env):
    """A step that dequeues its batch from a queue (numpy_input_fn's, shuffle_batch's)
    dequeues first, once, and trains to the op-by-op variables from the same batches."""
    from tf1compat.runtime import compiled_steps
    compile_env.setattr(hot_plans, "_MARGIN", float("inf"))

    def build():
        queue = tf.FIFOQueue(16 * STEPS + 32, [tf.float32, tf.float32], shapes=[[12], [3]])
        build.enqueue = queue.enqueue_many([_X, _Y])
        x, y = queue.dequeue_many(16)
        h = tf.layers.dense(x, 16, tf.nn.relu)
        loss = tf.losses.softmax_cross_entropy(y, tf.layers.dense(h, 3))
        return loss, tf.train.AdamOptimizer(0.01).minimize(loss)

    def train(steps):
        with tf.Graph().as_default():
            tf.set_random_seed(3)
            loss, train_op = build()
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for _ in range(steps // 2 + 1):
                    sess.run(build.enqueue)
                losses = [sess.run([loss, train_op])[0] for _ in range(steps)]
                pieces = compiled_steps.split(_step_hot_plan(sess))
                return losses, sess.run(tf.global_variables()), _step_hot_plan(sess).hot, \
                    pieces
    got_losses, got_vars, record, pieces = train(STEPS)
    compile_env.setenv("TF1COMPAT_COMPILE", "off")
    want_losses, want_vars, _, _ = train(STEPS)
    assert record.status == COMPILED, record
    assert [s.op.type for s in pieces.head_plan.steps] == ["QueueDequeueManyV2"]
    np.testing.assert_allclose(got_losses, want_losses, rtol=1e-5, atol=1e-6)
    for a, b in zip(got_vars, want_vars):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
