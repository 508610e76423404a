"""`tf.io.decode_json_example` (DecodeJSONExample): `tf.train.Example` protos written in
protobuf's JSON mapping, converted to their binary wire form.

TF converts the JSON text to wire bytes as a stream (protobuf's JSON-to-binary converter),
so its bytes follow the JSON: map entries and repeated messages in the order written, a
message written twice emitted twice, repeated numbers unpacked (one tag per value). This
module writes the same bytes for the Example schema (Example -> Features -> map<string,
Feature> -> one of BytesList / FloatList / Int64List), accepting what protobuf's parser
accepts there: field names in camelCase or as declared, `null` for an absent field, a
single value for a repeated one, int64s as numbers or strings, floats as numbers or
strings (including "NaN" / "Infinity"), bytes as standard or URL-safe base64.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import struct
from typing import Any, Callable, List, Optional, Tuple

import numpy as np

from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op1
from tf1compat.framework.op_def import declare
from tf1compat.framework.tensor import Tensor

__all__ = ["decode_json_example"]

_INT64_RANGE = (-2 ** 63, 2 ** 63 - 1)


class _JsonError(Exception):
    """A reason the JSON is not an Example (the kernel reports it as TF does)."""


class _Object(list):
    """A JSON object as its (key, value) pairs, in the order written (arrays stay lists)."""


# -- wire encoding ---------------------------------------------------------------------------

def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1           # negative int64s as their 10-byte two's complement
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _length_delimited(field: int, payload: bytes) -> bytes:
    return _varint(field << 3 | 2) + _varint(len(payload)) + payload


# -- JSON values of the Example schema --------------------------------------------------------

def _fields(value: Any, message: str, path: str, names: dict) -> List[Tuple[int, Any]]:
    """The (field number, value) pairs of a JSON object for `message`, in JSON order."""
    if not isinstance(value, _Object):
        raise _JsonError(f"{path}: message {message}: expected '{{'")
    out = []
    for key, item in value:
        if key not in names:
            raise _JsonError(f"{path}: no such field: '{key}'")
        if item is not None:
            out.append((names[key], item))
    return out


def _repeated(value: Any) -> list:
    """A repeated field's values (protobuf's parser takes a single value for a list)."""
    return value if isinstance(value, list) and not isinstance(value, _Object) else [value]


def _int64(item: Any, path: str) -> int:
    if isinstance(item, bool) or not isinstance(item, (int, float, str)):
        raise _JsonError(f"{path}: int64: expected number or string")
    if isinstance(item, str):
        text = item.strip()
        try:
            # strtoll with base 0, as protobuf's parser: 0x.. hex, 0.. octal, else decimal.
            if text.lower().lstrip("+-").startswith("0x"):
                value = int(text, 16)
            elif text.lstrip("+-").startswith("0") and text.lstrip("+-") != "0":
                value = int(text, 8)
            else:
                value = int(text)
        except ValueError:
            raise _JsonError(f"{path}: int64: invalid integer '{item}'") from None
    elif isinstance(item, float):
        if not item.is_integer():
            raise _JsonError(f"{path}: int64: expected integer, but JSON number had "
                             "fractional part")
        value = int(item)
    else:
        value = item
    if not _INT64_RANGE[0] <= value <= _INT64_RANGE[1]:
        raise _JsonError(f"{path}: int64: JSON number out of range for int")
    return value


def _float(item: Any, path: str) -> float:
    if isinstance(item, bool) or not isinstance(item, (int, float, str)):
        raise _JsonError(f"{path}: float: expected number or string")
    special = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
    if isinstance(item, str) and item in special:
        return special[item]
    try:
        value = float(item)
    except ValueError:
        raise _JsonError(f"{path}: float: invalid number '{item}'") from None
    # Out of range once rounded to float32 (3.4028235e38 rounds to FLT_MAX and is fine).
    with np.errstate(over="ignore"):
        overflows = math.isfinite(value) and math.isinf(np.float32(value))
    if overflows:
        raise _JsonError(f"{path}: float: float out of range")
    return value


def _bytes(item: Any, path: str) -> bytes:
    if not isinstance(item, str):
        raise _JsonError(f"{path}: bytes: expected string")
    text = item.replace("-", "+").replace("_", "/").rstrip("=")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise _JsonError(f"{path}: bytes: corrupt base64") from None


_LISTS = {1: ("BytesList", _bytes), 2: ("FloatList", _float), 3: ("Int64List", _int64)}
_LIST_NAMES = {"bytesList": 1, "bytes_list": 1, "floatList": 2, "float_list": 2,
               "int64List": 3, "int64_list": 3}


def _value_list(kind: int, value: Any, path: str) -> bytes:
    message, convert = _LISTS[kind]
    out = bytearray()
    for _, items in _fields(value, f"tensorflow.{message}", path, {"value": 1}):
        for i, item in enumerate(_repeated(items)):
            converted = convert(item, f"{path}.value[{i}]")
            if kind == 1:
                out += _length_delimited(1, converted)
            elif kind == 2:
                out += _varint(1 << 3 | 5) + struct.pack("<f", converted)
            else:
                out += _varint(1 << 3) + _varint(converted)
    return bytes(out)


def _feature(value: Any, path: str) -> bytes:
    out = bytearray()
    chosen: Optional[int] = None
    for kind, item in _fields(value, "tensorflow.Feature", path, _LIST_NAMES):
        if chosen is not None:
            raise _JsonError(f"{path}: '{_LISTS[kind][0]}' has already been set (either "
                             "directly or as part of a oneof)")
        chosen = kind
        list_path = f"{path}.{_LISTS[kind][0][0].lower()}{_LISTS[kind][0][1:]}"
        out += _length_delimited(kind, _value_list(kind, item, list_path))
    return bytes(out)


def _features(value: Any, path: str) -> bytes:
    out = bytearray()
    for _, feature_map in _fields(value, "tensorflow.Features", path, {"feature": 1}):
        if not isinstance(feature_map, _Object):
            raise _JsonError(f"{path}.feature: map: expected '{{'")
        seen = set()
        for i, (key, feature) in enumerate(feature_map):
            if key in seen:
                raise _JsonError(f"{path}.feature[{i}]: got unexpectedly-repeated repeated "
                                 f"map key: '{key}'")
            seen.add(key)
            entry = _length_delimited(1, key.encode("utf-8"))
            if feature is not None:
                entry += _length_delimited(2, _feature(feature, f"{path}.feature[{i}]"))
            out += _length_delimited(1, entry)
    return bytes(out)


def json_example_to_binary(text: bytes) -> bytes:
    """The wire bytes of the Example `text` writes in protobuf's JSON mapping (raises
    _JsonError naming what is wrong)."""
    def reject_constant(name: str) -> Any:
        raise _JsonError(f"unexpected character: '{name[0]}'")
    try:
        value = json.loads(text.decode("utf-8"), parse_constant=reject_constant,
                           object_pairs_hook=_Object)
    except json.JSONDecodeError as e:
        raise _JsonError("unexpected EOF" if not text.strip() else
                         f"invalid JSON, near offset {e.pos}: {e.msg}") from None
    except UnicodeDecodeError:
        raise _JsonError("invalid UTF-8") from None
    if not isinstance(value, _Object):
        raise _JsonError("unexpected character; expected '{'")
    out = bytearray()
    for _, features in _fields(value, "tensorflow.Example", "tensorflow.Example",
                               {"features": 1}):
        out += _length_delimited(1, _features(features, "features"))
    return bytes(out)


# -- the op ------------------------------------------------------------------------------------

def _decode_json_example_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    def decode_json_example(json_examples: Any) -> Any:
        strings = np.asarray(json_examples, dtype=object)
        out = np.empty(strings.shape, dtype=object)
        flat = out.reshape(-1)
        for i, text in enumerate(strings.reshape(-1)):
            try:
                flat[i] = json_example_to_binary(bytes(text))
            except _JsonError as e:
                raise errors.InvalidArgumentError(
                    None, None, f"Error while parsing JSON: {e}") from None
        return out
    return decode_json_example


declare("DecodeJSONExample", inputs=["json_examples: string"],
        outputs=["binary_examples: string"], shape=lambda ctx: [ctx.shape(0)],
        kernel=_decode_json_example_kernel, grad="unregistered", cpu_only=True,
        doc="tf.train.Example protos in protobuf's JSON mapping -> their wire bytes.")


def decode_json_example(json_examples: Any, name: Optional[str] = None) -> Tensor:
    """`tf.io.decode_json_example`: each string, a `tf.train.Example` in protobuf's JSON
    mapping, as the Example's serialized bytes (TF's bytes: fields in the JSON's order,
    repeated numbers unpacked)."""
    return apply_op1("DecodeJSONExample", [json_examples], name=name)
