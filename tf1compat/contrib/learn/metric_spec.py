"""`tf.contrib.learn.MetricSpec` (TF 1.15's contrib/learn/python/learn/metric_spec.py): a
metric function with the prediction/label/weight keys to call it with, as passed to
`Estimator.evaluate(metrics={name: MetricSpec(...)})`; and `make_metrics_ops`, which turns
such a dict (or TF's older bare functions and `(name, prediction_key)` keys) into eval
metric ops."""

from __future__ import annotations

import functools
from typing import Any, Callable, Dict, Optional, Set, Tuple

from tf1compat.estimator.util import fn_args
from tf1compat.util import tf_logging

__all__ = ["MetricSpec", "make_metrics_ops"]

_LABELS_ARGS = {"labels", "label", "targets", "target"}
_PREDICTIONS_ARGS = {"predictions", "prediction", "logits", "logit"}
_WEIGHTS_ARGS = {"weights", "weight"}


def _args(fn: Callable) -> Tuple[str, ...]:
    """The argument names of `fn` (a partial's bound keywords removed)."""
    if isinstance(fn, functools.partial):
        return tuple(a for a in _args(fn.func) if a not in set(fn.keywords))
    return tuple(fn_args(fn))


def _matching_arg(fn_name: str, args: Tuple[str, ...], candidates: Set[str], canonical: str,
                  is_required: bool = False) -> Optional[str]:
    matching = candidates.intersection(args)
    if len(matching) > 1:
        raise ValueError(f"Ambiguous arguments {matching}, must provide only one of "
                         f"{candidates}.")
    arg = matching.pop() if matching else None
    if arg and arg != canonical:
        tf_logging.warning("Canonical arg %s missing from %s(%s), using %s.", canonical,
                           fn_name, args, arg)
    elif not arg and is_required:
        raise ValueError(f"{candidates} missing from {fn_name}({args}).")
    return arg


def _fn_name(fn: Callable) -> str:
    if hasattr(fn, "__name__"):
        return fn.__name__
    if hasattr(fn, "func") and hasattr(fn.func, "__name__"):
        return fn.func.__name__
    return str(fn)


def _adapt_metric_fn(metric_fn: Callable, name: str, labels_required: bool,
                     weights_required: bool) -> Callable:
    """`metric_fn` as a function of named `labels`, `predictions`, `weights` (TF's rules:
    named args by name, otherwise predictions first positionally)."""
    args = _args(metric_fn)
    labels_arg = _matching_arg(name, args, _LABELS_ARGS, "labels", labels_required)
    predictions_arg = _matching_arg(name, args, _PREDICTIONS_ARGS, "predictions")
    weights_arg = _matching_arg(name, args, _WEIGHTS_ARGS, "weights", weights_required)

    def adapted(labels: Any = None, predictions: Any = None, weights: Any = None) -> Any:
        kwargs: Dict[str, Any] = {}
        if weights is not None:
            kwargs[weights_arg] = weights
        if labels_arg:
            if predictions_arg:
                kwargs.update({labels_arg: labels, predictions_arg: predictions})
                return metric_fn(**kwargs)
            if labels_arg == args[0]:
                return metric_fn(labels, predictions, **kwargs)
            kwargs[labels_arg] = labels
            return metric_fn(predictions, **kwargs)
        if predictions_arg:
            kwargs[predictions_arg] = predictions
            return metric_fn(**kwargs)
        return metric_fn(predictions, **kwargs)
    return adapted


class MetricSpec:
    """`tf.contrib.learn.MetricSpec(metric_fn, prediction_key, label_key, weight_key)`."""

    def __init__(self, metric_fn: Callable, prediction_key: Optional[str] = None,
                 label_key: Optional[str] = None, weight_key: Optional[str] = None):
        self._metric_fn_name = _fn_name(metric_fn)
        self._metric_fn = _adapt_metric_fn(metric_fn, self._metric_fn_name,
                                           label_key is not None, weight_key is not None)
        self._prediction_key = prediction_key
        self._label_key = label_key
        self._weight_key = weight_key

    @property
    def prediction_key(self) -> Optional[str]:
        return self._prediction_key

    @property
    def label_key(self) -> Optional[str]:
        return self._label_key

    @property
    def weight_key(self) -> Optional[str]:
        return self._weight_key

    @property
    def metric_fn(self) -> Callable:
        return self._metric_fn

    def __str__(self) -> str:
        return (f"MetricSpec(metric_fn={self._metric_fn_name}, "
                f"prediction_key={self.prediction_key}, label_key={self.label_key}, "
                f"weight_key={self.weight_key})")

    def create_metric_ops(self, inputs: Any, labels: Any, predictions: Any) -> Any:
        """The metric of the selected prediction, label and `inputs[weight_key]`."""
        def pick(name: str, dict_or_tensor: Any, key: Optional[str]) -> Any:
            if key:
                if not isinstance(dict_or_tensor, dict):
                    raise ValueError(
                        f"MetricSpec with {name}_key specified requires {name}s dict, got "
                        f"{dict_or_tensor}.\nYou must not provide a {name}_key if you only "
                        f"have a single Tensor as {name}s.")
                if key not in dict_or_tensor:
                    raise KeyError(f"Key '{key}' missing from {dict_or_tensor.keys()}.")
                return dict_or_tensor[key]
            if isinstance(dict_or_tensor, dict):
                if len(dict_or_tensor) != 1:
                    raise ValueError(f"MetricSpec without specified {name}_key requires "
                                     f"{name}s tensor or single element dict, got "
                                     f"{dict_or_tensor}")
                return next(iter(dict_or_tensor.values()))
            return dict_or_tensor
        prediction = pick("prediction", predictions, self.prediction_key)
        label = pick("label", labels, self.label_key)
        try:
            return self.metric_fn(labels=label, predictions=prediction,
                                  weights=inputs[self.weight_key] if self.weight_key else None)
        except Exception as ex:
            tf_logging.error(f"Could not create metric ops for {self}, {ex}.")
            raise


def make_metrics_ops(metrics: Dict[Any, Any], features: Any, labels: Any,
                     predictions: Any) -> Dict[str, Any]:
    """TF's `_make_metrics_ops`: the `evaluate(metrics=...)` dict as eval metric ops, in
    sorted key order (so the graph is the same on every run)."""
    single_label = labels
    if isinstance(labels, dict) and len(labels) == 1:
        single_label = labels[next(iter(labels))]
    result: Dict[str, Any] = {}
    for name, metric in sorted(metrics.items(), key=lambda item: str(item[0])):
        if isinstance(metric, MetricSpec):
            result[name] = metric.create_metric_ops(features, labels, predictions)
            continue
        tf_logging.warning("Please specify metrics using MetricSpec. Using bare functions or "
                           "(key, fn) tuples is deprecated and support for it will be removed "
                           "on Oct 1, 2016.")
        if isinstance(name, tuple):
            if len(name) != 2:
                raise ValueError(f"Invalid metric for {name}. It returned a tuple with len "
                                 f"{len(name)}, expected 2.")
            if not isinstance(predictions, dict):
                raise ValueError("Metrics passed provide (name, prediction), but predictions "
                                 f"are not dict. Metrics: {metrics}, Predictions: "
                                 f"{predictions}.")
            if isinstance(labels, dict) and name[1] in labels:
                result[name[0]] = metric(predictions[name[1]], labels[name[1]])
            else:
                result[name[0]] = metric(predictions[name[1]], single_label)
        else:
            if isinstance(predictions, dict):
                raise ValueError("Metrics passed provide only name, no prediction, but "
                                 f"predictions are dict. Metrics: {metrics}, Labels: "
                                 f"{single_label}.")
            result[name] = metric(predictions, single_label)
    return result
