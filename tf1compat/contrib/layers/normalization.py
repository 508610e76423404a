"""`tf.contrib.layers.instance_norm` and `group_norm` (TF 1.15's contrib normalization).

Both normalize each example separately (unlike batch_norm there are no moving
statistics): instance_norm over every axis but the batch and channel ones, group_norm over
`reduction_axes` and the channels of one group. Their `beta`/`gamma` are model variables
of the channel count, made in `variable_scope(scope, 'InstanceNorm' | 'GroupNorm')`.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

from tf1compat.contrib.framework.arg_scope import add_arg_scope
from tf1compat.contrib.framework.variables import model_variable
from tf1compat.contrib.layers import utils
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.nn_norm import batch_normalization, moments
from tf1compat.variables.init_ops import Ones, Zeros
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["instance_norm", "group_norm"]

DATA_FORMAT_NCHW = "NCHW"
DATA_FORMAT_NHWC = "NHWC"


def _beta_gamma(center: bool, scale: bool, params_shape: Any, dtype: Any,
                param_initializers: Optional[dict], variables_collections: Any,
                trainable: bool) -> Tuple[Any, Any]:
    """The offset and scale model variables (None where disabled), in the current scope."""
    initializers = param_initializers or {}
    made = []
    for wanted, name, default in ((center, "beta", Zeros()), (scale, "gamma", Ones())):
        made.append(model_variable(
            name, shape=params_shape, dtype=dtype,
            initializer=initializers.get(name, default), trainable=trainable,
            collections=utils.get_variable_collections(variables_collections, name))
            if wanted else None)
    return made[0], made[1]


@add_arg_scope
def instance_norm(inputs: Any, center: bool = True, scale: bool = True, epsilon: float = 1e-6,
                  activation_fn: Any = None, param_initializers: Optional[dict] = None,
                  reuse: Any = None, variables_collections: Any = None,
                  outputs_collections: Any = None, trainable: bool = True,
                  data_format: str = DATA_FORMAT_NHWC, scope: Any = None) -> Any:
    """Instance normalization: each example and channel normalized over the other axes
    (the spatial ones), then `* gamma + beta` per channel (default scope 'InstanceNorm')."""
    inputs = convert_to_tensor(inputs)
    inputs_shape = inputs.shape
    rank = inputs_shape.ndims
    if rank is None:
        raise ValueError(f"Inputs {inputs.name} has undefined rank.")
    if data_format not in (DATA_FORMAT_NCHW, DATA_FORMAT_NHWC):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with variable_scope(scope, "InstanceNorm", [inputs], reuse=reuse) as sc:
        channel_axis = 1 if data_format == DATA_FORMAT_NCHW else rank - 1
        params_shape = inputs_shape[channel_axis:channel_axis + 1]
        if not params_shape.is_fully_defined():
            raise ValueError(f"Inputs {inputs.name} has undefined channels dimension "
                             f"{params_shape}.")
        beta, gamma = _beta_gamma(center, scale, params_shape, inputs.dtype.base_dtype,
                                  param_initializers, variables_collections, trainable)
        if data_format == DATA_FORMAT_NCHW:
            # Channels first do not broadcast against the trailing axes: give the
            # parameters explicit singleton spatial axes.
            broadcast = [1, params_shape[0]] + [1] * (rank - 2)
            beta = None if beta is None else array_ops.reshape(beta, broadcast)
            gamma = None if gamma is None else array_ops.reshape(gamma, broadcast)
        moment_axes = [axis for axis in range(1, rank) if axis != channel_axis]
        mean, variance = moments(inputs, moment_axes, keep_dims=True)
        outputs = batch_normalization(inputs, mean, variance, beta, gamma, epsilon,
                                      name="instancenorm")
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return utils.collect_named_outputs(outputs_collections, sc.name, outputs)


def _group_norm_axes(inputs: Any, channels_axis: int, reduction_axes: Any) -> Tuple[int, list]:
    """Validated (non-negative channels axis, non-negative reduction axes)."""
    rank = inputs.shape.ndims
    if channels_axis > rank - 1:
        raise ValueError("Axis is out of bounds.")
    if channels_axis < 0:
        channels_axis += rank
    axes = [axis + rank if axis < 0 else axis for axis in reduction_axes]
    for axis in axes:
        if axis > rank:
            raise ValueError("Axis is out of bounds.")
        if dimension_value(inputs.shape[axis]) is None:
            raise ValueError(f"Inputs {inputs.name} has undefined dimensions {axis}.")
        if axis == channels_axis:
            raise ValueError("reduction_axis must be mutually exclusive with channels_axis")
    return channels_axis, axes


@add_arg_scope
def group_norm(inputs: Any, groups: int = 32, channels_axis: int = -1,
               reduction_axes: Any = (-3, -2), center: bool = True, scale: bool = True,
               epsilon: float = 1e-6, activation_fn: Any = None,
               param_initializers: Optional[dict] = None, reuse: Any = None,
               variables_collections: Any = None, outputs_collections: Any = None,
               trainable: bool = True, scope: Any = None) -> Any:
    """Group normalization: the channels split into `groups`, each example's group
    normalized over its channels and `reduction_axes` (default scope 'GroupNorm')."""
    inputs = convert_to_tensor(inputs)
    if inputs.shape.ndims is None:
        raise ValueError(f"Inputs {inputs.name} has undefined rank.")
    original_shape = array_ops.shape(inputs)
    channels_axis, reduction_axes = _group_norm_axes(inputs, channels_axis, reduction_axes)
    channels = dimension_value(inputs.shape[channels_axis])
    if channels is None:
        raise ValueError(f"Inputs {inputs.name} has undefined channel dimension: "
                         f"{channels_axis}.")
    if groups > channels:
        raise ValueError(f"Invalid groups {groups} for {channels} channels.")
    if channels % groups != 0:
        raise ValueError(f"{channels} channels is not commensurate with {groups} groups.")
    rank = inputs.shape.ndims
    dynamic_shape = array_ops.shape(inputs)
    before = [dynamic_shape[i] for i in range(channels_axis)]
    after = [dynamic_shape[i] for i in range(channels_axis + 1, rank)]
    broadcast = [1] * len(before) + [groups, channels // groups] + [1] * len(after)
    grouped = array_ops.reshape(inputs, before + [groups, channels // groups] + after)
    # The channel axis became (group, channel-in-group): axes after it shift by one.
    moment_axes = [channels_axis + 1] + [axis + 1 if axis > channels_axis else axis
                                         for axis in reduction_axes]
    with variable_scope(scope, "GroupNorm", [grouped], reuse=reuse) as sc:
        beta, gamma = _beta_gamma(center, scale, [channels], inputs.dtype.base_dtype,
                                  param_initializers, variables_collections, trainable)
        mean, variance = moments(grouped, moment_axes, keep_dims=True)
        gain = math_ops.rsqrt(variance + epsilon)
        offset = -mean * gain
        if gamma is not None:
            gamma = array_ops.reshape(gamma, broadcast)
            gain *= gamma
            offset *= gamma
        if beta is not None:
            offset += array_ops.reshape(beta, broadcast)
        outputs = array_ops.reshape(grouped * gain + offset, original_shape)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return utils.collect_named_outputs(outputs_collections, sc.name, outputs)
