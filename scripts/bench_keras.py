"""Benchmark: examples/s of Keras `model.fit` in TF1 graph mode, tf1compat against real
tf-keras (its v1 training loop under `disable_v2_behavior`), side by side.

    python scripts/bench_keras.py                   # tf1compat, and tf-keras when /tmp/tf exists
    python scripts/bench_keras.py --rounds 5        # more alternating rounds
    python scripts/bench_keras.py --load 2          # with 2 busy-loop processes beside it
    python scripts/bench_keras.py --threads 1       # tf1compat with one torch thread
    /tmp/tf/bin/python scripts/bench_keras.py --tf   # real tf-keras alone (a line per "go")
    python scripts/bench_keras.py --variant one=TF1COMPAT_THREADS=1 \
        --variant two=TF1COMPAT_THREADS=2 --variant main=TF1COMPAT_ROOT=/path/to/main
                                                    # variants, each in a child process

The model is a 784-512-512-10 ReLU MLP with a softmax output, sparse categorical
cross-entropy and Adam, fitted with batch 128 on 12,800 random MNIST-sized examples
(100 steps an epoch), verbose=0, no shuffling. The warm-up builds the training function:
one epoch, then tf1compat's background compile waited for and one more epoch (its
trial), so the rounds measure the steady state; its CPU is printed per side
(`--no-settle`: one epoch, the compile running into the rounds). The tf-keras side is a
child process with the TF venv (`TF_PYTHON`, default
/tmp/tf/bin/python) that keeps its model: the two sides alternate, round after round (each
round the best of `repeats` one-epoch fits), so drift in a shared machine's load hits both;
the figures are the best round of each. The machine's load average is printed with them.
Beside examples per wall-clock second, each side reports examples per CPU-second of its
whole process (`time.process_time`, every thread: tf-keras's pools, tf1compat's
background compile), the best epoch of each round: on a loaded machine the wall-clock
rounds swing with the other processes, the CPU cost per example much less.
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
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A variant's child may run another checkout's tf1compat (`TF1COMPAT_ROOT=`).
_IMPORT_ROOT = os.environ.get("BENCH_TF1COMPAT_ROOT", ROOT)
if _IMPORT_ROOT not in sys.path:
    sys.path.insert(0, _IMPORT_ROOT)

N_EXAMPLES, BATCH, REPEATS, ROUNDS = 12800, 128, 3, 3
# Two warm-up epochs with tf1compat's background compile waited for between them
# (`--no-settle`: one epoch, the compile running into the rounds).
SETTLE = os.environ.get("BENCH_KERAS_SETTLE", "1") != "0"
TF_PYTHON = os.environ.get("TF_PYTHON", "/tmp/tf/bin/python")


def fit_timer(tf: Any) -> Callable[[int], float]:
    """Builds and compiles the benchmark model, fits one warm-up epoch, and returns a
    function giving the best examples/s over n one-epoch fits (and, as its
    `examples_per_cpu_s` attribute, the best examples per CPU-second of those fits)."""
    rng = np.random.RandomState(0)
    x = rng.rand(N_EXAMPLES, 784).astype(np.float32)
    y = rng.randint(0, 10, N_EXAMPLES).astype(np.int64)
    layers = tf.keras.layers
    model = tf.keras.Sequential([layers.Dense(512, activation="relu", input_shape=(784,)),
                                 layers.Dense(512, activation="relu"),
                                 layers.Dense(10, activation="softmax")])
    model.compile(tf.keras.optimizers.Adam(0.001), "sparse_categorical_crossentropy")
    start_cpu = time.process_time()
    model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)
    if SETTLE:
        # tf1compat compiles the training plan in a background thread from its 50th run
        # on: wait for it, then fit the epoch whose runs hold the compiled-vs-op-by-op
        # trial, so the rounds measure the steady state (tf-keras's graph optimisation
        # is in its first epoch too). The warm-up's CPU is reported on its own.
        if tf.__name__.startswith("tf1compat"):
            from tf1compat.runtime import hot_plans
            # (`_wait_for_compiles` in checkouts older than its public name.)
            getattr(hot_plans, "wait_for_compiles", hot_plans.__dict__.get("_wait_for_compiles"))()
        model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)
    warmup_cpu = time.process_time() - start_cpu

    def best_of(n: int) -> float:
        best = best_cpu = float("inf")
        for _ in range(n):
            start, start_cpu = time.perf_counter(), time.process_time()
            model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)
            best = min(best, time.perf_counter() - start)
            best_cpu = min(best_cpu, time.process_time() - start_cpu)
        best_of.examples_per_cpu_s = N_EXAMPLES / max(best_cpu, 1e-9)
        return N_EXAMPLES / best
    best_of.examples_per_cpu_s = 0.0
    best_of.warmup_cpu_s = warmup_cpu
    return best_of


def fit_examples_per_second(tf: Any, repeats: int = REPEATS) -> float:
    """Best examples/s over `repeats` one-epoch fits (after a warm-up epoch)."""
    return fit_timer(tf)(repeats)


class _Child:
    """One side of the benchmark in a child process, measuring on request: real tf-keras
    with the TF venv (the default), or a tf1compat variant (`--variant`)."""

    def __init__(self, python: str = TF_PYTHON, flag: str = "--tf",
                 env: Optional[Dict[str, str]] = None) -> None:
        self.proc = subprocess.Popen([python, os.path.abspath(__file__), flag],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     env=None if env is None else {**os.environ, **env})
        self.note = ""
        self.cpu = 0.0      # examples per CPU-second of the last measurement
        self.warmup_cpu = 0.0   # CPU-seconds of its warm-up (a compile's among them)

    def wait_ready(self) -> bool:
        """Waits until the child has imported TF and fitted its warm-up epoch, so that
        none of that runs beside tf1compat's measurements (the thread tuner's
        among them)."""
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            tail = (self.proc.stderr.read() if self.proc.stderr else "").strip()
            print(f"child side failed: {tail.splitlines()[-1:]}")
            return False
        reply = json.loads(line)
        self.warmup_cpu = reply.get("warmup_cpu_s", 0.0)
        return reply.get("ready", False)

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
            print(f"child side failed: {tail.splitlines()[-1:]}")
            return None
        reply = json.loads(line)
        self.note = reply.get("threads", "")
        self.cpu = reply.get("examples_per_cpu_s", 0.0)
        return reply["examples_per_s"]

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _busy_loops(n: int) -> List[subprocess.Popen]:
    code = "while True: pass\n"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(n)]


def parse_variant(text: str) -> Tuple[str, Dict[str, str]]:
    """`NAME=VAR=VALUE,VAR=VALUE` -> (NAME, env). `TF1COMPAT_ROOT=/path` runs the
    tf1compat of another checkout (first on the child's sys.path)."""
    name, _, rest = text.partition("=")
    env = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        env[key.strip()] = value.strip()
    root = env.pop("TF1COMPAT_ROOT", None)
    if root:
        env["BENCH_TF1COMPAT_ROOT"] = os.path.abspath(root)
    return name, env


def bench_variants(variants: Sequence[str], rounds: int = ROUNDS, load: int = 0,
                   repeats: int = REPEATS) -> Dict[str, float]:
    """tf1compat variants (environment settings, other checkouts), each in its own child
    process, alternating round by round with tf-keras: their examples/s and ratios."""
    loops = _busy_loops(load)
    sides: List[Tuple[str, _Child]] = []
    try:
        for text in variants:
            name, env = parse_variant(text)
            sides.append((name, _Child(sys.executable, "--tf1compat", env)))
        if os.path.exists(TF_PYTHON):
            sides.append(("tf-keras", _Child()))
        sides = [(name, child) for name, child in sides if child.wait_ready()]
        load_before = os.getloadavg()[0]
        figures: Dict[str, List[float]] = {name: [] for name, _ in sides}
        cpu: Dict[str, List[float]] = {name: [] for name, _ in sides}
        for _ in range(rounds):
            for name, child in sides:
                figure = child.measure(repeats)
                figures[name].append(figure or 0.0)
                cpu[name].append(child.cpu if figure else 0.0)
        for _, child in sides:
            child.close()
        load_after = os.getloadavg()[0]
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    theirs = figures.get("tf-keras")
    result: Dict[str, float] = {"load_avg_1min": load_before,
                                "load_avg_1min_after": load_after}
    print(f"keras fit 784-512-512-10 Adam b128: {rounds} alternating rounds, {load} busy "
          f"loops, load {load_before:.2f} -> {load_after:.2f}")
    for name, child in sides:
        best = max(figures[name])
        result[name] = best
        line = f"  {name:24s} {best:9.0f} ex/s"
        if theirs and name != "tf-keras":
            ratios = ", ".join(f"{a / b:.2f}" for a, b in zip(figures[name], theirs) if b)
            line += f"   ratio {best / max(theirs):5.2f}x (per round: {ratios})"
        if child.note:
            line += f"   [{child.note}]"
        print(line)
    for name, _ in sides:
        print("  " + _cpu_line(name, cpu[name], cpu.get("tf-keras") if name != "tf-keras"
                               else None))
        result[f"{name}_examples_per_cpu_s"] = max(cpu[name])
    print(f"  warm-up CPU ({'compile waited for' if SETTLE else 'one epoch'}): " + ", ".join(
        f"{name} {child.warmup_cpu:.2f} s" for name, child in sides))
    return result


def _cpu_line(name: str, ours: List[float], theirs: Optional[List[float]]) -> str:
    """Examples per CPU-second (best round) and, against tf-keras, the ratio per round."""
    line = f"{name:24s} {max(ours):9.0f} ex/CPU-s"
    if theirs and max(theirs):
        rows = ", ".join(f"{a / b:.2f}" for a, b in zip(ours, theirs) if b)
        line += f"   CPU ratio {max(ours) / max(theirs):5.2f}x (per round: {rows})"
    return line


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
        child = _Child() if os.path.exists(TF_PYTHON) else None
        if child and not child.wait_ready():
            child = None
        warmup_tf = child.warmup_cpu if child else None
        load_before = os.getloadavg()[0]
        ours_timer = fit_timer(tf)
        ours: List[float] = []
        theirs: List[float] = []
        ours_cpu: List[float] = []
        theirs_cpu: List[float] = []
        for _ in range(rounds):
            ours.append(ours_timer(repeats))
            ours_cpu.append(ours_timer.examples_per_cpu_s)
            figure = child.measure(repeats) if child else None
            if figure:
                theirs.append(figure)
                theirs_cpu.append(child.cpu)
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
    print("  " + _cpu_line("tf1compat", ours_cpu, theirs_cpu))
    if theirs_cpu:
        print("  " + _cpu_line("tf-keras", theirs_cpu, None))
        result.update(cpu_ratio=max(ours_cpu) / max(theirs_cpu))
    result["tf1compat_examples_per_cpu_s"] = max(ours_cpu)
    print(f"  tf1compat threads: {tf1compat_threads_reason()}")
    result["tf1compat_warmup_cpu_s"] = ours_timer.warmup_cpu_s
    print(f"  warm-up CPU ({'compile waited for' if SETTLE else 'one epoch'}): tf1compat "
          f"{ours_timer.warmup_cpu_s:.2f} s" + (f", tf-keras {warmup_tf:.2f} s"
                                                  if warmup_tf is not None else ""))
    return result


def tf1compat_threads_reason() -> str:
    """Why tf1compat ran on the thread count it ended on (the policy's record)."""
    from tf1compat import _thread_policy
    return _thread_policy.describe()["threads_reason"]


def _tf1compat_main() -> None:
    """A tf1compat variant's child: as the tf-keras child, with the thread decision."""
    import tf1compat as tf      # before torch, as a TF1 script
    best_of = fit_timer(tf)
    print(json.dumps({"ready": True, "warmup_cpu_s": best_of.warmup_cpu_s}), flush=True)
    for line in sys.stdin:
        figure = best_of(int(line))
        where = os.path.dirname(os.path.dirname(tf.__file__))
        print(json.dumps({"examples_per_s": figure,
                          "examples_per_cpu_s": best_of.examples_per_cpu_s,
                          "threads": f"{where}: {tf1compat_threads_reason()}"}), flush=True)


def _tf_main() -> None:
    """The tf-keras child: one measurement (a JSON line) per requested repeat count."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ["TF_USE_LEGACY_KERAS"] = "1"
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    best_of = fit_timer(tf)
    print(json.dumps({"ready": True, "warmup_cpu_s": best_of.warmup_cpu_s}), flush=True)
    for line in sys.stdin:
        figure = best_of(int(line))
        print(json.dumps({"examples_per_s": figure,
                          "examples_per_cpu_s": best_of.examples_per_cpu_s}), flush=True)


if __name__ == "__main__":
    if "--tf" in sys.argv:
        _tf_main()
    elif "--tf1compat" in sys.argv:
        _tf1compat_main()
    else:
        parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
        parser.add_argument("--threads", type=int, default=None)
        parser.add_argument("--rounds", type=int, default=ROUNDS)
        parser.add_argument("--repeats", type=int, default=REPEATS)
        parser.add_argument("--no-settle", action="store_true",
                            help="one warm-up epoch, tf1compat's compile not waited for")
        parser.add_argument("--load", type=int, default=0,
                            help="busy-loop processes to run beside the benchmark")
        parser.add_argument("--variant", action="append", default=[],
                            help="NAME=VAR=VALUE,...: a tf1compat variant in a child process "
                                 "(TF1COMPAT_ROOT=/path: another checkout); repeatable")
        args = parser.parse_args()
        if args.no_settle:
            os.environ["BENCH_KERAS_SETTLE"] = "0"     # the children's too
            SETTLE = False
        if args.variant:
            bench_variants(args.variant, args.rounds, args.load, args.repeats)
        else:
            bench_keras(args.threads, args.rounds, args.load, args.repeats)
