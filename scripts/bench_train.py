"""Benchmark: training steps/s through `Session.run(train_op)` vs the same model in PyTorch.

    /tmp/venv/bin/python scripts/bench_train.py [--rounds N] [--steps N] [--device cpu|cuda]
                                                [--threads T] [--only mlp|cnn]

Models (both trained with Adam, softmax cross-entropy, batch 128 by default):
  * MLP 784-512-512-10 with ReLU;
  * NHWC convnet: conv5x5(32)-relu-maxpool2 -> conv5x5(64)-relu-maxpool2 -> dense(10) on
    28x28x1 inputs.

The tf1compat step is TF1 code: placeholders fed with numpy batches, `tf.layers`-free
variables, `tf.train.AdamOptimizer(1e-3).minimize(loss)`, `sess.run(train_op, feed)`.
The PyTorch reference is hand-written: the same forward pass (NHWC batches viewed as
channels_last), `loss.backward()`, and Adam in TF's epsilon-hat form — torch.optim.Adam
whose eps is set each step to eps_hat / sqrt(1 - beta2^t), which makes torch's update
equal to TF's. Two torch optimizer settings are timed: the default (`foreach`/for-loop
chosen by torch) and `fused=True` (one fused kernel per step).

The machine this runs on is shared and loaded: rounds alternate between the contenders
and rates are the best of N rounds (the least-disturbed run of each), ratios are
tf1compat / torch on those best rates. The least CPU time per step of this process is
reported as well (`cpu_ratio` = torch CPU time / tf1compat CPU time, > 1 when tf1compat
does less work), which other processes disturb less than wall-clock time.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from typing import Any, Callable, Dict, List

import numpy as np
import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import tf1compat as tf  # noqa: E402

LR, BETA1, BETA2, EPS = 1e-3, 0.9, 0.999, 1e-8


# -- models ---------------------------------------------------------------------------------

def _mlp_weights(rng: np.random.RandomState) -> List[np.ndarray]:
    def dense(n_in: int, n_out: int) -> List[np.ndarray]:
        limit = math.sqrt(6.0 / (n_in + n_out))
        return [rng.uniform(-limit, limit, (n_in, n_out)).astype(np.float32),
                np.zeros(n_out, np.float32)]
    return dense(784, 512) + dense(512, 512) + dense(512, 10)


def _cnn_weights(rng: np.random.RandomState) -> List[np.ndarray]:
    def w(*shape: int) -> np.ndarray:
        return (rng.randn(*shape) * 0.05).astype(np.float32)
    return [w(5, 5, 1, 32), np.zeros(32, np.float32), w(5, 5, 32, 64),
            np.zeros(64, np.float32), w(7 * 7 * 64, 10), np.zeros(10, np.float32)]


def _tf_model(kind: str, weights: List[np.ndarray], batch: int, device: str) -> tuple:
    graph = tf.Graph()
    # Placement as TF1 scripts write it: nothing for the CPU, a device scope for a GPU.
    with graph.as_default(), tf.device("/gpu:0" if device == "cuda" else None):
        names = ["w1", "b1", "w2", "b2", "w3", "b3"]
        v = [tf.get_variable(n, initializer=tf.constant(w)) for n, w in zip(names, weights)]
        if kind == "mlp":
            x = tf.placeholder(tf.float32, [None, 784], name="x")
            h = tf.nn.relu(tf.matmul(x, v[0]) + v[1])
            h = tf.nn.relu(tf.matmul(h, v[2]) + v[3])
            logits = tf.matmul(h, v[4]) + v[5]
        else:
            x = tf.placeholder(tf.float32, [None, 28, 28, 1], name="x")
            h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, v[0], 1, "SAME"), v[1]))
            h = tf.nn.max_pool(h, 2, 2, "SAME")
            h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(h, v[2], 1, "SAME"), v[3]))
            h = tf.nn.max_pool(h, 2, 2, "SAME")
            logits = tf.matmul(tf.reshape(h, [-1, 7 * 7 * 64]), v[4]) + v[5]
        y = tf.placeholder(tf.float32, [None, 10], name="y")
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y,
                                                                          logits=logits))
        train_op = tf.train.AdamOptimizer(LR, BETA1, BETA2, EPS).minimize(loss)
        init = tf.global_variables_initializer()
    config = tf.ConfigProto(device_count={"GPU": 0}) if device == "cpu" else None
    sess = tf.Session(graph=graph, config=config)
    sess.run(init)
    return sess, x, y, loss, train_op, v


class _TorchModel:
    """The same model by hand; Adam via torch.optim with TF's epsilon-hat equivalence."""

    def __init__(self, kind: str, weights: List[np.ndarray], device: str, fused: bool):
        dev = torch.device(device)
        ws = [torch.from_numpy(w.copy()).to(dev) for w in weights]
        if kind == "cnn":                     # torch conv weights: [out, in, kh, kw]
            ws[0] = ws[0].permute(3, 2, 0, 1).contiguous()
            ws[2] = ws[2].permute(3, 2, 0, 1).contiguous()
        self.params = [torch.nn.Parameter(w) for w in ws]
        self.kind = kind
        self.device = dev
        kwargs = {"fused": True} if fused else {}
        self.opt = torch.optim.Adam(self.params, lr=LR, betas=(BETA1, BETA2), eps=EPS,
                                    **kwargs)
        self.t = 0

    def loss(self, xb: torch.Tensor, yb: torch.Tensor) -> torch.Tensor:
        p = self.params
        if self.kind == "mlp":
            h = F.relu(xb @ p[0] + p[1])
            h = F.relu(h @ p[2] + p[3])
            logits = h @ p[4] + p[5]
        else:
            h = xb.permute(0, 3, 1, 2)                      # NHWC as channels_last
            h = F.max_pool2d(F.relu(F.conv2d(h, p[0], p[1], padding=2)), 2)
            h = F.max_pool2d(F.relu(F.conv2d(h, p[2], p[3], padding=2)), 2)
            logits = h.permute(0, 2, 3, 1).reshape(h.shape[0], -1) @ p[4] + p[5]
        return torch.sum(-yb * torch.log_softmax(logits, -1), -1).mean()

    def step(self, xv: np.ndarray, yv: np.ndarray) -> torch.Tensor:
        xb = torch.from_numpy(xv).to(self.device)
        yb = torch.from_numpy(yv).to(self.device)
        self.t += 1
        # TF's epsilon-hat Adam == torch's Adam with eps = eps_hat / sqrt(1 - beta2^t).
        self.opt.param_groups[0]["eps"] = EPS / math.sqrt(1.0 - BETA2 ** self.t)
        self.opt.zero_grad(set_to_none=True)
        loss = self.loss(xb, yb)
        loss.backward()
        self.opt.step()
        return loss


# -- timing ------------------------------------------------------------------------------------

def _rate(step: Callable[[], Any], n: int, sync: Callable[[], None]) -> tuple:
    """(steps per wall-clock second, CPU seconds of this process per step)."""
    sync()
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(n):
        step()
    sync()
    return n / (time.perf_counter() - start), (time.process_time() - cpu) / n


def _best_rates(contenders: Dict[str, Callable[[], Any]], steps: int, rounds: int,
                sync: Callable[[], None]) -> Dict[str, tuple]:
    """Best wall-clock steps/s and least CPU time per step of each contender over
    `rounds` alternating rounds of `steps` steps."""
    for fn in contenders.values():
        for _ in range(3):
            fn()
    best = {k: (0.0, float("inf")) for k in contenders}
    for _ in range(rounds):
        for name, fn in contenders.items():
            rate, cpu = _rate(fn, steps, sync)
            best[name] = (max(best[name][0], rate), min(best[name][1], cpu))
    return best


def _settle(sess: Any, step: Callable[[], Any], seconds: float) -> str:
    """Runs `step` until the session's hot plans (runtime/hot_plans.py) stopped counting,
    compiling and trialling, for at most `seconds`; returns their statuses."""
    deadline = time.monotonic() + seconds
    busy = ("counting", "compiling", "trial", "retrial")
    while time.monotonic() < deadline:
        if not any(p.hot is not None and p.hot.status in busy for p in sess._plans.values()):
            break
        step()
    return ", ".join(sorted({p.hot.status for p in sess._plans.values()
                             if p.hot is not None and p.hot.runs > 1}))


def bench_model(kind: str, batch: int = 128, steps: int = 10, rounds: int = 7,
                device: str = "cpu", settle: float = 0.0) -> Dict[str, Any]:
    """Steps/s of one model in tf1compat and in PyTorch (default and fused Adam).

    `settle` > 0: before timing, the tf1compat step runs until its plan is compiled or
    settled op by op (at most that many seconds), so the steady state is timed."""
    rng = np.random.RandomState(0)
    weights = _mlp_weights(rng) if kind == "mlp" else _cnn_weights(rng)
    shape = (batch, 784) if kind == "mlp" else (batch, 28, 28, 1)
    xv = rng.rand(*shape).astype(np.float32)
    yv = np.eye(10, dtype=np.float32)[rng.randint(0, 10, batch)]
    sess, x, y, loss, train_op, variables = _tf_model(kind, weights, batch, device)
    feed = {x: xv, y: yv}
    by_hand = _TorchModel(kind, weights, device, fused=False)
    fused = _TorchModel(kind, weights, device, fused=True)
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)

    # Same numbers: the first step's loss and the weights after a few steps agree.
    first_tf = float(sess.run([train_op, loss], feed)[1])
    first_torch = float(by_hand.step(xv, yv).detach())
    fused.step(xv, yv)
    for _ in range(4):
        sess.run(train_op, feed)
        by_hand.step(xv, yv)
        fused.step(xv, yv)
    w_tf = sess.run(variables[-2])
    w_torch = by_hand.params[-2].detach().cpu().numpy()
    max_diff = float(np.max(np.abs(w_tf - w_torch)))
    plan_status = _settle(sess, lambda: sess.run(train_op, feed), settle) if settle else ""

    rates = _best_rates({"tf1compat": lambda: sess.run(train_op, feed),
                         "torch": lambda: by_hand.step(xv, yv),
                         "torch_fused": lambda: fused.step(xv, yv)}, steps, rounds, sync)
    sess.close()
    wall = {k: v[0] for k, v in rates.items()}
    cpu = {k: v[1] * 1e3 for k, v in rates.items()}
    return {"model": kind, "device": device, "batch": batch,
            "tf1compat_steps_per_s": wall["tf1compat"],
            "torch_steps_per_s": wall["torch"],
            "torch_fused_steps_per_s": wall["torch_fused"],
            "ratio": wall["tf1compat"] / wall["torch"],
            "ratio_vs_fused": wall["tf1compat"] / wall["torch_fused"],
            "tf1compat_cpu_ms_per_step": cpu["tf1compat"],
            "torch_cpu_ms_per_step": cpu["torch"],
            "torch_fused_cpu_ms_per_step": cpu["torch_fused"],
            "cpu_ratio": cpu["torch"] / cpu["tf1compat"],
            "first_loss_tf1compat": first_tf, "first_loss_torch": first_torch,
            "max_weight_diff_after_5_steps": max_diff, "plan_status": plan_status}


def bench_training(steps: int = 10, rounds: int = 7, device: str = "cpu",
                   only: str = "") -> Dict[str, Any]:
    """Training steps/s of the MLP and the convnet, tf1compat vs PyTorch, with ratios."""
    out: Dict[str, Any] = {}
    if only in ("", "mlp"):
        out["mlp"] = bench_model("mlp", 128, steps, rounds, device)
    if only in ("", "cnn"):
        out["cnn"] = bench_model("cnn", 128, max(2, steps // 4), rounds, device)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    results = bench_training(args.steps, args.rounds, args.device, args.only)
    for kind, result in results.items():
        print(f"== {kind}")
        for key, value in result.items():
            print(f"  {key:32s} {value:.4g}" if isinstance(value, float)
                  else f"  {key:32s} {value}")
        print(f"  ratio tf1compat / torch: {result['ratio']:.3f}  "
              f"(vs fused torch Adam: {result['ratio_vs_fused']:.3f})")


if __name__ == "__main__":
    main()
