"""`tf.contrib.layers.embed_sequence` and `bow_encoder` (TF 1.15): an `embeddings` model
variable in the scope `EmbedSequence` / `bow_encoder` (or `scope`), looked up per id, or
averaged over each row's ids (bag of words)."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.contrib.framework.variables import model_variable
from tf1compat.contrib.layers.embedding_ops import (dense_to_sparse_tensor,
                                                    embedding_lookup_unique,
                                                    safe_embedding_lookup_sparse)
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.nn_embedding import embedding_lookup
from tf1compat.ops.reduction_ops import reduce_mean
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["bow_encoder", "embed_sequence"]


def bow_encoder(ids: Any, vocab_size: int, embed_dim: int, sparse_lookup: bool = True,
                initializer: Any = None, regularizer: Any = None, trainable: bool = True,
                scope: Any = None, reuse: Any = None) -> Tensor:
    """The mean embedding of each row of `ids` ([batch, doc_length] dense ids, or a
    SparseTensor): [batch, embed_dim]. The sparse lookup skips id 0 cells of dense ids."""
    if not vocab_size or not embed_dim:
        raise ValueError("Must specify vocab size and embedding dimension")
    with variable_scope(scope, "bow_encoder", [ids], reuse=reuse):
        embeddings = model_variable("embeddings", shape=[vocab_size, embed_dim],
                                    initializer=initializer, regularizer=regularizer,
                                    trainable=trainable)
        if sparse_lookup:
            sparse_ids = ids if isinstance(ids, SparseTensor) else dense_to_sparse_tensor(ids)
            return safe_embedding_lookup_sparse([embeddings], sparse_ids, combiner="mean",
                                                default_id=0)
        if isinstance(ids, SparseTensor):
            raise TypeError(f"ids are expected to be dense Tensor, got: {ids}")
        return reduce_mean(embedding_lookup(embeddings, ids), axis=1)


def embed_sequence(ids: Any, vocab_size: Optional[int] = None, embed_dim: Optional[int] = None,
                   unique: bool = False, initializer: Any = None, regularizer: Any = None,
                   trainable: bool = True, scope: Any = None, reuse: Any = None) -> Tensor:
    """The embedding of every id: [batch, doc_length, embed_dim].

    Raises:
      ValueError: no vocab_size/embed_dim while not reusing the variable.
    """
    if not (reuse or (vocab_size and embed_dim)):
        raise ValueError("Must specify vocab size and embedding dimension when not reusing. "
                         f"Got vocab_size={vocab_size} and embed_dim={embed_dim}")
    with variable_scope(scope, "EmbedSequence", [ids], reuse=reuse):
        shape = [vocab_size, embed_dim]
        # (TF's precedence: `reuse and vocab_size is None` or `embed_dim is None`.)
        if (reuse and vocab_size is None) or embed_dim is None:
            shape = None
        embeddings = model_variable("embeddings", shape=shape, initializer=initializer,
                                    regularizer=regularizer, trainable=trainable)
        if unique:
            return embedding_lookup_unique(embeddings, ids)
        return embedding_lookup(embeddings, ids)
