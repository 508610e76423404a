"""The graph computations RaggedTensor's row partitions are made of: splits from lengths,
row ids or starts and back, the `validate=True` checks of each factory, and the gather
positions of a ragged range. Plain functions of graph tensors (int32 or int64), one
place for what the factories, `__getitem__` and the conversions share.
"""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, check_ops, creation_ops, indexing_ops, manip_ops, math_ops
from tf1compat.ops import reduction_ops
from tf1compat.ops.control_flow_ops import with_dependencies

__all__ = ["convert_partition", "lengths_to_splits", "splits_to_lengths", "splits_to_rowids",
           "rowids_to_splits", "validate", "ragged_range_positions", "nrows_of", "first",
           "last", "drop_first", "drop_last", "positions_in_rows", "flat_value_indices"]


def convert_partition(value: Any, what: str) -> Tensor:
    """A row partition tensor: int64 unless it already is a tensor (int32 stays int32);
    anything other than int32/int64 is TF's ValueError."""
    if not isinstance(value, Tensor):
        try:
            value = convert_to_tensor(value, dtype=D.int64, name=what)
        except (TypeError, ValueError):
            value = convert_to_tensor(value, name=what)
    if value.dtype not in (D.int32, D.int64):
        raise ValueError(f"{what} must have dtype int32 or int64")
    value.shape.with_rank(1)
    return value


def first(t: Tensor) -> Tensor:
    return t[0]


def last(t: Tensor) -> Tensor:
    return t[-1]


def drop_first(t: Tensor) -> Tensor:
    return t[1:]


def drop_last(t: Tensor) -> Tensor:
    return t[:-1]


def nrows_of(values: Any, out_type: Any) -> Tensor:
    """The number of rows of `values` (a Tensor or a RaggedTensor) as `out_type`."""
    if hasattr(values, "nrows"):
        return values.nrows(out_type=out_type)
    return array_ops.shape(values, out_type=out_type)[0]


def lengths_to_splits(lengths: Tensor) -> Tensor:
    """[0, l0, l0+l1, ...]."""
    zero = creation_ops.zeros([1], dtype=lengths.dtype)
    return array_ops.concat([zero, reduction_ops.cumsum(lengths)], 0)


def splits_to_lengths(splits: Tensor) -> Tensor:
    return drop_first(splits) - drop_last(splits)


def splits_to_rowids(splits: Tensor, out_type: Any = None) -> Tensor:
    """The row of each value: row i repeated row_lengths[i] times."""
    out_type = splits.dtype if out_type is None else D.as_dtype(out_type)
    lengths = splits_to_lengths(splits)
    rows = creation_ops.range(array_ops.size(lengths, out_type=splits.dtype), dtype=splits.dtype)
    return math_ops.cast(manip_ops.repeat(rows, lengths), out_type)


def rowids_to_splits(rowids: Tensor, nrows: Optional[Tensor] = None) -> Tensor:
    """Splits of sorted row ids; `nrows` defaults to the last id + 1 (0 when empty)."""
    if nrows is None:
        nrows = _default_nrows(rowids)
    counts = reduction_ops.unsorted_segment_sum(creation_ops.ones_like(rowids), rowids, nrows)
    return lengths_to_splits(counts)


def _default_nrows(rowids: Tensor) -> Tensor:
    n = array_ops.size(rowids, out_type=rowids.dtype)
    return math_ops.maximum(reduction_ops.reduce_max(rowids[-1:]) + 1, 0) * \
        math_ops.cast(n > 0, rowids.dtype)


def ragged_range_positions(starts: Tensor, lengths: Tensor) -> Tensor:
    """Concatenated ranges [starts[i], starts[i] + lengths[i]) (TF's RaggedRange values)."""
    splits = lengths_to_splits(lengths)
    total = last(splits)
    offsets = creation_ops.range(total, dtype=splits.dtype) - \
        manip_ops.repeat(drop_last(splits), lengths)
    return manip_ops.repeat(starts, lengths) + offsets


def validate(factory: str, splits: Tensor, nvals: Tensor, extra: List[Any]) -> Tensor:
    """`splits` guarded by TF's checks of `factory` (zero start, monotonic, last == nvals)
    and the factory's own `extra` checks; the message names the factory as TF's does."""
    msg = f"Arguments to {factory} do not form a valid RaggedTensor"
    checks = list(extra) + [
        check_ops.assert_equal(first(splits), math_ops.cast(0, splits.dtype), message=msg),
        check_ops.assert_non_negative(splits_to_lengths(splits), message=msg),
        check_ops.assert_equal(last(splits), math_ops.cast(nvals, splits.dtype), message=msg)]
    return with_dependencies(checks, splits)


def static_nrows_check(rowids: Tensor, nrows: Tensor) -> None:
    """TF's build-time ValueError when both `nrows` and the last row id are constants."""
    ids, n = constant_value(rowids), constant_value(nrows)
    if ids is not None and n is not None and len(ids) and int(n) < int(ids[-1]) + 1:
        raise ValueError(f"Expected nrows >= value_rowids[-1] + 1; got nrows={int(n)}, "
                         f"value_rowids[-1]={int(ids[-1])}")


def positions_in_rows(splits: Tensor) -> "tuple[Tensor, Tensor]":
    """The row of each value and its position within that row."""
    rowids = splits_to_rowids(splits)
    count = array_ops.size(rowids, out_type=splits.dtype)
    return rowids, creation_ops.range(count, dtype=splits.dtype) - \
        indexing_ops.gather(drop_last(splits), rowids)


def flat_value_indices(nested_splits: "List[Tensor]") -> List[Tensor]:
    """For each flat value of a RaggedTensor with `nested_splits`, its index in each of
    the ragged_rank + 1 outer dimensions: [outer row, position at dimension 1, ...]."""
    indices: List[Tensor] = []
    owner = None   # the element of the current level each flat value belongs to
    for splits in reversed(list(nested_splits)):
        rowids, positions = positions_in_rows(splits)
        if owner is not None:
            rowids = indexing_ops.gather(rowids, owner)
            positions = indexing_ops.gather(positions, owner)
        indices.insert(0, positions)
        owner = rowids
    indices.insert(0, owner)
    return indices
