"""Losses and metrics added to a built functional model, as tf-keras adds them.

`model.add_loss(t)` / `model.add_metric(t, ...)` on a tensor of a functional model's graph
(outside a layer call) insert into the network the layers that compute `t` and were not
part of it yet (side branches, `tf_op_layer_*` / `tf.math.*` layers for raw ops), then an
`AddLoss` / `AddMetric` layer called on `t`. Every call of the model replays them, so an
eager step recomputes the loss or metric from its own inputs, and they show in
`model.layers`, `summary()` and `get_config()` (tf-keras's `_graph_network_add_loss`,
`_graph_network_add_metric`, `_insert_layers`).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from tf1compat.keras.engine.base_layer import Layer
from tf1compat.util import nest

__all__ = ["AddLoss", "AddMetric", "graph_network_add_loss", "graph_network_add_metric",
           "connect_ancillary_layers"]


class AddLoss(Layer):
    """Adds its input as a loss of the model (conditional on the inputs unless
    `unconditional`)."""

    def __init__(self, unconditional: bool, **kwargs: Any):
        # (no reason to cast a loss to another dtype)
        kwargs["autocast"] = False
        super().__init__(**kwargs)
        self.unconditional = unconditional

    def call(self, inputs: Any) -> Any:
        self.add_loss(inputs, inputs=(not self.unconditional))
        return inputs

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"unconditional": self.unconditional})
        return config


class AddMetric(Layer):
    """Adds its input as a metric named `metric_name` (`aggregation`: "mean" or None)."""

    def __init__(self, aggregation: Optional[str] = None, metric_name: Optional[str] = None,
                 **kwargs: Any):
        super().__init__(**kwargs)
        self.aggregation = aggregation
        self.metric_name = metric_name

    def call(self, inputs: Any) -> Any:
        self.add_metric(inputs, aggregation=self.aggregation, name=self.metric_name)
        return inputs

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"aggregation": self.aggregation, "metric_name": self.metric_name})
        return config


def graph_network_add_loss(model: Any, symbolic_loss: Any) -> None:
    """Inserts the layers computing `symbolic_loss` and an AddLoss layer into `model`."""
    nodes, layers = _map_subgraph_network(model.inputs, [symbolic_loss])
    add_loss_layer = AddLoss(unconditional=False, dtype=symbolic_loss.dtype)
    add_loss_layer(symbolic_loss)
    _insert_layers(model, layers + [add_loss_layer],
                   nodes + list(add_loss_layer._inbound_nodes))


def graph_network_add_metric(model: Any, value: Any, aggregation: Any, name: str) -> None:
    """Inserts the layers computing `value` and an AddMetric layer into `model`."""
    nodes, layers = _map_subgraph_network(model.inputs, [value])
    add_metric_layer = AddMetric(aggregation, name, dtype=value.dtype)
    add_metric_layer(value)
    _insert_layers(model, layers + [add_metric_layer],
                   nodes + list(add_metric_layer._inbound_nodes))


def connect_ancillary_layers(model: Any, created_layers: Dict[str, Layer]) -> Any:
    """Inserts the layers a config rebuilt that do not lead to the model's outputs (those
    `add_loss` / `add_metric` added) into `model`, with their calls."""
    from tf1compat.keras.engine.functional_config import skips_first_node
    known = {id(layer) for layer in model.layers}
    ancillary = [layer for layer in created_layers.values() if id(layer) not in known]
    if ancillary:
        nodes = [node for layer in created_layers.values()
                 for node in layer._inbound_nodes[int(skips_first_node(layer)):]]
        _insert_layers(model, ancillary, nodes)
    return model


def _map_subgraph_network(inputs: List[Any], outputs: List[Any]) -> tuple:
    """The nodes and layers between `inputs` and `outputs` (raw ops get layers first)."""
    from tf1compat.keras.engine.op_layer import create_keras_history
    from tf1compat.keras.engine.training import _map_graph_network
    create_keras_history(outputs)
    _, nodes_by_depth, layers, _ = _map_graph_network(inputs, outputs)
    return nest.flatten(list(nodes_by_depth.values())), layers


def _insert_layers(model: Any, layers: List[Layer], relevant_nodes: List[Any]) -> None:
    """Adds `relevant_nodes` to the model's nodes by depth (each one shallower than its
    shallowest input) and the new `layers` after the model's layers."""
    node_to_depth: Dict[int, int] = {}
    for depth, nodes in model._nodes_by_depth.items():
        node_to_depth.update({id(node): depth for node in nodes})
    network_nodes = {id(n) for n in relevant_nodes} | set(node_to_depth)

    def min_depth(node: Any) -> Optional[int]:
        shallowest = 0
        for parent in node.parent_nodes:
            if id(parent) in node_to_depth:
                shallowest = min(shallowest, node_to_depth[id(parent)])
            elif id(parent) in network_nodes:
                return None     # an input's node is not placed yet
        return shallowest - 1

    unprocessed = list(relevant_nodes)
    rounds = 0
    while unprocessed:
        rounds += 1
        if rounds > 10000:
            raise ValueError("Layers could not be added due to missing dependencies.")
        node = unprocessed.pop(0)
        depth = min_depth(node)
        if depth is None:
            unprocessed.append(node)
            continue
        key = (node.layer.name, node.layer._inbound_nodes.index(node))
        if key not in model._network_nodes:
            node_to_depth[id(node)] = depth
            model._network_nodes.add(key)
            model._nodes_by_depth.setdefault(depth, []).append(node)
    known = {id(layer) for layer in model._self_tracked_trackables}
    for layer in layers:
        if id(layer) not in known:
            model._self_tracked_trackables.append(layer)
            known.add(id(layer))
    model._track_layer_dependencies()
    model._compute_tensor_usage_count()
