"""`tf.train.NewCheckpointReader` and the checkpoint utilities built on it.

One reader class serves both formats: tf1compat's `<prefix>.safetensors` files and
TensorFlow's own V2 checkpoints (`<prefix>.index` + data shards, read without
TensorFlow by tf_bundle.py). It has TF's CheckpointReader interface (`get_tensor`,
`has_tensor`, `get_variable_to_shape_map`, `get_variable_to_dtype_map`, `debug_string`),
TF's return types (numpy arrays, numpy scalars for rank 0, bytes for string scalars) and
TF's errors, plus a few tf1compat extensions for restoring variables (`read_torch`,
`read_all`, `object_graph`, `format`).
"""

from __future__ import annotations

import glob as _glob
import os
import time
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple, Union

import numpy as np

from tf1compat.util import tf_logging
from tf1compat.framework import dtypes, errors
from tf1compat.training import checkpoint_format, checkpoint_state, tensor_codec, tf_bundle
from tf1compat.training import object_graph as og

__all__ = ["CheckpointReader", "NewCheckpointReader", "load_checkpoint", "load_variable",
           "list_variables", "wait_for_new_checkpoint", "checkpoints_iterator"]

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


def _looks_like_table(path: str) -> Optional[str]:
    """None if `path` is an SSTable file, else the DATA_LOSS detail TF reports."""
    try:
        size = os.path.getsize(path)
        if size < 48:
            return "DATA_LOSS: file is too short to be an sstable"
        with open(path, "rb") as f:
            f.seek(size - 8)
            magic = int.from_bytes(f.read(8), "little")
    except IsADirectoryError:
        return f"FAILED_PRECONDITION: {path}; Is a directory"
    if magic != 0xDB4775248B80FB57:
        return "DATA_LOSS: not an sstable (bad magic number)"
    return None


class CheckpointReader:
    """Reads a checkpoint: tf1compat's safetensors file or a TF V2 bundle.

    `filepattern` is a checkpoint prefix (what `Saver.save` returns); a path to a
    `.safetensors` file or to a TF `.index` file is accepted too.
    """

    def __init__(self, filepattern: _Name):
        pattern = os.fspath(filepattern)
        if isinstance(pattern, bytes):
            pattern = pattern.decode("utf-8")
        self._bundle: Optional[tf_bundle.BundleReader] = None
        self._st: Optional[checkpoint_format.SafetensorsReader] = None
        ours = checkpoint_format.checkpoint_file(pattern)
        if os.path.isfile(ours):
            self._st = checkpoint_format.SafetensorsReader(ours)
        elif pattern.endswith(checkpoint_format.SUFFIX) and os.path.isfile(pattern):
            self._st = checkpoint_format.SafetensorsReader(pattern)
        elif tf_bundle.is_bundle_prefix(pattern):
            self._bundle = tf_bundle.BundleReader(pattern)
        elif pattern.endswith(".index") and os.path.isfile(pattern) and \
                _looks_like_table(pattern) is None:
            # TF would open the index as a V1 table and show nothing; the intent is clear.
            self._bundle = tf_bundle.BundleReader(pattern[:-len(".index")])
        else:
            self._open_v1(pattern)
        self._prefix = pattern
        self._shapes: Optional[Dict[str, List[int]]] = None

    @staticmethod
    def _open_v1(pattern: str) -> None:
        matches = sorted(_glob.glob(pattern)) if pattern else []
        if not matches:
            raise errors.NotFoundError(None, None, f"Unsuccessful TensorSliceReader "
                                                   f"constructor: Failed to find any matching "
                                                   f"files for {pattern}")
        path = matches[0]
        detail = _looks_like_table(path)
        if detail is not None:
            raise _table_error(path, detail)
        raise NotImplementedError(f"{path} is a TensorFlow V1 checkpoint (the TensorSliceReader "
                                  f"format); tf1compat reads V2 checkpoints (<prefix>.index + "
                                  f"data shards) and its own .safetensors files. Re-save it "
                                  f"with TensorFlow as a V2 checkpoint.")

    # -- tf1compat extensions ---------------------------------------------------------------
    @property
    def format(self) -> str:
        """"tf1compat" (a .safetensors file) or "tf_bundle" (a TF V2 checkpoint)."""
        return "tf1compat" if self._st is not None else "tf_bundle"

    @property
    def path(self) -> str:
        """The file the reader opened (the .safetensors file or the TF .index file)."""
        if self._st is not None:
            return self._st.path
        return tf_bundle.index_filename(self._bundle.prefix)

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

    def _read(self, name: _Name, verify: bool = True, copy: bool = False
              ) -> Tuple[dtypes.DType, np.ndarray]:
        if self._st is not None:
            key = name.decode("utf-8", "surrogateescape") if isinstance(name, bytes) else name
            if not isinstance(key, str):
                raise TypeError(f"Expected binary or unicode string, got {name!r}")
            return self._st.read(key, verify=verify, copy=copy)
        return self._bundle.read(_as_bytes(name))

    def read_torch(self, name: _Name, verify: bool = True, copy: bool = False) -> Any:
        """The tensor as a torch tensor (strings: a numpy object array of bytes).

        For tf1compat's files, `verify=False` skips the CRC-32 check and `copy=True` gives
        memory of its own rather than a view of the memory-mapped file. (TF bundles are
        always checked and read into memory.)
        """
        dtype, storage = self._read(name, verify, copy)
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


def _get_checkpoint_filename(ckpt_dir_or_file: Any) -> Optional[str]:
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        return checkpoint_state.latest_checkpoint(path)
    return path


def load_checkpoint(ckpt_dir_or_file: Any) -> CheckpointReader:
    """`tf.train.load_checkpoint`: a reader for a checkpoint prefix, or a directory's latest.

    Raises:
      ValueError: if a directory has no state file or its latest checkpoint is missing.
    """
    filename = _get_checkpoint_filename(ckpt_dir_or_file)
    if filename is None:
        raise ValueError("Couldn't find 'checkpoint' file or checkpoints in given directory "
                         f"{ckpt_dir_or_file}")
    return NewCheckpointReader(filename)


def load_variable(ckpt_dir_or_file: Any, name: str) -> Any:
    """`tf.train.load_variable`: one tensor's value (a trailing ":0" is ignored)."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def list_variables(ckpt_dir_or_file: Any) -> List[Tuple[str, List[int]]]:
    """`tf.train.list_variables`: sorted (name, shape) pairs of a checkpoint."""
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return [(name, shapes[name]) for name in sorted(shapes)]


def wait_for_new_checkpoint(checkpoint_dir: str, last_checkpoint: Optional[str] = None,
                            seconds_to_sleep: float = 1, timeout: Optional[float] = None
                            ) -> Optional[str]:
    """Polls `checkpoint_dir` until its latest checkpoint differs from `last_checkpoint`.

    Returns the new checkpoint's prefix, or None after `timeout` seconds.
    """
    tf_logging.info("Waiting for new checkpoint at %s", checkpoint_dir)
    stop_time = time.time() + timeout if timeout is not None else None
    while True:
        path = checkpoint_state.latest_checkpoint(checkpoint_dir)
        if path is None or path == last_checkpoint:
            if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
                return None
            time.sleep(seconds_to_sleep)
        else:
            tf_logging.info("Found new checkpoint at %s", path)
            return path


def checkpoints_iterator(checkpoint_dir: str, min_interval_secs: float = 0,
                         timeout: Optional[float] = None,
                         timeout_fn: Optional[Callable[[], bool]] = None) -> Iterator[str]:
    """`tf.train.checkpoints_iterator`: yields each new checkpoint as it appears.

    Stops after `timeout` seconds without a new checkpoint, unless `timeout_fn` returns
    False (keep waiting).
    """
    checkpoint_path = None
    while True:
        new_path = wait_for_new_checkpoint(checkpoint_dir, checkpoint_path, timeout=timeout)
        if new_path is None:
            if not timeout_fn:
                tf_logging.info("Timed-out waiting for a checkpoint.")
                return
            if timeout_fn():
                return
            continue
        start = time.time()
        checkpoint_path = new_path
        yield checkpoint_path
        remaining = start + min_interval_secs - time.time()
        if remaining > 0:
            time.sleep(remaining)
