"""The metrics only `tf.contrib.metrics` has (TF 1.15's formulas; local variables in
LOCAL_VARIABLES and METRIC_VARIABLES, as `tf.metrics` creates them):

- streaming_covariance / streaming_pearson_correlation: the unbiased (co)variance merged
  batch by batch (C_AB = C_A + C_B + (mean_xA - mean_xB)(mean_yA - mean_yB) n_A n_B / n_AB),
  weights as frequency weights; NaN until more than one example was seen.
- streaming_concat: values concatenated along an axis across batches.
- streaming_curve_points: the ROC or PR curve at `num_thresholds` thresholds.
- streaming_false_positive_rate / streaming_false_negative_rate (and `_at_thresholds`).
- count, aggregate_metrics, aggregate_metric_map.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from tf1compat import metrics as core
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import add_to_collections, control_dependencies
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.metrics.metrics_impl import (_confusion_matrix_at_thresholds, _graph_only,
                                            _remove_squeezable_dimensions, metric_variable)
from tf1compat.ops import array_ops, math_ops, state_ops
from tf1compat.ops.indexing_ops import where
from tf1compat.ops.reduction_ops import reduce_sum
from tf1compat.ops.weights_broadcast_ops import broadcast_weights
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["streaming_covariance", "streaming_pearson_correlation", "streaming_concat",
           "streaming_curve_points", "streaming_false_positive_rate",
           "streaming_false_negative_rate", "streaming_false_positive_rate_at_thresholds",
           "streaming_false_negative_rate_at_thresholds", "count", "aggregate_metrics",
           "aggregate_metric_map", "curve_thresholds"]

Pair = Tuple[Tensor, Tensor]
_EPSILON = 1e-7


def _collect(metrics_collections: Any, value: Tensor, updates_collections: Any,
             update: Tensor) -> Pair:
    if metrics_collections:
        add_to_collections(metrics_collections, value)
    if updates_collections:
        add_to_collections(updates_collections, update)
    return value, update


def _safe_div(numerator: Tensor, denominator: Tensor, name: str) -> Tensor:
    """numerator / denominator, 0 where denominator <= 0."""
    return where(math_ops.greater(denominator, 0), math_ops.truediv(numerator, denominator),
                 0, name=name)


def streaming_covariance(predictions: Any, labels: Any, weights: Any = None,
                         metrics_collections: Any = None, updates_collections: Any = None,
                         name: Optional[str] = None) -> Pair:
    """The unbiased sample covariance comoment / (count - 1) of predictions and labels
    (local variables count, mean_prediction, mean_label, comoment)."""
    _graph_only("streaming_covariance")
    with variable_scope(name, "covariance", (predictions, labels, weights)):
        predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels,
                                                                     weights)
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        count_ = metric_variable([], D.float32, name="count")
        mean_prediction = metric_variable([], D.float32, name="mean_prediction")
        mean_label = metric_variable([], D.float32, name="mean_label")
        comoment = metric_variable([], D.float32, name="comoment")   # C_A
        if weights is None:
            batch_count = math_ops.cast(array_ops.size(labels), D.float32)   # n_B
            weighted_predictions, weighted_labels = predictions, labels
        else:
            weights = broadcast_weights(weights, labels)
            batch_count = reduce_sum(weights)
            weighted_predictions = math_ops.multiply(predictions, weights)
            weighted_labels = math_ops.multiply(labels, weights)
        update_count = state_ops.assign_add(count_, batch_count)          # n_AB
        prev_count = update_count - batch_count                           # n_A
        # The means move by (batch mean - mean) * n_B / n_AB.
        batch_mean_prediction = _safe_div(reduce_sum(weighted_predictions), batch_count,
                                          "batch_mean_prediction")
        delta_mean_prediction = _safe_div(
            (batch_mean_prediction - mean_prediction) * batch_count, update_count,
            "delta_mean_prediction")
        update_mean_prediction = state_ops.assign_add(mean_prediction, delta_mean_prediction)
        prev_mean_prediction = update_mean_prediction - delta_mean_prediction
        batch_mean_label = _safe_div(reduce_sum(weighted_labels), batch_count,
                                     "batch_mean_label")
        delta_mean_label = _safe_div((batch_mean_label - mean_label) * batch_count,
                                     update_count, "delta_mean_label")
        update_mean_label = state_ops.assign_add(mean_label, delta_mean_label)
        prev_mean_label = update_mean_label - delta_mean_label
        coresiduals = (predictions - batch_mean_prediction) * (labels - batch_mean_label)
        batch_comoment = reduce_sum(coresiduals if weights is None else coresiduals * weights)
        delta_comoment = (batch_comoment +
                          (prev_mean_prediction - batch_mean_prediction) *
                          (prev_mean_label - batch_mean_label) *
                          (prev_count * batch_count / update_count))
        update_comoment = state_ops.assign_add(comoment, delta_comoment)
        covariance = where(math_ops.less_equal(count_, 1.0), float("nan"),
                           math_ops.truediv(comoment, count_ - 1), name="covariance")
        with control_dependencies([update_comoment]):
            update_op = where(math_ops.less_equal(count_, 1.0), float("nan"),
                              math_ops.truediv(comoment, count_ - 1), name="update_op")
    return _collect(metrics_collections, covariance, updates_collections, update_op)


def streaming_pearson_correlation(predictions: Any, labels: Any, weights: Any = None,
                                  metrics_collections: Any = None,
                                  updates_collections: Any = None,
                                  name: Optional[str] = None) -> Pair:
    """cov(predictions, labels) / sqrt(var(predictions) var(labels)), from three
    streaming covariances (scopes covariance, variance_predictions, variance_labels)."""
    _graph_only("streaming_pearson_correlation")
    with variable_scope(name, "pearson_r", (predictions, labels, weights)):
        predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels,
                                                                     weights)
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        if weights is not None:
            weights = broadcast_weights(weights, labels)
        cov, update_cov = streaming_covariance(predictions, labels, weights=weights,
                                               name="covariance")
        var_predictions, update_var_predictions = streaming_covariance(
            predictions, predictions, weights=weights, name="variance_predictions")
        var_labels, update_var_labels = streaming_covariance(
            labels, labels, weights=weights, name="variance_labels")
        pearson_r = math_ops.truediv(
            cov, math_ops.multiply(math_ops.sqrt(var_predictions), math_ops.sqrt(var_labels)),
            name="pearson_r")
        update_op = math_ops.truediv(
            update_cov, math_ops.multiply(math_ops.sqrt(update_var_predictions),
                                          math_ops.sqrt(update_var_labels)),
            name="update_op")
    return _collect(metrics_collections, pearson_r, updates_collections, update_op)


def streaming_concat(values: Any, axis: int = 0, max_size: Optional[int] = None,
                     metrics_collections: Any = None, updates_collections: Any = None,
                     name: Optional[str] = None) -> Pair:
    """`values` of every batch concatenated along `axis` (at most `max_size` along it:
    later batches are dropped). The update op returns the concatenated length (int32).

    The rank and every dimension but `axis` must be known when the graph is built.
    """
    _graph_only("streaming_concat")
    from tf1compat.ops.array_ops import concat
    from tf1compat.ops.transform_ops import transpose
    with variable_scope(name, "streaming_concat", (values,)):
        values = convert_to_tensor(values)
        values_shape = values.get_shape()
        if values_shape.dims is None:
            raise ValueError("`values` must have known statically known rank")
        ndim = len(values_shape)
        if axis < 0:
            axis += ndim
        if not 0 <= axis < ndim:
            raise ValueError(f"axis = {axis!r} not in [0, {ndim!r})")
        fixed_shape = [dim.value for n, dim in enumerate(values_shape.dims) if n != axis]
        if any(value is None for value in fixed_shape):
            raise ValueError("all dimensions of `values` other than the dimension to "
                             "concatenate along must have statically known size")
        # The concatenation axis is moved to the front of the stored array, as in TF.
        init_size = 0 if max_size is None else max_size
        array = metric_variable([init_size] + fixed_shape, values.dtype,
                                validate_shape=False, name="array")
        size = metric_variable([], D.int32, name="size")
        size_now = array_ops.identity(size)
        perm = [0 if n == axis else n + 1 if n < axis else n for n in range(ndim)]
        valid_array = array_ops.identity(array)[:size_now]
        valid_array.set_shape([None] + fixed_shape)
        value = transpose(valid_array, perm, name="concat")
        values_size = array_ops.shape(values)[axis]
        batch_size = (values_size if max_size is None
                      else math_ops.minimum(values_size, max_size - size_now))
        batch_values = transpose(values, [axis] + [n for n in range(ndim) if n != axis])
        new_size = size_now + batch_size
        stored = array_ops.identity(array)
        # Rows past new_size keep the array's capacity when max_size is set.
        append = state_ops.assign(array, concat([stored[:size_now], batch_values[:batch_size],
                                                 stored[new_size:]], 0),
                                  validate_shape=False)
        with control_dependencies([append]):
            update_op = state_ops.assign(size, new_size)
    return _collect(metrics_collections, value, updates_collections, update_op)


def curve_thresholds(num_thresholds: int) -> List[float]:
    """TF's evenly spaced thresholds with the ends nudged past 0 and 1."""
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - _EPSILON] + inner + [1.0 + _EPSILON]


def streaming_curve_points(labels: Any = None, predictions: Any = None, weights: Any = None,
                           num_thresholds: int = 200, metrics_collections: Any = None,
                           updates_collections: Any = None, curve: str = "ROC",
                           name: Optional[str] = None) -> Pair:
    """The [num_thresholds, 2] points of the ROC curve (false positive rate, recall) or
    the PR curve (recall, precision); the update op runs the four counts' updates."""
    _graph_only("streaming_curve_points")
    from tf1compat.ops.control_flow_ops import group
    with variable_scope(name, "curve_points", (labels, predictions, weights)):
        if curve != "ROC" and curve != "PR":
            raise ValueError(f"curve must be either ROC or PR, {curve} unknown")
        values, update_ops = _confusion_matrix_at_thresholds(
            labels=labels, predictions=predictions,
            thresholds=curve_thresholds(num_thresholds), weights=weights)
        epsilon = 1.0e-6          # keeps empty counts from dividing by zero
        tp, fn, tn, fp = values["tp"], values["fn"], values["tn"], values["fp"]
        rec = math_ops.divide(tp + epsilon, tp + fn + epsilon)
        if curve == "ROC":
            xs, ys = math_ops.divide(fp, fp + tn + epsilon), rec
        else:
            xs, ys = rec, math_ops.divide(tp + epsilon, tp + fp + epsilon)
        points = array_ops.stack([xs, ys], axis=1)
        update_op = group(*update_ops.values())
    return _collect(metrics_collections, points, updates_collections, update_op)


def _rate(metric: str, numerator: Any, other: Any) -> Any:
    """streaming_false_positive_rate (fp / (fp + tn)) / _negative_ (fn / (fn + tp))."""
    def rate_fn(predictions: Any, labels: Any, weights: Any = None,
                metrics_collections: Any = None, updates_collections: Any = None,
                name: Optional[str] = None) -> Pair:
        _graph_only(f"streaming_{metric}")
        with variable_scope(name, metric, (predictions, labels, weights)):
            predictions, labels, weights = _remove_squeezable_dimensions(
                math_ops.cast(predictions, D.bool), math_ops.cast(labels, D.bool), weights)
            num, num_update = numerator(labels=labels, predictions=predictions,
                                        weights=weights)
            rest, rest_update = other(labels=labels, predictions=predictions,
                                      weights=weights)

            def compute(a: Tensor, b: Tensor, op_name: str) -> Tensor:
                return where(math_ops.greater(a + b, 0), math_ops.divide(a, a + b), 0,
                             op_name)
            value = compute(num, rest, "value")
            update_op = compute(num_update, rest_update, "update_op")
        return _collect(metrics_collections, value, updates_collections, update_op)
    rate_fn.__name__ = rate_fn.__qualname__ = f"streaming_{metric}"
    rate_fn.__doc__ = f"The streaming {metric.replace('_', ' ')} of boolean predictions."
    return rate_fn


streaming_false_positive_rate = _rate("false_positive_rate", core.false_positives,
                                      core.true_negatives)
streaming_false_negative_rate = _rate("false_negative_rate", core.false_negatives,
                                      core.true_positives)


def _rate_at_thresholds(metric: str, numerator: str, other: str, short: str) -> Any:
    def rate_fn(predictions: Any, labels: Any, thresholds: Sequence[float],
                weights: Any = None, metrics_collections: Any = None,
                updates_collections: Any = None, name: Optional[str] = None) -> Pair:
        _graph_only(f"streaming_{metric}_at_thresholds")
        with variable_scope(name, f"{metric}_at_thresholds", (predictions, labels, weights)):
            values, update_ops = _confusion_matrix_at_thresholds(
                labels, predictions, thresholds, weights, includes=(numerator, other))

            def compute(a: Tensor, b: Tensor, op_name: str) -> Tensor:
                return math_ops.divide(a, _EPSILON + a + b, name=f"{short}_{op_name}")
            value = compute(values[numerator], values[other], "value")
            update_op = compute(update_ops[numerator], update_ops[other], "update_op")
        return _collect(metrics_collections, value, updates_collections, update_op)
    rate_fn.__name__ = rate_fn.__qualname__ = f"streaming_{metric}_at_thresholds"
    rate_fn.__doc__ = f"The streaming {metric.replace('_', ' ')} at each threshold."
    return rate_fn


streaming_false_positive_rate_at_thresholds = _rate_at_thresholds(
    "false_positive_rate", "fp", "tn", "fpr")
streaming_false_negative_rate_at_thresholds = _rate_at_thresholds(
    "false_negative_rate", "fn", "tp", "fnr")


def count(values: Any, weights: Any = None, metrics_collections: Any = None,
          updates_collections: Any = None, name: Optional[str] = None) -> Pair:
    """The number of values seen (the sum of their weights when given)."""
    _graph_only("count")
    with variable_scope(name, "count", (values, weights)):
        count_ = metric_variable([], D.float32, name="count")
        values = convert_to_tensor(values)
        if weights is None:
            num_values = math_ops.cast(array_ops.size(values), D.float32)
        else:
            values = math_ops.cast(values, D.float32)
            values, _, weights = _remove_squeezable_dimensions(values, None, weights)
            weights = broadcast_weights(math_ops.cast(weights, D.float32), values)
            num_values = reduce_sum(weights)
        with control_dependencies([values]):
            update_count_op = state_ops.assign_add(count_, num_values)
        value = array_ops.identity(count_)
    return _collect(metrics_collections, value, updates_collections, update_count_op)


def aggregate_metrics(*value_update_tuples: Pair) -> Tuple[List[Tensor], List[Tensor]]:
    """[(value, update), ...] -> ([values], [updates])."""
    if not value_update_tuples:
        raise ValueError("Expected at least one value_tensor/update_op pair")
    value_ops, update_ops = zip(*value_update_tuples)
    return list(value_ops), list(update_ops)


def aggregate_metric_map(names_to_tuples: Dict[str, Pair]
                         ) -> Tuple[Dict[str, Tensor], Dict[str, Tensor]]:
    """{name: (value, update)} -> ({name: value}, {name: update})."""
    metric_names = names_to_tuples.keys()
    value_ops, update_ops = zip(*names_to_tuples.values())
    return dict(zip(metric_names, value_ops)), dict(zip(metric_names, update_ops))
