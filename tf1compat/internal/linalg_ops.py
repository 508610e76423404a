"""`tensorflow.python.ops.linalg_ops`."""

# ruff: noqa: F401, F403
from tf1compat.linalg import *
from tf1compat.ops.linalg_decomp import (cholesky_solve, matrix_solve_ls, norm,
                                         self_adjoint_eig, self_adjoint_eigvals, svd)
from tf1compat.ops.matrix_ops import (cholesky, eye, matrix_determinant, matrix_inverse,
                                      matrix_solve, matrix_triangular_solve, qr)
