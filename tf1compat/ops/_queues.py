"""Run-time queues: TF's FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue, PriorityQueue.

A queue is a session resource (queue_ops.py) shared by every thread running the session.
It follows TF's QueueBase design, so the order in which blocked operations complete is
TF's: each enqueue, dequeue or close is an *attempt* appended to the queue's enqueue or
dequeue line; `_flush` runs the attempts at the head of both lines, in turn, until none
makes progress. An attempt that cannot finish yet (queue full, too few elements) stays at
the head of its line and later operations wait behind it; a `dequeue_many(n)` takes
elements as they arrive, so it completes even when `n` exceeds the capacity.

The thread that issued an attempt waits on its own condition (sharing the queue's lock)
until some flush completes it, its run's deadline passes (DeadlineExceededError; a
partly filled `dequeue_many` gives its elements back, where TF would drop them) or the
session closes (CancelledError).

Elements are tuples of component values as kernels see them: torch tensors, and for
string components numpy object arrays (bytes objects for scalars). Queues of fixed-shape
components keep them in columns instead (`_queue_columns.py`, through the storage hooks
`rows_of`, `_push_rows`, `_take`, `_return` and `_assemble`); the machinery here works in
chunks of rows either way.
"""

from __future__ import annotations

import collections
import heapq
import itertools
import threading
import time
from typing import Any, Callable, Deque, List, Optional, Sequence, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.util.gil_lock import GilLock

__all__ = ["wait_until", "Queue", "FIFOQueue", "PaddingFIFOQueue", "RandomShuffleQueue",
           "PriorityQueue", "resource_name", "split_batch", "as_tensor", "stack_components",
           "padded", "shape_text", "value_shape", "value_matches"]

Element = Tuple[Any, ...]

_NO_PROGRESS, _PROGRESS, _COMPLETE = 0, 1, 2
_unique_ids = itertools.count()


def resource_name(node_name: str, shared_name: str) -> str:
    """The resource's name in TF's messages: `shared_name`, else `_<id>_<node name>`."""
    return shared_name or f"_{next(_unique_ids)}_{node_name}"


def shape_text(shape: Sequence[Any]) -> str:
    """TF's TensorShape::DebugString of a run-time or partial shape: "[2,?]"."""
    return "[" + ",".join("?" if d is None else str(int(d)) for d in shape) + "]"


def value_shape(value: Any) -> Tuple[int, ...]:
    """The shape of a component value (a bytes object is a string scalar)."""
    if isinstance(value, (torch.Tensor, np.ndarray)):
        return tuple(value.shape)
    return ()


_SHAPED = (np.ndarray, torch.Tensor)     # exact types whose `shape` compares with a tuple


def split_batch(value: Any) -> List[Any]:
    """The elements of a batched component (its slices along dimension 0).

    A CPU tensor numpy can view is split into numpy views: splitting and, at dequeue,
    stacking them costs a few microseconds and never releases the GIL, where a torch
    slice per element costs far more and every torch.stack releases the GIL - which, with
    feeder threads busy in Python, makes the dequeuing thread wait for a GIL switch
    interval each time."""
    if isinstance(value, torch.Tensor):
        if value.device.type == "cpu" and value.dtype in _NUMPY_VIEWABLE:
            return list(value.detach().numpy())
        return list(value.unbind(0))
    return list(value)


_NUMPY_VIEWABLE = frozenset([torch.float16, torch.float32, torch.float64, torch.int8,
                             torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool,
                             torch.complex64, torch.complex128])


def as_tensor(value: Any) -> Any:
    """An element component as a torch tensor (numpy views from split_batch converted)."""
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype != object:
        return torch.as_tensor(value)
    return value


def stack_components(values: Sequence[Any], dtype: D.DType,
                     shape: Tuple[int, ...]) -> Any:
    """Stacks element components of `shape` into one batch (an empty batch for none)."""
    if dtype == D.string:
        out = np.empty((len(values),) + tuple(shape), dtype=object)
        for i, v in enumerate(values):
            out[i] = v
        return out
    if not values:
        return torch.zeros((0,) + tuple(shape), dtype=dtype.torch_dtype)
    if isinstance(values[0], (np.ndarray, np.generic)):
        try:    # numpy reads any CPU tensors among the views too
            return torch.from_numpy(np.array(values, dtype=values[0].dtype))
        except (TypeError, RuntimeError):
            pass
    return torch.stack([as_tensor(v) for v in values])


def padded(values: Sequence[Any], dtype: D.DType, rank: int) -> Any:
    """PaddingFIFOQueue's batch: each element padded with zeros ("" for strings) to the
    largest size in every dimension."""
    dims = [max((value_shape(v)[k] for v in values), default=0) for k in range(rank)]
    if dtype == D.string:
        out = np.full((len(values),) + tuple(dims), b"", dtype=object)
        for i, v in enumerate(values):
            arr = np.asarray(v, dtype=object)
            out[(i,) + tuple(slice(0, n) for n in arr.shape)] = arr
        return out
    out = torch.zeros((len(values),) + tuple(dims), dtype=dtype.torch_dtype)
    for i, v in enumerate(values):
        out[(i,) + tuple(slice(0, n) for n in v.shape)] = as_tensor(v)
    return out


def wait_until(cond: threading.Condition, ready: Callable[[], bool],
               cancelled: Callable[[], bool], what: str, deadline: Optional[float]) -> None:
    """Waits on `cond` (held by the caller) until `ready()`: CancelledError naming `what`
    once `cancelled()` (the session closed), TF's DeadlineExceededError past `deadline`
    (a time.monotonic value; None waits for ever). The waits of resources that are not
    queues (accumulators, staging areas)."""
    while not ready():
        if cancelled():
            raise errors.CancelledError(None, None, f"{what} operation was cancelled")
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            raise errors.DeadlineExceededError(None, None,
                                               "Timed out waiting for notification")
        cond.wait(remaining)


class _Attempt:
    """One pending operation: `step(attempt)` runs under the queue's lock and returns
    _NO_PROGRESS, _PROGRESS or _COMPLETE (then `error` or `result` is set)."""

    __slots__ = ("count", "step", "taken", "done", "error", "result", "waiter")

    def __init__(self, count: int, step: Callable[["_Attempt"], int]):
        self.count = count                 # elements still to enqueue / dequeue
        self.step = step
        self.taken: List[Any] = []         # the chunks a dequeue_many holds so far
        self.done = False
        self.error: Optional[BaseException] = None
        self.result: Any = None
        self.waiter: Optional[threading.Condition] = None


class Queue:
    """TF's queue machinery (QueueBase), FIFO order; subclasses change the order."""

    kind = "FIFOQueue"
    # Whether the storage copies what it is given (then the enqueue kernel need not).
    copies_rows = False

    def __init__(self, name: str, dtypes: Sequence[D.DType], shapes: Sequence[TensorShape],
                 capacity: int):
        self.name = name
        self.dtypes = list(dtypes)
        self.shapes = [TensorShape(s) for s in shapes]   # [] when unspecified
        # The shapes as tuples (None: unknown rank), for the per-element checks.
        self._dims = [None if s.rank is None else tuple(s.as_list()) for s in self.shapes]
        self.capacity = capacity if capacity >= 0 else (1 << 31) - 1
        self.closed = False
        self._cancelled = False       # the session closed: everything fails
        # Shared by producer and consumer threads (no lock convoy: util/gil_lock.py).
        self._lock = GilLock()
        self._enqueues: Deque[_Attempt] = collections.deque()
        self._dequeues: Deque[_Attempt] = collections.deque()
        self._elements: Deque[Element] = collections.deque()

    # -- storage (the order of a queue kind) -----------------------------------------------
    def _size(self) -> int:
        return len(self._elements)

    def _push(self, element: Element) -> None:
        self._elements.append(element)

    def _pop(self) -> Element:
        return self._elements.popleft()

    def _give_back(self, elements: List[Element]) -> None:
        """Returns the elements an unfinished dequeue_many took (to the front, in order)."""
        self._elements.extendleft(reversed(elements))

    def _available(self) -> int:
        """How many elements a dequeue may take now (RandomShuffleQueue keeps some)."""
        return len(self._elements)

    # -- batches: per-row storage (columnar queues, _queue_columns.py, override these) -----
    def rows_of(self, components: Sequence[Any]) -> List[Element]:
        """The elements of an enqueue_many's batch, as `enqueue_many` takes them."""
        return list(zip(*[split_batch(v) for v in components]))

    def _push_rows(self, rows: List[Element], start: int, stop: int) -> None:
        for i in range(start, stop):
            self._push(rows[i])

    def _take(self, count: int) -> List[Element]:
        """`count` elements in dequeue order: one chunk of a dequeue_many."""
        return [self._pop() for _ in range(count)]

    def _return(self, chunks: List[List[Element]]) -> int:
        """Gives back the chunks an unfinished dequeue_many took; returns their size."""
        elements = [e for chunk in chunks for e in chunk]
        self._give_back(elements)
        return len(elements)

    def _assemble(self, chunks: List[List[Element]]) -> List[Any]:
        """A dequeue_many's batch per component from the chunks it took."""
        elements = [e for chunk in chunks for e in chunk]
        # One transposition in C instead of a Python loop over the elements per component.
        columns = list(zip(*elements)) if elements else [[] for _ in self.dtypes]
        return [self._batch(column, i) for i, column in enumerate(columns)]

    def _batch(self, values: Sequence[Any], index: int) -> Any:
        dtype, shape = self.dtypes[index], self.shapes[index]
        return stack_components(values, dtype, tuple(d or 0 for d in shape.as_list()))

    # -- validation -------------------------------------------------------------------------
    def check_element(self, components: Sequence[Any]) -> None:
        """TF's ValidateTuple: each component has the declared shape."""
        for i, (value, dims) in enumerate(zip(components, self._dims)):
            actual = value.shape if type(value) in _SHAPED else value_shape(value)
            if dims is None or dims == actual:
                continue
            if len(dims) != len(actual) or any(d is not None and d != a
                                               for d, a in zip(dims, actual)):
                raise errors.InvalidArgumentError(
                    None, None, f"Shape mismatch in tuple component {i}. Expected "
                                f"{shape_text(dims)}, got {shape_text(actual)}")

    def check_batch(self, components: Sequence[Any]) -> int:
        """TF's ValidateManyTuple: returns the batch size."""
        shapes = [v.shape if type(v) in _SHAPED else value_shape(v) for v in components]
        if self.shapes:
            batch = shapes[0][0] if shapes[0] else None
            for i, (actual, shape) in enumerate(zip(shapes, self.shapes)):
                if actual and actual[0] == batch and actual[1:] == self._dims[i]:
                    continue        # the common case, without building shapes
                expected = [batch] + _dims(shape)
                if not actual or not value_matches(TensorShape(expected), actual):
                    raise errors.InvalidArgumentError(
                        None, None, f"Shape mismatch in tuple component {i}. Expected "
                                    f"{shape_text(expected)}, got {shape_text(actual)}")
            return int(batch)
        for i, actual in enumerate(shapes):
            if not actual:
                raise errors.InvalidArgumentError(
                    None, None, f"Shape mismatch in tuple component {i}: enqueue_many needs "
                                f"a batch dimension, got a scalar")
        for i in range(1, len(shapes)):
            if shapes[i][0] != shapes[0][0]:
                raise errors.InvalidArgumentError(
                    None, None, "All input tensors must have the same size in the 0th "
                                f"dimension. Component {i} has {shapes[i][0]}, and should "
                                f"have {shapes[0][0]}")
        return shapes[0][0]

    # -- operations ----------------------------------------------------------------------------
    def enqueue(self, element: Element, deadline: Optional[float]) -> None:
        with self._lock:
            if not self._enqueues and not self.closed and not self._cancelled and \
                    self._size() < self.capacity:
                # The common case, without an attempt: nothing waits ahead of it and
                # there is room, so the attempt would complete at once (dequeues
                # waiting for elements still run, as after any completed enqueue).
                self._push(element)
                if self._dequeues:
                    self._flush()
                return

        def step(attempt: _Attempt) -> int:
            if self.closed:
                attempt.error = errors.CancelledError(None, None,
                                                      f"{self.kind} '{self.name}' is closed.")
                return _COMPLETE
            if self._size() < self.capacity:
                self._push(element)
                return _COMPLETE
            return _NO_PROGRESS
        self._wait(self._enqueues, _Attempt(1, step), deadline)

    def enqueue_many(self, rows: Any, count: int, deadline: Optional[float]) -> None:
        """Enqueues the `count` elements of `rows` (what `rows_of` made of a batch)."""
        if not count:
            return

        def step(attempt: _Attempt) -> int:
            if self.closed:
                attempt.error = errors.CancelledError(None, None,
                                                      f"{self.kind} '{self.name}' is closed.")
                return _COMPLETE
            room = self.capacity - self._size()
            if room <= 0:
                return _NO_PROGRESS
            start = count - attempt.count
            taking = min(room, attempt.count)
            self._push_rows(rows, start, start + taking)
            attempt.count -= taking
            return _COMPLETE if attempt.count == 0 else _PROGRESS
        self._wait(self._enqueues, _Attempt(count, step), deadline)

    def dequeue(self, deadline: Optional[float]) -> Element:
        def step(attempt: _Attempt) -> int:
            size = self._size()
            if self.closed and size == 0:
                attempt.error = self._insufficient(1, size)
                return _COMPLETE
            if (size if self.closed else self._available()) > 0:
                attempt.result = self._pop()
                return _COMPLETE
            return _NO_PROGRESS
        return self._wait(self._dequeues, _Attempt(1, step), deadline)

    def dequeue_many(self, n: int, allow_small: bool,
                     deadline: Optional[float]) -> List[Any]:
        """`n` elements (fewer, at least one, from a closed queue with `allow_small`) as
        one batch per component."""
        if n == 0:
            return self._assemble([])

        def step(attempt: _Attempt) -> int:
            size = self._size()
            if self.closed and size < attempt.count:
                # Too few will ever come: what was taken goes back (TF's message still
                # counts only the elements missing, and the size before that).
                missing = attempt.count
                if attempt.taken:
                    attempt.count += self._return(attempt.taken)
                    attempt.taken = []
                if allow_small and self._size() > 0:
                    attempt.count = size = self._size()
                else:
                    if allow_small and self._enqueues:
                        return _PROGRESS      # pending enqueues will fail first
                    attempt.error = self._insufficient(missing, size)
                    return _COMPLETE
            available = size if self.closed else self._available()
            if available <= 0:
                return _NO_PROGRESS
            taking = min(available, attempt.count)
            attempt.taken.append(self._take(taking))
            attempt.count -= taking
            if attempt.count == 0:
                attempt.result = self._assemble(attempt.taken)
                return _COMPLETE
            return _PROGRESS
        return self._wait(self._dequeues, _Attempt(n, step), deadline)

    def close_queue(self, cancel_pending_enqueues: bool, deadline: Optional[float]) -> None:
        """TF's QueueClose: later enqueues fail; with `cancel_pending_enqueues` the pending
        ones too, else it waits behind them."""
        if cancel_pending_enqueues:
            with self._lock:
                self.closed = True
                while self._enqueues:
                    self._finish(self._enqueues.popleft(), errors.CancelledError(
                        None, None, "Enqueue operation was cancelled"))
                self._flush()
            return

        def step(attempt: _Attempt) -> int:
            if self.closed:
                attempt.error = errors.CancelledError(
                    None, None, f"Queue '{self.name}' is already closed.")
            else:
                self.closed = True
            return _COMPLETE
        # Queued behind the pending enqueues, which complete first (as in TF).
        self._wait(self._enqueues, _Attempt(0, step), deadline)

    def size(self) -> int:
        with self._lock:
            return self._size()

    def close(self) -> None:
        """The session closed: every pending and later operation is cancelled."""
        with self._lock:
            self._cancelled = True
            for line, what in ((self._enqueues, "Enqueue"), (self._dequeues, "Dequeue")):
                while line:
                    attempt = line.popleft()
                    if attempt.taken:
                        self._return(attempt.taken)
                    self._finish(attempt, errors.CancelledError(
                        None, None, f"{what} operation was cancelled"))

    # -- the attempt machinery ----------------------------------------------------------------
    def _insufficient(self, requested: int, size: int) -> errors.OpError:
        return errors.OutOfRangeError(
            None, None, f"{self.kind} '{self.name}' is closed and has insufficient elements "
                        f"(requested {requested}, current size {size})")

    def _wait(self, line: Deque[_Attempt], attempt: _Attempt,
              deadline: Optional[float]) -> Any:
        with self._lock:
            if self._cancelled:
                what = "Enqueue" if line is self._enqueues else "Dequeue"
                raise errors.CancelledError(None, None, f"{what} operation was cancelled")
            line.append(attempt)
            self._flush()
            while not attempt.done:
                if attempt.waiter is None:
                    attempt.waiter = threading.Condition(self._lock)
                if deadline is None:
                    attempt.waiter.wait()
                    continue
                remaining = deadline - time.monotonic()
                if remaining > 0:
                    attempt.waiter.wait(remaining)
                elif not attempt.done:
                    self._abandon(line, attempt)
                    raise errors.DeadlineExceededError(
                        None, None, "Timed out waiting for notification")
        if attempt.error is not None:
            raise attempt.error
        return attempt.result

    def _abandon(self, line: Deque[_Attempt], attempt: _Attempt) -> None:
        """A timed-out attempt leaves its line; elements it took go back."""
        if attempt in line:
            line.remove(attempt)
        if attempt.taken:
            self._return(attempt.taken)
            attempt.taken = []
        self._flush()

    def _finish(self, attempt: _Attempt, error: Optional[BaseException] = None) -> None:
        if error is not None:
            attempt.error = error
        attempt.done = True
        if attempt.waiter is not None:
            attempt.waiter.notify()

    def _flush(self) -> None:
        """Runs the head attempts of both lines until neither makes progress (lock held)."""
        changed = True
        while changed:
            changed = self._run_line(self._enqueues)
            changed = self._run_line(self._dequeues) or changed

    def _run_line(self, line: Deque[_Attempt]) -> bool:
        progress = False
        while line:
            attempt = line[0]
            outcome = attempt.step(attempt)
            if outcome == _NO_PROGRESS:
                break
            progress = True
            if outcome == _PROGRESS:
                break
            line.popleft()
            self._finish(attempt)
        return progress


class FIFOQueue(Queue):
    """First in, first out (TF's FIFOQueue)."""


class PaddingFIFOQueue(FIFOQueue):
    """A FIFOQueue whose shapes may have unknown dimensions; `dequeue_many` pads each
    batch to its largest element (TF's PaddingFIFOQueue)."""

    kind = "PaddingFIFOQueue"

    def _batch(self, values: Sequence[Any], index: int) -> Any:
        shape = self.shapes[index]
        if shape.is_fully_defined():
            return super()._batch(values, index)
        return padded(values, self.dtypes[index], shape.rank)


class RandomShuffleQueue(Queue):
    """TF's RandomShuffleQueue: a dequeue takes the element at `random() % size` (the
    last element moves into its place), and an open queue keeps `min_after_dequeue`
    elements. `random` is TF's Philox word stream of (seed, seed2), so a seeded queue
    filled in a fixed order yields TF's order."""

    kind = "RandomShuffleQueue"

    def __init__(self, name: str, dtypes: Sequence[D.DType], shapes: Sequence[TensorShape],
                 capacity: int, min_after_dequeue: int, seed: int, seed2: int):
        super().__init__(name, dtypes, shapes, capacity)
        from tf1compat.ops._philox import PhiloxWords
        self.min_after_dequeue = min_after_dequeue
        if seed == 0 and seed2 == 0:        # TF: both unset -> nondeterministic
            import secrets
            seed, seed2 = secrets.randbits(63), secrets.randbits(63)
        self._random = PhiloxWords(seed, seed2)
        self._list: List[Element] = []

    def _size(self) -> int:
        return len(self._list)

    def _push(self, element: Element) -> None:
        self._list.append(element)

    def _pop(self) -> Element:
        items = self._list
        index = self._random() % len(items)
        element = items[index]
        items[index] = items[-1]
        items.pop()
        return element

    def _take(self, count: int) -> List[Element]:
        return self._draw(count)

    def _draw(self, count: int) -> List[Any]:
        """`_pop` `count` times (what `_list` holds), with the random words drawn in one
        call; the list is cut once at the end (the training thread runs this per step)."""
        items, taken = self._list, []
        append = taken.append
        size = len(items)
        for word in self._random.take(count):
            index = word % size
            size -= 1
            append(items[index])
            items[index] = items[size]
        del items[size:]
        return taken

    def _give_back(self, elements: List[Element]) -> None:
        self._list.extend(reversed(elements))

    def _available(self) -> int:
        return len(self._list) - self.min_after_dequeue


class PriorityQueue(Queue):
    """TF's PriorityQueue: component 0 is an int64 scalar priority; dequeues take the
    smallest first (equal priorities in enqueue order, which TF leaves unspecified)."""

    kind = "PriorityQueue"

    def __init__(self, name: str, dtypes: Sequence[D.DType], shapes: Sequence[TensorShape],
                 capacity: int):
        super().__init__(name, dtypes, shapes, capacity)
        self._heap: List[Tuple[int, int, Element]] = []
        self._order = itertools.count()

    def check_element(self, components: Sequence[Any]) -> None:
        if value_shape(components[0]) != ():
            raise errors.InvalidArgumentError(
                None, None, "Expected the priority element to be a scalar, but received "
                            f"shape: {shape_text(value_shape(components[0]))}")
        super().check_element(components)

    def _size(self) -> int:
        return len(self._heap)

    def _push(self, element: Element) -> None:
        heapq.heappush(self._heap, (int(element[0]), next(self._order), element))

    def _pop(self) -> Element:
        return heapq.heappop(self._heap)[2]

    def _give_back(self, elements: List[Element]) -> None:
        for element in elements:
            self._push(element)

    def _available(self) -> int:
        return len(self._heap)


def _dims(shape: TensorShape) -> List[Optional[int]]:
    return [] if shape.rank is None else list(shape.as_list())


def value_matches(shape: TensorShape, actual: Tuple[int, ...]) -> bool:
    """Whether a run-time shape fits a (partial) static shape."""
    if shape.rank is None:
        return True
    dims = shape.as_list()
    return len(dims) == len(actual) and all(d is None or d == a for d, a in zip(dims, actual))
