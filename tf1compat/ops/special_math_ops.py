"""Special functions: incomplete gamma/beta (Igamma, Igammac, IgammaGradA, Betainc),
Zeta, Polygamma, the Bessel family, Erfinv, Ndtri, Dawsn, Expint, Fresnel integrals,
Spence; `tf.lbeta`, `tf.math.erfcinv` and `tf.math.special.*`.

Kernels use torch.special where it has the function and `_special_kernels` otherwise.
Half-precision inputs are computed in float32 and rounded back, as TF's Eigen kernels
promote them. Gradients: autograd where torch's derivative is TF's; Igamma/Igammac
differentiate in `a` through IgammaGradA (torch has no derivative in `a`), Betainc in `x`
only (TF returns None for `a` and `b`).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Optional

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.grad_names import names
from tf1compat.ops import _special_kernels as K
from tf1compat.ops._grad_formulas import polygamma_formula, zeta_formula
from tf1compat.ops._shape_rules import broadcast_rule, broadcast_shapes, unary_rule

__all__ = ["igamma", "igammac", "zeta", "polygamma", "betainc", "lbeta", "erfinv", "ndtri",
           "erfcinv", "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0",
           "bessel_j1", "bessel_y0", "bessel_y1", "bessel_k0", "bessel_k0e", "bessel_k1",
           "bessel_k1e", "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence"]

HALF_FLOAT = (D.bfloat16, D.float16, D.float32, D.float64)
FLOAT = (D.float32, D.float64)


def _promoted(fn: Callable[..., torch.Tensor], wide: bool = False) -> Callable[..., torch.Tensor]:
    """Runs `fn` in float32 for half types (float64 throughout when `wide`), casting the
    result back to the input dtype."""
    def run(*xs: torch.Tensor) -> torch.Tensor:
        dtype = xs[0].dtype
        work = torch.float64 if wide else (
            torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype)
        out = fn(*(x.to(work) for x in xs))
        return out.to(dtype)
    return run


def _declare_unary(op_type: str, fn: Callable[..., torch.Tensor], wide: bool = False,
                   grad: str = "autograd") -> None:
    kernel = _promoted(fn, wide)
    declare(op_type, inputs=["x: T"], outputs=["y: T"], attrs={"T": Type(HALF_FLOAT)},
            shape=unary_rule, kernel=lambda node, kctx: kernel, grad=grad)


# -- elementwise unary special functions ---------------------------------------------------

def _outside_domain(fn: Callable[..., torch.Tensor], value: float
                    ) -> Callable[..., torch.Tensor]:
    """`fn` for x >= 0 and `value` for x < 0 (the K and Y Bessel functions, as TF)."""
    return lambda x: torch.where(x < 0, torch.full_like(x, value), fn(x))


_UNARY = {
    "BesselI0": torch.special.i0, "BesselI0e": torch.special.i0e,
    "BesselI1": torch.special.i1, "BesselI1e": torch.special.i1e,
    "Erfinv": torch.special.erfinv, "Ndtri": torch.special.ndtri,
}
for _type, _fn in _UNARY.items():
    _declare_unary(_type, _fn)


class _ClosedFormDerivative(torch.autograd.Function):
    """f(x) computed by `value`, with derivative `slope(x, f(x))`."""

    @staticmethod
    def forward(ctx, x, value, slope):  # type: ignore[override]
        y = value(x)
        ctx.save_for_backward(x, y)
        ctx.slope = slope
        return y

    @staticmethod
    def backward(ctx, grad):  # type: ignore[override]
        x, y = ctx.saved_tensors
        return grad * ctx.slope(x, y), None, None


def _with_slope(value: Callable[..., torch.Tensor], slope: Callable[..., torch.Tensor]
                ) -> Callable[..., torch.Tensor]:
    return lambda x: _ClosedFormDerivative.apply(x, value, slope)


# Functions computed by series in float64: their derivatives are TF's closed forms.
def _spence_slope(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return torch.where(x == 1.0, -torch.ones_like(x), torch.log(x) / (1.0 - x))


_declare_unary("Spence", _with_slope(K.spence, _spence_slope), wide=True)
_declare_unary("Dawsn", _with_slope(K.dawsn, lambda x, y: 1.0 - 2.0 * x * y), wide=True)
_declare_unary("Expint", _with_slope(K.expint, lambda x, y: torch.exp(x) / x), wide=True)
_declare_unary("FresnelCos", _with_slope(lambda x: K.fresnel(x)[0],
                                         lambda x, y: torch.cos(0.5 * torch.pi * x * x)),
               wide=True)
_declare_unary("FresnelSin", _with_slope(lambda x: K.fresnel(x)[1],
                                         lambda x, y: torch.sin(0.5 * torch.pi * x * x)),
               wide=True)

# torch has no derivatives for these Bessel functions: TF's closed forms (y = f(x)).
_J0, _J1 = torch.special.bessel_j0, torch.special.bessel_j1
_Y0, _Y1 = torch.special.bessel_y0, torch.special.bessel_y1
_K0, _K1 = torch.special.modified_bessel_k0, torch.special.modified_bessel_k1
_K0E, _K1E = (torch.special.scaled_modified_bessel_k0,
              torch.special.scaled_modified_bessel_k1)
_BESSEL = {
    "BesselJ0": (_J0, lambda x, y: -_J1(x)),
    "BesselJ1": (_J1, lambda x, y: torch.where(x == 0, torch.full_like(x, 0.5),
                                               _J0(x) - y / x)),
    "BesselY0": (_outside_domain(_Y0, -math.inf), lambda x, y: -_Y1(x)),
    "BesselY1": (_outside_domain(_Y1, -math.inf), lambda x, y: _Y0(x) - y / x),
    "BesselK0": (_outside_domain(_K0, math.inf), lambda x, y: -_K1(x)),
    "BesselK1": (_outside_domain(_K1, math.inf), lambda x, y: -_K0(x) - y / x),
    "BesselK0e": (_outside_domain(_K0E, math.inf), lambda x, y: y - _K1E(x)),
    "BesselK1e": (_outside_domain(_K1E, math.inf),
                  lambda x, y: y * (1.0 - 1.0 / x) - _K0E(x)),
}
for _type, (_value, _slope) in _BESSEL.items():
    _declare_unary(_type, _with_slope(_value, _slope))


# -- incomplete gamma, zeta, polygamma, betainc --------------------------------------------

class _Igamma(torch.autograd.Function):
    """P(a, x) or Q(a, x) with TF's gradients: d/dx analytic, d/da by IgammaGradA."""

    @staticmethod
    def forward(ctx, a, x, upper):  # type: ignore[override]
        ctx.save_for_backward(a, x)
        ctx.upper = upper
        fn = torch.special.gammaincc if upper else torch.special.gammainc
        return torch.where(a <= 0, torch.full_like(a, math.nan), fn(a, x))

    @staticmethod
    def backward(ctx, grad):  # type: ignore[override]
        a, x = ctx.saved_tensors
        sign = -1.0 if ctx.upper else 1.0
        dx = sign * torch.exp(-x + (a - 1.0) * torch.log(x) - torch.lgamma(a))
        da = sign * K.igamma_grad_a(a.double(), x.double()).to(a.dtype)
        return (K._sum_to(grad * da, a.shape), K._sum_to(grad * dx, x.shape), None)


def _igamma_kernel(upper: bool) -> Callable[[Any, Any], Callable[..., Any]]:
    run = _promoted(lambda a, x: _Igamma.apply(*torch.broadcast_tensors(a, x), upper))
    return lambda node, kctx: run


for _type, _upper in (("Igamma", False), ("Igammac", True)):
    declare(_type, inputs=["a: T", "x: T"], outputs=["z: T"], attrs={"T": Type(HALF_FLOAT)},
            shape=broadcast_rule, kernel=_igamma_kernel(_upper))

declare("IgammaGradA", inputs=["a: T", "x: T"], outputs=["z: T"], attrs={"T": Type(FLOAT)},
        shape=broadcast_rule, grad="unregistered",
        kernel=lambda node, kctx: _promoted(K.igamma_grad_a, wide=True))
# TF's gradients: with respect to q (zeta) and x (polygamma) only.
declare("Zeta", inputs=["x: T", "q: T"], outputs=["z: T"], attrs={"T": Type(FLOAT)},
        shape=broadcast_rule, kernel=lambda node, kctx: torch.special.zeta,
        grad_none_inputs=(0,), grad_formula=zeta_formula, grad_names=names(None, "Reshape"))
declare("Polygamma", inputs=["a: T", "x: T"], outputs=["z: T"], attrs={"T": Type(FLOAT)},
        shape=broadcast_rule, kernel=lambda node, kctx: K.polygamma,
        grad_none_inputs=(0,), grad_formula=polygamma_formula,
        grad_names=names(None, "Reshape"))


def _betainc_shape(ctx: Any) -> list:
    out = broadcast_shapes(ctx.shape(0), ctx.shape(1), ctx)
    for i in (0, 1, 2):
        s = ctx.shape(i)
        if s.rank not in (0, None) and out.rank not in (0, None) and \
                not s.is_compatible_with(out):
            raise ValueError(f"Shapes of a, b and x are inconsistent: {ctx.shape(0)} vs. "
                             f"{ctx.shape(1)} vs. {ctx.shape(2)}")
    return [broadcast_shapes(out, ctx.shape(2), ctx)]


declare("Betainc", inputs=["a: T", "b: T", "x: T"], outputs=["z: T"],
        attrs={"T": Type(FLOAT)}, shape=_betainc_shape,
        kernel=lambda node, kctx: _promoted(K.betainc, wide=True), grad_none_inputs=(0, 1))


# -- tf.* wrappers ----------------------------------------------------------------------------

def _binary(op_type: str, public: str) -> Callable[..., Tensor]:
    def fn(a: Any, x: Any, name: Optional[str] = None) -> Tensor:
        return apply_op1(op_type, [a, x], name=name)
    fn.__name__ = public
    fn.__doc__ = f"`tf.{public}` ({op_type}, elementwise with broadcasting)."
    return fn


igamma = _binary("Igamma", "igamma")
igammac = _binary("Igammac", "igammac")
polygamma = _binary("Polygamma", "polygamma")


def zeta(x: Any, q: Any, name: Optional[str] = None) -> Tensor:
    """`tf.zeta`: the Hurwitz zeta function sum_n (n + q)^-x."""
    return apply_op1("Zeta", [x, q], name=name)


def betainc(a: Any, b: Any, x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.betainc`: the regularized incomplete beta function I_x(a, b)."""
    return apply_op1("Betainc", [a, b, x], name=name)


def _scoped_unary(op_type: str, scope_name: str) -> Callable[..., Tensor]:
    def fn(x: Any, name: Optional[str] = None) -> Tensor:
        with name_scope(name, scope_name, [x]):
            return apply_op1(op_type, [x])
    fn.__name__ = scope_name
    fn.__doc__ = f"`tf.math.{scope_name}` ({op_type} inside a `{scope_name}` name scope)."
    return fn


erfinv = _scoped_unary("Erfinv", "erfinv")
ndtri = _scoped_unary("Ndtri", "ndtri")
bessel_i0 = _scoped_unary("BesselI0", "bessel_i0")
bessel_i0e = _scoped_unary("BesselI0e", "bessel_i0e")
bessel_i1 = _scoped_unary("BesselI1", "bessel_i1")
bessel_i1e = _scoped_unary("BesselI1e", "bessel_i1e")
bessel_j0 = _scoped_unary("BesselJ0", "bessel_j0")
bessel_j1 = _scoped_unary("BesselJ1", "bessel_j1")
bessel_y0 = _scoped_unary("BesselY0", "bessel_y0")
bessel_y1 = _scoped_unary("BesselY1", "bessel_y1")
bessel_k0 = _scoped_unary("BesselK0", "bessel_k0")
bessel_k0e = _scoped_unary("BesselK0e", "bessel_k0e")
bessel_k1 = _scoped_unary("BesselK1", "bessel_k1")
bessel_k1e = _scoped_unary("BesselK1e", "bessel_k1e")
dawsn = _scoped_unary("Dawsn", "dawsn")
expint = _scoped_unary("Expint", "expint")
fresnel_cos = _scoped_unary("FresnelCos", "fresnel_cos")
fresnel_sin = _scoped_unary("FresnelSin", "fresnel_sin")
spence = _scoped_unary("Spence", "spence")


def erfcinv(x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.math.erfcinv`: -ndtri(x / 2) / sqrt(2), TF's graph."""
    with name_scope(name, "erfcinv", [x]):
        x = convert_to_tensor(x, name="start")
        return -ndtri(0.5 * x) * 0.7071067811865476


def lbeta(x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.lbeta`: log |Beta(x)| over the last axis, sum(lgamma(x)) - lgamma(sum(x))."""
    from tf1compat.ops.math_ops import lgamma
    from tf1compat.ops.reduction_ops import reduce_sum
    with name_scope(name, "lbeta", [x]):
        x = convert_to_tensor(x, name="x")
        log_prod_gamma_x = reduce_sum(lgamma(x), axis=[-1])
        sum_x = reduce_sum(x, axis=[-1])
        log_gamma_sum_x = lgamma(sum_x)
        return log_prod_gamma_x - log_gamma_sum_x


