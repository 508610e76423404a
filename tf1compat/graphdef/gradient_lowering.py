"""Ops written as other ops inside a gradient's forward function (gradient_export.py).

TF 2.21's SymbolicGradient differentiates a function's body with TF's C++ gradient
registry, which lacks several ops every training graph has (checked with real TF by
scripts/probe_tf_function_gradients.py): the softmax cross-entropies, L2Loss, AddN,
SelectV2 (dropout), FusedBatchNormV3 (batch normalization, any layout and float
type), Elu, Selu, LeakyRelu, Softplus, Tile, Pad, Prod, GatherV2, the stitches of
partitioned embedding lookups, DepthwiseConv2dNative, ReverseSequence
(bidirectional_dynamic_rnn), Einsum (Dense layers over inputs of rank > 2), Cumsum and
Cumprod (with TF's Cumprod gradient at zeros), LRN (AlexNet-style local response
normalization). Slice with a size of -1 (to the end) is written with the size
computed: TF's function gradient of Slice pads one entry too many there.
gradient_lowering_nn.py adds the transposed convolution and Tile with
run-time multiples, gradient_lowering_array.py SpaceToBatchND, BatchToSpaceND,
MatrixBandPart, ScatterNd, CropAndResize and the segment products,
gradient_lowering_volume.py Conv3D, conv3d_transpose and the 3-D pools. Inside the
forward function only, such an op is written as the same computation in ops TF can
differentiate; the graph outside
keeps the op itself. The values are the same up to float rounding (the function
is only differentiated, never fetched). Where a lowering chooses between branches with
Select, each branch is computed on inputs clipped to its own side, so the branch Select
drops has finite gradients.

`LOWERINGS[op_type]` is (why_not(op) -> reason or None, lower(op, input names, builder)
-> the name of each output the body uses).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.graphdef.function_nodes import NodeBuilder
from tf1compat.graphdef.gradient_lowering_array import LOWERINGS_ARRAY
from tf1compat.graphdef.gradient_lowering_volume import LOWERINGS_VOLUME
from tf1compat.graphdef.gradient_lowering_nn import (LOWERINGS_NN, tile_dynamic,
                                                    tile_dynamic_why_not)

__all__ = ["LOWERINGS", "NodeBuilder"]   # NodeBuilder: function_nodes.py


def _cross_entropy(b: NodeBuilder, logits: str, one_hot: str, dtype: D.DType) -> str:
    log_p = b.add("LogSoftmax", [logits], {"T": dtype})
    prod = b.add("Mul", [one_hot, log_p], {"T": dtype})
    total = b.add("Sum", [prod, b.const(1, D.int32)],
                  {"T": dtype, "Tidx": D.int32, "keep_dims": False})
    return b.add("Neg", [total], {"T": dtype})


def _softmax_ce(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    dtype = op.outputs[0].dtype.base_dtype
    return [_cross_entropy(b, names[0], names[1], dtype), None]


def _sparse_softmax_ce(op: Operation, names: List[str], b: NodeBuilder
                       ) -> List[Optional[str]]:
    dtype = op.outputs[0].dtype.base_dtype
    depth = dimension_value(op.inputs[0].shape[1])
    index_type = op.inputs[1].dtype.base_dtype
    # one_hot(labels) as Equal(labels[:, None], [0..depth)): TF has no gradient for OneHot.
    column = b.add("ExpandDims", [names[1], b.const(-1, D.int32)],
                   {"T": index_type, "Tdim": D.int32})
    if depth is not None:
        classes = b.const(np.arange(depth), index_type)
    else:           # the number of classes known when the op runs (sequence_loss)
        shape = b.add("Shape", [names[0]], {"T": dtype, "out_type": index_type})
        depth_now = b.add("StridedSlice", [shape, b.const([1], D.int32),
                                           b.const([2], D.int32), b.const([1], D.int32)],
                          {"T": index_type, "Index": D.int32, "begin_mask": 0,
                           "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0,
                           "shrink_axis_mask": 1})
        classes = b.add("Range", [b.const(0, index_type), depth_now, b.const(1, index_type)],
                        {"Tidx": index_type})
    hits = b.add("Equal", [column, classes],
                 {"T": index_type, "incompatible_shape_error": True})
    one_hot = b.add("Cast", [hits], {"SrcT": D.bool, "DstT": dtype, "Truncate": False})
    return [_cross_entropy(b, names[0], one_hot, dtype), None]


def _sparse_why_not(op: Operation) -> Optional[str]:
    if op.inputs[0].shape.ndims not in (2, None):
        return "SparseSoftmaxCrossEntropyWithLogits of logits not of rank 2"
    return None


def _l2_loss(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    dtype = op.outputs[0].dtype.base_dtype
    flat = b.add("Reshape", [names[0], b.const([-1], D.int32)], {"T": dtype, "Tshape": D.int32})
    total = b.add("Sum", [b.add("Square", [flat], {"T": dtype}), b.const(0, D.int32)],
                  {"T": dtype, "Tidx": D.int32, "keep_dims": False})
    return [b.add("Mul", [total, b.const(0.5, dtype)], {"T": dtype})]


def _add_n(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    dtype = op.outputs[0].dtype.base_dtype
    total = names[0]
    for name in names[1:]:
        total = b.add("AddV2", [total, name], {"T": dtype})
    return [total if len(names) > 1 else b.add("Identity", [total], {"T": dtype})]


def _select_v2(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # Select needs equal shapes: operands not statically of the output's full shape are
    # broadcast to it (BroadcastTo's gradient sums back). The shape is the run-time
    # shape of their sum (Shape has no gradient); the condition goes through a float.
    dtype = op.outputs[0].dtype.base_dtype
    out = op.outputs[0].shape
    cond, values = op.inputs[0], op.inputs[1:]

    def is_full(t: Any) -> bool:
        return out.is_fully_defined() and t.shape.is_fully_defined() and \
            t.shape.as_list() == out.as_list()
    if all(is_full(t) for t in op.inputs):
        return [b.add("Select", names, {"T": dtype})]
    as_float = b.add("Cast", [names[0]], {"SrcT": D.bool, "DstT": dtype, "Truncate": False})
    total = b.add("AddV2", [b.add("AddV2", [as_float, names[1]], {"T": dtype}), names[2]],
                  {"T": dtype})
    shape = b.add("Shape", [total], {"T": dtype, "out_type": D.int32})

    def broadcast(name: str) -> str:
        return b.add("BroadcastTo", [name, shape], {"T": dtype, "Tidx": D.int32})
    full = [names[0] if is_full(cond) else
            b.add("NotEqual", [broadcast(as_float), b.const(0, dtype)],
                  {"T": dtype, "incompatible_shape_error": True})]
    full += [name if is_full(t) else broadcast(name) for t, name in zip(values, names[1:])]
    return [b.add("Select", full, {"T": dtype})]


def _where_positive(b: NodeBuilder, x: str, dtype: D.DType, positive: str, other: str
                    ) -> str:
    zero = b.const(0, dtype)
    mask = b.add("Greater", [x, zero], {"T": dtype})
    return b.add("Select", [mask, positive, other], {"T": dtype})


def _expm1_of_negative_part(b: NodeBuilder, x: str, dtype: D.DType) -> str:
    # exp(min(x, 0)) - 1: the branch Select drops never overflows (no inf * 0 = NaN).
    negative = b.add("Minimum", [x, b.const(0, dtype)], {"T": dtype})
    return b.add("Sub", [b.add("Exp", [negative], {"T": dtype}), b.const(1, dtype)],
                 {"T": dtype})


def _elu(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    dtype = op.outputs[0].dtype.base_dtype
    x = names[0]
    return [_where_positive(b, x, dtype, x, _expm1_of_negative_part(b, x, dtype))]


def _selu(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    dtype = op.outputs[0].dtype.base_dtype
    x = names[0]
    alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
    negative = b.add("Mul", [b.const(alpha, dtype), _expm1_of_negative_part(b, x, dtype)],
                     {"T": dtype})
    return [b.add("Mul", [b.const(scale, dtype), _where_positive(b, x, dtype, x, negative)],
                  {"T": dtype})]


def _leaky_relu(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    dtype = op.outputs[0].dtype.base_dtype
    x = names[0]
    scaled = b.add("Mul", [x, b.const(float(op.attrs["alpha"]), dtype)], {"T": dtype})
    return [_where_positive(b, x, dtype, x, scaled)]


def _softplus(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # x > 0: x + log1p(exp(-x)); else log1p(exp(x)); each branch sees only its own side.
    dtype = op.outputs[0].dtype.base_dtype
    x = names[0]
    zero = b.const(0, dtype)
    pos = b.add("Maximum", [x, zero], {"T": dtype})
    neg = b.add("Minimum", [x, zero], {"T": dtype})
    pos_branch = b.add("AddV2", [pos, b.add("Log1p", [b.add("Exp", [
        b.add("Neg", [pos], {"T": dtype})], {"T": dtype})], {"T": dtype})], {"T": dtype})
    neg_branch = b.add("Log1p", [b.add("Exp", [neg], {"T": dtype})], {"T": dtype})
    return [_where_positive(b, x, dtype, pos_branch, neg_branch)]


_CHANNELS_LAST = {"NHWC": None, "NDHWC": None, "NCHW": [0, 2, 3, 1], "NCDHW": [0, 2, 3, 4, 1]}


def _data_format(op: Operation) -> str:
    fmt = op.attrs.get("data_format", b"NHWC")
    return fmt.decode() if isinstance(fmt, bytes) else fmt


def _batch_norm(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # Computed channels-last in U (float32), as TF's kernel computes half/bfloat16 inputs:
    # a channels-first x is transposed there and back, a half x cast there and back.
    dtype = op.outputs[0].dtype.base_dtype
    compute = op.inputs[1].dtype.base_dtype
    to_last = _CHANNELS_LAST[_data_format(op)]
    x, scale, offset = names[0], names[1], names[2]
    if dtype != compute:
        x = b.add("Cast", [x], {"SrcT": dtype, "DstT": compute, "Truncate": False})
    if to_last is not None:
        x = b.add("Transpose", [x, b.const(to_last, D.int32)], {"T": compute, "Tperm": D.int32})
    rank = 5 if "D" in _data_format(op) else 4
    axes = b.const(list(range(rank - 1)), D.int32)
    if op.attrs["is_training"]:
        mean = b.add("Mean", [x, axes], {"T": compute, "Tidx": D.int32, "keep_dims": False})
        var = b.add("Mean", [b.add("SquaredDifference", [x, mean], {"T": compute}), axes],
                    {"T": compute, "Tidx": D.int32, "keep_dims": False})
    else:
        mean, var = names[3], names[4]
    eps = b.const(float(op.attrs["epsilon"]), compute)
    inv = b.add("Rsqrt", [b.add("AddV2", [var, eps], {"T": compute})], {"T": compute})
    centered = b.add("Sub", [x, mean], {"T": compute})
    scaled = b.add("Mul", [centered, b.add("Mul", [inv, scale], {"T": compute})],
                   {"T": compute})
    out = b.add("AddV2", [scaled, offset], {"T": compute})
    if to_last is not None:
        back = [int(i) for i in np.argsort(to_last)]
        out = b.add("Transpose", [out, b.const(back, D.int32)], {"T": compute, "Tperm": D.int32})
    if dtype != compute:
        out = b.add("Cast", [out], {"SrcT": compute, "DstT": dtype, "Truncate": False})
    return [out] + [None] * 5


def _batch_norm_why_not(op: Operation) -> Optional[str]:
    fmt = _data_format(op)
    if fmt not in _CHANNELS_LAST:
        return f"{op.type} in {fmt}"
    if op.attrs["is_training"] and float(op.attrs.get("exponential_avg_factor", 1.0)) != 1.0:
        return f"{op.type} with exponential_avg_factor"
    return None


def _prod(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # The reduced axes moved first and flattened to R rows, unstacked and multiplied: the
    # product's gradient is the product of the other factors, exact also at zeros (TF has
    # no function gradient for Prod).
    dtype = op.outputs[0].dtype.base_dtype
    rank = op.inputs[0].shape.ndims
    axes = _prod_axes(op)
    kept = [i for i in range(rank) if i not in axes]
    x = names[0]
    if axes + kept != list(range(rank)):
        x = b.add("Transpose", [x, b.const(axes + kept, D.int32)], {"T": dtype, "Tperm": D.int32})
    moved = x
    count = int(np.prod([dimension_value(op.inputs[0].shape[i]) for i in axes]))
    rows = b.add("Reshape", [x, b.const([count, -1], D.int32)], {"T": dtype, "Tshape": D.int32})
    unpacked = b.add("Unpack", [rows], {"T": dtype, "num": count, "axis": 0})
    node = unpacked[:unpacked.index(":")]
    total = f"{node}:output:0"
    for k in range(1, count):
        total = b.add("Mul", [total, f"{node}:output:{k}"], {"T": dtype})
    shape = b.add("Shape", [moved], {"T": dtype, "out_type": D.int32})
    kept_shape = b.add("Slice", [shape, b.const([len(axes)], D.int32), b.const([-1], D.int32)],
                       {"T": D.int32, "Index": D.int32})
    out = b.add("Reshape", [total, kept_shape], {"T": dtype, "Tshape": D.int32})
    if op.attrs["keep_dims"]:
        for axis in axes:
            out = b.add("ExpandDims", [out, b.const(axis, D.int32)],
                        {"T": dtype, "Tdim": D.int32})
    return [out]


# Reductions over more elements than this keep the Prod (a Mul per element).
_MAX_PROD_FACTORS = 1024


def _prod_axes(op: Operation) -> List[int]:
    rank = op.inputs[0].shape.ndims
    axes = np.asarray(constant_value(op.inputs[1])).reshape(-1).tolist()
    return sorted({int(a) % rank for a in axes})


def _prod_why_not(op: Operation) -> Optional[str]:
    x = op.inputs[0]
    if x.shape.ndims is None or constant_value(op.inputs[1]) is None or \
            not op.outputs[0].dtype.is_floating:
        return "Prod with axes or rank unknown when the graph is written"
    sizes = [dimension_value(x.shape[i]) for i in _prod_axes(op)]
    if any(size is None for size in sizes) or not 1 <= int(np.prod(sizes)) <= _MAX_PROD_FACTORS:
        return (f"Prod over a reduced size unknown when the graph is written or outside "
                f"1..{_MAX_PROD_FACTORS}")
    return None


def _stitch(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # out[p] = the row of data whose index is p: one_hot(indices)^T @ rows, over all parts
    # concatenated (indices: a partition of range(k), so every row is picked once). TF has
    # no function gradient for the stitches; memory grows with indices x rows. (One
    # product, no sums: written with AddV2 chains over the parts, TF 2.21 failed with "No
    # gradient defined for op: AddN": it had rewritten the chains.)
    dtype = op.outputs[0].dtype.base_dtype
    n = int(op.attrs["N"])
    row = op.outputs[0].shape.as_list()[1:]
    axis = b.const(0, D.int32)
    flat_ids = [b.add("Reshape", [name, b.const([-1], D.int32)], {"T": D.int32,
                                                                  "Tshape": D.int32})
                for name in names[:n]]
    ids = b.add("ConcatV2", flat_ids + [axis], {"T": D.int32, "N": n, "Tidx": D.int32})
    size = b.add("Size", [ids], {"T": D.int32, "out_type": D.int32})
    positions = b.add("Range", [b.const(0, D.int32), size, b.const(1, D.int32)],
                      {"Tidx": D.int32})
    column = b.add("Reshape", [ids, b.const([-1, 1], D.int32)],
                   {"T": D.int32, "Tshape": D.int32})
    hits = b.add("Equal", [column, positions], {"T": D.int32, "incompatible_shape_error": True})
    one_hot = b.add("Cast", [hits], {"SrcT": D.bool, "DstT": dtype, "Truncate": False})
    width = int(np.prod(row))
    rows = [b.add("Reshape", [name, b.const([-1, width], D.int32)],
                  {"T": dtype, "Tshape": D.int32}) for name in names[n:]]
    data = b.add("ConcatV2", rows + [axis], {"T": dtype, "N": n, "Tidx": D.int32})
    picked = b.add("MatMul", [one_hot, data],
                   {"T": dtype, "transpose_a": True, "transpose_b": False})
    return [b.add("Reshape", [picked, b.const([-1] + row, D.int32)],
                  {"T": dtype, "Tshape": D.int32})]


def _stitch_why_not(op: Operation) -> Optional[str]:
    n = int(op.attrs["N"])
    indices = op.inputs[:n]
    partition = indices[0].op
    # Indices that are all the parts of a DynamicPartition of range(k) (embedding_lookup
    # of a partitioned variable) pick every position exactly once.
    is_range = partition.type == "DynamicPartition" and \
        partition.inputs[0].op.type == "Range" and \
        [int(constant_value(t) if constant_value(t) is not None else -1)
         for t in (partition.inputs[0].op.inputs[0], partition.inputs[0].op.inputs[2])] == [0, 1]
    row = op.outputs[0].shape.as_list()[1:] if op.outputs[0].shape.ndims else None
    if not is_range or [t.op for t in indices] != [partition] * n or \
            [t.value_index for t in indices] != list(range(n)) or \
            int(partition.attrs["num_partitions"]) != n or \
            row is None or None in row or not row or 0 in row or \
            not op.outputs[0].dtype.is_floating:
        return (f"{op.type} other than a partitioned embedding lookup's (indices: the parts "
                "of a DynamicPartition of a range; rows of a static shape)")
    return None


def _tile(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # Copies concatenated along each axis (TF has no function gradient for Tile); with
    # multiples known at run time only (or zero), a broadcast (gradient_lowering_nn.py).
    multiples = constant_value(op.inputs[1])
    if multiples is None or (multiples < 1).any():
        return tile_dynamic(op, names, b)
    dtype = op.outputs[0].dtype.base_dtype
    out = names[0]
    for axis, count in enumerate(multiples.tolist()):
        if count != 1:
            out = b.add("ConcatV2", [out] * count + [b.const(axis, D.int32)],
                        {"T": dtype, "N": count, "Tidx": D.int32})
    return [out]


def _pad(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # Zeros (PadV2: its constant) concatenated before and after along each padded axis;
    # their shape is the run-time shape of the value so far with the axis' size replaced.
    dtype = op.outputs[0].dtype.base_dtype
    out = names[0]
    for axis, (before, after) in enumerate(constant_value(op.inputs[1]).tolist()):
        if not before and not after:
            continue
        shape = b.add("Shape", [out], {"T": dtype, "out_type": D.int32})
        head = b.add("Slice", [shape, b.const([0], D.int32), b.const([axis], D.int32)],
                     {"T": D.int32, "Index": D.int32})
        tail = b.add("Slice", [shape, b.const([axis + 1], D.int32), b.const([-1], D.int32)],
                     {"T": D.int32, "Index": D.int32})
        parts = []
        for size in (before, None, after):
            if size is None:
                parts.append(out)
            elif size:
                dims = b.add("ConcatV2", [head, b.const([size], D.int32), tail,
                                          b.const(0, D.int32)],
                             {"T": D.int32, "N": 3, "Tidx": D.int32})
                fill = names[2] if op.type == "PadV2" else b.const(0, dtype)
                parts.append(b.add("Fill", [dims, fill],
                                   {"T": dtype, "index_type": D.int32}))
        out = b.add("ConcatV2", parts + [b.const(axis, D.int32)],
                    {"T": dtype, "N": len(parts), "Tidx": D.int32})
    return [out]


def _pad_why_not(op: Operation) -> Optional[str]:
    if constant_value(op.inputs[1]) is None:
        return "Pad with paddings unknown when the graph is written"
    return None


def _gather(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # Rows picked by a one-hot matrix product: one_hot(indices) @ params (TF has no
    # function gradient for GatherV2; the product's gradient scatters back the rows).
    dtype = op.outputs[0].dtype.base_dtype
    params, indices = op.inputs[0], op.inputs[1]
    index_type = indices.dtype.base_dtype
    rows = dimension_value(params.shape[0])
    flat_ids = b.add("Reshape", [names[1], b.const([-1, 1], D.int32)],
                     {"T": index_type, "Tshape": D.int32})
    hits = b.add("Equal", [flat_ids, b.const(np.arange(rows), index_type)],
                 {"T": index_type, "incompatible_shape_error": True})
    one_hot = b.add("Cast", [hits], {"SrcT": D.bool, "DstT": dtype, "Truncate": False})
    table = b.add("Reshape", [names[0], b.const([rows, -1], D.int32)],
                  {"T": dtype, "Tshape": D.int32})
    picked = b.add("MatMul", [one_hot, table],
                   {"T": dtype, "transpose_a": False, "transpose_b": False})
    params_shape = b.add("Shape", [names[0]], {"T": dtype, "out_type": D.int32})
    row_shape = b.add("Slice", [params_shape, b.const([1], D.int32),
                                b.const([-1], D.int32)], {"T": D.int32, "Index": D.int32})
    ids_shape = b.add("Shape", [names[1]], {"T": index_type, "out_type": D.int32})
    shape = b.add("ConcatV2", [ids_shape, row_shape, b.const(0, D.int32)],
                  {"T": D.int32, "N": 2, "Tidx": D.int32})
    return [b.add("Reshape", [picked, shape], {"T": dtype, "Tshape": D.int32})]


def _gather_why_not(op: Operation) -> Optional[str]:
    axis = constant_value(op.inputs[2])
    params = op.inputs[0]
    if axis is None or int(axis) != 0 or op.attrs.get("batch_dims", 0) or \
            params.shape.ndims is None or params.shape.ndims < 1 or \
            dimension_value(params.shape[0]) is None or not params.dtype.is_floating:
        return "GatherV2 other than along a static first axis of a float tensor"
    return None


def _depthwise(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # A Conv2D whose filter is block-diagonal over the channels: input channel c feeds
    # only outputs c * multiplier + j, as the depthwise convolution.
    dtype = op.outputs[0].dtype.base_dtype
    kh, kw, channels, multiplier = op.inputs[1].shape.as_list()
    spread = b.add("Reshape", [names[1], b.const([kh, kw, channels, 1, multiplier],
                                                 D.int32)], {"T": dtype, "Tshape": D.int32})
    mask = np.eye(channels).reshape(1, 1, channels, channels, 1)
    blocks = b.add("Mul", [spread, b.const(mask, dtype)], {"T": dtype})
    filters = b.add("Reshape", [blocks, b.const([kh, kw, channels, channels * multiplier],
                                                D.int32)], {"T": dtype, "Tshape": D.int32})
    attrs = {key: op.attrs[key] for key in ("strides", "padding", "data_format",
                                            "dilations", "explicit_paddings")
             if op.attrs.get(key) is not None}
    attrs["T"] = dtype
    return [b.add("Conv2D", [names[0], filters], attrs)]


def _depthwise_why_not(op: Operation) -> Optional[str]:
    fmt = op.attrs.get("data_format", b"NHWC")
    fmt = fmt.decode() if isinstance(fmt, bytes) else fmt
    if fmt != "NHWC" or not op.inputs[1].shape.is_fully_defined():
        return "DepthwiseConv2dNative in NCHW or with a filter shape unknown when written"
    return None


def _reverse_sequence(op: Operation, names: List[str], b: NodeBuilder
                      ) -> List[Optional[str]]:
    # Batch axis first, sequence axis second, the rest flattened: out[b] = P[b] @ x[b]
    # with P[b, t, s] = (s == index of t), the index reversed inside the length.
    dtype = op.outputs[0].dtype.base_dtype
    rank = op.inputs[0].shape.ndims
    batch, seq = int(op.attrs.get("batch_dim", 0)), int(op.attrs["seq_dim"])
    perm = [batch, seq] + [k for k in range(rank) if k not in (batch, seq)]
    x = names[0]
    if perm != list(range(rank)):
        x = b.add("Transpose", [x, b.const(perm, D.int32)], {"T": dtype, "Tperm": D.int32})
    shape = b.add("Shape", [x], {"T": dtype, "out_type": D.int32})

    def dims(begin: int, end: int, shrink: int) -> str:
        return b.add("StridedSlice", [shape, b.const([begin], D.int32),
                                      b.const([end], D.int32), b.const([1], D.int32)],
                     {"T": D.int32, "Index": D.int32, "begin_mask": 0, "end_mask": 0,
                      "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": shrink})
    flat_shape = b.add("ConcatV2", [dims(0, 2, 0), b.const([-1], D.int32),
                                    b.const(0, D.int32)],
                       {"T": D.int32, "N": 2, "Tidx": D.int32})
    flat = b.add("Reshape", [x, flat_shape], {"T": dtype, "Tshape": D.int32})
    steps = b.add("Range", [b.const(0, D.int32), dims(1, 2, 1), b.const(1, D.int32)],
                  {"Tidx": D.int32})
    lengths = names[1]
    if op.inputs[1].dtype.base_dtype != D.int32:
        lengths = b.add("Cast", [lengths], {"SrcT": op.inputs[1].dtype.base_dtype,
                                            "DstT": D.int32, "Truncate": False})

    def int_op(op_type: str, *inputs: str) -> str:
        return b.add(op_type, list(inputs), {"T": D.int32})
    column = b.add("ExpandDims", [lengths, b.const(-1, D.int32)],
                   {"T": D.int32, "Tdim": D.int32})
    row = b.add("ExpandDims", [steps, b.const(0, D.int32)], {"T": D.int32, "Tdim": D.int32})
    inside = b.add("Cast", [int_op("Greater", column, row)],
                   {"SrcT": D.bool, "DstT": D.int32, "Truncate": False})
    # t + inside * (length - 1 - 2t): the reversed position inside the length, else t.
    moved = int_op("Sub", int_op("Sub", column, b.const(1, D.int32)),
                   int_op("Mul", row, b.const(2, D.int32)))
    index = int_op("AddV2", row, int_op("Mul", inside, moved))
    picks = b.add("Equal", [b.add("ExpandDims", [index, b.const(-1, D.int32)],
                                  {"T": D.int32, "Tdim": D.int32}),
                            b.add("Reshape", [steps, b.const([1, 1, -1], D.int32)],
                                  {"T": D.int32, "Tshape": D.int32})],
                  {"T": D.int32, "incompatible_shape_error": True})
    matrix = b.add("Cast", [picks], {"SrcT": D.bool, "DstT": dtype, "Truncate": False})
    out = b.add("BatchMatMulV2", [matrix, flat], {"T": dtype, "adj_x": False, "adj_y": False})
    out = b.add("Reshape", [out, shape], {"T": dtype, "Tshape": D.int32})
    if perm != list(range(rank)):
        out = b.add("Transpose", [out, b.const(np.argsort(perm), D.int32)],
                    {"T": dtype, "Tperm": D.int32})
    return [out]


def _reverse_sequence_why_not(op: Operation) -> Optional[str]:
    if op.inputs[0].shape.ndims is None or op.inputs[0].shape.ndims < 2:
        return "ReverseSequence of an input of unknown rank"
    return None


def _einsum_parts(op: Operation) -> Optional[Tuple[str, str, str]]:
    """(lhs, rhs, out) of a two-operand equation without ellipsis, or None."""
    equation = op.attrs["equation"]
    equation = equation.decode() if isinstance(equation, bytes) else equation
    if "->" not in equation or "." in equation or len(op.inputs) != 2:
        return None
    operands, out = equation.replace(" ", "").split("->")
    parts = operands.split(",")
    return (parts[0], parts[1], out) if len(parts) == 2 else None


def _einsum_why_not(op: Operation) -> Optional[str]:
    # The form tf.layers.dense / Keras Dense write for inputs of rank > 2: the last axis
    # contracted with a matrix ("abc,cd->abd").
    parts = _einsum_parts(op)
    if parts is not None:
        lhs, rhs, out = parts
        if len(rhs) == 2 and lhs[-1:] == rhs[0] and out == lhs[:-1] + rhs[1] and \
                len(set(lhs + rhs[1])) == len(lhs) + 1:
            return None
    return "Einsum other than a product over the last axis with a matrix"


def _einsum(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # Reshape to a matrix, MatMul, reshape back to the leading axes + the kernel's last.
    dtype = op.outputs[0].dtype.base_dtype
    shape = b.add("Shape", [names[0]], {"T": dtype, "out_type": D.int32})
    leading = b.add("StridedSlice", [shape, b.const([0], D.int32), b.const([-1], D.int32),
                                     b.const([1], D.int32)],
                    {"T": D.int32, "Index": D.int32, "begin_mask": 1, "end_mask": 0,
                     "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0})
    kernel_shape = b.add("Shape", [names[1]], {"T": dtype, "out_type": D.int32})
    units = b.add("StridedSlice", [kernel_shape, b.const([1], D.int32),
                                   b.const([2], D.int32), b.const([1], D.int32)],
                  {"T": D.int32, "Index": D.int32, "begin_mask": 0, "end_mask": 0,
                   "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0})
    matrix = b.add("Reshape", [names[0], b.add("Pack", [b.const(-1, D.int32), b.add(
        "StridedSlice", [shape, b.const([-1], D.int32), b.const([0], D.int32),
                         b.const([1], D.int32)],
        {"T": D.int32, "Index": D.int32, "begin_mask": 0, "end_mask": 1, "ellipsis_mask": 0,
         "new_axis_mask": 0, "shrink_axis_mask": 1})], {"T": D.int32, "N": 2, "axis": 0})],
        {"T": dtype, "Tshape": D.int32})
    product = b.add("MatMul", [matrix, names[1]],
                    {"T": dtype, "transpose_a": False, "transpose_b": False})
    out_shape = b.add("ConcatV2", [leading, units, b.const(0, D.int32)],
                      {"T": D.int32, "N": 2, "Tidx": D.int32})
    return [b.add("Reshape", [product, out_shape], {"T": dtype, "Tshape": D.int32})]


def _cumulative(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # The slices along the axis, unstacked and combined one after another (from the end
    # with `reverse`; each output without its own slice with `exclusive`), stacked back.
    dtype = op.outputs[0].dtype.base_dtype
    axis, count = _cumulative_axis(op)
    unpacked = b.add("Unpack", [names[0]], {"T": dtype, "num": count, "axis": axis})
    node = unpacked[:unpacked.index(":")]
    slices = [f"{node}:output:{k}" for k in range(count)]
    shape = b.add("Shape", [slices[0]], {"T": dtype, "out_type": D.int32})

    def filled(value: float) -> str:
        return b.add("Fill", [shape, b.const(value, dtype)], {"T": dtype, "index_type": D.int32})
    is_sum = op.type == "Cumsum"
    combine = "AddV2" if is_sum else "Mul"
    exclusive, reverse = bool(op.attrs["exclusive"]), bool(op.attrs["reverse"])
    order = list(range(count))[::-1] if reverse else list(range(count))

    def running(parts: List[str], start: str) -> List[str]:
        out: List[str] = [""] * count
        total = None
        for k in order:
            if exclusive:
                out[k] = total or start
            total = parts[k] if total is None else b.add(combine, [total, parts[k]],
                                                          {"T": dtype})
            if not exclusive:
                out[k] = total
        return out
    if is_sum:
        outs = running(slices, filled(0.0) if exclusive else "")
    else:
        # TF's Cumprod gradient divides by x with div_no_nan: 0 at an input that is 0. The
        # product runs over the inputs with their zeros replaced by ones, and is 0 (by
        # Select) where a zero was among its factors, which gives that gradient exactly.
        ones, zeros = filled(1.0), filled(0.0)
        zero = b.const(0, dtype)
        hits = [b.add("Equal", [s, zero], {"T": dtype, "incompatible_shape_error": True})
                for s in slices]
        safe = [b.add("Select", [hit, ones, s], {"T": dtype}) for hit, s in zip(hits, slices)]
        kept = [b.add("Cast", [b.add("NotEqual", [s, zero], {
            "T": dtype, "incompatible_shape_error": True})],
            {"SrcT": D.bool, "DstT": dtype, "Truncate": False}) for s in slices]
        outs = [b.add("Select", [b.add("Equal", [nonzero, zero], {
            "T": dtype, "incompatible_shape_error": True}), zeros, product], {"T": dtype})
            for product, nonzero in zip(running(safe, ones), running(kept, ones))]
    return [b.add("Pack", outs, {"T": dtype, "N": count, "axis": axis})]


def _cumulative_axis(op: Operation) -> Tuple[int, int]:
    """(axis, its size) of a Cumsum/Cumprod."""
    rank = op.inputs[0].shape.ndims
    axis = int(constant_value(op.inputs[1])) % rank
    return axis, dimension_value(op.inputs[0].shape[axis])


def _cumulative_why_not(op: Operation) -> Optional[str]:
    x = op.inputs[0]
    if x.shape.ndims is None or x.shape.ndims == 0 or constant_value(op.inputs[1]) is None \
            or not op.outputs[0].dtype.is_floating:
        return f"{op.type} with an axis or rank unknown when the graph is written"
    size = _cumulative_axis(op)[1]
    if size is None or not 1 <= size <= _MAX_PROD_FACTORS:
        return (f"{op.type} over an axis of a size unknown when the graph is written or "
                f"outside 1..{_MAX_PROD_FACTORS}")
    return None


def _lrn_why_not(op: Operation) -> Optional[str]:
    if op.inputs[0].shape.ndims != 4 or dimension_value(op.inputs[0].shape[-1]) is None:
        return "LRN over a depth unknown when the graph is written"
    return None


def _lrn(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # x / (bias + alpha * window_sum(x ** 2)) ** beta; the sum over the depth window
    # [d - r, d + r] is a product with a 0/1 band matrix over the last axis.
    dtype = op.outputs[0].dtype.base_dtype
    x = names[0]
    depth = dimension_value(op.inputs[0].shape[-1])
    radius = int(op.attrs["depth_radius"])
    offsets = np.arange(depth)
    band = (np.abs(offsets[:, None] - offsets[None, :]) <= radius).astype(np.float32)
    flat = b.add("Reshape", [b.add("Square", [x], {"T": dtype}), b.const([-1, depth], D.int32)],
                 {"T": dtype, "Tshape": D.int32})
    window = b.add("MatMul", [flat, b.const(band, dtype)],
                   {"T": dtype, "transpose_a": False, "transpose_b": False})
    window = b.add("Reshape", [window, b.add("Shape", [x], {"T": dtype, "out_type": D.int32})],
                   {"T": dtype, "Tshape": D.int32})
    scaled = b.add("AddV2", [b.const(float(op.attrs["bias"]), dtype),
                             b.add("Mul", [b.const(float(op.attrs["alpha"]), dtype), window],
                                   {"T": dtype})], {"T": dtype})
    denominator = b.add("Pow", [scaled, b.const(float(op.attrs["beta"]), dtype)], {"T": dtype})
    return [b.add("RealDiv", [x, denominator], {"T": dtype})]


def _slice(op: Operation, names: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # TF's function gradient of Slice pads the gradient by shape - begin - size, one too
    # many where a size is -1 (to the end: tf_unet's crop `tf.slice(x, offsets, [-1, h,
    # w, -1])`): such sizes are written as shape - begin.
    sizes = constant_value(op.inputs[2])
    if sizes is not None and (np.asarray(sizes) >= 0).all():
        return None
    index = op.inputs[1].dtype.base_dtype
    shape = b.add("Shape", [names[0]], {"T": op.inputs[0].dtype.base_dtype,
                                        "out_type": index})
    to_end = b.add("Less", [names[2], b.const(0, index)], {"T": index})
    rest = b.add("Sub", [shape, names[1]], {"T": index})
    size = b.add("Select", [to_end, rest, names[2]], {"T": index})
    return [b.add("Slice", [names[0], names[1], size],
                  {"T": op.outputs[0].dtype.base_dtype, "Index": index})]


def _always(op: Operation) -> Optional[str]:
    return None


LOWERINGS: Dict[str, Tuple[Callable[[Operation], Optional[str]],
                           Callable[[Operation, List[str], NodeBuilder],
                                    List[Optional[str]]]]] = {
    "SoftmaxCrossEntropyWithLogits": (_always, _softmax_ce),
    "SparseSoftmaxCrossEntropyWithLogits": (_sparse_why_not, _sparse_softmax_ce),
    "L2Loss": (_always, _l2_loss),
    "AddN": (_always, _add_n),
    "SelectV2": (_always, _select_v2),
    "FusedBatchNormV3": (_batch_norm_why_not, _batch_norm),
    "Prod": (_prod_why_not, _prod),
    "DynamicStitch": (_stitch_why_not, _stitch),
    "ParallelDynamicStitch": (_stitch_why_not, _stitch),
    "Elu": (_always, _elu),
    "Selu": (_always, _selu),
    "LeakyRelu": (_always, _leaky_relu),
    "Softplus": (_always, _softplus),
    "Tile": (tile_dynamic_why_not, _tile),
    "Pad": (_pad_why_not, _pad),
    "PadV2": (_pad_why_not, _pad),
    "GatherV2": (_gather_why_not, _gather),
    "DepthwiseConv2dNative": (_depthwise_why_not, _depthwise),
    "ReverseSequence": (_reverse_sequence_why_not, _reverse_sequence),
    "Einsum": (_einsum_why_not, _einsum),
    "Cumsum": (_cumulative_why_not, _cumulative),
    "Cumprod": (_cumulative_why_not, _cumulative),
    "LRN": (_lrn_why_not, _lrn),
    "Slice": (_always, _slice),
    **LOWERINGS_NN,
    **LOWERINGS_ARRAY,
    **LOWERINGS_VOLUME,
}
