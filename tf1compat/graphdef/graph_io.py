"""Ops, attrs, shapes and tensors as TF's NodeDef, AttrValue, TensorShapeProto and
TensorProto, and back.

`op_to_node_def` writes one op as a NodeDef with TF's op type, input names (`op`,
`op:1`, `^control`), device and attrs (types, shapes, ints, floats, strings, lists, and
Const values as TensorProtos). Ops whose behaviour lives only in this Python process
cannot be written (ops with Python gradients, Python generators);
`UnserializableGraphError` names the first one. Whole graphs (control-flow constructs in
TF1's form, function libraries) are written by graph_export.py.

The pure-format conversions (tensors, shapes, attrs) live in
serialization/tensor_proto.py and are re-exported here. Importing (NodeDefs back to ops)
lives in graph_import.py; function-valued attrs read become `FunctionRef`s that the
importer resolves against the graph's function library (function_library.py).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from tf1compat.framework.graph import get_default_graph
from tf1compat.framework.hooks import SERIALIZED_FORMS
from tf1compat.framework.op_def import get_op_def
from tf1compat.framework.operation import Operation
from tf1compat.serialization.messages import AttrValue, GraphDef, NodeDef, VersionDef
# The pure-format conversions live in the serialization layer; they are re-exported here
# for the code that imports them from graph_io.
from tf1compat.serialization.tensor_proto import (FunctionRef, attr_to_proto, is_scalar_kind,
                                                  proto_to_attr, proto_to_ndarray,
                                                  proto_to_shape, shape_to_proto,
                                                  tensor_to_proto)

__all__ = ["UnserializableGraphError", "op_to_node_def",
           "tensor_to_proto", "proto_to_ndarray", "shape_to_proto", "proto_to_shape",
           "attr_to_proto", "proto_to_attr", "check_serializable", "as_graph_def_proto",
           "FunctionRef"]

# Attrs that hold graph-build bookkeeping, not part of TF's NodeDef.
_SKIPPED_ATTRS = {"_output_shapes"}


class UnserializableGraphError(ValueError):
    """The graph has an op that cannot be written to a GraphDef (the message names it)."""


# -- export --------------------------------------------------------------------------------------

def _not_one_node(op_type: str) -> Optional[str]:
    """The declared reason why ops of `op_type` are not one NodeDef each (None if they are,
    or if the type is not declared: the importer names unknown types)."""
    try:
        return get_op_def(op_type).not_one_node or None
    except NotImplementedError:
        return None


def check_serializable(op: Operation) -> None:
    """Raises UnserializableGraphError if `op` cannot be written to a GraphDef."""
    reason = _not_one_node(op.type)
    if reason is None and op.type == "SymbolicGradient":
        from tf1compat.autodiff.grad_mode import grad_info
        info = grad_info(op)
        from tf1compat.graphdef.defun_gradients import unwritable_reason
        if info is not None and (info.stop_ops or any(
                unwritable_reason(c) is not None for c in info.custom_ops)):
            reason = "its stop_gradients / custom gradients are Python graph-build state"
    if reason is None:
        from tf1compat.autodiff.grad_mode import custom_record
        if custom_record(op) is not None:
            from tf1compat.graphdef.defun_gradients import unwritable_reason
            reason = unwritable_reason(op)
    if reason is not None:
        raise UnserializableGraphError(
            f"Cannot serialize op {op.name!r} of type {op.type}: {reason}. tf1compat writes "
            "graphs whose ops are all serializable (no custom gradients or Python "
            "generators).")


def op_to_node_def(op: Operation, clear_devices: bool = False,
                   strip_scope: Optional[str] = None,
                   attr_overrides: Optional[Dict[str, AttrValue]] = None) -> NodeDef:
    """The NodeDef of `op` (UnserializableGraphError if it has none); `attr_overrides`
    gives the AttrValues of attrs holding functions (graph_export.py writes those)."""
    check_serializable(op)
    attr_overrides = attr_overrides or {}

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
        if key in attr_overrides:
            node.attr[key].CopyFrom(attr_overrides[key])
            continue
        if value is None or key in _SKIPPED_ATTRS:
            continue
        if key == "_class" and strip_scope:
            value = [strip(v.decode("utf-8")).encode("utf-8") if isinstance(v, bytes) else v
                     for v in value]
        hint = op._attrs.get("dtype") if op.type == "Const" and key == "value" else None
        if isinstance(op._op_def.attrs.get(key), float) and is_scalar_kind(value, int):
            value = float(value)     # a float attr given as an int (forget_bias=1)
        try:
            node.attr[key].CopyFrom(attr_to_proto(value, hint))
        except (TypeError, NotImplementedError) as e:
            raise UnserializableGraphError(
                f"Cannot serialize op {op.name!r} of type {op.type}: attr {key!r} holds a "
                f"{e}, which has no GraphDef form") from None
    return node


def _with_view_edits(proto: GraphDef, views: list) -> GraphDef:
    """The graph's GraphDef with the edits scripts made on its NodeDef views (a changed
    op, inputs or device, deleted attrs) applied to the nodes of the same names."""
    edited = {view.name: view.edits() for view in views}
    edited = {name: changes for name, changes in edited.items() if changes}
    for node in proto.node if edited else ():
        changes = edited.get(node.name)
        if changes is None:
            continue
        if "op" in changes:
            node.op = changes["op"]
        if "input" in changes:
            del node.input[:]
            node.input.extend(changes["input"])
        if "device" in changes:
            node.device = changes["device"]
        for key in changes.get("deleted_attrs", ()):
            if key in node.attr:
                del node.attr[key]
    return proto


def as_graph_def_proto(graph_def: Any) -> GraphDef:
    """A GraphDef proto from a GraphDef or from `Graph.as_graph_def()`'s NodeDef views.

    Views of a whole graph, also of one that has grown since the view was taken, are
    written as the graph itself (graph_export.py: control flow in TF1's form, functions in
    the library)."""
    if isinstance(graph_def, GraphDef):
        return graph_def
    nodes = getattr(graph_def, "node", None)
    if nodes is None:
        raise TypeError(f"graph_def must be a GraphDef proto, got {type(graph_def).__name__}")
    ops = [getattr(view, "_op", None) for view in nodes]
    if ops and all(op is not None for op in ops) and \
            ops == ops[0].graph.get_operations()[:len(ops)]:
        from tf1compat.graphdef.graph_export import graph_to_graph_def
        return _with_view_edits(graph_to_graph_def(ops[0].graph, ops=ops), nodes)
    from tf1compat._version import GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER
    out = GraphDef(versions=VersionDef(producer=GRAPH_DEF_VERSION,
                                       min_consumer=GRAPH_DEF_VERSION_MIN_CONSUMER))
    for view in nodes:
        reason = _not_one_node(view.op)
        if reason is not None:
            raise UnserializableGraphError(f"Cannot serialize op {view.name!r} of type "
                                           f"{view.op}: {reason}.")
        node = NodeDef(name=view.name, op=view.op, input=list(view.input))
        if view.device:
            node.device = view.device
        values = view.attr_values
        for key in sorted(values):
            value = values[key]
            if value is None or key in _SKIPPED_ATTRS:
                continue
            hint = values.get("dtype") if view.op == "Const" and key == "value" else None
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
    `Graph.as_graph_def()`'s view), else `graph`'s as a `.meta` file holds it (conds and
    loops in TF1's form); when the graph cannot be written whole, ops with no GraphDef
    form keep their name, type and inputs without attrs, enough to be drawn."""
    if graph_def is not None and hasattr(graph_def, "SerializeToString"):
        return graph_def
    if graph_def is not None:
        try:
            return as_graph_def_proto(graph_def)
        except UnserializableGraphError:
            pass
    graph = graph if graph is not None else get_default_graph()
    from tf1compat.graphdef.graph_export import graph_to_graph_def
    try:
        return graph_to_graph_def(graph)
    except UnserializableGraphError:
        pass
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


SERIALIZED_FORMS.update(graph_def=as_graph_def_proto, node_def_text=node_def_text,
                        graph_def_for_events=graph_def_for_events)
