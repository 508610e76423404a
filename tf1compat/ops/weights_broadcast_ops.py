"""Loss and metric weights: `assert_broadcastable` and `broadcast_weights`, as TF's
weights_broadcast_ops (weights must be a scalar or have the values' rank with each
dimension 1 or equal to the values'); the dynamic check uses `tf.sets` (set_ops.py).

A statically known shape is checked at graph build (ValueError, as TF) and leaves a
NoOp; otherwise TF's run-time Assert over a cond is built.
"""

from __future__ import annotations

from typing import Any


from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.set_ops import set_difference

__all__ = ["assert_broadcastable", "broadcast_weights"]

_PREFIX = "weights can not be broadcast to values."


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
