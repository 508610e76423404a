"""Golden cases: `tf.contrib.resampler`. TF 2.21 has no Resampler kernel (the op lives on
only in tensorflow-addons); the oracle samples with TF's CropAndResize on the image
padded with zeros, TF 1.15's definition of the op (scripts/oracle_contrib.py,
`resampler_stand_in`): values inside, at the border and outside the image, and the
gradients with respect to the image and the points."""

import numpy as np


def _resampler(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.resampler
    import oracle_contrib
    return oracle_contrib.resampler_stand_in(tf)


def _inputs(dtype=np.float32, seed=0):
    rng = np.random.RandomState(seed)
    data = rng.randn(2, 4, 6, 3).astype(dtype)
    # Points inside, near and beyond every border (x in [-2, 7], y in [-2, 5]); none on
    # an integer coordinate, where the gradient with respect to the point jumps.
    x = rng.uniform(-2.0, 7.0, (2, 3, 5)) + 0.013
    y = rng.uniform(-2.0, 5.0, (2, 3, 5)) + 0.017
    warp = np.stack([x, y], -1).astype(dtype)
    return data, warp


def case_resample_values_and_shape(tf):
    resampler = _resampler(tf)
    data, warp = _inputs()
    with tf.Graph().as_default():
        out = resampler.resampler(tf.constant(data), tf.constant(warp))
        with tf.Session() as sess:
            return {"shape": out.shape.as_list(), "dtype": out.dtype.name,
                    "value": sess.run(out)}


def case_resample_float64_points_list(tf):
    resampler = _resampler(tf)
    data, warp = _inputs(np.float64, seed=1)
    with tf.Graph().as_default():
        out = resampler.resampler(tf.constant(data), tf.constant(warp[:, 0, :2]))
        with tf.Session() as sess:
            return {"shape": out.shape.as_list(), "value": sess.run(out)}


def case_resample_gradients(tf):
    resampler = _resampler(tf)
    data, warp = _inputs(seed=2)
    weights = np.random.RandomState(3).randn(2, 3, 5, 3).astype(np.float32)
    with tf.Graph().as_default():
        d, w = tf.constant(data), tf.constant(warp)
        out = resampler.resampler(d, w)
        loss = tf.reduce_sum(out * weights)
        grads = tf.gradients(loss, [d, w])
        with tf.Session() as sess:
            value, d_data, d_warp = sess.run([loss] + grads)
    return {"loss": value, "d_data": d_data, "d_warp": d_warp}


def case_resample_unknown_shapes(tf):
    resampler = _resampler(tf)
    data, warp = _inputs(seed=4)
    with tf.Graph().as_default():
        d = tf.placeholder(tf.float32, [None, None, None, 3])
        w = tf.placeholder(tf.float32, [None, 7, 2])
        out = resampler.resampler(d, w)
        with tf.Session() as sess:
            return {"shape": out.shape.as_list(),
                    "value": sess.run(out, {d: data, w: warp.reshape(2, -1, 2)[:, :7]})}
