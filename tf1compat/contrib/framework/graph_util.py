"""`tf.contrib.framework`'s graph helpers (TF 1.15's contrib/framework/python/ops/ops.py and
framework/graph_util.py, and the name-scope functions it re-exported from
tensorflow/python/framework/ops.py): `get_graph_from_inputs`, `get_name_scope`,
`get_placeholders`, `prepend_name_scope`, `strip_name_scope`."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from tf1compat.framework.graph import Graph, _graph_from_values, get_default_graph
from tf1compat.framework.graph_scopes import prepend_name_scope, strip_name_scope
from tf1compat.framework.tensor import Tensor

__all__ = ["get_graph_from_inputs", "get_name_scope", "get_placeholders",
           "prepend_name_scope", "strip_name_scope"]


def get_graph_from_inputs(op_input_list: Sequence[Any], graph: Optional[Graph] = None
                          ) -> Graph:
    """The graph of the graph elements among `op_input_list` (all from one graph, and from
    `graph` when given), else `graph` or the default graph."""
    if graph is not None and not isinstance(graph, Graph):
        raise TypeError(f"Input graph needs to be a Graph: {graph}")
    found = _graph_from_values(list(op_input_list))
    if graph is None:
        return found
    for value in op_input_list:
        element_graph = getattr(value, "graph", None)
        if isinstance(element_graph, Graph) and element_graph is not graph:
            raise ValueError(f"{value} is not from the passed-in graph.")
    return graph


def get_name_scope() -> str:
    """The default graph's current name scope ("" at the top)."""
    return get_default_graph().get_name_scope()


def get_placeholders(graph: Graph) -> List[Tensor]:
    """The outputs of `graph`'s Placeholder ops, in creation order."""
    if not isinstance(graph, Graph):
        raise TypeError(f"Input graph needs to be a Graph: {graph}")
    return [op.outputs[0] for op in graph.get_operations() if op.type == "Placeholder"]
