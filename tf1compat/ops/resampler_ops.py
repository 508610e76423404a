"""`Resampler` / `ResamplerGrad`, the ops of TF 1.15's `tf.contrib.resampler`: bilinear
sampling of a batch of images [batch, height, width, channels] at arbitrary (x, y)
points `warp` [batch, ..., 2] (x indexes the width).

As TF's kernel, the image is implicitly padded with zeros: a point with -1 < x < width
and -1 < y < height mixes its four neighbours (those outside the image count as 0), any
other point gives 0, so the sampled signal fades to 0 at the border instead of jumping.
Gradients flow to the image and to the coordinates (autograd through the same formula;
ResamplerGrad is that vector-Jacobian product, as TF's gradient op).
"""

from __future__ import annotations

from typing import Any, Callable, List

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._shape_rules import node_desc

__all__ = ["resampler", "resampler_grad"]

_FLOATS = Type((D.float16, D.bfloat16, D.float32, D.float64))


def _dims(shape: torch.Size) -> str:
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def _check_shapes(data: torch.Tensor, warp: torch.Tensor) -> None:
    """TF's kernel checks, in its order and words."""
    if data.dim() != 4:
        raise errors.UnimplementedError(
            None, None, "Only bilinear interpolation is currently supported. The input data "
            "shape must be [batch_size, data_height, data_width, data_channels], but is: "
            + _dims(data.shape))
    if warp.dim() < 2:
        raise errors.InvalidArgumentError(
            None, None, "warp should be at least a matrix, got shape " + _dims(warp.shape))
    if warp.shape[-1] != 2:
        raise errors.UnimplementedError(
            None, None, "Only bilinear interpolation is supported, warping coordinates must "
            "be 2D; warp shape last entry should be 2, but shape vector is: "
            + _dims(warp.shape))
    if data.shape[0] != warp.shape[0]:
        raise errors.InvalidArgumentError(
            None, None, "Batch size of data and warp tensor must be the same, but input "
            f"shapes are: {_dims(data.shape)}, {_dims(warp.shape)}")


def _resample(data: torch.Tensor, warp: torch.Tensor) -> torch.Tensor:
    batch, height, width, channels = data.shape
    points = warp.reshape(batch, -1, 2)
    x, y = points[..., 0], points[..., 1]
    inside = (x > -1) & (y > -1) & (x < width) & (y < height)
    # The floors are taken in float32 as TF's kernel does (for half inputs too).
    fx = torch.floor(x.detach().float()).long()
    fy = torch.floor(y.detach().float()).long()
    dx = (fx + 1).to(x.dtype) - x   # weight of the left column
    dy = (fy + 1).to(y.dtype) - y   # weight of the top row
    flat = data.reshape(batch, height * width, channels)

    def pixel(col: torch.Tensor, row: torch.Tensor) -> torch.Tensor:
        valid = inside & (col >= 0) & (row >= 0) & (col <= width - 1) & (row <= height - 1)
        index = (row.clamp(0, height - 1) * width + col.clamp(0, width - 1))
        values = torch.gather(flat, 1, index.unsqueeze(-1).expand(-1, -1, channels))
        return torch.where(valid.unsqueeze(-1), values, torch.zeros_like(values))

    wx, wy, ux, uy = dx.unsqueeze(-1), dy.unsqueeze(-1), 1 - dx.unsqueeze(-1), \
        1 - dy.unsqueeze(-1)
    out = (wx * wy * pixel(fx, fy) + ux * uy * pixel(fx + 1, fy + 1)
           + wx * uy * pixel(fx, fy + 1) + ux * wy * pixel(fx + 1, fy))
    out = torch.where(inside.unsqueeze(-1), out, torch.zeros_like(out))
    return out.reshape(tuple(warp.shape[:-1]) + (channels,))


def _resampler_shape(ctx: Any) -> List[TensorShape]:
    """warp.shape[:-1] + [data.shape[-1]] (both of rank at least 1)."""
    data, warp = ctx.shape(0), ctx.shape(1)
    for shape in (data, warp):
        if shape.rank == 0:
            raise ValueError(f"Shape must be at least rank 1 but is rank 0 {node_desc(ctx)}")
    if warp.rank is None:
        return [unknown_shape()]
    channels = data.as_list()[-1] if data.rank is not None else None
    return [TensorShape(warp.as_list()[:-1] + [channels])]


def _resampler_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def resampler_op(data: torch.Tensor, warp: torch.Tensor) -> torch.Tensor:
        _check_shapes(data, warp)
        return _resample(data, warp)
    return resampler_op


declare("Resampler", inputs=["data: T", "warp: T"], outputs=["output: T"],
        attrs={"T": _FLOATS}, shape=_resampler_shape, kernel=_resampler_kernel)


def _resampler_grad_shape(ctx: Any) -> List[TensorShape]:
    return [ctx.shape(0), ctx.shape(1)]


def _resampler_grad_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def resampler_grad_op(data: torch.Tensor, warp: torch.Tensor,
                          grad_output: torch.Tensor) -> tuple:
        _check_shapes(data, warp)
        expected = tuple(warp.shape[:-1]) + (data.shape[-1],)
        if tuple(grad_output.shape) != expected:
            raise errors.InvalidArgumentError(
                None, None, "grad_output shape is not consistent with data and warp shapes; "
                f"it should be {_dims(torch.Size(expected))} but is "
                f"{_dims(grad_output.shape)}")
        with torch.enable_grad():
            d, w = data.detach().requires_grad_(), warp.detach().requires_grad_()
            grads = torch.autograd.grad([_resample(d, w)], [d, w], [grad_output])
        return grads[0], grads[1]
    return resampler_grad_op


declare("ResamplerGrad", inputs=["data: T", "warp: T", "grad_output: T"],
        outputs=["grad_data: T", "grad_warp: T"], attrs={"T": _FLOATS},
        shape=_resampler_grad_shape, kernel=_resampler_grad_kernel, grad="none")


def resampler(data: Any, warp: Any, name: Any = None) -> Tensor:
    """The raw Resampler op (tf.contrib.resampler.resampler adds the name scope)."""
    return apply_op("Resampler", [data, warp], name=name).outputs[0]


def resampler_grad(data: Any, warp: Any, grad_output: Any, name: Any = None) -> tuple:
    """The raw ResamplerGrad op: (grad_data, grad_warp)."""
    op = apply_op("ResamplerGrad", [data, warp, grad_output], name=name)
    return op.outputs[0], op.outputs[1]
