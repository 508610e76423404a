"""Golden cases: the messages of common run-time kernel failures (shape mismatches found
only when the fed values arrive), in graph mode and eagerly, as TF words them: legacy test
suites match them with assertRaisesRegex."""

import numpy as np


def _kernel_line(message):
    """The line of a graph-mode message that carries the kernel's own text (the one
    before TF's "[[{{node ...}}]]" trailer)."""
    lines = [line for line in message.split("\n") if line.strip()]
    for i, line in enumerate(lines):
        if line.lstrip().startswith("[[{{node"):
            return lines[i - 1]
    return lines[-1]


def _graph_failure(tf, build, feeds):
    """Builds `build(*placeholders)` with unknown-shaped float32 placeholders, runs it on
    `feeds`; returns the error class, the failing node and the kernel's message."""
    with tf.Graph().as_default():
        phs = [tf.placeholder(np.asarray(f).dtype, name=f"in{i}") for i, f in enumerate(feeds)]
        out = build(tf, *phs)
        with tf.Session() as sess:
            try:
                sess.run(out, dict(zip(phs, feeds)))
            except tf.errors.OpError as e:
                return {"error": type(e).__name__, "node": e.op.name if e.op else None,
                        "message": _kernel_line(e.message)}
    return {"error": None}


_F = np.float32


CASES = {
    "add": (lambda tf, a, b: tf.add(a, b), [np.ones((3, 3), _F), np.ones((4, 3), _F)]),
    "mul": (lambda tf, a, b: a * b, [np.ones((2, 5), _F), np.ones((3,), _F)]),
    "sub_int": (lambda tf, a, b: a - b, [np.ones((2,), np.int32), np.ones((3,), np.int32)]),
    "maximum": (lambda tf, a, b: tf.maximum(a, b), [np.ones((2, 1, 4), _F),
                                                    np.ones((3, 5), _F)]),
    "squared_difference": (lambda tf, a, b: tf.squared_difference(a, b),
                           [np.ones((2,), _F), np.ones((5,), _F)]),
    "equal": (lambda tf, a, b: tf.equal(a, b), [np.ones((2,), _F), np.ones((3,), _F)]),
    "reshape_minus_one": (lambda tf, a: tf.reshape(a, [-1, 2]), [np.ones((1, 3), _F)]),
    "reshape_total": (lambda tf, a: tf.reshape(a, [2, 2]), [np.ones((1, 3), _F)]),
    "matmul": (lambda tf, a, b: tf.matmul(a, b), [np.ones((1, 3), _F), np.ones((2, 2), _F)]),
    "matmul_transposed": (lambda tf, a, b: tf.matmul(a, b, transpose_b=True),
                          [np.ones((4, 3), _F), np.ones((4, 2), _F)]),
    "batch_matmul": (lambda tf, a, b: tf.matmul(a, b), [np.ones((2, 1, 3), _F),
                                                       np.ones((2, 2, 2), _F)]),
    "batch_matmul_batch": (lambda tf, a, b: tf.matmul(a, b), [np.ones((2, 1, 3), _F),
                                                             np.ones((3, 3, 2), _F)]),
    "concat": (lambda tf, a, b: tf.concat([a, b], 0), [np.ones((1, 3), _F),
                                                       np.ones((2, 2), _F)]),
    "concat_rank": (lambda tf, a, b: tf.concat([a, b], 0), [np.ones((1, 3), _F),
                                                            np.ones((2,), _F)]),
    "stack": (lambda tf, a, b: tf.stack([a, b]), [np.ones((3,), _F), np.ones((4,), _F)]),
    "slice_size": (lambda tf, a: tf.slice(a, [0, 0], [3, 3]), [np.ones((1, 3), _F)]),
    "slice_begin": (lambda tf, a: tf.slice(a, [2, 0], [1, 1]), [np.ones((1, 3), _F)]),
    "gather": (lambda tf, a: tf.gather(a, [7]), [np.ones((1, 3), _F)]),
    "softmax_xent": (lambda tf, a, b: tf.nn.softmax_cross_entropy_with_logits_v2(
        labels=a, logits=b), [np.ones((2, 4), _F), np.ones((2, 3), _F)]),
    "bias_add": (lambda tf, a, b: tf.nn.bias_add(a, b), [np.ones((2, 3), _F),
                                                        np.ones((4,), _F)]),
    "conv2d_depth": (lambda tf, a, b: tf.nn.conv2d(a, b, [1, 1, 1, 1], "SAME"),
                     [np.ones((1, 4, 4, 3), _F), np.ones((2, 2, 4, 5), _F)]),
    "tile": (lambda tf, a: tf.tile(a, [2, 2]), [np.ones((3,), _F)]),
    "transpose": (lambda tf, a: tf.transpose(a, [1, 0]), [np.ones((2, 3, 4), _F)]),
    "select": (lambda tf, a, b: tf.where(a > 0, a, b), [np.ones((3,), _F), np.ones((4,), _F)]),
    "select_broadcasting_else": (lambda tf, a, b: tf.where(a > 0, a, b),
                                 [np.ones((3,), _F), np.ones((1,), _F)]),
    "select_batch_rows": (lambda tf, a, b: tf.where(tf.reduce_sum(a, 1) > 0, b, b),
                          [np.ones((2, 2), _F), np.ones((3, 2), _F)]),
    "select_scalar": (lambda tf, a, b: tf.where(tf.reduce_sum(a) > 0, a, b),
                      [np.ones((3,), _F), np.ones((2,), _F)]),
    "tile_ok_then_bad_rank": (lambda tf, a: tf.tile(a, [2]), [np.ones((2, 3), _F)]),
    "add_n": (lambda tf, a, b: tf.add_n([a, b]), [np.ones((3,), _F),
                                                             np.ones((4,), _F)]),
}


def case_graph_mode(tf):
    return {name: _graph_failure(tf, build, feeds) for name, (build, feeds) in CASES.items()}
