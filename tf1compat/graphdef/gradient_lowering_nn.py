"""More ops written as other ops inside a gradient's forward function (as
gradient_lowering.py, whose `LOWERINGS` holds these too): the transposed convolution
(`Conv2DBackpropInput`: tf.nn.conv2d_transpose, tf.layers.conv2d_transpose, the
generators of DCGAN and pix2pix), the image resizes (`ResizeBilinear`,
`ResizeNearestNeighbor`: upsampling decoders), `MirrorPad` (CycleGAN's and style
transfer's reflection padding), the segment sums (graph networks' message sums), the
sparse segment sums, means and root-n sums (feature columns' embedding lookups) and
`Tile` with multiples computed at run time (the key masks of attention models:
`tf.tile(mask, [tf.shape(q)[0], 1])`). TF 2.21 has no function gradient for any of
them (scripts/probe_tf_function_gradients.py). And the reductions (Sum, Mean, Max,
Min) over negative axes, which TF's function gradients refuse.

`LOWERINGS_NN[op_type]` is (why_not(op) -> reason or None, lower(op, input names,
builder) -> the name of each output the body uses, or None: the op written as it is).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.graphdef.function_nodes import NodeBuilder

__all__ = ["LOWERINGS_NN", "placement", "segment_count", "spatial_products", "tile_dynamic",
           "tile_dynamic_why_not"]


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _spatial(op: Operation, key: str) -> List[int]:
    """The height and width entries of a 4-entry attr (strides, dilations)."""
    values = [int(v) for v in op.attrs.get(key) or [1, 1, 1, 1]]
    return values[2:] if _text(op.attrs.get("data_format", "NHWC")) == "NCHW" else values[1:3]


def placement(size_in: int, size_out: int, kernel: int, stride: int, before: int
               ) -> np.ndarray:
    """The 0/1 matrix [size_in + kernel - 1, size_out] placing the gradient's entries
    of one spatial axis, `stride - 1` zeros between them, in the input padded for a
    stride-1 VALID correlation with the flipped kernel: entry i at
    kernel - 1 - before + i * stride (entries outside are windows of padding only)."""
    matrix = np.zeros([size_in + kernel - 1, size_out])
    for i in range(size_out):
        row = kernel - 1 - before + i * stride
        if 0 <= row < matrix.shape[0]:
            matrix[row, i] = 1.0
    return matrix


def _padding_before(op: Operation, axis: int, size_in: int, size_out: int, kernel: int,
                    stride: int) -> int:
    padding = _text(op.attrs["padding"])
    if padding == "VALID":
        return 0
    if padding == "SAME":
        return max((size_out - 1) * stride + kernel - size_in, 0) // 2
    explicit = [int(v) for v in op.attrs["explicit_paddings"]]
    first = 2 if _text(op.attrs.get("data_format", "NHWC")) == "NCHW" else 1
    return explicit[2 * (first + axis)]


def spatial_products(b: NodeBuilder, x: str, dtype: D.DType, channels: int,
                      along_h: np.ndarray, along_w: np.ndarray) -> str:
    """[N, H, W, C] -> [N, H', W', C]: along_h [H', H] times each column, along_w [W', W]
    times each row (MatMuls of reshaped transposes: TF differentiates every step)."""
    def transpose(value: str, perm: List[int]) -> str:
        return b.add("Transpose", [value, b.const(perm, D.int32)],
                     {"T": dtype, "Tperm": D.int32})

    def reshape(value: str, dims: List[int]) -> str:
        return b.add("Reshape", [value, b.const(dims, D.int32)],
                     {"T": dtype, "Tshape": D.int32})

    def times(rows: str, matrix: np.ndarray) -> str:
        return b.add("MatMul", [rows, b.const(matrix, dtype)],
                     {"T": dtype, "transpose_a": False, "transpose_b": True})
    (size_h, h), (size_w, w) = along_h.shape, along_w.shape
    # [N, H, W, C] -> [N, W, C, H] -> rows of H -> [N, W, C, H']
    out = times(reshape(transpose(x, [0, 2, 3, 1]), [-1, h]), along_h)
    out = transpose(reshape(out, [-1, w, channels, size_h]), [0, 3, 2, 1])
    # [N, H', C, W] -> rows of W -> [N, H', C, W'] -> [N, H', W', C]
    out = times(reshape(out, [-1, w]), along_w)
    return transpose(reshape(out, [-1, size_h, channels, size_w]), [0, 1, 3, 2])


def _channels_last(b: NodeBuilder, x: str, dtype: D.DType, nchw: bool, back: bool = False
                   ) -> str:
    if not nchw:
        return x
    return b.add("Transpose", [x, b.const([0, 2, 3, 1] if not back else [0, 3, 1, 2],
                                          D.int32)], {"T": dtype, "Tperm": D.int32})


def _flipped_kernel(b: NodeBuilder, kernel: str, dtype: D.DType) -> str:
    """A transposed convolution's kernel for the VALID Conv2D: flipped, in and out
    channels swapped."""
    flipped = b.add("ReverseV2", [kernel, b.const([0, 1], D.int32)],
                    {"T": dtype, "Tidx": D.int32})
    return b.add("Transpose", [flipped, b.const([0, 1, 3, 2], D.int32)],
                 {"T": dtype, "Tperm": D.int32})


def _valid_conv(b: NodeBuilder, x: str, kernel: str, dtype: D.DType) -> str:
    return b.add("Conv2D", [x, kernel], {
        "T": dtype, "strides": [1, 1, 1, 1], "padding": "VALID", "data_format": "NHWC",
        "dilations": [1, 1, 1, 1], "use_cudnn_on_gpu": True, "explicit_paddings": []})


def _conv_transpose_run_time(op: Operation, names: List[str], b: NodeBuilder
                             ) -> List[Optional[str]]:
    # A transposed convolution of spatial sizes known at run time only (tf_unet's
    # deconv2d: the output shape a tf.stack of tf.shape pieces), or of a kernel or
    # gradient channels known at run time only: along each spatial axis the gradient
    # spread by s - 1 zeros concatenated after each entry and k - 1 zeros on both
    # sides, a stride-1 VALID Conv2D with the flipped kernel (the full transposed
    # convolution), then the output sliced from TF's padding before (EXPLICIT: the
    # attr's; SAME: computed from the sizes at run time). Sizes unknown when the graph
    # is written are read from the values' shapes.
    dtype, i32 = op.outputs[0].dtype.base_dtype, D.int32
    nchw = _text(op.attrs.get("data_format", "NHWC")) == "NCHW"
    kernel_shape = op.inputs[1].shape
    static_kernel = kernel_shape.as_list() if kernel_shape.ndims == 4 else [None] * 4

    def ints(op_type: str, inputs: List[object]) -> object:
        if all(isinstance(v, int) for v in inputs):     # both known: folded here
            left, right = inputs
            return {"Mul": left * right, "AddV2": left + right, "Sub": left - right,
                    "Maximum": max(left, right)}[op_type]
        return b.add(op_type, [v if isinstance(v, str) else b.const(v, i32)
                               for v in inputs], {"T": i32})

    def entry(vector: str, k: int) -> str:
        return b.add("StridedSlice", [vector, b.const([k], i32), b.const([k + 1], i32),
                                      b.const([1], i32)],
                     {"T": i32, "Index": i32, "begin_mask": 0, "end_mask": 0,
                      "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 1})

    def packed(parts: List[object]) -> str:
        names_ = [p if isinstance(p, str) else b.const(p, i32) for p in parts]
        return b.add("Pack", names_, {"T": i32, "N": len(names_), "axis": 0})

    def concat(parts: List[str], axis: int) -> str:
        return b.add("ConcatV2", parts + [b.const(axis, i32)],
                     {"T": dtype, "N": len(parts), "Tidx": i32})

    def zeros(dims: List[object]) -> str:
        return b.add("Fill", [packed(dims), zero], {"T": dtype, "index_type": i32})
    kernel_of_run_time = None in static_kernel
    kernel_dims: List[object] = list(static_kernel)
    if kernel_of_run_time:
        kernel_sizes = b.add("Shape", [names[1]], {"T": dtype, "out_type": i32})
        kernel_dims = [entry(kernel_sizes, k) if v is None else v
                       for k, v in enumerate(static_kernel)]
    x = _channels_last(b, names[2], dtype, nchw)
    shape = b.add("Shape", [x], {"T": dtype, "out_type": i32})
    # (The gradient's channels are the kernel's last axis: the kernel's, or the
    # gradient's own where neither is known when the graph is written.)
    channels = kernel_dims[3] if isinstance(kernel_dims[3], int) else entry(shape, 3)
    dims: List[object] = [entry(shape, 0), entry(shape, 1), entry(shape, 2), channels]
    zero = b.const(0, dtype)
    sizes_in = dims[1:3]
    strides = _spatial(op, "strides")
    for axis, (kernel, stride) in enumerate(zip(kernel_dims[:2], strides), start=1):
        if stride > 1:
            spread = b.add("ExpandDims", [x, b.const(axis + 1, i32)],
                           {"T": dtype, "Tdim": i32})
            gaps = zeros(dims[:axis + 1] + [stride - 1] + dims[axis + 1:])
            dims[axis] = ints("Mul", [dims[axis], stride])
            x = b.add("Reshape", [concat([spread, gaps], axis + 1), packed(dims)],
                      {"T": dtype, "Tshape": i32})
        if not isinstance(kernel, int) or kernel > 1:
            edge = zeros(dims[:axis] + [ints("Sub", [kernel, 1])] + dims[axis + 1:])
            x = concat([edge, x, edge], axis)
            dims[axis] = ints("AddV2", [dims[axis], ints("Sub", [ints("Mul", [kernel, 2]),
                                                                  2])])
    full = _valid_conv(b, x, _flipped_kernel(b, names[1], dtype), dtype)
    sizes_out = [entry(names[0], k) for k in ((2, 3) if nchw else (1, 2))]
    before: List[object] = [0, 0, 0, 0]
    padding = _text(op.attrs["padding"])
    if padding == "EXPLICIT":
        explicit = [int(v) for v in op.attrs["explicit_paddings"]]
        first = 2 if nchw else 1
        before[1:3] = [explicit[2 * (first + axis)] for axis in range(2)]
    elif padding == "SAME":
        for axis, (kernel, stride) in enumerate(zip(kernel_dims[:2], strides)):
            # max((size_in - 1) * s + k - size_out, 0) // 2 (halved in float32: TF has
            # no function gradient for FloorDiv)
            total = ints("Maximum", [ints("Sub", [ints("AddV2", [ints("Mul", [
                ints("Sub", [sizes_in[axis], 1]), stride]), kernel]), sizes_out[axis]]), 0])
            half = b.add("Mul", [b.add("Cast", [total], {"SrcT": i32, "DstT": D.float32,
                                                        "Truncate": False}),
                                 b.const(0.5, D.float32)], {"T": D.float32})
            before[axis + 1] = b.add("Cast", [half], {"SrcT": D.float32, "DstT": i32,
                                                      "Truncate": False})
    # (All sizes given: TF's function gradient of Slice pads by shape - begin - size.)
    size = packed([dims[0]] + sizes_out + [kernel_dims[2]])
    out = b.add("Slice", [full, packed(before), size], {"T": dtype, "Index": i32})
    return [_channels_last(b, out, dtype, nchw, back=True)]


def _conv_transpose(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # The transposed convolution is a stride-1 VALID Conv2D of the gradient spread out
    # (stride - 1 zeros between entries) and padded, with the kernel flipped and its
    # channel axes swapped. Spreading and padding are two constant 0/1 matrix products
    # (one per spatial axis), so TF differentiates every step.
    if _run_time_sizes(op):
        return _conv_transpose_run_time(op, names, b)
    dtype = op.outputs[0].dtype.base_dtype
    nchw = _text(op.attrs.get("data_format", "NHWC")) == "NCHW"
    kh, kw, _, channels = op.inputs[1].shape.as_list()
    dy_shape = op.inputs[2].shape.as_list()
    out_shape = op.outputs[0].shape.as_list()
    (size_out_h, size_out_w), (size_in_h, size_in_w) = \
        (dy_shape[2:], out_shape[2:]) if nchw else (dy_shape[1:3], out_shape[1:3])
    stride_h, stride_w = _spatial(op, "strides")
    along_h = placement(size_in_h, size_out_h, kh, stride_h,
                         _padding_before(op, 0, size_in_h, size_out_h, kh, stride_h))
    along_w = placement(size_in_w, size_out_w, kw, stride_w,
                         _padding_before(op, 1, size_in_w, size_out_w, kw, stride_w))
    padded = spatial_products(b, _channels_last(b, names[2], dtype, nchw), dtype, channels,
                               along_h, along_w)
    out = _valid_conv(b, padded, _flipped_kernel(b, names[1], dtype), dtype)
    return [_channels_last(b, out, dtype, nchw, back=True)]


def _run_time_sizes(op: Operation) -> bool:
    """Whether Conv2DBackpropInput `op` has sizes known at run time only (spatial
    sizes, kernel sizes, the gradient's channels) that `_conv_transpose_run_time`
    writes: of a rank-4 gradient and output, a kernel of rank 4 where known."""
    dy_shape, out_shape, kernel = op.inputs[2].shape, op.outputs[0].shape, op.inputs[1].shape
    if dy_shape.ndims != 4 or out_shape.ndims != 4 or kernel.ndims not in (None, 4):
        return False
    nchw = _text(op.attrs.get("data_format", "NHWC")) == "NCHW"
    dy_dims, out_dims = dy_shape.as_list(), out_shape.as_list()
    spatial = (lambda dims: dims[2:]) if nchw else (lambda dims: dims[1:3])
    return None in spatial(dy_dims) + spatial(out_dims) or not kernel.is_fully_defined() \
        or dy_dims[1 if nchw else 3] is None


def _conv_transpose_why_not(op: Operation) -> Optional[str]:
    dy_shape, out_shape = op.inputs[2].shape, op.outputs[0].shape
    if _spatial(op, "dilations") != [1, 1]:
        return "Conv2DBackpropInput with dilations"
    if _run_time_sizes(op):
        return None
    if dy_shape.ndims != 4 or out_shape.ndims != 4 or op.inputs[1].shape.ndims != 4:
        return ("Conv2DBackpropInput with a kernel, gradient or output rank unknown when "
                "the graph is written")
    return None


def _resize_weights(op: Operation, size_in: int, size_out: int) -> np.ndarray:
    """[size_out, size_in]: the weight of each input row in each output row of TF's
    ResizeBilinear / ResizeNearestNeighbor (align_corners, half_pixel_centers)."""
    align = bool(op.attrs.get("align_corners"))
    half = bool(op.attrs.get("half_pixel_centers"))
    scale = (size_in - 1) / (size_out - 1) if align and size_out > 1 else size_in / size_out
    weights = np.zeros([size_out, size_in])
    for i in range(size_out):
        if op.type == "ResizeBilinear":
            source = np.float32((i + 0.5) * scale - 0.5 if half else i * scale)
            low = np.floor(source)
            lerp = float(source - low)
            weights[i, int(max(low, 0))] += 1.0 - lerp
            weights[i, int(min(np.ceil(source), size_in - 1))] += lerp
        else:
            source = np.float32((i + 0.5) * scale if half else i * scale)
            # (TF rounds halves up, as C's round of these non-negative positions.)
            index = np.floor(source + np.float32(0.5)) if align else np.floor(source)
            weights[i, int(min(max(index, 0), size_in - 1))] = 1.0
    return weights


def _resize(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # Both resizes are linear in the image, separable over height and width: two
    # constant matrix products (TF has no function gradient for either).
    dtype = op.outputs[0].dtype.base_dtype
    _, size_in_h, size_in_w, channels = op.inputs[0].shape.as_list()
    _, size_out_h, size_out_w, _ = op.outputs[0].shape.as_list()
    image = names[0]
    if op.inputs[0].dtype.base_dtype != dtype:
        image = b.add("Cast", [image], {"SrcT": op.inputs[0].dtype.base_dtype, "DstT": dtype,
                                        "Truncate": False})
    return [spatial_products(b, image, dtype, channels,
                              _resize_weights(op, size_in_h, size_out_h),
                              _resize_weights(op, size_in_w, size_out_w))]


def _resize_why_not(op: Operation) -> Optional[str]:
    if op.inputs[0].shape.ndims != 4 or None in op.inputs[0].shape.as_list()[1:] or \
            op.outputs[0].shape.ndims != 4 or None in op.outputs[0].shape.as_list()[1:3]:
        return f"{op.type} with image or output sizes unknown when the graph is written"
    return None


def _mirror_pad(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # Along each padded axis: the reversed slices next to each edge (without the edge
    # in REFLECT mode, with it in SYMMETRIC), concatenated around the value.
    dtype = op.outputs[0].dtype.base_dtype
    edge = 1 if _text(op.attrs["mode"]) == "REFLECT" else 0
    rank = op.inputs[0].shape.ndims
    out = names[0]
    for axis, (before, after) in enumerate(constant_value(op.inputs[1]).tolist()):
        others = sum(1 << k for k in range(rank) if k != axis)

        def edge_slice(start: int, stop: int) -> str:
            begin, end = [0] * rank, [0] * rank
            begin[axis], end[axis] = start, stop
            part = b.add("StridedSlice", [out, b.const(begin, D.int32),
                                          b.const(end, D.int32), b.const([1] * rank, D.int32)],
                         {"T": dtype, "Index": D.int32, "begin_mask": others,
                          "end_mask": others | (1 << axis if stop == 0 else 0),
                          "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0})
            return b.add("ReverseV2", [part, b.const([axis], D.int32)],
                         {"T": dtype, "Tidx": D.int32})
        parts = ([edge_slice(edge, edge + before)] if before else []) + [out] + \
            ([edge_slice(-after - edge, -edge)] if after else [])
        if len(parts) > 1:
            out = b.add("ConcatV2", parts + [b.const(axis, D.int32)],
                        {"T": dtype, "N": len(parts), "Tidx": D.int32})
    return [out]


def _mirror_pad_why_not(op: Operation) -> Optional[str]:
    if constant_value(op.inputs[1]) is None or op.inputs[0].shape.ndims is None:
        return "MirrorPad with paddings or rank unknown when the graph is written"
    return None


def _segment_sum(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # A product with the one-hot matrix [segments, ids] of the segment ids: row s sums
    # the data rows whose id is s (memory segments x ids; TF has no function gradient
    # for either segment sum).
    dtype = op.outputs[0].dtype.base_dtype
    ids = op.inputs[1]
    index_type = ids.dtype.base_dtype
    segments = segment_count(op)
    flat_ids = b.add("Reshape", [names[1], b.const([1, -1], D.int32)],
                     {"T": index_type, "Tshape": D.int32})
    hits = b.add("Equal", [b.const(np.arange(segments).reshape(-1, 1), index_type),
                           flat_ids], {"T": index_type, "incompatible_shape_error": True})
    one_hot = b.add("Cast", [hits], {"SrcT": D.bool, "DstT": dtype, "Truncate": False})
    rows = b.add("Reshape", [names[0], b.const([-1, int(np.prod(_row_shape(op)))], D.int32)],
                 {"T": dtype, "Tshape": D.int32})
    summed = b.add("MatMul", [one_hot, rows],
                   {"T": dtype, "transpose_a": False, "transpose_b": False})
    return [b.add("Reshape", [summed, b.const([segments] + _row_shape(op), D.int32)],
                  {"T": dtype, "Tshape": D.int32})]


def segment_count(op: Operation) -> Optional[int]:
    """The number of segments: the output's first dim, or one past the largest
    constant id."""
    if op.outputs[0].shape.ndims and dimension_value(op.outputs[0].shape[0]) is not None:
        return dimension_value(op.outputs[0].shape[0])
    ids = constant_value(op.inputs[1])
    return int(np.max(ids)) + 1 if ids is not None and np.size(ids) else None


def _row_shape(op: Operation) -> List[int]:
    """The shape of a segment: the data's dims after those of the ids."""
    return op.inputs[0].shape.as_list()[op.inputs[1].shape.ndims:]


def _segment_sum_why_not(op: Operation) -> Optional[str]:
    if op.inputs[1].shape.ndims is None or op.inputs[0].shape.ndims is None or \
            segment_count(op) is None or None in _row_shape(op) or \
            not op.outputs[0].dtype.is_floating:
        return (f"{op.type} with a segment count or segment shape unknown when the graph "
                "is written")
    return None


def _sparse_segment(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # Rows picked by a one-hot product of the indices, summed by one of the segment ids
    # ([segments, indices]; segments: one past the largest id, at run time), divided by
    # the segment sizes (mean) or their roots (sqrt n); empty segments give zeros as in
    # TF (embedding_lookup_sparse of feature columns, canned estimators).
    dtype = op.outputs[0].dtype.base_dtype
    index_type, segment_type = op.inputs[1].dtype.base_dtype, op.inputs[2].dtype.base_dtype
    width = int(np.prod(_row_shape_of(op.inputs[0])))

    def column(x: str, t: D.DType) -> str:
        return b.add("Reshape", [x, b.const([-1, 1], D.int32)], {"T": t, "Tshape": D.int32})

    def row(x: str, t: D.DType) -> str:
        return b.add("Reshape", [x, b.const([1, -1], D.int32)], {"T": t, "Tshape": D.int32})

    def one_hot(ids: str, count: str, t: D.DType, ids_first: bool) -> str:
        positions = b.add("Range", [b.const(0, t), count, b.const(1, t)], {"Tidx": t})
        pair = [column(ids, t), row(positions, t)] if ids_first else \
            [column(positions, t), row(ids, t)]
        hits = b.add("Equal", pair, {"T": t, "incompatible_shape_error": True})
        return b.add("Cast", [hits], {"SrcT": D.bool, "DstT": dtype, "Truncate": False})
    shape = b.add("Shape", [names[0]], {"T": dtype, "out_type": index_type})
    rows = b.add("StridedSlice", [shape, b.const([0], D.int32), b.const([1], D.int32),
                                  b.const([1], D.int32)],
                 {"T": index_type, "Index": D.int32, "begin_mask": 0, "end_mask": 0,
                  "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 1})
    table = b.add("Reshape", [names[0], b.const([-1, width], D.int32)],
                  {"T": dtype, "Tshape": D.int32})
    picked = b.add("MatMul", [one_hot(names[1], rows, index_type, True), table],
                   {"T": dtype, "transpose_a": False, "transpose_b": False})
    largest = b.add("Max", [names[2], b.const(0, D.int32)],
                    {"T": segment_type, "Tidx": D.int32, "keep_dims": False})
    segments = b.add("Maximum", [b.add("AddV2", [largest, b.const(1, segment_type)],
                                       {"T": segment_type}), b.const(0, segment_type)],
                     {"T": segment_type})
    members = one_hot(names[2], segments, segment_type, False)
    out = b.add("MatMul", [members, picked],
                {"T": dtype, "transpose_a": False, "transpose_b": False})
    if op.type != "SparseSegmentSum":
        sizes = b.add("Maximum", [b.add("Sum", [members, b.const([1], D.int32)],
                                        {"T": dtype, "Tidx": D.int32, "keep_dims": True}),
                                  b.const(1, dtype)], {"T": dtype})
        if op.type == "SparseSegmentSqrtN":
            sizes = b.add("Sqrt", [sizes], {"T": dtype})
        out = b.add("RealDiv", [out, sizes], {"T": dtype})
    count = b.add("Cast", [column(segments, segment_type)],
                  {"SrcT": segment_type, "DstT": D.int32, "Truncate": False})
    dims = b.add("ConcatV2", [b.add("Reshape", [count, b.const([1], D.int32)],
                                    {"T": D.int32, "Tshape": D.int32}),
                              b.const(_row_shape_of(op.inputs[0]), D.int32),
                              b.const(0, D.int32)], {"T": D.int32, "N": 2, "Tidx": D.int32})
    return [b.add("Reshape", [out, dims], {"T": dtype, "Tshape": D.int32})]


def _row_shape_of(data: Any) -> List[int]:
    return data.shape.as_list()[1:]


def _sparse_segment_why_not(op: Operation) -> Optional[str]:
    if op.inputs[0].shape.ndims is None or op.inputs[0].shape.ndims < 1 or \
            None in _row_shape_of(op.inputs[0]):
        return f"{op.type} of rows of a shape unknown when the graph is written"
    return None


def tile_dynamic(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    """Tile with multiples known at run time only: x reshaped to [1, d0, 1, d1, ...],
    broadcast to [m0, d0, m1, d1, ...] and reshaped to [m0 * d0, m1 * d1, ...]."""
    dtype = op.outputs[0].dtype.base_dtype
    index_type = op.inputs[1].dtype.base_dtype
    rank = op.inputs[0].shape.ndims
    shape = b.add("Shape", [names[0]], {"T": dtype, "out_type": index_type})

    def interleaved(first: str) -> str:
        pairs = b.add("Pack", [first, shape], {"T": index_type, "N": 2, "axis": 1})
        return b.add("Reshape", [pairs, b.const([-1], D.int32)],
                     {"T": index_type, "Tshape": D.int32})
    spread = b.add("Reshape", [names[0], interleaved(b.const([1] * rank, index_type))],
                   {"T": dtype, "Tshape": index_type})
    copies = b.add("BroadcastTo", [spread, interleaved(names[1])],
                   {"T": dtype, "Tidx": index_type})
    sizes = b.add("Mul", [names[1], shape], {"T": index_type})
    return [b.add("Reshape", [copies, sizes], {"T": dtype, "Tshape": index_type})]


def tile_dynamic_why_not(op: Operation) -> Optional[str]:
    """Why `tile_dynamic` cannot write `op` (None: it can)."""
    if op.inputs[0].shape.ndims is None:
        return "Tile of a tensor of unknown rank with multiples unknown when written"
    return None


def _reduction(op: Operation, names: List[str], b: NodeBuilder
               ) -> Optional[List[Optional[str]]]:
    # The same reduction over the axes counted from the front: TF's function gradient
    # of Sum, Mean, Max and Min places the reduced axes with DynamicStitch, which
    # refuses a negative axis ("indices[0] is out of range": `reduce_sum(x, -1)`).
    # Other reductions are written as they are (None).
    value = constant_value(op.inputs[1])
    if value is None or not (np.asarray(value) < 0).any():
        return None
    axes = b.const(np.asarray(value) % op.inputs[0].shape.ndims,
                   op.inputs[1].dtype.base_dtype)
    attrs = {key: op.attrs[key] for key in ("T", "Tidx", "keep_dims")}
    return [b.add(op.type, [names[0], axes], attrs)]


def _reduction_why_not(op: Operation) -> Optional[str]:
    value = constant_value(op.inputs[1])
    if value is not None and (np.asarray(value) < 0).any() and \
            op.inputs[0].shape.ndims is None:
        return f"{op.type} over a negative axis of a tensor of unknown rank"
    return None


LOWERINGS_NN: Dict[str, Tuple[Callable[[Operation], Optional[str]],
                              Callable[[Operation, List[str], NodeBuilder],
                                       List[Optional[str]]]]] = {
    "Conv2DBackpropInput": (_conv_transpose_why_not, _conv_transpose),
    "ResizeBilinear": (_resize_why_not, _resize),
    "ResizeNearestNeighbor": (_resize_why_not, _resize),
    "MirrorPad": (_mirror_pad_why_not, _mirror_pad),
    "SegmentSum": (_segment_sum_why_not, _segment_sum),
    "UnsortedSegmentSum": (_segment_sum_why_not, _segment_sum),
    **{op_type: (_sparse_segment_why_not, _sparse_segment)
       for op_type in ("SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN")},
    **{op_type: (_reduction_why_not, _reduction) for op_type in ("Sum", "Mean", "Max", "Min")},
}
