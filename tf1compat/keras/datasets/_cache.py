"""Where Keras keeps downloaded datasets (`$KERAS_HOME` or `~/.keras`, or a loader's
`cache_dir`; `datasets/` in it), the download of a missing one through
`tf.keras.utils.get_file` (tf-keras's cache, archives unpacked), as tf-keras's loaders do,
and the reading of dataset files that hold pickles without running code."""

from __future__ import annotations

import io
import os
import pickle
import zipfile
from typing import IO, Any, Dict, Optional

import numpy as np

__all__ = ["cache_path", "restricted_unpickle", "load_npz"]


def cache_dir(keras_dir: Optional[str] = None) -> str:
    """The `datasets/` folder of `keras_dir` (a loader's `cache_dir`) or of `$KERAS_HOME` /
    `~/.keras`, the folder created when missing; for the default, `/tmp/.keras`'s when it
    cannot be made.
    An existing read-only cache is still read (its files are used as they are)."""
    if keras_dir:
        base = os.path.expanduser(keras_dir)
        os.makedirs(base, exist_ok=True)   # an error if it cannot be, as in tf-keras
    else:
        base = os.environ.get("KERAS_HOME") or os.path.join(os.path.expanduser("~"), ".keras")
    if not os.path.exists(base):
        try:
            os.makedirs(base, exist_ok=True)
        except OSError:  # e.g. a read-only home: tf-keras's fallback
            base = os.path.join("/tmp", ".keras")
    return os.path.join(base, "datasets")


def cache_path(relative: str, origin: str, file_hash: Optional[str] = None,
               keras_dir: Optional[str] = None) -> str:
    """The local path of a dataset file under the cache's `datasets/` (`relative` may be
    absolute), downloaded from `origin` first if missing: a `.tar.gz` origin is the
    archive of `relative`'s top folder (unpacked there), any other origin the file itself.
    A file (or archive) already there is used as is; a download is checked against
    `file_hash` (tf-keras's sha256 or md5 of the real file) when given."""
    datasets = cache_dir(keras_dir)
    path = os.path.join(datasets, relative)
    if os.path.exists(path):
        return path
    from tf1compat.keras.utils.file_utils import get_file
    base = os.path.dirname(datasets)
    folder, name = os.path.split(relative)
    if origin.endswith(".tar.gz"):
        top = relative.split(os.sep)[0]
        archive = os.path.join(datasets, top + ".tar.gz")
        get_file(top, origin=origin, untar=True, cache_dir=base,
                 file_hash=None if os.path.exists(archive) else file_hash)
    else:
        get_file(name, origin=origin, cache_dir=base, file_hash=file_hash,
                 cache_subdir=os.path.join("datasets", folder) if folder else "datasets")
    if not os.path.exists(path):
        raise FileNotFoundError(f"{origin} did not provide {path!r}")
    return path


class _SafeUnpickler(pickle.Unpickler):
    """Loads only plain data (dicts, lists, bytes, str, numbers) and numpy arrays."""

    _ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy", "ndarray"),
                ("numpy", "dtype"), ("numpy._core.multiarray", "_reconstruct"),
                ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar"),
                ("builtins", "dict"), ("builtins", "list"), ("_codecs", "encode")}

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in self._ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"refusing to load {module}.{name} from a dataset file")


def restricted_unpickle(f: IO[bytes], encoding: str = "bytes") -> Any:
    """CIFAR's python batches and the sequences of imdb.npz / reuters.npz are pickles of
    plain data: load them without running code. `encoding` decodes Python 2 `str`s
    ("bytes" keeps them bytes, as tf-keras's CIFAR loader reads them)."""
    return _SafeUnpickler(f, encoding=encoding).load()


def _read_npy(f: IO[bytes]) -> np.ndarray:
    """One `.npy` member; an object array's pickle goes through the restricted unpickler
    with the encoding `np.load` uses ("ASCII")."""
    data = io.BytesIO(f.read())
    version = np.lib.format.read_magic(data)
    # Object arrays never need format 3.0 (utf-8 field names), which numpy has no public
    # header reader for: read_array below handles it, refusing pickles.
    read_header = {(1, 0): np.lib.format.read_array_header_1_0,
                   (2, 0): np.lib.format.read_array_header_2_0}.get(version)
    if read_header is not None and read_header(data)[2].hasobject:
        array = restricted_unpickle(data, encoding="ASCII")
        if not isinstance(array, np.ndarray):
            raise pickle.UnpicklingError(f"an .npy member holds a {type(array).__name__}, "
                                         "not an array")
        return array
    data.seek(0)
    return np.lib.format.read_array(data, allow_pickle=False)


def load_npz(path: str) -> Dict[str, np.ndarray]:
    """The arrays of an `.npz` file, as `np.load(path, allow_pickle=True)` gives them to
    tf-keras's loaders (object arrays of Python lists included), without running code."""
    with zipfile.ZipFile(path) as archive:
        arrays = {}
        for member in archive.namelist():
            with archive.open(member) as f:
                arrays[member[:-len(".npy")] if member.endswith(".npy") else member] = \
                    _read_npy(f)
    return arrays
