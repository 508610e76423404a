"""`tf.import_graph_def`: GraphDef nodes rebuilt as ops of a graph.

Each NodeDef becomes an op through the graph's op creation (the declared op types, their
shape rules and kernels), under its exact name (with the import prefix), in dependency
order. As TF's importer:

* everything is checked before the graph changes: node names (TF's node-name syntax,
  unique), inputs (`op`, `op:k` with k < the op's output count, `^op` after the data
  inputs), `input_map` keys, `return_elements`, and op types (types tf1compat does not
  implement raise NotImplementedError naming all of them); a failure while building
  removes what was added, so a failed import leaves the graph as it was;
* TF1 while loops are cycles through `NextIteration -> Merge` (the back edges): a Merge
  is created with its forward input standing in for each back edge, which is connected
  once the NextIteration op exists (runtime/dataflow.py runs such graphs);
* `_output_shapes` attrs (TF writes them into `.meta` files) refine the inferred shapes;
* the graph's function library (TF's FunctionDefs) is imported first
  (function_library.py), so ops whose attrs name functions find them.
"""

from __future__ import annotations

import heapq
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from tf1compat.framework import op_def as _op_def
from tf1compat.framework.graph import Graph, get_default_graph, name_scope
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.serialization.tensor_proto import proto_to_attr, proto_to_shape
from tf1compat.graphdef.graph_io import as_graph_def_proto

__all__ = ["import_graph_def", "import_nodes", "missing_op_types", "load_op_modules",
           "parse_input", "group_inputs"]

# TF's IsValidNodeName: the whole name, so "b\n" is invalid.
_NODE_NAME = re.compile(r"[A-Za-z0-9.][A-Za-z0-9_>./\\-]*")
_SKIPPED_ATTRS = {"_output_shapes"}
_BACK_EDGE_SOURCES = ("NextIteration", "RefNextIteration")


def parse_input(text: str) -> Tuple[str, int, bool]:
    """(op name, output index, is control input) of a NodeDef input string."""
    if text.startswith("^"):
        return text[1:], -1, True
    if ":" in text:
        op_name, index = text.rsplit(":", 1)
        try:
            return op_name, int(index), False
        except ValueError:
            pass
    return text, 0, False


def load_op_modules() -> None:
    """Imports the modules that declare ops, so every implemented type is registered."""
    import importlib
    import pkgutil

    import tf1compat.ops as ops_pkg
    for module in pkgutil.iter_modules(ops_pkg.__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"tf1compat.ops.{module.name}")
    for extra in ("tf1compat.autodiff.gradients", "tf1compat.variables.resource_variable",
                  "tf1compat.variables.variables", "tf1compat.data.dataset_ops",
                  "tf1compat.data.iterator_ops", "tf1compat.data.generator"):
        importlib.import_module(extra)


def missing_op_types(nodes: Sequence[Any]) -> List[str]:
    """The op types among `nodes` that tf1compat does not implement, sorted."""
    load_op_modules()
    registered = set(_op_def.registered_op_types())
    return sorted({n.op for n in nodes} - registered)


# -- checks before anything is built -------------------------------------------------------------

def _output_count(node: Any) -> Optional[int]:
    """How many outputs the node's op has, from its type and attrs (None if unknown)."""
    try:
        op_def = _op_def.get_op_def(node.op)
        attrs = {k: proto_to_attr(v, k) for k, v in node.attr.items()
                 if k not in _SKIPPED_ATTRS}
        for arg in op_def.outputs:
            if arg.type_attr is not None and arg.type_attr not in attrs:
                attrs[arg.type_attr] = None
        counts = 0
        for arg in op_def.outputs:
            if arg.number_attr is not None:
                counts += int(attrs[arg.number_attr])
            elif arg.type_list_attr is not None:
                counts += len(attrs[arg.type_list_attr])
            else:
                counts += 1
        return counts
    except Exception:  # noqa: BLE001 - checked again when the op is created
        return None


def _validate(nodes: Sequence[Any], input_map: Dict[str, Any],
              return_elements: Optional[Sequence[str]]) -> Dict[str, Optional[int]]:
    """TF's importer checks (ValueError with TF's messages); output counts by node."""
    counts: Dict[str, Optional[int]] = {}
    for node in nodes:
        if not _NODE_NAME.fullmatch(node.name):
            raise ValueError(f"Node '{node.name}': Node name contains invalid characters")
        if node.name in counts:
            raise ValueError(f"Node '{node.name}' is not unique")
        counts[node.name] = _output_count(node)
    mapped_used = set()
    for node in nodes:
        seen_control = False
        for text in node.input:
            op_name, index, is_control = parse_input(text)
            if is_control:
                seen_control = True
            elif seen_control:
                raise ValueError(f"Node '{node.name}': Control dependencies must come after "
                                 "regular dependencies")
            key = text if is_control else f"{op_name}:{index}"
            if key in input_map:
                mapped_used.add(key)
                continue
            if op_name not in counts:
                raise ValueError(f"Node '{node.name}': Unknown input node '{text}'")
            n = counts[op_name]
            if not is_control and n is not None and not 0 <= index < n:
                raise ValueError(f"Node '{node.name}': Connecting to invalid output {index} "
                                 f"of source node {op_name} which has {n} outputs.")
    unused = [k for k in input_map if k not in mapped_used and
              not any(k == f"{n.name}:{i}" for n in nodes
                      for i in range(counts.get(n.name) or 0))]
    if unused:
        raise ValueError("Attempted to map inputs that were not found in graph_def: "
                         f"[{', '.join(unused)}]")
    for element in return_elements or ():
        if not isinstance(element, str):
            continue
        op_name, index, _ = parse_input(element)
        if ":" in element:
            if op_name not in counts:
                raise ValueError(f"Requested return tensor '{element}' not found in graph "
                                 "def")
            n = counts[op_name]
            if n is not None and not 0 <= index < n:
                raise ValueError(f"Invalid return output {index} of node '{op_name}', "
                                 f"which has {n} output(s)")
        elif element not in counts:
            raise ValueError(f"Requested return node '{element}' not found in graph def")
    return counts


def _ordered(nodes: Sequence[Any]) -> List[Any]:
    """Nodes in an order where every input comes first (Kahn, keeping file order),
    ignoring loop back edges (NextIteration -> Merge)."""
    by_name = {n.name: n for n in nodes}
    pending: Dict[str, set] = {}
    for n in nodes:
        deps = set()
        for text in n.input:
            dep = parse_input(text)[0]
            if dep in by_name and not _is_back_edge(n, by_name[dep]):
                deps.add(dep)
        pending[n.name] = deps
    users: Dict[str, List[str]] = {}
    for name, deps in pending.items():
        for dep in deps:
            users.setdefault(dep, []).append(name)
    position = {n.name: i for i, n in enumerate(nodes)}
    heap = [(position[n.name], n.name) for n in nodes if not pending[n.name]]
    heapq.heapify(heap)
    order: List[Any] = []
    while heap:
        _, name = heapq.heappop(heap)
        order.append(by_name[name])
        for user in users.get(name, []):
            pending[user].discard(name)
            if not pending[user]:
                heapq.heappush(heap, (position[user], user))
    if len(order) != len(nodes):
        stuck = sorted(set(by_name) - {n.name for n in order})[:5]
        raise ValueError(f"GraphDef cannot be imported: it has a cycle through {stuck} that "
                         "is not a while loop (NextIteration -> Merge)")
    return order


def _is_back_edge(node: Any, source: Any) -> bool:
    return node.op in ("Merge", "RefMerge") and source.op in _BACK_EDGE_SOURCES


# -- building ----------------------------------------------------------------------------------

def group_inputs(op_def: _op_def.OpDef, flat: List[Tensor], attrs: Dict[str, Any],
                 node_name: str) -> List[Any]:
    """A node's flat input tensors grouped per argument of its op (lists for list
    arguments, sized by the node's attrs), as `Graph.create_op` takes them."""
    grouped: List[Any] = []
    i = 0
    for spec in op_def.inputs:
        if spec.number_attr is not None:
            n = int(attrs[spec.number_attr])
            grouped.append(flat[i:i + n])
            i += n
        elif spec.type_list_attr is not None:
            types = attrs.get(spec.type_list_attr)
            if types is None:      # a list attr the NodeDef leaves at its default
                types = op_def.attrs[spec.type_list_attr].default
            n = len(types)
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


def _apply_output_shapes(op: Operation, node: Any) -> None:
    """Refines the inferred shapes with the node's `_output_shapes` attr, as TF's importer."""
    attr = node.attr.get("_output_shapes") if "_output_shapes" in node.attr else None
    if attr is None or attr.WhichOneof("value") != "list":
        return
    for t, proto in zip(op._outputs, attr.list.shape):
        given = proto_to_shape(proto)
        if t.shape.is_compatible_with(given):
            t._shape = t.shape.merge_with(given)
        else:
            t._shape = given


class _Rollback:
    """Removes the ops an import added when it fails, so the graph stays as it was."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self.n_ops = len(graph._ops)
        self.names = dict(graph._names_in_use)
        self.functions = dict(graph._extras.get("function_library", {}))

    def undo(self) -> None:
        graph = self.graph
        added = graph._ops[self.n_ops:]
        for op in added:
            graph._nodes_by_name.pop(op.name, None)
            for t in op._inputs:
                if op in t._consumers:
                    t._consumers.remove(op)
        del graph._ops[self.n_ops:]
        graph._names_in_use.clear()
        graph._names_in_use.update(self.names)
        if "function_library" in graph._extras:
            graph._extras["function_library"] = self.functions
        graph._structure_changed()


def import_graph_def(graph_def: Any, input_map: Optional[Dict[str, Any]] = None,
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


def import_nodes(graph_def: Any, input_map: Optional[Dict[str, Any]] = None,
                 return_elements: Optional[Sequence[str]] = None, name: str = "",
                 clear_devices: bool = False, graph: Optional[Graph] = None
                 ) -> Tuple[str, Optional[List[Any]]]:
    """Adds the GraphDef's ops under the name scope `name` ("" for none).

    Returns (the prefix used, without "/"; the `return_elements`, if given).
    """
    from tf1compat.graphdef import function_library
    graph = graph or get_default_graph()
    nodes = list(graph_def.node)
    functions = function_library.library_of(graph_def)
    # TF 1.x calls a library function through a node whose op type is its name (a
    # function body's nodes call the functions of the library it shares).
    missing = sorted((set(missing_op_types(nodes)) |
                      set(function_library.missing_op_types(functions))) -
                     {f.signature.name for f in functions} -
                     set(function_library.function_library(graph)))
    if missing:
        raise NotImplementedError(f"cannot import the graph: tf1compat does not implement "
                                  f"the op type(s) {', '.join(missing)}")
    input_map = {(k if ":" in k or k.startswith("^") else k + ":0"): v
                 for k, v in (input_map or {}).items()}
    _validate(nodes, input_map, return_elements)
    order = _ordered(nodes)
    rollback = _Rollback(graph)
    try:
        with graph.as_default(), name_scope(name or "") as scope:
            prefix = scope
        function_library.import_library(functions, graph,
                                        function_library.gradients_of(graph_def))
        _build(graph, order, input_map, prefix, clear_devices)
    except BaseException:
        rollback.undo()
        raise
    prefix_name = prefix[:-1]
    if return_elements is None:
        return prefix_name, None
    return prefix_name, [graph.as_graph_element(prefix + e) for e in return_elements]


def _build(graph: Graph, order: List[Any], input_map: Dict[str, Any], prefix: str,
           clear_devices: bool) -> Dict[str, Operation]:
    created: Dict[str, Operation] = {}
    by_name = {n.name: n for n in order}
    back_edges: List[Tuple[Operation, int, str, int]] = []
    from tf1compat.graphdef import function_library
    library = function_library.function_library(graph)
    with graph.as_default(), graph.control_dependencies(None):
        for node in order:
            function = library.get(node.op)
            op_def = _op_def.get_op_def(node.op) if function is None else function.call_op_def()
            attrs = {k: proto_to_attr(v, k) for k, v in node.attr.items()
                     if k not in _SKIPPED_ATTRS}
            attrs = {k: v for k, v in attrs.items() if v is not None}
            from tf1compat.graphdef import gradient_export
            attrs = function_library.resolve_function_attrs(attrs, graph)
            if node.op == "SymbolicGradient":
                attrs = gradient_export.import_attrs(attrs)
            flat: List[Tensor] = []
            controls: List[Operation] = []
            deferred: List[Tuple[int, str, int]] = []
            for text in node.input:
                op_name, index, is_control = parse_input(text)
                key = text if is_control else f"{op_name}:{index}"
                if key in input_map:
                    value = input_map[key]
                    if is_control:
                        controls.append(value if isinstance(value, Operation) else value.op)
                    else:
                        flat.append(value)
                    continue
                if not is_control and op_name in by_name and \
                        _is_back_edge(node, by_name[op_name]) and op_name not in created:
                    deferred.append((len(flat), op_name, index))
                    flat.append(None)       # connected once the NextIteration exists
                    continue
                source = created[op_name]
                if is_control:
                    controls.append(source)
                else:
                    flat.append(source.outputs[index])
            if deferred:
                stand_in = next((t for t in flat if t is not None), None)
                if stand_in is None:
                    raise ValueError(f"Node '{node.name}': a Merge needs an input that is "
                                     "not a NextIteration")
                flat = [stand_in if t is None else t for t in flat]
            inputs = group_inputs(op_def, flat, attrs, node.name)
            full_name = prefix + node.name
            op = graph._apply_op(op_def, inputs, attrs, full_name + "/")
            for c in controls:
                op._add_control_input(c)
            if node.device and not clear_devices:
                op._device = node.device
            elif clear_devices:
                op._device = ""
            _apply_output_shapes(op, node)
            # As TF's importer: the name is taken, later ops named alike get a suffix.
            graph._names_in_use[full_name.lower()] = max(
                graph._names_in_use.get(full_name.lower(), 0), 1)
            created[node.name] = op
            back_edges.extend((op, i, name, k) for i, name, k in deferred)
    for op, i, source_name, k in back_edges:
        op._update_input(i, created[source_name].outputs[k])
    return created
