"""The heads of TF1's canned estimators (TF's canned/head.py): logits -> predictions,
loss, eval metrics and train op, as a TPUEstimatorSpec (or EstimatorSpec).

* `binary_logistic_head`: sigmoid cross entropy; predictions logits, logistic,
  probabilities, class_ids, classes, all_class_ids, all_classes; metrics accuracy,
  precision, recall, auc, auc_precision_recall, label/mean, prediction/mean,
  accuracy_baseline, average_loss (+ `*/positive_threshold_t`);
* `multi_class_head`: sparse softmax cross entropy; accuracy, average_loss;
* `regression_head`: mean squared error; average_loss, prediction/mean, label/mean.

The training loss is the weighted per-example loss reduced with `loss_reduction` (TF1's
default SUM); `loss` and (for SUM) `average_loss` scalar summaries are written.
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from tf1compat.estimator.canned import head_util as util
from tf1compat.estimator.canned.metric_keys import MetricKeys
from tf1compat.estimator.canned.prediction_keys import PredictionKeys
from tf1compat.estimator.export import export_output
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.model_fn import EstimatorSpec, TPUEstimatorSpecBase
from tf1compat.framework import dtypes
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.losses.losses_impl import Reduction

__all__ = ["LossSpec", "Head", "binary_logistic_head", "multi_class_head", "regression_head",
           "binary_logistic_or_multi_class_head"]

_DEFAULT_SERVING_KEY = "serving_default"
_CLASSIFY_SERVING_KEY = "classification"
_REGRESS_SERVING_KEY = "regression"
_PREDICT_SERVING_KEY = "predict"

LossSpec = collections.namedtuple("LossSpec", ["training_loss", "unreduced_loss", "weights",
                                               "processed_labels"])


class Head:
    """A TF1 head. Subclasses give `logits_dimension`, `create_loss`, `_predictions`,
    `_export_outputs` and `_metric_args`; the spec building is shared."""

    def __init__(self, name: Optional[str], weight_column: Any, loss_reduction: str,
                 loss_fn: Optional[Callable]):
        self._name = name
        self._weight_column = weight_column
        self._loss_reduction = loss_reduction
        self._loss_fn = loss_fn

    @property
    def name(self) -> Optional[str]:
        return self._name

    @property
    def logits_dimension(self) -> int:
        raise NotImplementedError(f"{type(self).__name__}.logits_dimension")

    def create_loss(self, features: Dict[str, Any], mode: str, logits: Any,
                    labels: Any) -> LossSpec:
        raise NotImplementedError(f"{type(self).__name__}.create_loss")

    def _reduce(self, features: Dict[str, Any], logits: Tensor, unweighted_loss: Tensor,
                labels: Tensor, per_logit_weights: bool = False) -> LossSpec:
        from tf1compat.losses.losses_impl import compute_weighted_loss
        weights = util.get_weights_and_check_match_logits(
            features=features, weight_column=self._weight_column, logits=logits,
            allow_per_logit_weights=per_logit_weights)
        training_loss = compute_weighted_loss(unweighted_loss, weights=weights,
                                              reduction=self._loss_reduction)
        return LossSpec(training_loss=training_loss, unreduced_loss=unweighted_loss,
                        weights=weights, processed_labels=labels)

    def create_estimator_spec(self, features: Dict[str, Any], mode: str, logits: Any,
                              labels: Any = None, optimizer: Any = None,
                              train_op_fn: Optional[Callable] = None,
                              regularization_losses: Any = None) -> EstimatorSpec:
        """The EstimatorSpec of `mode` for these logits."""
        return self._create_tpu_estimator_spec(features, mode, logits, labels, optimizer,
                                               train_op_fn, regularization_losses
                                               ).as_estimator_spec()

    def _create_tpu_estimator_spec(self, features: Dict[str, Any], mode: str, logits: Any,
                                   labels: Any = None, optimizer: Any = None,
                                   train_op_fn: Optional[Callable] = None,
                                   regularization_losses: Any = None) -> TPUEstimatorSpecBase:
        from tf1compat.ops.creation_ops import ones_like
        from tf1compat.ops.math_ops import add_n
        from tf1compat.ops.reduction_ops import reduce_sum
        from tf1compat.summary.summary_ops import scalar
        from tf1compat.training.training_util import get_global_step
        with name_scope(self._name, "head"):
            logits, predictions = self._predictions(logits)
            if mode == ModeKeys.PREDICT:
                return TPUEstimatorSpecBase(mode=ModeKeys.PREDICT, predictions=predictions,
                                            export_outputs=self._export_outputs(predictions))
            loss = self.create_loss(features=features, mode=mode, logits=logits,
                                    labels=labels)
            if regularization_losses:
                regularization_loss = add_n(regularization_losses)
                total_loss = add_n([loss.training_loss, regularization_loss])
            else:
                regularization_loss = None
                total_loss = loss.training_loss
            if mode == ModeKeys.EVAL:
                args = self._metric_args(loss, logits, predictions)
                args["weights"] = loss.weights
                args["unreduced_loss"] = loss.unreduced_loss
                args["regularization_loss"] = regularization_loss
                return TPUEstimatorSpecBase(
                    mode=ModeKeys.EVAL, predictions=predictions, loss=total_loss,
                    eval_metrics=util.create_eval_metrics_tuple(self._eval_metric_ops, args))
            if optimizer is not None:
                if train_op_fn is not None:
                    raise ValueError("train_op_fn and optimizer cannot both be set.")
                train_op = optimizer.minimize(total_loss, global_step=get_global_step())
            elif train_op_fn is not None:
                train_op = train_op_fn(total_loss)
            else:
                raise ValueError("train_op_fn and optimizer cannot both be None.")
            train_op = util.append_update_ops(train_op)
            if self._loss_reduction == Reduction.SUM:
                example_weight_sum = reduce_sum(loss.weights *
                                                ones_like(loss.unreduced_loss))
                mean_loss = loss.training_loss / example_weight_sum
            else:
                mean_loss = None
        with name_scope(""):
            scalar(util.summary_key(self._name, MetricKeys.LOSS), total_loss)
            if mean_loss is not None:
                scalar(util.summary_key(self._name, MetricKeys.LOSS_MEAN), mean_loss)
            if regularization_loss is not None:
                scalar(util.summary_key(self._name, MetricKeys.LOSS_REGULARIZATION),
                       regularization_loss)
        return TPUEstimatorSpecBase(mode=ModeKeys.TRAIN, predictions=predictions,
                                    loss=total_loss, train_op=train_op)

    def _regularization_metric(self, metric_ops: Dict[str, Any],
                               regularization_loss: Any) -> None:
        from tf1compat.metrics.metrics_impl import mean
        if regularization_loss is not None:
            metric_ops[util.summary_key(self._name, MetricKeys.LOSS_REGULARIZATION)] = mean(
                values=regularization_loss, name=MetricKeys.LOSS_REGULARIZATION)


class _MultiClassHeadWithSoftmaxCrossEntropyLoss(Head):
    """n_classes > 2: sparse softmax cross entropy over integer (or vocabulary) labels."""

    def __init__(self, n_classes: int, weight_column: Any = None,
                 label_vocabulary: Optional[Sequence[str]] = None,
                 loss_reduction: str = Reduction.SUM, loss_fn: Optional[Callable] = None,
                 name: Optional[str] = None):
        if n_classes is None:
            raise ValueError("n_classes cannot be None")
        super().__init__(name, weight_column, loss_reduction, loss_fn)
        self._n_classes = _validate_n_classes(n_classes)
        self._label_vocabulary = label_vocabulary

    @property
    def logits_dimension(self) -> int:
        return self._n_classes

    def _label_ids(self, labels: Tensor) -> Tensor:
        from tf1compat.ops.lookup_ops import index_table_from_tensor
        if self._label_vocabulary is None:
            if not labels.dtype.is_integer:
                raise ValueError(f"Labels dtype should be integer. Instead got {labels.dtype}.")
            ids = labels
        else:
            if labels.dtype != dtypes.string:
                raise ValueError("Labels dtype should be string if there is a vocabulary. "
                                 f"Instead got {labels.dtype}")
            ids = index_table_from_tensor(vocabulary_list=tuple(self._label_vocabulary),
                                          name="class_id_lookup").lookup(labels)
        return util.assert_range(ids, self._n_classes)

    def create_loss(self, features: Dict[str, Any], mode: str, logits: Any,
                    labels: Any) -> LossSpec:
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        from tf1compat.losses.losses_impl import sparse_softmax_cross_entropy
        from tf1compat.ops.array_ops import expand_dims
        logits = convert_to_tensor(logits)
        labels = util.check_dense_labels_match_logits_and_reshape(labels, logits, 1)
        label_ids = self._label_ids(labels)
        if self._loss_fn:
            loss = util.call_loss_fn(self._loss_fn, label_ids, logits, features, 1)
        else:
            loss = sparse_softmax_cross_entropy(labels=label_ids, logits=logits,
                                                reduction=Reduction.NONE)
            loss = expand_dims(loss, axis=-1)
        return self._reduce(features, logits, loss, label_ids)

    def _predictions(self, logits: Any) -> Tuple[Tensor, Dict[str, Tensor]]:
        from tf1compat.ops.array_ops import expand_dims
        from tf1compat.ops.nn_ops import softmax
        from tf1compat.ops.reduction_ops import argmax
        keys = PredictionKeys
        logits = util.check_logits_final_dim(logits, self.logits_dimension)
        with name_scope(None, "predictions", (logits,)):
            all_class_ids = util.all_class_ids(logits, self._n_classes)
            all_classes = util.all_classes(logits, self._n_classes, self._label_vocabulary)
            class_ids = expand_dims(argmax(logits, axis=-1, name=keys.CLASS_IDS), axis=-1)
            classes = _class_strings(class_ids, self._label_vocabulary)
            probabilities = softmax(logits, name=keys.PROBABILITIES)
            return logits, {keys.LOGITS: logits, keys.PROBABILITIES: probabilities,
                            keys.CLASS_IDS: class_ids, keys.CLASSES: classes,
                            keys.ALL_CLASS_IDS: all_class_ids, keys.ALL_CLASSES: all_classes}

    def _export_outputs(self, predictions: Dict[str, Tensor]) -> Dict[str, Any]:
        output = util.classification_output(predictions[PredictionKeys.PROBABILITIES],
                                            self._n_classes, self._label_vocabulary)
        return {_DEFAULT_SERVING_KEY: output, _CLASSIFY_SERVING_KEY: output,
                _PREDICT_SERVING_KEY: export_output.PredictOutput(predictions)}

    def _metric_args(self, loss: LossSpec, logits: Tensor,
                     predictions: Dict[str, Tensor]) -> Dict[str, Any]:
        return {"labels": loss.processed_labels,
                "class_ids": predictions[PredictionKeys.CLASS_IDS]}

    def _eval_metric_ops(self, labels: Tensor, class_ids: Tensor, weights: Any,
                         unreduced_loss: Tensor, regularization_loss: Any) -> Dict[str, Any]:
        from tf1compat.metrics.metrics_impl import accuracy, mean
        keys = MetricKeys
        with name_scope(None, "metrics",
                        (labels, class_ids, weights, unreduced_loss, regularization_loss)):
            ops = {
                util.summary_key(self._name, keys.LOSS_MEAN): mean(
                    values=unreduced_loss, weights=weights, name=keys.LOSS_MEAN),
                util.summary_key(self._name, keys.ACCURACY): accuracy(
                    labels=labels, predictions=class_ids, weights=weights,
                    name=keys.ACCURACY)}
            self._regularization_metric(ops, regularization_loss)
        return ops


class _BinaryLogisticHeadWithSigmoidCrossEntropyLoss(Head):
    """Two classes: one logit, sigmoid cross entropy."""

    def __init__(self, weight_column: Any = None, thresholds: Any = None,
                 label_vocabulary: Optional[Sequence[str]] = None,
                 loss_reduction: str = Reduction.SUM, loss_fn: Optional[Callable] = None,
                 name: Optional[str] = None):
        super().__init__(name, weight_column, loss_reduction, loss_fn)
        self._thresholds = tuple(thresholds) if thresholds else tuple()
        self._label_vocabulary = label_vocabulary

    @property
    def logits_dimension(self) -> int:
        return 1

    def create_loss(self, features: Dict[str, Any], mode: str, logits: Any,
                    labels: Any) -> LossSpec:
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        from tf1compat.ops.lookup_ops import index_table_from_tensor
        from tf1compat.ops.math_ops import cast
        from tf1compat.ops.nn_losses import sigmoid_cross_entropy_with_logits
        logits = convert_to_tensor(logits)
        labels = util.check_dense_labels_match_logits_and_reshape(labels, logits, 1)
        if self._label_vocabulary is not None:
            labels = index_table_from_tensor(vocabulary_list=tuple(self._label_vocabulary),
                                             name="class_id_lookup").lookup(labels)
        labels = cast(labels, dtype=dtypes.float32)
        labels = util.assert_range(labels, n_classes=2)
        if self._loss_fn:
            loss = util.call_loss_fn(self._loss_fn, labels, logits, features, 1)
        else:
            loss = sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
        return self._reduce(features, logits, loss, labels)

    def _predictions(self, logits: Any) -> Tuple[Tensor, Dict[str, Tensor]]:
        from tf1compat.ops.array_ops import concat, expand_dims
        from tf1compat.ops.creation_ops import zeros_like
        from tf1compat.ops.math_ops import sigmoid
        from tf1compat.ops.nn_ops import softmax
        from tf1compat.ops.reduction_ops import argmax
        keys = PredictionKeys
        with name_scope(None, "predictions", (logits,)):
            logits = util.check_logits_final_dim(logits, self.logits_dimension)
            logistic = sigmoid(logits, name=keys.LOGISTIC)
            two_class_logits = concat((zeros_like(logits), logits), axis=-1,
                                      name="two_class_logits")
            probabilities = softmax(two_class_logits, name=keys.PROBABILITIES)
            class_ids = expand_dims(argmax(two_class_logits, axis=-1, name=keys.CLASS_IDS),
                                    axis=-1)
            all_class_ids = util.all_class_ids(logits, n_classes=2)
            all_classes = util.all_classes(logits, 2, self._label_vocabulary)
            classes = _class_strings(class_ids, self._label_vocabulary)
            return logits, {keys.LOGITS: logits, keys.LOGISTIC: logistic,
                            keys.PROBABILITIES: probabilities, keys.CLASS_IDS: class_ids,
                            keys.CLASSES: classes, keys.ALL_CLASS_IDS: all_class_ids,
                            keys.ALL_CLASSES: all_classes}

    def _export_outputs(self, predictions: Dict[str, Tensor]) -> Dict[str, Any]:
        output = util.classification_output(predictions[PredictionKeys.PROBABILITIES], 2,
                                            self._label_vocabulary)
        return {_DEFAULT_SERVING_KEY: output, _CLASSIFY_SERVING_KEY: output,
                _REGRESS_SERVING_KEY: export_output.RegressionOutput(
                    value=predictions[PredictionKeys.LOGISTIC]),
                _PREDICT_SERVING_KEY: export_output.PredictOutput(predictions)}

    def _metric_args(self, loss: LossSpec, logits: Tensor,
                     predictions: Dict[str, Tensor]) -> Dict[str, Any]:
        return {"labels": loss.processed_labels, "logits": logits,
                "logistic": predictions[PredictionKeys.LOGISTIC],
                "class_ids": predictions[PredictionKeys.CLASS_IDS]}

    def _eval_metric_ops(self, labels: Tensor, logits: Tensor, logistic: Tensor,
                         class_ids: Tensor, weights: Any, unreduced_loss: Tensor,
                         regularization_loss: Any) -> Dict[str, Any]:
        from tf1compat.metrics.metrics_impl import accuracy, mean, precision, recall
        keys = MetricKeys
        key = lambda k: util.summary_key(self._name, k)  # noqa: E731
        with name_scope(None, "metrics", (labels, logits, logistic, class_ids, weights,
                                          unreduced_loss, regularization_loss)):
            labels_mean = util.indicator_labels_mean(labels=labels, weights=weights,
                                                     name=keys.LABEL_MEAN)
            ops = {
                key(keys.LOSS_MEAN): mean(values=unreduced_loss, weights=weights,
                                          name=keys.LOSS_MEAN),
                key(keys.ACCURACY): accuracy(labels=labels, predictions=class_ids,
                                             weights=weights, name=keys.ACCURACY),
                key(keys.PRECISION): precision(labels=labels, predictions=class_ids,
                                               weights=weights, name=keys.PRECISION),
                key(keys.RECALL): recall(labels=labels, predictions=class_ids,
                                         weights=weights, name=keys.RECALL),
                key(keys.PREDICTION_MEAN): util.predictions_mean(
                    predictions=logistic, weights=weights, name=keys.PREDICTION_MEAN),
                key(keys.LABEL_MEAN): labels_mean,
                key(keys.ACCURACY_BASELINE): util.accuracy_baseline(labels_mean),
                key(keys.AUC): util.auc(labels=labels, predictions=logistic, weights=weights,
                                        name=keys.AUC),
                key(keys.AUC_PR): util.auc(labels=labels, predictions=logistic,
                                           weights=weights, curve="PR", name=keys.AUC_PR)}
            self._regularization_metric(ops, regularization_loss)
            util.threshold_metrics(ops, self._name, labels, logistic, weights,
                                   self._thresholds)
        return ops


class _RegressionHeadWithMeanSquaredErrorLoss(Head):
    """`label_dimension` real outputs, mean squared error (optionally an inverse link)."""

    def __init__(self, label_dimension: int, weight_column: Any = None,
                 loss_reduction: str = Reduction.SUM, loss_fn: Optional[Callable] = None,
                 inverse_link_fn: Optional[Callable] = None, name: Optional[str] = None):
        if label_dimension < 1:
            raise ValueError(f"Invalid label_dimension {label_dimension}.")
        super().__init__(name, weight_column, loss_reduction, loss_fn)
        self._logits_dimension = label_dimension
        self._inverse_link_fn = inverse_link_fn

    @property
    def logits_dimension(self) -> int:
        return self._logits_dimension

    def create_loss(self, features: Dict[str, Any], mode: str, logits: Any,
                    labels: Any) -> LossSpec:
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        from tf1compat.losses.losses_impl import mean_squared_error
        from tf1compat.ops.math_ops import cast
        logits = convert_to_tensor(logits)
        labels = util.check_dense_labels_match_logits_and_reshape(labels, logits,
                                                                  self._logits_dimension)
        labels = cast(labels, dtype=dtypes.float32)
        if self._loss_fn:
            loss = util.call_loss_fn(self._loss_fn, labels, logits, features,
                                     self._logits_dimension)
        else:
            loss = mean_squared_error(labels=labels, predictions=logits,
                                      reduction=Reduction.NONE)
        return self._reduce(features, logits, loss, labels, per_logit_weights=True)

    def _predictions(self, logits: Any) -> Tuple[Tensor, Dict[str, Tensor]]:
        keys = PredictionKeys
        logits = util.check_logits_final_dim(logits, self._logits_dimension)
        if self._inverse_link_fn:
            return logits, {keys.PREDICTIONS: self._inverse_link_fn(logits),
                            keys.LOGITS: logits}
        return logits, {keys.PREDICTIONS: logits}

    def _export_outputs(self, predictions: Dict[str, Tensor]) -> Dict[str, Any]:
        output = export_output.RegressionOutput(value=predictions[PredictionKeys.PREDICTIONS])
        return {_DEFAULT_SERVING_KEY: output, _REGRESS_SERVING_KEY: output,
                _PREDICT_SERVING_KEY: export_output.PredictOutput(predictions)}

    def _metric_args(self, loss: LossSpec, logits: Tensor,
                     predictions: Dict[str, Tensor]) -> Dict[str, Any]:
        return {"predicted_value": predictions[PredictionKeys.PREDICTIONS],
                "labels": loss.processed_labels}

    def _eval_metric_ops(self, predicted_value: Tensor, labels: Tensor, weights: Any,
                         unreduced_loss: Tensor, regularization_loss: Any) -> Dict[str, Any]:
        from tf1compat.metrics.metrics_impl import mean
        keys = MetricKeys
        ops = {
            util.summary_key(self._name, keys.LOSS_MEAN): mean(values=unreduced_loss,
                                                               weights=weights),
            util.summary_key(self._name, keys.PREDICTION_MEAN): util.predictions_mean(
                predictions=predicted_value, weights=weights, name=keys.PREDICTION_MEAN),
            util.summary_key(self._name, keys.LABEL_MEAN): mean(values=labels,
                                                                weights=weights)}
        self._regularization_metric(ops, regularization_loss)
        return ops


def _class_strings(class_ids: Any, label_vocabulary: Any) -> Any:
    """The predicted classes as strings: vocabulary entries, or the ids' decimal form."""
    from tf1compat.ops.lookup_ops import index_to_string_table_from_tensor
    from tf1compat.ops.string_ops import as_string
    if label_vocabulary:
        table = index_to_string_table_from_tensor(vocabulary_list=label_vocabulary,
                                                  name="class_string_lookup")
        return table.lookup(class_ids)
    return as_string(class_ids, name="str_classes")


def _validate_n_classes(n_classes: Any) -> int:
    if isinstance(n_classes, int) and n_classes <= 2:
        raise ValueError(f"n_classes must be > 2: {n_classes}.")
    return n_classes


def multi_class_head(n_classes: int, weight_column: Any = None,
                     label_vocabulary: Optional[Sequence[str]] = None,
                     loss_reduction: str = Reduction.SUM, loss_fn: Optional[Callable] = None,
                     name: Optional[str] = None) -> Head:
    """A softmax cross entropy head for `n_classes` > 2 (TF1)."""
    if label_vocabulary is not None and not isinstance(label_vocabulary, (list, tuple)):
        raise ValueError("label_vocabulary should be a list or a tuple. Given type: "
                         f"{type(label_vocabulary)}")
    util.check_reduction(loss_reduction)
    if loss_fn:
        util.validate_loss_fn_args(loss_fn)
    return _MultiClassHeadWithSoftmaxCrossEntropyLoss(n_classes, weight_column,
                                                      label_vocabulary, loss_reduction,
                                                      loss_fn, name)


def binary_logistic_head(weight_column: Any = None, thresholds: Any = None,
                         label_vocabulary: Optional[Sequence[str]] = None,
                         loss_reduction: str = Reduction.SUM,
                         loss_fn: Optional[Callable] = None,
                         name: Optional[str] = None) -> Head:
    """A sigmoid cross entropy head for two classes (TF1)."""
    thresholds = tuple(thresholds) if thresholds else tuple()
    if label_vocabulary is not None and not isinstance(label_vocabulary, (list, tuple)):
        raise TypeError("label_vocabulary should be a list or tuple. Given type: "
                        f"{type(label_vocabulary)}")
    for threshold in thresholds:
        if threshold <= 0.0 or threshold >= 1.0:
            raise ValueError(f"thresholds not in (0, 1): {(thresholds,)}.")
    util.check_reduction(loss_reduction)
    if loss_fn:
        util.validate_loss_fn_args(loss_fn)
    return _BinaryLogisticHeadWithSigmoidCrossEntropyLoss(weight_column, thresholds,
                                                          label_vocabulary, loss_reduction,
                                                          loss_fn, name)


def regression_head(weight_column: Any = None, label_dimension: int = 1,
                    loss_reduction: str = Reduction.SUM, loss_fn: Optional[Callable] = None,
                    inverse_link_fn: Optional[Callable] = None,
                    name: Optional[str] = None) -> Head:
    """A mean squared error head (TF1)."""
    util.check_reduction(loss_reduction)
    if loss_fn:
        util.validate_loss_fn_args(loss_fn)
    return _RegressionHeadWithMeanSquaredErrorLoss(label_dimension, weight_column,
                                                   loss_reduction, loss_fn, inverse_link_fn,
                                                   name)


def binary_logistic_or_multi_class_head(n_classes: int, weight_column: Any,
                                        label_vocabulary: Any, loss_reduction: str) -> Head:
    """The classifier head for `n_classes` (binary when 2)."""
    if n_classes == 2:
        return binary_logistic_head(weight_column=weight_column,
                                    label_vocabulary=label_vocabulary,
                                    loss_reduction=loss_reduction)
    return multi_class_head(n_classes, weight_column=weight_column,
                            label_vocabulary=label_vocabulary, loss_reduction=loss_reduction)
