"""Embedding feature columns: `embedding_column` (a categorical column through a trainable
`embedding_weights` table) and `shared_embedding_columns` (several columns, one table).

The lookup is `tf.nn.safe_embedding_lookup_sparse` named `<column>_weights`, with the
column's combiner; the table is created with `tf.get_variable` in the caller's variable
scope (input_layer: `input_layer/<column>/embedding_weights`), initialized by a truncated
normal of stddev 1/sqrt(dimension) unless an initializer is given.
"""

from __future__ import annotations

import collections
import math
from typing import Any, Callable, List, Optional, Sequence

from tf1compat.feature_column.base import (CategoricalColumn, DenseColumn, LazyBuilder,
                                           SequenceDenseColumn, TensorSequenceLengthPair,
                                           sequence_length_from_sparse_tensor)
from tf1compat.framework import dtypes
from tf1compat.framework.graph import GraphKeys, get_default_graph, name_scope
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["EmbeddingColumn", "SharedEmbeddingColumn", "embedding_column",
           "shared_embedding_columns"]


def _lookup(column: Any, sparse_tensors: Any, embedding_weights: Any) -> Any:
    from tf1compat.ops.nn_embedding import embedding_lookup_sparse
    from tf1compat.ops.nn_misc_tail import safe_embedding_lookup_sparse
    from tf1compat.training.saving.checkpoint_utils import init_from_checkpoint
    sparse_ids, sparse_weights = sparse_tensors.id_tensor, sparse_tensors.weight_tensor
    if column.ckpt_to_load_from is not None:
        to_restore = embedding_weights
        if hasattr(to_restore, "_get_variable_list"):
            to_restore = to_restore._get_variable_list()
        init_from_checkpoint(column.ckpt_to_load_from,
                             {column.tensor_name_in_ckpt: to_restore})
    rank = sparse_ids.dense_shape.get_shape().as_list()[0]
    lookup = safe_embedding_lookup_sparse
    if not column.use_safe_embedding_lookup and rank is not None and rank <= 2:
        lookup = embedding_lookup_sparse
    return lookup(embedding_weights, sparse_ids, sparse_weights, combiner=column.combiner,
                  name=f"{column.name}_weights", max_norm=column.max_norm)


def _check_not_sequence(column: Any, layer: str) -> None:
    from tf1compat.feature_column.sequence import is_sequence_categorical
    if is_sequence_categorical(column.categorical_column):
        raise ValueError(
            f"In embedding_column: {column.name}. categorical_column must not be of type "
            "_SequenceCategoricalColumn. Suggested fix A: If you wish to use "
            f"{layer}, use a non-sequence categorical_column_with_*. Suggested fix B: If you "
            "wish to create sequence input, use sequence_input_layer instead of input_layer. "
            f"Given (type {type(column.categorical_column)}): {column.categorical_column}")


def _check_sequence(column: Any) -> None:
    from tf1compat.feature_column.sequence import is_sequence_categorical
    if not is_sequence_categorical(column.categorical_column):
        raise ValueError(
            f"In embedding_column: {column.name}. categorical_column must be of type "
            "_SequenceCategoricalColumn to use sequence_input_layer. Suggested fix: Use one "
            "of sequence_categorical_column_with_*. Given (type "
            f"{type(column.categorical_column)}): {column.categorical_column}")


class _CategoricalEmbedding(DenseColumn, SequenceDenseColumn):
    """A column embedding `categorical_column`'s ids as `dimension`-vectors."""

    @property
    def _parse_example_spec(self) -> dict:
        return self.categorical_column._parse_example_spec

    def _transform_feature(self, inputs: LazyBuilder) -> Any:
        return inputs.get(self.categorical_column)

    @property
    def _variable_shape(self) -> TensorShape:
        return TensorShape([self.dimension])


class EmbeddingColumn(_CategoricalEmbedding, collections.namedtuple(
        "EmbeddingColumn",
        ("categorical_column", "dimension", "combiner", "initializer", "ckpt_to_load_from",
         "tensor_name_in_ckpt", "max_norm", "trainable", "use_safe_embedding_lookup"))):
    """A categorical column's ids embedded with a trainable `[num_buckets, dimension]`
    table and combined per example."""

    @property
    def name(self) -> str:
        return f"{self.categorical_column.name}_embedding"

    def _embedding_weights(self, weight_collections: Any, trainable: Any) -> Any:
        from tf1compat.variables.variable_scope import get_variable
        if weight_collections and GraphKeys.GLOBAL_VARIABLES not in weight_collections:
            weight_collections.append(GraphKeys.GLOBAL_VARIABLES)
        return get_variable(name="embedding_weights",
                            shape=(self.categorical_column._num_buckets, self.dimension),
                            dtype=dtypes.float32, initializer=self.initializer,
                            trainable=self.trainable and trainable,
                            collections=weight_collections)

    def _get_dense_tensor(self, inputs: LazyBuilder, weight_collections: Any = None,
                          trainable: Any = None) -> Any:
        _check_not_sequence(self, "DenseFeatures")
        sparse_tensors = self.categorical_column._get_sparse_tensors(inputs, weight_collections,
                                                                    trainable)
        return _lookup(self, sparse_tensors, self._embedding_weights(weight_collections,
                                                                     trainable))

    def _get_sequence_dense_tensor(self, inputs: LazyBuilder, weight_collections: Any = None,
                                   trainable: Any = None) -> TensorSequenceLengthPair:
        _check_sequence(self)
        sparse_tensors = self.categorical_column._get_sparse_tensors(inputs)
        dense = _lookup(self, sparse_tensors,
                        self._embedding_weights(weight_collections, trainable))
        return TensorSequenceLengthPair(
            dense_tensor=dense,
            sequence_length=sequence_length_from_sparse_tensor(sparse_tensors.id_tensor))


class SharedEmbeddingColumn(_CategoricalEmbedding, collections.namedtuple(
        "_SharedEmbeddingColumn",
        ("categorical_column", "dimension", "combiner", "initializer",
         "shared_embedding_collection_name", "ckpt_to_load_from", "tensor_name_in_ckpt",
         "max_norm", "trainable", "use_safe_embedding_lookup"))):
    """One of several columns sharing an embedding table (the first one built creates it
    and adds it to the collection `shared_embedding_collection_name`)."""

    @property
    def name(self) -> str:
        return f"{self.categorical_column.name}_shared_embedding"

    @property
    def _var_scope_name(self) -> str:
        return self.shared_embedding_collection_name

    def _dense(self, inputs: LazyBuilder, weight_collections: Any, trainable: Any) -> Any:
        from tf1compat.variables.variable_scope import get_variable
        with name_scope(None, default_name=self.name):
            sparse_tensors = self.categorical_column._get_sparse_tensors(
                inputs, weight_collections=weight_collections, trainable=trainable)
            shape = (self.categorical_column._num_buckets, self.dimension)
            graph = get_default_graph()
            shared = graph.get_collection(self.shared_embedding_collection_name)
            if shared:
                if len(shared) > 1:
                    raise ValueError(
                        f"Collection {shared} can only contain one variable. Suggested fix "
                        "A: Choose a unique name for this collection. Suggested fix B: Do not "
                        "add any variables to this collection. The feature_column library "
                        "already adds a variable under the hood.")
                weights = shared[0]
                if weights.get_shape() != shape:
                    raise ValueError(
                        f"Shared embedding collection {self.shared_embedding_collection_name} "
                        f"contains variable {weights.name} of unexpected shape "
                        f"{weights.get_shape()}. Expected shape is {shape}. Suggested fix A: "
                        "Choose a unique name for this collection. Suggested fix B: Do not add "
                        "any variables to this collection. The feature_column library already "
                        "adds a variable under the hood.")
            else:
                weights = get_variable(name="embedding_weights", shape=shape,
                                       dtype=dtypes.float32, initializer=self.initializer,
                                       trainable=self.trainable and trainable,
                                       collections=weight_collections)
                graph.add_to_collection(self.shared_embedding_collection_name, weights)
            return _lookup(self, sparse_tensors, weights)

    def _get_dense_tensor(self, inputs: LazyBuilder, weight_collections: Any = None,
                          trainable: Any = None) -> Any:
        _check_not_sequence(self, "input_layer")
        return self._dense(inputs, weight_collections, trainable)

    def _get_sequence_dense_tensor(self, inputs: LazyBuilder, weight_collections: Any = None,
                                   trainable: Any = None) -> TensorSequenceLengthPair:
        _check_sequence(self)
        dense = self._dense(inputs, weight_collections, trainable)
        sparse_tensors = self.categorical_column._get_sparse_tensors(inputs)
        return TensorSequenceLengthPair(
            dense_tensor=dense,
            sequence_length=sequence_length_from_sparse_tensor(sparse_tensors.id_tensor))


def _default_initializer(dimension: int) -> Callable:
    from tf1compat.variables.init_ops import truncated_normal_initializer
    return truncated_normal_initializer(mean=0.0, stddev=1 / math.sqrt(dimension))


def embedding_column(categorical_column: Any, dimension: int, combiner: str = "mean",
                     initializer: Optional[Callable] = None,
                     ckpt_to_load_from: Optional[str] = None,
                     tensor_name_in_ckpt: Optional[str] = None, max_norm: Any = None,
                     trainable: bool = True, use_safe_embedding_lookup: bool = True
                     ) -> EmbeddingColumn:
    """`tf.feature_column.embedding_column`."""
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or "
                         "none of them.")
    if initializer is not None and not callable(initializer):
        raise ValueError("initializer must be callable if specified. Embedding of "
                         f"column_name: {categorical_column.name}")
    return EmbeddingColumn(
        categorical_column=categorical_column, dimension=dimension, combiner=combiner,
        initializer=initializer or _default_initializer(dimension),
        ckpt_to_load_from=ckpt_to_load_from, tensor_name_in_ckpt=tensor_name_in_ckpt,
        max_norm=max_norm, trainable=trainable,
        use_safe_embedding_lookup=use_safe_embedding_lookup)


def _unwrap(column: Any) -> Any:
    from tf1compat.feature_column.columns import WeightedCategoricalColumn
    from tf1compat.feature_column.sequence import SequenceCategoricalColumn
    while isinstance(column, (WeightedCategoricalColumn, SequenceCategoricalColumn)):
        column = column.categorical_column
    return column


def shared_embedding_columns(categorical_columns: Sequence[Any], dimension: int,
                             combiner: str = "mean", initializer: Optional[Callable] = None,
                             shared_embedding_collection_name: Optional[str] = None,
                             ckpt_to_load_from: Optional[str] = None,
                             tensor_name_in_ckpt: Optional[str] = None, max_norm: Any = None,
                             trainable: bool = True, use_safe_embedding_lookup: bool = True
                             ) -> List[SharedEmbeddingColumn]:
    """`tf.feature_column.shared_embedding_columns`: one table for columns of one type
    and bucket count (named after the sorted column names unless given)."""
    from tf1compat.framework.context import executing_eagerly
    if executing_eagerly():
        raise RuntimeError("shared_embedding_columns are not supported when eager execution "
                           "is enabled.")
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or "
                         "none of them.")
    if initializer is not None and not callable(initializer):
        raise ValueError("initializer must be callable if specified.")
    initializer = initializer or _default_initializer(dimension)
    ordered = sorted(categorical_columns, key=lambda x: x.name)
    first = ordered[0]
    num_buckets = first._num_buckets
    if not isinstance(first, CategoricalColumn):
        raise ValueError("All categorical_columns must be subclasses of _CategoricalColumn. "
                         f"Given: {first}, of type: {type(first)}")
    base = _unwrap(first)
    for column in ordered[1:]:
        column = _unwrap(column)
        if not isinstance(column, type(base)):
            raise ValueError(
                "To use shared_embedding_column, all categorical_columns must have the same "
                "type, or be weighted_categorical_column or sequence column of the same type. "
                f"Given column: {base} of type: {type(base)} does not match given column: "
                f"{column} of type: {type(column)}")
        if num_buckets != column._num_buckets:
            raise ValueError(
                "To use shared_embedding_column, all categorical_columns must have the same "
                f"number of buckets. ven column: {base} with buckets: {num_buckets} does  not "
                f"match column: {column} with buckets: {column._num_buckets}")
    if not shared_embedding_collection_name:
        shared_embedding_collection_name = "_".join(c.name for c in ordered) + \
            "_shared_embedding"
    return [SharedEmbeddingColumn(
        categorical_column=column, initializer=initializer, dimension=dimension,
        combiner=combiner, shared_embedding_collection_name=shared_embedding_collection_name,
        ckpt_to_load_from=ckpt_to_load_from, tensor_name_in_ckpt=tensor_name_in_ckpt,
        max_norm=max_norm, trainable=trainable,
        use_safe_embedding_lookup=use_safe_embedding_lookup)
        for column in categorical_columns]
