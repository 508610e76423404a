"""Sparse components of dataset elements.

In the graph a SparseTensor component is one variant tensor, as in TF: `SerializeSparse`
(`SerializeManySparse` for from_tensor_slices) packs a SparseTensor into it, and an
iterator's output is unpacked with `DeserializeSparse`. At run time the variant holds a
`SparseValue` (indices, values, dense_shape).
"""

from __future__ import annotations

from typing import Any, Callable, List

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.data._runtime import SparseValue
from tf1compat.data.structure import SparseTensorSpec

__all__ = ["serialize_sparse", "deserialize_sparse_component"]


def _serialize_kernel(node: Any, kctx: Any) -> Callable[..., SparseValue]:
    if node.attrs["out_type"] != D.variant:
        raise NotImplementedError("tf.io.serialize_sparse to strings is not supported by "
                                  "tf1compat (only dataset components, out_type=variant).")
    return lambda indices, values, shape: SparseValue(indices, values, shape)


_SERIALIZE_ATTRS = {"T": Type(), "out_type": Type(default=D.string)}
declare("SerializeSparse", inputs=["sparse_indices: int64", "sparse_values: T",
                                   "sparse_shape: int64"],
        outputs=["serialized_sparse: out_type"], attrs=dict(_SERIALIZE_ATTRS),
        shape=lambda ctx: [TensorShape([3])], kernel=_serialize_kernel, grad="none",
        cpu_only=True, doc="A SparseTensor as one variant (a dataset component).")
declare("SerializeManySparse", inputs=["sparse_indices: int64", "sparse_values: T",
                                       "sparse_shape: int64"],
        outputs=["serialized_sparse: out_type"], attrs=dict(_SERIALIZE_ATTRS),
        shape=lambda ctx: [TensorShape([None, 3])], kernel=_serialize_kernel, grad="none",
        cpu_only=True, doc="A batch of sparse rows as one variant (from_tensor_slices).")


def _deserialize_kernel(node: Any, kctx: Any) -> Callable[[Any], tuple]:
    def run(value: SparseValue) -> tuple:
        return value.indices, value.values, value.dense_shape
    return run


def _deserialize_shape(ctx: Any) -> List[TensorShape]:
    return [TensorShape([None, None]), TensorShape([None]), TensorShape([None])]


declare("DeserializeSparse", inputs=["serialized_sparse: Tserialized"],
        outputs=["sparse_indices: int64", "sparse_values: dtype", "sparse_shape: int64"],
        attrs={"dtype": Type(), "Tserialized": Type(default=D.string)},
        shape=_deserialize_shape, kernel=_deserialize_kernel, grad="none", cpu_only=True,
        doc="The SparseTensor in a variant dataset component.")


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
