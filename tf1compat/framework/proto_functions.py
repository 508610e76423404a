"""`ops.register_proto_function`: how a collection's items become protos in a `.meta` file.

A library that keeps its own Python objects in a graph collection (Sonnet v1's "sonnet"
collection of ModuleInfo) registers a `to_proto` and a `from_proto` for that collection's
key, and `export_meta_graph` / `import_meta_graph` write and read the items through them
(as serialized `proto_type` messages in the CollectionDef's bytes list). The built-in
collections (variables, savers, queue runners) are handled by training/saving/meta_graph.py
itself; a registration for one of their keys takes precedence, as in TF.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

__all__ = ["register_proto_function", "get_collection_proto_type", "get_to_proto_function",
           "get_from_proto_function"]

_REGISTRY: Dict[Any, Tuple[Any, Optional[Callable], Optional[Callable]]] = {}


def register_proto_function(collection_name: Any, proto_type: Any = None,
                            to_proto: Optional[Callable] = None,
                            from_proto: Optional[Callable] = None) -> None:
    """Registers `to_proto(item, export_scope=...)` and `from_proto(proto, import_scope=...)`
    for the collection `collection_name`; a later registration replaces an earlier one."""
    if to_proto and not callable(to_proto):
        raise TypeError("to_proto must be callable.")
    if from_proto and not callable(from_proto):
        raise TypeError("from_proto must be callable.")
    _REGISTRY[collection_name] = (proto_type, to_proto, from_proto)


def get_collection_proto_type(collection_name: Any) -> Any:
    """The proto type registered for `collection_name`, or None."""
    return _REGISTRY.get(collection_name, (None, None, None))[0]


def get_to_proto_function(collection_name: Any) -> Optional[Callable]:
    """The `to_proto` function registered for `collection_name`, or None."""
    return _REGISTRY.get(collection_name, (None, None, None))[1]


def get_from_proto_function(collection_name: Any) -> Optional[Callable]:
    """The `from_proto` function registered for `collection_name`, or None."""
    return _REGISTRY.get(collection_name, (None, None, None))[2]
