"""`Layer.add_metric` as tf-keras's v1 layers have it (graph mode): a tensor added with
`aggregation="mean"` is wrapped in a `Mean` metric of that name (one per name and layer,
called again on a later value), the result of a Metric object's call is tracked as that
metric; the layer's `metrics` and a model's `metrics` / `metrics_names` list them after
the compiled metrics, so the v1 loop logs them (`history["transition_score"]`)."""

from __future__ import annotations

from typing import Any, List, Optional

__all__ = ["add_metric", "added_metrics"]


def added_metrics(layer: Any) -> List[Any]:
    """The metrics `add_metric` gave `layer` itself, in order."""
    return layer.__dict__.get("_added_metrics", [])


def add_metric(layer: Any, value: Any, aggregation: Any = None,
               name: Optional[str] = None) -> None:
    """tf-keras's v1 `add_metric` on `layer` (see the module docstring); under eager
    execution a NotImplementedError."""
    from tf1compat.framework.context import executing_eagerly
    from tf1compat.keras import metrics as metrics_module
    if executing_eagerly():
        raise NotImplementedError("Layer.add_metric under eager execution is not supported "
                                  "by tf1compat (it is in graph mode)")
    if aggregation is not None and aggregation != "mean":
        raise ValueError("We currently support only `mean` sample-wise metric aggregation. "
                         f"You provided aggregation=`{aggregation}`")
    metric_obj = getattr(value, "_metric_obj", None)
    if name is None and metric_obj is None:
        raise ValueError("Please provide a name for your metric like "
                         "`self.add_metric(tf.reduce_sum(inputs), name='mean_activation', "
                         "aggregation='mean')`")
    if metric_obj is not None:
        name = metric_obj.name
    metrics = layer.__dict__.setdefault("_added_metrics", [])
    match = next((m for m in metrics if m.name == name), None)
    if aggregation is None:
        if match is None and metric_obj is None:
            raise ValueError(
                "We do not support adding an aggregated metric result tensor that is not "
                "the output of a `tf.keras.metrics.Metric` metric instance. Without having "
                "access to the metric instance we cannot reset the state of a metric after "
                "every epoch during training. You can create a `tf.keras.metrics.Metric` "
                "instance and pass the result here or pass an un-aggregated result with "
                "`aggregation` parameter set as `mean`. For example: "
                "`self.add_metric(tf.reduce_sum(inputs), name='mean_activation', "
                "aggregation='mean')`")
        metric, result = match or metric_obj, value
    else:
        metric = match or metrics_module.Mean(name=name, dtype=value.dtype)
        result = metric(value)
    metric._call_result = result
    if match is None:
        metrics.append(metric)
