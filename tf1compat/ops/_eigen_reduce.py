"""TF's CPU float sums added in the order TF's kernels add them: `Sum`/`Mean` (Eigen's
reductions), also where some gradients of broadcasting ops reduce (ops/_grad_formulas.py).

A float sum's last bits depend on the order of its additions, and a training loop that
prints `reduce_mean(loss)` (or a weight updated by a summed gradient) shows them. torch
adds in other orders (a cascade from 5 elements on), so this module adds as TF does, for
float32 and float64 on the CPU. TF first simplifies the shape as its ReductionHelper does
(size-1 dimensions dropped, neighbours both reduced or both kept merged), then:

* `full` ([n] -> []) and `rows` ([m, n] -> [m]): Eigen's InnerMostDimReducer over each
  row, one leaf (up to 1,024 packets): with 4 packets or more, four packet accumulators
  take interleaved packets and are folded into the first; further whole packets are
  added to it; the packet is folded in halves (lanes i and i + half, down to one:
  `predux`); the leftover scalars, added one by one, come first in the final
  `scalars + predux(packet)`. The packet is 8 floats / 4 doubles (TF's x86 wheels use
  AVX). Above one leaf Eigen halves the range at packet boundaries and, above ~258k
  floats, splits it over the intra-op threads; emulating that costs up to 10x torch's
  sum, so larger rows keep torch's order.
* `columns` ([n, k] -> [k], or [a, n, k] -> [a, k]): Eigen's InnerMostDimPreserver.
  The output is evaluated in packets along its flat index: a packet inside one output
  row adds its n input packets with, from 16 on, four accumulators taking rows j % 4 of
  the first n - n % 4 rows, folded ((a0 + a1) + a2) + a3, then the leftover rows one by
  one; every other output element (a packet crossing a row end, the flat tail) adds its
  n values one by one.
Every sum starts from +0, so a zero result is +0 (numpy starts from the first value:
`+ 0` restores that). numpy's `add.reduce` down the outer axis of a
C-contiguous 2-D array is the one-by-one sum (`_down_columns`).
"""

from __future__ import annotations

import functools
import math
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np
import torch

__all__ = ["LEAF_ELEMENTS", "eigen_sum", "reduction_view", "tf_reduce_to",
           "expand_with_tf_grad"]

_PACKET = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
_LEAF_PACKETS = 1024          # Eigen's LeafSize<T>() for float and double
# The most elements (by torch dtype) one sum may add as one Eigen leaf.
LEAF_ELEMENTS = {torch.float32: 8 * _LEAF_PACKETS, torch.float64: 4 * _LEAF_PACKETS}
# Above this many elements a row or column reduction keeps torch's order (the
# emulation's numpy passes cost more than torch's sum).
_EMULATED_ELEMENTS = 65536


def reduction_view(shape: Sequence[int], dims: Sequence[int]) -> Optional[Tuple[str, tuple]]:
    """TF's ReductionHelper view of reducing `shape` over `dims`, when this module adds it
    in TF's order: ("full", (n,)), ("rows", (m, n)) or ("columns", (a, n, k)); None for
    the other views (empty tensors, nothing reduced, [a, n, k] over a and k) and beyond
    the sizes emulated."""
    rank = len(shape)
    reduced = {d % rank for d in dims}
    groups: List[List[Any]] = []
    for axis, size in enumerate(shape):
        if size == 0:
            return None
        if size == 1:
            continue
        is_reduced = axis in reduced
        if groups and groups[-1][0] == is_reduced:
            groups[-1][1] *= size
        else:
            groups.append([is_reduced, size])
    kinds = tuple(g[0] for g in groups)
    sizes = tuple(g[1] for g in groups)
    total = math.prod(sizes)
    if kinds == (True,):
        return ("full", sizes) if sizes[0] <= _LEAF_PACKETS * 8 else None
    if total > _EMULATED_ELEMENTS:
        return None
    if kinds == (False, True):
        return ("rows", sizes) if sizes[1] <= _LEAF_PACKETS * 8 else None
    if kinds == (True, False):
        return "columns", (1,) + sizes
    if kinds == (False, True, False):
        return "columns", sizes
    return None


def _down_columns(values: np.ndarray) -> np.ndarray:
    """[n, m] -> [m]: each column added one by one, top to bottom. numpy's `add.reduce`
    adds pairwise along its inner loop, but one by one down the outer axis of a
    C-contiguous [n, m] array with m >= 2 (checked against a loop on 3,000 random
    shapes), 30x quicker than `add.accumulate`."""
    flat = np.ascontiguousarray(values)
    if flat.shape[1] == 1:                     # a second column keeps the reduce outer
        return np.add.reduce(np.concatenate([flat, np.zeros_like(flat)], axis=1),
                             axis=0)[:1]
    return np.add.reduce(flat, axis=0)


def _four_lanes(values: np.ndarray) -> np.ndarray:
    """[n, m] (n >= 16) -> [m]: Eigen's four accumulators taking rows j % 4 of the first
    n - n % 4 rows, folded ((a0 + a1) + a2) + a3, then the other rows one by one."""
    n, m = values.shape
    whole = (n // 4) * 4
    lanes = _down_columns(values[:whole].reshape(whole // 4, 4 * m)).reshape(4, m)
    total = ((lanes[0] + lanes[1]) + lanes[2]) + lanes[3]
    for j in range(whole, n):
        total = total + values[j]
    return total


def _rows_leaf_sums(rows: np.ndarray) -> np.ndarray:
    """InnerMostDimReducer's vectorized body (one leaf, no tree split) over each row of
    the 2-D `rows`, the rows side by side."""
    count, n = rows.shape
    width = _PACKET[rows.dtype]
    if n < width:
        return _down_columns(rows.T)
    whole4 = (n // (4 * width)) * 4 * width
    whole = (n // width) * width
    if whole4:
        # [packets / 4, count * 4 * width]: the four accumulators of every row side by
        # side, each adding its packets one by one.
        groups = rows[:, :whole4].reshape(count, -1, 4 * width).transpose(1, 0, 2)
        lanes = _down_columns(groups.reshape(groups.shape[0], -1)).reshape(count, 4, width)
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
    return _down_columns(rows[:, whole:].T) + packet[:, 0]


def _full_leaf_sum(v: np.ndarray) -> Any:
    """`_rows_leaf_sums` of the one row `v` (1-D, C-contiguous) in fewer numpy calls (a
    loss is such a sum, every step): the folds as reductions down the outer axis, which
    numpy adds one by one (`_down_columns`; two rows: one addition)."""
    n, width = v.shape[0], _PACKET[v.dtype]
    if n < width:
        return _down_columns(v.reshape(n, 1))[0]
    whole4 = (n // (4 * width)) * 4 * width
    whole = (n // width) * width
    if whole4:
        lanes = np.add.reduce(v[:whole4].reshape(-1, 4 * width), axis=0)
        packet = np.add.reduce(lanes.reshape(4, width), axis=0)
    else:
        packet = v[:width]
    for start in range(whole4 if whole4 else width, whole, width):
        packet = packet + v[start:start + width]
    while packet.shape[0] > 1:                               # predux: fold the halves
        packet = np.add.reduce(packet.reshape(2, -1), axis=0)
    if whole == n:
        return packet[0]
    return _down_columns(v[whole:].reshape(-1, 1))[0] + packet[0]


def _packet_columns(values: np.ndarray) -> np.ndarray:
    """[n, m] -> [m] for m columns of whole input packets, side by side."""
    return _four_lanes(values) if values.shape[0] >= 16 else _down_columns(values)


def _column_sums(x3: np.ndarray) -> np.ndarray:
    """[a, n, k] -> [a, k], as Eigen evaluates the flat output in packets."""
    a, n, k = x3.shape
    width = _PACKET[x3.dtype]
    if k % width == 0:                                        # every packet in a row
        side = x3.transpose(1, 0, 2).reshape(n, a * k)
        return _packet_columns(side).reshape(a, k)
    if a == 1:                                                # packets, then the tail
        packed = (k // width) * width
        out = np.empty(k, x3.dtype)
        if packed:
            out[:packed] = _packet_columns(x3[0, :, :packed])
        out[packed:] = _down_columns(x3[0, :, packed:])
        return out.reshape(1, k)
    out = np.empty(a * k, x3.dtype)
    starts = np.arange((a * k) // width) * width
    inside = starts[(starts % k) + width <= k]                # packets within one row
    done = np.zeros(a * k, bool)
    if inside.size:
        rows, cols = inside // k, inside % k
        gather = cols[:, None] + np.arange(width)[None, :]    # [p, width] columns
        block = x3[rows[:, None, None], np.arange(n)[None, :, None], gather[:, None, :]]
        side = block.transpose(1, 0, 2).reshape(n, -1)
        out_index = (inside[:, None] + np.arange(width)[None, :]).reshape(-1)
        out[out_index] = _packet_columns(side)
        done[out_index] = True
    rest = np.nonzero(~done)[0]
    if rest.size:
        out[rest] = _down_columns(x3[rest // k, :, rest % k].T)
    return out.reshape(a, k)


def _value(x: torch.Tensor, kind: str, sizes: Sequence[int], mean: bool) -> torch.Tensor:
    values = x.detach().contiguous().numpy().reshape(tuple(sizes))
    with np.errstate(all="ignore"):        # inf - inf is NaN, silently, as in TF's kernel
        if kind == "full":
            total = _full_leaf_sum(values)
        elif kind == "rows":
            total = _rows_leaf_sums(values)
        else:
            total = _column_sums(values)
        total = total + values.dtype.type(0)
        if mean:
            count = math.prod(sizes) // max(total.size, 1)
            total = total / values.dtype.type(count)          # TF: sum / T(count)
    return torch.from_numpy(np.asarray(total, dtype=values.dtype))


def _kept_shape(kind: str, sizes: Sequence[int]) -> List[int]:
    """The view's output shape."""
    if kind == "full":
        return []
    if kind == "rows":
        return [sizes[0]]
    return [sizes[0], sizes[2]]                                # columns


def _kept_ones(kind: str, sizes: Sequence[int]) -> List[int]:
    """The view's shape with its reduced dimensions as 1."""
    if kind == "full":
        return [1]
    if kind == "rows":
        return [sizes[0], 1]
    return [sizes[0], 1, sizes[2]]                             # columns


@torch.library.custom_op("tf1compat::eigen_sum", mutates_args=())
def _eigen_sum_op(x: torch.Tensor, kind: str, sizes: List[int], mean: bool) -> torch.Tensor:
    """An op of its own, so compiled plans call it as it is (inductor would generate its
    own reduction order)."""
    return _value(x, kind, sizes, mean)


@_eigen_sum_op.register_fake
def _eigen_sum_shape(x: torch.Tensor, kind: str, sizes: List[int], mean: bool
                     ) -> torch.Tensor:
    return x.new_empty(_kept_shape(kind, sizes))


def _eigen_sum_context(ctx: Any, inputs: Tuple[Any, ...], output: Any) -> None:
    x, kind, sizes, mean = inputs
    ctx.shape, ctx.kind, ctx.sizes, ctx.mean = x.shape, kind, list(sizes), mean


def _eigen_sum_backward(ctx: Any, grad: torch.Tensor) -> tuple:
    if ctx.mean:
        count = math.prod(ctx.sizes) // max(math.prod(_kept_shape(ctx.kind, ctx.sizes)), 1)
        grad = grad / count                                   # TF's Mean grad: truediv
    grad = grad.reshape(_kept_ones(ctx.kind, ctx.sizes)).expand(ctx.sizes)
    return grad.reshape(ctx.shape), None, None, None


_eigen_sum_op.register_autograd(_eigen_sum_backward, setup_context=_eigen_sum_context)


def _tracked(x: torch.Tensor, kind: str, sizes: List[int], mean: bool,
             dims: Tuple[int, ...]) -> torch.Tensor:
    """The sum for autograd (`dims`: the reduced dimensions of `x`, sorted). torch's own
    reduction gives the node, whose backward is TF's gradient (expanded, for Mean divided
    by the count: elementwise the same bits), and the value is then replaced by TF's:
    cheaper both ways than an autograd.Function of Python. Neither node saves its
    output, so overwriting it leaves the gradient alone."""
    out = torch.mean(x, dims) if mean else torch.sum(x, dims)
    with torch.no_grad():
        out.copy_(_value(x, kind, sizes, mean).reshape(out.shape))
    return out


def _exporting() -> bool:
    exporting = getattr(torch.compiler, "is_exporting", None)
    return exporting is not None and exporting()


def _emulated(x: torch.Tensor) -> bool:
    # torch.export keeps torch's order: an exported program holds ATen ops only.
    return x.device.type == "cpu" and x.dtype in LEAF_ELEMENTS and x.dim() > 0 and \
        not _exporting()


def eigen_sum(x: torch.Tensor, dims: Sequence[int], mean: bool = False
              ) -> Optional[torch.Tensor]:
    """TF's CPU `Sum` (or `Mean`) of `x` over `dims` (shaped as torch's sum without
    keepdim), added in TF's order; None where this module keeps torch's order (other
    devices and dtypes, views it does not emulate, sums of 4 elements or fewer, which
    torch also adds one by one)."""
    if not _emulated(x):
        return None
    compiling = torch.compiler.is_compiling()
    # (Shapes repeat run after run: the view is cached, but not of a traced shape.)
    found = (_view_and_dims if compiling else _cached_view)(tuple(x.shape), tuple(dims))
    if found is None:
        return None
    kind, sizes, reduced = found
    if compiling:
        out = _eigen_sum_op(x, kind, list(sizes), mean)
    elif x.requires_grad and torch.is_grad_enabled():
        return _tracked(x, kind, list(sizes), mean, reduced)
    else:
        out = _value(x, kind, sizes, mean)
    return out.reshape([n for i, n in enumerate(x.shape) if i not in reduced])


def _view_and_dims(shape: Tuple[int, ...], dims: Tuple[int, ...]
                   ) -> Optional[Tuple[str, tuple, Tuple[int, ...]]]:
    """`reduction_view` and the reduced dimensions (sorted), where `eigen_sum` emulates
    the sum."""
    view = reduction_view(shape, dims)
    if view is None:
        return None
    kind, sizes = view
    if kind in ("full", "rows") and sizes[-1] < 5:
        return None
    return kind, sizes, tuple(sorted({d % len(shape) for d in dims}))


_cached_view = functools.lru_cache(maxsize=256)(_view_and_dims)


def tf_reduce_to(grad: torch.Tensor, shape: Sequence[int]) -> torch.Tensor:
    """A broadcast gradient summed back to `shape` as TF's gradient does it
    (BroadcastGradientArgs' axes, Sum in Eigen's order where emulated, Reshape)."""
    shape = tuple(shape)
    if tuple(grad.shape) == shape:
        return grad
    lead = grad.dim() - len(shape)
    axes = list(range(lead)) + [lead + i for i, n in enumerate(shape)
                                if n == 1 and grad.shape[lead + i] != 1]
    out = eigen_sum(grad, axes) if axes else None
    if out is None:
        out = grad.sum(dim=axes) if axes else grad
    return out.reshape(shape)


@torch.library.custom_op("tf1compat::expand_tf_grad", mutates_args=())
def _expand_op(x: torch.Tensor, shape: List[int]) -> torch.Tensor:
    """`_Expand` for compiled plans (a custom op cannot return a view: a copy)."""
    return x.expand(shape).clone()


@_expand_op.register_fake
def _expand_shape(x: torch.Tensor, shape: List[int]) -> torch.Tensor:
    return x.new_empty(shape)


def _expand_context(ctx: Any, inputs: Tuple[Any, ...], output: Any) -> None:
    ctx.in_shape = tuple(inputs[0].shape)


def _expand_backward(ctx: Any, grad: torch.Tensor) -> tuple:
    return tf_reduce_to(grad, ctx.in_shape), None


_expand_op.register_autograd(_expand_backward, setup_context=_expand_context)


class _Expand(torch.autograd.Function):
    """x broadcast to `shape`; its gradient summed back in TF's order."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, shape: List[int]) -> torch.Tensor:
        _expand_context(ctx, (x, shape), None)
        return x.expand(shape)

    backward = staticmethod(_expand_backward)


def expand_with_tf_grad(x: torch.Tensor, shape: Sequence[int]) -> torch.Tensor:
    """`x` broadcast to `shape` for a broadcasting op whose gradient TF sums with `Sum`
    over the broadcast axes."""
    if torch.compiler.is_compiling():
        if _exporting():
            return x.expand(shape)
        return _expand_op(x, list(shape))
    return _Expand.apply(x, list(shape))
