"""`tf.estimator.Exporter` and its kinds, called by train_and_evaluate after each
evaluation: LatestExporter (every time, keeping the newest N), BestExporter (when the
metrics improve, judged from the eval event files too), FinalExporter (at the end)."""

from __future__ import annotations

import glob
import os
import shutil
from typing import Any, Callable, Dict, Optional

from tf1compat.util import tf_logging
from tf1compat.estimator.util import fn_args

__all__ = ["Exporter", "LatestExporter", "BestExporter", "FinalExporter"]


class Exporter:
    """Exports a model after an evaluation (base class: `name`, `export(...)`)."""

    @property
    def name(self) -> str:
        raise NotImplementedError("Exporter.name is not implemented for "
                                  f"{type(self).__name__}.")

    def export(self, estimator: Any, export_path: str, checkpoint_path: str,
               eval_result: Dict[str, Any], is_the_final_export: bool) -> Any:
        raise NotImplementedError("Exporter.export is not implemented for "
                                  f"{type(self).__name__}.")


class _SavedModelExporter(Exporter):
    def __init__(self, name: str, serving_input_receiver_fn: Callable,
                 assets_extra: Optional[Dict[str, str]] = None, as_text: bool = False):
        self._name = name
        self._serving_input_receiver_fn = serving_input_receiver_fn
        self._assets_extra = assets_extra
        self._as_text = as_text

    @property
    def name(self) -> str:
        return self._name

    def export(self, estimator: Any, export_path: str, checkpoint_path: str,
               eval_result: Dict[str, Any], is_the_final_export: bool) -> Any:
        return estimator.export_saved_model(export_path, self._serving_input_receiver_fn,
                                            assets_extra=self._assets_extra,
                                            as_text=self._as_text,
                                            checkpoint_path=checkpoint_path)


def _garbage_collect_exports(export_dir_base: str, exports_to_keep: Optional[int]) -> None:
    """Deletes all but the newest `exports_to_keep` timestamped exports."""
    if exports_to_keep is None or not os.path.isdir(export_dir_base):
        return
    versions = sorted(int(n) for n in os.listdir(os.fsdecode(export_dir_base))
                      if len(n) == 10 and n.isdigit())
    for version in versions[:-exports_to_keep] if exports_to_keep else versions:
        path = os.path.join(os.fsdecode(export_dir_base), str(version))
        try:
            shutil.rmtree(path)
        except OSError as e:
            tf_logging.warning("Can not delete %s recursively: %s", path, e)


def _loss_smaller(best_eval_result: Dict[str, Any],
                  current_eval_result: Dict[str, Any]) -> bool:
    key = "loss"
    if not best_eval_result or key not in best_eval_result:
        raise ValueError("best_eval_result cannot be empty or no loss is found in it.")
    if not current_eval_result or key not in current_eval_result:
        raise ValueError("current_eval_result cannot be empty or no loss is found in it.")
    return best_eval_result[key] > current_eval_result[key]


def _verify_compare_fn_args(compare_fn: Callable) -> None:
    args = set(fn_args(compare_fn))
    if "best_eval_result" not in args:
        raise ValueError(f"compare_fn ({compare_fn}) must include best_eval_result argument.")
    if "current_eval_result" not in args:
        raise ValueError(f"compare_fn ({compare_fn}) must include current_eval_result "
                         "argument.")
    extra = list(args - {"best_eval_result", "current_eval_result"})
    if extra:
        raise ValueError(f"compare_fn ({compare_fn}) has following not expected args: "
                         f"{extra}")


class BestExporter(Exporter):
    """Exports when `compare_fn(best_eval_result, current_eval_result)` says the new
    metrics are better (default: smaller loss); the best so far is first read from the
    eval event files of the model directory."""

    def __init__(self, name: str = "best_exporter", serving_input_receiver_fn: Any = None,
                 event_file_pattern: str = "eval/*.tfevents.*",
                 compare_fn: Callable = _loss_smaller, assets_extra: Any = None,
                 as_text: bool = False, exports_to_keep: Optional[int] = 5):
        if compare_fn is None:
            raise ValueError("`compare_fn` must not be None.")
        _verify_compare_fn_args(compare_fn)
        self._compare_fn = compare_fn
        self._saved_model_exporter = _SavedModelExporter(name, serving_input_receiver_fn,
                                                         assets_extra, as_text)
        self._event_file_pattern = event_file_pattern
        self._model_dir = None
        self._best_eval_result = None
        self._has_exported = False
        if exports_to_keep is not None and exports_to_keep <= 0:
            raise ValueError("`exports_to_keep`, if provided, must be a positive number. Got "
                             f"{exports_to_keep}")
        self._exports_to_keep = exports_to_keep

    @property
    def name(self) -> str:
        return self._saved_model_exporter.name

    def export(self, estimator: Any, export_path: str, checkpoint_path: str,
               eval_result: Dict[str, Any], is_the_final_export: bool) -> Any:
        result = None
        if self._model_dir != estimator.model_dir and self._event_file_pattern:
            tf_logging.info("Loading best metric from event files.")
            self._model_dir = estimator.model_dir
            self._best_eval_result = self._get_best_eval_result(
                os.path.join(self._model_dir, self._event_file_pattern))
        if self._best_eval_result is None or not self._has_exported or self._compare_fn(
                best_eval_result=self._best_eval_result, current_eval_result=eval_result):
            tf_logging.info("Performing best model export.")
            self._best_eval_result = eval_result
            result = self._saved_model_exporter.export(estimator, export_path,
                                                       checkpoint_path, eval_result,
                                                       is_the_final_export)
            _garbage_collect_exports(export_path, self._exports_to_keep)
            self._has_exported = True
        return result

    def _get_best_eval_result(self, pattern: str) -> Optional[Dict[str, Any]]:
        from tf1compat.summary.summary_iterator import summary_iterator
        best = None
        for path in glob.glob(pattern):
            for event in summary_iterator(path):
                if not event.HasField("summary"):
                    continue
                result = {v.tag: v.simple_value for v in event.summary.value
                          if v.HasField("simple_value")}
                if result and (best is None or self._compare_fn(best, result)):
                    best = result
        return best


class FinalExporter(Exporter):
    """Exports once, after the evaluation of the last training step."""

    def __init__(self, name: str, serving_input_receiver_fn: Callable,
                 assets_extra: Any = None, as_text: bool = False):
        self._saved_model_exporter = _SavedModelExporter(name, serving_input_receiver_fn,
                                                         assets_extra, as_text)

    @property
    def name(self) -> str:
        return self._saved_model_exporter.name

    def export(self, estimator: Any, export_path: str, checkpoint_path: str,
               eval_result: Dict[str, Any], is_the_final_export: bool) -> Any:
        if not is_the_final_export:
            return None
        tf_logging.info("Performing the final export in the end of training.")
        return self._saved_model_exporter.export(estimator, export_path, checkpoint_path,
                                                 eval_result, is_the_final_export)


class LatestExporter(Exporter):
    """Exports after every evaluation, keeping the newest `exports_to_keep`."""

    def __init__(self, name: str, serving_input_receiver_fn: Callable,
                 assets_extra: Any = None, as_text: bool = False,
                 exports_to_keep: Optional[int] = 5):
        self._saved_model_exporter = _SavedModelExporter(name, serving_input_receiver_fn,
                                                         assets_extra, as_text)
        if exports_to_keep is not None and exports_to_keep <= 0:
            raise ValueError("`exports_to_keep`, if provided, must be positive number")
        self._exports_to_keep = exports_to_keep

    @property
    def name(self) -> str:
        return self._saved_model_exporter.name

    def export(self, estimator: Any, export_path: str, checkpoint_path: str,
               eval_result: Dict[str, Any], is_the_final_export: bool) -> Any:
        result = self._saved_model_exporter.export(estimator, export_path, checkpoint_path,
                                                   eval_result, is_the_final_export)
        _garbage_collect_exports(export_path, self._exports_to_keep)
        return result
