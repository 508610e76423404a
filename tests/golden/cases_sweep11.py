"""Golden cases: a sweep of TF1 API corners third-party scripts use (session 11): CTC
decoders, image ops, string ops, segment/scatter ops, linalg, metrics, losses."""

import numpy as np

from tests.golden.harness import tolerance


def _run(tf, fetches, feed=None, init=True):
    with tf.Session() as sess:
        if init:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        return sess.run(fetches, feed)


def case_ctc_decoders(tf):
    rng = np.random.RandomState(1)
    logits = rng.randn(6, 2, 4).astype(np.float32)
    seq_len = np.array([6, 4], np.int32)
    greedy, gprob = tf.nn.ctc_greedy_decoder(logits, seq_len)
    beam, bprob = tf.nn.ctc_beam_search_decoder(logits, seq_len, beam_width=3, top_paths=2)
    out = _run(tf, {"greedy": greedy[0], "gprob": gprob, "beam0": beam[0], "beam1": beam[1],
                    "bprob": bprob}, init=False)
    return {k: (v._asdict() if hasattr(v, "_asdict") else v) for k, v in out.items()}


def case_image_ops(tf):
    rng = np.random.RandomState(2)
    img = tf.constant(rng.rand(1, 6, 8, 3).astype(np.float32))
    boxes = np.array([[0.1, 0.1, 0.8, 0.9], [0.0, 0.2, 0.5, 0.6]], np.float32)
    return _run(tf, {
        "bilinear": tf.image.resize_images(img, [4, 5]),
        "nearest": tf.image.resize_images(img, [9, 11],
                                          method=tf.image.ResizeMethod.NEAREST_NEIGHBOR),
        "bicubic": tf.image.resize_bicubic(img, [3, 7]),
        "area": tf.image.resize_area(img, [3, 4]),
        "align": tf.image.resize_bilinear(img, [4, 5], align_corners=True),
        "crop_and_resize": tf.image.crop_and_resize(img, boxes, [0, 0], [3, 3]),
        "pad": tf.image.resize_image_with_crop_or_pad(img[0], 4, 10),
        "gray": tf.image.rgb_to_grayscale(img),
        "hsv": tf.image.rgb_to_hsv(img),
        "contrast": tf.image.adjust_contrast(img, 1.5),
        "standardize": tf.image.per_image_standardization(img[0]),
        "flip": tf.image.flip_left_right(img[0]),
        "rot": tf.image.rot90(img[0], 3),
        "sobel": tf.image.sobel_edges(img),
        "ssim": tf.image.ssim(img, img * 0.9, max_val=1.0, filter_size=3),
        "psnr": tf.image.psnr(img, img * 0.9, max_val=1.0),
        "nms": tf.image.non_max_suppression(boxes, [0.9, 0.8], 2, iou_threshold=0.1),
        "tv": tf.image.total_variation(img),
        "patches": tf.extract_image_patches(img, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1],
                                            "VALID"),
    }, init=False)


def case_string_ops(tf):
    s = tf.constant(["hello world", "a,b,,c", "TensorFlow 1.x"])
    split = tf.string_split(s, delimiter=" ,")
    return _run(tf, {
        "split_values": split.values, "split_indices": split.indices,
        "split_shape": split.dense_shape,
        "substr": tf.substr(s, 1, 4),
        "regex": tf.regex_replace(s, "[aeiou]", "_"),
        "join": tf.string_join([s, s], separator="|"),
        "reduce_join": tf.reduce_join(s, separator="+"),
        "to_number": tf.string_to_number(["1.5", "-2", "3e2"]),
        "hash": tf.string_to_hash_bucket_fast(s, 100),
        "hash_strong": tf.string_to_hash_bucket_strong(s, 100, [1, 2]),
        "length": tf.strings.length(s),
        "upper": tf.strings.upper(s),
        "strip": tf.strings.strip(tf.constant(["  x ", "y  "])),
        "as_string": tf.as_string(tf.constant([1.5, 2.25]), precision=2),
        "encode": tf.encode_base64(s),
        "split_v2": tf.sparse.to_dense(tf.strings.split(s), default_value=""),
    }, init=False)


def case_segment_and_scatter(tf):
    data = tf.constant(np.arange(12, dtype=np.float32).reshape(6, 2))
    seg = tf.constant([0, 0, 2, 2, 3, 1])
    ids = tf.constant([0, 0, 1, 1, 2, 2])
    ref = tf.Variable(tf.zeros([4, 2]))
    return _run(tf, {
        "unsorted_sum": tf.unsorted_segment_sum(data, seg, 5),
        "unsorted_max": tf.unsorted_segment_max(data, seg, 5),
        "unsorted_mean": tf.unsorted_segment_mean(data, seg, 5),
        "unsorted_sqrt_n": tf.unsorted_segment_sqrt_n(data, seg, 5),
        "segment_min": tf.segment_min(data, ids),
        "segment_prod": tf.segment_prod(data, ids),
        "scatter_nd": tf.scatter_nd([[1], [3], [1]], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]],
                                    [4, 2]),
        "tensor_scatter_add": tf.tensor_scatter_nd_add(tf.ones([4, 2]), [[0], [0]],
                                                       [[1.0, 1.0], [2.0, 2.0]]),
        "scatter_update": tf.scatter_update(ref, [1, 2], [[7.0, 8.0], [9.0, 10.0]]),
        "gather_nd_batch": tf.gather_nd(tf.reshape(data, [3, 2, 2]), [[1], [0], [1]],
                                        batch_dims=1),
        "gather_axis": tf.gather(tf.reshape(data, [3, 2, 2]), [1, 0], axis=2),
        "dynamic_partition": tf.dynamic_partition(data, [0, 1, 0, 1, 2, 2], 3),
        "dynamic_stitch": tf.dynamic_stitch([[0, 2], [1, 3]], [[1.0, 2.0], [3.0, 4.0]]),
    })


@tolerance(rtol=1e-5, atol=1e-5)   # eigenvectors: LAPACK rounding
def case_linalg(tf):
    rng = np.random.RandomState(3)
    a = rng.randn(4, 4).astype(np.float32)
    spd = a @ a.T + 4 * np.eye(4, dtype=np.float32)
    s, u, v = tf.svd(spd)
    e, ev = tf.self_adjoint_eig(spd)
    q, r = tf.qr(a)
    out = _run(tf, {
        "svd_s": s, "eig_e": e, "chol": tf.cholesky(spd), "inv": tf.matrix_inverse(spd),
        "det": tf.matrix_determinant(spd), "logdet": tf.linalg.logdet(spd),
        "slogdet": tf.linalg.slogdet(a),
        "solve": tf.matrix_solve(spd, tf.ones([4, 1])),
        "tri_solve": tf.matrix_triangular_solve(tf.cholesky(spd), tf.ones([4, 1])),
        "lstsq": tf.matrix_solve_ls(a, tf.ones([4, 2]), l2_regularizer=0.1),
        "band": tf.matrix_band_part(a, 1, 0), "diag_part": tf.matrix_diag_part(a),
        "set_diag": tf.matrix_set_diag(a, tf.zeros(4)), "trace": tf.trace(a),
        "norm": tf.norm(a, ord="fro", axis=[0, 1]), "norm1": tf.norm(a, ord=1),
        "expm": tf.linalg.expm(a * 0.1), "pinv": tf.linalg.pinv(a),
        "qr_recon": tf.matmul(q, r), "einsum": tf.einsum("ij,jk->ik", a, spd),
        "einsum_batch": tf.einsum("bij,bjk->bik", tf.stack([a, a]), tf.stack([spd, spd])),
        "cross": tf.cross([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]),
        "tensordot": tf.tensordot(a, spd, axes=[[1], [0]]),
    }, init=False)
    out["svd_abs_u"] = np.abs(_run(tf, u, init=False))
    out["eig_abs_v"] = np.abs(_run(tf, ev, init=False))
    return out


def case_metrics(tf):
    labels = tf.constant([0, 1, 1, 0, 1, 1], tf.int64)
    preds = tf.constant([0.1, 0.8, 0.4, 0.6, 0.9, 0.3])
    logits = tf.constant(np.random.RandomState(4).randn(6, 4).astype(np.float32))
    ops = {
        "auc": tf.metrics.auc(labels, preds),
        "auc_pr": tf.metrics.auc(labels, preds, curve="PR",
                                 summation_method="careful_interpolation"),
        "precision": tf.metrics.precision(labels, preds > 0.5),
        "recall": tf.metrics.recall(labels, preds > 0.5),
        "mean_iou": tf.metrics.mean_iou(labels, tf.cast(preds > 0.5, tf.int64), 2),
        "pr_at_thresholds": tf.metrics.precision_at_thresholds(labels, preds, [0.2, 0.5, 0.7]),
        "recall_at_k": tf.metrics.recall_at_k(tf.constant([[1], [2], [0], [3], [1], [2]],
                                                          tf.int64), logits, 2),
        "precision_at_top_k": tf.metrics.precision_at_top_k(
            tf.constant([[1], [2], [0], [3], [1], [2]], tf.int64),
            tf.nn.top_k(logits, 2).indices),
        "sens_at_spec": tf.metrics.sensitivity_at_specificity(labels, preds, 0.5),
        "mse": tf.metrics.mean_squared_error(tf.cast(labels, tf.float32), preds),
        "rmse": tf.metrics.root_mean_squared_error(tf.cast(labels, tf.float32), preds),
        "fn": tf.metrics.false_negatives(labels, preds > 0.5),
        "mean_per_class": tf.metrics.mean_per_class_accuracy(labels, tf.cast(preds > 0.5,
                                                                             tf.int64), 2),
    }
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run({k: v[1] for k, v in ops.items()})
        return sess.run({k: v[0] for k, v in ops.items()})


def case_losses(tf):
    rng = np.random.RandomState(5)
    labels = rng.rand(4, 3).astype(np.float32)
    preds = rng.rand(4, 3).astype(np.float32)
    w = np.array([[1.0], [0.0], [2.0], [0.5]], np.float32)
    R = tf.losses.Reduction
    out = {}
    for red in ("NONE", "SUM", "MEAN", "SUM_OVER_BATCH_SIZE", "SUM_BY_NONZERO_WEIGHTS"):
        r = getattr(R, red)
        out["mse_" + red] = tf.losses.mean_squared_error(labels, preds, w, reduction=r)
        out["huber_" + red] = tf.losses.huber_loss(labels, preds, w, delta=0.3, reduction=r)
        out["log_" + red] = tf.losses.log_loss(labels, preds, w, reduction=r)
        out["hinge_" + red] = tf.losses.hinge_loss(tf.round(labels), preds - 0.5, w,
                                                   reduction=r)
        out["cos_" + red] = tf.losses.cosine_distance(tf.nn.l2_normalize(labels, 1),
                                                      tf.nn.l2_normalize(preds, 1), axis=1,
                                                      weights=w, reduction=r)
        out["abs_" + red] = tf.losses.absolute_difference(labels, preds, w, reduction=r)
        out["sigmoid_" + red] = tf.losses.sigmoid_cross_entropy(
            tf.round(labels), preds, w, label_smoothing=0.1, reduction=r)
        out["softmax_" + red] = tf.losses.softmax_cross_entropy(
            tf.one_hot([0, 2, 1, 1], 3), preds, w[:, 0], label_smoothing=0.2, reduction=r)
        out["sparse_" + red] = tf.losses.sparse_softmax_cross_entropy(
            [0, 2, 1, 1], preds, w, reduction=r)
    out["pairwise"] = tf.losses.mean_pairwise_squared_error(labels, preds, w)
    values = _run(tf, out, init=False)
    values["collected"] = len(tf.losses.get_losses())
    return values


def case_nn_misc(tf):
    rng = np.random.RandomState(6)
    x = rng.randn(2, 7, 7, 4).astype(np.float32)
    k = rng.randn(3, 3, 4, 2).astype(np.float32)
    dk = rng.randn(3, 3, 4, 2).astype(np.float32)
    pk = rng.randn(1, 1, 8, 5).astype(np.float32)
    return _run(tf, {
        "atrous": tf.nn.atrous_conv2d(x, k, 2, "SAME"),
        "separable": tf.nn.separable_conv2d(x, dk, pk, [1, 1, 1, 1], "VALID"),
        "depthwise": tf.nn.depthwise_conv2d(x, dk, [1, 2, 2, 1], "SAME"),
        "conv_transpose": tf.nn.conv2d_transpose(x, rng.randn(3, 3, 5, 4).astype(np.float32),
                                                 [2, 14, 14, 5], [1, 2, 2, 1], "SAME"),
        "dilation": tf.nn.dilation2d(x, rng.randn(2, 2, 4).astype(np.float32), [1, 1, 1, 1],
                                     [1, 1, 1, 1], "SAME"),
        "fractional_max": tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
        "lrn": tf.nn.local_response_normalization(x, 2, 1.0, 0.5, 0.75),
        "moments": tf.nn.moments(x, [0, 1, 2]),
        "weighted_moments": tf.nn.weighted_moments(x, [1, 2], tf.ones([2, 7, 7, 1])),
        "log_poisson": tf.nn.log_poisson_loss(tf.ones([3]), tf.constant([0.1, 1.0, 2.0]),
                                              compute_full_loss=True),
        "weighted_ce": tf.nn.weighted_cross_entropy_with_logits(
            tf.constant([0.0, 1.0, 1.0]), tf.constant([0.3, -1.0, 2.0]), 2.0),
        "top_k": tf.nn.top_k(x[0, 0], 2),
        "in_top_k": tf.nn.in_top_k(x[0, 0], [0, 1, 2, 3, 0, 1, 2], 2),
        "space_to_depth": tf.space_to_depth(x[:, :6, :6], 2),
        "depth_to_space": tf.depth_to_space(x, 2),
        "batch_to_space": tf.batch_to_space_nd(tf.space_to_batch_nd(x, [2, 2], [[1, 0],
                                                                                [1, 0]]),
                                               [2, 2], [[1, 0], [1, 0]]),
        "elu_selu": [tf.nn.elu(x[0, 0]), tf.nn.selu(x[0, 0]), tf.nn.crelu(x[0, 0]),
                     tf.nn.relu6(x[0, 0] * 4), tf.nn.softsign(x[0, 0]),
                     tf.nn.leaky_relu(x[0, 0], 0.3)],
        "normalize": tf.nn.l2_normalize(x[0, 0], axis=-1),
        "log_softmax": tf.nn.log_softmax(x[0, 0], axis=0),
    }, init=False)


def case_gather_nd_batch_dims(tf):
    rng = np.random.RandomState(7)
    params = rng.randn(2, 3, 4, 5).astype(np.float32)
    one = tf.gather_nd(params, [[[1], [0]], [[2], [2]]], batch_dims=1, name="g")
    two = tf.gather_nd(params, rng.randint(0, 4, (2, 3, 6, 2)), batch_dims=2)
    fed = tf.placeholder(tf.int64, [None, None, 1])
    dynamic = tf.gather_nd(tf.constant(params), fed, batch_dims=1)
    out = _run(tf, {"one": one, "two": two, "dynamic": dynamic},
               {fed: np.array([[[2]], [[1]]], np.int64)}, init=False)
    out["names"] = [one.name, two.name, dynamic.name]
    out["shapes"] = [str(one.shape), str(two.shape), str(dynamic.shape)]
    errors = {}
    for label, call in (("negative", lambda: tf.gather_nd(params, [[0]], batch_dims=-1)),
                        ("too_big", lambda: tf.gather_nd(params, [[0]], batch_dims=2))):
        try:
            call()
        except Exception as e:  # noqa: BLE001 - the class is the golden
            errors[label] = type(e).__name__
    out["errors"] = errors
    return out
