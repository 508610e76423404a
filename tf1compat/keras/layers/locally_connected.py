"""Keras LocallyConnected1D/2D: convolutions whose weights are not shared across positions.

`implementation=1` (the default) slices every output position's patch and multiplies it by
that position's kernel (`K.local_conv`); kernel [output positions, prod(kernel_size) *
in_channels, filters], bias [*output spatial shape, filters]; only "valid" padding.
`implementation=2` multiplies the flattened input by a dense kernel [*input spatial, in,
*output spatial, filters] (channels first: [in, *input spatial, filters, *output spatial])
masked to each output's receptive field. `implementation=3` (a sparse kernel) is not
supported (NotImplementedError).
"""

from __future__ import annotations

import itertools
from typing import Any, List, Tuple

import numpy as np

from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import activations, backend, regularizers
from tf1compat.keras.backend_nn import local_conv
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers import conv_utils
from tf1compat.keras.layers.weight_args import (add_bias, add_kernel, kernel_bias_config,
                                                set_kernel_bias_args)
from tf1compat.ops import array_ops, linalg_ops, reduction_ops

__all__ = ["LocallyConnected1D", "LocallyConnected2D"]


def _connectivity_mask(input_shape: Tuple[int, ...], kernel_size: Tuple[int, ...],
                       strides: Tuple[int, ...], padding: str,
                       data_format: str) -> np.ndarray:
    """0/1 float32 mask [*in, *out] of which input positions each output position sees,
    with the singleton channel axes inserted where the dense kernel has them."""
    out_shape = tuple(conv_utils.conv_output_length(n, k, padding, s)
                      for n, k, s in zip(input_shape, kernel_size, strides))
    mask = np.zeros(input_shape + out_shape, bool)
    for out_pos in itertools.product(*[range(n) for n in out_shape]):
        ranges = []
        for d, n in enumerate(input_shape):
            left = kernel_size[d] // 2
            center = out_pos[d] * strides[d] + (left if padding == "valid" else 0)
            ranges.append(range(max(0, center - left),
                                min(n, center + kernel_size[d] - left)))
        for in_pos in itertools.product(*ranges):
            mask[in_pos + out_pos] = True
    ndims = len(input_shape)
    if data_format == "channels_first":
        mask = np.expand_dims(np.expand_dims(mask, 0), -ndims - 1)
    else:
        mask = np.expand_dims(np.expand_dims(mask, ndims), -1)
    return mask.astype(np.float32)


class _LocallyConnected(Layer):
    """Unshared-weight convolution of rank `_RANK`."""

    _RANK = 0

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1,
                 padding: str = "valid", data_format: Any = None, activation: Any = None,
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None,
                 bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None,
                 implementation: int = 1, **kwargs: Any):
        super().__init__(**kwargs)
        rank = self._RANK
        self.filters = filters
        self.kernel_size = conv_utils.normalize_tuple(kernel_size, rank, "kernel_size")
        self.strides = conv_utils.normalize_tuple(strides, rank, "strides", allow_zero=True)
        self.padding = conv_utils.normalize_padding(padding)
        if self.padding != "valid" and implementation == 1:
            raise ValueError(f"Invalid border mode for {type(self).__name__} (only \"valid\" "
                             f"is supported if implementation is 1): {padding}")
        if implementation == 3:
            raise NotImplementedError(f"{type(self).__name__}(implementation=3) (a sparse "
                                      "kernel) is not supported by tf1compat; use 1 or 2")
        self.data_format = conv_utils.normalize_data_format(data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        set_kernel_bias_args(self, kernel_initializer, bias_initializer, kernel_regularizer,
                             bias_regularizer, kernel_constraint, bias_constraint)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.implementation = implementation
        self.input_spec = InputSpec(ndim=rank + 2)

    def _split_shape(self, input_shape: TensorShape) -> Tuple[List[Any], Any]:
        dims = input_shape.as_list()
        if self.data_format == "channels_first":
            return dims[2:], dims[1]
        return dims[1:-1], dims[-1]

    def build(self, input_shape: Any) -> None:
        input_shape = TensorShape(input_shape)
        spatial, input_dim = self._split_shape(input_shape)
        if input_dim is None or any(n is None for n in spatial):
            raise ValueError(f"The spatial and channel dimensions of the inputs to a "
                             f"{type(self).__name__} layer should be fully-defined, but "
                             f"layer received the inputs shape {input_shape}")
        out_spatial = [conv_utils.conv_output_length(n, k, self.padding, s)
                       for n, k, s in zip(spatial, self.kernel_size, self.strides)]
        if any(n <= 0 for n in out_spatial):
            raise ValueError("One of the dimensions in the output is <= 0 due to downsampling "
                             f"in {self.name}. Consider increasing the input size. Received "
                             f"input shape {input_shape} which would produce output shape "
                             "with a zero or negative value in a dimension.")
        self._out_spatial = tuple(out_spatial)
        if self.implementation == 1:
            kernel_shape: Tuple[int, ...] = (int(np.prod(out_spatial)),
                                             int(np.prod(self.kernel_size)) * input_dim,
                                             self.filters)
        elif self.data_format == "channels_first":
            kernel_shape = (input_dim, *spatial, self.filters, *out_spatial)
        else:
            kernel_shape = (*spatial, input_dim, *out_spatial, self.filters)
        if self.implementation == 2:
            self.kernel_mask = _connectivity_mask(tuple(spatial), self.kernel_size,
                                                  self.strides, self.padding,
                                                  self.data_format)
        elif self.implementation != 1:
            raise ValueError(f"Unrecognized implementation mode: {self.implementation}.")
        self.kernel_shape = kernel_shape
        self.kernel = add_kernel(self, kernel_shape)
        self.bias = add_bias(self, (*out_spatial, self.filters))
        channel_axis = 1 if self.data_format == "channels_first" else -1
        self.input_spec = InputSpec(ndim=self._RANK + 2, axes={channel_axis: input_dim})
        self.built = True

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        input_shape = TensorShape(input_shape)
        spatial, _ = self._split_shape(input_shape)
        out = [conv_utils.conv_output_length(n, k, self.padding, s)
               for n, k, s in zip(spatial, self.kernel_size, self.strides)]
        batch = input_shape.as_list()[0]
        if self.data_format == "channels_first":
            return TensorShape([batch, self.filters, *out])
        return TensorShape([batch, *out, self.filters])

    def _masked_matmul(self, inputs: Any) -> Any:
        """implementation=2: flattened inputs times the masked kernel made 2-D."""
        inputs_flat = array_ops.reshape(inputs, (array_ops.shape(inputs)[0], -1))
        kernel = self.kernel_mask * self.kernel
        shape = array_ops.shape(kernel)
        split = len(self.kernel_shape) // 2
        kernel = array_ops.reshape(kernel, (reduction_ops.reduce_prod(shape[:split]),
                                            reduction_ops.reduce_prod(shape[split:])))
        output_flat = linalg_ops.matmul(inputs_flat, kernel, b_is_sparse=True)
        out_shape = self.compute_output_shape(inputs.shape).as_list()
        return array_ops.reshape(output_flat, [array_ops.shape(output_flat)[0]] +
                                 out_shape[1:])

    def call(self, inputs: Any) -> Any:
        if self.implementation == 1:
            output = local_conv(inputs, self.kernel, self.kernel_size, self.strides,
                                self._out_spatial, self.data_format)
        else:
            output = self._masked_matmul(inputs)
        if self.use_bias:
            output = backend.bias_add(output, self.bias, data_format=self.data_format)
        return self.activation(output)

    def get_config(self) -> dict:
        config = {
            "filters": self.filters, "kernel_size": self.kernel_size, "strides": self.strides,
            "padding": self.padding, "data_format": self.data_format,
            "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
            **kernel_bias_config(self),
            "implementation": self.implementation}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class LocallyConnected1D(_LocallyConnected):
    """`tf.keras.layers.LocallyConnected1D`."""

    _RANK = 1


class LocallyConnected2D(_LocallyConnected):
    """`tf.keras.layers.LocallyConnected2D`."""

    _RANK = 2
