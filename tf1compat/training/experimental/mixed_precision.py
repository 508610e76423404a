"""`enable_mixed_precision_graph_rewrite` / `disable_mixed_precision_graph_rewrite`
(`tf.train.experimental`, `tf.mixed_precision`).

Enabling wraps the optimizer in the loss-scale optimizer registered for its class
(`MixedPrecisionLossScaleOptimizer` for `tf.train.Optimizer`; Keras registers its
`LossScaleOptimizer` for `tf.keras.optimizers.Optimizer`) and switches the rewrite on for
Sessions created afterwards: on CUDA their plans run under float16 autocast, on the CPU
their numerics stay float32, as TF's rewrite converts ops only on GPUs
(runtime/mixed_precision_state.py).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

from tf1compat.runtime import mixed_precision_state as _state
from tf1compat.training.experimental.loss_scale_optimizer import \
    MixedPrecisionLossScaleOptimizer
from tf1compat.training.optimizers.optimizer import Optimizer
from tf1compat.util import tf_logging as _logging

__all__ = ["enable_mixed_precision_graph_rewrite", "disable_mixed_precision_graph_rewrite",
           "register_loss_scale_wrapper"]

# optimizer base class -> (function(optimizer, loss_scale) -> wrapper, wrapper class)
_WRAPPERS: Dict[type, Tuple[Callable[[Any, Any], Any], type]] = {
    Optimizer: (MixedPrecisionLossScaleOptimizer, MixedPrecisionLossScaleOptimizer)}


def register_loss_scale_wrapper(optimizer_cls: type, wrapper_fn: Callable[[Any, Any], Any],
                                wrapper_cls: Optional[type] = None) -> None:
    """Makes `enable_mixed_precision_graph_rewrite` wrap `optimizer_cls` instances with
    `wrapper_fn(optimizer, loss_scale)` (an instance of `wrapper_cls`)."""
    _WRAPPERS[optimizer_cls] = (wrapper_fn, wrapper_cls or wrapper_fn)


def _wrap_optimizer(opt: Any, loss_scale: Any) -> Any:
    for _, wrapper_cls in _WRAPPERS.values():
        if isinstance(opt, wrapper_cls):
            raise ValueError(f'"opt" must not already be an instance of a '
                             f'{wrapper_cls.__name__}. `enable_mixed_precision_graph_rewrite` '
                             f'will automatically wrap the optimizer with a '
                             f'{wrapper_cls.__name__}.')
    for optimizer_cls, (wrapper_fn, _) in _WRAPPERS.items():
        if isinstance(opt, optimizer_cls):
            return wrapper_fn(opt, loss_scale)
    raise ValueError('"opt" must be an instance of a tf.train.Optimizer or a '
                     f'tf.keras.optimizers.Optimizer, but got: {opt}')


def enable_mixed_precision_graph_rewrite(opt: Any, loss_scale: Any = "dynamic") -> Any:
    """Returns `opt` wrapped for loss scaling and enables the mixed-precision rewrite for
    Sessions created from now on."""
    if _state.is_using_mixed_precision_policy():
        raise ValueError(
            "The mixed precision graph rewrite cannot be enabled, because the global Keras "
            "dtype Policy has been set to a mixed precision policy. At most, one of the "
            "following can be called:\n\n  1. tf.keras.mixed_precision.set_global_policy() "
            "with a mixed precision policy (You called this first)\n\n  2. "
            "tf.train.experimental.enable_mixed_precision_graph_rewrite() (You called this "
            "second)\nYou called both functions, which is an error, because both functions "
            "enable you to use mixed precision. If in doubt which function to use, use the "
            "first, as it supports Eager execution and is more customizable.")
    if _state.non_mixed_precision_session_created():
        _logging.warning("You already have existing Sessions that do not use mixed "
                         "precision. enable_mixed_precision_graph_rewrite() will not affect "
                         "these Sessions.")
    opt = _wrap_optimizer(opt, loss_scale)
    _state.set_graph_rewrite_enabled(True)
    return opt


def disable_mixed_precision_graph_rewrite() -> None:
    """Sessions created from now on run without the rewrite (existing ones keep it)."""
    if not _state.is_graph_rewrite_enabled():
        _logging.warning("disable_mixed_precision_graph_rewrite() called when mixed "
                         "precision is already disabled.")
    _state.set_graph_rewrite_enabled(False)
