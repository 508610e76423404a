"""`tf.estimator.export`: serving input receivers and the receiver_fn builders.

A receiver holds the `features` the model_fn receives and the `receiver_tensors` the
exported signature takes (placeholders, usually serialized tf.Examples).
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Dict, Optional, Tuple

from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor

__all__ = ["ServingInputReceiver", "TensorServingInputReceiver", "UnsupervisedInputReceiver",
           "SupervisedInputReceiver", "build_parsing_serving_input_receiver_fn",
           "build_raw_serving_input_receiver_fn", "build_raw_supervised_input_receiver_fn",
           "build_supervised_input_receiver_fn_from_input_fn",
           "SINGLE_FEATURE_DEFAULT_NAME", "SINGLE_RECEIVER_DEFAULT_NAME",
           "SINGLE_LABEL_DEFAULT_NAME"]

SINGLE_FEATURE_DEFAULT_NAME = "feature"
SINGLE_RECEIVER_DEFAULT_NAME = "input"
SINGLE_LABEL_DEFAULT_NAME = "label"
_SINGLE_TENSOR_DEFAULT_NAMES = {
    "feature": SINGLE_FEATURE_DEFAULT_NAME, "label": SINGLE_LABEL_DEFAULT_NAME,
    "receiver_tensor": SINGLE_RECEIVER_DEFAULT_NAME,
    "receiver_tensors_alternative": SINGLE_RECEIVER_DEFAULT_NAME}


def wrap_and_check_input_tensors(tensors: Any, field_name: str,
                                 allow_int_keys: bool = False) -> Dict[Any, Any]:
    """`tensors` as a dict (a single tensor gets the field's default name), checked."""
    if tensors is None:
        raise ValueError(f"{field_name}s must be defined.")
    if not isinstance(tensors, dict):
        tensors = {_SINGLE_TENSOR_DEFAULT_NAMES[field_name]: tensors}
    for name, tensor in tensors.items():
        _check_tensor_key(name, field_name, allow_int_keys)
        _check_tensor(tensor, name, field_name)
    return tensors


def _check_tensor(tensor: Any, name: Any, error_label: str = "feature") -> None:
    if not isinstance(tensor, (Tensor, SparseTensor)):
        shown = f" {name}" if name else ""
        raise ValueError(f"{error_label}{shown} must be a Tensor, SparseTensor, or "
                         "RaggedTensor.")


def _check_tensor_key(name: Any, error_label: str = "feature",
                      allow_ints: bool = False) -> None:
    if not isinstance(name, str):
        if not allow_ints:
            raise ValueError(f"{error_label} keys must be strings: {name}.")
        if not isinstance(name, int):
            raise ValueError(f"{error_label} keys must be strings or ints: {name}.")


class ServingInputReceiver(collections.namedtuple(
        "ServingInputReceiver",
        ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """Features for the model_fn and the tensors the serving signature receives."""

    def __new__(cls, features: Any, receiver_tensors: Any,
                receiver_tensors_alternatives: Optional[Dict[str, Any]] = None):
        features = wrap_and_check_input_tensors(features, "feature", allow_int_keys=True)
        receiver_tensors = wrap_and_check_input_tensors(receiver_tensors, "receiver_tensor")
        if receiver_tensors_alternatives is not None:
            if not isinstance(receiver_tensors_alternatives, dict):
                raise ValueError("receiver_tensors_alternatives must be a dict: "
                                 f"{receiver_tensors_alternatives}.")
            for name, alt in receiver_tensors_alternatives.items():
                receiver_tensors_alternatives[name] = wrap_and_check_input_tensors(
                    alt, "receiver_tensors_alternative")
        return super().__new__(cls, features=features, receiver_tensors=receiver_tensors,
                               receiver_tensors_alternatives=receiver_tensors_alternatives)


class TensorServingInputReceiver(collections.namedtuple(
        "TensorServingInputReceiver",
        ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """Like ServingInputReceiver, for a model_fn whose features are one Tensor."""

    def __new__(cls, features: Any, receiver_tensors: Any,
                receiver_tensors_alternatives: Optional[Dict[str, Any]] = None):
        if features is None:
            raise ValueError("features must be defined.")
        _check_tensor(features, None)
        receiver = ServingInputReceiver(features, receiver_tensors,
                                        receiver_tensors_alternatives)
        return super().__new__(cls, features=receiver.features[SINGLE_FEATURE_DEFAULT_NAME],
                               receiver_tensors=receiver.receiver_tensors,
                               receiver_tensors_alternatives=receiver.
                               receiver_tensors_alternatives)


class UnsupervisedInputReceiver(ServingInputReceiver):
    """A ServingInputReceiver without alternatives (for train/eval exports)."""

    def __new__(cls, features: Any, receiver_tensors: Any):
        return super().__new__(cls, features, receiver_tensors, None)


class SupervisedInputReceiver(collections.namedtuple(
        "SupervisedInputReceiver", ["features", "labels", "receiver_tensors"])):
    """Features, labels and receiver tensors for train/eval SavedModel exports."""

    def __new__(cls, features: Any, labels: Any, receiver_tensors: Any):
        wrap_and_check_input_tensors(features, "feature", allow_int_keys=True)
        wrap_and_check_input_tensors(labels, "label", allow_int_keys=True)
        receiver_tensors = wrap_and_check_input_tensors(receiver_tensors, "receiver_tensor")
        return super().__new__(cls, features=features, labels=labels,
                               receiver_tensors=receiver_tensors)


def build_parsing_serving_input_receiver_fn(feature_spec: Dict[str, Any],
                                            default_batch_size: Optional[int] = None
                                            ) -> Callable[[], ServingInputReceiver]:
    """A receiver_fn that parses serialized tf.Examples fed to `input_example_tensor`."""
    def serving_input_receiver_fn() -> ServingInputReceiver:
        from tf1compat.ops.array_ops import placeholder
        from tf1compat.ops.parsing_ops import parse_example
        from tf1compat.framework import dtypes
        serialized = placeholder(dtype=dtypes.string, shape=[default_batch_size],
                                 name="input_example_tensor")
        features = parse_example(serialized, feature_spec)
        return ServingInputReceiver(features, {"examples": serialized})
    return serving_input_receiver_fn


def _placeholder_from_tensor(t: Any, default_batch_size: Optional[int] = None) -> Tensor:
    from tf1compat.framework.tensor_shape import TensorShape
    from tf1compat.ops.array_ops import placeholder
    shape = TensorShape([default_batch_size]).concatenate(t.get_shape()[1:])
    name = getattr(getattr(t, "op", None), "name", None)
    return placeholder(dtype=t.dtype, shape=shape, name=name)


def _placeholders_from(tensors: Dict[str, Any],
                       default_batch_size: Optional[int]) -> Dict[str, Tensor]:
    return {name: _placeholder_from_tensor(t, default_batch_size)
            for name, t in tensors.items()}


def build_raw_serving_input_receiver_fn(features: Dict[str, Any],
                                        default_batch_size: Optional[int] = None
                                        ) -> Callable[[], ServingInputReceiver]:
    """A receiver_fn feeding placeholders shaped like `features` straight to the model."""
    def serving_input_receiver_fn() -> ServingInputReceiver:
        receiver_tensors = _placeholders_from(features, default_batch_size)
        return ServingInputReceiver(receiver_tensors, receiver_tensors)
    return serving_input_receiver_fn


def build_raw_supervised_input_receiver_fn(features: Any, labels: Any,
                                           default_batch_size: Optional[int] = None
                                           ) -> Callable[[], SupervisedInputReceiver]:
    """`tf.estimator.experimental.build_raw_supervised_input_receiver_fn`: placeholders
    for features and labels (train/eval exports)."""
    feat_keys = features.keys() if isinstance(features, dict) else \
        [SINGLE_RECEIVER_DEFAULT_NAME]
    label_keys = labels.keys() if isinstance(labels, dict) else [SINGLE_LABEL_DEFAULT_NAME]
    overlap = set(feat_keys) & set(label_keys)
    if overlap:
        raise ValueError("Features and labels must have distinct keys. Found overlapping "
                         f"keys: {overlap}")

    def placeholders(tensors: Any, single_name: str) -> Tuple[Any, Dict[str, Any]]:
        """Placeholders like `tensors` (a dict or one tensor), and them by receiver name."""
        if isinstance(tensors, dict):
            copies = _placeholders_from(tensors, default_batch_size)
            return copies, copies
        copy = _placeholder_from_tensor(tensors, default_batch_size)
        return copy, {single_name: copy}

    def supervised_input_receiver_fn() -> SupervisedInputReceiver:
        features_cp, receiver_features = placeholders(features, SINGLE_RECEIVER_DEFAULT_NAME)
        labels_cp, receiver_labels = placeholders(labels, SINGLE_LABEL_DEFAULT_NAME)
        receiver_tensors = dict(receiver_features)
        receiver_tensors.update(receiver_labels)
        return SupervisedInputReceiver(features_cp, labels_cp, receiver_tensors)
    return supervised_input_receiver_fn


def build_supervised_input_receiver_fn_from_input_fn(input_fn: Callable,
                                                     **input_fn_args: Any) -> Callable:
    """A supervised receiver_fn with placeholders shaped like `input_fn`'s outputs."""
    from tf1compat.estimator.util import parse_input_fn_result
    from tf1compat.framework.graph import Graph
    with Graph().as_default():
        features, labels, _ = parse_input_fn_result(input_fn(**input_fn_args))
    return build_raw_supervised_input_receiver_fn(features, labels)
