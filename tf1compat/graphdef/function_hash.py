"""TF's name suffix for a `function.Defun` named without `func_name`: a hash of its
FunctionDef (TF's C++ `FunctionDefHash`, computed by `TF_GraphToFunction` before the
name, the function's attrs and its argument attrs are set).

TF hashes, in order: the signature (its AttrDefs by name, then its control outputs, then
the rest serialized), the function's attrs (none at that point), the nodes by name (name,
op, device, data inputs in order, control inputs sorted, attrs not starting with `_`
sorted by name; a tensor attr by its value re-serialized with `tensor_content`), and the
`ret` map sorted. Its 64-bit hash is Google's MurmurHash64A variant (`Hash64`, seed
0xDECAFCAFFE) combined with `Hash64Combine`; the name suffix is the hash's 8 little-endian
bytes in web-safe base64 without padding, `-` and `_` replaced by `a` and `A`.
"""

from __future__ import annotations

import base64
import struct
from typing import Any

import numpy as np

from tf1compat.serialization.messages import AttrValue, FunctionDef, OpDef, TensorProto
from tf1compat.serialization.sstable import encode_varint
from tf1compat.serialization.tensor_proto import proto_to_ndarray

__all__ = ["function_name_hash", "function_def_hash"]

_MASK = (1 << 64) - 1
_SEED = 0xDECAFCAFFE
_M = 0xC6A4A7935BD1E995


def _hash64(data: bytes, seed: int = _SEED) -> int:
    n = len(data)
    h = (seed ^ (n * _M)) & _MASK
    end = n - n % 8
    for (k,) in struct.iter_unpack("<Q", data[:end]):
        k = (k * _M) & _MASK
        k ^= k >> 47
        k = (k * _M) & _MASK
        h ^= k
        h = (h * _M) & _MASK
    tail = data[end:]
    if tail:
        for i in reversed(range(len(tail))):
            h ^= tail[i] << (8 * i)
        h = (h * _M) & _MASK
    h ^= h >> 47
    h = (h * _M) & _MASK
    h ^= h >> 47
    return h


def _combine(a: int, b: int) -> int:
    return a ^ ((b + 0x9E3779B97F4A7800 + (a << 10) + (a >> 4)) & _MASK)


def _text(s: str) -> bytes:
    return s.encode("utf-8")


def _serialized(message: Any) -> bytes:
    return message.SerializeToString(deterministic=True)


def _tensor_hash(proto: TensorProto) -> int:
    """TF's TensorProtoHash: the value as a Tensor serialized back with tensor_content."""
    canonical = TensorProto(dtype=proto.dtype)
    canonical.tensor_shape.CopyFrom(proto.tensor_shape)
    canonical.tensor_shape.SetInParent()
    _, array = proto_to_ndarray(proto)
    if array.dtype == object:
        # TF's string encoding: every length as a varint32, then the bytes one after another.
        values = [v if isinstance(v, bytes) else str(v).encode() for v in array.reshape(-1)]
        lengths = b"".join(encode_varint(len(v)) for v in values)
        canonical.tensor_content = lengths + b"".join(values)
    elif array.size:
        canonical.tensor_content = np.ascontiguousarray(array).tobytes()
    return _hash64(_serialized(canonical))


def _attr_value_hash(value: AttrValue) -> int:
    if value.HasField("tensor"):
        return _tensor_hash(value.tensor)
    if value.HasField("func"):
        h = _hash64(_text(value.func.name))
        for key in sorted(value.func.attr):
            h = _hash64(_text(key), h)
            h = _combine(_attr_value_hash(value.func.attr[key]), h)
        return h
    return _hash64(_serialized(value))


def _attr_def_hash(attr: Any) -> int:
    h = _hash64(_text(attr.name))
    h = _hash64(_text(attr.type), h)
    h = _combine(_attr_value_hash(attr.default_value), h)
    h = _hash64(_text(attr.description), h)
    h = _combine(int(attr.has_minimum), h)
    h = _combine(attr.minimum & _MASK, h)
    return _combine(_attr_value_hash(attr.allowed_values), h)


def _op_def_hash(signature: OpDef) -> int:
    h = _SEED
    for attr in sorted(signature.attr, key=lambda a: a.name):
        h = _hash64(_text(attr.name), h)
        h = _combine(_attr_def_hash(attr), h)
    for name in sorted(set(signature.control_output)):
        h = _combine(h, _hash64(_text(name)))
    rest = OpDef()
    rest.CopyFrom(signature)
    del rest.attr[:]
    del rest.control_output[:]
    return _hash64(_serialized(rest), h)


def _node_hash(node: Any) -> int:
    h = _hash64(_text(node.name))
    h = _hash64(_text(node.op), h)
    h = _hash64(_text(node.device), h)
    data = [i for i in node.input if not i.startswith("^")]
    for name in data:
        h = _hash64(_text(name), h)
    for name in sorted(set(node.input[len(data):])):
        h = _hash64(_text(name), h)
    for key in sorted(k for k in node.attr if not k.startswith("_")):
        h = _hash64(_text(key), h)
        h = _combine(_attr_value_hash(node.attr[key]), h)
    return h


def function_def_hash(fdef: FunctionDef) -> int:
    """TF's `FunctionDefHash` of `fdef` (its name included: TF hashes before naming)."""
    h = _op_def_hash(fdef.signature)
    for key in sorted(k for k in fdef.attr if fdef.attr[k].WhichOneof("value")):
        h = _hash64(_text(key), h)
        h = _combine(_attr_value_hash(fdef.attr[key]), h)
    nodes = _SEED
    for node in sorted({n.name: n for n in fdef.node_def}.values(), key=lambda n: n.name):
        nodes = _hash64(_text(node.name), nodes)
        nodes = _combine(_node_hash(node), nodes)
    h = _combine(nodes, h)
    for ret in (fdef.ret, fdef.control_ret):
        for key in sorted(ret):
            h = _hash64(_text(key), h)
            h = _hash64(_text(ret[key]), h)
    return h


def function_name_hash(fdef: FunctionDef) -> str:
    """The 11 characters TF appends to a Defun's name: the hash of `fdef` unnamed and
    without function attrs, as TF computes it."""
    unnamed = FunctionDef()
    unnamed.CopyFrom(fdef)
    unnamed.signature.name = ""
    unnamed.attr.clear()
    unnamed.arg_attr.clear()
    digest = struct.pack("<Q", function_def_hash(unnamed))
    text = base64.urlsafe_b64encode(digest).decode().rstrip("=")
    return text.replace("-", "a").replace("_", "A")
