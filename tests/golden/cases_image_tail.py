"""Golden cases: tf.image colour ops (hue/saturation/gamma, HSV/YIQ/YUV), crop_and_resize,
NMS (v1-v5, overlaps, padded, combined), draw_bounding_boxes, extract_glimpse,
sample_distorted_bounding_box, psnr/ssim/ssim_multiscale, sobel_edges, extract_patches."""

import numpy as np

from tests.golden.harness import catch, describe, tolerance

RNG = np.random.RandomState(5)
IMG = RNG.uniform(size=(2, 6, 7, 3)).astype(np.float32)
BIG = RNG.uniform(size=(1, 48, 48, 3)).astype(np.float32)
# Drawn once here: a case that drew from RNG would see other inputs on each replay.
NOISE = RNG.normal(scale=0.1, size=BIG.shape)
BOXES = np.array([[0.1, 0.1, 0.5, 0.6], [0.12, 0.1, 0.52, 0.6], [0.5, 0.5, 0.9, 0.9],
                  [0.0, 0.0, 0.2, 0.2], [0.52, 0.48, 0.88, 0.92], [0.9, 0.9, 0.6, 0.6]],
                 np.float32)
SCORES = np.array([0.9, 0.8, 0.75, 0.3, 0.76, 0.5], np.float32)


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


@tolerance(rtol=1e-5, atol=2e-6)
def case_colour(tf):
    x = tf.constant(IMG)
    u8 = tf.constant((IMG * 255).astype(np.uint8))
    grey = tf.constant(np.full((1, 2, 2, 3), 0.4, np.float32))
    out = {
        "hsv": tf.image.rgb_to_hsv(x), "back": tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(x)),
        "hsv64": tf.image.rgb_to_hsv(tf.cast(x, tf.float64)),
        "hue": tf.image.adjust_hue(x, 0.2), "hue_neg": tf.image.adjust_hue(x, -0.7),
        "hue_u8": tf.image.adjust_hue(u8, 0.35), "hue_grey": tf.image.adjust_hue(grey, 0.3),
        "sat": tf.image.adjust_saturation(x, 1.7), "sat0": tf.image.adjust_saturation(x, 0.0),
        "sat_u8": tf.image.adjust_saturation(u8, 0.5),
        "gamma": tf.image.adjust_gamma(x, 2.2, 0.9),
        "gamma_u8": tf.image.adjust_gamma(u8, 0.5),
        "yiq": tf.image.rgb_to_yiq(x), "yiq_back": tf.image.yiq_to_rgb(tf.image.rgb_to_yiq(x)),
        "yuv": tf.image.rgb_to_yuv(x), "yuv_back": tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(x)),
        "rhue": tf.image.random_hue(x, 0.3, seed=3),
        "rsat": tf.image.random_saturation(x, 0.5, 1.5, seed=4),
    }
    g = tf.gradients(tf.reduce_sum(tf.image.rgb_to_hsv(x) * [1.0, 2.0, 3.0]), x)[0]
    return {"vals": _run(tf, out), "grad": _run(tf, g),
            "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "types": [out["hue"].op.type, out["hsv"].op.type],
            "bad_hue": catch(lambda: tf.image.random_hue(x, 0.7), message=True),
            "bad_sat": catch(lambda: tf.image.random_saturation(x, 1.0, 0.5), message=True),
            "channels": catch(lambda: tf.image.rgb_to_hsv(tf.ones([2, 2, 4])))}


@tolerance(rtol=1e-5, atol=1e-5)
def case_crop_and_resize(tf):
    image = tf.constant(IMG)
    boxes = tf.constant([[0.0, 0.0, 1.0, 1.0], [0.2, 0.1, 0.7, 0.9], [-0.2, 0.3, 0.5, 1.4],
                         [0.6, 0.6, 0.1, 0.1]])
    idx = tf.constant([0, 1, 1, 0])
    out = {
        "bilinear": tf.image.crop_and_resize(image, boxes, idx, [4, 5]),
        "nearest": tf.image.crop_and_resize(image, boxes, idx, [3, 3], method="nearest"),
        "extrap": tf.image.crop_and_resize(image, boxes, idx, [2, 6],
                                           extrapolation_value=-1.0),
        "one": tf.image.crop_and_resize(image, boxes, idx, [1, 1]),
        "ints": tf.image.crop_and_resize(tf.cast(image * 100, tf.int32), boxes,
                                         box_indices=idx, crop_size=[3, 2]),
    }
    gi, gb = tf.gradients(tf.reduce_sum(out["bilinear"] * 1.5), [image, boxes])
    vals = _run(tf, dict(out, gi=gi, gb=gb))
    return {"vals": vals, "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "bad_index": catch(lambda: _run(tf, tf.image.crop_and_resize(image, boxes,
                                                                       [0, 1, 2, 0], [2, 2]))),
            "bad_method": catch(lambda: _run(tf, tf.image.crop_and_resize(
                image, boxes, idx, [2, 2], method="cubic")))}


def case_nms(tf):
    boxes, scores = tf.constant(BOXES), tf.constant(SCORES)
    out = {
        "v3": tf.image.non_max_suppression(boxes, scores, 5, 0.5),
        "v3_score": tf.image.non_max_suppression(boxes, scores, 5, 0.5, score_threshold=0.6),
        "v3_max2": tf.image.non_max_suppression(boxes, scores, 2, 0.3),
        "tight": tf.image.non_max_suppression(boxes, scores, 6, 0.0),
        "loose": tf.image.non_max_suppression(boxes, scores, 6, 1.0),
        "half": tf.image.non_max_suppression(tf.cast(boxes, tf.float16),
                                             tf.cast(scores, tf.float16), 4, 0.5),
    }
    ws = tf.image.non_max_suppression_with_scores(boxes, scores, 6, 0.5, soft_nms_sigma=0.5)
    ws_hard = tf.image.non_max_suppression_with_scores(boxes, scores, 6, 0.5)
    pad_i, pad_n = tf.image.non_max_suppression_padded(boxes, scores, 5, 0.5,
                                                       pad_to_max_output_size=True)
    np_i, np_n = tf.image.non_max_suppression_padded(boxes, scores, 5, 0.5)
    overlaps = tf.constant([[1.0, 0.7, 0.0], [0.7, 1.0, 0.2], [0.0, 0.2, 1.0]])
    ov = tf.image.non_max_suppression_overlaps(overlaps, [0.5, 0.9, 0.4], 3, 0.5)
    vals = _run(tf, dict(out, ws=list(ws), ws_hard=list(ws_hard), pad=[pad_i, pad_n],
                         nopad=[np_i, np_n], ov=ov))
    return {"vals": vals, "shapes": {k: describe(v) for k, v in sorted(out.items())},
            # TF builds the padded form from a function call (PartitionedCall): only
            # the other outputs' names are comparable.
            "padded": [[t.dtype.name, t.shape.as_list()] for t in (pad_i, pad_n, np_i, np_n)],
            "with_scores": [describe(t) for t in (ws[0], ws[1], ov)],
            "types": [out["v3"].op.type, ws[0].op.type, pad_i.op.type],
            "bad_iou": catch(lambda: _run(tf, tf.image.non_max_suppression(boxes, scores, 3,
                                                                          1.5))),
            "bad_boxes": catch(lambda: tf.image.non_max_suppression(tf.ones([3, 5]),
                                                                    tf.ones([3]), 2))}


def case_combined_nms(tf):
    boxes = tf.constant(np.stack([BOXES, BOXES[::-1]])[:, :, None, :] * 1.1)
    scores = tf.constant(np.stack([np.stack([SCORES, SCORES[::-1] * 0.9], 1),
                                   np.stack([SCORES * 0.5, SCORES], 1)]))
    r = tf.image.combined_non_max_suppression(boxes, scores, 3, 4, 0.5, 0.2)
    r2 = tf.image.combined_non_max_suppression(boxes, scores, 2, 10, 0.5, pad_per_class=True,
                                               clip_boxes=False)
    vals = _run(tf, [list(r), list(r2)])
    return {"vals": vals, "shapes": [describe(t) for t in list(r) + list(r2)],
            "fields": list(r._fields)}


def case_draw_glimpse(tf):
    canvas = tf.zeros([2, 5, 6, 3])
    boxes = tf.constant([[[0.0, 0.0, 1.0, 1.0], [0.2, 0.3, 0.6, 0.5]],
                         [[0.5, 0.5, 1.5, 1.2], [-0.2, 0.1, 0.4, 0.4]]])
    drawn = tf.image.draw_bounding_boxes(canvas, boxes)
    coloured = tf.image.draw_bounding_boxes(canvas, boxes,
                                            colors=tf.constant([[0.2, 0.4, 0.6, 1.0]]))
    grey = tf.image.draw_bounding_boxes(tf.zeros([1, 4, 4, 1]), boxes[:1])
    x = tf.reshape(tf.range(2 * 6 * 8, dtype=tf.float32), [2, 6, 8, 1])
    glimpses = [tf.image.extract_glimpse(x, [3, 2], off, centered=c, normalized=n)
                for off, c, n in (([[0.0, 0.0], [0.1, -0.2]], True, True),
                                  ([[3.0, 4.0], [2.5, 3.5]], False, False),
                                  ([[0.3, 0.5], [0.55, 0.45]], False, True),
                                  ([[1.5, 1.5], [-1.5, 0.5]], True, False))]
    vals = _run(tf, [drawn, coloured, grey] + glimpses)
    return {"vals": vals, "shapes": [describe(t) for t in [drawn, coloured] + glimpses],
            "types": [drawn.op.type, coloured.op.type, glimpses[0].op.type]}


def case_sample_distorted_bounding_box(tf):
    size = tf.constant([40, 60, 3])
    boxes = tf.constant([[[0.1, 0.2, 0.5, 0.6], [0.3, 0.3, 0.9, 0.8]]])
    a = tf.image.sample_distorted_bounding_box(size, boxes, seed=3, seed2=7)
    b = tf.image.sample_distorted_bounding_box(size, boxes, seed=1, seed2=0,
                                               min_object_covered=0.5,
                                               aspect_ratio_range=[0.5, 2.0],
                                               area_range=[0.1, 0.6], max_attempts=50)
    c = tf.image.sample_distorted_bounding_box(tf.constant([7, 9, 1], tf.int64),
                                               tf.zeros([1, 0, 4]), seed=5, seed2=5,
                                               use_image_if_no_bounding_boxes=True)
    with tf.Session() as sess:
        first = sess.run([list(a), list(b), list(c)])
        again = sess.run([list(a), list(b)])
    no_boxes = tf.image.sample_distorted_bounding_box(size, tf.zeros([1, 0, 4]), seed=2,
                                                      seed2=2)
    return {"first": first, "again": again,
            "shapes": [describe(t) for t in list(a) + list(c)],
            "no_boxes": catch(lambda: _run(tf, no_boxes[0])),
            "type": a[0].op.type}


@tolerance(rtol=1e-4, atol=1e-5)
def case_quality(tf):
    a = tf.constant(BIG)
    b = tf.constant(np.clip(BIG + NOISE, 0, 1).astype(np.float32))
    a_u8 = tf.constant((BIG * 255).astype(np.uint8))
    b_u8 = tf.constant((np.clip(BIG * 0.9 + 0.05, 0, 1) * 255).astype(np.uint8))
    c = tf.constant(np.tile(BIG, (1, 4, 4, 1))[:, :176, :176])
    out = {
        "psnr": tf.image.psnr(a, b, 1.0), "psnr_u8": tf.image.psnr(a_u8, b_u8, 255),
        "ssim": tf.image.ssim(a, b, 1.0), "ssim_u8": tf.image.ssim(a_u8, b_u8, 255),
        "ssim_map": tf.image.ssim(a, b, 1.0, return_index_map=True),
        "ssim_small": tf.image.ssim(a, b, 1.0, filter_size=5, filter_sigma=0.8),
        "msssim": tf.image.ssim_multiscale(c, c * 0.8 + 0.1, 1.0),
        "msssim3": tf.image.ssim_multiscale(a, b, 1.0, power_factors=(0.3, 0.3, 0.4)),
        "sobel": tf.image.sobel_edges(tf.constant(IMG)),
        "patches": tf.image.extract_patches(tf.constant(IMG), [1, 2, 3, 1], [1, 2, 2, 1],
                                            [1, 1, 1, 1], "VALID"),
    }
    g = tf.gradients(out["ssim"], a)[0]
    return {"vals": _run(tf, dict(out, g=g)),
            "shapes": {k: describe(v) for k, v in sorted(out.items())}}


def case_bounding_box_proposals(tf):
    """GPU-only in TF: static shapes, and the CPU's missing kernel."""
    out = tf.image.generate_bounding_box_proposals(
        tf.ones([1, 2, 2, 1]), tf.zeros([1, 2, 2, 4]), tf.constant([[10., 10., 1., 1., 1.]]),
        tf.constant([[[0., 0., 4., 4.]]]), post_nms_topn=5)
    with tf.Graph().as_default():
        rank = catch(lambda: tf.image.generate_bounding_box_proposals(
            tf.ones([1, 2, 2, 1]), tf.zeros([1, 2, 2, 4]),
            tf.constant([[10., 10., 1., 1., 1.]]), tf.constant([[0., 0., 4., 4.]])),
            message=True)
    with tf.Session() as sess:
        run = catch(lambda: sess.run(out.rois))
    return {"type": type(out).__name__, "shapes": [describe(t) for t in out],
            "rank": rank, "run": run}
