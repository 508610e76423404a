"""Writing checkpoints in TensorFlow's layout, with data shards that are safetensors files.

`BundleWriter(prefix)` collects tensors (`add`) and stored slices of partitioned
tensors (`add_slice`), and `finish()` writes

* `<prefix>.data-00000-of-00001`: a valid safetensors file (8-byte header length, JSON
  header, then the tensors' bytes back to back) whose tensors are named as the
  checkpoint keys, and
* `<prefix>.index`: TF's bundle index (sstable.py) whose entries point at the tensors'
  bytes inside that file (offset = 8 + header length + the tensor's safetensors offset)
  with TF's masked CRC-32C of each.

So TensorFlow restores the checkpoint, and `safetensors.torch.load_file` reads the data
shard. Values whose TF dtype safetensors lacks are stored in the bytes TF reads and a
safetensors dtype with the same bytes: strings as a U8 blob in TF's string layout
(varint lengths, masked length checksum, bytes), complex64/complex128 as F32/F64 with a
trailing dimension of 2 (real, imaginary), quantized types as their integer type;
`__metadata__["tf1compat"]` (JSON) lists the TF dtype and shape of those, and the
checkpoint key of each stored slice (and the writer's own JSON under "user"). Stored
slices are named `<key>[<extents>]` in the safetensors header (e.g. `emb[0,5:-]`).

Both files are written atomically (temp file + rename: data first, then index);
temp files left by a killed save in the directory are removed first.

`merge_bundles` is MergeV2Checkpoints: the shards of a sharded save become one
checkpoint (data files renamed, indexes merged), as TF merges them.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.framework import dtypes, errors
from tf1compat.serialization import atomic_files, crc32c, sstable, tensor_codec
from tf1compat.serialization.messages import BundleEntryProto, BundleHeaderProto
from tf1compat.serialization.tensor_bundle import (BUNDLE_VERSION, HEADER_KEY, BundleReader,
                                                   data_filename, index_filename,
                                                   string_tensor_bytes)
from tf1compat.serialization.tensor_slice import (SliceSpec, encode_tensor_name_slice,
                                                  slice_to_proto)

__all__ = ["BundleWriter", "merge_bundles", "safetensors_dtype", "METADATA_KEY",
           "SHARD_FORMAT"]

METADATA_KEY = "tf1compat"
SHARD_FORMAT = "tf1compat.tensor_bundle_shard"

# storage numpy dtype (kind, itemsize) -> safetensors dtype name
_ST_DTYPE = {("f", 4): "F32", ("f", 8): "F64", ("f", 2): "F16", ("i", 1): "I8",
             ("i", 2): "I16", ("i", 4): "I32", ("i", 8): "I64", ("u", 1): "U8",
             ("u", 2): "U16", ("u", 4): "U32", ("u", 8): "U64", ("b", 1): "BOOL"}


def safetensors_dtype(dtype: dtypes.DType) -> str:
    """The safetensors dtype of a fixed-size TF dtype's stored elements."""
    if dtype == dtypes.bfloat16:
        return "BF16"
    if dtype == dtypes.complex64:
        return "F32"
    if dtype == dtypes.complex128:
        return "F64"
    store = tensor_codec.storage_dtype(dtype)
    return _ST_DTYPE[(store.kind, store.itemsize)]


class _Item:
    """One tensor of the data shard: its bytes and how both formats describe them."""

    __slots__ = ("key", "st_name", "dtype", "shape", "st_dtype", "st_shape", "payload",
                 "crc", "note")

    def __init__(self, key: bytes, st_name: str, dtype: dtypes.DType, shape: Tuple[int, ...],
                 storage: np.ndarray):
        self.key, self.st_name, self.dtype, self.shape = key, st_name, dtype, shape
        self.note: Optional[Dict[str, Any]] = None
        if dtype == dtypes.string:
            blob, self.crc = string_tensor_bytes(storage)
            self.payload = np.frombuffer(blob, dtype=np.uint8)
            self.st_dtype, self.st_shape = "U8", (len(blob),)
            self.note = {"dtype": "string", "shape": list(shape), "encoding": "tf_string"}
            return
        self.payload = tensor_codec.contiguous(storage)
        self.crc = None     # computed while writing
        self.st_dtype = safetensors_dtype(dtype)
        self.st_shape = shape + (2,) if dtype.is_complex else shape
        if dtype.is_complex or dtype.is_quantized:
            self.note = {"dtype": dtype.name, "shape": list(shape)}

    @property
    def nbytes(self) -> int:
        return self.payload.nbytes

    @property
    def alignment(self) -> int:
        return 1 if self.dtype == dtypes.string else self.payload.dtype.itemsize


class BundleWriter:
    """Writes one checkpoint `<prefix>` in TF's layout (see the module docstring)."""

    def __init__(self, prefix: str, user_metadata: Optional[Dict[str, Any]] = None):
        self._prefix = os.fspath(prefix)
        self._user = user_metadata
        self._items: Dict[bytes, _Item] = {}
        # Entries of partitioned tensors: dtype, full shape and their stored slices.
        self._sliced: Dict[bytes, BundleEntryProto] = {}

    def _check_new(self, key: bytes) -> None:
        if key == HEADER_KEY:
            raise errors.InvalidArgumentError(None, None, "Checkpoint keys cannot be empty")
        if key in self._items or key in self._sliced:
            raise errors.InvalidArgumentError(
                None, None, f"Adding duplicate key: {key.decode('utf-8', 'replace')}")

    def add(self, key: str, value: Any, dtype: Any = None) -> None:
        """Stores a whole tensor under `key` (its TF dtype from `dtype` or the value)."""
        kb = key.encode("utf-8")
        self._check_new(kb)
        tf_dtype, storage = tensor_codec.from_value(value, dtype)
        self._items[kb] = _Item(kb, key, tf_dtype, tuple(storage.shape), storage)

    def add_slice(self, key: str, spec: SliceSpec, value: Any, dtype: Any = None) -> None:
        """Stores one slice of the partitioned tensor `key` (TF's stored-slice layout)."""
        kb = key.encode("utf-8")
        if kb in self._items:
            raise errors.InvalidArgumentError(
                None, None, f"Tensor {key} is saved both whole and as slices")
        tf_dtype, storage = tensor_codec.from_value(value, dtype)
        if list(storage.shape) != spec.lengths:
            raise errors.InvalidArgumentError(
                None, None, f"Shape of slice {spec.text!r} of tensor {key} is "
                            f"{spec.lengths}, but the value has shape {list(storage.shape)}")
        entry = self._sliced.get(kb)
        if entry is None:
            entry = self._sliced[kb] = BundleEntryProto(dtype=tf_dtype.as_datatype_enum)
            for d in spec.full_shape:
                entry.shape.dim.add(size=d)
        elif entry.dtype != tf_dtype.as_datatype_enum or \
                [d.size for d in entry.shape.dim] != spec.full_shape:
            raise errors.InvalidArgumentError(
                None, None, f"Slices of tensor {key} disagree on its dtype or full shape")
        slice_key = encode_tensor_name_slice(kb, spec.extents())
        if slice_key in self._items:
            raise errors.InvalidArgumentError(
                None, None, f"Slice {spec.text!r} of tensor {key} is saved twice")
        entry.slices.append(slice_to_proto(spec))
        item = _Item(slice_key, f"{key}[{spec.extents_text()}]", tf_dtype,
                     tuple(storage.shape), storage)
        item.note = dict(item.note or {}, key=key, slice=spec.extents_text())
        self._items[slice_key] = item

    # -- writing -------------------------------------------------------------------------
    def _layout(self) -> Tuple[List[_Item], bytes]:
        """The items in data order (aligned: widest elements first) and the shard header."""
        items = sorted(self._items.values(), key=lambda i: (-i.alignment, i.st_name))
        notes = {i.st_name: i.note for i in items if i.note is not None}
        meta = {"format": SHARD_FORMAT, "version": 1}
        if notes:
            meta["tensors"] = notes
        if self._user:
            meta["user"] = self._user
        header: Dict[str, Any] = {"__metadata__": {METADATA_KEY: json.dumps(meta)}}
        offset = 0
        for item in items:
            header[item.st_name] = {"dtype": item.st_dtype, "shape": list(item.st_shape),
                                    "data_offsets": [offset, offset + item.nbytes]}
            offset += item.nbytes
        head = json.dumps(header, separators=(",", ":")).encode("utf-8")
        head += b" " * (-(8 + len(head)) % 8)     # data starts 8-byte aligned
        return items, struct.pack("<Q", len(head)) + head

    def finish(self) -> str:
        """Writes the data shard and the index; returns the index file's path."""
        directory = atomic_files.make_parent_directory(self._prefix)
        atomic_files.remove_stale_temp_files(directory)
        items, head = self._layout()

        def write_data(f: Any) -> None:
            f.write(head)
            for item in items:
                _write_payload(f, item.payload)
                if item.crc is None:
                    item.crc = crc32c.value(item.payload)

        atomic_files.atomic_write(data_filename(self._prefix, 0, 1), write_data)
        entries: Dict[bytes, BundleEntryProto] = dict(self._sliced)
        offset = len(head)
        for item in items:
            entry = BundleEntryProto(dtype=item.dtype.as_datatype_enum, shard_id=0,
                                     offset=offset, size=item.nbytes,
                                     crc32c=crc32c.mask(item.crc))
            for d in item.shape:
                entry.shape.dim.add(size=d)
            entries[item.key] = entry
            offset += item.nbytes
        index = _encode_index(1, entries)
        atomic_files.atomic_write_bytes(index_filename(self._prefix), index)
        return index_filename(self._prefix)


def _write_payload(f: Any, payload: np.ndarray) -> None:
    """Appends one tensor's bytes to the data shard (a seam for tests that simulate a crash
    in the middle of a save)."""
    if payload.nbytes:
        f.write(memoryview(payload.reshape(-1)).cast("B"))


def _header(num_shards: int) -> BundleHeaderProto:
    header = BundleHeaderProto(num_shards=num_shards, endianness=BundleHeaderProto.LITTLE)
    header.version.producer = BUNDLE_VERSION
    return header


def _encode_index(num_shards: int, entries: Dict[bytes, BundleEntryProto]) -> bytes:
    items = [(HEADER_KEY, _header(num_shards).SerializeToString())]
    items += [(k, entries[k].SerializeToString()) for k in sorted(entries)]
    return sstable.encode_table(items)


def merge_bundles(prefixes: Sequence[str], merged_prefix: str, delete_old_dirs: bool = True,
                  allow_missing_files: bool = False) -> None:
    """MergeV2Checkpoints: the bundles `prefixes` become the one checkpoint `merged_prefix`.

    As TF: entries keep their keys (a partitioned tensor's slice lists are combined),
    each data file is renamed to `<merged_prefix>.data-0000k-of-0000N`, the merged index
    is written, the source indexes are deleted and, with `delete_old_dirs`, their
    directories once empty. A tensor in two bundles is InvalidArgumentError.
    """
    merged: Dict[bytes, BundleEntryProto] = {}
    shard_ids: Dict[str, int] = {}
    found: List[str] = []
    for prefix in prefixes:
        if not os.path.exists(index_filename(prefix)):
            if allow_missing_files:
                continue
            raise errors.NotFoundError(None, None, f"{index_filename(prefix)}; No such file "
                                                   f"or directory")
        found.append(prefix)
        reader = BundleReader(prefix)
        for key, entry in reader.entries():
            existing = merged.get(key)
            if existing is not None:
                if not existing.slices or not entry.slices:
                    raise errors.InvalidArgumentError(
                        None, None, f"Duplicate tensor keyed by "
                                    f"{key.decode('utf-8', 'replace')} encountered, when "
                                    f"merging prefix: {prefix}")
                existing.slices.extend(entry.slices)
                continue
            source = data_filename(prefix, entry.shard_id, reader.num_shards)
            entry = BundleEntryProto.FromString(entry.SerializeToString())
            entry.shard_id = shard_ids.setdefault(source, len(shard_ids))
            merged[key] = entry
    if not found:
        if allow_missing_files:
            return
        raise errors.InvalidArgumentError(None, None, "No checkpoint bundles to merge")
    directory = os.path.dirname(merged_prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    total = len(shard_ids)
    for source, shard in shard_ids.items():
        if os.path.exists(source):
            os.replace(source, data_filename(merged_prefix, shard, total))
    atomic_files.atomic_write_bytes(index_filename(merged_prefix),
                                    _encode_index(total, merged))
    for prefix in found:
        try:
            os.remove(index_filename(prefix))
        except OSError:
            pass
    if delete_old_dirs:
        for d in sorted({os.path.dirname(p) for p in found}):
            if d and os.path.abspath(d) != os.path.abspath(directory or "."):
                try:
                    os.rmdir(d)     # only when empty, as TF
                except OSError:
                    pass
