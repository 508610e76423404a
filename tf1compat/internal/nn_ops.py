"""`tensorflow.python.ops.nn_ops` and `tensorflow.python.ops.nn` (the tf.nn namespace), and
nn_ops' `Convolution` (TensorFlow Probability's convolutional variational layers build
one in `build` and call it on inputs and sampled kernels)."""

# ruff: noqa: F401, F403
from typing import Any, Optional

from tf1compat.api.nn import *
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import Dimension, as_shape
from tf1compat.ops.nn_conv import convert_padding, convolution
from tf1compat.ops.nn_ops import dropout_v2, wrap_2d_function
from tf1compat.ops.nn_pool import avg_pool_v2, max_pool_v2


class Convolution:
    """An N-D convolution of inputs of `input_shape` with filters of `filter_shape`, the
    shapes checked once here; calling it with (input, filter) builds `tf.nn.convolution`."""

    def __init__(self, input_shape: Any, filter_shape: Any, padding: str,
                 strides: Any = None, dilation_rate: Any = None, name: Optional[str] = None,
                 data_format: Optional[str] = None):
        input_shape, filter_shape = as_shape(input_shape), as_shape(filter_shape)
        rank = filter_shape.ndims if filter_shape.ndims is not None else input_shape.ndims
        if rank is None:
            raise ValueError("rank of input or filter must be known")
        for what, shape in (("input", input_shape), ("filter", filter_shape)):
            if not shape.is_compatible_with(as_shape([None] * rank)):
                raise ValueError(f"{what} tensor must have rank {rank}")
        channels_at = 1 if data_format is not None and data_format.startswith("NC") \
            else rank - 1
        channels = input_shape.dims[channels_at] if input_shape.dims is not None \
            else Dimension(None)
        if not channels.is_compatible_with(filter_shape[rank - 2]):
            raise ValueError("number of input channels does not match corresponding "
                             f"dimension of filter, {channels} != {filter_shape[rank - 2]}")
        self.input_shape, self.filter_shape = input_shape, filter_shape
        self.padding, self.strides, self.dilation_rate = padding, strides, dilation_rate
        self.name, self.data_format = name, data_format

    def __call__(self, inp: Any, filter: Any) -> Tensor:  # noqa: A002 - TF's name
        return convolution(inp, filter, self.padding, strides=self.strides,
                           dilation_rate=self.dilation_rate, name=self.name,
                           data_format=self.data_format)
