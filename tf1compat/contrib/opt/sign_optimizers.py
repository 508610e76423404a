"""`tf.contrib.opt.AddSignOptimizer` / `PowerSignOptimizer` (Bello et al., ICML 2017) and
the sign-decay schedules of `tf.contrib.opt` (`get_linear_decay_fn`,
`get_cosine_decay_fn`, `get_restart_decay_fn`).

Both keep one slot "m" (m = beta m + (1 - beta) g) and scale the gradient by how far
sign(g) agrees with sign(m):

    AddSign:   var -= lr * (alpha + sign_decay * sign(g) sign(m)) * g
    PowerSign: var -= lr * exp(logbase * sign_decay * sign(g) sign(m)) * g

Dense gradients run TF's ApplyAddSign / ApplyPowerSign ops (and their resource forms).
A sparse gradient updates m over the whole variable (the gradient densified, as TF 1.15
does) and the variable only on the gradient's rows.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Optional

from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.training_ops import training_op
from tf1compat.training.optimizers.optimizer import Optimizer, cast_like

__all__ = ["AddSignOptimizer", "PowerSignOptimizer", "get_linear_decay_fn",
           "get_cosine_decay_fn", "get_restart_decay_fn"]


class _SignOptimizer(Optimizer):
    """What AddSign and PowerSign share: the "m" slot, the sign_decay schedule (called
    with `global_step` in apply_gradients) and the sparse update."""

    _OP = ""                     # the training op family ("AddSign" / "PowerSign")

    def __init__(self, learning_rate: Any, scale: Any, beta: Any,
                 sign_decay_fn: Optional[Callable[[Any], Any]], use_locking: bool,
                 name: str):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._scale = scale      # alpha (AddSign) or log(base) (PowerSign)
        self._beta = beta
        self._sign_decay_fn = sign_decay_fn
        self._lr_t = self._scale_t = self._beta_t = self._sign_decay_t = None

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        """`Optimizer.apply_gradients`; the sign decay is `sign_decay_fn(global_step)`."""
        if self._sign_decay_fn is not None:
            self._sign_decay_t = convert_to_tensor(self._sign_decay_fn(global_step),
                                                   name="sign_decay")
        return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def _create_slots(self, var_list: Any) -> None:
        for v in var_list:
            self._zeros_slot(v, "m", self._name)

    def _scale_name(self) -> str:
        raise NotImplementedError

    def _prepare(self) -> None:
        self._lr_t = convert_to_tensor(self._lr, name="learning_rate")
        self._beta_t = convert_to_tensor(self._beta, name="beta")
        self._scale_t = convert_to_tensor(self._scale, name=self._scale_name())
        if self._sign_decay_fn is None:
            self._sign_decay_t = convert_to_tensor(1.0, name="sign_decay")

    def _hyper(self, dtype: Any) -> list:
        return [cast_like(t, dtype) for t in (self._lr_t, self._scale_t, self._sign_decay_t,
                                              self._beta_t)]

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        m = self.get_slot(var, "m")
        return training_op("Apply" + self._OP, [var, m] + self._hyper(var.dtype) + [grad],
                           self._use_locking).op

    def _resource_apply_dense(self, grad: Any, var: Any) -> Any:
        m = self.get_slot(var, "m")
        return training_op("ResourceApply" + self._OP,
                           [var.handle, m.handle] + self._hyper(var.dtype) + [grad],
                           self._use_locking)

    def _multiplier(self, scale: Any, sign_decay: Any, sign_gm: Any) -> Any:
        raise NotImplementedError

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.ops.indexing_ops import gather
        from tf1compat.ops.math_ops import sign
        from tf1compat.ops.state_ops import assign, scatter_sub
        lr_t, scale_t, sign_decay, beta_t = self._hyper(var.dtype.base_dtype)
        m = self.get_slot(var, "m")
        m_t = assign(m, m * beta_t + convert_to_tensor(grad) * (1 - beta_t),
                     use_locking=self._use_locking)
        sign_gm = gather(sign(m_t), grad.indices) * sign(grad.values)
        update = lr_t * self._multiplier(scale_t, sign_decay, sign_gm) * grad.values
        var_update = scatter_sub(var, grad.indices, update, use_locking=self._use_locking)
        return group(*[var_update, m_t])

    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any) -> Any:
        raise NotImplementedError(
            f"{type(self).__name__} has no update for sparse gradients (tf.IndexedSlices) "
            f"of resource variables, as in TF 1.15: use a ref variable "
            f"(use_resource=False) or densify the gradient")


class AddSignOptimizer(_SignOptimizer):
    """AddSign: var -= lr * (alpha + sign_decay * sign(g) sign(m)) * g."""

    _OP = "AddSign"

    def __init__(self, learning_rate: Any = 0.1, alpha: Any = 1.0, beta: Any = 0.9,
                 sign_decay_fn: Optional[Callable[[Any], Any]] = None,
                 use_locking: bool = False, name: str = "AddSignOptimizer"):
        super().__init__(learning_rate, alpha, beta, sign_decay_fn, use_locking, name)

    def _scale_name(self) -> str:
        return "alpha"

    def _multiplier(self, scale: Any, sign_decay: Any, sign_gm: Any) -> Any:
        return scale + sign_decay * sign_gm


class PowerSignOptimizer(_SignOptimizer):
    """PowerSign: var -= lr * base ** (sign_decay * sign(g) sign(m)) * g."""

    _OP = "PowerSign"

    def __init__(self, learning_rate: Any = 0.1, base: float = math.e, beta: Any = 0.9,
                 sign_decay_fn: Optional[Callable[[Any], Any]] = None,
                 use_locking: bool = False, name: str = "PowerSignOptimizer"):
        super().__init__(learning_rate, math.log(base), beta, sign_decay_fn, use_locking,
                         name)

    def _scale_name(self) -> str:
        return "logbase"

    def _multiplier(self, scale: Any, sign_decay: Any, sign_gm: Any) -> Any:
        from tf1compat.ops.math_ops import exp
        return exp(scale * sign_decay * sign_gm)


# -- sign-decay schedules (functions of global_step) -----------------------------------------

def _require_step(global_step: Any, what: str) -> None:
    if global_step is None:
        raise ValueError(f"global_step is required for {what}.")


def get_linear_decay_fn(decay_steps: int) -> Callable[[Any], Any]:
    """max(0, (decay_steps - global_step) / decay_steps)."""
    def linear_decay_fn(global_step: Any) -> Any:
        from tf1compat.ops.math_ops import cast, maximum, minimum
        from tf1compat.framework import dtypes
        _require_step(global_step, "linear_decay")
        step = minimum(global_step, decay_steps)
        remaining = cast(decay_steps, dtypes.int32) - cast(step, dtypes.int32)
        return maximum(0.0, cast(remaining, dtypes.float32) /
                       cast(decay_steps, dtypes.float32))
    return linear_decay_fn


def _cosine(fraction: Any) -> Any:
    from tf1compat.ops.math_ops import cos
    return 0.5 * (1.0 + cos(convert_to_tensor(math.pi) * fraction))


def get_cosine_decay_fn(decay_steps: int, num_periods: float = 0.5,
                        zero_after: Optional[float] = None) -> Callable[[Any], Any]:
    """0.5 * (1 + cos(2 pi num_periods global_step / decay_steps)); 0 once the fraction
    2 num_periods step / decay_steps reaches 2 zero_after."""
    def cosine_decay_fn(global_step: Any) -> Any:
        from tf1compat.framework import dtypes
        from tf1compat.ops.indexing_ops import where
        from tf1compat.ops.math_ops import cast, greater_equal, minimum
        _require_step(global_step, "cosine_decay")
        step = minimum(global_step, decay_steps)
        fraction = 2.0 * num_periods * (cast(step, dtypes.float32) /
                                        cast(decay_steps, dtypes.float32))
        decayed = _cosine(fraction)
        if zero_after is not None:
            decayed = where(greater_equal(fraction, 2 * zero_after), 0.0, decayed)
        return decayed
    return cosine_decay_fn


def get_restart_decay_fn(decay_steps: int, num_periods: float = 1,
                         zero_after: Optional[float] = None) -> Callable[[Any], Any]:
    """0.5 * (1 + cos(pi * ((num_periods global_step) mod decay_steps) / decay_steps)),
    SGDR's warm restarts simplified; 0 once num_periods step / decay_steps reaches
    zero_after."""
    def restart_decay_fn(global_step: Any) -> Any:
        from tf1compat.framework import dtypes
        from tf1compat.ops.indexing_ops import where
        from tf1compat.ops.math_ops import cast, greater_equal, minimum, mod
        _require_step(global_step, "cosine_decay")
        step = minimum(global_step, decay_steps)
        num = mod(num_periods * cast(step, dtypes.float32), decay_steps)
        decayed = _cosine(num / cast(decay_steps, dtypes.float32))
        if zero_after is not None:
            periods = (cast(num_periods * step, dtypes.float32) /
                       cast(decay_steps, dtypes.float32))
            decayed = where(greater_equal(periods, zero_after), 0.0, decayed)
        return decayed
    return restart_decay_fn
