"""TensorFlow's V2 checkpoint layout (tensor bundles), read without TensorFlow.

A checkpoint `<prefix>` is

* `<prefix>.index`: a sorted table (sstable.py). Key "" holds a BundleHeaderProto
  (number of shards, endianness, version); every other key is a tensor name whose value
  is a BundleEntryProto (dtype, shape, shard id, byte offset and size in that shard,
  masked CRC-32C of the bytes, and for partitioned tensors the list of stored slices);
* `<prefix>.data-0000k-of-0000N`: the tensors' bytes (little-endian elements; string
  tensors as varint lengths, a masked CRC-32C of the lengths, then the bytes).

A partitioned tensor has an entry under its full name listing its slices; each slice is
stored under a key encoding the name and the extents (tensor_slice.py).
`BundleReader` presents the full tensor under the name, as TF's reader does.

tf1compat writes this layout too (bundle_writer.py), with data shards that are at the
same time safetensors files; the reader does not care what else a shard holds.
Corruption (bad magic, checksum mismatch, truncated shard, unparsable entry) raises
tf.errors.DataLossError with TF's messages.
"""

from __future__ import annotations

import glob as _glob
import struct
from typing import Dict, List, Optional, Tuple

import numpy as np
from google.protobuf.message import DecodeError

from tf1compat.framework import dtypes, errors
from tf1compat.serialization import crc32c, sstable, tensor_codec
from tf1compat.serialization.messages import BundleEntryProto, BundleHeaderProto
from tf1compat.serialization.tensor_slice import (SliceSpec, encode_tensor_name_slice,
                                                  slice_from_proto, slice_of)

__all__ = ["BundleReader", "index_filename", "data_filename", "is_bundle_prefix",
           "HEADER_KEY", "BUNDLE_VERSION", "string_tensor_bytes"]

HEADER_KEY = b""
BUNDLE_VERSION = 1  # the tensor-bundle format version this module reads and writes
_BUNDLE_MIN_PRODUCER = 0


def index_filename(prefix: str) -> str:
    return prefix + ".index"


def data_filename(prefix: str, shard: int, num_shards: int) -> str:
    return "%s.data-%05d-of-%05d" % (prefix, shard, num_shards)


def is_bundle_prefix(prefix: str) -> bool:
    """True if `<prefix>.index` exists (glob semantics, as TF's reader checks)."""
    return bool(_glob.glob(index_filename(prefix)))


def _data_loss(msg: str) -> errors.DataLossError:
    return errors.DataLossError(None, None, msg)


def _show(key: bytes) -> str:
    return key.decode("utf-8", "backslashreplace")


def _shape_of(entry: BundleEntryProto, key: bytes) -> Tuple[int, ...]:
    dims = tuple(d.size for d in entry.shape.dim)
    if entry.shape.unknown_rank or any(d < 0 for d in dims) or len(dims) > 254:
        raise _data_loss(f"Invalid tensor shape: {_show(key)} {dims}")
    return dims


def string_tensor_bytes(values: np.ndarray) -> Tuple[bytes, int]:
    """(bytes, CRC-32C) of a string tensor as TF stores it in a data shard.

    The bytes are the varint lengths, the masked CRC-32C of the lengths, then the
    strings; the CRC covers each length as a little-endian uint32 (uint64 when it does
    not fit), the stored length checksum and the strings' bytes, as TF computes it.
    """
    items = [bytes(v) for v in values.reshape(-1)]
    lengths = b"".join(sstable.encode_varint(len(s)) for s in items)
    crc = crc32c.value(b"".join(struct.pack("<I", len(s)) if len(s) <= 0xFFFFFFFF
                                else struct.pack("<Q", len(s)) for s in items))
    length_check = struct.pack("<I", crc32c.mask(crc))
    crc = crc32c.extend(crc, length_check)
    body = b"".join(items)
    crc = crc32c.extend(crc, body)
    return lengths + length_check + body, crc


class BundleReader:
    """A V2 checkpoint (`<prefix>.index` + data shards), TF's or tf1compat's."""

    def __init__(self, prefix: str):
        self._prefix = prefix
        path = index_filename(prefix)
        try:
            table = sstable.read_table(path)
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"{path}; No such file or directory") \
                from None
        except IsADirectoryError:
            raise errors.FailedPreconditionError(None, None, f"{path}; Is a directory") \
                from None
        if not table or table[0][0] != HEADER_KEY:
            raise _data_loss(f"Unable to read file ({path}). Perhaps the file is corrupt or "
                             f"was produced by a newer version of TensorFlow with format "
                             f"changes (failed to seek to header entry)")
        try:
            header = BundleHeaderProto.FromString(table[0][1])
        except DecodeError as e:
            raise _data_loss(f"Unable to read file ({path}). Perhaps the file is corrupt or "
                             f"was produced by a newer version of TensorFlow with format "
                             f"changes (unable to parse header): {e}") from None
        self._check_version(header)
        self._num_shards = header.num_shards
        self._byteorder = ">" if header.endianness == BundleHeaderProto.BIG else "<"
        self._raw = dict(table[1:])
        self._entries: Dict[bytes, BundleEntryProto] = {}
        # Keys of stored slices are implementation details: hidden from the maps, as TF does.
        self._slice_keys = set()
        for key in self._raw:
            entry = self._entry(key)
            if entry.slices:
                shape = _shape_of(entry, key)
                for spec in entry.slices:
                    self._slice_keys.add(encode_tensor_name_slice(
                        key, slice_from_proto(spec, shape).extents()))

    @staticmethod
    def _check_version(header: BundleHeaderProto) -> None:
        version = header.version
        if version.producer < _BUNDLE_MIN_PRODUCER:
            raise errors.InvalidArgumentError(
                None, None, f"Checkpoint producer version {version.producer} below min "
                            f"producer {_BUNDLE_MIN_PRODUCER} supported by tf1compat.  "
                            f"Please regenerate your checkpoint.")
        if version.min_consumer > BUNDLE_VERSION:
            raise errors.InvalidArgumentError(
                None, None, f"Checkpoint min consumer version {version.min_consumer} above "
                            f"current version {BUNDLE_VERSION} for tf1compat.  The checkpoint "
                            f"was written by a newer tensor-bundle format.")
        if BUNDLE_VERSION in version.bad_consumers:
            raise errors.InvalidArgumentError(
                None, None, f"Checkpoint disallows consumer version {BUNDLE_VERSION}.")

    def _entry(self, key: bytes) -> BundleEntryProto:
        entry = self._entries.get(key)
        if entry is None:
            try:
                entry = BundleEntryProto.FromString(self._raw[key])
            except DecodeError:
                raise _data_loss(f"Entry for key {_show(key)} not parseable.") from None
            self._entries[key] = entry
        return entry

    # -- what the checkpoint holds ------------------------------------------------------
    @property
    def prefix(self) -> str:
        return self._prefix

    @property
    def num_shards(self) -> int:
        return self._num_shards

    def keys(self) -> List[bytes]:
        """All keys of tensors, in table order (slices of partitioned tensors excluded)."""
        return [k for k in self._raw if k not in self._slice_keys]

    def entries(self) -> List[Tuple[bytes, BundleEntryProto]]:
        """Every (key, entry) of the index in key order, stored slices included."""
        return [(k, self._entry(k)) for k in self._raw]

    def contains(self, key: bytes) -> bool:
        """TF's BundleReader::Contains: any table key, the header "" and slices included."""
        return key == HEADER_KEY or key in self._raw

    def dtype(self, key: bytes) -> dtypes.DType:
        return dtypes.as_dtype(self._lookup(key).dtype)

    def shape(self, key: bytes) -> Tuple[int, ...]:
        return _shape_of(self._lookup(key), key)

    def _lookup(self, key: bytes) -> BundleEntryProto:
        if key not in self._raw:
            raise errors.NotFoundError(None, None,
                                       f"Key {_show(key)} not found in checkpoint")
        return self._entry(key)

    def debug_string(self) -> bytes:
        """TF's BundleReader::DebugString: `key (DT_X) [d0,d1]` per line, slices listed."""
        lines = []
        for key in self._raw:
            entry = self._entry(key)
            if entry.slices:
                continue  # TF lists the stored slices, not the partitioned tensor itself
            dims = ",".join(str(d) for d in _shape_of(entry, key))
            name = tensor_codec.DT_NAMES.get(entry.dtype, f"DT_{entry.dtype}")
            lines.append(key + f" ({name}) [{dims}]\n".encode())
        return b"".join(lines)

    # -- values --------------------------------------------------------------------------
    def read(self, key: bytes, spec: Optional[SliceSpec] = None, verify: bool = True
             ) -> Tuple[dtypes.DType, np.ndarray]:
        """(dtype, storage array) of the tensor under `key` (see tensor_codec), or of the
        part `spec` of it (TF's LookupSlice: from a whole tensor or its stored slices).

        `verify=False` skips the CRC-32C check and maps a whole tensor's bytes from the
        file (copy-on-write) instead of reading them.
        """
        if key == HEADER_KEY:
            # TF parses the header as an entry and fails on its size; so do we, clearly.
            raise errors.OpError(None, None, "Invalid size in bundle entry: key ; stored size "
                                             "0; expected size 4", errors.UNKNOWN)
        entry = self._lookup(key)
        if entry.slices:
            return self._assemble(key, entry, spec)
        dtype, value = self._value(key, entry, verify)
        return dtype, value if spec is None else slice_of(value, spec, _show(key))

    def _value(self, key: bytes, entry: BundleEntryProto, verify: bool = True
               ) -> Tuple[dtypes.DType, np.ndarray]:
        shape = _shape_of(entry, key)
        try:
            dtype = dtypes.as_dtype(entry.dtype)
        except TypeError:
            raise _data_loss(f"Entry for key {_show(key)} has unknown dtype enum "
                             f"{entry.dtype}") from None
        count = int(np.prod(shape, dtype=np.int64))
        if dtype == dtypes.string:
            raw = self._read_bytes(entry, key)
            return dtype, self._strings(raw, count, key, entry).reshape(shape)
        if dtype in (dtypes.variant, dtypes.resource):
            raise NotImplementedError(f"reading {tensor_codec.DT_NAMES[entry.dtype]} tensor "
                                      f"{_show(key)!r} from a TF checkpoint is not supported")
        store = tensor_codec.storage_dtype(dtype)
        expected = count * store.itemsize
        if entry.size != expected:
            raise _data_loss(f"Invalid size in bundle entry: key {_show(key)}; stored size "
                             f"{entry.size}; expected size {expected}")
        if not verify and self._byteorder == "<":
            return dtype, self._map_bytes(entry, key).view(store).reshape(shape)
        raw = self._read_bytes(entry, key)
        self._check_crc(entry, crc32c.value(raw), key)
        arr = raw.view(store.newbyteorder(self._byteorder) if store.itemsize > 1 else store)
        if arr.dtype != store:
            arr = arr.astype(store)  # big-endian bundle: swap to little-endian storage
        return dtype, arr.reshape(shape)

    def _read_bytes(self, entry: BundleEntryProto, key: bytes) -> np.ndarray:
        shard, offset, size = entry.shard_id, entry.offset, entry.size
        if not 0 <= shard < max(self._num_shards, 1) or offset < 0 or size < 0:
            raise _data_loss(f"Entry for key {_show(key)} points outside the bundle "
                             f"(shard {shard} of {self._num_shards}, offset {offset})")
        path = data_filename(self._prefix, shard, self._num_shards)
        buf = np.empty(size, dtype=np.uint8)
        try:
            with open(path, "rb") as f:
                f.seek(offset)
                got = f.readinto(memoryview(buf)) if size else 0
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"{path}; No such file or directory") \
                from None
        if got != size:
            raise _data_loss(f"TensorBundle at {self._prefix} shard {shard}: reading "
                             f"{_show(key)} needs {size} bytes at offset {offset}, but the "
                             f"file ends after {got} (truncated?)")
        return buf

    def _map_bytes(self, entry: BundleEntryProto, key: bytes) -> np.ndarray:
        """The tensor's bytes mapped from its shard (copy-on-write: writes stay private)."""
        path = data_filename(self._prefix, entry.shard_id, self._num_shards)
        if entry.size == 0:
            return np.empty(0, dtype=np.uint8)
        try:
            return np.memmap(path, dtype=np.uint8, mode="c", offset=entry.offset,
                             shape=(entry.size,))
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"{path}; No such file or directory") \
                from None
        except ValueError:
            return self._read_bytes(entry, key)   # past the end: reports the truncation

    def _check_crc(self, entry: BundleEntryProto, actual: int, key: bytes) -> None:
        stored = crc32c.unmask(entry.crc32c)
        if stored != actual:
            raise _data_loss(f"TensorBundle at {self._prefix} shard {entry.shard_id} "
                             f"({entry.size} bytes): Checksum does not match: stored "
                             f"{stored:08d} vs. calculated on the restored bytes {actual}")

    def _strings(self, raw: np.ndarray, count: int, key: bytes,
                 entry: BundleEntryProto) -> np.ndarray:
        out = np.empty(count, dtype=object)
        if entry.size == 0:
            out[:] = [b""] * count
            return out
        view = memoryview(raw)
        pos = 0
        lengths = []
        crc = 0
        try:
            for _ in range(count):
                n, pos = sstable.read_varint(view, pos)
                lengths.append(n)
                # TF checksums each length as a uint32 (uint64 when it does not fit).
                crc = crc32c.extend(crc, struct.pack("<I", n) if n <= 0xFFFFFFFF
                                    else struct.pack("<Q", n))
        except ValueError:
            raise _data_loss(f"String lengths longer than expected offset "
                             f"{entry.offset + entry.size}") from None
        if pos + 4 > len(view):
            raise _data_loss(f"String lengths longer than expected offset "
                             f"{entry.offset + entry.size}")
        masked = struct.unpack_from("<I", view, pos)[0]
        if crc32c.unmask(masked) != crc:
            raise _data_loss(f"The length checksum does not match: expected "
                             f"{crc32c.unmask(masked):08d} but actual is {crc:08d}")
        crc = crc32c.extend(crc, view[pos:pos + 4])
        pos += 4
        if pos + sum(lengths) != len(view):
            raise _data_loss(f"Invalid size in bundle entry: key {_show(key)}; stored size "
                             f"{entry.size}; the strings need {pos + sum(lengths)}")
        crc = crc32c.extend(crc, view[pos:])
        self._check_crc(entry, crc, key)
        for i, n in enumerate(lengths):
            out[i] = bytes(view[pos:pos + n])
            pos += n
        return out

    def _assemble(self, key: bytes, entry: BundleEntryProto,
                  spec: Optional[SliceSpec] = None) -> Tuple[dtypes.DType, np.ndarray]:
        """The value of a partitioned tensor (or the part `spec` of it), put together from
        its stored slices."""
        dtype = dtypes.as_dtype(entry.dtype)
        shape = _shape_of(entry, key)
        if spec is not None and spec.full_shape != list(shape):
            raise errors.InvalidArgumentError(
                None, None, f"tensor_name = {_show(key)}; shape in shape_and_slice spec "
                            f"{spec.full_shape} does not match the shape stored in "
                            f"checkpoint: {list(shape)}")
        want = spec or SliceSpec(list(shape), [0] * len(shape), list(shape))
        out_shape = tuple(want.lengths)
        if dtype == dtypes.string:
            out = np.empty(out_shape, dtype=object)
        else:
            out = np.zeros(out_shape, dtype=tensor_codec.storage_dtype(dtype))
        covered = np.zeros(out_shape, dtype=bool)
        for proto in entry.slices:
            if len(proto.extent) != len(shape):
                raise _data_loss(f"Slice of {_show(key)} has rank {len(proto.extent)}, the "
                                 f"tensor has rank {len(shape)}")
            stored = slice_from_proto(proto, shape)
            if any(s < 0 or n < 0 or s + n > d for s, n, d in
                   zip(stored.starts, stored.lengths, shape)):
                raise _data_loss(f"Slice of {_show(key)} exceeds its shape {list(shape)}")
            # The overlap of the stored slice and the wanted region, in both frames.
            lo = [max(a, b) for a, b in zip(stored.starts, want.starts)]
            hi = [min(a + n, b + m) for a, n, b, m in zip(stored.starts, stored.lengths,
                                                         want.starts, want.lengths)]
            if any(h <= l_ for l_, h in zip(lo, hi)) and out.size:
                continue
            slice_key = encode_tensor_name_slice(key, stored.extents())
            if slice_key not in self._raw:
                raise errors.NotFoundError(None, None, f"Key {_show(slice_key)} not found in "
                                                       f"checkpoint")
            part_dtype, part = self._value(slice_key, self._entry(slice_key))
            if part_dtype != dtype or list(part.shape) != stored.lengths:
                raise _data_loss(f"Slice of {_show(key)} holds {part_dtype.name} "
                                 f"{list(part.shape)}, expected {dtype.name} "
                                 f"{stored.lengths}")
            source = tuple(slice(l_ - s, h - s) for l_, h, s in zip(lo, hi, stored.starts))
            target = tuple(slice(l_ - w, h - w) for l_, h, w in zip(lo, hi, want.starts))
            out[target] = part[source]
            covered[target] = True
        if not covered.all():
            raise errors.InvalidArgumentError(
                None, None, f"Does not have sufficient slices for partitioned tensor "
                            f"{_show(key)} to restore in slice_spec: "
                            f"{want.extents_text() if spec is not None else '-'}")
        return dtype, out

    def object_graph(self) -> Optional[bytes]:
        """The serialized TrackableObjectGraph, or None for a name-based checkpoint."""
        key = b"_CHECKPOINTABLE_OBJECT_GRAPH"
        if key not in self._raw:
            return None
        dtype, value = self.read(key)
        if dtype != dtypes.string or value.shape != ():
            raise _data_loss(f"{key.decode()} is not a scalar string tensor")
        return value[()]
