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
from tf1compat.data._shuffle import RangeShuffle, ShuffleIter, ShuffleValue

__all__ = ["batch_value"]

Take = Callable[[int], torch.Tensor]   # up to n row numbers (int64), fewer only at the end

# Draws a shuffle pass over the slices' own rows makes at once (`_shuffled_slice_rows`).
_AHEAD = 1024


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


def _slice_rows(n: int) -> Take:
    position = [0]

    def take(count: int) -> torch.Tensor:
        start = position[0]
        position[0] = stop = min(n, start + count)
        return torch.arange(start, stop)
    return take


def _shuffle_rows(value: ShuffleValue) -> Take:
    """A shuffle pass over row numbers: straight over the slices' rows
    (`_shuffled_slice_rows`), or over another pass's (a repeat's), whose rows then come
    as a take asks for them; when all that it asks for are known, the buffer's draws
    take `draw_known`'s short loops."""
    if isinstance(value.input, TensorSliceValue) and value.buffer_size > 0:
        return _shuffled_slice_rows(value)
    inner = _rows(value.input)
    shuffle = ShuffleIter(value.buffer_size, value.pass_random(),
                          lambda count: iter(inner(count).tolist()))

    def take(count: int) -> torch.Tensor:
        want = shuffle.wanted(count)
        if shuffle.pull is None or want <= 0 or count <= 0:
            rows = shuffle.take(count)
        else:
            rows = shuffle.draw_known(count, inner(want).tolist())
        return torch.tensor(rows, dtype=torch.int64)
    return take


def _shuffled_slice_rows(value: ShuffleValue) -> Take:
    """A shuffle pass straight over the slices' rows (`RangeShuffle`), drawn `_AHEAD`
    rows at a time and handed out in slices: its input is its own pass over 0..n-1 and
    its random words its pass's own, so drawing early shows nowhere but in the cost (one
    conversion to a tensor per `_AHEAD` rows instead of one per batch)."""
    shuffle = RangeShuffle(value.buffer_size, value.pass_random(), value.input.n)
    state = {"drawn": torch.empty(0, dtype=torch.int64), "at": 0}

    def take(count: int) -> torch.Tensor:
        drawn, at = state["drawn"], state["at"]
        if len(drawn) - at < count:
            more = torch.tensor(shuffle.take(max(count, _AHEAD)), dtype=torch.int64)
            drawn, at = torch.cat([drawn[at:], more]), 0
        state["drawn"], state["at"] = drawn, at + count
        return drawn[at:at + count]
    return take


def _repeat_rows(value: RepeatValue) -> Take:
    """RepeatValue's passes over row numbers: a new pass (and its seed draws) only when
    the last one has ended and more rows are asked for; an empty input repeated forever
    is empty."""
    state = {"pass": None, "epoch": 0, "produced": False, "done": False}
    count = value.count

    def take(wanted: int) -> torch.Tensor:
        out: List[torch.Tensor] = []
        have = 0
        while have < wanted and not state["done"]:
            if 0 <= count <= state["epoch"]:
                state["done"] = True
                break
            if state["pass"] is None:
                state["pass"] = _rows(value.input)
                state["produced"] = False
            asked = wanted - have
            got = state["pass"](asked)
            out.append(got)
            have += len(got)
            if len(got):
                state["produced"] = True
            if len(got) < asked:
                state["pass"] = None
                state["epoch"] += 1
                if not state["produced"] and count < 0:
                    state["done"] = True
        if len(out) == 1:
            return out[0]
        return torch.cat(out) if out else torch.empty(0, dtype=torch.int64)
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
            if not len(rows) or self.drop:
                return None
        return tuple(c.index_select(0, rows) if isinstance(c, torch.Tensor) else
                     c.take(rows.numpy(), axis=0) for c in self.components)
