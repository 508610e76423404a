"""Batches of in-memory slices by index gathers: `from_tensor_slices` followed by any
chain of `shuffle` and `repeat`, then `batch`.

The element path (`_runtime.BatchValue` over per-element iterators) hands one tuple of
row tensors per element through shuffle and repeat and stacks them again per batch. When
the batch's input is such a chain over a `TensorSliceValue` whose components are all
dense (torch tensors, numpy arrays), only the row numbers need to flow: the same
iterators run over integers - TF's shuffle algorithm and seeds (`_shuffle.ShuffleIter`,
fed row numbers instead of elements), repeat's passes with the same seed draws - and
each batch is one `index_select` (`take` for string arrays) per component. The order,
the values and the seed draws are the element path's; anything else (a map, a filter,
sparse components, ...) takes the element path.
"""

from __future__ import annotations

from typing import Callable, List, Optional

import numpy as np
import torch

from tf1compat.data._runtime import BatchValue, DatasetValue, Element, Iter, RepeatValue, \
    TensorSliceValue
from tf1compat.data._shuffle import ShuffleIter, ShuffleValue

__all__ = ["batch_value"]

Take = Callable[[int], List[int]]       # up to n row numbers, fewer only at the end


def batch_value(input_value: DatasetValue, batch_size: int,
                drop_remainder: bool) -> BatchValue:
    """BatchDataset's value: gathering when its input allows, else the element path."""
    if _slices_under(input_value) is not None:
        return _GatherBatchValue(input_value, batch_size, drop_remainder)
    return BatchValue(input_value, batch_size, drop_remainder)


def _slices_under(value: DatasetValue) -> Optional[TensorSliceValue]:
    """The dense TensorSliceValue under a chain of shuffles and repeats, if it is one."""
    while isinstance(value, (ShuffleValue, RepeatValue)):
        value = value.input
    if isinstance(value, TensorSliceValue) and all(
            isinstance(c, (torch.Tensor, np.ndarray)) for c in value.components):
        return value
    return None


def _rows(value: DatasetValue) -> Take:
    """A pass over `value`'s row numbers, as its iterator would give its elements."""
    if isinstance(value, TensorSliceValue):
        return _slice_rows(value.n)
    if isinstance(value, ShuffleValue):
        return _shuffle_rows(value)
    return _repeat_rows(value)


def _shuffle_rows(value: ShuffleValue) -> Take:
    """A shuffle pass over row numbers: the input's rows are a list, so when all the
    rows a take asks for come, the buffer's draws take `draw_full`'s short loop."""
    inner = _rows(value.input)
    shuffle = ShuffleIter(value.buffer_size, value.pass_random(),
                          lambda count: iter(inner(count)))

    def take(count: int) -> List[int]:
        want = shuffle.wanted(count)
        if shuffle.pull is None or want <= 0 or count <= 0:
            return shuffle.take(count)
        rows = inner(want)
        if len(rows) == want:
            return shuffle.draw_full(count, rows)
        return shuffle.draw(count, iter(rows))
    return take


def _slice_rows(n: int) -> Take:
    position = [0]

    def take(count: int) -> List[int]:
        start = position[0]
        stop = min(n, start + count)
        position[0] = stop
        return list(range(start, stop))
    return take


def _repeat_rows(value: RepeatValue) -> Take:
    """RepeatValue's passes over row numbers: a new pass (and its seed draws) only when
    the last one has ended and more rows are asked for; an empty input repeated forever
    is empty."""
    state = {"pass": None, "epoch": 0, "produced": False, "done": False}
    count = value.count

    def take(wanted: int) -> List[int]:
        out: List[int] = []
        while len(out) < wanted and not state["done"]:
            if 0 <= count <= state["epoch"]:
                state["done"] = True
                break
            if state["pass"] is None:
                state["pass"] = _rows(value.input)
                state["produced"] = False
            asked = wanted - len(out)
            got = state["pass"](asked)
            out.extend(got)
            if got:
                state["produced"] = True
            if len(got) < asked:
                state["pass"] = None
                state["epoch"] += 1
                if not state["produced"] and count < 0:
                    state["done"] = True
        return out
    return take


class _GatherBatchValue(BatchValue):
    """BatchValue over shuffled/repeated slices, one gather per component a batch."""

    def iterator(self) -> Iter:
        components = _slices_under(self.input).components
        rows = _rows(self.input)
        size, drop = self.batch_size, self.drop_remainder
        return _GatherIter(components, rows, size, drop)


class _GatherIter(Iter):
    def __init__(self, components: tuple, rows: Take, size: int, drop: bool):
        self.components, self.rows, self.size, self.drop = components, rows, size, drop
        self.done = False

    def get_next(self) -> Optional[Element]:
        if self.done:
            return None
        rows = self.rows(self.size)
        if len(rows) < self.size:
            self.done = True
            if not rows or self.drop:
                return None
        index = torch.tensor(rows, dtype=torch.int64)
        return tuple(c.index_select(0, index) if isinstance(c, torch.Tensor) else
                     c.take(index.numpy(), axis=0) for c in self.components)
