"""CPU time per training step at one thread: tf1compat with the gradient op in the
compiled graph (merged), with the forward segment alone compiled (forward), op by op
(TF1COMPAT_COMPILE=off), TF, and for `mlp` a hand-written torch step (forward,
`torch.autograd.grad` and Adam in one `torch.compile(fullgraph=True)` graph, Dynamo's
`trace_autograd_ops` on): the floor a compiled whole step could reach; for `cnn` the
hand-written step in eager torch (channels_last convolutions, fused Adam); for `lstm` the
hand-written eager step on `nn.LSTM` (the kernel the fused dynamic_rnn calls).

    python scripts/bench_step_cpu.py                   # mlp, 3 rounds
    python scripts/bench_step_cpu.py mlp autoencoder --rounds 5 --steps 300
    python scripts/bench_step_cpu.py lstm chain500 grad100 --kinds opbyop merged tf torch

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
KINDS = ("merged", "forward", "opbyop", "tf", "torch")


def _torch_mlp() -> Any:
    """The mlp workload's step written by hand in torch, compiled whole."""
    import numpy as np
    import torch
    import torch._dynamo.config as dynamo_config
    torch.set_num_threads(1)
    rng = np.random.RandomState(0)
    x = torch.from_numpy(rng.rand(64, 784).astype(np.float32))
    y = torch.from_numpy(np.eye(10, dtype=np.float32)[rng.randint(0, 10, 64)])
    sizes = [(784, 256), (256, 128), (128, 10)]
    params = [t for a, b in sizes for t in (torch.randn(a, b) * 0.05, torch.zeros(b))]
    m = [torch.zeros_like(p) for p in params]
    v = [torch.zeros_like(p) for p in params]

    def step(params: List[Any], m: List[Any], v: List[Any], t: Any) -> Any:
        leaves = [p.detach().requires_grad_() for p in params]
        h = x
        for i in range(0, 6, 2):
            h = h @ leaves[i] + leaves[i + 1]
            h = torch.relu(h) if i < 4 else h
        loss = torch.nn.functional.cross_entropy(h, y)
        grads = torch.autograd.grad(loss, leaves)
        with torch.no_grad():
            alpha = 1e-3 * (1 - 0.999 ** t) ** 0.5 / (1 - 0.9 ** t)
            for p, g, mi, vi in zip(params, grads, m, v):
                mi.mul_(0.9).add_(g, alpha=0.1)
                vi.mul_(0.999).addcmul_(g, g, value=0.001)
                p.sub_(alpha * mi / (vi.sqrt() + 1e-8))
        return loss.detach()
    with dynamo_config.patch(trace_autograd_ops=True):
        compiled = torch.compile(step, fullgraph=True, dynamic=False)
        count = [1.0]
        compiled(params, m, v, torch.tensor(count[0]))

    def run() -> Any:
        count[0] += 1
        return compiled(params, m, v, torch.tensor(count[0]))
    return run


def _torch_cnn() -> Any:
    """The cnn workload's step written by hand in torch, eagerly (inductor's CPU pooling
    and layout kernels make the compiled step slower): NHWC input seen as channels_last,
    bias in the convolution, fused Adam; glibc's heap kept as tf1compat keeps it."""
    import numpy as np
    import torch
    import torch.nn.functional as F
    sys.path.insert(0, ROOT)
    from tf1compat import _host_memory
    _host_memory.apply()
    torch.set_num_threads(1)
    rng = np.random.RandomState(0)
    x = torch.from_numpy(rng.rand(32, 28, 28, 1).astype(np.float32)).permute(0, 3, 1, 2)
    y = torch.from_numpy(np.eye(10, dtype=np.float32)[rng.randint(0, 10, 32)])
    shapes = [(32, 1, 5, 5), (32,), (64, 32, 5, 5), (64,), (3136, 256), (256,), (256, 10),
              (10,)]
    params = [(torch.randn(*s) * 0.05).requires_grad_() for s in shapes]
    opt = torch.optim.Adam(params, lr=1e-3, fused=True)

    def run() -> Any:
        w1, b1, w2, b2, w3, b3, w4, b4 = params
        h = F.max_pool2d(F.relu(F.conv2d(x, w1, b1, 1, 2)), 2, 2)
        h = F.max_pool2d(F.relu(F.conv2d(h, w2, b2, 1, 2)), 2, 2)
        h = F.relu(h.permute(0, 2, 3, 1).reshape(32, -1) @ w3 + b3)
        loss = F.cross_entropy(h @ w4 + b4, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss.detach()
    return run


def _torch_lstm() -> Any:
    """The lstm workload's step written by hand in torch: `nn.LSTM` (torch's fused
    kernel, the same one tf1compat's fused dynamic_rnn calls), the dense head, the loss
    and `torch.optim.Adam`, eager."""
    import numpy as np
    import torch
    torch.set_num_threads(1)
    lstm, dense = torch.nn.LSTM(32, 128), torch.nn.Linear(128, 1)
    params = [*lstm.parameters(), *dense.parameters()]
    opt = torch.optim.Adam(params, 1e-3)
    x = torch.from_numpy(np.random.RandomState(0).randn(20, 32, 32).astype(np.float32))

    def run() -> Any:
        out, _ = lstm(x)
        loss = ((dense(out[-1]) - 1.0) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()
    return run


_TORCH_STEPS = {"mlp": _torch_mlp, "cnn": _torch_cnn, "lstm": _torch_lstm}


def child(kind: str, workload: str, steps: int) -> Dict[str, Any]:
    import numpy as np
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from bench_vs_tf import WORKLOADS, hot_records, recorded_sessions, settle_hot_plans
    if kind == "torch":
        step = _TORCH_STEPS[workload]()
        for _ in range(20):
            step()
        start = time.process_time()
        for _ in range(steps):
            step()
        return {"ms": (time.process_time() - start) / steps * 1e3, "hot": []}
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
    with recorded_sessions(tf) as sessions, tf.Graph().as_default():
        tf.set_random_seed(0)
        step, _, _ = WORKLOADS[workload](tf, np)
        hot: List[Any] = []
        for _ in range(3):
            step()
        if kind != "tf":
            settle_hot_plans(step, sessions, 600)
            hot = [(r.status, r.reason) for r in hot_records(sessions) if r.runs > 1]
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
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=KINDS,
                        help="which kinds to run (default: all)")
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
                if kind == "torch" and workload not in _TORCH_STEPS or \
                        kind not in args.kinds:
                    continue
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
