"""`tf.reduce_*` given RaggedTensors (TF's ragged_math_ops reductions, reached through
ops/dispatch.py): a ragged axis is reduced with the unsorted segment op (row ids as
segments for axis 1, positions within the rows for axis 0), an inner axis by reducing the
values; several axes are reduced one at a time, innermost first. A ragged data's rows
are combined position by position (TF's _ragged_segment_aggregate), which also serves
`tf.math.unsorted_segment_*` given ragged data or segment ids.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.ops import (array_ops, check_ops, creation_ops, dispatch, indexing_ops,
                           math_ops, reduction_ops)
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ragged import _row_ops as R
from tf1compat.ragged._dispatch import by_name
from tf1compat.ragged.ragged_array import expand_dims
from tf1compat.ragged.ragged_math import map_flat_values
from tf1compat.ragged.ragged_tensor import RaggedTensor

__all__ = ["reduce_all", "reduce_any", "reduce_max", "reduce_mean", "reduce_min",
           "reduce_prod", "reduce_sum", "reduction", "reduction_handler", "segment_aggregate",
           "segment_max", "segment_mean", "segment_min", "segment_prod", "segment_sqrt_n",
           "segment_sum"]


def _positive_axis(axis: int, rank: Any) -> int:
    if rank is None:
        if axis < 0:
            raise ValueError("axis may only be negative if ndims is statically known.")
        return axis
    if not -rank <= axis < rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
    return axis + rank if axis < 0 else axis


def _aggregate(reduce_op: Callable[..., Any], segment_op: Callable[..., Any], rt: Any,
               axis: Any) -> Any:
    """TF's ragged_reduce_aggregate without keepdims."""
    if not isinstance(rt, RaggedTensor):
        return reduce_op(rt, axis)
    if axis is None:
        return reduce_op(rt.flat_values, None)
    if isinstance(axis, (list, tuple)):
        if not axis:
            return rt
        axes = sorted(_positive_axis(a, rt.shape.rank) for a in axis)
        return _aggregate(reduce_op, segment_op,
                          _aggregate(reduce_op, segment_op, rt, axes[-1]), axes[:-1])
    axis = _positive_axis(int(axis), rt.shape.rank)
    if axis > 1:
        return rt.with_values(_aggregate(reduce_op, segment_op, rt.values, axis - 1))
    splits = rt.row_splits
    if axis == 0:
        lengths = R.splits_to_lengths(splits)
        num_segments = math_ops.maximum(reduction_ops.reduce_max(lengths), 0)
        zeros = creation_ops.zeros_like(lengths)
        segment_ids = R.ragged_range_positions(zeros, lengths)
    else:
        num_segments = array_ops.shape(splits, out_type=splits.dtype)[0] - 1
        segment_ids = R.splits_to_rowids(splits)
    return segment_aggregate(segment_op, rt.values, segment_ids, num_segments)


def segment_aggregate(segment_op: Callable[..., Any], data: Any, segment_ids: Any,
                      num_segments: Any) -> Any:
    """TF's _ragged_segment_aggregate: row i of the result combines the rows of `data`
    with segment id i, position by position (as long as the longest of them); ragged
    `segment_ids` (the outer dimensions of a ragged `data`) segment its values."""
    if isinstance(segment_ids, RaggedTensor):
        if not isinstance(data, RaggedTensor):
            raise ValueError("segment_ids.shape must be a prefix of data.shape, but "
                             "segment_ids is ragged and data is not.")
        same = check_ops.assert_equal(
            math_ops.cast(segment_ids.row_splits, data.row_splits.dtype), data.row_splits,
            message="segment_ids.shape must be a prefix of data.shape")
        return segment_aggregate(segment_op, data.values,
                                 with_dependencies([same], segment_ids.values), num_segments)
    if not isinstance(data, RaggedTensor):
        return segment_op(data, segment_ids, num_segments)
    splits = data.row_splits
    segment_ids = math_ops.cast(segment_ids, splits.dtype)
    lengths = R.splits_to_lengths(splits)
    out_lengths = math_ops.maximum(
        reduction_ops.unsorted_segment_max(lengths, segment_ids, num_segments), 0)
    out_splits = R.lengths_to_splits(out_lengths)
    starts = indexing_ops.gather(out_splits, segment_ids)
    values = segment_aggregate(segment_op, data.values,
                               R.ragged_range_positions(starts, lengths), R.last(out_splits))
    return RaggedTensor.from_row_splits(values, out_splits, validate=False)


def _static_axis(axis: Any) -> Any:
    if isinstance(axis, Tensor):
        axis = constant_value(axis)
        if axis is None:
            raise ValueError("axis must be known at graph construction time.")
    if isinstance(axis, np.ndarray):
        axis = axis.tolist()
    return axis


def _keep_dims(result: Any, axis: Any, rank: Any) -> Any:
    """TF 2.21's keepdims: the reduced axes put back as size-1 dimensions."""
    if axis is None:
        raise NotImplementedError("keepdims=True on a RaggedTensor reduction over all axes "
                                  "is not supported by tf1compat")
    axes = axis if isinstance(axis, (list, tuple)) else [axis]
    for a in sorted(_positive_axis(int(a), rank) for a in axes):
        result = expand_dims(result, a)
    return result


def reduction(reduce_op: Callable[..., Any], segment_op: Callable[..., Any],
              scope: str) -> Callable[..., Any]:
    """A ragged reduction(rt, axis, keepdims, name) from the dense `reduce_op(x, axis)` and
    the unsorted `segment_op(data, segment_ids, num_segments)`."""
    def reduce(rt: Any, axis: Any = None, keepdims: Any = None, name: Any = None) -> Any:
        with name_scope(name, scope, [rt]):
            axis = _static_axis(axis)
            result = _aggregate(reduce_op, segment_op, rt, axis)
            return _keep_dims(result, axis, rt.shape.rank) if keepdims else result
    reduce.__name__ = reduce_op.__name__
    return reduce


reduce_sum = reduction(reduction_ops.reduce_sum, reduction_ops.unsorted_segment_sum,
                        "RaggedReduceSum")
reduce_prod = reduction(reduction_ops.reduce_prod, reduction_ops.unsorted_segment_prod,
                         "RaggedReduceProd")
reduce_min = reduction(reduction_ops.reduce_min, reduction_ops.unsorted_segment_min,
                        "RaggedReduceMin")
reduce_max = reduction(reduction_ops.reduce_max, reduction_ops.unsorted_segment_max,
                        "RaggedReduceMax")


def reduce_mean(rt: Any, axis: Any = None, keepdims: Any = None, name: Any = None) -> Any:
    """Sum over count (a count of 0 gives nan, as TF)."""
    with name_scope(name, "RaggedReduceMean", [rt]):
        total = reduce_sum(rt, axis, keepdims)
        count = reduce_sum(map_flat_values(creation_ops.ones_like, rt), axis, keepdims)
        if isinstance(total, RaggedTensor):
            return total.with_flat_values(total.flat_values / count.flat_values)
        return total / count


def reduce_all(rt: Any, axis: Any = None, keepdims: Any = None, name: Any = None) -> Any:
    with name_scope(name, "RaggedReduceAll", [rt]):
        as_int = map_flat_values(math_ops.cast, rt, D.int32)
        return map_flat_values(math_ops.cast, reduce_prod(as_int, axis, keepdims), D.bool)


def reduce_any(rt: Any, axis: Any = None, keepdims: Any = None, name: Any = None) -> Any:
    with name_scope(name, "RaggedReduceAny", [rt]):
        as_int = map_flat_values(math_ops.cast, rt, D.int32)
        return map_flat_values(math_ops.cast, reduce_sum(as_int, axis, keepdims), D.bool)


def reduction_handler(ragged_fn_of: Callable[[Callable[..., Any], dict], Callable[..., Any]],
                      input_name: str = "input_tensor") -> Callable[..., Any]:
    """A dispatch handler for a reduction whose `input_name` argument is ragged: the ragged
    reduction `ragged_fn_of(fn, bound arguments)` is called with TF1's reduction_indices /
    keep_dims spellings read as axis / keepdims."""
    def handle(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
        try:
            bound = inspect.signature(fn).bind(*args, **kwargs).arguments
        except TypeError:   # a call the function itself refuses: its own error stands
            return dispatch.NOT_SUPPORTED
        rt = bound.get(input_name)
        if not isinstance(rt, RaggedTensor):
            return dispatch.NOT_SUPPORTED
        axis = bound.get("axis", bound.get("reduction_indices"))
        keepdims = bound.get("keepdims", bound.get("keep_dims"))
        return ragged_fn_of(fn, bound)(rt, axis, keepdims, bound.get("name"))
    return handle


def _segment(segment_op: Callable[..., Any], scope: str) -> Callable[..., Any]:
    def segment(data: Any, segment_ids: Any, num_segments: Any, name: Any = None) -> Any:
        with name_scope(name, scope, [data, segment_ids, num_segments]):
            return segment_aggregate(segment_op, data, segment_ids, num_segments)
    segment.__name__ = segment_op.__name__
    return segment


segment_sum = _segment(reduction_ops.unsorted_segment_sum, "RaggedSegmentSum")
segment_prod = _segment(reduction_ops.unsorted_segment_prod, "RaggedSegmentProd")
segment_min = _segment(reduction_ops.unsorted_segment_min, "RaggedSegmentMin")
segment_max = _segment(reduction_ops.unsorted_segment_max, "RaggedSegmentMax")


def _counted(scale: Callable[[Any], Any], scope: str) -> Callable[..., Any]:
    """The sum over each segment divided by `scale` of its count (TF's segment_mean /
    segment_sqrt_n on ragged data)."""
    def segment(data: Any, segment_ids: Any, num_segments: Any, name: Any = None) -> Any:
        with name_scope(name, scope, [data, segment_ids, num_segments]):
            total = segment_sum(data, segment_ids, num_segments)
            count = segment_sum(map_flat_values(creation_ops.ones_like, data), segment_ids,
                                num_segments)
            if isinstance(total, RaggedTensor):
                return total.with_flat_values(total.flat_values / scale(count.flat_values))
            return total / scale(count)
    return segment


segment_mean = _counted(lambda n: n, "RaggedSegmentMean")
segment_sqrt_n = _counted(math_ops.sqrt, "RaggedSegmentSqrtN")

for _fn in (reduce_sum, reduce_prod, reduce_min, reduce_max, reduce_mean, reduce_all,
            reduce_any):
    dispatch.register(_fn.__name__, reduction_handler(lambda fn, bound, _fn=_fn: _fn))
for _kind, _fn in (("unsorted_segment_sum", segment_sum),
                   ("unsorted_segment_prod", segment_prod),
                   ("unsorted_segment_min", segment_min),
                   ("unsorted_segment_max", segment_max),
                   ("unsorted_segment_mean", segment_mean),
                   ("unsorted_segment_sqrt_n", segment_sqrt_n)):
    dispatch.register(_kind, by_name(_fn, ("data", "segment_ids")))
