"""`tf.train.NewCheckpointReader`: reads any checkpoint tf1compat can restore.

One reader class serves every layout: TF's V2 checkpoints (`<prefix>.index` + data
shards: what TensorFlow and tf1compat write, read by tensor_bundle.py), the single
`<prefix>.safetensors` files earlier tf1compat versions wrote, and TF's V1 checkpoint
files (v1_checkpoint.py; as TF's reader, tensors saved in slices raise
UnimplementedError). It has TF's CheckpointReader interface (`get_tensor`, `has_tensor`,
`get_variable_to_shape_map`, `get_variable_to_dtype_map`, `debug_string`), TF's return
types (numpy arrays, numpy scalars for rank 0, bytes for string scalars) and TF's errors,
plus a few tf1compat extensions for restoring variables (`read_torch`, `read_all`,
`object_graph`, `format`).
The directory-level helpers (`tf.train.load_checkpoint`, `list_variables`, ...) are in
training/saving/checkpoint_utils.py.
"""

from __future__ import annotations

import glob as _glob
import os
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

import numpy as np

from tf1compat.framework import dtypes, errors
from tf1compat.serialization import object_graph as og
from tf1compat.serialization import safetensors_checkpoint, sstable, tensor_bundle, tensor_codec
from tf1compat.serialization import v1_checkpoint
from tf1compat.serialization.tensor_slice import SliceSpec, slice_of

__all__ = ["CheckpointReader", "NewCheckpointReader", "FORMAT_TF_BUNDLE",
           "FORMAT_SAFETENSORS", "FORMAT_TF_V1"]

FORMAT_TF_BUNDLE = "tf_bundle"        # <prefix>.index + data shards (TF's and ours)
FORMAT_SAFETENSORS = "safetensors"    # <prefix>.safetensors (earlier tf1compat versions)
FORMAT_TF_V1 = "tf_v1"                # TF's V1 checkpoint files (v1_checkpoint.py)

_Name = Union[str, bytes]


def _as_bytes(name: _Name) -> bytes:
    if isinstance(name, bytes):
        return name
    if isinstance(name, str):
        return name.encode("utf-8")
    raise TypeError(f"Expected binary or unicode string, got {name!r}")


def _as_str(name: bytes) -> str:
    return name.decode("utf-8", "surrogateescape")


def _table_error(path: str, detail: str) -> errors.DataLossError:
    return errors.DataLossError(None, None, f"Unable to open table file {path}: {detail}: "
                                            f"perhaps your file is in a different file format "
                                            f"and you need to use a different restore operator?")


class CheckpointReader:
    """Reads a checkpoint: a V2 bundle (TF's layout), an earlier `.safetensors` file or TF's
    V1 checkpoint files.

    `filepattern` is a checkpoint prefix (what `Saver.save` returns); a path to a
    `.safetensors` file or to an `.index` file is accepted too. When a prefix has both
    files, the bundle (the current layout) is read.
    """

    def __init__(self, filepattern: _Name):
        pattern = os.fspath(filepattern)
        if isinstance(pattern, bytes):
            pattern = pattern.decode("utf-8")
        self._bundle: Optional[Union[tensor_bundle.BundleReader,
                                     v1_checkpoint.V1CheckpointReader]] = None
        self._st: Optional[safetensors_checkpoint.SafetensorsReader] = None
        legacy = safetensors_checkpoint.checkpoint_file(pattern)
        if tensor_bundle.is_bundle_prefix(pattern):
            self._bundle = tensor_bundle.BundleReader(pattern)
        elif os.path.isfile(legacy):
            self._st = safetensors_checkpoint.SafetensorsReader(legacy)
        elif pattern.endswith(safetensors_checkpoint.SUFFIX) and os.path.isfile(pattern):
            self._st = safetensors_checkpoint.SafetensorsReader(pattern)
        elif pattern.endswith(".index") and os.path.isfile(pattern) and \
                sstable.looks_like_table(pattern) is None:
            # TF would open the index as a V1 table and show nothing; the intent is clear.
            self._bundle = tensor_bundle.BundleReader(pattern[:-len(".index")])
        else:
            self._bundle = self._open_v1(pattern)     # the same interface as a bundle's
        self._prefix = pattern

    @staticmethod
    def _open_v1(pattern: str) -> v1_checkpoint.V1CheckpointReader:
        matches = sorted(_glob.glob(pattern)) if pattern else []
        if not matches:
            raise errors.NotFoundError(None, None, f"Unsuccessful TensorSliceReader "
                                                   f"constructor: Failed to find any matching "
                                                   f"files for {pattern}")
        detail = sstable.looks_like_table(matches[0])
        if detail is not None:
            raise _table_error(matches[0], detail)
        return v1_checkpoint.V1CheckpointReader(pattern)

    # -- tf1compat extensions ---------------------------------------------------------------
    @property
    def format(self) -> str:
        """FORMAT_TF_BUNDLE ("tf_bundle": an index and data shards, TF's layout),
        FORMAT_SAFETENSORS ("safetensors": one file of an earlier tf1compat) or FORMAT_TF_V1
        ("tf_v1": TF's V1 checkpoint files)."""
        if self._st is not None:
            return FORMAT_SAFETENSORS
        return FORMAT_TF_V1 if isinstance(self._bundle, v1_checkpoint.V1CheckpointReader) \
            else FORMAT_TF_BUNDLE

    @property
    def path(self) -> str:
        """The file the reader opened (the .index file or the .safetensors file)."""
        if self._st is not None:
            return self._st.path
        if isinstance(self._bundle, v1_checkpoint.V1CheckpointReader):
            return self._bundle.path
        return tensor_bundle.index_filename(self._bundle.prefix)

    @property
    def user_metadata(self) -> Dict[str, Any]:
        """The writer's extra metadata of a `.safetensors` file ({} for bundles)."""
        return self._st.user_metadata if self._st is not None else {}

    def object_graph(self) -> Optional[Dict[str, Any]]:
        """The object graph (object_graph.py's structure), or None if name-based.

        Raises DataLossError if the stored graph is malformed.
        """
        if self._st is not None:
            return self._st.object_graph
        data = self._bundle.object_graph()
        if data is None:
            return None
        try:
            return og.parse_object_graph(data)
        except og.ObjectGraphError as e:
            raise errors.DataLossError(None, None, f"{self.path}: {e}") from None

    def keys(self) -> List[str]:
        """Tensor names in key order (slices of partitioned variables hidden)."""
        if self._st is not None:
            return self._st.keys()
        return [_as_str(k) for k in self._bundle.keys()]

    def _read(self, name: _Name, verify: bool = True, copy: bool = False,
              spec: Optional[SliceSpec] = None) -> Tuple[dtypes.DType, np.ndarray]:
        if self._st is None:
            return self._bundle.read(_as_bytes(name), spec, verify)
        key = name.decode("utf-8", "surrogateescape") if isinstance(name, bytes) else name
        if not isinstance(key, str):
            raise TypeError(f"Expected binary or unicode string, got {name!r}")
        dtype, value = self._st.read(key, verify=verify, copy=copy)
        return dtype, value if spec is None else slice_of(value, spec, key)

    def read_torch(self, name: _Name, verify: bool = True, copy: bool = False,
                   spec: Optional[SliceSpec] = None) -> Any:
        """The tensor (or its part `spec`) as a torch tensor (strings: a numpy object array
        of bytes).

        `verify=False` skips checking the stored checksum. For `.safetensors` files
        `copy=True` gives memory of its own rather than a view of the memory-mapped file;
        bundles are read into memory unless `verify=False` (then mapped, copy-on-write).
        """
        dtype, storage = self._read(name, verify, copy, spec)
        return tensor_codec.to_torch(dtype, storage)

    def read_all(self, names: Optional[Iterable[_Name]] = None,
                 framework: str = "torch") -> Dict[str, Any]:
        """Several tensors at once, all or nothing (an error leaves the caller untouched).

        framework "torch" gives torch tensors, "numpy" what `get_tensor` returns.
        """
        if framework not in ("torch", "numpy"):
            raise ValueError(f"framework must be 'torch' or 'numpy', got {framework!r}")
        out = {}
        for name in self.keys() if names is None else names:
            key = name if isinstance(name, str) else _as_str(_as_bytes(name))
            if framework == "torch":
                out[key] = self.read_torch(name)
            else:
                out[key] = self.get_tensor(name)
        return out

    # -- TF's CheckpointReader --------------------------------------------------------------
    def get_tensor(self, tensor_str: _Name) -> Any:
        """The tensor's value as numpy (a numpy scalar for rank 0, bytes for a string scalar).

        Raises NotFoundError ("Key x not found in checkpoint") for an unknown name and
        DataLossError when the stored bytes fail their checksum.
        """
        dtype, storage = self._read(tensor_str)
        key = tensor_str if isinstance(tensor_str, str) else _as_str(_as_bytes(tensor_str))
        return tensor_codec.as_reader_result(tensor_codec.to_numpy(dtype, storage, key))

    def has_tensor(self, tensor_str: _Name) -> bool:
        if self._st is not None:
            key = tensor_str.decode("utf-8", "surrogateescape") \
                if isinstance(tensor_str, bytes) else tensor_str
            return self._st.contains(key)
        return self._bundle.contains(_as_bytes(tensor_str))

    def get_variable_to_shape_map(self) -> Dict[str, List[int]]:
        """{name: shape as a list of ints} for every tensor (partitioned: the full shape)."""
        if self._st is not None:
            return {k: list(self._st.shape(k)) for k in self._st.keys()}
        return {_as_str(k): list(self._bundle.shape(k)) for k in self._bundle.keys()}

    def get_variable_to_dtype_map(self) -> Dict[str, dtypes.DType]:
        """{name: tf.DType} for every tensor."""
        if self._st is not None:
            return {k: self._st.dtype(k) for k in self._st.keys()}
        return {_as_str(k): self._bundle.dtype(k) for k in self._bundle.keys()}

    def debug_string(self) -> bytes:
        """`name (DT_FLOAT) [4,8]` lines, as bytes (TF lists a partitioned variable's slices)."""
        if self._st is not None:
            return self._st.debug_string()
        return self._bundle.debug_string()

    def __repr__(self) -> str:
        return f"<CheckpointReader {self.format} {self._prefix!r}>"


def NewCheckpointReader(filepattern: _Name) -> CheckpointReader:  # noqa: N802 - TF's name
    """`tf.train.NewCheckpointReader`: a reader over the checkpoint at `filepattern`."""
    return CheckpointReader(filepattern)
