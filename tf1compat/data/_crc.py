"""CRC-32C of short and medium buffers (TFRecord records): google-crc32c's C code when
it is installed (a dependency), else vectorized with numpy as follows.

training/crc32c.py is fast for long buffers (lanes) but loops per byte below 8 KiB, which
made reading and writing TFRecords of typical records (hundreds of bytes to a few KiB)
slow. A CRC is linear over GF(2), so the register after `n` bytes is the XOR of one
table entry per byte — the contribution of byte value b followed by k zero bytes,
`G[k][b]` — plus the contribution of the initial register, `F[n]`. With G tabulated for
k < 4096 (4 MiB, built on first use) a record's CRC is one gather and one XOR-reduce.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from tf1compat.training import crc32c

try:
    import google_crc32c as _fast
except ImportError:  # pragma: no cover - installed with tf1compat; numpy stands in
    _fast = None

__all__ = ["value", "values", "mask", "unmask"]

_MAX = 4096
_SMALL = 48
_TABLES: Optional[tuple] = None

mask = crc32c.mask
unmask = crc32c.unmask


def _tables() -> tuple:
    global _TABLES
    if _TABLES is None:
        t0 = crc32c._T[0]
        ff, eight = np.uint32(0xFF), np.uint32(8)
        g = np.empty((_MAX, 256), dtype=np.uint32)
        g[0] = t0
        for k in range(1, _MAX):
            prev = g[k - 1]
            g[k] = t0[prev & ff] ^ (prev >> eight)
        f = np.empty(_MAX + 1, dtype=np.uint32)
        f[0] = 0xFFFFFFFF
        for k in range(1, _MAX + 1):
            f[k] = t0[f[k - 1] & ff] ^ (f[k - 1] >> eight)
        # offsets[i] = (count - 1 - i) * 256 for a buffer of `count` bytes: use the tail.
        offsets = np.arange(_MAX - 1, -1, -1, dtype=np.int64) * 256
        _TABLES = (g.reshape(-1), f, offsets)
    return _TABLES


def value(data: Any) -> int:
    """The CRC-32C of `data` (bytes-like)."""
    if _fast is not None:
        return _fast.value(bytes(data))
    n = len(data)
    if n < _SMALL or n > _MAX:
        return crc32c.value(data)
    g, f, offsets = _tables()
    arr = np.frombuffer(data, dtype=np.uint8)
    register = np.bitwise_xor.reduce(g[offsets[_MAX - n:] + arr])
    return int(register ^ f[n]) ^ 0xFFFFFFFF


def values(data: bytes, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The CRC-32C of each `data[start:start + length]`, as uint32 (with numpy: one
    gather and one segmented XOR-reduce for all lengths 1..4096, longer ones alone)."""
    out = np.empty(len(starts), dtype=np.uint32)
    if not len(starts):
        return out
    if _fast is not None:
        out[:] = [_fast.value(data[s:s + n]) for s, n in zip(starts.tolist(),
                                                              lengths.tolist())]
        return out
    buffer = np.frombuffer(data, np.uint8)
    small = (lengths >= 1) & (lengths <= _MAX)
    for i in np.nonzero(~small)[0]:
        s, n = int(starts[i]), int(lengths[i])
        out[i] = crc32c.value(buffer[s:s + n].tobytes())
    if small.any():
        g, f, _ = _tables()
        st, ln = starts[small].astype(np.int64), lengths[small].astype(np.int64)
        total = int(ln.sum())
        seg_begin = np.cumsum(ln) - ln                       # each segment's first index
        within = np.arange(total, dtype=np.int64) - np.repeat(seg_begin, ln)
        positions = np.repeat(st, ln) + within
        distance = np.repeat(ln, ln) - 1 - within            # bytes after this one
        gathered = g[distance * 256 + buffer[positions]]
        registers = np.bitwise_xor.reduceat(gathered, seg_begin)
        out[small] = (registers ^ f[ln]) ^ np.uint32(0xFFFFFFFF)
    return out
