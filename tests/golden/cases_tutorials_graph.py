"""Golden cases from classic TF1 graph-mode tutorials and Q&A snippets.

Each case pins a difference found by running such scripts under TF and tf1compat:
printed tensors, run-time and shape-inference error messages, collection keys, graph
freezing (tf.graph_util / write_graph), inspect_checkpoint output, tf.hessians of
variables.
"""

import contextlib
import importlib
import io
import os
import shutil
import tempfile

import numpy as np

from tests.golden.harness import catch


class _TmpDir:
    def __enter__(self):
        self.path = tempfile.mkdtemp()
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path)


def _first_lines(fn, n=1):
    """The exception class and the first `n` message lines (TF prints more after them)."""
    try:
        fn()
        return "no error"
    except Exception as e:  # noqa: BLE001 - the error is the result
        return [type(e).__name__] + str(e).split("\n")[:n]


# -- printing tensors (helloworld / basic_operations) -------------------------------------------

def case_tensor_str_unknown_rank(tf):
    a = tf.placeholder(tf.int16)
    b = tf.placeholder(tf.float32, [None, 3])
    add = tf.add(a, a)
    c = tf.constant([[3., 3.]])
    with tf.device("/cpu:0"):
        d = tf.identity(c, name="on_cpu")
    return [str(t) for t in (a, b, add, c, d)] + [repr(a), repr(b)]


def case_collection_keys_are_strings(tf):
    with tf.variable_scope("foo"):
        tf.get_variable("v", [1])
    tf.add_to_collection("mine", 1)
    tf.add_to_collections(["mine", "other"], 2)
    return sorted(tf.get_default_graph().get_all_collection_keys())


# -- run-time errors ------------------------------------------------------------------------------

def case_uninitialized_fetch_messages(tf):
    v = tf.Variable(1.0, name="vv")
    sess = tf.Session()
    out = {"fetch": _first_lines(lambda: sess.run(v), 3),
           "read_value": _first_lines(lambda: sess.run(v.read_value())),
           "add": _first_lines(lambda: sess.run(v + 1))}
    sess.close()
    return out


def case_cast_string_message(tf):
    with tf.Session() as sess:
        t = tf.cast(tf.constant("abc"), tf.float32)
        try:
            sess.run(t)
            return "no error"
        except Exception as e:  # noqa: BLE001
            lines = str(e).split("\n")
            return [type(e).__name__, lines[0], [x for x in lines if "not supported" in x]]


def case_eval_without_session(tf):
    t = tf.constant(1)
    op = tf.no_op()
    other = tf.Graph()
    with other.as_default():
        u = tf.constant(2)
    out = {"tensor": catch(lambda: t.eval(), message=True),
           "op": catch(lambda: op.run(), message=True)}
    with tf.Session() as sess:
        out["given"] = catch(lambda: u.eval(session=sess), message=True)
    with tf.Session():
        out["default"] = catch(lambda: u.eval(), message=True)
    return out


def case_python_conversion_errors(tf):
    return {"mixed": catch(lambda: tf.convert_to_tensor([1, "a"]), message=True),
            "int": catch(lambda: tf.constant(1.5, dtype=tf.int32), message=True)}


def case_cross_graph_binary_op(tf):
    y = tf.placeholder(tf.float32, [None, 3]) * 2
    g2 = tf.Graph()
    with g2.as_default():
        z = tf.constant(1)
    out = catch(lambda: y + z, message=True)
    # The message names both graphs' object addresses: keep the part before them.
    if "message" in out:
        out["message"] = out["message"].split(" (graphs are")[0]
    return out


# -- shape-inference errors: TF's node summary (attrs, inputs, computed input tensors) --------

def case_shape_error_messages(tf):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    checks = {
        "matmul": lambda: tf.matmul(x, tf.ones([4, 2])),
        "add": lambda: tf.constant([1, 2]) + tf.constant([1, 2, 3]),
        "conv2d": lambda: tf.nn.conv2d(tf.ones([1, 4, 4, 2]), tf.ones([2, 2, 3, 1]),
                                       [1, 1, 1, 1], "SAME"),
        "max_pool": lambda: tf.nn.max_pool(tf.ones([1, 4, 4]), [1, 2, 2, 1], [1, 2, 2, 1],
                                           "VALID"),
        "bias_add": lambda: tf.nn.bias_add(tf.ones([2, 3]), tf.ones([4])),
        "reduce_axis": lambda: tf.reduce_sum(x, axis=2),
        "reduce_axes": lambda: tf.reduce_mean(x, axis=[0, 5]),
        "squeeze": lambda: tf.squeeze(x, [1]),
        "argmax": lambda: tf.argmax(x, 3),
        "expand_dims": lambda: tf.expand_dims(x, 4),
        "gather_axis": lambda: tf.gather(x, [0], axis=3),
        "gather_neg_axis": lambda: tf.gather(x, [0], axis=-3),
        "tile": lambda: tf.tile(x, [1, 2, 3]),
        "transpose_len": lambda: tf.transpose(x, [0, 1, 2]),
        "transpose_range": lambda: tf.transpose(x, [0, 2]),
        "softmax_xent": lambda: tf.nn.softmax_cross_entropy_with_logits_v2(
            labels=tf.ones([2, 3]), logits=tf.ones([2, 4])),
        "assign": lambda: tf.assign(tf.Variable(tf.ones([2])), tf.ones([3])),
        "strided_slice": lambda: x[0, 0, 0],
        "one_hot_add": lambda: tf.one_hot(tf.ones([2], tf.int32), 3) + tf.ones([2, 4]),
    }
    return {k: catch(f, message=True) for k, f in checks.items()}


def case_reshape_error_messages(tf):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    checks = {
        "partial_unknown": lambda: tf.reshape(x, [5]),
        "partial_known": lambda: tf.reshape(x, [2, 2]),
        "minus_one": lambda: tf.reshape(x, [-1, 2]),
        "not_divisible": lambda: tf.reshape(tf.ones([4, 3]), [-1, 5]),
        "count": lambda: tf.reshape(tf.ones([4, 3]), [5]),
        "zero": lambda: tf.reshape(tf.ones([4, 3]), [0, -1]),
        "two_unknown": lambda: tf.reshape(tf.ones([4, 3]), [-1, -1]).shape.as_list(),
    }
    return {k: catch(f, message=True) for k, f in checks.items()}


def case_merge_error_messages(tf):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    checks = {
        "concat_dim": lambda: tf.concat([tf.ones([2, 3]), tf.ones([2, 4])], 0),
        "concat_rank": lambda: tf.concat([tf.ones([2, 3]), tf.ones([2, 4, 1])], 1),
        "concat_axis": lambda: tf.concat([tf.ones([2, 3]), tf.ones([2, 4])], 5),
        "concat_middle": lambda: tf.concat([tf.ones([2, 3, 5]), tf.ones([2, 4, 6])], 1),
        "concat_three": lambda: tf.concat([x, tf.ones([2, 4]), tf.ones([3, 4])], 1),
        "stack_rank": lambda: tf.stack([tf.ones([2]), tf.ones([2, 3])]),
        "stack_dims": lambda: tf.stack([x, tf.ones([2, 4])]),
        "stack_three": lambda: tf.stack([tf.placeholder(tf.float32), tf.ones([2]),
                                         tf.ones([3])]),
        "select_vector": lambda: tf.where(tf.ones([2], tf.bool), tf.ones([3]), tf.ones([3])),
        "select_branches": lambda: tf.where(tf.ones([2, 3], tf.bool), tf.ones([2, 3]),
                                            tf.ones([2, 4])),
        "select_rank": lambda: tf.where(tf.ones([2, 3], tf.bool), tf.ones([2, 3]),
                                        tf.ones([2])),
        "split_uneven": lambda: tf.split(tf.ones([4, 3]), 2, axis=1),
        "split_axis": lambda: tf.split(tf.ones([4, 3]), 2, axis=5),
        "split_sizes": lambda: tf.split(tf.ones([4, 3]), [1, 1], axis=1),
        "pad_rows": lambda: tf.pad(x, [[1, 1]]),
        "pad_many_rows": lambda: tf.pad(x, [[1, 1], [1, 1], [1, 1]]),
        "pad_cols": lambda: tf.pad(x, [[1, 1, 1], [1, 1, 1]]),
        "slice_rank": lambda: tf.slice(tf.ones([2, 3]), [0], [1]),
        "boolean_mask_rank": lambda: tf.boolean_mask(x, tf.ones([2, 3, 4], tf.bool)),
        "boolean_mask_dims": lambda: tf.boolean_mask(tf.ones([2, 3]), tf.ones([4], tf.bool)),
    }
    out = {}
    for k, f in checks.items():
        r = catch(f, message=True)
        if "message" in r:
            # Keep the first line of multi-line shape messages ("\tFrom merging ...").
            r["message"] = r["message"].split("\n")[0]
        out[k] = r
    return out


def case_build_time_shapes_tf_accepts(tf):
    """Ops TF's shape functions accept (the kernels fail at run time)."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    out = {"slice_past_end": tf.slice(tf.ones([2, 3]), [0, 0], [3, 1]).shape.as_list(),
           "slice_begin_past_end": tf.slice(tf.ones([2, 3]), [3, 0], [1, 1]).shape.as_list(),
           "transpose_repeated": tf.transpose(x, [0, 0]).shape.as_list()}
    with tf.Session() as sess:
        out["run_slice"] = catch(lambda: sess.run(tf.slice(tf.ones([2, 3]), [0, 0], [3, 1])))
    return out


# -- freezing a graph: write_graph, graph_util, import_graph_def ---------------------------------

def _freeze_model(tf):
    x = tf.placeholder(tf.float32, [None, 2], name="input")
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="W")
    b = tf.get_variable("b", [2], initializer=tf.constant_initializer(0.5))
    r = tf.get_variable("r", [2], initializer=tf.ones_initializer(), use_resource=True)
    y = tf.add(tf.matmul(x, w) + b, r, name="output")
    z = tf.identity(y * 2, name="z")
    tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(z))


def case_freeze_graph(tf):
    _freeze_model(tf)
    out = {}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        gd = sess.graph_def
        frozen = tf.graph_util.convert_variables_to_constants(sess, gd, ["output"])
        out["frozen"] = [(n.name, n.op, sorted(n.attr.keys())) for n in frozen.node]
        out["sub"] = [n.name for n in tf.graph_util.extract_sub_graph(gd, ["z"]).node]
        allow = tf.graph_util.convert_variables_to_constants(
            sess, gd, ["z"], variable_names_whitelist=["W"])
        out["whitelist"] = [(n.name, n.op) for n in allow.node]
        deny = tf.graph_util.convert_variables_to_constants(
            sess, gd, ["z"], variable_names_blacklist=["W"])
        out["blacklist"] = [(n.name, n.op) for n in deny.node]
        out["missing"] = catch(lambda: tf.graph_util.extract_sub_graph(gd, ["nope"]),
                               message=True)
        out["stripped"] = [(n.name, n.op, list(n.input))
                           for n in tf.graph_util.remove_training_nodes(frozen).node]
    data = frozen.SerializeToString()
    with tf.Graph().as_default() as g:
        gd2 = tf.GraphDef()
        gd2.ParseFromString(data)
        tf.import_graph_def(gd2, name="prefix")
        out["imported"] = [op.name for op in g.get_operations()]
        xi = g.get_tensor_by_name("prefix/input:0")
        yo = g.get_tensor_by_name("prefix/output:0")
        out["tensors"] = [str(xi), str(yo)]
        with tf.Session(graph=g) as s:
            out["value"] = s.run(yo, {xi: [[1.0, 1.0]]})
    return out


def case_write_graph(tf):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    tf.identity(x * 2.0, name="y")
    with _TmpDir() as d:
        p1 = tf.train.write_graph(tf.get_default_graph().as_graph_def(), d, "g.pbtxt")
        p2 = tf.train.write_graph(tf.get_default_graph(), os.path.join(d, "sub"), "g.pb",
                                  as_text=False)
        with open(p2, "rb") as f:
            gd = tf.GraphDef()
            gd.ParseFromString(f.read())
        return {"paths": [os.path.relpath(p, d) for p in (p1, p2)],
                "listing": sorted(os.listdir(d)),
                "nodes": [(n.name, n.op, list(n.input)) for n in gd.node],
                "text_nodes": open(p1).read().count("node {")}


# -- inspect_checkpoint (the TF Saver guide) --------------------------------------------------------

def _inspect_module(tf):
    if tf.__name__.startswith("tf1compat"):
        return importlib.import_module("tf1compat.training.saving.inspect_checkpoint")
    return importlib.import_module("tensorflow.python.tools.inspect_checkpoint")


def case_inspect_checkpoint(tf):
    chkp = _inspect_module(tf)
    tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3), name="a")
    tf.Variable(3, name="scope/b")
    tf.Variable([b"x", b"yz"], name="c")
    out = []
    with _TmpDir() as d, tf.Session() as s:
        s.run(tf.global_variables_initializer())
        p = tf.train.Saver().save(s, os.path.join(d, "m"))
        calls = [dict(tensor_name="", all_tensors=False),
                 dict(tensor_name="scope/b", all_tensors=False),
                 dict(tensor_name="nope", all_tensors=False),
                 dict(tensor_name="", all_tensors=False, all_tensor_names=True),
                 dict(tensor_name="", all_tensors=True, count_exclude_pattern="sc")]
        for kwargs in calls:
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                chkp.print_tensors_in_checkpoint_file(p, **kwargs)
            out.append(buf.getvalue())
    return out


# -- gradients --------------------------------------------------------------------------------------

def case_hessians_of_variables(tf):
    x = tf.Variable([1.0, 2.0], name="x")
    w = tf.Variable([[0.5, -1.0], [2.0, 0.1]], name="w")
    loss = tf.reduce_sum(tf.square(tf.matmul(tf.expand_dims(x, 0), w)))
    h = tf.hessians(loss, [x, w])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {"shapes": [t.shape.as_list() for t in h], "values": sess.run(h)}
