"""The number of elements of a graph-mode `tf.data.Dataset`, as TF's cardinality
analysis finds it without running anything: the Keras loops use it for the steps of an
epoch (and the progress bar's target) when `steps_per_epoch` is not given.

Walks the dataset's ops from its variant tensor with TF's rules: slices and ranges have
a known size, batching divides it (rounding up unless `drop_remainder`), repeat, take,
skip, shard, concatenate and zip combine sizes, caches, prefetches and shuffles keep them;
TF1's maps (preserve_cardinality=False), filters, flat maps, file readers and the rest are
UNKNOWN (-2); `repeat()` is INFINITE (-1). Under eager execution the same rules read the
dataset's runtime value.
"""

from __future__ import annotations

import math
from typing import Any, Optional

from tf1compat.framework.constant_value import constant_value

__all__ = ["cardinality", "INFINITE", "UNKNOWN"]

INFINITE = -1
UNKNOWN = -2

_SAME = {"PrefetchDataset", "ShuffleDataset", "CacheDataset", "IgnoreErrorsDataset",
         "RewriteDataset"}
# TF1's map sets preserve_cardinality=False: its size is unknown (TF: "Train on None steps").
_MAPS = {"MapDataset", "ParallelMapDatasetV2"}


def _scalar(tensor: Any) -> Optional[int]:
    value = constant_value(tensor)
    return None if value is None else int(value)


def _op_cardinality(op: Any) -> int:
    kind = op.type
    inputs = list(op.inputs)
    if kind in _SAME or (kind in _MAPS and op.attrs["preserve_cardinality"]):
        return _op_cardinality(inputs[0].op)
    if kind == "TensorDataset":
        return 1
    if kind == "TensorSliceDataset":
        dims = [t.shape.as_list()[0] if t.shape.rank else None for t in inputs]
        return dims[0] if dims and dims[0] is not None else UNKNOWN
    if kind == "RangeDataset":
        start, stop, step = (_scalar(t) for t in inputs[:3])
        if None in (start, stop, step) or step == 0:
            return UNKNOWN
        return max(0, math.ceil((stop - start) / step))
    if kind in ("BatchDatasetV2", "PaddedBatchDatasetV2"):
        size = _op_cardinality(inputs[0].op)
        batch = _scalar(inputs[1])
        drop = _scalar(inputs[-1])
        if size < 0 or batch is None or drop is None:
            return size if size == INFINITE else UNKNOWN
        return size // batch if drop else math.ceil(size / batch)
    if kind == "MapAndBatchDataset":
        size, batch, drop = (_op_cardinality(inputs[0].op), _scalar(inputs[-3]),
                             _scalar(inputs[-1]))
        if size < 0 or batch is None or drop is None:
            return size if size == INFINITE else UNKNOWN
        return _batched(size, batch, bool(drop))
    if kind == "RepeatDataset":
        size, count = _op_cardinality(inputs[0].op), _scalar(inputs[1])
        if count is None:
            return UNKNOWN
        if count < 0:
            return 0 if size == 0 else INFINITE
        return size * count if size >= 0 else size
    if kind == "TakeDataset":
        size, count = _op_cardinality(inputs[0].op), _scalar(inputs[1])
        if count is None:
            return UNKNOWN
        if count < 0:
            return size
        return min(size, count) if size >= 0 else (count if size == INFINITE else UNKNOWN)
    if kind == "SkipDataset":
        size, count = _op_cardinality(inputs[0].op), _scalar(inputs[1])
        if count is None:
            return UNKNOWN
        if size < 0:
            return size
        return 0 if count < 0 else max(0, size - count)
    if kind == "ConcatenateDataset":
        a, b = _op_cardinality(inputs[0].op), _op_cardinality(inputs[1].op)
        if INFINITE in (a, b):
            return INFINITE
        return UNKNOWN if UNKNOWN in (a, b) else a + b
    if kind == "ZipDataset":
        sizes = [_op_cardinality(t.op) for t in inputs]
        finite = [s for s in sizes if s >= 0]
        if finite:
            return min(finite) if UNKNOWN not in sizes else UNKNOWN
        return UNKNOWN if UNKNOWN in sizes else INFINITE
    if kind == "ShardDataset":
        size, shards, index = (_op_cardinality(inputs[0].op), _scalar(inputs[1]),
                               _scalar(inputs[2]))
        if size < 0 or shards is None or index is None:
            return size if size == INFINITE else UNKNOWN
        return size // shards + (1 if index < size % shards else 0)
    if kind == "ShuffleAndRepeatDataset":
        size, count = _op_cardinality(inputs[0].op), _scalar(inputs[-1])
        if count is None:
            return UNKNOWN
        return INFINITE if count < 0 else (size * count if size >= 0 else size)
    return UNKNOWN


def _batched(size: int, batch: int, drop: bool) -> int:
    if size < 0:
        return size
    return size // batch if drop else math.ceil(size / batch)


def _value_cardinality(value: Any) -> int:
    """The same rules on an eager dataset's runtime value (no ops to walk under eager
    execution)."""
    from tf1compat.data import _runtime as rt
    from tf1compat.data._shuffle import ShuffleValue
    if isinstance(value, (rt.PassThroughValue, rt.MemoryCacheValue, ShuffleValue)) or (
            isinstance(value, rt.MapValue) and value.preserve_cardinality):
        return _value_cardinality(value.input)
    if isinstance(value, rt.TensorValue):
        return 1
    if isinstance(value, rt.TensorSliceValue):
        return int(value.n)
    if isinstance(value, rt.RangeValue):
        return len(value.range)
    if isinstance(value, (rt.BatchValue, rt.PaddedBatchValue)):
        return _batched(_value_cardinality(value.input), value.batch_size,
                        value.drop_remainder)
    if isinstance(value, rt.RepeatValue):
        size = _value_cardinality(value.input)
        if value.count < 0:
            return 0 if size == 0 else INFINITE
        return size * value.count if size >= 0 else size
    if isinstance(value, rt.TakeValue):
        size = _value_cardinality(value.input)
        if value.count < 0:
            return size
        return min(size, value.count) if size >= 0 else (
            value.count if size == INFINITE else UNKNOWN)
    if isinstance(value, rt.SkipValue):
        size = _value_cardinality(value.input)
        if size < 0:
            return size
        return 0 if value.count < 0 else max(0, size - value.count)
    if isinstance(value, rt.ZipValue):
        sizes = [_value_cardinality(v) for v in value.inputs]
        finite = [size for size in sizes if size >= 0]
        if finite:
            return min(finite) if UNKNOWN not in sizes else UNKNOWN
        return UNKNOWN if UNKNOWN in sizes else INFINITE
    if isinstance(value, rt.ConcatenateValue):
        first, second = _value_cardinality(value.first), _value_cardinality(value.second)
        if INFINITE in (first, second):
            return INFINITE
        return first + second if first >= 0 and second >= 0 else UNKNOWN
    return UNKNOWN


def cardinality(dataset: Any) -> int:
    """The dataset's number of elements, INFINITE (-1) or UNKNOWN (-2)."""
    variant = dataset._variant_tensor
    if getattr(dataset, "_graph", None) is None:
        return _value_cardinality(variant._value)
    return _op_cardinality(variant.op)
