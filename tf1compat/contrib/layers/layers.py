"""`tf.contrib.layers` (TF 1.15): fully_connected, conv2d (convolution), conv2d_transpose,
max_pool2d, avg_pool2d, max_pool3d, avg_pool3d, flatten, dropout, batch_norm, layer_norm,
one_hot_encoding, repeat and stack.

Layers with weights open `variable_scope(scope, <default>)` (`fully_connected`, `Conv`,
`Conv2d_transpose`, `BatchNorm`, `LayerNorm`) with a custom getter that creates model
variables (GLOBAL + MODEL_VARIABLES, TRAINABLE when trainable) and renames Keras'
`kernel`/`bias` to contrib's `weights`/`biases`; the computation is the tf.layers layer
of the same kind, then the optional normalizer_fn and activation_fn (relu by default for
fully_connected and the convolutions). Every function is `add_arg_scope`d.
"""

from __future__ import annotations

import numbers
from typing import Any, Callable, Dict, Optional

from tf1compat.contrib.framework.arg_scope import add_arg_scope
from tf1compat.contrib.framework.variables import model_variable
from tf1compat.contrib.layers import utils
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import (GraphKeys, add_to_collection, add_to_collections,
                                       control_dependencies, get_collection, name_scope)
from tf1compat.framework.random_seed import get_seed
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.layers import layers as core_layers
from tf1compat.ops import array_ops, nn_ops
from tf1compat.ops.cond import smart_constant_value
from tf1compat.variables.init_ops import Ones, Zeros, xavier_initializer
from tf1compat.variables.partitioned import PartitionedVariable
from tf1compat.variables.variable_scope import get_variable_scope, variable_scope
from tf1compat.variables.variables import VariableAggregation, VariableSynchronization

__all__ = ["fully_connected", "convolution", "convolution1d", "convolution2d",
           "convolution3d", "conv1d", "conv2d", "conv3d", "convolution2d_transpose",
           "convolution3d_transpose", "conv3d_transpose",
           "conv2d_transpose", "max_pool2d", "avg_pool2d", "max_pool3d", "avg_pool3d",
           "flatten", "dropout", "batch_norm", "layer_norm", "one_hot_encoding", "repeat",
           "stack", "bias_add", "softmax"]

DATA_FORMAT_NCHW = "NCHW"
DATA_FORMAT_NHWC = "NHWC"
DATA_FORMAT_NCDHW = "NCDHW"
DATA_FORMAT_NDHWC = "NDHWC"


def _model_variable_getter(getter: Callable, name: str, shape: Any = None, dtype: Any = None,
                           initializer: Any = None, regularizer: Any = None,
                           trainable: bool = True, collections: Any = None,
                           caching_device: Any = None, partitioner: Any = None,
                           rename: Optional[Dict[str, str]] = None, use_resource: Any = None,
                           synchronization: Any = VariableSynchronization.AUTO,
                           aggregation: Any = VariableAggregation.NONE, **_: Any) -> Any:
    """Creates layer variables as model variables, renamed by `rename` (kernel -> weights)."""
    short_name = name.split("/")[-1]
    if rename and short_name in rename:
        parts = name.split("/")
        parts[-1] = rename[short_name]
        name = "/".join(parts)
    return model_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                          regularizer=regularizer, collections=collections,
                          trainable=trainable, caching_device=caching_device,
                          partitioner=partitioner, custom_getter=getter,
                          use_resource=use_resource, synchronization=synchronization,
                          aggregation=aggregation)


def _build_variable_getter(rename: Optional[Dict[str, str]] = None) -> Callable:
    def layer_variable_getter(getter: Callable, *args: Any, **kwargs: Any) -> Any:
        kwargs["rename"] = rename
        return _model_variable_getter(getter, *args, **kwargs)
    return layer_variable_getter


def _add_variable_to_collections(variable: Any, collections_set: Any,
                                 collections_name: str) -> None:
    collections = utils.get_variable_collections(collections_set, collections_name) or []
    variables = list(variable) if isinstance(variable, PartitionedVariable) else [variable]
    for collection in collections:
        for var in variables:
            if not any(var is v for v in get_collection(collection)):
                add_to_collection(collection, var)


def _weighted_layer_outputs(layer_cls: type, inputs: Any, sc: Any, reuse: Any,
                            activation_fn: Any, normalizer_fn: Any, normalizer_params: Any,
                            weights_initializer: Any, weights_regularizer: Any,
                            biases_initializer: Any, biases_regularizer: Any,
                            variables_collections: Any, outputs_collections: Any,
                            trainable: bool, **layer_args: Any) -> Any:
    """What fully_connected and the convolutions share (as TF 1.15's contrib layers do):
    the tf.layers class `layer_cls` built in scope `sc` with its kernel/bias named
    weights/biases (no bias when a normalizer follows), the variables added to
    `variables_collections`, then the normalizer and activation, the output collected."""
    layer = layer_cls(
        activation=None, use_bias=bool(not normalizer_fn and biases_initializer),
        kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
        kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
        activity_regularizer=None, trainable=trainable, name=sc.name,
        dtype=inputs.dtype.base_dtype, _scope=sc, _reuse=reuse, **layer_args)
    outputs = layer.apply(inputs)
    _add_variable_to_collections(layer.kernel, variables_collections, "weights")
    if layer.bias is not None:
        _add_variable_to_collections(layer.bias, variables_collections, "biases")
    if normalizer_fn is not None:
        outputs = normalizer_fn(outputs, **(normalizer_params or {}))
    if activation_fn is not None:
        outputs = activation_fn(outputs)
    return utils.collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def fully_connected(inputs: Any, num_outputs: int, activation_fn: Any = nn_ops.relu,
                    normalizer_fn: Any = None, normalizer_params: Any = None,
                    weights_initializer: Any = xavier_initializer(),
                    weights_regularizer: Any = None, biases_initializer: Any = Zeros(),
                    biases_regularizer: Any = None, reuse: Any = None,
                    variables_collections: Any = None, outputs_collections: Any = None,
                    trainable: bool = True, scope: Any = None) -> Any:
    """`activation_fn(inputs @ weights + biases)` with variables `<scope>/weights`,
    `<scope>/biases` (default scope 'fully_connected')."""
    if not isinstance(num_outputs, int) or isinstance(num_outputs, bool):
        raise ValueError(f"num_outputs type should be one of [<class 'int'>], got "
                         f"{type(num_outputs)}.")
    getter = _build_variable_getter({"bias": "biases", "kernel": "weights"})
    with variable_scope(scope, "fully_connected", [inputs], reuse=reuse,
                        custom_getter=getter) as sc:
        inputs = convert_to_tensor(inputs)
        return _weighted_layer_outputs(
            core_layers.Dense, inputs, sc, reuse, activation_fn, normalizer_fn,
            normalizer_params, weights_initializer, weights_regularizer, biases_initializer,
            biases_regularizer, variables_collections, outputs_collections, trainable,
            units=num_outputs)


@add_arg_scope
def convolution(inputs: Any, num_outputs: int, kernel_size: Any, stride: Any = 1,
                padding: str = "SAME", data_format: Optional[str] = None, rate: Any = 1,
                activation_fn: Any = nn_ops.relu, normalizer_fn: Any = None,
                normalizer_params: Any = None,
                weights_initializer: Any = xavier_initializer(),
                weights_regularizer: Any = None, biases_initializer: Any = Zeros(),
                biases_regularizer: Any = None, reuse: Any = None,
                variables_collections: Any = None, outputs_collections: Any = None,
                trainable: bool = True, scope: Any = None,
                conv_dims: Optional[int] = None) -> Any:
    """N-D convolution (rank of `inputs` 3, 4 or 5) with variables `<scope>/weights`,
    `<scope>/biases` (default scope 'Conv')."""
    if data_format not in [None, "NWC", "NCW", "NHWC", "NCHW", "NDHWC", "NCDHW"]:
        raise ValueError(f"Invalid data_format: {data_format!r}")
    getter = _build_variable_getter({"bias": "biases", "kernel": "weights"})
    with variable_scope(scope, "Conv", [inputs], reuse=reuse, custom_getter=getter) as sc:
        inputs = convert_to_tensor(inputs)
        input_rank = inputs.get_shape().ndims
        if conv_dims is not None and conv_dims + 2 != input_rank:
            raise ValueError(f"Convolution expects input with rank {conv_dims + 2}, got "
                             f"{input_rank}")
        layer_class = {3: core_layers.Conv1D, 4: core_layers.Conv2D,
                       5: core_layers.Conv3D}.get(input_rank)
        if layer_class is None:
            raise ValueError("Convolution not supported for input with rank", input_rank)
        df = "channels_first" if data_format and data_format.startswith("NC") else \
            "channels_last"
        return _weighted_layer_outputs(
            layer_class, inputs, sc, reuse, activation_fn, normalizer_fn, normalizer_params,
            weights_initializer, weights_regularizer, biases_initializer, biases_regularizer,
            variables_collections, outputs_collections, trainable, filters=num_outputs,
            kernel_size=kernel_size, strides=stride, padding=padding, data_format=df,
            dilation_rate=rate)


def _conv_nd(conv_dims: int, fn_name: str) -> Callable:
    def conv(inputs: Any, num_outputs: int, kernel_size: Any, stride: Any = 1,
             padding: str = "SAME", data_format: Optional[str] = None, rate: Any = 1,
             activation_fn: Any = nn_ops.relu, normalizer_fn: Any = None,
             normalizer_params: Any = None, weights_initializer: Any = xavier_initializer(),
             weights_regularizer: Any = None, biases_initializer: Any = Zeros(),
             biases_regularizer: Any = None, reuse: Any = None,
             variables_collections: Any = None, outputs_collections: Any = None,
             trainable: bool = True, scope: Any = None) -> Any:
        return convolution(inputs, num_outputs, kernel_size, stride, padding, data_format,
                           rate, activation_fn, normalizer_fn, normalizer_params,
                           weights_initializer, weights_regularizer, biases_initializer,
                           biases_regularizer, reuse, variables_collections,
                           outputs_collections, trainable, scope, conv_dims)
    conv.__name__ = conv.__qualname__ = fn_name
    conv.__doc__ = f"`tf.contrib.layers.{fn_name}`: `convolution` on rank-{conv_dims + 2} " \
                   "inputs."
    return add_arg_scope(conv)


convolution1d = _conv_nd(1, "convolution1d")
convolution2d = _conv_nd(2, "convolution2d")
convolution3d = _conv_nd(3, "convolution3d")
conv1d = convolution1d
conv2d = convolution2d
conv3d = convolution3d


def _conv_transpose(layer_cls: type, default_name: str, formats: tuple, rank: int) -> Callable:
    """A contrib transposed convolution over the tf.layers class `layer_cls`; `formats` is
    (channels-first, channels-last) as contrib spells them for this rank."""

    @add_arg_scope
    def convolution_transpose(inputs: Any, num_outputs: int, kernel_size: Any,
                              stride: Any = 1, padding: str = "SAME",
                              data_format: str = formats[1],
                              activation_fn: Any = nn_ops.relu, normalizer_fn: Any = None,
                              normalizer_params: Any = None,
                              weights_initializer: Any = xavier_initializer(),
                              weights_regularizer: Any = None,
                              biases_initializer: Any = Zeros(),
                              biases_regularizer: Any = None, reuse: Any = None,
                              variables_collections: Any = None,
                              outputs_collections: Any = None, trainable: bool = True,
                              scope: Any = None) -> Any:
        getter = _build_variable_getter({"bias": "biases", "kernel": "weights"})
        with variable_scope(scope, default_name, [inputs], reuse=reuse,
                            custom_getter=getter) as sc:
            if data_format not in formats:
                raise ValueError(f"data_format has to be either {formats[0]} or "
                                 f"{formats[1]}.")
            inputs = convert_to_tensor(inputs)
            df = "channels_first" if data_format and data_format.startswith("NC") else \
                "channels_last"
            return _weighted_layer_outputs(
                layer_cls, inputs, sc, reuse, activation_fn, normalizer_fn,
                normalizer_params, weights_initializer, weights_regularizer,
                biases_initializer, biases_regularizer, variables_collections,
                outputs_collections, trainable, filters=num_outputs, kernel_size=kernel_size,
                strides=stride, padding=padding, data_format=df)

    convolution_transpose.__name__ = f"convolution{rank}d_transpose"
    convolution_transpose.__doc__ = (f"Transposed {rank}-D convolution (default scope "
                                     f"'{default_name}').")
    return convolution_transpose


convolution2d_transpose = _conv_transpose(core_layers.Conv2DTranspose, "Conv2d_transpose",
                                          (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC), 2)
convolution3d_transpose = _conv_transpose(core_layers.Conv3DTranspose, "Conv3d_transpose",
                                          (DATA_FORMAT_NCDHW, DATA_FORMAT_NDHWC), 3)
conv2d_transpose = convolution2d_transpose
conv3d_transpose = convolution3d_transpose


def _pool(layer_cls: type, default_name: str, fn_name: str,
          formats: tuple = (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC)) -> Callable:
    """A contrib pooling function over the tf.layers class `layer_cls`; `formats` is
    (channels-first, channels-last) as contrib spells them for this rank."""
    channels_first, channels_last = formats

    def pool(inputs: Any, kernel_size: Any, stride: Any = 2, padding: str = "VALID",
             data_format: str = channels_last, outputs_collections: Any = None,
             scope: Any = None) -> Any:
        if data_format not in formats:
            raise ValueError(f"data_format has to be either {channels_first} or "
                             f"{channels_last}.")
        with name_scope(scope, default_name, [inputs]) as sc:
            inputs = convert_to_tensor(inputs)
            df = "channels_first" if data_format == channels_first else "channels_last"
            layer = layer_cls(pool_size=kernel_size, strides=stride, padding=padding,
                              data_format=df, _scope=sc)
            outputs = layer.apply(inputs)
            return utils.collect_named_outputs(outputs_collections, sc, outputs)
    pool.__name__ = pool.__qualname__ = fn_name
    pool.__doc__ = f"`tf.contrib.layers.{fn_name}` (name scope '{default_name}'; stride 2, " \
                   "VALID padding by default)."
    return add_arg_scope(pool)


max_pool2d = _pool(core_layers.MaxPooling2D, "MaxPool2D", "max_pool2d")
avg_pool2d = _pool(core_layers.AveragePooling2D, "AvgPool2D", "avg_pool2d")
max_pool3d = _pool(core_layers.MaxPooling3D, "MaxPool3D", "max_pool3d",
                   (DATA_FORMAT_NCDHW, DATA_FORMAT_NDHWC))
avg_pool3d = _pool(core_layers.AveragePooling3D, "AvgPool3D", "avg_pool3d",
                   (DATA_FORMAT_NCDHW, DATA_FORMAT_NDHWC))


@add_arg_scope
def flatten(inputs: Any, outputs_collections: Any = None, scope: Any = None) -> Any:
    """(batch, ...) -> (batch, k) under name scope 'Flatten'."""
    with name_scope(scope, "Flatten", [inputs]) as sc:
        inputs = convert_to_tensor(inputs)
        outputs = core_layers.flatten(inputs)
        return utils.collect_named_outputs(outputs_collections, sc, outputs)


@add_arg_scope
def dropout(inputs: Any, keep_prob: Any = 0.5, noise_shape: Any = None,
            is_training: Any = True, outputs_collections: Any = None, scope: Any = None,
            seed: Optional[int] = None) -> Any:
    """Keeps each element with probability `keep_prob` (scaled by 1/keep_prob) while
    `is_training` (bool or tensor; True by default)."""
    with variable_scope(scope, "Dropout", [inputs], custom_getter=_model_variable_getter) as sc:
        inputs = convert_to_tensor(inputs)
        if (isinstance(keep_prob, numbers.Real) and keep_prob == 1
                and smart_constant_value(is_training)):
            # TF 1.15's Keras Dropout has no rate-0 shortcut: the training branch calls
            # nn.dropout, which hands back `inputs` itself for a rate of 0 and adds no op,
            # but still draws its op seed, so later random initializers get TF's seeds.
            get_seed(seed)
            return utils.collect_named_outputs(outputs_collections, sc.name, inputs)
        layer = core_layers.Dropout(rate=1 - keep_prob, noise_shape=noise_shape, seed=seed,
                                    name=sc.name, _scope=sc)
        outputs = layer.apply(inputs, training=is_training)
        return utils.collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def batch_norm(inputs: Any, decay: float = 0.999, center: bool = True, scale: bool = False,
               epsilon: float = 0.001, activation_fn: Any = None,
               param_initializers: Any = None, param_regularizers: Any = None,
               updates_collections: Any = GraphKeys.UPDATE_OPS, is_training: Any = True,
               reuse: Any = None, variables_collections: Any = None,
               outputs_collections: Any = None, trainable: bool = True,
               batch_weights: Any = None, fused: Optional[bool] = None,
               data_format: str = DATA_FORMAT_NHWC, zero_debias_moving_mean: bool = False,
               scope: Any = None, renorm: bool = False, renorm_clipping: Any = None,
               renorm_decay: float = 0.99, adjustment: Any = None) -> Any:
    """Batch normalization (default scope 'BatchNorm'; note `scale=False` by default).

    Moving statistics update as `moving -= (moving - batch) * (1 - decay)`: the update ops
    go to `updates_collections` (UPDATE_OPS), or run before the output when it is None.
    """
    if fused is None:
        fused = True
    inputs = convert_to_tensor(inputs)
    rank = inputs.get_shape().ndims
    possible_to_fuse = (batch_weights is None and not renorm and rank in (2, 4) and
                        adjustment is None)
    if fused and possible_to_fuse and (zero_debias_moving_mean or rank == 2 or
                                       updates_collections != GraphKeys.UPDATE_OPS):
        return _fused_batch_norm(inputs, decay=decay, center=center, scale=scale,
                                 epsilon=epsilon, activation_fn=activation_fn,
                                 param_initializers=param_initializers,
                                 param_regularizers=param_regularizers,
                                 updates_collections=updates_collections,
                                 is_training=is_training, reuse=reuse,
                                 variables_collections=variables_collections,
                                 outputs_collections=outputs_collections,
                                 trainable=trainable, data_format=data_format,
                                 zero_debias_moving_mean=zero_debias_moving_mean, scope=scope)
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    if renorm or adjustment is not None:
        raise NotImplementedError("tf.contrib.layers.batch_norm with renorm or adjustment is "
                                  "not supported by tf1compat")
    getter = _build_variable_getter()
    with variable_scope(scope, "BatchNorm", [inputs], reuse=reuse, custom_getter=getter) as sc:
        inputs = convert_to_tensor(inputs)
        param_initializers = param_initializers or {}
        param_regularizers = param_regularizers or {}
        if batch_weights is None and updates_collections == GraphKeys.UPDATE_OPS and \
                not zero_debias_moving_mean:
            axis = 1 if data_format == DATA_FORMAT_NCHW else -1
            layer = core_layers.BatchNormalization(
                axis=axis, momentum=decay, epsilon=epsilon, center=center, scale=scale,
                beta_initializer=param_initializers.get("beta", Zeros()),
                gamma_initializer=param_initializers.get("gamma", Ones()),
                moving_mean_initializer=param_initializers.get("moving_mean", Zeros()),
                moving_variance_initializer=param_initializers.get("moving_variance",
                                                                   Ones()),
                beta_regularizer=param_regularizers.get("beta"),
                gamma_regularizer=param_regularizers.get("gamma"), trainable=trainable,
                name=sc.name, _scope=sc, _reuse=reuse, fused=fused)
            outputs = layer.apply(inputs, training=is_training)
            _add_variable_to_collections(layer.moving_mean, variables_collections,
                                         "moving_mean")
            _add_variable_to_collections(layer.moving_variance, variables_collections,
                                         "moving_variance")
            if layer.beta is not None:
                _add_variable_to_collections(layer.beta, variables_collections, "beta")
            if layer.gamma is not None:
                _add_variable_to_collections(layer.gamma, variables_collections, "gamma")
            if activation_fn is not None:
                outputs = activation_fn(outputs)
            return utils.collect_named_outputs(outputs_collections, sc.name, outputs)
        if batch_weights is not None:
            raise NotImplementedError("tf.contrib.layers.batch_norm(batch_weights=...) is not "
                                      "supported by tf1compat")
        return _legacy_batch_norm(inputs, sc, decay, center, scale, epsilon, activation_fn,
                                  param_initializers, updates_collections, is_training,
                                  variables_collections, outputs_collections, trainable,
                                  data_format, zero_debias_moving_mean)


def _moving_variables(params_shape: Any, dtype: Any, param_initializers: dict,
                      variables_collections: Any) -> tuple:
    """moving_mean/moving_variance model variables, never partitioned."""
    with variable_scope(get_variable_scope()) as local_scope:
        local_scope.set_partitioner(None)
        moving_mean = model_variable(
            "moving_mean", shape=params_shape, dtype=dtype,
            initializer=param_initializers.get("moving_mean", Zeros()), trainable=False,
            collections=utils.get_variable_collections(variables_collections, "moving_mean"))
        moving_variance = model_variable(
            "moving_variance", shape=params_shape, dtype=dtype,
            initializer=param_initializers.get("moving_variance", Ones()), trainable=False,
            collections=utils.get_variable_collections(variables_collections,
                                                       "moving_variance"))
    return moving_mean, moving_variance


def _updates(moving_mean: Any, moving_variance: Any, mean: Any, variance: Any, decay: Any,
             zero_debias_moving_mean: bool) -> tuple:
    from tf1compat.training.moving_averages import assign_moving_average
    update_mean = assign_moving_average(moving_mean, mean, decay,
                                        zero_debias=zero_debias_moving_mean)
    update_variance = assign_moving_average(moving_variance, variance, decay, zero_debias=False)
    return update_mean, update_variance


def _legacy_batch_norm(inputs: Any, sc: Any, decay: float, center: bool, scale: bool,
                       epsilon: float, activation_fn: Any, param_initializers: dict,
                       updates_collections: Any, is_training: Any,
                       variables_collections: Any, outputs_collections: Any,
                       trainable: bool, data_format: str,
                       zero_debias_moving_mean: bool) -> Any:
    """contrib's own (non-layer, non-fused) batch norm: custom update collections."""
    from tf1compat.ops.nn_norm import batch_normalization, moments
    inputs_shape = inputs.get_shape()
    inputs_rank = inputs_shape.ndims
    if inputs_rank is None:
        raise ValueError(f"Inputs {inputs.name} has undefined rank.")
    dtype = inputs.dtype.base_dtype
    if data_format == DATA_FORMAT_NCHW:
        moments_axes = [0] + list(range(2, inputs_rank))
        params_shape = inputs_shape[1:2]
        broadcast = [1, inputs_shape.dims[1].value] + [1] * (inputs_rank - 2)
    else:
        moments_axes = list(range(inputs_rank - 1))
        params_shape = inputs_shape[-1:]
        broadcast = None
    if not params_shape.is_fully_defined():
        raise ValueError(f"Inputs {inputs.name} has undefined channels dimension "
                         f"{params_shape}.")
    beta = gamma = None
    if center:
        beta = model_variable("beta", shape=params_shape, dtype=dtype,
                              initializer=param_initializers.get("beta", Zeros()),
                              collections=utils.get_variable_collections(
                                  variables_collections, "beta"), trainable=trainable)
    if scale:
        gamma = model_variable("gamma", shape=params_shape, dtype=dtype,
                               initializer=param_initializers.get("gamma", Ones()),
                               collections=utils.get_variable_collections(
                                   variables_collections, "gamma"), trainable=trainable)
    moving_mean, moving_variance = _moving_variables(params_shape, dtype, param_initializers,
                                                     variables_collections)
    training_value = utils.constant_value(is_training)
    if training_value is None or training_value:
        if data_format == DATA_FORMAT_NCHW:
            mean, variance = moments(inputs, moments_axes, keep_dims=True)
            mean = array_ops.reshape(mean, [-1])
            variance = array_ops.reshape(variance, [-1])
        else:
            mean, variance = moments(inputs, moments_axes)

        def moving_vars() -> tuple:
            return moving_mean, moving_variance
        if updates_collections is None:
            def force_updates() -> tuple:
                ups = _updates(moving_mean, moving_variance, mean, variance, decay,
                               zero_debias_moving_mean)
                with control_dependencies(list(ups)):
                    return array_ops.identity(mean), array_ops.identity(variance)
            mean, variance = utils.smart_cond(is_training, force_updates, moving_vars)
        else:
            update_mean, update_variance = utils.smart_cond(
                is_training, lambda: _updates(moving_mean, moving_variance, mean, variance,
                                              decay, zero_debias_moving_mean), moving_vars)
            add_to_collections(updates_collections, update_mean)
            add_to_collections(updates_collections, update_variance)
            mean, variance = utils.smart_cond(is_training, lambda: (mean, variance),
                                              moving_vars)
    else:
        mean, variance = moving_mean, moving_variance
    if data_format == DATA_FORMAT_NCHW:
        mean = array_ops.reshape(mean, broadcast)
        variance = array_ops.reshape(variance, broadcast)
        if beta is not None:
            beta = array_ops.reshape(beta, broadcast)
        if gamma is not None:
            gamma = array_ops.reshape(gamma, broadcast)
    outputs = batch_normalization(inputs, mean, variance, beta, gamma, epsilon)
    outputs.set_shape(inputs_shape)
    if activation_fn is not None:
        outputs = activation_fn(outputs)
    return utils.collect_named_outputs(outputs_collections, sc.name, outputs)


def _fused_batch_norm(inputs: Any, decay: float = 0.999, center: bool = True,
                      scale: bool = False, epsilon: float = 0.001, activation_fn: Any = None,
                      param_initializers: Any = None, param_regularizers: Any = None,
                      updates_collections: Any = GraphKeys.UPDATE_OPS, is_training: Any = True,
                      reuse: Any = None, variables_collections: Any = None,
                      outputs_collections: Any = None, trainable: bool = True,
                      data_format: str = DATA_FORMAT_NHWC, zero_debias_moving_mean: bool = False,
                      scope: Any = None) -> Any:
    """contrib's fused batch norm (rank 2 inputs reshaped to [-1, 1, 1, C])."""
    from tf1compat.framework.constant_op import constant
    from tf1compat.ops.nn_norm import fused_batch_norm
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with variable_scope(scope, "BatchNorm", [inputs], reuse=reuse) as sc:
        inputs = convert_to_tensor(inputs)
        original_shape = inputs.get_shape()
        original_inputs = inputs
        original_rank = original_shape.ndims
        if original_rank is None:
            raise ValueError(f"Inputs {inputs.name} has undefined rank")
        if original_rank not in (2, 4):
            raise ValueError(f"Inputs {inputs.name} has unsupported rank. Expected 2 or 4 but "
                             f"got {original_rank}")
        if original_rank == 2:
            channels = inputs.get_shape().dims[-1].value
            if channels is None:
                raise ValueError("`C` dimension must be known but is None")
            new_shape = [-1, channels, 1, 1] if data_format == DATA_FORMAT_NCHW else \
                [-1, 1, 1, channels]
            inputs = array_ops.reshape(inputs, new_shape)
        inputs_shape = inputs.get_shape()
        params_shape = inputs_shape[-1:] if data_format == DATA_FORMAT_NHWC else \
            inputs_shape[1:2]
        if not params_shape.is_fully_defined():
            raise ValueError(f"Inputs {inputs.name} has undefined `C` dimension "
                             f"{params_shape}.")
        variable_dtype = D.float32
        param_initializers = param_initializers or {}
        param_regularizers = param_regularizers or {}
        if center:
            beta = model_variable("beta", shape=params_shape, dtype=variable_dtype,
                                  initializer=param_initializers.get("beta", Zeros()),
                                  regularizer=param_regularizers.get("beta"),
                                  collections=utils.get_variable_collections(
                                      variables_collections, "beta"), trainable=trainable)
        else:
            beta = constant(0.0, dtype=variable_dtype, shape=params_shape)
        if scale:
            gamma = model_variable("gamma", shape=params_shape, dtype=variable_dtype,
                                   initializer=param_initializers.get("gamma", Ones()),
                                   regularizer=param_regularizers.get("gamma"),
                                   collections=utils.get_variable_collections(
                                       variables_collections, "gamma"), trainable=trainable)
        else:
            gamma = constant(1.0, dtype=variable_dtype, shape=params_shape)
        moving_mean, moving_variance = _moving_variables(params_shape, variable_dtype,
                                                         param_initializers,
                                                         variables_collections)

        def training() -> tuple:
            return fused_batch_norm(inputs, gamma, beta, epsilon=epsilon,
                                    data_format=data_format)

        def inference() -> tuple:
            return fused_batch_norm(inputs, gamma, beta, mean=moving_mean,
                                    variance=moving_variance, epsilon=epsilon,
                                    is_training=False, data_format=data_format)
        outputs, mean, variance = utils.smart_cond(is_training, training, inference)
        training_value = utils.constant_value(is_training)
        if training_value is None or training_value:
            if updates_collections is None:
                def force_updates() -> Any:
                    ups = _updates(moving_mean, moving_variance, mean, variance, decay,
                                   zero_debias_moving_mean)
                    with control_dependencies(list(ups)):
                        return array_ops.identity(outputs)
                outputs = utils.smart_cond(is_training, force_updates, lambda: outputs)
            else:
                update_mean, update_variance = utils.smart_cond(
                    is_training, lambda: _updates(moving_mean, moving_variance, mean, variance,
                                                  decay, zero_debias_moving_mean),
                    lambda: (moving_mean, moving_variance))
                add_to_collections(updates_collections, update_mean)
                add_to_collections(updates_collections, update_variance)
        outputs.set_shape(inputs_shape)
        if original_shape.ndims == 2:
            outputs = array_ops.reshape(outputs, array_ops.shape(original_inputs))
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return utils.collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def layer_norm(inputs: Any, center: bool = True, scale: bool = True, activation_fn: Any = None,
               reuse: Any = None, variables_collections: Any = None,
               outputs_collections: Any = None, trainable: bool = True,
               begin_norm_axis: int = 1, begin_params_axis: int = -1,
               scope: Any = None) -> Any:
    """Layer normalization over axes [begin_norm_axis, rank) (default scope 'LayerNorm')."""
    from tf1compat.ops.nn_norm import batch_normalization, moments
    with variable_scope(scope, "LayerNorm", [inputs], reuse=reuse) as sc:
        inputs = convert_to_tensor(inputs)
        inputs_shape = inputs.shape
        inputs_rank = inputs_shape.ndims
        if inputs_rank is None:
            raise ValueError(f"Inputs {inputs.name} has undefined rank.")
        dtype = inputs.dtype.base_dtype
        if begin_norm_axis < 0:
            begin_norm_axis = inputs_rank + begin_norm_axis
        if begin_params_axis >= inputs_rank or begin_norm_axis >= inputs_rank:
            raise ValueError(f"begin_params_axis ({begin_params_axis}) and begin_norm_axis "
                             f"({begin_norm_axis}) must be < rank(inputs) ({inputs_rank})")
        params_shape = inputs_shape[begin_params_axis:]
        if not params_shape.is_fully_defined():
            raise ValueError(f"Inputs {inputs.name}: shape(inputs)[{begin_params_axis}:] is "
                             f"not fully defined: {inputs_shape}")
        beta = gamma = None
        if center:
            beta = model_variable("beta", shape=params_shape, dtype=dtype,
                                  initializer=Zeros(), trainable=trainable,
                                  collections=utils.get_variable_collections(
                                      variables_collections, "beta"))
        if scale:
            gamma = model_variable("gamma", shape=params_shape, dtype=dtype,
                                   initializer=Ones(), trainable=trainable,
                                   collections=utils.get_variable_collections(
                                       variables_collections, "gamma"))
        norm_axes = list(range(begin_norm_axis, inputs_rank))
        mean, variance = moments(inputs, norm_axes, keep_dims=True)
        variance_epsilon = 1e-12 if dtype != D.float16 else 1e-3
        outputs = batch_normalization(inputs, mean, variance, offset=beta, scale=gamma,
                                      variance_epsilon=variance_epsilon)
        outputs.set_shape(inputs_shape)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return utils.collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def one_hot_encoding(labels: Any, num_classes: int, on_value: float = 1.0,
                     off_value: float = 0.0, outputs_collections: Any = None,
                     scope: Any = None) -> Any:
    """One-hot float encoding of integer labels (name scope 'OneHotEncoding')."""
    from tf1compat.ops.creation_ops import one_hot
    from tf1compat.ops.math_ops import to_int64
    with name_scope(scope, "OneHotEncoding", [labels, num_classes]) as sc:
        labels = convert_to_tensor(labels)
        if labels.dtype == D.int32:
            labels = to_int64(labels)
        outputs = one_hot(labels, num_classes, on_value=on_value, off_value=off_value)
        return utils.collect_named_outputs(outputs_collections, sc, outputs)


@add_arg_scope
def bias_add(inputs: Any, activation_fn: Any = None, initializer: Any = Zeros(),
             regularizer: Any = None, reuse: Any = None, variables_collections: Any = None,
             outputs_collections: Any = None, trainable: bool = True,
             data_format: str = DATA_FORMAT_NHWC, scope: Any = None) -> Any:
    """Adds a `biases` model variable over the channel axis (default scope 'BiasAdd')."""
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with variable_scope(scope, "BiasAdd", [inputs], reuse=reuse) as sc:
        inputs = convert_to_tensor(inputs)
        dtype = inputs.dtype.base_dtype
        inputs_shape = inputs.get_shape()
        inputs_rank = inputs_shape.ndims
        if inputs_rank is None:
            raise ValueError("Dims of shape must be known but is None")
        if inputs_rank < 2:
            raise ValueError(f"Rank of shape must be at least 2 not: {inputs_rank}")
        axis = 1 if data_format == DATA_FORMAT_NCHW else -1
        num_features = inputs_shape.dims[axis].value
        if num_features is None:
            raise ValueError("`C` dimension must be known but is None")
        biases = model_variable("biases", shape=[num_features], dtype=dtype,
                                initializer=initializer, regularizer=regularizer,
                                collections=utils.get_variable_collections(
                                    variables_collections, "biases"), trainable=trainable)
        outputs = nn_ops.bias_add(inputs, biases, data_format=data_format)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return utils.collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def softmax(logits: Any, scope: Any = None) -> Any:
    """Softmax over the last axis (name scope 'softmax')."""
    with variable_scope(scope, "softmax", [logits]):
        num_logits = logits.get_shape().as_list()[-1]
        logits_2d = array_ops.reshape(logits, [-1, num_logits])
        predictions = nn_ops.softmax(logits_2d)
        predictions = array_ops.reshape(predictions, array_ops.shape(logits))
        predictions.set_shape(logits.get_shape())
        return predictions


def _layer_scope_name(layer: Any, default: str) -> str:
    if hasattr(layer, "__name__"):
        return layer.__name__
    if hasattr(layer, "func") and hasattr(layer.func, "__name__"):
        return layer.func.__name__
    return default


def repeat(inputs: Any, repetitions: int, layer: Callable, *args: Any, **kwargs: Any) -> Any:
    """Applies `layer` `repetitions` times, scopes `<scope>/<scope>_1`, `_2`, ..."""
    scope = kwargs.pop("scope", None)
    with variable_scope(scope, "Repeat", [inputs]):
        inputs = convert_to_tensor(inputs)
        if scope is None:
            scope = _layer_scope_name(layer, "repeat")
        outputs = inputs
        for i in range(repetitions):
            kwargs["scope"] = scope + "_" + str(i + 1)
            outputs = layer(outputs, *args, **kwargs)
        return outputs


def stack(inputs: Any, layer: Callable, stack_args: Any, **kwargs: Any) -> Any:
    """Applies `layer` once per entry of `stack_args`, scopes `<scope>_1`, `_2`, ..."""
    scope = kwargs.pop("scope", None)
    if not isinstance(stack_args, (list, tuple)):
        raise ValueError("stack_args need to be a list or tuple")
    with variable_scope(scope, "Stack", [inputs]):
        inputs = convert_to_tensor(inputs)
        if scope is None:
            scope = _layer_scope_name(layer, "stack")
        outputs = inputs
        for i, layer_args in enumerate(stack_args):
            kwargs["scope"] = scope + "_" + str(i + 1)
            if not isinstance(layer_args, (list, tuple)):
                layer_args = [layer_args]
            outputs = layer(outputs, *layer_args, **kwargs)
        return outputs
