"""Golden cases: TF-Slim's model zoo (`slim.nets`): end_points, variables and collections
of every net, and outputs for fixed weights of small configurations.

Recorded with `tf_slim` 1.1.0 (the maintained port of TF 1.15's contrib.slim; its nets are
TF 1.15's line for line, inception_v3 adding only a `create_aux_logits` switch) on top of
real TF 2.21:

    PYTHONPATH=/tmp/slim/src /tmp/tf/bin/python scripts/record_goldens.py \\
        cases_contrib_slim_zoo
"""

import numpy as np

from tests.golden.harness import catch, describe, tolerance


def _slim(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:             # tf1compat
        return contrib.slim
    _alias_legacy_tf_layers()
    import tf_slim                      # real TF: the recorder needs tf-slim on the path
    return tf_slim


def _alias_legacy_tf_layers():
    """TF 2.21's tensorflow.python.layers lazily imports tf_keras.legacy_tf_layers, which
    tf-keras 2.21 keeps under tf_keras.src: alias it (recording only; tf_slim's
    batch_norm goes through it)."""
    import importlib
    import sys
    from scripts import oracle_contrib
    from tensorflow.python.ops import control_flow_ops
    oracle_contrib._restore_moved_tf_names()        # array_ops.stack/unstack
    if not hasattr(control_flow_ops, "case"):     # moved out of control_flow_ops in TF 2.x
        from tensorflow.python.ops import cond, control_flow_case
        control_flow_ops.case = control_flow_case.case
        control_flow_ops.cond = cond.cond
    for name in ("", ".base", ".normalization", ".core", ".convolutional", ".pooling"):
        try:
            module = importlib.import_module("tf_keras.src.legacy_tf_layers" + name)
        except ImportError:
            continue
        sys.modules.setdefault("tf_keras.legacy_tf_layers" + name, module)


def _nets(tf):
    slim = _slim(tf)
    if getattr(tf, "contrib", None) is not None:
        return slim.nets
    import importlib
    import types
    names = ("alexnet", "inception", "overfeat", "resnet_utils", "resnet_v1", "resnet_v2",
             "vgg")
    return types.SimpleNamespace(**{n: importlib.import_module("tf_slim.nets." + n)
                                    for n in names})


def _structure(tf, build):
    """Builds a net in a fresh graph; its end points, variables and collections."""
    with tf.Graph().as_default():
        images = tf.placeholder(tf.float32, build["shape"])
        net, end_points = build["fn"](images)
        return {"net": describe(net),
                "end_points": {k: describe(v) for k, v in end_points.items()},
                "variables": [(v.op.name, v.shape.as_list()) for v in tf.global_variables()],
                "trainable": len(tf.trainable_variables()),
                "model_variables": len(tf.model_variables()),
                "moving_vars": len(tf.get_collection("moving_vars")),
                "update_ops": len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)),
                "regularization": len(tf.losses.get_regularization_losses())}


def _in_scope(slim, scope_fn, net_fn, **kwargs):
    def build(images):
        with slim.arg_scope(scope_fn()):
            return net_fn(images, **kwargs)
    return build


def case_classic_nets_structure(tf):
    nets, slim = _nets(tf), _slim(tf)
    out = {}
    for name, fn, size, scope in (
            ("alexnet_v2", nets.alexnet.alexnet_v2, 224, nets.alexnet.alexnet_v2_arg_scope),
            ("overfeat", nets.overfeat.overfeat, 231, nets.overfeat.overfeat_arg_scope),
            ("vgg_a", nets.vgg.vgg_a, 224, nets.vgg.vgg_arg_scope),
            ("vgg_16", nets.vgg.vgg_16, 224, nets.vgg.vgg_arg_scope),
            ("vgg_19", nets.vgg.vgg_19, 224, nets.vgg.vgg_arg_scope)):
        out[name] = _structure(tf, {"shape": [2, size, size, 3],
                                    "fn": _in_scope(slim, scope, fn, num_classes=10)})
    out["vgg_16_dense"] = _structure(tf, {"shape": [1, 256, 288, 3], "fn": lambda x: (
        nets.vgg.vgg_16(x, 7, spatial_squeeze=False, is_training=False))})
    out["sizes"] = [nets.alexnet.alexnet_v2.default_image_size,
                    nets.vgg.vgg_16.default_image_size, nets.vgg.vgg_d is nets.vgg.vgg_16]
    return out


def case_resnet_structure(tf):
    nets, slim = _nets(tf), _slim(tf)
    out = {}
    for version in ("resnet_v1", "resnet_v2"):
        module = getattr(nets, version)
        out[version + "_50"] = _structure(tf, {"shape": [2, 224, 224, 3], "fn": _in_scope(
            slim, module.resnet_arg_scope, getattr(module, version + "_50"), num_classes=10)})
        out[version + "_101_os16"] = _structure(tf, {"shape": [1, 97, 97, 3], "fn": _in_scope(
            slim, module.resnet_arg_scope, getattr(module, version + "_101"),
            num_classes=None, global_pool=False, output_stride=16)})
    return out


def case_inception_structure(tf):
    nets, slim = _nets(tf), _slim(tf)
    inc = nets.inception
    out = {
        "v1": _structure(tf, {"shape": [2, 224, 224, 3], "fn": _in_scope(
            slim, inc.inception_v1_arg_scope, inc.inception_v1, num_classes=10)}),
        "v2": _structure(tf, {"shape": [2, 224, 224, 3], "fn": _in_scope(
            slim, inc.inception_v2_arg_scope, inc.inception_v2, num_classes=10)}),
        "v3": _structure(tf, {"shape": [2, 299, 299, 3], "fn": _in_scope(
            slim, inc.inception_v3_arg_scope, inc.inception_v3, num_classes=10)}),
        "v2_small": _structure(tf, {"shape": [1, 112, 112, 3], "fn": lambda x: (
            inc.inception_v2(x, 5, depth_multiplier=0.5, min_depth=8))}),
        "v3_base_6a": _structure(tf, {"shape": [1, None, None, 3], "fn": lambda x: (
            inc.inception_v3_base(x, final_endpoint="Mixed_6a", depth_multiplier=0.25))}),
        "v1_base_unknown": catch(lambda: _structure(tf, {"shape": [1, 224, 224, 3],
                                                         "fn": lambda x: inc.inception_v1_base(
                                                             x, final_endpoint="Mixed_9z")})),
        "v3_bad_depth": catch(lambda: _structure(tf, {"shape": [1, 299, 299, 3],
                                                      "fn": lambda x: inc.inception_v3(
                                                          x, depth_multiplier=-1)}),
                              message=True),
    }
    return out


def _fix_weights(tf, sess):
    """Deterministic weights: variable i (by name) uniform in [-0.2, 0.2] (moving
    variances in [0.5, 1.5])."""
    for i, v in enumerate(sorted(tf.global_variables(), key=lambda v: v.op.name)):
        rng = np.random.RandomState(i)
        low, high = (0.5, 1.5) if "moving_variance" in v.op.name else (-0.2, 0.2)
        value = rng.uniform(low, high, v.shape.as_list()).astype(v.dtype.as_numpy_dtype)
        v.load(value, sess)


def _run_fixed(tf, build, shape, seed=0):
    images = np.random.RandomState(seed).uniform(-1, 1, shape).astype(np.float32)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, shape)
        net, end_points = build(x)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            _fix_weights(tf, sess)
            return sess.run([net, end_points], {x: images})


@tolerance(rtol=2e-4, atol=2e-4)
def case_resnet_small_outputs(tf):
    nets, slim = _nets(tf), _slim(tf)
    out = {}
    for version in ("resnet_v1", "resnet_v2"):
        module = getattr(nets, version)
        block = getattr(module, version + "_block")

        def build(x, output_stride=None, module=module, block=block):
            blocks = [block("block1", base_depth=1, num_units=2, stride=2),
                      block("block2", base_depth=2, num_units=2, stride=2),
                      block("block3", base_depth=4, num_units=2, stride=1)]
            with slim.arg_scope(module.resnet_arg_scope()):
                net, ends = getattr(module, version)(
                    x, blocks, num_classes=3, is_training=False, global_pool=False,
                    output_stride=output_stride, scope="small")
            return net, {k: ends[k] for k in ("small/block1", "small/block2", "predictions")}
        out[version] = _run_fixed(tf, build, [2, 17, 19, 3])
        out[version + "_os4"] = _run_fixed(tf, lambda x: build(x, 4), [1, 17, 19, 3])
        out[version + "_bad_stride"] = catch(lambda: _run_fixed(
            tf, lambda x: build(x, 6), [1, 17, 19, 3]), message=True)
    out["conv2d_same"] = _run_fixed(tf, lambda x: (
        nets.resnet_utils.conv2d_same(x, 2, 4, stride=3, scope="c"), {}), [1, 9, 8, 3])
    out["conv2d_same_atrous"] = _run_fixed(tf, lambda x: (
        nets.resnet_utils.conv2d_same(x, 2, 3, stride=1, rate=2, scope="c"), {}),
        [1, 9, 8, 3])
    out["conv2d_same_strided_atrous"] = catch(lambda: _run_fixed(tf, lambda x: (
        nets.resnet_utils.conv2d_same(x, 2, 3, stride=2, rate=2, scope="c"), {}),
        [1, 9, 8, 3]))
    return out


@tolerance(rtol=2e-4, atol=2e-4)
def case_inception_small_outputs(tf):
    nets, slim = _nets(tf), _slim(tf)
    inc = nets.inception
    out = {}
    with_scope = slim.arg_scope
    def v1(x):
        net, ends = inc.inception_v1_base(x, final_endpoint="Mixed_3c")
        return net, {"Mixed_3b": ends["Mixed_3b"]}
    out["v1_mixed_3c"] = _run_fixed(tf, v1, [1, 24, 24, 3])

    def v2(x):
        with with_scope(inc.inception_v2_arg_scope()):
            logits, ends = inc.inception_v2(x, 4, is_training=False, depth_multiplier=0.1,
                                            min_depth=4)
        return logits, {k: ends[k] for k in ("Mixed_4a", "Predictions")}
    out["v2"] = _run_fixed(tf, v2, [2, 64, 64, 3])

    def v3(x):
        with with_scope(inc.inception_v3_arg_scope()):
            logits, ends = inc.inception_v3(x, 4, is_training=False, depth_multiplier=0.1,
                                            min_depth=4)
        return logits, {k: ends[k] for k in ("AuxLogits", "PreLogits", "Mixed_7c")}
    out["v3"] = _run_fixed(tf, v3, [1, 139, 139, 3])
    return out
