"""`tf.contrib.distributions.TransformedDistribution`: Y = bijector(X) for X from a base
distribution, with the base's batch and/or event shape optionally overridden (a scalar
base made into a batch of vectors, as the multivariate normals are built).

Sampling draws the base distribution's `sample` (so seeded samples are TF's numbers),
log_prob is the base's log_prob at the inverse plus the inverse log-det-Jacobian, and the
bijector's cache makes log_prob of a fresh sample exact.
"""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from tf1compat.contrib.distributions.bijectors.bijector import Bijector
from tf1compat.contrib.distributions.bijectors.scalar import Identity
from tf1compat.distributions import distribution
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.creation_ops import ones_like, zeros
from tf1compat.ops.reduction_ops import reduce_prod, reduce_sum
from tf1compat.ops.transform_ops import tile

__all__ = ["TransformedDistribution"]


def _static_override(shape: Any, name: str) -> Optional[Tensor]:
    if shape is None:
        return None
    shape = convert_to_tensor(shape, dtype=D.int32, name=name)
    if shape.shape.rank is not None and shape.shape.rank != 1:
        raise ValueError(f"{name} must be a vector.")
    value = constant_value(shape)
    if value is not None and np.any(np.asarray(value) < 0):
        raise ValueError(f"{name} must be non-negative.")
    return shape


class TransformedDistribution(distribution.Distribution):
    """The distribution of `bijector.forward(X)`, X ~ `distribution`."""

    def __init__(self, distribution: distribution.Distribution, bijector: Optional[Bijector] = None,
                 batch_shape: Any = None, event_shape: Any = None,
                 validate_args: bool = False, name: Optional[str] = None):
        parameters = dict(distribution=distribution, bijector=bijector,
                          batch_shape=batch_shape, event_shape=event_shape,
                          validate_args=validate_args, name=name)
        name = name or ("" if bijector is None else bijector.name) + distribution.name
        with name_scope(name, values=[event_shape, batch_shape]) as name:
            self._override_batch_shape = _static_override(batch_shape, "batch_shape")
            self._override_event_shape = _static_override(event_shape, "event_shape")
            if self._override_batch_shape is not None and \
                    distribution.batch_shape.rank != 0:
                raise ValueError("Base distribution is not scalar batch.")
            if self._override_event_shape is not None and \
                    distribution.event_shape.rank != 0:
                raise ValueError("Base distribution is not scalar event.")
            if bijector is None:
                bijector = Identity(validate_args=validate_args)
            if bijector.dtype is not None and bijector.dtype != distribution.dtype:
                raise TypeError(f"Base distribution dtype ({distribution.dtype}) doesn't "
                                f"match bijector dtype ({bijector.dtype})")
        self._distribution = distribution
        self._bijector = bijector
        super().__init__(dtype=distribution.dtype,
                         reparameterization_type=distribution.reparameterization_type,
                         validate_args=validate_args,
                         allow_nan_stats=distribution.allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[t for t in (self._override_event_shape,
                                                    self._override_batch_shape)
                                        if t is not None]
                         + distribution._graph_parents + bijector.graph_parents,
                         name=name)

    @property
    def distribution(self) -> distribution.Distribution:
        return self._distribution

    @property
    def bijector(self) -> Bijector:
        return self._bijector

    # -- shapes -----------------------------------------------------------------------------
    @staticmethod
    def _static(shape: Optional[Tensor]) -> TensorShape:
        value = constant_value(shape)
        if value is not None:
            return TensorShape([int(v) for v in value])
        size = shape.shape[0] if shape.shape.rank else None
        return TensorShape(None if size is None or size.value is None else [None] * size.value)

    def _event_shape_tensor(self) -> Tensor:
        base = self.distribution.event_shape_tensor() \
            if self._override_event_shape is None else self._override_event_shape
        return self.bijector.forward_event_shape_tensor(base)

    def _event_shape(self) -> TensorShape:
        base = self.distribution.event_shape if self._override_event_shape is None \
            else self._static(self._override_event_shape)
        return self.bijector.forward_event_shape(base)

    def _batch_shape_tensor(self) -> Tensor:
        return self.distribution.batch_shape_tensor() \
            if self._override_batch_shape is None else self._override_batch_shape

    def _batch_shape(self) -> TensorShape:
        return self.distribution.batch_shape if self._override_batch_shape is None \
            else self._static(self._override_batch_shape)

    def _base_event_ndims(self) -> int:
        base = self.distribution.event_shape if self._override_event_shape is None \
            else self._static(self._override_event_shape)
        if base.rank is None:
            raise NotImplementedError("TransformedDistribution over an event of unknown rank "
                                      "is not supported by tf1compat")
        return base.rank

    def _event_ndims(self) -> int:
        rank = self.event_shape.rank
        if rank is None:
            raise NotImplementedError("TransformedDistribution over an event of unknown rank "
                                      "is not supported by tf1compat")
        return rank

    # -- sampling -----------------------------------------------------------------------------
    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        parts: List[Any] = [[n]]
        if self._override_batch_shape is not None:
            parts.append(self._override_batch_shape)
        if self._override_event_shape is not None:
            parts.append(self._override_event_shape)
        x = self.distribution.sample(sample_shape=array_ops.concat(parts, 0), seed=seed)
        return self.bijector.forward(x)

    # -- densities ----------------------------------------------------------------------------
    def _finish_base_density(self, value: Tensor) -> Tensor:
        if self._override_event_shape is None:
            return value
        ndims = self._base_event_ndims()
        return reduce_sum(value, axis=list(range(-ndims, 0))) if ndims else value

    def _log_prob(self, y: Tensor) -> Tensor:
        x = self.bijector.inverse(y)
        ildj = self.bijector.inverse_log_det_jacobian(y, event_ndims=self._event_ndims())
        lp = self._finish_base_density(self.distribution.log_prob(x))
        return lp + ildj

    def _prob(self, y: Tensor) -> Tensor:
        x = self.bijector.inverse(y)
        ildj = self.bijector.inverse_log_det_jacobian(y, event_ndims=self._event_ndims())
        if self._override_event_shape is None:
            return self.distribution.prob(x) * math_ops.exp(ildj)
        return math_ops.exp(self._finish_base_density(self.distribution.log_prob(x)) + ildj)

    def _scalar_only(self, what: str) -> None:
        if self._override_event_shape is not None:
            raise NotImplementedError(f"{what} is not implemented when overriding "
                                      "event_shape")

    def _cdf(self, y: Tensor) -> Tensor:
        self._scalar_only("cdf")
        return self.distribution.cdf(self.bijector.inverse(y))

    def _log_cdf(self, y: Tensor) -> Tensor:
        self._scalar_only("log_cdf")
        return self.distribution.log_cdf(self.bijector.inverse(y))

    def _survival_function(self, y: Tensor) -> Tensor:
        self._scalar_only("survival_function")
        return self.distribution.survival_function(self.bijector.inverse(y))

    def _log_survival_function(self, y: Tensor) -> Tensor:
        self._scalar_only("log_survival_function")
        return self.distribution.log_survival_function(self.bijector.inverse(y))

    def _quantile(self, value: Tensor) -> Tensor:
        self._scalar_only("quantile")
        return self.bijector.forward(self.distribution.quantile(value))

    def _entropy(self) -> Tensor:
        if not self.bijector.is_constant_jacobian:
            raise NotImplementedError("entropy is not implemented")
        # H[Y] = H[X] + E[log|det J|(X)], and a constant Jacobian is the same everywhere.
        entropy = self.distribution.entropy()
        if self._override_event_shape is not None:
            entropy = entropy * math_ops.cast(reduce_prod(self._override_event_shape),
                                              entropy.dtype.base_dtype)
        if self._override_batch_shape is not None:
            base_batch = self.distribution.batch_shape_tensor()
            entropy = array_ops.reshape(entropy, array_ops.concat(
                [ones_like(self._override_batch_shape), base_batch], 0))
            entropy = tile(entropy, array_ops.concat(
                [self._override_batch_shape, ones_like(base_batch)], 0))
        dummy = zeros(array_ops.concat([self.batch_shape_tensor(), self.event_shape_tensor()],
                                       0), dtype=self.dtype)
        ildj = self.bijector.inverse_log_det_jacobian(dummy, event_ndims=self._event_ndims())
        entropy = entropy - math_ops.cast(ildj, entropy.dtype)
        entropy.set_shape(self.batch_shape)
        return entropy
