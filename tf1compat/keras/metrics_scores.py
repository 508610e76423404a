"""`tf.keras.metrics` F-beta and R2 scores (tf-keras's FBetaScore, F1Score, R2Score).

Both take 2-D `(batch_size, output_dim)` inputs with `output_dim` known, and create their
per-class weights at the first update (like MeanTensor). FBetaScore counts true
positives, false positives, false negatives and the labels' weight per class (one total
for `average="micro"`); a prediction counts as positive at or above the row's maximum
(and not ~0) when no `threshold` is given. R2Score keeps per-output sums of the labels,
of their squares, of the squared residuals and of the weights.
"""

from __future__ import annotations

import warnings
from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.keras.metrics import Metric
from tf1compat.ops import array_ops, indexing_ops, math_ops, reduction_ops
from tf1compat.ops.weights_broadcast_ops import broadcast_weights

__all__ = ["FBetaScore", "F1Score", "R2Score"]

_AVERAGES = (None, "micro", "macro", "weighted")
_AGGREGATIONS = (None, "uniform_average", "variance_weighted_average")


def _check_2d(metric: str, y_true_shape: Any, y_pred_shape: Any) -> int:
    """The number of classes (outputs) of 2-D inputs; tf-keras's ValueError otherwise."""
    if y_pred_shape.ndims != 2 or y_true_shape.ndims != 2:
        raise ValueError(f"{metric} expects 2D inputs with shape (batch_size, output_dim). "
                         f"Received input shapes: y_pred.shape={y_pred_shape} and "
                         f"y_true.shape={y_true_shape}.")
    if y_pred_shape[-1] is None or y_true_shape[-1] is None:
        raise ValueError(f"{metric} expects 2D inputs with shape (batch_size, output_dim), "
                         "with output_dim fully defined (not None). Received input shapes: "
                         f"y_pred.shape={y_pred_shape} and y_true.shape={y_true_shape}.")
    return int(y_pred_shape[-1])


class FBetaScore(Metric):
    """`tf.keras.metrics.FBetaScore`: (1 + beta^2) * precision * recall /
    (beta^2 * precision + recall), per class or averaged ("micro", "macro", "weighted")."""

    def __init__(self, average: Optional[str] = None, beta: float = 1.0,
                 threshold: Optional[float] = None, name: str = "fbeta_score",
                 dtype: Any = None):
        super().__init__(name=name, dtype=dtype)
        if average not in _AVERAGES:
            raise ValueError("Invalid `average` argument value. Expected one of: {None, "
                             f"'micro', 'macro', 'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError("Invalid `beta` argument value. It should be a Python float. "
                             f"Received: beta={beta} of type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: "
                             f"beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError("Invalid `threshold` argument value. It should be a Python "
                                 f"float. Received: threshold={threshold} of type "
                                 f"'{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError("Invalid `threshold` argument value. It should verify 0 < "
                                 f"threshold <= 1. Received: threshold={threshold}")
        self.average = average
        self.beta = beta
        self.threshold = threshold
        self.axis = None if average == "micro" else 0
        self._built_counts = False

    def _build_counts(self, y_true_shape: Any, y_pred_shape: Any) -> None:
        num_classes = _check_2d("FBetaScore", y_true_shape, y_pred_shape)
        shape = [] if self.average == "micro" else [num_classes]
        self.true_positives = self.add_weight("true_positives", shape=shape,
                                              initializer="zeros")
        self.false_positives = self.add_weight("false_positives", shape=shape,
                                               initializer="zeros")
        self.false_negatives = self.add_weight("false_negatives", shape=shape,
                                               initializer="zeros")
        self.intermediate_weights = self.add_weight("intermediate_weights", shape=shape,
                                                    initializer="zeros")
        self._built_counts = True

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        y_true = convert_to_tensor(y_true, dtype=self.dtype)
        y_pred = convert_to_tensor(y_pred, dtype=self.dtype)
        if not self._built_counts:
            self._build_counts(y_true.shape, y_pred.shape)
        if self.threshold is None:
            row_max = reduction_ops.reduce_max(y_pred, axis=-1, keepdims=True)
            # A row of zeros predicts no class (|x| > 1e-9, not x != 0).
            positive = math_ops.logical_and(y_pred >= row_max,
                                            math_ops.abs(y_pred) > 1e-9)
        else:
            positive = y_pred > self.threshold
        y_pred = math_ops.cast(positive, self.dtype)

        def weighted_sum(values: Any) -> Any:
            if sample_weight is not None:
                values = math_ops.multiply(values, array_ops.expand_dims(sample_weight, 1))
            return reduction_ops.reduce_sum(values, axis=self.axis)

        self.true_positives.assign_add(weighted_sum(y_pred * y_true))
        self.false_positives.assign_add(weighted_sum(y_pred * (1 - y_true)))
        self.false_negatives.assign_add(weighted_sum((1 - y_pred) * y_true))
        return self.intermediate_weights.assign_add(weighted_sum(y_true))

    def result(self) -> Any:
        precision = math_ops.div_no_nan(self.true_positives,
                                        self.true_positives + self.false_positives)
        recall = math_ops.div_no_nan(self.true_positives,
                                     self.true_positives + self.false_negatives)
        mean = math_ops.div_no_nan(precision * recall,
                                   math_ops.square(self.beta) * precision + recall)
        score = mean * (1 + math_ops.square(self.beta))
        if self.average == "weighted":
            weights = math_ops.div_no_nan(self.intermediate_weights,
                                          reduction_ops.reduce_sum(self.intermediate_weights))
            score = reduction_ops.reduce_sum(score * weights)
        elif self.average is not None:
            score = reduction_ops.reduce_mean(score)
        return score

    def get_config(self) -> dict:
        return {**super().get_config(), "average": self.average, "beta": self.beta,
                "threshold": self.threshold}


class F1Score(FBetaScore):
    """`tf.keras.metrics.F1Score`: FBetaScore with beta 1."""

    def __init__(self, average: Optional[str] = None, threshold: Optional[float] = None,
                 name: str = "f1_score", dtype: Any = None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name,
                         dtype=dtype)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["beta"]
        return config


class R2Score(Metric):
    """`tf.keras.metrics.R2Score`: the coefficient of determination per output, averaged
    uniformly or by variance, optionally adjusted for `num_regressors`."""

    def __init__(self, class_aggregation: Optional[str] = "uniform_average",
                 num_regressors: int = 0, name: str = "r2_score", dtype: Any = None):
        super().__init__(name=name, dtype=dtype)
        if class_aggregation not in _AGGREGATIONS:
            raise ValueError("Invalid value for argument `class_aggregation`. Expected one "
                             f"of {_AGGREGATIONS}. Received: "
                             f"class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError("Invalid value for argument `num_regressors`. Expected a value "
                             f">= 0. Received: num_regressors={num_regressors}")
        self.class_aggregation = class_aggregation
        self.num_regressors = num_regressors
        self.num_samples = self.add_weight("num_samples", dtype="int32")
        self._built_sums = False

    def _build_sums(self, y_true_shape: Any, y_pred_shape: Any) -> None:
        shape = [_check_2d("R2Score", y_true_shape, y_pred_shape)]
        self.squared_sum = self.add_weight("squared_sum", shape=shape, initializer="zeros")
        self.sum = self.add_weight("sum", shape=shape, initializer="zeros")
        self.total_mse = self.add_weight("residual", shape=shape, initializer="zeros")
        self.count = self.add_weight("count", shape=shape, initializer="zeros")
        self._built_sums = True

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        y_true = convert_to_tensor(y_true, dtype=self.dtype)
        y_pred = convert_to_tensor(y_pred, dtype=self.dtype)
        if not self._built_sums:
            self._build_sums(y_true.shape, y_pred.shape)
        weight = convert_to_tensor(1 if sample_weight is None else sample_weight,
                                   dtype=self.dtype)
        if weight.shape.ndims == 1:
            weight = array_ops.expand_dims(weight, axis=1)
        weight = broadcast_weights(weight, y_true)
        weighted_y_true = y_true * weight
        self.sum.assign_add(reduction_ops.reduce_sum(weighted_y_true, axis=0))
        self.squared_sum.assign_add(reduction_ops.reduce_sum(y_true * weighted_y_true, axis=0))
        self.total_mse.assign_add(
            reduction_ops.reduce_sum((y_true - y_pred) ** 2 * weight, axis=0))
        self.count.assign_add(reduction_ops.reduce_sum(weight, axis=0))
        return self.num_samples.assign_add(array_ops.size(y_true))

    def result(self) -> Any:
        mean = self.sum / self.count
        total = self.squared_sum - self.sum * mean
        raw_scores = 1 - (self.total_mse / total)
        raw_scores = indexing_ops.where_v2(math_ops.is_inf(raw_scores), 0.0, raw_scores)
        if self.class_aggregation == "uniform_average":
            score = reduction_ops.reduce_mean(raw_scores)
        elif self.class_aggregation == "variance_weighted_average":
            score = (reduction_ops.reduce_sum(total * raw_scores) /
                     reduction_ops.reduce_sum(total))
        else:
            score = raw_scores
        if self.num_regressors != 0:
            # A graph tensor as a Python bool raises TypeError here, as in tf-keras.
            if self.num_regressors > self.num_samples - 1:
                warnings.warn("More independent predictors than datapoints in adjusted R2 "
                              "score. Falling back to standard R2 score.", stacklevel=2)
            elif self.num_regressors == self.num_samples - 1:
                warnings.warn("Division by zero in Adjusted R2 score. Falling back to "
                              "standard R2 score.", stacklevel=2)
            else:
                n = math_ops.cast(self.num_samples, D.float32)
                p = math_ops.cast(self.num_regressors, D.float32)
                score = 1.0 - (1.0 - score) * (n - 1.0) / (n - p - 1.0)
        return score

    def get_config(self) -> dict:
        return {**super().get_config(), "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}
