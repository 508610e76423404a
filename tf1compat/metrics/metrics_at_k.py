"""`tf.metrics` ranking metrics: precision/recall at k (from scores, or from top-k ids) and
mean average precision at k, as TF builds them from set operations (`tf.sets`) on the
top-k ids and the (dense or sparse) labels, with float64 running totals.

Metric variables are named after TF's name scopes (`precision_at_2/true_positive_at_2`),
and the value and update ops carry TF's names.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import (add_to_collections, control_dependencies,
                                       name_scope)
from tf1compat.framework.sparse_tensor import SparseTensor, SparseTensorValue
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.metrics.metrics_impl import _graph_only, metric_variable
from tf1compat.ops import array_ops, math_ops, state_ops
from tf1compat.ops.cond import cond
from tf1compat.ops.creation_ops import fill, ones_like, zeros_like
from tf1compat.ops.indexing_ops import where
from tf1compat.ops.nn_ops import top_k
from tf1compat.ops.strided_slice import slice as slice_
from tf1compat.ops.reduction_ops import cumsum, reduce_max, reduce_sum
from tf1compat.ops.set_ops import set_difference, set_intersection, set_size
from tf1compat.ops.sparse_math import sparse_concat, sparse_reshape, sparse_retain
from tf1compat.ops.transform_ops import tile
from tf1compat.ops.weights_broadcast_ops import assert_broadcastable, broadcast_weights

__all__ = ["precision_at_k", "precision_at_top_k", "sparse_precision_at_k", "recall_at_k",
           "recall_at_top_k", "average_precision_at_k", "sparse_average_precision_at_k"]

Pair = Tuple[Tensor, Tensor]


def _tensor_or_sparse(value: Any) -> Any:
    if isinstance(value, SparseTensorValue):
        return SparseTensor.from_value(value)
    if isinstance(value, SparseTensor):
        return value
    return convert_to_tensor(value)


def _at_k_name(name: str, k: Optional[int] = None, class_id: Optional[int] = None) -> str:
    name = f"{name}_at_{k}" if k is not None else f"{name}_at_k"
    return name if class_id is None else f"{name}_class{class_id}"


def _maybe_expand_labels(labels: Any, predictions: Tensor) -> Any:
    """Labels with a trailing unit dimension when they have one rank less than the
    predictions (TF's rule, decided at run time where ranks are unknown)."""
    with name_scope(None, "expand_labels", (labels, predictions)) as scope:
        labels = _tensor_or_sparse(labels)
        if isinstance(labels, SparseTensor):
            return _maybe_expand_sparse(labels, predictions, scope)
        labels_rank = labels.get_shape().ndims
        if labels_rank is not None:
            predictions_rank = predictions.get_shape().ndims
            if predictions_rank is not None:
                if predictions_rank == labels_rank:
                    return labels
                if predictions_rank == labels_rank + 1:
                    return array_ops.expand_dims(labels, -1, name=scope)
                raise ValueError(f"Unexpected labels shape {labels.get_shape()} for "
                                 f"predictions shape {predictions.get_shape()}. Predictions "
                                 "rank should be the same rank as labels rank or labels rank "
                                 "plus one .")
        return cond(math_ops.equal(array_ops.rank(predictions), array_ops.rank(labels) + 1),
                    lambda: array_ops.expand_dims(labels, -1, name=scope), lambda: labels)


def _maybe_expand_sparse(labels: SparseTensor, predictions: Tensor, scope: str
                         ) -> SparseTensor:
    def expanded() -> SparseTensor:
        return sparse_reshape(labels, array_ops.concat((labels.dense_shape, (1,)), 0),
                              name=scope)
    labels_rank = labels.dense_shape.get_shape().as_list()[0] \
        if labels.dense_shape.get_shape().rank == 1 else None
    predictions_rank = predictions.get_shape().ndims
    if labels_rank is not None and predictions_rank is not None:
        return expanded() if predictions_rank == labels_rank + 1 else labels
    # Decided at run time: the two SparseTensors chosen component by component.
    needed = math_ops.equal(array_ops.rank(predictions),
                            array_ops.size(labels.dense_shape) + 1)
    grown = expanded()
    return SparseTensor(*(cond(needed, lambda a=a: a, lambda b=b: b)
                          for a, b in zip((grown.indices, grown.values, grown.dense_shape),
                                          (labels.indices, labels.values,
                                           labels.dense_shape))))


def _select_class_id(ids: Any, selected_id: int) -> SparseTensor:
    """Only the entries of `ids` equal to `selected_id`, as a SparseTensor."""
    ids = _tensor_or_sparse(ids)
    if isinstance(ids, SparseTensor):
        return sparse_retain(ids, math_ops.equal(ids.values, selected_id))
    ids_shape = array_ops.shape(ids, out_type=D.int64)
    filled = fill(array_ops.concat([ids_shape[:-1], [1]], 0),
                  math_ops.cast(selected_id, D.int64))
    result = set_intersection(filled, ids)
    return SparseTensor(indices=result.indices, values=result.values, dense_shape=ids_shape)


def _maybe_select_class_id(labels: Any, predictions_idx: Any,
                           selected_id: Optional[int] = None) -> Tuple[Any, Any]:
    if selected_id is None:
        return labels, predictions_idx
    return (_select_class_id(labels, selected_id),
            _select_class_id(predictions_idx, selected_id))


def _weighted(counts: Tensor, weights: Any) -> Tensor:
    counts = math_ops.cast(counts, D.float64)
    if weights is None:
        return counts
    with control_dependencies((assert_broadcastable(weights, counts),)):
        return math_ops.multiply(counts, math_ops.cast(weights, D.float64))


def _true_positives(labels: Any, predictions_idx: Any, class_id: Optional[int] = None,
                    weights: Any = None, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "true_positives", (predictions_idx, labels, weights)):
        labels, predictions_idx = _maybe_select_class_id(labels, predictions_idx, class_id)
        return _weighted(set_size(set_intersection(predictions_idx, labels)), weights)


def _false_negatives(labels: Any, predictions_idx: Any, class_id: Optional[int] = None,
                     weights: Any = None) -> Tensor:
    with name_scope(None, "false_negatives", (predictions_idx, labels, weights)):
        labels, predictions_idx = _maybe_select_class_id(labels, predictions_idx, class_id)
        return _weighted(set_size(set_difference(predictions_idx, labels, aminusb=False)),
                         weights)


def _false_positives(labels: Any, predictions_idx: Any, class_id: Optional[int] = None,
                     weights: Any = None) -> Tensor:
    with name_scope(None, "false_positives", (predictions_idx, labels, weights)):
        labels, predictions_idx = _maybe_select_class_id(labels, predictions_idx, class_id)
        return _weighted(set_size(set_difference(predictions_idx, labels, aminusb=True)),
                         weights)


def _streaming_count(kind: str, count_fn: Any, labels: Any, predictions_idx: Tensor,
                     k: Optional[int], class_id: Optional[int], weights: Any) -> Pair:
    """A float64 running total of `count_fn` per batch (TF's _streaming_sparse_*_at_k)."""
    with name_scope(None, _at_k_name(kind, k, class_id=class_id),
                    (predictions_idx, labels, weights)) as scope:
        counts = count_fn(predictions_idx=predictions_idx, labels=labels, class_id=class_id,
                          weights=weights)
        batch_total = math_ops.cast(reduce_sum(counts), D.float64)
        var = metric_variable([], D.float64, name=scope)
        return var, state_ops.assign_add(var, batch_total, name="update")


def _ratio_at_top_k(metric: str, other_kind: str, other_fn: Any, labels: Any,
                    predictions_idx: Any, k: Optional[int], class_id: Optional[int],
                    weights: Any, metrics_collections: Any, updates_collections: Any,
                    name: Optional[str]) -> Pair:
    """tp / (tp + other) from the top-k ids: precision (other = fp) or recall (fn)."""
    with name_scope(name, _at_k_name(metric, k, class_id=class_id),
                    (predictions_idx, labels, weights)) as scope:
        predictions_idx = convert_to_tensor(predictions_idx)
        labels = _maybe_expand_labels(labels, predictions_idx)
        top_k_idx = math_ops.cast(predictions_idx, D.int64)
        tp, tp_update = _streaming_count("true_positive", _true_positives, labels, top_k_idx,
                                         k, class_id, weights)
        other, other_update = _streaming_count(other_kind, other_fn, labels, top_k_idx, k,
                                               class_id, weights)
        metric_value = math_ops.divide(tp, math_ops.add(tp, other), name=scope)
        if metrics_collections:
            add_to_collections(metrics_collections, metric_value)
        update = math_ops.divide(tp_update, math_ops.add(tp_update, other_update),
                                 name="update")
        if updates_collections:
            add_to_collections(updates_collections, update)
        return metric_value, update


def precision_at_top_k(labels: Any, predictions_idx: Any, k: Optional[int] = None,
                       class_id: Optional[int] = None, weights: Any = None,
                       metrics_collections: Any = None, updates_collections: Any = None,
                       name: Optional[str] = None) -> Pair:
    """`tf.metrics.precision_at_top_k`: the share of the top-k ids that are labels."""
    _graph_only("precision_at_top_k")
    return _ratio_at_top_k("precision", "false_positive", _false_positives, labels,
                           predictions_idx, k, class_id, weights, metrics_collections,
                           updates_collections, name)


def recall_at_top_k(labels: Any, predictions_idx: Any, k: Optional[int] = None,
                    class_id: Optional[int] = None, weights: Any = None,
                    metrics_collections: Any = None, updates_collections: Any = None,
                    name: Optional[str] = None) -> Pair:
    """`tf.metrics.recall_at_top_k`: the share of the labels found among the top-k ids."""
    return _ratio_at_top_k("recall", "false_negative", _false_negatives, labels,
                           predictions_idx, k, class_id, weights, metrics_collections,
                           updates_collections, name)


def _from_scores(metric: str, eager_name: str, at_top_k: Any, labels: Any, predictions: Any,
                 k: int, class_id: Optional[int], weights: Any, metrics_collections: Any,
                 updates_collections: Any, name: Optional[str]) -> Pair:
    """The *_at_top_k metric of the k highest-scoring classes."""
    _graph_only(eager_name)
    with name_scope(name, _at_k_name(metric, k, class_id=class_id),
                    (predictions, labels, weights)) as scope:
        _, top_k_idx = top_k(predictions, k)
        return at_top_k(labels=labels, predictions_idx=top_k_idx, k=k, class_id=class_id,
                        weights=weights, metrics_collections=metrics_collections,
                        updates_collections=updates_collections, name=scope)


def precision_at_k(labels: Any, predictions: Any, k: int, class_id: Optional[int] = None,
                   weights: Any = None, metrics_collections: Any = None,
                   updates_collections: Any = None, name: Optional[str] = None) -> Pair:
    """`tf.metrics.precision_at_k`: precision of the k highest-scoring classes."""
    return _from_scores("precision", "sparse_precision_at_k", precision_at_top_k, labels,
                        predictions, k, class_id, weights, metrics_collections,
                        updates_collections, name)


def sparse_precision_at_k(labels: Any, predictions: Any, k: int,
                          class_id: Optional[int] = None, weights: Any = None,
                          metrics_collections: Any = None, updates_collections: Any = None,
                          name: Optional[str] = None) -> Pair:
    """`tf.metrics.sparse_precision_at_k` (deprecated): precision_at_k."""
    return precision_at_k(labels=labels, predictions=predictions, k=k, class_id=class_id,
                          weights=weights, metrics_collections=metrics_collections,
                          updates_collections=updates_collections, name=name)


def recall_at_k(labels: Any, predictions: Any, k: int, class_id: Optional[int] = None,
                weights: Any = None, metrics_collections: Any = None,
                updates_collections: Any = None, name: Optional[str] = None) -> Pair:
    """`tf.metrics.recall_at_k`: recall of the k highest-scoring classes."""
    return _from_scores("recall", "recall_at_k", recall_at_top_k, labels, predictions, k,
                        class_id, weights, metrics_collections, updates_collections, name)


# -- average precision -------------------------------------------------------------------------

def _expand_and_tile(tensor: Any, multiple: int, dim: int = 0,
                     name: Optional[str] = None) -> Any:
    """`tensor` with a new dimension `dim` repeated `multiple` times."""
    if multiple < 1:
        raise ValueError(f"Invalid argument multiple={multiple} for expand_and_tile  call. "
                         "`multiple` must be an integer > 0")
    with name_scope(name, "expand_and_tile", (tensor, multiple, dim)) as scope:
        tensor = _tensor_or_sparse(tensor)
        if isinstance(tensor, SparseTensor):
            if dim < 0:
                at = array_ops.reshape(array_ops.size(tensor.dense_shape) + dim, [1])
            else:
                at = [dim]
            expanded_shape = array_ops.concat(
                (slice_(tensor.dense_shape, [0], at), [1],
                 slice_(tensor.dense_shape, at, [-1])), 0, name="expanded_shape")
            expanded = sparse_reshape(tensor, expanded_shape, name="expand")
            if multiple == 1:
                return expanded
            return sparse_concat(dim - 1 if dim < 0 else dim, [expanded] * multiple,
                                 name=scope)
        expanded = array_ops.expand_dims(tensor, dim if dim >= 0 else dim - 1, name="expand")
        if multiple == 1:
            return expanded
        ones = ones_like(array_ops.shape(tensor))
        multiples = array_ops.concat((ones[:dim], (multiple,), ones[dim:]), 0,
                                     name="multiples")
        return tile(expanded, multiples, name=scope)


def _num_relevant(labels: Any, k: int) -> Tensor:
    """Per row, min(number of labels, k)."""
    if k < 1:
        raise ValueError(f"Invalid k={k}")
    with name_scope(None, "num_relevant", (labels,)) as scope:
        labels = _tensor_or_sparse(labels)
        if isinstance(labels, SparseTensor):
            return math_ops.minimum(set_size(labels), k, name=scope)
        num_labels = reduce_sum(where(math_ops.greater_equal(labels, 0), ones_like(labels),
                                      zeros_like(labels)), axis=-1)
        return math_ops.minimum(num_labels, k, name=scope)


def _average_precision_at_top_k(labels: Any, predictions_idx: Tensor) -> Tensor:
    """Per row, the mean over relevant ranks of the precision at that rank."""
    with name_scope(None, "average_precision", (predictions_idx, labels)) as scope:
        predictions_idx = math_ops.cast(predictions_idx, D.int64, name="predictions_idx")
        if predictions_idx.get_shape().ndims == 0:
            raise ValueError("The rank of `predictions_idx` must be at least 1.")
        k = predictions_idx.get_shape().as_list()[-1]
        if k is None:
            raise ValueError("The last dimension of predictions_idx must be set. Currently, "
                             "it is None.")
        labels = _maybe_expand_labels(labels, predictions_idx)
        predictions_idx_per_k = array_ops.expand_dims(predictions_idx, -1,
                                                      name="predictions_idx_per_k")
        labels_per_k = _expand_and_tile(labels, multiple=k, dim=-1, name="labels_per_k")
        relevant_per_k = _true_positives(labels_per_k, predictions_idx_per_k,
                                         name="relevant_per_k")
        tp_per_k = cumsum(relevant_per_k, axis=-1, name="tp_per_k")
        retrieved_per_k = cumsum(ones_like(relevant_per_k), axis=-1, name="retrieved_per_k")
        precision_per_k = math_ops.divide(math_ops.cast(tp_per_k, D.float64),
                                          math_ops.cast(retrieved_per_k, D.float64),
                                          name="precision_per_k")
        relevant_precision_per_k = math_ops.multiply(
            precision_per_k, math_ops.cast(relevant_per_k, D.float64),
            name="relevant_precision_per_k")
        precision_sum = reduce_sum(relevant_precision_per_k, axis=(-1,), name="precision_sum")
        num_relevant_items = math_ops.cast(_num_relevant(labels, k), D.float64)
        return math_ops.divide(precision_sum, num_relevant_items, name=scope)


def _streaming_average_precision(labels: Any, predictions_idx: Tensor, weights: Any,
                                 metrics_collections: Any, updates_collections: Any,
                                 name: Optional[str]) -> Pair:
    with name_scope(name, "average_precision_at_top_k",
                    (predictions_idx, labels, weights)) as scope:
        average_precision = _average_precision_at_top_k(predictions_idx=predictions_idx,
                                                        labels=labels)
        if weights is not None:
            weights = broadcast_weights(math_ops.cast(weights, D.float64), average_precision)
            average_precision = math_ops.multiply(average_precision, weights)
        with name_scope(None, "max", (average_precision,)) as max_scope:
            max_var = metric_variable([], D.float64, name=max_scope)
            if weights is None:
                batch_max = math_ops.cast(array_ops.size(average_precision, name="batch_max"),
                                          D.float64)
            else:
                batch_max = reduce_sum(weights, name="batch_max")
            max_update = state_ops.assign_add(max_var, batch_max, name="update")
        with name_scope(None, "total", (average_precision,)) as total_scope:
            total_var = metric_variable([], D.float64, name=total_scope)
            batch_total = reduce_sum(average_precision, name="batch_total")
            total_update = state_ops.assign_add(total_var, batch_total, name="update")
        mean_average_precision = math_ops.div_no_nan(total_var, max_var, name="mean")
        if metrics_collections:
            add_to_collections(metrics_collections, mean_average_precision)
        update = math_ops.div_no_nan(total_update, max_update, name=scope)
        if updates_collections:
            add_to_collections(updates_collections, update)
        return mean_average_precision, update


def _clean_out_of_range_indices(labels: Any, num_classes: Tensor) -> Any:
    """Labels >= num_classes replaced by -1 (they can never be retrieved)."""
    is_sparse = isinstance(labels, (SparseTensor, SparseTensorValue))

    def clean(values: Tensor) -> Tensor:
        return where(math_ops.greater_equal(values, num_classes), -1 * ones_like(values),
                     values)

    values = labels.values if is_sparse else labels
    out_of_range = math_ops.greater_equal(reduce_max(values), num_classes)
    kept = cond(out_of_range, lambda: clean(values), lambda: values)
    if is_sparse:
        return SparseTensor(indices=labels.indices, values=kept,
                            dense_shape=labels.dense_shape)
    return kept


def average_precision_at_k(labels: Any, predictions: Any, k: int, weights: Any = None,
                           metrics_collections: Any = None, updates_collections: Any = None,
                           name: Optional[str] = None) -> Pair:
    """`tf.metrics.average_precision_at_k`: mean average precision of the top-k classes."""
    _graph_only("sparse_average_precision_at_k")
    if k < 1:
        raise ValueError(f"Invalid k={k}. `k` should be >= 1.")
    with name_scope(name, _at_k_name("average_precision", k),
                    (predictions, labels, weights)) as scope:
        predictions = convert_to_tensor(predictions)
        _, predictions_idx = top_k(predictions, k)
        labels = _clean_out_of_range_indices(
            _tensor_or_sparse(labels),
            math_ops.cast(array_ops.shape(predictions)[-1], D.int64))
        return _streaming_average_precision(labels, predictions_idx, weights,
                                            metrics_collections, updates_collections, scope)


def sparse_average_precision_at_k(labels: Any, predictions: Any, k: int, weights: Any = None,
                                  metrics_collections: Any = None,
                                  updates_collections: Any = None,
                                  name: Optional[str] = None) -> Pair:
    """`tf.metrics.sparse_average_precision_at_k` (deprecated): average_precision_at_k."""
    return average_precision_at_k(labels=labels, predictions=predictions, k=k,
                                  weights=weights, metrics_collections=metrics_collections,
                                  updates_collections=updates_collections, name=name)
