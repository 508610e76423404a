"""Sparse components of dataset elements.

In the graph a SparseTensor component is one variant tensor, as in TF: `SerializeSparse`
(`SerializeManySparse` for from_tensor_slices) packs a SparseTensor into it, and an
iterator's output is unpacked with `DeserializeSparse`. At run time the variant holds a
`SparseValue` (indices, values, dense_shape). With TF's default `out_type=string` the same
ops write TF's bytes: three serialized TensorProtos per SparseTensor (tf.raw_ops.
SerializeSparse and DeserializeSparse interoperate with TF's).
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import node_desc
from tf1compat.serialization.tensor_content import (parse_tensor_content,
                                                    serialize_tensor_content)
from tf1compat.data._runtime import SparseValue
from tf1compat.data.structure import SparseTensorSpec

__all__ = ["serialize_sparse", "serialize_many_sparse", "deserialize_many_sparse",
           "sparse_component", "deserialize_sparse_component"]


def _numpy(value: Any) -> np.ndarray:
    return value.cpu().numpy() if isinstance(value, torch.Tensor) else np.asarray(value)


def _serialized(dtype: D.DType, indices: np.ndarray, values: Any,
                shape: np.ndarray) -> np.ndarray:
    return np.array([serialize_tensor_content(D.int64, indices),
                     serialize_tensor_content(dtype, values),
                     serialize_tensor_content(D.int64, shape)], dtype=object)


def _check_ordered(indices: np.ndarray) -> None:
    for i in range(1, len(indices)):
        if tuple(indices[i]) <= tuple(indices[i - 1]):
            raise errors.InvalidArgumentError(
                None, None, f"indices[{i}] = [{','.join(map(str, indices[i]))}] is out of "
                "order. Many sparse ops require sorted indices.")


def _serialize_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    out_type, dtype = node.attrs["out_type"], node.attrs["T"]
    if out_type == D.variant:
        return lambda indices, values, shape: SparseValue(indices, values, shape)
    if out_type != D.string:
        raise NotImplementedError(f"{node.type} with out_type={out_type.name} is not "
                                  "supported by tf1compat (string or variant).")
    if node.type == "SerializeSparse":
        return lambda indices, values, shape: _serialized(
            dtype, _numpy(indices), _numpy(values), _numpy(shape))

    def serialize_many(indices: Any, values: Any, shape: Any) -> np.ndarray:
        # One row per entry of the first dimension: its elements, rank one lower.
        indices, values, shape = _numpy(indices), _numpy(values), _numpy(shape)
        _check_ordered(indices)
        rows = [_serialized(dtype, indices[indices[:, 0] == b][:, 1:],
                            values[indices[:, 0] == b], shape[1:])
                for b in range(int(shape[0]))]
        return np.stack(rows) if rows else np.empty((0, 3), dtype=object)
    return serialize_many


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


def _parse(data: bytes, dtype: D.DType, what: str) -> np.ndarray:
    try:
        got, value = parse_tensor_content(data)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f"Could not parse serialized sparse {what}") from None
    if got != dtype:
        raise errors.InvalidArgumentError(
            None, None, f"Requested SparseTensor of type {dtype.name} but SparseTensor"
            f"[0].values.dtype() == {got.name}")
    return value


def _deserialize_strings(serialized: np.ndarray, dtype: D.DType) -> tuple:
    """TF's DeserializeSparse of [..., 3] strings: leading dimensions become a batch
    prefix of the indices, the dense shape the batch dims then each dimension's max."""
    batch = list(serialized.shape[:-1])
    parts = [(_parse(ind, D.int64, "indices"), _parse(val, dtype, "values"),
              _parse(shp, D.int64, "shape"))
             for ind, val, shp in serialized.reshape(-1, 3)]
    if not batch:
        return parts[0]
    ranks = {len(shp) for _, _, shp in parts}
    if len(ranks) > 1:
        raise errors.InvalidArgumentError(
            None, None, "Inconsistent shape across SparseTensors: rank prior to "
            "SparseTensor[0] was: " + str(len(parts[0][2])))
    rank = ranks.pop() if ranks else 0
    prefix = np.indices(batch).reshape(len(batch), -1).T
    indices = np.concatenate(
        [np.hstack([np.tile(prefix[i], (len(ind), 1)), ind.reshape(-1, rank)])
         for i, (ind, _, _) in enumerate(parts)] or [np.zeros((0, len(batch)), np.int64)])
    values = np.concatenate([val for _, val, _ in parts]) if parts else np.zeros(0)
    dims = np.max([shp for _, _, shp in parts], axis=0) if parts and rank else []
    return (indices.astype(np.int64), values.astype(object if dtype == D.string else
                                                    values.dtype),
            np.array(batch + list(dims), np.int64))


def _deserialize_kernel(node: Any, kctx: Any) -> Callable[[Any], tuple]:
    dtype = node.attrs["dtype"]

    def run(value: Any) -> tuple:
        if isinstance(value, SparseValue):
            return value.indices, value.values, value.dense_shape
        indices, values, shape = _deserialize_strings(_numpy(value), dtype)
        values = values if dtype == D.string else torch.from_numpy(np.ascontiguousarray(
            values.astype(dtype.as_numpy_dtype)))
        return torch.from_numpy(indices), values, torch.from_numpy(shape)
    return run


def _deserialize_shape(ctx: Any) -> List[TensorShape]:
    serialized = ctx.shape(0)
    if ctx.attrs["Tserialized"] == D.string and serialized.rank is not None:
        if serialized.rank == 0 or serialized.as_list()[-1] not in (None, 3):
            if serialized.rank == 0:
                raise ValueError(f"Shape must be at least rank 1 but is rank 0 "
                                 f"{node_desc(ctx)}")
            raise ValueError(f"Dimension must be 3 but is {serialized.as_list()[-1]} "
                             f"{node_desc(ctx)}")
    return [TensorShape([None, None]), TensorShape([None]), TensorShape([None])]


declare("DeserializeSparse", inputs=["serialized_sparse: Tserialized"],
        outputs=["sparse_indices: int64", "sparse_values: dtype", "sparse_shape: int64"],
        attrs={"dtype": Type(), "Tserialized": Type(default=D.string)},
        shape=_deserialize_shape, kernel=_deserialize_kernel, grad="none", cpu_only=True,
        doc="The SparseTensor in a variant dataset component, or in TF's three "
            "serialized TensorProtos per SparseTensor ([..., 3] strings: a batch).")


def _deserialize_many_shape(ctx: Any) -> List[TensorShape]:
    if ctx.shape(0).rank not in (None, 2):
        raise ValueError(f"Shape must be rank 2 but is rank {ctx.shape(0).rank} "
                         f"{node_desc(ctx)}")
    return [TensorShape([None, None]), TensorShape([None]), TensorShape([None])]


declare("DeserializeManySparse", inputs=["serialized_sparse: string"],
        outputs=["sparse_indices: int64", "sparse_values: dtype", "sparse_shape: int64"],
        attrs={"dtype": Type()}, shape=_deserialize_many_shape,
        kernel=_deserialize_kernel, grad="none", cpu_only=True,
        doc="A minibatch of serialized SparseTensors ([N, 3] strings) as one SparseTensor.")


def serialize_sparse(sp_input: Any, name: Optional[str] = None,
                     out_type: D.DType = D.string) -> Tensor:
    """`tf.io.serialize_sparse`: a SparseTensor as three serialized TensorProtos."""
    sp_input = SparseTensor.from_value(sp_input)
    return apply_op("SerializeSparse", [sp_input.indices, sp_input.values,
                                        sp_input.dense_shape],
                    {"out_type": D.as_dtype(out_type)}, name=name)._outputs[0]


def serialize_many_sparse(sp_input: Any, name: Optional[str] = None,
                          out_type: D.DType = D.string) -> Tensor:
    """`tf.io.serialize_many_sparse`: each row of a rank >= 2 SparseTensor (ordered
    indices) serialized as `serialize_sparse` does, as an [N, 3] string tensor."""
    sp_input = SparseTensor.from_value(sp_input)
    return apply_op("SerializeManySparse", [sp_input.indices, sp_input.values,
                                            sp_input.dense_shape],
                    {"out_type": D.as_dtype(out_type)}, name=name)._outputs[0]


def deserialize_many_sparse(serialized_sparse: Any, dtype: D.DType,
                            rank: Optional[int] = None,
                            name: Optional[str] = None) -> SparseTensor:
    """`tf.io.deserialize_many_sparse`: [N, 3] serialized SparseTensors of one rank as
    one SparseTensor with a leading batch dimension (`rank` counts it)."""
    indices, values, shape = apply_op("DeserializeManySparse", [serialized_sparse],
                                      {"dtype": D.as_dtype(dtype)}, name=name)._outputs
    indices.set_shape([None, rank])
    shape.set_shape([rank])
    return SparseTensor(indices, values, shape)


def sparse_component(value: SparseTensor, batched: bool) -> Tensor:
    """A SparseTensor dataset component as its variant tensor."""
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
