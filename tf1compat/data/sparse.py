"""Sparse components of dataset elements.

In the graph a SparseTensor component is one variant tensor, as in TF: `SerializeSparse`
(`SerializeManySparse` for from_tensor_slices) packs a SparseTensor into it, and an
iterator's output is unpacked with `DeserializeSparse` (the ops are declared in
ops/sparse_serialization_ops.py). At run time the variant holds a `SparseValue` (indices,
values, dense_shape).
"""

from __future__ import annotations

import tf1compat.ops.sparse_serialization_ops  # noqa: F401 - declares the ops used here

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.data.structure import SparseTensorSpec

__all__ = ["serialize_sparse", "deserialize_sparse_component"]


def serialize_sparse(value: SparseTensor, batched: bool) -> Tensor:
    op_type = "SerializeManySparse" if batched else "SerializeSparse"
    return apply_op(op_type, [value.indices, value.values, value.dense_shape],
                    {"out_type": D.variant})._outputs[0]


def deserialize_sparse_component(spec: SparseTensorSpec, tensor: Tensor) -> SparseTensor:
    """TF's SparseTensorSpec._from_compatible_tensor_list for an iterator output."""
    from tf1compat.ops.array_ops import stack, unstack
    from tf1compat.framework.constant_op import constant
    op = apply_op("DeserializeSparse", [tensor], {"dtype": spec.dtype})
    indices, values, dense_shape = op._outputs
    shape = spec.shape
    rank = shape.rank
    indices.set_shape([None, rank])
    if shape.is_fully_defined():
        dense_shape = convert_to_tensor(shape, dtype=D.int64, name="shape")
    elif rank is not None and any(d is not None for d in shape.as_list()):
        pieces = unstack(dense_shape, num=rank)
        for i, d in enumerate(shape.as_list()):
            if d is not None:
                pieces[i] = constant(d, dense_shape.dtype)
        dense_shape = stack(pieces)
    else:
        dense_shape.set_shape([rank])
    result = SparseTensor(indices, values, dense_shape)
    result._dense_shape_default = shape
    return result
