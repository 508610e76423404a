"""Golden cases: Keras 2.2.4's backend functions that tf.keras dropped and standalone
`keras.backend` still answers under tf1compat (tf1compat/keras/standalone_names.py):
`K.separable_conv1d` and `K.conv3d_transpose`.

Recorded under real TF with Keras 2.2.4's definitions (keras/backend/tensorflow_backend.py
at tag 2.2.4: a height-1 `tf.nn.separable_conv2d`, `tf.nn.conv3d_transpose`) restated with
TF's ops; replayed with tf1compat's functions, so strides, dilations, paddings and the
None batch entry of `output_shape` go through the standalone functions' plumbing.
"""

import numpy as np


def _is_tf1compat(tf):
    return tf.__name__.startswith("tf1compat")


def _keras224_separable_conv1d(tf, x, depthwise, pointwise, strides, padding, dilation):
    out = tf.nn.separable_conv2d(tf.expand_dims(x, 1), tf.expand_dims(depthwise, 0),
                                 tf.expand_dims(pointwise, 0),
                                 strides=(1,) + (strides,) * 2 + (1,),
                                 padding=padding.upper(), rate=(1, dilation),
                                 data_format="NHWC")
    return tf.squeeze(out, [1])


def case_keras_separable_conv1d(tf):
    rng = np.random.RandomState(0)
    x = tf.constant(rng.randn(2, 9, 3).astype(np.float32))
    depthwise = tf.constant(rng.randn(3, 3, 2).astype(np.float32))
    pointwise = tf.constant(rng.randn(1, 6, 4).astype(np.float32))
    results = {}
    for strides, padding, dilation in ((1, "valid", 1), (2, "same", 1), (1, "same", 2)):
        if _is_tf1compat(tf):
            from tf1compat.keras.standalone_names import separable_conv1d
            y = separable_conv1d(x, depthwise, pointwise, strides=strides, padding=padding,
                                 data_format="channels_last", dilation_rate=dilation)
        else:
            y = _keras224_separable_conv1d(tf, x, depthwise, pointwise, strides, padding,
                                           dilation)
        results[f"{strides}_{padding}_{dilation}"] = y
    with tf.Session() as sess:
        values = sess.run(results)
    return {key: {"value": value, "shape": list(value.shape)}
            for key, value in values.items()}


def case_keras_conv3d_transpose(tf):
    rng = np.random.RandomState(1)
    data = rng.randn(2, 3, 4, 2, 5).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 3, 4, 2, 5])
    kernel = tf.constant(rng.randn(2, 3, 2, 6, 5).astype(np.float32))
    cases = {"valid_s1": ((None, 4, 6, 3, 6), (1, 1, 1), "valid"),
             "same_s2": ((2, 6, 8, 4, 6), (2, 2, 2), "same")}
    results = {}
    for key, (output_shape, strides, padding) in cases.items():
        if _is_tf1compat(tf):
            from tf1compat.keras.standalone_names import conv3d_transpose
            y = conv3d_transpose(x, kernel, output_shape, strides=strides, padding=padding,
                                 data_format="channels_last")
        else:
            shape = output_shape if output_shape[0] is not None else \
                (tf.shape(x)[0],) + output_shape[1:]
            y = tf.nn.conv3d_transpose(x, kernel, tf.stack(list(shape)),
                                       (1,) + strides + (1,), padding=padding.upper())
        results[key] = y
    with tf.Session() as sess:
        values = sess.run(results, {x: data})
    return {key: {"value": value, "shape": list(value.shape)}
            for key, value in values.items()}
