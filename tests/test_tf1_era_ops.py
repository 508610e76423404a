"""Ops only graphs from older TF versions hold, which TF 2.21 no longer builds (so no
recorded fixture): BatchNormWithGlobalNormalization (2015-era frozen models) and its
gradient, imported from a hand-written GraphDef; MaxPoolV2's refusal of a window known
only at run time (TF's UnimplementedError at the run); TopK and Conv3DBackpropInput/Filter
(V1) against their successors."""

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.serialization.messages import GraphDef


def _node(graph_def, name, op, inputs=(), **attrs):
    node = graph_def.node.add()
    node.name, node.op = name, op
    node.input.extend(inputs)
    for key, value in attrs.items():
        if isinstance(value, bool):
            node.attr[key].b = value
        elif isinstance(value, float):
            node.attr[key].f = value
        else:
            node.attr[key].type = value
    return node


def _global_norm_graph(op):
    graph_def = GraphDef()
    for name in ("t", "m", "v", "beta_or_gamma", "gamma_or_backprop"):
        _node(graph_def, name, "Placeholder", dtype=1)
    _node(graph_def, "out", op, ["t", "m", "v", "beta_or_gamma", "gamma_or_backprop"], T=1,
          variance_epsilon=0.01, scale_after_normalization=True)
    return graph_def


def test_batch_norm_with_global_normalization_and_its_gradient():
    rng = np.random.RandomState(0)
    t = rng.randn(2, 3, 3, 4).astype(np.float32)
    m, beta = rng.randn(4).astype(np.float32), rng.randn(4).astype(np.float32)
    v, gamma = rng.rand(4).astype(np.float32) + 0.1, rng.rand(4).astype(np.float32) + 0.5
    factor = 1 / np.sqrt(v + 0.01) * gamma
    with tf.Graph().as_default():
        tf.import_graph_def(_global_norm_graph("BatchNormWithGlobalNormalization"),
                            name="")
        with tf.Session() as sess:
            out = sess.run("out:0", {"t:0": t, "m:0": m, "v:0": v, "beta_or_gamma:0": beta,
                                     "gamma_or_backprop:0": gamma})
    np.testing.assert_allclose(out, (t - m) * factor + beta, rtol=1e-5, atol=1e-6)

    backprop = rng.randn(*t.shape).astype(np.float32)
    with tf.Graph().as_default():
        tf.import_graph_def(_global_norm_graph("BatchNormWithGlobalNormalizationGrad"),
                            name="")
        with tf.Session() as sess:
            dx, dm, dv, db, dg = sess.run(["out:%d" % i for i in range(5)],
                                          {"t:0": t, "m:0": m, "v:0": v,
                                           "beta_or_gamma:0": gamma,
                                           "gamma_or_backprop:0": backprop})
    axes = (0, 1, 2)
    np.testing.assert_allclose(dx, backprop * factor, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dm, -(backprop * factor).sum(axes), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(db, backprop.sum(axes), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dg, (backprop * (t - m) / np.sqrt(v + 0.01)).sum(axes),
                               rtol=1e-4, atol=1e-5)
    want_dv = (backprop * (t - m) * gamma * -0.5 * (v + 0.01) ** -1.5).sum(axes)
    np.testing.assert_allclose(dv, want_dv, rtol=1e-4, atol=1e-5)


def test_max_pool_v2_with_a_run_time_window_is_refused_by_name():
    x = tf.placeholder(tf.float32, [1, 4, 4, 1])
    ksize = tf.placeholder(tf.int32, [4])
    out = tf.raw_ops.MaxPoolV2(input=x, ksize=ksize, strides=[1, 1, 1, 1], padding="VALID")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.UnimplementedError, match="ksize known only at run"):
            sess.run(out, {x: np.zeros([1, 4, 4, 1], np.float32), ksize: [1, 2, 2, 1]})


def _top_k_v1_graph(k):
    graph_def = GraphDef()
    _node(graph_def, "x", "Placeholder", dtype=1)
    _node(graph_def, "top", "TopK", ["x"], T=1, sorted=True).attr["k"].i = k
    return graph_def


def test_top_k_v1_is_top_k_v2_with_k_as_an_attr():
    """TF 0.x's TopK (TF 2.21 refuses to build it): an imported node gives TopKV2's values,
    int32 indices (ties in index order), gradient, and its error for k > columns."""
    x = np.array([[3., 1., 3., 2., 5.], [0., -1., 4., 4., 4.]], np.float32)
    with tf.Graph().as_default():
        tf.import_graph_def(_top_k_v1_graph(3), name="")
        graph = tf.get_default_graph()
        values, indices = graph.get_tensor_by_name("top:0"), graph.get_tensor_by_name("top:1")
        assert indices.dtype == tf.int32 and values.dtype == tf.float32
        feed = graph.get_tensor_by_name("x:0")
        want_values, want_indices = tf.nn.top_k(feed, 3)
        grad = tf.gradients(tf.reduce_sum(values * values), feed)[0]
        want_grad = tf.gradients(tf.reduce_sum(want_values * want_values), feed)[0]
        with tf.Session() as sess:
            got = sess.run([values, indices, grad], {feed: x})
            want = sess.run([want_values, want_indices, want_grad], {feed: x})
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(got[1], [[4, 0, 2], [2, 3, 4]])

    with tf.Graph().as_default():
        tf.import_graph_def(_top_k_v1_graph(6), name="")
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="at least k columns"):
                sess.run("top:0", {"x:0": x})


def _conv3d_backprop_v1_graph(op, padding, strides, shapes):
    graph_def = GraphDef()
    for name, shape in zip(("x", "w", "dy"), shapes):
        node = _node(graph_def, name, "Placeholder", dtype=1)
        if shape is not None:
            node.attr["shape"].shape.dim.extend([])
            for size in shape:
                node.attr["shape"].shape.dim.add().size = size
    node = _node(graph_def, "out", op, ["x", "w", "dy"], T=1)
    node.attr["padding"].s = padding.encode()
    node.attr["strides"].list.i.extend(strides)
    return graph_def


@pytest.mark.parametrize("static", [True, False], ids=["static_shapes", "run_time_shapes"])
@pytest.mark.parametrize("padding, strides", [("SAME", [1, 2, 1, 2, 1]),
                                              ("VALID", [1, 1, 1, 1, 1])])
def test_conv3d_backprop_v1_is_v2_given_the_tensor_not_its_shape(padding, strides, static):
    """TF 0.x's Conv3DBackpropInput/Filter (TF 2.21 refuses to build them) compute what
    tf.gradients of conv3d computes (V2's kernels)."""
    rng = np.random.RandomState(1)
    x = rng.randn(2, 4, 5, 6, 3).astype(np.float32)
    w = rng.randn(2, 3, 2, 3, 4).astype(np.float32)
    with tf.Graph().as_default():
        xc, wc = tf.constant(x), tf.constant(w)
        y = tf.nn.conv3d(xc, wc, strides, padding)
        dy = rng.randn(*y.shape.as_list()).astype(np.float32)
        want = tf.gradients(y, [xc, wc], tf.constant(dy))
        with tf.Session() as sess:
            want = sess.run(want)
    shapes = (x.shape, w.shape, dy.shape) if static else (None, None, None)
    for k, op in enumerate(("Conv3DBackpropInput", "Conv3DBackpropFilter")):
        with tf.Graph().as_default():
            tf.import_graph_def(_conv3d_backprop_v1_graph(op, padding, strides, shapes),
                                name="")
            out = tf.get_default_graph().get_tensor_by_name("out:0")
            if static:
                assert out.shape.as_list() == list((x, w)[k].shape)
            with tf.Session() as sess:
                got = sess.run(out, {"x:0": x, "w:0": w, "dy:0": dy})
        np.testing.assert_allclose(got, want[k], rtol=1e-5, atol=1e-5, err_msg=op)
