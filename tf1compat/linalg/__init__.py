"""`tf.linalg`: matrix ops (tf1compat/ops/matrix_ops.py, linalg_decomp.py, linalg_extra.py)
and the LinearOperator classes of this package."""

# ruff: noqa: F401
from tf1compat.ops.matrix_ops import (cholesky, eye, matrix_band_part as band_part,
                                      matrix_determinant as det, matrix_diag as diag,
                                      matrix_diag_part as diag_part, matrix_inverse as inv,
                                      matrix_set_diag as set_diag, matrix_solve as solve,
                                      matrix_transpose as transpose, matrix_transpose,
                                      matrix_triangular_solve as triangular_solve, qr, trace)
from tf1compat.ops.matrix_ops import diag_part as tensor_diag_part
from tf1compat.ops.linalg_ops import einsum, matmul, tensordot
from tf1compat.ops.linalg_decomp import (adjoint, cholesky_solve, cross, expm, logdet, norm,
                                         self_adjoint_eig as eigh,
                                         self_adjoint_eigvals as eigvalsh, slogdet, svd)
from tf1compat.ops.linalg_decomp import matrix_solve_ls as lstsq
from tf1compat.ops.nn_norm import l2_normalize
from tf1compat.ops.clip_ops import global_norm
from tf1compat.ops.linalg_extra import (eigh_tridiagonal, logm, lu, lu_matrix_inverse,
                                        lu_reconstruct, lu_solve, matrix_rank, matvec,
                                        normalize, pinv, tridiagonal_matmul, tridiagonal_solve)
from tf1compat.ops.linalg_extra import matrix_square_root as sqrtm
from tf1compat.ops.manip_ops import diag as tensor_diag
from tf1compat.linalg.linear_operator import (LinearOperator, LinearOperatorDiag,
                                              LinearOperatorFullMatrix)
from tf1compat.linalg.linear_operator_banded import (LinearOperatorCirculant,
                                                     LinearOperatorCirculant2D,
                                                     LinearOperatorCirculant3D,
                                                     LinearOperatorToeplitz,
                                                     LinearOperatorTridiag)
from tf1compat.linalg.linear_operator_identity import (LinearOperatorIdentity,
                                                       LinearOperatorScaledIdentity,
                                                       LinearOperatorZeros)
from tf1compat.linalg.linear_operator_structured import (
    LinearOperatorAdjoint, LinearOperatorBlockDiag, LinearOperatorBlockLowerTriangular,
    LinearOperatorComposition, LinearOperatorHouseholder, LinearOperatorInversion,
    LinearOperatorKronecker, LinearOperatorLowerTriangular, LinearOperatorLowRankUpdate,
    LinearOperatorPermutation)
from tf1compat.linalg import experimental
from tf1compat.framework.missing import attribute_hook as _attribute_hook

__getattr__ = _attribute_hook("linalg", globals())
