"""`tf.contrib.framework`'s tensor helpers (TF 1.15's contrib/framework/python/framework/
tensor_util.py): `reduce_sum_n`, `remove_squeezable_dimensions` (contrib's argument order:
predictions first), `with_shape`, `with_same_shape`, `assert_scalar_int`."""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import math_ops
from tf1compat.ops.array_ops import identity, rank, reshape, shape, size, squeeze
from tf1compat.ops.check_ops import assert_scalar
from tf1compat.ops.cond import cond
from tf1compat.ops.logging_ops import Assert
from tf1compat.ops.reduction_ops import reduce_all, reduce_sum

__all__ = ["reduce_sum_n", "remove_squeezable_dimensions", "with_shape", "with_same_shape",
           "assert_scalar_int"]


def reduce_sum_n(tensors: Sequence[Any], name: Optional[str] = None) -> Tensor:
    """The sum of every element of every tensor: each reduced to a scalar named
    `<op name>/sum`, then added (`add_n` named after the scope) when there are several."""
    if not tensors:
        raise ValueError("No tensors provided.")
    with name_scope(name, "reduce_sum_n", tensors) as scope:
        sums = [reduce_sum(t, name=f"{t.op.name}/sum") for t in tensors]
        if len(sums) == 1:
            return sums[0]
        return math_ops.add_n(sums, name=scope)


def remove_squeezable_dimensions(predictions: Any, labels: Any, name: Optional[str] = None
                                 ) -> Tuple[Tensor, Tensor]:
    """Squeezes the last dimension of whichever of `predictions`/`labels` has rank one
    higher; by the static ranks when both are known, else with a `cond` on the run-time
    ranks (for a side whose last dimension may be 1)."""
    with name_scope(name, "remove_squeezable_dimensions", [predictions, labels]):
        predictions = convert_to_tensor(predictions)
        labels = convert_to_tensor(labels)
        pred_shape, label_shape = predictions.get_shape(), labels.get_shape()
        pred_rank, label_rank = pred_shape.ndims, label_shape.ndims
        if pred_rank is not None and label_rank is not None:
            if pred_rank - label_rank == -1:
                labels = squeeze(labels, [-1])
            elif pred_rank - label_rank == 1:
                predictions = squeeze(predictions, [-1])
            return predictions, labels
        rank_diff = rank(predictions) - rank(labels)
        if pred_rank is None or pred_shape.dims[-1].is_compatible_with(1):
            squeezable = predictions
            predictions = cond(math_ops.equal(1, rank_diff),
                               lambda: squeeze(squeezable, [-1]), lambda: squeezable)
        if label_rank is None or label_shape.dims[-1].is_compatible_with(1):
            squeezable_labels = labels
            labels = cond(math_ops.equal(-1, rank_diff),
                          lambda: squeeze(squeezable_labels, [-1]),
                          lambda: squeezable_labels)
        return predictions, labels


def _assert_shape_op(expected_shape: Any, tensor: Tensor) -> Any:
    """An Assert that `tensor`'s run-time shape is `expected_shape` (-1: any size)."""
    with name_scope("assert_shape", values=[tensor]) as scope:
        actual_shape = shape(tensor, name="actual")
        if isinstance(expected_shape, TensorShape) and not expected_shape.is_fully_defined():
            expected_shape = [d if d else -1 for d in expected_shape.as_list()]
        with name_scope("is_shape", values=[tensor]) as is_shape_scope:
            with name_scope("is_rank", values=[tensor]) as is_rank_scope:
                expected_rank = convert_to_tensor(size(expected_shape), name="expected")
                is_rank = math_ops.equal(expected_rank, rank(tensor, name="actual"),
                                         name=is_rank_scope)
            with name_scope("shape_tensor_equal",
                            values=[expected_shape, actual_shape]) as equal_scope:
                shape_equal = reduce_all(
                    math_ops.logical_or(math_ops.equal(expected_shape, -1),
                                        math_ops.equal(expected_shape, actual_shape, "equal"),
                                        name="exclude_partial_shape"),
                    name=equal_scope)
            is_shape = math_ops.logical_and(is_rank, shape_equal, name=is_shape_scope)
        return Assert(is_shape, [f"Wrong shape for {tensor.name} [expected] [actual].",
                                 expected_shape, actual_shape], name=scope)


def _checked_expected_shape(expected_shape: Any, tensor: Tensor) -> Any:
    if isinstance(expected_shape, Tensor):
        if expected_shape.dtype.base_dtype != D.int32:
            raise ValueError(f"Invalid dtype {expected_shape.dtype} for shape "
                             f"{expected_shape} expected of tensor {tensor.name}.")
        return expected_shape
    if isinstance(expected_shape, (list, tuple)):
        if not expected_shape:
            expected_shape = np.asarray([], dtype=np.int32)
        else:
            as_array = np.asarray(expected_shape)
            expected_shape = (np.asarray(expected_shape, dtype=np.int32)
                              if as_array.dtype == np.int64 else as_array)
    if isinstance(expected_shape, np.ndarray):
        if expected_shape.ndim > 1:
            raise ValueError(f"Invalid rank {expected_shape.ndim} for shape {expected_shape} "
                             f"expected of tensor {tensor.name}.")
        if expected_shape.dtype != np.int32:
            raise ValueError(f"Invalid dtype {expected_shape.dtype} for shape "
                             f"{expected_shape} expected of tensor {tensor.name}.")
    return expected_shape


def with_shape(expected_shape: Any, tensor: Any) -> Tensor:
    """`tensor`, checked to have `expected_shape` (ints, -1 for any size, or an int32
    tensor): statically where both shapes are known (ValueError), else through an Assert
    the returned identity depends on; an empty expected shape reshapes to a scalar."""
    if isinstance(tensor, SparseTensor):
        raise ValueError("SparseTensor not supported.")
    expected_shape = _checked_expected_shape(expected_shape, tensor)
    actual_shape = tensor.get_shape()
    expected_is_tensor = isinstance(expected_shape, Tensor)
    if not actual_shape.is_fully_defined() or expected_is_tensor:
        with name_scope(f"{tensor.op.name}/", values=[tensor]):
            if not expected_is_tensor and len(expected_shape) < 1:
                return reshape(tensor, [])
            with control_dependencies([_assert_shape_op(expected_shape, tensor)]):
                result = identity(tensor)
            if not expected_is_tensor:
                result.set_shape(expected_shape)
            return result
    if not actual_shape.is_compatible_with(expected_shape):
        if len(expected_shape) < 1 and actual_shape.is_compatible_with([1]):
            with name_scope(f"{tensor.op.name}/", values=[tensor]):
                return reshape(tensor, [])
        raise ValueError(f"Invalid shape for tensor {tensor.name}, expected "
                         f"{expected_shape}, got {actual_shape}.")
    return tensor


def with_same_shape(expected_tensor: Tensor, tensor: Tensor) -> Tensor:
    """`with_shape` against `expected_tensor`'s shape (its static shape when fully known,
    else its run-time `expected_shape`)."""
    with name_scope(f"{tensor.op.name}/", values=[expected_tensor, tensor]):
        static = expected_tensor.get_shape()
        expected_shape = (static.as_list() if static.is_fully_defined()
                          else shape(expected_tensor, name="expected_shape"))
        return with_shape(expected_shape, tensor)


def assert_scalar_int(tensor: Any, name: Optional[str] = None) -> Tensor:
    """`tensor` checked (at graph build) to be an integer scalar."""
    with name_scope(name, "assert_scalar_int", [tensor]) as scope:
        tensor = convert_to_tensor(tensor)
        data_type = tensor.dtype
        if not data_type.base_dtype.is_integer:
            raise ValueError(f"Expected integer type for {tensor.name}, received type: "
                             f"{data_type}.")
        return assert_scalar(tensor, name=scope)

