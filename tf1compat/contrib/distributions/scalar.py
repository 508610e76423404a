"""Scalar families of `tf.contrib.distributions`: Poisson, Geometric, NegativeBinomial,
Binomial, Chi2 (and Chi2WithAbsDf), InverseGamma (and its softplus variant), HalfNormal,
Cauchy, Deterministic, VectorDeterministic and BernoulliWithSigmoidProbs, with TF 1.x's
samplers (the same random ops and seeds, so seeded samples are TF's numbers)."""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from tf1compat.distributions import distribution, util
from tf1compat.distributions.continuous import Gamma, _LocScale, _nan_fill
from tf1compat.distributions.discrete import Bernoulli
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import array_ops, check_ops, math_ops, nn_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import ones, ones_like, zeros, zeros_like
from tf1compat.ops.indexing_ops import where_v2
from tf1compat.ops.nn_losses import sigmoid_cross_entropy_with_logits
from tf1compat.ops.random_extra_ops import random_gamma, random_poisson
from tf1compat.ops.random_ops import random_normal, random_uniform
from tf1compat.ops.reduction_ops import reduce_all
from tf1compat.ops.special_math_ops import betainc, erfinv, igammac
from tf1compat.ops.transform_ops import (broadcast_dynamic_shape, broadcast_static_shape,
                                         broadcast_to, tile)

__all__ = ["Poisson", "Geometric", "NegativeBinomial", "Binomial", "Chi2", "Chi2WithAbsDf",
           "InverseGamma", "InverseGammaWithSoftplusConcentrationRate", "HalfNormal",
           "Cauchy", "Deterministic", "VectorDeterministic", "BernoulliWithSigmoidProbs"]


class _Scalar(distribution.Distribution):
    """A scalar-event distribution whose batch shape broadcasts its `_shape_params`."""

    _shape_params: List[str] = []

    def _params(self) -> List[Tensor]:
        return [getattr(self, "_" + p) for p in self._shape_params]

    def _batch_shape_tensor(self) -> Tensor:
        params = self._params()
        shape = array_ops.shape(params[0])
        for p in params[1:]:
            shape = broadcast_dynamic_shape(shape, array_ops.shape(p))
        return shape

    def _batch_shape(self) -> TensorShape:
        params = self._params()
        shape = params[0].shape
        for p in params[1:]:
            shape = broadcast_static_shape(shape, p.shape)
        return shape

    def _event_shape_tensor(self) -> Tensor:
        return convert_to_tensor([], dtype=D.int32)

    def _event_shape(self) -> TensorShape:
        return TensorShape([])

    def _init(self, name: str, parameters: dict, reparameterized: bool, validate_args: bool,
              allow_nan_stats: bool) -> None:
        params = self._params()
        super().__init__(dtype=params[-1].dtype,
                         reparameterization_type=distribution.FULLY_REPARAMETERIZED
                         if reparameterized else distribution.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=params, name=name)

    def _checked_count(self, x: Tensor) -> Tensor:
        return util.embed_check_nonnegative_integer_form(x) if self.validate_args else x


def _constant_of(value: float, dtype: D.DType) -> Tensor:
    return convert_to_tensor(np.array(value, dtype.as_numpy_dtype))


def _broadcast_betainc(a: Tensor, b: Tensor, x: Tensor) -> Tensor:
    """betainc of arguments broadcast together (TF's op takes equal shapes or scalars)."""
    shape = broadcast_dynamic_shape(broadcast_dynamic_shape(array_ops.shape(a),
                                                            array_ops.shape(b)),
                                    array_ops.shape(x))
    return betainc(broadcast_to(a, shape), broadcast_to(b, shape), broadcast_to(x, shape))


def _checked(value: Any, name: str, validate: bool, checks: Any, dtype: Any = None) -> Tensor:
    value = convert_to_tensor(value, name=name, dtype=dtype)
    with control_dependencies(checks(value) if validate else []):
        return array_ops.identity(value, name=name)


class Poisson(_Scalar):
    """The Poisson distribution with `rate` (or `log_rate`); log_prob and cdf evaluate
    their continuous formulas at non-integer x, as TF 1.x does."""

    _shape_params = ["rate"]

    def __init__(self, rate: Any = None, log_rate: Any = None, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Poisson"):
        parameters = dict(rate=rate, log_rate=log_rate, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[rate, log_rate]) as name:
            if (rate is None) == (log_rate is None):
                raise ValueError("Must specify exactly one of `rate` and `log_rate`.")
            if rate is None:
                self._log_rate = convert_to_tensor(log_rate, name="log_rate")
                if not self._log_rate.dtype.is_floating:
                    raise TypeError("log_rate.dtype ({}) is a not a float-type.".format(
                        self._log_rate.dtype.name))
                self._rate = math_ops.exp(self._log_rate, name="rate")
            else:
                self._rate = _checked(rate, "rate", validate_args,
                                      lambda r: [check_ops.assert_positive(r)])
                if not self._rate.dtype.is_floating:
                    raise TypeError("rate.dtype ({}) is a not a float-type.".format(
                        self._rate.dtype.name))
                self._log_rate = math_ops.log(self._rate, name="log_rate")
        self._init(name, parameters, False, validate_args, allow_nan_stats)

    @property
    def rate(self) -> Tensor:
        return self._rate

    @property
    def log_rate(self) -> Tensor:
        return self._log_rate

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        return random_poisson(self.rate, [n], dtype=self.dtype, seed=seed)

    def _log_prob(self, x: Tensor) -> Tensor:
        x = self._checked_count(x)
        return x * self.log_rate - math_ops.lgamma(1.0 + x) - self.rate

    def _log_cdf(self, x: Tensor) -> Tensor:
        return math_ops.log(self.cdf(x))

    def _cdf(self, x: Tensor) -> Tensor:
        return igammac(1.0 + self._checked_count(x), self.rate)

    def _mean(self) -> Tensor:
        return array_ops.identity(self.rate)

    def _variance(self) -> Tensor:
        return array_ops.identity(self.rate)

    def _mode(self) -> Tensor:
        return math_ops.floor(self.rate)


class _LogitsProbs(_Scalar):
    """Shared parts of the Bernoulli-trial families (logits or probs of success)."""

    def _init_logits_probs(self, logits: Any, probs: Any, validate_args: bool) -> None:
        self._logits, self._probs = util.get_logits_and_probs(
            logits=logits, probs=probs, validate_args=validate_args)

    @property
    def logits(self) -> Tensor:
        return self._logits

    @property
    def probs(self) -> Tensor:
        return self._probs


class Geometric(_LogitsProbs):
    """The number of failures before the first success, success probability `probs`."""

    _shape_params = ["probs"]

    def __init__(self, logits: Any = None, probs: Any = None, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Geometric"):
        parameters = dict(logits=logits, probs=probs, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[logits, probs]) as name:
            self._init_logits_probs(logits, probs, validate_args)
            if validate_args:
                self._probs = with_dependencies([check_ops.assert_positive(
                    self._probs, message="probs has components that are not positive.")],
                    self._probs)
        self._init(name, parameters, False, validate_args, allow_nan_stats)

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        shape = array_ops.concat([[n], array_ops.shape(self.probs)], 0)
        sampled = random_uniform(shape, minval=np.finfo(self.dtype.as_numpy_dtype).tiny,
                                 maxval=1.0, seed=seed, dtype=self.dtype)
        return math_ops.floor(math_ops.log(sampled) / math_ops.log1p(-self.probs))

    def _cdf(self, x: Tensor) -> Tensor:
        x = self._checked_count(x) if self.validate_args else math_ops.floor(x)
        x = x * ones_like(self.probs)
        return where_v2(x < 0.0, zeros_like(x),
                        -math_ops.expm1((1.0 + x) * math_ops.log1p(-self.probs)))

    def _log_prob(self, x: Tensor) -> Tensor:
        x = self._checked_count(x) if self.validate_args else math_ops.floor(x)
        x = x * ones_like(self.probs)
        probs = self.probs * ones_like(x)
        safe = where_v2(math_ops.equal(x, 0.0), zeros_like(probs), probs)
        return x * math_ops.log1p(-safe) + math_ops.log(probs)

    def _entropy(self) -> Tensor:
        return sigmoid_cross_entropy_with_logits(labels=self.probs, logits=self.logits) / \
            self.probs

    def _mean(self) -> Tensor:
        return math_ops.exp(-self.logits)

    def _variance(self) -> Tensor:
        return self._mean() / self.probs

    def _mode(self) -> Tensor:
        return zeros(self.batch_shape_tensor(), dtype=self.dtype)


class NegativeBinomial(_LogitsProbs):
    """The number of successes (probability `probs`) before `total_count` failures."""

    _shape_params = ["total_count", "probs"]

    def __init__(self, total_count: Any, logits: Any = None, probs: Any = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "NegativeBinomial"):
        parameters = dict(total_count=total_count, logits=logits, probs=probs,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name, values=[total_count, logits, probs]) as name:
            self._init_logits_probs(logits, probs, validate_args)
            self._total_count = _checked(total_count, "total_count", validate_args,
                                         lambda t: [check_ops.assert_positive(t)],
                                         dtype=self._probs.dtype)
        self._init(name, parameters, False, validate_args, allow_nan_stats)

    @property
    def total_count(self) -> Tensor:
        return self._total_count

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        # rate ~ Gamma(total_count, (1 - p) / p), then Poisson(rate) is negative binomial.
        rate = random_gamma(shape=[n], alpha=self.total_count,
                            beta=math_ops.exp(-self.logits), dtype=self.dtype, seed=seed)
        return random_poisson(rate, shape=[], dtype=self.dtype,
                              seed=util.gen_new_seed(seed, "negative_binom"))

    def _cdf(self, x: Tensor) -> Tensor:
        x = self._checked_count(x)
        return _broadcast_betainc(self.total_count, 1.0 + x, math_ops.sigmoid(-self.logits))

    def _log_prob(self, x: Tensor) -> Tensor:
        x = self._checked_count(x)
        unnormalized = self.total_count * nn_ops.log_sigmoid(-self.logits) + \
            x * nn_ops.log_sigmoid(self.logits)
        normalization = -math_ops.lgamma(self.total_count + x) + math_ops.lgamma(1.0 + x) + \
            math_ops.lgamma(self.total_count)
        return unnormalized - normalization

    def _mean(self) -> Tensor:
        return self.total_count * math_ops.exp(self.logits)

    def _mode(self) -> Tensor:
        adjusted = where_v2(1.0 < self.total_count, self.total_count - 1.0,
                            zeros_like(self.total_count))
        return math_ops.floor(adjusted * math_ops.exp(self.logits))

    def _variance(self) -> Tensor:
        return self._mean() / math_ops.sigmoid(-self.logits)


class Binomial(_LogitsProbs):
    """The number of successes in `total_count` trials of probability `probs` (TF 1.x
    implements no sampler for it)."""

    _shape_params = ["total_count", "probs"]

    def __init__(self, total_count: Any, logits: Any = None, probs: Any = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Binomial"):
        parameters = dict(total_count=total_count, logits=logits, probs=probs,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name, values=[total_count, logits, probs]) as name:
            total_count = convert_to_tensor(total_count, name="total_count")
            self._total_count = util.embed_check_nonnegative_integer_form(total_count) \
                if validate_args else total_count
            self._init_logits_probs(logits, probs, validate_args)
        self._init(name, parameters, False, validate_args, allow_nan_stats)

    @property
    def total_count(self) -> Tensor:
        return self._total_count

    def _checked_counts(self, counts: Tensor) -> Tensor:
        if not self.validate_args:
            return counts
        counts = util.embed_check_nonnegative_integer_form(counts)
        return with_dependencies([check_ops.assert_less_equal(
            counts, self.total_count, message="counts are not less than or equal to n.")],
            counts)

    def _log_prob(self, counts: Tensor) -> Tensor:
        counts = self._checked_counts(counts)
        unnormalized = counts * math_ops.log(self.probs) + \
            (self.total_count - counts) * math_ops.log1p(-self.probs)
        normalization = math_ops.lgamma(1.0 + self.total_count - counts) + \
            math_ops.lgamma(1.0 + counts) - math_ops.lgamma(1.0 + self.total_count)
        return unnormalized - normalization

    def _cdf(self, counts: Tensor) -> Tensor:
        counts = self._checked_counts(counts)
        # betainc(0, ...) is nan: k == n (cdf 1) is answered apart.
        n = self.total_count
        ones_ = ones_like(n - counts)
        k_eq_n = math_ops.equal(counts, n)
        safe_dn = where_v2(k_eq_n, ones_, n - counts)
        return where_v2(k_eq_n, ones_, _broadcast_betainc(safe_dn, counts + 1.0,
                                                          1.0 - self.probs))

    def _mean(self) -> Tensor:
        return self.total_count * self.probs

    def _variance(self) -> Tensor:
        return self._mean() * (1.0 - self.probs)

    def _mode(self) -> Tensor:
        return math_ops.floor((1.0 + self.total_count) * self.probs)


class Chi2(Gamma):
    """The chi-squared distribution with `df` degrees of freedom (Gamma(df / 2, 1 / 2))."""

    def __init__(self, df: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Chi2"):
        parameters = dict(df=df, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[df]) as name:
            self._df = _checked(df, "df", validate_args,
                                lambda d: [check_ops.assert_positive(d)])
            super().__init__(concentration=0.5 * self._df,
                             rate=convert_to_tensor(0.5, dtype=self._df.dtype),
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             name=name)
        self._parameters = parameters

    @property
    def df(self) -> Tensor:
        return self._df


class Chi2WithAbsDf(Chi2):
    """Chi2 with df = floor(|df|)."""

    def __init__(self, df: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Chi2WithAbsDf"):
        parameters = dict(df=df, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[df]) as name:
            df = math_ops.floor(math_ops.abs(df, name="abs_df"), name="floor_abs_df")
            super().__init__(df=df,
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             name=name)
        self._parameters = parameters


class InverseGamma(_Scalar):
    """The inverse gamma distribution: 1 / X for X ~ Gamma(concentration, rate)."""

    _shape_params = ["concentration", "rate"]

    def __init__(self, concentration: Any, rate: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "InverseGamma"):
        parameters = dict(concentration=concentration, rate=rate,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name, values=[concentration, rate]) as name:
            concentration = convert_to_tensor(concentration, name="concentration")
            rate = convert_to_tensor(rate, name="rate", dtype=concentration.dtype)
            with control_dependencies([check_ops.assert_positive(concentration),
                                       check_ops.assert_positive(rate)]
                                      if validate_args else []):
                self._concentration = array_ops.identity(concentration, name="concentration")
                self._rate = array_ops.identity(rate, name="rate")
        self._init(name, parameters, False, validate_args, allow_nan_stats)

    @property
    def concentration(self) -> Tensor:
        return self._concentration

    @property
    def rate(self) -> Tensor:
        return self._rate

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        return 1.0 / random_gamma(shape=[n], alpha=self.concentration, beta=self.rate,
                                  dtype=self.dtype, seed=seed)

    def _checked_sample(self, x: Tensor) -> Tensor:
        if not self.validate_args:
            return x
        return with_dependencies([check_ops.assert_positive(x)], x)

    def _log_prob(self, x: Tensor) -> Tensor:
        x = self._checked_sample(x)
        return (-(1.0 + self.concentration) * math_ops.log(x) - self.rate / x
                - (math_ops.lgamma(self.concentration)
                   - self.concentration * math_ops.log(self.rate)))

    def _cdf(self, x: Tensor) -> Tensor:
        return igammac(self.concentration, self.rate / self._checked_sample(x))

    def _entropy(self) -> Tensor:
        return (self.concentration + math_ops.log(self.rate)
                + math_ops.lgamma(self.concentration)
                - (1.0 + self.concentration) * math_ops.digamma(self.concentration))

    def _defined_where(self, value: Tensor, threshold: float, what: str) -> Tensor:
        if self.allow_nan_stats:
            return where_v2(self.concentration > threshold, value,
                            _nan_fill(self.batch_shape_tensor(), self.dtype))
        return with_dependencies([check_ops.assert_less(
            _constant_of(threshold, self.dtype), self.concentration,
            message=f"{what} undefined when any concentration <= {threshold:g}")], value)

    def _mean(self) -> Tensor:
        return self._defined_where(self.rate / (self.concentration - 1.0), 1.0, "mean")

    def _variance(self) -> Tensor:
        var = math_ops.square(self.rate) / math_ops.square(self.concentration - 1.0) / \
            (self.concentration - 2.0)
        return self._defined_where(var, 2.0, "variance")

    def _mode(self) -> Tensor:
        return self.rate / (1.0 + self.concentration)


class InverseGammaWithSoftplusConcentrationRate(InverseGamma):
    """InverseGamma with softplus applied to concentration and rate."""

    def __init__(self, concentration: Any, rate: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True,
                 name: str = "InverseGammaWithSoftplusConcentrationRate"):
        parameters = dict(concentration=concentration, rate=rate, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[concentration, rate]) as name:
            super().__init__(concentration=nn_ops.softplus(concentration,
                                                           name="softplus_concentration"),
                             rate=nn_ops.softplus(rate, name="softplus_rate"),
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             name=name)
        self._parameters = parameters


class HalfNormal(_Scalar):
    """|X| for X ~ N(0, scale^2)."""

    _shape_params = ["scale"]

    def __init__(self, scale: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "HalfNormal"):
        parameters = dict(scale=scale, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[scale]) as name:
            self._scale = _checked(scale, "scale", validate_args,
                                   lambda s: [check_ops.assert_positive(s)])
        self._init(name, parameters, True, validate_args, allow_nan_stats)

    @property
    def scale(self) -> Tensor:
        return self._scale

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        sampled = random_normal(shape=shape, mean=0.0, stddev=1.0, dtype=self.dtype, seed=seed)
        return math_ops.abs(sampled * self.scale)

    def _prob(self, x: Tensor) -> Tensor:
        coeff = np.sqrt(2) / self.scale / np.sqrt(np.pi)
        pdf = coeff * math_ops.exp(-0.5 * (x / self.scale) ** 2)
        return pdf * math_ops.cast(x >= 0, self.dtype)

    def _cdf(self, x: Tensor) -> Tensor:
        return math_ops.erf(nn_ops.relu(x) / self.scale / np.sqrt(2.0))

    def _entropy(self) -> Tensor:
        return 0.5 * math_ops.log(np.pi * self.scale ** 2.0 / 2.0) + 0.5

    def _mean(self) -> Tensor:
        return self.scale * np.sqrt(2.0) / np.sqrt(np.pi)

    def _quantile(self, p: Tensor) -> Tensor:
        return np.sqrt(2.0) * self.scale * erfinv(p)

    def _mode(self) -> Tensor:
        return zeros(self.batch_shape_tensor(), dtype=self.dtype)

    def _variance(self) -> Tensor:
        return self.scale ** 2.0 * (1.0 - 2.0 / np.pi)


class Cauchy(_LocScale):
    """The Cauchy distribution with location `loc` and scale `scale`:
    `Cauchy(loc, scale, validate_args=False, allow_nan_stats=True, name="Cauchy")`."""

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        probs = random_uniform(shape=shape, minval=0.0, maxval=1.0, dtype=self.dtype,
                               seed=seed)
        return self.loc + self.scale * math_ops.tan(np.pi * (probs - 0.5))

    def _z(self, x: Tensor) -> Tensor:
        with name_scope("standardize", values=[x]):
            return (x - self.loc) / self.scale

    def _log_prob(self, x: Tensor) -> Tensor:
        return -math_ops.log1p(math_ops.square(self._z(x))) - \
            (np.log(np.pi) + math_ops.log(self.scale))

    def _cdf(self, x: Tensor) -> Tensor:
        return math_ops.atan(self._z(x)) / np.pi + 0.5

    def _log_cdf(self, x: Tensor) -> Tensor:
        return math_ops.log1p(2 / np.pi * math_ops.atan(self._z(x))) - np.log(2)

    def _entropy(self) -> Tensor:
        return (np.log(4 * np.pi) + math_ops.log(self.scale)) * ones_like(self.loc)

    def _quantile(self, p: Tensor) -> Tensor:
        return self.loc + self.scale * math_ops.tan(np.pi * (p - 0.5))

    def _mode(self) -> Tensor:
        return self.loc * ones_like(self.scale)

    def _undefined(self, what: str) -> Tensor:
        if self.allow_nan_stats:
            return _nan_fill(self.batch_shape_tensor(), self.dtype)
        raise ValueError(f"`{what}` is undefined for Cauchy distribution.")

    def _mean(self) -> Tensor:
        return self._undefined("mean")

    def _stddev(self) -> Tensor:
        return self._undefined("stddev")

    def _variance(self) -> Tensor:
        return self._undefined("variance")


class _BaseDeterministic(distribution.Distribution):
    """A point mass at `loc` (within atol + rtol * |loc|)."""

    def __init__(self, loc: Any, atol: Any, rtol: Any, is_vector: bool, validate_args: bool,
                 allow_nan_stats: bool, name: str):
        parameters = dict(loc=loc, atol=atol, rtol=rtol, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[loc, atol, rtol]) as name:
            loc = convert_to_tensor(loc, name="loc")
            if is_vector and validate_args:
                loc = with_dependencies([check_ops.assert_rank_at_least(
                    loc, 1, message="Argument 'loc' must have rank at least 1.")], loc)
            self._loc = loc
            self._atol = convert_to_tensor(0 if atol is None else atol, dtype=loc.dtype,
                                           name="atol")
            self._rtol = convert_to_tensor(0 if rtol is None else rtol, dtype=loc.dtype,
                                           name="rtol")
            if validate_args:
                self._atol = with_dependencies([check_ops.assert_non_negative(
                    self._atol, message="Argument 'atol' must be non-negative")], self._atol)
                self._rtol = with_dependencies([check_ops.assert_non_negative(
                    self._rtol, message="Argument 'rtol' must be non-negative")], self._rtol)
        super().__init__(dtype=self._loc.dtype,
                         reparameterization_type=distribution.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._loc, self._atol, self._rtol], name=name)

    @property
    def loc(self) -> Tensor:
        return self._loc

    @property
    def atol(self) -> Tensor:
        return self._atol

    @property
    def rtol(self) -> Tensor:
        return self._rtol

    def _slack(self) -> Tensor:
        return self.atol + self.rtol * math_ops.abs(self.loc)

    def _mean(self) -> Tensor:
        return array_ops.identity(self.loc)

    def _variance(self) -> Tensor:
        return zeros_like(self.loc)

    def _entropy(self) -> Tensor:
        return zeros(self.batch_shape_tensor(), dtype=self.dtype)

    def _mode(self) -> Tensor:
        return self.mean()

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        multiples = array_ops.concat([[n], ones([array_ops.rank(self.loc)], dtype=D.int32)], 0)
        return tile(self.loc[None, ...], multiples)


class Deterministic(_BaseDeterministic):
    """A scalar point mass at `loc`."""

    def __init__(self, loc: Any, atol: Any = None, rtol: Any = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Deterministic"):
        super().__init__(loc, atol, rtol, False, validate_args, allow_nan_stats, name)

    def _batch_shape_tensor(self) -> Tensor:
        return array_ops.shape(self.loc)

    def _batch_shape(self) -> TensorShape:
        return self.loc.shape

    def _event_shape_tensor(self) -> Tensor:
        return convert_to_tensor([], dtype=D.int32)

    def _event_shape(self) -> TensorShape:
        return TensorShape([])

    def _prob(self, x: Tensor) -> Tensor:
        return math_ops.cast(math_ops.abs(x - self.loc) <= self._slack(), self.dtype)

    def _cdf(self, x: Tensor) -> Tensor:
        return math_ops.cast(x >= self.loc - self._slack(), self.dtype)


class VectorDeterministic(_BaseDeterministic):
    """A point mass at the vector `loc` (its last dim is the event)."""

    def __init__(self, loc: Any, atol: Any = None, rtol: Any = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "VectorDeterministic"):
        super().__init__(loc, atol, rtol, True, validate_args, allow_nan_stats, name)

    def _batch_shape_tensor(self) -> Tensor:
        return array_ops.shape(self.loc)[:-1]

    def _batch_shape(self) -> TensorShape:
        return self.loc.shape[:-1]

    def _event_shape_tensor(self) -> Tensor:
        return array_ops.shape(self.loc)[-1:]

    def _event_shape(self) -> TensorShape:
        return self.loc.shape[-1:]

    def _prob(self, x: Tensor) -> Tensor:
        if self.validate_args:
            x = with_dependencies([check_ops.assert_rank_at_least(x, 1)], x)
        return math_ops.cast(reduce_all(math_ops.abs(x - self.loc) <= self._slack(), axis=-1),
                             self.dtype)


class BernoulliWithSigmoidProbs(Bernoulli):
    """Bernoulli with probs = sigmoid(logits)."""

    def __init__(self, logits: Any = None, dtype: Any = D.int32, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "BernoulliWithSigmoidProbs"):
        parameters = dict(logits=logits, dtype=dtype, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[logits]) as name:
            super().__init__(probs=math_ops.sigmoid(logits, name="sigmoid_probs"), dtype=dtype,
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             name=name)
        self._parameters = parameters
