"""Gradients of gradients without loops (gradient penalties, d²/dx², tf.hessians) in the
graph files tf1compat writes: the form real TF 2.21 imports, runs and trains from
(graphdef/loop_second_order.py without a loop; TF's runs of the files:
tests/graph_second_order_plain_cases.py, recorded by scripts/check_tf_reads_graphs.py and
compared value by value in tests/test_graph_export.py)."""

from __future__ import annotations

import os

import pytest

import tf1compat as tf
from tests import graph_second_order_plain_cases as cases
from tests.gradient_export_util import (check_recorded_training_case,  # noqa: F401
                                         export_with_warnings, fresh_graph,
                                         imported_gradient_matches, recorded_case,
                                         replay_the_written_train_op, replay_tf_runs)
from tf1compat.graphdef.gradient_export import TF_DIFFERENTIABLE_OP_TYPES


def _tangent_functions(gd) -> list:
    """The functions the second gradients differentiate: those SymbolicGradient nodes
    named `.../<first gradient>_second_order/tangents_grad` call."""
    bodies = {f.signature.name: f for f in gd.library.function}
    return [bodies[n.attr["f"].func.name] for n in gd.node
            if n.op == "SymbolicGradient" and "_second_order/" in n.name]


def test_second_order_gradients_are_written_in_tf_form(caplog):
    """No gradient op keeps tf1compat's form: the first gradients are TF's
    SymbolicGradient of their forward function, each gradient of one (also each row of
    tf.hessians' Jacobian) a SymbolicGradient of a tangent function holding only ops TF
    differentiates in a function; the file read back here gives what TF computed."""
    cases.case_second_order_plain(tf)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    assert not [n.name for n in gd.node if n.op == "SymbolicGradient" and "Ty" in n.attr]
    tangents = _tangent_functions(gd)
    assert len(tangents) >= 2 + 6       # gg, g_w/g_b and the hessian's rows
    for fdef in tangents:
        assert {n.op for n in fdef.node_def} <= TF_DIFFERENTIABLE_OP_TYPES | {"Const"}
    d, recorded, arrays = recorded_case(cases.case_second_order_plain)
    tf.reset_default_graph()
    tf.train.import_meta_graph(os.path.join(d, "graph.meta"))
    with tf.Session() as sess:
        sess.run(recorded["init"])
        replay_tf_runs(sess, recorded, arrays)


def test_wgan_gp_critic_trains_from_the_file_as_tf_does(caplog):
    """A WGAN-GP critic step: TF trains from tf1compat's file to the values of its own
    graph of the same program (TF 1.x writes the gradient penalty's gradient op by op),
    and so does tf1compat from the same file."""
    check_recorded_training_case(cases.case_train_gradient_penalty_plain, caplog, set())
    replay_the_written_train_op(cases.case_train_gradient_penalty_plain)


@pytest.mark.parametrize("activation, op_type", [
    (tf.math.erf, "Erf"), (lambda h: tf.reduce_max(h, axis=1, keepdims=True) * h, "Max")])
def test_first_gradient_through_ops_without_tangents_keeps_tf1compats_form(
        activation, op_type, caplog):
    """An op of the first gradient's region without a tangent (tangent_lowering.py):
    the second gradient keeps tf1compat's form, the warning naming the op type, and so
    does the first (nothing would differentiate its TF form); tf1compat reads the file
    back to the same values."""
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    w = tf.Variable(cases.W33, name="w")
    g = tf.gradients(tf.reduce_sum(activation(tf.matmul(x, w))), x)[0]
    gg = tf.gradients(tf.reduce_sum(g * g), w)[0]
    tf.global_variables_initializer()
    gd, warned = export_with_warnings(caplog)
    assert any(f"op type {op_type} (no tangent written)" in m for m in warned), warned
    assert any("differentiated again (create_graph)" in m for m in warned), warned
    imported_gradient_matches(gd, gg, {x.name: cases.X23}, "init")


def test_third_order_keeps_tf1compats_form(caplog):
    """A gradient of a gradient of a gradient: the second gradient's tangent would hold a
    gradient op, which has none; all three keep tf1compat's form, read back to the same
    values."""
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    w = tf.Variable(cases.W33, name="w")
    g = tf.gradients(tf.reduce_sum(tf.tanh(tf.matmul(x, w))), x)[0]
    gg = tf.gradients(tf.reduce_sum(g * g), x)[0]
    ggg = tf.gradients(tf.reduce_sum(gg * gg), w)[0]
    tf.global_variables_initializer()
    gd, warned = export_with_warnings(caplog)
    assert any("SymbolicGradient (no tangent written)" in m for m in warned), warned
    imported_gradient_matches(gd, ggg, {x.name: cases.X23}, "init")
