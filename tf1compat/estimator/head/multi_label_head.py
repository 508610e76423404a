"""`tf.estimator.MultiLabelHead` (tensorflow-estimator 2.15's head/multi_label_head.py) in
graph mode: sigmoid cross entropy averaged over the classes, on multi-hot labels or a
SparseTensor of class ids (vocabulary strings with `label_vocabulary`); predictions
logits, probabilities, classes (every class name); Keras metrics average_loss, auc,
auc_precision_recall, per-threshold accuracy/precision/recall and per-class
probability_mean/auc/auc_precision_recall."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence

from tf1compat.estimator.canned import head_util as util
from tf1compat.estimator.canned.metric_keys import MetricKeys
from tf1compat.estimator.canned.prediction_keys import PredictionKeys
from tf1compat.estimator.head import base_head
from tf1compat.framework import dtypes
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.keras.losses import Reduction

__all__ = ["MultiLabelHead"]


class MultiLabelHead(base_head.SingleHead):
    """Examples with zero or more of `n_classes` labels (`tf.estimator.MultiLabelHead`)."""

    def __init__(self, n_classes: int, weight_column: Any = None, thresholds: Any = None,
                 label_vocabulary: Optional[Sequence[str]] = None,
                 loss_reduction: str = Reduction.SUM_OVER_BATCH_SIZE,
                 loss_fn: Optional[Callable] = None,
                 classes_for_class_based_metrics: Any = None, name: Optional[str] = None):
        if n_classes is None or n_classes < 2:
            raise ValueError("n_classes must be > 1 for multi-label classification. "
                             f"Given: {n_classes}")
        thresholds = tuple(thresholds) if thresholds else tuple()
        base_head.check_multi_label_thresholds_and_vocabulary(thresholds, label_vocabulary,
                                                              n_classes)
        if loss_fn:
            base_head.validate_loss_fn_args(loss_fn)
        base_head.validate_loss_reduction(loss_reduction)
        class_ids = base_head.metric_class_ids(
            classes_for_class_based_metrics, label_vocabulary, n_classes,
            "label_vocabulary must be provided when classes_for_class_based_metrics are "
            "strings.")
        super().__init__(weight_column, loss_reduction, loss_fn, name)
        self._n_classes = n_classes
        self._thresholds = thresholds
        self._label_vocabulary = label_vocabulary
        self._class_ids = class_ids
        keys = MetricKeys
        self._loss_mean_key = self._summary_key(keys.LOSS_MEAN)
        self._auc_key = self._summary_key(keys.AUC)
        self._auc_pr_key = self._summary_key(keys.AUC_PR)
        self._loss_regularization_key = self._summary_key(keys.LOSS_REGULARIZATION)
        self._threshold_keys = base_head.threshold_keys(self._summary_key, thresholds)
        names = [(keys.PROBABILITY_MEAN_AT_CLASS % c, keys.AUC_AT_CLASS % c,
                  keys.AUC_PR_AT_CLASS % c) if label_vocabulary is None else
                 (keys.PROBABILITY_MEAN_AT_NAME % label_vocabulary[c],
                  keys.AUC_AT_NAME % label_vocabulary[c],
                  keys.AUC_PR_AT_NAME % label_vocabulary[c]) for c in class_ids]
        self._class_keys = [tuple(self._summary_key(n) for n in row) for row in names]

    @property
    def logits_dimension(self) -> int:
        return self._n_classes

    def _processed_labels(self, logits: Any, labels: Any) -> Any:
        from tf1compat.ops.lookup_ops import index_table_from_tensor
        from tf1compat.ops.math_ops import cast
        from tf1compat.ops.sparse_tail import sparse_to_indicator
        if labels is None:
            raise ValueError(util.label_none_message(v2=True))
        if isinstance(labels, SparseTensor):
            values = labels.values
            if labels.dtype == dtypes.string:
                ids = index_table_from_tensor(vocabulary_list=tuple(self._label_vocabulary),
                                              name="class_id_lookup").lookup(values)
                processed = sparse_to_indicator(
                    SparseTensor(indices=labels.indices, values=ids,
                                 dense_shape=labels.dense_shape), self._n_classes)
            else:
                if not values.dtype.is_integer:
                    raise ValueError(f"Labels dtype should be integer. Instead got "
                                     f"{values.dtype}.")
                checked = util.assert_range(
                    values, self._n_classes, scope="check_label_range",
                    message=("labels must be an integer SparseTensor with values in "
                             f"[0, {self._n_classes})"))
                with control_dependencies([checked]):
                    processed = sparse_to_indicator(labels, self._n_classes)
            processed = cast(processed, dtype=dtypes.int64)
        else:
            processed = util.assert_range(
                labels, 2, scope="check_label_range",
                message="labels must be an integer indicator Tensor with values in [0, 1]")
        return util.check_dense_labels_match_logits_and_reshape(processed, logits,
                                                                self._n_classes, v2=True)

    def _default_loss(self, labels: Any, logits: Any) -> Any:
        from tf1compat.losses.losses_impl import Reduction as V1Reduction
        from tf1compat.losses.losses_impl import sigmoid_cross_entropy
        from tf1compat.ops.reduction_ops import reduce_mean
        return reduce_mean(sigmoid_cross_entropy(multi_class_labels=labels, logits=logits,
                                                 reduction=V1Reduction.NONE),
                           axis=-1, keepdims=True)

    def predictions(self, logits: Any, keys: Any = None) -> Dict[str, Any]:
        """The predictions named by `keys` (all by default)."""
        from tf1compat.ops.math_ops import sigmoid
        pred_keys = PredictionKeys
        valid = [pred_keys.LOGITS, pred_keys.PROBABILITIES, pred_keys.CLASSES]
        keys = base_head.requested_keys(keys, valid)
        logits = util.check_logits_final_dim(logits, self._n_classes, v2=True)
        predictions: Dict[str, Any] = {}
        with name_scope(None, "predictions", (logits,)):
            if pred_keys.LOGITS in keys:
                predictions[pred_keys.LOGITS] = logits
            if pred_keys.PROBABILITIES in keys:
                predictions[pred_keys.PROBABILITIES] = sigmoid(logits,
                                                               name=pred_keys.PROBABILITIES)
            if pred_keys.CLASSES in keys:
                predictions[pred_keys.CLASSES] = util.all_classes(logits, self._n_classes,
                                                                  self._label_vocabulary)
            return predictions

    def metrics(self, regularization_losses: Any = None) -> Dict[str, Any]:
        """The Keras metric objects of the EVAL spec, keyed by name."""
        from tf1compat.keras import metrics as km
        keys = MetricKeys
        with name_scope(None, "metrics", (regularization_losses,)):
            out = {self._loss_mean_key: km.Mean(name=keys.LOSS_MEAN),
                   self._auc_key: km.AUC(name=keys.AUC),
                   self._auc_pr_key: km.AUC(curve="PR", name=keys.AUC_PR)}
            if regularization_losses is not None:
                out[self._loss_regularization_key] = km.Mean(name=keys.LOSS_REGULARIZATION)
            base_head.add_threshold_metrics(out, self._threshold_keys, self._thresholds)
            for prob_key, auc_key, auc_pr_key in self._class_keys:
                out[prob_key] = km.Mean(name=prob_key)
                out[auc_key] = km.AUC(name=auc_key)
                out[auc_pr_key] = km.AUC(curve="PR", name=auc_pr_key)
        return out

    def update_metrics(self, eval_metrics: Dict[str, Any], features: Any, logits: Any,
                       labels: Any, regularization_losses: Any = None) -> Dict[str, Any]:
        """Adds this batch's update ops to the metrics of `metrics()`."""
        from tf1compat.ops.array_ops import concat, rank
        from tf1compat.ops.creation_ops import ones, zeros
        from tf1compat.ops.strided_slice import slice as slice_
        logits = util.check_logits_final_dim(logits, self._n_classes, v2=True)
        labels = self._processed_labels(logits, labels)
        loss, weights = self._unweighted_loss_and_weights(logits, labels, features)
        probabilities = self.predictions(logits, [PredictionKeys.PROBABILITIES])[
            PredictionKeys.PROBABILITIES]
        eval_metrics[self._loss_mean_key].update_state(values=loss, sample_weight=weights)
        for key in (self._auc_key, self._auc_pr_key):
            eval_metrics[key].update_state(y_true=labels, y_pred=probabilities,
                                           sample_weight=weights)
        base_head.update_regularization_metric(eval_metrics, self._loss_regularization_key,
                                               regularization_losses)
        base_head.update_threshold_metrics(eval_metrics, self._threshold_keys, labels,
                                           probabilities, weights)
        for class_id, (prob_key, auc_key, auc_pr_key) in zip(self._class_ids,
                                                             self._class_keys):
            batch_rank = rank(probabilities) - 1
            begin = concat([zeros([batch_rank], dtype=dtypes.int32), [class_id]], axis=0)
            size = concat([-1 * ones([batch_rank], dtype=dtypes.int32), [1]], axis=0)
            class_probabilities = slice_(probabilities, begin=begin, size=size)
            class_labels = slice_(labels, begin=begin, size=size)
            base_head.update_metric_with_broadcast_weights(eval_metrics[prob_key],
                                                           class_probabilities, weights)
            for key in (auc_key, auc_pr_key):
                eval_metrics[key].update_state(y_true=class_labels, y_pred=class_probabilities,
                                               sample_weight=weights)
        return eval_metrics

    def _export_outputs(self, predictions: Dict[str, Any]) -> Dict[str, Any]:
        return base_head.classification_export_outputs(predictions, self._n_classes,
                                                       self._label_vocabulary)

