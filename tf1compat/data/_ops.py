"""Declarations of the dataset ops (TF's op types, inputs and attrs) and their kernels.

A dataset op's output is a scalar `variant`; its kernel returns a run-time dataset
(`_runtime.py`) built from its input values. Ops that carry a function (MapDataset's
`f`, FilterDataset's `predicate`, ...) hold the `StructuredFunction` in that attr; the
kernel binds it to the session (compiled once per session) and the function's captured
outer tensors arrive as the op's `other_arguments`. All dataset ops run on the CPU.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Sequence

import numpy as np
import torch

from tf1compat.framework.op_def import Int, TypeList, declare
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.data import _runtime as rt
from tf1compat.data._gather import batch_value
from tf1compat.data._shuffle import ShuffleValue
from tf1compat.data.functions import StructuredFunction

__all__ = ["DATASET_OP_TYPES", "dataset_function", "scalar_int", "scalar_bool", "scalar_bytes"]

# Op types whose outputs are datasets: make_one_shot_iterator may capture them by value.
DATASET_OP_TYPES: set = set()


def scalar_int(value: Any) -> int:
    return int(value.item() if isinstance(value, torch.Tensor) else value)


def scalar_bool(value: Any) -> bool:
    return bool(value.item() if isinstance(value, torch.Tensor) else value)


def scalar_bytes(value: Any) -> bytes:
    if isinstance(value, np.ndarray):
        value = value.reshape(-1)[0] if value.size == 1 else value[()]
    return value.encode() if isinstance(value, str) else bytes(value)


def _scalar_shape(ctx: Any) -> List[TensorShape]:
    return [TensorShape([])]


# The element-spec attrs of every dataset op; most (not all: TF 2.21's
# AssertCardinalityDataset, DirectedInterleaveDataset, SqlDataset, ... have none) also
# carry `metadata`.
ELEMENT_SPEC_ATTRS = {"output_types": [], "output_shapes": []}
_COMMON = {**ELEMENT_SPEC_ATTRS, "metadata": ""}


def dataset_op(op_type: str, inputs: Sequence[str], make: Callable[..., Any],
               attrs: Dict[str, Any] = None, common: bool = True) -> None:
    """Declares a dataset op whose kernel is `make(node, kctx, *input values)`."""
    full = dict(_COMMON) if common else {}
    full.update(attrs or {})

    declare(op_type, inputs=list(inputs), outputs=["handle: variant"], attrs=full,
            shape=_scalar_shape, kernel=make, grad="none", cpu_only=True,
            doc=f"tf.data's {op_type}: its variant output is a run-time dataset.")
    DATASET_OP_TYPES.add(op_type)


def dataset_function(node: Any, kctx: Any, attr: str = "f"
                     ) -> Callable[[tuple, tuple], tuple]:
    """`call(element, captures) -> element` for the op's function attr: a traced
    StructuredFunction, or a function of an imported graph's library (whose arguments are
    the flat element components followed by the captures, as TF's)."""
    function = node.attrs[attr]
    if isinstance(function, StructuredFunction):
        return function.bind(kctx)
    call = function.bind(kctx, on_cpu=True)
    return lambda element, captures: tuple(call(tuple(element) + tuple(captures)))


# -- sources -----------------------------------------------------------------------------------

dataset_op("TensorDataset", ["components: Toutput_types"],
           lambda node, kctx: lambda *c: rt.TensorValue(c),
           {"Toutput_types": TypeList()}, common=False)


def _slices(node: Any, kctx: Any) -> Callable[..., Any]:
    return lambda *c: rt.TensorSliceValue(c)


dataset_op("TensorSliceDataset", ["components: Toutput_types"], _slices,
           {"Toutput_types": TypeList(), "output_shapes": [], "metadata": "",
            "is_files": False, "replicate_on_split": False}, common=False)


def _range(node: Any, kctx: Any) -> Callable[..., Any]:
    from tf1compat.framework import dtypes as D
    dtype = D.as_dtype(node.attrs["output_types"][0]).torch_dtype
    return lambda start, stop, step: rt.RangeValue(scalar_int(start), scalar_int(stop),
                                                   scalar_int(step), dtype)


dataset_op("RangeDataset", ["start: int64", "stop: int64", "step: int64"], _range,
           {"replicate_on_split": False})

# -- combining ---------------------------------------------------------------------------------

dataset_op("ZipDataset", ["input_datasets: N * variant"],
           lambda node, kctx: lambda *ds: rt.ZipValue(ds), {"N": Int(minimum=1)})
dataset_op("ConcatenateDataset", ["input_dataset: variant", "another_dataset: variant"],
           lambda node, kctx: lambda a, b: rt.ConcatenateValue(a, b))

# -- functions ---------------------------------------------------------------------------------

_FN_ATTRS = {"Targuments": TypeList(default=[]), "f": None}


def _map(node: Any, kctx: Any) -> Callable[..., Any]:
    fn = dataset_function(node, kctx)
    preserve = bool(node.attrs["preserve_cardinality"])
    return lambda ds, *caps: rt.MapValue(ds, fn, caps, preserve)


dataset_op("MapDataset", ["input_dataset: variant", "other_arguments: Targuments"], _map,
           {**_FN_ATTRS, "use_inter_op_parallelism": True, "preserve_cardinality": False,
            "force_synchronous": False})


def _parallel_map(node: Any, kctx: Any) -> Callable[..., Any]:
    fn = dataset_function(node, kctx)
    preserve = bool(node.attrs["preserve_cardinality"])
    return lambda ds, *rest: rt.MapValue(ds, fn, rest[:-1], preserve)


dataset_op("ParallelMapDatasetV2", ["input_dataset: variant", "other_arguments: Targuments",
                                    "num_parallel_calls: int64"], _parallel_map,
           {**_FN_ATTRS, "use_inter_op_parallelism": True, "preserve_cardinality": False,
            "deterministic": "default"})


def _filter(node: Any, kctx: Any) -> Callable[..., Any]:
    fn = dataset_function(node, kctx, "predicate")
    return lambda ds, *caps: rt.FilterValue(ds, fn, caps)


dataset_op("FilterDataset", ["input_dataset: variant", "other_arguments: Targuments"],
           _filter, {"Targuments": TypeList(default=[]), "predicate": None})


def _flat_map(node: Any, kctx: Any) -> Callable[..., Any]:
    fn = dataset_function(node, kctx)
    return lambda ds, *caps: rt.FlatMapValue(ds, fn, caps)


dataset_op("FlatMapDataset", ["input_dataset: variant", "other_arguments: Targuments"],
           _flat_map, _FN_ATTRS)


def _interleave(extra: int) -> Callable[..., Any]:
    """InterleaveDataset and its parallel variants: same deterministic order."""
    def make(node: Any, kctx: Any) -> Callable[..., Any]:
        fn = dataset_function(node, kctx)
        n_caps = len(node.attrs.get("Targuments", []))

        def run(ds: Any, *rest: Any) -> Any:
            caps, tail = rest[:n_caps], rest[n_caps:]
            return rt.InterleaveValue(ds, fn, caps, scalar_int(tail[0]), scalar_int(tail[1]))
        return run
    return make


dataset_op("InterleaveDataset", ["input_dataset: variant", "other_arguments: Targuments",
                                 "cycle_length: int64", "block_length: int64"],
           _interleave(2), _FN_ATTRS)
dataset_op("ParallelInterleaveDatasetV4",
           ["input_dataset: variant", "other_arguments: Targuments", "cycle_length: int64",
            "block_length: int64", "buffer_output_elements: int64",
            "prefetch_input_elements: int64", "num_parallel_calls: int64"],
           _interleave(5), {**_FN_ATTRS, "deterministic": "default"})
dataset_op("LegacyParallelInterleaveDatasetV2",
           ["input_dataset: variant", "other_arguments: Targuments", "cycle_length: int64",
            "block_length: int64", "buffer_output_elements: int64",
            "prefetch_input_elements: int64"],
           _interleave(4), {**_FN_ATTRS, "deterministic": "default"})


def _map_and_batch(node: Any, kctx: Any) -> Callable[..., Any]:
    fn = dataset_function(node, kctx)
    n_caps = len(node.attrs.get("Targuments", []))

    def run(ds: Any, *rest: Any) -> Any:
        caps, (batch_size, _, drop) = rest[:n_caps], rest[n_caps:]
        return rt.BatchValue(rt.MapValue(ds, fn, caps, True), scalar_int(batch_size),
                             scalar_bool(drop))
    return run


dataset_op("MapAndBatchDataset", ["input_dataset: variant", "other_arguments: Targuments",
                                  "batch_size: int64", "num_parallel_calls: int64",
                                  "drop_remainder: bool"], _map_and_batch,
           {**_FN_ATTRS, "preserve_cardinality": False})

# -- batching ----------------------------------------------------------------------------------

dataset_op("BatchDatasetV2", ["input_dataset: variant", "batch_size: int64",
                              "drop_remainder: bool"],
           lambda node, kctx: lambda ds, n, drop: batch_value(ds, scalar_int(n),
                                                              scalar_bool(drop)),
           {"parallel_copy": False})


def _padded_batch(node: Any, kctx: Any) -> Callable[..., Any]:
    n = node.attrs["N"]

    def run(ds: Any, batch_size: Any, *rest: Any) -> Any:
        shapes = [[int(d) for d in s.reshape(-1).tolist()] for s in rest[:n]]
        pads = [v.item() if isinstance(v, torch.Tensor) else scalar_bytes(v)
                for v in rest[n:2 * n]]
        return rt.PaddedBatchValue(ds, scalar_int(batch_size), shapes, pads,
                                   scalar_bool(rest[2 * n]))
    return run


dataset_op("PaddedBatchDatasetV2", ["input_dataset: variant", "batch_size: int64",
                                    "padded_shapes: N * int64",
                                    "padding_values: Toutput_types", "drop_remainder: bool"],
           _padded_batch, {"N": Int(minimum=1), "Toutput_types": TypeList(),
                           "parallel_copy": False, "output_shapes": [], "metadata": ""},
           common=False)
dataset_op("UnbatchDataset", ["input_dataset: variant"],
           lambda node, kctx: lambda ds: rt.UnbatchValue(ds))

# -- order and count ---------------------------------------------------------------------------


def _shuffle(node: Any, kctx: Any) -> Callable[..., Any]:
    reshuffle = bool(node.attrs["reshuffle_each_iteration"])

    def run(ds: Any, buffer_size: Any, seed: Any, seed2: Any, count: Any = None) -> Any:
        shuffled = ShuffleValue(ds, scalar_int(buffer_size), scalar_int(seed),
                                   scalar_int(seed2), reshuffle)
        if count is None:
            return shuffled
        # ShuffleAndRepeat: TF 2.21 gives exactly shuffle().repeat()'s order (each epoch
        # a fresh buffer with seeds drawn from the dataset's seed generator).
        return rt.RepeatValue(shuffled, scalar_int(count))
    return run


dataset_op("ShuffleDataset", ["input_dataset: variant", "buffer_size: int64", "seed: int64",
                              "seed2: int64"], _shuffle, {"reshuffle_each_iteration": True})
dataset_op("ShuffleAndRepeatDataset", ["input_dataset: variant", "buffer_size: int64",
                                       "seed: int64", "seed2: int64", "count: int64"],
           _shuffle, {"reshuffle_each_iteration": True})
dataset_op("RepeatDataset", ["input_dataset: variant", "count: int64"],
           lambda node, kctx: lambda ds, n: rt.RepeatValue(ds, scalar_int(n)))
dataset_op("TakeDataset", ["input_dataset: variant", "count: int64"],
           lambda node, kctx: lambda ds, n: rt.TakeValue(ds, scalar_int(n)))
dataset_op("SkipDataset", ["input_dataset: variant", "count: int64"],
           lambda node, kctx: lambda ds, n: rt.SkipValue(ds, scalar_int(n)))
dataset_op("ShardDataset", ["input_dataset: variant", "num_shards: int64", "index: int64"],
           lambda node, kctx: lambda ds, n, i: rt.ShardValue(ds, scalar_int(n), scalar_int(i)),
           {"require_non_empty": False})
dataset_op("PrefetchDataset", ["input_dataset: variant", "buffer_size: int64"],
           lambda node, kctx: lambda ds, n: rt.PassThroughValue(ds),
           {"slack_period": 0, "legacy_autotune": True, "buffer_size_min": 0})
dataset_op("RewriteDataset", ["input_dataset: variant", "rewrite_name: string"],
           lambda node, kctx: lambda ds, name: rt.PassThroughValue(ds))
# Dataset.with_options: the options change nothing in tf1compat's pipelines.
dataset_op("OptionsDataset", ["input_dataset: variant"],
           lambda node, kctx: lambda ds: rt.PassThroughValue(ds),
           {"serialized_options": "", "metadata": ""})
dataset_op("IgnoreErrorsDataset", ["input_dataset: variant"],
           lambda node, kctx: lambda ds: rt.IgnoreErrorsValue(ds), {"log_warning": False})
dataset_op("WindowDataset", ["input_dataset: variant", "size: int64", "shift: int64",
                             "stride: int64", "drop_remainder: bool"],
           lambda node, kctx: lambda ds, size, shift, stride, drop: rt.WindowValue(
               ds, scalar_int(size), scalar_int(shift), scalar_int(stride),
               scalar_bool(drop)))


def _cache(node: Any, kctx: Any) -> Callable[..., Any]:
    def run(ds: Any, filename: Any) -> Any:
        name = scalar_bytes(filename).decode()
        if not name:
            return rt.MemoryCacheValue(ds)
        from tf1compat.data._file_cache import FileCacheValue
        return FileCacheValue(ds, name)
    return run


dataset_op("CacheDataset", ["input_dataset: variant", "filename: string"], _cache)

