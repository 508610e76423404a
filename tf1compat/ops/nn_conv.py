"""Convolutions in TF's layouts: Conv2D/Conv3D, DepthwiseConv2dNative, their backprop-input
(transposed) and backprop-filter ops, and the tf.nn wrappers (conv1d, conv2d, conv3d,
conv2d_transpose, depthwise/separable/atrous convolution, tf.nn.convolution).

Kernels run torch's NCHW convolutions on a permuted *view* of the NHWC input: a
contiguous NHWC tensor seen as [N, C, H, W] is torch's channels_last memory format, so no
copy is made and the output (channels_last) permutes back to NHWC as a view. TF's SAME
padding puts the odd element at the end; symmetric padding is passed to torch directly,
asymmetric padding pads the input first.
"""

from __future__ import annotations

import collections.abc
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch
import torch.nn.functional as F

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.grad_names import names
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops import array_ops
from tf1compat.ops._kernels import as_int_list, static_ints
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops._window import (as_str, channel_axis, channels_first, check_rank,
                                   explicit_pairs, from_channels_first, pad_spatial,
                                   spatial_attr, spatial_axes, to_channels_first,
                                   transposed_window, window_output, window_padding)
from tf1compat.ops.space_batch_ops import with_space_to_batch
from tf1compat.ops import _flops_rules as flops

__all__ = ["conv1d", "conv2d", "conv3d", "conv2d_transpose", "conv3d_transpose",
           "conv1d_transpose", "conv2d_backprop_input", "conv2d_backprop_filter",
           "depthwise_conv2d", "depthwise_conv2d_native", "separable_conv2d",
           "atrous_conv2d", "convolution", "convert_padding"]

_PADDINGS = ("SAME", "VALID", "EXPLICIT")
_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


# -- static shape rules -----------------------------------------------------------------------

def _check_attrs(ctx: Any, nd: int) -> Tuple[str, List[int], List[int], str, Any]:
    fmt = as_str(ctx.attrs["data_format"])
    strides = list(ctx.attrs["strides"])
    dilations = list(ctx.attrs.get("dilations") or [1] * (nd + 2))
    padding = as_str(ctx.attrs["padding"])
    if padding not in _PADDINGS:
        raise ValueError(f"Value for attr 'padding' of \"{padding}\" is not in the list of "
                         f"allowed values: \"SAME\", \"VALID\", \"EXPLICIT\"")
    if len(strides) != nd + 2:
        raise ValueError(f"Conv{nd}D requires the stride attribute to contain {nd + 2} "
                         f"values, but got: {len(strides)} {node_desc(ctx)}")
    if len(dilations) != nd + 2:
        raise ValueError(f"Conv{nd}D requires the dilation attribute to contain {nd + 2} "
                         f"values, but got: {len(dilations)} {node_desc(ctx)}")
    batch_ch = [0, channel_axis(fmt, nd)]
    explicit = None
    flat = list(ctx.attrs.get("explicit_paddings") or [])
    if padding == "EXPLICIT":
        if len(flat) != 2 * (nd + 2):
            raise ValueError(f"explicit_paddings attribute must contain {2 * (nd + 2)} "
                             f"values, but got: {len(flat)} {node_desc(ctx)}")
        pairs = [flat[2 * i:2 * i + 2] for i in range(nd + 2)]
        if any(v != 0 for a in batch_ch for v in pairs[a]):
            raise ValueError("Nonzero explicit padding in the batch or depth dimensions is "
                             f"not supported {node_desc(ctx)}")
        if any(v < 0 for v in flat):
            raise ValueError(f"Explicit padding must be non-negative {node_desc(ctx)}")
        explicit = explicit_pairs(flat, fmt, nd)
    elif flat:
        raise ValueError(f"explicit_paddings must be empty when padding is not EXPLICIT "
                         f"{node_desc(ctx)}")
    return fmt, spatial_attr(strides, fmt, nd), spatial_attr(dilations, fmt, nd), \
        padding, explicit


def _assemble(fmt: str, nd: int, batch: Any, spatial: List[Any], channels: Any) -> TensorShape:
    if channels_first(fmt):
        return TensorShape([batch, channels] + spatial)
    return TensorShape([batch] + spatial + [channels])


def _conv_shape(nd: int, depthwise: bool = False) -> Callable[[Any], List[TensorShape]]:
    def rule(ctx: Any) -> List[TensorShape]:
        fmt, strides, dilations, padding, explicit = _check_attrs(ctx, nd)
        x = check_rank(ctx, ctx.shape(0), nd + 2)
        f = check_rank(ctx, ctx.shape(1), nd + 2)
        in_ch = x[channel_axis(fmt, nd)]
        f_in, f_out = f[nd], f[nd + 1]
        if depthwise:
            if in_ch is not None and f_in is not None and in_ch != f_in:
                raise ValueError(f"Dimensions must be equal, but are {in_ch} and {f_in} "
                                 f"{node_desc(ctx)}")
            ch = in_ch if in_ch is not None else f_in
            out_ch = None if ch is None or f_out is None else ch * f_out
        else:
            if in_ch is not None and f_in is not None and (f_in == 0 or in_ch % f_in):
                raise ValueError(f"Depth of input ({in_ch}) is not a multiple of input depth "
                                 f"of filter ({f_in}) {node_desc(ctx)}")
            out_ch = f_out
        sizes = [x[a] for a in spatial_axes(fmt, nd)]
        out = [window_output(ctx, sizes[i], f[i], strides[i], dilations[i], padding,
                             explicit[i] if explicit else None) for i in range(nd)]
        return [_assemble(fmt, nd, x[0], out, out_ch)]
    return rule


def _backprop_input_shape(nd: int, depthwise: bool = False,
                          batch_from_sizes: bool = False) -> Callable[[Any], List[TensorShape]]:
    def rule(ctx: Any) -> List[TensorShape]:
        fmt, _, _, _, _ = _check_attrs(ctx, nd)
        check_rank(ctx, ctx.shape(1), nd + 2)
        dy = check_rank(ctx, ctx.shape(2), nd + 2)
        sizes = ctx.const_shape(0)
        if sizes.rank is None:
            return [unknown_shape(nd + 2)]
        dims = sizes.as_list()
        if len(dims) != nd + 2:
            raise ValueError(f"Shape must be rank {nd + 2} but is rank {len(dims)} "
                             f"{node_desc(ctx)}")
        if not batch_from_sizes:
            # TF 2's shape function takes the batch from out_backprop (TF 1.15 took
            # input_sizes whole) after checking that a known input_sizes batch equals it.
            batch = dy[0]
            if None not in (dims[0], batch) and dims[0] != batch:
                raise ValueError(f"Dimensions must be equal, but are {dims[0]} and {batch} "
                                 f"{node_desc(ctx, partial=(0,))}")
            dims[0] = batch
        return [TensorShape(dims)]
    return rule


def _backprop_filter_shape(nd: int) -> Callable[[Any], List[TensorShape]]:
    def rule(ctx: Any) -> List[TensorShape]:
        _check_attrs(ctx, nd)
        sizes = ctx.const_shape(1)
        return [sizes if sizes.rank is not None else unknown_shape(nd + 2)]
    return rule


# -- kernels ----------------------------------------------------------------------------------

class _Geometry:
    """Per-op window attrs decoded once; padding resolved (and cached) per input size."""

    def __init__(self, node: Any, nd: int, stride_error: type = errors.UnimplementedError):
        attrs = node.attrs
        self.nd = nd
        self.fmt = as_str(attrs["data_format"])
        self.strides = spatial_attr(attrs["strides"], self.fmt, nd)
        self.dilations = spatial_attr(attrs.get("dilations") or [1] * (nd + 2), self.fmt, nd)
        self.padding = as_str(attrs["padding"])
        flat = attrs.get("explicit_paddings") or []
        self.explicit = explicit_pairs(flat, self.fmt, nd) if self.padding == "EXPLICIT" \
            else None
        self._cache: Dict[tuple, tuple] = {}
        full_s = list(attrs["strides"])
        full_d = list(attrs.get("dilations") or [1] * (nd + 2))
        batch_ch = (0, channel_axis(self.fmt, nd))
        # TF checks these when the kernel is built, i.e. at run time; its convolution
        # kernels call batch or depth strides unimplemented, the gradient (and fused pad)
        # kernels invalid.
        if any(full_s[a] != 1 for a in batch_ch):
            raise stride_error(None, None, "Current implementation does not yet support "
                                           "strides in the batch and depth dimensions.")
        if any(full_d[a] != 1 for a in batch_ch):
            raise errors.InvalidArgumentError(
                None, None, "Current implementation does not yet support dilations in the "
                            "batch and depth dimensions.")

    def resolve(self, sizes: Sequence[int], ks: Sequence[int]) -> tuple:
        """(output sizes, [(before, after)] per axis); InvalidArgumentError if negative."""
        key = (tuple(sizes), tuple(ks))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        outs, pads = [], []
        for i in range(self.nd):
            out, b, a = window_padding(sizes[i], ks[i], self.strides[i], self.dilations[i],
                                       self.padding, self.explicit[i] if self.explicit else None)
            if out < 0:
                eff = (ks[i] - 1) * self.dilations[i] + 1
                raise errors.InvalidArgumentError(
                    None, None, f"Computed output size would be negative: {out} "
                                f"[input_size: {sizes[i]}, effective_filter_size: {eff}, "
                                f"stride: {self.strides[i]}]")
            outs.append(out)
            pads.append((b, a))
        result = (outs, pads)
        self._cache[key] = result
        return result


def _is_integer(node: Any) -> bool:
    return node.attrs["T"].is_integer


def _weight(w: torch.Tensor, nd: int, depthwise: bool) -> torch.Tensor:
    """TF filter [k..., in, out] (depthwise [k..., C, M]) as torch's [out, in/groups, k...]."""
    if depthwise:
        ks = list(w.shape[:nd])
        w = w.reshape(ks + [1, w.shape[nd] * w.shape[nd + 1]])
    weight = w.permute(nd + 1, nd, *range(nd))
    # One output channel makes the view's strides ambiguous; torch's CPU convolution
    # then back-propagates through its slow path, which refuses a non-contiguous weight
    # ("slow_conv2d: grad_weight must be contiguous").
    return weight.contiguous() if weight.shape[0] == 1 else weight


def _conv_kernel(nd: int, depthwise: bool = False,
                 stride_error: type = errors.UnimplementedError
                 ) -> Callable[[Any, Any], Callable]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        geo = _Geometry(node, nd, stride_error)
        conv = _CONV[nd]
        integer = _is_integer(node)

        def run(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
            xin = to_channels_first(x, geo.fmt)
            in_ch = xin.shape[1]
            f_in = w.shape[nd]
            if depthwise:
                if in_ch != f_in:
                    raise errors.InvalidArgumentError(
                        None, None, f"input and filter must have the same depth: {in_ch} vs "
                                    f"{f_in}")
                groups = in_ch
            else:
                if f_in == 0 or in_ch % f_in:
                    raise errors.InvalidArgumentError(
                        None, None, f"input depth must be evenly divisible by filter depth: "
                                    f"{in_ch} vs {f_in}")
                groups = in_ch // f_in
            weight = _weight(w, nd, depthwise)
            outs, pads = geo.resolve(xin.shape[2:], w.shape[:nd])
            if 0 in outs or xin.shape[0] == 0:
                shape = [xin.shape[0], weight.shape[0]] + list(outs)
                return from_channels_first(x.new_zeros(shape), geo.fmt)
            if integer:
                xin, weight = xin.double(), weight.double()
            if all(b == a for b, a in pads):
                y = conv(xin, weight, None, geo.strides, [b for b, _ in pads], geo.dilations,
                         groups)
            else:
                y = conv(pad_spatial(xin, pads), weight, None, geo.strides, 0, geo.dilations,
                         groups)
            if integer:
                y = torch.round(y).to(x.dtype)
            return from_channels_first(y, geo.fmt)
        return run
    return factory


def _backprop_input_kernel(nd: int, depthwise: bool = False) -> Callable[[Any, Any], Callable]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        geo = _Geometry(node, nd, errors.InvalidArgumentError)
        conv_t = _CONV_T[nd]
        sizes_static = static_ints(node, 0)
        integer = _is_integer(node)

        def run(sizes: Any, w: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
            full = sizes_static if sizes_static is not None else as_int_list(sizes)
            if len(full) != nd + 2:
                raise errors.InvalidArgumentError(
                    None, None, f"input_sizes must be {nd + 2}-dimensional, got: {len(full)}")
            axes = spatial_axes(geo.fmt, nd)
            in_sizes = [full[a] for a in axes]
            ks = list(w.shape[:nd])
            outs, pads = geo.resolve(in_sizes, ks)
            dyc = to_channels_first(dy, geo.fmt)
            for i in range(nd):
                if dyc.shape[2 + i] != outs[i]:
                    raise errors.InvalidArgumentError(
                        None, None, f"Conv{nd}DBackpropInput: Size of out_backprop doesn't "
                                    f"match computed: actual = {dyc.shape[2 + i]}, computed = "
                                    f"{outs[i]} spatial_dim: {i + 1} input: {in_sizes[i]} "
                                    f"filter: {ks[i]} output: {dyc.shape[2 + i]} stride: "
                                    f"{geo.strides[i]} dilation: {geo.dilations[i]}")
            in_ch = full[channel_axis(geo.fmt, nd)]
            groups = in_ch if depthwise else max(in_ch // max(w.shape[nd], 1), 1)
            weight = _weight(w, nd, depthwise)
            if integer:
                dyc, weight = dyc.double(), weight.double()
            torch_pads, out_pad, start, extra = (list(v) for v in zip(*[transposed_window(
                in_sizes[i], outs[i], (ks[i] - 1) * geo.dilations[i] + 1, geo.strides[i],
                geo.dilations[i], pads[i][0]) for i in range(nd)]))
            y = conv_t(dyc, weight, None, geo.strides, torch_pads, out_pad, groups,
                       geo.dilations)
            if any(extra) or any(start):
                index = [slice(None), slice(None)]
                grow = []
                for i in range(nd):
                    index.append(slice(start[i], start[i] + in_sizes[i]) if extra[i] < 0 or
                                 start[i] else slice(None))
                    grow.append((0, max(extra[i], 0)))
                y = y[tuple(index)]
                if any(g for _, g in grow):
                    y = pad_spatial(y, grow)
            if integer:
                y = torch.round(y).to(dy.dtype)
            return from_channels_first(y, geo.fmt)
        return run
    return factory


def _backprop_filter_kernel(nd: int, depthwise: bool = False) -> Callable[[Any, Any], Callable]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        geo = _Geometry(node, nd, errors.InvalidArgumentError)
        sizes_static = static_ints(node, 1)

        def run(x: torch.Tensor, sizes: Any, dy: torch.Tensor) -> torch.Tensor:
            fshape = sizes_static if sizes_static is not None else as_int_list(sizes)
            xin = to_channels_first(x, geo.fmt)
            dyc = to_channels_first(dy, geo.fmt)
            _, pads = geo.resolve(xin.shape[2:], fshape[:nd])
            xin = pad_spatial(xin, pads) if any(b or a for b, a in pads) else xin
            groups = xin.shape[1] if depthwise else xin.shape[1] // fshape[nd]
            if depthwise:
                torch_shape = [fshape[nd] * fshape[nd + 1], 1] + list(fshape[:nd])
            else:
                torch_shape = [fshape[nd + 1], fshape[nd]] + list(fshape[:nd])
            empty = xin.new_zeros(torch_shape)
            _, grad_w, _ = torch.ops.aten.convolution_backward(
                dyc, xin, empty, None, geo.strides, [0] * nd, geo.dilations, False,
                [0] * nd, groups, [False, True, False])
            # [out, in, k...] -> TF's [k..., in, out]
            grad_w = grad_w.permute(*range(2, nd + 2), 1, 0)
            return grad_w.reshape(fshape)
        return run
    return factory


_CONV_ATTRS = {"strides": None, "padding": None, "explicit_paddings": [],
               "data_format": "NHWC", "dilations": [1, 1, 1, 1]}


def _attrs(types: Sequence[D.DType], nd: int, extra: Optional[dict] = None,
           explicit: bool = True) -> dict:
    attrs: Dict[str, Any] = {"T": Type(tuple(types))}
    attrs.update({"strides": None, "padding": None,
                  "data_format": "NHWC" if nd == 2 else "NDHWC",
                  "dilations": [1] * (nd + 2)})
    if explicit:
        attrs["explicit_paddings"] = []
    attrs.update(extra or {})
    return attrs


_REQUIRED = ("strides", "padding")

declare("Conv2D", inputs=["input: T", "filter: T"], outputs=["output: T"],
        attrs=_attrs(D.FLOATING_TYPES + (D.int32,), 2, {"use_cudnn_on_gpu": True}),
        shape=_conv_shape(2), kernel=_conv_kernel(2),
        grad_names=names("Conv2DBackpropInput", "Conv2DBackpropFilter"),
        flops=flops.convolution(2))
declare("Conv3D", inputs=["input: T", "filter: T"], outputs=["output: T"],
        attrs=_attrs(D.FLOATING_TYPES, 3, explicit=False), shape=_conv_shape(3),
        kernel=_conv_kernel(3), flops=flops.convolution(3))
declare("DepthwiseConv2dNative", inputs=["input: T", "filter: T"], outputs=["output: T"],
        attrs=_attrs(D.FLOATING_TYPES, 2), shape=_conv_shape(2, depthwise=True),
        kernel=_conv_kernel(2, depthwise=True), flops=flops.convolution(2, depthwise=True))
declare("Conv2DBackpropInput", inputs=["input_sizes: int32", "filter: T", "out_backprop: T"],
        outputs=["output: T"],
        attrs=_attrs(D.FLOATING_TYPES + (D.int32,), 2, {"use_cudnn_on_gpu": True}),
        shape=_backprop_input_shape(2), kernel=_backprop_input_kernel(2),
        flops=flops.conv2d_backprop_input)
declare("Conv3DBackpropInputV2", inputs=["input_sizes: Tshape", "filter: T",
                                         "out_backprop: T"],
        outputs=["output: T"], attrs=_attrs(D.FLOATING_TYPES, 3, {"Tshape": Type(
            (D.int32, D.int64), default=D.int32)}, explicit=False),
        shape=_backprop_input_shape(3, batch_from_sizes=True),
        kernel=_backprop_input_kernel(3))
declare("DepthwiseConv2dNativeBackpropInput",
        inputs=["input_sizes: int32", "filter: T", "out_backprop: T"], outputs=["output: T"],
        attrs=_attrs(D.FLOATING_TYPES, 2),
        shape=_backprop_input_shape(2, depthwise=True, batch_from_sizes=True),
        kernel=_backprop_input_kernel(2, depthwise=True))
declare("Conv2DBackpropFilter", inputs=["input: T", "filter_sizes: int32", "out_backprop: T"],
        outputs=["output: T"], attrs=_attrs(D.FLOATING_TYPES, 2, {"use_cudnn_on_gpu": True}),
        shape=_backprop_filter_shape(2), kernel=_backprop_filter_kernel(2),
        flops=flops.conv2d_backprop_filter)
declare("Conv3DBackpropFilterV2", inputs=["input: T", "filter_sizes: int32",
                                          "out_backprop: T"],
        outputs=["output: T"], attrs=_attrs(D.FLOATING_TYPES, 3, explicit=False),
        shape=_backprop_filter_shape(3), kernel=_backprop_filter_kernel(3))
declare("DepthwiseConv2dNativeBackpropFilter",
        inputs=["input: T", "filter_sizes: int32", "out_backprop: T"], outputs=["output: T"],
        attrs=_attrs(D.FLOATING_TYPES, 2), shape=_backprop_filter_shape(2),
        kernel=_backprop_filter_kernel(2, depthwise=True))


# -- argument helpers (TF's nn_ops) -----------------------------------------------------------

def convert_padding(padding: Any, expected_length: int = 4) -> Tuple[str, List[int]]:
    """A padding argument as (padding attr, explicit_paddings): lists mean EXPLICIT."""
    explicit: List[int] = []
    if isinstance(padding, bytes):
        padding = padding.decode()
    if padding == "EXPLICIT":
        raise ValueError("'EXPLICIT' is not a valid value for `padding`. To use explicit "
                         "padding, `padding` must be a list.")
    if isinstance(padding, (list, tuple)):
        for i, pair in enumerate(padding):
            if not isinstance(pair, (list, tuple)):
                raise ValueError("When `padding` is a list, each element of `padding` must be "
                                 f"a list/tuple of size 2. Received: padding={padding} with "
                                 f"element at index {i} of type {type(pair)}")
            if len(pair) != 2:
                raise ValueError("When `padding` is a list, each element of `padding` must be "
                                 f"a list/tuple of size 2. Received: padding={padding} with "
                                 f"element at index {i} of size {len(pair)}")
            explicit.extend(int(v) for v in pair)
        if len(padding) != expected_length:
            raise ValueError(f"When padding is a list, it must be of size {expected_length}. "
                             f"Received: padding={padding} of size {len(padding)}")
        padding = "EXPLICIT"
    return padding, explicit


def get_sequence(value: Any, n: int, channel_index: int, name: str) -> List[int]:
    """A stride/dilation/ksize argument as a full-rank list (TF's _get_sequence)."""
    if value is None:
        return [1] * (n + 2)
    if isinstance(value, (list, tuple)):
        value = list(value)
    elif isinstance(value, (int, np.integer)) or not isinstance(value, collections.abc.Sized):
        value = [value]
    else:
        value = list(value)
    if len(value) == n + 2:
        return value
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: "
                         f"{name}={value} of length {len(value)}")
    return [1, 1] + value if channel_index == 1 else [1] + value + [1]


def _ints(values: Sequence[Any]) -> List[int]:
    return [int(v) for v in values]


def _data_format(data_format: Any, default: str) -> str:
    return default if data_format is None else as_str(data_format)


# -- wrappers ---------------------------------------------------------------------------------

def conv2d(input: Any, filter: Any = None, strides: Any = None,  # noqa: A002
           padding: Any = None, use_cudnn_on_gpu: bool = True, data_format: Any = "NHWC",
           dilations: Any = (1, 1, 1, 1), name: Optional[str] = None,
           filters: Any = None) -> Tensor:
    """`tf.nn.conv2d` (TF1): NHWC (or NCHW) input, filter [h, w, in, out]."""
    if filters is not None:
        if filter is not None:
            raise ValueError("Cannot specify both 'filters' and 'filter'")
        filter = filters
    padding, explicit = convert_padding(padding)
    fmt = _data_format(data_format, "NHWC")
    channel_index = 1 if fmt.startswith("NC") else 3
    strides = get_sequence(strides, 2, channel_index, "strides")
    dilations = get_sequence(list(dilations) if isinstance(dilations, tuple) else dilations,
                             2, channel_index, "dilations")
    rank = getattr(getattr(input, "shape", None), "rank", None)
    if rank not in (None, 4) and isinstance(input, Tensor) and rank > 4:
        raise NotImplementedError("tf.nn.conv2d with extra batch dimensions (rank > 4) is "
                                  "not supported by tf1compat")
    return apply_op1("Conv2D", [input, filter],
                     {"strides": _ints(strides), "padding": padding,
                      "use_cudnn_on_gpu": bool(use_cudnn_on_gpu),
                      "explicit_paddings": explicit, "data_format": fmt,
                      "dilations": _ints(dilations)}, name=name)


def conv1d(value: Any = None, filters: Any = None, stride: Any = None, padding: Any = None,
           use_cudnn_on_gpu: Any = None, data_format: Any = None, name: Optional[str] = None,
           input: Any = None, dilations: Any = None) -> Tensor:  # noqa: A002
    """`tf.nn.conv1d`: a Conv2D on inputs with an inserted spatial axis, squeezed after."""
    if input is not None:
        value = input
    with name_scope(name, "conv1d", [value, filters]) as scope:
        if data_format is None or data_format in ("NHWC", "NWC"):
            fmt, spatial_start, channel_index = "NHWC", -3, 2
        elif data_format in ("NCHW", "NCW"):
            fmt, spatial_start, channel_index = "NCHW", -2, 1
        else:
            raise ValueError("`data_format` must be 'NWC' or 'NCW'. Received: "
                             f"data_format={data_format}")
        strides = [1] + get_sequence(stride, 1, channel_index, "stride")
        dil = [1] + get_sequence(dilations, 1, channel_index, "dilations")
        value = array_ops.expand_dims(value, spatial_start)
        filters = array_ops.expand_dims(filters, 0)
        if value.shape.rank not in (None, 4):
            raise NotImplementedError("tf.nn.conv1d with extra batch dimensions is not "
                                      "supported by tf1compat")
        padding_attr, explicit = convert_padding(padding, 3) if isinstance(
            padding, (list, tuple)) else (padding, [])
        if padding_attr == "EXPLICIT":
            explicit = [0, 0] + explicit if fmt == "NHWC" else explicit[:4] + [0, 0] + \
                explicit[4:]
        result = apply_op1("Conv2D", [value, filters],
                           {"strides": _ints(strides), "padding": padding_attr,
                            "use_cudnn_on_gpu": True if use_cudnn_on_gpu is None
                            else bool(use_cudnn_on_gpu),
                            "explicit_paddings": explicit, "data_format": fmt,
                            "dilations": _ints(dil)}, name=scope)
        return array_ops.squeeze(result, [spatial_start])


def conv2d_backprop_input(input_sizes: Any, filter: Any = None,  # noqa: A002
                          out_backprop: Any = None, strides: Any = None, padding: Any = None,
                          use_cudnn_on_gpu: bool = True, data_format: str = "NHWC",
                          dilations: Any = (1, 1, 1, 1), name: Optional[str] = None,
                          filters: Any = None) -> Tensor:
    """`tf.nn.conv2d_backprop_input`: the gradient of conv2d w.r.t. its input."""
    filter = filters if filters is not None else filter
    padding, explicit = convert_padding(padding)
    return apply_op1("Conv2DBackpropInput", [input_sizes, filter, out_backprop],
                     {"strides": _ints(strides), "padding": padding,
                      "use_cudnn_on_gpu": bool(use_cudnn_on_gpu),
                      "explicit_paddings": explicit, "data_format": data_format,
                      "dilations": _ints(dilations)}, name=name)


def conv2d_backprop_filter(input: Any, filter_sizes: Any, out_backprop: Any,  # noqa: A002
                           strides: Any, padding: Any, use_cudnn_on_gpu: bool = True,
                           data_format: str = "NHWC", dilations: Any = (1, 1, 1, 1),
                           name: Optional[str] = None) -> Tensor:
    """`tf.nn.conv2d_backprop_filter`: the gradient of conv2d w.r.t. its filter."""
    padding, explicit = convert_padding(padding)
    return apply_op1("Conv2DBackpropFilter", [input, filter_sizes, out_backprop],
                     {"strides": _ints(strides), "padding": padding,
                      "use_cudnn_on_gpu": bool(use_cudnn_on_gpu),
                      "explicit_paddings": explicit, "data_format": data_format,
                      "dilations": _ints(dilations)}, name=name)


def conv2d_transpose(value: Any = None, filter: Any = None,  # noqa: A002
                     output_shape: Any = None, strides: Any = None, padding: Any = "SAME",
                     data_format: str = "NHWC", name: Optional[str] = None, input: Any = None,
                     filters: Any = None, dilations: Any = None) -> Tensor:  # noqa: A002
    """`tf.nn.conv2d_transpose`: Conv2DBackpropInput producing `output_shape`."""
    value = input if input is not None else value
    filter = filters if filters is not None else filter
    with name_scope(name, "conv2d_transpose", [value, filter, output_shape]) as scope:
        fmt = _data_format(data_format, "NHWC")
        channel_index = 1 if fmt.startswith("NC") else 3
        strides = get_sequence(strides, 2, channel_index, "strides")
        dil = get_sequence(dilations, 2, channel_index, "dilations")
        padding, explicit = convert_padding(padding)
        return apply_op1("Conv2DBackpropInput", [output_shape, filter, value],
                         {"strides": _ints(strides), "padding": padding,
                          "explicit_paddings": explicit, "data_format": fmt,
                          "dilations": _ints(dil)}, name=scope)


def conv1d_transpose(input: Any, filters: Any, output_shape: Any, strides: Any,  # noqa: A002
                     padding: str = "SAME", data_format: str = "NWC", dilations: Any = None,
                     name: Optional[str] = None) -> Tensor:
    """`tf.nn.conv1d_transpose`: conv2d_transpose on an inserted spatial axis."""
    with name_scope(name, "conv1d_transpose", [input, filters, output_shape]) as scope:
        if data_format is None or data_format in ("NWC", "NHWC"):
            fmt, spatial_start, channel_index = "NHWC", 1, 2
        elif data_format in ("NCW", "NCHW"):
            fmt, spatial_start, channel_index = "NCHW", 2, 1
        else:
            raise ValueError("`data_format` must be 'NWC' or 'NCW'. Received: "
                             f"data_format={data_format}")
        strides = [1] + get_sequence(strides, 1, channel_index, "stride")
        dil = [1] + get_sequence(dilations, 1, channel_index, "dilations")
        input = array_ops.expand_dims(input, spatial_start)
        filters = array_ops.expand_dims(filters, 0)
        output_shape = list(output_shape) if not isinstance(output_shape, Tensor) \
            else output_shape
        if isinstance(output_shape, list):
            output_shape = output_shape[:spatial_start] + [1] + output_shape[spatial_start:]
        else:
            output_shape = array_ops.concat([output_shape[:spatial_start], [1],
                                             output_shape[spatial_start:]], 0)
        result = apply_op1("Conv2DBackpropInput", [output_shape, filters, input],
                           {"strides": _ints(strides), "padding": padding,
                            "data_format": fmt, "dilations": _ints(dil)}, name=scope)
        return array_ops.squeeze(result, spatial_start)


def conv3d(input: Any, filter: Any = None, strides: Any = None,  # noqa: A002
           padding: Any = None, data_format: str = "NDHWC",
           dilations: Any = (1, 1, 1, 1, 1), name: Optional[str] = None,
           filters: Any = None) -> Tensor:
    """`tf.nn.conv3d` (TF1): NDHWC input, filter [d, h, w, in, out]."""
    filter = filters if filters is not None else filter
    return apply_op1("Conv3D", [input, filter],
                     {"strides": _ints(strides), "padding": padding,
                      "data_format": data_format, "dilations": _ints(dilations)}, name=name)


def conv3d_transpose(value: Any, filter: Any = None, output_shape: Any = None,  # noqa: A002
                     strides: Any = None, padding: str = "SAME", data_format: str = "NDHWC",
                     name: Optional[str] = None, input: Any = None, filters: Any = None,
                     dilations: Any = None) -> Tensor:  # noqa: A002
    """`tf.nn.conv3d_transpose`: Conv3DBackpropInputV2 producing `output_shape`."""
    value = input if input is not None else value
    filter = filters if filters is not None else filter
    with name_scope(name, "conv3d_transpose", [value, filter, output_shape]) as scope:
        fmt = _data_format(data_format, "NDHWC")
        channel_index = 1 if fmt.startswith("NC") else 4
        strides = get_sequence(strides, 3, channel_index, "strides")
        dil = get_sequence(dilations, 3, channel_index, "dilations")
        return apply_op1("Conv3DBackpropInputV2", [output_shape, filter, value],
                         {"strides": _ints(strides), "padding": padding, "data_format": fmt,
                          "dilations": _ints(dil)}, name=scope)


def conv3d_backprop_filter_v2(input: Any, filter_sizes: Any, out_backprop: Any,  # noqa: A002
                              strides: Any, padding: Any, data_format: str = "NDHWC",
                              dilations: Any = (1, 1, 1, 1, 1),
                              name: Optional[str] = None) -> Tensor:
    """`tf.nn.conv3d_backprop_filter_v2`: the gradient of conv3d w.r.t. its filter."""
    return apply_op1("Conv3DBackpropFilterV2", [input, filter_sizes, out_backprop],
                     {"strides": _ints(strides), "padding": padding,
                      "data_format": data_format, "dilations": _ints(dilations)}, name=name)


def depthwise_conv2d_native(input: Any, filter: Any, strides: Any, padding: Any,  # noqa: A002
                            data_format: str = "NHWC", dilations: Any = (1, 1, 1, 1),
                            name: Optional[str] = None) -> Tensor:
    """`tf.nn.depthwise_conv2d_native`: filter [h, w, in, multiplier]."""
    padding, explicit = convert_padding(padding)
    return apply_op1("DepthwiseConv2dNative", [input, filter],
                     {"strides": _ints(strides), "padding": padding,
                      "explicit_paddings": explicit,
                      "data_format": _data_format(data_format, "NHWC"),
                      "dilations": _ints(dilations)}, name=name)


def depthwise_conv2d_native_backprop_input(input_sizes: Any, filter: Any,  # noqa: A002
                                           out_backprop: Any, strides: Any, padding: Any,
                                           data_format: str = "NHWC",
                                           dilations: Any = (1, 1, 1, 1),
                                           name: Optional[str] = None) -> Tensor:
    padding, explicit = convert_padding(padding)
    return apply_op1("DepthwiseConv2dNativeBackpropInput", [input_sizes, filter, out_backprop],
                     {"strides": _ints(strides), "padding": padding,
                      "explicit_paddings": explicit, "data_format": data_format,
                      "dilations": _ints(dilations)}, name=name)


def depthwise_conv2d_native_backprop_filter(input: Any, filter_sizes: Any,  # noqa: A002
                                            out_backprop: Any, strides: Any, padding: Any,
                                            data_format: str = "NHWC",
                                            dilations: Any = (1, 1, 1, 1),
                                            name: Optional[str] = None) -> Tensor:
    padding, explicit = convert_padding(padding)
    return apply_op1("DepthwiseConv2dNativeBackpropFilter", [input, filter_sizes, out_backprop],
                     {"strides": _ints(strides), "padding": padding,
                      "explicit_paddings": explicit, "data_format": data_format,
                      "dilations": _ints(dilations)}, name=name)


def depthwise_conv2d(input: Any, filter: Any, strides: Any, padding: Any,  # noqa: A002
                     rate: Any = None, name: Optional[str] = None, data_format: Any = None,
                     dilations: Any = None) -> Tensor:
    """`tf.nn.depthwise_conv2d` (TF1): dilation through space-to-batch, as TF."""
    if dilations is not None:
        rate = dilations
    with name_scope(name, "depthwise", [input, filter]) as scope:
        input = convert_to_tensor(input, name="tensor_in")
        filter = convert_to_tensor(filter, name="filter_in")
        if rate is None:
            rate = [1, 1]

        def op(converted: Tensor, _: int, pad: Any) -> Tensor:
            return depthwise_conv2d_native(converted, filter, strides, pad,
                                           data_format=data_format or "NHWC", name=scope)
        return with_space_to_batch(input, rate, padding, op,
                                   filter_shape=array_ops.shape(filter),
                                   data_format=data_format)


def separable_conv2d(input: Any, depthwise_filter: Any, pointwise_filter: Any,  # noqa: A002
                     strides: Any, padding: Any, rate: Any = None, name: Optional[str] = None,
                     data_format: Any = None, dilations: Any = None) -> Tensor:
    """`tf.nn.separable_conv2d`: a depthwise conv followed by a 1x1 Conv2D."""
    if dilations is not None:
        rate = dilations
    with name_scope(name, "separable_conv2d",
                    [input, depthwise_filter, pointwise_filter]) as scope:
        input = convert_to_tensor(input, name="tensor_in")
        depthwise_filter = convert_to_tensor(depthwise_filter, name="depthwise_filter")
        pointwise_filter = convert_to_tensor(pointwise_filter, name="pointwise_filter")
        pw = pointwise_filter.shape
        if pw.rank is not None:
            if pw.rank != 4:
                raise ValueError(f"Shape {pw} must have rank 4")
            if pw.as_list()[0] not in (None, 1) or pw.as_list()[1] not in (None, 1):
                raise ValueError(f"Dimensions {pw.as_list()[0]} and 1 are not compatible")
        if rate is None:
            rate = [1, 1]

        def op(converted: Tensor, _: int, pad: Any) -> Tensor:
            return depthwise_conv2d_native(converted, depthwise_filter, strides, pad,
                                           data_format=data_format or "NHWC", name="depthwise")
        depthwise = with_space_to_batch(input, rate, padding, op,
                                        filter_shape=array_ops.shape(depthwise_filter),
                                        data_format=data_format)
        return conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], padding="VALID",
                      data_format=data_format or "NHWC", name=scope)


def atrous_conv2d(value: Any, filters: Any, rate: Any, padding: Any,
                  name: Optional[str] = None) -> Tensor:
    """`tf.nn.atrous_conv2d`: convolution with dilation `rate` in both spatial axes."""
    return convolution(value, filters, padding, dilation_rate=np.broadcast_to(rate, (2,)),
                       name=name)


def convolution(input: Any, filter: Any, padding: Any, strides: Any = None,  # noqa: A002
                dilation_rate: Any = None, name: Optional[str] = None,
                data_format: Any = None, filters: Any = None,
                dilations: Any = None) -> Tensor:
    """`tf.nn.convolution` (TF1): N-D convolution; dilation goes through space-to-batch."""
    filter = filters if filters is not None else filter
    dilation_rate = dilations if dilations is not None else dilation_rate
    if not isinstance(filter, Tensor):
        with name_scope("convolution_internal", None, [filter, input]):
            filter = convert_to_tensor(filter, name="filters")
    if not isinstance(input, Tensor):
        with name_scope("convolution_internal", None, [filter, input]):
            input = convert_to_tensor(input, name="input")
    f_rank, i_rank = filter.shape.rank, input.shape.rank
    if f_rank:
        nd = f_rank - 2
    elif i_rank:
        nd = i_rank - 2
    else:
        raise ValueError("When `num_spatial_dims` is not set, one of `input.shape.rank` or "
                         "`filters.shape.rank` must be known.")
    if nd not in (1, 2, 3):
        raise ValueError(f"`num_spatial_dims` must be 1, 2, or 3. Received: "
                         f"num_spatial_dims={nd}.")
    if i_rank and i_rank - nd - 1 != 1:
        raise NotImplementedError("tf.nn.convolution with extra batch dimensions is not "
                                  "supported by tf1compat")
    fmt = as_str(data_format) if data_format is not None else None
    channel_index = 1 if fmt is not None and fmt.startswith("NC") else nd + 1
    dilated = dilation_rate is not None
    dil = get_sequence(list(np.asarray(dilation_rate).reshape(-1)) if dilated else None, nd,
                       channel_index, "dilations")
    dilated = dilated and any(int(d) != 1 for d in dil)
    strides = get_sequence(strides, nd, channel_index, "strides")
    with name_scope(name, None if name else "convolution", [input, filter]) as scope:
        if not dilated:
            if nd == 2:
                return conv2d(input, filter, strides, padding, data_format=fmt or "NHWC",
                              dilations=_ints(dil), name=scope)
            if nd == 3:
                return conv3d(input, filter, _ints(strides), padding,
                              data_format=fmt or "NDHWC", dilations=_ints(dil), name=scope)
            return conv1d(input, filter, strides, padding, data_format=fmt,
                          dilations=dil, name=scope)
        s_sp = strides[2:] if channel_index == 1 else strides[1:-1]
        d_sp = dil[2:] if channel_index == 1 else dil[1:-1]
        if any(int(s) > 1 for s in s_sp):
            raise ValueError("`strides > 1` not supported in conjunction with "
                             f"`dilation_rate > 1`. Received: strides={np.array(s_sp)} and "
                             f"dilation_rate={np.array(d_sp)}")
        if input.shape.rank is not None and filter.shape.rank is not None:
            in_ch = input.shape.as_list()[channel_index]
            f_in = filter.shape.as_list()[nd]
            if in_ch is not None and f_in is not None and in_ch % f_in:
                raise ValueError("The number of input channels is not divisible by the "
                                 "corresponding number of output filters.")

        def op(converted: Tensor, _: int, pad: Any) -> Tensor:
            one = [1] * nd
            if nd == 2:
                return conv2d(converted, filter, get_sequence(one, 2, channel_index, "s"),
                              pad, data_format=fmt or "NHWC", name=scope)
            if nd == 3:
                return conv3d(converted, filter, get_sequence(one, 3, channel_index, "s"),
                              pad, data_format=fmt or "NDHWC", name=scope)
            return conv1d(converted, filter, one, pad, data_format=fmt, name=scope)
        return with_space_to_batch(input, np.array(d_sp, np.int32), padding, op,
                                   filter_shape=filter.shape.as_list() if
                                   filter.shape.is_fully_defined() else
                                   array_ops.shape(filter),
                                   data_format=fmt, call_filter=filter)

