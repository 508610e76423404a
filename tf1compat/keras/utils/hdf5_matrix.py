"""`tf.keras.utils.HDF5Matrix` (TF 1.x): an HDF5 dataset (h5py) used in place of a numpy
array by fit/evaluate/predict, read slice by slice.

Files are opened read-only once per path and shared by every HDF5Matrix on them (the
class-level `refs`, as TF's). `start`/`end` select rows; `normalizer` is applied to every
slice read. Indexing takes ints, slices, index arrays and lists, relative to `start`; an
index past `end` is an IndexError. h5py reads index lists in increasing order only: fit
with `shuffle="batch"` (TF's advice for HDF5 input) or `shuffle=False`.
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Dict, Optional

import numpy as np

__all__ = ["HDF5Matrix"]


class HDF5Matrix:
    """Rows `start:end` of dataset `dataset` of the HDF5 file `datapath`."""

    refs: Dict[str, Any] = collections.defaultdict(int)

    def __init__(self, datapath: str, dataset: str, start: int = 0,
                 end: Optional[int] = None,
                 normalizer: Optional[Callable[[np.ndarray], np.ndarray]] = None):
        try:
            import h5py
        except ImportError as error:
            raise ImportError("The use of HDF5Matrix requires HDF5 and h5py installed.") \
                from error
        if datapath not in self.refs:
            self.refs[datapath] = h5py.File(datapath, "r")
        self.data = self.refs[datapath][dataset]
        self.start = start
        self.end = self.data.shape[0] if end is None else end
        self.normalizer = normalizer
        first = self._read(slice(0, 1))      # the shape and dtype after the normalizer
        self._base_shape = first.shape[1:]
        self._base_dtype = first.dtype

    def _read(self, index: Any) -> np.ndarray:
        rows = self.data[index]
        return rows if self.normalizer is None else self.normalizer(rows)

    def __len__(self) -> int:
        return self.end - self.start

    def __getitem__(self, key: Any) -> np.ndarray:
        if isinstance(key, slice):
            start = 0 if key.start is None else key.start
            stop = self.shape[0] if key.stop is None else key.stop
            if stop + self.start > self.end:
                raise IndexError
            index: Any = slice(start + self.start, stop + self.start)
        elif isinstance(key, (int, np.integer)):
            if key + self.start >= self.end:
                raise IndexError
            index = key + self.start
        elif isinstance(key, np.ndarray):
            if np.max(key) + self.start >= self.end:
                raise IndexError
            index = (self.start + key).tolist()
        else:
            if max(key) + self.start >= self.end:
                raise IndexError
            index = [x + self.start for x in key]
        return self._read(index)

    @property
    def shape(self) -> tuple:
        """(rows, ...) as numpy spells shapes."""
        return (self.end - self.start,) + tuple(self._base_shape)

    @property
    def dtype(self) -> Any:
        """The dtype of the rows read (after the normalizer)."""
        return self._base_dtype

    @property
    def ndim(self) -> int:
        """The rank of the dataset."""
        return self.data.ndim

    @property
    def size(self) -> int:
        """The number of elements of the selected rows."""
        return int(np.prod(self.shape))
