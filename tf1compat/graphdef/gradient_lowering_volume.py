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
Conv3DBackpropInputV2 (conv3d_transpose) is, as the 2-D transposed convolution of
gradient_lowering_nn.py, a stride-1 VALID Conv3D (written as above) of its input spread
out and padded by 0/1 matrix products along each axis, the kernel flipped.
Conv3DBackpropFilterV2 (a 3-D filter gradient on a path that is differentiated again)
is, per kernel offset, the strided slice of the padded input's window entries times the
gradient's rows (a MatMul), the offsets stacked.

`LOWERINGS_VOLUME[op_type]` is (why_not(op) -> reason or None, lower(op, input names,
builder) -> the name of each output the body uses).
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.graphdef.function_nodes import NodeBuilder
from tf1compat.graphdef.gradient_lowering_nn import placement, spatial_products

__all__ = ["LOWERINGS_VOLUME"]


def _depth_layout(size: int, window: int, stride: int, padding: str
                  ) -> Tuple[int, int, int]:
    """(output depth, zeros before, zeros after) of a window along depth."""
    if padding == "VALID":
        return (size - window) // stride + 1, 0, 0
    out = -(-size // stride)
    total = max((out - 1) * stride + window - size, 0)
    return out, total // 2, total - total // 2


def _along_depth(b: NodeBuilder, x: str, dtype: D.DType, dims: List[int],
                 matrix: np.ndarray) -> str:
    """[N, D, H, W, C] -> [N, D', H, W, C]: `matrix` [D, D'] times each depth column
    (depth moved last, a MatMul, moved back)."""
    depth, height, width, channels = dims
    moved = b.add("Transpose", [x, b.const([0, 2, 3, 4, 1], D.int32)],
                  {"T": dtype, "Tperm": D.int32})
    rows = b.add("Reshape", [moved, b.const([-1, depth], D.int32)],
                 {"T": dtype, "Tshape": D.int32})
    rows = b.add("MatMul", [rows, b.const(matrix, dtype)],
                 {"T": dtype, "transpose_a": False, "transpose_b": False})
    moved = b.add("Reshape", [rows, b.const([-1, height, width, channels, matrix.shape[1]],
                                            D.int32)], {"T": dtype, "Tshape": D.int32})
    return b.add("Transpose", [moved, b.const([0, 4, 1, 2, 3], D.int32)],
                 {"T": dtype, "Tperm": D.int32})


def _depth_slices(b: NodeBuilder, x: str, dtype: D.DType, dims: List[int], window: int,
                  stride: int, padding: str, fill: float = 0.0
                  ) -> Tuple[List[str], int, int]:
    """The depth slices of `x` ([N, D, H, W, C], `dims` its D, H, W, C) of each depth
    offset of the window, each as a batch of 2-D maps [N * output depth, H, W, C]; the
    output depth and the depths padded before (with `fill`)."""
    depth, height, width, channels = dims
    out, before, after = _depth_layout(depth, window, stride, padding)
    if before or after:
        padded = depth + before + after
        spread = np.zeros([depth, padded])
        spread[np.arange(depth), np.arange(depth) + before] = 1.0
        x = _along_depth(b, x, dtype, dims, spread)
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


def _combined(b: NodeBuilder, maps: List[str], dtype: D.DType, out_dims: List[int],
              combine: str = "AddV2") -> str:
    """The 2-D results of each depth offset back in 5-D ([N, D, H, W, C], `out_dims`
    its D, H, W, C) and summed (or combined by `combine`)."""
    total = ""
    for m in maps:
        volume = b.add("Reshape", [m, b.const([-1] + out_dims, D.int32)],
                       {"T": dtype, "Tshape": D.int32})
        total = volume if not total else b.add(combine, [total, volume], {"T": dtype})
    return total


def _plane_attrs(dtype: D.DType, strides: List[int], padding: str) -> Dict[str, object]:
    return {"T": dtype, "strides": [1, strides[1], strides[2], 1], "padding": padding,
            "data_format": "NHWC"}


def _convolved(b: NodeBuilder, x: str, kernel: str, dtype: D.DType, in_dims: List[int],
               out_dims: List[int], window: int, strides: List[int], padding: str) -> str:
    """Conv3D of `x` with `kernel` (depth `window`; `strides` of depth, height, width)
    as Conv2Ds of its depth slices with the kernel's depth planes, summed."""
    slices, out, _ = _depth_slices(b, x, dtype, in_dims, window, strides[0], padding)
    planes = b.add("Unpack", [kernel], {"T": dtype, "num": window, "axis": 0})
    plane_names = [planes] + [f"{planes.rsplit(':', 1)[0]}:{j}" for j in range(1, window)]
    attrs = dict(_plane_attrs(dtype, strides, padding), dilations=[1, 1, 1, 1],
                 use_cudnn_on_gpu=True, explicit_paddings=[])
    maps = [b.add("Conv2D", [s, p], attrs) for s, p in zip(slices, plane_names)]
    return _combined(b, maps, dtype, out_dims)


def _geometry(op: Operation, x: int = 0) -> Tuple[D.DType, List[int], List[int], List[int],
                                                   str]:
    """(dtype, input x's D, H, W, C, the output's, the strides of D, H, W, padding)."""
    return (op.outputs[0].dtype.base_dtype, op.inputs[x].shape.as_list()[1:],
            op.outputs[0].shape.as_list()[1:], [int(s) for s in op.attrs["strides"][1:4]],
            op.attrs["padding"])


def _conv3d(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    dtype, in_dims, out_dims, strides, padding = _geometry(op)
    return [_convolved(b, names[0], names[1], dtype, in_dims, out_dims,
                       op.inputs[1].shape.as_list()[0], strides, padding)]


def _conv3d_transpose(op: Operation, names: List[str], b: NodeBuilder
                      ) -> List[Optional[str]]:
    # As the 2-D transposed convolution (gradient_lowering_nn.py): a stride-1 VALID
    # Conv3D of the gradient spread out (stride - 1 zeros between entries) and padded,
    # with the kernel flipped and its channel axes swapped; spreading and padding are
    # 0/1 matrix products along each axis.
    dtype, in_dims, out_dims, strides, padding = _geometry(op, x=2)
    window = op.inputs[1].shape.as_list()[:3]
    along = []
    for axis in range(3):
        size_in, size_out = out_dims[axis], in_dims[axis]
        before = 0 if padding == "VALID" else \
            max((size_out - 1) * strides[axis] + window[axis] - size_in, 0) // 2
        along.append(placement(size_in, size_out, window[axis], strides[axis], before))
    channels = in_dims[3]
    full = [size + k - 1 for size, k in zip(out_dims[:3], window)]
    flat = b.add("Reshape", [names[2], b.const([-1] + in_dims[1:], D.int32)],
                 {"T": dtype, "Tshape": D.int32})
    spread = spatial_products(b, flat, dtype, channels, along[1], along[2])
    spread = b.add("Reshape", [spread, b.const([-1, in_dims[0]] + full[1:] + [channels],
                                               D.int32)], {"T": dtype, "Tshape": D.int32})
    spread = _along_depth(b, spread, dtype, [in_dims[0]] + full[1:] + [channels],
                          along[0].T)
    flipped = b.add("ReverseV2", [names[1], b.const([0, 1, 2], D.int32)],
                    {"T": dtype, "Tidx": D.int32})
    kernel = b.add("Transpose", [flipped, b.const([0, 1, 2, 4, 3], D.int32)],
                   {"T": dtype, "Tperm": D.int32})
    return [_convolved(b, spread, kernel, dtype, full + [channels], out_dims, window[0],
                       [1, 1, 1], "VALID")]


def _conv3d_filter_gradient(op: Operation, names: List[str], b: NodeBuilder
                            ) -> List[Optional[str]]:
    # dW[kd, kh, kw, ci, co] = sum over the batch and output positions o of
    # x_padded[o * stride + k, ci] * dy[o, co]: the input padded along each axis (0/1
    # matrix products), then per kernel offset a strided slice of its windows' entries
    # times the gradient's rows (a MatMul), the offsets stacked.
    dtype = op.outputs[0].dtype.base_dtype
    in_dims, dy_dims = op.inputs[0].shape.as_list()[1:], op.inputs[2].shape.as_list()[1:]
    window = op.outputs[0].shape.as_list()[:3]
    strides = [int(s) for s in op.attrs["strides"][1:4]]
    before, padded = [], []
    for axis in range(3):
        total = 0 if op.attrs["padding"] == "VALID" else max(
            (dy_dims[axis] - 1) * strides[axis] + window[axis] - in_dims[axis], 0)
        before.append(total // 2)
        padded.append(in_dims[axis] + total)
    spread = [np.eye(in_dims[axis], padded[axis], before[axis]) for axis in range(3)]
    x = _along_depth(b, names[0], dtype, in_dims, spread[0])
    planes = b.add("Reshape", [x, b.const([-1] + in_dims[1:], D.int32)],
                   {"T": dtype, "Tshape": D.int32})
    planes = spatial_products(b, planes, dtype, in_dims[3], spread[1].T, spread[2].T)
    x = b.add("Reshape", [planes, b.const([-1] + padded + [in_dims[3]], D.int32)],
              {"T": dtype, "Tshape": D.int32})
    dy_rows = b.add("Reshape", [names[2], b.const([-1, dy_dims[3]], D.int32)],
                    {"T": dtype, "Tshape": D.int32})
    offsets = []
    for kd, kh, kw in np.ndindex(*window):
        start = [kd, kh, kw]
        end = [k + (o - 1) * s + 1 for k, o, s in zip(start, dy_dims, strides)]
        picked = b.add("StridedSlice", [
            x, b.const([0] + start + [0], D.int32), b.const([0] + end + [0], D.int32),
            b.const([1] + strides + [1], D.int32)],
            {"T": dtype, "Index": D.int32, "begin_mask": 0b10001, "end_mask": 0b10001,
             "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0})
        rows = b.add("Reshape", [picked, b.const([-1, in_dims[3]], D.int32)],
                     {"T": dtype, "Tshape": D.int32})
        offsets.append(b.add("MatMul", [rows, dy_rows], {"T": dtype, "transpose_a": True,
                                                         "transpose_b": False}))
    stacked = b.add("Pack", offsets, {"T": dtype, "N": len(offsets), "axis": 0})
    return [b.add("Reshape", [stacked, b.const(window + [in_dims[3], dy_dims[3]], D.int32)],
                  {"T": dtype, "Tshape": D.int32})]


def _pooled(op: Operation, names: List[str], b: NodeBuilder, pool: str
            ) -> Tuple[str, int, int]:
    """The depth offsets' 2-D pools (`pool`: AvgPool, MaxPool) summed (AvgPool) or their
    Maximum (MaxPool); the output depth and the depths padded before."""
    dtype, in_dims, out_dims, strides, padding = _geometry(op)
    ksize = [int(k) for k in op.attrs["ksize"]]
    fill = float(np.finfo(dtype.as_numpy_dtype).min) if pool == "MaxPool" else 0.0
    slices, out, before = _depth_slices(b, names[0], dtype, in_dims, ksize[1], strides[0],
                                        padding, fill)
    attrs = dict(_plane_attrs(dtype, strides, padding), ksize=[1, ksize[2], ksize[3], 1])
    maps = [b.add(pool, [s], attrs) for s in slices]
    return (_combined(b, maps, dtype, out_dims, "Maximum" if pool == "MaxPool" else "AddV2"),
            out, before)


def _avg_pool3d(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    dtype = op.outputs[0].dtype.base_dtype
    total, out, before = _pooled(op, names, b, "AvgPool")
    depth, stride = op.inputs[0].shape.as_list()[1], int(op.attrs["strides"][1])
    window = int(op.attrs["ksize"][1])
    # Each output depth's window start among the input's depths, and how many of its
    # depths are inside the input.
    starts = np.arange(out) * stride - before
    inside = np.minimum(starts + window, depth) - np.maximum(starts, 0)
    return [b.add("Mul", [total, b.const((1.0 / inside).reshape(1, out, 1, 1, 1), dtype)],
                  {"T": dtype})]


def _max_pool3d(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # The largest of the depth offsets' 2-D maxima (depths padded with the dtype's
    # lowest value, which no window's maximum is). Ties go to the first depth (Maximum's
    # gradient takes x >= y) and within it to MaxPool's first position: the first in
    # depth, row, column order, as MaxPool3DGrad's.
    return [_pooled(op, names, b, "MaxPool")[0]]


def _volume_why_not(op: Operation) -> Optional[str]:
    x = op.inputs[2 if op.type == "Conv3DBackpropInputV2" else 0].shape
    kernel = op.inputs[1].shape if op.type.startswith("Conv3D") else None
    if op.type == "Conv3DBackpropFilterV2":     # the kernel is the output, dy input 2
        kernel, dy = op.outputs[0].shape, op.inputs[2].shape
        if not kernel.is_fully_defined() or dy.ndims != 5 or None in dy.as_list()[1:]:
            kernel = None
    if x.ndims != 5 or None in x.as_list()[1:] or \
            op.outputs[0].shape.ndims != 5 or None in op.outputs[0].shape.as_list()[1:] or \
            op.attrs.get("data_format", "NDHWC") != "NDHWC" or \
            any(int(d) != 1 for d in op.attrs.get("dilations", [1] * 5)) or \
            not op.outputs[0].dtype.is_floating or \
            (op.type == "Conv3DBackpropInputV2" and not kernel.is_fully_defined()) or \
            (op.type == "Conv3D" and (kernel.ndims != 5 or kernel.as_list()[0] is None)) or \
            (op.type == "Conv3DBackpropFilterV2" and kernel is None):
        return (f"{op.type} other than NDHWC, undilated, with the input's and output's "
                "depth, height, width and channels known when the graph is written")
    return None


LOWERINGS_VOLUME: Dict[str, Tuple[Callable[[Operation], Optional[str]],
                                  Callable[[Operation, List[str], NodeBuilder],
                                           List[Optional[str]]]]] = {
    "Conv3D": (_volume_why_not, _conv3d),
    "AvgPool3D": (_volume_why_not, _avg_pool3d),
    "MaxPool3D": (_volume_why_not, _max_pool3d),
    "Conv3DBackpropInputV2": (_volume_why_not, _conv3d_transpose),
    "Conv3DBackpropFilterV2": (_volume_why_not, _conv3d_filter_gradient),
}
