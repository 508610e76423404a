"""`tf.resource_loader`: paths of data files that sit beside Python files.

TF's functions locate files through Bazel's runfiles tree and otherwise fall back to
paths beside a Python file; outside a Bazel build only the fallback applies, and that is
what these implement, frame for frame as TF does:

* `get_data_files_path()` is the directory of the file that calls it, and
  `get_path_to_datafile(path)` joins `path` to that directory;
* `load_resource(path)` and `get_root_dir_with_all_resources()` ask through a function of
  this module, so (as in TF, where they resolve beside tensorflow/python/platform/) their
  caller is this module: paths resolve beside it, and the root directory is the nearest
  directory directly under a `*.runfiles` directory, else this module's directory;
* `readahead_file_path(path)` returns `path` (TF's readahead is not implemented either).
"""

from __future__ import annotations

import inspect
import os
import sys

__all__ = ["get_data_files_path", "get_path_to_datafile", "get_root_dir_with_all_resources",
           "load_resource", "readahead_file_path"]


def _caller_directory(depth: int) -> str:
    """The directory of the file whose frame is `depth` levels above the caller."""
    return os.path.dirname(inspect.getfile(sys._getframe(depth + 1)))


def get_data_files_path() -> str:
    """The directory of the Python file that calls this function."""
    return _caller_directory(1)


def get_path_to_datafile(path: str) -> str:
    """`path` joined to the directory of the Python file that calls this function.

    The file need not exist (TF returns the path without checking).
    """
    return os.path.join(_caller_directory(1), path)


def get_root_dir_with_all_resources() -> str:
    """The directory directly under the nearest enclosing `*.runfiles` directory of this
    module (a Bazel build), else this module's directory (TF's fallback)."""
    script_dir = get_data_files_path()
    previous, current = None, script_dir
    while True:
        if ".runfiles" in os.path.basename(current):
            return previous or script_dir
        parent = os.path.dirname(current)
        if parent == current:
            return script_dir
        previous, current = current, parent


def load_resource(path: str) -> bytes:
    """The bytes of the file `path` resolves to through `get_path_to_datafile` called
    from here (beside this module, as TF's resolves beside its own module).

    Raises:
      OSError (FileNotFoundError, ...) when the file cannot be read, as TF.
    """
    with open(get_path_to_datafile(path), "rb") as f:
        return f.read()


def readahead_file_path(path: str, readahead: str = "128M") -> str:
    """Returns `path`: readahead is not implemented (nor is it in TF)."""
    del readahead
    return path
