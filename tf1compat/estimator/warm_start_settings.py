"""`tf.estimator.WarmStartSettings` (and `tf.estimator.VocabInfo`): what an Estimator's
`warm_start_from` initializes its variables from."""

from __future__ import annotations

import collections
import os
from typing import Any, Optional

from tf1compat.util import tf_logging
from tf1compat.training.saving.warm_starting_util import VocabInfo

__all__ = ["WarmStartSettings", "VocabInfo", "get_default_warm_start_settings"]


class WarmStartSettings(collections.namedtuple("WarmStartSettings", [
        "ckpt_to_initialize_from", "vars_to_warm_start", "var_name_to_vocab_info",
        "var_name_to_prev_var_name"])):
    """A checkpoint (or directory, or SavedModel) and which variables to initialize from
    it (a regex over TRAINABLE_VARIABLES, or a list), with vocabulary remaps and renames."""

    def __new__(cls, ckpt_to_initialize_from: Any, vars_to_warm_start: Any = ".*",
                var_name_to_vocab_info: Any = None, var_name_to_prev_var_name: Any = None):
        if not ckpt_to_initialize_from:
            raise ValueError("`ckpt_to_initialize_from` MUST be set in WarmStartSettings")
        return super().__new__(cls, ckpt_to_initialize_from, vars_to_warm_start,
                               var_name_to_vocab_info or {}, var_name_to_prev_var_name or {})


def get_default_warm_start_settings(warm_start_from: Any) -> Optional[WarmStartSettings]:
    """WarmStartSettings from an Estimator's `warm_start_from` (a path: a checkpoint, a
    model directory, or a SavedModel's directory)."""
    if warm_start_from is None:
        return None
    if isinstance(warm_start_from, (str, bytes, os.PathLike)):
        path = os.fsdecode(warm_start_from)
        variables = os.path.join(path, "variables", "variables")
        if any(os.path.exists(variables + suffix)
               for suffix in (".index", ".safetensors")):
            tf_logging.info("Warm-starting from a SavedModel")
            return WarmStartSettings(ckpt_to_initialize_from=variables)
        return WarmStartSettings(ckpt_to_initialize_from=path)
    if isinstance(warm_start_from, WarmStartSettings):
        return warm_start_from
    raise ValueError("warm_start_from must be a string or a WarmStartSettings, instead got "
                     f"{type(warm_start_from)}")
