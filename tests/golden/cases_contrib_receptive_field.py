"""Golden cases: `tf.contrib.receptive_field` (receptive_field_api: get_compute_order and
compute_receptive_field_from_graph_def). TF 2.x has no contrib: the oracle is TF 1.15's
contrib/receptive_field/python/util package run under TF 2.21's tf.compat.v1 graph mode
(scripts/oracle_contrib.py, `tf115_absolute_package`). The graphs are slim-style conv
nets built from variables and tf.nn ops (convolutions, pooling, explicit Pad, an
inception-like block); the receptive fields, effective strides and paddings, the center
coordinate maps, each node's compute order and feature-map sizes, and the errors are
recorded."""

import numpy as np

from tests.golden.harness import catch

_ORACLE = []


def _rf(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.receptive_field
    if _ORACLE:
        return _ORACLE[0]
    import sys
    import types

    import oracle_contrib
    util = sys.modules.setdefault("tensorflow.contrib.util",
                                  types.ModuleType("tensorflow.contrib.util"))
    util.make_ndarray = tf.make_ndarray
    package = oracle_contrib.tf115_absolute_package(
        "contrib.receptive_field.python.util",
        ["parse_layer_parameters", "graph_compute_order", "receptive_field"])
    out = types.SimpleNamespace(
        get_compute_order=package.graph_compute_order.get_compute_order,
        compute_receptive_field_from_graph_def=(
            package.receptive_field.compute_receptive_field_from_graph_def))
    _ORACLE.append(out)
    return out


def _conv(tf, x, name, kernel, channels, stride=1, padding="SAME", depthwise=False):
    with tf.variable_scope(name):
        if depthwise:
            w = tf.get_variable("depthwise_weights", [kernel[0], kernel[1],
                                                      x.shape.as_list()[-1], 1])
            y = tf.nn.depthwise_conv2d(x, w, [1, stride, stride, 1], padding)
        else:
            w = tf.get_variable("weights", [kernel[0], kernel[1], x.shape.as_list()[-1],
                                            channels])
            y = tf.nn.conv2d(x, w, [1, stride, stride, 1], padding)
        b = tf.get_variable("biases", [y.shape.as_list()[-1]])
        return tf.nn.relu(tf.nn.bias_add(y, b))


def _stack(tf):
    x = tf.placeholder(tf.float32, [1, None, None, 3], name="input_image")
    y = _conv(tf, x, "conv1", [3, 3], 8, padding="VALID")
    y = _conv(tf, y, "conv2", [3, 5], 8, stride=2)
    y = tf.nn.max_pool(y, [1, 2, 2, 1], [1, 2, 2, 1], "SAME", name="pool1")
    y = tf.pad(y, [[0, 0], [1, 2], [2, 1], [0, 0]], name="pad")
    y = _conv(tf, y, "conv3", [3, 3], 8, padding="VALID")
    y = _conv(tf, y, "dw", [3, 3], 8, depthwise=True)
    y = tf.nn.avg_pool(y, [1, 3, 3, 1], [1, 1, 1, 1], "VALID", name="pool2")
    return x, tf.identity(y, name="output")


def _inception(tf, x, name):
    with tf.variable_scope(name):
        a = _conv(tf, x, "Branch_0", [1, 1], 4)
        b = _conv(tf, _conv(tf, x, "Branch_1a", [1, 1], 4), "Branch_1b", [3, 3], 4)
        c = _conv(tf, _conv(tf, x, "Branch_2a", [1, 1], 4), "Branch_2b", [5, 5], 4)
        d = _conv(tf, tf.nn.max_pool(x, [1, 3, 3, 1], [1, 1, 1, 1], "SAME",
                                     name="Branch_3_pool"), "Branch_3b", [1, 1], 4)
        return tf.concat([a, b, c, d], 3, name="concat")


def _field(rf):
    return {"size": rf.size, "stride": rf.stride, "padding": rf.padding,
            "iter": [None if v is None else int(v) for v in rf]}


def _maps(rf):
    return {"center": rf.compute_input_center_coordinates([[0, 0], [2, 3]]),
            "center_axis": rf.compute_input_center_coordinates([[1], [4]], axis=[1]),
            "feature": rf.compute_feature_coordinates([[10, 12], [3, 5]]),
            "feature_axis": rf.compute_feature_coordinates([[7]], axis=[0]),
            "bad_axis": catch(lambda: rf.compute_feature_coordinates([[1, 2]], axis=[0]),
                              message=True)}


def _order(node_info):
    return {name: [info.order, info.node.op, info.input_size, info.output_size]
            for name, info in node_info.items()}


def case_conv_pool_stack(tf):
    rf = _rf(tf)
    x, out = _stack(tf)
    graph_def = tf.get_default_graph().as_graph_def()
    unknown = rf.compute_receptive_field_from_graph_def(graph_def, "input_image", "output")
    known = rf.compute_receptive_field_from_graph_def(graph_def, "input_image", "output",
                                                      input_resolution=[65, 67])
    inner = rf.compute_receptive_field_from_graph_def(graph_def, "input_image",
                                                      "conv2/Relu")
    return {"unknown": _field(unknown), "known": _field(known), "inner": _field(inner),
            "maps": _maps(known)}


def case_compute_order(tf):
    rf = _rf(tf)
    _stack(tf)
    graph_def = tf.get_default_graph().as_graph_def()
    node_info, name_to_node = rf.get_compute_order(graph_def)
    sized, _ = rf.get_compute_order(graph_def, input_node_name="input_image",
                                    input_node_size=[33, 40])
    return {"plain": _order(node_info), "sized": _order(sized),
            "names": sorted(name_to_node)}


def case_graph_and_tensor_arguments(tf):
    rf = _rf(tf)
    x, out = _stack(tf)
    field = rf.compute_receptive_field_from_graph_def(tf.get_default_graph(), x, out,
                                                      input_resolution=[64, 64])
    return _field(field)


def case_inception_block(tf):
    rf = _rf(tf)
    x = tf.placeholder(tf.float32, [1, 35, 35, 3], name="input")
    y = _conv(tf, x, "stem", [3, 3], 6, stride=2, padding="VALID")
    y = _inception(tf, y, "Mixed_5b")
    tf.identity(y, name="output")
    graph_def = tf.get_default_graph().as_graph_def()
    out = {}
    for resolution in (None, [35, 35]):
        key = "unknown" if resolution is None else "known"
        out[key] = _field(rf.compute_receptive_field_from_graph_def(
            graph_def, "input", "output", input_resolution=resolution))
    out["stop"] = _field(rf.compute_receptive_field_from_graph_def(
        graph_def, "input", "output", stop_propagation=["Mixed_5b/Branch_2",
                                                        "Mixed_5b/Branch_3"]))
    order, _ = rf.get_compute_order(graph_def, "input", [35, 35])
    out["order"] = _order(order)
    return out


def case_errors(tf):
    rf = _rf(tf)
    x = tf.placeholder(tf.float32, [1, 32, 32, 3], name="input")
    a = _conv(tf, x, "a", [3, 3], 4, stride=2, padding="VALID")
    b = _conv(tf, x, "b", [3, 3], 4, stride=1, padding="VALID")
    b = tf.nn.max_pool(b, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    tf.concat([a, b], 3, name="shifted_center")
    c = _conv(tf, _conv(tf, x, "c1", [3, 3], 4, padding="VALID"), "c2", [16, 16], 4,
              padding="VALID")
    tf.add(a, c, name="other_stride")
    tf.identity(tf.square(a), name="unknown_op")
    tf.add(_conv(tf, x, "e", [5, 5], 4, stride=2, padding="SAME"),
           _conv(tf, x, "f", [3, 3], 4, stride=2, padding="SAME"), name="same_pair")
    graph_def = tf.get_default_graph().as_graph_def()

    def field(output, resolution=None, input_node="input"):
        return catch(lambda: _field(rf.compute_receptive_field_from_graph_def(
            graph_def, input_node, output, input_resolution=resolution)), message=True)
    return {"shifted_center": field("shifted_center"),
            "other_stride": field("other_stride"),
            "other_stride_known": field("other_stride", [32, 32]),
            "unknown_op": field("unknown_op"),
            "same_pair": field("same_pair"), "same_pair_known": field("same_pair", [32, 32]),
            "no_output": field("nothing"), "no_input": field("a/Relu", input_node="b/Relu")}


def case_odd_same_padding_and_explicit_pads(tf):
    """SAME padding whose amount depends on the input size (stride 2, odd kernel) leaves
    the effective padding undefined without input_resolution; an even kernel does not."""
    rf = _rf(tf)
    x = tf.placeholder(tf.float32, [1, None, None, 2], name="input")
    y = _conv(tf, x, "odd", [3, 3], 4, stride=2)
    tf.identity(y, name="odd_out")
    z = _conv(tf, x, "even", [4, 2], 4, stride=2)
    tf.identity(z, name="even_out")
    p = tf.pad(x, np.array([[0, 0], [3, 0], [0, 4], [0, 0]]), name="pads")
    tf.identity(_conv(tf, p, "after_pad", [1, 1], 2, stride=3, padding="VALID"),
                name="pad_out")
    graph_def = tf.get_default_graph().as_graph_def()
    out = {}
    for name in ("odd_out", "even_out", "pad_out"):
        for resolution in (None, [20, 21], [19, 19]):
            out[f"{name}_{resolution}"] = _field(rf.compute_receptive_field_from_graph_def(
                graph_def, "input", name, input_resolution=resolution))
    return out


def case_frozen_graph_max_pool_v2_and_batch_norm(tf):
    """Weights frozen into Consts (behind their `/read` Identity), a MaxPoolV2 (ksize and
    strides as tensors) and a fused batch norm (FusedBatchNormV3: not in TF 1.15's list
    of ops that keep the receptive field)."""
    rf = _rf(tf)
    x = tf.placeholder(tf.float32, [1, 16, 16, 3], name="input")
    y = _conv(tf, x, "conv", [5, 3], 4, stride=2, padding="VALID")
    y = tf.raw_ops.MaxPoolV2(input=y, ksize=tf.constant([1, 3, 3, 1], name="pool/ksize"),
                             strides=tf.constant([1, 2, 2, 1], name="pool/strides"),
                             padding="SAME", name="pool")
    tf.identity(y, name="output")
    z = tf.nn.fused_batch_norm(y, tf.ones([4]), tf.zeros([4]), is_training=True)[0]
    tf.identity(z, name="bn_out")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        frozen = tf.graph_util.convert_variables_to_constants(
            sess, tf.get_default_graph().as_graph_def(), ["output", "bn_out"])
    ops = sorted({n.op for n in frozen.node})
    out = {"ops": ops, "pool": [n.op for n in frozen.node if n.name == "pool"]}
    for resolution in (None, [16, 16]):
        out[str(resolution)] = catch(lambda: _field(rf.compute_receptive_field_from_graph_def(
            frozen, "input", "output", input_resolution=resolution)), message=True)
    out["bn"] = catch(lambda: _field(rf.compute_receptive_field_from_graph_def(
        frozen, "input", "bn_out")), message=True)
    out["order"] = _order(rf.get_compute_order(frozen, "input", [16, 16])[0])
    return out
