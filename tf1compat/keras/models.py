"""`tf.keras.models`: Model and Sequential, saving and loading (saving/), configs and
`clone_model`."""

# ruff: noqa: F401
from typing import Any, Callable, Optional

from tf1compat.keras.engine.sequential import Sequential
from tf1compat.keras.engine.training import Model
from tf1compat.keras.saving.model_config import (model_from_config, model_from_json,
                                                 model_from_yaml)
from tf1compat.keras.saving.save import load_model, save_model

__all__ = ["Model", "Sequential", "save_model", "load_model", "model_from_config",
           "model_from_json", "model_from_yaml", "clone_model"]


def _clone_layer(layer: Any) -> Any:
    return type(layer).from_config(layer.get_config())


def clone_model(model: Any, input_tensors: Any = None,
                clone_function: Optional[Callable[[Any], Any]] = None) -> Any:
    """A model of the same architecture with new layers (new weights): each layer is
    `clone_function(layer)` (a fresh layer from its config by default)."""
    from tf1compat.keras.engine.functional_config import reconstruct_from_config
    from tf1compat.keras.engine.input_layer import InputLayer
    if input_tensors is not None:
        raise NotImplementedError("clone_model(input_tensors=...) is not supported by "
                                  "tf1compat")
    clone = clone_function or _clone_layer
    if isinstance(model, Sequential):
        layers = [layer for layer in model._flatten_layers(include_self=False,
                                                           recursive=False)]
        cloned = [_clone_layer(layer) if isinstance(layer, InputLayer) else clone(layer)
                  for layer in layers]
        return Sequential(cloned, name=model.name)
    if not model._is_graph_network:
        raise ValueError("Expected `model` argument to be a functional `Model` instance, but "
                         f"got a subclassed model instead: {model}")
    config = model.get_config()
    created = {}
    for layer in model.layers:
        created[layer.name] = _clone_layer(layer) if isinstance(layer, InputLayer) \
            else clone(layer)

    def deserialize(layer_config: Any, custom_objects: Any = None) -> Any:
        return created[layer_config["name"]]
    inputs, outputs, _ = reconstruct_from_config(config, deserialize)
    return Model(inputs=inputs, outputs=outputs, name=model.name)
