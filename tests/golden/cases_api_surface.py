"""Golden cases: the rest of the TF1 surface (issue 12): tf.print, tf.debugging, Dataset.reduce
in graph mode, tf.Module, TypeSpecs, small graph utilities, tf.summary / tf.train rest,
TF's error classes for fill, segment ids and make_callable."""

import os
import tempfile

import numpy as np

from tests.golden.harness import catch, describe


def _printed(tf, *inputs, **kwargs):
    """What tf.print writes (to a file, which real TF's C++ printer can be pointed at)."""
    path = os.path.join(tempfile.mkdtemp(), "printed.txt")
    op = tf.print(*inputs, output_stream="file://" + path, **kwargs)
    with tf.Session() as sess:
        sess.run(op)
    with open(path, "rb") as f:
        return f.read()


def case_tf_print(tf):
    x = tf.range(10)
    f = tf.constant([[1.5, 2.25, -3.0], [4.0, 5.0, 6.125]])
    out = {
        "summarized": _printed(tf, "x:", x),
        "all": _printed(tf, x, summarize=-1),
        "two": _printed(tf, x, summarize=2),
        "matrix": _printed(tf, f),
        "rank3": _printed(tf, tf.reshape(tf.range(60), [3, 4, 5])),
        "strings": _printed(tf, tf.constant(["a", "b'c", "d\ne"])),
        "python_values": _printed(tf, "scalar", tf.constant(3.5), tf.constant(True), 7, 2.5),
        "structures": _printed(tf, [x, 1], {"b": f, "a": "z"}),
        "floats": _printed(tf, tf.constant(1.0) / 3.0, tf.constant(1e-10),
                           tf.constant(np.float64(1) / 3)),
        "sep_end": _printed(tf, "a", "b", sep="--", end="!\n"),
        "empty": _printed(tf, tf.zeros([0, 2])),
        "specials": _printed(tf, tf.constant([np.nan, np.inf, -np.inf])),
        "sparse": _printed(tf, tf.SparseTensor([[0, 0]], [1.0], [2, 2])),
        "scalar_string": _printed(tf, tf.constant("just text")),
        "nothing": _printed(tf),
    }
    # In a dataset function tf.print runs although no output depends on it (TF's automatic
    # control dependencies).
    path = os.path.join(tempfile.mkdtemp(), "from_map.txt")
    ds = tf.data.Dataset.range(3).map(
        lambda v: (tf.print("elem", v, output_stream="file://" + path), v + 1)[1])
    element = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess:
        out["from_map_values"] = [sess.run(element) for _ in range(2)]
    with open(path, "rb") as f:
        out["from_map"] = f.read()
    op = tf.print("x", x, name="p")
    out["op"] = [op.type, op.name, op.inputs[0].op.type, op.inputs[0].op.name,
                 op.get_attr("output_stream"), op.get_attr("end"),
                 op.inputs[0].op.get_attr("template"), op.inputs[0].op.get_attr("summarize")]
    out["bad_stream"] = catch(lambda: tf.print(1, output_stream=42))
    out["bad_kwarg"] = catch(lambda: tf.print(1, foo=1), message=True)
    return out


def case_tf_print_variables(tf):
    """tf.print prints a variable's value (ref and resource), also inside a structure."""
    ref = tf.Variable([1, 2], name="ref")
    res = tf.Variable([[0.5], [1.5]], name="res", use_resource=True)
    path = os.path.join(tempfile.mkdtemp(), "printed.txt")
    op = tf.print("v", ref, {"r": res}, output_stream="file://" + path)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(op)
    with open(path, "rb") as f:
        return f.read()


def case_debugging_assert_shapes(tf):
    x = tf.zeros([4, 3])
    y = tf.ones([4, 7])
    s = tf.constant(1.0)
    p = tf.placeholder(tf.float32, [None, 3])
    ok = tf.debugging.assert_shapes([(x, ("N", "Q")), (y, ("N", "D")), (s, [])])
    dyn = tf.debugging.assert_shapes({p: ("N", 3), x: (4, "Q")})
    with tf.control_dependencies([dyn]):
        z = tf.identity(p)
    out = {"ok": ok.type,
           "mismatch": catch(lambda: tf.debugging.assert_shapes([(x, ("N", "Q")),
                                                                 (y, ("M", "Q"))])),
           "wrong_size": catch(lambda: tf.debugging.assert_shapes([(x, (5, 3))]),
                               message=True),
           "wrong_rank": catch(lambda: tf.debugging.assert_shapes([(x, ("N",))])),
           "ellipsis": tf.debugging.assert_shapes([(y, (Ellipsis, 7))]).type,
           "bad_ellipsis": catch(lambda: tf.debugging.assert_shapes([(y, (4, Ellipsis))])),
           "not_iterable": catch(lambda: tf.debugging.assert_shapes([(x, 3)]))}
    with tf.Session() as sess:
        out["dynamic_ok"] = sess.run(z, {p: np.ones((2, 3), np.float32)}).shape
        out["dynamic_bad"] = catch(lambda: sess.run(z, {p: np.ones((2, 4), np.float32)}))
    out["log_device_placement"] = tf.debugging.get_log_device_placement()
    return out


def case_dataset_reduce_graph(tf):
    ds = tf.data.Dataset.range(5)
    total = ds.reduce(np.int64(0), lambda a, b: a + b)
    pair = ds.reduce((np.int64(0), np.int64(1)), lambda s, x: (s[0] + x, s[1] * (x + 1)))
    grown = tf.data.Dataset.from_tensor_slices([[1.0, 2.0], [3.0, 4.0]]).reduce(
        tf.zeros([0]), lambda s, x: tf.concat([s, x], 0))
    mapped = ds.map(lambda x: (x, x * 2)).reduce(np.int64(0), lambda s, e: s + e[0] + e[1])
    out = {"tensors": [describe(t) for t in (total, pair[0], pair[1], grown, mapped)],
           "wrong_dtype": catch(lambda: ds.reduce(np.int64(0),
                                                  lambda a, b: tf.cast(a, tf.float32)),
                                message=True)}
    with tf.Session() as sess:
        out["values"] = sess.run([total, pair, grown, mapped])
    return out


def case_module_and_type_specs(tf):
    class Dense(tf.Module):
        def __init__(self, n, name=None):
            super().__init__(name=name)
            self.w = tf.Variable(tf.ones([2, n]), name="w")
            self.b = tf.Variable(tf.zeros([n]), name="b", trainable=False)

    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.layers = [Dense(3, name="first"), Dense(1)]

    m = Model()
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    return {
        "names": [m.name, m.name_scope.name, m.layers[0].name, m.layers[1].name],
        "variables": [v.name for v in m.variables],
        "trainable": [v.name for v in m.trainable_variables],
        "submodules": [s.name for s in m.submodules],
        "bad_name": catch(lambda: tf.Module(name="not valid")),
        "specs": [repr(tf.type_spec_from_value(x)), repr(tf.TensorSpec.from_tensor(x)),
                  repr(tf.IndexedSlicesSpec([None, 3], tf.float32, tf.int32, tf.int64,
                                            [None])),
                  repr(tf.TensorArraySpec([2], tf.float32)),
                  repr(tf.TensorArraySpec(None, tf.int32, True, False)),
                  repr(tf.NoneTensorSpec()), repr(tf.type_spec_from_value(None)),
                  repr(tf.type_spec_from_value(np.ones((2, 3)))),
                  repr(tf.type_spec_from_value(tf.SparseTensor([[0]], [1.0], [2])))],
        "spec_equal": [tf.TensorSpec([2]) == tf.TensorSpec([2]),
                       tf.TensorArraySpec([2]) == tf.TensorArraySpec([2]),
                       isinstance(tf.SparseTensorSpec(), tf.TypeSpec)],
    }


def case_graph_utilities(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    dense = tf.convert_to_tensor_or_sparse_tensor([1, 2])
    # (TF's recompute_grad fails on ref variables: a resource variable, as in TF 2 code)
    v = tf.Variable(2.0, name="v", use_resource=True)
    rounded = tf.grad_pass_through(tf.round)(x * v)
    block = tf.recompute_grad(lambda a: tf.sin(a) * v)(x)
    # (op names inside vectorized_map differ: TF vectorizes, tf1compat loops; see docs)
    mapped = tf.vectorized_map(lambda r: r * 2.0 + tf.reduce_sum(r), x)
    with tf.control_dependencies([x.op]):
        with tf.init_scope():
            c = tf.constant(1.0)
    with tf.name_scope("outer"):
        with tf.init_scope():
            d = tf.constant(1.0, name="d")
    sp = tf.convert_to_tensor_or_sparse_tensor(tf.SparseTensorValue([[0]], [1.0], [2]))
    out = {"init_scope": [len(c.op.control_inputs), d.name],
           "symbolic": [tf.is_symbolic_tensor(x), tf.is_symbolic_tensor(1.0),
                        tf.is_symbolic_tensor(np.ones(2)), tf.is_symbolic_tensor(v)],
           "sparse": [type(sp).__name__, describe(sp.values)],
           "dense": describe(dense),
           "sparse_dtype": catch(lambda: tf.convert_to_tensor_or_sparse_tensor(
               tf.SparseTensorValue([[0]], [1.0], [2]), dtype=tf.int32)),
           "shapes": [describe(t) for t in (rounded, block)],
           "mapped": [mapped.dtype.name, mapped.shape.as_list()],
           "cxx": tf.CXX_VERSION, "logger": tf.get_logger().name}
    grads = tf.gradients(rounded, v) + tf.gradients(tf.reduce_sum(block), [x, v])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["values"] = sess.run([rounded, block, mapped] + grads)
    return out


def case_summary_and_train_rest(tf):
    directory = tempfile.mkdtemp()
    for name in ("b.txt", "a.txt", "c.log"):
        with open(os.path.join(directory, name), "w") as f:
            f.write(name)
    files = tf.train.match_filenames_once(os.path.join(directory, "*.txt"))
    described = tf.summary.SummaryDescription(type_hint="x")
    tagged = tf.summary.TaggedRunMetadata(tag="t", run_metadata=b"ab")
    out = {"variable": [files.name, files.op.type,
                        files in tf.local_variables(), files in tf.global_variables()],
           "all_v2": tf.summary.all_v2_summary_ops(),
           "initialize": catch(lambda: tf.summary.initialize(), message=True),
           "protos": [described.type_hint, tagged.tag, tagged.run_metadata],
           "description_of_scalar": catch(lambda: tf.summary.get_summary_description(
               tf.summary.scalar("s", 1.0).op.node_def), message=True)}
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        out["files"] = [os.path.basename(p) for p in sess.run(files)]
    return out


def case_error_classes(tf):
    ids = tf.placeholder(tf.int32)
    a = tf.placeholder(tf.float32)
    b = tf.placeholder(tf.float32)
    dims = tf.placeholder(tf.int32)
    out = {"fill_static": catch(lambda: tf.fill([2, -1], 1.0), message=True)}
    with tf.Session() as sess:
        segment = tf.unsorted_segment_sum([1.0, 2.0, 3.0], ids, 3)
        out["segment_out_of_range"] = catch(lambda: sess.run(segment, {ids: [0, 3, 1]}))
        out["segment_negative_dropped"] = sess.run(segment, {ids: [0, -1, 1]})
        out["segment_max"] = catch(lambda: sess.run(
            tf.unsorted_segment_max([1.0, 2.0, 3.0], [0, 5, 1], 3)))
        call = sess.make_callable(a + b, [a, b])
        out["callable"] = call(1.0, 2.0)
        out["callable_few"] = catch(lambda: call(1.0))
        out["callable_many"] = catch(lambda: call(1.0, 2.0, 3.0))
        out["fill_run"] = catch(lambda: sess.run(tf.fill(dims, 1.0), {dims: [2, -1]}))
    return out


def case_enable_check_numerics(tf):
    tf.debugging.enable_check_numerics()
    try:
        x = tf.placeholder(tf.float32, name="x")
        y = tf.log(x, name="mylog")
        z = y * 2.0
    finally:
        tf.debugging.disable_check_numerics()
    unchecked = tf.log(x)
    with tf.Session() as sess:
        return {"finite": sess.run(z, {x: 2.0}),
                "nan": catch(lambda: sess.run(z, {x: -1.0})),
                "inf": catch(lambda: sess.run(y, {x: 0.0})),
                "after_disable": sess.run(unchecked, {x: -1.0})}
