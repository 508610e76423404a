"""One-hot and relaxed (Concrete / Gumbel-softmax) distributions of
`tf.contrib.distributions`: OneHotCategorical, ExpRelaxedOneHotCategorical,
RelaxedOneHotCategorical, Logistic and RelaxedBernoulli, with TF 1.x's samplers (the
same random ops, shapes and seeds, so seeded samples are TF's numbers)."""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from tf1compat.contrib.distributions.bijectors.scalar import Exp, Sigmoid
from tf1compat.contrib.distributions.transformed_distribution import TransformedDistribution
from tf1compat.distributions import distribution, util
from tf1compat.distributions.continuous import _LocScale
from tf1compat.distributions.kullback_leibler import RegisterKL
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.ops import array_ops, check_ops, math_ops, nn_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import one_hot, ones, ones_like, zeros
from tf1compat.ops.matrix_ops import matrix_set_diag
from tf1compat.ops.nn_losses import softmax_cross_entropy_with_logits
from tf1compat.ops.numerics_ops import assert_near
from tf1compat.ops.random_ops import multinomial, random_uniform
from tf1compat.ops.reduction_ops import argmax, reduce_logsumexp, reduce_sum
from tf1compat.ops.transform_ops import transpose

__all__ = ["OneHotCategorical", "ExpRelaxedOneHotCategorical", "RelaxedOneHotCategorical",
           "Logistic", "RelaxedBernoulli"]


class _CategoricalParams(distribution.Distribution):
    """Shared parts: logits/probs over the last axis, batch = all but the last axis."""

    def _init_params(self, logits: Any, probs: Any, validate_args: bool,
                     dtype: Any = None) -> None:
        self._logits, self._probs = util.get_logits_and_probs(
            logits=logits, probs=probs, validate_args=validate_args, multidimensional=True,
            dtype=dtype)
        static = self._logits.shape.with_rank_at_least(1)
        self._batch_rank = static.rank - 1 if static.rank is not None else \
            array_ops.rank(self._logits) - 1
        size = dimension_value(static[-1])
        self._event_size = size if size is not None else array_ops.shape(self._logits)[-1]

    @property
    def event_size(self) -> Any:
        """The number of classes."""
        return self._event_size

    @property
    def logits(self) -> Tensor:
        return self._logits

    @property
    def probs(self) -> Tensor:
        return self._probs

    def _batch_shape_tensor(self) -> Tensor:
        return array_ops.shape(self.logits)[:-1]

    def _batch_shape(self) -> TensorShape:
        return self.logits.shape[:-1]

    def _event_shape_tensor(self) -> Tensor:
        return array_ops.shape(self.logits)[-1:]

    def _event_shape(self) -> TensorShape:
        return self.logits.shape.with_rank_at_least(1)[-1:]

    def _broadcast_2d(self, x: Tensor) -> Any:
        """(logits_2d, x_2d, shape of the result) with logits and x broadcast together."""
        logits = self.logits
        if not x.shape.is_fully_defined() or not logits.shape.is_fully_defined() or \
                x.shape != logits.shape:
            logits = ones_like(x, dtype=logits.dtype) * logits
            x = ones_like(logits, dtype=x.dtype) * x
        result_shape = array_ops.shape(reduce_sum(logits, axis=[-1]))
        return (array_ops.reshape(logits, [-1, self.event_size]),
                array_ops.reshape(x, [-1, self.event_size]), result_shape)


class OneHotCategorical(_CategoricalParams):
    """A categorical over `event_size` classes whose samples are one-hot vectors."""

    def __init__(self, logits: Any = None, probs: Any = None, dtype: Any = D.int32,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "OneHotCategorical"):
        parameters = dict(logits=logits, probs=probs, dtype=dtype, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[logits, probs]) as name:
            self._init_params(logits, probs, validate_args)
        super().__init__(dtype=D.as_dtype(dtype),
                         reparameterization_type=distribution.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._logits, self._probs],
                         name=name)

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        sample_shape = array_ops.concat([[n], array_ops.shape(self.logits)], 0)
        logits_2d = self.logits if self.logits.shape.rank == 2 else \
            array_ops.reshape(self.logits, [-1, self.event_size])
        draws = transpose(multinomial(logits_2d, n, seed=seed))
        return array_ops.reshape(one_hot(draws, self.event_size, dtype=self.dtype),
                                 sample_shape)

    def _log_prob(self, x: Tensor) -> Tensor:
        x = self._assert_valid_sample(x)
        logits_2d, x_2d, shape = self._broadcast_2d(x)
        labels = math_ops.cast(x_2d, logits_2d.dtype)
        return array_ops.reshape(-softmax_cross_entropy_with_logits(labels=labels,
                                                                     logits=logits_2d), shape)

    def _entropy(self) -> Tensor:
        return -reduce_sum(nn_ops.log_softmax(self.logits) * self.probs, axis=-1)

    def _covariance(self) -> Tensor:
        p = self.probs * ones_like(self.probs)
        outer = -p[..., None] * p[..., None, :]
        return matrix_set_diag(outer, p * (1.0 - p))

    def _variance(self) -> Tensor:
        return self.probs * (1.0 - self.probs)

    def _mode(self) -> Tensor:
        mode = one_hot(argmax(self.logits, axis=self._batch_rank), self.event_size,
                       dtype=self.dtype)
        mode.set_shape(self.logits.shape)
        return mode

    def _assert_valid_sample(self, x: Tensor) -> Tensor:
        if not self.validate_args:
            return x
        return with_dependencies([
            check_ops.assert_non_negative(x),
            assert_near(ones([], dtype=x.dtype), reduce_sum(x, axis=[-1]),
                        message="sample must be one-hot")], x)


@RegisterKL(OneHotCategorical, OneHotCategorical)
def _kl_categorical_categorical(a: OneHotCategorical, b: OneHotCategorical,
                                name: Optional[str] = None) -> Tensor:
    with name_scope(name, "kl_categorical_categorical", values=[a.logits, b.logits]):
        delta = nn_ops.log_softmax(a.logits) - nn_ops.log_softmax(b.logits)
        return reduce_sum(nn_ops.softmax(a.logits) * delta, axis=-1)


class ExpRelaxedOneHotCategorical(_CategoricalParams):
    """The log of a RelaxedOneHotCategorical sample (numerically stable in log space)."""

    def __init__(self, temperature: Any, logits: Any = None, probs: Any = None,
                 dtype: Any = None, validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "ExpRelaxedOneHotCategorical"):
        parameters = dict(temperature=temperature, logits=logits, probs=probs, dtype=dtype,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name, values=[logits, probs, temperature]) as name:
            self._init_params(logits, probs, validate_args, dtype=dtype)
            dtype = self._logits.dtype if dtype is None else D.as_dtype(dtype)
            temperature = convert_to_tensor(temperature, dtype=dtype)
            with control_dependencies([check_ops.assert_positive(temperature)]
                                      if validate_args else []):
                self._temperature = array_ops.identity(temperature, name="temperature")
                self._temperature_2d = array_ops.reshape(temperature, [-1, 1],
                                                         name="temperature_2d")
        super().__init__(dtype=dtype, reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._logits, self._probs, self._temperature],
                         name=name)

    @property
    def temperature(self) -> Tensor:
        return self._temperature

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        sample_shape = array_ops.concat([[n], array_ops.shape(self.logits)], 0)
        logits = self.logits * ones(sample_shape, dtype=self.dtype)
        logits_2d = array_ops.reshape(logits, [-1, self.event_size])
        # The smallest normal number keeps the uniform draw in the open interval (0, 1).
        uniform = random_uniform(array_ops.shape(logits_2d),
                                 minval=np.finfo(self.dtype.as_numpy_dtype).tiny, maxval=1.0,
                                 dtype=self.dtype, seed=seed)
        gumbel = -math_ops.log(-math_ops.log(uniform))
        noisy = math_ops.div(gumbel + logits_2d, self._temperature_2d)
        return array_ops.reshape(nn_ops.log_softmax(noisy), sample_shape)

    def _log_prob(self, x: Tensor) -> Tensor:
        x = self._assert_valid_sample(x)
        logits_2d, x_2d, shape = self._broadcast_2d(x)
        k = math_ops.cast(self.event_size, x.dtype)
        log_norm_const = math_ops.lgamma(k) + (k - 1.0) * math_ops.log(self.temperature)
        log_softmax = nn_ops.log_softmax(logits_2d - x_2d * self._temperature_2d)
        log_unnorm = reduce_sum(log_softmax, [-1], keepdims=False)
        return array_ops.reshape(log_norm_const + log_unnorm, shape)

    def _assert_valid_sample(self, x: Tensor) -> Tensor:
        if not self.validate_args:
            return x
        return with_dependencies([
            check_ops.assert_non_positive(x),
            assert_near(zeros([], dtype=self.dtype), reduce_logsumexp(x, axis=[-1]))], x)


class RelaxedOneHotCategorical(TransformedDistribution):
    """The Concrete / Gumbel-softmax relaxation of OneHotCategorical (reparameterized)."""

    def __init__(self, temperature: Any, logits: Any = None, probs: Any = None,
                 dtype: Any = None, validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "RelaxedOneHotCategorical"):
        dist = ExpRelaxedOneHotCategorical(temperature, logits=logits, probs=probs,
                                           dtype=dtype, validate_args=validate_args,
                                           allow_nan_stats=allow_nan_stats)
        super().__init__(dist, Exp(), validate_args=validate_args, name=name)

    @property
    def temperature(self) -> Tensor:
        return self.distribution.temperature

    @property
    def logits(self) -> Tensor:
        return self.distribution.logits

    @property
    def probs(self) -> Tensor:
        return self.distribution.probs


class Logistic(_LocScale):
    """The logistic distribution with location `loc` and scale `scale`:
    `Logistic(loc, scale, validate_args=False, allow_nan_stats=True, name="Logistic")`."""

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        uniform = random_uniform(array_ops.concat([[n], self.batch_shape_tensor()], 0),
                                 minval=np.finfo(self.dtype.as_numpy_dtype).tiny, maxval=1.0,
                                 dtype=self.dtype, seed=seed)
        sampled = math_ops.log(uniform) - math_ops.log1p(-1.0 * uniform)
        return sampled * self.scale + self.loc

    def _log_prob(self, x: Tensor) -> Tensor:
        z = self._z(x)
        return -z - 2.0 * nn_ops.softplus(-z) - math_ops.log(self.scale)

    def _log_cdf(self, x: Tensor) -> Tensor:
        return -nn_ops.softplus(-self._z(x))

    def _cdf(self, x: Tensor) -> Tensor:
        return math_ops.sigmoid(self._z(x))

    def _log_survival_function(self, x: Tensor) -> Tensor:
        return -nn_ops.softplus(self._z(x))

    def _survival_function(self, x: Tensor) -> Tensor:
        return math_ops.sigmoid(-self._z(x))

    def _entropy(self) -> Tensor:
        return 2.0 + math_ops.log(self.scale * ones_like(self.loc))

    def _mean(self) -> Tensor:
        return self.loc * ones_like(self.scale)

    def _stddev(self) -> Tensor:
        return self.scale * ones_like(self.loc) * math.pi / math.sqrt(3)

    def _mode(self) -> Tensor:
        return self._mean()

    def _z(self, x: Tensor) -> Tensor:
        with name_scope("standardize", values=[x]):
            return (x - self.loc) / self.scale


class RelaxedBernoulli(TransformedDistribution):
    """The Concrete relaxation of Bernoulli: sigmoid of a Logistic(logits / temperature,
    1 / temperature)."""

    def __init__(self, temperature: Any, logits: Any = None, probs: Any = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "RelaxedBernoulli"):
        parameters = dict(temperature=temperature, logits=logits, probs=probs,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name, values=[logits, probs, temperature]) as name:
            self._logits, self._probs = util.get_logits_and_probs(
                logits=logits, probs=probs, validate_args=validate_args)
            temperature = convert_to_tensor(temperature, dtype=self._logits.dtype)
            with control_dependencies([check_ops.assert_positive(temperature)]
                                      if validate_args else []):
                self._temperature = array_ops.identity(temperature, name="temperature")
            logistic = Logistic(self._logits / self._temperature, 1.0 / self._temperature,
                                validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                                name=name + "/Logistic")
            super().__init__(distribution=logistic, bijector=Sigmoid(
                validate_args=validate_args), validate_args=validate_args, name=name)
        self._parameters = parameters

    @property
    def temperature(self) -> Tensor:
        return self._temperature

    @property
    def logits(self) -> Tensor:
        return self._logits

    @property
    def probs(self) -> Tensor:
        return self._probs
