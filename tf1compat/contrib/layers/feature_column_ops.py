"""The layers over `tf.contrib.layers` feature columns (TF 1.15's contrib/layers/python/
layers/feature_column_ops.py): `input_from_feature_columns` (a DNN's input),
`weighted_sum_from_feature_columns` (a linear model), `parse_feature_columns_from_examples`,
`transform_features`, `infer_real_valued_columns`, `check_feature_columns`.

Columns are processed sorted by their `key` (TF's repr of the column), each in a variable
scope named after it: `input_from_feature_columns/<column>/weights` for an embedding,
`weighted_sum_from_feature_columns/<column>/weights` (sparse) or `.../weight` (dense) and
`.../bias_weight` for a linear model - contrib's names, not core's `embedding_weights` /
`bias_weights`.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from tf1compat.contrib.layers.feature_column import ContribColumn, real_valued_column
from tf1compat.feature_column.base import LazyBuilder
from tf1compat.framework.graph import GraphKeys, get_default_graph
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.util import tf_logging

__all__ = ["input_from_feature_columns", "weighted_sum_from_feature_columns",
           "parse_feature_columns_from_examples", "transform_features",
           "infer_real_valued_columns", "check_feature_columns", "embeddings_from_arguments"]


def _with_global(weight_collections: Any) -> Any:
    """TF adds GLOBAL_VARIABLES to caller-given collections (model_variable adds the rest)."""
    if not weight_collections:
        return weight_collections
    return list(set(list(weight_collections) + [GraphKeys.GLOBAL_VARIABLES]))


def _variable_list(variable: Any) -> List[Any]:
    return list(variable._get_variable_list()) if hasattr(variable, "_get_variable_list") \
        else [variable]


def _maybe_restore(column: Any, variables: List[Any]) -> None:
    from tf1compat.training.saving.checkpoint_utils import init_from_checkpoint
    path = column._checkpoint_path()
    if path is not None:
        checkpoint, tensor_name = path
        init_from_checkpoint(checkpoint, {tensor_name: variables[0] if len(variables) == 1
                                          else variables})


def embeddings_from_arguments(column: Any, args: Any, weight_collections: Any,
                              trainable: Any) -> Any:
    """An embedding column's lookup: its table (`weights`, or the shared table named
    `shared_embedding_name` kept in `SHARED_EMBEDDING_COLLECTION_<NAME>`) and
    `safe_embedding_lookup_sparse` named `<column>weights` (TF's missing underscore)."""
    from tf1compat.contrib.framework.variables import model_variable
    from tf1compat.contrib.layers.embedding_ops import safe_embedding_lookup_sparse
    from tf1compat.framework import dtypes
    trainable = bool(trainable is None or trainable) and args.trainable
    shape = [args.vocab_size, args.dimension]
    if args.shared_embedding_name is not None:
        collection_name = "SHARED_EMBEDDING_COLLECTION_" + args.shared_embedding_name.upper()
        shared = get_default_graph().get_collection_ref(collection_name)
        if shared:
            if len(shared) > 1:
                raise ValueError(f"Collection {collection_name} can only contain one "
                                 "(partitioned) variable.")
            embeddings = shared[0]
            if embeddings.get_shape() != shape:
                raise ValueError(
                    f"The embedding variable with name {args.shared_embedding_name} already "
                    "exists, but its shape does not match required embedding shape here. "
                    "Please make sure to use different shared_embedding_name for different "
                    "shared embeddings.")
        else:
            embeddings = model_variable(name=args.shared_embedding_name, shape=shape,
                                        dtype=dtypes.float32, initializer=args.initializer,
                                        trainable=trainable, collections=weight_collections)
            get_default_graph().add_to_collection(collection_name, embeddings)
    else:
        embeddings = model_variable(name="weights", shape=shape, dtype=dtypes.float32,
                                    initializer=args.initializer, trainable=trainable,
                                    collections=weight_collections)
    variables = _variable_list(embeddings)
    _maybe_restore(column, variables)
    return safe_embedding_lookup_sparse(variables, args.input_tensor,
                                        sparse_weights=args.weight_tensor,
                                        combiner=args.combiner, name=column.name + "weights",
                                        max_norm=args.max_norm)


def check_feature_columns(feature_columns: Any) -> None:
    """TF's check: an iterable (not a dict) of columns with distinct keys."""
    if isinstance(feature_columns, dict):
        raise ValueError("Expected feature_columns to be iterable, found dict.")
    seen = set()
    for column in feature_columns:
        if column.key in seen:
            raise ValueError(f"Duplicate feature column key found for column: {column.name}. "
                             "This usually means that the column is almost identical to "
                             "another column, and one must be discarded.")
        seen.add(column.key)


def _builder(columns_to_tensors: Dict[Any, Any]) -> LazyBuilder:
    """A LazyBuilder over the raw features that also knows already-transformed columns."""
    raw = {k: v for k, v in columns_to_tensors.items() if isinstance(k, str)}
    builder = LazyBuilder(raw)
    for key, value in columns_to_tensors.items():
        if not isinstance(key, str):
            builder._feature_tensors[key] = value
    return builder


def _sorted_columns(feature_columns: Any) -> List[Any]:
    columns = list(feature_columns)
    for column in columns:
        if not isinstance(column, ContribColumn):
            raise TypeError("feature_columns should only contain instances of _FeatureColumn "
                            f"of tf.contrib.layers. Given column is {column}")
    check_feature_columns(columns)
    return sorted(set(columns), key=lambda c: c.key)


def input_from_feature_columns(columns_to_tensors: Dict[Any, Any], feature_columns: Any,
                               weight_collections: Any = None, trainable: bool = True,
                               scope: Any = None,
                               cols_to_outs: Optional[Dict[Any, Any]] = None) -> Any:
    """`tf.contrib.layers.input_from_feature_columns`: the columns' DNN inputs (embeddings,
    one-hot vectors, real values) concatenated into [batch, width], in a variable scope
    `input_from_feature_columns` (or `scope`)."""
    from tf1compat.ops.array_ops import concat
    from tf1compat.variables.variable_scope import variable_scope
    if cols_to_outs is not None and not isinstance(cols_to_outs, dict):
        raise ValueError("cols_to_outs must be a dict unless None")
    columns = _sorted_columns(feature_columns)
    values = list(columns_to_tensors.values())
    with variable_scope(scope, default_name="input_from_feature_columns", values=values):
        builder = _builder(columns_to_tensors)
        collections = _with_global(weight_collections)
        outputs = []
        for column in columns:
            with variable_scope(None, default_name=column.name, values=values):
                transformed = builder.get(column)
                try:
                    args = column._deep_embedding_args(transformed)
                except NotImplementedError as not_embedding:
                    try:
                        outputs.append(column._to_dnn_input_layer(transformed))
                    except ValueError as e:
                        raise ValueError(f"Error creating input layer for column: "
                                         f"{column.name}.\n{e}, {not_embedding}") from None
                else:
                    outputs.append(embeddings_from_arguments(column, args, collections,
                                                             trainable))
            if cols_to_outs is not None:
                cols_to_outs[column] = outputs[-1]
        return concat(outputs, 1)


def weighted_sum_from_feature_columns(columns_to_tensors: Dict[Any, Any], feature_columns: Any,
                                      num_outputs: int, weight_collections: Any = None,
                                      trainable: bool = True,
                                      scope: Any = None) -> Tuple[Any, Dict[Any, Any], Any]:
    """`tf.contrib.layers.weighted_sum_from_feature_columns`: a linear model
    `sum_i column_i . weights_i + bias_weight`; returns (predictions [batch, num_outputs],
    {column: [variables]}, bias)."""
    from tf1compat.contrib.framework.variables import model_variable
    from tf1compat.contrib.layers.embedding_ops import safe_embedding_lookup_sparse
    from tf1compat.framework import dtypes
    from tf1compat.ops.array_ops import reshape
    from tf1compat.ops.linalg_ops import matmul
    from tf1compat.ops.math_ops import add_n
    from tf1compat.ops.nn_ops import bias_add
    from tf1compat.variables.init_ops import zeros_initializer
    from tf1compat.variables.variable_scope import variable_scope
    from tf1compat.contrib.layers.feature_column import _flatten_to_rank2
    columns = _sorted_columns(feature_columns)
    values = list(columns_to_tensors.values())
    with variable_scope(scope, default_name="weighted_sum_from_feature_columns",
                        values=values):
        builder = _builder(columns_to_tensors)
        outputs, column_to_variable = [], {}
        for column in columns:
            transformed = builder.get(column)
            with variable_scope(None, default_name=column.name, values=values):
                try:
                    args = column._wide_embedding_args(transformed)
                except NotImplementedError:
                    tensor = _flatten_to_rank2(column._to_dense_tensor(transformed),
                                               column.name)
                    variable = [model_variable(
                        name="weight", shape=[tensor.get_shape()[1], num_outputs],
                        initializer=zeros_initializer(), trainable=trainable,
                        collections=weight_collections)]
                    predictions = matmul(tensor, variable[0], name="matmul")
                except ValueError as e:
                    raise ValueError(f"Error creating weighted sum for column: {column.name}."
                                     f"\n{e}") from None
                else:
                    variable = _variable_list(model_variable(
                        name="weights", shape=[args.vocab_size, num_outputs],
                        dtype=dtypes.float32, initializer=zeros_initializer(),
                        trainable=trainable, collections=weight_collections))
                    predictions = safe_embedding_lookup_sparse(
                        variable, args.input_tensor, sparse_weights=args.weight_tensor,
                        combiner=args.combiner, name=column.name + "_weights")
            outputs.append(reshape(predictions, shape=(-1, num_outputs)))
            column_to_variable[column] = variable
            for v in variable:
                tf_logging.info("Created variable %s, with device=%s", v.name, v.device)
            _maybe_restore(column, variable)
        bias = model_variable("bias_weight", shape=[num_outputs],
                              initializer=zeros_initializer(), trainable=trainable,
                              collections=_with_global(weight_collections))
        tf_logging.info("Created variable %s, with device=%s", bias.name, bias.device)
        return bias_add(add_n(outputs), bias), column_to_variable, bias


def transform_features(features: Dict[str, Any], feature_columns: Any) -> Dict[Any, Any]:
    """`tf.contrib.layers.transform_features`: {column: its transformed tensor(s)}."""
    columns = list(feature_columns)
    check_feature_columns(columns)
    builder = _builder(features)
    return {column: builder.get(column) for column in columns}


def parse_feature_columns_from_examples(serialized: Any, feature_columns: Any,
                                        name: Optional[str] = None,
                                        example_names: Any = None) -> Dict[Any, Any]:
    """`tf.contrib.layers.parse_feature_columns_from_examples`: parses serialized
    tf.Examples with the columns' spec and returns {column: transformed tensor}."""
    from tf1compat.contrib.layers.feature_column import create_feature_spec_for_parsing
    from tf1compat.ops.parsing_ops import parse_example
    check_feature_columns(feature_columns)
    columns_to_tensors = parse_example(serialized=serialized,
                                       features=create_feature_spec_for_parsing(
                                           feature_columns),
                                       name=name, example_names=example_names)
    return transform_features(columns_to_tensors, feature_columns)


def _infer_column(name: str, tensor: Any) -> Any:
    if isinstance(tensor, SparseTensor):
        raise ValueError("SparseTensor is not supported for auto detection. Please define "
                         f"corresponding FeatureColumn for tensor {name} {tensor}.")
    if not (tensor.dtype.is_integer or tensor.dtype.is_floating):
        raise ValueError("Non integer or non floating types are not supported for auto "
                         "detection. Please define corresponding FeatureColumn for tensor "
                         f"{name} {tensor}.")
    dimension = 1
    for size in tensor.get_shape().as_list()[1:]:
        dimension *= size
    return real_valued_column(name, dimension=dimension, dtype=tensor.dtype)


def infer_real_valued_columns(features: Any) -> List[Any]:
    """`tf.contrib.layers.infer_real_valued_columns`: a real_valued_column per dense
    feature (key '' for a single tensor), of width the product of its non-batch dims."""
    if not isinstance(features, dict):
        return [_infer_column("", features)]
    return [_infer_column(key, value) for key, value in features.items()]
