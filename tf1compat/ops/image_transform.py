"""ImageProjectiveTransformV2 / V3: every output pixel (x, y) samples the input at

    ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k),   k = c0 x + c1 y + 1

for each image's transform [a0, a1, a2, b0, b1, b2, c0, c1] (one for all images or one
per image), with NEAREST (round half away from zero) or BILINEAR interpolation. Points
outside the image follow `fill_mode`: CONSTANT (the fill value: 0 for V2, `fill_value`
for V3), REFLECT (dcba|abcd|dcba), WRAP (abcd|abcd|abcd) or NEAREST (aaaa|abcd|dddd);
k == 0 gives the fill value. Coordinates and interpolation run in float32, as TF's
kernel, and the result is cast to the images' dtype (integer results truncate).

The gradient with respect to the images is TF's: the output gradient transformed by
the inverse transforms back to the images' size, with the op's fill mode and a zero fill
value (an approximation, not the exact adjoint). Used by tf.contrib.image (contrib/image/).

ImageConnectedComponents (TF 1.15's contrib op) labels each 4-connected component of
equal nonzero pixels of [batch, height, width] images with its first pixel's flat index
+ 1 (0 for zero pixels); connected_components renumbers the labels 1..n.

BipartiteMatch (TF 1.15's contrib op behind tf.contrib.image.bipartite_match) matches rows
to columns greedily: the (row, column) pairs of the valid rows, smallest distance first,
each taken while both its row and its column are free, until `top_k` pairs are matched.
"""

from __future__ import annotations

from typing import Any, Callable, List

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.op_def import REQUIRED, Type, declare
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import node_desc

__all__ = ["projective_transform", "inverse_flat_transforms"]

_IMAGE_TYPES = (D.uint8, D.int32, D.int64, D.float16, D.bfloat16, D.float32, D.float64)
_FILL_MODES = ("CONSTANT", "REFLECT", "WRAP", "NEAREST")


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _map_coordinate(coord: torch.Tensor, length: int, mode: str) -> torch.Tensor:
    """Out-of-range coordinates mapped into [0, length - 1] by the fill mode (CONSTANT
    leaves them, for the reads to fill)."""
    if mode == "CONSTANT":
        return coord
    top = float(length - 1)
    if mode == "NEAREST" or length <= 1:
        return coord.clamp(0.0, max(top, 0.0)) if length > 1 else torch.zeros_like(coord)
    if mode == "REFLECT":
        period = 2 * length
        low = coord.clone()
        far = low < -period
        low = torch.where(far, period * torch.trunc(-low / period) + low, low)
        low = torch.where(low < -length, low + period, -low - 1)
        high = coord - period * torch.trunc(coord / period)
        high = torch.where(high >= length, period - high - 1, high)
        mapped = torch.where(coord < 0, low, torch.where(coord > top, high, coord))
    else:   # WRAP
        span = length - 1
        low = coord + length * (torch.trunc(-coord / span) + 1)
        high = coord - length * torch.trunc(coord / span)
        mapped = torch.where(coord < 0, low, torch.where(coord > top, high, coord))
    return mapped.clamp(0.0, top)


def _round_half_away(x: torch.Tensor) -> torch.Tensor:
    return torch.sign(x) * torch.floor(x.abs() + 0.5)


def projective_transform(images: torch.Tensor, transforms: torch.Tensor, out_h: int,
                         out_w: int, interpolation: str, fill_mode: str,
                         fill_value: float) -> torch.Tensor:
    """The kernel's computation on torch tensors (no argument checks)."""
    batch, height, width, channels = images.shape
    device = images.device
    if interpolation not in ("NEAREST", "BILINEAR"):
        # TF's kernel leaves the output zero for an unknown interpolation.
        return torch.zeros((batch, out_h, out_w, channels), dtype=images.dtype, device=device)
    t = transforms.to(device=device, dtype=torch.float32).expand(batch, 8)
    ys = torch.arange(out_h, dtype=torch.float32, device=device)[None, :, None]
    xs = torch.arange(out_w, dtype=torch.float32, device=device)[None, None, :]
    c = [t[:, i, None, None] for i in range(8)]
    projection = c[6] * xs + c[7] * ys + 1.0
    in_x = (c[0] * xs + c[1] * ys + c[2]) / projection
    in_y = (c[3] * xs + c[4] * ys + c[5]) / projection
    x = _map_coordinate(in_x, width, fill_mode)
    y = _map_coordinate(in_y, height, fill_mode)
    source = images.to(torch.float32) if interpolation == "BILINEAR" else images
    b_index = torch.arange(batch, device=device)[:, None, None]
    # TF converts the fill value to the images' dtype first (7.6 is 7 for integers).
    fill = torch.tensor(fill_value, dtype=torch.float32, device=device)
    if not images.dtype.is_floating_point:
        fill = torch.trunc(fill)
    fill = fill.to(images.dtype).to(source.dtype)

    def read(row: torch.Tensor, col: torch.Tensor) -> torch.Tensor:
        inside = (row >= 0) & (row < height) & (col >= 0) & (col < width)
        r = row.clamp(0, max(height - 1, 0)).long()
        k = col.clamp(0, max(width - 1, 0)).long()
        value = source[b_index, r, k]
        return torch.where(inside[..., None], value, fill)

    if interpolation == "NEAREST":
        out = read(_round_half_away(y), _round_half_away(x))
    else:
        y0, x0 = torch.floor(y), torch.floor(x)
        y1, x1 = y0 + 1, x0 + 1
        wx0, wx1 = (x1 - x)[..., None], (x - x0)[..., None]
        top = wx0 * read(y0, x0) + wx1 * read(y0, x1)
        bottom = wx0 * read(y1, x0) + wx1 * read(y1, x1)
        out = (y1 - y)[..., None] * top + (y - y0)[..., None] * bottom
    out = torch.where((projection == 0)[..., None], fill.to(out.dtype), out)
    if out.dtype != images.dtype:
        out = torch.trunc(out).to(images.dtype) if not images.dtype.is_floating_point \
            else out.to(images.dtype)
    return out


def inverse_flat_transforms(transforms: torch.Tensor) -> torch.Tensor:
    """[n, 8] transforms -> the [n, 8] transforms of their inverse matrices."""
    t = transforms.to(torch.float32)
    matrices = torch.cat([t, torch.ones_like(t[:, :1])], 1).reshape(-1, 3, 3)
    inverse = torch.linalg.inv(matrices).reshape(-1, 9)
    return (inverse / inverse[:, 8:9])[:, :8]


def _check(images: torch.Tensor, transforms: torch.Tensor, output_shape: Any) -> List[int]:
    if images.dim() != 4:
        raise _invalid("Input images must have rank 4")
    if not (transforms.dim() == 2 and transforms.shape[0] in (images.shape[0], 1) and
            transforms.shape[1] == 8):
        raise _invalid("Input transform should be num_images x 8")
    shape = output_shape.reshape(-1) if output_shape.dim() <= 1 else output_shape
    if output_shape.dim() != 1:
        raise _invalid("output shape must be 1-dimensional")
    if shape.numel() != 2:
        raise _invalid("output shape must have two elements")
    out_h, out_w = (int(v) for v in shape.tolist())
    if out_h <= 0 or out_w <= 0:
        raise _invalid("output dimensions must be positive")
    return [out_h, out_w]


def _kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    interpolation = node.attrs["interpolation"]
    fill_mode = node.attrs["fill_mode"]
    if fill_mode not in _FILL_MODES:
        raise _invalid(f"Invalid fill_mode: {fill_mode}")

    def transform(images: torch.Tensor, transforms: torch.Tensor, output_shape: torch.Tensor,
                  fill_value: Any = None) -> torch.Tensor:
        out_h, out_w = _check(images, transforms, output_shape)
        fill = 0.0 if fill_value is None else float(fill_value)
        return projective_transform(images, transforms, out_h, out_w, interpolation,
                                    fill_mode, fill)
    return transform


class _TransformApply(torch.autograd.Function):
    """The op with TF's gradient: the incoming gradient transformed by the inverses."""

    @staticmethod
    def forward(ctx: Any, kernel: Callable[..., Any], images: torch.Tensor,
                transforms: torch.Tensor, output_shape: torch.Tensor,
                interpolation: str, fill_mode: str, *rest: Any) -> torch.Tensor:
        ctx.save_for_backward(transforms)
        ctx.image_size = images.shape[1:3]
        ctx.interpolation = interpolation
        ctx.fill_mode = fill_mode
        return kernel(images, transforms, output_shape, *rest)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Any:
        transforms, = ctx.saved_tensors
        inverse = inverse_flat_transforms(transforms)
        grad_images = projective_transform(grad, inverse, int(ctx.image_size[0]),
                                           int(ctx.image_size[1]), ctx.interpolation,
                                           ctx.fill_mode, 0.0)
        # kernel, images, transforms, output_shape, interpolation, fill_mode, fill_value
        return (None, grad_images) + (None,) * (len(ctx.needs_input_grad) - 2)


def _formula(node: Any, kernel: Callable[..., Any], kctx: Any) -> Callable[..., Any]:
    interpolation = node.attrs["interpolation"]
    fill_mode = node.attrs["fill_mode"]

    def run(images: Any, transforms: Any, output_shape: Any, *rest: Any) -> Any:
        if isinstance(images, torch.Tensor) and images.requires_grad:
            return _TransformApply.apply(kernel, images, transforms, output_shape,
                                         interpolation, fill_mode, *rest)
        return kernel(images, transforms, output_shape, *rest)
    return run


def _shape(ctx: Any) -> List[TensorShape]:
    images = ctx.shape(0)
    if images.rank is not None and images.rank != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {images.rank} {node_desc(ctx)}")
    size = ctx.shape(2)
    if size.rank is not None and size.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {size.rank} {node_desc(ctx)}")
    if size.rank == 1 and size.as_list()[0] not in (None, 2):
        raise ValueError(f"Dimension must be 2 but is {size.as_list()[0]} {node_desc(ctx)}")
    dims = images.as_list() if images.rank == 4 else [None] * 4
    value = ctx.const(2)
    out_h, out_w = (None, None) if value is None else (int(value[0]), int(value[1]))
    return [TensorShape([dims[0], out_h, out_w, dims[3]])]


for _name, _extra in (("ImageProjectiveTransformV2", []),
                      ("ImageProjectiveTransformV3", ["fill_value: float32"])):
    declare(_name, inputs=["images: dtype", "transforms: float32", "output_shape: int32"] +
            _extra, outputs=["transformed_images: dtype"],
            attrs={"dtype": Type(_IMAGE_TYPES), "interpolation": REQUIRED,
                   "fill_mode": "CONSTANT"},
            shape=_shape, kernel=_kernel, grad_formula=_formula,
            grad_none_inputs=tuple(range(1, 3 + len(_extra))))


# -- ImageConnectedComponents (tf.contrib.image.connected_components) --------------------------

def _connected_components_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def components(image: Any) -> torch.Tensor:
        if isinstance(image, torch.Tensor):
            values = image
        else:   # strings: equal bytes join, b"" is background
            import numpy as np
            flat = np.asarray(image, dtype=object)
            codes = {b"": 0}
            values = torch.tensor([codes.setdefault(v, len(codes)) for v in flat.reshape(-1)],
                                  dtype=torch.int64).reshape(flat.shape)
        if values.dim() != 3:
            raise _invalid("Input images must have rank 3")
        batch, height, width = values.shape
        foreground = values != 0
        # Every foreground pixel starts as its own flat index + 1; repeatedly taking the
        # minimum over same-valued 4-neighbours converges to each component's first pixel.
        label = torch.arange(1, batch * height * width + 1, dtype=torch.int64,
                             device=values.device).reshape(batch, height, width)
        label = torch.where(foreground, label, torch.zeros_like(label))
        big = torch.iinfo(torch.int64).max
        while True:
            candidates = [label]
            for dim in (1, 2):
                for shift in (1, -1):
                    neighbour = torch.roll(label, shift, dim)
                    same = torch.roll(values, shift, dim) == values
                    edge = torch.zeros_like(same)
                    index = [slice(None)] * 3
                    index[dim] = 0 if shift == 1 else -1
                    edge[tuple(index)] = True      # no wrap-around across the border
                    ok = same & ~edge & foreground
                    candidates.append(torch.where(ok, neighbour, torch.full_like(label, big)))
            updated = torch.stack(candidates).min(0).values
            updated = torch.where(foreground, updated, torch.zeros_like(updated))
            if torch.equal(updated, label):
                return label
            label = updated
    return components


def _components_shape(ctx: Any) -> List[TensorShape]:
    shape = ctx.shape(0)
    if shape.rank is not None and shape.rank != 3:
        raise ValueError(f"Shape must be rank 3 but is rank {shape.rank} {node_desc(ctx)}")
    return [shape]


declare("ImageConnectedComponents", inputs=["image: dtype"], outputs=["components: int64"],
        attrs={"dtype": Type((D.int64, D.int32, D.uint16, D.int16, D.uint8, D.int8, D.float16,
                              D.float32, D.float64, D.bool, D.string))},
        shape=_components_shape, kernel=_connected_components_kernel, grad="none")


# -- BipartiteMatch (tf.contrib.image.bipartite_match) ------------------------------------------

def _bipartite_match_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    top_k = int(node.attrs["top_k"])

    def match(distance_mat: torch.Tensor, num_valid_rows: torch.Tensor) -> tuple:
        if distance_mat.dim() != 2:
            raise _invalid("distance_mat should be 2-dimensional, but got "
                           f"[{','.join(str(d) for d in distance_mat.shape)}]")
        if num_valid_rows.numel() != 1:
            raise _invalid("num_valid_rows argument should be a tensor with 1 element, but "
                           f"got {num_valid_rows.numel()}")
        rows, columns = distance_mat.shape
        requested = float(num_valid_rows.reshape(-1)[0])
        # A non-negative count is rounded as TF's kernel does (+ 0.1, then truncated).
        valid = int(requested + 0.1) if requested >= 0 else rows
        if valid > rows:
            raise _invalid(f"There should be at least {valid} rows in distance_mat, but "
                           f"only got {rows} rows.")
        limit = top_k if top_k > 0 else valid * columns
        # The pairs smallest distance first; equal distances keep row-major order.
        flat = distance_mat[:valid].reshape(-1).detach().cpu()
        order = torch.sort(flat, stable=True).indices.tolist()
        row_to_col = [-1] * rows
        col_to_row = [-1] * columns
        matched = 0
        for index in order:
            if matched >= limit:
                break
            r, c = divmod(index, columns)
            if row_to_col[r] == -1 and col_to_row[c] == -1:
                row_to_col[r], col_to_row[c] = c, r
                matched += 1
        device = distance_mat.device
        return (torch.tensor(row_to_col, dtype=torch.int32, device=device),
                torch.tensor(col_to_row, dtype=torch.int32, device=device))
    return match


def _bipartite_match_shape(ctx: Any) -> List[TensorShape]:
    shape = ctx.shape(0)
    if shape.rank is not None and shape.rank != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {shape.rank} {node_desc(ctx)}")
    if shape.rank is None:
        return [TensorShape([None]), TensorShape([None])]
    rows, columns = shape.as_list()
    return [TensorShape([rows]), TensorShape([columns])]


declare("BipartiteMatch", inputs=["distance_mat: float", "num_valid_rows: float"],
        outputs=["row_to_col_match_indices: int32", "col_to_row_match_indices: int32"],
        attrs={"top_k": -1}, shape=_bipartite_match_shape, kernel=_bipartite_match_kernel,
        grad="none", cpu_only=True)
