"""Keras separable and depthwise convolutions: SeparableConv1D/2D, DepthwiseConv1D/2D.

Separable: a depthwise kernel [*kernel_size, in, depth_multiplier] then a pointwise kernel
[1.., in * depth_multiplier, filters] (`tf.nn.separable_conv2d`). Depthwise: only the
depthwise kernel, bias [in * depth_multiplier]. The 1-D layers run the 2-D ops on an
inserted spatial axis (strides repeated on it, dilation 1), as tf-keras does.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import constraints, initializers, regularizers
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers import conv_utils
from tf1compat.keras.layers.convolutional import Conv
from tf1compat.keras.layers.weight_args import add_bias
from tf1compat.ops import array_ops, nn_conv
from tf1compat.ops.nn_ops import bias_add

__all__ = ["SeparableConv1D", "SeparableConv2D", "SeparableConvolution1D",
           "SeparableConvolution2D", "DepthwiseConv1D", "DepthwiseConv2D"]


def _channel_dim(layer: Conv, input_shape: TensorShape) -> int:
    channel_axis = layer._get_channel_axis()
    if input_shape.dims[channel_axis].value is None:
        raise ValueError(f"The channel dimension of the inputs to `{type(layer).__name__}` "
                         f"should be defined. The input_shape received is {input_shape}, "
                         f"where axis {channel_axis} (0-based) is the channel dimension, "
                         "which found to be `None`.")
    return int(input_shape[channel_axis])


def _finish(layer: Conv, outputs: Any, fmt: str, squeeze_axis: Optional[int]) -> Any:
    """Bias, the 1-D layers' squeeze of the inserted axis, and the activation."""
    if layer.use_bias:
        outputs = bias_add(outputs, layer.bias, data_format=fmt)
    if squeeze_axis is not None:
        outputs = array_ops.squeeze(outputs, [squeeze_axis])
    if layer.activation is not None:
        return layer.activation(outputs)
    return outputs


def _as_2d(layer: Conv, inputs: Any) -> Any:
    """A 1-D layer's inputs with the inserted spatial axis, the 2-D op's strides (the
    stride repeated on both axes) and where the inserted axis is."""
    if layer.data_format == "channels_last":
        strides = (1,) + layer.strides * 2 + (1,)
        spatial_start_dim = 1
    else:
        strides = (1, 1) + layer.strides * 2
        spatial_start_dim = 2
    return array_ops.expand_dims(inputs, spatial_start_dim), strides, spatial_start_dim


class _SeparableConv(Conv):
    """Depthwise convolution then a 1x1 pointwise convolution, of rank `_RANK`."""

    _RANK = 0

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1,
                 padding: str = "valid", data_format: Optional[str] = None,
                 dilation_rate: Any = 1, depth_multiplier: int = 1, activation: Any = None,
                 use_bias: bool = True, depthwise_initializer: Any = "glorot_uniform",
                 pointwise_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", depthwise_regularizer: Any = None,
                 pointwise_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, depthwise_constraint: Any = None,
                 pointwise_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any):
        super().__init__(rank=self._RANK, filters=filters, kernel_size=kernel_size,
                         strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation,
                         use_bias=use_bias, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         bias_constraint=bias_constraint, **kwargs)
        self.depth_multiplier = depth_multiplier
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.pointwise_constraint = constraints.get(pointwise_constraint)

    def build(self, input_shape: Any) -> None:
        input_shape = TensorShape(input_shape)
        input_dim = _channel_dim(self, input_shape)
        self.input_spec = InputSpec(ndim=self.rank + 2,
                                    axes={self._get_channel_axis(): input_dim})
        self.depthwise_kernel = self.add_weight(
            name="depthwise_kernel", shape=self.kernel_size + (input_dim,
                                                               self.depth_multiplier),
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint, trainable=True, dtype=self.dtype)
        self.pointwise_kernel = self.add_weight(
            name="pointwise_kernel",
            shape=(1,) * self.rank + (self.depth_multiplier * input_dim, self.filters),
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint, trainable=True, dtype=self.dtype)
        self.bias = add_bias(self, (self.filters,))
        self.built = True

    def get_config(self) -> dict:
        # tf-keras keeps Conv's kernel_* entries (unused) next to the separable ones.
        config = super().get_config()
        config.update({
            "depth_multiplier": self.depth_multiplier,
            "depthwise_initializer": initializers.serialize(self.depthwise_initializer),
            "pointwise_initializer": initializers.serialize(self.pointwise_initializer),
            "depthwise_regularizer": regularizers.serialize(self.depthwise_regularizer),
            "pointwise_regularizer": regularizers.serialize(self.pointwise_regularizer),
            "depthwise_constraint": constraints.serialize(self.depthwise_constraint),
            "pointwise_constraint": constraints.serialize(self.pointwise_constraint)})
        return config


class SeparableConv1D(_SeparableConv):
    """`tf.keras.layers.SeparableConv1D` (a 2-D separable convolution on an inserted axis)."""

    _RANK = 1

    def call(self, inputs: Any) -> Any:
        from tf1compat.ops.transform_ops import pad
        if self.padding == "causal":
            inputs = pad(inputs, self._compute_causal_padding(inputs))
        inputs, strides, spatial_start_dim = _as_2d(self, inputs)
        depthwise_kernel = array_ops.expand_dims(self.depthwise_kernel, 0)
        pointwise_kernel = array_ops.expand_dims(self.pointwise_kernel, 0)
        dilation_rate = (1,) + self.dilation_rate
        op_padding = "valid" if self.padding == "causal" else self.padding
        fmt = conv_utils.convert_data_format(self.data_format, ndim=4)
        outputs = nn_conv.separable_conv2d(inputs, depthwise_kernel, pointwise_kernel,
                                           strides=strides, padding=op_padding.upper(),
                                           rate=dilation_rate, data_format=fmt)
        return _finish(self, outputs, fmt, spatial_start_dim)


class SeparableConv2D(_SeparableConv):
    """`tf.keras.layers.SeparableConv2D`."""

    _RANK = 2

    def call(self, inputs: Any) -> Any:
        if self.data_format == "channels_last":
            strides = (1,) + self.strides + (1,)
        else:
            strides = (1, 1) + self.strides
        fmt = conv_utils.convert_data_format(self.data_format, ndim=4)
        outputs = nn_conv.separable_conv2d(inputs, self.depthwise_kernel,
                                           self.pointwise_kernel, strides=strides,
                                           padding=self.padding.upper(),
                                           rate=self.dilation_rate, data_format=fmt)
        return _finish(self, outputs, fmt, None)


class _DepthwiseConv(Conv):
    """Depthwise convolution of rank `_RANK` (each input channel convolved separately)."""

    _RANK = 0

    def __init__(self, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 depth_multiplier: int = 1, data_format: Optional[str] = None,
                 dilation_rate: Any = 1, activation: Any = None, use_bias: bool = True,
                 depthwise_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", depthwise_regularizer: Any = None,
                 bias_regularizer: Any = None, activity_regularizer: Any = None,
                 depthwise_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any):
        super().__init__(self._RANK, filters=None, kernel_size=kernel_size, strides=strides,
                         padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation,
                         use_bias=use_bias, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         bias_constraint=bias_constraint, **kwargs)
        self.depth_multiplier = depth_multiplier
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.bias_initializer = initializers.get(bias_initializer)

    def build(self, input_shape: Any) -> None:
        if len(input_shape) != self.rank + 2:
            raise ValueError(f"Inputs to `DepthwiseConv` should have rank {self.rank + 2}. "
                             f"Received input_shape={input_shape}.")
        input_shape = TensorShape(input_shape)
        input_dim = _channel_dim(self, input_shape)
        self.depthwise_kernel = self.add_weight(
            shape=self.kernel_size + (input_dim, self.depth_multiplier),
            initializer=self.depthwise_initializer, name="depthwise_kernel",
            regularizer=self.depthwise_regularizer, constraint=self.depthwise_constraint)
        self.bias = add_bias(self, (input_dim * self.depth_multiplier,))
        self.input_spec = InputSpec(min_ndim=self.rank + 2,
                                    axes={self._get_channel_axis(): input_dim})
        self.built = True

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        dims = TensorShape(input_shape).as_list()
        first = 2 if self.data_format == "channels_first" else 1
        c_axis = 1 if self.data_format == "channels_first" else self.rank + 1
        out = list(dims)
        out[c_axis] = None if dims[c_axis] is None else dims[c_axis] * self.depth_multiplier
        for i in range(self.rank):
            out[first + i] = conv_utils.conv_output_length(
                dims[first + i], self.kernel_size[i], self.padding, self.strides[i],
                self.dilation_rate[i])
        return TensorShape(out)

    def get_config(self) -> dict:
        config = super().get_config()
        for key in ("filters", "kernel_initializer", "kernel_regularizer", "kernel_constraint"):
            config.pop(key)
        config.update({
            "depth_multiplier": self.depth_multiplier,
            "depthwise_initializer": initializers.serialize(self.depthwise_initializer),
            "depthwise_regularizer": regularizers.serialize(self.depthwise_regularizer),
            "depthwise_constraint": constraints.serialize(self.depthwise_constraint)})
        return config


class DepthwiseConv1D(_DepthwiseConv):
    """`tf.keras.layers.DepthwiseConv1D` (kernel [w, in, depth_multiplier])."""

    _RANK = 1

    def call(self, inputs: Any) -> Any:
        inputs, strides, spatial_start_dim = _as_2d(self, inputs)
        kernel = array_ops.expand_dims(self.depthwise_kernel, axis=0)
        fmt = conv_utils.convert_data_format(self.data_format, ndim=4)
        outputs = nn_conv.depthwise_conv2d(inputs, kernel, strides=strides,
                                           padding=self.padding.upper(),
                                           dilations=(1,) + self.dilation_rate,
                                           data_format=fmt)
        return _finish(self, outputs, fmt, spatial_start_dim)


class DepthwiseConv2D(_DepthwiseConv):
    """`tf.keras.layers.DepthwiseConv2D` (kernel [h, w, in, depth_multiplier])."""

    _RANK = 2

    def call(self, inputs: Any) -> Any:
        fmt = conv_utils.convert_data_format(self.data_format, ndim=4)
        strides = (1,) + self.strides + (1,) if fmt == "NHWC" else (1, 1) + self.strides
        outputs = nn_conv.depthwise_conv2d(inputs, self.depthwise_kernel, strides=strides,
                                           padding=self.padding.upper(),
                                           dilations=self.dilation_rate, data_format=fmt)
        return _finish(self, outputs, fmt, None)


SeparableConvolution1D = SeparableConv1D
SeparableConvolution2D = SeparableConv2D
