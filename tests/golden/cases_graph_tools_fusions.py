"""Golden cases: TF's graph tools' rewrites that make other op types — optimize_for_inference's
FusedPadConv2D / FusedResizeAndPadConv2D fusions and `fuse_decomposed_batch_norm`, and
freezing resource-variable gathers (ResourceGather -> GatherV2, ResourceGatherNd ->
GatherNd). Each records the rewritten GraphDef's nodes, their attrs and the values the graph
computes before and after on a fixed input (batch 1 for the fused convolutions: TF 2.21's
kernels repeat batch element 0's result for every element, ops/nn_conv_fused.py)."""

from __future__ import annotations

import importlib

import numpy as np

from tests.golden.harness import catch

_IMG = np.linspace(-1.0, 1.0, 6 * 6 * 3, dtype=np.float32).reshape(1, 6, 6, 3)


def _lib(tf):
    """`tensorflow.python.tools.optimize_for_inference_lib` of the TF under test."""
    if tf.__name__.startswith("tf1compat"):
        from tf1compat.shim import INTERNAL_PATHS
        return importlib.import_module(
            INTERNAL_PATHS["tensorflow.python.tools.optimize_for_inference_lib"])
    return importlib.import_module("tensorflow.python.tools.optimize_for_inference_lib")


def _const(tf, shape, seed, low=-1.0, high=1.0):
    return tf.constant(np.random.RandomState(seed).uniform(low, high, shape).astype(np.float32))


def _run(tf, graph_def, feed, fetch="out:0", feed_name="x:0"):
    with tf.Graph().as_default() as g:
        tf.import_graph_def(graph_def, name="")
        with tf.Session(graph=g) as sess:
            return sess.run(fetch, {feed_name: feed})


def _attrs(node):
    """A node's attrs as plain values (the TensorProtos of Consts left out)."""
    out = {}
    for key in sorted(node.attr):
        value = node.attr[key]
        kind = value.WhichOneof("value")
        if kind == "list":
            out[key] = list(value.list.i) or [s.decode() for s in value.list.s]
        elif kind in ("s",):
            out[key] = value.s.decode()
        elif kind in ("b", "i", "type"):
            out[key] = int(getattr(value, kind))
        elif kind == "f":
            out[key] = round(value.f, 7)
        else:
            out[key] = kind
    return out


def _described(graph_def, lib):
    consts = {n.name: lib.values_from_const(n) for n in graph_def.node if n.op == "Const"
              and n.name.endswith(("_dummy_paddings", "/gamma", "/axis"))}
    return {"nodes": [[n.name, n.op, list(n.input)] for n in graph_def.node],
            "attrs": {n.name: _attrs(n) for n in graph_def.node if n.op != "Const"},
            "consts": consts}


def _resize_pad_graph(tf):
    """ResizeBilinear -> MirrorPad -> Conv2D, MirrorPad -> Conv2D, ResizeBilinear
    (align_corners) -> Conv2D, a half-pixel ResizeBilinear -> Conv2D (TF's fusion drops
    half_pixel_centers), a MirrorPad another op also reads, and a MirrorPad of a Relu."""
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 6, 6, 3], name="x")
        w = _const(tf, [3, 3, 3, 2], 1)
        pads = tf.constant([[0, 0], [1, 1], [2, 1], [0, 0]], name="pads")
        a = tf.nn.conv2d(tf.pad(tf.image.resize_bilinear(x, [9, 8], name="resize_a"), pads,
                                mode="REFLECT", name="pad_a"), w, [1, 1, 1, 1], "VALID",
                         name="conv_a")
        b = tf.nn.conv2d(tf.pad(x, pads, mode="SYMMETRIC", name="pad_b"), w, [1, 2, 1, 1],
                         "SAME", name="conv_b")
        c = tf.nn.conv2d(tf.image.resize_bilinear(x, [5, 7], align_corners=True,
                                                  name="resize_c"),
                         w, [1, 2, 2, 1], "SAME", name="conv_c")
        d = tf.nn.conv2d(tf.image.resize_bilinear(x, [8, 8], half_pixel_centers=True,
                                                  name="resize_d"),
                         w, [1, 1, 1, 1], "SAME", name="conv_d")
        shared = tf.pad(tf.nn.relu(x, name="relu_e"), pads, mode="REFLECT", name="pad_e")
        e = tf.nn.conv2d(shared, w, [1, 1, 1, 1], "VALID", name="conv_e")
        parts = [tf.reduce_sum(t, [1, 2]) for t in (a, b, c, d, e, shared)]
        tf.concat(parts, 1, name="out")
    return g.as_graph_def()


def case_fuse_resize_and_conv(tf):
    lib = _lib(tf)
    graph_def = _resize_pad_graph(tf)
    fused = lib.fuse_resize_and_conv(graph_def, ["out"])
    optimized = lib.optimize_for_inference(graph_def, ["x"], ["out"],
                                           tf.float32.as_datatype_enum)
    toco = lib.optimize_for_inference(graph_def, ["x"], ["out"], tf.float32.as_datatype_enum,
                                      toco_compatible=True)
    return {"fused": _described(fused, lib),
            "optimized": [[n.name, n.op] for n in optimized.node],
            "toco": [[n.name, n.op] for n in toco.node],
            "before": _run(tf, graph_def, _IMG), "after": _run(tf, fused, _IMG),
            "optimized_out": _run(tf, optimized, _IMG)}


def _bn(tf, t, c, seed, name, gamma=True, swap=False):
    """A batch norm of constants written out as TF 1.x graphs have it, with "Add" ops."""
    with tf.name_scope(name):
        variance = _const(tf, [c], seed, 0.1, 2.0)
        eps = tf.constant(0.001, name="epsilon")
        rsqrt = tf.math.rsqrt(tf.raw_ops.Add(x=variance, y=eps, name="add"), name="Rsqrt")
        scale = tf.multiply(rsqrt, _const(tf, [c], seed + 1, 0.5, 1.5), name="mul") \
            if gamma else rsqrt
        data = tf.multiply(t, scale, name="mul_1")
        shift = tf.subtract(_const(tf, [c], seed + 2),
                            tf.multiply(_const(tf, [c], seed + 3), scale, name="mul_2"),
                            name="sub")
        pair = (shift, data) if swap else (data, shift)
        return tf.raw_ops.Add(x=pair[0], y=pair[1], name="add_1")


def _decomposed_graph(tf):
    """Three decomposed batch norms TF fuses (after a Conv2D, after a Relu of a Conv2D with
    the Add's inputs swapped and no gamma, after a depthwise conv), one after a MatMul and
    one with AddV2 it leaves."""
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 6, 6, 3], name="x")
        a = _bn(tf, tf.nn.conv2d(x, _const(tf, [3, 3, 3, 4], 1), [1, 1, 1, 1], "SAME",
                                 name="conv_a"), 4, 10, "bn_a")
        b = _bn(tf, tf.nn.relu(tf.nn.conv2d(a, _const(tf, [1, 1, 4, 4], 2), [1, 1, 1, 1],
                                            "VALID", name="conv_b")),
                4, 20, "bn_b", gamma=False, swap=True)
        c = _bn(tf, tf.nn.depthwise_conv2d(b, _const(tf, [3, 3, 4, 2], 3), [1, 1, 1, 1],
                                           "SAME", name="dw_c"), 8, 30, "bn_c")
        pooled = tf.reduce_mean(c, [1, 2], name="pool")
        d = _bn(tf, tf.matmul(pooled, _const(tf, [8, 3], 4), name="fc"), 3, 40, "bn_d")
        with tf.name_scope("bn_e"):
            e = tf.multiply(d, _const(tf, [3], 50), name="mul_1") + tf.subtract(
                _const(tf, [3], 51), tf.multiply(_const(tf, [3], 52), _const(tf, [3], 53)),
                name="sub")
        tf.identity(e, name="out")
    return g.as_graph_def()


def case_fuse_decomposed_batch_norm(tf):
    lib = _lib(tf)
    graph_def = _decomposed_graph(tf)
    fused = lib.fuse_decomposed_batch_norm(graph_def)
    optimized = lib.optimize_for_inference(graph_def, ["x"], ["out"],
                                           tf.float32.as_datatype_enum)
    return {"fused": _described(fused, lib),
            "optimized": [[n.name, n.op, list(n.input)] for n in optimized.node],
            "before": _run(tf, graph_def, _IMG), "after": _run(tf, fused, _IMG),
            "optimized_out": _run(tf, optimized, _IMG),
            "dims": [lib.get_const_dim_count(n) for n in graph_def.node
                     if n.op == "Const"][:6]}


def _gather_graph(tf):
    """Reads of resource variables as TF's graphs hold them: ResourceGather (one colocated
    with its variable, as embedding_lookup makes it) and ResourceGatherNd (written as raw
    ops: tf1compat's tf.gather of a resource variable is ReadVariableOp + GatherV2)."""
    with tf.Graph().as_default() as g:
        ids = tf.placeholder(tf.int32, [None], name="ids")
        emb = tf.get_variable("emb", initializer=np.arange(12, dtype=np.float32)
                              .reshape(4, 3) / 4.0, use_resource=True)
        table = tf.get_variable("table", initializer=np.arange(8, dtype=np.float32)
                                .reshape(2, 2, 2), use_resource=True)
        with tf.colocate_with(emb):
            a = tf.raw_ops.ResourceGather(resource=emb.handle, indices=ids, dtype=tf.float32,
                                          name="embedding_lookup")
        b = tf.raw_ops.ResourceGather(resource=emb.handle, indices=ids, dtype=tf.float32,
                                      name="g2")
        c = tf.raw_ops.ResourceGatherNd(resource=table.handle,
                                        indices=tf.stack([ids % 2, ids % 2], 1),
                                        dtype=tf.float32, name="gnd")
        tf.identity(tf.reduce_sum(a, 1) + tf.reduce_sum(b, 1) + tf.reduce_sum(c, 1),
                    name="out")
    return g


def case_freeze_resource_gather(tf):
    g = _gather_graph(tf)
    ids = np.array([3, 0, 2, 3], np.int32)
    with tf.Session(graph=g) as sess:
        sess.run(tf.global_variables_initializer())
        before = sess.run("out:0", {"ids:0": ids})
        frozen = tf.graph_util.convert_variables_to_constants(sess, g.as_graph_def(),
                                                              ["out"])
    nodes = [[n.name, n.op, list(n.input), sorted(n.attr)] for n in frozen.node]
    return {"nodes": nodes,
            "attrs": {n.name: _attrs(n) for n in frozen.node if n.op.startswith("Gather")},
            "axis": [[n.name, n.attr["value"].tensor.dtype,
                      np.asarray(tf.make_ndarray(n.attr["value"].tensor)).tolist()]
                     for n in frozen.node if n.name.endswith("/axis")],
            "before": before,
            "after": _run(tf, frozen, ids, feed_name="ids:0")}


def case_freeze_resource_gather_batch_dims(tf):
    with tf.Graph().as_default() as g:
        ids = tf.placeholder(tf.int32, [2, 1], name="ids")
        emb = tf.get_variable("emb", initializer=np.ones((2, 3, 4), np.float32),
                              use_resource=True)
        tf.identity(tf.raw_ops.ResourceGather(resource=emb.handle, indices=ids,
                                              dtype=tf.float32, batch_dims=1), name="out")
        with tf.Session(graph=g) as sess:
            sess.run(tf.global_variables_initializer())
            return catch(lambda: tf.graph_util.convert_variables_to_constants(
                sess, g.as_graph_def(), ["out"]))
