"""The kernels of TF 1.15's contrib/factorization library (its gen_factorization_ops), which
WALS builds on: MaskedMatmul and WALSComputePartialLhsAndRhs.

MaskedMatmul computes only the entries of a product a @ b (either side optionally
transposed) that `mask_indices` [nnz, 2] names: prod_values[i] = (a b)[r_i, c_i].

WALSComputePartialLhsAndRhs forms the observed-entry part of the normal equations of
one WALS half-step. The input is a sparse block whose rows (the columns when
`input_is_transpose`) are the rows being solved for; for each observed entry (i, j) with
value v and weight w the left-hand side of row i gains w * f_j f_j^T and its right-hand
side gains v * (w0 + w) * f_j, where f_j is row j of `factors` and w0 the unobserved
weight. The weight is `entry_weights[e]` when given, else input_weights[i] *
factor_weights[j]. Rows without entries get zero matrices. TF's kernel adds the rank-one
updates in float32 in batches; here each row's terms are summed in one float32 matmul, so
the last bits may differ.
"""

from __future__ import annotations

from typing import Any, Callable, List

import torch

from tf1compat.framework import errors
from tf1compat.framework.op_def import declare
from tf1compat.framework.tensor_shape import TensorShape

__all__: List[str] = []


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _unknown_shapes(ctx: Any) -> List[TensorShape]:
    # TF registers both ops with shape_inference::UnknownShape.
    return [TensorShape(None)] * (2 if ctx.op_type == "WALSComputePartialLhsAndRhs" else 1)


# -- MaskedMatmul ------------------------------------------------------------------------------

def _masked_matmul_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def masked_matmul(a: torch.Tensor, b: torch.Tensor, mask_indices: torch.Tensor,
                      transpose_a: torch.Tensor, transpose_b: torch.Tensor) -> torch.Tensor:
        for value, what in ((a, "a"), (b, "b"), (mask_indices, "mask_indices")):
            if value.dim() != 2:
                raise _invalid(f"Input {what} should be a matrix.")
        for value, what in ((transpose_a, "transpose_a"), (transpose_b, "transpose_b")):
            if value.dim() != 0:
                raise _invalid(f"Input {what} should be a scalar.")
        left = a.t() if bool(transpose_a) else a
        right = b.t() if bool(transpose_b) else b
        if left.shape[1] != right.shape[0]:
            raise _invalid(f"Matrix shapes are incompatible: a has shape "
                           f"[{','.join(map(str, a.shape))}], while b has shape "
                           f"[{','.join(map(str, b.shape))}].")
        if mask_indices.shape[1] != 2:
            raise _invalid("mask_indices should be a matrix of shape [nnz 2], where nnz is "
                           "the number of non-zero elements.")
        rows, columns = mask_indices[:, 0], mask_indices[:, 1]
        # TF's kernel CHECK-fails (aborts the process) here; an error is kinder.
        if rows.numel() and (int(rows.min()) < 0 or int(rows.max()) >= left.shape[0] or
                             int(columns.min()) < 0 or int(columns.max()) >= right.shape[1]):
            raise _invalid("mask_indices holds an index out of bounds of a @ b, "
                           f"[{left.shape[0]}, {right.shape[1]}]")
        return (left[rows] * right[:, columns].t()).sum(dim=1)
    return masked_matmul


declare("MaskedMatmul",
        inputs=["a: float32", "b: float32", "mask_indices: int64", "transpose_a: bool",
                "transpose_b: bool"],
        outputs=["prod_values: float32"], shape=_unknown_shapes,
        kernel=_masked_matmul_kernel, grad="unregistered")


# -- WALSComputePartialLhsAndRhs ---------------------------------------------------------------

def _check_wals_inputs(factors: torch.Tensor, factor_weights: torch.Tensor,
                       unobserved_weights: torch.Tensor, input_weights: torch.Tensor,
                       input_indices: torch.Tensor, input_values: torch.Tensor,
                       entry_weights: torch.Tensor, input_block_size: torch.Tensor,
                       input_is_transpose: torch.Tensor) -> None:
    """TF's argument checks, in its order and words."""
    checks = ((factors.dim() == 2, "Input factors should be a matrix."),
              (factor_weights.dim() == 1, "Input factor_weights should be a vector."),
              (unobserved_weights.dim() == 0, "Input unobserved_weights should be a scalar."),
              (input_weights.dim() == 1, "Input input_weights should be a vector."),
              (input_indices.dim() == 2, "Input input_indices should be a matrix."))
    for ok, message in checks:
        if not ok:
            raise _invalid(message)
    if input_indices.shape[1] != 2:
        raise _invalid("Input input_indices should have shape (?, 2).")
    if input_values.dim() != 1:
        raise _invalid("Input input_values should be a vector")
    if entry_weights.dim() != 1:
        raise _invalid("Input entry_weights should be a vector")
    if input_indices.shape[0] != input_values.shape[0]:
        raise _invalid("Input input_values' length should match the first dimension of "
                       "Input input_indices ")
    if input_block_size.dim() != 0:
        raise _invalid("Input input_block_size should be a scalar.")
    if input_is_transpose.dim() != 0:
        raise _invalid("Input input_is_transpose should be a scalar.")
    by_factors = (input_weights.shape[0] > 0 and factor_weights.shape[0] == factors.shape[0]
                  and entry_weights.shape[0] == 0)
    by_entries = (input_weights.shape[0] == 0 and factor_weights.shape[0] == 0 and
                  entry_weights.shape[0] == input_indices.shape[0])
    if not (by_factors or by_entries):
        raise _invalid("To specify the weights for observed entries, either (1) "
                       "entry_weights must be set or (2) input_weights and factor_weights "
                       "must be set, but not both.")


def _wals_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def wals_compute_partial_lhs_and_rhs(*args: torch.Tensor) -> tuple:
        _check_wals_inputs(*args)
        (factors, factor_weights, unobserved_weights, input_weights, input_indices,
         input_values, entry_weights, input_block_size, input_is_transpose) = args
        block, k = int(input_block_size), factors.shape[1]
        if bool(input_is_transpose):
            rows, columns = input_indices[:, 1], input_indices[:, 0]
        else:
            rows, columns = input_indices[:, 0], input_indices[:, 1]
        if entry_weights.shape[0]:
            weights = entry_weights
        else:
            weights = input_weights[rows] * factor_weights[columns]
        if weights.numel() and bool((weights < 0).any()):
            raise _invalid("WALSComputePartialLhsAndRhs: the weights of observed entries "
                           "must be non-negative")
        observed = factors[columns]                                   # [nnz, k]
        scaled = observed * weights.sqrt().unsqueeze(1)
        outer = scaled.unsqueeze(2) * scaled.unsqueeze(1)             # [nnz, k, k]
        lhs = torch.zeros(block, k, k, dtype=factors.dtype, device=factors.device)
        lhs.index_add_(0, rows, outer)
        terms = observed * (input_values * (unobserved_weights + weights)).unsqueeze(1)
        rhs = torch.zeros(block, k, dtype=factors.dtype, device=factors.device)
        rhs.index_add_(0, rows, terms)
        return lhs, rhs
    return wals_compute_partial_lhs_and_rhs


declare("WALSComputePartialLhsAndRhs",
        inputs=["factors: float32", "factor_weights: float32", "unobserved_weights: float32",
                "input_weights: float32", "input_indices: int64", "input_values: float32",
                "entry_weights: float32", "input_block_size: int64",
                "input_is_transpose: bool"],
        outputs=["partial_lhs: float32", "partial_rhs: float32"], shape=_unknown_shapes,
        kernel=_wals_kernel, grad="unregistered")
