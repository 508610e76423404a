"""A tiny protobuf wire-format codec, enough for TF's checkpoint protos.

tf1compat has no protobuf dependency. TF's tensor bundles store their metadata as
serialized protos (BundleHeaderProto, BundleEntryProto, TrackableObjectGraph), so this
module decodes (and, for tests and tools, encodes) messages described by a small schema:

    SCHEMA = {field_number: (name, kind, repeated)}

where `kind` is a scalar kind ("int32", "int64", "uint32", "uint64", "bool", "enum",
"fixed32", "fixed64", "sfixed32", "sfixed64", "float", "double", "string", "bytes") or a
nested schema dict for a sub-message; a scalar kind ending in "?" has explicit presence
(proto3 `optional`/`oneof`: None when absent). Decoding gives plain dicts: every field of
the schema is present (proto3 defaults: 0, False, "", b"", [] for repeated, None for an
unset sub-message); unknown fields are skipped, as protobuf parsers do. Malformed input raises
`DecodeError` (a ValueError) saying what is wrong and where.
"""

from __future__ import annotations

import struct
from typing import Any, Dict, Iterator, Tuple, Union

__all__ = ["DecodeError", "read_varint", "iter_fields", "decode", "encode", "encode_varint"]

Schema = Dict[int, Tuple[str, Any, bool]]
Buffer = Union[bytes, bytearray, memoryview]

VARINT, FIXED64, LENGTH_DELIMITED, START_GROUP, END_GROUP, FIXED32 = 0, 1, 2, 3, 4, 5

_VARINT_KINDS = {"int32", "int64", "uint32", "uint64", "bool", "enum", "sint32", "sint64"}
_FIXED32_KINDS = {"fixed32": "<I", "sfixed32": "<i", "float": "<f"}
_FIXED64_KINDS = {"fixed64": "<Q", "sfixed64": "<q", "double": "<d"}
_DEFAULTS = {"bool": False, "string": "", "bytes": b"", "float": 0.0, "double": 0.0}


def _default(kind: Any) -> Any:
    if isinstance(kind, dict) or kind.endswith("?"):
        return None
    return _DEFAULTS.get(kind, 0)


class DecodeError(ValueError):
    """The bytes are not a valid serialization of the expected message."""


def read_varint(buf: Buffer, pos: int) -> Tuple[int, int]:
    """Decodes the varint at `buf[pos:]`; returns (value, position after it)."""
    result = 0
    shift = 0
    n = len(buf)
    while True:
        if pos >= n:
            raise DecodeError(f"truncated varint at byte {pos}")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise DecodeError(f"varint longer than 10 bytes at byte {pos}")


def encode_varint(value: int) -> bytes:
    """Varint bytes of a non-negative int (negative ints as 64-bit two's complement)."""
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while True:
        b = value & 0x7F
        value >>= 7
        if value:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def iter_fields(buf: Buffer) -> Iterator[Tuple[int, int, Any]]:
    """Yields (field number, wire type, raw value) for each field of a serialized message.

    Raw values: int for varints, bytes of 4/8 for fixed32/fixed64, a memoryview slice for
    length-delimited fields.
    """
    view = memoryview(buf)
    pos, n = 0, len(view)
    while pos < n:
        start = pos
        tag, pos = read_varint(view, pos)
        number, wire = tag >> 3, tag & 7
        if number == 0:
            raise DecodeError(f"invalid field number 0 at byte {start}")
        if wire == VARINT:
            value, pos = read_varint(view, pos)
        elif wire == FIXED64:
            if pos + 8 > n:
                raise DecodeError(f"truncated fixed64 field {number} at byte {start}")
            value, pos = bytes(view[pos:pos + 8]), pos + 8
        elif wire == FIXED32:
            if pos + 4 > n:
                raise DecodeError(f"truncated fixed32 field {number} at byte {start}")
            value, pos = bytes(view[pos:pos + 4]), pos + 4
        elif wire == LENGTH_DELIMITED:
            length, pos = read_varint(view, pos)
            if pos + length > n:
                raise DecodeError(f"field {number} at byte {start} runs past the end of the "
                                  f"message ({length} bytes, {n - pos} left)")
            value, pos = view[pos:pos + length], pos + length
        else:
            raise DecodeError(f"unsupported wire type {wire} (field {number}) at byte {start}")
        yield number, wire, value


def _signed(value: int, bits: int) -> int:
    value &= (1 << 64) - 1
    if value >= 1 << 63:
        value -= 1 << 64
    if bits == 32:
        value = ((value + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)
    return value


def _scalar(kind: str, wire: int, raw: Any, number: int) -> Any:
    if kind in _VARINT_KINDS:
        if wire != VARINT:
            raise DecodeError(f"field {number}: expected a varint, got wire type {wire}")
        if kind == "bool":
            return raw != 0
        if kind in ("int32", "enum"):
            return _signed(raw, 32)
        if kind == "int64":
            return _signed(raw, 64)
        if kind in ("sint32", "sint64"):
            return (raw >> 1) ^ -(raw & 1)
        if kind == "uint32":
            return raw & 0xFFFFFFFF
        return raw
    if kind in _FIXED32_KINDS:
        if wire != FIXED32:
            raise DecodeError(f"field {number}: expected fixed32, got wire type {wire}")
        return struct.unpack(_FIXED32_KINDS[kind], raw)[0]
    if kind in _FIXED64_KINDS:
        if wire != FIXED64:
            raise DecodeError(f"field {number}: expected fixed64, got wire type {wire}")
        return struct.unpack(_FIXED64_KINDS[kind], raw)[0]
    if wire != LENGTH_DELIMITED:
        raise DecodeError(f"field {number}: expected length-delimited, got wire type {wire}")
    if kind == "string":
        try:
            return bytes(raw).decode("utf-8")
        except UnicodeDecodeError as e:
            raise DecodeError(f"field {number}: string is not valid UTF-8 ({e})") from None
    if kind == "bytes":
        return bytes(raw)
    raise AssertionError(f"unknown field kind {kind!r}")


def _unpack(kind: str, raw: memoryview, number: int) -> list:
    """The values of a packed repeated scalar field."""
    out = []
    if kind in _VARINT_KINDS:
        pos = 0
        while pos < len(raw):
            v, pos = read_varint(raw, pos)
            out.append(_scalar(kind, VARINT, v, number))
        return out
    fmt = _FIXED32_KINDS.get(kind) or _FIXED64_KINDS.get(kind)
    size = struct.calcsize(fmt)
    if len(raw) % size:
        raise DecodeError(f"field {number}: packed length {len(raw)} is not a multiple of {size}")
    return [v[0] for v in struct.iter_unpack(fmt, raw)]


def decode(buf: Buffer, schema: Schema, _depth: int = 0) -> Dict[str, Any]:
    """Decodes a serialized message into a dict following `schema`."""
    if _depth > 64:
        raise DecodeError("message nesting deeper than 64 levels")
    out: Dict[str, Any] = {}
    for name, kind, repeated in schema.values():
        out[name] = [] if repeated else _default(kind)
    for number, wire, raw in iter_fields(buf):
        spec = schema.get(number)
        if spec is None:
            continue  # unknown field: skipped, as protobuf does
        name, kind, repeated = spec
        if isinstance(kind, str):
            kind = kind.rstrip("?")
        if isinstance(kind, dict):
            if wire != LENGTH_DELIMITED:
                raise DecodeError(f"field {number} ({name}): expected a message, "
                                  f"got wire type {wire}")
            value = decode(raw, kind, _depth + 1)
            if repeated:
                out[name].append(value)
            elif out[name] is not None:
                out[name] = _merge(out[name], value, kind)  # repeated occurrences merge
            else:
                out[name] = value
        elif repeated and wire == LENGTH_DELIMITED and kind not in ("string", "bytes"):
            out[name].extend(_unpack(kind, raw, number))
        elif repeated:
            out[name].append(_scalar(kind, wire, raw, number))
        else:
            out[name] = _scalar(kind, wire, raw, number)
    return out


def _merge(old: Dict[str, Any], new: Dict[str, Any], schema: Schema) -> Dict[str, Any]:
    merged = dict(old)
    for name, kind, repeated in schema.values():
        if repeated:
            merged[name] = old[name] + new[name]
        elif isinstance(kind, dict):
            if new[name] is not None:
                merged[name] = new[name] if old[name] is None else \
                    _merge(old[name], new[name], kind)
        elif new[name] is not None and new[name] != _default(kind):
            merged[name] = new[name]
    return merged


def _encode_scalar(kind: str, value: Any) -> Tuple[int, bytes]:
    if kind in _VARINT_KINDS:
        if kind in ("sint32", "sint64"):
            value = (value << 1) ^ (value >> 63)
        return VARINT, encode_varint(int(value))
    if kind in _FIXED32_KINDS:
        return FIXED32, struct.pack(_FIXED32_KINDS[kind], value)
    if kind in _FIXED64_KINDS:
        return FIXED64, struct.pack(_FIXED64_KINDS[kind], value)
    data = value.encode("utf-8") if kind == "string" else bytes(value)
    return LENGTH_DELIMITED, encode_varint(len(data)) + data


def encode(message: Dict[str, Any], schema: Schema) -> bytes:
    """Serializes a dict (as `decode` returns) following `schema`; proto3 defaults are omitted."""
    out = bytearray()
    for number, (name, kind, repeated) in sorted(schema.items()):
        value = message.get(name)
        values = list(value or []) if repeated else [value]
        if repeated and values and not isinstance(kind, dict) and \
                kind not in ("string", "bytes"):
            # Repeated numbers are packed, as proto3 (and TF's [packed=true]) write them.
            data = b"".join(_encode_scalar(kind, v)[1] for v in values)
            out += encode_varint(number << 3 | LENGTH_DELIMITED)
            out += encode_varint(len(data)) + data
            continue
        for v in values:
            if v is None:
                continue
            if isinstance(kind, dict):
                data = encode(v, kind)
                out += encode_varint(number << 3 | LENGTH_DELIMITED)
                out += encode_varint(len(data)) + data
                continue
            if not repeated and v == _default(kind) and not (
                    kind in ("float", "double") and str(v).startswith("-")):
                continue
            wire, data = _encode_scalar(kind.rstrip("?"), v)
            out += encode_varint(number << 3 | wire) + data
    return bytes(out)
