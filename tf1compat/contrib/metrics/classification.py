"""`tf.contrib.metrics`' classification metrics (TF 1.15's formulas):

- accuracy: the (weighted) share of equal predictions and labels in one batch (not
  streaming).
- f1_score: the best F1 = 2 P R / (P + R) over `num_thresholds` thresholds.
- cohen_kappa: (p_o - p_e) / (N - p_e) from a streaming confusion matrix.
- streaming_dynamic_auc: the exact ROC / PR area under all predictions seen (streamed with
  streaming_concat), trapezoids between distinct prediction values; 0 while every label
  is the same.
- precision_recall_at_equal_thresholds: tp / fp / tn / fn, precision and recall at
  `num_thresholds` evenly spaced thresholds, from per-bucket counts (O(T + N)).
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Optional, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.metrics.metrics_impl import (_confusion_matrix_at_thresholds, _graph_only,
                                            _remove_squeezable_dimensions, confusion_matrix,
                                            metric_variable)
from tf1compat.contrib.metrics.streaming_stats import _collect, curve_thresholds, streaming_concat
from tf1compat.ops import array_ops, check_ops, math_ops, state_ops
from tf1compat.ops.reduction_ops import cumsum, reduce_max, reduce_mean, reduce_min, reduce_sum
from tf1compat.ops.creation_ops import ones_like, zeros_like
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["accuracy", "f1_score", "cohen_kappa", "streaming_dynamic_auc",
           "precision_recall_at_equal_thresholds", "PrecisionRecallData"]

Pair = Tuple[Tensor, Tensor]

PrecisionRecallData = collections.namedtuple(
    "PrecisionRecallData", ["tp", "fp", "tn", "fn", "precision", "recall", "thresholds"])


def accuracy(predictions: Any, labels: Any, weights: Any = None,
             name: Optional[str] = None) -> Tensor:
    """The (weighted) fraction of `predictions` equal to `labels` in this batch."""
    with name_scope(name, "accuracy", (predictions, labels)):
        predictions = convert_to_tensor(predictions)
        labels = convert_to_tensor(labels)
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        if labels.dtype != predictions.dtype:
            raise ValueError(f"labels and predictions must have the same type, got "
                             f"{labels.dtype!r} != {predictions.dtype!r}")
        is_correct = math_ops.cast(math_ops.equal(predictions, labels), D.float32)
        if weights is not None:
            is_correct = math_ops.multiply(is_correct, weights)
            num_values = math_ops.multiply(weights, ones_like(is_correct))
            return math_ops.divide(reduce_sum(is_correct), reduce_sum(num_values))
        return reduce_mean(is_correct)


def f1_score(labels: Any, predictions: Any, weights: Any = None, num_thresholds: int = 200,
             metrics_collections: Any = None, updates_collections: Any = None,
             name: Optional[str] = None) -> Pair:
    """The best F1 score over `num_thresholds` thresholds in [0, 1] (local variables
    true_positives, false_negatives, false_positives under `f1`)."""
    _graph_only("f1_score")
    with variable_scope(name, "f1", (labels, predictions, weights)):
        predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels,
                                                                     weights)
        epsilon = 1e-7
        values, update_ops = _confusion_matrix_at_thresholds(
            labels, predictions, curve_thresholds(num_thresholds), weights,
            includes=("tp", "fp", "fn"))

        def best_f1(tp: Tensor, fp: Tensor, fn: Tensor, suffix: str) -> Tensor:
            precision = math_ops.divide(tp, epsilon + tp + fp, name="precision_" + suffix)
            recall = math_ops.divide(tp, epsilon + tp + fn, name="recall_" + suffix)
            f1 = 2.0 * precision * recall / (precision + recall + epsilon)
            return reduce_max(f1)

        value = best_f1(values["tp"], values["fp"], values["fn"], "value")
        update_op = best_f1(update_ops["tp"], update_ops["fp"], update_ops["fn"], "update")
    return _collect(metrics_collections, value, updates_collections, update_op)


def cohen_kappa(labels: Any, predictions_idx: Any, num_classes: int, weights: Any = None,
                metrics_collections: Any = None, updates_collections: Any = None,
                name: Optional[str] = None) -> Pair:
    """Cohen's kappa of class ids: (p_o - p_e) / (N - p_e), p_o the agreeing count, p_e
    sum_k rows_k cols_k / N (local variables po, pe_row, pe_col; float64 result)."""
    from tf1compat.framework.context import executing_eagerly
    from tf1compat.ops.matrix_ops import diag_part
    if executing_eagerly():
        raise RuntimeError("tf.contrib.metrics.cohen_kappa is not supported when eager "
                           "execution is enabled.")
    if num_classes < 2:
        raise ValueError(f"`num_classes` must be >= 2.Found: {num_classes}")
    with variable_scope(name, "cohen_kappa", (labels, predictions_idx, weights)):
        labels = convert_to_tensor(labels)
        labels.get_shape().with_rank_at_most(2)
        if labels.get_shape().ndims == 2:
            labels = array_ops.squeeze(labels, axis=[-1])
        predictions_idx, labels, weights = _remove_squeezable_dimensions(
            predictions_idx, labels, weights)
        predictions_idx.get_shape().assert_is_compatible_with(labels.get_shape())
        stat_dtype = (D.int64 if weights is None or weights.dtype.is_integer else D.float32)
        po = metric_variable((num_classes,), stat_dtype, name="po")
        pe_row = metric_variable((num_classes,), stat_dtype, name="pe_row")
        pe_col = metric_variable((num_classes,), stat_dtype, name="pe_col")
        counts_in_table = confusion_matrix(labels, predictions_idx, num_classes=num_classes,
                                           weights=weights, dtype=stat_dtype,
                                           name="counts_in_table")
        update_po = state_ops.assign_add(po, diag_part(counts_in_table))
        update_pe_row = state_ops.assign_add(pe_row, reduce_sum(counts_in_table, axis=0))
        update_pe_col = state_ops.assign_add(pe_col, reduce_sum(counts_in_table, axis=1))

        def kappa_of(po_t: Tensor, row: Tensor, col: Tensor, op_name: str) -> Tensor:
            po_sum = math_ops.cast(reduce_sum(po_t), D.float64)
            total = math_ops.cast(reduce_sum(row), D.float64)
            pe_sum = reduce_sum(math_ops.div_no_nan(
                math_ops.cast(row * col, D.float64), total))
            return math_ops.div_no_nan(po_sum - pe_sum, total - pe_sum, name=op_name)

        kappa = kappa_of(po, pe_row, pe_col, "value")
        update_op = kappa_of(update_po, update_pe_row, update_pe_col, "update_op")
    return _collect(metrics_collections, kappa, updates_collections, update_op)


def _dynamic_auc(labels: Tensor, predictions: Tensor, curve: str, weights: Any) -> Tensor:
    """The exact area under the curve of all (labels, predictions) (float64)."""
    from tf1compat.ops.cond import cond
    from tf1compat.ops.indexing_ops import gather, where
    from tf1compat.ops.nn_ops import top_k
    from tf1compat.ops.sort_ops import unique_with_counts
    from tf1compat.ops.transform_ops import pad
    with name_scope(None, "compute_dynamic_auc", (labels, predictions, weights)):
        labels = math_ops.cast(labels, D.float64)
        if weights is None:
            weights = ones_like(labels, dtype=D.float64)

        def area() -> Tensor:
            ordered_predictions, indices = top_k(predictions, k=array_ops.size(predictions))
            ordered_labels = gather(labels, indices)
            ordered_weights = gather(weights, indices)
            _, _, counts = unique_with_counts(ordered_predictions)
            # Split points between distinct predictions: tied predictions move together.
            splits = math_ops.cast(pad(cumsum(counts), paddings=[[1, 0]]), D.int32)

            def at_splits(x: Tensor) -> Tensor:
                return gather(pad(cumsum(x), paddings=[[1, 0]]), splits)

            true_positives = at_splits(ordered_weights * ordered_labels)
            false_positives = at_splits(ordered_weights * (1 - ordered_labels))
            if curve == "ROC":
                xs = math_ops.truediv(false_positives, false_positives[-1])
                ys = math_ops.truediv(true_positives, true_positives[-1])
            else:
                xs = math_ops.truediv(true_positives, true_positives[-1])
                positives = at_splits(ordered_weights)
                # Precision is 1 before any example is classified positive.
                ys = where(math_ops.greater(splits, 0),
                           math_ops.truediv(true_positives, positives),
                           ones_like(true_positives, dtype=D.float64))
            heights = math_ops.add(ys[1:], ys[:-1]) / 2.0
            widths = math_ops.abs(math_ops.subtract(xs[1:], xs[:-1]))
            return reduce_sum(math_ops.multiply(heights, widths))

        return cond(math_ops.equal(reduce_min(labels), reduce_max(labels)),
                    lambda: convert_to_tensor(0, D.float64), area)


def streaming_dynamic_auc(labels: Any, predictions: Any, curve: str = "ROC",
                          metrics_collections: Any = None, updates_collections: Any = None,
                          name: Optional[str] = None, weights: Any = None) -> Pair:
    """The exact AUC (ROC or PR) of every prediction seen: labels 0/1, predictions in
    [0, 1] (checked when the update runs); the value is float64."""
    _graph_only("streaming_dynamic_auc")
    from tf1compat.ops.control_flow_ops import group, with_dependencies
    with variable_scope(name, "dynamic_auc", (labels, predictions, weights)):
        if curve != "ROC" and curve != "PR":
            raise ValueError(f"Curve must be either ROC or PR. Curve {curve} is unknown.")
        labels = array_ops.reshape(math_ops.cast(labels, D.int64), [-1])
        predictions = array_ops.reshape(math_ops.cast(predictions, D.float32), [-1])
        if weights is not None:
            weights = array_ops.reshape(math_ops.cast(
                math_ops.multiply(weights, ones_like(predictions)), D.float64),
                [-1])
        checks = [
            check_ops.assert_less_equal(labels, ones_like(labels, D.int64),
                                        message="labels must be 0 or 1, at least one is >1"),
            check_ops.assert_greater_equal(labels, zeros_like(labels, D.int64),
                                           message="labels must be 0 or 1, at least one is "
                                                   "<0"),
            check_ops.assert_greater_equal(predictions,
                                           zeros_like(predictions, D.float32),
                                           message="predictions must be in [0, 1], at least "
                                                   "one is <0"),
            check_ops.assert_less_equal(predictions,
                                        ones_like(predictions, D.float32),
                                        message="predictions must be in [0, 1], at least one "
                                                "is >1")]
        # The checks gate what the updates append; reading the value needs no feed.
        predictions = with_dependencies(checks, predictions)
        labels = with_dependencies(checks, labels)
        preds_accum, update_preds = streaming_concat(predictions, name="concat_preds")
        labels_accum, update_labels = streaming_concat(labels, name="concat_labels")
        updates = [update_labels, update_preds]
        weights_accum = None
        if weights is not None:
            weights_accum, update_weights = streaming_concat(
                with_dependencies(checks, weights), name="concat_weights")
            updates.append(update_weights)
        update_op = group(*updates)
        auc = _dynamic_auc(labels_accum, preds_accum, curve, weights_accum)
    return _collect(metrics_collections, auc, updates_collections, update_op)


def precision_recall_at_equal_thresholds(labels: Any, predictions: Any, weights: Any = None,
                                         num_thresholds: Optional[int] = None,
                                         use_locking: Optional[bool] = None,
                                         name: Optional[str] = None
                                         ) -> Tuple[PrecisionRecallData, Any]:
    """tp / fp / tn / fn, precision and recall of `predictions >= t` at `num_thresholds`
    (default 201) thresholds evenly spaced in [0, 1], accumulated in float64 per-bucket
    counts (local variables tp_buckets, fp_buckets), returned in the predictions' dtype."""
    _graph_only("precision_recall_at_equal_thresholds")
    from tf1compat.ops.control_flow_ops import group
    from tf1compat.ops.creation_ops import lin_space
    if num_thresholds is None:
        num_thresholds = 201
    if num_thresholds < 2:
        raise ValueError(f"num_thresholds must be >= 2, got {num_thresholds}")
    with variable_scope(name, "precision_recall_at_equal_thresholds",
                        (labels, predictions, weights)):
        predictions = convert_to_tensor(predictions)
        with control_dependencies([
                check_ops.assert_greater_equal(predictions,
                                               math_ops.cast(0.0, predictions.dtype),
                                               message="predictions must be in [0, 1]"),
                check_ops.assert_less_equal(predictions, math_ops.cast(1.0, predictions.dtype),
                                            message="predictions must be in [0, 1]")]):
            predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels,
                                                                         weights)
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        agg_dtype = D.float64
        f_labels = math_ops.cast(labels, agg_dtype)
        weights = math_ops.cast(weights, agg_dtype) if weights is not None else 1.0
        true_labels = array_ops.reshape(f_labels * weights, [-1])
        false_labels = array_ops.reshape((1.0 - f_labels) * weights, [-1])
        predictions = array_ops.reshape(predictions, [-1])
        # Prediction p falls in bucket floor(p (T - 1)); the count at threshold i is the
        # reversed cumulative sum of the buckets from i on.
        bucket_indices = math_ops.cast(math_ops.floor(predictions * (num_thresholds - 1)),
                                       D.int32)
        with name_scope("variables"):
            tp_buckets = metric_variable([num_thresholds], agg_dtype, name="tp_buckets")
            fp_buckets = metric_variable([num_thresholds], agg_dtype, name="fp_buckets")
        with name_scope("update_op"):
            update_tp = state_ops.scatter_add(tp_buckets, bucket_indices, true_labels,
                                              use_locking=use_locking)
            update_fp = state_ops.scatter_add(fp_buckets, bucket_indices, false_labels,
                                              use_locking=use_locking)
        tp = cumsum(tp_buckets, reverse=True, name="tp")
        fp = cumsum(fp_buckets, reverse=True, name="fp")
        tn = fp[0] - fp
        fn = tp[0] - tp
        epsilon = convert_to_tensor(1e-7, dtype=agg_dtype)
        precision = tp / math_ops.maximum(epsilon, tp + fp)
        recall = tp / math_ops.maximum(epsilon, tp + fn)
        out_dtype = predictions.dtype

        def out(t: Any) -> Tensor:
            return math_ops.cast(t, out_dtype)

        result = PrecisionRecallData(tp=out(tp), fp=out(fp), tn=out(tn), fn=out(fn),
                                     precision=out(precision), recall=out(recall),
                                     thresholds=out(lin_space(0.0, 1.0, num_thresholds)))
        return result, group(update_tp, update_fp)


def _operating_thresholds(num_thresholds: int) -> list:
    """`num_thresholds` thresholds evenly in [0, 1], the ends pushed just outside it."""
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - _EPSILON] + inner + [1.0 + _EPSILON]


_EPSILON = 1e-7


def _thresholded_metric(default_name: str, labels: Any, predictions: Any, weights: Any,
                        num_thresholds: int, compute: Callable[..., Tensor],
                        metrics_collections: Any, updates_collections: Any,
                        name: Optional[str]) -> Pair:
    """`compute(tp, fp, fn, op_name)` on the confusion counts at the operating thresholds,
    for the value and for the update (local variables under `default_name`)."""
    with variable_scope(name, default_name, (predictions, labels, weights)):
        predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels,
                                                                     weights)
        values, update_ops = _confusion_matrix_at_thresholds(
            labels, predictions, _operating_thresholds(num_thresholds), weights)
        value = compute(values["tp"], values["fp"], values["fn"], "value")
        update_op = compute(update_ops["tp"], update_ops["fp"], update_ops["fn"], "update_op")
    return _collect(metrics_collections, value, updates_collections, update_op)


def precision_at_recall(labels: Any, predictions: Any, target_recall: float,
                        weights: Any = None, num_thresholds: int = 200,
                        metrics_collections: Any = None, updates_collections: Any = None,
                        name: Optional[str] = None) -> Pair:
    """The precision at the highest threshold whose recall is still >= `target_recall`
    (local variables true_positives, false_positives, false_negatives, true_negatives)."""
    from tf1compat.framework.context import executing_eagerly
    if executing_eagerly():
        raise RuntimeError("tf.metrics.precision_at_recall is not supported when eager "
                           "execution is enabled.")
    if target_recall < 0 or target_recall > 1:
        raise ValueError("`target_recall` must be in the range [0, 1].")

    def compute(tp: Tensor, fp: Tensor, fn: Tensor, op_name: str) -> Tensor:
        recalls = math_ops.div(tp, tp + fn + _EPSILON)
        admissible = math_ops.cast(math_ops.greater_equal(recalls, target_recall), D.int64)
        index = reduce_sum(admissible) - 1
        return math_ops.div(tp[index] + _EPSILON, tp[index] + fp[index] + _EPSILON, op_name)
    return _thresholded_metric("precision_at_recall", labels, predictions, weights,
                               num_thresholds, compute, metrics_collections,
                               updates_collections, name)


def recall_at_precision(labels: Any, predictions: Any, precision: float, weights: Any = None,
                        num_thresholds: int = 200, metrics_collections: Any = None,
                        updates_collections: Any = None, name: Optional[str] = None,
                        strict_mode: bool = False) -> Pair:
    """The recall at the threshold whose precision is closest to `precision`; with
    `strict_mode`, at the threshold of the smallest precision >= `precision` (0 where
    none reaches it)."""
    from tf1compat.ops.cond import cond
    from tf1compat.ops.reduction_ops import argmax, argmin
    if not 0 <= precision <= 1:
        raise ValueError("`precision` must be in the range [0, 1].")

    def compute(tp: Tensor, fp: Tensor, fn: Tensor, op_name: str) -> Tensor:
        precisions = math_ops.div(tp, tp + fp + _EPSILON)
        if not strict_mode:
            index = argmin(math_ops.abs(precisions - precision), 0, output_type=D.int32)
            return math_ops.div(tp[index], tp[index] + fn[index] + _EPSILON, op_name)
        # TF's ranking: 1 / (p - target + eps) is largest for the smallest p >= target,
        # and negative for every p below it.
        index = argmax(math_ops.div(1.0, precisions - precision + _EPSILON), 0,
                       output_type=D.int32)
        return cond(precisions[index] >= precision,
                    lambda: math_ops.div(tp[index], tp[index] + fn[index] + _EPSILON,
                                         op_name),
                    lambda: .0)
    return _thresholded_metric("recall_at_precision", labels, predictions, weights,
                               num_thresholds, compute, metrics_collections,
                               updates_collections, name)
