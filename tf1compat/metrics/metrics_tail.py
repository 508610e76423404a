"""`tf.metrics` rest: sensitivity_at_specificity, specificity_at_sensitivity (read off the
thresholded confusion counts of `metrics_impl`), mean_cosine_distance and
mean_relative_error (running means of per-example errors)."""

from __future__ import annotations

from typing import Any, Optional, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import add_to_collections
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.losses.losses_impl import remove_squeezable_dimensions
from tf1compat.metrics.metrics_impl import (_confusion_matrix_at_thresholds, _graph_only,
                                            _remove_squeezable_dimensions, mean)
from tf1compat.ops import math_ops
from tf1compat.ops.creation_ops import zeros_like
from tf1compat.ops.indexing_ops import where
from tf1compat.ops.reduction_ops import argmax, argmin, cumsum, reduce_min, reduce_sum
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["sensitivity_at_specificity", "specificity_at_sensitivity",
           "mean_cosine_distance", "mean_relative_error"]

Pair = Tuple[Tensor, Tensor]
_KEPSILON = 1e-7


def _thresholds(num_thresholds: int, last: float) -> list:
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - _KEPSILON] + inner + [last]


def _at_operating_point(metric: str, target_name: str, target: float, labels: Any,
                        predictions: Any, weights: Any, num_thresholds: int,
                        metrics_collections: Any, updates_collections: Any,
                        name: Optional[str]) -> Pair:
    _graph_only(metric)
    if target < 0 or target > 1:
        verb = "got" if metric == "sensitivity_at_specificity" else "is"
        raise ValueError(f"`{target_name}` must be in the range [0, 1]. Currently, "
                         f"`{target_name}` {verb} {target}.")
    sensitivity_first = metric == "sensitivity_at_specificity"
    with variable_scope(name, metric, (predictions, labels, weights)):
        # TF's last threshold differs between the two metrics (1 + eps / 1 - eps).
        last = 1.0 + _KEPSILON if sensitivity_first else 1.0 - _KEPSILON
        values, update_ops = _confusion_matrix_at_thresholds(
            labels, predictions, _thresholds(num_thresholds, last), weights)

        def compute(tp: Tensor, tn: Tensor, fp: Tensor, fn: Tensor, op_name: str) -> Tensor:
            if sensitivity_first:
                specificities = math_ops.divide(tn, tn + fp + _KEPSILON)
                index = math_ops.cast(argmin(math_ops.abs(specificities - target), 0),
                                      D.int32)
                return math_ops.divide(tp[index], tp[index] + fn[index] + _KEPSILON,
                                       op_name)
            sensitivities = math_ops.divide(tp, tp + fn + _KEPSILON)
            distance = math_ops.abs(sensitivities - target)
            at_min = math_ops.cast(math_ops.equal(distance, reduce_min(distance)), D.int64)
            # the last threshold among those closest to the target
            index = math_ops.cast(argmax(cumsum(at_min), 0), D.int32)
            return math_ops.divide(tn[index], tn[index] + fp[index] + _KEPSILON, op_name)

        value = compute(values["tp"], values["tn"], values["fp"], values["fn"], "value")
        if metrics_collections:
            add_to_collections(metrics_collections, value)
        update_op = compute(update_ops["tp"], update_ops["tn"], update_ops["fp"],
                            update_ops["fn"], "update_op")
        if updates_collections:
            add_to_collections(updates_collections, update_op)
        return value, update_op


def sensitivity_at_specificity(labels: Any, predictions: Any, specificity: float,
                               weights: Any = None, num_thresholds: int = 200,
                               metrics_collections: Any = None,
                               updates_collections: Any = None,
                               name: Optional[str] = None) -> Pair:
    """`tf.metrics.sensitivity_at_specificity`: the recall at the threshold whose
    specificity is closest to `specificity`."""
    return _at_operating_point("sensitivity_at_specificity", "specificity", specificity,
                               labels, predictions, weights, num_thresholds,
                               metrics_collections, updates_collections, name)


def specificity_at_sensitivity(labels: Any, predictions: Any, sensitivity: float,
                               weights: Any = None, num_thresholds: int = 200,
                               metrics_collections: Any = None,
                               updates_collections: Any = None,
                               name: Optional[str] = None) -> Pair:
    """`tf.metrics.specificity_at_sensitivity`: the specificity at the (last) threshold
    whose sensitivity is closest to `sensitivity`."""
    return _at_operating_point("specificity_at_sensitivity", "sensitivity", sensitivity,
                               labels, predictions, weights, num_thresholds,
                               metrics_collections, updates_collections, name)


def mean_cosine_distance(labels: Any, predictions: Any, dim: int, weights: Any = None,
                         metrics_collections: Any = None, updates_collections: Any = None,
                         name: Optional[str] = None) -> Pair:
    """`tf.metrics.mean_cosine_distance`: 1 - the running mean of sum(labels *
    predictions) along `dim` (inputs assumed unit-normalized)."""
    _graph_only("mean_cosine_distance")
    predictions, labels, weights = _remove_squeezable_dimensions(
        predictions=predictions, labels=labels, weights=weights)
    radial_diffs = reduce_sum(math_ops.multiply(predictions, labels), axis=[dim],
                              keepdims=True)
    mean_distance, update_op = mean(radial_diffs, weights, None, None,
                                    name or "mean_cosine_distance")
    mean_distance = math_ops.subtract(1.0, mean_distance)
    update_op = math_ops.subtract(1.0, update_op)
    if metrics_collections:
        add_to_collections(metrics_collections, mean_distance)
    if updates_collections:
        add_to_collections(updates_collections, update_op)
    return mean_distance, update_op


def mean_relative_error(labels: Any, predictions: Any, normalizer: Any, weights: Any = None,
                        metrics_collections: Any = None, updates_collections: Any = None,
                        name: Optional[str] = None) -> Pair:
    """`tf.metrics.mean_relative_error`: the running mean of |labels - predictions| /
    normalizer (0 where the normalizer is 0)."""
    _graph_only("mean_relative_error")
    predictions, labels, weights = _remove_squeezable_dimensions(
        predictions=predictions, labels=labels, weights=weights)
    predictions, normalizer = remove_squeezable_dimensions(predictions,
                                                           convert_to_tensor(normalizer))
    predictions.get_shape().assert_is_compatible_with(normalizer.get_shape())
    relative_errors = where(math_ops.equal(normalizer, 0.0), zeros_like(labels),
                            math_ops.divide(math_ops.abs(labels - predictions), normalizer))
    return mean(relative_errors, weights, metrics_collections, updates_collections,
                name or "mean_relative_error")
