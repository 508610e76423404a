"""Loss and metric weights: `assert_broadcastable` and `broadcast_weights`, as TF's
weights_broadcast_ops (weights must be a scalar or have the values' rank with each
dimension 1 or equal to the values'), and the set operation their dynamic check uses
(`DenseToDenseSetOperation`, TF's `sets.set_difference` on dense inputs).

A statically known shape is checked at graph build (ValueError, as TF) and leaves a
NoOp; otherwise TF's run-time Assert over a cond is built.
"""

from __future__ import annotations

from typing import Any, Callable, List

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import apply_op, control_dependencies, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["assert_broadcastable", "broadcast_weights", "set_difference"]

_PREFIX = "weights can not be broadcast to values."

_SET_TYPES = (D.int8, D.int16, D.int32, D.int64, D.uint8, D.uint16, D.string)


# -- DenseToDenseSetOperation ----------------------------------------------------------------------

def _set_shape(ctx: Any) -> List[TensorShape]:
    rank = ctx.shape(0).rank
    return [TensorShape([None, rank]), TensorShape([None]), TensorShape([rank])]


def _set_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    operation = node.attrs["set_operation"].lower()
    if operation not in ("a-b", "b-a", "intersection", "union"):
        raise ValueError(f"Invalid set_operation {operation}.")
    device = kctx.device

    def combine(a: set, b: set) -> set:
        if operation == "a-b":
            return a - b
        if operation == "b-a":
            return b - a
        if operation == "intersection":
            return a & b
        return a | b

    def set_operation(set1: Any, set2: Any) -> tuple:
        x = np.asarray(set1.cpu() if isinstance(set1, torch.Tensor) else set1)
        y = np.asarray(set2.cpu() if isinstance(set2, torch.Tensor) else set2)
        if x.ndim < 2 or y.ndim < 2:
            raise ValueError("Invalid rank for set inputs: sets need rank >= 2.")
        if x.shape[:-1] != y.shape[:-1]:
            raise ValueError(f"Shape mismatch: {x.shape} vs {y.shape}.")
        lead = x.shape[:-1]
        rows_x = x.reshape(-1, x.shape[-1])
        rows_y = y.reshape(-1, y.shape[-1])
        indices, values, width = [], [], 0
        for r, (row_x, row_y) in enumerate(zip(rows_x, rows_y)):
            found = sorted(combine(set(row_x.tolist()), set(row_y.tolist())))
            width = max(width, len(found))
            where = list(np.unravel_index(r, lead)) if lead else []
            for k, value in enumerate(found):
                indices.append(where + [k])
                values.append(value)
        rank = len(lead) + 1
        index_t = torch.tensor(indices, dtype=torch.int64, device=device).reshape(-1, rank)
        if node.attrs["T"] == D.string:
            value_t = np.empty(len(values), dtype=object)
            value_t[:] = values
        else:
            value_t = torch.tensor(values, dtype=node.attrs["T"].torch_dtype, device=device)
        shape_t = torch.tensor(list(lead) + [width], dtype=torch.int64, device=device)
        return index_t, value_t, shape_t
    return set_operation


declare("DenseToDenseSetOperation", inputs=["set1: T", "set2: T"],
        outputs=["result_indices: int64", "result_values: T", "result_shape: int64"],
        attrs={"set_operation": "", "validate_indices": True, "T": Type(_SET_TYPES)},
        shape=_set_shape, kernel=_set_kernel, grad="none", cpu_only=True)


def set_difference(a: Any, b: Any, aminusb: bool = True, validate_indices: bool = True
                   ) -> Any:
    """`tf.sets.difference` of two dense tensors: a SparseTensor of each last-dimension
    row's set difference, sorted."""
    from tf1compat.framework.sparse_tensor import SparseTensor
    a = convert_to_tensor(a, name="a")
    b = convert_to_tensor(b, name="b", dtype=a.dtype)
    op = apply_op("DenseToDenseSetOperation", [a, b],
                  {"set_operation": "a-b" if aminusb else "b-a",
                   "validate_indices": validate_indices})
    return SparseTensor(*op._outputs)


# -- weights ----------------------------------------------------------------------------------------

def _has_valid_dims(weights_shape: Tensor, values_shape: Tensor) -> Tensor:
    from tf1compat.ops.array_ops import concat, expand_dims, size
    from tf1compat.ops.creation_ops import ones_like
    from tf1compat.ops.math_ops import equal
    with name_scope(None, "has_invalid_dims", (weights_shape, values_shape)) as scope:
        values_shape_2d = expand_dims(values_shape, -1)
        valid_dims = concat((values_shape_2d, ones_like(values_shape_2d)), axis=1)
        weights_shape_2d = expand_dims(weights_shape, -1)
        invalid_dims = set_difference(weights_shape_2d, valid_dims)
        num_invalid_dims = size(invalid_dims.values, name="num_invalid_dims")
        return equal(0, num_invalid_dims, name=scope)


def _has_valid_nonscalar_shape(weights_rank: Tensor, weights_shape: Tensor,
                               values_rank: Tensor, values_shape: Tensor) -> Tensor:
    from tf1compat.ops.cond import cond
    from tf1compat.ops.math_ops import equal
    with name_scope(None, "has_valid_nonscalar_shape",
                    (weights_rank, weights_shape, values_rank, values_shape)) as scope:
        is_same_rank = equal(values_rank, weights_rank, name="is_same_rank")
        return cond(is_same_rank, lambda: _has_valid_dims(weights_shape, values_shape),
                    lambda: is_same_rank, name=scope)


def assert_broadcastable(weights: Any, values: Any) -> Any:
    """An op asserting `weights` broadcast to `values`; ValueError at graph build when
    the static shapes already tell."""
    from tf1compat.ops.array_ops import rank, shape
    from tf1compat.ops.cond import cond
    from tf1compat.ops.control_flow_ops import no_op
    from tf1compat.ops.logging_ops import Assert
    from tf1compat.ops.math_ops import equal
    with name_scope(None, "assert_broadcastable", (weights, values)) as scope:
        with name_scope(None, "weights", (weights,)) as weights_scope:
            weights = convert_to_tensor(weights, name=weights_scope)
            weights_shape = shape(weights, name="shape")
            weights_rank = rank(weights, name="rank")
        weights_rank_static = constant_value(weights_rank)
        with name_scope(None, "values", (values,)) as values_scope:
            values = convert_to_tensor(values, name=values_scope)
            values_shape = shape(values, name="shape")
            values_rank = rank(values, name="rank")
        values_rank_static = constant_value(values_rank)
        if weights_rank_static is not None and values_rank_static is not None:
            if int(weights_rank_static) == 0:
                return no_op(name="static_scalar_check_success")
            if int(weights_rank_static) != int(values_rank_static):
                raise ValueError(
                    f"{_PREFIX} values.rank={int(values_rank_static)}. "
                    f"weights.rank={int(weights_rank_static)}. values.shape={values.shape}. "
                    f"weights.shape={weights.shape}. Received weights={weights}, "
                    f"values={values}")
            weights_shape_static = constant_value(weights_shape)
            values_shape_static = constant_value(values_shape)
            if weights_shape_static is not None and values_shape_static is not None:
                for i, (w, v) in enumerate(zip(weights_shape_static.tolist(),
                                               values_shape_static.tolist())):
                    if w not in (1, v):
                        raise ValueError(
                            f"{_PREFIX} Mismatch at dim {i}. values.shape="
                            f"{values_shape_static}, weights.shape={weights_shape_static}. "
                            f"Received weights={weights}, values={values}")
                return no_op(name="static_dims_check_success")
        is_scalar = equal(0, weights_rank, name="is_scalar")
        data = (_PREFIX, "weights.shape=", weights.name, weights_shape, "values.shape=",
                values.name, values_shape, "is_scalar=", is_scalar)
        is_valid_shape = cond(is_scalar, lambda: is_scalar,
                              lambda: _has_valid_nonscalar_shape(weights_rank, weights_shape,
                                                                 values_rank, values_shape),
                              name="is_valid_shape")
        return Assert(is_valid_shape, data, name=scope)


def broadcast_weights(weights: Any, values: Any) -> Tensor:
    """`weights` broadcast to the shape of `values` (checked by assert_broadcastable)."""
    from tf1compat.ops.creation_ops import ones_like
    from tf1compat.ops.math_ops import multiply
    with name_scope(None, "broadcast_weights", (weights, values)) as scope:
        values = convert_to_tensor(values, name="values")
        weights = convert_to_tensor(weights, dtype=values.dtype.base_dtype, name="weights")
        if weights.shape.is_fully_defined() and values.shape.is_fully_defined() and \
                weights.shape.is_compatible_with(values.shape):
            return weights
        with control_dependencies((assert_broadcastable(weights, values),)):
            return multiply(weights, ones_like(values), name=scope)
