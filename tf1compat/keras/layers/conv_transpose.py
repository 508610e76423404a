"""Keras transposed convolutions: Conv1DTranspose, Conv2DTranspose, Conv3DTranspose.

Each is the gradient of a convolution with respect to its input (Conv2DBackpropInput /
Conv3DBackpropInputV2; the 1-D one on an inserted spatial axis, as `tf.nn.conv1d_transpose`),
with the output shape computed at run time from the input's, then BiasAdd and the
activation. Kernels are [*kernel_size, filters, in_channels]. Dilated 2-D and 3-D transposed
convolutions are not supported (NotImplementedError).
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers import conv_utils
from tf1compat.keras.layers.convolutional import Conv
from tf1compat.keras.layers.weight_args import add_bias, add_kernel
from tf1compat.ops import array_ops, nn_conv
from tf1compat.ops.nn_ops import bias_add

__all__ = ["Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose", "Convolution1DTranspose",
           "Convolution2DTranspose", "Convolution3DTranspose"]


class _ConvTranspose(Conv):
    """Transposed convolution of rank `_RANK`."""

    _RANK = 0

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1,
                 padding: str = "valid", output_padding: Any = None,
                 data_format: Optional[str] = None, dilation_rate: Any = 1,
                 activation: Any = None, use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None,
                 bias_constraint: Any = None, **kwargs: Any):
        rank = self._RANK
        super().__init__(rank, filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                         **kwargs)
        self.output_padding = output_padding
        if self.output_padding is not None:
            self.output_padding = conv_utils.normalize_tuple(self.output_padding, rank,
                                                             "output_padding", allow_zero=True)
            for stride, out_pad in zip(self.strides, self.output_padding):
                if out_pad >= stride:
                    raise ValueError("Strides must be greater than output padding. Received "
                                     f"strides={self.strides}, "
                                     f"output_padding={self.output_padding}.")

    def build(self, input_shape: Any) -> None:
        input_shape = TensorShape(input_shape)
        if len(input_shape) != self.rank + 2:
            raise ValueError(f"Inputs should have rank {self.rank + 2}. Received "
                             f"input_shape={input_shape}.")
        channel_axis = self._get_channel_axis()
        if input_shape.dims[channel_axis].value is None:
            raise ValueError(f"The channel dimension of the inputs to `{type(self).__name__}` "
                             f"should be defined. The input_shape received is {input_shape}, "
                             f"where axis {channel_axis} (0-based) is the channel dimension, "
                             "which found to be `None`.")
        input_dim = int(input_shape[channel_axis])
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={channel_axis: input_dim})
        kernel_shape = self.kernel_size + (self.filters, input_dim)
        self.kernel = add_kernel(self, kernel_shape)
        self.bias = add_bias(self, (self.filters,))
        self.built = True

    def _out_length(self, length: Any, i: int) -> Any:
        out_pad = None if self.output_padding is None else self.output_padding[i]
        return conv_utils.deconv_output_length(length, self.kernel_size[i],
                                               padding=self.padding, output_padding=out_pad,
                                               stride=self.strides[i],
                                               dilation=self.dilation_rate[i])

    def _output_shape_tensor(self, inputs: Any, static_spatial: bool) -> Any:
        """The output shape as a stacked tensor; spatial sizes known statically are used
        as numbers when `static_spatial` (Conv2DTranspose does, the others read them all
        from `tf.shape`)."""
        inputs_shape = array_ops.shape(inputs)
        batch_size = inputs_shape[0]
        first = 2 if self.data_format == "channels_first" else 1
        known = inputs.shape.as_list() if static_spatial and inputs.shape.rank is not None \
            else [None] * (self.rank + 2)
        lengths = [self._out_length(known[first + i] if known[first + i] is not None
                                    else inputs_shape[first + i], i)
                   for i in range(self.rank)]
        if self.data_format == "channels_first":
            output_shape = (batch_size, self.filters, *lengths)
        else:
            output_shape = (batch_size, *lengths, self.filters)
        return array_ops.stack(output_shape)

    def _finish(self, inputs: Any, outputs: Any, fmt: str) -> Any:
        """Static shape, bias and activation after the transposed convolution."""
        if inputs.shape.rank:
            outputs.set_shape(self.compute_output_shape(inputs.shape))
        if self.use_bias:
            outputs = bias_add(outputs, self.bias, data_format=fmt)
        if self.activation is not None:
            return self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        dims = TensorShape(input_shape).as_list()
        out = list(dims)
        first = 2 if self.data_format == "channels_first" else 1
        c_axis = 1 if self.data_format == "channels_first" else self.rank + 1
        out[c_axis] = self.filters
        for i in range(self.rank):
            out[first + i] = self._out_length(dims[first + i], i)
        return TensorShape(out)

    def get_config(self) -> dict:
        config = super().get_config()
        config["output_padding"] = self.output_padding
        return config


class Conv1DTranspose(_ConvTranspose):
    """`tf.keras.layers.Conv1DTranspose` (kernel [w, filters, in])."""

    _RANK = 1

    def call(self, inputs: Any) -> Any:
        fmt = conv_utils.convert_data_format(self.data_format, ndim=3)
        outputs = nn_conv.conv1d_transpose(inputs, self.kernel,
                                           self._output_shape_tensor(inputs, False),
                                           strides=self.strides,
                                           padding=self.padding.upper(), data_format=fmt,
                                           dilations=self.dilation_rate)
        return self._finish(inputs, outputs, fmt)


class Conv2DTranspose(_ConvTranspose):
    """`tf.keras.layers.Conv2DTranspose` (kernel [h, w, filters, in])."""

    _RANK = 2

    def call(self, inputs: Any) -> Any:
        fmt = conv_utils.convert_data_format(self.data_format, 4)
        output_shape = self._output_shape_tensor(inputs, True)
        # `K.conv2d_transpose` checks `output_shape[0] is None` (a StridedSlice op in TF).
        _ = output_shape[0]
        strides = (1,) + tuple(self.strides) + (1,) if fmt == "NHWC" else \
            (1, 1) + tuple(self.strides)
        if tuple(self.dilation_rate) != (1, 1):
            raise NotImplementedError("Conv2DTranspose with dilation_rate != 1 is not "
                                      "supported by tf1compat")
        outputs = nn_conv.conv2d_transpose(inputs, self.kernel, output_shape, strides,
                                           padding=self.padding.upper(), data_format=fmt)
        return self._finish(inputs, outputs, fmt)


class Conv3DTranspose(_ConvTranspose):
    """`tf.keras.layers.Conv3DTranspose` (kernel [d, h, w, filters, in])."""

    _RANK = 3

    def call(self, inputs: Any) -> Any:
        fmt = conv_utils.convert_data_format(self.data_format, ndim=5)
        strides = (1, 1) + tuple(self.strides) if fmt == "NCDHW" else \
            (1,) + tuple(self.strides) + (1,)
        if tuple(self.dilation_rate) != (1, 1, 1):
            raise NotImplementedError("Conv3DTranspose with dilation_rate != 1 is not "
                                      "supported by tf1compat")
        outputs = nn_conv.conv3d_transpose(inputs, self.kernel,
                                           self._output_shape_tensor(inputs, False), strides,
                                           data_format=fmt, padding=self.padding.upper())
        return self._finish(inputs, outputs, fmt)

    def get_config(self) -> dict:
        config = super().get_config()
        config.pop("dilation_rate")     # tf-keras leaves it out of Conv3DTranspose's config
        return config


Convolution1DTranspose = Conv1DTranspose
Convolution2DTranspose = Conv2DTranspose
Convolution3DTranspose = Conv3DTranspose
