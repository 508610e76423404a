"""`tf.losses`: TF1's loss functions, weights, reductions and the LOSSES collection.

Every loss computes per-element losses in float32, multiplies them by `weights` (a
scalar or a tensor broadcastable to the losses, checked by `assert_broadcastable`),
reduces them by `reduction` (`Reduction`: NONE, SUM, MEAN, SUM_OVER_BATCH_SIZE,
SUM_BY_NONZERO_WEIGHTS, the default), casts back to the input dtype and adds the result
to `loss_collection` (GraphKeys.LOSSES). Name scopes and helper ops follow TF's
losses_impl.py, so the returned tensors carry TF's names.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import (GraphKeys, control_dependencies, get_default_graph,
                                       name_scope)
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.losses.util import add_loss
from tf1compat.ops.weights_broadcast_ops import assert_broadcastable, broadcast_weights

__all__ = ["Reduction", "compute_weighted_loss", "absolute_difference", "cosine_distance",
           "hinge_loss", "huber_loss", "log_loss", "mean_pairwise_squared_error",
           "mean_squared_error", "sigmoid_cross_entropy", "softmax_cross_entropy",
           "sparse_softmax_cross_entropy"]

_LOSSES = GraphKeys.LOSSES


class Reduction:
    """Types of loss reduction (`tf.losses.Reduction`)."""
    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls) -> Tuple[str, ...]:
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE,
                cls.SUM_OVER_NONZERO_WEIGHTS, cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key: str) -> None:
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}. Key should be one of "
                             f"{cls.all()}.")


def _cast(x: Any, dtype: D.DType) -> Any:
    from tf1compat.ops.math_ops import cast
    return cast(x, dtype)


def _safe_mean(losses: Tensor, num_present: Tensor) -> Tensor:
    from tf1compat.ops.math_ops import div_no_nan
    from tf1compat.ops.reduction_ops import reduce_sum
    total_loss = reduce_sum(losses)
    return div_no_nan(total_loss, num_present, name="value")


def _num_present(losses: Tensor, weights: Any, per_batch: bool = False) -> Tensor:
    """The number of elements with a nonzero weight (per batch entry with per_batch)."""
    from tf1compat.ops.array_ops import rank
    from tf1compat.ops.creation_ops import ones_like, range as range_, zeros_like
    from tf1compat.ops.indexing_ops import where
    from tf1compat.ops.math_ops import equal
    from tf1compat.ops.reduction_ops import reduce_sum
    if isinstance(weights, float) and weights != 0.0:
        return _num_elements(losses)
    with name_scope(None, "num_present", (losses, weights)) as scope:
        weights = _cast(weights, D.float32)
        present = where(equal(weights, 0.0), zeros_like(weights), ones_like(weights))
        present = broadcast_weights(present, losses)
        if per_batch:
            return reduce_sum(present, axis=range_(1, rank(present)), keepdims=True,
                              name=scope)
        return reduce_sum(present, name=scope)


def _num_elements(losses: Tensor) -> Tensor:
    from tf1compat.ops.array_ops import size
    with name_scope(None, "num_elements", values=[losses]) as scope:
        return _cast(size(losses, name=scope), losses.dtype)


def compute_weighted_loss(losses: Any, weights: Any = 1.0, scope: Optional[str] = None,
                          loss_collection: Any = _LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """`tf.losses.compute_weighted_loss`: weighted, reduced, added to the collection."""
    Reduction.validate(reduction)
    with name_scope(scope, "weighted_loss", (losses, weights)):
        get_default_graph()._last_loss_reduction = reduction
        with control_dependencies((assert_broadcastable(weights, losses),)):
            return _compute_loss(losses, weights, loss_collection, reduction)


def _compute_loss(losses: Any, weights: Any, loss_collection: Any, reduction: str) -> Tensor:
    from tf1compat.ops.creation_ops import ones_like
    from tf1compat.ops.math_ops import multiply
    from tf1compat.ops.reduction_ops import reduce_sum
    losses = convert_to_tensor(losses)
    input_dtype = losses.dtype
    losses = _cast(losses, D.float32)
    weights = _cast(weights, D.float32)
    weighted_losses = multiply(losses, weights)
    if reduction == Reduction.NONE:
        loss = weighted_losses
    else:
        loss = reduce_sum(weighted_losses)
        if reduction == Reduction.MEAN:
            loss = _safe_mean(loss, reduce_sum(ones_like(losses) * weights))
        elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
            loss = _safe_mean(loss, _num_present(losses, weights))
        elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
            loss = _safe_mean(loss, _num_elements(losses))
    loss = _cast(loss, input_dtype)
    add_loss(loss, loss_collection)
    return loss


def _require(value: Any, what: str) -> None:
    if value is None:
        raise ValueError(f"Argument `{what}` must not be None.")


def _float_pair(predictions: Any, labels: Any) -> Tuple[Tensor, Tensor]:
    predictions = _cast(predictions, D.float32)
    labels = _cast(labels, D.float32)
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    return predictions, labels


def absolute_difference(labels: Any, predictions: Any, weights: Any = 1.0,
                        scope: Optional[str] = None, loss_collection: Any = _LOSSES,
                        reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """`tf.losses.absolute_difference`: |predictions - labels|."""
    from tf1compat.ops.math_ops import abs as abs_, subtract
    _require(labels, "labels")
    _require(predictions, "predictions")
    with name_scope(scope, "absolute_difference", (predictions, labels, weights)) as scope:
        predictions, labels = _float_pair(predictions, labels)
        losses = abs_(subtract(predictions, labels))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def cosine_distance(labels: Any, predictions: Any, axis: Any = None, weights: Any = 1.0,
                    scope: Optional[str] = None, loss_collection: Any = _LOSSES,
                    reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS,
                    dim: Any = None) -> Tensor:
    """`tf.losses.cosine_distance`: 1 - sum(predictions * labels, axis) for unit-normalized
    inputs."""
    from tf1compat.ops.math_ops import multiply
    from tf1compat.ops.reduction_ops import reduce_sum
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'dim' and 'axis'.")
        axis = dim
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    _require(labels, "labels")
    _require(predictions, "predictions")
    with name_scope(scope, "cosine_distance_loss", (predictions, labels, weights)) as scope:
        predictions, labels = _float_pair(predictions, labels)
        radial_diffs = multiply(predictions, labels)
        losses = 1 - reduce_sum(radial_diffs, axis=(axis,), keepdims=True)
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def hinge_loss(labels: Any, logits: Any, weights: Any = 1.0, scope: Optional[str] = None,
               loss_collection: Any = _LOSSES,
               reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """`tf.losses.hinge_loss`: max(0, 1 - (2 * labels - 1) * logits), labels in {0, 1}."""
    from tf1compat.ops.creation_ops import ones_like
    from tf1compat.ops.math_ops import multiply, subtract
    from tf1compat.ops.nn_ops import relu
    _require(labels, "labels")
    _require(logits, "logits")
    with name_scope(scope, "hinge_loss", (logits, labels, weights)) as scope:
        logits, labels = _float_pair(logits, labels)
        all_ones = ones_like(labels)
        labels = subtract(2 * labels, all_ones)
        losses = relu(subtract(all_ones, multiply(labels, logits)))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def huber_loss(labels: Any, predictions: Any, weights: Any = 1.0, delta: float = 1.0,
               scope: Optional[str] = None, loss_collection: Any = _LOSSES,
               reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """`tf.losses.huber_loss`: quadratic up to |error| = delta, linear beyond."""
    from tf1compat.ops.math_ops import abs as abs_, add, minimum, multiply, subtract
    _require(labels, "labels")
    _require(predictions, "predictions")
    with name_scope(scope, "huber_loss", (predictions, labels, weights)) as scope:
        predictions, labels = _float_pair(predictions, labels)
        error = subtract(predictions, labels)
        abs_error = abs_(error)
        quadratic = minimum(abs_error, delta)
        linear = subtract(abs_error, quadratic)
        losses = add(multiply(convert_to_tensor(0.5, dtype=quadratic.dtype),
                              multiply(quadratic, quadratic)),
                     multiply(delta, linear))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def log_loss(labels: Any, predictions: Any, weights: Any = 1.0, epsilon: float = 1e-7,
             scope: Optional[str] = None, loss_collection: Any = _LOSSES,
             reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """`tf.losses.log_loss`: -labels * log(p + eps) - (1 - labels) * log(1 - p + eps)."""
    from tf1compat.ops.math_ops import log, multiply
    _require(labels, "labels")
    _require(predictions, "predictions")
    with name_scope(scope, "log_loss", (predictions, labels, weights)) as scope:
        predictions, labels = _float_pair(predictions, labels)
        losses = -multiply(labels, log(predictions + epsilon)) - multiply(
            (1 - labels), log(1 - predictions + epsilon))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def mean_pairwise_squared_error(labels: Any, predictions: Any, weights: Any = 1.0,
                                scope: Optional[str] = None,
                                loss_collection: Any = _LOSSES) -> Tensor:
    """`tf.losses.mean_pairwise_squared_error`: the mean over pairs of elements of each
    batch entry of the squared difference of their prediction and label differences."""
    _require(labels, "labels")
    _require(predictions, "predictions")
    with name_scope(scope, "mean_pairwise_squared_error",
                    (predictions, labels, weights)) as scope:
        weights = _cast(weights, D.float32)
        labels = _cast(labels, D.float32)
        with control_dependencies((assert_broadcastable(weights, labels),)):
            return _pairwise_loss(labels, predictions, weights, loss_collection)


def _pairwise_loss(labels: Tensor, predictions: Any, weights: Tensor,
                   loss_collection: Any) -> Tensor:
    from tf1compat.ops.array_ops import rank
    from tf1compat.ops.creation_ops import range as range_, zeros_like
    from tf1compat.ops.indexing_ops import where
    from tf1compat.ops.math_ops import div_no_nan, maximum, multiply, square, subtract
    from tf1compat.ops.reduction_ops import reduce_sum
    predictions = _cast(predictions, D.float32)
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    diffs = subtract(predictions, labels)
    axis = range_(1, rank(diffs))
    sum_squares_diff_per_batch = reduce_sum(square(diffs), axis=axis, keepdims=True)
    num_present_per_batch = _num_present(diffs, weights, per_batch=True)
    term1 = 2.0 * div_no_nan(sum_squares_diff_per_batch,
                             maximum(num_present_per_batch - 1, 0), name="value")
    sum_diff = reduce_sum(diffs, axis=axis, keepdims=True)
    term2 = 2.0 * div_no_nan(square(sum_diff),
                             maximum(multiply(num_present_per_batch,
                                              num_present_per_batch - 1), 0),
                             name="value")
    weighted_losses = multiply(term1 - term2, weights)
    loss = reduce_sum(weighted_losses)
    mean_loss = where(reduce_sum(num_present_per_batch) > 0, loss, zeros_like(loss),
                      name="value")
    add_loss(mean_loss, loss_collection)
    return mean_loss


def mean_squared_error(labels: Any, predictions: Any, weights: Any = 1.0,
                       scope: Optional[str] = None, loss_collection: Any = _LOSSES,
                       reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """`tf.losses.mean_squared_error`: (predictions - labels)^2."""
    from tf1compat.ops.math_ops import squared_difference
    _require(labels, "labels")
    _require(predictions, "predictions")
    with name_scope(scope, "mean_squared_error", (predictions, labels, weights)) as scope:
        predictions, labels = _float_pair(predictions, labels)
        losses = squared_difference(predictions, labels)
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def sigmoid_cross_entropy(multi_class_labels: Any, logits: Any, weights: Any = 1.0,
                          label_smoothing: float = 0, scope: Optional[str] = None,
                          loss_collection: Any = _LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """`tf.losses.sigmoid_cross_entropy`, labels smoothed towards 1/2."""
    from tf1compat.ops.nn_losses import sigmoid_cross_entropy_with_logits
    _require(multi_class_labels, "multi_class_labels")
    _require(logits, "logits")
    with name_scope(scope, "sigmoid_cross_entropy_loss",
                    (logits, multi_class_labels, weights)) as scope:
        logits = convert_to_tensor(logits)
        multi_class_labels = _cast(multi_class_labels, logits.dtype)
        logits.get_shape().assert_is_compatible_with(multi_class_labels.get_shape())
        if label_smoothing > 0:
            multi_class_labels = (multi_class_labels * (1 - label_smoothing) +
                                  0.5 * label_smoothing)
        losses = sigmoid_cross_entropy_with_logits(labels=multi_class_labels, logits=logits,
                                                   name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def softmax_cross_entropy(onehot_labels: Any, logits: Any, weights: Any = 1.0,
                          label_smoothing: float = 0, scope: Optional[str] = None,
                          loss_collection: Any = _LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """`tf.losses.softmax_cross_entropy`, labels smoothed towards 1/num_classes."""
    from tf1compat.ops.array_ops import shape, stop_gradient
    from tf1compat.ops.nn_losses import softmax_cross_entropy_with_logits_v2
    _require(onehot_labels, "onehot_labels")
    _require(logits, "logits")
    with name_scope(scope, "softmax_cross_entropy_loss",
                    (logits, onehot_labels, weights)) as scope:
        logits = convert_to_tensor(logits)
        onehot_labels = _cast(onehot_labels, logits.dtype)
        logits.get_shape().assert_is_compatible_with(onehot_labels.get_shape())
        if label_smoothing > 0:
            num_classes = _cast(shape(onehot_labels)[-1], logits.dtype)
            smooth_positives = 1.0 - label_smoothing
            smooth_negatives = label_smoothing / num_classes
            onehot_labels = onehot_labels * smooth_positives + smooth_negatives
        onehot_labels = stop_gradient(onehot_labels, name="labels_stop_gradient")
        losses = softmax_cross_entropy_with_logits_v2(labels=onehot_labels, logits=logits,
                                                      name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def _remove_squeezable_dimensions(labels: Any, predictions: Any, weights: Any = None,
                                  expected_rank_diff: int = 0) -> Tuple[Any, Any, Any]:
    from tf1compat.ops.array_ops import rank, squeeze
    from tf1compat.ops.cond import cond
    from tf1compat.ops.math_ops import equal
    labels, predictions = remove_squeezable_dimensions(labels, predictions,
                                                       expected_rank_diff)
    if weights is not None:
        weights = convert_to_tensor(weights)
        labels_rank = labels.get_shape().ndims
        weights_shape = weights.get_shape()
        weights_rank = weights_shape.ndims
        if labels_rank is not None and weights_rank is not None:
            if weights_rank - labels_rank == 1:
                weights = squeeze(weights, [-1])
            return labels, predictions, weights
        rank_diff = rank(weights) - rank(labels)
        if weights_rank is None or (weights_rank > 0 and
                                    weights_shape.dims[-1].is_compatible_with(1)):
            weights = cond(equal(1, rank_diff), lambda: squeeze(weights, [-1]),
                           lambda: weights)
    return labels, predictions, weights


def remove_squeezable_dimensions(labels: Any, predictions: Any, expected_rank_diff: int = 0,
                                 name: Optional[str] = None) -> Tuple[Tensor, Tensor]:
    """Squeezes the last dimension of labels or predictions when their ranks differ from
    `expected_rank_diff` by one (TF's confusion_matrix.remove_squeezable_dimensions)."""
    from tf1compat.ops.array_ops import rank, squeeze
    from tf1compat.ops.cond import cond
    from tf1compat.ops.math_ops import equal
    with name_scope(name, "remove_squeezable_dimensions", [labels, predictions]):
        predictions = convert_to_tensor(predictions)
        labels = convert_to_tensor(labels)
        predictions_shape = predictions.get_shape()
        predictions_rank = predictions_shape.ndims
        labels_shape = labels.get_shape()
        labels_rank = labels_shape.ndims
        if labels_rank is not None and predictions_rank is not None:
            rank_diff = predictions_rank - labels_rank
            if rank_diff == expected_rank_diff + 1 and \
                    predictions_shape.dims[-1].is_compatible_with(1):
                predictions = squeeze(predictions, [-1])
            elif rank_diff == expected_rank_diff - 1 and \
                    labels_shape.dims[-1].is_compatible_with(1):
                labels = squeeze(labels, [-1])
            return labels, predictions
        rank_diff = rank(predictions) - rank(labels)
        if predictions_rank is None or predictions_shape.dims[-1].is_compatible_with(1):
            predictions = cond(equal(expected_rank_diff + 1, rank_diff),
                               lambda: squeeze(predictions, [-1]), lambda: predictions)
        if labels_rank is None or labels_shape.dims[-1].is_compatible_with(1):
            labels = cond(equal(expected_rank_diff - 1, rank_diff),
                          lambda: squeeze(labels, [-1]), lambda: labels)
        return labels, predictions


def sparse_softmax_cross_entropy(labels: Any, logits: Any, weights: Any = 1.0,
                                 scope: Optional[str] = None, loss_collection: Any = _LOSSES,
                                 reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS
                                 ) -> Tensor:
    """`tf.losses.sparse_softmax_cross_entropy`: class-index labels."""
    from tf1compat.ops.nn_losses import sparse_softmax_cross_entropy_with_logits
    _require(labels, "labels")
    _require(logits, "logits")
    with name_scope(scope, "sparse_softmax_cross_entropy_loss",
                    (logits, labels, weights)) as scope:
        labels, logits, weights = _remove_squeezable_dimensions(labels, logits, weights,
                                                                expected_rank_diff=1)
        losses = sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits,
                                                          name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)
