"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(the twenty-fourth session's lead).

* qqwweee/keras-yolo3 (standalone Keras 2.1.5 on TF 1.x): tiny YOLOv3 at 128x128, 20
  classes, weights drawn from one seed, two epochs of `fit` on 4 random images with
  `preprocess_true_boxes` targets, `evaluate`, `predict` and `yolo_eval`'s boxes through
  `tf.image.non_max_suppression`. It stopped at the loss's
  `K.switch(object_mask, raw_true_wh, K.zeros_like(raw_true_wh))` (a `[?,h,w,3,1]` mask
  selecting from `[?,h,w,3,2]` values: Keras tiles the condition) and at
  `K.control_flow_ops.while_loop` (Keras 2.x's `keras.backend` re-exports the modules its
  TensorFlow backend imports). Fixed, SGD training matched TF to 3e-7 and the first Adam
  epoch to 5e-5; later Adam epochs drift by up to 0.4% in the evaluated loss because one
  2x2 max-pool window holds two conv outputs that round to the same float32 here and 1
  ulp apart in TF (float64 puts them 1.7 ulp apart), so the gradient takes the other
  element and Adam's normalised step amplifies it. Not a defect: the step's gradients match
  a float64 run to 5e-6 elsewhere.
* affinelayer/pix2pix-tensorflow: train (queue pipeline of PNG pairs, Supervisor, EMA of
  the losses, summaries), test and export modes at ngf=ndf=8 ran unchanged and matched
  TF (losses to 1e-6; output images within one level); real TF restored tf1compat's
  checkpoint and ran its exported meta graph (base64 PNG in and out) to the same image,
  and the other way round. Its discriminator gradients differ between TF with and
  without oneDNN by 3e-3; tf1compat matches TF without oneDNN to 1e-5.
"""

import numpy as np


def case_keras_switch_tiles_a_lower_rank_mask(tf):
    """K.switch with a `[batch, n, 1]` condition and `[batch, n, k]` values (yolo3's
    loss): the condition is reshaped and tiled to the values' shape."""
    K = tf.keras.backend
    mask = tf.placeholder(tf.float32, [None, 4, 1])
    values = tf.placeholder(tf.float32, [None, 4, 2])
    picked = K.switch(mask, values, K.zeros_like(values))
    same_rank = K.switch(tf.constant([[True, False]]), tf.ones([1, 2]), tf.zeros([1, 2]))
    scalar = K.switch(tf.constant(True), tf.ones([2]), tf.zeros([2]))
    feed = {mask: [[[1.], [0.], [1.], [0.]], [[0.], [1.], [1.], [1.]]],
            values: np.arange(16, dtype=np.float32).reshape(2, 4, 2)}
    with tf.Session() as sess:
        out = sess.run({"picked": picked, "same_rank": same_rank, "scalar": scalar}, feed)
    out["shape"] = picked.shape.as_list()
    out["type"] = picked.op.type
    return out


def case_keras_switch_condition_of_higher_rank_is_refused(tf):
    """A condition of higher rank than the values is a ValueError naming both ranks."""
    K = tf.keras.backend
    try:
        K.switch(tf.ones([2, 3, 1]), tf.ones([2]), tf.zeros([2]))
    except ValueError as e:
        return {"error": "ValueError", "message": str(e)}
    return {"error": None}
