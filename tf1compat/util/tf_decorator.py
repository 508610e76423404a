"""`tf.flags.tf_decorator` (TF's `tensorflow.python.util.tf_decorator`): decorators that
keep the decorated function introspectable.

`make_decorator(target, wrapper)` gives `wrapper` the target's name, qualified name,
module, attributes, signature and `__wrapped__`, and records a `TFDecorator` on it
(`wrapper._tf_decorator`); `unwrap` walks such a chain down to the undecorated target;
`rewrap` replaces one target inside a chain.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, List, Optional, Tuple

__all__ = ["TFDecorator", "make_decorator", "rewrap", "unwrap", "fullargspec_to_signature"]


def _defaults(spec: inspect.FullArgSpec) -> Dict[str, Any]:
    values: Dict[str, Any] = {}
    if spec.defaults:
        values.update(zip(spec.args[len(spec.args) - len(spec.defaults):], spec.defaults))
    values.update(spec.kwonlydefaults or {})
    return values


def fullargspec_to_signature(fullargspec: inspect.FullArgSpec) -> inspect.Signature:
    """The `inspect.Signature` a FullArgSpec describes."""
    P = inspect.Parameter
    defaults = _defaults(fullargspec)
    params = [P(a, P.POSITIONAL_OR_KEYWORD, default=defaults.get(a, P.empty))
              for a in fullargspec.args]
    if fullargspec.varargs is not None:
        params.append(P(fullargspec.varargs, P.VAR_POSITIONAL))
    params += [P(a, P.KEYWORD_ONLY, default=defaults.get(a, P.empty))
               for a in fullargspec.kwonlyargs]
    if fullargspec.varkw is not None:
        params.append(P(fullargspec.varkw, P.VAR_KEYWORD))
    return inspect.Signature(params)


def _signature_of(target: Any, argspec: Optional[inspect.FullArgSpec]
                  ) -> Optional[inspect.Signature]:
    if argspec:
        return fullargspec_to_signature(argspec)
    if callable(target):
        try:
            return inspect.signature(target)
        except (TypeError, ValueError):       # builtins without a signature
            return None
    return None


class TFDecorator:
    """What a decorator made by `make_decorator` records: its name, doc, argspec and the
    callable it decorates (calling it calls that target)."""

    def __init__(self, decorator_name: str, target: Any, decorator_doc: str = "",
                 decorator_argspec: Optional[inspect.FullArgSpec] = None):
        self._decorated_target = target
        self._decorator_name = decorator_name
        self._decorator_doc = decorator_doc
        self._decorator_argspec = decorator_argspec
        for attr in ("__name__", "__qualname__"):
            if hasattr(target, attr):
                setattr(self, attr, getattr(target, attr))
        self.__doc__ = decorator_doc or getattr(target, "__doc__", None) or ""
        signature = _signature_of(target, decorator_argspec)
        if signature is not None:
            self.__signature__ = signature

    def __get__(self, instance: Any, owner: Any) -> Any:
        return self._decorated_target.__get__(instance, owner)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._decorated_target(*args, **kwargs)

    @property
    def decorated_target(self) -> Any:
        return self._decorated_target

    @decorated_target.setter
    def decorated_target(self, target: Any) -> None:
        self._decorated_target = target

    @property
    def decorator_name(self) -> str:
        return self._decorator_name

    @property
    def decorator_doc(self) -> str:
        return self._decorator_doc

    @property
    def decorator_argspec(self) -> Optional[inspect.FullArgSpec]:
        return self._decorator_argspec


def _recorded(obj: Any) -> Optional[TFDecorator]:
    found = getattr(obj, "_tf_decorator", None)
    return found if isinstance(found, TFDecorator) else None


def make_decorator(target: Any, decorator_func: Callable, decorator_name: Optional[str] = None,
                   decorator_doc: str = "",
                   decorator_argspec: Optional[inspect.FullArgSpec] = None) -> Callable:
    """`decorator_func` dressed as `target` (see the module docstring); the decorator's
    name defaults to the function calling make_decorator."""
    if decorator_name is None:
        decorator_name = inspect.currentframe().f_back.f_code.co_name
    record = TFDecorator(decorator_name, target, decorator_doc, decorator_argspec)
    decorator_func._tf_decorator = record
    for attr in ("__name__", "__qualname__", "__module__"):
        if hasattr(target, attr):
            setattr(decorator_func, attr, getattr(target, attr))
    for key, value in getattr(target, "__dict__", {}).items():
        decorator_func.__dict__.setdefault(key, value)
    if hasattr(target, "__doc__"):
        decorator_func.__doc__ = record.__doc__
    decorator_func.__wrapped__ = target
    decorator_func.__original_wrapped__ = target
    signature = _signature_of(target, decorator_argspec)
    if signature is not None:
        if not decorator_argspec:
            instance = _bound_instance(target)
            if instance is not None and "self" in signature.parameters:
                signature = signature.replace(
                    parameters=list(signature.parameters.values())[1:])
                decorator_func.__self__ = instance
        decorator_func.__signature__ = signature
    return decorator_func


def _bound_instance(target: Any) -> Any:
    """The object a method somewhere in the chain of `target` is bound to."""
    for record in unwrap(target)[0]:
        if inspect.ismethod(record.decorated_target):
            return record.decorated_target.__self__
    return None


def rewrap(decorator_func: Callable, previous_target: Any, new_target: Any) -> Any:
    """Replaces `previous_target` by `new_target` in the chain of `decorator_func` (which
    must call its `__wrapped__`); returns `decorator_func`, or `new_target` when
    `decorator_func` is `previous_target` itself."""
    holder, record, current = None, None, decorator_func
    while _recorded(current) is not None:
        holder, record = current, _recorded(current)
        if record.decorated_target is previous_target:
            break
        current = record.decorated_target
    if holder is None:
        return new_target
    record.decorated_target = new_target
    getattr(holder, "__func__", holder).__wrapped__ = new_target
    return decorator_func


def unwrap(maybe_tf_decorator: Any) -> Tuple[List[TFDecorator], Any]:
    """([TFDecorators, outermost first], the undecorated target)."""
    records: List[TFDecorator] = []
    current = maybe_tf_decorator
    while True:
        record = current if isinstance(current, TFDecorator) else _recorded(current)
        if record is None:
            return records, current
        records.append(record)
        current = record.decorated_target
