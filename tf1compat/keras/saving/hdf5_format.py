"""Keras HDF5 files (tf-keras's legacy `.h5` layout), through h5py.

A weights file (or a model file's `model_weights` group) has attributes `layer_names`,
`backend`, `keras_version`; one group per layer (sorted by name) whose `weight_names`
attribute lists its weights (`dense/kernel:0`) and whose datasets sit at those names
(`dense/dense/kernel:0`); and `top_level_model_weights` for the model's own weights. A
model file adds the attributes `model_config` and `training_config` (JSON) and, when the
optimizer has weights, an `optimizer_weights` group laid out the same way.

Loading by topology matches the file's layers that have weights to the model's layers
that have weights, in order; loading `by_name` matches layer names (`skip_mismatch`
skips count and shape mismatches with a warning). Files written by tf-keras load here
and files written here load in tf-keras.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from tf1compat.keras import backend
from tf1compat.keras.saving.model_config import (KERAS_VERSION, compile_args_from_training_config,
                                                 decode_ellipsis, json_default, model_from_config,
                                                 model_metadata, try_build_compiled_arguments)
from tf1compat.keras.utils.io_utils import ask_to_proceed_with_overwrite
from tf1compat.util import tf_logging as logging

__all__ = ["save_weights_to_hdf5", "load_weights_from_hdf5", "save_model_to_hdf5",
           "load_model_from_hdf5"]

# HDF5 attributes larger than this do not fit an object header: they are chunked.
_HEADER_LIMIT = 64512


def _h5py() -> Any:
    try:
        import h5py
    except ImportError as e:
        raise ImportError("Saving and loading Keras models in HDF5 format needs h5py "
                          "(`pip install h5py`).") from e
    return h5py


def save_attributes_to_hdf5_group(group: Any, name: str, data: List[bytes]) -> None:
    too_large = [x for x in data if len(x) > _HEADER_LIMIT]
    if too_large:
        raise RuntimeError("The following attributes cannot be saved to HDF5 file because "
                           f"they are larger than {_HEADER_LIMIT} bytes: {too_large}")
    array = np.asarray(data)
    chunks = 1
    split = np.array_split(array, chunks)
    while any(x.nbytes > _HEADER_LIMIT for x in split):
        chunks += 1
        split = np.array_split(array, chunks)
    if chunks > 1:
        for i, chunk in enumerate(split):
            group.attrs[f"{name}{i}"] = chunk
    else:
        group.attrs[name] = data


def load_attributes_from_hdf5_group(group: Any, name: str) -> List[str]:
    def text(x: Any) -> Any:
        return x.decode("utf8") if hasattr(x, "decode") else x
    if name in group.attrs:
        return [text(x) for x in group.attrs[name]]
    data, i = [], 0
    while f"{name}{i}" in group.attrs:
        data.extend(text(x) for x in group.attrs[f"{name}{i}"])
        i += 1
    return data


def _layer_weights(layer: Any) -> List[Any]:
    return layer.trainable_weights + layer.non_trainable_weights


def _save_subset(group: Any, weights: Sequence[Any]) -> None:
    values = backend.batch_get_value(list(weights))
    names = [w.name.encode("utf8") for w in weights]
    save_attributes_to_hdf5_group(group, "weight_names", names)
    for name, value in zip(names, values):
        dataset = group.create_dataset(name, value.shape, dtype=value.dtype)
        if not value.shape:
            dataset[()] = value
        else:
            dataset[:] = value


def _load_subset(group: Any) -> List[np.ndarray]:
    return [np.asarray(group[name]) for name in load_attributes_from_hdf5_group(group, "weight_names")]


def _own_weights(model: Any) -> List[Any]:
    return list(model._trainable_weights) + list(model._non_trainable_weights)


def save_weights_to_group(group: Any, model: Any) -> None:
    """Writes every layer's weights (and the model's own) into an open HDF5 group."""
    save_attributes_to_hdf5_group(group, "layer_names", [layer.name.encode("utf8") for layer in model.layers])
    group.attrs["backend"] = backend.backend().encode("utf8")
    group.attrs["keras_version"] = KERAS_VERSION.encode("utf8")
    for layer in sorted(model.layers, key=lambda x: x.name):
        _save_subset(group.create_group(layer.name), _layer_weights(layer))
    _save_subset(group.create_group("top_level_model_weights"), _own_weights(model))


def _file_versions(group: Any) -> tuple:
    version = group.attrs.get("keras_version", "1")
    backend_name = group.attrs.get("backend")
    text = (lambda x: x.decode("utf8") if hasattr(x, "decode") else x)
    return text(version), text(backend_name) if backend_name is not None else None


def _preprocess(layer: Any, values: List[np.ndarray], version: str) -> List[np.ndarray]:
    """Values as the layer's weights expect them: Keras 2 files need no conversion;
    converting Keras 1 files (old layouts and names) is not supported."""
    if str(version).startswith("1"):
        raise NotImplementedError("Loading weights saved by Keras 1 is not supported by "
                                  "tf1compat")
    return values


def load_weights_from_group(group: Any, model: Any) -> None:
    """Loads weights by topology: the file's layers with weights, in order, onto the
    model's layers with weights."""
    version, _ = _file_versions(group)
    layers = [layer for layer in model.layers if _layer_weights(layer)]
    names = [name for name in load_attributes_from_hdf5_group(group, "layer_names")
             if load_attributes_from_hdf5_group(group[name], "weight_names")]
    if len(names) != len(layers):
        raise ValueError("Layer count mismatch when loading weights from file. Model expected "
                         f"{len(layers)} layers, found {len(names)} saved layers.")
    tuples: List[Any] = []
    for k, name in enumerate(names):
        layer = layers[k]
        symbolic = _layer_weights(layer)
        values = _preprocess(layer, _load_subset(group[name]), version)
        if len(values) != len(symbolic):
            raise ValueError(f"Weight count mismatch for layer #{k} (named {layer.name} in the "
                             f"current model, {name} in the save file). Layer expects "
                             f"{len(symbolic)} weight(s). Received {len(values)} saved "
                             "weight(s)")
        tuples += zip(symbolic, values)
    if "top_level_model_weights" in group:
        symbolic = _own_weights(model)
        values = _load_subset(group["top_level_model_weights"])
        if len(values) != len(symbolic):
            raise ValueError("Weight count mismatch for top-level weights when loading weights "
                             f"from file. Model expects {len(symbolic)} top-level weight(s). "
                             f"Received {len(values)} saved top-level weight(s)")
        tuples += zip(symbolic, values)
    _set_values(tuples)


def _set_values(tuples: List[Any]) -> None:
    for symbolic, value in tuples:
        expected = tuple(symbolic.shape.as_list())
        if expected != tuple(np.shape(value)):
            raise ValueError(f"Shape mismatch for weight {symbolic.name}: the model expects "
                             f"{expected}, the file holds {tuple(np.shape(value))}")
    backend.batch_set_value(tuples)


def load_weights_from_group_by_name(group: Any, model: Any, skip_mismatch: bool = False
                                    ) -> None:
    """Loads the weights of the layers whose names are in the file."""
    version, _ = _file_versions(group)
    index: Dict[str, List[Any]] = {}
    for layer in model.layers:
        index.setdefault(layer.name, []).append(layer)
    tuples: List[Any] = []
    for k, name in enumerate(load_attributes_from_hdf5_group(group, "layer_names")):
        values = _load_subset(group[name])
        for layer in index.get(name, []):
            symbolic = _layer_weights(layer)
            values = _preprocess(layer, values, version)
            if len(values) != len(symbolic):
                message = (f"Weight count mismatch for layer #{k} (named {layer.name}). Layer "
                           f"expects {len(symbolic)} weight(s). Received {len(values)} saved "
                           "weight(s)")
                if not skip_mismatch:
                    raise ValueError(message)
                logging.warning(f"Skipping loading of weights for layer #{k} (named "
                                f"{layer.name}) due to mismatch in number of weights. Layer "
                                f"expects {len(symbolic)} weight(s). Received {len(values)} "
                                "saved weight(s)")
                continue
            for weight, value in zip(symbolic, values):
                expected = backend.int_shape(weight)
                if expected != value.shape:
                    if not skip_mismatch:
                        raise ValueError(f"Shape mismatch in layer #{k} (named {layer.name}) "
                                         f"for weight {weight.name}. Weight expects shape "
                                         f"{expected}. Received saved weight with shape "
                                         f"{value.shape}")
                    logging.warning(f"Skipping loading weights for layer #{k} (named "
                                    f"{layer.name}) due to mismatch in shape for weight "
                                    f"{weight.name}. Weight expects shape {expected}. Received "
                                    f"saved weight with shape {value.shape}")
                    continue
                tuples.append((weight, value))
    if "top_level_model_weights" in group:
        symbolic = _own_weights(model)
        values = _load_subset(group["top_level_model_weights"])
        if len(values) != len(symbolic):
            if not skip_mismatch:
                raise ValueError("Weight count mismatch for top-level weights of model. Model "
                                 f"expects {len(symbolic)} top-level weight(s). Received "
                                 f"{len(values)} saved top-level weight(s)")
        else:
            tuples += [(w, v) for w, v in zip(symbolic, values)
                       if backend.int_shape(w) == v.shape or not skip_mismatch]
    _set_values(tuples)


def save_weights_to_hdf5(model: Any, filepath: str) -> None:
    """`model.save_weights("w.h5")`."""
    h5py = _h5py()
    _ensure_dir(filepath)
    with h5py.File(filepath, "w") as f:
        save_weights_to_group(f, model)


def load_weights_from_hdf5(model: Any, filepath: str, by_name: bool = False,
                           skip_mismatch: bool = False) -> None:
    """`model.load_weights("w.h5")` (a weights file or a whole-model file)."""
    h5py = _h5py()
    if skip_mismatch and not by_name:
        raise ValueError("When calling model.load_weights, skip_mismatch can only be set to "
                         "True when by_name is True.")
    with h5py.File(filepath, "r") as f:
        if "layer_names" not in f.attrs and "model_weights" in f:
            f = f["model_weights"]
        if by_name:
            load_weights_from_group_by_name(f, model, skip_mismatch=skip_mismatch)
        else:
            load_weights_from_group(f, model)


def _ensure_dir(filepath: str) -> None:
    directory = os.path.dirname(filepath)
    if directory and not os.path.exists(directory):
        os.makedirs(directory, exist_ok=True)


def save_model_to_hdf5(model: Any, filepath: str, overwrite: bool = True,
                       include_optimizer: bool = True) -> None:
    """`model.save("m.h5")`: config, training config, weights and optimizer state."""
    from tf1compat.keras.optimizers import TFOptimizer
    h5py = _h5py()
    if not overwrite and os.path.isfile(filepath):
        if not ask_to_proceed_with_overwrite(filepath):
            return
    _ensure_dir(filepath)
    metadata = model_metadata(model, include_optimizer)
    with h5py.File(filepath, mode="w") as f:
        for key, value in metadata.items():
            if isinstance(value, (dict, list, tuple)):
                f.attrs[key] = json.dumps(value, default=json_default).encode("utf8")
            else:
                f.attrs[key] = value
        save_weights_to_group(f.create_group("model_weights"), model)
        optimizer = model.optimizer
        if include_optimizer and optimizer and not isinstance(optimizer, TFOptimizer):
            weights = optimizer.weights
            if weights:
                _save_subset(f.create_group("optimizer_weights"), weights)


def load_model_from_hdf5(filepath: str, custom_objects: Optional[Dict[str, Any]] = None,
                         compile: bool = True) -> Any:
    """The model an HDF5 file holds, weights restored and (with `compile`) compiled with
    the saved optimizer state."""
    h5py = _h5py()
    from tf1compat.keras.utils.serialization import get_custom_objects
    custom_objects = {**(custom_objects or {}), **get_custom_objects()}
    with h5py.File(filepath, mode="r") as f:
        config = f.attrs.get("model_config")
        if config is None:
            raise ValueError(f"No model config found in the file at {filepath}.")
        if hasattr(config, "decode"):
            config = config.decode("utf-8")
        model = model_from_config(json.loads(config, object_hook=decode_ellipsis),
                                  custom_objects=custom_objects)
        load_weights_from_group(f["model_weights"], model)
        if not compile:
            return model
        training_config = f.attrs.get("training_config")
        if training_config is None:
            logging.warning("No training configuration found in the save file, so the model "
                            "was *not* compiled. Compile it manually.")
            return model
        if hasattr(training_config, "decode"):
            training_config = training_config.decode("utf-8")
        model.compile(**compile_args_from_training_config(json.loads(training_config),
                                                          custom_objects),
                      from_serialized=True)
        try_build_compiled_arguments(model)
        if "optimizer_weights" in f:
            _restore_optimizer(model, f)
    return model


def _restore_optimizer(model: Any, f: Any) -> None:
    optimizer = model.optimizer
    try:
        optimizer._create_all_weights(model.trainable_variables)
    except (NotImplementedError, AttributeError):
        logging.warning("Error when creating the weights of optimizer {}, making it impossible "
                        "to restore the saved optimizer state. As a result, your model is "
                        "starting with a freshly initialized optimizer.")
        return
    group = f["optimizer_weights"]
    values = [np.asarray(group[name]) for name in load_attributes_from_hdf5_group(group, "weight_names")]
    try:
        optimizer.set_weights(values)
    except ValueError:
        logging.warning("Error in loading the saved optimizer state. As a result, your model "
                        "is starting with a freshly initialized optimizer.")
