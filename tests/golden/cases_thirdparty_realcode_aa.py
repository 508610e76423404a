"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-aa).

* balancap/SSD-Tensorflow: train_ssd_network.py's graph (model_deploy DeploymentConfig /
  create_clones / optimize_clones, the ssd_300_vgg net under its arg_scope with L2 weight
  decay, bboxes_encode of ground-truth boxes against the 8732 anchors, ssd_losses with
  hard negative mining, tf_utils' exponential-decay Adam, ExponentialMovingAverage of the
  model variables) on two fake 300x300 images with 2 and 3 boxes, then eval's
  detected_bboxes (tf_extended's bboxes_sort / bboxes_nms_batch / map_fn) on the result.
  Unchanged after two import paths were added (`tensorflow.python.framework.sparse_tensor`,
  `tensorflow.python.ops.check_ops`) and TF 1.15's `contrib.metrics.python.ops.set_ops`
  (tf.sets aliases). With `tf.set_random_seed(1)` on both sides and initial values shared
  through an npz, the encoded targets are identical (anchors given a label, per layer
  4145/1830/566/149/36/4), the fc6/fc7 dropout masks are TF's, and the three steps' total,
  positive, negative and localisation losses match to 8e-7 relative (step 0:
  418.389679 / 76.44957 / 272.328674 / 69.439407 on both); conv1_1's weights after
  three Adam steps are within 1.1e-6. detected_bboxes' scores and boxes agree to ~3e-4
  except one class-2 box whose IoU with a kept box is 0.4498 here and 0.4504 under TF
  against nms_threshold 0.45 (float drift after training, not a semantic difference).
  The cases restate bboxes_encode's while_loop matching and ssd_losses' hard negative
  mining.
* mystic123/tensorflow-yolo-v3: convert_weights.py runs unchanged under both (default
  NCHW, 80 class names, a random darknet .weights file laid out as utils.load_weights
  reads it: He-scaled kernels, well-conditioned batch-norm blocks) and writes a checkpoint
  of 366 variables; a demo-style driver (yolo_v3 NHWC on a 256x256 fake image, Saver
  restore, detections_boxes, utils.non_max_suppression) restores each side's checkpoint
  on the other and gives TF's detections to 1.2e-5 relative (confidences within 3.5e-6)
  and the same boxes after NMS. Nothing needed fixing; the case pins its detection layer.
* deepmind/dnc: train.py runs unchanged on tf1compat with Sonnet 1.36 (plus wrapt,
  semantic_version, contextlib2, Python 3.10+'s collections aliases, pure-Python protobuf
  for Sonnet's old module_pb2, and a test-environment tensorflow_probability stand-in
  whose distributions are tf.distributions: Sonnet checks for it at import, the DNC uses
  none of it): 6 iterations with reports (loss 11.29 at 3, 11.45 at 5). Not compared with
  TF: Sonnet v1 imports contrib.eager / contrib.rnn / contrib.framework, which TF 2.21
  lacks and TF 1.15's sources cannot provide there.
* deepmind/learning-to-learn: needed TF 1.15's contrib.learn monitored_session path (the
  deprecated aliases of tf.train's MonitoredSession family, now mapped) and mock / dill /
  nose_parameterized. With Sonnet 1.36 the quadratic problem stops at tf.while_loop's
  structure check (Sonnet >= 1.2x returns LSTMState namedtuples where the project's
  _nested_variable rebuilt plain tuples); TF's nest rejects tuple vs namedtuple the same
  way, so that is a project/Sonnet version mismatch. With Sonnet 1.13 (plain tuple states)
  train.py --problem=quadratic and simple-multi run unchanged; its tests problems_test
  (28), networks_test (22), preprocess_test (9) pass, meta_test's testResults fails (cost
  1.0 vs the reference 0.7325): tf1compat gives zero gradients through a while_loop whose
  body calls tf.gradients (meta.py's update); see the session report. Not compared with
  TF (Sonnet v1 does not import under TF 2.21).
"""

import numpy as np

from tests.golden.cases_contrib_slim_zoo import _slim
from tests.golden.harness import tolerance


def _anchors(tf):
    """A 3x3 grid of 2 anchors each (yref, xref, href, wref), as ssd_anchor_one_layer."""
    y, x = np.mgrid[0:3, 0:3]
    y = ((y + 0.5) / 3.).astype(np.float32)[..., None]
    x = ((x + 0.5) / 3.).astype(np.float32)[..., None]
    return y, x, np.array([0.3, 0.45], np.float32), np.array([0.3, 0.2], np.float32)


@tolerance(rtol=1e-5, atol=1e-6)
def case_ssd_bboxes_encode_while_loop_jaccard_matching(tf):
    """tf_ssd_bboxes_encode_layer: a `tf.while_loop` over the ground-truth boxes whose
    condition is `tf.less(i, tf.shape(labels))[0]`, jaccard and
    intersection scores against every anchor, masks from `tf.greater` / `tf.logical_and`,
    label and box updates by `tf.where` and mask arithmetic, then the (cy, cx, h, w)
    encoding with prior scaling and `tf.log`."""
    yref, xref, href, wref = _anchors(tf)
    labels = tf.constant([3, 7, 3], tf.int64)
    bboxes = tf.constant([[0.1, 0.1, 0.5, 0.4], [0.4, 0.35, 0.9, 0.8],
                          [0.6, 0.0, 0.95, 0.3]], tf.float32)
    ymin, xmin = yref - href / 2., xref - wref / 2.
    ymax, xmax = yref + href / 2., xref + wref / 2.
    vol_anchors = (xmax - xmin) * (ymax - ymin)
    shape = (yref.shape[0], yref.shape[1], href.size)
    feat_labels = tf.zeros(shape, dtype=tf.int64)
    feat_scores = tf.zeros(shape, dtype=tf.float32)
    feat_ymin, feat_xmin = tf.zeros(shape), tf.zeros(shape)
    feat_ymax, feat_xmax = tf.ones(shape), tf.ones(shape)

    def jaccard_with_anchors(bbox):
        int_ymin = tf.maximum(ymin, bbox[0])
        int_xmin = tf.maximum(xmin, bbox[1])
        int_ymax = tf.minimum(ymax, bbox[2])
        int_xmax = tf.minimum(xmax, bbox[3])
        h = tf.maximum(int_ymax - int_ymin, 0.)
        w = tf.maximum(int_xmax - int_xmin, 0.)
        inter_vol = h * w
        union_vol = vol_anchors - inter_vol + (bbox[2] - bbox[0]) * (bbox[3] - bbox[1])
        return tf.div(inter_vol, union_vol)

    def condition(i, feat_labels, feat_scores, feat_ymin, feat_xmin, feat_ymax, feat_xmax):
        r = tf.less(i, tf.shape(labels))
        return r[0]

    def body(i, feat_labels, feat_scores, feat_ymin, feat_xmin, feat_ymax, feat_xmax):
        label, bbox = labels[i], bboxes[i]
        jaccard = jaccard_with_anchors(bbox)
        mask = tf.greater(jaccard, feat_scores)
        mask = tf.logical_and(mask, feat_scores > -0.5)
        mask = tf.logical_and(mask, label < 21)
        imask = tf.cast(mask, tf.int64)
        fmask = tf.cast(mask, tf.float32)
        feat_labels = imask * label + (1 - imask) * feat_labels
        feat_scores = tf.where(mask, jaccard, feat_scores)
        feat_ymin = fmask * bbox[0] + (1 - fmask) * feat_ymin
        feat_xmin = fmask * bbox[1] + (1 - fmask) * feat_xmin
        feat_ymax = fmask * bbox[2] + (1 - fmask) * feat_ymax
        feat_xmax = fmask * bbox[3] + (1 - fmask) * feat_xmax
        return [i + 1, feat_labels, feat_scores, feat_ymin, feat_xmin, feat_ymax, feat_xmax]

    i = 0
    [i, feat_labels, feat_scores, feat_ymin, feat_xmin, feat_ymax, feat_xmax] = \
        tf.while_loop(condition, body, [i, feat_labels, feat_scores, feat_ymin, feat_xmin,
                                        feat_ymax, feat_xmax])
    feat_cy = (feat_ymax + feat_ymin) / 2.
    feat_cx = (feat_xmax + feat_xmin) / 2.
    feat_h = feat_ymax - feat_ymin
    feat_w = feat_xmax - feat_xmin
    feat_cy = (feat_cy - yref) / href / 0.1
    feat_cx = (feat_cx - xref) / wref / 0.1
    feat_h = tf.log(feat_h / href) / 0.2
    feat_w = tf.log(feat_w / wref) / 0.2
    feat_localizations = tf.stack([feat_cx, feat_cy, feat_w, feat_h], axis=-1)
    with tf.Session() as sess:
        out = sess.run({"i": i, "labels": feat_labels, "scores": feat_scores,
                        "loc": feat_localizations})
    out["dtypes"] = [feat_labels.dtype.name, feat_localizations.dtype.name]
    out["shape"] = feat_localizations.get_shape().as_list()
    return out


@tolerance(rtol=1e-5, atol=1e-5)
def case_ssd_losses_hard_negative_mining(tf):
    """ssd_losses: logits/targets of two layers flattened and concatenated, softmax
    predictions, negatives ranked by `tf.nn.top_k(-nvalues, k=n_neg)` with k a tensor
    (3 * positives + batch, capped by the negatives), `max_hard_pred = -val[-1]`, the
    positive / negative sparse softmax cross-entropies and the smooth-L1 localisation,
    each `tf.div(..., batch_size, name='value')` and added by `tf.losses.add_loss`; then
    the gradient of their sum."""
    rs = np.random.RandomState(4)
    shapes = [(2, 3, 3, 2), (2, 2, 2, 3)]
    logits = [tf.Variable(rs.normal(0, 1, s + (5,)).astype(np.float32), name=f"lg{i}")
              for i, s in enumerate(shapes)]
    locs = [tf.Variable(rs.normal(0, 1, s + (4,)).astype(np.float32), name=f"lc{i}")
            for i, s in enumerate(shapes)]
    gclasses = [tf.constant(rs.randint(0, 5, s).astype(np.int64)) for s in shapes]
    gscores = [tf.constant(rs.uniform(-0.2, 0.9, s).astype(np.float32)) for s in shapes]
    glocs = [tf.constant(rs.normal(0, 1, s + (4,)).astype(np.float32)) for s in shapes]
    batch_size = tf.shape(logits[0])[0]
    flat = lambda ts, last: tf.concat([tf.reshape(t, last) for t in ts], axis=0)
    lg, gcl, gsc = flat(logits, [-1, 5]), flat(gclasses, [-1]), flat(gscores, [-1])
    lc, glc = flat(locs, [-1, 4]), flat(glocs, [-1, 4])
    with tf.name_scope(None, "ssd_losses"):
        pmask = gsc > 0.5
        fpmask = tf.cast(pmask, tf.float32)
        n_positives = tf.reduce_sum(fpmask)
        no_classes = tf.cast(pmask, tf.int32)
        predictions = tf.nn.softmax(lg)
        nmask = tf.logical_and(tf.logical_not(pmask), gsc > -0.5)
        fnmask = tf.cast(nmask, tf.float32)
        nvalues = tf.where(nmask, predictions[:, 0], 1. - fnmask)
        nvalues_flat = tf.reshape(nvalues, [-1])
        max_neg_entries = tf.cast(tf.reduce_sum(fnmask), tf.int32)
        n_neg = tf.cast(3. * n_positives, tf.int32) + batch_size
        n_neg = tf.minimum(n_neg, max_neg_entries)
        val, idxes = tf.nn.top_k(-nvalues_flat, k=n_neg)
        max_hard_pred = -val[-1]
        nmask = tf.logical_and(nmask, nvalues < max_hard_pred)
        fnmask = tf.cast(nmask, tf.float32)
        bs = tf.cast(batch_size, tf.float32)
        with tf.name_scope("cross_entropy_pos"):
            loss = tf.nn.sparse_softmax_cross_entropy_with_logits(logits=lg, labels=gcl)
            tf.losses.add_loss(tf.div(tf.reduce_sum(loss * fpmask), bs, name="value"))
        with tf.name_scope("cross_entropy_neg"):
            loss = tf.nn.sparse_softmax_cross_entropy_with_logits(logits=lg,
                                                                  labels=no_classes)
            tf.losses.add_loss(tf.div(tf.reduce_sum(loss * fnmask), bs, name="value"))
        with tf.name_scope("localization"):
            x = lc - glc
            absx = tf.abs(x)
            minx = tf.minimum(absx, 1)
            smooth = 0.5 * ((absx - 1) * minx + absx)
            weights = tf.expand_dims(fpmask, axis=-1)
            tf.losses.add_loss(tf.div(tf.reduce_sum(smooth * weights), bs, name="value"))
    losses = tf.losses.get_losses()
    total = tf.add_n(losses)
    grads = tf.gradients(total, logits + locs)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {"names": [t.op.name for t in losses], "idx_shape": idxes.get_shape().as_list(),
                "n_neg": sess.run(n_neg), "losses": sess.run(losses),
                "grads": sess.run(grads)}


@tolerance(rtol=1e-5, atol=1e-5)
def case_yolo_v3_detection_layer_and_upsample(tf):
    """tensorflow-yolo-v3's _fixed_padding (an `add_arg_scope` function with `*args` and
    a `mode` keyword, under `arg_scope`), its NCHW detection layer (1x1 slim conv, reshape /
    transpose to [batch, anchors*cells, attrs], `tf.split` with sizes, sigmoid, meshgrid
    offsets tiled per anchor, a Python tuple stride multiplied into a tensor, a list of
    float anchor pairs passed to `tf.tile`, `tf.exp`) and _upsample's NCHW round trip
    through `tf.image.resize_nearest_neighbor` ending in `tf.identity(name='upsampled')`."""
    slim = _slim(tf)

    @slim.add_arg_scope
    def fixed_padding(inputs, kernel_size, *args, mode="CONSTANT", **kwargs):
        pad_beg = (kernel_size - 1) // 2
        pad_end = kernel_size - 1 - pad_beg
        if kwargs["data_format"] == "NCHW":
            return tf.pad(inputs, [[0, 0], [0, 0], [pad_beg, pad_end], [pad_beg, pad_end]],
                          mode=mode)
        return tf.pad(inputs, [[0, 0], [pad_beg, pad_end], [pad_beg, pad_end], [0, 0]],
                      mode=mode)

    x = tf.constant(_seeded_nchw([1, 3, 4, 4]))
    anchors_px = [(10, 13), (16, 30)]
    num_classes, img_size = 2, (16, 16)
    with slim.arg_scope([fixed_padding], data_format="NCHW"):
        padded = fixed_padding(x, 3, mode="REFLECT")
    with tf.variable_scope("det"):
        predictions = tf.layers.conv2d(
            padded, len(anchors_px) * (5 + num_classes), 3, data_format="channels_first",
            kernel_initializer=tf.constant_initializer(
                _seeded_nchw([3, 3, 3, 14], 2) * 0.3),
            bias_initializer=tf.zeros_initializer())
    grid_size = predictions.get_shape().as_list()[2:4]
    dim = grid_size[0] * grid_size[1]
    bbox_attrs = 5 + num_classes
    predictions = tf.reshape(predictions, [-1, len(anchors_px) * bbox_attrs, dim])
    predictions = tf.transpose(predictions, [0, 2, 1])
    predictions = tf.reshape(predictions, [-1, len(anchors_px) * dim, bbox_attrs])
    stride = (img_size[0] // grid_size[0], img_size[1] // grid_size[1])
    anchors = [(a[0] / stride[0], a[1] / stride[1]) for a in anchors_px]
    box_centers, box_sizes, confidence, classes = tf.split(
        predictions, [2, 2, 1, num_classes], axis=-1)
    box_centers = tf.nn.sigmoid(box_centers)
    confidence = tf.nn.sigmoid(confidence)
    a, b = tf.meshgrid(tf.range(grid_size[0], dtype=tf.float32),
                       tf.range(grid_size[1], dtype=tf.float32))
    x_y_offset = tf.concat([tf.reshape(a, (-1, 1)), tf.reshape(b, (-1, 1))], axis=-1)
    x_y_offset = tf.reshape(tf.tile(x_y_offset, [1, len(anchors)]), [1, -1, 2])
    box_centers = (box_centers + x_y_offset) * stride
    box_sizes = tf.exp(box_sizes) * tf.tile(anchors, [dim, 1]) * stride
    detections = tf.concat([box_centers, box_sizes, confidence, tf.nn.sigmoid(classes)],
                           axis=-1)
    up = tf.transpose(x, [0, 2, 3, 1])
    up = tf.image.resize_nearest_neighbor(up, (8, 6))
    up = tf.identity(tf.transpose(up, [0, 3, 1, 2]), name="upsampled")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {"padded": sess.run(padded), "detections": sess.run(detections),
                "up": sess.run(up), "names": [up.name, detections.name],
                "shapes": [detections.get_shape().as_list(), up.get_shape().as_list()]}


def _seeded_nchw(shape, seed=1):
    return np.random.RandomState(seed).uniform(-1, 1, shape).astype(np.float32)
