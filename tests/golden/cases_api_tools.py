"""Golden cases for TF's tool namespaces (issue 12): tf.resource_loader,
tf.nondifferentiable_batch_function, tf.profiler, the cluster protos."""

from __future__ import annotations

import inspect
import os
import sys

import numpy as np

from tests.golden.harness import catch


def case_resource_loader(tf):
    rl = tf.resource_loader
    here = os.path.dirname(inspect.getfile(sys._getframe(0)))
    library = os.path.dirname(inspect.getfile(rl.load_resource))
    return {"data_files_path": rl.get_data_files_path() == here,
            "datafile": rl.get_path_to_datafile("sub/x.txt") == os.path.join(here, "sub/x.txt"),
            "root_is_library_dir": rl.get_root_dir_with_all_resources() == library,
            "readahead": rl.readahead_file_path("/some/file", readahead="1M"),
            "missing": catch(lambda: rl.load_resource("no_such_resource_file.bin"))}


def _batch_run(tf, decorator, fn, feeds, *args):
    def go():
        out = decorator(fn)(*args)
        with tf.Session() as sess:
            return sess.run(out, feeds)
    return catch(go)


def case_batch_function_outputs(tf):
    batch = tf.nondifferentiable_batch_function
    x = tf.placeholder(tf.float32, [None, 2])
    y = tf.placeholder(tf.float32, [None, 2])
    c = tf.constant([5.0, 6.0])

    @batch(1, 4, 10)
    def layer(a, b):
        return tf.matmul(a, a) + b, a * c

    out = layer(x, y)
    xv = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    with tf.Session() as sess:
        values = sess.run(out, {x: xv, y: np.ones((2, 2), np.float32)})
    structured = batch(1, 4, 10)(lambda a: {"u": a + 1, "v": [a - 1]})(x)
    with tf.Session() as sess:
        struct_values = sess.run(structured, {x: xv})
    return {"type": type(out).__name__, "names": [t.name for t in out],
            "op_type": out[0].op.type, "ranks": [t.shape.ndims for t in out],
            "values": list(values), "structured": struct_values,
            "empty": _batch_run(tf, batch(1, 4, 10), lambda a: a + 1,
                                {x: np.ones((0, 2))}, x),
            "padded_sizes": _batch_run(tf, batch(1, 4, 10, allowed_batch_sizes=[2, 4]),
                                       lambda a: a * 2, {x: xv[:1]}, x),
            "gradient": catch(lambda: tf.gradients(out[1], x))}


def case_batch_function_errors(tf):
    batch = tf.nondifferentiable_batch_function
    x = tf.placeholder(tf.float32, [None, 2])
    y = tf.placeholder(tf.float32, [None, 2])
    s = tf.placeholder(tf.float32, [])
    ones = np.ones((3, 2), np.float32)
    return {
        "not_tensor": catch(lambda: batch(1, 4, 10)(lambda a: a)(ones), message=True),
        "no_args": catch(lambda: batch(1, 4, 10)(lambda: tf.constant([1]))()),
        "too_big": _batch_run(tf, batch(1, 2, 10), lambda a: a, {x: ones}, x),
        "limit": _batch_run(tf, batch(1, 0, 10), lambda a: a, {x: ones}, x),
        "not_increasing": _batch_run(tf, batch(1, 4, 10, allowed_batch_sizes=[3, 2]),
                                     lambda a: a, {x: ones}, x),
        "final_entry": _batch_run(tf, batch(1, 4, 10, allowed_batch_sizes=[2, 3],
                                            enable_large_batch_splitting=False),
                                  lambda a: a, {x: ones}, x),
        "scalar_input": _batch_run(tf, batch(1, 4, 10), lambda a: a + 1, {s: 1.0}, s),
        "unequal": _batch_run(tf, batch(1, 4, 10), lambda a, b: a + 1,
                              {x: ones, y: ones[:2]}, x, y),
        "scalar_output": _batch_run(tf, batch(1, 4, 10), tf.reduce_sum, {x: ones}, x),
        "rows_output": _batch_run(tf, batch(1, 4, 10), lambda a: a[:1], {x: ones}, x),
    }
