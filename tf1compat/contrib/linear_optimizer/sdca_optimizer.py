"""TF 1.15's `tf.contrib.linear_optimizer.SDCAOptimizer`: the optimizer object the
contrib.learn linear estimators (and `SVM`) take; `get_train_step` turns contrib.layers
feature columns into an `SdcaModel` and its train op."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from tf1compat.contrib.linear_optimizer.sdca_model import SdcaModel, SparseFeatureColumn
from tf1compat.framework import dtypes

__all__ = ["SDCAOptimizer"]


def _dense_to_sparse_column(dense: Any) -> SparseFeatureColumn:
    """The nonzero entries of a [batch, n] tensor as a SparseFeatureColumn."""
    from tf1compat.ops.array_ops import reshape, split
    from tf1compat.ops.indexing_ops import gather_nd, where
    from tf1compat.ops.math_ops import cast, not_equal
    indices = where(not_equal(dense, cast(0.0, dense.dtype)))
    values = gather_nd(dense, indices)
    rows, cols = split(value=indices, num_or_size_splits=2, axis=1)
    return SparseFeatureColumn(reshape(rows, [-1]), reshape(cols, [-1]),
                               reshape(cast(values, dtypes.float32), [-1]))


def _sparse_to_column(column: Any, transformed: Any) -> SparseFeatureColumn:
    """A sparse, weighted sparse or crossed column's ids (negative ids dropped, repeated
    ids of an example merged with their weights summed), as TF 1.15 builds them."""
    from tf1compat.contrib.layers import feature_column as fc
    from tf1compat.ops.array_ops import reshape, shape
    from tf1compat.ops.creation_ops import ones
    from tf1compat.ops.indexing_ops import boolean_mask, unique
    from tf1compat.ops.math_ops import greater_equal
    from tf1compat.ops.reduction_ops import (reduce_max, unsorted_segment_min,
                                             unsorted_segment_sum)
    if isinstance(column, fc._WeightedSparseColumn):
        id_tensor = column.id_tensor(transformed)
        weights = reshape(column.weight_tensor(transformed).values, [-1])
    else:
        id_tensor = transformed
        weights = ones([shape(id_tensor.indices)[0]], dtypes.float32)
    example_ids = reshape(id_tensor.indices[:, 0], [-1])
    flat_ids = reshape(id_tensor.values, [-1])
    valid = greater_equal(flat_ids, 0)
    flat_ids = boolean_mask(flat_ids, valid)
    example_ids = boolean_mask(example_ids, valid)
    weights = boolean_mask(weights, valid)
    projection = reduce_max(flat_ids) + 1
    ids, idx = unique(projection * example_ids + flat_ids)
    filtered = unsorted_segment_min(example_ids, idx, shape(ids)[0])
    return SparseFeatureColumn(filtered, ids - projection * filtered,
                               reshape(unsorted_segment_sum(weights, idx, shape(ids)[0]),
                                       [-1]))


class SDCAOptimizer:
    """`tf.contrib.linear_optimizer.SDCAOptimizer(example_id_column, num_loss_partitions=1,
    num_table_shards=None, symmetric_l1_regularization=0.0,
    symmetric_l2_regularization=1.0, adaptive=True, partitioner=None)`."""

    def __init__(self, example_id_column: str, num_loss_partitions: int = 1,
                 num_table_shards: Optional[int] = None,
                 symmetric_l1_regularization: float = 0.0,
                 symmetric_l2_regularization: float = 1.0, adaptive: bool = True,
                 partitioner: Any = None):
        if partitioner is not None:
            raise NotImplementedError("SDCAOptimizer(partitioner=...) (partitioned weights) "
                                      "is not supported by tf1compat")
        self._example_id_column = example_id_column
        self._num_loss_partitions = num_loss_partitions
        self._num_table_shards = num_table_shards
        self._symmetric_l1_regularization = symmetric_l1_regularization
        self._symmetric_l2_regularization = symmetric_l2_regularization
        self._adaptive = adaptive
        self._partitioner = partitioner

    def get_name(self) -> str:
        return "SDCAOptimizer"

    @property
    def example_id_column(self) -> str:
        return self._example_id_column

    @property
    def num_loss_partitions(self) -> int:
        return self._num_loss_partitions

    @property
    def num_table_shards(self) -> Optional[int]:
        return self._num_table_shards

    @property
    def symmetric_l1_regularization(self) -> float:
        return self._symmetric_l1_regularization

    @property
    def symmetric_l2_regularization(self) -> float:
        return self._symmetric_l2_regularization

    @property
    def adaptive(self) -> bool:
        return self._adaptive

    @property
    def partitioner(self) -> Any:
        return self._partitioner

    def _examples_and_variables(self, columns_to_variables: Dict[Any, List[Any]],
                                weight_column_name: Optional[str], features: Dict[Any, Any],
                                targets: Any) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        from tf1compat.contrib.layers import feature_column as fc
        from tf1compat.framework.graph import control_dependencies
        from tf1compat.ops.array_ops import rank, reshape, shape
        from tf1compat.ops.check_ops import Assert
        from tf1compat.ops.creation_ops import ones
        from tf1compat.ops.math_ops import cast, less_equal
        dense, dense_weights, sparse, sparse_weights = [], [], [], []
        for column in sorted(columns_to_variables, key=lambda c: c.key):
            tensor = features[column]
            variables = columns_to_variables[column]
            if isinstance(column, fc._RealValuedColumn):
                check = Assert(less_equal(rank(tensor), 2),
                               ["transformed_tensor should have rank at most 2."])
                with control_dependencies([check]):
                    tensor = reshape(tensor, [shape(tensor)[0], -1])
                dense.append(tensor)
                dense_weights.append(variables[0])
            elif isinstance(column, fc._BucketizedColumn):
                sparse.append(_dense_to_sparse_column(column._to_dnn_input_layer(tensor)))
                sparse_weights.append(variables[0] if len(variables) == 1 else variables)
            elif isinstance(column, (fc._WeightedSparseColumn, fc._CrossedColumn,
                                     fc._SparseColumn)):
                sparse.append(_sparse_to_column(column, tensor))
                sparse_weights.append(variables[0] if len(variables) == 1 else variables)
            else:
                raise ValueError("SDCAOptimizer does not support column type %s." %
                                 type(column).__name__)
        weights = reshape(features[weight_column_name], shape=[-1]) if weight_column_name \
            else ones([targets.get_shape()[0]])
        examples = {"sparse_features": sparse, "dense_features": dense,
                    "example_labels": cast(reshape(targets, shape=[-1]), dtypes.float32),
                    "example_weights": weights,
                    "example_ids": features[self._example_id_column]}
        return examples, {"sparse_features_weights": sparse_weights,
                          "dense_features_weights": dense_weights}

    def get_train_step(self, columns_to_variables: Dict[Any, List[Any]],
                       weight_column_name: Optional[str], loss_type: str,
                       features: Dict[Any, Any], targets: Any,
                       global_step: Any) -> Tuple[SdcaModel, Any]:
        """The (SdcaModel, train op) of one SDCA step on this batch."""
        examples, variables = self._examples_and_variables(
            columns_to_variables, weight_column_name, features, targets)
        model = SdcaModel(examples=examples, variables=variables, options={
            "symmetric_l1_regularization": self._symmetric_l1_regularization,
            "symmetric_l2_regularization": self._symmetric_l2_regularization,
            "adaptive": self._adaptive, "num_loss_partitions": self._num_loss_partitions,
            "num_table_shards": self._num_table_shards, "loss_type": loss_type})
        return model, model.minimize(global_step=global_step)
