"""`Model.save_weights` / `load_weights`. In TF's format the model is the root of an
object-based checkpoint (keys such as `layer_with_weights-0/kernel/.ATTRIBUTES/
VARIABLE_VALUE`), written and restored with the same machinery as `tf.train.Checkpoint`
(training/saving/trackable_checkpoint.py); HDF5 files (`.h5`, `.keras`, `.hdf5`) are Keras's
layout (saving/hdf5_format.py)."""

from __future__ import annotations

import os
from typing import Any, Optional

from tf1compat.framework import context as _context
from tf1compat.keras import backend

__all__ = ["save_weights", "load_weights"]

_HDF5 = (".h5", ".keras", ".hdf5")


def save_weights(model: Any, filepath: Any, overwrite: bool = True,
                 save_format: Optional[str] = None) -> None:
    from tf1compat.training.saving import checkpoint_state
    from tf1compat.training.saving.trackable_checkpoint import write_object_graph
    filepath = os.fspath(filepath)
    is_h5 = filepath.endswith(_HDF5)
    if save_format is None:
        save_format = "h5" if is_h5 else "tf"
    else:
        save_format = save_format.lower().strip()
        if save_format in ("tensorflow", "tf"):
            save_format = "tf"
        elif save_format in ("hdf5", "h5", "keras"):
            save_format = "h5"
        else:
            raise ValueError(f"Unknown format. Received: `save_format`={save_format}. Was "
                             "expecting one of {\"tf\", \"h5\"}.")
    if save_format == "tf" and is_h5:
        raise ValueError(f"save_weights got save_format=\"tf\"/\"tensorflow\", but the "
                         f"filepath (\"{filepath}\") looks like an HDF5 file. Omit the \".h5\"/"
                         "\".keras\" when saving in TensorFlow format.")
    from tf1compat.keras.utils.io_utils import ask_to_proceed_with_overwrite
    if save_format == "h5":
        from tf1compat.keras.saving.hdf5_format import save_weights_to_hdf5
        if not overwrite and os.path.isfile(filepath) and \
                not ask_to_proceed_with_overwrite(filepath):
            return
        save_weights_to_hdf5(model, filepath)
        return
    from tf1compat.training.saving.checkpoint_state import (
        checkpoint_exists_internal as checkpoint_exists)
    if not overwrite and checkpoint_exists(filepath) and \
            not ask_to_proceed_with_overwrite(filepath):
        return
    session = None if _context.executing_eagerly() else backend.get_session()
    cache = model.__dict__.setdefault("_tf1compat_weight_save_ops", {})
    write_object_graph(model, filepath, session=session, save_ops=cache)
    checkpoint_state.update_checkpoint_state_internal(
        save_dir=os.path.dirname(filepath), model_checkpoint_path=filepath,
        save_relative_paths=True, all_model_checkpoint_paths=[filepath])


def load_weights(model: Any, filepath: Any, by_name: bool = False,
                 skip_mismatch: bool = False) -> Any:
    from tf1compat.training.saving.trackable_checkpoint import restore_object_graph
    filepath = os.fspath(filepath)
    if filepath.endswith(_HDF5) or _is_hdf5_file(filepath):
        from tf1compat.keras.saving.hdf5_format import load_weights_from_hdf5
        load_weights_from_hdf5(model, filepath, by_name=by_name, skip_mismatch=skip_mismatch)
        return None
    status = restore_object_graph(model, filepath)
    if by_name:
        raise NotImplementedError("Weights may only be loaded based on topology into Models "
                                  "when loading TensorFlow-formatted weights (got by_name=True "
                                  "to load_weights).")
    if not _context.executing_eagerly():
        status.run_restore_ops(backend.get_session())
    status.assert_nontrivial_match()
    return status


def _is_hdf5_file(filepath: str) -> bool:
    """Whether `filepath` is an HDF5 file (by its signature), whatever its suffix."""
    if not os.path.isfile(filepath):
        return False
    with open(filepath, "rb") as f:
        return f.read(8) == b"\x89HDF\r\n\x1a\n"
