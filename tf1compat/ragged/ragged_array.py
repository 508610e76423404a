"""Array functions given RaggedTensors (TF's ragged_array_ops and ragged_where_op, reached
through ops/dispatch.py): `tf.expand_dims`, `tf.squeeze`, `tf.size`, `tf.rank`,
`tf.tile`, `tf.where`, `tf.one_hot`, `tf.ragged.boolean_mask` and
`tf.ragged.stack_dynamic_partitions`."""

from __future__ import annotations

from typing import Any, Callable, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import (array_ops, check_ops, creation_ops, dispatch, indexing_ops,
                           manip_ops, math_ops, reduction_ops, sort_ops, transform_ops)
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ragged import _row_ops as R
from tf1compat.ragged._dispatch import by_name
from tf1compat.ragged._getitem import gather_rows
from tf1compat.ragged.ragged_concat import concat
from tf1compat.ragged.ragged_math import broadcast_dense, map_flat_values, splits_match
from tf1compat.ragged.ragged_tensor import RaggedTensor

__all__ = ["boolean_mask", "expand_dims", "one_hot", "rank", "size", "squeeze",
           "stack_dynamic_partitions", "tile", "where", "where_v2"]


def expand_dims(input: Any, axis: Any = None, name: Optional[str] = None,  # noqa: A002
                dim: Any = None) -> Any:
    """A size-1 dimension inserted at `axis` (TF1's `dim`): at 0 or 1 a new ragged
    (uniform) partition, further in within the values."""
    axis = dim if axis is None else axis
    if not isinstance(input, RaggedTensor):
        return array_ops.expand_dims(input, axis, name)
    with name_scope(name, "RaggedExpandDims", [input]):
        rank = input.shape.rank
        if not -(rank + 1) <= axis <= rank:
            raise ValueError(f"axis={axis} out of bounds: expected {-(rank + 1)}<=axis<="
                             f"{rank}")
        axis = axis + rank + 1 if axis < 0 else axis
        dtype = input.row_splits.dtype
        if axis == 0:
            nrows = input.nrows()
            splits = array_ops.stack([creation_ops.zeros([], dtype=dtype), nrows])
            return RaggedTensor.from_row_splits(input, splits, validate=False)
        if axis == 1:
            splits = creation_ops.range(input.nrows() + 1, dtype=dtype)
            return RaggedTensor.from_row_splits(input, splits, validate=False)
        return input.with_values(expand_dims(input.values, axis - 1))


def size(input: Any, out_type: Any = D.int32, name: Optional[str] = None) -> Any:  # noqa: A002
    """The number of elements: the size of the flat values."""
    with name_scope(name, "RaggedSize", [input]):
        return array_ops.size(input.flat_values, out_type=out_type)


def rank(input: Any, name: Optional[str] = None) -> Any:  # noqa: A002
    """The number of dimensions (static when the flat values' rank is)."""
    with name_scope(name, "RaggedRank", [input]):
        return array_ops.rank(input.flat_values) + input.ragged_rank


def _as_ragged_or_tensor(value: Any, name: str, dtype: Any = None) -> Any:
    if isinstance(value, RaggedTensor):
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def boolean_mask(data: Any, mask: Any, name: Optional[str] = None) -> Any:
    """`tf.ragged.boolean_mask`: the elements of `data` where `mask` (whose shape is a
    prefix of data's) is true; every dimension of the mask but the first becomes ragged."""
    with name_scope(name, "RaggedMask", [data, mask]):
        data = _as_ragged_or_tensor(data, "data")
        mask = _as_ragged_or_tensor(mask, "mask", D.bool)
        if mask.shape.rank is None:
            raise ValueError("mask.shape.ndims must be known statically.")
        if mask.shape.rank == 0:
            raise ValueError("mask cannot be scalar.")
        if isinstance(mask, RaggedTensor):
            if not isinstance(data, RaggedTensor):
                data = RaggedTensor.from_tensor(data, ragged_rank=mask.ragged_rank,
                                                row_splits_dtype=mask.row_splits.dtype)
            checks = splits_match(mask.nested_row_splits,
                                  data.nested_row_splits[:mask.ragged_rank])
            splits = []
            while isinstance(mask, RaggedTensor):
                if mask.shape.rank > 2:
                    splits.append(mask.row_splits)
                else:   # the mask's last ragged dimension: each row keeps its true count
                    kept = mask.with_values(math_ops.cast(mask.values, mask.row_splits.dtype))
                    splits.append(R.lengths_to_splits(reduction_ops.reduce_sum(kept, 1)))
                mask, data = mask.values, data.values
            masked = boolean_mask(data, with_dependencies(checks, mask) if checks else mask)
            return RaggedTensor.from_nested_row_splits(masked, splits, validate=False)
        if isinstance(data, RaggedTensor) and mask.shape.rank == 1:
            kept_lengths = indexing_ops.boolean_mask(data.row_lengths(), mask)
            value_mask = indexing_ops.gather(mask, data.value_rowids())
            return RaggedTensor.from_row_lengths(boolean_mask(data.values, value_mask),
                                                 kept_lengths, validate=False)
        if isinstance(data, RaggedTensor):
            mask = RaggedTensor.from_tensor(mask, ragged_rank=min(data.ragged_rank,
                                                                  mask.shape.rank - 1),
                                            row_splits_dtype=data.row_splits.dtype)
            return boolean_mask(data, mask)
        masked = indexing_ops.boolean_mask(data, mask)
        if mask.shape.rank == 1:
            return masked
        mask = RaggedTensor.from_tensor(mask, ragged_rank=mask.shape.rank - 1)
        return boolean_mask(RaggedTensor.from_tensor(data, ragged_rank=mask.ragged_rank), mask)


def _coordinates(condition: RaggedTensor) -> Any:
    """`tf.where(condition)`: the [N, rank] int64 coordinates of the true elements (each
    flat value's outer indices, then its position within the flat values)."""
    inner = indexing_ops.where(condition.flat_values)
    at = inner[:, 0]
    outer = [math_ops.cast(indexing_ops.gather(i, at), D.int64)
             for i in R.flat_value_indices(condition.nested_row_splits)]
    return array_ops.concat([array_ops.stack(outer, 1), inner[:, 1:]], 1)


def _select(select: Any, condition: Any, x: Any, y: Any, rows: bool) -> Any:
    """Each element from `x` or `y`: elementwise (dense operands broadcast over the ragged
    ones, as in the binary ops), or with `rows` whole rows when the condition is a vector
    and they are not."""
    template = next(v for v in (condition, x, y) if isinstance(v, RaggedTensor))
    if rows and condition.shape.rank == 1 and (x.shape.rank or 0) > 1:
        x, y = [v if isinstance(v, RaggedTensor) else RaggedTensor.from_tensor(
            v, row_splits_dtype=template.row_splits.dtype) for v in (x, y)]
        nrows = x.nrows()
        rows = creation_ops.range(nrows, dtype=nrows.dtype)
        picked = select(condition, rows, rows + y.nrows(out_type=nrows.dtype))
        return gather_rows(concat([x, y], 0), picked)
    operands = [v if isinstance(v, RaggedTensor) else
                broadcast_dense(convert_to_tensor(v, dtype_hint=template.dtype), template)
                for v in (condition, x, y)]
    return map_flat_values(select, *operands)


def _where(select: Callable[..., Any], rows: bool) -> Callable[..., Any]:
    def where(condition: Any, x: Any = None, y: Any = None,
              name: Optional[str] = None) -> Any:
        with name_scope(name, "RaggedWhere", [condition, x, y]):
            if x is None and y is None:
                return _coordinates(condition)
            if x is None or y is None:
                raise ValueError("x and y must be either both None or both non-None")
            return _select(select, condition, x, y, rows)
    return where


# `tf.where` of RaggedTensors: coordinates of a ragged condition, or a choice between `x`
# and `y` (TF1: elementwise, or whole rows when the condition is a vector); `tf.where_v2`:
# the elementwise choice only.
where = _where(indexing_ops.where, rows=True)
where_v2 = _where(indexing_ops.where_v2, rows=False)


def tile(input: Any, multiples: Any, name: Optional[str] = None) -> Any:  # noqa: A002
    """`tf.tile` of a RaggedTensor: the dimensions inside first, then each row's values
    repeated `multiples[1]` times, then the rows `multiples[0]` times."""
    with name_scope(name, "RaggedTile", [input, multiples]):
        multiples = convert_to_tensor(multiples, name="multiples")
        multiples.shape.assert_has_rank(1)
        rank = input.shape.rank
        if multiples.shape[0] is not None and rank is not None and \
                multiples.shape.as_list()[0] != rank:
            raise ValueError(f"Expected multiples to have length {rank}; got "
                             f"{multiples.shape.as_list()[0]}")
        return _tile(input, math_ops.cast(multiples, input.row_splits.dtype))


def _tile(rt: Any, multiples: Any) -> Any:
    if not isinstance(rt, RaggedTensor):
        return transform_ops.tile(rt, multiples)
    inner = array_ops.concat([creation_ops.ones_like(multiples[:1]), multiples[2:]], 0)
    values = _tile(rt.values, inner)
    lengths = rt.row_lengths()
    tiled_lengths = lengths * multiples[1]
    # Position j of a tiled row i is value (j mod length_i) of row i.
    within = R.ragged_range_positions(creation_ops.zeros_like(lengths), tiled_lengths)
    starts = manip_ops.repeat(rt.row_starts(), tiled_lengths)
    wrapped = math_ops.floor_mod(within, manip_ops.repeat(math_ops.maximum(lengths, 1),
                                                         tiled_lengths))
    rows = RaggedTensor.from_row_lengths(gather_rows(values, starts + wrapped),
                                         tiled_lengths, validate=False)
    nrows = rt.nrows()
    order = transform_ops.tile(creation_ops.range(nrows, dtype=nrows.dtype), multiples[:1])
    return gather_rows(rows, order)


def one_hot(indices: Any, depth: Any, on_value: Any = None, off_value: Any = None,
            axis: Any = None, dtype: Any = None, name: Optional[str] = None) -> Any:
    """`tf.one_hot` of ragged indices: the flat values one-hot encoded (a new innermost
    dimension, or one among the flat values' inner dimensions)."""
    with name_scope(name, "RaggedOneHot", [indices, depth, on_value, off_value, axis]):
        if axis is not None:
            rank = indices.shape.rank + 1
            axis = axis + rank if axis < 0 else axis
            if axis < indices.ragged_rank + 1:
                raise ValueError("axis may not be less than indices.ragged_rank.")
            axis -= indices.ragged_rank
        return indices.with_flat_values(creation_ops.one_hot(
            indices.flat_values, depth, on_value, off_value, axis, dtype))


def squeeze(input: Any, axis: Any = None, name: Optional[str] = None,  # noqa: A002
            squeeze_dims: Any = None) -> Any:
    """`tf.squeeze` of a RaggedTensor's size-1 dimensions (`axis` required): a uniform
    inner one from the flat values, a ragged one (every row of length 1, checked at run
    time) by dropping its row partition."""
    axis = squeeze_dims if axis is None else axis
    with name_scope(name, "RaggedSqueeze", [input]):
        if axis is None:
            raise ValueError("Ragged.squeeze must have an axis argument.")
        rank = input.shape.rank
        axes = sorted({a + rank if a < 0 else a for a in
                       (axis if isinstance(axis, (list, tuple)) else [axis])})
        if axes and axes[0] == 0:
            raise NotImplementedError("tf.squeeze of a RaggedTensor's axis 0 is not "
                                      "supported by tf1compat")
        ragged_rank = input.ragged_rank
        inner = [a - ragged_rank for a in axes if a > ragged_rank]
        flat = input.flat_values
        if inner:
            flat = array_ops.squeeze(flat, inner)
        splits = list(input.nested_row_splits)
        checks = []
        for a in reversed([a for a in axes if a <= ragged_rank]):
            checks.append(check_ops.assert_equal(
                R.splits_to_lengths(splits[a - 1]), math_ops.cast(1, splits[a - 1].dtype),
                message="Can only squeeze a ragged dimension whose rows all have length 1"))
            del splits[a - 1]
        if checks:
            flat = with_dependencies(checks, flat)
        return RaggedTensor.from_nested_row_splits(flat, splits, validate=False) if splits \
            else flat


def stack_dynamic_partitions(data: Any, partitions: Any, num_partitions: Any,
                             name: Optional[str] = None) -> RaggedTensor:
    """`tf.ragged.stack_dynamic_partitions`: row i holds, in order, the rows of `data`
    whose partition is i (a vector of partitions: one stable sort)."""
    with name_scope(name, "SegmentStack", [data, partitions, num_partitions]):
        data = _as_ragged_or_tensor(data, "data")
        partitions = convert_to_tensor(partitions, name="partitions")
        if isinstance(data, RaggedTensor):
            partitions = math_ops.cast(partitions, data.row_splits.dtype)
        num_partitions = math_ops.cast(convert_to_tensor(num_partitions), partitions.dtype)
        if partitions.shape.rank != 1:
            raise NotImplementedError("tf.ragged.stack_dynamic_partitions with partitions of "
                                      "rank other than 1 is not supported by tf1compat")
        num_partitions.shape.assert_has_rank(0)
        partitions.shape.assert_is_compatible_with(data.shape[:1])
        order = sort_ops.argsort(partitions, stable=True)
        rowids = indexing_ops.gather(partitions, order)
        checks = [check_ops.assert_less(rowids[-1:], num_partitions,
                                        message="partitions must be less than num_partitions"),
                  check_ops.assert_non_negative(partitions,
                                                message="partitions must be non-negative.")]
        # (the splits straight from the row ids: the range check is the run-time one, as
        # TF's, which does not fold the sorted ids)
        splits = R.rowids_to_splits(with_dependencies(checks, rowids), num_partitions)
        return RaggedTensor.from_row_splits(gather_rows(data, order), splits, validate=False)


dispatch.register("expand_dims", by_name(expand_dims, ("input",)))
dispatch.register("size", by_name(size, ("input",)))
dispatch.register("rank", by_name(rank, ("input",)))
dispatch.register("tile", by_name(tile, ("input",)))
dispatch.register("where", by_name(where, ("condition", "x", "y")))
dispatch.register("where_v2", by_name(where_v2, ("condition", "x", "y")))
dispatch.register("one_hot", by_name(one_hot, ("indices",)))
dispatch.register("squeeze", by_name(squeeze, ("input",)))
