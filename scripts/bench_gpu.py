"""GPU benchmarks in one table: tf1compat against hand-written PyTorch on the same device.

    python scripts/bench_gpu.py [--quick] [--device cuda]

Rows: MLP and CNN training (scripts/bench_train.py: the same weights, TF's Adam vs
torch's Adam; tf1compat's step timed once its plan has compiled or settled op by op, as
a training loop runs it after its first minute), the dynamic_rnn LSTM (scripts/bench_rnn.py: against the same math written
as a loop, and against torch's nn.LSTM, which is what the fused path runs), and a compiled
hot plan (a 500-op chain after tf1compat compiled it, against the chain in torch op by
op and torch.compile'd). Each figure is steps (or runs) per second; the ratio is
tf1compat / torch (the target on a GPU: >= 0.9). Prints a skip line and exits 0 when
torch sees no CUDA device. `scripts/gpu_check.sh` runs this after the CUDA tests.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import traceback
from typing import Any, Callable, List, Tuple

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (ROOT, os.path.join(ROOT, "scripts")):
    if path not in sys.path:
        sys.path.insert(0, path)

Row = Tuple[str, float, float, str]


def _rate(fn: Callable[[], Any], seconds: float, device: torch.device) -> float:
    """Calls per second: the median of 5 timed batches, each about `seconds` / 5."""
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    for _ in range(3):
        fn()
    sync()
    start = time.perf_counter()
    fn()
    sync()
    n = max(1, int(seconds / 5 / max(time.perf_counter() - start, 1e-6)))
    rates = []
    for _ in range(5):
        sync()
        start = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        rates.append(n / (time.perf_counter() - start))
    return statistics.median(rates)


def _training_rows(device: str, quick: bool) -> List[Row]:
    from bench_train import bench_model
    rows = []
    for kind in ("mlp", "cnn"):
        r = bench_model(kind, 128, 5 if quick else 20, 3 if quick else 7, device,
                        settle=60.0 if quick else 120.0)
        rows.append((f"{kind.upper()} training (batch 128, Adam)",
                     r["tf1compat_steps_per_s"], r["torch_steps_per_s"],
                     f"max weight diff after 5 steps {r['max_weight_diff_after_5_steps']:.1e}; "
                     f"plan {r['plan_status']}; vs fused Adam {r['ratio_vs_fused']:.2f}"))
    return rows


class _NNLSTMStep:
    """torch.nn.LSTM (cuDNN on CUDA) with BasicLSTMCell's weights, forward+backward+SGD."""

    def __init__(self, kernel: np.ndarray, bias: np.ndarray, inputs: int, units: int,
                 device: torch.device):
        self.lstm = torch.nn.LSTM(inputs, units, batch_first=True).to(device)
        k = torch.tensor(kernel, device=device).t()
        b = torch.tensor(bias, device=device)
        order = torch.cat([torch.arange(0, units), torch.arange(2 * units, 3 * units),
                           torch.arange(units, 2 * units), torch.arange(3 * units, 4 * units)])
        with torch.no_grad():
            self.lstm.weight_ih_l0.copy_(k[order][:, :inputs])
            self.lstm.weight_hh_l0.copy_(k[order][:, inputs:])
            self.lstm.bias_ih_l0.copy_(b[order] + torch.cat([torch.zeros(units, device=device),
                                                             torch.ones(units, device=device),
                                                             torch.zeros(2 * units,
                                                                         device=device)]))
            self.lstm.bias_hh_l0.zero_()

    def __call__(self, x: torch.Tensor) -> None:
        out, _ = self.lstm(x)
        loss = out.square().mean()
        grads = torch.autograd.grad(loss, list(self.lstm.parameters()))
        with torch.no_grad():
            for p, g in zip(self.lstm.parameters(), grads):
                p.sub_(0.01 * g)


def _rnn_rows(device: str, quick: bool) -> List[Row]:
    from bench_rnn import bench_rnn, _tf1compat_model
    import tf1compat as tf
    r = bench_rnn(5 if quick else 11, 100, 32, 128, 128, device)
    rows = [("LSTM dynamic_rnn vs torch loop", r["tf1compat_steps_per_s"],
             r["torch_steps_per_s"], f"losses match: {r['losses_match']}")]
    dev = torch.device(device)
    config = None if dev.type == "cuda" else tf.ConfigProto(device_count={"GPU": 0})
    model = _tf1compat_model(32, 100, 128, 128, config)
    sess = model["sess"]
    kernel, bias = sess.run(model["params"])
    xv = np.random.RandomState(1).randn(32, 100, 128).astype(np.float32)
    feed = {model["x"]: xv}
    nn_step = _NNLSTMStep(kernel, bias, 128, 128, dev)
    xt = torch.tensor(xv, device=dev)
    seconds = 1.0 if quick else 3.0
    ours = _rate(lambda: sess.run(model["train_op"], feed), seconds, dev)
    theirs = _rate(lambda: nn_step(xt), seconds, dev)
    sess.close()
    rows.append(("LSTM dynamic_rnn vs torch nn.LSTM", ours, theirs, "fused path vs cuDNN"))
    return rows


def _compiled_plan_row(device: str, quick: bool) -> List[Row]:
    os.environ.setdefault("TF1COMPAT_COMPILE_AFTER", "5")
    os.environ.setdefault("TF1COMPAT_COMPILE_BACKGROUND", "0")
    import tf1compat as tf
    dev = torch.device(device)
    graph = tf.Graph()
    with graph.as_default(), tf.device("/gpu:0" if dev.type == "cuda" else "/cpu:0"):
        x = tf.placeholder(tf.float32, [4096])
        h = x
        for i in range(333):
            h = tf.tanh(h) if i % 2 else h * 1.0001 + 0.0001
    sess = tf.Session(graph=graph)
    feed = {x: np.ones(4096, np.float32)}
    start = time.perf_counter()
    for _ in range(40):
        sess.run(h, feed)
        record = list(sess._plans.values())[-1].hot
        if record.status not in ("counting", "compiling", "trial", "retrial"):
            break
    settle = time.perf_counter() - start
    xt = torch.ones(4096, device=dev)

    def by_hand(v: torch.Tensor) -> torch.Tensor:
        for i in range(333):
            v = torch.tanh(v) if i % 2 else v * 1.0001 + 0.0001
        return v
    compiled = torch.compile(by_hand)
    seconds = 1.0 if quick else 3.0
    ours = _rate(lambda: sess.run(h, feed), seconds, dev)
    eager = _rate(lambda: by_hand(xt).cpu(), seconds, dev)
    theirs = _rate(lambda: compiled(xt).cpu(), seconds, dev)
    sess.close()
    note = (f"plan {record.status} {record.reason}".strip() +
            f"; settled in {settle:.0f} s; torch op by op {eager:.0f}/s")
    return [("500-op chain, hot plan vs torch.compile", ours, theirs, note)]


def main(argv: List[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter rounds")
    parser.add_argument("--device", default="cuda",
                        help="cuda (default); cpu runs the same table on the CPU")
    args = parser.parse_args(argv)
    if args.device == "cuda" and not torch.cuda.is_available():
        print(f"bench_gpu: no CUDA device visible to torch {torch.__version__}: skipped")
        return 0
    name = torch.cuda.get_device_name(0) if args.device == "cuda" else "CPU"
    print(f"device: {name}; torch {torch.__version__}")
    rows: List[Row] = []
    for part in (_training_rows, _rnn_rows, _compiled_plan_row):
        try:
            rows.extend(part(args.device, args.quick))
        except Exception as e:  # noqa: BLE001 - one failing part must not hide the others
            traceback.print_exc()
            rows.append((part.__name__.strip("_"), float("nan"), float("nan"),
                         f"FAILED: {type(e).__name__}: {e}"[:160]))
    print(f"{'benchmark':42s} {'tf1compat/s':>12s} {'torch/s':>10s} {'ratio':>6s}  note")
    for label, ours, theirs, note in rows:
        print(f"{label:42s} {ours:12.1f} {theirs:10.1f} {ours / theirs:6.2f}  {note}")
    return 1 if any(np.isnan(r[1]) for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
