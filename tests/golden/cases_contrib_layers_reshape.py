"""Golden cases: `tf.contrib.layers` unit_norm, maxout, images_to_sequence,
sequence_to_images, elu and scale_gradient (values, gradients, names, static shapes,
errors; scale_gradient is a Defun in TF, so its output name is not compared). The oracle
is TF 1.15's contrib/layers/python/layers/layers.py functions executed under TF 2.21's
tf.compat.v1 (scripts/oracle_contrib.py `tf115_functions`); elu (contrib's fully_connected with
activation elu) is stood in by tf.layers.dense named "fully_connected", so only its
output (name, shape, op type, range) is compared, not its variables' names."""

import numpy as np

from tests.golden.harness import catch, describe

_NAMES = ["unit_norm", "maxout", "images_to_sequence", "sequence_to_images"]


def _layers(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.layers
    import types

    import oracle_contrib
    from tensorflow.python.framework import dtypes, ops
    from tensorflow.python.ops import array_ops, math_ops, variable_scope

    def collect_named_outputs(collections, alias, outputs):
        if collections:
            tf.add_to_collections(collections, outputs)
        return outputs

    namespace = {"ops": ops, "array_ops": array_ops, "math_ops": math_ops, "dtypes": dtypes,
                 "variable_scope": variable_scope, "DATA_FORMAT_NCHW": "NCHW",
                 "DATA_FORMAT_NHWC": "NHWC",
                 "utils": types.SimpleNamespace(collect_named_outputs=collect_named_outputs)}
    out = types.SimpleNamespace(**oracle_contrib.tf115_functions(
        "contrib/layers/python/layers/layers.py", _NAMES, namespace))

    def elu(inputs, num_outputs, **kwargs):
        return tf.layers.dense(inputs, num_outputs, activation=tf.nn.elu,
                               name="fully_connected", **kwargs)
    out.elu = elu
    return out


def _run(tf, tensors, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(tensors, feed)


def case_unit_norm_and_maxout(tf):
    layers = _layers(tf)
    data = np.random.RandomState(0).randn(2, 3, 4, 6).astype(np.float32)
    out = {}
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3, 4, 6])
        tensors = {"norm1": layers.unit_norm(x, 1), "norm3": layers.unit_norm(x, 3, 1e-3),
                   "max2": layers.maxout(x, 2), "max3_axis2": layers.maxout(x, 2, axis=2),
                   "max_scope": layers.maxout(x, 3, scope="mo")}
        out["static"] = {k: describe(v) for k, v in tensors.items()}
        out["values"] = _run(tf, tensors, {x: data})
        out["bad_dim"] = catch(lambda: layers.unit_norm(x, 4))
        out["bad_units"] = catch(lambda: layers.maxout(x, 4), message=True)
    return out


def case_images_to_sequence_round_trip(tf):
    layers = _layers(tf)
    data = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    out = {}
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3, 4, 5])
        seq = layers.images_to_sequence(x)
        back = layers.sequence_to_images(seq, 3)
        nchw = layers.images_to_sequence(tf.transpose(x, [0, 3, 1, 2]), data_format="NCHW")
        fixed = layers.sequence_to_images(tf.constant(np.ones([4, 6, 5], np.float32)), 3,
                                          output_data_format="channels_first")
        tensors = {"seq": seq, "back": back, "nchw": nchw, "fixed": fixed}
        out["static"] = {k: describe(v) for k, v in tensors.items()}
        out["values"] = _run(tf, tensors, {x: data})
        out["bad_format"] = catch(lambda: layers.images_to_sequence(x, data_format="NWC"),
                                  message=True)
    return out


def case_elu_fully_connected(tf):
    layers = _layers(tf)
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        x = tf.constant(np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3))
        y = layers.elu(x, 4)
        return {"y": describe(y), "type": y.op.type,
                "value_min": bool(_run(tf, tf.reduce_min(y)) >= -1)}


def _scale_gradient(tf):
    if getattr(tf, "contrib", None) is not None:
        return tf.contrib.layers.scale_gradient
    import oracle_contrib
    from tensorflow.python.framework import function
    fns = oracle_contrib.tf115_functions(
        "contrib/layers/python/layers/layers.py",
        ["_scale_gradient_shape", "_scale_gradient_grad", "scale_gradient"], {})
    return function.Defun(python_grad_func=fns["_scale_gradient_grad"],
                          shape_func=fns["_scale_gradient_shape"])(fns["scale_gradient"])


def case_scale_gradient(tf):
    scale_gradient = _scale_gradient(tf)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [3])
        m = tf.placeholder(tf.float32, [])
        y = scale_gradient(x * x, m)
        gx, gm = tf.gradients(tf.reduce_sum(y * 2.0), [x, m])
        with tf.Session() as sess:
            values = sess.run({"y": y, "gx": gx}, {x: [1.0, -2.0, 3.0], m: 0.25})
        return {"values": values, "gm_is_none": gm is None,
                "shape": y.shape.as_list(), "dtype": y.dtype.name}
