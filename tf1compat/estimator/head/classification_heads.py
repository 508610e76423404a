"""`tf.estimator.BinaryClassHead` and `tf.estimator.MultiClassHead` (tensorflow-estimator
2.15's head/binary_class_head.py and multi_class_head.py), as TF builds them in graph mode.

* BinaryClassHead: sigmoid cross entropy on [D0, ..., DN, 1] logits; predictions logits,
  logistic, probabilities (softmax of [0, logits]), class_ids, classes, all_class_ids,
  all_classes; Keras metrics average_loss, accuracy, precision, recall, prediction/mean,
  label/mean, accuracy_baseline, auc, auc_precision_recall and per threshold
  accuracy/precision/recall.
* MultiClassHead: sparse softmax cross entropy; predictions logits, probabilities,
  class_ids, classes, all_class_ids, all_classes; metrics average_loss, accuracy.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence

from tf1compat.estimator.canned import head_util as util
from tf1compat.estimator.canned.metric_keys import MetricKeys
from tf1compat.estimator.canned.prediction_keys import PredictionKeys
from tf1compat.estimator.export import export_output
from tf1compat.estimator.head import base_head
from tf1compat.framework import dtypes
from tf1compat.framework.graph import name_scope
from tf1compat.keras.losses import Reduction

__all__ = ["BinaryClassHead", "MultiClassHead"]


class _ClassHead(base_head.SingleHead):
    """What the two classification heads share: vocabulary tables, predictions of class
    ids and strings, and the classify/predict export outputs."""

    _n_classes = 2

    def __init__(self, weight_column: Any, label_vocabulary: Optional[Sequence[str]],
                 loss_reduction: str, loss_fn: Optional[Callable], name: Optional[str]):
        super().__init__(weight_column, loss_reduction, loss_fn, name)
        self._label_vocabulary = label_vocabulary
        self._loss_mean_key = self._summary_key(MetricKeys.LOSS_MEAN)
        self._accuracy_key = self._summary_key(MetricKeys.ACCURACY)
        self._loss_regularization_key = self._summary_key(MetricKeys.LOSS_REGULARIZATION)

    def _class_ids_of(self, labels: Any) -> Any:
        from tf1compat.ops.lookup_ops import index_table_from_tensor
        return index_table_from_tensor(vocabulary_list=tuple(self._label_vocabulary),
                                       name="class_id_lookup").lookup(labels)

    def _class_predictions(self, predictions: Dict[str, Any], keys: Sequence[str],
                           logits: Any, scores: Any) -> None:
        from tf1compat.ops.array_ops import expand_dims
        from tf1compat.ops.lookup_ops import index_to_string_table_from_tensor
        from tf1compat.ops.reduction_ops import argmax
        from tf1compat.ops.string_ops import as_string
        pred_keys = PredictionKeys
        if pred_keys.CLASS_IDS in keys or pred_keys.CLASSES in keys:
            class_ids = expand_dims(argmax(scores, axis=-1, name=pred_keys.CLASS_IDS), axis=-1)
            if pred_keys.CLASS_IDS in keys:
                predictions[pred_keys.CLASS_IDS] = class_ids
            if pred_keys.CLASSES in keys:
                if self._label_vocabulary:
                    predictions[pred_keys.CLASSES] = index_to_string_table_from_tensor(
                        vocabulary_list=self._label_vocabulary,
                        name="class_string_lookup").lookup(class_ids)
                else:
                    predictions[pred_keys.CLASSES] = as_string(class_ids, name="str_classes")
        if pred_keys.ALL_CLASS_IDS in keys:
            predictions[pred_keys.ALL_CLASS_IDS] = util.all_class_ids(logits, self._n_classes)
        if pred_keys.ALL_CLASSES in keys:
            predictions[pred_keys.ALL_CLASSES] = util.all_classes(logits, self._n_classes,
                                                                  self._label_vocabulary)

    def _export_outputs(self, predictions: Dict[str, Any]) -> Dict[str, Any]:
        return base_head.classification_export_outputs(predictions, self._n_classes,
                                                       self._label_vocabulary)



class BinaryClassHead(_ClassHead):
    """Binary classification with sigmoid cross entropy (`tf.estimator.BinaryClassHead`)."""

    def __init__(self, weight_column: Any = None, thresholds: Any = None,
                 label_vocabulary: Optional[Sequence[str]] = None,
                 loss_reduction: str = Reduction.SUM_OVER_BATCH_SIZE,
                 loss_fn: Optional[Callable] = None, name: Optional[str] = None):
        if label_vocabulary is not None and not isinstance(label_vocabulary, (list, tuple)):
            raise ValueError("label_vocabulary should be a list or a tuple. Given type: "
                             f"{type(label_vocabulary)}")
        thresholds = tuple(thresholds) if thresholds else tuple()
        for threshold in thresholds:
            if threshold <= 0.0 or threshold >= 1.0:
                raise ValueError(f"thresholds not in (0, 1): {(thresholds,)}.")
        base_head.validate_loss_reduction(loss_reduction)
        if loss_fn:
            base_head.validate_loss_fn_args(loss_fn)
        super().__init__(weight_column, label_vocabulary, loss_reduction, loss_fn, name)
        self._thresholds = thresholds
        keys = MetricKeys
        for attr, key in (("precision", keys.PRECISION), ("recall", keys.RECALL),
                          ("prediction_mean", keys.PREDICTION_MEAN),
                          ("label_mean", keys.LABEL_MEAN),
                          ("accuracy_baseline", keys.ACCURACY_BASELINE),
                          ("auc", keys.AUC), ("auc_pr", keys.AUC_PR)):
            setattr(self, f"_{attr}_key", self._summary_key(key))
        self._threshold_keys = base_head.threshold_keys(self._summary_key, thresholds)
        self._precision_keys = tuple(self._summary_key(keys.PRECISION_AT_THRESHOLD % t)
                                     for t in thresholds)
        self._recall_keys = tuple(self._summary_key(keys.RECALL_AT_THRESHOLD % t)
                                  for t in thresholds)

    @property
    def logits_dimension(self) -> int:
        return 1

    def _processed_labels(self, logits: Any, labels: Any) -> Any:
        from tf1compat.ops.math_ops import cast
        labels = util.check_dense_labels_match_logits_and_reshape(labels, logits, 1, v2=True)
        if self._label_vocabulary is not None:
            labels = self._class_ids_of(labels)
        labels = cast(labels, dtype=dtypes.float32)
        return util.assert_range(labels, 2, scope="check_label_range")

    def _default_loss(self, labels: Any, logits: Any) -> Any:
        from tf1compat.ops.nn_losses import sigmoid_cross_entropy_with_logits
        return sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)

    def predictions(self, logits: Any, keys: Any = None) -> Dict[str, Any]:
        """The predictions named by `keys` (all by default)."""
        from tf1compat.ops.array_ops import concat
        from tf1compat.ops.creation_ops import zeros_like
        from tf1compat.ops.math_ops import sigmoid
        from tf1compat.ops.nn_ops import softmax
        pred_keys = PredictionKeys
        valid = [pred_keys.LOGITS, pred_keys.LOGISTIC, pred_keys.PROBABILITIES,
                 pred_keys.CLASS_IDS, pred_keys.CLASSES, pred_keys.ALL_CLASS_IDS,
                 pred_keys.ALL_CLASSES]
        keys = base_head.requested_keys(keys, valid)
        logits = util.check_logits_final_dim(logits, 1, v2=True)
        predictions: Dict[str, Any] = {}
        with name_scope(None, "predictions", (logits,)):
            if pred_keys.LOGITS in keys:
                predictions[pred_keys.LOGITS] = logits
            if pred_keys.LOGISTIC in keys:
                predictions[pred_keys.LOGISTIC] = sigmoid(logits, name=pred_keys.LOGISTIC)
            two_class_logits = concat((zeros_like(logits), logits), axis=-1,
                                      name="two_class_logits")
            if pred_keys.PROBABILITIES in keys:
                predictions[pred_keys.PROBABILITIES] = softmax(two_class_logits,
                                                               name=pred_keys.PROBABILITIES)
            self._class_predictions(predictions, keys, logits, two_class_logits)
            return predictions

    def _export_outputs(self, predictions: Dict[str, Any]) -> Dict[str, Any]:
        outputs = super()._export_outputs(predictions)
        outputs[base_head.REGRESS_SERVING_KEY] = export_output.RegressionOutput(
            value=predictions[PredictionKeys.LOGISTIC])
        return outputs

    def metrics(self, regularization_losses: Any = None) -> Dict[str, Any]:
        """The Keras metric objects of the EVAL spec, keyed by name."""
        from tf1compat.keras import metrics as km
        keys = MetricKeys
        with name_scope(None, "metrics", (regularization_losses,)):
            out = {self._loss_mean_key: km.Mean(name=keys.LOSS_MEAN),
                   self._accuracy_key: km.Accuracy(name=keys.ACCURACY),
                   self._precision_key: km.Precision(name=keys.PRECISION),
                   self._recall_key: km.Recall(name=keys.RECALL),
                   self._prediction_mean_key: km.Mean(name=keys.PREDICTION_MEAN),
                   self._label_mean_key: km.Mean(name=keys.LABEL_MEAN),
                   self._accuracy_baseline_key: km.Mean(name=keys.ACCURACY_BASELINE),
                   self._auc_key: km.AUC(name=keys.AUC),
                   self._auc_pr_key: km.AUC(curve="PR", name=keys.AUC_PR)}
            if regularization_losses is not None:
                out[self._loss_regularization_key] = km.Mean(name=keys.LOSS_REGULARIZATION)
            base_head.add_threshold_metrics(out, self._threshold_keys, self._thresholds)
        return out

    def _update_accuracy_baseline(self, eval_metrics: Dict[str, Any]) -> None:
        """max(label mean, 1 - label mean), as TF: the baseline metric's total and count
        become tensors of the label mean's, and a no-op is its update."""
        from tf1compat.ops.control_flow_ops import no_op
        from tf1compat.ops.math_ops import maximum
        label_mean = eval_metrics[self._label_mean_key]
        baseline = eval_metrics[self._accuracy_baseline_key]
        baseline.add_update(no_op())
        baseline.total = maximum(label_mean.total, label_mean.count - label_mean.total)
        baseline.count = label_mean.count

    def _update_auc(self, auc_metric: Any, labels: Any, predictions: Any,
                    weights: Any = None) -> None:
        from tf1compat.ops.math_ops import cast
        predictions = cast(predictions, dtype=dtypes.float32)
        auc_metric.update_state(y_true=labels, y_pred=predictions,
                                sample_weight=util.broadcast_weights(weights, predictions))

    def update_metrics(self, eval_metrics: Dict[str, Any], features: Any, logits: Any,
                       labels: Any, regularization_losses: Any = None) -> Dict[str, Any]:
        """Adds this batch's update ops to the metrics of `metrics()`."""
        class_ids = self.predictions(logits)[PredictionKeys.CLASS_IDS]
        logits = util.check_logits_final_dim(logits, 1, v2=True)
        labels = self._processed_labels(logits, labels)
        loss, weights = self._unweighted_loss_and_weights(logits, labels, features)
        eval_metrics[self._loss_mean_key].update_state(values=loss, sample_weight=weights)
        for key in (self._accuracy_key, self._precision_key, self._recall_key):
            eval_metrics[key].update_state(y_true=labels, y_pred=class_ids,
                                           sample_weight=weights)
        logistic = self.predictions(logits, [PredictionKeys.LOGISTIC])[PredictionKeys.LOGISTIC]
        base_head.update_metric_with_broadcast_weights(
            eval_metrics[self._prediction_mean_key], logistic, weights)
        base_head.update_metric_with_broadcast_weights(eval_metrics[self._label_mean_key],
                                                       labels, weights)
        self._update_accuracy_baseline(eval_metrics)
        self._update_auc(eval_metrics[self._auc_key], labels, logistic, weights)
        self._update_auc(eval_metrics[self._auc_pr_key], labels, logistic, weights)
        base_head.update_regularization_metric(eval_metrics, self._loss_regularization_key,
                                               regularization_losses)
        base_head.update_threshold_metrics(eval_metrics, self._threshold_keys, labels,
                                           logistic, weights)
        return eval_metrics


class MultiClassHead(_ClassHead):
    """n_classes > 2 with sparse softmax cross entropy (`tf.estimator.MultiClassHead`)."""

    def __init__(self, n_classes: int, weight_column: Any = None,
                 label_vocabulary: Optional[Sequence[str]] = None,
                 loss_reduction: str = Reduction.SUM_OVER_BATCH_SIZE,
                 loss_fn: Optional[Callable] = None, name: Optional[str] = None):
        if n_classes is None:
            raise ValueError("n_classes cannot be None")
        if label_vocabulary is not None and not isinstance(label_vocabulary, (list, tuple)):
            raise ValueError("label_vocabulary should be a list or a tuple. Given type: "
                             f"{type(label_vocabulary)}")
        if label_vocabulary is not None and len(label_vocabulary) != n_classes:
            raise ValueError('"label_vocabulary" does not have "n_classes" items. '
                             f"len(label_vocabulary)={len(label_vocabulary)}, "
                             f"n_classes={n_classes}, label_vocabulary={label_vocabulary}")
        base_head.validate_loss_reduction(loss_reduction)
        if loss_fn:
            base_head.validate_loss_fn_args(loss_fn)
        if isinstance(n_classes, int) and n_classes <= 2:
            raise ValueError(f"n_classes must be > 2: {n_classes}.")
        super().__init__(weight_column, label_vocabulary, loss_reduction, loss_fn, name)
        self._n_classes = n_classes

    @property
    def logits_dimension(self) -> int:
        return self._n_classes

    def _processed_labels(self, logits: Any, labels: Any) -> Any:
        labels = util.check_dense_labels_match_logits_and_reshape(labels, logits, 1, v2=True)
        if self._label_vocabulary is None:
            if not labels.dtype.is_integer:
                raise ValueError(f"Labels dtype should be integer. Instead got {labels.dtype}.")
            label_ids = labels
        else:
            if labels.dtype != dtypes.string:
                raise ValueError("Labels dtype should be string if there is a vocabulary. "
                                 f"Instead got {labels.dtype}")
            label_ids = self._class_ids_of(labels)
        return util.assert_range(label_ids, self._n_classes, scope="check_label_range")

    def _default_loss(self, labels: Any, logits: Any) -> Any:
        from tf1compat.losses.losses_impl import Reduction as V1Reduction
        from tf1compat.losses.losses_impl import sparse_softmax_cross_entropy
        from tf1compat.ops.array_ops import expand_dims
        loss = sparse_softmax_cross_entropy(labels=labels, logits=logits,
                                            reduction=V1Reduction.NONE)
        return expand_dims(loss, axis=-1)

    def predictions(self, logits: Any, keys: Any = None) -> Dict[str, Any]:
        """The predictions named by `keys` (all by default)."""
        from tf1compat.ops.nn_ops import softmax
        pred_keys = PredictionKeys
        valid = [pred_keys.LOGITS, pred_keys.PROBABILITIES, pred_keys.CLASS_IDS,
                 pred_keys.CLASSES, pred_keys.ALL_CLASS_IDS, pred_keys.ALL_CLASSES]
        keys = base_head.requested_keys(keys, valid)
        logits = util.check_logits_final_dim(logits, self._n_classes, v2=True)
        predictions: Dict[str, Any] = {}
        with name_scope(None, "predictions", (logits,)):
            if pred_keys.LOGITS in keys:
                predictions[pred_keys.LOGITS] = logits
            if pred_keys.PROBABILITIES in keys:
                predictions[pred_keys.PROBABILITIES] = softmax(logits,
                                                               name=pred_keys.PROBABILITIES)
            self._class_predictions(predictions, keys, logits, logits)
            return predictions

    def metrics(self, regularization_losses: Any = None) -> Dict[str, Any]:
        """The Keras metric objects of the EVAL spec, keyed by name."""
        from tf1compat.keras import metrics as km
        keys = MetricKeys
        with name_scope(None, "metrics", (regularization_losses,)):
            out = {self._loss_mean_key: km.Mean(name=keys.LOSS_MEAN)}
            if regularization_losses is not None:
                out[self._loss_regularization_key] = km.Mean(name=keys.LOSS_REGULARIZATION)
            out[self._accuracy_key] = km.Accuracy(name=keys.ACCURACY)
        return out

    def update_metrics(self, eval_metrics: Dict[str, Any], features: Any, logits: Any,
                       labels: Any, regularization_losses: Any = None) -> Dict[str, Any]:
        """Adds this batch's update ops to the metrics of `metrics()`."""
        class_ids = self.predictions(logits)[PredictionKeys.CLASS_IDS]
        logits = util.check_logits_final_dim(logits, self._n_classes, v2=True)
        label_ids = self._processed_labels(logits, labels)
        loss, weights = self._unweighted_loss_and_weights(logits, label_ids, features)
        eval_metrics[self._loss_mean_key].update_state(values=loss, sample_weight=weights)
        eval_metrics[self._accuracy_key].update_state(y_true=label_ids, y_pred=class_ids,
                                                      sample_weight=weights)
        base_head.update_regularization_metric(eval_metrics, self._loss_regularization_key,
                                               regularization_losses)
        return eval_metrics

