"""`tf.contrib.learn`'s heads over several labels or heads (TF 1.15's
contrib/learn/python/learn/estimators/head.py): `multi_label_head` (sigmoid cross entropy
on multi-hot labels), `loss_only_head` (extra loss terms such as regularizers),
`multi_head` (several named heads on one logits tensor, their losses summed with optional
weights) and `no_op_train_fn`.

As in TF 1.15, a multi head's members must be named; their metric keys carry the head name
as a suffix (`accuracy/head1`), its predictions are keyed `(head_name, prediction_key)`,
and the members' `train_op`s are grouped with the one `train_op_fn` makes of the merged
loss.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence

from tf1compat.contrib.learn.estimator import ModelFnOps
from tf1compat.contrib.learn.head import (MetricKey, PredictionKey, _compute_weighted_loss,
                                          _classification_output_alternatives,
                                          _SingleHead, _streaming_auc, _streaming_mean,
                                          _summary_key, _verify_loss_fn_args,
                                          _wrap_custom_loss_fn)
from tf1compat.framework import dtypes
from tf1compat.framework.graph import name_scope
from tf1compat.framework.sparse_tensor import SparseTensor

__all__ = ["multi_label_head", "loss_only_head", "multi_head", "no_op_train_fn"]

_TRAIN, _EVAL, _INFER = "train", "eval", "infer"


def _check_mode_valid(mode: str) -> None:
    if mode not in (_TRAIN, _EVAL, _INFER):
        raise ValueError(f"mode={mode} unrecognized.")


def _sigmoid_cross_entropy_loss(labels: Any, logits: Any, weights: Any = None) -> Any:
    from tf1compat.ops.math_ops import cast
    from tf1compat.ops.nn_losses import sigmoid_cross_entropy_with_logits
    with name_scope(None, "sigmoid_cross_entropy_loss", (logits, labels)) as name:
        loss = sigmoid_cross_entropy_with_logits(labels=cast(labels, dtypes.float32),
                                                 logits=logits, name=name)
        return _compute_weighted_loss(loss, weights)


class _MultiLabelHead(_SingleHead):
    """Zero or more of `n_classes` labels per example: multi-hot labels (or a
    SparseTensor of class ids), one sigmoid per class."""

    default_scope = "multi_label_head"

    def __init__(self, n_classes: int, label_name: Optional[str],
                 weight_column_name: Optional[str], enable_centered_bias: bool,
                 head_name: Optional[str], thresholds: Optional[Sequence[float]],
                 metric_class_ids: Optional[Sequence[int]] = None,
                 loss_fn: Optional[Callable] = None):
        super().__init__(n_classes, loss_fn or _sigmoid_cross_entropy_loss, label_name,
                         weight_column_name, enable_centered_bias, head_name)
        self._thresholds = tuple(thresholds) if thresholds else (.5,)
        self._metric_class_ids = tuple(metric_class_ids or ())
        for class_id in self._metric_class_ids:
            if class_id < 0 or class_id >= n_classes:
                raise ValueError(f"Class ID {class_id} not in [0, {n_classes}).")

    def _transform_labels(self, labels: Any) -> Any:
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        from tf1compat.ops.math_ops import cast
        from tf1compat.ops.sparse_tail import sparse_to_indicator
        labels = labels[self._label_name] if isinstance(labels, dict) else labels
        if isinstance(labels, SparseTensor):
            return cast(sparse_to_indicator(labels, self._logits_dimension), dtypes.int64)
        return convert_to_tensor(labels)

    def _predictions(self, logits: Any) -> Dict[str, Any]:
        from tf1compat.ops.math_ops import cast, greater, sigmoid
        with name_scope(None, "predictions", (logits,)):
            return {PredictionKey.LOGITS: logits,
                    PredictionKey.PROBABILITIES: sigmoid(logits,
                                                         name=PredictionKey.PROBABILITIES),
                    PredictionKey.CLASSES: cast(greater(logits, 0), dtypes.int64,
                                                name=PredictionKey.CLASSES)}

    def _output_alternatives(self, predictions: Dict[str, Any]) -> Dict[Any, Any]:
        return _classification_output_alternatives(self._head_name, self.problem_type,
                                                   predictions)

    def _metrics(self, eval_loss: Any, predictions: Dict[str, Any], labels: Any,
                 weights: Any) -> Dict[str, Any]:
        key = lambda k: _summary_key(self._head_name, k)  # noqa: E731
        values = [eval_loss, labels, weights] + list(predictions.values())
        with name_scope("metrics", values=values):
            classes = predictions[PredictionKey.CLASSES]
            probabilities = predictions[PredictionKey.PROBABILITIES]
            logits = predictions[PredictionKey.LOGITS]
            metrics = self._loss_and_accuracy(eval_loss, classes, labels, weights)
            metrics[key(MetricKey.AUC)] = _streaming_auc(probabilities, labels, weights)
            metrics[key(MetricKey.AUC_PR)] = _streaming_auc(probabilities, labels, weights,
                                                            curve="PR")
            for class_id in self._metric_class_ids:
                metrics[key(MetricKey.CLASS_PREDICTION_MEAN % class_id)] = \
                    _streaming_mean(classes, weights, class_id)
                metrics[key(MetricKey.CLASS_LABEL_MEAN % class_id)] = \
                    _streaming_mean(labels, weights, class_id)
                metrics[key(MetricKey.CLASS_PROBABILITY_MEAN % class_id)] = \
                    _streaming_mean(probabilities, weights, class_id)
                metrics[key(MetricKey.CLASS_LOGITS_MEAN % class_id)] = \
                    _streaming_mean(logits, weights, class_id)
                metrics[key(MetricKey.CLASS_AUC % class_id)] = _streaming_auc(
                    probabilities, labels, weights, class_id=class_id)
                metrics[key(MetricKey.CLASS_AUC_PR % class_id)] = _streaming_auc(
                    probabilities, labels, weights, class_id=class_id, curve="PR")
        return metrics


def multi_label_head(n_classes: int, label_name: Optional[str] = None,
                     weight_column_name: Optional[str] = None,
                     enable_centered_bias: bool = False, head_name: Optional[str] = None,
                     thresholds: Optional[Sequence[float]] = None,
                     metric_class_ids: Optional[Sequence[int]] = None,
                     loss_fn: Optional[Callable] = None) -> Any:
    """`tf.contrib.learn.multi_label_head`: multi-label classification with a sigmoid cross
    entropy loss on `[batch, n_classes]` multi-hot labels."""
    if n_classes < 2:
        raise ValueError("n_classes must be > 1 for classification.")
    if loss_fn:
        _verify_loss_fn_args(loss_fn)
    return _MultiLabelHead(n_classes, label_name, weight_column_name, enable_centered_bias,
                           head_name, thresholds, metric_class_ids,
                           _wrap_custom_loss_fn(loss_fn) if loss_fn else None)


class _LossOnlyHead:
    """Loss terms unrelated to labels (regularizers), usually one member of a multi head:
    `loss_fn()` returns a scalar or a list of scalars (summed)."""

    def __init__(self, loss_fn: Callable[[], Any], head_name: Optional[str] = None):
        self._loss_fn = loss_fn
        self.head_name = head_name or "loss_only_head"

    @property
    def logits_dimension(self) -> int:
        return 0

    def create_model_fn_ops(self, features: Dict[str, Any], mode: str, labels: Any = None,
                            train_op_fn: Optional[Callable] = None, logits: Any = None,
                            logits_input: Any = None, scope: Any = None) -> ModelFnOps:
        """The loss (and in TRAIN mode `train_op_fn(loss)`); no predictions or metrics."""
        from tf1compat.ops.array_ops import identity
        from tf1compat.ops.math_ops import add_n
        from tf1compat.summary.summary_ops import scalar
        from tf1compat.variables.variable_scope import variable_scope
        del features, labels, logits, logits_input  # the loss depends on none of them
        _check_mode_valid(mode)
        loss = train_op = None
        if mode != _INFER:
            with variable_scope(scope, default_name=self.head_name):
                loss = self._loss_fn()
                if isinstance(loss, list):
                    loss = add_n(loss)
                with name_scope(""):
                    scalar(_summary_key(self.head_name, MetricKey.LOSS), identity(loss))
                if mode == _TRAIN:
                    if train_op_fn is None:
                        raise ValueError("train_op_fn can not be None in TRAIN mode")
                    with name_scope(None, "train_op", (loss,)):
                        train_op = train_op_fn(loss)
        return ModelFnOps(mode=mode, loss=loss, train_op=train_op, predictions={},
                          eval_metric_ops={})


def loss_only_head(loss_fn: Callable[[], Any], head_name: Optional[str] = None) -> Any:
    """`tf.contrib.learn.loss_only_head`: a head holding only extra loss terms."""
    return _LossOnlyHead(loss_fn, head_name=head_name)


def no_op_train_fn(loss: Any) -> Any:
    """`tf.contrib.learn.no_op_train_fn`: a train_op_fn that trains nothing."""
    from tf1compat.ops.control_flow_ops import no_op
    del loss
    return no_op()


class _MultiHead:
    """Several named heads on one logits tensor (split by their `logits_dimension`s), a
    dict of logits by head name, or one `logits_input`."""

    def __init__(self, heads: Sequence[Any], loss_merger: Callable[[List[Any]], Any]):
        self._logits_dimension = 0
        for head in heads:
            if not head.head_name:
                raise ValueError("Members of MultiHead must have names.")
            self._logits_dimension += head.logits_dimension
        self._heads = list(heads)
        self._loss_merger = loss_merger

    @property
    def logits_dimension(self) -> int:
        return self._logits_dimension

    def create_model_fn_ops(self, features: Dict[str, Any], mode: str, labels: Any = None,
                            train_op_fn: Optional[Callable] = None, logits: Any = None,
                            logits_input: Any = None, scope: Any = None) -> ModelFnOps:
        """Each head's ModelFnOps (trained by `no_op_train_fn`), merged for `mode`."""
        _check_mode_valid(mode)
        if logits is None:
            pairs = [(head, None) for head in self._heads]
        elif isinstance(logits, dict):
            pairs = [(head, None if isinstance(head, _LossOnlyHead) else logits[head.head_name])
                     for head in self._heads]
        else:
            pairs = list(zip(self._heads, self._split_logits(logits)))
        all_ops = []
        for head, head_logits in pairs:
            kwargs = ({"logits_input": logits_input} if logits is None
                      else {"logits": head_logits})
            all_ops.append(head.create_model_fn_ops(
                features=features, mode=mode, labels=labels, train_op_fn=no_op_train_fn,
                scope=scope, **kwargs))
        if mode == _TRAIN:
            if train_op_fn is None:
                raise ValueError("train_op_fn can not be None in TRAIN mode.")
            return self._merge_train(all_ops, train_op_fn)
        if mode == _INFER:
            return self._merge_infer(all_ops)
        return self._merge_eval(all_ops)

    def _split_logits(self, logits: Any) -> List[Any]:
        from tf1compat.ops.strided_slice import slice as slice_
        split, begin = [], 0
        for head in self._heads:
            split.append(slice_(logits, [0, begin], [-1, head.logits_dimension]))
            begin += head.logits_dimension
        return split

    def _merge_train(self, all_ops: List[ModelFnOps], train_op_fn: Callable) -> ModelFnOps:
        from tf1compat.ops.control_flow_ops import group
        metrics: Dict[str, Any] = {}
        for ops in all_ops:
            metrics.update(ops.eval_metric_ops or {})
        loss = self._loss_merger([ops.loss for ops in all_ops])
        train_op = group(train_op_fn(loss), *[ops.train_op for ops in all_ops])
        return ModelFnOps(mode=_TRAIN, loss=loss, train_op=train_op, eval_metric_ops=metrics)

    def _merge_infer(self, all_ops: List[ModelFnOps]) -> ModelFnOps:
        predictions, alternatives = {}, {}
        for head, ops in zip(self._heads, all_ops):
            if isinstance(head, _LossOnlyHead):
                continue
            alternatives[head.head_name] = ops.output_alternatives[head.head_name]
            for k, v in ops.predictions.items():
                predictions[(head.head_name, k)] = v
        return ModelFnOps(mode=_INFER, predictions=predictions,
                          output_alternatives=alternatives)

    def _merge_eval(self, all_ops: List[ModelFnOps]) -> ModelFnOps:
        predictions, metrics = {}, {}
        for head, ops in zip(self._heads, all_ops):
            for k, v in ops.predictions.items():
                predictions[(head.head_name, k)] = v
            metrics.update(ops.eval_metric_ops)
        # TF merged the members' training losses (mean(weight * loss)), not the weighted
        # averages our single heads give the core Estimator as their EVAL loss.
        loss = self._loss_merger([getattr(ops, "_training_loss", ops.loss) for ops in all_ops])
        return ModelFnOps(mode=_EVAL, predictions=predictions, loss=loss,
                          eval_metric_ops=metrics)


def multi_head(heads: Sequence[Any], loss_weights: Optional[Sequence[float]] = None) -> Any:
    """`tf.contrib.learn.multi_head`: named heads on the same logits or hidden layer, their
    losses summed (each times its `loss_weights` entry when given)."""
    from tf1compat.ops.math_ops import add_n, multiply
    if loss_weights and len(loss_weights) != len(heads):
        raise ValueError("heads and loss_weights must have same size")

    def weighted_loss_merger(losses: List[Any]) -> Any:
        if loss_weights:
            if len(losses) != len(loss_weights):
                raise ValueError("losses and loss_weights must have same size")
            return add_n([multiply(loss, weight) for loss, weight in zip(losses, loss_weights)])
        return add_n(losses)

    return _MultiHead(heads, loss_merger=weighted_loss_merger)
