"""Op rows: linear algebra (inverses, solves, decompositions, determinants, exponentials)
and Fourier transforms."""

import numpy as np

from tests.golden.op_harness import Const, err, f32, f64, rand, row

# Well-conditioned matrices (identity plus small noise) keep the gradients comparable.
_A = (np.eye(3) * 2 + rand((3, 3), "float64", -0.5, 0.5, seed=1)).astype(np.float32)
_A64 = np.eye(3) * 2 + rand((3, 3), "float64", -0.5, 0.5, seed=2)
_BATCH = (np.eye(3) * 2 + rand((2, 3, 3), "float64", -0.5, 0.5, seed=3)).astype(np.float32)
_SPD = (_A @ _A.T + np.eye(3, dtype=np.float32)).astype(np.float32)
_SYM = ((_A + _A.T) / 2).astype(np.float32)
_LOWER = np.tril(_A).astype(np.float32)
_RHS = f32(3, 2, seed=4)

ROWS = [
    row("MatrixInverse", input=_A),
    row("MatrixInverse", input=_BATCH, adjoint=True),
    row("MatrixInverse", input=_A64),
    err("MatrixInverse", input=f32(2, 3)),
    err("MatrixInverse", input=np.zeros((2, 2), np.float32)),
    row("MatrixDeterminant", input=_A),
    row("MatrixDeterminant", input=_BATCH),
    row("LogMatrixDeterminant", input=_A),
    row("LogMatrixDeterminant", input=_A64 * -1),
    row("MatrixSolve", matrix=_A, rhs=_RHS),
    row("MatrixSolve", matrix=_BATCH, rhs=f32(2, 3, 1, seed=5), adjoint=True),
    err("MatrixSolve", matrix=_A, rhs=f32(2, 2)),
    row("MatrixTriangularSolve", matrix=_LOWER, rhs=_RHS),
    row("MatrixTriangularSolve", matrix=np.triu(_A).astype(np.float32), rhs=_RHS,
        lower=False),
    row("MatrixTriangularSolve", matrix=_LOWER, rhs=_RHS, adjoint=True),
    row("MatrixSolveLs", matrix=f32(4, 3, seed=6), rhs=f32(4, 2, seed=7),
        l2_regularizer=np.float64(0.0), rtol=1e-4, atol=1e-5, grad_rtol=1e-3, grad_atol=1e-4),
    row("MatrixSolveLs", matrix=f64(4, 3, seed=6), rhs=f64(4, 1, seed=7),
        l2_regularizer=np.float64(0.5), fast=True),
    row("Cholesky", input=_SPD, rtol=1e-4, atol=1e-5, grad_rtol=1e-3, grad_atol=1e-4),
    row("Cholesky", input=(_A64 @ _A64.T + np.eye(3))),
    # Decompositions: the signs of eigen- and singular vectors (and of Q's columns) are
    # the library's choice, so those rows compare absolute values.
    # Without vectors TF leaves v (and u) uninitialized: only the values are compared.
    row("SelfAdjointEigV2", input=_SYM, compute_v=False, rtol=1e-4, atol=1e-5,
        checked_outputs=(0,)),
    row("SelfAdjointEigV2", input=Const(_SYM), compute_v=True, check="abs", rtol=1e-4,
        atol=1e-5),
    row("Svd", input=f32(3, 2), compute_uv=False, rtol=1e-4, atol=1e-5, checked_outputs=(0,)),
    row("Svd", input=Const(f32(4, 3)), compute_uv=True, full_matrices=True, check="abs",
        rtol=1e-4, atol=1e-5),
    row("Svd", input=Const(f32(2, 4, 3)), compute_uv=True, check="abs", rtol=1e-4,
        atol=1e-5),
    row("Qr", input=Const(f32(4, 3)), check="abs", rtol=1e-4, atol=1e-5),
    row("Qr", input=Const(f32(3, 4)), full_matrices=True, check="abs", rtol=1e-4, atol=1e-5),
]

# -- Fourier transforms ---------------------------------------------------------------------

_C = rand((2, 8), "complex64", seed=1)
ROWS += [
    row("FFT", input=_C, rtol=1e-4, atol=1e-5),
    row("IFFT", input=_C, rtol=1e-4, atol=1e-5),
    row("FFT2D", input=rand((2, 4, 4), "complex64", seed=2), rtol=1e-4, atol=1e-5),
    row("IFFT2D", input=rand((4, 4), "complex128", seed=2)),
    row("FFT3D", input=rand((2, 2, 4), "complex64", seed=3), rtol=1e-4, atol=1e-5),
    row("IFFT3D", input=rand((2, 2, 4), "complex64", seed=3), rtol=1e-4, atol=1e-5),
    row("RFFT", input=f32(2, 8), fft_length=np.array([8], np.int32), rtol=1e-4, atol=1e-5),
    row("RFFT", input=f32(6), fft_length=np.array([4], np.int32), rtol=1e-4, atol=1e-5),
    err("RFFT", input=f32(5), fft_length=np.array([8], np.int32)),
    row("RFFT2D", input=f32(4, 6), fft_length=np.array([4, 6], np.int32), rtol=1e-4,
        atol=1e-5),
    row("RFFT3D", input=f32(2, 4, 4), fft_length=np.array([2, 4, 4], np.int32), rtol=1e-4,
        atol=1e-5),
    row("IRFFT", input=rand((2, 5), "complex64", seed=4), fft_length=np.array([8], np.int32),
        rtol=1e-4, atol=1e-5),
    row("IRFFT2D", input=rand((4, 3), "complex64", seed=5),
        fft_length=np.array([4, 4], np.int32), rtol=1e-4, atol=1e-5),
    row("IRFFT3D", input=rand((2, 2, 3), "complex64", seed=6),
        fft_length=np.array([2, 2, 4], np.int32), rtol=1e-4, atol=1e-5),
    row("RFFT", input=f64(8), fft_length=np.array([8], np.int32), Tcomplex="complex128"),
    err("FFT", input=f32(8)),
]
