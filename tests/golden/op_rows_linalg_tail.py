"""Op rows: Lu, matrix square root and logarithm, tridiagonal products and solves."""

import numpy as np

from tests.golden.op_harness import err, f32, f64, row

_A = (f64(3, 3) + 4 * np.eye(3)).astype(np.float64)
_SPD = (_A @ _A.T).astype(np.float64)

ROWS = [
    row("Lu", input=_A),
    row("Lu", input=np.stack([_A, _A.T]).astype(np.float32), output_idx_type="int64",
        with_grad=False, rtol=1e-4, atol=1e-5),
    err("Lu", input=f64(2, 3)),
    # Values only: tf1compat's gradient of sqrtm differs from TF's (Sylvester equation).
    row("MatrixSquareRoot", input=_SPD, rtol=1e-4, atol=1e-5, with_grad=False),
    row("MatrixLogarithm", input=_SPD.astype(np.complex128), rtol=1e-4, atol=1e-5),
    row("TridiagonalMatMul", superdiag=f32(1, 4), maindiag=f32(1, 4, seed=1),
        subdiag=f32(1, 4, seed=2), rhs=f32(4, 2, seed=3), rtol=1e-4, atol=1e-5),
    row("TridiagonalSolve", diagonals=np.stack([f64(4), f64(4, seed=1) + 5, f64(4, seed=2)]),
        rhs=f64(4, 2, seed=3)),
    row("TridiagonalSolve", diagonals=np.stack([f32(4), f32(4, seed=1) + 5,
                                                f32(4, seed=2)]),
        rhs=f32(4, 1, seed=3), partial_pivoting=False, rtol=1e-4, atol=1e-5),
    err("TridiagonalSolve", diagonals=f64(2, 4), rhs=f64(4, 1)),
]
