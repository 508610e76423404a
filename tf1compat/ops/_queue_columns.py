"""Columnar storage for the run-time FIFOQueue and RandomShuffleQueue (`_queues.py`).

A queue whose components all have fully defined shapes and numpy-representable dtypes
keeps its elements as rows of one numpy array per component instead of one Python tuple
per element: `enqueue_many` writes a whole batch with one copy per component and
`dequeue_many` gathers its rows with one `take` per group of components of one dtype and
element shape (a RandomShuffleQueue's `_Slots`), where the per-row storage
splits a batch into `batch x components` objects and stacks them again at the dequeue
(numpy_input_fn's feeding queue: 128 rows x 22 components a step).

The order of a queue kind is kept exactly: a columnar RandomShuffleQueue holds the slot
numbers of its rows in the list the per-row queue holds its elements in, and draws and
swaps them the same way (TF's seeded order); a columnar FIFOQueue holds blocks of rows
in arrival order. Blocking, closing, timeouts and cancellation are the base machinery's,
unchanged: only the storage hooks (`rows_of`, `_push_rows`, `_take`, `_return`,
`_assemble`, `_push`, `_pop`) differ.

Values are copied into the storage (so the enqueue kernel need not copy a feed first),
and what a dequeue hands out is never written again by the queue.
"""

from __future__ import annotations

import collections
from typing import Any, Deque, List, Sequence

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._queues import _NUMPY_VIEWABLE, FIFOQueue, RandomShuffleQueue

__all__ = ["columnar", "ColumnarFIFOQueue", "ColumnarRandomShuffleQueue"]

Columns = List[np.ndarray]        # one array per component, rows along dimension 0


def columnar(dtypes: Sequence[D.DType], shapes: Sequence[TensorShape]) -> bool:
    """Whether a queue of these components can keep them in columns: every shape fully
    defined and every dtype one numpy holds (strings as object arrays)."""
    if not shapes or len(shapes) != len(dtypes):
        return False
    return all(TensorShape(s).is_fully_defined() for s in shapes) and all(
        d == D.string or d.torch_dtype in _NUMPY_VIEWABLE for d in dtypes)


def _numpy_dtype(dtype: D.DType) -> np.dtype:
    if dtype == D.string:
        return np.dtype(object)
    return torch.empty(0, dtype=dtype.torch_dtype).numpy().dtype


def _as_numpy(value: Any) -> Any:
    """A component value (a CPU tensor, a numpy array or scalar, bytes) numpy can read."""
    if isinstance(value, torch.Tensor):
        try:
            return value.numpy()
        except (RuntimeError, TypeError):     # needs grad, a conjugate view, not on CPU
            return value.detach().resolve_conj().resolve_neg().cpu().numpy()
    return value


class _Layout:
    """The components' numpy dtypes and element shapes; builds and reads rows."""

    def __init__(self, dtypes: Sequence[D.DType], shapes: Sequence[TensorShape]):
        self.numpy_dtypes = [_numpy_dtype(d) for d in dtypes]
        self.shapes = [tuple(TensorShape(s).as_list()) for s in shapes]
        self.strings = [d == D.string for d in dtypes]

    def empty(self, rows: int) -> Columns:
        return [np.empty((rows,) + s, dtype=t) for s, t in zip(self.shapes, self.numpy_dtypes)]

    def batch(self, columns: Columns) -> List[Any]:
        """A dequeue_many's outputs: tensors, numpy object arrays for strings."""
        return [c if s else torch.from_numpy(c) for c, s in zip(columns, self.strings)]

    def put(self, columns: Columns, index: int, element: Sequence[Any]) -> None:
        """Writes one element into row `index` (a string scalar as its bytes object, not
        as a 0-d array an object column would hold as it is)."""
        for column, value, shape in zip(columns, element, self.shapes):
            value = _as_numpy(value)
            if not shape and isinstance(value, np.ndarray):
                value = value[()]
            column[index] = value

    def row(self, columns: Columns, index: int) -> tuple:
        """One element (copied): a bytes object for a scalar string."""
        out = []
        for c, s in zip(columns, self.strings):
            value = c[index]
            out.append(value.copy() if isinstance(value, np.ndarray) else
                       value if s else np.array(value))
        return tuple(out)

    def joined(self, chunks: List[Columns]) -> Columns:
        """The rows of several chunks, in order, as one array per component."""
        if not chunks:
            return self.empty(0)
        if len(chunks) == 1:
            return chunks[0]
        return [np.concatenate(parts) for parts in zip(*chunks)]


class _Slots:
    """Rows in numbered slots of one growing array per component; freed slots are
    reused. Grows by doubling, so the arrays are at most twice the largest size.

    Components of one dtype and element shape share a block `[k, slots, *shape]` whose
    row j is component j's array, so a gather takes the rows of all k at once (one
    `take` for numpy_input_fn's 20 float features instead of 20); each component
    handed out is a contiguous row of the block the gather made."""

    def __init__(self, layout: _Layout):
        self._layout = layout
        members: dict = {}
        for j, (shape, dtype) in enumerate(zip(layout.shapes, layout.numpy_dtypes)):
            members.setdefault((shape, dtype), []).append(j)
        self._groups = [(shape, dtype, js) for (shape, dtype), js in members.items()]
        self._blocks: List[np.ndarray] = []
        self._columns: Columns = []
        self._allocate(0)
        self._free: List[int] = []

    def _allocate(self, rows: int) -> None:
        """New (empty) blocks of `rows` slots; `_columns` their per-component rows."""
        self._blocks = [np.empty((len(js), rows) + shape, dtype=dtype)
                        for shape, dtype, js in self._groups]
        columns: List[Any] = [None] * len(self._layout.shapes)
        for block, (_, _, js) in zip(self._blocks, self._groups):
            for j, row in zip(js, block):
                columns[j] = row
        self._columns = columns

    def reserve(self, count: int) -> List[int]:
        if len(self._free) < count:
            self._grow(count - len(self._free))
        slots = self._free[-count:]
        del self._free[-count:]
        return slots

    def _grow(self, need: int) -> None:
        old = len(self._columns[0])
        new = max(2 * old, old + need, 64)
        blocks = self._blocks
        self._allocate(new)
        for grown, block in zip(self._blocks, blocks):
            grown[:, :old] = block
        self._free.extend(range(new - 1, old - 1, -1))   # the lowest slots are used first

    def write(self, slots: List[int], values: Sequence[Any]) -> None:
        """Writes a batch's rows (one array per component) into `slots`."""
        index = np.asarray(slots, dtype=np.intp)
        for column, value in zip(self._columns, values):
            column[index] = value

    def write_row(self, slot: int, element: Sequence[Any]) -> None:
        self._layout.put(self._columns, slot, element)

    def gather(self, slots: List[int]) -> Columns:
        index = np.asarray(slots, dtype=np.intp)
        columns: List[Any] = [None] * len(self._columns)
        for block, (_, _, js) in zip(self._blocks, self._groups):
            for j, rows in zip(js, block.take(index, axis=1)):
                columns[j] = rows
        return columns

    def row(self, slot: int) -> tuple:
        return self._layout.row(self._columns, slot)

    def release(self, slots: List[int]) -> None:
        self._free.extend(slots)


class ColumnarRandomShuffleQueue(RandomShuffleQueue):
    """RandomShuffleQueue in columns: `_list` holds slot numbers where the per-row queue
    holds elements, so the draws (`random() % size`, the last moved into the gap) and
    hence the order are the same."""

    copies_rows = True

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._layout = _Layout(self.dtypes, self.shapes)
        self._slots = _Slots(self._layout)

    def rows_of(self, components: Sequence[Any]) -> Columns:
        return [v if type(v) is np.ndarray else _as_numpy(v) for v in components]

    def _push_rows(self, rows: Columns, start: int, stop: int) -> None:
        slots = self._slots.reserve(stop - start)
        self._slots.write(slots, [r[start:stop] for r in rows])
        self._list.extend(slots)

    def _push(self, element: Any) -> None:
        slot = self._slots.reserve(1)[0]
        self._slots.write_row(slot, element)
        self._list.append(slot)

    def _pop(self) -> tuple:
        slot = super()._pop()
        element = self._slots.row(slot)
        self._slots.release([slot])
        return element

    def _take(self, count: int) -> Columns:
        slots = self._draw(count)
        columns = self._slots.gather(slots)
        self._slots.release(slots)
        return columns

    def _return(self, chunks: List[Columns]) -> int:
        # As the per-row queue's `_give_back`: appended last taken first.
        columns = self._layout.joined(chunks)
        count = len(columns[0])
        self._push_rows([c[::-1] for c in columns], 0, count)
        return count

    def _assemble(self, chunks: List[Columns]) -> List[Any]:
        return self._layout.batch(self._layout.joined(chunks))


class ColumnarFIFOQueue(FIFOQueue):
    """FIFOQueue in columns: blocks of rows (each enqueue's, copied) in arrival order,
    the head block read from an offset. Blocks are never written after they are made,
    so a dequeue may hand out views of one."""

    copies_rows = True

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._layout = _Layout(self.dtypes, self.shapes)
        self._blocks: Deque[List[Any]] = collections.deque()   # [columns, offset]
        self._count = 0

    def _size(self) -> int:
        return self._count

    def _available(self) -> int:
        return self._count

    def rows_of(self, components: Sequence[Any]) -> Columns:
        return [v if type(v) is np.ndarray else _as_numpy(v) for v in components]

    def _push_rows(self, rows: Columns, start: int, stop: int) -> None:
        self._blocks.append([[np.array(r[start:stop]) for r in rows], 0])
        self._count += stop - start

    def _push(self, element: Any) -> None:
        block = self._layout.empty(1)
        self._layout.put(block, 0, element)
        self._blocks.append([block, 0])
        self._count += 1

    def _pop(self) -> tuple:
        head = self._blocks[0]
        columns, offset = head
        element = self._layout.row(columns, offset)
        self._advance(head, 1)
        return element

    def _advance(self, head: List[Any], count: int) -> None:
        head[1] += count
        self._count -= count
        if head[1] == len(head[0][0]):
            self._blocks.popleft()

    def _take(self, count: int) -> Columns:
        pieces: List[Columns] = []
        while count:
            head = self._blocks[0]
            columns, offset = head
            n = min(count, len(columns[0]) - offset)
            pieces.append([c[offset:offset + n] for c in columns])
            self._advance(head, n)
            count -= n
        return self._layout.joined(pieces)

    def _return(self, chunks: List[Columns]) -> int:
        columns = self._layout.joined(chunks)
        count = len(columns[0])
        if count:
            self._blocks.appendleft([columns, 0])
            self._count += count
        return count

    def _assemble(self, chunks: List[Columns]) -> List[Any]:
        return self._layout.batch(self._layout.joined(chunks))
