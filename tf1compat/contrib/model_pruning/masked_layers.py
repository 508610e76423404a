"""`tf.contrib.model_pruning`'s masked layers (TF 1.15 layers/core_layers.py and
layers/layers.py): a conv2d and a fully connected layer whose kernel is multiplied by a
non-trainable `mask` variable (initially ones) before use, with a scalar `threshold`
variable beside it. Each layer adds its mask, threshold, kernel and masked kernel
(`<scope>/weights/masked_weight`) to the collections `masks`, `thresholds`, `kernel` and
`masked_weights`, which `Pruning` reads to update the masks.

TF creates the conv layer's variables in the order mask, kernel, threshold and the fully
connected layer's as kernel, mask, threshold: the order is kept (it is the order of the
global variables and of checkpoints)."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.contrib.framework.arg_scope import add_arg_scope
from tf1compat.contrib.layers import layers as contrib_layers
from tf1compat.framework.graph import add_to_collection
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers import conv_utils
from tf1compat.layers.base import Layer
from tf1compat.ops import math_ops, nn_ops
from tf1compat.ops.linalg_ops import matmul, tensordot
from tf1compat.ops.nn_conv import convolution
from tf1compat.variables.init_ops import Ones, Zeros, xavier_initializer
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["MASK_COLLECTION", "THRESHOLD_COLLECTION", "MASKED_WEIGHT_COLLECTION",
           "WEIGHT_COLLECTION", "MASKED_WEIGHT_NAME", "MaskedConv2D", "MaskedFullyConnected",
           "masked_convolution", "masked_conv2d", "masked_fully_connected"]

MASK_COLLECTION = "masks"
THRESHOLD_COLLECTION = "thresholds"
MASKED_WEIGHT_COLLECTION = "masked_weights"
WEIGHT_COLLECTION = "kernel"
MASKED_WEIGHT_NAME = "weights/masked_weight"


def _store_weight_arguments(layer: Any, activation: Any, use_bias: bool,
                            kernel_initializer: Any, bias_initializer: Any,
                            kernel_regularizer: Any, bias_regularizer: Any) -> None:
    layer.activation = activation
    layer.use_bias = use_bias
    layer.kernel_initializer = kernel_initializer
    layer.bias_initializer = bias_initializer
    layer.kernel_regularizer = kernel_regularizer
    layer.bias_regularizer = bias_regularizer


def _add_mask_variables(layer: Any, kernel_shape: list, mask_first: bool) -> None:
    """Creates the layer's mask, kernel and threshold (in TF's order for the layer kind)
    and the masked kernel, and registers them in the pruning collections."""
    def mask() -> None:
        layer.mask = layer.add_weight("mask", kernel_shape, initializer=Ones(),
                                      trainable=False, dtype=layer.dtype)

    def kernel() -> None:
        layer.kernel = layer.add_weight("kernel", kernel_shape,
                                        initializer=layer.kernel_initializer,
                                        regularizer=layer.kernel_regularizer,
                                        trainable=True, dtype=layer.dtype)
    for create in ((mask, kernel) if mask_first else (kernel, mask)):
        create()
    layer.threshold = layer.add_weight("threshold", [], initializer=Zeros(), trainable=False,
                                       dtype=layer.dtype)
    layer.masked_kernel = math_ops.multiply(layer.mask, layer.kernel, MASKED_WEIGHT_NAME)
    add_to_collection(MASK_COLLECTION, layer.mask)
    add_to_collection(MASKED_WEIGHT_COLLECTION, layer.masked_kernel)
    add_to_collection(THRESHOLD_COLLECTION, layer.threshold)
    add_to_collection(WEIGHT_COLLECTION, layer.kernel)


class MaskedConv2D(Layer):
    """A 2-D convolution (as `tf.layers.Conv2D`) over `mask * kernel`."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1),
                 padding: str = "valid", data_format: str = "channels_last",
                 dilation_rate: Any = (1, 1), activation: Any = None, use_bias: bool = True,
                 kernel_initializer: Any = None, bias_initializer: Any = Zeros(),
                 kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, trainable: bool = True,
                 name: Optional[str] = None, **kwargs: Any):
        super().__init__(trainable=trainable, name=name,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.rank = 2
        self.filters = filters
        self.kernel_size = conv_utils.normalize_tuple(kernel_size, 2, "kernel_size")
        self.strides = conv_utils.normalize_tuple(strides, 2, "strides")
        self.padding = conv_utils.normalize_padding(padding)
        self.data_format = conv_utils.normalize_data_format(data_format)
        self.dilation_rate = conv_utils.normalize_tuple(dilation_rate, 2, "dilation_rate")
        _store_weight_arguments(self, activation, use_bias, kernel_initializer,
                                bias_initializer, kernel_regularizer, bias_regularizer)
        self.input_spec = InputSpec(ndim=4)

    def build(self, input_shape: Any) -> None:
        input_shape = TensorShape(input_shape)
        channel_axis = 1 if self.data_format == "channels_first" else -1
        input_dim = dimension_value(input_shape[channel_axis])
        if input_dim is None:
            raise ValueError("The channel dimension of the inputs should be defined. "
                             "Found `None`.")
        _add_mask_variables(self, list(self.kernel_size) + [input_dim, self.filters],
                            mask_first=True)
        self.bias = self.add_weight("bias", (self.filters,),
                                    initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, trainable=True,
                                    dtype=self.dtype) if self.use_bias else None
        self.input_spec = InputSpec(ndim=4, axes={channel_axis: input_dim})
        self.built = True

    def call(self, inputs: Any) -> Any:
        fmt = conv_utils.convert_data_format(self.data_format, 4)
        outputs = convolution(inputs, self.masked_kernel, self.padding.upper(),
                              strides=self.strides, dilation_rate=self.dilation_rate,
                              data_format=fmt)
        if self.bias is not None:
            outputs = nn_ops.bias_add(outputs, self.bias, data_format=fmt)
        return self.activation(outputs) if self.activation is not None else outputs

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        shape = TensorShape(input_shape).as_list()
        last = self.data_format == "channels_last"
        space = shape[1:-1] if last else shape[2:]
        new_space = [conv_utils.conv_output_length(d, k, self.padding, s, dilation=r)
                     for d, k, s, r in zip(space, self.kernel_size, self.strides,
                                           self.dilation_rate)]
        return TensorShape([shape[0]] + new_space + [self.filters] if last else
                           [shape[0], self.filters] + new_space)


class MaskedFullyConnected(Layer):
    """A dense layer (as `tf.layers.Dense`) over `mask * kernel`."""

    def __init__(self, units: int, activation: Any = None, use_bias: bool = True,
                 kernel_initializer: Any = None, bias_initializer: Any = Zeros(),
                 kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, trainable: bool = True,
                 name: Optional[str] = None, **kwargs: Any):
        super().__init__(trainable=trainable, name=name,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.units = units
        _store_weight_arguments(self, activation, use_bias, kernel_initializer,
                                bias_initializer, kernel_regularizer, bias_regularizer)
        self.input_spec = InputSpec(min_ndim=2)

    def build(self, input_shape: Any) -> None:
        last = dimension_value(TensorShape(input_shape)[-1])
        if last is None:
            raise ValueError("The last dimension of the inputs to `Dense` should be "
                             "defined. Found `None`.")
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last})
        _add_mask_variables(self, [last, self.units], mask_first=False)
        self.bias = self.add_weight("bias", [self.units], initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, dtype=self.dtype,
                                    trainable=True) if self.use_bias else None
        self.built = True

    def call(self, inputs: Any) -> Any:
        inputs = convert_to_tensor(inputs, dtype=self.dtype)
        shape = inputs.get_shape().as_list()
        if len(shape) > 2:
            outputs = tensordot(inputs, self.masked_kernel, [[len(shape) - 1], [0]])
            outputs.set_shape(shape[:-1] + [self.units])
        else:
            outputs = matmul(inputs, self.masked_kernel)
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias)
        return self.activation(outputs) if self.activation is not None else outputs

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        input_shape = TensorShape(input_shape).with_rank_at_least(2)
        if dimension_value(input_shape[-1]) is None:
            raise ValueError("The innermost dimension of input_shape must be defined, but "
                             f"saw: {input_shape}")
        return input_shape[:-1].concatenate(self.units)


_RENAME = {"bias": "biases", "kernel": "weights"}


@add_arg_scope
def masked_convolution(inputs: Any, num_outputs: int, kernel_size: Any, stride: Any = 1,
                       padding: str = "SAME", data_format: Optional[str] = None,
                       rate: Any = 1, activation_fn: Any = nn_ops.relu,
                       normalizer_fn: Any = None, normalizer_params: Any = None,
                       weights_initializer: Any = xavier_initializer(),
                       weights_regularizer: Any = None, biases_initializer: Any = Zeros(),
                       biases_regularizer: Any = None, reuse: Any = None,
                       variables_collections: Any = None, outputs_collections: Any = None,
                       trainable: bool = True, scope: Any = None) -> Any:
    """`tf.contrib.layers.conv2d` with a masked kernel: variables `<scope>/mask`,
    `<scope>/weights`, `<scope>/threshold`, `<scope>/biases` (default scope 'Conv');
    only 4-D inputs (NHWC or NCHW)."""
    if data_format not in [None, "NWC", "NCW", "NHWC", "NCHW", "NDHWC", "NCDHW"]:
        raise ValueError(f"Invalid data_format: {data_format!r}")
    getter = contrib_layers._build_variable_getter(_RENAME)
    with variable_scope(scope, "Conv", [inputs], reuse=reuse, custom_getter=getter) as sc:
        inputs = convert_to_tensor(inputs)
        input_rank = inputs.get_shape().ndims
        if input_rank != 4:
            raise ValueError("Sparse Convolution not supported for input with rank",
                             input_rank)
        if data_format not in (None, "NHWC", "NCHW"):
            raise ValueError("Unsupported data format", data_format)
        df = "channels_first" if data_format == "NCHW" else "channels_last"
        return contrib_layers._weighted_layer_outputs(
            MaskedConv2D, inputs, sc, reuse, activation_fn, normalizer_fn, normalizer_params,
            weights_initializer, weights_regularizer, biases_initializer, biases_regularizer,
            variables_collections, outputs_collections, trainable, filters=num_outputs,
            kernel_size=kernel_size, strides=stride, padding=padding, data_format=df,
            dilation_rate=rate)


masked_conv2d = masked_convolution


@add_arg_scope
def masked_fully_connected(inputs: Any, num_outputs: int, activation_fn: Any = nn_ops.relu,
                           normalizer_fn: Any = None, normalizer_params: Any = None,
                           weights_initializer: Any = xavier_initializer(),
                           weights_regularizer: Any = None,
                           biases_initializer: Any = Zeros(), biases_regularizer: Any = None,
                           reuse: Any = None, variables_collections: Any = None,
                           outputs_collections: Any = None, trainable: bool = True,
                           scope: Any = None) -> Any:
    """`tf.contrib.layers.fully_connected` with a masked kernel: variables
    `<scope>/weights`, `<scope>/mask`, `<scope>/threshold`, `<scope>/biases` (default
    scope 'fully_connected')."""
    if not isinstance(num_outputs, int) or isinstance(num_outputs, bool):
        raise ValueError(f"num_outputs should be int or long, got {num_outputs}.")
    getter = contrib_layers._build_variable_getter(_RENAME)
    with variable_scope(scope, "fully_connected", [inputs], reuse=reuse,
                        custom_getter=getter) as sc:
        inputs = convert_to_tensor(inputs)
        return contrib_layers._weighted_layer_outputs(
            MaskedFullyConnected, inputs, sc, reuse, activation_fn, normalizer_fn,
            normalizer_params, weights_initializer, weights_regularizer, biases_initializer,
            biases_regularizer, variables_collections, outputs_collections, trainable,
            units=num_outputs)


