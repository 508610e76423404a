"""`tf.contrib.data` (TF 1.x): the transformations TF1 pipelines used before they moved to
`tf.data.experimental` (and then to `tf.data.Dataset` methods)."""

# ruff: noqa: F401
from typing import Any, Callable

from tf1compat.contrib._missing import missing as _missing
from tf1compat.data import Iterator
from tf1compat.data.dataset_ops import AUTOTUNE
from tf1compat.data.experimental import (
    Counter, CsvDataset, Optional, RandomDataset, Reducer, SqlDataset, TFRecordWriter,
    bucket_by_sequence_length, choose_from_datasets, copy_to_device, dense_to_sparse_batch,
    enumerate_dataset, get_next_as_optional, get_single_element, group_by_reducer,
    group_by_window, ignore_errors, make_batched_features_dataset, make_csv_dataset,
    make_saveable_from_iterator, map_and_batch, parallel_interleave, prefetch_to_device,
    parse_example_dataset, rejection_resample, sample_from_datasets, scan, shuffle_and_repeat,
    unbatch, unique)
from tf1compat.data.readers import TFRecordDatasetV1 as TFRecordDataset


def batch_and_drop_remainder(batch_size: Any) -> Callable[[Any], Any]:
    """`dataset.batch(batch_size, drop_remainder=True)` as an `apply` transformation."""
    return lambda dataset: dataset.batch(batch_size, drop_remainder=True)


def padded_batch_and_drop_remainder(batch_size: Any, padded_shapes: Any,
                                    padding_values: Any = None) -> Callable[[Any], Any]:
    """`dataset.padded_batch(..., drop_remainder=True)` as an `apply` transformation."""
    return lambda dataset: dataset.padded_batch(batch_size, padded_shapes, padding_values,
                                                drop_remainder=True)


def sliding_window_batch(window_size: Any, stride: Any = None, window_shift: Any = None,
                         window_stride: Any = 1) -> Callable[[Any], Any]:
    """Windows of `window_size` elements, `window_stride` apart, stacked into one element;
    each window starts `window_shift` (or the older `stride`) elements after the last
    (SlidingWindowDataset; a final window the input cannot fill is dropped)."""
    if stride is None and window_shift is None:
        window_shift = 1
    elif stride is not None and window_shift is None:
        window_shift = stride
    elif stride is not None and window_shift is not None:
        raise ValueError("Cannot specify both `stride` and `window_shift`")

    def apply(dataset: Any) -> Any:
        from tf1compat.data import structure
        from tf1compat.data.dataset_ops import _int64
        # TF 1.15 names the window size's constant "window_stride" too.
        size = _int64(window_size, "window_stride")
        stride_t = _int64(window_stride, "window_stride")
        shift = _int64(window_shift, "window_shift")
        spec = structure.map_structure(_unknown_batch_spec, dataset.element_spec)
        return dataset._make("SlidingWindowDataset",
                             [dataset._variant_tensor, size, shift, stride_t], {}, spec,
                             [dataset])
    return apply


def _unknown_batch_spec(spec: Any) -> Any:
    """`spec` with a leading dimension of unknown size."""
    from tf1compat.data.type_specs import SparseTensorSpec, TensorSpec
    from tf1compat.framework.tensor_shape import TensorShape
    shape = TensorShape([None]).concatenate(spec.shape)
    if isinstance(spec, SparseTensorSpec):
        return SparseTensorSpec(shape, spec.dtype)
    if not isinstance(spec, TensorSpec):
        raise TypeError(f"sliding_window_batch: components of type {type(spec).__name__} "
                        "are not supported by tf1compat")
    return TensorSpec(shape, spec.dtype)


def assert_element_shape(expected_shapes: Any) -> Callable[[Any], Any]:
    """Checks each element's components against `expected_shapes` (statically where the
    shapes are known, else at run time) and gives the dataset the merged shapes. The
    structure follows tf.data's rules: a list is one shape, not a structure."""
    from tf1compat.contrib.framework.tensor_util import with_shape
    from tf1compat.data import structure

    def check(*elements: Any) -> Any:
        flat = structure.flatten(elements)
        shapes = structure.flatten(expected_shapes)
        checked = [with_shape(shape, t) if shape else t for shape, t in zip(shapes, flat)]
        return structure.pack(elements, checked)

    def apply(dataset: Any) -> Any:
        from tf1compat.data.dataset_ops import DatasetV1Adapter
        from tf1compat.data.type_specs import TensorSpec
        from tf1compat.framework.tensor_shape import as_shape
        specs = dataset.element_spec
        structure.assert_same_structure(specs, expected_shapes)
        merged = structure.pack(specs, [
            TensorSpec(s.shape.merge_with(as_shape(new)), s.dtype)
            for s, new in zip(structure.flatten(specs), structure.flatten(expected_shapes))])
        mapped = dataset.map(check)
        return DatasetV1Adapter(mapped._variant_tensor, merged, [mapped])
    return apply


def reduce_dataset(dataset: Any, reducer: Any) -> Any:
    """The result of folding `dataset` with a `tf.contrib.data.Reducer` (its init_func at
    key 0, its reduce_func per element; no finalize)."""
    import numpy as np
    from tf1compat.data.dataset_ops import DatasetV2
    if not isinstance(dataset, DatasetV2):
        raise TypeError("`dataset` must be a `tf.data.Dataset` object.")
    return dataset.reduce(reducer.init_func(np.int64(0)), reducer.reduce_func)


def sloppy_interleave(map_func: Callable[..., Any], cycle_length: int,
                      block_length: int = 1) -> Callable[[Any], Any]:
    """`parallel_interleave(..., sloppy=True)` (tf1compat gives the deterministic order,
    which is one of the orders TF's sloppy interleave may give)."""
    return parallel_interleave(map_func, cycle_length, block_length, sloppy=True)


def read_batch_features(file_pattern: Any, batch_size: int, features: Any,
                        reader: Any = TFRecordDataset, reader_args: Any = None,
                        randomize_input: bool = True, num_epochs: Any = None,
                        capacity: int = 10000) -> Any:
    """The next batch of parsed tf.Examples from `file_pattern` (a one-shot iterator over
    make_batched_features_dataset)."""
    dataset = make_batched_features_dataset(file_pattern, batch_size, features, reader=reader,
                                            reader_args=reader_args, shuffle=randomize_input,
                                            num_epochs=num_epochs,
                                            shuffle_buffer_size=capacity)
    return dataset.make_one_shot_iterator().get_next()


__getattr__ = _missing("tf.contrib.data")
