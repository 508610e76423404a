"""Sliding-window geometry shared by convolutions and pooling: TF's padding rules, layouts.

TF's "SAME" padding gives `ceil(in / stride)` outputs and puts the odd padding element at
the END of each spatial axis (bottom/right); "VALID" uses no padding; "EXPLICIT" takes
(before, after) pairs. These functions compute output sizes for shape rules (None for
unknown sizes) and the (before, after) padding kernels apply.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import torch
import torch.nn.functional as F

from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import node_desc

__all__ = ["channels_first", "channel_axis", "check_rank", "spatial_axes", "window_output",
           "window_padding", "spatial_attr", "explicit_pairs", "to_channels_first",
           "from_channels_first", "pad_spatial", "as_str", "transposed_window"]


def as_str(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def channels_first(data_format: Any) -> bool:
    """Whether `data_format` puts channels right after the batch (NCHW, NCDHW, NCW)."""
    return as_str(data_format).startswith("NC")


def spatial_axes(data_format: Any, nd: int) -> List[int]:
    """The axes holding the `nd` spatial dimensions of a rank nd+2 tensor."""
    return list(range(2, nd + 2)) if channels_first(data_format) else list(range(1, nd + 1))


def channel_axis(data_format: Any, nd: int) -> int:
    return 1 if channels_first(data_format) else nd + 1


def spatial_attr(values: Sequence[int], data_format: Any, nd: int) -> List[int]:
    """The spatial entries of a full-rank attr such as strides or ksize."""
    return [int(values[a]) for a in spatial_axes(data_format, nd)]


def explicit_pairs(flat: Sequence[int], data_format: Any, nd: int) -> List[Tuple[int, int]]:
    """(before, after) per spatial axis from TF's flat `explicit_paddings` attr."""
    pairs = [(int(flat[2 * i]), int(flat[2 * i + 1])) for i in range(len(flat) // 2)]
    return [pairs[a] for a in spatial_axes(data_format, nd)]


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def window_padding(size: int, k: int, stride: int, dilation: int, padding: str,
                   explicit: Optional[Tuple[int, int]] = None) -> Tuple[int, int, int]:
    """(output size, pad before, pad after) along one axis, as TF computes them."""
    eff = (k - 1) * dilation + 1
    if padding == "SAME":
        out = -(-size // stride)
        total = max((out - 1) * stride + eff - size, 0)
        return out, total // 2, total - total // 2
    before, after = explicit if (padding == "EXPLICIT" and explicit is not None) else (0, 0)
    # C++ integer division (toward zero), as TF's GetWindowedOutputSize.
    return _trunc_div(size + before + after - eff + stride, stride), before, after


def transposed_window(size_in: int, size_out: int, eff: int, stride: int, dilation: int,
                      before: int) -> Tuple[int, int, int, int]:
    """Along one axis of a transposed convolution (a convolution's input gradient) from
    `size_out` to `size_in` of TF's padding `before`: (torch's padding, its
    output_padding, where to slice the result from, how much to slice off (< 0) or
    zero-pad after (> 0)). Torch's padding crops `before` at both ends and
    output_padding grows the end by less than the stride; where the input needs more
    (an EXPLICIT padding larger before than after), the axis is computed whole (no
    padding) and sliced from `before`."""
    whole = (size_out - 1) * stride + eff
    grow = size_in - (whole - 2 * before)
    limit = max(stride, dilation)
    if 0 <= grow < limit:
        return before, grow, 0, 0
    if grow >= limit and before > 0:
        return 0, 0, before, size_in + before - whole
    return before, 0, 0, grow


def window_output(ctx: Any, size: Optional[int], k: Optional[int], stride: int,
                  dilation: int, padding: str,
                  explicit: Optional[Tuple[int, int]] = None) -> Optional[int]:
    """Static output size along one axis (None when unknown); ValueError like TF's."""
    if size is None:
        return None
    if padding == "SAME":
        return -(-size // stride)      # independent of the window size
    if k is None:
        return None
    eff = (k - 1) * dilation + 1
    before, after = explicit if (padding == "EXPLICIT" and explicit is not None) else (0, 0)
    padded = size + before + after
    if padded < eff:
        suffix = f" {node_desc(ctx)}" if ctx is not None else ""
        raise ValueError(f"Negative dimension size caused by subtracting {eff} from "
                         f"{padded}{suffix}")
    return (padded - eff) // stride + 1


def check_rank(ctx: Any, shape: TensorShape, rank: int) -> List[Optional[int]]:
    """The dims of `shape` (rank `rank`, or all unknown); ValueError like TF's WithRank."""
    if shape.rank is None:
        return [None] * rank
    if shape.rank != rank:
        raise ValueError(f"Shape must be rank {rank} but is rank {shape.rank} "
                         f"{node_desc(ctx)}")
    return shape.as_list()


def to_channels_first(x: torch.Tensor, data_format: Any) -> torch.Tensor:
    """A channels-last tensor as a permuted view [N, C, spatial...] (no copy).

    A contiguous NHWC tensor viewed this way is exactly torch's channels_last memory
    format, so torch's convolution and pooling kernels consume it without copying.
    """
    if channels_first(data_format):
        return x
    nd = x.dim() - 2
    return x.permute(0, nd + 1, *range(1, nd + 1))


def from_channels_first(y: torch.Tensor, data_format: Any) -> torch.Tensor:
    if channels_first(data_format):
        return y
    nd = y.dim() - 2
    return y.permute(0, *range(2, nd + 2), 1)


def pad_spatial(x: torch.Tensor, pads: Sequence[Tuple[int, int]], value: float = 0.0
                ) -> torch.Tensor:
    """Pads the trailing spatial axes of an [N, C, spatial...] tensor by (before, after)."""
    flat: List[int] = []
    for before, after in reversed(list(pads)):
        flat.extend([before, after])
    return F.pad(x, flat, value=value)
