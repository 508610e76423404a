"""`tf.concat`, `tf.stack` and `tf.gather` given RaggedTensors (TF's ragged_concat_ops and
ragged_gather_ops, reached through ops/dispatch.py).

concat on axis 0 joins the flat values and shifts each input's row splits by the values
before it; on axis 1 the inputs' rows are joined row by row (each value's place in the
result computed from the row lengths, then one gather by the inverse permutation); stack
on axis 0 is concat on axis 0 under one more partition. gather picks rows of a ragged
params by their value ranges, one level at a time.
"""

from __future__ import annotations

from typing import Any

from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import (array_ops, check_ops, creation_ops, dispatch, indexing_ops,
                           reduction_ops, sort_ops)
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ragged import _row_ops as R
from tf1compat.ragged._dispatch import by_name
from tf1compat.ragged._getitem import gather_rows
from tf1compat.ragged.ragged_tensor import RaggedTensor

__all__ = ["concat", "gather", "stack"]


def _as_ragged(values: list[Any]) -> list[RaggedTensor]:
    """The inputs as RaggedTensors of the first ragged one's ragged_rank and splits dtype
    (dense ones through from_tensor, as TF)."""
    template = next((v for v in values if isinstance(v, RaggedTensor)), None)
    if template is None:
        raise NotImplementedError("tf.ragged.stack / tf.ragged concat of dense tensors only "
                                  "is not supported by tf1compat")
    out = []
    for v in values:
        if not isinstance(v, RaggedTensor):
            v = RaggedTensor.from_tensor(convert_to_tensor(v, dtype_hint=template.dtype),
                                         ragged_rank=template.ragged_rank,
                                         row_splits_dtype=template.row_splits.dtype)
        if v.ragged_rank != template.ragged_rank:
            raise NotImplementedError("tf.concat of RaggedTensors with different "
                                      "ragged_rank is not supported by tf1compat")
        out.append(v)
    return out


def _concat_axis_0(rts: list[RaggedTensor]) -> RaggedTensor:
    levels = [rt.nested_row_splits for rt in rts]
    out_splits = []
    for level in range(rts[0].ragged_rank):
        pieces, offset = [], None
        for splits in levels:
            s = splits[level]
            pieces.append(s if offset is None else R.drop_first(s) + offset)
            offset = R.last(s) if offset is None else offset + R.last(s)
        out_splits.append(array_ops.concat(pieces, 0))
    flat = array_ops.concat([rt.flat_values for rt in rts], 0)
    return RaggedTensor.from_nested_row_splits(flat, out_splits, validate=False)


def _concat_axis_1(rts: list[RaggedTensor]) -> RaggedTensor:
    nrows = rts[0].nrows()
    checks = [check_ops.assert_equal(nrows, rt.nrows(),
                                     message="Input tensors have incompatible shapes.")
              for rt in rts[1:]]
    lengths = array_ops.stack([rt.row_lengths() for rt in rts])   # [inputs, rows]
    out_lengths = with_dependencies(checks, reduction_ops.reduce_sum(lengths, 0)) \
        if checks else reduction_ops.reduce_sum(lengths, 0)
    out_starts = R.drop_last(R.lengths_to_splits(out_lengths))
    before = reduction_ops.cumsum(lengths, 0, exclusive=True)
    dest = array_ops.concat([R.ragged_range_positions(out_starts + before[j], lengths[j])
                             for j in range(len(rts))], 0)
    joined = _concat_axis_0([rt.values for rt in rts]) \
        if isinstance(rts[0].values, RaggedTensor) else \
        array_ops.concat([rt.values for rt in rts], 0)
    values = gather_rows(joined, sort_ops.invert_permutation(dest))
    return RaggedTensor.from_row_lengths(values, out_lengths, validate=False)


def concat(values: Any, axis: Any, name: Any = None) -> RaggedTensor:
    """`tf.concat` of RaggedTensors (and dense tensors of the same rank)."""
    if not isinstance(values, (list, tuple)):
        values = [values]
    with name_scope(name, "RaggedConcat", values):
        rts = _as_ragged(list(values))
        rank = rts[0].shape.rank
        axis = int(axis)
        if rank is not None:
            if not -rank <= axis < rank:
                raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
            axis = axis % rank
        if len(rts) == 1:
            return rts[0]
        if axis == 0:
            return _concat_axis_0(rts)
        if axis == 1:
            return _concat_axis_1(rts)
        raise NotImplementedError(f"tf.concat of RaggedTensors on axis {axis} is not "
                                  "supported by tf1compat (axes 0 and 1 are)")


def stack(values: Any, axis: int = 0, name: Any = None) -> RaggedTensor:
    """`tf.stack` / `tf.ragged.stack` of RaggedTensors on axis 0 (one more ragged
    dimension); at least one input must be ragged here."""
    if axis != 0:
        raise NotImplementedError("tf.stack of RaggedTensors on an axis other than 0 is not "
                                  "supported by tf1compat")
    with name_scope(name, "RaggedConcat", list(values)):
        rts = _as_ragged(list(values))
        dtype = rts[0].row_splits.dtype
        counts = array_ops.stack([rt.nrows(out_type=dtype) for rt in rts])
        splits = array_ops.concat([creation_ops.zeros_like(counts[:1]),
                                   reduction_ops.cumsum(counts)], 0)
        return RaggedTensor.from_row_splits(_concat_axis_0(rts), splits, validate=False)


def gather(params: Any, indices: Any, axis: Any = None, batch_dims: int = 0,
           name: Any = None) -> Any:
    """`tf.gather` with a ragged `params` (rows picked by a vector of indices) or ragged
    `indices` (each index's row of a dense params)."""
    if axis not in (None, 0) or batch_dims != 0:
        raise NotImplementedError("tf.gather of RaggedTensors with axis or batch_dims other "
                                  "than 0 is not supported by tf1compat")
    with name_scope(name, "RaggedGather", [params, indices]):
        if isinstance(indices, RaggedTensor):
            if isinstance(params, RaggedTensor):
                raise NotImplementedError("tf.gather of a RaggedTensor by ragged indices is "
                                          "not supported by tf1compat")
            return indices.with_flat_values(indexing_ops.gather(params, indices.flat_values))
        indices = convert_to_tensor(indices, name="indices")
        if indices.shape.rank != 1:
            raise NotImplementedError("tf.gather of a RaggedTensor by indices of rank other "
                                      "than 1 is not supported by tf1compat")
        return gather_rows(params, indices)


dispatch.register("concat", by_name(concat, ("values",), is_list=True))
dispatch.register("stack", by_name(stack, ("values",), is_list=True))
dispatch.register("gather", by_name(gather, ("params", "indices")))
