"""tf.gradients' op in graph files (training/gradient_export.py): TF's SymbolicGradient
form (a forward function `f`, Tin/Tout) where TF can differentiate the region, tf1compat's
own form with a warning elsewhere; both read back by tf1compat with the same values.

What real TF computes from these files is recorded by scripts/check_tf_reads_graphs.py
(tests/graph_training_cases.py) and replayed by tests/test_graph_export.py.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.graphdef import gradient_export
from tf1compat.graphdef import graph_export
from tests.gradient_export_util import fresh_graph  # noqa: F401 - autouse fixture

X = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)


def _nodes(op_type):
    gd = graph_export.graph_to_graph_def()
    return gd, [n for n in gd.node if n.op == op_type]


def _reimport(graph_def, fetches, feeds, targets=()):
    """Imports `graph_def` into a new graph and runs `fetches` (after `targets`)."""
    with tf.Graph().as_default():
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            init = [op for op in tf.get_default_graph().get_operations()
                    if op.name == "init"]
            if init:
                sess.run(init[0])
            for t in targets:
                sess.run(t, feeds)
            return sess.run(fetches, feeds)


def test_training_graph_is_written_in_tf_form_and_trains_after_import():
    tf.set_random_seed(1)
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    h = tf.layers.dense(x, 5, activation=tf.nn.relu, name="d1")
    h = tf.layers.dropout(h, 0.5, training=True)
    loss = tf.reduce_mean(tf.square(tf.layers.dense(h, 1, name="d2")), name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    gd, (node,) = _nodes("SymbolicGradient")
    assert set(node.attr) >= {"Tin", "Tout", "f"} and "Ty" not in node.attr
    fdef = next(f for f in gd.library.function if f.signature.name == node.attr["f"].func.name)
    assert fdef.attr["_noinline"].b
    body_types = {n.op for n in fdef.node_def}
    # The dropout mask's random numbers come from outside f: TF does not redraw them.
    assert "RandomUniform" not in body_types and "MatMul" in body_types
    assert [a.name for a in fdef.signature.input_arg][:4] == \
        ["d1_kernel", "d1_bias", "d2_kernel", "d2_bias"]
    # The mask (computed from RandomUniform outside) is an input.
    assert "dropout_dropout_greaterequal" in [a.name for a in fdef.signature.input_arg]
    assert len(node.input) == len(node.attr["Tin"].list.type)
    assert len(node.attr["Tout"].list.type) == len(fdef.signature.input_arg)
    with tf.Session() as sess:
        sess.run("init")
        for _ in range(2):
            sess.run("train", {x: X})
        expected = sess.run(["d1/kernel:0", "d2/bias:0"])
    got = _reimport(gd, ["d1/kernel:0", "d2/bias:0"], {"x:0": X}, targets=["train"] * 2)
    # Variables start from the same seeded initializers; the masks are Philox-seeded.
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def _gradient_values(build, feeds):
    """Values of build()'s gradients in process and after export + import."""
    with tf.Graph().as_default():
        grads = [g for g in build() if g is not None]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            here = sess.run(grads, feeds)
        gd = graph_export.graph_to_graph_def()
        names = [g.name if not isinstance(g, tf.IndexedSlices) else g.values.name
                 for g in grads]
    return here, _reimport(gd, names, feeds), gd


def test_grad_ys_multiple_ys_and_unconnected_sources_keep_their_meaning():
    def build():
        x = tf.placeholder(tf.float32, [4, 3], name="x")
        w = tf.Variable(np.ones((3, 2), np.float32), name="w")
        unused = tf.Variable(1.0, name="unused")
        y1 = tf.matmul(x, w)
        y2 = tf.reduce_sum(tf.tanh(w))
        dy = tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2))
        grads = tf.gradients([y1, y2], [w, x, unused], grad_ys=[dy, tf.constant(2.0)])
        assert grads[2] is None
        zero = tf.gradients(y2, [unused], unconnected_gradients="zero")
        return grads + zero
    here, back, gd = _gradient_values(build, {"x:0": X})
    assert [n.op for n in gd.node].count("SymbolicGradient") == 1
    node = next(n for n in gd.node if n.op == "SymbolicGradient")
    assert "f" in node.attr
    w = np.ones((3, 2), np.float32)
    expected_w = X.T @ np.arange(8, dtype=np.float32).reshape(4, 2) + \
        2.0 * (1 - np.tanh(w) ** 2)
    np.testing.assert_allclose(here[0], expected_w, rtol=1e-5)
    for a, b in zip(here, back):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    assert here[-1] == 0.0


def test_embedding_gradient_is_indexed_slices_of_the_dense_function_gradient():
    def build():
        ids = tf.placeholder(tf.int32, [3], name="ids")
        table = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3), name="table")
        loss = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(table, ids)))
        g, = tf.gradients(loss, [table])
        assert isinstance(g, tf.IndexedSlices)
        return [g]
    here, back, _ = _gradient_values(build, {"ids:0": np.array([1, 3, 1], np.int32)})
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    np.testing.assert_allclose(here[0].values, 2 * table[[1, 3, 1]])
    np.testing.assert_allclose(back[0], 2 * table[[1, 3, 1]])


def test_lowered_ops_give_the_same_gradients_after_import():
    def build():
        tf.set_random_seed(3)        # the separable convolution's initial filters
        x = tf.placeholder(tf.float32, [4, 3], name="x")
        w = tf.Variable(np.full((3, 3), 0.3, np.float32), name="w")
        logits = tf.matmul(x, w)
        bn = tf.layers.batch_normalization(tf.reshape(logits, [4, 1, 1, 3]), training=True)
        loss = tf.add_n([
            tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=tf.constant([0, 2, 1, 2]), logits=logits)),
            tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(
                labels=tf.nn.softmax(x), logits=logits)),
            tf.nn.l2_loss(w), tf.reduce_sum(tf.square(bn)),
            tf.reduce_sum(tf.where(logits > 0, logits, tf.zeros_like(logits))),
            tf.reduce_sum(tf.nn.elu(logits) + tf.nn.selu(logits) + tf.nn.softplus(logits)
                          + tf.nn.leaky_relu(logits)),
            tf.reduce_sum(tf.tile(logits, [2, 3]) * tf.range(9, dtype=tf.float32)),
            tf.reduce_sum(tf.pad(logits, [[1, 0], [2, 1]]) * tf.range(6, dtype=tf.float32)),
            tf.reduce_sum(tf.gather(logits, [3, 0, 3]) * tf.range(3, dtype=tf.float32)),
            tf.reduce_sum(tf.layers.separable_conv2d(tf.reshape(logits, [1, 2, 2, 3]), 2, 2,
                                                     depth_multiplier=2, padding="same"))])
        return tf.gradients(loss, [w])
    here, back, gd = _gradient_values(build, {"x:0": X})
    fdef = gd.library.function[0]
    body = {n.op for n in fdef.node_def}
    assert not body & {"SparseSoftmaxCrossEntropyWithLogits", "L2Loss", "AddN",
                       "FusedBatchNormV3", "Elu", "Selu", "Softplus", "LeakyRelu", "Tile",
                       "Pad", "GatherV2", "DepthwiseConv2dNative"}
    np.testing.assert_allclose(here[0], back[0], rtol=1e-5, atol=1e-6)


def test_regions_tf_cannot_differentiate_keep_tf1compat_form_with_one_warning(caplog):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(np.ones((3, 2), np.float32), name="w")
    # Prod over an axis of unknown size; the same again; a cond whose branch holds Log
    # (its zero gradient in the untaken branch could be 0 * inf); nested while loops,
    # the inner one's trip count the outer counter (loop_unrolling.py unrolls only fixed
    # ones), its body a tf.cond reading a resource variable in a branch (not a variable
    # the nested backward loop reads: neither unrolled nor a nested backward loop), and
    # its array read after it by a gather.
    prod = tf.gradients(tf.reduce_sum(tf.reduce_prod(tf.matmul(x, w), 0)), [w])[0]
    again = tf.gradients(tf.reduce_sum(tf.reduce_prod(tf.matmul(x, w) * 2.0, 0)), [w])[0]
    cond = tf.gradients(tf.cond(tf.reduce_sum(x) > 0, lambda: tf.reduce_sum(tf.log(w)),
                                lambda: tf.reduce_sum(w * 2.0)), [w])[0]
    r = tf.get_variable("r", [3, 2], initializer=tf.ones_initializer(), use_resource=True)
    loop = tf.gradients(tf.while_loop(
        lambda i, v: i < 2,
        lambda i, v: (i + 1, tf.while_loop(lambda j, ta: j <= i, lambda j, ta: (
            j + 1, ta.write(j, tf.cond(j > 0, lambda: v * r * w, lambda: v + w))),
            [0, tf.TensorArray(tf.float32, i + 1)])[1].gather([i])[0]),
        [0, tf.ones([3, 2])])[1], [w])[0]
    tf.global_variables_initializer()
    with caplog.at_level(logging.WARNING):
        gd, nodes = _nodes("SymbolicGradient")
    assert [("Ty" in n.attr, "f" in n.attr) for n in nodes] == [(True, False)] * 4
    messages = [r.getMessage() for r in caplog.records if "SymbolicGradient" in r.getMessage()]
    assert len(messages) == 3, messages
    assert "Prod" in messages[0] and "Log" in messages[1]
    assert "takes a resource other than a TensorArray" in messages[2]
    with tf.Session() as sess:
        sess.run("init")
        here = sess.run([prod, again, cond, loop], {x: X})
    back = _reimport(gd, [prod.name, again.name, cond.name, loop.name], {"x:0": X})
    for a, b in zip(here, back):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_gradient_through_a_tensor_array_write_is_not_cut():
    x = tf.placeholder(tf.float32, [3], name="x")
    w = tf.Variable(2.0, name="w")
    ta = tf.TensorArray(tf.float32, size=1).write(0, x * w)
    g, = tf.gradients(tf.reduce_sum(ta.read(0)), [w])
    _, (node,) = _nodes("SymbolicGradient")
    assert "f" not in node.attr
    with tf.Session() as sess:
        sess.run(w.initializer)
        assert sess.run(g, {x: np.ones(3, np.float32)}) == pytest.approx(3.0)


def test_hessians_without_loops_are_written_in_tf_form():
    """tf.hessians of a loop-free region: TF's SymbolicGradient nodes only (the rows of
    the Jacobian gradients of tangent functions: loop_second_order.py), read back to
    the same values; real TF's runs of such files: test_second_order_plain.py."""
    x = tf.placeholder(tf.float32, [3], name="x")
    y = tf.reduce_sum(x ** 3)
    h, = tf.hessians(y, x)
    gd, nodes = _nodes("SymbolicGradient")
    assert nodes and all("f" in n.attr for n in nodes)
    feeds = {"x:0": np.array([1.0, 2.0, 3.0], np.float32)}
    np.testing.assert_allclose(_reimport(gd, h.name, feeds), np.diag([6.0, 12.0, 18.0]),
                               rtol=1e-6)


def test_tf_form_is_written_back_as_it_came():
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    w = tf.Variable(np.ones((3, 2), np.float32), name="w")
    tf.gradients(tf.reduce_sum(tf.sigmoid(tf.matmul(x, w))), [w])
    first, (node,) = _nodes("SymbolicGradient")
    with tf.Graph().as_default():
        tf.import_graph_def(first, name="")
        second, (again,) = _nodes("SymbolicGradient")
    assert again == node
    assert [f.signature for f in second.library.function] == \
        [f.signature for f in first.library.function]


def test_differentiable_op_types_are_those_real_tf_differentiated():
    import json
    import os
    path = os.path.join(os.path.dirname(__file__), "fixtures", "tf_function_gradients.json")
    with open(path) as f:
        recorded = json.load(f)
    assert gradient_export.TF_DIFFERENTIABLE_OP_TYPES <= set(recorded["differentiated"])
    # Every lowering was checked by a probe TF ran to tf1compat's values.
    passing = {name for name, p in recorded["probes"].items() if p["ok"]}
    assert {"elu", "selu", "softplus", "leaky_relu", "softmax_ce", "sparse_softmax_ce",
            "l2_loss", "add_n", "dropout", "dropout_tensor_rate", "fused_batch_norm",
            "tile", "pad", "gather", "depthwise", "depthwise_multiplier", "reduce_prod",
            "reduce_prod_keepdims", "reduce_prod_all", "fused_batch_norm_nchw",
            "fused_batch_norm_nchw_inference", "fused_batch_norm_half",
            "fused_batch_norm_bfloat16", "partitioned_embedding",
            "partitioned_embedding_div", "cond_taken", "cond_not_taken",
            "cond_dropout_training", "cond_dropout_inference",
            "cond_fused_batch_norm_training", "cond_fused_batch_norm_inference",
            "cumsum", "cumsum_exclusive_reverse", "cumprod",
            "cumprod_zeros_exclusive_reverse"} <= passing
    # TF's own ops that its function gradients lack: why those are rewritten.
    for op_type in ("If", "StatelessIf", "While", "StatelessWhile", "Prod", "GatherV2",
                    "DynamicStitch", "ParallelDynamicStitch", "AddN"):
        assert recorded["tf_own_ops"][op_type] == f"No gradient defined for op: {op_type}"
    assert recorded["tf_own_ops"]["Switch/Merge"] != "ok"


def test_ys_outside_the_region_and_sources_among_the_ys():
    def build():
        x = tf.placeholder(tf.float32, [4, 3], name="x")
        w = tf.Variable(np.full((3, 2), 0.5, np.float32), name="w")
        y = tf.matmul(x, w)
        stopped = tf.stop_gradient(y * 3.0)
        return tf.gradients([y, stopped], [w]) + tf.gradients([y, x], [w, x])
    here, back, gd = _gradient_values(build, {"x:0": X})
    assert all("f" in n.attr for n in gd.node if n.op == "SymbolicGradient")
    np.testing.assert_allclose(here[0], X.T @ np.ones((4, 2), np.float32), rtol=1e-6)
    np.testing.assert_allclose(here[2], np.ones((4, 3)) + np.ones((4, 2)) @ np.full((2, 3), 0.5))
    for a, b in zip(here, back):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_a_file_of_an_earlier_version_runs_and_is_written_back(caplog):
    import os
    prefix = os.path.join(os.path.dirname(__file__), "fixtures", "tf1compat_written",
                          "name_based", "model.ckpt-1")
    fetches = ["gradients/AddN:0", "gradients/embedding_lookup/GatherV2_grad/Reshape:0"]
    with tf.Graph().as_default() as graph:
        saver = tf.train.import_meta_graph(prefix + ".meta")
        old = graph.get_operation_by_name("gradients/SymbolicGradient")
        assert old.attrs.get("f") is None and old.attrs["Ty"]      # tf1compat's form
        fresh = tf.gradients(graph.get_tensor_by_name("add:0"),
                             [graph.get_tensor_by_name("w:0")])
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            before = sess.run(fetches + fresh)
        with caplog.at_level(logging.WARNING):
            _, nodes = _nodes("SymbolicGradient")
            meta = tf.train.export_meta_graph(saver_def=saver.as_saver_def())
    # The old form is written in TF's now: its partitioned embedding lookup's
    # ParallelDynamicStitch is lowered (gradient_lowering._stitch).
    assert [("f" in n.attr) for n in nodes] == [True, True]
    assert "SymbolicGradient" not in caplog.text
    np.testing.assert_allclose(before[0], before[2], rtol=1e-6)
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(meta)
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            after = sess.run(fetches)
    for a, b in zip(after, before):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_gradient_inside_a_cond_branch_is_written_in_tf_form(caplog):
    """A tf.gradients in a tf.cond branch is TF's SymbolicGradient inside the branch
    (TF imports the file and computes the same: graph_export_cases
    `case_gradient_in_cond_branch`); one inside a loop body keeps tf1compat's form."""
    from tests.graph_export_cases import case_gradient_in_cond_branch
    from tests.gradient_export_util import export_with_warnings
    case_gradient_in_cond_branch(tf)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    grads = [n for n in gd.node if n.op == "SymbolicGradient"]
    assert [n.name for n in grads] == ["cond/gradients/SymbolicGradient"]
    assert "f" in grads[0].attr and "Ty" not in grads[0].attr
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [3], name="x")
    tf.while_loop(lambda i, a: i < 2,
                  lambda i, a: (i + 1, a + tf.gradients(tf.reduce_sum(tf.sin(a * x)), a)[0]),
                  [0, x])
    _, warned = export_with_warnings(caplog)
    assert any("inside a tf.while_loop" in m for m in warned), warned
