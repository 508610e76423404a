"""`tf.contrib.estimator`'s heads (TF 1.15, tensorflow_estimator's
contrib/estimator/python/estimator/head.py): TF1 `_Head`s for `tf.estimator.DNNEstimator`,
`LinearEstimator`, `DNNLinearCombinedEstimator` or a model_fn calling
`head.create_estimator_spec`.

* `binary_classification_head`, `multi_class_head`, `regression_head` are the core TF1
  heads with contrib's default `loss_reduction=SUM_OVER_BATCH_SIZE` (core: SUM);
* `poisson_regression_head` (`log_poisson_loss`, predictions `exp(logits)`) and
  `logistic_regression_head` (sigmoid cross entropy on labels in [0, 1], predictions
  `sigmoid(logits)`) are regression heads with a loss_fn and an inverse link;
* `multi_label_head`: sigmoid cross entropy averaged over the classes, on multi-hot labels
  or a SparseTensor of class ids (or vocabulary strings); metrics `average_loss`, `auc`,
  `auc_precision_recall`, per-threshold accuracy/precision/recall and per-class
  `probability_mean`, `auc`, `auc_precision_recall`.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from tf1compat.estimator.canned import head as head_lib
from tf1compat.estimator.canned import head_util as util
from tf1compat.estimator.canned.head import Head, LossSpec
from tf1compat.estimator.canned.metric_keys import MetricKeys
from tf1compat.estimator.canned.prediction_keys import PredictionKeys
from tf1compat.estimator.export import export_output
from tf1compat.estimator.head import base_head
from tf1compat.framework import dtypes
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.losses.losses_impl import Reduction

__all__ = ["binary_classification_head", "multi_class_head", "regression_head",
           "poisson_regression_head", "logistic_regression_head", "multi_label_head"]

_SUM_OVER_BATCH_SIZE = Reduction.SUM_OVER_BATCH_SIZE


def multi_class_head(n_classes: int, weight_column: Any = None,
                     label_vocabulary: Optional[Sequence[str]] = None,
                     loss_reduction: str = _SUM_OVER_BATCH_SIZE,
                     loss_fn: Optional[Callable] = None, name: Optional[str] = None) -> Head:
    """A softmax cross entropy head for `n_classes` > 2 (the loss averaged over the batch)."""
    return head_lib.multi_class_head(n_classes, weight_column=weight_column,
                                     label_vocabulary=label_vocabulary,
                                     loss_reduction=loss_reduction, loss_fn=loss_fn,
                                     name=name)


def binary_classification_head(weight_column: Any = None, thresholds: Any = None,
                               label_vocabulary: Optional[Sequence[str]] = None,
                               loss_reduction: str = _SUM_OVER_BATCH_SIZE,
                               loss_fn: Optional[Callable] = None,
                               name: Optional[str] = None) -> Head:
    """A sigmoid cross entropy head for two classes (the loss averaged over the batch)."""
    return head_lib.binary_logistic_head(weight_column=weight_column, thresholds=thresholds,
                                         label_vocabulary=label_vocabulary,
                                         loss_reduction=loss_reduction, loss_fn=loss_fn,
                                         name=name)


def regression_head(weight_column: Any = None, label_dimension: int = 1,
                    loss_reduction: str = _SUM_OVER_BATCH_SIZE,
                    loss_fn: Optional[Callable] = None,
                    inverse_link_fn: Optional[Callable] = None,
                    name: Optional[str] = None) -> Head:
    """A mean squared error head (the loss averaged over batch and label dimension)."""
    return head_lib.regression_head(weight_column=weight_column,
                                    label_dimension=label_dimension,
                                    loss_reduction=loss_reduction, loss_fn=loss_fn,
                                    inverse_link_fn=inverse_link_fn, name=name)


def poisson_regression_head(weight_column: Any = None, label_dimension: int = 1,
                            loss_reduction: str = _SUM_OVER_BATCH_SIZE,
                            compute_full_loss: bool = True,
                            name: Optional[str] = None) -> Head:
    """A regression head with `tf.nn.log_poisson_loss` (logits are log rates) whose
    predictions are `exp(logits)`."""
    from tf1compat.ops.math_ops import exp
    from tf1compat.ops.nn_losses import log_poisson_loss

    def _poisson_loss(labels: Tensor, logits: Tensor) -> Tensor:
        return log_poisson_loss(targets=labels, log_input=logits,
                                compute_full_loss=compute_full_loss)
    return head_lib.regression_head(weight_column=weight_column,
                                    label_dimension=label_dimension,
                                    loss_reduction=loss_reduction, loss_fn=_poisson_loss,
                                    inverse_link_fn=exp, name=name)


def logistic_regression_head(weight_column: Any = None,
                             loss_reduction: str = _SUM_OVER_BATCH_SIZE,
                             name: Optional[str] = None) -> Head:
    """A regression head with sigmoid cross entropy on float labels in [0, 1]; predictions
    are `sigmoid(logits)`, exported as a RegressionOutput (no classes, no AUC)."""
    from tf1compat.ops.math_ops import sigmoid
    from tf1compat.ops.nn_losses import sigmoid_cross_entropy_with_logits

    def _logistic_loss(labels: Tensor, logits: Tensor) -> Tensor:
        labels = util.assert_range(labels, 2, message="Labels must be in range [0, 1]")
        return sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
    return head_lib.regression_head(weight_column=weight_column, label_dimension=1,
                                    loss_reduction=loss_reduction, loss_fn=_logistic_loss,
                                    inverse_link_fn=sigmoid, name=name)


def multi_label_head(n_classes: int, weight_column: Any = None, thresholds: Any = None,
                     label_vocabulary: Optional[Sequence[str]] = None,
                     loss_reduction: str = _SUM_OVER_BATCH_SIZE,
                     loss_fn: Optional[Callable] = None,
                     classes_for_class_based_metrics: Any = None,
                     name: Optional[str] = None) -> Head:
    """A head for examples with zero or more of `n_classes` labels (TF 1.15's checks and
    errors)."""
    thresholds = tuple(thresholds) if thresholds else tuple()
    if n_classes is None or n_classes < 2:
        raise ValueError("n_classes must be > 1 for multi-class classification. "
                         f"Given: {n_classes}")
    base_head.check_multi_label_thresholds_and_vocabulary(thresholds, label_vocabulary,
                                                          n_classes)
    if loss_fn:
        util.validate_loss_fn_args(loss_fn)
    util.check_reduction(loss_reduction)
    # TF 1.15's message, typo included.
    class_ids = base_head.metric_class_ids(
        classes_for_class_based_metrics, label_vocabulary, n_classes,
        "label_vocabulary must be provided when classes_for_class_based_metrics are sting.")
    return _MultiLabelHead(n_classes, weight_column, thresholds, label_vocabulary,
                           loss_reduction, loss_fn, class_ids, name)


class _MultiLabelHead(Head):
    """Sigmoid cross entropy per class, averaged over the classes."""

    def __init__(self, n_classes: int, weight_column: Any, thresholds: Tuple[float, ...],
                 label_vocabulary: Optional[Sequence[str]], loss_reduction: str,
                 loss_fn: Optional[Callable], class_ids: Tuple[int, ...],
                 name: Optional[str]):
        super().__init__(name, weight_column, loss_reduction, loss_fn)
        self._n_classes = n_classes
        self._thresholds = thresholds
        self._label_vocabulary = label_vocabulary
        self._class_ids = class_ids

    @property
    def logits_dimension(self) -> int:
        return self._n_classes

    def _process_labels(self, labels: Any) -> Tensor:
        """Multi-hot int64 labels from a SparseTensor of ids or strings (or a checked
        dense indicator tensor)."""
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        from tf1compat.ops.check_ops import (assert_integer, assert_less,
                                             assert_non_negative)
        from tf1compat.ops.lookup_ops import index_table_from_tensor
        from tf1compat.ops.math_ops import cast
        from tf1compat.ops.sparse_tail import sparse_to_indicator
        if labels is None:
            raise ValueError("You must provide a labels Tensor. Given: None. Suggested "
                             "troubleshooting steps: Check that your data contain your label "
                             "feature. Check that your input_fn properly parses and returns "
                             "labels.")
        if isinstance(labels, SparseTensor):
            if labels.dtype == dtypes.string:
                ids = index_table_from_tensor(vocabulary_list=tuple(self._label_vocabulary),
                                              name="class_id_lookup").lookup(labels.values)
                ids = SparseTensor(indices=labels.indices, values=ids,
                                   dense_shape=labels.dense_shape)
                return cast(sparse_to_indicator(ids, self._n_classes), dtype=dtypes.int64)
            message = ("labels must be an integer SparseTensor with values in "
                       f"[0, {self._n_classes})")
            checks = [assert_integer(labels.values, message=message),
                      assert_less(labels.values,
                                  convert_to_tensor(self._n_classes, dtype=labels.dtype),
                                  message=message),
                      assert_non_negative(labels.values, message=message)]
            with control_dependencies(checks):
                return cast(sparse_to_indicator(labels, self._n_classes), dtype=dtypes.int64)
        return util.assert_range(
            convert_to_tensor(labels), 2,
            message="labels must be an integer indicator Tensor with values in [0, 1]")

    def create_loss(self, features: Dict[str, Any], mode: str, logits: Any,
                    labels: Any) -> LossSpec:
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        from tf1compat.losses.losses_impl import sigmoid_cross_entropy
        from tf1compat.ops.reduction_ops import reduce_mean
        logits = convert_to_tensor(logits)
        labels = util.check_dense_labels_match_logits_and_reshape(
            self._process_labels(labels), logits, self._n_classes)
        if self._loss_fn:
            loss = util.call_loss_fn(self._loss_fn, labels, logits, features, 1)
        else:
            loss = sigmoid_cross_entropy(multi_class_labels=labels, logits=logits,
                                         reduction=Reduction.NONE)
            loss = reduce_mean(loss, axis=-1, keepdims=True)
        return self._reduce(features, logits, loss, labels)

    def _predictions(self, logits: Any) -> Tuple[Tensor, Dict[str, Tensor]]:
        from tf1compat.ops.math_ops import sigmoid
        logits = util.check_logits_final_dim(logits, self._n_classes)
        with name_scope(None, "predictions", (logits,)):
            probabilities = sigmoid(logits, name=PredictionKeys.PROBABILITIES)
        return logits, {PredictionKeys.LOGITS: logits,
                        PredictionKeys.PROBABILITIES: probabilities}

    def _export_outputs(self, predictions: Dict[str, Tensor]) -> Dict[str, Any]:
        output = util.classification_output(predictions[PredictionKeys.PROBABILITIES],
                                            self._n_classes, self._label_vocabulary)
        return {head_lib._DEFAULT_SERVING_KEY: output,
                head_lib._CLASSIFY_SERVING_KEY: output,
                head_lib._PREDICT_SERVING_KEY: export_output.PredictOutput(predictions)}

    def _metric_args(self, loss: LossSpec, logits: Tensor,
                     predictions: Dict[str, Tensor]) -> Dict[str, Any]:
        return {"labels": loss.processed_labels,
                "probabilities": predictions[PredictionKeys.PROBABILITIES]}

    def _eval_metric_ops(self, labels: Tensor, probabilities: Tensor, weights: Any,
                         unreduced_loss: Tensor, regularization_loss: Any) -> Dict[str, Any]:
        from tf1compat.metrics.metrics_impl import mean
        keys = MetricKeys
        key = lambda k: util.summary_key(self._name, k)  # noqa: E731
        with name_scope(None, "metrics", (labels, probabilities, weights, unreduced_loss,
                                          regularization_loss)):
            ops = {
                key(keys.LOSS_MEAN): mean(values=unreduced_loss, weights=weights,
                                          name=keys.LOSS_MEAN),
                key(keys.AUC): util.auc(labels=labels, predictions=probabilities,
                                        weights=weights, name=keys.AUC),
                key(keys.AUC_PR): util.auc(labels=labels, predictions=probabilities,
                                           weights=weights, curve="PR", name=keys.AUC_PR)}
            self._regularization_metric(ops, regularization_loss)
            util.threshold_metrics(ops, self._name, labels, probabilities, weights,
                                   self._thresholds)
            for class_id in self._class_ids:
                self._class_metrics(ops, class_id, labels, probabilities, weights)
        return ops

    def _class_metrics(self, ops: Dict[str, Any], class_id: int, labels: Tensor,
                       probabilities: Tensor, weights: Any) -> None:
        """`probability_mean`, `auc` and `auc_precision_recall` of one class (keyed by its
        id, or its vocabulary name)."""
        from tf1compat.ops.array_ops import concat, rank
        from tf1compat.ops.creation_ops import ones, zeros
        from tf1compat.ops.strided_slice import slice as slice_
        keys = MetricKeys
        batch_rank = rank(probabilities) - 1
        begin = concat([zeros([batch_rank], dtype=dtypes.int32), [class_id]], axis=0)
        size = concat([-1 * ones([batch_rank], dtype=dtypes.int32), [1]], axis=0)
        class_probabilities = slice_(probabilities, begin=begin, size=size)
        class_labels = slice_(labels, begin=begin, size=size)
        vocab = self._label_vocabulary
        names = ((keys.PROBABILITY_MEAN_AT_CLASS % class_id, keys.AUC_AT_CLASS % class_id,
                  keys.AUC_PR_AT_CLASS % class_id) if vocab is None else
                 (keys.PROBABILITY_MEAN_AT_NAME % vocab[class_id],
                  keys.AUC_AT_NAME % vocab[class_id], keys.AUC_PR_AT_NAME % vocab[class_id]))
        ops[util.summary_key(self._name, names[0])] = util.predictions_mean(
            predictions=class_probabilities, weights=weights, name=names[0])
        ops[util.summary_key(self._name, names[1])] = util.auc(
            labels=class_labels, predictions=class_probabilities, weights=weights,
            name=names[1])
        ops[util.summary_key(self._name, names[2])] = util.auc(
            labels=class_labels, predictions=class_probabilities, weights=weights,
            curve="PR", name=names[2])
