"""Queues fed from in-memory data: what `numpy_input_fn` and `pandas_input_fn` build.

TF (`tensorflow_estimator/.../inputs/queues/feeding_functions.py` and
`feeding_queue_runner.py`) feeds in-memory columns to the graph through a queue: under the
name scope `enqueue_input` a FIFOQueue (or, shuffling, a RandomShuffleQueue keeping
`min_after_dequeue` rows, `capacity / 4` by default) holds one row per element with the row
number (or DataFrame index) as its first component; each of `num_threads` feeder threads
runs `enqueue_many` on placeholders fed by a feed function that cuts the next
`enqueue_size` rows, starting at row 0 or - shuffling - at a row drawn from Python's
`random` under `seed` (`(i + 1) * seed` for thread i). With `num_epochs` a feeder stops
exactly at the end of its last epoch (epochs counted from its start row), raises
OutOfRangeError and the last feeder to stop closes the queue, so `dequeue_up_to` hands out
a smaller last batch and then OutOfRangeError. A scalar summary
`queue/<queue>fraction_over_<min>_of_<capacity - min>_full` reports the fill level.

The same graph is built here (TF's ops and names), and `FeedingQueueRunner` (in the
QUEUE_RUNNERS collection, started by MonitoredSession / `start_queue_runners`) runs the
feeders. Like TF's it has no QueueRunnerDef, so exported meta graphs skip the collection
with TF's warning. One difference: TF's feed functions call `random.seed(seed)`, reseeding
the process-wide `random` module; here each feeder draws its start row from its own
`random.Random(seed)` - the same draw, without the side effect.
"""

from __future__ import annotations

import collections
import random
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.framework import dtypes, errors
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.training.queue_runner import QueueRunner, add_queue_runner
from tf1compat.util import tf_logging

__all__ = ["enqueue_data", "FeedingQueueRunner", "next_batch_indices"]


def next_batch_indices(start: int, batch_size: int, epoch_end: int, length: int,
                       epoch: int, total_epochs: Optional[int]) -> Tuple[np.ndarray, int]:
    """The row numbers (int64) of the next chunk from row `start`, and the epochs
    completed after it.

    An epoch ends at row `epoch_end` (the row before the feeder's start row); the chunk that
    completes the last of `total_epochs` epochs stops at that row. Raises OutOfRangeError
    once all epochs have been emitted.
    """
    if total_epochs is not None and epoch >= total_epochs:
        raise errors.OutOfRangeError(None, None, f"Already emitted {epoch} epochs.")
    if start + batch_size <= length and not start <= epoch_end < start + batch_size:
        # No wrap-around and no epoch end inside (all chunks but about one an epoch):
        # the feeder thread holds the GIL here, which the training step waits for.
        return np.arange(start, start + batch_size, dtype=np.int64), epoch
    rows = np.arange(start, start + batch_size, dtype=np.int64) % length
    ends = np.flatnonzero(rows == epoch_end)
    epoch += len(ends)
    if total_epochs is None or epoch < total_epochs:
        return rows, epoch
    # The chunk runs past the last epoch's end: cut it after that end.
    last_end = int(ends[-(epoch - total_epochs + 1)])
    return rows[:last_end + 1], total_epochs


class _FeedFn:
    """Cuts consecutive chunks of rows (wrapping around) from in-memory columns."""

    def __init__(self, length: int, batch_size: int, random_start: bool,
                 seed: Optional[int], num_epochs: Optional[int]):
        self._length = length
        self._batch_size = batch_size
        self._num_epochs = num_epochs
        self._epoch = 0
        self._next = random.Random(seed).randrange(length) if random_start else 0
        self._epoch_end = (self._next - 1) % length

    def _next_rows(self) -> np.ndarray:
        rows, self._epoch = next_batch_indices(self._next, self._batch_size, self._epoch_end,
                                               self._length, self._epoch, self._num_epochs)
        if not len(rows):
            # TF's feeder fails the same way (an IndexError in its thread) on batch_size 0.
            raise IndexError("numpy_input_fn/pandas_input_fn: batch_size 0 gives the queue "
                             "feeder no rows to enqueue")
        self._next = (int(rows[-1]) + 1) % self._length
        return rows

    def __call__(self) -> List[Any]:
        """The values of the enqueue op's placeholders: row ids, then each column."""
        raise NotImplementedError


class _ArraysFeedFn(_FeedFn):
    """Feeds an OrderedDict of equally long numpy arrays; the row numbers come first."""

    def __init__(self, arrays: "collections.OrderedDict[str, np.ndarray]", batch_size: int,
                 random_start: bool, seed: Optional[int], num_epochs: Optional[int]):
        self._arrays = list(arrays.values())
        length = len(self._arrays[0])
        if any(len(a) != length for a in self._arrays):
            raise ValueError("Array lengths must match.")
        super().__init__(length, batch_size, random_start, seed, num_epochs)

    def __call__(self) -> List[Any]:
        first = self._next
        rows = self._next_rows()
        stop = first + len(rows)
        if stop <= self._length:
            # Consecutive rows (all but the chunk that wraps around): views, no gather;
            # the queue copies what it keeps.
            return [rows] + [a[first:stop] for a in self._arrays]
        return [rows] + [a[rows] for a in self._arrays]


class _DataFrameFeedFn(_FeedFn):
    """Feeds a pandas DataFrame's rows; its index comes first."""

    def __init__(self, frame: Any, batch_size: int, random_start: bool,
                 seed: Optional[int], num_epochs: Optional[int]):
        self._frame = frame
        super().__init__(len(frame), batch_size, random_start, seed, num_epochs)

    def __call__(self) -> List[Any]:
        chunk = self._frame.iloc[self._next_rows()]
        return [chunk.index.to_numpy()] + [chunk[c].to_numpy() for c in chunk.columns]


class FeedingQueueRunner(QueueRunner):
    """A QueueRunner whose threads feed their enqueue op's placeholders from a feed function
    (one per enqueue op) on every run. It has no QueueRunnerDef, as TF's."""

    def __init__(self, queue: Any, enqueue_ops: Sequence[Any],
                 feeds: Sequence[Tuple[Sequence[Any], Callable[[], List[Any]]]]):
        super().__init__(queue, list(enqueue_ops),
                         queue_closed_exception_types=(errors.OutOfRangeError,
                                                       errors.CancelledError))
        if len(feeds) != len(enqueue_ops):
            raise ValueError("If feed_fns is not None, it must have the same length as "
                             "enqueue_ops.")
        self._feeds = list(feeds)

    def _enqueue_callable(self, sess: Any, enqueue_op: Any) -> Callable[[], Any]:
        """Runs `enqueue_op` on the next chunk of its feed function; the feed function's
        OutOfRangeError (its epochs are done) ends the thread as a closed queue does."""
        placeholders, feed_fn = self._feeds[self._enqueue_ops.index(enqueue_op)]
        enqueue = sess.make_callable(enqueue_op, feed_list=list(placeholders))
        if not _direct_enqueue_possible(sess, enqueue_op, placeholders):
            return lambda: enqueue(*feed_fn())
        return _DirectEnqueue(sess, enqueue_op, placeholders, feed_fn, enqueue)

    def to_proto(self, export_scope: Optional[str] = None) -> Any:
        raise NotImplementedError(
            f"{type(self).__name__} does not support serialization to proto.")


def _direct_enqueue_possible(sess: Any, enqueue_op: Any, placeholders: Sequence[Any]) -> bool:
    """Whether `enqueue_op` is only the enqueue of its shapeless numeric placeholders into
    the queue its handle op makes (what `enqueue_data` builds), run by a session whose runs
    add nothing to the kernel's work (`_DirectEnqueue`)."""
    from tf1compat.runtime.session import BaseSession
    if not isinstance(sess, BaseSession) or not sess._runs_plainly() or \
            enqueue_op.type != "QueueEnqueueManyV2" or enqueue_op.control_inputs:
        return False
    if list(enqueue_op.inputs)[1:] != list(placeholders):
        return False
    return all(p.op.type == "Placeholder" and not p.op.control_inputs and
               p.shape.rank is None and p.dtype in _DIRECT_DTYPES for p in placeholders)


# The dtypes whose feeds a Session takes as they are (numpy's own types, no strings).
_DIRECT_DTYPES = frozenset([dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int8,
                            dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8,
                            dtypes.bool])


class _DirectEnqueue:
    """The feeder's enqueue without a Session.run: the feed function's numpy arrays go to
    the queue's `enqueue_many` as QueueEnqueueManyV2's kernel hands them over, minus the
    feed conversions (numpy -> torch for the feeds, torch -> numpy again for the queue's
    columns) and the plan call.

    Why: the feeder's Python holds the GIL that the training step needs; on two cores TF
    runs this enqueue in C++ beside the step. Same semantics: the first run goes through
    the session (it creates the queue, logs placement), which then hands out the queue
    object; a chunk that is not exactly arrays of the placeholders' dtypes and one batch
    size goes through the session (its conversions and error messages); the queue's
    errors are the session's (the op named, CancelledError once the session is closed).
    Only queues that copy what they are given (the columnar ones) take this path: the
    kernel would copy the fed arrays for any other."""

    def __init__(self, sess: Any, enqueue_op: Any, placeholders: Sequence[Any],
                 feed_fn: Callable[[], List[Any]], general: Callable[..., Any]):
        self._sess = sess
        self._op = enqueue_op
        self._handle = enqueue_op.inputs[0]
        self._dtypes = [p.dtype for p in placeholders]
        self._numpy_dtypes = [np.dtype(d.as_numpy_dtype) for d in self._dtypes]
        self._feed_fn = feed_fn
        self._general = general
        self._queue: Any = None       # known once the first run made it
        self._direct = False

    def _resolve(self) -> None:
        """After the first run: the queue, if it takes the direct path."""
        try:
            queue = self._sess.run(self._handle)
        except Exception:  # noqa: BLE001 - the general path reports the failure
            return
        self._direct = getattr(queue, "copies_rows", False) and list(queue.dtypes) == \
            self._dtypes
        self._queue = queue

    def __call__(self) -> None:
        values = self._feed_fn()
        if not self._direct or self._sess._closed:
            self._general(*values)
            if self._queue is None:
                self._resolve()
            return
        queue = self._queue
        for value, dtype in zip(values, self._numpy_dtypes):
            if type(value) is not np.ndarray or value.dtype != dtype:
                self._general(*values)
                return
        try:
            count = queue.check_batch(values)
        except errors.InvalidArgumentError:
            self._general(*values)          # TF's message, the op named
            return
        try:
            queue.enqueue_many(queue.rows_of(values), count, None)
        except errors.OpError as e:
            raise self._sess._direct_run_error(e, self._op) from None


def _frame_dtype(dtype: Any) -> dtypes.DType:
    """The DType of a DataFrame column or index: numpy dtypes as TF maps them; pandas'
    extension dtypes (pandas 3 stores text as `StringDtype`, nullable ints/bools as
    `Int64Dtype`/`BooleanDtype`) by the values they hold."""
    if isinstance(dtype, np.dtype):
        return dtypes.as_dtype(dtype)
    if getattr(dtype, "kind", None) in ("O", "S", "U") or dtype.name.startswith("str"):
        return dtypes.string
    numpy_dtype = getattr(dtype, "numpy_dtype", None)
    if numpy_dtype is None:
        raise TypeError(f"pandas_input_fn: a column of pandas dtype {dtype} has no "
                        "TensorFlow DType.")
    return dtypes.as_dtype(numpy_dtype)


def _is_data_frame(data: Any) -> bool:
    try:
        import pandas as pd
    except ImportError:
        return False
    return isinstance(data, pd.DataFrame)


def enqueue_data(data: Any, capacity: int, shuffle: bool = False,
                 min_after_dequeue: Optional[float] = None, num_threads: int = 1,
                 seed: Optional[int] = None, name: str = "enqueue_input",
                 enqueue_size: int = 1, num_epochs: Optional[int] = None) -> Any:
    """A queue filled with the rows of `data` (an OrderedDict of numpy arrays, or a pandas
    DataFrame) by `num_threads` FeedingQueueRunner threads; the first component of each
    element is the row number (the DataFrame's index)."""
    from tf1compat.ops.array_ops import placeholder
    from tf1compat.ops.math_ops import cast, maximum
    from tf1compat.ops.queue_ops import FIFOQueue, RandomShuffleQueue
    from tf1compat.summary.summary_ops import scalar
    with name_scope(name):
        if isinstance(data, collections.OrderedDict):
            types = [dtypes.int64] + [dtypes.as_dtype(a.dtype) for a in data.values()]
            shapes = [TensorShape([])] + [TensorShape(a.shape[1:]) for a in data.values()]
            make_feed: Callable[..., _FeedFn] = _ArraysFeedFn
        elif _is_data_frame(data):
            types = [_frame_dtype(t) for t in [data.index.dtype] + list(data.dtypes)]
            shapes = [TensorShape([]) for _ in types]
            make_feed = _DataFrameFeedFn
        else:
            raise TypeError("data must be either a numpy array or pandas DataFrame if pandas "
                            f"is installed; got {type(data).__name__}")
        if num_threads > 1 and num_epochs is not None:
            tf_logging.warning(
                "enqueue_data was called with num_epochs and num_threads > 1. num_epochs is "
                "applied per thread, so this will produce more epochs than you probably "
                "intend. If you want to limit epochs, use one thread.")
        if shuffle and num_threads > 1 and num_epochs is not None:
            tf_logging.warning(
                "enqueue_data was called with shuffle=True, num_threads > 1, and num_epochs. "
                "This will create multiple threads, all reading the array/dataframe in order "
                "adding to the same shuffling queue; the results will likely not be "
                "sufficiently shuffled.")
        if not shuffle and num_threads > 1:
            tf_logging.warning(
                "enqueue_data was called with shuffle=False and num_threads > 1. This will "
                "create multiple threads, all reading the array/dataframe in order. If you "
                "want examples read in order, use one thread; if you want multiple threads, "
                "enable shuffling.")
        if shuffle:
            min_after = int(capacity / 4 if min_after_dequeue is None else min_after_dequeue)
            queue = RandomShuffleQueue(capacity, min_after, dtypes=types, shapes=shapes,
                                       seed=seed)
        else:
            min_after = 0
            queue = FIFOQueue(capacity, dtypes=types, shapes=shapes)
        enqueue_ops, feeds = [], []
        for i in range(num_threads):
            # Shapeless placeholders: each run enqueues a chunk of any number of rows.
            placeholders = [placeholder(t) for t in types]
            enqueue_ops.append(queue.enqueue_many(placeholders))
            feed_fn = make_feed(data, enqueue_size, shuffle,
                                None if seed is None else (i + 1) * seed, num_epochs)
            feeds.append((placeholders, feed_fn))
        add_queue_runner(FeedingQueueRunner(queue, enqueue_ops, feeds))
        full = cast(maximum(0, queue.size() - min_after), dtypes.float32) * \
            (1. / (capacity - min_after))
        # The queue's name carries no trailing '/', so the tag runs into "fraction", as TF's.
        scalar(f"queue/{queue.name}fraction_over_{min_after}_of_{capacity - min_after}_full",
               full)
    return queue
