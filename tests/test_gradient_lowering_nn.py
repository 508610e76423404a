"""Gradients of transposed convolutions, Tile with run-time multiples, reductions over
negative axes and ops without a gradient (rounding, arg max, one-hot, zeros_like) in
TF's SymbolicGradient form (graphdef/gradient_lowering_nn.py, gradient_export.py).

What real TF computes from such files is recorded by scripts/check_tf_reads_graphs.py
(tests/graph_training_nn_cases.py: DCGAN, a transformer's key masks, a U-Net of
run-time image sizes) and by
scripts/probe_tf_function_gradients.py (tests/fixtures/tf_function_gradients.json); the
tests replay it. The other layouts and paddings are checked in tf1compat: the gradient
from the exported file (the lowered forward function, differentiated) is the in-process
one.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.graphdef import graph_export
from tests import graph_training_nn_cases
from tests.gradient_export_util import (check_recorded_training_case,  # noqa: F401
                                         export_with_warnings, fresh_graph)

PROBES = os.path.join(os.path.dirname(__file__), "fixtures", "tf_function_gradients.json")
IMAGES = np.cos(np.arange(2 * 5 * 4 * 3, dtype=np.float32) * 0.7).reshape(2, 5, 4, 3)


@pytest.mark.parametrize("case", graph_training_nn_cases.NN_TRAINING_CASES,
                         ids=lambda fn: fn.__name__[len("case_"):])
def test_own_training_steps_give_the_weights_tf_computed_from_the_file(case, caplog):
    check_recorded_training_case(case, caplog, {"Conv2DBackpropInput", "Tile", "ZerosLike",
                                                "ArgMax", "OneHot", "Round", "Floor",
                                                "FloorDiv"})


def test_tf_differentiates_the_lowered_probes():
    with open(PROBES) as f:
        probes = json.load(f)["probes"]
    for name in ("conv2d_transpose", "tile_run_time_multiples", "resize_bilinear",
                 "resize_nearest", "resize_bilinear_half_pixel",
                 "resize_bilinear_align_corners", "resize_nearest_align_corners",
                 "resize_nearest_half_pixel", "mirror_pad", "mirror_pad_symmetric",
                 "segment_sum", "unsorted_segment_sum", "pad_v2",
                 "sparse_segment_mean_sqrtn"):
        assert probes[name]["ok"], probes[name]
    assert "Conv2DBackpropInput" not in probes["conv2d_transpose"]["types"]
    assert "Tile" not in probes["tile_run_time_multiples"]["types"]
    assert "MirrorPad" not in probes["mirror_pad"]["types"]


def _gradients_here_and_from_the_file(build, feeds):
    """The gradients build() returns, in process and from its exported graph imported
    (the forward functions written as TF's SymbolicGradient, differentiated)."""
    with tf.Graph().as_default():
        grads = build()
        init = tf.global_variables_initializer()
        with tf.Session() as sess:
            sess.run(init)
            here = sess.run(grads, feeds)
        gd = graph_export.graph_to_graph_def()
        assert all("f" in n.attr and "Ty" not in n.attr
                   for n in gd.node if n.op == "SymbolicGradient")
        names = [g.name for g in grads]
    with tf.Graph().as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as sess:
            sess.run(init.name)
            back = sess.run(names, feeds)
    return here, back, gd


def _kernel(shape):
    return tf.Variable(np.sin(np.arange(np.prod(shape), dtype=np.float32)).reshape(shape),
                       name="kernel")


def _transposed_convolution_gradients(x, data_format, padding, strides, sizes):
    """The kernel's and `x`'s gradients of a loss of conv2d_transpose(x) to the output
    sizes `sizes` (channels last: batch, height, width, channels; ints or tensors)."""
    kernel = _kernel([3, 3, 2, 3])
    value = tf.transpose(x, [0, 3, 1, 2]) if data_format == "NCHW" else x
    shape = [sizes[i] for i in ([0, 3, 1, 2] if data_format == "NCHW" else range(4))]
    y = tf.nn.conv2d_transpose(value, kernel, tf.stack(shape),
                               [1] + strides + [1] if data_format == "NHWC"
                               else [1, 1] + strides, padding, data_format=data_format)
    loss = tf.reduce_sum(tf.sin(y) * tf.cos(y * 0.3 + 0.2))
    return tf.gradients(loss, [kernel, x])


@pytest.mark.parametrize("data_format,padding,strides,size", [
    ("NHWC", "SAME", [2, 2], [10, 8]), ("NHWC", "SAME", [2, 3], [9, 12]),
    ("NHWC", "VALID", [2, 1], [11, 6]), ("NCHW", "SAME", [2, 2], [10, 8]),
    ("NHWC", [[0, 0], [1, 2], [0, 1], [0, 0]], [2, 2], [8, 8])],
    ids=["same", "same_uneven", "valid", "nchw", "explicit"])
def test_transposed_convolution_is_a_convolution_of_the_spread_gradient(
        data_format, padding, strides, size):
    def build():
        x = tf.placeholder(tf.float32, [None, 5, 4, 3], name="x")
        return _transposed_convolution_gradients(x, data_format, padding, strides,
                                                 [tf.shape(x)[0]] + size + [2])
    here, back, gd = _gradients_here_and_from_the_file(build, {"x:0": IMAGES})
    assert "Conv2DBackpropInput" not in {n.op for f in gd.library.function
                                         for n in f.node_def}
    for a, b in zip(here, back):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("data_format,padding,strides,size", [
    ("NHWC", "SAME", [2, 2], [(2, 0), (2, 0)]), ("NHWC", "SAME", [2, 3], [(2, -1), (3, 0)]),
    ("NHWC", "VALID", [2, 1], [(2, 1), (1, 2)]), ("NCHW", "SAME", [2, 2], [(2, 0), (2, -1)]),
    ("NHWC", "SAME", [1, 1], [(1, 0), (1, 0)]), ("NHWC", "VALID", [3, 3], [(3, 2), (3, 0)])],
    ids=["same", "same_uneven", "valid", "nchw", "stride_1", "valid_stride_3"])
def test_transposed_convolution_of_run_time_sizes(data_format, padding, strides, size):
    """tf_unet's deconv2d: the output shape a tf.stack of the input's tf.shape pieces
    (each spatial size `a * size + b` here), the channels `tf.shape(x)[3] // 2`
    (gradient_lowering_nn._conv_transpose_run_time; the FloorDiv an input of f)."""
    def build():
        x = tf.placeholder(tf.float32, [None, None, None, 3], name="x")
        dims = tf.shape(x)
        return _transposed_convolution_gradients(x, data_format, padding, strides, [
            dims[0]] + [dims[1 + k] * a + b for k, (a, b) in enumerate(size)] +
            [dims[3] // 2 + 1])
    here, back, gd = _gradients_here_and_from_the_file(build, {"x:0": IMAGES})
    body = {n.op for f in gd.library.function for n in f.node_def}
    assert not body & {"Conv2DBackpropInput", "FloorDiv"}, body
    for a, b in zip(here, back):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("padding,strides,size,kernel_seen,x_seen", [
    ([[0, 0], [1, 2], [0, 1], [0, 0]], [2, 2], [(2, -1), (2, 1)], [3, 3, 2, 3],
     [None, None, None, 3]),
    ([[0, 0], [2, 0], [1, 1], [0, 0]], [1, 3], [(1, 0), (3, -2)], [3, 3, 2, 3],
     [None, None, None, 3]),
    ("SAME", [2, 2], [(2, 0), (2, -1)], None, [None, 5, 4, 3]),
    ("VALID", [2, 1], [(2, 2), (1, 2)], [3, 3, None, None], [None, 5, 4, 3]),
    ("SAME", [2, 3], [(2, -1), (3, 0)], [3, 3, 2, 3], [None, 5, 4, None]),
    ([[0, 0], [1, 0], [2, 1], [0, 0]], [2, 2], [(2, 1), (2, -1)], None,
     [None, None, None, None])],
    ids=["explicit_run_time_sizes", "explicit_stride_1_3", "kernel_unknown",
         "kernel_channels_unknown", "gradient_channels_unknown", "explicit_all_unknown"])
def test_transposed_convolution_of_run_time_kernel_and_channels(padding, strides, size,
                                                                kernel_seen, x_seen):
    """EXPLICIT padding of run-time sizes, and a kernel's sizes or the gradient's channels
    known at run time only (the kernel passed through tf.placeholder_with_default of a
    partial shape): the sizes read from tf.shape in the forward function (each spatial
    output size `a * size + b` of the input's)."""
    def build():
        x = tf.placeholder(tf.float32, x_seen, name="x")
        kernel = _kernel([3, 3, 2, 3])
        seen = tf.placeholder_with_default(kernel, kernel_seen)
        dims = tf.shape(x)
        spatial = [dims[1 + k] * a + b for k, (a, b) in enumerate(size)] \
            if None in x_seen[1:3] else [(5, 4)[k] * a + b for k, (a, b) in enumerate(size)]
        y = tf.nn.conv2d_transpose(x, seen, tf.stack([dims[0]] + spatial + [2]),
                                   [1] + strides + [1], padding)
        loss = tf.reduce_sum(tf.sin(y) * tf.cos(y * 0.3 + 0.2))
        return tf.gradients(loss, [kernel, x])
    here, back, gd = _gradients_here_and_from_the_file(build, {"x:0": IMAGES})
    assert "Conv2DBackpropInput" not in {n.op for f in gd.library.function
                                         for n in f.node_def}
    for a, b in zip(here, back):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("resize", [
    lambda x: tf.image.resize_bilinear(x, [9, 7]),
    lambda x: tf.image.resize_bilinear(x, [3, 8], align_corners=True),
    lambda x: tf.image.resize_bilinear(x, [10, 6], half_pixel_centers=True),
    lambda x: tf.image.resize_nearest_neighbor(x, [10, 8]),
    lambda x: tf.image.resize_nearest_neighbor(x, [9, 3], align_corners=True),
    lambda x: tf.image.resize_nearest_neighbor(x, [9, 9], half_pixel_centers=True),
    lambda x: tf.pad(x, [[0, 0], [2, 1], [0, 3], [0, 0]], "REFLECT"),
    lambda x: tf.pad(x, [[1, 0], [0, 2], [3, 1], [0, 1]], "SYMMETRIC")],
    ids=["bilinear", "bilinear_align", "bilinear_half", "nearest", "nearest_align",
         "nearest_half", "reflect", "symmetric"])
def test_resizes_and_mirror_pads_are_constant_products_and_slices(resize):
    def build():
        x = tf.placeholder(tf.float32, [None, 5, 4, 3], name="x")
        kernel = _kernel([1, 1, 3, 3])
        y = resize(tf.nn.conv2d(x, kernel, [1, 1, 1, 1], "SAME"))
        return tf.gradients(tf.reduce_sum(tf.sin(y) * tf.cos(y * 0.3 + 0.2)), [kernel, x])
    here, back, gd = _gradients_here_and_from_the_file(build, {"x:0": IMAGES})
    assert not {"ResizeBilinear", "ResizeNearestNeighbor", "MirrorPad"} & {
        n.op for f in gd.library.function for n in f.node_def}
    for a, b in zip(here, back):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_segment_sums_and_constant_pads():
    def build():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.linspace(-1, 1, 6, dtype=np.float32).reshape(3, 2), name="w")
        h = tf.matmul(x, w)
        unsorted = tf.unsorted_segment_sum(h, tf.constant([2, 0, 2, 1]), 4)
        # ids of a constant: the segment count is one past the largest
        sorted_ = tf.segment_sum(tf.stack([h, h * 2.0], 1), tf.constant([0, 0, 1, 3]))
        padded = tf.pad(h, [[1, 0], [0, 2]], constant_values=0.7)
        return tf.gradients(tf.reduce_sum(tf.sin(unsorted)) + tf.reduce_sum(tf.cos(sorted_)) +
                            tf.reduce_sum(tf.sin(padded) * padded), [w])
    here, back, gd = _gradients_here_and_from_the_file(build, {"x:0": IMAGES[0, :4, 0]})
    assert not {"SegmentSum", "UnsortedSegmentSum", "PadV2"} & {
        n.op for f in gd.library.function for n in f.node_def}
    np.testing.assert_allclose(here[0], back[0], rtol=1e-6)


def test_sparse_embedding_lookups_of_every_combiner():
    """embedding_lookup_sparse (feature columns, canned estimators): SparseSegmentSum,
    Mean and SqrtN as one-hot products (an empty segment, a repeated id)."""
    def build():
        emb = tf.Variable(np.cos(np.arange(30, dtype=np.float32)).reshape(10, 3), name="emb")
        ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 2]],
                              tf.constant([3, 7, 3, 1], tf.int64), [4, 3])
        outs = [tf.nn.embedding_lookup_sparse(emb, ids, None, combiner=combiner)
                for combiner in ("sum", "mean", "sqrtn")]
        loss = tf.add_n([tf.reduce_sum(tf.sin(o) * (k + 1.0)) for k, o in enumerate(outs)])
        return [tf.convert_to_tensor(g) for g in tf.gradients(loss, [emb])]
    here, back, gd = _gradients_here_and_from_the_file(build, {})
    assert not {"SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN"} & {
        n.op for f in gd.library.function for n in f.node_def}
    np.testing.assert_allclose(here[0], back[0], rtol=1e-6, atol=1e-7)


def test_tile_with_run_time_multiples_and_negative_axis_reductions():
    def build():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.linspace(-1, 1, 6, dtype=np.float32).reshape(3, 2), name="w")
        h = tf.matmul(x, w)
        copies = tf.tile(tf.expand_dims(h, 1), tf.stack([1, tf.shape(x)[0], 1]))
        wide = tf.tile(h, tf.cast(tf.stack([tf.shape(x)[0] - 1, 2]), tf.int64))
        loss = tf.reduce_sum(tf.reduce_max(copies * copies, axis=-1)) + tf.reduce_sum(
            tf.reduce_mean(tf.sin(wide), axis=[-1])) + tf.reduce_sum(
            tf.reduce_min(tf.cos(copies), axis=-2, keepdims=True))
        return tf.gradients(loss, [w])
    here, back, gd = _gradients_here_and_from_the_file(build, {"x:0": IMAGES[0, 0]})
    body = [n for f in gd.library.function for n in f.node_def]
    assert "Tile" not in {n.op for n in body}
    np.testing.assert_allclose(here[0], back[0], rtol=1e-5, atol=1e-6)


def test_ops_without_a_gradient_are_inputs_of_the_forward_function():
    def build():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.full((3, 3), 0.4, np.float32), name="w")
        h = tf.matmul(x, w)
        picked = tf.one_hot(tf.argmax(h, -1), 3) + tf.floor(h) + tf.round(h) + \
            tf.zeros_like(h) + tf.ceil(h) + tf.ones_like(h)
        return tf.gradients(tf.reduce_sum(tf.sin(h) * picked), [w])
    here, back, gd = _gradients_here_and_from_the_file(build, {"x:0": IMAGES[0, 0]})
    body = {n.op for f in gd.library.function for n in f.node_def}
    assert not body & {"OneHot", "ArgMax", "Floor", "Round", "ZerosLike", "Ceil", "OnesLike"}
    np.testing.assert_allclose(here[0], back[0], rtol=1e-6)


def test_slice_sizes_to_the_end_are_written_as_shape_minus_begin():
    """TF's function gradient of Slice pads by shape - begin - size, one entry too many
    for a size of -1 (tf_unet's crop): the function's Slice takes shape - begin there."""
    def build():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.full((3, 4), 0.4, np.float32), name="w")
        h = tf.sin(tf.matmul(x, w))
        ends = tf.slice(h, [0, 2], [-1, -1]) * tf.slice(
            h, tf.stack([0, tf.shape(h)[1] // 2 - 1]), tf.stack([-1, 2]))
        return tf.gradients(tf.reduce_sum(ends * ends), [w])
    here, back, gd = _gradients_here_and_from_the_file(build, {"x:0": IMAGES[0, 0]})
    nodes = {n.name: n for f in gd.library.function for n in f.node_def}
    slices = [n for n in nodes.values() if n.op == "Slice"]
    assert len(slices) == 2
    assert all(nodes[n.input[2].split(":")[0]].op == "Select" for n in slices)
    np.testing.assert_allclose(here[0], back[0], rtol=1e-6)


def test_an_argument_named_as_a_node_of_the_function_is_renamed():
    """`tf.stack([n, 8])` twice: the first's constant input `stack/1` (an argument of the
    forward function, `stack_1`) and the second stack (the node `stack_1`)."""
    def build():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.full((3, 3), 0.4, np.float32), name="w")
        h = tf.matmul(x, w)
        a = tf.reshape(h, tf.stack([tf.shape(h)[0], 3]))
        b = tf.reshape(h, tf.stack([tf.shape(h)[0], 3, 1]))
        return tf.gradients(tf.reduce_sum(a * a) + tf.reduce_sum(tf.sin(b)), [w])
    here, back, gd = _gradients_here_and_from_the_file(build, {"x:0": IMAGES[0, 0]})
    for f in gd.library.function:
        args = {a.name for a in f.signature.input_arg}
        assert not args & {n.name for n in f.node_def}
    np.testing.assert_allclose(here[0], back[0], rtol=1e-6)


def test_dilated_transposed_convolution_keeps_tf1compat_form(caplog):
    x = tf.placeholder(tf.float32, [2, 5, 4, 3], name="x")
    kernel = _kernel([3, 3, 2, 3])
    y = tf.nn.conv2d_transpose(x, kernel, [2, 9, 8, 2], [1, 1, 1, 1], "VALID",
                               dilations=[1, 2, 2, 1])
    tf.gradients(tf.reduce_sum(y), [kernel])
    _, warned = export_with_warnings(caplog)
    assert len(warned) == 1 and "Conv2DBackpropInput with dilations" in warned[0]
