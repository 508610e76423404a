"""Object tracking: named edges between objects, for object-graph checkpoints.

`tf.train.Checkpoint` saves an object graph: each node is a trackable object, each edge a
name (`model` -> `dense` -> `kernel`), each variable a leaf whose value is stored under
`<path>/.ATTRIBUTES/VARIABLE_VALUE`. This module is the protocol the rest of tf1compat
uses to build that graph:

* `Trackable._track_trackable(obj, name)` declares a named dependency (a child node).
  Variables are children too: `layer._track_trackable(kernel_variable, "kernel")`.
* `AutoTrackable` tracks attribute assignment (`self.dense = Dense(2)` adds the edge
  "dense"), wrapping lists and dicts of trackables so their elements are tracked ("0",
  "1", ... or the dict keys), as Keras models and `tf.train.Checkpoint(**kwargs)` do.
* Restore-on-create: a checkpoint restored before some objects exist leaves
  *deferred restorations* on the nearest existing parent (`_defer_restoration`); when the
  parent later tracks a child under that name, the restoration is applied to it
  (`_handle_deferred_dependencies`), so a `Dense(2)` restored before it builds gets the
  checkpointed kernel when `build` creates it.
* `saveables_of(obj)` names the values an object stores itself ({"VARIABLE_VALUE": var}
  for a variable); objects can override `_gather_saveables`.
"""

from __future__ import annotations

import collections
from typing import Any, Dict, Iterator, List, Tuple

__all__ = ["Trackable", "AutoTrackable", "NoDependency", "ListWrapper", "DictWrapper",
           "is_trackable", "is_variable", "saveables_of", "children_of", "VARIABLE_VALUE_KEY"]

VARIABLE_VALUE_KEY = "VARIABLE_VALUE"


def is_variable(obj: Any) -> bool:
    """A tf1compat Variable (ref or resource), which is a leaf of the object graph."""
    from tf1compat.variables.variables import Variable
    return isinstance(obj, Variable)


def is_trackable(obj: Any) -> bool:
    return isinstance(obj, Trackable) or is_variable(obj)


class Trackable:
    """Base of objects with named checkpoint dependencies."""

    def _trackable_state(self) -> Tuple["collections.OrderedDict", Dict[str, list]]:
        state = self.__dict__.get("_tf1compat_tracking")
        if state is None:
            state = (collections.OrderedDict(), {})
            object.__setattr__(self, "_tf1compat_tracking", state)
        return state

    def _track_trackable(self, trackable: Any, name: str, overwrite: bool = False) -> Any:
        """Adds (or with `overwrite` replaces) the dependency `name` -> `trackable`."""
        if not is_trackable(trackable):
            raise TypeError(f"Trackable._track_trackable() passed type {type(trackable)}, not "
                            "a Trackable.")
        children, _ = self._trackable_state()
        current = children.get(name)
        if current is not None and current is not trackable and not overwrite:
            raise ValueError(f"Called Trackable._track_trackable() with name='{name}', but a "
                             "Trackable with this name is already declared as a dependency. "
                             "Names must be unique (or overwrite=True).")
        children[name] = trackable
        self._handle_deferred_dependencies(name, trackable)
        return trackable

    def _untrack(self, name: str) -> None:
        children, _ = self._trackable_state()
        children.pop(name, None)

    def _lookup_dependency(self, name: str) -> Any:
        children, _ = self._trackable_state()
        return children.get(name)

    def _no_dependency(self, value: Any) -> "NoDependency":
        """`value` marked so that assigning it to an attribute tracks nothing (TF's
        AutoTrackable API; TensorFlow Probability keeps its parameter dicts this way)."""
        return NoDependency(value)

    @property
    def _checkpoint_dependencies(self) -> List[Tuple[str, Any]]:
        """The (name, object) edges, in the order they were declared."""
        children, _ = self._trackable_state()
        return list(children.items())

    # -- restore-on-create ---------------------------------------------------------------
    def _defer_restoration(self, name: str, restoration: Any) -> None:
        """Keeps `restoration` until a child named `name` is tracked.

        `restoration` is any object with `restore(child)`; the checkpoint machinery
        supplies it.
        """
        _, deferred = self._trackable_state()
        deferred.setdefault(name, []).append(restoration)

    def _deferred_dependency_names(self) -> List[str]:
        _, deferred = self._trackable_state()
        return list(deferred)

    def _handle_deferred_dependencies(self, name: str, trackable: Any) -> None:
        _, deferred = self._trackable_state()
        for restoration in deferred.pop(name, []):
            restoration.restore(trackable)

    def _gather_saveables(self) -> Dict[str, Any]:
        """Values this object stores itself, by attribute name (none by default)."""
        return {}


def saveables_of(obj: Any) -> Dict[str, Any]:
    if is_variable(obj):
        return {VARIABLE_VALUE_KEY: obj}
    if isinstance(obj, Trackable):
        return obj._gather_saveables()
    return {}


def children_of(obj: Any) -> List[Tuple[str, Any]]:
    if isinstance(obj, Trackable):
        return obj._checkpoint_dependencies
    return []


def _wrap(value: Any) -> Any:
    """Lists/dicts holding trackables become tracked containers; other values stay."""
    if isinstance(value, (ListWrapper, DictWrapper)):
        return value
    if isinstance(value, list) and any(is_trackable(v) or isinstance(v, (list, dict))
                                       for v in value):
        return ListWrapper(value)
    if isinstance(value, dict) and any(is_trackable(v) or isinstance(v, (list, dict))
                                       for v in value.values()):
        return DictWrapper(value)
    return value


class NoDependency:
    """A value to assign to an AutoTrackable's attribute as is, untracked and unwrapped."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value


class AutoTrackable(Trackable):
    """Tracks trackables assigned to attributes under the attribute's name."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_tf1compat") or name in getattr(type(self), "_no_tracking", ()):
            object.__setattr__(self, name, value)
            return
        descriptor = getattr(type(self), name, None)
        if isinstance(descriptor, property) and descriptor.fset is None:
            # TF returns early from `self.x = self.x`, so assigning a read-only property
            # its own value works (TFP's DistributionLambda sets `distribution.shape`)
            try:
                if getattr(self, name) is value:
                    return
            except AttributeError:
                pass
        if isinstance(value, NoDependency):
            self._untrack(name)
            object.__setattr__(self, name, value.value)
            return
        value = _wrap(value)
        if is_trackable(value):
            self._track_trackable(value, name, overwrite=True)
        elif name in self._trackable_state()[0]:
            self._untrack(name)
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        self._untrack(name)
        object.__delattr__(self, name)


class ListWrapper(list, Trackable):
    """A list whose trackable elements are dependencies named "0", "1", ..."""

    def __init__(self, values: Any = ()):
        super().__init__(_wrap(v) for v in values)
        self._retrack()

    def _retrack(self) -> None:
        children, _ = self._trackable_state()
        children.clear()
        for i, v in enumerate(self):
            if is_trackable(v):
                self._track_trackable(v, str(i), overwrite=True)

    def append(self, value: Any) -> None:
        super().append(_wrap(value))
        self._retrack()

    def extend(self, values: Any) -> None:
        super().extend(_wrap(v) for v in values)
        self._retrack()

    def insert(self, index: int, value: Any) -> None:
        super().insert(index, _wrap(value))
        self._retrack()

    def __setitem__(self, index: Any, value: Any) -> None:
        super().__setitem__(index, _wrap(value) if not isinstance(index, slice) else value)
        self._retrack()

    def __delitem__(self, index: Any) -> None:
        super().__delitem__(index)
        self._retrack()

    def pop(self, index: int = -1) -> Any:
        value = super().pop(index)
        self._retrack()
        return value

    def remove(self, value: Any) -> None:
        super().remove(value)
        self._retrack()


class DictWrapper(dict, Trackable):
    """A dict whose trackable values are dependencies named by their keys."""

    def __init__(self, values: Any = ()):
        super().__init__()
        for k, v in dict(values).items():
            self[k] = v

    def __setitem__(self, key: Any, value: Any) -> None:
        value = _wrap(value)
        super().__setitem__(key, value)
        if is_trackable(value):
            self._track_trackable(value, str(key), overwrite=True)
        else:
            self._untrack(str(key))

    def __delitem__(self, key: Any) -> None:
        super().__delitem__(key)
        self._untrack(str(key))

    def update(self, *args: Any, **kwargs: Any) -> None:
        for k, v in dict(*args, **kwargs).items():
            self[k] = v


def walk(root: Any) -> Iterator[Tuple[Tuple[str, ...], Any]]:
    """(path, object) for every object reachable from `root`, breadth-first, each once."""
    seen = {id(root)}
    queue: List[Tuple[Tuple[str, ...], Any]] = [((), root)]
    while queue:
        path, obj = queue.pop(0)
        yield path, obj
        for name, child in children_of(obj):
            if id(child) not in seen:
                seen.add(id(child))
                queue.append((path + (name,), child))
