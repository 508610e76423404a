"""`tf.contrib.layers.spatial_softmax` and `convolution2d_in_plane` / `conv2d_in_plane`
(TF 1.15 contrib/layers/python/layers/layers.py).

- spatial_softmax: per channel, a softmax over the H*W positions (logits divided by the
  learned scalar `temperature`), then the expected x and y coordinates in [-1, 1]; the
  output is `[batch, 2 * channels]` as (x_0, y_0, x_1, y_1, ...).
- convolution2d_in_plane: one `[kh, kw, 1, 1]` kernel shared by every channel, applied as
  a depthwise convolution of the kernel tiled over the channels, then biases (or the
  normalizer) and the activation.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.contrib.framework.arg_scope import add_arg_scope
from tf1compat.contrib.framework.variables import model_variable
from tf1compat.contrib.layers import utils
from tf1compat.contrib.layers.layers import DATA_FORMAT_NCHW, DATA_FORMAT_NHWC
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.ops import nn_conv, nn_ops
from tf1compat.ops.array_ops import concat, reshape, shape
from tf1compat.ops.creation_ops import lin_space
from tf1compat.ops.manip_ops import meshgrid
from tf1compat.ops.reduction_ops import reduce_sum
from tf1compat.ops.transform_ops import tile, transpose
from tf1compat.variables.init_ops import Zeros, constant_initializer, ones_initializer
from tf1compat.variables.init_ops import xavier_initializer
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["spatial_softmax", "convolution2d_in_plane", "conv2d_in_plane"]


@add_arg_scope
def spatial_softmax(features: Any, temperature: Optional[float] = None,
                    name: Optional[str] = None, variables_collections: Any = None,
                    trainable: bool = True, data_format: str = "NHWC") -> Tensor:
    """The expected image coordinates of each channel's softmax attention:
    `[batch, 2 * channels]` (the channel count must be static)."""
    with variable_scope(name, "spatial_softmax"):
        dynamic = shape(features)
        static = features.shape
        if data_format == DATA_FORMAT_NHWC:
            height, width, channels = dynamic[1], dynamic[2], static[3]
        elif data_format == DATA_FORMAT_NCHW:
            channels, height, width = static[1], dynamic[2], dynamic[3]
        else:
            raise ValueError("data_format has to be either NCHW or NHWC.")
        channels = dimension_value(channels)
        if channels is None:
            raise ValueError("The num_channels dimension of the inputs to `spatial_softmax` "
                             "should be defined. Found `None`.")
        with name_scope("spatial_softmax_op", "spatial_softmax_op", [features]):
            pos_x, pos_y = meshgrid(lin_space(-1., 1., num=height),
                                    lin_space(-1., 1., num=width), indexing="ij")
            pos_x = reshape(pos_x, [height * width])
            pos_y = reshape(pos_y, [height * width])
            initializer = (ones_initializer() if temperature is None
                           else constant_initializer(temperature))
            collections = (utils.get_variable_collections(variables_collections,
                                                          "temperature")
                           if trainable else None)
            temperature = model_variable("temperature", shape=(), dtype=D.float32,
                                         initializer=initializer, collections=collections,
                                         trainable=trainable)
            if data_format == "NCHW":
                features = reshape(features, [-1, height * width])
            else:
                features = reshape(transpose(features, [0, 3, 1, 2]), [-1, height * width])
            attention = nn_ops.softmax(features / temperature)
            expected_x = reduce_sum(pos_x * attention, [1], keepdims=True)
            expected_y = reduce_sum(pos_y * attention, [1], keepdims=True)
            keypoints = reshape(concat([expected_x, expected_y], 1), [-1, channels * 2])
            keypoints.set_shape([None, channels * 2])
    return keypoints


@add_arg_scope
def convolution2d_in_plane(inputs: Any, kernel_size: Any, stride: Any = 1,
                           padding: str = "SAME", activation_fn: Any = nn_ops.relu,
                           normalizer_fn: Any = None, normalizer_params: Any = None,
                           weights_initializer: Any = xavier_initializer(),
                           weights_regularizer: Any = None, biases_initializer: Any = Zeros(),
                           biases_regularizer: Any = None, reuse: Any = None,
                           variables_collections: Any = None, outputs_collections: Any = None,
                           trainable: bool = True, scope: Any = None) -> Tensor:
    """The same 2-D filter (`weights`, `[kh, kw, 1, 1]`) on every channel of NHWC
    `inputs`, then `biases` (one per channel) or `normalizer_fn`, then `activation_fn`."""
    with variable_scope(scope, "ConvInPlane", [inputs], reuse=reuse) as sc:
        dtype = inputs.dtype.base_dtype
        kernel_h, kernel_w = utils.two_element_tuple(kernel_size)
        stride_h, stride_w = utils.two_element_tuple(stride)
        channels = utils.last_dimension(inputs.get_shape(), min_rank=4)
        weights = model_variable(
            "weights", shape=[kernel_h, kernel_w, 1, 1], dtype=dtype,
            initializer=weights_initializer, regularizer=weights_regularizer,
            collections=utils.get_variable_collections(variables_collections, "weights"),
            trainable=trainable)
        outputs = nn_conv.depthwise_conv2d(inputs, tile(weights, [1, 1, channels, 1]),
                                           [1, stride_h, stride_w, 1], padding)
        if normalizer_fn is not None:
            outputs = normalizer_fn(outputs, **(normalizer_params or {}))
        elif biases_initializer is not None:
            biases = model_variable(
                "biases", shape=[channels], dtype=dtype, initializer=biases_initializer,
                regularizer=biases_regularizer,
                collections=utils.get_variable_collections(variables_collections, "biases"),
                trainable=trainable)
            outputs = nn_ops.bias_add(outputs, biases)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return utils.collect_named_outputs(outputs_collections, sc.name, outputs)


conv2d_in_plane = convolution2d_in_plane
