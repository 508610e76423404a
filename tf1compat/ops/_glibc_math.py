"""Bit-exact stand-ins for the C math library calls in TF's Box-Muller transform.

TF's CPU normal samplers call `logf` and `sincosf` (float) and `log` and `sincos`
(double) from the system C library; TF's Linux wheels use glibc. To reproduce TF's
samples bit for bit we need the same results, not merely accurate ones:

* glibc's `logf` and `sincosf` (since glibc 2.28) are not correctly rounded (up to 0.82
  and 0.56 ULP), so numpy's float32 functions, or float64 results rounded to float32,
  differ from them on about 1% of inputs. We evaluate glibc's algorithms (the same
  reduction, table and polynomial constants) in float64 numpy arithmetic. Their double
  intermediates carry ~2**-50 relative error, far inside half a float ULP, so the final
  rounding to float32 agrees with glibc even where its build contracts a*b+c into FMAs;
  the unit tests check every input the samplers can produce against the C library.
* For doubles, numpy's float64 `log`/`sin`/`cos` call the C library on most builds, but
  some builds (AVX-512 SIMD paths) use their own approximations. `log`, `sin`, `cos`,
  `log1p`, `exp` and `pow` below check numpy against Python's `math` module (a thin libm
  wrapper) once, and fall back to `math` element by element when they disagree; `lgamma`
  calls the C function through ctypes (Python's `math.lgamma` is CPython's own code). The
  gamma and Poisson samplers use these.
"""

from __future__ import annotations

import math
from typing import Callable, Dict, Tuple

import numpy as np

__all__ = ["logf", "sincosf", "log", "sin", "cos", "log1p", "exp", "pow", "lgamma"]

_hex = float.fromhex

# -- logf -----------------------------------------------------------------------------------
# log(x) = log1p(z/c - 1) + log(c) + k*ln2, where x = 2**k * z, z in [0x3f330000, 2*that)
# and c is the centre of z's sixteenth of that interval; (1/c, log c) per sixteenth.
_LOGF_INVC = np.array([_hex(v) for v in (
    "0x1.661ec79f8f3bep+0", "0x1.571ed4aaf883dp+0", "0x1.49539f0f010bp+0",
    "0x1.3c995b0b80385p+0", "0x1.30d190c8864a5p+0", "0x1.25e227b0b8eap+0",
    "0x1.1bb4a4a1a343fp+0", "0x1.12358f08ae5bap+0", "0x1.0953f419900a7p+0", "0x1p+0",
    "0x1.e608cfd9a47acp-1", "0x1.ca4b31f026aap-1", "0x1.b2036576afce6p-1",
    "0x1.9c2d163a1aa2dp-1", "0x1.886e6037841edp-1", "0x1.767dcf5534862p-1")])
_LOGF_LOGC = np.array([_hex(v) for v in (
    "-0x1.57bf7808caadep-2", "-0x1.2bef0a7c06ddbp-2", "-0x1.01eae7f513a67p-2",
    "-0x1.b31d8a68224e9p-3", "-0x1.6574f0ac07758p-3", "-0x1.1aa2bc79c81p-3",
    "-0x1.a4e76ce8c0e5ep-4", "-0x1.1973c5a611cccp-4", "-0x1.252f438e10c1ep-5", "0x0p+0",
    "0x1.aa5aa5df25984p-5", "0x1.c5e53aa362eb4p-4", "0x1.526e57720db08p-3",
    "0x1.bc2860d22477p-3", "0x1.1058bc8a07ee1p-2", "0x1.4043057b6ee09p-2")])
_LN2 = _hex("0x1.62e42fefa39efp-1")
_LOGF_P0 = _hex("-0x1.00ea348b88334p-2")
_LOGF_P1 = _hex("0x1.5575b0be00b6ap-2")
_LOGF_P2 = _hex("-0x1.ffffef20a4123p-2")
_LOGF_OFF = 0x3F330000

# With tmp = bits(x) - OFF as int32, tmp >> 19 is 16*k + i (k the exponent, i the
# sixteenth). Tabulating 1/c and log(c) + k*ln2 per value of tmp >> 19 (computed with
# glibc's own double operations) replaces two gathers, a conversion and a multiply-add.
_LOGF_J = np.arange(-2048, 2064)             # tmp >> 19 over all positive normal floats
_LOGF_BY_J = np.stack([_LOGF_INVC[_LOGF_J & 15],
                       _LOGF_LOGC[_LOGF_J & 15] + (_LOGF_J >> 4).astype(np.float64) * _LN2],
                      axis=1)                                   # rows (1/c, y0)


def logf(x: np.ndarray) -> np.ndarray:
    """glibc's `logf` for positive normal float32 `x` (the samplers' domain).

    (glibc returns +0 for log(1) by a special case that only matters when rounding
    downwards; with round-to-nearest the general path gives +0 too.)
    """
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.int32)
    tmp = bits - _LOGF_OFF
    j = (tmp >> 19) + 2048
    # z = x / 2**k lies in [OFF, 2*OFF): clear the exponent bits of tmp from x.
    z = (bits - (tmp & np.int32(-(1 << 23)))).view(np.float32).astype(np.float64)
    table = np.take(_LOGF_BY_J, j, axis=0)                     # one gather: (1/c, y0)
    r = z * table[:, 0]
    r -= 1.0
    r2 = r * r
    y = _LOGF_P1 * r
    y += _LOGF_P2
    y += _LOGF_P0 * r2
    y *= r2
    y += table[:, 1] + r
    return y.astype(np.float32)


# -- sincosf --------------------------------------------------------------------------------
# x is reduced by the nearest multiple n of pi/2 (2/pi is pre-scaled by 2**24 so that n
# lands in the top byte of an int32), then a sine and a cosine polynomial are evaluated
# and the quadrant n & 3 swaps and negates them. glibc skips the reduction below
# |x| < 0.75, where n is 0 and the reduction is exact, so one path serves both.
_HALF_PI_INV_2_24 = _hex("0x1.45F306DC9C883p+23")
_HALF_PI = _hex("0x1.921FB54442D18p0")
_COS = (1.0, _hex("-0x1.ffffffd0c621cp-2"), _hex("0x1.55553e1068f19p-5"),
        _hex("-0x1.6c087e89a359dp-10"), _hex("0x1.99343027bf8c3p-16"))
_SIN = (_hex("-0x1.555545995a603p-3"), _hex("0x1.1107605230bc4p-7"),
        _hex("-0x1.994eb3774cf24p-13"))
_SIN_SIGN = np.array([1, 1, -1, -1], dtype=np.float32)    # per quadrant n & 3
_COS_SIGN = np.array([1, -1, -1, 1], dtype=np.float32)
_TINY = np.float32(2.0 ** -12)        # below it sin x = x and cos x = 1
_LARGE = 120.0                        # above it glibc uses a different reduction


def sincosf(x: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """glibc's `sincosf` for float32 `x` with |x| < 120 (the samplers use [0, 2*pi)).

    glibc evaluates the polynomials of x * sign(quadrant) with a cosine table negated in
    quadrants 2 and 3; IEEE arithmetic is symmetric under negation, so evaluating them
    on the reduced x and negating the float results afterwards gives the same bits.
    """
    x = np.ascontiguousarray(x, dtype=np.float32)
    xd = x.astype(np.float64)
    if x.size and float(np.abs(xd).max()) >= _LARGE:
        raise NotImplementedError("sincosf emulation covers |x| < 120 only")
    n = (xd * _HALF_PI_INV_2_24).astype(np.int32)
    n += 0x800000
    n >>= 24
    r = xd - n * _HALF_PI
    x2 = r * r
    x3 = x2 * r
    x4 = x2 * x2
    sin_poly = x2 * _SIN[2]
    sin_poly += _SIN[1]
    sin_poly *= x3 * x2
    sin_poly += r + x3 * _SIN[0]
    cos_poly = x2 * _COS[4]
    cos_poly += _COS[3]
    cos_poly *= x4 * x2
    cos_tail = x2 * _COS[1]
    cos_tail += _COS[0]
    cos_tail += x4 * _COS[2]
    cos_poly += cos_tail
    s = sin_poly.astype(np.float32)
    c = cos_poly.astype(np.float32)
    q = n & 3
    odd = (q & 1).astype(bool)
    sin_out = np.where(odd, c, s)
    cos_out = np.where(odd, s, c)
    sin_out *= _SIN_SIGN.take(q)                                  # exact: times +-1
    cos_out *= _COS_SIGN.take(q)
    tiny = np.abs(x) < _TINY
    if tiny.any():
        sin_out[tiny] = x[tiny]
        cos_out[tiny] = 1.0
    return sin_out, cos_out


# -- double precision: the C library itself --------------------------------------------------

_CHOSEN: Dict[str, Callable[[np.ndarray], np.ndarray]] = {}


def _pick(name: str, numpy_fn: Callable, math_fn: Callable, probe: np.ndarray) -> Callable:
    """numpy's ufunc when it agrees with the C library (via `math`) on `probe`, else `math`."""
    fn = _CHOSEN.get(name)
    if fn is None:
        reference = np.array([math_fn(v) for v in probe.tolist()])
        if np.array_equal(numpy_fn(probe), reference):
            fn = numpy_fn
        else:
            elementwise = np.frompyfunc(math_fn, 1, 1)
            fn = lambda a: elementwise(a).astype(np.float64)  # noqa: E731
        _CHOSEN[name] = fn
    return fn


def _probe(low: float, high: float) -> np.ndarray:
    return np.random.default_rng(1234).uniform(low, high, 4096)


def log(x: np.ndarray) -> np.ndarray:
    """The C library's `log` on a float64 array."""
    return _pick("log", np.log, math.log, _probe(1e-7, 1.0))(x)


def sin(x: np.ndarray) -> np.ndarray:
    """The C library's `sin` on a float64 array."""
    return _pick("sin", np.sin, math.sin, _probe(0.0, 2 * math.pi))(x)


def cos(x: np.ndarray) -> np.ndarray:
    """The C library's `cos` on a float64 array."""
    return _pick("cos", np.cos, math.cos, _probe(0.0, 2 * math.pi))(x)


def log1p(x: np.ndarray) -> np.ndarray:
    """The C library's `log1p` on a float64 array."""
    return _pick("log1p", np.log1p, math.log1p, _probe(-0.999999, 1.0))(x)


def exp(x: np.ndarray) -> np.ndarray:
    """The C library's `exp` on a float64 array."""
    return _pick("exp", np.exp, math.exp, _probe(-50.0, 0.0))(x)


def pow(x: np.ndarray, y: np.ndarray) -> np.ndarray:  # noqa: A001 - the C name
    """The C library's `pow` on float64 arrays (numpy's when it agrees on a probe)."""
    fn = _CHOSEN.get("pow")
    if fn is None:
        base, power = _probe(1e-7, 1.0), _probe(0.5, 50.0)
        reference = np.array([math.pow(a, b) for a, b in zip(base.tolist(), power.tolist())])
        if np.array_equal(np.power(base, power), reference):
            fn = np.power
        else:
            elementwise = np.frompyfunc(math.pow, 2, 1)
            fn = lambda a, b: elementwise(a, b).astype(np.float64)  # noqa: E731
        _CHOSEN["pow"] = fn
    return fn(x, y)


def lgamma(x: np.ndarray) -> np.ndarray:
    """The C library's `lgamma` on a float64 array (Python's math.lgamma is CPython's own
    implementation, so the C function is called through ctypes)."""
    fn = _CHOSEN.get("lgamma")
    if fn is None:
        import ctypes
        import ctypes.util
        libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        c_lgamma = libm.lgamma
        c_lgamma.restype = ctypes.c_double
        c_lgamma.argtypes = [ctypes.c_double]
        elementwise = np.frompyfunc(c_lgamma, 1, 1)
        fn = lambda a: elementwise(a).astype(np.float64)  # noqa: E731
        _CHOSEN["lgamma"] = fn
    return fn(np.asarray(x, dtype=np.float64))
