"""Sparse x dense products on torch's compressed-row (CSR) kernels.

`SparseTensorDenseMatMul` (and the `sparse_dense_matmul` of GCN-style models) multiplies
a [m, k] SparseTensor given as COO indices by a dense [k, n] matrix. Gathering `b[cols]`
and `index_add`-ing the products (the generic way) touches nnz x n values twice and runs
one scattered add per entry; torch's CSR x dense kernel (MKL on CPU, cuSPARSE on CUDA)
is ~10-30x faster on graph-sized inputs. A COO SparseTensor need not be ordered and may
repeat an index (TF sums repeats), so the rows are ordered here (a stable sort only when
they are not) before the row pointers are built; CSR keeps repeats and sums them.

The row order (a sort, the costly part) depends on the indices only: `CsrLayout` keeps
it, so a graph whose sparse matrix is constant sorts once. torch's CSR constructor has no
usable gradient for repeated entries, so the product is its own autograd Function:
d/d values is the row-wise dot of `grad[rows]` and `b[cols]`, d/d b is the transposed
product (the same Function, so second derivatives exist too).
"""

from __future__ import annotations

import warnings
from typing import Any, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import errors

__all__ = ["CsrLayout", "csr_kernel_supports", "sparse_dense_matmul", "check_index_bounds"]

# torch marks CSR as beta with a one-time warning; the kernels used here are stable.
warnings.filterwarnings("ignore", message="Sparse CSR tensor support is in beta")

_CSR_DTYPES = (torch.float32, torch.float64)


def csr_kernel_supports(dtype: torch.dtype) -> bool:
    """Whether torch's CSR x dense kernel serves `dtype` on every device torch offers."""
    return dtype in _CSR_DTYPES


# numpy's stable argsort is a radix sort for 16-bit keys: ~10x faster than torch's on the
# transposed layout of a GCN's sparse features (24k entries, 1433 columns), same order.
_RADIX_KEYS = 1 << 16


def _stable_order(keys: torch.Tensor, n_keys: int) -> torch.Tensor:
    """The stable ascending order of `keys` (ints in [0, n_keys))."""
    if keys.device.type != "cpu" or n_keys > _RADIX_KEYS:
        return torch.argsort(keys, stable=True)
    order = np.argsort(keys.numpy().astype(np.uint16), kind="stable")
    return torch.from_numpy(order)


class CsrLayout:
    """The compressed-row order of COO entries (rows, cols) of an [n_rows, n_cols]
    matrix: built once per index tensor (a kernel keeps it while the same constant
    indices come back, run after run), with its transpose's built when a gradient
    needs it."""

    def __init__(self, rows: torch.Tensor, cols: torch.Tensor, n_rows: int, n_cols: int):
        # Columns of an [nnz, 2] index tensor are strided views, and torch's COO -> CSR
        # conversion reads its input as if it were contiguous.
        rows, cols = rows.contiguous(), cols.contiguous()
        self.rows, self.cols, self.n_rows, self.n_cols = rows, cols, n_rows, n_cols
        self.order: Optional[torch.Tensor] = None
        if rows.numel() > 1 and bool((rows[1:] < rows[:-1]).any()):
            self.order = _stable_order(rows, n_rows)
            # index_select: advanced indexing's general kernel is ~5x slower on CPU.
            rows, cols = rows.index_select(0, self.order), cols.index_select(0, self.order)
        self.crow = torch._convert_indices_from_coo_to_csr(rows, n_rows)
        self.col_indices = cols
        self._transposed: Optional["CsrLayout"] = None
        self._matrix_cache: Optional[Tuple[torch.Tensor, torch.Tensor]] = None

    def matrix(self, vals: torch.Tensor) -> torch.Tensor:
        # A constant adjacency matrix brings the same values every run: its reordered CSR
        # tensor is kept (the gather into row order cost ~50 us a product on Cora).
        # Holding `vals` keeps its memory from being reused, so an equal data pointer and
        # version counter mean the same, unmodified values.
        cached = self._matrix_cache
        if cached is not None and cached[0].data_ptr() == vals.data_ptr() and \
                cached[0]._version == vals._version and cached[0].shape == vals.shape and \
                cached[0].dtype == vals.dtype and cached[0].device == vals.device:
            return cached[1]
        ordered = vals if self.order is None else vals.index_select(0, self.order)
        matrix = torch.sparse_csr_tensor(self.crow, self.col_indices, ordered,
                                         (self.n_rows, self.n_cols), check_invariants=False)
        self._matrix_cache = (vals, matrix)
        return matrix

    def transposed(self) -> "CsrLayout":
        if self._transposed is None:
            self._transposed = CsrLayout(self.cols, self.rows, self.n_cols, self.n_rows)
        return self._transposed


class _CsrMatMul(torch.autograd.Function):
    """out[m, n] = sum over entries e with rows[e] = m of vals[e] * b[cols[e], n]."""

    @staticmethod
    def forward(ctx: Any, vals: torch.Tensor, b: torch.Tensor,
                layout: CsrLayout) -> torch.Tensor:
        ctx.save_for_backward(vals, b)
        ctx.layout = layout
        return layout.matrix(vals.detach()) @ b.detach()

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Tuple[Optional[torch.Tensor], ...]:
        vals, b = ctx.saved_tensors
        layout = ctx.layout
        grad_vals = grad_b = None
        if ctx.needs_input_grad[0]:
            grad_vals = (grad.index_select(0, layout.rows) *
                         b.index_select(0, layout.cols)).sum(1)
        if ctx.needs_input_grad[1]:
            grad_b = _CsrMatMul.apply(vals, grad, layout.transposed())
        return grad_vals, grad_b, None


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


def sparse_dense_matmul(layout: CsrLayout, vals: torch.Tensor,
                        b: torch.Tensor) -> torch.Tensor:
    """The [layout.n_rows, b.shape[1]] product of the COO matrix (layout, vals) and `b`;
    indices already checked, `vals` of b's dtype and a dtype `csr_kernel_supports`."""
    if layout.rows.numel() == 0:
        return torch.zeros((layout.n_rows, b.shape[1]), dtype=b.dtype, device=b.device) + \
            0 * b.sum() + 0 * vals.sum()   # keeps both on the autograd path
    return _CsrMatMul.apply(vals, b, layout)
