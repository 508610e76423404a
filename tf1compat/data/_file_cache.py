"""`Dataset.cache(filename)`: the first complete pass is written to files, later passes
(and later programs) read them.

As TF, the cache is `<filename>.data-00000-of-00001` plus `<filename>.index`, the index
written only when a pass completes, so an interrupted pass leaves no usable cache; when
the index exists the input is not read at all. The file format is tf1compat's own (TF's
is a tensor bundle): per element, its component count, then per component a kind tag and
a numpy array (numbers) or length-prefixed bytes (strings); a ragged component is its
flat values and row splits so written.
"""

from __future__ import annotations

import io
import os
import struct
from typing import Any, List, Optional

import numpy as np
import torch

from tf1compat.data import _runtime as rt
from tf1compat.framework import dtypes as D

__all__ = ["FileCacheValue"]

_MAGIC = b"tf1compat-cache-1\n"


def _write_component(f: Any, value: Any) -> None:
    if isinstance(value, torch.Tensor):
        f.write(b"t")
        np.lib.format.write_array(f, value.detach().cpu().numpy(), allow_pickle=False)
    elif isinstance(value, bytes):
        f.write(b"b" + struct.pack("<Q", len(value)) + value)
    elif isinstance(value, np.ndarray):
        f.write(b"s")
        np.lib.format.write_array(f, np.asarray(value.shape, np.int64), allow_pickle=False)
        for item in value.reshape(-1):
            f.write(struct.pack("<Q", len(item)) + bytes(item))
    elif isinstance(value, rt.RaggedValue):
        # a ragged component: its splits count and dtype, flat values, then the splits
        dtype = b"" if value.splits_dtype is None else value.splits_dtype.name.encode()
        f.write(b"r" + struct.pack("<QQ", len(value.nested_splits), len(dtype)) + dtype)
        _write_component(f, value.flat_values)
        for splits in value.nested_splits:
            _write_component(f, splits)
    else:
        raise rt.invalid(f"Cannot cache a component of type {type(value).__name__} to a file.")


def _read_component(f: Any) -> Any:
    kind = f.read(1)
    if kind == b"t":
        return torch.from_numpy(np.lib.format.read_array(f, allow_pickle=False).copy())
    if kind == b"b":
        (n,) = struct.unpack("<Q", f.read(8))
        return f.read(n)
    if kind == b"s":
        shape = np.lib.format.read_array(f, allow_pickle=False).tolist()
        out = np.empty(int(np.prod(shape)) if shape else 1, dtype=object)
        for i in range(out.size):
            (n,) = struct.unpack("<Q", f.read(8))
            out[i] = f.read(n)
        return out.reshape(shape)
    if kind == b"r":
        count, n = struct.unpack("<QQ", f.read(16))
        dtype = D.as_dtype(f.read(n).decode()) if n else None
        values = _read_component(f)
        return rt.RaggedValue(values, tuple(_read_component(f) for _ in range(count)), dtype)
    raise rt.invalid("Corrupted cache file (unknown component tag).")


class FileCacheValue(rt.DatasetValue):
    def __init__(self, input_value: rt.DatasetValue, filename: str):
        self.input = input_value
        self.filename = filename
        self.data_path = f"{filename}.data-00000-of-00001"
        self.index_path = f"{filename}.index"

    def _read_all(self) -> List[tuple]:
        with open(self.data_path, "rb") as f:
            data = io.BytesIO(f.read())
        if data.read(len(_MAGIC)) != _MAGIC:
            raise rt.invalid(f"{self.data_path} is not a tf1compat cache file.")
        out = []
        while True:
            head = data.read(4)
            if not head:
                return out
            (n,) = struct.unpack("<I", head)
            out.append(tuple(_read_component(data) for _ in range(n)))

    def iterator(self) -> rt.Iter:
        if os.path.exists(self.index_path):
            return rt._ListIter(self._read_all())
        source = self.input.iterator().get_next
        directory = os.path.dirname(self.filename)
        if directory and not os.path.isdir(directory):
            from tf1compat.framework import errors
            raise errors.NotFoundError(None, None, f"{directory}; No such file or directory")
        buffer = io.BytesIO()
        buffer.write(_MAGIC)
        done = [False]

        def get_next() -> Optional[tuple]:
            if done[0]:
                return None
            element = source()
            if element is None:
                done[0] = True
                with open(self.data_path, "wb") as f:
                    f.write(buffer.getvalue())
                with open(self.index_path, "wb") as f:
                    f.write(_MAGIC)
                return None
            buffer.write(struct.pack("<I", len(element)))
            for value in element:
                _write_component(buffer, value)
            return element
        return rt._FnIter(get_next)
