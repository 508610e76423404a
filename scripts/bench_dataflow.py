"""Benchmark: imported TF1 control flow on the dataflow executor, against the same loops
built by tf1compat's tf.while_loop (one While op running compiled regions) and real TF.

    .venv/bin/python scripts/bench_dataflow.py            # tf1compat, both forms; writes
    /tmp/tf/bin/python scripts/bench_dataflow.py --tf     # the file real TF imports here

The graphs are built by tf1compat, written with `tf.train.export_meta_graph` (TF1's
Switch/Merge/Enter/... form) and imported again, so the "dataflow" figures run exactly the
file TF runs; each reader builds the LSTM's gradient itself. Figures are µs per loop
iteration ((time of n iterations - time of 0) / n, best of `repeats`) for a scalar counter
loop and a 4-vector loop, and ms per Session.run of a 32-step LSTM dynamic_rnn (batch 8,
32 units) forward and forward+backward.
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any, Dict

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
from scripts.bench_while import _best, _per_iteration  # noqa: E402  (same measurement)

META = os.path.join(tempfile.gettempdir(), "tf1compat_bench_dataflow.meta")


def build(tf: Any) -> None:
    """The benchmark graph (tf1compat builds and writes it)."""
    n = tf.placeholder(tf.int32, [], name="n")
    tf.identity(tf.while_loop(lambda i: i < n, lambda i: i + 1, [0]), name="scalar")
    _, vector = tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x * 0.5 + 1.0),
                              [0, tf.zeros([4])])
    tf.identity(vector, name="vector")
    seq = tf.placeholder(tf.float32, [8, 32, 16], name="seq")
    cell = tf.nn.rnn_cell.LSTMCell(32, initializer=tf.constant_initializer(0.05))
    _, state = tf.nn.dynamic_rnn(cell, seq, dtype=tf.float32)
    tf.reduce_sum(state.h * state.h, name="loss")
    tf.global_variables_initializer()


def add_gradient(tf: Any, graph: Any) -> None:
    """The gradient of the LSTM loss, built by the reader (for an imported file: its own
    gradient of the imported loop)."""
    with graph.as_default():
        tf.identity(tf.gradients(graph.get_tensor_by_name("loss:0"),
                                 tf.trainable_variables())[0], name="grad")


def measure(tf: Any, graph: Any, iterations: int, repeats: int) -> Dict[str, float]:
    feed_seq = np.random.RandomState(0).rand(8, 32, 16).astype(np.float32)
    with tf.Session(graph=graph) as sess:
        sess.run("init")
        out = {name: _per_iteration(lambda k: sess.run(f"{name}:0", {"n:0": k}), iterations,
                                    repeats) for name in ("scalar", "vector")}
        sess.run("loss:0", {"seq:0": feed_seq})
        out["lstm forward ms"] = _best(lambda: sess.run("loss:0", {"seq:0": feed_seq}),
                                       repeats) * 1e3
        sess.run("grad:0", {"seq:0": feed_seq})
        out["lstm gradient ms"] = _best(lambda: sess.run("grad:0", {"seq:0": feed_seq}),
                                        repeats) * 1e3
    return out


def main(argv: list) -> int:
    iterations, repeats = 1000, 5
    if "--tf" in argv:
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
        graph = tf.Graph()
        with graph.as_default():
            tf.train.import_meta_graph(META)
        add_gradient(tf, graph)
        results = {f"TensorFlow {tf.__version__} (imported file)":
                   measure(tf, graph, iterations, repeats)}
    else:
        import tf1compat as tf
        built = tf.Graph()
        with built.as_default():
            build(tf)
            tf.train.export_meta_graph(META)
        imported = tf.Graph()
        with imported.as_default():
            tf.train.import_meta_graph(META)
        for graph in (built, imported):
            add_gradient(tf, graph)
        results = {"tf1compat, tf.while_loop regions": measure(tf, built, iterations,
                                                               repeats),
                   "tf1compat, imported file (dataflow)": measure(tf, imported, iterations,
                                                                  repeats)}
    for label, values in results.items():
        print(label)
        for key, value in values.items():
            unit = "" if "ms" in key else " µs/iteration"
            print(f"  {key:20s} {value:9.2f}{unit}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
