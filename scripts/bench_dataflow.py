"""Benchmark: imported TF1 control flow on the dataflow executor, against the same loops
built by tf1compat's tf.while_loop (one While op running compiled regions) and real TF.

    .venv/bin/python scripts/bench_dataflow.py            # tf1compat, both forms
    /tmp/tf/bin/python scripts/bench_dataflow.py --tf     # real TF importing the same file

The graphs are built by tf1compat, written with `tf.train.export_meta_graph` (TF1's
Switch/Merge/Enter/... form) and imported again, so the "dataflow" figures run exactly the
file TF runs. Figures are µs per loop iteration ((time of n iterations - time of 0) / n,
best of `repeats`) for a scalar counter loop and a 4-vector loop, and ms per Session.run
of a 32-step LSTM dynamic_rnn (batch 8, 32 units) forward and forward+backward.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from typing import Any, Callable, Dict

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
META = os.path.join(tempfile.gettempdir(), "tf1compat_bench_dataflow.meta")


def _best(fn: Callable[[], Any], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _per_iteration(run: Callable[[int], Any], iterations: int, repeats: int) -> float:
    run(10)
    full = _best(lambda: run(iterations), repeats)
    empty = _best(lambda: run(0), repeats)
    return max(full - empty, 0.0) / iterations * 1e6


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
    loss = tf.reduce_sum(state.h * state.h, name="loss")
    tf.identity(tf.gradients(loss, tf.trainable_variables())[0], name="grad")
    tf.global_variables_initializer()


def measure(tf: Any, graph: Any, iterations: int, repeats: int,
            with_grad: bool) -> Dict[str, float]:
    feed_seq = np.random.RandomState(0).rand(8, 32, 16).astype(np.float32)
    with tf.Session(graph=graph) as sess:
        sess.run("init")
        out = {name: _per_iteration(lambda k: sess.run(f"{name}:0", {"n:0": k}), iterations,
                                    repeats) for name in ("scalar", "vector")}
        sess.run("loss:0", {"seq:0": feed_seq})
        out["lstm forward ms"] = _best(lambda: sess.run("loss:0", {"seq:0": feed_seq}),
                                       repeats) * 1e3
        if with_grad:
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
            # TF differentiates the imported loop itself (the file's gradient op is
            # tf1compat's); the figure is TF's gradient of the same loss.
            tf.identity(tf.gradients(graph.get_tensor_by_name("loss:0"),
                                     tf.trainable_variables())[0], name="tf_grad")
        result = measure(tf, graph, iterations, repeats, with_grad=False)
        with tf.Session(graph=graph) as sess:
            sess.run("init")
            feed = {"seq:0": np.random.RandomState(0).rand(8, 32, 16).astype(np.float32)}
            sess.run("tf_grad:0", feed)
            result["lstm gradient ms"] = _best(lambda: sess.run("tf_grad:0", feed),
                                               repeats) * 1e3
        results = {"TensorFlow " + tf.__version__ + " (imported file)": result}
    else:
        import tf1compat as tf
        built = tf.Graph()
        with built.as_default():
            build(tf)
            tf.train.export_meta_graph(META)
        imported = tf.Graph()
        with imported.as_default():
            tf.train.import_meta_graph(META)
        results = {"tf1compat, tf.while_loop regions": measure(tf, built, iterations,
                                                               repeats, True),
                   "tf1compat, imported file (dataflow)": measure(tf, imported, iterations,
                                                                  repeats, True)}
    for label, values in results.items():
        print(label)
        for key, value in values.items():
            unit = "" if "ms" in key else " µs/iteration"
            print(f"  {key:20s} {value:9.2f}{unit}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
