"""The gradient registry: `tf.RegisterGradient`, `tf.NotDifferentiable`, and TF's facts.

TF keeps one registry of gradient functions by name. Here autograd differentiates the
declared ops, so the registry holds only what Python code adds (`RegisterGradient`,
`NotDifferentiable`) plus tables of what real TF's gradient functions do that an op's
declaration does not say: op types TF has no gradient for at all (LookupError), op types
whose gradient is None for some float inputs, and op types TF marks not differentiable.

`gradient_function(op)` answers, for one graph op, what tf.gradients must do with it:

* `("autograd", type)`: torch autograd differentiates the op's kernel (`type` is the op
  type whose kernel defines the gradient: the op's own, or a builtin named by
  `gradient_override_map`, e.g. `{"Round": "Identity"}`);
* `("python", fn)`: a registered Python gradient function builds the gradient graph;
* `("none", None)`: not differentiable, all input gradients are None.

It raises LookupError where TF does.
"""

from __future__ import annotations

import threading
import traceback
from typing import Any, Callable, Dict, FrozenSet, Optional, Tuple

from tf1compat.framework import op_def as _op_def

__all__ = ["RegisterGradient", "NotDifferentiable", "no_gradient", "gradient_function",
           "none_input_indices", "get_gradient_function", "lookup_gradient"]

_lock = threading.Lock()
# name -> (fn or None, where it was registered)
_USER: Dict[str, Tuple[Optional[Callable[..., Any]], str]] = {}

# Op types TF has no gradient registered for: tf.gradients raises LookupError when one is
# on the path with an incoming gradient.
TF_LOOKUP_ERROR_TYPES: FrozenSet[str] = frozenset({
    "All", "Any", "BroadcastArgs", "IsFinite", "IsInf", "IsNan", "NoOp", "Placeholder",
    "RandomUniformInt", "Snapshot", "TruncateMod", "Unique", "Where", "VariableV2",
    "VarHandleOp",
    "ResizeArea", "AdjustContrastv2",   # tf.image ops without a TF gradient
    "DenseBincount", "SoftsignGrad", "DecodeCSV", "ParseExampleV2", "ParseSequenceExampleV2",
    "SparseReduceMax", "SparseReduceMaxSparse", "SparseReduceSumSparse", "SparseSplit",
})

# Op types TF declares NotDifferentiable that tf1compat declares with grad="autograd".
TF_NOT_DIFFERENTIABLE_TYPES: FrozenSet[str] = frozenset({
    "OneHot", "FloorDiv", "TruncateDiv", "PyFunc", "PyFuncStateless", "SparseConcat",
})

# Op types whose TF gradient function returns None for some inputs that may be float
# (integer and bool inputs never receive gradients anyway): type -> input indices.
TF_NONE_INPUTS: Dict[str, FrozenSet[int]] = {
    "PadV2": frozenset({2}),
    "FusedBatchNormV3": frozenset({3, 4}),     # the population mean and variance
}


def _where() -> str:
    frame = traceback.extract_stack(limit=4)[0]
    return f"{frame.name} {frame.filename}:{frame.lineno}"


def _builtin_has_gradient(name: str) -> bool:
    """Whether TF itself registers a gradient (or NotDifferentiable) under `name`."""
    try:
        _op_def.get_op_def(name)
    except NotImplementedError:
        return False
    return name not in TF_LOOKUP_ERROR_TYPES


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


def lookup_gradient(name: str) -> Tuple[str, Any]:
    """What the gradient registered under `name` is (see the module docstring)."""
    user = _USER.get(name)
    if user is not None:
        fn = user[0]
        return ("none", None) if fn is None else ("python", fn)
    if name in TF_LOOKUP_ERROR_TYPES:
        raise LookupError(f"gradient registry has no entry for: {name}")
    try:
        od = _op_def.get_op_def(name)
    except NotImplementedError:
        raise LookupError(f"gradient registry has no entry for: {name}") from None
    if od.grad == "none" or name in TF_NOT_DIFFERENTIABLE_TYPES:
        return ("none", None)
    return ("autograd", name)


def get_gradient_function(op: Any) -> Optional[Callable[..., Any]]:
    """TF's `ops.get_gradient_function`: the registered Python function, or None."""
    kind, value = gradient_function(op)
    return value if kind == "python" else None


def gradient_function(op: Any) -> Tuple[str, Any]:
    """How tf.gradients differentiates `op` (honouring `_gradient_op_type`)."""
    if op._type == "PreventGradient":
        message = op.get_attr("message")
        raise LookupError(f"Gradient explicitly disabled. Reason: {message}")
    name = op._attrs.get("_gradient_op_type")
    if name is None:
        name = op._type
    elif isinstance(name, bytes):
        name = name.decode()
    return lookup_gradient(name)


def none_input_indices(op_type: str) -> FrozenSet[int]:
    """Inputs of `op_type` whose TF gradient is always None."""
    return TF_NONE_INPUTS.get(op_type, frozenset())
