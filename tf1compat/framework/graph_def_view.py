"""What `Graph.as_graph_def()` returns: a GraphDef view that builds the proto lazily."""

from __future__ import annotations

from typing import Any

from tf1compat.framework.hooks import SERIALIZED_FORMS

__all__ = ["GraphDefView"]


class GraphDefView:
    """`Graph.as_graph_def()`: `.node` lists cheap NodeDef views (scripts count nodes in
    loops); everything else a GraphDef proto has (`versions`, text form, serialization)
    comes from the proto built on first use."""

    def __init__(self, nodes: list):
        self.node = nodes
        self._proto = None

    def _as_proto(self) -> Any:
        if self._proto is None:
            self._proto = SERIALIZED_FORMS["graph_def"](self)
        return self._proto

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._as_proto(), name)

    def __str__(self) -> str:
        return str(self._as_proto())


# Scripts print `type(graph_def).__name__`.
GraphDefView.__name__ = GraphDefView.__qualname__ = "GraphDef"
