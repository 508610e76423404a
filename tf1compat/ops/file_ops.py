"""File ops: `tf.read_file` (ReadFile), `tf.write_file` (WriteFile), `tf.matching_files`
(MatchingFiles), local filesystem only (as tf.gfile)."""

from __future__ import annotations

import glob
import os
from typing import Any, Callable, List, Optional

import numpy as np

from tf1compat.framework import context as _context
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1
from tf1compat.framework.op_def import declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["read_file", "write_file", "matching_files"]


def _text(value: Any) -> str:
    if isinstance(value, np.ndarray):
        value = value.reshape(-1)[0] if value.size == 1 else value[()]
    return value.decode() if isinstance(value, bytes) else str(value)


def _local(path: str) -> str:
    from tf1compat.util.gfile import _local as local
    return local(path)


def _read_file_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def read(filename: Any) -> bytes:
        path = _local(_text(filename))
        try:
            with open(path, "rb") as f:
                return f.read()
        except FileNotFoundError:
            raise errors.NotFoundError(None, None,
                                       f"{path}; No such file or directory") from None
        except IsADirectoryError:
            raise errors.FailedPreconditionError(None, None,
                                                 f"{path}; Is a directory") from None
    return read


declare("ReadFile", inputs=["filename: string"], outputs=["contents: string"],
        shape=lambda ctx: [TensorShape([])], kernel=_read_file_kernel, grad="none",
        cpu_only=True, doc="The bytes of a file.")


def _write_file_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def write(filename: Any, contents: Any) -> None:
        path = _local(_text(filename))
        directory = os.path.dirname(path)
        if directory:
            os.makedirs(directory, exist_ok=True)
        data = contents if isinstance(contents, bytes) else bytes(contents.reshape(-1)[0])
        with open(path, "wb") as f:
            f.write(data)
    return write


declare("WriteFile", inputs=["filename: string", "contents: string"], outputs=[],
        shape=lambda ctx: [], kernel=_write_file_kernel, grad="none", stateful=True,
        cpu_only=True, doc="Writes bytes to a file (creating its directory).")


def _glob(pattern: str) -> List[bytes]:
    path = _local(pattern)
    return sorted(p.encode() for p in glob.glob(path))


def _matching_files_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def match(pattern: Any) -> np.ndarray:
        patterns = [pattern] if isinstance(pattern, bytes) else list(pattern.reshape(-1))
        found: List[bytes] = []
        for p in patterns:
            found.extend(_glob(p.decode() if isinstance(p, bytes) else str(p)))
        found = sorted(set(found))
        out = np.empty(len(found), dtype=object)
        out[:] = found
        return out
    return match


def _matching_shape(ctx: Any) -> List[TensorShape]:
    rank = ctx.shape(0).rank
    if rank is not None and rank > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {rank} for "
                         f"'{{{{node {ctx.name}}}}} = MatchingFiles[](pattern)'")
    return [TensorShape([None])]


declare("MatchingFiles", inputs=["pattern: string"], outputs=["filenames: string"],
        shape=_matching_shape, kernel=_matching_files_kernel, grad="none",
        cpu_only=True, doc="The sorted names of the files matching glob patterns.")


def read_file(filename: Any, name: Optional[str] = None) -> Tensor:
    """`tf.read_file` / `tf.io.read_file`: a scalar string with the file's bytes."""
    return apply_op1("ReadFile", [filename], name=name)


def write_file(filename: Any, contents: Any, name: Optional[str] = None) -> Any:
    """`tf.write_file` / `tf.io.write_file`: an op writing `contents` to `filename` (under
    eager execution it writes at once and returns None, as TF)."""
    op = apply_op("WriteFile", [filename, contents], name=name)
    return None if _context._state["eager"] else op


def matching_files(pattern: Any, name: Optional[str] = None) -> Tensor:
    """`tf.matching_files` / `tf.io.matching_files`: the files matching glob pattern(s)."""
    return apply_op1("MatchingFiles", [pattern], name=name)

