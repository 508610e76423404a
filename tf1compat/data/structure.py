"""Element structures of tf.data: `TensorSpec`, `SparseTensorSpec`, `DatasetSpec`, and
tf.data's own `nest` rules.

tf.data nests differently from `tf.nest`: tuples, namedtuples and dicts are structure,
but a *list* is a single component (it is converted to one tensor), so
`from_tensor_slices([1, 2, 3])` has one int32 component. An element's structure is a
nest of specs; each spec is one *component*:

* graph side: a TensorSpec is one tensor, a SparseTensorSpec one variant tensor (an
  iterator's output, deserialized by `DeserializeSparse`) or, inside dataset functions,
  three tensors (indices, values, dense_shape); a DatasetSpec is one variant tensor.
* run time (`_runtime.py`): an element is a tuple with one value per component, a torch
  tensor (numpy bytes objects for strings), a `SparseValue` or a dataset value.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

from tf1compat.framework import dtypes as D
from tf1compat.framework.sparse_tensor import SparseTensor, SparseTensorValue
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.ragged.ragged_tensor import is_ragged

__all__ = ["TensorSpec", "SparseTensorSpec", "DatasetSpec", "is_nested", "flatten", "pack",
           "map_structure", "assert_same_structure", "normalize_element",
           "type_spec_from_value", "convert_legacy_structure", "flat_tensor_types",
           "flat_tensor_shapes", "legacy_types", "legacy_shapes", "legacy_classes"]


# -- specs -----------------------------------------------------------------------------------

class TypeSpec:
    """Base of the component specs."""

    def _flat_types(self) -> List[D.DType]:
        raise NotImplementedError

    def _flat_shapes(self) -> List[TensorShape]:
        raise NotImplementedError

    def most_specific_compatible_type(self, other: "TypeSpec") -> "TypeSpec":
        raise NotImplementedError

    def is_compatible_with(self, other: Any) -> bool:
        raise NotImplementedError


class TensorSpec(TypeSpec):
    """`tf.TensorSpec(shape, dtype=tf.float32, name=None)`: a dense component."""

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape: Any, dtype: Any = D.float32, name: Optional[str] = None):
        self._shape = as_shape(shape)
        self._dtype = D.as_dtype(dtype)
        self._name = name

    @classmethod
    def from_tensor(cls, tensor: Any, name: Optional[str] = None) -> "TensorSpec":
        """The spec of a tensor, named after its op (graph tensors) unless `name` is given."""
        if name is None and isinstance(tensor, Tensor) and not tensor._is_eager_tensor:
            name = tensor.op.name
        return cls(tensor.shape, tensor.dtype.base_dtype, name)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> D.DType:
        return self._dtype

    @property
    def name(self) -> Optional[str]:
        return self._name

    @property
    def value_type(self) -> type:
        return Tensor

    def is_compatible_with(self, spec_or_tensor: Any) -> bool:
        other_dtype = getattr(spec_or_tensor, "dtype", None)
        other_shape = getattr(spec_or_tensor, "shape", None)
        if other_dtype is None or other_shape is None:
            return False
        return D.as_dtype(other_dtype).base_dtype == self._dtype and \
            self._shape.is_compatible_with(other_shape)

    def most_specific_compatible_type(self, other: "TypeSpec") -> "TensorSpec":
        return TensorSpec(_common_shape(self._shape, other.shape), self._dtype)

    def _flat_types(self) -> List[D.DType]:
        return [self._dtype]

    def _flat_shapes(self) -> List[TensorShape]:
        return [self._shape]

    def _to_legacy_output_types(self) -> D.DType:
        return self._dtype

    def _to_legacy_output_shapes(self) -> TensorShape:
        return self._shape

    def _to_legacy_output_classes(self) -> type:
        return Tensor

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and self._dtype == other._dtype and \
            _same_shape(self._shape, other._shape) and self._name == other._name

    def __ne__(self, other: Any) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self._dtype, self._shape.rank, self._name))

    def __repr__(self) -> str:
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={self._name!r})"


class SparseTensorSpec(TypeSpec):
    """`tf.SparseTensorSpec(shape=None, dtype=tf.float32)`: a SparseTensor component."""

    __slots__ = ("_shape", "_dtype")

    def __init__(self, shape: Any = None, dtype: Any = D.float32):
        self._shape = as_shape(shape)
        self._dtype = D.as_dtype(dtype)

    @classmethod
    def from_value(cls, value: Any) -> "SparseTensorSpec":
        if isinstance(value, SparseTensor):
            return cls(value.shape, value.dtype)
        import numpy as np
        return cls(TensorShape([int(d) for d in np.asarray(value.dense_shape)]),
                   D.as_dtype(np.asarray(value.values).dtype))

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> D.DType:
        return self._dtype

    @property
    def value_type(self) -> type:
        return SparseTensor

    def is_compatible_with(self, other: Any) -> bool:
        return isinstance(other, SparseTensorSpec) and other._dtype == self._dtype and \
            self._shape.is_compatible_with(other._shape)

    def most_specific_compatible_type(self, other: "TypeSpec") -> "SparseTensorSpec":
        return SparseTensorSpec(_common_shape(self._shape, other.shape), self._dtype)

    def _flat_types(self) -> List[D.DType]:
        return [D.variant]

    def _flat_shapes(self) -> List[TensorShape]:
        # TF's serialized sparse: a [3] variant vector (a batch of them: [batch, 3])
        return [TensorShape([3])]

    def _to_legacy_output_types(self) -> D.DType:
        return self._dtype

    def _to_legacy_output_shapes(self) -> TensorShape:
        return self._shape

    def _to_legacy_output_classes(self) -> type:
        return SparseTensor

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and self._dtype == other._dtype and \
            _same_shape(self._shape, other._shape)

    def __hash__(self) -> int:
        return hash((self._dtype, self._shape.rank))

    def __repr__(self) -> str:
        return f"SparseTensorSpec({self._shape!r}, {self._dtype!r})"


class DatasetSpec(TypeSpec):
    """`tf.data.DatasetSpec(element_spec, dataset_shape=())`: a nested dataset component."""

    def __init__(self, element_spec: Any, dataset_shape: Any = ()):
        self._element_spec = element_spec
        self._dataset_shape = as_shape(dataset_shape)

    @property
    def element_spec(self) -> Any:
        return self._element_spec

    @property
    def shape(self) -> TensorShape:
        return self._dataset_shape

    @property
    def dtype(self) -> D.DType:
        return D.variant

    @property
    def value_type(self) -> type:
        from tf1compat.data.dataset_ops import DatasetV2
        return DatasetV2

    def is_compatible_with(self, other: Any) -> bool:
        return isinstance(other, DatasetSpec) and self._element_spec == other._element_spec

    def most_specific_compatible_type(self, other: "TypeSpec") -> "DatasetSpec":
        if self != other:
            raise TypeError(f"Incompatible dataset specs {self!r} and {other!r}")
        return self

    def _flat_types(self) -> List[D.DType]:
        return [D.variant]

    def _flat_shapes(self) -> List[TensorShape]:
        return [self._dataset_shape]

    def _to_legacy_output_types(self) -> "DatasetSpec":
        return self

    def _to_legacy_output_shapes(self) -> "DatasetSpec":
        return self

    def _to_legacy_output_classes(self) -> "DatasetSpec":
        return self

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and self._element_spec == other._element_spec and \
            _same_shape(self._dataset_shape, other._dataset_shape)

    def __hash__(self) -> int:
        return hash(repr(self))

    def __repr__(self) -> str:
        return f"DatasetSpec({self._element_spec!r}, {self._dataset_shape!r})"


def _same_shape(a: TensorShape, b: TensorShape) -> bool:
    if a.rank is None or b.rank is None:
        return a.rank is None and b.rank is None
    return a.as_list() == b.as_list()


def _common_shape(a: TensorShape, b: TensorShape) -> TensorShape:
    """TF's most_specific_compatible_shape: dims that agree are kept, others unknown."""
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


# -- tf.data's nest: tuples, namedtuples and dicts are structure; lists are not ----------------

def is_nested(x: Any) -> bool:
    return isinstance(x, (tuple, dict)) and not isinstance(x, SparseTensorValue)


def _keys(d: dict) -> list:
    try:
        return sorted(d)
    except TypeError:
        return sorted(d, key=str)


def flatten(structure: Any) -> List[Any]:
    if not is_nested(structure):
        return [structure]
    out: List[Any] = []
    items = (structure[k] for k in _keys(structure)) if isinstance(structure, dict) \
        else structure
    for item in items:
        out.extend(flatten(item))
    return out


def _pack(structure: Any, flat: Sequence[Any], index: int) -> tuple:
    if not is_nested(structure):
        return flat[index], index + 1
    if isinstance(structure, dict):
        out = {}
        for k in _keys(structure):
            out[k], index = _pack(structure[k], flat, index)
        if type(structure) is not dict:
            out = type(structure)((k, out[k]) for k in structure)
        else:
            out = {k: out[k] for k in structure}
        return out, index
    values = []
    for item in structure:
        value, index = _pack(item, flat, index)
        values.append(value)
    if hasattr(structure, "_fields"):  # namedtuple
        return type(structure)(*values), index
    return type(structure)(values), index


def pack(structure: Any, flat: Sequence[Any]) -> Any:
    """`nest.pack_sequence_as` with tf.data's rules."""
    flat = list(flat)
    n = len(flatten(structure))
    if n != len(flat):
        raise ValueError(f"Could not pack sequence. Structure had {n} atoms, but flat_sequence "
                         f"had {len(flat)} items.")
    return _pack(structure, flat, 0)[0]


def map_structure(fn: Callable[..., Any], *structures: Any) -> Any:
    for s in structures[1:]:
        assert_same_structure(structures[0], s)
    flats = [flatten(s) for s in structures]
    return pack(structures[0], [fn(*xs) for xs in zip(*flats)])


def assert_same_structure(a: Any, b: Any) -> None:
    """Raises ValueError/TypeError when `a` and `b` are not nested alike (tf.data rules)."""
    if is_nested(a) != is_nested(b):
        raise ValueError("The two structures don't have the same nested structure.\n\n"
                         f"First structure: {a}\n\nSecond structure: {b}")
    if not is_nested(a):
        return
    if isinstance(a, dict) != isinstance(b, dict):
        raise TypeError("The two structures don't have the same sequence type. Input "
                        f"structure has type {type(a)}, while shallow structure has type "
                        f"{type(b)}.")
    if isinstance(a, dict):
        if set(a) != set(b):
            raise ValueError("The two dictionaries don't have the same set of keys. First "
                             f"structure has keys {_keys(a)}, while second structure has "
                             f"keys {_keys(b)}.")
        for k in a:
            assert_same_structure(a[k], b[k])
        return
    if len(a) != len(b):
        raise ValueError("The two structures don't have the same number of elements. First "
                         f"structure: {a}, second structure: {b}.")
    for x, y in zip(a, b):
        assert_same_structure(x, y)


# -- values -> specs ---------------------------------------------------------------------------

def _is_dataset(x: Any) -> bool:
    from tf1compat.data.dataset_ops import DatasetV2
    return isinstance(x, DatasetV2)


def type_spec_from_value(value: Any) -> Any:
    """The spec structure of a (nested) value of tensors, sparse tensors and datasets."""
    if isinstance(value, (SparseTensor, SparseTensorValue)):
        return SparseTensorSpec.from_value(value)
    if _is_dataset(value):
        return DatasetSpec(value.element_spec)
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype.base_dtype)
    if is_ragged(value):
        from tf1compat.ragged.ragged_tensor_spec import RaggedTensorSpec
        return RaggedTensorSpec.from_value(value)
    if is_nested(value):
        return pack(value, [type_spec_from_value(v) for v in flatten(value)])
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    return type_spec_from_value(convert_to_tensor(value))


def normalize_element(element: Any, signature: Any = None) -> Any:
    """Converts an element's components to tensors (TF's `structure.normalize_element`).

    Python values become Consts named `normalize_element/component_<i>`; SparseTensorValues
    become SparseTensors, RaggedTensorValues RaggedTensors; tensors, sparse and ragged
    tensors and datasets pass through.
    """
    from tf1compat.framework.graph import name_scope
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    from tf1compat.variables.variables import Variable
    components = flatten(element)
    specs = flatten(signature) if signature is not None else [None] * len(components)
    out = []
    with name_scope("normalize_element"):
        for i, (c, spec) in enumerate(zip(components, specs)):
            if isinstance(c, SparseTensor) or _is_dataset(c):
                out.append(c)
            elif isinstance(c, SparseTensorValue):
                out.append(SparseTensor.from_value(c))
            elif isinstance(c, Tensor):
                out.append(c)
            elif isinstance(c, Variable):
                out.append(convert_to_tensor(c, name=f"component_{i}"))
            elif is_ragged(c):
                out.append(_to_ragged_tensor(c, f"component_{i}"))
            else:
                dtype = getattr(spec, "dtype", None)
                out.append(convert_to_tensor(c, dtype=dtype, name=f"component_{i}"))
    return pack(element, out)


def _to_ragged_tensor(value: Any, name: str) -> Any:
    """TF's convert_to_tensor_or_ragged_tensor: a RaggedTensorValue's arrays as constants."""
    from tf1compat.ragged.ragged_tensor import RaggedTensor
    if isinstance(value, RaggedTensor):
        return value
    from tf1compat.framework.constant_op import constant
    from tf1compat.framework.graph import name_scope
    with name_scope(name):
        return RaggedTensor.from_nested_row_splits(
            constant(value.flat_values), [constant(s) for s in value.nested_row_splits],
            validate=False)


# -- legacy (TF1) structures -------------------------------------------------------------------

def legacy_types(spec: Any) -> Any:
    return map_structure(lambda s: s._to_legacy_output_types(), spec)


def legacy_shapes(spec: Any) -> Any:
    return map_structure(lambda s: s._to_legacy_output_shapes(), spec)


def legacy_classes(spec: Any) -> Any:
    return map_structure(lambda s: s._to_legacy_output_classes(), spec)


def convert_legacy_structure(output_types: Any, output_shapes: Any,
                             output_classes: Any) -> Any:
    """An element spec from TF1's (types, shapes, classes) structures."""
    flat_types = flatten(output_types)
    flat_shapes = flatten(output_shapes)
    flat_classes = flatten(output_classes)
    specs = []
    from tf1compat.ragged.ragged_tensor_spec import RaggedTensorSpec
    for dtype, shape, cls in zip(flat_types, flat_shapes, flat_classes):
        if isinstance(cls, (TypeSpec, RaggedTensorSpec)):
            specs.append(cls)
        elif cls is SparseTensor or (isinstance(cls, type) and issubclass(cls, SparseTensor)):
            specs.append(SparseTensorSpec(shape, dtype))
        elif cls is Tensor or (isinstance(cls, type) and issubclass(cls, Tensor)):
            specs.append(TensorSpec(shape, dtype))
        else:
            raise TypeError(f"Could not build a structure for output class {cls!r}.")
    return pack(output_classes, specs)


def flat_tensor_types(spec: Any) -> List[D.DType]:
    return [t for s in flatten(spec) for t in s._flat_types()]


def flat_tensor_shapes(spec: Any) -> List[TensorShape]:
    return [t for s in flatten(spec) for t in s._flat_shapes()]


def components(spec: Any) -> List[TypeSpec]:
    return flatten(spec)

