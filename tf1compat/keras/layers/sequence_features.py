"""`tf.keras.experimental.SequenceFeatures` (tf-keras's layer on sequence feature
columns): a dict of sparse sequence features turned into a `[batch, time, sum of widths]`
tensor and the per-example sequence length, as the input of an RNN.

Columns (`sequence_numeric_column`, embedding/indicator columns over
`sequence_categorical_column_*`) are processed sorted by name; their variables live in
`<layer name>/<column name>/` as DenseFeatures's do.
"""

from __future__ import annotations

from typing import Any, Tuple

from tf1compat.feature_column.base import (LazyBuilder, SequenceDenseColumn,
                                           verify_static_batch_size_equality)
from tf1compat.feature_column.sequence import _assert_all_equal_and_return
from tf1compat.framework.graph import name_scope
from tf1compat.keras.layers.dense_features import _INVALID_SCOPE_CHARS, DenseFeatures
from tf1compat.ops.array_ops import concat, reshape, shape
from tf1compat.variables.variable_scope import AUTO_REUSE, variable_scope

__all__ = ["SequenceFeatures"]


class SequenceFeatures(DenseFeatures):
    """`SequenceFeatures(feature_columns, trainable=True, name=None)`: called on a features
    dict, returns `(sequence_input, sequence_length)`."""

    _expected_column_type = SequenceDenseColumn
    _column_type_hint = ("You can wrap a sequence_categorical_column with an "
                         "embedding_column or indicator_column.")

    def call(self, features: Any, training: Any = None) -> Tuple[Any, Any]:
        if not isinstance(features, dict):
            raise ValueError("We expected a dictionary here. Instead we got: ", features)
        builder = LazyBuilder(features)
        outputs, lengths = [], []
        for column in self._feature_columns:
            with name_scope(column.name):
                with variable_scope(self.name, reuse=AUTO_REUSE,
                                    custom_getter=self._track_column_variable,
                                    auxiliary_name_scope=False):
                    with variable_scope(_INVALID_SCOPE_CHARS.sub("_", column.name),
                                        auxiliary_name_scope=False):
                        dense, length = column._get_sequence_dense_tensor(
                            builder, trainable=self.trainable)
                width = column._variable_shape.num_elements()
                dims = shape(dense)
                outputs.append(reshape(dense, shape=(dims[0], dims[1], width)))
                lengths.append(length)
        verify_static_batch_size_equality(lengths, self._feature_columns)
        return concat(outputs, -1), _assert_all_equal_and_return(lengths)

    def compute_output_shape(self, input_shape: Any) -> Any:
        total = sum(column._variable_shape.num_elements() for column in self._feature_columns)
        return (input_shape[0], None, total)

