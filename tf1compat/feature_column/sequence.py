"""Sequence feature columns (`tf.contrib.feature_column`, TF 1.15): sequence categorical
and numeric columns over SparseTensors `[batch, time, ...]`, `sequence_input_layer`
(`[batch, time, width]` plus sequence lengths) and `concatenate_context_input`."""

from __future__ import annotations

import collections
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from tf1compat.feature_column import columns as fc
from tf1compat.feature_column.base import (CategoricalColumn, IdWeightPair, LazyBuilder,
                                           SequenceDenseColumn, TensorSequenceLengthPair,
                                           check_shape, normalize_feature_columns,
                                           sequence_length_from_sparse_tensor,
                                           verify_static_batch_size_equality)
from tf1compat.framework import dtypes
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["SequenceCategoricalColumn", "SequenceNumericColumn", "is_sequence_categorical",
           "sequence_input_layer", "concatenate_context_input",
           "sequence_categorical_column_with_identity",
           "sequence_categorical_column_with_hash_bucket",
           "sequence_categorical_column_with_vocabulary_file",
           "sequence_categorical_column_with_vocabulary_list", "sequence_numeric_column"]


class SequenceCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "SequenceCategoricalColumn", ("categorical_column",))):
    """A categorical column over sequences: ids `[batch, time, k]` flattened to
    `[batch, time, k']` for embedding per step."""

    @property
    def name(self) -> str:
        return self.categorical_column.name

    @property
    def _parse_example_spec(self) -> dict:
        return self.categorical_column._parse_example_spec

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        return self.categorical_column._transform_feature(inputs)

    @property
    def _num_buckets(self) -> int:
        return self.categorical_column._num_buckets

    def _get_sparse_tensors(self, inputs: LazyBuilder, weight_collections: Any = None,
                            trainable: Any = None) -> IdWeightPair:
        from tf1compat.ops.array_ops import shape
        from tf1compat.ops.reduction_ops import reduce_prod
        from tf1compat.ops.sparse_math import sparse_reshape
        pair = self.categorical_column._get_sparse_tensors(inputs)
        ids, weights = pair.id_tensor, pair.weight_tensor
        dims = shape(ids)
        target = [dims[0], dims[1], reduce_prod(dims[2:])]
        ids = sparse_reshape(ids, target)
        if weights is not None:
            weights = sparse_reshape(weights, target)
        return IdWeightPair(ids, weights)


def is_sequence_categorical(column: Any) -> bool:
    return isinstance(column, SequenceCategoricalColumn)


class SequenceNumericColumn(SequenceDenseColumn, collections.namedtuple(
        "SequenceNumericColumn", ("key", "shape", "default_value", "dtype",
                                  "normalizer_fn"))):
    """Real-valued sequences from a SparseTensor `[batch, time * shape]`."""

    @property
    def name(self) -> str:
        return self.key

    @property
    def _parse_example_spec(self) -> dict:
        from tf1compat.ops.parsing_ops import VarLenFeature
        return {self.key: VarLenFeature(self.dtype)}

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        tensor = inputs.get(self.key)
        if self.normalizer_fn is not None:
            tensor = self.normalizer_fn(tensor)
        return tensor

    @property
    def _variable_shape(self) -> TensorShape:
        return TensorShape(self.shape)

    def _get_sequence_dense_tensor(self, inputs: LazyBuilder, weight_collections: Any = None,
                                   trainable: Any = None) -> TensorSequenceLengthPair:
        from tf1compat.ops.array_ops import concat, reshape, shape
        from tf1compat.ops.sparse_ops import sparse_tensor_to_dense
        sp_tensor = inputs.get(self)
        dense = sparse_tensor_to_dense(sp_tensor, default_value=self.default_value)
        dense_shape = concat([shape(dense)[:1], [-1], list(self.shape)], axis=0)
        dense = reshape(dense, shape=dense_shape)
        num_elements = self._variable_shape.num_elements() \
            if sp_tensor.shape.ndims == 2 else 1
        return TensorSequenceLengthPair(
            dense_tensor=dense,
            sequence_length=sequence_length_from_sparse_tensor(sp_tensor,
                                                               num_elements=num_elements))


def _assert_all_equal_and_return(tensors: Sequence[Any], name: Optional[str] = None) -> Any:
    from tf1compat.ops.array_ops import identity
    from tf1compat.ops.check_ops import assert_equal
    with name_scope(name, "assert_all_equal", values=tensors):
        if len(tensors) == 1:
            return tensors[0]
        checks = [assert_equal(tensors[0], t) for t in tensors[1:]]
        with control_dependencies(checks):
            return identity(tensors[0])


def sequence_input_layer(features: Dict[str, Any], feature_columns: Any,
                         weight_collections: Any = None, trainable: bool = True
                         ) -> Tuple[Any, Any]:
    """`tf.contrib.feature_column.sequence_input_layer`: `[batch, time, width]` of the
    sequence columns (sorted by name) and the per-example sequence length."""
    from tf1compat.ops.array_ops import concat, reshape, shape
    columns = normalize_feature_columns(feature_columns)
    for column in columns:
        if not isinstance(column, SequenceDenseColumn):
            raise ValueError("All feature_columns must be of type _SequenceDenseColumn. You "
                             "can wrap a sequence_categorical_column with an embedding_column "
                             f"or indicator_column. Given (type {type(column)}): {column}")
    with variable_scope(None, default_name="sequence_input_layer",
                        values=list(features.values())):
        builder = LazyBuilder(features)
        outputs, lengths, ordered = [], [], []
        for column in sorted(columns, key=lambda x: x.name):
            ordered.append(column)
            with variable_scope(None, default_name=column._var_scope_name):
                dense, length = column._get_sequence_dense_tensor(
                    builder, weight_collections=weight_collections, trainable=trainable)
                num_elements = column._variable_shape.num_elements()
                dims = shape(dense)
                outputs.append(reshape(dense, shape=[dims[0], dims[1], num_elements]))
                lengths.append(length)
        verify_static_batch_size_equality(outputs, ordered)
        verify_static_batch_size_equality(lengths, ordered)
        return concat(outputs, -1), _assert_all_equal_and_return(lengths)


def concatenate_context_input(context_input: Any, sequence_input: Any) -> Any:
    """Appends `context_input` `[batch, d]` to every step of `sequence_input`."""
    from tf1compat.ops.array_ops import concat, expand_dims, shape
    from tf1compat.ops.check_ops import assert_rank, assert_type
    from tf1compat.ops.transform_ops import tile
    checks = [
        assert_rank(sequence_input, 3, message="sequence_input must have rank 3",
                    data=[shape(sequence_input)]),
        assert_type(sequence_input, dtypes.float32,
                    message="sequence_input must have dtype float32; got "
                            f"{sequence_input.dtype}."),
        assert_rank(context_input, 2, message="context_input must have rank 2",
                    data=[shape(context_input)]),
        assert_type(context_input, dtypes.float32,
                    message=f"context_input must have dtype float32; got "
                            f"{context_input.dtype}.")]
    with control_dependencies(checks):
        padded_length = shape(sequence_input)[1]
        tiled = tile(expand_dims(context_input, 1), concat([[1], [padded_length], [1]], 0))
    return concat([sequence_input, tiled], 2)


def sequence_categorical_column_with_identity(key: str, num_buckets: int,
                                              default_value: Optional[int] = None
                                              ) -> SequenceCategoricalColumn:
    return SequenceCategoricalColumn(fc.categorical_column_with_identity(
        key=key, num_buckets=num_buckets, default_value=default_value))


def sequence_categorical_column_with_hash_bucket(key: str, hash_bucket_size: int,
                                                 dtype: Any = dtypes.string
                                                 ) -> SequenceCategoricalColumn:
    return SequenceCategoricalColumn(fc.categorical_column_with_hash_bucket(
        key=key, hash_bucket_size=hash_bucket_size, dtype=dtype))


def sequence_categorical_column_with_vocabulary_file(
        key: str, vocabulary_file: str, vocabulary_size: Optional[int] = None,
        num_oov_buckets: int = 0, default_value: Optional[int] = None,
        dtype: Any = dtypes.string) -> SequenceCategoricalColumn:
    return SequenceCategoricalColumn(fc.categorical_column_with_vocabulary_file(
        key=key, vocabulary_file=vocabulary_file, vocabulary_size=vocabulary_size,
        num_oov_buckets=num_oov_buckets, default_value=default_value, dtype=dtype))


def sequence_categorical_column_with_vocabulary_list(
        key: str, vocabulary_list: Sequence[Any], dtype: Any = None, default_value: int = -1,
        num_oov_buckets: int = 0) -> SequenceCategoricalColumn:
    return SequenceCategoricalColumn(fc.categorical_column_with_vocabulary_list(
        key=key, vocabulary_list=vocabulary_list, dtype=dtype, default_value=default_value,
        num_oov_buckets=num_oov_buckets))


def sequence_numeric_column(key: str, shape: Any = (1,), default_value: float = 0.,
                            dtype: Any = dtypes.float32,
                            normalizer_fn: Optional[Callable] = None) -> SequenceNumericColumn:
    """`sequence_numeric_column`: a SparseTensor feature read as `[batch, time, *shape]`."""
    shape = check_shape(shape, key)
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype}, key: {key}")
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    return SequenceNumericColumn(key, shape=shape, default_value=default_value, dtype=dtype,
                                 normalizer_fn=normalizer_fn)
