"""`tf.saved_model.signature_def_utils`: building and checking SignatureDefs."""

from __future__ import annotations

import os
from typing import Any, Dict, Optional

from tf1compat.framework import errors
from tf1compat.framework.tensor import Tensor
from tf1compat.serialization.atomic_files import atomic_write_bytes
from tf1compat.serialization.messages import SignatureDef, TensorInfo, to_text
from tf1compat.training.saved_model import constants, signature_constants as sc
from tf1compat.training.saved_model.loader import parse_saved_model
from tf1compat.util import tf_logging
from tf1compat.training.saved_model.utils import build_tensor_info

__all__ = ["build_signature_def", "predict_signature_def", "classification_signature_def",
           "regression_signature_def", "supervised_train_signature_def",
           "supervised_eval_signature_def", "is_valid_signature", "MethodNameUpdater"]

_DT_FLOAT, _DT_STRING = 1, 7


def build_signature_def(inputs: Optional[Dict[str, TensorInfo]] = None,
                        outputs: Optional[Dict[str, TensorInfo]] = None,
                        method_name: Optional[str] = None,
                        defaults: Any = None) -> SignatureDef:
    """A SignatureDef from TensorInfo maps and a method name."""
    if defaults:
        raise NotImplementedError("SignatureDef defaults are not supported by tf1compat")
    sig = SignatureDef()
    for key, info in (inputs or {}).items():
        sig.inputs[key].CopyFrom(info)
    for key, info in (outputs or {}).items():
        sig.outputs[key].CopyFrom(info)
    if method_name is not None:
        sig.method_name = method_name
    return sig


def regression_signature_def(examples: Any, predictions: Any) -> SignatureDef:
    """A Regress signature: serialized tf.Examples (string) in, float predictions out."""
    if examples is None:
        raise ValueError("Regression `examples` cannot be None.")
    if not isinstance(examples, Tensor):
        raise ValueError("Expected regression `examples` to be of type Tensor. Found "
                         f"`examples` of type {type(examples)}.")
    if predictions is None:
        raise ValueError("Regression `predictions` cannot be None.")
    inputs = build_tensor_info(examples)
    if inputs.dtype != _DT_STRING:
        raise ValueError("Regression input tensors must be of type string. Found tensors "
                         f"with type {inputs.dtype}.")
    outputs = build_tensor_info(predictions)
    if outputs.dtype != _DT_FLOAT:
        raise ValueError("Regression output tensors must be of type float. Found tensors "
                         f"with type {outputs.dtype}.")
    return build_signature_def({sc.REGRESS_INPUTS: inputs}, {sc.REGRESS_OUTPUTS: outputs},
                               sc.REGRESS_METHOD_NAME)


def classification_signature_def(examples: Any, classes: Any, scores: Any) -> SignatureDef:
    """A Classify signature: serialized tf.Examples in, string classes and/or float
    scores out."""
    if examples is None:
        raise ValueError("Classification `examples` cannot be None.")
    if not isinstance(examples, Tensor):
        raise ValueError("Classification `examples` must be a string Tensor. Found "
                         f"`examples` of type {type(examples)}.")
    if classes is None and scores is None:
        raise ValueError("Classification `classes` and `scores` cannot both be None.")
    inputs = build_tensor_info(examples)
    if inputs.dtype != _DT_STRING:
        raise ValueError("Classification input tensors must be of type string. Found "
                         f"tensors of type {inputs.dtype}")
    outputs: Dict[str, TensorInfo] = {}
    if classes is not None:
        info = build_tensor_info(classes)
        if info.dtype != _DT_STRING:
            raise ValueError("Classification classes must be of type string Tensor. Found "
                             f"tensors of type {info.dtype}.`")
        outputs[sc.CLASSIFY_OUTPUT_CLASSES] = info
    if scores is not None:
        info = build_tensor_info(scores)
        if info.dtype != _DT_FLOAT:
            raise ValueError("Classification scores must be a float Tensor.")
        outputs[sc.CLASSIFY_OUTPUT_SCORES] = info
    return build_signature_def({sc.CLASSIFY_INPUTS: inputs}, outputs,
                               sc.CLASSIFY_METHOD_NAME)


def predict_signature_def(inputs: Dict[str, Any], outputs: Dict[str, Any]) -> SignatureDef:
    """A Predict signature over named input and output tensors."""
    if not inputs:
        raise ValueError("Prediction `inputs` cannot be None or empty.")
    if not outputs:
        raise ValueError("Prediction `outputs` cannot be None or empty.")
    return build_signature_def({k: build_tensor_info(t) for k, t in inputs.items()},
                               {k: build_tensor_info(t) for k, t in outputs.items()},
                               sc.PREDICT_METHOD_NAME)


def _supervised(method_name: str, inputs: Dict[str, Any], loss: Any, predictions: Any,
                metrics: Any) -> SignatureDef:
    if not inputs:
        raise ValueError(f"{method_name} `inputs` cannot be None or empty.")
    outs: Dict[str, TensorInfo] = {}
    for group in (loss, predictions, metrics):
        if group is not None:
            outs.update({k: build_tensor_info(t) for k, t in group.items()})
    return build_signature_def({k: build_tensor_info(t) for k, t in inputs.items()}, outs,
                               method_name)


def supervised_train_signature_def(inputs: Dict[str, Any], loss: Any, predictions: Any = None,
                                   metrics: Any = None) -> SignatureDef:
    return _supervised(sc.SUPERVISED_TRAIN_METHOD_NAME, inputs, loss, predictions, metrics)


def supervised_eval_signature_def(inputs: Dict[str, Any], loss: Any, predictions: Any = None,
                                  metrics: Any = None) -> SignatureDef:
    return _supervised(sc.SUPERVISED_EVAL_METHOD_NAME, inputs, loss, predictions, metrics)


def is_valid_signature(signature_def: Optional[SignatureDef]) -> bool:
    """Whether the SignatureDef is a well-formed Predict, Classify or Regress signature."""
    if signature_def is None:
        return False
    sig = signature_def
    ins, outs = dict(sig.inputs), dict(sig.outputs)
    if sig.method_name == sc.PREDICT_METHOD_NAME:
        return bool(ins) and bool(outs)
    if sig.method_name == sc.CLASSIFY_METHOD_NAME:
        if set(ins) != {sc.CLASSIFY_INPUTS} or ins[sc.CLASSIFY_INPUTS].dtype != _DT_STRING:
            return False
        allowed = {sc.CLASSIFY_OUTPUT_CLASSES: _DT_STRING, sc.CLASSIFY_OUTPUT_SCORES: _DT_FLOAT}
        return bool(outs) and all(k in allowed and v.dtype == allowed[k]
                                  for k, v in outs.items())
    if sig.method_name == sc.REGRESS_METHOD_NAME:
        return (set(ins) == {sc.REGRESS_INPUTS} and ins[sc.REGRESS_INPUTS].dtype == _DT_STRING
                and set(outs) == {sc.REGRESS_OUTPUTS}
                and outs[sc.REGRESS_OUTPUTS].dtype == _DT_FLOAT)
    return False


class MethodNameUpdater:
    """`tf.saved_model.signature_def_utils.MethodNameUpdater`: changes the `method_name` of
    signatures in an existing SavedModel's `saved_model.pb` (or `.pbtxt`), e.g. to
    `tensorflow/serving/regress` for TF Serving's Regress API. Variables are not touched."""

    def __init__(self, export_dir: Any):
        self._export_dir = os.fspath(export_dir)
        self._saved_model = parse_saved_model(export_dir)   # IOError when there is none

    def replace_method_name(self, signature_key: str, method_name: str,
                            tags: Any = None) -> None:
        """Sets `method_name` of the signature `signature_key` in the MetaGraphDef tagged
        exactly `tags`, or in every MetaGraphDef when `tags` is None (each must have it)."""
        if not signature_key:
            raise ValueError("`signature_key` must be defined.")
        if not method_name:
            raise ValueError("`method_name` must be defined.")
        if tags is not None and not isinstance(tags, list):
            tags = [tags]
        matched = [meta for meta in self._saved_model.meta_graphs
                   if tags is None or set(tags) == set(meta.meta_info_def.tags)]
        for meta in matched:
            if signature_key not in meta.signature_def:
                raise ValueError(
                    f"MetaGraphDef associated with tags {tags} does not have a signature_def "
                    f"with key: '{signature_key}'. This means either you specified the wrong "
                    "signature key or forgot to put the signature_def with the corresponding "
                    "key in your SavedModel.")
        if not matched:
            raise ValueError(
                f"MetaGraphDef associated with tags {tags} could not be found in SavedModel. "
                "This means either you specified invalid tags or your SavedModel does not "
                "have a MetaGraphDef with the specified tags.")
        # Checked before any change, so a failing call leaves the proto as it was.
        for meta in matched:
            meta.signature_def[signature_key].method_name = method_name

    def save(self, new_export_dir: Any = None) -> None:
        """Writes the updated proto over the original (or into the existing directory
        `new_export_dir`), in the original's format (binary or text)."""
        directory = os.fspath(new_export_dir) if new_export_dir else self._export_dir
        as_text = os.path.exists(os.path.join(self._export_dir,
                                              constants.SAVED_MODEL_FILENAME_PBTXT))
        if as_text:
            path = os.path.join(directory, constants.SAVED_MODEL_FILENAME_PBTXT)
            data = to_text(self._saved_model).encode("utf-8")
        else:
            path = os.path.join(directory, constants.SAVED_MODEL_FILENAME_PB)
            data = self._saved_model.SerializeToString(deterministic=True)
        if not os.path.isdir(directory):
            raise errors.NotFoundError(None, None, f"{path}; No such file or directory")
        atomic_write_bytes(path, data)
        tf_logging.info("SavedModel written to: %s", path)
