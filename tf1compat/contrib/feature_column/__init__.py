"""`tf.contrib.feature_column` (TF 1.15): the sequence feature columns and
`sequence_input_layer`."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.feature_column.sequence import (concatenate_context_input,
                                               sequence_categorical_column_with_hash_bucket,
                                               sequence_categorical_column_with_identity,
                                               sequence_categorical_column_with_vocabulary_file,
                                               sequence_categorical_column_with_vocabulary_list,
                                               sequence_input_layer, sequence_numeric_column)

__getattr__ = _missing("tf.contrib.feature_column")
