"""`tf.contrib.estimator.replicate_model_fn` and `TowerOptimizer` (TF 1.5-1.15): in-graph
replication of an Estimator's model_fn over the local devices (tensorflow/models'
official/mnist and official/resnet use them for `--multi_gpu`).

The batch is split into one shard per device (`split_inputs/`); model_fn runs once per
device, the first tower with no name prefix and fresh variables, tower i > 0 under
`tower_i/` reusing them, every variable placed on the consolidation device (the only
GPU, else the CPU). Tower losses are divided by the number of towers unless the
reduction is SUM; the aggregate loss is their sum (`loss`). In TRAIN mode the optimizer
must be wrapped in `TowerOptimizer`: each tower's `apply_gradients` only collects its
gradients (a no-op train op), the last tower's sums them per variable and applies them
in the first tower's scopes; the spec's train op is the last tower's. In EVAL mode every
metric's update op is followed by folding the other towers' metric variables into the
first tower's (and zeroing them); PREDICT concatenates predictions and export outputs.
With a single device all this reduces to model_fn's own spec (the loss an Identity named
`loss`, metrics followed by a no-op). A TowerOptimizer used without replicate_model_fn
behaves as the optimizer it wraps.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Dict, List, Optional

from tf1compat.estimator.export.export_output import (ClassificationOutput, PredictOutput,
                                                      RegressionOutput)
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.model_fn import EstimatorSpec
from tf1compat.estimator.util import fn_args
from tf1compat.framework.device_spec import DeviceSpec
from tf1compat.framework.graph import (GraphKeys, control_dependencies, device,
                                       get_collection, get_default_graph, name_scope)
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.losses.losses_impl import Reduction
from tf1compat.ops.array_ops import concat, identity, shape, split
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.ops.creation_ops import zeros
from tf1compat.ops.math_ops import add_n, div
from tf1compat.ops.sparse_extra import sparse_split
from tf1compat.ops.state_ops import assign, assign_add
from tf1compat.runtime.placement import list_local_devices
from tf1compat.training.optimizers.optimizer import Optimizer
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["replicate_model_fn", "TowerOptimizer"]

_VARIABLE_OP_TYPES = ("Variable", "VariableV2", "VarHandleOp")
_GRAPH_STATE_COLLECTION = "replicate_model_fn_graph_states"


def replicate_model_fn(model_fn: Callable, loss_reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS,
                       devices: Optional[List[str]] = None) -> Callable:
    """A model_fn that runs `model_fn` once per device on a shard of the batch (see the
    module docstring). `devices`: default every local GPU, else the CPU."""
    if loss_reduction == Reduction.NONE:
        raise ValueError(f"Tower losses need to be reduced in some way, yet {loss_reduction} "
                         f"reduction is specified.")
    if not devices:
        devices = _local_devices("GPU") or _local_devices("CPU")
    single_gpu = len(devices) == 1 and "GPU" in devices[0].upper()
    consolidation_device = devices[0] if single_gpu else "/CPU:0"

    def replicated_model_fn(features: Any, labels: Any, mode: str, params: Any = None,
                            config: Any = None) -> EstimatorSpec:
        feature_shards, label_shards = _split_batch(features, labels, len(devices),
                                                    consolidation_device)
        specs = _tower_specs(model_fn, mode, feature_shards, label_shards, params, config,
                             loss_reduction, devices, consolidation_device)
        if mode == ModeKeys.TRAIN:
            return _train_spec(specs, consolidation_device)
        if mode == ModeKeys.EVAL:
            return _eval_spec(specs, consolidation_device)
        return _predict_spec(specs, consolidation_device)
    return replicated_model_fn


def _local_devices(device_type: str) -> List[str]:
    return [d.name for d in list_local_devices() if d.device_type == device_type]


def _split_batch(features: Any, labels: Any, shards: int, on_device: str) -> tuple:
    """Features and labels cut into `shards` equal parts along the batch."""
    def split_one(value: Any) -> List[Any]:
        if isinstance(value, SparseTensor):
            return sparse_split(sp_input=value, num_split=shards, axis=0)
        return split(value, shards)

    def split_all(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, dict):
            parts = {key: split_one(v) for key, v in value.items()}
            return [{key: pieces[i] for key, pieces in parts.items()} for i in range(shards)]
        return split_one(value)

    with name_scope("split_inputs"), device(on_device):
        return split_all(features), split_all(labels)


def _variables_on(worker: str, ps: str) -> Callable[[Any], str]:
    """A device function: variables on `ps`, every other op on `worker` (each merged with
    the op's own device request)."""
    def choose(op: Any) -> str:
        spec = DeviceSpec.from_string(ps if op.type in _VARIABLE_OP_TYPES else worker)
        spec.merge_from(DeviceSpec.from_string(op.device or ""))
        return spec.to_string()
    return choose


def _tower_specs(model_fn: Callable, mode: str, features: List[Any], labels: Any,
                 params: Any, config: Any, loss_reduction: str, devices: List[str],
                 consolidation_device: str) -> List[EstimatorSpec]:
    accepted = fn_args(model_fn)
    extra: Dict[str, Any] = {}
    if "params" in accepted:
        extra["params"] = copy.deepcopy(params)
    if "config" in accepted:
        extra["config"] = copy.deepcopy(config)
    state = _GraphState.reset(len(devices), loss_reduction)
    specs = []
    for i, tower_device in enumerate(devices):
        state.tower_index = i
        with variable_scope("", reuse=i > 0) as var_scope:
            with name_scope("" if i == 0 else f"tower_{i}") as scope:
                if i == 0:
                    state.first_tower_scopes = (var_scope, scope)
                with device(_variables_on(tower_device, consolidation_device)):
                    spec = model_fn(mode=mode, features=features[i],
                                    labels=None if labels is None else labels[i], **extra)
                    if spec.train_op is not None and len(devices) > 1 and not state.used:
                        raise ValueError("Please wrap optimizers with TowerOptimizer in order "
                                         "to use replicate_model_fn with mode TRAIN.")
                    if spec.loss is not None and len(devices) > 1 and \
                            loss_reduction != Reduction.SUM:
                        spec = spec._replace(loss=div(spec.loss, 1.0 * len(devices),
                                                      name="averaged_loss"))
        specs.append(spec)
    _GraphState.clear()
    return specs


def _sum_on(values: List[Any], on_device: str, name: Optional[str] = None) -> Any:
    with device(on_device):
        if isinstance(values[0], IndexedSlices):
            # Sparse gradients (embedding lookups): their rows side by side.
            return IndexedSlices(concat([v.values for v in values], axis=0),
                                 concat([v.indices for v in values], axis=0),
                                 values[0].dense_shape)
        if len(values) == 1:
            return identity(values[0], name=name)
        return add_n(values, name=name)


def _train_spec(specs: List[EstimatorSpec], on_device: str) -> EstimatorSpec:
    return specs[0]._replace(mode=ModeKeys.TRAIN, train_op=specs[-1].train_op,
                             loss=_sum_on([s.loss for s in specs], on_device, "loss"))


def _eval_spec(specs: List[EstimatorSpec], on_device: str) -> EstimatorSpec:
    updates = [update for s in specs for _, update in s.eval_metric_ops.values()]
    with control_dependencies(updates):
        reduced = _fold_metric_variables(len(specs))
    metrics = {name: (value, reduced) for name, (value, _) in specs[0].eval_metric_ops.items()}
    return specs[0]._replace(mode=ModeKeys.EVAL, eval_metric_ops=metrics,
                             loss=_sum_on([s.loss for s in specs], on_device, "loss"))


def _fold_metric_variables(towers: int) -> Any:
    """Each tower's metric variables added into the first tower's, then zeroed."""
    if towers == 1:
        return no_op(name="no_eval_metric_reduction")
    variables = get_collection(GraphKeys.METRIC_VARIABLES)
    per_tower = len(variables) // towers
    if len(variables) % towers:
        raise ValueError("Different `EstimatorSpec.eval_metric_ops` across `model_fn()` "
                         "calls. Expected {} local variables, but got {} instead.".format(
                             per_tower * towers, len(variables)))
    ops = []
    for k in range(per_tower):
        replicas = variables[k + per_tower::per_tower]
        folded = assign_add(variables[k], add_n([r.value() for r in replicas]))
        with control_dependencies([folded]):
            ops.extend(assign(r, zeros(shape(r), dtype=r.dtype.base_dtype)) for r in replicas)
    return group(*ops)


def _concat_dicts(dicts: List[Dict[str, Any]]) -> Dict[str, Any]:
    return {key: concat([d[key] for d in dicts], axis=0, name=key) for key in dicts[0]}


def _predict_spec(specs: List[EstimatorSpec], on_device: str) -> EstimatorSpec:
    with device(on_device):
        predictions = specs[0].predictions
        if isinstance(predictions, dict):
            predictions = _concat_dicts([s.predictions for s in specs])
        else:
            predictions = concat([s.predictions for s in specs], axis=0)
        outputs = {}
        for key, first in (specs[0].export_outputs or {}).items():
            each = [s.export_outputs[key] for s in specs]
            if isinstance(first, PredictOutput):
                outputs[key] = PredictOutput(_concat_dicts([o.outputs for o in each]))
            elif isinstance(first, RegressionOutput):
                outputs[key] = RegressionOutput(concat([o.value for o in each], axis=0))
            elif isinstance(first, ClassificationOutput):
                scores = classes = None
                if first.scores is not None:
                    scores = concat([o.scores for o in each], axis=0)
                if first.classes is not None:
                    classes = concat([o.classes for o in each], axis=0)
                outputs[key] = ClassificationOutput(scores=scores, classes=classes)
            else:
                raise NotImplementedError(
                    f"replicate_model_fn: export output {type(first).__name__} of "
                    f"'{key}' cannot be merged across towers")
    return specs[0]._replace(mode=ModeKeys.PREDICT, predictions=predictions,
                             export_outputs=outputs or specs[0].export_outputs)


class _GraphState:
    """What the towers of one replicate_model_fn call share, kept in a graph collection."""

    def __init__(self, towers: int = 1, loss_reduction: Optional[str] = None):
        self.towers = towers
        self.loss_reduction = loss_reduction
        self.tower_index = 0
        self.used = False
        self.first_tower_scopes: Any = None
        self.gradients: List[List[tuple]] = []

    @staticmethod
    def current() -> "_GraphState":
        states = get_default_graph().get_collection_ref(_GRAPH_STATE_COLLECTION)
        if not states:
            states.append(_GraphState())
        return states[-1]

    @staticmethod
    def reset(towers: int, loss_reduction: str) -> "_GraphState":
        states = get_default_graph().get_collection_ref(_GRAPH_STATE_COLLECTION)
        del states[:]
        states.append(_GraphState(towers, loss_reduction))
        return states[-1]

    @staticmethod
    def clear() -> None:
        del get_default_graph().get_collection_ref(_GRAPH_STATE_COLLECTION)[:]


class TowerOptimizer(Optimizer):
    """Wraps an optimizer (or a function making one) for replicate_model_fn: each tower
    scales its loss and contributes its gradients; the last tower applies their sums."""

    def __init__(self, optimizer_or_optimizer_fn: Any):
        super().__init__(use_locking=False, name="TowerOptimizer")
        self._optimizer_or_optimizer_fn = optimizer_or_optimizer_fn

    def _optimizer(self) -> Optimizer:
        if callable(self._optimizer_or_optimizer_fn) and \
                not isinstance(self._optimizer_or_optimizer_fn, Optimizer):
            self._optimizer_or_optimizer_fn = self._optimizer_or_optimizer_fn()
        return self._optimizer_or_optimizer_fn

    def get_name(self) -> str:
        return self._optimizer().get_name()

    def get_slot(self, var: Any, name: str) -> Any:
        return self._optimizer().get_slot(var, name)

    def get_slot_names(self) -> List[str]:
        return self._optimizer().get_slot_names()

    def variables(self) -> List[Any]:
        return self._optimizer().variables()

    def compute_gradients(self, loss: Any, *args: Any, **kwargs: Any) -> List[tuple]:
        state = _GraphState.current()
        state.used = True
        if state.towers > 1 and state.loss_reduction != Reduction.SUM:
            loss = div(loss, 1.0 * state.towers, name="averaged_loss")
        return self._optimizer().compute_gradients(loss, *args, **kwargs)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        **kwargs: Any) -> Any:
        state = _GraphState.current()
        grads_and_vars = list(grads_and_vars)
        if state.towers == 1:
            return self._optimizer().apply_gradients(grads_and_vars, global_step, **kwargs)
        state.gradients.append(grads_and_vars)
        if state.tower_index < state.towers - 1:
            with control_dependencies([g for g, _ in grads_and_vars if g is not None]):
                return no_op()
        var_scope, scope = state.first_tower_scopes
        with variable_scope(var_scope), name_scope(scope):
            return self._apply_summed(state.gradients, global_step, **kwargs)

    def _apply_summed(self, tower_gradients: List[List[tuple]], global_step: Any,
                      **kwargs: Any) -> Any:
        per_variable: Dict[Any, List[Any]] = {}
        for grads_and_vars in tower_gradients:
            for grad, var in grads_and_vars:
                if grad is not None:
                    per_variable.setdefault(var, []).append(grad)
        summed = []
        with name_scope("gradient_aggregating"):
            for var, grads in per_variable.items():
                summed.append((_sum_on(grads, var.device), var))
        return self._optimizer().apply_gradients(summed, global_step=global_step, **kwargs)
