"""Writing an evaluation's results to `<model_dir>/eval*/` event files, as TF's Estimator:
one Summary of the scalar metrics at the evaluated global step, and the checkpoint path
as a string tensor summary."""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from tf1compat.util import tf_logging

__all__ = ["write_dict_to_summary", "write_checkpoint_path_summary"]

_DT_STRING = 7


def _dict_to_str(dictionary: Dict[str, Any]) -> str:
    return ", ".join("%s = %s" % (k, v) for k, v in sorted(dictionary.items())
                     if not isinstance(v, bytes))


def write_dict_to_summary(output_dir: str, dictionary: Dict[str, Any],
                          current_global_step: int) -> None:
    """Logs `Saving dict for global step N: ...` and writes the scalars (TF skips
    `global_step`; ndarrays become tensor summaries, serialized Summaries are merged)."""
    from tf1compat.serialization.messages import Summary
    from tf1compat.serialization.tensor_proto import tensor_to_proto
    from tf1compat.summary.writer import FileWriterCache
    tf_logging.info("Saving dict for global step %d: %s", current_global_step,
                    _dict_to_str(dictionary))
    writer = FileWriterCache.get(output_dir)
    values = []
    for key, value in dictionary.items():
        if value is None or key == "global_step":
            continue
        if isinstance(value, (np.floating, float)):
            values.append(Summary.Value(tag=key, simple_value=float(value)))
        elif isinstance(value, (np.integer, int)):
            values.append(Summary.Value(tag=key, simple_value=int(value)))
        elif isinstance(value, bytes):
            try:
                summary = Summary.FromString(value)
            except Exception:  # noqa: BLE001 - TF skips strings that are not Summaries
                tf_logging.warning("Skipping summary for %s, cannot parse string to Summary.",
                                   key)
                continue
            for i, v in enumerate(summary.value):
                v.tag = "%s/%d" % (key, i)
                values.append(v)
        elif isinstance(value, np.ndarray):
            proto = tensor_to_proto(value)
            values.append(Summary.Value(tag=key, node_name=key, tensor=proto))
            tf_logging.info("Summary for np.ndarray is not visible in Tensorboard by default. "
                            "Consider using a Tensorboard plugin for visualization (see "
                            "https://github.com/tensorflow/tensorboard-plugin-example/blob/"
                            "master/README.md for more information).")
        else:
            tf_logging.warning("Skipping summary for %s, must be a float, np.float32, "
                               "np.int64, np.int32 or int or np.ndarray or a serialized "
                               "string of Summary.", key)
    writer.add_summary(Summary(value=values), current_global_step)
    writer.flush()


def write_checkpoint_path_summary(output_dir: str, checkpoint_path: str,
                                  current_global_step: int) -> None:
    """Logs and writes the evaluated checkpoint's path (a string tensor summary)."""
    from tf1compat.serialization.messages import Summary, TensorProto, TensorShapeProto
    from tf1compat.summary.writer import FileWriterCache
    tf_logging.info("Saving '%s' summary for global step %d: %s", "checkpoint_path",
                    current_global_step, checkpoint_path)
    tensor = TensorProto(dtype=_DT_STRING, tensor_shape=TensorShapeProto(),
                         string_val=[checkpoint_path.encode()])
    writer = FileWriterCache.get(output_dir)
    writer.add_summary(Summary(value=[Summary.Value(tag="checkpoint_path", tensor=tensor)]),
                       current_global_step)
    writer.flush()
