"""`tf.contrib.metrics.streaming_*` that are `tf.metrics` under another name.

TF 1.15 defines them as thin calls into `tf.metrics`; most take `predictions` BEFORE
`labels` (the core functions take labels first), which is why each wrapper exists. The
variables, collections and op names are the core metric's.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Tuple

from tf1compat import metrics as core
from tf1compat.framework.tensor import Tensor
from tf1compat.metrics.metrics_at_k import _at_k_name

__all__ = ["streaming_true_positives", "streaming_true_negatives",
           "streaming_false_positives", "streaming_false_negatives", "streaming_mean",
           "streaming_mean_tensor", "streaming_accuracy", "streaming_precision",
           "streaming_recall", "streaming_mean_absolute_error",
           "streaming_mean_squared_error", "streaming_root_mean_squared_error",
           "streaming_mean_relative_error", "streaming_percentage_less",
           "streaming_mean_iou", "streaming_mean_cosine_distance", "streaming_auc",
           "streaming_specificity_at_sensitivity", "streaming_sensitivity_at_specificity",
           "streaming_precision_at_thresholds", "streaming_recall_at_thresholds",
           "streaming_true_positives_at_thresholds", "streaming_false_positives_at_thresholds",
           "streaming_true_negatives_at_thresholds", "streaming_false_negatives_at_thresholds",
           "streaming_recall_at_k", "streaming_sparse_recall_at_k",
           "streaming_sparse_precision_at_k", "streaming_sparse_precision_at_top_k",
           "sparse_recall_at_top_k", "streaming_sparse_average_precision_at_k",
           "streaming_sparse_average_precision_at_top_k"]

Pair = Tuple[Tensor, Tensor]


def _predictions_first(core_fn: Callable[..., Pair], name: str) -> Callable[..., Pair]:
    """`name(predictions, labels, weights, metrics_collections, updates_collections,
    name)` calling `core_fn` with keywords."""
    def wrapper(predictions: Any, labels: Any, weights: Any = None,
                metrics_collections: Any = None, updates_collections: Any = None,
                name: Optional[str] = None) -> Pair:
        return core_fn(labels=labels, predictions=predictions, weights=weights,
                       metrics_collections=metrics_collections,
                       updates_collections=updates_collections, name=name)
    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__doc__ = (f"`tf.contrib.metrics.{name}(predictions, labels, ...)`: "
                       f"`tf.metrics.{core_fn.__name__}` with predictions first.")
    return wrapper


streaming_true_positives = _predictions_first(core.true_positives, "streaming_true_positives")
streaming_true_negatives = _predictions_first(core.true_negatives, "streaming_true_negatives")
streaming_false_positives = _predictions_first(core.false_positives,
                                               "streaming_false_positives")
streaming_false_negatives = _predictions_first(core.false_negatives,
                                               "streaming_false_negatives")
streaming_accuracy = _predictions_first(core.accuracy, "streaming_accuracy")
streaming_precision = _predictions_first(core.precision, "streaming_precision")
streaming_recall = _predictions_first(core.recall, "streaming_recall")
streaming_mean_absolute_error = _predictions_first(core.mean_absolute_error,
                                                   "streaming_mean_absolute_error")
streaming_mean_squared_error = _predictions_first(core.mean_squared_error,
                                                  "streaming_mean_squared_error")
streaming_root_mean_squared_error = _predictions_first(core.root_mean_squared_error,
                                                       "streaming_root_mean_squared_error")


def streaming_mean(values: Any, weights: Any = None, metrics_collections: Any = None,
                   updates_collections: Any = None, name: Optional[str] = None) -> Pair:
    """`tf.metrics.mean`."""
    return core.mean(values, weights, metrics_collections, updates_collections, name)


def streaming_mean_tensor(values: Any, weights: Any = None, metrics_collections: Any = None,
                          updates_collections: Any = None, name: Optional[str] = None
                          ) -> Pair:
    """`tf.metrics.mean_tensor`."""
    return core.mean_tensor(values, weights, metrics_collections, updates_collections, name)


def streaming_mean_relative_error(predictions: Any, labels: Any, normalizer: Any,
                                  weights: Any = None, metrics_collections: Any = None,
                                  updates_collections: Any = None,
                                  name: Optional[str] = None) -> Pair:
    """`tf.metrics.mean_relative_error` with predictions first."""
    return core.mean_relative_error(labels=labels, predictions=predictions,
                                    normalizer=normalizer, weights=weights,
                                    metrics_collections=metrics_collections,
                                    updates_collections=updates_collections, name=name)


def streaming_percentage_less(values: Any, threshold: Any, weights: Any = None,
                              metrics_collections: Any = None,
                              updates_collections: Any = None,
                              name: Optional[str] = None) -> Pair:
    """`tf.metrics.percentage_below`."""
    return core.percentage_below(values=values, threshold=threshold, weights=weights,
                                 metrics_collections=metrics_collections,
                                 updates_collections=updates_collections, name=name)


def streaming_mean_iou(predictions: Any, labels: Any, num_classes: int, weights: Any = None,
                       metrics_collections: Any = None, updates_collections: Any = None,
                       name: Optional[str] = None) -> Pair:
    """`tf.metrics.mean_iou` with predictions first."""
    return core.mean_iou(labels=labels, predictions=predictions, num_classes=num_classes,
                         weights=weights, metrics_collections=metrics_collections,
                         updates_collections=updates_collections, name=name)


def streaming_mean_cosine_distance(predictions: Any, labels: Any, dim: int,
                                   weights: Any = None, metrics_collections: Any = None,
                                   updates_collections: Any = None,
                                   name: Optional[str] = None) -> Pair:
    """`tf.metrics.mean_cosine_distance` with predictions first."""
    return core.mean_cosine_distance(labels=labels, predictions=predictions, dim=dim,
                                     weights=weights, metrics_collections=metrics_collections,
                                     updates_collections=updates_collections, name=name)


def streaming_auc(predictions: Any, labels: Any, weights: Any = None,
                  num_thresholds: int = 200, metrics_collections: Any = None,
                  updates_collections: Any = None, curve: str = "ROC",
                  name: Optional[str] = None) -> Pair:
    """`tf.metrics.auc` (Riemann sum over `num_thresholds` thresholds) with predictions
    first."""
    return core.auc(labels=labels, predictions=predictions, weights=weights,
                    num_thresholds=num_thresholds, metrics_collections=metrics_collections,
                    updates_collections=updates_collections, curve=curve, name=name)


def streaming_specificity_at_sensitivity(predictions: Any, labels: Any, sensitivity: float,
                                         weights: Any = None, num_thresholds: int = 200,
                                         metrics_collections: Any = None,
                                         updates_collections: Any = None,
                                         name: Optional[str] = None) -> Pair:
    """`tf.metrics.specificity_at_sensitivity` with predictions first."""
    return core.specificity_at_sensitivity(
        labels=labels, predictions=predictions, sensitivity=sensitivity, weights=weights,
        num_thresholds=num_thresholds, metrics_collections=metrics_collections,
        updates_collections=updates_collections, name=name)


def streaming_sensitivity_at_specificity(predictions: Any, labels: Any, specificity: float,
                                         weights: Any = None, num_thresholds: int = 200,
                                         metrics_collections: Any = None,
                                         updates_collections: Any = None,
                                         name: Optional[str] = None) -> Pair:
    """`tf.metrics.sensitivity_at_specificity` with predictions first."""
    return core.sensitivity_at_specificity(
        labels=labels, predictions=predictions, specificity=specificity, weights=weights,
        num_thresholds=num_thresholds, metrics_collections=metrics_collections,
        updates_collections=updates_collections, name=name)


def _at_thresholds(core_fn: Callable[..., Pair], name: str) -> Callable[..., Pair]:
    def wrapper(predictions: Any, labels: Any, thresholds: Sequence[float],
                weights: Any = None, metrics_collections: Any = None,
                updates_collections: Any = None, name: Optional[str] = None) -> Pair:
        return core_fn(labels=labels, predictions=predictions, thresholds=thresholds,
                       weights=weights, metrics_collections=metrics_collections,
                       updates_collections=updates_collections, name=name)
    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__doc__ = (f"`tf.contrib.metrics.{name}(predictions, labels, thresholds, ...)`: "
                       f"`tf.metrics.{core_fn.__name__}` with predictions first.")
    return wrapper


streaming_precision_at_thresholds = _at_thresholds(core.precision_at_thresholds,
                                                   "streaming_precision_at_thresholds")
streaming_recall_at_thresholds = _at_thresholds(core.recall_at_thresholds,
                                                "streaming_recall_at_thresholds")


def _counts_at_thresholds(core_fn: Callable[..., Pair], name: str) -> Callable[..., Pair]:
    # TF 1.15's streaming_*_at_thresholds take no collections and no name.
    def wrapper(predictions: Any, labels: Any, thresholds: Sequence[float],
                weights: Any = None) -> Pair:
        return core_fn(labels=labels, predictions=predictions, thresholds=thresholds,
                       weights=weights)
    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__doc__ = (f"`tf.contrib.metrics.{name}(predictions, labels, thresholds, "
                       f"weights=None)`: `tf.metrics.{core_fn.__name__}`.")
    return wrapper


streaming_true_positives_at_thresholds = _counts_at_thresholds(
    core.true_positives_at_thresholds, "streaming_true_positives_at_thresholds")
streaming_false_positives_at_thresholds = _counts_at_thresholds(
    core.false_positives_at_thresholds, "streaming_false_positives_at_thresholds")
streaming_true_negatives_at_thresholds = _counts_at_thresholds(
    core.true_negatives_at_thresholds, "streaming_true_negatives_at_thresholds")
streaming_false_negatives_at_thresholds = _counts_at_thresholds(
    core.false_negatives_at_thresholds, "streaming_false_negatives_at_thresholds")


# -- @k metrics ------------------------------------------------------------------------------

def streaming_recall_at_k(predictions: Any, labels: Any, k: int, weights: Any = None,
                          metrics_collections: Any = None, updates_collections: Any = None,
                          name: Optional[str] = None) -> Pair:
    """Deprecated in TF 1.x: the (weighted) share of rows whose dense label is among the
    top `k` predictions (`tf.nn.in_top_k`), as a streaming mean named `recall_at_<k>`."""
    from tf1compat.framework import dtypes
    from tf1compat.ops.math_ops import cast
    from tf1compat.ops.nn_ops import in_top_k
    hits = cast(in_top_k(predictions, labels, k), dtypes.float32)
    return core.mean(hits, weights, metrics_collections, updates_collections,
                     name or _at_k_name("recall", k))


def streaming_sparse_recall_at_k(predictions: Any, labels: Any, k: int,
                                 class_id: Optional[int] = None, weights: Any = None,
                                 metrics_collections: Any = None,
                                 updates_collections: Any = None,
                                 name: Optional[str] = None) -> Pair:
    """`tf.metrics.recall_at_k` with predictions first."""
    return core.recall_at_k(labels=labels, predictions=predictions, k=k, class_id=class_id,
                            weights=weights, metrics_collections=metrics_collections,
                            updates_collections=updates_collections, name=name)


def streaming_sparse_precision_at_k(predictions: Any, labels: Any, k: int,
                                    class_id: Optional[int] = None, weights: Any = None,
                                    metrics_collections: Any = None,
                                    updates_collections: Any = None,
                                    name: Optional[str] = None) -> Pair:
    """`tf.metrics.sparse_precision_at_k` with predictions first."""
    return core.sparse_precision_at_k(labels=labels, predictions=predictions, k=k,
                                      class_id=class_id, weights=weights,
                                      metrics_collections=metrics_collections,
                                      updates_collections=updates_collections, name=name)


def streaming_sparse_precision_at_top_k(top_k_predictions: Any, labels: Any,
                                        class_id: Optional[int] = None, weights: Any = None,
                                        metrics_collections: Any = None,
                                        updates_collections: Any = None,
                                        name: Optional[str] = None) -> Pair:
    """`tf.metrics.precision_at_top_k` over given top-k class ids."""
    return core.precision_at_top_k(labels=labels, predictions_idx=top_k_predictions,
                                   class_id=class_id, weights=weights,
                                   metrics_collections=metrics_collections,
                                   updates_collections=updates_collections, name=name)


def sparse_recall_at_top_k(labels: Any, top_k_predictions: Any, class_id: Optional[int] = None,
                           weights: Any = None, metrics_collections: Any = None,
                           updates_collections: Any = None,
                           name: Optional[str] = None) -> Pair:
    """`tf.metrics.recall_at_top_k` over given top-k class ids."""
    return core.recall_at_top_k(labels=labels, predictions_idx=top_k_predictions,
                                class_id=class_id, weights=weights,
                                metrics_collections=metrics_collections,
                                updates_collections=updates_collections, name=name)


def streaming_sparse_average_precision_at_k(predictions: Any, labels: Any, k: int,
                                            weights: Any = None,
                                            metrics_collections: Any = None,
                                            updates_collections: Any = None,
                                            name: Optional[str] = None) -> Pair:
    """`tf.metrics.sparse_average_precision_at_k` with predictions first."""
    return core.sparse_average_precision_at_k(labels=labels, predictions=predictions, k=k,
                                              weights=weights,
                                              metrics_collections=metrics_collections,
                                              updates_collections=updates_collections,
                                              name=name)


def streaming_sparse_average_precision_at_top_k(top_k_predictions: Any, labels: Any,
                                                weights: Any = None,
                                                metrics_collections: Any = None,
                                                updates_collections: Any = None,
                                                name: Optional[str] = None) -> Pair:
    """Mean average precision of given top-k class ids (`average_precision_at_top_k`
    scope, `max` / `total` float64 local variables)."""
    from tf1compat.metrics.metrics_at_k import _streaming_average_precision
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    from tf1compat.metrics.metrics_at_k import _tensor_or_sparse
    return _streaming_average_precision(_tensor_or_sparse(labels),
                                        convert_to_tensor(top_k_predictions), weights,
                                        metrics_collections, updates_collections, name)
