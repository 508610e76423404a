"""`tf.contrib.distributions.bijectors.BatchNormalization`: a `tf.layers.BatchNormalization`
layer used as a bijector (inverse = normalize with batch or moving statistics, forward =
undo it with the moving statistics), for normalizing flows."""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np

from tf1compat.contrib.distributions.bijectors.bijector import Bijector
from tf1compat.framework.tensor import Tensor
from tf1compat.layers.layers import BatchNormalization as BatchNormalizationLayer
from tf1compat.ops import array_ops, math_ops, nn_ops
from tf1compat.ops.nn_norm import moments
from tf1compat.ops.reduction_ops import reduce_sum

__all__ = ["BatchNormalization"]


def _undo_batch_normalization(x: Tensor, mean: Tensor, variance: Tensor,
                              offset: Optional[Tensor], scale: Optional[Tensor],
                              variance_epsilon: float) -> Tensor:
    rescale = math_ops.sqrt(variance + variance_epsilon)
    if scale is not None:
        rescale = rescale / scale
    return x * rescale + (mean - offset * rescale if offset is not None else mean)


class BatchNormalization(Bijector):
    """Y = de-normalized X; inverse(y) runs the layer (updating its moving statistics
    through UPDATE_OPS when `training`)."""

    def __init__(self, batchnorm_layer: Any = None, training: bool = True,
                 validate_args: bool = False, name: str = "batch_normalization"):
        self.batchnorm = batchnorm_layer or BatchNormalizationLayer(
            gamma_constraint=lambda x: nn_ops.relu(x) + 1e-6)
        if not isinstance(self.batchnorm, BatchNormalizationLayer):
            raise ValueError("batchnorm_layer must be an instance of BatchNormalization "
                             "layer.")
        if self.batchnorm.renorm:
            raise ValueError("BatchNorm Bijector does not support renormalization.")
        if self.batchnorm.virtual_batch_size:
            raise ValueError("BatchNorm Bijector does not support virtual batch sizes.")
        self._training = training
        axis = self.batchnorm.axis
        super().__init__(forward_min_event_ndims=1 if isinstance(axis, int) else len(axis),
                         validate_args=validate_args, name=name)

    def _static_shape(self, x: Tensor) -> List[int]:
        if not x.shape.is_fully_defined():
            raise ValueError("Input must have shape known at graph construction.")
        shape = [int(d) for d in np.int32(x.shape.as_list())]
        if not self.batchnorm.built:
            self.batchnorm.build(x.shape)
        return shape

    def _broadcast_fn(self, shape: List[int]) -> Callable[[Any], Any]:
        ndims = len(shape)
        axes = self.batchnorm.axis
        reduction_axes = [i for i in range(ndims) if i not in axes]
        broadcast_shape = [1] * ndims
        broadcast_shape[axes[0]] = shape[axes[0]]

        def broadcast(v: Any) -> Any:
            if v is not None and len(v.shape) != ndims and \
                    reduction_axes != list(range(ndims - 1)):
                return array_ops.reshape(v, broadcast_shape)
            return v
        return broadcast

    def _forward(self, x: Tensor) -> Tensor:
        broadcast = self._broadcast_fn(self._static_shape(x))
        bn = self.batchnorm
        return _undo_batch_normalization(
            x, broadcast(bn.moving_mean), broadcast(bn.moving_variance),
            broadcast(bn.beta) if bn.center else None,
            broadcast(bn.gamma) if bn.scale else None, bn.epsilon)

    def _inverse(self, y: Tensor) -> Tensor:
        return self.batchnorm.apply(y, training=self._training)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return -self._log_det(x, use_saved_statistics=True)

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return self._log_det(y, use_saved_statistics=False)

    def _log_det(self, y: Tensor, use_saved_statistics: bool) -> Tensor:
        shape = self._static_shape(y)
        reduction_axes = [i for i in range(len(shape)) if i not in self.batchnorm.axis]
        if use_saved_statistics or not self._training:
            log_variance = math_ops.log(self.batchnorm.moving_variance + self.batchnorm.epsilon)
        else:
            _, v = moments(y, axes=reduction_axes, keepdims=True)
            log_variance = math_ops.log(v + self.batchnorm.epsilon)
        log_total_gamma = reduce_sum(math_ops.log(self.batchnorm.gamma))
        return log_total_gamma - 0.5 * reduce_sum(log_variance)
