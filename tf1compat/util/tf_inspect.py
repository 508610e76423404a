"""`tensorflow.python.util.tf_inspect`: `inspect` that sees through TF decorators.

Libraries written against TF 1.x (Sonnet v1's `supports_kwargs`, `reuse_variables`) ask
for a callable's argument spec through this module, so a function wrapped by
`tf_decorator.make_decorator` reports the spec its outermost decorator records (or the
undecorated target's) rather than the wrapper's `*args, **kwargs`. `getargspec` returns
TF's four-field `ArgSpec` (`keywords` for `**kwargs`), which Python 3.11 no longer has.
"""

from __future__ import annotations

import collections
import functools
import inspect as _inspect
from typing import Any, Dict

from tf1compat.util import tf_decorator

__all__ = ["ArgSpec", "FullArgSpec", "Parameter", "Signature", "currentframe", "getargspec",
           "getfullargspec", "getcallargs", "getframeinfo", "getdoc", "getfile", "getmembers",
           "getmodule", "getmro", "getsource", "getsourcefile", "getsourcelines",
           "isbuiltin", "isclass", "isfunction", "isframe", "isgenerator",
           "isgeneratorfunction", "ismethod", "ismodule", "isroutine", "signature", "stack"]

ArgSpec = collections.namedtuple("ArgSpec", ["args", "varargs", "keywords", "defaults"])
FullArgSpec = _inspect.FullArgSpec
Parameter = _inspect.Parameter
Signature = _inspect.Signature


def _as_fullargspec(spec: Any) -> FullArgSpec:
    if isinstance(spec, FullArgSpec):
        return spec
    return FullArgSpec(args=spec.args, varargs=spec.varargs, varkw=spec.keywords,
                       defaults=spec.defaults, kwonlyargs=[], kwonlydefaults=None,
                       annotations={})


def _argspec_of(target: Any) -> ArgSpec:
    full = getfullargspec(target)
    return ArgSpec(args=full.args, varargs=full.varargs, keywords=full.varkw,
                   defaults=full.defaults)


def currentframe() -> Any:
    """The caller's frame."""
    return _inspect.stack()[1][0]


def getargspec(obj: Any) -> ArgSpec:
    """The `ArgSpec` of the outermost decorator that records one, else of the undecorated
    callable (a class: its `__init__` or `__new__`; an object: its `__call__`);
    `functools.partial` drops the bound positionals and takes its keywords as defaults.
    ValueError when the partial's defaults cannot be written as an ArgSpec."""
    if isinstance(obj, functools.partial):
        return _argspec_of_partial(obj)
    decorators, target = tf_decorator.unwrap(obj)
    spec = next((d.decorator_argspec for d in decorators
                 if d.decorator_argspec is not None), None)
    if spec is not None:
        full = _as_fullargspec(spec)
        return ArgSpec(full.args, full.varargs, full.varkw, full.defaults)
    try:
        return _argspec_of(target)
    except TypeError:
        pass
    if isinstance(target, type):
        for method in (target.__init__, target.__new__):
            try:
                return _argspec_of(method)
            except TypeError:
                pass
    return _argspec_of(type(target).__call__)


def _argspec_of_partial(obj: functools.partial) -> ArgSpec:
    args, varargs, keywords, defaults = getargspec(obj.func)
    args = args[len(obj.args):]
    missing = object()
    all_defaults = [missing] * len(args)
    if defaults:
        all_defaults[-len(defaults):] = defaults
    for kw, default in (obj.keywords or {}).items():
        if kw in args:
            all_defaults[args.index(kw)] = default
        elif not keywords:
            raise ValueError("Function does not have **kwargs parameter, but contains an "
                             "unknown partial keyword.")
    first = next((i for i, x in enumerate(all_defaults) if x is not missing), None)
    if first is None:
        return ArgSpec(args, varargs, keywords, None)
    invalid = [args[i] for i, x in enumerate(all_defaults) if x is missing and i > first]
    if invalid:
        raise ValueError(f"Some arguments {invalid} do not have default value, but they are "
                         "positioned after those with default values. This can not be "
                         "expressed with ArgSpec.")
    return ArgSpec(args, varargs, keywords, tuple(all_defaults[first:]))


def getfullargspec(obj: Any) -> FullArgSpec:
    """The `FullArgSpec` of the outermost decorator that records one, else
    `inspect.getfullargspec` of the undecorated callable."""
    decorators, target = tf_decorator.unwrap(obj)
    for d in decorators:
        if d.decorator_argspec is not None:
            return _as_fullargspec(d.decorator_argspec)
    spec = _inspect.getfullargspec(target)
    if spec.annotations and getattr(target, "__module__", "").startswith("tf1compat"):
        # TF's own functions carry no annotations, and libraries compare specs with their
        # own functions' (TFP's prefer_static checks each static twin against TF's op).
        spec = spec._replace(annotations={})
    return spec


def getcallargs(*func_and_positional: Any, **named: Any) -> Dict[str, Any]:
    """The values `func(*positional, **named)` binds to `func`'s named arguments (defaults
    included), read through decorators."""
    func, positional = func_and_positional[0], func_and_positional[1:]
    spec = getfullargspec(func)
    call_args = dict(named)
    this = getattr(func, "__self__", None)
    if ismethod(func) and this:
        positional = (this,) + positional
    remaining = [a for a in spec.args if a not in call_args]
    call_args.update(zip(remaining, positional))
    if spec.defaults:
        for arg, value in zip(spec.args[-len(spec.defaults):], spec.defaults):
            call_args.setdefault(arg, value)
    for k, v in (spec.kwonlydefaults or {}).items():
        call_args.setdefault(k, v)
    return call_args


def _unwrapped(name: str) -> Any:
    fn = getattr(_inspect, name)

    @functools.wraps(fn)
    def wrapper(obj: Any, *args: Any, **kwargs: Any) -> Any:
        return fn(tf_decorator.unwrap(obj)[1], *args, **kwargs)
    return wrapper


getdoc = _unwrapped("getdoc")
getfile = _unwrapped("getfile")
getmembers = _unwrapped("getmembers")
getmodule = _unwrapped("getmodule")
getsource = _unwrapped("getsource")
getsourcefile = _unwrapped("getsourcefile")
getsourcelines = _unwrapped("getsourcelines")
isbuiltin = _unwrapped("isbuiltin")
isclass = _unwrapped("isclass")
isfunction = _unwrapped("isfunction")
isframe = _unwrapped("isframe")
isgenerator = _unwrapped("isgenerator")
isgeneratorfunction = _unwrapped("isgeneratorfunction")
ismethod = _unwrapped("ismethod")
ismodule = _unwrapped("ismodule")
isroutine = _unwrapped("isroutine")
signature = _unwrapped("signature")
getframeinfo = _inspect.getframeinfo
getmro = _inspect.getmro
stack = _inspect.stack
