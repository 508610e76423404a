"""Golden cases: the contrib pieces TF-slim's model zoo (research/slim/nets, 2019) uses
beyond conv/pool/batch_norm: instance_norm and group_norm (CycleGAN, pix2pix),
max_pool3d / avg_pool3d (I3D, S3D-G), arg_scope_func_key, slim.initializers and
tf.contrib.util.constant_value.

Recorded as cases_contrib_slim: with `tf_slim` 1.1.0 (the maintained port of TF 1.15's
contrib.slim) on top of real TF 2.21, e.g.

    PYTHONPATH=/tmp/slim/src /tmp/tf/bin/python scripts/record_goldens.py \\
        cases_contrib_slim_nets

`tf.contrib.util.constant_value` is TF's `tensor_util.constant_value`, which real TF
exports as `tf.get_static_value`: the recorder uses that.
"""

import numpy as np

from tests.golden.harness import catch, describe


def _slim(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:             # tf1compat
        return contrib.slim
    import tf_slim                      # real TF: the recorder needs tf-slim on the path
    return tf_slim


def _images(shape, seed):
    return np.random.RandomState(seed).uniform(-2.0, 3.0, shape).astype(np.float32)


def _model_variables(tf):
    return [(v.name, v.shape.as_list()) for v in tf.model_variables()]


def _initialized_run(tf, fetches, feed):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def case_instance_norm(tf):
    slim = _slim(tf)
    x = tf.placeholder(tf.float32, [None, 4, 5, 3])
    nhwc = slim.instance_norm(x, outputs_collections="ends")
    nchw = slim.instance_norm(tf.transpose(x, [0, 3, 1, 2]), data_format="NCHW",
                              param_initializers={"beta": tf.constant_initializer(0.5),
                                                  "gamma": tf.constant_initializer(2.0)},
                              activation_fn=tf.nn.relu, scope="first")
    plain = slim.instance_norm(x, center=False, scale=False, epsilon=1e-3, scope="plain")
    reused = slim.instance_norm(tf.transpose(x, [0, 3, 1, 2]), data_format="NCHW",
                                scope="first", reuse=True)
    out = {"outputs": [describe(t) for t in (nhwc, nchw, plain, reused)],
           "model_variables": _model_variables(tf),
           "trainable": [v.name for v in tf.trainable_variables()],
           "ends": list(slim.utils.convert_collection_to_dict("ends").keys()),
           "bad_format": catch(lambda: slim.instance_norm(x, data_format="NDHWC")),
           "no_rank": catch(lambda: slim.instance_norm(tf.placeholder(tf.float32))),
           "no_channels": catch(lambda: slim.instance_norm(
               tf.placeholder(tf.float32, [2, 3, None])))}
    out["values"] = _initialized_run(tf, [nhwc, nchw, plain], {x: _images([2, 4, 5, 3], 0)})
    return out


def case_group_norm(tf):
    slim = _slim(tf)
    x = tf.placeholder(tf.float32, [None, 3, 4, 6])
    last = slim.group_norm(x, groups=2, outputs_collections="ends")
    first = slim.group_norm(tf.transpose(x, [0, 3, 1, 2]), groups=3, channels_axis=-3,
                            reduction_axes=(-2, -1), activation_fn=tf.nn.relu,
                            param_initializers={"gamma": tf.constant_initializer(1.5)},
                            scope="nchw")
    one_axis = slim.group_norm(x, groups=6, reduction_axes=(-2,), center=False,
                               scope="one_axis")
    out = {"outputs": [describe(t) for t in (last, first, one_axis)],
           "model_variables": _model_variables(tf),
           "ends": list(slim.utils.convert_collection_to_dict("ends").keys()),
           "too_many": catch(lambda: slim.group_norm(x, groups=8), message=True),
           "not_divisible": catch(lambda: slim.group_norm(x, groups=4), message=True),
           "same_axis": catch(lambda: slim.group_norm(x, groups=2, reduction_axes=(-1,)),
                              message=True)}
    out["values"] = _initialized_run(tf, [last, first, one_axis],
                                     {x: _images([2, 3, 4, 6], 1)})
    return out


def case_pool3d(tf):
    slim = _slim(tf)
    x = tf.placeholder(tf.float32, [None, 5, 6, 7, 2])
    pools = [slim.max_pool3d(x, [2, 2, 2], outputs_collections="ends"),
             slim.avg_pool3d(x, [1, 3, 3], stride=1, padding="SAME",
                             outputs_collections="ends"),
             slim.max_pool3d(x, 3, stride=[1, 2, 2], scope="pool"),
             slim.avg_pool3d(x, [2, 3, 2], stride=2, padding="SAME", scope="avg")]
    out = {"outputs": [describe(t) for t in pools],
           "ends": list(slim.utils.convert_collection_to_dict("ends").keys()),
           "bad_format": catch(lambda: slim.max_pool3d(x, 2, data_format="NHWC"),
                               message=True)}
    with tf.Session() as sess:
        out["values"] = sess.run(pools, {x: _images([2, 5, 6, 7, 2], 2)})
    return out


def case_arg_scope_func_key_and_initializers(tf):
    slim = _slim(tf)
    with slim.arg_scope([slim.batch_norm], is_training=False, decay=0.9):
        with slim.arg_scope([slim.conv2d], padding="VALID") as sc:
            pass
    key = slim.arg_scope_func_key(slim.batch_norm)
    init = slim.initializers.xavier_initializer(seed=4)
    w = tf.get_variable("w", [3, 5], initializer=init)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        w_value = sess.run(w)
    return {"batch_norm": sorted(sc[key].items()),
            "conv2d": sorted(sc[slim.arg_scope_func_key(slim.conv2d)].items()),
            "same_key": key == slim.arg_scope_func_key(slim.batch_norm),
            "conv_key_differs": key != slim.arg_scope_func_key(slim.conv2d),
            "keys": len(sc),
            "xavier_bound_ok": bool(np.all(np.abs(w_value) <= np.sqrt(6.0 / 8.0))),
            "variance_scaling": type(slim.initializers.variance_scaling_initializer()(
                [2, 2])).__name__ in ("Tensor", "SymbolicTensor")}


def case_contrib_util_constant_value(tf):
    contrib = getattr(tf, "contrib", None)
    constant_value = contrib.util.constant_value if contrib is not None else \
        tf.get_static_value
    p = tf.placeholder(tf.float32, [None, 3])
    known = tf.placeholder(tf.float32, [2, 3])
    return {"python": [constant_value(5), constant_value([1, 2]), constant_value(2.5),
                       constant_value("s"), constant_value(np.float32(1.5)),
                       constant_value(None)],
            "static_shape": constant_value(tf.shape(known)),
            "dynamic_shape": constant_value(tf.shape(p)),
            "const": constant_value(tf.constant([[1.0, 2.0]])),
            "variable": constant_value(tf.Variable(1.0)),
            "placeholder": constant_value(p)}
