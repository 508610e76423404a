"""The rest of the convolution family: the generic Conv op (`tf.conv`: N-D, batch dims,
groups), Conv2DBackpropInputV2/FilterV2 (declared; like TF 2.21 they have no CPU kernel),
Dilation2D (`tf.nn.dilation2d`, and `tf.nn.erosion2d` built from it as TF does),
ExtractVolumePatches (`tf.extract_volume_patches`), `tf.nn.conv_transpose` and
`tf.nn.atrous_conv2d_transpose`.
"""

from __future__ import annotations

import types
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch
import torch.nn.functional as F

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare, no_kernel
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._shape_rules import _attr_text, node_desc
from tf1compat.ops._window import as_str, check_rank, window_output, window_padding

from tf1compat.ops.math_ops import negative
from tf1compat.ops.nn_conv import (_conv_kernel, conv1d_transpose, conv2d_backprop_input,
                                   conv2d_transpose, conv3d_transpose)
from tf1compat.ops.space_batch_ops import batch_to_space, space_to_batch
from tf1compat.ops.transform_ops import reverse
from tf1compat.ops import _flops_rules as flops

__all__ = ["conv", "conv2d_backprop_input_v2", "conv2d_backprop_filter_v2", "dilation2d",
           "erosion2d", "extract_volume_patches", "conv_transpose", "atrous_conv2d_transpose"]

_REAL = (D.float32, D.float64, D.int32, D.uint8, D.int16, D.int8, D.int64, D.bfloat16,
         D.uint16, D.float16, D.uint32, D.uint64)
_CONV_TYPES = (D.float16, D.bfloat16, D.float32, D.float64, D.int32)


# -- Conv (tf.conv) ----------------------------------------------------------------------------

def _conv_geometry(attrs: Any, rank: int) -> tuple:
    """(spatial rank, channels last?, strides, dilations) of a Conv op of input `rank`."""
    batch_dims = int(attrs["batch_dims"])
    nd = rank - batch_dims - 1
    last = as_str(attrs["data_format"]) == "CHANNELS_LAST"
    full = nd + 2
    strides = list(attrs["strides"])
    dilations = list(attrs["dilations"]) or [1] * full
    return nd, last, strides, dilations


def _conv_op_shape(ctx: Any) -> List[TensorShape]:
    x, f = ctx.shape(0), ctx.shape(1)
    if x.rank is None or f.rank is None:
        return [unknown_shape()]
    nd, last, strides, dilations = _conv_geometry(ctx.attrs, x.rank)
    if f.rank != nd + 2:
        raise ValueError(f"Shape must be rank {nd + 2} but is rank {f.rank} "
                         f"{node_desc(ctx)}")
    if len(strides) != nd + 2 or len(dilations) != nd + 2:
        raise ValueError(f"strides and dilations must have length {nd + 2} "
                         f"{node_desc(ctx)}")
    dims, fdims = x.as_list(), f.as_list()
    batch = dims[:x.rank - nd - 1]
    first = 1 if last else 2            # where the spatial entries start in the attrs
    spatial = dims[len(batch):len(batch) + nd] if last else dims[len(batch) + 1:]
    padding = as_str(ctx.attrs["padding"])
    out = [window_output(ctx, spatial[i], fdims[i], strides[first + i],
                         dilations[first + i], padding) for i in range(nd)]
    channels = fdims[-1]
    return [TensorShape(batch + (out + [channels] if last else [channels] + out))]


def _conv_op_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    """Conv as Conv{2,3}D of main's kernels: batch dims folded, data format renamed."""
    rank = node.inputs[0].shape.rank
    if rank is None:
        raise NotImplementedError("tf.conv of an input of unknown rank is not supported by "
                                  "tf1compat")
    nd, last, strides, dilations = _conv_geometry(node.attrs, rank)
    if nd not in (1, 2, 3):
        raise NotImplementedError(f"tf.conv with {nd} spatial dimensions is not supported by "
                                  "tf1compat (1 to 3 are)")
    fmt = {1: "NWC", 2: "NHWC", 3: "NDHWC"}[nd] if last else {1: "NCW", 2: "NCHW",
                                                               3: "NCDHW"}[nd]
    attrs = dict(node.attrs, data_format=fmt, strides=strides, dilations=dilations)
    proxy = types.SimpleNamespace(attrs=attrs, type=f"Conv{nd}D", name=node.name,
                                  inputs=node.inputs, outputs=node.outputs)
    run = _conv_kernel(nd)(proxy, kctx)
    groups = int(node.attrs["groups"])

    def conv_op(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
        # TF's CPU kernel (Conv2D/Conv3D underneath) supports neither of these.
        if not last:
            spatial = {1: "NWC", 2: "NHWC", 3: "NDHWC"}[nd]
            raise errors.UnimplementedError(
                None, None, f"The Conv{nd}D op currently only supports the {spatial} tensor "
                            f"format on the CPU. The op was given the format: {fmt}")
        channels = x.shape[-1]
        if groups != 1 or w.shape[-2] != channels:
            raise errors.UnimplementedError(
                None, None, "Grouped/Depthwise Convolutions are not supported yet.")
        lead = x.shape[:rank - nd - 1]
        folded = x.reshape((-1,) + tuple(x.shape[rank - nd - 1:]))
        y = run(folded, w)
        return y.reshape(tuple(lead) + tuple(y.shape[1:]))
    return conv_op


declare("Conv", inputs=["input: T", "filter: T"], outputs=["output: T"],
        attrs={"T": Type(_CONV_TYPES), "strides": None, "padding": None,
               "explicit_paddings": [], "data_format": "CHANNELS_LAST", "dilations": [],
               "batch_dims": 1, "groups": 1},
        shape=_conv_op_shape, kernel=_conv_op_kernel, grad="unregistered")


def conv(input: Any, filter: Any, strides: Sequence[int], padding: str,  # noqa: A002
         explicit_paddings: Sequence[int] = (), data_format: str = "CHANNELS_LAST",
         dilations: Sequence[int] = (), batch_dims: int = 1, groups: int = 1,
         name: Optional[str] = None) -> Tensor:
    """`tf.conv`: the generic N-D convolution op (leading batch dims, grouped filters)."""
    return apply_op1("Conv", [input, filter],
                     {"strides": [int(s) for s in strides], "padding": padding,
                      "explicit_paddings": [int(p) for p in explicit_paddings],
                      "data_format": data_format, "dilations": [int(d) for d in dilations],
                      "batch_dims": int(batch_dims), "groups": int(groups)}, name=name)


# -- Conv2DBackpropInputV2 / FilterV2 (no CPU kernel in TF) ------------------------------------

def _no_cpu_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    attrs = ", ".join(f"{k}={_attr_text(v)}" for k, v in sorted(node.attrs.items()))
    raise no_kernel(node, attrs)


_BACKPROP_ATTRS = {"strides": None, "use_cudnn_on_gpu": True, "padding": None,
                   "explicit_paddings": [], "data_format": "NHWC", "dilations": [1, 1, 1, 1]}
declare("Conv2DBackpropInputV2", inputs=["input: T", "filter: T", "out_backprop: T"],
        outputs=["output: T"], attrs=dict(_BACKPROP_ATTRS, T=Type(_CONV_TYPES)),
        shape=lambda ctx: [ctx.shape(0)], kernel=_no_cpu_kernel, grad="unregistered")
declare("Conv2DBackpropFilterV2", inputs=["input: T", "filter: T", "out_backprop: T"],
        outputs=["output: T"],
        attrs=dict(_BACKPROP_ATTRS, T=Type((D.float16, D.bfloat16, D.float32, D.float64))),
        shape=lambda ctx: [ctx.shape(1)], kernel=_no_cpu_kernel, grad="unregistered")


def _backprop_v2(op_type: str, public: str) -> Callable[..., Tensor]:
    def backprop(input: Any, filter: Any, out_backprop: Any,  # noqa: A002
                 strides: Sequence[int], padding: str, use_cudnn_on_gpu: bool = True,
                 explicit_paddings: Sequence[int] = (), data_format: str = "NHWC",
                 dilations: Sequence[int] = (1, 1, 1, 1), name: Optional[str] = None
                 ) -> Tensor:
        return apply_op1(op_type, [input, filter, out_backprop],
                         {"strides": [int(s) for s in strides], "padding": padding,
                          "use_cudnn_on_gpu": bool(use_cudnn_on_gpu),
                          "explicit_paddings": [int(p) for p in explicit_paddings],
                          "data_format": data_format,
                          "dilations": [int(d) for d in dilations]}, name=name)
    backprop.__name__ = backprop.__qualname__ = public
    backprop.__doc__ = (f"`tf.{public}` ({op_type}): declared with TF's shapes; like TF "
                        f"2.21 it has no CPU kernel, so running it fails.")
    return backprop


conv2d_backprop_input_v2 = _backprop_v2("Conv2DBackpropInputV2", "conv2d_backprop_input_v2")
conv2d_backprop_filter_v2 = _backprop_v2("Conv2DBackpropFilterV2",
                                         "conv2d_backprop_filter_v2")


# -- Dilation2D -------------------------------------------------------------------------------

def _dilation_attrs(attrs: Any) -> tuple:
    return list(attrs["strides"]), list(attrs["rates"]), as_str(attrs["padding"])


def _dilation_shape(ctx: Any) -> List[TensorShape]:
    strides, rates, padding = _dilation_attrs(ctx.attrs)
    n, h, w, c = check_rank(ctx, ctx.shape(0), 4)
    fh, fw, fc = check_rank(ctx, ctx.shape(1), 3)
    if c is not None and fc is not None and c != fc:
        raise ValueError(f"Dimensions must be equal, but are {c} and {fc} {node_desc(ctx)}")
    oh = window_output(ctx, h, fh, strides[1], rates[1], padding)
    ow = window_output(ctx, w, fw, strides[2], rates[2], padding)
    return [TensorShape([n, oh, ow, c if c is not None else fc])]


def _dilation_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    strides, rates, padding = _dilation_attrs(node.attrs)

    def dilation2d_op(x: torch.Tensor, f: torch.Tensor) -> torch.Tensor:
        n, h, w, c = x.shape
        fh, fw = int(f.shape[0]), int(f.shape[1])
        oh, top, bottom = window_padding(h, fh, strides[1], rates[1], padding)
        ow, left, right = window_padding(w, fw, strides[2], rates[2], padding)
        work = x if x.is_floating_point() else x.double()
        low = torch.finfo(work.dtype).min
        # Padding never wins the max: TF only visits in-bounds positions.
        padded = F.pad(work.permute(0, 3, 1, 2), [left, right, top, bottom], value=-np.inf)
        cols = F.unfold(padded, (fh, fw), dilation=(rates[1], rates[2]),
                        stride=(strides[1], strides[2]))
        cols = cols.reshape(n, c, fh * fw, oh, ow)
        weights = f.to(work.dtype).permute(2, 0, 1).reshape(1, c, fh * fw, 1, 1)
        out = (cols + weights).amax(dim=2)
        out = torch.where(torch.isinf(out) & (out < 0), torch.full_like(out, low), out)
        out = out.permute(0, 2, 3, 1)
        return out if x.is_floating_point() else out.round().to(x.dtype)
    return dilation2d_op


declare("Dilation2D", inputs=["input: T", "filter: T"], outputs=["output: T"],
        attrs={"T": Type(_REAL), "strides": None, "rates": None, "padding": None},
        shape=_dilation_shape, kernel=_dilation_kernel,
        flops=flops.convolution(2, depthwise=True))


def dilation2d(input: Any, filter: Any = None, strides: Any = None,  # noqa: A002
               rates: Any = None, padding: Any = None, name: Optional[str] = None,
               filters: Any = None, dilations: Any = None) -> Tensor:
    """`tf.nn.dilation2d` (TF1): grayscale morphological dilation (max of input + filter
    over each window), per channel."""
    if filters is not None:
        if filter is not None:
            raise ValueError("Cannot specify both 'filters' and 'filter'")
        filter = filters  # noqa: A001
    if dilations is not None:
        if rates is not None:
            raise ValueError("Cannot specify both 'dilations' and 'rates'")
        rates = dilations
    return apply_op1("Dilation2D", [input, filter],
                     {"strides": [int(s) for s in strides], "rates": [int(r) for r in rates],
                      "padding": padding}, name=name)


def erosion2d(value: Any, kernel: Any, strides: Any, rates: Any, padding: str,
              name: Optional[str] = None) -> Tensor:
    """`tf.nn.erosion2d` (TF1): -dilation2d(-value, kernel reversed in its two spatial
    axes), as TF builds it."""
    with name_scope(name, "erosion2d", [value, kernel]) as scope:
        return negative(apply_op1("Dilation2D", [negative(value), reverse(kernel, [0, 1])],
                                  {"strides": [int(s) for s in strides],
                                   "rates": [int(r) for r in rates], "padding": padding},
                                  name=scope))


# -- ExtractVolumePatches --------------------------------------------------------------------

def _volume_attrs(attrs: Any) -> tuple:
    return list(attrs["ksizes"]), list(attrs["strides"]), as_str(attrs["padding"])


def _volume_shape(ctx: Any) -> List[TensorShape]:
    ks, ss, padding = _volume_attrs(ctx.attrs)
    if ks[0] != 1 or ks[4] != 1 or ss[0] != 1 or ss[4] != 1:
        raise ValueError("ExtractVolumePatches is only supported across planes, rows and "
                         f"columns {node_desc(ctx)}")
    n, d, h, w, c = check_rank(ctx, ctx.shape(0), 5)
    out = [window_output(ctx, size, ks[i + 1], ss[i + 1], 1, padding)
           for i, size in enumerate((d, h, w))]
    depth = None if c is None else ks[1] * ks[2] * ks[3] * c
    return [TensorShape([n] + out + [depth])]


def _volume_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    ks, ss, padding = _volume_attrs(node.attrs)

    def extract_volume_patches_op(x: torch.Tensor) -> torch.Tensor:
        n, c = x.shape[0], x.shape[4]
        geometry = [window_padding(int(x.shape[i + 1]), ks[i + 1], ss[i + 1], 1, padding)
                    for i in range(3)]
        flat: List[int] = []
        for _, before, after in reversed(geometry):
            flat.extend([before, after])
        work = x if x.is_floating_point() else x.double()
        padded = F.pad(work, [0, 0] + flat)
        for axis in (1, 2, 3):      # windows along planes, rows, columns
            padded = padded.unfold(axis, ks[axis], ss[axis])
        # [N, od, oh, ow, C, kd, kh, kw] -> TF's depth order (plane, row, col, channel)
        out = padded.permute(0, 1, 2, 3, 5, 6, 7, 4)
        od, oh, ow = (g[0] for g in geometry)
        out = out.reshape(n, od, oh, ow, ks[1] * ks[2] * ks[3] * c)
        return out if x.is_floating_point() else out.to(x.dtype)
    return extract_volume_patches_op


declare("ExtractVolumePatches", inputs=["input: T"], outputs=["patches: T"],
        attrs={"ksizes": None, "strides": None, "padding": None, "T": Type(_REAL)},
        shape=_volume_shape, kernel=_volume_kernel)


def extract_volume_patches(input: Any, ksizes: Sequence[int],  # noqa: A002
                           strides: Sequence[int], padding: str,
                           name: Optional[str] = None) -> Tensor:
    """`tf.extract_volume_patches`: 3-D patches of an [N, D, H, W, C] volume, flattened
    into the depth dimension."""
    return apply_op1("ExtractVolumePatches", [input],
                     {"ksizes": [int(k) for k in ksizes],
                      "strides": [int(s) for s in strides], "padding": padding}, name=name)


# -- transposed convolutions -------------------------------------------------------------------

_TRANSPOSE_FORMATS = {1: "NWC", 2: "NHWC", 3: "NDHWC"}


def conv_transpose(input: Any, filters: Any, output_shape: Any, strides: Any,  # noqa: A002
                   padding: str = "SAME", data_format: Optional[str] = None,
                   dilations: Any = None, name: Optional[str] = None) -> Tensor:
    """`tf.nn.conv_transpose`: conv1d/2d/3d_transpose picked by len(output_shape)."""
    with name_scope(name, "conv_transpose", [input, filters, output_shape]) as scope:
        if isinstance(output_shape, Tensor):
            n = output_shape.shape[0] - 2 if output_shape.shape.rank == 1 else None
            n = None if n is None else int(n)
        elif hasattr(output_shape, "__len__"):
            n = len(output_shape) - 2
        else:
            raise ValueError(f"`output_shape` must be a tensor or sized collection. Received: "
                             f"output_shape={output_shape}")
        if n is None or not 1 <= n <= 3:
            raise ValueError(f"`output_shape` must be of length 3, 4 or 5. Received: "
                             f"output_shape={output_shape} of length "
                             f"{None if n is None else n + 2}.")
        fmt = data_format or _TRANSPOSE_FORMATS[n]
        if n == 1:
            return conv1d_transpose(input, filters, output_shape, strides, padding=padding,
                                    data_format=fmt, dilations=dilations, name=scope)
        if n == 2:
            return conv2d_transpose(input, filters, output_shape, strides, padding=padding,
                                    data_format=fmt, dilations=dilations, name=scope)
        return conv3d_transpose(input, filters, output_shape, strides, padding=padding,
                                data_format=fmt, dilations=dilations, name=scope)


def atrous_conv2d_transpose(value: Any, filters: Any, output_shape: Any, rate: int,
                            padding: str, name: Optional[str] = None) -> Tensor:
    """`tf.nn.atrous_conv2d_transpose`: the transpose of atrous_conv2d, built as TF builds
    it (space_to_batch, Conv2DBackpropInput, batch_to_space)."""
    with name_scope(name, "atrous_conv2d_transpose", [value, filters, output_shape]):
        value = convert_to_tensor(value, name="value")
        filters = convert_to_tensor(filters, name="filters")
        if not value.get_shape().dims[3].is_compatible_with(filters.get_shape()[3]):
            raise ValueError(f"`value` channel count must be compatible with `filters` input "
                             f"channel count. Received: value.shape={value.get_shape()} with "
                             f"channel count {value.get_shape()[3]} and "
                             f"filters.shape={filters.get_shape()} with input channel count "
                             f"{filters.get_shape()[3]}.")
        if rate < 1:
            raise ValueError(f"`rate` cannot be less than one. Received: rate={rate}")
        if rate == 1:
            return conv2d_transpose(value, filters, output_shape, strides=[1, 1, 1, 1],
                                    padding=padding, data_format="NHWC")
        shape_tensor = convert_to_tensor(output_shape, name="output_shape")
        if not shape_tensor.get_shape().is_compatible_with(TensorShape([4])):
            raise ValueError(f"`output_shape` must have shape (4,). Received: "
                             f"output_shape={shape_tensor.get_shape()}")
        if isinstance(output_shape, tuple):
            output_shape = list(output_shape)
        if isinstance(output_shape, (list, np.ndarray)):
            if not filters.get_shape().dims[2].is_compatible_with(output_shape[3]):
                raise ValueError(f"`output_shape` channel count must be compatible with "
                                 f"`filters` output channel count. Received: "
                                 f"output_shape={output_shape} with channel count "
                                 f"{output_shape[3]} and filters.shape={filters.get_shape()} "
                                 f"with output channel count {filters.get_shape()[3]}.")
        else:       # a tensor: the sizes below are computed in the graph, as TF does
            output_shape = shape_tensor
        if padding == "SAME":
            if not filters.get_shape().is_fully_defined():
                raise NotImplementedError("tf.nn.atrous_conv2d_transpose with SAME padding "
                                          "needs a filter of static shape in tf1compat")
            fh, fw = filters.get_shape().as_list()[:2]
            pad_h = fh + (fh - 1) * (rate - 1) - 1
            pad_w = fw + (fw - 1) * (rate - 1) - 1
            top, left = pad_h // 2, pad_w // 2
            bottom, right = pad_h - top, pad_w - left
        elif padding == "VALID":
            top = bottom = left = right = 0
        else:
            raise ValueError(f"`padding` must be either 'VALID' or 'SAME'. Received: "
                             f"padding={padding}")
        in_h = output_shape[1] + top + bottom
        in_w = output_shape[2] + left + right
        extra_h = (rate - in_h % rate) % rate
        extra_w = (rate - in_w % rate) % rate
        value = space_to_batch(value, paddings=[[0, extra_h], [0, extra_w]], block_size=rate)
        input_sizes = [rate * rate * output_shape[0], (in_h + extra_h) // rate,
                       (in_w + extra_w) // rate, output_shape[3]]
        value = conv2d_backprop_input(input_sizes, filters, value, strides=[1, 1, 1, 1],
                                      padding="VALID", data_format="NHWC")
        return batch_to_space(value, crops=[[top, bottom + extra_h], [left, right + extra_w]],
                              block_size=rate)
