"""`tf.data.experimental` transformations and sources (TF1's compat.v1 names).

Each builds TF's ops (declared in `_experimental_ops.py`): `scan` (ScanDataset),
`take_while`, `unique`, `group_by_window`, `group_by_reducer`, `bucket_by_sequence_length`
(a GroupByWindowDataset of padded batches, as TF), `dense_to_sparse_batch`,
`assert_cardinality` / `cardinality`, `get_single_element`, `Counter` (TF's
TensorDataset -> RepeatDataset -> ScanDataset), `RandomDataset`, `sample_from_datasets`
(TF's graph: RandomDataset -> batch(2) -> StatelessMultinomial map ->
DirectedInterleaveDataset, hence TF's exact draws for a seed) and `choose_from_datasets`.
A transformation is a function of a dataset, for `Dataset.apply`.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.data import _experimental_ops  # noqa: F401 - registers the ops
from tf1compat.data import structure
from tf1compat.data.dataset_ops import (DatasetV1, DatasetV1Adapter, DatasetV2,
                                        _common_supertype, dataset_seeds)
from tf1compat.data.functions import StructuredFunction
from tf1compat.data.structure import DatasetSpec, SparseTensorSpec, TensorSpec

__all__ = ["scan", "take_while", "unique", "group_by_window", "group_by_reducer", "Reducer",
           "bucket_by_sequence_length", "dense_to_sparse_batch", "assert_cardinality",
           "cardinality", "get_single_element", "enumerate_dataset", "Counter",
           "RandomDataset", "sample_from_datasets", "choose_from_datasets", "map_preserving",
           "replicate_on_split"]

_INT64_SCALAR = TensorSpec([], D.int64)


def _is_int64_scalar(spec: Any) -> bool:
    return isinstance(spec, TensorSpec) and spec.dtype == D.int64 and \
        spec.shape.is_compatible_with(TensorShape([]))


def _flat_dtypes(spec: Any) -> list:
    return [s.dtype for s in structure.flatten(spec)]


# -- scan --------------------------------------------------------------------------------------

def _check_new_state(state_spec: Any, new_state: Any, prefix: str, sep: str) -> Any:
    """TF's checks of a fold's new state against its state (TypeError for other classes
    or dtypes); the state weakened to both states' shapes, or None when it holds them."""
    old_flat, new_flat = structure.flatten(state_spec), structure.flatten(new_state)
    if len(old_flat) != len(new_flat) or \
            any(type(a) is not type(b) for a, b in zip(old_flat, new_flat)):
        raise TypeError(f"{prefix}The element classes for the new state must match the "
                        f"initial state. Expected {structure.legacy_classes(state_spec)}{sep} "
                        f"got {structure.legacy_classes(new_state)}.")
    if _flat_dtypes(state_spec) != _flat_dtypes(new_state):
        raise TypeError(f"{prefix}The element types for the new state must match the "
                        f"initial state. Expected {structure.legacy_types(state_spec)}{sep} "
                        f"got {structure.legacy_types(new_state)}.")
    weakened = [a.shape.most_specific_compatible_shape(b.shape)
                for a, b in zip(old_flat, new_flat)]
    if all(a.shape.rank is None or (w.rank is not None and a.shape.as_list() == w.as_list())
           for a, w in zip(old_flat, weakened)):
        return None
    return structure.pack(state_spec, [type(s)(w, s.dtype) for w, s in zip(weakened, old_flat)])


def _scan_function(scan_func: Callable[..., Any], state_spec: Any, element_spec: Any,
                   name: str) -> tuple:
    """Traces `scan_func`, weakening the state's shapes until they stop changing (TF's
    retracing); returns (function, state spec, output spec)."""
    while True:
        fn = StructuredFunction(scan_func, name, (state_spec, element_spec))
        out = fn.output_structure
        if not (isinstance(out, tuple) and len(out) == 2):
            raise TypeError(f"Invalid `scan_func`. `scan_func` should return a pair "
                            f"consisting of new state and the output value but its return "
                            f"type is {out}.")
        new_state, output = out
        weakened = _check_new_state(state_spec, new_state, "Invalid `scan_func`. ", ",")
        if weakened is None:
            return fn, state_spec, output
        state_spec = weakened


def scan_dataset(dataset: DatasetV2, initial_state: Any, scan_func: Callable[..., Any],
                 name: Optional[str] = None) -> DatasetV1Adapter:
    """`dataset.scan(initial_state, scan_func)`: one ScanDataset op."""
    initial_state = structure.normalize_element(initial_state)
    state_spec = structure.type_spec_from_value(initial_state)
    fn, state_spec, output = _scan_function(scan_func, state_spec, dataset.element_spec,
                                            "Dataset.scan()")
    from tf1compat.data.dataset_ops import _to_tensor_list
    return dataset._make("ScanDataset",
                         [dataset._variant_tensor, _to_tensor_list(initial_state, False),
                          fn.captured_inputs],
                         {"f": fn, "preserve_cardinality": True,
                          "use_default_device": True}, output, [dataset], name)


def scan(initial_state: Any, scan_func: Callable[..., Any]) -> Callable[[Any], Any]:
    """A transformation folding `scan_func(state, element) -> (new_state, output)` over
    the dataset from `initial_state`; the outputs are the new dataset's elements."""
    return lambda dataset: scan_dataset(dataset, initial_state, scan_func)


# -- take_while, unique ------------------------------------------------------------------------

def take_while_dataset(dataset: DatasetV2, predicate: Callable[..., Any],
                       name: Optional[str] = None) -> DatasetV1Adapter:
    fn = StructuredFunction(predicate, "Dataset.take_while()", dataset.element_spec)
    out = fn.output_structure
    if not (isinstance(out, TensorSpec) and out.dtype == D.bool and
            out.shape.is_compatible_with(TensorShape([]))):
        raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                         f"tensor but its return type is{out}.")
    return dataset._make("TakeWhileDataset", [dataset._variant_tensor, fn.captured_inputs],
                         {"predicate": fn}, dataset.element_spec, [dataset], name)


def take_while(predicate: Callable[..., Any]) -> Callable[[Any], Any]:
    """A transformation that stops at the first element for which `predicate` is False."""
    return lambda dataset: take_while_dataset(dataset, predicate)


def unique_dataset(dataset: DatasetV2, name: Optional[str] = None) -> DatasetV1Adapter:
    spec = dataset.element_spec
    if not isinstance(spec, TensorSpec):
        raise TypeError("`tf.data.Dataset.unique` does not support the given dataset "
                        "element structure; it only supports datasets whose elements are "
                        "single tensors.")
    if spec.dtype not in (D.int32, D.int64, D.string):
        raise TypeError(f"`tf.data.Dataset.unique` does not support type "
                        f"<dtype: '{spec.dtype.name}'> -- only `tf.int32`, `tf.int64`, and "
                        f"`tf.string` are supported.")
    return dataset._make("UniqueDataset", [dataset._variant_tensor], {}, spec, [dataset], name)


def unique() -> Callable[[Any], Any]:
    """A transformation keeping the first occurrence of each element (int32, int64 or
    string scalars)."""
    return unique_dataset


# -- grouping ----------------------------------------------------------------------------------

def _int64_function(func: Callable[..., Any], name: str, input_structure: Any,
                    what: str) -> StructuredFunction:
    def as_int64(*args: Any) -> Tensor:
        return convert_to_tensor(func(*args), dtype=D.int64)
    as_int64.__name__ = getattr(func, "__name__", "func")
    fn = StructuredFunction(as_int64, name, input_structure)
    if not _is_int64_scalar(fn.output_structure):
        raise ValueError(f"Invalid `{what}`. `{what}` must return a single `tf.int64` "
                         f"scalar tensor but its return type is {fn.output_structure}.")
    return fn


def group_by_window_dataset(dataset: DatasetV2, key_func: Callable[..., Any],
                            reduce_func: Callable[..., Any], window_size: Any = None,
                            window_size_func: Optional[Callable[..., Any]] = None,
                            name: Optional[str] = None) -> DatasetV1Adapter:
    """One GroupByWindowDataset op (see `group_by_window`)."""
    if (window_size is not None and window_size_func) or \
            not (window_size is not None or window_size_func):
        raise ValueError("Either the `window_size` argument or the `window_size_func` "
                         "argument must be specified.")
    if window_size is not None:
        def constant_window_func(unused_key: Any) -> Tensor:
            return convert_to_tensor(window_size, dtype=D.int64)
        window_size_func = constant_window_func
    transformation = "Dataset.group_by_window()"
    key_fn = _int64_function(key_func, transformation, dataset.element_spec, "key_func")
    reduce_fn = StructuredFunction(reduce_func, transformation,
                                   (_INT64_SCALAR, DatasetSpec(dataset.element_spec)))
    if not isinstance(reduce_fn.output_structure, DatasetSpec):
        raise TypeError(f"Invalid `reduce_func`. `reduce_func` must return a single "
                        f"`tf.data.Dataset` object but its return type is "
                        f"{reduce_fn.output_structure}.")
    window_fn = _int64_function(window_size_func, transformation, _INT64_SCALAR,
                                "window_size_func")
    return dataset._make("GroupByWindowDataset",
                         [dataset._variant_tensor, key_fn.captured_inputs,
                          reduce_fn.captured_inputs, window_fn.captured_inputs],
                         {"key_func": key_fn, "reduce_func": reduce_fn,
                          "window_size_func": window_fn},
                         reduce_fn.output_structure.element_spec, [dataset], name)


def group_by_window(key_func: Callable[..., Any], reduce_func: Callable[..., Any],
                    window_size: Any = None,
                    window_size_func: Optional[Callable[..., Any]] = None
                    ) -> Callable[[Any], Any]:
    """Groups elements by `key_func(element)` (an int64 scalar); each full window of a
    group (`window_size`, or `window_size_func(key)`) becomes `reduce_func(key, window)`,
    a dataset whose elements are output. Groups left at the end are reduced too."""
    return lambda dataset: group_by_window_dataset(dataset, key_func, reduce_func,
                                                   window_size, window_size_func)


class Reducer:
    """`tf.data.experimental.Reducer(init_func, reduce_func, finalize_func)`: how
    `group_by_reducer` folds each group."""

    def __init__(self, init_func: Callable[..., Any], reduce_func: Callable[..., Any],
                 finalize_func: Callable[..., Any]):
        self._init_func, self._reduce_func, self._finalize_func = \
            init_func, reduce_func, finalize_func

    @property
    def init_func(self) -> Callable[..., Any]:
        return self._init_func

    @property
    def reduce_func(self) -> Callable[..., Any]:
        return self._reduce_func

    @property
    def finalize_func(self) -> Callable[..., Any]:
        return self._finalize_func


def _reduce_function(reducer: Reducer, state_spec: Any, element_spec: Any,
                     name: str) -> tuple:
    """The reduce function traced until the state's shapes stop changing."""
    while True:
        fn = StructuredFunction(reducer.reduce_func, name, (state_spec, element_spec))
        weakened = _check_new_state(state_spec, fn.output_structure, "", ";")
        if weakened is None:
            return fn, state_spec
        state_spec = weakened


def group_by_reducer(key_func: Callable[..., Any], reducer: Reducer) -> Callable[[Any], Any]:
    """Groups elements by `key_func` and folds each group with `reducer`: one element per
    key, `finalize_func(state)`, once the input is exhausted."""
    def apply(dataset: DatasetV2) -> DatasetV1Adapter:
        name = "tf.data.experimental.group_by_reducer()"
        key_fn = _int64_function(key_func, name, dataset.element_spec, "key_func")
        init_fn = StructuredFunction(reducer.init_func, name, _INT64_SCALAR)
        reduce_fn, state_spec = _reduce_function(reducer, init_fn.output_structure,
                                                 dataset.element_spec, name)
        finalize_fn = StructuredFunction(reducer.finalize_func, name, state_spec)
        return dataset._make("ExperimentalGroupByReducerDataset",
                             [dataset._variant_tensor, key_fn.captured_inputs,
                              init_fn.captured_inputs, reduce_fn.captured_inputs,
                              finalize_fn.captured_inputs],
                             {"key_func": key_fn, "init_func": init_fn,
                              "reduce_func": reduce_fn, "finalize_func": finalize_fn},
                             finalize_fn.output_structure, [dataset])
    return apply


def bucket_by_sequence_length(element_length_func: Callable[..., Any],
                              bucket_boundaries: Sequence[int],
                              bucket_batch_sizes: Sequence[int], padded_shapes: Any = None,
                              padding_values: Any = None, pad_to_bucket_boundary: bool = False,
                              no_padding: bool = False, drop_remainder: bool = False
                              ) -> Callable[[Any], Any]:
    """Batches elements of similar length (`element_length_func`) together: bucket i
    holds lengths in [boundaries[i-1], boundaries[i]) and is batched (padded) by
    `bucket_batch_sizes[i]`; TF's group_by_window graph."""
    def apply(dataset: DatasetV2) -> DatasetV1Adapter:
        if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
            raise ValueError(f"`len(bucket_batch_sizes)` must equal "
                             f"`len(bucket_boundaries) + 1` but "
                             f"`len(bucket_batch_sizes)={len(bucket_batch_sizes)}` and "
                             f"`len(bucket_boundaries)={len(bucket_boundaries)}`.")
        from tf1compat.framework.constant_op import constant
        from tf1compat.ops import check_ops
        from tf1compat.ops.indexing_ops import where_v2
        from tf1compat.ops.math_ops import less, less_equal, logical_and
        from tf1compat.ops.reduction_ops import reduce_min
        from tf1compat.framework.graph import control_dependencies
        batch_sizes = constant(list(bucket_batch_sizes), dtype=D.int64)

        def element_to_bucket_id(*args: Any) -> Tensor:
            length = element_length_func(*args)
            boundaries = list(bucket_boundaries)
            low = [np.iinfo(np.int32).min] + boundaries
            high = boundaries + [np.iinfo(np.int32).max]
            inside = logical_and(less_equal(low, length), less(length, high))
            return reduce_min(where_v2(inside))

        def window_size_fn(bucket_id: Tensor) -> Tensor:
            return batch_sizes[bucket_id]

        def padded(shapes: Any, filler: Any) -> Any:
            flat = [[filler if d is None else d for d in TensorShape(s).as_list()]
                    for s in structure.flatten(shapes)]
            return structure.pack(shapes, flat)

        def batching_fn(bucket_id: Tensor, grouped: DatasetV2) -> DatasetV2:
            batch_size = window_size_fn(bucket_id)
            if no_padding:
                return grouped.batch(batch_size, drop_remainder=drop_remainder)
            filler = None
            if pad_to_bucket_boundary:
                check = check_ops.assert_less(
                    bucket_id, constant(len(bucket_batch_sizes) - 1, dtype=D.int64),
                    message="When pad_to_bucket_boundary=True, elements must have length "
                            "< max(bucket_boundaries).")
                with control_dependencies([check]):
                    boundaries = constant(list(bucket_boundaries), dtype=D.int64)
                    filler = boundaries[bucket_id] - 1
            shapes = padded(padded_shapes or structure.legacy_shapes(grouped.element_spec),
                            filler)
            return grouped.padded_batch(batch_size, shapes, padding_values,
                                        drop_remainder=drop_remainder)

        return group_by_window_dataset(dataset, element_to_bucket_id, batching_fn,
                                       window_size_func=window_size_fn)
    return apply


# -- batching to sparse ------------------------------------------------------------------------

def dense_to_sparse_batch(batch_size: Any, row_shape: Any) -> Callable[[Any], Any]:
    """Batches dense elements into SparseTensors of dense shape [batch, *row_shape]."""
    def apply(dataset: DatasetV2) -> DatasetV1Adapter:
        spec = dataset.element_spec
        if not isinstance(spec, TensorSpec):
            raise TypeError("dense_to_sparse_batch needs a dataset of single dense tensors, "
                            f"got {spec}.")
        if isinstance(row_shape, Tensor):
            from tf1compat.framework.constant_value import constant_value
            known = constant_value(row_shape)
            dims = TensorShape(None) if known is None else \
                TensorShape([None if d < 0 else int(d) for d in np.reshape(known, -1)])
            shape = convert_to_tensor(row_shape, dtype=D.int64)
        else:
            dims = TensorShape(row_shape)        # TF's ValueError for negative dimensions
            shape = convert_to_tensor([-1 if d is None else d for d in dims.as_list()],
                                      dtype=D.int64)
        out = SparseTensorSpec(TensorShape([None]).concatenate(dims), spec.dtype)
        with name_scope("DenseToSparseBatchDataset") as scope:
            size = convert_to_tensor(batch_size, dtype=D.int64, name="batch_size")
            return dataset._make("DenseToSparseBatchDataset",
                                 [dataset._variant_tensor, size, shape], {}, out, [dataset],
                                 name=scope)
    return apply


# -- cardinality, single elements --------------------------------------------------------------

def cardinality(dataset: DatasetV2) -> Tensor:
    """The number of elements as an int64 scalar tensor (INFINITE_CARDINALITY -1,
    UNKNOWN_CARDINALITY -2)."""
    return apply_op("DatasetCardinality", [dataset._variant_tensor], {})._outputs[0]


def assert_cardinality(expected_cardinality: Any) -> Callable[[Any], Any]:
    """A transformation that fails (FailedPreconditionError) when the dataset does not
    have `expected_cardinality` elements; `cardinality()` then reports that number."""
    def apply(dataset: DatasetV2) -> DatasetV1Adapter:
        n = convert_to_tensor(expected_cardinality, dtype=D.int64,
                              name="expected_cardinality")
        return dataset._make("AssertCardinalityDataset", [dataset._variant_tensor, n], {},
                             dataset.element_spec, [dataset])
    return apply


def get_single_element(dataset: DatasetV2) -> Any:
    """The only element of `dataset` as tensors (InvalidArgumentError at run time when the
    dataset is empty or has more elements)."""
    return single_element(dataset)


def single_element(dataset: DatasetV2, name: Optional[str] = None) -> Any:
    """`get_single_element` with the op's name (`Dataset.get_single_element(name=)`)."""
    if not isinstance(dataset, DatasetV2):
        raise TypeError(f"Invalid `dataset`. Expected a `tf.data.Dataset` object but got "
                        f"{type(dataset)}.")
    spec = dataset.element_spec
    flat = structure.flatten(spec)
    types, shapes = [], []
    for s in flat:
        if isinstance(s, SparseTensorSpec):
            types.append(D.variant)
            shapes.append(TensorShape([3]))
        else:
            types.append(s.dtype if isinstance(s, TensorSpec) else D.variant)
            shapes.append(s.shape if isinstance(s, TensorSpec) else TensorShape([]))
    op = apply_op("DatasetToSingleElement", [dataset._variant_tensor],
                  {"output_types": types, "output_shapes": shapes}, name)
    from tf1compat.data.iterator_ops import _from_tensor_list
    return _from_tensor_list(spec, list(op._outputs))


def enumerate_dataset(start: Any = 0) -> Callable[[Any], Any]:
    """A transformation pairing each element with its index: `(index, element)`."""
    return lambda dataset: dataset.enumerate(start)


# -- sources -----------------------------------------------------------------------------------

def Counter(start: Any = 0, step: Any = 1, dtype: Any = D.int64  # noqa: N802 - TF's name
            ) -> DatasetV1Adapter:
    """`start, start + step, ...` forever (TF's graph: a repeated TensorDataset scanned)."""
    with name_scope("counter"):
        start = convert_to_tensor(start, dtype=dtype, name="start")
        step = convert_to_tensor(step, dtype=dtype, name="step")
        forever = DatasetV1.from_tensors(0).repeat(None)
        return scan_dataset(forever, start, lambda state, _: (state + step, state))


class RandomDataset(DatasetV1Adapter):
    """`tf.data.experimental.RandomDataset(seed)`: int64 scalars, TF's Philox words for
    the seed (the same values as TF for a given graph or op seed)."""

    def __init__(self, seed: Optional[int] = None):
        seed_t, seed2_t = dataset_seeds(seed)
        op = apply_op("RandomDataset", [seed_t, seed2_t],
                      {"output_types": [D.int64], "output_shapes": [TensorShape([])]})
        super().__init__(op._outputs[0], TensorSpec([], D.int64), [])


def _directed_interleave(selector: DatasetV2, datasets: Sequence[DatasetV2],
                         stop_on_empty_dataset: bool) -> DatasetV1Adapter:
    spec = datasets[0].element_spec
    for i, ds in enumerate(datasets[1:]):
        try:
            spec = structure.map_structure(_common_supertype, spec, ds.element_spec)
        except (TypeError, ValueError) as e:
            raise TypeError(f"Invalid `datasets`. `datasets` must have compatible element "
                            f"specs.\n Dataset 0 element_spec={datasets[0].element_spec}.\n"
                            f"Dataset {i + 1} element_spec={ds.element_spec}.") from e
    return selector._make("DirectedInterleaveDataset",
                          [selector._variant_tensor, [d._variant_tensor for d in datasets]],
                          {"stop_on_empty_dataset": bool(stop_on_empty_dataset)}, spec,
                          [selector] + list(datasets))


def map_preserving(dataset: DatasetV2, func: Callable[..., Any]) -> DatasetV1Adapter:
    """TF's internal `_MapDataset(use_inter_op_parallelism=False)`: a MapDataset that keeps
    its input's cardinality (TF's own pipelines build their maps this way)."""
    fn = StructuredFunction(func, "Dataset.map()", dataset.element_spec)
    return dataset._make("MapDataset", [dataset._variant_tensor, fn.captured_inputs],
                         {"f": fn, "use_inter_op_parallelism": False,
                          "preserve_cardinality": True, "force_synchronous": False},
                         fn.output_structure, [dataset])


def _draw(logits: Any, seed: Tensor) -> Tensor:
    from tf1compat.ops.array_ops import squeeze
    samples = convert_to_tensor(1, dtype=D.int32)
    drawn = apply_op("StatelessMultinomial", [logits, samples, seed],
                     {"output_dtype": D.int64})._outputs[0]
    return squeeze(drawn, axis=[0, 1])


def sample_from_datasets(datasets: Sequence[DatasetV2], weights: Any = None,
                         seed: Optional[int] = None, stop_on_empty_dataset: bool = False
                         ) -> DatasetV1Adapter:
    """Elements drawn at random from `datasets` with probabilities `weights` (a list, a
    tensor, or a dataset of weight vectors); seeded draws are TF's."""
    from tf1compat.ops.array_ops import expand_dims
    from tf1compat.ops.math_ops import log
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    datasets = list(datasets)
    if not isinstance(weights, DatasetV2):
        if weights is None:
            logits: Any = [[1.0] * len(datasets)]
        else:
            if isinstance(weights, Tensor):
                if not weights.shape.is_compatible_with([len(datasets)]):
                    raise ValueError(f"Invalid `weights`. The shape of `weights` should be "
                                     f"compatible with `[len(datasets)]` but is "
                                     f"{weights.shape}.")
            else:
                if len(datasets) != len(weights):
                    raise ValueError(f"Invalid `weights`. `weights` should have the same "
                                     f"length as `datasets` but got "
                                     f"`len(weights)={len(weights)}` vs. "
                                     f"`len(datasets)={len(datasets)}`.")
                kept = [(d, w) for d, w in zip(datasets, weights) if w > 0]
                datasets, weights = ([d for d, _ in kept], [w for _, w in kept]) if kept \
                    else ([datasets[0].take(0)], [1.0])
            weights = convert_to_tensor(weights, name="weights")
            if weights.dtype not in (D.float32, D.float64):
                raise TypeError(f"Invalid `weights`. `weights` type must be either "
                                f"`tf.float32` or `tf.float64` but is {weights.dtype}.")
            logits = expand_dims(log(weights, name="logits"), 0)
        if len(datasets) == 1:
            return datasets[0]
        selector = map_preserving(RandomDataset(seed).batch(2),
                               lambda seed_pair: _draw(logits, seed_pair))
    else:
        logits_ds = weights.map(lambda *p: log(p, name="logits"))
        pairs = DatasetV1.zip((logits_ds, RandomDataset(seed).batch(2)))
        selector = map_preserving(pairs, _draw)
    return _directed_interleave(selector, datasets, stop_on_empty_dataset)


def choose_from_datasets(datasets: Sequence[DatasetV2], choice_dataset: DatasetV2,
                         stop_on_empty_dataset: bool = False) -> DatasetV1Adapter:
    """Element i comes from `datasets[choice_dataset[i]]` (int64 scalars)."""
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if not isinstance(choice_dataset, DatasetV2):
        raise TypeError(f"Invalid `choice_dataset`. `choice_dataset` should be a "
                        f"`tf.data.Dataset` but is {type(choice_dataset)}.")
    if not _is_int64_scalar(choice_dataset.element_spec):
        raise TypeError(f"Invalid `choice_dataset`. Elements of `choice_dataset` must be "
                        f"scalar `tf.int64` tensors but are {choice_dataset.element_spec}.")
    return _directed_interleave(replicate_on_split(choice_dataset), list(datasets),
                                stop_on_empty_dataset)


def replicate_on_split(dataset: DatasetV2) -> DatasetV1Adapter:
    """TF's `apply_rewrite(dataset, "replicate_on_split")`: a RewriteDataset op, elements
    unchanged (op "RewriteDataset", its constant "RewriteDataset/rewrite_name")."""
    with name_scope("RewriteDataset") as scope:
        rewrite = convert_to_tensor("replicate_on_split", dtype=D.string, name="rewrite_name")
        return dataset._make("RewriteDataset", [dataset._variant_tensor, rewrite], {},
                             dataset.element_spec, [dataset], name=scope)
