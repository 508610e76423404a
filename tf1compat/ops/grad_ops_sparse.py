"""TF's gradient ops of sparse ops: the sparse segment reductions (embedding_lookup_sparse,
feature columns' embedding and shared-embedding columns) as `SparseSegment{Sum,Mean,
SqrtN}Grad` (TF 1.x graphs) and their V2 forms (TF >= 2.13: one row per distinct index),
and `SparseAddGrad`.

Like grad_ops.py, for imported graphs: tf1compat's own gradients come from autograd.
"""

from __future__ import annotations

from typing import Any, Callable, List

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape

_INDEX = (D.int32, D.int64)
_ATTRS = {"T": Type((D.bfloat16, D.float16, D.float32, D.float64)),
          "Tidx": Type(_INDEX, default=D.int32),
          "Tsegmentids": Type(_INDEX, default=D.int32)}


def _row_scales(kind: str, segment_ids: torch.Tensor, rows: int,
                dtype: torch.dtype) -> torch.Tensor:
    """Per segment: 1 (sum), 1/count (mean), 1/sqrt(count) (sqrtn), with TF's count of at
    least 1 for empty segments."""
    counts = torch.zeros(rows, dtype=dtype, device=segment_ids.device)
    counts.index_add_(0, segment_ids.long(), torch.ones_like(segment_ids, dtype=dtype))
    counts = counts.clamp_min(1)
    return 1.0 / counts if kind == "Mean" else torch.rsqrt(counts)


def _scaled_rows(kind: str, grad: torch.Tensor, segment_ids: torch.Tensor) -> torch.Tensor:
    """grad[segment_ids[i]] times segment_ids[i]'s scale, one row per index."""
    picked = grad.index_select(0, segment_ids.long())
    if kind == "Sum":
        return picked
    scales = _row_scales(kind, segment_ids, grad.shape[0], grad.dtype)
    scales = scales.index_select(0, segment_ids.long())
    return picked * scales.reshape([-1] + [1] * (grad.dim() - 1))


def _grad_kernel(kind: str) -> Callable:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        def run(grad: torch.Tensor, indices: torch.Tensor, segment_ids: torch.Tensor,
                output_dim0: Any) -> torch.Tensor:
            rows = _scaled_rows(kind, grad, segment_ids)
            out = torch.zeros((int(output_dim0),) + tuple(grad.shape[1:]), dtype=grad.dtype,
                              device=grad.device)
            return out.index_add_(0, indices.long(), rows)
        return run
    return factory


def _grad_v2_kernel(kind: str) -> Callable:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        def run(grad: torch.Tensor, indices: torch.Tensor, segment_ids: torch.Tensor,
                dense_output_dim0: Any) -> tuple:
            unique, position = torch.unique(indices, sorted=True, return_inverse=True)
            rows = _scaled_rows(kind, grad, segment_ids)
            out = torch.zeros((unique.numel(),) + tuple(grad.shape[1:]), dtype=grad.dtype,
                              device=grad.device)
            return out.index_add_(0, position, rows), unique
        return run
    return factory


def _grad_shape(ctx: Any) -> List[TensorShape]:
    grad = ctx.shape(0)
    dim0 = ctx.const(3)
    if grad.rank is None:
        return [unknown_shape()]
    return [TensorShape([None if dim0 is None else int(dim0)] + grad.as_list()[1:])]


def _grad_v2_shape(ctx: Any) -> List[TensorShape]:
    grad = ctx.shape(0)
    rows = unknown_shape() if grad.rank is None else TensorShape([None] + grad.as_list()[1:])
    return [rows, TensorShape([None])]


for _kind in ("Sum", "Mean", "SqrtN"):
    declare(f"SparseSegment{_kind}Grad",
            inputs=["grad: T", "indices: Tidx", "segment_ids: Tsegmentids",
                    "output_dim0: int32"],
            outputs=["output: T"], attrs=_ATTRS, shape=_grad_shape,
            kernel=_grad_kernel(_kind), grad="unregistered",
            doc=f"The gradient of SparseSegment{_kind}: rows added back at their indices.")
    declare(f"SparseSegment{_kind}GradV2",
            inputs=["grad: T", "indices: Tidx", "segment_ids: Tsegmentids",
                    "dense_output_dim0: int32"],
            outputs=["output: T", "sorted_unique_indices: Tidx"], attrs=_ATTRS,
            shape=_grad_v2_shape, kernel=_grad_v2_kernel(_kind), grad="unregistered",
            doc=f"The gradient of SparseSegment{_kind} as one row per distinct index "
                f"(sorted), for an IndexedSlices gradient.")


def _sparse_add_grad_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def run(backprop: torch.Tensor, a_indices: torch.Tensor, b_indices: torch.Tensor,
            sum_indices: torch.Tensor) -> tuple:
        # Each operand's entry takes the sum's gradient at the same index (0 where the
        # sum dropped the entry under `thresh`).
        rows = torch.cat([sum_indices, a_indices, b_indices])
        _, key = torch.unique(rows, dim=0, return_inverse=True)
        n_sum, n_a = sum_indices.shape[0], a_indices.shape[0]
        where_in_sum = torch.full((int(key.max()) + 1 if key.numel() else 0,), -1,
                                  dtype=torch.long, device=key.device)
        where_in_sum[key[:n_sum]] = torch.arange(n_sum, device=key.device)

        def pick(keys: torch.Tensor) -> torch.Tensor:
            position = where_in_sum[keys]
            picked = backprop[position.clamp_min(0)] if n_sum else \
                torch.zeros(keys.shape, dtype=backprop.dtype, device=backprop.device)
            return torch.where(position >= 0, picked, torch.zeros_like(picked))
        return pick(key[n_sum:n_sum + n_a]), pick(key[n_sum + n_a:])
    return run


declare("SparseAddGrad",
        inputs=["backprop_val_grad: T", "a_indices: int64", "b_indices: int64",
                "sum_indices: int64"],
        outputs=["a_val_grad: T", "b_val_grad: T"], attrs={"T": Type()},
        shape=lambda ctx: [TensorShape([ctx.shape(1)[0] if ctx.shape(1).rank else None]),
                           TensorShape([ctx.shape(2)[0] if ctx.shape(2).rank else None])],
        kernel=_sparse_add_grad_kernel, grad="none",
        doc="The gradient of SparseAdd with respect to both operands' values.")
