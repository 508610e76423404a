"""3-D convolutions and pools written as 2-D ones inside a gradient's forward
function (as gradient_lowering.py, whose `LOWERINGS` holds these too). TF 2.21 has no
function gradient for Conv3D or AvgPool3D (scripts/probe_tf_function_gradients.py), but
has them for Conv2D, AvgPool and MaxPool: a 3-D window is a sum over its depth offsets of 2-D
windows of the depth slices those offsets pick. So for each depth offset j the input
(padded along depth for 'SAME', by a 0/1 matrix product) is strided-sliced at the depths
`j, j + stride, ...`, the batch and output depth are merged, and the 2-D op of the
height and width (with the op's own strides and padding there: TF pads each axis on its
own) runs; the results are summed over j. Conv3D takes the kernel's j-th depth plane;
AvgPool3D divides the sum by the number of depth positions of each window inside the
input (its 2-D pools already divide by theirs, and 'SAME' counts multiply per axis);
MaxPool3D takes the Maximum of the offsets' MaxPools instead of their sum.

`LOWERINGS_VOLUME[op_type]` is (why_not(op) -> reason or None, lower(op, input names,
builder) -> the name of each output the body uses).
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.graphdef.function_nodes import NodeBuilder

__all__ = ["LOWERINGS_VOLUME"]


def _depth_layout(size: int, window: int, stride: int, padding: str
                  ) -> Tuple[int, int, int]:
    """(output depth, zeros before, zeros after) of a window along depth."""
    if padding == "VALID":
        return (size - window) // stride + 1, 0, 0
    out = -(-size // stride)
    total = max((out - 1) * stride + window - size, 0)
    return out, total // 2, total - total // 2


def _depth_slices(op: Operation, x: str, window: int, b: NodeBuilder, fill: float = 0.0
                  ) -> Tuple[List[str], int, int]:
    """The input's depth slices of each depth offset of the window, each as a batch of
    2-D maps [batch * output depth, height, width, channels]; the output depth and the
    depths padded before (with `fill`)."""
    dtype = op.outputs[0].dtype.base_dtype
    _, depth, height, width, channels = op.inputs[0].shape.as_list()
    stride = int(op.attrs["strides"][1])
    out, before, after = _depth_layout(depth, window, stride, op.attrs["padding"])
    if before or after:
        # Padded along depth: depth moved last, times a 0/1 [depth, padded] matrix.
        padded = depth + before + after
        spread = np.zeros([depth, padded])
        spread[np.arange(depth), np.arange(depth) + before] = 1.0
        moved = b.add("Transpose", [x, b.const([0, 2, 3, 4, 1], D.int32)],
                      {"T": dtype, "Tperm": D.int32})
        rows = b.add("Reshape", [moved, b.const([-1, depth], D.int32)],
                     {"T": dtype, "Tshape": D.int32})
        rows = b.add("MatMul", [rows, b.const(spread, dtype)],
                     {"T": dtype, "transpose_a": False, "transpose_b": False})
        moved = b.add("Reshape", [rows, b.const([-1, height, width, channels, padded],
                                                D.int32)], {"T": dtype, "Tshape": D.int32})
        x = b.add("Transpose", [moved, b.const([0, 4, 1, 2, 3], D.int32)],
                  {"T": dtype, "Tperm": D.int32})
        if fill:
            filled = np.full([1, padded, 1, 1, 1], fill)
            filled[0, before:before + depth] = 0.0
            x = b.add("AddV2", [x, b.const(filled, dtype)], {"T": dtype})
    slices = []
    for j in range(window):
        picked = b.add("StridedSlice", [
            x, b.const([0, j, 0, 0, 0], D.int32),
            b.const([0, j + (out - 1) * stride + 1, 0, 0, 0], D.int32),
            b.const([1, stride, 1, 1, 1], D.int32)],
            {"T": dtype, "Index": D.int32, "begin_mask": 0b11101, "end_mask": 0b11101,
             "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0})
        slices.append(b.add("Reshape", [picked, b.const([-1, height, width, channels],
                                                        D.int32)],
                            {"T": dtype, "Tshape": D.int32}))
    return slices, out, before


def _summed(op: Operation, maps: List[str], out: int, b: NodeBuilder) -> str:
    """The 2-D results of each depth offset back in 5-D and summed."""
    dtype = op.outputs[0].dtype.base_dtype
    _, _, height, width, channels = op.outputs[0].shape.as_list()
    total = ""
    for m in maps:
        volume = b.add("Reshape", [m, b.const([-1, out, height, width, channels], D.int32)],
                       {"T": dtype, "Tshape": D.int32})
        total = volume if not total else b.add("AddV2", [total, volume], {"T": dtype})
    return total


def _plane_attrs(op: Operation) -> Dict[str, object]:
    strides = [int(s) for s in op.attrs["strides"]]
    return {"T": op.outputs[0].dtype.base_dtype, "strides": [1, strides[2], strides[3], 1],
            "padding": op.attrs["padding"], "data_format": "NHWC"}


def _conv3d(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    dtype = op.outputs[0].dtype.base_dtype
    window = op.inputs[1].shape.as_list()[0]
    slices, out, _ = _depth_slices(op, names[0], window, b)
    planes = b.add("Unpack", [names[1]], {"T": dtype, "num": window, "axis": 0})
    plane_names = [planes] + [f"{planes.rsplit(':', 1)[0]}:{j}" for j in range(1, window)]
    attrs = dict(_plane_attrs(op), dilations=[1, 1, 1, 1], use_cudnn_on_gpu=True,
                 explicit_paddings=[])
    maps = [b.add("Conv2D", [s, p], attrs) for s, p in zip(slices, plane_names)]
    return [_summed(op, maps, out, b)]


def _avg_pool3d(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    dtype = op.outputs[0].dtype.base_dtype
    ksize = [int(k) for k in op.attrs["ksize"]]
    slices, out, before = _depth_slices(op, names[0], ksize[1], b)
    attrs = dict(_plane_attrs(op), ksize=[1, ksize[2], ksize[3], 1])
    total = _summed(op, [b.add("AvgPool", [s], attrs) for s in slices], out, b)
    depth, stride = op.inputs[0].shape.as_list()[1], int(op.attrs["strides"][1])
    # Each output depth's window start among the input's depths, and how many of its
    # depths are inside the input.
    starts = np.arange(out) * stride - before
    inside = np.minimum(starts + ksize[1], depth) - np.maximum(starts, 0)
    return [b.add("Mul", [total, b.const((1.0 / inside).reshape(1, out, 1, 1, 1), dtype)],
                  {"T": dtype})]


def _max_pool3d(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # The largest of the depth offsets' 2-D maxima (depths padded with the dtype's
    # lowest value, which no window's maximum is). Ties go to the first depth (Maximum's
    # gradient takes x >= y) and within it to MaxPool's first position: the first in
    # depth, row, column order, as MaxPool3DGrad's.
    dtype = op.outputs[0].dtype.base_dtype
    ksize = [int(k) for k in op.attrs["ksize"]]
    slices, out, _ = _depth_slices(op, names[0], ksize[1], b,
                                   float(np.finfo(dtype.as_numpy_dtype).min))
    attrs = dict(_plane_attrs(op), ksize=[1, ksize[2], ksize[3], 1])
    dims = [-1, out] + op.outputs[0].shape.as_list()[2:]
    total = ""
    for s in slices:
        pooled = b.add("Reshape", [b.add("MaxPool", [s], attrs), b.const(dims, D.int32)],
                       {"T": dtype, "Tshape": D.int32})
        total = pooled if not total else b.add("Maximum", [total, pooled], {"T": dtype})
    return [total]


def _volume_why_not(op: Operation) -> Optional[str]:
    shape = op.inputs[0].shape
    if shape.ndims != 5 or None in shape.as_list()[1:] or \
            op.outputs[0].shape.ndims != 5 or None in op.outputs[0].shape.as_list()[1:] or \
            op.attrs.get("data_format", "NDHWC") != "NDHWC" or \
            any(int(d) != 1 for d in op.attrs.get("dilations", [1] * 5)) or \
            not op.outputs[0].dtype.is_floating or \
            (op.type == "Conv3D" and (op.inputs[1].shape.ndims != 5 or
                                      op.inputs[1].shape.as_list()[0] is None)):
        return (f"{op.type} other than NDHWC, undilated, with the input's and output's "
                "depth, height, width and channels known when the graph is written")
    return None


LOWERINGS_VOLUME: Dict[str, Tuple[Callable[[Operation], Optional[str]],
                                  Callable[[Operation, List[str], NodeBuilder],
                                           List[Optional[str]]]]] = {
    "Conv3D": (_volume_why_not, _conv3d),
    "AvgPool3D": (_volume_why_not, _avg_pool3d),
    "MaxPool3D": (_volume_why_not, _max_pool3d),
}
