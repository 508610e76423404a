"""Batched matrix ops: diagonals, band parts, transpose, trace, inverse/determinant/solves,
decompositions, norms (`tf.matrix_*`, `tf.linalg.*`)."""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._kernels import static_ints
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops.math_ops import FLOAT_COMPLEX

_ALIGNS = ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")


def _k_range(node: Any, index: int = 1) -> tuple:
    """The (lower, upper) diagonal offsets of input `index` (a scalar k is (k, k))."""
    k = static_ints(node, index)
    if k is None:
        raise NotImplementedError(f"{node.type} needs its diagonal offsets k known at graph "
                                  "build in tf1compat")
    if len(k) not in (1, 2):
        raise _bad_k(f"diag_index must have only one or two elements, received {len(k)} "
                     "elements.")
    lower, upper = (k[0], k[0]) if len(k) == 1 else (k[0], k[1])
    if lower > upper:
        raise _bad_k(f"lower_diag_index must not be larger than upper_diag_index: {lower} > "
                     f"{upper}")
    return lower, upper


def _bad_k(message: str) -> Exception:
    return errors.InvalidArgumentError(None, None, message)


def _diag_length(rows: int, cols: int, d: int) -> int:
    return max(0, min(rows + min(d, 0), cols - max(d, 0)))


def _left_aligned(align: str, d: int) -> bool:
    """Whether diagonal d is packed to the left (superdiagonals: align's first half)."""
    superdiag, subdiag = align.split("_")
    return (superdiag if d >= 0 else subdiag) == "LEFT"


def _packed(diag: torch.Tensor, lower: int, upper: int, d: int, length: int,
            max_len: int, align: str) -> torch.Tensor:
    """Diagonal d's values out of a packed [..., num_diags, max_len] input."""
    row = diag if lower == upper else diag[..., upper - d, :]
    start = 0 if _left_aligned(align, d) or lower == upper else max_len - length
    return row[..., start:start + length]


def _band_shape(s: TensorShape, lower: int, upper: int) -> Optional[list]:
    """[max_len] for one diagonal, [num_diags, max_len] for a band (None if unknown)."""
    rows, cols = s.as_list()[-2:]
    if rows is None or cols is None:
        return [None] if lower == upper else [upper - lower + 1, None]
    max_len = max(_diag_length(rows, cols, d) for d in range(lower, upper + 1))
    return [max_len] if lower == upper else [upper - lower + 1, max_len]


def _static_k(ctx: Any, i: int) -> Optional[tuple]:
    k = ctx.const(i)
    if k is None:
        return None
    k = [int(v) for v in np.asarray(k).reshape(-1)]
    return (k[0], k[0]) if len(k) == 1 else (k[0], k[-1])


def _diag_matrix_size(max_len: Optional[int], lower: int, upper: int, rows: int,
                      cols: int) -> tuple:
    """TF's MatrixDiag output size: square (the larger minimum) unless one is given."""
    min_rows = None if max_len is None else max_len - min(upper, 0)
    min_cols = None if max_len is None else max_len + max(lower, 0)
    if rows == -1 and cols == -1:
        size = None if max_len is None else max(min_rows, min_cols)
        return size, size
    return (min_rows if rows == -1 else rows), (min_cols if cols == -1 else cols)


def _matrix_diag_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    k = _static_k(ctx, 1)
    rows, cols = ctx.const(2), ctx.const(3)
    if s.rank is None or k is None:
        return [unknown_shape()]
    lower, upper = k
    dims = s.as_list()
    lead = dims[:-2] if lower != upper else dims[:-1]
    n_rows, n_cols = _diag_matrix_size(dims[-1], lower, upper,
                                       -1 if rows is None else int(rows),
                                       -1 if cols is None else int(cols))
    if rows is None and n_rows is not None:
        n_rows = None
    if cols is None and n_cols is not None:
        n_cols = None
    return [TensorShape(lead + [n_rows, n_cols])]


def _fill_diagonals(matrix: torch.Tensor, diag: torch.Tensor, lower: int, upper: int,
                    align: str) -> torch.Tensor:
    rows, cols = matrix.shape[-2:]
    max_len = diag.shape[-1]
    out = matrix.clone()
    for d in range(lower, upper + 1):
        length = _diag_length(rows, cols, d)
        if length == 0:
            continue
        i = torch.arange(length, device=matrix.device)
        values = _packed(diag, lower, upper, d, length, max_len, align)
        out[..., i - min(d, 0), i + max(d, 0)] = values.to(matrix.dtype)
    return out


def _matrix_diag_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    lower, upper = _k_range(node)
    rows, cols = static_ints(node, 2), static_ints(node, 3)
    align = node.attrs["align"]

    def run(diag: torch.Tensor, _k: Any, _r: Any, _c: Any, pad: torch.Tensor) -> torch.Tensor:
        max_len = diag.shape[-1]
        lead = diag.shape[:-1] if lower == upper else diag.shape[:-2]
        r, c = _diag_matrix_size(max_len, lower, upper,
                                 rows[0] if rows else int(_r), cols[0] if cols else int(_c))
        # The padding value may be a host scalar (the V1 op fixes it): the matrix is
        # built on the diagonal's device.
        out = pad.to(diag.device, diag.dtype).expand(tuple(lead) + (r, c))
        return _fill_diagonals(out, diag, lower, upper, align)
    return run


declare("MatrixDiagV3", inputs=["diagonal: T", "k: int32", "num_rows: int32",
                                "num_cols: int32", "padding_value: T"],
        outputs=["output: T"], attrs={"T": Type(), "align": "RIGHT_LEFT"},
        shape=_matrix_diag_shape, kernel=_matrix_diag_kernel)


def _matrix_set_diag_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    lower, upper = _k_range(node, 2)
    align = node.attrs["align"]
    return lambda x, diag, _k: _fill_diagonals(x, diag, lower, upper, align)


declare("MatrixSetDiagV3", inputs=["input: T", "diagonal: T", "k: int32"],
        outputs=["output: T"], attrs={"T": Type(), "align": "RIGHT_LEFT"},
        shape=lambda ctx: [ctx.shape(0)], kernel=_matrix_set_diag_kernel)


def _diag_part_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    k = _static_k(ctx, 1)
    if s.rank is None or k is None:
        return [unknown_shape()]
    return [TensorShape(s.as_list()[:-2] + _band_shape(s, *k))]


def _diag_part_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    lower, upper = _k_range(node)
    align = node.attrs["align"]
    if lower == upper:
        return lambda x, _k, pad: torch.diagonal(x, offset=lower, dim1=-2, dim2=-1)

    def band(x: torch.Tensor, _k: Any, pad: torch.Tensor) -> torch.Tensor:
        rows, cols = x.shape[-2:]
        max_len = max(_diag_length(rows, cols, d) for d in range(lower, upper + 1))
        out = []
        for d in range(upper, lower - 1, -1):
            values = torch.diagonal(x, offset=d, dim1=-2, dim2=-1)
            missing = max_len - values.shape[-1]
            filler = pad.to(x.dtype).expand(values.shape[:-1] + (missing,))
            parts = (values, filler) if _left_aligned(align, d) else (filler, values)
            out.append(torch.cat(parts, dim=-1))
        return torch.stack(out, dim=-2)
    return band


declare("MatrixDiagPartV3", inputs=["input: T", "k: int32", "padding_value: T"],
        outputs=["diagonal: T"], attrs={"T": Type(), "align": "RIGHT_LEFT"},
        shape=_diag_part_shape, kernel=_diag_part_kernel)


def matrix_diag(diagonal: Any, name: str = "diag", k: Any = 0, num_rows: Any = -1,
                num_cols: Any = -1, padding_value: Any = 0, align: str = "RIGHT_LEFT") -> Tensor:
    """`tf.matrix_diag` / `tf.linalg.diag` (MatrixDiagV3)."""
    if hasattr(diagonal, "dtype") and diagonal.dtype == D.bool:
        padding_value = bool(padding_value)
    return apply_op1("MatrixDiagV3", [diagonal, k, num_rows, num_cols, padding_value],
                     {"align": align}, name=name)


def matrix_set_diag(input: Any, diagonal: Any, name: str = "set_diag", k: Any = 0,  # noqa: A002
                    align: str = "RIGHT_LEFT") -> Tensor:
    return apply_op1("MatrixSetDiagV3", [input, diagonal, k], {"align": align}, name=name)


def matrix_diag_part(input: Any, name: str = "diag_part", k: Any = 0,  # noqa: A002
                     padding_value: Any = 0, align: str = "RIGHT_LEFT") -> Tensor:
    if hasattr(input, "dtype") and input.dtype == D.bool:
        padding_value = bool(padding_value)
    return apply_op1("MatrixDiagPartV3", [input, k, padding_value], {"align": align}, name=name)


def _band_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def run(x: torch.Tensor, lower: Any, upper: Any) -> torch.Tensor:
        lo, up = int(lower), int(upper)
        r, c = x.shape[-2:]
        i = torch.arange(r, device=x.device).unsqueeze(1)
        j = torch.arange(c, device=x.device).unsqueeze(0)
        keep = torch.ones((r, c), dtype=torch.bool, device=x.device)
        if lo >= 0:
            keep &= (i - j) <= lo
        if up >= 0:
            keep &= (j - i) <= up
        return torch.where(keep, x, torch.zeros((), dtype=x.dtype, device=x.device))
    return run


declare("MatrixBandPart", inputs=["input: T", "num_lower: Tindex", "num_upper: Tindex"],
        outputs=["band: T"], attrs={"T": Type(), "Tindex": Type((D.int32, D.int64),
                                                                 default=D.int64)},
        shape=lambda ctx: [ctx.shape(0)], kernel=_band_kernel)


def matrix_band_part(input: Any, num_lower: Any, num_upper: Any,  # noqa: A002
                     name: Optional[str] = None) -> Tensor:
    return apply_op1("MatrixBandPart", [input, num_lower, num_upper], name=name)


def _square_matrix_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    if s.rank is not None:
        if s.rank < 2:
            raise ValueError(f"Shape must be at least rank 2 but is rank {s.rank} "
                             f"{node_desc(ctx)}")
        r, c = s.as_list()[-2:]
        if r is not None and c is not None and r != c:
            raise ValueError(f"Dimensions must be equal, but are {r} and {c} {node_desc(ctx)}")
    return [s]


def _solve_shape(ctx: Any) -> List[TensorShape]:
    """A square system [..., M, M] and right-hand sides [..., M, K]: the result is rhs's
    shape; TF's shape function rejects a row count that differs."""
    _square_matrix_shape(ctx)
    a, b = ctx.shape(0), ctx.shape(1)
    if b.rank is not None and b.rank < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {b.rank} "
                         f"{node_desc(ctx)}")
    if a.rank is not None and b.rank is not None:
        m, n = a.as_list()[-2], b.as_list()[-2]
        if m is not None and n is not None and m != n:
            raise ValueError(f"Dimensions must be equal, but are {m} and {n} "
                             f"{node_desc(ctx)}")
    return [b]


def _linalg(op_type: str, fn: Callable[..., Any], shape: Callable, inputs: List[str],
            attrs: Optional[dict] = None, outputs: Optional[List[str]] = None) -> None:
    base = {"T": Type(FLOAT_COMPLEX)}
    base.update(attrs or {})
    declare(op_type, inputs=inputs, outputs=outputs or ["output: T"], attrs=base, shape=shape,
            kernel=fn)


_linalg("MatrixInverse", lambda node, kctx: (
    (lambda x: torch.linalg.inv(x.mH if node.attrs["adjoint"] else x))),
    _square_matrix_shape, ["input: T"], {"adjoint": False})
_linalg("MatrixDeterminant", lambda node, kctx: torch.linalg.det,
        lambda ctx: [TensorShape(ctx.shape(0).as_list()[:-2]) if ctx.shape(0).rank
                     else unknown_shape()], ["input: T"])
_linalg("Cholesky", lambda node, kctx: torch.linalg.cholesky, _square_matrix_shape,
        ["input: T"])
_linalg("MatrixSolve", lambda node, kctx: (
    lambda a, b: torch.linalg.solve(a.mH if node.attrs["adjoint"] else a, b)),
    _solve_shape, ["matrix: T", "rhs: T"], {"adjoint": False})


def _triangular_solve_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    lower, adjoint = node.attrs["lower"], node.attrs["adjoint"]

    def run(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if adjoint:
            return torch.linalg.solve_triangular(a.mH, b, upper=lower)
        return torch.linalg.solve_triangular(a, b, upper=not lower)
    return run


_linalg("MatrixTriangularSolve", _triangular_solve_kernel, _solve_shape,
        ["matrix: T", "rhs: T"], {"lower": True, "adjoint": False})


def matrix_inverse(input: Any, adjoint: bool = False, name: Optional[str] = None) -> Tensor:  # noqa: A002
    return apply_op1("MatrixInverse", [input], {"adjoint": adjoint}, name=name)


def matrix_determinant(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    return apply_op1("MatrixDeterminant", [input], name=name)


def cholesky(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    return apply_op1("Cholesky", [input], name=name)


def matrix_solve(matrix: Any, rhs: Any, adjoint: bool = False, name: Optional[str] = None
                 ) -> Tensor:
    return apply_op1("MatrixSolve", [matrix, rhs], {"adjoint": adjoint}, name=name)


def triangular_solve_op(matrix: Any, rhs: Any, lower: bool = True, adjoint: bool = False,
                        name: Optional[str] = None) -> Tensor:
    """The MatrixTriangularSolve op itself (gen_linalg_ops.matrix_triangular_solve)."""
    return apply_op1("MatrixTriangularSolve", [matrix, rhs],
                     {"lower": lower, "adjoint": adjoint}, name=name)


def matrix_triangular_solve(matrix: Any, rhs: Any, lower: bool = True, adjoint: bool = False,
                            name: Optional[str] = None) -> Tensor:
    """`tf.linalg.triangular_solve` / `tf.matrix_triangular_solve`."""
    with name_scope(name, "triangular_solve", [matrix, rhs]):
        return triangular_solve_op(matrix, rhs, lower=lower, adjoint=adjoint)


def matrix_transpose(a: Any, name: str = "matrix_transpose", conjugate: bool = False) -> Tensor:
    """`tf.matrix_transpose`: swaps the last two dimensions. Of a tensor of unknown rank
    (GPflow's data holders are variables of unknown shape), the permutation is computed
    at run time from its Rank, as TF builds it."""
    from tf1compat.ops.array_ops import concat
    from tf1compat.ops.array_ops import rank as rank_of
    from tf1compat.ops.transform_ops import transpose
    with name_scope(name, values=[a]):
        a = convert_to_tensor(a, name="a")
        rank = a.shape.rank
        if rank is None:
            a_rank = rank_of(a)
            perm: Any = concat((apply_op1("Range", [0, a_rank - 2, 1]),
                                [a_rank - 1, a_rank - 2]), 0)
        elif rank < 2:
            raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  "
                             f"Received `a` = {a} with shape: {a.shape}")
        else:
            perm = list(range(rank - 2)) + [rank - 1, rank - 2]
        return transpose(a, perm=perm, conjugate=conjugate)


def trace(x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.trace`: sum of the main diagonal of each (batch) matrix."""
    from tf1compat.ops.reduction_ops import reduce_sum
    with name_scope(name, "Trace", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return reduce_sum(matrix_diag_part(x), [-1], name=scope)


def eye(num_rows: Any, num_columns: Any = None, batch_shape: Any = None, dtype: Any = D.float32,
        name: Optional[str] = None) -> Tensor:
    """`tf.eye`, built from ones + matrix_diag (square) or zeros + matrix_set_diag, as TF."""
    from tf1compat.ops.array_ops import concat
    from tf1compat.ops.creation_ops import ones, zeros
    from tf1compat.ops.math_ops import minimum
    with name_scope(name, "eye", [num_rows, num_columns, batch_shape]):
        is_square = num_columns is None
        batch_shape = [] if batch_shape is None else batch_shape
        num_columns = num_rows if num_columns is None else num_columns
        if isinstance(num_rows, Tensor) or isinstance(num_columns, Tensor):
            diag_size = minimum(num_rows, num_columns)
        else:
            if not isinstance(num_rows, (int, np.integer)) or \
                    not isinstance(num_columns, (int, np.integer)):
                raise TypeError("Arguments `num_rows` and `num_columns` must be positive integer "
                                f"values. Received: num_rows={num_rows}, "
                                f"num_columns={num_columns}")
            is_square = num_rows == num_columns
            diag_size = int(np.minimum(num_rows, num_columns))
        if isinstance(batch_shape, Tensor) or isinstance(diag_size, Tensor):
            batch_shape = convert_to_tensor(batch_shape, name="shape", dtype=D.int32)
            diag_shape = concat((batch_shape, [diag_size]), axis=0)
            if not is_square:
                shape = concat((batch_shape, [num_rows, num_columns]), axis=0)
        else:
            batch_shape = list(batch_shape)
            diag_shape = batch_shape + [diag_size]
            if not is_square:
                shape = batch_shape + [num_rows, num_columns]
        diag_ones = ones(diag_shape, dtype=dtype)
        if is_square:
            return matrix_diag(diag_ones)
        return matrix_set_diag(zeros(shape, dtype=dtype), diag_ones)


_QR_TYPES = (D.float64, D.float32, D.float16, D.complex64, D.complex128)


def _qr_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    if s.rank is None:
        return [unknown_shape(), unknown_shape()]
    if s.rank < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {s.rank} "
                         f"{node_desc(ctx)}")
    *batch, m, n = s.as_list()
    if ctx.attrs["full_matrices"]:
        return [TensorShape(batch + [m, m]), TensorShape(batch + [m, n])]
    p = None if m is None or n is None else min(m, n)
    return [TensorShape(batch + [m, p]), TensorShape(batch + [p, n])]


def _qr_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    mode = "complete" if node.attrs["full_matrices"] else "reduced"

    def qr_kernel(x: torch.Tensor) -> tuple:
        # LAPACK's Householder QR, as TF's kernel uses (same sign convention).
        if x.dtype == torch.float16:
            q, r = torch.linalg.qr(x.float(), mode=mode)
            return q.half(), r.half()
        return tuple(torch.linalg.qr(x, mode=mode))
    return qr_kernel


declare("Qr", inputs=["input: T"], outputs=["q: T", "r: T"],
        attrs={"full_matrices": False, "T": Type(_QR_TYPES)},
        shape=_qr_shape, kernel=_qr_kernel)


def _diag_part_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    if s.rank is None:
        return [unknown_shape()]
    if s.rank % 2:
        raise ValueError(f"Input must have even rank <= 6, input rank is {s.rank} "
                         f"{node_desc(ctx)}")
    half = s.rank // 2
    dims = s.as_list()
    out = []
    for a, b in zip(dims[:half], dims[half:]):
        if a is not None and b is not None and a != b:
            raise ValueError(f"Dimensions must be equal, but are {a} and {b} "
                             f"{node_desc(ctx)}")
        out.append(a if a is not None else b)
    return [TensorShape(out)]


def _diag_part_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def diag_part_kernel(x: torch.Tensor) -> torch.Tensor:
        half = x.dim() // 2
        dims = tuple(x.shape[:half])
        n = 1
        for d in dims:
            n *= d
        return torch.diagonal(x.reshape(n, n)).reshape(dims)
    return diag_part_kernel


declare("DiagPart", inputs=["input: T"], outputs=["diagonal: T"], attrs={"T": Type()},
        shape=_diag_part_shape, kernel=_diag_part_kernel)


def qr(input: Any, full_matrices: bool = False, name: Optional[str] = None) -> tuple:  # noqa: A002
    """`tf.qr`: (q, r)."""
    return tuple(apply_op("Qr", [input], {"full_matrices": full_matrices}, name=name).outputs)


def diag_part(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    """`tf.diag_part` (`tf.linalg.tensor_diag_part`)."""
    return apply_op1("DiagPart", [input], name=name)
