"""SavedModel assets: files a graph reads (vocabularies of lookup tables), named by constant
string tensors in the ASSET_FILEPATHS collection.

Writing (TF1's `SavedModelBuilder`): each asset file is copied into `<export_dir>/assets/`
under its basename - a different file with a basename already taken gets `<name>_1`,
`<name>_2`, ... - and an AssetFileDef (the tensor's name, the file's name there) is added,
packed in a `google.protobuf.Any`, to the graph's `saved_model_assets` collection, which
the exported MetaGraphDef carries. Reading: the loader feeds every asset tensor the path
of its copy while it runs the init op, so tables fill from the SavedModel's own files
wherever the directory was moved. MetaGraphDefs with `asset_file_def` entries (TF2's
builder) are read too.
"""

from __future__ import annotations

import filecmp
import os
import shutil
from typing import Any, Dict, Optional, Sequence, Set

import numpy as np

from tf1compat.framework import dtypes
from tf1compat.framework.graph import add_to_collection
from tf1compat.framework.tensor import Tensor
from tf1compat.serialization.messages import AnyProto, AssetFileDef, MetaGraphDef
from tf1compat.training.saved_model import constants
from tf1compat.util import tf_logging

__all__ = ["add_assets_to_graph", "copy_assets", "asset_feeds"]

_ASSET_TYPE_URL = "type.googleapis.com/tensorflow.AssetFileDef"


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _asset_path(tensor: Any) -> str:
    """The file path held by the constant scalar string `tensor` (TypeError otherwise)."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"Asset path tensor {tensor} must be a Tensor.")
    if tensor.op.type != "Const":
        raise TypeError(f"Asset path tensor {tensor} must be of type constant.Has type "
                        f"{tensor.op.type} instead.")
    if tensor.dtype.base_dtype != dtypes.string:
        raise TypeError(f"Asset path tensor {tensor}` must be of dtype string.Has type "
                        f"{tensor.dtype} instead.")
    value = tensor.op.get_attr("value")
    values = list(np.asarray(value, dtype=object).flat)
    if len(values) != 1:
        raise TypeError(f"Asset path tensor {tensor} must be a scalar.")
    return _text(values[0])


def _unique_name(path: str, names: Dict[str, str]) -> str:
    """`path`'s basename, or - when another file already has it - the first free
    `<basename>_<i>`; the same file (or an identical one) keeps the name it has."""
    name = os.path.basename(path)
    if name not in names or names[name] == path or filecmp.cmp(path, names[name],
                                                               shallow=False):
        return name
    i, unique = 1, name
    while unique in names:
        unique = f"{name}_{i}"
        i += 1
    return unique


def add_assets_to_graph(assets: Optional[Sequence[Any]]) -> Dict[str, str]:
    """Adds a packed AssetFileDef per asset tensor to the `saved_model_assets` collection;
    returns {name in assets/: source path}."""
    names: Dict[str, str] = {}
    if assets is None:
        tf_logging.info("No assets to save.")
        return names
    for tensor in assets:
        path = _asset_path(tensor)
        if not path:
            raise ValueError(f"Asset filepath tensor {tensor} in is invalid.")
        name = _unique_name(path, names)
        asset = AssetFileDef(filename=name)
        asset.tensor_info.name = tensor.name
        add_to_collection(constants.ASSETS_KEY, AnyProto(
            type_url=_ASSET_TYPE_URL, value=asset.SerializeToString(deterministic=True)))
        names[name] = path
    tf_logging.info("Assets added to graph.")
    return names


def copy_assets(names: Dict[str, str], export_dir: str, copied: Set[str]) -> None:
    """Copies the assets into `<export_dir>/assets/` (each destination once per builder)."""
    if not names:
        tf_logging.info("No assets to write.")
        return
    directory = os.path.join(export_dir, constants.ASSETS_DIRECTORY)
    os.makedirs(directory, exist_ok=True)
    for name, source in names.items():
        dest = os.path.join(directory, name)
        if os.path.exists(source) and source != dest and dest not in copied:
            shutil.copyfile(source, dest)
            copied.add(dest)
    tf_logging.info("Assets written to: %s", directory)


def asset_feeds(export_dir: str, meta: MetaGraphDef, import_scope: Optional[str] = None
                ) -> Dict[str, str]:
    """{asset tensor name: path of its file under `<export_dir>/assets/`}."""
    protos = list(meta.asset_file_def)
    if not protos and constants.ASSETS_KEY in meta.collection_def:
        for packed in meta.collection_def[constants.ASSETS_KEY].any_list.value:
            protos.append(AssetFileDef.FromString(packed.value))
    directory = os.path.join(export_dir, constants.ASSETS_DIRECTORY)
    feeds = {}
    for asset in protos:
        name = asset.tensor_info.name
        if import_scope:
            name = f"{import_scope}/{name}"
        feeds[name] = os.path.join(directory, asset.filename)
    return feeds
