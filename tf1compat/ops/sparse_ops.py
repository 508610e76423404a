"""SparseToDense and the dense conversions of SparseTensor (`tf.sparse_to_dense`,
`tf.sparse_tensor_to_dense`)."""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op1
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._kernels import as_int_list, static_ints

__all__ = ["sparse_to_dense", "sparse_tensor_to_dense"]


def _sparse_to_dense_shape(ctx: Any) -> List[TensorShape]:
    return [ctx.const_shape(1)]


def _sparse_to_dense_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    shape_static = static_ints(node, 1)
    validate = bool(node.attrs["validate_indices"])

    def run(indices: torch.Tensor, shape: Any, values: torch.Tensor,
            default: torch.Tensor) -> torch.Tensor:
        dims = shape_static if shape_static is not None else as_int_list(shape)
        idx = indices.long()
        if idx.dim() == 0:
            idx = idx.reshape(1, 1)
        elif idx.dim() == 1:
            idx = idx.reshape(-1, 1) if len(dims) == 1 else idx.reshape(1, -1)
        n = idx.shape[0]
        vals = values.expand(n) if isinstance(values, torch.Tensor) and values.dim() == 0 \
            else values
        if n and bool(((idx < 0) | (idx >= torch.tensor(dims, device=idx.device))).any()):
            raise errors.InvalidArgumentError(None, None, "indices is out of bounds")
        if validate and n > 1:
            strides = torch.tensor([int(torch.tensor(dims[i + 1:]).prod()) for i in
                                    range(len(dims))], device=idx.device)
            flat = (idx * strides).sum(1)
            if bool((flat[1:] <= flat[:-1]).any()):
                raise errors.InvalidArgumentError(
                    None, None, "indices is out of order or repeated")
        if isinstance(values, np.ndarray):
            # String tensors are numpy object arrays, not torch tensors.
            dense = np.full(dims, np.asarray(default).reshape(()).item(), dtype=object)
            if n:
                dense[tuple(idx.t().cpu().numpy())] = np.broadcast_to(values, (n,))
            return dense
        out = default.reshape(()).expand(dims).clone() if dims else default.clone()
        if n == 0:
            return out
        return out.index_put(tuple(idx.t()), vals.to(out.dtype))
    return run


declare("SparseToDense", inputs=["sparse_indices: Tindices", "output_shape: Tindices",
                                 "sparse_values: T", "default_value: T"],
        outputs=["dense: T"],
        attrs={"validate_indices": True, "T": Type(),
               "Tindices": Type((D.int32, D.int64), default=D.int32)},
        shape=_sparse_to_dense_shape, kernel=_sparse_to_dense_kernel)


def sparse_to_dense(sparse_indices: Any, output_shape: Any, sparse_values: Any,
                    default_value: Any = 0, validate_indices: bool = True,
                    name: Optional[str] = None) -> Tensor:
    """`tf.sparse_to_dense`: a dense tensor with `sparse_values` at `sparse_indices`."""
    return apply_op1("SparseToDense", [sparse_indices, output_shape, sparse_values,
                                       default_value],
                     {"validate_indices": bool(validate_indices)}, name=name)


def sparse_tensor_to_dense(sp_input: Any, default_value: Any = None,
                           validate_indices: bool = True, name: Optional[str] = None) -> Tensor:
    """`tf.sparse_tensor_to_dense` (`tf.sparse.to_dense`)."""
    from tf1compat.framework.sparse_tensor import SparseTensor
    if not isinstance(sp_input, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor, got {type(sp_input)}")
    if default_value is None:
        default_value = "" if sp_input.dtype == D.string else 0
    return sparse_to_dense(sp_input.indices, sp_input.dense_shape, sp_input.values,
                           default_value, validate_indices, name=name)
