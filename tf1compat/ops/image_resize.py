"""Image resizing kernels in TF's NHWC layout: ResizeBilinear, ResizeNearestNeighbor,
ResizeBicubic and ResizeArea, with TF 1.x's pixel conventions.

TF computes sampling positions in float32 on the CPU: the scale is `in / out` (or
`(in - 1) / (out - 1)` with align_corners), the legacy source position of output pixel x
is `x * scale` and the half-pixel one `(x + 0.5) * scale - 0.5`. The positions and
weights are computed here with numpy float32 arithmetic in the same order, once per
(input size, output size), so the values match TF's bit for bit; the interpolation itself
is torch gathers and float32 arithmetic, which torch autograd differentiates.

ResizeBicubic samples its cubic weights from TF's 1025-entry table (the fractional
position is rounded to 1/1024), using Keys' a = -0.75 for the legacy mode and a = -0.5
with edge-weight renormalisation for half-pixel centres, exactly as TF does.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, List, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor_shape import Dimension, TensorShape
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops._window import check_rank

__all__: List[str] = []

_REAL_IMAGE = (D.int8, D.uint8, D.int16, D.uint16, D.int32, D.int64, D.bfloat16, D.float16,
               D.float32, D.float64)
_F32 = np.float32


# -- shape rule -----------------------------------------------------------------------------

def _resize_shape(ctx: Any) -> List[TensorShape]:
    """TF's ResizeShapeFn: images rank 4, size a 2-vector; [N, new_h, new_w, C]."""
    images = check_rank(ctx, ctx.shape(0), 4)
    size = ctx.shape(1)
    if size.rank is not None and size.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {size.rank} {node_desc(ctx)}")
    if size.rank == 1 and size.dims[0] is not None and size[0] != 2:
        raise ValueError(f"Dimension must be 2 but is {size[0]} {node_desc(ctx)}")
    new = ctx.const_shape(1)
    h = w = None
    if new.rank is not None and new.rank >= 2:
        h, w = new.as_list()[:2]
    for v in (h, w):
        if v is not None and v < 0:
            raise ValueError(f"Dimension size must be non-negative {node_desc(ctx)}")
    return [TensorShape([images[0], Dimension(h), Dimension(w), images[3]])]


# -- sampling positions (float32, as TF's CPU kernels) --------------------------------------

def _scale(in_size: int, out_size: int, align_corners: bool) -> np.float32:
    if align_corners and out_size > 1:
        return _F32(in_size - 1) / _F32(out_size - 1)
    return _F32(in_size) / _F32(out_size)


def _positions(in_size: int, out_size: int, align: bool, half: bool,
               nn: bool = False) -> np.ndarray:
    scale = _scale(in_size, out_size, align)
    x = np.arange(out_size, dtype=_F32)
    if half:
        pos = (x + _F32(0.5)) * scale
        return pos if nn else pos - _F32(0.5)
    return x * scale


@functools.lru_cache(maxsize=256)
def _bilinear_axis(in_size: int, out_size: int, align: bool, half: bool
                   ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    pos = _positions(in_size, out_size, align, half)
    floor = np.floor(pos)
    lower = np.maximum(floor.astype(np.int64), 0)
    upper = np.minimum(np.ceil(pos).astype(np.int64), in_size - 1)
    return lower, upper, (pos - floor).astype(_F32)


@functools.lru_cache(maxsize=256)
def _nearest_axis(in_size: int, out_size: int, align: bool, half: bool) -> np.ndarray:
    pos = _positions(in_size, out_size, align, half, nn=True)
    # roundf rounds halves away from zero (positions are >= 0 here).
    idx = np.floor(pos + _F32(0.5)) if align else np.floor(pos)
    idx = np.minimum(idx.astype(np.int64), in_size - 1)
    return np.maximum(idx, 0) if half else idx


_TABLE_SIZE = 1024


@functools.lru_cache(maxsize=2)
def _cubic_table(a: float) -> np.ndarray:
    """TF's coefficient table: entry i holds the weights at distance i/1024 and 1 + i/1024."""
    table = np.empty((_TABLE_SIZE + 1, 2), _F32)
    for i in range(_TABLE_SIZE + 1):
        x = float(_F32(i * 1.0 / _TABLE_SIZE))
        table[i, 0] = _F32(((a + 2) * x - (a + 3)) * x * x + 1)
        x = float(_F32(x) + _F32(1.0))
        table[i, 1] = _F32(((a * x - 5 * a) * x + 8 * a) * x - 4 * a)
    return table


@functools.lru_cache(maxsize=256)
def _bicubic_axis(in_size: int, out_size: int, align: bool, half: bool
                  ) -> Tuple[np.ndarray, np.ndarray]:
    """(indices [out, 4], weights [out, 4] float32) for one axis."""
    keys = half  # TF uses the Keys kernel (a = -0.5) exactly for half-pixel centres
    table = _cubic_table(-0.5 if keys else -0.75)
    pos = _positions(in_size, out_size, align, half)
    idx = np.zeros((out_size, 4), np.int64)
    wts = np.zeros((out_size, 4), _F32)
    for o in range(out_size):
        loc = int(np.floor(pos[o]))
        delta = _F32(pos[o] - _F32(loc))
        off = int(np.rint(delta * _F32(_TABLE_SIZE)))   # lrintf: ties to even
        raw = [table[off, 1], table[off, 0], table[_TABLE_SIZE - off, 0],
               table[_TABLE_SIZE - off, 1]]
        for k in range(4):
            want = loc - 1 + k
            bound = min(in_size - 1, max(0, want))
            idx[o, k] = bound
            wts[o, k] = raw[k] if (not keys or bound == want) else _F32(0.0)
        if keys:
            total = _F32(_F32(_F32(wts[o, 0] + wts[o, 1]) + wts[o, 2]) + wts[o, 3])
            if abs(total) >= 1000.0 * np.finfo(_F32).tiny:
                wts[o] = wts[o] * (_F32(1.0) / total)
    return idx, wts


@functools.lru_cache(maxsize=256)
def _area_axis(in_size: int, out_size: int, align: bool) -> Tuple[np.ndarray, np.float32]:
    """A dense [out, in] matrix of the overlap of each output cell with each input cell."""
    scale = _scale(in_size, out_size, align)
    mat = np.zeros((out_size, in_size), _F32)
    for o in range(out_size):
        lo = _F32(o) * scale
        hi = _F32(o + 1) * scale
        start, end = int(np.floor(lo)), int(np.ceil(hi))
        for i in range(start, end):
            if i < lo:
                w = min(_F32(i + 1) - lo, scale)
            elif i + 1 > hi:
                w = hi - _F32(i)
            else:
                w = _F32(1.0)
            mat[o, min(max(i, 0), in_size - 1)] += w
    return mat, scale


# -- kernels --------------------------------------------------------------------------------

def _flags(node: Any) -> Tuple[bool, bool]:
    align = bool(node.attrs.get("align_corners", False))
    half = bool(node.attrs.get("half_pixel_centers", False))
    if align and half:
        raise errors.op_error(errors.InvalidArgumentError, node,
                              "If half_pixel_centers is True, align_corners must be False.")
    return align, half


def _new_size(node: Any, images: torch.Tensor, size: torch.Tensor) -> Tuple[int, int, int, int]:
    if images.dim() != 4:
        raise errors.op_error(errors.InvalidArgumentError, node,
                              f"input must be 4-dimensional{list(images.shape)}")
    if size.dim() != 1 or size.numel() != 2:
        raise errors.op_error(errors.InvalidArgumentError, node,
                              f"shape_t must be 1-dimensional{list(size.shape)}")
    h, w = (int(v) for v in size.tolist())
    if h <= 0 or w <= 0:
        raise errors.op_error(errors.InvalidArgumentError, node,
                              "output dimensions must be positive")
    in_h, in_w = int(images.shape[1]), int(images.shape[2])
    if in_h <= 0 or in_w <= 0:
        raise errors.op_error(errors.InvalidArgumentError, node,
                              "input image must be of non-zero size")
    return in_h, in_w, h, w


def _idx(a: np.ndarray, device: torch.device) -> torch.Tensor:
    return torch.as_tensor(a, device=device)


def _f32(a: np.ndarray, device: torch.device, shape: Tuple[int, ...]) -> torch.Tensor:
    return torch.as_tensor(a, device=device).reshape(shape)


def _bilinear_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    align, half = _flags(node)

    def run(images: torch.Tensor, size: torch.Tensor) -> torch.Tensor:
        in_h, in_w, h, w = _new_size(node, images, size)
        x = images.to(torch.float32)
        dev = x.device
        y0, y1, yl = _bilinear_axis(in_h, h, align, half)
        x0, x1, xl = _bilinear_axis(in_w, w, align, half)
        top, bottom = x[:, _idx(y0, dev)], x[:, _idx(y1, dev)]
        xi0, xi1 = _idx(x0, dev), _idx(x1, dev)
        xl_t = _f32(xl, dev, (1, 1, w, 1))
        tl, tr = top[:, :, xi0], top[:, :, xi1]
        bl, br = bottom[:, :, xi0], bottom[:, :, xi1]
        t = tl + (tr - tl) * xl_t
        b = bl + (br - bl) * xl_t
        return t + (b - t) * _f32(yl, dev, (1, h, 1, 1))
    return run


def _nearest_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    align, half = _flags(node)

    def run(images: torch.Tensor, size: torch.Tensor) -> torch.Tensor:
        in_h, in_w, h, w = _new_size(node, images, size)
        dev = images.device
        ys = _idx(_nearest_axis(in_h, h, align, half), dev)
        xs = _idx(_nearest_axis(in_w, w, align, half), dev)
        return images[:, ys][:, :, xs]
    return run


def _bicubic_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    align, half = _flags(node)

    def run(images: torch.Tensor, size: torch.Tensor) -> torch.Tensor:
        in_h, in_w, h, w = _new_size(node, images, size)
        x = images.to(torch.float32)
        dev = x.device
        yi, yw = _bicubic_axis(in_h, h, align, half)
        xi, xw = _bicubic_axis(in_w, w, align, half)
        # TF interpolates down the columns first, then along the rows, summing in order.
        rows = None
        for k in range(4):
            term = x[:, _idx(yi[:, k], dev)] * _f32(np.ascontiguousarray(yw[:, k]), dev,
                                                   (1, h, 1, 1))
            rows = term if rows is None else rows + term
        out = None
        for k in range(4):
            term = rows[:, :, _idx(xi[:, k], dev)] * _f32(np.ascontiguousarray(xw[:, k]),
                                                         dev, (1, 1, w, 1))
            out = term if out is None else out + term
        return out
    return run


def _area_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    align = bool(node.attrs.get("align_corners", False))

    def run(images: torch.Tensor, size: torch.Tensor) -> torch.Tensor:
        in_h, in_w, h, w = _new_size(node, images, size)
        x = images.to(torch.float32)
        my, sy = _area_axis(in_h, h, align)
        mx, sx = _area_axis(in_w, w, align)
        my_t = torch.as_tensor(my, device=x.device)
        mx_t = torch.as_tensor(mx, device=x.device)
        cols = torch.einsum("wW,nHWc->nHwc", mx_t, x)
        out = torch.einsum("hH,nHwc->nhwc", my_t, cols)
        return out * float(_F32(1.0) / (sy * sx))
    return run


_RESIZE_ATTRS = {"align_corners": False, "half_pixel_centers": False}
declare("ResizeBilinear", inputs=["images: T", "size: int32"], outputs=["resized_images: float"],
        attrs=dict(_RESIZE_ATTRS, T=Type(_REAL_IMAGE)), shape=_resize_shape,
        kernel=_bilinear_kernel)
declare("ResizeNearestNeighbor", inputs=["images: T", "size: int32"],
        outputs=["resized_images: T"],
        attrs=dict(_RESIZE_ATTRS, T=Type(_REAL_IMAGE)), shape=_resize_shape,
        kernel=_nearest_kernel)
declare("ResizeBicubic", inputs=["images: T", "size: int32"], outputs=["resized_images: float"],
        attrs=dict(_RESIZE_ATTRS, T=Type(_REAL_IMAGE)), shape=_resize_shape,
        kernel=_bicubic_kernel)
# TF registers no gradient for ResizeArea (tf.gradients raises LookupError).
declare("ResizeArea", inputs=["images: T", "size: int32"], outputs=["resized_images: float"],
        attrs={"align_corners": False, "T": Type(_REAL_IMAGE)}, shape=_resize_shape,
        kernel=_area_kernel, grad="unregistered")
