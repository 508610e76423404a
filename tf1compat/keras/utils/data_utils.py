"""`tf.keras.utils.Sequence`, the enqueuers and `pad_sequences`.

The enqueuers produce batches on the calling thread, in order, as a single worker does
(deliberate difference: tf-keras prefetches up to `max_queue_size` batches in worker
threads or processes; the batches and their order are the same, only how far ahead a
generator or Sequence is consumed differs). `OrderedEnqueuer` calls the Sequence's
`on_epoch_end()` after each full pass, as tf-keras's does.
"""

from __future__ import annotations

import inspect
import random
from typing import Any, Iterator, Optional

import numpy as np

# TF 1.x kept the file download helpers in this module too
# (`from tensorflow.python.keras.utils.data_utils import get_file`).
from tf1compat.keras.utils.file_utils import get_file, validate_file

__all__ = ["Sequence", "SequenceEnqueuer", "OrderedEnqueuer", "GeneratorEnqueuer",
           "is_generator_or_sequence", "iter_sequence_infinite", "pad_sequences", "get_file",
           "validate_file"]


class Sequence:
    """Base class of indexable datasets: `__getitem__(index)` returns one batch and
    `__len__()` the number of batches; `on_epoch_end()` runs after each epoch."""

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError

    def on_epoch_end(self) -> None:
        """Called at the end of every epoch (override to reshuffle, ...)."""

    def __iter__(self) -> Iterator[Any]:
        for index in range(len(self)):
            yield self[index]


def is_generator_or_sequence(x: Any) -> bool:
    """Whether `x` is a Python generator/iterator or a Sequence (training-loop input)."""
    return (inspect.isgenerator(x) or isinstance(x, Sequence) or
            (hasattr(x, "__next__") and not _is_data_iterator(x)))


def _is_data_iterator(x: Any) -> bool:
    from tf1compat.data.iterator_ops import Iterator as GraphIterator
    from tf1compat.data.eager_iterator import EagerIterator
    return isinstance(x, (GraphIterator, EagerIterator))


def iter_sequence_infinite(seq: Sequence) -> Iterator[Any]:
    """Loops over a Sequence forever."""
    while True:
        for item in seq:
            yield item


class SequenceEnqueuer:
    """Base of the enqueuers: `start()`, `get()` (a generator of batches), `stop()`."""

    def __init__(self, sequence: Any, use_multiprocessing: bool = False):
        self.sequence = sequence
        self.use_multiprocessing = use_multiprocessing
        self._running = False

    def is_running(self) -> bool:
        return self._running

    def start(self, workers: int = 1, max_queue_size: int = 10) -> None:
        self._running = True

    def stop(self, timeout: Optional[float] = None) -> None:
        self._running = False

    def get(self) -> Iterator[Any]:
        raise NotImplementedError


class OrderedEnqueuer(SequenceEnqueuer):
    """Yields a Sequence's batches in order (shuffled per epoch with `shuffle`), forever,
    calling `on_epoch_end()` between passes."""

    def __init__(self, sequence: Sequence, use_multiprocessing: bool = False,
                 shuffle: bool = False):
        super().__init__(sequence, use_multiprocessing)
        self.shuffle = shuffle

    def get(self) -> Iterator[Any]:
        while self.is_running():
            order = list(range(len(self.sequence)))
            if self.shuffle:
                random.shuffle(order)
            for index in order:
                if not self.is_running():
                    return
                item = self.sequence[index]
                if item is not None:
                    yield item
            self.sequence.on_epoch_end()


class GeneratorEnqueuer(SequenceEnqueuer):
    """Yields what a Python generator yields until it is exhausted."""

    def __init__(self, generator: Any, use_multiprocessing: bool = False,
                 random_seed: Optional[int] = None):
        super().__init__(generator, use_multiprocessing)
        self.random_seed = random_seed

    def get(self) -> Iterator[Any]:
        while self.is_running():
            try:
                item = next(self.sequence)
            except StopIteration:
                return
            if item is not None:
                yield item


def pad_sequences(sequences: Any, maxlen: Optional[int] = None, dtype: Any = "int32",
                  padding: str = "pre", truncating: str = "pre", value: Any = 0.0
                  ) -> np.ndarray:
    """Pads (or truncates) each sequence to `maxlen` (the longest when None): a
    `(len(sequences), maxlen) + item shape` array."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, sample_shape, first = [], (), True
    for x in sequences:
        try:
            lengths.append(len(x))
        except TypeError as e:
            raise ValueError("`sequences` must be a list of iterables. Found non-iterable: "
                             f"{x}") from e
        if first and len(x):
            sample_shape = np.asarray(x).shape[1:]
            first = False
    if maxlen is None:
        maxlen = np.max(lengths)
    is_str = np.issubdtype(dtype, np.str_)
    if isinstance(value, str) and dtype != object and not is_str:
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: "
                         f"{type(value)}\nYou should set `dtype=object` for variable length "
                         "strings.")
    out = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    for idx, seq in enumerate(sequences):
        if not len(seq):
            continue
        if truncating == "pre":
            kept = seq[-maxlen:]
        elif truncating == "post":
            kept = seq[:maxlen]
        else:
            raise ValueError(f'Truncating type "{truncating}" not understood')
        kept = np.asarray(kept, dtype=dtype)
        if kept.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {kept.shape[1:]} of sequence at position {idx} "
                             f"is different from expected shape {sample_shape}")
        if padding == "post":
            out[idx, :len(kept)] = kept
        elif padding == "pre":
            out[idx, -len(kept):] = kept
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return out
