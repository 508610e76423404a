"""`tf.contrib.learn.ExportStrategy` and `make_export_strategy`: how an Experiment exports
its Estimator after evaluating (a SavedModel under `<model_dir>/export/<name>/`)."""

from __future__ import annotations

import collections
import os
from typing import Any, Callable, Dict, Optional

__all__ = ["ExportStrategy", "make_export_strategy"]


class ExportStrategy(collections.namedtuple("ExportStrategy",
                                            ["name", "export_fn", "strip_default_attrs"])):
    """A named `export_fn(estimator, export_dir_base, checkpoint_path[, eval_result])`."""

    def __new__(cls, name: str, export_fn: Callable, strip_default_attrs: Any = None):
        return super().__new__(cls, name, export_fn, strip_default_attrs)

    def export(self, estimator: Any, export_path: Any, checkpoint_path: Any = None,
               eval_result: Any = None) -> Any:
        from tf1compat.estimator.util import fn_args
        kwargs: Dict[str, Any] = {}
        args = fn_args(self.export_fn)
        if "eval_result" in args:
            kwargs["eval_result"] = eval_result
        if "checkpoint_path" in args:
            kwargs["checkpoint_path"] = checkpoint_path
        if "strip_default_attrs" in args:
            kwargs["strip_default_attrs"] = self.strip_default_attrs
        return self.export_fn(estimator, export_path, **kwargs)


def make_export_strategy(serving_input_fn: Callable,
                         default_output_alternative_key: Optional[str] = None,
                         assets_extra: Optional[Dict[str, str]] = None, as_text: bool = False,
                         exports_to_keep: Optional[int] = 5,
                         strip_default_attrs: Any = None) -> ExportStrategy:
    """An ExportStrategy writing SavedModels with `serving_input_fn`, keeping the newest
    `exports_to_keep`."""
    from tf1compat.estimator.exporter import _garbage_collect_exports
    if default_output_alternative_key is not None:
        raise NotImplementedError("make_export_strategy(default_output_alternative_key=...) "
                                  "(contrib.learn Estimators) is not supported by tf1compat.")

    def export_fn(estimator: Any, export_dir_base: Any, checkpoint_path: Any = None,
                  strip_default_attrs: Any = False) -> Any:
        export_dir_base = os.fsdecode(export_dir_base)
        result = estimator.export_savedmodel(export_dir_base, serving_input_fn,
                                             assets_extra=assets_extra, as_text=as_text,
                                             checkpoint_path=checkpoint_path,
                                             strip_default_attrs=bool(strip_default_attrs))
        _garbage_collect_exports(export_dir_base, exports_to_keep)
        return result
    return ExportStrategy("Servo", export_fn, strip_default_attrs)
