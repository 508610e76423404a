"""RaggedTensor <-> dense and sparse tensors: `RaggedTensor.from_tensor`, `.to_tensor`
and `.to_sparse`, built from gathers and masks so strings pad as well as numbers (TF
runs its RaggedTensorToTensor / RaggedTensorToSparse kernels; the values are the same).
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import array_ops, creation_ops, indexing_ops, math_ops, reduction_ops
from tf1compat.ops import strided_slice, transform_ops
from tf1compat.ragged import _row_ops as R

__all__ = ["from_tensor", "to_tensor", "to_sparse"]


def from_tensor(cls: Any, tensor: Any, lengths: Any, padding: Any, ragged_rank: int,
                name: Optional[str], splits_dtype: D.DType) -> Any:
    """`RaggedTensor.from_tensor` (see there)."""
    if lengths is not None and padding is not None:
        raise ValueError("Specify argument `lengths` or `padding`, but not both.")
    if not isinstance(ragged_rank, int):
        raise TypeError(f"ragged_rank expected int, got {ragged_rank!r}")
    if ragged_rank <= 0:
        raise ValueError(f"Argument `ragged_rank` must be greater than 0. Received {ragged_rank}.")
    with name_scope(name, "RaggedFromTensor", [tensor, lengths, padding]):
        tensor = convert_to_tensor(tensor, name="tensor")
        tensor.shape.with_rank_at_least(ragged_rank + 1)
        dims = array_ops.shape(tensor, out_type=splits_dtype)
        if ragged_rank > 1:
            if lengths is not None:
                raise NotImplementedError("RaggedTensor.from_tensor(lengths=..., ragged_rank>1)"
                                          " is not supported by tf1compat")
            return _from_tensor_nested(cls, tensor, padding, ragged_rank, dims)
        ncols = dims[1]
        if lengths is None and padding is None:
            nrows = dims[0]
            values = array_ops.reshape(tensor, array_ops.concat([[-1], dims[2:]], 0))
            splits = creation_ops.range(nrows + 1, dtype=splits_dtype) * ncols
            return cls.from_row_splits(values, splits, validate=False)
        if lengths is not None:
            lengths = math_ops.cast(convert_to_tensor(lengths, name="lengths"), splits_dtype)
            lengths.shape.with_rank(1)
            lengths = math_ops.maximum(math_ops.minimum(lengths, ncols),
                                       math_ops.cast(0, splits_dtype))
        else:
            lengths = _lengths_before_padding(tensor, padding, ncols, splits_dtype)
        mask = indexing_ops.sequence_mask(lengths, ncols)
        return cls.from_row_lengths(indexing_ops.boolean_mask(tensor, mask), lengths,
                                    validate=False)


def _lengths_before_padding(tensor: Tensor, padding: Any, ncols: Tensor,
                            dtype: D.DType) -> Tensor:
    """Each row's length up to its last element that is not all `padding`."""
    padding = convert_to_tensor(padding, dtype=tensor.dtype, name="padding")
    padding.shape.assert_is_compatible_with(tensor.shape[2:])
    is_padding = math_ops.equal(tensor, padding)
    rank = tensor.shape.rank
    if rank is None:
        raise NotImplementedError("RaggedTensor.from_tensor(padding=...) of a tensor of "
                                  "unknown rank is not supported by tf1compat")
    if rank > 2:
        is_padding = reduction_ops.reduce_all(is_padding, axis=list(range(2, rank)))
    kept = math_ops.cast(math_ops.logical_not(is_padding), dtype)
    positions = creation_ops.range(1, ncols + 1, dtype=dtype)
    longest = reduction_ops.reduce_max(kept * array_ops.expand_dims(positions, 0), axis=1)
    return math_ops.maximum(longest, math_ops.cast(0, dtype))


def _from_tensor_nested(cls: Any, tensor: Tensor, padding: Any, ragged_rank: int,
                        dims: Tensor) -> Any:
    """ragged_rank > 1: the innermost ragged dimension from the flattened outer ones, then
    uniform splits for each outer dimension."""
    flat = array_ops.reshape(tensor, array_ops.concat([[-1], dims[ragged_rank:]], 0))
    result = cls.from_tensor(flat, padding=padding, row_splits_dtype=dims.dtype)
    for axis in range(ragged_rank - 1, 0, -1):
        nrows = reduction_ops.reduce_prod(dims[:axis])
        splits = creation_ops.range(nrows + 1, dtype=dims.dtype) * dims[axis]
        result = cls.from_row_splits(result, splits, validate=False)
    return result


def to_tensor(rt: Any, default_value: Any, name: Optional[str], shape: Any = None) -> Tensor:
    """`RaggedTensor.to_tensor`: row i's values, then `default_value` up to the longest row;
    with `shape`, cut or padded with `default_value` to each of its known dimensions."""
    if shape is not None:
        shape = TensorShape(shape)
        uniform = rt.flat_values.shape[1:]
        if shape.rank is not None and not shape[shape.rank - uniform.rank:] \
                .is_compatible_with(uniform):
            raise ValueError(f"rt_input.shape and shape={shape.as_list()} are incompatible: "
                             "the uniform inner dimensions differ")
        with name_scope(name, "RaggedToTensor", [rt, default_value]):
            return _fit(to_tensor(rt, default_value, None), shape, rt.dtype, default_value)
    with name_scope(name, "RaggedToTensor", [rt, default_value]):
        inner = rt.values
        if hasattr(inner, "row_splits"):
            inner = to_tensor(inner, default_value, None)
        if default_value is None:
            default_value = "" if rt.dtype == D.string else 0
        default = convert_to_tensor(default_value, dtype=rt.dtype, name="default_value")
        if default.shape.rank:
            default.shape.assert_is_compatible_with(inner.shape[1:])
        splits = rt.row_splits
        lengths = R.splits_to_lengths(splits)
        ncols = math_ops.maximum(reduction_ops.reduce_max(lengths), math_ops.cast(0, splits.dtype))
        inner_dims = array_ops.shape(inner, out_type=splits.dtype)
        pad_row = transform_ops.broadcast_to(
            default, array_ops.concat([[1], inner_dims[1:]], 0))
        padded = array_ops.concat([inner, pad_row], 0)
        positions = array_ops.expand_dims(R.drop_last(splits), 1) + \
            array_ops.expand_dims(creation_ops.range(ncols, dtype=splits.dtype), 0)
        mask = indexing_ops.sequence_mask(lengths, ncols)
        positions = indexing_ops.where_v2(mask, positions, inner_dims[0])
        dense = indexing_ops.gather(padded, positions)
        dense.set_shape(TensorShape([rt.shape[0], None]).concatenate(inner.shape[1:]))
        return dense


def _fit(dense: Tensor, shape: TensorShape, dtype: Any, default_value: Any) -> Tensor:
    """`dense` cut to, then padded with the scalar `default_value` up to, `shape`'s known
    dimensions (TF 2.21's `to_tensor(shape=)`)."""
    shape = shape.merge_with(TensorShape(None).with_rank(dense.shape.rank)) \
        if shape.rank is not None else TensorShape(None).with_rank(dense.shape.rank)
    if default_value is None:
        default_value = "" if dtype == D.string else 0
    default = convert_to_tensor(default_value, dtype=dtype, name="default_value")
    if default.shape.rank:
        raise NotImplementedError("RaggedTensor.to_tensor(shape=...) with a non-scalar "
                                  "default_value is not supported by tf1compat")
    dims = shape.as_list()
    have = array_ops.shape(dense)
    size = array_ops.stack([-1 if d is None else math_ops.minimum(d, have[i])
                            for i, d in enumerate(dims)])
    cut = strided_slice.slice(dense, [0] * len(dims), size)
    paddings = array_ops.stack([array_ops.stack([0, 0 if d is None else
                                                 math_ops.maximum(d - have[i], 0)])
                                for i, d in enumerate(dims)])
    out = transform_ops.pad(cut, paddings, constant_values=default)
    out.set_shape(shape)
    return out


def to_sparse(rt: Any, name: Optional[str]) -> SparseTensor:
    """`RaggedTensor.to_sparse`: one entry per element, indexed by its row and column."""
    with name_scope(name, "RaggedToSparse", [rt]):
        flat = rt.flat_values
        if flat.shape.rank == 1:
            nvals = array_ops.shape(flat, out_type=D.int64)[0]
            indices = array_ops.reshape(creation_ops.range(nvals, dtype=D.int64), [-1, 1])
            values = flat
        else:
            everywhere = creation_ops.fill(array_ops.shape(flat), True)
            indices = indexing_ops.where(everywhere)
            values = array_ops.reshape(flat, [-1])
        for splits in reversed(rt.nested_row_splits):
            splits = math_ops.cast(splits, D.int64)
            positions = indices[:, 0]
            rows = indexing_ops.gather(R.splits_to_rowids(splits), positions)
            cols = positions - indexing_ops.gather(splits, rows)
            indices = array_ops.concat([array_ops.stack([rows, cols], 1), indices[:, 1:]], 1)
        dense_shape = rt.bounding_shape(out_type=D.int64)
        return SparseTensor(indices, values, dense_shape)
