"""Golden cases for TF gradients tf1compat lacked or got wrong (issue 12): Zeta (q only),
Polygamma (x only), Xlog1py at x = 0, MatrixSquareRoot, nearest-neighbour CropAndResize's
box gradient (TF's is bilinear's whatever the method)."""

from __future__ import annotations

import numpy as np

from tests.golden.harness import catch


def _names(grads):
    return [None if g is None else g.name for g in grads]


def case_zeta_polygamma_gradients(tf):
    x = tf.constant([2.0, 3.0, 4.5], tf.float64)
    q = tf.constant([1.5, 2.0, 0.7], tf.float64)
    zeta_grads = tf.gradients(tf.math.zeta(x, q) * [1.0, 2.0, 3.0], [x, q])
    order = tf.constant([0.0, 1.0, 2.0], tf.float64)
    point = tf.constant([[0.5, 1.5, 2.5]], tf.float64)
    poly_grads = tf.gradients(tf.math.polygamma(order, point), [order, point])
    with tf.Session() as sess:
        return {"zeta_names": _names(zeta_grads), "poly_names": _names(poly_grads),
                "zeta_q": sess.run(zeta_grads[1]), "poly_x": sess.run(poly_grads[1])}


def case_xlog1py_gradient_at_zero(tf):
    x = tf.constant([0.0, 0.0, 1.0, 0.0, 2.0], tf.float32)
    y = tf.constant([-1.0, 0.0, -1.0, 2.0, 0.5], tf.float32)
    z = tf.math.xlog1py(x, y)
    grads = tf.gradients(z, [x, y])
    with tf.Session() as sess:
        return {"values": sess.run([z] + grads)}


def case_matrix_square_root_gradient(tf):
    m = tf.constant([[[4.0, 1.0, 0.5], [0.2, 3.0, 0.1], [0.3, 0.4, 5.0]],
                     [[2.0, 0.3, 0.0], [0.1, 1.0, 0.2], [0.0, 0.2, 3.0]]], tf.float64)
    w = tf.constant(np.arange(18).reshape(2, 3, 3) / 7.0)
    grads = tf.gradients(tf.reduce_sum(tf.linalg.sqrtm(m) * w), m)
    sym = tf.constant([[4.0, 1.0], [1.0, 3.0]], tf.float32)
    sym_grads = tf.gradients(tf.linalg.sqrtm(sym), sym)
    with tf.Session() as sess:
        return {"names": _names(grads), "batch": sess.run(grads[0]),
                "symmetric": sess.run(sym_grads[0])}


def case_crop_and_resize_box_gradients(tf):
    image = tf.constant(np.arange(2 * 4 * 5 * 3, dtype=np.float32).reshape(2, 4, 5, 3) ** 1.5)
    boxes = tf.constant([[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0], [0.3, 0.1, 0.35, 1.2]],
                        tf.float32)
    out = {}
    with tf.Session() as sess:
        for method in ("nearest", "bilinear"):
            for size in ([3, 3], [1, 2]):
                crops = tf.image.crop_and_resize(image, boxes, [0, 1, 1], size,
                                                 method=method)
                grads = tf.gradients(tf.square(crops) * 0.01, [image, boxes])
                out[f"{method}_{size[0]}x{size[1]}"] = {
                    "names": _names(grads)[1:], "values": sess.run(grads)}
    return out
