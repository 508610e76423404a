"""Golden cases: the rest of `tf.contrib.framework` (contrib's tensor helpers `with_shape`,
`with_same_shape`, `reduce_sum_n`, `remove_squeezable_dimensions`, `assert_scalar_int`;
contrib's `py_func`; `get_placeholders`; the name-scope functions) and the internal
`tensorflow.python.util.nest` that TF1 libraries import (`map_structure_up_to`,
`flatten_up_to`, `assert_shallow_structure`, the path functions, `flatten_dict_items`).

TF 2.x has no contrib: under the oracle the contrib functions are TF 1.15's own
contrib/framework sources (tensor_util.py, script_ops.py, graph_util.py) run under TF 2.21's
tf.compat.v1 graph mode (scripts/oracle_contrib.py, `tf115_package`); nest and the
name-scope functions are TF 2.21's internal modules, which tf1compat reaches through the
shim's table of internal paths."""

import importlib

import numpy as np


def _internal(tf, path):
    if tf.__name__.startswith("tf1compat"):
        from tf1compat.shim import INTERNAL_PATHS
        return importlib.import_module(INTERNAL_PATHS[path])
    return importlib.import_module(path)


def _framework(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.framework
    import oracle_contrib
    out = oracle_contrib.tf115_package("contrib.framework.python.framework",
                                       ["tensor_util", "graph_util"])
    ops = oracle_contrib.tf115_package("contrib.framework.python.ops", ["script_ops"])
    out.py_func = ops.py_func
    framework_ops = importlib.import_module("tensorflow.python.framework.ops")
    out.prepend_name_scope = framework_ops.prepend_name_scope
    out.strip_name_scope = framework_ops.strip_name_scope
    return out


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class and text are the result
        return [type(e).__name__, str(e).split("\n")[0]]
    return None


def case_with_shape_static_and_run_time(tf):
    fw = _framework(tf)
    with tf.Graph().as_default():
        x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3), name="x")
        same = fw.with_shape([2, 3], x)
        wrong = _error(lambda: fw.with_shape([3, 2], x))
        scalar = fw.with_shape([], tf.constant([5.0], name="one"))
        p = tf.placeholder(tf.float32, [None, 3], name="p")
        checked = fw.with_shape([2, 3], p)
        like = fw.with_same_shape(x, tf.placeholder(tf.float32, None, name="q"))
        bad_dtype = _error(lambda: fw.with_shape(np.array([2, 3], np.float32), x))
        with tf.Session() as sess:
            ok = sess.run(checked, {p: np.ones((2, 3))})
            failed = _error(lambda: sess.run(checked, {p: np.ones((4, 3))}))
            liked = sess.run(like, {like.op.inputs[0]: np.ones((2, 3))})
            scalar_value = sess.run(scalar)
        return {"same_is_input": same is x, "wrong": wrong, "scalar": scalar_value,
                "scalar_shape": scalar.shape.as_list(), "checked_shape": checked.shape.as_list(),
                "checked_name": checked.name, "ok": ok, "failed_class": failed[0],
                "liked": liked, "like_name": like.name, "bad_dtype": bad_dtype}


def case_reduce_sum_n_and_squeezable_dimensions(tf):
    fw = _framework(tf)
    with tf.Graph().as_default():
        a = tf.constant([[1.0, 2.0], [3.0, 4.0]], name="a")
        b = tf.constant([10.0], name="b")
        total = fw.reduce_sum_n([a, b])
        single = fw.reduce_sum_n([a], name="only")
        empty = _error(lambda: fw.reduce_sum_n([]))
        pred = tf.constant([[1], [0], [1]], name="pred")
        label = tf.constant([1, 1, 0], name="label")
        p1, l1 = fw.remove_squeezable_dimensions(pred, label)
        pp = tf.placeholder(tf.int32, None, name="pp")
        p2, l2 = fw.remove_squeezable_dimensions(pp, label)
        scalar_int = _error(lambda: fw.assert_scalar_int(tf.constant(1.0)))
        ok_int = fw.assert_scalar_int(tf.constant(3))
        with tf.Session() as sess:
            values = sess.run({"total": total, "single": single, "p1": p1, "l1": l1,
                               "ok_int": ok_int})
            values["p2"], values["l2"] = sess.run([p2, l2], {pp: [[1], [0], [1]]})
        values.update({"names": [total.name, single.name, p1.name, l1.name],
                       "shapes": [p1.shape.as_list(), l1.shape.as_list()],
                       "empty": empty, "scalar_int": scalar_int})
        return values


def case_contrib_py_func_nested(tf):
    fw = _framework(tf)

    def pair(a, scale=None):
        return {"sum": a.sum().astype(np.float32), "scaled": (a * scale).astype(np.float32)}

    with tf.Graph().as_default():
        a = tf.constant([1.0, 2.0, 3.0])
        out = fw.py_func(pair, [a], {"scale": tf.constant(2.0)},
                         output_types={"sum": tf.float32, "scaled": tf.float32},
                         output_shapes={"sum": [], "scaled": [3]})
        single = fw.py_func(lambda x: x * 3, [a], output_types=tf.float32,
                            output_shapes=[3])
        # TF's message names the argument's Python class, which differs by implementation
        bad = _error(lambda: fw.py_func(pair, a, output_types=tf.float32))[0]
        with tf.Session() as sess:
            values = sess.run({"out": out, "single": single})
        return {"values": values, "shapes": {k: v.shape.as_list() for k, v in out.items()},
                "single_shape": single.shape.as_list(), "bad": bad}


def case_placeholders_and_name_scopes(tf):
    fw = _framework(tf)
    with tf.Graph().as_default() as g:
        tf.placeholder(tf.float32, name="a")
        with tf.name_scope("s"):
            tf.placeholder(tf.int32, [2], name="b")
        tf.constant(1.0, name="c")
        names = [t.name for t in fw.get_placeholders(g)]
    return {"placeholders": names,
            "prepend": [fw.prepend_name_scope(n, "imp/") for n in ["x/y", "^x/y", "loc:@x"]],
            "prepend_none": fw.prepend_name_scope("x", None),
            "strip": [fw.strip_name_scope(n, "exp") for n in
                      ["exp/x", "^exp/x", "loc:@exp/x", "other/x", "exp//x"]]}


def case_internal_nest_up_to(tf):
    nest = _internal(tf, "tensorflow.python.util.nest")
    shallow = {"b": [0, 0], "a": 0}
    deep = {"a": [1, 2], "b": [(3, 4), {"z": 5, "y": 6}]}
    out = {"flatten_up_to": nest.flatten_up_to(shallow, deep),
           "map_up_to": nest.map_structure_up_to(shallow, lambda v: str(v), deep),
           "map_two": nest.map_structure_up_to([0, 0], lambda x, y: x + y, [1, [2]], [3, [4]]),
           "paths": list(nest.yield_flat_paths(deep)),
           "joined": nest.flatten_with_joined_string_paths(deep),
           "with_paths": nest.map_structure_with_paths(lambda p, v: f"{p}={v}", deep),
           "dict_items": sorted(nest.flatten_dict_items(
               {("a", ("b", "c")): (1, (2, 3)), "d": 4}).items())}
    out["errors"] = [
        _error(lambda: nest.assert_shallow_structure([1, 2], 3)),
        _error(lambda: nest.assert_shallow_structure([1, 2], (1, 2))),
        _error(lambda: nest.assert_shallow_structure([1, 2], [1, 2, 3])),
        _error(lambda: nest.assert_shallow_structure({"a": 1, "c": 2}, {"a": 1, "b": 2})),
    ]
    out["loose_types"] = nest.flatten_up_to([0, 0], (1, [2]), check_types=False)
    return out
