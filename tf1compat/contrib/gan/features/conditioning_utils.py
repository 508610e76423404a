"""Conditioning a tensor on side information (TF 1.14's conditioning_utils_impl.py):
the conditioning is flattened, mapped linearly (a contrib.layers `fully_connected`
scope) to the tensor's per-example size and added to it."""

from __future__ import annotations

from typing import Any

from tf1compat.contrib.layers.layers import flatten, fully_connected
from tf1compat.framework.constant_value import constant_value
from tf1compat.ops.array_ops import reshape, shape
from tf1compat.ops.nn_embedding import embedding_lookup
from tf1compat.ops.reduction_ops import argmax
from tf1compat.variables.variable_scope import get_variable

__all__ = ["condition_tensor", "condition_tensor_from_onehot"]


def condition_tensor(tensor: Any, conditioning: Any) -> Any:
    """`tensor` plus a learned linear map of `conditioning` (at least 2-D) reshaped to
    `tensor`'s shape; the non-batch dimensions of `tensor` must be known."""
    tensor.shape[1:].assert_is_fully_defined()
    num_features = tensor.shape[1:].num_elements()
    if conditioning.shape.ndims < 2:
        raise ValueError(f"conditioning must be at least 2D, but saw shape: "
                         f"{conditioning.shape}")
    mapped = fully_connected(flatten(conditioning), num_features, activation_fn=None)
    if not mapped.shape.is_compatible_with(tensor.shape):
        dynamic = shape(tensor)
        static = constant_value(dynamic)
        mapped = reshape(mapped, static if static is not None else dynamic)
    return tensor + mapped


def condition_tensor_from_onehot(tensor: Any, one_hot_labels: Any,
                                 embedding_size: int = 256) -> Any:
    """condition_tensor on a learned embedding (variable 'embedding', default
    initializer) of the labels' argmax."""
    one_hot_labels.shape.assert_has_rank(2)
    one_hot_labels.shape[1:].assert_is_fully_defined()
    embedding = get_variable("embedding", [one_hot_labels.shape[1], embedding_size])
    conditioning = embedding_lookup(embedding, argmax(one_hot_labels, axis=1),
                                    name="token_to_embedding")
    return condition_tensor(tensor, conditioning)
