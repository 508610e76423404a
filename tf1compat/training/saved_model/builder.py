"""`tf.saved_model.builder.SavedModelBuilder`: writes a TF1 SavedModel directory."""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Sequence, Set

from tf1compat.util import tf_logging
from tf1compat.framework.graph import get_default_graph
from tf1compat.framework.operation import Operation
from tf1compat.serialization.atomic_files import atomic_write_bytes
from tf1compat.serialization.messages import MetaGraphDef, SavedModel, SignatureDef, to_text
from tf1compat.training.saved_model import constants
from tf1compat.training.saved_model.assets import add_assets_to_graph, copy_assets

__all__ = ["SavedModelBuilder", "Builder"]


def variables_path(export_dir: str) -> str:
    """`<export_dir>/variables/variables`, the checkpoint prefix of a SavedModel."""
    return os.path.join(export_dir, constants.VARIABLES_DIRECTORY,
                        constants.VARIABLES_FILENAME)


class SavedModelBuilder:
    """Builds a SavedModel: one `add_meta_graph_and_variables` (graph + checkpoint), any
    number of `add_meta_graph` (more tag sets over the same variables), then `save()`."""

    def __init__(self, export_dir: str):
        export_dir = os.fspath(export_dir)
        if isinstance(export_dir, bytes):
            export_dir = export_dir.decode("utf-8")
        self._saved_model = SavedModel(
            saved_model_schema_version=constants.SAVED_MODEL_SCHEMA_VERSION)
        self._export_dir = export_dir
        if os.path.exists(export_dir):
            if not os.path.isdir(export_dir) or os.listdir(export_dir):
                raise AssertionError(
                    f"Export directory {export_dir} already exists, and isn't empty. Please "
                    "choose a different export directory, or delete all the contents of the "
                    "specified directory.")
        else:
            os.makedirs(export_dir)
        self._has_saved_variables = False
        self._copied_assets: Set[str] = set()

    # -- checks ---------------------------------------------------------------------------------
    @staticmethod
    def _validate_tensor_info(info: Any) -> None:
        if info is None:
            raise AssertionError("All TensorInfo protos used in the SignatureDefs must have "
                                 "the name and dtype fields set.")
        if info.WhichOneof("encoding") is None:
            raise AssertionError(f"Invalid `tensor_info`: {info}. All TensorInfo protos used "
                                 "in the SignatureDefs must have one of the 'encoding' "
                                 "fields (e.g., name or coo_sparse) set.")
        if info.dtype == 0:
            raise AssertionError(f"Invalid `tensor_info`: {info}. All TensorInfo protos used "
                                 "in the SignatureDefs must have the dtype field set.")

    def _validate_signature_def_map(self, signature_def_map: Dict[str, SignatureDef]) -> None:
        for sig in signature_def_map.values():
            for info in list(sig.inputs.values()) + list(sig.outputs.values()):
                self._validate_tensor_info(info)
        for reserved, what in ((constants.INIT_OP_SIGNATURE_KEY, "initialization"),
                               (constants.TRAIN_OP_SIGNATURE_KEY, "the train op")):
            if reserved in signature_def_map:
                raise KeyError(f'SignatureDef map key "{reserved}" is reserved for {what}. '
                               "Please use a different key.")

    # -- collections ---------------------------------------------------------------------------
    def _add_collections(self, assets_collection: Any, main_op: Any) -> None:
        """Records the assets (copied into `assets/`) and the main op in the graph."""
        copy_assets(add_assets_to_graph(assets_collection), self._export_dir,
                    self._copied_assets)
        if main_op is None:
            return
        if not isinstance(main_op, Operation):
            raise TypeError(f"Expected {main_op} to be an Operation but got type "
                            f"{type(main_op)} instead.")
        graph = get_default_graph()
        for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
            if graph.get_collection(key):
                raise ValueError("Graph already contains one or more main ops under the "
                                 f"collection {key}.")
        graph.add_to_collection(constants.MAIN_OP_KEY, main_op)

    @staticmethod
    def _maybe_create_saver(saver: Any = None) -> Any:
        if saver:
            return saver
        from tf1compat.training.saving import saveable
        from tf1compat.training.saving.saver import Saver
        return Saver(saveable.all_saveable_objects(), sharded=True, allow_empty=True)

    def _tag_and_add_meta_graph(self, meta: MetaGraphDef, tags: Sequence[str],
                                signature_def_map: Optional[Dict[str, SignatureDef]]) -> None:
        if isinstance(tags, str):
            tags = [tags]
        meta.meta_info_def.tags.extend(tags)
        for key, sig in (signature_def_map or {}).items():
            meta.signature_def[key].CopyFrom(sig)
        self._saved_model.meta_graphs.append(meta)

    # -- API -------------------------------------------------------------------------------------
    def add_meta_graph(self, tags: Sequence[str],
                       signature_def_map: Optional[Dict[str, SignatureDef]] = None,
                       assets_collection: Any = None, legacy_init_op: Any = None,
                       clear_devices: bool = False, main_op: Any = None,
                       strip_default_attrs: bool = False, saver: Any = None) -> None:
        """Adds the current graph under another tag set (variables are not saved again)."""
        if not self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has not been "
                                 "saved yet. Please invoke `add_meta_graph_and_variables()` "
                                 "first.")
        signature_def_map = signature_def_map or {}
        self._validate_signature_def_map(signature_def_map)
        main_op = main_op if main_op is not None else legacy_init_op
        self._add_collections(assets_collection, main_op)
        saver = self._maybe_create_saver(saver)
        meta = saver.export_meta_graph(clear_devices=clear_devices,
                                       strip_default_attrs=strip_default_attrs)
        self._tag_and_add_meta_graph(meta, tags, signature_def_map)

    def add_meta_graph_and_variables(self, sess: Any, tags: Sequence[str],
                                     signature_def_map: Optional[Dict[str, SignatureDef]] = None,
                                     assets_collection: Any = None, legacy_init_op: Any = None,
                                     clear_devices: bool = False, main_op: Any = None,
                                     strip_default_attrs: bool = False,
                                     saver: Any = None) -> None:
        """Saves the session's variables to `variables/variables` and adds the graph
        (with a sharded Saver's SaverDef) under `tags` with the signatures.

        Raises UnserializableGraphError (a ValueError) when the graph has ops that cannot
        be written (py_func, control-flow constructs, custom gradients)."""
        if self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has already "
                                 "been saved. Please invoke `add_meta_graph()` instead.")
        signature_def_map = signature_def_map or {}
        self._validate_signature_def_map(signature_def_map)
        main_op = main_op or legacy_init_op
        self._add_collections(assets_collection, main_op)
        saver = self._maybe_create_saver(saver)
        # Export first: an unserializable graph fails before anything is written.
        meta = saver.export_meta_graph(clear_devices=clear_devices,
                                       strip_default_attrs=strip_default_attrs)
        os.makedirs(os.path.join(self._export_dir, constants.VARIABLES_DIRECTORY),
                    exist_ok=True)
        saver.save(sess, variables_path(self._export_dir), write_meta_graph=False,
                   write_state=False)
        self._tag_and_add_meta_graph(meta, tags, signature_def_map)
        self._has_saved_variables = True

    def save(self, as_text: bool = False) -> bytes:
        """Writes `saved_model.pb` (or `.pbtxt`); returns its path (bytes, as TF)."""
        os.makedirs(self._export_dir, exist_ok=True)
        if as_text:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
            data = to_text(self._saved_model).encode("utf-8")
        else:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PB)
            data = self._saved_model.SerializeToString(deterministic=True)
        atomic_write_bytes(path, data)
        tf_logging.info("SavedModel written to: %s", path)
        return path.encode("utf-8")


Builder = SavedModelBuilder
