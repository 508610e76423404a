"""`RaggedTensor.__getitem__` (TF's ragged_getitem.py) for integer and slice indices:
`rt[i]` (one row: a Tensor, or a RaggedTensor when ragged_rank > 1), `rt[a:b]` (rows),
`rt[:, a:b]` and `rt[:, j]` (within each row), and further indices on the uniform
inner dimensions. Ellipsis, `tf.newaxis` and tensor-valued slices are not supported.
"""

from __future__ import annotations

from typing import Any, List

from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.ops import array_ops, creation_ops, indexing_ops, math_ops
from tf1compat.ops import reduction_ops
from tf1compat.ragged import _row_ops as R

__all__ = ["ragged_getitem", "gather_rows"]


def ragged_getitem(rt: Any, key: Any) -> Any:
    """`rt[key]` for the index forms the module docstring lists."""
    key = list(key) if isinstance(key, tuple) else [key]
    for k in key:
        if k is Ellipsis or k is None:
            raise NotImplementedError("RaggedTensor.__getitem__ with Ellipsis or tf.newaxis is "
                                      "not supported by tf1compat")
        if isinstance(k, slice) and any(isinstance(v, Tensor) for v in
                                        (k.start, k.stop, k.step)):
            raise NotImplementedError("RaggedTensor.__getitem__ with tensor slice bounds is "
                                      "not supported by tf1compat")
    if len(key) > rt.shape.rank:
        raise ValueError("Too many indices for RaggedTensor")
    with name_scope(None, "RaggedGetItem", [rt]):
        return _getitem(rt, key)


def _is_ragged(x: Any) -> bool:
    return hasattr(x, "row_splits")


def _getitem(rt: Any, key: List[Any]) -> Any:
    if not key:
        return rt
    if not _is_ragged(rt):
        return rt[tuple(key)]
    first, rest = key[0], key[1:]
    if isinstance(first, slice):
        rows = _slice_rows(rt, first)
        return _getitem_within_rows(rows, rest) if rest else rows
    row = _slice_values(rt.values, rt.row_starts()[first], rt.row_limits()[first])
    return _getitem(row, rest)


def _slice_values(values: Any, begin: Tensor, end: Tensor) -> Any:
    """Rows [begin, end) of a Tensor or RaggedTensor (contiguous)."""
    if not _is_ragged(values):
        return values[begin:end]
    splits = values.row_splits[begin:end + 1]
    inner = _slice_values(values.values, splits[0], splits[-1])
    return type(values).from_row_splits(inner, splits - splits[0], validate=False)


def _slice_rows(rt: Any, key: slice) -> Any:
    if key == slice(None):
        return rt
    starts, limits = rt.row_starts()[key], rt.row_limits()[key]
    lengths = limits - starts
    if key.step in (None, 1):
        # The first selected row's start; 0 when no row is selected.
        begin = array_ops.concat([starts[:1], math_ops.cast([0], starts.dtype)], 0)[0]
        end = begin + reduction_ops.reduce_sum(lengths)
        return type(rt).from_row_lengths(_slice_values(rt.values, begin, end), lengths,
                                         validate=False)
    positions = R.ragged_range_positions(starts, lengths)
    return type(rt).from_row_lengths(gather_rows(rt.values, positions), lengths,
                                     validate=False)


def gather_rows(values: Any, indices: Tensor) -> Any:
    """`tf.gather(values, indices)` for a Tensor or RaggedTensor (whole rows)."""
    if not _is_ragged(values):
        return indexing_ops.gather(values, indices)
    lengths = indexing_ops.gather(values.row_lengths(), indices)
    starts = indexing_ops.gather(values.row_starts(), indices)
    inner = gather_rows(values.values, R.ragged_range_positions(starts, lengths))
    return type(values).from_row_lengths(inner, lengths, validate=False)


def _getitem_within_rows(rt: Any, key: List[Any]) -> Any:
    """`key[0]` applies to each row's ragged dimension; the rest to the dimensions inside."""
    first, rest = key[0], key[1:]
    lengths = rt.row_lengths()
    dtype = lengths.dtype
    if isinstance(first, slice):
        if first.step not in (None, 1):
            raise NotImplementedError("RaggedTensor.__getitem__ with a step in a ragged "
                                      "dimension is not supported by tf1compat")
        if first == slice(None):
            return rt.with_values(_inner(rt.values, rest))
        begin = _clip_bound(first.start, lengths, 0)
        end = _clip_bound(first.stop, lengths, None)
        new_lengths = math_ops.maximum(end - begin, math_ops.cast(0, dtype))
        positions = R.ragged_range_positions(rt.row_starts() + begin, new_lengths)
        values = gather_rows(rt.values, positions)
        return type(rt).from_row_lengths(_inner(values, rest), new_lengths, validate=False)
    # As TF: an integer index within the rows of a ragged dimension is refused.
    raise ValueError("Cannot index into an inner ragged dimension.")


def _inner(values: Any, rest: List[Any]) -> Any:
    if not rest:
        return values
    return _getitem_within_rows(values, rest) if _is_ragged(values) \
        else values[(slice(None),) + tuple(rest)]


def _clip_bound(bound: Any, lengths: Tensor, default: Any) -> Tensor:
    """A Python slice bound per row, as Python clips it: negative counts from each row's
    end; the result lies in [0, length]."""
    dtype = lengths.dtype
    zero = math_ops.cast(0, dtype)
    if bound is None:
        return lengths if default is None else creation_ops.zeros_like(lengths)
    b = math_ops.cast(bound, dtype)
    position = lengths + b if bound < 0 else b + creation_ops.zeros_like(lengths)
    return math_ops.minimum(math_ops.maximum(position, zero), lengths)
