"""Where Keras keeps downloaded datasets (`$KERAS_HOME` or `~/.keras`, `datasets/`), and the
download of a missing one through `tf.keras.utils.get_file` (tf-keras's cache, archives
unpacked), as tf-keras's loaders do."""

from __future__ import annotations

import os
import pickle
from typing import Any

__all__ = ["cache_path", "restricted_unpickle"]


def cache_dir() -> str:
    base = os.environ.get("KERAS_HOME") or os.path.join(os.path.expanduser("~"), ".keras")
    if not os.access(base, os.W_OK) and not os.path.exists(base):
        base = os.path.join("/tmp", ".keras")
    return os.path.join(base, "datasets")


def cache_path(relative: str, origin: str) -> str:
    """The local path of a dataset file under the cache's `datasets/`, downloaded from
    `origin` first if missing: a `.tar.gz` origin is the archive of `relative`'s top
    folder (unpacked there), any other origin the file itself."""
    path = os.path.join(cache_dir(), relative)
    if os.path.exists(path):
        return path
    from tf1compat.keras.utils.file_utils import get_file
    base = os.path.dirname(cache_dir())
    folder, name = os.path.split(relative)
    if origin.endswith(".tar.gz"):
        get_file(relative.split(os.sep)[0], origin=origin, untar=True, cache_dir=base)
    else:
        get_file(name, origin=origin, cache_dir=base,
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


def restricted_unpickle(f: Any) -> Any:
    """CIFAR's python batches are pickles of plain data: load them without running code."""
    return _SafeUnpickler(f, encoding="bytes").load()
