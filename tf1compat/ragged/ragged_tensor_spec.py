"""`tf.RaggedTensorSpec` (TF 2.21's type spec of a RaggedTensor): shape, dtype, ragged_rank
(default: rank - 1), row_splits_dtype and an optional flat_values spec; equal specs hash
alike, `is_compatible_with` takes specs and values, `most_specific_compatible_type` keeps
the dimensions two specs agree on. tf.data carries RaggedTensor elements as TF does
(data/ragged.py): one variant component per spec, batched and unbatched by `_batch` /
`_unbatch`, with TF's legacy output types, shapes and classes (the spec itself)."""

from __future__ import annotations

from typing import Any

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.ragged.ragged_tensor import RaggedTensor, is_ragged

__all__ = ["RaggedTensorSpec"]


def _shape_key(shape: TensorShape) -> Any:
    return None if shape.rank is None else tuple(shape.as_list())


class RaggedTensorSpec:
    """The type of a RaggedTensor: its shape (ragged dimensions None), dtype, ragged_rank
    and row_splits_dtype."""

    __slots__ = ("_shape", "_dtype", "_ragged_rank", "_row_splits_dtype", "_flat_values_spec")

    def __init__(self, shape: Any = None, dtype: Any = D.float32, ragged_rank: Any = None,
                 row_splits_dtype: Any = D.int64, flat_values_spec: Any = None):
        self._shape = as_shape(shape)
        self._row_splits_dtype = D.as_dtype(row_splits_dtype)
        if flat_values_spec is not None:
            if dtype is None:
                dtype = flat_values_spec.dtype
            elif dtype != flat_values_spec.dtype:
                raise ValueError("dtype must be the same as flat_values_spec.dtype")
        elif dtype is None:
            raise ValueError("At least one of dtype or flat_values_spec must be provided")
        self._dtype = D.as_dtype(dtype)
        self._flat_values_spec = flat_values_spec
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if not isinstance(ragged_rank, int):
            raise TypeError(f"Argument `ragged_rank` must be an int. Received {ragged_rank}.")
        if rank is not None and ragged_rank >= rank:
            raise ValueError(f"Argument `ragged_rank` ({ragged_rank}) must be less than rank "
                             f"({rank}).")
        self._ragged_rank = ragged_rank

    @classmethod
    def from_value(cls, value: Any) -> "RaggedTensorSpec":
        """The spec of a RaggedTensor or RaggedTensorValue."""
        return cls(shape=as_shape(value.shape), dtype=value.values.dtype,
                   ragged_rank=value.ragged_rank, row_splits_dtype=value.row_splits.dtype)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)
    flat_values_spec = property(lambda self: self._flat_values_spec)

    @property
    def value_type(self) -> type:
        return RaggedTensor if self._ragged_rank > 0 else Tensor

    def _key(self) -> tuple:
        return (_shape_key(self._shape), self._dtype, self._ragged_rank,
                self._row_splits_dtype, self._flat_values_spec)

    def is_compatible_with(self, spec_or_value: Any) -> bool:
        """Whether `spec_or_value` (a spec or a value; a dense one when ragged_rank is 0)
        could have this type."""
        other = spec_or_value
        if is_ragged(other):
            other = RaggedTensorSpec.from_value(other)
        if not isinstance(other, RaggedTensorSpec):
            if self._ragged_rank != 0 or type(other).__name__ not in ("Tensor", "TensorSpec"):
                return False
            return D.as_dtype(other.dtype).base_dtype == self._dtype and \
                self._shape.is_compatible_with(other.shape)
        return (self._dtype, self._ragged_rank, self._row_splits_dtype) == \
            (other._dtype, other._ragged_rank, other._row_splits_dtype) and \
            self._shape.is_compatible_with(other._shape)

    def most_specific_compatible_type(self, other: Any) -> "RaggedTensorSpec":
        """The spec both fit: the dimensions they agree on, the others unknown."""
        if not isinstance(other, RaggedTensorSpec) or \
                (self._dtype, self._ragged_rank, self._row_splits_dtype) != \
                (other._dtype, other._ragged_rank, other._row_splits_dtype):
            raise ValueError(f"No TypeSpec is compatible with both {self} and {other}")
        a, b = self._shape, other._shape
        if a.rank is None or b.rank is None or a.rank != b.rank:
            shape = TensorShape(None)
        else:
            shape = TensorShape([x if x == y else None for x, y in zip(a.as_list(),
                                                                        b.as_list())])
        # TF's common spec reads the ragged_rank from the shape (every dimension but the
        # first may be ragged in it).
        return RaggedTensorSpec(shape, self._dtype, None if shape.rank is not None else
                                self._ragged_rank, self._row_splits_dtype)

    # -- tf.data (TF's RaggedTensorSpec tensor-list encoding) ---------------------------------

    def _flat_types(self) -> list:
        return [D.variant]

    def _flat_shapes(self) -> list:
        # TF: a boxed RaggedTensor is a scalar variant, a batch of them has the batch's
        # shape, so the flat shape is unknown
        return [TensorShape(None)]

    def _batch(self, batch_size: Any) -> "RaggedTensorSpec":
        return RaggedTensorSpec(TensorShape([batch_size]).concatenate(self._shape),
                                self._dtype, self._ragged_rank + 1, self._row_splits_dtype)

    def _unbatch(self) -> "RaggedTensorSpec":
        # TF allows a negative ragged_rank here (the dataset may be batched again)
        return RaggedTensorSpec(self._shape[1:], self._dtype, self._ragged_rank - 1,
                                self._row_splits_dtype)

    def _to_legacy_output_types(self) -> D.DType:
        return self._dtype

    def _to_legacy_output_shapes(self) -> TensorShape:
        return self._shape

    def _to_legacy_output_classes(self) -> "RaggedTensorSpec":
        return self

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and self._key() == other._key()

    def __ne__(self, other: Any) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        extra = "" if self._flat_values_spec is None else f", {self._flat_values_spec!r}"
        return (f"RaggedTensorSpec({self._shape!r}, {self._dtype!r}, {self._ragged_rank}, "
                f"{self._row_splits_dtype!r}{extra})")

