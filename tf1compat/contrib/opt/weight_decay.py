"""`tf.contrib.opt`'s decoupled weight decay (Loshchilov & Hutter): `AdamWOptimizer`,
`MomentumWOptimizer` and `extend_with_decoupled_weight_decay(OptimizerClass)`.

Before each variable's own update the variable is decayed in place,
`var -= weight_decay * var` (sparse gradients decay only the rows they touch), and the
base optimizer's update runs under a control dependency on that decay, as TF 1.15 does.
Note that the decay is not multiplied by the learning rate.
"""

from __future__ import annotations

from typing import Any, Optional, Type

from tf1compat.framework.graph import control_dependencies
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.training.optimizers.adam import AdamOptimizer
from tf1compat.training.optimizers.momentum import MomentumOptimizer
from tf1compat.training.optimizers.optimizer import Optimizer

__all__ = ["DecoupledWeightDecayExtension", "extend_with_decoupled_weight_decay",
           "AdamWOptimizer", "MomentumWOptimizer"]


class DecoupledWeightDecayExtension:
    """Mixin placed first among an optimizer's bases: decays the variables it updates by
    `weight_decay` before the base optimizer's step. `minimize` / `apply_gradients` take
    `decay_var_list`, the variables to decay (all updated variables when None)."""

    def __init__(self, weight_decay: Any, **kwargs: Any):
        self._decay_var_list: Any = None
        self._weight_decay = weight_decay
        self._weight_decay_tensor = None
        super().__init__(**kwargs)

    def minimize(self, loss: Any, global_step: Any = None, var_list: Any = None,
                 gate_gradients: int = Optimizer.GATE_OP, aggregation_method: Any = None,
                 colocate_gradients_with_ops: bool = False, name: Optional[str] = None,
                 grad_loss: Any = None, decay_var_list: Any = None) -> Any:
        """`Optimizer.minimize`. As in TF 1.15, `decay_var_list` has no effect here: the
        base `minimize` calls `apply_gradients` without it, which resets the list, so
        every variable decays (pass it to `apply_gradients` instead)."""
        self._decay_var_list = set(decay_var_list) if decay_var_list else False
        return super().minimize(loss, global_step=global_step, var_list=var_list,
                                gate_gradients=gate_gradients,
                                aggregation_method=aggregation_method,
                                colocate_gradients_with_ops=colocate_gradients_with_ops,
                                name=name, grad_loss=grad_loss)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None, decay_var_list: Any = None) -> Any:
        """`Optimizer.apply_gradients`, decaying `decay_var_list` (default: every
        variable)."""
        self._decay_var_list = set(decay_var_list) if decay_var_list else False
        return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def _prepare(self) -> None:
        self._weight_decay_tensor = convert_to_tensor(
            self._call_if_callable(self._weight_decay), name="weight_decay")
        super()._prepare()

    def _decays(self, var: Any) -> bool:
        return not self._decay_var_list or var in self._decay_var_list

    def _decay_weights_op(self, var: Any) -> Any:
        from tf1compat.ops.control_flow_ops import no_op
        if self._decays(var):
            return var.assign_sub(self._weight_decay * var, self._use_locking)
        return no_op()

    def _decay_weights_sparse_op(self, var: Any, indices: Any, scatter_add: Any) -> Any:
        from tf1compat.ops.control_flow_ops import no_op
        from tf1compat.ops.indexing_ops import gather
        if self._decays(var):
            update = -self._weight_decay * gather(var, indices)
            return scatter_add(var, indices, update, self._use_locking)
        return no_op()

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        with control_dependencies([self._decay_weights_op(var)]):
            return super()._apply_dense(grad, var)

    def _resource_apply_dense(self, grad: Any, var: Any) -> Any:
        with control_dependencies([self._decay_weights_op(var)]):
            return super()._resource_apply_dense(grad, var)

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        from tf1compat.ops.state_ops import scatter_add
        decay_op = self._decay_weights_sparse_op(var, grad.indices, scatter_add)
        with control_dependencies([decay_op]):
            return super()._apply_sparse(grad, var)

    def _resource_scatter_add(self, x: Any, i: Any, v: Any, _: Any = None) -> Any:
        from tf1compat.ops.resource_variable_ops import resource_op
        with control_dependencies([resource_op("ResourceScatterAdd", x.handle, i, v)]):
            return x.value()

    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any) -> Any:
        decay_op = self._decay_weights_sparse_op(var, indices, self._resource_scatter_add)
        with control_dependencies([decay_op]):
            return super()._resource_apply_sparse(grad, var, indices)


def extend_with_decoupled_weight_decay(base_optimizer: Type[Optimizer]) -> type:
    """A subclass of `base_optimizer` whose constructor takes `weight_decay` first and
    that decays the variables it updates (see DecoupledWeightDecayExtension)."""

    class OptimizerWithDecoupledWeightDecay(DecoupledWeightDecayExtension, base_optimizer):
        """`base_optimizer` with decoupled weight decay."""

        def __init__(self, weight_decay: Any, *args: Any, **kwargs: Any):
            # The mixin takes keyword arguments only: name the base's positionals.
            names = base_optimizer.__init__.__code__.co_varnames[1:len(args) + 1]
            kwargs.update(zip(names, args))
            super().__init__(weight_decay, **kwargs)

    return OptimizerWithDecoupledWeightDecay


class MomentumWOptimizer(DecoupledWeightDecayExtension, MomentumOptimizer):
    """SGDW: `tf.train.MomentumOptimizer` with decoupled weight decay."""

    def __init__(self, weight_decay: Any, learning_rate: Any, momentum: Any,
                 use_locking: bool = False, name: str = "MomentumW",
                 use_nesterov: bool = False):
        super().__init__(weight_decay, learning_rate=learning_rate, momentum=momentum,
                         use_locking=use_locking, name=name, use_nesterov=use_nesterov)


class AdamWOptimizer(DecoupledWeightDecayExtension, AdamOptimizer):
    """AdamW: `tf.train.AdamOptimizer` with decoupled weight decay."""

    def __init__(self, weight_decay: Any, learning_rate: Any = 0.001, beta1: Any = 0.9,
                 beta2: Any = 0.999, epsilon: Any = 1e-8, use_locking: bool = False,
                 name: str = "AdamW"):
        super().__init__(weight_decay, learning_rate=learning_rate, beta1=beta1,
                         beta2=beta2, epsilon=epsilon, use_locking=use_locking, name=name)
