"""Bit-exact float32 `Pow` as TF's CPU kernel computes it.

TF's CPU `Pow` for float32 is Eigen's vectorised `generic_pow`: log2 of the mantissa in
double-word float arithmetic, the product with the exponent in double-word arithmetic,
and exp2 of the fractional part through Eigen's Cephes-style `pexp`. It is accurate to a
few ULP but not correctly rounded, so torch's `pow` (and libm's `powf`) differ from it in
the last bit on about a quarter of the inputs; measured against TF 2.21 (wavenet's
mu-law decode, `256 ** x`). We replay the same sequence of float32 operations:

* every float32 add/multiply is a separate numpy float32 op, rounded on its own (the TF
  wheel's Eigen kernels are built without FMA, so a multiply-add rounds twice); numpy
  rather than torch because its per-op cost on small arrays is a fraction of torch's and
  the sequence is ~120 ops long;
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
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework.constant_value import constant_value

__all__ = ["MAX_ELEMENTS", "eigen_pow_float32", "emulated", "pow_kernel", "tf_pow"]

F32 = np.float32
_PACKET = 8                       # floats per AVX packet in TF's x86 CPU build
MAX_ELEMENTS = 1 << 12            # larger powers keep torch's pow (see `emulated`)
_TINY = F32(2.0 ** -126)          # smallest normal float32
_LN2 = 0.693147180559945309417232121458176568


def _split(value: float) -> Tuple[np.float32, np.float32]:
    """A float64 constant as Eigen's (hi, lo) float pair."""
    hi = F32(value)
    return hi, F32(value - float(hi))


# accurate_log2<float>: log2(1 + x) / x on [1/sqrt(2) - 1, sqrt(2) - 1]; the two
# lowest-order coefficients are carried as (hi, lo) float pairs.
_C0 = _split(1.442695041742110273474963832995854318141937255859375e+00)
_C1 = _split(-7.2134751588268664068692714863573201000690460205078125e-01)
_LOG2_POLY = tuple(F32(c) for c in (
    9.7010828554630279541015625e-02, -1.6896486282348632812500000e-01,
    1.7200836539268493652343750e-01, -1.7892272770404815673828125e-01,
    2.0505344867706298828125000e-01, -2.4046677350997924804687500e-01,
    2.8857553005218505859375000e-01, -3.6067414283752441406250000e-01,
    4.8089790344238281250000000e-01))
# pexp_float (Cephes): clamp, range reduction and the degree-6 polynomial's constants.
_EXP_HI, _EXP_LOG2EF, _EXP_C1, _EXP_C2 = (F32(c) for c in (
    88.723, 1.44269504088896341, -0.693359375, 2.12194440e-4))
_EXP_P2, _EXP_P3, _EXP_P4, _EXP_P5, _EXP_P6 = (F32(c) for c in (
    0.49999988079071044921875, 0.16666518151760101318359375,
    4.166965186595916748046875e-2, 8.36894474923610687255859375e-3,
    1.37449637986719608306884765625e-3))
_SQRT_HALF = F32(0.70710678118654752440)
_LN2_F = F32(_LN2)
_HALF, _ONE, _TWO, _PREV_HALF = F32(0.5), F32(1.0), F32(2.0), F32(0.49999997)
# (max_exponent * ln2) / epsilon in float32: from here on (1 + eps) ** y overflows.
_HUGE_EXPONENT = F32(F32(128.0) * _LN2_F) / F32(2.0 ** -23)


def _two_prod(x: np.ndarray, y: Any) -> Tuple[np.ndarray, np.ndarray]:
    """Exact split x * y = hi + lo, hi = fl(x * y): the float64 product of two floats is
    exact, as Dekker's product computes it."""
    exact = x.astype(np.float64) * np.float64(y) if np.isscalar(y) else \
        x.astype(np.float64) * y.astype(np.float64)
    hi = exact.astype(F32)
    return hi, (exact - hi).astype(F32)


def _fast_two_sum(x: Any, y: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    s_hi = x + y
    return s_hi, y - (s_hi - x)


def _dw_add(x_hi: Any, x_lo: Any, y_hi: np.ndarray, y_lo: np.ndarray
            ) -> Tuple[np.ndarray, np.ndarray]:
    """Double-word sum assuming |x_hi| >= |y_hi| (Eigen's four-argument fast_twosum)."""
    r_hi, r_lo = _fast_two_sum(x_hi, y_hi)
    return _fast_two_sum(r_hi, (y_lo + r_lo) + x_lo)


def _dw_mul(x_hi: np.ndarray, x_lo: np.ndarray, y: np.ndarray
            ) -> Tuple[np.ndarray, np.ndarray]:
    """Double-word times float (Muller's Algorithm 7, as Eigen's three-argument twoprod)."""
    c_hi, c_lo1 = _two_prod(x_hi, y)
    t_hi, t_lo1 = _fast_two_sum(c_hi, x_lo * y)
    return _fast_two_sum(t_hi, t_lo1 + c_lo1)


def _round_half_away(a: np.ndarray) -> np.ndarray:
    """Eigen's AVX `pround`: truncate a + copysign(0.49999997, a)."""
    return np.trunc(a + np.copysign(_PREV_HALF, a))


def _flush(x: np.ndarray) -> np.ndarray:
    """TF's flush-to-zero / denormals-are-zero: a subnormal float32 counts as (signed) 0."""
    return np.where(np.abs(x) < _TINY, np.copysign(F32(0.0), x), x)


def _ldexp(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    """x * 2**n rounded once to float32, subnormal results flushed to zero."""
    n = np.clip(n, -400, 400).astype(np.int32)     # beyond: 0 or inf in float32 anyway
    return _flush(np.ldexp(x.astype(np.float64), n).astype(F32))


def _log2_dw(z: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """log2(z) for z in [1/sqrt(2), sqrt(2)] as a double word (accurate_log2<float>)."""
    x = z - _ONE
    p = np.full_like(x, _LOG2_POLY[0])
    for coeff in _LOG2_POLY[1:]:
        p = p * x + coeff                  # pmadd without FMA: two roundings
    p_hi, p_lo = _two_prod(x, p)
    p_hi, p_lo = _dw_add(_C1[0], _C1[1], p_hi, p_lo)
    p_hi, p_lo = _dw_mul(p_hi, p_lo, x)
    p_hi, p_lo = _dw_add(_C0[0], _C0[1], p_hi, p_lo)
    return _dw_mul(p_hi, p_lo, x)


def _exp(x_in: np.ndarray) -> np.ndarray:
    """Eigen's pexp_float for the small arguments exp2 hands it (|x| < 0.4)."""
    x = np.minimum(x_in, _EXP_HI)
    m = np.floor(x * _EXP_LOG2EF + _HALF)
    r = m * _EXP_C1 + x
    r = m * _EXP_C2 + r
    r2 = r * r
    p_even = r2 * _EXP_P6 + _EXP_P4
    p_odd = r2 * _EXP_P5 + _EXP_P3
    p_even = r2 * p_even + _EXP_P2
    y = r * p_odd + p_even
    y = r2 * y + (r + _ONE)
    return np.maximum(_ldexp(y, m), x_in)


def _pow_positive(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """generic_pow_impl: x ** y for x > 0 (other x give values replaced later)."""
    m_x, e_int = np.frexp(x)
    e_x = e_int.astype(F32)
    small = m_x < _SQRT_HALF
    m_x = np.where(small, _TWO * m_x, m_x)
    e_x = np.where(small, e_x - _ONE, e_x)
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
    r_z = np.clip(r_z, F32(-151.0), F32(129.0))
    p_hi, p_lo = _two_prod(r_z, _LN2_F)
    return _ldexp(_exp(p_hi) * (p_lo + _ONE), n_z)


def _packet_pow(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Eigen's generic_pow: the core value, then C++ `pow`'s special cases."""
    inf, zero, nan = F32(np.inf), F32(0.0), F32(np.nan)
    x_abs = np.abs(x)
    out = _pow_positive(x_abs, y)
    y_abs = np.abs(y)
    y_is_int = (np.floor(y) == y) & (y_abs != inf)
    half_y = y * _HALF
    y_is_odd_int = y_is_int & (_round_half_away(half_y) != half_y)
    x_neg, y_neg, x_zero = x < 0, y < 0, x == 0
    out = np.where(x_neg & ~y_is_int, nan, out)
    out = np.where(x_zero, np.where(y_neg, inf, zero), out)
    out = np.where(np.signbit(x) & y_is_odd_int, -out, out)
    inf_y = np.where((y_neg & x_zero) | (y_neg ^ (x_abs > _ONE)), inf, zero)
    inf_y = np.where(x == -_ONE, _ONE, inf_y)
    out = np.where(y_abs >= _HUGE_EXPONENT, inf_y, out)
    pos_inf_x = np.where(y_neg, zero, inf)
    neg_inf_x = np.where(y_is_odd_int, -pos_inf_x, pos_inf_x)
    out = np.where(x_abs == inf, np.where(x_neg, neg_inf_x, pos_inf_x), out)
    out = np.where(np.isnan(x) | np.isnan(y), nan, out)
    return np.where(y == _ONE, x, np.where((x == _ONE) | (y == 0), _ONE, out))


def _libm_powf() -> Optional[Callable[[float, float], float]]:
    name = ctypes.util.find_library("m")
    if name is None:
        return None
    fn = ctypes.CDLL(name).powf
    fn.restype = ctypes.c_float
    fn.argtypes = [ctypes.c_float, ctypes.c_float]
    return fn


_POWF = _libm_powf()


def _scalar_pow(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The scalar tail: Eigen's `numext::pow`, i.e. the C library's powf."""
    if _POWF is None:
        return _flush(np.power(x, y))
    return _flush(np.array([_POWF(float(a), float(b)) for a, b in zip(x, y)], F32))


def _value(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Packets of 8 through generic_pow, the rest through powf, as Eigen's executor."""
    flat_x, flat_y = (a.reshape(-1) for a in np.broadcast_arrays(_flush(x), _flush(y)))
    whole = flat_x.size - flat_x.size % _PACKET
    with np.errstate(all="ignore"):
        if whole == 0:
            return _scalar_pow(flat_x, flat_y)
        out = _packet_pow(flat_x[:whole], flat_y[:whole])
        if whole < flat_x.size:
            out = np.concatenate([out, _scalar_pow(flat_x[whole:], flat_y[whole:])])
    return out


def eigen_pow_float32(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """TF's CPU float32 `Pow` of broadcast-compatible CPU tensors x and y, bit for bit (a
    value only: Pow's gradient is ops/_grad_formulas.pow_formula, TF's formula, which
    calls `tf_pow` for its own power)."""
    shape = torch.broadcast_shapes(x.shape, y.shape)
    if x.numel() == 1 and y.numel() == 1:    # the common scalar case, without numpy
        a, b = (0.0 * v if abs(v) < _TINY else v for v in (x.item(), y.item()))
        value = _POWF(a, b) if _POWF is not None else float(np.power(F32(a), F32(b)))
        value = 0.0 * value if abs(value) < _TINY else value
        return torch.tensor(value, dtype=torch.float32).reshape(shape)
    out = _value(x.detach().numpy(), y.detach().numpy())
    return torch.from_numpy(out).reshape(shape)


def emulated(x: torch.Tensor, y: torch.Tensor) -> bool:
    """Whether `Pow(x, y)` takes this module's path: float32 CPU tensors of at most
    `MAX_ELEMENTS` results, outside torch.compile/export (a compiled plan keeps torch's
    `pow`). The replay costs ~120 numpy passes (about 0.2 ms for 64 elements, 0.15 us an
    element for large ones, against torch's 0.01), so larger powers keep torch's."""
    return x.dtype == torch.float32 and y.dtype == torch.float32 and \
        x.device.type == "cpu" and y.device.type == "cpu" and \
        torch.broadcast_shapes(x.shape, y.shape).numel() <= MAX_ELEMENTS and \
        not torch.compiler.is_compiling()


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
    (Grappler's: computed from constants, not fed) that cannot broadcast x to a larger
    shape."""
    if getattr(kctx, "builder", None) is None or not node.outputs[0].dtype.is_floating or \
            not kctx.input_is_constant(node.inputs[1]):     # (a fed exponent: as fed)
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


class _EigenPow(torch.autograd.Function):
    """The replayed value, differentiable: TF's `_PowGrad` in torch ops (which call
    `tf_pow` again), so gradients of gradients (hessians) reach through it."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        z = eigen_pow_float32(x, y)
        ctx.save_for_backward(x, y, z)
        return z

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Tuple[Optional[torch.Tensor], ...]:
        x, y, z = ctx.saved_tensors
        gx = gy = None
        if ctx.needs_input_grad[0]:
            gx = (grad * y * tf_pow(x, y - 1)).sum_to_size(x.shape)
        if ctx.needs_input_grad[1]:
            positive = x > 0
            log_x = torch.where(positive, torch.log(torch.where(positive, x, 1.0)), 0.0)
            gy = (grad * z * log_x).sum_to_size(y.shape)
        return gx, gy


def tf_pow(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """The `Pow` kernel: TF's CPU float32 values where `emulated`, else torch's `pow`."""
    if not emulated(x, y):
        return torch.pow(x, y)
    if torch.is_grad_enabled() and (x.requires_grad or y.requires_grad):
        return _EigenPow.apply(x, y)
    return eigen_pow_float32(x, y)
