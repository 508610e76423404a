"""`tf.keras.Sequential`: a stack of layers.

With an input shape (on the first layer or an `InputLayer`) the model is a functional
graph from a placeholder named `<first layer>_input`, built as layers are added; without
one, the layers are built on the first call, inside the model's name scope
(`sequential/dense/kernel`), as TF1 graph-mode Keras does.
"""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.util import nest
from tf1compat.util import tf_logging as logging
from tf1compat.keras.engine import node as node_module
from tf1compat.keras.engine.base_layer import Layer, default
from tf1compat.keras.engine.input_layer import Input, InputLayer
from tf1compat.keras.engine.training import Model

__all__ = ["Sequential"]


class Sequential(Model):
    """`tf.keras.Sequential(layers=None, name=None)`."""

    _no_tracking = Model._no_tracking | frozenset({"_auto_input_layer",
                                                   "_has_explicit_input_shape"})

    def __init__(self, layers: Optional[List[Layer]] = None, name: Optional[str] = None):
        super().__init__(name=name)
        self._auto_input_layer: Optional[InputLayer] = None
        self._has_explicit_input_shape = False
        if layers:
            if not isinstance(layers, (list, tuple)):
                layers = [layers]
            for layer in layers:
                self.add(layer)

    @property
    def input_spec(self) -> Any:
        """The graph network's specs only when the model was given its input shape (a
        model built on its first call checks nothing), as tf-keras's Sequential."""
        if self._input_spec is None and not self._has_explicit_input_shape:
            return None
        return super().input_spec

    @input_spec.setter
    def input_spec(self, value: Any) -> None:
        self._input_spec = value

    @property
    def layers(self) -> List[Layer]:
        # (the InputLayer at the bottom of the stack, given or made from an input shape,
        # is not listed, as in tf-keras)
        out = list(self._flatten_layers(include_self=False, recursive=False))
        if out and isinstance(out[0], InputLayer):
            return out[1:]
        return out

    def add(self, layer: Layer) -> None:
        """Appends a layer (an InputLayer or a layer with an input shape starts the graph)."""
        if not isinstance(layer, Layer):
            raise TypeError("The added layer must be an instance of class Layer. Received: "
                            f"layer={layer} of type {type(layer)}.")
        # The same layer object may come twice (one pooling layer after each convolution,
        # as TF's official MNIST model does); only another layer of the same name is refused.
        if any(x.name == layer.name and x is not layer for x in self._self_tracked_trackables):
            raise ValueError(f'All layers added to a Sequential model should have unique names. '
                             f'Name "{layer.name}" is already the name of a layer in this '
                             "model. Update the `name` argument to pass a unique name.")
        self.built = False
        set_inputs = False
        self._self_tracked_trackables.append(layer)
        if not self.outputs:
            if isinstance(layer, InputLayer):
                set_inputs = True
                self._has_explicit_input_shape = True
            elif getattr(layer, "_batch_input_shape", None) is not None:
                x = Input(batch_shape=layer._batch_input_shape, dtype=layer.dtype,
                          name=layer.name + "_input")
                self._auto_input_layer = node_module.keras_history(x).layer
                self._self_tracked_trackables.insert(-1, self._auto_input_layer)
                layer(x)
                set_inputs = True
                self._has_explicit_input_shape = True
            if set_inputs:
                outputs = nest.flatten(layer._inbound_nodes[-1].outputs)
                if len(outputs) != 1:
                    raise ValueError("All layers in a Sequential model should have a single "
                                     "output tensor. For multi-output layers, use the "
                                     "functional API.")
                self.outputs = outputs
                self.inputs = [layer._inbound_nodes[-1].outputs] if isinstance(
                    layer, InputLayer) else [node_module.keras_history(x).layer
                                             ._inbound_nodes[0].outputs]
        elif self.outputs:
            output = layer(self.outputs[0])
            if len(nest.flatten(output)) != 1:
                raise ValueError("All layers in a Sequential model should have a single output "
                                 "tensor. For multi-output layers, use the functional API.")
            self.outputs = [output]
        if self.outputs:
            self._rebuild_graph_network()
        self._track_layer_dependencies()

    def _rebuild_graph_network(self) -> None:
        layers = list(self._self_tracked_trackables)
        self._init_graph_network(self.inputs[0], self.outputs[0])
        self._self_tracked_trackables = layers
        self.built = True

    def pop(self) -> None:
        if not self.layers:
            raise TypeError("There are no layers in the model.")
        layer = self._self_tracked_trackables.pop()
        for key, child in list(self._checkpoint_dependencies):
            if child is layer:
                self._untrack(key)
        if not self.layers:
            self.outputs, self.inputs, self.built = [], [], False
            self._is_graph_network = False
        elif self._is_graph_network:
            self.outputs = [nest.flatten(self.layers[-1]._inbound_nodes[-1].outputs)[0]]
            self._rebuild_graph_network()
        self._track_layer_dependencies()

    @default
    def build(self, input_shape: Any = None) -> None:
        if self._is_graph_network:
            self.built = True
            return
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        from tf1compat.keras import backend
        self._build_input_shape = tuple(getattr(input_shape, "as_list", lambda: input_shape)())
        # (Keras' graph: under eager execution a graph of its own, as tf-keras builds)
        with backend.get_graph().as_default():
            self.call(backend.placeholder(shape=self._build_input_shape))
        self.built = True
        self._track_layer_dependencies()

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        if self._is_graph_network:
            return self._run_internal_graph(inputs)
        outputs = inputs
        for layer in self.layers:
            kwargs = {}
            if "training" in _arg_names(layer) and training is not None:
                kwargs["training"] = training
            outputs = layer(outputs, **kwargs)
            if len(nest.flatten(outputs)) != 1:
                raise ValueError("All layers in a Sequential model should have a single output "
                                 "tensor. For multi-output layers, use the functional API.")
        return outputs

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        outputs = super().__call__(*args, **kwargs)
        if not self._is_graph_network:
            self._track_layer_dependencies()
        return outputs

    def predict_proba(self, x: Any, batch_size: int = 32, verbose: int = 0) -> Any:
        """`predict(x)`, with TF 1.x's warning when the outputs are not in [0, 1]."""
        preds = self.predict(x, batch_size, verbose)
        if preds.min() < 0.0 or preds.max() > 1.0:
            logging.warning("Network returning invalid probability values. The last layer "
                            "might not normalize predictions into probabilities (like "
                            "softmax or sigmoid would).")
        return preds

    def predict_classes(self, x: Any, batch_size: int = 32, verbose: int = 0) -> Any:
        """The class of each sample: the argmax of `predict(x)`, or `> 0.5` (int32) for a
        single output unit (TF 1.x's Sequential)."""
        proba = self.predict(x, batch_size=batch_size, verbose=verbose)
        if proba.shape[-1] > 1:
            return proba.argmax(axis=-1)
        return (proba > 0.5).astype("int32")

    def compute_output_shape(self, input_shape: Any) -> Any:
        shape = input_shape
        for layer in self.layers:
            shape = layer.compute_output_shape(shape)
        return shape

    def get_config(self) -> dict:
        """`{"name", "layers"}` (the InputLayer first when the model has one; the built
        input shape of a model built without one)."""
        from tf1compat.keras.layers.serialization import serialize
        layers = list(self._flatten_layers(include_self=False, recursive=False))
        config: dict = {"name": self.name, "layers": [serialize(layer) for layer in layers]}
        if getattr(self, "_tf1compat_legacy_config", False) and not self._is_graph_network \
                and getattr(self, "_build_input_shape", None):
            config["build_input_shape"] = self._build_input_shape
        return config

    @classmethod
    def from_config(cls, config: Any, custom_objects: Any = None) -> "Sequential":
        """A Sequential model of the layers a config lists."""
        from tf1compat.keras.layers.serialization import deserialize
        if isinstance(config, dict) and "name" in config:
            name, build_shape, layer_configs = (config["name"],
                                                config.get("build_input_shape"),
                                                config["layers"])
        else:
            name, build_shape, layer_configs = None, None, config
        model = cls(name=name)
        for layer_config in layer_configs:
            model.add(deserialize(layer_config, custom_objects=custom_objects))
        if not model.inputs and isinstance(build_shape, (tuple, list)):
            model.build(build_shape)
        return model


def _arg_names(layer: Layer) -> tuple:
    from tf1compat.keras.engine.base_layer import _call_signature
    return _call_signature(type(layer))[0]
