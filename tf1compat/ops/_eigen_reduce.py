"""TF's CPU `Sum`/`Mean` over every element of a small float tensor, or over its trailing
dimensions, added in Eigen's order.

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

A reduction over trailing dimensions (a loss's `reduce_sum(..., axis=1)`) adds each row
the same way (TF views the tensor as [rows, n] and reduces the inner dimension), so the
rows are added side by side.

Above one leaf Eigen halves the range at packet boundaries and, above ~258k floats,
splits it over the intra-op threads (checked against TF up to 3M floats while building
this); emulating that costs up to 10x torch's sum, so larger tensors keep torch's order.
"""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np
import torch

__all__ = ["LEAF_ELEMENTS", "inner_sum"]

_PACKET = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
_LEAF_PACKETS = 1024          # Eigen's LeafSize<T>() for float and double
# The most elements (by torch dtype) one sum may add as one Eigen leaf.
LEAF_ELEMENTS = {torch.float32: 8 * _LEAF_PACKETS, torch.float64: 4 * _LEAF_PACKETS}


def _rows_leaf_sums(rows: np.ndarray) -> np.ndarray:
    """InnerMostDimReducer's vectorized body (one leaf, no tree split) over each row of
    the 2-D `rows`, the rows side by side."""
    count, n = rows.shape
    width = _PACKET[rows.dtype]
    if n < width:
        return np.add.accumulate(rows, axis=1)[:, -1]
    whole4 = (n // (4 * width)) * 4 * width
    whole = (n // width) * width
    if whole4:
        lanes = np.add.reduce(rows[:, :whole4].reshape(count, -1, 4, width), axis=1)
        packet = ((lanes[:, 0] + lanes[:, 1]) + lanes[:, 2]) + lanes[:, 3]
    else:
        packet = rows[:, :width]
    for start in range(whole4 if whole4 else width, whole, width):
        packet = packet + rows[:, start:start + width]
    while packet.shape[1] > 1:                               # predux: fold the halves
        half = packet.shape[1] // 2
        packet = packet[:, :half] + packet[:, half:]
    if whole == n:
        return packet[:, 0]
    return np.add.accumulate(rows[:, whole:], axis=1)[:, -1] + packet[:, 0]


def _value(x: torch.Tensor, inner: int, mean: bool) -> torch.Tensor:
    """The sums over x's last `inner` dimensions (all of them: a 0-d tensor)."""
    outer = x.shape[:x.dim() - inner]
    count = 1
    for d in x.shape[x.dim() - inner:]:
        count *= d
    rows = x.detach().contiguous().numpy().reshape(-1, count)
    with np.errstate(all="ignore"):        # inf - inf is NaN, silently, as in TF's kernel
        total = _rows_leaf_sums(rows).reshape(outer)
        if mean:
            total = total / rows.dtype.type(count)           # TF: sum / T(count)
    return torch.from_numpy(np.asarray(total, dtype=rows.dtype))


@torch.library.custom_op("tf1compat::eigen_inner_sum", mutates_args=())
def _inner_sum_op(x: torch.Tensor, inner: int, mean: bool) -> torch.Tensor:
    """An op of its own, so compiled plans call it as it is (inductor would generate its
    own reduction order)."""
    return _value(x, inner, mean)


@_inner_sum_op.register_fake
def _inner_sum_shape(x: torch.Tensor, inner: int, mean: bool) -> torch.Tensor:
    return x.new_empty(x.shape[:x.dim() - inner])


def _inner_sum_context(ctx: Any, inputs: Tuple[Any, ...], output: Any) -> None:
    x, inner, mean = inputs
    ctx.shape, ctx.inner, ctx.mean = x.shape, inner, mean


def _inner_sum_backward(ctx: Any, grad: torch.Tensor) -> Tuple[torch.Tensor, None, None]:
    reduced = ctx.shape[len(ctx.shape) - ctx.inner:]
    if ctx.mean:
        count = 1
        for d in reduced:
            count *= d
        grad = grad / count                                   # TF's Mean grad: truediv
    grad = grad.reshape(tuple(grad.shape) + (1,) * ctx.inner)
    return grad.expand(ctx.shape), None, None


_inner_sum_op.register_autograd(_inner_sum_backward, setup_context=_inner_sum_context)


class _InnerSum(torch.autograd.Function):
    """The same with a cheaper autograd node, for plans that run op by op."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, inner: int, mean: bool) -> torch.Tensor:
        _inner_sum_context(ctx, (x, inner, mean), None)
        return _value(x, inner, mean)

    backward = staticmethod(_inner_sum_backward)


def inner_sum(x: torch.Tensor, inner: int, mean: bool = False) -> torch.Tensor:
    """The sums (or means) over the last `inner` dimensions of the CPU float tensor `x`
    (each of 1 to LEAF_ELEMENTS[dtype] elements), as TF's CPU kernel adds them; a tensor of
    x's leading dimensions (0-d where `inner` is x.dim())."""
    if torch.compiler.is_compiling():
        return _inner_sum_op(x, inner, mean)
    if x.requires_grad and torch.is_grad_enabled():
        return _InnerSum.apply(x, inner, mean)
    return _value(x, inner, mean)
