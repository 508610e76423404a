"""Shape functions given RaggedTensors (TF's ragged_array_ops, reached through
ops/dispatch.py): `tf.expand_dims`, `tf.size`, `tf.rank`."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.ops import array_ops, creation_ops, dispatch
from tf1compat.ragged._dispatch import by_name
from tf1compat.ragged.ragged_tensor import RaggedTensor

__all__ = ["expand_dims", "rank", "size"]


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


dispatch.register("expand_dims", by_name(expand_dims, ("input",)))
dispatch.register("size", by_name(size, ("input",)))
dispatch.register("rank", by_name(rank, ("input",)))
