"""Where the CNN step's wall time goes at N threads (default 2), kernel by kernel, for
tf1compat (compiled and op by op), the hand-written eager torch step and TF 2.21, and
whether TF runs independent kernels at the same time.

    python scripts/bench_cnn_threads.py                       # 2 rounds, 2 threads
    python scripts/bench_cnn_threads.py --rounds 3 --threads 1 --kinds opbyop tf

Each measurement is a fresh child process building `bench_vs_tf.py`'s CNN: tf1compat with
TF1COMPAT_THREADS=N (its hot plans settled; `merged` keeps the compiled step whatever its
trial says, `opbyop` runs TF1COMPAT_COMPILE=off), the hand-written torch step
(`bench_step_cpu._torch_cnn`) at N threads, TF with intra- and inter-op pools of N
threads. A child times `--steps` steps by wall clock (median of 5 blocks), then traces
`--traced` more: TF through RunOptions(trace_level=FULL_TRACE) and the step stats of its
RunMetadata (each kernel's start and duration, per executor thread), torch through
torch.profiler (each ATen call's duration on the calling thread, conv1 and conv2 told
apart by their input shapes). The table gives each kernel class's wall milliseconds per
step, the traced step's span, the sum of the kernels' times and the time when two or
more kernels ran at once (TF's inter-op pool; torch's autograd runs one at a time). The
kinds alternate round after round; figures are medians over rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from typing import Any, Dict, List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = ("merged", "opbyop", "torch", "tf")

# (class, pattern over "op|first input shape") in order: the first match names a kernel.
# Shapes tell the layers apart: conv1 reads [32,1,28,28] (torch) / [32,28,28,1] (TF),
# conv2 [32,32,14,14] / [32,14,14,32]; their gradients read the outputs' shapes.
_CLASSES: List[Tuple[str, str]] = [
    ("conv1 filter grad", r"backpropfilter[^|]*\|32,28,28,1\b|convolution_backward\|32,32,28"),
    ("conv2 input grad", r"backpropinput"),
    ("conv2 filter grad", r"backpropfilter"),
    ("conv2 input + filter grads", r"convolution_backward\|32,64,14"),
    ("conv1 forward", r"(convolution|conv2d)[^|]*\|32,(1,28,28|28,28,1)\b"),
    ("conv2 forward", r"(convolution|conv2d)[^|]*\|32,(32,14,14|14,14,32)\b"),
    ("pools forward", r"max_?pool(2d)?(_with_indices|withargmax)?\|"),
    ("pools backward", r"max_?pool(2d_with_indices_backward|grad)"),
    ("relu grads", r"relugrad|threshold_backward"),
    ("bias grads", r"biasaddgrad|aten::sum\|32,(32|64),|aten::sum\|32,256|aten::sum\|32,10"),
    ("dense (matmul)", r"matmul|aten::(mm|addmm|linear|_onednn|bmm)"),
    ("adam", r"applyadam|adam"),
]


def _classify(key: str) -> str:
    low = key.lower()
    for name, pattern in _CLASSES:
        if re.search(pattern, low):
            return name
    return "other"


def _union_and_overlap(spans: List[Tuple[float, float]]) -> Tuple[float, float]:
    """(time covered by at least one span, time covered by two or more)."""
    edges = sorted([(s, 1) for s, _ in spans] + [(e, -1) for _, e in spans])
    covered = overlapped = 0.0
    depth, last = 0, None
    for t, d in edges:
        if last is not None:
            if depth >= 1:
                covered += t - last
            if depth >= 2:
                overlapped += t - last
        depth += d
        last = t
    return covered, overlapped


def _summary(steps: List[List[Tuple[str, float, float]]]) -> Dict[str, Any]:
    """steps: each traced step's kernels (key, start us, duration us) -> ms per step.

    On a shared machine a kernel's time moves with the load from one step to the next, a
    two-thread kernel's most (its OpenMP team waits for a core): each kernel (the k-th
    call with its key in a step) counts at its least over the steps, and the span, sum
    and overlap are the least-span step's."""
    least: Dict[Tuple[str, int], float] = {}
    for kernels in steps:
        seen: Dict[str, int] = {}
        for key, _, dur in kernels:
            k = seen[key] = seen.get(key, -1) + 1
            least[key, k] = min(least.get((key, k), float("inf")), dur)
    per: Dict[str, float] = {}
    top: Dict[str, float] = {}
    for (key, _), dur in least.items():
        per[_classify(key)] = per.get(_classify(key), 0.0) + dur / 1e3
        top[key] = top.get(key, 0.0) + dur / 1e3
    spans = []
    for kernels in steps:
        covered, overlapped = _union_and_overlap([(s, s + d) for _, s, d in kernels])
        start = min(s for _, s, _ in kernels)
        span = max(s + d for _, s, d in kernels) - start
        spans.append((span, covered, overlapped, sum(d for _, _, d in kernels)))
    span, covered, overlapped, total = min(spans)
    return {"classes": per, "least sum": sum(per.values()), "span": span / 1e3,
            "sum": total / 1e3, "covered": covered / 1e3, "overlap": overlapped / 1e3,
            "top": sorted(top.items(), key=lambda kv: -kv[1])[:14]}


def _timed(step: Any, steps: int) -> float:
    """Least wall ms per step over 7 blocks (the load's least)."""
    blocks = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(steps):
            step()
        blocks.append((time.perf_counter() - start) / steps)
    return min(blocks) * 1e3


def _torch_trace(step: Any, traced: int) -> Dict[str, Any]:
    """Each ATen call made from Python (the outermost one) or by autograd's backward
    nodes: its key, start and duration in microseconds."""
    from torch.profiler import ProfilerActivity, profile, record_function
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        for _ in range(traced):
            with record_function("cnn11::step"):
                step()
    events = prof.events()
    bounds = sorted((ev.time_range.start, ev.time_range.end) for ev in events
                    if ev.name == "cnn11::step")
    steps: List[List[Tuple[str, float, float]]] = [[] for _ in bounds]
    for ev in events:
        name = ev.name
        if not name.startswith(("aten::", "mkldnn::")):
            continue            # tf1compat's custom ops: their ATen calls count
        parent = ev.cpu_parent
        if parent is not None and parent.name.startswith(("aten::", "mkldnn::")):
            continue            # a call inside another ATen call: counted in its parent
        shapes = ev.input_shapes[0] if ev.input_shapes and ev.input_shapes[0] else []
        key = f"{name}|{','.join(map(str, shapes))}"
        start = ev.time_range.start
        for i, (lo, hi) in enumerate(bounds):
            if lo <= start <= hi:
                steps[i].append((key, start, ev.time_range.end - start))
    return _summary([k for k in steps if k])


def _tf_trace(sess: Any, fetches: Any, feed: Any, traced: int, tf: Any) -> Dict[str, Any]:
    options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
    steps: List[List[Tuple[str, float, float]]] = []
    threads = set()
    for _ in range(traced):
        kernels: List[Tuple[str, float, float]] = []
        steps.append(kernels)
        meta = tf.RunMetadata()
        sess.run(fetches, feed, options=options, run_metadata=meta)
        for dev in meta.step_stats.dev_stats:
            for node in dev.node_stats:
                label = node.timeline_label or node.node_name
                op = label.split(" = ")[1].split("(")[0] if " = " in label else node.node_name
                if op in ("_SOURCE", "NoOp", "Const", "_Retval", "_Arg", "Identity",
                          "VarHandleOp", "_Recv", "_Send"):
                    continue
                shape = ""
                if node.output and node.output[0].tensor_description.shape.dim:
                    dims = node.output[0].tensor_description.shape.dim
                    shape = ",".join(str(d.size) for d in dims)
                inputs = label.split("(")[1] if "(" in label else ""
                # The input shape is not in the stats: key conv ops by their output's.
                key = f"{op}|{_tf_shape_key(op, shape, inputs)}"
                threads.add(node.thread_id)
                kernels.append((key, float(node.all_start_micros),
                                float(max(node.all_end_rel_micros, 1))))
    out = _summary(steps)
    out["threads"] = len(threads)
    return out


def _tf_shape_key(op: str, out_shape: str, inputs: str) -> str:
    """A shape that `_CLASSES` reads as the op's first input: conv forwards by their
    output ([32,28,28,32] is conv1's, [32,14,14,64] conv2's)."""
    low = op.lower()
    if "conv2d" in low and "backprop" not in low:
        return {"32,28,28,32": "32,28,28,1", "32,14,14,64": "32,14,14,32"}.get(
            out_shape, out_shape)
    if "backpropfilter" in low:
        return "32,28,28,1" if "conv2d/" in inputs and "conv2d_1" not in inputs else "x"
    return out_shape


def child(kind: str, threads: int, steps: int, traced: int) -> Dict[str, Any]:
    import numpy as np
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from bench_vs_tf import WORKLOADS, hot_records, recorded_sessions, settle_hot_plans
    if kind == "torch":
        import torch
        from bench_step_cpu import _torch_cnn
        step = _torch_cnn()
        torch.set_num_threads(threads)
        for _ in range(20):
            step()
        ms = _timed(step, steps)
        return {"ms": ms, **_torch_trace(step, traced)}
    if kind == "tf":
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
        config = tf.ConfigProto(intra_op_parallelism_threads=threads,
                                inter_op_parallelism_threads=threads)
        original = tf.Session
        made: List[Any] = []

        def session(*a: Any, **k: Any) -> Any:
            made.append(original(*a, config=config, **k))
            return made[-1]
        tf.Session = session
    else:
        sys.path.insert(0, ROOT)
        import tf1compat as tf
        from tf1compat.runtime import hot_plans
        hot_plans._MARGIN = float("inf")
    with recorded_sessions(tf) as sessions, tf.Graph().as_default():
        tf.set_random_seed(0)
        step, _, _ = WORKLOADS["cnn"](tf, np)
        for _ in range(3):
            step()
        hot: List[Any] = []
        if kind != "tf":
            settle_hot_plans(step, sessions, 600)
            hot = [r.status for r in hot_records(sessions) if r.runs > 1]
        for _ in range(20):
            step()
        ms = _timed(step, steps)
        if kind == "tf":
            sess, calls = made[-1], []
            run = sess.run
            sess.run = lambda *a, **k: calls.append((a, k)) or run(*a, **k)
            step()
            (fetches, feed), _ = calls[-1]
            return {"ms": ms, **_tf_trace(sess, fetches, feed, traced, tf)}
        import torch
        return {"ms": ms, "hot": hot, "threads": torch.get_num_threads(),
                **_torch_trace(step, traced)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--traced", type=int, default=20)
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=KINDS)
    parser.add_argument("--tf-python", default="/tmp/tf/bin/python")
    parser.add_argument("--top", action="store_true", help="print each child's top kernels")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.threads, args.steps, args.traced)))
        return 0
    n = str(args.threads)
    env = {**os.environ, "TF1COMPAT_THREADS": n, "TF1COMPAT_COMPILE_AFTER": "3",
           "TF1COMPAT_COMPILE_BACKGROUND": "0", "TF_USE_LEGACY_KERAS": "1",
           "TF_CPP_MIN_LOG_LEVEL": "3"}
    got: Dict[str, List[Dict[str, Any]]] = {k: [] for k in args.kinds}
    for _ in range(args.rounds):
        for kind in args.kinds:
            python = args.tf_python if kind == "tf" else sys.executable
            out = subprocess.run([python, os.path.abspath(__file__), "--child", kind,
                                  "--threads", n, "--steps", str(args.steps),
                                  "--traced", str(args.traced)],
                                 env={**env, "TF1COMPAT_COMPILE": "off"}
                                 if kind == "opbyop" else env,
                                 capture_output=True, text=True, check=True)
            got[kind].append(json.loads(out.stdout.strip().splitlines()[-1]))
            if args.top:
                print(f"  {kind}: {got[kind][-1]['top']}", file=sys.stderr)
    kinds = [k for k in args.kinds if got[k]]
    names = [c for c, _ in _CLASSES] + ["other"]

    def med(kind: str, pick: Any) -> float:
        return statistics.median(pick(r) for r in got[kind])
    print(f"{'wall ms per step, ' + n + ' threads':34s}" + "".join(f"{k:>10s}" for k in kinds))
    rows = [("step (untraced)", lambda r: r["ms"])]
    rows += [(c, lambda r, c=c: r["classes"].get(c, 0.0)) for c in names]
    rows += [("kernels, each at its least", lambda r: r["least sum"]),
             ("least traced step: span", lambda r: r["span"]),
             ("  sum of its kernels", lambda r: r["sum"]),
             ("  covered by a kernel", lambda r: r["covered"]),
             ("  two or more at once", lambda r: r["overlap"])]
    for label, pick in rows:
        print(f"{label:34s}" + "".join(f"{med(k, pick):10.3f}" for k in kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
