"""`tf.gfile` (and `tensorflow.python.platform.gfile`) and `tf.io.gfile`: files on the local
filesystem. tf.gfile's functions take TF 1's parameter names (`Exists(filename)`),
tf.io.gfile's TF 2's (`exists(path)`, `walk(top, topdown, onerror)`), as in TF.

Remote filesystems (gs://, hdfs://, s3://) are not available without TensorFlow; paths
with a scheme raise UnimplementedError naming it.
"""

from __future__ import annotations

import glob as _glob
import os
import shutil
from typing import Any, Iterator, List, Optional

from tf1compat.framework import errors

__all__ = ["GFile", "Open", "FastGFile", "Exists", "IsDirectory", "MakeDirs", "MkDir",
           "ListDirectory", "Glob", "Remove", "DeleteRecursively", "Copy", "Rename", "Stat",
           "Walk", "join", "get_registered_schemes"]


def _local(path: Any) -> str:
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = path.decode()
    if "://" in path and not path.startswith("file://"):
        raise errors.UnimplementedError(None, None, f"File system scheme '{path.split('://')[0]}' "
                                                    f"not implemented (file: '{path}')")
    return path[len("file://"):] if path.startswith("file://") else path


def _not_found(path: str, what: str = "No such file or directory") -> errors.NotFoundError:
    return errors.NotFoundError(None, None, f"{path}; {what}")


class GFile:
    """A file object with TF's GFile interface (`read`, `readline`, `write`, `size`, ...)."""

    def __init__(self, name: Any, mode: str = "r"):
        self._name = _local(name)
        self._mode = mode
        self._file: Any = None

    def _open(self) -> Any:
        if self._file is None:
            try:
                self._file = open(self._name, self._mode)  # noqa: SIM115
            except FileNotFoundError:
                raise _not_found(self._name) from None
            except IsADirectoryError:
                raise errors.FailedPreconditionError(None, None, f"{self._name}; Is a directory") \
                    from None
        return self._file

    @property
    def name(self) -> str:
        return self._name

    @property
    def mode(self) -> str:
        return self._mode

    def size(self) -> int:
        return Stat(self._name).length

    def read(self, n: int = -1) -> Any:
        return self._open().read(n)

    def readline(self) -> Any:
        return self._open().readline()

    def readlines(self) -> List[Any]:
        return self._open().readlines()

    def write(self, data: Any) -> None:
        f = self._open()
        if "b" not in self._mode and isinstance(data, (bytes, bytearray)):
            # TF's GFile appends bytes as they are in any mode (nmt writes PNG bytes to a
            # file opened with "w"): put them past the text layer, after what it buffered.
            f.flush()
            f.buffer.write(data)
            return
        if "b" in self._mode and isinstance(data, str):
            data = data.encode("utf-8")     # TF's compat.as_bytes: text into a "wb" file
        f.write(data)

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def seek(self, offset: Optional[int] = None, whence: int = 0, position: Optional[int] = None
             ) -> None:
        self._open().seek(position if position is not None else offset, whence)

    def tell(self) -> int:
        return self._open().tell()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __iter__(self) -> Iterator[Any]:
        return iter(self._open())

    def __next__(self) -> Any:
        return next(self._open())

    def next(self) -> Any:
        return self.__next__()

    def __enter__(self) -> "GFile":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def seekable(self) -> bool:
        return True


Open = GFile
FastGFile = GFile


def Exists(filename: Any) -> bool:  # noqa: N802 - TF's names
    return os.path.exists(_local(filename))


def IsDirectory(dirname: Any) -> bool:  # noqa: N802
    return os.path.isdir(_local(dirname))


def MakeDirs(dirname: Any) -> None:  # noqa: N802
    """Creates `dirname` and its parents; "" (the current directory) is a no-op, as TF's."""
    path = _local(dirname)
    if path:
        os.makedirs(path, exist_ok=True)


def MkDir(dirname: Any) -> None:  # noqa: N802
    path = _local(dirname)
    try:
        os.mkdir(path)
    except FileExistsError:
        raise errors.AlreadyExistsError(None, None, f"{path}; File exists") from None
    except FileNotFoundError:
        raise _not_found(path) from None


def ListDirectory(dirname: Any) -> List[str]:  # noqa: N802
    path = _local(dirname)
    if not os.path.isdir(path):
        raise _not_found(path, "Could not find directory")
    return os.listdir(path)


def Glob(filename: Any) -> List[str]:  # noqa: N802
    if isinstance(filename, (list, tuple)):
        out: List[str] = []
        for f in filename:
            out.extend(Glob(f))
        return out
    return sorted(_glob.glob(_local(filename)))


def Remove(filename: Any) -> None:  # noqa: N802
    path = _local(filename)
    try:
        os.remove(path)
    except FileNotFoundError:
        raise _not_found(path) from None


def DeleteRecursively(dirname: Any) -> None:  # noqa: N802
    path = _local(dirname)
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)
    else:
        raise _not_found(path)


def Copy(oldpath: Any, newpath: Any, overwrite: bool = False) -> None:  # noqa: N802
    src, dst = _local(oldpath), _local(newpath)
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(None, None, f"file already exists: {dst}")
    if not os.path.exists(src):
        raise _not_found(src)
    shutil.copyfile(src, dst)


def Rename(oldname: Any, newname: Any, overwrite: bool = False) -> None:  # noqa: N802
    src, dst = _local(oldname), _local(newname)
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(None, None, f"file already exists: {dst}")
    if not os.path.exists(src):
        raise _not_found(src)
    os.replace(src, dst)


class _FileStatistics:
    def __init__(self, length: int, mtime_nsec: int, is_directory: bool):
        self.length = length
        self.mtime_nsec = mtime_nsec
        self.is_directory = is_directory


def Stat(filename: Any) -> _FileStatistics:  # noqa: N802
    path = _local(filename)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise _not_found(path) from None
    return _FileStatistics(st.st_size, int(st.st_mtime * 1e9), os.path.isdir(path))


def Walk(top: Any, in_order: bool = True) -> Iterator[Any]:  # noqa: N802
    for root, dirs, files in os.walk(_local(top), topdown=in_order):
        yield root, dirs, files


def join(path: Any, *paths: Any) -> str:
    """`tf.io.gfile.join`: path components joined as `os.path.join` does (TF's result for
    local paths and URLs alike: `join("gs://b/", "x")` -> "gs://b/x")."""
    return os.path.join(os.fspath(path), *(os.fspath(p) for p in paths))


def get_registered_schemes() -> List[str]:
    """`tf.io.gfile.get_registered_schemes`: the file systems this gfile reads (local paths,
    with or without `file://`); remote schemes raise UnimplementedError."""
    return ["file", ""]


# tf.io.gfile's functions (TF's file_io *_v2): v1's under TF 2's names and parameter names
# (`exists(path)`, `copy(src, dst)`), which keyword callers and argspec readers see.

def exists(path: Any) -> bool:
    """`tf.io.gfile.exists`: whether `path` exists."""
    return Exists(path)


def isdir(path: Any) -> bool:
    """`tf.io.gfile.isdir`: whether `path` is a directory."""
    return IsDirectory(path)


def makedirs(path: Any) -> None:
    """`tf.io.gfile.makedirs`: creates `path` and its missing parents."""
    MakeDirs(path)


def mkdir(path: Any) -> None:
    """`tf.io.gfile.mkdir`: creates the directory `path` (its parent must exist)."""
    MkDir(path)


def listdir(path: Any) -> List[str]:
    """`tf.io.gfile.listdir`: the entries of directory `path`."""
    return ListDirectory(path)


def glob(pattern: Any) -> List[str]:
    """`tf.io.gfile.glob`: the paths matching `pattern` (or any of a list of patterns)."""
    return Glob(pattern)


def remove(path: Any) -> None:
    """`tf.io.gfile.remove`: deletes the file `path`."""
    Remove(path)


def rmtree(path: Any) -> None:
    """`tf.io.gfile.rmtree`: deletes `path` and everything below it."""
    DeleteRecursively(path)


def copy(src: Any, dst: Any, overwrite: bool = False) -> None:
    """`tf.io.gfile.copy`: copies file `src` to `dst`."""
    Copy(src, dst, overwrite)


def rename(src: Any, dst: Any, overwrite: bool = False) -> None:
    """`tf.io.gfile.rename`: moves `src` to `dst`."""
    Rename(src, dst, overwrite)


def stat(path: Any) -> _FileStatistics:
    """`tf.io.gfile.stat`: length, mtime_nsec and is_directory of `path`."""
    return Stat(path)


def walk(top: Any, topdown: bool = True, onerror: Any = None) -> Iterator[Any]:
    """`tf.io.gfile.walk`: (dirname, subdirs, files) triples, parents first when `topdown`;
    a directory that cannot be listed is skipped, or handed to `onerror` as TF's
    NotFoundError."""
    def on_os_error(error: OSError) -> None:
        if onerror is not None:
            onerror(_not_found(error.filename or _local(top), "Could not find directory"))
    yield from os.walk(_local(top), topdown=topdown, onerror=on_os_error)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('gfile', globals())
