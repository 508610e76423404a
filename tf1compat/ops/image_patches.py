"""ExtractImagePatches and AdjustContrastv2: the image ops with kernels of their own that
are not resizes (tf.extract_image_patches, tf.image.adjust_contrast)."""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import torch
import torch.nn.functional as F

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops._window import as_str, check_rank, window_output, window_padding
from tf1compat.ops.math_ops import REAL

__all__ = ["extract_image_patches", "adjust_contrast_v2"]


def _patch_attrs(attrs: dict) -> tuple:
    return (list(attrs["ksizes"]), list(attrs["strides"]), list(attrs["rates"]),
            as_str(attrs["padding"]))


def _patches_shape(ctx: Any) -> List[TensorShape]:
    ks, ss, rs, padding = _patch_attrs(ctx.attrs)
    for label, values in (("ksizes", ks), ("strides", ss), ("rates", rs)):
        if len(values) != 4:
            raise ValueError(f"ExtractImagePatches requires the {label} attribute to contain "
                             f"4 values, but got: {len(values)} {node_desc(ctx)}")
    if ks[0] != 1 or ks[3] != 1 or ss[0] != 1 or ss[3] != 1 or rs[0] != 1 or rs[3] != 1:
        raise ValueError("ExtractImagePatches is only supported across rows and columns "
                         f"{node_desc(ctx)}")
    n, h, w, c = check_rank(ctx, ctx.shape(0), 4)
    oh = window_output(ctx, h, ks[1], ss[1], rs[1], padding)
    ow = window_output(ctx, w, ks[2], ss[2], rs[2], padding)
    depth = None if c is None else ks[1] * ks[2] * c
    return [TensorShape([n, oh, ow, depth])]


def _patches_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    ks, ss, rs, padding = _patch_attrs(node.attrs)
    kh, kw = ks[1], ks[2]

    def run(images: torch.Tensor) -> torch.Tensor:
        n, h, w, c = images.shape
        oh, top, bottom = window_padding(h, kh, ss[1], rs[1], padding)
        ow, left, right = window_padding(w, kw, ss[2], rs[2], padding)
        x = images.permute(0, 3, 1, 2)
        if not x.is_floating_point():
            x = x.to(torch.float64)     # unfold needs floats; exact for these values
        x = F.pad(x, [left, right, top, bottom])
        cols = F.unfold(x, (kh, kw), dilation=(rs[1], rs[2]), stride=(ss[1], ss[2]))
        # [N, C*kh*kw, L] -> [N, oh, ow, kh, kw, C] (TF's depth order: row, col, channel)
        cols = cols.reshape(n, c, kh, kw, max(oh, 0), max(ow, 0)).permute(0, 4, 5, 2, 3, 1)
        return cols.reshape(n, max(oh, 0), max(ow, 0), kh * kw * c).to(images.dtype)
    return run


declare("ExtractImagePatches", inputs=["images: T"], outputs=["patches: T"],
        attrs={"ksizes": None, "strides": None, "rates": None, "padding": None,
               "T": Type(REAL + (D.complex64, D.complex128, D.bool))},
        shape=_patches_shape, kernel=_patches_kernel)


def _contrast_shape(ctx: Any) -> List[TensorShape]:
    images = ctx.shape(0)
    if images.rank is not None and images.rank < 3:
        raise ValueError(f"Shape must be at least rank 3 but is rank {images.rank} "
                         f"{node_desc(ctx)}")
    factor = ctx.shape(1)
    if factor.rank is not None and factor.rank != 0:
        raise ValueError(f"Shape must be rank 0 but is rank {factor.rank} {node_desc(ctx)}")
    return [images]


def _contrast_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def run(images: torch.Tensor, factor: torch.Tensor) -> torch.Tensor:
        x = images.to(torch.float32)
        mean = x.mean(dim=(-3, -2), keepdim=True)
        return ((x - mean) * factor + mean).to(images.dtype)
    return run


declare("AdjustContrastv2", inputs=["images: T", "contrast_factor: float"],
        outputs=["output: T"], attrs={"T": Type((D.float16, D.float32), default=D.float32)},
        shape=_contrast_shape, kernel=_contrast_kernel, grad="unregistered")


def extract_image_patches(images: Any, ksizes: Any = None, strides: Any = None,
                          rates: Any = None, padding: Any = None, name: Optional[str] = None,
                          sizes: Any = None) -> Tensor:
    """`tf.extract_image_patches` / `tf.image.extract_image_patches` (TF1 signature)."""
    ksizes = sizes if ksizes is None else ksizes
    return apply_op1("ExtractImagePatches", [images],
                     {"ksizes": [int(v) for v in ksizes], "strides": [int(v) for v in strides],
                      "rates": [int(v) for v in rates], "padding": as_str(padding)},
                     name=name or "ExtractImagePatches")


def adjust_contrast_v2(images: Any, contrast_factor: Any, name: Optional[str] = None
                       ) -> Tensor:
    """The AdjustContrastv2 op (gen_image_ops.adjust_contrastv2)."""
    with name_scope(name, "AdjustContrastv2", [images, contrast_factor]) as scope:
        return apply_op1("AdjustContrastv2", [images, contrast_factor], name=scope)
