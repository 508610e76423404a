"""`tf.estimator.MultiHead` (tensorflow-estimator 2.15's head/multi_head.py) in graph mode:
several named heads trained together, and the logits splitting and export-output merging
that TF 1.15's `tf.contrib.estimator.multi_head` shares.

* `loss`: the members' losses (weighted by `head_weights`) summed under `merge_losses/`,
  plus the regularization losses;
* `predictions`: keyed `(head_name, key)` (under `merge_pred/`);
* `metrics`/`update_metrics`: `loss/<name>` (the mean of each member's loss), the
  members' own metrics and `regularization_loss`;
* `create_estimator_spec` (in the name scope of the joined names): members' specs with a
  no-op train_op_fn; export outputs `serving_default` (the first head's), `<name>`,
  `<name>/<key>` and a merged `predict`; one train op over the merged loss.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence

from tf1compat.estimator.canned.metric_keys import MetricKeys
from tf1compat.estimator.export import export_output
from tf1compat.estimator.head import base_head
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.model_fn import EstimatorSpec
from tf1compat.framework.graph import name_scope

__all__ = ["MultiHead", "split_logits", "merge_predict_export_outputs", "no_op_train_fn"]


def no_op_train_fn(loss: Any) -> Any:
    """The members' train_op_fn: the multi head trains the merged loss itself."""
    from tf1compat.ops.control_flow_ops import no_op
    del loss
    return no_op()


def split_logits(heads: Sequence[Any], logits: Any, check_last_dim: bool = True
                 ) -> Dict[str, Any]:
    """`logits` split along its last dimension among `heads` (in order), by head name,
    under the name scope `split_logits`."""
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    from tf1compat.ops.array_ops import concat, shape
    from tf1compat.ops.creation_ops import ones_like, zeros_like
    from tf1compat.ops.strided_slice import slice as slice_
    out = {}
    with name_scope(None, "split_logits", (logits,)):
        logits = convert_to_tensor(logits)
        dimensions = [head.logits_dimension for head in heads]
        total = sum(dimensions)
        static_shape = logits.shape.as_list()
        if check_last_dim and static_shape[-1] is not None and static_shape[-1] != total:
            # TF's message, with its two numbers in this order.
            raise ValueError(
                f"Could not split logits of shape {static_shape!r} among the heads with "
                f"individual logits dimensions: {dimensions!r}. The last dimension of the "
                f"logits tensor should equal {static_shape[-1]} but is {total}.")
        batch_shape = shape(logits)[:-1]
        zeros = zeros_like(batch_shape)
        minus_ones = -1 * ones_like(batch_shape)
        begin = 0
        for head in heads:
            out[head.name] = slice_(logits, begin=concat([zeros, [begin]], axis=0),
                                    size=concat([minus_ones, [head.logits_dimension]], axis=0))
            begin += head.logits_dimension
    return out


def merge_predict_export_outputs(heads: Sequence[Any], specs: List[EstimatorSpec],
                                 namespace: str) -> Dict[str, Any]:
    """`serving_default` (the first head's default), each member's outputs as `<name>` (its
    default) or `<name>/<key>`, and `predict` merging the members' predict outputs."""
    first = specs[0].export_outputs
    if len(first) == 1:
        default = next(iter(first.values()))
    elif base_head.DEFAULT_SERVING_KEY in first:
        default = first[base_head.DEFAULT_SERVING_KEY]
    else:
        raise ValueError(
            f"{heads[0].name} did not specify default export_outputs. Given: {first} "
            f"Suggested fix: Use one of the heads in {namespace}, or include key "
            f"{base_head.DEFAULT_SERVING_KEY} in export_outputs.")
    outputs = {base_head.DEFAULT_SERVING_KEY: default}
    merged: Dict[str, Any] = {}
    for head, spec in zip(heads, specs):
        for key, value in spec.export_outputs.items():
            outputs[head.name if key == base_head.DEFAULT_SERVING_KEY
                    else f"{head.name}/{key}"] = value
            if (key == base_head.PREDICT_SERVING_KEY
                    and isinstance(value, export_output.PredictOutput)):
                for name, tensor in value.outputs.items():
                    merged[f"{head.name}/{name}"] = tensor
    outputs[base_head.PREDICT_SERVING_KEY] = export_output.PredictOutput(merged)
    return outputs


class MultiHead(base_head.Head):
    """Several named v2 heads; the first is served by default (`tf.estimator.MultiHead`)."""

    def __init__(self, heads: Sequence[Any], head_weights: Optional[Sequence[float]] = None):
        if not heads:
            raise ValueError(f"Must specify heads. Given: {heads}")
        if head_weights and len(head_weights) != len(heads):
            raise ValueError("heads and head_weights must have the same size. Given "
                             f"len(heads): {len(heads)}. Given len(head_weights): "
                             f"{len(head_weights)}.")
        for head in heads:
            if head.name is None:
                raise ValueError(f"All given heads must have name specified. Given: {head}")
        self._heads = tuple(heads)
        self._head_weights = tuple(head_weights) if head_weights else tuple()
        self._loss_regularization_key = self._summary_key(
            MetricKeys.LOSS_REGULARIZATION)
        self._loss_keys = tuple(f"{MetricKeys.LOSS}/{h.name}" for h in self._heads)

    @property
    def name(self) -> str:
        return "_".join(h.name for h in self._heads)

    @property
    def logits_dimension(self) -> int:
        return sum(head.logits_dimension for head in self._heads)

    @property
    def loss_reduction(self) -> str:
        reductions = [head.loss_reduction for head in self._heads]
        if len(set(reductions)) > 1:
            raise ValueError("The loss_reduction must be the same for different heads. "
                             f"Given: {reductions}")
        return reductions[0]

    def _check_logits_and_labels(self, logits: Any, labels: Any = None) -> Dict[str, Any]:
        names = [head.name for head in self._heads]
        if isinstance(logits, dict):
            missing = list(set(names) - set(logits))
            if missing:
                raise ValueError(f"logits has missing values for head(s): {missing}")
            logits_dict = logits
        else:
            logits_dict = split_logits(self._heads, logits)
        if labels is not None:
            if not isinstance(labels, dict):
                raise ValueError(f"labels must be a dict. Given: {labels}")
            missing = list(set(names) - set(labels))
            if missing:
                raise ValueError(f"labels has missing values for head(s): {missing}")
        return logits_dict

    def loss(self, labels: Any, logits: Any, features: Any = None, mode: Any = None,
             regularization_losses: Any = None) -> Any:
        """The members' (weighted) losses summed, plus the regularization losses."""
        from tf1compat.ops.math_ops import add_n, multiply
        logits_dict = self._check_logits_and_labels(logits, labels)
        losses = tuple(head.loss(logits=logits_dict[head.name], labels=labels[head.name],
                                 features=features, mode=mode) for head in self._heads)
        with name_scope(None, "merge_losses", losses + self._head_weights):
            if self._head_weights:
                losses = tuple(multiply(loss, weight)
                               for loss, weight in zip(losses, self._head_weights))
            merged = add_n(losses)
            if regularization_losses is not None:
                merged = merged + add_n(regularization_losses)
        return merged

    def predictions(self, logits: Any, keys: Any = None) -> Dict[Any, Any]:
        """Every member's predictions, keyed `(head_name, key)`."""
        logits_dict = self._check_logits_and_labels(logits)
        predictions = {}
        with name_scope("merge_pred"):
            for head in self._heads:
                for key, value in head.predictions(logits=logits_dict[head.name]).items():
                    predictions[(head.name, key)] = value
        return predictions

    def metrics(self, regularization_losses: Any = None) -> Dict[str, Any]:
        """`loss/<name>` means (and `regularization_loss`); the members' metrics are
        added by `update_metrics`."""
        from tf1compat.keras import metrics as km
        eval_metrics = {}
        if regularization_losses is not None:
            eval_metrics[self._loss_regularization_key] = km.Mean(
                name=MetricKeys.LOSS_REGULARIZATION)
        with name_scope("merge_eval"):
            for key in self._loss_keys:
                eval_metrics[key] = km.Mean(name=key)
        return eval_metrics

    def update_metrics(self, eval_metrics: Dict[str, Any], features: Any, logits: Any,
                       labels: Any, regularization_losses: Any = None) -> Dict[str, Any]:
        """Updates the `loss/<name>` means and adds each member's updated metrics."""
        logits_dict = self._check_logits_and_labels(logits, labels)
        base_head.update_regularization_metric(eval_metrics, self._loss_regularization_key,
                                               regularization_losses)
        for key, head in zip(self._loss_keys, self._heads):
            head_logits, head_labels = logits_dict[head.name], labels[head.name]
            eval_metrics[key].update_state(values=head.loss(
                logits=head_logits, labels=head_labels, features=features))
            eval_metrics.update(head.update_metrics(head.metrics(), features, head_logits,
                                                    head_labels) or {})
        return eval_metrics

    def create_estimator_spec(self, features: Any, mode: str, logits: Any, labels: Any = None,
                              optimizer: Any = None, trainable_variables: Any = None,
                              train_op_fn: Optional[Callable] = None, update_ops: Any = None,
                              regularization_losses: Any = None) -> EstimatorSpec:
        """The merged EstimatorSpec of `mode`."""
        with name_scope(self.name, "multi_head"):
            logits_dict = self._check_logits_and_labels(logits, labels)
            specs = [head.create_estimator_spec(
                features=features, mode=mode, logits=logits_dict[head.name],
                labels=labels[head.name] if labels else None, train_op_fn=no_op_train_fn)
                for head in self._heads]
            predictions = self.predictions(logits)
            if mode == ModeKeys.PREDICT:
                return EstimatorSpec(
                    mode=ModeKeys.PREDICT, predictions=predictions,
                    export_outputs=merge_predict_export_outputs(self._heads, specs,
                                                                "tf.estimator"))
            loss = self.loss(labels, logits, features, mode, regularization_losses)
            if mode == ModeKeys.EVAL:
                metrics = self.update_metrics(self.metrics(regularization_losses), features,
                                              logits, labels, regularization_losses)
                return EstimatorSpec(mode=ModeKeys.EVAL, predictions=predictions, loss=loss,
                                     eval_metric_ops=metrics)
            if mode == ModeKeys.TRAIN:
                self.loss_reduction  # noqa: B018 - TF's check that the members agree
                train_op = base_head.create_estimator_spec_train_op(
                    optimizer=optimizer, trainable_variables=trainable_variables,
                    train_op_fn=train_op_fn, update_ops=update_ops,
                    regularized_training_loss=loss)
                base_head.create_estimator_spec_summary(loss, regularization_losses)
                metrics = {}
                for spec in specs:
                    metrics.update(spec.eval_metric_ops or {})
                return EstimatorSpec(mode=ModeKeys.TRAIN, loss=loss, train_op=train_op,
                                     predictions=predictions, eval_metric_ops=metrics)
            raise ValueError(f"mode={mode} unrecognized")
