"""Keras convolution layers Conv1D/2D/3D and their base `Conv` (transposed convolutions
are in conv_transpose.py, separable and depthwise ones in conv_depthwise.py).

The convolution is one op named after the class inside the layer's scope
(`conv2d/Conv2D`, `conv1d/Conv1D` with its ExpandDims/Squeeze), dilations passed to the op
as TF 2's `tf.nn.convolution` does, then BiasAdd and the activation.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import activations, constraints, initializers, regularizers
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers import conv_utils
from tf1compat.keras.layers.weight_args import (add_bias, add_kernel, kernel_bias_config,
                                                set_kernel_bias_args)
from tf1compat.ops import array_ops, nn_conv
from tf1compat.ops.nn_ops import bias_add

__all__ = ["Conv", "Conv1D", "Conv2D", "Conv3D", "Convolution1D", "Convolution2D",
           "Convolution3D"]


class Conv(Layer):
    """N-D convolution layer (rank 1, 2 or 3)."""

    def __init__(self, rank: int, filters: Optional[int], kernel_size: Any, strides: Any = 1,
                 padding: str = "valid", data_format: Optional[str] = None,
                 dilation_rate: Any = 1, groups: int = 1, activation: Any = None,
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None,
                 bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None,
                 trainable: bool = True, name: Optional[str] = None, **kwargs: Any):
        super().__init__(trainable=trainable, name=name,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.rank = rank
        if isinstance(filters, float):
            filters = int(filters)
        if filters is not None and filters <= 0:
            raise ValueError("Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        self.filters = filters
        self.groups = groups or 1
        self.kernel_size = conv_utils.normalize_tuple(kernel_size, rank, "kernel_size")
        self.strides = conv_utils.normalize_tuple(strides, rank, "strides", allow_zero=True)
        self.padding = conv_utils.normalize_padding(padding)
        self.data_format = conv_utils.normalize_data_format(data_format)
        self.dilation_rate = conv_utils.normalize_tuple(dilation_rate, rank, "dilation_rate")
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        set_kernel_bias_args(self, kernel_initializer, bias_initializer, kernel_regularizer,
                             bias_regularizer, kernel_constraint, bias_constraint)
        self.input_spec = InputSpec(min_ndim=self.rank + 2)
        self._validate_init()
        self._is_causal = self.padding == "causal"
        self._channels_first = self.data_format == "channels_first"
        self._tf_data_format = conv_utils.convert_data_format(self.data_format, self.rank + 2)

    def _validate_init(self) -> None:
        if self.filters is not None and self.filters % self.groups != 0:
            raise ValueError("The number of filters must be evenly divisible by the number of "
                             f"groups. Received: groups={self.groups}, filters={self.filters}")
        if not all(self.kernel_size):
            raise ValueError("The argument `kernel_size` cannot contain 0(s). Received: "
                             f"{(self.kernel_size,)}")
        if not all(self.strides):
            raise ValueError("The argument `strides` cannot contains 0(s). Received: "
                             f"{(self.strides,)}")
        if self.padding == "causal" and type(self).__name__ not in ("Conv1D",
                                                                    "SeparableConv1D"):
            raise ValueError("Causal padding is only supported for `Conv1D`"
                             "and `SeparableConv1D`.")
        if self.groups > 1:
            raise NotImplementedError("Grouped convolutions (groups > 1) are not supported by "
                                      "tf1compat")

    def _get_channel_axis(self) -> int:
        return -1 - self.rank if self.data_format == "channels_first" else -1

    def _get_input_channel(self, input_shape: TensorShape) -> int:
        axis = self._get_channel_axis()
        if input_shape.dims[axis].value is None:
            raise ValueError("The channel dimension of the inputs should be defined. The "
                             f"input_shape received is {input_shape}, where axis {axis} "
                             "(0-based) is the channel dimension, which found to be `None`.")
        return int(input_shape[axis])

    def build(self, input_shape: Any) -> None:
        input_shape = TensorShape(input_shape)
        input_channel = self._get_input_channel(input_shape)
        kernel_shape = self.kernel_size + (input_channel // self.groups, self.filters)
        self.compute_output_shape(input_shape)
        self.kernel = add_kernel(self, kernel_shape)
        self.bias = add_bias(self, (self.filters,))
        self.input_spec = InputSpec(min_ndim=self.rank + 2,
                                    axes={self._get_channel_axis(): input_channel})
        self.built = True

    def _op_padding(self) -> Any:
        if self.padding == "causal":
            return "VALID"
        return self.padding.upper() if isinstance(self.padding, str) else self.padding

    def convolution_op(self, inputs: Any, kernel: Any) -> Any:
        if any(s > 1 for s in self.strides) and any(d > 1 for d in self.dilation_rate):
            # TF's tf.nn.convolution refuses the combination when building the op.
            raise ValueError("`strides > 1` not supported in conjunction with "
                             f"`dilation_rate > 1`. Received: strides={self.strides} and "
                             f"dilation_rate={self.dilation_rate}")
        name = type(self).__name__
        for base in type(self).__mro__:
            if base.__name__ in ("Conv1D", "Conv2D", "Conv3D"):
                name = base.__name__
                break
        fmt = self._tf_data_format
        channel_index = 1 if fmt.startswith("NC") else self.rank + 1
        strides = nn_conv.get_sequence(list(self.strides), self.rank, channel_index, "strides")
        dilations = nn_conv.get_sequence(list(self.dilation_rate), self.rank, channel_index,
                                         "dilations")
        padding = self._op_padding()
        if self.rank == 1:
            return nn_conv.conv1d(inputs, kernel, stride=strides, padding=padding,
                                  data_format=fmt, dilations=dilations, name=name)
        if self.rank == 2:
            return nn_conv.conv2d(inputs, kernel, strides, padding, data_format=fmt,
                                  dilations=dilations, name=name)
        return nn_conv.conv3d(inputs, kernel, strides, padding, data_format=fmt,
                              dilations=dilations, name=name)

    def _compute_causal_padding(self, inputs: Any) -> list:
        left_pad = self.dilation_rate[0] * (self.kernel_size[0] - 1)
        if self.data_format == "channels_last":
            return [[0, 0], [left_pad, 0], [0, 0]]
        return [[0, 0], [0, 0], [left_pad, 0]]

    def call(self, inputs: Any) -> Any:
        from tf1compat.ops.transform_ops import pad
        input_shape = inputs.shape
        if self._is_causal:
            inputs = pad(inputs, self._compute_causal_padding(inputs))
        outputs = self.convolution_op(inputs, self.kernel)
        if self.use_bias:
            if self.rank == 1 and self._channels_first:
                outputs += array_ops.reshape(self.bias, (1, self.filters, 1))
            else:
                outputs = bias_add(outputs, self.bias, data_format=self._tf_data_format)
        if input_shape.rank:
            outputs.set_shape(self.compute_output_shape(input_shape))
        if self.activation is not None:
            return self.activation(outputs)
        return outputs

    def _spatial_output_shape(self, spatial: list) -> list:
        return [conv_utils.conv_output_length(length, self.kernel_size[i],
                                              padding=self.padding, stride=self.strides[i],
                                              dilation=self.dilation_rate[i])
                for i, length in enumerate(spatial)]

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        dims = TensorShape(input_shape).as_list()
        batch_rank = len(dims) - self.rank - 1
        try:
            if self.data_format == "channels_last":
                out = dims[:batch_rank] + self._spatial_output_shape(dims[batch_rank:-1]) + \
                    [self.filters]
            else:
                out = dims[:batch_rank] + [self.filters] + \
                    self._spatial_output_shape(dims[batch_rank + 1:])
            return TensorShape(out)
        except ValueError:
            raise ValueError("One of the dimensions in the output is <= 0 due to downsampling "
                             f"in {self.name}. Consider increasing the input size. Received "
                             f"input shape {dims} which would produce output shape with a zero "
                             "or negative value in a dimension.") from None

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({
            "filters": self.filters, "kernel_size": self.kernel_size, "strides": self.strides,
            "padding": self.padding, "data_format": self.data_format,
            "dilation_rate": self.dilation_rate, "groups": self.groups,
            "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
            **kernel_bias_config(self)})
        return config


def _conv_class(rank: int, cls_name: str, default_format: Optional[str] = None) -> type:
    def __init__(self: Any, filters: int, kernel_size: Any, strides: Any = 1,
                 padding: str = "valid", data_format: Optional[str] = default_format,
                 dilation_rate: Any = 1, groups: int = 1, activation: Any = None,
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None,
                 bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any) -> None:
        Conv.__init__(self, rank, filters, kernel_size, strides=strides, padding=padding,
                      data_format=data_format, dilation_rate=dilation_rate, groups=groups,
                      activation=activations.get(activation), use_bias=use_bias,
                      kernel_initializer=initializers.get(kernel_initializer),
                      bias_initializer=initializers.get(bias_initializer),
                      kernel_regularizer=regularizers.get(kernel_regularizer),
                      bias_regularizer=regularizers.get(bias_regularizer),
                      activity_regularizer=regularizers.get(activity_regularizer),
                      kernel_constraint=constraints.get(kernel_constraint),
                      bias_constraint=constraints.get(bias_constraint), **kwargs)
    return type(cls_name, (Conv,), {"__init__": __init__, "__module__": __name__,
                                    "__doc__": f"`tf.keras.layers.{cls_name}`."})


Conv1D = Convolution1D = _conv_class(1, "Conv1D", "channels_last")
Conv2D = Convolution2D = _conv_class(2, "Conv2D")
Conv3D = Convolution3D = _conv_class(3, "Conv3D")
