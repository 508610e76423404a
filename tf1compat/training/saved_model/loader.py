"""`tf.saved_model.loader`: loads a TF1 SavedModel into a session."""

from __future__ import annotations

import os
from typing import Any, List, Optional, Sequence

from tf1compat.util import tf_logging
from tf1compat.serialization.messages import (DecodeError, MetaGraphDef, ParseError,
                                              SavedModel, parse_text)
from tf1compat.training.saved_model import constants
from tf1compat.training.saved_model.assets import asset_feeds
from tf1compat.training.saved_model.builder import variables_path

__all__ = ["load", "maybe_saved_model_directory", "contains_saved_model", "SavedModelLoader",
           "parse_saved_model"]


def _path(export_dir: Any) -> str:
    export_dir = os.fspath(export_dir)
    return export_dir.decode("utf-8") if isinstance(export_dir, bytes) else export_dir


def maybe_saved_model_directory(export_dir: Any) -> bool:
    """Whether the directory holds a `saved_model.pb` or `saved_model.pbtxt`."""
    export_dir = _path(export_dir)
    return any(os.path.exists(os.path.join(export_dir, name))
               for name in (constants.SAVED_MODEL_FILENAME_PBTXT,
                            constants.SAVED_MODEL_FILENAME_PB))


def contains_saved_model(export_dir: Any) -> bool:
    return maybe_saved_model_directory(export_dir)


def parse_saved_model(export_dir: Any) -> SavedModel:
    """The SavedModel proto of `<export_dir>/saved_model.pb` (or `.pbtxt`)."""
    export_dir = _path(export_dir)
    pb = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB)
    txt = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
    if os.path.exists(pb):
        with open(pb, "rb") as f:
            data = f.read()
        try:
            return SavedModel.FromString(data)
        except (DecodeError, ValueError) as e:
            raise IOError(f"Cannot parse file {pb}: {e}.") from None
    if os.path.exists(txt):
        with open(txt, "rb") as f:
            data = f.read()
        try:
            return parse_text(data.decode("utf-8"), SavedModel)
        except (ParseError, UnicodeDecodeError) as e:
            raise IOError(f"Cannot parse file {txt}: {e}.") from None
    raise IOError(f"SavedModel file does not exist at: {export_dir}{os.path.sep}"
                  f"{{{constants.SAVED_MODEL_FILENAME_PBTXT}|"
                  f"{constants.SAVED_MODEL_FILENAME_PB}}}")


def _init_op(meta: MetaGraphDef, graph: Any, import_scope: Optional[str]) -> Any:
    from tf1compat.training.saved_model.utils import get_element_from_tensor_info
    if constants.INIT_OP_SIGNATURE_KEY in meta.signature_def:
        sig = meta.signature_def[constants.INIT_OP_SIGNATURE_KEY]
        return get_element_from_tensor_info(sig.outputs[constants.INIT_OP_SIGNATURE_KEY],
                                            graph, import_scope)
    for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
        if key in meta.collection_def:
            names = list(meta.collection_def[key].node_list.value)
            if len(names) != 1:
                raise RuntimeError("Expected exactly one SavedModel init op. Found "
                                   f"{len(names)}: {names}.")
            return graph.get_collection(key)[0]
    return None


class SavedModelLoader:
    """Loads the MetaGraphDefs of one SavedModel directory."""

    def __init__(self, export_dir: Any):
        self._export_dir = _path(export_dir)
        self._variables_path = variables_path(self._export_dir)
        self._saved_model = parse_saved_model(self._export_dir)

    @property
    def export_dir(self) -> str:
        return self._export_dir

    @property
    def variables_path(self) -> str:
        return self._variables_path

    @property
    def saved_model(self) -> SavedModel:
        return self._saved_model

    def get_meta_graph_def_from_tags(self, tags: Sequence[str]) -> MetaGraphDef:
        """The MetaGraphDef whose tag set equals `tags` (RuntimeError if none)."""
        available: List[set] = []
        for meta in self._saved_model.meta_graphs:
            available.append(set(meta.meta_info_def.tags))
            if set(meta.meta_info_def.tags) == set(tags):
                return meta
        raise RuntimeError(f"MetaGraphDef associated with tags {str(tags).strip('[]')} could "
                           f"not be found in SavedModel, with available tags '{available}'. "
                           "To inspect available tag-sets in the SavedModel, please use the "
                           "SavedModel CLI: `saved_model_cli`.")

    def load_graph(self, graph: Any, tags: Sequence[str], import_scope: Optional[str] = None,
                   **saver_kwargs: Any) -> Any:
        """Imports the tagged MetaGraphDef into `graph`; returns (saver, None)."""
        from tf1compat.training.saving.meta_graph import import_meta_graph
        meta = self.get_meta_graph_def_from_tags(tags)
        with graph.as_default():
            saver = import_meta_graph(meta, import_scope=import_scope, **saver_kwargs)
        return saver, None

    def restore_variables(self, sess: Any, saver: Any, import_scope: Optional[str] = None
                          ) -> None:
        from tf1compat.training.saving import saveable
        from tf1compat.training.saving.saver import Saver
        with sess.graph.as_default():
            if saver is None and not saveable.all_saveable_objects(scope=import_scope):
                tf_logging.info("The specified SavedModel has no variables; no checkpoints "
                                "were restored.")
            elif isinstance(saver, Saver):
                saver.restore(sess, self._variables_path)
            else:
                raise ValueError("No tf.train.Saver object was passed to the function "
                                 "`SavedModelLoader.restore_variables`. Since there are "
                                 "variables in the graph, a saver is required.")

    def run_init_ops(self, sess: Any, tags: Sequence[str], import_scope: Optional[str] = None
                     ) -> None:
        """Runs the init (main) op with each asset tensor fed its file under `assets/`."""
        meta = self.get_meta_graph_def_from_tags(tags)
        with sess.graph.as_default():
            init_op = _init_op(meta, sess.graph, import_scope)
            if init_op is not None:
                sess.run(fetches=[init_op],
                         feed_dict=asset_feeds(self._export_dir, meta, import_scope))

    def load(self, sess: Any, tags: Sequence[str], import_scope: Optional[str] = None,
             **saver_kwargs: Any) -> MetaGraphDef:
        """Imports the graph into `sess.graph`, restores the variables, runs the main op;
        returns the MetaGraphDef."""
        with sess.graph.as_default():
            saver, _ = self.load_graph(sess.graph, tags, import_scope, **saver_kwargs)
            self.restore_variables(sess, saver, import_scope)
            self.run_init_ops(sess, tags, import_scope)
        return self.get_meta_graph_def_from_tags(tags)


def load(sess: Any, tags: Sequence[str], export_dir: Any, import_scope: Optional[str] = None,
         **saver_kwargs: Any) -> MetaGraphDef:
    """`tf.saved_model.loader.load`: loads the MetaGraphDef tagged `tags` of the SavedModel
    in `export_dir` into `sess` (graph, variables, main op); returns the MetaGraphDef."""
    return SavedModelLoader(export_dir).load(sess, tags, import_scope, **saver_kwargs)
