"""Virtual batch normalization (Salimans et al. 2016; TF 1.14's
virtual_batchnorm_impl.py): each example is normalized with statistics of a fixed
reference batch plus that example (weights 1/(n+1) for the example, n/(n+1) for the
reference), so an example's output does not depend on the rest of its batch."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from tf1compat.framework import dtypes
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops.array_ops import reshape, shape, squeeze, stop_gradient
from tf1compat.ops.math_ops import cast, square
from tf1compat.ops.nn_norm import batch_normalization
from tf1compat.ops.reduction_ops import reduce_mean
from tf1compat.variables.init_ops import ones_initializer, zeros_initializer
from tf1compat.variables.variable_scope import get_variable, variable_scope

__all__ = ["VBN"]


def _batch_size(tensor: Any, batch_axis: int) -> Any:
    """The batch size as a number when it is static, else as a tensor."""
    size = shape(tensor)[batch_axis]
    return constant_value(size) or size


def _statistics(x: Any, axes: Sequence[int]) -> Tuple[Any, Any]:
    """Mean and mean of squares over `axes` (float16 computed in float32); the mean is
    taken around a stop-gradient shift for accuracy."""
    y = cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
    shift = stop_gradient(reduce_mean(y, axes, keepdims=True))
    mean = reduce_mean(y - shift, axes, keepdims=True) + shift
    mean_squared = reduce_mean(square(y), axes, keepdims=True)
    mean, mean_squared = squeeze(mean, axes), squeeze(mean_squared, axes)
    if x.dtype == dtypes.float16:
        return cast(mean, dtypes.float16), cast(mean_squared, dtypes.float16)
    return mean, mean_squared


def _axis(reference_batch: Any, axis: int) -> int:
    if reference_batch.shape.ndims is None:
        raise ValueError("`reference_batch` has unknown dimensions.")
    ndims = reference_batch.shape.ndims
    used = ndims + axis if axis < 0 else axis
    if used < 0 or used >= ndims:
        raise ValueError(f"Value of `axis` argument {used} is out of range for input with "
                         f"rank {ndims}")
    return used


class VBN:
    """Virtual batch normalization over `axis` (the features) with the statistics of
    `reference_batch`; creates `beta`/`gamma` (when `center`/`scale`) in a variable scope
    `name` (default 'VBN'). Call it on a batch whose non-batch shape matches the
    reference's; `reference_batch_normalization()` normalizes the reference itself."""

    def __init__(self, reference_batch: Any, axis: int = -1, epsilon: float = 1e-3,
                 center: bool = True, scale: bool = True,
                 beta_initializer: Any = zeros_initializer(),
                 gamma_initializer: Any = ones_initializer(),
                 beta_regularizer: Any = None, gamma_regularizer: Any = None,
                 trainable: bool = True, name: Optional[str] = None,
                 batch_axis: int = 0) -> None:
        axis = _axis(reference_batch, axis)
        self._epsilon = epsilon
        self._beta: Any = 0
        self._gamma: Any = 1
        self._batch_axis = _axis(reference_batch, batch_axis)
        if axis == self._batch_axis:
            raise ValueError("`axis` and `batch_axis` cannot be the same.")
        with variable_scope(name, "VBN", values=[reference_batch]) as self._vs:
            self._reference_batch = reference_batch
            input_shape = reference_batch.shape
            ndims = input_shape.ndims
            reduction_axes = [i for i in range(ndims) if i != axis]
            self._broadcast_shape: List[Any] = [1] * ndims
            self._broadcast_shape[axis] = input_shape.dims[axis]
            # Per-example statistics reduce over everything but the batch and feature axes.
            self._example_reduction_axes = [i for i in range(ndims)
                                            if i not in (axis, self._batch_axis)]
            params_shape = input_shape[axis]
            self._needs_broadcasting = \
                sorted(self._example_reduction_axes) != list(range(ndims))[:-2]
            self._ref_mean, self._ref_mean_squares = _statistics(reference_batch,
                                                                 reduction_axes)
            self._ref_variance = self._ref_mean_squares - square(self._ref_mean)
            ref_batch_size = _batch_size(reference_batch, self._batch_axis)
            self._example_weight = 1. / (cast(ref_batch_size, dtypes.float32) + 1.)
            self._ref_weight = 1. - self._example_weight
            if center:
                self._beta = get_variable(name="beta", shape=(params_shape,),
                                          initializer=beta_initializer,
                                          regularizer=beta_regularizer, trainable=trainable)
            if scale:
                self._gamma = get_variable(name="gamma", shape=(params_shape,),
                                           initializer=gamma_initializer,
                                           regularizer=gamma_regularizer,
                                           trainable=trainable)

    def _virtual_statistics(self, inputs: Any, reduction_axes: Sequence[int]
                            ) -> Tuple[Any, Any]:
        mean, mean_sq = _statistics(inputs, reduction_axes)
        return (self._example_weight * mean + self._ref_weight * self._ref_mean,
                self._example_weight * mean_sq + self._ref_weight * self._ref_mean_squares)

    def _broadcast(self, v: Any, broadcast_shape: Optional[List[Any]] = None) -> Any:
        if self._needs_broadcasting and v is not None:
            return reshape(v, broadcast_shape or self._broadcast_shape)
        return v

    def reference_batch_normalization(self) -> Any:
        """The reference batch normalized with its own statistics."""
        with name_scope(self._vs.name):
            return batch_normalization(self._reference_batch,
                                       self._broadcast(self._ref_mean),
                                       self._broadcast(self._ref_variance),
                                       self._broadcast(self._beta),
                                       self._broadcast(self._gamma), self._epsilon)

    def __call__(self, inputs: Any) -> Any:
        """`inputs` normalized example by example with the virtual batch statistics."""
        ref = self._reference_batch
        expected = TensorShape([d for i, d in enumerate(ref.shape.as_list())
                                if i != self._batch_axis])
        for tensor in (inputs, ref):
            expected.assert_is_compatible_with(
                [d for i, d in enumerate(tensor.shape.as_list()) if i != self._batch_axis])
        with name_scope(self._vs.name, values=[inputs, ref]):
            vb_mean, vb_mean_sq = self._virtual_statistics(inputs,
                                                           self._example_reduction_axes)
            vb_variance = vb_mean_sq - square(vb_mean)
            b_shape = list(self._broadcast_shape)
            b_shape[self._batch_axis] = _batch_size(inputs, self._batch_axis)
            return batch_normalization(
                inputs, self._broadcast(vb_mean, b_shape),
                self._broadcast(vb_variance, b_shape),
                self._broadcast(self._beta, self._broadcast_shape),
                self._broadcast(self._gamma, self._broadcast_shape), self._epsilon)
