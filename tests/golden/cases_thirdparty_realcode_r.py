"""Golden cases: patterns from tensorflow/models' research/slim nets beyond TF-Slim's own zoo
(mobilenet_v2's conv_blocks, nasnet/pnasnet cells, i3d and s3dg video nets) and
research/deeplab's core utilities. Their own tf.test.TestCase files ran under real TF and
tf1compat, and seeded gradients of mobilenet_v2, resnet_v2, inception_v3, i3d and s3dg
at a tiny input matched TF to float rounding. nasnet_cifar's final layer drew other
initial values: its keep-prob-1 `slim.dropout` added an Identity that TF 1.15's contrib
does not (fixed, case below), and that dropout's skipped op-seed draw still shifted its
seed (fixed, cases_thirdparty_realcode_s). The cases pin the patterns those nets lean on:

* nasnet's `factorized_reduction`: the second path pads right/bottom and slices the first
  row and column away, a 1x1 stride-2 `avg_pool`, and an odd filter count split unevenly.
* nasnet's `drop_path`: `keep_prob + random_uniform([batch, 1, 1, 1])` floored to a mask,
  its keep probability scaled by the layer ratio and by a global-step burn-in.
* s3dg's `self_gating`: a full spatio-temporal `avg_pool3d`, a 1x1x1 `conv3d`, tiled back
  and a sigmoid gate; i3d's pools with a kernel reduced to a small input.
* mobilenet_v2's `expanded_conv` with fixed padding ahead of a VALID depthwise conv, and
  its `global_pool`, whose branch for an unknown spatial size hands `tf.nn.avg_pool` a
  tensor ksize: the TypeError TF raises for len() of a graph tensor, in TF 1.15 as now.
"""

import numpy as np

from tests.golden.harness import catch, tolerance


def _seeded(shape, seed=0, scale=1.0):
    return (np.random.RandomState(seed).uniform(-1, 1, shape) * scale).astype(np.float32)


@tolerance(rtol=1e-5, atol=1e-5)
def case_nasnet_factorized_reduction(tf):
    """Two 1x1 stride-2 paths, the second shifted by a pad and a slice, concatenated; with
    gradients back to the input through both paths."""
    x = tf.constant(_seeded([2, 5, 5, 3]))
    w1 = tf.constant(_seeded([1, 1, 3, 2], 1))
    w2 = tf.constant(_seeded([1, 1, 3, 3], 2))
    path1 = tf.nn.avg_pool(x, [1, 1, 1, 1], [1, 2, 2, 1], "VALID")
    path1 = tf.nn.conv2d(path1, w1, [1, 1, 1, 1], "SAME")
    path2 = tf.pad(x, [[0, 0], [0, 1], [0, 1], [0, 0]])[:, 1:, 1:, :]
    path2 = tf.nn.avg_pool(path2, [1, 1, 1, 1], [1, 2, 2, 1], "VALID")
    path2 = tf.nn.conv2d(path2, w2, [1, 1, 1, 1], "SAME")
    out = tf.concat(values=[path1, path2], axis=3)
    grad, = tf.gradients(tf.reduce_sum(out * out), x)
    with tf.Session() as sess:
        o, g = sess.run([out, grad])
    return {"shape": out.shape.as_list(), "out": o, "grad": g}


def case_nasnet_drop_path_schedule(tf):
    """drop_path with the v3 keep probability: the layer ratio and a global-step burn-in
    (tf.minimum of step / total steps), a floored uniform mask over the batch."""
    tf.set_random_seed(3)
    net = tf.ones([6, 2, 2, 1])
    step = tf.train.get_or_create_global_step()
    layer_ratio = (2 + 1) / float(4)
    keep = 1 - layer_ratio * (1 - 0.6)
    ratio = tf.minimum(1.0, tf.cast(step, tf.float32) / 10)
    keep = 1 - ratio * (1 - keep)
    noise = keep + tf.random_uniform([tf.shape(net)[0], 1, 1, 1], dtype=tf.float32)
    mask = tf.cast(tf.floor(noise), net.dtype)
    dropped = net * tf.cast(1.0 / keep, net.dtype) * mask
    bump = tf.assign_add(step, 5)
    out = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            k, d = sess.run([keep, dropped])
            out.append({"keep": k, "sums": d.sum(axis=(1, 2, 3))})
            sess.run(bump)
    return out


@tolerance(rtol=1e-5, atol=1e-5)
def case_s3dg_self_gating_and_i3d_pools(tf):
    """s3dg's self gating over [t, w, h] and i3d's 3-D pools at a small input; values and
    the gradient of the gate's weights."""
    x = tf.constant(_seeded([2, 4, 3, 3, 2]))
    w = tf.constant(_seeded([1, 1, 1, 2, 2], 1, 0.5))
    t, h, wd = 4, 3, 3
    avg = tf.nn.avg_pool3d(x, [1, t, wd, h, 1], [1, 1, 1, 1, 1], "VALID")
    weights = tf.nn.conv3d(avg, w, [1, 1, 1, 1, 1], "SAME")
    weights = tf.tile(weights, [1, t, wd, h, 1])
    gated = tf.sigmoid(weights) * x
    pooled = tf.nn.max_pool3d(gated, [1, 1, 3, 3, 1], [1, 1, 2, 2, 1], "SAME")
    reduced = tf.nn.avg_pool3d(pooled, [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID")
    loss = tf.reduce_sum(reduced * reduced)
    gw, gx = tf.gradients(loss, [w, x])
    with tf.Session() as sess:
        r = sess.run({"gated": gated, "pooled": pooled, "reduced": reduced, "gw": gw,
                      "gx": gx})
    r["shapes"] = [pooled.shape.as_list(), reduced.shape.as_list()]
    return r


@tolerance(rtol=1e-5, atol=1e-5)
def case_mobilenet_v2_expanded_conv(tf):
    """An expanded_conv block: 1x1 expansion with relu6, fixed padding then a VALID
    stride-2 depthwise conv, a linear 1x1 projection; and the global pool over the static
    and the dynamic spatial extent."""
    x = tf.constant(_seeded([2, 6, 6, 4]))
    expand = tf.constant(_seeded([1, 1, 4, 8], 1, 0.5))
    depth = tf.constant(_seeded([3, 3, 8, 1], 2, 0.5))
    project = tf.constant(_seeded([1, 1, 8, 3], 3, 0.5))
    net = tf.nn.relu6(tf.nn.conv2d(x, expand, [1, 1, 1, 1], "SAME"))
    kernel, rate = 3, 1
    eff = kernel + (kernel - 1) * (rate - 1)
    beg = (eff - 1) // 2
    net = tf.pad(net, [[0, 0], [beg, eff - 1 - beg], [beg, eff - 1 - beg], [0, 0]])
    net = tf.nn.relu6(tf.nn.depthwise_conv2d(net, depth, [1, 2, 2, 1], "VALID"))
    net = tf.nn.conv2d(net, project, [1, 1, 1, 1], "SAME")
    pooled = tf.nn.avg_pool(net, [1, 3, 3, 1], [1, 1, 1, 1], "VALID")
    p = tf.placeholder(tf.float32, [None, None, None, 3])
    ksize = tf.convert_to_tensor([1, tf.shape(p)[1], tf.shape(p)[2], 1])
    # TF's avg_pool takes ksize as an attr: a tensor is the TypeError of len() on it
    dynamic = catch(lambda: tf.nn.avg_pool(p, ksize=ksize, strides=[1, 1, 1, 1],
                                           padding="VALID"))
    grad, = tf.gradients(tf.reduce_sum(pooled), x)
    with tf.Session() as sess:
        r = sess.run({"net": net, "pooled": pooled, "grad": grad})
    r["static"] = [net.shape.as_list(), pooled.shape.as_list()]
    r["dynamic"] = dynamic
    return r


def case_deeplab_pad_to_bounding_box(tf):
    """deeplab's preprocess_utils.pad_to_bounding_box restated: a pad value subtracted
    under a rank Assert, paddings stacked from tensors under control dependencies, an
    unknown-rank image expanded to [None] * 4; the static shapes, the padded image and the
    Assert that fires for a target smaller than the image."""
    def pad(image, offset_h, offset_w, target_h, target_w, pad_value):
        original_dtype = image.dtype
        image = tf.cast(image, tf.int32)
        rank_assert = tf.Assert(tf.logical_or(tf.equal(tf.rank(image), 3),
                                              tf.equal(tf.rank(image), 4)),
                                ["Wrong image tensor rank."])
        with tf.control_dependencies([rank_assert]):
            image -= pad_value
        is_batch = image.get_shape().ndims == 4
        if not is_batch:
            unknown = image.get_shape().ndims is None
            image = tf.expand_dims(image, 0)
            if unknown:
                image.set_shape([None] * 4)
        shape = tf.shape(image)
        height, width = shape[1], shape[2]
        width_assert = tf.Assert(tf.greater_equal(target_w, width),
                                 ["target_width must be >= width"])
        with tf.control_dependencies([width_assert]):
            after_w = target_w - offset_w - width
        after_h = target_h - offset_h - height
        paddings = tf.stack([tf.stack([0, 0]), tf.stack([offset_h, after_h]),
                             tf.stack([offset_w, after_w]), tf.stack([0, 0])])
        padded = tf.pad(image, paddings)
        if not is_batch:
            padded = tf.squeeze(padded, axis=[0])
        return tf.cast(padded + pad_value, original_dtype)

    image = np.arange(12, dtype=np.float32).reshape([2, 2, 3])
    known = pad(tf.constant(image), 1, 0, 4, 3, 255)
    p = tf.placeholder(tf.float32, None)
    unknown = pad(p, 0, 1, 3, 4, 7)
    with tf.Session() as sess:
        out = {"static": [str(known.shape), str(unknown.shape)],
               "known": sess.run(known), "unknown": sess.run(unknown, {p: image}),
               "too_small": catch(lambda: sess.run(pad(p, 0, 0, 2, 1, 0), {p: image}))}
    return out


def case_slim_dropout_keep_prob_one_adds_no_op(tf):
    """nasnet_cifar's `slim.dropout(net, 1.0)` in training: contrib's Dropout (TF 1.15's
    Keras) returns its input and adds no op (an extra op shifts the op seed of every later
    seeded initializer); not training is one Identity."""
    from tests.golden.cases_contrib_slim_zoo import _slim
    slim = _slim(tf)
    out = {}
    for name, keep, training in (("train", 1.0, True), ("eval", 1.0, False),
                                 ("train_half", 0.5, True)):
        with tf.Graph().as_default() as g:
            x = tf.ones([2, 3])
            before = len(g.get_operations())
            y = slim.dropout(x, keep, is_training=training, scope="dropout")
            out[name] = {"same_tensor": y is x,
                         "ops": [op.type for op in g.get_operations()[before:]]}
    return out
