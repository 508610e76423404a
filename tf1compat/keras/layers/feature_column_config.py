"""Feature columns as Keras configs, for `DenseFeatures.get_config`/`from_config` (and so
HDF5, JSON and SavedModel files of models that use it).

A column is `{"class_name": <TF's class name>, "config": {<its fields>}}` in tf-keras's
layout: the namedtuple's fields in order, dtypes by name, nested columns (a bucketized
column's source, an indicator's or embedding's categorical column, a cross's column keys)
serialized in place, an embedding's initializer as a Keras initializer config and a
numeric column's `normalizer_fn` by name (found again through `custom_objects`).
Deserializing reverses that and rebuilds the column from its fields, tuples for lists.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from tf1compat.feature_column.base import FeatureColumn
from tf1compat.feature_column.columns import (BucketizedColumn, CrossedColumn,
                                              HashedCategoricalColumn,
                                              IdentityCategoricalColumn, IndicatorColumn,
                                              NumericColumn,
                                              VocabularyFileCategoricalColumn,
                                              VocabularyListCategoricalColumn,
                                              WeightedCategoricalColumn)
from tf1compat.feature_column.embedding import EmbeddingColumn
from tf1compat.framework import dtypes

__all__ = ["serialize_feature_column", "deserialize_feature_column"]

_COLUMN_CLASSES = {cls.__name__: cls for cls in (
    NumericColumn, BucketizedColumn, HashedCategoricalColumn,
    VocabularyListCategoricalColumn, VocabularyFileCategoricalColumn,
    IdentityCategoricalColumn, WeightedCategoricalColumn, CrossedColumn, IndicatorColumn,
    EmbeddingColumn)}
_NESTED_FIELDS = ("source_column", "categorical_column")


def _as_lists(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_as_lists(v) for v in value]
    return value


def _as_tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_as_tuples(v) for v in value)
    return value


def serialize_feature_column(column: Any) -> Dict[str, Any]:
    """The Keras config of a feature column (or a string key, which stays a string)."""
    from tf1compat.keras import initializers
    from tf1compat.keras.utils.serialization import serialize_keras_object
    if isinstance(column, str):
        return column
    name = type(column).__name__
    if not isinstance(column, FeatureColumn) or name not in _COLUMN_CLASSES:
        raise NotImplementedError(f"Serializing the feature column {column!r} (a Keras config "
                                  "for DenseFeatures) is not supported by tf1compat")
    config: Dict[str, Any] = {}
    for field, value in zip(column._fields, column):
        if field in _NESTED_FIELDS:
            value = serialize_feature_column(value)
        elif field == "keys":
            value = [serialize_feature_column(key) for key in value]
        elif field == "dtype":
            value = dtypes.as_dtype(value).name
        elif field == "initializer":
            value = initializers.serialize(value)
        elif field == "normalizer_fn":
            value = serialize_keras_object(value)
        else:
            value = _as_lists(value)
        config[field] = value
    return {"class_name": name, "config": config}


def deserialize_feature_column(config: Any, custom_objects: Optional[Dict[str, Any]] = None
                               ) -> Any:
    """The feature column a `serialize_feature_column` config describes."""
    from tf1compat.keras import initializers
    from tf1compat.keras.utils.serialization import deserialize_keras_object
    if isinstance(config, str):
        return config
    name = config.get("class_name") if isinstance(config, dict) else None
    cls = _COLUMN_CLASSES.get(name)
    if cls is None:
        raise ValueError(f"Unknown feature column class: {name!r} (config {config})")
    fields = config["config"]
    missing = [field for field in cls._fields if field not in fields]
    if missing:
        raise ValueError(f"{name} config is missing the fields {missing}: {fields}")
    kwargs: Dict[str, Any] = {}
    for field in cls._fields:
        value = fields[field]
        if field in _NESTED_FIELDS:
            value = deserialize_feature_column(value, custom_objects)
        elif field == "keys":
            value = tuple(deserialize_feature_column(key, custom_objects) for key in value)
        elif field == "dtype":
            value = dtypes.as_dtype(value)
        elif field == "initializer":
            value = initializers.deserialize(value, custom_objects) if value else None
        elif field == "normalizer_fn":
            value = deserialize_keras_object(value, custom_objects=custom_objects,
                                             printable_module_name="normalizer_fn")
        else:
            value = _as_tuples(value)
        kwargs[field] = value
    return cls(**kwargs)
