"""`tf.estimator.export.ExportOutput` and its kinds: what a SavedModel signature serves.

`PredictOutput` (any named tensors), `ClassificationOutput` (scores and/or class strings
over one serialized-Example input), `RegressionOutput` (one float value over one
serialized-Example input), and the supervised `TrainOutput` / `EvalOutput` (loss,
predictions, metrics) used for train/eval meta graphs.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from tf1compat.framework import dtypes
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.training.saved_model import signature_def_utils

__all__ = ["ExportOutput", "ClassificationOutput", "RegressionOutput", "PredictOutput",
           "TrainOutput", "EvalOutput"]

_SINGLE_STRING_INPUT = (
    "{} signatures can only accept a single tensor input of type tf.string. Please check "
    "to make sure that you have structured the serving_input_receiver_fn so that it "
    "creates a single string placeholder. If your model function expects multiple "
    "inputs, then use `tf.io.parse_example()` to parse the string into multiple tensors.\n"
    " Received: {}")


class ExportOutput:
    """A kind of output to export (base class)."""

    _SEPARATOR_CHAR = "/"

    def as_signature_def(self, receiver_tensors: Dict[str, Tensor]) -> Any:
        raise NotImplementedError("as_signature_def is not implemented for "
                                  f"{type(self).__name__}.")

    def _check_output_key(self, key: Any, error_label: str) -> str:
        if isinstance(key, tuple):
            key = self._SEPARATOR_CHAR.join(key)
        if not isinstance(key, str):
            raise ValueError(f"{error_label} output key must be a string; got {key}.")
        return key

    def _wrap_and_check_outputs(self, outputs: Any, single_output_default_name: str,
                                error_label: Optional[str] = None) -> Dict[str, Tensor]:
        if not isinstance(outputs, dict):
            outputs = {single_output_default_name: outputs}
        checked = {}
        for key, value in outputs.items():
            label = error_label or single_output_default_name
            key = self._check_output_key(key, label)
            if not isinstance(value, Tensor):
                raise ValueError(f"{label} output value must be a Tensor; got {value}.")
            checked[key] = value
        return checked


def _single_string_input(kind: str, receiver_tensors: Dict[str, Tensor]) -> Tensor:
    if len(receiver_tensors) != 1:
        raise ValueError(_SINGLE_STRING_INPUT.format(kind, receiver_tensors))
    (_, examples), = receiver_tensors.items()
    if dtypes.as_dtype(examples.dtype) != dtypes.string:
        raise ValueError(_SINGLE_STRING_INPUT.format(kind, receiver_tensors))
    return examples


class ClassificationOutput(ExportOutput):
    """Class scores (float) and/or class names (string) for a Classify signature."""

    def __init__(self, scores: Optional[Tensor] = None, classes: Optional[Tensor] = None):
        if scores is not None and not (isinstance(scores, Tensor) and
                                       scores.dtype.is_floating):
            raise ValueError(f"Classification scores must be a float32 Tensor; got {scores}")
        if classes is not None and not (isinstance(classes, Tensor) and
                                        dtypes.as_dtype(classes.dtype) == dtypes.string):
            raise ValueError(f"Classification classes must be a string Tensor; got {classes}")
        if scores is None and classes is None:
            raise ValueError("Cannot create a ClassificationOutput with empty arguments. At "
                             "least one of `scores` and `classes` must be defined.")
        self._scores = scores
        self._classes = classes

    @property
    def scores(self) -> Optional[Tensor]:
        return self._scores

    @property
    def classes(self) -> Optional[Tensor]:
        return self._classes

    def as_signature_def(self, receiver_tensors: Dict[str, Tensor]) -> Any:
        examples = _single_string_input("Classification", receiver_tensors)
        return signature_def_utils.classification_signature_def(examples, self.classes,
                                                                self.scores)


class RegressionOutput(ExportOutput):
    """One float value per example for a Regress signature."""

    def __init__(self, value: Tensor):
        if not (isinstance(value, Tensor) and value.dtype.is_floating):
            raise ValueError(f"Regression output value must be a float32 Tensor; got {value}")
        self._value = value

    @property
    def value(self) -> Tensor:
        return self._value

    def as_signature_def(self, receiver_tensors: Dict[str, Tensor]) -> Any:
        examples = _single_string_input("Regression", receiver_tensors)
        return signature_def_utils.regression_signature_def(examples, self.value)


class PredictOutput(ExportOutput):
    """Named output tensors for a Predict signature (a single tensor is named
    "output")."""

    _SINGLE_OUTPUT_DEFAULT_NAME = "output"

    def __init__(self, outputs: Any):
        self._outputs = self._wrap_and_check_outputs(outputs, self._SINGLE_OUTPUT_DEFAULT_NAME,
                                                     error_label="Prediction")

    @property
    def outputs(self) -> Dict[str, Tensor]:
        return self._outputs

    def as_signature_def(self, receiver_tensors: Dict[str, Tensor]) -> Any:
        return signature_def_utils.predict_signature_def(receiver_tensors, self.outputs)


class _SupervisedOutput(ExportOutput):
    """Loss, predictions and metrics (value and update op) keyed "loss", "predictions/…",
    "metrics/<name>/value", "metrics/<name>/update_op"."""

    LOSS_NAME = "loss"
    PREDICTIONS_NAME = "predictions"
    METRICS_NAME = "metrics"
    METRIC_VALUE_SUFFIX = "value"
    METRIC_UPDATE_SUFFIX = "update_op"
    _SIGNATURE_FN: Any = None

    def __init__(self, loss: Any = None, predictions: Any = None, metrics: Any = None):
        self._loss = self._predictions = self._metrics = None
        if loss is not None:
            self._loss = self._prefixed(self._wrap_and_check_outputs(loss, self.LOSS_NAME),
                                        self.LOSS_NAME)
        if predictions is not None:
            self._predictions = self._prefixed(
                self._wrap_and_check_outputs(predictions, self.PREDICTIONS_NAME),
                self.PREDICTIONS_NAME)
        if metrics is not None:
            self._metrics = self._wrap_and_check_metrics(metrics)

    def _prefixed(self, outputs: Dict[str, Tensor], name: str) -> Dict[str, Tensor]:
        return {self._prefix_key(k, name): v for k, v in outputs.items()}

    def _prefix_key(self, key: str, name: str) -> str:
        return key if key.find(name) == 0 else name + self._SEPARATOR_CHAR + key

    def _wrap_and_check_metrics(self, metrics: Any) -> Dict[str, Tensor]:
        from tf1compat.framework.constant_op import constant
        from tf1compat.framework.graph import control_dependencies
        if not isinstance(metrics, dict):
            metrics = {self.METRICS_NAME: metrics}
        outputs = {}
        for key, (value, update_op) in metrics.items():
            key = self._prefix_key(self._check_output_key(key, self.METRICS_NAME),
                                   self.METRICS_NAME)
            if not isinstance(value, Tensor):
                raise ValueError(f"{key} output value must be a Tensor; got {value}.")
            if not isinstance(update_op, (Tensor, Operation)):
                raise ValueError(f"{key} update_op must be a Tensor or Operation; got "
                                 f"{update_op}.")
            if not isinstance(update_op, Tensor):
                # An Operation cannot be a signature output: TF wraps it in a constant.
                with control_dependencies([update_op]):
                    update_op = constant([], name="metric_op_wrapper")
            outputs[key + self._SEPARATOR_CHAR + self.METRIC_VALUE_SUFFIX] = value
            outputs[key + self._SEPARATOR_CHAR + self.METRIC_UPDATE_SUFFIX] = update_op
        return outputs

    @property
    def loss(self) -> Optional[Dict[str, Tensor]]:
        return self._loss

    @property
    def predictions(self) -> Optional[Dict[str, Tensor]]:
        return self._predictions

    @property
    def metrics(self) -> Optional[Dict[str, Tensor]]:
        return self._metrics

    def as_signature_def(self, receiver_tensors: Dict[str, Tensor]) -> Any:
        return type(self)._SIGNATURE_FN(receiver_tensors, self.loss, self.predictions,
                                        self.metrics)


class TrainOutput(_SupervisedOutput):
    """The outputs of a train meta graph (supervised training signature)."""

    _SIGNATURE_FN = staticmethod(signature_def_utils.supervised_train_signature_def)


class EvalOutput(_SupervisedOutput):
    """The outputs of an eval meta graph (supervised eval signature)."""

    _SIGNATURE_FN = staticmethod(signature_def_utils.supervised_eval_signature_def)
