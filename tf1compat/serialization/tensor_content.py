"""Tensors as serialized TensorProtos with their values in `tensor_content`, the form TF's
kernels write (SerializeSparse, SerializeManySparse, SerializeTensor).

Unlike `tensor_proto.tensor_to_proto` (the Python `make_tensor_proto` form, which lists
scalars and strings in the typed value fields), numbers are always raw little-endian bytes
and strings are the varint lengths of all elements followed by their bytes, so the
serialized bytes equal TF's.
"""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.serialization import tensor_codec
from tf1compat.serialization.messages import TensorProto
from tf1compat.serialization.sstable import encode_varint, read_varint
from tf1compat.serialization.tensor_proto import proto_to_ndarray, shape_to_proto

__all__ = ["serialize_tensor_content", "parse_tensor_content"]


def serialize_tensor_content(dtype: D.DType, value: Any, strings_in_content: bool = True
                             ) -> bytes:
    """The serialized TensorProto of `value` (numpy array; bytes objects for strings).
    Strings go to `tensor_content` (SerializeSparse) or, with `strings_in_content=False`,
    to `string_val` (SerializeTensor)."""
    arr = np.asarray(value, dtype=object if dtype == D.string else None)
    proto = TensorProto(dtype=dtype.as_datatype_enum,
                        tensor_shape=shape_to_proto(TensorShape(list(arr.shape))))
    if dtype == D.string and not strings_in_content:
        proto.string_val.extend(v.encode() if isinstance(v, str) else bytes(v)
                                for v in arr.reshape(-1))
    elif dtype == D.string:
        items = [v.encode() if isinstance(v, str) else bytes(v) for v in arr.reshape(-1)]
        proto.tensor_content = b"".join(encode_varint(len(v)) for v in items) + b"".join(items)
    else:
        store = tensor_codec.storage_dtype(dtype)
        proto.tensor_content = tensor_codec.contiguous(arr.astype(store)).tobytes()
    return proto.SerializeToString()


def parse_tensor_content(data: bytes) -> Tuple[D.DType, np.ndarray]:
    """(dtype, value) of a serialized TensorProto in either form; ValueError when `data` is
    not one."""
    proto = TensorProto()
    try:
        proto.ParseFromString(bytes(data))
    except Exception as e:  # protobuf's DecodeError
        raise ValueError(f"not a serialized TensorProto: {e}") from None
    if proto.dtype != D.string.as_datatype_enum or not proto.tensor_content:
        return proto_to_ndarray(proto)
    shape = [d.size for d in proto.tensor_shape.dim]
    count = int(np.prod(shape, dtype=np.int64))
    content, pos, lengths = proto.tensor_content, 0, []
    for _ in range(count):
        length, pos = read_varint(content, pos)
        lengths.append(length)
    values = np.empty(count, dtype=object)
    for i, length in enumerate(lengths):
        values[i] = bytes(content[pos:pos + length])
        pos += length
    if pos != len(content):
        raise ValueError("string tensor_content does not match its lengths")
    return D.string, values.reshape(shape)
