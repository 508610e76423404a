"""Benchmark: canned Estimators trained from in-memory data, tf1compat vs real TF 2.15.

    python scripts/bench_estimator.py [--steps N] [--rounds R] [--batch B] [--load L]
                                      [--variants dnn-numpy,linear-numpy,dnn-dataset]
                                      [--baseline OTHER_CHECKOUT] [--settle S]

The same TF1 program runs in two fresh interpreters, one importing tf1compat and one importing
`tensorflow.compat.v1` from the TF 2.15 venv (`/tmp/tf215/bin/python`, or $TF215_PYTHON;
skipped when it does not exist), over 20 numeric feature columns (4096 rows, 3 classes),
default RunConfig (checkpoint at start and end, summaries every 100 steps, step-counter
logging) in a fresh model_dir, `estimator.train(steps=N)`. Three variants show where the
time goes:
  * `dnn-numpy` (the issue's benchmark): `DNNClassifier(hidden_units=[64, 64])` fed by
    `tf.estimator.inputs.numpy_input_fn` (batch 128, shuffled, endless: TF's feeding queue,
    a feeder thread running enqueue_many, RandomShuffleQueue, DequeueMany);
  * `linear-numpy`: `LinearClassifier` on the same input (little model, so mostly the input
    pipeline, the 20 columns' ops and the hooks);
  * `dnn-dataset`: the DNN with an input_fn returning a `tf.data.Dataset`
    (from_tensor_slices -> shuffle(1000) -> repeat -> batch), no queue and no feeder thread.
Each runs under two session configurations: the default, and
`intra_op_parallelism_threads=1, inter_op_parallelism_threads=1` in
`RunConfig(session_config=...)` (the same TF1 program setting on both sides). (tf1compat
chooses OpenMP's wait policy and a thread count that follows the load itself,
docs/performance.md "Thread advice".)

Reported per side, each the best of R rounds (the sides alternate round by round; the
machine is shared, the best round is the least disturbed one):
  * steady steps/s: measured by a SessionRunHook between step 50 and the last step, i.e. the
    per-step cost of the training loop (input pipeline, Session.run, hooks, summaries);
  * steps per CPU-second of the process over the same steps (all its threads, spinning
    ones included), which other processes on the machine disturb less;
  * train() wall time: the whole call, graph construction, session creation, checkpoints.
The ratios are tf1compat / TF on steps/s and on steps per CPU-second (> 1 means tf1compat
is faster). `--settle S` measures the steady state of a long training run instead: the
clock starts once tf1compat's hot plans have settled (compiled or not, within S seconds;
TF's side after its warm-up steps) and runs for the same number of steps. `--load L` runs
L busy-loop processes beside the measurement (a machine whose
cores are busy). The load averages (1, 5, 15 minutes) are printed beside the numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional, Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
TF215_PYTHON = os.environ.get("TF215_PYTHON", "/tmp/tf215/bin/python")
N_FEATURES, N_CLASSES, N_ROWS, WARMUP = 20, 3, 4096, 50
VARIANTS = ("dnn-numpy", "linear-numpy", "dnn-dataset")


def _worker(backend: str, variant: str, steps: int, batch: int,
            threads: int, root: str = ROOT, settle: float = 0.0) -> Dict[str, float]:
    """One training run of `variant` in this interpreter; returns its timings."""
    import numpy as np
    if backend == "tensorflow":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
    else:
        sys.path.insert(0, root)
        import tf1compat as tf
    tf.logging.set_verbosity(tf.logging.ERROR)
    model, source = variant.split("-")

    rng = np.random.RandomState(0)
    x = {f"f{i}": rng.randn(N_ROWS).astype(np.float32) for i in range(N_FEATURES)}
    y = rng.randint(0, N_CLASSES, size=N_ROWS).astype(np.int64)
    columns = [tf.feature_column.numeric_column(f"f{i}") for i in range(N_FEATURES)]

    class Clock(tf.train.SessionRunHook):
        """Times the steps after the warm-up (with `settle`: after the hot plans settled,
        then stops the training once `steps - WARMUP` steps were timed)."""

        def __init__(self) -> None:
            self.step = 0
            self.first = 0                  # the step the clock started after
            self.start: Optional[float] = None
            self.last: Optional[float] = None
            self.cpu_start = self.cpu_last = 0.0
            self.session: Any = None
            self.began = time.monotonic()
            self.plans = ""

        def after_create_session(self, session: Any, coord: Any) -> None:
            self.session = session

        def _settled(self) -> bool:
            if not settle or backend == "tensorflow":
                return True
            plans = getattr(self.session, "_plans", {}).values()
            return time.monotonic() - self.began > settle or not any(
                p.hot is not None and
                p.hot.status in ("counting", "compiling", "trial", "retrial") for p in plans)

        def after_run(self, run_context: Any, run_values: Any) -> None:
            self.step += 1
            if self.start is None and self.step >= WARMUP and self._settled():
                self.first = self.step
                self.plans = _plan_states(self.session)
                self.start, self.cpu_start = time.perf_counter(), time.process_time()
            if self.start is not None:
                self.last, self.cpu_last = time.perf_counter(), time.process_time()
                if settle and self.step - self.first >= steps - WARMUP:
                    run_context.request_stop()

    session_config = None
    if threads:
        session_config = tf.ConfigProto(intra_op_parallelism_threads=threads,
                                        inter_op_parallelism_threads=threads)
    if source == "numpy":
        input_fn = tf.estimator.inputs.numpy_input_fn(
            x, y, batch_size=batch, num_epochs=None, shuffle=True)
    else:
        def input_fn() -> Any:
            data = tf.data.Dataset.from_tensor_slices((x, y))
            return data.shuffle(1000, seed=1).repeat().batch(batch)
    with tempfile.TemporaryDirectory() as model_dir:
        config = tf.estimator.RunConfig(tf_random_seed=1, session_config=session_config)
        if model == "dnn":
            estimator = tf.estimator.DNNClassifier(
                hidden_units=[64, 64], feature_columns=columns, n_classes=N_CLASSES,
                model_dir=model_dir, config=config)
        else:
            estimator = tf.estimator.LinearClassifier(
                feature_columns=columns, n_classes=N_CLASSES, model_dir=model_dir,
                config=config)
        clock = Clock()
        began = time.perf_counter()
        estimator.train(input_fn, steps=10 ** 9 if settle else steps, hooks=[clock])
        wall = time.perf_counter() - began
    assert clock.start is not None and clock.last is not None
    timed = clock.step - clock.first
    assert timed == steps - WARMUP, (timed, steps)
    return {"steps_per_s": timed / (clock.last - clock.start),
            "steps_per_cpu_s": timed / (clock.cpu_last - clock.cpu_start),
            "train_wall_s": wall, "plans": clock.plans}


def _plan_states(session: Any) -> str:
    """The hot-plan states of the session's plans when the clock starts (e.g. `compiled x1,
    op_by_op x3`), so a reading says whether the training step it timed was compiled; a
    fallback's reason is shown, since `--settle` counts a fallback as settled."""
    states: Dict[str, int] = {}
    for plan in getattr(session, "_plans", {}).values():
        hot = getattr(plan, "hot", None)
        if hot is None:
            continue
        state = hot.status
        if hot.status == "fallback" and hot.reason:
            state += f" ({hot.reason[:80]})"
        states[state] = states.get(state, 0) + 1
    return ", ".join(f"{k} x{v}" for k, v in sorted(states.items()))


def _run(python: str, backend: str, variant: str, steps: int, batch: int,
         threads: int, root: str = ROOT, settle: float = 0.0) -> Dict[str, float]:
    proc = subprocess.run([python, os.path.abspath(__file__), "--worker", backend,
                           "--variants", variant, "--steps", str(steps),
                           "--batch", str(batch), "--threads", str(threads),
                           "--root", root, "--settle", str(settle)],
                          capture_output=True, text=True, cwd=ROOT)
    if proc.returncode:
        tail = proc.stderr.strip().splitlines()[-3:]
        raise RuntimeError(f"{backend} worker failed: {' | '.join(tail)}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _load() -> str:
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg()) + f" on {os.cpu_count()} CPUs"
    except OSError:
        return "unknown"


def _bench_config(variant: str, steps: int, rounds: int, batch: int, threads: int,
                  have_tf: bool, baseline: Optional[str] = None,
                  settle: float = 0.0) -> Dict[str, Any]:
    """Best-of-`rounds` rates of both sides (and of a `baseline` tf1compat checkout) for
    one variant and session config, the sides alternating."""
    best: Dict[str, Dict[str, float]] = {}
    for _ in range(rounds):
        sides = [("tf1compat", "tf1compat", sys.executable, ROOT)]
        if baseline:
            sides.append(("baseline", "tf1compat", sys.executable, baseline))
        if have_tf:
            sides.append(("tensorflow", "tensorflow", TF215_PYTHON, ROOT))
        for side, backend, python, root in sides:
            result = _run(python, backend, variant, steps, batch, threads, root, settle)
            prev = best.get(side)
            best[side] = {
                key: (min if key == "train_wall_s" else max)(value, prev[key])
                if prev and key != "plans" else value for key, value in result.items()}
    ours = best["tf1compat"]
    label = "1 thread" if threads else "default threads"
    line = (f"estimator {variant:12s} ({label:15s}) tf1compat {ours['steps_per_s']:6.1f} "
            f"steps/s, {ours['steps_per_cpu_s']:6.1f}/cpu-s (train() "
            f"{ours['train_wall_s']:5.2f} s)")
    if ours.get("plans"):
        line += f" [plans: {ours['plans']}]"
    out: Dict[str, Any] = {"tf1compat": ours}
    if have_tf:
        theirs = best["tensorflow"]
        ratio = ours["steps_per_s"] / theirs["steps_per_s"]
        cpu_ratio = ours["steps_per_cpu_s"] / theirs["steps_per_cpu_s"]
        line += (f" | TF 2.15 {theirs['steps_per_s']:6.1f} steps/s, "
                 f"{theirs['steps_per_cpu_s']:6.1f}/cpu-s (train() "
                 f"{theirs['train_wall_s']:5.2f} s) | ratio {ratio:5.2f}x, cpu {cpu_ratio:5.2f}x")
        out.update(tensorflow=theirs, ratio=ratio, cpu_ratio=cpu_ratio)
    else:
        line += f" | TF 2.15 skipped ({TF215_PYTHON} not found)"
    if baseline:
        base = best["baseline"]
        line += (f" | baseline {base['steps_per_s']:6.1f} steps/s, "
                 f"{base['steps_per_cpu_s']:6.1f}/cpu-s: this checkout "
                 f"{ours['steps_per_s'] / base['steps_per_s']:5.2f}x, cpu "
                 f"{ours['steps_per_cpu_s'] / base['steps_per_cpu_s']:5.2f}x")
        out["baseline"] = base
    print(line + f" | load {_load()}", flush=True)
    return out


def bench_estimator(steps: int = 300, rounds: int = 2, batch: int = 128, load: int = 0,
                    variants: Sequence[str] = VARIANTS,
                    baseline: Optional[str] = None, settle: float = 0.0) -> Dict[str, Any]:
    """Every variant under the default session config and one thread; a dict per
    (variant, config), with `load` busy-loop processes running beside it."""
    from bench_vs_tf import _busy_loops
    have_tf = os.path.exists(TF215_PYTHON)
    loops = _busy_loops(load, 24 * 3600) if load else []
    try:
        return {f"{variant}/{label}": _bench_config(variant, steps, rounds, batch, threads,
                                                    have_tf, baseline, settle)
                for variant in variants
                for label, threads in (("default_threads", 0), ("one_thread", 1))}
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", choices=("tf1compat", "tensorflow"))
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--load", type=int, default=0,
                        help="busy-loop processes to run beside the benchmark")
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help=f"comma-separated, of {', '.join(VARIANTS)}")
    parser.add_argument("--threads", type=int, default=0,
                        help="worker only: intra/inter-op threads (0: the default config)")
    parser.add_argument("--root", default=ROOT, help="worker only: the checkout to import")
    parser.add_argument("--settle", type=float, default=0.0,
                        help="seconds tf1compat's hot plans may take to settle before the "
                             "clock starts (0: the clock starts after the warm-up steps)")
    parser.add_argument("--baseline", default=None,
                        help="another tf1compat checkout (a directory) measured alongside, "
                             "e.g. `git worktree add /tmp/base main`")
    args = parser.parse_args(argv)
    variants = args.variants.split(",")
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variants {unknown}; choose from {', '.join(VARIANTS)}")
    if args.worker:
        print(json.dumps(_worker(args.worker, variants[0], args.steps, args.batch,
                                 args.threads, args.root, args.settle)))
        return 0
    bench_estimator(args.steps, args.rounds, args.batch, args.load, variants, args.baseline,
                    args.settle)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
