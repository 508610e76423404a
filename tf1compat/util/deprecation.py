"""TF's deprecation decorators (`tensorflow.python.util.deprecation`, re-exported as
`tf.contrib.framework.deprecated` / `deprecated_args` / `deprecated_arg_values`).

Each logs TF's warning through the "tensorflow" logger when the decorated function is
called (with a deprecated argument or value): "From <caller file>:<line>: [calling]
<qualified name> (from <module>) [with <arg>] is deprecated and will be removed <after
date | in a future version>.\\nInstructions for updating:\\n<instructions>", once per
function (and argument) unless `warn_once=False`, and edits the docstring as TF does (a
suffix on the first line and a "Deprecated: ..." notice after it). A deprecated class
has its constructor wrapped.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import inspect
import re
import sys
from typing import Any, Callable, Dict, Iterator, List, Optional

from tf1compat.util import tf_decorator, tf_inspect, tf_logging

__all__ = ["deprecated", "deprecated_args", "deprecated_arg_values", "silence"]

# Which functions (or (function, argument) pairs) have warned already.
_PRINTED_WARNING: Dict[Any, bool] = {}
_PRINT_DEPRECATION_WARNINGS = True

DeprecatedArgSpec = collections.namedtuple("DeprecatedArgSpec",
                                           ["position", "has_ok_value", "ok_value"])


@contextlib.contextmanager
def silence() -> Iterator[None]:
    """No deprecation warnings inside the block."""
    global _PRINT_DEPRECATION_WARNINGS
    saved, _PRINT_DEPRECATION_WARNINGS = _PRINT_DEPRECATION_WARNINGS, False
    try:
        yield
    finally:
        _PRINT_DEPRECATION_WARNINGS = saved


def _validate(date: Optional[str], instructions: Optional[str]) -> None:
    if date is not None and not re.match(r"20\d\d-[01]\d-[0123]\d", date):
        raise ValueError(f"Date must be in format YYYY-MM-DD. Received: {date}")
    if not instructions:
        raise ValueError("Don't deprecate things without conversion instructions! Specify "
                         "the `instructions` argument.")


def _validate_callable(func: Any, decorator_name: str) -> None:
    if not hasattr(func, "__call__"):
        raise ValueError("%s is not a function. If this is a property, make sure @property "
                         "appears before @%s in your source code:\n\n@property\n@%s\n"
                         "def method(...)" % (func, decorator_name, decorator_name))


def _when(date: Optional[str]) -> str:
    return "in a future version" if date is None else "after %s" % date


def _caller() -> str:
    """"file:line" of the code that called the deprecated function (two frames up from
    the wrapper that calls this)."""
    frame = sys._getframe(2)
    return "{}:{}".format(frame.f_code.co_filename, frame.f_lineno)


def _normalize_docstring(doc: str) -> str:
    """PEP 257's trim: tabs expanded, common indentation (not the first line's) and
    leading / trailing blank lines removed."""
    lines = doc.expandtabs().splitlines()
    indents = [len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()]
    indent = min(indents) if indents else 0
    trimmed = [lines[0].strip()] + [line[indent:].rstrip() for line in lines[1:]]
    while trimmed and not trimmed[-1]:
        trimmed.pop()
    while trimmed and not trimmed[0]:
        trimmed.pop(0)
    return "\n".join(trimmed)


def _notice_docstring(doc: Optional[str], instructions: str, no_doc: str, suffix: str,
                      notice: List[str]) -> str:
    """`doc` with `suffix` on its first line and the notice lines (then the
    instructions) after it; `no_doc` followed by the notice when there is no doc."""
    lines = _normalize_docstring(doc).splitlines() if doc else []
    if lines:
        lines[0] += " " + suffix
    else:
        lines = [no_doc]
    block = ["", "Deprecated: " + notice[0]] + notice[1:] + [instructions]
    if len(lines) > 1:
        if lines[1].strip():  # keep a blank line before the body
            block.append("")
        lines[1:1] = block
    else:
        lines += block
    return "\n".join(lines)


def _warn(message: str, *args: Any) -> None:
    tf_logging.warning(message, *args)


def _qualified_name(func: Any) -> str:
    return getattr(func, "__qualname__", func.__name__)


def deprecated(date: Optional[str], instructions: str,
               warn_once: bool = True) -> Callable[[Any], Any]:
    """Decorator: calling the function (or constructing the class) logs that it is
    deprecated; `date` is None or "YYYY-MM-DD"."""
    _validate(date, instructions)

    def decorate(func_or_class: Any) -> Any:
        cls = func_or_class if isinstance(func_or_class, type) else None
        constructor = None
        func = func_or_class
        if cls is not None:
            constructor = "__init__" if cls.__new__ is object.__new__ else "__new__"
            func = getattr(cls, constructor)
            if constructor == "__init__" and any(
                    d.decorator_name == "deprecated" for d in tf_decorator.unwrap(func)[0]):
                return cls  # a deprecated parent's constructor already warns
        _validate_callable(func, "deprecated")

        def new_func(*args: Any, **kwargs: Any) -> Any:
            if (_PRINT_DEPRECATION_WARNINGS and func not in _PRINTED_WARNING
                    and cls not in _PRINTED_WARNING):
                if warn_once:
                    _PRINTED_WARNING[func] = True
                    if cls is not None:
                        _PRINTED_WARNING[cls] = True
                _warn("From %s: %s (from %s) is deprecated and will be removed %s.\n"
                      "Instructions for updating:\n%s", _caller(), _qualified_name(func),
                      func_or_class.__module__, _when(date), instructions)
            return func(*args, **kwargs)

        doc = _function_notice(func.__doc__, date, instructions)
        wrapped = tf_decorator.make_decorator(func, new_func, "deprecated", doc)
        wrapped.__signature__ = inspect.signature(func)
        if cls is None:
            return wrapped
        setattr(cls, constructor, wrapped)
        cls.__doc__ = _function_notice(cls.__doc__, date, instructions)
        return cls
    return decorate


def _function_notice(doc: Optional[str], date: Optional[str], instructions: str) -> str:
    return _notice_docstring(doc, instructions, "DEPRECATED FUNCTION", "(deprecated)",
                             ["THIS FUNCTION IS DEPRECATED. It will be removed %s."
                              % _when(date), "Instructions for updating:"])


def _same_value(a: Any, b: Any) -> bool:
    """Equality that is False where `==` fails or gives no plain bool (arrays, frames)."""
    if a is b:
        return True
    try:
        equal = a == b
    except TypeError:
        return False
    return equal if isinstance(equal, bool) else False


def deprecated_args(date: Optional[str], instructions: str, *deprecated_arg_names_or_tuples: Any,
                    **kwargs: Any) -> Callable[[Callable], Callable]:
    """Decorator: passing any of the named arguments (a name, or `(name, ok_value)`
    whose value `ok_value` does not warn) logs that it is deprecated."""
    _validate(date, instructions)
    if not deprecated_arg_names_or_tuples:
        raise ValueError("Specify which argument is deprecated.")
    if kwargs and list(kwargs) != ["warn_once"]:
        kwargs.pop("warn_once", None)
        raise ValueError(f"Illegal argument passed to deprecated_args: {kwargs}")
    warn_once = kwargs.get("warn_once", True)
    specs = {}
    for item in deprecated_arg_names_or_tuples:
        if isinstance(item, tuple):
            specs[item[0]] = DeprecatedArgSpec(-1, True, item[1])
        else:
            specs[item] = DeprecatedArgSpec(-1, False, None)

    def decorate(func: Callable) -> Callable:
        _validate_callable(func, "deprecated_args")
        spec = tf_inspect.getfullargspec(func)
        positions = {name: pos for pos, name in enumerate(spec.args + spec.kwonlyargs)}
        named = {name: DeprecatedArgSpec(positions[name], s.has_ok_value, s.ok_value)
                 for name, s in specs.items() if name in positions}
        varargs_deprecated = spec.varargs in specs
        varkw_deprecated = spec.varkw in specs
        if (len(named) + varargs_deprecated + varkw_deprecated
                != len(deprecated_arg_names_or_tuples)):
            known = spec.args + spec.kwonlyargs + [spec.varargs, spec.varkw]
            missing = [name for name in specs if name not in known]
            raise ValueError("The following deprecated arguments are not present in the "
                             f"function signature: {missing}. Expected arguments from the "
                             f"following list: {known}.")

        def ok(name: str, values: Dict[str, Any]) -> bool:
            return named[name].has_ok_value and _same_value(values[name], named[name].ok_value)

        @functools.wraps(func)
        def new_func(*args: Any, **kw: Any) -> Any:
            if _PRINT_DEPRECATION_WARNINGS:
                values = tf_inspect.getcallargs(func, *args, **kw)
                used = [name for name, s in named.items()
                        if s.position < len(args) and not ok(name, values)]
                if varargs_deprecated and len(args) > len(spec.args):
                    used.append(spec.varargs)
                if varkw_deprecated and kw:
                    used.append(spec.varkw)
                used += [name for name in specs if name in kw and not ok(name, values)]
                for name in used:
                    if (func, name) in _PRINTED_WARNING:
                        continue
                    if warn_once:
                        _PRINTED_WARNING[(func, name)] = True
                    _warn("From %s: calling %s (from %s) with %s is deprecated and will be "
                          "removed %s.\nInstructions for updating:\n%s", _caller(),
                          _qualified_name(func), func.__module__, name, _when(date),
                          instructions)
            return func(*args, **kw)

        doc = _notice_docstring(
            func.__doc__, instructions, "DEPRECATED FUNCTION ARGUMENTS",
            "(deprecated arguments)",
            ["SOME ARGUMENTS ARE DEPRECATED: `(%s)`. They will be removed %s."
             % (", ".join(sorted(specs)), _when(date)), "Instructions for updating:"])
        return tf_decorator.make_decorator(func, new_func, "deprecated", doc)
    return decorate


def deprecated_arg_values(date: Optional[str], instructions: str, warn_once: bool = True,
                          **deprecated_kwargs: Any) -> Callable[[Callable], Callable]:
    """Decorator: calling the function with one of the given `name=value` pairs logs
    that the value is deprecated."""
    _validate(date, instructions)
    if not deprecated_kwargs:
        raise ValueError("Specify which argument values are deprecated.")

    def decorate(func: Callable) -> Callable:
        _validate_callable(func, "deprecated_arg_values")

        @functools.wraps(func)
        def new_func(*args: Any, **kwargs: Any) -> Any:
            if _PRINT_DEPRECATION_WARNINGS:
                values = tf_inspect.getcallargs(func, *args, **kwargs)
                for name, value in deprecated_kwargs.items():
                    given = values.get(name, _MISSING)
                    if given is _MISSING or not _none_safe_equal(given, value):
                        continue
                    if (func, name) in _PRINTED_WARNING:
                        continue
                    if warn_once:
                        _PRINTED_WARNING[(func, name)] = True
                    _warn("From %s: calling %s (from %s) with %s=%s is deprecated and will "
                          "be removed %s.\nInstructions for updating:\n%s", _caller(),
                          _qualified_name(func), func.__module__, name, value, _when(date),
                          instructions)
            return func(*args, **kwargs)

        listed = ", ".join("%s=%r" % item for item in sorted(deprecated_kwargs.items()))
        doc = _notice_docstring(
            func.__doc__, instructions, "DEPRECATED FUNCTION ARGUMENT VALUES",
            "(deprecated argument values)",
            ["SOME ARGUMENT VALUES ARE DEPRECATED: `(%s)`. They will be removed %s."
             % (listed, _when(date)), "Instructions for updating:"])
        return tf_decorator.make_decorator(func, new_func, "deprecated", doc)
    return decorate


_MISSING = object()


def _none_safe_equal(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a == b
