"""RaggedTensor components of dataset elements (TF's RaggedTensorSpec in tf.data).

In the graph a RaggedTensorSpec component is one variant tensor, as in TF:
`RaggedTensorToVariant` packs a RaggedTensor into it (`batched_input=True` for
from_tensor_slices) and an iterator's output is unpacked by `RaggedTensorFromVariant`
(ops/ragged_variant_ops.py); a dataset function takes and returns the variant, decoded
and encoded inside the function, as TF writes it. A component of ragged_rank 0 (a slice
of a ragged_rank-1 tensor, a variable-length element `dense_to_ragged_batch` makes
batchable) decodes to a dense tensor. At run time the
variant holds a `RaggedValue`; batching k of them builds a RaggedTensor of one more ragged
rank, slicing one takes a row, as TF's kernels do.
"""

from __future__ import annotations

from typing import Any, List

import numpy as np
import torch

import tf1compat.ops.ragged_variant_ops  # noqa: F401 - declares the ops used here
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops.ragged_variant_ops import RaggedValue
from tf1compat.ragged.ragged_tensor import RaggedTensor
from tf1compat.ragged.ragged_tensor_spec import RaggedTensorSpec

__all__ = [
    "RaggedValue",
    "batch_ragged",
    "batched_encoding",
    "check_ragged_rank",
    "ragged_batch",
    "ragged_component",
    "ragged_from_variant",
    "ragged_nrows",
    "slice_ragged",
]


def check_ragged_rank(spec: RaggedTensorSpec) -> None:
    """tf1compat carries ragged components of ragged_rank >= 0 (TF also lets an unbatched
    ragged_rank-0 component go negative, to be batched again)."""
    if spec.ragged_rank < 0:
        raise NotImplementedError(
            f"tf.data elements of a RaggedTensorSpec with a negative ragged_rank ({spec!r}: "
            "unbatch() of a dataset whose ragged elements have ragged_rank 0) are not "
            "supported by tf1compat")
    if spec.flat_values_spec is not None:
        raise ValueError("Customized value_type is not supported.")


# -- graph side ------------------------------------------------------------------------------

def _to_variant(splits: List[Tensor], values: Tensor, batched: bool,
                splits_dtype: D.DType) -> Tensor:
    return apply_op("RaggedTensorToVariant", [splits, values],
                    {"batched_input": batched, "Tsplits": splits_dtype})._outputs[0]


def ragged_component(value: Any, batched: bool) -> Tensor:
    """A RaggedTensor dataset component as its variant tensor (TF's `_to_variant`)."""
    with name_scope("RaggedToVariant"):
        return _to_variant(list(value.nested_row_splits), value.flat_values, batched,
                           value.row_splits_dtype)


def _to_ragged_spec(spec: Any, row_splits_dtype: D.DType) -> Any:
    """TF's dense_to_ragged spec: a dense component of a partly known shape becomes
    ragged up to its last unknown dimension."""
    from tf1compat.data.structure import TensorSpec
    shape = getattr(spec, "shape", None)
    if not isinstance(spec, TensorSpec) or shape.rank is None or shape.is_fully_defined():
        return spec
    ragged_rank = max(axis for axis, size in enumerate(shape.as_list()) if size is None)
    return RaggedTensorSpec(shape, spec.dtype, ragged_rank, row_splits_dtype)


def _as_variants(dataset: Any, encode: Any, spec: Any) -> Any:
    """`dataset` mapped by `encode` over its components, its elements read as `spec` (the
    components `encode` turns into variants are read back by their RaggedTensorSpecs)."""
    from tf1compat.data import structure
    from tf1compat.data.dataset_ops import DatasetV1Adapter
    unpacked = type(dataset.element_spec) is tuple     # map passes a tuple's items apart

    def map_fn(*value: Any) -> Any:
        return structure.map_structure(encode, value if unpacked else value[0])
    mapped = dataset.map(map_fn)
    return DatasetV1Adapter(mapped._variant_tensor, spec, [mapped])


def batched_encoding(dataset: Any) -> Any:
    """TF's normalize_to_dense before unbatch: ragged components as batched variants (one
    per row), which UnbatchDataset slices."""
    return _as_variants(dataset, lambda v: ragged_component(v, True)
                        if isinstance(v, RaggedTensor) else v, dataset.element_spec)


def ragged_batch(dataset: Any, batch_size: Any, drop_remainder: Any = False,
                 row_splits_dtype: Any = D.int64, name: Any = None) -> Any:
    """`Dataset.ragged_batch` / `dense_to_ragged_batch`: dense components whose shape is
    not fully known are encoded as ragged ones (ragged_rank up to their last unknown
    dimension), so elements of different shapes batch into a RaggedTensor."""
    from tf1compat.data import structure
    splits_dtype = D.as_dtype(row_splits_dtype)
    spec = structure.map_structure(lambda s: _to_ragged_spec(s, splits_dtype),
                                   dataset.element_spec)

    def to_ragged_variant(value: Any) -> Any:
        if not isinstance(value, Tensor) or value.shape.rank is None or \
                value.shape.is_fully_defined():
            return value
        target = _to_ragged_spec(structure.TensorSpec(value.shape, value.dtype), splits_dtype)
        if target.ragged_rank == 0:
            return _to_variant([], value, False, D.int64)
        # TF's from_tensor here keeps int64 splits whatever row_splits_dtype says, so an
        # int32 row_splits_dtype fails when the batch is decoded, as in TF
        return ragged_component(RaggedTensor.from_tensor(
            value, ragged_rank=target.ragged_rank), False)

    return _as_variants(dataset, to_ragged_variant, spec).batch(batch_size, drop_remainder,
                                                                name=name)


def _assemble(spec: RaggedTensorSpec, flat_values: Tensor, splits: List[Tensor]) -> Any:
    """A RaggedTensor (a Tensor for ragged_rank 0) of `spec`'s shape from its parts."""
    shape = spec.shape
    if spec.ragged_rank == 0:
        if shape.rank is not None:
            flat_values.set_shape(shape)
        return flat_values
    if shape.rank is not None:
        flat_values.set_shape(TensorShape([None]).concatenate(shape[spec.ragged_rank + 1:]))
        outer = shape.as_list()[0]
        splits[0].set_shape([None if outer is None else outer + 1])
    result: Any = flat_values
    for row_splits in reversed(splits):
        result = RaggedTensor(result, row_splits, internal=True)
    return result


def ragged_from_variant(spec: RaggedTensorSpec, tensor: Tensor) -> Any:
    """TF's RaggedTensorSpec._from_compatible_tensor_list for an iterator output."""
    check_ragged_rank(spec)
    with name_scope("RaggedFromVariant"):
        op = apply_op("RaggedTensorFromVariant", [tensor],
                      {"input_ragged_rank": -1, "output_ragged_rank": spec.ragged_rank,
                       "Tvalues": spec.dtype, "Tsplits": spec.row_splits_dtype})
    *splits, values = op._outputs
    return _assemble(spec, values, list(splits))


# -- run time --------------------------------------------------------------------------------

def _cat(parts: List[Any]) -> Any:
    if isinstance(parts[0], torch.Tensor):
        try:
            return torch.cat(parts)
        except RuntimeError as e:
            raise errors.InvalidArgumentError(
                None, None, "Cannot batch ragged components whose values have different "
                            f"inner shapes: {e}") from None
    return np.concatenate([np.asarray(p, dtype=object) for p in parts])


def ragged_nrows(value: RaggedValue) -> int:
    """The outer dimension of a ragged component."""
    if value.nested_splits:
        return int(value.nested_splits[0].shape[0]) - 1
    values = value.flat_values
    if not len(values.shape):
        raise errors.InvalidArgumentError(None, None, "Input element must have a non-scalar "
                                                      "value in each component.")
    return int(values.shape[0])


def batch_ragged(values: List[RaggedValue]) -> RaggedValue:
    """k ragged components as one of ragged rank + 1: the rows of element j are row j."""
    first = values[0]
    # splits made here for ragged_rank-0 values take the decoding op's dtype later
    dtype = first.nested_splits[0].dtype if first.nested_splits else torch.int64
    counts = torch.tensor([0] + [ragged_nrows(v) for v in values], dtype=dtype)
    splits = [torch.cumsum(counts, 0).to(dtype)]
    for level in range(len(first.nested_splits)):
        pieces, offset = [torch.zeros(1, dtype=dtype)], 0
        for v in values:
            s = v.nested_splits[level]
            pieces.append(s[1:] + offset)
            offset += int(s[-1])
        splits.append(torch.cat(pieces))
    flat = _cat([v.flat_values for v in values])
    return RaggedValue(flat, tuple(splits), first.splits_dtype)


def slice_ragged(value: RaggedValue, i: int) -> RaggedValue:
    """Row i of a ragged component (one ragged rank less)."""
    splits = value.nested_splits
    if not splits:
        raise errors.UnimplementedError(None, None, "Slicing a ragged component of "
                                                    "ragged_rank 0 is not supported by "
                                                    "tf1compat.")
    start, end = int(splits[0][i]), int(splits[0][i + 1])
    inner = []
    for s in splits[1:]:
        piece = s[start:end + 1]
        inner.append(piece - piece[0])
        start, end = int(s[start]), int(s[end])
    return RaggedValue(value.flat_values[start:end], tuple(inner), value.splits_dtype)
