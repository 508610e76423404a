"""Philox4x32-10, the counter-based generator behind TensorFlow's stateful random kernels.

A Philox generator is a 64-bit key and a 128-bit counter (four 32-bit words, word 0
lowest). Each output is ten rounds of a multiply/xor network over the counter, giving
four uint32 words (one "block"); the counter then advances by one. TF builds the
generator of a random op from its attrs as key = seed, counter = seed2 << 64, and the
op's kernels skip the counter ahead by whole blocks (see `_random_stream.py`).

Because the output depends only on (key, counter), any set of blocks can be computed at
once: this module evaluates the rounds with numpy over arrays of counters. Words are held
in uint64 arrays (each value below 2**32) so the 32x32 -> 64 bit products are exact; the
work is done in cache-sized chunks with preallocated buffers because the cost is memory
traffic, not arithmetic.
"""

from __future__ import annotations

import functools
import threading
from typing import List, Tuple, Union

import numpy as np

__all__ = ["blocks", "blocks_at", "words", "PhiloxWords", "MASK64", "MASK128"]

MASK32 = 0xFFFFFFFF
MASK64 = (1 << 64) - 1
MASK128 = (1 << 128) - 1

# The round multipliers and key increments of Philox4x32 (Salmon et al., SC'11).
_MUL_0 = 0xD2511F53          # multiplies counter word 0
_MUL_2 = 0xCD9E8D57          # multiplies counter word 2
_KEY_STEP_0 = 0x9E3779B9     # golden ratio
_KEY_STEP_1 = 0xBB67AE85     # sqrt(3) - 1
_ROUNDS = 10

# Rows are ordered (word 2, word 0) so that one broadcast multiply forms both products.
_MULTIPLIERS = np.array([[_MUL_2], [_MUL_0]], dtype=np.uint64)
_SHIFT = np.uint64(32)
_LOW = np.uint64(MASK32)
_CHUNK = 16384               # blocks per pass: the working set stays in L2

Word = Union[int, np.ndarray]


@functools.lru_cache(maxsize=1024)
def _round_keys(key: int) -> Tuple[np.ndarray, ...]:
    """The (2, 1) key column xored in each round: (key word 0, key word 1)."""
    k0, k1 = key & MASK32, (key >> 32) & MASK32
    keys = []
    for _ in range(_ROUNDS):
        keys.append(np.array([[k0], [k1]], dtype=np.uint64))
        k0 = (k0 + _KEY_STEP_0) & MASK32
        k1 = (k1 + _KEY_STEP_1) & MASK32
    return tuple(keys)


class _Scratch(threading.local):
    """Per-thread round buffers, kept between calls: allocating (and page-faulting)
    fresh ones on every kernel call would cost as much as a small draw."""

    def __init__(self) -> None:
        self.arrays = tuple(np.empty((2, _CHUNK), dtype=np.uint64) for _ in range(4))


_SCRATCH = _Scratch()
_IOTA = np.arange(_CHUNK, dtype=np.uint64)


def _philox(key: int, c0: Union[int, np.ndarray], c1: Word, c2: Word, c3: Word,
            n: int) -> np.ndarray:
    """n blocks for counters (c0, c1, c2, c3): each word an array or an int, where an
    int c0 means the consecutive words c0, c0 + 1, ..., c0 + n - 1.

    Returns (len(c0), 4) uint32. One round maps (c0, c1, c2, c3) to
    (hi(M2*c2) ^ c1 ^ k0, lo(M2*c2), hi(M0*c0) ^ c3 ^ k1, lo(M0*c0)); with x = (c2, c0)
    and y = (c1, c3) held as the rows of two arrays that is: p = x * M, y' = lo(p),
    x' = reversed(hi(p) ^ y ^ k).
    """
    out = np.empty((n, 4), dtype=np.uint32)
    out_rows = out.T                      # (4, n) view: row w is word w of every block
    keys = _round_keys(key)
    x_buf, y_buf, p_buf, h_buf = _SCRATCH.arrays
    for start in range(0, n, _CHUNK):
        stop = min(n, start + _CHUNK)
        m = stop - start
        x, y, p, h = x_buf[:, :m], y_buf[:, :m], p_buf[:, :m], h_buf[:, :m]
        x[0] = c2 if isinstance(c2, int) else c2[start:stop]
        if isinstance(c0, int):
            np.add(_IOTA[:m], np.uint64(c0 + start), out=x[1])
        else:
            x[1] = c0[start:stop]
        y[0] = c1 if isinstance(c1, int) else c1[start:stop]
        y[1] = c3 if isinstance(c3, int) else c3[start:stop]
        for r, k in enumerate(keys):
            np.multiply(x, _MULTIPLIERS, out=p)
            np.right_shift(p, _SHIFT, out=h)
            np.bitwise_xor(h, y, out=h)
            if r < _ROUNDS - 1:
                np.bitwise_xor(h, k, out=x[::-1])
                np.bitwise_and(p, _LOW, out=y)
            else:                         # rows (word 0, word 2) and (word 1, word 3)
                np.bitwise_xor(h, k, out=out_rows[0::2, start:stop], casting="unsafe")
                np.copyto(out_rows[1::2, start:stop], p, casting="unsafe")
    return out


def blocks(key: int, counter: int, count: int) -> np.ndarray:
    """`count` consecutive blocks starting at 128-bit `counter`, as (count, 4) uint32."""
    pieces = []
    counter &= MASK128
    while count > 0:
        # Within a piece only counter word 0 varies (no carry into word 1).
        low = counter & MASK32
        take = min(count, (1 << 32) - low)
        pieces.append(_philox(key, low, (counter >> 32) & MASK32, (counter >> 64) & MASK32,
                              (counter >> 96) & MASK32, take))
        counter = (counter + take) & MASK128
        count -= take
    if len(pieces) == 1:
        return pieces[0]
    return np.concatenate(pieces) if pieces else np.empty((0, 4), dtype=np.uint32)


def blocks_at(key: int, counter: int, offsets: np.ndarray) -> np.ndarray:
    """The blocks at `counter + offsets[i]` (offsets: non-negative ints below 2**63)."""
    offsets = np.asarray(offsets, dtype=np.uint64)
    if offsets.size == 0:
        return np.empty((0, 4), dtype=np.uint32)
    counter &= MASK128
    base_low = np.uint64(counter & MASK64)
    low = offsets + base_low                              # wraps modulo 2**64
    c0 = low & _LOW
    c1 = low >> _SHIFT
    carry = low < base_low
    high = counter >> 64
    if carry.any():                                       # the 64-bit half overflowed
        high_words = np.uint64(high) + carry.astype(np.uint64)
        return _philox(key, c0, c1, high_words & _LOW, high_words >> _SHIFT, len(c0))
    return _philox(key, c0, c1, high & MASK32, (high >> 32) & MASK32, len(c0))


def words(key: int, counter: int, count: int) -> np.ndarray:
    """The first `count` uint32 words of the blocks starting at `counter`."""
    return blocks(key, counter, -(-count // 4)).reshape(-1)[:count]


class PhiloxWords:
    """TF's SingleSampleAdapter<PhiloxRandom> (ShuffleDataset, RandomShuffleQueue):
    uint32 words of Philox4x32-10 with key `seed` and counter `seed2 << 64`, drawn one at
    a time (computed 1024 at a time)."""

    __slots__ = ("_key", "_counter", "_words", "_i")

    def __init__(self, seed: int, seed2: int):
        self._key = seed & ((1 << 64) - 1)
        self._counter = (seed2 & ((1 << 64) - 1)) << 64
        self._words: List[int] = []
        self._i = 0

    def __call__(self) -> int:
        if self._i >= len(self._words):
            self._words = blocks(self._key, self._counter, 256).reshape(-1).tolist()
            self._counter += 256
            self._i = 0
        w = self._words[self._i]
        self._i += 1
        return w

    def take(self, n: int) -> List[int]:
        """The next `n` words (as `n` calls would return them)."""
        out: List[int] = []
        while len(out) < n:
            if self._i >= len(self._words):
                self._words = blocks(self._key, self._counter, 256).reshape(-1).tolist()
                self._counter += 256
                self._i = 0
            stop = min(len(self._words), self._i + n - len(out))
            out.extend(self._words[self._i:stop])
            self._i = stop
        return out
