"""`tf.contrib.estimator.multi_head` (TF 1.15, tensorflow_estimator's
contrib/estimator/python/estimator/multi_head.py): several named TF1 heads trained
together.

* TRAIN: each member builds its spec with a no-op train_op_fn; their losses, weighted by
  `head_weights`, are added (`merge_losses/`) and the optimizer (or `train_op_fn`) minimizes
  the sum; a `loss` summary of the sum (the members write `loss/<name>`).
* EVAL: the members' metrics (their keys already carry `/<name>`) plus `loss/<name>`, the
  mean of each member's loss; the loss is the weighted sum.
* PREDICT: predictions keyed `(head_name, key)`; export outputs `<name>` (a member's
  default) and `<name>/<key>`, `serving_default` = the first member's default, and
  `predict` = one PredictOutput of every member's `predict` outputs as `<name>/<key>`.

`logits` is a dict keyed by head name, or one tensor split along its last dimension in
the members' order.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence

from tf1compat.estimator.canned import head_util as util
from tf1compat.estimator.canned.head import Head, LossSpec
from tf1compat.estimator.canned.metric_keys import MetricKeys
from tf1compat.estimator.head.multi_head import (merge_predict_export_outputs,
                                                 no_op_train_fn, split_logits)
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.model_fn import EstimatorSpec
from tf1compat.framework.graph import name_scope

__all__ = ["multi_head"]


def multi_head(heads: Sequence[Head], head_weights: Optional[Sequence[float]] = None) -> Head:
    """A head merging the named `heads`; the first one is served by default."""
    if head_weights:
        if len(head_weights) != len(heads):
            raise ValueError("heads and head_weights must have the same size. Given "
                             f"len(heads): {len(heads)}. Given len(head_weights): "
                             f"{len(head_weights)}.")
    if not heads:
        raise ValueError(f"Must specify heads. Given: {heads}")
    for head in heads:
        if not head.name:
            raise ValueError(f"All given heads must have name specified. Given: {head}")
    return _MultiHead(tuple(heads), tuple(head_weights) if head_weights else tuple())


def _merge_losses(losses: Sequence[Any], head_weights: Sequence[float]) -> Any:
    from tf1compat.ops.math_ops import add_n, multiply
    losses = tuple(losses)
    with name_scope(None, "merge_losses", losses + tuple(head_weights)):
        if head_weights:
            losses = tuple(multiply(loss, weight) for loss, weight in zip(losses, head_weights))
        return add_n(losses)


class _MultiHead(Head):
    """The members' specs merged; `name` is the members' names joined by `_`."""

    def __init__(self, heads: tuple, head_weights: tuple):
        super().__init__("_".join(h.name for h in heads), None, "", None)
        self._heads = heads
        self._head_weights = head_weights

    @property
    def logits_dimension(self) -> int:
        return sum(head.logits_dimension for head in self._heads)

    def create_loss(self, features: Dict[str, Any], mode: str, logits: Any,
                    labels: Any) -> LossSpec:
        """The weighted sum of the members' training losses; the other fields are dicts
        by head name (unreduced losses and example weights scaled by the head weight)."""
        from tf1compat.ops.math_ops import multiply
        logits = self._logits_dict(logits)
        training_losses, by_labels, by_loss, by_weights = [], {}, {}, {}
        for i, head in enumerate(self._heads):
            spec = head.create_loss(features, mode, logits[head.name], labels[head.name])
            training_losses.append(spec.training_loss)
            by_labels[head.name] = spec.processed_labels
            if self._head_weights:
                by_loss[head.name] = multiply(spec.unreduced_loss, self._head_weights[i])
                by_weights[head.name] = multiply(spec.weights, self._head_weights[i])
            else:
                by_loss[head.name] = spec.unreduced_loss
                by_weights[head.name] = spec.weights
        return LossSpec(training_loss=_merge_losses(training_losses, self._head_weights),
                        unreduced_loss=by_loss, weights=by_weights, processed_labels=by_labels)

    def create_estimator_spec(self, features: Dict[str, Any], mode: str, logits: Any,
                              labels: Any = None, optimizer: Any = None,
                              train_op_fn: Optional[Callable] = None,
                              regularization_losses: Any = None) -> EstimatorSpec:
        """The merged EstimatorSpec of `mode`."""
        from tf1compat.summary.summary_ops import scalar
        if regularization_losses is not None:
            # TF 1.15's multi head has no such argument (b/65403806).
            raise NotImplementedError(
                "tf.contrib.estimator.multi_head: regularization_losses is not supported "
                "(TF 1.15's create_estimator_spec has no such argument)")
        logits = self._logits_dict(logits)
        if labels and not isinstance(labels, dict):
            raise ValueError(f"labels must be a dict. Given: {labels}")
        specs = [head.create_estimator_spec(features=features, mode=mode,
                                            logits=logits[head.name],
                                            labels=labels[head.name] if labels else None,
                                            train_op_fn=no_op_train_fn)
                 for head in self._heads]
        if mode == ModeKeys.TRAIN:
            spec = self._merge_train(specs, optimizer, train_op_fn)
            with name_scope(""):
                scalar(MetricKeys.LOSS, spec.loss)
            return spec
        if mode == ModeKeys.PREDICT:
            return self._merge_predict(specs)
        if mode == ModeKeys.EVAL:
            return self._merge_eval(specs)
        raise ValueError(f"mode={mode} unrecognized")

    def _create_tpu_estimator_spec(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("tf.contrib.estimator.multi_head under TPUEstimator "
                                  "(TF 1.15's multi head builds no TPUEstimatorSpec)")

    def _logits_dict(self, logits: Any) -> Dict[str, Any]:
        """A dict of logits by head name, or one tensor split (as TF 1.15: no check of
        its last dimension)."""
        if isinstance(logits, dict):
            return logits
        return split_logits(self._heads, logits, check_last_dim=False)

    def _merged_predictions(self, specs: List[EstimatorSpec]) -> Dict[Any, Any]:
        return {(head.name, key): value for head, spec in zip(self._heads, specs)
                for key, value in spec.predictions.items()}

    def _merge_train(self, specs: List[EstimatorSpec], optimizer: Any,
                     train_op_fn: Optional[Callable]) -> EstimatorSpec:
        from tf1compat.training.training_util import get_global_step
        metrics: Dict[str, Any] = {}
        for spec in specs:
            metrics.update(spec.eval_metric_ops or {})
        loss = _merge_losses([spec.loss for spec in specs], self._head_weights)
        if optimizer is not None:
            if train_op_fn is not None:
                raise ValueError("train_op_fn and optimizer cannot both be set.")
            train_op = optimizer.minimize(loss, global_step=get_global_step())
        elif train_op_fn is not None:
            train_op = train_op_fn(loss)
        else:
            raise ValueError("train_op_fn and optimizer cannot both be None.")
        return EstimatorSpec(mode=ModeKeys.TRAIN, loss=loss, train_op=train_op,
                             predictions=self._merged_predictions(specs),
                             eval_metric_ops=metrics)

    def _merge_predict(self, specs: List[EstimatorSpec]) -> EstimatorSpec:
        return EstimatorSpec(mode=ModeKeys.PREDICT, predictions=self._merged_predictions(specs),
                             export_outputs=merge_predict_export_outputs(
                                 self._heads, specs, "tf.contrib.estimator"))

    def _merge_eval(self, specs: List[EstimatorSpec]) -> EstimatorSpec:
        from tf1compat.metrics.metrics_impl import mean
        metrics: Dict[str, Any] = {}
        with name_scope("merge_eval"):
            for head, spec in zip(self._heads, specs):
                loss_name = util.summary_key(head.name, MetricKeys.LOSS)
                metrics[loss_name] = mean(spec.loss, name=loss_name)
                metrics.update(spec.eval_metric_ops or {})
            loss = _merge_losses([spec.loss for spec in specs], self._head_weights)
        return EstimatorSpec(mode=ModeKeys.EVAL, predictions=self._merged_predictions(specs),
                             loss=loss, eval_metric_ops=metrics)
