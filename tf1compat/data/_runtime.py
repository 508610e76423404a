"""Run-time datasets: what a dataset op's variant output holds while a session runs.

Running a dataset op (TensorSliceDataset, MapDataset, ...) creates a `DatasetValue`, a
description of the elements: its inputs' values, its bound function, its constants.
`value.iterator()` starts a fresh pass; `it.get_next()` returns the next element, or None
at the end. An element is a tuple with one value per component: a torch tensor on the
CPU (numpy object arrays of bytes for strings, a bytes object for a scalar string), a
`SparseValue`, a `RaggedValue` (data/ragged.py) or a nested `DatasetValue`.

Iterators are explicit objects rather than Python generators so that an error raised
for one element (a failing map function, a bad record) leaves the pipeline usable: the
next `get_next` goes on with the next element, as TF's iterators do, which is what
`ignore_errors` relies on.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import errors
# SparseValue: what a sparse component's variant holds (the serialization ops make it).
from tf1compat.ops.sparse_serialization_ops import SparseValue
from tf1compat.data.ragged import (RaggedValue, batch_ragged, ragged_nrows,
                                   slice_ragged)

__all__ = ["SparseValue", "DatasetValue", "Iter", "batch_values", "element_shape",
           "invalid", "to_op_error"]


Element = tuple


def invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def to_op_error(e: BaseException) -> errors.OpError:
    """A run-time failure inside a dataset as TF's error class (OpErrors pass through)."""
    if isinstance(e, errors.OpError):
        return e
    from tf1compat.runtime.session import _map_exception
    return _map_exception(e)  # type: ignore[arg-type]


class Iter:
    """One pass over a dataset."""

    def get_next(self) -> Optional[Element]:
        raise NotImplementedError


class DatasetValue:
    """A dataset at run time; `iterator()` starts a new pass over its elements."""

    def iterator(self) -> Iter:
        raise NotImplementedError

    def to(self, *args: Any, **kwargs: Any) -> "DatasetValue":
        return self          # device moves leave Python values as they are

    def __iter__(self):      # convenience for tests and eager mode
        it = self.iterator()
        while True:
            element = it.get_next()
            if element is None:
                return
            yield element


class _FnIter(Iter):
    """An iterator from a `get_next` closure."""

    __slots__ = ("get_next",)

    def __init__(self, get_next: Callable[[], Optional[Element]]):
        self.get_next = get_next  # type: ignore[method-assign]


# -- shapes and batching -------------------------------------------------------------------

def element_shape(value: Any) -> tuple:
    if isinstance(value, torch.Tensor):
        return tuple(value.shape)
    if isinstance(value, np.ndarray):
        return value.shape
    if isinstance(value, SparseValue):
        return tuple(int(d) for d in value.dense_shape.tolist())
    return ()


def _shape_text(shape: Sequence[int]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def _strings(values: Sequence[Any]) -> np.ndarray:
    first = values[0]
    if isinstance(first, np.ndarray):
        return np.stack(values)
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def batch_values(values: List[Any], component: int) -> Any:
    """Stacks one component of several elements along a new first dimension."""
    first = values[0]
    if isinstance(first, torch.Tensor):
        try:
            return torch.stack(values)
        except RuntimeError:
            pass
    elif isinstance(first, SparseValue):
        return _batch_sparse(values)
    elif isinstance(first, RaggedValue):
        return batch_ragged(values)
    shape0 = element_shape(first)
    for i, v in enumerate(values[1:], 1):
        if element_shape(v) != shape0:
            raise invalid(f"Cannot batch tensors with different shapes in component "
                          f"{component}. First element had shape {_shape_text(shape0)} and "
                          f"element {i} had shape {_shape_text(element_shape(v))}.")
    if isinstance(first, DatasetValue):
        raise errors.UnimplementedError(None, None, "Batching datasets of datasets is not "
                                                    "supported by tf1compat.")
    return _strings(values)


def _batch_sparse(values: List[SparseValue]) -> SparseValue:
    rank = len(values[0].dense_shape)
    dims = torch.stack([v.dense_shape for v in values]).amax(0) if rank else \
        torch.zeros(0, dtype=torch.int64)
    parts = []
    for i, v in enumerate(values):
        if len(v.dense_shape) != rank:
            raise invalid("Cannot batch sparse tensors of different ranks.")
        row = torch.full((v.indices.shape[0], 1), i, dtype=torch.int64)
        parts.append(torch.cat([row, v.indices], 1))
    indices = torch.cat(parts, 0)
    if isinstance(values[0].values, torch.Tensor):
        vals = torch.cat([v.values for v in values])
    else:
        vals = np.concatenate([np.asarray(v.values, dtype=object).reshape(-1)
                               for v in values])
    shape = torch.cat([torch.tensor([len(values)], dtype=torch.int64), dims])
    return SparseValue(indices, vals, shape)


def unbatch_value(value: Any, n: int) -> List[Any]:
    """The `n` slices of one component along its first dimension."""
    if isinstance(value, SparseValue):
        return [slice_sparse(value, i) for i in range(n)]
    if isinstance(value, RaggedValue):
        return [slice_ragged(value, i) for i in range(n)]
    if isinstance(value, np.ndarray):
        return [value[i] if value.ndim > 1 else value[i] for i in range(n)]
    return list(value.unbind(0))


def slice_sparse(value: SparseValue, i: int) -> SparseValue:
    rows = value.indices[:, 0] == i
    values = value.values[rows] if isinstance(value.values, torch.Tensor) else \
        np.asarray(value.values, dtype=object)[rows.numpy()]
    return SparseValue(value.indices[rows][:, 1:], values, value.dense_shape[1:])


def first_dim(value: Any) -> int:
    if isinstance(value, SparseValue):
        return int(value.dense_shape[0])
    if isinstance(value, RaggedValue):
        return ragged_nrows(value)
    if isinstance(value, (torch.Tensor, np.ndarray)) and len(value.shape):
        return int(value.shape[0])
    raise invalid("Input element must have a non-scalar value in each component.")


# -- sources -----------------------------------------------------------------------------------

class TensorSliceValue(DatasetValue):
    """`from_tensor_slices`: element i is row i of every component."""

    def __init__(self, components: Sequence[Any]):
        self.components = tuple(components)
        sizes = {first_dim(c) for c in self.components}
        if len(sizes) > 1:
            raise invalid("All components must have the same size in the 0th dimension")
        self.n = sizes.pop()
        self._elements: Optional[List[Element]] = None

    def _rows(self) -> List[Element]:
        """The elements, sliced once for every pass: slicing (a tensor per row and
        component) costs far more than a pass's Python, and `shuffle().repeat()` starts a
        pass per epoch. The slices are views, as before, of the same components."""
        if self._elements is None:
            n = self.n
            rows: List[Any] = []
            for c in self.components:
                if isinstance(c, (SparseValue, RaggedValue)):
                    rows.append(unbatch_value(c, n))
                elif isinstance(c, np.ndarray):
                    rows.append(list(c) if c.ndim == 1 else [c[i] for i in range(n)])
                else:
                    rows.append(c.unbind(0))
            self._elements = list(zip(*rows)) if rows else []
        return self._elements

    def iterator(self) -> Iter:
        n = self.n
        elements = self._rows()
        position = [0]

        def get_next() -> Optional[Element]:
            i = position[0]
            if i >= n:
                return None
            position[0] = i + 1
            return elements[i]
        return _FnIter(get_next)


class TensorValue(DatasetValue):
    """`from_tensors`: one element."""

    def __init__(self, components: Sequence[Any]):
        self.element = tuple(components)

    def iterator(self) -> Iter:
        done = [False]

        def get_next() -> Optional[Element]:
            if done[0]:
                return None
            done[0] = True
            return self.element
        return _FnIter(get_next)


class RangeValue(DatasetValue):
    def __init__(self, start: int, stop: int, step: int, dtype: torch.dtype = torch.int64):
        if step == 0:
            raise invalid("step must be a non-zero integer.")
        self.range = range(start, stop, step)
        self.dtype = dtype

    def iterator(self) -> Iter:
        values = iter(self.range)
        dtype = self.dtype

        def get_next() -> Optional[Element]:
            for v in values:
                return (torch.tensor(v, dtype=dtype),)
            return None
        return _FnIter(get_next)


# -- structure-changing transformations --------------------------------------------------------

class ZipValue(DatasetValue):
    def __init__(self, inputs: Sequence[DatasetValue]):
        self.inputs = list(inputs)

    def iterator(self) -> Iter:
        its = [d.iterator() for d in self.inputs]
        done = [False]

        def get_next() -> Optional[Element]:
            if done[0]:
                return None
            out: tuple = ()
            for it in its:
                element = it.get_next()
                if element is None:
                    done[0] = True
                    return None
                out += element
            return out
        return _FnIter(get_next)


class ConcatenateValue(DatasetValue):
    def __init__(self, first: DatasetValue, second: DatasetValue):
        self.first, self.second = first, second

    def iterator(self) -> Iter:
        state = [self.first.iterator(), False]

        def get_next() -> Optional[Element]:
            element = state[0].get_next()
            if element is None and not state[1]:
                state[0], state[1] = self.second.iterator(), True
                element = state[0].get_next()
            return element
        return _FnIter(get_next)


class MapValue(DatasetValue):
    def __init__(self, input_value: DatasetValue, fn: Callable[[tuple, tuple], tuple],
                 captures: tuple, preserve_cardinality: bool = False):
        self.input, self.fn, self.captures = input_value, fn, captures
        # TF1's map does not claim its input's size (its cardinality is unknown).
        self.preserve_cardinality = preserve_cardinality

    def iterator(self) -> Iter:
        source = self.input.iterator().get_next
        fn, captures = self.fn, self.captures

        def get_next() -> Optional[Element]:
            element = source()
            if element is None:
                return None
            return fn(element, captures)
        return _FnIter(get_next)


class FilterValue(DatasetValue):
    def __init__(self, input_value: DatasetValue, fn: Callable[[tuple, tuple], tuple],
                 captures: tuple):
        self.input, self.fn, self.captures = input_value, fn, captures

    def iterator(self) -> Iter:
        source = self.input.iterator().get_next
        fn, captures = self.fn, self.captures

        def get_next() -> Optional[Element]:
            while True:
                element = source()
                if element is None:
                    return None
                if bool(fn(element, captures)[0]):
                    return element
        return _FnIter(get_next)


class BatchValue(DatasetValue):
    def __init__(self, input_value: DatasetValue, batch_size: int, drop_remainder: bool):
        if batch_size <= 0:
            raise invalid("Batch size must be greater than zero.")
        self.input, self.batch_size, self.drop_remainder = \
            input_value, batch_size, drop_remainder

    def iterator(self) -> Iter:
        source = self.input.iterator().get_next
        n, drop = self.batch_size, self.drop_remainder
        done = [False]

        def get_next() -> Optional[Element]:
            if done[0]:
                return None
            elements = []
            for _ in range(n):
                element = source()
                if element is None:
                    done[0] = True
                    break
                elements.append(element)
            if not elements or (drop and len(elements) < n):
                done[0] = True
                return None
            if len(elements) == 1:
                return tuple(batch_values([v], k) for k, v in enumerate(elements[0]))
            return tuple(batch_values(list(vs), k) for k, vs in enumerate(zip(*elements)))
        return _FnIter(get_next)


class PaddedBatchValue(DatasetValue):
    def __init__(self, input_value: DatasetValue, batch_size: int,
                 padded_shapes: List[List[int]], padding_values: List[Any],
                 drop_remainder: bool):
        if batch_size <= 0:
            raise invalid("Batch size must be greater than zero.")
        self.input, self.batch_size, self.drop_remainder = \
            input_value, batch_size, drop_remainder
        self.padded_shapes, self.padding_values = padded_shapes, padding_values

    def _pad(self, values: List[Any], k: int) -> Any:
        want = self.padded_shapes[k]
        shapes = [element_shape(v) for v in values]
        rank = len(want)
        for s in shapes:
            if len(s) != rank:
                raise invalid(f"Cannot pad a component of rank {len(s)} to rank {rank}.")
        target = [d if d >= 0 else max((s[i] for s in shapes), default=0)
                  for i, d in enumerate(want)]
        for s in shapes:
            if any(got > dim for got, dim in zip(s, target)):
                raise errors.DataLossError(
                    None, None, "Attempted to pad to a smaller size than the input element.")
        pad = self.padding_values[k]
        if isinstance(values[0], torch.Tensor):
            out = torch.full([len(values)] + target, 0, dtype=values[0].dtype)
            out.fill_(pad if isinstance(pad, torch.Tensor) else pad)
            for i, v in enumerate(values):
                out[(i,) + tuple(slice(0, d) for d in v.shape)] = v
            return out
        out = np.empty([len(values)] + target, dtype=object)
        out.fill(pad)
        for i, v in enumerate(values):
            arr = np.asarray(v, dtype=object)
            # a scalar goes in as its value: an object array would store the 0-d array
            out[(i,) + tuple(slice(0, d) for d in arr.shape)] = arr if arr.ndim else arr[()]
        return out

    def iterator(self) -> Iter:
        source = self.input.iterator().get_next
        n, drop = self.batch_size, self.drop_remainder
        done = [False]

        def get_next() -> Optional[Element]:
            if done[0]:
                return None
            elements = []
            for _ in range(n):
                element = source()
                if element is None:
                    done[0] = True
                    break
                elements.append(element)
            if not elements or (drop and len(elements) < n):
                done[0] = True
                return None
            return tuple(self._pad(list(vs), k) for k, vs in enumerate(zip(*elements)))
        return _FnIter(get_next)


class UnbatchValue(DatasetValue):
    def __init__(self, input_value: DatasetValue):
        self.input = input_value

    def iterator(self) -> Iter:
        source = self.input.iterator().get_next
        pending: List[Element] = []

        def get_next() -> Optional[Element]:
            while not pending:
                element = source()
                if element is None:
                    return None
                sizes = {first_dim(v) for v in element}
                if len(sizes) != 1:
                    raise invalid("Input element must have the same batch size in each "
                                  "component.")
                n = sizes.pop()
                rows = [unbatch_value(v, n) for v in element]
                pending.extend(reversed(list(zip(*rows))))
            return pending.pop()
        return _FnIter(get_next)


# -- order and count ------------------------------------------------------------------------

class RepeatValue(DatasetValue):
    def __init__(self, input_value: DatasetValue, count: int):
        self.input, self.count = input_value, count

    def iterator(self) -> Iter:
        state = {"it": None, "epoch": 0, "produced": False}
        count = self.count

        def get_next() -> Optional[Element]:
            while count < 0 or state["epoch"] < count:
                if state["it"] is None:
                    state["it"] = self.input.iterator()
                    state["produced"] = False
                element = state["it"].get_next()
                if element is not None:
                    state["produced"] = True
                    return element
                state["it"] = None
                state["epoch"] += 1
                if not state["produced"] and count < 0:
                    break        # an empty input repeated forever is empty (as TF)
            state["epoch"] = count if count >= 0 else 0
            state["it"] = None
            state["done"] = True
            return None

        def guarded() -> Optional[Element]:
            return None if state.get("done") else get_next()
        return _FnIter(guarded)


class TakeValue(DatasetValue):
    def __init__(self, input_value: DatasetValue, count: int):
        self.input, self.count = input_value, count

    def iterator(self) -> Iter:
        source = self.input.iterator().get_next
        left = [self.count]

        def get_next() -> Optional[Element]:
            if left[0] == 0:
                return None
            element = source()
            if element is None:
                left[0] = 0
                return None
            if left[0] > 0:
                left[0] -= 1
            return element
        return _FnIter(get_next)


class SkipValue(DatasetValue):
    def __init__(self, input_value: DatasetValue, count: int):
        self.input, self.count = input_value, count

    def iterator(self) -> Iter:
        source = self.input.iterator().get_next
        to_skip = [self.count]

        def get_next() -> Optional[Element]:
            while to_skip[0] != 0:
                element = source()
                if element is None:
                    to_skip[0] = 0
                    return None
                if to_skip[0] > 0:
                    to_skip[0] -= 1
            return source()
        return _FnIter(get_next)


class ShardValue(DatasetValue):
    def __init__(self, input_value: DatasetValue, num_shards: int, index: int):
        if num_shards <= 0:
            raise invalid("Number of shards must be greater than zero (currently "
                          f"num_shards = {num_shards}).")
        if index < 0 or index >= num_shards:
            raise invalid(f"Index must be between 0 and {num_shards - 1} (currently index = "
                          f"{index}).")
        self.input, self.num_shards, self.index = input_value, num_shards, index

    def iterator(self) -> Iter:
        source = self.input.iterator().get_next
        n, index = self.num_shards, self.index
        position = [0]

        def get_next() -> Optional[Element]:
            while True:
                element = source()
                if element is None:
                    return None
                i = position[0]
                position[0] = i + 1
                if i % n == index:
                    return element
        return _FnIter(get_next)


class PassThroughValue(DatasetValue):
    """Prefetch, options, rewrites: the input's elements, unchanged."""

    def __init__(self, input_value: DatasetValue):
        self.input = input_value

    def iterator(self) -> Iter:
        return self.input.iterator()


class IgnoreErrorsValue(DatasetValue):
    def __init__(self, input_value: DatasetValue):
        self.input = input_value

    def iterator(self) -> Iter:
        source = self.input.iterator().get_next

        def get_next() -> Optional[Element]:
            while True:
                try:
                    return source()
                except errors.OpError:
                    continue
                except (RuntimeError, ValueError, TypeError, IndexError):
                    continue
        return _FnIter(get_next)


class MemoryCacheValue(DatasetValue):
    """`cache()`: the first complete pass is recorded; later passes replay it."""

    def __init__(self, input_value: DatasetValue):
        self.input = input_value
        self.cache: Optional[List[Element]] = None

    def iterator(self) -> Iter:
        if self.cache is not None:
            return _ListIter(self.cache)
        source = self.input.iterator().get_next
        recorded: List[Element] = []

        def get_next() -> Optional[Element]:
            element = source()
            if element is None:
                if self.cache is None:
                    self.cache = recorded
                return None
            recorded.append(element)
            return element
        return _FnIter(get_next)


class _ListIter(Iter):
    __slots__ = ("_items", "_i")

    def __init__(self, items: List[Element]):
        self._items = items
        self._i = 0

    def get_next(self) -> Optional[Element]:
        i = self._i
        if i >= len(self._items):
            return None
        self._i = i + 1
        return self._items[i]


# -- nested datasets ---------------------------------------------------------------------------

class FlatMapValue(DatasetValue):
    def __init__(self, input_value: DatasetValue, fn: Callable[[tuple, tuple], tuple],
                 captures: tuple):
        self.input, self.fn, self.captures = input_value, fn, captures

    def iterator(self) -> Iter:
        source = self.input.iterator().get_next
        current: List[Optional[Iter]] = [None]

        def get_next() -> Optional[Element]:
            while True:
                if current[0] is None:
                    element = source()
                    if element is None:
                        return None
                    current[0] = self.fn(element, self.captures)[0].iterator()
                out = current[0].get_next()
                if out is not None:
                    return out
                current[0] = None
        return _FnIter(get_next)


class InterleaveValue(DatasetValue):
    """Round robin over `cycle_length` open datasets, `block_length` elements each (TF's
    InterleaveDataset order; the parallel variants produce the same deterministic order)."""

    def __init__(self, input_value: DatasetValue, fn: Callable[[tuple, tuple], tuple],
                 captures: tuple, cycle_length: int, block_length: int):
        if cycle_length < 0:
            import os
            cycle_length = os.cpu_count() or 1
        if cycle_length == 0:
            raise invalid("cycle_length must be greater than zero.")
        if block_length <= 0:
            raise invalid("block_length must be greater than zero.")
        self.input, self.fn, self.captures = input_value, fn, captures
        self.cycle_length, self.block_length = cycle_length, block_length

    def iterator(self) -> Iter:
        source = self.input.iterator().get_next
        cycle: List[Optional[Iter]] = [None] * self.cycle_length
        state = {"index": 0, "block": 0, "open": 0, "end": False}
        block_length, cycle_length = self.block_length, self.cycle_length

        def advance_cycle() -> None:
            state["block"] = 0
            state["index"] = (state["index"] + 1) % cycle_length

        def get_next() -> Optional[Element]:
            while not state["end"] or state["open"] > 0:
                i = state["index"]
                current = cycle[i]
                if current is not None:
                    out = current.get_next()
                    if out is not None:
                        state["block"] += 1
                        if state["block"] == block_length:
                            advance_cycle()
                        return out
                    cycle[i] = None
                    state["open"] -= 1
                    advance_cycle()
                elif not state["end"]:
                    element = source()
                    if element is None:
                        state["end"] = True
                    else:
                        cycle[i] = self.fn(element, self.captures)[0].iterator()
                        state["open"] += 1
                else:
                    advance_cycle()
            return None
        return _FnIter(get_next)


class WindowValue(DatasetValue):
    """`window(size, shift, stride, drop_remainder)`: each element is a tuple of datasets,
    one per input component, holding one window of elements."""

    def __init__(self, input_value: DatasetValue, size: int, shift: int, stride: int,
                 drop_remainder: bool):
        for name, v in (("size", size), ("shift", shift), ("stride", stride)):
            if v <= 0:
                raise invalid(f"Window {name} must be greater than zero, but got {v}.")
        self.input, self.size, self.shift, self.stride = input_value, size, shift, stride
        self.drop_remainder = drop_remainder

    def iterator(self) -> Iter:
        source = self.input.iterator().get_next
        buffer: List[Element] = []
        state = {"end": False, "skip": 0}
        span = (self.size - 1) * self.stride + 1

        def get_next() -> Optional[Element]:
            while state["skip"] > 0 and not state["end"]:
                if buffer:
                    buffer.pop(0)
                elif source() is None:
                    state["end"] = True
                    break
                state["skip"] -= 1
            while len(buffer) < span and not state["end"]:
                element = source()
                if element is None:
                    state["end"] = True
                else:
                    buffer.append(element)
            if not buffer or (self.drop_remainder and len(buffer) < span):
                return None
            window = buffer[:span:self.stride]
            if len(buffer) >= self.shift:
                del buffer[:self.shift]
            else:
                state["skip"] = self.shift - len(buffer)
                buffer.clear()
            return tuple(_ElementsValue([(e[k],) for e in window])
                         for k in range(len(window[0])))
        return _FnIter(get_next)


class _ElementsValue(DatasetValue):
    """A dataset over a list of elements held in memory (window contents)."""

    def __init__(self, elements: List[Element]):
        self.elements = elements

    def iterator(self) -> Iter:
        return _ListIter(self.elements)
