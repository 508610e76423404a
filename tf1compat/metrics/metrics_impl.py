"""`tf.metrics`: TF1's streaming metrics, and `tf.confusion_matrix`.

A streaming metric keeps running totals in *metric variables* (local, non-trainable, in
the LOCAL_VARIABLES and METRIC_VARIABLES collections, zero-initialised) and returns a
pair `(value, update_op)`: running `update_op` adds one batch to the totals and yields
the metric over everything seen so far; `value` reads it without updating. As in TF, each
metric opens a variable scope named after it (`accuracy/total`, `accuracy/count`), the
graph pieces mirror TF's wrappers (so tensor names match TF's), and the metrics are
graph-only: under eager execution they raise RuntimeError, as TF's do.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import (GraphKeys, add_to_collections, control_dependencies,
                                       name_scope)
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, check_ops, math_ops, reduction_ops, state_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import ones, ones_like, zeros
from tf1compat.ops.indexing_ops import scatter_nd, where
from tf1compat.losses.losses_impl import remove_squeezable_dimensions
from tf1compat.ops.matrix_ops import diag_part
from tf1compat.ops.transform_ops import tile, transpose
from tf1compat.ops.weights_broadcast_ops import broadcast_weights
from tf1compat.variables.variable_scope import variable_scope
from tf1compat.variables.variables import (Variable, VariableAggregation,
                                           VariableSynchronization)

__all__ = ["mean", "accuracy", "mean_absolute_error", "mean_squared_error",
           "root_mean_squared_error", "mean_per_class_accuracy", "mean_iou", "mean_tensor",
           "true_positives", "false_positives", "true_negatives", "false_negatives",
           "true_positives_at_thresholds", "false_positives_at_thresholds",
           "true_negatives_at_thresholds", "false_negatives_at_thresholds",
           "precision", "recall", "precision_at_thresholds", "recall_at_thresholds", "auc",
           "percentage_below", "confusion_matrix", "metric_variable"]

Pair = Tuple[Tensor, Tensor]


def _graph_only(name: str) -> None:
    from tf1compat.framework.context import executing_eagerly
    if executing_eagerly():
        raise RuntimeError(f"tf.metrics.{name} is not supported when eager execution is "
                           "enabled.")


def metric_variable(shape: Any, dtype: Any, validate_shape: bool = True,
                    name: Optional[str] = None) -> Variable:
    """A zero-initialised local variable in the METRIC_VARIABLES collection."""
    return Variable(lambda: zeros(shape, dtype), trainable=False,
                    collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES],
                    validate_shape=validate_shape,
                    synchronization=VariableSynchronization.ON_READ,
                    aggregation=VariableAggregation.SUM, name=name)


def _collect(collections: Any, value: Tensor) -> Tensor:
    if collections:
        add_to_collections(collections, value)
    return value


def _remove_squeezable_dimensions(predictions: Any, labels: Any, weights: Any
                                  ) -> Tuple[Tensor, Any, Any]:
    """Squeezes labels/predictions to a common rank and weights to the predictions' rank
    (static ranks; unknown ranks fall back to TF's runtime conditionals)."""
    from tf1compat.ops.cond import cond
    predictions = convert_to_tensor(predictions)
    if labels is not None:
        labels, predictions = remove_squeezable_dimensions(labels, predictions)
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    if weights is None:
        return predictions, labels, None
    weights = convert_to_tensor(weights)
    weights_shape = weights.get_shape()
    weights_rank = weights_shape.ndims
    if weights_rank == 0:
        return predictions, labels, weights
    predictions_rank = predictions.get_shape().ndims
    if predictions_rank is not None and weights_rank is not None:
        if weights_rank - predictions_rank == 1:
            weights = array_ops.squeeze(weights, [-1])
        elif predictions_rank - weights_rank == 1:
            weights = array_ops.expand_dims(weights, [-1])
        return predictions, labels, weights
    weights_rank_tensor = array_ops.rank(weights)
    rank_diff = weights_rank_tensor - array_ops.rank(predictions)
    w = weights

    def maybe_expand() -> Tensor:
        return cond(math_ops.equal(rank_diff, -1),
                    lambda: array_ops.expand_dims(w, [-1]), lambda: w)

    if weights_rank is not None and not weights_shape.dims[-1].is_compatible_with(1):
        maybe_squeeze: Callable[[], Tensor] = lambda: w  # noqa: E731
    else:
        maybe_squeeze = lambda: array_ops.squeeze(w, [-1])  # noqa: E731
    weights = cond(math_ops.equal(weights_rank_tensor, 0), lambda: w,
                   lambda: cond(math_ops.equal(rank_diff, 1), maybe_squeeze, maybe_expand))
    return predictions, labels, weights


# -- means ---------------------------------------------------------------------------------

def mean(values: Any, weights: Any = None, metrics_collections: Any = None,
         updates_collections: Any = None, name: Optional[str] = None) -> Pair:
    """`tf.metrics.mean`: the (weighted) mean of all values seen."""
    _graph_only("mean")
    with variable_scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, D.float32)
        total = metric_variable([], D.float32, name="total")
        count = metric_variable([], D.float32, name="count")
        if weights is None:
            num_values = math_ops.cast(array_ops.size(values), D.float32)
        else:
            values, _, weights = _remove_squeezable_dimensions(values, None, weights)
            weights = broadcast_weights(math_ops.cast(weights, D.float32), values)
            values = math_ops.multiply(values, weights)
            num_values = reduction_ops.reduce_sum(weights)
        update_total_op = state_ops.assign_add(total, reduction_ops.reduce_sum(values))
        with control_dependencies([values]):
            update_count_op = state_ops.assign_add(count, num_values)
        mean_t = _collect(metrics_collections, math_ops.div_no_nan(
            total, math_ops.maximum(count, 0), name="value"))
        update_op = math_ops.div_no_nan(update_total_op, math_ops.maximum(update_count_op, 0),
                                        name="update_op")
        return mean_t, _collect(updates_collections, update_op)


def mean_tensor(values: Any, weights: Any = None, metrics_collections: Any = None,
                updates_collections: Any = None, name: Optional[str] = None) -> Pair:
    """`tf.metrics.mean_tensor`: the element-wise (weighted) mean of all values seen."""
    _graph_only("mean_tensor")
    with variable_scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, D.float32)
        total = metric_variable(values.get_shape(), D.float32, name="total_tensor")
        count = metric_variable(values.get_shape(), D.float32, name="count_tensor")
        num_values = ones_like(values)
        if weights is not None:
            values, _, weights = _remove_squeezable_dimensions(values, None, weights)
            weights = broadcast_weights(math_ops.cast(weights, D.float32), values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.multiply(num_values, weights)
        update_total_op = state_ops.assign_add(total, values)
        with control_dependencies([values]):
            update_count_op = state_ops.assign_add(count, num_values)
        mean_t = _collect(metrics_collections, math_ops.div_no_nan(
            total, math_ops.maximum(count, 0), name="value"))
        update_op = math_ops.div_no_nan(update_total_op, math_ops.maximum(update_count_op, 0),
                                        name="update_op")
        return mean_t, _collect(updates_collections, update_op)


def accuracy(labels: Any, predictions: Any, weights: Any = None,
             metrics_collections: Any = None, updates_collections: Any = None,
             name: Optional[str] = None) -> Pair:
    """`tf.metrics.accuracy`: how often predictions equal labels."""
    _graph_only("accuracy")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    if labels.dtype != predictions.dtype:
        predictions = math_ops.cast(predictions, labels.dtype)
    is_correct = math_ops.cast(math_ops.equal(predictions, labels), D.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections,
                name or "accuracy")


def mean_absolute_error(labels: Any, predictions: Any, weights: Any = None,
                        metrics_collections: Any = None, updates_collections: Any = None,
                        name: Optional[str] = None) -> Pair:
    """`tf.metrics.mean_absolute_error`."""
    _graph_only("mean_absolute_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    errors = math_ops.abs(predictions - labels)
    return mean(errors, weights, metrics_collections, updates_collections,
                name or "mean_absolute_error")


def mean_squared_error(labels: Any, predictions: Any, weights: Any = None,
                       metrics_collections: Any = None, updates_collections: Any = None,
                       name: Optional[str] = None) -> Pair:
    """`tf.metrics.mean_squared_error`."""
    _graph_only("mean_squared_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    squared = math_ops.squared_difference(labels, predictions)
    return mean(squared, weights, metrics_collections, updates_collections,
                name or "mean_squared_error")


def root_mean_squared_error(labels: Any, predictions: Any, weights: Any = None,
                            metrics_collections: Any = None, updates_collections: Any = None,
                            name: Optional[str] = None) -> Pair:
    """`tf.metrics.root_mean_squared_error`."""
    _graph_only("root_mean_squared_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    mse, update_mse = mean_squared_error(labels, predictions, weights, None, None,
                                         name or "root_mean_squared_error")
    rmse = _collect(metrics_collections, math_ops.sqrt(mse))
    return rmse, _collect(updates_collections, math_ops.sqrt(update_mse))


def percentage_below(values: Any, threshold: float, weights: Any = None,
                     metrics_collections: Any = None, updates_collections: Any = None,
                     name: Optional[str] = None) -> Pair:
    """`tf.metrics.percentage_below`: the fraction of values below `threshold`."""
    _graph_only("percentage_below")
    is_below = math_ops.less(values, threshold)
    return mean(math_ops.cast(is_below, D.float32), weights, metrics_collections,
                updates_collections, name or "percentage_below_threshold")


# -- per-class -----------------------------------------------------------------------------

def mean_per_class_accuracy(labels: Any, predictions: Any, num_classes: int,
                            weights: Any = None, metrics_collections: Any = None,
                            updates_collections: Any = None,
                            name: Optional[str] = None) -> Pair:
    """`tf.metrics.mean_per_class_accuracy`: accuracy averaged over classes."""
    _graph_only("mean_per_class_accuracy")
    with variable_scope(name, "mean_accuracy", (predictions, labels, weights)):
        labels = math_ops.cast(labels, D.int64)
        predictions = convert_to_tensor(predictions)
        if labels.get_shape().ndims > 1:
            labels = array_ops.reshape(labels, [-1])
        if predictions.get_shape().ndims > 1:
            predictions = array_ops.reshape(predictions, [-1])
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        total = metric_variable([num_classes], D.float32, name="total")
        count = metric_variable([num_classes], D.float32, name="count")
        ones_t = ones([array_ops.size(labels)], D.float32)
        if labels.dtype != predictions.dtype:
            predictions = math_ops.cast(predictions, labels.dtype)
        is_correct = math_ops.cast(math_ops.equal(predictions, labels), D.float32)
        if weights is not None:
            weights = convert_to_tensor(weights)
            if weights.get_shape().ndims > 1:
                weights = array_ops.reshape(weights, [-1])
            weights = math_ops.cast(weights, D.float32)
            is_correct *= weights
            ones_t *= weights
        update_total_op = state_ops.scatter_add(total, labels, ones_t)
        update_count_op = state_ops.scatter_add(count, labels, is_correct)
        per_class = math_ops.div_no_nan(count, math_ops.maximum(total, 0))
        value = _collect(metrics_collections,
                         reduction_ops.reduce_mean(per_class, name="mean_accuracy"))
        update_op = math_ops.div_no_nan(update_count_op, math_ops.maximum(update_total_op, 0),
                                        name="update_op")
        return value, _collect(updates_collections, update_op)


def confusion_matrix(labels: Any, predictions: Any, num_classes: Any = None,
                     dtype: Any = D.int32, name: Optional[str] = None,
                     weights: Any = None) -> Tensor:
    """`tf.confusion_matrix`: counts of (label, prediction) pairs, labels along rows."""
    with name_scope(name, "confusion_matrix",
                    (predictions, labels, num_classes, weights)) as name:
        labels, predictions = remove_squeezable_dimensions(
            convert_to_tensor(labels, name="labels"),
            convert_to_tensor(predictions, name="predictions"))
        predictions = math_ops.cast(predictions, D.int64)
        labels = math_ops.cast(labels, D.int64)
        labels = with_dependencies([check_ops.assert_non_negative(
            labels, message="`labels` contains negative values")], labels)
        predictions = with_dependencies([check_ops.assert_non_negative(
            predictions, message="`predictions` contains negative values")], predictions)
        if num_classes is None:
            num_classes = math_ops.maximum(reduction_ops.reduce_max(predictions),
                                           reduction_ops.reduce_max(labels)) + 1
        else:
            num_classes_int64 = math_ops.cast(num_classes, D.int64)
            labels = with_dependencies([check_ops.assert_less(
                labels, num_classes_int64, message="`labels` out of bound")], labels)
            predictions = with_dependencies([check_ops.assert_less(
                predictions, num_classes_int64, message="`predictions` out of bound")],
                predictions)
        dtype = D.as_dtype(dtype)
        if weights is not None:
            weights = convert_to_tensor(weights, name="weights")
            predictions.get_shape().assert_is_compatible_with(weights.get_shape())
            weights = math_ops.cast(weights, dtype)
        shape = array_ops.stack([num_classes, num_classes])
        indices = array_ops.stack([labels, predictions], axis=1)
        values = ones_like(predictions, dtype) if weights is None else weights
        return scatter_nd(indices=indices, updates=values,
                          shape=math_ops.cast(shape, D.int64))


def _streaming_confusion_matrix(labels: Any, predictions: Any, num_classes: int,
                                weights: Any = None) -> Pair:
    total_cm = metric_variable([num_classes, num_classes], D.float64,
                               name="total_confusion_matrix")
    predictions = math_ops.cast(predictions, D.int64)
    labels = math_ops.cast(labels, D.int64)
    num_classes = math_ops.cast(num_classes, D.int64)
    if predictions.get_shape().ndims > 1:
        predictions = array_ops.reshape(predictions, [-1])
    if labels.get_shape().ndims > 1:
        labels = array_ops.reshape(labels, [-1])
    if weights is not None:
        weights = convert_to_tensor(weights)
        if weights.get_shape().ndims > 1:
            weights = array_ops.reshape(weights, [-1])
    current_cm = confusion_matrix(labels, predictions, num_classes, weights=weights,
                                  dtype=D.float64)
    return total_cm, state_ops.assign_add(total_cm, current_cm)


def mean_iou(labels: Any, predictions: Any, num_classes: int, weights: Any = None,
             metrics_collections: Any = None, updates_collections: Any = None,
             name: Optional[str] = None) -> Pair:
    """`tf.metrics.mean_iou`: mean intersection-over-union over the classes present.
    The update op returns the updated confusion matrix, as TF's."""
    _graph_only("mean_iou")
    with variable_scope(name, "mean_iou", (predictions, labels, weights)):
        predictions = convert_to_tensor(predictions)
        labels = convert_to_tensor(labels)
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        total_cm, update_op = _streaming_confusion_matrix(labels, predictions, num_classes,
                                                          weights)
        sum_over_row = math_ops.cast(reduction_ops.reduce_sum(total_cm, 0), D.float32)
        sum_over_col = math_ops.cast(reduction_ops.reduce_sum(total_cm, 1), D.float32)
        cm_diag = math_ops.cast(diag_part(total_cm), D.float32)
        denominator = sum_over_row + sum_over_col - cm_diag
        num_valid = reduction_ops.reduce_sum(
            math_ops.cast(math_ops.not_equal(denominator, 0), dtype=D.float32))
        denominator = where(math_ops.greater(denominator, 0), denominator,
                            ones_like(denominator))
        iou = math_ops.divide(cm_diag, denominator)
        result = where(math_ops.greater(num_valid, 0),
                       reduction_ops.reduce_sum(iou, name="mean_iou") / num_valid, 0)
        return _collect(metrics_collections, result), _collect(updates_collections, update_op)


# -- counts, precision and recall ------------------------------------------------------------

def _count_condition(values: Tensor, weights: Any, metrics_collections: Any,
                     updates_collections: Any) -> Pair:
    check_ops.assert_type(values, D.bool)
    count = metric_variable([], D.float32, name="count")
    values = math_ops.cast(values, D.float32)
    if weights is not None:
        weights = math_ops.cast(weights, D.float32)
        values = math_ops.multiply(values, weights)
    # TF reads the variable through the distribution strategy: an Identity.
    value_tensor = _collect(metrics_collections, array_ops.identity(count))
    update_op = state_ops.assign_add(count, reduction_ops.reduce_sum(values))
    return value_tensor, _collect(updates_collections, update_op)


def _counter(metric: str, label_value: bool, prediction_value: bool) -> Callable[..., Pair]:
    def count_fn(labels: Any, predictions: Any, weights: Any = None,
                 metrics_collections: Any = None, updates_collections: Any = None,
                 name: Optional[str] = None) -> Pair:
        _graph_only(metric)
        with variable_scope(name, metric, (predictions, labels, weights)):
            predictions, labels, weights = _remove_squeezable_dimensions(
                math_ops.cast(predictions, dtype=D.bool),
                math_ops.cast(labels, dtype=D.bool), weights)
            condition = math_ops.logical_and(math_ops.equal(labels, label_value),
                                             math_ops.equal(predictions, prediction_value))
            return _count_condition(condition, weights, metrics_collections,
                                    updates_collections)
    count_fn.__name__ = metric
    count_fn.__doc__ = f"`tf.metrics.{metric}`: the (weighted) number of {metric}."
    return count_fn


true_positives = _counter("true_positives", True, True)
false_positives = _counter("false_positives", False, True)
true_negatives = _counter("true_negatives", False, False)
false_negatives = _counter("false_negatives", True, False)


def _ratio(metric: str, other: Callable[..., Pair]) -> Callable[..., Pair]:
    """precision = tp / (tp + fp), recall = tp / (tp + fn); 0 when nothing was counted."""
    def ratio_fn(labels: Any, predictions: Any, weights: Any = None,
                 metrics_collections: Any = None, updates_collections: Any = None,
                 name: Optional[str] = None) -> Pair:
        _graph_only(metric)
        with variable_scope(name, metric, (predictions, labels, weights)):
            predictions, labels, weights = _remove_squeezable_dimensions(
                math_ops.cast(predictions, dtype=D.bool),
                math_ops.cast(labels, dtype=D.bool), weights)
            true_p, true_p_update = true_positives(labels, predictions, weights)
            other_v, other_update = other(labels, predictions, weights)

            def compute(tp: Tensor, o: Tensor, op_name: str) -> Tensor:
                return where(math_ops.greater(tp + o, 0), math_ops.divide(tp, tp + o), 0,
                             op_name)
            value = _collect(metrics_collections, compute(true_p, other_v, "value"))
            update = compute(true_p_update, other_update, "update_op")
            return value, _collect(updates_collections, update)
    ratio_fn.__name__ = metric
    ratio_fn.__doc__ = f"`tf.metrics.{metric}` of boolean-castable labels and predictions."
    return ratio_fn


precision = _ratio("precision", false_positives)
recall = _ratio("recall", false_negatives)


# -- thresholded metrics ---------------------------------------------------------------------

def _confusion_matrix_at_thresholds(labels: Any, predictions: Any, thresholds: Sequence[float],
                                    weights: Any = None, includes: Optional[Sequence[str]] = None
                                    ) -> Tuple[Dict[str, Any], Dict[str, Tensor]]:
    all_includes = ("tp", "fn", "tn", "fp")
    includes = all_includes if includes is None else includes
    for include in includes:
        if include not in all_includes:
            raise ValueError(f"Invalid key: {include}")
    predictions = convert_to_tensor(predictions)
    with control_dependencies([
            check_ops.assert_greater_equal(predictions, math_ops.cast(0.0, predictions.dtype),
                                           message="predictions must be in [0, 1]"),
            check_ops.assert_less_equal(predictions, math_ops.cast(1.0, predictions.dtype),
                                        message="predictions must be in [0, 1]")]):
        predictions, labels, weights = _remove_squeezable_dimensions(
            math_ops.cast(predictions, D.float32), math_ops.cast(labels, dtype=D.bool),
            weights)
    num_thresholds = len(thresholds)
    predictions_2d = array_ops.reshape(predictions, [-1, 1])
    labels_2d = array_ops.reshape(math_ops.cast(labels, dtype=D.bool), [1, -1])
    num_predictions = predictions_2d.get_shape().as_list()[0]
    if num_predictions is None:
        num_predictions = array_ops.shape(predictions_2d)[0]
    thresh_tiled = tile(array_ops.expand_dims(constant(list(thresholds)), [1]),
                        array_ops.stack([1, num_predictions]))
    pred_is_pos = math_ops.greater(tile(transpose(predictions_2d), [num_thresholds, 1]),
                                   thresh_tiled)
    pred_is_neg = math_ops.logical_not(pred_is_pos) if ("fn" in includes or
                                                        "tn" in includes) else None
    label_is_pos = tile(labels_2d, [num_thresholds, 1])
    label_is_neg = math_ops.logical_not(label_is_pos) if ("fp" in includes or
                                                          "tn" in includes) else None
    weights_tiled = None
    if weights is not None:
        weights = broadcast_weights(math_ops.cast(weights, D.float32), predictions)
        weights_tiled = tile(array_ops.reshape(weights, [1, -1]), [num_thresholds, 1])
        thresh_tiled.get_shape().assert_is_compatible_with(weights_tiled.get_shape())
    parts = {"tp": ("true_positives", label_is_pos, pred_is_pos),
             "fn": ("false_negatives", label_is_pos, pred_is_neg),
             "tn": ("true_negatives", label_is_neg, pred_is_neg),
             "fp": ("false_positives", label_is_neg, pred_is_pos)}
    values: Dict[str, Any] = {}
    update_ops: Dict[str, Tensor] = {}
    for key in all_includes:          # TF's creation order: tp, fn, tn, fp
        if key not in includes:
            continue
        var_name, label_side, pred_side = parts[key]
        var = metric_variable([num_thresholds], D.float32, name=var_name)
        hits = math_ops.cast(math_ops.logical_and(label_side, pred_side), D.float32)
        if weights_tiled is not None:
            hits *= weights_tiled
        update_ops[key] = state_ops.assign_add(var, reduction_ops.reduce_sum(hits, 1))
        values[key] = var
    return values, update_ops


def _count_at_thresholds(metric: str, key: str) -> Callable[..., Pair]:
    def count_fn(labels: Any, predictions: Any, thresholds: Sequence[float],
                 weights: Any = None, metrics_collections: Any = None,
                 updates_collections: Any = None, name: Optional[str] = None) -> Pair:
        _graph_only(metric)
        # TF's default scope drops "_at_thresholds": true_positives/true_positives.
        with variable_scope(name, metric[:-len("_at_thresholds")],
                            (predictions, labels, weights)):
            values, update_ops = _confusion_matrix_at_thresholds(
                labels, predictions, thresholds, weights=weights, includes=(key,))
            value = _collect(metrics_collections, array_ops.identity(values[key]))
            return value, _collect(updates_collections, update_ops[key])
    count_fn.__name__ = metric
    count_fn.__doc__ = f"`tf.metrics.{metric}`: counts at each threshold."
    return count_fn


true_positives_at_thresholds = _count_at_thresholds("true_positives_at_thresholds", "tp")
false_positives_at_thresholds = _count_at_thresholds("false_positives_at_thresholds", "fp")
true_negatives_at_thresholds = _count_at_thresholds("true_negatives_at_thresholds", "tn")
false_negatives_at_thresholds = _count_at_thresholds("false_negatives_at_thresholds", "fn")


def _ratio_at_thresholds(metric: str, other: str) -> Callable[..., Pair]:
    def ratio_fn(labels: Any, predictions: Any, thresholds: Sequence[float],
                 weights: Any = None, metrics_collections: Any = None,
                 updates_collections: Any = None, name: Optional[str] = None) -> Pair:
        _graph_only(metric)
        short = metric.split("_")[0]
        with variable_scope(name, metric, (predictions, labels, weights)):
            values, update_ops = _confusion_matrix_at_thresholds(
                labels, predictions, thresholds, weights, includes=("tp", other))

            def compute(tp: Tensor, o: Tensor, suffix: str) -> Tensor:
                return math_ops.divide(tp, 1e-7 + tp + o, name=f"{short}_{suffix}")
            value = _collect(metrics_collections,
                             compute(values["tp"], values[other], "value"))
            update = compute(update_ops["tp"], update_ops[other], "update_op")
            return value, _collect(updates_collections, update)
    ratio_fn.__name__ = metric
    ratio_fn.__doc__ = f"`tf.metrics.{metric}`: one value per threshold."
    return ratio_fn


precision_at_thresholds = _ratio_at_thresholds("precision_at_thresholds", "fp")
recall_at_thresholds = _ratio_at_thresholds("recall_at_thresholds", "fn")


def auc(labels: Any, predictions: Any, weights: Any = None, num_thresholds: int = 200,
        metrics_collections: Any = None, updates_collections: Any = None,
        curve: str = "ROC", name: Optional[str] = None,
        summation_method: str = "trapezoidal", thresholds: Any = None) -> Pair:
    """`tf.metrics.auc`: area under the ROC or PR curve from thresholded counts."""
    _graph_only("auc")
    with variable_scope(name, "auc", (labels, predictions, weights)):
        if curve not in ("ROC", "PR"):
            raise ValueError(f"Curve must be either ROC or PR. Curve {curve} is unknown.")
        kepsilon = 1e-7
        if thresholds is not None:
            thresholds = sorted(thresholds)
            num_thresholds = len(thresholds) + 2
        else:
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1)
                          for i in range(num_thresholds - 2)]
        thresholds = [0.0 - kepsilon] + list(thresholds) + [1.0 + kepsilon]
        values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds,
                                                             weights)
        epsilon = 1.0e-6
        n = num_thresholds

        def interpolate_pr_auc(tp: Tensor, fp: Tensor, fn: Tensor) -> Tensor:
            dtp = tp[:n - 1] - tp[1:]
            p = tp + fp
            prec_slope = math_ops.div_no_nan(dtp, math_ops.maximum(p[:n - 1] - p[1:], 0),
                                             name="prec_slope")
            intercept = tp[1:] - math_ops.multiply(prec_slope, p[1:])
            safe_p_ratio = where(
                math_ops.logical_and(p[:n - 1] > 0, p[1:] > 0),
                math_ops.div_no_nan(p[:n - 1], math_ops.maximum(p[1:], 0),
                                    name="recall_relative_ratio"), ones_like(p[1:]))
            return reduction_ops.reduce_sum(
                math_ops.div_no_nan(prec_slope * (dtp + intercept * math_ops.log(safe_p_ratio)),
                                    math_ops.maximum(tp[1:] + fn[1:], 0),
                                    name="pr_auc_increment"),
                name="interpolate_pr_auc")

        def compute_auc(tp: Tensor, fn: Tensor, tn: Tensor, fp: Tensor, op_name: str
                        ) -> Tensor:
            if curve == "PR" and summation_method == "careful_interpolation":
                return interpolate_pr_auc(tp, fp, fn)
            rec = math_ops.divide(tp + epsilon, tp + fn + epsilon)
            if curve == "ROC":
                x, y = math_ops.divide(fp, fp + tn + epsilon), rec
            else:
                x, y = rec, math_ops.divide(tp + epsilon, tp + fp + epsilon)
            if summation_method in ("trapezoidal", "careful_interpolation"):
                heights = (y[:n - 1] + y[1:]) / 2.
            elif summation_method == "minoring":
                heights = math_ops.minimum(y[:n - 1], y[1:])
            elif summation_method == "majoring":
                heights = math_ops.maximum(y[:n - 1], y[1:])
            else:
                raise ValueError(f"Invalid summation_method: {summation_method} "
                                 "summation_method should be 'trapezoidal', "
                                 "'careful_interpolation', 'minoring', or 'majoring'.")
            return reduction_ops.reduce_sum(math_ops.multiply(x[:n - 1] - x[1:], heights),
                                            name=op_name)

        value = _collect(metrics_collections, compute_auc(
            values["tp"], values["fn"], values["tn"], values["fp"], "value"))
        update_op = compute_auc(update_ops["tp"], update_ops["fn"], update_ops["tn"],
                                update_ops["fp"], "update_op")
        return value, _collect(updates_collections, update_op)
