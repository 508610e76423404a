"""`tf.contrib.optimizer_v2` (TF 1.15): OptimizerV2 and its six optimizers.

OptimizerV2 is a tf.train.Optimizer whose hyper-parameters are declared with
`_set_hyper(name, value)`: a number or tensor is converted once per graph (under
`init_scope`, a constant named after the parameter), a callable is called again at every
`apply_gradients`. Subclass hooks take a `state` (TF's _OptimizerV2State): `_create_vars(
var_list, state)`, `_prepare(state)`, `_apply_dense(grad, var, state)`, ...,
`_finish(state)`; the state creates and finds slots (`state.zeros_slot`,
`state.create_slot_with_initializer`, `state.get_slot`), non-slot variables
(`state.create_non_slot`, `state.get_non_slot`, one set per graph) and the hyper-parameters
(`state.get_hyper(name, dtype)`, cast once per dtype).

The six optimizers are the tf.train ones (training/optimizers/) run through this protocol:
the same slots (`<var>/Adam`, `<var>/Adam_1`, ...), non-slot variables (`beta1_power`,
`beta2_power`) and training kernels; `_prepare(state)` hands the step's hyper-parameter
tensors to the attributes their update code reads (`_V1_TENSORS`). Two differences from
tf.train are TF 1.15's: RMSProp's "rms" slot starts at epsilon and its kernel gets
epsilon 0, and Adam's beta powers are multiplied in `_finish`, after all the updates.
`get_slot_names()` and `variables()` answer for the current graph. Distribution
strategies' replicas apply the summed gradients once (as tf.train's optimizers do).
"""

from __future__ import annotations

import functools
from typing import Any, Dict, List, Optional, Tuple

from tf1compat.framework import context as _context
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.training.optimizers import (adadelta, adagrad, adam, gradient_descent, momentum,
                                           rmsprop)
from tf1compat.training.optimizers.optimizer import (
    Optimizer, _current_graph, _distributed_apply, _graph_of, _increment, convert_gradients,
    deduplicate_indexed_slices, registered_train_op, update_scope)
from tf1compat.training.strategies.distribute_lib import (current_replica_context_for_merge,
                                                          get_strategy)
from tf1compat.variables.variables import Variable, init_scope

__all__ = ["OptimizerV2", "AdadeltaOptimizer", "AdagradOptimizer", "AdamOptimizer",
           "GradientDescentOptimizer", "MomentumOptimizer", "RMSPropOptimizer"]


def _is_dynamic(value: Any) -> bool:
    """A hyper-parameter evaluated again at each step: a callable, or eagerly a variable."""
    if callable(value):
        return True
    return _context.executing_eagerly() and isinstance(value, Variable)


class _OptimizerV2State:
    """One step's view of an OptimizerV2: its hyper-parameter tensors (static ones shared
    by every step in the graph) and the slots and non-slot variables of the optimizer."""

    def __init__(self, optimizer: "OptimizerV2", hyper: Dict[str, Dict[Any, Any]]):
        self._optimizer = optimizer
        self._hyper = hyper

    def get_hyper(self, name: str, dtype: Any = None) -> Any:
        """The `name` hyper-parameter, cast to `dtype` when given (one cast per dtype)."""
        from tf1compat.ops.math_ops import cast
        dtype_dict = self._hyper[name]
        if dtype not in dtype_dict:
            dtype_dict[dtype] = cast(dtype_dict[None], dtype)
        return dtype_dict[dtype]

    def create_slot(self, var: Any, val: Any, slot_name: str,
                    optional_op_name: Optional[str] = None) -> Variable:
        """The `slot_name` slot of `var`, created from the tensor `val` if missing."""
        opt = self._optimizer
        return opt._get_or_make_slot(var, val, slot_name, optional_op_name or opt._name)

    def create_slot_with_initializer(self, var: Any, initializer: Any, shape: Any,
                                     dtype: Any, slot_name: str,
                                     optional_op_name: Optional[str] = None) -> Variable:
        """The `slot_name` slot of `var`, created with `initializer` if missing."""
        opt = self._optimizer
        return opt._get_or_make_slot_with_initializer(var, initializer, shape, dtype,
                                                      slot_name, optional_op_name or opt._name)

    def zeros_slot(self, var: Any, slot_name: str,
                   optional_op_name: Optional[str] = None) -> Variable:
        """The `slot_name` slot of `var`, created as zeros if missing."""
        opt = self._optimizer
        return opt._zeros_slot(var, slot_name, optional_op_name or opt._name)

    def get_slot(self, var: Any, name: str) -> Optional[Variable]:
        return self._optimizer.get_slot(var, name)

    def get_slot_names(self) -> List[str]:
        return self._optimizer.get_slot_names()

    def create_non_slot(self, initial_value: Any, name: str,
                        colocate_with: Any = None) -> Variable:
        """The optimizer's variable `name` of this graph, created if missing."""
        return self._optimizer._create_non_slot_variable(initial_value, name, colocate_with)

    def get_non_slot(self, name: str) -> Optional[Variable]:
        return self._optimizer._get_non_slot_variable(name, _current_graph())


class OptimizerV2(Optimizer):
    """Base class of contrib's version-2 optimizers (hyper-parameters through
    `_set_hyper`, hooks that take a `state`). Subclasses override `_create_vars`, not
    `_create_slots`."""

    # hyper-parameter -> the tf.train optimizer attribute its update code reads
    _V1_TENSORS: Dict[str, str] = {}

    def __init__(self, use_locking: bool, name: str):
        if type(self)._create_slots.__code__ is not OptimizerV2._create_slots.__code__:
            raise RuntimeError("Override _create_vars instead of _create_slots when "
                               f"descending from OptimizerV2 (class {type(self).__name__})")
        Optimizer.__init__(self, use_locking, name)
        self._hyper_values: Dict[str, Tuple[bool, Any]] = {}
        # graph -> {hyper-parameter -> {dtype or None -> tensor}} of the static ones
        self._static_hyper: Dict[Any, Dict[str, Dict[Any, Any]]] = {}

    def _set_hyper(self, name: str, value: Any) -> None:
        self._hyper_values[name] = (_is_dynamic(value), value)

    def minimize(self, loss: Any, global_step: Any = None, var_list: Any = None,
                 gate_gradients: int = Optimizer.GATE_OP, aggregation_method: Any = None,
                 name: Optional[str] = None, grad_loss: Any = None,
                 stop_gradients: Any = None,
                 scale_loss_by_num_replicas: bool = False) -> Any:
        """compute_gradients + apply_gradients; returns the training op."""
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method, grad_loss=grad_loss,
            stop_gradients=stop_gradients,
            scale_loss_by_num_replicas=scale_loss_by_num_replicas)
        if not [v for g, v in grads_and_vars if g is not None]:
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do "
                "not support gradients, between variables "
                f"{[str(v) for _, v in grads_and_vars]} and loss {loss}.")
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss: Any, var_list: Any = None,
                          gate_gradients: int = Optimizer.GATE_OP,
                          aggregation_method: Any = None, grad_loss: Any = None,
                          stop_gradients: Any = None,
                          scale_loss_by_num_replicas: bool = False) -> List[Tuple[Any, Any]]:
        """[(gradient or None, variable)]; the loss is divided by the number of replicas
        only when `scale_loss_by_num_replicas`."""
        def scale_loss(loss_value: Any) -> Any:
            replicas = get_strategy().num_replicas_in_sync
            if scale_loss_by_num_replicas and replicas > 1:
                return loss_value * (1. / replicas)
            return loss_value
        return self._compute_gradients(loss, var_list, gate_gradients, aggregation_method,
                                       False, grad_loss, scale_loss, stop_gradients)

    def _step_state(self) -> _OptimizerV2State:
        """This step's state: the graph's static hyper-parameters (converted on first use,
        under init_scope) and the dynamic ones, evaluated now."""
        graph = _current_graph()
        static = self._static_hyper.get(graph)
        if static is None:
            with init_scope():
                static = {name: {None: convert_to_tensor(value, name=name)}
                          for name, (dynamic, value) in sorted(self._hyper_values.items())
                          if not dynamic}
            self._static_hyper[graph] = static
        hyper = {name: {None: convert_to_tensor(value() if callable(value) else value,
                                                name=name)}
                 for name, (dynamic, value) in sorted(self._hyper_values.items()) if dynamic}
        hyper.update(static)
        return _OptimizerV2State(self, hyper)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        """Adds the variable updates, then `_finish`, then the `global_step` increment."""
        from tf1compat.ops.control_flow_ops import group
        grads_and_vars = tuple(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        filtered = tuple((g, v) for g, v in grads_and_vars if g is not None)
        if not filtered:
            raise ValueError("No gradients provided for any variable: "
                             f"{[str(v) for _, v in grads_and_vars]}.")
        replica_context = current_replica_context_for_merge()
        if replica_context is not None:
            return replica_context.merge_call(
                functools.partial(_distributed_apply, optimizer=self),
                args=(tuple(tuple(gv) for gv in filtered),),
                kwargs={"global_step": global_step, "name": name})
        converted = convert_gradients(filtered)
        with name_scope(name, self._name) as name:
            state = self._step_state()
        with init_scope():
            self._create_vars([v for _, v, _ in converted], state)
        with name_scope(name):
            self._prepare(state)
            updates = []
            for grad, var, processor in converted:
                with update_scope(var):
                    updates.append(processor.update_op(self, grad, state))
            update_ops = group(*updates)
            with control_dependencies([update_ops]):
                finish = self._finish(state)
            if global_step is None:
                apply_updates = group(update_ops if finish is None else finish, name=name)
            else:
                with control_dependencies([update_ops if finish is None else finish]):
                    apply_updates = _increment(global_step, name)
        if _context.executing_eagerly():
            return None        # (the updates already ran)
        return registered_train_op(apply_updates)

    def get_slot_names(self) -> List[str]:
        """The names of the slots created in the current graph, sorted."""
        current = _current_graph()
        return sorted(name for name, slots in self._slots.items()
                      if any(_graph_of(s) is current for s in slots.values()))

    # -- the hooks, with the step's state ----------------------------------------------------
    def _create_slots(self, var_list: List[Any]) -> None:
        raise RuntimeError("OptimizerV2 creates its variables in _create_vars(var_list, "
                           "state)")

    def _create_vars(self, var_list: List[Any], state: _OptimizerV2State) -> None:
        """Creates the slots and non-slot variables of `var_list` (none by default)."""
        super()._create_slots(var_list)

    def _prepare(self, state: _OptimizerV2State) -> None:
        for hyper, attribute in self._V1_TENSORS.items():
            setattr(self, attribute, state.get_hyper(hyper))

    def _apply_dense(self, grad: Tensor, var: Any, state: Any = None) -> Any:
        return super()._apply_dense(grad, var)

    def _resource_apply_dense(self, grad: Tensor, handle: Any, state: Any = None) -> Any:
        return super()._resource_apply_dense(grad, handle)

    def _apply_sparse(self, grad: IndexedSlices, var: Any, state: Any = None) -> Any:
        return super()._apply_sparse(grad, var)

    def _resource_apply_sparse(self, grad: Tensor, handle: Any, indices: Tensor,
                               state: Any = None) -> Any:
        return super()._resource_apply_sparse(grad, handle, indices)

    def _apply_sparse_duplicate_indices(self, grad: IndexedSlices, var: Any,
                                        state: Any = None) -> Any:
        values, indices = deduplicate_indexed_slices(grad.values, grad.indices)
        return self._apply_sparse(IndexedSlices(values, indices, grad.dense_shape), var,
                                  state)

    def _resource_apply_sparse_duplicate_indices(self, grad: Tensor, handle: Any,
                                                 indices: Tensor, state: Any = None) -> Any:
        values, unique_indices = deduplicate_indexed_slices(grad, indices)
        return self._resource_apply_sparse(values, handle, unique_indices, state)

    def _finish(self, state: Any) -> Any:
        """The op run after all the updates, or None."""
        return None


class GradientDescentOptimizer(OptimizerV2, gradient_descent.GradientDescentOptimizer):
    """Gradient descent: var -= learning_rate * grad."""

    _V1_TENSORS = {"learning_rate": "_learning_rate_tensor"}

    def __init__(self, learning_rate: Any, use_locking: bool = False,
                 name: str = "GradientDescent"):
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)

    # Sparse gradients scatter-subtract lr * values, duplicates and all (as tf.train's).
    def _apply_sparse_duplicate_indices(self, grad: IndexedSlices, var: Any,
                                        state: Any = None) -> Any:
        return gradient_descent.GradientDescentOptimizer._apply_sparse_duplicate_indices(
            self, grad, var)

    def _resource_apply_sparse_duplicate_indices(self, grad: Tensor, handle: Any,
                                                 indices: Tensor, state: Any = None) -> Any:
        return gradient_descent.GradientDescentOptimizer.\
            _resource_apply_sparse_duplicate_indices(self, grad, handle, indices)


class MomentumOptimizer(OptimizerV2, momentum.MomentumOptimizer):
    """Momentum (optionally Nesterov), one "momentum" slot per variable."""

    _V1_TENSORS = {"learning_rate": "_learning_rate_tensor", "momentum": "_momentum_tensor"}

    def __init__(self, learning_rate: Any, momentum: Any, use_locking: bool = False,
                 name: str = "Momentum", use_nesterov: bool = False):
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("momentum", momentum)
        self._use_nesterov = use_nesterov


class AdagradOptimizer(OptimizerV2, adagrad.AdagradOptimizer):
    """Adagrad, one "accumulator" slot per variable starting at
    `initial_accumulator_value`."""

    _V1_TENSORS = {"learning_rate": "_learning_rate_tensor"}

    def __init__(self, learning_rate: Any, initial_accumulator_value: float = 0.1,
                 use_locking: bool = False, name: str = "Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: "
                             f"{initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._initial_accumulator_value = initial_accumulator_value


class AdadeltaOptimizer(OptimizerV2, adadelta.AdadeltaOptimizer):
    """Adadelta, slots "accum" and "accum_update"."""

    _V1_TENSORS = {"learning_rate": "_lr_t", "rho": "_rho_t", "epsilon": "_epsilon_t"}

    def __init__(self, learning_rate: Any = 0.001, rho: Any = 0.95, epsilon: Any = 1e-8,
                 use_locking: bool = False, name: str = "Adadelta"):
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("rho", rho)
        self._set_hyper("epsilon", epsilon)


class RMSPropOptimizer(OptimizerV2, rmsprop.RMSPropOptimizer):
    """RMSProp (optionally centered); the "rms" slot starts at epsilon, which the update
    then leaves out (TF 1.15's contrib form of the epsilon)."""

    _V1_TENSORS = {"learning_rate": "_learning_rate_tensor", "decay": "_decay_tensor",
                   "momentum": "_momentum_tensor"}

    def __init__(self, learning_rate: Any, decay: Any = 0.9, momentum: Any = 0.0,
                 epsilon: Any = 1e-10, use_locking: bool = False, centered: bool = False,
                 name: str = "RMSProp"):
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("decay", decay)
        self._set_hyper("momentum", momentum)
        self._set_hyper("epsilon", epsilon)
        self._centered = centered
        self._epsilon_tensor = 0.0      # the kernel's epsilon: it is in the rms slot

    def _create_vars(self, var_list: List[Any], state: _OptimizerV2State) -> None:
        from tf1compat.ops.creation_ops import ones_like
        for v in var_list:
            dtype = v.dtype.base_dtype
            init_rms = state.get_hyper("epsilon", dtype) * ones_like(v)
            state.create_slot_with_initializer(v, init_rms, v.get_shape(), dtype, "rms")
            if self._centered:
                state.zeros_slot(v, "mg")
            state.zeros_slot(v, "momentum")


class AdamOptimizer(OptimizerV2, adam.AdamOptimizer):
    """Adam; non-slot variables `beta1_power` and `beta2_power`, slots "m" and "v"."""

    _V1_TENSORS = {"learning_rate": "_lr_t", "beta1": "_beta1_t", "beta2": "_beta2_t",
                   "epsilon": "_epsilon_t"}

    def __init__(self, learning_rate: Any = 0.001, beta1: Any = 0.9, beta2: Any = 0.999,
                 epsilon: Any = 1e-8, use_locking: bool = False, name: str = "Adam"):
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("beta1", beta1)
        self._set_hyper("beta2", beta2)
        self._set_hyper("epsilon", epsilon)

    def _create_vars(self, var_list: List[Any], state: _OptimizerV2State) -> None:
        state.create_non_slot(initial_value=lambda: state.get_hyper("beta1"),
                              name="beta1_power")
        state.create_non_slot(initial_value=lambda: state.get_hyper("beta2"),
                              name="beta2_power")
        for v in var_list:
            state.zeros_slot(v, "m")
            state.zeros_slot(v, "v")

    def _finish(self, state: Any) -> Any:
        # tf.train's _finish with no updates of its own: the beta-power products.
        return adam.AdamOptimizer._finish(self, [], "update_beta_powers")
