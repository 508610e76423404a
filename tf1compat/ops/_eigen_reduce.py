"""TF's CPU `Sum`/`Mean` over every element of a small float tensor, added in Eigen's order.

A float sum's last bits depend on the order of its additions. TF's full reduction is
Eigen's `FullReducer` (TensorReduction.h), and a training loop that prints
`reduce_mean(loss)` shows those bits (and carries them into the next step through the
gradient). torch's cascade adds in another order from 5 elements on, so this module adds
one Eigen leaf (up to 1,024 packets) as Eigen does, for float32 and float64 on the CPU:
with 4 packets or more, four packet accumulators take interleaved packets and are folded
into the first; further whole packets are added to it; the packet is folded in halves
(lanes i and i + half, down to one: `predux`); the leftover scalars, added one by one,
come first in the final `scalars + predux(packet)`. The packet is 8 floats / 4 doubles
(TF's x86 wheels use AVX). numpy's `add.reduce` along a non-contiguous axis adds row by
row in the input dtype, which is what each accumulator does.

Above one leaf Eigen halves the range at packet boundaries and, above ~258k floats,
splits it over the intra-op threads (checked against TF up to 3M floats while building
this); emulating that costs up to 10x torch's sum, so larger tensors keep torch's order.
"""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np
import torch

__all__ = ["LEAF_ELEMENTS", "full_sum"]

_PACKET = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
_LEAF_PACKETS = 1024          # Eigen's LeafSize<T>() for float and double
# The tensor sizes (by torch dtype) whose full sum is one Eigen leaf.
LEAF_ELEMENTS = {torch.float32: 8 * _LEAF_PACKETS, torch.float64: 4 * _LEAF_PACKETS}


def _leaf_sum(x: np.ndarray) -> np.generic:
    """InnerMostDimReducer's vectorized body over the 1-D `x` (at most one leaf)."""
    n = x.size
    width = _PACKET[x.dtype]
    if n < width:
        total = x[0]
        for value in x[1:]:
            total = total + value
        return total
    whole4 = (n // (4 * width)) * 4 * width
    whole = (n // width) * width
    if whole4:
        lanes = np.add.reduce(x[:whole4].reshape(-1, 4 * width), axis=0)   # row by row
        packet = ((lanes[:width] + lanes[width:2 * width]) + lanes[2 * width:3 * width]) \
            + lanes[3 * width:]
    else:
        packet = x[:width]
    for start in range(whole4 if whole4 else width, whole, width):
        packet = packet + x[start:start + width]
    while packet.size > 2:                                   # predux: fold the halves
        half = packet.size // 2
        packet = packet[:half] + packet[half:]
    folded = packet[0] + packet[1]
    if whole == n:
        return folded
    tail = x[whole]
    for value in x[whole + 1:]:
        tail = tail + value
    return tail + folded


def _value(x: torch.Tensor, mean: bool) -> torch.Tensor:
    flat = x.detach().contiguous().numpy().reshape(-1)
    with np.errstate(all="ignore"):        # inf - inf is NaN, silently, as in TF's kernel
        total = _leaf_sum(flat)
        if mean:
            total = total / flat.dtype.type(flat.size)       # TF: sum / T(count)
    return torch.from_numpy(np.asarray(total, dtype=flat.dtype))


@torch.library.custom_op("tf1compat::eigen_full_sum", mutates_args=())
def _full_sum_op(x: torch.Tensor, mean: bool) -> torch.Tensor:
    """An op of its own, so compiled plans call it as it is (inductor would generate its
    own reduction order)."""
    return _value(x, mean)


@_full_sum_op.register_fake
def _full_sum_shape(x: torch.Tensor, mean: bool) -> torch.Tensor:
    return x.new_empty(())


def _full_sum_context(ctx: Any, inputs: Tuple[Any, ...], output: Any) -> None:
    x, mean = inputs
    ctx.shape, ctx.count, ctx.mean = x.shape, x.numel(), mean


def _full_sum_backward(ctx: Any, grad: torch.Tensor) -> Tuple[torch.Tensor, None]:
    if ctx.mean:
        grad = grad / ctx.count                               # TF's Mean grad: truediv
    return grad.expand(ctx.shape), None


_full_sum_op.register_autograd(_full_sum_backward, setup_context=_full_sum_context)


class _FullSum(torch.autograd.Function):
    """The same with a cheaper autograd node, for plans that run op by op."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, mean: bool) -> torch.Tensor:
        _full_sum_context(ctx, (x, mean), None)
        return _value(x, mean)

    backward = staticmethod(_full_sum_backward)


def full_sum(x: torch.Tensor, mean: bool = False) -> torch.Tensor:
    """The sum (or mean) of every element of the CPU float tensor `x` (1 to
    LEAF_ELEMENTS[dtype] of them), as TF's CPU kernel adds it; a 0-d tensor of x's dtype."""
    if torch.compiler.is_compiling():
        return _full_sum_op(x, mean)
    if x.requires_grad and torch.is_grad_enabled():
        return _FullSum.apply(x, mean)
    return _value(x, mean)
