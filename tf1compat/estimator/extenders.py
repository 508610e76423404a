"""`tf.estimator.add_metrics`: an Estimator whose evaluation adds a metric_fn's metrics."""

from __future__ import annotations

from typing import Any, Callable, Dict

from tf1compat.estimator.estimator import Estimator
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.util import fn_args

__all__ = ["add_metrics"]

_VALID_METRIC_FN_ARGS = {"features", "labels", "predictions", "config"}


def _verify_metric_fn_args(metric_fn: Callable[..., Any]) -> None:
    invalid_args = list(set(fn_args(metric_fn)) - _VALID_METRIC_FN_ARGS)
    if invalid_args:
        raise ValueError(f"metric_fn ({metric_fn}) has following not expected args: "
                         f"{invalid_args}")


def _call_metric_fn(metric_fn: Callable[..., Any], features: Any, labels: Any,
                    predictions: Any, config: Any) -> Dict[str, Any]:
    args = fn_args(metric_fn)
    given = {"features": features, "labels": labels, "predictions": predictions,
             "config": config}
    return metric_fn(**{k: v for k, v in given.items() if k in args})


def add_metrics(estimator: Estimator, metric_fn: Callable[..., Any]) -> Estimator:
    """A new Estimator (same model_dir, config and warm start) whose EVAL spec has the
    metrics `metric_fn` returns (`(value, update_op)` pairs by name) added to - and on a name
    clash replacing - the wrapped estimator's. `metric_fn` takes any of `predictions`,
    `features`, `labels`, `config`."""
    _verify_metric_fn_args(metric_fn)

    def new_model_fn(features: Any, labels: Any, mode: str, config: Any) -> Any:
        spec = estimator.model_fn(features, labels, mode, config)
        if mode != ModeKeys.EVAL:
            return spec
        new_metrics = _call_metric_fn(metric_fn, features, labels, spec.predictions, config)
        all_metrics = spec.eval_metric_ops or {}
        all_metrics.update(new_metrics)
        return spec._replace(eval_metric_ops=all_metrics)

    return Estimator(model_fn=new_model_fn, model_dir=estimator.model_dir,
                     config=estimator.config,
                     warm_start_from=estimator._warm_start_settings)  # noqa: SLF001
