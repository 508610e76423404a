"""`tf.contrib.checkpoint` (TF 1.15): tools for object-based checkpoints.

Most names are core TF's under their contrib spelling: CheckpointableBase (Trackable),
Checkpointable (AutoTrackable), NoDependency, CheckpointableObjectGraph (the
TrackableObjectGraph proto), CheckpointManager, list_objects and object_metadata (the
object graph a checkpoint stores, as the proto). List and Mapping are TF's append-only
trackable containers (their elements must be trackable and are named "0", "1", ... or by
the string keys); UniqueNameTracker and dot_graph_from_checkpoint follow TF 1.15's
contrib/checkpoint/python sources. capture_dependencies, split_dependency, NumpyState and
PythonStateWrapper are not provided (framework/unsupported_api.py says why).
"""

from __future__ import annotations

import collections.abc
import copy
from typing import Any, Dict, Iterator

from tf1compat.contrib._missing import missing as _missing
from tf1compat.framework import errors
from tf1compat.serialization.messages import TrackableObjectGraph
from tf1compat.serialization.object_graph import OBJECT_GRAPH_KEY
from tf1compat.training.saving.object_checkpoint import list_objects
from tf1compat.training.saving.trackable_checkpoint import CheckpointManager
from tf1compat.training.saving.tracking import (VARIABLE_VALUE_KEY, AutoTrackable, DictWrapper,
                                                ListWrapper, NoDependency, Trackable,
                                                is_trackable)

__all__ = ["CheckpointManager", "Checkpointable", "CheckpointableBase",
           "CheckpointableObjectGraph", "List", "Mapping", "NoDependency",
           "UniqueNameTracker", "dot_graph_from_checkpoint", "list_objects",
           "object_metadata"]

CheckpointableBase = Trackable
Checkpointable = AutoTrackable
CheckpointableObjectGraph = TrackableObjectGraph


class _UntrackableError(ValueError):
    def __init__(self, value: Any):
        super().__init__(value)
        self._value = value

    def __str__(self) -> str:
        return ("Only trackable objects (such as Layers or Optimizers) may be stored in a "
                f"List object. Got {self._value}, which does not inherit from Trackable.")


class _TrackableDataStructure(Trackable):
    """A container whose elements are its checkpoint dependencies; equal only to itself
    (hashable by identity, as TF's, so it can key a dict)."""

    def _track_value(self, value: Any, name: str) -> Any:
        """`value` as stored: lists and dicts wrapped (tracked), a NoDependency's value
        untracked; anything else must be trackable and becomes the dependency `name`."""
        if isinstance(value, NoDependency):
            value = value.value
        else:
            if type(value) is list:
                value = ListWrapper(value)
            elif type(value) is dict:
                value = DictWrapper(value)
            if is_trackable(value):
                self._track_trackable(value, name, overwrite=True)
        if not is_trackable(value):
            raise _UntrackableError(value)
        return value

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: Any) -> bool:
        return self is other


class List(_TrackableDataStructure, collections.abc.Sequence):
    """An append-only trackable sequence: element i is the dependency "i"."""

    def __init__(self, *args: Any, **kwargs: Any):
        self._storage = list(*args, **kwargs)
        for index, element in enumerate(self._storage):
            self._storage[index] = self._track_value(element, name=str(index))

    def copy(self) -> "List":
        return type(self)(copy.copy(self._storage))

    def __copy__(self) -> "List":
        return self.copy()

    def __deepcopy__(self, memo: Dict[int, Any]) -> "List":
        return type(self)(copy.deepcopy(self._storage, memo))

    def append(self, value: Any) -> None:
        """Adds a trackable value (dependency named by its index)."""
        self._storage.append(self._track_value(value, str(len(self._storage))))

    def extend(self, values: Any) -> None:
        """Appends each of `values`."""
        for value in values:
            self.append(value)

    def __iadd__(self, values: Any) -> "List":
        self.extend(values)
        return self

    def __add__(self, other: Any) -> list:
        return self._storage + getattr(other, "_storage", other)

    def __radd__(self, other: Any) -> list:
        return other + self._storage

    def __imul__(self, y: int) -> "List":
        if y <= 0:
            raise ValueError(f"List only supports append, multiplying in place by {y} "
                             "removes elements.")
        n = len(self._storage)
        for _ in range(y - 1):
            for i in range(n):
                self.append(self._storage[i])
        return self

    def __mul__(self, n: int) -> list:
        return self._storage * n

    def __rmul__(self, n: int) -> list:
        return self * n

    def __getitem__(self, key: Any) -> Any:
        return self._storage[key]

    def __len__(self) -> int:
        return len(self._storage)

    def __repr__(self) -> str:
        return f"List({self._storage!r})"


class Mapping(_TrackableDataStructure, collections.abc.Mapping):
    """An append-only trackable mapping with string keys (the dependencies' names); a key
    once added may not be replaced."""

    def __init__(self, *args: Any, **kwargs: Any):
        self._storage = dict(*args, **kwargs)
        self._storage.update({key: self._track_value(value, name=self._name_element(key))
                              for key, value in self._storage.items()})

    def __copy__(self) -> "Mapping":
        return type(self)(copy.copy(self._storage))

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Mapping":
        return type(self)(copy.deepcopy(self._storage, memo))

    @staticmethod
    def _name_element(key: Any) -> str:
        if not isinstance(key, str):
            raise TypeError(f"Mapping accepts only string keys, but got a key {key!r}.")
        return key

    def __setitem__(self, key: str, value: Any) -> None:
        value = self._track_value(value, name=self._name_element(key))
        current_value = self._storage.setdefault(key, value)
        if current_value is not value:
            raise ValueError("Mappings are an append-only data structure. Tried to overwrite "
                             f"the key '{key}' with value {value}, but it already contains "
                             f"{current_value}")

    def update(self, *args: Any, **kwargs: Any) -> None:
        """Adds each (key, value); none may replace a key already present."""
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __getitem__(self, key: str) -> Any:
        return self._storage[key]

    def __len__(self) -> int:
        return len(self._storage)

    def __iter__(self) -> Iterator[str]:
        return iter(self._storage)

    def __repr__(self) -> str:
        return f"Mapping({self._storage!r})"


class UniqueNameTracker(_TrackableDataStructure):
    """Tracks trackables under unique names made from a base name: "x", "x_1", "x_2"."""

    def __init__(self) -> None:
        self._name_counts: Dict[str, int] = {}

    def track(self, trackable: Any, base_name: str) -> Any:
        """Adds `trackable` as a dependency named `base_name` or `base_name_<n>`, the
        first such name not taken; returns `trackable`."""
        if not is_trackable(trackable):
            raise ValueError(f"Expected a trackable value, got {trackable} which does not "
                             "inherit from tf.track.Trackable.")
        count = self._name_counts.get(base_name, 0)
        candidate = f"{base_name}_{count}" if count > 0 else base_name
        while self._lookup_dependency(candidate) is not None:
            count += 1
            candidate = f"{base_name}_{count}"
        self._name_counts[base_name] = count + 1
        self._track_value(trackable, name=candidate)
        return trackable


def object_metadata(save_path: str) -> TrackableObjectGraph:
    """The object graph stored in the checkpoint `save_path` (a TrackableObjectGraph).

    Raises ValueError for a checkpoint without one (a name-based Saver's)."""
    from tf1compat.training.saving.checkpoint_utils import load_checkpoint
    reader = load_checkpoint(save_path)
    try:
        object_graph_string = reader.get_tensor(OBJECT_GRAPH_KEY)
    except errors.NotFoundError:
        raise ValueError(
            f'The specified checkpoint "{save_path}" does not appear to be object-based '
            f'(saved with TF2) since it is missing the key "{OBJECT_GRAPH_KEY}". Likely it '
            "was created with the TF1 name-based saver and does not contain an object "
            "dependency graph.") from None
    return TrackableObjectGraph.FromString(bytes(object_graph_string))


def dot_graph_from_checkpoint(save_path: str) -> str:
    """The checkpoint's object graph in Graphviz's dot language: variables as blue points
    (slot variables orange, optimizers red) with their shape and dtype as tooltips, edges
    labelled with the dependency names (slots dotted)."""
    from tf1compat.training.saving.checkpoint_utils import load_checkpoint
    reader = load_checkpoint(save_path)
    object_graph = object_metadata(save_path)
    shape_map = reader.get_variable_to_shape_map()
    dtype_map = reader.get_variable_to_dtype_map()

    def escape(name: str) -> str:
        return name.replace('"', '\\"')
    slot_ids = {ref.slot_variable_node_id for node in object_graph.nodes
                for ref in node.slot_variables}
    graph = "digraph {\n"
    for node_id, node in enumerate(object_graph.nodes):
        if len(node.attributes) == 1 and node.attributes[0].name == VARIABLE_VALUE_KEY:
            color, kind = ("orange", "Slot variable") if node_id in slot_ids else \
                ("blue", "Variable")
            attribute = node.attributes[0]
            graph += (f'N_{node_id} [shape=point label="" color={color} width=.25 '
                      f'tooltip="{kind} {escape(attribute.full_name)} '
                      f'shape={shape_map[attribute.checkpoint_key]} '
                      f'{dtype_map[attribute.checkpoint_key].name}"]\n')
        elif node.slot_variables:
            graph += f'N_{node_id} [shape=point label="" width=.25 color=red,' \
                     'tooltip="Optimizer"]\n'
        else:
            graph += f'N_{node_id} [shape=point label="" width=.25]\n'
        for reference in node.children:
            graph += f'N_{node_id} -> N_{reference.node_id} ' \
                     f'[label="{escape(reference.local_name)}"]\n'
        for ref in node.slot_variables:
            graph += f'N_{node_id} -> N_{ref.slot_variable_node_id} ' \
                     f'[label="{escape(ref.slot_name)}" style=dotted]\n'
            graph += f'N_{ref.original_variable_node_id} -> ' \
                     f'N_{ref.slot_variable_node_id} [style=dotted]\n'
    return graph + "}\n"


__getattr__ = _missing("tf.contrib.checkpoint")
