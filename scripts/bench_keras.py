"""Benchmark: examples/s of Keras `model.fit` in TF1 graph mode, tf1compat against real
tf-keras (its v1 training loop under `disable_v2_behavior`), side by side.

    python scripts/bench_keras.py                   # tf1compat, and tf-keras when /tmp/tf exists
    python scripts/bench_keras.py --rounds 5        # more alternating rounds
    python scripts/bench_keras.py --load 2          # with 2 busy-loop processes beside it
    python scripts/bench_keras.py --threads 1       # tf1compat with one torch thread
    /tmp/tf/bin/python scripts/bench_keras.py --tf   # real tf-keras alone (a line per "go")

The model is a 784-512-512-10 ReLU MLP with a softmax output, sparse categorical
cross-entropy and Adam, fitted with batch 128 on 12,800 random MNIST-sized examples
(100 steps an epoch), verbose=0, no shuffling. One warm-up epoch builds the training
function. The tf-keras side is a child process with the TF venv (`TF_PYTHON`, default
/tmp/tf/bin/python) that keeps its model: the two sides alternate, round after round (each
round the best of `repeats` one-epoch fits), so drift in a shared machine's load hits both;
the figures are the best round of each. The machine's load average is printed with them.
tf1compat is imported before torch, as a TF1 script does, so its thread policy applies
(docs/performance.md); `--threads N` fixes torch's thread count instead (as
`TF1COMPAT_THREADS=N` would, so no session or thread tuner changes it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List, Optional

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

N_EXAMPLES, BATCH, REPEATS, ROUNDS = 12800, 128, 3, 3
TF_PYTHON = os.environ.get("TF_PYTHON", "/tmp/tf/bin/python")


def fit_timer(tf: Any) -> Callable[[int], float]:
    """Builds and compiles the benchmark model, fits one warm-up epoch, and returns a
    function giving the best examples/s over n one-epoch fits."""
    rng = np.random.RandomState(0)
    x = rng.rand(N_EXAMPLES, 784).astype(np.float32)
    y = rng.randint(0, 10, N_EXAMPLES).astype(np.int64)
    layers = tf.keras.layers
    model = tf.keras.Sequential([layers.Dense(512, activation="relu", input_shape=(784,)),
                                 layers.Dense(512, activation="relu"),
                                 layers.Dense(10, activation="softmax")])
    model.compile(tf.keras.optimizers.Adam(0.001), "sparse_categorical_crossentropy")
    model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)

    def best_of(n: int) -> float:
        best = float("inf")
        for _ in range(n):
            start = time.perf_counter()
            model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)
            best = min(best, time.perf_counter() - start)
        return N_EXAMPLES / best
    return best_of


def fit_examples_per_second(tf: Any, repeats: int = REPEATS) -> float:
    """Best examples/s over `repeats` one-epoch fits (after a warm-up epoch)."""
    return fit_timer(tf)(repeats)


class _TfKerasChild:
    """Real tf-keras in a child process with the TF venv, measuring on request."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([TF_PYTHON, os.path.abspath(__file__), "--tf"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)

    def wait_ready(self) -> bool:
        """Waits until the child has imported TF and fitted its warm-up epoch, so that
        none of that runs beside tf1compat's measurements (the thread tuner's
        among them)."""
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            tail = (self.proc.stderr.read() if self.proc.stderr else "").strip()
            print(f"tf-keras side failed: {tail.splitlines()[-1:]}")
            return False
        return json.loads(line).get("ready", False)

    def measure(self, repeats: int) -> Optional[float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(f"{repeats}\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass
        line = self.proc.stdout.readline()
        if not line:
            tail = (self.proc.stderr.read() if self.proc.stderr else "").strip()
            print(f"tf-keras side failed: {tail.splitlines()[-1:]}")
            return None
        return json.loads(line)["examples_per_s"]

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _busy_loops(n: int) -> List[subprocess.Popen]:
    code = "while True: pass\n"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(n)]


def bench_keras(threads: Optional[int] = None, rounds: int = ROUNDS, load: int = 0,
                repeats: int = REPEATS) -> Dict[str, float]:
    """tf1compat's and tf-keras's fit throughput and their ratio (target >= 1.0x)."""
    if threads:
        # Through the policy's own setting: a count set with torch.set_num_threads that
        # equals the automatic one is indistinguishable from it, and the thread tuner
        # would then choose again for every heavy plan.
        os.environ["TF1COMPAT_THREADS"] = str(threads)
    import tf1compat as tf      # before torch: the thread policy is decided on import
    import torch
    loops = _busy_loops(load)
    try:
        child = _TfKerasChild() if os.path.exists(TF_PYTHON) else None
        if child and not child.wait_ready():
            child = None
        load_before = os.getloadavg()[0]
        ours_timer = fit_timer(tf)
        ours: List[float] = []
        theirs: List[float] = []
        for _ in range(rounds):
            ours.append(ours_timer(repeats))
            figure = child.measure(repeats) if child else None
            if figure:
                theirs.append(figure)
            elif child:
                child = None
        if child:
            child.close()
        load_after = os.getloadavg()[0]
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    best = max(ours)
    result = {"tf1compat_examples_per_s": best, "load_avg_1min": load_before,
              "load_avg_1min_after": load_after, "busy_loops": float(load)}
    line = (f"keras fit 784-512-512-10 Adam b128   tf1compat ({torch.get_num_threads()} "
            f"threads) {best:9.0f} ex/s")
    if theirs:
        result.update(tf_keras_examples_per_s=max(theirs), ratio=best / max(theirs))
        line += f"   tf-keras {max(theirs):9.0f} ex/s   ratio {best / max(theirs):5.2f}x"
        rows = ", ".join(f"{a / b:.2f}" for a, b in zip(ours, theirs))
        line += f"   (per round: {rows})"
    print(f"{line}   (target >= 1.0x; {rounds} alternating rounds; {load} busy loops; "
          f"load {load_before:.2f} -> {load_after:.2f})")
    print(f"  tf1compat threads: {tf1compat_threads_reason()}")
    return result


def tf1compat_threads_reason() -> str:
    """Why tf1compat ran on the thread count it ended on (the policy's record)."""
    from tf1compat import _thread_policy
    return _thread_policy.describe()["threads_reason"]


def _tf_main() -> None:
    """The tf-keras child: one measurement (a JSON line) per requested repeat count."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ["TF_USE_LEGACY_KERAS"] = "1"
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    best_of = fit_timer(tf)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        figure = best_of(int(line))
        print(json.dumps({"examples_per_s": figure}), flush=True)


if __name__ == "__main__":
    if "--tf" in sys.argv:
        _tf_main()
    else:
        parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
        parser.add_argument("--threads", type=int, default=None)
        parser.add_argument("--rounds", type=int, default=ROUNDS)
        parser.add_argument("--repeats", type=int, default=REPEATS)
        parser.add_argument("--load", type=int, default=0,
                            help="busy-loop processes to run beside the benchmark")
        args = parser.parse_args()
        bench_keras(args.threads, args.rounds, args.load, args.repeats)
