"""`Layer.add_metric` as tf-keras has it.

Graph mode (its v1 layers): a tensor added with `aggregation="mean"` is wrapped in a `Mean`
metric of that name (one per name and layer, called again on a later value), the result
of a Metric object's call is tracked as that metric; the layer's `metrics` and a model's
`metrics` / `metrics_names` list them after the compiled metrics, so the loops log them
(`history["transition_score"]`). A tensor of a functional model's graph added to the
model outside a layer call inserts an `AddMetric` layer (engine/functional_insert.py).

Under eager execution (its v2 layers) a value computed inside a call updates the layer's
`Mean` of that name (made on first use, whatever the aggregation); the result of a Metric
object's call tracks that metric, already updated.
"""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.autodiff.tape import lift_to_eager
from tf1compat.framework.context import default_eager

__all__ = ["add_metric", "added_metrics"]


def added_metrics(layer: Any) -> List[Any]:
    """The metrics `add_metric` gave `layer` itself, in order."""
    return layer.__dict__.get("_added_metrics", [])


def add_metric(layer: Any, value: Any, aggregation: Any = None,
               name: Optional[str] = None) -> None:
    """tf-keras's `add_metric` on `layer` (see the module docstring)."""
    from tf1compat.keras import metrics as metrics_module
    from tf1compat.keras.engine import node as node_module
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
    eager_value = getattr(value, "_is_eager_tensor", False)
    if not node_module.call_context().in_call:
        if eager_value:
            raise ValueError(f"Expected a symbolic Tensor for the metric value, received: "
                             f"{value}")
        if getattr(layer, "_is_graph_network", False):
            if metric_obj is not None:
                raise ValueError("Using the result of calling a `Metric` object when calling "
                                 "`add_metric` on a Functional Model is not supported. "
                                 "Please pass the Tensor to monitor directly.")
            from tf1compat.keras.engine.functional_insert import graph_network_add_metric
            graph_network_add_metric(layer, value, aggregation, name)
            return
    metrics = layer.__dict__.setdefault("_added_metrics", [])
    match = next((m for m in metrics if m.name == name), None)
    if eager_value or default_eager():
        # tf-keras's v2 path; while a functional model is built under eager execution
        # (symbolic values) the metric is only made, the eager calls update it.
        metric = match or metric_obj
        if metric is None:
            with lift_to_eager():
                metric = metrics_module.Mean(name=name, dtype=value.dtype)
        if match is None:
            metrics.append(metric)
        if eager_value and metric_obj is None:
            metric(value)
        return
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
