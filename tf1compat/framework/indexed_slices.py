"""`tf.IndexedSlices`: a sparse slice-wise representation of a dense tensor.

Gradients of `tf.gather` / `tf.nn.embedding_lookup` with respect to their params are
returned as IndexedSlices, as in TF: `values[i]` is the gradient of row `indices[i]` of a
tensor whose shape is `dense_shape` (rows may repeat; they add up).
`tf.convert_to_tensor` densifies one with an `UnsortedSegmentSum`, and `Session.run`
fetches one as an `IndexedSlicesValue(values, indices, dense_shape)`.
"""

from __future__ import annotations

import collections
from typing import Any, Optional

from tf1compat.framework import dtypes as _dtypes
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["IndexedSlices", "IndexedSlicesValue", "convert_to_tensor_or_indexed_slices",
           "convert_n_to_tensor_or_indexed_slices"]

IndexedSlicesValue = collections.namedtuple(
    "IndexedSlicesValue", ["values", "indices", "dense_shape"])


class IndexedSlices:
    """A sparse representation of a set of tensor slices at given indices.

    `values` holds the slices, `indices` (1-D) the row each slice belongs to, and
    `dense_shape` (optional, 1-D) the shape of the dense tensor they describe.
    """

    def __init__(self, values: Any, indices: Any, dense_shape: Any = None):
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape

    @property
    def values(self) -> Tensor:
        """A `Tensor` containing the values of the slices."""
        return self._values

    @property
    def indices(self) -> Tensor:
        """A 1-D `Tensor` containing the indices of the slices."""
        return self._indices

    @property
    def dense_shape(self) -> Optional[Tensor]:
        """A 1-D `Tensor` containing the shape of the corresponding dense tensor."""
        return self._dense_shape

    @property
    def shape(self) -> TensorShape:
        """The static shape of the dense tensor (from `dense_shape`, where known)."""
        if self._dense_shape is None:
            return TensorShape(None)
        from tf1compat.framework.constant_value import constant_value_as_shape
        return constant_value_as_shape(self._dense_shape)

    @property
    def name(self) -> str:
        return self._values.name

    @property
    def device(self) -> str:
        return self._values.device

    @property
    def op(self) -> Any:
        return self._values.op

    @property
    def dtype(self) -> _dtypes.DType:
        return self._values.dtype

    @property
    def graph(self) -> Any:
        return self._values.graph

    def consumers(self) -> list:
        out = []
        for t in (self._values, self._indices, self._dense_shape):
            if isinstance(t, Tensor):
                out.extend(op for op in t.consumers() if op not in out)
        return out

    def __str__(self) -> str:
        shape = (f", dense_shape={self._dense_shape}" if self._dense_shape is not None
                 else "")
        return f"IndexedSlices(indices={self._indices}, values={self._values}{shape})"

    __repr__ = __str__

    def __neg__(self) -> "IndexedSlices":
        return IndexedSlices(-self._values, self._indices, self._dense_shape)


def convert_to_tensor_or_indexed_slices(value: Any, dtype: Any = None,
                                        name: Optional[str] = None) -> Any:
    """`value` unchanged when it is an IndexedSlices, else `convert_to_tensor(value)`."""
    if isinstance(value, IndexedSlices):
        if dtype is not None and not _dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
            raise ValueError(f"Incompatible tensor conversion requested to `dtype` "
                             f"{_dtypes.as_dtype(dtype).name} for IndexedSlices ({value}) "
                             f"with dtype {value.dtype.name}")
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def convert_n_to_tensor_or_indexed_slices(values: Any, dtype: Any = None,
                                          name: Optional[str] = None) -> list:
    """`convert_to_tensor_or_indexed_slices` on each element; None stays None."""
    out = []
    for i, value in enumerate(values):
        if value is None:
            out.append(None)
        else:
            out.append(convert_to_tensor_or_indexed_slices(
                value, dtype=dtype, name=None if name is None else f"{name}_{i}"))
    return out
