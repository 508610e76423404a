"""How `tf.contrib.learn.Estimator.export_savedmodel` builds its signatures (TF 1.15's
contrib/learn/python/learn/utils/saved_model_export_utils.py and input_fn_utils.py):
`InputFnOps` (what a serving input_fn returns), `ProblemType`, the serving input_fn
builders, and one SignatureDef per pair of input alternative and output alternative (a
head's `(problem_type, {name: tensor})`), keyed `"<input>:<head>"`, plus
`serving_default` for the default head.

A signature is a classification one (inputs `inputs`, outputs `classes`/`scores`) for a
classification or logistic-regression head fed one tensor (serialized tf.Examples) with
string classes or scores, a regression one for a linear-regression head with one output,
else a predict signature of all the head's outputs.
"""

from __future__ import annotations

import collections
from typing import Any, Dict, Optional, Tuple

from tf1compat.framework import dtypes
from tf1compat.training.saved_model import signature_constants, signature_def_utils

__all__ = ["InputFnOps", "ProblemType", "build_parsing_serving_input_fn",
           "build_default_serving_input_fn", "get_input_alternatives",
           "get_output_alternatives", "build_standardized_signature_def",
           "build_all_signature_defs"]

DEFAULT_INPUT_ALTERNATIVE_KEY = "default_input_alternative"
_FALLBACK_DEFAULT_OUTPUT_ALTERNATIVE_KEY = "default_output_alternative"
COLLECTION_DEF_KEY_FOR_INPUT_FEATURE_KEYS = "input_feature_keys"
_CLASSES, _SCORES, _PROBABILITIES, _GENERIC = "classes", "scores", "probabilities", "output"


class InputFnOps(collections.namedtuple("InputFnOps",
                                        ["features", "labels", "default_inputs"])):
    """`tf.contrib.learn.InputFnOps`: a serving input_fn's features, labels (None) and the
    tensors it expects to be fed (`default_inputs`)."""


class ProblemType:
    """`tf.contrib.learn.ProblemType`: which signature a head's outputs export as."""

    UNSPECIFIED = 0
    CLASSIFICATION = 1
    LINEAR_REGRESSION = 2
    LOGISTIC_REGRESSION = 3


def build_parsing_serving_input_fn(feature_spec: Dict[str, Any],
                                   default_batch_size: Optional[int] = None) -> Any:
    """`tf.contrib.learn.build_parsing_serving_input_fn`: serialized tf.Examples fed to
    `input_example_tensor`, parsed with `feature_spec`."""
    def input_fn() -> InputFnOps:
        from tf1compat.ops.array_ops import placeholder
        from tf1compat.ops.parsing_ops import parse_example
        serialized = placeholder(dtype=dtypes.string, shape=[default_batch_size],
                                 name="input_example_tensor")
        return InputFnOps(parse_example(serialized, feature_spec), None,
                          {"examples": serialized})
    return input_fn


def build_default_serving_input_fn(features: Dict[str, Any],
                                   default_batch_size: Optional[int] = None) -> Any:
    """`tf.contrib.learn.utils.build_default_serving_input_fn`: one placeholder per feature
    (named after it, batch dimension `default_batch_size`), fed directly."""
    def input_fn() -> InputFnOps:
        from tf1compat.ops.array_ops import placeholder
        placeholders = {}
        for name, t in features.items():
            shape = t.get_shape().as_list()
            shape[0] = default_batch_size
            placeholders[name] = placeholder(dtype=t.dtype, shape=shape, name=t.op.name)
        return InputFnOps(placeholders, None, placeholders)
    return input_fn


def get_input_alternatives(input_ops: Any) -> Tuple[Dict[str, Any], Any]:
    """({input alternative key: tensors}, features) of a serving input_fn's result."""
    alternatives = {}
    if isinstance(input_ops, InputFnOps):
        features, _, default_inputs = input_ops
        alternatives[DEFAULT_INPUT_ALTERNATIVE_KEY] = default_inputs
    else:
        features, _ = input_ops
    if not features:
        raise ValueError("Features must be defined.")
    return alternatives, features


def get_output_alternatives(model_fn_ops: Any,
                            default_output_alternative_key: Optional[str] = None
                            ) -> Tuple[Dict[Any, Any], Any]:
    """(output alternatives, the key of the one served by default) of INFER ModelFnOps;
    without alternatives the predictions are one UNSPECIFIED head."""
    alternatives = model_fn_ops.output_alternatives
    if not alternatives:
        if default_output_alternative_key:
            raise ValueError(f"Requested default_output_alternative: "
                             f"{default_output_alternative_key}, but available "
                             "output_alternatives are: []")
        outputs = model_fn_ops.predictions
        if not isinstance(outputs, dict):
            outputs = {_GENERIC: outputs}
        key = _FALLBACK_DEFAULT_OUTPUT_ALTERNATIVE_KEY
        return {key: (ProblemType.UNSPECIFIED, outputs)}, key
    if default_output_alternative_key:
        if default_output_alternative_key in alternatives:
            return alternatives, default_output_alternative_key
        raise ValueError(f"Requested default_output_alternative: "
                         f"{default_output_alternative_key}, but available "
                         f"output_alternatives are: {sorted(alternatives.keys())}")
    if len(alternatives) == 1:
        (key, _), = alternatives.items()
        return alternatives, key
    raise ValueError(f"Please specify a default_output_alternative.  Available "
                     f"output_alternatives are: {sorted(alternatives.keys())}")


def _classes(outputs: Dict[str, Any]) -> Any:
    classes = outputs.get(_CLASSES)
    # Servo classification serves string classes only.
    return None if classes is not None and classes.dtype != dtypes.string else classes


def _scores(outputs: Dict[str, Any]) -> Any:
    scores = outputs.get(_SCORES)
    return outputs.get(_PROBABILITIES) if scores is None else scores


def build_standardized_signature_def(input_tensors: Dict[str, Any],
                                     output_tensors: Dict[str, Any],
                                     problem_type: int) -> Any:
    """A classification, regression or predict SignatureDef of one head (see module doc)."""
    if not input_tensors:
        raise ValueError("input_tensors must be provided.")
    if not output_tensors:
        raise ValueError("output_tensors must be provided.")
    classes, scores = _classes(output_tensors), _scores(output_tensors)
    single_input = len(input_tensors) == 1
    if (problem_type in (ProblemType.CLASSIFICATION, ProblemType.LOGISTIC_REGRESSION)
            and single_input and (classes is not None or scores is not None
                                  or len(output_tensors) == 1)):
        (_, examples), = input_tensors.items()
        if classes is None and scores is None:
            (_, only), = output_tensors.items()
            if only.dtype == dtypes.string:
                classes = only
            else:
                scores = only
        return signature_def_utils.classification_signature_def(examples, classes, scores)
    if (problem_type == ProblemType.LINEAR_REGRESSION and single_input
            and len(output_tensors) == 1):
        (_, examples), = input_tensors.items()
        (_, predictions), = output_tensors.items()
        return signature_def_utils.regression_signature_def(examples, predictions)
    return signature_def_utils.predict_signature_def(input_tensors, output_tensors)


def build_all_signature_defs(input_alternatives: Dict[str, Any],
                             output_alternatives: Dict[Any, Any],
                             default_output_key: Any) -> Dict[str, Any]:
    """`"<input key>:<output key>"` signatures of every pair, and `serving_default`."""
    signatures = {f"{input_key}:{output_key or 'None'}":
                  build_standardized_signature_def(inputs, outputs, problem_type)
                  for input_key, inputs in input_alternatives.items()
                  for output_key, (problem_type, outputs) in output_alternatives.items()}
    default_inputs = input_alternatives.get(DEFAULT_INPUT_ALTERNATIVE_KEY)
    if not default_inputs:
        raise ValueError("A default input_alternative must be provided.")
    problem_type, outputs = output_alternatives[default_output_key]
    signatures[signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY] = \
        build_standardized_signature_def(default_inputs, outputs, problem_type)
    return signatures
