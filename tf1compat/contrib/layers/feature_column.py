"""`tf.contrib.layers`' feature columns (TF 1.15's contrib/layers/python/layers/
feature_column.py): `real_valued_column`, the `sparse_column_with_*` columns,
`weighted_sparse_column`, `bucketized_column`, `crossed_column` and
`create_feature_spec_for_parsing` (the embedding and one-hot columns are in
feature_column_embedding.py).

Each column is TF's namedtuple (same class name and fields, so `key` - the repr that
`input_from_feature_columns` sorts by - is TF's string) and implements the core column
interface as TF's did, so it also works in `tf.feature_column.input_layer`/`linear_model`.
The contrib layers (`feature_column_ops.py`) add what differs from core: a sparse column's
combiner, embedding tables named `weights` with a default stddev of 1/sqrt(vocab size),
linear weights `weights`/`weight` and `bias_weight`.
"""

from __future__ import annotations

import collections
from typing import Any, Dict, List, Sequence

from tf1compat.feature_column.base import (CategoricalColumn, DenseColumn, FeatureColumn,
                                           IdWeightPair, LazyBuilder)
from tf1compat.framework import dtypes
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.util import tf_logging

__all__ = ["real_valued_column", "sparse_column_with_keys", "sparse_column_with_hash_bucket",
           "sparse_column_with_integerized_feature", "sparse_column_with_vocabulary_file",
           "weighted_sparse_column", "bucketized_column", "crossed_column",
           "create_feature_spec_for_parsing", "sparse_feature_cross"]

# What a column hands to an embedding lookup (TF's _DeepEmbeddingLookupArguments).
DeepEmbeddingArgs = collections.namedtuple(
    "DeepEmbeddingArgs", ["input_tensor", "weight_tensor", "vocab_size", "dimension",
                          "initializer", "combiner", "shared_embedding_name", "max_norm",
                          "trainable"])
# What a column hands to a linear model (TF's _LinearEmbeddingLookupArguments).
LinearEmbeddingArgs = collections.namedtuple(
    "LinearEmbeddingArgs", ["input_tensor", "weight_tensor", "vocab_size", "combiner"])


def _parsing():
    from tf1compat.ops import parsing_ops
    return parsing_ops


def _flatten_to_rank2(tensor: Any, column_name: str) -> Any:
    """TF's _reshape_real_valued_tensor(output_rank=2): [batch] gains a last axis, higher
    ranks are flattened to [batch, -1]."""
    from tf1compat.ops.array_ops import expand_dims, reshape, shape
    rank = tensor.get_shape().ndims
    if rank == 1:
        tf_logging.warning(
            "Rank of input Tensor (1) should be the same as output_rank (2) for column. Will "
            "attempt to expand dims. It is highly recommended that you resize your input, as "
            "this behavior may change.")
        return expand_dims(tensor, -1, name="expand_dims")
    if rank == 2:
        return tensor
    if rank is None:
        raise ValueError(f"Error while processing column {column_name}. The rank of the "
                         "input Tensor must be known.")
    return reshape(tensor, (shape(tensor)[0], -1))


class ContribColumn(FeatureColumn):
    """TF's contrib `_FeatureColumn`: `key` (the sort key) and `config` (parse spec)."""

    @property
    def key(self) -> str:
        return "{}".format(self)

    def _key_without_properties(self, properties: Sequence[str]) -> str:
        """The repr without `properties` (functions print their address)."""
        values = [f"{k}={self[i]}" for i, k in enumerate(self._fields) if k not in properties]
        return "{}({})".format(type(self).__name__, ", ".join(values))

    @property
    def _parse_example_spec(self) -> dict:
        return self.config

    def _checkpoint_path(self) -> Any:
        return None

    def _deep_embedding_args(self, transformed: Any) -> DeepEmbeddingArgs:
        raise NotImplementedError()

    def _wide_embedding_args(self, transformed: Any) -> LinearEmbeddingArgs:
        raise NotImplementedError()

    def _to_dnn_input_layer(self, transformed: Any) -> Any:
        raise ValueError(f"{type(self).__name__.lstrip('_')} is not supported in DNN. "
                         f"column: {self}")

    def _to_dense_tensor(self, transformed: Any) -> Any:
        raise ValueError(f"Column {self} is not supported in linear models.")


# -- real valued and bucketized --------------------------------------------------------------

class _RealValuedColumn(ContribColumn, DenseColumn, collections.namedtuple(
        "_RealValuedColumn", ["column_name", "dimension", "default_value", "dtype",
                              "normalizer"])):
    """Dense float features of shape [batch, dimension]."""

    def __new__(cls, column_name: str, dimension: int, default_value: Any, dtype: Any,
                normalizer: Any):
        if default_value is not None:
            default_value = tuple(default_value)
        return super().__new__(cls, column_name, dimension, default_value, dtype, normalizer)

    @property
    def name(self) -> str:
        return self.column_name

    @property
    def config(self) -> dict:
        default = None if self.default_value is None else list(self.default_value)
        return {self.column_name: _parsing().FixedLenFeature([self.dimension], self.dtype,
                                                             default)}

    @property
    def key(self) -> str:
        return self._key_without_properties(["normalizer"])

    @property
    def normalizer_fn(self) -> Any:
        return self.normalizer

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        from tf1compat.ops.math_ops import cast
        tensor = inputs.get(self.name)
        if self.normalizer is not None:
            tensor = self.normalizer(tensor)
        return cast(tensor, dtypes.float32)

    def _to_dnn_input_layer(self, transformed: Any) -> Any:
        return _flatten_to_rank2(transformed, self.name)

    def _to_dense_tensor(self, transformed: Any) -> Any:
        return transformed

    @property
    def _variable_shape(self) -> TensorShape:
        return TensorShape([self.dimension])

    def _get_dense_tensor(self, inputs: LazyBuilder, weight_collections: Any = None,
                          trainable: Any = None) -> Any:
        return inputs.get(self)


def real_valued_column(column_name: str, dimension: int = 1, default_value: Any = None,
                       dtype: Any = dtypes.float32, normalizer: Any = None) -> _RealValuedColumn:
    """`tf.contrib.layers.real_valued_column`: dense numeric data of width `dimension`."""
    if dimension is None:
        raise TypeError("dimension must be an integer. Use the _real_valued_var_len_column "
                        f"for variable length features.dimension: {dimension}, column_name: "
                        f"{column_name}")
    if not isinstance(dimension, int):
        raise TypeError(f"dimension must be an integer. dimension: {dimension}, column_name: "
                        f"{column_name}")
    if dimension < 1:
        raise ValueError(f"dimension must be greater than 0. dimension: {dimension}, "
                         f"column_name: {column_name}")
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype}, column_name: "
                         f"{column_name}")
    if default_value is None:
        return _RealValuedColumn(column_name, dimension, None, dtype, normalizer)
    if isinstance(default_value, int) and not isinstance(default_value, bool):
        value = default_value if dtype.is_integer else float(default_value)
        return _RealValuedColumn(column_name, dimension, [value] * dimension, dtype, normalizer)
    if isinstance(default_value, float) and dtype.is_floating:
        return _RealValuedColumn(column_name, dimension, [default_value] * dimension, dtype,
                                 normalizer)
    if isinstance(default_value, list):
        if len(default_value) != dimension:
            raise ValueError("The length of default_value must be equal to dimension. "
                             f"default_value: {default_value}, dimension: {dimension}, "
                             f"column_name: {column_name}")
        all_int = all(isinstance(v, int) for v in default_value)
        all_float = all(isinstance(v, (int, float)) for v in default_value)
        if all_int and dtype.is_integer:
            return _RealValuedColumn(column_name, dimension, default_value, dtype, normalizer)
        if all_float and dtype.is_floating:
            return _RealValuedColumn(column_name, dimension, [float(v) for v in default_value],
                                     dtype, normalizer)
    raise TypeError(f"default_value must be compatible with dtype. default_value: "
                    f"{default_value}, dtype: {dtype}, column_name: {column_name}")


class _BucketizedColumn(ContribColumn, CategoricalColumn, DenseColumn, collections.namedtuple(
        "_BucketizedColumn", ["source_column", "boundaries"])):
    """A real valued column's values as bucket ids (one-hot in a DNN)."""

    def __new__(cls, source_column: Any, boundaries: Any):
        if not isinstance(source_column, _RealValuedColumn):
            raise TypeError("source_column must be an instance of _RealValuedColumn. "
                            f"source_column: {source_column}")
        if not isinstance(boundaries, (list, tuple)) or not boundaries:
            raise ValueError(f"boundaries must be a non-empty list or tuple. boundaries: "
                             f"{boundaries}")
        sanitized = []
        for left, right in zip(boundaries[:-1], boundaries[1:]):
            if left > right:
                raise ValueError(f"boundaries must be a sorted list. boundaries: {boundaries}")
            if left < right:
                sanitized.append(left)
        sanitized.append(boundaries[-1])
        return super().__new__(cls, source_column, tuple(sanitized))

    @property
    def name(self) -> str:
        return f"{self.source_column.name}_bucketized"

    @property
    def length(self) -> int:
        return len(self.boundaries) + 1

    @property
    def config(self) -> dict:
        return self.source_column.config

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        from tf1compat.ops.math_extra import bucketize
        return bucketize(inputs.get(self.source_column), boundaries=list(self.boundaries),
                         name="bucketize")

    def _to_dnn_input_layer(self, transformed: Any) -> Any:
        from tf1compat.ops.array_ops import reshape
        from tf1compat.ops.creation_ops import one_hot
        from tf1compat.ops.math_ops import cast
        return reshape(one_hot(cast(transformed, dtypes.int64), self.length, 1., 0.,
                               name="one_hot"),
                       [-1, self.length * self.source_column.dimension], name="reshape")

    def to_sparse_tensor(self, transformed: Any) -> SparseTensor:
        """The bucket ids as a [batch, dimension] SparseTensor (dimension i offset by
        i * length)."""
        from tf1compat.ops.array_ops import expand_dims, reshape, shape, stack
        from tf1compat.ops.creation_ops import zeros
        from tf1compat.ops.creation_ops import range as range_
        from tf1compat.ops.math_ops import cast
        from tf1compat.ops.transform_ops import tile, transpose
        dimension = self.source_column.dimension
        batch_size = shape(transformed, name="shape")[0]
        if dimension > 1:
            i1 = reshape(tile(expand_dims(range_(0, batch_size), 1, name="expand_dims"),
                              [1, dimension], name="tile"), [-1], name="reshape")
            i2 = tile(range_(0, dimension), [batch_size], name="tile")
            ids = reshape(transformed, [-1], name="reshape") + self.length * i2
        else:
            i1 = range_(0, batch_size)
            i2 = zeros([batch_size], dtype=dtypes.int32, name="zeros")
            ids = reshape(transformed, [-1], name="reshape")
        indices = cast(transpose(stack((i1, i2))), dtypes.int64)
        return SparseTensor(indices, ids, cast(stack([batch_size, dimension]), dtypes.int64))

    def _wide_embedding_args(self, transformed: Any) -> LinearEmbeddingArgs:
        return LinearEmbeddingArgs(self.to_sparse_tensor(transformed), None,
                                   self.length * self.source_column.dimension, "sum")

    @property
    def _num_buckets(self) -> int:
        return self.length * self.source_column.dimension

    def _get_sparse_tensors(self, inputs: LazyBuilder, weight_collections: Any = None,
                            trainable: Any = None) -> IdWeightPair:
        return IdWeightPair(self.to_sparse_tensor(inputs.get(self)), None)

    @property
    def _variable_shape(self) -> TensorShape:
        return TensorShape([self.length * self.source_column.dimension])

    def _get_dense_tensor(self, inputs: LazyBuilder, weight_collections: Any = None,
                          trainable: Any = None) -> Any:
        return self._to_dnn_input_layer(inputs.get(self))


def bucketized_column(source_column: Any, boundaries: Any) -> _BucketizedColumn:
    """`tf.contrib.layers.bucketized_column`: `source_column` discretized at the sorted
    `boundaries` (duplicates dropped)."""
    return _BucketizedColumn(source_column, boundaries)


# -- sparse (categorical) columns ------------------------------------------------------------

class _SparseIdLookupConfig(collections.namedtuple(
        "_SparseIdLookupConfig", ["vocabulary_file", "keys", "num_oov_buckets", "vocab_size",
                                  "default_value"])):
    """How a vocabulary column maps values to ids."""

    def __new__(cls, vocabulary_file: Any = None, keys: Any = None, num_oov_buckets: int = 0,
                vocab_size: Any = None, default_value: int = -1):
        return super().__new__(cls, vocabulary_file, keys, num_oov_buckets, vocab_size,
                               default_value)


class _SparseColumn(ContribColumn, CategoricalColumn, collections.namedtuple(
        "_SparseColumn", ["column_name", "is_integerized", "bucket_size", "lookup_config",
                          "combiner", "dtype"])):
    """Categorical ids from a string or integer feature (TF's checks in `__new__`)."""

    def __new__(cls, column_name: str, is_integerized: bool = False, bucket_size: Any = None,
                lookup_config: Any = None, combiner: str = "sum", dtype: Any = dtypes.string):
        dtype = dtypes.as_dtype(dtype)
        if is_integerized and bucket_size is None:
            raise ValueError("bucket_size must be set if is_integerized is True. "
                             f"column_name: {column_name}")
        if is_integerized and not dtype.is_integer:
            raise ValueError("dtype must be an integer if is_integerized is True. "
                             f"dtype: {dtype}, column_name: {column_name}.")
        if dtype != dtypes.string and not dtype.is_integer:
            raise ValueError(f"dtype must be string or integer. dtype: {dtype}, column_name: "
                             f"{column_name}")
        if bucket_size is None and lookup_config is None:
            raise ValueError("one of bucket_size or lookup_config must be set. "
                             f"column_name: {column_name}")
        if bucket_size is not None and lookup_config:
            raise ValueError("one and only one of bucket_size or lookup_config must be set. "
                             f"column_name: {column_name}")
        if bucket_size is not None and bucket_size < 1:
            raise ValueError(f"bucket_size must be at least 1. bucket_size: {bucket_size}, "
                             f"column_name: {column_name}")
        if lookup_config and not isinstance(lookup_config, _SparseIdLookupConfig):
            raise TypeError("lookup_config must be an instance of _SparseIdLookupConfig. "
                            f"Given one is in type {type(lookup_config)} for column_name "
                            f"{column_name}")
        if lookup_config and lookup_config.vocabulary_file and lookup_config.vocab_size is None:
            raise ValueError(f"vocab_size must be defined. column_name: {column_name}")
        return super().__new__(cls, column_name, is_integerized, bucket_size, lookup_config,
                               combiner, dtype)

    @property
    def name(self) -> str:
        return self.column_name

    @property
    def length(self) -> int:
        if self.bucket_size is not None:
            return self.bucket_size
        return self.lookup_config.vocab_size + self.lookup_config.num_oov_buckets

    @property
    def config(self) -> dict:
        return {self.column_name: _parsing().VarLenFeature(self.dtype)}

    def id_tensor(self, transformed: Any) -> Any:
        return transformed

    def weight_tensor(self, transformed: Any) -> Any:
        return None

    def is_compatible(self, other: Any) -> bool:
        """Whether `other` can share an embedding with this column."""
        if self.lookup_config and other.lookup_config:
            return self.lookup_config == other.lookup_config
        compatible = self.length == other.length and (
            self.dtype == other.dtype or (self.dtype.is_integer and other.dtype.is_integer))
        if compatible:
            tf_logging.warn(f"Column {self.name} and {other.name} may not have the same "
                            "vocabulary.")
        return compatible

    def _wide_embedding_args(self, transformed: Any) -> LinearEmbeddingArgs:
        return LinearEmbeddingArgs(self.id_tensor(transformed), self.weight_tensor(transformed),
                                   self.length, self.combiner)

    def _to_dnn_input_layer(self, transformed: Any) -> Any:
        raise ValueError("SparseColumn is not supported in DNN. Please use embedding_column "
                         f"or one_hot_column. column: {self}")

    def _sparse_input(self, inputs: LazyBuilder) -> SparseTensor:
        """The raw feature, a dense one as a SparseTensor without '' / -1 entries."""
        from tf1compat.feature_column.base import to_sparse_input_and_drop_ignore_values
        tensor = inputs.get(self.name)
        if isinstance(tensor, SparseTensor):
            return tensor
        ignore = "" if tensor.dtype == dtypes.string else -1
        return to_sparse_input_and_drop_ignore_values(_flatten_to_rank2(tensor, self.name),
                                                      ignore_value=ignore)

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        return self._do_transform(self._sparse_input(inputs))

    def _do_transform(self, tensor: SparseTensor) -> SparseTensor:
        raise NotImplementedError()

    @property
    def _num_buckets(self) -> int:
        return self.length

    def _get_sparse_tensors(self, inputs: LazyBuilder, weight_collections: Any = None,
                            trainable: Any = None) -> IdWeightPair:
        transformed = inputs.get(self)
        return IdWeightPair(self.id_tensor(transformed), self.weight_tensor(transformed))


class _SparseColumnIntegerized(_SparseColumn):
    """Integer ids modulo `bucket_size`."""

    def _do_transform(self, tensor: SparseTensor) -> SparseTensor:
        from tf1compat.ops.math_ops import mod
        return SparseTensor(tensor.indices, mod(tensor.values, self.bucket_size, name="mod"),
                            tensor.dense_shape)


class _SparseColumnHashed(_SparseColumn):
    """Ids by Fingerprint64 hashing (StringToHashBucketFast) of the string form; with
    `hash_keys`, one SipHash id (StringToHashBucketStrong) per key pair, the keys' ids
    concatenated along the value axis (fewer collisions)."""

    def __new__(cls, column_name: str, is_integerized: bool = False, bucket_size: Any = None,
                lookup_config: Any = None, combiner: str = "sum", dtype: Any = dtypes.string,
                hash_keys: Any = None):
        if hash_keys is not None:
            if not isinstance(hash_keys, list) or not hash_keys:
                raise ValueError("hash_keys must be a non-empty list.")
            if (any(not isinstance(pair, list) or len(pair) != 2 for pair in hash_keys) or
                    any(not isinstance(key, int) for pair in hash_keys for key in pair)):
                raise ValueError("Each element of hash_keys must be a pair of integers.")
        obj = super().__new__(cls, column_name, is_integerized=is_integerized,
                              bucket_size=bucket_size, lookup_config=lookup_config,
                              combiner=combiner, dtype=dtype)
        obj.hash_keys = hash_keys
        return obj

    def _do_transform(self, tensor: SparseTensor) -> SparseTensor:
        from tf1compat.ops.sparse_math import sparse_concat
        from tf1compat.ops.string_ops import (as_string, string_to_hash_bucket_fast,
                                              string_to_hash_bucket_strong)
        values = as_string(tensor.values) if self.dtype.is_integer else tensor.values
        if self.hash_keys:
            parts = [SparseTensor(tensor.indices,
                                  string_to_hash_bucket_strong(values, self.bucket_size, key),
                                  tensor.dense_shape) for key in self.hash_keys]
            return sparse_concat(axis=1, sp_inputs=parts, name="lookup")
        ids = string_to_hash_bucket_fast(values, self.bucket_size, name="lookup")
        return SparseTensor(tensor.indices, ids, tensor.dense_shape)


class _SparseColumnKeys(_SparseColumn):
    """Ids as positions in `keys` (others: `default_value`)."""

    def _do_transform(self, tensor: SparseTensor) -> SparseTensor:
        from tf1compat.ops.lookup_ops import index_table_from_tensor
        from tf1compat.variables.variables import init_scope
        with init_scope():
            table = index_table_from_tensor(tuple(self.lookup_config.keys),
                                            default_value=self.lookup_config.default_value,
                                            dtype=self.dtype, name="lookup")
        return table.lookup(tensor)


class _SparseColumnVocabulary(_SparseColumn):
    """Ids as line numbers of a vocabulary file (OOV: hash buckets or `default_value`)."""

    def _do_transform(self, tensor: SparseTensor) -> SparseTensor:
        from tf1compat.ops.lookup_ops import index_table_from_file
        from tf1compat.ops.string_ops import as_string
        from tf1compat.variables.variables import init_scope
        if self.dtype.is_integer:
            tensor = SparseTensor(tensor.indices, as_string(tensor.values), tensor.dense_shape)
        config = self.lookup_config
        with init_scope():
            table = index_table_from_file(
                vocabulary_file=config.vocabulary_file, num_oov_buckets=config.num_oov_buckets,
                vocab_size=config.vocab_size, default_value=config.default_value,
                name=self.name + "_lookup")
        return table.lookup(tensor)


def sparse_column_with_integerized_feature(column_name: str, bucket_size: int,
                                           combiner: str = "sum",
                                           dtype: Any = dtypes.int64) -> _SparseColumn:
    """`tf.contrib.layers.sparse_column_with_integerized_feature`: integer features used as
    ids modulo `bucket_size`."""
    return _SparseColumnIntegerized(column_name, is_integerized=True, bucket_size=bucket_size,
                                    combiner=combiner, dtype=dtype)


def sparse_column_with_hash_bucket(column_name: str, hash_bucket_size: int,
                                   combiner: str = "sum", dtype: Any = dtypes.string,
                                   hash_keys: Any = None) -> _SparseColumn:
    """`tf.contrib.layers.sparse_column_with_hash_bucket`: values hashed into
    `hash_bucket_size` buckets (with `hash_keys`, a list of [k0, k1] SipHash keys, one id
    per key)."""
    return _SparseColumnHashed(column_name, bucket_size=hash_bucket_size, combiner=combiner,
                               dtype=dtype, hash_keys=hash_keys)


def sparse_column_with_keys(column_name: str, keys: Sequence[Any], default_value: int = -1,
                            combiner: str = "sum", dtype: Any = dtypes.string) -> _SparseColumn:
    """`tf.contrib.layers.sparse_column_with_keys`: ids as positions in `keys`."""
    keys = tuple(keys)
    return _SparseColumnKeys(column_name, lookup_config=_SparseIdLookupConfig(
        keys=keys, vocab_size=len(keys), default_value=default_value), combiner=combiner,
        dtype=dtype)


def sparse_column_with_vocabulary_file(column_name: str, vocabulary_file: str,
                                       num_oov_buckets: int = 0, vocab_size: Any = None,
                                       default_value: int = -1, combiner: str = "sum",
                                       dtype: Any = dtypes.string) -> _SparseColumn:
    """`tf.contrib.layers.sparse_column_with_vocabulary_file`: ids from a vocabulary file
    of `vocab_size` lines."""
    if vocab_size is None:
        raise ValueError(f"vocab_size should be defined. column_name: {column_name}")
    return _SparseColumnVocabulary(column_name, lookup_config=_SparseIdLookupConfig(
        vocabulary_file=vocabulary_file, num_oov_buckets=num_oov_buckets,
        vocab_size=vocab_size, default_value=default_value), combiner=combiner, dtype=dtype)


class _WeightedSparseColumn(ContribColumn, CategoricalColumn, collections.namedtuple(
        "_WeightedSparseColumn", ["sparse_id_column", "weight_column_name", "dtype"])):
    """A sparse column's ids with weights from another (sparse) feature."""

    @property
    def name(self) -> str:
        return f"{self.sparse_id_column.name}_weighted_by_{self.weight_column_name}"

    @property
    def length(self) -> int:
        return self.sparse_id_column.length

    @property
    def combiner(self) -> str:
        return self.sparse_id_column.combiner

    @property
    def lookup_config(self) -> Any:
        return self.sparse_id_column.lookup_config

    @property
    def config(self) -> dict:
        config = dict(self.sparse_id_column.config)
        config[self.weight_column_name] = _parsing().VarLenFeature(self.dtype)
        return config

    def id_tensor(self, transformed: Any) -> Any:
        return transformed[0]

    def weight_tensor(self, transformed: Any) -> Any:
        return transformed[1]

    def is_compatible(self, other: Any) -> bool:
        if isinstance(other, _WeightedSparseColumn):
            other = other.sparse_id_column
        return self.sparse_id_column.is_compatible(other)

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        from tf1compat.ops.math_ops import cast
        weights = inputs.get(self.weight_column_name)
        if not isinstance(weights, SparseTensor):
            raise ValueError("weight_tensor should be a SparseTensor. " + self.name)
        if not self.dtype.is_floating:
            weights = SparseTensor(weights.indices, cast(weights.values, dtypes.float32),
                                   weights.dense_shape)
        return inputs.get(self.sparse_id_column), weights

    def _wide_embedding_args(self, transformed: Any) -> LinearEmbeddingArgs:
        return LinearEmbeddingArgs(transformed[0], transformed[1], self.length, self.combiner)

    def _to_dnn_input_layer(self, transformed: Any) -> Any:
        raise ValueError("WeightedSparseColumn is not supported in DNN. Please use "
                         f"embedding_column or one_hot_column. column: {self}")

    @property
    def _num_buckets(self) -> int:
        return self.length

    def _get_sparse_tensors(self, inputs: LazyBuilder, weight_collections: Any = None,
                            trainable: Any = None) -> IdWeightPair:
        transformed = inputs.get(self)
        return IdWeightPair(transformed[0], transformed[1])


def weighted_sparse_column(sparse_id_column: Any, weight_column_name: str,
                           dtype: Any = dtypes.float32) -> _WeightedSparseColumn:
    """`tf.contrib.layers.weighted_sparse_column`: `sparse_id_column`'s ids weighted by the
    sparse feature `weight_column_name`."""
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype is not convertible to float. Given {dtype}")
    return _WeightedSparseColumn(sparse_id_column, weight_column_name, dtype)


class _CrossedColumn(ContribColumn, CategoricalColumn, collections.namedtuple(
        "_CrossedColumn", ["columns", "hash_bucket_size", "hash_key", "combiner",
                           "ckpt_to_load_from", "tensor_name_in_ckpt"])):
    """The hashed cartesian product of sparse/bucketized/crossed columns."""

    def __new__(cls, columns: Any, hash_bucket_size: int, hash_key: Any, combiner: str = "sum",
                ckpt_to_load_from: Any = None, tensor_name_in_ckpt: Any = None):
        for column in columns:
            if not isinstance(column, (_SparseColumn, _CrossedColumn, _BucketizedColumn)):
                raise TypeError("columns must be a set of _SparseColumn, _CrossedColumn, or "
                                f"_BucketizedColumn instances. (column {column} is a "
                                f"{column.__class__.__name__})")
        if len(columns) < 2:
            raise ValueError(f"columns must contain at least 2 elements. columns: {columns}")
        if hash_bucket_size < 2:
            raise ValueError("hash_bucket_size must be at least 2. hash_bucket_size: "
                             f"{hash_bucket_size}")
        if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
            raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` "
                             "or none of them.")
        ordered = tuple(sorted(columns, key=lambda c: c.name))
        return super().__new__(cls, ordered, hash_bucket_size, hash_key, combiner,
                               ckpt_to_load_from, tensor_name_in_ckpt)

    @property
    def name(self) -> str:
        return "_X_".join(sorted(column.name for column in self.columns))

    @property
    def length(self) -> int:
        return self.hash_bucket_size

    @property
    def config(self) -> dict:
        config: Dict[str, Any] = {}
        for column in self.columns:
            config.update(column.config)
        return config

    def id_tensor(self, transformed: Any) -> Any:
        return transformed

    def weight_tensor(self, transformed: Any) -> Any:
        return None

    def _checkpoint_path(self) -> Any:
        if self.ckpt_to_load_from is None:
            return None
        return self.ckpt_to_load_from, self.tensor_name_in_ckpt

    def _leaves(self) -> List[Any]:
        leaves: List[Any] = []
        for column in self.columns:
            leaves.extend(column._leaves() if isinstance(column, _CrossedColumn) else [column])
        return leaves

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        tensors = []
        for column in self._leaves():
            if isinstance(column, _SparseColumn):
                # TF crosses the raw feature (a dense one with all its values).
                tensors.append(inputs.get(column.name))
            else:
                tensors.append(column.to_sparse_tensor(inputs.get(column)))
        return sparse_feature_cross(tensors, hashed_output=True,
                                    num_buckets=self.hash_bucket_size, hash_key=self.hash_key,
                                    name="cross")

    def _wide_embedding_args(self, transformed: Any) -> LinearEmbeddingArgs:
        return LinearEmbeddingArgs(transformed, None, self.length, self.combiner)

    def _to_dnn_input_layer(self, transformed: Any) -> Any:
        raise ValueError(f"CrossedColumn is not supported in DNN. Please use embedding_column."
                         f" column: {self}")

    @property
    def _num_buckets(self) -> int:
        return self.length

    def _get_sparse_tensors(self, inputs: LazyBuilder, weight_collections: Any = None,
                            trainable: Any = None) -> IdWeightPair:
        return IdWeightPair(inputs.get(self), None)


# TF's SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY (FingerprintCat64's seed).
SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY = 956888297470


def sparse_feature_cross(inputs: Sequence[Any], hashed_output: bool = False,
                         num_buckets: int = 0, name: Any = None, hash_key: Any = None) -> Any:
    """`tf.contrib.layers.sparse_feature_cross`: with `hash_key`, FingerprintCat64 of the
    features' fingerprints (SparseFeatureCrossV2, the same kernel as core's SparseCross);
    without, TF 1.15's v1 kernel (HashCombine, ints unhashed)."""
    from tf1compat.ops.sparse_tail import sparse_cross, sparse_cross_hashed
    from tf1compat.ops.sparse_tail import sparse_feature_cross as v1_cross
    if not hash_key:
        return v1_cross(inputs, hashed_output=hashed_output, num_buckets=num_buckets,
                        name=name)
    if hashed_output:
        return sparse_cross_hashed(inputs, num_buckets=num_buckets, hash_key=hash_key,
                                   name=name)
    return sparse_cross(inputs, name=name)


def crossed_column(columns: Sequence[Any], hash_bucket_size: int, combiner: str = "sum",
                   ckpt_to_load_from: Any = None, tensor_name_in_ckpt: Any = None,
                   hash_key: Any = None) -> _CrossedColumn:
    """`tf.contrib.layers.crossed_column`: the crossed values of `columns` hashed into
    `hash_bucket_size` buckets (TF 1.15's v1 SparseFeatureCross hashing, or FingerprintCat64
    with `hash_key`)."""
    return _CrossedColumn(columns, hash_bucket_size, hash_key, combiner=combiner,
                          ckpt_to_load_from=ckpt_to_load_from,
                          tensor_name_in_ckpt=tensor_name_in_ckpt)


def create_feature_spec_for_parsing(feature_columns: Any) -> Dict[str, Any]:
    """`tf.contrib.layers.create_feature_spec_for_parsing`: the `tf.parse_example` spec of
    the columns' base features."""
    if isinstance(feature_columns, dict):
        feature_columns = feature_columns.values()
    spec: Dict[str, Any] = {}
    for column in feature_columns:
        if not isinstance(column, ContribColumn):
            raise TypeError("feature_columns should only contain instances of _FeatureColumn. "
                            f"Given column is {column}")
        spec.update(column.config)
    return spec


_EMBEDDING_NAMES = ("one_hot_column", "embedding_column", "shared_embedding_columns",
                    "_OneHotColumn", "_EmbeddingColumn")


def __getattr__(name: str) -> Any:
    """TF 1.15's feature_column module also held the embedding and one-hot columns
    (code imports them from here by the module's legacy path)."""
    if name in _EMBEDDING_NAMES:
        from tf1compat.contrib.layers import feature_column_embedding
        return getattr(feature_column_embedding, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
