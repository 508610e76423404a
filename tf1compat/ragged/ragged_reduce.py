"""`tf.reduce_*` given RaggedTensors (TF's ragged_math_ops reductions, reached through
ops/dispatch.py): a ragged axis is reduced with the unsorted segment op (row ids as
segments for axis 1, positions within the rows for axis 0), an inner axis by reducing the
values; several axes are reduced one at a time, innermost first.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.ops import array_ops, creation_ops, dispatch, math_ops, reduction_ops
from tf1compat.ragged import _row_ops as R
from tf1compat.ragged.ragged_math import map_flat_values
from tf1compat.ragged.ragged_tensor import RaggedTensor

__all__ = ["reduce_all", "reduce_any", "reduce_max", "reduce_mean", "reduce_min",
           "reduce_prod", "reduce_sum"]


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
    if isinstance(rt.values, RaggedTensor):
        raise NotImplementedError(
            f"tf.{reduce_op.__name__} over axis {axis} of a RaggedTensor with ragged_rank > 1 "
            "(a segment reduction of ragged values) is not supported by tf1compat")
    splits = rt.row_splits
    if axis == 0:
        lengths = R.splits_to_lengths(splits)
        num_segments = math_ops.maximum(reduction_ops.reduce_max(lengths), 0)
        zeros = creation_ops.zeros_like(lengths)
        segment_ids = R.ragged_range_positions(zeros, lengths)
    else:
        num_segments = array_ops.shape(splits, out_type=splits.dtype)[0] - 1
        segment_ids = R.splits_to_rowids(splits)
    return segment_op(rt.values, segment_ids, num_segments)


def _static_axis(axis: Any) -> Any:
    if isinstance(axis, Tensor):
        axis = constant_value(axis)
        if axis is None:
            raise ValueError("axis must be known at graph construction time.")
    if isinstance(axis, np.ndarray):
        axis = axis.tolist()
    return axis


def _keep_dims(result: Any, axis: Any, rank: Any) -> Any:
    """TF 2.21's keepdims: the reduced axes put back as size-1 dimensions (dense results
    only here)."""
    if isinstance(result, RaggedTensor) or axis is None:
        raise NotImplementedError("keepdims=True on a RaggedTensor reduction that keeps "
                                  "a ragged dimension or reduces all axes is not supported "
                                  "by tf1compat")
    axes = axis if isinstance(axis, (list, tuple)) else [axis]
    for a in sorted(_positive_axis(int(a), rank) for a in axes):
        result = array_ops.expand_dims(result, a)
    return result


def _reduction(reduce_op: Callable[..., Any], segment_op: Callable[..., Any],
               scope: str) -> Callable[..., Any]:
    def reduce(rt: Any, axis: Any = None, keepdims: Any = None, name: Any = None) -> Any:
        with name_scope(name, scope, [rt]):
            axis = _static_axis(axis)
            result = _aggregate(reduce_op, segment_op, rt, axis)
            return _keep_dims(result, axis, rt.shape.rank) if keepdims else result
    reduce.__name__ = reduce_op.__name__
    return reduce


reduce_sum = _reduction(reduction_ops.reduce_sum, reduction_ops.unsorted_segment_sum,
                        "RaggedReduceSum")
reduce_prod = _reduction(reduction_ops.reduce_prod, reduction_ops.unsorted_segment_prod,
                         "RaggedReduceProd")
reduce_min = _reduction(reduction_ops.reduce_min, reduction_ops.unsorted_segment_min,
                        "RaggedReduceMin")
reduce_max = _reduction(reduction_ops.reduce_max, reduction_ops.unsorted_segment_max,
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


def _dispatch_to(ragged_fn: Callable[..., Any]) -> Callable[..., Any]:
    """A handler calling `ragged_fn` when tf.reduce_*'s input_tensor is ragged (TF1's
    reduction_indices / keep_dims spellings included)."""
    def handle(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
        try:
            bound = inspect.signature(fn).bind(*args, **kwargs).arguments
        except TypeError:   # a call the function itself refuses: its own error stands
            return dispatch.NOT_SUPPORTED
        rt = bound.get("input_tensor")
        if not isinstance(rt, RaggedTensor):
            return dispatch.NOT_SUPPORTED
        axis = bound.get("axis", bound.get("reduction_indices"))
        keepdims = bound.get("keepdims", bound.get("keep_dims"))
        return ragged_fn(rt, axis, keepdims, bound.get("name"))
    return handle


for _fn in (reduce_sum, reduce_prod, reduce_min, reduce_max, reduce_mean, reduce_all,
            reduce_any):
    dispatch.register(_fn.__name__, _dispatch_to(_fn))
