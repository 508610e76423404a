"""`tf.keras.layers.DenseFeatures` (tf-keras's v1 layer): the dense feature columns of a
features dict concatenated into one `[batch, sum of widths]` tensor, as the first layer of a
Keras model.

Columns are processed sorted by name, each under a name scope of its own name; the
variables a column needs (embedding tables) live in the variable scope
`<layer name>/<column name>` (`dense_features/thal_embedding/embedding_weights`), are
created by the first call, reused by later ones and tracked as the layer's weights, so
`fit` trains them.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

from tf1compat.feature_column.base import (DenseColumn, LazyBuilder,
                                           normalize_feature_columns,
                                           verify_static_batch_size_equality)
from tf1compat.feature_column.embedding import SharedEmbeddingColumn
from tf1compat.framework.graph import name_scope
from tf1compat.keras import backend
from tf1compat.keras.engine.base_layer import Layer, _is_split_variable
from tf1compat.keras.layers.feature_column_config import (deserialize_feature_column,
                                                          serialize_feature_column)
from tf1compat.ops.array_ops import concat, reshape, shape
from tf1compat.variables.variable_scope import AUTO_REUSE, variable_scope

__all__ = ["DenseFeatures"]

_INVALID_SCOPE_CHARS = re.compile(r"[^A-Za-z0-9_.\-]")


class DenseFeatures(Layer):
    """`tf.keras.layers.DenseFeatures(feature_columns, trainable=True, name=None,
    partitioner=None)`: a layer that turns a dict of features into a dense tensor through
    `tf.feature_column` dense columns (numeric, bucketized, indicator, embedding ...)."""

    _expected_column_type: type = DenseColumn
    _column_type_hint = "You can wrap a categorical column with an embedding_column or " \
                        "indicator_column."

    def __init__(self, feature_columns: Any, trainable: bool = True,
                 name: Optional[str] = None, partitioner: Any = None, **kwargs: Any):
        super().__init__(name=name, trainable=trainable, **kwargs)
        columns = normalize_feature_columns(feature_columns)
        expected = self._expected_column_type
        for column in columns:
            if isinstance(column, SharedEmbeddingColumn):
                # TF 1.x's shared embeddings are not the v2 columns tf-keras accepts.
                raise ValueError("Items of feature_columns must be a FeatureColumn. Given "
                                 f"(type {type(column)}): {column}.")
            if not isinstance(column, expected):
                raise ValueError(f"Items of feature_columns must be a {expected}. "
                                 f"{self._column_type_hint} Given: {column}")
        self._feature_columns = sorted(columns, key=lambda column: column.name)
        self._partitioner = partitioner
        self._column_variables: Dict[str, Any] = {}

    @property
    def _is_feature_layer(self) -> bool:
        return True

    def _track_column_variable(self, getter: Any, name: str, *args: Any,
                               **kwargs: Any) -> Any:
        """Custom getter: the columns' variables are resource variables, trainable only
        when the layer is, made by the first call and returned by later ones (eager
        `get_variable` has no store to reuse them from), and become the layer's weights."""
        if name in self._column_variables:
            return self._column_variables[name]
        kwargs["use_resource"] = True
        kwargs["trainable"] = bool(self.trainable and kwargs.get("trainable", True))
        variable = getter(name, *args, **kwargs)
        self._column_variables[name] = variable
        if not _is_split_variable(variable):
            # A checkpoint dependency "<column>/<variable>", as tf-keras's state manager
            # names it (object-based checkpoints and SavedModels then hold it).
            scope = self.name + "/"
            edge = name[name.index(scope) + len(scope):] if scope in name else name
            self._track_trackable(variable, edge, overwrite=True)
        weights = self._trainable_weights if kwargs["trainable"] else self._non_trainable_weights
        for part in list(variable) if _is_split_variable(variable) else [variable]:
            backend.track_variable(part)
            weights.append(part)
        return variable

    def call(self, features: Any, cols_to_output_tensors: Optional[Dict[Any, Any]] = None,
             training: Any = None) -> Any:
        """The columns' dense tensors, each reshaped to `[batch, width]`, concatenated."""
        if not isinstance(features, dict):
            raise ValueError("We expected a dictionary here. Instead we got: ", features)
        builder = LazyBuilder(features)
        outputs: List[Any] = []
        for column in self._feature_columns:
            with name_scope(column.name):
                with variable_scope(self.name, reuse=AUTO_REUSE,
                                    partitioner=self._partitioner,
                                    custom_getter=self._track_column_variable,
                                    auxiliary_name_scope=False):
                    with variable_scope(_INVALID_SCOPE_CHARS.sub("_", column.name),
                                        auxiliary_name_scope=False):
                        tensor = column._get_dense_tensor(builder, trainable=self.trainable)
                width = column._variable_shape.num_elements()
                output = reshape(tensor, shape=(shape(tensor)[0], width))
            outputs.append(output)
            if cols_to_output_tensors is not None:
                cols_to_output_tensors[column] = output
        verify_static_batch_size_equality(outputs, self._feature_columns)
        return concat(outputs, -1)

    def compute_output_shape(self, input_shape: Any) -> Any:
        total = sum(column._variable_shape.num_elements() for column in self._feature_columns)
        return (input_shape[0], total)

    def get_config(self) -> dict:
        """tf-keras's config: the base layer's, the columns (feature_column_config.py)
        and the partitioner (only None can be written)."""
        if self._partitioner is not None:
            raise NotImplementedError("DenseFeatures.get_config with a partitioner is not "
                                      "supported by tf1compat")
        config = {"feature_columns": [serialize_feature_column(column)
                                      for column in self._feature_columns],
                  "partitioner": None}
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config: dict, custom_objects: Optional[Dict[str, Any]] = None
                    ) -> "DenseFeatures":
        config = dict(config)
        config["feature_columns"] = [deserialize_feature_column(c, custom_objects)
                                     for c in config["feature_columns"]]
        if config.get("partitioner") is not None:
            raise NotImplementedError("DenseFeatures.from_config with a partitioner is not "
                                      "supported by tf1compat")
        return cls(**config)
