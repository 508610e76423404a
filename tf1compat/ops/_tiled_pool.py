"""2-D max pooling over non-overlapping windows as elementwise torch ops, for compiled graphs.

Where the windows tile the input (strides equal to the window, no padding left to torch:
the 2x2 stride-2 VALID pools of a CNN, and SAME pools whose padding nn_pool.py writes into
the input as -inf, which never wins), each output is the maximum of
kh * kw strided slices of the input, one per window position, and its gradient goes back
to one of those positions.
Written as `torch.where` over the slices, inductor computes the forward in one loop over
the output, and the gradient in one loop over the input that also takes in the Relu
gradient before it (the fused Conv2D + BiasAdd + Relu's backward leaves that
`threshold_backward` to the graph, ops/nn_conv_bias.py): ATen's kernels behind the custom
ops of `_traced_pool` write int64 indices, fill the input gradient with zeros and scatter
into it, and the Relu gradient is one more pass over the input. The benchmark CNN's two
pools, one thread: forward 0.76 -> 0.36 and 0.22 -> 0.14 ms, gradient with the Relu's
1.07 -> 0.52 and 0.40 -> 0.22 ms (docs/performance.md, "CNN step, session 27").

The values are those of ATen's kernels under TF's rule (`_traced_pool`'s docstring): a
window's maximum starts at the lowest finite value and takes a position's value only
where it is strictly greater, so NaN and -inf never win, ties go to the first position in
row-major window order, and a window where nothing wins gives the lowest finite value
with its gradient at the window's first position. The gradient is the pooled gradient at
each window's winning position plus zero, as ATen's kernel adds it into zeros (a -0.0
gradient comes back +0.0), and zero elsewhere, rows and columns past the last whole
window included.

The gradient finds each window's winning position again from the input, as a float
offset (0 .. kh * kw - 1) of the input's dtype: inductor's CPU code for an int8 or int64
offset, or bool masks, beside float data is not vectorized (4.5 ms for the first pool's
forward with an int8 offset, against 0.36 ms).
"""

from __future__ import annotations

from typing import Any, List, Tuple

import torch

__all__ = ["tiles", "tiled_max_pool2d"]

# At most this many positions per window (each is one slice the loops read): every CNN
# pool seen tiles with 2x2 or 3x3 windows.
_MAX_POSITIONS = 16


def tiles(x: torch.Tensor, ksize: List[int], strides: List[int], padding: List[int]) -> bool:
    """Whether `tiled_max_pool2d` computes this max pool of `x` ([N, C, H, W])."""
    return (list(ksize) == list(strides) and not any(padding)
            and ksize[0] * ksize[1] <= _MAX_POSITIONS
            and x.dtype in (torch.float32, torch.float64) and x.dim() == 4)


def _slices(x: torch.Tensor, kh: int, kw: int) -> List[torch.Tensor]:
    """The window positions' strided slices of `x`, in row-major window order."""
    rows, cols = x.shape[2] // kh * kh, x.shape[3] // kw * kw
    return [x[:, :, i:rows:kh, j:cols:kw] for i in range(kh) for j in range(kw)]


def _winners(x: torch.Tensor, kh: int, kw: int) -> Tuple[torch.Tensor, Any]:
    """Each window's maximum under TF's rule, and the offset of the position it came from
    (0 where nothing wins: the first position takes the gradient)."""
    best: Any = torch.finfo(x.dtype).min
    offset: Any = 0.0
    # The offset stays a scalar until a later position can win: a tensor made from a
    # strided slice (zeros_like) would be laid out NCHW beside channels_last data, and
    # inductor's loops over the two layouts at once ran 10x slower.
    for k, s in enumerate(_slices(x, kh, kw)):
        wins = s > best
        best = torch.where(wins, s, best)
        if k:
            offset = torch.where(wins, float(k), offset)
    return best, offset


class _TiledMaxPool(torch.autograd.Function):
    """The pool; its backward finds the winners again from the input, which the
    gradient of the ReLU before the pool reads anyway. Saving the offsets (or, as
    AOTAutograd's partitioner picks, the comparisons' bool masks) made inductor's
    gradient loop read bool or mixed data without vector code: 13 ms instead of 0.5 ms
    for the benchmark CNN's first pool."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, kh: int, kw: int) -> torch.Tensor:
        ctx.save_for_backward(x)
        ctx.window = (kh, kw)
        return _winners(x, kh, kw)[0]

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Tuple[Any, None, None]:
        x, = ctx.saved_tensors
        kh, kw = ctx.window
        best, offset = _winners(x.detach(), kh, kw)
        if not isinstance(offset, torch.Tensor):      # a 1x1 window
            offset = torch.zeros_like(best)
        n, c, h, w = x.shape
        ho, wo = best.shape[2], best.shape[3]
        up = [n, c, ho, kh, wo, kw]
        # Each input position's offset in its window against the window's winner; the
        # winner's gradient plus zero, as ATen's kernel adds it into zeros (-0.0 -> +0.0).
        rows = torch.arange(kh, dtype=grad.dtype, device=grad.device).view(1, 1, 1, kh, 1, 1)
        cols = torch.arange(kw, dtype=grad.dtype, device=grad.device).view(1, 1, 1, 1, 1, kw)
        position = rows * kw + cols
        taken = offset[:, :, :, None, :, None].expand(up) == position
        out = torch.where(taken, grad[:, :, :, None, :, None].expand(up) + 0.0, 0.0)
        out = out.reshape(n, c, ho * kh, wo * kw)
        if ho * kh != h or wo * kw != w:
            out = torch.nn.functional.pad(out, [0, w - wo * kw, 0, h - ho * kh])
        # In the input's layout, as ATen's kernel writes it: the convolution gradient
        # that reads it then runs the same oneDNN kernel as op by op.
        layout = torch.channels_last if x.is_contiguous(memory_format=torch.channels_last) \
            and not x.is_contiguous() else torch.contiguous_format
        return out.contiguous(memory_format=layout), None, None


def tiled_max_pool2d(x: torch.Tensor, ksize: List[int]) -> torch.Tensor:
    """The max pool of `x` ([N, C, H, W]) over windows `ksize` tiling it (`tiles`)."""
    return _TiledMaxPool.apply(x, int(ksize[0]), int(ksize[1]))
