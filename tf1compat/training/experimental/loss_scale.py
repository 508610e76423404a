"""TF1's loss scales (`tf.train.experimental.LossScale`, `FixedLossScale`,
`DynamicLossScale`, also under `tf.mixed_precision` and `tf.mixed_precision.experimental`).

A loss scale multiplies the loss before differentiation and divides the gradients after,
so that small float16 gradients do not underflow. `DynamicLossScale` follows TF's rule:
after `increment_period` consecutive steps with finite gradients the scale is multiplied
by `multiplier` (unless that overflows float32) and the count restarts; a step with a
non-finite gradient divides the scale (never below 1), restarts the count and tells the
optimizer to skip the update. Its state is two non-trainable resource variables named as
TF names them (`current_loss_scale`, `good_steps`) in the current name scope, and
checkpoint children of the same names.
"""

from __future__ import annotations

import abc
from typing import Any, Dict, List, Tuple, Union

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import get_default_graph
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.cond import cond
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.ops.math_ops import greater_equal, is_finite, maximum
from tf1compat.ops.reduction_ops import reduce_all
from tf1compat.training.saving.tracking import Trackable
from tf1compat.util import nest
from tf1compat.variables.variables import Variable

__all__ = ["LossScale", "FixedLossScale", "DynamicLossScale", "get"]


def _graph_key() -> Any:
    return None if _context.executing_eagerly() else get_default_graph()


class LossScale(Trackable, metaclass=abc.ABCMeta):
    """Base class of TF1 loss scales: calling one gives the scale as a float32 scalar;
    `update(grads)` returns `(update_op, should_apply_gradients)`."""

    def __init__(self) -> None:
        # (name, graph) -> variable: a loss scale used in several graphs has a set each.
        self._weights: Dict[Tuple[str, Any], Variable] = {}

    @abc.abstractmethod
    def __call__(self) -> Any:
        """The current loss scale as a scalar float32 tensor."""

    @abc.abstractmethod
    def update(self, grads: Any) -> Tuple[Any, Any]:
        """Updates the scale from the (unscaled) gradients; returns the op doing it (None
        under eager execution) and whether the gradients should be applied."""

    @abc.abstractmethod
    def get_config(self) -> Dict[str, Any]:
        """The constructor arguments of this loss scale."""

    @classmethod
    def from_config(cls, config: Dict[str, Any]) -> "LossScale":
        return cls(**config)

    def _add_weight(self, name: str, initial_value: Any, dtype: Any) -> Variable:
        variable = Variable(initial_value=initial_value, name=name, dtype=dtype,
                            trainable=False, use_resource=True)
        key = (name, _graph_key())
        if self._weights.get(key) is not None:
            raise RuntimeError(f"Duplicate variables detected. {key}")
        self._weights[key] = variable
        self._handle_deferred_dependencies(name=name, trackable=variable)
        return variable

    @property
    def _checkpoint_dependencies(self) -> List[Tuple[str, Any]]:
        """The current graph's weights by name, then tracked objects (as TF)."""
        key = _graph_key()
        found = [(name, v) for (name, graph), v in sorted(self._weights.items(),
                                                          key=lambda item: item[0][0])
                 if graph is key]
        names = {n for n, _ in found}
        found.extend((n, c) for n, c in super()._checkpoint_dependencies if n not in names)
        return found

    def _lookup_dependency(self, name: str) -> Any:
        found = super()._lookup_dependency(name)
        return found if found is not None else self._weights.get((name, _graph_key()))


class FixedLossScale(LossScale):
    """A loss scale that never changes; `update` always allows applying gradients."""

    def __init__(self, loss_scale_value: Union[int, float]):
        super().__init__()
        if not isinstance(loss_scale_value, (int, float)):
            raise ValueError("loss_scale_value must be a Python int or float.")
        if loss_scale_value < 1:
            raise ValueError("loss_scale_value must be at least 1.")
        self._loss_scale_value = float(loss_scale_value)

    def __call__(self) -> Any:
        return convert_to_tensor(self._loss_scale_value)

    def update(self, grads: Any) -> Tuple[Any, bool]:
        del grads
        return no_op(), True

    def __repr__(self) -> str:
        return f"FixedLossScale({self._loss_scale_value})"

    def get_config(self) -> Dict[str, Any]:
        return {"loss_scale_value": self._loss_scale_value}


def _all_finite(grads: List[Any]) -> Any:
    """A scalar bool: every value of every (non-None) gradient is finite."""
    per_grad = [reduce_all(is_finite(g.values if isinstance(g, IndexedSlices) else g))
                for g in grads if g is not None]
    return reduce_all(per_grad)


def _op_or_tensor(t: Any) -> Any:
    return t if _context.executing_eagerly() else t.op


class DynamicLossScale(LossScale):
    """A loss scale raised every `increment_period` finite steps and lowered (with the
    step skipped) on a non-finite gradient."""

    def __init__(self, initial_loss_scale: float = 2 ** 15, increment_period: int = 2000,
                 multiplier: float = 2.):
        super().__init__()
        self._initial_loss_scale = float(initial_loss_scale)
        self._increment_period = int(increment_period)
        self._multiplier = float(multiplier)
        self._current_loss_scale = self._add_weight("current_loss_scale",
                                                    self._initial_loss_scale, D.float32)
        self._num_good_steps = self._add_weight("good_steps", 0, D.int64)

    @property
    def initial_loss_scale(self) -> float:
        return self._initial_loss_scale

    @property
    def increment_period(self) -> int:
        return self._increment_period

    @property
    def multiplier(self) -> float:
        return self._multiplier

    def __call__(self) -> Any:
        return convert_to_tensor(self._current_loss_scale)

    def update(self, grads: Any) -> Tuple[Any, Any]:
        is_finite_grads = _all_finite(nest.flatten(grads))
        scale, good_steps = self._current_loss_scale, self._num_good_steps

        def finite_step() -> Any:
            def raise_scale() -> Any:
                raised = scale * self._multiplier
                # An overflow to inf keeps the old scale (TF's _assign_if_finite).
                assign_if_finite = cond(is_finite(raised),
                                        lambda: _op_or_tensor(scale.assign(raised)), no_op)
                return group(assign_if_finite, good_steps.assign(0))

            return cond(greater_equal(good_steps + 1, self._increment_period), raise_scale,
                        lambda: _op_or_tensor(good_steps.assign_add(1)))

        def non_finite_step() -> Any:
            lowered = maximum(scale / self._multiplier, 1.)
            return group(good_steps.assign(0), scale.assign(lowered))

        update_op = cond(is_finite_grads, finite_step, non_finite_step)
        return update_op, is_finite_grads

    def __repr__(self) -> str:
        if _context.executing_eagerly():
            return (f"DynamicLossScale(current_loss_scale={self._current_loss_scale.numpy()}, "
                    f"num_good_steps={self._num_good_steps.numpy()}, "
                    f"initial_loss_scale={self.initial_loss_scale}, "
                    f"increment_period={self.increment_period}, "
                    f"multiplier={self.multiplier})")
        return (f"DynamicLossScale(initial_loss_scale={self.initial_loss_scale}, "
                f"increment_period={self.increment_period}, multiplier={self.multiplier})")

    def get_config(self) -> Dict[str, Any]:
        return {"initial_loss_scale": self.initial_loss_scale,
                "increment_period": self.increment_period, "multiplier": self.multiplier}


def get(identifier: Any) -> Any:
    """A loss scale from a number (fixed), "dynamic", a LossScale or None."""
    if isinstance(identifier, (int, float)):
        return FixedLossScale(identifier)
    if isinstance(identifier, str) and identifier == "dynamic":
        return DynamicLossScale()
    if isinstance(identifier, LossScale):
        return identifier
    if identifier is None:
        return None
    raise ValueError(f"Could not interpret loss scale identifier: {identifier}")
