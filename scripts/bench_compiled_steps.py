"""Compiled hot plans against the same plans op by op, in one process, interleaved.

    python scripts/bench_compiled_steps.py                 # mlp grad100 cnn chain500
    python scripts/bench_compiled_steps.py mlp --rounds 20
    python scripts/bench_compiled_steps.py mlp --device cuda

Each workload of scripts/bench_vs_tf.py is built under tf1compat with the hot-plan
settings that compile at once (TF1COMPAT_COMPILE_AFTER=3, compile in the calling thread);
once its busiest plan has a compiled function (status trial), rounds of op-by-op runs
and compiled runs alternate (so load on a shared machine hits both alike) and the best
and median round of each are printed with the compile time. Nothing here times TF: for
that, `scripts/bench_vs_tf.py` with TF1COMPAT_COMPILE=off and on.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bench(workload: str, rounds: int, device: str) -> str:
    import numpy as np
    import tf1compat as tf
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from bench_vs_tf import WORKLOADS, hot_records, recorded_sessions
    with recorded_sessions(tf) as sessions:
        with tf.Graph().as_default(), tf.device("/gpu:0" if device == "cuda" else "/cpu:0"):
            tf.set_random_seed(0)
            step, per_batch, unit = WORKLOADS[workload](tf, np)
            step()
            plans = [p for s in sessions for p in s._plans.values()
                     if p.hot is not None and p.hot.status == "counting"]
            if not plans:
                reasons = {r.reason for r in hot_records(sessions)}
                return f"{workload:10s} not compiled: {'; '.join(sorted(reasons))[:150]}"
            plan = plans[-1]
            hot = plan.fn
            for _ in range(5):
                step()
            if plan.hot.status != "trial":
                return f"{workload:10s} {plan.hot.status}: {plan.hot.reason}"
            times = {"op by op": [], "compiled": []}
            for _ in range(rounds):
                for kind, fn in (("op by op", hot.eager), ("compiled", hot._steady)):
                    plan.fn = fn
                    start = time.perf_counter()
                    for _ in range(per_batch):
                        step()
                    times[kind].append((time.perf_counter() - start) / per_batch * 1e6)
    eager, compiled = times["op by op"], times["compiled"]
    return (f"{workload:10s} op by op {min(eager):9.0f} us (median {statistics.median(eager):9.0f})"
            f"  compiled {min(compiled):9.0f} us (median {statistics.median(compiled):9.0f})"
            f"  ratio {min(eager) / min(compiled):5.2f}x  compile {plan.hot.compile_seconds:.0f} s"
            f"  per {unit}")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workloads", nargs="*", default=["mlp", "grad100", "cnn", "chain500"])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args(argv)
    os.environ.setdefault("TF1COMPAT_COMPILE_AFTER", "3")
    os.environ["TF1COMPAT_COMPILE_BACKGROUND"] = "0"
    for workload in args.workloads:
        print(bench(workload, args.rounds, args.device), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
