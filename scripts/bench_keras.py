"""Benchmark: examples/s of Keras `model.fit` in TF1 graph mode, tf1compat against real
tf-keras (its v1 training loop under `disable_v2_behavior`), side by side.

    python scripts/bench_keras.py                   # tf1compat, and tf-keras when /tmp/tf exists
    python scripts/bench_keras.py --threads 1       # tf1compat with one torch thread
    /tmp/tf/bin/python scripts/bench_keras.py --tf   # only real tf-keras's figure

The model is a 784-512-512-10 ReLU MLP with a softmax output, sparse categorical
cross-entropy and Adam, fitted with batch 128 on 12,800 random MNIST-sized examples
(100 steps an epoch), verbose=0, no shuffling. One warm-up epoch builds the training
function; the figure is the best of `repeats` timed epochs. The tf-keras side runs in a
subprocess with the TF venv (`TF_PYTHON`, default /tmp/tf/bin/python); the machine's load
average is printed with the figures, since other work on a shared machine skews both.
On an oversubscribed machine torch's OpenMP threads spin at barriers waiting for
descheduled siblings, which can cost an order of magnitude; `--threads 1` or
`OMP_WAIT_POLICY=PASSIVE` in the environment show the figure without that effect.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any, Dict, Optional

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

N_EXAMPLES, BATCH, REPEATS = 12800, 128, 3
TF_PYTHON = os.environ.get("TF_PYTHON", "/tmp/tf/bin/python")


def fit_examples_per_second(tf: Any, repeats: int = REPEATS) -> float:
    """Best examples/s over `repeats` one-epoch fits (after a warm-up epoch)."""
    rng = np.random.RandomState(0)
    x = rng.rand(N_EXAMPLES, 784).astype(np.float32)
    y = rng.randint(0, 10, N_EXAMPLES).astype(np.int64)
    layers = tf.keras.layers
    model = tf.keras.Sequential([layers.Dense(512, activation="relu", input_shape=(784,)),
                                 layers.Dense(512, activation="relu"),
                                 layers.Dense(10, activation="softmax")])
    model.compile(tf.keras.optimizers.Adam(0.001), "sparse_categorical_crossentropy")
    model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)
        best = min(best, time.perf_counter() - start)
    return N_EXAMPLES / best


def _tf_keras_figure() -> Optional[float]:
    """Real tf-keras's examples/s, measured in a subprocess with the TF venv."""
    if not os.path.exists(TF_PYTHON):
        return None
    proc = subprocess.run([TF_PYTHON, os.path.abspath(__file__), "--tf"],
                          capture_output=True, text=True)
    if proc.returncode:
        print(f"tf-keras side failed: {proc.stderr.strip().splitlines()[-1:]}")
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])["examples_per_s"]


def bench_keras(threads: Optional[int] = None) -> Dict[str, float]:
    """tf1compat's and tf-keras's fit throughput and their ratio (target >= 1.0x)."""
    import torch
    import tf1compat as tf
    if threads:
        torch.set_num_threads(threads)
    load_before = os.getloadavg()[0]
    ours = fit_examples_per_second(tf)
    theirs = _tf_keras_figure()
    result = {"tf1compat_examples_per_s": ours, "load_avg_1min": load_before}
    line = (f"keras fit 784-512-512-10 Adam b128   tf1compat ({torch.get_num_threads()} "
            f"threads) {ours:9.0f} ex/s")
    if theirs:
        result.update(tf_keras_examples_per_s=theirs, ratio=ours / theirs)
        line += f"   tf-keras {theirs:9.0f} ex/s   ratio {ours / theirs:5.2f}x"
    print(f"{line}   (target >= 1.0x; load {load_before:.2f})")
    return result


def _tf_main() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ["TF_USE_LEGACY_KERAS"] = "1"
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    print(json.dumps({"examples_per_s": fit_examples_per_second(tf)}))


if __name__ == "__main__":
    if "--tf" in sys.argv:
        _tf_main()
    else:
        count = sys.argv[sys.argv.index("--threads") + 1] if "--threads" in sys.argv else None
        bench_keras(int(count) if count else None)
