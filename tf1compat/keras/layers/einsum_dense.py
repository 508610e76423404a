"""`tf.keras.layers.EinsumDense` (also `layers.experimental.EinsumDense`): a dense layer
whose contraction is an einsum equation "input,kernel->output" (optionally with "..." at
the left or right of the input and output), the kernel's shape read off the equation, the
input shape and the partial `output_shape`, and a bias over `bias_axes` of the output.
"""

from __future__ import annotations

import re
from typing import Any, List, Optional, Tuple

from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import activations, regularizers
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.layers.weight_args import (add_bias, add_kernel, kernel_bias_config,
                                                set_kernel_bias_args)
from tf1compat.ops.linalg_ops import einsum

__all__ = ["EinsumDense"]


def analyze_einsum_string(equation: str, bias_axes: Optional[str], input_shape: TensorShape,
                          output_shape: Any) -> Tuple[List[Any], Optional[List[Any]],
                                                      List[Any]]:
    """(kernel shape, bias shape or None, full output shape) for an EinsumDense equation."""
    dot_replaced = re.sub(r"\.\.\.", "0", equation)
    forms = (("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)", False),
             ("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)", True),
             ("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0", False))
    for pattern, left_elided in forms:
        match = re.match(pattern, dot_replaced)
        if match:
            return _analyze_split(match.group(1), match.group(2), match.group(3), bias_axes,
                                  input_shape, output_shape, left_elided)
    raise ValueError(f"Invalid einsum equation '{equation}'. Equations must be in the form "
                     "[X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")


def _analyze_split(input_spec: str, weight_spec: str, output_spec: str,
                   bias_axes: Optional[str], input_shape: TensorShape, output_shape: Any,
                   left_elided: bool) -> Tuple[List[Any], Optional[List[Any]], List[Any]]:
    dims = input_shape.as_list()
    elided = len(dims) - len(input_spec)
    output_shape = [output_shape] if isinstance(output_shape, int) else list(output_shape)
    output_shape.insert(0, dims[0])
    if elided > 0 and left_elided:
        for i in range(1, elided):
            output_shape.insert(1, dims[i])
    elif elided > 0:
        for i in range(len(dims) - elided, len(dims)):
            output_shape.append(dims[i])
    if left_elided:
        input_dim_map = {dim: (i + elided) - len(dims) for i, dim in enumerate(input_spec)}
        output_dim_map = {dim: i + elided for i, dim in enumerate(output_spec)}
    else:
        input_dim_map = {dim: i for i, dim in enumerate(input_spec)}
        output_dim_map = {dim: i for i, dim in enumerate(output_spec)}
    for dim in input_spec:
        in_size = dims[input_dim_map[dim]]
        if dim in output_dim_map:
            out_size = output_shape[output_dim_map[dim]]
            if out_size is not None and out_size != in_size:
                raise ValueError(f"Input shape and output shape do not match at shared "
                                 f"dimension '{dim}'. Input shape is {in_size}, and output "
                                 f"shape is {out_size}.")
    for dim in output_spec:
        if dim not in input_spec and dim not in weight_spec:
            raise ValueError(f"Dimension '{dim}' was specified in the output '{output_spec}' "
                             f"but has no corresponding dim in the input spec '{input_spec}' "
                             f"or weight spec '{output_spec}'")
    weight_shape = []
    for dim in weight_spec:
        if dim in input_dim_map:
            weight_shape.append(dims[input_dim_map[dim]])
        elif dim in output_dim_map:
            weight_shape.append(output_shape[output_dim_map[dim]])
        else:
            raise ValueError(f"Weight dimension '{dim}' did not have a match in either the "
                             f"input spec '{input_spec}' or the output spec '{output_spec}'. "
                             "For this layer, the weight must be fully specified.")
    bias_shape: Optional[List[Any]] = None
    if bias_axes is not None:
        num_left_elided = elided if left_elided else 0
        idx_map = {char: output_shape[i + num_left_elided]
                   for i, char in enumerate(output_spec)}
        for char in bias_axes:
            if char not in output_spec:
                raise ValueError(f"Bias dimension '{char}' was requested, but is not part of "
                                 f"the output spec '{output_spec}'")
        first = min(output_spec.find(char) for char in bias_axes)
        bias_shape = [idx_map[char] if char in bias_axes else 1
                      for char in output_spec[first:]]
        if not left_elided:
            bias_shape += [1] * elided
    return weight_shape, bias_shape, output_shape


class EinsumDense(Layer):
    """`einsum(equation, inputs, kernel) + bias`, then the activation."""

    def __init__(self, equation: str, output_shape: Any, activation: Any = None,
                 bias_axes: Optional[str] = None, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None,
                 bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.equation = equation
        self.partial_output_shape = [output_shape] if isinstance(output_shape, int) \
            else list(output_shape)
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        set_kernel_bias_args(self, kernel_initializer, bias_initializer, kernel_regularizer,
                             bias_regularizer, kernel_constraint, bias_constraint)
        self.activity_regularizer = regularizers.get(activity_regularizer)

    def build(self, input_shape: Any) -> None:
        kernel_shape, bias_shape, self.full_output_shape = analyze_einsum_string(
            self.equation, self.bias_axes, TensorShape(input_shape), self.partial_output_shape)
        self.kernel = add_kernel(self, kernel_shape)
        self.use_bias = bias_shape is not None
        self.bias = add_bias(self, bias_shape)
        self.built = True

    def compute_output_shape(self, _: Any) -> TensorShape:
        return TensorShape(self.full_output_shape)

    def call(self, inputs: Any) -> Any:
        ret = einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            ret += self.bias
        if self.activation is not None:
            ret = self.activation(ret)
        return ret

    def get_config(self) -> dict:
        config = {
            "output_shape": self.partial_output_shape, "equation": self.equation,
            "activation": activations.serialize(self.activation), "bias_axes": self.bias_axes,
            **kernel_bias_config(self)}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))
