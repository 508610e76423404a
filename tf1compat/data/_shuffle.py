"""`Dataset.shuffle` at run time, with TF's algorithm and seeding (TF's exact order)."""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.data._runtime import DatasetValue, Element, Iter, invalid
from tf1compat.ops._philox import PhiloxWords

__all__ = ["ShuffleValue"]


def _resolve_seeds(seed: int, seed2: int) -> tuple:
    if seed == 0 and seed2 == 0:            # TF's RandomSeeds: nondeterministic
        import secrets
        return secrets.randbits(63), secrets.randbits(63)
    return seed, seed2


class ShuffleValue(DatasetValue):
    """TF's ShuffleDataset: a buffer of `buffer_size` elements (a ring), each output
    drawn uniformly as `Random() % n` from the oldest epoch's slice of it, with TF's
    seeding, so seeded shuffles give TF's exact order.

    With `reshuffle_each_iteration` the dataset owns a seed generator (Philox on
    (seed, seed2)) from which every new pass draws two words as its own seeds; otherwise
    every pass uses (seed, seed2). (TF's buffer is organised in per-epoch slices for
    ShuffleAndRepeat; a pass here is one epoch, so there is a single slice.)
    """

    def __init__(self, input_value: DatasetValue, buffer_size: int, seed: int, seed2: int,
                 reshuffle: bool):
        if buffer_size <= 0 and buffer_size != -2:
            raise invalid(f"buffer_size must be greater than zero or "
                          f"UNKNOWN_CARDINALITY, got {buffer_size}.")
        self.input, self.buffer_size = input_value, buffer_size
        self.seeds = _resolve_seeds(seed, seed2)
        self.reshuffle = reshuffle
        self.generator = PhiloxWords(*self.seeds) if reshuffle else None

    def iterator(self) -> Iter:
        if self.generator is not None:
            seeds = (self.generator(), self.generator())
        else:
            seeds = self.seeds
        return _ShuffleIter(self, PhiloxWords(*seeds))


class _ShuffleIter(Iter):
    def __init__(self, dataset: ShuffleValue, random: PhiloxWords):
        self.random = random
        self.size = dataset.buffer_size
        self.buffer: List[Any] = [None] * self.size
        self.start = 0                  # the ring holds elements [start, end)
        self.end = 0
        self.input: Optional[Iter] = dataset.input.iterator()

    def get_next(self) -> Optional[Element]:
        size = self.size
        source = self.input
        while source is not None and self.end - self.start < size:
            element = source.get_next()
            if element is None:
                self.input = source = None
                break
            self.buffer[self.end % size] = element
            self.end += 1
        n = self.end - self.start
        if n == 0:
            return None
        index = (self.start + self.random() % n) % size
        element = self.buffer[index]
        head = self.start % size
        self.buffer[index] = self.buffer[head]
        self.buffer[head] = None
        self.start += 1
        return element
