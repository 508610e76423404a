"""Golden cases: `tf.py_func` / `tf.numpy_function` / `Dataset.from_generator` returning
Python `str` (object arrays of str, lists, scalars): TF converts them to `tf.string`
(UTF-8 bytes); an object array holding anything but bytes and str is TF's InternalError
("Unsupported object type int"), raised before the dtype check."""

import re

import numpy as np


def _last_line(e):
    """The kernel's own message: the line before TF's "[[{{node ...}}]]" trailer."""
    lines = [ln for ln in e.message.split("\n") if ln.strip()]
    # PyFunc tokens count per process: masked.
    return re.sub(r"pyfunc_\d+", "pyfunc_N", [ln for ln in lines if not ln.startswith("\t")][-1])


def _run(tf, fn, tout):
    out = {}
    for api in ("py_func", "numpy_function"):
        t = getattr(tf, api)(fn, [], tout)
        with tf.Session() as sess:
            try:
                out[api] = sess.run(t)
            except tf.errors.OpError as e:
                out[api] = {"error": type(e).__name__, "message": _last_line(e)}
    return out


def case_object_array_of_str(tf):
    return {"1d": _run(tf, lambda: np.array(["a", "b\u00e9"], dtype=object), tf.string),
            "2d": _run(tf, lambda: np.array([["a", "b"], ["c", "d"]], dtype=object),
                       tf.string),
            "mixed": _run(tf, lambda: np.array([b"a", "b"], dtype=object), tf.string),
            "np_str": _run(tf, lambda: np.str_("q"), tf.string),
            "scalar": _run(tf, lambda: "hello", tf.string)}


def case_object_array_errors(tf):
    return {"int": _run(tf, lambda: np.array([1, 2], dtype=object), tf.int64),
            "str_int": _run(tf, lambda: np.array(["a", 1], dtype=object), tf.string),
            "as_float": _run(tf, lambda: np.array(["a"], dtype=object), tf.float32)}


def case_py_func_str_input_roundtrip(tf):
    x = tf.constant(["ab", "c"])
    y = tf.py_func(lambda v: np.array([s.decode() + "!" for s in v], dtype=object), [x],
                   tf.string)
    with tf.Session() as sess:
        return sess.run(y)


def _drain(tf, ds):
    nx = tf.data.make_one_shot_iterator(ds).get_next()
    out = []
    with tf.Session() as sess:
        while True:
            try:
                out.append(sess.run(nx))
            except tf.errors.OutOfRangeError:
                return out
            except tf.errors.OpError as e:
                return out + [{"error": type(e).__name__, "message": _last_line(e)}]


def case_from_generator_str(tf):
    def arrays():
        yield np.array(["a", "bc"], dtype=object)
        yield np.array(["d"], dtype=object)

    def scalars():
        yield "s1"
        yield "s\u00e92"

    def nested():
        yield ("k", np.array(["x"], dtype=object)), 1
        yield ("l", ["y", "z"]), 2

    def bad():
        yield np.array(["a", 3], dtype=object)
    return {"arrays": _drain(tf, tf.data.Dataset.from_generator(
                arrays, tf.string, tf.TensorShape([None]))),
            "scalars": _drain(tf, tf.data.Dataset.from_generator(
                scalars, tf.string, tf.TensorShape([]))),
            "nested": _drain(tf, tf.data.Dataset.from_generator(
                nested, ((tf.string, tf.string), tf.int32))),
            "bad": _drain(tf, tf.data.Dataset.from_generator(bad, tf.string))}
