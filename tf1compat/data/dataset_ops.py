"""`tf.data.Dataset` (TF1's DatasetV1) in graph mode.

A Dataset is a scalar `variant` tensor of the graph plus its element structure
(`element_spec`). Each transformation adds TF's op (MapDataset, BatchDatasetV2, ...) with
TF's helper constants (`batch_size`, `drop_remainder`, `count`, `seed`, ...) and names,
and returns a new Dataset; functions (map, filter, flat_map, ...) are traced once into a
function graph of their own (functions.py). Nothing runs until an iterator's ops run in
a session (iterator_ops.py); the kernels are in _ops.py and _runtime.py.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import numpy as np

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.op_def import get_op_def
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.data import _ops  # noqa: F401 - registers the dataset ops
from tf1compat.data import structure
from tf1compat.data.functions import StructuredFunction
from tf1compat.data.ragged import batched_encoding, check_ragged_rank, ragged_component
from tf1compat.data.structure import DatasetSpec, SparseTensorSpec, TensorSpec
from tf1compat.ragged.ragged_tensor import RaggedTensor
from tf1compat.ragged.ragged_tensor_spec import RaggedTensorSpec

__all__ = ["DatasetV2", "DatasetV1", "DatasetV1Adapter", "Dataset", "VariantDataset", "AUTOTUNE",
           "INFINITE", "UNKNOWN"]

AUTOTUNE = -1
INFINITE = -1
UNKNOWN = -2


def _int64(value: Any, name: str) -> Tensor:
    return convert_to_tensor(value, dtype=D.int64, name=name)


def _bool(value: Any, name: str) -> Tensor:
    return convert_to_tensor(value, dtype=D.bool, name=name)


def _type_attrs(spec: Any) -> dict:
    return {"output_types": structure.flat_tensor_types(spec),
            "output_shapes": structure.flat_tensor_shapes(spec)}


class DatasetV2:
    """A dataset: a variant tensor and the structure of its elements."""

    def __init__(self, variant_tensor: Tensor, element_spec: Any,
                 inputs: Sequence["DatasetV2"] = ()):
        self._variant_tensor_attr = variant_tensor
        self._structure = element_spec
        self._input_datasets = list(inputs)
        self._graph_attr = getattr(variant_tensor, "graph", None)   # None: an eager value

    # -- basic properties ----------------------------------------------------------------------
    @property
    def _variant_tensor(self) -> Tensor:
        return self._variant_tensor_attr

    @property
    def _graph(self) -> Any:
        return self._graph_attr

    def _inputs(self) -> List["DatasetV2"]:
        return list(self._input_datasets)

    @property
    def element_spec(self) -> Any:
        """The structure of an element: TensorSpec / SparseTensorSpec / DatasetSpec nest."""
        return self._structure

    def _as_variant_tensor(self) -> Tensor:
        return self._variant_tensor

    def __repr__(self) -> str:
        return f"<{type(self).__name__} element_spec={self._structure!r}>"

    def __bool__(self) -> bool:
        return True

    def __len__(self) -> int:
        raise TypeError("The dataset length is unknown.")

    def __iter__(self) -> Any:
        if not _context.executing_eagerly():
            from tf1compat.framework.misc import executing_eagerly_outside_functions
            if executing_eagerly_outside_functions():
                # A tf.function's trace: TF's AutoGraph turns the loop into a dataset
                # reduction; without AutoGraph the function runs eagerly instead.
                from tf1compat.framework.tensor import _not_allowed
                raise _not_allowed("Iterating over a `tf.data.Dataset` in a tf.function")
            raise RuntimeError("`tf.data.Dataset` only supports Python-style iteration in "
                               "eager mode or within tf.function.")
        from tf1compat.data.eager_iterator import EagerIterator
        return EagerIterator(self)

    def as_numpy_iterator(self) -> Any:
        """The elements as numpy values (eager mode only, as in TF)."""
        if not _context.executing_eagerly():
            raise RuntimeError("`tf.data.Dataset.as_numpy_iterator()` is only supported in "
                               "eager mode.")
        from tf1compat.data.eager_iterator import NumpyIterator
        return NumpyIterator(self)

    def _make(self, op_type: str, inputs: list, attrs: dict, spec: Any,
              datasets: Sequence["DatasetV2"], name: Optional[str] = None
              ) -> "DatasetV1Adapter":
        declared = get_op_def(op_type).attrs
        attrs = {**{k: v for k, v in _type_attrs(spec).items() if k in declared}, **attrs}
        op = apply_op(op_type, inputs, attrs, name)
        return DatasetV1Adapter(op._outputs[0], spec, datasets)

    # -- sources -------------------------------------------------------------------------------
    @staticmethod
    def from_tensors(tensors: Any, name: Optional[str] = None) -> "DatasetV1Adapter":
        """A dataset with one element, `tensors`."""
        element = structure.normalize_element(tensors)
        spec = structure.type_spec_from_value(element)
        flat = _to_tensor_list(element, batched=False)
        op = apply_op("TensorDataset", [flat],
                      {"output_shapes": structure.flat_tensor_shapes(spec)}, name)
        return DatasetV1Adapter(op._outputs[0], spec, [])

    @staticmethod
    def from_tensor_slices(tensors: Any, name: Optional[str] = None) -> "DatasetV1Adapter":
        """A dataset whose elements are the slices of `tensors` along their first dim."""
        element = structure.normalize_element(tensors)
        batched = structure.type_spec_from_value(element)
        first = None
        for value, spec in zip(structure.flatten(element), structure.flatten(batched)):
            shape = spec.shape
            if shape.rank == 0:
                raise ValueError(f"Unbatching a tensor is only supported for rank >= 1, "
                                 f"got rank 0 for {value}.")
            dim = shape.dims[0].value if shape.rank is not None else None
            if dim is not None:
                if first is not None and first != dim:
                    raise ValueError(f"Dimensions {first} and {dim} are not compatible")
                first = dim
        spec = structure.map_structure(_unbatch_spec, batched)
        flat = _to_tensor_list(element, batched=True)
        op = apply_op("TensorSliceDataset", [flat],
                      {"output_shapes": structure.flat_tensor_shapes(spec)}, name)
        return DatasetV1Adapter(op._outputs[0], spec, [])

    @staticmethod
    def from_sparse_tensor_slices(sparse_tensor: Any) -> Any:
        raise NotImplementedError("tf.data.Dataset.from_sparse_tensor_slices is not supported "
                                  "by tf1compat; use from_tensor_slices(sparse_tensor).")

    @staticmethod
    def from_generator(generator: Callable[..., Any], output_types: Any = None,
                       output_shapes: Any = None, args: Any = None,
                       output_signature: Any = None, name: Optional[str] = None
                       ) -> "DatasetV1Adapter":
        """Elements yielded by `generator()` (called anew for every pass)."""
        from tf1compat.data.generator import from_generator
        return from_generator(generator, output_types, output_shapes, args, output_signature)

    @staticmethod
    def range(*args: Any, output_type: Any = D.int64, name: Optional[str] = None
              ) -> "DatasetV1Adapter":
        """`range([start,] stop[, step])` as int64 scalars."""
        if len(args) == 1:
            start, stop, step = 0, args[0], 1
        elif len(args) == 2:
            start, stop, step = args[0], args[1], 1
        elif len(args) == 3:
            start, stop, step = args
        else:
            raise ValueError(f"Invalid `args`. The length of `args` should be between 1 and 3 "
                             f"but was {len(args)}.")
        start, stop, step = _int64(start, "start"), _int64(stop, "stop"), _int64(step, "step")
        spec = TensorSpec([], output_type)
        op = apply_op("RangeDataset", [start, stop, step], _type_attrs(spec), name)
        return DatasetV1Adapter(op._outputs[0], spec, [])

    @staticmethod
    def zip(*args: Any, datasets: Any = None, name: Optional[str] = None
            ) -> "DatasetV1Adapter":
        """Elements of several datasets side by side, as a nested structure."""
        if datasets is None:
            if not args:
                raise TypeError("Must pass at least one dataset to `zip`.")
            datasets = args[0] if len(args) == 1 else args
        elif args:
            raise TypeError("Both `*args` and `datasets` cannot be set.")
        flat = structure.flatten(datasets)
        for ds in flat:
            if not isinstance(ds, DatasetV2):
                raise TypeError(f"Invalid input to `zip`. Inputs are expected to be (nested) "
                                f"structures of `tf.data.Dataset` objects. Python `list` is "
                                f"not supported and you should use `tuple` instead.")
        spec = structure.pack(datasets, [ds.element_spec for ds in flat])
        op = apply_op("ZipDataset", [[ds._variant_tensor for ds in flat]],
                      _type_attrs(spec), name)
        return DatasetV1Adapter(op._outputs[0], spec, flat)

    @staticmethod
    def list_files(file_pattern: Any, shuffle: Optional[bool] = None,
                   seed: Optional[int] = None, name: Optional[str] = None
                   ) -> "DatasetV1Adapter":
        """The files matching `file_pattern` (shuffled unless `shuffle=False`)."""
        from tf1compat.data.readers import list_files
        return list_files(file_pattern, shuffle, seed)

    # -- transformations -----------------------------------------------------------------------
    def concatenate(self, dataset: "DatasetV2", name: Optional[str] = None
                    ) -> "DatasetV1Adapter":
        try:
            spec = structure.map_structure(_common_supertype, self.element_spec,
                                           dataset.element_spec)
        except (TypeError, ValueError) as e:
            raise TypeError(f"Incompatible dataset elements:\n  {self.element_spec} vs.   "
                            f"{dataset.element_spec}") from e
        return self._make("ConcatenateDataset", [self._variant_tensor,
                                                 dataset._variant_tensor], {}, spec,
                          [self, dataset], name)

    def map(self, map_func: Callable[..., Any], num_parallel_calls: Any = None,
            deterministic: Optional[bool] = None, name: Optional[str] = None
            ) -> "DatasetV1Adapter":
        """Applies `map_func` to each element (traced once into a function graph)."""
        fn = StructuredFunction(map_func, "Dataset.map()", self.element_spec)
        attrs = {"f": fn, "use_inter_op_parallelism": True, "preserve_cardinality": False}
        if num_parallel_calls is None:
            return self._make("MapDataset", [self._variant_tensor, fn.captured_inputs],
                              attrs, fn.output_structure, [self], name)
        n = _int64(num_parallel_calls, "num_parallel_calls")
        attrs["deterministic"] = _deterministic(deterministic)
        return self._make("ParallelMapDatasetV2", [self._variant_tensor, fn.captured_inputs, n],
                          attrs, fn.output_structure, [self], name)

    map_with_legacy_function = map

    def filter(self, predicate: Callable[..., Any], name: Optional[str] = None
               ) -> "DatasetV1Adapter":
        """The elements for which `predicate` returns True."""
        fn = StructuredFunction(predicate, "Dataset.filter()", self.element_spec)
        out = fn.output_structure
        if not (isinstance(out, TensorSpec) and out.dtype == D.bool and
                out.shape.is_compatible_with(TensorShape([]))):
            raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` "
                             f"scalar tensor, but its return type is {out}.")
        return self._make("FilterDataset", [self._variant_tensor, fn.captured_inputs],
                          {"predicate": fn}, self.element_spec, [self], name)

    filter_with_legacy_function = filter

    def flat_map(self, map_func: Callable[..., Any], name: Optional[str] = None
                 ) -> "DatasetV1Adapter":
        """Maps each element to a dataset and flattens the results in order."""
        fn = StructuredFunction(map_func, "Dataset.flat_map()", self.element_spec)
        spec = _dataset_result(fn)
        return self._make("FlatMapDataset", [self._variant_tensor, fn.captured_inputs],
                          {"f": fn}, spec, [self], name)

    def interleave(self, map_func: Callable[..., Any], cycle_length: Any = None,
                   block_length: Any = None, num_parallel_calls: Any = None,
                   deterministic: Optional[bool] = None, name: Optional[str] = None
                   ) -> "DatasetV1Adapter":
        """Maps each element to a dataset and interleaves `cycle_length` of them."""
        if block_length is None:
            block_length = 1
        if cycle_length is None:
            cycle_length = AUTOTUNE
        fn = StructuredFunction(map_func, "Dataset.interleave()", self.element_spec)
        spec = _dataset_result(fn)
        cycle = _int64(cycle_length, "cycle_length")
        block = _int64(block_length, "block_length")
        if num_parallel_calls is None:
            return self._make("InterleaveDataset", [self._variant_tensor, fn.captured_inputs,
                                                    cycle, block], {"f": fn}, spec, [self],
                              name)
        buffered = _int64(AUTOTUNE, "buffer_output_elements")
        prefetched = _int64(AUTOTUNE, "prefetch_input_elements")
        n = _int64(num_parallel_calls, "num_parallel_calls")
        return self._make("ParallelInterleaveDatasetV4",
                          [self._variant_tensor, fn.captured_inputs, cycle, block, buffered,
                           prefetched, n],
                          {"f": fn, "deterministic": _deterministic(deterministic)}, spec,
                          [self], name)

    def batch(self, batch_size: Any, drop_remainder: Any = False,
              num_parallel_calls: Any = None, deterministic: Optional[bool] = None,
              name: Optional[str] = None) -> "DatasetV1Adapter":
        """Stacks `batch_size` consecutive elements (the last batch may be smaller)."""
        size = _int64(batch_size, "batch_size")
        drop = _bool(drop_remainder, "drop_remainder")
        spec = structure.map_structure(lambda s: _batch_spec(s, size, drop), self.element_spec)
        if num_parallel_calls is None:
            return self._make("BatchDatasetV2", [self._variant_tensor, size, drop],
                              {"parallel_copy": False}, spec, [self], name)
        n = _int64(num_parallel_calls, "num_parallel_calls")
        return self._make("ParallelBatchDataset", [self._variant_tensor, size, n, drop],
                          {"parallel_copy": False,
                           "deterministic": _deterministic(deterministic)},
                          spec, [self], name)

    def ragged_batch(self, batch_size: Any, drop_remainder: Any = False,
                     row_splits_dtype: Any = D.int64, name: Optional[str] = None
                     ) -> "DatasetV1Adapter":
        """Batches elements of different shapes into RaggedTensors (data/ragged.py)."""
        from tf1compat.data.ragged import ragged_batch
        return ragged_batch(self, batch_size, drop_remainder, row_splits_dtype, name)

    def padded_batch(self, batch_size: Any, padded_shapes: Any = None,
                     padding_values: Any = None, drop_remainder: Any = False,
                     name: Optional[str] = None) -> "DatasetV1Adapter":
        """Batches elements padded to `padded_shapes` (None dims: the batch's longest)."""
        from tf1compat.data.padded_batch import padded_batch
        return padded_batch(self, batch_size, padded_shapes, padding_values, drop_remainder,
                            name)

    def unbatch(self, name: Optional[str] = None) -> "DatasetV1Adapter":
        """Splits each element into the slices along its first dimension."""
        for spec in structure.flatten(self.element_spec):
            if spec.shape.rank == 0:
                raise ValueError("Cannot unbatch an input with scalar components.")
        spec = structure.map_structure(_unbatch_spec, self.element_spec)
        if any(isinstance(s, RaggedTensorSpec) for s in structure.flatten(spec)):
            normalized = batched_encoding(self)
        else:
            normalized = self.map(_normalize)
        return normalized._make("UnbatchDataset", [normalized._variant_tensor], {}, spec,
                                [normalized], name)

    def shuffle(self, buffer_size: Any, seed: Optional[int] = None,
                reshuffle_each_iteration: Optional[bool] = None,
                name: Optional[str] = None) -> "DatasetV1Adapter":
        """Draws elements at random from a buffer of `buffer_size` (TF's exact order)."""
        size = _int64(buffer_size, "buffer_size")
        seed_t, seed2_t = dataset_seeds(seed)
        if reshuffle_each_iteration is None:
            reshuffle_each_iteration = True
        return self._make("ShuffleDataset", [self._variant_tensor, size, seed_t, seed2_t],
                          {"reshuffle_each_iteration": bool(reshuffle_each_iteration)},
                          self.element_spec, [self], name)

    def repeat(self, count: Any = None, name: Optional[str] = None) -> "DatasetV1Adapter":
        """`count` passes over the dataset (forever when None or -1)."""
        n = _int64(-1 if count is None else count, "count")
        return self._make("RepeatDataset", [self._variant_tensor, n], {}, self.element_spec,
                          [self], name)

    def take(self, count: Any, name: Optional[str] = None) -> "DatasetV1Adapter":
        n = _int64(count, "count")
        return self._make("TakeDataset", [self._variant_tensor, n], {}, self.element_spec,
                          [self], name)

    def skip(self, count: Any, name: Optional[str] = None) -> "DatasetV1Adapter":
        n = _int64(count, "count")
        return self._make("SkipDataset", [self._variant_tensor, n], {}, self.element_spec,
                          [self], name)

    def shard(self, num_shards: Any, index: Any, name: Optional[str] = None
              ) -> "DatasetV1Adapter":
        n = _int64(num_shards, "num_shards")
        i = _int64(index, "index")
        return self._make("ShardDataset", [self._variant_tensor, n, i],
                          {"require_non_empty": False}, self.element_spec, [self], name)

    def prefetch(self, buffer_size: Any = None, name: Optional[str] = None
                 ) -> "DatasetV1Adapter":
        """Elements unchanged (tf1compat computes them on demand; prefetching is moot)."""
        n = _int64(AUTOTUNE if buffer_size is None else buffer_size, "buffer_size")
        return self._make("PrefetchDataset", [self._variant_tensor, n], {},
                          self.element_spec, [self], name)

    def cache(self, filename: Any = "", name: Optional[str] = None) -> "DatasetV1Adapter":
        """Records the first complete pass in memory (or in files `filename.*`)."""
        f = convert_to_tensor(filename, dtype=D.string, name="filename")
        return self._make("CacheDataset", [self._variant_tensor, f], {}, self.element_spec,
                          [self], name)

    def window(self, size: Any, shift: Any = None, stride: Any = 1,
               drop_remainder: Any = False, name: Optional[str] = None
               ) -> "DatasetV1Adapter":
        """Windows of `size` elements as nested datasets (one per component)."""
        if shift is None:
            shift = size
        size_t = _int64(size, "size")
        shift_t = _int64(shift, "shift")
        stride_t = _int64(stride, "stride")
        drop = _bool(drop_remainder, "drop_remainder")
        spec = structure.map_structure(lambda s: DatasetSpec(s), self.element_spec)
        return self._make("WindowDataset", [self._variant_tensor, size_t, shift_t, stride_t,
                                            drop], {}, spec, [self], name)

    def enumerate(self, start: Any = 0, name: Optional[str] = None) -> "DatasetV1Adapter":
        """(index, element) pairs, counting from `start`."""
        max_value = np.iinfo(np.int64).max
        from tf1compat.data.experimental_transforms import replicate_on_split
        counter = replicate_on_split(DatasetV1.range(start, max_value))
        return DatasetV1.zip((counter, self))

    def apply(self, transformation_func: Callable[["DatasetV2"], "DatasetV2"]
              ) -> "DatasetV1Adapter":
        """`transformation_func(self)`, which must return a Dataset."""
        dataset = transformation_func(self)
        if not isinstance(dataset, DatasetV2):
            raise TypeError(f"`transformation_func` must return a `tf.data.Dataset` object. "
                            f"Got {type(dataset)}.")
        if isinstance(dataset, DatasetV1Adapter):
            return dataset
        return DatasetV1Adapter(dataset._variant_tensor, dataset.element_spec,
                                dataset._inputs())

    def with_options(self, options: Any, name: Optional[str] = None) -> "DatasetV1Adapter":
        """The elements unchanged; `options()` of the result (and of datasets made from
        it) includes these (a multi-worker strategy reads their auto-shard policy)."""
        dataset = self._make("OptionsDataset", [self._variant_tensor],
                             {"serialized_options": b""}, self.element_spec, [self], name)
        dataset._given_options = options
        return dataset

    def options(self) -> Any:
        """The options given along the input pipeline, later ones overriding (TF)."""
        from tf1compat.data.experimental import Options
        given: List[Any] = []
        pending, seen = [self], set()
        while pending:
            dataset = pending.pop()
            if id(dataset) in seen:
                continue
            seen.add(id(dataset))
            if getattr(dataset, "_given_options", None) is not None:
                given.append(dataset._given_options)
            pending.extend(dataset._inputs())
        merged = Options()
        for options in reversed(given):
            merged = merged.merge(options)
        return merged

    def reduce(self, initial_state: Any, reduce_func: Callable[..., Any],
               name: Optional[str] = None) -> Any:
        """Folds the dataset: `state = reduce_func(state, element)` from `initial_state`;
        the final state (one ReduceDataset op, see data/reduce.py)."""
        from tf1compat.data.reduce import reduce_dataset
        return reduce_dataset(self, initial_state, reduce_func, name)

    # -- TF 2's methods for tf.data.experimental's transformations (experimental_*.py) ----------
    def take_while(self, predicate: Callable[..., Any], name: Optional[str] = None) -> Any:
        """The elements up to the first one for which `predicate` is False."""
        from tf1compat.data.experimental_transforms import take_while_dataset
        return take_while_dataset(self, predicate, name)

    def cardinality(self) -> Any:
        """The number of elements (int64 scalar; -1 infinite, -2 unknown)."""
        from tf1compat.data.experimental_transforms import cardinality
        return cardinality(self)

    def scan(self, initial_state: Any, scan_func: Callable[..., Any],
             name: Optional[str] = None) -> Any:
        from tf1compat.data.experimental_transforms import scan_dataset
        return scan_dataset(self, initial_state, scan_func, name)

    def unique(self, name: Optional[str] = None) -> Any:
        from tf1compat.data.experimental_transforms import unique_dataset
        return unique_dataset(self, name)

    def group_by_window(self, key_func: Callable[..., Any], reduce_func: Callable[..., Any],
                        window_size: Any = None, window_size_func: Any = None,
                        name: Optional[str] = None) -> Any:
        from tf1compat.data.experimental_transforms import group_by_window_dataset
        return group_by_window_dataset(self, key_func, reduce_func, window_size,
                                       window_size_func, name)

    def get_single_element(self, name: Optional[str] = None) -> Any:
        from tf1compat.data.experimental_transforms import single_element
        return single_element(self, name)

    def ignore_errors(self, log_warning: bool = False, name: Optional[str] = None) -> Any:
        from tf1compat.data.experimental import ignore_errors
        return ignore_errors(log_warning)(self)

    @staticmethod
    def sample_from_datasets(datasets: Any, weights: Any = None, seed: Optional[int] = None,
                             stop_on_empty_dataset: bool = False) -> Any:
        from tf1compat.data.experimental_transforms import sample_from_datasets
        return sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)

    @staticmethod
    def choose_from_datasets(datasets: Any, choice_dataset: Any,
                             stop_on_empty_dataset: bool = True) -> Any:
        from tf1compat.data.experimental_transforms import choose_from_datasets
        return choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def random(seed: Optional[int] = None, name: Optional[str] = None) -> Any:
        from tf1compat.data.experimental_transforms import RandomDataset
        return RandomDataset(seed)

    @staticmethod
    def counter(start: Any = 0, step: Any = 1, dtype: Any = D.int64,
                name: Optional[str] = None) -> Any:
        from tf1compat.data.experimental_transforms import Counter
        return Counter(start, step, dtype)


class DatasetV1(DatasetV2):
    """`tf.data.Dataset` of TF1: adds the legacy structure properties and iterators."""

    @property
    def output_types(self) -> Any:
        return structure.legacy_types(self.element_spec)

    @property
    def output_shapes(self) -> Any:
        return structure.legacy_shapes(self.element_spec)

    @property
    def output_classes(self) -> Any:
        return structure.legacy_classes(self.element_spec)

    def make_one_shot_iterator(self) -> Any:
        """An iterator that builds this dataset once per session on first use."""
        from tf1compat.data.iterator_ops import make_one_shot
        return make_one_shot(self)

    def make_initializable_iterator(self, shared_name: Optional[str] = None) -> Any:
        """An iterator that `iterator.initializer` (re)starts over this dataset."""
        from tf1compat.data.iterator_ops import make_initializable
        return make_initializable(self, shared_name)


class DatasetV1Adapter(DatasetV1):
    """A dataset built by a transformation (TF wraps V2 datasets in this class)."""


Dataset = DatasetV1     # what `tensorflow.python.data.ops.dataset_ops.Dataset` code expects


class VariantDataset(DatasetV1Adapter):
    """A dataset given as a variant tensor and its structure (a function argument)."""

    def __init__(self, variant: Tensor, element_spec: Any):
        super().__init__(variant, element_spec, [])


# -- helpers -----------------------------------------------------------------------------------

def _deterministic(value: Optional[bool]) -> str:
    return "default" if value is None else ("true" if value else "false")


def _normalize(*args: Any) -> Any:
    return args[0] if len(args) == 1 else args


_normalize.__name__ = "normalize"


def _dataset_result(fn: StructuredFunction) -> Any:
    out = fn.output_structure
    if not isinstance(out, DatasetSpec):
        raise AttributeError(f"The `map_func` argument must return a `Dataset` object. Got "
                             f"{out!r}.")
    return out.element_spec


def _common_supertype(a: Any, b: Any) -> Any:
    if type(a) is not type(b) or a.dtype != b.dtype:
        raise TypeError(f"No common supertype of {a} and {b}.")
    return a.most_specific_compatible_type(b)


def _unbatch_spec(spec: Any) -> Any:
    shape = spec.shape
    inner = TensorShape(None) if shape.rank is None else TensorShape(shape.as_list()[1:])
    if isinstance(spec, SparseTensorSpec):
        return SparseTensorSpec(inner, spec.dtype)
    if isinstance(spec, RaggedTensorSpec):
        check_ragged_rank(spec._unbatch())
        return spec._unbatch()
    if isinstance(spec, DatasetSpec):
        raise TypeError("Cannot unbatch a dataset of datasets.")
    return TensorSpec(inner, spec.dtype)


def _batch_spec(spec: Any, size: Tensor, drop: Tensor) -> Any:
    known = constant_value(drop)
    dim = None
    if known is not None and bool(known):
        value = constant_value(size)
        dim = None if value is None else int(value)
    if isinstance(spec, DatasetSpec):
        raise TypeError("Batching datasets of datasets is not supported by tf1compat.")
    if isinstance(spec, RaggedTensorSpec):
        check_ragged_rank(spec)
        return spec._batch(dim)
    shape = TensorShape([dim]).concatenate(spec.shape)
    if isinstance(spec, SparseTensorSpec):
        return SparseTensorSpec(shape, spec.dtype)
    return TensorSpec(shape, spec.dtype)


def _to_tensor_list(element: Any, batched: bool) -> List[Tensor]:
    """The graph tensors of an element's components (sparse and ragged ones as variants)."""
    from tf1compat.data.sparse import sparse_component
    out = []
    for value in structure.flatten(element):
        if isinstance(value, SparseTensor):
            out.append(sparse_component(value, batched))
        elif isinstance(value, RaggedTensor):
            out.append(ragged_component(value, batched))
        elif isinstance(value, DatasetV2):
            out.append(value._variant_tensor)
        else:
            out.append(value)
    return out


def dataset_seeds(seed: Optional[int]) -> tuple:
    """tf.data's (seed, seed2) int64 tensors, with TF's op names ("seed", "seed2/...")."""
    from tf1compat.framework.constant_op import constant
    from tf1compat.framework.random_seed import get_seed
    from tf1compat.ops.indexing_ops import where_v2
    from tf1compat.ops.math_ops import equal, logical_and
    op_seed, op_seed2 = get_seed(seed)
    if op_seed is None:
        seed_t = constant(0, dtype=D.int64, name="seed")
    else:
        seed_t = convert_to_tensor(op_seed, dtype=D.int64, name="seed")
    if op_seed2 is None:
        return seed_t, constant(0, dtype=D.int64, name="seed2")
    with name_scope("seed2") as scope:
        seed2_t = convert_to_tensor(op_seed2, dtype=D.int64)
        both_zero = logical_and(equal(seed_t, 0), equal(seed2_t, 0))
        seed2_t = where_v2(both_zero, constant(2**31 - 1, dtype=D.int64), seed2_t,
                                     name=scope)
    return seed_t, seed2_t

