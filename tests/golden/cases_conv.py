"""Golden cases: convolutions and pooling (SAME at odd sizes and strides, VALID, explicit
padding, dilations, transposed convolutions, depthwise/separable/atrous, pooling edges)."""

import numpy as np

from tests.golden.harness import catch, describe, tolerance


def _x(shape, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def _ops(tf):
    return [(op.name, op.type) for op in tf.get_default_graph().get_operations()]


def _desc(outs):
    return {k: describe(v) for k, v in outs.items()}


@tolerance(1e-4, 1e-4)
def case_conv2d_padding(tf):
    xv = _x([2, 7, 6, 3])
    x = tf.placeholder(tf.float32, [None, 7, 6, 3], name="x")
    w3 = tf.constant(_x([3, 3, 3, 4], 1), name="w3")
    w2 = tf.constant(_x([2, 2, 3, 2], 2), name="w2")
    w4 = tf.constant(_x([4, 1, 3, 2], 3), name="w4")
    outs = {
        "same_s1": tf.nn.conv2d(x, w3, [1, 1, 1, 1], "SAME"),
        "same_s2": tf.nn.conv2d(x, w3, [1, 2, 2, 1], "SAME"),
        "same_s3": tf.nn.conv2d(x, w3, 3, "SAME"),
        "same_k2_s2": tf.nn.conv2d(x, w2, [1, 2, 2, 1], "SAME"),
        "same_k2_s1": tf.nn.conv2d(x, w2, [1, 1, 1, 1], "SAME"),
        "same_k4": tf.nn.conv2d(x, w4, [1, 2, 1, 1], "SAME"),
        "valid_s2": tf.nn.conv2d(x, w3, [1, 2, 2, 1], "VALID"),
        "valid_s13": tf.nn.conv2d(x, w3, [1, 3], "VALID"),
        "explicit": tf.nn.conv2d(x, w3, [1, 1, 1, 1], [[0, 0], [1, 2], [0, 3], [0, 0]]),
        "explicit_s2": tf.nn.conv2d(x, w2, [1, 2, 2, 1], [[0, 0], [2, 0], [1, 1], [0, 0]]),
        "dil2": tf.nn.conv2d(x, w3, [1, 1, 1, 1], "SAME", dilations=[1, 2, 2, 1]),
        "dil_valid": tf.nn.conv2d(x, w3, [1, 1, 1, 1], "VALID", dilations=[1, 2, 1, 1]),
        "dil_stride": tf.nn.conv2d(x, w3, [1, 2, 2, 1], "SAME", dilations=[1, 2, 2, 1]),
        "named": tf.nn.conv2d(x, w3, [1, 1, 1, 1], "SAME", name="c"),
        "filters_kw": tf.nn.conv2d(x, filters=w2, strides=1, padding="VALID"),
    }
    return {"values": _run(tf, outs, {x: xv}), "tensors": _desc(outs)}


@tolerance(1e-4, 1e-4)
def case_conv2d_groups_and_f64(tf):
    x = tf.constant(_x([1, 5, 5, 4]).astype(np.float64))
    w = tf.constant(_x([3, 3, 2, 6], 4).astype(np.float64))
    y = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME")
    return {"value": _run(tf, y), "t": describe(y)}


def case_conv2d_static_shapes(tf):
    w = tf.ones([3, 3, 3, 8])
    outs = {
        "unknown_spatial": tf.nn.conv2d(tf.placeholder(tf.float32, [None, None, None, 3]), w,
                                        [1, 2, 2, 1], "SAME"),
        "unknown_rank": tf.nn.conv2d(tf.placeholder(tf.float32), w, [1, 1, 1, 1], "VALID"),
        "unknown_filter": tf.nn.conv2d(tf.placeholder(tf.float32, [4, 9, 9, 3]),
                                       tf.placeholder(tf.float32), [1, 2, 2, 1], "SAME"),
        "nchw": tf.nn.conv2d(tf.placeholder(tf.float32, [None, 3, 9, 8]), w, [1, 1, 2, 2],
                             "SAME", data_format="NCHW"),
        "nchw_valid": tf.nn.conv2d(tf.placeholder(tf.float32, [2, 3, 9, 8]), w, [1, 1, 2, 2],
                                   "VALID", data_format="NCHW"),
        "dil_unknown": tf.nn.conv2d(tf.placeholder(tf.float32, [1, None, 10, 3]), w, 1,
                                    "VALID", dilations=3),
    }
    return _desc(outs)


def case_conv2d_errors(tf):
    x = tf.placeholder(tf.float32, [None, 5, 5, 3])
    return {
        "depth": catch(lambda: tf.nn.conv2d(x, tf.ones([3, 3, 2, 4]), [1, 1, 1, 1], "SAME")),
        "rank": catch(lambda: tf.nn.conv2d(tf.ones([5, 5, 3]), tf.ones([3, 3, 3, 4]),
                                           [1, 1, 1, 1], "SAME")),
        "padding": catch(lambda: tf.nn.conv2d(x, tf.ones([3, 3, 3, 4]), [1, 1, 1, 1], "FULL")),
        "explicit_str": catch(lambda: tf.nn.conv2d(x, tf.ones([3, 3, 3, 4]), [1, 1, 1, 1],
                                                   "EXPLICIT")),
        "explicit_len": catch(lambda: tf.nn.conv2d(x, tf.ones([3, 3, 3, 4]), [1, 1, 1, 1],
                                                   [[1, 1], [1, 1]])),
        "negative": catch(lambda: tf.nn.conv2d(x, tf.ones([7, 7, 3, 4]), [1, 1, 1, 1],
                                               "VALID")),
        "strides_len": catch(lambda: tf.nn.conv2d(x, tf.ones([3, 3, 3, 4]), [1, 1, 1],
                                                  "SAME")),
        "batch_stride": catch(lambda: tf.nn.conv2d(x, tf.ones([3, 3, 3, 4]), [2, 1, 1, 1],
                                                   "SAME")),
        "dtype": catch(lambda: tf.nn.conv2d(x, tf.ones([3, 3, 3, 4], tf.float64), 1, "SAME")),
    }


def case_conv2d_runtime_errors(tf):
    x = tf.placeholder(tf.float32, [None, None, None, None])
    y = tf.nn.conv2d(x, tf.ones([3, 3, 2, 4]), [1, 1, 1, 1], "VALID")
    return {
        "depth": catch(lambda: _run(tf, y, {x: np.ones([1, 5, 5, 3], np.float32)})),
        "small": catch(lambda: _run(tf, y, {x: np.ones([1, 2, 5, 2], np.float32)})),
        "ok": describe(y),
    }


@tolerance(1e-4, 1e-4)
def case_conv1d(tf):
    xv = _x([2, 9, 3])
    x = tf.placeholder(tf.float32, [None, 9, 3], name="x")
    w = tf.constant(_x([3, 3, 5], 1))
    w2 = tf.constant(_x([2, 3, 5], 2))
    outs = {
        "same": tf.nn.conv1d(x, w, 1, "SAME"),
        "same_s2": tf.nn.conv1d(x, w, 2, "SAME"),
        "k2_s2": tf.nn.conv1d(x, w2, stride=2, padding="SAME"),
        "valid_s2": tf.nn.conv1d(x, w, 2, "VALID"),
        "dil": tf.nn.conv1d(x, w, 1, "SAME", dilations=2),
        "input_kw": tf.nn.conv1d(input=x, filters=w, stride=[1, 3, 1], padding="VALID"),
        "named": tf.nn.conv1d(x, w, 1, "SAME", name="c1"),
    }
    return {"values": _run(tf, outs, {x: xv}), "tensors": _desc(outs), "ops": _ops(tf)}


@tolerance(1e-4, 1e-4)
def case_conv2d_transpose(tf):
    xv = _x([2, 5, 4, 3])
    x = tf.placeholder(tf.float32, [None, 5, 4, 3], name="x")
    w = tf.constant(_x([3, 3, 2, 3], 1))
    w2 = tf.constant(_x([2, 2, 2, 3], 2))
    w4 = tf.constant(_x([4, 4, 2, 3], 3))
    outs = {
        "same_s2_even": tf.nn.conv2d_transpose(x, w, [2, 10, 8, 2], [1, 2, 2, 1], "SAME"),
        "same_s2_odd": tf.nn.conv2d_transpose(x, w, [2, 9, 7, 2], [1, 2, 2, 1], "SAME"),
        "same_s1": tf.nn.conv2d_transpose(x, w, [2, 5, 4, 2], [1, 1, 1, 1], "SAME"),
        "valid_s2": tf.nn.conv2d_transpose(x, w, [2, 11, 9, 2], [1, 2, 2, 1], "VALID"),
        "valid_s2_extra": tf.nn.conv2d_transpose(x, w, [2, 12, 10, 2], [1, 2, 2, 1], "VALID"),
        "k2_s2": tf.nn.conv2d_transpose(x, w2, [2, 10, 8, 2], 2, "SAME"),
        "k4_s2": tf.nn.conv2d_transpose(x, w4, [2, 10, 8, 2], 2, "SAME"),
        "k4_s3": tf.nn.conv2d_transpose(x, w4, [2, 13, 11, 2], [1, 3, 3, 1], "SAME"),
        "tensor_shape": tf.nn.conv2d_transpose(x, w, tf.constant([2, 10, 8, 2]), 2, "SAME"),
        "explicit": tf.nn.conv2d_transpose(x, w, [2, 9, 6, 2], 1,
                                           [[0, 0], [0, 2], [1, 0], [0, 0]]),
        "named": tf.nn.conv2d_transpose(x, w, [2, 5, 4, 2], 1, "SAME", name="ct"),
        "backprop_input": tf.nn.conv2d_backprop_input([2, 9, 7, 2], w, x, [1, 2, 2, 1],
                                                      "SAME"),
    }
    return {"values": _run(tf, outs, {x: xv}), "tensors": _desc(outs), "ops": _ops(tf)}


@tolerance(1e-4, 1e-4)
def case_backprop_input_explicit_larger_before(tf):
    """Input gradients of EXPLICIT paddings larger before than after (torch's padding
    crops both ends alike: the axis computed whole and sliced), plain and depthwise."""
    dy = tf.constant(_x([2, 5, 4, 6], 2))
    w = tf.constant(_x([3, 3, 3, 6], 3))
    dw = tf.constant(_x([3, 3, 3, 2], 4))
    outs = {
        "conv_s1_3": tf.nn.conv2d_backprop_input([2, 5, 10, 3], w, dy, [1, 1, 3, 1],
                                                 [[0, 0], [2, 0], [1, 1], [0, 0]]),
        "conv_s2": tf.nn.conv2d_backprop_input([2, 11, 7, 3], w, dy, [1, 2, 2, 1],
                                               [[0, 0], [1, 0], [2, 1], [0, 0]]),
        "depthwise_s2": tf.nn.depthwise_conv2d_native_backprop_input(
            [2, 9, 7, 3], dw, dy, [1, 2, 2, 1], [[0, 0], [2, 0], [1, 1], [0, 0]]),
    }
    return {"values": _run(tf, outs), "tensors": _desc(outs)}


def case_conv2d_transpose_shapes_and_errors(tf):
    x = tf.placeholder(tf.float32, [4, 5, 5, 3])
    xu = tf.placeholder(tf.float32, [None, 5, 5, 3])
    w = tf.ones([3, 3, 2, 3])
    shape_ph = tf.placeholder(tf.int32, [4])
    bad = tf.nn.conv2d_transpose(xu, w, [2, 12, 12, 2], [1, 2, 2, 1], "SAME")
    return {
        "static": describe(tf.nn.conv2d_transpose(x, w, [4, 10, 10, 2], 2, "SAME")),
        "batch_unknown": describe(tf.nn.conv2d_transpose(xu, w, [4, 10, 10, 2], 2, "SAME")),
        "dynamic": describe(tf.nn.conv2d_transpose(x, w, shape_ph, 2, "SAME")),
        "runtime_mismatch": catch(lambda: _run(tf, bad, {xu: np.ones([2, 5, 5, 3],
                                                                     np.float32)})),
    }


@tolerance(1e-4, 1e-4)
def case_conv2d_backprop_filter(tf):
    x = tf.constant(_x([2, 7, 6, 3]))
    dy = tf.constant(_x([2, 4, 3, 4], 1))
    y = tf.nn.conv2d_backprop_filter(x, [3, 3, 3, 4], dy, [1, 2, 2, 1], "SAME")
    y2 = tf.nn.conv2d_backprop_filter(x, [2, 2, 3, 4], tf.constant(_x([2, 6, 5, 4], 2)),
                                      [1, 1, 1, 1], "VALID")
    return {"values": _run(tf, [y, y2]), "tensors": [describe(y), describe(y2)]}


@tolerance(rtol=1e-4, atol=1e-4)
def case_conv2d_one_output_channel_gradients(tf):
    """A filter with one output channel on a batch of one (gradient checkpointing's CIFAR
    ResNet stem): torch's CPU backward takes its slow path there."""
    rng = np.random.RandomState(3)
    x = tf.constant(rng.randn(1, 9, 9, 3).astype(np.float32))
    w = tf.constant(rng.randn(3, 3, 3, 1).astype(np.float32))
    outs = [tf.nn.conv2d(x, w, [1, s, s, 1], "SAME") for s in (1, 2)]
    loss = tf.add_n([tf.reduce_sum(tf.square(y)) for y in outs])
    with tf.Session() as sess:
        return sess.run(tf.gradients(loss, [x, w]))


@tolerance(1e-4, 1e-4)
def case_conv3d(tf):
    xv = _x([2, 5, 4, 3, 2])
    x = tf.placeholder(tf.float32, [None, 5, 4, 3, 2], name="x")
    w = tf.constant(_x([3, 2, 2, 2, 4], 1))
    wt = tf.constant(_x([2, 2, 2, 3, 2], 2))
    outs = {
        "same": tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], "SAME"),
        "same_s2": tf.nn.conv3d(x, w, [1, 2, 2, 2, 1], "SAME"),
        "valid": tf.nn.conv3d(x, w, [1, 1, 2, 1, 1], "VALID"),
        "transpose": tf.nn.conv3d_transpose(x, wt, [2, 10, 8, 6, 3], [1, 2, 2, 2, 1], "SAME"),
        "transpose_odd": tf.nn.conv3d_transpose(x, wt, [2, 9, 7, 5, 3], [1, 2, 2, 2, 1],
                                                "SAME"),
        "transpose_valid": tf.nn.conv3d_transpose(x, wt, [2, 6, 5, 4, 3], [1, 1, 1, 1, 1],
                                                  "VALID"),
    }
    return {"values": _run(tf, outs, {x: xv}), "tensors": _desc(outs)}


@tolerance(1e-4, 1e-4)
def case_depthwise_separable(tf):
    xv = _x([2, 7, 6, 3])
    x = tf.placeholder(tf.float32, [None, 7, 6, 3], name="x")
    dw = tf.constant(_x([3, 3, 3, 2], 1), name="dw")
    pw = tf.constant(_x([1, 1, 6, 4], 2), name="pw")
    outs = {
        "native": tf.nn.depthwise_conv2d_native(x, dw, [1, 1, 1, 1], "SAME"),
        "native_s2": tf.nn.depthwise_conv2d_native(x, dw, [1, 2, 2, 1], "SAME"),
        "native_valid": tf.nn.depthwise_conv2d_native(x, dw, [1, 2, 2, 1], "VALID"),
        "native_explicit": tf.nn.depthwise_conv2d_native(x, dw, [1, 1, 1, 1],
                                                         [[0, 0], [1, 0], [2, 2], [0, 0]]),
        "depthwise": tf.nn.depthwise_conv2d(x, dw, [1, 1, 1, 1], "SAME"),
        "depthwise_s2": tf.nn.depthwise_conv2d(x, dw, [1, 2, 2, 1], "VALID"),
        "depthwise_rate": tf.nn.depthwise_conv2d(x, dw, [1, 1, 1, 1], "SAME", rate=[2, 2]),
        "depthwise_rate_valid": tf.nn.depthwise_conv2d(x, dw, [1, 1, 1, 1], "VALID",
                                                       rate=[2, 1]),
        "separable": tf.nn.separable_conv2d(x, dw, pw, [1, 1, 1, 1], "SAME"),
        "separable_s2": tf.nn.separable_conv2d(x, dw, pw, [1, 2, 2, 1], "SAME"),
        "separable_rate": tf.nn.separable_conv2d(x, dw, pw, [1, 1, 1, 1], "SAME",
                                                 rate=[2, 2]),
    }
    uneq = tf.nn.depthwise_conv2d_native(x, dw, [1, 2, 1, 1], "VALID")
    return {"values": _run(tf, outs, {x: xv}), "tensors": _desc(outs), "ops": _ops(tf),
            "uneq": catch(lambda: _run(tf, uneq, {x: xv}))}


@tolerance(1e-4, 1e-4)
def case_atrous_and_convolution(tf):
    xv = _x([2, 9, 8, 3])
    x = tf.placeholder(tf.float32, [None, 9, 8, 3], name="x")
    w = tf.constant(_x([3, 3, 3, 2], 1), name="w")
    w1 = tf.constant(_x([3, 3, 2], 2), name="w1")
    x1 = tf.constant(_x([2, 11, 3], 3), name="x1")
    outs = {
        "atrous_same": tf.nn.atrous_conv2d(x, w, 2, "SAME"),
        "atrous_valid": tf.nn.atrous_conv2d(x, w, 3, "VALID"),
        "conv_plain": tf.nn.convolution(x, w, "SAME"),
        "conv_strides": tf.nn.convolution(x, w, "VALID", strides=[2, 1]),
        "conv_dil": tf.nn.convolution(x, w, "SAME", dilation_rate=[2, 3]),
        "conv_dil_valid": tf.nn.convolution(x, w, "VALID", dilation_rate=[1, 2]),
        "conv1d": tf.nn.convolution(x1, w1, "SAME"),
        "conv1d_dil": tf.nn.convolution(x1, w1, "SAME", dilation_rate=[2]),
        "named": tf.nn.convolution(x, w, "SAME", name="cv"),
    }
    return {"values": _run(tf, outs, {x: xv}), "tensors": _desc(outs), "ops": _ops(tf)}


def case_convolution_dynamic_dilated(tf):
    x = tf.placeholder(tf.float32, [None, None, None, 3], name="x")
    w = tf.constant(_x([3, 3, 3, 2], 1), name="w")
    y = tf.nn.convolution(x, w, "SAME", dilation_rate=[2, 2])
    xv = _x([1, 7, 5, 3], 2)
    return {"value": _run(tf, y, {x: xv}), "t": describe(y), "ops": _ops(tf)}


def case_space_to_batch(tf):
    x = tf.constant(np.arange(2 * 4 * 6 * 1, dtype=np.float32).reshape(2, 4, 6, 1))
    s2b = tf.space_to_batch_nd(x, [2, 3], [[0, 0], [1, 2]])
    b2s = tf.batch_to_space_nd(s2b, [2, 3], [[0, 0], [1, 2]])
    s2b_v1 = tf.space_to_batch(x, [[0, 0], [1, 1]], 2)
    return {"values": _run(tf, [s2b, b2s, s2b_v1]),
            "tensors": [describe(s2b), describe(b2s), describe(s2b_v1)],
            "bad": catch(lambda: tf.space_to_batch_nd(x, [3, 3], [[0, 0], [0, 0]]))}


def case_max_avg_pool(tf):
    xv = _x([2, 7, 6, 3])
    xv[0, 0, 0, 0] = -100.0
    x = tf.placeholder(tf.float32, [None, 7, 6, 3], name="x")
    outs = {}
    for pad in ("SAME", "VALID"):
        for k, s in ((2, 2), (3, 2), (3, 1), (2, 3), (4, 3), (1, 2)):
            outs[f"max_{pad}_{k}_{s}"] = tf.nn.max_pool(x, [1, k, k, 1], [1, s, s, 1], pad)
            outs[f"avg_{pad}_{k}_{s}"] = tf.nn.avg_pool(x, [1, k, k, 1], [1, s, s, 1], pad)
    outs["max_rect"] = tf.nn.max_pool(x, [1, 3, 2, 1], [1, 2, 1, 1], "SAME")
    outs["avg_rect"] = tf.nn.avg_pool(x, [1, 2, 3, 1], [1, 1, 2, 1], "SAME")
    outs["max_int_args"] = tf.nn.max_pool(x, 3, 2, "SAME")
    outs["max_explicit"] = tf.nn.max_pool2d(x, 2, 2, [[0, 0], [1, 1], [0, 1], [0, 0]])
    outs["max2d"] = tf.nn.max_pool2d(x, 2, 2, "SAME")
    outs["avg2d"] = tf.nn.avg_pool2d(x, 3, 2, "SAME")
    outs["max_v2"] = tf.nn.max_pool_v2(x, 2, 2, "SAME")
    outs["avg_v2"] = tf.nn.avg_pool_v2(x, 3, 2, "SAME")
    outs["named"] = tf.nn.max_pool(x, 2, 2, "SAME", name="mp")
    return {"values": _run(tf, outs, {x: xv}), "tensors": _desc(outs)}


def case_avg_pool_edges(tf):
    x = tf.constant(np.arange(25, dtype=np.float32).reshape(1, 5, 5, 1))
    outs = {"k3s1": tf.nn.avg_pool(x, 3, 1, "SAME"), "k2s2": tf.nn.avg_pool(x, 2, 2, "SAME"),
            "k4s1": tf.nn.avg_pool(x, 4, 1, "SAME"), "k5s3": tf.nn.avg_pool(x, 5, 3, "SAME"),
            "f64": tf.nn.avg_pool(tf.cast(x, tf.float64), 3, 2, "SAME")}
    return _run(tf, outs)


def case_pool_int_and_types(tf):
    xi = tf.constant(np.arange(-8, 17, dtype=np.int32).reshape(1, 5, 5, 1))
    return {"max_int": _run(tf, tf.nn.max_pool(xi, 2, 2, "SAME")),
            "avg_int": catch(lambda: tf.nn.avg_pool(xi, 2, 2, "SAME")),
            "f64": _run(tf, tf.nn.max_pool(tf.cast(xi, tf.float64), 3, 2, "SAME"))}


def case_max_pool_nan_and_inf(tf):
    """TF's CPU max pooling starts each window at the lowest finite value and takes only
    strictly greater values: NaN never wins, a window of NaN and -inf gives -FLT_MAX (its
    gradient at the window's first position, for these non-overlapping windows)."""
    nan, inf = np.nan, np.inf
    xv = np.array([[nan, nan, -inf, 7.], [nan, nan, -inf, -inf], [1., nan, -inf, -inf],
                   [nan, 2., inf, -inf]], np.float32).reshape(1, 4, 4, 1)
    x = tf.placeholder(tf.float32, [1, 4, 4, 1], name="x")
    y = tf.nn.max_pool(x, 2, 2, "VALID")
    outs = {
        "valid": y,
        "grad": tf.gradients(y, x, grad_ys=tf.constant([1., 2., 3., 4.], shape=[1, 2, 2, 1]))[0],
        "same_k3": tf.nn.max_pool(x, 3, 1, "SAME"),
        "rows": tf.nn.max_pool(x, [1, 1, 2, 1], [1, 1, 2, 1], "VALID"),
        "f64": tf.nn.max_pool(tf.cast(x, tf.float64), 2, 2, "VALID"),
        "pool3d": tf.nn.max_pool3d(tf.reshape(x, [1, 1, 4, 4, 1]), [1, 1, 2, 2, 1],
                                   [1, 1, 2, 2, 1], "VALID"),
    }
    return _run(tf, outs, {x: xv})


def case_max_pool_with_argmax_nan_and_inf(tf):
    """TF's CPU MaxPoolWithArgmax starts each window at its first valid element and takes
    only strictly greater values (not MaxPool's lowest-finite start): a NaN first element
    wins, later NaNs never do, a window of -inf and NaN keeps its first element; padded
    positions are never chosen. Its gradient goes to the argmax."""
    nan, inf = np.nan, np.inf
    xv = np.array([[1., nan, 3., 2.], [nan, 0., -inf, 5.], [4., 4., nan, nan],
                   [-inf, -inf, 7., nan]], np.float32).reshape(1, 4, 4, 1)
    edge = np.array([[-inf, -inf, 1.], [-inf, -inf, nan], [nan, -inf, -inf]],
                    np.float32).reshape(1, 3, 3, 1)
    x = tf.placeholder(tf.float32, [1, 4, 4, 1], name="x")
    e = tf.placeholder(tf.float32, [1, 3, 3, 1], name="e")
    valid, valid_arg = tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    same, same_arg = tf.nn.max_pool_with_argmax(x, [1, 3, 3, 1], [1, 1, 1, 1], "SAME")
    padded, padded_arg = tf.nn.max_pool_with_argmax(e, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    finite = tf.where(tf.is_finite(same), same, tf.zeros_like(same))
    outs = {"valid": valid, "valid_argmax": valid_arg, "same": same, "same_argmax": same_arg,
            "padded": padded, "padded_argmax": padded_arg,
            "grad": tf.gradients(tf.reduce_sum(finite * 2.0), x)[0]}
    return _run(tf, outs, {x: xv, e: edge})


def case_conv_stride_checks_and_unequal_depthwise_strides(tf):
    """Depthwise convolutions take unequal row and column strides (TF 2.x; TF 1.x refused
    them), forward and gradients. Strides on the batch or depth dimension are TF's
    UnimplementedError in the forward kernels and InvalidArgumentError in the gradient
    kernels; dilations there InvalidArgumentError."""
    x = tf.constant(_x([2, 6, 7, 2]))
    f = tf.constant(_x([3, 3, 2, 2], 1))
    y = tf.nn.depthwise_conv2d_native(x, f, [1, 2, 1, 1], "SAME")
    y_valid = tf.nn.depthwise_conv2d(x, f, [1, 1, 3, 1], "VALID")
    dx, df = tf.gradients(tf.reduce_sum(y * y) + tf.reduce_sum(y_valid), [x, f])

    def run(fn):
        return catch(lambda: _run(tf, fn()))

    ones = tf.ones([2, 6, 7, 2])
    outs = {
        "depthwise_unequal": _run(tf, {"y": y, "y_valid": y_valid, "dx": dx, "df": df}),
        "conv_batch_stride": run(lambda: tf.nn.conv2d(x, f[..., :1], [2, 1, 1, 1], "SAME")),
        "depthwise_depth_stride": run(
            lambda: tf.nn.depthwise_conv2d_native(x, f, [1, 1, 1, 2], "SAME")),
        "conv3d_depth_stride": run(lambda: tf.nn.conv3d(
            tf.ones([1, 4, 4, 4, 2]), tf.ones([2, 2, 2, 2, 1]), [1, 1, 1, 1, 2], "SAME")),
        "depthwise_depth_dilation": run(lambda: tf.nn.depthwise_conv2d_native(
            x, f, [1, 1, 1, 1], "SAME", dilations=[1, 1, 1, 2])),
        "backprop_input_depth_stride": run(lambda: tf.nn.conv2d_backprop_input(
            [2, 6, 7, 2], f[..., :1], ones[..., :1], [1, 1, 1, 2], "SAME")),
        "depthwise_backprop_filter_batch_stride": run(
            lambda: tf.nn.depthwise_conv2d_native_backprop_filter(
                x, [3, 3, 2, 2], tf.ones([2, 6, 7, 4]), [2, 1, 1, 1], "SAME")),
    }
    return outs


def case_pool_1d_3d(tf):
    x1 = tf.constant(_x([2, 9, 3]))
    x3 = tf.constant(_x([2, 5, 4, 3, 2], 1))
    outs = {
        "max1d": tf.nn.max_pool1d(x1, 2, 2, "SAME"),
        "avg1d": tf.nn.avg_pool1d(x1, 3, 2, "SAME"),
        "max1d_valid": tf.nn.max_pool1d(x1, [3], [2], "VALID"),
        "max3d": tf.nn.max_pool3d(x3, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "SAME"),
        "avg3d": tf.nn.avg_pool3d(x3, [1, 3, 2, 2, 1], [1, 2, 1, 2, 1], "SAME"),
        "avg3d_valid": tf.nn.avg_pool3d(x3, 2, 1, "VALID"),
        "max_v2_1d": tf.nn.max_pool_v2(x1, 2, 2, "SAME"),
        "max_v2_3d": tf.nn.max_pool_v2(x3, 2, 2, "SAME"),
    }
    return {"values": _run(tf, outs), "tensors": _desc(outs), "ops": _ops(tf)}


def case_pool_generic(tf):
    x = tf.placeholder(tf.float32, [None, 9, 8, 3], name="x")
    xv = _x([2, 9, 8, 3])
    outs = {
        "max": tf.nn.pool(x, [2, 2], "MAX", "SAME", strides=[2, 2]),
        "avg": tf.nn.pool(x, [3, 3], "AVG", "SAME"),
        "max_dil": tf.nn.pool(x, [2, 2], "MAX", "VALID", dilation_rate=[2, 2]),
        "avg_dil": tf.nn.pool(x, [3, 2], "AVG", "VALID", dilation_rate=[2, 3]),
        "named": tf.nn.pool(x, [2, 2], "AVG", "VALID", name="p"),
        "pool1d": tf.nn.pool(tf.constant(_x([2, 7, 3], 1)), [3], "MAX", "SAME"),
    }
    return {"values": _run(tf, outs, {x: xv}), "tensors": _desc(outs), "ops": _ops(tf),
            "same_dil": catch(lambda: tf.nn.pool(x, [2, 2], "MAX", "SAME",
                                                 dilation_rate=[2, 2])),
            "big_stride": catch(lambda: tf.nn.pool(x, [2, 2], "MAX", "SAME", strides=[3, 3]))}


def case_max_pool_with_argmax(tf):
    xv = _x([2, 5, 5, 3])
    xv[0, 1, 1, 0] = xv[0, 1, 2, 0] = xv[0, 2, 1, 0] = 50.0   # ties: first in row-major order
    x = tf.placeholder(tf.float32, [None, 5, 5, 3], name="x")
    a = tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    b = tf.nn.max_pool_with_argmax(x, [1, 3, 3, 1], [1, 2, 2, 1], "VALID",
                                   include_batch_in_index=True)
    c = tf.nn.max_pool_with_argmax(x, [1, 3, 3, 1], [1, 1, 1, 1], "SAME",
                                   output_dtype=tf.int32, name="mpa")
    res = _run(tf, {"a": a, "b": b, "c": c}, {x: xv})
    return {"values": {k: list(v) for k, v in res.items()},
            "tensors": [describe(t) for t in (a.output, a.argmax, b[0], b[1], c[0], c[1])],
            "fields": list(type(a)._fields)}


def case_pool_errors(tf):
    x = tf.placeholder(tf.float32, [None, 5, 5, 3])
    return {
        "batch": catch(lambda: tf.nn.max_pool(x, [2, 2, 2, 1], [1, 2, 2, 1], "SAME")),
        "rank": catch(lambda: tf.nn.max_pool(tf.ones([5, 5, 3]), 2, 2, "SAME")),
        "too_big": catch(lambda: tf.nn.avg_pool(x, 6, 1, "VALID")),
        "zero": catch(lambda: tf.nn.max_pool(x, 0, 1, "VALID")),
        "ksize_len": catch(lambda: tf.nn.max_pool(x, [1, 2, 2], 1, "VALID")),
        "nchw_argmax": catch(lambda: tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1],
                                                                "SAME", data_format="NCHW")),
    }


def case_nchw_static_shapes(tf):
    x = tf.placeholder(tf.float32, [None, 3, 9, 8])
    w = tf.ones([3, 3, 3, 4])
    outs = {
        "conv": tf.nn.conv2d(x, w, [1, 1, 2, 2], "SAME", data_format="NCHW"),
        "max": tf.nn.max_pool(x, [1, 1, 3, 3], [1, 1, 2, 2], "SAME", data_format="NCHW"),
        "avg": tf.nn.avg_pool(x, [1, 1, 2, 2], [1, 1, 2, 2], "VALID", data_format="NCHW"),
        "bias": tf.nn.bias_add(x, tf.ones([3]), data_format="NCHW"),
        "transpose": tf.nn.conv2d_transpose(x, tf.ones([3, 3, 2, 3]), [4, 2, 18, 16],
                                            [1, 1, 2, 2], "SAME", data_format="NCHW"),
        "depthwise": tf.nn.depthwise_conv2d_native(x, tf.ones([3, 3, 3, 2]), [1, 1, 1, 1],
                                                   "SAME", data_format="NCHW"),
        "conv1d_ncw": tf.nn.conv1d(tf.placeholder(tf.float32, [None, 3, 7]),
                                   tf.ones([3, 3, 5]), 2, "SAME", data_format="NCW"),
        "conv3d": tf.nn.conv3d(tf.placeholder(tf.float32, [None, 3, 5, 5, 5]),
                               tf.ones([2, 2, 2, 3, 4]), [1, 1, 2, 2, 2], "SAME",
                               data_format="NCDHW"),
    }
    return _desc(outs)


@tolerance(1e-4, 1e-4)
def case_misc_conv_ops(tf):
    x = tf.constant(np.arange(2 * 4 * 6 * 8, dtype=np.float32).reshape(2, 4, 6, 8))
    d2s = tf.depth_to_space(x, 2)
    s2d = tf.space_to_depth(d2s, 2)
    s2d_nn = tf.nn.space_to_depth(x, 2, name="s2d")
    xs = tf.constant(_x([2, 5, 4, 3]))
    dw = tf.constant(_x([3, 3, 3, 2], 1))
    dy = tf.constant(_x([2, 5, 4, 6], 2))
    dbi = tf.nn.depthwise_conv2d_native_backprop_input([2, 5, 4, 3], dw, dy, [1, 1, 1, 1],
                                                       "SAME")
    dbf = tf.nn.depthwise_conv2d_native_backprop_filter(xs, [3, 3, 3, 2], dy, [1, 1, 1, 1],
                                                        "SAME")
    x3 = tf.constant(_x([1, 4, 4, 4, 2], 3))
    dy3 = tf.constant(_x([1, 2, 2, 2, 3], 4))
    c3f = tf.nn.conv3d_backprop_filter_v2(x3, [2, 2, 2, 2, 3], dy3, [1, 2, 2, 2, 1], "SAME")
    rl = tf.nn.relu_layer(tf.constant(_x([3, 4], 5)), tf.constant(_x([4, 2], 6)), [0.5, -0.5])
    outs = {"d2s": d2s, "s2d": s2d, "s2d_nn": s2d_nn, "dbi": dbi, "dbf": dbf, "c3f": c3f,
            "rl": rl}
    return {"values": _run(tf, outs), "tensors": _desc(outs), "ops": _ops(tf)[-12:],
            "bad": catch(lambda: tf.depth_to_space(tf.ones([1, 2, 2, 3]), 2))}
