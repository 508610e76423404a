"""Shared pieces of the TF1 heads (canned/head.py): label/logit/weight shape checks,
the metric helpers (label and prediction means, AUC, accuracy baseline, threshold
metrics), class lists and the classification export output."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence

from tf1compat.estimator.export import export_output
from tf1compat.estimator.util import fn_args
from tf1compat.framework import dtypes
from tf1compat.framework.graph import GraphKeys, control_dependencies, get_default_graph, \
    name_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.losses.losses_impl import Reduction

__all__ = ["summary_key", "create_eval_metrics_tuple", "label_none_message",
           "check_dense_labels_match_logits_and_reshape",
           "get_weights_and_check_match_logits", "check_logits_final_dim",
           "validate_loss_fn_args", "call_loss_fn", "assert_range",
           "indicator_labels_mean", "predictions_mean", "auc", "accuracy_baseline",
           "accuracy_at_threshold", "ratio_at_threshold", "all_class_ids", "all_classes",
           "classification_output", "append_update_ops", "check_reduction"]


def summary_key(head_name: Optional[str], key: str) -> str:
    return f"{key}/{head_name}" if head_name else key


def create_eval_metrics_tuple(fn: Callable, kwargs: Dict[str, Any]) -> tuple:
    """(metric_fn, tensors) with the non-tensor arguments bound (TPU convention)."""
    tensors = {k: v for k, v in kwargs.items() if isinstance(v, Tensor)}
    others = {k: v for k, v in kwargs.items() if not isinstance(v, Tensor)}

    def metric_fn(**given: Any) -> Any:
        return fn(**dict(others, **given))
    return metric_fn, tensors


# -- shape checks -----------------------------------------------------------------------------
# The v1 heads (canned/head.py) and the v2 heads (head/) run the same checks; TF reworded
# the v2 heads' messages (base_head.py's constants), so each text comes in both wordings.

def label_none_message(v2: bool = False) -> str:
    """The error for labels=None."""
    return ("You must provide a labels Tensor. Given: None. Suggested troubleshooting steps: "
            f"Check that your data {'contains' if v2 else 'contain'} your label feature. "
            "Check that your input_fn properly parses and returns labels.")


def _sparse_labels_message(d: int, v2: bool) -> str:
    return ("SparseTensor labels are not supported. "
            f"{'Labels' if v2 else 'labels'} must be a Tensor of shape [D0, D1, ..., DN, {d}], "
            f"e.g. [batch_size, {d}].{'' if v2 else ' '}Suggested Fix (1): Check the label "
            f"feature in your data. Each example must contain {d} value(s). If not, your "
            "choice of label was probably incorrect. Suggested Fix (2): In your input_fn, use "
            "tf.sparse_tensor_to_dense() to turn labels into a Tensor.")


def _mismatched_label_dim_message(expected: int, received: Any, v2: bool) -> str:
    gap = " " if v2 else ""
    return (f"Mismatched label shape. Expected labels dimension={expected}.  Received "
            f"{received}. Suggested Fix:{gap}If your classifier expects one-hot encoding "
            f"label,{gap}check your n_classes argument to the estimator and/or the shape of "
            "your label. Otherwise, check the shape of your label.")


def check_dense_labels_match_logits_and_reshape(labels: Any, logits: Tensor,
                                                 expected_labels_dimension: int,
                                                 v2: bool = False) -> Tensor:
    """`labels` checked against `logits` ([D0, ... DN, expected_labels_dimension], or one
    rank less, expanded); static mismatches raise ValueError, the rest are graph asserts.
    `v2`: the v2 heads' messages."""
    from tf1compat.ops.array_ops import concat, expand_dims, identity, shape
    from tf1compat.ops.check_ops import assert_equal, assert_rank_at_least
    if labels is None:
        raise ValueError(label_none_message(v2))
    with name_scope(None, "labels", (labels, logits)) as scope:
        if isinstance(labels, SparseTensor):
            raise ValueError(_sparse_labels_message(expected_labels_dimension, v2))
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        labels = convert_to_tensor(labels)
        if (labels.shape.ndims is not None and logits.shape.ndims is not None and
                labels.shape.ndims == logits.shape.ndims - 1):
            labels = expand_dims(labels, -1)
        labels_shape = shape(labels)
        logits_shape = shape(logits)
        err_msg = (f"labels shape must be [D0, D1, ... DN, {expected_labels_dimension}]. "
                   "Suggested Fix: check your n_classes argument to the "
                   f"{'head' if v2 else 'estimator'} and/or the shape of your label.")
        assert_rank = assert_rank_at_least(labels, 2, message=err_msg)
        with control_dependencies([assert_rank]):
            static_shape = labels.shape
            if static_shape.ndims is not None:
                dim1 = static_shape.as_list()[-1]
                if dim1 is not None and dim1 != expected_labels_dimension:
                    raise ValueError(_mismatched_label_dim_message(
                        expected_labels_dimension, dim1, v2))
            expected = concat([logits_shape[:-1], [expected_labels_dimension]], axis=0)
            assert_dimension = assert_equal(
                expected, labels_shape, message=err_msg,
                data=["expected_labels_shape: ", expected, "labels_shape: ", labels_shape])
            with control_dependencies([assert_dimension]):
                return identity(labels, name=scope)


def get_weights_and_check_match_logits(features: Dict[str, Any], weight_column: Any,
                                        logits: Tensor, allow_per_logit_weights: bool = False,
                                        v2: bool = False) -> Any:
    """The weight column's values cast to float and checked against `logits`' shape; 1.
    without a weight column. The v1 heads take any dense column, the v2 heads (`v2`) only
    a numeric one."""
    from tf1compat.feature_column.base import DenseColumn, LazyBuilder
    from tf1compat.feature_column.columns import NumericColumn, numeric_column
    from tf1compat.ops.array_ops import concat, expand_dims, identity, shape
    from tf1compat.ops.check_ops import assert_equal
    from tf1compat.ops.logging_ops import Assert
    from tf1compat.ops.math_ops import cast, equal
    from tf1compat.ops.reduction_ops import reduce_all, reduce_any
    if allow_per_logit_weights:
        err_msg = ("weights shape must be [D0, D1, ... DN], [D0, D1, ... DN, 1] or "
                   "[D0, D1, ... DN, logits_dimension]")
    else:
        err_msg = "weights shape must be [D0, D1, ... DN] or [D0, D1, ... DN, 1]"
    with name_scope(None, "weights", values=tuple(features.values()) + (logits,)) as scope:
        if weight_column is None:
            return 1.
        if isinstance(weight_column, str):
            weight_column = numeric_column(key=weight_column, shape=(1,))
        if not isinstance(weight_column, NumericColumn if v2 else DenseColumn):
            raise TypeError("Weight column must be either a string or "
                            f"{'NumericColumn' if v2 else '_DenseColumn'}. Given type: "
                            f"{type(weight_column)}.")
        weights = weight_column._get_dense_tensor(LazyBuilder(features))
        if not (weights.dtype.is_floating or weights.dtype.is_integer):
            raise ValueError(f"Weight column should be castable to float. Given dtype: "
                             f"{weights.dtype}")
        weights = cast(weights, name="weights", dtype=dtypes.float32)
        weights_shape = shape(weights, name="weights_shape")
        logits_shape = shape(logits, name="logits_shape")
        if (weights.shape.ndims is not None and logits.shape.ndims is not None and
                weights.shape.ndims == logits.shape.ndims - 1):
            check = assert_equal(logits_shape[:-1], weights_shape, message=err_msg,
                                 data=["logits_shape: ", logits_shape, "weights_shape: ",
                                       weights_shape])
            with control_dependencies([check]):
                return expand_dims(weights, -1, name=scope)
        supported = concat([logits_shape[:-1], [1]], axis=0)
        if allow_per_logit_weights:
            condition = reduce_any([reduce_all(equal(logits_shape, weights_shape)),
                                    reduce_all(equal(supported, weights_shape))])
            check = Assert(condition=condition,
                           data=[err_msg, "logits_shape: ", logits_shape, "weights_shape: ",
                                 weights_shape])
        else:
            check = assert_equal(supported, weights_shape, message=err_msg,
                                 data=["logits_shape: ", logits_shape, "weights_shape: ",
                                       weights_shape])
        with control_dependencies([check]):
            return identity(weights, name=scope)


def check_logits_final_dim(logits: Any, expected_logits_dimension: int,
                           v2: bool = False) -> Tensor:
    """`logits` as float32, checked to be [D0, ... DN, expected_logits_dimension]; the v1
    heads' messages name the dimension, the v2 heads' (`v2`) do not."""
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    from tf1compat.ops.array_ops import identity, shape
    from tf1compat.ops.check_ops import assert_equal, assert_rank_at_least
    from tf1compat.ops.math_ops import cast
    dimension = "logits_dimension" if v2 else f"logits_dimension={expected_logits_dimension}"
    with name_scope(None, "logits", (logits,)) as scope:
        logits = cast(convert_to_tensor(logits), dtype=dtypes.float32)
        logits_shape = shape(logits)
        rank_check = assert_rank_at_least(
            logits, 2, data=[logits_shape],
            message="logits shape must be [D0, D1, ... DN, logits_dimension]")
        with control_dependencies([rank_check]):
            static = logits.shape
            if static.ndims is not None and static.as_list()[-1] is not None:
                if isinstance(expected_logits_dimension, int) and \
                        static.as_list()[-1] != expected_logits_dimension:
                    raise ValueError(f"logits shape must be [D0, D1, ... DN, {dimension}], "
                                     f"got {static}.")
                return logits
            check = assert_equal(expected_logits_dimension, logits_shape[-1],
                                 data=[logits_shape],
                                 message=f"logits shape must be [D0, D1, ... DN, {dimension}]")
            with control_dependencies([check]):
                return identity(logits, name=scope)


def validate_loss_fn_args(loss_fn: Callable, optional: Sequence[str] = ("features",)) -> None:
    args = fn_args(loss_fn)
    for required in ("labels", "logits"):
        if required not in args:
            raise ValueError(f"loss_fn must contain argument: {required}. Given arguments: "
                             f"{args}")
    invalid = list(set(args) - {"labels", "logits", *optional})
    if invalid:
        raise ValueError(f"loss_fn has unexpected args: {invalid}")


def call_loss_fn(loss_fn: Callable, labels: Tensor, logits: Tensor,
                  features: Dict[str, Any], expected_loss_dim: int = 1) -> Tensor:
    from tf1compat.ops.array_ops import concat, identity, shape
    from tf1compat.ops.logging_ops import Assert
    from tf1compat.ops.math_ops import equal
    from tf1compat.ops.reduction_ops import reduce_all
    kwargs = {"features": features} if "features" in fn_args(loss_fn) else {}
    with name_scope(None, "call_loss_fn", values=[labels, logits] + list(features.values())):
        loss = loss_fn(labels=labels, logits=logits, **kwargs)
        logits_shape = shape(logits, name="logits_shape")
        expected = concat([logits_shape[:-1], [expected_loss_dim]], axis=0,
                          name="expected_loss_shape")
        loss_shape = shape(loss, name="loss_shape")
        check = Assert(reduce_all(equal(loss_shape, expected)),
                       data=["loss_fn must return Tensor of shape [D0, D1, ... DN, "
                             f"{expected_loss_dim}]. ", "logits_shape: ", logits_shape,
                             "loss_shape: ", loss_shape], name="check_loss_shape")
        with control_dependencies([check]):
            return identity(loss)


def assert_range(labels: Tensor, n_classes: int, message: Optional[str] = None,
                 scope: str = "assert_range") -> Tensor:
    """`labels` with checks that they lie in [0, n_classes) (the v2 heads' scope is
    `check_label_range`)."""
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    from tf1compat.ops.array_ops import identity
    from tf1compat.ops.check_ops import assert_less_equal, assert_non_negative
    with name_scope(None, scope, (labels,)):
        less = assert_less_equal(labels, convert_to_tensor(n_classes - 1, dtype=labels.dtype),
                                 message=message or "Labels must <= n_classes - 1")
        greater = assert_non_negative(labels, message=message or "Labels must >= 0")
        with control_dependencies((less, greater)):
            return identity(labels)


# -- metric helpers ---------------------------------------------------------------------------

def broadcast_weights(weights: Any, values: Tensor) -> Any:
    from tf1compat.ops.weights_broadcast_ops import broadcast_weights
    return None if weights is None else broadcast_weights(weights, values)


def indicator_labels_mean(labels: Tensor, weights: Any = None,
                           name: Optional[str] = None) -> Any:
    from tf1compat.metrics.metrics_impl import mean
    from tf1compat.ops.math_ops import cast
    with name_scope(name, "labels_mean", (labels, weights)) as scope:
        labels = cast(labels, name="labels", dtype=dtypes.float32)
        return mean(labels, weights=broadcast_weights(weights, labels), name=scope)


def predictions_mean(predictions: Tensor, weights: Any = None,
                      name: Optional[str] = None) -> Any:
    from tf1compat.metrics.metrics_impl import mean
    from tf1compat.ops.math_ops import cast
    with name_scope(name, "predictions_mean", (predictions, weights)) as scope:
        predictions = cast(predictions, name="predictions", dtype=dtypes.float32)
        return mean(predictions, weights=broadcast_weights(weights, predictions), name=scope)


def auc(labels: Tensor, predictions: Tensor, weights: Any = None, curve: str = "ROC",
         name: Optional[str] = None) -> Any:
    from tf1compat.metrics import metrics_impl
    from tf1compat.ops.math_ops import cast
    with name_scope(name, "auc", (predictions, labels, weights)) as scope:
        predictions = cast(predictions, name="predictions", dtype=dtypes.float32)
        return metrics_impl.auc(labels=labels, predictions=predictions,
                   weights=broadcast_weights(weights, predictions), curve=curve, name=scope)


def accuracy_baseline(labels_mean: Any) -> Any:
    from tf1compat.ops.math_ops import maximum
    with name_scope(None, "accuracy_baseline", labels_mean):
        value, update_op = labels_mean
        return (maximum(value, 1. - value, name="value"),
                maximum(update_op, 1 - update_op, name="update_op"))


def accuracy_at_threshold(labels: Tensor, predictions: Tensor, weights: Any,
                           threshold: float, name: Optional[str] = None) -> Any:
    from tf1compat.metrics.metrics_impl import accuracy
    from tf1compat.ops.math_ops import cast, greater_equal
    with name_scope(name, f"accuracy_at_{threshold}",
                    (predictions, labels, weights, threshold)) as scope:
        thresholded = cast(greater_equal(predictions, threshold), dtypes.float32)
        return accuracy(labels=labels, predictions=thresholded, weights=weights, name=scope)


def ratio_at_threshold(metric: Callable, labels: Tensor, predictions: Tensor, weights: Any,
                        threshold: float, name: str, default_name: str) -> Any:
    from tf1compat.ops.array_ops import squeeze
    with name_scope(name, default_name, (predictions, labels, weights, threshold)) as scope:
        value, update_op = metric(labels=labels, predictions=predictions,
                                  thresholds=(threshold,), weights=weights, name=scope)
        return squeeze(value), squeeze(update_op)


def threshold_metrics(ops: Dict[str, Any], head_name: Optional[str], labels: Tensor,
                      predictions: Tensor, weights: Any, thresholds: Sequence[float]) -> None:
    """Adds accuracy, precision and recall at each threshold of `predictions` (TF's
    `*/positive_threshold_<t>` keys) to `ops`."""
    from tf1compat.estimator.canned.metric_keys import MetricKeys as keys
    from tf1compat.metrics.metrics_impl import precision_at_thresholds, recall_at_thresholds
    for threshold in thresholds:
        name = keys.ACCURACY_AT_THRESHOLD % threshold
        ops[summary_key(head_name, name)] = accuracy_at_threshold(
            labels, predictions, weights, threshold, name=name)
        name = keys.PRECISION_AT_THRESHOLD % threshold
        ops[summary_key(head_name, name)] = ratio_at_threshold(
            precision_at_thresholds, labels, predictions, weights, threshold, name,
            f"precision_at_{threshold}")
        name = keys.RECALL_AT_THRESHOLD % threshold
        ops[summary_key(head_name, name)] = ratio_at_threshold(
            recall_at_thresholds, labels, predictions, weights, threshold, name,
            f"recall_at_{threshold}")


def all_class_ids(logits: Tensor, n_classes: int) -> Tensor:
    from tf1compat.ops.array_ops import expand_dims, shape
    from tf1compat.ops.creation_ops import range as range_
    from tf1compat.ops.transform_ops import tile
    batch_size = shape(logits)[0]
    return tile(input=expand_dims(input=range_(n_classes), axis=0),
                multiples=[batch_size, 1])


def all_classes(logits: Tensor, n_classes: int,
                 label_vocabulary: Optional[Sequence[str]] = None) -> Tensor:
    from tf1compat.ops.array_ops import expand_dims, shape
    from tf1compat.ops.creation_ops import range as range_
    from tf1compat.ops.string_ops import as_string
    from tf1compat.ops.transform_ops import tile
    batch_size = shape(logits)[0]
    classes = label_vocabulary if label_vocabulary else as_string(range_(n_classes))
    return tile(input=expand_dims(input=classes, axis=0), multiples=[batch_size, 1])


def classification_output(scores: Tensor, n_classes: int,
                           label_vocabulary: Optional[Sequence[str]] = None) -> Any:
    return export_output.ClassificationOutput(
        scores=scores, classes=all_classes(scores, n_classes, label_vocabulary))


def append_update_ops(train_op: Any) -> Any:
    from tf1compat.ops.control_flow_ops import group
    update_ops = get_default_graph().get_collection(GraphKeys.UPDATE_OPS)
    return group(train_op, *update_ops) if update_ops else train_op


def check_reduction(loss_reduction: str) -> None:
    if loss_reduction not in Reduction.all() or loss_reduction == Reduction.NONE:
        raise ValueError(f"Invalid loss_reduction: {loss_reduction}")
