"""The feature column interface of TF1 (`_FeatureColumn`, `_DenseColumn`,
`_CategoricalColumn`) and what every column shares: the `_LazyBuilder` that transforms
each column once per graph, sparse conversion of dense inputs, argument checks.

Columns are immutable namedtuples (hashable, compared by value), as in TF; their
`_transform_feature(builder)` builds the column's ops from the raw features, and
`_get_dense_tensor` / `_get_sparse_tensors` what `input_layer` / `linear_model` consume.
"""

from __future__ import annotations

import collections
from typing import Any, Dict, List, Optional, Sequence

from tf1compat.util import tf_logging
from tf1compat.framework import dtypes
from tf1compat.framework.graph import name_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import Dimension, dimension_value

__all__ = ["FeatureColumn", "DenseColumn", "CategoricalColumn", "SequenceDenseColumn",
           "LazyBuilder", "IdWeightPair", "TensorSequenceLengthPair",
           "to_sparse_input_and_drop_ignore_values", "normalize_feature_columns",
           "check_shape", "check_default_value", "assert_key_is_string",
           "assert_string_or_int", "verify_static_batch_size_equality",
           "sequence_length_from_sparse_tensor"]

IdWeightPair = collections.namedtuple("IdWeightPair", ["id_tensor", "weight_tensor"])
TensorSequenceLengthPair = collections.namedtuple("TensorSequenceLengthPair",
                                                  ["dense_tensor", "sequence_length"])


class FeatureColumn:
    """A feature column (TF1's `_FeatureColumn`): `name`, `_transform_feature`,
    `_parse_example_spec`. Columns order by their string form."""

    @property
    def name(self) -> str:
        raise NotImplementedError(f"{type(self).__name__}.name")

    def __lt__(self, other: Any) -> bool:
        return str(self) < str(other)

    def __gt__(self, other: Any) -> bool:
        return str(self) > str(other)

    @property
    def _var_scope_name(self) -> str:
        return self.name

    def _transform_feature(self, inputs: "LazyBuilder") -> Any:
        raise NotImplementedError(f"{type(self).__name__}._transform_feature")

    @property
    def _parse_example_spec(self) -> Dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__}._parse_example_spec")

    @property
    def parse_example_spec(self) -> Dict[str, Any]:
        return self._parse_example_spec

    def _reset_config(self) -> None:
        pass


class DenseColumn(FeatureColumn):
    """A column with a dense representation (`_get_dense_tensor`, `_variable_shape`)."""

    @property
    def _variable_shape(self) -> Any:
        raise NotImplementedError(f"{type(self).__name__}._variable_shape")

    @property
    def variable_shape(self) -> Any:
        return self._variable_shape

    def _get_dense_tensor(self, inputs: "LazyBuilder", weight_collections: Any = None,
                          trainable: Any = None) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__}._get_dense_tensor")


class CategoricalColumn(FeatureColumn):
    """A column of ids (`_get_sparse_tensors` -> IdWeightPair, `_num_buckets`)."""

    IdWeightPair = IdWeightPair

    @property
    def _num_buckets(self) -> int:
        raise NotImplementedError(f"{type(self).__name__}._num_buckets")

    @property
    def num_buckets(self) -> int:
        return self._num_buckets

    def _get_sparse_tensors(self, inputs: "LazyBuilder", weight_collections: Any = None,
                            trainable: Any = None) -> IdWeightPair:
        return IdWeightPair(inputs.get(self), None)


class SequenceDenseColumn(FeatureColumn):
    """A column with a dense sequence representation (`_get_sequence_dense_tensor`)."""

    TensorSequenceLengthPair = TensorSequenceLengthPair


class LazyBuilder:
    """Transforms the columns asked for, once each, caching the results (TF's
    `_LazyBuilder`). Raw rank-1 features become [batch, 1]."""

    def __init__(self, features: Dict[str, Any]):
        self._features = dict(features)
        self._feature_tensors: Dict[Any, Any] = {}

    def get(self, key: Any) -> Any:
        if key in self._feature_tensors:
            return self._feature_tensors[key]
        if key in self._features:
            tensor = self._raw_feature_as_tensor(key)
            self._feature_tensors[key] = tensor
            return tensor
        if isinstance(key, str):
            raise ValueError(f"Feature {key} is not in features dictionary.")
        if not isinstance(key, FeatureColumn):
            raise TypeError('"key" must be either a "str" or "_FeatureColumn". Provided: '
                            f"{key}")
        tf_logging.debug("Transforming feature_column %s.", key)
        transformed = key._transform_feature(self)
        if transformed is None:
            raise ValueError(f"Column {key.name} is not supported.")
        self._feature_tensors[key] = transformed
        return transformed

    def _raw_feature_as_tensor(self, key: str) -> Any:
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        from tf1compat.ops.array_ops import expand_dims, shape
        from tf1compat.ops.sparse_math import sparse_reshape
        raw = self._features[key]
        tensor = raw if isinstance(raw, SparseTensor) else convert_to_tensor(raw)
        rank = tensor.get_shape().ndims
        if rank is None:
            raise NotImplementedError(
                f"Feature (key: {key}) has unknown rank: feature columns of tensors of "
                "unknown rank (TF decides in the graph with tf.cond) are not supported by "
                "tf1compat; give the feature a static rank.")
        if rank == 0:
            raise ValueError(f"Feature (key: {key}) cannot have rank 0. Given: {tensor}")
        if rank != 1:
            return tensor
        if isinstance(tensor, SparseTensor):
            return sparse_reshape(tensor, [shape(tensor)[0], 1])
        return expand_dims(tensor, -1)


def to_sparse_input_and_drop_ignore_values(input_tensor: Any,
                                           ignore_value: Any = None) -> SparseTensor:
    """A SparseTensor of a dense input without its `ignore_value` entries ('' for
    strings, -1 for integers, 0 for floats by default)."""
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    from tf1compat.ops.array_ops import shape
    from tf1compat.ops.indexing_ops import gather_nd, where
    from tf1compat.ops.math_ops import cast, not_equal
    if isinstance(input_tensor, SparseTensor):
        return input_tensor
    input_tensor = convert_to_tensor(input_tensor)
    with name_scope(None, "to_sparse_input", (input_tensor, ignore_value)):
        if ignore_value is None:
            if input_tensor.dtype == dtypes.string:
                ignore_value = ""
            elif input_tensor.dtype.is_integer:
                ignore_value = -1
            else:
                ignore_value = input_tensor.dtype.as_numpy_dtype()
        ignore_value = cast(ignore_value, input_tensor.dtype, name="ignore_value")
        indices = where(not_equal(input_tensor, ignore_value), name="indices")
        return SparseTensor(indices=indices,
                            values=gather_nd(input_tensor, indices, name="values"),
                            dense_shape=shape(input_tensor, out_type=dtypes.int64,
                                              name="dense_shape"))


def normalize_feature_columns(feature_columns: Any) -> List[FeatureColumn]:
    """The columns as a non-empty list of FeatureColumns with unique names."""
    if isinstance(feature_columns, FeatureColumn):
        feature_columns = [feature_columns]
    if isinstance(feature_columns, collections.abc.Iterator):
        feature_columns = list(feature_columns)
    if isinstance(feature_columns, dict):
        raise ValueError("Expected feature_columns to be iterable, found dict.")
    for column in feature_columns:
        if not isinstance(column, FeatureColumn):
            raise ValueError("Items of feature_columns must be a _FeatureColumn. Given (type "
                             f"{type(column)}): {column}.")
    if not feature_columns:
        raise ValueError("feature_columns must not be empty.")
    by_name: Dict[str, FeatureColumn] = {}
    for column in feature_columns:
        if column.name in by_name:
            raise ValueError(
                f"Duplicate feature column name found for columns: {column} and "
                f"{by_name[column.name]}. This usually means that these columns refer to "
                "same base feature. Either one must be discarded or a duplicated but "
                "renamed item must be inserted in features dict.")
        by_name[column.name] = column
    return list(feature_columns)


def check_shape(shape: Any, key: str) -> tuple:
    """A column shape as a tuple of positive ints."""
    assert shape is not None
    if not isinstance(shape, (list, tuple)):
        shape = [shape]
    shape = tuple(shape)
    for dim in shape:
        if not isinstance(dim, int):
            raise TypeError(f"shape dimensions must be integer. shape: {shape}, key: {key}")
        if dim < 1:
            raise ValueError(f"shape dimensions must be greater than 0. shape: {shape}, "
                             f"key: {key}")
    return shape


def _nested(x: Any) -> bool:
    return isinstance(x, (list, tuple))


def _flatten(x: Any) -> List[Any]:
    return [y for v in x for y in _flatten(v)] if _nested(x) else [x]


def _tuple_of(shape: Sequence[int], value: Any) -> Any:
    return tuple(_tuple_of(shape[1:], value) for _ in range(shape[0])) if shape else value


def _as_tuple(value: Any) -> Any:
    return tuple(_as_tuple(v) for v in value) if _nested(value) else value


def _compatible(value: Any, shape: Sequence[int]) -> bool:
    if _nested(value) != bool(shape):
        return False
    if not shape:
        return True
    return len(value) == shape[0] and all(_compatible(v, shape[1:]) for v in value)


def check_default_value(shape: Sequence[int], default_value: Any, dtype: Any,
                        key: str) -> Any:
    """A numeric column's default as a nested tuple of `shape` (TF's check)."""
    if default_value is None:
        return None
    if isinstance(default_value, int):
        return _tuple_of(shape, default_value)
    if isinstance(default_value, float) and dtype.is_floating:
        return _tuple_of(shape, default_value)
    if callable(getattr(default_value, "tolist", None)):
        default_value = default_value.tolist()
    if _nested(default_value):
        if not _compatible(default_value, shape):
            raise ValueError("The shape of default_value must be equal to given shape. "
                             f"default_value: {default_value}, shape: {shape}, key: {key}")
        flat = _flatten(default_value)
        if all(isinstance(v, int) for v in flat):
            return _as_tuple(default_value)
        if any(isinstance(v, float) for v in flat) and dtype.is_floating:
            return _as_tuple(default_value)
    raise TypeError("default_value must be compatible with dtype. default_value: "
                    f"{default_value}, dtype: {dtype}, key: {key}")


def assert_key_is_string(key: Any) -> None:
    if not isinstance(key, str):
        raise ValueError(f"key must be a string. Got: type {type(key)}. Given key: {key}.")


def assert_string_or_int(dtype: Any, prefix: str) -> None:
    if dtype != dtypes.string and not dtype.is_integer:
        raise ValueError(f"{prefix} dtype must be string or integer. dtype: {dtype}.")


def verify_static_batch_size_equality(tensors: Sequence[Tensor],
                                      columns: Sequence[FeatureColumn]) -> None:
    """Raises ValueError when two outputs have different static batch sizes."""
    expected: Optional[Dimension] = None
    first = 0
    for i, tensor in enumerate(tensors):
        batch = Dimension(dimension_value(tensor.shape[0]))
        if batch.value is None:
            continue
        if expected is None:
            first, expected = i, batch
        elif not expected.is_compatible_with(batch):
            raise ValueError("Batch size (first dimension) of each feature must be same. "
                             f"Batch size of columns ({columns[first].name}, "
                             f"{columns[i].name}): ({expected}, {batch})")


def sequence_length_from_sparse_tensor(sp_tensor: SparseTensor,
                                       num_elements: int = 1) -> Tensor:
    """Each row's sequence length (last used column + 1, divided by `num_elements`)."""
    from tf1compat.ops.array_ops import concat, shape
    from tf1compat.ops.creation_ops import ones_like, zeros
    from tf1compat.ops.math_ops import cast, ceil
    from tf1compat.ops.reduction_ops import segment_max
    with name_scope(None, "sequence_length") as scope:
        row_ids = sp_tensor.indices[:, 0]
        column_ids = sp_tensor.indices[:, 1]
        column_ids += ones_like(column_ids)
        seq_length = segment_max(column_ids, segment_ids=row_ids)
        seq_length = cast(ceil(seq_length / num_elements), dtypes.int64)
        n_pad = shape(sp_tensor)[:1] - shape(seq_length)[:1]
        padding = zeros(n_pad, dtype=seq_length.dtype)
        return concat([seq_length, padding], axis=0, name=scope)

