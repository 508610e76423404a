"""`tf.Module`: a named container of variables and sub-modules.

As TF's: the name defaults to the class name in snake_case and must be a Python
identifier; `name_scope` is the scope opened once at construction (uniquified like any
name scope, reused by `with_name_scope`); `variables`, `trainable_variables` and
`submodules` walk the object's attributes (sorted by name, through lists, tuples and
dicts) and return tuples without duplicates. Modules are trackable, so a
`tf.train.Checkpoint` saves their variables under their attribute names.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, Iterator, List, Optional, Tuple

from tf1compat.framework.graph import name_scope as _name_scope
from tf1compat.training.saving.tracking import AutoTrackable

__all__ = ["Module"]

_CAMEL_TO_SNAKE = (re.compile(r"(.)([A-Z][a-z0-9]+)"), re.compile(r"([a-z])([A-Z])"))


def _camel_to_snake(name: str) -> str:
    name = _CAMEL_TO_SNAKE[0].sub(r"\1_\2", name)
    return _CAMEL_TO_SNAKE[1].sub(r"\1_\2", name).lower()


class _ReenteringScope:
    """A name scope opened once and re-entered by name (TF's `Module.name_scope`)."""

    def __init__(self, scope_name: str):
        self.name = scope_name

    def __enter__(self) -> str:
        self._scope = _name_scope(self.name)
        return self._scope.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        return self._scope.__exit__(*exc)


class Module(AutoTrackable):
    """`tf.Module`: see the module docstring."""

    _TF_MODULE_IGNORED_PROPERTIES = frozenset({"_self_unconditional_checkpoint_dependencies",
                                               "_self_unconditional_dependency_names"})

    def __init__(self, name: Optional[str] = None):
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not name.isidentifier():
            raise ValueError(f"{name!r} is not a valid module name. Module names must be "
                             "valid Python identifiers (e.g. a valid class name).")
        object.__setattr__(self, "_name", name)
        with _name_scope(name) as scope_name:
            object.__setattr__(self, "_scope", _ReenteringScope(scope_name))

    @property
    def name(self) -> str:
        return self._name

    @property
    def name_scope(self) -> _ReenteringScope:
        """The scope opened at construction; `with module.name_scope:` re-enters it."""
        return self._scope

    @property
    def variables(self) -> Tuple[Any, ...]:
        """Variables of this module and its sub-modules, sorted by attribute name."""
        from tf1compat.variables.variables import Variable
        return tuple(self._flatten(predicate=lambda v: isinstance(v, Variable)))

    @property
    def trainable_variables(self) -> Tuple[Any, ...]:
        from tf1compat.variables.variables import Variable
        return tuple(self._flatten(predicate=lambda v: isinstance(v, Variable) and
                                   v.trainable))

    @property
    def non_trainable_variables(self) -> Tuple[Any, ...]:
        from tf1compat.variables.variables import Variable
        return tuple(self._flatten(predicate=lambda v: isinstance(v, Variable) and
                                   not v.trainable))

    @property
    def submodules(self) -> Tuple["Module", ...]:
        """Every module reachable from this one's attributes (not itself)."""
        return tuple(self._flatten(predicate=lambda v: isinstance(v, Module)))

    def _flatten(self, recursive: bool = True,
                 predicate: Optional[Callable[[Any], bool]] = None) -> Iterator[Any]:
        """Attribute values (and values nested in them) matching `predicate`."""
        predicate = predicate or (lambda _: True)
        seen: List[int] = [id(self)]
        found: List[int] = []
        yield from _walk(self, recursive, predicate, seen, found)

    @classmethod
    def with_name_scope(cls, method: Callable[..., Any]) -> Callable[..., Any]:
        """Decorator: the method runs inside the module's name scope."""
        @functools.wraps(method)
        def wrapped(self: "Module", *args: Any, **kwargs: Any) -> Any:
            with self.name_scope:
                return method(self, *args, **kwargs)
        return wrapped

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__name__} object at {id(self):#x}>"


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for key in sorted(value, key=str):
            yield from _leaves(value[key])
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _walk(module: Module, recursive: bool, predicate: Callable[[Any], bool],
          seen: List[int], found: List[int]) -> Iterator[Any]:
    submodules: List[Module] = []
    attrs = vars(module)
    for key in sorted(attrs):
        if key in Module._TF_MODULE_IGNORED_PROPERTIES or key.startswith("_tf1compat"):
            continue
        for leaf in _leaves(attrs[key]):
            if predicate(leaf) and id(leaf) not in found:
                found.append(id(leaf))
                yield leaf
            if recursive and isinstance(leaf, Module) and id(leaf) not in seen:
                seen.append(id(leaf))
                submodules.append(leaf)
    for sub in submodules:
        yield from _walk(sub, recursive, predicate, seen, found)
