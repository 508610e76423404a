"""`tf.keras.mixed_precision.LossScaleOptimizer` (tf-keras's, for the legacy OptimizerV2
optimizers): wraps a Keras optimizer and applies loss scaling to it.

`get_scaled_loss` / `get_unscaled_gradients` multiply the loss and divide the gradients by
the loss scale; `get_gradients` (what the v1 training loop calls) does both. With a dynamic
scale (the default: 2**15, doubled after 2000 finite steps, halved on a non-finite step;
the rule of training/experimental/loss_scale.py), `apply_gradients` applies the gradients
only when all are finite, else only increments `iterations`. The inner optimizer's
variables are created inside that `tf.cond`, hence TF's names
(`training/cond_1/SGD/learning_rate`). Hyperparameters, `iterations`, weights and slots
are the inner optimizer's.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.keras import backend
from tf1compat.keras.optimizers.optimizer_v2 import OptimizerV2, _filter_empty_gradients
from tf1compat.ops.cond import smart_cond
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.ops.math_ops import cast
from tf1compat.training.experimental.loss_scale import (DynamicLossScale, FixedLossScale,
                                                        LossScale, _graph_key)
from tf1compat.variables.variables import Variable

__all__ = ["LossScaleOptimizer", "ExperimentalLossScaleOptimizer",
           "loss_scale_optimizer_from_v1_loss_scale"]

_DEFAULT_INITIAL_SCALE = 2 ** 15
_DEFAULT_GROWTH_STEPS = 2000


class _DynamicLossScaleState(DynamicLossScale):
    """The dynamic scale's state: TF1's DynamicLossScale rule on Keras-tracked variables
    (`current_loss_scale`, `good_steps`) that the Keras session initializes."""

    def __init__(self, initial_loss_scale: float, growth_steps: int, multiplier: float):
        super().__init__(initial_loss_scale, growth_steps, multiplier)

    def _add_weight(self, name: str, initial_value: Any, dtype: Any) -> Variable:
        variable = Variable(initial_value=initial_value, name=name, dtype=dtype,
                            trainable=False)
        self._weights[(name, _graph_key())] = variable
        self._handle_deferred_dependencies(name=name, trackable=variable)
        backend.track_variable(variable)
        return variable

    @property
    def growth_steps(self) -> int:
        return self.increment_period

    @property
    def current_loss_scale(self) -> Variable:
        return self._current_loss_scale

    @property
    def counter(self) -> Variable:
        return self._num_good_steps


def _multiply_gradient(gradient: Any, scale: Any) -> Any:
    if isinstance(gradient, IndexedSlices):
        return IndexedSlices(gradient.values * scale, gradient.indices,
                             gradient.dense_shape)
    return gradient * scale


class LossScaleOptimizer(OptimizerV2):
    """`LossScaleOptimizer(inner_optimizer, dynamic=True, initial_scale=None,
    dynamic_growth_steps=None)`."""

    def __init__(self, inner_optimizer: Any, dynamic: bool = True,
                 initial_scale: Optional[float] = None,
                 dynamic_growth_steps: Optional[int] = None):
        if not isinstance(inner_optimizer, OptimizerV2):
            raise TypeError('"inner_optimizer" must be an instance of '
                            "`tf.keras.optimizers.Optimizer` or "
                            "`tf.keras.optimizers.experimental.Optimizer`, but got: "
                            f"{inner_optimizer}.")
        if not isinstance(dynamic, bool):
            raise TypeError('"dynamic" argument to LossScaleOptimizer.__init__ must be a '
                            f"bool, but got: {dynamic!r}")
        if isinstance(inner_optimizer, LossScaleOptimizer):
            raise TypeError("LossScaleOptimizer cannot wrap another LossScaleOptimizer, "
                            f"but got: {inner_optimizer}")
        if getattr(inner_optimizer, "_is_wrapped_by_loss_scale_optimizer", False):
            raise ValueError('"inner_optimizer" is already wrapped by a LossScaleOptimizer. '
                             "An optimizer can only be wrapped by a single "
                             "LossScaleOptimizer")
        object.__setattr__(self, "_optimizer", inner_optimizer)
        inner_optimizer._is_wrapped_by_loss_scale_optimizer = True
        object.__setattr__(self, "_name", inner_optimizer._name)
        if dynamic:
            initial_scale = _DEFAULT_INITIAL_SCALE if initial_scale is None else initial_scale
            growth = _DEFAULT_GROWTH_STEPS if dynamic_growth_steps is None \
                else dynamic_growth_steps
            self._loss_scale: Any = _DynamicLossScaleState(initial_scale, growth,
                                                           multiplier=2)
            self._track_trackable(self._loss_scale, "loss_scale")
        else:
            if initial_scale is None:
                raise ValueError('"initial_scale" must be specified if "dynamic" is False')
            self._loss_scale = float(initial_scale)
            if dynamic_growth_steps is not None:
                raise ValueError('"dynamic_growth_steps" must be None if "dynamic" is '
                                 f"False, but got: {dynamic_growth_steps}")
        self._track_trackable(inner_optimizer, "base_optimizer")

    # The inner optimizer's hyperparameters read and set as attributes (opt.lr, ...).
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or "_optimizer" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self._optimizer, name)

    def __setattr__(self, name: str, value: Any) -> None:
        inner = self.__dict__.get("_optimizer")
        key = "learning_rate" if name == "lr" else name
        if inner is not None and key in inner._hyper:
            inner._set_hyper(key, value)
        else:
            object.__setattr__(self, name, value)

    # -- the loss scale ---------------------------------------------------------------------
    @property
    def dynamic(self) -> bool:
        return isinstance(self._loss_scale, _DynamicLossScaleState)

    @property
    def loss_scale(self) -> Any:
        """The current loss scale as a float32 tensor."""
        if self.dynamic:
            return convert_to_tensor(self._loss_scale.current_loss_scale)
        return convert_to_tensor(self._loss_scale)

    @property
    def dynamic_counter(self) -> Optional[Variable]:
        return self._loss_scale.counter if self.dynamic else None

    @property
    def initial_scale(self) -> float:
        return self._loss_scale.initial_loss_scale if self.dynamic else self._loss_scale

    @property
    def dynamic_growth_steps(self) -> Optional[int]:
        return self._loss_scale.growth_steps if self.dynamic else None

    @property
    def inner_optimizer(self) -> OptimizerV2:
        return self._optimizer

    def get_scaled_loss(self, loss: Any) -> Any:
        """`loss` (a tensor or a callable) multiplied by the loss scale."""
        if callable(loss):
            def scaled() -> Any:
                value = loss()
                return value * cast(self.loss_scale, value.dtype)
            return scaled
        return loss * cast(self.loss_scale, loss.dtype)

    def get_unscaled_gradients(self, grads: List[Any]) -> List[Any]:
        """The gradients divided by the loss scale (None stays None)."""
        reciprocal = 1.0 / self.loss_scale
        return [None if g is None else _multiply_gradient(g, reciprocal) for g in grads]

    # -- gradients and updates -------------------------------------------------------------
    def _compute_gradients(self, loss: Any, var_list: Any, grad_loss: Any = None,
                           tape: Any = None) -> List[Any]:
        grads_and_vars = self._optimizer._compute_gradients(
            self.get_scaled_loss(loss), var_list, grad_loss, tape=tape)
        grads = self.get_unscaled_gradients([g for g, _ in grads_and_vars])
        return list(zip(grads, [v for _, v in grads_and_vars]))

    def get_gradients(self, loss: Any, params: Any) -> List[Any]:
        return self.get_unscaled_gradients(
            self._optimizer.get_gradients(self.get_scaled_loss(loss), params))

    def _create_all_weights(self, var_list: Any) -> None:
        self._optimizer._create_all_weights(var_list)

    def apply_gradients(self, grads_and_vars: Any, name: Optional[str] = None,
                        experimental_aggregate_gradients: bool = True) -> Any:
        """Applies the gradients if all are finite (dynamic scale) and updates the
        scale; a skipped step still increments `iterations`."""
        grads_and_vars = tuple(_filter_empty_gradients(grads_and_vars))
        grads = [g for g, _ in grads_and_vars]
        variables = [v for _, v in grads_and_vars]
        if self.dynamic:
            update_scale, should_apply = self._loss_scale.update(grads)
        else:
            update_scale, should_apply = no_op(), True

        def apply() -> Any:
            return self._optimizer.apply_gradients(list(zip(grads, variables)), name=name,
                                                   experimental_aggregate_gradients=False)

        def skip() -> Any:
            return self._optimizer.iterations.assign_add(1, read_value=False)

        return group(smart_cond(should_apply, apply, skip), update_scale)

    # -- the inner optimizer's state -------------------------------------------------------
    @property
    def iterations(self) -> Variable:
        return self._optimizer.iterations

    @iterations.setter
    def iterations(self, variable: Variable) -> None:
        self._optimizer.iterations = variable

    @property
    def weights(self) -> List[Variable]:
        return self._optimizer.weights

    def variables(self) -> List[Variable]:
        return self._optimizer.variables()

    def get_weights(self) -> List[Any]:
        return self._optimizer.get_weights()

    def set_weights(self, weights: Any) -> None:
        self._optimizer.set_weights(weights)

    def get_slot_names(self) -> List[str]:
        return self._optimizer.get_slot_names()

    def get_slot(self, var: Any, slot_name: str) -> Variable:
        return self._optimizer.get_slot(var, slot_name)

    def add_slot(self, var: Any, slot_name: str, initializer: Any = "zeros") -> Variable:
        return self._optimizer.add_slot(var, slot_name, initializer)

    def get_config(self) -> Dict[str, Any]:
        from tf1compat.keras import optimizers
        return {"inner_optimizer": optimizers.serialize(self._optimizer),
                "dynamic": self.dynamic, "initial_scale": self.initial_scale,
                "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config: Dict[str, Any], custom_objects: Any = None
                    ) -> "LossScaleOptimizer":
        from tf1compat.keras import optimizers
        config = dict(config)
        inner = optimizers.deserialize(config.pop("inner_optimizer"),
                                       custom_objects=custom_objects)
        return cls(inner, **config)


def _v1_loss_scale_kwargs(loss_scale: Any) -> Dict[str, Any]:
    """LossScaleOptimizer arguments for a TF1 loss scale ("dynamic", a number, a
    FixedLossScale or a DynamicLossScale with multiplier 2)."""
    if isinstance(loss_scale, (int, float)):
        return {"dynamic": False, "initial_scale": loss_scale}
    if isinstance(loss_scale, FixedLossScale):
        return {"dynamic": False, "initial_scale": loss_scale._loss_scale_value}
    if isinstance(loss_scale, str) and loss_scale == "dynamic":
        return {}
    if isinstance(loss_scale, DynamicLossScale):
        if loss_scale.multiplier != 2:
            raise ValueError('When passing a DynamicLossScale to "loss_scale", '
                             f"DynamicLossScale.multiplier must be 2. Got: {loss_scale}")
        return {"initial_scale": loss_scale.initial_loss_scale,
                "dynamic_growth_steps": loss_scale.increment_period}
    if isinstance(loss_scale, LossScale):
        raise TypeError("Passing a LossScale that is not a FixedLossScale or a "
                        f"DynamicLossScale is not supported. Got: {loss_scale}")
    raise ValueError('Invalid value passed to loss_scale. loss_scale must be the string '
                     '"dynamic" (recommended), an int, a float, a FixedLossScale, or a '
                     f"DynamicLossScale. Got value: {loss_scale}")


def loss_scale_optimizer_from_v1_loss_scale(optimizer: OptimizerV2, loss_scale: Any
                                            ) -> LossScaleOptimizer:
    """The LossScaleOptimizer `enable_mixed_precision_graph_rewrite` wraps a Keras
    optimizer in, with the algorithm of a TF1 loss scale (or "dynamic", a number)."""
    return LossScaleOptimizer(optimizer, **_v1_loss_scale_kwargs(loss_scale))


class ExperimentalLossScaleOptimizer(LossScaleOptimizer):
    """TF 1.15's `tf.keras.mixed_precision.experimental.LossScaleOptimizer(optimizer,
    loss_scale)`: the loss scale given TF1's way."""

    def __init__(self, optimizer: Any, loss_scale: Any):
        super().__init__(optimizer, **_v1_loss_scale_kwargs(loss_scale))
