"""`tf.contrib.layers`' dense views of sparse columns (TF 1.15's contrib/layers/python/
layers/feature_column.py): `one_hot_column`, `embedding_column` and
`shared_embedding_columns`. An embedding's table is `weights` in the column's scope
(core: `embedding_weights`), its default initializer a truncated normal of stddev
1/sqrt(vocabulary size) (core: 1/sqrt(dimension)); shared tables are named after the
columns and kept in `SHARED_EMBEDDING_COLLECTION_<NAME>` (feature_column_ops.py)."""

from __future__ import annotations

import collections
import math
from typing import Any, Optional, Sequence

from tf1compat.contrib.layers.feature_column import (ContribColumn, DeepEmbeddingArgs,
                                                     LinearEmbeddingArgs, _SparseColumn,
                                                     _WeightedSparseColumn)
from tf1compat.feature_column.base import DenseColumn, LazyBuilder
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.util import tf_logging

__all__ = ["one_hot_column", "embedding_column", "shared_embedding_columns"]


class _OneHotColumn(ContribColumn, DenseColumn, collections.namedtuple(
        "_OneHotColumn", ["sparse_id_column"])):
    """A sparse column as a multi-hot [batch, length] vector (weights summed)."""

    @property
    def name(self) -> str:
        return f"{self.sparse_id_column.name}_one_hot"

    @property
    def length(self) -> int:
        return self.sparse_id_column.length

    @property
    def config(self) -> dict:
        return self.sparse_id_column.config

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        return inputs.get(self.sparse_id_column)

    def _to_dnn_input_layer(self, transformed: Any) -> Any:
        from tf1compat.ops.creation_ops import one_hot
        from tf1compat.ops.reduction_ops import reduce_sum
        from tf1compat.ops.sparse_ops import sparse_tensor_to_dense
        from tf1compat.ops.sparse_tail import sparse_merge
        ids = self.sparse_id_column.id_tensor(transformed)
        weights = self.sparse_id_column.weight_tensor(transformed)
        if weights is not None:
            merged = sparse_merge(ids, weights, vocab_size=self.length)
            return sparse_tensor_to_dense(merged, default_value=0.)
        dense_ids = sparse_tensor_to_dense(ids, default_value=-1)
        return reduce_sum(one_hot(dense_ids, depth=self.length, on_value=1.0, off_value=0.0),
                          axis=[1])

    @property
    def _variable_shape(self) -> TensorShape:
        return TensorShape([self.length])

    def _get_dense_tensor(self, inputs: LazyBuilder, weight_collections: Any = None,
                          trainable: Any = None) -> Any:
        return self._to_dnn_input_layer(inputs.get(self))


def one_hot_column(sparse_id_column: Any) -> _OneHotColumn:
    """`tf.contrib.layers.one_hot_column`: a sparse column as a one-/multi-hot DNN input."""
    return _OneHotColumn(sparse_id_column)


class _EmbeddingColumn(ContribColumn, DenseColumn, collections.namedtuple(
        "_EmbeddingColumn", ["sparse_id_column", "dimension", "combiner", "initializer",
                             "ckpt_to_load_from", "tensor_name_in_ckpt",
                             "shared_embedding_name", "shared_vocab_size", "max_norm",
                             "trainable"])):
    """A sparse column's ids through a trainable [length, dimension] table."""

    def __new__(cls, sparse_id_column: Any, dimension: int, combiner: str = "mean",
                initializer: Any = None, ckpt_to_load_from: Any = None,
                tensor_name_in_ckpt: Any = None, shared_embedding_name: Any = None,
                shared_vocab_size: Any = None, max_norm: Any = None, trainable: bool = True):
        from tf1compat.variables.init_ops import truncated_normal_initializer
        if initializer is not None and not callable(initializer):
            raise ValueError("initializer must be callable if specified. Embedding of "
                             f"column_name: {sparse_id_column.name}")
        if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
            raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` "
                             "or none of them.")
        if initializer is None:
            tf_logging.warn("The default stddev value of initializer was changed from "
                            "\"1/sqrt(vocab_size)\" to \"1/sqrt(dimension)\" in core "
                            "implementation (tf.feature_column.embedding_column).")
            initializer = truncated_normal_initializer(
                mean=0.0, stddev=1 / math.sqrt(sparse_id_column.length))
        return super().__new__(cls, sparse_id_column, dimension, combiner, initializer,
                               ckpt_to_load_from, tensor_name_in_ckpt, shared_embedding_name,
                               shared_vocab_size, max_norm, trainable)

    @property
    def name(self) -> str:
        suffix = "_embedding" if self.shared_embedding_name is None else "_shared_embedding"
        return self.sparse_id_column.name + suffix

    @property
    def length(self) -> int:
        if self.shared_vocab_size is None:
            return self.sparse_id_column.length
        return self.shared_vocab_size

    @property
    def config(self) -> dict:
        return self.sparse_id_column.config

    @property
    def key(self) -> str:
        return self._key_without_properties(["initializer"])

    def _checkpoint_path(self) -> Any:
        if self.ckpt_to_load_from is None:
            return None
        return self.ckpt_to_load_from, self.tensor_name_in_ckpt

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        return inputs.get(self.sparse_id_column)

    def _deep_embedding_args(self, transformed: Any) -> DeepEmbeddingArgs:
        return DeepEmbeddingArgs(
            self.sparse_id_column.id_tensor(transformed),
            self.sparse_id_column.weight_tensor(transformed), self.length, self.dimension,
            self.initializer, self.combiner, self.shared_embedding_name, self.max_norm,
            self.trainable)

    def _wide_embedding_args(self, transformed: Any) -> LinearEmbeddingArgs:
        raise ValueError(f"Column {self} is not supported in linear models. Please use "
                         "sparse_column.")

    @property
    def _variable_shape(self) -> TensorShape:
        return TensorShape([self.dimension])

    def _get_dense_tensor(self, inputs: LazyBuilder, weight_collections: Any = None,
                          trainable: Any = None) -> Any:
        from tf1compat.contrib.layers.feature_column_ops import embeddings_from_arguments
        return embeddings_from_arguments(self, self._deep_embedding_args(inputs.get(self)),
                                         weight_collections, trainable)


def embedding_column(sparse_id_column: Any, dimension: int, combiner: str = "mean",
                     initializer: Any = None, ckpt_to_load_from: Any = None,
                     tensor_name_in_ckpt: Any = None, max_norm: Any = None,
                     trainable: bool = True) -> _EmbeddingColumn:
    """`tf.contrib.layers.embedding_column`: `sparse_id_column` embedded for a DNN (table
    `<scope>/<column>_embedding/weights`, default initializer a truncated normal of stddev
    1/sqrt(vocabulary size))."""
    return _EmbeddingColumn(sparse_id_column, dimension, combiner, initializer,
                            ckpt_to_load_from, tensor_name_in_ckpt, max_norm=max_norm,
                            trainable=trainable)


def shared_embedding_columns(sparse_id_columns: Sequence[Any], dimension: int,
                             combiner: str = "mean", shared_embedding_name: Optional[str] = None,
                             initializer: Any = None, ckpt_to_load_from: Any = None,
                             tensor_name_in_ckpt: Any = None, max_norm: Any = None,
                             trainable: bool = True) -> Any:
    """`tf.contrib.layers.shared_embedding_columns`: embedding columns of compatible sparse
    columns sharing one table named `shared_embedding_name` (default: the first three
    column names joined by '_')."""
    if not isinstance(sparse_id_columns, (list, tuple, set)):
        raise TypeError("sparse_id_columns must be a non-string iterable (ex: list or tuple) "
                        f"instead of type {type(sparse_id_columns)}.")
    if len(sparse_id_columns) < 1:
        raise ValueError("The input sparse_id_columns should have at least one element.")
    for column in sparse_id_columns:
        if not isinstance(column, (_SparseColumn, _WeightedSparseColumn)):
            raise TypeError("Elements of sparse_id_columns must be _SparseColumn or "
                            f"_WeightedSparseColumn, but {column} is not.")
    columns = list(sparse_id_columns)
    if len(columns) == 1:
        return [_EmbeddingColumn(columns[0], dimension, combiner, initializer,
                                 ckpt_to_load_from, tensor_name_in_ckpt, shared_embedding_name,
                                 max_norm=max_norm, trainable=trainable)]
    first = columns[0]
    for column in columns[1:]:
        compatible = (first.is_compatible(column) if isinstance(first, _WeightedSparseColumn)
                      else column.is_compatible(first))
        if not compatible:
            raise ValueError("The input sparse id columns are not compatible.")
    if not shared_embedding_name:
        # TF orders SparseColumns (as namedtuples) before WeightedSparseColumns (by name).
        plain = sorted(c for c in columns if isinstance(c, _SparseColumn))
        weighted = sorted((c for c in columns if not isinstance(c, _SparseColumn)),
                          key=lambda x: x.name)
        ordered = plain + weighted
        shared_embedding_name = "_".join(c.name for c in ordered[:3])
        if len(ordered) > 3:
            shared_embedding_name += f"_plus_{len(ordered) - 3}_others"
    return tuple(_EmbeddingColumn(column, dimension, combiner, initializer, ckpt_to_load_from,
                                  tensor_name_in_ckpt, shared_embedding_name, first.length,
                                  max_norm=max_norm, trainable=trainable)
                 for column in columns)
