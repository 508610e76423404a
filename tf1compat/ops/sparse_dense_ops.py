"""Sparse-by-dense elementwise ops: SparseDenseCwiseMul / SparseDenseCwiseDiv, and the
`*`, `/` operators of SparseTensor they serve.

The dense operand is broadcast to the sparse operand's dense shape (never the other way,
as TF's kernels) and read at the sparse indices; the result is new values for the same
indices. TF overrides exactly `__mul__`, `__div__` and `__truediv__` on SparseTensor
(`dense * sparse` goes through `Tensor.__mul__`); `/` on integer values casts both sides
to float as TF's truediv table does.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.hooks import SPARSE_OPERATORS
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._kernels import as_int_list

__all__ = ["sparse_dense_cwise_mul", "sparse_dense_cwise_div", "dense_times_sparse"]


def _dense_at_indices(indices: torch.Tensor, shape: Any, dense: torch.Tensor
                      ) -> torch.Tensor:
    """`dense` broadcast to the sparse shape, read at each sparse index."""
    dims = as_int_list(shape)
    dense_dims = list(dense.shape)
    compatible = len(dense_dims) <= len(dims) and all(
        d in (1, s) for d, s in zip(reversed(dense_dims), reversed(dims)))
    if not compatible:
        raise errors.InvalidArgumentError(
            None, None, "SparseDenseBinaryOpShared broadcasts dense to sparse only; got "
                        f"incompatible shapes: [{','.join(map(str, dims))}] vs. "
                        f"[{','.join(map(str, dense_dims))}]")
    if indices.shape[0] == 0:
        return dense.new_zeros((0,))
    if dense.numel() == 1:
        # A scalar (tkipf/gcn's sparse dropout scales by 1 / keep_prob): the same value at
        # every index, without the gather.
        return dense.reshape(()).expand(indices.shape[0])
    return dense.expand(dims)[tuple(indices.long().t())]


def _cwise_kernel(combine: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
                  ) -> Callable[..., Any]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        def run(indices: Any, values: Any, shape: Any, dense: Any) -> Any:
            return combine(values, _dense_at_indices(indices, shape, dense))
        return run
    return factory


def _divide(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.is_floating_point() or x.is_complex():
        return x / y
    return torch.div(x, y, rounding_mode="trunc")


def _values_shape(ctx: Any) -> List[TensorShape]:
    n = ctx.shape(0).with_rank(2)[0] if ctx.shape(0).rank is not None else None
    return [TensorShape([n]).merge_with(ctx.shape(1).with_rank(1))]


# SparseDenseCwiseAdd has no Python API in TF 1.x (only its raw op, in TF's own graphs).
for _op_type, _combine in (("SparseDenseCwiseMul", torch.mul),
                           ("SparseDenseCwiseDiv", _divide),
                           ("SparseDenseCwiseAdd", torch.add)):
    declare(_op_type, inputs=["sp_indices: int64", "sp_values: T", "sp_shape: int64",
                              "dense: T"],
            outputs=["output: T"], attrs={"T": Type(D.NUMBER_TYPES)},
            shape=_values_shape, kernel=_cwise_kernel(_combine),
            **({"grad": "none", "grad_error": lambda op: NotImplementedError(
                "Gradient for SparseDenseCwiseAdd is not implemented.")}
               if _op_type == "SparseDenseCwiseAdd" else {}),
            doc="New values for a SparseTensor's indices: values (op) the dense operand "
                "broadcast to the sparse shape.")


def _wrapper(op_type: str) -> Callable[..., Tensor]:
    def op(sp_indices: Any, sp_values: Any, sp_shape: Any, dense: Any,
           name: Optional[str] = None) -> Tensor:
        return apply_op1(op_type, [sp_indices, sp_values, sp_shape, dense], {}, name=name)
    op.__name__ = op.__qualname__ = {"SparseDenseCwiseMul": "sparse_dense_cwise_mul",
                                     "SparseDenseCwiseDiv": "sparse_dense_cwise_div"}[op_type]
    op.__doc__ = f"The {op_type} op: new values of the sparse operand (raw op wrapper)."
    return op


sparse_dense_cwise_mul = _wrapper("SparseDenseCwiseMul")
sparse_dense_cwise_div = _wrapper("SparseDenseCwiseDiv")

# TF's conversion table for `sparse / dense`: integer values are divided as floats.
_TRUEDIV_TYPES = {D.uint8: D.float32, D.int8: D.float32, D.uint16: D.float32,
                  D.int16: D.float32, D.uint32: D.float64, D.int32: D.float64,
                  D.uint64: D.float64, D.int64: D.float64}
_FLOAT_TYPES = (D.bfloat16, D.float16, D.float32, D.float64, D.complex64, D.complex128)


def _sparse_dense_truediv(sp_indices: Tensor, sp_values: Tensor, sp_shape: Tensor,
                          y: Tensor, name: Optional[str] = None) -> Tensor:
    from tf1compat.ops.math_ops import cast
    with name_scope(name, "truediv", [sp_indices, sp_values, sp_shape, y]) as scope:
        x_dtype, y_dtype = sp_values.dtype.base_dtype, y.dtype.base_dtype
        if x_dtype != y_dtype:
            raise TypeError(f"`x` and `y` must have the same dtype, got {x_dtype!r} != "
                            f"{y_dtype!r}.")
        if x_dtype not in _TRUEDIV_TYPES and x_dtype not in _FLOAT_TYPES:
            raise TypeError(f"Invalid dtype {x_dtype!r} in __truediv__.")
        target = _TRUEDIV_TYPES.get(x_dtype)
        if target is not None:
            sp_values, y = cast(sp_values, target), cast(y, target)
        return sparse_dense_cwise_div(sp_indices, sp_values, sp_shape, y, name=scope)


def _sparse_operator(op_name: str, func: Callable[..., Tensor]
                     ) -> Callable[[SparseTensor, Any], SparseTensor]:
    def binary_op_wrapper_sparse(sp_x: SparseTensor, y: Any) -> SparseTensor:
        with name_scope(None, op_name, [sp_x, y]) as scope:
            y = convert_to_tensor(y, dtype=sp_x.dtype.base_dtype, name="y")
            return SparseTensor(sp_x.indices,
                                func(sp_x.indices, sp_x.values, sp_x.dense_shape, y,
                                     name=scope),
                                sp_x.dense_shape)
    return binary_op_wrapper_sparse


SPARSE_OPERATORS["mul"] = _sparse_operator("mul", sparse_dense_cwise_mul)
SPARSE_OPERATORS["div"] = _sparse_operator("div", sparse_dense_cwise_div)
SPARSE_OPERATORS["truediv"] = _sparse_operator("truediv", _sparse_dense_truediv)


def dense_times_sparse(x: Any, sp_y: SparseTensor, name: Optional[str] = None
                       ) -> SparseTensor:
    """`dense * sparse` (TF's _mul_dispatch): the sparse operand's values scaled."""
    values = sparse_dense_cwise_mul(sp_y.indices, sp_y.values, sp_y.dense_shape, x, name=name)
    return SparseTensor(sp_y.indices, values, sp_y.dense_shape)
