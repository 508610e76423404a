"""Golden cases: `tf.contrib.layers.conv3d_transpose` (= convolution3d_transpose): output
names and shapes, variables and their collections, values (seeded), format errors. The
oracle is TF 1.15's contrib/layers/python/layers/layers.py convolution3d_transpose with its
variable-getter helpers, executed under TF 2.21's tf.compat.v1 (scripts/oracle_contrib.py
`tf115_functions`; contrib's model_variable stood in by the scope's getter adding
MODEL_VARIABLES, as it does)."""

import numpy as np

from tests.golden.harness import catch, describe

_NAMES = ["convolution3d_transpose", "_model_variable_getter", "_build_variable_getter",
          "_add_variable_to_collections"]


def _conv3d_transpose(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.layers.conv3d_transpose
    import types

    import oracle_contrib
    from tensorflow.python.framework import ops
    from tensorflow.python.ops import init_ops, nn, variable_scope
    from tensorflow.python.ops import variables as tf_variables

    def model_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                       collections=None, trainable=True, custom_getter=None, **kwargs):
        collections = list(collections or []) + [tf.GraphKeys.GLOBAL_VARIABLES,
                                                  tf.GraphKeys.MODEL_VARIABLES]
        return custom_getter(name, shape=shape, dtype=dtype, initializer=initializer,
                             regularizer=regularizer, collections=collections,
                             trainable=trainable)

    def get_variable_collections(collections, name):
        if isinstance(collections, dict):
            return collections.get(name, None)
        return collections

    namespace = {
        "ops": ops, "nn": nn, "init_ops": init_ops, "variable_scope": variable_scope,
        "tf_variables": tf_variables, "DATA_FORMAT_NCDHW": "NCDHW",
        "DATA_FORMAT_NDHWC": "NDHWC",
        "initializers": types.SimpleNamespace(
            xavier_initializer=tf.initializers.glorot_uniform),
        "convolutional_layers": types.SimpleNamespace(
            Convolution3DTranspose=tf.layers.Conv3DTranspose),
        "variables": types.SimpleNamespace(model_variable=model_variable),
        "utils": types.SimpleNamespace(
            collect_named_outputs=lambda collections, alias, outputs: outputs,
            get_variable_collections=get_variable_collections),
    }
    return oracle_contrib.tf115_functions("contrib/layers/python/layers/layers.py", _NAMES,
                                          namespace)["convolution3d_transpose"]


def case_conv3d_transpose(tf):
    conv = _conv3d_transpose(tf)
    data = np.random.RandomState(1).randn(2, 3, 4, 2, 2).astype(np.float32)
    out = {}
    with tf.Graph().as_default():
        tf.set_random_seed(5)
        x = tf.placeholder(tf.float32, [None, 3, 4, 2, 2])
        tensors = {
            "same": conv(x, 3, [2, 2, 2], stride=2),
            "valid": conv(x, 2, 3, padding="VALID", activation_fn=None, scope="v"),
            "nobias": conv(x, 1, [1, 2, 2], biases_initializer=None,
                           variables_collections={"weights": ["w_coll"]}),
            "ncdhw": conv(tf.transpose(x, [0, 4, 1, 2, 3]), 2, 2, stride=[1, 2, 1],
                          data_format="NCDHW", activation_fn=tf.nn.tanh),
        }
        out["static"] = {k: describe(v) for k, v in tensors.items()}
        out["vars"] = sorted(v.name for v in tf.global_variables())
        out["model_vars"] = sorted(v.name for v in tf.get_collection(
            tf.GraphKeys.MODEL_VARIABLES))
        out["w_coll"] = [v.name for v in tf.get_collection("w_coll")]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out["values"] = sess.run(tensors, {x: data})
        out["bad_format"] = catch(lambda: conv(x, 2, 2, data_format="NHWC"), message=True)
    return out
