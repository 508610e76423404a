"""Training graphs with elementwise ops TF's function gradients lack (Erf of GELU, Erfc,
Softsign, Atan2, FloorMod, MulNoNan, PlaceholderWithDefault) or get wrong (Asinh, Acosh),
which real TensorFlow trains from the file tf1compat writes
(scripts/check_tf_reads_graphs.py; as tests/graph_training_cases.py): written inside the
forward function as their expansions around the graph's values
(graphdef/gradient_lowering_math.py); and dilated convolutions and causal masks
(SpaceToBatchND, BatchToSpaceND, MatrixBandPart: graphdef/gradient_lowering_array.py),
k-max pooling and segment means, maxima and minima (TopKV2, SegmentMean, SegmentMax,
UnsortedSegmentMin).
"""

from __future__ import annotations

import numpy as np

from tests.graph_training_cases import X8, _train_and_evaluate, _training_spec

TARGETS = np.sin(np.arange(8 * 3, dtype=np.float32) * 0.7).reshape(8, 3)
MASK = (np.arange(8 * 5) % 3 != 0).astype(np.float32).reshape(8, 5)


def case_train_gelu_math_ops(tf):
    """A BERT-style feed-forward block (dense, GELU through erf as BERT writes it), its
    output passed through tf.placeholder_with_default (feedable activations), then
    features of the other ops (atan2, softsign, floormod, multiply_no_nan with a mask of
    zeros, asinh, acosh, erfc) into a dense regression head; Adam."""
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    mask = tf.placeholder(tf.float32, [None, 5], name="mask")
    targets = tf.placeholder(tf.float32, [None, 3], name="targets")
    h = tf.layers.dense(x, 5, kernel_initializer=tf.constant_initializer(
        np.cos(np.arange(20, dtype=np.float32) * 0.9).reshape(4, 5)), name="intermediate")
    h = 0.5 * h * (1.0 + tf.erf(h / np.sqrt(2.0)))
    h = tf.placeholder_with_default(h, [None, 5], name="hidden")
    features = tf.concat([
        tf.atan2(h, tf.nn.softsign(h) + 1.5),
        tf.floormod(h * 3.0 + 2.0, h * h + 0.9),
        tf.math.multiply_no_nan(h, mask),
        tf.asinh(h * 2.0) + tf.acosh(h * h + 1.2),
        tf.math.erfc(h)], axis=1)
    out = tf.layers.dense(features, 3, kernel_initializer=tf.constant_initializer(
        np.sin(np.arange(75, dtype=np.float32) * 0.3).reshape(25, 3) * 0.3), name="out")
    loss = tf.reduce_mean(tf.square(out - targets), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(),
                          {"x:0": X8, "mask:0": MASK, "targets:0": TARGETS},
                          ["loss:0", "intermediate/kernel:0", "intermediate/bias:0",
                           "out/kernel:0"])


IMAGES = np.cos(np.arange(3 * 9 * 8 * 2, dtype=np.float32) * 0.37).reshape(3, 9, 8, 2)


def case_train_atrous_conv_causal_attention(tf):
    """A dilated CNN (tf.nn.atrous_conv2d 'SAME' and 'VALID': SpaceToBatchND and
    BatchToSpaceND around a Conv2D) whose rows feed a causal self-attention (scores
    masked with tf.matrix_band_part(scores, -1, 0), as decoder blocks write it);
    GradientDescent."""
    images = tf.placeholder(tf.float32, [None, 9, 8, 2], name="images")
    targets = tf.placeholder(tf.float32, [None, 3], name="targets")
    k1 = tf.get_variable("k1", initializer=np.sin(np.arange(3 * 3 * 2 * 4, dtype=np.float32)
                                                     * 0.5).reshape(3, 3, 2, 4) * 0.3)
    k2 = tf.get_variable("k2", initializer=np.cos(np.arange(2 * 2 * 4 * 4, dtype=np.float32)
                                                     * 0.3).reshape(2, 2, 4, 4) * 0.3)
    h = tf.nn.relu(tf.nn.atrous_conv2d(images, k1, 2, "SAME"))
    h = tf.tanh(tf.nn.atrous_conv2d(h, k2, 3, "VALID"))          # [batch, 6, 5, 4]
    rows = tf.reshape(h, [-1, 6, 5 * 4])
    scores = tf.matmul(rows, rows, transpose_b=True) * 0.2
    scores = tf.matrix_band_part(scores, -1, 0) - 1e4 * (
        1.0 - tf.matrix_band_part(tf.ones_like(scores), -1, 0))
    attended = tf.matmul(tf.nn.softmax(scores), rows)
    out = tf.layers.dense(tf.reduce_mean(attended, 1), 3, kernel_initializer=(
        tf.constant_initializer(np.linspace(-0.3, 0.3, 60, dtype=np.float32).reshape(20, 3))),
        name="out")
    loss = tf.reduce_mean(tf.square(out - targets), name="loss")
    tf.train.GradientDescentOptimizer(0.3).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"images:0": IMAGES, "targets:0": TARGETS[:3]},
                          ["loss:0", "k1:0", "k2:0", "out/kernel:0"])


def case_train_top_k_segment_mean(tf):
    """k-max pooling (tf.nn.top_k values of each row, its indices picking position
    weights) and per-group means, maxima and minima of the rows (tf.segment_mean and
    tf.segment_max over sorted group ids, tf.unsorted_segment_min) into a regression
    head; Momentum."""
    x = tf.placeholder(tf.float32, [8, 4], name="x")
    targets = tf.placeholder(tf.float32, [4, 3], name="targets")
    h = tf.layers.dense(x, 6, activation=tf.tanh, kernel_initializer=tf.constant_initializer(
        np.cos(np.arange(24, dtype=np.float32) * 0.8).reshape(4, 6)), name="hidden")
    values, indices = tf.nn.top_k(h, 3)
    pooled = values * tf.gather(tf.linspace(0.5, 1.5, 6), indices)
    ids = tf.constant([0, 0, 1, 1, 1, 2, 3, 3])
    groups = tf.segment_mean(pooled, ids) + tf.segment_max(pooled, ids) - \
        tf.unsorted_segment_min(pooled, tf.constant([3, 1, 0, 0, 2, 3, 1, 0]), 4)
    out = tf.layers.dense(groups, 3, kernel_initializer=tf.constant_initializer(
        np.sin(np.arange(9, dtype=np.float32)).reshape(3, 3)), name="out")
    loss = tf.reduce_mean(tf.square(out - targets), name="loss")
    tf.train.MomentumOptimizer(0.2, 0.9).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": X8, "targets:0": TARGETS[:4]},
                          ["loss:0", "hidden/kernel:0", "hidden/bias:0", "out/kernel:0"])


def case_train_scatter_nd_rows_and_cells(tf):
    """tf.scatter_nd of dense rows into a larger table (a duplicate index: summed) and of
    single cells (a two-deep index, int64) into a grid, into a regression head; Adam."""
    x = tf.placeholder(tf.float32, [8, 4], name="x")
    targets = tf.placeholder(tf.float32, [6, 3], name="targets")
    h = tf.layers.dense(x, 5, activation=tf.tanh, kernel_initializer=tf.constant_initializer(
        np.cos(np.arange(20, dtype=np.float32) * 0.7).reshape(4, 5)), name="hidden")
    table = tf.scatter_nd(tf.constant([[5], [0], [2], [5], [3], [1], [0], [4]]), h, [6, 5])
    cells = tf.scatter_nd(tf.constant([[0, 1], [3, 4], [5, 0], [0, 1]], tf.int64),
                          tf.reduce_sum(h[:4], axis=1), tf.constant([6, 5], tf.int64))
    out = tf.layers.dense(table + cells * 0.5, 3, kernel_initializer=tf.constant_initializer(
        np.sin(np.arange(15, dtype=np.float32)).reshape(5, 3)), name="out")
    loss = tf.reduce_mean(tf.square(out - targets), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": X8, "targets:0": TARGETS[:6]},
                          ["loss:0", "hidden/kernel:0", "hidden/bias:0", "out/kernel:0"])


def case_train_conv3d_avg_pool3d(tf):
    """A small 3-D CNN over [batch, depth, height, width, channels] volumes
    (tf.layers.conv3d 'same' with depth stride 2, tf.nn.conv3d 'VALID',
    tf.layers.average_pooling3d and tf.nn.max_pool3d 'SAME' with windows crossing the
    edges, after a ReLU; Conv3D, AvgPool3D and MaxPool3D as 2-D ops
    over depth slices, gradient_lowering_volume.py); plain gradient descent (Adam's
    normalization would magnify float rounding of near-zero gradients)."""
    volumes = tf.placeholder(tf.float32, [None, 5, 6, 6, 2], name="volumes")
    targets = tf.placeholder(tf.float32, [None, 3], name="targets")
    h = tf.layers.conv3d(volumes, 3, 3, strides=(2, 1, 1), padding="same",
                         activation=tf.tanh, kernel_initializer=tf.constant_initializer(
                             np.sin(np.arange(162, dtype=np.float32) * 0.37) * 0.3),
                         name="conv1")
    k2 = tf.get_variable("k2", [2, 2, 2, 3, 4], initializer=tf.constant_initializer(
        np.cos(np.arange(96, dtype=np.float32) * 0.53) * 0.3))
    h = tf.nn.relu(tf.nn.conv3d(h, k2, [1, 1, 1, 1, 1], "VALID"))
    h = tf.layers.average_pooling3d(h, (2, 3, 3), (1, 2, 2), padding="same") + \
        tf.nn.max_pool3d(h, [1, 3, 2, 2, 1], [1, 1, 2, 2, 1], "SAME")
    out = tf.layers.dense(tf.reshape(h, [-1, 2 * 3 * 3 * 4]), 3,
                          kernel_initializer=tf.constant_initializer(
                              np.sin(np.arange(216, dtype=np.float32)) * 0.2), name="out")
    loss = tf.reduce_mean(tf.square(out - targets), name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    data = np.sin(np.arange(3 * 5 * 6 * 6 * 2, dtype=np.float32) * 0.11).reshape(3, 5, 6, 6, 2)
    return _training_spec(tf, tf.train.Saver(), {"volumes:0": data, "targets:0": TARGETS[:3]},
                          ["loss:0", "conv1/kernel:0", "conv1/bias:0", "k2:0",
                           "out/kernel:0"])


def case_train_conv3d_transpose(tf):
    """A 3-D decoder: tf.layers.conv3d_transpose 'same' with strides (2, 2, 1) and
    tf.nn.conv3d_transpose 'VALID' (Conv3DBackpropInputV2 as a stride-1 VALID
    convolution of the spread-out input, gradient_lowering_volume.py); gradient descent."""
    codes = tf.placeholder(tf.float32, [None, 2, 3, 3, 3], name="codes")
    targets = tf.placeholder(tf.float32, [None, 3], name="targets")
    h = tf.layers.conv3d_transpose(
        codes, 4, (3, 2, 3), strides=(2, 2, 1), padding="same", activation=tf.tanh,
        kernel_initializer=tf.constant_initializer(
            np.sin(np.arange(216, dtype=np.float32) * 0.29) * 0.3), name="up1")
    k2 = tf.get_variable("k2", [2, 3, 2, 2, 4], initializer=tf.constant_initializer(
        np.cos(np.arange(96, dtype=np.float32) * 0.41) * 0.3))
    h = tf.nn.conv3d_transpose(h, k2, tf.stack([tf.shape(h)[0], 5, 8, 4, 2]),
                               [1, 1, 1, 1, 1], "VALID")
    h = tf.reshape(h, [-1, 5 * 8 * 4 * 2])
    out = tf.layers.dense(h, 3, kernel_initializer=tf.constant_initializer(
        np.sin(np.arange(960, dtype=np.float32)) * 0.1), name="out")
    loss = tf.reduce_mean(tf.square(out - targets), name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    data = np.cos(np.arange(2 * 2 * 3 * 3 * 3, dtype=np.float32) * 0.23).reshape(2, 2, 3, 3, 3)
    return _training_spec(tf, tf.train.Saver(), {"codes:0": data, "targets:0": TARGETS[:2]},
                          ["loss:0", "up1/kernel:0", "up1/bias:0", "k2:0", "out/kernel:0"])


def case_train_crop_and_resize(tf):
    """ROI-align style crops (tf.image.crop_and_resize, bilinear: boxes inside, on the
    image's edges, reaching past them with an extrapolation value, a 1-row crop) of a
    conv feature map into a head, the boxes a trained variable too (TF's box gradient);
    gradient descent."""
    images = tf.placeholder(tf.float32, [2, 5, 6, 2], name="images")
    targets = tf.placeholder(tf.float32, [None, 3], name="targets")
    features = tf.layers.conv2d(images, 3, 3, padding="same", activation=tf.tanh,
                                kernel_initializer=tf.constant_initializer(
                                    np.sin(np.arange(54, dtype=np.float32) * 0.7) * 0.4),
                                name="features")
    boxes = tf.get_variable("boxes", [4, 4], initializer=tf.constant_initializer(np.array(
        [[0.1, 0.2, 0.7, 0.9], [0.0, 0.0, 1.0, 1.0], [-0.2, 0.3, 0.6, 1.3],
         [0.35, 0.15, 0.8, 0.55]], np.float32)))
    crops = tf.image.crop_and_resize(features, boxes, tf.constant([0, 1, 1, 0]), [3, 4],
                                     extrapolation_value=0.25)
    rows = tf.image.crop_and_resize(features, boxes[:2], tf.constant([1, 0]), [1, 4])
    pooled = tf.concat([tf.reshape(crops, [4, 36]), tf.tile(tf.reshape(rows, [2, 12]),
                                                            [2, 3])], axis=1)
    out = tf.layers.dense(pooled, 3, kernel_initializer=tf.constant_initializer(
        np.cos(np.arange(216, dtype=np.float32)) * 0.2), name="out")
    loss = tf.reduce_mean(tf.square(out - targets), name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    data = np.sin(np.arange(120, dtype=np.float32) * 0.37).reshape(2, 5, 6, 2)
    return _training_spec(tf, tf.train.Saver(), {"images:0": data, "targets:0": TARGETS[:4]},
                          ["loss:0", "features/kernel:0", "boxes:0", "out/kernel:0"])


def case_train_segment_products(tf):
    """Per-group products of the rows (tf.unsorted_segment_prod with an empty segment and
    a dropped negative id, tf.segment_prod over sorted ids; a row with an exact zero, so
    TF 1.x's zero rule of the gradient applies) into a regression head; gradient
    descent."""
    x = tf.placeholder(tf.float32, [8, 4], name="x")
    targets = tf.placeholder(tf.float32, [5, 3], name="targets")
    h = tf.layers.dense(x, 3, activation=tf.tanh, kernel_initializer=tf.constant_initializer(
        np.cos(np.arange(12, dtype=np.float32) * 0.9).reshape(4, 3)), name="hidden")
    h = h * tf.constant(np.where(np.arange(24).reshape(8, 3) == 7, 0.0, 1.0), tf.float32)
    unsorted = tf.unsorted_segment_prod(h * 2.0, tf.constant([2, 0, 2, -1, 0, 4, 2, 0]), 5)
    ordered = tf.segment_prod(1.0 + h, tf.constant([0, 0, 1, 1, 1, 3, 4, 4]))
    out = tf.layers.dense(unsorted + ordered, 3, kernel_initializer=tf.constant_initializer(
        np.sin(np.arange(9, dtype=np.float32)).reshape(3, 3)), name="out")
    loss = tf.reduce_mean(tf.square(out - targets), name="loss")
    tf.train.GradientDescentOptimizer(0.2).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": X8, "targets:0": TARGETS[:5]},
                          ["loss:0", "hidden/kernel:0", "hidden/bias:0", "out/kernel:0"])


def case_train_fake_quant(tf):
    """Quantization-aware training as tf.contrib.quantize writes it: weights through
    fake_quant_with_min_max_vars_per_channel (one channel's range unset: 0 and 0),
    activations through fake_quant_with_min_max_vars with trained min and max (inputs
    below and above the range: their gradients) and fake_quant_with_min_max_args (narrow
    range, 4 bits); gradient descent."""
    x = tf.placeholder(tf.float32, [8, 4], name="x")
    targets = tf.placeholder(tf.float32, [8, 3], name="targets")
    w = tf.get_variable("w", [4, 3], initializer=tf.constant_initializer(
        np.cos(np.arange(12, dtype=np.float32) * 0.8).reshape(4, 3)))
    w_min = tf.get_variable("w_min", [3], initializer=tf.constant_initializer(
        np.array([-0.7, 0.0, -0.4], np.float32)))
    w_max = tf.get_variable("w_max", [3], initializer=tf.constant_initializer(
        np.array([0.6, 0.0, 0.9], np.float32)))
    a_min = tf.get_variable("a_min", [], initializer=tf.constant_initializer(-0.5))
    a_max = tf.get_variable("a_max", [], initializer=tf.constant_initializer(0.45))
    wq = tf.quantization.fake_quant_with_min_max_vars_per_channel(w, w_min, w_max)
    h = tf.quantization.fake_quant_with_min_max_vars(tf.matmul(x, wq) * 1.5, a_min, a_max)
    h = tf.quantization.fake_quant_with_min_max_args(h * 2.0 - 0.1, -1.5, 0.7, num_bits=4,
                                                     narrow_range=True)
    loss = tf.reduce_mean(tf.square(h - targets), name="loss")
    tf.train.GradientDescentOptimizer(0.2).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": X8, "targets:0": TARGETS[:8]},
                          ["loss:0", "w:0", "w_min:0", "w_max:0", "a_min:0", "a_max:0"])


def case_train_lgamma_digamma_counts(tf):
    """A negative-binomial count regression as TF1 probabilistic models write it: a
    dispersion r = softplus(dense) + 0.5, the log-likelihood's lgamma(counts + r) -
    lgamma(r) terms, digamma(r) features and lgamma of values in (-3, -2) (the reflected
    side) into a regression head; Adam."""
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    counts = tf.placeholder(tf.float32, [None, 3], name="counts")
    h = tf.layers.dense(x, 3, activation=tf.tanh, kernel_initializer=tf.constant_initializer(
        np.cos(np.arange(12, dtype=np.float32) * 0.9).reshape(4, 3)), name="hidden")
    r = tf.nn.softplus(h) + 0.5
    likelihood = tf.reduce_mean(tf.lgamma(counts + r) - tf.lgamma(r))
    features = tf.concat([tf.digamma(r), tf.lgamma(0.4 * h - 2.5)], axis=1)
    out = tf.layers.dense(features, 3, kernel_initializer=tf.constant_initializer(
        np.sin(np.arange(18, dtype=np.float32) * 0.4).reshape(6, 3) * 0.3), name="out")
    loss = tf.add(tf.reduce_mean(tf.square(out - counts * 0.1)), -0.1 * likelihood,
                  name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": X8, "counts:0": COUNTS},
                          ["loss:0", "hidden/kernel:0", "hidden/bias:0", "out/kernel:0"])


COUNTS = (np.arange(8 * 3) % 5).astype(np.float32).reshape(8, 3)
FRAMES = np.sin(np.arange(6 * 2 * 4, dtype=np.float32) * 0.53).reshape(6, 2, 4)


def case_train_ctc_loss(tf):
    """A speech-recogniser head: per-frame dense layers over time-major [time, batch,
    features] frames (run-time batch), tf.nn.ctc_loss against sparse int32 labels (a
    repeated label; the second sequence's input shorter); Momentum."""
    frames = tf.placeholder(tf.float32, [6, None, 4], name="frames")
    lengths = tf.placeholder(tf.int32, [None], name="lengths")
    labels = tf.SparseTensor(np.array([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1]], np.int64),
                             np.array([1, 2, 1, 3, 0], np.int32), np.array([2, 3], np.int64))
    h = tf.layers.dense(frames, 6, activation=tf.tanh, kernel_initializer=(
        tf.constant_initializer(np.cos(np.arange(24, dtype=np.float32) * 0.7).reshape(4, 6))),
        name="hidden")
    logits = tf.layers.dense(h, 5, kernel_initializer=tf.constant_initializer(
        np.sin(np.arange(30, dtype=np.float32) * 0.3).reshape(6, 5)), name="logits")
    loss = tf.reduce_mean(tf.nn.ctc_loss(labels, logits, lengths), name="loss")
    tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"frames:0": FRAMES,
                                                 "lengths:0": np.array([6, 5], np.int32)},
                          ["loss:0", "hidden/kernel:0", "hidden/bias:0", "logits/kernel:0"])


def case_train_cond_math_ops(tf):
    """Expanded ops inside tf.cond branches under a tensor flag: GELU through erf, acosh,
    atan2, lgamma and k-max pooling (top_k) in one branch, softsign, floormod and
    digamma in the other (their factors inf at the other branch's zeros: 1/sinh(0),
    digamma's trigamma at 0); three Adam steps with the flag on, one with it off."""
    x = tf.placeholder(tf.float32, [8, 4], name="x")
    targets = tf.placeholder(tf.float32, [8, 3], name="targets")
    flag = tf.placeholder(tf.bool, [], name="flag")
    h = tf.layers.dense(x, 5, activation=tf.tanh, kernel_initializer=tf.constant_initializer(
        np.cos(np.arange(20, dtype=np.float32) * 0.8).reshape(4, 5)), name="hidden")

    def expanded():
        gelu = 0.5 * h * (1.0 + tf.erf(h / np.sqrt(2.0)))
        return gelu + 0.3 * tf.acosh(h * h + 1.0) + tf.atan2(h, 2.0) + \
            0.2 * tf.lgamma(h * h + 0.5) + 0.5 * tf.nn.top_k(h, 2)[0][:, :1]

    def other():
        return tf.nn.softsign(h) + 0.1 * tf.floormod(h * 3.0 + 2.0, h * h + 0.9) + \
            0.05 * tf.digamma(h * h + 0.5)
    features = tf.cond(flag, expanded, other)
    out = tf.layers.dense(features, 3, kernel_initializer=tf.constant_initializer(
        np.sin(np.arange(15, dtype=np.float32) * 0.6).reshape(5, 3) * 0.4), name="out")
    loss = tf.reduce_mean(tf.square(out - targets), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _train_and_evaluate(tf, tf.train.Saver(), {"x:0": X8, "targets:0": TARGETS},
                               ["loss:0", "hidden/kernel:0", "hidden/bias:0", "out/kernel:0"],
                               "flag:0")


def case_train_conv3d_filter_correlation(tf):
    """A 3-D filter gradient on the gradient path (as in a graph holding TF's own
    gradient ops that is differentiated again): the kernel of a strided Conv3D is
    tf.nn.conv3d_backprop_filter_v2 of the first layer's features and learned response
    maps (a correlation filter, as 3-D trackers build theirs); both are trained;
    GradientDescent."""
    volumes = tf.placeholder(tf.float32, [2, 4, 4, 4, 2], name="volumes")
    targets = tf.placeholder(tf.float32, [2, 3], name="targets")
    k1 = tf.get_variable("k1", initializer=np.sin(np.arange(2 * 2 * 2 * 2 * 3, dtype=np.float32)
                                                     * 0.7).reshape(2, 2, 2, 2, 3) * 0.4)
    response = tf.get_variable("response", initializer=np.cos(
        np.arange(2 * 2 * 2 * 2 * 2, dtype=np.float32) * 0.9).reshape(2, 2, 2, 2, 2) * 0.5)
    h = tf.tanh(tf.nn.conv3d(volumes, k1, [1, 1, 1, 1, 1], "SAME"))
    kernel = tf.nn.conv3d_backprop_filter_v2(h, [3, 3, 3, 3, 2], response, [1, 2, 2, 2, 1],
                                             "SAME")
    out = tf.nn.conv3d(h, kernel * 0.05, [1, 2, 2, 2, 1], "SAME")
    out = tf.layers.dense(tf.reduce_mean(out, [1, 2, 3]), 3, kernel_initializer=(
        tf.constant_initializer(np.linspace(-0.5, 0.5, 6, dtype=np.float32).reshape(2, 3))),
        name="out")
    loss = tf.reduce_mean(tf.square(out - targets), name="loss")
    tf.train.GradientDescentOptimizer(0.2).minimize(loss, name="train")
    tf.global_variables_initializer()
    data = np.sin(np.arange(256, dtype=np.float32) * 0.41).reshape(2, 4, 4, 4, 2)
    return _training_spec(tf, tf.train.Saver(), {"volumes:0": data, "targets:0": TARGETS[:2]},
                          ["loss:0", "k1:0", "response:0", "out/kernel:0"])


def case_train_conv1d_transpose_run_time_length(tf):
    """A 1-D upsampling decoder over sequences whose length is known only when it runs:
    tf.nn.conv1d_transpose 'SAME' with stride 2 to an output shape computed from
    tf.shape, then tf.keras' Conv1DTranspose 'valid' with stride 3 (a resource
    kernel); Adam."""
    seq = tf.placeholder(tf.float32, [None, None, 3], name="seq")
    targets = tf.placeholder(tf.float32, [None, None, 2], name="targets")
    k1 = tf.get_variable("k1", initializer=np.sin(np.arange(3 * 4 * 3, dtype=np.float32)
                                                     * 0.6).reshape(3, 4, 3) * 0.5)
    batch, length = tf.shape(seq)[0], tf.shape(seq)[1]
    up = tf.nn.relu(tf.nn.conv1d_transpose(seq, k1, tf.stack([batch, length * 2, 4]), 2,
                                           "SAME"))
    out = tf.keras.layers.Conv1DTranspose(2, 2, strides=3, padding="valid", name="deconv",
                                          kernel_initializer=tf.constant_initializer(
                                              np.cos(np.arange(16) * 0.5).reshape(2, 2, 4)))(up)
    loss = tf.reduce_mean(tf.square(out - targets), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    sequence = np.sin(np.arange(2 * 5 * 3, dtype=np.float32) * 0.43).reshape(2, 5, 3)
    wanted = np.cos(np.arange(2 * 30 * 2, dtype=np.float32) * 0.2).reshape(2, 30, 2)
    return _training_spec(tf, tf.train.Saver(), {"seq:0": sequence, "targets:0": wanted},
                          ["loss:0", "k1:0", "deconv/kernel/Read/ReadVariableOp:0",
                           "deconv/bias/Read/ReadVariableOp:0"])


MATH_TRAINING_CASES = [case_train_gelu_math_ops, case_train_atrous_conv_causal_attention,
                       case_train_top_k_segment_mean, case_train_scatter_nd_rows_and_cells,
                       case_train_conv3d_avg_pool3d, case_train_conv3d_transpose,
                       case_train_crop_and_resize, case_train_segment_products,
                       case_train_fake_quant, case_train_lgamma_digamma_counts,
                       case_train_ctc_loss, case_train_cond_math_ops,
                       case_train_conv3d_filter_correlation,
                       case_train_conv1d_transpose_run_time_length]
