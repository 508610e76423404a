"""Gradients whose shape differs from the tensor they flow into (a `grad_ys` of another shape).

`tf.gradients(ys, xs, grad_ys)` does not check that each grad_y has its y's shape; TF's
gradient functions use it as it is, and TF then requires every gradient a function
returns to be compatible with its input's static shape (`set_shape`, else ValueError
"Incompatible shapes between op input and calculated input gradient"). So a grad_y of
another shape survives exactly the ops whose gradient function reshapes it:

* Reshape, Squeeze, ExpandDims and the reductions (Sum, Mean, Max, Min, Prod) reshape the
  incoming gradient (to the input's shape, or to the reduced shape with kept dimensions
  before tiling): a [1] grad_y for a scalar loss, or [N, 1] for [N], works when the
  element counts agree (else TF's "Cannot reshape" ValueError);
* Tanh, Sigmoid, Sqrt, Rsqrt, Reciprocal: their gradient ops (TanhGrad, ...) take the
  output's shape and pair the elements in order;

and anything else fails at graph build with a ValueError (pass-through and elementwise
gradients keep the grad_y's shape, which set_shape rejects; TanhGrad-like ops aside,
gradient ops' shape functions reject it). The walk (walk.py) asks `check_input_grads`.

Values: the gradient op reshapes each grad_y to its y's shape before autograd runs, which
is what the accepted ops compute.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["check_input_grads", "check_input_grad"]

# Gradient functions that reshape the incoming gradient before using it.
_RESHAPING = frozenset({"Reshape", "ExpandDims", "Squeeze", "Sum", "Mean", "Max", "Min",
                        "Prod"})
# Gradient ops with TF's UnchangedShape rule (the output's shape) and elementwise kernels
# over the flat buffers.
_FLAT_GRAD_OPS = frozenset({"Tanh", "Sigmoid", "Sqrt", "Rsqrt", "Reciprocal", "Inv"})


def _count(shape: TensorShape) -> Optional[int]:
    return shape.num_elements() if shape.is_fully_defined() else None


def check_input_grads(op: Any, grad_shapes: Sequence[Optional[TensorShape]],
                      grad_scope: str) -> None:
    """Raises TF's graph-build ValueError when an incoming gradient of `op` has a shape
    incompatible with its output and TF's gradient function would not reshape it."""
    for grad, out in zip(grad_shapes, op._outputs):
        if grad is None or grad.is_compatible_with(out.shape):
            continue
        if op._type in _RESHAPING or op._type in _FLAT_GRAD_OPS:
            counts = (_count(grad), _count(out.shape))
            if op._type in _RESHAPING and None not in counts and counts[0] != counts[1]:
                raise ValueError(f"Cannot reshape a tensor with {counts[0]} elements to "
                                 f"shape {out.shape} ({counts[1]} elements) for the "
                                 f"gradient of '{op.name}' in '{grad_scope}'")
            continue
        # TF's gradient passes the gradient on (or combines it elementwise): its shape
        # then fails the input's set_shape, or the gradient op's own shape function.
        t_in = op._inputs[0] if op._inputs else out
        check_input_grad(op, 0, t_in.shape, grad)
        raise ValueError(f"Shapes {grad} and {out.shape} are incompatible: the gradient of "
                         f"'{op.name}' ({op.type}) in '{grad_scope}' needs an incoming "
                         "gradient of its output's shape")


def check_input_grad(op: Any, index: int, input_shape: TensorShape,
                     grad_shape: TensorShape) -> None:
    """TF's check of each gradient a gradient function returns against its input."""
    if not grad_shape.is_compatible_with(input_shape):
        raise ValueError("Incompatible shapes between op input and calculated input "
                         f"gradient. Forward operation: {op.name}. Input index: {index}. "
                         f"Original input shape: {input_shape}. Calculated input gradient "
                         f"shape: {grad_shape}")
