"""Test helper: writes small TF-style tensor bundles for edge cases TF will not produce
(big-endian data, compressed blocks, tiny blocks, odd entries). Real-TF fixtures remain
the reference; this only synthesizes variations of them."""

from __future__ import annotations

import struct
from typing import Dict, List, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes
from tf1compat.serialization import crc32c, tensor_bundle, tensor_codec
from tf1compat.serialization.messages import BundleEntryProto, BundleHeaderProto
from tf1compat.serialization.sstable import encode_varint


def _block(entries: List[Tuple[bytes, bytes]], restart_interval: int) -> bytes:
    out = bytearray()
    restarts = []
    prev = b""
    for i, (key, value) in enumerate(entries):
        if i % restart_interval == 0:
            restarts.append(len(out))
            shared = 0
        else:
            shared = 0
            while shared < min(len(prev), len(key)) and prev[shared] == key[shared]:
                shared += 1
        out += encode_varint(shared) + encode_varint(len(key) - shared)
        out += encode_varint(len(value)) + key[shared:] + value
        prev = key
    if not restarts:
        restarts = [0]
    for r in restarts:
        out += struct.pack("<I", r)
    out += struct.pack("<I", len(restarts))
    return bytes(out)


def build_table(items: List[Tuple[bytes, bytes]], block_size: int = 4096,
                restart_interval: int = 16, compression: int = 0) -> bytes:
    """An SSTable holding `items` (sorted by key)."""
    out = bytearray()
    index: List[Tuple[bytes, bytes]] = []

    def emit(contents: bytes, kind: int) -> bytes:
        offset = len(out)
        out.extend(contents)
        trailer = bytes([kind])
        out.extend(trailer + struct.pack("<I", crc32c.mask(crc32c.value(contents + trailer))))
        return encode_varint(offset) + encode_varint(len(contents))

    pending: List[Tuple[bytes, bytes]] = []
    size = 0
    for key, value in items:
        pending.append((key, value))
        size += len(key) + len(value) + 3
        if size >= block_size:
            index.append((key, emit(_block(pending, restart_interval), compression)))
            pending, size = [], 0
    if pending:
        index.append((pending[-1][0], emit(_block(pending, restart_interval), compression)))
    meta_handle = emit(_block([], restart_interval), 0)
    index_handle = emit(_block(index, 1), 0)
    footer = (meta_handle + index_handle).ljust(40, b"\x00")
    footer += struct.pack("<II", 0x8B80FB57, 0xDB477524)
    return bytes(out + footer)


def _entry(value: np.ndarray, dtype: dtypes.DType, offset: int, big_endian: bool
           ) -> Tuple[BundleEntryProto, bytes]:
    if dtype == dtypes.string:
        flat = value.reshape(-1)
        lengths = b"".join(encode_varint(len(s)) for s in flat)
        crc = 0
        for s in flat:
            crc = crc32c.extend(crc, struct.pack("<I", len(s)))
        masked = struct.pack("<I", crc32c.mask(crc))
        crc = crc32c.extend(crc, masked)
        body = b"".join(flat)
        crc = crc32c.extend(crc, body)
        data = lengths + masked + body
    else:
        store = tensor_codec.storage_dtype(dtype)
        arr = np.ascontiguousarray(value, dtype=store)
        if big_endian:
            arr = arr.astype(store.newbyteorder(">"))
        data = arr.tobytes()
        crc = crc32c.value(data)
    entry = BundleEntryProto(dtype=dtype.as_datatype_enum, shard_id=0, offset=offset,
                             size=len(data), crc32c=crc32c.mask(crc))
    for d in value.shape:
        entry.shape.dim.add(size=d)
    return entry, data


def write_bundle(prefix: str, tensors: Dict[str, Tuple[np.ndarray, dtypes.DType]], *,
                 big_endian: bool = False, block_size: int = 4096, restart_interval: int = 16,
                 compression: int = 0, header: Optional[Dict] = None,
                 raw_entries: Optional[Dict[bytes, bytes]] = None) -> None:
    """Writes `<prefix>.index` and one data shard holding `tensors` (name -> (value, dtype))."""
    data = bytearray()
    items = []
    for name, (value, dtype) in tensors.items():
        entry, raw = _entry(np.asarray(value, dtype=object if dtype == dtypes.string else None),
                            dtype, len(data), big_endian)
        data += raw
        items.append((name.encode(), entry.SerializeToString()))
    items += list((raw_entries or {}).items())
    hdr = header if header is not None else {
        "num_shards": 1, "endianness": 1 if big_endian else 0,
        "version": {"producer": 1, "min_consumer": 0, "bad_consumers": []}}
    items.append((b"", BundleHeaderProto(**hdr).SerializeToString()))
    items.sort()
    with open(tensor_bundle.index_filename(prefix), "wb") as f:
        f.write(build_table(items, block_size, restart_interval, compression))
    with open(tensor_bundle.data_filename(prefix, 0, 1), "wb") as f:
        f.write(bytes(data))
