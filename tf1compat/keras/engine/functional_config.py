"""A functional model's config (tf-keras's Functional get_config / from_config format).

`get_network_config` lists every layer with its config and `inbound_nodes`: one entry per
call of the layer inside the model, each the list of its first argument's tensors as
`[layer name, node index, tensor index, call kwargs]` (node indices renumbered to count
only the model's own nodes); `input_layers` / `output_layers` name the model's inputs and
outputs the same way. `reconstruct_from_config` creates the layers from their configs and
calls them on each other's outputs in that order (deferring nodes whose inputs do not
exist yet), then returns the input and output tensors.
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from tf1compat.framework.tensor import Tensor
from tf1compat.keras.engine import node as node_module
from tf1compat.keras.engine.op_lambda import SlicingOpLambda, TFOpLambda, serialize_slices
from tf1compat.util import nest

__all__ = ["get_network_config", "reconstruct_from_config"]


def _node_key(layer_name: str, node_index: int) -> Tuple[str, int]:
    return (layer_name, node_index)


def skips_first_node(layer: Any) -> bool:
    """A functional model used as a layer has its own first node (its construction)."""
    from tf1compat.keras.engine.input_layer import InputLayer
    if not getattr(layer, "_is_graph_network", False):
        return False
    tracked = getattr(layer, "_self_tracked_trackables", [])
    return not tracked or isinstance(tracked[0], InputLayer)


def _serialize_node(node: Any, conversion: Dict[Tuple[str, int], int]) -> Any:
    from tf1compat.keras.engine.base_layer import _call_signature
    args, kwargs = node.call_args, dict(node.call_kwargs)
    inputs, rest = args[0], args[1:]
    names, _ = _call_signature(type(node.layer))
    kwargs = {**dict(zip(names[1:], rest)), **kwargs}
    op_layer = isinstance(node.layer, TFOpLambda)

    def serialize_value(t: Any) -> Any:
        history = node_module.keras_history(t)
        if history is not None:
            return [history.layer.name,
                    conversion.get(_node_key(history.layer.name, history.node_index), 0),
                    history.tensor_index]
        if isinstance(t, np.ndarray):
            return t.tolist()
        if isinstance(t, Tensor) and t._is_eager_tensor and op_layer:
            return t.numpy().tolist()     # (a constant argument of a TF function)
        if isinstance(t, Tensor):
            raise NotImplementedError(f"Serializing layer {node.layer.name}'s call on a "
                                      "constant tensor argument is not supported by "
                                      "tf1compat")
        return t

    kwargs = nest.map_structure(serialize_value, kwargs)
    if "slice_spec" in kwargs and isinstance(node.layer, SlicingOpLambda):
        kwargs["slice_spec"] = serialize_slices(node.call_kwargs["slice_spec"])

    def serialize_input(t: Any) -> Any:
        history = node_module.keras_history(t)
        if history is None and op_layer:
            return ["_CONSTANT_VALUE", -1, serialize_value(t), kwargs]   # (`1.0 + x`)
        if history is None:
            raise NotImplementedError(f"Serializing a call of layer {node.layer.name} on "
                                      "a non-Keras value is not supported by tf1compat")
        return [history.layer.name,
                conversion.get(_node_key(history.layer.name, history.node_index), 0),
                history.tensor_index, kwargs]

    data = [serialize_input(t) for t in nest.flatten(inputs)]
    if op_layer and not isinstance(inputs, (list, tuple, dict)):
        return data[0]     # (tf-keras keeps a TF function's argument structure)
    if isinstance(inputs, dict):
        return dict(zip(sorted(inputs), data))
    return data


def _coordinates(tensors: List[Any], nested: Any, conversion: Dict[Tuple[str, int], int],
                 network_nodes: Any) -> Any:
    entries = []
    for t in tensors:
        history = node_module.keras_history(t)
        key = _node_key(history.layer.name, history.node_index)
        if key not in network_nodes:
            continue
        entries.append([history.layer.name, conversion[key], history.tensor_index])
    if isinstance(nested, dict):
        return dict(zip(sorted(nested), entries))
    if not isinstance(nested, (list, tuple)):
        return [entries[0]] if entries else []
    return entries


def get_network_config(model: Any, serialize_layer: Callable[[Any], Dict[str, Any]]
                       ) -> Dict[str, Any]:
    """`{"name", "trainable", "layers", "input_layers", "output_layers"}` of a
    functional model."""
    conversion: Dict[Tuple[str, int], int] = {}
    for layer in model.layers:
        kept = 1 if skips_first_node(layer) else 0
        for index, _ in enumerate(layer._inbound_nodes):
            key = _node_key(layer.name, index)
            if key in model._network_nodes:
                conversion[key] = kept
                kept += 1
    layer_configs = []
    for layer in model.layers:
        inbound = []
        for index, node in enumerate(layer._inbound_nodes):
            if _node_key(layer.name, index) in model._network_nodes and not node.is_input:
                inbound.append(_serialize_node(node, conversion))
        layer_config = serialize_layer(layer)
        layer_config["name"] = layer.name
        layer_config["inbound_nodes"] = inbound
        layer_configs.append(layer_config)
    return {"name": model.name, "trainable": model.trainable, "layers": layer_configs,
            "input_layers": _coordinates(model.inputs, model._nested_inputs, conversion,
                                         model._network_nodes),
            "output_layers": _coordinates(model.outputs, model._nested_outputs, conversion,
                                          model._network_nodes)}


def reconstruct_from_config(config: Dict[str, Any], deserialize_layer: Callable[..., Any],
                            custom_objects: Optional[Dict[str, Any]] = None
                            ) -> Tuple[Any, Any, Dict[str, Any]]:
    """(input tensors, output tensors, layers by name) rebuilt from a network config."""
    from tf1compat.keras.engine.input_layer import InputLayer
    created: Dict[str, Any] = collections.OrderedDict()
    node_index_map: Dict[Tuple[str, int], int] = {}
    node_count: Dict[int, int] = {}
    unprocessed: Dict[int, List[Any]] = collections.OrderedDict()

    def node_index_of(layer: Any, config_index: int) -> Optional[int]:
        if isinstance(layer, InputLayer):
            return 0
        return node_index_map.get((layer.name, config_index))

    def tensor_of(entry: List[Any]) -> Any:
        if entry[0] == "_CONSTANT_VALUE" and entry[1] == -1:
            return entry[2]      # (a TF function layer's constant first argument)
        layer = created[entry[0]]
        index = node_index_of(layer, entry[1])
        if index is None:
            raise IndexError(entry[0])
        return nest.flatten(layer._inbound_nodes[index].outputs)[entry[2]]

    def process_node(layer: Any, node_data: Any) -> bool:
        single = bool(node_data) and isinstance(node_data, list) and \
            isinstance(node_data[0], str)     # (a TF function layer's one argument)
        entries = list(node_data.values()) if isinstance(node_data, dict) else \
            [node_data] if single else node_data
        tensors, kwargs = [], {}
        for entry in entries:
            if len(entry) not in (3, 4):
                raise ValueError("Improperly formatted model config.")
            kwargs = entry[3] if len(entry) == 4 else {}
            try:
                kwargs = _deserialize_kwargs(kwargs, tensor_of)
                tensors.append(tensor_of(entry))
            except IndexError:
                return False
        if isinstance(node_data, dict):
            inputs: Any = dict(zip(node_data.keys(), tensors))
        elif getattr(layer, "_preserve_input_structure_in_config", False):
            inputs = tensors[0] if single else tensors
        else:
            inputs = tensors[0] if len(tensors) == 1 else tensors
        outputs = layer(inputs, **kwargs)
        history = node_module.keras_history(nest.flatten(outputs)[0])
        node_index_map[(layer.name, node_count[id(layer)])] = history.node_index
        node_count[id(layer)] += 1
        return True

    for layer_data in config["layers"]:
        name = layer_data["name"]
        layer = created.get(name)
        if layer is None:
            layer = deserialize_layer(layer_data, custom_objects=custom_objects)
            created[name] = layer
        node_count[id(layer)] = int(skips_first_node(layer))
        for node_data in layer_data["inbound_nodes"]:
            unprocessed.setdefault(id(layer), []).append(node_data)
    while unprocessed:
        progressed = False
        for layer_data in config["layers"]:
            layer = created[layer_data["name"]]
            pending = unprocessed.pop(id(layer), None)
            if pending is None:
                continue
            while pending:
                if process_node(layer, pending[0]):
                    pending.pop(0)
                    progressed = True
                else:
                    unprocessed[id(layer)] = pending
                    break
        if not progressed and unprocessed:
            raise ValueError("Improperly formatted model config: some layer calls cannot be "
                             "connected to their inputs.")

    def endpoints(spec: Any) -> Any:
        if isinstance(spec, dict):
            return {k: tensor_of(v) for k, v in spec.items()}
        return [tensor_of(v) for v in spec]

    return endpoints(config["input_layers"]), endpoints(config["output_layers"]), created


def _deserialize_kwargs(kwargs: Any, tensor_of: Callable[[List[Any]], Any]) -> Any:
    """Call kwargs with `[layer, node, tensor]` triples replaced by those tensors."""
    if isinstance(kwargs, dict):
        return {k: _deserialize_kwargs(v, tensor_of) for k, v in kwargs.items()}
    if isinstance(kwargs, list) and len(kwargs) == 3 and isinstance(kwargs[0], str) and \
            isinstance(kwargs[1], int) and isinstance(kwargs[2], int):
        return tensor_of(kwargs)
    return kwargs
