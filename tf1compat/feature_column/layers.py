"""The layers that consume feature columns: `tf.feature_column.input_layer` (dense columns
concatenated), `InputLayer` (the same as a reusable template), `linear_model` (a weighted
sum of all columns plus bias), and `make_parse_example_spec`.

Columns are processed sorted by name, each in its own variable scope named after it
(`input_layer/<column>/...`, `linear_model/<column>/weights`), so variable names and the
creation order of seeded initializers match TF's.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from tf1compat.feature_column.base import (CategoricalColumn, DenseColumn, FeatureColumn,
                                           LazyBuilder, normalize_feature_columns,
                                           verify_static_batch_size_equality)
from tf1compat.framework.graph import GraphKeys, get_default_graph
from tf1compat.variables.variable_scope import get_variable_scope, variable_scope

__all__ = ["input_layer", "InputLayer", "linear_model", "make_parse_example_spec",
           "weighted_sum", "linear_logits"]


def _weight_collections(weight_collections: Any) -> List[str]:
    collections = list(weight_collections or [])
    for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.MODEL_VARIABLES):
        if key not in collections:
            collections.append(key)
    return collections


def _dense_output(column: DenseColumn, builder: LazyBuilder, weight_collections: Any,
                  trainable: bool) -> Any:
    from tf1compat.ops.array_ops import reshape, shape
    tensor = column._get_dense_tensor(builder, weight_collections=weight_collections,
                                      trainable=trainable)
    num_elements = column._variable_shape.num_elements()
    return reshape(tensor, shape=(shape(tensor)[0], num_elements))


def _input_layer_outputs(features: Dict[str, Any], feature_columns: Any,
                         weight_collections: Any, trainable: bool, cols_to_vars: Any,
                         cols_to_output_tensors: Any) -> Any:
    from tf1compat.ops.array_ops import concat
    columns = normalize_feature_columns(feature_columns)
    for column in columns:
        if not isinstance(column, DenseColumn):
            raise ValueError("Items of feature_columns must be a _DenseColumn. You can wrap a "
                             "categorical column with an embedding_column or indicator_column. "
                             f"Given: {column}")
    weight_collections = _weight_collections(weight_collections)
    builder = LazyBuilder(features)
    outputs, ordered = [], []
    for column in sorted(columns, key=lambda x: x.name):
        ordered.append(column)
        with variable_scope(None, default_name=column._var_scope_name):
            output = _dense_output(column, builder, weight_collections, trainable)
            outputs.append(output)
            if cols_to_vars is not None:
                cols_to_vars[column] = get_default_graph().get_collection(
                    GraphKeys.GLOBAL_VARIABLES, scope=get_variable_scope().name)
            if cols_to_output_tensors is not None:
                cols_to_output_tensors[column] = output
    verify_static_batch_size_equality(outputs, ordered)
    return concat(outputs, 1)


def input_layer(features: Dict[str, Any], feature_columns: Any,
                weight_collections: Any = None, trainable: bool = True,
                cols_to_vars: Optional[Dict[Any, Any]] = None,
                cols_to_output_tensors: Optional[Dict[Any, Any]] = None) -> Any:
    """`tf.feature_column.input_layer`: the dense columns' values concatenated into a
    `[batch, sum of widths]` float tensor (in an `input_layer` variable scope)."""
    with variable_scope(None, default_name="input_layer", values=list(features.values())):
        return _input_layer_outputs(features, feature_columns, weight_collections, trainable,
                                    cols_to_vars, cols_to_output_tensors)


class InputLayer:
    """`input_layer` as a template: the variables are created on the first call and
    reused by later calls (TF's feature_column.InputLayer)."""

    def __init__(self, feature_columns: Any, weight_collections: Any = None,
                 trainable: bool = True, cols_to_vars: Any = None,
                 name: str = "feature_column_input_layer", create_scope_now: bool = True):
        from tf1compat.variables.templates import make_template
        self._feature_columns = feature_columns
        self._weight_collections = weight_collections
        self._trainable = trainable
        self._name = name
        self._template = make_template(name, _input_layer_outputs,
                                       create_scope_now_=create_scope_now)

    def __call__(self, features: Dict[str, Any]) -> Any:
        return self._template(features, self._feature_columns, self._weight_collections,
                              self._trainable, None, None)

    @property
    def name(self) -> str:
        return self._name

    @property
    def variables(self) -> List[Any]:
        return self._template.variables

    @property
    def trainable_variables(self) -> List[Any]:
        return self._template.trainable_variables

    @property
    def non_trainable_variables(self) -> List[Any]:
        return self._template.non_trainable_variables

    weights = variables
    trainable_weights = trainable_variables
    non_trainable_weights = non_trainable_variables


def weighted_sum(column: FeatureColumn, builder: LazyBuilder, units: int,
                 sparse_combiner: str, weight_collections: Any, trainable: bool) -> Any:
    """One column's contribution to a linear model (its `weights` created here)."""
    from tf1compat.ops.array_ops import reshape, shape
    from tf1compat.ops.linalg_ops import matmul
    from tf1compat.ops.nn_misc_tail import safe_embedding_lookup_sparse
    from tf1compat.ops.sparse_math import sparse_reshape
    from tf1compat.variables.init_ops import zeros_initializer
    from tf1compat.variables.variable_scope import get_variable
    if isinstance(column, CategoricalColumn):
        pair = column._get_sparse_tensors(builder, weight_collections=weight_collections,
                                          trainable=trainable)
        weight = get_variable(name="weights", shape=(column._num_buckets, units),
                              initializer=zeros_initializer(), trainable=trainable,
                              collections=weight_collections)
        ids = sparse_reshape(pair.id_tensor, [shape(pair.id_tensor)[0], -1])
        weights = pair.weight_tensor
        if weights is not None:
            weights = sparse_reshape(weights, [shape(weights)[0], -1])
        return safe_embedding_lookup_sparse(weight, ids, sparse_weights=weights,
                                            combiner=sparse_combiner, name="weighted_sum")
    tensor = column._get_dense_tensor(builder, weight_collections=weight_collections,
                                      trainable=trainable)
    num_elements = column._variable_shape.num_elements()
    tensor = reshape(tensor, shape=(shape(tensor)[0], num_elements))
    weight = get_variable(name="weights", shape=[num_elements, units],
                          initializer=zeros_initializer(), trainable=trainable,
                          collections=weight_collections)
    return matmul(tensor, weight, name="weighted_sum")


def linear_logits(features: Dict[str, Any], feature_columns: Any, units: int,
                  sparse_combiner: str, weight_collections: Any, trainable: bool,
                  cols_to_vars: Optional[Dict[Any, Any]]) -> Any:
    """The weighted sums of the columns (sorted by name) plus `bias_weights`, built in
    the current variable scope."""
    from tf1compat.ops.math_ops import add_n
    from tf1compat.ops.nn_ops import bias_add
    from tf1compat.variables.init_ops import zeros_initializer
    from tf1compat.variables.variable_scope import get_variable
    columns = normalize_feature_columns(feature_columns)
    for column in columns:
        if not isinstance(column, (DenseColumn, CategoricalColumn)):
            raise ValueError("Items of feature_columns must be either a _DenseColumn or "
                             f"_CategoricalColumn. Given: {column}")
    weight_collections = _weight_collections(weight_collections)
    builder = LazyBuilder(features)
    sums, ordered = [], []
    graph = get_default_graph()
    for column in sorted(columns, key=lambda x: x.name):
        ordered.append(column)
        with variable_scope(None, default_name=column._var_scope_name) as scope:
            sums.append(weighted_sum(column, builder, units, sparse_combiner,
                                     weight_collections, trainable))
            if cols_to_vars is not None:
                cols_to_vars[column] = graph.get_collection(GraphKeys.GLOBAL_VARIABLES,
                                                            scope=scope.name + "/")
    verify_static_batch_size_equality(sums, ordered)
    no_bias = add_n(sums, name="weighted_sum_no_bias")
    bias = get_variable("bias_weights", shape=[units], initializer=zeros_initializer(),
                        trainable=trainable, collections=weight_collections)
    if cols_to_vars is not None:
        cols_to_vars["bias"] = list(bias) if hasattr(bias, "_get_variable_list") else [bias]
    return bias_add(no_bias, bias, name="weighted_sum")


def linear_model(features: Dict[str, Any], feature_columns: Any, units: int = 1,
                 sparse_combiner: str = "sum", weight_collections: Any = None,
                 trainable: bool = True, cols_to_vars: Optional[Dict[Any, Any]] = None) -> Any:
    """`tf.feature_column.linear_model`: `sum_i column_i . weights_i + bias`, shape
    `[batch, units]` (variables `linear_model/<column>/weights`,
    `linear_model/bias_weights`)."""
    with variable_scope(None, default_name="linear_model", values=list(features.values())):
        return linear_logits(features, feature_columns, units, sparse_combiner,
                             weight_collections, trainable, cols_to_vars)


def make_parse_example_spec(feature_columns: Sequence[Any]) -> Dict[str, Any]:
    """`tf.feature_column.make_parse_example_spec`: the parsing spec (for
    `tf.parse_example`) of every column's inputs."""
    result: Dict[str, Any] = {}
    for column in feature_columns:
        if not isinstance(column, FeatureColumn):
            raise ValueError(f"All feature_columns must be _FeatureColumn instances. Given: "
                             f"{column}")
        for key, value in column._parse_example_spec.items():
            if key in result and value != result[key]:
                raise ValueError(f"feature_columns contain different parse_spec for key {key}. "
                                 f"Given {value} and {result[key]}")
        result.update(column._parse_example_spec)
    return result
