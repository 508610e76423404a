"""Slices of partitioned tensors: TF's "shape and slice" specs and stored-slice keys.

A Saver writes each partition of a partitioned variable with a spec such as
"10 4 0,5:-" (the full shape, then `start,length` per dimension, "-" for all of it).
A checkpoint index lists a partitioned tensor's stored slices as TensorSliceProtos and
keeps each slice under a key that encodes the tensor name and the extents in TF's
OrderedCode (so a table's key order groups a tensor's slices together).
"""

from __future__ import annotations

import re
from typing import List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.framework import errors
from tf1compat.serialization.messages import TensorSliceProto

__all__ = ["SliceSpec", "parse_slice_spec", "slice_from_proto", "slice_to_proto",
           "encode_tensor_name_slice", "covers", "slice_of"]


class SliceSpec:
    """A parsed "full shape + slice" spec: "4 3 0,2:0,3" (TF's TensorSlice text form).

    `starts`/`lengths` are the extents in numbers; `whole[d]` says dimension d was given
    as "-" (TF keeps "0,4" and "-" apart: they give different stored-slice keys).
    """

    __slots__ = ("full_shape", "starts", "lengths", "whole", "text")

    def __init__(self, full_shape: List[int], starts: List[int], lengths: List[int],
                 text: str = "", whole: Optional[Sequence[bool]] = None):
        self.full_shape = list(full_shape)
        self.starts = list(starts)
        self.lengths = list(lengths)
        self.whole = list(whole) if whole is not None else [False] * len(self.starts)
        self.text = text or self.spec_text()

    @property
    def index(self) -> Tuple[slice, ...]:
        return tuple(slice(s, s + n) for s, n in zip(self.starts, self.lengths))

    def covers_all(self) -> bool:
        return all(s == 0 and n == d for s, n, d in zip(self.starts, self.lengths,
                                                       self.full_shape))

    def within(self, other: "SliceSpec") -> bool:
        """Whether this slice lies inside `other` (both of one full shape)."""
        return all(o <= s and s + n <= o + m for s, n, o, m in
                   zip(self.starts, self.lengths, other.starts, other.lengths))

    def extents(self) -> List[Tuple[int, int]]:
        """(start, length) per dimension, length -1 for a whole dimension given as "-"."""
        return [(0, -1) if w else (s, n)
                for s, n, w in zip(self.starts, self.lengths, self.whole)]

    def extents_text(self) -> str:
        """TF's TensorSlice text: "0,5:-"."""
        return ":".join("-" if n < 0 else f"{s},{n}" for s, n in self.extents())

    def spec_text(self) -> str:
        """The full "shape and slice" spec: "10 4 0,5:-"."""
        return " ".join(str(d) for d in self.full_shape) + " " + self.extents_text()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SliceSpec) and self.full_shape == other.full_shape and \
            self.starts == other.starts and self.lengths == other.lengths

    def __hash__(self) -> int:
        return hash((tuple(self.full_shape), tuple(self.starts), tuple(self.lengths)))

    def __repr__(self) -> str:
        return f"SliceSpec({self.spec_text()!r})"


def parse_slice_spec(text: str, name: str = "") -> Optional[SliceSpec]:
    """None for "" (the whole tensor); else the parsed spec (InvalidArgumentError if bad)."""
    if not text:
        return None
    parts = text.split(" ")
    try:
        full = [int(p) for p in parts[:-1]]
        starts, lengths, whole = [], [], []
        extents = parts[-1].split(":")
        if len(extents) != len(full):
            raise ValueError
        for dim, extent in zip(full, extents):
            if extent == "-":
                starts.append(0)
                lengths.append(dim)
                whole.append(True)
                continue
            start, length = (int(x) for x in extent.split(","))
            if start < 0 or length < 0 or start + length > dim:
                raise ValueError
            starts.append(start)
            lengths.append(length)
            whole.append(False)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f"Unable to parse slice spec {text!r} of tensor {name}") from None
    return SliceSpec(full, starts, lengths, text, whole)


# The oneof that gives Extent.length presence (named as in TF's schema).
_LENGTH_ONEOF = TensorSliceProto.Extent.DESCRIPTOR.oneofs[0].name


def slice_from_proto(proto: TensorSliceProto, full_shape: Sequence[int]) -> SliceSpec:
    """The slice a TensorSliceProto describes within a tensor of `full_shape`."""
    starts, lengths, whole = [], [], []
    for extent, dim in zip(proto.extent, full_shape):
        has_length = extent.WhichOneof(_LENGTH_ONEOF) is not None
        starts.append(extent.start)
        lengths.append(extent.length if has_length else dim - extent.start)
        whole.append(not has_length)
    return SliceSpec(list(full_shape), starts, lengths, whole=whole)


def slice_to_proto(spec: SliceSpec) -> TensorSliceProto:
    """TF's TensorSliceProto of a slice (a whole dimension has no length, as TF writes)."""
    proto = TensorSliceProto()
    for start, length in spec.extents():
        extent = proto.extent.add()
        if length >= 0:
            extent.start = start
            extent.length = length
    return proto


def slice_of(value: np.ndarray, spec: SliceSpec, name: str) -> np.ndarray:
    """The part `spec` of a whole stored tensor `value` (a copy), with TF's error when the
    spec's full shape is not the stored one."""
    if list(value.shape) != spec.full_shape:
        raise errors.InvalidArgumentError(
            None, None, f"tensor_name = {name}; shape in shape_and_slice spec "
                        f"{spec.full_shape} does not match the shape stored in "
                        f"checkpoint: {list(value.shape)}")
    return value[spec.index].copy()


def covers(specs: Sequence[SliceSpec]) -> bool:
    """Whether the (disjoint, as partitioners make them) slices fill the full shape."""
    full = specs[0].full_shape
    total = int(np.prod(full, dtype=np.int64))
    held = sum(int(np.prod(s.lengths, dtype=np.int64)) for s in specs)
    return held >= total


# -- stored-slice keys (TF's OrderedCode) ----------------------------------------------------

def _ordered_num(value: int) -> bytes:
    body = value.to_bytes(8, "big").lstrip(b"\x00")
    return bytes([len(body)]) + body


def _ordered_string(value: bytes) -> bytes:
    # 0x00 and 0xff are escaped (as 00 ff and ff 00); 00 01 ends the string.
    return re.sub(rb"[\x00\xff]", lambda m: b"\x00\xff" if m.group() == b"\x00"
                  else b"\xff\x00", value) + b"\x00\x01"


def _ordered_signed(value: int) -> bytes:
    x = ~value if value < 0 else value
    if x < 64:
        return bytes([(0x80 ^ value) & 0xFF])
    bits = x.bit_length() + 1  # magnitude bits plus the sign bit
    length = (bits + 6) // 7   # each byte carries 7 payload bits, the rest are header
    if length > 10:
        raise ValueError(f"{value} is too large for OrderedCode")
    # Two's complement, sign-extended to 10 bytes; the leading bits become the header.
    raw = bytearray((value & ((1 << 80) - 1)).to_bytes(10, "big")[10 - length:])
    header = [(0, 0), (0x80, 0), (0xC0, 0), (0xE0, 0), (0xF0, 0), (0xF8, 0), (0xFC, 0),
              (0xFE, 0), (0xFF, 0), (0xFF, 0x80), (0xFF, 0xC0)][length]
    raw[0] ^= header[0]
    raw[1] ^= header[1]
    return bytes(raw)


def encode_tensor_name_slice(name: bytes, extents: List[Tuple[int, int]]) -> bytes:
    """The table key of one stored slice: (start, length) per dim, length -1 for "all"."""
    out = _ordered_num(0) + _ordered_string(name) + _ordered_num(len(extents))
    for start, length in extents:
        out += _ordered_signed(start) + _ordered_signed(length)
    return out
