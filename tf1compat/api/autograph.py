"""`tf.autograph`: the parts that mean something without AutoGraph's conversion.

tf1compat has no AutoGraph (converting Python `if`/`for` on tensors into graph ops):
`to_graph` and `to_code` raise NotImplementedError with what to use instead (see
framework/unsupported_api.py). `experimental.do_not_convert` returns the function as it is
(nothing is ever converted), `trace` prints its arguments as TF's does while tracing,
`set_verbosity` sets AutoGraph's log level (its logs are empty here), and
`experimental.set_loop_options` has no effect outside converted code, as in TF.
"""

from __future__ import annotations

import enum
import functools
from typing import Any, Callable, Optional

from tf1compat.framework.missing import attribute_hook as _attribute_hook, missing_attribute

__all__ = ["set_verbosity", "trace", "to_graph", "to_code", "experimental"]

_verbosity = {"level": 0, "alsologtostdout": False}


def set_verbosity(level: int, alsologtostdout: bool = False) -> None:
    """AutoGraph's log level (AUTOGRAPH_VERBOSITY in TF); tf1compat writes no such logs."""
    _verbosity.update(level=int(level), alsologtostdout=bool(alsologtostdout))


def trace(*args: Any) -> None:
    """Prints the arguments (tensors as their graph description), as TF does."""
    print(*args)


def _not_converted(name: str) -> Callable[..., Any]:
    def unsupported(*args: Any, **kwargs: Any) -> Any:
        raise missing_attribute("autograph", name, ())
    unsupported.__name__ = name
    return unsupported


to_graph = _not_converted("to_graph")
to_code = _not_converted("to_code")


class Feature(enum.Enum):
    """AutoGraph's optional conversions (`tf.autograph.experimental.Feature`)."""
    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


def do_not_convert(func: Optional[Callable[..., Any]] = None) -> Any:
    """Marks a function as never converted: it is returned as it is (decorator form too)."""
    if func is None:
        return do_not_convert
    return functools.wraps(func)(lambda *args, **kwargs: func(*args, **kwargs))


def set_loop_options(parallel_iterations: Any = None, swap_memory: Any = None,
                     maximum_iterations: Any = None, shape_invariants: Any = None) -> None:
    """Options for the converted loop around the call; no effect outside converted code."""


class _Experimental:
    """`tf.autograph.experimental`."""
    Feature = Feature
    do_not_convert = staticmethod(do_not_convert)
    set_loop_options = staticmethod(set_loop_options)

    def __getattr__(self, name: str) -> Any:
        raise missing_attribute("autograph.experimental", name, vars(_Experimental))


experimental = _Experimental()
__getattr__ = _attribute_hook("autograph", globals())
