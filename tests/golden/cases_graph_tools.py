"""Golden cases: TF1's graph tools under `tensorflow.python.tools` (freeze_graph,
saved_model_utils, strip_unused_lib, optimize_for_inference_lib).

Each case trains nothing: it builds a small model with fixed values in its own graph,
saves what the tool reads (graph files, checkpoints, SavedModels) to a temporary
directory, runs the tool in a fresh default graph and records the output GraphDef's nodes
(name, op, inputs, devices) and the frozen graph's values on a fixed input.
"""

from __future__ import annotations

import importlib
import os
import tempfile

import numpy as np
from google.protobuf import text_format

from tests.golden.harness import catch

_X = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], np.float32)


def _tool(tf, name):
    """`tensorflow.python.tools.<name>` of the TF under test."""
    if tf.__name__.startswith("tf1compat"):
        from tf1compat.shim import INTERNAL_PATHS
        return importlib.import_module(INTERNAL_PATHS[f"tensorflow.python.tools.{name}"])
    return importlib.import_module(f"tensorflow.python.tools.{name}")


def _nodes(graph_def):
    return [[n.name, n.op, list(n.input), n.device] for n in graph_def.node]


def _run_frozen(tf, graph_def, fetch="out:0", feed="x:0"):
    with tf.Graph().as_default() as g:
        tf.import_graph_def(graph_def, name="")
        with tf.Session(graph=g) as sess:
            return sess.run(fetch, {feed: _X})


def _model(tf, directory, resource=False, device=None, v1=False):
    """x -> dense(W, b) -> softmax "out"; saves graph (text + binary), meta graph and a
    checkpoint; returns the checkpoint prefix."""
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        with tf.device(device):
            w = tf.get_variable("W", initializer=np.arange(6, dtype=np.float32).reshape(3, 2)
                                / 10.0, use_resource=resource)
            b = tf.get_variable("b", initializer=np.array([0.5, -0.5], np.float32),
                                use_resource=resource)
        logits = tf.identity(tf.matmul(x, w) + b, name="logits")
        tf.nn.softmax(logits, name="out")
        tf.Variable(0, name="global_step", trainable=False)
        saver = tf.train.Saver(write_version=tf.train.SaverDef.V1 if v1
                               else tf.train.SaverDef.V2)
        with tf.Session(graph=g) as sess:
            sess.run(tf.global_variables_initializer())
            prefix = saver.save(sess, os.path.join(directory, "model.ckpt"))
        tf.train.write_graph(g, directory, "graph.pbtxt", as_text=True)
        tf.train.write_graph(g, directory, "graph.pb", as_text=False)
        saver.export_meta_graph(os.path.join(directory, "model.meta"))
    return prefix


def _freeze(tf, **kwargs):
    fg = _tool(tf, "freeze_graph")
    args = dict(input_graph=None, input_saver="", input_binary=False,
                input_checkpoint=None, output_node_names="out",
                restore_op_name="save/restore_all", filename_tensor_name="save/Const:0",
                output_graph="", clear_devices=True, initializer_nodes="")
    args.update(kwargs)
    with tf.Graph().as_default():
        return fg.freeze_graph(**args)


def _frozen_result(tf, graph_def):
    return {"nodes": _nodes(graph_def), "out": _run_frozen(tf, graph_def)}


def case_freeze_text_graph(tf):
    d = tempfile.mkdtemp()
    prefix = _model(tf, d)
    output = os.path.join(d, "frozen.pb")
    frozen = _freeze(tf, input_graph=os.path.join(d, "graph.pbtxt"), input_checkpoint=prefix,
                     output_graph=output)
    with open(output, "rb") as f:
        written = f.read() == frozen.SerializeToString(deterministic=True)
    return dict(_frozen_result(tf, frozen), written=written)


def case_freeze_binary_graph(tf):
    d = tempfile.mkdtemp()
    prefix = _model(tf, d)
    frozen = _freeze(tf, input_graph=os.path.join(d, "graph.pb"), input_binary=True,
                     input_checkpoint=prefix, output_node_names="out, logits")
    return _frozen_result(tf, frozen)


def case_freeze_v1_checkpoint(tf):
    d = tempfile.mkdtemp()
    prefix = _model(tf, d, v1=True)
    frozen = _freeze(tf, input_graph=os.path.join(d, "graph.pb"), input_binary=True,
                     input_checkpoint=prefix, checkpoint_version=tf.train.SaverDef.V1)
    return _frozen_result(tf, frozen)


def case_freeze_meta_graph(tf):
    d = tempfile.mkdtemp()
    prefix = _model(tf, d)
    frozen = _freeze(tf, input_meta_graph=os.path.join(d, "model.meta"), input_binary=True,
                     input_checkpoint=prefix)
    return _frozen_result(tf, frozen)


def case_freeze_saver_def(tf):
    d = tempfile.mkdtemp()
    prefix = _model(tf, d)
    with tf.Graph().as_default():
        meta = tf.train.import_meta_graph(os.path.join(d, "model.meta"))
        saver_path = os.path.join(d, "saver.pbtxt")
        with open(saver_path, "w") as f:
            f.write(str(meta.as_saver_def()))
    frozen = _freeze(tf, input_graph=os.path.join(d, "graph.pbtxt"), input_saver=saver_path,
                     input_checkpoint=prefix)
    return _frozen_result(tf, frozen)


def case_freeze_resource_variables(tf):
    d = tempfile.mkdtemp()
    prefix = _model(tf, d, resource=True)
    frozen = _freeze(tf, input_meta_graph=os.path.join(d, "model.meta"), input_binary=True,
                     input_checkpoint=prefix)
    return _frozen_result(tf, frozen)


def case_freeze_devices(tf):
    d = tempfile.mkdtemp()
    prefix = _model(tf, d, device="/cpu:0")
    graph = os.path.join(d, "graph.pb")
    kept = _freeze(tf, input_graph=graph, input_binary=True, input_checkpoint=prefix,
                   clear_devices=False)
    cleared = _freeze(tf, input_graph=graph, input_binary=True, input_checkpoint=prefix)
    return {"kept": [[n.name, n.device] for n in kept.node],
            "cleared": [[n.name, n.device] for n in cleared.node]}


def case_freeze_variable_lists(tf):
    d = tempfile.mkdtemp()
    prefix = _model(tf, d)
    graph = os.path.join(d, "graph.pb")
    only_w = _freeze(tf, input_graph=graph, input_binary=True, input_checkpoint=prefix,
                     variable_names_whitelist="W")
    no_b = _freeze(tf, input_graph=graph, input_binary=True, input_checkpoint=prefix,
                   variable_names_denylist="b")
    # TF 1.x named the 12th argument variable_names_blacklist: positional calls keep working.
    with tf.Graph().as_default():
        positional = _tool(tf, "freeze_graph").freeze_graph(
            graph, "", True, prefix, "out", "", "", "", True, "", "", "W,global_step")
    return {"whitelist": _nodes(only_w), "denylist": _nodes(no_b),
            "positional": _nodes(positional)}


def case_freeze_initializer_nodes(tf):
    d = tempfile.mkdtemp()
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.ones((3, 2), np.float32), name="W")
        extra = tf.Variable(np.full((2,), 2.0, np.float32), name="extra")
        tf.multiply(tf.matmul(x, w), extra, name="out")
        saver = tf.train.Saver([w])
        with tf.Session(graph=g) as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(w.assign(w * 3.0))
            prefix = saver.save(sess, os.path.join(d, "model.ckpt"))
        tf.train.write_graph(g, d, "graph.pb", as_text=False)
    frozen = _freeze(tf, input_graph=os.path.join(d, "graph.pb"), input_binary=True,
                     input_checkpoint=prefix, initializer_nodes="extra/Assign")
    return _frozen_result(tf, frozen)


def _saved_model(tf, directory):
    export = os.path.join(directory, "export")
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2), name="W")
        out = tf.nn.relu(tf.matmul(x, w), name="out")
        with tf.Session(graph=g) as sess:
            sess.run(tf.global_variables_initializer())
            builder = tf.saved_model.builder.SavedModelBuilder(export)
            sig = tf.saved_model.signature_def_utils.predict_signature_def(
                {"x": x}, {"out": out})
            builder.add_meta_graph_and_variables(sess, ["serve"],
                                                 signature_def_map={"serving_default": sig})
            builder.add_meta_graph(["train", "gpu"])
            builder.save()
    return export


def case_freeze_saved_model(tf):
    export = _saved_model(tf, tempfile.mkdtemp())
    frozen = _freeze(tf, input_saved_model_dir=export, saved_model_tags="serve")
    return _frozen_result(tf, frozen)


def case_saved_model_utils(tf):
    smu = _tool(tf, "saved_model_utils")
    export = _saved_model(tf, tempfile.mkdtemp())
    meta = smu.get_meta_graph_def(export, "gpu,train")
    return {"tag_sets": smu.get_saved_model_tag_sets(export),
            "tags": sorted(meta.meta_info_def.tags),
            "serve_signatures": sorted(smu.get_meta_graph_def(export, "serve").signature_def),
            "has_nodes": len(meta.graph_def.node) > 0,
            "saved_model_type": type(smu.read_saved_model(export)).__name__,
            "missing_tags": catch(lambda: smu.get_meta_graph_def(export, "eval")),
            "missing_dir": catch(lambda: smu.read_saved_model(tempfile.mkdtemp()))}


def case_freeze_errors(tf):
    d = tempfile.mkdtemp()
    prefix = _model(tf, d)
    graph = os.path.join(d, "graph.pb")
    frozen = _freeze(tf, input_graph=graph, input_binary=True, input_checkpoint=prefix,
                     output_graph=os.path.join(d, "frozen.pb"))
    return {
        "no_checkpoint": catch(lambda: _freeze(tf, input_graph=graph, input_binary=True,
                                               input_checkpoint=os.path.join(d, "nope"))),
        "no_outputs": catch(lambda: _freeze(tf, input_graph=graph, input_binary=True,
                                            input_checkpoint=prefix, output_node_names="")),
        "no_graph_file": catch(lambda: _freeze(tf, input_graph=os.path.join(d, "no.pb"),
                                               input_binary=True, input_checkpoint=prefix)),
        "unknown_output": catch(lambda: _freeze(tf, input_graph=graph, input_binary=True,
                                                input_checkpoint=prefix,
                                                output_node_names="nope")),
        "twice": catch(lambda: _freeze(tf, input_graph=os.path.join(d, "frozen.pb"),
                                       input_binary=True, input_checkpoint=prefix)),
        "frozen_nodes": len(frozen.node)}


def _preprocess_graph(tf):
    """raw (string) -> decoded -> "image" (cast) -> dense -> "out"; plus an unused branch."""
    with tf.Graph().as_default() as g:
        raw = tf.placeholder(tf.string, [], name="raw")
        numbers = tf.strings.to_number(tf.strings.split([raw]).values, tf.int32)
        decoded = tf.reshape(numbers, [-1, 3], name="decoded")
        image = tf.cast(decoded, tf.float32, name="image")
        scale = tf.placeholder_with_default(tf.constant(2.0), [], name="scale")
        hidden = tf.matmul(image, tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2)),
                           name="hidden")
        tf.multiply(hidden, scale, name="out")
        tf.reduce_sum(decoded, name="unused")
    return g.as_graph_def()


def case_strip_unused(tf):
    lib = _tool(tf, "strip_unused_lib")
    graph_def = _preprocess_graph(tf)
    stripped = lib.strip_unused(graph_def, ["image"], ["out"], tf.float32.as_datatype_enum)
    both = lib.strip_unused(graph_def, ["image", "scale"], ["out"],
                            [tf.float32.as_datatype_enum, tf.float32.as_datatype_enum])
    image = stripped.node[[n.name for n in stripped.node].index("image")]
    with tf.Graph().as_default() as g:
        tf.import_graph_def(both, name="")
        with tf.Session(graph=g) as sess:
            value = sess.run("out:0", {"image:0": _X, "scale:0": 0.5})
    return {"nodes": [[n.name, n.op, list(n.input)] for n in stripped.node],
            "image_attrs": sorted(image.attr), "image_dtype": image.attr["dtype"].type,
            "both": [[n.name, n.op] for n in both.node],
            "run": _run_frozen(tf, stripped, feed="image:0"), "both_run": value,
            "tensor_name": catch(lambda: lib.strip_unused(graph_def, ["image:0"], ["out"], 1)),
            "missing_input": catch(lambda: lib.strip_unused(graph_def, ["nope"], ["out"], 1)),
            "missing_output": catch(lambda: lib.strip_unused(graph_def, ["image"], ["nope"],
                                                             1))}


def case_strip_unused_from_files(tf):
    lib = _tool(tf, "strip_unused_lib")
    d = tempfile.mkdtemp()
    tf.train.write_graph(_preprocess_graph(tf), d, "g.pbtxt", as_text=True)
    out = {}
    for binary in (False, True):
        path = os.path.join(d, f"s{int(binary)}")
        ret = lib.strip_unused_from_files(os.path.join(d, "g.pbtxt"), False, path, binary,
                                          "image", "out", tf.float32.as_datatype_enum)
        with open(path, "rb") as f:
            data = f.read()
        graph_def = tf.GraphDef.FromString(data) if binary else \
            text_format.Parse(data.decode(), tf.GraphDef())
        out[f"binary{int(binary)}"] = {"ret": ret, "nodes": [n.name for n in graph_def.node]}
    out["missing_file"] = lib.strip_unused_from_files(os.path.join(d, "no.pbtxt"), False,
                                                      "x", False, "image", "out", 1)
    out["no_outputs"] = lib.strip_unused_from_files(os.path.join(d, "g.pbtxt"), False, "x",
                                                    False, "image", "", 1)
    return out


def case_freeze_with_def_protos(tf):
    fg = _tool(tf, "freeze_graph")
    d = tempfile.mkdtemp()
    prefix = _model(tf, d)
    with tf.Graph().as_default() as g:
        saver_def = tf.train.import_meta_graph(os.path.join(d, "model.meta")).as_saver_def()
        graph_def = g.as_graph_def()
    with tf.Graph().as_default():
        frozen = fg.freeze_graph_with_def_protos(graph_def, saver_def, prefix, "out", "", "",
                                                 "", True, "")
    return _frozen_result(tf, frozen)


_IMG = np.linspace(-1.0, 1.0, 2 * 5 * 5 * 3, dtype=np.float32).reshape(2, 5, 5, 3)


def _const(tf, shape, seed, low=-1.0, high=1.0):
    return tf.constant(np.random.RandomState(seed).uniform(low, high, shape).astype(np.float32))


def _bn_graph(tf):
    """Three conv + batch-norm blocks TF folds (FusedBatchNormV3 after Conv2D, after
    Conv2D + BiasAdd, after a depthwise conv), a MatMul + batch norm it leaves, an
    Identity and keras_learning_phase (TF's remove_training_nodes drops a CheckNumerics'
    data edges, breaking the graph, so there is none here)."""
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 5, 5, 3], name="x")
        phase = tf.placeholder_with_default(True, [], name="keras_learning_phase")

        def bn(t, c, seed, name):
            return tf.nn.fused_batch_norm(t, _const(tf, [c], seed, 0.5, 1.5),
                                          _const(tf, [c], seed + 1),
                                          mean=_const(tf, [c], seed + 2),
                                          variance=_const(tf, [c], seed + 3, 0.1, 2.0),
                                          epsilon=0.001, is_training=False, name=name)[0]
        a = bn(tf.nn.conv2d(x, _const(tf, [3, 3, 3, 4], 1), [1, 1, 1, 1], "SAME",
                            name="conv_a"), 4, 10, "bn_a")
        a = tf.identity(tf.nn.relu(a), name="check")
        b = tf.nn.bias_add(tf.nn.conv2d(a, _const(tf, [1, 1, 4, 4], 2), [1, 1, 1, 1],
                                        "VALID", name="conv_b"),
                           _const(tf, [4], 3), name="bias_b")
        b = bn(b, 4, 20, "bn_b")
        c = bn(tf.nn.depthwise_conv2d(b, _const(tf, [3, 3, 4, 2], 4), [1, 1, 1, 1], "SAME",
                                      name="dw_c"), 8, 30, "bn_c")
        pooled = tf.reduce_mean(c, [1, 2], name="pool")
        d = tf.reshape(bn(tf.reshape(tf.matmul(pooled, _const(tf, [8, 3], 5), name="fc"),
                                     [-1, 1, 1, 3]), 3, 40, "bn_d"), [-1, 3])
        tf.identity(tf.where(phase, d * 2.0, d), name="out")
    return g.as_graph_def()


def _run(tf, graph_def, feed):
    with tf.Graph().as_default() as g:
        tf.import_graph_def(graph_def, name="")
        with tf.Session(graph=g) as sess:
            return sess.run("out:0", {"x:0": feed})


def case_optimize_for_inference(tf):
    lib = _tool(tf, "optimize_for_inference_lib")
    graph_def = _bn_graph(tf)
    optimized = lib.optimize_for_inference(graph_def, ["x"], ["out"],
                                           tf.float32.as_datatype_enum)
    consts = {n.name: lib.values_from_const(n) for n in optimized.node
              if n.name.endswith(("_weights", "_bn_offset"))}
    return {"nodes": [[n.name, n.op, list(n.input)] for n in optimized.node],
            "attrs": {n.name: sorted(n.attr) for n in optimized.node if n.op == "BiasAdd"},
            "consts": consts, "before": _run(tf, graph_def, _IMG),
            "after": _run(tf, optimized, _IMG)}


def case_optimize_for_inference_batch_norm_global(tf):
    lib = _tool(tf, "optimize_for_inference_lib")
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 5, 5, 3], name="x")
        conv = tf.nn.conv2d(x, _const(tf, [2, 2, 3, 2], 7), [1, 1, 1, 1], "SAME")
        outs = [tf.nn.batch_norm_with_global_normalization(
            conv, _const(tf, [2], 8), _const(tf, [2], 9, 0.1, 1.0), _const(tf, [2], 10),
            _const(tf, [2], 11), 0.01, scale, name=f"bn{int(scale)}") for scale in (0, 1)]
        tf.add(outs[0], outs[1], name="out")
    graph_def = g.as_graph_def()
    optimized = lib.optimize_for_inference(graph_def, ["x"], ["out"],
                                           tf.float32.as_datatype_enum)
    return {"nodes": [[n.name, n.op, list(n.input)] for n in optimized.node],
            "before": _run(tf, graph_def, _IMG), "after": _run(tf, optimized, _IMG)}


def case_optimize_for_inference_helpers(tf):
    lib = _tool(tf, "optimize_for_inference_lib")
    graph_def = _bn_graph(tf)
    node_map = {n.name: n for n in graph_def.node}
    bad = tf.GraphDef()
    bad.node.add(name="a", op="Identity", input=["missing:1"])
    dup = tf.GraphDef()
    dup.node.add(name="a", op="NoOp")
    dup.node.add(name="a", op="NoOp")
    with tf.Graph().as_default() as g:
        tf.placeholder_with_default(False, [], name="train_flag")
        tf.placeholder_with_default(1.0, [], name="rate")
        tf.placeholder_with_default(True, [], name="keras_learning_phase")
    converted = lib.convert_placeholder_to_const(g.as_graph_def(),
                                                 ["train_flag=True", "rate=False", "junk"])
    return {"names": [lib.node_name_from_input(n) for n in ("^a/b", "a:12", "a", "x:y")],
            "from_map": lib.node_from_map(node_map, "^conv_a:0").op,
            "missing": catch(lambda: lib.node_from_map(node_map, "nope")),
            "values": lib.values_from_const(node_map["Const"]),
            "not_const": catch(lambda: lib.values_from_const(node_map["conv_a"])),
            "valid": lib.ensure_graph_is_valid(graph_def),
            "bad_input": catch(lambda: lib.ensure_graph_is_valid(bad)),
            "duplicate": catch(lambda: lib.ensure_graph_is_valid(dup)),
            "parse": lib.parse_nodes_dict(["a=1", " b =True", "c"]),
            "strtobool": [lib.strtobool(v) for v in ("True", "true", "False", "yes")],
            "converted": [[n.name, n.op, sorted(n.attr)] for n in converted.node],
            "flag": lib.values_from_const(converted.node[0])}
