"""`tf.keras.layers.serialize` / `deserialize`: layers (and models) to and from
`{"class_name", "config"}`; class names resolve among tf.keras.layers, InputLayer, the
model classes (`Functional` is tf-keras's name for a functional `Model`) and custom
objects."""

from __future__ import annotations

from typing import Any, Dict, Optional

from tf1compat.keras.utils.serialization import (deserialize_keras_object,
                                                 serialize_keras_object)

__all__ = ["serialize", "deserialize"]


def _layer_objects() -> Dict[str, Any]:
    from tf1compat.keras import layers
    from tf1compat.keras.engine.base_layer import Layer
    from tf1compat.keras.engine.sequential import Sequential
    from tf1compat.keras.engine.training import Model
    objects = {name: obj for module in (layers, layers.experimental)
               for name, obj in vars(module).items()
               if isinstance(obj, type) and issubclass(obj, Layer)}
    from tf1compat.keras.layers.sequence_features import SequenceFeatures
    # (TF functions on eager Keras inputs: layers tf-keras makes but does not export)
    from tf1compat.keras.engine.op_lambda import SlicingOpLambda, TFOpLambda
    from tf1compat.keras.engine.op_layer import TensorFlowOpLayer
    from tf1compat.keras.engine.functional_insert import AddLoss, AddMetric
    from tf1compat.keras.premade_models import LinearModel, WideDeepModel
    objects.update(Model=Model, Functional=Model, Sequential=Sequential,
                   LinearModel=LinearModel, WideDeepModel=WideDeepModel,
                   SequenceFeatures=SequenceFeatures, TFOpLambda=TFOpLambda,
                   SlicingOpLambda=SlicingOpLambda, TensorFlowOpLayer=TensorFlowOpLayer,
                   AddLoss=AddLoss, AddMetric=AddMetric)
    return objects


def serialize(layer: Any) -> Dict[str, Any]:
    """`{"class_name": ..., "config": layer.get_config()}` (functional models are
    "Functional")."""
    from tf1compat.keras.engine.training import Model
    config = serialize_keras_object(layer)
    if type(layer) is Model and getattr(layer, "_is_graph_network", False):
        config["class_name"] = "Functional"
    return config


def deserialize(config: Dict[str, Any], custom_objects: Optional[Dict[str, Any]] = None,
                **unused: Any) -> Any:
    """The layer (or model) a serialized config stands for."""
    return deserialize_keras_object(config, module_objects=_layer_objects(),
                                    custom_objects=custom_objects,
                                    printable_module_name="layer")
