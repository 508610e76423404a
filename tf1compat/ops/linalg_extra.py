"""`tf.linalg` rest: Lu, MatrixSquareRoot, MatrixLogarithm, TridiagonalMatMul,
TridiagonalSolve ops, and the composites lu_solve / lu_reconstruct / lu_matrix_inverse,
pinv, matrix_rank, matvec, normalize, eigh_tridiagonal (TF's graphs where they are plain
ops; eigh_tridiagonal solves the dense tridiagonal matrix instead of TF's bisection)."""

from __future__ import annotations

import collections
from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1, control_dependencies, name_scope
from tf1compat.framework.grad_names import names
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value, unknown_shape
from tf1compat.ops import array_ops, check_ops, math_ops
from tf1compat.ops._shape_rules import node_desc

__all__ = ["lu", "lu_solve", "lu_reconstruct", "lu_matrix_inverse", "matrix_square_root",
           "logm", "pinv", "matrix_rank", "matvec", "normalize", "tridiagonal_matmul",
           "tridiagonal_solve", "eigh_tridiagonal"]

_FLOAT_COMPLEX = (D.float64, D.float32, D.float16, D.complex64, D.complex128)


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _square_shape(ctx: Any) -> TensorShape:
    s = ctx.shape(0)
    if s.rank is not None:
        if s.rank < 2:
            raise ValueError(f"Shape must be at least rank 2 but is rank {s.rank} "
                             f"{node_desc(ctx)}")
        rows, cols = s.as_list()[-2:]
        if rows is not None and cols is not None and rows != cols:
            raise ValueError(f"Dimensions must be equal, but are {rows} and {cols} "
                             f"{node_desc(ctx)}")
    return s


def _in_working_precision(fn: Callable[[torch.Tensor], torch.Tensor]
                          ) -> Callable[[torch.Tensor], torch.Tensor]:
    def run(x: torch.Tensor) -> torch.Tensor:
        if x.dtype == torch.float16:
            return fn(x.float()).half()
        return fn(x)
    return run


# -- Lu ----------------------------------------------------------------------------------------

def _lu_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    index_dtype = node.attrs["output_idx_type"].torch_dtype

    def lu(x: torch.Tensor) -> tuple:
        if x.shape[-1] != x.shape[-2]:
            raise _invalid("Input matrix must be square.")
        work = x.float() if x.dtype == torch.float16 else x
        packed, pivots = torch.linalg.lu_factor(work)
        perm_matrix, _, _ = torch.lu_unpack(packed, pivots, unpack_data=False)
        # A = P L U, so row i of L U is row perm[i] of A: perm[i] = argmax(P[:, i]).
        perm = perm_matrix.abs().argmax(dim=-2).to(index_dtype)
        return packed.to(x.dtype), perm
    return lu


def _lu_shape(s: TensorShape) -> List[TensorShape]:
    return [s, s[:-1] if s.rank is not None else unknown_shape()]


declare("Lu", inputs=["input: T"], outputs=["lu: T", "p: output_idx_type"],
        attrs={"T": Type(_FLOAT_COMPLEX), "output_idx_type": Type((D.int32, D.int64),
                                                                   default=D.int32)},
        shape=lambda ctx: _lu_shape(_square_shape(ctx)), kernel=_lu_kernel, grad="unregistered")

Lu = collections.namedtuple("Lu", ["lu", "p"])


def lu(input: Any, output_idx_type: Any = D.int32, name: Optional[str] = None) -> Lu:  # noqa: A002
    """`tf.linalg.lu`: packed L\\U factors with partial pivoting and the row permutation."""
    op = apply_op("Lu", [input], {"output_idx_type": D.as_dtype(output_idx_type)}, name=name)
    return Lu(*op.outputs)


def _lu_assertions(lower_upper: Tensor, perm: Tensor, validate_args: bool) -> list:
    assertions = []
    rank = lower_upper.shape.rank
    if rank is not None and rank < 2:
        raise ValueError("Input `lower_upper` must have at least 2 dimensions.")
    if rank is not None and perm.shape.rank is not None and rank != perm.shape.rank + 1:
        raise ValueError("`rank(lower_upper)` must equal `rank(perm) + 1`")
    if lower_upper.shape[:-2].is_fully_defined():
        if lower_upper.shape[-2] != lower_upper.shape[-1]:
            raise ValueError("`lower_upper` must be square.")
    elif validate_args:
        rows, cols = array_ops.split(array_ops.shape(lower_upper)[-2:], 2)
        assertions.append(check_ops.assert_equal(rows, cols,
                                                 message="`lower_upper` must be square."))
    return assertions


def _unit_lower(lower_upper: Tensor) -> Tensor:
    from tf1compat.ops.creation_ops import ones
    from tf1compat.ops.matrix_ops import matrix_band_part, matrix_set_diag
    return matrix_set_diag(matrix_band_part(lower_upper, -1, 0),
                           ones(array_ops.shape(lower_upper)[:-1], dtype=lower_upper.dtype))


def lu_solve(lower_upper: Any, perm: Any, rhs: Any, validate_args: bool = False,
             name: Optional[str] = None) -> Tensor:
    """`tf.linalg.lu_solve`: solves A X = rhs from `tf.linalg.lu(A)`."""
    from tf1compat.ops.indexing_ops import gather, gather_nd
    from tf1compat.ops.matrix_ops import matrix_triangular_solve
    from tf1compat.ops.reduction_ops import reduce_prod
    from tf1compat.ops.transform_ops import broadcast_dynamic_shape, broadcast_to
    from tf1compat.ops.creation_ops import range as range_
    with name_scope(name or "lu_solve"):
        lower_upper = convert_to_tensor(lower_upper, dtype_hint=D.float32, name="lower_upper")
        perm = convert_to_tensor(perm, dtype_hint=D.int32, name="perm")
        rhs = convert_to_tensor(rhs, dtype_hint=lower_upper.dtype, name="rhs")
        assertions = _lu_assertions(lower_upper, perm, validate_args)
        if rhs.shape.rank is not None and rhs.shape.rank < 2:
            raise ValueError("Input `rhs` must have at least 2 dimensions.")
        if lower_upper.shape[-1] is not None and rhs.shape[-2] is not None and \
                lower_upper.shape[-1] != rhs.shape[-2]:
            raise ValueError("`lower_upper.shape[-1]` must equal `rhs.shape[-1]`.")
        if assertions:
            with control_dependencies(assertions):
                lower_upper, perm, rhs = (array_ops.identity(t)
                                          for t in (lower_upper, perm, rhs))
        if rhs.shape.rank == 2 and perm.shape.rank == 1:
            permuted = gather(rhs, perm, axis=-2)
        else:
            rhs_shape = array_ops.shape(rhs)
            batch = broadcast_dynamic_shape(rhs_shape[:-2], array_ops.shape(perm)[:-1])
            d, m = rhs_shape[-2], rhs_shape[-1]
            full = array_ops.concat([batch, [d, m]], axis=0)
            flat_rhs = array_ops.reshape(broadcast_to(rhs, full), [-1, d, m])
            flat_perm = array_ops.reshape(broadcast_to(perm, full[:-1]), [-1, d])
            size = reduce_prod(batch)
            rows = broadcast_to(range_(size)[:, None], [size, d])
            permuted = gather_nd(flat_rhs, array_ops.stack([rows, flat_perm], axis=-1))
            permuted = array_ops.reshape(permuted, full)
        lower = _unit_lower(lower_upper)
        return matrix_triangular_solve(lower_upper,
                                       matrix_triangular_solve(lower, permuted), lower=False)


def lu_matrix_inverse(lower_upper: Any, perm: Any, validate_args: bool = False,
                      name: Optional[str] = None) -> Tensor:
    """`tf.linalg.lu_matrix_inverse`: A^-1 from `tf.linalg.lu(A)`."""
    from tf1compat.ops.matrix_ops import eye
    with name_scope(name or "lu_matrix_inverse"):
        lower_upper = convert_to_tensor(lower_upper, dtype_hint=D.float32, name="lower_upper")
        perm = convert_to_tensor(perm, dtype_hint=D.int32, name="perm")
        assertions = _lu_assertions(lower_upper, perm, validate_args)
        if assertions:
            with control_dependencies(assertions):
                lower_upper, perm = array_ops.identity(lower_upper), array_ops.identity(perm)
        shape = array_ops.shape(lower_upper)
        return lu_solve(lower_upper, perm, rhs=eye(shape[-1], batch_shape=shape[:-2],
                                                   dtype=lower_upper.dtype))


def lu_reconstruct(lower_upper: Any, perm: Any, validate_args: bool = False,
                   name: Optional[str] = None) -> Tensor:
    """`tf.linalg.lu_reconstruct`: A from `tf.linalg.lu(A)`."""
    from tf1compat.ops.creation_ops import range as range_
    from tf1compat.ops.functional_ops import map_fn
    from tf1compat.ops.indexing_ops import gather, gather_nd
    from tf1compat.ops.linalg_ops import matmul
    from tf1compat.ops.matrix_ops import matrix_band_part
    from tf1compat.ops.reduction_ops import reduce_prod
    from tf1compat.ops.sort_ops import invert_permutation
    from tf1compat.ops.transform_ops import broadcast_to
    with name_scope(name or "lu_reconstruct"):
        lower_upper = convert_to_tensor(lower_upper, dtype_hint=D.float32, name="lower_upper")
        perm = convert_to_tensor(perm, dtype_hint=D.int32, name="perm")
        assertions = _lu_assertions(lower_upper, perm, validate_args)
        if assertions:
            with control_dependencies(assertions):
                lower_upper, perm = array_ops.identity(lower_upper), array_ops.identity(perm)
        shape = array_ops.shape(lower_upper)
        x = matmul(_unit_lower(lower_upper), matrix_band_part(lower_upper, 0, -1))
        if lower_upper.shape.rank != 2:
            size = reduce_prod(shape[:-2])
            d = shape[-1]
            x = array_ops.reshape(x, [size, d, d])
            perm = map_fn(invert_permutation, array_ops.reshape(perm, [size, d]))
            rows = broadcast_to(range_(size)[:, None], [size, d])
            x = array_ops.reshape(gather_nd(x, array_ops.stack([rows, perm], axis=-1)), shape)
        else:
            x = gather(x, invert_permutation(perm))
        x.set_shape(lower_upper.shape)
        return x


# -- MatrixSquareRoot, MatrixLogarithm ------------------------------------------------------------

def _eig_function(fn: Callable[[torch.Tensor], torch.Tensor], real_input: bool
                  ) -> Callable[[torch.Tensor], torch.Tensor]:
    """f(A) = V f(Lambda) V^-1 from the eigendecomposition (A diagonalizable)."""
    def apply(x: torch.Tensor) -> torch.Tensor:
        if x.shape[-1] != x.shape[-2]:
            raise _invalid("Input matrix must be square.")
        if x.shape[-1] == 0:
            return x.clone()
        values, vectors = torch.linalg.eig(x)
        out = vectors @ torch.diag_embed(fn(values)) @ torch.linalg.inv(vectors)
        return out.real.to(x.dtype) if real_input and not x.is_complex() else out.to(x.dtype)
    return apply


def _sqrtm_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    symmetric_sqrt = _eig_function(torch.sqrt, True)

    @_in_working_precision
    def sqrtm(x: torch.Tensor) -> torch.Tensor:
        if not x.is_complex() and x.shape[-1] and \
                bool(torch.allclose(x, x.transpose(-1, -2))):
            # Symmetric input: the real eigendecomposition keeps everything real.
            values, vectors = torch.linalg.eigh(x)
            return vectors @ torch.diag_embed(torch.sqrt(values)) @ vectors.transpose(-1, -2)
        return symmetric_sqrt(x)
    return sqrtm


declare("MatrixSquareRoot", inputs=["input: T"], outputs=["output: T"],
        attrs={"T": Type(_FLOAT_COMPLEX)}, shape=lambda ctx: [_square_shape(ctx)],
        kernel=_sqrtm_kernel, grad_names=names("matrix_transpose_2/transpose"))
declare("MatrixLogarithm", inputs=["input: T"], outputs=["output: T"],
        attrs={"T": Type((D.complex64, D.complex128))}, shape=lambda ctx: [_square_shape(ctx)],
        kernel=lambda node, kctx: _eig_function(torch.log, False), grad="unregistered")


def matrix_square_root(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    """`tf.linalg.sqrtm` / `tf.matrix_square_root`: the principal square root."""
    return apply_op1("MatrixSquareRoot", [input], name=name)


def logm(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    """`tf.linalg.logm`: the principal matrix logarithm (complex matrices, as TF)."""
    return apply_op1("MatrixLogarithm", [input], name=name)


# -- tridiagonal ops ------------------------------------------------------------------------------

def _tridiagonal_matmul_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def tridiagonal_matmul(superdiag: torch.Tensor, maindiag: torch.Tensor,
                           subdiag: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
        sup, main, sub = (d.transpose(-1, -2) for d in (superdiag, maindiag, subdiag))
        out = main * rhs
        if rhs.shape[-2] > 1:
            above = torch.zeros_like(rhs)
            above[..., :-1, :] = rhs[..., 1:, :]
            below = torch.zeros_like(rhs)
            below[..., 1:, :] = rhs[..., :-1, :]
            out = out + sup * above + sub * below
        return out
    return tridiagonal_matmul


declare("TridiagonalMatMul", inputs=["superdiag: T", "maindiag: T", "subdiag: T", "rhs: T"],
        outputs=["output: T"],
        attrs={"T": Type((D.float64, D.float32, D.complex64, D.complex128))},
        shape=lambda ctx: [ctx.shape(3)], kernel=_tridiagonal_matmul_kernel)


def _tridiagonal_solve_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    pivoting = node.attrs["partial_pivoting"]
    perturb = node.attrs["perturb_singular"]

    def tridiagonal_solve(diagonals: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
        if diagonals.shape[-2] != 3:
            raise _invalid("Expected diagonals to have 3 rows")
        n = diagonals.shape[-1]
        matrix = torch.diag_embed(diagonals[..., 1, :])
        if n > 1:
            matrix = matrix + torch.diag_embed(diagonals[..., 0, :-1], offset=1) + \
                torch.diag_embed(diagonals[..., 2, 1:], offset=-1)
        if perturb:
            # TF nudges exactly singular systems; a tiny diagonal shift does the same job.
            eps = torch.finfo(matrix.real.dtype if matrix.is_complex() else matrix.dtype).eps
            matrix = matrix + eps * torch.eye(n, dtype=matrix.dtype)
        solution, info = torch.linalg.solve_ex(matrix, rhs)
        # TF's kernel gives NaNs (no error) for singular systems.
        singular = (info != 0).reshape(info.shape + (1, 1))
        return torch.where(singular, torch.full_like(solution, float("nan")), solution)
    del pivoting  # partial pivoting only changes rounding: the dense solve pivots itself
    return tridiagonal_solve


def _tridiagonal_solve_shape(ctx: Any) -> List[TensorShape]:
    """TF's checks: diagonals [..., 3, M], rhs [..., M, K]."""
    diagonals, rhs = ctx.shape(0), ctx.shape(1)
    for s in (diagonals, rhs):
        if s.rank is not None and s.rank < 2:
            raise ValueError(f"Shape must be at least rank 2 but is rank {s.rank} "
                             f"{node_desc(ctx)}")
    if diagonals.rank is not None and diagonals.as_list()[-2] not in (None, 3):
        raise ValueError(f"Dimension must be 3 but is {diagonals.as_list()[-2]} "
                         f"{node_desc(ctx)}")
    if diagonals.rank is not None and rhs.rank is not None:
        m, n = diagonals.as_list()[-1], rhs.as_list()[-2]
        if m is not None and n is not None and m != n:
            raise ValueError(f"Dimensions must be equal, but are {m} and {n} "
                             f"{node_desc(ctx)}")
    return [rhs]


declare("TridiagonalSolve", inputs=["diagonals: T", "rhs: T"], outputs=["output: T"],
        attrs={"partial_pivoting": True, "perturb_singular": False,
               "T": Type((D.float64, D.float32, D.complex64, D.complex128))},
        shape=_tridiagonal_solve_shape, kernel=_tridiagonal_solve_kernel)


def _diagonals_from(diagonals: Any, diagonals_format: str) -> tuple:
    """(superdiag, maindiag, subdiag) from the compact, sequence or matrix format."""
    from tf1compat.ops.matrix_ops import matrix_diag_part
    if diagonals_format == "compact":
        diagonals = convert_to_tensor(diagonals)
        return diagonals[..., 0, :], diagonals[..., 1, :], diagonals[..., 2, :]
    if diagonals_format == "sequence":
        return tuple(convert_to_tensor(d) for d in diagonals)
    if diagonals_format == "matrix":
        diagonals = convert_to_tensor(diagonals)
        m1, m2 = dimension_value(diagonals.shape[-1]), dimension_value(diagonals.shape[-2])
        if m1 and m2 and m1 != m2:
            raise ValueError("Expected last two dimensions of diagonals to be same, got "
                             f"{m1} and {m2}")
        parts = matrix_diag_part(diagonals, k=(-1, 1), padding_value=0.0, align="LEFT_RIGHT")
        return parts[..., 0, :], parts[..., 1, :], parts[..., 2, :]
    raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")


def tridiagonal_matmul(diagonals: Any, rhs: Any, diagonals_format: str = "compact",
                       name: Optional[str] = None) -> Tensor:
    """`tf.linalg.tridiagonal_matmul`: a tridiagonal matrix (by its diagonals) times rhs."""
    superdiag, maindiag, subdiag = _diagonals_from(diagonals, diagonals_format)
    return apply_op1("TridiagonalMatMul",
                     [array_ops.expand_dims(superdiag, -2), array_ops.expand_dims(maindiag, -2),
                      array_ops.expand_dims(subdiag, -2), rhs], name=name)


def tridiagonal_solve(diagonals: Any, rhs: Any, diagonals_format: str = "compact",
                      transpose_rhs: bool = False, conjugate_rhs: bool = False,
                      name: Optional[str] = None, partial_pivoting: bool = True,
                      perturb_singular: bool = False) -> Tensor:
    """`tf.linalg.tridiagonal_solve`: solves a tridiagonal system for rhs."""
    from tf1compat.ops.matrix_ops import matrix_transpose
    from tf1compat.ops.transform_ops import pad
    if perturb_singular and not partial_pivoting:
        raise ValueError("partial_pivoting must be True if perturb_singular is.")
    if diagonals_format == "sequence":
        superdiag, maindiag, subdiag = (convert_to_tensor(d) for d in diagonals)
        m = dimension_value(maindiag.shape[-1])

        def padded(t: Tensor, label: str, edge: list) -> Tensor:
            n = dimension_value(t.shape[-1])
            if not n or n == m:
                return t
            if n == m - 1:
                return pad(t, [[0, 0]] * (t.shape.rank - 1) + [edge])
            raise ValueError(f"Expected {label} to be have length {m} or {m - 1}, got {n}.")
        diagonals = array_ops.stack((padded(superdiag, "superdiagonal", [0, 1]), maindiag,
                                     padded(subdiag, "subdiagonal", [1, 0])), axis=-2)
    elif diagonals_format == "matrix":
        diagonals = array_ops.stack(_diagonals_from(diagonals, "matrix"), axis=-2)
    elif diagonals_format != "compact":
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    diagonals = convert_to_tensor(diagonals)
    rhs = convert_to_tensor(rhs)
    attrs = {"partial_pivoting": partial_pivoting, "perturb_singular": perturb_singular}
    diags_rank, rhs_rank = diagonals.shape.rank, rhs.shape.rank
    if diags_rank and rhs_rank and rhs_rank == diags_rank - 1:
        if conjugate_rhs:
            rhs = math_ops.conj(rhs)
        solved = apply_op1("TridiagonalSolve", [diagonals, array_ops.expand_dims(rhs, -1)],
                           attrs, name=name)
        return array_ops.squeeze(solved, -1)
    if transpose_rhs:
        rhs = matrix_transpose(rhs, conjugate=conjugate_rhs)
    elif conjugate_rhs:
        rhs = math_ops.conj(rhs)
    return apply_op1("TridiagonalSolve", [diagonals, rhs], attrs, name=name)


# -- composites --------------------------------------------------------------------------------

def _check_matrix(a: Tensor) -> None:
    if not a.dtype.is_floating:
        raise TypeError(f"Input `a` must have `float`-like `dtype` (saw {a.dtype.name}).")
    if a.shape.rank is not None and a.shape.rank < 2:
        raise ValueError(f"Input `a` must have at least 2 dimensions (saw: {a.shape.rank}).")


def matrix_rank(a: Any, tol: Any = None, validate_args: bool = False,
                name: Optional[str] = None) -> Tensor:
    """`tf.linalg.matrix_rank`: singular values above tol (eps * max(m, n) * max sv)."""
    from tf1compat.ops.linalg_decomp import svd
    from tf1compat.ops.reduction_ops import reduce_max, reduce_sum
    with name_scope(name or "matrix_rank"):
        a = convert_to_tensor(a, dtype_hint=D.float32, name="a")
        _check_matrix(a)
        s = svd(a, compute_uv=False)
        if tol is None:
            m = np.max(a.shape[-2:].as_list()) if a.shape[-2:].is_fully_defined() else \
                reduce_max(array_ops.shape(a)[-2:])
            eps = np.finfo(a.dtype.as_numpy_dtype).eps
            tol = eps * math_ops.cast(m, a.dtype) * reduce_max(s, axis=-1, keepdims=True)
        return reduce_sum(math_ops.cast(s > tol, D.int32), axis=-1)


def pinv(a: Any, rcond: Any = None, validate_args: bool = False,
         name: Optional[str] = None) -> Tensor:
    """`tf.linalg.pinv`: the Moore-Penrose pseudo-inverse from the SVD."""
    from tf1compat.ops.indexing_ops import where_v2
    from tf1compat.ops.linalg_decomp import svd
    from tf1compat.ops.linalg_ops import matmul
    from tf1compat.ops.reduction_ops import reduce_max
    with name_scope(name or "pinv"):
        a = convert_to_tensor(a, name="a")
        _check_matrix(a)
        dtype = a.dtype.as_numpy_dtype
        if rcond is None:
            rows = dimension_value(a.shape[-2])
            cols = dimension_value(a.shape[-1])
            rows = rows if rows is not None else array_ops.shape(a)[-2]
            cols = cols if cols is not None else array_ops.shape(a)[-1]
            largest = float(max(rows, cols)) if isinstance(rows, int) and \
                isinstance(cols, int) else math_ops.cast(math_ops.maximum(rows, cols), dtype)
            rcond = 10.0 * largest * np.finfo(dtype).eps
        rcond = convert_to_tensor(rcond, dtype=dtype, name="rcond")
        values, left, right = svd(a, full_matrices=False, compute_uv=True)
        cutoff = rcond * reduce_max(values, axis=-1)
        values = where_v2(values > array_ops.expand_dims(cutoff, -1), values,
                          np.array(np.inf, dtype))
        result = matmul(right / array_ops.expand_dims(values, -2), left, adjoint_b=True)
        if a.shape.rank is not None:
            result.set_shape(a.shape[:-2].concatenate([a.shape[-1], a.shape[-2]]))
        return result


def matvec(a: Any, b: Any, transpose_a: bool = False, adjoint_a: bool = False,
           a_is_sparse: bool = False, b_is_sparse: bool = False,
           name: Optional[str] = None) -> Tensor:
    """`tf.linalg.matvec`: a @ b for a batch of matrices and vectors."""
    from tf1compat.ops.linalg_ops import matmul
    with name_scope(name, "MatVec", [a, b]):
        output = matmul(a, array_ops.expand_dims(b, axis=-1), transpose_a=transpose_a,
                        adjoint_a=adjoint_a, a_is_sparse=a_is_sparse,
                        b_is_sparse=b_is_sparse)
        return array_ops.squeeze(output, axis=-1)


def normalize(tensor: Any, ord: Any = "euclidean", axis: Any = None,  # noqa: A002
              name: Optional[str] = None) -> tuple:
    """`tf.linalg.normalize`: (tensor / norm, norm) with `tf.norm`'s ord and axis."""
    from tf1compat.ops.linalg_decomp import norm
    with name_scope(name, "normalize", [tensor]) as scope:
        tensor = convert_to_tensor(tensor)
        norm_value = norm(tensor, ord, axis, keepdims=True)
        norm_value = math_ops.cast(norm_value, tensor.dtype)
        return math_ops.divide(tensor, norm_value, name=scope), norm_value


def eigh_tridiagonal(alpha: Any, beta: Any, eigvals_only: bool = True, select: str = "a",
                     select_range: Any = None, tol: Any = None,
                     name: Optional[str] = None) -> Any:
    """`tf.linalg.eigh_tridiagonal`: eigenvalues (ascending) and optionally eigenvectors of
    the Hermitian tridiagonal matrix with diagonal `alpha` and off-diagonal `beta`.

    TF finds eigenvalues by Sturm-sequence bisection and vectors by inverse iteration;
    tf1compat solves the dense matrix (values agree to rounding, vectors up to sign)."""
    from tf1compat.ops.linalg_decomp import self_adjoint_eig, self_adjoint_eigvals
    from tf1compat.ops.matrix_ops import matrix_diag
    del tol
    if select not in ("a", "v", "i"):
        raise ValueError("'select' must have a value in {'a', 'v', 'i'}.")
    with name_scope(name or "eigh_tridiagonal"):
        alpha = convert_to_tensor(alpha, name="alpha")
        beta = convert_to_tensor(beta, name="beta", dtype=alpha.dtype)
        if alpha.shape.rank != 1 or beta.shape.rank != 1:
            raise ValueError("Only vectors alpha and beta are supported.")
        n = dimension_value(alpha.shape[0])
        if n is not None and n > 1 and dimension_value(beta.shape[0]) not in (None, n - 1):
            raise ValueError("beta must be one element shorter than alpha.")
        matrix = matrix_diag(alpha)
        if n is None or n > 1:
            from tf1compat.ops.transform_ops import pad
            diagonals = array_ops.stack([pad(beta, [[0, 1]]), alpha,
                                         pad(math_ops.conj(beta), [[1, 0]])], axis=0)
            matrix = matrix_diag(diagonals, k=(-1, 1), align="LEFT_RIGHT")
        if eigvals_only:
            values = self_adjoint_eigvals(matrix)
            return _select_eigen(values, None, select, select_range)
        values, vectors = self_adjoint_eig(matrix)
        return _select_eigen(values, vectors, select, select_range)


def _select_eigen(values: Tensor, vectors: Optional[Tensor], select: str,
                  select_range: Any) -> Any:
    from tf1compat.ops.indexing_ops import boolean_mask
    if select == "a":
        return values if vectors is None else (values, vectors)
    if select == "i":
        lo, hi = select_range
        chosen_values = values[lo:hi + 1]
        return chosen_values if vectors is None else (chosen_values, vectors[:, lo:hi + 1])
    lo, hi = select_range
    keep = math_ops.logical_and(values > lo, values <= hi)
    chosen_values = boolean_mask(values, keep)
    if vectors is None:
        return chosen_values
    return chosen_values, boolean_mask(vectors, keep, axis=1)
