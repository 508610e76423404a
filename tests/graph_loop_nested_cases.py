"""Training graphs with while loops nested in a loop body whose trip count is known only
at run time, which real TensorFlow trains from the file tf1compat writes (nested
backward loops, graphdef/loop_gradient_export.py; recorded by
scripts/check_tf_reads_graphs.py as tests/graph_loop_training_cases.py).
"""

from __future__ import annotations

import numpy as np

from tests.graph_training_cases import _training_spec

ROWS = np.cos(np.arange(5 * 3, dtype=np.float32) * 0.7).reshape(5, 3)


def _weights(tf, diagonal: float, v: list):
    """The variables `w` (3x3: `diagonal` on the diagonal + 0.1) and `v` (3)."""
    w = tf.get_variable("w", [3, 3], initializer=tf.constant_initializer(
        np.eye(3, dtype=np.float32) * diagonal + 0.1))
    return w, tf.get_variable("v", [3], initializer=tf.constant_initializer(v))


def case_train_nested_loop_run_time_trip_count(tf):
    """An outer loop over the rows whose body runs an inner tf.while_loop as many times
    as the outer counter says (0, 1, 2, ... refinement steps: a trip count known only at
    run time), reading a captured weight, the outer step's row and the outer state; a
    second inner loop of a fed trip count after it; Momentum."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.4, [0.5, -0.3, 0.2])

    def body(i, h):
        row = x[i]

        def refine(j, g):
            return j + 1, tf.tanh(tf.matmul(g, w) + row * v) * 0.7 + h * 0.3
        _, g = tf.while_loop(lambda j, g: j < i, refine, [tf.constant(0), h + row])
        _, g = tf.while_loop(lambda k, g: k < n, lambda k, g: [k + 1, g * v + 0.1],
                             [tf.constant(0), g])
        return i + 1, g

    _, h = tf.while_loop(lambda i, h: i < 4, body, [tf.constant(0), tf.zeros([1, 3])])
    loss = tf.reduce_mean(tf.square(h - 0.3), name="loss")
    tf.train.MomentumOptimizer(0.1, 0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:4], "n:0": 2},
                          ["loss:0", "w:0", "v:0"])


def case_train_loop_in_cond_in_loop(tf):
    """An outer loop over the rows whose body picks, by a fed flag and by the parity of
    the outer counter, between an inner tf.while_loop (a trip count from the outer
    counter, a captured weight and the outer step's row) and a plain update; the
    predicates fed all ways; Adam."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    w, v = _weights(tf, 0.3, [0.4, -0.2, 0.3])

    def body(i, h):
        row = x[i]

        def looped():
            return tf.while_loop(lambda j, g: j < i + 1, lambda j, g: (
                j + 1, tf.tanh(tf.matmul(g, w) + row * v)), [tf.constant(0), h])[1]
        take = tf.logical_and(flag, tf.equal(tf.floormod(i, 2), 0))
        g = tf.cond(take, looped, lambda: h * v + row)
        return i + 1, g * 0.9 + h * 0.1

    _, h = tf.while_loop(lambda i, h: i < 4, body, [tf.constant(0), tf.zeros([1, 3])])
    loss = tf.reduce_mean(tf.square(h - 0.2), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    feeds = {"x:0": ROWS[:4], "flag:0": True}
    spec = _training_spec(tf, tf.train.Saver(), feeds, ["loss:0", "w:0", "v:0"])
    flipped = dict(feeds, **{"flag:0": False})
    spec["runs"] += [{"feeds": flipped, "fetches": [], "targets": ["train"]},
                     {"feeds": flipped, "fetches": ["loss:0", "w:0", "v:0"]}]
    return spec


def case_train_dynamic_rnn_run_time_length_in_loop(tf):
    """A `dynamic_rnn` (BasicRNNCell) over sequences of a length known only at run time
    (fed: 4 steps) inside a `tf.while_loop` of two passes, its outputs stacked from its
    TensorArray after the inner loop; Adam."""
    x = tf.placeholder(tf.float32, [2, None, 2], name="x")
    cell = tf.nn.rnn_cell.BasicRNNCell(2, name="cell")

    def passes(i, h):
        out, _ = tf.nn.dynamic_rnn(cell, h, dtype=tf.float32)
        return i + 1, h * 0.5 + out

    _, h = tf.while_loop(lambda i, h: i < 2, passes, [tf.constant(0), x])
    loss = tf.identity(tf.reduce_mean(tf.square(h - 0.1)), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    data = np.sin(np.arange(16, dtype=np.float32) * 0.6).reshape(2, 4, 2)
    return _training_spec(tf, tf.train.Saver(), {"x:0": data},
                          ["loss:0", "rnn/cell/kernel:0", "rnn/cell/bias:0"])


LOOP_NESTED_CASES = [case_train_nested_loop_run_time_trip_count,
                     case_train_loop_in_cond_in_loop,
                     case_train_dynamic_rnn_run_time_length_in_loop]
