"""`tf.estimator.EstimatorSpec` (what a model_fn returns) with TF's validation, the
TPUEstimatorSpec base the canned heads build, and model_fn/logit_fn argument handling."""

from __future__ import annotations

import collections
from typing import Any, Dict, Optional

from tf1compat.util import tf_logging
from tf1compat.estimator.export import export_lib
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.util import fn_args
from tf1compat.framework.graph import (GraphKeys, add_to_collection, get_collection,
                                       get_default_graph)
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.training.sessions.monitored_session import Scaffold
from tf1compat.training.sessions.session_run_hook import SessionRunHook

__all__ = ["EstimatorSpec", "TPUEstimatorSpecBase", "LOSS_METRIC_KEY",
           "AVERAGE_LOSS_METRIC_KEY", "call_logit_fn", "verify_model_fn_args"]

LOSS_METRIC_KEY = "loss"
AVERAGE_LOSS_METRIC_KEY = "average_loss"
_VALID_MODEL_FN_ARGS = {"features", "labels", "mode", "params", "self", "config"}
_NOT_DEFAULT_GRAPH = (
    '{0} with "{1}" must be from the default graph. Possible causes of this error '
    "include: \n\n1) {0} was created outside the context of the default graph.\n\n2) The "
    'object passed through to EstimatorSpec was not created in the most recent call to '
    '"model_fn".')


def _is_variable(x: Any) -> bool:
    from tf1compat.variables.variables import Variable
    return isinstance(x, Variable)


def _check_is_tensor(x: Any, name: str) -> Tensor:
    if not isinstance(x, Tensor) and not _is_variable(x):
        raise TypeError(f"{name} must be Tensor, given: {x}")
    return x


def _validate_train_op(train_op: Any, mode: str) -> Any:
    if train_op is None:
        if mode == ModeKeys.TRAIN:
            raise ValueError("Missing train_op.")
        return None
    if not isinstance(train_op, (Operation, Tensor)) and not _is_variable(train_op):
        raise TypeError(f"train_op must be Operation or Tensor, given: {train_op}")
    if _is_variable(train_op):
        train_op = train_op.op
    if train_op.graph is not get_default_graph():
        raise ValueError(_NOT_DEFAULT_GRAPH.format("train_op", train_op.name))
    return train_op


def _validate_loss(loss: Any, mode: str) -> Any:
    from tf1compat.framework.tensor_shape import TensorShape
    from tf1compat.ops.array_ops import reshape
    if loss is None:
        if mode in (ModeKeys.TRAIN, ModeKeys.EVAL):
            raise ValueError("Missing loss.")
        return None
    loss = _check_is_tensor(loss, "loss")
    shape = loss.get_shape()
    if shape.num_elements() not in (None, 1):
        raise ValueError(f"Loss must be scalar, given: {loss}")
    if not shape.is_compatible_with(TensorShape([])):
        loss = reshape(loss, [])
    if loss.graph is not get_default_graph():
        raise ValueError(_NOT_DEFAULT_GRAPH.format("loss", loss.name))
    return loss


def _validate_predictions(predictions: Any, mode: str) -> Any:
    if predictions is None:
        if mode == ModeKeys.PREDICT:
            raise ValueError("Missing predictions.")
        return {}
    graph = get_default_graph()
    if isinstance(predictions, dict):
        predictions = {k: _check_is_tensor(v, f"predictions[{k}]")
                       for k, v in predictions.items()}
        for key, value in predictions.items():
            if value.graph is not graph:
                raise ValueError(_NOT_DEFAULT_GRAPH.format("prediction values",
                                                           f"{key}: {value.name}"))
        return predictions
    predictions = _check_is_tensor(predictions, "predictions")
    if predictions.graph is not graph:
        raise ValueError(_NOT_DEFAULT_GRAPH.format("prediction values", predictions.name))
    return predictions


def _validate_hooks(hooks: Any) -> tuple:
    hooks = tuple(hooks or [])
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"All hooks must be SessionRunHook instances, given: {hook}")
    return hooks


def _is_keras_metric(value: Any) -> bool:
    return hasattr(value, "update_state") and hasattr(value, "result") and \
        hasattr(value, "updates")


def _validate_eval_metric_ops(eval_metric_ops: Any) -> Dict[str, Any]:
    """The eval_metric_ops as (value, update_op) pairs; a `tf.keras.metrics.Metric`
    (whose update_state ran in this graph) becomes (result(), its first update), and its
    variables join LOCAL_VARIABLES and METRIC_VARIABLES, as in TF."""
    from tf1compat.util import nest
    if eval_metric_ops is None:
        return {}
    if not isinstance(eval_metric_ops, dict):
        raise TypeError(f"eval_metric_ops must be a dict, given: {eval_metric_ops}")
    for key, value in eval_metric_ops.items():
        if _is_keras_metric(value):
            if not value.updates:
                raise ValueError(f'Please call update_state(...) on the "{value.name}" '
                                 "metric")
        elif not isinstance(value, tuple) or len(value) != 2:
            raise TypeError("Values of eval_metric_ops must be (metric_value, update_op) "
                            f"tuples, given: {value} for key: {key}")
    graph = get_default_graph()
    for key, value in list(eval_metric_ops.items()):
        checked = value.updates + [value.result()] if _is_keras_metric(value) \
            else nest.flatten(value)
        for val in checked:
            if val.graph is not graph:
                raise ValueError(_NOT_DEFAULT_GRAPH.format("eval_metric_ops",
                                                           f"{key}: {val.name}"))
    for key, value in list(eval_metric_ops.items()):
        if _is_keras_metric(value):
            for collection in (GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES):
                present = {id(v) for v in get_collection(collection)}
                for v in value.variables:
                    if id(v) not in present:
                        add_to_collection(collection, v)
            eval_metric_ops[key] = (value.result(), value.updates[0])
    return eval_metric_ops


def _validate_scaffold(scaffold: Any) -> Scaffold:
    scaffold = scaffold or Scaffold()
    if not isinstance(scaffold, Scaffold):
        raise TypeError(f"scaffold must be tf.train.Scaffold. Given: {scaffold}")
    return scaffold


def _validate_export_outputs(export_outputs: Any, predictions: Any, mode: str) -> Any:
    if mode == ModeKeys.PREDICT:
        return export_lib.get_export_outputs(export_outputs, predictions)
    return export_outputs


def _validate_common(mode: str, train_op: Any, loss: Any, predictions: Any,
                     export_outputs: Any) -> tuple:
    """The fields EstimatorSpec and TPUEstimatorSpec check alike, validated."""
    train_op = _validate_train_op(train_op, mode)
    loss = _validate_loss(loss, mode)
    predictions = _validate_predictions(predictions, mode)
    return train_op, loss, predictions, _validate_export_outputs(export_outputs, predictions,
                                                                 mode)


class EstimatorSpec(collections.namedtuple("EstimatorSpec", [
        "mode", "predictions", "loss", "train_op", "eval_metric_ops", "export_outputs",
        "training_chief_hooks", "training_hooks", "scaffold", "evaluation_hooks",
        "prediction_hooks"])):
    """What a model_fn returns: the ops of one mode. TRAIN needs `loss` and `train_op`,
    EVAL needs `loss`, PREDICT needs `predictions`; everything must belong to the default
    graph (TF's ValueError/TypeError messages)."""

    def __new__(cls, mode: str, predictions: Any = None, loss: Any = None,
                train_op: Any = None, eval_metric_ops: Optional[Dict[str, Any]] = None,
                export_outputs: Any = None, training_chief_hooks: Any = None,
                training_hooks: Any = None, scaffold: Optional[Scaffold] = None,
                evaluation_hooks: Any = None, prediction_hooks: Any = None):
        train_op, loss, predictions, export_outputs = _validate_common(
            mode, train_op, loss, predictions, export_outputs)
        return super().__new__(
            cls, mode=mode, predictions=predictions, loss=loss, train_op=train_op,
            eval_metric_ops=_validate_eval_metric_ops(eval_metric_ops),
            export_outputs=export_outputs,
            training_chief_hooks=_validate_hooks(training_chief_hooks),
            training_hooks=_validate_hooks(training_hooks),
            scaffold=_validate_scaffold(scaffold),
            evaluation_hooks=_validate_hooks(evaluation_hooks),
            prediction_hooks=_validate_hooks(prediction_hooks))

    def _replace(self, **kwds: Any) -> "EstimatorSpec":
        if "mode" in kwds and self.mode != kwds["mode"]:
            raise ValueError("mode of EstimatorSpec cannot be changed.")
        fields = [kwds.pop(name, value) for name, value in zip(self._fields, self)]
        return EstimatorSpec(*fields)


class TPUEstimatorSpecBase(collections.namedtuple("TPUEstimatorSpec", [
        "mode", "predictions", "loss", "train_op", "eval_metrics", "export_outputs",
        "scaffold_fn", "host_call", "training_hooks", "evaluation_hooks",
        "prediction_hooks"])):
    """A TPUEstimatorSpec: metrics as `(metric_fn, tensors)`, the scaffold as a function.
    `as_estimator_spec()` gives the EstimatorSpec a CPU/GPU run uses."""

    def __new__(cls, mode: str, predictions: Any = None, loss: Any = None,
                train_op: Any = None, eval_metrics: Any = None, export_outputs: Any = None,
                scaffold_fn: Any = None, host_call: Any = None, training_hooks: Any = None,
                evaluation_hooks: Any = None, prediction_hooks: Any = None):
        train_op, loss, predictions, export_outputs = _validate_common(
            mode, train_op, loss, predictions, export_outputs)
        return super().__new__(
            cls, mode=mode, predictions=predictions, loss=loss, train_op=train_op,
            eval_metrics=eval_metrics, export_outputs=export_outputs,
            scaffold_fn=scaffold_fn, host_call=host_call,
            training_hooks=_validate_hooks(training_hooks),
            evaluation_hooks=_validate_hooks(evaluation_hooks),
            prediction_hooks=_validate_hooks(prediction_hooks))

    def as_estimator_spec(self) -> EstimatorSpec:
        """The EstimatorSpec equivalent (metric_fn called on its tensors)."""
        eval_metric_ops = None
        if self.eval_metrics:
            metric_fn, tensors = self.eval_metrics
            eval_metric_ops = metric_fn(**tensors) if isinstance(tensors, dict) else \
                metric_fn(*tensors)
        scaffold = self.scaffold_fn() if self.scaffold_fn else None
        return EstimatorSpec(
            mode=self.mode, predictions=self.predictions, loss=self.loss,
            train_op=self.train_op, eval_metric_ops=eval_metric_ops,
            export_outputs=self.export_outputs, training_hooks=self.training_hooks,
            evaluation_hooks=self.evaluation_hooks, prediction_hooks=self.prediction_hooks,
            scaffold=scaffold)


def call_logit_fn(logit_fn: Any, features: Any, mode: str, params: Any, config: Any) -> Any:
    """`tf.estimator.experimental.call_logit_fn`: calls `logit_fn` with the arguments it
    takes; it must return a Tensor or a dict of string -> Tensor."""
    args = fn_args(logit_fn)
    kwargs = {k: v for k, v in (("mode", mode), ("params", params), ("config", config))
              if k in args}
    result = logit_fn(features=features, **kwargs)
    ok = isinstance(result, Tensor) or (isinstance(result, dict) and all(
        isinstance(k, str) and isinstance(v, Tensor) for k, v in result.items()))
    if not ok:
        raise ValueError("logit_fn should return a Tensor or a dictionary mapping strings to "
                         f"Tensors.  logit_fn returned: {result}")
    return result


def verify_model_fn_args(model_fn: Any, params: Any) -> None:
    """TF's checks of a model_fn's signature against the Estimator's params."""
    args = set(fn_args(model_fn))
    if "features" not in args:
        raise ValueError(f"model_fn ({model_fn}) must include features argument.")
    if params is not None and "params" not in args:
        raise ValueError(f"model_fn ({model_fn}) does not include params argument, but params "
                         f"({params}) is passed to Estimator.")
    if params is None and "params" in args:
        tf_logging.warning("Estimator's model_fn (%s) includes params argument, but params "
                           "are not passed to Estimator.", model_fn)
    invalid = list(args - _VALID_MODEL_FN_ARGS)
    if invalid:
        raise ValueError(f"model_fn ({model_fn}) has following not expected args: {invalid}")


