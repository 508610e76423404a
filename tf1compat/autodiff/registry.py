"""The gradient registry: `tf.RegisterGradient`, `tf.NotDifferentiable`, and TF's facts.

TF keeps one registry of gradient functions by name. Here autograd differentiates the
declared ops, and each op's declaration says how (`declare(grad=..., grad_names=...,
grad_none_inputs=..., grad_formula=...)`), so the registry holds only what Python code
adds (`RegisterGradient`, `NotDifferentiable`).

`gradient_function(op)` answers, for one graph op, what tf.gradients must do with it:

* `("autograd", type)`: torch autograd differentiates the op's kernel (`type` is the op
  type whose kernel defines the gradient: the op's own, or a builtin named by
  `gradient_override_map`, e.g. `{"Round": "Identity"}`);
* `("python", fn)`: a registered Python gradient function builds the gradient graph;
* `("none", None)`: not differentiable, all input gradients are None.

It raises LookupError where TF does.
"""

from __future__ import annotations

import functools
import threading
import traceback
from typing import Any, Callable, Dict, Optional, Tuple

from tf1compat.framework import op_def as _op_def

__all__ = ["RegisterGradient", "NotDifferentiable", "NoGradient", "no_gradient",
           "gradient_function", "none_input_indices", "get_gradient_function", "lookup_gradient"]

_lock = threading.Lock()
# name -> (fn or None, where it was registered)
_USER: Dict[str, Tuple[Optional[Callable[..., Any]], str]] = {}

def _where() -> str:
    frame = traceback.extract_stack(limit=4)[0]
    return f"{frame.name} {frame.filename}:{frame.lineno}"


def _builtin_has_gradient(name: str) -> bool:
    """Whether TF itself registers a gradient (or NotDifferentiable) under `name`."""
    try:
        return _op_def.get_op_def(name).grad != "unregistered"
    except NotImplementedError:
        return False


def _register(name: str, fn: Optional[Callable[..., Any]]) -> None:
    with _lock:
        previous = _USER.get(name)
        if previous is not None or _builtin_has_gradient(name):
            where = previous[1] if previous is not None else "tf1compat op declarations"
            raise KeyError(f"Registering two gradient with name '{name}'! (Previous "
                           f"registration was in {where})")
        _USER[name] = (fn, _where())


class RegisterGradient:
    """Decorator registering a gradient function for an op type (or override name).

        @tf.RegisterGradient("MyReluGrad")
        def _relu_grad(op, grad):
            return grad * tf.cast(op.inputs[0] > 0, grad.dtype)

    The function receives the forward Operation and one gradient per output and returns
    one gradient (or None) per input. Combined with `graph.gradient_override_map`, it
    replaces an op's gradient. It runs when `tf.gradients` meets the op, building graph
    ops; at run time those ops execute in the op's backward.
    """

    def __init__(self, op_type: str):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f: Callable[..., Any]) -> Callable[..., Any]:
        _register(self._op_type, f)
        return f


def NotDifferentiable(op_type: str) -> None:  # noqa: N802 - TF's name
    """Declares ops of `op_type` not differentiable: their input gradients are None."""
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    _register(op_type, None)


no_gradient = NotDifferentiable
NoGradient = NotDifferentiable  # TF 1.x's older spelling of the same function


def lookup_gradient(name: str) -> Tuple[str, Any]:
    """What the gradient registered under `name` is (see the module docstring)."""
    user = _USER.get(name)
    if user is not None:
        fn = user[0]
        return ("none", None) if fn is None else ("python", fn)
    try:
        od = _op_def.get_op_def(name)
    except NotImplementedError:
        od = None
    if od is None or od.grad == "unregistered":
        raise LookupError(f"gradient registry has no entry for: {name}")
    if od.grad == "none":
        return ("none", None)
    return ("autograd", name)


def get_gradient_function(op: Any) -> Optional[Callable[..., Any]]:
    """TF's `ops.get_gradient_function`: the registered Python function, or None."""
    kind, value = gradient_function(op)
    return value if kind == "python" else None


def gradient_function(op: Any) -> Tuple[str, Any]:
    """How tf.gradients differentiates `op` (honouring `_gradient_op_type`)."""
    if op._op_def.grad_error is not None:
        raise op._op_def.grad_error(op)
    name = op.attrs.get("_gradient_op_type")
    if name is None:
        name = op.type
    elif isinstance(name, bytes):
        name = name.decode()
    function = op._op_def.function
    if function is not None and name == op.type and name not in _USER:
        # A graph function's call op (TF's lookup: the registry, then the function's
        # Python gradient, then its gradient function, else SymbolicGradient: autograd).
        if function.python_grad_func is not None:
            return ("python", function.python_grad_func)
        if function.grad_func is not None:
            return ("python", functools.partial(_call_gradient_function, function.grad_func))
    return lookup_gradient(name)


def _call_gradient_function(grad_func: Any, op: Any, *grads: Any) -> Any:
    """A function's gradient function called on the op's inputs and the gradients of its
    outputs (zeros where an output has none), as TF's SymbolicGradient does with the
    library's GradientDef."""
    from tf1compat.framework.graph import get_default_graph
    from tf1compat.ops.creation_ops import zeros_like
    grads = [zeros_like(out) if g is None else g for g, out in zip(grads, op.outputs)]
    call = get_default_graph()._apply_op(
        grad_func.call_op_def(), list(op.inputs) + grads,
        {"_disable_call_shape_inference": True}, "SymbolicGradient")
    return list(call.outputs)


def none_input_indices(op_type: str) -> Tuple[int, ...]:
    """Inputs of `op_type` whose TF gradient is always None (its `grad_none_inputs`)."""
    return _op_def.get_op_def(op_type).grad_none_inputs
