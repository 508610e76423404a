"""`tf.contrib.mixed_precision` (TF 1.15): loss scaling for float16 training, as NVIDIA's
TF1 mixed-precision recipes use it.

`LossScaleOptimizer(opt, loss_scale_manager)` multiplies the loss by the manager's loss
scale before `compute_gradients` and multiplies the gradients by its reciprocal after;
`apply_gradients` applies them (and increments `global_step`) only when every gradient
is finite, inside a `tf.cond`, and lets the manager update the scale.
`FixedLossScaleManager` keeps one scale; `ExponentialUpdateLossScaleManager` keeps it in
variables `loss_scale`, `good_steps` and `bad_steps` (created with TF's names in the
current variable scope) and multiplies it by `incr_ratio` after `incr_every_n_steps`
consecutive finite steps, by `decr_ratio` (never below 1) after
`decr_every_n_nan_or_inf` steps with Inf or NaN gradients; both counters restart
when the scale changes, and a step with Inf or NaN gradients restarts the count of
finite ones. The graph is TF 1.15's op for op, so variable names and
values are TF's. (TF's core successor is
`tf.train.experimental.MixedPrecisionLossScaleOptimizer`.)
"""

from __future__ import annotations

import abc
from typing import Any, List, Optional, Tuple

from tf1compat.framework import dtypes
from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.cond import cond
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.ops.math_ops import cast, is_finite, maximum, reciprocal
from tf1compat.ops.reduction_ops import reduce_all
from tf1compat.ops.state_ops import assign, assign_add
from tf1compat.training.optimizers.optimizer import Optimizer
from tf1compat.variables.variables import Variable

__all__ = ["LossScaleManager", "FixedLossScaleManager", "ExponentialUpdateLossScaleManager",
           "LossScaleOptimizer"]


class LossScaleManager(abc.ABC):
    """Decides the loss scale of a `LossScaleOptimizer`: `get_loss_scale()` is a float32
    scalar tensor, `update_loss_scale(finite_grads)` the op that adapts it after a step."""

    @abc.abstractmethod
    def get_loss_scale(self) -> Any:
        """The loss scale, a scalar float32 tensor."""

    @abc.abstractmethod
    def update_loss_scale(self, finite_grads: Any) -> Any:
        """The op that updates the loss scale given whether the step's gradients were all
        finite (a scalar bool tensor)."""


class FixedLossScaleManager(LossScaleManager):
    """A loss scale that never changes."""

    def __init__(self, loss_scale: float):
        if loss_scale < 1:
            raise ValueError("loss scale must be at least 1.")
        self._loss_scale = convert_to_tensor(loss_scale, dtype=dtypes.float32)

    def get_loss_scale(self) -> Any:
        return self._loss_scale

    def update_loss_scale(self, finite_grads: Any) -> Any:
        del finite_grads
        return no_op()


class ExponentialUpdateLossScaleManager(LossScaleManager):
    """A loss scale raised by `incr_ratio` after `incr_every_n_steps` consecutive steps
    with finite gradients and lowered by `decr_ratio` (not below 1) after
    `decr_every_n_nan_or_inf` steps, not necessarily consecutive, with Inf or NaN ones."""

    def __init__(self, init_loss_scale: float, incr_every_n_steps: int,
                 decr_every_n_nan_or_inf: int = 2, incr_ratio: float = 2,
                 decr_ratio: float = 0.8):
        self._incr_every_n_steps = incr_every_n_steps
        self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
        self._incr_ratio = incr_ratio
        self._decr_ratio = decr_ratio
        self._loss_scale = Variable(
            name="loss_scale",
            initial_value=convert_to_tensor(init_loss_scale, dtypes.float32),
            dtype=dtypes.float32, trainable=False)
        self._num_good_steps = Variable(name="good_steps", initial_value=0,
                                        dtype=dtypes.int32, trainable=False)
        self._num_bad_steps = Variable(name="bad_steps", initial_value=0,
                                       dtype=dtypes.int32, trainable=False)

    def _reset_stats(self) -> Any:
        return group(assign(self._num_good_steps, 0), assign(self._num_bad_steps, 0))

    def get_loss_scale(self) -> Any:
        return self._loss_scale

    def update_loss_scale(self, finite_grads: Any) -> Any:
        scale = self._loss_scale

        def raise_scale() -> Any:
            raised = cond(is_finite(scale * self._incr_ratio),
                          lambda: scale * self._incr_ratio, lambda: scale)
            return group(assign(scale, raised), self._reset_stats())

        def after_finite_step() -> Any:
            return cond(self._num_good_steps + 1 >= self._incr_every_n_steps, raise_scale,
                        lambda: assign_add(self._num_good_steps, 1).op)

        def lower_scale() -> Any:
            return group(assign(scale, maximum(1., scale * self._decr_ratio)),
                         self._reset_stats())

        def count_bad_step() -> Any:
            # A step with Inf or NaN gradients also restarts the count of finite ones.
            return group(assign_add(self._num_bad_steps, 1), assign(self._num_good_steps, 0))

        def after_bad_step() -> Any:
            return cond(self._num_bad_steps + 1 >= self._decr_every_n_nan_or_inf,
                        lower_scale, count_bad_step)

        return cond(finite_grads, after_finite_step, after_bad_step)


class LossScaleOptimizer(Optimizer):
    """Wraps `opt` (a `tf.train.Optimizer`) with the loss scale `loss_scale_manager`
    decides. Compute gradients through this optimizer (`minimize` or
    `compute_gradients`), not `tf.gradients`, so that the scale is applied."""

    def __init__(self, opt: Optimizer, loss_scale_manager: LossScaleManager):
        # TF's class does not run Optimizer.__init__ either: everything it does is
        # delegated to `opt`.
        self._opt = opt
        self._loss_scale_manager = loss_scale_manager

    def get_name(self) -> str:
        return self._opt.get_name()

    def compute_gradients(self, loss: Any, var_list: Any = None,
                          gate_gradients: int = Optimizer.GATE_OP,
                          aggregation_method: Any = None,
                          colocate_gradients_with_ops: bool = False,
                          grad_loss: Any = None) -> List[Tuple[Any, Any]]:
        """`opt`'s gradients of the loss times the loss scale, times its reciprocal."""
        loss_scale = self._loss_scale_manager.get_loss_scale()
        if executing_eagerly():
            def scaled_loss() -> Any:
                value = loss()
                return value * cast(loss_scale, value.dtype.base_dtype)
        else:
            value = loss() if callable(loss) else loss
            scaled_loss = value * cast(loss_scale, value.dtype.base_dtype)
        grads_and_vars = self._opt.compute_gradients(
            scaled_loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        return self._down_scale(grads_and_vars, loss_scale)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        """`opt.apply_gradients` where every gradient is finite, and the manager's update.

        TF checks every gradient, so a None gradient fails there; here None gradients
        (variables the loss does not reach) are left out of the check."""
        grads_and_vars = list(grads_and_vars)
        all_finite = reduce_all([reduce_all(is_finite(g)) for g, _ in grads_and_vars
                                 if g is not None])
        update_vars = cond(all_finite,
                           lambda: self._opt.apply_gradients(grads_and_vars, global_step,
                                                             name),
                           no_op)
        return group(update_vars, self._loss_scale_manager.update_loss_scale(all_finite))

    @staticmethod
    def _down_scale(grads_and_vars: Any, loss_scale: Any) -> List[Tuple[Any, Any]]:
        inverse = reciprocal(loss_scale)
        return [(g * cast(inverse, g.dtype.base_dtype) if g is not None else g, v)
                for g, v in grads_and_vars]
