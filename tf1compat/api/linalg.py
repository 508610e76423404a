"""`tf.linalg`."""

# ruff: noqa: F401
from tf1compat.ops.matrix_ops import (cholesky, eye, matrix_band_part as band_part,
                                      matrix_determinant as det, matrix_diag as diag,
                                      matrix_diag_part as diag_part, matrix_inverse as inv,
                                      matrix_set_diag as set_diag, matrix_solve as solve,
                                      matrix_transpose as transpose, matrix_transpose,
                                      matrix_triangular_solve as triangular_solve, qr, trace)
from tf1compat.ops.matrix_ops import diag_part as tensor_diag_part
from tf1compat.ops.linalg_ops import einsum, matmul, tensordot
# (section: mathsparse)
from tf1compat.ops.linalg_decomp import (adjoint, cholesky_solve, cross, expm, logdet, norm,
                                         self_adjoint_eig as eigh,
                                         self_adjoint_eigvals as eigvalsh, slogdet, svd)
from tf1compat.ops.linalg_decomp import matrix_solve_ls as lstsq
from tf1compat.ops.nn_norm import l2_normalize

# (section: api-math)
from tf1compat.ops.manip_ops import diag as tensor_diag


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('linalg', globals())
