"""Functional-graph helpers of `tf.keras.utils`."""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.util import nest

__all__ = ["get_source_inputs"]


def get_source_inputs(tensor: Any, layer: Any = None, node_index: Optional[int] = None
                      ) -> List[Any]:
    """The `tf.keras.Input` tensors `tensor` was computed from (itself for a tensor
    without Keras history)."""
    from tf1compat.keras.engine.node import keras_history
    history = keras_history(tensor)
    if history is None:
        return tensor
    if layer is None or node_index:
        layer, node_index, _ = history
    if not layer._inbound_nodes:
        return [tensor]
    node = layer._inbound_nodes[node_index]
    if node.is_input:
        return nest.flatten(node.input_tensors)
    sources: List[Any] = []
    for parent_layer, parent_index, _, parent in node.iterate_inbound():
        for x in get_source_inputs(parent, parent_layer, parent_index):
            if all(x is not t for t in sources):
                sources.append(x)
    return sources
