"""`Dataset.shuffle` at run time, with TF's algorithm and seeding (TF's exact order)."""

from __future__ import annotations

import contextlib
import contextvars
import weakref
from typing import Any, Callable, Iterator, List, Optional

from tf1compat.data._runtime import DatasetValue, Element, Iter, invalid
from tf1compat.ops._philox import PhiloxWords

__all__ = ["ShuffleValue", "ShuffleIter", "passes_owned_by"]

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

    def draw_full(self, count: int, items: List[Any]) -> List[Any]:
        """`draw` when all `wanted(count)` items came (count >= 1): the buffer is full at
        every draw, so a draw is `random % size` with no exhaustion to watch for - the
        same items in the same order, without the general loop's per-item checks."""
        size, buffer = self.size, self.buffer
        start, end = self.start, self.end
        fill = size - (end - start)
        for item in items[:fill]:
            buffer[end % size] = item
            end += 1
        out = []
        refills = iter(items[fill:])
        for k, word in enumerate(self.random.take(count)):
            if k:
                buffer[end % size] = next(refills)
                end += 1
            index = (start + word % size) % size
            head = start % size
            out.append(buffer[index])
            buffer[index] = buffer[head]
            buffer[head] = None
            start += 1
        self.start, self.end = start, end
        return out

    def get_next(self) -> Optional[Element]:
        items = self.take(1)
        return items[0] if items else None


_NONE = object()
