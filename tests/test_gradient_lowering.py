"""Regions written for TF's function gradients by rewriting (graphdef/cond_lowering.py,
graphdef/gradient_lowering.py): tf.cond as both branches + Select, Prod, the stitches of
partitioned embedding lookups, batch norm in NCHW / float16 / bfloat16, LRN.

What real TF computes from such files is recorded by scripts/check_tf_reads_graphs.py
(tests/graph_training_cases.py) and by scripts/probe_tf_function_gradients.py; the tests
here replay it: tf1compat's own training steps (no import) give TF's weights.
"""

from __future__ import annotations

import logging
import os

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.graphdef import gradient_export
from tf1compat.graphdef import graph_export
from tests import graph_training_cases
from tests.gradient_export_util import (case_rtol, export_with_warnings,  # noqa: F401
                                         fresh_graph, recorded_case, replay_tf_runs)

X = np.cos(np.arange(24, dtype=np.float32)).reshape(4, 6)

LOWERED_CASES = [graph_training_cases.case_train_cond_dropout_batch_norm,
                 graph_training_cases.case_train_batch_norm_nchw_half,
                 graph_training_cases.case_train_prod_partitioned_embedding,
                 graph_training_cases.case_train_keras_dropout_learning_phase,
                 graph_training_cases.case_train_mlp_batch_norm_flag,
                 graph_training_cases.case_train_batch_norm_wrapper_tutorial,
                 graph_training_cases.case_train_keras_conv_noise_batch_norms,
                 graph_training_cases.case_train_cifar10_tutorial_lrn]


def _symbolic_gradients(caplog):
    gd, warned = export_with_warnings(caplog)
    return gd, [n for n in gd.node if n.op == "SymbolicGradient"], warned


@pytest.mark.parametrize("case", LOWERED_CASES, ids=lambda fn: fn.__name__[len("case_"):])
def test_own_training_steps_give_the_weights_tf_computed_from_the_file(case, caplog):
    d, recorded, arrays = recorded_case(case)
    with tf.Graph().as_default():
        spec = case(tf)
        _, nodes, warned = _symbolic_gradients(caplog)
        # Written in TF's form (no tf1compat-only SymbolicGradient, no warning).
        assert nodes and all("f" in n.attr and "Ty" not in n.attr for n in nodes)
        assert not warned, warned
        with tf.Session() as sess:
            spec["saver"].restore(sess, os.path.join(d, recorded["checkpoint"]))
            replay_tf_runs(sess, recorded, arrays, case_rtol(case.__name__[len("case_"):]))


def _roundtrip(build, feeds):
    """build()'s fetches in process and after export + import into tf1compat, and the
    GraphDef."""
    with tf.Graph().as_default():
        fetches = build()
        init = tf.global_variables_initializer()
        with tf.Session() as sess:
            sess.run(init)
            here = sess.run(fetches, feeds)
        gd = graph_export.graph_to_graph_def()
        names = [t.name for t in fetches]
    with tf.Graph().as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as sess:
            sess.run(init.name)       # seeded initializers: the same initial values
            back = sess.run(names, feeds)
    return here, back, gd


@pytest.mark.parametrize("training", [True, False])
def test_cond_dropout_and_batch_norm_are_both_branches_and_select(training, caplog):
    def build():
        tf.set_random_seed(2)
        x = tf.placeholder(tf.float32, [4, 6], name="x")
        flag = tf.placeholder(tf.bool, [], name="flag")
        h = tf.layers.dense(x, 5, name="d")
        h = tf.layers.batch_normalization(tf.reshape(h, [4, 1, 1, 5]), training=flag)
        h = tf.layers.dropout(tf.reshape(h, [4, 5]), 0.5, training=flag)
        return tf.gradients(tf.reduce_sum(h * tf.range(5.0)), tf.trainable_variables())
    with caplog.at_level(logging.WARNING):
        here, back, gd = _roundtrip(build, {"x:0": X, "flag:0": training})
    assert "SymbolicGradient" not in caplog.text
    node, = [n for n in gd.node if n.op == "SymbolicGradient"]
    fdef, = [f for f in gd.library.function if f.signature.name == node.attr["f"].func.name]
    body = [n.op for n in fdef.node_def]
    assert "If" not in body and body.count("Select") >= 2
    # Dropout's mask is drawn outside f, in its branch: it enters through a Merge with a
    # scalar from the other branch's side of a Switch.
    merges = [n for n in gd.node if n.op == "Merge" and n.name.startswith(node.name + "/")]
    assert len(merges) == 1 and merges[0].name in [i.split(":")[0] for i in node.input]
    switch = next(n for n in gd.node if n.name == merges[0].input[1].split(":")[0])
    assert switch.op == "Switch" and merges[0].input[1].endswith(":0")   # the false side
    for a, b in zip(here, back):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_untaken_branch_with_an_unbounded_gradient_keeps_tf1compat_form(caplog):
    """The untaken branch gets a zero gradient through Select; through log (or division,
    sqrt, exp ...) of a value where the gradient is infinite that would be NaN, so such
    branches are not lowered. Ops not computed from the sources are only evaluated."""
    x = tf.placeholder(tf.float32, [4, 6], name="x")
    w = tf.Variable(np.zeros((6, 2), np.float32), name="w")
    flag = tf.placeholder(tf.bool, [], name="flag")
    logits = tf.matmul(x, w)
    risky = tf.cond(flag, lambda: logits, lambda: tf.log(logits))       # log(0) = -inf
    safe = tf.cond(flag, lambda: logits * tf.log(4.0), lambda: tf.nn.relu(logits))
    g_risky, = tf.gradients(tf.reduce_sum(risky), [w])
    g_safe, = tf.gradients(tf.reduce_sum(safe), [w])
    # Provably positive: softmax + epsilon; only >= 0: a square (rsqrt(0) = inf).
    positive = tf.cond(flag, lambda: logits, lambda: tf.log(tf.nn.softmax(logits) + 1e-8))
    square = tf.cond(flag, lambda: logits, lambda: tf.rsqrt(tf.square(logits)))
    tf.gradients(tf.reduce_sum(positive), [w])
    tf.gradients(tf.reduce_sum(square), [w])
    _, nodes, warned = _symbolic_gradients(caplog)
    assert [("f" in n.attr) for n in nodes] == [False, True, True, False]
    assert len(warned) == 2 and "Log" in warned[0] and "NaN" in warned[0]
    assert "Rsqrt of a value not provably positive" in warned[1]
    with tf.Session() as sess:
        sess.run(w.initializer)
        got = sess.run([g_risky, g_safe], {x: X, flag: True})
    assert np.isfinite(got[0]).all()
    np.testing.assert_allclose(got[1], np.log(4.0) * X.sum(0)[:, None] * np.ones((1, 2)),
                               rtol=1e-5)


def test_stateful_branches_keep_tf1compat_form_random_draws_do_not(
        caplog):
    x = tf.placeholder(tf.float32, [4, 6], name="x")
    w = tf.Variable(np.ones((6, 2), np.float32), name="w")
    counter = tf.Variable(0.0, name="counter")
    flag = tf.placeholder(tf.bool, [], name="flag")
    y = tf.matmul(x, w)
    assigning = tf.cond(flag, lambda: y * tf.assign_add(counter, 1.0), lambda: y)
    projected = tf.cond(flag, lambda: tf.matmul(y, tf.random_normal([2, 2], seed=1)),
                        lambda: y)
    stopped = tf.cond(flag, lambda: tf.matmul(y, tf.stop_gradient(tf.transpose(y))),
                      lambda: tf.matmul(y, tf.transpose(y)))
    # The draws give the sum its shape: the untaken branch's stand-in has it too.
    bias = tf.Variable(np.zeros(2, np.float32), name="bias")
    widened = tf.cond(flag, lambda: tf.random_normal([4, 2], seed=2) + bias,
                      lambda: y)
    # Draws of a shape known only at run time into a MatMul: the stand-in is shaped at run
    # time from the tensor outside the branch that gave them their shape (loopgrad4).
    z = tf.placeholder(tf.float32, [None, 2], name="z")
    dynamic = tf.cond(flag, lambda: tf.matmul(tf.random_normal(tf.shape(z)), y,
                                              transpose_b=True),
                      lambda: tf.matmul(z, y, transpose_b=True))
    tf.gradients(tf.reduce_sum(assigning), [w])
    tf.gradients(tf.reduce_sum(projected), [w])
    tf.gradients(tf.reduce_sum(stopped), [w])
    tf.gradients(tf.reduce_sum(widened * y), [bias])
    tf.gradients(tf.reduce_sum(dynamic), [w])
    gd, nodes, warned = _symbolic_gradients(caplog)
    assert [("f" in n.attr) for n in nodes] == [False, True, True, True, True]
    assert "stateful op AssignAdd" in warned[0]
    # Random draws or a gradient stop become inputs of f; the other side of their Merge
    # is zeros of their shape (Fill), static or computed at run time.
    assert len(warned) == 1
    fills = [n for n in gd.node if n.op == "Fill" and n.name.endswith("/zeros")]
    assert len(fills) == 4


def test_prod_is_a_product_of_its_factors_exact_at_zeros():
    values = X.copy()
    values[1, 2] = 0.0
    values[3, :2] = 0.0

    def build():
        x = tf.placeholder(tf.float32, [4, 6], name="x")
        w = tf.Variable(np.eye(6, dtype=np.float32), name="w")
        y = tf.matmul(x, w)
        return tf.gradients(tf.reduce_sum(tf.reduce_prod(y, 1)) +
                            tf.reduce_sum(tf.reduce_prod(tf.reshape(y, [4, 2, 3]), [0, 2],
                                                         keepdims=True)), [x])
    here, back, gd = _roundtrip(build, {"x:0": values})
    fdef = gd.library.function[0]
    assert "Prod" not in {n.op for n in fdef.node_def}
    expected = np.zeros_like(values)
    for i in range(4):      # d/dx_ij of prod_k x_ik: the product of the other factors
        for j in range(6):
            expected[i, j] = np.prod(np.delete(values[i], j))
    cubes = values.reshape(4, 2, 3)
    for h in range(2):
        for i in range(4):
            for k in range(3):
                rest = np.delete(cubes[:, h, :].reshape(-1), i * 3 + k)
                expected[i, h * 3 + k] += np.prod(rest)
    np.testing.assert_allclose(here[0], expected, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(back[0], here[0], rtol=1e-5, atol=1e-7)


def test_partitioned_embedding_lookup_is_one_one_hot_product(caplog):
    def build():
        ids = tf.placeholder(tf.int32, [3, 2], name="ids")
        table = tf.get_variable("t", [7, 2], partitioner=tf.fixed_size_partitioner(3),
                                initializer=tf.random_normal_initializer(seed=1))
        loss = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(table, ids,
                                                              partition_strategy="div")))
        return [g.values for g in tf.gradients(loss, list(table))]
    ids = np.array([[0, 6], [3, 3], [5, 1]], np.int32)
    with caplog.at_level(logging.WARNING):
        here, back, gd = _roundtrip(build, {"ids:0": ids})
    assert "SymbolicGradient" not in caplog.text
    body = {n.op for f in gd.library.function for n in f.node_def}
    assert not body & {"ParallelDynamicStitch", "DynamicStitch", "AddN"}
    for a, b in zip(here, back):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_stitches_of_other_indices_keep_tf1compat_form(caplog):
    x = tf.placeholder(tf.float32, [4, 2], name="x")
    w = tf.Variable(np.ones((2, 2), np.float32), name="w")
    y = tf.matmul(x, w)
    # Duplicate positions: the stitch keeps one row, a one-hot product would add them.
    stitched = tf.dynamic_stitch([tf.constant([0, 1]), tf.constant([1, 2])], [y[:2], y[2:]])
    tf.gradients(tf.reduce_sum(stitched), [w])
    _, nodes, warned = _symbolic_gradients(caplog)
    assert "f" not in nodes[0].attr and "DynamicStitch other than" in warned[0]


@pytest.mark.parametrize("data_format,dtype", [("NCHW", "float32"), ("NHWC", "float16"),
                                               ("NHWC", "bfloat16"), ("NCHW", "float16")])
def test_fused_batch_norm_layouts_and_half_types(data_format, dtype):
    def build():
        x = tf.placeholder(tf.float32, [2, 3, 2, 2], name="x")
        scale = tf.Variable([1.0, 2.0, 0.5] if data_format == "NCHW" else [1.0, 2.0],
                            name="scale")
        offset = tf.Variable(tf.zeros_like(scale), name="offset")
        y, _, _ = tf.nn.fused_batch_norm(tf.cast(x, getattr(tf, dtype)), scale, offset,
                                         data_format=data_format, is_training=True)
        weights = tf.reshape(tf.sin(tf.range(24.0)), [2, 3, 2, 2])
        loss = tf.reduce_sum(tf.cast(y, tf.float32) * weights)
        return tf.gradients(loss, [x, scale, offset])
    values = np.cos(np.arange(24, dtype=np.float32) * 0.7).reshape(2, 3, 2, 2)
    here, back, gd = _roundtrip(build, {"x:0": values})
    assert "FusedBatchNormV3" not in {n.op for f in gd.library.function for n in f.node_def}
    tol = 1e-5 if dtype == "float32" else 3e-2
    for a, b in zip(here, back):
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


def test_select_with_a_scalar_condition_picks_a_whole_tensor():
    """TF1's tf.where is Select: a scalar condition picks `x` or `y` whole (the lowered
    tf.cond's Select), which must then have the same shape."""
    x, y = tf.constant([[1.0, 2.0]]), tf.constant([[3.0, 4.0]])
    flag = tf.placeholder(tf.bool, [], name="flag")
    picked = tf.where(flag, x, y)
    assert picked.op.type == "Select"
    other = tf.placeholder(tf.float32, None, name="other")
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(picked, {flag: True}), [[1.0, 2.0]])
        np.testing.assert_array_equal(sess.run(picked, {flag: False}), [[3.0, 4.0]])
        with pytest.raises(tf.errors.InvalidArgumentError, match="same size"):
            sess.run(tf.where(flag, x, other), {flag: True, other: [3.0, 4.0, 5.0]})


def test_branch_op_tables_hold_only_ops_tf_differentiates_or_that_are_rewritten():
    from tf1compat.graphdef import cond_lowering
    from tf1compat.graphdef.gradient_lowering import LOWERINGS
    known = gradient_export.TF_DIFFERENTIABLE_OP_TYPES | set(LOWERINGS) | {"Const"}
    assert cond_lowering.FINITE_GRADIENT_OP_TYPES <= known
    assert cond_lowering.BROADCASTING_OP_TYPES <= cond_lowering.FINITE_GRADIENT_OP_TYPES
