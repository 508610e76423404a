"""`tf.graph_util` and `tf.train.write_graph`: GraphDef utilities for freezing graphs.

The classic TF1 "freeze a model" recipe writes the graph (`tf.train.write_graph`), turns
variables into constants (`convert_variables_to_constants`), keeps only what the outputs
need (`extract_sub_graph`), optionally strips Identity nodes (`remove_training_nodes`) and
imports the result elsewhere (`tf.import_graph_def`). These functions work on GraphDef
protos (serialization/messages.py); `Graph.as_graph_def()` views are converted
with `graph_io.as_graph_def_proto`.
"""

from __future__ import annotations

import copy
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.framework.graph import Graph
from tf1compat.graphdef import graph_io
from tf1compat.serialization.atomic_files import atomic_write
from tf1compat.serialization.messages import AttrValue, GraphDef, NodeDef, to_text
from tf1compat.graphdef.graph_export import graph_to_graph_def

__all__ = ["write_graph", "extract_sub_graph", "convert_variables_to_constants",
           "remove_training_nodes", "must_run_on_cpu", "tensor_shape_from_node_def_name"]

# Op types holding variable state that freezing replaces with constants.
_REF_VARIABLE_OPS = ("Variable", "VariableV2", "VarHandleOp")
_RESOURCE_READS = ("ReadVariableOp", "ResourceGather", "ResourceGatherNd")


def _as_proto(graph_or_graph_def: Any) -> GraphDef:
    if isinstance(graph_or_graph_def, Graph):
        return graph_to_graph_def(graph_or_graph_def)
    return graph_io.as_graph_def_proto(graph_or_graph_def)


def write_graph(graph_or_graph_def: Any, logdir: str, name: str, as_text: bool = True) -> str:
    """`tf.train.write_graph`: writes the GraphDef to `logdir/name`; returns the path.

    `as_text=True` writes protobuf text format, else the binary serialization. The
    directory is created when missing and the file is replaced atomically.
    """
    graph_def = _as_proto(graph_or_graph_def)
    if not os.path.isdir(logdir):
        os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    data = to_text(graph_def).encode("utf-8") if as_text \
        else graph_def.SerializeToString(deterministic=True)
    atomic_write(path, lambda f: f.write(data))
    return path


def _node_name(name: str) -> str:
    """The node a NodeDef input or tensor name refers to ("^a", "a:1" -> "a")."""
    if name.startswith("^"):
        name = name[1:]
    return name.split(":")[0]


def extract_sub_graph(graph_def: Any, dest_nodes: Sequence[str]) -> GraphDef:
    """`tf.graph_util.extract_sub_graph`: the nodes `dest_nodes` depend on, in graph order,
    with the whole function library and the versions.

    Data and control inputs both count; an unknown destination fails as in TF
    (AssertionError "<name> is not in graph").
    """
    graph_def = graph_io.as_graph_def_proto(graph_def)
    if isinstance(dest_nodes, str):
        raise TypeError("dest_nodes must be an iterable of strings.")
    by_name: Dict[str, NodeDef] = {}
    order: Dict[str, int] = {}
    for i, node in enumerate(graph_def.node):
        by_name[node.name] = node
        order[node.name] = i
    for d in dest_nodes:
        if d not in by_name:
            raise AssertionError(f"{d} is not in graph")
    keep = set()
    stack = list(dest_nodes)
    while stack:
        name = stack.pop()
        if name in keep:
            continue
        keep.add(name)
        stack.extend(_node_name(i) for i in by_name[name].input)
    out = GraphDef()
    for name in sorted(keep, key=order.__getitem__):
        out.node.append(copy.deepcopy(by_name[name]))
    out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    return out


def _variable_values(sess: Any, nodes: List[NodeDef]) -> Dict[str, Any]:
    """The current values of the variable nodes, fetched in one Session.run."""
    from tf1compat.framework.graph import GraphKeys
    graph = sess.graph
    variables = {}
    for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.LOCAL_VARIABLES):
        for v in graph.get_collection(key):
            variables.setdefault(v.op.name, v)
    fetches = {}
    for node in nodes:
        if node.op == "VarHandleOp":
            var = variables.get(node.name)
            if var is None:
                raise ValueError(f"Cannot freeze the resource variable {node.name!r}: no "
                                 "variable object in the graph's collections owns it.")
            element = getattr(var, "_graph_element", None)
            fetches[node.name] = element if element is not None else var.value()
        else:
            fetches[node.name] = graph.get_tensor_by_name(f"{node.name}:0")
    return sess.run(fetches) if fetches else {}


def convert_variables_to_constants(sess: Any, input_graph_def: Any,
                                   output_node_names: Sequence[str],
                                   variable_names_whitelist: Optional[Sequence[str]] = None,
                                   variable_names_blacklist: Optional[Sequence[str]] = None
                                   ) -> GraphDef:
    """`tf.graph_util.convert_variables_to_constants`: a frozen copy of the graph.

    Keeps what `output_node_names` need and replaces each variable (VariableV2 or
    VarHandleOp) by a Const of its value in `sess`; reads of resource variables become
    what TF rewrites them to (`_frozen_read`). The new nodes carry no
    device (TF builds them afresh); the other nodes keep theirs.
    """
    sub = extract_sub_graph(input_graph_def, output_node_names)
    allowed = None if variable_names_whitelist is None else set(variable_names_whitelist)
    denied = set(variable_names_blacklist or ())

    def wanted(name: str) -> bool:
        return (allowed is None or name in allowed) and name not in denied

    targets = [n for n in sub.node if n.op in _REF_VARIABLE_OPS and wanted(n.name)]
    values = _variable_values(sess, targets)
    frozen_resources = {n.name for n in targets if n.op == "VarHandleOp"}
    out = GraphDef()
    out.versions.CopyFrom(sub.versions)
    axes: List[NodeDef] = []
    for node in sub.node:
        if node.name in values:
            value = values[node.name]
            dtype_attr = node.attr["dtype"]
            const = NodeDef(name=node.name, op="Const")
            const.attr["dtype"].CopyFrom(dtype_attr)
            dtype = graph_io.proto_to_attr(dtype_attr)
            const.attr["value"].CopyFrom(AttrValue(
                tensor=graph_io.tensor_to_proto(np.asarray(value), dtype)))
            out.node.append(const)
        elif node.op in _RESOURCE_READS and _node_name(node.input[0]) in frozen_resources:
            converted, axis = _frozen_read(node)
            out.node.append(converted)
            if axis is not None:
                axes.append(axis)
        else:
            out.node.append(copy.deepcopy(node))
    out.node.extend(axes)
    return out


def _frozen_read(node: NodeDef) -> Tuple[NodeDef, Optional[NodeDef]]:
    """A read of a frozen resource variable as TF's freezing writes it: ReadVariableOp ->
    Identity, ResourceGather -> GatherV2 with a new "<name>/axis" Const of 0 (returned
    second; TF adds it at the graph's end), ResourceGatherNd -> GatherNd."""
    axis = None
    if node.op == "ReadVariableOp":
        converted = NodeDef(name=node.name, op="Identity", input=list(node.input))
        converted.attr["T"].CopyFrom(node.attr["dtype"])
    elif node.op == "ResourceGatherNd":
        converted = NodeDef(name=node.name, op="GatherNd", input=list(node.input[:2]))
        converted.attr["Tparams"].CopyFrom(node.attr["dtype"])
        converted.attr["Tindices"].CopyFrom(node.attr["Tindices"])
    else:
        if node.attr["batch_dims"].i != 0:
            raise ValueError("batch_dims must be 0 for freeze_graph, but got "
                             f"node({node.name}).attr('batch_dims') = "
                             f"{node.attr['batch_dims'].i}.")
        axis = NodeDef(name=node.name + "/axis", op="Const")
        axis.attr["dtype"].CopyFrom(node.attr["Tindices"])
        axis.attr["value"].CopyFrom(AttrValue(tensor=graph_io.tensor_to_proto(
            np.array(0), graph_io.proto_to_attr(node.attr["Tindices"]))))
        converted = NodeDef(name=node.name, op="GatherV2",
                            input=[node.input[0], node.input[1], axis.name])
        converted.attr["Tparams"].CopyFrom(node.attr["dtype"])
        converted.attr["Tindices"].CopyFrom(node.attr["Tindices"])
        converted.attr["Taxis"].CopyFrom(node.attr["Tindices"])
    if "_class" in node.attr:
        converted.attr["_class"].CopyFrom(node.attr["_class"])
    return converted, axis


def remove_training_nodes(input_graph: Any,
                          protected_nodes: Optional[Sequence[str]] = None) -> GraphDef:
    """`tf.graph_util.remove_training_nodes`: drops Identity / CheckNumerics nodes.

    Their consumers read the Identity's input instead; `protected_nodes` stay, and so does
    an Identity that is some op's control input (TF keeps those too).
    """
    graph_def = graph_io.as_graph_def_proto(input_graph)
    protected = set(protected_nodes or ())
    control_targets = {i[1:] for n in graph_def.node for i in n.input if i.startswith("^")}
    removed: Dict[str, str] = {}
    for node in graph_def.node:
        if node.op in ("Identity", "CheckNumerics") and node.name not in protected \
                and node.name not in control_targets and node.input:
            removed[node.name] = node.input[0]

    def resolve(name: str) -> str:
        control = name.startswith("^")
        base = name[1:] if control else name
        op_name = base.split(":")[0]
        seen = set()
        while op_name in removed and op_name not in seen:
            seen.add(op_name)
            base = removed[op_name]
            op_name = base.split(":")[0]
        return "^" + op_name if control else base

    out = GraphDef()
    out.versions.CopyFrom(graph_def.versions)
    for node in graph_def.node:
        if node.name in removed:
            continue
        new = copy.deepcopy(node)
        del new.input[:]
        new.input.extend(resolve(i) for i in node.input)
        out.node.append(new)
    return out


def must_run_on_cpu(node: Any, pin_variables_on_cpu: bool = False) -> bool:
    """`tf.graph_util.must_run_on_cpu`: whether TF pins this op to the CPU.

    True for string-typed Const / Identity-like ops and, with `pin_variables_on_cpu`,
    variables; tf1compat places ops itself, so this only answers the question.
    """
    from tf1compat.framework import dtypes as D
    from tf1compat.framework.operation import Operation
    if isinstance(node, Operation):
        op_type = node.type
        dtype = node.get_attr("dtype") if "dtype" in node.node_def.attr else \
            (node.get_attr("T") if "T" in node.node_def.attr else None)
    else:
        op_type = node.op
        attr = node.attr.get("dtype") or node.attr.get("T")
        dtype = graph_io.proto_to_attr(attr) if attr is not None else None
    if pin_variables_on_cpu and op_type in _REF_VARIABLE_OPS + ("AutoReloadVariable",):
        return True
    if op_type in ("Const", "Identity", "Placeholder", "PlaceholderWithDefault"):
        return dtype == D.string or dtype == D.int32
    return op_type in ("DynamicStitch", "ParallelDynamicStitch")


def tensor_shape_from_node_def_name(graph: Graph, input_name: str) -> Any:
    """`tf.graph_util.tensor_shape_from_node_def_name`: the static shape of a node's output."""
    if ":" not in input_name:
        input_name += ":0"
    return graph.get_tensor_by_name(input_name).get_shape()
