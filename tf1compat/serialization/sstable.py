"""The sorted string table of a checkpoint's `.index` file (LevelDB's table layout).

A table is data blocks of key/value entries, an (empty) meta-index block, an index
block with one entry per data block (a key >= every key of the block and < the next
block's keys, and the block's handle), and a 48-byte footer: the meta-index and index
block handles (varint offset and size each, zero-padded to 40 bytes) and a magic
number. Each block is followed by a compression byte and the masked CRC-32C of the
block and that byte. Within a block keys are prefix-compressed against the previous
key, with a restart point (a full key) every 16 entries; the block ends with the
restart offsets and their count.

`write_table` lays a table out as TensorFlow's table builder does for checkpoints
(256 KiB blocks, uncompressed); `read_table` reads any uncompressed table and raises
DataLossError with TF's messages when it is damaged.
"""

from __future__ import annotations

import struct
from typing import Iterable, List, Tuple, Union

from tf1compat.framework import errors
from tf1compat.serialization import crc32c

__all__ = ["TABLE_MAGIC", "FOOTER_SIZE", "read_table", "encode_table", "read_varint",
           "encode_varint", "looks_like_table"]

TABLE_MAGIC = 0xDB4775248B80FB57
FOOTER_SIZE = 48      # two block handles padded to 40 bytes, then the 8-byte magic
_HANDLES_SIZE = 40
_BLOCK_TRAILER = 5    # compression type byte + masked crc32c
_NO_COMPRESSION, _SNAPPY = 0, 1
_BLOCK_SIZE = 262144  # TF's table option: start a new data block past this size
_RESTART_INTERVAL = 16

Buffer = Union[bytes, memoryview]


def _data_loss(msg: str) -> errors.DataLossError:
    return errors.DataLossError(None, None, msg)


def encode_varint(value: int) -> bytes:
    """LevelDB's / protobuf's varint of a non-negative int."""
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def read_varint(buf: Buffer, pos: int) -> Tuple[int, int]:
    """(value, position after it) of the varint at `buf[pos:]`; ValueError if malformed."""
    result = shift = 0
    n = len(buf)
    while True:
        if pos >= n or shift > 63:
            raise ValueError(f"bad varint at byte {pos}")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


# -- reading ---------------------------------------------------------------------------------

def _block_handle(buf: Buffer, pos: int) -> Tuple[int, int, int]:
    try:
        offset, pos = read_varint(buf, pos)
        size, pos = read_varint(buf, pos)
    except ValueError:
        raise _data_loss("bad block handle") from None
    return offset, size, pos


def _read_block(data: memoryview, offset: int, size: int, path: str) -> memoryview:
    end = offset + size + _BLOCK_TRAILER
    if end > len(data):
        raise _data_loss("truncated block read")
    contents = data[offset:offset + size + 1]  # the block and its compression byte
    stored = struct.unpack_from("<I", data, offset + size + 1)[0]
    if crc32c.unmask(stored) != crc32c.value(contents):
        raise _data_loss("block checksum mismatch")
    kind = data[offset + size]
    if kind == _SNAPPY:
        raise errors.UnimplementedError(
            None, None, f"{path}: the table uses snappy-compressed blocks, which tf1compat "
                        f"cannot read (TensorFlow writes checkpoint indexes uncompressed)")
    if kind != _NO_COMPRESSION:
        raise _data_loss("bad block type")
    return data[offset:offset + size]


def _block_entries(block: memoryview) -> List[Tuple[bytes, memoryview]]:
    """All (key, value) pairs of a block, decoding the prefix-compressed keys."""
    n = len(block)
    if n < 4:
        raise _data_loss("bad block contents")
    num_restarts = struct.unpack_from("<I", block, n - 4)[0]
    if num_restarts > (n - 4) // 4:
        raise _data_loss("bad block contents")
    limit = n - 4 * (1 + num_restarts)
    out = []
    key = b""
    pos = 0
    while pos < limit:
        try:
            shared, pos = read_varint(block, pos)
            non_shared, pos = read_varint(block, pos)
            value_length, pos = read_varint(block, pos)
        except ValueError:
            raise _data_loss("bad entry in block") from None
        if shared > len(key) or pos + non_shared + value_length > limit:
            raise _data_loss("bad entry in block")
        key = key[:shared] + bytes(block[pos:pos + non_shared])
        pos += non_shared
        out.append((key, block[pos:pos + value_length]))
        pos += value_length
    return out


def looks_like_table(path: str) -> Union[str, None]:
    """None if the file at `path` ends in a table footer, else what TF reports about it."""
    import os
    try:
        size = os.path.getsize(path)
        if size < FOOTER_SIZE:
            return "DATA_LOSS: file is too short to be an sstable"
        with open(path, "rb") as f:
            f.seek(size - 8)
            magic = int.from_bytes(f.read(8), "little")
    except IsADirectoryError:
        return f"FAILED_PRECONDITION: {path}; Is a directory"
    if magic != TABLE_MAGIC:
        return "DATA_LOSS: not an sstable (bad magic number)"
    return None


def read_table(path: str) -> List[Tuple[bytes, bytes]]:
    """Every (key, value) of the table at `path`, in key order; DataLossError if corrupt."""
    with open(path, "rb") as f:
        raw = f.read()
    data = memoryview(raw)
    if len(data) < FOOTER_SIZE:
        raise _data_loss("file is too short to be an sstable")
    footer = data[len(data) - FOOTER_SIZE:]
    lo, hi = struct.unpack_from("<II", footer, FOOTER_SIZE - 8)
    if (hi << 32 | lo) != TABLE_MAGIC:
        raise _data_loss("not an sstable (bad magic number)")
    _, _, pos = _block_handle(footer, 0)  # the metaindex block: unused by TF's tables
    index_offset, index_size, _ = _block_handle(footer, pos)
    index = _read_block(data, index_offset, index_size, path)
    out: List[Tuple[bytes, bytes]] = []
    try:
        for _, handle in _block_entries(index):
            offset, size, _ = _block_handle(handle, 0)
            for key, value in _block_entries(_read_block(data, offset, size, path)):
                if out and key <= out[-1][0]:
                    raise _data_loss("bad entry in block")  # keys must strictly increase
                out.append((key, bytes(value)))
    except errors.DataLossError as e:
        # Problems past the footer and index block surface in TF while the bundle reader
        # seeks its header entry, and are reported with that context.
        raise _data_loss(f"Unable to read file ({path}). Perhaps the file is corrupt or was "
                         f"produced by a newer version of TensorFlow with format changes "
                         f"(failed to seek to header entry): {e.message}") from None
    return out


# -- writing ---------------------------------------------------------------------------------

class _BlockBuilder:
    """Entries of one block, prefix-compressed, with restart points."""

    def __init__(self, restart_interval: int):
        self._interval = restart_interval
        self.reset()

    def reset(self) -> None:
        self._buffer = bytearray()
        self._restarts = [0]
        self._counter = 0
        self._last_key = b""
        self.empty = True

    def add(self, key: bytes, value: bytes) -> None:
        shared = 0
        if self._counter < self._interval:
            limit = min(len(key), len(self._last_key))
            while shared < limit and key[shared] == self._last_key[shared]:
                shared += 1
        else:
            self._restarts.append(len(self._buffer))
            self._counter = 0
        self._buffer += encode_varint(shared) + encode_varint(len(key) - shared) + \
            encode_varint(len(value)) + key[shared:] + value
        self._last_key = key
        self._counter += 1
        self.empty = False

    def size_estimate(self) -> int:
        return len(self._buffer) + 4 * len(self._restarts) + 4

    def finish(self) -> bytes:
        out = bytes(self._buffer) + b"".join(struct.pack("<I", r) for r in self._restarts) + \
            struct.pack("<I", len(self._restarts))
        self.reset()
        return out


def _shortest_separator(start: bytes, limit: bytes) -> bytes:
    """A short key k with start <= k < limit (LevelDB's bytewise comparator rule)."""
    n = min(len(start), len(limit))
    i = 0
    while i < n and start[i] == limit[i]:
        i += 1
    if i < n and start[i] < 0xFF and start[i] + 1 < limit[i]:
        return start[:i] + bytes([start[i] + 1])
    return start


def _short_successor(key: bytes) -> bytes:
    """A short key >= `key`: its first byte below 0xFF incremented, the rest dropped."""
    for i, b in enumerate(key):
        if b != 0xFF:
            return key[:i] + bytes([b + 1])
    return key


def encode_table(items: Iterable[Tuple[bytes, bytes]]) -> bytes:
    """The bytes of a table holding `items` (keys strictly increasing)."""
    out = bytearray()
    data_block = _BlockBuilder(_RESTART_INTERVAL)
    index_block = _BlockBuilder(1)
    pending_handle = None   # the last data block's handle, indexed once the next key is seen
    last_key = b""

    def write_block(contents: bytes) -> bytes:
        offset = len(out)
        out.extend(contents)
        trailer_type = bytes([_NO_COMPRESSION])
        out.extend(trailer_type)
        out.extend(struct.pack("<I", crc32c.masked_value(contents + trailer_type)))
        return encode_varint(offset) + encode_varint(len(contents))

    first = True
    for key, value in items:
        if not first and key <= last_key:
            raise ValueError(f"table keys must strictly increase: {key!r} after {last_key!r}")
        if not first and len(key) + len(value) >= 2 * _BLOCK_SIZE and not data_block.empty:
            pending_handle = write_block(data_block.finish())
        if pending_handle is not None:
            index_block.add(_shortest_separator(last_key, key), pending_handle)
            pending_handle = None
        data_block.add(key, value)
        last_key = key
        first = False
        if data_block.size_estimate() >= _BLOCK_SIZE:
            pending_handle = write_block(data_block.finish())
    if not data_block.empty:
        pending_handle = write_block(data_block.finish())
    metaindex_handle = write_block(_BlockBuilder(_RESTART_INTERVAL).finish())
    if pending_handle is not None:
        index_block.add(_short_successor(last_key), pending_handle)
    index_handle = write_block(index_block.finish())
    handles = metaindex_handle + index_handle
    out += handles + b"\0" * (_HANDLES_SIZE - len(handles))
    out += struct.pack("<II", TABLE_MAGIC & 0xFFFFFFFF, TABLE_MAGIC >> 32)
    return bytes(out)
