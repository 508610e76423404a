"""`tf.keras.models`: Model and Sequential, saving and loading (saving/), configs and
`clone_model`."""

# ruff: noqa: F401
from typing import Any, Callable, Optional

from tf1compat.keras.engine.sequential import Sequential
from tf1compat.keras.engine.training import Model
from tf1compat.keras.premade_models import LinearModel, WideDeepModel
from tf1compat.keras.saving.model_config import (model_from_config, model_from_json,
                                                 model_from_yaml)
from tf1compat.keras.saving.save import load_model, save_model
from tf1compat.util import nest

__all__ = ["Model", "Sequential", "save_model", "load_model", "model_from_config",
           "model_from_json", "model_from_yaml", "clone_model", "LinearModel",
           "WideDeepModel"]


def _clone_layer(layer: Any) -> Any:
    return type(layer).from_config(layer.get_config())


def _input_wrapper(tensor: Any, name: str) -> Any:
    """The InputLayer a clone starts from: a Keras tensor's own layer, or a new one
    wrapping a plain graph tensor."""
    from tf1compat.keras.engine.input_layer import InputLayer
    from tf1compat.keras.engine.node import keras_history
    history = keras_history(tensor)
    if history is not None:
        return history.layer
    return InputLayer(input_tensor=tensor, name=name)


def clone_model(model: Any, input_tensors: Any = None,
                clone_function: Optional[Callable[[Any], Any]] = None) -> Any:
    """A model of the same architecture with new layers (new weights): each layer is
    `clone_function(layer)` (a fresh layer from its config by default). With
    `input_tensors` the clone is built on them (each graph tensor wrapped in an `Input`
    named `input_wrapper_for_<input layer>`, as tf-keras) instead of new placeholders."""
    from tf1compat.keras.engine.functional_config import reconstruct_from_config
    from tf1compat.keras.engine.functional_insert import connect_ancillary_layers
    from tf1compat.keras.engine.input_layer import InputLayer
    clone = clone_function or _clone_layer
    if isinstance(model, Sequential):
        layers = [layer for layer in model._flatten_layers(include_self=False,
                                                           recursive=False)]
        if input_tensors is not None:
            tensors = nest.flatten(input_tensors)
            if len(tensors) != 1:
                raise ValueError("To clone a `Sequential` model, we expect at most one "
                                 "tensor as part of `input_tensors`.")
            wrapper = _input_wrapper(tensors[0], f"input_wrapper_for_{tensors[0].name}")
            return Sequential([wrapper] + [clone(layer) for layer in layers
                                           if not isinstance(layer, InputLayer)],
                              name=model.name)
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
    if input_tensors is not None:
        tensors = nest.flatten(input_tensors)
        if len(tensors) != len(model._input_layers):
            raise ValueError(f"Model expects {len(model._input_layers)} input tensors, got "
                             f"{len(tensors)}.")
        for layer, tensor in zip(model._input_layers, tensors):
            created[layer.name] = _input_wrapper(tensor, f"input_wrapper_for_{layer.name}")

    def deserialize(layer_config: Any, custom_objects: Any = None) -> Any:
        return created[layer_config["name"]]
    inputs, outputs, created = reconstruct_from_config(config, deserialize)
    return connect_ancillary_layers(Model(inputs=inputs, outputs=outputs, name=model.name),
                                    created)
