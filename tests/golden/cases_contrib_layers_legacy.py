"""Golden cases: `tf.contrib.layers.legacy_fully_connected`, `legacy_relu`,
`legacy_linear`: names, shapes (rank > 2 inputs), variables, collections, seeded values,
errors. The oracle is TF 1.15's contrib/layers/python/layers/layers.py functions executed
under TF 2.21's tf.compat.v1 (scripts/oracle_contrib.py `tf115_functions`)."""

import functools

import numpy as np

from tests.golden.harness import catch, describe


def _layers(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.layers
    import types

    import oracle_contrib
    from tensorflow.python.framework import ops
    from tensorflow.python.ops import array_ops, init_ops, nn, standard_ops, variable_scope
    # TF 2.21's array_ops module no longer holds unstack/stack (tf.unstack, tf.stack are).
    array_ops = types.SimpleNamespace(reshape=array_ops.reshape, shape=array_ops.shape,
                                      unstack=tf.unstack, stack=tf.stack)
    namespace = {"ops": ops, "array_ops": array_ops, "init_ops": init_ops, "nn": nn,
                 "standard_ops": standard_ops, "variable_scope": variable_scope,
                 "initializers": types.SimpleNamespace(
                     xavier_initializer=tf.initializers.glorot_uniform)}
    fns = oracle_contrib.tf115_functions("contrib/layers/python/layers/layers.py",
                                         ["legacy_fully_connected", "_apply_activation"],
                                         namespace)
    full = fns["legacy_fully_connected"]
    return types.SimpleNamespace(
        legacy_fully_connected=full,
        legacy_relu=functools.partial(full, activation_fn=tf.nn.relu),
        legacy_linear=functools.partial(full, activation_fn=None))


def case_legacy_fully_connected(tf):
    layers = _layers(tf)
    data = np.random.RandomState(2).randn(2, 3, 4).astype(np.float32)
    out = {}
    with tf.Graph().as_default():
        tf.set_random_seed(7)
        x = tf.placeholder(tf.float32, [None, 3, 4])
        x2 = tf.placeholder(tf.float32, [None, 4])
        tensors = {"relu3": layers.legacy_relu(x, 5),
                   "linear2": layers.legacy_linear(x2, 2, name="lin"),
                   "tanh_nobias": layers.legacy_fully_connected(
                       x2, 3, activation_fn=tf.tanh, bias_init=None,
                       weight_collections=["mine"], output_collections=None)}
        out["static"] = {k: describe(v) for k, v in tensors.items()}
        out["vars"] = sorted(v.name for v in tf.global_variables())
        for key in ("weights", "biases", "activations", "mine"):
            out[key] = sorted(t.name for t in tf.get_collection(key))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out["values"] = sess.run(tensors, {x: data, x2: data[0]})
        out["rank1"] = catch(lambda: layers.legacy_relu(tf.ones([3]), 2), message=True)
        out["unknown_last"] = catch(lambda: layers.legacy_relu(
            tf.placeholder(tf.float32, [2, None]), 2), message=True)
    return out
