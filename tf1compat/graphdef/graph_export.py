"""A graph as TF's GraphDef: what `export_meta_graph`, `Saver.save` and `write_graph` write.

Every op becomes a NodeDef with TF's op type, inputs, device and attrs (graph_io.py).
Beyond one op per node:

* `tf.cond`/`tf.while_loop` constructs are written in TF1's dataflow form
  (control_flow_export.py) with their `cond_context`/`while_context` protos;
* functions the graph's ops hold (tf.data's map/filter/... functions, the dataset factory
  of a one-shot iterator, tf.switch_case's branches) are written to the GraphDef's
  function library as FunctionDefs and named by the attrs (function_export.py);
* `tf.gradients`' op is written as TF's `SymbolicGradient` of a forward function where
  TF can differentiate it (gradient_export.py), else in tf1compat's form with a warning;
* `add_shapes=True` (what `export_meta_graph` uses, as TF) adds `_output_shapes`.

Ops whose behaviour lives only in this process cannot be written; the
UnserializableGraphError (a ValueError) names the first one: ops with Python gradients
(`tf.custom_gradient`, `RegisterGradient` overrides on a `tf.gradients` path,
`stop_gradients`); a `function.Defun` call's Python gradient is written as its function's
GradientDef (defun_gradients.py), its sub-graph left out. `py_func` is written as TF's
`PyFunc` with its token, which works in the process that registered the function, as in
TF (so is `Dataset.from_generator`, TF's GeneratorDataset over three PyFunc functions);
`tf.switch_case` as TF's functional `Case`.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from tf1compat.framework.graph import Graph, GraphKeys, get_default_graph
from tf1compat.graphdef.control_flow_export import ControlFlowExport
from tf1compat.serialization.messages import CondContextDef, GraphDef, VersionDef

__all__ = ["GraphExport", "graph_to_graph_def", "context_collections"]


class GraphExport:
    """The GraphDef of a graph and the control-flow context protos found writing it."""

    def __init__(self, graph: Optional[Graph] = None, clear_devices: bool = False,
                 export_scope: Optional[str] = None, add_shapes: bool = False,
                 ops: Optional[List[Any]] = None):
        """`ops`: the graph's first ops only (the graph as it was when an
        `as_graph_def()` view of it was taken); default all."""
        from tf1compat._version import GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER
        from tf1compat.graphdef.function_export import FunctionExport
        graph = graph or get_default_graph()
        scope = export_scope.rstrip("/") + "/" if export_scope else None
        from tf1compat.graphdef.defun_gradients import subgraph_ops
        # The gradients of Defun calls are written as their functions' GradientDefs.
        skipped = subgraph_ops(graph)
        ops = [op for op in (graph.get_operations() if ops is None else ops)
               if (not scope or op.name.startswith(scope)) and op not in skipped]
        if scope:
            _check_scope_closed(ops, scope, export_scope)
        functions = FunctionExport(add_shapes)
        writer = ControlFlowExport(graph, ops, clear_devices, scope, add_shapes, functions)
        for op in ops:
            writer.write(op)
        self.graph_def = GraphDef(versions=VersionDef(
            producer=GRAPH_DEF_VERSION, min_consumer=GRAPH_DEF_VERSION_MIN_CONSUMER))
        self.graph_def.node.extend(writer.nodes)
        if functions.library.function:
            self.graph_def.library.CopyFrom(functions.library)
        self.cond_contexts = writer.cond_protos
        self.while_contexts = writer.while_protos
        self.context_parents = writer.context_parents


def _check_scope_closed(ops: List[Any], scope: str, export_scope: str) -> None:
    for op in ops:
        outside = [t.name for t in op.inputs if not t.op.name.startswith(scope)] + \
                  [c.name for c in op.control_inputs if not c.name.startswith(scope)]
        if outside:
            raise NotImplementedError(
                f"op {op.name!r} in export_scope {export_scope!r} takes inputs from "
                f"outside it ({outside[:3]}); tf1compat does not export unbound inputs")


def graph_to_graph_def(graph: Optional[Graph] = None, clear_devices: bool = False,
                       export_scope: Optional[str] = None, add_shapes: bool = False,
                       ops: Optional[List[Any]] = None) -> GraphDef:
    """The GraphDef of `graph` (or of its ops under `export_scope`, scope stripped; or of
    its first ops `ops`)."""
    return GraphExport(graph, clear_devices, export_scope, add_shapes, ops).graph_def


def context_collections(export: GraphExport) -> Dict[str, List[bytes]]:
    """The `cond_context` / `while_context` collections of an export: the outermost
    context protos, serialized (deterministically, as the rest of a `.meta` file), with
    the contexts inside them in their `nested_contexts`, as TF writes them (TF's import
    gives a nested context its parent as outer context from there: its gradients of a
    cond in a loop need it)."""
    protos = export.cond_contexts + export.while_contexts
    known = {p.context_name for p in protos}
    children: Dict[str, List[Any]] = {}
    for p in protos:
        parent = export.context_parents.get(p.context_name)
        if parent in known:
            children.setdefault(parent, []).append(p)

    def nested(proto: Any) -> Any:
        out = type(proto)()
        out.CopyFrom(proto)
        for child in children.get(proto.context_name, ()):
            wrapper = out.nested_contexts.add()
            target = wrapper.cond_ctxt if isinstance(child, CondContextDef) else \
                wrapper.while_ctxt
            target.CopyFrom(nested(child))
        return out

    def outermost(group: List[Any]) -> List[bytes]:
        return [nested(p).SerializeToString(deterministic=True) for p in group
                if export.context_parents.get(p.context_name) not in known]
    return {GraphKeys.COND_CONTEXT: outermost(export.cond_contexts),
            GraphKeys.WHILE_CONTEXT: outermost(export.while_contexts)}
