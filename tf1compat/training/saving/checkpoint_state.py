"""The `checkpoint` state file and TF's checkpoint-management functions.

A checkpoint directory holds a small text file (default name `checkpoint`): a
CheckpointState proto in protobuf text format, naming the latest checkpoint and the ones
still kept:

    model_checkpoint_path: "model.ckpt-3"
    all_model_checkpoint_paths: "model.ckpt-2"
    all_model_checkpoint_paths: "model.ckpt-3"
    all_model_checkpoint_timestamps: 1700000000.5      # CheckpointManager writes these
    last_preserved_timestamp: 1699999000.25

It is written as TF writes it (`text_format.MessageToString` of the proto), always
atomically, and read with `text_format.Merge`. A checkpoint "exists" if `<prefix>.index`
(TF's V2 layout, which tf1compat writes), `<prefix>.safetensors` (earlier tf1compat
versions) or the file `<prefix>` itself (TF's V1 format) does.
"""

from __future__ import annotations

import glob as _glob
import os
import re
from typing import Any, Iterable, List, Optional

from google.protobuf import text_format

from tf1compat.util import tf_logging
from tf1compat.framework import errors
from tf1compat.serialization.atomic_files import atomic_write_text
from tf1compat.serialization.messages import CheckpointState
from tf1compat.serialization.safetensors_checkpoint import checkpoint_file as legacy_file

__all__ = ["CheckpointState", "generate_checkpoint_state_proto", "update_checkpoint_state",
           "update_checkpoint_state_internal", "get_checkpoint_state", "latest_checkpoint",
           "checkpoint_exists", "checkpoint_exists_internal", "get_checkpoint_mtimes",
           "remove_checkpoint", "meta_graph_filename", "parse_checkpoint_state",
           "checkpoint_files", "V1", "V2"]

# SaverDef.CheckpointFormatVersion values.
V1 = 1
V2 = 2


def parse_checkpoint_state(text: str) -> CheckpointState:
    """The CheckpointState in `text` (text_format.ParseError if it is not one)."""
    state = CheckpointState()
    text_format.Merge(text, state)
    return state


# -- the state file ---------------------------------------------------------------------------

def _state_filename(save_dir: str, latest_filename: Optional[str]) -> str:
    return os.path.join(save_dir, "checkpoint" if latest_filename is None else latest_filename)


def generate_checkpoint_state_proto(save_dir: str, model_checkpoint_path: str,
                                    all_model_checkpoint_paths: Optional[List[str]] = None,
                                    all_model_checkpoint_timestamps: Optional[List[float]] = None,
                                    last_preserved_timestamp: Optional[float] = None
                                    ) -> CheckpointState:
    """A CheckpointState; paths become relative to `save_dir` when it is relative.

    The latest checkpoint is appended to `all_model_checkpoint_paths` when it is not its
    last element (TF mutates the caller's list the same way).
    """
    if all_model_checkpoint_paths is None:
        all_model_checkpoint_paths = []
    if not all_model_checkpoint_paths or \
            all_model_checkpoint_paths[-1] != model_checkpoint_path:
        tf_logging.info("%s is not in all_model_checkpoint_paths. Manually adding it.",
                       model_checkpoint_path)
        all_model_checkpoint_paths.append(model_checkpoint_path)
    if all_model_checkpoint_timestamps and \
            len(all_model_checkpoint_timestamps) != len(all_model_checkpoint_paths):
        raise ValueError(f"Checkpoint timestamps, if provided, must match checkpoint paths (got "
                         f"paths {all_model_checkpoint_paths} and timestamps "
                         f"{all_model_checkpoint_timestamps})")
    if not os.path.isabs(save_dir):
        if not os.path.isabs(model_checkpoint_path):
            model_checkpoint_path = os.path.relpath(model_checkpoint_path, save_dir)
        for i, p in enumerate(all_model_checkpoint_paths):
            if not os.path.isabs(p):
                all_model_checkpoint_paths[i] = os.path.relpath(p, save_dir)
    state = CheckpointState(model_checkpoint_path=model_checkpoint_path,
                            all_model_checkpoint_paths=all_model_checkpoint_paths,
                            all_model_checkpoint_timestamps=all_model_checkpoint_timestamps)
    if last_preserved_timestamp is not None:
        state.last_preserved_timestamp = last_preserved_timestamp
    return state


def update_checkpoint_state_internal(save_dir: str, model_checkpoint_path: str,
                                     all_model_checkpoint_paths: Optional[List[str]] = None,
                                     latest_filename: Optional[str] = None,
                                     save_relative_paths: bool = False,
                                     all_model_checkpoint_timestamps: Optional[List[float]] = None,
                                     last_preserved_timestamp: Optional[float] = None) -> None:
    """Writes the state file atomically (`tf.__internal__.train.update_checkpoint_state`).

    With `save_relative_paths`, absolute paths are stored relative to `save_dir` (what
    `Saver(save_relative_paths=True)` and CheckpointManager do).

    Raises:
      RuntimeError: if the latest checkpoint's path is the state file's own path.
    """
    save_dir = os.fspath(save_dir)
    filename = _state_filename(save_dir, latest_filename)
    if all_model_checkpoint_paths is None:
        all_model_checkpoint_paths = []
    if save_relative_paths:
        rel = model_checkpoint_path
        if os.path.isabs(rel):
            rel = os.path.relpath(rel, save_dir)
        rel_all = [os.path.relpath(p, save_dir) if os.path.isabs(p) else p
                   for p in all_model_checkpoint_paths]
        state = generate_checkpoint_state_proto(save_dir, rel, rel_all,
                                                all_model_checkpoint_timestamps,
                                                last_preserved_timestamp)
    else:
        state = generate_checkpoint_state_proto(save_dir, model_checkpoint_path,
                                                all_model_checkpoint_paths,
                                                all_model_checkpoint_timestamps,
                                                last_preserved_timestamp)
    if filename == state.model_checkpoint_path:
        raise RuntimeError(f"Save path '{model_checkpoint_path}' conflicts with path used for "
                           f"checkpoint state.  Please use a different save path.")
    try:
        atomic_write_text(filename, text_format.MessageToString(state))
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{filename}; No such file or directory") \
            from None
    except NotADirectoryError:
        raise errors.FailedPreconditionError(None, None, f"{filename}; Not a directory") \
            from None


def update_checkpoint_state(save_dir: str, model_checkpoint_path: str,
                            all_model_checkpoint_paths: Optional[List[str]] = None,
                            latest_filename: Optional[str] = None,
                            all_model_checkpoint_timestamps: Optional[List[float]] = None,
                            last_preserved_timestamp: Optional[float] = None) -> None:
    """`tf.train.update_checkpoint_state`: writes the state file (paths as given)."""
    update_checkpoint_state_internal(
        save_dir=save_dir, model_checkpoint_path=model_checkpoint_path,
        all_model_checkpoint_paths=all_model_checkpoint_paths,
        latest_filename=latest_filename, save_relative_paths=False,
        all_model_checkpoint_timestamps=all_model_checkpoint_timestamps,
        last_preserved_timestamp=last_preserved_timestamp)


def get_checkpoint_state(checkpoint_dir: Any,
                         latest_filename: Optional[str] = None) -> Optional[CheckpointState]:
    """The CheckpointState in `checkpoint_dir`, or None if there is no readable state file.

    Relative paths in the file are joined to `checkpoint_dir`. An unreadable or unparsable
    file is logged and ignored, as TF does.

    Raises:
      ValueError: if the file parses but names no model_checkpoint_path.
    """
    checkpoint_dir = os.fspath(checkpoint_dir)
    filename = _state_filename(checkpoint_dir, latest_filename)
    if not os.path.exists(filename):
        return None
    try:
        with open(filename, "rb") as f:
            content = f.read().decode("utf-8")
        state = parse_checkpoint_state(content)
    except (OSError, UnicodeDecodeError, text_format.ParseError) as e:
        tf_logging.warning("%s: %s", type(e).__name__, e)
        tf_logging.warning("%s: Checkpoint ignored", filename)
        return None
    if not state.model_checkpoint_path:
        raise ValueError("Invalid checkpoint state loaded from " + checkpoint_dir)
    if not os.path.isabs(state.model_checkpoint_path):
        state.model_checkpoint_path = os.path.join(checkpoint_dir, state.model_checkpoint_path)
    for i, p in enumerate(state.all_model_checkpoint_paths):
        if not os.path.isabs(p):
            state.all_model_checkpoint_paths[i] = os.path.join(checkpoint_dir, p)
    return state


def checkpoint_files(prefix: str) -> List[str]:
    """The file that says a checkpoint exists, per layout (glob patterns): the V2 index
    (what TF and tf1compat write), an earlier tf1compat `.safetensors` file, TF's V1 file."""
    return [prefix + ".index", legacy_file(prefix), prefix]


def latest_checkpoint(checkpoint_dir: Any, latest_filename: Optional[str] = None
                      ) -> Optional[str]:
    """The prefix of the latest checkpoint named by the state file, if its files exist."""
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state and state.model_checkpoint_path:
        if any(_glob.glob(p) for p in checkpoint_files(state.model_checkpoint_path)):
            return state.model_checkpoint_path
        tf_logging.error("Couldn't match files for checkpoint %s", state.model_checkpoint_path)
    return None


def checkpoint_exists_internal(checkpoint_prefix: Any) -> bool:
    """True if a checkpoint with this prefix exists (V2 layout, earlier .safetensors, V1)."""
    prefix = os.fspath(checkpoint_prefix)
    return any(_glob.glob(p) for p in checkpoint_files(prefix))


def checkpoint_exists(checkpoint_prefix: Any) -> bool:
    """`tf.train.checkpoint_exists` (deprecated in TF; kept for TF1 code)."""
    return checkpoint_exists_internal(checkpoint_prefix)


def get_checkpoint_mtimes(checkpoint_prefixes: Iterable[Any]) -> List[float]:
    """Modification times (seconds) of the checkpoints that exist; missing ones are skipped."""
    mtimes = []
    for prefix in checkpoint_prefixes:
        for pattern in checkpoint_files(os.fspath(prefix)):
            matches = _glob.glob(pattern)
            if matches:
                mtimes.append(os.stat(matches[0]).st_mtime_ns / 1e9)
                break
    return mtimes


def meta_graph_filename(checkpoint_filename: str, meta_graph_suffix: str = "meta") -> str:
    """`<prefix>.meta` (a sharded prefix's `-?????-of-N` suffix dropped first)."""
    basename = re.sub(r"-[\d\?]+-of-\d+$", "", checkpoint_filename)
    return ".".join([basename, meta_graph_suffix])


def _delete_matching(pattern: str) -> None:
    for path in _glob.glob(pattern):
        try:
            os.remove(path)
        except FileNotFoundError:
            tf_logging.warning("Hit NotFoundError when deleting '%s', possibly because another "
                              "process/thread is also deleting/moving the same file", path)


def remove_checkpoint(checkpoint_prefix: Any, checkpoint_format_version: int = V2,
                      meta_graph_suffix: str = "meta") -> None:
    """Deletes a checkpoint's files: the meta graph, the index and data shards, and an
    earlier tf1compat `.safetensors` file of the same prefix."""
    prefix = os.fspath(checkpoint_prefix)
    _delete_matching(meta_graph_filename(prefix, meta_graph_suffix))
    _delete_matching(legacy_file(prefix))
    if checkpoint_format_version == V2:
        _delete_matching(prefix + ".index")
        _delete_matching(prefix + ".data-?????-of-?????")
    else:
        _delete_matching(prefix)
