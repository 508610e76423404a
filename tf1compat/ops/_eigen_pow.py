"""Bit-exact float32 `Pow` as TF's CPU kernel computes it.

TF's CPU `Pow` for float32 is Eigen's vectorised `generic_pow`: log2 of the mantissa in
double-word float arithmetic, the product with the exponent in double-word arithmetic,
and exp2 of the fractional part through Eigen's Cephes-style `pexp`. It is accurate to a
few ULP but not correctly rounded, so torch's `pow` (and libm's `powf`) differ from it in
the last bit on about a quarter of the inputs; measured against TF 2.21 (wavenet's
mu-law decode, `256 ** x`). We replay the same sequence of float32 operations:

* every float32 add/multiply is a separate torch op (the TF wheel's Eigen kernels are
  built without FMA, so a multiply-add rounds twice);
* Dekker products (`x * y = hi + lo` exactly) are formed in float64, where the product of
  two floats is exact, instead of by Veltkamp splitting; both give the exact split;
* TF runs kernels with flush-to-zero and denormals-are-zero on: subnormal inputs and
  results count as zero;
* Eigen applies the packet code to whole packets of 8 floats (AVX) and the scalar path,
  the C library's `powf`, to the last `size % 8` elements; we do the same.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework.constant_value import constant_value

__all__ = ["eigen_pow_float32", "emulated", "pow_kernel", "tf_pow"]

_F32 = torch.float32
_PACKET = 8                       # floats per AVX packet in TF's x86 CPU build
_SQRT_HALF = 0.70710678118654752440
_LN2 = 0.693147180559945309417232121458176568
# accurate_log2<float>: log2(1 + x) / x on [1/sqrt(2) - 1, sqrt(2) - 1]; the two
# lowest-order coefficients are carried as (hi, lo) float pairs.
_LOG2_C0 = 1.442695041742110273474963832995854318141937255859375e+00
_LOG2_C1 = -7.2134751588268664068692714863573201000690460205078125e-01
_LOG2_POLY = (9.7010828554630279541015625e-02, -1.6896486282348632812500000e-01,
              1.7200836539268493652343750e-01, -1.7892272770404815673828125e-01,
              2.0505344867706298828125000e-01, -2.4046677350997924804687500e-01,
              2.8857553005218505859375000e-01, -3.6067414283752441406250000e-01,
              4.8089790344238281250000000e-01)
# pexp_float (Cephes): range reduction constants and the degree-6 polynomial.
_EXP_LOG2EF = 1.44269504088896341
_EXP_C1 = -0.693359375
_EXP_C2 = 2.12194440e-4
_EXP_P = (0.49999988079071044921875, 0.16666518151760101318359375,
          4.166965186595916748046875e-2, 8.36894474923610687255859375e-3,
          1.37449637986719608306884765625e-3)
_EXP_HI = 88.723
_TINY = 2.0 ** -126               # smallest normal float32


def _f(value: float) -> float:
    """`value` rounded to float32, as a C++ `Scalar(value)` constant."""
    return float(torch.tensor(value, dtype=_F32))


def _split(value: float) -> Tuple[float, float]:
    hi = _f(value)
    return hi, _f(value - hi)


_C0 = _split(_LOG2_C0)
_C1 = _split(_LOG2_C1)
# (max_exponent * ln2) / epsilon in float32: from here on (1 + eps) ** y overflows.
_HUGE_EXPONENT = _f(_f(128.0 * _f(_LN2)) / _f(2.0 ** -23))


def _madd(a: torch.Tensor, b, c) -> torch.Tensor:
    """Eigen's `pmadd` without FMA: the product and the sum each round to float32."""
    return a * b + c


def _two_prod(x: torch.Tensor, y: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    """Exact split x * y = hi + lo, hi = fl(x * y) (the float64 product is exact)."""
    exact = x.double() * y.double()
    hi = exact.to(_F32)
    return hi, (exact - hi.double()).to(_F32)


def _fast_two_sum(x: torch.Tensor, y) -> Tuple[torch.Tensor, torch.Tensor]:
    s_hi = x + y
    return s_hi, y - (s_hi - x)


def _dw_add(x_hi, x_lo, y_hi, y_lo) -> Tuple[torch.Tensor, torch.Tensor]:
    """Double-word sum assuming |x_hi| >= |y_hi| (Eigen's four-argument fast_twosum)."""
    r_hi, r_lo = _fast_two_sum(x_hi, y_hi)
    return _fast_two_sum(r_hi, (y_lo + r_lo) + x_lo)


def _dw_mul(x_hi, x_lo, y) -> Tuple[torch.Tensor, torch.Tensor]:
    """Double-word times float (Muller's Algorithm 7, as Eigen's three-argument twoprod)."""
    c_hi, c_lo1 = _two_prod(x_hi, y)
    t_hi, t_lo1 = _fast_two_sum(c_hi, x_lo * y)
    return _fast_two_sum(t_hi, t_lo1 + c_lo1)


def _round_half_away(a: torch.Tensor) -> torch.Tensor:
    """Eigen's AVX `pround`: truncate a + copysign(0.49999997, a)."""
    prev_half = torch.full_like(a, _f(0.49999997))
    return torch.trunc(a + torch.copysign(prev_half, a))


def _flush(x: torch.Tensor) -> torch.Tensor:
    """TF's flush-to-zero / denormals-are-zero: a subnormal float32 counts as (signed) 0."""
    return torch.where(torch.abs(x) < _TINY, x * 0.0, x)


def _ldexp(x: torch.Tensor, n: torch.Tensor) -> torch.Tensor:
    """x * 2**n rounded once to float32, subnormal results flushed to zero."""
    return _flush((x.double() * torch.pow(2.0, n.double())).to(_F32))


def _log2_dw(z: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    """log2(z) for z in [1/sqrt(2), sqrt(2)] as a double word (accurate_log2<float>)."""
    x = z - 1.0
    p = torch.full_like(x, _LOG2_POLY[0])
    for coeff in _LOG2_POLY[1:]:
        p = _madd(p, x, coeff)
    p_hi, p_lo = _two_prod(x, p)
    p_hi, p_lo = _dw_add(torch.full_like(x, _C1[0]), torch.full_like(x, _C1[1]), p_hi, p_lo)
    p_hi, p_lo = _dw_mul(p_hi, p_lo, x)
    p_hi, p_lo = _dw_add(torch.full_like(x, _C0[0]), torch.full_like(x, _C0[1]), p_hi, p_lo)
    return _dw_mul(p_hi, p_lo, x)


def _exp(x_in: torch.Tensor) -> torch.Tensor:
    """Eigen's pexp_float for the small arguments exp2 hands it (|x| < 0.4)."""
    x = torch.clamp(x_in, max=_f(_EXP_HI))
    m = torch.floor(_madd(x, _f(_EXP_LOG2EF), 0.5))
    r = _madd(m, _f(_EXP_C1), x)
    r = _madd(m, _f(_EXP_C2), r)
    r2 = r * r
    p2, p3, p4, p5, p6 = (_f(c) for c in _EXP_P)
    p_even = _madd(r2, p6, p4)
    p_odd = _madd(r2, p5, p3)
    p_even = _madd(r2, p_even, p2)
    y = _madd(r, p_odd, p_even)
    y = _madd(r2, y, r + 1.0)
    return torch.maximum(_ldexp(y, m), x_in)


def _pow_positive(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """generic_pow_impl: x ** y for x > 0 (other x give values replaced later)."""
    m_x, e_int = torch.frexp(x)
    e_x = e_int.to(_F32)
    small = m_x < _f(_SQRT_HALF)
    m_x = torch.where(small, 2.0 * m_x, m_x)
    e_x = torch.where(small, e_x - 1.0, e_x)
    rx_hi, rx_lo = _log2_dw(m_x)
    f1_hi, f1_lo = _two_prod(e_x, y)
    f2_hi, f2_lo = _dw_mul(rx_hi, rx_lo, y)
    f_hi, f_lo = _dw_add(f1_hi, f1_lo, f2_hi, f2_lo)
    n_z = _round_half_away(f_hi)
    r_z = (f_hi - n_z) + f_lo
    n_r = _round_half_away(r_z)
    r_z = r_z - n_r
    n_z = n_z + n_r
    # generic_exp2: exp(ln2 * r) with ln2 * r split exactly, times (1 + lo).
    r_z = torch.clamp(r_z, min=-151.0, max=129.0)
    p_hi, p_lo = _two_prod(torch.full_like(r_z, _f(_LN2)), r_z)
    e_r = _exp(p_hi) * (p_lo + 1.0)
    return _ldexp(e_r, n_z)


def _packet_pow(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Eigen's generic_pow: the core value, then C++ `pow`'s special cases."""
    inf = torch.tensor(math.inf, dtype=_F32, device=x.device)
    zero = torch.zeros((), dtype=_F32, device=x.device)
    one = torch.ones((), dtype=_F32, device=x.device)
    nan = torch.tensor(math.nan, dtype=_F32, device=x.device)
    x_abs = torch.abs(x)
    out = _pow_positive(x_abs, y)
    y_abs = torch.abs(y)
    y_is_int = (torch.floor(y) == y) & (y_abs != inf)
    half_y = y * 0.5
    y_is_odd_int = y_is_int & (_round_half_away(half_y) != half_y)
    x_neg, y_neg, x_zero = x < 0, y < 0, x == 0
    out = torch.where(x_neg & ~y_is_int, nan, out)
    out = torch.where(x_zero, torch.where(y_neg, inf, zero), out)
    out = torch.where(torch.signbit(x) & y_is_odd_int, -out, out)
    inf_y = torch.where((y_neg & x_zero) | (y_neg ^ (x_abs > 1)), inf, zero)
    inf_y = torch.where(x == -1, one, inf_y)
    out = torch.where(y_abs >= _HUGE_EXPONENT, inf_y, out)
    pos_inf_x = torch.where(y_neg, zero, inf)
    neg_inf_x = torch.where(y_is_odd_int, -pos_inf_x, pos_inf_x)
    out = torch.where(x_abs == inf, torch.where(x_neg, neg_inf_x, pos_inf_x), out)
    out = torch.where(torch.isnan(x) | torch.isnan(y), nan, out)
    return torch.where(y == 1, x, torch.where((x == 1) | (y == 0), one, out))


def _libm_powf():
    name = ctypes.util.find_library("m")
    if name is None:
        return None
    fn = ctypes.CDLL(name).powf
    fn.restype = ctypes.c_float
    fn.argtypes = [ctypes.c_float, ctypes.c_float]
    return fn


_POWF: Optional[object] = _libm_powf()


def _scalar_pow(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """The scalar tail: Eigen's `numext::pow`, i.e. the C library's powf."""
    if _POWF is None:
        return torch.pow(x, y)
    values = [_POWF(float(a), float(b)) for a, b in zip(x.tolist(), y.tolist())]
    return torch.tensor(values, dtype=_F32, device=x.device)


def _value(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Packets of 8 through generic_pow, the rest through powf, as Eigen's executor."""
    x, y = torch.broadcast_tensors(_flush(x), _flush(y))
    shape = x.shape
    flat_x, flat_y = x.reshape(-1), y.reshape(-1)
    whole = flat_x.numel() - flat_x.numel() % _PACKET
    parts = [_packet_pow(flat_x[:whole], flat_y[:whole])]
    if whole < flat_x.numel():
        parts.append(_scalar_pow(flat_x[whole:], flat_y[whole:]))
    return torch.cat(parts).reshape(shape)


def emulated(x: torch.Tensor, y: torch.Tensor) -> bool:
    """Whether `Pow(x, y)` takes this module's path: float32 CPU tensors outside
    torch.compile/export (a compiled plan keeps torch's `pow`)."""
    return x.dtype == _F32 and y.dtype == _F32 and x.device.type == "cpu" and \
        y.device.type == "cpu" and not torch.compiler.is_compiling()


def eigen_pow_float32(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """TF's CPU float32 `Pow` of broadcast-compatible x and y, bit for bit (a value
    only: Pow's gradient is ops/_grad_formulas.pow_formula, TF's formula, which calls
    `tf_pow` for its own power)."""
    with torch.no_grad():
        return _value(x, y)


def _square(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return x * x


def _cube(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return x * (x * x)                 # Mul(x, Square(x))


# Grappler's ConvertPow stage (arithmetic optimizer) replaces Pow by a constant exponent
# with these ops before a session runs the graph: Square, Mul(x, Square(x)) (on the CPU
# only), Sqrt, Rsqrt and Reciprocal (tf1compat's kernels for those ops). Exponents 1 and
# 0 become Identity and a constant of ones, which generic_pow returns as well.
_CONVERT_POW: Dict[float, Callable[[torch.Tensor, torch.Tensor], torch.Tensor]] = {
    2.0: _square, 3.0: _cube, 0.5: lambda x, y: torch.sqrt(x),
    -0.5: lambda x, y: torch.rsqrt(x), -1.0: lambda x, y: torch.reciprocal(x)}


def _grappler_exponent(node: Any, kctx: Any) -> Optional[float]:
    """The constant exponent Grappler rewrites `node` (a Pow) for, else None: graph runs
    only (eager ops see no Grappler), a float op, and a one-element constant exponent
    that cannot broadcast x to a larger shape."""
    if getattr(kctx, "builder", None) is None or not node.outputs[0].dtype.is_floating:
        return None
    value = constant_value(node.inputs[1])
    rank = node.inputs[0].shape.ndims
    if value is None or np.size(value) != 1 or rank is None or np.ndim(value) > rank:
        return None
    exponent = float(np.asarray(value).reshape(-1)[0])
    if exponent == 3.0 and kctx.device.type != "cpu":
        return None
    return exponent


def pow_kernel(node: Any, kctx: Any) -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
    """`Pow`'s kernel factory: the op Grappler turns it into for a constant exponent,
    else `tf_pow`."""
    return _CONVERT_POW.get(_grappler_exponent(node, kctx), tf_pow)


def tf_pow(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """The `Pow` kernel: TF's CPU float32 values where `emulated`, else torch's `pow`."""
    if emulated(x, y):
        return eigen_pow_float32(x, y)
    return torch.pow(x, y)
