"""Model configs as JSON: `Model.to_json`, `tf.keras.models.model_from_json`,
`model_from_config`, and the model/training metadata HDF5 files carry (tf-keras's
legacy format: `{"class_name", "config", "keras_version", "backend"}`)."""

from __future__ import annotations

import json
from typing import Any, Dict, Optional

import numpy as np

from tf1compat.keras import backend

__all__ = ["KERAS_VERSION", "model_to_json", "model_from_json", "model_from_config",
           "model_from_yaml", "json_default", "model_metadata",
           "compile_args_from_training_config"]

# The tf-keras version whose file format tf1compat writes (and reads).
KERAS_VERSION = "2.21.0"


def json_default(obj: Any) -> Any:
    """JSON for the values configs hold: numpy scalars and arrays, shapes, dtypes,
    functions and Keras objects (passively serialized)."""
    from tf1compat.framework.dtypes import DType
    from tf1compat.framework.tensor_shape import Dimension, TensorShape
    from tf1compat.keras.utils.serialization import serialize_keras_object
    if hasattr(obj, "get_config"):
        serialized = serialize_keras_object(obj)
        serialized["__passive_serialization__"] = True
        return serialized
    if type(obj).__module__ == np.__name__:
        return obj.tolist() if isinstance(obj, np.ndarray) else obj.item()
    if callable(obj):
        return obj.__name__
    if isinstance(obj, Dimension):
        return obj.value
    if isinstance(obj, TensorShape):
        return obj.as_list()
    if isinstance(obj, DType):
        return obj.name
    if obj is Ellipsis:
        return {"class_name": "__ellipsis__"}
    raise TypeError(f"Unable to serialize {obj} to JSON. Unrecognized type {type(obj)}.")


def _class_name(model: Any) -> str:
    from tf1compat.keras.engine.training import Model
    if type(model) is Model and getattr(model, "_is_graph_network", False):
        return "Functional"
    return type(model).__name__


def model_to_json(model: Any, **kwargs: Any) -> str:
    config = {"class_name": _class_name(model), "config": model.get_config(),
              "keras_version": KERAS_VERSION, "backend": backend.backend()}
    return json.dumps(config, default=json_default, **kwargs)


def model_from_config(config: Dict[str, Any], custom_objects: Optional[Dict[str, Any]] = None
                      ) -> Any:
    """The model (or layer) a `{"class_name", "config"}` dict describes."""
    if isinstance(config, list):
        raise TypeError("`model_from_config` expects a dictionary, not a list. Received: "
                        f"config={config}. Did you meant to use "
                        "`Sequential.from_config(config)`?")
    from tf1compat.keras.layers.serialization import deserialize
    return deserialize(config, custom_objects=custom_objects)


def decode_ellipsis(obj: Dict[str, Any]) -> Any:
    """A `json.loads` object hook: tf-keras's `{"class_name": "__ellipsis__"}` (a slice
    spec's `...` in an op layer's call arguments) back to Ellipsis."""
    return Ellipsis if obj == {"class_name": "__ellipsis__"} else obj


def model_from_json(json_string: str, custom_objects: Optional[Dict[str, Any]] = None) -> Any:
    """The model a `to_json()` string describes (new weights)."""
    return model_from_config(json.loads(json_string, object_hook=decode_ellipsis),
                             custom_objects=custom_objects)


def model_from_yaml(yaml_string: str, custom_objects: Any = None) -> Any:
    raise RuntimeError("Method `model_from_yaml()` has been removed due to security risk of "
                       "arbitrary code execution. Please use `Model.to_json()` and "
                       "`model_from_json()` instead.")


def _serialize_nested(config: Any) -> Any:
    from tf1compat.keras.utils.serialization import serialize_keras_object
    from tf1compat.util import nest
    return nest.map_structure(lambda obj: serialize_keras_object(obj) if callable(obj)
                              else obj, config)


def model_metadata(model: Any, include_optimizer: bool = True) -> Dict[str, Any]:
    """`keras_version`, `backend`, `model_config` and (compiled with a Keras optimizer)
    `training_config` of a model."""
    from tf1compat.keras.optimizers import TFOptimizer
    from tf1compat.keras.utils.serialization import get_registered_name
    from tf1compat.util import tf_logging as logging
    # (HDF5 model configs are tf-keras's "legacy" ones: an unbuilt Sequential keeps its
    # build_input_shape)
    model._tf1compat_legacy_config = True
    try:
        config = model.get_config()
    finally:
        del model._tf1compat_legacy_config
    metadata: Dict[str, Any] = {
        "keras_version": KERAS_VERSION, "backend": backend.backend(),
        "model_config": {"class_name": _class_name(model), "config": config}}
    if model.optimizer and include_optimizer:
        if isinstance(model.optimizer, TFOptimizer):
            logging.warning("TensorFlow optimizers do not make it possible to access optimizer "
                            "attributes or optimizer state after instantiation. As a result, "
                            "we cannot save the optimizer as part of the model save file. You "
                            "will have to compile your model again after loading it. Prefer "
                            "using a TF-Keras optimizer instead (see keras.io/optimizers).")
        else:
            metrics, weighted = model._compile_metrics, model._compile_weighted_metrics
            state = getattr(model, "_eager", None)
            if state is not None and state.built:
                # (tf-keras's v2 models save their built metric objects, one list per
                # output, named as they log)
                metrics = None if state.user_metrics is None else state.metric_objects
                weighted = None if state.user_weighted is None else state.weighted_objects
            training_config = _serialize_nested({
                "loss": model.loss, "metrics": metrics,
                "loss_weights": model.loss_weights,
                "sample_weight_mode": model.sample_weight_mode,
                "weighted_metrics": weighted})
            training_config["optimizer_config"] = {
                "class_name": get_registered_name(type(model.optimizer)),
                "config": model.optimizer.get_config()}
            metadata["training_config"] = training_config
    return metadata


def _deserialize_nested(deserialize: Any, config: Any) -> Any:
    if isinstance(config, dict) and "class_name" in config:
        return deserialize(config)
    if isinstance(config, dict):
        return {k: _deserialize_nested(deserialize, v) for k, v in config.items()}
    if isinstance(config, (list, tuple)):
        return [_deserialize_nested(deserialize, v) for v in config]
    if isinstance(config, str):
        return deserialize(config)
    return config


def _deserialize_metric(config: Any) -> Any:
    from tf1compat.keras import metrics
    if config in ("accuracy", "acc", "crossentropy", "ce"):
        return config
    return metrics.deserialize(config)


def compile_args_from_training_config(training_config: Dict[str, Any],
                                      custom_objects: Optional[Dict[str, Any]] = None
                                      ) -> Dict[str, Any]:
    """The `compile` arguments a saved training config describes."""
    from tf1compat.keras import losses, optimizers
    from tf1compat.keras.utils.serialization import CustomObjectScope
    with CustomObjectScope(custom_objects or {}):
        optimizer = optimizers.deserialize(training_config["optimizer_config"])
        loss = training_config.get("loss")
        if loss is not None:
            loss = _deserialize_nested(losses.deserialize, loss)
        metrics = training_config.get("metrics")
        if metrics is not None:
            metrics = _deserialize_nested(_deserialize_metric, metrics)
        weighted = training_config.get("weighted_metrics")
        if weighted is not None:
            weighted = _deserialize_nested(_deserialize_metric, weighted)
        return {"optimizer": optimizer, "loss": loss, "metrics": metrics,
                "weighted_metrics": weighted, "loss_weights": training_config["loss_weights"],
                "sample_weight_mode": None}


def try_build_compiled_arguments(model: Any) -> None:
    """After a loader compiles a model under eager execution: builds its compiled losses
    and metrics on its outputs (as both targets and predictions), so `metrics_names` lists
    them before the first step, as tf-keras's loaders do (`saving_utils`). As there, an
    "acc"/"ce" metric is then resolved from the outputs' shapes."""
    from tf1compat.framework.context import executing_eagerly
    from tf1compat.util import tf_logging as logging
    state = getattr(model, "_eager", None)
    if not executing_eagerly() or state is None or state.built or not model.outputs:
        return
    outputs = list(model.outputs)
    try:
        state.build(outputs, outputs)
    except Exception:  # noqa: BLE001 - tf-keras warns and builds on the first step instead
        logging.warning("Compiled the loaded model, but the compiled metrics have yet to be "
                        "built. `model.compile_metrics` will be empty until you train or "
                        "evaluate the model.")
