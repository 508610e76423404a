"""Protocol-buffer messages TF1 code handles: SaverDef, MetaGraphDef, GraphDef, NodeDef,
AttrValue, TensorProto, TensorShapeProto, CollectionDef, VariableDef, SaveSliceInfoDef,
and SavedModel's SavedModel, SignatureDef, TensorInfo, AssetFileDef.

tf1compat has no protobuf dependency. `Message` is a small message class driven by a
field table (TF's field numbers, names and kinds), with what TF1 code uses of protobuf:
attribute access, repeated fields with `add()`/`extend()`, map fields as dicts, oneofs
(`WhichOneof`), `HasField`, `CopyFrom`, `SerializeToString`/`FromString`/
`ParseFromString` (TF's wire format, through protobuf_wire.py, so the bytes are the ones
TF writes and reads) and `str()` in protobuf text format.
"""

from __future__ import annotations

import functools
import math
import struct
from typing import Any, ClassVar, Dict, Iterable, List, Optional, Tuple, Type as PyType

import numpy as np

from tf1compat.training import protobuf_wire as wire

__all__ = ["Message", "SaverDef", "MetaGraphDef", "MetaInfoDef", "GraphDef", "NodeDef",
           "AttrValue", "ListValue", "NameAttrList", "TensorProto", "TensorShapeProto",
           "Dim", "VersionDef", "CollectionDef", "NodeList", "BytesList", "Int64List",
           "FloatList", "VariableDef", "SaveSliceInfoDef", "AnyProto", "TensorInfo",
           "SignatureDef", "AssetFileDef", "SavedModel", "QueueRunnerDef", "DATA_TYPE_NAMES"]

# TF's DataType enum (types.proto) by number, for text format.
DATA_TYPE_NAMES = {0: "DT_INVALID", 1: "DT_FLOAT", 2: "DT_DOUBLE", 3: "DT_INT32",
                   4: "DT_UINT8", 5: "DT_INT16", 6: "DT_INT8", 7: "DT_STRING",
                   8: "DT_COMPLEX64", 9: "DT_INT64", 10: "DT_BOOL", 11: "DT_QINT8",
                   12: "DT_QUINT8", 13: "DT_QINT32", 14: "DT_BFLOAT16", 15: "DT_QINT16",
                   16: "DT_QUINT16", 17: "DT_UINT16", 18: "DT_COMPLEX128", 19: "DT_HALF",
                   20: "DT_RESOURCE", 21: "DT_VARIANT", 22: "DT_UINT32", 23: "DT_UINT64"}
DATA_TYPE_NAMES.update({k + 100: v + "_REF" for k, v in list(DATA_TYPE_NAMES.items()) if k})


class Field:
    """One field: number, name, kind (scalar kind string or Message class), label.

    label: "opt" (singular), "rep" (repeated), "map" (kind = (key kind, value kind)),
    or "oneof:<group>" (singular with presence, in a oneof group).
    """

    __slots__ = ("number", "name", "kind", "label", "enum_names", "oneof", "is_message")

    def __init__(self, number: int, name: str, kind: Any, label: str = "opt",
                 enum_names: Optional[Dict[int, str]] = None):
        self.number = number
        self.name = name
        self.kind = kind
        self.label = label
        self.enum_names = enum_names
        self.oneof = label[6:] if label.startswith("oneof:") else None
        self.is_message = isinstance(kind, type)


_SCALAR_DEFAULTS = {"string": "", "bytes": b"", "bool": False, "float": 0.0, "double": 0.0}


def _scalar_default(kind: str) -> Any:
    return _SCALAR_DEFAULTS.get(kind, 0)


class Repeated(list):
    """A repeated field; `add()` appends a new element (message fields) or a value."""

    def __init__(self, kind: Any, values: Iterable[Any] = ()):
        super().__init__(values)
        self._kind = kind

    def add(self, **kwargs: Any) -> Any:
        if not (isinstance(self._kind, type) and issubclass(self._kind, Message)):
            raise AttributeError("add() is for repeated message fields")
        item = self._kind(**kwargs)
        self.append(item)
        return item


class MessageMap(dict):
    """A map field whose values are messages: reading a missing key creates the entry."""

    def __init__(self, value_kind: PyType["Message"]):
        super().__init__()
        self._value_kind = value_kind

    def __missing__(self, key: Any) -> "Message":
        value = self[key] = self._value_kind()
        return value


class Message:
    """Base of the message classes; subclasses list their fields in FIELDS."""

    FIELDS: ClassVar[Tuple[Field, ...]] = ()
    FULL_NAME: ClassVar[str] = ""
    _by_name: ClassVar[Dict[str, Field]]
    _by_number: ClassVar[Dict[int, Field]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._index()

    @classmethod
    def _index(cls) -> None:
        """Lookup tables of FIELDS (rebuilt if FIELDS is filled in after the class)."""
        cls._by_name = {f.name: f for f in cls.FIELDS}
        cls._by_number = {f.number: f for f in cls.FIELDS}
        cls._sorted = tuple(sorted(cls.FIELDS, key=lambda f: f.number))
        groups: Dict[str, List[str]] = {}
        for f in cls.FIELDS:
            if f.oneof is not None:
                groups.setdefault(f.oneof, []).append(f.name)
        cls._groups = groups

    def __init__(self, **kwargs: Any):
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_present", set())
        for key, value in kwargs.items():
            field = self._field(key)
            if field.label == "rep":
                getattr(self, key).extend(value)
            elif field.label == "map":
                getattr(self, key).update(value)
            else:
                setattr(self, key, value)

    @classmethod
    def _field(cls, name: str) -> Field:
        try:
            return cls._by_name[name]
        except KeyError:
            raise AttributeError(f"{cls.FULL_NAME or cls.__name__} has no field {name!r}") \
                from None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        field = self._field(name)
        values = self._values
        if name in values:
            return values[name]
        if field.label == "rep":
            value = values[name] = Repeated(field.kind)
        elif field.label == "map":
            value_kind = field.kind[1]
            value = values[name] = MessageMap(value_kind) if isinstance(value_kind, type) \
                else {}
        elif isinstance(field.kind, type):
            value = values[name] = field.kind()
        else:
            return _scalar_default(field.kind)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        field = self._by_name.get(name) or self._field(name)
        label = field.label
        if label == "rep" or label == "map":
            raise AttributeError(f"Assignment not allowed to repeated field {name!r} in "
                                 f"protocol message object.")
        values = self._values
        group = field.oneof
        if group is not None:
            present = self._present
            for other in self._groups[group]:
                if other != name:
                    values.pop(other, None)
                    present.discard(other)
        if field.is_message and value is not None and not isinstance(value, field.kind):
            raise TypeError(f"field {name!r} expects {field.kind.__name__}, got "
                            f"{type(value).__name__}")
        values[name] = value
        self._present.add(name)

    # -- protobuf's message API -------------------------------------------------------------
    def HasField(self, name: str) -> bool:  # noqa: N802 - protobuf's name
        field = self._field(name)
        if field.label in ("rep", "map"):
            raise ValueError(f"Protocol message has no singular \"{name}\" field.")
        if name in self._present:
            return True
        value = self._values.get(name)
        return isinstance(value, Message) and value._nonempty()

    def ClearField(self, name: str) -> None:  # noqa: N802
        self._field(name)
        self._values.pop(name, None)
        self._present.discard(name)

    def WhichOneof(self, group: str) -> Optional[str]:  # noqa: N802
        for field in self.FIELDS:
            if field.oneof == group and self.HasField(field.name):
                return field.name
        return None

    def SetInParent(self) -> None:  # noqa: N802 - kept for API parity (no parent links)
        pass

    def CopyFrom(self, other: "Message") -> None:  # noqa: N802
        if type(other) is not type(self):
            raise TypeError(f"CopyFrom needs a {type(self).__name__}")
        copy = type(self).FromString(other.SerializeToString())
        object.__setattr__(self, "_values", copy._values)
        object.__setattr__(self, "_present", copy._present)

    def MergeFrom(self, other: "Message") -> None:  # noqa: N802
        self.ParseFromString(self.SerializeToString() + other.SerializeToString())

    def _nonempty(self) -> bool:
        for field in self.FIELDS:
            value = self._values.get(field.name)
            if field.name in self._present:
                return True
            if isinstance(value, Message) and value._nonempty():
                return True
            if isinstance(value, (list, dict)) and value:
                return True
        return False

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and \
            self.SerializeToString() == other.SerializeToString()

    def __ne__(self, other: Any) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment] - mutable, as protobuf messages

    # -- wire format ----------------------------------------------------------------------------
    def SerializeToString(self) -> bytes:  # noqa: N802
        out = bytearray()
        values = self._values
        for field in self._sorted:
            if field.name not in values:
                continue
            value = values[field.name]
            if field.label == "rep":
                for item in value:
                    out += _encode_field(field.number, field.kind, item)
            elif field.label == "map":
                key_kind, value_kind = field.kind
                for k in sorted(value):   # deterministic, as protobuf's sorted maps
                    entry = _encode_field(1, key_kind, k) + \
                        _encode_field(2, value_kind, value[k])
                    out += wire.encode_varint(field.number << 3 | 2)
                    out += wire.encode_varint(len(entry)) + entry
            elif isinstance(field.kind, type):
                if value is not None and (field.name in self._present or value._nonempty()):
                    out += _encode_field(field.number, field.kind, value)
            elif field.name in self._present and (field.oneof is not None or
                                                  not _is_default(field.kind, value)):
                out += _encode_field(field.number, field.kind, value)
        return bytes(out)

    @classmethod
    def FromString(cls, data: bytes) -> "Message":  # noqa: N802
        msg = cls()
        msg.ParseFromString(data)
        return msg

    def ParseFromString(self, data: bytes) -> int:  # noqa: N802
        """Merges the serialized message in; wire.DecodeError if the bytes are malformed."""
        for number, wire_type, raw in wire.iter_fields(data):
            field = self._by_number.get(number)
            if field is None:
                continue  # unknown field: skipped, as protobuf does
            if field.label == "map":
                key_kind, value_kind = field.kind
                key, value = _scalar_default(key_kind), None
                for n, w, r in wire.iter_fields(raw):
                    if n == 1:
                        key = _decode_scalar(key_kind, w, r, n)
                    elif n == 2:
                        value = _decode_value(value_kind, w, r, n)
                if value is None:
                    value = value_kind() if isinstance(value_kind, type) else \
                        _scalar_default(value_kind)
                getattr(self, field.name)[key] = value
                continue
            if field.label == "rep":
                target = getattr(self, field.name)
                if isinstance(field.kind, str) and wire_type == wire.LENGTH_DELIMITED and \
                        field.kind not in ("string", "bytes"):
                    target.extend(_decode_packed(field.kind, raw, number))
                else:
                    target.append(_decode_value(field.kind, wire_type, raw, number))
                continue
            if isinstance(field.kind, type):
                if wire_type != wire.LENGTH_DELIMITED:
                    raise wire.DecodeError(f"field {number}: expected a message")
                current = self._values.get(field.name)
                if current is None or field.name not in self._present and \
                        not current._nonempty():
                    current = field.kind()
                current.ParseFromString(raw)
                setattr(self, field.name, current)
            else:
                setattr(self, field.name, _decode_scalar(field.kind, wire_type, raw, number))
        return len(data)

    # -- text format ----------------------------------------------------------------------------
    def __str__(self) -> str:
        # `str()` of a message in TF 2.x is upb's printer: map entries in upb's own order.
        return "".join(self._text_lines("", True))

    def text_format_string(self) -> str:
        """The text `google.protobuf.text_format.MessageToString` writes (map keys in
        ascending order, default scalars omitted in map entries): the form of TF's
        `.pbtxt` files."""
        return "".join(self._text_lines("", False))

    def __repr__(self) -> str:
        return str(self)

    def _text_lines(self, indent: str, upb: bool) -> List[str]:
        lines = []
        for field in self.FIELDS:
            if field.name not in self._values:
                continue
            value = self._values[field.name]
            if field.label == "rep":
                for item in value:
                    lines += _text_field(indent, field, item, upb)
            elif field.label == "map":
                key_kind, value_kind = field.kind
                keys = sorted(value, key=_upb_key_order) if upb and key_kind == "string" \
                    else sorted(value)
                for k in keys:
                    lines.append(f"{indent}{field.name} {{\n")
                    # text_format prints an entry as a message (default scalars left
                    # out); upb prints both parts always.
                    if upb or not _is_default(key_kind, k):
                        lines += _text_value(indent + "  ", "key", key_kind, k, None, upb)
                    if upb or isinstance(value_kind, type) or \
                            not _is_default(value_kind, value[k]):
                        lines += _text_value(indent + "  ", "value", value_kind, value[k],
                                             field.enum_names, upb)
                    lines.append(f"{indent}}}\n")
            elif isinstance(field.kind, type):
                if value is not None and (field.name in self._present or value._nonempty()):
                    lines += _text_field(indent, field, value, upb)
            elif field.name in self._present and (field.oneof is not None or
                                                  not _is_default(field.kind, value)):
                lines += _text_field(indent, field, value, upb)
        return lines


def _upb_compare(a: str, b: str) -> int:
    """upb's map sorter for string keys: the common prefix's bytes compared in REVERSE
    order, then the shorter key first (so TF 2.x prints attrs "value" before "dtype",
    "T" before "Tidx")."""
    ab, bb = a.encode("utf-8"), b.encode("utf-8")
    n = min(len(ab), len(bb))
    if ab[:n] != bb[:n]:
        return -1 if ab[:n] > bb[:n] else 1
    return len(ab) - len(bb)


_upb_key_order = functools.cmp_to_key(_upb_compare)


def _is_default(kind: str, value: Any) -> bool:
    if kind in ("float", "double") and isinstance(value, float):
        return value == 0.0 and math.copysign(1.0, value) > 0
    return value == _scalar_default(kind)


_VARINTS = {"int32", "int64", "uint32", "uint64", "bool", "enum"}
_FIXED = {"float": "<f", "double": "<d", "fixed32": "<I", "fixed64": "<Q",
          "sfixed32": "<i", "sfixed64": "<q"}


def _encode_field(number: int, kind: Any, value: Any) -> bytes:
    if isinstance(kind, type):
        data = value.SerializeToString()
        return wire.encode_varint(number << 3 | 2) + wire.encode_varint(len(data)) + data
    if kind in _VARINTS:
        return wire.encode_varint(number << 3) + wire.encode_varint(int(value))
    if kind == "sint64":
        v = int(value)
        return wire.encode_varint(number << 3) + wire.encode_varint((v << 1) ^ (v >> 63))
    if kind in _FIXED:
        fmt = _FIXED[kind]
        return wire.encode_varint(number << 3 | (5 if fmt in ("<f", "<I", "<i") else 1)) + \
            struct.pack(fmt, value)
    data = value.encode("utf-8") if kind == "string" else bytes(value)
    return wire.encode_varint(number << 3 | 2) + wire.encode_varint(len(data)) + data


def _decode_value(kind: Any, wire_type: int, raw: Any, number: int) -> Any:
    if isinstance(kind, type):
        if wire_type != wire.LENGTH_DELIMITED:
            raise wire.DecodeError(f"field {number}: expected a message")
        return kind.FromString(raw)
    return _decode_scalar(kind, wire_type, raw, number)


def _decode_scalar(kind: str, wire_type: int, raw: Any, number: int) -> Any:
    if wire_type == wire.VARINT and kind in _VARINTS:
        if kind == "bool":
            return raw != 0
        if kind in ("int32", "enum"):
            raw &= 0xFFFFFFFF
            return raw - (1 << 32) if raw >= 1 << 31 else raw
        if kind == "int64":
            raw &= (1 << 64) - 1
            return raw - (1 << 64) if raw >= 1 << 63 else raw
        return raw & (0xFFFFFFFF if kind == "uint32" else (1 << 64) - 1)
    if wire_type == wire.LENGTH_DELIMITED and kind == "string":
        try:
            return bytes(raw).decode("utf-8")
        except UnicodeDecodeError as e:
            raise wire.DecodeError(f"field {number}: string is not valid UTF-8 ({e})") from None
    if wire_type == wire.LENGTH_DELIMITED and kind == "bytes":
        return bytes(raw)
    # Anything else (fixed-size kinds, mismatched wire types): the general decoder checks it.
    return wire.decode(_one_field(number, wire_type, raw), {number: ("v", kind, False)})["v"]


def _one_field(number: int, wire_type: int, raw: Any) -> bytes:
    head = wire.encode_varint(number << 3 | wire_type)
    if wire_type == wire.VARINT:
        return head + wire.encode_varint(raw)
    if wire_type == wire.LENGTH_DELIMITED:
        data = bytes(raw)
        return head + wire.encode_varint(len(data)) + data
    return head + bytes(raw)


def _decode_packed(kind: str, raw: Any, number: int) -> list:
    return wire.decode(_one_field(number, wire.LENGTH_DELIMITED, raw),
                       {number: ("v", kind, True)})["v"]


# -- text format helpers ------------------------------------------------------------------------

def _text_escape(data: bytes) -> str:
    out = []
    for c in data:
        if c == 0x0A:
            out.append("\\n")
        elif c == 0x0D:
            out.append("\\r")
        elif c == 0x09:
            out.append("\\t")
        elif c == 0x22:
            out.append('\\"')
        elif c == 0x27:
            out.append("\\'")
        elif c == 0x5C:
            out.append("\\\\")
        elif 0x20 <= c < 0x7F:
            out.append(chr(c))
        else:
            out.append("\\%03o" % c)
    return "".join(out)


def _float_text(value: float, single: bool) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if single:
        text = repr(float(np.float32(value)))
        for digits in range(6, 10):
            short = "%.*g" % (digits, value)
            if np.float32(float(short)) == np.float32(value):
                text = short
                break
    else:
        text = repr(float(value))
    if text.endswith(".0"):
        text = text[:-2]
    return text


def _scalar_text(kind: str, value: Any, enum_names: Optional[Dict[int, str]]) -> str:
    if kind == "bool":
        return "true" if value else "false"
    if kind == "string":
        return '"' + _text_escape(value.encode("utf-8")) + '"'
    if kind == "bytes":
        return '"' + _text_escape(bytes(value)) + '"'
    if kind == "enum" and enum_names is not None:
        return enum_names.get(int(value), str(int(value)))
    if kind in ("float", "double"):
        return _float_text(float(value), kind == "float")
    return str(int(value))


def _text_value(indent: str, name: str, kind: Any, value: Any,
                enum_names: Optional[Dict[int, str]], upb: bool) -> List[str]:
    if isinstance(kind, type):
        return [f"{indent}{name} {{\n"] + value._text_lines(indent + "  ", upb) + \
            [f"{indent}}}\n"]
    return [f"{indent}{name}: {_scalar_text(kind, value, enum_names)}\n"]


def _text_field(indent: str, field: Field, value: Any, upb: bool) -> List[str]:
    return _text_value(indent, field.name, field.kind, value, field.enum_names, upb)


# -- TF's messages ------------------------------------------------------------------------------

def _f(number: int, name: str, kind: Any, label: str = "opt",
       enum_names: Optional[Dict[int, str]] = None) -> Field:
    return Field(number, name, kind, label, enum_names)


class AnyProto(Message):
    FULL_NAME = "google.protobuf.Any"
    FIELDS = (_f(1, "type_url", "string"), _f(2, "value", "bytes"))


class Dim(Message):
    FULL_NAME = "tensorflow.TensorShapeProto.Dim"
    FIELDS = (_f(1, "size", "int64"), _f(2, "name", "string"))


class TensorShapeProto(Message):
    FULL_NAME = "tensorflow.TensorShapeProto"
    FIELDS = (_f(2, "dim", Dim, "rep"), _f(3, "unknown_rank", "bool"))


TensorShapeProto.Dim = Dim  # type: ignore[attr-defined]


class TensorProto(Message):
    FULL_NAME = "tensorflow.TensorProto"
    FIELDS = (_f(1, "dtype", "enum", enum_names=DATA_TYPE_NAMES),
              _f(2, "tensor_shape", TensorShapeProto),
              _f(3, "version_number", "int32"),
              _f(4, "tensor_content", "bytes"),
              _f(13, "half_val", "int32", "rep"),
              _f(5, "float_val", "float", "rep"),
              _f(6, "double_val", "double", "rep"),
              _f(7, "int_val", "int32", "rep"),
              _f(8, "string_val", "bytes", "rep"),
              _f(9, "scomplex_val", "float", "rep"),
              _f(10, "int64_val", "int64", "rep"),
              _f(11, "bool_val", "bool", "rep"),
              _f(12, "dcomplex_val", "double", "rep"),
              _f(16, "uint32_val", "uint32", "rep"),
              _f(17, "uint64_val", "uint64", "rep"))


class NameAttrList(Message):
    FULL_NAME = "tensorflow.NameAttrList"
    FIELDS: ClassVar[Tuple[Field, ...]] = ()  # filled in below (refers to AttrValue)


class ListValue(Message):
    FULL_NAME = "tensorflow.AttrValue.ListValue"
    FIELDS = (_f(2, "s", "bytes", "rep"), _f(3, "i", "int64", "rep"),
              _f(4, "f", "float", "rep"), _f(5, "b", "bool", "rep"),
              _f(6, "type", "enum", "rep", DATA_TYPE_NAMES),
              _f(7, "shape", TensorShapeProto, "rep"),
              _f(8, "tensor", TensorProto, "rep"),
              _f(9, "func", NameAttrList, "rep"))


class AttrValue(Message):
    FULL_NAME = "tensorflow.AttrValue"
    FIELDS = (_f(2, "s", "bytes", "oneof:value"), _f(3, "i", "int64", "oneof:value"),
              _f(4, "f", "float", "oneof:value"), _f(5, "b", "bool", "oneof:value"),
              _f(6, "type", "enum", "oneof:value", DATA_TYPE_NAMES),
              _f(7, "shape", TensorShapeProto, "oneof:value"),
              _f(8, "tensor", TensorProto, "oneof:value"),
              _f(1, "list", ListValue, "oneof:value"),
              _f(10, "func", NameAttrList, "oneof:value"),
              _f(9, "placeholder", "string", "oneof:value"))


AttrValue.ListValue = ListValue  # type: ignore[attr-defined]
NameAttrList.FIELDS = (_f(1, "name", "string"), _f(2, "attr", ("string", AttrValue), "map"))
NameAttrList._index()   # its FIELDS refer to AttrValue, defined after it


class NodeDef(Message):
    FULL_NAME = "tensorflow.NodeDef"
    FIELDS = (_f(1, "name", "string"), _f(2, "op", "string"),
              _f(3, "input", "string", "rep"), _f(4, "device", "string"),
              _f(5, "attr", ("string", AttrValue), "map"))


class VersionDef(Message):
    FULL_NAME = "tensorflow.VersionDef"
    FIELDS = (_f(1, "producer", "int32"), _f(2, "min_consumer", "int32"),
              _f(3, "bad_consumers", "int32", "rep"))


class GraphDef(Message):
    FULL_NAME = "tensorflow.GraphDef"
    FIELDS = (_f(1, "node", NodeDef, "rep"), _f(4, "versions", VersionDef),
              _f(3, "version", "int32"))


SAVER_VERSION_NAMES = {0: "LEGACY", 1: "V1", 2: "V2"}


class SaverDef(Message):
    """`tf.train.SaverDef`: the names a Saver's ops have and its checkpoint policy."""
    FULL_NAME = "tensorflow.SaverDef"
    LEGACY, V1, V2 = 0, 1, 2
    FIELDS = (_f(1, "filename_tensor_name", "string"), _f(2, "save_tensor_name", "string"),
              _f(3, "restore_op_name", "string"), _f(4, "max_to_keep", "int32"),
              _f(5, "sharded", "bool"), _f(6, "keep_checkpoint_every_n_hours", "float"),
              _f(7, "version", "enum", enum_names=SAVER_VERSION_NAMES))


class QueueRunnerDef(Message):
    """`tensorflow.QueueRunnerDef`: a QueueRunner in a MetaGraphDef's queue_runners
    collection (its queue's and ops' names, the error codes that mean "queue closed")."""
    FULL_NAME = "tensorflow.QueueRunnerDef"
    FIELDS = (_f(1, "queue_name", "string"), _f(2, "enqueue_op_name", "string", "rep"),
              _f(3, "close_op_name", "string"), _f(4, "cancel_op_name", "string"),
              _f(5, "queue_closed_exception_types", "enum", "rep"))


class NodeList(Message):
    FULL_NAME = "tensorflow.CollectionDef.NodeList"
    FIELDS = (_f(1, "value", "string", "rep"),)


class BytesList(Message):
    FULL_NAME = "tensorflow.CollectionDef.BytesList"
    FIELDS = (_f(1, "value", "bytes", "rep"),)


class Int64List(Message):
    FULL_NAME = "tensorflow.CollectionDef.Int64List"
    FIELDS = (_f(1, "value", "int64", "rep"),)


class FloatList(Message):
    FULL_NAME = "tensorflow.CollectionDef.FloatList"
    FIELDS = (_f(1, "value", "float", "rep"),)


class AnyList(Message):
    FULL_NAME = "tensorflow.CollectionDef.AnyList"
    FIELDS = (_f(1, "value", AnyProto, "rep"),)


class CollectionDef(Message):
    FULL_NAME = "tensorflow.CollectionDef"
    FIELDS = (_f(1, "node_list", NodeList, "oneof:kind"),
              _f(2, "bytes_list", BytesList, "oneof:kind"),
              _f(3, "int64_list", Int64List, "oneof:kind"),
              _f(4, "float_list", FloatList, "oneof:kind"),
              _f(5, "any_list", AnyList, "oneof:kind"))


class MetaInfoDef(Message):
    FULL_NAME = "tensorflow.MetaGraphDef.MetaInfoDef"
    FIELDS = (_f(1, "meta_graph_version", "string"), _f(4, "tags", "string", "rep"),
              _f(5, "tensorflow_version", "string"),
              _f(6, "tensorflow_git_version", "string"),
              _f(7, "stripped_default_attrs", "bool"))


class CooSparse(Message):
    FULL_NAME = "tensorflow.TensorInfo.CooSparse"
    FIELDS = (_f(1, "values_tensor_name", "string"), _f(2, "indices_tensor_name", "string"),
              _f(3, "dense_shape_tensor_name", "string"))


class TensorInfo(Message):
    """A tensor of a SavedModel signature: its name (or sparse components), dtype, shape."""
    FULL_NAME = "tensorflow.TensorInfo"
    FIELDS = (_f(1, "name", "string", "oneof:encoding"),
              _f(4, "coo_sparse", CooSparse, "oneof:encoding"),
              _f(2, "dtype", "enum", enum_names=DATA_TYPE_NAMES),
              _f(3, "tensor_shape", TensorShapeProto))


TensorInfo.CooSparse = CooSparse  # type: ignore[attr-defined]


class SignatureDef(Message):
    """A SavedModel signature: named input and output TensorInfos and a method name."""
    FULL_NAME = "tensorflow.SignatureDef"
    FIELDS = (_f(1, "inputs", ("string", TensorInfo), "map"),
              _f(2, "outputs", ("string", TensorInfo), "map"),
              _f(3, "method_name", "string"))


class AssetFileDef(Message):
    FULL_NAME = "tensorflow.AssetFileDef"
    FIELDS = (_f(1, "tensor_info", TensorInfo), _f(2, "filename", "string"))


class MetaGraphDef(Message):
    """`tf.compat.v1.MetaGraphDef`: a graph, its Saver and its collections (and, in a
    SavedModel, its signatures and assets)."""
    FULL_NAME = "tensorflow.MetaGraphDef"
    FIELDS = (_f(1, "meta_info_def", MetaInfoDef), _f(2, "graph_def", GraphDef),
              _f(3, "saver_def", SaverDef),
              _f(4, "collection_def", ("string", CollectionDef), "map"),
              _f(5, "signature_def", ("string", SignatureDef), "map"),
              _f(6, "asset_file_def", AssetFileDef, "rep"))


class SavedModel(Message):
    """The `saved_model.pb` of a SavedModel directory: its MetaGraphDefs."""
    FULL_NAME = "tensorflow.SavedModel"
    FIELDS = (_f(1, "saved_model_schema_version", "int64"),
              _f(2, "meta_graphs", MetaGraphDef, "rep"))


MetaGraphDef.MetaInfoDef = MetaInfoDef  # type: ignore[attr-defined]


class SaveSliceInfoDef(Message):
    FULL_NAME = "tensorflow.SaveSliceInfoDef"
    FIELDS = (_f(1, "full_name", "string"), _f(2, "full_shape", "int64", "rep"),
              _f(3, "var_offset", "int64", "rep"), _f(4, "var_shape", "int64", "rep"))


class VariableDef(Message):
    FULL_NAME = "tensorflow.VariableDef"
    FIELDS = (_f(1, "variable_name", "string"), _f(6, "initial_value_name", "string"),
              _f(2, "initializer_name", "string"), _f(3, "snapshot_name", "string"),
              _f(4, "save_slice_info_def", SaveSliceInfoDef), _f(5, "is_resource", "bool"),
              _f(7, "trainable", "bool"), _f(8, "synchronization", "enum"),
              _f(9, "aggregation", "enum"))
