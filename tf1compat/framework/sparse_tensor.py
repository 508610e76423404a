"""`tf.SparseTensor` and `tf.SparseTensorValue` (a minimal TF1 SparseTensor).

A SparseTensor is three graph tensors: int64 `indices` [N, rank], `values` [N] and int64
`dense_shape` [rank]. `Session.run` fetches one as a SparseTensorValue and accepts one
(or an (indices, values, dense_shape) tuple) as a feed value for a SparseTensor key, as
TF's session does (runtime/fetch.py); `tf.sparse_placeholder` (ops/array_ops.py) builds a
feedable one.
"""

from __future__ import annotations

import collections
from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value_as_shape
from tf1compat.framework.graph import name_scope
from tf1compat.framework.hooks import SPARSE_OPERATORS
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["SparseTensor", "SparseTensorValue", "is_sparse", "convert_to_tensor_or_sparse_tensor"]

SparseTensorValue = collections.namedtuple("SparseTensorValue",
                                           ["indices", "values", "dense_shape"])


class SparseTensor:
    """A sparse tensor: `values[i]` sits at `indices[i]` of a tensor of `dense_shape`."""

    @classmethod
    def from_value(cls, sparse_tensor_value: Any) -> "SparseTensor":
        if not is_sparse(sparse_tensor_value):
            raise TypeError(f"Argument sparse_tensor_value={sparse_tensor_value} is neither a "
                            "SparseTensor nor SparseTensorValue.")
        return SparseTensor(indices=sparse_tensor_value.indices,
                            values=sparse_tensor_value.values,
                            dense_shape=sparse_tensor_value.dense_shape)

    def __init__(self, indices: Any, values: Any, dense_shape: Any):
        with name_scope(None, "SparseTensor", [indices, values, dense_shape]):
            indices = convert_to_tensor(indices, name="indices", dtype=D.int64)
            values = convert_to_tensor(values, name="values")
            dense_shape = convert_to_tensor(dense_shape, name="dense_shape", dtype=D.int64)
            default_shape = constant_value_as_shape(dense_shape)
        self._indices = indices
        self._values = values
        self._dense_shape = dense_shape
        self._dense_shape_default = default_shape
        ishape = indices.shape.with_rank(2)
        vshape = values.shape.with_rank(1)
        dshape = dense_shape.shape.with_rank(1)
        ishape[0].assert_is_compatible_with(vshape[0])
        ishape[1].assert_is_compatible_with(dshape[0])

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def dense_shape(self) -> Tensor:
        return self._dense_shape

    @property
    def dtype(self) -> D.DType:
        return self._values.dtype

    @property
    def op(self) -> Any:
        return self._values.op

    @property
    def graph(self) -> Any:
        return self._indices.graph

    @property
    def shape(self) -> TensorShape:
        return self._dense_shape_default

    def get_shape(self) -> TensorShape:
        return self._dense_shape_default

    def with_values(self, new_values: Any) -> "SparseTensor":
        return SparseTensor(self._indices, new_values, self._dense_shape)

    def consumers(self) -> list:
        seen = []
        for t in (self._indices, self._values, self._dense_shape):
            for op in t.consumers():
                if op not in seen:
                    seen.append(op)
        return seen

    def eval(self, feed_dict: Any = None, session: Any = None) -> SparseTensorValue:
        """The value in `session` (or the default session) as a SparseTensorValue."""
        from tf1compat.framework.tensor import get_default_session
        session = session or get_default_session()
        if session is None:
            raise ValueError("Cannot evaluate tensor using `eval()`: No default session is "
                             "registered. Use `with sess.as_default()` or pass an explicit "
                             "session to `eval(session=sess)`")
        return session.run(self, feed_dict=feed_dict)

    def __mul__(self, other: Any) -> "SparseTensor":
        return SPARSE_OPERATORS["mul"](self, other)

    def __div__(self, other: Any) -> "SparseTensor":
        return SPARSE_OPERATORS["div"](self, other)

    def __truediv__(self, other: Any) -> "SparseTensor":
        return SPARSE_OPERATORS["truediv"](self, other)

    def __repr__(self) -> str:
        return (f"SparseTensor(indices={self._indices}, values={self._values}, "
                f"dense_shape={self._dense_shape})")

    def __str__(self) -> str:
        return self.__repr__()


def convert_to_tensor_or_sparse_tensor(value: Any, dtype: Any = None,
                                       name: Optional[str] = None) -> Any:
    """`tf.convert_to_tensor_or_sparse_tensor`: a SparseTensor (from a SparseTensorValue),
    or a Tensor."""
    if dtype is not None:
        dtype = D.as_dtype(dtype)
    if isinstance(value, SparseTensorValue):
        value = SparseTensor.from_value(value)
    if isinstance(value, SparseTensor):
        if dtype and not dtype.is_compatible_with(value.dtype):
            raise RuntimeError(f"Sparse dtype mismatch. Requested: {dtype.name}, "
                               f" Actual: {value.dtype.name}")
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def is_sparse(x: Any) -> bool:
    """Whether `x` is a SparseTensor or a SparseTensorValue."""
    return isinstance(x, (SparseTensor, SparseTensorValue))
