"""The non-embedding feature columns of `tf.feature_column` and their constructors:
numeric, bucketized, categorical (hash bucket, vocabulary list/file, identity), weighted,
crossed and indicator columns, with TF's names, checks and transformations (hash buckets
by Fingerprint64, crosses by FingerprintCat64: bit-exact with TF)."""

from __future__ import annotations

import collections
import os
from typing import Any, Callable, List, Optional, Sequence

import numpy as np

from tf1compat.util import tf_logging
from tf1compat.feature_column.base import (CategoricalColumn, DenseColumn, FeatureColumn,
                                           IdWeightPair, LazyBuilder, SequenceDenseColumn,
                                           TensorSequenceLengthPair, assert_key_is_string,
                                           assert_string_or_int, check_default_value,
                                           check_shape, sequence_length_from_sparse_tensor,
                                           to_sparse_input_and_drop_ignore_values)
from tf1compat.framework import dtypes
from tf1compat.variables.variables import init_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["NumericColumn", "BucketizedColumn", "HashedCategoricalColumn",
           "VocabularyListCategoricalColumn", "VocabularyFileCategoricalColumn",
           "IdentityCategoricalColumn", "WeightedCategoricalColumn", "CrossedColumn",
           "IndicatorColumn", "numeric_column", "bucketized_column",
           "categorical_column_with_hash_bucket", "categorical_column_with_vocabulary_list",
           "categorical_column_with_vocabulary_file", "categorical_column_with_identity",
           "weighted_categorical_column", "crossed_column", "indicator_column"]


def _parsing():
    from tf1compat.ops import parsing_ops
    return parsing_ops


# -- numeric and bucketized ---------------------------------------------------------------------

class NumericColumn(DenseColumn, collections.namedtuple(
        "NumericColumn", ("key", "shape", "default_value", "dtype", "normalizer_fn"))):
    """Dense float features of a fixed shape (cast to float32, optionally normalized)."""

    @property
    def name(self) -> str:
        return self.key

    @property
    def _parse_example_spec(self) -> dict:
        return {self.key: _parsing().FixedLenFeature(self.shape, self.dtype,
                                                     self.default_value)}

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        from tf1compat.ops.math_ops import cast
        tensor = inputs.get(self.key)
        if isinstance(tensor, SparseTensor):
            raise ValueError("The corresponding Tensor of numerical column must be a Tensor. "
                             f"SparseTensor is not supported. key: {self.key}")
        if self.normalizer_fn is not None:
            tensor = self.normalizer_fn(tensor)
        return cast(tensor, dtypes.float32)

    @property
    def _variable_shape(self) -> TensorShape:
        return TensorShape(self.shape)

    def _get_dense_tensor(self, inputs: LazyBuilder, weight_collections: Any = None,
                          trainable: Any = None) -> Any:
        return inputs.get(self)


class BucketizedColumn(DenseColumn, CategoricalColumn, collections.namedtuple(
        "BucketizedColumn", ("source_column", "boundaries"))):
    """A numeric column's values as bucket ids (one-hot when used densely)."""

    @property
    def name(self) -> str:
        return f"{self.source_column.name}_bucketized"

    @property
    def _parse_example_spec(self) -> dict:
        return self.source_column._parse_example_spec

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        from tf1compat.ops.math_extra import bucketize
        return bucketize(inputs.get(self.source_column), boundaries=self.boundaries)

    @property
    def _variable_shape(self) -> TensorShape:
        return TensorShape(tuple(self.source_column.shape) + (len(self.boundaries) + 1,))

    def _get_dense_tensor(self, inputs: LazyBuilder, weight_collections: Any = None,
                          trainable: Any = None) -> Any:
        from tf1compat.ops.creation_ops import one_hot
        from tf1compat.ops.math_ops import cast
        return one_hot(indices=cast(inputs.get(self), dtypes.int64),
                       depth=len(self.boundaries) + 1, on_value=1., off_value=0.)

    @property
    def _num_buckets(self) -> int:
        return (len(self.boundaries) + 1) * self.source_column.shape[0]

    def _get_sparse_tensors(self, inputs: LazyBuilder, weight_collections: Any = None,
                            trainable: Any = None) -> IdWeightPair:
        from tf1compat.ops.array_ops import expand_dims, reshape, shape, stack
        from tf1compat.ops.creation_ops import range as range_
        from tf1compat.ops.math_ops import cast
        from tf1compat.ops.transform_ops import tile, transpose
        tensor = inputs.get(self)
        batch_size = shape(tensor)[0]
        source_dim = self.source_column.shape[0]
        i1 = reshape(tile(expand_dims(range_(0, batch_size), 1), [1, source_dim]), (-1,))
        i2 = tile(range_(0, source_dim), [batch_size])
        bucket_indices = reshape(tensor, (-1,)) + (len(self.boundaries) + 1) * i2
        indices = cast(transpose(stack((i1, i2))), dtypes.int64)
        dense_shape = cast(stack([batch_size, source_dim]), dtypes.int64)
        return IdWeightPair(SparseTensor(indices=indices, values=bucket_indices,
                                         dense_shape=dense_shape), None)


# -- categorical ----------------------------------------------------------------------------------

def _check_input_dtype(column_dtype: Any, key: str, tensor: Any) -> None:
    if column_dtype.is_integer != tensor.dtype.is_integer:
        raise ValueError("Column dtype and SparseTensors dtype must be compatible. key: "
                         f"{key}, column dtype: {column_dtype}, tensor dtype: {tensor.dtype}")
    assert_string_or_int(tensor.dtype, prefix=f"column_name: {key} input_tensor")


class _KeyedCategoricalColumn(CategoricalColumn):
    """A categorical column of the one sparse (VarLen) feature `key`, of `dtype`."""

    @property
    def name(self) -> str:
        return self.key

    @property
    def _parse_example_spec(self) -> dict:
        return {self.key: _parsing().VarLenFeature(self.dtype)}

    def _lookup_input(self, inputs: LazyBuilder) -> tuple:
        """The feature as a SparseTensor checked against `dtype`, and the lookup table's
        key dtype (integer ids are looked up as int64)."""
        from tf1compat.ops.math_ops import cast
        tensor = to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
        _check_input_dtype(self.dtype, self.key, tensor)
        if not tensor.dtype.is_integer:
            return tensor, self.dtype
        tensor = SparseTensor(tensor.indices, cast(tensor.values, dtypes.int64),
                              tensor.dense_shape)
        return tensor, dtypes.int64


class HashedCategoricalColumn(_KeyedCategoricalColumn, collections.namedtuple(
        "HashedCategoricalColumn", ("key", "hash_bucket_size", "dtype"))):
    """Ids from hashing the values (Fingerprint64 of the string form) into buckets."""

    def _transform_feature(self, inputs: LazyBuilder) -> SparseTensor:
        from tf1compat.ops.string_ops import as_string, string_to_hash_bucket_fast
        tensor = to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
        if not isinstance(tensor, SparseTensor):
            raise ValueError("SparseColumn input must be a SparseTensor.")
        assert_string_or_int(tensor.dtype, prefix=f"column_name: {self.key} input_tensor")
        if self.dtype.is_integer != tensor.dtype.is_integer:
            raise ValueError("Column dtype and SparseTensors dtype must be compatible. key: "
                             f"{self.key}, column dtype: {self.dtype}, tensor dtype: "
                             f"{tensor.dtype}")
        values = tensor.values if self.dtype == dtypes.string else as_string(tensor.values)
        ids = string_to_hash_bucket_fast(values, self.hash_bucket_size, name="lookup")
        return SparseTensor(tensor.indices, ids, tensor.dense_shape)

    @property
    def _num_buckets(self) -> int:
        return self.hash_bucket_size


class VocabularyListCategoricalColumn(_KeyedCategoricalColumn, collections.namedtuple(
        "VocabularyListCategoricalColumn",
        ("key", "vocabulary_list", "dtype", "default_value", "num_oov_buckets"))):
    """Ids as positions in an in-memory vocabulary (OOV: default or hash buckets)."""

    def _transform_feature(self, inputs: LazyBuilder) -> SparseTensor:
        from tf1compat.ops.lookup_ops import index_table_from_tensor
        tensor, key_dtype = self._lookup_input(inputs)
        with init_scope():
            table = index_table_from_tensor(
                vocabulary_list=tuple(self.vocabulary_list), default_value=self.default_value,
                num_oov_buckets=self.num_oov_buckets, dtype=key_dtype,
                name=f"{self.key}_lookup")
        return table.lookup(tensor)

    @property
    def _num_buckets(self) -> int:
        return len(self.vocabulary_list) + self.num_oov_buckets


class VocabularyFileCategoricalColumn(_KeyedCategoricalColumn, collections.namedtuple(
        "VocabularyFileCategoricalColumn",
        ("key", "vocabulary_file", "vocabulary_size", "num_oov_buckets", "dtype",
         "default_value", "file_format"))):
    """Ids as line numbers in a vocabulary file (OOV: default or hash buckets)."""

    def _transform_feature(self, inputs: LazyBuilder) -> SparseTensor:
        from tf1compat.ops.lookup_ops import index_table_from_file
        tensor, key_dtype = self._lookup_input(inputs)
        if self.file_format == "tfrecord_gzip":
            raise NotImplementedError("categorical_column_with_vocabulary_file(file_format="
                                      "'tfrecord_gzip') is not supported by tf1compat.")
        with init_scope():
            table = index_table_from_file(
                vocabulary_file=self.vocabulary_file, num_oov_buckets=self.num_oov_buckets,
                vocab_size=self.vocabulary_size, default_value=self.default_value,
                key_dtype=key_dtype, name=f"{self.key}_lookup")
        return table.lookup(tensor)

    @property
    def _num_buckets(self) -> int:
        return self.vocabulary_size + self.num_oov_buckets


class IdentityCategoricalColumn(_KeyedCategoricalColumn, collections.namedtuple(
        "IdentityCategoricalColumn", ("key", "number_buckets", "default_value"))):
    """Integer features used as ids directly (out-of-range ids: `default_value`)."""

    @property
    def _parse_example_spec(self) -> dict:
        return {self.key: _parsing().VarLenFeature(dtypes.int64)}

    def _transform_feature(self, inputs: LazyBuilder) -> SparseTensor:
        from tf1compat.ops.array_ops import shape
        from tf1compat.ops.creation_ops import fill
        from tf1compat.ops.indexing_ops import where_v2
        from tf1compat.ops.math_ops import cast, logical_or
        tensor = to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
        if not tensor.dtype.is_integer:
            raise ValueError(f"Invalid input, not integer. key: {self.key} dtype: "
                             f"{tensor.dtype}")
        values = tensor.values
        if values.dtype != dtypes.int64:
            values = cast(values, dtypes.int64, name="values")
        if self.default_value is not None:
            values = cast(tensor.values, dtypes.int64, name="values")
            num_buckets = cast(self.num_buckets, dtypes.int64, name="num_buckets")
            zero = cast(0, dtypes.int64, name="zero")
            values = where_v2(
                logical_or(values < zero, values >= num_buckets, name="out_of_range"),
                fill(dims=shape(values), value=cast(self.default_value, dtypes.int64),
                     name="default_values"), values)
        return SparseTensor(tensor.indices, values, tensor.dense_shape)

    @property
    def _num_buckets(self) -> int:
        return self.number_buckets


class WeightedCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "WeightedCategoricalColumn", ("categorical_column", "weight_feature_key", "dtype"))):
    """A categorical column whose ids carry weights from another feature."""

    @property
    def name(self) -> str:
        return f"{self.categorical_column.name}_weighted_by_{self.weight_feature_key}"

    @property
    def _parse_example_spec(self) -> dict:
        config = self.categorical_column._parse_example_spec
        if self.weight_feature_key in config:
            raise ValueError(f"Parse config {config[self.weight_feature_key]} already exists "
                             f"for {self.weight_feature_key}.")
        config[self.weight_feature_key] = _parsing().VarLenFeature(self.dtype)
        return config

    @property
    def _num_buckets(self) -> int:
        return self.categorical_column._num_buckets

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        from tf1compat.ops.math_ops import cast
        weights = inputs.get(self.weight_feature_key)
        if weights is None:
            raise ValueError(f"Missing weights {self.weight_feature_key}.")
        if not isinstance(weights, SparseTensor):
            weights = convert_to_tensor(weights)
        if self.dtype != weights.dtype.base_dtype:
            raise ValueError(f"Bad dtype, expected {self.dtype}, but got {weights.dtype}.")
        if not isinstance(weights, SparseTensor):
            weights = to_sparse_input_and_drop_ignore_values(weights, ignore_value=0.0)
        if not weights.dtype.is_floating:
            weights = SparseTensor(weights.indices, cast(weights.values, dtypes.float32),
                                   weights.dense_shape)
        return inputs.get(self.categorical_column), weights

    def _get_sparse_tensors(self, inputs: LazyBuilder, weight_collections: Any = None,
                            trainable: Any = None) -> IdWeightPair:
        ids, weights = inputs.get(self)
        return IdWeightPair(ids, weights)


def _leaf_keys(cross: "CrossedColumn") -> List[Any]:
    keys: List[Any] = []
    for k in cross.keys:
        keys.extend(_leaf_keys(k) if isinstance(k, CrossedColumn) else [k])
    return keys


class CrossedColumn(CategoricalColumn, collections.namedtuple(
        "CrossedColumn", ("keys", "hash_bucket_size", "hash_key"))):
    """Hashed crosses of string features and categorical columns."""

    @property
    def name(self) -> str:
        names = [k.name if isinstance(k, FeatureColumn) else k for k in _leaf_keys(self)]
        return "_X_".join(sorted(names))

    @property
    def _parse_example_spec(self) -> dict:
        config: dict = {}
        for key in self.keys:
            if isinstance(key, FeatureColumn):
                config.update(key._parse_example_spec)
            else:
                config[key] = _parsing().VarLenFeature(dtypes.string)
        return config

    def _transform_feature(self, inputs: LazyBuilder) -> SparseTensor:
        from tf1compat.ops.sparse_tail import sparse_cross_hashed
        tensors = []
        for key in _leaf_keys(self):
            if isinstance(key, str):
                tensors.append(inputs.get(key))
            elif isinstance(key, CategoricalColumn):
                pair = key._get_sparse_tensors(inputs)
                if pair.weight_tensor is not None:
                    raise ValueError("crossed_column does not support weight_tensor, but the "
                                     "given column populates weight_tensor. Given column: "
                                     f"{key.name}")
                tensors.append(pair.id_tensor)
            else:
                raise ValueError(f"Unsupported column type. Given: {key}")
        return sparse_cross_hashed(inputs=tensors, num_buckets=self.hash_bucket_size,
                                   hash_key=self.hash_key)

    @property
    def _num_buckets(self) -> int:
        return self.hash_bucket_size


class IndicatorColumn(DenseColumn, SequenceDenseColumn, collections.namedtuple(
        "IndicatorColumn", ("categorical_column",))):
    """A categorical column as a multi-hot (count, or summed weight) vector."""

    @property
    def name(self) -> str:
        return f"{self.categorical_column.name}_indicator"

    @property
    def _parse_example_spec(self) -> dict:
        return self.categorical_column._parse_example_spec

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        from tf1compat.ops.creation_ops import one_hot
        from tf1compat.ops.indexing_ops import scatter_nd
        from tf1compat.ops.reduction_ops import reduce_sum
        from tf1compat.ops.sparse_extra import sparse_slice
        from tf1compat.ops.sparse_ops import sparse_tensor_to_dense
        pair = self.categorical_column._get_sparse_tensors(inputs)
        size = self._variable_shape[-1]
        if pair.weight_tensor is not None:
            merged = _sparse_merge(pair.id_tensor, pair.weight_tensor, int(size))
            merged = sparse_slice(merged, [0, 0], merged.dense_shape)
            return scatter_nd(merged.indices, merged.values, merged.dense_shape)
        dense_ids = sparse_tensor_to_dense(pair.id_tensor, default_value=-1)
        return reduce_sum(one_hot(dense_ids, depth=size, on_value=1.0, off_value=0.0),
                          axis=[-2])

    @property
    def _variable_shape(self) -> TensorShape:
        return TensorShape([1, self.categorical_column._num_buckets])

    def _get_dense_tensor(self, inputs: LazyBuilder, weight_collections: Any = None,
                          trainable: Any = None) -> Any:
        from tf1compat.feature_column.sequence import is_sequence_categorical
        if is_sequence_categorical(self.categorical_column):
            raise ValueError(
                f"In indicator_column: {self.name}. categorical_column must not be of type "
                "_SequenceCategoricalColumn. Suggested fix A: If you wish to use DenseFeatures, "
                "use a non-sequence categorical_column_with_*. Suggested fix B: If you wish to "
                "create sequence input, use SequenceFeatures instead of DenseFeatures. Given "
                f"(type {type(self.categorical_column)}): {self.categorical_column}")
        return inputs.get(self)

    def _get_sequence_dense_tensor(self, inputs: LazyBuilder, weight_collections: Any = None,
                                   trainable: Any = None) -> TensorSequenceLengthPair:
        from tf1compat.feature_column.sequence import is_sequence_categorical
        if not is_sequence_categorical(self.categorical_column):
            raise ValueError(
                f"In indicator_column: {self.name}. categorical_column must be of type "
                "_SequenceCategoricalColumn to use SequenceFeatures. Suggested fix: Use one "
                "of sequence_categorical_column_with_*. Given (type "
                f"{type(self.categorical_column)}): {self.categorical_column}")
        dense = inputs.get(self)
        pair = self.categorical_column._get_sparse_tensors(inputs)
        return TensorSequenceLengthPair(
            dense_tensor=dense,
            sequence_length=sequence_length_from_sparse_tensor(pair.id_tensor))


def _sparse_merge(sp_ids: SparseTensor, sp_values: SparseTensor,
                  vocab_size: int) -> SparseTensor:
    """TF's sparse_merge for one id tensor: [batch, vocab_size] with the weights at
    (row, id)."""
    from tf1compat.ops.array_ops import concat, expand_dims, stack
    from tf1compat.ops.math_ops import cast
    from tf1compat.ops.sparse_math import sparse_reorder
    rows = sp_ids.indices[:, :-1]
    ids = expand_dims(cast(sp_ids.values, dtypes.int64), 1)
    indices = concat([rows, ids], 1)
    shape = concat([sp_ids.dense_shape[:-1],
                    stack([cast(vocab_size, dtypes.int64)])], 0)
    return sparse_reorder(SparseTensor(indices, sp_values.values, shape))


# -- constructors -------------------------------------------------------------------------------

def numeric_column(key: str, shape: Any = (1,), default_value: Any = None,
                   dtype: Any = dtypes.float32, normalizer_fn: Optional[Callable] = None
                   ) -> NumericColumn:
    """`tf.feature_column.numeric_column`: real-valued features of `shape`."""
    shape = check_shape(shape, key)
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype}, key: {key}")
    default_value = check_default_value(shape, default_value, dtype, key)
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    assert_key_is_string(key)
    return NumericColumn(key, shape=shape, default_value=default_value, dtype=dtype,
                         normalizer_fn=normalizer_fn)


def bucketized_column(source_column: Any, boundaries: Sequence[float]) -> BucketizedColumn:
    """`tf.feature_column.bucketized_column`: a 1-D numeric column split at `boundaries`."""
    if not isinstance(source_column, NumericColumn):
        raise ValueError("source_column must be a column generated with numeric_column(). "
                         f"Given: {source_column}")
    if len(source_column.shape) > 1:
        raise ValueError(f"source_column must be one-dimensional column. Given: "
                         f"{source_column}")
    if not boundaries:
        raise ValueError("boundaries must not be empty.")
    if not isinstance(boundaries, (list, tuple)):
        raise ValueError("boundaries must be a sorted list.")
    for i in range(len(boundaries) - 1):
        if boundaries[i] >= boundaries[i + 1]:
            raise ValueError("boundaries must be a sorted list.")
    return BucketizedColumn(source_column, tuple(boundaries))


def categorical_column_with_hash_bucket(key: str, hash_bucket_size: int,
                                        dtype: Any = dtypes.string
                                        ) -> HashedCategoricalColumn:
    """`tf.feature_column.categorical_column_with_hash_bucket`."""
    if hash_bucket_size is None:
        raise ValueError(f"hash_bucket_size must be set. key: {key}")
    if hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. hash_bucket_size: "
                         f"{hash_bucket_size}, key: {key}")
    assert_key_is_string(key)
    dtype = dtypes.as_dtype(dtype)
    assert_string_or_int(dtype, prefix=f"column_name: {key}")
    return HashedCategoricalColumn(key, hash_bucket_size, dtype)


def categorical_column_with_vocabulary_list(key: str, vocabulary_list: Sequence[Any],
                                            dtype: Any = None, default_value: int = -1,
                                            num_oov_buckets: int = 0
                                            ) -> VocabularyListCategoricalColumn:
    """`tf.feature_column.categorical_column_with_vocabulary_list`."""
    if vocabulary_list is None or len(vocabulary_list) < 1:
        raise ValueError(f"vocabulary_list {vocabulary_list} must be non-empty, column_name: "
                         f"{key}")
    if len(set(vocabulary_list)) != len(vocabulary_list):
        raise ValueError(f"Duplicate keys in vocabulary_list {vocabulary_list}, column_name: "
                         f"{key}")
    array = np.array(vocabulary_list)
    vocab_dtype = dtypes.string if array.dtype.kind in "USO" else dtypes.as_dtype(array.dtype)
    if num_oov_buckets:
        if default_value != -1:
            raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
        if num_oov_buckets < 0:
            raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    assert_string_or_int(vocab_dtype, prefix=f"column_name: {key} vocabulary")
    if dtype is None:
        dtype = vocab_dtype
    else:
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer != vocab_dtype.is_integer:
            raise ValueError(f"dtype {dtype} and vocabulary dtype {vocab_dtype} do not match, "
                             f"column_name: {key}")
    assert_string_or_int(dtype, prefix=f"column_name: {key}")
    assert_key_is_string(key)
    return VocabularyListCategoricalColumn(key=key, vocabulary_list=tuple(vocabulary_list),
                                           dtype=dtype, default_value=default_value,
                                           num_oov_buckets=num_oov_buckets)


def categorical_column_with_vocabulary_file(key: str, vocabulary_file: str,
                                            vocabulary_size: Optional[int] = None,
                                            num_oov_buckets: int = 0,
                                            default_value: Optional[int] = None,
                                            dtype: Any = dtypes.string
                                            ) -> VocabularyFileCategoricalColumn:
    """`tf.feature_column.categorical_column_with_vocabulary_file` (one word per line)."""
    if not vocabulary_file:
        raise ValueError(f"Missing vocabulary_file in {key}.")
    file_format = "tfrecord_gzip" if str(vocabulary_file).endswith("tfrecord.gz") else None
    if vocabulary_size is None:
        if not os.path.exists(vocabulary_file):
            raise ValueError(f"vocabulary_file in {key} does not exist.")
        if file_format == "tfrecord_gzip":
            raise NotImplementedError("categorical_column_with_vocabulary_file of a "
                                      "'tfrecord.gz' vocabulary is not supported by tf1compat.")
        with open(vocabulary_file, "rb") as f:
            vocabulary_size = sum(1 for _ in f)
        tf_logging.info("vocabulary_size = %d in %s is inferred from the number of elements "
                        "in the vocabulary_file %s.", vocabulary_size, key, vocabulary_file)
    if vocabulary_size < 1:
        raise ValueError(f"Invalid vocabulary_size in {key}.")
    if num_oov_buckets:
        if default_value is not None:
            raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
        if num_oov_buckets < 0:
            raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    dtype = dtypes.as_dtype(dtype)
    assert_string_or_int(dtype, prefix=f"column_name: {key}")
    assert_key_is_string(key)
    return VocabularyFileCategoricalColumn(
        key=key, vocabulary_file=vocabulary_file, vocabulary_size=vocabulary_size,
        num_oov_buckets=0 if num_oov_buckets is None else num_oov_buckets,
        default_value=-1 if default_value is None else default_value, dtype=dtype,
        file_format=file_format)


def categorical_column_with_identity(key: str, num_buckets: int,
                                     default_value: Optional[int] = None
                                     ) -> IdentityCategoricalColumn:
    """`tf.feature_column.categorical_column_with_identity`: ids in [0, num_buckets)."""
    if num_buckets < 1:
        raise ValueError(f"num_buckets {num_buckets} < 1, column_name {key}")
    if default_value is not None and (default_value < 0 or default_value >= num_buckets):
        raise ValueError(f"default_value {default_value} not in range [0, {num_buckets}), "
                         f"column_name {key}")
    assert_key_is_string(key)
    return IdentityCategoricalColumn(key=key, number_buckets=num_buckets,
                                     default_value=default_value)


def indicator_column(categorical_column: Any) -> IndicatorColumn:
    """`tf.feature_column.indicator_column`: multi-hot representation."""
    if not isinstance(categorical_column, CategoricalColumn):
        raise ValueError("Unsupported input type. Input must be a CategoricalColumn. Given: "
                         f"{categorical_column}")
    return IndicatorColumn(categorical_column)


def weighted_categorical_column(categorical_column: Any, weight_feature_key: str,
                                dtype: Any = dtypes.float32) -> WeightedCategoricalColumn:
    """`tf.feature_column.weighted_categorical_column`."""
    dtype = dtypes.as_dtype(dtype) if dtype is not None else None
    if dtype is None or not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype {dtype} is not convertible to float.")
    return WeightedCategoricalColumn(categorical_column=categorical_column,
                                     weight_feature_key=weight_feature_key, dtype=dtype)


def crossed_column(keys: Sequence[Any], hash_bucket_size: int,
                   hash_key: Optional[int] = None) -> CrossedColumn:
    """`tf.feature_column.crossed_column`: hashed feature crosses."""
    if not hash_bucket_size or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be > 1. hash_bucket_size: {hash_bucket_size}")
    if not keys or len(keys) < 2:
        raise ValueError(f"keys must be a list with length > 1. Given: {keys}")
    for key in keys:
        if not isinstance(key, (str, CategoricalColumn)):
            raise ValueError("Unsupported key type. All keys must be either string, or "
                             f"categorical column except HashedCategoricalColumn. Given: {key}")
        if isinstance(key, HashedCategoricalColumn):
            raise ValueError("categorical_column_with_hash_bucket is not supported for "
                             "crossing. Hashing before crossing will increase probability of "
                             "collision. Instead, use the feature name as a string. Given: "
                             f"{key}")
    return CrossedColumn(keys=tuple(keys), hash_bucket_size=hash_bucket_size,
                         hash_key=hash_key)
