"""SparseTensors as strings (or variants) and back: SerializeSparse, SerializeManySparse,
DeserializeSparse, DeserializeManySparse (`tf.serialize_sparse`,
`tf.serialize_many_sparse`, `tf.deserialize_many_sparse`, and their `tf.io` names).

A serialized SparseTensor is three TensorProtos (indices, values, dense shape) written as
TF's `Tensor::AsProtoTensorContent` writes them: every value in `tensor_content` (strings as
their varint lengths, then their bytes), nothing for an empty tensor, so the bytes equal
TF's and strings TF wrote parse here. The variant form (tf.data's sparse dataset
components) holds the tensors themselves as one `SparseValue`; for SerializeManySparse it
is the whole batch, which tf.data slices per element (TF writes one variant per row; the
SparseTensor DeserializeSparse rebuilds is the same).
"""

from __future__ import annotations

import collections
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.sparse_tensor import SparseTensor, SparseTensorValue
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import node_desc
from tf1compat.serialization import tensor_codec
from tf1compat.serialization.messages import TensorProto
from tf1compat.serialization.tensor_proto import shape_to_proto

__all__ = ["serialize_sparse", "serialize_many_sparse", "deserialize_many_sparse",
           "SparseValue"]

# What a variant SerializeSparse / SerializeManySparse output holds at run time.
SparseValue = collections.namedtuple("SparseValue", ["indices", "values", "dense_shape"])

_Parts = Tuple[np.ndarray, np.ndarray, np.ndarray]


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _read_varint(data: bytes, pos: int) -> Tuple[int, int]:
    value, shift = 0, 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7


def _tensor_bytes(value: np.ndarray, dtype: D.DType) -> bytes:
    """TF's AsProtoTensorContent of one tensor."""
    proto = TensorProto(dtype=dtype.as_datatype_enum,
                        tensor_shape=shape_to_proto(TensorShape(list(value.shape))))
    if value.size:
        if dtype == D.string:
            items = [bytes(v) for v in value.reshape(-1).tolist()]
            proto.tensor_content = b"".join(_varint(len(v)) for v in items) + b"".join(items)
        else:
            storage = tensor_codec.storage_dtype(dtype)
            proto.tensor_content = tensor_codec.contiguous(
                np.asarray(value).astype(storage)).tobytes()
    return proto.SerializeToString()


def _parse_tensor(data: bytes) -> Tuple[D.DType, np.ndarray]:
    try:
        proto = TensorProto.FromString(data)
        dtype = D.as_dtype(proto.dtype)
        shape = [int(d.size) for d in proto.tensor_shape.dim]
        count = int(np.prod(shape, dtype=np.int64))
        if dtype == D.string:
            items: List[bytes] = list(proto.string_val)
            content = proto.tensor_content
            if content and not items:
                lengths, pos = [], 0
                for _ in range(count):
                    n, pos = _read_varint(content, pos)
                    lengths.append(n)
                for n in lengths:
                    items.append(content[pos:pos + n])
                    pos += n
            values = np.empty(count, dtype=object)
            values[:] = items if items else []
            return dtype, values.reshape(shape)
        from tf1compat.serialization.tensor_proto import proto_to_ndarray
        if count == 0:
            return dtype, np.zeros(shape, dtype=tensor_codec.storage_dtype(dtype))
        return proto_to_ndarray(proto)
    except Exception:  # noqa: BLE001 - any malformed proto is TF's one error
        raise _invalid("Could not construct tensor from proto") from None


def _host(x: Any) -> np.ndarray:
    if isinstance(x, torch.Tensor):
        return x.detach().cpu().numpy()
    return np.asarray(x, dtype=object) if not isinstance(x, np.ndarray) else x


def _pack(parts: _Parts, dtype: D.DType) -> Any:
    indices, values, shape = parts
    out = np.empty(3, dtype=object)
    out[:] = [_tensor_bytes(indices, D.int64), _tensor_bytes(values, dtype),
              _tensor_bytes(shape, D.int64)]
    return out


def _unpack(row: Any) -> List[Tuple[D.DType, np.ndarray]]:
    return [_parse_tensor(bytes(item)) for item in row]


# -- Serialize -------------------------------------------------------------------------------

def _serialize_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    many = node.type == "SerializeManySparse"
    variant = node.attrs["out_type"] == D.variant
    dtype = node.attrs["T"]

    def serialize(indices: Any, values: Any, shape: Any) -> Any:
        if many and shape.numel() < 2:
            raise _invalid(f"Rank of input SparseTensor should be > 1, but saw rank: "
                           f"{shape.numel()}")
        if variant:
            return SparseValue(indices, values, shape)
        idx, val, dims = _host(indices), _host(values), _host(shape)
        if not many:
            return _pack((idx, val, dims), dtype)
        rows = int(dims[0])
        out = np.empty((rows, 3), dtype=object)
        for b in range(rows):
            keep = idx[:, 0] == b
            out[b] = _pack((idx[keep][:, 1:], val[keep], dims[1:]), dtype)
        return out
    return serialize


def _serialize_shape(ctx: Any) -> List[TensorShape]:
    return [TensorShape([3] if ctx.op_type == "SerializeSparse" else [None, 3])]


for _type in ("SerializeSparse", "SerializeManySparse"):
    declare(_type, inputs=["sparse_indices: int64", "sparse_values: T", "sparse_shape: int64"],
            outputs=["serialized_sparse: out_type"],
            attrs={"T": Type(), "out_type": Type((D.string, D.variant), default=D.string)},
            shape=_serialize_shape, kernel=_serialize_kernel, grad="unregistered",
            cpu_only=True)


# -- Deserialize -----------------------------------------------------------------------------

def _combine(rows: List[List[Tuple[D.DType, np.ndarray]]], dtype: D.DType,
             leading: List[int]) -> tuple:
    """Sparse parts of a batch of serialized SparseTensors, batch dims prepended."""
    indices, values, dims = [], [], None
    rank = None
    for i, parts in enumerate(rows):
        (_, idx), (vdtype, val), (_, shape) = parts
        if vdtype != dtype:
            raise _invalid(f"Requested SparseTensor of type {dtype.name} but "
                           f"SparseTensor[{i}].values.dtype() == {vdtype.name}")
        shape = np.asarray(shape, dtype=np.int64).reshape(-1)
        if rank is None:
            rank, dims = shape.size, shape.copy()
        elif shape.size != rank:
            raise _invalid(f"Inconsistent shape across SparseTensors: rank prior to "
                           f"SparseTensor[{i}] was: {rank} but rank of SparseTensor[{i}] "
                           f"is: {shape.size}")
        else:
            dims = np.maximum(dims, shape)
        position = np.unravel_index(i, leading) if leading else ()
        idx = np.asarray(idx, dtype=np.int64).reshape(-1, rank)
        prefix = np.tile(np.asarray(position, dtype=np.int64), (idx.shape[0], 1))
        indices.append(np.concatenate([prefix, idx], axis=1))
        values.append(np.asarray(val).reshape(-1))
    rank = rank or 0
    all_indices = np.concatenate(indices) if indices else \
        np.zeros((0, len(leading) + rank), np.int64)
    all_values = np.concatenate(values) if values else np.zeros(0, dtype=object)
    shape = np.concatenate([np.asarray(leading, np.int64),
                            dims if dims is not None else np.zeros(0, np.int64)])
    order = np.lexsort(all_indices.T[::-1]) if all_indices.size else np.arange(0)
    out_values = all_values[order]
    if dtype == D.string:
        return (torch.from_numpy(all_indices[order]), out_values,
                torch.from_numpy(shape))
    return (torch.from_numpy(all_indices[order]),
            torch.from_numpy(np.ascontiguousarray(out_values)).to(dtype.torch_dtype),
            torch.from_numpy(shape))


def _deserialize_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["dtype"]

    def deserialize(serialized: Any) -> tuple:
        if isinstance(serialized, SparseValue):
            return tuple(serialized)
        data = np.asarray(serialized, dtype=object)
        if data.ndim < 1 or data.shape[-1] != 3:
            raise _invalid(f"Serialized sparse should have 3 as the last dimension "
                           f"{list(data.shape)}")
        leading = list(data.shape[:-1])
        rows = [_unpack(row) for row in data.reshape(-1, 3)]
        return _combine(rows, dtype, leading)
    return deserialize


def _deserialize_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    if ctx.op_type == "DeserializeManySparse" and s.rank is not None and s.rank != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {s.rank} {node_desc(ctx)}")
    return [TensorShape([None, None]), TensorShape([None]), TensorShape([None])]


declare("DeserializeSparse", inputs=["serialized_sparse: Tserialized"],
        outputs=["sparse_indices: int64", "sparse_values: dtype", "sparse_shape: int64"],
        attrs={"dtype": Type(), "Tserialized": Type((D.string, D.variant), default=D.string)},
        shape=_deserialize_shape, kernel=_deserialize_kernel, grad="unregistered",
        cpu_only=True)
declare("DeserializeManySparse", inputs=["serialized_sparse: string"],
        outputs=["sparse_indices: int64", "sparse_values: dtype", "sparse_shape: int64"],
        attrs={"dtype": Type()}, shape=_deserialize_shape, kernel=_deserialize_kernel,
        grad="unregistered", cpu_only=True)


# -- wrappers ----------------------------------------------------------------------------------

def _as_sparse(sp_input: Any) -> SparseTensor:
    if isinstance(sp_input, SparseTensorValue):
        return SparseTensor.from_value(sp_input)
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    return sp_input


def _serialize(op_type: str, sp_input: Any, out_type: Any, name: Optional[str]) -> Tensor:
    sp = _as_sparse(sp_input)
    return apply_op(op_type, [sp.indices, sp.values, sp.dense_shape],
                    {"out_type": D.as_dtype(out_type)}, name=name).outputs[0]


def serialize_sparse(sp_input: Any, name: Optional[str] = None,
                     out_type: Any = D.string) -> Tensor:
    """`tf.serialize_sparse`: a SparseTensor as a [3] vector of serialized TensorProtos."""
    return _serialize("SerializeSparse", sp_input, out_type, name)


def serialize_many_sparse(sp_input: Any, name: Optional[str] = None,
                          out_type: Any = D.string) -> Tensor:
    """`tf.serialize_many_sparse`: each minibatch entry (first dimension) of a SparseTensor
    serialized, as an [N, 3] matrix."""
    return _serialize("SerializeManySparse", sp_input, out_type, name)


def deserialize_many_sparse(serialized_sparse: Any, dtype: Any, rank: Optional[int] = None,
                            name: Optional[str] = None) -> SparseTensor:
    """`tf.deserialize_many_sparse`: an [N, 3] matrix of serialized SparseTensors as one
    SparseTensor with a leading batch dimension (each dimension the largest seen)."""
    indices, values, shape = apply_op("DeserializeManySparse", [serialized_sparse],
                                      {"dtype": D.as_dtype(dtype)}, name=name).outputs
    indices.set_shape([None, rank])
    shape.set_shape([rank])
    return SparseTensor(indices, values, shape)
