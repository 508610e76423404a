"""Gradients through tf.while_loop written as backward loops TF runs
(graphdef/loop_gradient_export.py): plain loops with captured weights, dynamic_rnn
(BasicLSTMCell, GRUCell, LSTMCell with projection, sequence_length, bidirectional,
stacked), tf.scan / tf.map_fn.

What real TF 2.21 computes from the files tf1compat writes (importing the .meta,
restoring the checkpoint and running the train op from the file) is recorded by
scripts/check_tf_reads_graphs.py (tests/graph_loop_training_cases.py); the tests replay
it: tf1compat's own training steps, and tf1compat's steps from the same file imported,
give TF's weights.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.graphdef import graph_export
from tests import (graph_loop_array_cases, graph_loop_more_cases, graph_loop_nested_cases,
                   graph_loop_run_time_cases, graph_loop_training_cases)
from tests.gradient_export_util import (FIXTURES, export_with_warnings,  # noqa: F401
                                         fresh_graph, imported_gradient_matches, recorded_case,
                                         replay_the_written_train_op, replay_tf_runs)

CASES = graph_loop_training_cases.LOOP_TRAINING_CASES + graph_loop_more_cases.LOOP_MORE_CASES + \
    graph_loop_nested_cases.LOOP_NESTED_CASES + graph_loop_array_cases.LOOP_ARRAY_CASES


@pytest.mark.parametrize("case", CASES, ids=lambda fn: fn.__name__[len("case_"):])
def test_own_training_steps_give_the_weights_tf_computed_from_the_file(case, caplog):
    d, recorded, arrays = recorded_case(case)
    assert recorded["tf"]["status"] == "ok"
    with tf.Graph().as_default():
        spec = case(tf)
        gd, warned = export_with_warnings(caplog)
        # Written in TF's form: no tf1compat-only SymbolicGradient, no warning; the
        # forward loops push, the backward loops pop and differentiate the body.
        assert not warned, warned
        gradients = [n for n in gd.node if n.op == "SymbolicGradient"]
        assert gradients and all("f" in n.attr and "Ty" not in n.attr for n in gradients)
        types = {n.op for n in gd.node}
        assert {"StackV2", "StackPushV2", "StackPopV2", "IdentityN"} <= types
        with tf.Session() as sess:
            spec["saver"].restore(sess, os.path.join(d, recorded["checkpoint"]))
            replay_tf_runs(sess, recorded, arrays)


@pytest.mark.parametrize("case", CASES, ids=lambda fn: fn.__name__[len("case_"):])
def test_tf_from_the_file_computes_what_tf_computes_from_its_own_graph(case):
    """Recorded with the fixtures: the same case built by real TF (its own while-loop
    gradients), restored and run as the file was, against TF's values from the file
    (cases TF 2.21 cannot build itself, with tf.contrib, say so)."""
    _, recorded, _ = recorded_case(case)
    native = recorded["tf"]["native"]
    if isinstance(native, str):
        assert native.startswith("unavailable") and "contrib" in native
    else:
        assert native < 1e-5
    if case in graph_loop_more_cases.LOOP_MORE_CASES:
        assert not isinstance(native, str)


ROUND_TRIP = [graph_loop_training_cases.case_train_while_loop_captured_weights,
              graph_loop_training_cases.case_train_scan_and_map_fn,
              graph_loop_training_cases.case_train_keras_lstm_gru_resource,
              graph_loop_training_cases.case_train_seq2seq_attention,
              graph_loop_training_cases.case_train_while_loop_cond_in_body,
              graph_loop_more_cases.case_train_foldl_foldr,
              graph_loop_more_cases.case_train_while_loop_cumsum_cumprod,
              graph_loop_more_cases.case_train_while_loop_cond_branch_cuts,
              graph_loop_more_cases.case_train_while_loop_dropout_flag,
              graph_loop_more_cases.case_train_tensor_arrays_split_read_concat,
              graph_loop_more_cases.case_train_loop_in_cond,
              graph_loop_more_cases.case_train_rnn_and_resource_loop_in_cond,
              graph_loop_more_cases.case_train_train_infer_cond,
              graph_loop_more_cases.case_train_tensor_array_written_twice,
              graph_loop_more_cases.case_train_loop_in_cond_in_cond,
              graph_loop_more_cases.case_train_while_loop_cond_run_time_shapes,
              graph_loop_more_cases.case_train_tensor_array_read_in_body,
              graph_loop_more_cases.case_train_nested_while_loops,
              graph_loop_more_cases.case_train_map_fn_of_scan,
              graph_loop_more_cases.case_train_tensor_array_read_earlier_after_write,
              graph_loop_array_cases.case_train_tensor_array_written_in_cond,
              graph_loop_array_cases.case_train_tensor_array_written_until_finished,
              graph_loop_array_cases.case_train_tensor_array_of_float64_written_in_cond,
              graph_loop_array_cases.case_train_tensor_array_of_float16_written_in_cond,
              graph_loop_array_cases.case_train_tensor_array_read_after_its_write_in_cond,
              graph_loop_array_cases.case_train_tensor_arrays_written_at_branch_indices,
              graph_loop_array_cases.case_train_tensor_arrays_written_in_cond_in_nested_loop,
              graph_loop_array_cases.case_train_tensor_array_of_bfloat16_written_in_cond,
              ] + [getattr(graph_loop_array_cases, "case_train_" + name) for name in (
                  "tensor_arrays_read_after_conds_writing_in_one_branch",
                  "tensor_arrays_written_at_indices_computed_in_branches",
                  "tensor_array_read_after_its_write_in_nested_loop",
                  "tensor_array_read_after_its_write_in_nested_loop_not_stacked",
                  "tensor_array_of_run_time_shape_read_in_loop_not_stacked",
                  "tensor_array_of_run_time_shape_written_in_cond_read_in_loop",
                  "tensor_arrays_written_at_branch_indices_in_nested_loop",
                  "tensor_array_loops_in_cond_in_loop",
                  "run_time_length_loops_in_cond_in_loop",
                  "run_time_length_rnn_outputs_reshaped_in_cond_in_loop",
                  "tensor_array_entering_loop_through_cond",
                  "tensor_arrays_entering_loop_through_conds_writing_apart",
                  "tensor_arrays_entering_loop_through_cond_in_cond",
                  "tensor_arrays_entering_loop_through_cond_in_cond_apart",
                  "tensor_arrays_entering_loop_through_cond_in_cond_apart_inside",
                  "tensor_arrays_entering_loop_through_conds_read_in_body",
                  "dynamic_size_tensor_array_read_after_its_write_in_nested_loop",
                  "dynamic_size_tensor_array_size_after_nested_loop")] + \
    graph_loop_nested_cases.LOOP_NESTED_CASES + graph_loop_run_time_cases.LOOP_RUN_TIME_CASES


@pytest.mark.parametrize("case", ROUND_TRIP, ids=lambda fn: fn.__name__[len("case_"):])
def test_the_written_train_op_runs_in_tf1compat_too(case):
    """The file TF ran, imported into tf1compat: stacks, backward loops and the body
    gradients run on tf1compat's dataflow executor to TF's weights."""
    replay_the_written_train_op(case)


def test_backward_loop_structure():
    """One counter and one stack per value the body gradient reads, pushed in the
    forward loop's frame; a backward loop in its own frame with its WhileContextDef."""
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    w = tf.get_variable("w", [3, 3])
    _, h = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.tanh(tf.matmul(h, w))),
                         [tf.constant(0), x])
    tf.gradients(tf.reduce_sum(h), [w])
    export = graph_export.GraphExport()
    nodes = {n.name: n for n in export.graph_def.node}
    push = nodes["gradients/SymbolicGradient/while/stack/push"]
    assert push.op == "StackPushV2" and push.input[1] == "while/Identity_1"
    enter = nodes[push.input[0]]
    assert enter.attr["frame_name"].s == b"while/while_context"
    assert nodes["gradients/SymbolicGradient"].op == "IdentityN"
    frames = [p.context_name for p in export.while_contexts]
    assert frames == ["while/while_context",
                      "gradients/SymbolicGradient/while_grad/while_context"]
    forward = export.while_contexts[0]
    assert "gradients/SymbolicGradient/while/stack/push:0" in forward.values_def.values
    body = [f for f in export.graph_def.library.function if "while_body" in f.signature.name]
    assert [a.name for a in body[0].signature.input_arg] == ["while_identity_1", "w_read"]


def _warned_reason(build, caplog):
    build()
    gd, warned = export_with_warnings(caplog)
    assert len(warned) == 1
    assert not any(n.op == "StackPushV2" for n in gd.node)
    return warned[0]


def _nested_loops(inner):
    x = tf.placeholder(tf.float32, [2], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w = tf.get_variable("w", [2])

    def outer(i, h):
        if inner == "array_through_cond":
            ta = tf.TensorArray(tf.float32, i + 2).write(0, h)
            ta = tf.cond(i > 0, lambda: ta.write(1, h * 2.0), lambda: ta.write(1, h))
            _, ta = tf.while_loop(lambda j, ta: j < i, lambda j, ta: (
                j + 1, ta.write(j + 2, h * w)), [tf.constant(0), ta])
            return i + 1, tf.reduce_sum(ta.stack(), 0)
        if inner == "gather":       # a run-time trip count (fixed: unrolled, TF's form)
            ta = tf.TensorArray(tf.float32, n)
            _, ta = tf.while_loop(lambda j, ta: j < n, lambda j, ta: (
                j + 1, ta.write(j, h * w)), [tf.constant(0), ta])
            return i + 1, ta.gather([1, 0])[0]
        limit = i if inner == "counter" else n
        return i + 1, tf.while_loop(lambda j, g: j < limit, lambda j, g: (
            j + 1, g * w), [tf.constant(0), h])[1]
    _, h = tf.while_loop(lambda i, h: i < 2, outer, [tf.constant(0), x])
    tf.gradients(tf.reduce_sum(h), [w])


@pytest.mark.parametrize("inner,reason", [
    ("array_through_cond", "not fixed"),
    ("array_through_cond", "enters it with elements other than written in its enclosing "
                           "body and stacked after it")])
def test_nested_loops_neither_unrolled_nor_plain_keep_tf1compat_form(inner, reason, caplog):
    """An inner loop of a run-time trip count whose array enters it with elements passed
    through a tf.cond (real TF ran such a file to other values before: their gradients
    were dropped) has no TF form: warned, naming why."""
    assert reason in _warned_reason(lambda: _nested_loops(inner), caplog)


@pytest.mark.parametrize("inner", ["counter", "fed", "gather"])
def test_a_nested_loop_of_a_run_time_trip_count_gets_a_nested_backward_loop(inner, caplog):
    """An inner loop whose trip count is known only at run time (the outer counter, a
    fed limit; one writing an array gathered after it, whose gather indices the outer
    loop pushes for the inner backward loop): its forward loop pushes on stacks made
    once outside both loops (entered into the outer frame, then its own), its count
    starts from 0 each outer iteration after the outer iteration's count, the outer loop
    pushes the inner trip count, and its backward loop runs inside the outer backward
    loop's frame from that count."""
    _nested_loops(inner)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    nodes = {n.name: n for n in gd.node}
    frame = {name: n.attr["frame_name"].s.decode() for name, n in nodes.items()
             if n.op == "Enter"}
    inner_grad = "gradients/SymbolicGradient/while/while_grad/while_context"
    outer_grad = "gradients/SymbolicGradient/while_grad/while_context"
    assert set(frame.values()) == {"while/while_context", "while/while/while_context",
                                   inner_grad, outer_grad}
    # the inner backward count starts from the trip count the outer backward loop pops
    count_enter, = [n for n in gd.node if n.op == "Enter" and frame[n.name] == inner_grad
                    and n.attr["T"].type == tf.int32.as_datatype_enum and
                    not n.attr["is_constant"].b]
    pop = nodes[count_enter.input[0]]
    assert pop.op == "StackPopV2" and frame[nodes[pop.input[0]].name] == outer_grad
    # the inner forward count waits for the outer count of the iteration
    zero = nodes["gradients/SymbolicGradient/while/while/f_count"]
    assert zero.input == ["^gradients/SymbolicGradient/while/f_count/Identity"]
    # stacks of the inner loop: entered into the outer frame, then the inner one
    pushes = [n for n in gd.node if n.op == "StackPushV2" and frame.get(n.input[0]) ==
              "while/while/while_context"]
    assert pushes and all(frame[nodes[nodes[p.input[0]].input[0]].name] ==
                          "while/while_context" for p in pushes)
    # the outer backward loop's next count waits for the inner backward loop's Exits
    sub = nodes["gradients/SymbolicGradient/while_grad/sub"]
    assert any(nodes[c[1:]].op == "Exit" and c[1:].startswith(inner_grad.rsplit("/", 1)[0])
               for c in sub.input if c.startswith("^"))
    # TF nests the inner backward loop's context in the outer one's
    meta = tf.train.export_meta_graph()
    contexts = [ctx for ctx in meta.collection_def["while_context"].bytes_list.value]
    assert len(contexts) == 2
    from tf1compat.serialization.messages import WhileContextDef
    outer = [WhileContextDef.FromString(c) for c in contexts]
    grad_ctx, = [c for c in outer if c.context_name == outer_grad]
    assert [c.while_ctxt.context_name for c in grad_ctx.nested_contexts] == [inner_grad]


def _loop_in_cond_in_loop(inner_reads_branch_value=""):
    x = tf.placeholder(tf.float32, [3], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    w = tf.get_variable("w", [3])

    def body(i, h):
        def looped():
            start = {"": h, "mul": h * 2.0, "bessel": tf.math.bessel_i0e(h)}[
                inner_reads_branch_value]
            return tf.while_loop(lambda j, g: j < 2, lambda j, g: (j + 1, g * w),
                                 [tf.constant(0), start])[1]
        return i + 1, tf.cond(flag, looped, lambda: h + w)
    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), x])
    tf.gradients(tf.reduce_sum(h), [w])


def test_a_loop_in_a_cond_in_a_loop_gets_a_nested_backward_loop(caplog):
    """Its count starts where its branch runs (after the outer count), its stacks pass
    the cond's Switch, and the outer loop pushes its trip count through a Merge with 0
    from the other branch (its backward loop then runs no iteration)."""
    _loop_in_cond_in_loop()
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    nodes = {n.name: n for n in gd.node}
    zero = nodes["gradients/SymbolicGradient/while/cond/while/f_count"]
    assert zero.input[0] == "^gradients/SymbolicGradient/while/f_count/Identity"
    assert nodes[zero.input[1][1:]].op == "Identity"        # the branch's pivot
    count = nodes["gradients/SymbolicGradient/while/cond/while/f_count/branch_count"]
    assert count.op == "Merge" and nodes[count.input[0]].op == "Exit"
    assert nodes[count.input[1].split(":")[0]].op == "Switch"
    assert any(n.op == "StackPushV2" and n.input[1] == count.name for n in gd.node)


def test_a_loop_in_a_cond_in_a_loop_reading_a_branch_value_gets_a_branch_function(caplog):
    """The value the branch computes for the nested loop is pushed; the gradient of its
    backward loop's result passes a function of the branch's ops (TF's runs:
    case_train_loop_in_cond_reading_branch_values)."""
    _loop_in_cond_in_loop("mul")
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    grads = [n for n in gd.node if "branch_values_grad" in n.name]
    assert len(grads) == 1 and grads[0].op == "SymbolicGradient"
    branch, = [f for f in gd.library.function if f.signature.name.endswith("_branch")]
    assert [n.op for n in branch.node_def] == ["Const", "Mul"]


def test_branch_values_of_ops_without_a_gradient_are_inputs_of_the_branch_function(caplog):
    """Floor, ArgMax/OneHot and StopGradient in the branch: their values pushed, inputs
    of the branch's function (TF's runs:
    case_train_loop_in_cond_reading_branch_values_without_gradient)."""
    graph_loop_nested_cases.case_train_loop_in_cond_reading_branch_values_without_gradient(tf)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    branch, = [f for f in gd.library.function if f.signature.name.endswith("_branch")]
    ops = {n.op for n in branch.node_def}
    assert not ops & {"Floor", "ArgMax", "OneHot", "StopGradient"}, ops
    inputs = [a.name for a in branch.signature.input_arg]
    assert {"while_cond_floor", "while_cond_one_hot", "while_cond_stopgradient"} <= \
        set(inputs), inputs


def test_outer_branch_values_pass_one_function_of_both_branches(caplog):
    """A loop in a tf.cond in a tf.cond of the body starting from and capturing values
    the outer branch computes: the function of the branches' ops holds both branches'
    ops and takes the body's values (TF's runs:
    case_train_loop_in_cond_reading_outer_branch_values)."""
    graph_loop_nested_cases.case_train_loop_in_cond_reading_outer_branch_values(tf)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    branch, = [f for f in gd.library.function if f.signature.name.endswith("_branch")]
    scopes = {n.name.rsplit("/", 1)[0] for n in branch.node_def if n.op != "Const"}
    assert scopes == {"while/cond", "while/cond/cond"}, scopes
    assert "Tanh" in {n.op for n in branch.node_def}
    assert not any("cond" in a.name for a in branch.signature.input_arg)


def test_a_branch_value_tf_cannot_differentiate_in_a_function_keeps_tf1compat_form(caplog):
    reason = _warned_reason(lambda: _loop_in_cond_in_loop("bessel"), caplog)
    assert "reads a value its tf.cond branch computes other than by ops TF" in reason


def test_a_nested_loop_of_a_fixed_trip_count_is_unrolled_in_the_body_function():
    x = tf.placeholder(tf.float32, [2], name="x")
    w = tf.get_variable("w", [2])

    def outer(i, h):
        _, inner = tf.while_loop(lambda j, g: j < 3, lambda j, g: (j + 1, g * w),
                                 [tf.constant(0), h])
        return i + 1, inner
    _, h = tf.while_loop(lambda i, h: i < 2, outer, [tf.constant(0), x])
    tf.gradients(tf.reduce_sum(h), [w])
    gd = graph_export.GraphExport().graph_def
    body, = [f for f in gd.library.function if "while_body" in f.signature.name]
    copies = {n.name.split("/unrolled_")[1].split("/")[0] for n in body.node_def
              if "/unrolled_" in n.name}
    assert copies == {"0", "1", "2"}     # the inner body once per iteration
    # the forward graph keeps the real nested loop
    assert sum(n.op == "LoopCond" for n in gd.node) >= 3


def test_dropout_masks_in_the_body_are_pushed_not_redrawn(caplog, tmp_path):
    """DropoutWrapper in dynamic_rnn: the masks (not computed from what is
    differentiated) are pushed each iteration and enter the body function as inputs;
    the gradient from the saved .meta, imported, is the in-process one. (Real TF runs
    such a file to its own while-loop gradients of the same run: checked by hand; its
    random numbers inside loops differ from tf1compat's, so no recorded case.)"""
    tf.set_random_seed(25)
    ids = tf.placeholder(tf.int32, [4, 5], name="ids")
    embeddings = tf.get_variable("embeddings", [9, 4])
    cell = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.LSTMCell(5), input_keep_prob=0.8,
                                         output_keep_prob=0.7, seed=3)
    outputs, _ = tf.nn.dynamic_rnn(cell, tf.nn.embedding_lookup(embeddings, ids),
                                   dtype=tf.float32)
    loss = tf.reduce_mean(tf.square(outputs))
    grads = tf.gradients(loss, tf.trainable_variables())
    init = tf.global_variables_initializer()
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    body = [f for f in gd.library.function if f.signature.name.endswith("while_body")]
    assert len(body) == 1
    assert not {n.op for n in body[0].node_def} & {"RandomUniform", "Floor"}
    feeds = {"ids:0": graph_loop_training_cases.IDS5}
    names = [g.name for g in grads]
    prefix = str(tmp_path / "model")
    with tf.Session() as sess:
        sess.run(init)
        tf.train.Saver().save(sess, prefix)
        here = sess.run(grads, feeds)
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(prefix + ".meta")
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            back = sess.run(names, feeds)
    for a, b in zip(here, back):
        np.testing.assert_allclose(getattr(a, "values", a), getattr(b, "values", b),
                                   rtol=1e-5, atol=1e-7)


def test_random_masks_of_a_body_cond_are_pushed_not_redrawn(caplog, tmp_path):
    """tf.layers.dropout with a tensor flag in a loop body: the mask drawn in the cond's
    training branch reaches the stack through a Merge in the loop's frame; with the
    flag on, the gradient from the saved .meta, imported, is the in-process one."""
    tf.set_random_seed(34)
    x = tf.placeholder(tf.float32, [3, 4], name="x")
    training = tf.placeholder(tf.bool, [], name="training")
    w = tf.get_variable("w", [4, 4])
    _, h = tf.while_loop(lambda i, h: i < 3, lambda i, h: (
        i + 1, tf.layers.dropout(tf.tanh(tf.matmul(h, w)), 0.4, training=training)),
        [tf.constant(0), x])
    grad, = tf.gradients(tf.reduce_sum(tf.square(h)), [w])
    init = tf.global_variables_initializer()
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    merges = [n for n in gd.node if n.name.endswith("branch_value")]
    assert merges and all(n.op == "Merge" for n in merges)
    feeds = {"x:0": graph_loop_training_cases.X8[:3], "training:0": True}
    prefix = str(tmp_path / "model")
    with tf.Session() as sess:
        sess.run(init)
        tf.train.Saver().save(sess, prefix)
        here = sess.run(grad, feeds)
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(prefix + ".meta")
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            back = sess.run(grad.name, feeds)
    assert np.abs(here).sum() > 0
    np.testing.assert_allclose(here, back, rtol=1e-5, atol=1e-7)


def test_an_op_tf_cannot_differentiate_on_the_body_path_keeps_tf1compat_form(caplog):
    def build():
        x = tf.placeholder(tf.float32, [3, 2], name="x")
        w = tf.get_variable("w", [2], use_resource=True)
        _, h = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.math.bessel_i0e(h * w)),
                             [tf.constant(0), x])
        tf.gradients(tf.reduce_sum(h), [w])
    assert "op type BesselI0e" in _warned_reason(build, caplog)


def _array_entering_through_cond(writes):
    """A top-level loop writing rows 2, 3 of an array of 5 that enters it through a
    tf.cond on a fed flag, `writes(ta, x, w)` its branches; stack() after the loop."""
    x = tf.placeholder(tf.float32, [2], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    w = tf.get_variable("w", [2], initializer=tf.constant_initializer([0.5, -0.3]))
    ta = tf.TensorArray(tf.float32, 5, element_shape=[2]).write(0, x * w)
    ta = tf.cond(flag, *writes(ta, x, w))
    _, ta = tf.while_loop(lambda j, ta: j < 2, lambda j, ta: (
        j + 1, ta.write(j + 2, tf.tanh(x * w))), [tf.constant(0), ta])
    grad, = tf.gradients(tf.reduce_sum(tf.square(tf.reduce_sum(ta.stack(), 0))), [w])
    return grad


def _apart_in_cond(ta, x, w, positive):
    """Branches for `_array_entering_through_cond`: a tf.cond on `positive` (computed
    before the conds) writing row 1 or row 4, beside a branch writing row 4."""
    return (lambda: tf.cond(positive, lambda: ta.write(1, x * w),
                            lambda: ta.write(4, tf.sin(x * w))),
            lambda: ta.write(4, x * w * w))


@pytest.mark.parametrize("writes,both", [
    (lambda ta, x, w: (lambda: ta.write(1, x * w), lambda: ta.write(4, tf.sin(x * w))), True),
    (lambda ta, x, w: (lambda: ta.write(4, x * w * w), lambda: ta), False),
    (lambda ta, x, w: (lambda: ta, lambda: ta.write(1, tf.sin(x * w))), False),
    (lambda ta, x, w: (lambda: tf.cond(tf.reduce_sum(x * w) > 0, lambda: ta.write(
        1, x * w), lambda: ta), lambda: ta.write(1, tf.sin(x * w))), False),
    (lambda ta, x, w: _apart_in_cond(ta, x, w, tf.reduce_sum(x * w) > 0), True),
    (lambda ta, x, w: (lambda: tf.cond(tf.reduce_sum(x) > 0, lambda: ta.write(1, x * w),
                                       lambda: ta.write(4, x)),
                       lambda: ta.write(1, x * w * 2.0)), True)],
    ids=["branch_indices", "then_only", "else_only", "cond_in_cond", "cond_in_cond_apart",
         "cond_in_cond_apart_inside"])
def test_a_tensor_array_entering_a_loop_through_a_cond_writing_apart(writes, both, caplog):
    """An array written in a tf.cond before a top-level loop that writes it and stack()
    reads after it, its branches writing at different indices or one alone writing, or
    a tf.cond in a branch writing (at one index, its predicate computed in the branch;
    at two, computed outside the conds or in the branch: the rows' Select reads it
    through a Merge with a stand-in from the other branch): TF's form, each branch's
    element getting its row of the gradient where its branch ran (real TF once ran
    tf1compat's file of this to half the gradient; recorded:
    `case_train_tensor_arrays_entering_loop_through_conds_writing_apart`,
    `..._through_cond_in_cond`, `..._through_cond_in_cond_apart`, `..._apart_inside`).
    The predicate fed both ways, x of both signs."""
    grad = _array_entering_through_cond(writes)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    # (the rows' Select where both branches write)
    assert any(n.op == "Select" and "entering_grad" in n.name for n in gd.node) == both
    for on in (True, False):
        for sign in (1, -1):
            imported_gradient_matches(gd, grad, {"x:0": np.float32([0.3, -0.7]) * sign,
                                                 "flag:0": on}, "w/Assign")


def test_an_array_entering_through_three_conds_at_two_indices_keeps_tf1compat_form(caplog):
    """The array's elements written at different indices by a tf.cond whose predicate
    is computed in a branch of a tf.cond inside the tf.cond before the loop (the
    gradient's Select would need it outside, where only a top-level cond's branch
    values pass a Merge): warned, never a silently missing gradient."""
    def build():
        _array_entering_through_cond(lambda ta, x, w: (
            lambda: tf.cond(tf.reduce_sum(x) > -5.0, lambda: tf.cond(
                tf.reduce_sum(x * w) > 0, lambda: ta.write(1, x * w),
                lambda: ta.write(4, x)), lambda: ta.write(2, x * 3.0)),
            lambda: ta.write(1, x * w * 2.0)))
    reason = _warned_reason(build, caplog)
    assert "enters it with elements passed through a tf.cond (written at different " \
        "indices by a tf.cond whose predicate is computed in a branch of a tf.cond " \
        "inside another's branch" in reason, reason


def _array_written_in_cond(read_after: bool, else_writes: bool = True):
    """A loop writing its array in a tf.cond of its body (each branch writes element i;
    not `else_writes`: the else branch returns the array unchanged), stack()ed after it;
    `read_after`: the body reads element i after the cond wrote it."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    w = tf.get_variable("w", [3])

    def body(i, ta):
        v = x[i] * w
        ta = tf.cond(i % 2 < 1, lambda: ta.write(i, tf.sin(v)),
                     lambda: ta.write(i, v * v) if else_writes else ta)
        if read_after:
            ta = ta.write(i + 4, ta.read(i) * 2.0)
        return i + 1, ta
    _, ta = tf.while_loop(lambda i, ta: i < 4, body, [
        tf.constant(0), tf.TensorArray(tf.float32, 8, clear_after_read=False,
                                       element_shape=[3])])
    return tf.gradients(tf.reduce_sum(ta.stack() * 2.0), [w])


def test_an_array_written_in_a_cond_of_the_body_gets_the_select_of_the_branches(caplog):
    """The body function computes the element written this iteration as the cond's
    Select of the two branches' elements; its gradient is the stack()'s row i
    (recorded: case_train_tensor_array_written_in_cond)."""
    _array_written_in_cond(False)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    body = next(f for f in gd.library.function if f.signature.name.endswith("while_body"))
    selects = [n for n in body.node_def if n.op == "Select"]
    assert [n.input[1:] for n in selects] == [["while/cond/Sin:y:0", "while/cond/mul:z:0"]]
    assert not any(n.op.startswith("TensorArray") for n in body.node_def)


def test_a_branch_that_writes_no_element_gives_zeros_to_the_select(caplog):
    """`tf.cond(p, lambda: ta.write(i, e), lambda: ta)`: the element's Select takes zeros
    like the written one for the branch that leaves the array as it is (recorded:
    case_train_tensor_array_written_until_finished)."""
    _array_written_in_cond(False, else_writes=False)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    body = next(f for f in gd.library.function if f.signature.name.endswith("while_body"))
    nodes = {n.name: n for n in body.node_def}
    select = next(n for n in body.node_def if n.op == "Select")
    zeros = nodes[select.input[2].split(":")[0]]
    assert zeros.op == "ZerosLike" and list(zeros.input) == [select.input[1]] == \
        ["while/cond/Sin:y:0"]


def test_an_element_read_back_after_its_write_in_a_cond_is_the_select(caplog):
    """`ta.read(i)` after the cond that wrote element i (both branches writing): the body
    function reads the cond's Select, and writes the element i + 4 computed from it
    (recorded: case_train_tensor_array_read_after_its_write_in_cond)."""
    _array_written_in_cond(True)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    body = next(f for f in gd.library.function if f.signature.name.endswith("while_body"))
    select = next(n for n in body.node_def if n.op == "Select")
    read_back = next(n for n in body.node_def if n.name == "while/mul_1")
    assert read_back.input[0] == f"{select.name}:output:0"
    assert not any(n.op.startswith("TensorArray") for n in body.node_def)
    assert [a.type for a in body.signature.output_arg] == [tf.float32.as_datatype_enum] * 2


def test_writes_at_branch_indices_or_twice_in_a_branch_get_selects_with_zeros(caplog):
    """Branches writing at different indices (computed outside them), one writing twice
    and the other none: each write's element is `Select(p, e, 0)` (then branch) or
    `Select(p, 0, e)` (else branch), a body function output of its own (recorded:
    case_train_tensor_arrays_written_at_branch_indices)."""
    x = tf.placeholder(tf.float64, [4, 3], name="x")
    w = tf.get_variable("w", [3], dtype=tf.float64)

    def body(i, ta, tb):
        v, j = x[i] * w, i + 4
        ta = tf.cond(i % 2 < 1, lambda: ta.write(i, tf.sin(v)), lambda: ta.write(j, v * v))
        tb = tf.cond(i < 2, lambda: tb.write(i, v).write(j, tf.cos(v)), lambda: tb)
        return i + 1, ta, tb
    _, ta, tb = tf.while_loop(lambda i, *_: i < 4, body, [tf.constant(0)] + [
        tf.TensorArray(tf.float64, 8, element_shape=[3]) for _ in range(2)])
    tf.gradients(tf.reduce_sum(ta.stack() * 2.0) + tf.reduce_sum(tb.stack()), [w])
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    body = next(f for f in gd.library.function if f.signature.name.endswith("while_body"))
    nodes = {n.name: n for n in body.node_def}
    sides = [[nodes[name.split(":")[0]].op for name in nodes[ret.split(":")[0]].input[1:]]
             for ret in (body.ret[a.name] for a in body.signature.output_arg)]
    assert sides == [["Sin", "ZerosLike"], ["ZerosLike", "Mul"], ["Mul", "ZerosLike"],
                     ["Cos", "ZerosLike"]]
    assert {a.type for a in body.signature.output_arg} == {tf.float64.as_datatype_enum}


def test_an_index_computed_in_a_branch_is_pushed_through_the_cond_merge(caplog):
    """The write's index computed inside its branch (dead where the branch did not run):
    the forward loop pushes it through `Merge(index, Switch(stand-in, pred))`, as TF 1.x
    pushes it inside the branch; the file's gradient is the in-process one (recorded:
    case_train_tensor_arrays_written_at_indices_computed_in_branches)."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    w = tf.get_variable("w", [3], initializer=tf.constant_initializer([0.5, -0.2, 0.3]))

    def body(i, ta):
        v = x[i] * w
        return i + 1, tf.cond(i < 2, lambda: ta.write(i, v), lambda: ta.write(i + 4, v * v))
    _, ta = tf.while_loop(lambda i, ta: i < 4, body, [
        tf.constant(0), tf.TensorArray(tf.float32, 8, element_shape=[3])])
    g, = tf.gradients(tf.reduce_sum(ta.stack() * tf.range(8.0)[:, None]), [w])
    feeds = {"x:0": np.arange(12, dtype=np.float32).reshape(4, 3) * 0.1}
    init = tf.global_variables_initializer()
    with tf.Session() as sess:
        sess.run(init)
        here = sess.run(g, feeds)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    nodes = {n.name: n for n in gd.node}
    pushed = [nodes[n.input[1].split(":")[0]] for n in gd.node if n.op == "StackPushV2"]
    assert any(m.op == "Merge" and any(t.split(":")[0].endswith("add") for t in m.input)
               for m in pushed), [m.name for m in pushed]
    with tf.Graph().as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as sess:
            sess.run(init.name)
            back = sess.run(g.name, feeds)
    np.testing.assert_allclose(back, here, rtol=1e-6)


def test_an_element_read_after_a_cond_writing_in_one_branch_needs_the_branch(caplog):
    """Where one branch leaves the array as it is, the element read back after the cond
    is the written one only where the indices are equal and the writing branch ran:
    the read is `Select(LogicalAnd(Equal, pred), Select of the cond, pushed read)`
    (recorded: case_train_tensor_arrays_read_after_conds_writing_in_one_branch)."""
    _array_written_in_cond(True, else_writes=False)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    body = next(f for f in gd.library.function if f.signature.name.endswith("while_body"))
    nodes = {n.name: n for n in body.node_def}
    read = next(n for n in body.node_def if n.op == "Select" and
                nodes[n.input[0].split(":")[0]].op == "LogicalAnd")
    both = nodes[read.input[0].split(":")[0]]
    assert [nodes[t.split(":")[0]].op for t in both.input] == ["Equal", "Less"]
    assert nodes[read.input[1].split(":")[0]].name == "while/cond/If/Select_0"
    assert read.input[2] in [a.name for a in body.signature.input_arg]


def test_elements_written_before_a_loop_get_their_rows_of_the_gradients(caplog):
    """An array entering a top-level loop with elements (written before it, one read
    back in the body): each element's gradient is its row of the stack()'s gradient plus
    its row of what the backward loop summed for the body's reads; the gradient from the
    saved .meta, imported, is the in-process one. (TF's runs:
    case_train_tensor_array_entering_with_elements.)"""
    x = tf.placeholder(tf.float32, [4, 2], name="x")
    w = tf.get_variable("w", [2], initializer=tf.constant_initializer([0.6, -0.3]))
    ta = tf.TensorArray(tf.float32, 4, clear_after_read=False,
                        element_shape=[2]).write(0, x[0] * w)

    def body(i, ta):
        return i + 1, ta.write(i, ta.read(i - 1) * w + x[i])
    _, ta = tf.while_loop(lambda i, ta: i < 4, body, [tf.constant(1), ta])
    grad, = tf.gradients(tf.reduce_sum(tf.square(ta.stack())), [w])
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    nodes = {n.name: n for n in gd.node}
    rows = [n for name, n in nodes.items() if "/entering_grad/" in name and n.op == "GatherV2"]
    assert len(rows) == 2 and {nodes[r.input[0].split(":")[0]].op for r in rows} == {
        "Exit", "SymbolicGradient"}     # the backward loop's sums; the head's stack() grad
    imported_gradient_matches(gd, grad, {"x:0": graph_loop_training_cases.X8[:4, :2]},
                              "init" if "init" in nodes else "w/Assign")


def test_an_element_read_from_an_array_filled_otherwise_keeps_tf1compat_form(caplog):
    """An element written before a loop that was read from an array not unstacked before
    it (one a first loop filled): a stateful read its gradient cannot pass: warned."""
    def build():
        x = tf.placeholder(tf.float32, [2], name="x")
        w = tf.get_variable("w", [2])
        first = tf.TensorArray(tf.float32, 2, clear_after_read=False)
        _, first = tf.while_loop(lambda j, ta: j < 2, lambda j, ta: (
            j + 1, ta.write(j, x * w)), [tf.constant(0), first])
        ta = tf.TensorArray(tf.float32, 4).write(0, first.read(1))
        _, ta = tf.while_loop(lambda j, ta: j < 3, lambda j, ta: (
            j + 1, ta.write(j + 1, x * w)), [tf.constant(0), ta])
        tf.gradients(tf.reduce_sum(ta.stack()), [w])
    assert "element read before it from an array not unstacked there" in \
        _warned_reason(build, caplog)


@pytest.mark.parametrize("dynamic", [True, False], ids=["dynamic_size", "run_time_shape"])
def test_an_array_read_after_its_write_not_stacked_after_keeps_tf1compat_form(dynamic,
                                                                                 caplog):
    """A nested loop's backward loop's zeros for the gradients of all elements of an
    array read in its body after a write come from its stack()'s gradient where the
    array has a dynamic size written other than at a counter from 0 (here from 1) or
    elements of a shape known only at run time: read otherwise after it (read(1)),
    warned, naming why. (A nested loop's array of a fixed size and static elements:
    zeros of its size, `case_train_tensor_array_read_after_its_write_in_nested_loop_not_
    stacked`; of a dynamic size written at the counter from 0: of the larger of its size
    input and the trip count, `case_train_dynamic_size_tensor_array_read_after_its_write_
    in_nested_loop`; a top-level loop's of a run-time shape: zeros of its elements
    gathered after it, `..._of_run_time_shape_read_in_loop_not_stacked`.)"""
    def build():
        x = tf.placeholder(tf.float32, [2, 3] if dynamic else [None, 3], name="x")
        n = tf.placeholder(tf.int32, [], name="n")
        w = tf.get_variable("w", [3])

        def loop(start):
            ta = tf.TensorArray(tf.float32, 0 if dynamic else 4, dynamic_size=dynamic,
                                clear_after_read=False)

            def body(j, g, ta):
                ta = ta.write(j, g * w)
                return j + 1, g + ta.read(tf.maximum(j - 1, 0)), ta
            _, g, ta = tf.while_loop(lambda j, *_: j < n, body,
                                     [tf.constant(1 if dynamic else 0), start, ta])
            return g + ta.read(1)
        h = tf.while_loop(lambda i, h: i < 2, lambda i, h: (i + 1, loop(h)),
                          [tf.constant(0), x])[1]
        tf.gradients(tf.reduce_sum(h), [w])
    reason = _warned_reason(build, caplog)
    assert "not stacked after it, of a dynamic size or elements of a shape unknown" in \
        reason, reason


def _loop_hessians():
    # (of more than 256 elements: no Jacobian written row by row, loop_gradient_export.py)
    x = tf.placeholder(tf.float32, [257], name="x")
    w = tf.get_variable("w", [257])
    _, h = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, h * w), [tf.constant(0), x])
    tf.hessians(tf.reduce_sum(h), [w])


def _loop_gradient_of_gradient():
    # (an Erf in the body: no tangent written, loop_second_order.py)
    x = tf.placeholder(tf.float32, [2], name="x")
    w = tf.get_variable("w", [2])
    _, h = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.math.erf(h) * w),
                         [tf.constant(0), x])
    g, = tf.gradients(tf.reduce_sum(h), [w])
    tf.gradients(tf.reduce_sum(g * g), [w])


@pytest.mark.parametrize("build,reason", [
    (_loop_hessians, "tf.hessians' Jacobian form"),
    (_loop_gradient_of_gradient, "op type Erf")],
    ids=["hessians", "gradient_of_gradient"])
def test_loop_gradients_without_a_tf_form_name_the_case(build, reason, caplog):
    """Not written in TF's form (real TF refuses such a file at import: the
    SymbolicGradient lacks `f`): a warning names the case; tf1compat reads it back."""
    build()
    gd, warned = export_with_warnings(caplog)
    assert any(reason in w for w in warned), warned
    assert any(n.op == "SymbolicGradient" and "Ty" in n.attr for n in gd.node)
