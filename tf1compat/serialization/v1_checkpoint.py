"""TF's V1 checkpoint format (TensorSliceWriter / TensorSliceReader), which the `Save`,
`SaveSlices`, `Restore` and `RestoreSlice` ops of TF 0.x graphs write and read.

A V1 checkpoint file is a sorted string table (sstable.py, LevelDB's layout) of
`SavedTensorSlices` messages (protos/saved_tensor_slice.proto): under the empty key the
meta (each tensor's name, full shape, dtype and the slices saved of it, and the format's
version: producer 1, min_consumer 0), under each slice's key (tensor_slice.py's
`encode_tensor_name_slice`) the slice's values, listed in the TensorProto's repeated
field of the dtype. A sharded V1 save writes one such file per shard; readers open every
file a pattern matches (`model.ckpt-?????-of-00002`) and assemble a tensor from the
slices of all of them.
"""

from __future__ import annotations

import glob
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch
from google.protobuf.message import DecodeError

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.serialization import sstable, tensor_codec
from tf1compat.serialization.atomic_files import atomic_write_bytes
from tf1compat.serialization.messages import TensorProto
from tf1compat.serialization.protos.saved_tensor_slice_pb2 import (SavedSliceMeta,
                                                                  SavedTensorSlices)
from tf1compat.serialization.tensor_proto import (list_values, proto_to_ndarray,
                                                  proto_to_shape, shape_to_proto)
from tf1compat.serialization.tensor_slice import (SliceSpec, encode_tensor_name_slice,
                                                  parse_slice_spec, slice_from_proto,
                                                  slice_to_proto)

__all__ = ["write_v1_checkpoint", "V1CheckpointReader", "is_v1_checkpoint", "read_v1_tensors"]

# tensorflow/core/public/version.h: TF_CHECKPOINT_VERSION(_MIN_CONSUMER)
_CHECKPOINT_VERSION, _CHECKPOINT_MIN_CONSUMER = 1, 0


def _whole(shape: Sequence[int]) -> SliceSpec:
    """The full slice of a tensor (every extent "-", as TF's TensorSlice of a whole one)."""
    return SliceSpec(list(shape), [0] * len(shape), list(shape), whole=[True] * len(shape))


def write_v1_checkpoint(path: str, tensors: Sequence[Tuple[str, Any, D.DType,
                                                           Optional[SliceSpec]]]) -> None:
    """Writes one V1 checkpoint file of (name, numpy value, dtype, slice or None for the
    whole tensor) entries, atomically (a temporary file, then a rename)."""
    sts = SavedTensorSlices()
    meta = sts.meta
    meta.versions.producer = _CHECKPOINT_VERSION
    meta.versions.min_consumer = _CHECKPOINT_MIN_CONSUMER
    entries: Dict[bytes, bytes] = {}
    tensor_meta: Dict[str, Any] = {}
    for name, value, dtype, spec in tensors:
        spec = spec or _whole(np.shape(value))
        if list(np.shape(value)) != spec.lengths:
            raise errors.InvalidArgumentError(
                None, None, f"Shape of slice {spec.spec_text()!r} of tensor {name} is "
                            f"{spec.lengths}, but the value has shape {list(np.shape(value))}")
        saved = tensor_meta.get(name)
        if saved is None:
            saved = tensor_meta[name] = SavedSliceMeta(name=name, type=dtype.as_datatype_enum)
            saved.shape.CopyFrom(shape_to_proto(TensorShape(spec.full_shape)))
        elif saved.type != dtype.as_datatype_enum or \
                proto_to_shape(saved.shape).as_list() != spec.full_shape:
            raise errors.InvalidArgumentError(
                None, None, f"Conflicting dtype or shape for slices of tensor {name}")
        saved.slice.add().CopyFrom(slice_to_proto(spec))
        key = encode_tensor_name_slice(name.encode("utf-8"), spec.extents())
        if key in entries:
            raise errors.InvalidArgumentError(
                None, None, f"Slice {spec.spec_text()!r} of tensor {name} is saved twice")
        data = SavedTensorSlices()
        data.data.name = name
        data.data.slice.CopyFrom(slice_to_proto(spec))
        list_values(data.data.data, value, dtype)
        entries[key] = data.SerializeToString()
    # (TF's writer lists the tensors by name.)
    meta.tensor.extend(tensor_meta[name] for name in sorted(tensor_meta))
    entries[b""] = sts.SerializeToString()
    atomic_write_bytes(path, sstable.encode_table(sorted(entries.items())))


def _dims(shape: Sequence[int]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


class V1CheckpointReader:
    """The tensors of the V1 checkpoint files a pattern matches (TF's TensorSliceReader),
    with TF's errors for a pattern matching nothing and for files that are not tables."""

    def __init__(self, pattern: str):
        self.pattern = pattern
        files = sorted(glob.glob(pattern)) if pattern else []
        if not files:
            raise errors.NotFoundError(None, None, f"Unsuccessful TensorSliceReader "
                                                   f"constructor: Failed to find any matching "
                                                   f"files for {pattern}")
        # name -> (dtype, full shape, [(slice, file's table, key)])
        self._tensors: Dict[str, Tuple[D.DType, List[int], list]] = {}
        for path in files:
            problem = sstable.looks_like_table(path)
            if problem is not None:
                raise errors.DataLossError(None, None, f"Unable to open table file {path}: "
                                                       f"{problem}")
            table = dict(sstable.read_table(path))
            if b"" not in table:
                raise errors.DataLossError(
                    None, None, f"Failed to find the saved tensor slices at the beginning of "
                                f"the checkpoint file: {path}")
            try:
                meta = SavedTensorSlices.FromString(table[b""]).meta
            except DecodeError:
                raise errors.DataLossError(None, None, f"Failed to parse the saved tensor "
                                                       f"slices of {path}") from None
            for saved in meta.tensor:
                shape = proto_to_shape(saved.shape).as_list()
                entry = self._tensors.setdefault(saved.name,
                                                 (D.as_dtype(saved.type), shape, []))
                for proto in saved.slice:
                    spec = slice_from_proto(proto, shape)
                    key = encode_tensor_name_slice(saved.name.encode("utf-8"), spec.extents())
                    entry[2].append((spec, table, key))

    def has_tensor(self, name: str) -> bool:
        return name in self._tensors

    # -- the interface checkpoint_reader.py reads a tensor bundle through -------------------
    @property
    def prefix(self) -> str:
        return self.pattern

    @property
    def path(self) -> str:
        """The first file the pattern matches."""
        return sorted(glob.glob(self.pattern))[0]

    def object_graph(self) -> None:
        return None     # V1 checkpoints are name-based

    def keys(self) -> List[bytes]:
        return [name.encode("utf-8") for name in sorted(self._tensors)]

    def contains(self, name: bytes) -> bool:
        return name.decode("utf-8", "surrogateescape") in self._tensors

    def shape(self, name: bytes) -> List[int]:
        return self._entry(name.decode("utf-8", "surrogateescape"))[1]

    def dtype(self, name: bytes) -> D.DType:
        return self._entry(name.decode("utf-8", "surrogateescape"))[0]

    def debug_string(self) -> bytes:
        """`name (DT_FLOAT) [2,3]` lines, with ", N slices" for a tensor saved in parts (TF
        lists them in its hash map's order; here by name)."""
        lines = []
        for name in sorted(self._tensors):
            dtype, shape, slices = self._tensors[name]
            enum = dtype.as_datatype_enum
            more = f", {len(slices)} slices" if len(slices) > 1 else ""
            lines.append(f"{name} ({tensor_codec.DT_NAMES.get(enum, dtype.name)}) "
                         f"{_dims(shape)}{more}\n")
        return "".join(lines).encode("utf-8")

    def read(self, name: bytes, spec: Optional[SliceSpec] = None,
             verify: bool = True) -> Tuple[D.DType, np.ndarray]:
        """(dtype, storage array) of a tensor saved whole, as TF's CheckpointReader reads
        V1 files (a tensor saved in slices: UnimplementedError, as TF's)."""
        key = name.decode("utf-8", "surrogateescape")
        if key not in self._tensors:
            raise errors.NotFoundError(None, None, f"{key} not found in checkpoint file")
        dtype, shape, slices = self._tensors[key]
        if len(slices) != 1 or not slices[0][0].covers_all():
            raise errors.UnimplementedError(None, None,
                                            "Sliced checkpoints are not supported")
        value = self.read_value(key, spec)
        if dtype == D.bfloat16:     # read as float32 values; stored as bfloat16 bits
            value = torch.from_numpy(value).to(torch.bfloat16).view(torch.int16).numpy() \
                .view(np.uint16)
        return dtype, value

    def dtype_and_shape(self, name: str) -> Tuple[D.DType, List[int]]:
        dtype, shape, _ = self._entry(name)
        return dtype, shape

    def _entry(self, name: str) -> Tuple[D.DType, List[int], list]:
        entry = self._tensors.get(name)
        if entry is None:
            raise errors.NotFoundError(None, None, f"Tensor name \"{name}\" not found in "
                                                   f"checkpoint files {self.pattern}")
        return entry

    def read_value(self, name: str, spec: Optional[SliceSpec] = None) -> np.ndarray:
        """The tensor `name` (the part `spec` of it), assembled from its saved slices."""
        dtype, shape, slices = self._entry(name)
        if spec is not None and spec.full_shape != shape:
            raise errors.InvalidArgumentError(
                None, None, f"Shape in shape_and_slice spec does not match the shape in the "
                            f"save file: {_dims(spec.full_shape)}, save file shape: "
                            f"{_dims(shape)}")
        out = None
        filled = np.zeros(shape, dtype=bool)
        for saved, table, key in slices:
            proto = TensorProto()
            proto.CopyFrom(SavedTensorSlices.FromString(table[key]).data.data)
            proto.dtype = dtype.as_datatype_enum
            proto.tensor_shape.CopyFrom(shape_to_proto(TensorShape(saved.lengths)))
            value = proto_to_ndarray(proto)[1]
            if out is None:
                out = np.zeros(shape, dtype=value.dtype) if value.dtype != object else \
                    np.full(shape, b"", dtype=object)
            out[saved.index] = value
            filled[saved.index] = True
        wanted = filled if spec is None else filled[spec.index]
        if out is None or not wanted.all():
            # (TF's message: part of what is asked for was never saved.)
            raise errors.InvalidArgumentError(None, None, "Error copying slice data")
        return out if spec is None else out[spec.index].copy()


def is_v1_checkpoint(pattern: str) -> bool:
    """Whether `pattern` names V1 checkpoint files: no V2 index `<pattern>.index` (TF's
    RestoreV2 then reads V1 files), and the first file it matches is a table."""
    if os.path.exists(pattern + ".index"):
        return False
    files = sorted(glob.glob(pattern)) if pattern else []
    return bool(files) and sstable.looks_like_table(files[0]) is None


def _dtype_text(dtype: D.DType) -> str:
    name = tensor_codec.DT_NAMES.get(dtype.as_datatype_enum)
    return name[3:].lower() if name else dtype.name


def read_v1_tensors(pattern: str, names: Sequence[str], slices: Sequence[str],
                    dtypes: Sequence[D.DType], device: Any = None) -> List[Any]:
    """Restore/RestoreSlice's work (and RestoreV2's on V1 files, as TF's): each tensor
    (the part a "shape and slice" spec names, "" for all of it) as a torch tensor on
    `device` (strings: numpy object arrays), with TF's errors."""
    reader = V1CheckpointReader(pattern)
    out = []
    for name, text, dtype in zip(names, slices, dtypes):
        stored = reader.dtype_and_shape(name)[0]
        if stored != dtype.base_dtype:
            raise errors.InvalidArgumentError(
                None, None, f"Expected to restore a tensor of type {_dtype_text(dtype)}, got "
                            f"a tensor of type {_dtype_text(stored)} instead: tensor_name = "
                            f"{name}")
        value = reader.read_value(name, parse_slice_spec(text, name))
        if value.dtype == object:
            out.append(value)
            continue
        # (bfloat16 arrives as float32 values, as proto_to_ndarray reads it.)
        out.append(torch.as_tensor(tensor_codec.contiguous(value)).to(
            device=device, dtype=dtype.torch_dtype))
    return out
