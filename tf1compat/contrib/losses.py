"""`tf.contrib.losses` / `slim.losses` (TF 1.15's deprecated loss_ops).

The predecessors of `tf.losses`, with their own argument order (predictions or logits
first) and reduction: every loss is weighted and summed over the batch, then divided by
the number of present (non-zero-weight) elements (`div_no_nan`), and added to the LOSSES
collection. `hinge_loss` returns the unreduced losses. New code should use `tf.losses`,
whose functions take `labels` first. `metric_learning` holds the embedding losses
(tf1compat/contrib/metric_learning.py).
"""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.contrib import metric_learning
from tf1compat.contrib.framework.arg_scope import add_arg_scope
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import GraphKeys, add_to_collection, get_collection, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, creation_ops, math_ops, nn_losses, nn_ops, reduction_ops
from tf1compat.ops.indexing_ops import where
from tf1compat.ops.strided_slice import slice as slice_

__all__ = ["absolute_difference", "add_loss", "cosine_distance", "compute_weighted_loss",
           "get_losses", "get_regularization_losses", "get_total_loss", "hinge_loss",
           "log_loss", "mean_pairwise_squared_error", "mean_squared_error", "metric_learning",
           "sigmoid_cross_entropy", "softmax_cross_entropy", "sparse_softmax_cross_entropy"]


def _scale_losses(losses: Tensor, weights: Tensor) -> Tensor:
    """Sum over the dimensions `weights` does not have, times weights, summed."""
    start = max(0, weights.get_shape().ndims)
    reduced = reduction_ops.reduce_sum(losses, axis=list(range(start,
                                                               losses.get_shape().ndims)))
    return reduction_ops.reduce_sum(math_ops.multiply(reduced, weights))


def _num_present(losses: Tensor, weights: Tensor, per_batch: bool = False) -> Tensor:
    """How many loss elements carry a non-zero weight (per batch entry or in all)."""
    if weights.get_shape().ndims == 0:
        batch_size = array_ops.reshape(slice_(array_ops.shape(losses), [0], [1]), [])
        per_entry = math_ops.div(math_ops.cast(array_ops.size(losses), D.float32),
                                 math_ops.cast(batch_size, D.float32))
        per_entry = where(math_ops.equal(weights, 0), 0.0, per_entry)
        per_entry = math_ops.multiply(creation_ops.ones(array_ops.reshape(batch_size, [1])),
                                      per_entry)
        return per_entry if per_batch else reduction_ops.reduce_sum(per_entry)
    nonzero = reduction_ops.reduce_sum(
        math_ops.cast(math_ops.not_equal(weights, 0), D.float32),
        axis=list(range(1, weights.get_shape().ndims)))
    broadcast_dims = slice_(array_ops.shape(losses), [weights.get_shape().ndims], [-1])
    per_entry = math_ops.multiply(
        nonzero, math_ops.cast(reduction_ops.reduce_prod(broadcast_dims), D.float32))
    return per_entry if per_batch else reduction_ops.reduce_sum(per_entry)


def compute_weighted_loss(losses: Any, weights: Any = 1.0, scope: Optional[str] = None
                          ) -> Tensor:
    """The weighted mean of `losses` over present elements, added to LOSSES."""
    with name_scope(scope, "weighted_loss", [losses, weights]):
        losses = convert_to_tensor(losses)
        input_dtype = losses.dtype
        losses = math_ops.cast(losses, D.float32)
        weights = math_ops.cast(convert_to_tensor(weights), D.float32)
        if losses.get_shape().ndims is None:
            raise ValueError("losses.get_shape().ndims cannot be None")
        weights_shape = weights.get_shape()
        if weights_shape.ndims is None:
            raise ValueError("weights.get_shape().ndims cannot be None")
        if weights_shape.ndims > 1 and weights_shape.dims[-1].is_compatible_with(1):
            weights = array_ops.squeeze(weights, [-1])
        total_loss = _scale_losses(losses, weights)
        num_present = _num_present(losses, weights)
        mean_loss = math_ops.div_no_nan(reduction_ops.reduce_sum(total_loss), num_present,
                                        name="value")
        mean_loss = math_ops.cast(mean_loss, input_dtype)
        add_loss(mean_loss)
        return mean_loss


@add_arg_scope
def add_loss(loss: Any, loss_collection: Optional[str] = GraphKeys.LOSSES) -> None:
    """Adds `loss` to `loss_collection` (if not None)."""
    if loss_collection:
        add_to_collection(loss_collection, loss)


def get_losses(scope: Optional[str] = None, loss_collection: str = GraphKeys.LOSSES
               ) -> List[Any]:
    return get_collection(loss_collection, scope)


def get_regularization_losses(scope: Optional[str] = None) -> List[Any]:
    return get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def get_total_loss(add_regularization_losses: bool = True, name: str = "total_loss"
                   ) -> Tensor:
    """The sum (AddN) of the LOSSES collection and, by default, the regularization losses."""
    losses = get_losses()
    if add_regularization_losses:
        losses += get_regularization_losses()
    return math_ops.add_n(losses, name=name)


def _float_pair(predictions: Any, labels: Any) -> tuple:
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    return math_ops.cast(predictions, D.float32), math_ops.cast(labels, D.float32)


def absolute_difference(predictions: Any, labels: Any = None, weights: Any = 1.0,
                        scope: Optional[str] = None) -> Tensor:
    with name_scope(scope, "absolute_difference", [predictions, labels, weights]) as scope:
        predictions, labels = _float_pair(predictions, labels)
        losses = math_ops.abs(math_ops.subtract(predictions, labels))
        return compute_weighted_loss(losses, weights, scope=scope)


def sigmoid_cross_entropy(logits: Any, multi_class_labels: Any, weights: Any = 1.0,
                          label_smoothing: float = 0, scope: Optional[str] = None) -> Tensor:
    with name_scope(scope, "sigmoid_cross_entropy_loss",
                    [logits, multi_class_labels, weights]) as scope:
        logits.get_shape().assert_is_compatible_with(multi_class_labels.get_shape())
        labels = math_ops.cast(multi_class_labels, logits.dtype)
        if label_smoothing > 0:
            labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
        losses = nn_losses.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits,
                                                             name="xentropy")
        return compute_weighted_loss(losses, weights, scope=scope)


def softmax_cross_entropy(logits: Any, onehot_labels: Any, weights: Any = 1.0,
                          label_smoothing: float = 0, scope: Optional[str] = None) -> Tensor:
    with name_scope(scope, "softmax_cross_entropy_loss",
                    [logits, onehot_labels, weights]) as scope:
        logits.get_shape().assert_is_compatible_with(onehot_labels.get_shape())
        labels = math_ops.cast(onehot_labels, logits.dtype)
        if label_smoothing > 0:
            num_classes = math_ops.cast(array_ops.shape(labels)[1], logits.dtype)
            labels = labels * (1.0 - label_smoothing) + label_smoothing / num_classes
        losses = nn_losses.softmax_cross_entropy_with_logits(labels=labels, logits=logits,
                                                             name="xentropy")
        return compute_weighted_loss(losses, weights, scope=scope)


def sparse_softmax_cross_entropy(logits: Any, labels: Any, weights: Any = 1.0,
                                 scope: Optional[str] = None) -> Tensor:
    with name_scope(scope, "sparse_softmax_cross_entropy_loss",
                    [logits, labels, weights]) as scope:
        labels = array_ops.reshape(labels, shape=[array_ops.shape(labels)[0]])
        losses = nn_losses.sparse_softmax_cross_entropy_with_logits(
            labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope=scope)


def log_loss(predictions: Any, labels: Any = None, weights: Any = 1.0, epsilon: float = 1e-7,
             scope: Optional[str] = None) -> Tensor:
    with name_scope(scope, "log_loss", [predictions, labels, weights]) as scope:
        predictions, labels = _float_pair(predictions, labels)
        losses = -math_ops.multiply(labels, math_ops.log(predictions + epsilon)) - \
            math_ops.multiply(1 - labels, math_ops.log(1 - predictions + epsilon))
        return compute_weighted_loss(losses, weights, scope=scope)


def hinge_loss(logits: Any, labels: Any = None, scope: Optional[str] = None) -> Tensor:
    """The unreduced hinge losses `relu(1 - (2 * labels - 1) * logits)`."""
    with name_scope(scope, "hinge_loss", [logits, labels]):
        logits.get_shape().assert_is_compatible_with(labels.get_shape())
        labels = math_ops.cast(labels, D.float32)
        all_ones = creation_ops.ones_like(labels)
        labels = math_ops.subtract(2 * labels, all_ones)
        return nn_ops.relu(math_ops.subtract(all_ones, math_ops.multiply(labels, logits)))


def mean_squared_error(predictions: Any, labels: Any = None, weights: Any = 1.0,
                       scope: Optional[str] = None) -> Tensor:
    with name_scope(scope, "mean_squared_error", [predictions, labels, weights]) as scope:
        predictions, labels = _float_pair(predictions, labels)
        losses = math_ops.squared_difference(predictions, labels)
        return compute_weighted_loss(losses, weights, scope=scope)


def mean_pairwise_squared_error(predictions: Any, labels: Any = None, weights: Any = 1.0,
                                scope: Optional[str] = None) -> Tensor:
    """Mean of the squared differences between all pairs of (prediction - label) within
    each batch entry."""
    with name_scope(scope, "mean_pairwise_squared_error", [predictions, labels, weights]):
        predictions, labels = _float_pair(predictions, labels)
        weights = math_ops.cast(convert_to_tensor(weights), D.float32)
        diffs = math_ops.subtract(predictions, labels)
        if diffs.get_shape().ndims is None:
            raise ValueError("diffs.get_shape().ndims cannot be None")
        if weights.get_shape().ndims is None:
            raise ValueError("weights.get_shape().ndims cannot be None")
        axis = list(range(1, diffs.get_shape().ndims))
        sum_squares = reduction_ops.reduce_sum(math_ops.square(diffs), axis=axis)
        present = _num_present(diffs, weights, per_batch=True)
        term1 = 2.0 * math_ops.div_no_nan(sum_squares, present, name="value")
        sum_diff = reduction_ops.reduce_sum(diffs, axis=axis)
        term2 = 2.0 * math_ops.div_no_nan(math_ops.square(sum_diff), math_ops.square(present),
                                          name="value")
        loss = _scale_losses(term1 - term2, weights)
        mean_loss = where(reduction_ops.reduce_sum(present) > 0, loss,
                          creation_ops.zeros_like(loss), name="value")
        add_loss(mean_loss)
        return mean_loss


def cosine_distance(predictions: Any, labels: Any = None, axis: Optional[int] = None,
                    weights: Any = 1.0, scope: Optional[str] = None,
                    dim: Optional[int] = None) -> Tensor:
    """1 - sum(predictions * labels) along `axis` (inputs unit-normalized), weighted."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    if axis is None:
        raise ValueError("You must specify 'axis'.")
    with name_scope(scope, "cosine_distance_loss", [predictions, labels, weights]) as scope:
        predictions, labels = _float_pair(predictions, labels)
        losses = 1 - reduction_ops.reduce_sum(math_ops.multiply(predictions, labels),
                                              axis=[axis])
        return compute_weighted_loss(losses, weights, scope=scope)
