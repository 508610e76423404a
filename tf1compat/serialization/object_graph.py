"""TF's object graph (TrackableObjectGraph) as plain Python structures.

Object-based checkpoints (`tf.train.Checkpoint`) save, next to the tensors, a graph of
the objects that own them: a TrackableObjectGraph proto serialized into the scalar
string tensor `_CHECKPOINTABLE_OBJECT_GRAPH` (tf1compat's earlier `.safetensors` files
kept the same graph as JSON in their metadata). Both become this structure:

    {"nodes": [                                   # node 0 is the root object
        {"children": {"dense": 1, ...},           # edge name -> node id (in TF's order)
         "attributes": [{"name": "VARIABLE_VALUE",
                         "full_name": "dense/kernel",          # name-based key (Saver)
                         "checkpoint_key": "dense/kernel/.ATTRIBUTES/VARIABLE_VALUE",
                         "optional_restore": False}],
         "slot_variables": [{"original_variable_node_id": 3, "slot_name": "m",
                             "slot_variable_node_id": 7}],
         "registered_saver": None or {"name": ..., "object_name": ...},
         "has_checkpoint_values": None or bool},
        ...]}
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List

from google.protobuf.message import DecodeError

from tf1compat.serialization.messages import TrackableObjectGraph

__all__ = ["OBJECT_GRAPH_KEY", "ObjectGraphError", "parse_object_graph",
           "serialize_object_graph", "validate_object_graph", "checkpoint_key_to_full_name"]

# The checkpoint key under which TF stores the serialized object graph.
OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"

_ATTRIBUTE_FIELDS = {"name": str, "full_name": str, "checkpoint_key": str,
                     "optional_restore": bool}


class ObjectGraphError(ValueError):
    """The object graph is malformed (bad bytes, bad JSON shape, or dangling node ids)."""


def parse_object_graph(data: bytes) -> Dict[str, Any]:
    """Decodes a serialized TrackableObjectGraph proto into the plain structure."""
    try:
        proto = TrackableObjectGraph.FromString(bytes(data))
    except DecodeError as e:
        raise ObjectGraphError(f"cannot parse the object graph proto: {e}") from None
    nodes = []
    for node in proto.nodes:
        nodes.append({
            "children": {ref.local_name: ref.node_id for ref in node.children},
            "attributes": [{"name": a.name, "full_name": a.full_name,
                            "checkpoint_key": a.checkpoint_key,
                            "optional_restore": a.optional_restore}
                           for a in node.attributes],
            "slot_variables": [{"original_variable_node_id": r.original_variable_node_id,
                                "slot_name": r.slot_name,
                                "slot_variable_node_id": r.slot_variable_node_id}
                               for r in node.slot_variables],
            "registered_saver": {"name": node.registered_saver.name,
                                 "object_name": node.registered_saver.object_name}
            if node.HasField("registered_saver") else None,
            "has_checkpoint_values": node.has_checkpoint_values.value
            if node.HasField("has_checkpoint_values") else None,
        })
    return validate_object_graph({"nodes": nodes})


def serialize_object_graph(graph: Dict[str, Any]) -> bytes:
    """Encodes the plain structure as a TrackableObjectGraph proto (TF's wire format)."""
    graph = validate_object_graph(graph)
    proto = TrackableObjectGraph()
    for node in graph["nodes"]:
        out = proto.nodes.add()
        for name, node_id in node["children"].items():
            out.children.add(node_id=node_id, local_name=name)
        for attr in node["attributes"]:
            out.attributes.add(**attr)
        for slot in node["slot_variables"]:
            out.slot_variables.add(**slot)
        if node["registered_saver"] is not None:
            out.registered_saver.name = node["registered_saver"]["name"]
            out.registered_saver.object_name = node["registered_saver"]["object_name"]
        if node["has_checkpoint_values"] is not None:
            out.has_checkpoint_values.value = node["has_checkpoint_values"]
    return proto.SerializeToString()


def _fail(msg: str) -> None:
    raise ObjectGraphError(f"malformed object graph: {msg}")


def validate_object_graph(graph: Any) -> Dict[str, Any]:
    """Checks the plain structure (e.g. loaded from JSON) and returns a normalized copy.

    Missing optional fields get their defaults; wrong types, dangling node ids and
    duplicate checkpoint keys raise ObjectGraphError naming the problem.
    """
    if not isinstance(graph, dict) or not isinstance(graph.get("nodes"), list):
        _fail("expected a dict with a 'nodes' list")
    nodes = graph["nodes"]
    count = len(nodes)

    def node_id(value: Any, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < count:
            _fail(f"{where}: node id {value!r} is not in [0, {count})")
        return value

    out: List[Dict[str, Any]] = []
    seen_keys: Dict[str, int] = {}
    for i, node in enumerate(nodes):
        if not isinstance(node, dict):
            _fail(f"node {i} is not a dict")
        children = node.get("children", {})
        if not isinstance(children, dict):
            _fail(f"node {i}: 'children' must map names to node ids")
        clean_children = {}
        for name, child in children.items():
            if not isinstance(name, str):
                _fail(f"node {i}: child name {name!r} is not a string")
            clean_children[name] = node_id(child, f"node {i} child {name!r}")
        attributes = []
        for attr in node.get("attributes", []):
            if not isinstance(attr, dict):
                _fail(f"node {i}: attribute {attr!r} is not a dict")
            clean = {}
            for field, typ in _ATTRIBUTE_FIELDS.items():
                value = attr.get(field, typ())
                if not isinstance(value, typ):
                    _fail(f"node {i}: attribute field {field!r} must be {typ.__name__}, "
                          f"got {value!r}")
                clean[field] = value
            key = clean["checkpoint_key"]
            if key in seen_keys:
                _fail(f"checkpoint key {key!r} appears on nodes {seen_keys[key]} and {i}")
            seen_keys[key] = i
            attributes.append(clean)
        slots = []
        for slot in node.get("slot_variables", []):
            if not isinstance(slot, dict) or not isinstance(slot.get("slot_name", ""), str):
                _fail(f"node {i}: bad slot variable reference {slot!r}")
            slots.append({
                "original_variable_node_id": node_id(slot.get("original_variable_node_id"),
                                                     f"node {i} slot variable"),
                "slot_name": slot.get("slot_name", ""),
                "slot_variable_node_id": node_id(slot.get("slot_variable_node_id"),
                                                 f"node {i} slot variable"),
            })
        saver = node.get("registered_saver")
        if saver is not None and not (isinstance(saver, dict) and all(
                isinstance(saver.get(k, ""), str) for k in ("name", "object_name"))):
            _fail(f"node {i}: bad registered_saver {saver!r}")
        has_values = node.get("has_checkpoint_values")
        if has_values is not None and not isinstance(has_values, bool):
            _fail(f"node {i}: has_checkpoint_values must be a bool or None")
        out.append({"children": clean_children, "attributes": attributes,
                    "slot_variables": slots,
                    "registered_saver": None if saver is None else {
                        "name": saver.get("name", ""),
                        "object_name": saver.get("object_name", "")},
                    "has_checkpoint_values": has_values})
    return {"nodes": copy.deepcopy(out)}


def checkpoint_key_to_full_name(graph: Dict[str, Any]) -> Dict[str, str]:
    """Maps each attribute's checkpoint key to its `full_name` (the name-based key).

    Attributes with an empty full_name (e.g. non-variable state) are left out.
    """
    out = {}
    for node in graph["nodes"]:
        for attr in node["attributes"]:
            if attr["full_name"]:
                out[attr["checkpoint_key"]] = attr["full_name"]
    return out

