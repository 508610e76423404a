"""Golden cases for names of TF's compat.v1 namespaces found missing by walking every
namespace (scripts/record_api_names.py): tf.io.gfile.join / get_registered_schemes,
tf.sysconfig's build constants, tf.saved_model.signature_def_utils.MethodNameUpdater."""

from __future__ import annotations

import os
import shutil
import tempfile

from tests.golden.harness import catch


def case_gfile_join(tf):
    join = tf.io.gfile.join
    return {"plain": join("a", "b", "c"), "url": join("gs://bucket/", "x", "y"),
            "absolute_part": join("/a/", "/b"), "single": join("a"),
            "trailing": join("a/", ""), "local_schemes": sorted(
                s for s in tf.io.gfile.get_registered_schemes() if s in ("", "file"))}


def case_sysconfig_build_constants(tf):
    return {"abi": tf.sysconfig.CXX11_ABI_FLAG, "cxx": tf.sysconfig.CXX_VERSION,
            "monolithic": tf.sysconfig.MONOLITHIC_BUILD,
            "top_level_same": [tf.CXX11_ABI_FLAG == tf.sysconfig.CXX11_ABI_FLAG,
                               tf.CXX_VERSION == tf.sysconfig.CXX_VERSION]}


def _method_names(tf, export_dir):
    """{tags: {signature key: method_name}} of the SavedModel, read back by a fresh loader."""
    out = {}
    for tags in (["serve"], ["train"]):
        with tf.Graph().as_default(), tf.Session() as sess:
            meta = tf.saved_model.loader.load(sess, tags, export_dir)
            out[",".join(tags)] = {k: v.method_name
                                   for k, v in sorted(meta.signature_def.items())}
    return out


def case_method_name_updater(tf):
    tmp = tempfile.mkdtemp()
    try:
        export = os.path.join(tmp, "model")
        with tf.Graph().as_default():
            x = tf.placeholder(tf.float32, [None], name="x")
            y = tf.identity(x * 2.0, name="y")
            with tf.Session() as sess:
                builder = tf.saved_model.builder.SavedModelBuilder(export)
                sig = tf.saved_model.signature_def_utils.predict_signature_def({"x": x},
                                                                               {"y": y})
                builder.add_meta_graph_and_variables(
                    sess, ["serve"], signature_def_map={"serving_default": sig, "other": sig})
                builder.add_meta_graph(["train"], signature_def_map={"serving_default": sig})
                builder.save()
        updater = tf.saved_model.signature_def_utils.MethodNameUpdater(export)
        errors = {
            "no_key": catch(lambda: updater.replace_method_name("", "m"), message=True),
            "no_method": catch(lambda: updater.replace_method_name("serving_default", ""),
                               message=True),
            "unknown_key": catch(lambda: updater.replace_method_name("nokey", "m"),
                                 message=True),
            "unknown_tags": catch(lambda: updater.replace_method_name(
                "serving_default", "m", ["nosuchtag"]), message=True),
            "key_not_in_tagged_graph": catch(lambda: updater.replace_method_name(
                "other", "m", ["train"]), message=True)}
        updater.replace_method_name("serving_default", "tensorflow/serving/regress", "serve")
        updater.replace_method_name("other", "tensorflow/serving/classify", ["serve"])
        saved = updater.save()
        missing_dir = catch(lambda: updater.save(os.path.join(tmp, "absent")))
        os.makedirs(os.path.join(tmp, "copy"))
        updater.replace_method_name("serving_default", "tensorflow/serving/predict")
        updater.save(os.path.join(tmp, "copy"))
        no_model = catch(lambda: tf.saved_model.signature_def_utils.MethodNameUpdater(
            os.path.join(tmp, "none")))
        return {"errors": errors, "save_returns": saved, "missing_dir": missing_dir,
                "updated": _method_names(tf, export),
                "copy_files": sorted(os.listdir(os.path.join(tmp, "copy"))),
                "no_model": no_model["error"]}
    finally:
        shutil.rmtree(tmp)


def _xla_attrs(op):
    return {key: op.get_attr(key)
            for key in ("_XlaCompile", "_XlaScope", "_XlaSeparateCompiledGradients")}


def case_xla_jit_scope_marks_ops(tf):
    x = tf.placeholder(tf.float32, [2])
    with tf.xla.experimental.jit_scope():
        y = x * 2.0
        z = y + 1.0
    with tf.xla.experimental.jit_scope(compile_ops=False):
        off = x - 1.0
    with tf.xla.experimental.jit_scope(compile_ops=lambda node_def: node_def.op == "Mul",
                                       separate_compiled_gradients=True):
        mul = x * 3.0
        sub = mul - 1.0
    outside = x + 4.0
    with tf.Session() as sess:
        values = sess.run([z, off, sub], {x: [1.0, 2.0]})
    return {"mul": _xla_attrs(y.op), "add": _xla_attrs(z.op), "off": _xla_attrs(off.op),
            "by_type": [_xla_attrs(mul.op), _xla_attrs(sub.op)],
            "outside": sorted(k for k in outside.op.node_def.attr),
            "values": values}


def case_xla_compile_outputs(tf):
    x = tf.placeholder(tf.float32, [2])
    xla = tf.xla.experimental
    single = xla.compile(lambda: x + 1.0)
    pair = xla.compile(lambda a: (a * 2.0, a - 1.0), [x])
    nested = xla.compile(lambda: [x + 2.0, [x * 3.0]])
    mapping = xla.compile(lambda: {"a": x + 5.0})
    nothing = xla.compile(lambda: None)
    with tf.Session() as sess:
        feed = {x: [1.0, 2.0]}
        values = sess.run({"single": single, "pair": pair, "nested": nested,
                           "mapping": mapping}, feed)
        sess.run(nothing)
    return {"values": values, "types": [type(single).__name__, type(pair).__name__,
                                        type(nested).__name__, type(mapping).__name__],
            "names": [t.op.name for t in single + pair],
            "nothing": [type(nothing).__name__, nothing.type]}
