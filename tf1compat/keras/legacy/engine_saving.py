"""`keras.engine.saving`'s HDF5 group helpers as standalone Keras 2.2.4 spelled them.

Keras 2.2.4's helpers take an open HDF5 group and a *list of layers* (tf-keras's take a
model): `save_weights_to_hdf5_group(f, model.layers)` writes `layer_names`, `backend`,
`keras_version` and one group per layer in the order given (no `top_level_model_weights`);
`load_weights_from_hdf5_group(f, layers)` matches the file's layers that have weights to the
given layers that have weights, in order; `..._by_name` matches names. The attribute chunking
and file layout are tf1compat.keras.saving.hdf5_format's, so groups written here load there
and in real Keras, and the other way round.

`preprocess_weights_for_loading` converts what Keras 2.2.4 converts for files of Keras 2:
kernels of convolutions saved by the Theano backend (flipped spatially), `reshape=True`
reshaping of convolution kernels of the right size, and wrappers / nested models, layer by
layer. Keras 1 files and CuDNN <-> plain RNN weight layouts raise NotImplementedError.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from tf1compat.keras import backend
from tf1compat.keras.saving.hdf5_format import (load_attributes_from_hdf5_group,
                                                save_attributes_to_hdf5_group)
from tf1compat.keras.standalone_names import convert_kernel

__all__ = ["save_attributes_to_hdf5_group", "load_attributes_from_hdf5_group",
           "save_weights_to_hdf5_group", "preprocess_weights_for_loading",
           "load_weights_from_hdf5_group", "load_weights_from_hdf5_group_by_name"]

# Backends whose convolution is a correlation (Theano's flips the kernel).
# The version standalone Keras writes into its files (tf1compat/shim_keras.py's version).
_STANDALONE_KERAS_VERSION = "2.2.4"
_USES_CORRELATION = {"tensorflow": True, "theano": False, "cntk": True}
_CONV_LAYERS = ("Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose", "ConvLSTM2D")
_RNN_LAYERS = ("LSTM", "GRU", "CuDNNLSTM", "CuDNNGRU")


def _text(value: Any) -> Any:
    return value.decode("utf8") if hasattr(value, "decode") else value


def save_weights_to_hdf5_group(f: Any, layers: Sequence[Any]) -> None:
    """Writes the weights of `layers` (in that order) into the open HDF5 group `f`."""
    save_attributes_to_hdf5_group(f, "layer_names",
                                  [layer.name.encode("utf8") for layer in layers])
    f.attrs["backend"] = backend.backend().encode("utf8")
    f.attrs["keras_version"] = _STANDALONE_KERAS_VERSION.encode("utf8")
    for layer in layers:
        group = f.create_group(layer.name)
        weights = layer.weights
        values = backend.batch_get_value(weights)
        names = [(str(w.name) if getattr(w, "name", None) else f"param_{i}").encode("utf8")
                 for i, w in enumerate(weights)]
        save_attributes_to_hdf5_group(group, "weight_names", names)
        for name, value in zip(names, values):
            dataset = group.create_dataset(name, value.shape, dtype=value.dtype)
            if value.shape:
                dataset[:] = value
            else:
                dataset[()] = value


def _need_convert_kernel(original_backend: Optional[str]) -> bool:
    if original_backend not in _USES_CORRELATION:
        return False
    return _USES_CORRELATION[original_backend] != _USES_CORRELATION["tensorflow"]


def _nested_layers(layer: Any) -> Optional[List[Any]]:
    """The sublayers whose weights make up `layer`'s, in the file's order, or None."""
    name = type(layer).__name__
    if name == "Bidirectional":
        return [layer.forward_layer, layer.backward_layer]
    if name == "TimeDistributed":
        return [layer.layer]
    if name in ("Model", "Sequential") or (hasattr(layer, "layers") and
                                           hasattr(layer, "_is_graph_network")):
        return list(layer.layers)
    return None


def _preprocess_nested(layer: Any, weights: List[np.ndarray], sublayers: List[Any],
                       version: str, original_backend: Optional[str]) -> List[np.ndarray]:
    """Each sublayer's slice of `weights`, converted. Bidirectional and TimeDistributed
    store their sublayers' weights one after the other; a nested model stores all the
    trainable weights first, then the non-trainable ones (Keras 2.2.4's `weights`)."""
    if type(layer).__name__ == "Bidirectional":
        half = len(weights) // 2
        parts = [weights[:half], weights[half:]]
        return [w for sub, part in zip(sublayers, parts)
                for w in preprocess_weights_for_loading(sub, part, version, original_backend)]
    if type(layer).__name__ == "TimeDistributed":
        return preprocess_weights_for_loading(sublayers[0], weights, version,
                                              original_backend)
    trainable: List[np.ndarray] = []
    non_trainable: List[np.ndarray] = []
    rest = list(weights)
    for attr, out in (("trainable_weights", trainable),
                      ("non_trainable_weights", non_trainable)):
        for sub in sublayers:
            count = len(getattr(sub, attr))
            if count:
                out.extend(preprocess_weights_for_loading(sub, rest[:count], version,
                                                          original_backend))
                rest = rest[count:]
    if rest:
        raise ValueError(f"The saved weights of model {layer.name} have {len(weights)} "
                         f"elements, but its layers expect {len(weights) - len(rest)}.")
    return trainable + non_trainable


def preprocess_weights_for_loading(layer: Any, weights: List[np.ndarray],
                                   original_keras_version: Optional[str] = None,
                                   original_backend: Optional[str] = None,
                                   reshape: bool = False) -> List[np.ndarray]:
    """The saved `weights` of `layer` as the layer's own weights expect them."""
    version = str(original_keras_version) if original_keras_version is not None else "2"
    if version.startswith("1"):
        raise NotImplementedError("Loading weights saved by Keras 1 "
                                  "(preprocess_weights_for_loading with "
                                  f"original_keras_version={original_keras_version!r}) is not "
                                  "supported by tf1compat")
    weights = list(weights)
    sublayers = _nested_layers(layer)
    if sublayers is not None:
        weights = _preprocess_nested(layer, weights, sublayers, version, original_backend)
    name = type(layer).__name__
    if name in _CONV_LAYERS and weights:
        expected = backend.int_shape(layer.weights[0])
        if _need_convert_kernel(original_backend):
            weights[0] = convert_kernel(weights[0])
            if name == "ConvLSTM2D":
                weights[1] = convert_kernel(weights[1])
        if reshape and expected != weights[0].shape:
            if weights[0].size != int(np.prod(expected)):
                raise ValueError(
                    "Weights must be of equal size to apply a reshape operation. Layer "
                    f"{layer.name}'s weights have shape {expected} and size "
                    f"{int(np.prod(expected))}. The weights for loading have shape "
                    f"{weights[0].shape} and size {weights[0].size}. ")
            weights[0] = np.reshape(weights[0], expected)
        elif expected != weights[0].shape:
            # Keras 2.2.4 reads a mismatched kernel as Theano's channels-first layout.
            weights[0] = np.transpose(weights[0], (3, 2, 0, 1))
            if name == "ConvLSTM2D":
                weights[1] = np.transpose(weights[1], (3, 2, 0, 1))
    if name in _RNN_LAYERS and len(weights) == len(layer.weights) and any(
            backend.int_shape(w) != v.shape for w, v in zip(layer.weights, weights)):
        raise NotImplementedError(
            f"Converting the saved weights of {name} layer {layer.name} between the CuDNN "
            "and the plain RNN layouts is not supported by tf1compat")
    return weights


def _file_versions(f: Any) -> tuple:
    version = _text(f.attrs["keras_version"]) if "keras_version" in f.attrs else "1"
    original_backend = _text(f.attrs["backend"]) if "backend" in f.attrs else None
    return version, original_backend


def _saved_values(group: Any) -> List[np.ndarray]:
    return [np.asarray(group[name])
            for name in load_attributes_from_hdf5_group(group, "weight_names")]


def load_weights_from_hdf5_group(f: Any, layers: Sequence[Any], reshape: bool = False
                                 ) -> None:
    """Loads weights by topology: the file's layers with weights, in order, onto those of
    `layers` that have weights (ValueError on a count mismatch, as Keras 2.2.4)."""
    version, original_backend = _file_versions(f)
    targets = [layer for layer in layers if layer.weights]
    names = [name for name in load_attributes_from_hdf5_group(f, "layer_names")
             if load_attributes_from_hdf5_group(f[name], "weight_names")]
    if len(names) != len(targets):
        raise ValueError(f"You are trying to load a weight file containing {len(names)} "
                         f"layers into a model with {len(targets)} layers.")
    tuples: List[Any] = []
    for k, (name, layer) in enumerate(zip(names, targets)):
        symbolic = layer.weights
        values = preprocess_weights_for_loading(layer, _saved_values(f[name]), version,
                                                original_backend, reshape=reshape)
        if len(values) != len(symbolic):
            raise ValueError(f'Layer #{k} (named "{layer.name}" in the current model) was '
                             f"found to correspond to layer {name} in the save file. However "
                             f"the new layer {layer.name} expects {len(symbolic)} weights, but "
                             f"the saved weights have {len(values)} elements.")
        tuples += zip(symbolic, values)
    backend.batch_set_value(tuples)


def load_weights_from_hdf5_group_by_name(f: Any, layers: Sequence[Any],
                                         skip_mismatch: bool = False,
                                         reshape: bool = False) -> None:
    """Loads the weights of the layers whose names are in the file; with `skip_mismatch`
    count and shape mismatches are skipped with a warning, else they raise ValueError."""
    version, original_backend = _file_versions(f)
    index: Dict[str, List[Any]] = {}
    for layer in layers:
        if layer.name:
            index.setdefault(layer.name, []).append(layer)
    tuples: List[Any] = []
    for k, name in enumerate(load_attributes_from_hdf5_group(f, "layer_names")):
        values = _saved_values(f[name])
        for layer in index.get(name, []):
            symbolic = layer.weights
            values = preprocess_weights_for_loading(layer, values, version,
                                                    original_backend, reshape=reshape)
            if len(values) != len(symbolic):
                if not skip_mismatch:
                    raise ValueError(f'Layer #{k} (named "{layer.name}") expects '
                                     f"{len(symbolic)} weight(s), but the saved weights have "
                                     f"{len(values)} element(s).")
                warnings.warn(f"Skipping loading of weights for layer {layer.name} due to "
                              f"mismatch in number of weights ({len(symbolic)} vs "
                              f"{len(values)}).")
                continue
            for weight, value in zip(symbolic, values):
                expected = backend.int_shape(weight)
                if expected == value.shape:
                    tuples.append((weight, value))
                elif skip_mismatch:
                    warnings.warn(f"Skipping loading of weights for layer {layer.name} due to "
                                  f"mismatch in shape ({weight.shape} vs {value.shape}).")
                else:
                    raise ValueError(f'Layer #{k} (named "{layer.name}"), weight {weight} has '
                                     f"shape {expected}, but the saved weight has shape "
                                     f"{value.shape}.")
    backend.batch_set_value(tuples)
