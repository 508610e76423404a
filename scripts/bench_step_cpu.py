"""CPU time per training step at one thread: tf1compat with the gradient op in the
compiled graph (merged), with the forward segment alone compiled (forward), op by op
(TF1COMPAT_COMPILE=off), and TF.

    python scripts/bench_step_cpu.py                   # mlp, 3 rounds
    python scripts/bench_step_cpu.py mlp autoencoder --rounds 5 --steps 300

Each measurement is a fresh child process (tf1compat with TF1COMPAT_THREADS=1, compiling
in the calling thread after 3 runs; TF with intra/inter-op threads 1) that builds a
workload of scripts/bench_vs_tf.py, lets its hot plans settle (the trial's verdict is
forced to keep the compiled step: a trial on a loaded machine decides by noise, and
here each kind's compiled form is what is timed), then times `--steps`
steps by `time.process_time`: CPU time, which other processes on a shared machine do
not inflate as they do wall time. The kinds alternate round after round; each figure is
the median over rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any, Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = ("merged", "forward", "opbyop", "tf")


def child(kind: str, workload: str, steps: int) -> Dict[str, Any]:
    import numpy as np
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from bench_vs_tf import WORKLOADS
    if kind == "tf":
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
        config = tf.ConfigProto(intra_op_parallelism_threads=1,
                                inter_op_parallelism_threads=1)
        original = tf.Session
        tf.Session = lambda *a, **k: original(*a, config=config, **k)
    else:
        sys.path.insert(0, ROOT)
        import tf1compat as tf
        from tf1compat.runtime import compiled_steps, hot_plans
        hot_plans._MARGIN = float("inf")
        if kind == "forward":
            split = compiled_steps.split
            compiled_steps.split = lambda plan, merge=True: split(plan, merge=False)
        sessions: List[Any] = []
        original = tf.Session

        def recording(*args: Any, **kwargs: Any) -> Any:
            sess = original(*args, **kwargs)
            sessions.append(sess)
            return sess
        tf.Session = recording
    with tf.Graph().as_default():
        tf.set_random_seed(0)
        step, _, _ = WORKLOADS[workload](tf, np)
        hot: List[Any] = []
        for _ in range(3):
            step()
        if kind != "tf":
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline:
                records = [p.hot for s in sessions for p in s._plans.values() if p.hot]
                if not any(r.status in ("counting", "compiling", "trial") for r in records):
                    break
                step()
            hot = [(r.status, r.reason) for s in sessions for p in s._plans.values()
                   if (r := p.hot) is not None and r.runs > 1]
        for _ in range(20):
            step()
        start = time.process_time()
        for _ in range(steps):
            step()
        seconds = (time.process_time() - start) / steps
    return {"ms": seconds * 1e3, "hot": hot}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workloads", nargs="*", default=["mlp"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--tf-python", default="/tmp/tf/bin/python")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], args.child[1], args.steps)))
        return 0
    env = {**os.environ, "TF1COMPAT_THREADS": "1", "TF1COMPAT_COMPILE_AFTER": "3",
           "TF1COMPAT_COMPILE_BACKGROUND": "0", "OMP_NUM_THREADS": "1",
           "TF_USE_LEGACY_KERAS": "1", "TF_CPP_MIN_LOG_LEVEL": "3"}
    for workload in args.workloads:
        times: Dict[str, List[float]] = {k: [] for k in KINDS}
        for _ in range(args.rounds):
            for kind in KINDS:
                python = args.tf_python if kind == "tf" else sys.executable
                if not os.path.exists(python):
                    continue
                out = subprocess.run([python, os.path.abspath(__file__), "--child", kind,
                                      workload, "--steps", str(args.steps)],
                                     env={**env, "TF1COMPAT_COMPILE": "off"}
                                     if kind == "opbyop" else env,
                                     capture_output=True, text=True, check=True)
                got = json.loads(out.stdout.strip().splitlines()[-1])
                times[kind].append(got["ms"])
                if got["hot"]:
                    print(f"  {workload} {kind}: {got['hot']}", file=sys.stderr)
        row = {k: statistics.median(v) for k, v in times.items() if v}
        text = "  ".join(f"{k} {v:.3f} ms" for k, v in row.items())
        print(f"{workload:12s} CPU per step: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
