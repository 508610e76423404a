"""The connectivity face of a Keras layer: its inbound/outbound nodes and the inputs,
outputs and shapes of its calls on Keras tensors (`layer.input`, `layer.output_shape`,
`layer.get_input_at(i)`, ...). A mixin of `Layer` (base_layer.py), which keeps the node
lists `_inbound_nodes` / `_outbound_nodes`.
"""

from __future__ import annotations

from typing import Any, List

__all__ = ["LayerConnectivity"]


class LayerConnectivity:
    """Node bookkeeping queries; needs `name`, `_inbound_nodes` and `_outbound_nodes`."""

    name: str
    _inbound_nodes: List[Any]
    _outbound_nodes: List[Any]

    @property
    def inbound_nodes(self) -> List[Any]:
        return self._inbound_nodes

    @property
    def outbound_nodes(self) -> List[Any]:
        return self._outbound_nodes

    def _node_attribute(self, node_index: int, attr: str, attr_name: str) -> Any:
        if not self._inbound_nodes:
            raise RuntimeError(f"The layer has never been called and thus has no defined "
                               f"{attr_name}.")
        if not len(self._inbound_nodes) > node_index:
            raise ValueError(f"Asked to get {attr_name} at node {node_index}, but the layer "
                             f"has only {len(self._inbound_nodes)} inbound nodes.")
        values = getattr(self._inbound_nodes[node_index], attr)
        if isinstance(values, list) and len(values) == 1:
            return values[0]
        return values

    def get_input_at(self, node_index: int) -> Any:
        return self._node_attribute(node_index, "input_tensors", "input")

    def get_output_at(self, node_index: int) -> Any:
        return self._node_attribute(node_index, "output_tensors", "output")

    def get_input_shape_at(self, node_index: int) -> Any:
        return self._node_attribute(node_index, "input_shapes", "input shape")

    def get_output_shape_at(self, node_index: int) -> Any:
        return self._node_attribute(node_index, "output_shapes", "output shape")

    @property
    def input(self) -> Any:
        if not self._inbound_nodes:
            raise AttributeError(f"Layer {self.name} is not connected, no input to return.")
        return self._node_attribute(0, "input_tensors", "input")

    @property
    def output(self) -> Any:
        if not self._inbound_nodes:
            raise AttributeError(f"Layer {self.name} has no inbound nodes.")
        return self._node_attribute(0, "output_tensors", "output")

    def _unique_shape(self, kind: str) -> Any:
        """The `kind` ("input"/"output") shapes shared by all inbound nodes."""
        shapes = {str(getattr(n, f"{kind}_shapes")) for n in self._inbound_nodes}
        if len(shapes) == 1:
            return getattr(self._inbound_nodes[0], f"{kind}_shapes")
        raise AttributeError(f'The layer "{self.name}" has multiple inbound nodes, with '
                             f'different {kind} shapes. Hence the notion of "{kind} shape" is '
                             "ill-defined for the layer. Use "
                             f"`get_{kind}_shape_at(node_index)` instead.")

    @property
    def input_shape(self) -> Any:
        if not self._inbound_nodes:
            raise AttributeError(f'The layer "{self.name}" has never been called and thus has '
                                 "no defined input shape. Note that the `input_shape` "
                                 "property is only available for Functional and Sequential "
                                 "models.")
        return self._unique_shape("input")

    @property
    def output_shape(self) -> Any:
        if not self._inbound_nodes:
            raise AttributeError("The layer has never been called and thus has no defined "
                                 "output shape.")
        return self._unique_shape("output")
