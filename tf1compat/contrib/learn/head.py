"""`tf.contrib.learn`'s heads (TF 1.15's contrib/learn/python/learn/estimators/head.py):
`regression_head`, `poisson_regression_head` and `multi_class_head` (binary logistic for
two classes), turning logits into contrib `ModelFnOps`.

They differ from `tf.estimator`'s heads in what TF 1.15 contrib did: the training loss is
the mean of `weight * loss` over the batch while the reported loss is the weighted average,
predictions `logits`/`logistic`/`probabilities`/`classes` (`scores` for regression), the
metric keys `loss`, `accuracy`, `auc`, `labels/prediction_mean`,
`accuracy/threshold_0.500000_mean`, ... and the optional `centered_bias_weight` variable
trained by its own Adagrad(0.1) step.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence

from tf1compat.contrib.learn.estimator import ModelFnOps
from tf1compat.contrib.learn.saved_model_export_utils import ProblemType
from tf1compat.framework import dtypes
from tf1compat.framework.graph import name_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.util import tf_logging

__all__ = ["regression_head", "poisson_regression_head", "multi_class_head", "MetricKey",
           "PredictionKey"]

_TRAIN, _EVAL, _INFER = "train", "eval", "infer"


class MetricKey:
    """`tf.contrib.learn.MetricKey`: the heads' metric names."""

    LOSS = "loss"
    AUC = "auc"
    AUC_PR = "auc_precision_recall"
    CLASS_AUC = "auc/class%d"
    CLASS_AUC_PR = "auc_precision_recall/class%d"
    PREDICTION_MEAN = "labels/prediction_mean"
    CLASS_PREDICTION_MEAN = "labels/prediction_mean/class%d"
    CLASS_LOGITS_MEAN = "labels/logits_mean/class%d"
    CLASS_PROBABILITY_MEAN = "labels/probability_mean/class%d"
    LABEL_MEAN = "labels/actual_label_mean"
    CLASS_LABEL_MEAN = "labels/actual_label_mean/class%d"
    ACCURACY = "accuracy"
    ACCURACY_BASELINE = "accuracy/baseline_label_mean"
    ACCURACY_MEAN = "accuracy/threshold_%f_mean"
    PRECISION_MEAN = "precision/positive_threshold_%f_mean"
    RECALL_MEAN = "recall/positive_threshold_%f_mean"


class PredictionKey:
    """`tf.contrib.learn.PredictionKey`: the heads' prediction names."""

    CLASSES = "classes"
    PROBABILITIES = "probabilities"
    LOGITS = "logits"
    LOGISTIC = "logistic"
    SCORES = "scores"
    TOP_K = "top_k"
    GENERIC = "output"


def _summary_key(head_name: Optional[str], key: str) -> str:
    return f"{key}/{head_name}" if head_name else key


def _compute_weighted_loss(loss_unweighted: Any, weight: Any, name: str = "loss") -> Any:
    """(training loss, reported loss): sum(w * l) / batch and sum(w * l) / sum(w)."""
    from tf1compat.ops.math_ops import cast, div, multiply
    from tf1compat.ops.reduction_ops import reduce_mean, reduce_sum
    from tf1compat.ops.weights_broadcast_ops import broadcast_weights
    with name_scope(name, values=(loss_unweighted, weight)) as scope:
        if weight is None:
            loss = reduce_mean(loss_unweighted, name=scope)
            return loss, loss
        weight = broadcast_weights(weight, loss_unweighted)
        with name_scope(None, "weighted_loss", (loss_unweighted, weight)) as inner:
            weighted = multiply(loss_unweighted, weight, name=inner)
        mean = reduce_mean(weighted, name=scope)
        normalized = div(reduce_sum(weighted), cast(reduce_sum(weight), dtypes.float32),
                         name="weighted_average_loss")
        return mean, normalized


def _as_columns(labels: Any, logits: Any) -> tuple:
    """Labels and logits as tensors, a rank-1 one made a column, shapes checked (TF 1.15's
    regression losses)."""
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    from tf1compat.ops.array_ops import expand_dims
    logits, labels = convert_to_tensor(logits), convert_to_tensor(labels)
    if len(labels.get_shape()) == 1:
        labels = expand_dims(labels, axis=1)
    if len(logits.get_shape()) == 1:
        logits = expand_dims(logits, axis=1)
    logits.get_shape().assert_is_compatible_with(labels.get_shape())
    return labels, logits


def _mean_squared_loss(labels: Any, logits: Any, weights: Any = None) -> Any:
    from tf1compat.ops.math_ops import cast, squared_difference
    with name_scope(None, "mean_squared_loss", (logits, labels)) as name:
        labels, logits = _as_columns(labels, logits)
        loss = squared_difference(logits, cast(labels, dtypes.float32), name=name)
        return _compute_weighted_loss(loss, weights)


def _poisson_loss(labels: Any, logits: Any, weights: Any = None) -> Any:
    from tf1compat.ops.nn_losses import log_poisson_loss
    with name_scope(None, "_poisson_loss", (logits, labels)) as name:
        labels, logits = _as_columns(labels, logits)
        loss = log_poisson_loss(labels, logits, compute_full_loss=True, name=name)
        return _compute_weighted_loss(loss, weights)


def _log_loss_with_two_classes(labels: Any, logits: Any, weights: Any = None) -> Any:
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    from tf1compat.ops.array_ops import expand_dims
    from tf1compat.ops.math_ops import cast
    from tf1compat.ops.nn_losses import sigmoid_cross_entropy_with_logits
    with name_scope(None, "log_loss_with_two_classes", (logits, labels)) as name:
        logits = convert_to_tensor(logits)
        labels = cast(labels, dtypes.float32)
        if len(labels.get_shape()) == 1:
            labels = expand_dims(labels, axis=1)
        loss = sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name=name)
        return _compute_weighted_loss(loss, weights)


def _softmax_cross_entropy_loss(labels: Any, logits: Any, weights: Any = None) -> Any:
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    from tf1compat.ops.array_ops import expand_dims, squeeze
    from tf1compat.ops.nn_losses import sparse_softmax_cross_entropy_with_logits
    with name_scope(None, "softmax_cross_entropy_loss", (logits, labels)) as name:
        labels = convert_to_tensor(labels)
        if not labels.dtype.is_integer:
            raise ValueError(f"Labels dtype should be integer Instead got {labels.dtype}.")
        squeezed = len(labels.get_shape()) == 2
        if squeezed:
            labels = squeeze(labels, axis=(1,))
        loss = sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits,
                                                        name=name)
        if squeezed:
            loss = expand_dims(loss, axis=1)
        return _compute_weighted_loss(loss, weights)


def _weight_tensor(features: Dict[str, Any], weight_column_name: Optional[str]) -> Any:
    """The example weights as float32, a [batch] vector made [batch, 1]."""
    from tf1compat.ops.array_ops import reshape
    from tf1compat.ops.math_ops import cast
    if not weight_column_name:
        return None
    if weight_column_name not in features:
        raise ValueError(f"Weights {weight_column_name} missing from features.")
    with name_scope(None, "weight_tensor", tuple(features.values())):
        weight = cast(features[weight_column_name], dtypes.float32)
        if weight.get_shape().ndims == 1:
            tf_logging.warning(f"Weights {weight_column_name} has shape "
                               f"{weight.get_shape()}, expanding to make it 2d.")
            return reshape(weight, (-1, 1))
        return weight


def _to_labels_tensor(labels: Any, label_name: Optional[str]) -> Any:
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    labels = labels[label_name] if isinstance(labels, dict) else labels
    if isinstance(labels, SparseTensor):
        raise ValueError("SparseTensor is not supported.")
    return convert_to_tensor(labels)


def _float_weights_or_none(weights: Any) -> Any:
    from tf1compat.ops.math_ops import cast
    if weights is None:
        return None
    with name_scope(None, "float_weights", (weights,)) as name:
        return cast(weights, dtypes.float32, name=name)


def _streaming_mean(values: Any, weights: Any = None, class_id: Optional[int] = None) -> Any:
    """TF's _indicator_labels_streaming_mean / _predictions_streaming_mean."""
    from tf1compat.metrics.metrics_impl import mean
    from tf1compat.ops.math_ops import cast
    from tf1compat.ops.weights_broadcast_ops import broadcast_weights
    values = cast(values, dtypes.float32)
    weights = _float_weights_or_none(weights)
    if weights is not None:
        weights = broadcast_weights(weights, values)
    if class_id is not None:
        if weights is not None:
            weights = weights[:, class_id]
        values = values[:, class_id]
    return mean(values, weights)


def _class_streaming_mean(values: Any, weights: Any, class_id: int) -> Any:
    """The fraction of `values` (class ids) equal to `class_id`."""
    from tf1compat.metrics.metrics_impl import mean
    from tf1compat.ops.creation_ops import ones_like, zeros_like
    from tf1compat.ops.indexing_ops import where
    from tf1compat.ops.math_ops import cast, equal
    return mean(where(equal(cast(class_id, dtypes.int32), cast(values, dtypes.int32)),
                      ones_like(values), zeros_like(values)), weights=weights)


def _streaming_auc(predictions: Any, labels: Any, weights: Any = None,
                   class_id: Optional[int] = None, curve: str = "ROC") -> Any:
    from tf1compat.metrics.metrics_impl import auc
    from tf1compat.ops.math_ops import cast
    from tf1compat.ops.weights_broadcast_ops import broadcast_weights
    predictions = cast(predictions, dtypes.float32)
    if labels.dtype.base_dtype != dtypes.bool:
        tf_logging.warning("Casting %s labels to bool.", labels.dtype)
        labels = cast(labels, dtypes.bool)
    weights = _float_weights_or_none(weights)
    if weights is not None:
        weights = broadcast_weights(weights, predictions)
    if class_id is not None:
        if weights is not None:
            weights = weights[:, class_id]
        predictions, labels = predictions[:, class_id], labels[:, class_id]
    return auc(labels, predictions, weights, curve=curve)


def _at_threshold(metric: Callable, predictions: Any, labels: Any, weights: Any,
                  threshold: float) -> Any:
    from tf1compat.ops.array_ops import squeeze
    value, update = metric(labels, predictions, (threshold,), _float_weights_or_none(weights))
    return squeeze(value), squeeze(update)


def _centered_bias(logits_dimension: int, head_name: Optional[str]) -> Any:
    """The `centered_bias_weight` variable (zeros) and its per-dimension summaries."""
    from tf1compat.ops.creation_ops import zeros
    from tf1compat.summary.summary_ops import scalar
    from tf1compat.variables.variables import Variable
    bias = Variable(zeros(shape=(logits_dimension,)), name="centered_bias_weight",
                    trainable=True)
    for dim in range(logits_dimension):
        tag = f"centered_bias/bias_{dim}" + (f"/{head_name}" if head_name else "")
        scalar(tag, bias[dim])
    return bias


def _centered_bias_step(bias: Any, batch_size: Any, labels: Any, loss_fn: Callable,
                        weights: Any) -> Any:
    from tf1compat.ops.array_ops import reshape, shape
    from tf1compat.ops.reduction_ops import reduce_mean
    from tf1compat.ops.transform_ops import tile
    from tf1compat.training.optimizers.adagrad import AdagradOptimizer
    with name_scope(None, "centered_bias_step", (labels,)) as name:
        dimension = shape(bias)[0]
        logits = reshape(tile(bias, (batch_size,)), (batch_size, dimension))
        with name_scope(None, "centered_bias", (labels, logits)):
            loss = reduce_mean(loss_fn(labels, logits, weights), name="training_loss")
    return AdagradOptimizer(0.1).minimize(loss, var_list=(bias,), name=name)


class _SingleHead:
    """The parts every contrib head shares: logits -> predictions, loss, train_op,
    metrics, in a variable scope named after the head."""

    default_scope = "head"
    problem_type = ProblemType.CLASSIFICATION

    def __init__(self, logits_dimension: int, loss_fn: Callable, label_name: Optional[str],
                 weight_column_name: Optional[str], enable_centered_bias: bool,
                 head_name: Optional[str]):
        if logits_dimension is None or logits_dimension < 1:
            raise ValueError(f"Invalid logits_dimension {logits_dimension}.")
        self._logits_dimension = logits_dimension
        self._loss_fn = loss_fn
        self._label_name = label_name
        self._weight_column_name = weight_column_name
        self._enable_centered_bias = enable_centered_bias
        self._head_name = head_name

    @property
    def logits_dimension(self) -> int:
        return self._logits_dimension

    @property
    def label_name(self) -> Optional[str]:
        return self._label_name

    @property
    def weight_column_name(self) -> Optional[str]:
        return self._weight_column_name

    @property
    def head_name(self) -> Optional[str]:
        return self._head_name

    def _transform_labels(self, labels: Any) -> Any:
        return _to_labels_tensor(labels, self._label_name)

    def _loss(self, labels: Any, logits: Any, weights: Any) -> Any:
        return self._loss_fn(labels, logits, weights)

    def create_model_fn_ops(self, features: Dict[str, Any], mode: str, labels: Any = None,
                            train_op_fn: Optional[Callable] = None, logits: Any = None,
                            logits_input: Any = None, scope: Any = None) -> ModelFnOps:
        """The ModelFnOps of `mode` for `logits` (or a linear layer on `logits_input`)."""
        from tf1compat.variables.variable_scope import variable_scope
        values = tuple(features.values()) + (labels, logits, logits_input)
        with variable_scope(scope, default_name=self._head_name or self.default_scope,
                            values=values):
            if mode not in (_TRAIN, _EVAL, _INFER):
                raise ValueError(f"mode={mode} unrecognized.")
            labels = None if mode == _INFER or labels is None else \
                self._transform_labels(labels)
            logits = self._logits(logits_input, logits)
            return self._model_fn_ops(features, mode, labels, train_op_fn, logits)

    def _logits(self, logits_input: Any, logits: Any) -> Any:
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        if logits is None:
            if logits_input is None:
                raise ValueError("Neither logits nor logits_input supplied.")
            from tf1compat.contrib.layers.layers import fully_connected
            return fully_connected(logits_input, self._logits_dimension, activation_fn=None,
                                   scope="logits")
        if logits_input is not None:
            raise ValueError("Both logits and logits_input supplied.")
        logits = convert_to_tensor(logits, name="logits")
        dims = logits.get_shape().dims
        if dims is not None:
            dims[-1].assert_is_compatible_with(self._logits_dimension)
        return logits

    def _model_fn_ops(self, features: Dict[str, Any], mode: str, labels: Any,
                      train_op_fn: Optional[Callable], logits: Any) -> ModelFnOps:
        from tf1compat.ops.array_ops import identity, shape
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.ops.nn_ops import bias_add
        from tf1compat.summary.summary_ops import scalar
        centered_bias = None
        if self._enable_centered_bias:
            centered_bias = _centered_bias(self._logits_dimension, self._head_name)
            logits = bias_add(logits, centered_bias)
        predictions = self._predictions(logits)
        loss = train_op = metrics = None
        if mode != _INFER and labels is not None:
            weights = _weight_tensor(features, self._weight_column_name)
            loss, reported_loss = self._loss(labels, logits, weights)
            with name_scope(""):
                scalar(_summary_key(self._head_name, MetricKey.LOSS), identity(reported_loss))
            if mode == _TRAIN:
                if train_op_fn is None:
                    raise ValueError("train_op_fn can not be None in TRAIN mode")
                bias_step = None
                if centered_bias is not None:
                    bias_step = _centered_bias_step(centered_bias, shape(logits)[0], labels,
                                                    self._loss, weights)
                with name_scope(None, "train_op", (loss, labels)):
                    train_op = train_op_fn(loss)
                    if bias_step is not None:
                        train_op = group(train_op, bias_step)
            metrics = self._metrics(reported_loss, predictions, labels, weights)
        training_loss = loss
        if mode == _EVAL and loss is not None:
            # TF's contrib Estimator reported only the "loss" metric, the mean of the
            # weighted average loss; the core Estimator under ours reports mean(loss).
            loss = reported_loss
        ops = ModelFnOps(mode=mode, predictions=predictions, loss=loss, train_op=train_op,
                         eval_metric_ops=metrics,
                         output_alternatives=self._output_alternatives(predictions))
        # A multi head merges its members' training losses in EVAL mode too (TF 1.15).
        ops._training_loss = training_loss
        return ops

    def _predictions(self, logits: Any) -> Dict[str, Any]:
        raise NotImplementedError()

    def _output_alternatives(self, predictions: Dict[str, Any]) -> Dict[Any, Any]:
        """{head name: (problem type, outputs)}: what export_savedmodel signs."""
        return {self._head_name: (self.problem_type, predictions)}

    def _loss_and_accuracy(self, eval_loss: Any, classes: Any, labels: Any,
                           weights: Any) -> Dict[str, Any]:
        """The `loss` and `accuracy` metrics (keys suffixed with the head's name)."""
        from tf1compat.metrics.metrics_impl import accuracy, mean
        return {_summary_key(self._head_name, MetricKey.LOSS): mean(eval_loss),
                _summary_key(self._head_name, MetricKey.ACCURACY): accuracy(labels, classes,
                                                                            weights)}

    def _metrics(self, eval_loss: Any, predictions: Dict[str, Any], labels: Any,
                 weights: Any) -> Dict[str, Any]:
        raise NotImplementedError()


class _RegressionHead(_SingleHead):
    """Regression: `scores` = link_fn(logits), squared (or Poisson) loss."""

    default_scope = "regression_head"
    problem_type = ProblemType.LINEAR_REGRESSION

    def __init__(self, label_dimension: int, loss_fn: Callable, link_fn: Callable,
                 label_name: Optional[str] = None, weight_column_name: Optional[str] = None,
                 enable_centered_bias: bool = False, head_name: Optional[str] = None):
        super().__init__(label_dimension, loss_fn, label_name, weight_column_name,
                         enable_centered_bias, head_name)
        self._link_fn = link_fn

    def _predictions(self, logits: Any) -> Dict[str, Any]:
        from tf1compat.ops.array_ops import squeeze
        key = PredictionKey.SCORES
        with name_scope(None, "predictions", (logits,)):
            if self._logits_dimension == 1:
                logits = squeeze(logits, axis=(1,), name=key)
            return {key: self._link_fn(logits)}

    def _metrics(self, eval_loss: Any, predictions: Dict[str, Any], labels: Any,
                 weights: Any) -> Dict[str, Any]:
        from tf1compat.metrics.metrics_impl import mean
        with name_scope("metrics", values=[eval_loss]):
            return {_summary_key(self._head_name, MetricKey.LOSS): mean(eval_loss)}


def _classification_output_alternatives(head_name: Optional[str], problem_type: int,
                                        predictions: Dict[str, Any],
                                        label_keys: Optional[Sequence[str]] = None
                                        ) -> Dict[Any, Any]:
    """A classification head's export outputs: `probabilities` and string `classes` of
    the same shape (the label keys, or the class ids as strings), as Servo wants them."""
    from tf1compat.ops.array_ops import expand_dims, shape
    from tf1compat.ops.creation_ops import range as range_
    from tf1compat.ops.string_ops import as_string
    from tf1compat.ops.transform_ops import tile
    probabilities = predictions.get(PredictionKey.PROBABILITIES)
    if probabilities is None:
        raise ValueError(f"{PredictionKey.PROBABILITIES} missing in predictions")
    with name_scope(None, "_classification_output_alternatives", (probabilities,)):
        batch_size = shape(probabilities)[0]
        if label_keys:
            classes = tile(expand_dims(label_keys, axis=0), [batch_size, 1],
                           name="classes_tensor")
        else:
            n = shape(probabilities)[1]
            classes = as_string(tile(expand_dims(range_(n), axis=0), [batch_size, 1]),
                                name="classes_tensor")
    return {head_name: (problem_type, {PredictionKey.PROBABILITIES: probabilities,
                                       PredictionKey.CLASSES: classes})}


class _BinaryLogisticHead(_SingleHead):
    """Two classes: one logit, sigmoid cross entropy, threshold metrics and AUC."""

    default_scope = "binary_logistic_head"
    problem_type = ProblemType.LOGISTIC_REGRESSION

    def __init__(self, label_name: Optional[str] = None,
                 weight_column_name: Optional[str] = None, enable_centered_bias: bool = False,
                 head_name: Optional[str] = None, loss_fn: Optional[Callable] = None,
                 thresholds: Optional[Sequence[float]] = None):
        super().__init__(1, loss_fn or _log_loss_with_two_classes, label_name,
                         weight_column_name, enable_centered_bias, head_name)
        self._thresholds = tuple(thresholds) if thresholds else (.5,)

    def _predictions(self, logits: Any) -> Dict[str, Any]:
        from tf1compat.ops.array_ops import concat
        from tf1compat.ops.creation_ops import zeros_like
        from tf1compat.ops.math_ops import sigmoid
        from tf1compat.ops.nn_ops import softmax
        from tf1compat.ops.reduction_ops import argmax
        with name_scope(None, "predictions", (logits,)):
            two_class_logits = concat((zeros_like(logits), logits), 1)
            return {
                PredictionKey.LOGITS: logits,
                PredictionKey.LOGISTIC: sigmoid(logits, name=PredictionKey.LOGISTIC),
                PredictionKey.PROBABILITIES: softmax(two_class_logits,
                                                     name=PredictionKey.PROBABILITIES),
                PredictionKey.CLASSES: argmax(two_class_logits, 1, name=PredictionKey.CLASSES),
            }

    def _output_alternatives(self, predictions: Dict[str, Any]) -> Dict[Any, Any]:
        return _classification_output_alternatives(self._head_name, self.problem_type,
                                                   predictions)

    def _metrics(self, eval_loss: Any, predictions: Dict[str, Any], labels: Any,
                 weights: Any) -> Dict[str, Any]:
        from tf1compat.metrics.metrics_impl import (accuracy, mean, precision_at_thresholds,
                                                    recall_at_thresholds)
        from tf1compat.ops.math_ops import cast, greater_equal
        key = lambda k: _summary_key(self._head_name, k)  # noqa: E731
        values = [eval_loss, labels, weights] + list(predictions.values())
        with name_scope("metrics", values=values):
            classes = predictions[PredictionKey.CLASSES]
            logistic = predictions[PredictionKey.LOGISTIC]
            metrics = {key(MetricKey.LOSS): mean(eval_loss),
                       key(MetricKey.ACCURACY): accuracy(labels, classes, weights),
                       key(MetricKey.PREDICTION_MEAN): _streaming_mean(logistic, weights),
                       key(MetricKey.LABEL_MEAN): _streaming_mean(labels, weights),
                       key(MetricKey.ACCURACY_BASELINE): _streaming_mean(labels, weights),
                       key(MetricKey.AUC): _streaming_auc(logistic, labels, weights),
                       key(MetricKey.AUC_PR): _streaming_auc(logistic, labels, weights,
                                                             curve="PR")}
            for threshold in self._thresholds:
                metrics[key(MetricKey.ACCURACY_MEAN % threshold)] = accuracy(
                    labels, cast(greater_equal(logistic, threshold), dtypes.float32), weights)
                metrics[key(MetricKey.PRECISION_MEAN % threshold)] = _at_threshold(
                    precision_at_thresholds, logistic, labels, weights, threshold)
                metrics[key(MetricKey.RECALL_MEAN % threshold)] = _at_threshold(
                    recall_at_thresholds, logistic, labels, weights, threshold)
        return metrics


class _MultiClassHead(_SingleHead):
    """n_classes > 2: softmax cross entropy on class ids (or `label_keys` strings)."""

    default_scope = "multi_class_head"

    def __init__(self, n_classes: int, label_name: Optional[str] = None,
                 weight_column_name: Optional[str] = None, enable_centered_bias: bool = False,
                 head_name: Optional[str] = None, loss_fn: Optional[Callable] = None,
                 thresholds: Optional[Sequence[float]] = None,
                 metric_class_ids: Optional[Sequence[int]] = None,
                 label_keys: Optional[Sequence[str]] = None):
        super().__init__(n_classes, loss_fn or _softmax_cross_entropy_loss, label_name,
                         weight_column_name, enable_centered_bias, head_name)
        if n_classes is None or n_classes <= 2:
            raise ValueError(f"n_classes must be > 2: {n_classes}.")
        self._thresholds = tuple(thresholds) if thresholds else (.5,)
        self._metric_class_ids = tuple(metric_class_ids or ())
        for class_id in self._metric_class_ids:
            if class_id < 0 or class_id >= n_classes:
                raise ValueError(f"Class ID {class_id} not in [0, {n_classes}).")
        if label_keys and len(label_keys) != n_classes:
            raise ValueError("Length of label_keys must equal n_classes.")
        self._label_keys = label_keys

    def _transform_labels(self, labels: Any) -> Any:
        from tf1compat.ops.lookup_ops import index_table_from_tensor
        tensor = _to_labels_tensor(labels, self._label_name)
        if self._label_keys:
            table = index_table_from_tensor(self._label_keys, name="label_id_lookup")
            return {"labels": tensor, "label_ids": table.lookup(tensor)}
        return {"labels": tensor, "label_ids": tensor}

    def _loss(self, labels: Any, logits: Any, weights: Any) -> Any:
        return self._loss_fn(labels["label_ids"], logits, weights)

    def _predictions(self, logits: Any) -> Dict[str, Any]:
        from tf1compat.ops.lookup_ops import index_to_string_table_from_tensor
        from tf1compat.ops.nn_ops import softmax
        from tf1compat.ops.reduction_ops import argmax
        with name_scope(None, "predictions", (logits,)):
            class_ids = argmax(logits, 1, name=PredictionKey.CLASSES)
            classes = class_ids
            if self._label_keys:
                table = index_to_string_table_from_tensor(self._label_keys,
                                                          name="class_string_lookup")
                classes = table.lookup(class_ids)
            return {PredictionKey.LOGITS: logits,
                    PredictionKey.PROBABILITIES: softmax(logits,
                                                         name=PredictionKey.PROBABILITIES),
                    PredictionKey.CLASSES: classes}

    def _output_alternatives(self, predictions: Dict[str, Any]) -> Dict[Any, Any]:
        return _classification_output_alternatives(self._head_name, self.problem_type,
                                                   predictions, self._label_keys)

    def _metrics(self, eval_loss: Any, predictions: Dict[str, Any], labels: Any,
                 weights: Any) -> Dict[str, Any]:
        from tf1compat.metrics.metrics_impl import accuracy, mean
        key = lambda k: _summary_key(self._head_name, k)  # noqa: E731
        values = ((eval_loss, labels["labels"], labels["label_ids"], weights)
                  + tuple(predictions.values()))
        with name_scope("metrics", values=values):
            logits = predictions[PredictionKey.LOGITS]
            probabilities = predictions[PredictionKey.PROBABILITIES]
            classes = predictions[PredictionKey.CLASSES]
            metrics = {key(MetricKey.LOSS): mean(eval_loss),
                       key(MetricKey.ACCURACY): accuracy(labels["labels"], classes, weights)}
            if not self._label_keys:
                for class_id in self._metric_class_ids:
                    metrics[key(MetricKey.CLASS_PREDICTION_MEAN % class_id)] = \
                        _class_streaming_mean(classes, weights, class_id)
                    metrics[key(MetricKey.CLASS_LABEL_MEAN % class_id)] = \
                        _class_streaming_mean(labels["label_ids"], weights, class_id)
                    metrics[key(MetricKey.CLASS_PROBABILITY_MEAN % class_id)] = \
                        _streaming_mean(probabilities, weights, class_id)
                    metrics[key(MetricKey.CLASS_LOGITS_MEAN % class_id)] = \
                        _streaming_mean(logits, weights, class_id)
        return metrics


def regression_head(label_name: Optional[str] = None, weight_column_name: Optional[str] = None,
                    label_dimension: int = 1, enable_centered_bias: bool = False,
                    head_name: Optional[str] = None, link_fn: Optional[Callable] = None) -> Any:
    """`tf.contrib.learn.regression_head`: mean squared error, `scores` predictions."""
    from tf1compat.ops.array_ops import identity
    return _RegressionHead(label_dimension, _mean_squared_loss, link_fn or identity,
                           label_name, weight_column_name, enable_centered_bias, head_name)


def poisson_regression_head(label_name: Optional[str] = None,
                            weight_column_name: Optional[str] = None,
                            label_dimension: int = 1, enable_centered_bias: bool = False,
                            head_name: Optional[str] = None) -> Any:
    """`tf.contrib.learn.poisson_regression_head`: Poisson loss, exp link."""
    from tf1compat.ops.math_ops import exp
    return _RegressionHead(label_dimension, _poisson_loss, exp, label_name,
                           weight_column_name, enable_centered_bias, head_name)


def _hinge_loss(labels: Any, logits: Any, weights: Any = None) -> Any:
    from tf1compat.losses.losses_impl import Reduction, hinge_loss
    from tf1compat.ops.array_ops import reshape
    with name_scope(None, "hinge_loss", (logits, labels)) as name:
        labels = reshape(labels, shape=(-1, 1))
        loss = hinge_loss(labels=labels, logits=logits, scope=name, reduction=Reduction.NONE)
        return _compute_weighted_loss(loss, weights)


class _BinarySvmHead(_SingleHead):
    """Two classes with an SVM: one logit, hinge loss, `classes` and `logits`
    predictions, loss and accuracy metrics."""

    default_scope = "binary_svm_head"

    def __init__(self, label_name: Optional[str] = None,
                 weight_column_name: Optional[str] = None, enable_centered_bias: bool = False,
                 head_name: Optional[str] = None, thresholds: Optional[Sequence[float]] = None):
        super().__init__(1, _hinge_loss, label_name, weight_column_name, enable_centered_bias,
                         head_name)
        self._thresholds = tuple(thresholds) if thresholds else (.5,)

    def _predictions(self, logits: Any) -> Dict[str, Any]:
        from tf1compat.ops.array_ops import concat
        from tf1compat.ops.creation_ops import zeros_like
        from tf1compat.ops.reduction_ops import argmax
        with name_scope(None, "predictions", (logits,)):
            two_class_logits = concat((zeros_like(logits), logits), 1)
            return {PredictionKey.LOGITS: logits,
                    PredictionKey.CLASSES: argmax(two_class_logits, 1,
                                                  name=PredictionKey.CLASSES)}

    def _metrics(self, eval_loss: Any, predictions: Dict[str, Any], labels: Any,
                 weights: Any) -> Dict[str, Any]:
        values = [eval_loss, labels, weights] + list(predictions.values())
        with name_scope("metrics", values=values):
            return self._loss_and_accuracy(eval_loss, predictions[PredictionKey.CLASSES],
                                           labels, weights)


def binary_svm_head(label_name: Optional[str] = None, weight_column_name: Optional[str] = None,
                    enable_centered_bias: bool = False, head_name: Optional[str] = None,
                    thresholds: Optional[Sequence[float]] = None) -> Any:
    """`tf.contrib.learn.binary_svm_head`: binary classification with the hinge loss."""
    return _BinarySvmHead(label_name, weight_column_name, enable_centered_bias, head_name,
                          thresholds)


def _wrap_custom_loss_fn(loss_fn: Callable) -> Callable:
    def wrapper(labels: Any, logits: Any, weights: Any = None) -> Any:
        loss = loss_fn(labels, logits) if weights is None else loss_fn(labels, logits, weights)
        return loss, loss
    return wrapper


def _verify_loss_fn_args(loss_fn: Callable) -> None:
    from tf1compat.estimator.util import fn_args
    for arg in ("labels", "logits", "weights"):
        if arg not in fn_args(loss_fn):
            raise ValueError(f"Argument {arg} not found in loss_fn.")


def multi_class_head(n_classes: int, label_name: Optional[str] = None,
                     weight_column_name: Optional[str] = None,
                     enable_centered_bias: bool = False, head_name: Optional[str] = None,
                     thresholds: Optional[Sequence[float]] = None,
                     metric_class_ids: Optional[Sequence[int]] = None,
                     loss_fn: Optional[Callable] = None,
                     label_keys: Optional[Sequence[str]] = None) -> Any:
    """`tf.contrib.learn.multi_class_head`: binary logistic for 2 classes, softmax cross
    entropy for more."""
    if n_classes is None or n_classes < 2:
        raise ValueError(f"n_classes must be > 1 for classification: {n_classes}.")
    if loss_fn:
        _verify_loss_fn_args(loss_fn)
        loss_fn = _wrap_custom_loss_fn(loss_fn)
    if n_classes == 2:
        if metric_class_ids:
            raise ValueError("metric_class_ids invalid for n_classes==2.")
        if label_keys:
            raise ValueError("label_keys is not supported for n_classes=2.")
        return _BinaryLogisticHead(label_name, weight_column_name, enable_centered_bias,
                                   head_name, loss_fn, thresholds)
    return _MultiClassHead(n_classes, label_name, weight_column_name, enable_centered_bias,
                           head_name, loss_fn, thresholds, metric_class_ids, label_keys)
