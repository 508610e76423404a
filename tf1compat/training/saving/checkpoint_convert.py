"""Converting checkpoints between TF's layout and a single safetensors file
(scripts/convert_checkpoint.py).

`convert_checkpoint(src, dst, to=...)` copies every tensor of a checkpoint tf1compat can
read (a TF V2 checkpoint, one tf1compat wrote, or an earlier tf1compat `.safetensors`
file) under the same keys into

* `to="tf"`: TF's layout, `<dst>.index` + `<dst>.data-00000-of-00001` (what tf1compat
  saves: TensorFlow restores it, and the data shard is a safetensors file);
* `to="safetensors"`: one `<dst>.safetensors` file (tf1compat's earlier checkpoint
  format, with TF dtypes and the object graph in its metadata).

Partitioned variables become one whole tensor under the variable's name. An
object-based checkpoint keeps its object graph. With `to_names=True`, object-based keys
(`model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE`) are renamed to the variables' names
(`dense/kernel`, the `full_name` the object graph records), giving a name-based
checkpoint that `tf.train.Saver` restores.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional

from tf1compat.util import tf_logging
from tf1compat.serialization import bundle_writer
from tf1compat.serialization import object_graph as og
from tf1compat.serialization import safetensors_checkpoint as legacy
from tf1compat.serialization.tensor_bundle import index_filename
from tf1compat.training.saving.checkpoint_utils import load_checkpoint

__all__ = ["convert_checkpoint", "FORMATS"]

FORMATS = ("tf", "safetensors")


def _output_prefix(dst: str) -> str:
    dst = os.fspath(dst)
    for suffix in (legacy.SUFFIX, ".index"):
        if dst.endswith(suffix):
            return dst[:-len(suffix)]
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


def convert_checkpoint(src: Any, dst: Any, to: Optional[str] = None, to_names: bool = False,
                       strict: bool = False) -> Dict[str, Any]:
    """Writes the checkpoint `src` (a prefix or a directory) as `dst` in the layout `to`
    ("tf" or "safetensors"; by default "safetensors" when `dst` ends in `.safetensors`,
    else "tf").

    Returns a summary: {"path", "format", "tensors", "object_based", "renamed": {new: old}}.
    Raises ValueError with `strict` when `to_names` cannot name every tensor; nothing is
    written then.
    """
    dst = os.fspath(dst)
    if to is None:
        to = "safetensors" if dst.endswith(legacy.SUFFIX) else "tf"
    if to not in FORMATS:
        raise ValueError(f"to must be one of {FORMATS}, got {to!r}")
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
    user = {"converted_from": reader.path, "source_format": reader.format,
            **({"renamed": renamed} if renamed else {})}
    prefix = _output_prefix(dst)
    if to == "safetensors":
        path = legacy.save_tensors(prefix, values,
                                   dtype_overrides={k: dtype_map[k] for k in values},
                                   object_graph=out_graph, user_metadata=user)
    else:
        writer = bundle_writer.BundleWriter(prefix, user_metadata=user)
        if out_graph is not None:
            writer.add(og.OBJECT_GRAPH_KEY, og.serialize_object_graph(out_graph), "string")
        for key, value in values.items():
            writer.add(key, value, dtype_map[key])
        writer.finish()
        path = index_filename(prefix)
    return {"path": path, "format": to, "tensors": len(values),
            "object_based": graph is not None, "renamed": renamed}
