"""TypeSpecs beyond tf.data's own (structure.py): `tf.IndexedSlicesSpec`,
`tf.TensorArraySpec`, `tf.NoneTensorSpec`, `tf.OptionalSpec`, and `tf.type_spec_from_value`.

They describe values (shape, dtypes, flags) with TF's constructors, reprs, equality and
`value_type`; tf1compat's tf.data accepts TensorSpec / SparseTensorSpec / RaggedTensorSpec
/ DatasetSpec components only, so these are for code that builds, compares or prints
specs.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

from tf1compat.data.structure import (DatasetSpec, SparseTensorSpec, TensorSpec, TypeSpec,
                                      type_spec_from_value as _structure_spec)
from tf1compat.framework import dtypes as D
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.tensor_shape import TensorShape, as_shape

__all__ = ["TypeSpec", "IndexedSlicesSpec", "TensorArraySpec", "NoneTensorSpec",
           "OptionalSpec", "type_spec_from_value"]


def _shape_repr(shape: TensorShape) -> str:
    if shape.rank is None:
        return "TensorShape(None)"
    dims = ", ".join(f"Dimension({d})" for d in shape.as_list())
    return f"TensorShape([{dims}])"


class _ValueSpec(TypeSpec):
    """A spec compared by its constructor arguments (`_args`)."""

    def _args(self) -> Tuple[Any, ...]:
        raise NotImplementedError

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and self._key() == other._key()

    def __ne__(self, other: Any) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple:
        return tuple((a.rank, tuple(a.as_list()) if a.rank is not None else None)
                     if isinstance(a, TensorShape) else a for a in self._args())

    def is_compatible_with(self, other: Any) -> bool:
        return self == other

    def __repr__(self) -> str:
        parts = [_shape_repr(a) if isinstance(a, TensorShape) else repr(a)
                 for a in self._args()]
        return f"{type(self).__name__}({', '.join(parts)})"


class IndexedSlicesSpec(_ValueSpec):
    """`tf.IndexedSlicesSpec`: the dense shape, values dtype, indices and shape dtypes."""

    value_type = IndexedSlices

    def __init__(self, shape: Any = None, dtype: Any = D.float32, indices_dtype: Any = D.int64,
                 dense_shape_dtype: Any = None, indices_shape: Any = None):
        self._shape = as_shape(shape)
        self._values_dtype = D.as_dtype(dtype)
        self._indices_dtype = D.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else \
            D.as_dtype(dense_shape_dtype)
        self._indices_shape = as_shape(indices_shape).with_rank(1)

    def _args(self) -> Tuple[Any, ...]:
        return (self._shape, self._values_dtype, self._indices_dtype,
                self._dense_shape_dtype, self._indices_shape)


class TensorArraySpec(_ValueSpec):
    """`tf.TensorArraySpec(element_shape, dtype, dynamic_size, infer_shape)`."""

    def __init__(self, element_shape: Any = None, dtype: Any = D.float32,
                 dynamic_size: Optional[bool] = False, infer_shape: bool = True):
        self._element_shape = as_shape(element_shape)
        self._dtype = D.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._infer_shape = bool(infer_shape)

    @property
    def value_type(self) -> type:
        from tf1compat.ops.tensor_array_ops import TensorArray
        return TensorArray

    @staticmethod
    def from_value(value: Any) -> "TensorArraySpec":
        return TensorArraySpec(value.element_shape, value.dtype, value.dynamic_size,
                               getattr(value, "_infer_shape", True))

    def _args(self) -> Tuple[Any, ...]:
        return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)


class NoneTensorSpec(_ValueSpec):
    """`tf.NoneTensorSpec()`: the spec of None in a structure."""

    @property
    def value_type(self) -> type:
        return type(None)

    def _args(self) -> Tuple[Any, ...]:
        return ()


class OptionalSpec(_ValueSpec):
    """`tf.OptionalSpec(element_spec)`: an optional value of `element_spec`."""

    def __init__(self, element_spec: Any):
        self._element_spec = element_spec

    @property
    def element_spec(self) -> Any:
        return self._element_spec

    def _args(self) -> Tuple[Any, ...]:
        return (self._element_spec,)

    def __repr__(self) -> str:
        return f"OptionalSpec({self._element_spec!r},)"


def type_spec_from_value(value: Any) -> TypeSpec:
    """`tf.type_spec_from_value`: the TypeSpec of a tensor, sparse or ragged tensor,
    IndexedSlices, dataset or None; other values are converted to a tensor first."""
    if value is None:
        return NoneTensorSpec()
    if isinstance(value, IndexedSlices):
        from tf1compat.framework.constant_value import constant_value
        dense = None if value.dense_shape is None else constant_value(value.dense_shape)
        shape = as_shape(None if dense is None else [int(d) for d in dense])
        return IndexedSlicesSpec(shape, value.dtype, value.indices.dtype,
                                 None if value.dense_shape is None else
                                 value.dense_shape.dtype, value.indices.shape)
    from tf1compat.ragged.ragged_tensor_spec import RaggedTensorSpec
    spec = _structure_spec(value)
    if not isinstance(spec, (TensorSpec, SparseTensorSpec, DatasetSpec, RaggedTensorSpec)):
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        return _structure_spec(convert_to_tensor(value))
    return spec
