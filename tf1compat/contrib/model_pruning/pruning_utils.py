"""`tf.contrib.model_pruning`'s helpers (TF 1.15 pruning_utils.py): the mask and threshold
variables of a weight, block expansion of a mask (each entry repeated over a block, as a
Kronecker product with ones), factorized pooling and the assign ops of a mask update."""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, nn_pool
from tf1compat.ops.control_flow_ops import group
from tf1compat.ops.indexing_ops import scatter_nd
from tf1compat.ops.transform_ops import tile, transpose
from tf1compat.ops.state_ops import assign
from tf1compat.variables.init_ops import Ones, Zeros
from tf1compat.variables.variable_scope import get_variable, variable_scope

__all__ = ["weight_mask_variable", "weight_threshold_variable", "kronecker_product",
           "expand_tensor", "factorized_pool", "determine_partitioned_axis",
           "variable_assign", "partitioned_variable_assign"]


def weight_mask_variable(var: Any, scope: Any) -> Any:
    """The non-trainable variable `<scope>/mask` of `var`'s shape and dtype, all ones."""
    with variable_scope(scope):
        return get_variable("mask", var.get_shape(), initializer=Ones(), trainable=False,
                            dtype=var.dtype)


def weight_threshold_variable(var: Any, scope: Any) -> Any:
    """The non-trainable scalar variable `<scope>/threshold` of `var`'s dtype, zero."""
    with variable_scope(scope):
        return get_variable("threshold", [], initializer=Zeros(), trainable=False,
                            dtype=var.dtype)


def kronecker_product(mat1: Any, mat2: Any) -> Any:
    """The Kronecker product of two matrices of static shapes (m x n, p x q -> mp x nq)."""
    m1, n1 = mat1.get_shape().as_list()
    m2, n2 = mat2.get_shape().as_list()
    product = array_ops.reshape(mat1, [m1, 1, n1, 1]) * array_ops.reshape(mat2, [1, m2, 1, n2])
    return array_ops.reshape(product, [m1 * m2, n1 * n2])


def _replicate_rows(tensor: Any, multiple: int) -> Any:
    """Each row of `tensor` repeated `multiple` times in place: TF tiles the rows and
    scatters copy k of row r to row r * multiple + k."""
    rows, cols = tensor.shape.as_list()
    indices = np.array([[r * multiple + k] for k in range(multiple) for r in range(rows)],
                       dtype=np.int32)
    return scatter_nd(constant(indices), tile(tensor, [multiple, 1]),
                      [rows * multiple, cols])


def expand_tensor(tensor: Any, block_dims: Sequence[int]) -> Any:
    """A 2-D tensor with each entry repeated over a block_height x block_width block."""
    if tensor.get_shape().ndims != 2:
        raise ValueError("Input tensor must be rank 2")
    if len(block_dims) != 2:
        raise ValueError("block_dims must have 2 elements")
    block_height, block_width = block_dims
    expanded = tensor
    if block_height > 1:
        expanded = _replicate_rows(tensor, block_height)
    if block_width > 1:
        expanded = transpose(
            _replicate_rows(transpose(expanded), block_width))
    return expanded


def factorized_pool(input_tensor: Any, window_shape: Sequence[int], pooling_type: str,
                    strides: Sequence[int], padding: str, name: Optional[str] = None) -> Any:
    """m x n pooling of a matrix as a 1 x m pooling down the rows, then 1 x n across."""
    if input_tensor.get_shape().ndims != 2:
        raise ValueError("factorized_pool() accepts tensors of rank 2 only")
    height, width = input_tensor.get_shape()
    with name_scope(name, "factorized_pool"):
        aligned = array_ops.reshape(input_tensor, [1, 1, height, width],
                                    name=input_tensor.op.name + "_aligned")
        pooled = nn_pool.pool(aligned, window_shape=[1, window_shape[0]],
                              pooling_type=pooling_type, strides=[1, strides[0]],
                              padding=padding)
        swapped = transpose(pooled, perm=[0, 1, 3, 2])
        pooled = nn_pool.pool(swapped, window_shape=[1, window_shape[1]],
                              pooling_type=pooling_type, strides=[1, strides[1]],
                              padding=padding)
    return array_ops.squeeze(transpose(pooled, perm=[0, 1, 3, 2]), axis=[0, 1])


def determine_partitioned_axis(partitioned_variable: Any) -> int:
    """The one axis along which a partitioned variable is split."""
    axis = 0
    full = partitioned_variable.get_shape()
    for partition in partitioned_variable:
        smaller = np.less(partition.get_shape(), full)
        if np.count_nonzero(smaller) != 1:
            raise ValueError("Number of partitioned axes %s not equal to 1"
                             % np.count_nonzero(smaller))
        axis = int(np.where(smaller)[0][0])
    return axis


def variable_assign(var: Any, new_value: Any) -> Any:
    """`var.assign(new_value)` named `<var>_assign`."""
    return assign(var, new_value, name=var.op.name + "_assign")


def partitioned_variable_assign(partitioned_var: Any, new_value: Any) -> Any:
    """One assign per partition of `new_value` split along the partitioned axis, grouped
    as `<var name>_group_assign`."""
    axis = 0 if len(partitioned_var) == 1 else determine_partitioned_axis(partitioned_var)
    sizes = np.array([p.get_shape()[axis] for p in partitioned_var])
    parts = array_ops.split(new_value, convert_to_tensor(sizes, dtype=D.int32), axis=axis)
    updates = [variable_assign(p, parts[i]) for i, p in enumerate(partitioned_var)]
    return group(*updates, name=partitioned_var.name + "_group_assign")
