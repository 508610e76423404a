"""The rest of `tf.nn`: safe_embedding_lookup_sparse (TF's pruning of invalid ids and
weights, empty rows filled) and `tf.nn.experimental` (general_dropout, stateless_dropout).
(The quantized tf.nn ops are in `quantization_ops`.)"""

from __future__ import annotations

import functools
from typing import Any, Callable, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import Dimension, dimension_value, unknown_shape
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.creation_ops import ones_like, zeros_like
from tf1compat.ops.indexing_ops import gather, where
from tf1compat.ops.nn_embedding import embedding_lookup_sparse
from tf1compat.ops.nn_ops import dropout_with_sampler
from tf1compat.ops.random_extra_ops import stateless_random_uniform
from tf1compat.ops.reduction_ops import reduce_prod
from tf1compat.ops.sparse_extra import sparse_fill_empty_rows
from tf1compat.ops.sparse_math import sparse_reshape, sparse_retain
from tf1compat.ops.strided_slice import slice as slice_
from tf1compat.ops.transform_ops import tile

__all__ = ["safe_embedding_lookup_sparse", "general_dropout", "stateless_dropout"]


def _prune_invalid_ids(sparse_ids: SparseTensor, sparse_weights: Any) -> tuple:
    valid = math_ops.greater_equal(sparse_ids.values, 0)
    if sparse_weights is not None:
        valid = math_ops.logical_and(valid, ones_like(sparse_weights.values, dtype=D.bool))
    sparse_ids = sparse_retain(sparse_ids, valid)
    if sparse_weights is not None:
        sparse_weights = sparse_retain(sparse_weights, valid)
    return sparse_ids, sparse_weights


def _prune_invalid_weights(sparse_ids: SparseTensor, sparse_weights: Any) -> tuple:
    if sparse_weights is not None:
        valid = math_ops.greater(sparse_weights.values, 0)
        sparse_ids = sparse_retain(sparse_ids, valid)
        sparse_weights = sparse_retain(sparse_weights, valid)
    return sparse_ids, sparse_weights


def safe_embedding_lookup_sparse(embedding_weights: Any, sparse_ids: SparseTensor,
                                 sparse_weights: Any = None, combiner: str = "mean",
                                 default_id: Optional[int] = None, name: Optional[str] = None,
                                 partition_strategy: str = "div", max_norm: Any = None,
                                 allow_fast_lookup: bool = False) -> Tensor:
    """`tf.nn.safe_embedding_lookup_sparse`: embedding_lookup_sparse that drops negative
    ids (and non-positive weights unless combiner='sum') and gives empty rows the
    `default_id` embedding or zeros; ids of any rank >= 2 (leading dims kept)."""
    if embedding_weights is None:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    if hasattr(embedding_weights, "_get_variable_list"):
        embedding_weights = list(embedding_weights)
    if not isinstance(embedding_weights, list):
        embedding_weights = [embedding_weights]
    if len(embedding_weights) < 1:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    dtype = sparse_weights.dtype if sparse_weights is not None else None
    embedding_weights = [w if hasattr(w, "handle") and dtype in (None, w.dtype)
                         else convert_to_tensor(w, dtype=dtype) for w in embedding_weights]
    with name_scope(name, "embedding_lookup",
                    embedding_weights + [sparse_ids, sparse_weights]) as scope:
        original_shape = sparse_ids.dense_shape
        original_rank_dim = dimension_value(sparse_ids.dense_shape.get_shape()[0])
        original_rank = array_ops.size(original_shape) if original_rank_dim is None \
            else original_rank_dim
        sparse_ids = sparse_reshape(sparse_ids, [
            reduce_prod(slice_(original_shape, [0], [original_rank - 1])),
            gather(original_shape, original_rank - 1)])
        if sparse_weights is not None:
            sparse_weights = SparseTensor(sparse_ids.indices, sparse_weights.values,
                                          sparse_ids.dense_shape)
        sparse_ids, sparse_weights = _prune_invalid_ids(sparse_ids, sparse_weights)
        if combiner != "sum":
            sparse_ids, sparse_weights = _prune_invalid_weights(sparse_ids, sparse_weights)
        sparse_ids, is_row_empty = sparse_fill_empty_rows(sparse_ids, default_id or 0)
        if sparse_weights is not None:
            sparse_weights, _ = sparse_fill_empty_rows(sparse_weights, 1.0)
        result = embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights,
                                         combiner=combiner,
                                         partition_strategy=partition_strategy,
                                         name=None if default_id is None else scope,
                                         max_norm=max_norm,
                                         allow_fast_lookup=allow_fast_lookup)
        if default_id is None:
            is_row_empty = tile(array_ops.reshape(is_row_empty, [-1, 1]),
                                array_ops.stack([1, array_ops.shape(result)[1]]))
            result = where(is_row_empty, zeros_like(result), result, name=scope)
        final = array_ops.reshape(result, array_ops.concat([
            slice_(math_ops.cast(original_shape, D.int32), [0], [original_rank - 1]),
            slice_(array_ops.shape(result), [1], [-1])], 0))
        leading = unknown_shape((Dimension(original_rank_dim) - 1).value)
        final.set_shape(leading.concatenate(result.get_shape()[1:]))
        return final


# -- tf.nn.experimental ------------------------------------------------------------------------

def general_dropout(x: Any, rate: Any, uniform_sampler: Callable[..., Tensor],
                    noise_shape: Any = None, name: Optional[str] = None) -> Tensor:
    """`tf.nn.experimental.general_dropout`: dropout drawing its uniform noise with
    `uniform_sampler(shape=, dtype=)`."""
    return dropout_with_sampler(x, rate, noise_shape, uniform_sampler, name,
                                "general_dropout")


def stateless_dropout(x: Any, rate: Any, seed: Any, rng_alg: Any = None,
                      noise_shape: Any = None, name: Optional[str] = None) -> Tensor:
    """`tf.nn.experimental.stateless_dropout`: dropout whose noise depends on `seed`
    alone (stateless_random_uniform)."""
    sampler = functools.partial(stateless_random_uniform, seed=seed,
                                alg="auto_select" if rng_alg is None else rng_alg)
    return dropout_with_sampler(x, rate, noise_shape, sampler, name, "stateless_dropout")
