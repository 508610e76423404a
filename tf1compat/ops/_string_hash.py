"""The string hashes behind TF's hash-bucket ops, bit-exact, in pure Python.

* `fingerprint64`: FarmHash's Fingerprint64 (the `farmhashna` 64-bit hash), used by
  StringToHashBucketFast (and by TF's feature columns' hash buckets).
* `fingerprint128`: FarmHash's Fingerprint128 (`farmhashcc`, i.e. CityHash128 v1.1), used
  by SdcaFprint.
* `tf_hash64`: TF's legacy `Hash64` (a MurmurHash64A variant with seed 0xDECAFCAFFE), used
  by the deprecated StringToHashBucket.
* `siphash24`: SipHash-2-4 with a 128-bit key given as two uint64 words, used by
  StringToHashBucketStrong.

Python integers are unbounded, so every 64-bit step masks with `_M`.
"""

from __future__ import annotations

import struct
from typing import Tuple

__all__ = ["fingerprint64", "fingerprint128", "tf_hash64", "siphash24"]

_M = 0xFFFFFFFFFFFFFFFF
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F


def _fetch64(s: bytes, i: int) -> int:
    return struct.unpack_from("<Q", s, i)[0]


def _fetch32(s: bytes, i: int) -> int:
    return struct.unpack_from("<I", s, i)[0]


def _rotate(v: int, shift: int) -> int:
    """Right rotation of a 64-bit word."""
    return v if shift == 0 else ((v >> shift) | (v << (64 - shift))) & _M


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def _hash_len16(u: int, v: int, mul: int) -> int:
    a = ((u ^ v) * mul) & _M
    a ^= a >> 47
    b = ((v ^ a) * mul) & _M
    b ^= b >> 47
    return (b * mul) & _M


def _hash_len0to16(s: bytes) -> int:
    n = len(s)
    if n >= 8:
        mul = (_K2 + n * 2) & _M
        a = (_fetch64(s, 0) + _K2) & _M
        b = _fetch64(s, n - 8)
        c = (_rotate(b, 37) * mul + a) & _M
        d = ((_rotate(a, 25) + b) * mul) & _M
        return _hash_len16(c, d, mul)
    if n >= 4:
        mul = (_K2 + n * 2) & _M
        a = _fetch32(s, 0)
        return _hash_len16((n + (a << 3)) & _M, _fetch32(s, n - 4), mul)
    if n > 0:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & _M) * _K2) & _M
    return _K2


def _hash_len17to32(s: bytes) -> int:
    n = len(s)
    mul = (_K2 + n * 2) & _M
    a = (_fetch64(s, 0) * _K1) & _M
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _M
    d = (_fetch64(s, n - 16) * _K2) & _M
    return _hash_len16((_rotate((a + b) & _M, 43) + _rotate(c, 30) + d) & _M,
                       (a + _rotate((b + _K2) & _M, 18) + c) & _M, mul)


def _hash_len33to64(s: bytes) -> int:
    n = len(s)
    mul = (_K2 + n * 2) & _M
    a = (_fetch64(s, 0) * _K2) & _M
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _M
    d = (_fetch64(s, n - 16) * _K2) & _M
    y = (_rotate((a + b) & _M, 43) + _rotate(c, 30) + d) & _M
    z = _hash_len16(y, (a + _rotate((b + _K2) & _M, 18) + c) & _M, mul)
    e = (_fetch64(s, 16) * mul) & _M
    f = _fetch64(s, 24)
    g = ((y + _fetch64(s, n - 32)) * mul) & _M
    h = ((z + _fetch64(s, n - 24)) * mul) & _M
    return _hash_len16((_rotate((e + f) & _M, 43) + _rotate(g, 30) + h) & _M,
                       (e + _rotate((f + a) & _M, 18) + g) & _M, mul)


def _weak_hash_len32_with_seeds(s: bytes, i: int, a: int, b: int) -> Tuple[int, int]:
    w, x, y, z = struct.unpack_from("<4Q", s, i)
    a = (a + w) & _M
    b = _rotate((b + a + z) & _M, 21)
    c = a
    a = (a + x + y) & _M
    b = (b + _rotate(a, 44)) & _M
    return (a + z) & _M, (b + c) & _M


def _mix64(s: bytes, i: int, x: int, y: int, z: int, v: Tuple[int, int],
           w: Tuple[int, int]) -> Tuple[int, int, int, Tuple[int, int], Tuple[int, int]]:
    """One 64-byte round of FarmHash's long-input loop (shared by Fingerprint64 and
    Fingerprint128): the new x, y, z, v, w."""
    x = (_rotate((x + y + v[0] + _fetch64(s, i + 8)) & _M, 37) * _K1) & _M
    y = (_rotate((y + v[1] + _fetch64(s, i + 48)) & _M, 42) * _K1) & _M
    x ^= w[1]
    y = (y + v[0] + _fetch64(s, i + 40)) & _M
    z = (_rotate((z + w[0]) & _M, 33) * _K1) & _M
    v = _weak_hash_len32_with_seeds(s, i, (v[1] * _K1) & _M, (x + w[0]) & _M)
    w = _weak_hash_len32_with_seeds(s, i + 32, (z + w[1]) & _M,
                                    (y + _fetch64(s, i + 16)) & _M)
    return z, y, x, v, w


def fingerprint64(s: bytes) -> int:
    """FarmHash Fingerprint64 of `s` (an unsigned 64-bit int)."""
    n = len(s)
    if n <= 16:
        return _hash_len0to16(s)
    if n <= 32:
        return _hash_len17to32(s)
    if n <= 64:
        return _hash_len33to64(s)
    seed = 81
    x = seed
    y = (seed * _K1 + 113) & _M
    z = (_shift_mix((y * _K2 + 113) & _M) * _K2) & _M
    v = (0, 0)
    w = (0, 0)
    x = (x * _K2 + _fetch64(s, 0)) & _M
    end = ((n - 1) // 64) * 64
    last64 = end + ((n - 1) & 63) - 63
    i = 0
    while True:
        x, y, z, v, w = _mix64(s, i, x, y, z, v, w)
        i += 64
        if i == end:
            break
    mul = (_K1 + ((z & 0xFF) << 1)) & _M
    i = last64
    w0 = (w[0] + ((n - 1) & 63)) & _M
    v0 = (v[0] + w0) & _M
    w0 = (w0 + v0) & _M
    v, w = (v0, v[1]), (w0, w[1])
    x = (_rotate((x + y + v[0] + _fetch64(s, i + 8)) & _M, 37) * mul) & _M
    y = (_rotate((y + v[1] + _fetch64(s, i + 48)) & _M, 42) * mul) & _M
    x ^= (w[1] * 9) & _M
    y = (y + v[0] * 9 + _fetch64(s, i + 40)) & _M
    z = (_rotate((z + w[0]) & _M, 33) * mul) & _M
    v = _weak_hash_len32_with_seeds(s, i, (v[1] * mul) & _M, (x + w[0]) & _M)
    w = _weak_hash_len32_with_seeds(s, i + 32, (z + w[1]) & _M, (y + _fetch64(s, i + 16)) & _M)
    z, x = x, z
    return _hash_len16((_hash_len16(v[0], w[0], mul) + _shift_mix(y) * _K0 + z) & _M,
                       (_hash_len16(v[1], w[1], mul) + x) & _M, mul)


_K_MUL = 0x9DDFEA08EB382D69     # CityHash's Hash128to64 multiplier


def _city_murmur(s: bytes, seed: Tuple[int, int]) -> Tuple[int, int]:
    """farmhashcc's CityMurmur: the 128-bit hash of a string shorter than 128 bytes."""
    n = len(s)
    a, b = seed
    if n <= 16:
        a = (_shift_mix((a * _K1) & _M) * _K1) & _M
        c = (b * _K1 + _hash_len0to16(s)) & _M
        d = _shift_mix((a + (_fetch64(s, 0) if n >= 8 else c)) & _M)
    else:
        c = _hash_len16((_fetch64(s, n - 8) + _K1) & _M, a, _K_MUL)
        d = _hash_len16((b + n) & _M, (c + _fetch64(s, n - 16)) & _M, _K_MUL)
        a = (a + d) & _M
        for i in range(0, n - 16, 16):
            a ^= (_shift_mix((_fetch64(s, i) * _K1) & _M) * _K1) & _M
            a = (a * _K1) & _M
            b ^= a
            c ^= (_shift_mix((_fetch64(s, i + 8) * _K1) & _M) * _K1) & _M
            c = (c * _K1) & _M
            d ^= c
    a = _hash_len16(a, c, _K_MUL)
    b = _hash_len16(d, b, _K_MUL)
    return a ^ b, _hash_len16(b, a, _K_MUL)


def _city_hash128_with_seed(s: bytes, seed: Tuple[int, int]) -> Tuple[int, int]:
    n = len(s)
    if n < 128:
        return _city_murmur(s, seed)
    x, y = seed
    z = (n * _K1) & _M
    v0 = (_rotate(y ^ _K1, 49) * _K1 + _fetch64(s, 0)) & _M
    v = (v0, (_rotate(v0, 42) * _K1 + _fetch64(s, 8)) & _M)
    w = ((_rotate((y + z) & _M, 35) * _K1 + x) & _M,
         (_rotate((x + _fetch64(s, 88)) & _M, 53) * _K1) & _M)
    i = 0
    while n >= 128:
        for _ in range(2):
            x, y, z, v, w = _mix64(s, i, x, y, z, v, w)
            i += 64
        n -= 128
    x = (x + _rotate((v[0] + z) & _M, 49) * _K0) & _M
    y = (y * _K0 + _rotate(w[1], 37)) & _M
    z = (z * _K0 + _rotate(w[0], 27)) & _M
    w = ((w[0] * 9) & _M, w[1])
    v = ((v[0] * _K0) & _M, v[1])
    # The tail: up to four 32-byte chunks counted back from the end of the string.
    done = 0
    while done < n:
        done += 32
        at = i + n - done
        y = (_rotate((x + y) & _M, 42) * _K0 + v[1]) & _M
        w = ((w[0] + _fetch64(s, at + 16)) & _M, w[1])
        x = (x * _K0 + w[0]) & _M
        z = (z + w[1] + _fetch64(s, at)) & _M
        w = (w[0], (w[1] + v[0]) & _M)
        v = _weak_hash_len32_with_seeds(s, at, (v[0] + z) & _M, v[1])
        v = ((v[0] * _K0) & _M, v[1])
    x = _hash_len16(x, v[0], _K_MUL)
    y = _hash_len16((y + z) & _M, w[0], _K_MUL)
    return ((_hash_len16((x + v[1]) & _M, w[1], _K_MUL) + y) & _M,
            _hash_len16((x + w[1]) & _M, (y + v[1]) & _M, _K_MUL))


def fingerprint128(s: bytes) -> Tuple[int, int]:
    """FarmHash Fingerprint128 of `s` as (low64, high64), unsigned."""
    if len(s) >= 16:
        return _city_hash128_with_seed(s[16:], (_fetch64(s, 0), (_fetch64(s, 8) + _K0) & _M))
    return _city_hash128_with_seed(s, (_K0, _K1))


def tf_hash64(s: bytes, seed: int = 0xDECAFCAFFE) -> int:
    """TF's legacy Hash64 (tensorflow/core/lib/hash): MurmurHash64A over little-endian words."""
    m = 0xC6A4A7935BD1E995
    n = len(s)
    h = (seed ^ (n * m)) & _M
    full = n - n % 8
    for i in range(0, full, 8):
        k = (_fetch64(s, i) * m) & _M
        k ^= k >> 47
        k = (k * m) & _M
        h = ((h ^ k) * m) & _M
    rest = s[full:]
    if rest:
        for j in range(len(rest) - 1, -1, -1):
            h ^= rest[j] << (8 * j)
        h = (h * m) & _M
    h ^= h >> 47
    h = (h * m) & _M
    h ^= h >> 47
    return h


def _sip_round(v0: int, v1: int, v2: int, v3: int) -> Tuple[int, int, int, int]:
    v0 = (v0 + v1) & _M
    v1 = _rotl(v1, 13) ^ v0
    v0 = _rotl(v0, 32)
    v2 = (v2 + v3) & _M
    v3 = _rotl(v3, 16) ^ v2
    v0 = (v0 + v3) & _M
    v3 = _rotl(v3, 21) ^ v0
    v2 = (v2 + v1) & _M
    v1 = _rotl(v1, 17) ^ v2
    v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


def _rotl(v: int, shift: int) -> int:
    return ((v << shift) | (v >> (64 - shift))) & _M


def siphash24(key: Tuple[int, int], s: bytes) -> int:
    """SipHash-2-4 of `s` with the 128-bit key (k0, k1)."""
    k0, k1 = key[0] & _M, key[1] & _M
    v0 = k0 ^ 0x736F6D6570736575
    v1 = k1 ^ 0x646F72616E646F6D
    v2 = k0 ^ 0x6C7967656E657261
    v3 = k1 ^ 0x7465646279746573
    n = len(s)
    full = n - n % 8
    for i in range(0, full, 8):
        m = _fetch64(s, i)
        v3 ^= m
        v0, v1, v2, v3 = _sip_round(*_sip_round(v0, v1, v2, v3))
        v0 ^= m
    last = (n & 0xFF) << 56
    for j, byte in enumerate(s[full:]):
        last |= byte << (8 * j)
    v3 ^= last
    v0, v1, v2, v3 = _sip_round(*_sip_round(v0, v1, v2, v3))
    v0 ^= last
    v2 ^= 0xFF
    for _ in range(4):
        v0, v1, v2, v3 = _sip_round(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3
