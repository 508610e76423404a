"""`tf.Graph`: operations, names and name scopes, control dependencies, devices, collections.

Op creation goes through `apply_op(op_type, inputs, attrs, name)`, the one entry point
every `tf.*` wrapper uses. In graph mode it binds the inputs to the op's signature,
converts Python values, infers type attrs, runs the static shape rule and adds an
Operation to the graph; in eager mode it hands the op to the eager executor instead.
"""

from __future__ import annotations

import contextlib
import re
import threading
import types
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

from tf1compat.framework import context as _context
from tf1compat.framework import op_def as _op_def
from tf1compat.framework.device_spec import DeviceSpec
from tf1compat.framework.graph_def_view import GraphDefView
from tf1compat.framework.graph_devices import apply_device_functions, device_function
from tf1compat.framework.graph_keys import GraphKeys
from tf1compat.framework.graph_scopes import (ControlDependenciesController, NameScope,
                                              name_from_scope_name)
from tf1compat.framework.hooks import EAGER_EXECUTOR, OP_CREATED, SYMBOLIC_IN_EAGER
from tf1compat.framework.op_binding import (GraphTensorInEagerError, bind_inputs,
                                            capture_inputs, complete_attrs)
from tf1compat.framework.operation import Operation, colocation_operation, creation_site
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape

__all__ = [
    "Graph", "GraphKeys", "apply_op", "get_default_graph", "reset_default_graph",
    "name_scope", "control_dependencies", "device", "colocate_with",
    "get_collection", "get_collection_ref", "add_to_collection", "add_to_collections",
    "get_name_scope", "name_from_scope_name",
]

class Graph:
    """A TensorFlow computation: a set of Operations plus naming and scoping state."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._nodes_by_name: Dict[str, Operation] = {}
        self._ops: List[Operation] = []
        self._next_id = 0
        self._structure_version = 0
        self._names_in_use: Dict[str, int] = {}
        self._name_stack = ""
        self._control_dependencies_stack: List[ControlDependenciesController] = []
        self._device_function_stack: List[Optional[Callable[[Operation], Any]]] = []
        self._colocation_stack: List[Operation] = []
        self._collections: Dict[Any, list] = {}
        self._finalized = False
        self._seed: Optional[int] = None
        self._gradient_override_map: Dict[str, str] = {}
        self._attr_scope_map: Dict[str, Any] = {}
        self._kernel_label_map: Dict[str, str] = {}
        self._control_flow_context: Any = None
        self._unfeedable: set = set()
        self._unfetchable: set = set()
        self._container = ""
        self._building_function = False
        self._graph_key = f"grap-key-{id(self)}/"
        # Per-graph state kept by other layers (variable stores, summaries, ...).
        self._extras: Dict[str, Any] = {}

    # -- default graph ----------------------------------------------------------------
    def as_default(self) -> contextlib.AbstractContextManager:
        """Makes this the default graph inside a `with` block."""
        return _default_graph_stack.get_controller(self)

    # -- properties ----------------------------------------------------------------
    @property
    def version(self) -> int:
        return self._next_id

    @property
    def finalized(self) -> bool:
        return self._finalized

    def finalize(self) -> None:
        """Makes the graph read-only: adding ops afterwards raises RuntimeError."""
        self._finalized = True

    def _unsafe_unfinalize(self) -> None:
        self._finalized = False

    @property
    def seed(self) -> Optional[int]:
        return self._seed

    @seed.setter
    def seed(self, seed: Optional[int]) -> None:
        self._seed = seed

    @property
    def building_function(self) -> bool:
        return self._building_function

    @property
    def _last_id(self) -> int:
        return self._next_id

    # TF's C graph handle, which pywrap_tensorflow's functions take: the graph itself
    _c_graph = property(lambda self: self)

    @property
    def graph_def_versions(self) -> Any:
        """TF's VersionDef of this graph (producer, min_consumer)."""
        return self.as_graph_def().versions

    def _structure_changed(self) -> None:
        """Called when an existing op's edges change: cached session plans are stale."""
        self._structure_version += 1

    def _check_not_finalized(self) -> None:
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")

    # -- names -------------------------------------------------------------------------
    def unique_name(self, name: str, mark_as_used: bool = True) -> str:
        """`name` made unique in this graph under the current name scope, as TF does."""
        if self._name_stack:
            name = self._name_stack + "/" + name
        name_key = name.lower()
        i = self._names_in_use.get(name_key, 0)
        if mark_as_used:
            self._names_in_use[name_key] = i + 1
        if i > 0:
            base_key = name_key
            while name_key in self._names_in_use:
                name_key = f"{base_key}_{i}"
                i += 1
            if mark_as_used:
                self._names_in_use[name_key] = 1
            name = f"{name}_{i - 1}"
        return name

    def name_scope(self, name: Optional[str]) -> NameScope:
        return NameScope(self, name)

    def get_name_scope(self) -> str:
        return self._name_stack

    # -- ops ---------------------------------------------------------------------------
    def get_operations(self) -> List[Operation]:
        return list(self._ops)

    def get_operation_by_name(self, name: str) -> Operation:
        if not isinstance(name, str):
            raise TypeError(f"Operation names are strings (or similar), not {type(name).__name__}.")
        return self.as_graph_element(name, allow_tensor=False, allow_operation=True)

    def _get_operation_by_name_unsafe(self, name: str) -> Operation:
        return self._nodes_by_name[name]

    def get_tensor_by_name(self, name: str) -> Tensor:
        if not isinstance(name, str):
            raise TypeError(f"Tensor names are strings (or similar), not {type(name).__name__}.")
        return self.as_graph_element(name, allow_tensor=True, allow_operation=False)

    def as_graph_element(self, obj: Any, allow_tensor: bool = True,
                         allow_operation: bool = True) -> Any:
        """Resolves a Tensor, Operation, name string or `_as_graph_element` object."""
        if allow_tensor and allow_operation:
            types_str = "Tensor or Operation"
        elif allow_tensor:
            types_str = "Tensor"
        else:
            types_str = "Operation"
        if hasattr(obj, "_as_graph_element") and not isinstance(obj, (Tensor, Operation)):
            obj = obj._as_graph_element()
        if isinstance(obj, str):
            return self._element_by_name(obj, allow_tensor, allow_operation, types_str)
        if isinstance(obj, Tensor) and allow_tensor:
            if obj.graph is not self:
                raise ValueError(f"Tensor {obj} is not an element of this graph.")
            return obj
        if isinstance(obj, Operation) and allow_operation:
            if obj.graph is not self:
                raise ValueError(f"Operation {obj} is not an element of this graph.")
            return obj
        raise TypeError(f"Can not convert a {type(obj).__name__} into a {types_str}.")

    def _element_by_name(self, name: str, allow_tensor: bool, allow_operation: bool,
                         types_str: str) -> Any:
        if ":" in name and allow_tensor:
            try:
                op_name, out_n = name.split(":")
                out_n = int(out_n)
            except ValueError:
                raise ValueError(f"The name {name!r} looks a like a Tensor name, but is not a "
                                 "valid one. Tensor names must be of the form "
                                 "\"<op_name>:<output_index>\".") from None
            if op_name not in self._nodes_by_name:
                raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. "
                               f"The operation, {op_name!r}, does not exist in the graph.")
            op = self._nodes_by_name[op_name]
            if out_n >= len(op._outputs):
                raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. "
                               f"The operation, {op_name!r}, exists but only has "
                               f"{len(op._outputs)} outputs.")
            return op._outputs[out_n]
        if ":" in name:
            raise ValueError(f"Name {name!r} appears to refer to a Tensor, not a {types_str}.")
        if not allow_operation:
            if name in self._nodes_by_name:
                raise ValueError(f"The name {name!r} refers to an Operation, not a {types_str}. "
                                 "Tensor names must be of the form \"<op_name>:<output_index>\".")
            raise ValueError(f"The name {name!r} looks like an (invalid) Operation name, not a "
                             f"{types_str}.")
        if name not in self._nodes_by_name:
            raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")
        return self._nodes_by_name[name]

    def create_op(self, op_type: str, inputs: Sequence[Tensor], dtypes: Any = None,
                  input_types: Any = None, name: Optional[str] = None,
                  attrs: Optional[dict] = None, op_def: Any = None,
                  compute_shapes: bool = True, compute_device: bool = True) -> Operation:
        """TF's low-level op constructor; prefer the tf.* wrappers."""
        del dtypes, input_types, op_def, compute_shapes, compute_device
        with self.as_default():
            return self._apply_op(_op_def.get_op_def(op_type), list(inputs), attrs, name)

    def _apply_op(self, op_def: _op_def.OpDef, inputs: Sequence[Any],
                  attrs: Optional[dict], name: Optional[str]) -> Operation:
        if len(inputs) != len(op_def.inputs):
            raise TypeError(f"{op_def.type} takes {len(op_def.inputs)} inputs "
                            f"({', '.join(a.name for a in op_def.inputs)}), got {len(inputs)}")
        attrs = dict(attrs) if attrs else {}
        with NameScope(self, name or op_def.type) as scope:
            flat, groups = bind_inputs(op_def, inputs, attrs)
            flat = capture_inputs(op_def, flat, groups, self)
            if not op_def.ref_input_indices:
                return self._create_op_internal(op_def, flat, groups, attrs, scope)
            # As TF's op helper: an op is colocated with its ref inputs (the variables it
            # updates), so `tf.assign(v, x)` runs where `v` lives.
            with contextlib.ExitStack() as stack:
                for i in op_def.ref_input_indices:
                    stack.enter_context(self.colocate_with(flat[groups[i][0]].op))
                return self._create_op_internal(op_def, flat, groups, attrs, scope)

    def _create_op_internal(self, op_def: _op_def.OpDef, flat: List[Tensor], groups: list,
                            attrs: dict, scope: str) -> Operation:
        self._check_not_finalized()
        name = name_from_scope_name(scope)
        if name in self._nodes_by_name:
            raise ValueError(f"Duplicate node name in graph: '{name}'")
        complete_attrs(op_def, attrs)
        if self._attr_scope_map:
            attrs.update(self._scoped_attrs(op_def.type, name, flat))
        dtypes_out = op_def.output_dtypes(attrs)
        ctx = _op_def.InferCtx(op_def.type, name, flat, attrs, groups)
        shapes = op_def.shape(ctx)
        if len(shapes) != len(dtypes_out):
            raise AssertionError(f"{op_def.type}: shape rule gave {len(shapes)} shapes for "
                                 f"{len(dtypes_out)} outputs")
        specs = [(d, s if isinstance(s, TensorShape) else as_shape(s))
                 for d, s in zip(dtypes_out, shapes)]
        input_ops = [t._op for t in flat]
        control_inputs = self._control_dependencies_for_inputs(input_ops)
        gradient_override = self._gradient_override_map.get(op_def.type)
        if gradient_override is not None:
            attrs["_gradient_op_type"] = gradient_override
        with self._lock:
            self._next_id += 1
            op = Operation._new(self, self._next_id, name, op_def, flat, attrs, specs,
                                control_inputs, creation_site(3))
            self._nodes_by_name[name] = op
            self._ops.append(op)
        self._record_op_seen_by_control_dependencies(op)
        self._apply_device_and_colocation(op)
        ctx_flow = self._control_flow_context
        if ctx_flow is not None:
            op._control_flow_context = ctx_flow
            ctx_flow.add_op(op)
        for callback in OP_CREATED:
            callback(op)
        return op

    def _capture_eager_tensor(self, value: Tensor, name: Optional[str] = None) -> Tensor:
        """An EagerTensor used as an input here: only a traced function can capture one."""
        prefix = f"{name}: " if name else ""
        raise RuntimeError(f"{prefix}Attempting to capture an EagerTensor without building "
                           "a function.")

    def _add_op(self, op: Operation) -> None:
        # A raw-constructed op is already registered (TF 1.15); older TF's callers re-add.
        if self._nodes_by_name.get(op.name) is not op:
            self._nodes_by_name[op.name] = op
            self._ops.append(op)

    def _record_op_seen_by_control_dependencies(self, op: Operation) -> None:
        for controller in self._control_dependencies_stack:
            controller.add_op(op)

    # -- control dependencies ------------------------------------------------------------
    def control_dependencies(self, control_inputs: Optional[Sequence[Any]]
                             ) -> ControlDependenciesController:
        """Ops created in the block run after `control_inputs` (None clears the stack)."""
        if control_inputs is None:
            return ControlDependenciesController(self, None)
        ops: List[Operation] = []
        current = self._current_control_dependencies()
        for c in control_inputs:
            # As TF: a resource variable (or the unread result of its assign) stands for
            # its op (VarHandleOp, or the assign), so depending on it adds no read.
            if getattr(c, "_is_resource_variable", False) and hasattr(c, "_handle") and \
                    hasattr(c, "op"):
                c = c.op
            if hasattr(c, "_as_graph_element") and not isinstance(c, (Tensor, Operation)):
                c = c._as_graph_element()
            if callable(c) and not isinstance(c, (Tensor, Operation)):
                raise TypeError(f"Control input must be an Operation, a Tensor, or "
                                f"IndexedSlices: {c!r}")
            if hasattr(c, "values") and hasattr(c, "indices") and not isinstance(c, Tensor):
                c = c.values
            if isinstance(c, Tensor):
                c = c.op
            elif not isinstance(c, Operation):
                raise TypeError(f"Control input must be Operation or Tensor: {c}")
            if c.graph is not self:
                raise ValueError(f"Control input {c.name!r} is not an element of this graph.")
            if c not in current:
                ops.append(c)
                current.add(c)
        return ControlDependenciesController(self, ops)

    def _current_control_dependencies(self) -> set:
        ret: set = set()
        for controller in self._control_dependencies_stack:
            ret.update(controller.control_inputs)
        return ret

    def _control_dependencies_for_inputs(self, input_ops: List[Operation]) -> List[Operation]:
        ret: List[Operation] = []
        for controller in self._control_dependencies_stack:
            if any(controller.op_in_group(op) for op in input_ops):
                continue
            ret.extend(c for c in controller.control_inputs
                       if c not in input_ops and c not in ret)
        return ret

    # -- devices -----------------------------------------------------------------------
    @contextlib.contextmanager
    def device(self, device_name_or_function: Any) -> Iterator[None]:
        """Ops created in the block get this device (a string, DeviceSpec or function)."""
        self._device_function_stack.append(device_function(device_name_or_function))
        try:
            yield
        finally:
            self._device_function_stack.pop()

    def _apply_device_and_colocation(self, op: Operation) -> None:
        if self._colocation_stack:
            target = self._colocation_stack[-1]
            groups = []
            for c in self._colocation_stack:
                for g in c.colocation_groups():
                    if g not in groups:
                        groups.append(g)
            op._attrs["_class"] = groups
            op._device = target.device
            return
        for fn in reversed(self._device_function_stack):
            if fn is None:
                break
            # TF keeps a device function's string as given; DeviceSpecs print canonically.
            device = fn(op)
            op._device = device.to_string() if isinstance(device, DeviceSpec) else (device or "")

    def _apply_device_functions(self, op: Any) -> None:
        """TF's hook applying the device scopes to `op` (framework/graph_devices.py)."""
        apply_device_functions(self._device_function_stack, op)

    @contextlib.contextmanager
    def colocate_with(self, op: Any, ignore_existing: bool = False) -> Iterator[None]:
        """Ops created in the block are placed with `op` (a Tensor, Operation or Variable)."""
        if op is None:
            if not ignore_existing:
                raise ValueError("Trying to reset colocation (op is None) but "
                                 "ignore_existing is not True")
            old = self._colocation_stack
            self._colocation_stack = []
            try:
                yield
            finally:
                self._colocation_stack = old
            return
        if not getattr(op, "_in_graph_mode", True) or getattr(op, "_is_eager_tensor", False):
            # An eager variable or tensor used in a function's trace (an optimizer's
            # update ops colocated with it): it has no op here, and the function's ops
            # already run where its placeholders are.
            yield
            return
        op = colocation_operation(op)
        old_stack = self._colocation_stack
        old_devices = self._device_function_stack
        self._colocation_stack = ([] if ignore_existing else list(old_stack)) + [op]
        self._device_function_stack = []
        try:
            yield
        finally:
            self._colocation_stack = old_stack
            self._device_function_stack = old_devices

    @contextlib.contextmanager
    def container(self, container_name: str) -> Iterator[str]:
        old = self._container
        self._container = container_name
        try:
            yield container_name
        finally:
            self._container = old

    # -- gradients & attrs scopes ----------------------------------------------------------
    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map: Dict[str, str]) -> Iterator[None]:
        """Ops of the mapped types created in the block use the named registered gradient."""
        if not isinstance(op_type_map, dict):
            raise TypeError("op_type_map must be a dictionary mapping strings to strings")
        saved = {}
        for op_type, mapped in op_type_map.items():
            if not (isinstance(op_type, str) and isinstance(mapped, str)):
                raise TypeError("op_type_map must be a dictionary mapping strings to strings")
            saved[op_type] = self._gradient_override_map.get(op_type)
            self._gradient_override_map[op_type] = mapped
        try:
            yield
        finally:
            for op_type, old in saved.items():
                if old is None:
                    del self._gradient_override_map[op_type]
                else:
                    self._gradient_override_map[op_type] = old

    @contextlib.contextmanager
    def _attr_scope(self, attr_map: Dict[str, Any]) -> Iterator[None]:
        saved = dict(self._attr_scope_map)
        self._attr_scope_map.update(attr_map)
        try:
            yield
        finally:
            self._attr_scope_map = saved

    def _scoped_attrs(self, op_type: str, name: str, inputs: List[Tensor]) -> Dict[str, Any]:
        """The attrs `_attr_scope` adds to a new op; a callable value (TF's per-node form, as
        `jit_scope(compile_ops=lambda node_def: ...)`) is called with the node's fields."""
        node = types.SimpleNamespace(name=name, op=op_type, input=[t.name for t in inputs])
        return {key: value(node) if callable(value) else value
                for key, value in self._attr_scope_map.items()}

    @contextlib.contextmanager
    def _kernel_label_map(self, op_to_kernel_label_map: Dict[str, str]) -> Iterator[None]:
        yield

    # -- control flow contexts -------------------------------------------------------------
    def _get_control_flow_context(self) -> Any:
        return self._control_flow_context

    def _set_control_flow_context(self, ctx: Any) -> None:
        self._control_flow_context = ctx

    # -- collections ---------------------------------------------------------------------
    def add_to_collection(self, name: Any, value: Any) -> None:
        self._check_not_finalized()
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names: Any, value: Any) -> None:
        names = (names,) if isinstance(names, str) else set(names)
        for name in names:
            self.add_to_collection(name, value)

    def get_collection_ref(self, name: Any) -> list:
        return self._collections.setdefault(name, [])

    def get_collection(self, name: Any, scope: Optional[str] = None) -> list:
        """A copy of the collection; `scope` keeps items whose `.name` matches it (re.match)."""
        items = self._collections.get(name)
        if items is None:
            return []
        if scope is None:
            return list(items)
        regex = re.compile(scope)
        out = []
        for item in items:
            item_name = getattr(item, "name", None)
            if isinstance(item_name, str) and regex.match(item_name):
                out.append(item)
        return out

    def get_all_collection_keys(self) -> list:
        # TF lists only string keys: internal stores use tuple keys (e.g. the variable
        # scope store), which scripts that sort or print the keys must not see.
        return [k for k, v in self._collections.items() if v is not None and isinstance(k, str)]

    @property
    def collections(self) -> list:
        """The keys of the graph's collections, non-string (internal) keys included
        (TF's; `get_all_collection_keys` lists the string keys)."""
        return [k for k, v in self._collections.items() if v is not None]

    def clear_collection(self, name: Any) -> None:
        self._check_not_finalized()
        self._collections.pop(name, None)

    # -- feeding & fetching --------------------------------------------------------------------
    def prevent_feeding(self, tensor: Tensor) -> None:
        self._unfeedable.add(tensor)

    def is_feedable(self, tensor: Tensor) -> bool:
        return tensor not in self._unfeedable

    def prevent_fetching(self, op: Operation) -> None:
        self._unfetchable.add(op)

    def is_fetchable(self, tensor_or_op: Any) -> bool:
        op = tensor_or_op.op if isinstance(tensor_or_op, Tensor) else tensor_or_op
        return op not in self._unfetchable

    def as_graph_def(self, from_version: Optional[int] = None, add_shapes: bool = False) -> Any:
        """A GraphDef-shaped view: `.node` lists NodeDef views of the ops."""
        nodes = [op.node_def for op in self._ops if from_version is None or op._id > from_version]
        return GraphDefView(nodes)

    def __repr__(self) -> str:
        return f"<tf1compat.Graph object at 0x{id(self):x}>"


# -- the op entry point --------------------------------------------------------------------

def apply_op(op_type: str, inputs: Sequence[Any], attrs: Optional[dict] = None,
             name: Optional[str] = None) -> Any:
    """Creates (graph mode) or runs (eager mode) one op; returns the Operation.

    Wrappers take `.outputs` of the result. The graph is the inputs' graph when they are
    tensors, as TF's op helper does, else the default graph.
    """
    op_def = _op_def.get_op_def(op_type)
    if _context._state["eager"]:
        try:
            return EAGER_EXECUTOR["execute"](op_def, inputs, attrs, name)
        except GraphTensorInEagerError as e:
            return _symbolic_in_eager(e, op_def, inputs, attrs, name)
    graph = None
    for value in inputs:
        if isinstance(value, Tensor) and not value._is_eager_tensor:
            graph = value._op._graph
            break
    if graph is None:
        graph = get_default_graph()
    elif _functions_building[0]:
        # While a function graph is being built it takes every new op, as TF's
        # _get_graph_from_inputs: outer tensors are captured (op_binding.capture_inputs).
        default = get_default_graph()
        if default._building_function:
            graph = default
    return graph._apply_op(op_def, inputs, attrs, name)


def apply_op1(op_type: str, inputs: Sequence[Any], attrs: Optional[dict] = None,
              name: Optional[str] = None) -> Tensor:
    """`apply_op` for single-output ops: returns the output tensor."""
    if _context._state["eager"]:
        try:
            return EAGER_EXECUTOR["execute1"](op_type, inputs, attrs, name)
        except GraphTensorInEagerError as e:
            return _symbolic_in_eager(e, _op_def.get_op_def(op_type), inputs, attrs,
                                      name)._outputs[0]
    return apply_op(op_type, inputs, attrs, name)._outputs[0]


def _symbolic_in_eager(error: GraphTensorInEagerError, op_def: Any, inputs: Sequence[Any],
                       attrs: Optional[dict], name: Optional[str]) -> Operation:
    """An eager op given a graph tensor: built in that graph when a higher layer takes it
    (a raw TF function on an eager Keras input), else TF's TypeError."""
    build = SYMBOLIC_IN_EAGER["build"]
    op = None if build is None else build(error.tensor, op_def, inputs, attrs, name)
    if op is None:
        raise error
    return op


# -- the default graph stack -------------------------------------------------------------

class _DefaultGraphStack(threading.local):
    def __init__(self) -> None:
        super().__init__()
        self.stack: List[Graph] = []

    @contextlib.contextmanager
    def get_controller(self, graph: Graph) -> Iterator[Graph]:
        self.stack.append(graph)
        # As in TF, ops created in an explicit graph are graph ops even while eager
        # execution is enabled (a Session's block, a traced tf.function).
        eager = _context._state["eager"]
        _context._state["eager"] = False
        try:
            yield graph
        finally:
            _context._state["eager"] = eager
            if self.stack and self.stack[-1] is graph:
                self.stack.pop()
            elif graph in self.stack:
                self.stack.remove(graph)


_default_graph_stack = _DefaultGraphStack()
# How many function graphs (tf.data functions) are being built: while any is, new ops go
# to the default graph when it is one, whatever graph their inputs come from.
_functions_building = [0]
_global_default_graph: List[Optional[Graph]] = [None]


def get_default_graph() -> Graph:
    """The innermost `as_default()` graph, else the global default graph."""
    stack = _default_graph_stack.stack
    if stack:
        return stack[-1]
    graph = _global_default_graph[0]
    if graph is None:
        graph = _global_default_graph[0] = Graph()
    return graph


def reset_default_graph() -> None:
    """Replaces the global default graph (AssertionError inside a `with g.as_default()`)."""
    if _default_graph_stack.stack:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If "
                             "you need a cleared graph, exit the nesting and create a new graph.")
    _global_default_graph[0] = Graph()


def has_default_graph() -> bool:
    return bool(_default_graph_stack.stack)


# -- module-level conveniences (tf.name_scope etc. live in api, built on these) ----------------

def get_name_scope() -> str:
    if _context._state["eager"]:
        return _context._state["scope"].rstrip("/")
    return get_default_graph().get_name_scope()


class name_scope:  # noqa: N801 - TF's name
    """`tf.name_scope(name, default_name=None, values=None)` (TF1 signature)."""

    __slots__ = ("_name", "_default_name", "_values", "_scope", "_graph_ctx",
                 "_old_eager_scope")

    def __init__(self, name: Optional[str], default_name: Optional[str] = None,
                 values: Optional[Sequence[Any]] = None):
        self._name = default_name if name is None else name
        self._default_name = default_name
        self._values = values
        self._scope: Optional[NameScope] = None

    def __enter__(self) -> str:
        state = _context._state
        if state["eager"]:
            # Eager: a scope string without a graph (names eager variables), as TF.
            self._old_eager_scope = old = state["scope"]
            name = self._name
            if not name:
                new = ""
            elif name[-1] == "/":
                new = name
            else:
                new = old + name + "/"
            state["scope"] = new
            return new
        if self._name is None and self._values is not None:
            raise ValueError(f"At least one of name ({self._name}) and default_name "
                             f"({self._default_name}) must be provided.")
        graph = _graph_from_values(self._values)
        self._graph_ctx = graph.as_default()
        self._graph_ctx.__enter__()
        self._scope = NameScope(graph, self._name)
        try:
            return self._scope.__enter__()
        except BaseException:
            self._graph_ctx.__exit__(None, None, None)
            raise

    def __exit__(self, *exc: Any) -> None:
        if self._scope is not None:
            self._scope.__exit__(*exc)
            self._graph_ctx.__exit__(*exc)
        else:      # entered eagerly
            _context._state["scope"] = self._old_eager_scope


def _graph_from_values(values: Optional[Sequence[Any]]) -> Graph:
    if _functions_building[0]:
        default = get_default_graph()
        if default._building_function:
            return default
    # TF's _get_graph_from_inputs: the first graph element's graph, and every other graph
    # element must be from that graph (checked before any conversion or dtype check).
    found: Optional[Graph] = None
    first: Any = None
    for v in values or ():
        if isinstance(v, Tensor):
            if v._is_eager_tensor:
                continue
            graph = v.graph
        else:
            graph = getattr(v, "graph", None)
            if not isinstance(graph, Graph):
                continue
        if found is None:
            found, first = graph, v
        elif graph is not found:
            raise ValueError(f"{_element_text(v)} must be from the same graph as "
                             f"{_element_text(first)} (graphs are {graph!r} and {found!r}).")
    return found if found is not None else get_default_graph()


def _element_text(v: Any) -> str:
    """How TF's same-graph message shows an element (a variable as its value tensor)."""
    if not isinstance(v, (Tensor, Operation)) and hasattr(v, "_as_graph_element"):
        element = v._as_graph_element()
        if element is not None:
            return str(element)
    return str(v)


def control_dependencies(control_inputs: Optional[Sequence[Any]]) -> Any:
    if _context._state["eager"]:
        # Eager ops run in program order; TF calls callables given as control inputs.
        for c in control_inputs or ():
            if callable(c):
                c()
        return contextlib.nullcontext()
    return get_default_graph().control_dependencies(control_inputs)


def device(device_name_or_function: Any) -> Any:
    """`tf.device`: ops created in the block are placed on this device."""
    if _context._state["eager"]:
        return _eager_device(device_name_or_function)
    return get_default_graph().device(device_name_or_function)


@contextlib.contextmanager
def _eager_device(spec: Any) -> Iterator[None]:
    """`tf.device` under eager execution: the device eager ops run on in the block."""
    if callable(spec) and not isinstance(spec, (str, DeviceSpec)):
        raise RuntimeError("tf.device does not support functions when eager execution "
                           "is enabled.")
    old = _context._state.get("device")
    if spec is None:
        new = None
    else:
        text = spec.to_string() if isinstance(spec, DeviceSpec) else str(spec)
        merged = DeviceSpec.from_string(text)
        if old:   # the inner scope's fields win
            merged = DeviceSpec.from_string(old).make_merged_spec(merged)
        new = merged.to_string()
    _context._state["device"] = new
    try:
        yield
    finally:
        _context._state["device"] = old


def container(container_name: str) -> Any:
    return get_default_graph().container(container_name)


def colocate_with(op: Any, ignore_existing: bool = False) -> Any:
    if _context._state["eager"]:
        return contextlib.nullcontext()
    return get_default_graph().colocate_with(op, ignore_existing)


def add_to_collection(name: Any, value: Any) -> None:
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names: Any, value: Any) -> None:
    get_default_graph().add_to_collections(names, value)


def get_collection(key: Any, scope: Optional[str] = None) -> list:
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key: Any) -> list:
    return get_default_graph().get_collection_ref(key)

