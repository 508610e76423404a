"""Golden cases: patterns from tensorflow/models' research/object_detection (its TF1-era core:
box_list_ops, post_processing, preprocessor, anchor generators, box coders, matchers,
utils), whose own tf.test.TestCase files ran under real TF and tf1compat test by test,
and slim's preprocessing (inception, vgg, cifarnet: eval and seeded training paths matched
TF to float rounding once switch/merge existed). Differences found there, each restated
small here and fixed in tf1compat:

* `batch_multiclass_non_max_suppression` reshapes its placeholder masks of shape
  [n, 1, 0, 0] with `[-1, q, 0, 0]`: TF's Reshape kernel leaves zero sizes out of both
  products, so the -1 still comes out (n / q), and its shape function leaves that dim
  unknown; it then gathers those empty masks with indices past their rows, which TF's
  GatherV2 allows because a slice of zero elements copies nothing.
* `tf.image.non_max_suppression` with 6 boxes and 5 scores is a ValueError at graph build
  (TF's shape function merges the two num_boxes), as are non-scalar thresholds.
* the preprocessor's `_apply_with_random_selector` (slim's inception preprocessing has the
  same helper) builds its own `control_flow_ops.switch` / `merge` conditional.
* `tf.zeros([2, 3, code_size / 2])` (a float dim) is a small Const in TF.
* `tf.constant(range(1, 10), shape=...)` is TF's ValueError, `tf.image.crop_and_resize(...,
  extrapolation_value=None)` takes the attr's default, `tf.gfile.Open(path, "wb")` takes
  text, and `assertRaisesWithPredicateMatch` turns an exception of another type into a
  test failure, as TF's does.
"""

import os
import tempfile
import unittest

import numpy as np

from tests.golden.harness import catch


def _control_flow_ops(tf):
    if hasattr(tf, "contrib"):              # tf1compat (TF 2.21 has no contrib)
        from tf1compat.internal import control_flow_ops
    else:
        from tensorflow.python.ops import control_flow_ops
    return control_flow_ops


def case_reshape_minus_one_beside_zero_sizes(tf):
    """Reshape with -1 and a zero size: static shapes and the shapes the kernel gives, for
    a constant input and a fed placeholder of unknown shape."""
    out = []
    for ishape, target in (([0, 2, 0, 0], [-1, 2, 0, 0]), ([8, 1, 0, 0], [-1, 2, 0, 0]),
                           ([0], [-1, 2, 0, 0]), ([3, 0, 4], [-1, 0]),
                           ([3, 0, 5], [-1, 4, 0]), ([0, 6], [-1, 3]), ([2, 0], [0, -1]),
                           ([0, 4], [-1, 0, 3])):
        x = tf.zeros(ishape)
        p = tf.placeholder(tf.float32, None)
        r, r2 = tf.reshape(x, target), tf.reshape(p, target)
        with tf.Session() as sess:
            out.append({"static": [str(r.shape), str(r2.shape)],
                        "run": [list(sess.run(r).shape),
                                list(sess.run(r2, {p: np.zeros(ishape)}).shape)]})
    out.append(catch(lambda: tf.reshape(tf.zeros([2, 0, 3]), [-1, -3]), message=True))
    p = tf.placeholder(tf.float32, None)
    with tf.Session() as sess:
        out.append(catch(lambda: sess.run(tf.reshape(p, [-1, 4, 0]), {p: np.zeros([2, 3])})))
    return out


def case_gather_of_empty_slices_checks_no_index(tf):
    """GatherV2 whose slices hold no elements returns the empty result for any index; a
    slice with elements (and gather_nd) still checks the range."""
    out = {}
    for name, fn in (("rows_of_empty", lambda: tf.gather(tf.zeros([2, 0]), [5])),
                     ("empty_rows", lambda: tf.gather(tf.zeros([0, 3]), [1])),
                     ("middle_zero", lambda: tf.gather(tf.zeros([2, 0, 3]), [5])),
                     ("axis1", lambda: tf.gather(tf.zeros([3, 2, 0]), [5], axis=1)),
                     ("outer_zero", lambda: tf.gather(tf.zeros([0, 2]), [5], axis=1)),
                     ("negative", lambda: tf.gather(tf.zeros([2, 0]), [-1])),
                     ("matrix_indices", lambda: tf.gather(tf.zeros([2, 0]), [[5, 1]])),
                     ("batch_dims", lambda: tf.gather(tf.zeros([2, 2, 0]), [[5], [1]],
                                                      axis=1, batch_dims=1)),
                     ("gather_nd", lambda: tf.gather_nd(tf.zeros([2, 0]), [[5]]))):
        with tf.Session() as sess:
            out[name] = catch(lambda: list(sess.run(fn()).shape))
    return out


def case_nms_checks_num_boxes_at_graph_build(tf):
    """NonMaxSuppression V1-V5's shape function: boxes and scores agree on num_boxes, the
    size and thresholds are scalars; an unknown count passes."""
    boxes, scores = tf.zeros([6, 4]), tf.zeros([5])
    return {
        "v3": catch(lambda: tf.image.non_max_suppression(boxes, scores, 3), message=True),
        "v5": catch(lambda: tf.image.non_max_suppression_with_scores(boxes, scores, 3)),
        "v1": catch(lambda: tf.raw_ops.NonMaxSuppression(boxes=boxes, scores=scores,
                                                         max_output_size=3)),
        "v2": catch(lambda: tf.raw_ops.NonMaxSuppressionV2(
            boxes=boxes, scores=scores, max_output_size=3, iou_threshold=0.5)),
        "size_not_scalar": catch(lambda: tf.image.non_max_suppression(
            boxes, tf.zeros([6]), [3]), message=True),
        "threshold_not_scalar": catch(lambda: tf.image.non_max_suppression(
            boxes, tf.zeros([6]), 3, iou_threshold=[0.5])),
        "unknown_count": str(tf.image.non_max_suppression(
            tf.placeholder(tf.float32, [None, 4]), scores, 3).shape),
    }


def case_object_detection_batch_nms_with_empty_masks(tf):
    """post_processing.batch_multiclass_non_max_suppression restated small: map_fn over
    images; each slices its valid boxes, reshapes the [n, 1, 0, 0] placeholder masks to
    [-1, q, 0, 0], runs NMS per class, gathers boxes, scores and masks, and pads."""
    boxes = tf.constant([[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
                          [0, 100, 1, 101], [0, 0, 0.5, 0.5]],
                         [[0, 0, 2, 2], [0, 0, 2, 2.1], [5, 5, 6, 6], [0, 0, 1, 1],
                          [1, 1, 3, 3], [9, 9, 10, 10]]], tf.float32)
    scores = tf.constant([[[.9, .1], [.75, .2], [.6, .85], [.95, .3], [.5, .05], [.3, .6]],
                          [[.2, .8], [.7, .1], [.4, .9], [.1, .2], [.6, .3], [.05, .5]]])
    num_valid = tf.constant([6, 5])
    masks = tf.zeros(tf.stack([2, 6, 1, 0, 0]))
    max_total = 5

    def single_image(args):
        per_boxes, per_scores, per_masks, n = args
        per_boxes = tf.slice(per_boxes, [0, 0], tf.stack([n, -1]))
        per_scores = tf.slice(per_scores, [0, 0], tf.stack([n, -1]))
        per_masks = tf.reshape(tf.slice(per_masks, 4 * [0], tf.stack([n, -1, -1, -1])),
                               [-1, 1, 0, 0])
        kept_boxes, kept_scores, kept_classes, kept_masks = [], [], [], []
        for c in range(2):
            class_scores = per_scores[:, c]
            keep = tf.image.non_max_suppression(per_boxes, class_scores, 3, iou_threshold=0.5,
                                                score_threshold=0.25)
            kept_boxes.append(tf.gather(per_boxes, keep))
            kept_scores.append(tf.gather(class_scores, keep))
            kept_classes.append(tf.fill(tf.shape(keep), float(c)))
            kept_masks.append(tf.gather(per_masks[:, 0], keep))
        all_scores = tf.concat(kept_scores, 0)
        count = tf.minimum(tf.size(all_scores), max_total)
        _, order = tf.nn.top_k(all_scores, count)
        pad = max_total - count
        sel_boxes = tf.pad(tf.gather(tf.concat(kept_boxes, 0), order), [[0, pad], [0, 0]])
        sel_scores = tf.pad(tf.gather(all_scores, order), [[0, pad]])
        sel_classes = tf.pad(tf.gather(tf.concat(kept_classes, 0), order), [[0, pad]])
        sel_masks = tf.pad(tf.gather(tf.concat(kept_masks, 0), order),
                           [[0, pad], [0, 0], [0, 0]])
        return sel_boxes, sel_scores, sel_classes, sel_masks, count

    out = tf.map_fn(single_image, [boxes, scores, masks, num_valid],
                    dtype=(tf.float32, tf.float32, tf.float32, tf.float32, tf.int32))
    with tf.Session() as sess:
        values = sess.run(out)
    return {"boxes": values[0], "scores": values[1], "classes": values[2],
            "masks_shape": list(values[3].shape), "num_detections": values[4],
            "static": [str(t.shape) for t in out]}


def case_switch_merge_random_selector(tf):
    """Object Detection's (and slim's) `_apply_with_random_selector`: one
    `control_flow_ops.switch` per case into `merge`; only the selected case runs (one holds
    a tf.cond), a fetch of a dead output is an error, and gradients flow through."""
    cfo = _control_flow_ops(tf)
    x = tf.placeholder(tf.float32, [None, 3])
    sel = tf.placeholder(tf.int32, [])

    def func(t, case):
        return [t * 2.0, t + 10.0,
                tf.cond(tf.reduce_sum(t) > 0, lambda: -t, lambda: t * 0.0)][case]
    switched = [cfo.switch(x, tf.equal(sel, c)) for c in range(3)]
    merged = cfo.merge([func(switched[c][1], c) for c in range(3)])
    total = tf.reduce_sum(merged[0]) + 1.0
    out = {"names": [t.name for t in switched[1]] + [merged.output.name,
                                                     merged.value_index.name],
           "static": str(merged[0].shape), "merge_type": type(merged).__name__}
    feed = np.arange(6, dtype=np.float32).reshape(2, 3) - 1.0
    with tf.Session() as sess:
        out["runs"] = [sess.run([merged[0], merged[1], total], {x: feed, sel: c})
                       for c in range(3)]
        out["none_selected"] = catch(lambda: sess.run(merged[0], {x: feed, sel: 7}))
        out["dead_fetch"] = catch(lambda: sess.run(switched[0][1], {x: feed, sel: 1}))
        out["none_input"] = catch(lambda: cfo.merge([x, None]))
        v = tf.Variable([1.0, 2.0])
        p = tf.placeholder(tf.bool, [])
        off, on = cfo.switch(v, p)
        grad = tf.gradients(tf.reduce_sum(cfo.merge([off * 3.0, on * on])[0]), v)[0]
        sess.run(v.initializer)
        out["grads"] = [sess.run(grad, {p: True}), sess.run(grad, {p: False})]
    return out


def case_zeros_ones_of_float_dims(tf):
    """tf.zeros/ones take a small shape list with float dims (cut to ints) as TF's
    `_constant_if_small` does; a large one, a scalar float or fill/reshape raise."""
    out = {}
    for name, fn in (("zeros", lambda: tf.zeros([2, 3, 4 / 2])),
                     ("ones_tuple", lambda: tf.ones((2.0,))),
                     ("cut", lambda: tf.zeros([2, 3, 2.5])),
                     ("int_dtype", lambda: tf.zeros([2, 3, 2.0], dtype=tf.int32)),
                     ("large", lambda: tf.zeros([2000, 3, 2.0])),
                     ("scalar_float", lambda: tf.zeros(3.0)),
                     ("with_tensor", lambda: tf.zeros([2, tf.constant(3), 2.0])),
                     ("fill", lambda: tf.fill([2, 2.0], 1.0)),
                     ("reshape", lambda: tf.reshape(tf.zeros([4]), [2, 2.0]))):
        def run():
            t = fn()
            with tf.Session() as sess:
                return [str(t.shape), t.dtype.name, list(sess.run(t).shape)]
        out[name] = catch(run, message=True)
    return out


def case_constant_of_range(tf):
    """`tf.constant(range(...))` is TF's ValueError (make_tensor_proto reads dimensions from
    lists and tuples only); convert_to_tensor of a range is a Range op."""
    out = {name: catch(fn, message=True) for name, fn in (
        ("shaped", lambda: tf.constant(range(1, 10), dtype=tf.float32, shape=[1, 3, 3, 1])),
        ("plain", lambda: tf.constant(range(3))),
        ("empty", lambda: tf.constant(range(0))))}
    r = tf.convert_to_tensor(range(3))
    with tf.Session() as sess:
        out["converted"] = [r.op.type, sess.run(r), sess.run(tf.reduce_sum(range(4)))]
    return out


def case_crop_and_resize_none_extrapolation(tf):
    """Object Detection's position_sensitive_crop_regions passes extrapolation_value=None
    through: the attr's default (0) applies, as in TF's generated wrapper."""
    image = tf.reshape(tf.range(1.0, 17.0), [1, 4, 4, 1])
    boxes = tf.constant([[0.0, 0.0, 1.0, 1.0], [-0.5, -0.5, 0.5, 0.5]])
    crops = tf.image.crop_and_resize(image, boxes, tf.constant([0, 0]), [2, 2],
                                     extrapolation_value=None)
    with tf.Session() as sess:
        return sess.run(crops)


def case_gfile_text_into_binary_file(tf):
    """`tf.gfile.Open(path, "wb").write(str)` (Object Detection's category_util test):
    TF's GFile encodes text as UTF-8 in any mode."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "categories.csv")
        with tf.gfile.Open(path, "wb") as f:
            f.write("0,\"cat\"\n1,\"dög\"\n")
            f.write(b"2,dog\n")
        with tf.gfile.Open(path, "rb") as f:
            raw = f.read()
        with tf.gfile.Open(path, "r") as f:
            text = f.read()
    return {"raw": list(raw), "text": text}


def case_assert_raises_with_predicate_match(tf):
    """TF's `assertRaisesWithPredicateMatch` / `assertRaisesOpError` are context managers
    that turn any other exception, or none, into a test failure ("Exception of type ...");
    a callable predicate is called with the exception."""

    class Checks(tf.test.TestCase):
        def test_other_type(self):
            with self.assertRaisesWithPredicateMatch(tf.errors.InvalidArgumentError, "size"):
                raise ValueError("Dimension size must be evenly divisible")

        def test_not_raised(self):
            with self.assertRaisesOpError("assertion failed"):
                pass

        def test_regex_mismatch(self):
            with self.assertRaisesWithPredicateMatch(ValueError, "^nope"):
                raise ValueError("bad value")

        def test_predicate(self):
            with self.assertRaisesWithPredicateMatch(ValueError, lambda e: "bad" in str(e)):
                raise ValueError("bad value")

        def test_op_error(self):
            with self.session() as sess:
                with self.assertRaisesOpError("must be greater"):
                    sess.run(tf.assert_greater(tf.constant(1), tf.constant(2),
                                               message="must be greater"))

    result = unittest.TextTestRunner(stream=open(os.devnull, "w"), verbosity=0).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(Checks))
    return {"run": result.testsRun,
            "failures": sorted((t.id().rsplit(".", 1)[-1], tb.strip().splitlines()[-1])
                               for t, tb in result.failures),
            "errors": sorted(t.id().rsplit(".", 1)[-1] for t, _ in result.errors)}


def case_slim_inception_distort_color_random_selector(tf):
    """slim's inception_preprocessing, restated: `apply_with_random_selector` draws the case
    with a seeded random_uniform and routes the image through switch/merge into
    `distort_color`'s seeded brightness/saturation/hue/contrast orderings (the draws of
    the cases not taken do not run)."""
    cfo = _control_flow_ops(tf)
    tf.set_random_seed(7)
    image = tf.constant(np.random.RandomState(0).uniform(size=(6, 5, 3)).astype(np.float32))

    def distort_color(img, ordering):
        steps = [lambda x: tf.image.random_brightness(x, max_delta=32. / 255.),
                 lambda x: tf.image.random_saturation(x, lower=0.5, upper=1.5),
                 lambda x: tf.image.random_hue(x, max_delta=0.2),
                 lambda x: tf.image.random_contrast(x, lower=0.5, upper=1.5)]
        for i in ([0, 1, 2, 3], [1, 0, 3, 2], [1, 3, 0, 2], [2, 1, 0, 3])[ordering]:
            img = steps[i](img)
        return tf.clip_by_value(img, 0.0, 1.0)

    selector = tf.random_uniform([], maxval=4, dtype=tf.int32)
    distorted = cfo.merge([distort_color(cfo.switch(image, tf.equal(selector, case))[1], case)
                           for case in range(4)])
    with tf.Session() as sess:
        return [sess.run([distorted[0], distorted[1]]) for _ in range(3)]


def case_reshape_zero_size_of_nonempty_input(tf):
    """A zero size in the target makes TF's shape function count 0 elements: an input with
    elements is a ValueError at graph build even beside a -1; an unknown input is not."""
    x = tf.placeholder(tf.float32, [None, 3])
    return {"known": catch(lambda: tf.reshape(tf.ones([4, 3]), [-1, 0]), message=True),
            "unknown": str(tf.reshape(x, [-1, 0]).shape),
            "unknown_dim": str(tf.reshape(x, [0, -1]).shape)}
