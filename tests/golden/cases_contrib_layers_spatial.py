"""Golden cases: `tf.contrib.layers.spatial_softmax`, `conv2d_in_plane` and `GDN` / `gdn`:
names, shapes, variables and their collections, values (seeded) and gradients. The oracle
is TF 1.15's contrib/layers/python/layers/layers.py (those functions and the GDN class)
executed under TF 2.21's tf.compat.v1 (scripts/oracle_contrib.py `tf115_functions`;
contrib's model_variable stood in by get_variable into MODEL_VARIABLES, as it is)."""

import numpy as np

_NAMES = ["spatial_softmax", "convolution2d_in_plane", "GDN", "gdn"]


def _layers(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.layers
    import types

    import oracle_contrib
    from tensorflow.python.framework import ops, tensor_shape
    from tensorflow.python.ops import (array_ops, init_ops, linalg_ops, math_ops, nn,
                                       variable_scope)

    def model_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                       collections=None, trainable=True, **kwargs):
        collections = list(collections or []) + [tf.GraphKeys.GLOBAL_VARIABLES,
                                                  tf.GraphKeys.MODEL_VARIABLES]
        return tf.get_variable(name, shape, dtype, initializer=initializer,
                               regularizer=regularizer, collections=collections,
                               trainable=trainable)

    def two_element_tuple(value):
        return tuple(value) if isinstance(value, (list, tuple)) else (value, value)

    namespace = {
        "ops": ops, "nn": nn, "init_ops": init_ops, "variable_scope": variable_scope,
        "array_ops": array_ops, "math_ops": math_ops, "linalg_ops": linalg_ops,
        "tensor_shape": tensor_shape, "dtypes": tf.dtypes,
        "DATA_FORMAT_NCHW": "NCHW", "DATA_FORMAT_NHWC": "NHWC",
        "initializers": types.SimpleNamespace(
            xavier_initializer=tf.initializers.glorot_uniform),
        "variables": types.SimpleNamespace(model_variable=model_variable),
        "base": types.SimpleNamespace(Layer=tf.layers.Layer),
        "input_spec": types.SimpleNamespace(InputSpec=tf.layers.InputSpec),
        "utils": types.SimpleNamespace(
            collect_named_outputs=lambda collections, alias, outputs: outputs,
            get_variable_collections=oracle_contrib.get_variable_collections,
            two_element_tuple=two_element_tuple,
            last_dimension=lambda shape, min_rank=1: shape.dims[-1].value),
    }
    found = oracle_contrib.tf115_functions("contrib/layers/python/layers/layers.py", _NAMES,
                                           namespace)
    try:
        ops.RegisterGradient("GDNLowerBound")(found["GDN"]._lower_bound_grad)
    except KeyError:  # registered by an earlier case of this process
        pass
    found["conv2d_in_plane"] = found["convolution2d_in_plane"]
    return types.SimpleNamespace(**found)


def _variables(tf):
    return {"global": [v.op.name for v in tf.global_variables()],
            "model": [v.op.name for v in tf.get_collection(tf.GraphKeys.MODEL_VARIABLES)],
            "trainable": [v.op.name for v in tf.trainable_variables()]}


def case_spatial_softmax(tf):
    layers = _layers(tf)
    data = np.random.RandomState(1).randn(2, 4, 5, 3).astype(np.float32)
    x = tf.constant(data)
    nhwc = layers.spatial_softmax(x)
    nchw = layers.spatial_softmax(tf.transpose(x, [0, 3, 1, 2]), temperature=0.5,
                                  data_format="NCHW", trainable=False, name="cf")
    ph = tf.placeholder(tf.float32, [None, None, None, 2])
    dynamic = layers.spatial_softmax(ph, variables_collections={"temperature": ["temps"]})
    grads = tf.gradients(tf.reduce_sum(nhwc * nhwc), [x] + tf.trainable_variables()[:1])
    out = {"names": [nhwc.name, nchw.name, dynamic.name],
           "shapes": [nhwc.shape.as_list(), nchw.shape.as_list(), dynamic.shape.as_list()],
           "temps": [v.op.name for v in tf.get_collection("temps")]}
    out.update(_variables(tf))
    errors = []
    for args in [dict(data_format="NCWH"), dict()]:
        try:
            feature = x if args else tf.placeholder(tf.float32, [None, 4, 5, None])
            layers.spatial_softmax(feature, **args)
            errors.append(None)
        except ValueError as e:
            errors.append(str(e))
    out["errors"] = errors
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["values"] = sess.run([nhwc, nchw, grads])
        out["dynamic"] = sess.run(dynamic, {ph: data[:, :3, :2, :2]})
    return out


def case_conv2d_in_plane(tf):
    layers = _layers(tf)
    data = np.random.RandomState(2).randn(2, 6, 5, 3).astype(np.float32)
    x = tf.constant(data)
    init = tf.constant_initializer(np.arange(9, dtype=np.float32).reshape(3, 3, 1, 1) / 10)
    a = layers.conv2d_in_plane(x, 3, weights_initializer=init,
                               biases_initializer=tf.constant_initializer(0.25))
    b = layers.conv2d_in_plane(x, [2, 3], stride=2, padding="VALID", activation_fn=None,
                               weights_initializer=tf.ones_initializer(),
                               normalizer_fn=lambda t, scale: t * scale,
                               normalizer_params={"scale": 2.0}, scope="second")
    c = layers.conv2d_in_plane(x, 1, biases_initializer=None, activation_fn=tf.tanh,
                               weights_initializer=tf.ones_initializer(),
                               variables_collections=["extra"])
    grads = tf.gradients(tf.reduce_sum(a), [v for v in tf.trainable_variables()
                                            if v.op.name.startswith("ConvInPlane/")])
    out = {"names": [a.name, b.name, c.name], "shapes": [t.shape.as_list() for t in (a, b, c)],
           "extra": [v.op.name for v in tf.get_collection("extra")]}
    out.update(_variables(tf))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["values"] = sess.run([a, b, c, grads])
    return out


def case_gdn(tf):
    layers = _layers(tf)
    data = np.random.RandomState(3).randn(2, 4, 3).astype(np.float32)
    x = tf.constant(data)
    y = layers.gdn(x)
    inv = layers.gdn(x, inverse=True, gamma_init=0.3, name="igdn")
    x4 = tf.constant(np.random.RandomState(4).randn(2, 3, 3, 2).astype(np.float32))
    cf = layers.gdn(x4, data_format="channels_first", beta_min=0.01)
    layer = layers.GDN(name="obj")
    z = layer.apply(x4)
    variables = tf.trainable_variables()
    grads = tf.gradients(tf.reduce_sum(y * y) + tf.reduce_sum(inv) + tf.reduce_sum(cf * z),
                         [x, x4] + variables)
    out = {"names": [t.name for t in (y, inv, cf, z)],
           "shapes": [t.shape.as_list() for t in (y, inv, cf, z)],
           "variables": [v.op.name for v in variables],
           "weights": [v.op.name for v in layer.weights]}
    errors = []
    for attempt in [lambda: layers.GDN(data_format="NHWC"),
                    lambda: layers.gdn(tf.placeholder(tf.float32, [2, None])),
                    lambda: layers.gdn(tf.placeholder(tf.float32, [2, 3, None]))]:
        try:
            attempt()
            errors.append(None)
        except ValueError as e:
            errors.append(type(e).__name__)
    out["errors"] = errors
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["values"] = sess.run([y, inv, cf, z, grads])
    return out
