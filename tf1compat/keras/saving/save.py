"""`tf.keras.models.save_model` / `load_model` and the HDF5 branch of
`Model.save_weights` / `load_weights`.

TF1 Keras saves whole models as HDF5 (its default format without TF2 behaviour): any
path, unless `save_format="tf"` asks for a SavedModel directory (saved_model_format.py);
`load_model` tells the two apart by the path being a directory. Weights go to HDF5 for
paths ending in `.h5`/`.hdf5`/`.keras` or `save_format="h5"`, otherwise to TF's checkpoint
format (engine/weights_io.py).
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional

from tf1compat.keras.saving import hdf5_format, saved_model_format

__all__ = ["save_model", "load_model", "is_hdf5_filepath"]

_HDF5_SUFFIXES = (".h5", ".keras", ".hdf5")


def is_hdf5_filepath(filepath: Any) -> bool:
    return isinstance(filepath, str) and filepath.endswith(_HDF5_SUFFIXES)


def save_model(model: Any, filepath: Any, overwrite: bool = True,
               include_optimizer: bool = True, save_format: Optional[str] = None,
               signatures: Any = None, options: Any = None, save_traces: bool = True
               ) -> None:
    """Writes the model's config, weights and (compiled) optimizer to an HDF5 file, or
    (`save_format="tf"`) to a SavedModel directory."""
    from tf1compat.keras.engine.sequential import Sequential
    from tf1compat.keras.saving.model_config import try_build_compiled_arguments
    filepath = os.fspath(filepath)
    save_format = _save_format(filepath, save_format)
    # (as tf-keras: metrics not built yet by a step are built first, so the saved metric
    # names are the ones the model logs)
    try_build_compiled_arguments(model)
    if signatures is not None or options is not None:
        raise NotImplementedError("save_model(signatures=..., options=...) (SavedModel "
                                  "options) is not supported by tf1compat")
    if save_format == "tf":
        saved_model_format.save_model_to_saved_model(model, filepath, overwrite,
                                                     include_optimizer)
        return
    if not model._is_graph_network and not isinstance(model, Sequential):
        raise NotImplementedError(
            "Saving the model to HDF5 format requires the model to be a Functional model or a "
            "Sequential model. It does not work for subclassed models, because such models "
            "are defined via the body of a Python method, which isn't safely serializable. "
            'Consider saving to the Tensorflow SavedModel format (by setting save_format="tf") '
            "or using `save_weights`.")
    hdf5_format.save_model_to_hdf5(model, filepath, overwrite, include_optimizer)


def _save_format(filepath: str, save_format: Optional[str]) -> str:
    """"tf" or "h5" as tf-keras decides under TF1 behaviour (HDF5 unless asked)."""
    if not save_format:
        return "h5"
    save_format = save_format.lower()
    if save_format in ("tf", "tensorflow"):
        return "tf"
    if save_format in ("h5", "hdf5", "keras"):
        return "h5"
    raise ValueError("Unknown `save_format` argument. Expected one of 'keras', 'tf', or "
                     f"'h5'. Received: save_format={save_format}")


def load_model(filepath: Any, custom_objects: Optional[Dict[str, Any]] = None,
               compile: bool = True, options: Any = None) -> Any:
    """The model saved at `filepath` (an HDF5 file or a SavedModel directory)."""
    filepath = os.fspath(filepath)
    if not os.path.exists(filepath):
        raise IOError(f"No file or directory found at {filepath}")
    if os.path.isdir(filepath):
        if not saved_model_format.is_keras_saved_model(filepath):
            raise IOError(f"No file or directory found at {filepath}")
        return saved_model_format.load_model_from_saved_model(filepath, custom_objects,
                                                              compile)
    return hdf5_format.load_model_from_hdf5(filepath, custom_objects, compile)
