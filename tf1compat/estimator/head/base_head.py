"""The v2 heads' base (tensorflow-estimator 2.15's head/base_head.py): `tf.estimator.Head`
and what its subclasses share - loss reduction checks, Keras-optimizer train ops, the
training summaries, prediction-key checks and weighted metric updates.

A v2 head computes its loss with Keras' `compute_weighted_loss` (reductions of
`tf.keras.losses.Reduction`: SUM_OVER_BATCH_SIZE by default, SUM, AUTO) and its eval
metrics with `tf.keras.metrics` objects (`metrics()` creates them, `update_metrics()`
updates them); `create_estimator_spec` takes a Keras optimizer with `trainable_variables`
(or a `train_op_fn`) and `update_ops`. The label, weight and logits checks are the TF1
heads' (`canned/head_util.py`), which TF's v2 heads repeat.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from tf1compat.estimator.canned import head_util as util
from tf1compat.estimator.canned.metric_keys import MetricKeys
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.model_fn import EstimatorSpec, TPUEstimatorSpecBase
from tf1compat.framework.graph import name_scope

__all__ = ["Head", "DEFAULT_SERVING_KEY", "CLASSIFY_SERVING_KEY", "REGRESS_SERVING_KEY",
           "PREDICT_SERVING_KEY"]

DEFAULT_SERVING_KEY = "serving_default"
CLASSIFY_SERVING_KEY = "classification"
REGRESS_SERVING_KEY = "regression"
PREDICT_SERVING_KEY = "predict"


class Head:
    """Interface of the v2 heads: `loss`, `predictions`, `metrics`, `update_metrics` and
    `create_estimator_spec` (built from the subclass's `_create_tpu_estimator_spec`)."""

    @property
    def name(self) -> Optional[str]:
        raise NotImplementedError("Calling an abstract method.")

    @property
    def logits_dimension(self) -> int:
        raise NotImplementedError("Calling an abstract method.")

    @property
    def loss_reduction(self) -> str:
        raise NotImplementedError("Calling an abstract method.")

    def loss(self, labels: Any, logits: Any, features: Any = None, mode: Any = None,
             regularization_losses: Any = None) -> Any:
        raise NotImplementedError("Calling an abstract method.")

    def predictions(self, logits: Any, keys: Any = None) -> Dict[str, Any]:
        raise NotImplementedError("Calling an abstract method.")

    def metrics(self, regularization_losses: Any = None) -> Dict[str, Any]:
        raise NotImplementedError("Calling an abstract method.")

    def update_metrics(self, eval_metrics: Dict[str, Any], features: Any, logits: Any,
                       labels: Any, regularization_losses: Any = None) -> Dict[str, Any]:
        raise NotImplementedError("Calling an abstract method.")

    def _summary_key(self, key: str) -> str:
        return util.summary_key(self.name, key)

    def create_estimator_spec(self, features: Any, mode: str, logits: Any, labels: Any = None,
                              optimizer: Any = None, trainable_variables: Any = None,
                              train_op_fn: Optional[Callable] = None, update_ops: Any = None,
                              regularization_losses: Any = None) -> EstimatorSpec:
        """The EstimatorSpec of `mode` for these logits."""
        try:
            spec = self._create_tpu_estimator_spec(
                features=features, mode=mode, logits=logits, labels=labels,
                optimizer=optimizer, trainable_variables=trainable_variables,
                train_op_fn=train_op_fn, update_ops=update_ops,
                regularization_losses=regularization_losses)
            return spec.as_estimator_spec()
        except NotImplementedError:
            raise NotImplementedError("Subclasses of Head must implement "
                                      "`create_estimator_spec()` or "
                                      "_create_tpu_estimator_spec().") from None

    def _create_tpu_estimator_spec(self, features: Any, mode: str, logits: Any,
                                   labels: Any = None, optimizer: Any = None,
                                   trainable_variables: Any = None,
                                   train_op_fn: Optional[Callable] = None,
                                   update_ops: Any = None,
                                   regularization_losses: Any = None) -> Any:
        raise NotImplementedError("TPUEstimatorSpec not available for this model head.")


class SingleHead(Head):
    """A head with one loss (every v2 head but MultiHead): the weighted loss of
    `_processed_labels` and `_default_loss` (or `loss_fn`), and the spec of
    `single_head_spec`. Subclasses validate their arguments, then call this `__init__`."""

    # Regression heads take weights per logit; the classifiers per example.
    _per_logit_weights = False

    def __init__(self, weight_column: Any, loss_reduction: str, loss_fn: Optional[Callable],
                 name: Optional[str]):
        self._weight_column = weight_column
        self._loss_reduction = loss_reduction
        self._loss_fn = loss_fn
        self._name = name

    @property
    def name(self) -> Optional[str]:
        return self._name

    @property
    def loss_reduction(self) -> str:
        return self._loss_reduction

    def _processed_labels(self, logits: Any, labels: Any) -> Any:
        raise NotImplementedError("Calling an abstract method.")

    def _default_loss(self, labels: Any, logits: Any) -> Any:
        raise NotImplementedError("Calling an abstract method.")

    def _export_outputs(self, predictions: Dict[str, Any]) -> Dict[str, Any]:
        raise NotImplementedError("Calling an abstract method.")

    def _unweighted_loss_and_weights(self, logits: Any, labels: Any, features: Any) -> tuple:
        if self._loss_fn:
            loss_dimension = self.logits_dimension if self._per_logit_weights else 1
            loss = util.call_loss_fn(self._loss_fn, labels, logits, features, loss_dimension)
        else:
            loss = self._default_loss(labels, logits)
        weights = util.get_weights_and_check_match_logits(
            features=features, weight_column=self._weight_column, logits=logits,
            allow_per_logit_weights=self._per_logit_weights, v2=True)
        return loss, weights

    def loss(self, labels: Any, logits: Any, features: Any = None, mode: Any = None,
             regularization_losses: Any = None) -> Any:
        """The reduced weighted training loss plus the regularization losses."""
        del mode
        with name_scope(None, "losses", (logits, labels, regularization_losses, features)):
            logits = util.check_logits_final_dim(logits, self.logits_dimension, v2=True)
            labels = self._processed_labels(logits, labels)
            loss, weights = self._unweighted_loss_and_weights(logits, labels, features)
            return weighted_loss(loss, weights, self._loss_reduction, regularization_losses)

    def _create_tpu_estimator_spec(self, features: Any, mode: str, logits: Any,
                                   labels: Any = None, optimizer: Any = None,
                                   trainable_variables: Any = None,
                                   train_op_fn: Optional[Callable] = None,
                                   update_ops: Any = None,
                                   regularization_losses: Any = None) -> TPUEstimatorSpecBase:
        return single_head_spec(self, self._export_outputs, features, mode, logits, labels,
                                optimizer, trainable_variables, train_op_fn, update_ops,
                                regularization_losses)


def check_multi_label_thresholds_and_vocabulary(thresholds: Tuple[float, ...],
                                                label_vocabulary: Any, n_classes: int) -> None:
    """A multi-label head's thresholds and vocabulary, as TF checks them (the v2 head and
    contrib's TF 1.15 one alike)."""
    for threshold in thresholds:
        if threshold <= 0.0 or threshold >= 1.0:
            raise ValueError(f"thresholds must be in (0, 1) range. Given: {threshold}")
    if label_vocabulary is not None:
        if not isinstance(label_vocabulary, (list, tuple)):
            raise ValueError("label_vocabulary must be a list or tuple. Given type: "
                             f"{type(label_vocabulary)}")
        if len(label_vocabulary) != n_classes:
            raise ValueError(f"Length of label_vocabulary must be n_classes ({n_classes}). "
                             f"Given: {len(label_vocabulary)}")


def metric_class_ids(classes: Any, label_vocabulary: Any, n_classes: int,
                     strings_message: str) -> Tuple[int, ...]:
    """`classes_for_class_based_metrics` as class ids (names looked up in the vocabulary,
    ids range-checked); `strings_message` is the error for names without a vocabulary,
    which TF words differently in its two versions."""
    class_ids = tuple(classes or ())
    if class_ids and isinstance(class_ids[0], str):
        if not label_vocabulary:
            raise ValueError(strings_message)
        return tuple(list(label_vocabulary).index(c) for c in class_ids)
    for class_id in class_ids:
        if class_id < 0 or class_id >= n_classes:
            raise ValueError("All classes_for_class_based_metrics must be in range "
                             f"[0, {n_classes - 1}]. Given: {class_id}")
    return class_ids


def validate_loss_reduction(loss_reduction: str) -> None:
    from tf1compat.keras.losses import Reduction
    if loss_reduction not in Reduction.all() or loss_reduction == Reduction.NONE:
        raise ValueError(f"Invalid loss_reduction: {loss_reduction}. See `tf.losses.Reduction` "
                         "for valid options.")


def validate_loss_fn_args(loss_fn: Callable) -> None:
    """A v2 head's loss_fn takes labels, logits and optionally features, loss_reduction."""
    util.validate_loss_fn_args(loss_fn, optional=("features", "loss_reduction"))


def requested_keys(keys: Optional[Sequence[str]], valid_keys: Sequence[str]) -> Sequence[str]:
    """The prediction `keys` asked for (each checked against `valid_keys`), or all."""
    for key in keys or ():
        if key not in valid_keys:
            raise ValueError(f"Prediction key must be in PredictionKeys, given: {key}.Valid "
                             f"prediction keys include {valid_keys}.")
    return keys or valid_keys


def weighted_loss(unweighted_loss: Any, weights: Any, loss_reduction: str,
                  regularization_losses: Any) -> Any:
    """Keras' weighted reduction of the per-example loss, plus the regularization losses."""
    from tf1compat.keras.losses import compute_weighted_loss
    from tf1compat.ops.math_ops import add_n
    training_loss = compute_weighted_loss(unweighted_loss, sample_weight=weights,
                                          reduction=loss_reduction)
    if regularization_losses is None:
        return training_loss
    return training_loss + add_n(regularization_losses)


def classification_export_outputs(predictions: Dict[str, Any], n_classes: int,
                                  label_vocabulary: Optional[Sequence[str]]) -> Dict[str, Any]:
    """A classifier's export outputs: classify (probabilities over the class names) as
    `serving_default` and `classification`, and `predict`."""
    from tf1compat.estimator.canned.prediction_keys import PredictionKeys
    from tf1compat.estimator.export import export_output
    output = util.classification_output(predictions[PredictionKeys.PROBABILITIES], n_classes,
                                        label_vocabulary)
    return {DEFAULT_SERVING_KEY: output, CLASSIFY_SERVING_KEY: output,
            PREDICT_SERVING_KEY: export_output.PredictOutput(predictions)}


def threshold_keys(summary_key: Callable, thresholds: Sequence[float]) -> list:
    """The accuracy, precision and recall keys at each threshold (three tuples)."""
    return [tuple(summary_key(key % t) for t in thresholds)
            for key in (MetricKeys.ACCURACY_AT_THRESHOLD, MetricKeys.PRECISION_AT_THRESHOLD,
                        MetricKeys.RECALL_AT_THRESHOLD)]


def add_threshold_metrics(out: Dict[str, Any], keys: list,
                          thresholds: Sequence[float]) -> None:
    """BinaryAccuracy, Precision and Recall objects at each threshold."""
    from tf1compat.keras import metrics as km
    accuracy, precision, recall = keys
    for i, threshold in enumerate(thresholds):
        out[accuracy[i]] = km.BinaryAccuracy(name=accuracy[i], threshold=threshold)
        out[precision[i]] = km.Precision(name=precision[i], thresholds=threshold)
        out[recall[i]] = km.Recall(name=recall[i], thresholds=threshold)


def update_threshold_metrics(eval_metrics: Dict[str, Any], keys: list, labels: Any,
                             predictions: Any, weights: Any) -> None:
    for i in range(len(keys[0])):
        for per_threshold in keys:
            eval_metrics[per_threshold[i]].update_state(y_true=labels, y_pred=predictions,
                                                        sample_weight=weights)


def update_metric_with_broadcast_weights(eval_metric: Any, values: Any, weights: Any) -> None:
    from tf1compat.framework import dtypes
    from tf1compat.ops.math_ops import cast
    values = cast(values, dtype=dtypes.float32)
    eval_metric.update_state(values=values,
                             sample_weight=util.broadcast_weights(weights, values))


def update_regularization_metric(eval_metrics: Dict[str, Any], key: str,
                                 regularization_losses: Any) -> None:
    from tf1compat.ops.math_ops import add_n
    if regularization_losses is not None:
        eval_metrics[key].update_state(values=add_n(regularization_losses))


def create_estimator_spec_train_op(optimizer: Any = None, trainable_variables: Any = None,
                                   train_op_fn: Optional[Callable] = None,
                                   update_ops: Any = None,
                                   regularized_training_loss: Any = None) -> Any:
    """The train op, made under the name scope `training` (Keras' scope): a Keras
    optimizer's `get_updates` over `trainable_variables`, or `train_op_fn(loss)`, grouped
    with `update_ops`."""
    from tf1compat.keras.optimizers.optimizer_v2 import OptimizerV2
    from tf1compat.ops.control_flow_ops import group
    if update_ops is not None and not isinstance(update_ops, (list, tuple)):
        raise ValueError(f"update_ops should be a list or a tuple. Given type: "
                         f"{type(update_ops)}.")
    with name_scope(""), name_scope("training"):
        if optimizer is not None:
            if train_op_fn is not None:
                raise ValueError("train_op_fn and optimizer cannot both be set.")
            if not isinstance(optimizer, OptimizerV2):
                raise ValueError("The given optimizer is not a tf.keras.optimizers.Optimizer "
                                 f"instance. Received optimizer of type {type(optimizer)}")
            if trainable_variables is None:
                raise ValueError(f"trainable_variables cannot be None. Given "
                                 f"{trainable_variables}")
            if not isinstance(trainable_variables, (list, tuple)):
                raise ValueError("trainable_variables should be a list or a tuple. Given "
                                 f"type: {type(trainable_variables)}.")
            train_op = optimizer.get_updates(regularized_training_loss, trainable_variables)[0]
        elif train_op_fn is not None:
            train_op = train_op_fn(regularized_training_loss)
        else:
            raise ValueError("train_op_fn and optimizer cannot both be None.")
        if update_ops is not None:
            train_op = group(train_op, *update_ops)
        return train_op


def create_estimator_spec_summary(regularized_training_loss: Any,
                                  regularization_losses: Any = None,
                                  summary_key_fn: Optional[Callable] = None) -> None:
    from tf1compat.ops.math_ops import add_n
    from tf1compat.summary.summary_ops import scalar
    key = summary_key_fn or (lambda k: k)
    with name_scope(""):
        scalar(key(MetricKeys.LOSS), regularized_training_loss)
        if regularization_losses is not None:
            scalar(key(MetricKeys.LOSS_REGULARIZATION), add_n(regularization_losses))


def single_head_spec(head: Any, export_outputs_fn: Callable, features: Any, mode: str,
                     logits: Any, labels: Any, optimizer: Any, trainable_variables: Any,
                     train_op_fn: Optional[Callable], update_ops: Any,
                     regularization_losses: Any) -> TPUEstimatorSpecBase:
    """A single v2 head's spec of `mode` (built in the head's name scope): predictions and
    `export_outputs_fn(predictions)` for PREDICT, the loss and `update_metrics` for EVAL,
    the loss, train op and summaries for TRAIN."""
    with name_scope(head.name, "head"):
        predictions = head.predictions(logits)
        if mode == ModeKeys.PREDICT:
            return TPUEstimatorSpecBase(mode=ModeKeys.PREDICT, predictions=predictions,
                                        export_outputs=export_outputs_fn(predictions))
        loss = head.loss(logits=logits, labels=labels, features=features, mode=mode,
                         regularization_losses=regularization_losses)
        if mode == ModeKeys.EVAL:
            eval_metrics = head.metrics(regularization_losses=regularization_losses)
            return TPUEstimatorSpecBase(
                mode=ModeKeys.EVAL, predictions=predictions, loss=loss,
                eval_metrics=util.create_eval_metrics_tuple(head.update_metrics, {
                    "eval_metrics": eval_metrics, "features": features, "logits": logits,
                    "labels": labels, "regularization_losses": regularization_losses}))
        train_op = create_estimator_spec_train_op(
            optimizer=optimizer, trainable_variables=trainable_variables,
            train_op_fn=train_op_fn, update_ops=update_ops, regularized_training_loss=loss)
    create_estimator_spec_summary(loss, regularization_losses, head._summary_key)
    return TPUEstimatorSpecBase(mode=ModeKeys.TRAIN, predictions=predictions, loss=loss,
                                train_op=train_op)
