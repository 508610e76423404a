"""`tf.contrib.layers` embedding and sparse helpers (TF 1.15): `embedding_lookup_unique`
(looks each distinct id up once), `safe_embedding_lookup_sparse` (contrib's spelling of the
core op, whose `combiner` default warns and means "mean"), `dense_to_sparse_tensor` (the
cells other than `ignore_value`, default the dtype's zero or "", as a SparseTensor) and the
layer `dense_to_sparse` (cells other than `eos_token`, e.g. labels for ctc_loss)."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from tf1compat.contrib.framework.arg_scope import add_arg_scope
from tf1compat.contrib.layers.utils import collect_named_outputs
from tf1compat.framework import dtypes
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import name_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.array_ops import concat, reshape, shape
from tf1compat.ops.indexing_ops import gather, gather_nd, unique, where
from tf1compat.ops.math_ops import cast, not_equal
from tf1compat.ops.nn_embedding import embedding_lookup
from tf1compat.ops.nn_misc_tail import safe_embedding_lookup_sparse as _core_safe_lookup
from tf1compat.ops.reduction_ops import reduce_prod
from tf1compat.util import tf_logging
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["embedding_lookup_unique", "safe_embedding_lookup_sparse", "dense_to_sparse",
           "dense_to_sparse_tensor"]


def embedding_lookup_unique(params: Any, ids: Any, partition_strategy: str = "mod",
                            name: Optional[str] = None) -> Tensor:
    """`embedding_lookup` of `ids` (any shape) that looks each distinct id up once."""
    with name_scope(name, "EmbeddingLookupUnique", [params, ids]):
        ids = convert_to_tensor(ids)
        ids_shape = shape(ids)
        ids_flat = reshape(ids, reduce_prod(ids_shape, keepdims=True))
        unique_ids, idx = unique(ids_flat)
        unique_embeddings = embedding_lookup(params, unique_ids, partition_strategy)
        embeds_flat = gather(unique_embeddings, idx)
        embeds = reshape(embeds_flat, concat([ids_shape, shape(unique_embeddings)[1:]], 0))
        embeds.set_shape(ids.get_shape().concatenate(unique_embeddings.get_shape()[1:]))
        return embeds


def safe_embedding_lookup_sparse(embedding_weights: Any, sparse_ids: SparseTensor,
                                 sparse_weights: Any = None, combiner: Optional[str] = None,
                                 default_id: Optional[int] = None, name: Optional[str] = None,
                                 partition_strategy: str = "div",
                                 max_norm: Any = None) -> Tensor:
    """`tf.nn.safe_embedding_lookup_sparse`; no `combiner` warns and means "mean"."""
    if combiner is None:
        tf_logging.warn('The default value of combiner will change from "mean" to "sqrtn" '
                        'after 2016/11/01.')
        combiner = "mean"
    return _core_safe_lookup(embedding_weights, sparse_ids, sparse_weights, combiner,
                             default_id, name, partition_strategy, max_norm)


def _sparse_cells(tensor: Tensor, ignore: Tensor) -> SparseTensor:
    indices = where(not_equal(tensor, ignore))
    return SparseTensor(indices, gather_nd(tensor, indices),
                        shape(tensor, out_type=dtypes.int64))


def dense_to_sparse_tensor(dense_tensor: Any, ignore_value: Any = None) -> SparseTensor:
    """The cells of `dense_tensor` not equal to `ignore_value` (default: "" for strings,
    the dtype's zero otherwise), as a SparseTensor of its shape."""
    with name_scope("DenseToSparseTensor"):
        dense_tensor = convert_to_tensor(dense_tensor)
        if ignore_value is None:
            ignore_value = "" if dense_tensor.dtype == dtypes.string \
                else np.zeros((), dense_tensor.dtype.as_numpy_dtype)[()]
        ignore = cast(ignore_value, dense_tensor.dtype, name="ignore_value")
        return _sparse_cells(dense_tensor, ignore)


@add_arg_scope
def dense_to_sparse(tensor: Any, eos_token: Any = 0, outputs_collections: Any = None,
                    scope: Optional[str] = None) -> SparseTensor:
    """The cells of `tensor` not equal to `eos_token`, as a SparseTensor (in the variable
    scope `dense_to_sparse`; added to `outputs_collections`)."""
    with variable_scope(scope, "dense_to_sparse", [tensor]) as sc:
        tensor = convert_to_tensor(tensor)
        outputs = _sparse_cells(tensor, constant(eos_token, tensor.dtype))
        return collect_named_outputs(outputs_collections, sc.name, outputs)
