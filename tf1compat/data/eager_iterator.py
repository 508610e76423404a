"""Python iteration over a `tf.data.Dataset` under eager execution.

Under eager execution every dataset op has already run when the dataset object exists: its
variant output holds the run-time dataset (`_runtime.DatasetValue`). `iter(dataset)` and
`make_one_shot_iterator()` start a pass over it and hand each element back as eager
tensors packed in the dataset's structure (TF's `OwnedIterator`).
"""

from __future__ import annotations

from typing import Any, List

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.data import _runtime as rt
from tf1compat.data import structure
from tf1compat.data._shuffle import passes_owned_by
from tf1compat.data.structure import SparseTensorSpec

__all__ = ["EagerIterator", "NumpyIterator"]


class EagerIterator:
    """An iterator over an eager dataset: `next(it)`, `it.get_next()`, `for x in it`."""

    def __init__(self, dataset: Any):
        value = getattr(dataset._variant_tensor, "_value", None)
        if not isinstance(value, rt.DatasetValue):
            raise TypeError(f"{dataset!r} was not built under eager execution; iterate it "
                            "with an iterator's get_next() in a Session.")
        self._spec = dataset.element_spec
        self._components = structure.flatten(self._spec)
        self._types: List[D.DType] = structure.flat_tensor_types(self._spec)
        self._owner = dataset
        with passes_owned_by(dataset):
            self._iterator = value.iterator()

    @property
    def element_spec(self) -> Any:
        return self._spec

    @property
    def output_types(self) -> Any:
        return structure.legacy_types(self._spec)

    @property
    def output_shapes(self) -> Any:
        return structure.legacy_shapes(self._spec)

    @property
    def output_classes(self) -> Any:
        return structure.legacy_classes(self._spec)

    def __iter__(self) -> "EagerIterator":
        return self

    def _next_element(self) -> Any:
        try:
            with passes_owned_by(self._owner):
                element = self._iterator.get_next()
        except Exception as e:  # a failing map function, a corrupted record, ...
            raise rt.to_op_error(e) from e
        if element is None:
            return None
        flat = [_to_eager(v, spec, dtype)
                for v, spec, dtype in zip(element, self._components, self._types)]
        return structure.pack(self._spec, flat)

    def __next__(self) -> Any:
        element = self._next_element()
        if element is None:
            raise StopIteration
        return element

    next = __next__

    def get_next(self, name: Any = None) -> Any:
        """The next element; `tf.errors.OutOfRangeError` after the last, as in TF."""
        element = self._next_element()
        if element is None:
            raise errors.OutOfRangeError(None, None, "End of sequence")
        return element


def _ragged_to_eager(value: Any, spec: Any) -> Any:
    """A ragged component as an eager RaggedTensor (a dense tensor for ragged_rank 0)."""
    from tf1compat.ops.ragged_variant_ops import decode
    from tf1compat.ragged.ragged_tensor import RaggedTensor
    from tf1compat.runtime.eager_tensor import EagerTensor
    *splits, values = decode(value, spec.ragged_rank, spec.row_splits_dtype)
    result: Any = EagerTensor(_plain(values, spec.dtype), spec.dtype)
    for row_splits in reversed(splits):
        result = RaggedTensor(result, EagerTensor(_tensor(row_splits), spec.row_splits_dtype),
                              internal=True)
    return result


def _to_eager(value: Any, spec: Any, dtype: D.DType) -> Any:
    from tf1compat.runtime.eager_tensor import EagerTensor
    if isinstance(spec, SparseTensorSpec):
        from tf1compat.framework.sparse_tensor import SparseTensor
        if not isinstance(value, rt.SparseValue):
            raise TypeError(f"expected a sparse component, got {type(value).__name__}")
        return SparseTensor(EagerTensor(_tensor(value.indices), D.int64),
                            EagerTensor(_plain(value.values, spec.dtype), spec.dtype),
                            EagerTensor(_tensor(value.dense_shape), D.int64))
    if isinstance(value, rt.RaggedValue):
        return _ragged_to_eager(value, spec)
    if isinstance(value, rt.DatasetValue):
        raise NotImplementedError("Iterating datasets whose elements are datasets (window, "
                                  "group_by_window inputs) is not supported under eager "
                                  "execution by tf1compat.")
    return EagerTensor(_plain(value, dtype), dtype)


def _tensor(value: Any) -> torch.Tensor:
    return value if isinstance(value, torch.Tensor) else torch.as_tensor(np.asarray(value))


def _plain(value: Any, dtype: D.DType) -> Any:
    if dtype == D.string:
        return value                      # bytes, or a numpy object array of bytes
    return _tensor(value)


class NumpyIterator:
    """`tf.data.NumpyIterator` (`Dataset.as_numpy_iterator()`): the elements of an eager
    dataset as read-only numpy values (bytes for scalar strings) in its structure."""

    def __init__(self, dataset: Any):
        self._iterator = EagerIterator(dataset)

    def __iter__(self) -> "NumpyIterator":
        return self

    def __next__(self) -> Any:
        from tf1compat.util import nest
        return nest.map_structure(_read_only_numpy, next(self._iterator))

    next = __next__

    def __repr__(self) -> str:
        return f"NumpyIterator(iterator={self._iterator!r})"


def _read_only_numpy(value: Any) -> Any:
    numpy = value.numpy() if hasattr(value, "numpy") else value
    if isinstance(numpy, np.ndarray):
        numpy.setflags(write=False)
    return numpy
