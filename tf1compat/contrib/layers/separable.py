"""`tf.contrib.layers.separable_conv2d` / `slim.separable_conv2d` (TF 1.15).

With `num_outputs`: the tf.layers SeparableConv2D layer under `variable_scope(scope,
'SeparableConv2d')` with contrib's variable names (`depthwise_weights`,
`pointwise_weights`, `biases`); with `num_outputs=None`: only the depthwise convolution
(`tf.nn.depthwise_conv2d`, op scope `depthwise`) and biases of `depth_multiplier *
in_channels`. Then the optional normalizer_fn (in place of biases) and activation_fn
(relu by default), and the outputs collected under the scope's name.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.contrib.framework.arg_scope import add_arg_scope
from tf1compat.contrib.framework.variables import model_variable
from tf1compat.contrib.layers import utils
from tf1compat.contrib.layers.layers import (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC,
                                             _add_variable_to_collections,
                                             _build_variable_getter)
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.layers import layers as core_layers
from tf1compat.ops import nn_conv, nn_ops
from tf1compat.variables.init_ops import Zeros, xavier_initializer
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["separable_convolution2d", "separable_conv2d"]


@add_arg_scope
def separable_convolution2d(inputs: Any, num_outputs: Optional[int], kernel_size: Any,
                            depth_multiplier: int = 1, stride: Any = 1,
                            padding: str = "SAME", data_format: str = DATA_FORMAT_NHWC,
                            rate: Any = 1, activation_fn: Any = nn_ops.relu,
                            normalizer_fn: Any = None, normalizer_params: Any = None,
                            weights_initializer: Any = xavier_initializer(),
                            pointwise_initializer: Any = None,
                            weights_regularizer: Any = None,
                            biases_initializer: Any = Zeros(),
                            biases_regularizer: Any = None, reuse: Any = None,
                            variables_collections: Any = None,
                            outputs_collections: Any = None, trainable: bool = True,
                            scope: Any = None) -> Any:
    """A depthwise convolution (`depthwise_weights`), then, unless `num_outputs` is None, a
    1x1 pointwise one (`pointwise_weights`); see the module docstring."""
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    getter = _build_variable_getter({"bias": "biases", "depthwise_kernel": "depthwise_weights",
                                     "pointwise_kernel": "pointwise_weights"})
    with variable_scope(scope, "SeparableConv2d", [inputs], reuse=reuse,
                        custom_getter=getter) as sc:
        inputs = convert_to_tensor(inputs)
        if pointwise_initializer is None:
            pointwise_initializer = weights_initializer
        df = "channels_first" if data_format.startswith("NC") else "channels_last"
        if num_outputs is not None:
            layer = core_layers.SeparableConv2D(
                filters=num_outputs, kernel_size=kernel_size, strides=stride,
                padding=padding, data_format=df, dilation_rate=utils.two_element_tuple(rate),
                activation=None, depth_multiplier=depth_multiplier,
                use_bias=bool(not normalizer_fn and biases_initializer),
                depthwise_initializer=weights_initializer,
                pointwise_initializer=pointwise_initializer,
                bias_initializer=biases_initializer,
                depthwise_regularizer=weights_regularizer,
                pointwise_regularizer=weights_regularizer,
                bias_regularizer=biases_regularizer, activity_regularizer=None,
                trainable=trainable, name=sc.name, dtype=inputs.dtype.base_dtype,
                _scope=sc, _reuse=reuse)
            outputs = layer.apply(inputs)
            _add_variable_to_collections(layer.depthwise_kernel, variables_collections,
                                         "weights")
            _add_variable_to_collections(layer.pointwise_kernel, variables_collections,
                                         "weights")
            if layer.bias is not None:
                _add_variable_to_collections(layer.bias, variables_collections, "biases")
            if normalizer_fn is not None:
                outputs = normalizer_fn(outputs, **(normalizer_params or {}))
        else:
            outputs = _depthwise_only(inputs, kernel_size, depth_multiplier, stride, padding,
                                      data_format, df, rate, normalizer_fn,
                                      normalizer_params, weights_initializer,
                                      weights_regularizer, biases_initializer,
                                      biases_regularizer, variables_collections, trainable)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return utils.collect_named_outputs(outputs_collections, sc.name, outputs)


def _depthwise_only(inputs: Any, kernel_size: Any, depth_multiplier: int, stride: Any,
                    padding: str, data_format: str, df: str, rate: Any, normalizer_fn: Any,
                    normalizer_params: Any, weights_initializer: Any,
                    weights_regularizer: Any, biases_initializer: Any,
                    biases_regularizer: Any, variables_collections: Any,
                    trainable: bool) -> Any:
    dtype = inputs.dtype.base_dtype
    kernel_h, kernel_w = utils.two_element_tuple(kernel_size)
    stride_h, stride_w = utils.two_element_tuple(stride)
    num_filters_in = utils.channel_dimension(inputs.get_shape(), df, min_rank=4)
    depthwise_weights = model_variable(
        "depthwise_weights", shape=[kernel_h, kernel_w, num_filters_in, depth_multiplier],
        dtype=dtype, initializer=weights_initializer, regularizer=weights_regularizer,
        trainable=trainable,
        collections=utils.get_variable_collections(variables_collections, "weights"))
    strides = [1, 1, stride_h, stride_w] if data_format.startswith("NC") else \
        [1, stride_h, stride_w, 1]
    outputs = nn_conv.depthwise_conv2d(inputs, depthwise_weights, strides, padding,
                                       rate=utils.two_element_tuple(rate),
                                       data_format=data_format)
    if normalizer_fn is not None:
        return normalizer_fn(outputs, **(normalizer_params or {}))
    if biases_initializer is not None:
        biases = model_variable(
            "biases", shape=[depth_multiplier * num_filters_in], dtype=dtype,
            initializer=biases_initializer, regularizer=biases_regularizer,
            trainable=trainable,
            collections=utils.get_variable_collections(variables_collections, "biases"))
        outputs = nn_ops.bias_add(outputs, biases, data_format=data_format)
    return outputs


separable_conv2d = separable_convolution2d
