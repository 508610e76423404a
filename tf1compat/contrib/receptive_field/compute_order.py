"""The computation order of a GraphDef's nodes (TF 1.15 contrib/receptive_field
graph_compute_order.py): each node's depth (0 for nodes without data inputs, else one
more than its deepest data input) and, from a given input node of known spatial size,
each node's input and output feature-map sizes (None past an op the receptive-field
parameters do not understand)."""

from __future__ import annotations

import collections
import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

from tf1compat.contrib.receptive_field.layer_parameters import get_layer_params

__all__ = ["NodeInfo", "parse_graph_nodes", "get_compute_order"]

NodeInfo = collections.namedtuple("NodeInfo",
                                  field_names=["order", "node", "input_size", "output_size"])


def parse_graph_nodes(graph_def: Any) -> Dict[str, Any]:
    """The GraphDef's NodeDefs by name."""
    return {node.name: node for node in graph_def.node}


def _output_resolution(size: Optional[int], kernel: Any, stride: Any,
                       total_padding: Any) -> Optional[int]:
    if size is None or kernel is None or stride is None or total_padding is None:
        return None
    return int(math.ceil((size + total_padding - kernel + 1) / stride))


def _visit(name_to_node: Dict[str, Any], current: str, node_info: Dict[str, NodeInfo],
           input_node_name: str, input_node_size: Any) -> Tuple[int, Any, Any]:
    """(order, input size, output size) of `current`, its data inputs visited first
    (the first data input gives the input size)."""
    if current in node_info:
        info = node_info[current]
        return info.order, info.input_size, info.output_size
    node = name_to_node[current]
    if current == input_node_name:
        node_info[current] = NodeInfo(0, node, None, input_node_size)
        return 0, None, input_node_size
    order, input_size, first = 0, None, True
    for name in node.input:
        if name.startswith("^"):
            continue
        parent_order, _, parent_output = _visit(name_to_node, name.split(":")[0], node_info,
                                                input_node_name, input_node_size)
        order = max(order, parent_order + 1)
        if first:
            input_size, first = parent_output, False
    output_size: Optional[List[Optional[int]]] = None
    if input_size is not None:
        kernel_x, kernel_y, stride_x, stride_y, _, _, total_x, total_y = get_layer_params(
            node, name_to_node, input_size, force=True)
        output_size = [_output_resolution(input_size[0], kernel_x, stride_x, total_x),
                       _output_resolution(input_size[1], kernel_y, stride_y, total_y)]
    node_info[current] = NodeInfo(order, node, input_size, output_size)
    return order, input_size, output_size


def get_compute_order(graph_def: Any, input_node_name: str = "",
                      input_node_size: Optional[Sequence[int]] = None
                      ) -> Tuple[Dict[str, NodeInfo], Dict[str, Any]]:
    """(node_info, name_to_node): each node's NodeInfo (order, NodeDef, input and output
    spatial sizes given `input_node_size` at `input_node_name`), in the order the nodes
    were reached, and the NodeDefs by name."""
    name_to_node = parse_graph_nodes(graph_def)
    node_info: Dict[str, NodeInfo] = collections.defaultdict(NodeInfo)
    for node in graph_def.node:
        _visit(name_to_node, node.name, node_info, input_node_name, input_node_size)
    return node_info, name_to_node
