"""`tf.data.experimental` (TF 2.21's compat.v1 names): the export list, plus the small
transformations TF1 pipelines used first (map_and_batch, shuffle_and_repeat, ignore_errors,
unbatch, parallel_interleave).

Where the rest lives: experimental_transforms.py (scan, group_by_window, sampling,
cardinality, ...), experimental_readers.py (CsvDataset, make_csv_dataset, SqlDataset,
TFRecordWriter, make_batched_features_dataset), experimental_misc.py (from_list,
rejection_resample, get_next_as_optional, tables from datasets, ...),
experimental_options.py (Options and its groups). Names tf1compat does not provide are in
framework/unsupported_api.py.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.data.dataset_ops import AUTOTUNE, INFINITE, UNKNOWN, dataset_seeds
from tf1compat.data.functions import StructuredFunction
from tf1compat.data.structure import (DatasetSpec, SparseTensorSpec, TensorSpec, TypeSpec,
                                      map_structure)
from tf1compat.data.type_specs import OptionalSpec, TensorArraySpec
from tf1compat.data.experimental_transforms import (
    Counter, RandomDataset, Reducer, assert_cardinality, bucket_by_sequence_length, cardinality,
    choose_from_datasets, dense_to_sparse_batch, enumerate_dataset, get_single_element,
    group_by_reducer, group_by_window, sample_from_datasets, scan, take_while, unique)
from tf1compat.data.experimental_misc import (
    DatasetInitializer, copy_to_device, from_list, from_variant, get_next_as_optional,
    index_table_from_dataset, make_saveable_from_iterator, pad_to_cardinality,
    prefetch_to_device, rejection_resample, table_from_dataset, to_variant)
from tf1compat.data.experimental_options import (
    AutoShardPolicy, AutotuneAlgorithm, AutotuneOptions, DistributeOptions, ExternalStatePolicy,
    OptimizationOptions, Options, ServiceOptions, ThreadingOptions)
from tf1compat.data.experimental_readers import (
    CsvDataset, SqlDataset, TFRecordWriter, make_batched_features_dataset, make_csv_dataset,
    parse_example_dataset)

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "map_and_batch",
           "shuffle_and_repeat", "ignore_errors", "unbatch", "parallel_interleave", "Options",
           "get_structure", "TensorStructure", "SparseTensorStructure", "DatasetStructure",
           "RaggedTensorStructure", "dense_to_ragged_batch",
           "Counter", "RandomDataset", "Reducer", "assert_cardinality",
           "bucket_by_sequence_length", "cardinality", "choose_from_datasets",
           "dense_to_sparse_batch", "enumerate_dataset", "get_single_element",
           "group_by_reducer", "group_by_window", "sample_from_datasets", "scan", "take_while",
           "unique", "CsvDataset", "SqlDataset", "TFRecordWriter",
           "make_batched_features_dataset", "make_csv_dataset", "parse_example_dataset",
           "DatasetInitializer", "copy_to_device", "from_list", "from_variant",
           "get_next_as_optional", "index_table_from_dataset", "make_saveable_from_iterator",
           "pad_to_cardinality", "prefetch_to_device", "rejection_resample",
           "table_from_dataset", "to_variant", "AutoShardPolicy", "AutotuneAlgorithm",
           "AutotuneOptions", "DistributeOptions", "ExternalStatePolicy", "OptimizationOptions",
           "ServiceOptions", "ThreadingOptions", "SHARD_HINT", "Structure", "OptionalStructure",
           "TensorArrayStructure", "map_and_batch_with_legacy_function"]

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN
SHARD_HINT = -1        # a shard index placeholder for AutoShardPolicy.HINT


def map_and_batch(map_func: Callable[..., Any], batch_size: Any,
                  num_parallel_batches: Any = None, drop_remainder: bool = False,
                  num_parallel_calls: Any = None) -> Callable[[Any], Any]:
    """map then batch in one op (MapAndBatchDataset)."""
    if num_parallel_batches is None and num_parallel_calls is None:
        num_parallel_calls = batch_size
    elif num_parallel_batches is not None and num_parallel_calls is None:
        num_parallel_calls = batch_size * num_parallel_batches
    elif num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("`map_and_batch` allows only one of `num_parallel_batches` and "
                         "`num_parallel_calls` to be set, but `num_parallel_batches` was set "
                         f"to {num_parallel_batches} and `num_parallel_calls` as set to "
                         f"{num_parallel_calls}.")

    def apply(dataset: Any) -> Any:
        from tf1compat.data.dataset_ops import _batch_spec
        fn = StructuredFunction(map_func, "tf.data.experimental.map_and_batch()",
                                dataset.element_spec)
        size = convert_to_tensor(batch_size, dtype=D.int64, name="batch_size")
        n = convert_to_tensor(num_parallel_calls, dtype=D.int64, name="num_parallel_calls")
        drop = convert_to_tensor(drop_remainder, dtype=D.bool, name="drop_remainder")
        spec = map_structure(lambda s: _batch_spec(s, size, drop), fn.output_structure)
        return dataset._make("MapAndBatchDataset", [dataset._variant_tensor,
                                                    fn.captured_inputs, size, n, drop],
                             {"f": fn, "preserve_cardinality": True}, spec, [dataset])
    return apply


map_and_batch_with_legacy_function = map_and_batch


def shuffle_and_repeat(buffer_size: Any, count: Any = None, seed: Optional[int] = None
                       ) -> Callable[[Any], Any]:
    """shuffle then repeat, one op (ShuffleAndRepeatDataset; epochs never mix)."""
    def apply(dataset: Any) -> Any:
        size = convert_to_tensor(buffer_size, dtype=D.int64, name="buffer_size")
        n = convert_to_tensor(-1 if count is None else count, dtype=D.int64, name="count")
        seed_t, seed2_t = dataset_seeds(seed)
        return dataset._make("ShuffleAndRepeatDataset",
                             [dataset._variant_tensor, size, seed_t, seed2_t, n],
                             {"reshuffle_each_iteration": True}, dataset.element_spec,
                             [dataset])
    return apply


def ignore_errors(log_warning: bool = False) -> Callable[[Any], Any]:
    """Drops the elements whose computation raised an error."""
    def apply(dataset: Any) -> Any:
        return dataset._make("IgnoreErrorsDataset", [dataset._variant_tensor],
                             {"log_warning": bool(log_warning)}, dataset.element_spec,
                             [dataset])
    return apply


def unbatch() -> Callable[[Any], Any]:
    return lambda dataset: dataset.unbatch()


def parallel_interleave(map_func: Callable[..., Any], cycle_length: int, block_length: int = 1,
                        sloppy: bool = False, buffer_output_elements: Any = None,
                        prefetch_input_elements: Any = None) -> Callable[[Any], Any]:
    """Interleave (LegacyParallelInterleaveDatasetV2), deterministic order."""
    def apply(dataset: Any) -> Any:
        from tf1compat.data.dataset_ops import _dataset_result
        fn = StructuredFunction(map_func, "tf.data.experimental.parallel_interleave()",
                                dataset.element_spec)
        spec = _dataset_result(fn)
        cycle = convert_to_tensor(cycle_length, dtype=D.int64, name="cycle_length")
        block = convert_to_tensor(block_length, dtype=D.int64, name="block_length")
        buffered = convert_to_tensor(2 * block_length if buffer_output_elements is None
                                     else buffer_output_elements, dtype=D.int64,
                                     name="buffer_output_elements")
        prefetched = convert_to_tensor(2 * cycle_length if prefetch_input_elements is None
                                       else prefetch_input_elements, dtype=D.int64,
                                       name="prefetch_input_elements")
        return dataset._make("LegacyParallelInterleaveDatasetV2",
                             [dataset._variant_tensor, fn.captured_inputs, cycle, block,
                              buffered, prefetched],
                             {"f": fn, "deterministic": "false" if sloppy else "true"}, spec,
                             [dataset])
    return apply


def get_structure(dataset_or_iterator: Any) -> Any:
    try:
        return dataset_or_iterator.element_spec
    except AttributeError:
        raise TypeError("Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a "
                        "`tf.data.Dataset` or tf.data.Iterator object, but got "
                        f"{type(dataset_or_iterator)}.") from None


def TensorStructure(dtype: Any, shape: Any) -> TensorSpec:  # noqa: N802 - TF's name
    return TensorSpec(shape, dtype)


def SparseTensorStructure(dtype: Any, shape: Any) -> SparseTensorSpec:  # noqa: N802
    return SparseTensorSpec(shape, dtype)


def RaggedTensorStructure(dtype: Any, shape: Any, ragged_rank: int) -> Any:  # noqa: N802
    from tf1compat.ragged.ragged_tensor_spec import RaggedTensorSpec
    return RaggedTensorSpec(shape, dtype, ragged_rank)


def dense_to_ragged_batch(batch_size: Any, drop_remainder: Any = False,
                          row_splits_dtype: Any = D.int64) -> Callable[[Any], Any]:
    """Batches elements of different shapes into RaggedTensors (`Dataset.ragged_batch`)."""
    from tf1compat.data.ragged import ragged_batch

    def apply(dataset: Any) -> Any:
        return ragged_batch(dataset, batch_size, drop_remainder, row_splits_dtype)
    return apply


DatasetStructure = DatasetSpec
Structure = TypeSpec
OptionalStructure = OptionalSpec


def TensorArrayStructure(dtype: Any, element_shape: Any, dynamic_size: bool,  # noqa: N802
                         infer_shape: bool) -> TensorArraySpec:
    return TensorArraySpec(element_shape, dtype, dynamic_size, infer_shape)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook("data.experimental", globals())
