"""Converting checkpoints to tf1compat's safetensors format (scripts/convert_checkpoint.py).

`convert_checkpoint(src, dst)` copies every tensor of a checkpoint (a TF V2 bundle, or a
tf1compat file) into `<dst>.safetensors` under the same keys; partitioned TF variables
become one full tensor under the variable's name. An object-based checkpoint keeps its
object graph in the metadata (the `_CHECKPOINTABLE_OBJECT_GRAPH` string tensor itself is
not copied: readers present it from the metadata).

With `to_names=True`, object-based keys (`model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE`)
are renamed to the variables' names (`dense/kernel`, the `full_name` the object graph
records), giving a name-based checkpoint that `tf.train.Saver` can restore.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional

from tf1compat.util import tf_logging
from tf1compat.training import checkpoint_format
from tf1compat.training import object_graph as og
from tf1compat.training.checkpoint_reader import load_checkpoint

__all__ = ["convert_checkpoint"]


def _output_prefix(dst: str) -> str:
    dst = os.fspath(dst)
    if dst.endswith(checkpoint_format.SUFFIX):
        dst = dst[:-len(checkpoint_format.SUFFIX)]
    return dst


def _name_map(graph: Dict[str, Any], keys: list, strict: bool) -> Dict[str, str]:
    """checkpoint key -> new key, keeping keys without a (unique) full_name."""
    full = og.checkpoint_key_to_full_name(graph)
    targets: Dict[str, list] = {}
    for key in keys:
        targets.setdefault(full.get(key, key), []).append(key)
    mapping = {}
    for key in keys:
        name = full.get(key)
        if name is None:
            msg = f"{key!r} has no variable name in the object graph; keeping its key"
            if strict:
                raise ValueError(msg)
            tf_logging.warning(msg)
            mapping[key] = key
        elif len(targets[name]) > 1:
            msg = (f"variable name {name!r} is claimed by several keys "
                   f"{sorted(targets[name])}; keeping their object keys")
            if strict:
                raise ValueError(msg)
            tf_logging.warning(msg)
            mapping[key] = key
        else:
            mapping[key] = name
    return mapping


def convert_checkpoint(src: Any, dst: Any, to_names: bool = False,
                       strict: bool = False) -> Dict[str, Any]:
    """Writes `<dst>.safetensors` from the checkpoint `src` (a prefix or a directory).

    Returns a summary: {"path", "tensors", "object_based", "renamed": {new: old}}.
    Raises ValueError with `strict` when `to_names` cannot name every tensor.
    """
    reader = load_checkpoint(src)
    graph = reader.object_graph()
    dtype_map = reader.get_variable_to_dtype_map()
    keys = [k for k in reader.keys() if k != og.OBJECT_GRAPH_KEY]
    values = {k: reader.read_torch(k) for k in keys}  # read everything before writing
    renamed: Dict[str, str] = {}
    out_graph: Optional[Dict[str, Any]] = graph
    if to_names and graph is not None:
        mapping = _name_map(graph, keys, strict)
        values = {mapping[k]: v for k, v in values.items()}
        dtype_map = {mapping[k]: dtype_map[k] for k in keys}
        renamed = {new: old for old, new in mapping.items() if new != old}
        out_graph = None  # the result is name-based
    elif to_names:
        tf_logging.info("%s is name-based already; keys are kept", reader.path)
    path = checkpoint_format.save_tensors(
        _output_prefix(dst), values, dtype_overrides={k: dtype_map[k] for k in values},
        object_graph=out_graph,
        user_metadata={"converted_from": reader.path, "source_format": reader.format,
                       **({"renamed": renamed} if renamed else {})})
    return {"path": path, "tensors": len(values), "object_based": graph is not None,
            "renamed": renamed}
