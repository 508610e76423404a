"""`tf.contrib.data` (TF 1.x): the transformations TF1 pipelines used before they moved to
`tf.data.experimental` (and then to `tf.data.Dataset` methods)."""

# ruff: noqa: F401
from typing import Any, Callable

from tf1compat.contrib._missing import missing as _missing
from tf1compat.data import Iterator
from tf1compat.data.experimental import (
    Counter, CsvDataset, Optional, RandomDataset, Reducer, SqlDataset, TFRecordWriter,
    bucket_by_sequence_length, choose_from_datasets, copy_to_device, dense_to_sparse_batch,
    enumerate_dataset, get_next_as_optional, get_single_element, group_by_reducer,
    group_by_window, ignore_errors, make_batched_features_dataset, make_csv_dataset,
    make_saveable_from_iterator, map_and_batch, parallel_interleave, prefetch_to_device,
    rejection_resample, sample_from_datasets, scan, shuffle_and_repeat, unbatch, unique)
from tf1compat.data.readers import TFRecordDatasetV1 as TFRecordDataset


def batch_and_drop_remainder(batch_size: Any) -> Callable[[Any], Any]:
    """`dataset.batch(batch_size, drop_remainder=True)` as an `apply` transformation."""
    return lambda dataset: dataset.batch(batch_size, drop_remainder=True)


def padded_batch_and_drop_remainder(batch_size: Any, padded_shapes: Any,
                                    padding_values: Any = None) -> Callable[[Any], Any]:
    """`dataset.padded_batch(..., drop_remainder=True)` as an `apply` transformation."""
    return lambda dataset: dataset.padded_batch(batch_size, padded_shapes, padding_values,
                                                drop_remainder=True)


__getattr__ = _missing("tf.contrib.data")
