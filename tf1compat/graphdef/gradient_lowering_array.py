"""Array ops written as other ops inside a gradient's forward function (as
gradient_lowering.py, whose `LOWERINGS` holds these too): `SpaceToBatchND` and
`BatchToSpaceND` (dilated convolutions: tf.nn.atrous_conv2d, tf.nn.convolution with a
dilation rate), `MatrixBandPart` (a transformer's causal masks), `CropAndResize`
(bilinear ROI crops: GatherNd of the neighbours and their lerps), `ScatterNd`
(tf.scatter_nd into a shape known when written: a one-hot product of the rows), the
segment products (Mul chains over one-hot rows) and the segment means (`SegmentMean`;
`UnsortedSegmentMean` is not an op: tf.math.unsorted_segment_mean is a sum divided by
counts). TF 2.21 has no function gradient for any of them
(scripts/probe_tf_function_gradients.py).

`LOWERINGS_ARRAY[op_type]` is (why_not(op) -> reason or None, lower(op, input names,
builder) -> the name of each output the body uses).
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.operation import Operation
from tf1compat.graphdef.function_nodes import NodeBuilder
from tf1compat.graphdef.gradient_lowering_nn import (LOWERINGS_NN, segment_count,
                                                    spatial_products)

__all__ = ["LOWERINGS_ARRAY"]


def _shifted(size_out: int, size_in: int, offset: int) -> np.ndarray:
    """[size_out, size_in]: row r takes entry r - offset (padding: offset >= 0 rows of
    zeros first; cropping: offset < 0 drops the first -offset entries)."""
    matrix = np.zeros([size_out, size_in])
    for r in range(size_out):
        if 0 <= r - offset < size_in:
            matrix[r, r - offset] = 1.0
    return matrix


def _blocks_and_margins(op: Operation) -> Tuple[List[int], List[List[int]]]:
    """The block shape and the paddings (SpaceToBatchND) or crops (BatchToSpaceND)."""
    blocks = np.asarray(constant_value(op.inputs[1])).reshape(-1).tolist()
    return [int(v) for v in blocks], np.asarray(constant_value(op.inputs[2])).tolist()


def _space_batch_why_not(op: Operation) -> Optional[str]:
    shape = op.inputs[0].shape
    if shape.ndims != 4 or None in shape.as_list()[1:] or \
            constant_value(op.inputs[1]) is None or constant_value(op.inputs[2]) is None or \
            np.size(constant_value(op.inputs[1])) != 2 or not op.outputs[0].dtype.is_floating:
        return (f"{op.type} other than over the two spatial axes of a float [batch, height, "
                "width, channels] tensor, with shapes and blocks known when written")
    return None


def _reshape(b: NodeBuilder, x: str, dims: List[int], dtype: D.DType) -> str:
    return b.add("Reshape", [x, b.const(dims, D.int32)], {"T": dtype, "Tshape": D.int32})


def _transpose(b: NodeBuilder, x: str, perm: List[int], dtype: D.DType) -> str:
    return b.add("Transpose", [x, b.const(perm, D.int32)], {"T": dtype, "Tperm": D.int32})


def _space_to_batch(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # Padded (0/1 matrix products along height and width), split into blocks and the
    # block offsets moved in front of the batch: out[(i * bw + j) * B + n, y, x] =
    # padded[n, y * bh + i, x * bw + j].
    dtype = op.outputs[0].dtype.base_dtype
    _, height, width, channels = op.inputs[0].shape.as_list()
    (bh, bw), ((top, bottom), (left, right)) = _blocks_and_margins(op)
    x = names[0]
    size_h, size_w = height + top + bottom, width + left + right
    if top or bottom or left or right:
        x = spatial_products(b, x, dtype, channels, _shifted(size_h, height, top),
                             _shifted(size_w, width, left))
    x = _reshape(b, x, [-1, size_h // bh, bh, size_w // bw, bw, channels], dtype)
    x = _transpose(b, x, [2, 4, 0, 1, 3, 5], dtype)
    return [_reshape(b, x, [-1, size_h // bh, size_w // bw, channels], dtype)]


def _batch_to_space(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # The inverse order: the block offsets moved back beside the spatial positions, then
    # the crops dropped (0/1 matrix products along height and width).
    dtype = op.outputs[0].dtype.base_dtype
    _, height, width, channels = op.inputs[0].shape.as_list()
    (bh, bw), ((top, bottom), (left, right)) = _blocks_and_margins(op)
    x = _reshape(b, names[0], [bh, bw, -1, height, width, channels], dtype)
    x = _transpose(b, x, [2, 3, 0, 4, 1, 5], dtype)
    size_h, size_w = height * bh, width * bw
    x = _reshape(b, x, [-1, size_h, size_w, channels], dtype)
    if top or bottom or left or right:
        x = spatial_products(b, x, dtype, channels,
                             _shifted(size_h - top - bottom, size_h, -top),
                             _shifted(size_w - left - right, size_w, -left))
    return [x]


def _band_part(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # x times the band's 0/1 mask, built when the op runs: entry (i, j) is kept where
    # (lower < 0 or i - j <= lower) and (upper < 0 or j - i <= upper). (A non-finite
    # entry outside the band gives NaN where MatrixBandPart gives 0.)
    dtype = op.outputs[0].dtype.base_dtype
    index = op.inputs[1].dtype.base_dtype
    shape = b.add("Shape", [names[0]], {"T": dtype, "out_type": index})

    def count(axis: int, then: str) -> str:
        size = b.add("StridedSlice", [shape, b.const([axis], D.int32),
                                      b.const([axis + 1 if axis < -1 else 0], D.int32),
                                      b.const([1], D.int32)],
                     {"T": index, "Index": D.int32, "begin_mask": 0,
                      "end_mask": 0 if axis < -1 else 1, "ellipsis_mask": 0,
                      "new_axis_mask": 0, "shrink_axis_mask": 1})
        positions = b.add("Range", [b.const(0, index), size, b.const(1, index)],
                          {"Tidx": index})
        return b.add("ExpandDims", [positions, b.const(-1, D.int32)],
                     {"T": index, "Tdim": D.int32}) if then == "column" else positions
    below = b.add("Sub", [count(-2, "column"), count(-1, "row")], {"T": index})   # i - j
    above = b.add("Neg", [below], {"T": index})

    def within(distance: str, limit: str) -> str:
        unlimited = b.add("Less", [limit, b.const(0, index)], {"T": index})
        near = b.add("LessEqual", [distance, limit], {"T": index})
        return b.add("LogicalOr", [unlimited, near], {})
    kept = b.add("LogicalAnd", [within(below, names[1]), within(above, names[2])], {})
    mask = b.add("Cast", [kept], {"SrcT": D.bool, "DstT": dtype, "Truncate": False})
    return [b.add("Mul", [names[0], mask], {"T": dtype})]


def _band_part_why_not(op: Operation) -> Optional[str]:
    if op.inputs[0].shape.ndims is not None and op.inputs[0].shape.ndims < 2 or \
            not op.outputs[0].dtype.is_floating:
        return "MatrixBandPart of a non-float tensor"
    return None


def _segment_mean(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # The segment sums (gradient_lowering_nn.py: a one-hot product of the ids) divided
    # by the segment sizes, at least 1 (an empty segment's mean is 0, as TF's).
    dtype = op.outputs[0].dtype.base_dtype
    index_type = op.inputs[1].dtype.base_dtype
    summed = LOWERINGS_NN["SegmentSum"][1](op, names, b)[0]
    segments = segment_count(op)
    flat_ids = b.add("Reshape", [names[1], b.const([1, -1], D.int32)],
                     {"T": index_type, "Tshape": D.int32})
    hits = b.add("Equal", [b.const(np.arange(segments).reshape(-1, 1), index_type), flat_ids],
                 {"T": index_type, "incompatible_shape_error": True})
    sizes = b.add("Sum", [b.add("Cast", [hits], {"SrcT": D.bool, "DstT": dtype,
                                                 "Truncate": False}), b.const(1, D.int32)],
                  {"T": dtype, "Tidx": D.int32, "keep_dims": False})
    sizes = b.add("Maximum", [sizes, b.const(1, dtype)], {"T": dtype})
    rank = op.inputs[0].shape.ndims - op.inputs[1].shape.ndims + 1
    sizes = _reshape(b, sizes, [segments] + [1] * (rank - 1), dtype)
    return [b.add("RealDiv", [summed, sizes], {"T": dtype})]


def _scatter_nd(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # The rows of the updates summed into the output's rows by a one-hot product of their
    # row numbers there (duplicates add up, as ScatterNd's): its gradient gives each
    # update the output gradient's row at its index, TF 1.x's gather_nd of the gradient.
    dtype = op.outputs[0].dtype.base_dtype
    index_type = op.inputs[0].dtype.base_dtype
    depth = op.inputs[0].shape.as_list()[-1]
    dims = [int(v) for v in np.asarray(constant_value(op.inputs[2])).reshape(-1)]
    rows, width = int(np.prod(dims[:depth])), int(np.prod(dims[depth:]))
    strides = [int(np.prod(dims[k + 1:depth])) for k in range(depth)]
    flat = b.add("Reshape", [names[0], b.const([-1, depth], D.int32)],
                 {"T": index_type, "Tshape": D.int32})
    row_of = b.add("Sum", [b.add("Mul", [flat, b.const(strides, index_type)],
                                 {"T": index_type}), b.const(1, D.int32)],
                   {"T": index_type, "Tidx": D.int32, "keep_dims": False})
    row_of = b.add("Reshape", [row_of, b.const([1, -1], D.int32)],
                   {"T": index_type, "Tshape": D.int32})
    hits = b.add("Equal", [b.const(np.arange(rows).reshape(-1, 1), index_type), row_of],
                 {"T": index_type, "incompatible_shape_error": True})
    members = b.add("Cast", [hits], {"SrcT": D.bool, "DstT": dtype, "Truncate": False})
    summed = b.add("MatMul", [members, _reshape(b, names[1], [-1, width], dtype)],
                   {"T": dtype, "transpose_a": False, "transpose_b": False})
    return [_reshape(b, summed, dims, dtype)]


def _scatter_nd_why_not(op: Operation) -> Optional[str]:
    indices = op.inputs[0].shape
    if indices.ndims is None or indices.as_list()[-1] is None or \
            constant_value(op.inputs[2]) is None or not op.outputs[0].dtype.is_floating:
        return ("ScatterNd of non-float updates, or with an index depth or output shape "
                "unknown when the graph is written")
    return None


def _crop_and_resize(op: Operation, names: List[str], b: NodeBuilder
                     ) -> List[Optional[str]]:
    # Bilinear sampling as GatherNd of the four neighbours and their lerps, the sample
    # positions computed from the boxes in the order CropAndResize's kernel does, the
    # neighbours' rows and columns its floor and ceil (truncating casts of positions
    # that are >= 0 inside the image; clamped outside, where the extrapolation value
    # replaces the sample): TF differentiates it to CropAndResize's image and box
    # gradients.
    f32, i32 = D.float32, D.int32
    _, height, width, _ = op.inputs[0].shape.as_list()
    crop_h, crop_w = [int(v) for v in np.asarray(constant_value(op.inputs[3])).reshape(-1)]
    corners = b.add("Unpack", [names[1]], {"T": f32, "num": 4, "axis": 1})
    y1, x1, y2, x2 = [f"{corners.rsplit(':', 1)[0]}:{k}" for k in range(4)]

    def positions(start: str, end: str, size: int, crop: int) -> Tuple[str, str]:
        """Sample positions [boxes, crop] along one axis and whether inside [0, size-1]."""
        last = b.const(float(size - 1), f32)
        if crop > 1:
            scale = b.add("RealDiv", [b.add("Mul", [b.add("Sub", [end, start], {"T": f32}),
                                                   last], {"T": f32}),
                                      b.const(float(crop - 1), f32)], {"T": f32})
            begin = b.add("Mul", [start, last], {"T": f32})
            at = b.add("AddV2", [b.add("ExpandDims", [begin, b.const(1, i32)],
                                       {"T": f32, "Tdim": i32}),
                                 b.add("Mul", [b.const(np.arange(crop)[None], f32),
                                               b.add("ExpandDims", [scale, b.const(1, i32)],
                                                     {"T": f32, "Tdim": i32})], {"T": f32})],
                       {"T": f32})
        else:
            middle = b.add("Mul", [b.add("Mul", [b.const(0.5, f32), b.add(
                "AddV2", [start, end], {"T": f32})], {"T": f32}), last], {"T": f32})
            at = b.add("ExpandDims", [middle, b.const(1, i32)], {"T": f32, "Tdim": i32})
        inside = b.add("LogicalAnd", [
            b.add("GreaterEqual", [at, b.const(0.0, f32)], {"T": f32}),
            b.add("LessEqual", [at, last], {"T": f32})], {})
        return at, inside

    def neighbours(at: str, size: int) -> Tuple[str, str, str]:
        """(floor, ceil) clamped into the image, and the lerp weight at - floor."""
        low = b.add("Cast", [at], {"SrcT": f32, "DstT": i32, "Truncate": False})
        low_f = b.add("Cast", [low], {"SrcT": i32, "DstT": f32, "Truncate": False})
        up = b.add("AddV2", [low, b.add("Cast", [b.add("Greater", [at, low_f], {"T": f32})],
                                        {"SrcT": D.bool, "DstT": i32, "Truncate": False})],
                   {"T": i32})

        def clamp(v: str) -> str:
            return b.add("Minimum", [b.add("Maximum", [v, b.const(0, i32)], {"T": i32}),
                                     b.const(size - 1, i32)], {"T": i32})
        return clamp(low), clamp(up), b.add("Sub", [at, low_f], {"T": f32})
    at_y, inside_y = positions(y1, y2, height, crop_h)
    at_x, inside_x = positions(x1, x2, width, crop_w)
    top, bottom, lerp_y = neighbours(at_y, height)
    left, right, lerp_x = neighbours(at_x, width)

    def grid(v: str, dims: List[int], dtype: D.DType) -> str:
        return b.add("Reshape", [v, b.const(dims, i32)], {"T": dtype, "Tshape": i32})
    rows = {k: grid(v, [-1, crop_h, 1], i32) for k, v in (("top", top), ("bottom", bottom))}
    cols = {k: grid(v, [-1, 1, crop_w], i32) for k, v in (("left", left), ("right", right))}
    box = grid(names[2], [-1, 1, 1], i32)
    zero = b.add("AddV2", [b.add("Mul", [rows["top"], b.const(0, i32)], {"T": i32}),
                           b.add("Mul", [cols["left"], b.const(0, i32)], {"T": i32})],
                 {"T": i32})

    def sample(row: str, col: str) -> str:
        index = b.add("Pack", [b.add("AddV2", [v, zero], {"T": i32})
                               for v in (box, rows[row], cols[col])],
                      {"T": i32, "N": 3, "axis": -1})
        return b.add("GatherNd", [names[0], index], {"Tparams": f32, "Tindices": i32})

    def lerp(a: str, c: str, weight: str) -> str:
        return b.add("AddV2", [a, b.add("Mul", [b.add("Sub", [c, a], {"T": f32}), weight],
                                        {"T": f32})], {"T": f32})
    weight_x = grid(lerp_x, [-1, 1, crop_w, 1], f32)
    upper = lerp(sample("top", "left"), sample("top", "right"), weight_x)
    lower = lerp(sample("bottom", "left"), sample("bottom", "right"), weight_x)
    crops = lerp(upper, lower, grid(lerp_y, [-1, crop_h, 1, 1], f32))
    inside = b.add("Cast", [b.add("LogicalAnd", [
        grid(inside_y, [-1, crop_h, 1, 1], D.bool), grid(inside_x, [-1, 1, crop_w, 1], D.bool)],
        {})], {"SrcT": D.bool, "DstT": f32, "Truncate": False})
    outside = b.add("Mul", [b.add("Sub", [b.const(1.0, f32), inside], {"T": f32}),
                            b.const(float(op.attrs["extrapolation_value"]), f32)], {"T": f32})
    return [b.add("AddV2", [b.add("Mul", [crops, inside], {"T": f32}), outside], {"T": f32})]


def _crop_and_resize_why_not(op: Operation) -> Optional[str]:
    shape = op.inputs[0].shape
    method = op.attrs.get("method", "bilinear")
    method = method.decode() if isinstance(method, bytes) else method
    if shape.ndims != 4 or None in shape.as_list()[1:3] or method != "bilinear" or \
            op.inputs[0].dtype.base_dtype != D.float32 or \
            constant_value(op.inputs[3]) is None:
        return ("CropAndResize other than bilinear of a float32 image with its height, "
                "width and the crop size known when the graph is written")
    return None


def _segment_prod(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # Each segment's product as a chain of Muls over all rows, a row outside the
    # segment entering as 1 (one-hot of the ids): TF differentiates the chain to the
    # product of the other factors, which is TF 1.x's UnsortedSegmentProd gradient also
    # at zeros (one zero: the others' product there, 0 elsewhere; two: 0). Empty
    # segments are 1, as TF's. (A non-finite row gives NaN in the other segments'
    # products inside the function.)
    dtype = op.outputs[0].dtype.base_dtype
    index_type = op.inputs[1].dtype.base_dtype
    segments = segment_count(op)
    count = int(np.prod(op.inputs[1].shape.as_list()))
    row = op.inputs[0].shape.as_list()[op.inputs[1].shape.ndims:]
    width = int(np.prod(row))
    flat_ids = b.add("Reshape", [names[1], b.const([1, -1], D.int32)],
                     {"T": index_type, "Tshape": D.int32})
    hits = b.add("Equal", [b.const(np.arange(segments).reshape(-1, 1), index_type), flat_ids],
                 {"T": index_type, "incompatible_shape_error": True})
    members = _reshape(b, b.add("Cast", [hits], {"SrcT": D.bool, "DstT": dtype,
                                                 "Truncate": False}),
                       [segments, count, 1], dtype)
    factors = b.add("AddV2", [
        b.add("Mul", [members, _reshape(b, names[0], [1, count, width], dtype)], {"T": dtype}),
        b.add("Sub", [b.const(1.0, dtype), members], {"T": dtype})], {"T": dtype})
    unpacked = b.add("Unpack", [factors], {"T": dtype, "num": count, "axis": 1})
    node = unpacked.rsplit(":", 1)[0]
    total = unpacked
    for k in range(1, count):
        total = b.add("Mul", [total, f"{node}:{k}"], {"T": dtype})
    return [_reshape(b, total, [segments] + row, dtype)]


# Segment products over more rows than this keep the op (a Mul per row).
_MAX_SEGMENT_PROD_ROWS = 1024


def _segment_prod_why_not(op: Operation) -> Optional[str]:
    data, ids = op.inputs[0].shape, op.inputs[1].shape
    if not ids.is_fully_defined() or data.ndims is None or segment_count(op) is None or \
            None in data.as_list()[ids.ndims:] or not op.outputs[0].dtype.is_floating or \
            not 1 <= int(np.prod(ids.as_list())) <= _MAX_SEGMENT_PROD_ROWS:
        return (f"{op.type} with ids, a segment count or segment shape unknown when the "
                f"graph is written, or over more than {_MAX_SEGMENT_PROD_ROWS} rows")
    return None


LOWERINGS_ARRAY: Dict[str, Tuple[Callable[[Operation], Optional[str]],
                                 Callable[[Operation, List[str], NodeBuilder],
                                          List[Optional[str]]]]] = {
    "SpaceToBatchND": (_space_batch_why_not, _space_to_batch),
    "BatchToSpaceND": (_space_batch_why_not, _batch_to_space),
    "MatrixBandPart": (_band_part_why_not, _band_part),
    "SegmentMean": (LOWERINGS_NN["SegmentSum"][0], _segment_mean),
    "ScatterNd": (_scatter_nd_why_not, _scatter_nd),
    "CropAndResize": (_crop_and_resize_why_not, _crop_and_resize),
    "SegmentProd": (_segment_prod_why_not, _segment_prod),
    "UnsortedSegmentProd": (_segment_prod_why_not, _segment_prod),
}
