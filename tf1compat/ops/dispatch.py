"""Dispatch of `tf.*` functions given composite values (TF 1.15's util/dispatch.py, as
ragged_dispatch uses it): a function made dispatchable here runs as before; only when it
raises TypeError or ValueError (what converting a RaggedTensor to a Tensor raises) is the
handler registered for its kind asked, and that handler answers NOT_SUPPORTED unless an
argument is a composite it implements (a RaggedTensor). Dense calls pay one Python call
frame and no check.

The ops layer marks its functions (`add_dispatch_support(globals(), kind, names)` once per
module); the layers above it (tf1compat/ragged/) fill the registry with `register`, so
folders keep importing downward.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tf1compat.util import tf_decorator

__all__ = ["BINARY", "MATH_BINARY", "MATH_FUNCTIONS", "MATH_UNARY", "NOT_SUPPORTED", "UNARY",
           "UNARY_LIST", "WRAPPER_CODE", "add_dispatch_support", "register"]

NOT_SUPPORTED = object()
UNARY = "unary"            # elementwise, first argument the value
BINARY = "binary"          # elementwise, first two arguments the operands (broadcasting)
UNARY_LIST = "unary_list"  # elementwise over a list given first (tf.add_n)

# The elementwise functions of ops/math_ops.py that TF 1.15's (and TF 2.21's)
# ragged_dispatch registers: their handlers are in tf1compat/ragged/ragged_math.py.
MATH_UNARY = (
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "cast", "ceil", "conj", "cos",
    "cosh", "digamma", "erf", "erfc", "exp", "expm1", "floor", "invert", "is_finite",
    "is_inf", "is_nan", "lgamma", "log", "log1p", "logical_not", "negative", "reciprocal",
    "rint", "round_", "rsqrt", "saturate_cast", "sigmoid", "sign", "sin", "sinh", "sqrt",
    "square", "tan", "tanh")
MATH_BINARY = (
    "add", "atan2", "bitwise_and", "bitwise_or", "bitwise_xor", "div", "div_no_nan",
    "divide", "equal", "floordiv", "floor_div", "floor_mod", "greater", "greater_equal",
    "left_shift", "less", "less_equal", "logical_and", "logical_or", "logical_xor",
    "maximum", "minimum", "mod", "multiply", "not_equal", "pow", "real_div", "right_shift",
    "squared_difference", "subtract", "truediv", "truncate_div", "truncate_mod")
MATH_FUNCTIONS = {UNARY: MATH_UNARY, BINARY: MATH_BINARY, UNARY_LIST: ("add_n",)}

# kind (UNARY, BINARY, UNARY_LIST, or a function's own name such as "reduce_sum") ->
# handler(original function, args, kwargs) -> result or NOT_SUPPORTED.
_HANDLERS: dict[str, Callable[[Callable[..., Any], tuple, dict], Any]] = {}


def register(kind: str, handler: Callable[[Callable[..., Any], tuple, dict], Any]) -> None:
    """Makes `handler` answer the dispatchable functions of `kind` that fail on their
    arguments."""
    _HANDLERS[kind] = handler


def _dispatchable(fn: Callable[..., Any], kind: str) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError):
            handler = _HANDLERS.get(kind)
            if handler is None:
                raise
            result = handler(fn, args, kwargs)
            if result is NOT_SUPPORTED:
                raise
            return result
    # As TF's add_dispatch_support: a TFDecorator, so tf_inspect reads `fn`'s arguments.
    return tf_decorator.make_decorator(fn, wrapper, "add_dispatch_support")


# The code of every dispatch wrapper: frame readers that look at a function's caller
# (Keras' op-layer recording reads the call instruction) look past it.
WRAPPER_CODE = _dispatchable(lambda: None, UNARY).__code__


def add_dispatch_support(namespace: dict[str, Any], kind: str,
                         names: Iterable[str]) -> None:
    """Rebinds each of `names` in a module's `namespace` to its dispatchable version (run
    at the end of the module, before anything imports those names)."""
    for name in names:
        namespace[name] = _dispatchable(namespace[name], kind)
