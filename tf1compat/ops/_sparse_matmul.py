"""Sparse x dense products on torch's compressed-row (CSR) kernels.

`SparseTensorDenseMatMul` (and the `sparse_dense_matmul` of GCN-style models) multiplies
a [m, k] SparseTensor given as COO indices by a dense [k, n] matrix. Gathering `b[cols]`
and `index_add`-ing the products (the generic way) touches nnz x n values twice and runs
one scattered add per entry; torch's CSR x dense kernel (MKL on CPU, cuSPARSE on CUDA)
is ~10-30x faster on graph-sized inputs. A COO SparseTensor need not be ordered and may
repeat an index (TF sums repeats), so the rows are ordered here (a stable sort only when
they are not) before the row pointers are built; CSR keeps repeats and sums them.

torch's CSR constructor has no usable gradient for repeated entries, so the product is
its own autograd Function: d/d values is the row-wise dot of `grad[rows]` and `b[cols]`,
d/d b is the transposed product (the same Function, so second derivatives exist too).
"""

from __future__ import annotations

import warnings
from typing import Any, Optional, Tuple

import torch

from tf1compat.framework import errors

__all__ = ["csr_kernel_supports", "sparse_dense_matmul", "check_index_bounds"]

# torch marks CSR as beta with a one-time warning; the kernels used here are stable.
warnings.filterwarnings("ignore", message="Sparse CSR tensor support is in beta")

_CSR_DTYPES = (torch.float32, torch.float64)


def csr_kernel_supports(dtype: torch.dtype) -> bool:
    """Whether torch's CSR x dense kernel serves `dtype` on every device torch offers."""
    return dtype in _CSR_DTYPES


def _csr(rows: torch.Tensor, cols: torch.Tensor, vals: torch.Tensor, n_rows: int,
         n_cols: int) -> torch.Tensor:
    if rows.numel() > 1 and bool((rows[1:] < rows[:-1]).any()):
        order = torch.argsort(rows, stable=True)
        rows, cols, vals = rows[order], cols[order], vals[order]
    crow = torch._convert_indices_from_coo_to_csr(rows, n_rows)
    return torch.sparse_csr_tensor(crow, cols, vals, (n_rows, n_cols), check_invariants=False)


class _CsrMatMul(torch.autograd.Function):
    """out[m, n] = sum over entries e with rows[e] = m of vals[e] * b[cols[e], n]."""

    @staticmethod
    def forward(ctx: Any, rows: torch.Tensor, cols: torch.Tensor, vals: torch.Tensor,
                b: torch.Tensor, n_rows: int) -> torch.Tensor:
        ctx.save_for_backward(rows, cols, vals, b)
        ctx.n_rows = n_rows
        return _csr(rows, cols, vals.detach(), n_rows, b.shape[0]) @ b.detach()

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Tuple[Optional[torch.Tensor], ...]:
        rows, cols, vals, b = ctx.saved_tensors
        grad_vals = grad_b = None
        if ctx.needs_input_grad[2]:
            grad_vals = (grad[rows] * b[cols]).sum(1)
        if ctx.needs_input_grad[3]:
            grad_b = _CsrMatMul.apply(cols, rows, vals, grad, b.shape[0])
        return None, None, grad_vals, grad_b, None


def check_index_bounds(rows: torch.Tensor, cols: torch.Tensor, m: int, k: int,
                       row_column: int) -> None:
    """TF's InvalidArgumentError for the first entry outside the [m, k] operand (its
    column index checked first, as TF's kernel does). `row_column` is the index column
    holding rows (1 under adjoint_a)."""
    bad = (cols < 0) | (cols >= k) | (rows < 0) | (rows >= m)
    if not bool(bad.any()):
        return
    i = int(torch.nonzero(bad)[0, 0])
    col, row = int(cols[i]), int(rows[i])
    if not 0 <= col < k:
        message = f"k ({col}) from index[{i},{1 - row_column}] out of bounds (>={k})"
    else:
        message = f"m ({row}) from index[{i},{row_column}] out of bounds (>={m})"
    raise errors.InvalidArgumentError(None, None, message)


def sparse_dense_matmul(rows: torch.Tensor, cols: torch.Tensor, vals: torch.Tensor,
                        b: torch.Tensor, n_rows: int) -> torch.Tensor:
    """The [n_rows, b.shape[1]] product of the COO matrix (rows, cols, vals) and `b`;
    indices already checked, `vals` of b's dtype and a dtype `csr_kernel_supports`."""
    if rows.numel() == 0:
        return torch.zeros((n_rows, b.shape[1]), dtype=b.dtype, device=b.device) + \
            0 * b.sum() + 0 * vals.sum()   # keeps both on the autograd path
    return _CsrMatMul.apply(rows, cols, vals, b, n_rows)
