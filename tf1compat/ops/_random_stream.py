"""Per-op random streams that reproduce TensorFlow's CPU random kernels bit for bit.

Each stateful random op owns one stream per session (`kctx.op_resource`), created from
its (seed, seed2) attrs, as TF's GuardedPhiloxRandom: a Philox4x32-10 generator
(`_philox.py`) with key = seed and counter = seed2 << 64. Every kernel call *reserves* a
stretch of the counter and advances it past that stretch, so a re-run gives the next
numbers and a new session restarts the sequence:

* RandomUniform, RandomStandardNormal, TruncatedNormal, RandomUniformInt reserve
  256 blocks per output element, whatever they use;
* RandomShuffle reserves ceil((n - 1) / 4) blocks (one uint32 per swap);
* Multinomial reserves 256 * 2 * batch * ceil4(num_samples) blocks.

Within its stretch each kernel fills the output in fixed *groups*: one Philox block gives
4 floats (float32, float16, bfloat16, int32) or 2 doubles (float64, int64), so output i
comes from the i-th uint32 (or pair of them) of the stretch. Normal samples use the
Box-Muller pair (u1, u2) -> (sin, cos) * sqrt(-2 log u1) with the C library's functions
(`_glibc_math.py`). Truncated normal groups redraw rejected values, so each group of 4
(2 for float64) starts 256 (128) blocks after the previous one and consumes its blocks
one uint32 at a time until the group is full.

Seeds (0, 0) mean "nondeterministic": the key and counter are drawn from the OS, as TF.
All sampling runs on the CPU with numpy; kernels move results to their device.
"""

from __future__ import annotations

import secrets
from typing import List, Sequence, Tuple

import numpy as np
import torch

from tf1compat.ops import _glibc_math as libm
from tf1compat.ops._eigen_cost import parallel_for_ranges
from tf1compat.ops import _philox as philox
from tf1compat.util.gil_lock import GilLock

__all__ = ["RandomStream", "multinomial_shards"]

_RESERVED_PER_OUTPUT = 256          # blocks TF reserves per output element
_TRUNCATE = 2.0                     # truncated normal keeps |x| < 2
_EPSILON_F = np.float32(1e-7)       # Box-Muller clamps u1 from below (log(0) guard)
_TWO_PI = 2.0 * np.pi               # the double 2 * M_PI
_FLOAT_DTYPES = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


# float64 temporaries of at most this many elements stay below glibc malloc's mmap
# threshold (128 KiB); bigger ones are mapped and page-faulted afresh on every operation,
# which made the transforms several times slower.
_PASS = 8192


# -- uint32 -> uniform floats: random mantissa bits under the exponent of 1.0, minus 1 -----
# The `_fill_*` variants transform a words array the caller owns, in place.

def _unit_float(words: np.ndarray) -> np.ndarray:
    """float32 in [0, 1) from the low 23 bits of each word."""
    bits = (words & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)
    return bits.view(np.float32) - np.float32(1.0)


def _fill_unit_float(words: np.ndarray) -> np.ndarray:
    np.bitwise_and(words, np.uint32(0x7FFFFF), out=words)
    np.bitwise_or(words, np.uint32(0x3F800000), out=words)
    values = words.view(np.float32)
    np.subtract(values, np.float32(1.0), out=values)
    return values


def _unit_double(high: np.ndarray, low: np.ndarray) -> np.ndarray:
    """float64 in [0, 1) from 20 bits of `high` and all 32 of `low`."""
    bits = high.astype(np.uint64)
    np.bitwise_and(bits, np.uint64(0xFFFFF), out=bits)
    np.left_shift(bits, np.uint64(32), out=bits)
    np.bitwise_or(bits, low, out=bits)
    np.bitwise_or(bits, np.uint64(0x3FF0000000000000), out=bits)
    values = bits.view(np.float64)
    np.subtract(values, 1.0, out=values)
    return values


def _fill_unit_half(words: np.ndarray) -> np.ndarray:
    """float16 in [0, 1) from the low 10 bits of each word."""
    np.bitwise_and(words, np.uint32(0x3FF), out=words)
    np.bitwise_or(words, np.uint32(0x3C00), out=words)
    values = words.astype(np.uint16).view(np.float16)
    np.subtract(values, np.float16(1.0), out=values)
    return values


def _fill_unit_bfloat16(words: np.ndarray) -> torch.Tensor:
    """bfloat16 in [0, 1) from the low 7 bits of each word (exact in float32 first)."""
    np.bitwise_and(words, np.uint32(0x7F), out=words)
    np.left_shift(words, np.uint32(16), out=words)
    np.bitwise_or(words, np.uint32(0x3F800000), out=words)
    values = words.view(np.float32)
    np.subtract(values, np.float32(1.0), out=values)
    return torch.from_numpy(values).to(torch.bfloat16)


# -- Box-Muller, as TF's BoxMullerFloat / BoxMullerDouble ----------------------------------

def _box_muller_float(w0: np.ndarray, w1: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Two float32 normals from each pair of words (float math and glibc's logf/sincosf)."""
    u1 = np.maximum(_unit_float(w0), _EPSILON_F)
    # 2.0f * M_PI * u is evaluated in double and rounded to float once.
    v1 = (_TWO_PI * _unit_float(w1).astype(np.float64)).astype(np.float32)
    radius = np.sqrt(np.float32(-2.0) * libm.logf(u1))
    sin, cos = libm.sincosf(v1)
    sin *= radius
    cos *= radius
    return sin, cos


def _box_muller_double(w: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Two float64 normals from each row of 4 words (glibc's log/sin/cos)."""
    u1 = _unit_double(w[:, 0], w[:, 1])
    np.maximum(u1, 1e-7, out=u1)
    v1 = _TWO_PI * _unit_double(w[:, 2], w[:, 3])
    radius = np.sqrt(-2.0 * libm.log(u1))
    return libm.sin(v1) * radius, libm.cos(v1) * radius


def _normals_float(words: np.ndarray) -> np.ndarray:
    """float32 normals from consecutive word pairs: pair i gives outputs 2i (sin), 2i+1."""
    pairs = words.reshape(-1, 2)
    out = np.empty(pairs.shape, dtype=np.float32)
    for start in range(0, len(pairs), _PASS):
        chunk = pairs[start:start + _PASS]
        out[start:start + _PASS, 0], out[start:start + _PASS, 1] = \
            _box_muller_float(chunk[:, 0], chunk[:, 1])
    return out.reshape(-1)


def _normals_double(blocks: np.ndarray) -> np.ndarray:
    """float64 normals, two per block (outputs 2b, 2b+1)."""
    out = np.empty((len(blocks), 2), dtype=np.float64)
    for start in range(0, len(blocks), _PASS):
        chunk = blocks[start:start + _PASS]
        out[start:start + _PASS, 0], out[start:start + _PASS, 1] = _box_muller_double(chunk)
    return out.reshape(-1)


def _float_output(values: np.ndarray, dtype: torch.dtype) -> torch.Tensor:
    """float32 samples in the requested float dtype (round to nearest even, as Eigen)."""
    if dtype == torch.float16:
        return torch.from_numpy(values.astype(np.float16))
    tensor = torch.from_numpy(values)
    return tensor.to(dtype) if dtype != torch.float32 else tensor


def _check_float(dtype: torch.dtype) -> None:
    if dtype not in _FLOAT_DTYPES:
        raise NotImplementedError(f"random floats of dtype {dtype} are not supported")


# -- truncated normal: variable samples per group ------------------------------------------

def _first_accepted(candidates: np.ndarray, size: int) -> Tuple[np.ndarray, np.ndarray]:
    """Per row, the first `size` candidates with |x| < 2 (rows lacking them are flagged)."""
    accepted = np.abs(candidates) < _TRUNCATE
    rank = np.cumsum(accepted, axis=1)
    complete = rank[:, -1] >= size
    take = accepted & (rank <= size)
    out = np.zeros((len(candidates), size), dtype=candidates.dtype)
    rows = complete.nonzero()[0]
    out[rows] = candidates[rows][take[rows]].reshape(-1, size)
    return out, ~complete


class RandomStream:
    """One random op's generator (TF's GuardedPhiloxRandom) and TF's CPU samplers."""

    def __init__(self, seed: int, seed2: int):
        if seed == 0 and seed2 == 0:
            seed, seed2 = secrets.randbits(64), secrets.randbits(64)
        self.key = int(seed) & philox.MASK64
        self.counter = (int(seed2) & philox.MASK64) << 64
        # Runs of one session may come from threads (queue runners drawing random crops):
        # a lock without convoys (util/gil_lock.py).
        self._lock = GilLock()

    def reserve(self, blocks: int) -> int:
        """Reserves `blocks` 128-bit samples; returns the counter where they start."""
        with self._lock:
            start = self.counter
            self.counter = (start + blocks) & philox.MASK128
        return start

    def _words(self, start: int, count: int) -> np.ndarray:
        return philox.words(self.key, start, count)

    # -- fixed samples per output ------------------------------------------------------
    def uniform(self, shape: Sequence[int], dtype: torch.dtype) -> torch.Tensor:
        """RandomUniform: floats in [0, 1)."""
        _check_float(dtype)
        n = int(np.prod(shape, dtype=np.int64))
        start = self.reserve(n * _RESERVED_PER_OUTPUT)
        if dtype == torch.float64:
            w = self._words(start, 2 * n)
            out = torch.from_numpy(_unit_double(w[0::2], w[1::2]))
        elif dtype == torch.float16:
            out = torch.from_numpy(_fill_unit_half(self._words(start, n)))
        elif dtype == torch.bfloat16:
            out = _fill_unit_bfloat16(self._words(start, n))
        else:
            out = torch.from_numpy(_fill_unit_float(self._words(start, n)))
        return out.reshape(tuple(shape))

    def normal(self, shape: Sequence[int], dtype: torch.dtype) -> torch.Tensor:
        """RandomStandardNormal."""
        _check_float(dtype)
        n = int(np.prod(shape, dtype=np.int64))
        start = self.reserve(n * _RESERVED_PER_OUTPUT)
        pairs = -(-n // 2)
        if dtype == torch.float64:
            blocks = philox.blocks(self.key, start, pairs)  # one block -> one pair of doubles
            return torch.from_numpy(_normals_double(blocks)[:n]).reshape(tuple(shape))
        values = _normals_float(self._words(start, 2 * pairs))[:n]
        return _float_output(values, dtype).reshape(tuple(shape))

    def truncated_normal(self, shape: Sequence[int], dtype: torch.dtype) -> torch.Tensor:
        """TruncatedNormal: normals redrawn until |x| < 2, in groups as TF fills them."""
        _check_float(dtype)
        n = int(np.prod(shape, dtype=np.int64))
        start = self.reserve(n * _RESERVED_PER_OUTPUT)
        if n == 0:
            return torch.empty(tuple(shape), dtype=dtype)
        double = dtype == torch.float64
        group = 2 if double else 4
        skip = group * _RESERVED_PER_OUTPUT // 4          # blocks between group starts
        groups = -(-n // group)
        first_block = np.arange(groups, dtype=np.uint64) * np.uint64(skip)
        # A group's first block yields exactly `group` candidates: it fills the group when
        # all are accepted (83% of groups for floats, 91% for doubles). The others draw
        # their next blocks, b = 1, 2, ..., until they have `group` accepted values.
        pending = np.arange(groups)
        drawn = self._candidates(philox.blocks_at(self.key, start, first_block), double)
        values = drawn.reshape(groups, group)
        accepted = np.abs(values) < _TRUNCATE
        # A row of `group` booleans read as one integer: all accepted <=> 0x0101...01.
        as_int = np.uint32 if group == 4 else np.uint16
        short = accepted.view(as_int).reshape(-1) != as_int(0x01010101 & np.iinfo(as_int).max)
        drawn = values
        block = 0
        while short.any():
            block += 1
            pending, drawn = pending[short], drawn[short]
            more = self._candidates(philox.blocks_at(
                self.key, start, first_block[pending] + np.uint64(block)), double)
            drawn = np.concatenate([drawn, more.reshape(len(pending), -1)], axis=1)
            values[pending], short = _first_accepted(drawn, group)
        flat = values.reshape(-1)[:n]
        if double:
            return torch.from_numpy(flat).reshape(tuple(shape))
        return _float_output(flat, dtype).reshape(tuple(shape))

    @staticmethod
    def _candidates(blocks: np.ndarray, double: bool) -> np.ndarray:
        """Normal candidates in the order TF draws them: per pair, sin then cos part."""
        return _normals_double(blocks) if double else _normals_float(blocks.reshape(-1))

    def uniform_int(self, shape: Sequence[int], low: int, high: int,
                    dtype: torch.dtype) -> torch.Tensor:
        """RandomUniformInt: `low + bits % (high - low)` (requires low < high)."""
        n = int(np.prod(shape, dtype=np.int64))
        start = self.reserve(n * _RESERVED_PER_OUTPUT)
        # low + bits % span lies in [low, high), so unsigned wrap-around addition of low's
        # two's complement gives its bits exactly (TF's SignedAdd).
        if dtype == torch.int64:
            w = self._words(start, 2 * n)
            bits = w[0::2].astype(np.uint64)              # word 2i is the low half
            upper = w[1::2].astype(np.uint64)
            np.left_shift(upper, np.uint64(32), out=upper)
            np.bitwise_or(bits, upper, out=bits)
            np.remainder(bits, np.uint64((high - low) & philox.MASK64), out=bits)
            np.add(bits, np.uint64(low & philox.MASK64), out=bits)
            out = bits.view(np.int64)
        elif dtype == torch.int32:
            w = self._words(start, n)
            np.remainder(w, np.uint32((high - low) & 0xFFFFFFFF), out=w)
            np.add(w, np.uint32(low & 0xFFFFFFFF), out=w)
            out = w.view(np.int32)
        else:
            raise NotImplementedError(f"random integers of dtype {dtype} are not supported")
        return torch.from_numpy(out).reshape(tuple(shape))

    # -- RandomShuffle -----------------------------------------------------------------
    def permutation(self, n: int) -> np.ndarray:
        """TF's shuffle order for n >= 2 items: forward Fisher-Yates, one uint32 per swap.

        Step i swaps item i with item i + word_i % (n - i).
        """
        if n >= 0xFFFFFFFF:
            raise NotImplementedError("random_shuffle of 2**32 or more rows")
        start = self.reserve(-(-(n - 1) // 4))
        w = self._words(start, n - 1).astype(np.int64)
        targets = (np.arange(n - 1, dtype=np.int64)
                   + w % (n - np.arange(n - 1, dtype=np.int64))).tolist()
        perm = list(range(n))
        for i, j in enumerate(targets):
            perm[i], perm[j] = perm[j], perm[i]
        return np.array(perm, dtype=np.int64)

    # -- Multinomial -------------------------------------------------------------------
    def multinomial(self, logits: np.ndarray, num_samples: int,
                    num_threads: int = 1) -> np.ndarray:
        """Multinomial: int64 (batch, num_samples) class indices, as TF's CPU kernel.

        Per row: cdf = cumulative exp(logit - max) over finite logits (unnormalised);
        each sample is upper_bound(cdf, RandDouble() * total). Rows are split into shards
        as TF's thread pool would split them (`multinomial_shards`); each shard reads the
        uint32 stream from its own offset and its rows consume it in turn.
        """
        batch, classes = logits.shape
        out = np.zeros((batch, num_samples), dtype=np.int64)
        if batch * num_samples == 0:
            return out
        ceil4 = -(-num_samples // 4) * 4
        start = self.reserve(batch * ceil4 * 2 * _RESERVED_PER_OUTPUT)
        cdf, total = _multinomial_cdf(logits)
        for first, last in multinomial_shards(batch, num_samples, classes, num_threads):
            skip = first * (num_samples + 3) // 4
            rows = last - first
            w = self._words(start + skip, 2 * rows * num_samples).reshape(rows, num_samples, 2)
            u = _unit_double(w[..., 0], w[..., 1])
            for r in range(rows):
                b = first + r
                out[b] = np.searchsorted(cdf[b], u[r] * total[b], side="right")
        return out


def _multinomial_cdf(logits: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Unnormalised cumulative exp(logit - max finite logit), skipping non-finite logits."""
    finite = np.isfinite(logits)
    lowest = np.finfo(logits.dtype).min
    top = np.where(finite, logits, lowest).max(axis=1).astype(np.float64)
    terms = np.where(finite, np.exp(logits.astype(np.float64) - top[:, None]), 0.0)
    cdf = np.cumsum(terms, axis=1)                      # sequential, as TF's running total
    return cdf, cdf[:, -1].copy()


def multinomial_shards(batch: int, num_samples: int, classes: int,
                       num_threads: int) -> List[Tuple[int, int]]:
    """The row ranges TF's CPU Multinomial kernel hands to its intra-op thread pool.

    TF shards rows with Eigen's ThreadPoolDevice::parallelFor at an estimated cost of
    50 * (num_samples * log2(classes) + classes) cycles per row: one shard when the
    whole job is cheap or there is one thread, otherwise equal blocks of rows whose size
    Eigen picks from the cost and thread count. A shard starting at row r reads the
    stream from block r * (num_samples + 3) // 4, so TF's samples depend on this split
    (and hence on its intra-op thread count) once a job is big enough to be split.
    """
    cost = int(50 * (num_samples * np.log(classes) / np.log(2) + classes))
    return parallel_for_ranges(batch, cost, num_threads)
