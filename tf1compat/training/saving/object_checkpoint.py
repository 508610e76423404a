"""Object-based checkpoints: the object graph of a root trackable, saved and restored.

Saving walks the objects reachable from the root (tracking.py's named edges) breadth
first, as TF does: each object is a node, each value it holds an attribute stored under
`<escaped path>/.ATTRIBUTES/<name>` (`model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE`),
with `.` and `/` in names escaped as `..` and `.S`. Optimizer slot variables are nodes
referenced from the optimizer's node (not edges), keyed
`<variable path>/.OPTIMIZER_SLOT/<optimizer path>/<slot name>/.ATTRIBUTES/...`.

Optimizer hook: an object that owns slot variables exposes them with
`_slot_variables_for_checkpoint()`, returning `(variable, slot_name, slot_variable)`
triples (TF1 optimizers: slot names "m", "v", "momentum", ...). Slots are saved for the
variables that are themselves in the checkpoint; when restoring, a slot that does not
exist yet is matched as soon as the optimizer reports it (the next `run_restore_ops`,
assertion, or restoration of a later-created object).

Restoring matches the checkpoint's nodes to the live objects by edge names from the root.
Values for objects that do not exist yet are left as deferred restorations on their
nearest existing parent (`Trackable._defer_restoration`) and applied when the object is
tracked (restore-on-create). In graph mode the restorations are RestoreV2 + Assign /
AssignVariableOp ops run by `status.run_restore_ops(session)`, all in one Session.run
with the session's variables rolled back if any fails; in eager mode values are assigned
at once. The object graph and the presence of every value it names are checked before
anything is restored.
"""

from __future__ import annotations

import collections
from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch

from tf1compat.util import tf_logging
from tf1compat.framework import context as _context
from tf1compat.framework import errors
from tf1compat.framework.graph import device
from tf1compat.framework.tensor import get_default_session
from tf1compat.training.saving import tracking

__all__ = ["escape_local_name", "gather_object_graph", "GatheredGraph", "Restoration",
           "CheckpointLoadStatus", "InitializationOnlyStatus", "NameBasedSaverStatus",
           "list_objects", "variable_full_name", "SLOT_HOOK"]

ATTRIBUTES = ".ATTRIBUTES"
OPTIMIZER_SLOT = ".OPTIMIZER_SLOT"
# The method an optimizer defines to report its slot variables (see the module docstring).
SLOT_HOOK = "_slot_variables_for_checkpoint"


def escape_local_name(name: str) -> str:
    """TF's escaping of an edge name inside a checkpoint key ("." -> "..", "/" -> ".S")."""
    return name.replace(".", "..").replace("/", ".S")


def variable_full_name(var: Any) -> str:
    """The name-based key of a variable (its op / handle name), TF's `full_name`."""
    name = var.name
    return name[:name.rindex(":")] if ":" in name else name


def _slots_of(obj: Any) -> List[Tuple[Any, str, Any]]:
    hook = getattr(obj, SLOT_HOOK, None)
    if hook is None or not callable(hook):
        return []
    return list(hook())


# -- saving: gathering the object graph ----------------------------------------------------------

class GatheredGraph:
    """The object graph of a root: nodes (objects), their keys, and what they save."""

    def __init__(self) -> None:
        self.objects: List[Any] = []
        self.paths: List[str] = []                     # escaped object path per node
        self.ids: Dict[int, int] = {}                  # id(object) -> node id
        self.children: List[Dict[str, int]] = []
        self.slots: List[List[Dict[str, Any]]] = []
        self.attributes: List[List[Dict[str, Any]]] = []
        self.values: List[Tuple[str, Any]] = []         # (checkpoint key, variable)

    def _add(self, obj: Any, path: str) -> int:
        node = len(self.objects)
        self.objects.append(obj)
        self.paths.append(path)
        self.ids[id(obj)] = node
        self.children.append({})
        self.slots.append([])
        self.attributes.append([])
        return node

    def proto_structure(self) -> Dict[str, Any]:
        """object_graph.py's structure of this graph."""
        has_values = [bool(a) for a in self.attributes]
        changed = True
        while changed:   # a node has values when anything below it has
            changed = False
            for i, kids in enumerate(self.children):
                if not has_values[i] and any(has_values[c] for c in kids.values()):
                    has_values[i] = changed = True
            for i, refs in enumerate(self.slots):
                if not has_values[i] and refs:
                    has_values[i] = changed = True
        nodes = []
        for i in range(len(self.objects)):
            nodes.append({"children": dict(self.children[i]), "attributes": self.attributes[i],
                          "slot_variables": self.slots[i], "registered_saver": None,
                          "has_checkpoint_values": has_values[i]})
        return {"nodes": nodes}


def gather_object_graph(root: Any) -> GatheredGraph:
    """Walks `root`'s dependencies breadth first (TF's node order and checkpoint keys)."""
    out = GatheredGraph()
    out._add(root, "")
    queue = collections.deque([0])
    while queue:
        node = queue.popleft()
        obj = out.objects[node]
        for name, child in tracking.children_of(obj):
            child_id = out.ids.get(id(child))
            if child_id is None:
                path = escape_local_name(name) if node == 0 else \
                    f"{out.paths[node]}/{escape_local_name(name)}"
                child_id = out._add(child, path)
                queue.append(child_id)
            out.children[node][name] = child_id
    # Slot variables: nodes after the dependency graph, for variables that are in it.
    for node in range(len(out.objects)):
        for variable, slot_name, slot_variable in _slots_of(out.objects[node]):
            original = out.ids.get(id(variable))
            if original is None:
                continue
            slot_id = out.ids.get(id(slot_variable))
            if slot_id is None:
                slot_id = out._add(slot_variable, f"{out.paths[original]}/{OPTIMIZER_SLOT}/"
                                                  f"{out.paths[node]}/"
                                                  f"{escape_local_name(slot_name)}")
            out.slots[node].append({"original_variable_node_id": original,
                                    "slot_name": slot_name, "slot_variable_node_id": slot_id})
    for node, obj in enumerate(out.objects):
        for attr, value in tracking.saveables_of(obj).items():
            key = f"{out.paths[node]}/{ATTRIBUTES}/{escape_local_name(attr)}"
            out.attributes[node].append({"name": attr, "full_name": variable_full_name(value),
                                         "checkpoint_key": key, "optional_restore": False})
            out.values.append((key, value))
    return out


def list_objects(root: Any) -> List[Any]:
    """Every object of `root`'s graph (dependencies and slot variables), in node order."""
    return gather_object_graph(root).objects


# -- restoring -----------------------------------------------------------------------------------

class _Deferred:
    """A checkpoint node waiting for its object to be tracked (restore-on-create)."""

    def __init__(self, restoration: "Restoration", node_id: int):
        self.restoration = restoration
        self.node_id = node_id

    def restore(self, trackable: Any) -> None:
        self.restoration.restore_new_object(trackable, self.node_id)


class Restoration:
    """One `Checkpoint.restore` call: the checkpoint, its object graph, what matched."""

    def __init__(self, save_path: str, reader: Any, graph: Dict[str, Any]):
        self.save_path = save_path
        self.reader = reader
        self.graph = graph
        self.nodes = graph["nodes"]
        self.object_by_node: Dict[int, Any] = {}
        self.restore_ops: List[Any] = []
        self.pending_slots: List[Tuple[Any, Dict[str, Any]]] = []
        self.unused_attributes: Dict[int, List[str]] = {}
        self.expect_partial = False
        self.dtypes = reader.get_variable_to_dtype_map()
        self.shapes = reader.get_variable_to_shape_map()
        missing = sorted({a["checkpoint_key"] for n in self.nodes for a in n["attributes"]}
                         - set(self.dtypes))
        if missing:
            raise errors.DataLossError(
                None, None, f"The object graph of checkpoint {save_path} names values the "
                            f"checkpoint does not hold: {missing[:5]}")

    # -- matching ---------------------------------------------------------------------------
    def _bind(self, obj: Any, node_id: int, out: List[Tuple[Any, str]]) -> None:
        bound = self.object_by_node.get(node_id)
        if bound is not None:
            if bound is not obj:
                tf_logging.warning("Checkpoint node %d is already bound to %r; not binding "
                                   "%r to it", node_id, bound, obj)
            return
        self.object_by_node[node_id] = obj
        node = self.nodes[node_id]
        saveables = tracking.saveables_of(obj)
        for attr in node["attributes"]:
            value = saveables.get(attr["name"])
            if value is None:
                self.unused_attributes.setdefault(node_id, []).append(attr["name"])
            else:
                out.append((value, attr["checkpoint_key"]))
        live = dict(tracking.children_of(obj))
        for name, child_id in node["children"].items():
            child = live.get(name)
            if child is not None:
                self._bind(child, child_id, out)
            elif isinstance(obj, tracking.Trackable):
                obj._defer_restoration(name, _Deferred(self, child_id))
        for ref in node["slot_variables"]:
            self.pending_slots.append((obj, ref))

    def _resolve_slots(self, out: List[Tuple[Any, str]]) -> None:
        still = []
        for optimizer, ref in self.pending_slots:
            original = self.object_by_node.get(ref["original_variable_node_id"])
            slot_var = None
            if original is not None:
                for variable, slot_name, candidate in _slots_of(optimizer):
                    if variable is original and slot_name == ref["slot_name"]:
                        slot_var = candidate
                        break
            if slot_var is None:
                still.append((optimizer, ref))
            else:
                self._bind(slot_var, ref["slot_variable_node_id"], out)
        self.pending_slots = still

    def match_root(self, root: Any) -> None:
        """Binds the root to node 0 and everything that exists below it."""
        out: List[Tuple[Any, str]] = []
        self._bind(root, 0, out)
        self._resolve_slots(out)
        self._restore_values(out)

    def restore_new_object(self, trackable: Any, node_id: int) -> None:
        out: List[Tuple[Any, str]] = []
        self._bind(trackable, node_id, out)
        self._resolve_slots(out)
        self._restore_values(out)

    def poll_slots(self) -> None:
        """Matches slot variables the optimizers created since the last look."""
        if self.pending_slots:
            out: List[Tuple[Any, str]] = []
            self._resolve_slots(out)
            self._restore_values(out)

    # -- restoring values --------------------------------------------------------------------
    def _restore_values(self, pairs: List[Tuple[Any, str]]) -> None:
        if not pairs:
            return
        if _context.executing_eagerly():
            restore_eagerly(self.reader, pairs)
            return
        self.restore_ops.extend(build_restore_ops(self.save_path, pairs))


def build_restore_ops(save_path: str, pairs: Sequence[Tuple[Any, str]]) -> List[Any]:
    """Graph-mode restore ops: one RestoreV2 for the batch, an assign per variable."""
    from tf1compat.framework.constant_op import constant
    from tf1compat.ops import io_ops
    from tf1compat.ops import resource_variable_ops as rvo
    from tf1compat.ops import state_ops
    from tf1compat.ops.array_ops import identity
    from tf1compat.variables.variables import init_scope
    graph = pairs[0][0].graph
    ops = []
    with graph.as_default(), init_scope():
        with device("/cpu:0"):
            prefix = constant(save_path)
            values = io_ops.restore_v2(prefix, [k for _, k in pairs], [""] * len(pairs),
                                       [v.dtype.base_dtype for v, _ in pairs])
        for (var, _), value in zip(pairs, values):
            if getattr(var, "_is_resource_variable", False):
                with device(var.device):
                    value = identity(value)
                    ops.append(rvo.assign_variable_op(var.handle, value))
            else:
                shape = var.get_shape()
                ops.append(state_ops.assign(var._ref(), value,
                                            validate_shape=shape.is_fully_defined()).op)
    return ops


def restore_eagerly(reader: Any, pairs: Sequence[Tuple[Any, str]]) -> None:
    """Eager mode: reads every value first (all or nothing), then assigns them."""
    from tf1compat.ops.io_ops import dtype_text
    dtypes = reader.get_variable_to_dtype_map()
    values = []
    for var, key in pairs:
        stored = dtypes[key]
        if stored.base_dtype != var.dtype.base_dtype:
            raise errors.InvalidArgumentError(
                None, None, f"tensor_name = {key}; expected dtype {dtype_text(var.dtype)} "
                            f"does not equal original dtype {dtype_text(stored)}")
        values.append(reader.read_torch(key))
    for (var, _), value in zip(pairs, values):
        # numpy converts to a tensor in any mode (torch's bfloat16 has no numpy type).
        if hasattr(value, "numpy") and value.dtype != torch.bfloat16:
            value = value.numpy()
        var.assign(value)


def run_all_or_nothing(session: Any, fetches: Any, feed_dict: Any = None) -> Any:
    """Session.run that puts the session's variables back if the run fails."""
    runtime = getattr(session, "_runtime", None)
    snapshot = None if runtime is None else dict(runtime.state)
    try:
        return session.run(fetches, feed_dict=feed_dict)
    except BaseException:
        if snapshot is not None:
            runtime.state.clear()
            runtime.state.update(snapshot)
        raise


def _session(session: Any) -> Any:
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError("Either session argument should be provided or default session "
                             "should be established")
    return session


def _has_values(obj: Any) -> bool:
    return bool(tracking.saveables_of(obj))


# -- load statuses -------------------------------------------------------------------------------

class _LoadStatus:
    def expect_partial(self) -> "_LoadStatus":
        """Silences warnings about values or objects left unmatched."""
        return self


class CheckpointLoadStatus(_LoadStatus):
    """What `Checkpoint.restore` returns for an object-based checkpoint."""

    def __init__(self, restoration: Restoration, root: Any):
        self._restoration = restoration
        self._root = root

    def _node_path(self, node_id: int) -> str:
        """A node's name as TF's ObjectGraphProtoPrettyPrinter writes it."""
        nodes = self._restoration.nodes
        names = {0: "(root)"}
        queue = collections.deque([0])
        while queue:
            n = queue.popleft()
            for name, child in nodes[n]["children"].items():
                if child not in names:
                    names[child] = name if n == 0 else f"{names[n]}.{name}"
                    queue.append(child)
        for n, node in enumerate(nodes):
            for ref in node["slot_variables"]:
                slot = ref["slot_variable_node_id"]
                if slot not in names:
                    names[slot] = (f"{names.get(ref['original_variable_node_id'], '?')}'s "
                                   f"state '{ref['slot_name']}' for {names.get(n, '?')}")
        return names.get(node_id, f"(node {node_id})")

    def assert_consumed(self) -> "CheckpointLoadStatus":
        """Every checkpoint value matched an object, and every object got a value."""
        self.assert_existing_objects_matched()
        r = self._restoration
        for node_id, node in enumerate(r.nodes):
            if node["attributes"] and node_id not in r.object_by_node:
                raise AssertionError(f"Unresolved object in checkpoint "
                                     f"{self._node_path(node_id)}: {node}")
        if r.pending_slots:
            raise AssertionError(f"Unresolved slot restorations: "
                                 f"{[ref for _, ref in r.pending_slots]}")
        if r.unused_attributes:
            lines = "\n".join(f"{self._node_path(n)} ({r.object_by_node[n]}): {attrs}"
                              for n, attrs in r.unused_attributes.items())
            raise AssertionError("Unused attributes in these objects (the attributes exist "
                                 f"in the checkpoint but were not restored):\n{lines}")
        return self

    def _unmatched(self) -> List[Any]:
        r = self._restoration
        r.poll_slots()
        bound = {id(o) for o in r.object_by_node.values()}
        return [o for o in list_objects(self._root) if _has_values(o) and id(o) not in bound]

    def assert_existing_objects_matched(self) -> "CheckpointLoadStatus":
        """Every existing object with values has a value in the checkpoint."""
        unused = self._unmatched()
        if unused:
            shown = min(10, len(unused))
            raise AssertionError(
                f"Found {len(unused)} Python objects that were not bound to checkpointed "
                f"values, likely due to changes in the Python program. Showing {shown} of "
                f"{len(unused)} unmatched objects: {unused[:shown]}")
        return self

    def assert_nontrivial_match(self) -> "CheckpointLoadStatus":
        """Something besides the root matched."""
        unused = self._unmatched()
        if len(self._restoration.object_by_node) <= 1:
            if unused:
                raise AssertionError(
                    "Nothing except the root object matched a checkpointed value. Typically "
                    "this means that the checkpoint does not match the Python program. The "
                    f"following objects have no matching checkpointed value: {unused}")
            raise AssertionError(f"Nothing to load. No dependencies have been added to "
                                 f"{self._root} yet.")
        return self

    def run_restore_ops(self, session: Any = None) -> None:
        """Runs the restore ops created so far (graph mode; eager restores at once)."""
        if _context.executing_eagerly():
            return
        self._restoration.poll_slots()
        ops = list(self._restoration.restore_ops)
        if ops:
            run_all_or_nothing(_session(session), ops)

    def initialize_or_restore(self, session: Any = None) -> None:
        """Restores what the checkpoint holds and initializes the other variables."""
        if _context.executing_eagerly():
            return
        session = _session(session)
        self.run_restore_ops(session)
        bound = {id(o) for o in self._restoration.object_by_node.values()}
        initializers = [o.initializer for o in list_objects(self._root)
                        if tracking.is_variable(o) and id(o) not in bound and
                        o.initializer is not None]
        if initializers:
            session.run(initializers)

    def expect_partial(self) -> "CheckpointLoadStatus":
        self._restoration.expect_partial = True
        return self


class InitializationOnlyStatus(_LoadStatus):
    """What `Checkpoint.restore(None)` returns: initialization only."""

    def __init__(self, root: Any):
        self._root = root

    def assert_consumed(self) -> None:
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    assert_existing_objects_matched = assert_consumed
    assert_nontrivial_match = assert_consumed

    def run_restore_ops(self, session: Any = None) -> None:
        raise AssertionError("No checkpoint specified, so no restore ops are available "
                             "(save_path=None to Saver.restore).")

    def initialize_or_restore(self, session: Any = None) -> None:
        """Runs the initializers of the root's variables."""
        if _context.executing_eagerly():
            return
        initializers = [o.initializer for o in list_objects(self._root)
                        if tracking.is_variable(o) and o.initializer is not None]
        if initializers:
            _session(session).run(initializers)


class NameBasedSaverStatus(_LoadStatus):
    """`Checkpoint.restore` of a name-based (Saver) checkpoint: variables match by name."""

    def __init__(self, save_path: str, reader: Any, root: Any):
        self._save_path = save_path
        self._reader = reader
        self._root = root
        self._optionally_restored: List[Any] = []
        tf_logging.warning(
            "Restoring a name-based tf.train.Saver checkpoint using the object-based restore "
            "API. This mode uses global names to match variables, and so is somewhat "
            "fragile. It also adds new restore ops to the graph each time it is called when "
            "graph building. Prefer re-encoding training checkpoints in the object-based "
            "format: run save() on the object-based saver (the same one this message is "
            "coming from) and use that checkpoint in the future.")

    def add_to_optionally_restored(self, var: Any) -> None:
        self._optionally_restored.append(var)

    def _variables(self) -> List[Any]:
        return [o for o in list_objects(self._root) if tracking.is_variable(o)]

    def assert_consumed(self) -> "NameBasedSaverStatus":
        have = set(self._reader.get_variable_to_shape_map())
        for var in self._variables():
            if variable_full_name(var) not in have and \
                    not any(var is o for o in self._optionally_restored):
                raise AssertionError(f"Object not restored: {var}")
        return self

    assert_existing_objects_matched = assert_consumed
    assert_nontrivial_match = assert_consumed

    def run_restore_ops(self, session: Any = None) -> None:
        """Restores the variables by name with a tf.train.Saver."""
        if _context.executing_eagerly():
            pairs = [(v, variable_full_name(v)) for v in self._variables()
                     if self._reader.has_tensor(variable_full_name(v))]
            restore_eagerly(self._reader, pairs)
            return
        from tf1compat.training.saving.saver import Saver
        have = set(self._reader.get_variable_to_shape_map())
        # Variables Checkpoint itself adds (save_counter) are optional, as TF intends.
        var_list = [v for v in self._variables()
                    if variable_full_name(v) in have or
                    not any(v is o for o in self._optionally_restored)]
        if not var_list:
            return
        with device("/cpu:0"):
            saver = Saver(var_list)
        saver.restore(_session(session), self._save_path)

    def initialize_or_restore(self, session: Any = None) -> None:
        self.run_restore_ops(session)


def open_object_checkpoint(save_path: str) -> Tuple[Any, Optional[Dict[str, Any]]]:
    """(reader, object graph or None) of a checkpoint; errors as TF's reader raises them.

    A malformed object graph raises DataLossError (nothing has been restored yet).
    """
    from tf1compat.serialization.checkpoint_reader import NewCheckpointReader
    reader = NewCheckpointReader(save_path)
    return reader, reader.object_graph()
