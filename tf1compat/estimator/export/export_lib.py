"""Building a SavedModel's signatures from export outputs, and export directories
(TF's saved_model model_utils, used by Estimator.export_saved_model and exporters)."""

from __future__ import annotations

import collections
import os
import time
from typing import Any, Dict, Iterable, Optional

from tf1compat.util import tf_logging
from tf1compat.estimator.export import export_output as export_output_lib
from tf1compat.estimator.export.export import SINGLE_RECEIVER_DEFAULT_NAME
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.training.saved_model import signature_constants as sc
from tf1compat.training.saved_model import signature_def_utils, tag_constants

__all__ = ["EXPORT_TAG_MAP", "SIGNATURE_KEY_MAP", "build_all_signature_defs",
           "get_timestamped_export_dir", "get_temp_export_dir", "export_outputs_for_mode",
           "get_export_outputs"]

EXPORT_TAG_MAP = {ModeKeys.PREDICT: [tag_constants.SERVING],
                  ModeKeys.TRAIN: [tag_constants.TRAINING],
                  ModeKeys.EVAL: [tag_constants.EVAL]}
SIGNATURE_KEY_MAP = {ModeKeys.PREDICT: sc.DEFAULT_SERVING_SIGNATURE_DEF_KEY,
                     ModeKeys.TRAIN: "train", ModeKeys.EVAL: "eval"}
_FRIENDLY_METHOD_NAMES = {sc.CLASSIFY_METHOD_NAME: "Classify",
                          sc.REGRESS_METHOD_NAME: "Regress",
                          sc.PREDICT_METHOD_NAME: "Predict",
                          sc.SUPERVISED_TRAIN_METHOD_NAME: "Train",
                          sc.SUPERVISED_EVAL_METHOD_NAME: "Eval"}
_MAX_DIRECTORY_CREATION_ATTEMPTS = 10


def _ensure_servable(input_tensors: Iterable[Any], signature: Any, graph: Any) -> None:
    """Raises ValueError when an output depends on a placeholder that is not an input."""
    inputs = {id(part) for t in input_tensors for part in _flat(t)}
    outputs = [graph.as_graph_element(info.name) for info in signature.outputs.values()
               if info.name]
    seen = set()
    stack = [t.op for t in outputs]
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        if op.type == "Placeholder" and not all(id(o) in inputs for o in op.outputs):
            raise ValueError(
                f"The signature's input tensors {[t.name for t in input_tensors]} are "
                f"insufficient to compute its output keys {list(signature.outputs)} because "
                f"of the dependency on `{op.name}` which is not given as a signature input.")
        for t in op.inputs:
            if id(t) not in inputs:
                stack.append(t.op)
        stack.extend(op.control_inputs)


def _flat(t: Any) -> list:
    if hasattr(t, "indices") and hasattr(t, "dense_shape"):
        return [t.indices, t.values, t.dense_shape]
    return [t]


def build_all_signature_defs(receiver_tensors: Any, export_outputs: Dict[str, Any],
                             receiver_tensors_alternatives: Optional[Dict[str, Any]] = None,
                             serving_only: bool = True) -> Dict[str, Any]:
    """One SignatureDef per export output (and per alternative receiver); signatures
    that cannot be served are left out and reported in the log, as TF does."""
    from tf1compat.framework.graph import get_default_graph
    if not isinstance(receiver_tensors, dict):
        receiver_tensors = {SINGLE_RECEIVER_DEFAULT_NAME: receiver_tensors}
    if export_outputs is None or not isinstance(export_outputs, dict):
        raise ValueError(f"`export_outputs` must be a dict. Received {export_outputs} with "
                         f"type {type(export_outputs).__name__}.")
    graph = get_default_graph()
    signatures: Dict[str, Any] = {}
    excluded: Dict[str, str] = {}

    def add(name: str, receivers: Dict[str, Any], output: Any) -> None:
        try:
            signature = output.as_signature_def(receivers)
            _ensure_servable(list(receivers.values()), signature, graph)
            signatures[name] = signature
        except ValueError as e:
            excluded[name] = str(e)

    for key, output in export_outputs.items():
        add(f"{key or 'None'}", receiver_tensors, output)
    for alt_name, alt in (receiver_tensors_alternatives or {}).items():
        if not isinstance(alt, dict):
            alt = {SINGLE_RECEIVER_DEFAULT_NAME: alt}
        for key, output in export_outputs.items():
            add(f"{alt_name or 'None'}:{key or 'None'}", alt, output)
    _log_signature_report(signatures, excluded)
    if serving_only:
        signatures = {k: v for k, v in signatures.items()
                      if signature_def_utils.is_valid_signature(v)}
    return signatures


def _log_signature_report(signatures: Dict[str, Any], excluded: Dict[str, str]) -> None:
    by_method: Dict[str, list] = collections.OrderedDict(
        (method, []) for method in _FRIENDLY_METHOD_NAMES)
    for name, sig in signatures.items():
        by_method.setdefault(sig.method_name, []).append(name)
    for method, names in by_method.items():
        tf_logging.info("Signatures INCLUDED in export for {}: {}".format(
            _FRIENDLY_METHOD_NAMES.get(method, method), names if names else "None"))
    if excluded:
        tf_logging.info("Signatures EXCLUDED from export because they cannot be be served "
                        "via TensorFlow Serving APIs:")
        for name, message in excluded.items():
            tf_logging.info("'{}' : {}".format(name, message))
    if not signatures:
        tf_logging.warning("Export includes no signatures!")
    elif sc.DEFAULT_SERVING_SIGNATURE_DEF_KEY not in signatures:
        tf_logging.warning("Export includes no default signature!")


def get_timestamped_export_dir(export_dir_base: Any) -> bytes:
    """`<export_dir_base>/<unix seconds>` (bytes, as TF); waits a second on collision."""
    base = export_dir_base.encode() if isinstance(export_dir_base, str) else export_dir_base
    for attempt in range(1, _MAX_DIRECTORY_CREATION_ATTEMPTS + 1):
        result = os.path.join(base, str(int(time.time())).encode())
        if not os.path.exists(result):
            return result
        time.sleep(1)
        tf_logging.warning("Directory {} already exists; retrying (attempt {}/{})".format(
            result.decode(), attempt, _MAX_DIRECTORY_CREATION_ATTEMPTS))
    raise RuntimeError("Failed to obtain a unique export directory name after "
                       f"{_MAX_DIRECTORY_CREATION_ATTEMPTS} attempts.")


def get_temp_export_dir(timestamped_export_dir: Any) -> bytes:
    """`<dir>/temp-<timestamp>`: where an export is written before its final rename."""
    directory = timestamped_export_dir
    if isinstance(directory, str):
        directory = directory.encode()
    dirname, basename = os.path.split(directory)
    return os.path.join(dirname, b"temp-" + basename)


def get_export_outputs(export_outputs: Any, predictions: Any) -> Dict[str, Any]:
    """The PREDICT export outputs: a PredictOutput of `predictions` by default; a single
    output also becomes the default serving signature."""
    if export_outputs is None:
        export_outputs = {sc.DEFAULT_SERVING_SIGNATURE_DEF_KEY:
                          export_output_lib.PredictOutput(predictions)}
    if not isinstance(export_outputs, dict):
        raise TypeError(f"`export_outputs` must be dict, received: {export_outputs}.")
    for value in export_outputs.values():
        if not isinstance(value, export_output_lib.ExportOutput):
            raise TypeError("Values in `export_outputs` must be ExportOutput objects, "
                            f"received: {export_outputs}.")
    if len(export_outputs) == 1:
        (key, value), = export_outputs.items()
        if key != sc.DEFAULT_SERVING_SIGNATURE_DEF_KEY:
            export_outputs[sc.DEFAULT_SERVING_SIGNATURE_DEF_KEY] = value
    elif sc.DEFAULT_SERVING_SIGNATURE_DEF_KEY not in export_outputs:
        raise ValueError("Multiple `export_outputs` were provided, but none of them are "
                         "specified as the default. Use`tf.saved_model."
                         "DEFAULT_SERVING_SIGNATURE_DEF_KEY` to specify a default.")
    return export_outputs


def export_outputs_for_mode(mode: str, serving_export_outputs: Any = None,
                            predictions: Any = None, loss: Any = None,
                            metrics: Any = None) -> Dict[str, Any]:
    """The export outputs of a meta graph exported in `mode`."""
    if mode not in SIGNATURE_KEY_MAP:
        raise ValueError(f"Export output type not found for `mode`: {mode}. Expected one of: "
                         f"{list(SIGNATURE_KEY_MAP.keys())}.")
    key = SIGNATURE_KEY_MAP[mode]
    if mode == ModeKeys.PREDICT:
        return get_export_outputs(serving_export_outputs, predictions)
    cls = export_output_lib.TrainOutput if mode == ModeKeys.TRAIN else \
        export_output_lib.EvalOutput
    return {key: cls(loss=loss, predictions=predictions, metrics=metrics)}
