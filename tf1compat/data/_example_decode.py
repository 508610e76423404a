"""Fast decoding of serialized Examples for the parsing ops.

parse_example does not build message objects: `decode_features` walks the wire format of
an Example straight to {feature name: (kind, values)} (kind 1 bytes, 2 float, 3 int64; the
values a list of bytes, a float32 array or a list of ints), with a hand-written loop for
Example -> Features -> map entry -> Feature -> list, since it runs once per record.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np

from tf1compat.training import protobuf_wire as wire

__all__ = ["decode_features", "decode_sequence_example", "KIND_BYTES", "KIND_FLOAT",
           "KIND_INT64", "KIND_NONE"]


def _varints(raw: memoryview) -> List[int]:
    out = []
    pos, n = 0, len(raw)
    read = wire.read_varint
    while pos < n:
        v, pos = read(raw, pos)
        out.append(v - (1 << 64) if v >= (1 << 63) else v)
    return out


def _signed64(v: int) -> int:
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= (1 << 63) else v


KIND_BYTES, KIND_FLOAT, KIND_INT64, KIND_NONE = 1, 2, 3, 0


def _decode_feature(buf: memoryview) -> Tuple[int, Any]:
    """(kind, values) of a serialized Feature: bytes list, float32 array, int64 list."""
    kind, values = KIND_NONE, None
    for number, wire_type, raw in wire.iter_fields(buf):
        if number not in (1, 2, 3) or wire_type != wire.LENGTH_DELIMITED:
            continue
        kind = number
        if number == KIND_BYTES:
            values = [bytes(r) for n, _, r in wire.iter_fields(raw) if n == 1]
        elif number == KIND_FLOAT:
            parts = []
            for n, wt, r in wire.iter_fields(raw):
                if n != 1:
                    continue
                parts.append(np.frombuffer(r, "<f4"))
            values = np.concatenate(parts) if parts else np.zeros(0, np.float32)
        else:
            out: List[int] = []
            for n, wt, r in wire.iter_fields(raw):
                if n != 1:
                    continue
                if wt == wire.LENGTH_DELIMITED:
                    out.extend(_varints(r))
                else:
                    out.append(_signed64(r))
            values = out
    return kind, values


def _decode_map(buf: memoryview, decode_value: Any) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for number, wire_type, raw in wire.iter_fields(buf):
        if number != 1 or wire_type != wire.LENGTH_DELIMITED:
            continue
        key, body = "", memoryview(b"")
        for n, _, r in wire.iter_fields(raw):
            if n == 1:
                key = bytes(r).decode("utf-8")
            elif n == 2:
                body = r
        out[key] = decode_value(body)       # a later entry of one key wins, as protobuf
    return out


def _read_varint(data: bytes, pos: int) -> Tuple[int, int]:
    b = data[pos]
    if b < 0x80:
        return b, pos + 1
    return wire.read_varint(data, pos)


def _skip(data: bytes, pos: int, wire_type: int) -> int:
    if wire_type == wire.VARINT:
        return _read_varint(data, pos)[1]
    if wire_type == wire.FIXED64:
        return pos + 8
    if wire_type == wire.FIXED32:
        return pos + 4
    if wire_type == wire.LENGTH_DELIMITED:
        n, pos = _read_varint(data, pos)
        return pos + n
    raise wire.DecodeError(f"unsupported wire type {wire_type} at byte {pos}")


def _fast_feature(data: bytes, pos: int, end: int) -> Tuple[int, Any]:
    """(kind, values) of the Feature in data[pos:end] (a hand-written decoder: Examples are
    parsed once per record, so this path matters; one-byte varints, nearly all of them
    here, are read inline)."""
    kind, values = KIND_NONE, None
    read = wire.read_varint
    while pos < end:
        tag = data[pos]
        if tag < 0x80:
            pos += 1
        else:
            tag, pos = read(data, pos)
        number, wire_type = tag >> 3, tag & 7
        if number not in (1, 2, 3) or wire_type != wire.LENGTH_DELIMITED:
            pos = _skip(data, pos, wire_type)
            continue
        n = data[pos]
        if n < 0x80:
            pos += 1
        else:
            n, pos = read(data, pos)
        list_end = pos + n
        kind = number
        if number == KIND_BYTES:
            items: List[Any] = []
            while pos < list_end:
                tag = data[pos]
                if tag == 0x0A:
                    m = data[pos + 1]
                    if m < 0x80:
                        pos += 2
                    else:
                        m, pos = read(data, pos + 1)
                    items.append(data[pos:pos + m])
                    pos += m
                else:
                    tag, pos = _read_varint(data, pos)
                    pos = _skip(data, pos, tag & 7)
            values = items
        elif number == KIND_FLOAT:
            parts = []
            while pos < list_end:
                tag, pos = _read_varint(data, pos)
                if tag == 0x0A:
                    m, pos = _read_varint(data, pos)
                    parts.append(np.frombuffer(data, "<f4", m // 4, pos))
                    pos += m
                elif tag == 0x0D:
                    parts.append(np.frombuffer(data, "<f4", 1, pos))
                    pos += 4
                else:
                    pos = _skip(data, pos, tag & 7)
            values = parts[0] if len(parts) == 1 else (
                np.concatenate(parts) if parts else np.zeros(0, np.float32))
        else:
            ints: List[int] = []
            while pos < list_end:
                tag, pos = _read_varint(data, pos)
                if tag == 0x0A:
                    m, pos = _read_varint(data, pos)
                    stop = pos + m
                    while pos < stop:
                        v = data[pos]
                        if v < 0x80:
                            pos += 1
                            ints.append(v)
                            continue
                        v, pos = read(data, pos)
                        ints.append(v - (1 << 64) if v >= (1 << 63) else v)
                elif tag == 0x08:
                    v, pos = _read_varint(data, pos)
                    ints.append(v - (1 << 64) if v >= (1 << 63) else v)
                else:
                    pos = _skip(data, pos, tag & 7)
            values = ints
        pos = list_end
    if pos != end:
        raise wire.DecodeError("a Feature runs past its message")
    return kind, values


def decode_features(serialized: bytes) -> Dict[str, Tuple[int, Any]]:
    """{feature name: (kind, values)} of a serialized Example (DecodeError if malformed)."""
    data = bytes(serialized)
    features: Dict[str, Tuple[int, Any]] = {}
    pos, end = 0, len(data)
    read = wire.read_varint
    try:
        while pos < end:
            tag, pos = _read_varint(data, pos)
            if tag != 0x0A:                               # not Example.features
                pos = _skip(data, pos, tag & 7)
                continue
            n, pos = _read_varint(data, pos)
            features_end = pos + n
            while pos < features_end:
                tag = data[pos]
                if tag < 0x80:
                    pos += 1
                else:
                    tag, pos = read(data, pos)
                if tag != 0x0A:                           # not a Features.feature entry
                    pos = _skip(data, pos, tag & 7)
                    continue
                n = data[pos]
                if n < 0x80:
                    pos += 1
                else:
                    n, pos = read(data, pos)
                entry_end = pos + n
                key, value = "", (KIND_NONE, None)
                while pos < entry_end:
                    tag = data[pos]
                    if tag < 0x80:
                        pos += 1
                    else:
                        tag, pos = read(data, pos)
                    m = data[pos]
                    if tag == 0x0A:
                        if m < 0x80:
                            pos += 1
                        else:
                            m, pos = read(data, pos)
                        key = data[pos:pos + m].decode("utf-8")
                        pos += m
                    elif tag == 0x12:
                        if m < 0x80:
                            pos += 1
                        else:
                            m, pos = read(data, pos)
                        value = _fast_feature(data, pos, pos + m)
                        pos += m
                    else:
                        pos = _skip(data, pos, tag & 7)
                if pos != entry_end:
                    raise wire.DecodeError("a map entry runs past its message")
                features[key] = value
            if pos != features_end:
                raise wire.DecodeError("Features runs past its message")
        if pos != end:
            raise wire.DecodeError("truncated message")
    except IndexError:
        raise wire.DecodeError("truncated message") from None
    return features


def _decode_feature_list(buf: memoryview) -> List[Tuple[int, Any]]:
    return [_decode_feature(raw) for n, wt, raw in wire.iter_fields(buf)
            if n == 1 and wt == wire.LENGTH_DELIMITED]


def decode_sequence_example(serialized: bytes) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """(context features, feature lists) of a serialized SequenceExample."""
    buf = memoryview(serialized)
    context: Dict[str, Any] = {}
    lists: Dict[str, Any] = {}
    for number, wire_type, raw in wire.iter_fields(buf):
        if wire_type != wire.LENGTH_DELIMITED:
            continue
        if number == 1:
            context.update(_decode_map(raw, _decode_feature))
        elif number == 2:
            lists.update(_decode_map(raw, _decode_feature_list))
    return context, lists
