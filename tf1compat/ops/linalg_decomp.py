"""Matrix decompositions and the linear-algebra wrappers built on them: Svd,
SelfAdjointEigV2, LogMatrixDeterminant, Cross, MatrixSolveLs, MatrixExponential;
`tf.svd`, `tf.self_adjoint_eig(vals)`, `tf.linalg.slogdet/logdet`, `tf.cholesky_solve`,
`tf.matrix_solve_ls` (`tf.linalg.lstsq`), `tf.norm`, `tf.cross`, `tf.linalg.expm`,
`tf.linalg.adjoint`.

Gradients come from torch autograd through the kernels (torch differentiates SVD and
eigh like TF's gradient functions for distinct singular values / eigenvalues).
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops.math_ops import FLOAT_COMPLEX

__all__ = ["svd", "self_adjoint_eig", "self_adjoint_eigvals", "slogdet", "logdet",
           "cholesky_solve", "matrix_solve_ls", "norm", "cross", "expm", "adjoint"]

_DECOMP_TYPES = (D.float64, D.float32, D.float16, D.complex64, D.complex128)


def _matrix_dims(ctx: Any, square: bool = False) -> Optional[list]:
    """The input's dims (None for unknown rank) after TF's rank >= 2 / square checks."""
    s = ctx.shape(0)
    if s.rank is None:
        return None
    if s.rank < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {s.rank} "
                         f"{node_desc(ctx)}")
    dims = s.as_list()
    if square and dims[-1] is not None and dims[-2] is not None and dims[-1] != dims[-2]:
        raise ValueError(f"Dimensions must be equal, but are {dims[-2]} and {dims[-1]} "
                         f"{node_desc(ctx)}")
    return dims


def _on_float(fn: Callable[..., Any]) -> Callable[..., Any]:
    """LAPACK has no half precision: compute in float32 and cast the results back."""
    def run(x: torch.Tensor) -> Any:
        if x.dtype not in (torch.float16, torch.bfloat16):
            return fn(x)
        out = fn(x.float())
        if isinstance(out, tuple):
            return tuple(o.to(x.dtype) for o in out)
        return out.to(x.dtype)
    return run


# -- Svd ----------------------------------------------------------------------------------

def _svd_shape(ctx: Any) -> List[TensorShape]:
    dims = _matrix_dims(ctx)
    if dims is None:
        return [unknown_shape()] * 3
    *batch, m, n = dims
    p = None if m is None or n is None else min(m, n)
    s = TensorShape(batch + [p])
    if not ctx.attrs["compute_uv"]:
        return [s, TensorShape([0]), TensorShape([0])]
    if ctx.attrs["full_matrices"]:
        return [s, TensorShape(batch + [m, m]), TensorShape(batch + [n, n])]
    return [s, TensorShape(batch + [m, p]), TensorShape(batch + [n, p])]


def _svd_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    compute_uv, full = node.attrs["compute_uv"], node.attrs["full_matrices"]

    def svd_kernel(x: torch.Tensor) -> tuple:
        if not compute_uv:
            s = torch.linalg.svdvals(x).to(x.dtype)
            empty = torch.zeros((0,), dtype=x.dtype, device=x.device)
            return s, empty, empty
        u, s, vh = torch.linalg.svd(x, full_matrices=full)
        return s.to(x.dtype), u, vh.mH           # TF returns v itself, not its adjoint
    return _on_float(svd_kernel)


declare("Svd", inputs=["input: T"], outputs=["s: T", "u: T", "v: T"],
        attrs={"compute_uv": True, "full_matrices": False, "T": Type(_DECOMP_TYPES)},
        shape=_svd_shape, kernel=_svd_kernel)


def svd(tensor: Any, full_matrices: bool = False, compute_uv: bool = True,
        name: Optional[str] = None) -> Any:
    """`tf.svd` / `tf.linalg.svd`: (s, u, v) with a = u diag(s) v^H, or s alone."""
    op = apply_op("Svd", [tensor], {"compute_uv": compute_uv,
                                    "full_matrices": full_matrices}, name=name)
    s, u, v = op.outputs
    # The op's s has the input's dtype; TF's wrapper takes its real part (a no-op, and
    # no op, for real inputs).
    from tf1compat.ops.math_extra import real
    s = real(s)
    if compute_uv:
        return s, u, v
    return s


# -- SelfAdjointEigV2 ------------------------------------------------------------------

def _eig_shape(ctx: Any) -> List[TensorShape]:
    dims = _matrix_dims(ctx, square=True)
    if dims is None:
        return [unknown_shape(), unknown_shape()]
    *batch, m, n = dims
    k = m if m is not None else n
    e = TensorShape(batch + [k])
    if ctx.attrs["compute_v"]:
        return [e, TensorShape(batch + [k, k])]
    return [e, TensorShape([0])]


def _eig_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    compute_v = node.attrs["compute_v"]

    def eig_kernel(x: torch.Tensor) -> tuple:
        # TF reads the lower triangle only; rebuilding the matrix from it also gives TF's
        # gradient (lower-triangular, off-diagonal entries counted twice).
        x = torch.tril(x) + torch.tril(x, -1).mH
        if not compute_v:
            e = torch.linalg.eigvalsh(x)
            return e.to(x.dtype), torch.zeros((0,), dtype=x.dtype, device=x.device)
        e, v = torch.linalg.eigh(x)
        return e.to(x.dtype), v
    return _on_float(eig_kernel)


declare("SelfAdjointEigV2", inputs=["input: T"], outputs=["e: T", "v: T"],
        attrs={"compute_v": True, "T": Type(_DECOMP_TYPES)},
        shape=_eig_shape, kernel=_eig_kernel)


def self_adjoint_eig(tensor: Any, name: Optional[str] = None) -> tuple:
    """`tf.self_adjoint_eig` / `tf.linalg.eigh`: (eigenvalues ascending, eigenvectors)."""
    e, v = apply_op("SelfAdjointEigV2", [tensor], {"compute_v": True}, name=name).outputs
    return e, v


def self_adjoint_eigvals(tensor: Any, name: Optional[str] = None) -> Tensor:
    """`tf.self_adjoint_eigvals` / `tf.linalg.eigvalsh`."""
    return apply_op("SelfAdjointEigV2", [tensor], {"compute_v": False},
                    name=name).outputs[0]


# -- determinants ---------------------------------------------------------------------------

def _slogdet_shape(ctx: Any) -> List[TensorShape]:
    dims = _matrix_dims(ctx, square=True)
    if dims is None:
        return [unknown_shape(), unknown_shape()]
    return [TensorShape(dims[:-2])] * 2


def _slogdet_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def slogdet_kernel(x: torch.Tensor) -> tuple:
        sign, logabs = torch.linalg.slogdet(x)
        return sign, logabs.to(x.dtype)
    return _on_float(slogdet_kernel)


declare("LogMatrixDeterminant", inputs=["input: T"],
        outputs=["sign: T", "log_abs_determinant: T"],
        attrs={"T": Type((D.float16, D.float32, D.float64, D.complex64, D.complex128))},
        shape=_slogdet_shape, kernel=_slogdet_kernel)


class _SlogdetResult(tuple):
    """TF's LogMatrixDeterminant namedtuple (sign, log_abs_determinant)."""

    __slots__ = ()

    def __new__(cls, sign: Tensor, log_abs_determinant: Tensor) -> "_SlogdetResult":
        return tuple.__new__(cls, (sign, log_abs_determinant))

    sign = property(lambda self: self[0])
    log_abs_determinant = property(lambda self: self[1])

    def __repr__(self) -> str:
        return f"LogMatrixDeterminant(sign={self[0]!r}, log_abs_determinant={self[1]!r})"


def slogdet(input: Any, name: Optional[str] = None) -> tuple:  # noqa: A002 - TF's name
    """`tf.linalg.slogdet`: (sign, log|det|)."""
    sign, logabs = apply_op("LogMatrixDeterminant", [input], name=name).outputs
    return _SlogdetResult(sign, logabs)


def logdet(matrix: Any, name: Optional[str] = None) -> Tensor:
    """`tf.linalg.logdet` of a Hermitian positive definite matrix: 2 sum(log(diag(chol)))."""
    from tf1compat.ops.math_ops import log
    from tf1compat.ops.math_extra import real
    from tf1compat.ops.matrix_ops import cholesky, matrix_diag_part
    from tf1compat.ops.reduction_ops import reduce_sum
    with name_scope(name, "logdet", [matrix]):
        chol = cholesky(matrix)
        diag = matrix_diag_part(chol)
        if diag.dtype.is_complex:
            diag = real(diag)
        return 2.0 * reduce_sum(log(diag), axis=[-1])


def cholesky_solve(chol: Any, rhs: Any, name: Optional[str] = None) -> Tensor:
    """`tf.cholesky_solve`: solves A X = rhs given A's Cholesky factor (two triangular
    solves, as TF)."""
    from tf1compat.ops.matrix_ops import triangular_solve_op as matrix_triangular_solve
    with name_scope(name, "cholesky_solve", [chol, rhs]):
        y = matrix_triangular_solve(chol, rhs, adjoint=False, lower=True)
        return matrix_triangular_solve(chol, y, adjoint=True, lower=True)


# -- least squares ----------------------------------------------------------------------

def _solve_ls_shape(ctx: Any) -> List[TensorShape]:
    a, b = ctx.shape(0), ctx.shape(1)
    if a.rank is None or b.rank is None:
        return [unknown_shape()]
    return [TensorShape(a.as_list()[:-2] + [a.as_list()[-1], b.as_list()[-1]])]


def _solve_ls_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    fast = node.attrs["fast"]

    def solve_ls(a: torch.Tensor, b: torch.Tensor, l2: torch.Tensor) -> torch.Tensor:
        if fast:
            raise NotImplementedError("MatrixSolveLs with fast=True runs through TF's "
                                      "composite graph; the op itself is not implemented")
        # fast=False: the minimum-norm least-squares solution (TF uses a complete
        # orthogonal decomposition and ignores l2_regularizer).
        return torch.linalg.pinv(a) @ b
    return solve_ls


declare("MatrixSolveLs", inputs=["matrix: T", "rhs: T", "l2_regularizer: double"],
        outputs=["output: T"],
        attrs={"T": Type((D.float64, D.float32, D.float16, D.complex64, D.complex128)),
               "fast": True},
        shape=_solve_ls_shape, kernel=_solve_ls_kernel)


def _gramian_cholesky(matrix: Tensor, l2_regularizer: Any, first_kind: bool) -> Tensor:
    from tf1compat.ops.array_ops import shape
    from tf1compat.ops.linalg_ops import matmul
    from tf1compat.ops.matrix_ops import cholesky, eye
    gramian = matmul(matrix, matrix, adjoint_a=first_kind, adjoint_b=not first_kind)
    if isinstance(l2_regularizer, Tensor) or l2_regularizer != 0:
        matrix_shape = shape(matrix)
        small_dim = matrix_shape[-1] if first_kind else matrix_shape[-2]
        identity = eye(small_dim, batch_shape=matrix_shape[:-2], dtype=matrix.dtype)
        static = matrix.shape[-1 if first_kind else -2]
        identity.set_shape(matrix.shape[:-2].concatenate([static, static]))
        gramian += l2_regularizer * identity
    return cholesky(gramian)


def matrix_solve_ls(matrix: Any, rhs: Any, l2_regularizer: Any = 0.0, fast: bool = True,
                    name: Optional[str] = None) -> Tensor:
    """`tf.matrix_solve_ls` / `tf.linalg.lstsq`: TF's composite normal-equations solver
    (fast=True) or the minimum-norm solution (fast=False)."""
    from tf1compat.ops.linalg_ops import matmul

    def overdetermined(a: Tensor, b: Tensor) -> Tensor:
        chol = _gramian_cholesky(a, l2_regularizer, first_kind=True)
        return cholesky_solve(chol, matmul(a, b, adjoint_a=True))

    def underdetermined(a: Tensor, b: Tensor) -> Tensor:
        chol = _gramian_cholesky(a, l2_regularizer, first_kind=False)
        return matmul(a, cholesky_solve(chol, b), adjoint_a=True)

    matrix = convert_to_tensor(matrix, name="matrix")
    if matrix.dtype == D.complex128 and l2_regularizer != 0:
        raise NotImplementedError("matrix_solve_ls is currently disabled for complex128 "
                                  "and l2_regularizer != 0 due to poor accuracy.")
    shape = matrix.shape
    composite = fast
    if fast and shape.is_fully_defined():
        # TF's cache heuristic: big, I/O-bound batches go to the specialised kernel.
        size = shape.num_elements() * matrix.dtype.size
        dims = shape.as_list()
        batch = int(np.prod(dims[:-2])) if len(dims) > 2 else 1
        composite = not (size > 256000 and batch > min(dims[-2:]))
    if not composite:
        return apply_op1("MatrixSolveLs", [matrix, rhs, l2_regularizer], {"fast": fast},
                         name=name)
    with name_scope(name, "matrix_solve_ls", [matrix, rhs, l2_regularizer]):
        m, n = shape[-2:].as_list() if shape.rank is not None else (None, None)
        if m is not None and n is not None:
            if m >= n:
                return overdetermined(matrix, rhs)
            return underdetermined(matrix, rhs)
        from tf1compat.ops.array_ops import shape as shape_of
        from tf1compat.ops.cond import cond
        from tf1compat.ops.math_ops import greater_equal
        dims = shape_of(matrix)[-2:]
        return cond(greater_equal(dims[-2], dims[-1]),
                    lambda: overdetermined(matrix, rhs),
                    lambda: underdetermined(matrix, rhs))


# -- norms ----------------------------------------------------------------------------------

def norm(tensor: Any, ord: Any = "euclidean", axis: Any = None,  # noqa: A002 - TF's name
         keepdims: Any = None, name: Optional[str] = None, keep_dims: Any = None) -> Tensor:
    """`tf.norm` / `tf.linalg.norm`: vector p-norms and the Frobenius, 1, 2 and inf
    matrix norms, with TF's ops (the matrix 2-norm is the largest singular value)."""
    from tf1compat.ops.array_ops import squeeze
    from tf1compat.ops.math_ops import abs as abs_, conj, pow as pow_, sqrt
    from tf1compat.ops.reduction_ops import reduce_max, reduce_sum
    if keep_dims is not None:
        if keepdims is not None:
            raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'")
        keepdims = keep_dims
    keepdims = bool(keepdims)
    is_matrix_norm = isinstance(axis, (tuple, list)) and len(axis) == 2
    if is_matrix_norm:
        axis = tuple(axis)
        if not isinstance(axis[0], int) or not isinstance(axis[1], int) or \
                axis[0] == axis[1]:
            raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique "
                             f"integers, got {axis}")
        supported = ["euclidean", "fro", 1, 2, np.inf]
        if ord not in supported:
            raise ValueError(f"'ord' must be a supported matrix norm in {supported}, "
                             f"got {ord}")
    else:
        if not (isinstance(axis, int) or axis is None):
            raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique "
                             f"integers, got {axis}")
        supported = ["euclidean", 1, 2, np.inf]
        if (not np.isreal(ord) or ord <= 0) and ord not in supported:
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
        if axis is not None:
            axis = (axis,)
    with name_scope(name, "norm", [tensor]):
        tensor = convert_to_tensor(tensor)
        if ord in ["fro", "euclidean", 2, 2.0]:
            if is_matrix_norm and ord in [2, 2.0]:
                result = _matrix_two_norm(tensor, axis)
            else:
                result = sqrt(reduce_sum(tensor * conj(tensor), axis, keepdims=True))
        else:
            result = abs_(tensor)
            if ord == 1:
                result = reduce_sum(result, None if axis is None else axis[0], keepdims=True)
                if is_matrix_norm:
                    result = reduce_max(result, axis[-1], keepdims=True)
            elif ord == np.inf:
                if is_matrix_norm:
                    result = reduce_sum(result, axis[1], keepdims=True)
                result = reduce_max(result, None if axis is None else axis[0],
                                    keepdims=True)
            else:
                result = pow_(reduce_sum(pow_(result, ord), axis, keepdims=True), 1.0 / ord)
        if not keepdims:
            result = squeeze(result, axis)
        return result


def _matrix_two_norm(tensor: Tensor, axis: tuple) -> Tensor:
    """Largest singular value over `axis`, kept as two size-1 dims. TF builds this with
    map_fn over the axes; with a static rank the permutations are plain constants here."""
    from tf1compat.ops.array_ops import expand_dims
    from tf1compat.ops.math_ops import abs as abs_
    from tf1compat.ops.reduction_ops import reduce_max
    from tf1compat.ops.transform_ops import transpose
    rank = tensor.shape.rank
    if rank is None:
        raise NotImplementedError("tf.norm(ord=2) over a matrix of unknown rank")
    positive = [a % rank for a in axis]
    perm_before = [i for i in range(rank) if i not in positive] + positive
    perm_after = [perm_before.index(i) for i in range(rank)]
    permed = transpose(tensor, perm=perm_before)
    s = apply_op("Svd", [permed], {"compute_uv": False, "full_matrices": False}).outputs[0]
    two = expand_dims(reduce_max(abs_(s), axis=-1, keepdims=True), axis=-1)
    return transpose(two, perm=perm_after)


# -- cross, expm, adjoint -----------------------------------------------------------------

def _cross_shape(ctx: Any) -> List[TensorShape]:
    a, b = ctx.shape(0), ctx.shape(1)
    try:
        merged = a.merge_with(b)
    except ValueError:
        raise ValueError(f"Dimensions must be equal {node_desc(ctx)}") from None
    if merged.rank is not None:
        if merged.rank < 1:
            raise ValueError(f"Shape must be at least rank 1 but is rank 0 {node_desc(ctx)}")
        last = merged.as_list()[-1]
        if last is not None and last != 3:
            raise ValueError(f"Dimension must be 3 but is {last} {node_desc(ctx)}")
    return [merged]


declare("Cross", inputs=["a: T", "b: T"], outputs=["product: T"],
        attrs={"T": Type((D.float32, D.float64, D.int32, D.int64, D.uint8, D.int16,
                          D.int8, D.float16, D.bfloat16, D.uint16, D.uint32, D.uint64))},
        shape=_cross_shape,
        kernel=lambda node, kctx: (lambda a, b: torch.linalg.cross(a, b, dim=-1)))


def cross(a: Any, b: Any, name: Optional[str] = None) -> Tensor:
    """`tf.cross` / `tf.linalg.cross`: pairwise cross products of 3-vectors."""
    return apply_op1("Cross", [a, b], name=name)


def _square_shape(ctx: Any) -> List[TensorShape]:
    _matrix_dims(ctx, square=True)
    return [ctx.shape(0)]


declare("MatrixExponential", inputs=["input: T"], outputs=["output: T"],
        attrs={"T": Type(FLOAT_COMPLEX)}, shape=_square_shape,
        kernel=lambda node, kctx: _on_float(torch.linalg.matrix_exp))


def expm(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002 - TF's name
    """`tf.linalg.expm`. TF builds a Pade-approximant graph (scaling and squaring in a
    while loop); here it is one MatrixExponential op (torch's matrix_exp, also Pade with
    scaling and squaring) named `matrix_exponential`: values agree to rounding, the graph
    differs (see docs/ARCHITECTURE.md, deliberate differences)."""
    with name_scope(name, "matrix_exponential", [input]) as scope:
        return apply_op1("MatrixExponential", [input], name=scope)


def adjoint(matrix: Any, name: str = "adjoint") -> Tensor:
    """`tf.linalg.adjoint`: conjugate transpose of the last two dimensions."""
    from tf1compat.ops.matrix_ops import matrix_transpose
    with name_scope(name, values=[matrix]):
        matrix = convert_to_tensor(matrix, name="matrix")
        return matrix_transpose(matrix, conjugate=True)
