"""Declarations and run-time datasets of `tf.data.experimental`'s transformations.

Each op has TF's type, inputs and attrs (ScanDataset, TakeWhileDataset, UniqueDataset,
GroupByWindowDataset, ExperimentalGroupByReducerDataset, DenseToSparseBatchDataset,
AssertCardinalityDataset, RandomDataset, DirectedInterleaveDataset) plus the two ops that
return tensors rather than datasets (DatasetCardinality, DatasetToSingleElement). The
run-time values follow `_runtime.py`'s iterator protocol: `get_next()` returns an element
tuple or None at the end. The Python API that builds these ops is in
`experimental_transforms.py`.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import errors
from tf1compat.framework.op_def import Int, TypeList, declare
from tf1compat.framework.tensor_shape import as_shape
from tf1compat.data import _runtime as rt
from tf1compat.data._file_cache import FileCacheValue
from tf1compat.data._ops import ELEMENT_SPEC_ATTRS, dataset_function, dataset_op, scalar_int
from tf1compat.data._shuffle import ShuffleValue, _resolve_seeds
from tf1compat.ops._philox import PhiloxWords

__all__ = ["INFINITE", "UNKNOWN", "cardinality_of", "ListValue"]

INFINITE = -1
UNKNOWN = -2

Element = tuple


class ListValue(rt.DatasetValue):
    """A dataset over elements held in memory (a group_by_window window, from_list)."""

    def __init__(self, elements: List[Element]):
        self.elements = elements

    def iterator(self) -> rt.Iter:
        items, position = self.elements, [0]

        def get_next() -> Optional[Element]:
            i = position[0]
            if i >= len(items):
                return None
            position[0] = i + 1
            return items[i]
        return rt._FnIter(get_next)


def _split(values: tuple, sizes: Sequence[int]) -> List[tuple]:
    """`values` cut into consecutive groups of `sizes`."""
    out, k = [], 0
    for n in sizes:
        out.append(tuple(values[k:k + n]))
        k += n
    return out


# -- scan, take_while, unique --------------------------------------------------------------------

class ScanValue(rt.DatasetValue):
    """`scan`: `(state, out) = f(state, element)` from `initial_state`, again every pass."""

    def __init__(self, input_value: rt.DatasetValue, fn: Callable[[tuple, tuple], tuple],
                 initial_state: tuple, captures: tuple, preserve: bool):
        self.input, self.fn, self.initial_state, self.captures = \
            input_value, fn, initial_state, captures
        self.preserve_cardinality = preserve

    def iterator(self) -> rt.Iter:
        source = self.input.iterator().get_next
        state = [self.initial_state]
        n_state = len(self.initial_state)

        def get_next() -> Optional[Element]:
            element = source()
            if element is None:
                return None
            result = tuple(self.fn(state[0] + tuple(element), self.captures))
            state[0] = result[:n_state]
            return result[n_state:]
        return rt._FnIter(get_next)


def _scan(node: Any, kctx: Any) -> Callable[..., Any]:
    fn = node.attrs["f"].bind(kctx)
    n_state = len(node.attrs["Tstate"])
    preserve = bool(node.attrs["preserve_cardinality"])

    def call(args: tuple, captures: tuple) -> tuple:
        return tuple(fn(args, captures))

    return lambda ds, *rest: ScanValue(ds, call, tuple(rest[:n_state]), tuple(rest[n_state:]),
                                       preserve)


dataset_op("ScanDataset", ["input_dataset: variant", "initial_state: Tstate",
                           "other_arguments: Targuments"], _scan,
           {"f": None, "Tstate": TypeList(), "Targuments": TypeList(default=[]),
            "preserve_cardinality": False, "use_default_device": True})


class TakeWhileValue(rt.DatasetValue):
    def __init__(self, input_value: rt.DatasetValue, fn: Callable[[tuple, tuple], tuple],
                 captures: tuple):
        self.input, self.fn, self.captures = input_value, fn, captures

    def iterator(self) -> rt.Iter:
        source = self.input.iterator().get_next
        done = [False]

        def get_next() -> Optional[Element]:
            if done[0]:
                return None
            element = source()
            if element is None or not bool(self.fn(element, self.captures)[0]):
                done[0] = True
                return None
            return element
        return rt._FnIter(get_next)


dataset_op("TakeWhileDataset", ["input_dataset: variant", "other_arguments: Targuments"],
           lambda node, kctx: (lambda ds, *caps: TakeWhileValue(
               ds, dataset_function(node, kctx, "predicate"), caps)),
           {"predicate": None, "Targuments": TypeList(default=[])})


def _unique_key(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.reshape(-1)[0] if value.size == 1 else value.tobytes()
    return value


class UniqueValue(rt.DatasetValue):
    """`unique()`: each distinct element once, at its first occurrence."""

    def __init__(self, input_value: rt.DatasetValue):
        self.input = input_value

    def iterator(self) -> rt.Iter:
        source = self.input.iterator().get_next
        seen: set = set()

        def get_next() -> Optional[Element]:
            while True:
                element = source()
                if element is None:
                    return None
                key = _unique_key(element[0])
                if key not in seen:
                    seen.add(key)
                    return element
        return rt._FnIter(get_next)


dataset_op("UniqueDataset", ["input_dataset: variant"],
           lambda node, kctx: lambda ds: UniqueValue(ds))


# -- grouping ----------------------------------------------------------------------------------

class GroupByWindowValue(rt.DatasetValue):
    """TF's GroupByWindowDataset: elements go to the group of `key_func(element)`; a group
    that reaches `window_size_func(key)` elements is handed to `reduce_func(key, window)`,
    whose dataset's elements come out. At the end of the input the groups left are
    reduced in ascending key order."""

    def __init__(self, input_value: rt.DatasetValue, key_fn: Callable[[tuple], int],
                 reduce_fn: Callable[[int, rt.DatasetValue], rt.DatasetValue],
                 window_fn: Callable[[int], int]):
        self.input, self.key_fn, self.reduce_fn, self.window_fn = \
            input_value, key_fn, reduce_fn, window_fn

    def iterator(self) -> rt.Iter:
        source = self.input.iterator().get_next
        groups: Dict[int, List[Element]] = {}
        state: Dict[str, Any] = {"current": None, "end": False}

        def get_next() -> Optional[Element]:
            while True:
                current = state["current"]
                if current is not None:
                    out = current.get_next()
                    if out is not None:
                        return out
                    state["current"] = None
                if state["end"]:
                    if not groups:
                        return None
                    key = min(groups)
                    state["current"] = self.reduce_fn(key, groups.pop(key)).iterator()
                    continue
                element = source()
                if element is None:
                    state["end"] = True
                    continue
                key = self.key_fn(element)
                window = self.window_fn(key)
                if window <= 0:
                    raise rt.invalid(f"Window size must be greater than zero, but got "
                                     f"{window}.")
                group = groups.setdefault(key, [])
                group.append(element)
                if len(group) >= window:
                    del groups[key]
                    state["current"] = self.reduce_fn(key, group).iterator()
        return rt._FnIter(get_next)


def _group_by_window(node: Any, kctx: Any) -> Callable[..., Any]:
    key_fn = dataset_function(node, kctx, "key_func")
    reduce_fn = dataset_function(node, kctx, "reduce_func")
    window_fn = dataset_function(node, kctx, "window_size_func")
    sizes = [len(node.attrs[a]) for a in ("Tkey_func_other_arguments",
                                          "Treduce_func_other_arguments",
                                          "Twindow_size_func_other_arguments")]

    def run(ds: Any, *rest: Any) -> Any:
        key_caps, reduce_caps, window_caps = _split(rest, sizes)
        return GroupByWindowValue(
            ds, lambda e: scalar_int(key_fn(e, key_caps)[0]),
            lambda k, group: reduce_fn((torch.tensor(k, dtype=torch.int64),
                                        ListValue(group)), reduce_caps)[0],
            lambda k: scalar_int(window_fn((torch.tensor(k, dtype=torch.int64),),
                                           window_caps)[0]))
    return run


dataset_op("GroupByWindowDataset",
           ["input_dataset: variant", "key_func_other_arguments: Tkey_func_other_arguments",
            "reduce_func_other_arguments: Treduce_func_other_arguments",
            "window_size_func_other_arguments: Twindow_size_func_other_arguments"],
           _group_by_window,
           {"key_func": None, "reduce_func": None, "window_size_func": None,
            "Tkey_func_other_arguments": TypeList(default=[]),
            "Treduce_func_other_arguments": TypeList(default=[]),
            "Twindow_size_func_other_arguments": TypeList(default=[])})


class GroupByReducerValue(rt.DatasetValue):
    """TF's (Experimental)GroupByReducerDataset: one state per key (`init_func(key)`),
    folded with `reduce_func(state, element)`; at the end of the input
    `finalize_func(state)` of each key, in ascending key order."""

    def __init__(self, input_value: rt.DatasetValue, key_fn: Callable[[tuple], int],
                 init_fn: Callable[[int], tuple], reduce_fn: Callable[[tuple, tuple], tuple],
                 finalize_fn: Callable[[tuple], tuple]):
        self.input, self.key_fn, self.init_fn = input_value, key_fn, init_fn
        self.reduce_fn, self.finalize_fn = reduce_fn, finalize_fn

    def iterator(self) -> rt.Iter:
        source = self.input.iterator().get_next
        states: Dict[int, tuple] = {}
        keys: List[int] = []
        position = [-1]

        def get_next() -> Optional[Element]:
            if position[0] < 0:
                while True:
                    element = source()
                    if element is None:
                        break
                    key = self.key_fn(element)
                    if key not in states:
                        states[key] = self.init_fn(key)
                    states[key] = self.reduce_fn(states[key], element)
                keys.extend(sorted(states))
                position[0] = 0
            i = position[0]
            if i >= len(keys):
                return None
            position[0] = i + 1
            return self.finalize_fn(states.pop(keys[i]))
        return rt._FnIter(get_next)


def _group_by_reducer(node: Any, kctx: Any) -> Callable[..., Any]:
    names = ("key_func", "init_func", "reduce_func", "finalize_func")
    fns = [node.attrs[n].bind(kctx) for n in names]
    sizes = [len(node.attrs[f"T{n}_other_arguments"]) for n in names]

    def run(ds: Any, *rest: Any) -> Any:
        key_caps, init_caps, reduce_caps, finalize_caps = _split(rest, sizes)
        key_fn, init_fn, reduce_fn, finalize_fn = fns
        return GroupByReducerValue(
            ds, lambda e: scalar_int(key_fn(tuple(e), key_caps)[0]),
            lambda k: tuple(init_fn((torch.tensor(k, dtype=torch.int64),), init_caps)),
            lambda s, e: tuple(reduce_fn(s + tuple(e), reduce_caps)),
            lambda s: tuple(finalize_fn(s, finalize_caps)))
    return run


dataset_op("ExperimentalGroupByReducerDataset",
           ["input_dataset: variant", "key_func_other_arguments: Tkey_func_other_arguments",
            "init_func_other_arguments: Tinit_func_other_arguments",
            "reduce_func_other_arguments: Treduce_func_other_arguments",
            "finalize_func_other_arguments: Tfinalize_func_other_arguments"],
           _group_by_reducer,
           {"key_func": None, "init_func": None, "reduce_func": None, "finalize_func": None,
            "Tkey_func_other_arguments": TypeList(default=[]),
            "Tinit_func_other_arguments": TypeList(default=[]),
            "Treduce_func_other_arguments": TypeList(default=[]),
            "Tfinalize_func_other_arguments": TypeList(default=[]), **ELEMENT_SPEC_ATTRS},
           common=False)


# -- batching to sparse ------------------------------------------------------------------------

def _dims(shape: Sequence[int]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


class DenseToSparseBatchValue(rt.DatasetValue):
    """`dense_to_sparse_batch`: `batch_size` elements as one SparseTensor holding every
    value; dimensions of `row_shape` given as -1 take the batch's largest."""

    def __init__(self, input_value: rt.DatasetValue, batch_size: int, row_shape: List[int]):
        if batch_size <= 0:
            raise rt.invalid("Batch size must be greater than zero.")
        self.input, self.batch_size, self.row_shape = input_value, batch_size, row_shape

    def _sparse(self, values: List[Any]) -> rt.SparseValue:
        rank = len(self.row_shape)
        dims = list(self.row_shape)
        for v in values:
            shape = rt.element_shape(v)
            if len(shape) != rank:
                raise rt.invalid(f"Input element had shape ({_dims(shape)}) that is "
                                 f"incompatible with the row shape ({_dims(self.row_shape)}).")
            if any(0 <= d < s for d, s in zip(self.row_shape, shape)):
                raise errors.DataLossError(
                    None, None, f"Input element had shape ({_dims(shape)}) that is larger "
                                f"than the row shape ({_dims(self.row_shape)}).")
            dims = [max(d, s) if r < 0 else d for d, s, r in zip(dims, shape, self.row_shape)]
        dims = [max(d, 0) for d in dims]
        indices, flat = [], []
        for i, v in enumerate(values):
            shape = rt.element_shape(v)
            grid = np.indices(shape).reshape(len(shape), -1).T if shape else \
                np.zeros((1, 0), dtype=np.int64)
            indices.append(np.concatenate([np.full((grid.shape[0], 1), i), grid], 1))
            flat.append(v.reshape(-1) if isinstance(v, (torch.Tensor, np.ndarray)) else
                        np.array([v], dtype=object))
        index = torch.as_tensor(np.concatenate(indices).astype(np.int64))
        if isinstance(flat[0], torch.Tensor):
            out_values: Any = torch.cat(flat)
        else:
            out_values = np.concatenate([np.asarray(f, dtype=object) for f in flat])
        shape = torch.tensor([len(values)] + dims, dtype=torch.int64)
        return rt.SparseValue(index, out_values, shape)

    def iterator(self) -> rt.Iter:
        source = self.input.iterator().get_next

        def get_next() -> Optional[Element]:
            values = []
            for _ in range(self.batch_size):
                element = source()
                if element is None:
                    break
                values.append(element[0])
            return (self._sparse(values),) if values else None
        return rt._FnIter(get_next)


dataset_op("DenseToSparseBatchDataset", ["input_dataset: variant", "batch_size: int64",
                                         "row_shape: int64"],
           lambda node, kctx: lambda ds, n, shape: DenseToSparseBatchValue(
               ds, scalar_int(n), [int(d) for d in shape.reshape(-1).tolist()]),
           ELEMENT_SPEC_ATTRS, common=False)


# -- cardinality -------------------------------------------------------------------------------

class AssertCardinalityValue(rt.DatasetValue):
    def __init__(self, input_value: rt.DatasetValue, expected: int):
        self.input, self.expected = input_value, expected

    def _elements(self, n: int) -> str:
        return "infinite" if n == INFINITE else str(n)

    def iterator(self) -> rt.Iter:
        source = self.input.iterator().get_next
        count = [0]
        expected = self.expected

        def get_next() -> Optional[Element]:
            element = source()
            if element is None:
                # As TF: the end of a dataset of the wrong size fails again at every call.
                if count[0] != expected:
                    raise errors.FailedPreconditionError(
                        None, None, f"Input dataset was expected to contain "
                                    f"{self._elements(expected)} elements but contained "
                                    f"only {count[0]} elements.")
                return None
            count[0] += 1
            if expected != INFINITE and count[0] > expected:
                raise errors.FailedPreconditionError(
                    None, None, f"Input dataset was expected to contain "
                                f"{self._elements(expected)} elements but contained at "
                                f"least {count[0]} elements.")
            return element
        return rt._FnIter(get_next)


dataset_op("AssertCardinalityDataset", ["input_dataset: variant", "cardinality: int64"],
           lambda node, kctx: lambda ds, n: AssertCardinalityValue(ds, scalar_int(n)),
           ELEMENT_SPEC_ATTRS, common=False)


def _batched(n: int, size: int, drop: bool) -> int:
    if n < 0:
        return n
    return n // size + (0 if drop or n % size == 0 else 1)


def _repeat_cardinality(n: int, count: int) -> int:
    if count < 0:
        return 0 if n == 0 else INFINITE
    if count == 0:
        return 0
    return n if n < 0 else n * count


def _take_cardinality(n: int, count: int) -> int:
    if n == UNKNOWN:
        return UNKNOWN
    if count < 0:
        return n
    return count if n == INFINITE else min(n, count)


def _skip_cardinality(n: int, count: int) -> int:
    if n < 0:
        return n
    return 0 if count < 0 else max(0, n - count)


def _zip_cardinality(inputs: Sequence[rt.DatasetValue]) -> int:
    result = INFINITE
    for value in inputs:
        n = cardinality_of(value)
        if n == UNKNOWN:
            return UNKNOWN
        if n != INFINITE:
            result = n if result == INFINITE else min(result, n)
    return result


def _concatenate_cardinality(a: int, b: int) -> int:
    if INFINITE in (a, b):
        return INFINITE
    if UNKNOWN in (a, b):
        return UNKNOWN
    return a + b


def cardinality_of(value: rt.DatasetValue) -> int:
    """The number of elements of a run-time dataset, with TF's rules (-1 infinite,
    -2 unknown: filters, flat maps, file readers, TF1's map)."""
    if isinstance(value, rt.TensorSliceValue):
        return value.n
    if isinstance(value, rt.TensorValue):
        return 1
    if isinstance(value, rt.RangeValue):
        return len(value.range)
    if isinstance(value, (ListValue, rt._ElementsValue)):
        return len(value.elements)
    if isinstance(value, RandomValue):
        return INFINITE
    if isinstance(value, AssertCardinalityValue):
        return value.expected
    if isinstance(value, (rt.MapValue, ScanValue)):
        return cardinality_of(value.input) if value.preserve_cardinality else UNKNOWN
    if isinstance(value, (rt.PassThroughValue, rt.MemoryCacheValue, ShuffleValue,
                          FileCacheValue)):
        return cardinality_of(value.input)
    if isinstance(value, (rt.BatchValue, rt.PaddedBatchValue)):
        return _batched(cardinality_of(value.input), value.batch_size, value.drop_remainder)
    if isinstance(value, DenseToSparseBatchValue):
        return _batched(cardinality_of(value.input), value.batch_size, False)
    if isinstance(value, rt.RepeatValue):
        return _repeat_cardinality(cardinality_of(value.input), value.count)
    if isinstance(value, rt.TakeValue):
        return _take_cardinality(cardinality_of(value.input), value.count)
    if isinstance(value, rt.SkipValue):
        return _skip_cardinality(cardinality_of(value.input), value.count)
    if isinstance(value, rt.ShardValue):
        n = cardinality_of(value.input)
        if n < 0:
            return n
        return n // value.num_shards + (1 if value.index < n % value.num_shards else 0)
    if isinstance(value, rt.ZipValue):
        return _zip_cardinality(value.inputs)
    if isinstance(value, rt.ConcatenateValue):
        return _concatenate_cardinality(cardinality_of(value.first),
                                        cardinality_of(value.second))
    if isinstance(value, DirectedInterleaveValue):
        if any(cardinality_of(d) == INFINITE for d in value.inputs):
            return INFINITE
    return UNKNOWN


declare("DatasetCardinality", inputs=["input_dataset: variant"], outputs=["cardinality: int64"],
        attrs={"cardinality_options": ""}, shape=lambda ctx: [as_shape([])],
        kernel=lambda node, kctx: lambda ds: torch.tensor(cardinality_of(ds),
                                                          dtype=torch.int64),
        grad="none", cpu_only=True,
        doc="The number of elements of a dataset (-1 infinite, -2 unknown).")


def _single_element(node: Any, kctx: Any) -> Callable[..., Any]:
    single = len(node.outputs) == 1

    def run(ds: rt.DatasetValue) -> Any:
        it = ds.iterator()
        try:
            first = it.get_next()
            if first is None:
                raise rt.invalid("Dataset was empty.")
            if it.get_next() is not None:
                raise rt.invalid("Dataset had more than one element.")
        except errors.OpError:
            raise
        except Exception as e:  # noqa: BLE001 - an element's failure is TF's error class
            raise rt.to_op_error(e) from e
        return first[0] if single else first
    return run


declare("DatasetToSingleElement", inputs=["dataset: variant"],
        outputs=["components: output_types"],
        attrs={"output_types": TypeList(), "output_shapes": [], "metadata": ""},
        shape=lambda ctx: [as_shape(s) for s in ctx.attrs["output_shapes"]],
        kernel=_single_element, grad="none", cpu_only=True,
        doc="The only element of a dataset (InvalidArgumentError if empty or longer).")


# -- random and sampling -----------------------------------------------------------------------

class RandomValue(rt.DatasetValue):
    """TF's RandomDataset: uint32 words of Philox4x32-10 on (seed, seed2), as int64
    scalars; every pass restarts the same stream."""

    def __init__(self, seed: int, seed2: int):
        self.seeds = _resolve_seeds(seed, seed2)

    def iterator(self) -> rt.Iter:
        words = PhiloxWords(*self.seeds)
        return rt._FnIter(lambda: (torch.tensor(words(), dtype=torch.int64),))


dataset_op("RandomDataset", ["seed: int64", "seed2: int64"],
           lambda node, kctx: lambda seed, seed2: RandomValue(scalar_int(seed),
                                                              scalar_int(seed2)))


class DirectedInterleaveValue(rt.DatasetValue):
    """TF's DirectedInterleaveDataset: each selector value picks the input that gives the
    next element; a finished input is skipped (or ends everything with
    `stop_on_empty_dataset`); the end when the selector or every input is done."""

    def __init__(self, selector: rt.DatasetValue, inputs: Sequence[rt.DatasetValue],
                 stop_on_empty: bool):
        self.selector, self.inputs, self.stop_on_empty = selector, list(inputs), stop_on_empty

    def iterator(self) -> rt.Iter:
        selector = self.selector.iterator().get_next
        its: List[Optional[rt.Iter]] = [d.iterator() for d in self.inputs]
        state = {"active": len(its), "done": False}

        def get_next() -> Optional[Element]:
            while not state["done"]:
                chosen = selector()
                if chosen is None:
                    state["done"] = True
                    return None
                index = scalar_int(chosen[0])
                if index < 0 or index >= len(its):
                    raise rt.invalid(f"Selector index out of range: {index} >= {len(its)}")
                it = its[index]
                if it is None:
                    continue
                element = it.get_next()
                if element is not None:
                    return element
                if self.stop_on_empty:
                    state["done"] = True
                    return None
                its[index] = None
                state["active"] -= 1
                if state["active"] == 0:
                    state["done"] = True
            return None
        return rt._FnIter(get_next)


dataset_op("DirectedInterleaveDataset", ["selector_input_dataset: variant",
                                         "data_input_datasets: N * variant"],
           lambda node, kctx: lambda selector, *inputs: DirectedInterleaveValue(
               selector, inputs, bool(node.attrs["stop_on_empty_dataset"])),
           {"N": Int(minimum=1), "stop_on_empty_dataset": False, **ELEMENT_SPEC_ATTRS},
           common=False)


class SlidingWindowValue(rt.DatasetValue):
    """SlidingWindowDataset (`tf.contrib.data.sliding_window_batch`): each element stacks
    `size` input elements `stride` apart; the next window starts `shift` elements later;
    a final window that the input cannot fill is dropped (TF's kernel, step for step)."""

    def __init__(self, input_value: rt.DatasetValue, size: int, shift: int, stride: int):
        for name, v in (("size", size), ("shift", shift), ("stride", stride)):
            if v <= 0:
                raise rt.invalid(f"Window {name} must be greater than zero.")
        self.input, self.size, self.shift, self.stride = input_value, size, shift, stride

    def iterator(self) -> rt.Iter:
        source: List[Any] = [self.input.iterator().get_next]
        buffer: List[Any] = []
        target = (self.size - 1) * self.stride + 1

        def read() -> Optional[Any]:
            element = source[0]() if source[0] is not None else None
            if element is None:
                source[0] = None
            return element

        def get_next() -> Optional[Any]:
            if source[0] is None:
                return None
            while len(buffer) < target and source[0] is not None:
                element = read()
                if element is not None:
                    buffer.append(element)
            if len(buffer) < target:
                buffer.clear()
                return None
            window = [buffer[self.stride * i] for i in range(self.size)]
            if self.shift >= len(buffer):
                for _ in range(len(buffer), self.shift):
                    if read() is None:
                        break
                buffer.clear()
            else:
                del buffer[:self.shift]
            return tuple(rt.batch_values(list(vs), k) for k, vs in enumerate(zip(*window)))
        return rt._FnIter(get_next)


dataset_op("SlidingWindowDataset", ["input_dataset: variant", "window_size: int64",
                                    "window_shift: int64", "window_stride: int64"],
           lambda node, kctx: lambda ds, size, shift, stride: SlidingWindowValue(
               ds, scalar_int(size), scalar_int(shift), scalar_int(stride)),
           {**ELEMENT_SPEC_ATTRS, "drop_remainder": True}, common=False)
