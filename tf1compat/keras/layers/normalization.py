"""`tf.keras.layers.BatchNormalization` (TF1 V1 behaviour) and `LayerNormalization`.

Weights: gamma, beta (trainable), moving_mean, moving_variance (non-trainable, ON_READ).
Rank-4/5 inputs normalized over the channel axis use FusedBatchNormV3 (`fused=None`);
others use `tf.nn.moments` + `tf.nn.batch_normalization`. `training` is a bool or a bool
tensor (default: the Keras learning phase); with training, the moving statistics are
updated through ops built at call time and listed by `layer.updates`:

    moving -= (moving - batch_stat) * (1 - momentum)        (AssignSub "AssignMovingAvg")

where the fused path's batch variance is the unbiased (Bessel-corrected) one, as TF's
FusedBatchNormV3 reports it, and the non-fused path's is the biased one. Renormalization,
virtual batches and `adjustment` are not supported (NotImplementedError).

LayerNormalization normalizes each example over `axis` (weights gamma, beta shaped like
those axes). As tf-keras, when the axes are the trailing ones, epsilon >= 1.001e-5 and the
layer is float32, it computes the statistics with FusedBatchNormV3 on the input reshaped
to [1, batch-part, normalized-part, 1] NCHW and applies gamma/beta afterwards; otherwise
with `tf.nn.moments` + `tf.nn.batch_normalization`.
"""

from __future__ import annotations

import contextlib
from typing import Any, List, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import colocate_with
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import backend, constraints, initializers, regularizers
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers.core import constant_value, smart_cond
from tf1compat.ops import array_ops, creation_ops, math_ops, reduction_ops
from tf1compat.variables.variables import VariableAggregation, VariableSynchronization

__all__ = ["BatchNormalization", "LayerNormalization", "validate_axis"]


def validate_axis(axis: Any, input_shape: Any) -> List[int]:
    """Normalizes `axis` (int or list, negatives allowed) against the input rank."""
    input_shape = TensorShape(input_shape)
    rank = input_shape.rank
    if not rank:
        raise ValueError(f"Input has undefined rank. Received: input_shape={input_shape}")
    if isinstance(axis, int):
        axis = [axis]
    else:
        axis = list(axis)
    for idx, x in enumerate(axis):
        if x < 0:
            axis[idx] = rank + x
    for x in axis:
        if x < 0 or x >= rank:
            raise ValueError("Invalid value for `axis` argument. Expected 0 <= axis < "
                             f"inputs.rank (with inputs.rank={rank}). Received: axis="
                             f"{tuple(axis)}")
    if len(axis) != len(set(axis)):
        raise ValueError(f"Duplicate axis: {tuple(axis)}")
    return axis


def _axis_arg(axis: Any) -> Any:
    """The `axis` argument as an int or a list (validated against the rank in build)."""
    if isinstance(axis, (list, tuple)):
        return list(axis)
    if isinstance(axis, int):
        return axis
    raise TypeError("Expected an int or a list/tuple of ints for the argument 'axis', but "
                    f"received: {axis!r}")


def _set_scale_center_args(layer: Any, beta_initializer: Any, gamma_initializer: Any,
                           beta_regularizer: Any, gamma_regularizer: Any,
                           beta_constraint: Any, gamma_constraint: Any) -> None:
    layer.beta_initializer = initializers.get(beta_initializer)
    layer.gamma_initializer = initializers.get(gamma_initializer)
    layer.beta_regularizer = regularizers.get(beta_regularizer)
    layer.gamma_regularizer = regularizers.get(gamma_regularizer)
    layer.beta_constraint = constraints.get(beta_constraint)
    layer.gamma_constraint = constraints.get(gamma_constraint)


class BatchNormalization(Layer):
    """Normalizes activations by batch statistics in training, moving ones in inference."""

    def __init__(self, axis: Any = -1, momentum: float = 0.99, epsilon: float = 1e-3,
                 center: bool = True, scale: bool = True, beta_initializer: Any = "zeros",
                 gamma_initializer: Any = "ones", moving_mean_initializer: Any = "zeros",
                 moving_variance_initializer: Any = "ones", beta_regularizer: Any = None,
                 gamma_regularizer: Any = None, beta_constraint: Any = None,
                 gamma_constraint: Any = None, renorm: bool = False,
                 renorm_clipping: Any = None, renorm_momentum: float = 0.99,
                 fused: Optional[bool] = None, trainable: bool = True,
                 virtual_batch_size: Optional[int] = None, adjustment: Any = None,
                 name: Optional[str] = None, **kwargs: Any):
        kwargs.pop("synchronized", None)
        super().__init__(name=name, **kwargs)
        self.axis = _axis_arg(axis)
        if renorm:
            raise NotImplementedError("BatchNormalization(renorm=True) is not supported by "
                                      "tf1compat")
        if virtual_batch_size is not None:
            raise NotImplementedError("BatchNormalization(virtual_batch_size=...) is not "
                                      "supported by tf1compat")
        if adjustment is not None:
            raise NotImplementedError("BatchNormalization(adjustment=...) is not supported by "
                                      "tf1compat")
        self.momentum = momentum
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        _set_scale_center_args(self, beta_initializer, gamma_initializer, beta_regularizer,
                               gamma_regularizer, beta_constraint, gamma_constraint)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.renorm = renorm
        self.virtual_batch_size = virtual_batch_size
        self.adjustment = adjustment
        if fused is None:
            fused = True
        self.supports_masking = True
        self.fused = fused
        self.trainable = trainable

    def _fused_can_be_used(self) -> bool:
        axis = [self.axis] if isinstance(self.axis, int) else self.axis
        if len(axis) > 1 or axis[0] not in (-4, -3, -1, 1, 3, 4):
            return False
        return self.dtype in ("float16", "bfloat16", "float32", None)

    @property
    def _param_dtype(self) -> D.DType:
        if self.dtype in ("float16", "bfloat16"):
            return D.float32
        return D.as_dtype(self.dtype or "float32")

    def build(self, input_shape: Any) -> None:
        self.axis = validate_axis(self.axis, input_shape)
        input_shape = TensorShape(input_shape)
        rank = input_shape.rank
        if self.fused in (None, True):
            self.fused = rank in (4, 5) and self._fused_can_be_used()
        if self.fused:
            formats = {(1, 4): "NCHW", (1, 5): "NCDHW", (3, 4): "NHWC", (4, 5): "NDHWC"}
            fmt = formats.get((self.axis[0], rank)) if len(self.axis) == 1 else None
            if fmt is None:
                if rank == 5:
                    self.fused = False
                else:
                    raise ValueError("Unsupported axis. The use of `fused=True` is only "
                                     "possible with `axis=1` or `axis=3` for 4D input tensors. "
                                     f"Received: axis={tuple(self.axis)}")
            self._data_format = fmt
        axis_to_dim = {x: input_shape.dims[x].value for x in self.axis}
        for x in axis_to_dim:
            if axis_to_dim[x] is None:
                raise ValueError("Input has undefined `axis` dimension. Received input with "
                                 f"shape {tuple(input_shape)} and axis="
                                 f"{tuple(self.axis)}")
        self.input_spec = InputSpec(ndim=rank, axes=axis_to_dim)
        if len(axis_to_dim) == 1:
            param_shape: Any = (list(axis_to_dim.values())[0],)
        else:
            param_shape = [axis_to_dim[i] if i in axis_to_dim else 1 for i in range(rank)]
        self._param_shape = param_shape
        if self.scale:
            self.gamma = self.add_weight(name="gamma", shape=param_shape,
                                         dtype=self._param_dtype,
                                         initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer,
                                         constraint=self.gamma_constraint, trainable=True,
                                         experimental_autocast=False)
        else:
            self.gamma = None
        if self.center:
            self.beta = self.add_weight(name="beta", shape=param_shape,
                                        dtype=self._param_dtype,
                                        initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer,
                                        constraint=self.beta_constraint, trainable=True,
                                        experimental_autocast=False)
        else:
            self.beta = None
        # Moving statistics are never partitioned (TF lifts the scope's partitioner).
        scope = getattr(self, "_scope", None)
        partitioner = None
        if scope is not None:
            partitioner = scope.partitioner
            scope.set_partitioner(None)
        try:
            self.moving_mean = self.add_weight(
                name="moving_mean", shape=param_shape, dtype=self._param_dtype,
                initializer=self.moving_mean_initializer,
                synchronization=VariableSynchronization.ON_READ, trainable=False,
                aggregation=VariableAggregation.MEAN, experimental_autocast=False)
            self.moving_variance = self.add_weight(
                name="moving_variance", shape=param_shape, dtype=self._param_dtype,
                initializer=self.moving_variance_initializer,
                synchronization=VariableSynchronization.ON_READ, trainable=False,
                aggregation=VariableAggregation.MEAN, experimental_autocast=False)
        finally:
            if partitioner:
                scope.set_partitioner(partitioner)
        self.built = True

    # -- the moving-average update ------------------------------------------------------------
    def _assign_moving_average(self, variable: Any, value: Any, momentum: Any) -> Any:
        from tf1compat.ops.state_ops import assign_sub
        from tf1compat.training.strategies.distribute_lib import \
            current_replica_context_for_merge
        replica_context = current_replica_context_for_merge()
        if replica_context is not None:
            # A tf.distribute replica: TF's moving statistics are MEAN-aggregated per-replica
            # copies; their mean moves toward the replicas' mean batch statistic, which is
            # what one shared variable does when updated once with that mean.
            def merge_fn(strategy: Any, value: Any) -> Any:
                from tf1compat.training.strategies.values import ReduceOp
                mean = strategy.extended._reduce_to(ReduceOp.MEAN, value)
                return self._assign_moving_average(variable, mean, momentum)
            return replica_context.merge_call(merge_fn, args=(value,))
        with backend.name_scope("AssignMovingAvg") as scope:
            # (a variable created eagerly, updated in a functional model's graph, has no op
            # of that graph to colocate with: TF captures its handle, placement unchanged)
            graph_variable = getattr(variable, "_as_graph_element", lambda: variable)()
            with (colocate_with(variable) if graph_variable is not None
                  else contextlib.nullcontext()):
                decay = convert_to_tensor(1.0 - momentum, name="decay")
                if decay.dtype != variable.dtype.base_dtype:
                    decay = math_ops.cast(decay, variable.dtype.base_dtype)
                update_delta = (variable - math_ops.cast(value, variable.dtype.base_dtype)) * \
                    decay
                return assign_sub(variable, update_delta, name=scope)

    def _get_training_value(self, training: Any = None) -> Any:
        if training is None:
            training = backend.learning_phase()
        return training

    # -- call ----------------------------------------------------------------------------------
    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        if inputs.dtype.base_dtype != D.as_dtype(self.dtype).base_dtype:
            inputs = math_ops.cast(inputs, self.dtype)
        training = self._get_training_value(training)
        if self.fused:
            return self._fused_batch_norm(inputs, training)
        inputs_dtype = inputs.dtype.base_dtype
        if inputs_dtype in (D.float16, D.bfloat16):
            inputs = math_ops.cast(inputs, D.float32)
        input_shape = inputs.shape
        ndims = len(input_shape)
        reduction_axes = [i for i in range(ndims) if i not in self.axis]
        broadcast_shape = [1] * ndims
        broadcast_shape[self.axis[0]] = input_shape.dims[self.axis[0]].value

        def _broadcast(v: Any) -> Any:
            if v is not None and len(v.shape) != ndims and \
                    reduction_axes != list(range(ndims - 1)):
                return array_ops.reshape(v, broadcast_shape)
            return v
        scale, offset = _broadcast(self.gamma), _broadcast(self.beta)
        training_value = constant_value(training)
        if training_value == False:  # noqa: E712 - None means "decided at run time"
            mean, variance = self.moving_mean, self.moving_variance
        else:
            from tf1compat.ops.nn_norm import moments
            keep_dims = len(self.axis) > 1
            mean, variance = moments(math_ops.cast(inputs, self._param_dtype), reduction_axes,
                                     keepdims=keep_dims)
            moving_mean, moving_variance = self.moving_mean, self.moving_variance
            mean = smart_cond(training, lambda: mean,
                              lambda: convert_to_tensor(moving_mean))
            variance = smart_cond(training, lambda: variance,
                                  lambda: convert_to_tensor(moving_variance))
            new_mean, new_variance = mean, variance

            def mean_update() -> Any:
                return smart_cond(training,
                                  lambda: self._assign_moving_average(self.moving_mean,
                                                                      new_mean, self.momentum),
                                  lambda: self.moving_mean)

            def variance_update() -> Any:
                return smart_cond(training,
                                  lambda: self._assign_moving_average(self.moving_variance,
                                                                      new_variance,
                                                                      self.momentum),
                                  lambda: self.moving_variance)
            self.add_update(mean_update)
            self.add_update(variance_update)
        mean = math_ops.cast(mean, inputs.dtype)
        variance = math_ops.cast(variance, inputs.dtype)
        if offset is not None:
            offset = math_ops.cast(offset, inputs.dtype)
        if scale is not None:
            scale = math_ops.cast(scale, inputs.dtype)
        from tf1compat.ops.nn_norm import batch_normalization
        outputs = batch_normalization(inputs, _broadcast(mean), _broadcast(variance), offset,
                                      scale, self.epsilon)
        if inputs_dtype in (D.float16, D.bfloat16):
            outputs = math_ops.cast(outputs, inputs_dtype)
        outputs.set_shape(input_shape)
        return outputs

    def _fused_batch_norm(self, inputs: Tensor, training: Any) -> Tensor:
        from tf1compat.ops.nn_norm import fused_batch_norm
        beta = self.beta if self.center else backend.constant(
            0.0, dtype=self._param_dtype, shape=self._param_shape)
        gamma = self.gamma if self.scale else backend.constant(
            1.0, dtype=self._param_dtype, shape=self._param_shape)

        def _training() -> Any:
            return fused_batch_norm(inputs, gamma, beta, mean=self.moving_mean,
                                    variance=self.moving_variance, epsilon=self.epsilon,
                                    is_training=True, data_format=self._data_format)

        def _inference() -> Any:
            return fused_batch_norm(inputs, gamma, beta, mean=self.moving_mean,
                                    variance=self.moving_variance, epsilon=self.epsilon,
                                    is_training=False, data_format=self._data_format)
        output, mean, variance = smart_cond(training, _training, _inference)
        training_value = constant_value(training)
        if training_value or training_value is None:
            if training_value is None:
                momentum = smart_cond(training, lambda: self.momentum, lambda: 1.0)
            else:
                momentum = convert_to_tensor(self.momentum)
            self.add_update(lambda: self._assign_moving_average(self.moving_mean, mean,
                                                                momentum))
            self.add_update(lambda: self._assign_moving_average(self.moving_variance,
                                                                variance, momentum))
        return output

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        config = {
            "axis": self.axis, "momentum": self.momentum, "epsilon": self.epsilon,
            "center": self.center, "scale": self.scale,
            "beta_initializer": initializers.serialize(self.beta_initializer),
            "gamma_initializer": initializers.serialize(self.gamma_initializer),
            "moving_mean_initializer": initializers.serialize(self.moving_mean_initializer),
            "moving_variance_initializer":
                initializers.serialize(self.moving_variance_initializer),
            "beta_regularizer": regularizers.serialize(self.beta_regularizer),
            "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
            "beta_constraint": constraints.serialize(self.beta_constraint),
            "gamma_constraint": constraints.serialize(self.gamma_constraint)}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class LayerNormalization(Layer):
    """Normalizes each example over `axis`, then scales by gamma and shifts by beta."""

    def __init__(self, axis: Any = -1, epsilon: float = 1e-3, center: bool = True,
                 scale: bool = True, beta_initializer: Any = "zeros",
                 gamma_initializer: Any = "ones", beta_regularizer: Any = None,
                 gamma_regularizer: Any = None, beta_constraint: Any = None,
                 gamma_constraint: Any = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.axis: Any = _axis_arg(axis)
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        _set_scale_center_args(self, beta_initializer, gamma_initializer, beta_regularizer,
                               gamma_regularizer, beta_constraint, gamma_constraint)
        self.supports_masking = True
        self._fused: Optional[bool] = None

    def _fused_can_be_used(self, ndims: int) -> bool:
        # The normalized axes must be contiguous and end at the last axis.
        axis = sorted(self.axis)
        trailing = axis[-1] == ndims - 1 and axis[-1] - axis[0] == len(axis) - 1
        return trailing and self.epsilon >= 1.001e-5 and self.dtype == "float32"

    def build(self, input_shape: Any) -> None:
        self.axis = validate_axis(self.axis, input_shape)
        input_shape = TensorShape(input_shape)
        param_shape = [input_shape[dim] for dim in self.axis]
        self.gamma = self.add_weight(
            name="gamma", shape=param_shape, initializer=self.gamma_initializer,
            regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
            trainable=True, experimental_autocast=False) if self.scale else None
        self.beta = self.add_weight(
            name="beta", shape=param_shape, initializer=self.beta_initializer,
            regularizer=self.beta_regularizer, constraint=self.beta_constraint,
            trainable=True, experimental_autocast=False) if self.center else None
        self._fused = self._fused_can_be_used(input_shape.rank)
        self.built = True

    def call(self, inputs: Any) -> Any:
        from tf1compat.ops.nn_norm import batch_normalization, fused_batch_norm, moments
        inputs = math_ops.cast(inputs, self.compute_dtype)
        input_shape = inputs.shape
        ndims = len(input_shape)
        broadcast_shape = [1] * ndims
        for dim in self.axis:
            broadcast_shape[dim] = input_shape.dims[dim].value

        def _broadcast(v: Any) -> Any:
            if v is not None and len(v.shape) != ndims and self.axis != [ndims - 1]:
                return array_ops.reshape(v, broadcast_shape)
            return v

        if not self._fused:
            input_dtype = inputs.dtype
            if input_dtype in (D.float16, D.bfloat16) and self.dtype == "float32":
                inputs = math_ops.cast(inputs, D.float32)
            mean, variance = moments(inputs, self.axis, keepdims=True)
            outputs = batch_normalization(inputs, mean, variance, offset=_broadcast(self.beta),
                                          scale=_broadcast(self.gamma),
                                          variance_epsilon=self.epsilon)
            outputs = math_ops.cast(outputs, input_dtype)
        else:
            # Each example becomes one channel of a [1, pre, in, 1] NCHW batch, so the
            # fused op's per-channel batch statistics are the per-example ones.
            first = sorted(self.axis)[0]
            tensor_shape = array_ops.shape(inputs)
            pre_dim = reduction_ops.reduce_prod(tensor_shape[:first])
            in_dim = reduction_ops.reduce_prod(tensor_shape[first:])
            squeezed = array_ops.reshape(inputs, [1, pre_dim, in_dim, 1])
            ones = creation_ops.ones([pre_dim], dtype=self.dtype)
            zeros = creation_ops.zeros([pre_dim], dtype=self.dtype)
            outputs, _, _ = fused_batch_norm(squeezed, scale=ones, offset=zeros,
                                             epsilon=self.epsilon, data_format="NCHW")
            outputs = array_ops.reshape(outputs, tensor_shape)
            scale, offset = _broadcast(self.gamma), _broadcast(self.beta)
            if scale is not None:
                outputs = outputs * math_ops.cast(scale, outputs.dtype)
            if offset is not None:
                outputs = outputs + math_ops.cast(offset, outputs.dtype)
        outputs.set_shape(input_shape)
        return outputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        config = {
            "axis": self.axis, "epsilon": self.epsilon, "center": self.center,
            "scale": self.scale,
            "beta_initializer": initializers.serialize(self.beta_initializer),
            "gamma_initializer": initializers.serialize(self.gamma_initializer),
            "beta_regularizer": regularizers.serialize(self.beta_regularizer),
            "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
            "beta_constraint": constraints.serialize(self.beta_constraint),
            "gamma_constraint": constraints.serialize(self.gamma_constraint)}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))
