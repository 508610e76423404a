"""`tf.keras.preprocessing.sequence`: padding, sliding-window batches over a time series,
and word2vec's skip-gram pairs, as tf-keras 2.21 computes them.

`skipgrams` draws from Python's `random` module (the global generator, reseeded with
`seed` before shuffling) exactly as tf-keras does, so a seeded call gives tf-keras's pairs.
"""

from __future__ import annotations

import json
import random
from typing import Any, List, Optional, Sequence as SequenceType, Tuple

import numpy as np

from tf1compat.keras.utils.data_utils import Sequence, pad_sequences

__all__ = ["pad_sequences", "TimeseriesGenerator", "make_sampling_table", "skipgrams"]

# The Euler-Mascheroni constant as tf-keras rounds it in its Zipf rank-frequency estimate.
_EULER_GAMMA = 0.577


class TimeseriesGenerator(Sequence):
    """Batches of `(windows of data, target after each window)` from a time series.

    Window `i` ends just before row `start_index + length + i * stride` and takes every
    `sampling_rate`-th row of the `length` rows before it; `shuffle` draws the window ends
    with numpy's global generator.
    """

    def __init__(self, data: Any, targets: Any, length: int, sampling_rate: int = 1,
                 stride: int = 1, start_index: int = 0, end_index: Optional[int] = None,
                 shuffle: bool = False, reverse: bool = False, batch_size: int = 128):
        if len(data) != len(targets):
            raise ValueError(f"Data and targets have to be of same length. Data length is "
                             f"{len(data)} while target length is {len(targets)}")
        self.data = data
        self.targets = targets
        self.length = length
        self.sampling_rate = sampling_rate
        self.stride = stride
        # The first usable window end: `length` rows must precede it.
        self.start_index = start_index + length
        self.end_index = len(data) - 1 if end_index is None else end_index
        self.shuffle = shuffle
        self.reverse = reverse
        self.batch_size = batch_size
        if self.start_index > self.end_index:
            raise ValueError(f"`start_index+length={self.start_index} > "
                             f"end_index={self.end_index}` is disallowed, as no part of the "
                             "sequence would be left to be used as current step.")

    def __len__(self) -> int:
        step = self.batch_size * self.stride
        return (self.end_index - self.start_index + step) // step

    def __getitem__(self, index: int) -> Tuple[np.ndarray, np.ndarray]:
        if self.shuffle:
            rows = np.random.randint(self.start_index, self.end_index + 1,
                                     size=self.batch_size)
        else:
            first = self.start_index + self.batch_size * self.stride * index
            rows = np.arange(first, min(first + self.batch_size * self.stride,
                                        self.end_index + 1), self.stride)
        samples = np.array([self.data[row - self.length:row:self.sampling_rate]
                            for row in rows])
        targets = np.array([self.targets[row] for row in rows])
        if self.reverse:
            return samples[:, ::-1, ...], targets
        return samples, targets

    def get_config(self) -> dict:
        """The generator's arguments, with data and targets as JSON strings."""
        def as_json(value: Any, what: str) -> str:
            if isinstance(value, np.ndarray):
                value = value.tolist()
            try:
                return json.dumps(value)
            except TypeError as e:
                raise TypeError(f"{what} not JSON Serializable:", value) from e
        return {"data": as_json(self.data, "Data"),
                "targets": as_json(self.targets, "Targets"),
                "length": self.length, "sampling_rate": self.sampling_rate,
                "stride": self.stride, "start_index": self.start_index,
                "end_index": self.end_index, "shuffle": self.shuffle,
                "reverse": self.reverse, "batch_size": self.batch_size}

    def to_json(self, **kwargs: Any) -> str:
        """`{"class_name": "TimeseriesGenerator", "config": get_config()}` as JSON."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()},
                          **kwargs)


def make_sampling_table(size: int, sampling_factor: float = 1e-5) -> np.ndarray:
    """word2vec's keep probability of the word of each frequency rank (rank 0 is treated
    as rank 1), assuming Zipf-distributed word frequencies."""
    rank = np.arange(size)
    rank[0] = 1
    inverse_frequency = rank * (np.log(rank) + _EULER_GAMMA) + 0.5 - 1.0 / (12.0 * rank)
    scaled = sampling_factor * inverse_frequency
    return np.minimum(1.0, scaled / np.sqrt(scaled))


def skipgrams(sequence: SequenceType[int], vocabulary_size: int, window_size: int = 4,
              negative_samples: float = 1.0, shuffle: bool = True,
              categorical: bool = False, sampling_table: Optional[Any] = None,
              seed: Optional[int] = None) -> Tuple[List[List[int]], List[Any]]:
    """(word, context) couples within `window_size` (label 1) and as many times
    `negative_samples` random couples (label 0); index 0 is never a word."""
    couples: List[List[int]] = []
    labels: List[Any] = []
    positive, negative = ([0, 1], [1, 0]) if categorical else (1, 0)
    for i, word in enumerate(sequence):
        if not word:
            continue
        if sampling_table is not None and sampling_table[word] < random.random():
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            if j != i and sequence[j]:
                couples.append([word, sequence[j]])
                labels.append(positive)
    if negative_samples > 0:
        count = int(len(labels) * negative_samples)
        words = [couple[0] for couple in couples]
        random.shuffle(words)
        couples += [[words[i % len(words)], random.randint(1, int(vocabulary_size - 1))]
                    for i in range(count)]
        labels += [negative] * count
    if shuffle:
        if seed is None:
            seed = random.randint(0, int(1e7))
        # The same seed before each shuffle keeps couples and labels aligned.
        random.seed(seed)
        random.shuffle(couples)
        random.seed(seed)
        random.shuffle(labels)
    return couples, labels
