"""Where the lstm workload's step goes, in one process, against hand-written torch.

Six kinds alternate in blocks of `--steps` steps, `--rounds` times, on `--threads`
threads (set for all six):

* `ours`: tf1compat's step (scripts/bench_vs_tf.py's lstm workload, hot plans settled);
* `hand`: the same step written by hand in eager torch (`nn.LSTM`, the dense head, the
  loss and `torch.optim.Adam`: scripts/bench_step_cpu.py's `_torch_lstm`);
* `relaid`: the fused dynamic_rnn's kernel alone, forward and backward, with TF's
  kernel and bias re-laid into torch's layout every step (rnn/fused_weights.py), as
  tf1compat runs it;
* `fixed`: the same kernel on weights already in torch's layout (nn.LSTM's case);
* `physical`: the same kernel as a variable stored in torch's layout would feed it (issue
  17's design, docs/performance.md "## lstm11"): w_ih and w_hh views of one flat leaf
  through a node whose backward is one `cat` (the flat gradient), the bias re-laid;
* `elided`: tf1compat's step with `cell_weights` swapped for that design's costs (views
  of a persistent torch-layout buffer forward; backward the flat gradient's `cat` and a
  preallocated TF-layout gradient): the step the design would run. Its NUMERICS ARE
  WRONG (Adam gets a fixed random kernel gradient); only its time means anything.

So `relaid - fixed` is the re-layout's cost, `ours - elided` what keeping the weights in
torch's layout would save in the step, `ours - relaid` what tf1compat's step adds
around the kernel (the head, the loss, Adam, the plan's Python), `hand - fixed` what a
hand-written eager step adds. Each figure is the process CPU time (`process_time`) and
the wall time per step of one block; min and median over rounds are printed. Blocks of
all kinds alternate, so a load change on a shared machine reaches each alike.

    python scripts/bench_lstm_parts.py --rounds 8 --steps 20 --threads 1
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kernel_steps(units: int = 128, depth: int = 32, steps: int = 20,
                 batch: int = 32) -> tuple[Callable[[], None], ...]:
    """(relaid, fixed, physical): forward + backward of torch's fused LSTM for the
    workload's shape, on weights re-laid from TF's layout at every call, on torch-layout
    leaves, and on one flat torch-layout leaf as the physical-layout design stores it."""
    import torch

    from tf1compat.rnn.fused_weights import _gate_order, cell_weights
    gen = torch.Generator().manual_seed(0)
    kernel = torch.randn(depth + units, 4 * units, generator=gen).requires_grad_()
    bias = torch.zeros(4 * units, requires_grad=True)
    x = torch.randn(steps, batch, depth, generator=gen)
    hx = (torch.zeros(1, batch, units), torch.zeros(1, batch, units))
    grad_out = torch.randn(steps, batch, units, generator=gen)
    fixed_params = [p.detach().requires_grad_()
                    for p in cell_weights("lstm", units, 1.0, kernel, bias, depth)]
    flat = torch.cat([p.detach().reshape(-1) for p in fixed_params[:2]]).requires_grad_()
    split = _split_node(4 * units * depth, (4 * units, depth), (4 * units, units))
    order, b_hh = _gate_order(units, kernel.device), torch.zeros(4 * units)

    def run(params: list[Any], wrt: tuple[Any, ...]) -> None:
        out = torch._VF.lstm(x, hx, params, True, 1, 0.0, True, False, False)[0]
        torch.autograd.grad(out, wrt, grad_out)

    def relaid() -> None:
        run(list(cell_weights("lstm", units, 1.0, kernel, bias, depth)), (kernel, bias))

    def fixed() -> None:
        run(fixed_params, tuple(fixed_params[:3]))

    def physical() -> None:
        b_ih = bias.index_select(0, order)
        b_ih[units:2 * units] += 1.0
        run([*split(flat), b_ih, b_hh], (flat, bias))
    return relaid, fixed, physical


def _split_node(at: int, first: tuple[int, int], second: tuple[int, int]) -> Any:
    """`flat -> (flat[:at] viewed as first, flat[at:] as second)` as one autograd node
    whose backward concatenates the two gradients (one copy): how the design would
    hand a flat torch-layout variable to the kernel."""
    import torch

    class Split(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, flat: Any) -> tuple[Any, Any]:
            return flat[:at].view(first), flat[at:].view(second)

        @staticmethod
        def backward(ctx: Any, g_first: Any, g_second: Any) -> Any:
            return torch.cat([g_first.reshape(-1), g_second.reshape(-1)])
    return Split.apply


def elided_weights() -> Callable[..., tuple[Any, ...]]:
    """A stand-in for rnn/fused_weights.cell_weights with the design's costs and wrong
    numerics (see the module doc's `elided`)."""
    import torch

    from tf1compat.rnn.fused_weights import _gate_order, cell_weights
    kept: list[Any] = []

    class Elided(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, kernel: Any, bias: Any, order: Any, w_ih: Any, w_hh: Any,
                    b_hh: Any, g_kernel: Any) -> tuple[Any, ...]:
            ctx.order, ctx.g_kernel = order, g_kernel
            ctx.mark_non_differentiable(b_hh)
            return (w_ih.view_as(w_ih), w_hh.view_as(w_hh), bias.index_select(0, order),
                    b_hh)

        @staticmethod
        def backward(ctx: Any, g_ih: Any, g_hh: Any, g_bias: Any, _: Any) -> tuple:
            torch.cat([g_ih.reshape(-1), g_hh.reshape(-1)])     # the flat gradient
            return (ctx.g_kernel, g_bias.index_select(0, ctx.order), None, None, None,
                    None, None)

    def weights(kind: str, units: int, forget_bias: float, kernel: Any, bias: Any,
                depth: int) -> tuple[Any, ...]:
        if not kept:
            w_ih, w_hh, _, b_hh = (p.detach().clone() for p in cell_weights(
                kind, units, forget_bias, kernel.detach(), bias.detach(), depth))
            # A fixed gradient of the workload's scale, not zeros: Adam's moments on a
            # zero gradient decay into denormals and would slow the other kinds.
            gen = torch.Generator().manual_seed(1)
            g_kernel = torch.randn(kernel.shape, generator=gen, dtype=kernel.dtype) * 1e-3
            kept.extend([w_ih, w_hh, b_hh, g_kernel])
        return Elided.apply(kernel, bias, _gate_order(units, kernel.device), *kept)
    return weights


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1)
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
    from tf1compat.rnn import fused
    times: dict[str, list[tuple[float, float]]] = {}
    with recorded_sessions(tf) as sessions, tf.Graph().as_default():
        tf.set_random_seed(0)
        ours, _, _ = WORKLOADS["lstm"](tf, np)
        for _ in range(3):
            ours()
        settle_hot_plans(ours, sessions, 600)
        hand = _torch_lstm()
        relaid, fixed, physical = kernel_steps()
        elided_fn, current = elided_weights(), fused.cell_weights

        def elided() -> None:
            fused.cell_weights = elided_fn
            try:
                ours()
            finally:
                fused.cell_weights = current
        kinds = {"ours": ours, "elided": elided, "hand": hand, "relaid": relaid,
                 "fixed": fixed, "physical": physical}
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
