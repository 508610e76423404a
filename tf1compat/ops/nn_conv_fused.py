"""The fused convolutions TF's `optimize_for_inference` writes: FusedPadConv2D (a MirrorPad
folded into the Conv2D it feeds) and FusedResizeAndPadConv2D (a ResizeBilinear, then the
mirror pad, then the Conv2D). Each kernel runs the unfused ops' kernels in turn
(ResizeBilinear without half-pixel centers, as TF's fused kernel resizes; MirrorPad;
Conv2D in NHWC), so a graph gives the same values before and after the fusion. TF has no
gradient for either op (LookupError from tf.gradients, as TF).

TF 2.21's CPU kernels compute every element of a batch from batch element 0 (probed:
rows 1.. equal row 0's result); these kernels compute each element from its own input,
as the unfused graph does (docs/ARCHITECTURE.md, deliberate differences).
"""

from __future__ import annotations

import types
from typing import Any, Callable, List

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor_shape import Dimension, TensorShape
from tf1compat.ops._kernels import as_int_list, static_ints
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops._window import as_str, check_rank, window_output
from tf1compat.ops.image_resize import _bilinear_kernel
from tf1compat.ops.nn_conv import _conv_kernel
from tf1compat.ops.transform_ops import _mirror

__all__: List[str] = []


def _fused_shape(resize: bool) -> Callable[[Any], List[TensorShape]]:
    """TF's CommonFusedConvCalculations: [batch, rows, cols, out channels] of the
    convolution over the (resized and) padded input; all but the channels unknown when
    the paddings are not known at graph build."""
    pads_at = 2 if resize else 1

    def rule(ctx: Any) -> List[TensorShape]:
        strides = list(ctx.attrs["strides"])
        if len(strides) != 4:
            raise ValueError("Operation requires the stride attribute to contain 4 values, "
                             f"but got: {len(strides)} {node_desc(ctx)}")
        x = check_rank(ctx, ctx.shape(0), 4)
        rows, cols = x[1], x[2]
        if resize:
            size = ctx.shape(1)
            if size.rank is not None and size.rank != 1:
                raise ValueError(f"Shape must be rank 1 but is rank {size.rank} "
                                 f"{node_desc(ctx)}")
            if size.rank == 1 and size.dims[0] is not None and size[0] != 2:
                raise ValueError(f"Dimension 0 in both shapes must be equal, but are {size[0]} "
                                 f"and 2. Shapes are [{size[0]}] and [2]. {node_desc(ctx)}")
            new = ctx.const_shape(1)
            rows, cols = new.as_list()[:2] if new.rank is not None else (None, None)
        f = check_rank(ctx, ctx.shape(pads_at + 1), 4)
        pads = ctx.const(pads_at)
        if pads is None:
            return [TensorShape([None, None, None, f[3]])]
        pads = np.asarray(pads).reshape(-1, 2)
        if pads.shape[0] != 4:
            raise ValueError(f"Shape must be rank {pads.shape[0]} but is rank 4 "
                             f"{node_desc(ctx)}")
        if (pads < 0).any():
            raise ValueError(f"Paddings must be non-negative {node_desc(ctx)}")
        depth = None if x[3] is None else x[3] + int(pads[3].sum())
        if depth is not None and f[2] is not None and depth != f[2]:
            raise ValueError(f"Dimensions must be equal, but are {depth} and {f[2]} "
                             f"{node_desc(ctx)}")
        padding = as_str(ctx.attrs["padding"])
        out = [window_output(ctx, None if size is None else size + int(pads[i + 1].sum()),
                             f[i], strides[i + 1], 1, padding)
               for i, size in enumerate((rows, cols))]
        batch = None if x[0] is None else x[0] + int(pads[0].sum())
        return [TensorShape([Dimension(batch), Dimension(out[0]), Dimension(out[1]),
                             Dimension(f[3])])]
    return rule


def _fused_kernel(resize: bool) -> Callable[[Any, Any], Callable[..., Any]]:
    """The op's kernel: its parts' kernels (module docstring) in one call."""
    pads_at = 2 if resize else 1

    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        attrs = node.attrs
        conv = _conv_kernel(2, stride_error=errors.InvalidArgumentError)(types.SimpleNamespace(
            attrs={"T": attrs["T"], "strides": list(attrs["strides"]),
                   "padding": attrs["padding"], "data_format": "NHWC",
                   "dilations": [1, 1, 1, 1], "explicit_paddings": []},
            type="Conv2D", name=node.name, inputs=node.inputs, outputs=node.outputs), kctx)
        resized = _bilinear_kernel(types.SimpleNamespace(
            attrs={"align_corners": bool(attrs.get("resize_align_corners", False)),
                   "half_pixel_centers": False},
            type=node.type, name=node.name, inputs=node.inputs, outputs=node.outputs),
            kctx) if resize else None
        symmetric = as_str(attrs["mode"]) == "SYMMETRIC"
        static_pads = static_ints(node, pads_at)

        def run(*args: torch.Tensor) -> torch.Tensor:
            x = args[0]
            if resized is not None:
                x = resized(x, args[1]).to(x.dtype)
            pads = static_pads if static_pads is not None else as_int_list(args[pads_at])
            x = _mirror(x, pads, symmetric)
            if any(pads[i] for i in (0, 1, 6, 7)):
                raise errors.op_error(
                    errors.InvalidArgumentError, node,
                    "Fused mirror padding only support spatial padding, not batches: "
                    # TF's Tensor::DebugString of the [4, 2] paddings (three values).
                    f"Tensor<type: int32 shape: [4,2] values: [{pads[0]} {pads[1]}]"
                    f"[{pads[2]}...]...>")
            return conv(x, args[pads_at + 1])
        return run
    return factory


_ATTRS = {"mode": None, "strides": None, "padding": None}
declare("FusedResizeAndPadConv2D",
        inputs=["input: T", "size: int32", "paddings: int32", "filter: T"],
        outputs=["output: T"],
        attrs=dict(_ATTRS, T=Type((D.float16, D.float32, D.float64)),
                   resize_align_corners=False),
        shape=_fused_shape(resize=True), kernel=_fused_kernel(resize=True),
        grad="unregistered")
declare("FusedPadConv2D", inputs=["input: T", "paddings: int32", "filter: T"],
        outputs=["output: T"],
        attrs=dict(_ATTRS, T=Type((D.float16, D.bfloat16, D.float32, D.float64))),
        shape=_fused_shape(resize=False), kernel=_fused_kernel(resize=False),
        grad="unregistered")
