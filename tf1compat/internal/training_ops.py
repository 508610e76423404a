"""`tensorflow.python.training.training_ops`: the generated wrappers of the gradient
descent training ops (TensorFlow Probability's SGLD and variational SGD optimizers apply
their updates with them)."""

from typing import Any, Optional

from tf1compat.ops.training_ops import training_op

__all__ = ["apply_gradient_descent", "resource_apply_gradient_descent"]


def apply_gradient_descent(var: Any, alpha: Any, delta: Any, use_locking: bool = False,
                           name: Optional[str] = None) -> Any:
    """`var -= alpha * delta` on a ref variable (ApplyGradientDescent): its new value."""
    return training_op("ApplyGradientDescent", [var, alpha, delta], use_locking, name=name)


def resource_apply_gradient_descent(var: Any, alpha: Any, delta: Any, use_locking: bool = False,
                                    name: Optional[str] = None) -> Any:
    """`var -= alpha * delta` on a resource variable's handle (ResourceApplyGradientDescent):
    the Operation."""
    return training_op("ResourceApplyGradientDescent", [var, alpha, delta], use_locking,
                       name=name)
