"""Loops in a tf.cond of a loop body whose outputs have a shape known only at run time
(a dynamic_rnn over a run-time length, a stack() of a run-time size): the untaken
branch's stand-ins for them (cond_stand_ins.ones_shape, `ones_dims`), what keeps
tf1compat's form, and the gradient of values computed from them and random draws.
The recorded TF round trip: `case_train_run_time_length_loops_in_cond_in_loop`
(tests/test_loop_gradient_export.py replays it)."""

from __future__ import annotations

import pytest

import tf1compat as tf
from tests import graph_loop_run_time_cases, graph_loop_training_cases
from tests.gradient_export_util import (export_with_warnings, fresh_graph,  # noqa: F401
                                         imported_gradient_matches)
from tests.test_loop_gradient_export import _warned_reason


def _run_time_length_rnn_in_cond_in_loop(after):
    """A dynamic_rnn over a run-time length in a tf.cond of a loop body, its outputs
    (a stack() of a run-time size, through the rnn's Transpose) and final state given to
    `after(out, state, h)` for the branch's value."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    cell = tf.nn.rnn_cell.BasicRNNCell(3, name="cell")
    cell(tf.zeros([1, 3]), tf.zeros([1, 3]))

    def body(i, h):
        def rnn():
            out, state = tf.nn.dynamic_rnn(cell, tf.expand_dims(x + h, 0), initial_state=h)
            return after(out, state, h)
        return i + 1, tf.cond(flag, rnn, lambda: h * 0.5)
    h = tf.while_loop(lambda i, h: i < 2, body, [tf.constant(0), tf.zeros([1, 3])])[1]
    return tf.gradients(tf.reduce_sum(h), tf.trainable_variables())


def test_a_run_time_length_loop_in_a_cond_in_a_loop_gets_stand_ins_of_ones(caplog):
    """The untaken branch's stand-in for a loop's output of a run-time shape is zeros of
    1 in each unknown dim (of the rank, so the rnn's Transpose and what follows compute;
    recorded: case_train_run_time_length_loops_in_cond_in_loop)."""
    _run_time_length_rnn_in_cond_in_loop(
        lambda out, state, h: state + tf.reduce_mean(out, 1) + out[:, -1] * 0.5)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    nodes = {n.name: n for n in gd.node}
    fills = [n for n in gd.node if n.op == "Fill" and "branch_full" in n.name and
             nodes[n.input[0].split(":")[0]].op == "Const"]
    shapes = [list(tf.make_ndarray(nodes[f.input[0]].attr["value"].tensor)) for f in fills]
    assert [1, 1, 3] in shapes, shapes      # the stack() of [None, 1, 3]


@pytest.mark.parametrize("after,reason", [
    (lambda out, state, h: state + tf.reduce_mean(tf.reshape(
        out, tf.stack([1, tf.shape(h)[0] * 4, 3])), 1),
     "which needs its full shape"),                        # a shape computed at run time
    (lambda out, state, h: state + tf.reduce_mean(tf.reshape(
        tf.concat([out, out], 1), [1, -1, 6]), 1)[:, :3],
     "which needs its full shape"),                        # a Reshape of the concat's
    (lambda out, state, h: state + tf.reduce_mean(
        tf.concat([out, out], 1) + tf.concat([out, out, out], 1), 1),
     "which needs its full shape"),                        # two concats' sizes added
    (lambda out, state, h: state + tf.reduce_mean(tf.cast(tf.range(tf.shape(out)[1], 5),
                                                          tf.float32)),
     "which needs its full shape"),                        # a range from its length
    (lambda out, state, h: state + tf.reduce_mean(tf.reshape(tf.ones([12]), tf.shape(out)) *
                                                  out, 1),
     "which needs its full shape")],                       # another value to its shape
    ids=["reshape_unfilled", "reshape_concat", "two_concats", "range_from_length",
         "real_reshaped_to_its_shape"])
def test_run_time_shaped_loop_outputs_the_stand_in_cannot_take_keep_tf1compat_form(
        after, reason, caplog):
    """Where the stand-in might fail (a Reshape to a shape computed at run time other
    than from its own; the sizes a ConcatV2 along the dim from the 1s gives it reshaped
    or broadcast against another such; a Range starting at its length; a value not
    from it reshaped to its Shape): warned, naming why."""
    assert reason in _warned_reason(lambda: _run_time_length_rnn_in_cond_in_loop(after),
                                    caplog)


@pytest.mark.parametrize("after", [
    lambda out, state, h: state + tf.reduce_mean(tf.reshape(out, [-1, 3]), 0,
                                                 keepdims=True),
    lambda out, state, h: state + tf.reduce_mean(tf.reshape(out, [-1, 6]), 0,
                                                 keepdims=True)[:, 3:],
    lambda out, state, h: state + tf.reduce_mean(tf.reshape(out, [1, 4, 3]), 1),
    lambda out, state, h: state + tf.reduce_mean(tf.concat([out, out * 2.0], 2), 1)[:, 1:4],
    lambda out, state, h: state + out[:, 2] * 0.5,
    lambda out, state, h: state + tf.transpose(out, [1, 0, 2])[
        tf.cast(tf.reduce_sum(h) > 100.0, tf.int32) + 1] * 0.5,
    lambda out, state, h: state + tf.reduce_mean(tf.concat([out, out * 2.0], 1), 1) +
    tf.concat([out, tf.tanh(out)], 1)[:, -3] * tf.ones([1, 1, 1])[0],
    lambda out, state, h: state + tf.reduce_mean(tf.matmul(tf.nn.softmax(tf.matmul(
        out, _keys(h), transpose_b=True)), _keys(h)), 1),
    lambda out, state, h: state + tf.reduce_mean(tf.reshape(
        tf.concat([out, out], 1), [-1, 3]), 0, keepdims=True),
    lambda out, state, h: state + tf.reduce_mean(tf.tensordot(out, tf.tanh(
        tf.transpose(h) * h), [[2], [0]]), 1),
    lambda out, state, h: state + tf.reduce_sum(out * tf.expand_dims(tf.sequence_mask(
        [1], tf.shape(out)[1], dtype=tf.float32), 2), 1),
    lambda out, state, h: state + tf.reduce_mean(tf.nn.bias_add(out, h[0] * 0.1), 1)],
    ids=["flattened", "pairs", "fed_length", "concat_last_axis", "row_2", "row_computed",
         "concat_time", "attention", "concat_flattened", "tensordot", "sequence_mask",
         "bias_add"])
def test_reads_the_stand_in_takes_are_written_in_tf_form(after, caplog):
    """A Reshape to [-1, 3] (the stand-in's elements fill it, its -1 dim from the 1s),
    to [-1, 6] and to [1, 4, 3] (4 rows fed: the stand-in padded with zeros to 2 and 4
    steps where the branch is not taken), a ConcatV2 along the last axis, a row other
    than 0 or -1 (constant or computed: the untaken branch reads row 0 of the
    stand-in) and a ConcatV2 along the run-time
    dim (its size there other than 1: reduced, a row read, broadcast with a static 1),
    a BatchMatMulV2 against real keys (attention, the time dim kept), the concat
    along time flattened to [-1, 3] (the static dims fill it alone), shapes computed
    from `tf.shape(out)` (tensordot's Reshapes, a sequence mask of its length), a
    BiasAdd along the units:
    TF's form, the gradient read back (the cell's is 0 with the flag off; the recorded
    cases train both ways: `case_train_run_time_length_rnn_outputs_reshaped_in_cond_in_loop`,
    `case_train_run_time_length_rnn_outputs_read_at_rows_in_cond_in_loop`,
    `case_train_run_time_length_rnn_outputs_regrouped_in_cond_in_loop`)."""
    tf.set_random_seed(3)       # the cell's initial weights, here and in the import
    grads = _run_time_length_rnn_in_cond_in_loop(after)
    init = tf.global_variables_initializer()
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    imported_gradient_matches(gd, grads[0], {"x:0": graph_loop_training_cases.X8[:4, :3],
                                             "flag:0": True}, init.name)


def _keys(h):
    """Two real steps of keys ([1, 2, 3]) from the outer loop's value."""
    return tf.expand_dims(tf.concat([h, h * 2.0], 0), 0)


def _written(gd, marker):
    """Per function of `gd` holding nodes named with `marker` (each function holding
    the body's ops), those nodes; at least one such function."""
    written = [[n for n in f.node_def if marker in n.name] for f in gd.library.function]
    written = [nodes for nodes in written if nodes]
    assert written
    return written


def test_a_computed_row_is_read_at_0_only_where_its_branch_is_not_taken(caplog):
    """The begin of a StridedSlice reading a computed row of a branch loop's run-time
    dim is multiplied by Maximum([1, 0], taken) in the body function: the taken
    branch reads the row it names."""
    _run_time_length_rnn_in_cond_in_loop(
        lambda out, state, h: state + out[:, tf.cast(tf.reduce_sum(h) > 100.0, tf.int32) + 1])
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    for nodes in _written(gd, "stand_in_begin"):
        assert sorted(n.op for n in nodes) == ["Const", "Maximum", "Mul"], nodes
        kept = next(n for n in nodes if n.op == "Const")
        assert list(tf.make_ndarray(kept.attr["value"].tensor)) == [1, 0]


def _branch_result_of_loop_shape(looped_else: bool, times: int = 1):
    """A branch result whose shape comes from a loop's output of a run-time shape (the
    outer loop's value of shape [None]: the stack()'s rows, `times` of them
    concatenated, summed plus a scalar), the other branch's `h * 0.5` (or, with
    `looped_else`, the same from a loop of its own); the gradient wrt `w`."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    w = tf.get_variable("w", [3], initializer=tf.constant_initializer([0.5, -0.3, 0.2]))

    def looped(h):
        n = tf.shape(x)[0]
        _, ta = tf.while_loop(lambda j, ta: j < n, lambda j, ta: (
            j + 1, ta.write(j, x[j] * w)), [tf.constant(0), tf.TensorArray(
                tf.float32, n, element_shape=[3])])
        rows = tf.concat([ta.stack()] * times, 0) if times > 1 else ta.stack()
        return tf.reduce_sum(rows, 1) + tf.reduce_sum(h)

    def body(i, h):
        return i + 1, tf.cond(flag, lambda: looped(h),
                              lambda: looped(h) if looped_else else h * 0.5)
    h = tf.while_loop(lambda i, h: i < 2, body, [tf.constant(0), tf.reduce_sum(x, 1)],
                      shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])[1]
    return tf.gradients(tf.reduce_sum(tf.square(h)), [w])[0]


@pytest.mark.parametrize("looped_else,ops", [
    (False, ["BroadcastTo", "Shape"]),
    (True, ["BroadcastTo", "BroadcastTo", "Select", "Shape", "Shape"])],
    ids=["one_branch", "both_branches"])
def test_a_branch_result_of_the_stand_in_shape_is_broadcast_to_the_taken_branch(
        looped_else, ops, caplog):
    """The untaken branch's result of the stand-in's shape ([1] for [n]) is broadcast
    to the other branch's value's shape (BroadcastTo(value, Shape(other))) before
    Select; with such results in both branches, each to the taken one's
    (Select(pred, Shape(then), Shape(else))): TF's form, the gradient read back."""
    grad = _branch_result_of_loop_shape(looped_else)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    for nodes in _written(gd, "stand_in_shape"):
        assert sorted(n.op for n in nodes) == ops
    imported_gradient_matches(gd, grad, {"x:0": graph_loop_training_cases.X8[:4, :3],
                                         "flag:0": True}, "w/Assign")


def test_a_branch_result_of_a_concat_along_the_stand_in_keeps_tf1compat_form(caplog):
    """A branch result of a ConcatV2 along a loop's run-time dim (the stand-in's size
    there not 1: no broadcast gives it the other branch's shape): warned."""
    message = _warned_reason(lambda: _branch_result_of_loop_shape(False, 2), caplog)
    assert "returns a value whose shape depends on that of a while loop's output" in \
        message and "concatenated along it" in message


def _rows_of_loop(x, w, h, element_shape=None):
    """A while_loop writing row j of `x * w + h[0]` for each of x's run-time rows: the
    stack() of a run-time size these tests put in a tf.cond branch."""
    n = tf.shape(x)[0]
    _, ta = tf.while_loop(lambda j, ta: j < n, lambda j, ta: (
        j + 1, ta.write(j, x[j] * w + h[0])), [tf.constant(0), tf.TensorArray(
            tf.float32, n, element_shape=element_shape)])
    return ta.stack()


def test_values_of_a_branch_loop_and_random_draws_are_differentiated(caplog):
    """A branch value computed from a loop's output and random draws (the draws of its
    run-time shape: `stack() * random_uniform(tf.shape(...))`) is on the gradient path
    (it was computed outside f as the draws, dropping the loop's gradient: zeros)."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    w = tf.get_variable("w", [3], initializer=tf.constant_initializer([0.5, -0.3, 0.2]))

    def body(i, h):
        def looped():
            rows = _rows_of_loop(x, w, h)
            return h + tf.reduce_sum(rows * tf.random_uniform(tf.shape(rows), 1.0, 1.0), 0,
                                     keepdims=True)
        return i + 1, tf.cond(flag, looped, lambda: h * 0.5)
    h = tf.while_loop(lambda i, h: i < 2, body, [tf.constant(0), tf.ones([1, 3])])[1]
    grad, = tf.gradients(tf.reduce_sum(tf.square(h)), [w])
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    imported_gradient_matches(gd, grad, {"x:0": graph_loop_training_cases.X8[:4, :3],
                                         "flag:0": True}, "w/Assign")


def test_a_broadcast_with_a_value_of_the_output_shape_keeps_the_result_shape(caplog):
    """A stack() of a run-time size added to a value of the sum's shape (`x * w`) gives
    the branch result its shape whatever the stand-in: TF's form, the gradient read
    back (the flag fed both ways)."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    w = tf.get_variable("w", [3], initializer=tf.constant_initializer([0.5, -0.3, 0.2]))

    def body(i, h):
        def looped():
            return h + tf.reduce_sum(_rows_of_loop(x, w, h, [3]) + x * w, 0, keepdims=True)
        return i + 1, tf.cond(flag, looped, lambda: h * w)
    h = tf.while_loop(lambda i, h: i < 2, body, [tf.constant(0), tf.ones([1, 3])])[1]
    grad, = tf.gradients(tf.reduce_sum(tf.square(h)), [w])
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    for on in (True, False):
        imported_gradient_matches(gd, grad, {"x:0": graph_loop_training_cases.X8[:4, :3],
                                             "flag:0": on}, "w/Assign")


def test_a_reshape_the_stand_in_does_not_fill_pads_it_where_its_branch_is_not_taken(
        caplog):
    """A Reshape of a branch loop's outputs to [-1, 6] (3 units a step) takes them
    through ConcatV2(outputs, Fill(shape with (2 - 1) * (1 - taken) steps, 0)) in the
    body function: 2 steps of the stand-in, the taken branch's outputs unchanged."""
    _run_time_length_rnn_in_cond_in_loop(
        lambda out, state, h: state + tf.reduce_mean(tf.reshape(out, [-1, 6]), 0,
                                                     keepdims=True)[:, :3])
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    for nodes in _written(gd, "stand_in_fill"):
        concat, = [n for n in nodes if n.op == "ConcatV2"]
        assert concat.name.startswith("while/cond/Reshape") and concat.input[0] != \
            concat.input[1]
        values = sorted(int(tf.make_ndarray(n.attr["value"].tensor).sum())
                        for n in nodes if n.op == "Const" and n.attr["dtype"].type == 3)
        assert 2 - 1 in values      # the steps added: size - 1


def test_outputs_concatenated_with_real_values_are_broadcast_to_their_sizes(caplog):
    """A branch loop's outputs concatenated with the rnn's inputs along the units (1 in
    time in the stand-in, the inputs' run-time length): the outputs are broadcast to
    the inputs' sizes in time (BroadcastTo of Shape(out) * [1, 0, 1] + Shape(inputs) *
    [0, 1, 0]) in the body function (recorded:
    `case_train_run_time_length_rnn_outputs_beside_inputs_in_cond_in_loop`)."""
    case = graph_loop_run_time_cases.\
        case_train_run_time_length_rnn_outputs_beside_inputs_in_cond_in_loop
    case(tf)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    for nodes in _written(gd, "stand_in_concat"):
        assert sorted(n.op for n in nodes if n.op not in ("Const", "Mul")) == [
            "AddV2", "BroadcastTo", "Shape", "Shape"], nodes
        masks = sorted(list(tf.make_ndarray(n.attr["value"].tensor))
                       for n in nodes if n.op == "Const")
        assert masks == [[0, 1, 0], [1, 0, 1]]
