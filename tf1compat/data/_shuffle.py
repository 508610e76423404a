"""`Dataset.shuffle` at run time, with TF's algorithm and seeding (TF's exact order)."""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import weakref
from typing import Any, Callable, Iterator, List, Optional, Sequence

import numpy as np

from tf1compat.data._runtime import DatasetValue, Element, Iter, invalid
from tf1compat.ops._philox import PhiloxWords

__all__ = ["ShuffleValue", "ShuffleIter", "RangeShuffle", "passes_owned_by"]

# The eager dataset object whose iterator is running (None in a Session): see
# ShuffleValue.pass_random.
_PASS_OWNER: contextvars.ContextVar = contextvars.ContextVar("dataset_pass_owner",
                                                             default=None)


@contextlib.contextmanager
def passes_owned_by(owner: Any) -> Iterator[None]:
    """Passes started inside draw their reshuffle seeds from `owner`'s own generators."""
    token = _PASS_OWNER.set(owner)
    try:
        yield
    finally:
        _PASS_OWNER.reset(token)


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
        self._given_seeds = (seed, seed2)
        self.reshuffle = reshuffle
        self.generator = PhiloxWords(*self.seeds) if reshuffle else None
        self._owned_generators: Any = weakref.WeakKeyDictionary()

    def iterator(self) -> Iter:
        source = self.input.iterator().get_next

        def pull(count: int) -> Iterator[Any]:
            for _ in range(count):
                element = source()
                if element is None:
                    return
                yield element
        return ShuffleIter(self.buffer_size, self.pass_random(), pull)

    def pass_random(self) -> PhiloxWords:
        """The random words of a new pass (drawing its seeds from the seed generator)."""
        if self.generator is not None:
            # Eager TF 2.x instantiates the pipeline of every dataset object it iterates
            # anew, fresh seed generators included: `ds.map(f)` reshuffles from the first
            # order again while `ds` itself goes on with its own sequence.
            owner, generator = _PASS_OWNER.get(), self.generator
            if owner is not None:
                generator = self._owned_generators.get(owner)
                if generator is None:
                    generator = self._owned_generators[owner] = PhiloxWords(
                        *_resolve_seeds(*self._given_seeds))
            return PhiloxWords(generator(), generator())
        return PhiloxWords(*self.seeds)


class ShuffleIter(Iter):
    """One pass of TF's shuffle over the items `pull(count)` yields (elements, or row
    numbers for data/_gather.py): up to `count`, fewer only once the input is exhausted.
    Each item goes into the buffer as it comes, so an input error loses nothing."""

    def __init__(self, size: int, random: PhiloxWords,
                 pull: Callable[[int], Iterator[Any]]):
        self.random = random
        self.size = size
        self.buffer: List[Any] = [None] * size
        self.start = 0                  # the ring holds items [start, end)
        self.end = 0
        self.pull: Optional[Callable[[int], Iterator[Any]]] = pull

    def wanted(self, count: int) -> int:
        """How many input items `take(count)` asks for: each draw comes from a full
        buffer, the first needs it filled up, each later one a single refill."""
        return self.size - (self.end - self.start) + count - 1

    def take(self, count: int) -> List[Any]:
        """The next `count` items (fewer only at the end of the pass)."""
        want = self.wanted(count)
        items = self.pull(want) if self.pull is not None and want > 0 else iter(())
        return self.draw(count, items)

    def draw(self, count: int, items: Iterator[Any]) -> List[Any]:
        """`take(count)` on the input items `items` (asked for with `wanted(count)`)."""
        size, buffer, out = self.size, self.buffer, []
        words: Any = ()
        start, end = self.start, self.end
        try:
            for k in range(count):
                while self.pull is not None and end - start < size:
                    item = next(items, _NONE)
                    if item is _NONE:
                        self.pull = None     # the input is exhausted
                        break
                    buffer[end % size] = item
                    end += 1
                n = end - start
                if n == 0:
                    break
                if not k:
                    # The words of all the call's draws at once, once the first fill is
                    # done (an input error there leaves the word stream untouched).
                    words = iter(self.random.take(count))
                index = (start + next(words) % n) % size
                head = start % size
                out.append(buffer[index])
                buffer[index] = buffer[head]
                buffer[head] = None
                start += 1
        finally:
            self.start, self.end = start, end
        return out

    def draw_known(self, count: int, items: Sequence[Any]) -> List[Any]:
        """`draw` when `items` are all the input items `wanted(count)` asked for, or all
        that remained (fewer: the input ends after them); count >= 1. The same items in
        the same order as `draw`, in two short loops: draws from a full buffer (a
        draw's refill goes into the slot its head item left), then, once the input has
        ended, draws from what is left."""
        size, buffer, out = self.size, self.buffer, []
        start, end = self.start, self.end
        fill = size - (end - start)
        if len(items) < fill:          # the buffer never fills: every draw drains it
            for item in items:
                buffer[end % size] = item
                end += 1
            self.start, self.end, self.pull = start, end, None
            return self._drain(count, out)
        for item in items[:fill]:
            buffer[end % size] = item
            end += 1
        # Full draws: the first, then one per refill item.
        full = min(count, len(items) - fill + 1)
        refills = itertools.chain(items[fill:fill + full - 1], (None,))
        head = start % size
        for word, item in zip(self.random.take(full), refills):
            index = head + word % size
            if index >= size:
                index -= size
            out.append(buffer[index])
            buffer[index] = buffer[head]
            buffer[head] = item
            head += 1
            if head == size:
                head = 0
        self.start, self.end = start + full, end + full - 1
        if full == count:
            return out
        self.pull = None               # fewer items than wanted: the input has ended
        return self._drain(count - full, out)

    def _drain(self, count: int, out: List[Any]) -> List[Any]:
        """`count` more draws (fewer once the buffer is empty) with the input ended,
        appended to `out`."""
        size, buffer = self.size, self.buffer
        start, end = self.start, self.end
        n = min(count, end - start)
        if n > 0:
            for word in self.random.take(n):
                index = (start + word % (end - start)) % size
                head = start % size
                out.append(buffer[index])
                buffer[index] = buffer[head]
                buffer[head] = None
                start += 1
        self.start = start
        return out

    def get_next(self) -> Optional[Element]:
        items = self.take(1)
        return items[0] if items else None


class RangeShuffle:
    """One pass of TF's shuffle over the items 0..n-1 in order (from_tensor_slices' row
    numbers, data/_gather.py): `ShuffleIter`'s items, in a form without its ring.

    Laid out in a line (the pass's k-th draw at position k, the input's items behind
    the buffer in order), TF's shuffle is a Fisher-Yates shuffle with a window: draw k
    swaps position k with position k + (word % live), live = min(buffer size, n - k)
    (the buffer's items, which lie at k .. k + live - 1: `ShuffleIter`'s ring, its head
    at k, its newest item last); position k then holds the item drawn. The words'
    remainders are computed for many draws at once, so each draw costs one swap in
    Python. `window` holds the positions from `done` up to `loaded`."""

    def __init__(self, size: int, random: PhiloxWords, n: int):
        self.size, self.random, self.n = size, random, n
        self.window: List[int] = []
        self.done = 0
        self.loaded = 0

    def take(self, count: int) -> List[int]:
        """The pass's next `count` items (fewer only at its end)."""
        count = min(count, self.n - self.done)
        if count <= 0:
            return []
        done, size, n, window = self.done, self.size, self.n, self.window
        # The last draw's buffer reaches position done + count - 1 + size - 1.
        loaded = min(n, done + count - 1 + size)
        window.extend(range(self.loaded, loaded))
        self.loaded = loaded
        draw = np.arange(count)
        live = np.minimum(size, n - done - draw)
        words = np.array(self.random.take(count), dtype=np.int64)
        for k, other in enumerate((draw + words % live).tolist()):
            window[k], window[other] = window[other], window[k]
        out = window[:count]
        del window[:count]
        self.done = done + count
        return out


_NONE = object()
