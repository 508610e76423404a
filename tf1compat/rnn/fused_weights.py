"""A recognised RNN cell's TF variables as the weights of torch's fused RNN kernels.

TF keeps one kernel `[input + units, gates * units]` (LSTM gates in the order i, j, f, o)
and one bias; torch's kernels take `w_ih [gates * units, input]`, `w_hh [gates * units,
units]`, `b_ih`, `b_hh` (LSTM gates i, f, g=j, o). `cell_weights` re-lays them once per
run with one autograd node (`_CellWeights`): the four tensors are views of one fresh
buffer in the layout the device's kernel reads — on CUDA cuDNN's own (asked of torch once
per shape), so cuDNN uses the buffer as it is instead of compacting separate tensors into
a copy on every call — and the backward maps the kernel's weight gradients straight back
onto TF's kernel and bias. `forget_bias` is added to the forget gate's bias; `b_hh` is
zero (TF's cells have one bias).
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass
from typing import Any, Optional, Tuple

import torch

__all__ = ["BiasLayout", "KernelLayout", "cell_weights", "held_lstm_weights"]

# torch.backends.cudnn.rnn's mode names for the kinds rnn/fused.py recognises.
_CUDNN_MODES = {"lstm": "LSTM", "rnn_tanh": "RNN_TANH", "rnn_relu": "RNN_RELU"}


@dataclass(frozen=True)
class _Layout:
    """Where w_ih, w_hh, b_ih, b_hh lie in the buffer (element offsets), its size, and
    whether it has gaps (cuDNN may align its matrices): gaps are zero-filled."""
    shapes: Tuple[Tuple[int, ...], ...]
    offsets: Tuple[int, ...]
    total: int
    gaps: bool

    def views(self, flat: torch.Tensor) -> Tuple[torch.Tensor, ...]:
        return tuple(flat[o:o + _numel(s)].view(s) for o, s in zip(self.offsets, self.shapes))


def _numel(shape: Tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


@functools.lru_cache(maxsize=64)
def _layout(kind: str, depth: int, units: int, dtype: torch.dtype,
            device: torch.device) -> _Layout:
    rows = (4 if kind == "lstm" else 1) * units
    shapes = ((rows, depth), (rows, units), (rows,), (rows,))
    if device.type == "cuda":
        found = _cudnn_layout(kind, depth, units, shapes, dtype, device)
        if found is not None:
            return found
    offsets, at = [], 0
    for s in shapes:
        offsets.append(at)
        at += _numel(s)
    return _Layout(shapes, tuple(offsets), at, False)


def _cudnn_layout(kind: str, depth: int, units: int, shapes: Tuple[Tuple[int, ...], ...],
                  dtype: torch.dtype, device: torch.device) -> Optional[_Layout]:
    """cuDNN's weight buffer for one layer, read off torch's own flattening (what
    nn.LSTM.flatten_parameters does) applied to placeholder tensors; None when cuDNN
    does not serve this dtype or device (torch's CUDA kernels then take any layout)."""
    probe = torch.empty(0, dtype=dtype, device=device)
    if not torch.backends.cudnn.is_acceptable(probe) or \
            not torch._use_cudnn_rnn_flatten_weight():
        return None
    from torch.backends.cudnn import rnn as cudnn_rnn
    weights = [torch.empty(s, dtype=dtype, device=device) for s in shapes]
    try:
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            flat = torch._cudnn_rnn_flatten_weight(
                weights, 4, depth, cudnn_rnn.get_cudnn_mode(_CUDNN_MODES[kind]), units, 0,
                1, False, False)
    except RuntimeError:
        return None
    size = flat.element_size()
    offsets = tuple((w.data_ptr() - flat.data_ptr()) // size for w in weights)
    if any(not w.is_contiguous() for w in weights):
        return None
    used = sum(_numel(s) for s in shapes)
    return _Layout(shapes, offsets, flat.numel(), used != flat.numel())


@functools.lru_cache(maxsize=64)
def _gate_order(units: int, device: torch.device) -> torch.Tensor:
    """Rows of TF's LSTM kernel (transposed) in torch's gate order: TF's blocks are i, j,
    f, o; torch's are i, f, g(=j), o. The map is its own inverse (it swaps two blocks)."""
    u = units
    return torch.cat([torch.arange(0, u), torch.arange(2 * u, 3 * u),
                      torch.arange(u, 2 * u), torch.arange(3 * u, 4 * u)]).to(device)


class _CellWeights(torch.autograd.Function):
    """(kernel, bias) -> (w_ih, w_hh, b_ih, b_hh), views of one buffer (see module doc)."""

    @staticmethod
    def forward(ctx: Any, kernel: torch.Tensor, bias: torch.Tensor, depth: int,
                order: Optional[torch.Tensor], forget_bias: float,
                layout: _Layout) -> Tuple[torch.Tensor, ...]:
        flat = kernel.new_zeros(layout.total) if layout.gaps else \
            kernel.new_empty(layout.total)
        w_ih, w_hh, b_ih, b_hh = layout.views(flat)
        if order is None:
            w_ih.copy_(kernel[:depth].t())
            w_hh.copy_(kernel[depth:].t())
            b_ih.copy_(bias)
        else:
            # Transposed once, then whole rows gathered: index_select along the rows of
            # a transposed view reads one strided column per row (1.6x slower on the CPU).
            rows = kernel.t().contiguous()
            torch.index_select(rows[:, :depth], 0, order, out=w_ih)
            torch.index_select(rows[:, depth:], 0, order, out=w_hh)
            torch.index_select(bias, 0, order, out=b_ih)
            if forget_bias:
                units = order.shape[0] // 4
                b_ih[units:2 * units].add_(forget_bias)
        b_hh.zero_()
        ctx.order = order
        ctx.mark_non_differentiable(b_hh)
        return w_ih, w_hh, b_ih, b_hh

    @staticmethod
    def backward(ctx: Any, g_ih: torch.Tensor, g_hh: torch.Tensor, g_bias: torch.Tensor,
                 _: Any) -> tuple:
        order = ctx.order
        g_rows = torch.cat([g_ih, g_hh], 1)          # [gates * units, input + units]
        if order is not None:
            g_rows = g_rows.index_select(0, order)
            g_bias = g_bias.index_select(0, order)
        return g_rows.t().contiguous(), g_bias, None, None, None, None


def cell_weights(kind: str, units: int, forget_bias: float, kernel: torch.Tensor,
                 bias: torch.Tensor, depth: int) -> Tuple[torch.Tensor, ...]:
    """torch's (w_ih, w_hh, b_ih, b_hh) for a cell of `kind` ("lstm", "rnn_tanh",
    "rnn_relu") from TF's `kernel` and `bias`; gradients reach both."""
    layout = _layout(kind, depth, units, kernel.dtype, kernel.device)
    order = _gate_order(units, kernel.device) if kind == "lstm" else None
    return _CellWeights.apply(kernel, bias, depth, order, forget_bias if order is not None
                              else 0.0, layout)


# -- the LSTM's variables kept in torch's layout across runs ---------------------------------
# (docs/performance.md "## lstm12": runtime/physical_store.py holds them so; these say how
# TF's tensors map to torch's and back, and feed the kernel from them.)

@dataclass(frozen=True)
class KernelLayout:
    """An LSTM kernel `[depth + units, 4 * units]` held as one flat tensor: torch's w_ih
    `[4 * units, depth]` then w_hh `[4 * units, units]` (gates i, f, g, o), the buffer
    `cell_weights` would build each run. The maps only move elements (bit-exact) and are
    differentiable. A TF kernel has rank 2, the flat form rank 1."""
    depth: int
    units: int
    tf_rank = 2

    def to_physical(self, kernel: torch.Tensor) -> torch.Tensor:
        order = _gate_order(self.units, kernel.device)
        rows = kernel.t().contiguous()
        return torch.cat([rows[:, :self.depth].index_select(0, order).reshape(-1),
                          rows[:, self.depth:].index_select(0, order).reshape(-1)])

    def to_tf(self, flat: torch.Tensor) -> torch.Tensor:
        w_ih, w_hh = self.split(flat)
        rows = torch.cat([w_ih, w_hh], 1).index_select(0, _gate_order(self.units,
                                                                      flat.device))
        return rows.t().contiguous()

    def split(self, flat: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """w_ih and w_hh, views of `flat`. One split node: its backward is one `cat` of
        the two gradients (separate slices would each fill a zero buffer of the flat
        size and add them)."""
        rows = 4 * self.units
        w_ih, w_hh = torch.split(flat, [rows * self.depth, rows * self.units])
        return w_ih.view(rows, self.depth), w_hh.view(rows, self.units)


@dataclass(frozen=True)
class BiasLayout:
    """An LSTM bias `[4 * units]` held in torch's gate order as `[4, units]` (rank 2, so
    its form is told from TF's by the rank, as the kernel's)."""
    units: int
    tf_rank = 1

    def to_physical(self, bias: torch.Tensor) -> torch.Tensor:
        # (A tensor of its own storage, not a view: the update's ownership test.)
        return bias.index_select(0, _gate_order(self.units, bias.device)).view(
            4, self.units).clone()

    def to_tf(self, held: torch.Tensor) -> torch.Tensor:
        return held.reshape(-1).index_select(0, _gate_order(self.units, held.device))


@functools.lru_cache(maxsize=64)
def _b_hh(units: int, forget_bias: float, dtype: torch.dtype,
          device: torch.device) -> torch.Tensor:
    """A held LSTM's b_hh (never written: the kernels only read it): `forget_bias` at
    the forget gate (torch's second block), zero elsewhere; all zero for 0."""
    row = torch.zeros(4 * units, dtype=dtype, device=device)
    if forget_bias:
        row[units:2 * units] = forget_bias
    return row


def held_lstm_weights(units: int, forget_bias: float, kernel: torch.Tensor,
                      bias: torch.Tensor, depth: int, fold: bool = False
                      ) -> Tuple[torch.Tensor, ...]:
    """torch's (w_ih, w_hh, b_ih, b_hh) for an LSTM whose kernel and/or bias are held in
    torch's layout (`KernelLayout`, `BiasLayout`; one in TF's is re-laid here): the same
    values `cell_weights` gives, and gradients in the held forms.

    `fold`: the kernel that takes them adds b_ih + b_hh before anything else (oneDNN's
    float32 LSTM on the CPU: one bias); then b_ih is the held bias itself and b_hh
    carries `forget_bias`, so no copy of the bias is made. The kernel's sum is then
    `cell_weights`' `(bias + forget_bias) + 0` bit for bit: `y + 0` is `y` unless `y` is
    -0, and `bias + forget_bias` is never -0 for a non-zero `forget_bias` (a zero one is
    not added at all). Kernels that add the biases separately (torch's own CPU LSTM:
    float64, packed sequences) need `fold` False."""
    k_layout, b_layout = KernelLayout(depth, units), BiasLayout(units)
    if kernel.dim() == k_layout.tf_rank:
        kernel = k_layout.to_physical(kernel)
    if bias.dim() == b_layout.tf_rank:
        bias = b_layout.to_physical(bias)
    # Views (autograd's own nodes, no Python in the backward): gradients reach the flat
    # kernel as one `cat`, the bias as a view.
    w_ih, w_hh = k_layout.split(kernel)
    forget_bias = float(forget_bias)
    if fold:
        return w_ih, w_hh, bias.view(-1), _b_hh(units, forget_bias, bias.dtype, bias.device)
    b_ih = bias.reshape(-1).clone()
    if forget_bias:
        b_ih[units:2 * units] += forget_bias
    return w_ih, w_hh, b_ih, _b_hh(units, 0.0, bias.dtype, bias.device)
