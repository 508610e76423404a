"""`tf.keras.optimizers.schedules`: learning rates as functions of the optimizer step,
with tf-keras's formulas and configs."""

from __future__ import annotations

import math
from typing import Any, Dict, Optional, Sequence

from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import math_ops

__all__ = ["LearningRateSchedule", "ExponentialDecay", "PiecewiseConstantDecay",
           "PolynomialDecay", "InverseTimeDecay", "CosineDecay", "CosineDecayRestarts",
           "serialize", "deserialize"]


class LearningRateSchedule:
    """Base class: `schedule(step)` returns the learning rate at `step`."""

    def __call__(self, step: Any) -> Any:
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must "
                                  "override `__call__(self, step)`.")

    def get_config(self) -> Dict[str, Any]:
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must "
                                  "override `get_config()` in order to be serializable.")

    @classmethod
    def from_config(cls, config: Dict[str, Any]) -> "LearningRateSchedule":
        return cls(**config)


def _start(initial: Any, step: Any) -> tuple:
    lr = convert_to_tensor(initial, name="initial_learning_rate")
    return lr, lr.dtype, math_ops.cast(step, lr.dtype)


class ExponentialDecay(LearningRateSchedule):
    """`initial * decay_rate ** (step / decay_steps)` (floored with `staircase`)."""

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, decay_rate: Any,
                 staircase: bool = False, name: Optional[str] = None):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def __call__(self, step: Any) -> Any:
        with name_scope(self.name or "ExponentialDecay") as name:
            lr, dtype, step = _start(self.initial_learning_rate, step)
            p = step / math_ops.cast(self.decay_steps, dtype)
            if self.staircase:
                p = math_ops.floor(p)
            return math_ops.multiply(lr, math_ops.pow(math_ops.cast(self.decay_rate, dtype), p),
                                     name=name)

    def get_config(self) -> Dict[str, Any]:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class PiecewiseConstantDecay(LearningRateSchedule):
    """`values[i]` while `boundaries[i-1] < step <= boundaries[i]`."""

    def __init__(self, boundaries: Sequence[Any], values: Sequence[Any],
                 name: Optional[str] = None):
        if len(boundaries) != len(values) - 1:
            raise ValueError("The length of boundaries should be 1 less than the length of "
                             f"values. Received: boundaries={boundaries} of length "
                             f"{len(boundaries)}, and values={values} of length {len(values)}.")
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step: Any) -> Any:
        from tf1compat.ops.cond import case
        with name_scope(self.name or "PiecewiseConstant"):
            boundaries = [convert_to_tensor(b) for b in self.boundaries]
            values = [convert_to_tensor(v) for v in self.values]
            x = convert_to_tensor(step)
            boundaries = [b if b.dtype.base_dtype == x.dtype.base_dtype
                          else math_ops.cast(b, x.dtype.base_dtype) for b in boundaries]
            pairs = [(x <= boundaries[0], lambda: values[0]),
                     (x > boundaries[-1], lambda: values[-1])]
            for low, high, v in zip(boundaries[:-1], boundaries[1:], values[1:-1]):
                pairs.append((math_ops.logical_and(x > low, x <= high), lambda v=v: v))
            return case(pairs, lambda: values[0], exclusive=True)

    def get_config(self) -> Dict[str, Any]:
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """`(initial - end) * (1 - step / decay_steps) ** power + end` (cycling with
    `cycle`)."""

    def __init__(self, initial_learning_rate: Any, decay_steps: Any,
                 end_learning_rate: Any = 0.0001, power: Any = 1.0, cycle: bool = False,
                 name: Optional[str] = None):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def __call__(self, step: Any) -> Any:
        from tf1compat.ops.indexing_ops import where
        with name_scope(self.name or "PolynomialDecay") as name:
            lr, dtype, step = _start(self.initial_learning_rate, step)
            end = math_ops.cast(self.end_learning_rate, dtype)
            power = math_ops.cast(self.power, dtype)
            decay_steps = math_ops.cast(self.decay_steps, dtype)
            if self.cycle:
                multiplier = where(math_ops.equal(step, 0), 1.0,
                                   math_ops.ceil(step / self.decay_steps))
                decay_steps = math_ops.multiply(decay_steps, multiplier)
            else:
                step = math_ops.minimum(step, decay_steps)
            p = math_ops.divide(step, decay_steps)
            return math_ops.add(math_ops.multiply(lr - end, math_ops.pow(1 - p, power)), end,
                                name=name)

    def get_config(self) -> Dict[str, Any]:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}


class InverseTimeDecay(LearningRateSchedule):
    """`initial / (1 + decay_rate * step / decay_steps)` (floored with `staircase`)."""

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, decay_rate: Any,
                 staircase: bool = False, name: Optional[str] = None):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def __call__(self, step: Any) -> Any:
        from tf1compat.framework.constant_op import constant
        with name_scope(self.name or "InverseTimeDecay") as name:
            lr, dtype, step = _start(self.initial_learning_rate, step)
            p = step / math_ops.cast(self.decay_steps, dtype)
            if self.staircase:
                p = math_ops.floor(p)
            one = math_ops.cast(constant(1), dtype)
            denominator = math_ops.add(one, math_ops.multiply(
                math_ops.cast(self.decay_rate, dtype), p))
            return math_ops.divide(lr, denominator, name=name)

    def get_config(self) -> Dict[str, Any]:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """Cosine decay from `initial` to `alpha * initial` over `decay_steps` (after an
    optional linear warmup to `warmup_target` over `warmup_steps`)."""

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, alpha: Any = 0.0,
                 name: Optional[str] = None, warmup_target: Any = None,
                 warmup_steps: Any = 0):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name
        self.warmup_steps = warmup_steps
        self.warmup_target = warmup_target

    def _decay(self, step: Any, decay_steps: Any, start: Any, dtype: Any) -> Any:
        from tf1compat.framework.constant_op import constant
        with name_scope(self.name or "CosineDecay"):
            fraction = step / decay_steps
            cosine = 0.5 * (1.0 + math_ops.cos(constant(math.pi, dtype=dtype) * fraction))
            return math_ops.multiply(start, (1 - self.alpha) * cosine + self.alpha)

    def __call__(self, step: Any) -> Any:
        from tf1compat.ops.cond import cond
        with name_scope(self.name or "CosineDecay"):
            lr, dtype, step = _start(self.initial_learning_rate, step)
            decay_steps = math_ops.cast(self.decay_steps, dtype)
            if self.warmup_target is None:
                return self._decay(math_ops.minimum(step, decay_steps), decay_steps, lr, dtype)
            target = math_ops.cast(self.warmup_target, dtype)
            warmup_steps = math_ops.cast(self.warmup_steps, dtype)
            step = math_ops.minimum(step, decay_steps + warmup_steps)

            def warmup() -> Any:
                with name_scope(self.name or "CosineDecay"):
                    return (target - lr) * (step / warmup_steps) + lr
            return cond(step < warmup_steps, warmup,
                        lambda: self._decay(step - warmup_steps, decay_steps, target, dtype))

    def get_config(self) -> Dict[str, Any]:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """SGDR: cosine decay over `first_decay_steps`, restarted with periods scaled by
    `t_mul` and peaks by `m_mul`."""

    def __init__(self, initial_learning_rate: Any, first_decay_steps: Any, t_mul: Any = 2.0,
                 m_mul: Any = 1.0, alpha: Any = 0.0, name: Optional[str] = None):
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self._t_mul = t_mul
        self._m_mul = m_mul
        self.alpha = alpha
        self.name = name

    def __call__(self, step: Any) -> Any:
        from tf1compat.framework.constant_op import constant
        from tf1compat.ops.cond import cond
        with name_scope(self.name or "SGDRDecay") as name:
            lr, dtype, step = _start(self.initial_learning_rate, step)
            first_steps = math_ops.cast(self.first_decay_steps, dtype)
            alpha = math_ops.cast(self.alpha, dtype)
            t_mul = math_ops.cast(self._t_mul, dtype)
            m_mul = math_ops.cast(self._m_mul, dtype)
            fraction = step / first_steps

            def geometric() -> tuple:
                i_restart = math_ops.floor(math_ops.log(1.0 - fraction * (1.0 - t_mul)) /
                                           math_ops.log(t_mul))
                sum_r = (1.0 - t_mul ** i_restart) / (1.0 - t_mul)
                return i_restart, (fraction - sum_r) / t_mul ** i_restart

            def constant_period() -> tuple:
                i_restart = math_ops.floor(fraction)
                return i_restart, fraction - i_restart

            i_restart, fraction = cond(math_ops.equal(t_mul, 1.0), constant_period,
                                       geometric)
            m_fac = m_mul ** i_restart
            cosine = 0.5 * m_fac * (1.0 + math_ops.cos(constant(math.pi, dtype=dtype) *
                                                       fraction))
            return math_ops.multiply(lr, (1 - alpha) * cosine + alpha, name=name)

    def get_config(self) -> Dict[str, Any]:
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps, "t_mul": self._t_mul,
                "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


def serialize(schedule: LearningRateSchedule) -> Dict[str, Any]:
    from tf1compat.keras.utils.serialization import serialize_keras_object
    return serialize_keras_object(schedule)


def deserialize(config: Dict[str, Any], custom_objects: Any = None) -> LearningRateSchedule:
    from tf1compat.keras.utils.serialization import deserialize_keras_object
    return deserialize_keras_object(config, module_objects=globals(),
                                    custom_objects=custom_objects,
                                    printable_module_name="decay")
