"""`tf.train.experimental.MixedPrecisionLossScaleOptimizer` (also
`tf.mixed_precision.MixedPrecisionLossScaleOptimizer`): wraps a `tf.train.Optimizer` and
applies loss scaling to it.

`compute_gradients` multiplies the loss by the loss scale and divides the gradients by it;
with a `DynamicLossScale`, `apply_gradients` updates the scale and applies the gradients
(and increments `global_step`) only when they are all finite, inside a `tf.cond` as TF
builds it — so optimizer variables created by the wrapped optimizer get TF's names (Adam's
`cond_1/beta1_power`). The training op is a group named after the optimizer.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.ops.cond import smart_cond
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.ops.math_ops import cast
from tf1compat.training.experimental import loss_scale as loss_scale_module
from tf1compat.training.optimizers.optimizer import Optimizer

__all__ = ["MixedPrecisionLossScaleOptimizer"]


class MixedPrecisionLossScaleOptimizer(Optimizer):
    """An optimizer that scales the loss by `loss_scale` (a LossScale, a number for a
    fixed scale, or "dynamic") around the wrapped optimizer `opt`."""

    def __init__(self, opt: Optimizer, loss_scale: Any):
        if not isinstance(opt, Optimizer):
            raise ValueError(f'"opt" must be an instance of Optimizer, but got: {type(opt)}')
        self._optimizer = opt
        super().__init__(opt._use_locking, opt.get_name())
        self._loss_scale = loss_scale_module.get(loss_scale)
        if self._loss_scale is None:
            raise ValueError("loss_scale cannot be None")
        self._track_trackable(self._optimizer, "base_optimizer")
        self._track_trackable(self._loss_scale, "loss_scale")

    def _doing_dynamic_loss_scaling(self) -> bool:
        return isinstance(self._loss_scale, loss_scale_module.DynamicLossScale)

    def compute_gradients(self, loss: Any, var_list: Any = None,
                          gate_gradients: int = Optimizer.GATE_OP,
                          aggregation_method: Any = None,
                          colocate_gradients_with_ops: bool = False,
                          grad_loss: Any = None) -> List[Tuple[Any, Any]]:
        """The wrapped optimizer's gradients of the scaled loss, unscaled."""
        grads_and_vars = self._optimizer.compute_gradients(
            loss=self._scale_loss(loss), var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        grads = self._unscale_grads([g for g, _ in grads_and_vars])
        return list(zip(grads, [v for _, v in grads_and_vars]))

    def _scale_loss(self, loss: Any) -> Any:
        loss_scale = self._loss_scale()
        if callable(loss):
            def scaled_loss() -> Any:
                value = loss()
                return value * cast(loss_scale, value.dtype)
            return scaled_loss
        return loss * cast(loss_scale, loss.dtype)

    def _unscale_grads(self, grads: List[Any]) -> List[Any]:
        reciprocal = 1 / self._loss_scale()
        return [None if g is None else self._scale_grad(g, reciprocal) for g in grads]

    @staticmethod
    def _scale_grad(grad: Any, reciprocal: Any) -> Any:
        if isinstance(grad, IndexedSlices):
            return IndexedSlices(grad.values * reciprocal, grad.indices, grad.dense_shape)
        return grad * reciprocal

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        """Applies the gradients when they are finite (dynamic scale) and updates the
        scale; with a fixed scale, the wrapped optimizer's apply_gradients."""
        if not self._doing_dynamic_loss_scaling():
            return self._optimizer.apply_gradients(grads_and_vars, global_step, name)
        grads_and_vars = tuple(grads_and_vars)
        name = name if name is not None else self.get_name()
        update_scale, should_apply = self._loss_scale.update([g for g, _ in grads_and_vars])

        def apply() -> Any:
            return self._optimizer.apply_gradients(grads_and_vars, global_step,
                                                   name + "-wrapped")

        maybe_apply = smart_cond(should_apply, apply, no_op)
        return group(maybe_apply, update_scale, name=name)

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        raise RuntimeError("This function should never be called")

    def _resource_apply_dense(self, grad: Any, handle: Any) -> Any:
        raise RuntimeError("This function should never be called")

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        raise RuntimeError("This function should never be called")

    def _resource_apply_sparse(self, grad: Any, handle: Any, indices: Any) -> Any:
        raise RuntimeError("This function should never be called")

    def variables(self) -> List[Any]:
        """The wrapped optimizer's variables, then the loss scale's."""
        return self._optimizer.variables() + list(self._loss_scale._weights.values())
