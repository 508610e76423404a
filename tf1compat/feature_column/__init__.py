"""`tf.feature_column`: TF1's feature columns, `input_layer`, `linear_model` and
`make_parse_example_spec` (the sequence columns are also in `tf.contrib.feature_column`).
See base.py for the column interface."""

# ruff: noqa: F401
from tf1compat.feature_column.columns import (bucketized_column,
                                              categorical_column_with_hash_bucket,
                                              categorical_column_with_identity,
                                              categorical_column_with_vocabulary_file,
                                              categorical_column_with_vocabulary_list,
                                              crossed_column, indicator_column, numeric_column,
                                              weighted_categorical_column)
from tf1compat.feature_column.embedding import embedding_column, shared_embedding_columns
from tf1compat.feature_column.layers import input_layer, linear_model, make_parse_example_spec
from tf1compat.feature_column.sequence import (sequence_categorical_column_with_hash_bucket,
                                               sequence_categorical_column_with_identity,
                                               sequence_categorical_column_with_vocabulary_file,
                                               sequence_categorical_column_with_vocabulary_list,
                                               sequence_numeric_column)
from tf1compat.framework.missing import attribute_hook as _attribute_hook

__getattr__ = _attribute_hook("feature_column", globals())
