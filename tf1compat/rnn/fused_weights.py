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

__all__ = ["cell_weights"]

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
