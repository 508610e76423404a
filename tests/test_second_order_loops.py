"""Gradients of gradients through loops and TensorArrays read after nested loops, built by
tf1compat, against the values real TF 2.21 computed for the same graphs
(tests/fixtures/tf_graphs: scripts/make_graph_fixtures_second_order.py and
scripts/make_graph_fixtures_loops.py; TF 1.x's own form cannot build the second-order
ones, TF's control flow v2 did), from TF's checkpoint; and tf1compat's graph files of
them read back here."""

from __future__ import annotations

import json
import logging
import os
from typing import Any

import numpy as np
import pytest

import tf1compat as tf
from tests import graph_loop_array_cases, graph_second_order_cases
from tests.gradient_export_util import (check_recorded_training_case,  # noqa: F401
                                         export_with_warnings, fresh_graph,
                                         imported_gradient_matches, recorded_case,
                                         replay_the_written_train_op, replay_tf_runs)
from tf1compat.graphdef.gradient_export import TF_DIFFERENTIABLE_OP_TYPES

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "tf_graphs")


def _load(case: str):
    d = os.path.join(FIXTURES, case)
    with open(os.path.join(d, "case.json")) as f:
        spec = json.load(f)
    return d, spec, np.load(os.path.join(d, "expected.npz"))


def _replay(sess, spec: dict, arrays, rename: dict = None) -> None:
    """Runs the fixture's runs in order in `sess`, comparing what TF fetched."""
    rename = rename or {}
    for k, run in enumerate(spec["runs"]):
        feeds = {name: arrays[key] for name, key in run["feeds"].items()}
        fetches = [rename.get(name, name) for name in run["fetches"]]
        got = sess.run(fetches + run["targets"], feeds)[:len(fetches)]
        for name, key, value in zip(run["fetches"], run["values"], got):
            np.testing.assert_allclose(value, arrays[key], rtol=1e-5, atol=1e-6,
                                       err_msg=f"run {k}: {name}")


def test_tf1x_form_cannot_build_them():
    for case in ("loop_second_order_gradients", "loop_gradient_penalty_training"):
        assert _load(case)[1]["v1_error"] == \
            "TypeError: Second-order gradient for while loops not supported."


@pytest.mark.parametrize("case, build", [
    ("loop_second_order_gradients", graph_second_order_cases.build_second_order),
    ("loop_gradient_penalty_training", graph_second_order_cases.build_gradient_penalty)])
def test_second_order_gradients_through_a_loop_with_a_cond(case, build, tmp_path, caplog):
    """tf.gradients of tf.gradients, tf.hessians and a gradient penalty's training
    through a while loop whose body holds a tf.cond, as TF computes them; the graph file
    tf1compat writes of it (in TF's form, no warning: loop_second_order.py; TF's runs of
    such files: graph_second_order_cases.py) runs to the same values after import here."""
    d, spec, arrays = _load(case)
    build(tf)
    path = str(tmp_path / "graph.meta")
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, os.path.join(d, spec["checkpoint"]))
        with caplog.at_level(logging.WARNING):
            tf.train.export_meta_graph(path)
        assert not [r for r in caplog.records if "SymbolicGradient" in r.getMessage()]
        _replay(sess, spec, arrays)
    tf.reset_default_graph()
    saver = tf.train.import_meta_graph(path)
    with tf.Session() as sess:
        saver.restore(sess, os.path.join(d, spec["checkpoint"]))
        _replay(sess, spec, arrays)


@pytest.mark.parametrize("case", ["tensor_arrays_read_after_nested_loop",
                                  "tensor_array_read_after_unrolled_nested_loop",
                                  "tensor_array_written_in_cond_in_loop"])
def test_array_reads_after_nested_loops_train_as_tf(case):
    """TensorArrays a nested loop writes read after it by read/gather/concat/size, and an
    array written in a tf.cond of a loop body: loss, gradients and two training steps
    of tf1compat's own graph of the case as TF's."""
    d, spec, arrays = _load(case)
    build = getattr(graph_loop_array_cases, f"case_train_{case}")
    build(tf)
    graph = tf.get_default_graph()
    grads = tf.gradients(graph.get_tensor_by_name("loss:0"),
                         [graph.get_tensor_by_name("w:0"), graph.get_tensor_by_name("v:0")])
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, os.path.join(d, spec["checkpoint"]))
        _replay(sess, spec, arrays, {"grad_0:0": grads[0].name, "grad_1:0": grads[1].name})


# -- tf1compat's files of them, which real TF runs (graphdef/loop_second_order.py) ------------

RUN_CASES = [graph_second_order_cases.case_loop_second_order_tanh_matmul,
             graph_second_order_cases.case_loop_second_order_op_set,
             graph_second_order_cases.case_loop_second_order_cond_body,
             graph_second_order_cases.case_loop_second_order_wide_op_set,
             graph_second_order_cases.case_loop_second_order_image_op_set]
PENALTY_CASES = [graph_second_order_cases.case_train_loop_gradient_penalty_tanh_matmul,
                 graph_second_order_cases.case_train_loop_gradient_penalty_cond_body,
                 graph_second_order_cases.case_train_loop_gradient_penalty_lstm,
                 graph_second_order_cases.case_train_rnn_gradient_penalty_gru,
                 graph_second_order_cases.case_train_rnn_gradient_penalty_lstm,
                 graph_second_order_cases.case_train_rnn_gradient_penalty_basic,
                 graph_second_order_cases.case_train_rnn_gradient_penalty_lstm_lengths,
                 graph_second_order_cases.case_train_rnn_gradient_penalty_bidirectional,
                 graph_second_order_cases.case_train_rnn_gradient_penalty_classifier,
                 graph_second_order_cases.case_train_rnn_gradient_penalty_encoder_decoder,
                 graph_second_order_cases.case_train_rnn_gradient_penalty_stacked]


@pytest.mark.parametrize("case", RUN_CASES, ids=lambda fn: fn.__name__[len("case_"):])
def test_second_order_gradients_are_written_as_loops_tf_runs(case, caplog):
    """No gradient op keeps tf1compat's form: each gradient of a gradient is a tangent
    StatelessWhile and its backward StatelessWhile calling SymbolicGradient of the
    body's tangent function; the first gradients are TF 1.x backward loops. What TF
    computed from the file (scripts/check_tf_reads_graphs.py; test_graph_export.py
    compares tf1compat's values with it) is what the file computes here too."""
    case(tf)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    assert not [n.name for n in gd.node if n.op == "SymbolicGradient" and "Ty" in n.attr]
    whiles = [n for n in gd.node if n.op == "StatelessWhile"]
    seconds = {n.name.rpartition("_second_order/")[0] for n in whiles}
    assert len(whiles) == 2 * len(seconds) and seconds
    bodies = {f.signature.name: f for f in gd.library.function}
    for node in whiles:
        if node.name.endswith("backward"):
            body = bodies[node.attr["body"].func.name]
            calls = [n for n in body.node_def if n.op == "SymbolicGradient"]
            assert len(calls) == 1
            # TF differentiates every op of the tangent function in a function
            tangents = {n.op for n in bodies[calls[0].attr["f"].func.name].node_def}
            assert tangents <= TF_DIFFERENTIABLE_OP_TYPES | {"Const"}, tangents
    d, recorded, arrays = recorded_case(case)
    tf.reset_default_graph()
    tf.train.import_meta_graph(os.path.join(d, "graph.meta"))
    with tf.Session() as sess:
        sess.run(recorded["init"])
        replay_tf_runs(sess, recorded, arrays)


def test_tf_computes_from_the_file_what_its_own_graph_computes():
    """The loop with a tf.cond in its body: TF's values from tf1compat's file (the
    hessian's Jacobian form written row by row) are those TF computed from its own
    control-flow-v2 graph of the same program
    (tests/fixtures/tf_graphs/loop_second_order_gradients)."""
    _, recorded, arrays = recorded_case(graph_second_order_cases.case_loop_second_order_cond_body)
    _, native, expected = _load("loop_second_order_gradients")
    for k, (run, own) in enumerate(zip(recorded["runs"], native["runs"])):
        np.testing.assert_array_equal(arrays[run["feeds"]["x:0"]], expected[own["feeds"]["x:0"]])
        for fetch, key in zip(run["fetches"], recorded["tf"]["values"][k]):
            np.testing.assert_allclose(arrays[key],
                                       expected[own["values"][own["fetches"].index(fetch)]],
                                       rtol=1e-5, atol=1e-6, err_msg=f"run {k}: {fetch}")


@pytest.mark.parametrize("case", PENALTY_CASES, ids=lambda fn: fn.__name__[len("case_"):])
def test_gradient_penalty_trains_from_the_file_as_tf_does(case, caplog):
    """TF trains from tf1compat's file of a gradient penalty through the loop to the
    values of its own graph of the case (control flow v2; TF 1.x's form cannot build
    it), and so does tf1compat from the same file."""
    assert recorded_case(case)[1]["tf"]["native_v1"].endswith(
        "Second-order gradient for while loops not supported.")
    check_recorded_training_case(case, caplog, set())
    replay_the_written_train_op(case)


def _loop_with(step):
    x = tf.placeholder(tf.float32, [3], name="x")
    w = tf.Variable(graph_second_order_cases.W0, name="w")
    _, h = tf.while_loop(lambda i, h: i < 2, lambda i, h: (i + 1, step(i, h, w)),
                         [tf.constant(0), x])
    g = tf.gradients(tf.reduce_sum(h * h), x)[0]
    gg = tf.gradients(tf.reduce_sum(g * g), w)[0]
    tf.global_variables_initializer()
    return x, gg


@pytest.mark.parametrize("step, reason", [
    (lambda i, h, w: tf.while_loop(lambda j, a: j < 2, lambda j, a: (j + 1, a * w),
                                   [tf.constant(0), h])[1], "op type While"),
    (lambda i, h, w: tf.cond(i < 1, lambda: tf.math.erf(h) * w, lambda: h + w),
     "op type Erf (no tangent written)")],
    ids=["nested_loop", "erf_in_cond"])
def test_bodies_without_tangents_keep_tf1compats_form(step, reason, caplog):
    """A body op without a tangent (a nested loop, an op type tangent_lowering.py does
    not write, in a tf.cond branch too): the gradients of gradients keep tf1compat's
    form, the warning naming the op type, and so does the first gradient (nothing would
    differentiate its TF form); tf1compat reads the file back to the same values."""
    x, gg = _loop_with(step)
    gd, warned = export_with_warnings(caplog)
    assert any(reason in w for w in warned), warned
    assert any("differentiated again (create_graph)" in w for w in warned), warned
    assert not [n for n in gd.node if n.op == "StatelessWhile"]
    imported_gradient_matches(gd, gg, {x.name: graph_second_order_cases.XS[0]}, "init")


def test_hessians_of_more_elements_than_written_row_by_row_keep_tf1compats_form(caplog):
    """tf.hessians writes its Jacobian row by row (one gradient of the first gradient per
    element) up to 256 elements; of more, it and the first gradient keep tf1compat's
    form."""
    x = tf.placeholder(tf.float32, [257], name="x")
    _, h = tf.while_loop(lambda i, h: i < 2, lambda i, h: (i + 1, tf.tanh(h)),
                         [tf.constant(0), x])
    tf.hessians(tf.reduce_sum(h * h), x)
    gd, warned = export_with_warnings(caplog)
    assert any("tf.hessians' Jacobian form has no TF op" in w for w in warned), warned
    assert not [n for n in gd.node if n.op == "StatelessWhile"]


def _finite_difference(value: Any, variable: Any, sess: Any, feeds: dict,
                       step: float = 1e-3) -> np.ndarray:
    """The central difference of scalar `value` along each element of `variable`."""
    start = sess.run(variable)
    found = np.zeros_like(start, np.float64)
    for index in np.ndindex(*start.shape):
        moved = []
        for sign in (1, -1):
            shifted = start.astype(np.float64).copy()
            shifted[index] += sign * step
            variable.load(shifted.astype(start.dtype), sess)
            moved.append(float(sess.run(value, feeds)))
        found[index] = (moved[0] - moved[1]) / (2 * step)
    variable.load(start, sess)
    return found


def _penalty_gradient_is_right(gd: Any, grad: Any, total: Any, kernel: Any) -> None:
    """`grad` = d total/d kernel (float64, of a sequence `seq:0`) is read back from the
    file `gd` and agrees with a finite difference."""
    feeds = {"seq:0": graph_second_order_cases.SEQ[:3].transpose(1, 0, 2)}
    imported_gradient_matches(gd, grad, feeds, "init")
    with tf.Session() as sess:
        sess.run("init")
        np.testing.assert_allclose(sess.run(grad, feeds),
                                   _finite_difference(total, kernel, sess, feeds, 1e-5),
                                   rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("kind, lengths, shape", [
    ("gru", None, [2, 3, 2]), ("lstm", None, [2, 3, 2]), ("gru", [3, 1], [2, 3, 2]),
    ("basic", [0, 2], [2, 3, 2]), ("lstm", "fed", [None, None, 2])])
def test_gradient_penalty_through_dynamic_rnn_is_written_as_loops(kind, lengths, shape,
                                                                  caplog):
    """A gradient penalty through dynamic_rnn (its input read from an unstacked
    TensorArray, its outputs written into one and stacked; lengths, fed lengths and
    shapes known at run time only too): written without a warning as tangent and
    backward StatelessWhile loops holding no TensorArray op; tf1compat reads the file
    back to the same gradient, which agrees with a finite difference (float64)."""
    seq = tf.placeholder(tf.float64, shape, name="seq")
    if lengths == "fed":
        lengths = tf.placeholder_with_default(np.array([3, 2], np.int32), [None])
    tf.set_random_seed(4)
    cell = {"gru": tf.nn.rnn_cell.GRUCell, "lstm": tf.nn.rnn_cell.LSTMCell,
            "basic": tf.nn.rnn_cell.BasicRNNCell}[kind](2)
    out, _ = tf.nn.dynamic_rnn(cell, seq, dtype=tf.float64, sequence_length=lengths)
    loss = tf.reduce_sum(tf.tanh(out) * out)
    g = tf.gradients(loss, seq)[0]
    total = loss + tf.reduce_sum(g * g)
    kernel = [v for v in tf.trainable_variables() if "kernel" in v.name][0]
    grad = tf.gradients(total, kernel)[0]
    tf.global_variables_initializer()
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    assert [n for n in gd.node if n.op == "StatelessWhile"]
    assert not {n.op for f in gd.library.function for n in f.node_def
                if "TensorArray" in n.op}
    _penalty_gradient_is_right(gd, grad, total, kernel)


@pytest.mark.parametrize("kind", ["bidirectional", "encoder_decoder", "stacked"])
def test_gradient_penalty_through_two_loops(kind, caplog):
    """Two dynamic_rnns in the first gradient's region: side by side (a bidirectional
    one), or the second starting from the first's final state (encoder-decoder: the
    second's inputs a function of the first's results), each written as its own tangent
    and backward loops, and stacked (the second reading the first's outputs through a
    TensorArray unstacked between them: the function between the loops takes the
    first's stacked outputs and their tangents). Each agrees with a finite difference
    (float64) and is read back from the file."""
    seq = tf.placeholder(tf.float64, [2, 3, 2], name="seq")
    tf.set_random_seed(4)
    if kind == "bidirectional":
        (fw, bw), _ = tf.nn.bidirectional_dynamic_rnn(
            tf.nn.rnn_cell.GRUCell(2), tf.nn.rnn_cell.LSTMCell(2), seq, [3, 2],
            dtype=tf.float64)
        out = tf.concat([fw, bw], 2)
    else:
        with tf.variable_scope("first"):
            inner, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(2), seq,
                                             dtype=tf.float64)
        out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(2),
                                   inner if kind == "stacked" else seq[:, ::-1],
                                   initial_state=tf.tanh(state), dtype=tf.float64)
    loss = tf.reduce_sum(tf.tanh(out) * out)
    total = loss + tf.reduce_sum(tf.square(tf.gradients(loss, seq)[0]))
    kernel = [v for v in tf.trainable_variables() if "kernel" in v.name][0]
    grad = tf.gradients(total, kernel)[0]
    tf.global_variables_initializer()
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    assert len([n for n in gd.node if n.op == "StatelessWhile"]) == 4
    _penalty_gradient_is_right(gd, grad, total, kernel)


@pytest.mark.parametrize("step", [graph_second_order_cases.wide_op_set_step,
                                  graph_second_order_cases.image_op_set_step],
                         ids=lambda fn: fn.__name__)
def test_wide_op_set_second_order_agrees_with_a_finite_difference(step):
    """The gradients of gradients through the loops of the op set cases (float64), as
    tf1compat computes them, against central differences of the first gradient."""
    x, w, loss, g, gg = graph_second_order_cases.wide_op_set_gradients(tf, tf.float64, step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        feeds = {x: graph_second_order_cases.X23}
        np.testing.assert_allclose(sess.run(gg[1], feeds), _finite_difference(
            tf.reduce_sum(g * g), w, sess, feeds, 1e-5), rtol=1e-6, atol=1e-7)


def _finite_difference_second_order(w: np.ndarray, x0: np.ndarray) -> np.ndarray:
    """d/dw sum(dL/dx * w) for L = sum(h_3), h_{k+1} = tanh(h_k * w + x), h_0 = x."""
    def grad_x(w_: np.ndarray) -> np.ndarray:
        def loss(x: np.ndarray) -> float:
            h = x.copy()
            for _ in range(3):
                h = np.tanh(h * w_ + x)
            return float(h.sum())
        eye = np.eye(3) * 1e-6
        return np.array([(loss(x0 + e) - loss(x0 - e)) / 2e-6 for e in eye])
    eye = np.eye(3) * 1e-4
    return np.array([((grad_x(w + e) * (w + e)).sum() - (grad_x(w - e) * (w - e)).sum())
                     / 2e-4 for e in eye])


@pytest.mark.parametrize("use_resource", [False, True])
def test_second_order_through_a_loop_reading_a_variable(use_resource):
    """The variable read in the body gets both terms of d/dw sum(g(w) * w): a resource
    variable's handle takes the variable's shape (it failed with 'Shapes (3,) and ()').
    (TF 2.21's control flow v2 drops the dg/dw term for a resource variable here; TF 1.x
    raises TypeError for any second-order loop gradient: the finite difference decides.)"""
    w0 = np.array([0.5, -1.0, 2.0])
    x0 = np.array([1.0, 2.0, 3.0])
    with tf.Graph().as_default():
        w = tf.get_variable("w", initializer=tf.constant(w0, tf.float64),
                            use_resource=use_resource)
        x = tf.constant(x0)
        out = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.tanh(h * w + x)),
                            [0, x])[1]
        g = tf.gradients(tf.reduce_sum(out), x)[0]
        gg = tf.gradients(tf.reduce_sum(g * w), w)[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            value = sess.run(gg)
    np.testing.assert_allclose(value, _finite_difference_second_order(w0, x0), rtol=1e-3,
                               atol=1e-5)
