"""The SavedModel export methods of `tf.estimator.Estimator` (`export_saved_model`,
`export_savedmodel`, `experimental_export_all_saved_models`).

Each mode's meta graph is built in a fresh graph from its receiver_fn, the checkpoint is
restored into a session, and the SavedModel is written to `<base>/temp-<timestamp>` then
renamed to `<base>/<timestamp>`, so a failed export leaves no half-written model.
"""

from __future__ import annotations

import os
import shutil
from typing import Any, Callable, Dict, Optional

from tf1compat.estimator.export import export_lib
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.framework.errors import NotFoundError
from tf1compat.framework.graph import Graph, GraphKeys, get_default_graph
from tf1compat.framework.random_seed import set_random_seed

__all__ = ["SavedModelExportMixin", "export_to_timestamped_dir"]


def export_to_timestamped_dir(export_dir_base: Any, add_meta_graphs: Callable[[Any], None],
                              as_text: bool = False,
                              assets_extra: Optional[Dict[str, str]] = None) -> bytes:
    """Writes a SavedModel whose meta graphs `add_meta_graphs(builder)` adds, with the
    `assets_extra` files copied in, to `<export_dir_base>/<timestamp>` (through a temp
    directory, removed on failure); returns that directory."""
    from tf1compat.training.saved_model.builder import SavedModelBuilder
    export_dir = export_lib.get_timestamped_export_dir(export_dir_base)
    temp_dir = export_lib.get_temp_export_dir(export_dir)
    try:
        builder = SavedModelBuilder(temp_dir)
        add_meta_graphs(builder)
        builder.save(as_text)
        for dest_relative, source in (assets_extra or {}).items():
            dest = os.path.join(os.fsdecode(temp_dir), "assets.extra", dest_relative)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(source, dest)
        os.rename(temp_dir, export_dir)
    except BaseException:
        shutil.rmtree(temp_dir, ignore_errors=True)
        raise
    return export_dir


class SavedModelExportMixin:
    """Export methods shared by Estimator and its subclasses."""

    def export_saved_model(self, export_dir_base: Any, serving_input_receiver_fn: Any,
                           assets_extra: Optional[Dict[str, str]] = None,
                           as_text: bool = False, checkpoint_path: Optional[str] = None,
                           experimental_mode: str = ModeKeys.PREDICT) -> bytes:
        """Exports the latest checkpoint (or `checkpoint_path`) as a SavedModel under
        `<export_dir_base>/<timestamp>`; returns that directory (bytes)."""
        if not serving_input_receiver_fn:
            raise ValueError("An input_receiver_fn must be defined.")
        return self._export_all_saved_models(
            export_dir_base, {experimental_mode: serving_input_receiver_fn},
            assets_extra=assets_extra, as_text=as_text, checkpoint_path=checkpoint_path,
            strip_default_attrs=True)

    def export_savedmodel(self, export_dir_base: Any, serving_input_receiver_fn: Any,
                          assets_extra: Optional[Dict[str, str]] = None, as_text: bool = False,
                          checkpoint_path: Optional[str] = None,
                          strip_default_attrs: bool = False) -> bytes:
        """Deprecated name of `export_saved_model` (PREDICT mode only)."""
        if not serving_input_receiver_fn:
            raise ValueError("An input_receiver_fn must be defined.")
        return self._export_all_saved_models(
            export_dir_base, {ModeKeys.PREDICT: serving_input_receiver_fn},
            assets_extra=assets_extra, as_text=as_text, checkpoint_path=checkpoint_path,
            strip_default_attrs=strip_default_attrs)

    def experimental_export_all_saved_models(self, export_dir_base: Any,
                                             input_receiver_fn_map: Dict[str, Any],
                                             assets_extra: Optional[Dict[str, str]] = None,
                                             as_text: bool = False,
                                             checkpoint_path: Optional[str] = None) -> bytes:
        """One SavedModel with a meta graph per mode in `input_receiver_fn_map`."""
        return self._export_all_saved_models(export_dir_base, input_receiver_fn_map,
                                             assets_extra=assets_extra, as_text=as_text,
                                             checkpoint_path=checkpoint_path,
                                             strip_default_attrs=True)

    def _export_all_saved_models(self, export_dir_base: Any,
                                 input_receiver_fn_map: Dict[str, Any],
                                 assets_extra: Optional[Dict[str, str]] = None,
                                 as_text: bool = False, checkpoint_path: Optional[str] = None,
                                 strip_default_attrs: bool = True) -> bytes:
        from tf1compat.training.saving import checkpoint_state
        if not checkpoint_path:
            checkpoint_path = self.latest_checkpoint()
        if not checkpoint_path:
            settings = self._warm_start_settings
            if not settings:
                raise ValueError(f"Couldn't find trained model at {self._model_dir}.")
            checkpoint_path = settings.ckpt_to_initialize_from
            if os.path.isdir(checkpoint_path):
                checkpoint_path = checkpoint_state.latest_checkpoint(checkpoint_path)

        def add_meta_graphs(builder: Any) -> None:
            save_variables = True
            for mode in (ModeKeys.TRAIN, ModeKeys.EVAL, ModeKeys.PREDICT):
                if input_receiver_fn_map.get(mode):
                    self._add_meta_graph_for_mode(builder, input_receiver_fn_map,
                                                  checkpoint_path, save_variables, mode=mode,
                                                  strip_default_attrs=strip_default_attrs)
                    save_variables = False
            if save_variables:
                raise ValueError("No valid modes for exporting found. Got "
                                 f"{input_receiver_fn_map.keys()}.")

        return export_to_timestamped_dir(export_dir_base, add_meta_graphs, as_text,
                                         assets_extra)

    def _add_meta_graph_for_mode(self, builder: Any, input_receiver_fn_map: Dict[str, Any],
                                 checkpoint_path: str, save_variables: bool = True,
                                 mode: str = ModeKeys.PREDICT, export_tags: Any = None,
                                 check_variables: bool = True,
                                 strip_default_attrs: bool = True) -> None:
        from tf1compat.runtime.session import Session
        from tf1compat.training.sessions.monitored_session import Scaffold
        from tf1compat.training.saved_model import constants
        from tf1compat.training.saving.saver import Saver
        if export_tags is None:
            export_tags = export_lib.EXPORT_TAG_MAP[mode]
        receiver_fn = input_receiver_fn_map[mode]
        with Graph().as_default() as g:
            self._create_and_assert_global_step(g)
            set_random_seed(self._config.tf_random_seed)
            receiver = receiver_fn()
            spec = self._call_model_fn(features=receiver.features,
                                       labels=getattr(receiver, "labels", None), mode=mode,
                                       config=self.config)
            export_outputs = export_lib.export_outputs_for_mode(
                mode=spec.mode, serving_export_outputs=spec.export_outputs,
                predictions=spec.predictions, loss=spec.loss, metrics=spec.eval_metric_ops)
            signatures = export_lib.build_all_signature_defs(
                receiver.receiver_tensors, export_outputs,
                getattr(receiver, "receiver_tensors_alternatives", None),
                serving_only=(mode == ModeKeys.PREDICT))
            with Session(config=self._session_config) as session:
                local_init_op = spec.scaffold.local_init_op
                if local_init_op is None:
                    local_init_op = Scaffold.default_local_init_op()
                saver = spec.scaffold.saver or Saver(sharded=True)
                if save_variables and not check_variables:
                    raise ValueError("If `save_variables` is `True, `check_variables`must not "
                                     "be `False`.")
                if check_variables:
                    try:
                        saver.restore(session, checkpoint_path)
                    except NotFoundError as e:
                        raise ValueError(
                            "Could not load all requested variables from checkpoint. Please "
                            "make sure your model_fn does not expect variables that were not "
                            "saved in the checkpoint.\n\nEncountered error with mode `{}` "
                            "while restoring checkpoint from: `{}`. Full Traceback:\n\n{}"
                            .format(mode, checkpoint_path, e)) from None
                if spec.train_op is not None:
                    get_default_graph().add_to_collection(constants.TRAIN_OP_KEY,
                                                          spec.train_op)
                kwargs = dict(tags=export_tags, signature_def_map=signatures,
                              assets_collection=g.get_collection(GraphKeys.ASSET_FILEPATHS),
                              main_op=local_init_op, saver=saver,
                              strip_default_attrs=strip_default_attrs)
                if save_variables:
                    builder.add_meta_graph_and_variables(session, **kwargs)
                else:
                    builder.add_meta_graph(**kwargs)
