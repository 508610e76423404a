"""Op rows: the special functions (Bessel, incomplete gamma/beta, zeta, polygamma, erfinv,
ndtri, Dawson, Fresnel, Spence, expint) and the math tail (Complex/Angle, Xlog1py,
NextAfter, CumulativeLogsumexp, EuclideanNorm, ApproxTopK)."""

import numpy as np

from tests.golden.op_harness import err, f32, f64, pos, rand, row

_X = f32(3, 4)
_P = pos(3, 4)
_UNIT = rand((3, 4), "float32", -0.9, 0.9)
_PROB = rand((3, 4), "float32", 0.05, 0.95)

ROWS = [
    *[row(op, x=_X, rtol=1e-4, atol=1e-5) for op in (
        "BesselI0", "BesselI0e", "BesselI1", "BesselI1e", "BesselJ0", "BesselJ1", "Dawsn",
        "FresnelCos", "FresnelSin")],
    *[row(op, x=_P, rtol=1e-4, atol=1e-5) for op in (
        "BesselK0", "BesselK0e", "BesselK1", "BesselK1e", "BesselY0", "BesselY1", "Expint",
        "Spence")],
    row("BesselI0e", x=f64(5, seed=3)),
    row("BesselJ0", x=f64(5, seed=3)),
    row("Erfinv", x=_UNIT, rtol=1e-4, atol=1e-5),
    row("Ndtri", x=_PROB, rtol=1e-4, atol=1e-5),
    row("Ndtri", x=np.array([0.0, 1.0, 0.5], np.float64)),
    row("Betainc", a=_P, b=pos(3, 4, seed=1), x=_PROB, rtol=1e-4, atol=1e-5),
    err("Betainc", a=_P, b=pos(2, 4, seed=1), x=_PROB),
    row("Igamma", a=_P, x=pos(3, 4, seed=2), rtol=1e-4, atol=1e-5),
    row("Igammac", a=_P, x=pos(3, 4, seed=2), rtol=1e-4, atol=1e-5),
    row("Igamma", a=pos(2, 3, dtype="float64"), x=pos(3, dtype="float64", seed=2)),
    row("IgammaGradA", a=_P, x=pos(3, 4, seed=2), rtol=1e-3, atol=1e-4),
    # Values only: TF differentiates Zeta in q and Polygamma in x (None for the other
    # input); tf1compat has no derivative for either yet.
    row("Zeta", x=rand((3, 4), "float32", 1.5, 4.0), q=_P, rtol=1e-4, atol=1e-5,
        with_grad=False),
    row("Polygamma", a=np.array([[0.0], [1.0], [2.0]], np.float32), x=_P, rtol=1e-4,
        atol=1e-4, with_grad=False),
    row("Xlog1py", x=_X, y=_P, rtol=1e-4, atol=1e-5),
    # Values only: at x = 0, y = -1 TF's gradient is 0, tf1compat's NaN.
    row("Xlog1py", x=np.array([0.0, 0.0, 2.0], np.float64),
        y=np.array([-1.0, 3.0, 0.5], np.float64), with_grad=False),
    row("NextAfter", x1=_X, x2=f32(3, 4, seed=1)),
    row("NextAfter", x1=f64(4), x2=np.float64(0.0)),
    row("Complex", real=_X, imag=f32(3, 4, seed=1)),
    row("Complex", real=f64(3), imag=f64(3, seed=1), Tout="complex128"),
    row("Angle", input=rand((3, 4), "complex64")),
    row("Angle", input=rand((4,), "complex128"), Tout="float64"),
    row("CumulativeLogsumexp", x=_X, axis=np.int32(1), rtol=1e-4, atol=1e-5),
    row("CumulativeLogsumexp", x=f64(3, 4), axis=np.int32(0), exclusive=True, reverse=True),
    err("CumulativeLogsumexp", x=_X, axis=np.int32(2)),
    row("EuclideanNorm", input=_X, axis=np.int32(1)),
    row("EuclideanNorm", input=f64(2, 3, 4), axis=np.array([0, 2], np.int32), keep_dims=True),
    row("EuclideanNorm", input=rand((2, 3), "complex64"), axis=np.int32(0), with_grad=False),
    row("EuclideanNorm", input=np.array([[3, 4], [5, 12]], np.int32), axis=np.int32(1)),
    # TF's CPU kernel covers is_max_k=True over the last dimension only.
    row("ApproxTopK", input=_X, k=2, with_grad=False),
    err("ApproxTopK", input=_X, k=2, is_max_k=False),
    err("ApproxTopK", input=_X, k=1, reduction_dimension=0),
]
