"""`tf.contrib.metrics.auc_with_confidence_intervals` (TF 1.15 contrib/metrics/python/ops/
metric_ops.py): the exact weighted ROC AUC of all predictions seen so far, with an
asymptotically normal confidence interval.

The predictions, labels and weights are kept by three `streaming_concat`s. The AUC comes
from placement values (DeLong & DeLong 1988, computed as in Sun & Xu 2014): sort the
predictions, sum the weights of each distinct prediction per class, and place each
example at the exclusive cumulative weight of the other class plus half of its ties. The
interval is `estimate -/+ z * std_err` with `z` the normal quantile of `(1 - alpha) / 2`,
on the logit scale unless `logit_transformation` is False.
"""

from __future__ import annotations

import collections
from typing import Any, Optional, Sequence, Tuple

from tf1compat.contrib.metrics.streaming_stats import streaming_concat
from tf1compat.distributions.continuous import Normal
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import add_to_collections, control_dependencies
from tf1compat.framework.tensor import Tensor
from tf1compat.metrics.metrics_impl import _remove_squeezable_dimensions
from tf1compat.ops import check_ops, math_ops
from tf1compat.ops.array_ops import reshape, size
from tf1compat.ops.cond import cond
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.ops.creation_ops import ones_like, zeros, zeros_like
from tf1compat.ops.indexing_ops import gather, unique, where
from tf1compat.ops.nn_ops import top_k
from tf1compat.ops.reduction_ops import (cumsum, reduce_max, reduce_min, reduce_sum,
                                         segment_sum)
from tf1compat.ops.transform_ops import reverse
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["auc_with_confidence_intervals"]

_EPSILON = 1e-7

AucData = collections.namedtuple("AucData", ["auc", "lower", "upper"])


def auc_with_confidence_intervals(labels: Any, predictions: Any, weights: Any = None,
                                  alpha: float = 0.95, logit_transformation: bool = True,
                                  metrics_collections: Sequence[str] = (),
                                  updates_collections: Sequence[str] = (),
                                  name: Optional[str] = None) -> Tuple[AucData, Any]:
    """`(AucData(auc, lower, upper), update_op)` over every batch so far; labels must be
    0 or 1 (checked at run time). A batch whose weights sum below 1 is not accumulated;
    the values are 0 until both classes have been seen."""
    if not 0 < alpha < 1:
        raise ValueError("alpha must be between 0 and 1; currently %.02f" % alpha)
    if weights is None:
        weights = ones_like(predictions)
    with variable_scope(name, default_name="auc_with_confidence_intervals",
                        values=[labels, predictions, weights]):
        predictions, labels, weights = _remove_squeezable_dimensions(
            predictions=predictions, labels=labels, weights=weights)
        total_weight = reduce_sum(weights)
        weights = reshape(weights, [-1])
        predictions = reshape(math_ops.cast(predictions, D.float64), [-1])
        labels = reshape(math_ops.cast(labels, D.int64), [-1])
        with control_dependencies([
                check_ops.assert_greater_equal(
                    labels, zeros_like(labels, D.int64),
                    message="labels must be 0 or 1, at least one is <0"),
                check_ops.assert_less_equal(
                    labels, ones_like(labels, D.int64),
                    message="labels must be 0 or 1, at least one is >1")]):
            preds_accum, update_preds = streaming_concat(predictions, name="concat_preds")
            labels_accum, update_labels = streaming_concat(labels, name="concat_labels")
            weights_accum, update_weights = streaming_concat(weights, name="concat_weights")
            update_valid = group(update_labels, update_preds, update_weights)
            both_classes = math_ops.logical_and(math_ops.equal(reduce_min(labels), 0),
                                                math_ops.equal(reduce_max(labels), 1))
            enough_weight = math_ops.greater_equal(total_weight, 1.0)
            is_valid = math_ops.logical_and(both_classes, enough_weight)
            update_op = cond(enough_weight, lambda: update_valid, no_op)
            auc = _placement_auc(labels_accum, preds_accum, weights_accum, alpha,
                                 logit_transformation, is_valid)
            if updates_collections:
                add_to_collections(updates_collections, update_op)
            if metrics_collections:
                add_to_collections(metrics_collections, auc)
            return auc, update_op


def _placement_auc(labels: Tensor, predictions: Tensor, weights: Tensor, alpha: float,
                   logit_transformation: bool, is_valid: Tensor) -> AucData:
    """The AUC and its interval from the accumulated int64 labels, float64 predictions
    and weights (zeros where `is_valid` is false)."""
    count = size(predictions, out_type=D.int32)
    total_0 = reduce_sum(math_ops.cast(1 - labels, weights.dtype) * weights)
    total_1 = reduce_sum(math_ops.cast(labels, weights.dtype) * weights)

    # Ascending order: top_k's descending order reversed.
    ordered_predictions, indices = top_k(predictions, k=count, sorted=True)
    ordered_predictions = reverse(ordered_predictions, axis=zeros(1, D.int32))
    indices = reverse(indices, axis=zeros(1, D.int32))
    ordered_labels = gather(labels, indices)
    ordered_weights = gather(weights, indices)
    _, segments = unique(ordered_predictions)

    labels_true = math_ops.cast(ordered_labels, D.float32)
    labels_false = 1.0 - labels_true
    # An example's placement counts the weight of the *other* class below it.
    totals_for_true = segment_sum(ordered_weights * labels_false, segments)
    totals_for_false = segment_sum(ordered_weights * labels_true, segments)
    below_for_true = cumsum(totals_for_true, exclusive=True)
    below_for_false = cumsum(totals_for_false, exclusive=True)
    placements_true = ((below_for_true + totals_for_true / 2.0) /
                       (reduce_sum(totals_for_true) + _EPSILON))
    placements_false = ((below_for_false + totals_for_false / 2.0) /
                        (reduce_sum(totals_for_false) + _EPSILON))
    placements_true = gather(placements_true, segments)
    placements_false = gather(placements_false, segments)
    placements = placements_true * labels_true + placements_false * labels_false

    placements_0 = placements * math_ops.cast(1 - ordered_labels, weights.dtype)
    weights_0 = ordered_weights * math_ops.cast(1 - ordered_labels, weights.dtype)
    placements_1 = placements * math_ops.cast(ordered_labels, weights.dtype)
    weights_1 = ordered_weights * math_ops.cast(ordered_labels, weights.dtype)
    auc_0 = reduce_sum(weights_0 * (1. - placements_0)) / (total_0 + _EPSILON)
    auc_1 = reduce_sum(weights_1 * placements_1) / (total_1 + _EPSILON)
    auc = where(math_ops.less(total_0, total_1), auc_1, auc_0)

    var_0 = (reduce_sum(weights_0 * math_ops.square(1. - placements_0 - auc_0)) /
             (total_0 - 1. + _EPSILON))
    var_1 = (reduce_sum(weights_1 * math_ops.squared_difference(placements_1, auc_1)) /
             (total_1 - 1. + _EPSILON))
    auc_std_err = math_ops.sqrt(var_0 / (total_0 + _EPSILON) + var_1 / (total_1 + _EPSILON))

    z_value = Normal(loc=0., scale=1.).quantile((1.0 - alpha) / 2.0)
    if logit_transformation:
        estimate = math_ops.log(auc / (1. - auc + _EPSILON))
        std_err = auc_std_err / (auc * (1. - auc + _EPSILON))
        transformed_lower = estimate + z_value * std_err
        transformed_upper = estimate - z_value * std_err
        auc_lower = _inverse_logit(transformed_lower)
        auc_upper = _inverse_logit(transformed_upper)
    else:
        auc_lower = auc + z_value * auc_std_err
        auc_upper = auc - z_value * auc_std_err
    degenerate = math_ops.logical_or(math_ops.equal(auc, ones_like(auc)),
                                     math_ops.equal(auc, zeros_like(auc)))
    lower = where(degenerate, auc, auc_lower)
    upper = where(degenerate, auc, auc_upper)
    trivial = constant(0.0)
    return AucData(*cond(is_valid, lambda: [auc, lower, upper], lambda: [trivial] * 3))


def _inverse_logit(x: Tensor) -> Tensor:
    return 1. / (1. + math_ops.exp(math_ops.negative(x)) + _EPSILON)

