"""`tf.contrib.opt`'s Adam family: `LazyAdamOptimizer`, `NadamOptimizer`, `AdaMaxOptimizer`.

- LazyAdam: dense gradients as Adam; a sparse gradient updates only the m / v rows it
  touches (m[i] = beta1 m[i] + (1 - beta1) g, v[i] likewise, var[i] -= alpha m[i] /
  (sqrt(v[i]) + epsilon)).
- Nadam: Adam with `use_nesterov=True` (ApplyAdam's Nesterov form); sparse gradients
  compose the same update from scatter ops.
- AdamGS / LazyAdamGS: Adam / LazyAdam whose bias corrections come from a global step
  (beta ** (global_step + 1)) instead of beta-power variables.
- AdaMax: the ApplyAdaMax op (m = beta1 m + (1 - beta1) g, v = max(beta2 v, |g|),
  var -= lr / (1 - beta1_power) * m / (v + epsilon)); it keeps one non-slot accumulator,
  `beta1_power`; sparse gradients update only the rows they touch.
"""

from __future__ import annotations

from typing import Any, Callable

from tf1compat.framework.graph import colocate_with, control_dependencies
from tf1compat.ops.training_ops import training_op
from tf1compat.training.optimizers.adam import AdamOptimizer
from tf1compat.training.optimizers.optimizer import _current_graph, cast_like
from tf1compat.variables.variables import init_scope

__all__ = ["LazyAdamOptimizer", "NadamOptimizer", "AdaMaxOptimizer", "AdamGSOptimizer",
           "LazyAdamGSOptimizer"]


class LazyAdamOptimizer(AdamOptimizer):
    """Adam whose sparse updates touch only the gradient's rows of m, v and the variable."""

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.ops.indexing_ops import gather
        from tf1compat.ops.math_ops import sqrt, square
        from tf1compat.ops.state_ops import scatter_sub, scatter_update
        beta1_power, beta2_power, lr_t, beta1_t, beta2_t, epsilon_t = self._hyper(
            var.dtype.base_dtype)
        lr = lr_t * sqrt(1 - beta2_power) / (1 - beta1_power)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_t = scatter_update(m, grad.indices,
                             beta1_t * gather(m, grad.indices) + (1 - beta1_t) * grad.values,
                             use_locking=self._use_locking)
        v_t = scatter_update(v, grad.indices,
                             beta2_t * gather(v, grad.indices) +
                             (1 - beta2_t) * square(grad.values),
                             use_locking=self._use_locking)
        denominator = sqrt(gather(v_t, grad.indices)) + epsilon_t
        var_update = scatter_sub(var, grad.indices,
                                 lr * gather(m_t, grad.indices) / denominator,
                                 use_locking=self._use_locking)
        return group(var_update, m_t, v_t)


class NadamOptimizer(AdamOptimizer):
    """Nadam (Dozat 2015): Adam with Nesterov momentum. TF 1.15 names it "Adam" by
    default, so its slots are `<var>/Adam` and `<var>/Adam_1` as Adam's."""

    def __init__(self, learning_rate: Any = 0.001, beta1: Any = 0.9, beta2: Any = 0.999,
                 epsilon: Any = 1e-8, use_locking: bool = False, name: str = "Adam"):
        super().__init__(learning_rate=learning_rate, beta1=beta1, beta2=beta2,
                         epsilon=epsilon, use_locking=use_locking, name=name)

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        return training_op("ApplyAdam", [var, m, v] + self._hyper(var.dtype) + [grad],
                           self._use_locking, use_nesterov=True).op

    def _resource_apply_dense(self, grad: Any, var: Any) -> Any:
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        return training_op("ResourceApplyAdam",
                           [var.handle, m.handle, v.handle] + self._hyper(grad.dtype) +
                           [grad], self._use_locking, use_nesterov=True)

    def _apply_sparse_shared(self, grad: Any, var: Any, indices: Any,
                             scatter_add: Callable[[Any, Any, Any], Any]) -> Any:
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.ops.indexing_ops import gather
        from tf1compat.ops.math_ops import sqrt
        from tf1compat.ops.state_ops import assign
        beta1_power, beta2_power, lr_t, beta1_t, beta2_t, epsilon_t = self._hyper(
            var.dtype.base_dtype)
        lr = lr_t * sqrt(1 - beta2_power) / (1 - beta1_power)
        m = self.get_slot(var, "m")
        m_scaled_g_values = grad * (1 - beta1_t)
        m_t = assign(m, m * beta1_t, use_locking=self._use_locking)
        with control_dependencies([m_t]):
            m_t = scatter_add(m, indices, m_scaled_g_values)
            # The Nesterov look-ahead: (1 - beta1) g + beta1 m_t on the touched rows.
            m_bar = m_scaled_g_values + beta1_t * gather(m_t, indices)
        v = self.get_slot(var, "v")
        v_scaled_g_values = (grad * grad) * (1 - beta2_t)
        v_t = assign(v, v * beta2_t, use_locking=self._use_locking)
        with control_dependencies([v_t]):
            v_t = scatter_add(v, indices, v_scaled_g_values)
        v_sqrt = sqrt(gather(v_t, indices))
        var_update = scatter_add(var, indices, -lr * m_bar / (v_sqrt + epsilon_t))
        return group(*[var_update, m_bar, v_t])


class AdaMaxOptimizer(AdamOptimizer):
    """AdaMax (Kingma & Ba, section 7.1), TF1's defaults: lr 0.001, betas 0.9/0.999,
    epsilon 1e-8, name "AdaMax"."""

    def __init__(self, learning_rate: Any = 0.001, beta1: Any = 0.9, beta2: Any = 0.999,
                 epsilon: Any = 1e-8, use_locking: bool = False, name: str = "AdaMax"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)

    def _get_beta_accumulators(self) -> Any:
        with init_scope():
            return self._get_non_slot_variable("beta1_power", graph=_current_graph())

    def _create_slots(self, var_list: Any) -> None:
        first_var = min(var_list, key=lambda x: x.name)
        self._create_non_slot_variable(initial_value=self._beta1, name="beta1_power",
                                       colocate_with=first_var)
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
            self._zeros_slot(v, "v", self._name)

    def _hyper(self, dtype: Any) -> list:
        return [cast_like(t, dtype) for t in (self._get_beta_accumulators(), self._lr_t,
                                              self._beta1_t, self._beta2_t, self._epsilon_t)]

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        return training_op("ApplyAdaMax", [var, m, v] + self._hyper(var.dtype) + [grad],
                           self._use_locking).op

    def _resource_apply_dense(self, grad: Any, var: Any) -> Any:
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        return training_op("ResourceApplyAdaMax",
                           [var.handle, m.handle, v.handle] + self._hyper(grad.dtype) +
                           [grad], self._use_locking)

    def _apply_sparse_shared(self, grad: Any, var: Any, indices: Any,
                             scatter_add: Callable[[Any, Any, Any], Any],
                             scatter_update: Callable[[Any, Any, Any], Any]) -> Any:
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.ops.indexing_ops import gather
        from tf1compat.ops.math_ops import abs as abs_, maximum
        beta1_power, lr_t, beta1_t, beta2_t, epsilon_t = self._hyper(var.dtype.base_dtype)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_t_slice = gather(m, indices) * beta1_t + grad * (1 - beta1_t)
        with control_dependencies([m_t_slice]):
            m_t = scatter_update(m, indices, m_t_slice)
        v_t_slice = maximum(gather(v, indices) * beta2_t, abs_(grad))
        with control_dependencies([v_t_slice]):
            v_t = scatter_update(v, indices, v_t_slice)
        var_slice = -lr_t / (1 - beta1_power) * (m_t_slice / (v_t_slice + epsilon_t))
        with control_dependencies([var_slice]):
            var_update = scatter_add(var, indices, var_slice)
        return group(*[var_update, m_t, v_t])

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        from tf1compat.ops.state_ops import scatter_add, scatter_update
        return self._apply_sparse_shared(
            grad.values, var, grad.indices,
            lambda x, i, v: scatter_add(x, i, v, use_locking=self._use_locking),
            lambda x, i, v: scatter_update(x, i, v, use_locking=self._use_locking))

    def _resource_scatter_update(self, x: Any, i: Any, v: Any) -> Any:
        from tf1compat.ops.resource_variable_ops import resource_op
        with control_dependencies([resource_op("ResourceScatterUpdate", x.handle, i, v)]):
            return x.value()

    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any) -> Any:
        return self._apply_sparse_shared(grad, var, indices, self._resource_scatter_add,
                                         self._resource_scatter_update)

    def _finish(self, update_ops: Any, name_scope: str) -> Any:
        from tf1compat.ops.control_flow_ops import group
        with control_dependencies(update_ops):
            beta1_power = self._get_beta_accumulators()
            with colocate_with(beta1_power):
                update_beta1 = beta1_power.assign(beta1_power * self._beta1_t,
                                                  use_locking=self._use_locking)
        return group(*update_ops + [update_beta1], name=name_scope)


class _GlobalStepPowers:
    """Mixin (first base): beta1_power / beta2_power are beta ** (global_step + 1),
    computed from a copy of the step in each update; no non-slot variables."""

    def __init__(self, global_step: Any = 0, learning_rate: Any = 0.001, beta1: Any = 0.9,
                 beta2: Any = 0.999, epsilon: Any = 1e-8, use_locking: bool = False,
                 name: str = "Adam"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)
        self._global_step = global_step
        self._global_step_on_worker = None

    def _get_beta_accumulators(self) -> Any:
        from tf1compat.ops.math_ops import pow as pow_
        return (pow_(self._beta1_t, self._global_step_on_worker),
                pow_(self._beta2_t, self._global_step_on_worker))

    def _create_slots(self, var_list: Any) -> None:
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
            self._zeros_slot(v, "v", self._name)

    def _prepare(self) -> None:
        from tf1compat.framework import dtypes
        from tf1compat.ops.array_ops import identity
        from tf1compat.ops.math_ops import cast
        super()._prepare()
        self._global_step_on_worker = cast(identity(self._global_step) + 1, dtypes.float32)

    def _finish(self, update_ops: Any, name_scope: str) -> Any:
        from tf1compat.ops.control_flow_ops import group
        return group(*update_ops, name=name_scope)


class AdamGSOptimizer(_GlobalStepPowers, AdamOptimizer):
    """Adam with bias corrections from `global_step` (TF 1.15's AdamGSOptimizer)."""


class LazyAdamGSOptimizer(_GlobalStepPowers, LazyAdamOptimizer):
    """LazyAdam with bias corrections from `global_step`."""
