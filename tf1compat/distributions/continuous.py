"""Scalar continuous distributions of `tf.distributions`: Normal, Uniform, Laplace,
StudentT, Gamma, Exponential, Beta (and TF 1.x's softplus-parameterised variants), with
their registered KL divergences. Sampling uses TF's random ops, so seeded samples are
TF's numbers."""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from tf1compat.distributions import distribution, util
from tf1compat.distributions.kullback_leibler import RegisterKL
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import array_ops, check_ops, math_ops, nn_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import fill, ones, ones_like, zeros, zeros_like
from tf1compat.ops.indexing_ops import where_v2
from tf1compat.ops.numerics_ops import assert_same_float_dtype
from tf1compat.ops.random_extra_ops import random_gamma
from tf1compat.ops.random_ops import random_normal, random_uniform
from tf1compat.ops.special_math_ops import betainc, igamma, lbeta, ndtri
from tf1compat.ops.transform_ops import broadcast_dynamic_shape, broadcast_static_shape

__all__ = ["Normal", "NormalWithSoftplusScale", "Uniform", "Laplace",
           "LaplaceWithSoftplusScale", "StudentT", "StudentTWithAbsDfSoftplusScale", "Gamma",
           "GammaWithSoftplusConcentrationRate", "Exponential", "ExponentialWithSoftplusRate",
           "Beta", "BetaWithSoftplusConcentration"]


def _scalar_event_tensor() -> Tensor:
    return constant([], dtype=D.int32)


def _nan_fill(shape: Any, dtype: D.DType) -> Tensor:
    return fill(shape, np.array(np.nan, dtype=dtype.as_numpy_dtype), name="nan")


class _LocScale(distribution.Distribution):
    """Shared parts of the location-scale families (Normal, Laplace; contrib's Cauchy and
    Logistic). Their constructor is TF's: the checked `loc`/`scale` are made inside the
    distribution's name scope, the base class is initialized after it."""

    def __init__(self, loc: Any, scale: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: Optional[str] = None):
        name = name or type(self).__name__
        parameters = dict(loc=loc, scale=scale, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[loc, scale]) as name:
            self._init_loc_scale(loc, scale, validate_args)
            if self._BASE_INIT_IN_SCOPE:
                self._init_base(validate_args, allow_nan_stats, parameters, name)
        if not self._BASE_INIT_IN_SCOPE:
            self._init_base(validate_args, allow_nan_stats, parameters, name)

    # Laplace initializes the base class inside its name scope (as TF's does), the others
    # after it: which decides the names of the ops the base class creates.
    _BASE_INIT_IN_SCOPE = False

    def _init_base(self, validate_args: bool, allow_nan_stats: bool, parameters: dict,
                   name: str) -> None:
        super().__init__(dtype=self._scale.dtype,
                         reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._loc, self._scale],
                         name=name)

    def _init_loc_scale(self, loc: Any, scale: Any, validate_args: bool) -> None:
        with control_dependencies([check_ops.assert_positive(scale)] if validate_args
                                  else []):
            self._loc = array_ops.identity(loc, name="loc")
            self._scale = array_ops.identity(scale, name="scale")
            assert_same_float_dtype([self._loc, self._scale])

    @staticmethod
    def _param_shapes(sample_shape: Any) -> dict:
        return dict(zip(("loc", "scale"),
                        [convert_to_tensor(sample_shape, dtype=D.int32)] * 2))

    @property
    def loc(self) -> Tensor:
        return self._loc

    @property
    def scale(self) -> Tensor:
        return self._scale

    def _batch_shape_tensor(self) -> Tensor:
        return broadcast_dynamic_shape(array_ops.shape(self.loc), array_ops.shape(self.scale))

    def _batch_shape(self) -> TensorShape:
        return broadcast_static_shape(self.loc.shape, self.scale.shape)

    def _event_shape_tensor(self) -> Tensor:
        return _scalar_event_tensor()

    def _event_shape(self) -> TensorShape:
        return TensorShape([])


class Normal(_LocScale):
    """The normal distribution N(loc, scale^2) (`Normal(loc, scale, validate_args=False,
    allow_nan_stats=True, name="Normal")`)."""

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        sampled = random_normal(shape=shape, mean=0.0, stddev=1.0, dtype=self.loc.dtype,
                                seed=seed)
        return sampled * self.scale + self.loc

    def _log_prob(self, x: Tensor) -> Tensor:
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _log_cdf(self, x: Tensor) -> Tensor:
        return util.log_ndtr(self._z(x))

    def _cdf(self, x: Tensor) -> Tensor:
        return util.ndtr(self._z(x))

    def _log_survival_function(self, x: Tensor) -> Tensor:
        return util.log_ndtr(-self._z(x))

    def _survival_function(self, x: Tensor) -> Tensor:
        return util.ndtr(-self._z(x))

    def _log_unnormalized_prob(self, x: Tensor) -> Tensor:
        return -0.5 * math_ops.square(self._z(x))

    def _log_normalization(self) -> Tensor:
        return 0.5 * math.log(2.0 * math.pi) + math_ops.log(self.scale)

    def _entropy(self) -> Tensor:
        scale = self.scale * ones_like(self.loc)
        return 0.5 * math.log(2.0 * math.pi * math.e) + math_ops.log(scale)

    def _mean(self) -> Tensor:
        return self.loc * ones_like(self.scale)

    def _quantile(self, p: Tensor) -> Tensor:
        with name_scope("ndtri", values=[p]):
            z = ndtri(convert_to_tensor(p, name="p"))
        return self._inv_z(z)

    def _stddev(self) -> Tensor:
        return self.scale * ones_like(self.loc)

    def _mode(self) -> Tensor:
        return self._mean()

    def _z(self, x: Tensor) -> Tensor:
        with name_scope("standardize", values=[x]):
            return (x - self.loc) / self.scale

    def _inv_z(self, z: Tensor) -> Tensor:
        with name_scope("reconstruct", values=[z]):
            return z * self.scale + self.loc


class NormalWithSoftplusScale(Normal):
    """Normal with scale = softplus(scale)."""

    def __init__(self, loc: Any, scale: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "NormalWithSoftplusScale"):
        parameters = dict(loc=loc, scale=scale, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[scale]) as name:
            super().__init__(loc=loc, scale=nn_ops.softplus(scale, name="softplus_scale"),
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             name=name)
        self._parameters = parameters


@RegisterKL(Normal, Normal)
def _kl_normal_normal(n_a: Normal, n_b: Normal, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "kl_normal_normal", [n_a.loc, n_b.loc]):
        one = constant(1, dtype=n_a.dtype)
        two = constant(2, dtype=n_a.dtype)
        half = constant(0.5, dtype=n_a.dtype)
        s_a_squared = math_ops.square(n_a.scale)
        s_b_squared = math_ops.square(n_b.scale)
        ratio = s_a_squared / s_b_squared
        return math_ops.squared_difference(n_a.loc, n_b.loc) / (two * s_b_squared) + \
            half * (ratio - one - math_ops.log(ratio))


class Uniform(distribution.Distribution):
    """The uniform distribution on [low, high)."""

    def __init__(self, low: Any = 0.0, high: Any = 1.0, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Uniform"):
        parameters = dict(low=low, high=high, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[low, high]) as name:
            checks = [check_ops.assert_less(low, high, message="uniform not defined when "
                                            "low >= high.")] if validate_args else []
            with control_dependencies(checks):
                self._low = array_ops.identity(low, name="low")
                self._high = array_ops.identity(high, name="high")
                assert_same_float_dtype([self._low, self._high])
        super().__init__(dtype=self._low.dtype,
                         reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._low, self._high],
                         name=name)

    @staticmethod
    def _param_shapes(sample_shape: Any) -> dict:
        return dict(zip(("low", "high"), [convert_to_tensor(sample_shape, dtype=D.int32)] * 2))

    @property
    def low(self) -> Tensor:
        return self._low

    @property
    def high(self) -> Tensor:
        return self._high

    def range(self, name: str = "range") -> Tensor:
        """high - low."""
        with self._name_scope(name):
            return self.high - self.low

    def _batch_shape_tensor(self) -> Tensor:
        return broadcast_dynamic_shape(array_ops.shape(self.low), array_ops.shape(self.high))

    def _batch_shape(self) -> TensorShape:
        return broadcast_static_shape(self.low.shape, self.high.shape)

    def _event_shape_tensor(self) -> Tensor:
        return _scalar_event_tensor()

    def _event_shape(self) -> TensorShape:
        return TensorShape([])

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        samples = random_uniform(shape=shape, dtype=self.dtype, seed=seed)
        return self.low + self.range() * samples

    def _prob(self, x: Tensor) -> Tensor:
        broadcasted = x * ones(self.batch_shape_tensor(), dtype=x.dtype)
        return where_v2(math_ops.is_nan(broadcasted), broadcasted,
                        where_v2(math_ops.logical_or(broadcasted < self.low,
                                                     broadcasted >= self.high),
                                 zeros_like(broadcasted),
                                 ones_like(broadcasted) / self.range()))

    def _cdf(self, x: Tensor) -> Tensor:
        shape = broadcast_dynamic_shape(array_ops.shape(x), self.batch_shape_tensor())
        zero, one = zeros(shape, dtype=self.dtype), ones(shape, dtype=self.dtype)
        broadcasted = x * one
        below = where_v2(x < self.low, zero, (broadcasted - self.low) / self.range())
        return where_v2(x >= self.high, one, below)

    def _entropy(self) -> Tensor:
        return math_ops.log(self.range())

    def _mean(self) -> Tensor:
        return (self.low + self.high) / 2.0

    def _variance(self) -> Tensor:
        return math_ops.square(self.range()) / 12.0

    def _stddev(self) -> Tensor:
        return self.range() / math.sqrt(12.0)


class Laplace(_LocScale):
    """The Laplace distribution with location `loc` and scale `scale`:
    `Laplace(loc, scale, validate_args=False, allow_nan_stats=True, name="Laplace")`."""

    _BASE_INIT_IN_SCOPE = True

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        np_dtype = self.dtype.as_numpy_dtype
        uniform = random_uniform(shape=shape, minval=np.nextafter(np_dtype(-1.0), np_dtype(0.0)),
                                 maxval=1.0, dtype=self.dtype, seed=seed)
        return self.loc - self.scale * math_ops.sign(uniform) * \
            math_ops.log1p(-math_ops.abs(uniform))

    def _log_prob(self, x: Tensor) -> Tensor:
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _prob(self, x: Tensor) -> Tensor:
        return math_ops.exp(self._log_prob(x))

    def _log_cdf(self, x: Tensor) -> Tensor:
        return util.log_cdf_laplace(self._z(x))

    def _log_survival_function(self, x: Tensor) -> Tensor:
        return util.log_cdf_laplace(-self._z(x))

    def _cdf(self, x: Tensor) -> Tensor:
        z = self._z(x)
        return 0.5 + 0.5 * math_ops.sign(z) * (1.0 - math_ops.exp(-math_ops.abs(z)))

    def _log_unnormalized_prob(self, x: Tensor) -> Tensor:
        return -math_ops.abs(self._z(x))

    def _log_normalization(self) -> Tensor:
        return math.log(2.0) + math_ops.log(self.scale)

    def _entropy(self) -> Tensor:
        scale = self.scale + zeros_like(self.loc)
        return math.log(2.0) + 1.0 + math_ops.log(scale)

    def _mean(self) -> Tensor:
        return self.loc + zeros_like(self.scale)

    def _stddev(self) -> Tensor:
        return math.sqrt(2.0) * self.scale + zeros_like(self.loc)

    def _mode(self) -> Tensor:
        return self._mean()

    def _z(self, x: Tensor) -> Tensor:
        return (x - self.loc) / self.scale


class LaplaceWithSoftplusScale(Laplace):
    """Laplace with scale = softplus(scale)."""

    def __init__(self, loc: Any, scale: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "LaplaceWithSoftplusScale"):
        parameters = dict(loc=loc, scale=scale, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[loc, scale]) as name:
            super().__init__(loc=loc, scale=nn_ops.softplus(scale, name="softplus_scale"),
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             name=name)
        self._parameters = parameters


class StudentT(distribution.Distribution):
    """Student's t distribution with `df` degrees of freedom, location and scale."""

    def __init__(self, df: Any, loc: Any, scale: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "StudentT"):
        parameters = dict(df=df, loc=loc, scale=scale, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[df, loc, scale]) as name:
            with control_dependencies([check_ops.assert_positive(df)] if validate_args
                                      else []):
                self._df = array_ops.identity(df, name="df")
                self._loc = array_ops.identity(loc, name="loc")
                self._scale = array_ops.identity(scale, name="scale")
                assert_same_float_dtype((self._df, self._loc, self._scale))
        super().__init__(dtype=self._scale.dtype,
                         reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._df, self._loc, self._scale], name=name)

    @staticmethod
    def _param_shapes(sample_shape: Any) -> dict:
        return dict(zip(("df", "loc", "scale"),
                        [convert_to_tensor(sample_shape, dtype=D.int32)] * 3))

    @property
    def df(self) -> Tensor:
        return self._df

    @property
    def loc(self) -> Tensor:
        return self._loc

    @property
    def scale(self) -> Tensor:
        return self._scale

    def _batch_shape_tensor(self) -> Tensor:
        return broadcast_dynamic_shape(array_ops.shape(self.df), broadcast_dynamic_shape(
            array_ops.shape(self.loc), array_ops.shape(self.scale)))

    def _batch_shape(self) -> TensorShape:
        return broadcast_static_shape(broadcast_static_shape(self.df.shape, self.loc.shape),
                                      self.scale.shape)

    def _event_shape_tensor(self) -> Tensor:
        return _scalar_event_tensor()

    def _event_shape(self) -> TensorShape:
        return TensorShape([])

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        normal = random_normal(shape, dtype=self.dtype, seed=seed)
        df = self.df * ones(self.batch_shape_tensor(), dtype=self.dtype)
        gamma = random_gamma([n], 0.5 * df, beta=0.5, dtype=self.dtype,
                             seed=util.gen_new_seed(seed, salt="student_t"))
        samples = normal * math_ops.rsqrt(gamma / df)
        return samples * self.scale + self.loc

    def _log_prob(self, x: Tensor) -> Tensor:
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _log_unnormalized_prob(self, x: Tensor) -> Tensor:
        y = (x - self.loc) / self.scale
        return -0.5 * (self.df + 1.0) * math_ops.log1p(y ** 2.0 / self.df)

    def _log_normalization(self) -> Tensor:
        return (math_ops.log(math_ops.abs(self.scale)) + 0.5 * math_ops.log(self.df) +
                0.5 * np.log(np.pi) + math_ops.lgamma(0.5 * self.df) -
                math_ops.lgamma(0.5 * (self.df + 1.0)))

    def _cdf(self, x: Tensor) -> Tensor:
        y = (x - self.loc) / math_ops.abs(self.scale)
        x_t = self.df / (y ** 2.0 + self.df)
        neg_cdf = 0.5 * betainc(0.5 * self.df, 0.5, x_t)
        return where_v2(math_ops.less(y, 0.0), neg_cdf, 1.0 - neg_cdf)

    def _entropy(self) -> Tensor:
        v = ones(self.batch_shape_tensor(), dtype=self.dtype)[..., None]
        u = v * self.df[..., None]
        beta_arg = array_ops.concat([u, v], -1) / 2.0
        return (math_ops.log(math_ops.abs(self.scale)) + 0.5 * math_ops.log(self.df) +
                lbeta(beta_arg) + 0.5 * (self.df + 1.0) *
                (math_ops.digamma(0.5 * (self.df + 1.0)) - math_ops.digamma(0.5 * self.df)))

    def _mean(self) -> Tensor:
        mean = self.loc * ones(self.batch_shape_tensor(), dtype=self.dtype)
        if self.allow_nan_stats:
            return where_v2(math_ops.greater(self.df, ones(self.batch_shape_tensor(),
                                                           dtype=self.dtype)),
                            mean, _nan_fill(self.batch_shape_tensor(), self.dtype))
        return with_dependencies([check_ops.assert_less(
            ones([], dtype=self.dtype), self.df,
            message="mean not defined for components of df <= 1")], mean)

    def _variance(self) -> Tensor:
        denom = where_v2(math_ops.greater(self.df, 2.0), self.df - 2.0, ones_like(self.df))
        var = ones(self.batch_shape_tensor(), dtype=self.dtype) * \
            math_ops.square(self.scale) * self.df / denom
        inf = np.array(np.inf, dtype=self.dtype.as_numpy_dtype)
        defined = where_v2(self.df > fill(self.batch_shape_tensor(), 2.0), var,
                           fill(self.batch_shape_tensor(), inf, name="inf"))
        if self.allow_nan_stats:
            return where_v2(math_ops.greater(self.df, ones(self.batch_shape_tensor(),
                                                           dtype=self.dtype)),
                            defined, _nan_fill(self.batch_shape_tensor(), self.dtype))
        return with_dependencies([check_ops.assert_less(
            ones([], dtype=self.dtype), self.df,
            message="variance not defined for components of df <= 1")], defined)

    def _mode(self) -> Tensor:
        return array_ops.identity(self.loc)


class StudentTWithAbsDfSoftplusScale(StudentT):
    """StudentT with df = floor(|df|) and scale = softplus(scale)."""

    def __init__(self, df: Any, loc: Any, scale: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "StudentTWithAbsDfSoftplusScale"):
        parameters = dict(df=df, loc=loc, scale=scale, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[df, scale]) as name:
            super().__init__(df=math_ops.floor(math_ops.abs(df)), loc=loc,
                             scale=nn_ops.softplus(scale, name="softplus_scale"),
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             name=name)
        self._parameters = parameters


class Gamma(distribution.Distribution):
    """The Gamma distribution with `concentration` (shape) and `rate`."""

    def __init__(self, concentration: Any, rate: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Gamma"):
        parameters = dict(concentration=concentration, rate=rate, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[concentration, rate]) as name:
            checks = [check_ops.assert_positive(concentration),
                      check_ops.assert_positive(rate)] if validate_args else []
            with control_dependencies(checks):
                self._concentration = array_ops.identity(concentration, name="concentration")
                self._rate = array_ops.identity(rate, name="rate")
                assert_same_float_dtype([self._concentration, self._rate])
        super().__init__(dtype=self._concentration.dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats,
                         reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         parameters=parameters,
                         graph_parents=[self._concentration, self._rate], name=name)

    @staticmethod
    def _param_shapes(sample_shape: Any) -> dict:
        return dict(zip(("concentration", "rate"),
                        [convert_to_tensor(sample_shape, dtype=D.int32)] * 2))

    @property
    def concentration(self) -> Tensor:
        return self._concentration

    @property
    def rate(self) -> Tensor:
        return self._rate

    def _batch_shape_tensor(self) -> Tensor:
        return broadcast_dynamic_shape(array_ops.shape(self.concentration),
                                       array_ops.shape(self.rate))

    def _batch_shape(self) -> TensorShape:
        return broadcast_static_shape(self.concentration.shape, self.rate.shape)

    def _event_shape_tensor(self) -> Tensor:
        return _scalar_event_tensor()

    def _event_shape(self) -> TensorShape:
        return TensorShape([])

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        return random_gamma(shape=[n], alpha=self.concentration, beta=self.rate,
                            dtype=self.dtype, seed=seed)

    def _log_prob(self, x: Tensor) -> Tensor:
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _cdf(self, x: Tensor) -> Tensor:
        x = self._maybe_assert_valid_sample(x)
        return igamma(self.concentration, self.rate * x)

    def _log_unnormalized_prob(self, x: Tensor) -> Tensor:
        from tf1compat.ops.math_ops import xlogy
        x = self._maybe_assert_valid_sample(x)
        return xlogy(self.concentration - 1.0, x) - self.rate * x

    def _log_normalization(self) -> Tensor:
        return math_ops.lgamma(self.concentration) - \
            self.concentration * math_ops.log(self.rate)

    def _entropy(self) -> Tensor:
        return (self.concentration - math_ops.log(self.rate) +
                math_ops.lgamma(self.concentration) +
                (1.0 - self.concentration) * math_ops.digamma(self.concentration))

    def _mean(self) -> Tensor:
        return self.concentration / self.rate

    def _variance(self) -> Tensor:
        return self.concentration / math_ops.square(self.rate)

    def _stddev(self) -> Tensor:
        return math_ops.sqrt(self.concentration) / self.rate

    def _mode(self) -> Tensor:
        mode = (self.concentration - 1.0) / self.rate
        if self.allow_nan_stats:
            return where_v2(self.concentration > 1.0, mode,
                            _nan_fill(self.batch_shape_tensor(), self.dtype))
        return with_dependencies([check_ops.assert_less(
            ones([], self.dtype), self.concentration,
            message="mode not defined when any concentration <= 1")], mode)

    def _maybe_assert_valid_sample(self, x: Tensor) -> Tensor:
        assert_same_float_dtype(tensors=[x], dtype=self.dtype)
        if not self.validate_args:
            return x
        return with_dependencies([check_ops.assert_positive(x)], x)


class GammaWithSoftplusConcentrationRate(Gamma):
    """Gamma with softplus applied to concentration and rate."""

    def __init__(self, concentration: Any, rate: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True,
                 name: str = "GammaWithSoftplusConcentrationRate"):
        parameters = dict(concentration=concentration, rate=rate, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[concentration, rate]) as name:
            super().__init__(concentration=nn_ops.softplus(concentration,
                                                           name="softplus_concentration"),
                             rate=nn_ops.softplus(rate, name="softplus_rate"),
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             name=name)
        self._parameters = parameters


@RegisterKL(Gamma, Gamma)
def _kl_gamma_gamma(g0: Gamma, g1: Gamma, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "kl_gamma_gamma", values=[g0.concentration, g0.rate,
                                                    g1.concentration, g1.rate]):
        return ((g0.concentration - g1.concentration) * math_ops.digamma(g0.concentration) +
                math_ops.lgamma(g1.concentration) - math_ops.lgamma(g0.concentration) +
                g1.concentration * math_ops.log(g0.rate) -
                g1.concentration * math_ops.log(g1.rate) +
                g0.concentration * (g1.rate / g0.rate - 1.0))


class Exponential(Gamma):
    """The exponential distribution with `rate` (a Gamma of concentration 1)."""

    def __init__(self, rate: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Exponential"):
        parameters = dict(rate=rate, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[rate]) as name:
            self._rate = convert_to_tensor(rate, name="rate")
        super().__init__(concentration=ones([], dtype=self._rate.dtype), rate=self._rate,
                         allow_nan_stats=allow_nan_stats, validate_args=validate_args,
                         name=name)
        self._parameters = parameters
        self._graph_parents += [self._rate]

    @staticmethod
    def _param_shapes(sample_shape: Any) -> dict:
        return {"rate": convert_to_tensor(sample_shape, dtype=D.int32)}

    @property
    def rate(self) -> Tensor:
        return self._rate

    def _log_survival_function(self, value: Tensor) -> Tensor:
        return self._log_prob(value) - math_ops.log(self._rate)

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        shape = array_ops.concat([[n], array_ops.shape(self._rate)], 0)
        sampled = random_uniform(shape, minval=np.finfo(self.dtype.as_numpy_dtype).tiny,
                                 maxval=1.0, seed=seed, dtype=self.dtype)
        return -math_ops.log(sampled) / self._rate


class ExponentialWithSoftplusRate(Exponential):
    """Exponential with rate = softplus(rate)."""

    def __init__(self, rate: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "ExponentialWithSoftplusRate"):
        parameters = dict(rate=rate, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[rate]) as name:
            super().__init__(rate=nn_ops.softplus(rate, name="softplus_rate"),
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             name=name)
        self._parameters = parameters


class Beta(distribution.Distribution):
    """The Beta distribution with concentration1 (alpha) and concentration0 (beta)."""

    def __init__(self, concentration1: Any = None, concentration0: Any = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Beta"):
        parameters = dict(concentration1=concentration1, concentration0=concentration0,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name, values=[concentration1, concentration0]) as name:
            self._concentration1 = self._valid_concentration(
                convert_to_tensor(concentration1, name="concentration1"), validate_args)
            self._concentration0 = self._valid_concentration(
                convert_to_tensor(concentration0, name="concentration0"), validate_args)
            assert_same_float_dtype([self._concentration1, self._concentration0])
            self._total_concentration = self._concentration1 + self._concentration0
        super().__init__(dtype=self._total_concentration.dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats,
                         reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         parameters=parameters,
                         graph_parents=[self._concentration1, self._concentration0,
                                        self._total_concentration], name=name)

    @staticmethod
    def _param_shapes(sample_shape: Any) -> dict:
        return dict(zip(["concentration1", "concentration0"],
                        [convert_to_tensor(sample_shape, dtype=D.int32)] * 2))

    @property
    def concentration1(self) -> Tensor:
        return self._concentration1

    @property
    def concentration0(self) -> Tensor:
        return self._concentration0

    @property
    def total_concentration(self) -> Tensor:
        return self._total_concentration

    def _batch_shape_tensor(self) -> Tensor:
        return array_ops.shape(self.total_concentration)

    def _batch_shape(self) -> TensorShape:
        return self.total_concentration.shape

    def _event_shape_tensor(self) -> Tensor:
        return _scalar_event_tensor()

    def _event_shape(self) -> TensorShape:
        return TensorShape([])

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        expanded1 = ones_like(self.total_concentration, dtype=self.dtype) * self.concentration1
        expanded0 = ones_like(self.total_concentration, dtype=self.dtype) * self.concentration0
        gamma1 = random_gamma(shape=[n], alpha=expanded1, dtype=self.dtype, seed=seed)
        gamma2 = random_gamma(shape=[n], alpha=expanded0, dtype=self.dtype,
                              seed=util.gen_new_seed(seed, "beta"))
        return gamma1 / (gamma1 + gamma2)

    def _log_prob(self, x: Tensor) -> Tensor:
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _prob(self, x: Tensor) -> Tensor:
        return math_ops.exp(self._log_prob(x))

    def _log_cdf(self, x: Tensor) -> Tensor:
        return math_ops.log(self._cdf(x))

    def _cdf(self, x: Tensor) -> Tensor:
        return betainc(self.concentration1, self.concentration0, x)

    def _log_unnormalized_prob(self, x: Tensor) -> Tensor:
        from tf1compat.ops.math_ops import xlogy
        x = self._maybe_assert_valid_sample(x)
        return xlogy(self.concentration1 - 1.0, x) + \
            (self.concentration0 - 1.0) * math_ops.log1p(-x)

    def _log_normalization(self) -> Tensor:
        return (math_ops.lgamma(self.concentration1) + math_ops.lgamma(self.concentration0) -
                math_ops.lgamma(self.total_concentration))

    def _entropy(self) -> Tensor:
        return (self._log_normalization() -
                (self.concentration1 - 1.0) * math_ops.digamma(self.concentration1) -
                (self.concentration0 - 1.0) * math_ops.digamma(self.concentration0) +
                (self.total_concentration - 2.0) * math_ops.digamma(self.total_concentration))

    def _mean(self) -> Tensor:
        return self._concentration1 / self._total_concentration

    def _variance(self) -> Tensor:
        return self._mean() * (1.0 - self._mean()) / (1.0 + self.total_concentration)

    def _mode(self) -> Tensor:
        mode = (self.concentration1 - 1.0) / (self.total_concentration - 2.0)
        if self.allow_nan_stats:
            defined = math_ops.logical_and(self.concentration1 > 1.0,
                                           self.concentration0 > 1.0)
            return where_v2(defined, mode, _nan_fill(self.batch_shape_tensor(), self.dtype))
        return with_dependencies([
            check_ops.assert_less(ones([], dtype=self.dtype), self.concentration1,
                                  message="Mode undefined for concentration1 <= 1."),
            check_ops.assert_less(ones([], dtype=self.dtype), self.concentration0,
                                  message="Mode undefined for concentration0 <= 1.")], mode)

    @staticmethod
    def _valid_concentration(concentration: Tensor, validate_args: bool) -> Tensor:
        if not validate_args:
            return concentration
        return with_dependencies([check_ops.assert_positive(
            concentration, message="Concentration parameter must be positive.")],
            concentration)

    def _maybe_assert_valid_sample(self, x: Tensor) -> Tensor:
        if not self.validate_args:
            return x
        return with_dependencies([
            check_ops.assert_positive(x, message="sample must be positive"),
            check_ops.assert_less(x, ones([], self.dtype),
                                  message="sample must be less than `1`.")], x)


class BetaWithSoftplusConcentration(Beta):
    """Beta with softplus applied to both concentrations."""

    def __init__(self, concentration1: Any, concentration0: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "BetaWithSoftplusConcentration"):
        parameters = dict(concentration1=concentration1, concentration0=concentration0,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name, values=[concentration1, concentration0]) as name:
            super().__init__(
                concentration1=nn_ops.softplus(concentration1, name="softplus_concentration1"),
                concentration0=nn_ops.softplus(concentration0, name="softplus_concentration0"),
                validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


@RegisterKL(Beta, Beta)
def _kl_beta_beta(d1: Beta, d2: Beta, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "kl_beta_beta", values=[
            d1.concentration1, d1.concentration0, d1.total_concentration,
            d2.concentration1, d2.concentration0, d2.total_concentration]):
        return (d2._log_normalization() - d1._log_normalization() -
                math_ops.digamma(d1.concentration1) * (d2.concentration1 - d1.concentration1) -
                math_ops.digamma(d1.concentration0) * (d2.concentration0 - d1.concentration0) +
                math_ops.digamma(d1.total_concentration) *
                (d2.total_concentration - d1.total_concentration))

