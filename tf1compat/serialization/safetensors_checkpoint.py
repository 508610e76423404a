"""tf1compat's earlier checkpoint files: `<prefix>.safetensors` (read, and written by the
converter).

tf1compat now saves checkpoints in TF's layout (bundle_writer.py); checkpoints written
as one `<prefix>.safetensors` file by earlier versions keep loading through
`SafetensorsReader`, and `scripts/convert_checkpoint.py --to safetensors` still writes
them (`save_tensors`). Layout (a standard safetensors file, readable by any safetensors
reader):

* one safetensors tensor per checkpoint key, named exactly as TF names it
  ("dense/kernel" for name-based checkpoints, "dense/kernel/.ATTRIBUTES/VARIABLE_VALUE"
  for object-based ones), holding the value's little-endian element bytes;
* `__metadata__["tf1compat"]`: JSON
      {"format": "tf1compat.checkpoint", "version": 1,
       "tensors": {key: {"dtype": TF dtype name, "shape": [...], "encoding": E,
                         "crc32": zlib CRC-32 of the stored bytes}},
       "object_graph": {...},      # only for object-based checkpoints (object_graph.py);
                                   # readers also show it serialized as TF does, under
                                   # the key _CHECKPOINTABLE_OBJECT_GRAPH
       "user": {...}}              # optional JSON-able extras of the writer
  where encoding E says how the TF value maps onto the safetensors tensor:
    "raw":     same shape; safetensors dtype = TF dtype (bfloat16 as BF16; quantized
               types as their integer type, the TF dtype telling them apart);
    "complex": complex64/complex128 as F32/F64 with a trailing dimension of 2 (real, imag);
    "string":  a U8 blob: n little-endian uint64 byte lengths, then the n strings' bytes.

Writes are atomic (atomic_files.py). Reading never unpickles; a truncated or corrupted
file raises tf.errors.DataLossError.
"""

from __future__ import annotations

import json
import os
import struct
import zlib
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes, errors
from tf1compat.serialization import atomic_files, tensor_codec
from tf1compat.serialization import object_graph as og

__all__ = ["SUFFIX", "METADATA_KEY", "FORMAT_NAME", "FORMAT_VERSION", "checkpoint_file",
           "save_tensors", "SafetensorsReader", "load_tensors", "parallel_map"]

SUFFIX = ".safetensors"
METADATA_KEY = "tf1compat"
FORMAT_NAME = "tf1compat.checkpoint"
FORMAT_VERSION = 1

# numpy storage dtype -> safetensors dtype name
_ST_DTYPE = {"f4": "F32", "f8": "F64", "f2": "F16", "i1": "I8", "i2": "I16", "i4": "I32",
             "i8": "I64", "u1": "U8", "u2": "U16", "u4": "U32", "u8": "U64", "b1": "BOOL"}
# safetensors dtype name -> TF dtype, for files written by other tools
_FOREIGN = {"F32": dtypes.float32, "F64": dtypes.float64, "F16": dtypes.float16,
            "BF16": dtypes.bfloat16, "I8": dtypes.int8, "I16": dtypes.int16,
            "I32": dtypes.int32, "I64": dtypes.int64, "U8": dtypes.uint8,
            "U16": dtypes.uint16, "U32": dtypes.uint32, "U64": dtypes.uint64,
            "BOOL": dtypes.bool, "C64": dtypes.complex64}


_PARALLEL_BYTES = 1 << 24   # below this, threads cost more than they save


def parallel_map(fn: Callable[[Any], Any], items: List[Any], total_bytes: int) -> List[Any]:
    """`[fn(x) for x in items]`, on threads when the data is large.

    For work that releases the GIL (zlib.crc32 and numpy copies of large buffers);
    results keep the order of `items`, and the first error (in that order) is raised.
    """
    workers = min(len(items), (os.cpu_count() or 1) // 2, 8)   # leave cores to the OS
    if workers < 2 or total_bytes < _PARALLEL_BYTES:
        return [fn(x) for x in items]
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(fn, items))


def checkpoint_file(prefix: str) -> str:
    """The file holding the checkpoint `prefix` in tf1compat's format."""
    return os.fspath(prefix) + SUFFIX


# -- writing ----------------------------------------------------------------------------------

def _encode(dtype: dtypes.DType, storage: np.ndarray) -> Tuple[str, np.ndarray, str]:
    """(encoding, array to store, safetensors dtype) of one value."""
    if dtype == dtypes.string:
        flat = storage.reshape(-1)
        lengths = np.array([len(s) for s in flat], dtype="<u8")
        blob = np.frombuffer(lengths.tobytes() + b"".join(flat), dtype=np.uint8)
        return "string", blob, "U8"
    if dtype.is_complex:
        single = dtype == dtypes.complex64
        real = tensor_codec.contiguous(storage).reshape(-1).view("<f4" if single else "<f8")
        return "complex", real.reshape(storage.shape + (2,)), "F32" if single else "F64"
    return "raw", storage, _stored_dtype_name(dtype)


def _stored_dtype_name(dtype: dtypes.DType) -> Optional[str]:
    """The safetensors dtype of a "raw"-encoded TF dtype (None if it cannot be stored)."""
    if dtype == dtypes.bfloat16:
        return "BF16"
    try:
        store = tensor_codec.storage_dtype(dtype)
    except NotImplementedError:
        return None
    return _ST_DTYPE.get(f"{store.kind}{store.itemsize}")


_CRC_PLACEHOLDER = 0xFFFFFFFF   # the widest CRC-32 in decimal


def _crc(array: np.ndarray) -> int:
    return zlib.crc32(memoryview(array.reshape(-1)).cast("B"))


def _write_all(f: Any, arrays: List[np.ndarray], checksums: bool = True
               ) -> List[Optional[int]]:
    """Writes the arrays' bytes in order; returns their CRC-32s (None without checksums).

    For large data the checksums run on a helper thread while the arrays are written
    (zlib and file writes release the GIL), so saving reads the data about once.
    """
    total = sum(a.nbytes for a in arrays)
    if not checksums:
        for a in arrays:
            _write_tensor_data(f, a)
        return [None] * len(arrays)
    if total < _PARALLEL_BYTES or (os.cpu_count() or 1) < 2:
        for a in arrays:
            _write_tensor_data(f, a)
        return [_crc(a) for a in arrays]
    from concurrent.futures import ThreadPoolExecutor
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        futures = [pool.submit(_crc, a) for a in arrays]
        for a in arrays:
            _write_tensor_data(f, a)
        return [fu.result() for fu in futures]
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _write_tensor_data(f: Any, array: np.ndarray) -> None:
    """Appends one tensor's bytes (a seam for tests that simulate a crash mid-save)."""
    if array.nbytes:
        f.write(memoryview(array.reshape(-1)).cast("B"))


def save_tensors(prefix: str, tensors: Mapping[str, Any], *,
                 dtype_overrides: Optional[Mapping[str, Any]] = None,
                 object_graph: Optional[Dict[str, Any]] = None,
                 user_metadata: Optional[Dict[str, Any]] = None,
                 checksums: bool = True) -> str:
    """Writes `tensors` (key -> torch tensor / numpy array / Python value) to
    `<prefix>.safetensors` atomically; returns the file's path.

    `dtype_overrides` may give a key's TF dtype where the value cannot tell (e.g. qint8 in an int8
    tensor, strings as lists); `object_graph` (object_graph.py's structure) marks an
    object-based checkpoint, and every checkpoint key it names must be in `tensors`.
    `checksums=False` stores no CRC-32s (readers then cannot detect corrupted data).
    """
    dtype_overrides = dtype_overrides or {}
    entries: List[Tuple[str, np.ndarray, str]] = []
    info: Dict[str, Dict[str, Any]] = {}
    for key, value in tensors.items():
        if not isinstance(key, str) or not key or key == "__metadata__":
            raise ValueError(f"invalid checkpoint key {key!r}")
        dtype, storage = tensor_codec.from_value(value, dtype_overrides.get(key))
        encoding, stored, st_dtype = _encode(dtype, storage)
        stored = tensor_codec.contiguous(stored)
        info[key] = {"dtype": dtype.name, "shape": list(storage.shape), "encoding": encoding}
        entries.append((key, stored, st_dtype))
        # The checksums are computed while writing (one pass over the data); the header
        # is first written with the widest CRC value, then rewritten in the same space.
        info[key]["crc32"] = _CRC_PLACEHOLDER
    meta: Dict[str, Any] = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "tensors": info}
    if object_graph is not None:
        graph = og.validate_object_graph(object_graph)
        missing = sorted({a["checkpoint_key"] for n in graph["nodes"] for a in n["attributes"]}
                         - set(info))
        if missing:
            raise ValueError(f"the object graph names checkpoint keys with no tensor: "
                             f"{missing[:5]}")
        meta["object_graph"] = graph
    if user_metadata:
        meta["user"] = user_metadata
    # Largest elements first so that every tensor starts aligned (as safetensors does).
    entries.sort(key=lambda e: (-e[1].dtype.itemsize, e[0]))

    def header_bytes() -> bytes:
        header: Dict[str, Any] = {"__metadata__": {METADATA_KEY: json.dumps(meta)}}
        offset = 0
        for key, stored, st_dtype in entries:
            header[key] = {"dtype": st_dtype, "shape": list(stored.shape),
                           "data_offsets": [offset, offset + stored.nbytes]}
            offset += stored.nbytes
        return json.dumps(header, separators=(",", ":")).encode("utf-8")

    head = header_bytes()
    head += b" " * (-(8 + len(head)) % 8)  # data starts 8-byte aligned

    def write(f: Any) -> None:
        f.write(struct.pack("<Q", len(head)))
        f.write(head)
        crcs = _write_all(f, [e[1] for e in entries], checksums)
        for (key, _, _), crc in zip(entries, crcs):
            info[key]["crc32"] = crc
        final = header_bytes()
        f.seek(8)
        f.write(final + b" " * (len(head) - len(final)))   # JSON allows trailing spaces

    path = checkpoint_file(prefix)
    atomic_files.make_parent_directory(path)
    atomic_files.atomic_write(path, write)
    return path


# -- reading ----------------------------------------------------------------------------------

def _data_loss(path: str, detail: str) -> errors.DataLossError:
    return errors.DataLossError(None, None, f"Unable to read checkpoint file {path}: {detail}. "
                                            f"The file is truncated or corrupted.")


class SafetensorsReader:
    """A `<prefix>.safetensors` checkpoint (tf1compat's, or any safetensors file)."""

    def __init__(self, path: str):
        from safetensors import safe_open
        self._path = os.fspath(path)
        try:
            self._file = safe_open(self._path, framework="pt")
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"{self._path}; No such file or directory") \
                from None
        except Exception as e:  # noqa: BLE001 - safetensors' own error types vary by version
            raise _data_loss(self._path, f"{type(e).__name__}: {e}") from None
        header = self._file.metadata() or {}
        self._info: Dict[str, Dict[str, Any]] = {}
        self._object_graph: Optional[Dict[str, Any]] = None
        self._user: Dict[str, Any] = {}
        self._virtual: Dict[str, bytes] = {}
        self._native = METADATA_KEY in header
        if self._native:
            self._parse_metadata(header[METADATA_KEY])
        else:
            self._foreign_metadata()

    def _parse_metadata(self, text: str) -> None:
        try:
            meta = json.loads(text)
        except ValueError as e:
            raise _data_loss(self._path, f"metadata is not valid JSON ({e})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT_NAME or \
                not isinstance(meta.get("tensors"), dict):
            raise _data_loss(self._path, "metadata is not a tf1compat checkpoint description")
        if not isinstance(meta.get("version"), int) or meta["version"] > FORMAT_VERSION:
            raise errors.InvalidArgumentError(
                None, None, f"{self._path} was written in tf1compat checkpoint format version "
                            f"{meta.get('version')!r}; this tf1compat reads version "
                            f"{FORMAT_VERSION} and older")
        stored_keys = set(self._file.keys())
        if set(meta["tensors"]) != stored_keys:
            odd = sorted(set(meta["tensors"]) ^ stored_keys)
            raise _data_loss(self._path, f"metadata and tensors disagree on keys {odd[:5]}")
        for key, item in meta["tensors"].items():
            self._info[key] = self._check_item(key, item)
        if meta.get("object_graph") is not None:
            try:
                graph = og.validate_object_graph(meta["object_graph"])
            except og.ObjectGraphError as e:
                raise _data_loss(self._path, str(e)) from None
            for node in graph["nodes"]:
                for attr in node["attributes"]:
                    if attr["checkpoint_key"] not in self._info:
                        raise _data_loss(self._path, f"the object graph names key "
                                                     f"{attr['checkpoint_key']!r}, which the "
                                                     f"file does not hold")
            self._object_graph = graph
            if og.OBJECT_GRAPH_KEY not in self._info:
                # Present the graph where TF keeps it: a scalar string of the serialized proto.
                self._virtual[og.OBJECT_GRAPH_KEY] = og.serialize_object_graph(graph)
                self._info[og.OBJECT_GRAPH_KEY] = {"dtype": dtypes.string, "shape": (),
                                                   "encoding": "virtual", "crc32": None}
        self._user = meta.get("user") or {}

    def _check_item(self, key: str, item: Any) -> Dict[str, Any]:
        try:
            dtype = dtypes.as_dtype(item["dtype"])
            shape = tuple(int(d) for d in item["shape"])
            encoding = item["encoding"]
            crc = item.get("crc32")
        except (KeyError, TypeError, ValueError):
            raise _data_loss(self._path, f"bad metadata for tensor {key!r}") from None
        sl = self._file.get_slice(key)
        st_dtype, st_shape = sl.get_dtype(), tuple(sl.get_shape())
        if encoding == "raw":
            ok = st_shape == shape and dtype != dtypes.string and not dtype.is_complex and \
                st_dtype == _stored_dtype_name(dtype)
        elif encoding == "complex":
            ok = dtype.is_complex and st_shape == shape + (2,) and \
                st_dtype == ("F32" if dtype == dtypes.complex64 else "F64")
        elif encoding == "string":
            ok = dtype == dtypes.string and st_dtype == "U8" and len(st_shape) == 1
        else:
            ok = False
        if not ok or any(d < 0 for d in shape):
            raise _data_loss(self._path, f"tensor {key!r} is stored as {st_dtype} "
                                         f"{list(st_shape)}, which does not encode "
                                         f"{dtype.name} {list(shape)} ({encoding})")
        return {"dtype": dtype, "shape": shape, "encoding": encoding, "crc32": crc}

    def _foreign_metadata(self) -> None:
        for key in self._file.keys():
            sl = self._file.get_slice(key)
            dtype = _FOREIGN.get(sl.get_dtype())
            self._info[key] = {"dtype": dtype, "shape": tuple(sl.get_shape()),
                               "encoding": "raw", "crc32": None,
                               "st_dtype": sl.get_dtype()}

    # -- what the checkpoint holds -------------------------------------------------------
    @property
    def path(self) -> str:
        return self._path

    @property
    def object_graph(self) -> Optional[Dict[str, Any]]:
        """The object graph of an object-based checkpoint (object_graph.py), else None."""
        return self._object_graph

    @property
    def user_metadata(self) -> Dict[str, Any]:
        return self._user

    def keys(self) -> List[str]:
        return sorted(self._info, key=lambda k: k.encode("utf-8"))

    def contains(self, key: str) -> bool:
        return key in self._info

    def _item(self, key: str) -> Dict[str, Any]:
        item = self._info.get(key)
        if item is None:
            raise errors.NotFoundError(None, None, f"Key {key} not found in checkpoint")
        if item["dtype"] is None:
            raise NotImplementedError(f"tensor {key!r} has safetensors dtype "
                                      f"{item['st_dtype']}, which has no TF dtype")
        return item

    def dtype(self, key: str) -> dtypes.DType:
        return self._item(key)["dtype"]

    def shape(self, key: str) -> Tuple[int, ...]:
        return self._item(key)["shape"]

    def debug_string(self) -> bytes:
        """`key (DT_X) [d0,d1]` per line, in key order, like TF's reader."""
        lines = []
        for key in self.keys():
            item = self._info[key]
            name = tensor_codec.DT_NAMES.get(item["dtype"].as_datatype_enum) \
                if item["dtype"] is not None else f"(safetensors {item['st_dtype']})"
            dims = ",".join(str(d) for d in item["shape"])
            lines.append(f"{key} ({name}) [{dims}]\n".encode("utf-8"))
        return b"".join(lines)

    # -- values --------------------------------------------------------------------------
    def read(self, key: str, verify: bool = True, copy: bool = False
             ) -> Tuple[dtypes.DType, np.ndarray]:
        """(dtype, storage array) of `key` (tensor_codec's storage convention).

        With `verify`, the stored CRC-32 is checked: DataLossError on mismatch. The array
        is a view of the memory-mapped file unless `copy` (then it is owned, copied in one
        pass with the check).
        """
        item = self._item(key)
        dtype = item["dtype"]
        if key in self._virtual:
            value = np.empty((), dtype=object)
            value[()] = self._virtual[key]
            return dtype, value
        try:
            tensor = self._file.get_tensor(key)
        except Exception as e:  # noqa: BLE001
            raise _data_loss(self._path, f"tensor {key!r}: {type(e).__name__}: {e}") from None
        if tensor.dtype == torch.bfloat16:
            stored = tensor.view(torch.int16).numpy().view(np.uint16)
        else:
            stored = tensor.numpy()
        check = verify and item["crc32"] is not None
        if copy:
            stored, actual = _copy_with_crc(stored, check)
        elif check:
            actual = zlib.crc32(memoryview(tensor_codec.contiguous(stored).reshape(-1)).cast("B"))
        if check:
            if actual != item["crc32"]:
                raise _data_loss(self._path, f"checksum mismatch for tensor {key!r} (stored "
                                             f"{item['crc32']}, computed {actual})")
        encoding = item["encoding"]
        if encoding == "string":
            return dtype, self._strings(key, stored, item["shape"])
        if encoding == "complex":
            complex_dtype = "<c8" if dtype == dtypes.complex64 else "<c16"
            flat = tensor_codec.contiguous(stored).reshape(-1)
            return dtype, flat.view(complex_dtype).reshape(item["shape"])
        store = tensor_codec.storage_dtype(dtype)
        if stored.dtype != store:
            if stored.dtype.itemsize != store.itemsize:
                raise _data_loss(self._path, f"tensor {key!r} holds {stored.dtype} elements, "
                                             f"not {dtype.name}")
            stored = stored.view(store)
        return dtype, stored.reshape(item["shape"])

    def _strings(self, key: str, blob: np.ndarray, shape: Tuple[int, ...]) -> np.ndarray:
        count = int(np.prod(shape, dtype=np.int64))
        raw = blob.tobytes()
        if len(raw) < 8 * count:
            raise _data_loss(self._path, f"string tensor {key!r} is too short for its "
                                         f"{count} lengths")
        lengths = np.frombuffer(raw, dtype="<u8", count=count)
        if int(lengths.sum()) + 8 * count != len(raw):
            raise _data_loss(self._path, f"string tensor {key!r}: lengths do not add up to "
                                         f"the stored bytes")
        out = np.empty(count, dtype=object)
        pos = 8 * count
        for i, n in enumerate(lengths.tolist()):
            out[i] = raw[pos:pos + n]
            pos += n
        return out.reshape(shape)

    def close(self) -> None:
        self._file = None

    def __enter__(self) -> "SafetensorsReader":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


_COPY_CHUNK = 1 << 22   # bytes: a chunk copied is checksummed while still in the cache


def _copy_with_crc(array: np.ndarray, check: bool) -> Tuple[np.ndarray, Optional[int]]:
    """An owned copy of `array` and (with `check`) the CRC-32 of its bytes, in one pass."""
    src = tensor_codec.contiguous(array)
    out = np.empty_like(src)
    if not check or not src.nbytes:
        np.copyto(out, src)
        return out, zlib.crc32(b"") if check else None
    s = src.reshape(-1).view(np.uint8)
    d = out.reshape(-1).view(np.uint8)
    crc = 0
    for start in range(0, s.size, _COPY_CHUNK):
        chunk = d[start:start + _COPY_CHUNK]
        np.copyto(chunk, s[start:start + _COPY_CHUNK])
        crc = zlib.crc32(chunk, crc)
    return out, crc


def load_tensors(prefix: str, keys: Optional[Iterable[str]] = None, *,
                 framework: str = "torch", verify: bool = True) -> Dict[str, Any]:
    """Reads `keys` (all by default) of `<prefix>.safetensors`, all or nothing.

    framework="torch" gives torch tensors (numpy object arrays for strings), "numpy" gives
    what TF's reader returns. Any missing key, checksum mismatch or corruption raises
    before anything is returned, so a caller restoring variables never half-restores.
    """
    if framework not in ("torch", "numpy"):
        raise ValueError(f"framework must be 'torch' or 'numpy', got {framework!r}")
    reader = SafetensorsReader(checkpoint_file(prefix))
    with reader:
        wanted = reader.keys() if keys is None else list(keys)
        out = {}
        for key in wanted:
            dtype, storage = reader.read(key, verify=verify)
            out[key] = tensor_codec.to_torch(dtype, storage) if framework == "torch" \
                else tensor_codec.to_numpy(dtype, storage, key)
        return out
