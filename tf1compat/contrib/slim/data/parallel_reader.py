"""`slim.data.parallel_reader`: several readers filling one common queue.

    key, value = slim.parallel_reader.parallel_read(
        "/data/train-*.tfrecord", tf.TFRecordReader, num_readers=4)

`parallel_read` globs the sources into a filename queue (`string_input_producer`,
shuffled unless asked not to), has `num_readers` readers enqueue their (key, value)
records into a common RandomShuffleQueue (a FIFOQueue when not shuffling) through a
queue runner, and dequeues from it; a `fraction_of_<capacity>_full` summary watches it.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from tf1compat.data.reader_ops import ReaderBase
from tf1compat.framework import dtypes
from tf1compat.framework.graph import name_scope
from tf1compat.ops.math_ops import add_n, cast
from tf1compat.ops.queue_ops import FIFOQueue, RandomShuffleQueue
from tf1compat.summary.summary_ops import scalar
from tf1compat.training.queue_input import string_input_producer
from tf1compat.training.queue_runner import QueueRunner, add_queue_runner
from tf1compat.util import gfile

__all__ = ["ParallelReader", "parallel_read", "single_pass_read", "get_data_files"]


class ParallelReader(ReaderBase):
    """`num_readers` readers of `reader_class` that enqueue into `common_queue` (of
    dtypes [string, string]); reading dequeues from the common queue."""

    def __init__(self, reader_class: Any, common_queue: Any, num_readers: int = 4,
                 reader_kwargs: Optional[Dict[str, Any]] = None):
        # ReaderBase.__init__ is not called: this reader has no reader resource of its
        # own, only the readers it owns.
        if len(common_queue.dtypes) != 2 or not all(
                dtype.is_compatible_with(dtypes.string) for dtype in common_queue.dtypes):
            raise TypeError("common_queue.dtypes must be [tf.string, tf.string]")
        reader_kwargs = reader_kwargs or {}
        self._readers = [reader_class(**reader_kwargs) for _ in range(num_readers)]
        self._common_queue = common_queue

    @property
    def num_readers(self) -> int:
        return len(self._readers)

    @property
    def common_queue(self) -> Any:
        return self._common_queue

    def read(self, queue: Any, name: Optional[str] = None) -> Any:
        """The next (key, value) of the common queue, once the readers feed it from the
        work units of `queue`."""
        self._configure_readers_by(queue)
        return self._common_queue.dequeue(name=name)

    def read_up_to(self, queue: Any, num_records: Any, name: Optional[str] = None) -> Any:
        """Up to `num_records` (keys, values) of the common queue."""
        self._configure_readers_by(queue)
        return self._common_queue.dequeue_up_to(num_records, name)

    def _configure_readers_by(self, queue: Any) -> None:
        enqueue_ops = [self._common_queue.enqueue(reader.read(queue))
                       for reader in self._readers]
        add_queue_runner(QueueRunner(self._common_queue, enqueue_ops))

    def num_records_produced(self, name: Optional[str] = None) -> Any:
        """The records all readers produced, summed."""
        return add_n([r.num_records_produced() for r in self._readers], name=name)

    def num_work_units_completed(self, name: Optional[str] = None) -> Any:
        """The work units (files) all readers finished, summed."""
        return add_n([r.num_work_units_completed() for r in self._readers], name=name)


def parallel_read(data_sources: Any, reader_class: Any, num_epochs: Optional[int] = None,
                  num_readers: int = 4, reader_kwargs: Optional[Dict[str, Any]] = None,
                  shuffle: bool = True, dtypes: Optional[Sequence[Any]] = None,
                  capacity: int = 256, min_after_dequeue: int = 128,
                  seed: Optional[int] = None, scope: Optional[str] = None) -> Any:
    """The (key, value) of the next record read in parallel from `data_sources` (see the
    module docstring); ValueError when no file matches."""
    data_files = get_data_files(data_sources)
    with name_scope(scope, "parallel_read"):
        filename_queue = string_input_producer(data_files, num_epochs=num_epochs,
                                               shuffle=shuffle, seed=seed, name="filenames")
        dtypes = dtypes or [_STRING, _STRING]
        if shuffle:
            common_queue = RandomShuffleQueue(capacity=capacity,
                                              min_after_dequeue=min_after_dequeue,
                                              dtypes=dtypes, seed=seed, name="common_queue")
        else:
            common_queue = FIFOQueue(capacity=capacity, dtypes=dtypes, name="common_queue")
        scalar("fraction_of_%d_full" % capacity,
               cast(common_queue.size(), _FLOAT32) * (1. / capacity))
        return ParallelReader(reader_class, common_queue, num_readers=num_readers,
                              reader_kwargs=reader_kwargs).read(filename_queue)


def single_pass_read(data_sources: Any, reader_class: Any,
                     reader_kwargs: Optional[Dict[str, Any]] = None,
                     scope: Optional[str] = None) -> Any:
    """(key, value) of one reader going once through the files in order."""
    data_files = get_data_files(data_sources)
    with name_scope(scope, "single_pass_read"):
        filename_queue = string_input_producer(data_files, num_epochs=1, shuffle=False,
                                               capacity=1, name="filenames")
        return reader_class(**(reader_kwargs or {})).read(filename_queue)


def get_data_files(data_sources: Any) -> List[str]:
    """The files of a pattern (with *, ? or [), a file name, or a list of those;
    ValueError when there are none."""
    if isinstance(data_sources, (list, tuple)):
        data_files: List[str] = []
        for source in data_sources:
            data_files += get_data_files(source)
    elif "*" in data_sources or "?" in data_sources or "[" in data_sources:
        data_files = gfile.Glob(data_sources)
    else:
        data_files = [data_sources]
    if not data_files:
        raise ValueError("No data files found in %s" % (data_sources,))
    return data_files


_STRING = dtypes.string
_FLOAT32 = dtypes.float32
