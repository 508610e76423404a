"""`tf.contrib.layers.optimize_loss` and `adaptive_clipping_fn` (TF 1.15): one call that
builds a train op from a loss.

`optimize_loss` opens the variable scope `OptimizeLoss` (or `name`), makes the loss wait
for the UPDATE_OPS, turns a float learning rate into the non-trainable variable
`learning_rate`, builds the optimizer (a name of OPTIMIZER_CLS_NAMES, an Optimizer class,
instance or factory), computes the gradients and, in TF's order, adds noise, multiplies,
clips, writes the requested summaries and applies them as `train`; it returns the loss
after the update. `adaptive_clipping_fn` clips the global norm against moving averages of
its log (variables `AdaptiveMaxNorm/mean`, `/sq_mean`).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from tf1compat.framework import dtypes
from tf1compat.framework.graph import GraphKeys, get_collection
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.check_ops import assert_scalar
from tf1compat.ops.clip_ops import clip_by_global_norm, global_norm
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import ones_like
from tf1compat.ops.indexing_ops import where
from tf1compat.ops.math_ops import cast, exp, log, maximum, minimum, sqrt, square
from tf1compat.ops.random_ops import truncated_normal
from tf1compat.summary.summary_ops import histogram, scalar
from tf1compat.training.moving_averages import assign_moving_average
from tf1compat.training.optimizers.adagrad import AdagradOptimizer
from tf1compat.training.optimizers.adam import AdamOptimizer
from tf1compat.training.optimizers.ftrl import FtrlOptimizer
from tf1compat.training.optimizers.gradient_descent import GradientDescentOptimizer
from tf1compat.training.optimizers.momentum import MomentumOptimizer
from tf1compat.training.optimizers.optimizer import Optimizer
from tf1compat.training.optimizers.rmsprop import RMSPropOptimizer
from tf1compat.training.training_util import assert_global_step, get_global_step
from tf1compat.variables.init_ops import constant_initializer, zeros_initializer
from tf1compat.variables.variable_scope import get_variable, variable_scope
from tf1compat.variables.collections import trainable_variables

__all__ = ["optimize_loss", "adaptive_clipping_fn", "OPTIMIZER_CLS_NAMES",
           "OPTIMIZER_SUMMARIES"]

OPTIMIZER_CLS_NAMES: Dict[str, Callable[..., Optimizer]] = {
    "Adagrad": AdagradOptimizer,
    "Adam": AdamOptimizer,
    "Ftrl": FtrlOptimizer,
    "Momentum": lambda learning_rate: MomentumOptimizer(learning_rate, momentum=0.9),
    "RMSProp": RMSPropOptimizer,
    "SGD": GradientDescentOptimizer,
}

OPTIMIZER_SUMMARIES = ["learning_rate", "loss", "gradients", "gradient_norm",
                       "global_gradient_norm"]

GradsAndVars = List[Tuple[Any, Any]]


def _learning_rate(learning_rate: Any) -> Any:
    """A 0-d tensor as given; a float as the `learning_rate` variable."""
    if isinstance(learning_rate, Tensor) and learning_rate.get_shape().ndims == 0:
        return learning_rate
    if isinstance(learning_rate, float):
        if learning_rate < 0.0:
            # (TF passes the value as a second exception argument, unformatted.)
            raise ValueError("Invalid learning_rate %s.", learning_rate)
        return get_variable("learning_rate", [], trainable=False,
                            initializer=constant_initializer(learning_rate))
    raise ValueError(f"Learning rate should be 0d Tensor or float. Got {learning_rate} of "
                     f"type {type(learning_rate)}")


def _make_optimizer(optimizer: Any, learning_rate: Any, lr: Any) -> Optimizer:
    if isinstance(optimizer, str):
        if lr is None:
            raise ValueError("Learning rate is None, but should be specified if optimizer is "
                             f"string ({optimizer}).")
        if optimizer not in OPTIMIZER_CLS_NAMES:
            raise ValueError(f"Optimizer name should be one of "
                             f"[{', '.join(OPTIMIZER_CLS_NAMES)}], you provided {optimizer}.")
        return OPTIMIZER_CLS_NAMES[optimizer](learning_rate=lr)
    if isinstance(optimizer, type) and issubclass(optimizer, Optimizer):
        if lr is None:
            raise ValueError("Learning rate is None, but should be specified if optimizer is "
                             f"class ({optimizer}).")
        return optimizer(learning_rate=lr)
    if isinstance(optimizer, Optimizer):
        return optimizer
    if callable(optimizer):
        opt = optimizer(lr) if learning_rate is not None else optimizer()
        if not isinstance(opt, Optimizer):
            raise ValueError("Unrecognized optimizer: function should return subclass of "
                             f"Optimizer. Got {opt}.")
        return opt
    raise ValueError("Unrecognized optimizer: should be string, subclass of Optimizer, "
                     "instance of subclass of Optimizer or function with one argument. "
                     f"Got {optimizer}.")


def _values(gradient: Any) -> Any:
    return gradient.values if isinstance(gradient, IndexedSlices) else gradient


def optimize_loss(loss: Any, global_step: Any, learning_rate: Any, optimizer: Any,
                  gradient_noise_scale: Optional[float] = None,
                  gradient_multipliers: Optional[Dict[Any, Any]] = None,
                  clip_gradients: Any = None,
                  learning_rate_decay_fn: Optional[Callable[[Any, Any], Any]] = None,
                  update_ops: Optional[Sequence[Any]] = None,
                  variables: Optional[Sequence[Any]] = None, name: Optional[str] = None,
                  summaries: Optional[Sequence[str]] = None,
                  colocate_gradients_with_ops: bool = False,
                  increment_global_step: bool = True) -> Any:
    """The loss, after one optimizer step on `variables` (default: the trainable ones).

    Summaries default to loss, learning_rate and global_gradient_norm; `clip_gradients` is
    a float (clip by global norm) or a function of the (gradient, variable) list.

    Raises:
      ValueError: a bad learning rate, optimizer, summary name or clip_gradients, or a
        decay function without a global step.
    """
    loss = convert_to_tensor(loss)
    assert_scalar(loss)
    if global_step is None:
        global_step = get_global_step()
    else:
        assert_global_step(global_step)
    with variable_scope(name, "OptimizeLoss", [loss, global_step]):
        if update_ops is None:
            update_ops = set(get_collection(GraphKeys.UPDATE_OPS))
        if update_ops:
            loss = with_dependencies(list(update_ops), loss)
        lr = _learning_rate(learning_rate) if learning_rate is not None else None
        if summaries is None:
            summaries = ["loss", "learning_rate", "global_gradient_norm"]
        else:
            for summ in summaries:
                if summ not in OPTIMIZER_SUMMARIES:
                    raise ValueError(f"Summaries should be one of "
                                     f"[{', '.join(OPTIMIZER_SUMMARIES)}], you provided "
                                     f"{summ}.")
        if learning_rate is not None and learning_rate_decay_fn is not None:
            if global_step is None:
                raise ValueError("global_step is required for learning_rate_decay_fn.")
            lr = learning_rate_decay_fn(lr, global_step)
            if "learning_rate" in summaries:
                scalar("learning_rate", lr)
        opt = _make_optimizer(optimizer, learning_rate, lr)
        if variables is None:
            variables = trainable_variables()
        gradients = opt.compute_gradients(
            loss, variables, colocate_gradients_with_ops=colocate_gradients_with_ops)
        if gradient_noise_scale is not None:
            gradients = _add_scaled_noise_to_gradients(gradients, gradient_noise_scale)
        if gradient_multipliers is not None:
            gradients = _multiply_gradients(gradients, gradient_multipliers)
            if not gradients:
                raise ValueError("Empty list of (gradient, var) pairs encountered. This is "
                                 "most likely to be caused by an improper value of "
                                 "gradient_multipliers.")
        norms = "global_gradient_norm" in summaries or "gradient_norm" in summaries
        if norms:
            scalar("global_norm/gradient_norm", global_norm([g for g, _ in gradients]))
        if isinstance(clip_gradients, float):
            gradients = _clip_gradients_by_norm(gradients, clip_gradients)
        elif callable(clip_gradients):
            gradients = clip_gradients(gradients)
        elif clip_gradients is not None:
            raise ValueError(f"Unknown type {type(clip_gradients)} for clip_gradients")
        if "loss" in summaries:
            scalar("loss", loss)
        for gradient, variable in gradients:
            values = _values(gradient)
            if values is None:
                continue
            var_name = variable.name.replace(":", "_")
            if "gradients" in summaries:
                histogram(f"gradients/{var_name}", values)
            if "gradient_norm" in summaries:
                scalar(f"gradient_norm/{var_name}", global_norm([values]))
        if clip_gradients is not None and norms:
            scalar("global_norm/clipped_gradient_norm",
                   global_norm([g for g, _ in gradients]))
        grad_updates = opt.apply_gradients(
            gradients, global_step=global_step if increment_global_step else None,
            name="train")
        return with_dependencies([grad_updates], loss)


def _clip_gradients_by_norm(grads_and_vars: GradsAndVars, clip_norm: float) -> GradsAndVars:
    gradients, variables = zip(*grads_and_vars)
    clipped, _ = clip_by_global_norm(gradients, clip_norm)
    return list(zip(clipped, variables))


def _adaptive_max_norm(norm: Any, std_factor: float, decay: Any, global_step: Any,
                       epsilon: float, name: Optional[str]) -> Tuple[Any, Any]:
    """exp(mean + std_factor * std) of log(norm)'s moving averages, and the mean."""
    with variable_scope(name, "AdaptiveMaxNorm", [norm]):
        log_norm = log(norm + epsilon)

        def moving_average(var_name: str, value: Any, decay: Any) -> Any:
            average = get_variable(var_name, shape=value.get_shape(), dtype=value.dtype,
                                   initializer=zeros_initializer(), trainable=False)
            return assign_moving_average(average, value, decay, zero_debias=False)

        if global_step is not None:
            n = cast(global_step, dtypes.float32)
            decay = minimum(decay, n / (n + 1.0))
        mean = moving_average("mean", log_norm, decay)
        sq_mean = moving_average("sq_mean", square(log_norm), decay)
        std = sqrt(maximum(epsilon, sq_mean - square(mean)))
        return exp(mean + std_factor * std), mean


def adaptive_clipping_fn(std_factor: float = 2.0, decay: float = 0.95,
                         static_max_norm: Optional[float] = None, global_step: Any = None,
                         report_summary: bool = False, epsilon: float = 1e-8,
                         name: Optional[str] = None) -> Callable[[GradsAndVars], GradsAndVars]:
    """A `clip_gradients` function for optimize_loss: scales the gradients down when their
    global norm exceeds exp(mean + std_factor * std) of its log's moving statistics (to
    exp(mean)), and below `static_max_norm` if given."""
    def gradient_clipping(grads_and_vars: GradsAndVars) -> GradsAndVars:
        grads, variables = zip(*grads_and_vars)
        norm = global_norm(grads)
        max_norm, log_mean = _adaptive_max_norm(norm, std_factor, decay, global_step,
                                                 epsilon, name)
        if report_summary:
            scalar("global_norm/adaptive_max_gradient_norm", max_norm)
        factor = where(norm < max_norm, ones_like(norm), exp(log_mean) / norm)
        if static_max_norm is not None:
            factor = minimum(static_max_norm / norm, factor)
        clipped: List[Any] = []
        for grad in grads:
            if grad is None:
                clipped.append(None)
            elif isinstance(grad, IndexedSlices):
                clipped.append(IndexedSlices(grad.values * factor, grad.indices,
                                             grad.dense_shape))
            else:
                clipped.append(grad * factor)
        return list(zip(clipped, variables))
    return gradient_clipping


def _add_scaled_noise_to_gradients(grads_and_vars: GradsAndVars,
                                   gradient_noise_scale: float) -> GradsAndVars:
    gradients, variables = zip(*grads_and_vars)
    noisy: List[Any] = []
    for gradient in gradients:
        if gradient is None:
            noisy.append(None)
            continue
        shape = gradient.dense_shape if isinstance(gradient, IndexedSlices) \
            else gradient.get_shape()
        noisy.append(gradient + truncated_normal(shape) * gradient_noise_scale)
    return list(zip(noisy, variables))


def _multiply_gradients(grads_and_vars: GradsAndVars,
                        gradient_multipliers: Dict[Any, Any]) -> GradsAndVars:
    out = []
    for grad, var in grads_and_vars:
        if grad is not None and (var in gradient_multipliers or
                                 var.name in gradient_multipliers):
            multiplier = gradient_multipliers[var if var in gradient_multipliers
                                              else var.name]
            if isinstance(grad, IndexedSlices):
                grad = IndexedSlices(grad.values * multiplier, grad.indices, grad.dense_shape)
            else:
                grad *= cast(multiplier, grad.dtype)
        out.append((grad, var))
    return out
