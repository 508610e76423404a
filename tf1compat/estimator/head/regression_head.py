"""`tf.estimator.RegressionHead`, `PoissonRegressionHead` and `LogisticRegressionHead`
(tensorflow-estimator 2.15's head/regression_head.py), as TF builds them in graph mode:
mean squared error (or a loss_fn) over `label_dimension` outputs, predictions
`predictions` (and `logits` with an inverse link), Keras metrics average_loss,
prediction/mean, label/mean."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

from tf1compat.estimator.canned import head_util as util
from tf1compat.estimator.canned.metric_keys import MetricKeys
from tf1compat.estimator.canned.prediction_keys import PredictionKeys
from tf1compat.estimator.export import export_output
from tf1compat.estimator.head import base_head
from tf1compat.framework import dtypes
from tf1compat.framework.graph import name_scope
from tf1compat.keras.losses import Reduction

__all__ = ["RegressionHead", "PoissonRegressionHead", "LogisticRegressionHead"]


class RegressionHead(base_head.SingleHead):
    """Regression with mean squared error (`tf.estimator.RegressionHead`)."""

    _per_logit_weights = True

    def __init__(self, label_dimension: int = 1, weight_column: Any = None,
                 loss_reduction: str = Reduction.SUM_OVER_BATCH_SIZE,
                 loss_fn: Optional[Callable] = None,
                 inverse_link_fn: Optional[Callable] = None, name: Optional[str] = None):
        if label_dimension < 1:
            raise ValueError(f"Invalid label_dimension {label_dimension}.")
        base_head.validate_loss_reduction(loss_reduction)
        if loss_fn:
            base_head.validate_loss_fn_args(loss_fn)
        super().__init__(weight_column, loss_reduction, loss_fn, name)
        self._logits_dimension = label_dimension
        self._inverse_link_fn = inverse_link_fn
        keys = MetricKeys
        self._loss_mean_key = self._summary_key(keys.LOSS_MEAN)
        self._prediction_mean_key = self._summary_key(keys.PREDICTION_MEAN)
        self._label_mean_key = self._summary_key(keys.LABEL_MEAN)
        self._loss_regularization_key = self._summary_key(keys.LOSS_REGULARIZATION)

    @property
    def logits_dimension(self) -> int:
        return self._logits_dimension

    def _processed_labels(self, logits: Any, labels: Any) -> Any:
        from tf1compat.ops.math_ops import cast
        labels = util.check_dense_labels_match_logits_and_reshape(labels, logits,
                                                                  self._logits_dimension, v2=True)
        return cast(labels, dtype=dtypes.float32)

    def _default_loss(self, labels: Any, logits: Any) -> Any:
        from tf1compat.losses.losses_impl import Reduction as V1Reduction
        from tf1compat.losses.losses_impl import mean_squared_error
        return mean_squared_error(labels=labels, predictions=logits,
                                  reduction=V1Reduction.NONE)

    def predictions(self, logits: Any) -> Dict[str, Any]:  # type: ignore[override]
        """`predictions` (the inverse link of the logits) and, with a link, `logits`."""
        logits = util.check_logits_final_dim(logits, self._logits_dimension, v2=True)
        keys = PredictionKeys
        with name_scope(None, "predictions", (logits,)):
            if self._inverse_link_fn:
                return {keys.PREDICTIONS: self._inverse_link_fn(logits), keys.LOGITS: logits}
            return {keys.PREDICTIONS: logits}

    def metrics(self, regularization_losses: Any = None) -> Dict[str, Any]:
        """The Keras metric objects of the EVAL spec, keyed by name."""
        from tf1compat.keras import metrics as km
        keys = MetricKeys
        with name_scope(None, "metrics", (regularization_losses,)):
            out = {self._loss_mean_key: km.Mean(name=keys.LOSS_MEAN),
                   self._prediction_mean_key: km.Mean(name=keys.PREDICTION_MEAN),
                   self._label_mean_key: km.Mean(name=keys.LABEL_MEAN)}
            if regularization_losses is not None:
                out[self._loss_regularization_key] = km.Mean(name=keys.LOSS_REGULARIZATION)
        return out

    def update_metrics(self, eval_metrics: Dict[str, Any], features: Any, logits: Any,
                       labels: Any, regularization_losses: Any = None) -> Dict[str, Any]:
        """Adds this batch's update ops to the metrics of `metrics()`."""
        predicted = self.predictions(logits)[PredictionKeys.PREDICTIONS]
        logits = util.check_logits_final_dim(logits, self._logits_dimension, v2=True)
        processed = self._processed_labels(logits, labels)
        loss, weights = self._unweighted_loss_and_weights(logits, processed, features)
        eval_metrics[self._loss_mean_key].update_state(values=loss, sample_weight=weights)
        # TF's label mean reads the labels as given, not the float32 processed ones.
        eval_metrics[self._label_mean_key].update_state(values=labels, sample_weight=weights)
        base_head.update_metric_with_broadcast_weights(eval_metrics[self._prediction_mean_key],
                                                       predicted, weights)
        base_head.update_regularization_metric(eval_metrics, self._loss_regularization_key,
                                               regularization_losses)
        return eval_metrics

    def _export_outputs(self, predictions: Dict[str, Any]) -> Dict[str, Any]:
        output = export_output.RegressionOutput(value=predictions[PredictionKeys.PREDICTIONS])
        return {base_head.DEFAULT_SERVING_KEY: output, base_head.REGRESS_SERVING_KEY: output,
                base_head.PREDICT_SERVING_KEY: export_output.PredictOutput(predictions)}



class PoissonRegressionHead(RegressionHead):
    """`log_poisson_loss` on log-rate logits; predictions `exp(logits)`."""

    def __init__(self, label_dimension: int = 1, weight_column: Any = None,
                 loss_reduction: str = Reduction.SUM_OVER_BATCH_SIZE,
                 compute_full_loss: bool = True, name: Optional[str] = None):
        from tf1compat.ops.math_ops import exp
        self._compute_full_loss = compute_full_loss
        super().__init__(label_dimension=label_dimension, weight_column=weight_column,
                         loss_reduction=loss_reduction, loss_fn=self._poisson_loss,
                         inverse_link_fn=exp, name=name)

    def _poisson_loss(self, labels: Any, logits: Any) -> Any:
        from tf1compat.ops.nn_losses import log_poisson_loss
        return log_poisson_loss(targets=labels, log_input=logits,
                                compute_full_loss=self._compute_full_loss)


class LogisticRegressionHead(RegressionHead):
    """Sigmoid cross entropy on labels in [0, 1]; predictions `sigmoid(logits)`."""

    def __init__(self, weight_column: Any = None,
                 loss_reduction: str = Reduction.SUM_OVER_BATCH_SIZE,
                 name: Optional[str] = None):
        from tf1compat.ops.math_ops import sigmoid
        super().__init__(label_dimension=1, weight_column=weight_column,
                         loss_reduction=loss_reduction, loss_fn=self._logistic_loss,
                         inverse_link_fn=sigmoid, name=name)

    def _logistic_loss(self, labels: Any, logits: Any) -> Any:
        from tf1compat.ops.nn_losses import sigmoid_cross_entropy_with_logits
        labels = util.assert_range(labels, 2, message="Labels must be in range [0, 1]",
                                   scope="check_label_range")
        return sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
