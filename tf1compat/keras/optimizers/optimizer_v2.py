"""The Keras optimizer base class that `tf.keras.optimizers.*` are in TF1 Keras
(tf-keras's `optimizers.legacy.OptimizerV2`), in graph and eager mode.

State is Keras weights created on the first `apply_gradients`, under `init_scope` in the
optimizer's name scope (`training/Adam/` when `fit` builds the train function): the step
counter `iter` (int64), one float32 variable per hyper-parameter given as a number
(`learning_rate`, `beta_1`, `decay`, ..., created in sorted order), and slots named
`<variable name>/<slot>` (`training/Adam/dense/kernel/m`). Updates are TF's training ops
(`ResourceApplyAdam`, `ResourceApplyKerasMomentum`, ...) in `<name>/update_<var>/`,
grouped, then `iter += 1`. Hyper-parameters are read through `optimizer.lr` /
`optimizer.learning_rate` (the variable) and set with `K.set_value` or assignment.

Checkpoints: `iter` and the hyper-parameter variables are named children, slots are
reported as TF's slot variables (`_slot_variables_for_checkpoint`).
"""

from __future__ import annotations

import contextlib
import functools
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.misc import executing_eagerly_outside_functions
from tf1compat.framework.tensor import Tensor
from tf1compat.keras import backend
from tf1compat.training.saving.tracking import Trackable
from tf1compat.variables.variables import Variable, init_scope

__all__ = ["OptimizerV2"]

_ALLOWED_KWARGS = ("clipnorm", "clipvalue", "lr", "decay", "global_clipnorm")


def _var_key(var: Any) -> Any:
    if getattr(var, "_in_graph_mode", True) is False:
        return var._unique_id
    return (var.op.graph, var.op.name)


def _shared_name(var: Any) -> str:
    """The variable's name without `:0` (TF's `_shared_name`)."""
    return var.name[:var.name.index(":")] if ":" in var.name else var.name


def _is_schedule(value: Any) -> bool:
    from tf1compat.keras.optimizers.schedules import LearningRateSchedule
    return isinstance(value, LearningRateSchedule)


class OptimizerV2(Trackable):
    """Base class of the Keras optimizers: `minimize`, `get_updates`, `apply_gradients`,
    slots, hyper-parameters, weights and configs."""

    def __init__(self, name: str, gradient_aggregator: Any = None,
                 gradient_transformers: Any = None, **kwargs: Any):
        for key, value in kwargs.items():
            if key not in _ALLOWED_KWARGS:
                raise TypeError(f"Unexpected keyword argument passed to optimizer: {key}. "
                                f"Allowed kwargs are {set(_ALLOWED_KWARGS)}.")
            if value is not None and value < 0:
                raise ValueError(f"Expected {key} >= 0, received: {value}")
        if gradient_aggregator is not None or gradient_transformers:
            raise NotImplementedError("Optimizer gradient_aggregator / gradient_transformers "
                                      "are not supported by tf1compat")
        self._use_locking = True
        self._init_set_name(name)
        self._hyper: Dict[str, Any] = {}
        self._slots: Dict[Any, Dict[str, Variable]] = {}
        self._slot_names: List[str] = []
        self._slot_primaries: Dict[Any, Any] = {}
        self._weights: List[Variable] = []
        self._iterations: Optional[Variable] = None
        self._deferred_slot_restorations: Dict[str, Dict[Any, list]] = {}
        decay = kwargs.pop("decay", 0.0)
        if decay < 0.0:
            raise ValueError(f"decay cannot be less than 0. Received: decay={decay}.")
        self._initial_decay = decay
        self._hypers_created = False
        self.clipnorm = kwargs.pop("clipnorm", None)
        self.global_clipnorm = kwargs.pop("global_clipnorm", None)
        if self.clipnorm is not None and self.global_clipnorm is not None:
            raise ValueError("Cannot accept both `clipnorm` and `global_clipnorm`. Received: "
                             f"`clipnorm`={self.clipnorm}, `global_clipnorm`="
                             f"{self.global_clipnorm}.")
        self.clipvalue = kwargs.pop("clipvalue", None)

    def _init_set_name(self, name: Optional[str]) -> None:
        from tf1compat.keras.engine.base_layer import to_snake_case
        self._name = name or backend.unique_object_name(to_snake_case(type(self).__name__),
                                                        zero_based=True)

    # -- hyper-parameters ------------------------------------------------------------------
    def _set_hyper(self, name: str, value: Any) -> None:
        if isinstance(value, Trackable) or isinstance(value, Variable):
            self._track_trackable(value, name, overwrite=True)
        if name not in self._hyper:
            self._hyper[name] = value
            return
        previous = self._hyper[name]
        if callable(previous) or isinstance(previous, (Tensor, int, float)) or \
                _is_schedule(previous) or _is_schedule(value):
            self._hyper[name] = value
        else:
            backend.set_value(previous, value)

    def _get_hyper(self, name: str, dtype: Any = None) -> Any:
        if not self._hypers_created:
            self._create_hypers()
        value = self._hyper[name]
        if _is_schedule(value):
            return value
        if callable(value) and not isinstance(value, Variable):
            value = value()
        if dtype:
            from tf1compat.ops.math_ops import cast
            return cast(value, dtype)
        return value

    def _create_hypers(self) -> None:
        if self._hypers_created:
            return
        for name, value in sorted(self._hyper.items()):
            if isinstance(value, (Tensor, Variable)) or callable(value):
                continue
            self._hyper[name] = self.add_weight(name, shape=[], trainable=False,
                                                initializer=value)
        self._hypers_created = True

    def __getattr__(self, name: str) -> Any:
        # Hyper-parameters read as attributes (`opt.lr`, `opt.beta_1`), as tf-keras.
        if name.startswith("__") or name == "_hyper" or "_hyper" not in self.__dict__:
            raise AttributeError(name)
        key = "learning_rate" if name == "lr" else name
        if key in self._hyper:
            return self._get_hyper(key)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "lr":
            name = "learning_rate"
        if "_hyper" in self.__dict__ and name in self._hyper:
            self._set_hyper(name, value)
        else:
            object.__setattr__(self, name, value)

    def __dir__(self) -> List[str]:
        names = set(super().__dir__()) | set(self._hyper)
        if "learning_rate" in self._hyper:
            names.add("lr")
        return sorted(names)

    def _serialize_hyperparameter(self, name: str) -> Any:
        value = self._hyper[name]
        if _is_schedule(value):
            from tf1compat.keras.optimizers.schedules import serialize
            return serialize(value)
        if callable(value) and not isinstance(value, Variable):
            return value()
        if isinstance(value, (Tensor, Variable)):
            return backend.get_value(value)
        return value

    def _decayed_lr(self, var_dtype: Any) -> Any:
        """The learning rate as a `var_dtype` tensor: the schedule at `iterations`, then
        divided by `1 + decay * iterations` when `decay` > 0."""
        from tf1compat.ops.math_ops import cast
        lr_t = self._get_hyper("learning_rate", var_dtype)
        if _is_schedule(lr_t):
            lr_t = cast(lr_t(cast(self.iterations, var_dtype)), var_dtype)
        if self._initial_decay > 0.0:
            local_step = cast(self.iterations, var_dtype)
            decay_t = cast(self._initial_decay, var_dtype)
            lr_t = lr_t / (1.0 + decay_t * local_step)
        return lr_t

    # -- weights ---------------------------------------------------------------------------
    def add_weight(self, name: str, shape: Any, dtype: Any = None, initializer: Any = "zeros",
                   trainable: Optional[bool] = None, **unused: Any) -> Variable:
        """A resource variable `name` in the current name scope, tracked as a child."""
        from tf1compat.keras import initializers
        from tf1compat.keras.engine.base_layer import _make_variable
        dtype = D.as_dtype(dtype or D.float32)
        if isinstance(initializer, str) or callable(initializer):
            initializer = initializers.get(initializer)
        variable = _make_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                                  trainable=bool(trainable) if trainable is not None else True,
                                  use_resource=True)
        self._track_trackable(variable, name, overwrite=True)
        backend.track_variable(variable)
        return variable

    @property
    def iterations(self) -> Variable:
        """The number of training steps run (an int64 variable `iter`)."""
        if self._iterations is None:
            self._iterations = self.add_weight("iter", shape=[], dtype=D.int64,
                                               trainable=False)
            self._weights.append(self._iterations)
        return self._iterations

    @iterations.setter
    def iterations(self, variable: Variable) -> None:
        if self._iterations is not None:
            raise RuntimeError("Cannot set `iterations` to a new Variable after the Optimizer "
                               "weights have been created. Here it is attempting to set "
                               f"`iterations` to {variable}.")
        self._iterations = variable
        self._weights.append(variable)

    def _create_all_weights(self, var_list: Sequence[Any]) -> None:
        _ = self.iterations
        self._create_hypers()
        self._create_slots(list(var_list))

    def _create_slots(self, var_list: List[Any]) -> None:
        """Subclasses add their slots (`add_slot`) for each variable."""

    def add_slot(self, var: Any, slot_name: str, initializer: Any = "zeros",
                 shape: Any = None) -> Variable:
        """The slot `slot_name` of `var`, created (`<var name>/<slot_name>`) on first use."""
        from tf1compat.keras import initializers
        from tf1compat.keras.engine.base_layer import _make_variable
        if slot_name not in self._slot_names:
            self._slot_names.append(slot_name)
        key = _var_key(var)
        slots = self._slots.setdefault(key, {})
        weight = slots.get(slot_name)
        if weight is not None:
            return weight
        dtype = var.dtype.base_dtype
        if isinstance(initializer, str) or callable(initializer):
            initializer = initializers.get(initializer)
        slot_shape = var.shape if shape is None else shape
        with _colocate(var):
            weight = _make_variable(f"{_shared_name(var)}/{slot_name}", shape=slot_shape,
                                    dtype=dtype, initializer=initializer, trainable=False,
                                    use_resource=True)
        backend.track_variable(weight)
        slots[slot_name] = weight
        self._slot_primaries[key] = var
        for restoration in self._deferred_slot_restorations.get(slot_name, {}).pop(key, []):
            restoration.restore(weight)
        self._weights.append(weight)
        return weight

    def get_slot(self, var: Any, slot_name: str) -> Variable:
        return self._slots[_var_key(var)][slot_name]

    def get_slot_names(self) -> List[str]:
        return list(self._slot_names)

    @property
    def weights(self) -> List[Variable]:
        """The optimizer's variables in creation order (iterations first)."""
        return self._weights

    def variables(self) -> List[Variable]:
        return self._weights

    def get_weights(self) -> List[np.ndarray]:
        return backend.batch_get_value(self._weights)

    def set_weights(self, weights: Sequence[Any]) -> None:
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on optimizer {self._name} "
                             f"with a  weight list of length {len(weights)}, but the optimizer "
                             f"was expecting {len(params)} weights. Provided weights: "
                             f"{str(weights)[:50]}...")
        tuples = []
        for param, weight in zip(params, weights):
            if tuple(param.shape.as_list()) != np.shape(weight):
                raise ValueError(f"Optimizer weight shape {param.shape} not compatible with "
                                 f"provided weight shape {np.shape(weight)}")
            tuples.append((param, weight))
        backend.batch_set_value(tuples)

    # -- gradients and updates -------------------------------------------------------------
    def get_gradients(self, loss: Any, params: Any) -> List[Any]:
        """`tf.gradients(loss, params)` in `<name>/gradients`; a None gradient is an error."""
        from tf1compat.util import nest
        from tf1compat.autodiff.gradients import gradients
        params = nest.flatten(params)
        with backend.get_graph().as_default(), name_scope(self._name + "/gradients"):
            grads = gradients(loss, params)
            for grad, param in zip(grads, params):
                if grad is None:
                    raise ValueError(f"Variable {param} has `None` for gradient. Please make "
                                     "sure that all of your ops have a gradient defined (i.e. "
                                     "are differentiable). Common ops without gradient: "
                                     "K.argmax, K.round, K.eval.")
        return grads

    def get_updates(self, loss: Any, params: Sequence[Any]) -> List[Any]:
        """The update op for minimizing `loss` over `params` (graph mode)."""
        grads = self.get_gradients(loss, params)
        return [self.apply_gradients(list(zip(grads, params)))]

    def minimize(self, loss: Any, var_list: Any, grad_loss: Any = None,
                 name: Optional[str] = None, tape: Any = None) -> Any:
        """`apply_gradients(compute_gradients(loss))`: `loss` is a tensor in graph mode, a
        zero-argument callable (or a tensor with `tape`) under eager execution."""
        grads_and_vars = self._compute_gradients(loss, var_list, grad_loss=grad_loss, tape=tape)
        return self.apply_gradients(grads_and_vars, name=name)

    def _compute_gradients(self, loss: Any, var_list: Any, grad_loss: Any = None,
                           tape: Any = None) -> List[Tuple[Any, Any]]:
        from tf1compat.util import nest
        if _context.executing_eagerly() or tape is not None:
            from tf1compat.autodiff.tape import GradientTape
            if not callable(loss) and tape is None:
                raise ValueError("`tape` is required when a `Tensor` loss is passed. "
                                 f"Received: loss={loss}, tape={tape}.")
            tape = tape if tape is not None else GradientTape()
            if callable(loss):
                with tape:
                    if not callable(var_list):
                        tape.watch(var_list)
                    loss = loss()
            if callable(var_list):
                var_list = var_list()
            var_list = nest.flatten(var_list)
            grads = tape.gradient(loss, var_list, grad_loss)
        else:
            from tf1compat.autodiff.gradients import gradients
            if callable(loss):
                loss = loss()
            if callable(var_list):
                var_list = var_list()
            var_list = nest.flatten(var_list)
            with name_scope(self._name + "/gradients"):
                grads = gradients(loss, var_list, grad_ys=grad_loss)
        return list(zip(grads, var_list))

    def _transform_gradients(self, grads_and_vars: List[Tuple[Any, Any]]
                             ) -> List[Tuple[Any, Any]]:
        """clipvalue / clipnorm / global_clipnorm, as tf-keras applies them."""
        from tf1compat.ops.clip_ops import clip_by_global_norm
        from tf1compat.ops.reduction_ops import clip_by_norm, clip_by_value
        if self.clipvalue is not None:
            grads_and_vars = [(None if g is None else
                               clip_by_value(g, -self.clipvalue, self.clipvalue), v)
                              for g, v in grads_and_vars]
        if self.clipnorm is not None:
            grads_and_vars = [(None if g is None else clip_by_norm(g, self.clipnorm), v)
                              for g, v in grads_and_vars]
        if self.global_clipnorm is not None:
            grads = [g for g, _ in grads_and_vars]
            clipped, _ = clip_by_global_norm(grads, self.global_clipnorm)
            grads_and_vars = list(zip(clipped, [v for _, v in grads_and_vars]))
        return grads_and_vars

    def apply_gradients(self, grads_and_vars: Any, name: Optional[str] = None,
                        experimental_aggregate_gradients: bool = True) -> Any:
        """Applies the gradients (one training op per variable) and increments
        `iterations`; returns that increment (an op in graph mode)."""
        from tf1compat.ops.control_flow_ops import group, no_op
        from tf1compat.training.strategies.distribute_lib import \
            current_replica_context_for_merge
        grads_and_vars = _filter_empty_gradients(grads_and_vars)
        replica_context = current_replica_context_for_merge()
        if replica_context is None:
            grads_and_vars = _mean_over_workers(grads_and_vars)
        if replica_context is not None:
            # A tf.distribute replica: the replicas' gradients are summed and applied once
            # to the variables they share (replica 0's optimizer, as TF's merge_call).
            return replica_context.merge_call(
                functools.partial(_distributed_apply, optimizer=self),
                args=(tuple(tuple(gv) for gv in grads_and_vars),), kwargs={"name": name})
        var_list = [v for _, v in grads_and_vars]
        with name_scope(self._name):
            with init_scope():
                self._create_all_weights(var_list)
            if not grads_and_vars:
                return no_op()
            apply_state = self._prepare(var_list)
            grads_and_vars = self._transform_gradients(grads_and_vars)
            update_ops = []
            with name_scope(name or self._name):
                for grad, var in grads_and_vars:
                    # (tf-keras: "update" under eager execution, in a tf.function too)
                    scope = "update" if executing_eagerly_outside_functions() else \
                        "update_" + var.op.name
                    with _colocate(var), name_scope(scope):
                        update_ops.append(self._apply_one(grad, var, apply_state))
                if _context.executing_eagerly():
                    return self.iterations.assign_add(1)
                with control_dependencies([group(*update_ops)]):
                    return self.iterations.assign_add(1, read_value=False)

    def _apply_one(self, grad: Any, var: Any, apply_state: Dict[Any, Dict[str, Any]]) -> Any:
        if isinstance(var, Tensor) and not isinstance(var, Variable):
            raise NotImplementedError(f"Updating a `Tensor` is not implemented. Received: "
                                      f"var={var}.")
        if isinstance(grad, IndexedSlices):
            if var.constraint is not None:
                raise RuntimeError("Cannot use a constraint function on a sparse variable. "
                                   f"Received: grad={grad}, var.constraint={var.constraint}.")
            return self._resource_apply_sparse_duplicate_indices(
                grad.values, var, grad.indices, apply_state=apply_state)
        update = self._resource_apply_dense(grad, var, apply_state=apply_state)
        if var.constraint is None:
            return update
        with control_dependencies([update]):
            return var.assign(var.constraint(var))

    def _prepare(self, var_list: Sequence[Any]) -> Dict[Any, Dict[str, Any]]:
        keys = []
        for var in var_list:
            key = (var.device, var.dtype.base_dtype)
            if key not in keys:
                keys.append(key)
        apply_state: Dict[Any, Dict[str, Any]] = {}
        for device, dtype in keys:
            apply_state[(device, dtype)] = {}
            self._prepare_local(device, dtype, apply_state)
        return apply_state

    def _prepare_local(self, var_device: Any, var_dtype: Any,
                       apply_state: Dict[Any, Dict[str, Any]]) -> None:
        if "learning_rate" in self._hyper:
            from tf1compat.ops.array_ops import identity
            apply_state[(var_device, var_dtype)]["lr_t"] = identity(self._decayed_lr(var_dtype))

    def _coefficients(self, var: Any, apply_state: Optional[Dict[Any, Dict[str, Any]]]
                      ) -> Dict[str, Any]:
        key = (var.device, var.dtype.base_dtype)
        found = (apply_state or {}).get(key)
        if found is None:
            found = {}
            self._prepare_local(var.device, var.dtype.base_dtype, {key: found})
        return found

    def _resource_apply_dense(self, grad: Any, var: Any, apply_state: Any = None) -> Any:
        raise NotImplementedError("Must be implemented in subclasses.")

    def _resource_apply_sparse_duplicate_indices(self, grad: Any, var: Any, indices: Any,
                                                 apply_state: Any = None) -> Any:
        from tf1compat.training.optimizers.optimizer import deduplicate_indexed_slices
        summed, unique = deduplicate_indexed_slices(grad, indices)
        return self._resource_apply_sparse(summed, var, unique, apply_state=apply_state)

    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any,
                               apply_state: Any = None) -> Any:
        raise NotImplementedError(f"{type(self).__name__} does not support sparse (embedding "
                                  "lookup) gradients in tf1compat")

    def _resource_scatter_add(self, x: Any, i: Any, v: Any) -> Any:
        from tf1compat.ops.resource_variable_ops import resource_op
        with control_dependencies([resource_op("ResourceScatterAdd", x.handle, i, v)]):
            return x.value()

    def _resource_scatter_update(self, x: Any, i: Any, v: Any) -> Any:
        from tf1compat.ops.resource_variable_ops import resource_op
        with control_dependencies([resource_op("ResourceScatterUpdate", x.handle, i, v)]):
            return x.value()

    # -- configuration ---------------------------------------------------------------------
    def get_config(self) -> Dict[str, Any]:
        config: Dict[str, Any] = {"name": self._name}
        if self.clipnorm is not None:
            config["clipnorm"] = self.clipnorm
        if self.clipvalue is not None:
            config["clipvalue"] = self.clipvalue
        if self.global_clipnorm is not None:
            config["global_clipnorm"] = self.global_clipnorm
        return config

    @classmethod
    def from_config(cls, config: Dict[str, Any], custom_objects: Any = None) -> "OptimizerV2":
        config = dict(config)
        if "lr" in config:
            config["learning_rate"] = config.pop("lr")
        if isinstance(config.get("learning_rate"), dict):
            from tf1compat.keras.optimizers.schedules import deserialize
            config["learning_rate"] = deserialize(config["learning_rate"],
                                                  custom_objects=custom_objects)
        return cls(**config)

    # -- checkpoints -----------------------------------------------------------------------
    def _slot_variables_for_checkpoint(self) -> List[Tuple[Any, str, Variable]]:
        """(original variable, slot name, slot) in slot-name order, then creation order."""
        out = []
        for slot_name in self._slot_names:
            for key, slots in self._slots.items():
                if slot_name in slots:
                    out.append((self._slot_primaries[key], slot_name, slots[slot_name]))
        return out

    def _create_or_restore_slot_variable(self, restoration: Any, slot_name: str,
                                         variable: Any) -> None:
        slot = self._slots.get(_var_key(variable), {}).get(slot_name)
        if slot is not None:
            restoration.restore(slot)
            return
        self._deferred_slot_restorations.setdefault(slot_name, {}).setdefault(
            _var_key(variable), []).append(restoration)


def _colocate(var: Any) -> Any:
    if _context.executing_eagerly():
        return contextlib.nullcontext()
    from tf1compat.framework.graph import colocate_with
    return colocate_with(var)


def _mean_over_workers(grads_and_vars: List[Tuple[Any, Any]]) -> List[Tuple[Any, Any]]:
    """Keras `fit` of a model built in a multi-worker strategy's scope: each worker
    trains on its own batch and the gradients become their mean over the workers (TF's
    per-replica losses divided by the replicas, then summed)."""
    strategies = {id(s): s for s in (getattr(v, "_created_by_strategy", None)
                                     for _, v in grads_and_vars) if s is not None}
    if len(strategies) != 1:
        return grads_and_vars
    strategy = next(iter(strategies.values()))
    if not strategy.extended._in_multi_worker_mode():
        return grads_and_vars
    from tf1compat.training.strategies.values import ReduceOp, local_results
    with strategy.scope():
        reduced = strategy.extended.batch_reduce_to(ReduceOp.MEAN, grads_and_vars)
    return [(local_results(g)[0], v) for g, (_, v) in zip(reduced, grads_and_vars)]


def _filter_empty_gradients(grads_and_vars: Any) -> List[Tuple[Any, Any]]:
    grads_and_vars = list(grads_and_vars)
    filtered = [(g, v) for g, v in grads_and_vars if g is not None]
    if not filtered:
        names = [v.name for _, v in grads_and_vars]
        raise ValueError(f"No gradients provided for any variable: {names}.")
    if len(filtered) < len(grads_and_vars):
        from tf1compat.util import tf_logging as logging
        missing = [v.name for g, v in grads_and_vars if g is None]
        logging.warning("Gradients do not exist for variables %s when minimizing the loss. If "
                        "you're using `model.compile()`, did you forget to provide a `loss` "
                        "argument?", missing)
    return filtered


def with_coefficients(fn: Callable) -> Callable:
    """Decorator for `_resource_apply_*`: passes the per-(device, dtype) coefficients."""
    @functools.wraps(fn)
    def wrapper(self: OptimizerV2, grad: Any, var: Any, *args: Any, apply_state: Any = None
                ) -> Any:
        return fn(self, grad, var, *args, coefficients=self._coefficients(var, apply_state))
    return wrapper


def _distributed_apply(strategy: Any, grads_and_vars: Any, optimizer: "OptimizerV2",
                       name: Optional[str] = None) -> Any:
    """apply_gradients in the cross-replica context with the summed gradients."""
    from tf1compat.training.strategies.values import ReduceOp, local_results
    reduced = strategy.extended.batch_reduce_to(ReduceOp.SUM, list(grads_and_vars))
    return optimizer.apply_gradients([(local_results(g)[0], v) for g, (_, v)
                                      in zip(reduced, grads_and_vars)], name=name)

