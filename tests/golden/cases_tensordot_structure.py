"""Golden cases: `tf.tensordot` builds TF's graph (transpose/reshape to matrices, one
MatMul, a reshape to the free dimensions; a 2-D product is `Tensordot/MatMul` itself) with
TF 2.21's argument errors, and an op input whose type attr is not yet inferred converts as
TF 2's op helper does (`tf.reshape(x, [])` leaves an unused float32 `Reshape/shape`).
"""

import numpy as np

from tests.golden.harness import catch


def _graph_of(tf, build):
    graph = tf.Graph()
    with graph.as_default():
        out = build(tf)
        feeds = {}
        for op in graph.get_operations():
            if op.type == "Placeholder":
                shape = [2 if d is None else d for d in op.outputs[0].shape.as_list()]
                feeds[op.outputs[0]] = (np.arange(np.prod(shape), dtype=np.float32)
                                        .reshape(shape) / 7.0)
        with tf.Session() as sess:
            value = sess.run(out, feeds)
        return {"name": out.name, "shape": out.shape.as_list(), "value": value,
                "ops": [f"{op.name}:{op.type}" for op in graph.get_operations()]}


def case_tensordot_graphs(tf):
    P = tf.placeholder
    builds = {
        "matrix": lambda tf: tf.tensordot(P(tf.float32, [2, 3]), P(tf.float32, [3, 4]), 1),
        "rank3": lambda tf: tf.tensordot(P(tf.float32, [2, 3, 4]), P(tf.float32, [4, 5]), 1),
        "middle_axis": lambda tf: tf.tensordot(P(tf.float32, [2, 3, 4]),
                                               P(tf.float32, [3, 5]), [[1], [0]]),
        "int_pair": lambda tf: tf.tensordot(P(tf.float32, [2, 3]), P(tf.float32, [3, 4]),
                                            [1, 0]),
        "outer": lambda tf: tf.tensordot(P(tf.float32, [2]), P(tf.float32, [3]), 0),
        "negative_axes": lambda tf: tf.tensordot(P(tf.float32, [2, 3, 4]),
                                                 P(tf.float32, [4, 3]), [[-1, 1], [0, 1]]),
        "unknown_batch": lambda tf: tf.tensordot(P(tf.float32, [None, 3, 4]),
                                                 P(tf.float32, [4, 5]), 1),
        "unknown_free_b": lambda tf: tf.tensordot(P(tf.float32, [2, 4]),
                                                  P(tf.float32, [4, None]), 1),
        "named": lambda tf: tf.tensordot(P(tf.float32, [2, 3, 4]), P(tf.float32, [4, 5]), 1,
                                         name="td"),
        "full_contraction": lambda tf: tf.tensordot(P(tf.float32, [2, 3]),
                                                    P(tf.float32, [2, 3]), 2),
        "int32": lambda tf: tf.tensordot(tf.constant([[1, 2]]), tf.constant([[3], [4]]), 1),
    }
    return {key: _graph_of(tf, build) for key, build in builds.items()}


def case_tensordot_axes_tensor_values(tf):
    """Axes given as a tensor: TF's run-time path (ListDiff of the free axes)."""
    a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    out = tf.tensordot(a, b, tf.constant([[1], [0]]))
    with tf.Session() as sess:
        return {"value": sess.run(out), "name": out.name}


def case_tensordot_argument_errors(tf):
    a = tf.placeholder(tf.float32, [2, 3], name="a")
    b = tf.placeholder(tf.float32, [3, 4], name="b")
    c = tf.placeholder(tf.float32, [4, 4], name="c")
    return {
        "too_many": catch(lambda: tf.tensordot(a, b, 3), message=True),
        "negative": catch(lambda: tf.tensordot(a, b, -1), message=True),
        "lengths": catch(lambda: tf.tensordot(a, b, [[1], [0, 1]]), message=True),
        "three_rows": catch(lambda: tf.tensordot(a, b, [[1], [0], [1]]), message=True),
        "mismatch": catch(lambda: tf.tensordot(a, c, 1), message=True),
    }


def case_empty_list_input_leaves_a_float_constant(tf):
    """TF 2's op helper converts `[]` for a not-yet-inferred int32/int64 attr first
    without a dtype (float32, not allowed), then with the default: two constants."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [1, 1])
        scalar = tf.reshape(x, [])
        vector = tf.reshape(x, [1])
        tiled = tf.tile(tf.placeholder(tf.float32, []), [])
        with tf.Session() as sess:
            values = sess.run([scalar, vector], {x: [[3.0]]})
        return {"ops": [f"{op.name}:{op.type}:{op.outputs[0].dtype.name}"
                        for op in graph.get_operations()],
                "values": values, "tiled": tiled.shape.as_list()}
