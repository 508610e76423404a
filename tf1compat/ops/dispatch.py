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

import functools
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["BINARY", "NOT_SUPPORTED", "UNARY", "UNARY_LIST", "add_dispatch_support",
           "register"]

NOT_SUPPORTED = object()
UNARY = "unary"            # elementwise, first argument the value
BINARY = "binary"          # elementwise, first two arguments the operands (broadcasting)
UNARY_LIST = "unary_list"  # elementwise over a list given first (tf.add_n)

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
    functools.update_wrapper(wrapper, fn)
    return wrapper


def add_dispatch_support(namespace: dict[str, Any], kind: str,
                         names: Iterable[str]) -> None:
    """Rebinds each of `names` in a module's `namespace` to its dispatchable version (run
    at the end of the module, before anything imports those names)."""
    for name in names:
        namespace[name] = _dispatchable(namespace[name], kind)
