"""Where the lstm workload's step goes, in one process, against hand-written torch.

Seven kinds alternate in blocks of `--steps` steps, `--rounds` times, on `--threads`
threads (set for all seven):

* `ours`: tf1compat's step (scripts/bench_vs_tf.py's lstm workload, hot plans settled),
  its LSTM weights held in torch's layout across steps (runtime/held_plans.py);
* `ours_relaid`: the same step with that off (`TF1COMPAT_LSTM_PHYSICAL=0`): TF's
  weights re-laid into torch's layout and the gradient back every step;
* `hand`: the same step written by hand in eager torch (`nn.LSTM`, the dense head, the
  loss and `torch.optim.Adam`: scripts/bench_step_cpu.py's `_torch_lstm`);
* `relaid`: the fused dynamic_rnn's kernel alone, forward and backward, with TF's
  kernel and bias re-laid into torch's layout every step (rnn/fused_weights.py
  `cell_weights`);
* `fixed`: the same kernel on weights already in torch's layout (nn.LSTM's case);
* `physical`: the same kernel as the held weights feed it: w_ih and w_hh views of one
  flat leaf through one split node (backward: one `cat`, the flat gradient), b_ih the
  held bias itself, b_hh carrying forget_bias;
* `stepwise`: the same layer written as one autograd Function (`StepwiseLSTM`): the
  input product for all steps in one GEMM, per step the recurrent product and the
  gates; backward per step the gate gradients and the recurrent product, then each
  weight gradient in one GEMM over all steps (no input gradient: the workload's input
  is fed). On `fixed`'s leaves, so `stepwise - fixed` is what replacing torch's kernel
  (oneDNN's RNN primitive on the CPU) with it would save.

So `relaid - fixed` is the re-layout's cost, `ours_relaid - ours` what holding the
weights saves in the step, `ours - physical` what tf1compat's step adds around the
kernel (the head, the loss, Adam, the plan's Python), `hand - fixed` what a
hand-written eager step adds. Each figure is the process CPU time (`process_time`) and
the wall time per step of one block; min and median over rounds are printed. Blocks of
all kinds alternate, so a load change on a shared machine reaches each alike.

    python scripts/bench_lstm_parts.py --rounds 8 --steps 20 --threads 1

`--ops N` instead times, over N held steps, every kernel of the step's plan and every
autograd node of its backward (`time.thread_time` around each: torch.profiler and
cProfile inflate small ops several-fold), CPU us per step, largest first
(docs/performance.md "## LSTM step, session 27"):

    python scripts/bench_lstm_parts.py --ops 400
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def stepwise_lstm() -> Any:
    """`StepwiseLSTM.apply(x, h0, c0, w_ih, w_hh, b)` -> outputs `[steps, batch, units]`:
    torch's LSTM (gates i, f, g, o, one bias) as one autograd Function (module doc)."""
    import torch

    class StepwiseLSTM(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any, h0: Any, c0: Any, w_ih: Any, w_hh: Any,
                    b: Any) -> Any:
            steps, batch, depth = x.shape
            u = h0.shape[1]
            pre = torch.addmm(b, x.reshape(-1, depth), w_ih.t()).view(steps, batch, 4 * u)
            act = torch.empty_like(pre)                     # sigmoid(i, f, o), tanh(g)
            cs, hs = x.new_empty(steps + 1, batch, u), x.new_empty(steps + 1, batch, u)
            cs[0], hs[0] = c0, h0
            tanh_c = x.new_empty(steps, batch, u)
            w_hh_t = w_hh.t()
            for t in range(steps):
                p, a = pre[t], act[t]
                p.addmm_(hs[t], w_hh_t)
                torch.sigmoid(p, out=a)
                torch.tanh(p[:, 2 * u:3 * u], out=a[:, 2 * u:3 * u])
                torch.mul(a[:, u:2 * u], cs[t], out=cs[t + 1])
                cs[t + 1].addcmul_(a[:, :u], a[:, 2 * u:3 * u])
                torch.tanh(cs[t + 1], out=tanh_c[t])
                torch.mul(a[:, 3 * u:], tanh_c[t], out=hs[t + 1])
            ctx.save_for_backward(x, w_ih, w_hh, act, cs, hs, tanh_c)
            return hs[1:]

        @staticmethod
        def backward(ctx: Any, d_out: Any) -> tuple:
            x, w_ih, w_hh, act, cs, hs, tanh_c = ctx.saved_tensors
            steps, batch, depth = x.shape
            u = hs.shape[2]
            i, f, g, o = act.view(steps, batch, 4, u).unbind(2)
            # Each step's factors, for all steps at once: dc += dh * to_c;
            # d(i, f, g) = dc * from_c; do = dh * to_o.
            to_c = o * (1 - tanh_c * tanh_c)
            to_o = tanh_c * o * (1 - o)
            from_c = torch.stack([g * i * (1 - i), cs[:-1] * f * (1 - f),
                                  i * (1 - g * g)], 2)
            d_pre = torch.empty_like(act)
            d_gates = d_pre.view(steps, batch, 4, u)
            dh = d_out[steps - 1].clone()
            dc = torch.zeros_like(dh)
            for t in range(steps - 1, -1, -1):
                dc.addcmul_(dh, to_c[t])
                torch.mul(dc.unsqueeze(1), from_c[t], out=d_gates[t, :, :3])
                torch.mul(dh, to_o[t], out=d_gates[t, :, 3])
                dc.mul_(f[t])
                dh = torch.addmm(d_out[t - 1], d_pre[t], w_hh) if t else d_pre[0] @ w_hh
            flat = d_pre.view(-1, 4 * u)
            dx = (flat @ w_ih).view(steps, batch, depth) if ctx.needs_input_grad[0] \
                else None
            return (dx, dh, dc, flat.t() @ x.reshape(-1, depth),
                    flat.t() @ hs[:-1].reshape(-1, u), flat.sum(0))
    return StepwiseLSTM


def kernel_steps(units: int = 128, depth: int = 32, steps: int = 20,
                 batch: int = 32) -> tuple[Callable[[], None], ...]:
    """(relaid, fixed, physical, stepwise): forward + backward of torch's fused LSTM for
    the workload's shape, on weights re-laid from TF's layout at every call, on
    torch-layout leaves, on the held flat kernel and bias as tf1compat's held step feeds
    it, and `stepwise_lstm`'s layer on the torch-layout leaves."""
    import torch

    from tf1compat.rnn.fused_weights import (BiasLayout, KernelLayout, cell_weights,
                                             held_lstm_weights)
    gen = torch.Generator().manual_seed(0)
    kernel = torch.randn(depth + units, 4 * units, generator=gen).requires_grad_()
    bias = torch.zeros(4 * units, requires_grad=True)
    x = torch.randn(steps, batch, depth, generator=gen)
    hx = (torch.zeros(1, batch, units), torch.zeros(1, batch, units))
    grad_out = torch.randn(steps, batch, units, generator=gen)
    fixed_params = [p.detach().requires_grad_()
                    for p in cell_weights("lstm", units, 1.0, kernel, bias, depth)]
    flat = KernelLayout(depth, units).to_physical(kernel.detach()).requires_grad_()
    held_bias = BiasLayout(units).to_physical(bias.detach()).requires_grad_()

    def run(params: list[Any], wrt: tuple[Any, ...]) -> None:
        out = torch._VF.lstm(x, hx, params, True, 1, 0.0, True, False, False)[0]
        torch.autograd.grad(out, wrt, grad_out)

    def relaid() -> None:
        run(list(cell_weights("lstm", units, 1.0, kernel, bias, depth)), (kernel, bias))

    def fixed() -> None:
        run(fixed_params, tuple(fixed_params[:3]))

    def physical() -> None:
        run(list(held_lstm_weights(units, 1.0, flat, held_bias, depth, True)),
            (flat, held_bias))

    layer = stepwise_lstm()

    def stepwise() -> None:
        out = layer.apply(x, hx[0][0], hx[1][0], *fixed_params[:3])
        torch.autograd.grad(out, tuple(fixed_params[:3]), grad_out)
    return relaid, fixed, physical, stepwise


def op_times(step: Callable[[], Any], steps: int) -> None:
    """Prints the CPU time per step of each kernel of `step`'s training plan (the
    generated plan's globals wrapped) and of each node of its backward (pre/post hooks
    on every node `torch.autograd.grad` is about to run), over `steps` steps."""
    import collections
    import gc

    import torch
    spent: dict = collections.defaultdict(float)
    clock = time.thread_time

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += clock() - start
        return run

    plan = next(f for f in gc.get_objects() if type(f).__name__ == "function" and
                f.__code__.co_filename.startswith("<tf1compat-plan-") and
                "SymbolicGradient" in f.__code__.co_names)
    names = plan.__globals__
    for name, value in list(names.items()):
        if callable(value) and not name.startswith("__") and not isinstance(value, type):
            names[name] = timed(name, value)
    grad = torch.autograd.grad

    def hooked_grad(outputs: Any, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        seen, todo = set(), [o.grad_fn for o in (
            outputs if isinstance(outputs, (list, tuple)) else [outputs])]
        starts: dict = {}
        while todo:
            node = todo.pop()
            if node is None or node in seen:
                continue
            seen.add(node)
            node.register_prehook(lambda g, n=node: starts.__setitem__(n, clock()))
            node.register_hook(lambda gi, go, n=node, k="grad: " + node.name():
                               spent.__setitem__(k, spent[k] + clock() - starts[n]))
            todo.extend(nxt for nxt, _ in node.next_functions)
        start = clock()
        try:
            return grad(outputs, inputs, *args, **kwargs)
        finally:
            spent["grad: autograd.grad in all"] += clock() - start
    torch.autograd.grad = hooked_grad
    try:
        for _ in range(10):
            step()
        spent.clear()
        start = clock()
        for _ in range(steps):
            step()
        total = clock() - start
    finally:
        torch.autograd.grad = grad
    print(f"step {total / steps * 1e6:.0f} us CPU ({steps} steps); per step:")
    for name, value in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"  {name:40s} {value / steps * 1e6:8.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--ops", type=int, default=0,
                        help="time each op and backward node over this many held steps")
    args = parser.parse_args()
    os.environ["TF1COMPAT_THREADS"] = str(args.threads)
    os.environ.setdefault("TF1COMPAT_COMPILE_BACKGROUND", "0")
    sys.path.insert(0, ROOT)
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import numpy as np
    import torch
    from bench_step_cpu import _torch_lstm
    from bench_vs_tf import WORKLOADS, recorded_sessions, settle_hot_plans

    import tf1compat as tf
    times: dict[str, list[tuple[float, float]]] = {}
    with recorded_sessions(tf) as sessions:
        steps = []
        for held in ("1", "0"):        # read when the plans are built
            os.environ["TF1COMPAT_LSTM_PHYSICAL"] = held
            with tf.Graph().as_default():
                tf.set_random_seed(0)
                step, _, _ = WORKLOADS["lstm"](tf, np)
                for _ in range(3):
                    step()
                settle_hot_plans(step, sessions, 600)
            steps.append(step)
            if args.ops:
                op_times(step, args.ops)
                return 0
        hand = _torch_lstm()
        relaid, fixed, physical, stepwise = kernel_steps()
        kinds = {"ours": steps[0], "ours_relaid": steps[1], "hand": hand, "relaid": relaid,
                 "fixed": fixed, "physical": physical, "stepwise": stepwise}
        torch.set_num_threads(args.threads)     # _torch_lstm sets one thread
        for step in kinds.values():
            for _ in range(10):
                step()
        for _ in range(args.rounds):
            for name, step in kinds.items():
                cpu, wall = time.process_time(), time.perf_counter()
                for _ in range(args.steps):
                    step()
                times.setdefault(name, []).append(
                    ((time.process_time() - cpu) / args.steps * 1e6,
                     (time.perf_counter() - wall) / args.steps * 1e6))
    print(f"threads {args.threads}, {args.rounds} rounds of {args.steps} steps; "
          "us per step, min / median over rounds")
    for name, pairs in times.items():
        cpu = sorted(c for c, _ in pairs)
        wall = sorted(w for _, w in pairs)
        print(f"{name:8s} CPU {cpu[0]:7.0f} / {cpu[len(cpu) // 2]:7.0f}   "
              f"wall {wall[0]:7.0f} / {wall[len(wall) // 2]:7.0f}")
    # Paired by round (the two blocks a few ms apart): what holding the weights saves.
    saved = sorted(a[0] - b[0] for a, b in zip(times["ours_relaid"], times["ours"]))
    print(f"ours_relaid - ours, CPU per round: min {saved[0]:.0f} / median "
          f"{saved[len(saved) // 2]:.0f} / max {saved[-1]:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
