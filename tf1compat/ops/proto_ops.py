"""`tf.io.decode_proto` / `tf.io.encode_proto` (ops DecodeProtoV2, EncodeProto) on the
protobuf runtime.

`message_type` is resolved as TF resolves it: `descriptor_source="local://"` searches the
schemas the program has linked — here tf1compat's own messages (`tensorflow.Example`,
`tensorflow.Feature`, ...; serialization/protos) and then protobuf's default pool (the
generated `*_pb2` modules the program imported); any other source is the path of a
serialized FileDescriptorSet, or `bytes://` followed by one. Decoding gives, per field,
its values padded to the largest count in the batch with the field's default, and
`sizes` (int32 [batch..., fields]); sub-messages come out as their serialized bytes.
Messages are `message_format="binary"` or `"text"` (protobuf's text format).
"""

from __future__ import annotations

import collections
import importlib
import pkgutil
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, text_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1
from tf1compat.framework.op_def import TypeList, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape

__all__ = ["decode_proto", "encode_proto"]

_F = FieldDescriptor
# Which TF dtypes each protobuf field type decodes to (TF's decode_proto checks).
_ALLOWED = {
    _F.TYPE_DOUBLE: (D.float64, D.float32), _F.TYPE_FLOAT: (D.float32, D.float64),
    _F.TYPE_INT64: (D.int64,), _F.TYPE_SFIXED64: (D.int64,), _F.TYPE_SINT64: (D.int64,),
    _F.TYPE_UINT64: (D.uint64, D.int64), _F.TYPE_FIXED64: (D.uint64, D.int64),
    _F.TYPE_INT32: (D.int32, D.int64), _F.TYPE_SFIXED32: (D.int32, D.int64),
    _F.TYPE_SINT32: (D.int32, D.int64), _F.TYPE_ENUM: (D.int32, D.int64),
    _F.TYPE_UINT32: (D.uint32, D.int64), _F.TYPE_FIXED32: (D.uint32, D.int64),
    _F.TYPE_BOOL: (D.bool,), _F.TYPE_STRING: (D.string,), _F.TYPE_BYTES: (D.string,),
    _F.TYPE_MESSAGE: (D.string,), _F.TYPE_GROUP: (D.string,),
}
_TYPE_NAMES = {
    _F.TYPE_DOUBLE: "double", _F.TYPE_FLOAT: "float", _F.TYPE_INT64: "int64",
    _F.TYPE_UINT64: "uint64", _F.TYPE_INT32: "int32", _F.TYPE_FIXED64: "fixed64",
    _F.TYPE_FIXED32: "fixed32", _F.TYPE_BOOL: "bool", _F.TYPE_STRING: "string",
    _F.TYPE_GROUP: "group", _F.TYPE_MESSAGE: "message", _F.TYPE_BYTES: "bytes",
    _F.TYPE_UINT32: "uint32", _F.TYPE_ENUM: "enum", _F.TYPE_SFIXED32: "sfixed32",
    _F.TYPE_SFIXED64: "sfixed64", _F.TYPE_SINT32: "sint32", _F.TYPE_SINT64: "sint64",
}
_ENUM_NAMES = {D.float32: "DT_FLOAT", D.float64: "DT_DOUBLE"}
DecodeProtoV2 = collections.namedtuple("DecodeProtoV2", ["sizes", "values"])


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _local_pool_search(name: str) -> Any:
    """tf1compat's messages, then the default pool of the program's generated modules."""
    from tf1compat.serialization import protos
    from tf1compat.serialization.protos._pool import POOL
    for module in pkgutil.iter_modules(protos.__path__):
        if module.name.endswith("_pb2"):
            importlib.import_module(f"{protos.__name__}.{module.name}")
    for pool in (POOL, descriptor_pool.Default()):
        try:
            return pool.FindMessageTypeByName(name)
        except KeyError:
            continue
    return None


def _descriptor(node: Any) -> Any:
    """The message descriptor of the op's `message_type` and `descriptor_source`."""
    name = _text(node.attrs["message_type"])
    source = _text(node.attrs["descriptor_source"])
    if source == "local://":
        found = _local_pool_search(name)
    else:
        if source.startswith("bytes://"):
            data = source[len("bytes://"):].encode("latin-1")
        else:
            try:
                with open(source, "rb") as f:
                    data = f.read()
            except OSError:
                raise errors.op_error(errors.NotFoundError, node,
                                      f"{source}; No such file or directory") from None
        files = descriptor_pb2.FileDescriptorSet()
        try:
            files.ParseFromString(data)
        except DecodeError:
            raise errors.op_error(errors.InvalidArgumentError, node,
                                  f"Failed to parse descriptor set from {source}") from None
        pool = descriptor_pool.DescriptorPool()
        for file_proto in files.file:
            pool.Add(file_proto)
        try:
            found = pool.FindMessageTypeByName(name)
        except KeyError:
            found = None
    if found is None:
        raise errors.op_error(errors.InvalidArgumentError, node,
                              f"No descriptor found for message type {name}")
    return found


def _fields(node: Any, descriptor: Any, types: Sequence[D.DType]) -> List[Any]:
    names = [_text(n) for n in node.attrs["field_names"]]
    if len(names) != len(types):
        raise errors.op_error(errors.InvalidArgumentError, node,
                              "field_names and output_types attributes must have the same "
                              "length")
    fields = []
    for field_name, dtype in zip(names, types):
        field = descriptor.fields_by_name.get(field_name)
        if field is None:
            raise errors.op_error(errors.InvalidArgumentError, node,
                                  f"Unknown field: {field_name} in message type "
                                  f"{descriptor.full_name}")
        if dtype not in _ALLOWED[field.type]:
            wanted = _ENUM_NAMES.get(dtype, "DT_" + dtype.name.upper())
            raise errors.op_error(errors.InvalidArgumentError, node,
                                  f"Unexpected output type for {field.full_name}: "
                                  f"{_TYPE_NAMES[field.type]} to {wanted}")
        fields.append(field)
    return fields


def _values_of(message: Any, field: Any) -> List[Any]:
    """The field's values as on the wire (a singular field without presence counts when
    it differs from its default, as proto3 writes it)."""
    value = getattr(message, field.name)
    if field.is_repeated:
        values = list(value)
    elif field.has_presence:
        values = [value] if message.HasField(field.name) else []
    else:
        values = [value] if value != field.default_value else []
    if field.type in (_F.TYPE_MESSAGE, _F.TYPE_GROUP):
        return [v.SerializeToString() for v in values]
    if field.type == _F.TYPE_STRING:
        return [v.encode() for v in values]
    return values


def _default(field: Any) -> Any:
    """What pads a field's values: its declared default (the type's zero when repeated)."""
    if field.type in (_F.TYPE_MESSAGE, _F.TYPE_GROUP, _F.TYPE_STRING, _F.TYPE_BYTES):
        value = b"" if field.is_repeated else field.default_value
        return value.encode() if isinstance(value, str) else (value or b"")
    if field.is_repeated:
        return {_F.TYPE_BOOL: False, _F.TYPE_DOUBLE: 0.0, _F.TYPE_FLOAT: 0.0}.get(
            field.type, 0)
    return field.default_value


def _decode_kernel(node: Any, kctx: Any) -> Callable[..., tuple]:
    descriptor = _descriptor(node)
    types = [D.as_dtype(t) for t in node.attrs["output_types"]]
    fields = _fields(node, descriptor, types)
    message_class = message_factory.GetMessageClass(descriptor)
    text = _text(node.attrs["message_format"]) == "text"

    def parse(data: bytes) -> Any:
        message = message_class()
        try:
            if text:
                text_format.Parse(data.decode("utf-8"), message)
            else:
                message.ParseFromString(data)
        except (DecodeError, text_format.ParseError, UnicodeDecodeError):
            raise errors.DataLossError(None, None, "Failed to parse input proto") from None
        return message

    def decode(batch: Any) -> tuple:
        flat = np.asarray(batch, dtype=object).reshape(-1)
        shape = tuple(np.shape(batch))
        messages = [parse(bytes(b)) for b in flat]
        per_field = [[_values_of(m, f) for m in messages] for f in fields]
        sizes = np.array([[len(v) for v in field_values] for field_values in per_field],
                         np.int32).T.reshape(shape + (len(fields),))
        outputs = [torch.from_numpy(sizes)]
        for field, dtype, field_values in zip(fields, types, per_field):
            # (TF's values are at least one wide: absent fields give their default.)
            width = max([1] + [len(v) for v in field_values])
            padded = [v + [_default(field)] * (width - len(v)) for v in field_values]
            outputs.append(_array(padded, shape + (width,), dtype, kctx.device))
        return tuple(outputs)
    return decode


def _array(rows: List[List[Any]], shape: tuple, dtype: D.DType, device: Any) -> Any:
    if dtype == D.string:
        out = np.empty(len(rows) * shape[-1], dtype=object)
        out[:] = [v for row in rows for v in row]
        return out.reshape(shape)
    array = np.array(rows, dtype=dtype.as_numpy_dtype).reshape(shape)
    return torch.as_tensor(array, device=device)


def _decode_shape(ctx: Any) -> List[TensorShape]:
    batch = ctx.shape(0)
    count = len(ctx.attrs["output_types"])
    if batch.ndims is None:
        return [unknown_shape()] * (count + 1)
    dims = batch.as_list()
    return [TensorShape(dims + [len(ctx.attrs["field_names"])])] + \
        [TensorShape(dims + [None])] * count


declare("DecodeProtoV2", inputs=["bytes: string"], outputs=["sizes: int32",
                                                            "values: output_types"],
        attrs={"message_type": "", "field_names": [], "output_types": TypeList(),
               "descriptor_source": "local://", "message_format": "binary",
               "sanitize": False},
        shape=_decode_shape, kernel=_decode_kernel, grad="none", cpu_only=True)


def _encode_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    descriptor = _descriptor(node)
    types = [D.as_dtype(t) for t in node.attrs["Tinput_types"]]
    fields = _fields(node, descriptor, types)
    message_class = message_factory.GetMessageClass(descriptor)

    def encode(sizes: torch.Tensor, *values: Any) -> np.ndarray:
        size_array = sizes.cpu().numpy()
        batch = tuple(values[0].shape[:-1]) if values else tuple(size_array.shape[:-1])
        if tuple(size_array.shape) != batch + (len(fields),):
            raise errors.InvalidArgumentError(
                None, None, "sizes should be batch_size + [len(field_names)].  Saw: "
                f"[{','.join(map(str, size_array.shape))}] but expected: "
                f"[{','.join(map(str, batch + (len(fields),)))}]")
        count = int(np.prod(batch))
        flat_sizes = size_array.reshape(count, len(fields))
        flat_values = [np.asarray(v.cpu().numpy() if isinstance(v, torch.Tensor) else v
                                  ).reshape(count, -1) for v in values]
        out = np.empty(count, dtype=object)
        for i in range(count):
            message = message_class()
            for j, field in enumerate(fields):
                n = int(flat_sizes[i, j])
                if n > flat_values[j].shape[1]:
                    raise errors.InvalidArgumentError(
                        None, None, f"Size {n} of field {field.name} is larger than its "
                                    f"values ({flat_values[j].shape[1]})")
                _set_field(message, field, list(flat_values[j][i, :n]))
            out[i] = message.SerializeToString()
        return out.reshape(batch)
    return encode


def _set_field(message: Any, field: Any, values: List[Any]) -> None:
    if field.type in (_F.TYPE_MESSAGE, _F.TYPE_GROUP):
        if field.is_repeated:
            for value in values:
                getattr(message, field.name).add().MergeFromString(bytes(value))
        elif values:
            getattr(message, field.name).MergeFromString(bytes(values[-1]))
        return
    if field.type == _F.TYPE_STRING:
        values = [bytes(v).decode() for v in values]
    elif field.type != _F.TYPE_BYTES:
        values = [v.item() if isinstance(v, np.generic) else v for v in values]
    if field.is_repeated:
        getattr(message, field.name).extend(values)
    elif values:
        setattr(message, field.name, values[-1])


def _encode_shape(ctx: Any) -> List[TensorShape]:
    sizes = ctx.shape(0)
    if sizes.ndims is None:
        return [unknown_shape()]
    return [TensorShape(sizes.as_list()[:-1])]


declare("EncodeProto", inputs=["sizes: int32", "values: Tinput_types"],
        outputs=["bytes: string"],
        attrs={"field_names": [], "message_type": "", "descriptor_source": "local://",
               "Tinput_types": TypeList()},
        shape=_encode_shape, kernel=_encode_kernel, grad="none", cpu_only=True)


# -- wrappers ---------------------------------------------------------------------------------

def decode_proto(bytes: Any, message_type: str, field_names: Sequence[str],  # noqa: A002
                 output_types: Sequence[Any], descriptor_source: str = "local://",
                 message_format: str = "binary", sanitize: bool = False,
                 name: Optional[str] = None) -> tuple:
    """`tf.io.decode_proto`: (sizes, [values of each field])."""
    op = apply_op("DecodeProtoV2", [bytes],
                  {"message_type": message_type, "field_names": list(field_names),
                   "output_types": [D.as_dtype(t) for t in output_types],
                   "descriptor_source": descriptor_source, "message_format": message_format,
                   "sanitize": sanitize}, name=name)
    return DecodeProtoV2(op.outputs[0], list(op.outputs[1:]))


def encode_proto(sizes: Any, values: Sequence[Any], field_names: Sequence[str],
                 message_type: str, descriptor_source: str = "local://",
                 name: Optional[str] = None) -> Tensor:
    """`tf.io.encode_proto`: serialized messages of `message_type`, one per batch entry."""
    return apply_op1("EncodeProto", [sizes, list(values)],
                     {"field_names": list(field_names), "message_type": message_type,
                      "descriptor_source": descriptor_source}, name=name)
