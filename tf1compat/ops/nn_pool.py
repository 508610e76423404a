"""Pooling in TF's layouts: MaxPool, AvgPool, MaxPool3D, AvgPool3D, MaxPoolWithArgmax and
the tf.nn wrappers (max_pool/avg_pool and their 1d/2d/3d/v2 forms, tf.nn.pool).

TF's SAME average pooling divides by the number of *valid* (unpadded) elements in each
window; asymmetric padding (the odd element at the end) is handled by pooling a padded
input and dividing by a per-position count. Max pooling pads with -inf (the lowest value
for integers), so padded elements never win; on the CPU, NaN never wins either and a
window of only NaN and -inf gives the lowest finite value, as TF's CPU kernels
(`_traced_pool.tf_window_input`; MaxPoolWithArgmax follows TF's own rule for it: a
window's first valid element, then strictly greater values; TF's
gradient of such a degenerate window in overlapping SAME windows is not matched). Inputs
are permuted views (no copies): a
contiguous NHWC tensor is torch's channels_last format.
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np
import torch
import torch.nn.functional as F

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.grad_names import names
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import array_ops
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops._window import (as_str, channel_axis, channels_first, check_rank,
                                   explicit_pairs, from_channels_first, pad_spatial,
                                   spatial_attr, spatial_axes, to_channels_first,
                                   window_output, window_padding)
from tf1compat.ops.math_ops import REAL
from tf1compat.ops.nn_conv import convert_padding, get_sequence
from tf1compat.ops import _flops_rules as flops
from tf1compat.ops import _traced_pool

__all__ = ["max_pool", "max_pool_v2", "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool",
           "avg_pool_v2", "avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool_with_argmax",
           "pool"]

_MAX_POOL = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
_AVG_POOL = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}


def _pool_shape(nd: int, argmax: bool = False) -> Callable[[Any], List[TensorShape]]:
    def rule(ctx: Any) -> List[TensorShape]:
        fmt = as_str(ctx.attrs.get("data_format", "NHWC"))
        ksize, strides = list(ctx.attrs["ksize"]), list(ctx.attrs["strides"])
        padding = as_str(ctx.attrs["padding"])
        for label, values in (("ksize", ksize), ("strides", strides)):
            if len(values) != nd + 2:
                raise ValueError(f"Sliding window {label} field must specify {nd + 2} "
                                 f"dimensions {node_desc(ctx)}")
        x = check_rank(ctx, ctx.shape(0), nd + 2)
        explicit = None
        if padding == "EXPLICIT":
            explicit = explicit_pairs(ctx.attrs.get("explicit_paddings") or [], fmt, nd)
        sizes = [x[a] for a in spatial_axes(fmt, nd)]
        ks, ss = spatial_attr(ksize, fmt, nd), spatial_attr(strides, fmt, nd)
        out = [window_output(ctx, sizes[i], ks[i], ss[i], 1, padding,
                             explicit[i] if explicit else None) for i in range(nd)]
        ch = x[channel_axis(fmt, nd)]
        shape = TensorShape([x[0], ch] + out) if channels_first(fmt) else \
            TensorShape([x[0]] + out + [ch])
        return [shape, shape] if argmax else [shape]
    return rule


class _PoolGeometry:
    def __init__(self, node: Any, nd: int):
        attrs = node.attrs
        self.nd = nd
        self.fmt = as_str(attrs.get("data_format", "NHWC"))
        full_k, full_s = list(attrs["ksize"]), list(attrs["strides"])
        ch = channel_axis(self.fmt, nd)
        if full_k[0] != 1 or full_s[0] != 1:
            raise errors.UnimplementedError(
                None, None, "Pooling is not yet supported on the batch dimension.")
        if full_k[ch] != 1 or full_s[ch] != 1:
            raise NotImplementedError("pooling across the depth dimension (ksize or strides "
                                      "> 1 on channels) is not supported by tf1compat")
        self.ksize = spatial_attr(full_k, self.fmt, nd)
        self.strides = spatial_attr(full_s, self.fmt, nd)
        self.padding = as_str(attrs["padding"])
        flat = attrs.get("explicit_paddings") or []
        self.explicit = explicit_pairs(flat, self.fmt, nd) if self.padding == "EXPLICIT" \
            else None
        self._cache: Dict[tuple, list] = {}

    def pads(self, sizes: Sequence[int]) -> list:
        key = tuple(sizes)
        hit = self._cache.get(key)
        if hit is None:
            hit = []
            for i in range(self.nd):
                out, b, a = window_padding(sizes[i], self.ksize[i], self.strides[i], 1,
                                           self.padding,
                                           self.explicit[i] if self.explicit else None)
                if out < 0:
                    raise errors.InvalidArgumentError(
                        None, None, f"Computed output size would be negative: {out} "
                                    f"[input_size: {sizes[i]}, effective_filter_size: "
                                    f"{self.ksize[i]}, stride: {self.strides[i]}]")
                hit.append((b, a))
            self._cache[key] = hit
        return hit

    def torch_padding(self, pads: list) -> Optional[List[int]]:
        """Symmetric padding torch's pooling accepts directly (<= half the window)."""
        if all(b == a and b <= k // 2 for (b, a), k in zip(pads, self.ksize)):
            return [b for b, _ in pads]
        return None


def _lowest(dtype: torch.dtype) -> float:
    if dtype.is_floating_point:
        return float("-inf")
    return torch.iinfo(dtype).min


def _max_pool_kernel(nd: int) -> Callable[[Any, Any], Callable]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        geo = _PoolGeometry(node, nd)
        pool = _MAX_POOL[nd]

        def run(x: torch.Tensor) -> torch.Tensor:
            if x.is_cuda and not x.is_floating_point():
                # torch has no CUDA max pooling for integers; float64 holds every int32
                # (and int64 up to 2**53) exactly, and the maximum is one of the inputs.
                return run(x.double()).to(x.dtype)
            xin = to_channels_first(x, geo.fmt)
            pads = geo.pads(xin.shape[2:])
            sym = geo.torch_padding(pads)
            if sym is None:
                xin, sym = pad_spatial(xin, pads, _lowest(xin.dtype)), [0] * nd
            if nd == 2 and x.is_floating_point() and _traced_pool.in_compiled_graph():
                # ATen's kernels inside the compiled graph, not inductor's pooling loops.
                y = _traced_pool.max_pool2d(xin, geo.ksize, geo.strides, sym)
            else:
                y = pool(xin, geo.ksize, geo.strides, sym)
                if _traced_pool.has_non_finite_window(y):
                    # TF's rule for NaN and -inf (_traced_pool's docstring).
                    y = _traced_pool.max_pool2d(xin, geo.ksize, geo.strides, sym) \
                        if nd == 2 else pool(_traced_pool.tf_window_input(xin),
                                             geo.ksize, geo.strides, sym)
            return from_channels_first(y, geo.fmt)
        return run
    return factory


def _avg_pool_kernel(nd: int) -> Callable[[Any, Any], Callable]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        geo = _PoolGeometry(node, nd)
        pool = _AVG_POOL[nd]
        counts: Dict[tuple, torch.Tensor] = {}

        def count_of(sizes: tuple, pads: list, like: torch.Tensor) -> torch.Tensor:
            key = (sizes, like.dtype, like.device)
            c = counts.get(key)
            if c is None:
                ones = torch.ones((1, 1) + sizes, dtype=like.dtype, device=like.device)
                c = pool(pad_spatial(ones, pads), geo.ksize, geo.strides,
                         divisor_override=1)
                counts[key] = c
            return c

        def run(x: torch.Tensor) -> torch.Tensor:
            xin = to_channels_first(x, geo.fmt)
            sizes = tuple(xin.shape[2:])
            pads = geo.pads(sizes)
            sym = geo.torch_padding(pads)
            if xin.is_cuda and sym is not None and any(sym):
                # torch's CUDA backward of padded average pooling without the padding in
                # the count gives wrong gradients for channels-last inputs (seen on torch
                # 2.11, H100): there the explicit sum / count form below runs instead.
                sym = None
            if sym is not None:
                y = pool(xin, geo.ksize, geo.strides, sym, count_include_pad=False)
            else:
                total = pool(pad_spatial(xin, pads), geo.ksize, geo.strides,
                             divisor_override=1)
                y = total / count_of(sizes, pads, xin)
            return from_channels_first(y, geo.fmt)
        return run
    return factory


def _first_window_element(shape: Sequence[int], geo: "_PoolGeometry", pads: list,
                          device: torch.device) -> tuple:
    """Rows and columns (in the unpadded plane) of each output window's first valid
    element, broadcastable against the pooled output [n, c, oh, ow]."""
    oh, ow = shape[2:]
    starts = []
    for out, stride, (before, _) in zip((oh, ow), geo.strides, pads):
        starts.append((torch.arange(out, device=device) * stride - before).clamp_(min=0))
    return starts[0].reshape(1, 1, oh, 1), starts[1].reshape(1, 1, 1, ow)


def _tf_argmax_windows(xin: torch.Tensor, geo: "_PoolGeometry", pads: list) -> tuple:
    """TF's CPU MaxPoolWithArgmax rule over NCHW `xin`: each window starts at its first
    valid element and takes only strictly greater values, so a NaN wins only as the first
    element and a window of -inf and NaN keeps its first element. Returns the maxima and
    their rows and columns in the unpadded plane."""
    ninf = float("-inf")
    quiet = torch.where(torch.isnan(xin), ninf, xin)
    padded = pad_spatial(quiet, pads, ninf) if any(b or a for b, a in pads) else quiet
    y, idx = F.max_pool2d(padded, geo.ksize, geo.strides, return_indices=True)
    wp = padded.shape[3]
    row = torch.div(idx, wp, rounding_mode="floor") - pads[0][0]
    col = idx % wp - pads[1][0]
    first_row, first_col = _first_window_element(y.shape, geo, pads, xin.device)
    n, c = xin.shape[:2]
    first = xin[torch.arange(n, device=xin.device).reshape(n, 1, 1, 1),
                torch.arange(c, device=xin.device).reshape(1, c, 1, 1), first_row, first_col]
    keep_first = torch.isnan(first) | (y == ninf)
    return (torch.where(keep_first, first, y), torch.where(keep_first, first_row, row),
            torch.where(keep_first, first_col, col))


def _max_pool_argmax_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    geo = _PoolGeometry(node, 2)
    include_batch = bool(node.attrs["include_batch_in_index"])
    index_dtype = node.attrs["Targmax"].torch_dtype

    def run(x: torch.Tensor) -> tuple:
        n, h, w, c = x.shape
        xin = to_channels_first(x, "NHWC")
        pads = geo.pads((h, w))
        lowest = _lowest(xin.dtype)
        padded = pad_spatial(xin, pads, lowest) if any(b or a for b, a in pads) else xin
        y, idx = F.max_pool2d(padded, geo.ksize, geo.strides, return_indices=True)
        # torch: index into each padded (n, c) plane; TF: ((b*H + y)*W + x)*C + c over the
        # unpadded NHWC input.
        wp = padded.shape[3]
        row = torch.div(idx, wp, rounding_mode="floor") - pads[0][0]
        col = idx % wp - pads[1][0]
        # ATen lets NaN win and a padded lowest beat a window of -inf: where its result
        # shows either (a maximum that is not above the lowest finite value), TF's rule.
        if _traced_pool.has_non_finite_window(y, floor=lowest):
            y, row, col = _tf_argmax_windows(xin, geo, pads)
        chan = torch.arange(c, device=x.device).reshape(1, c, 1, 1)
        flat = (row * w + col) * c + chan
        if include_batch:
            flat = flat + torch.arange(n, device=x.device).reshape(n, 1, 1, 1) * (h * w * c)
        return from_channels_first(y, "NHWC"), from_channels_first(flat, "NHWC").to(
            index_dtype)
    return run


_POOL2D = {"ksize": None, "strides": None, "padding": None, "data_format": "NHWC"}
declare("MaxPool", inputs=["input: T"], outputs=["output: T"],
        attrs=dict(_POOL2D, T=Type(REAL, default=D.float32), explicit_paddings=[]),
        shape=_pool_shape(2), kernel=_max_pool_kernel(2), grad_names=names("MaxPoolGrad"),
        flops=flops.pool)
declare("AvgPool", inputs=["value: T"], outputs=["output: T"],
        attrs=dict(_POOL2D, T=Type(D.FLOATING_TYPES)), shape=_pool_shape(2),
        kernel=_avg_pool_kernel(2), grad_names=names("AvgPoolGrad"), flops=flops.pool)
declare("MaxPool3D", inputs=["input: T"], outputs=["output: T"],
        attrs=dict(_POOL2D, data_format="NDHWC", T=Type(D.FLOATING_TYPES)), shape=_pool_shape(3),
        kernel=_max_pool_kernel(3))
declare("AvgPool3D", inputs=["input: T"], outputs=["output: T"],
        attrs=dict(_POOL2D, data_format="NDHWC", T=Type(D.FLOATING_TYPES)), shape=_pool_shape(3),
        kernel=_avg_pool_kernel(3))
declare("MaxPoolWithArgmax", inputs=["input: T"], outputs=["output: T", "argmax: Targmax"],
        attrs={"ksize": None, "strides": None, "padding": None,
               "Targmax": Type((D.int32, D.int64), default=D.int64),
               "include_batch_in_index": False, "T": Type(REAL)},
        shape=_pool_shape(2, argmax=True), kernel=_max_pool_argmax_kernel)


# -- wrappers -----------------------------------------------------------------------------------

def _ints(values: Sequence[Any]) -> List[int]:
    return [int(v) for v in values]


def _format(data_format: Any, default: str) -> str:
    return default if data_format is None else as_str(data_format)


def _zero_ksize(ksize: Any) -> bool:
    if np.isscalar(ksize):
        return ksize == 0
    return any(v == 0 for v in ksize)


def max_pool(value: Any, ksize: Any, strides: Any, padding: Any, data_format: Any = "NHWC",
             name: Optional[str] = None, input: Any = None) -> Tensor:  # noqa: A002
    """`tf.nn.max_pool` (TF1, 4-D)."""
    value = input if input is not None else value
    with name_scope(name, "MaxPool", [value]) as scope:
        fmt = _format(data_format, "NHWC")
        channel_index = 1 if fmt.startswith("NC") else 3
        ksize = get_sequence(ksize, 2, channel_index, "ksize")
        strides = get_sequence(strides, 2, channel_index, "strides")
        padding, explicit = convert_padding(padding)
        if _zero_ksize(ksize):
            raise ValueError(f"`ksize` cannot be zero. Received: ksize={ksize}")
        return apply_op1("MaxPool", [value],
                         {"ksize": _ints(ksize), "strides": _ints(strides), "padding": padding,
                          "explicit_paddings": explicit, "data_format": fmt}, name=scope)


def max_pool2d(input: Any, ksize: Any, strides: Any, padding: Any,  # noqa: A002
               data_format: Any = "NHWC", name: Optional[str] = None) -> Tensor:
    """`tf.nn.max_pool2d`."""
    with name_scope(name, "MaxPool2d", [input]) as scope:
        fmt = _format(data_format, "NHWC")
        channel_index = 1 if fmt.startswith("NC") else 3
        ksize = get_sequence(ksize, 2, channel_index, "ksize")
        strides = get_sequence(strides, 2, channel_index, "strides")
        padding, explicit = convert_padding(padding)
        return apply_op1("MaxPool", [input],
                         {"ksize": _ints(ksize), "strides": _ints(strides), "padding": padding,
                          "explicit_paddings": explicit, "data_format": fmt}, name=scope)


def max_pool1d(input: Any, ksize: Any, strides: Any, padding: Any,  # noqa: A002
               data_format: Any = "NWC", name: Optional[str] = None) -> Tensor:
    """`tf.nn.max_pool1d`: MaxPool on an inserted spatial axis."""
    with name_scope(name, "MaxPool1d", [input]) as scope:
        fmt = _format(data_format, "NWC")
        channel_index = 1 if fmt.startswith("NC") else 2
        ksize = [1] + get_sequence(ksize, 1, channel_index, "ksize")
        strides = [1] + get_sequence(strides, 1, channel_index, "strides")
        padding, explicit = convert_padding(padding, 3)
        if padding == "EXPLICIT":
            explicit = [0, 0] + explicit
        expanding = 1 if fmt == "NWC" else 2
        fmt2 = "NHWC" if fmt == "NWC" else "NCHW"
        input = array_ops.expand_dims(input, expanding)
        result = apply_op1("MaxPool", [input],
                           {"ksize": _ints(ksize), "strides": _ints(strides),
                            "padding": padding, "explicit_paddings": explicit,
                            "data_format": fmt2}, name=scope)
        return array_ops.squeeze(result, expanding)


def max_pool3d(input: Any, ksize: Any, strides: Any, padding: Any,  # noqa: A002
               data_format: Any = "NDHWC", name: Optional[str] = None) -> Tensor:
    """`tf.nn.max_pool3d`."""
    with name_scope(name, "MaxPool3D", [input]) as scope:
        fmt = _format(data_format, "NDHWC")
        channel_index = 1 if fmt.startswith("NC") else 4
        ksize = get_sequence(ksize, 3, channel_index, "ksize")
        strides = get_sequence(strides, 3, channel_index, "strides")
        return apply_op1("MaxPool3D", [input], {"ksize": _ints(ksize),
                                                "strides": _ints(strides),
                                                "padding": padding, "data_format": fmt},
                         name=scope)


def _rank_of(input: Any, data_format: Any) -> int:
    shape = getattr(input, "shape", None)
    if shape is not None and getattr(shape, "rank", None) is not None:
        return shape.rank - 2
    if data_format is not None:
        return len(data_format) - 2
    raise ValueError("`input` must have a static shape or `data_format` must be given.")


def max_pool_v2(input: Any, ksize: Any, strides: Any, padding: Any,  # noqa: A002
                data_format: Any = None, name: Optional[str] = None) -> Tensor:
    """`tf.nn.max_pool_v2` (TF2's max_pool): 1-, 2- or 3-D by the input's rank."""
    input = convert_to_tensor(input) if not isinstance(input, Tensor) else input
    n = _rank_of(input, data_format)
    if not 1 <= n <= 3:
        raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: "
                         f"input.shape={input.shape} of rank {n + 2}.")
    channel_index = n + 1 if data_format is None else (
        1 if data_format.startswith("NC") else n + 1)
    ksize = get_sequence(ksize, n, channel_index, "ksize")
    strides = get_sequence(strides, n, channel_index, "strides")
    if isinstance(padding, (list, tuple)) and n == 3:
        raise ValueError("Explicit padding is not supported with an input tensor of rank 5. "
                         f"Received: padding={padding}")
    if n == 1:
        return max_pool1d(input, ksize, strides, padding, data_format, name)
    if n == 2:
        return max_pool2d(input, ksize, strides, padding, data_format, name)
    return apply_op1("MaxPool3D", [input], {"ksize": _ints(ksize), "strides": _ints(strides),
                                            "padding": padding,
                                            "data_format": data_format or "NDHWC"},
                     name=name)


def avg_pool(value: Any, ksize: Any, strides: Any, padding: Any, data_format: Any = "NHWC",
             name: Optional[str] = None, input: Any = None) -> Tensor:  # noqa: A002
    """`tf.nn.avg_pool` (TF1, 4-D); SAME windows average only the valid elements."""
    with name_scope(name, "AvgPool", [value]) as scope:
        value = input if input is not None else value
        fmt = _format(data_format, "NHWC")
        channel_index = 1 if fmt.startswith("NC") else 3
        ksize = get_sequence(ksize, 2, channel_index, "ksize")
        strides = get_sequence(strides, 2, channel_index, "strides")
        return apply_op1("AvgPool", [value], {"ksize": _ints(ksize), "strides": _ints(strides),
                                              "padding": padding, "data_format": fmt},
                         name=scope)


def avg_pool2d(input: Any, ksize: Any, strides: Any, padding: Any,  # noqa: A002
               data_format: Any = "NHWC", name: Optional[str] = None) -> Tensor:
    """`tf.nn.avg_pool2d`."""
    with name_scope(name, "AvgPool2D", [input]) as scope:
        fmt = _format(data_format, "NHWC")
        channel_index = 1 if fmt.startswith("NC") else 3
        ksize = get_sequence(ksize, 2, channel_index, "ksize")
        strides = get_sequence(strides, 2, channel_index, "strides")
        return apply_op1("AvgPool", [input], {"ksize": _ints(ksize), "strides": _ints(strides),
                                              "padding": padding, "data_format": fmt},
                         name=scope)


def avg_pool1d(input: Any, ksize: Any, strides: Any, padding: Any,  # noqa: A002
               data_format: Any = "NWC", name: Optional[str] = None) -> Tensor:
    """`tf.nn.avg_pool1d`: AvgPool on an inserted spatial axis."""
    with name_scope(name, "AvgPool1D", [input]) as scope:
        fmt = _format(data_format, "NWC")
        channel_index = 1 if fmt.startswith("NC") else 2
        ksize = [1] + get_sequence(ksize, 1, channel_index, "ksize")
        strides = [1] + get_sequence(strides, 1, channel_index, "strides")
        expanding = 1 if fmt == "NWC" else 2
        fmt2 = "NHWC" if fmt == "NWC" else "NCHW"
        input = array_ops.expand_dims(input, expanding)
        result = apply_op1("AvgPool", [input], {"ksize": _ints(ksize),
                                                "strides": _ints(strides),
                                                "padding": padding, "data_format": fmt2},
                           name=scope)
        return array_ops.squeeze(result, expanding)


def avg_pool3d(input: Any, ksize: Any, strides: Any, padding: Any,  # noqa: A002
               data_format: Any = "NDHWC", name: Optional[str] = None) -> Tensor:
    """`tf.nn.avg_pool3d`."""
    with name_scope(name, "AvgPool3D", [input]) as scope:
        fmt = _format(data_format, "NDHWC")
        channel_index = 1 if fmt.startswith("NC") else 3   # TF's index, harmless for lists
        ksize = get_sequence(ksize, 3, channel_index, "ksize")
        strides = get_sequence(strides, 3, channel_index, "strides")
        return apply_op1("AvgPool3D", [input], {"ksize": _ints(ksize),
                                                "strides": _ints(strides),
                                                "padding": padding, "data_format": fmt},
                         name=scope)


def avg_pool_v2(input: Any, ksize: Any, strides: Any, padding: Any,  # noqa: A002
                data_format: Any = None, name: Optional[str] = None) -> Tensor:
    """`tf.nn.avg_pool_v2` (TF2's avg_pool): 1-, 2- or 3-D by the input's rank."""
    input = convert_to_tensor(input) if not isinstance(input, Tensor) else input
    n = _rank_of(input, data_format)
    if not 1 <= n <= 3:
        raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: "
                         f"input.shape={input.shape} of rank {n + 2}.")
    channel_index = n + 1 if data_format is None else (
        1 if data_format.startswith("NC") else n + 1)
    ksize = get_sequence(ksize, n, channel_index, "ksize")
    strides = get_sequence(strides, n, channel_index, "strides")
    if n == 1:
        return avg_pool1d(input, ksize[1:-1] if channel_index != 1 else ksize[2:],
                          strides[1:-1] if channel_index != 1 else strides[2:], padding,
                          data_format or "NWC", name)
    op_type = "AvgPool" if n == 2 else "AvgPool3D"
    return apply_op1(op_type, [input], {"ksize": _ints(ksize), "strides": _ints(strides),
                                        "padding": padding,
                                        "data_format": data_format or (
                                            "NHWC" if n == 2 else "NDHWC")}, name=name)


def max_pool_with_argmax(input: Any, ksize: Any, strides: Any, padding: Any,  # noqa: A002
                         data_format: str = "NHWC", Targmax: Any = None,  # noqa: N803
                         name: Optional[str] = None, output_dtype: Any = None,
                         include_batch_in_index: bool = False) -> tuple:
    """`tf.nn.max_pool_with_argmax`: (output, argmax) with TF's flattened NHWC indices."""
    if data_format != "NHWC":
        raise ValueError("`data_format` values other  than 'NHWC' are not supported. "
                         f"Received: data_format={data_format}")
    if output_dtype is not None:
        if Targmax is not None:
            raise ValueError("Cannot specify both 'output_dtype' and 'Targmax'")
        Targmax = output_dtype
    targ = D.as_dtype(Targmax) if Targmax is not None else D.int64
    op = apply_op("MaxPoolWithArgmax", [input],
                  {"ksize": _ints(ksize), "strides": _ints(strides), "padding": padding,
                   "Targmax": targ, "include_batch_in_index": bool(include_batch_in_index)},
                  name=name)
    return MaxPoolWithArgmax(*op._outputs)


def pool(input: Any, window_shape: Sequence[int], pooling_type: str,  # noqa: A002
         padding: Any, dilation_rate: Any = None, strides: Any = None,
         name: Optional[str] = None, data_format: Any = None, dilations: Any = None) -> Tensor:
    """`tf.nn.pool` (TF1): N-D max or average pooling, dilation through space-to-batch."""
    from tf1compat.ops.space_batch_ops import with_space_to_batch
    if dilations is not None:
        dilation_rate = dilations
    with name_scope(name, f"{pooling_type.lower()}_pool", [input]) as scope:
        input = convert_to_tensor(input, name="input")
        nd = len(window_shape)
        if nd < 1 or nd > 3:
            raise ValueError("`len(window_shape)` must be 1, 2, or 3. Received: "
                             f"window_shape={window_shape} of length {len(window_shape)}")
        if input.shape.rank is not None and input.shape.rank != nd + 2:
            raise ValueError(f"Shape {input.shape} must have rank {nd + 2}")
        rate = np.array(dilation_rate if dilation_rate is not None else [1] * nd, np.int32)
        stride = np.array(strides if strides is not None else [1] * nd, np.int32)
        if len(rate) != nd or len(stride) != nd:
            raise ValueError(f"`len(dilation_rate)` and `len(strides)` should be {nd}.")
        if np.any(rate < 1) or np.any(stride < 1):
            raise ValueError("all values of `dilation_rate` and `strides` must be positive.")
        if np.any(stride > 1) and np.any(rate > 1):
            raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate "
                             f"> 1`. Received: strides={stride} and dilation_rate={rate}")
        if padding == "SAME" and np.any(rate > 1):
            raise ValueError("pooling with 'SAME' padding is not implemented for "
                             f"`dilation_rate` > 1. Received: padding={padding} and "
                             f"dilation_rate={rate}")
        if np.any(stride > np.asarray(window_shape)):
            raise ValueError("`strides` > `window_shape` not supported due to inconsistency "
                             f"between CPU and GPU implementations. Received: "
                             f"strides={stride} and window_shape={window_shape}")
        if pooling_type not in ("MAX", "AVG"):
            raise ValueError(f"{nd}-D {pooling_type} pooling is not supported.")
        nc = data_format is not None and data_format.startswith("NC")
        if nc:
            window = [1, 1] + list(window_shape)
            strd = [1, 1] + list(stride)
            spatial_dims = range(2, nd + 2)
        else:
            window = [1] + list(window_shape) + [1]
            strd = [1] + list(stride) + [1]
            spatial_dims = range(1, nd + 1)
        if nd == 1:
            if data_format is None or data_format == "NWC":
                fmt = "NHWC"
            elif data_format == "NCW":
                fmt = "NCHW"
            else:
                raise ValueError("data_format must be either 'NWC' or 'NCW'. Received: "
                                 f"data_format={data_format}")
            window, strd = [1] + window, [1] + strd
        else:
            fmt = data_format or ("NHWC" if nd == 2 else "NDHWC")

        def op(converted: Tensor, _: int, pad: Any) -> Tensor:
            if nd == 1:
                converted = array_ops.expand_dims(converted, spatial_dims[0])
            if nd == 3:
                fn = max_pool3d if pooling_type == "MAX" else avg_pool3d
            else:
                fn = max_pool if pooling_type == "MAX" else avg_pool
            result = fn(converted, window, strd, pad, data_format=fmt, name=scope)
            if nd == 1:
                result = array_ops.squeeze(result, [spatial_dims[0]])
            return result
        return with_space_to_batch(input, rate, padding, op, spatial_dims=spatial_dims,
                                   filter_shape=list(window_shape))


MaxPoolWithArgmax = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])
