"""The metrics half of the v1 training engine (`TrainingV1`, training_v1.py): the compiled
metrics of each output (per-output and weighted, with tf-keras's unique names), their
calls in the `metrics/` scope when `compile` builds the graph, and `metrics`,
`metrics_names`, `reset_metrics` as tf-keras reports them.
"""

from __future__ import annotations

import collections
from typing import Any, Dict, List, Sequence

from tf1compat.framework import context as _context
from tf1compat.keras import backend
from tf1compat.keras import metrics as metrics_module
from tf1compat.keras.engine import compile_utils
from tf1compat.keras.engine.layer_metrics import added_metrics

__all__ = ["CompiledMetrics"]


class CompiledMetrics:
    """Mixed into `TrainingV1`: the compiled metrics of a Keras model."""

    def _cache_output_metric_attributes(self, metrics: Any, weighted_metrics: Any) -> None:
        shapes = [None if o.shape.rank is None else o.shape.as_list() for o in self.outputs]
        self._per_output_metrics = compile_utils.collect_per_output_metric_info(
            metrics, self.output_names, shapes, self.loss_functions)
        self._per_output_weighted_metrics = compile_utils.collect_per_output_metric_info(
            weighted_metrics, self.output_names, shapes, self.loss_functions,
            is_weighted=True)

    def _add_unique_metric_name(self, name: str, metric_fn: Any, output_index: int) -> str:
        if len(self.output_names) > 1 and not getattr(metric_fn, "_from_serialized", False):
            name = f"{self.output_names[output_index]}_{name}"
        base, j = name, 1
        while name in self.metrics_names:
            name = f"{base}_{j}"
            j += 1
        return name

    def _set_per_output_metric_attributes(self, metrics_dict: Dict[str, Any],
                                          output_index: int) -> Dict[str, Any]:
        updated: Dict[str, Any] = collections.OrderedDict()
        for name, metric_fn in metrics_dict.items():
            name = self._add_unique_metric_name(name, metric_fn, output_index)
            metric_fn._name = name
            updated[name] = metric_fn
            self._compile_metric_functions.append(metric_fn)
        return updated

    def _set_metric_attributes(self) -> None:
        per_output, per_output_weighted = [], []
        for i, endpoint in enumerate(self._training_endpoints):
            if endpoint.should_skip_target():
                per_output.append(self._per_output_metrics[i])
                per_output_weighted.append(self._per_output_weighted_metrics[i])
                continue
            per_output.append(self._set_per_output_metric_attributes(
                self._per_output_metrics[i], i))
            per_output_weighted.append(self._set_per_output_metric_attributes(
                self._per_output_weighted_metrics[i], i))
        if len(self._training_endpoints) > 1:
            for endpoint in self._training_endpoints:
                if not endpoint.should_skip_target():
                    endpoint.output_loss_metric = metrics_module.Mean(
                        name=endpoint.loss_name())
        self._per_output_metrics = per_output
        self._per_output_weighted_metrics = per_output_weighted

    def _handle_metrics(self, outputs: Sequence[Any], targets: Any = None,
                        skip_target_masks: Any = None, sample_weights: Any = None,
                        masks: Any = None, return_weighted_metrics: bool = False) -> List[Any]:
        """Calls each output's metrics (in `metrics/<name>/`); the result tensors are kept
        as the metric objects' `_call_result`."""
        skip_target_masks = skip_target_masks or [False] * len(outputs)
        results = []
        with backend.name_scope("metrics"):
            for i, output in enumerate(outputs):
                if skip_target_masks[i]:
                    continue
                target = targets[i] if targets else None
                mask = masks[i] if masks else None
                if return_weighted_metrics:
                    chosen = self._per_output_weighted_metrics[i]
                    weights = sample_weights[i] if sample_weights else None
                else:
                    chosen, weights = self._per_output_metrics[i], None
                for name, metric_fn in chosen.items():
                    with backend.name_scope(name):
                        result = compile_utils.call_metric_function(
                            metric_fn, target, output, weights=weights, mask=mask)
                        metric_fn._call_result = result
                        results.append(result)
        return results

    @property
    def metrics(self) -> List[Any]:
        """The compiled metrics, then Metric objects of the layers."""
        if getattr(self, "_eager", None) is not None:
            found = list(self._eager.metrics())
        else:
            found = list(self._compile_metric_functions) if self._is_compiled else []
        layers = list(self._flatten_layers(include_self=False, recursive=False))
        # (the model's Metric attributes come first; `add_metric` of their results does
        # not list them twice)
        own = [layer for layer in layers if isinstance(layer, metrics_module.Metric)]
        found.extend(own)
        found.extend(m for m in added_metrics(self) if all(m is not o for o in own))
        for layer in layers:
            if not isinstance(layer, metrics_module.Metric):
                found.extend(layer.metrics)
        return found

    @property
    def metrics_names(self) -> List[str]:
        """`loss`, the per-output losses (several outputs), then the metric names."""
        if getattr(self, "_eager", None) is not None or _context.executing_eagerly():
            # (tf-keras's v2 models list the built metrics: none before the first step)
            return [m.name for m in self.metrics]
        names = ["loss"]
        if self._is_compiled and len(self._training_endpoints) > 1:
            names += [e.loss_name() for e in self._training_endpoints
                      if not e.should_skip_target()]
        return names + [m.name for m in self.metrics]

    def _training_eval_metrics(self) -> List[Any]:
        """The per-output loss means, then `metrics` (what the loops report)."""
        found = [e.output_loss_metric for e in getattr(self, "_training_endpoints", [])
                 if e.output_loss_metric is not None]
        return found + self.metrics

    def reset_metrics(self) -> None:
        """Sets every metric's state back to zero."""
        if getattr(self, "_eager", None) is not None:
            self._eager.reset_metrics()
            return
        for metric in self._training_eval_metrics():
            metric.reset_state()
