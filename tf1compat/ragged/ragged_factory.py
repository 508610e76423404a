"""`tf.ragged`'s factories (TF 1.15's ragged_factory_ops, ragged_math_ops.range,
segment_id_ops): `constant` / `constant_value` from nested Python lists, `range`,
`placeholder`, and the row_splits <-> segment ids conversions."""

from __future__ import annotations

import builtins
from typing import Any, List, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant as _constant
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, creation_ops, math_ops
from tf1compat.ops.manip_ops import repeat
from tf1compat.ragged import _row_ops as R
from tf1compat.ragged.ragged_tensor import RaggedTensor, RaggedTensorValue

__all__ = ["constant", "constant_value", "range", "placeholder", "row_splits_to_segment_ids",
           "segment_ids_to_row_splits"]


def _scalar_depths(pylist: Any, depth: int = 0) -> List[int]:
    if isinstance(pylist, (list, tuple, np.ndarray)) and not \
            (isinstance(pylist, np.ndarray) and pylist.ndim == 0):
        out = [d for item in pylist for d in _scalar_depths(item, depth + 1)]
        return out
    return [depth]


def _list_depth(pylist: Any) -> int:
    if isinstance(pylist, (list, tuple)):
        return 1 + max([_list_depth(x) for x in pylist] or [0])
    return np.ndim(pylist)


def _partition(pylist: Any, dtype: Any, ragged_rank: Optional[int],
               inner_shape: Optional[Tuple[int, ...]], splits_dtype: np.dtype
               ) -> Tuple[np.ndarray, List[np.ndarray]]:
    """The flat values (numpy, of `inner_shape` per value) and the nested row splits."""
    depths = set(_scalar_depths(pylist))
    if len(depths) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    depth = _list_depth(pylist)
    if ragged_rank is None:
        ragged_rank = max(0, depth - 1 - len(inner_shape or ()))
    if ragged_rank >= depth and depth > 0 and depths:
        raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank="
                         f"{ragged_rank}")
    splits: List[np.ndarray] = []
    level = list(pylist)
    for _ in builtins.range(ragged_rank):
        lengths = [len(x) for x in level]
        splits.append(np.concatenate([[0], np.cumsum(lengths)]).astype(splits_dtype))
        level = [y for x in level for y in x]
    if inner_shape is None:
        inner = tuple(np.shape(level[0])) if level else ()
        inner_shape = inner if level or depth - 1 - ragged_rank <= 0 else \
            (0,) * (depth - 1 - ragged_rank)
    np_dtype = None if dtype is None else D.as_dtype(dtype).as_numpy_dtype
    if level:
        values = np.array(level, dtype=np_dtype)
        if values.shape[1:] != tuple(inner_shape):
            values = values.reshape((len(level),) + tuple(inner_shape))
    else:
        values = np.zeros((0,) + tuple(inner_shape), dtype=np_dtype or np.float32)
    if np_dtype is None and values.dtype.kind in "US":
        values = values.astype(object)
    return values, splits


def constant(pylist: Any, dtype: Any = None, ragged_rank: Optional[int] = None,
             inner_shape: Any = None, name: Optional[str] = None,
             row_splits_dtype: Any = D.int64) -> Any:
    """`tf.ragged.constant`: a RaggedTensor (a Tensor when ragged_rank is 0) of the
    nested lists in `pylist`."""
    splits_dtype = D.as_dtype(row_splits_dtype)
    with name_scope(name, "RaggedConstant"):
        values, splits = _partition(pylist, dtype, ragged_rank,
                                    None if inner_shape is None else tuple(inner_shape),
                                    splits_dtype.as_numpy_dtype)
        if dtype is None and values.dtype == np.float64:
            values = values.astype(np.float32)   # as tf.constant of Python floats
        elif dtype is None and values.dtype == np.int64 and \
                (values.size == 0 or np.abs(values).max() < 2 ** 31):
            values = values.astype(np.int32)     # as tf.constant of Python ints
        result = _constant(values, dtype=dtype, name="values")
        for s in reversed(splits):
            result = RaggedTensor.from_row_splits(result, _constant(s, dtype=splits_dtype),
                                                  validate=False)
        return result


def constant_value(pylist: Any, dtype: Any = None, ragged_rank: Optional[int] = None,
                   inner_shape: Any = None, row_splits_dtype: Any = "int64") -> Any:
    """`tf.ragged.constant_value`: a RaggedTensorValue (numpy) of the nested lists."""
    splits_np = D.as_dtype(row_splits_dtype).as_numpy_dtype
    values, splits = _partition(pylist, dtype, ragged_rank,
                                None if inner_shape is None else tuple(inner_shape),
                                splits_np)
    return RaggedTensorValue._build(values, splits) if splits else values


_RANGE_ORDER = [D.int32, D.int64, D.float32, D.float64]


def range(starts: Any, limits: Any = None, deltas: Any = 1, dtype: Any = None,  # noqa: A001
          name: Optional[str] = None, row_splits_dtype: Any = D.int64) -> RaggedTensor:
    """`tf.ragged.range`: row i is `range(starts[i], limits[i], deltas[i])` (arguments are
    scalars or vectors, broadcast against each other)."""
    if limits is None:
        starts, limits = 0, starts
    splits_dtype = D.as_dtype(row_splits_dtype)
    with name_scope(name, "RaggedRange", [starts, limits, deltas]):
        args = [convert_to_tensor(a, dtype=dtype, name=n)
                for a, n in zip((starts, limits, deltas), ("starts", "limits", "deltas"))]
        if dtype is None:
            common = max((a.dtype for a in args), key=lambda d: _RANGE_ORDER.index(d)
                         if d in _RANGE_ORDER else -1)
            args = [math_ops.cast(a, common) for a in args]
        for a in args:
            a.shape.with_rank_at_most(1)
        zero = sum(creation_ops.zeros_like(a) for a in args)
        s, limit, d = [array_ops.reshape(a + zero, [-1]) for a in args]
        steps = math_ops.ceil(math_ops.cast(limit - s, D.float64) / math_ops.cast(d, D.float64))
        lengths = math_ops.maximum(math_ops.cast(steps, splits_dtype),
                                   math_ops.cast(0, splits_dtype))
        splits = R.lengths_to_splits(lengths)
        offsets = R.ragged_range_positions(creation_ops.zeros_like(lengths), lengths)
        values = repeat(s, lengths) + math_ops.cast(offsets, s.dtype) * repeat(d, lengths)
        return RaggedTensor.from_row_splits(values, splits, validate=False)


def placeholder(dtype: Any, ragged_rank: int, value_shape: Any = None,
                name: Optional[str] = None) -> RaggedTensor:
    """`tf.ragged.placeholder`: a RaggedTensor fed with a RaggedTensorValue."""
    from tf1compat.framework.tensor_shape import TensorShape
    value_shape = TensorShape(value_shape if value_shape is not None else [])
    with name_scope(name, "RaggedPlaceholder", []):
        result = array_ops.placeholder(dtype, TensorShape([None]).concatenate(value_shape),
                                       name="flat_values")
        for i in reversed(builtins.range(ragged_rank)):
            splits = array_ops.placeholder(D.int64, [None], name=f"row_splits_{i}")
            result = RaggedTensor.from_row_splits(result, splits, validate=False)
        return result


def row_splits_to_segment_ids(splits: Any, name: Optional[str] = None,
                              out_type: Any = None) -> Tensor:
    """`tf.ragged.row_splits_to_segment_ids`: the row of each value."""
    with name_scope(name, "RaggedSplitsToSegmentIds", [splits]):
        splits = R.convert_partition(splits, "splits")
        return R.splits_to_rowids(splits, out_type)


def segment_ids_to_row_splits(segment_ids: Any, num_segments: Any = None, out_type: Any = None,
                              name: Optional[str] = None) -> Tensor:
    """`tf.ragged.segment_ids_to_row_splits`: splits of sorted segment ids."""
    out_type = D.int64 if out_type is None else D.as_dtype(out_type)
    with name_scope(name, "SegmentIdsToRaggedSplits", [segment_ids]):
        ids = math_ops.cast(R.convert_partition(segment_ids, "segment_ids"), out_type)
        if num_segments is not None:
            num_segments = math_ops.cast(convert_to_tensor(num_segments), out_type)
        return R.rowids_to_splits(ids, num_segments)
