"""`tf.keras.models.save_model` / `load_model` and the HDF5 branch of
`Model.save_weights` / `load_weights`.

TF1 Keras saves whole models as HDF5 (its default format without TF2 behaviour): any
path, unless `save_format="tf"` asks for a SavedModel, which is not supported
(NotImplementedError; use `save_weights` or `tf.saved_model`). Weights go to HDF5 for
paths ending in `.h5`/`.hdf5`/`.keras` or `save_format="h5"`, otherwise to TF's checkpoint
format (engine/weights_io.py).
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional

from tf1compat.keras.saving import hdf5_format

__all__ = ["save_model", "load_model", "is_hdf5_filepath"]

_HDF5_SUFFIXES = (".h5", ".keras", ".hdf5")


def is_hdf5_filepath(filepath: Any) -> bool:
    return isinstance(filepath, str) and filepath.endswith(_HDF5_SUFFIXES)


def save_model(model: Any, filepath: Any, overwrite: bool = True,
               include_optimizer: bool = True, save_format: Optional[str] = None,
               signatures: Any = None, options: Any = None, save_traces: bool = True
               ) -> None:
    """Writes the model's config, weights and (compiled) optimizer to an HDF5 file."""
    from tf1compat.keras.engine.sequential import Sequential
    filepath = os.fspath(filepath)
    save_format = (save_format or "h5").lower()
    if save_format in ("tf", "tensorflow") and not is_hdf5_filepath(filepath):
        raise NotImplementedError("Saving a Keras model as a SavedModel (save_format='tf') is "
                                  "not supported by tf1compat; save it as HDF5 (the TF1 "
                                  "default) or use model.save_weights")
    if signatures is not None or options is not None:
        raise NotImplementedError("save_model(signatures=..., options=...) (SavedModel "
                                  "options) is not supported by tf1compat")
    if not model._is_graph_network and not isinstance(model, Sequential):
        raise NotImplementedError(
            "Saving the model to HDF5 format requires the model to be a Functional model or a "
            "Sequential model. It does not work for subclassed models, because such models "
            "are defined via the body of a Python method, which isn't safely serializable. "
            'Consider saving to the Tensorflow SavedModel format (by setting save_format="tf") '
            "or using `save_weights`.")
    hdf5_format.save_model_to_hdf5(model, filepath, overwrite, include_optimizer)


def load_model(filepath: Any, custom_objects: Optional[Dict[str, Any]] = None,
               compile: bool = True, options: Any = None) -> Any:
    """The model saved at `filepath` (HDF5)."""
    filepath = os.fspath(filepath)
    if not os.path.exists(filepath):
        raise IOError(f"No file or directory found at {filepath}")
    if os.path.isdir(filepath):
        raise NotImplementedError("Loading a Keras model from a SavedModel directory is not "
                                  "supported by tf1compat; load HDF5 model files")
    return hdf5_format.load_model_from_hdf5(filepath, custom_objects, compile)
