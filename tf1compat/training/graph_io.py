"""Graphs as TF's GraphDef protos, and back (the core of export/import_meta_graph).

`graph_to_graph_def` writes every op as a NodeDef with TF's op type, input names
(`op`, `op:1`, `^control`), device and attrs (types, shapes, ints, floats, strings, lists,
and Const values as TensorProtos). Ops whose state lives only in this Python process
cannot be written: py_func (its function), control-flow constructs (their traced Python
regions), ops with Python gradients; `UnserializableGraphError` names the first one.

`import_graph_def` recreates NodeDefs through the graph's op creation (the declared op
types, their shape rules and kernels), in dependency order, under their exact names.
Every op type is checked first: types tf1compat does not implement raise
NotImplementedError naming all of them, before anything is added to the graph.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from tf1compat.framework import op_def as _op_def
from tf1compat.framework.graph import Graph, get_default_graph
from tf1compat.framework.hooks import SERIALIZED_FORMS
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.serialization.messages import GraphDef, NodeDef, VersionDef
# The pure-format conversions live in the serialization layer; they are re-exported here
# for the code that imports them from graph_io.
from tf1compat.serialization.tensor_proto import (attr_to_proto, proto_to_attr,
                                                  proto_to_ndarray, proto_to_shape,
                                                  shape_to_proto, tensor_to_proto)

__all__ = ["UnserializableGraphError", "graph_to_graph_def", "op_to_node_def",
           "import_graph_def", "tensor_to_proto", "proto_to_ndarray", "shape_to_proto",
           "proto_to_shape", "attr_to_proto", "proto_to_attr", "check_serializable"]

# Ops whose behaviour is a Python object of this process (a function, a traced region).
_PROCESS_LOCAL_OPS = {
    "PyFunc": "it calls a Python function of this process",
    "PyFuncStateless": "it calls a Python function of this process",
    "EagerPyFunc": "it calls a Python function of this process",
    "If": "its branches are traced Python regions", "Case": "its branches are traced "
    "Python regions", "While": "its condition and body are traced Python regions",
    "_Arg": "it belongs to a traced control-flow region",
}
# Attrs that hold graph-build bookkeeping, not part of TF's NodeDef.
_SKIPPED_ATTRS = {"_output_shapes"}


class UnserializableGraphError(ValueError):
    """The graph has an op that cannot be written to a GraphDef (the message names it)."""


# -- export --------------------------------------------------------------------------------------

def check_serializable(op: Operation) -> None:
    """Raises UnserializableGraphError if `op` cannot be written to a GraphDef."""
    reason = _PROCESS_LOCAL_OPS.get(op.type)
    if reason is None and op.type == "SymbolicGradient":
        from tf1compat.autodiff.grad_mode import grad_info
        info = grad_info(op)
        if info is not None and (info.stop_ops or info.custom_ops):
            reason = "its stop_gradients / custom gradients are Python graph-build state"
    if reason is None:
        from tf1compat.autodiff.grad_mode import custom_record
        if custom_record(op) is not None:
            reason = "its gradient is a Python function (tf.custom_gradient)"
    if reason is not None:
        raise UnserializableGraphError(
            f"Cannot serialize op {op.name!r} of type {op.type}: {reason}. tf1compat writes "
            "graphs whose ops are all serializable (no py_func, tf.cond/tf.while_loop "
            "constructs or custom gradients).")


def op_to_node_def(op: Operation, clear_devices: bool = False,
                   strip_scope: Optional[str] = None) -> NodeDef:
    """The NodeDef of `op` (UnserializableGraphError if it has none)."""
    check_serializable(op)

    def strip(name: str) -> str:
        if strip_scope and name.lstrip("^").startswith(strip_scope):
            prefix = "^" if name.startswith("^") else ""
            return prefix + name.lstrip("^")[len(strip_scope):]
        return name

    node = NodeDef(name=strip(op.name), op=op.type)
    for t in op._inputs:
        node.input.append(strip(t._as_node_def_input()))
    for c in op._control_inputs:
        node.input.append(strip("^" + c.name))
    if op.device and not clear_devices:
        node.device = op.device
    for key in sorted(op._attrs):
        value = op._attrs[key]
        if value is None or key in _SKIPPED_ATTRS:
            continue
        if key == "_class" and strip_scope:
            value = [strip(v.decode("utf-8")).encode("utf-8") if isinstance(v, bytes) else v
                     for v in value]
        hint = op._attrs.get("dtype") if op.type == "Const" and key == "value" else None
        try:
            node.attr[key].CopyFrom(attr_to_proto(value, hint))
        except (TypeError, NotImplementedError) as e:
            raise UnserializableGraphError(
                f"Cannot serialize op {op.name!r} of type {op.type}: attr {key!r} holds a "
                f"{e}, which has no GraphDef form") from None
    return node


def as_graph_def_proto(graph_def: Any) -> GraphDef:
    """A GraphDef proto from a GraphDef or from `Graph.as_graph_def()`'s NodeDef views."""
    if isinstance(graph_def, GraphDef):
        return graph_def
    nodes = getattr(graph_def, "node", None)
    if nodes is None:
        raise TypeError(f"graph_def must be a GraphDef proto, got {type(graph_def).__name__}")
    from tf1compat._version import GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER
    out = GraphDef(versions=VersionDef(producer=GRAPH_DEF_VERSION,
                                       min_consumer=GRAPH_DEF_VERSION_MIN_CONSUMER))
    for view in nodes:
        reason = _PROCESS_LOCAL_OPS.get(view.op)
        if reason is not None:
            raise UnserializableGraphError(f"Cannot serialize op {view.name!r} of type "
                                           f"{view.op}: {reason}.")
        node = NodeDef(name=view.name, op=view.op, input=list(view.input))
        if view.device:
            node.device = view.device
        for key in sorted(view.attr):
            value = view.attr[key]
            if value is None or key in _SKIPPED_ATTRS:
                continue
            hint = view.attr.get("dtype") if view.op == "Const" and key == "value" else None
            try:
                node.attr[key].CopyFrom(attr_to_proto(value, hint))
            except (TypeError, NotImplementedError) as e:
                raise UnserializableGraphError(
                    f"Cannot serialize op {view.name!r} of type {view.op}: attr {key!r} "
                    f"holds a {e}, which has no GraphDef form") from None
        out.node.append(node)
    return out


def node_def_text(op: Operation) -> Optional[str]:
    """The text of `op`'s NodeDef (what `str(op.node_def)` prints), None if it has none."""
    try:
        return str(op_to_node_def(op))
    except UnserializableGraphError:
        return None


def graph_def_for_events(graph: Any, graph_def: Any = None) -> GraphDef:
    """The GraphDef a FileWriter writes for TensorBoard: `graph_def` as given (a proto or
    `Graph.as_graph_def()`'s view), else `graph`'s; ops with no GraphDef form (py_func,
    control-flow constructs) keep their name, type and inputs without attrs, enough to be
    drawn."""
    if graph_def is not None and hasattr(graph_def, "SerializeToString"):
        return graph_def
    if graph_def is not None:
        try:
            return as_graph_def_proto(graph_def)
        except UnserializableGraphError:
            graph = graph if graph is not None else get_default_graph()
    out = GraphDef()
    for op in graph.get_operations():
        try:
            node = op_to_node_def(op)
        except UnserializableGraphError:
            node = NodeDef(name=op.name, op=op.type)
            for t in op._inputs:
                node.input.append(t._as_node_def_input())
            for c in op._control_inputs:
                node.input.append("^" + c.name)
        out.node.append(node)
    return out


def graph_to_graph_def(graph: Optional[Graph] = None, clear_devices: bool = False,
                       export_scope: Optional[str] = None) -> GraphDef:
    """The GraphDef of `graph` (or of its ops under `export_scope`, scope stripped)."""
    from tf1compat._version import GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER
    graph = graph or get_default_graph()
    out = GraphDef(versions=VersionDef(producer=GRAPH_DEF_VERSION,
                                       min_consumer=GRAPH_DEF_VERSION_MIN_CONSUMER))
    scope = None
    if export_scope:
        scope = export_scope.rstrip("/") + "/"
    for op in graph.get_operations():
        if scope and not op.name.startswith(scope):
            continue
        if scope:
            outside = [t.name for t in op._inputs if not t.op.name.startswith(scope)] + \
                      [c.name for c in op._control_inputs if not c.name.startswith(scope)]
            if outside:
                raise NotImplementedError(
                    f"op {op.name!r} in export_scope {export_scope!r} takes inputs from "
                    f"outside it ({outside[:3]}); tf1compat does not export unbound inputs")
        out.node.append(op_to_node_def(op, clear_devices, scope))
    return out


# -- import --------------------------------------------------------------------------------------

def _parse_input(name: str) -> Tuple[str, int, bool]:
    """(op name, output index, is control input) of a NodeDef input string."""
    if name.startswith("^"):
        return name[1:], -1, True
    if ":" in name:
        op_name, index = name.rsplit(":", 1)
        return op_name, int(index), False
    return name, 0, False


def _ordered(nodes: Sequence[NodeDef]) -> List[NodeDef]:
    """Nodes in an order where every input comes first (Kahn, keeping file order)."""
    names = {n.name for n in nodes}
    pending = {n.name: {_parse_input(i)[0] for i in n.input} & names for n in nodes}
    by_name = {n.name: n for n in nodes}
    users: Dict[str, List[str]] = {}
    for name, deps in pending.items():
        for dep in deps:
            users.setdefault(dep, []).append(name)
    ready = [n.name for n in nodes if not pending[n.name]]
    order: List[NodeDef] = []
    position = {n.name: i for i, n in enumerate(nodes)}
    import heapq
    heap = [(position[n], n) for n in ready]
    heapq.heapify(heap)
    while heap:
        _, name = heapq.heappop(heap)
        order.append(by_name[name])
        for user in users.get(name, []):
            pending[user].discard(name)
            if not pending[user]:
                heapq.heappush(heap, (position[user], user))
    if len(order) != len(nodes):
        stuck = sorted(set(names) - {n.name for n in order})[:5]
        raise NotImplementedError(f"the GraphDef has cycles (TF1 control-flow loops?) through "
                                  f"{stuck}; tf1compat cannot import them")
    return order


def _group_inputs(op_def: _op_def.OpDef, flat: List[Tensor], attrs: Dict[str, Any],
                  node_name: str) -> List[Any]:
    grouped: List[Any] = []
    i = 0
    for spec in op_def.inputs:
        if spec.number_attr is not None:
            n = int(attrs[spec.number_attr])
            grouped.append(flat[i:i + n])
            i += n
        elif spec.type_list_attr is not None:
            n = len(attrs[spec.type_list_attr])
            grouped.append(flat[i:i + n])
            i += n
        else:
            if i >= len(flat):
                raise ValueError(f"NodeDef {node_name!r} has too few inputs for op "
                                 f"{op_def.type}")
            grouped.append(flat[i])
            i += 1
    if i != len(flat):
        raise ValueError(f"NodeDef {node_name!r} has {len(flat)} inputs; op {op_def.type} "
                         f"takes {i}")
    return grouped


def missing_op_types(nodes: Iterable[NodeDef]) -> List[str]:
    types = sorted({n.op for n in nodes})
    registered = set(_op_def.registered_op_types())
    return [t for t in types if t not in registered]


def import_graph_def(graph_def: GraphDef, input_map: Optional[Dict[str, Any]] = None,
                     return_elements: Optional[Sequence[str]] = None,
                     name: Optional[str] = None, op_dict: Any = None,
                     producer_op_list: Any = None) -> Optional[List[Any]]:
    """`tf.import_graph_def`: adds a GraphDef's ops to the default graph.

    Names get the prefix `name` (default "import", made unique like a name scope; "" for
    none). `input_map` maps input names of the GraphDef ("x:0") to existing tensors.
    Returns the graph elements named in `return_elements` (None without it).
    """
    graph_def = as_graph_def_proto(graph_def)
    _, elements = import_nodes(graph_def, input_map, return_elements,
                               "import" if name is None else name)
    return elements


def import_nodes(graph_def: GraphDef, input_map: Optional[Dict[str, Any]] = None,
                 return_elements: Optional[Sequence[str]] = None, name: str = "",
                 clear_devices: bool = False, graph: Optional[Graph] = None
                 ) -> Tuple[str, Optional[List[Any]]]:
    """Adds the GraphDef's ops under the name scope `name` ("" for none).

    Returns (the prefix used, without "/"; the `return_elements`, if given).
    """
    from tf1compat.framework.graph import name_scope
    _load_op_modules()
    graph = graph or get_default_graph()
    nodes = list(graph_def.node)
    missing = missing_op_types(nodes)
    if missing:
        raise NotImplementedError(f"cannot import the graph: tf1compat does not implement "
                                  f"the op type(s) {', '.join(missing)}")
    with graph.as_default(), name_scope(name or "") as scope:
        prefix = scope
    prefix_name = prefix[:-1]
    input_map = {(k if ":" in k or k.startswith("^") else k + ":0"): v
                 for k, v in (input_map or {}).items()}
    created: Dict[str, Operation] = {}
    with graph.as_default(), graph.control_dependencies(None):
        for node in _ordered(nodes):
            op_def = _op_def.get_op_def(node.op)
            attrs = {k: proto_to_attr(v, k) for k, v in node.attr.items()
                     if k not in _SKIPPED_ATTRS}
            attrs = {k: v for k, v in attrs.items() if v is not None}
            flat: List[Tensor] = []
            controls: List[Operation] = []
            for text in node.input:
                op_name, index, is_control = _parse_input(text)
                key = text if is_control else f"{op_name}:{index}"
                if key in input_map:
                    value = input_map[key]
                    if is_control:
                        controls.append(value if isinstance(value, Operation) else value.op)
                    else:
                        flat.append(value)
                    continue
                source = created.get(op_name)
                if source is None:
                    raise ValueError(f"Node {node.name!r} has an input {text!r} that is not "
                                     "in the graph_def")
                if is_control:
                    controls.append(source)
                else:
                    flat.append(source.outputs[index])
            inputs = _group_inputs(op_def, flat, attrs, node.name)
            full_name = prefix + node.name
            op = graph.create_op(node.op, inputs, attrs=attrs, name=full_name + "/")
            for c in controls:
                op._add_control_input(c)
            if node.device and not clear_devices:
                op._device = node.device
            elif clear_devices:
                op._device = ""
            # As TF's importer: the name is taken, later ops named alike get a suffix.
            graph._names_in_use[full_name.lower()] = max(
                graph._names_in_use.get(full_name.lower(), 0), 1)
            created[node.name] = op
    if return_elements is None:
        return prefix_name, None
    return prefix_name, [graph.as_graph_element(prefix + e) for e in return_elements]


SERIALIZED_FORMS.update(graph_def=as_graph_def_proto, node_def_text=node_def_text,
                        graph_def_for_events=graph_def_for_events)


def _load_op_modules() -> None:
    """Imports the modules that declare ops, so every implemented type is registered."""
    import importlib
    import pkgutil

    import tf1compat.ops as ops_pkg
    for module in pkgutil.iter_modules(ops_pkg.__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"tf1compat.ops.{module.name}")
    for extra in ("tf1compat.autodiff.gradients", "tf1compat.variables.resource_variable",
                  "tf1compat.variables.variables"):
        importlib.import_module(extra)
