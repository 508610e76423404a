"""Golden cases: ImageProjectiveTransformV2 / V3, the op behind tf.contrib.image's
transform / rotate / translate (and tf.raw_ops in TF 2.x): interpolation NEAREST and
BILINEAR, every fill mode, fill values, integer and float dtypes, a batch of transforms,
a projective (c0, c1 != 0) transform, output shapes, gradients and errors."""

import math

import numpy as np

from tests.golden.harness import catch, requires, tolerance

RS = np.random.RandomState(7)
IMAGES = RS.uniform(0, 10, size=(2, 5, 6, 2)).astype(np.float32)
ROTATE = [math.cos(0.4), -math.sin(0.4), 1.2, math.sin(0.4), math.cos(0.4), -0.7, 0.0, 0.0]
PROJECTIVE = [0.9, 0.2, 0.5, -0.1, 1.1, 0.3, 0.02, -0.03]
SHIFT = [1.0, 0.0, -2.5, 0.0, 1.0, 1.5, 0.0, 0.0]


def _v2(tf, images, transforms, shape, interpolation, fill_mode="CONSTANT"):
    return tf.raw_ops.ImageProjectiveTransformV2(
        images=images, transforms=tf.constant(transforms, tf.float32),
        output_shape=tf.constant(shape, tf.int32), interpolation=interpolation,
        fill_mode=fill_mode)


@requires("raw_ops")
@tolerance(rtol=1e-5, atol=1e-4)
def case_v2_modes(tf):
    images = tf.constant(IMAGES)
    out = {}
    for interpolation in ("NEAREST", "BILINEAR"):
        for fill_mode in ("CONSTANT", "REFLECT", "WRAP", "NEAREST"):
            for name, t in (("rot", [ROTATE]), ("proj", [PROJECTIVE]),
                            ("batch", [SHIFT, ROTATE])):
                y = _v2(tf, images, t, [5, 6], interpolation, fill_mode)
                out[f"{interpolation}_{fill_mode}_{name}"] = y
    with tf.Session() as sess:
        values = sess.run(out)
    y = _v2(tf, images, [SHIFT], [7, 4], "BILINEAR")
    with tf.Session() as sess:
        values["resized"] = sess.run(y)
    values["op"] = [y.op.type, y.name, y.dtype.name, y.get_shape().as_list()]
    return values


@requires("raw_ops")
@tolerance(rtol=1e-5, atol=1e-4)
def case_v3_fill_value_and_dtypes(tf):
    out = {}
    for dtype in (np.uint8, np.int32, np.int64, np.float16, np.float64):
        images = tf.constant((IMAGES * 20).astype(dtype))
        for interpolation in ("NEAREST", "BILINEAR"):
            y = tf.raw_ops.ImageProjectiveTransformV3(
                images=images, transforms=tf.constant([ROTATE], tf.float32),
                output_shape=tf.constant([5, 6]), fill_value=tf.constant(7.6),
                interpolation=interpolation, fill_mode="CONSTANT")
            out[f"{np.dtype(dtype).name}_{interpolation}"] = y
    with tf.Session() as sess:
        return sess.run(out)


@requires("raw_ops")
def case_shapes_and_errors(tf):
    images = tf.placeholder(tf.float32, [None, None, None, 3])
    shape = tf.placeholder(tf.int32, [2])
    y = _v2(tf, images, [SHIFT], [4, 3], "NEAREST")
    y_dynamic = tf.raw_ops.ImageProjectiveTransformV2(
        images=images, transforms=tf.constant([SHIFT]), output_shape=shape,
        interpolation="NEAREST")
    ok = tf.constant(IMAGES)
    out = {"static": y.get_shape().as_list(), "dynamic": y_dynamic.get_shape().as_list(),
           "rank3": catch(lambda: _v2(tf, tf.constant(IMAGES[0]), [SHIFT], [2, 2],
                                      "NEAREST")),
           "shape_len": catch(lambda: _v2(tf, ok, [SHIFT], [2, 2, 2], "NEAREST"))}
    bad_transforms = _v2(tf, ok, [SHIFT[:6]], [5, 6], "NEAREST")
    three = _v2(tf, ok, [SHIFT, SHIFT, SHIFT], [5, 6], "NEAREST")
    zero = tf.raw_ops.ImageProjectiveTransformV2(
        images=ok, transforms=tf.constant([SHIFT]), output_shape=shape,
        interpolation="NEAREST")
    with tf.Session() as sess:
        out["bad_transforms"] = catch(lambda: sess.run(bad_transforms))
        out["three"] = catch(lambda: sess.run(three))
        out["zero"] = catch(lambda: sess.run(zero, {shape: [0, 3]}))
        out["mode"] = catch(lambda: sess.run(_v2(tf, ok, [SHIFT], [5, 6], "CUBIC")))
    return out


@requires("raw_ops")
@tolerance(rtol=1e-5, atol=1e-4)
def _gradient_weights():
    """The two weight arrays of case_gradient: the draws that follow IMAGES in the seeded
    stream (drawn afresh, so a second run of the case in one process gets the same)."""
    rs = np.random.RandomState(7)
    rs.uniform(0, 10, size=IMAGES.shape)
    return [rs.uniform(size=(1, 5, 6, 2)).astype(np.float32) for _ in range(2)]


def case_gradient(tf):
    images = tf.constant(IMAGES[:1])
    for (name, t), drawn in zip((("rot", ROTATE), ("shift", SHIFT)), _gradient_weights()):
        y = _v2(tf, images, [t], [5, 6], "BILINEAR")
        weights = tf.constant(drawn)
        grad, = tf.gradients(tf.reduce_sum(y * weights), images)
        tf.add_to_collection("grads", grad)
    with tf.Session() as sess:
        return sess.run(tf.get_collection("grads"))
