"""Discrete and simplex distributions of `tf.distributions`: Bernoulli, Categorical,
Multinomial, Dirichlet, DirichletMultinomial, with their registered KL divergences."""

from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from tf1compat.distributions import distribution, util
from tf1compat.distributions.kullback_leibler import RegisterKL
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.ops import array_ops, check_ops, math_ops, nn_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import fill, one_hot, ones, ones_like, zeros_like
from tf1compat.ops.functional_ops import map_fn
from tf1compat.ops.indexing_ops import sequence_mask, where, where_v2
from tf1compat.ops.matrix_ops import matrix_set_diag
from tf1compat.ops.nn_losses import (sigmoid_cross_entropy_with_logits,
                                     sparse_softmax_cross_entropy_with_logits)
from tf1compat.ops.random_extra_ops import random_gamma
from tf1compat.ops.random_ops import multinomial, random_uniform
from tf1compat.ops.reduction_ops import argmax, reduce_all, reduce_sum
from tf1compat.ops.special_math_ops import lbeta
from tf1compat.ops.transform_ops import transpose

__all__ = ["Bernoulli", "Categorical", "Multinomial", "Dirichlet", "DirichletMultinomial"]


def _scalar_event_tensor() -> Tensor:
    return constant([], dtype=D.int32)


class Bernoulli(distribution.Distribution):
    """The Bernoulli distribution over {0, 1} (`dtype` samples) from logits or probs."""

    def __init__(self, logits: Any = None, probs: Any = None, dtype: Any = D.int32,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Bernoulli"):
        parameters = dict(logits=logits, probs=probs, dtype=dtype,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name) as name:
            self._logits, self._probs = util.get_logits_and_probs(
                logits=logits, probs=probs, validate_args=validate_args, name=name)
        super().__init__(dtype=D.as_dtype(dtype),
                         reparameterization_type=distribution.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._logits, self._probs],
                         name=name)

    @staticmethod
    def _param_shapes(sample_shape: Any) -> dict:
        return {"logits": convert_to_tensor(sample_shape, dtype=D.int32)}

    @property
    def logits(self) -> Tensor:
        return self._logits

    @property
    def probs(self) -> Tensor:
        return self._probs

    def _batch_shape_tensor(self) -> Tensor:
        return array_ops.shape(self._logits)

    def _batch_shape(self) -> TensorShape:
        return self._logits.shape

    def _event_shape_tensor(self) -> Tensor:
        return _scalar_event_tensor()

    def _event_shape(self) -> TensorShape:
        return TensorShape([])

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        new_shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        uniform = random_uniform(new_shape, seed=seed, dtype=self.probs.dtype)
        return math_ops.cast(math_ops.less(uniform, self.probs), self.dtype)

    def _log_prob(self, event: Tensor) -> Tensor:
        if self.validate_args:
            event = util.embed_check_integer_casting_closed(event, target_dtype=D.bool)
        event = math_ops.cast(event, self.logits.dtype)
        logits = self.logits
        same = (event.shape.is_fully_defined() and logits.shape.is_fully_defined() and
                event.shape == logits.shape)
        if not same:
            logits, event = ones_like(event) * logits, ones_like(logits) * event
        return -sigmoid_cross_entropy_with_logits(labels=event, logits=logits)

    def _entropy(self) -> Tensor:
        return -self.logits * (math_ops.sigmoid(self.logits) - 1) + \
            nn_ops.softplus(-self.logits)

    def _mean(self) -> Tensor:
        return array_ops.identity(self.probs)

    def _variance(self) -> Tensor:
        return self._mean() * (1.0 - self.probs)

    def _mode(self) -> Tensor:
        return math_ops.cast(self.probs > 0.5, self.dtype)


@RegisterKL(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(a: Bernoulli, b: Bernoulli, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "kl_bernoulli_bernoulli", values=[a.logits, b.logits]):
        delta0 = nn_ops.softplus(-b.logits) - nn_ops.softplus(-a.logits)
        delta1 = nn_ops.softplus(b.logits) - nn_ops.softplus(a.logits)
        return math_ops.sigmoid(a.logits) * delta0 + math_ops.sigmoid(-a.logits) * delta1


def _broadcast_event_and_params(event: Tensor, params: Tensor, base_dtype: D.DType
                                ) -> Tuple[Tensor, Tensor]:
    """Broadcasts class indices against [..., classes] parameters."""
    if event.dtype.is_floating:
        event = math_ops.cast(event, dtype=D.int32)
    elif not event.dtype.is_integer:
        raise TypeError(f"`value` should have integer `dtype` or `self.dtype` ({base_dtype})")
    static = params.shape.rank is not None and params.shape[:-1].is_fully_defined() and \
        event.shape.is_fully_defined()
    if not static or params.shape[:-1] != event.shape:
        params *= ones_like(event[..., None], dtype=params.dtype)
        event *= ones(array_ops.shape(params)[:-1], dtype=event.dtype)
        if params.shape.rank is not None:
            event.set_shape(TensorShape(params.shape[:-1]))
    return event, params


class Categorical(distribution.Distribution):
    """A categorical distribution over the last axis of logits or probs."""

    def __init__(self, logits: Any = None, probs: Any = None, dtype: Any = D.int32,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Categorical"):
        parameters = dict(logits=logits, probs=probs, dtype=dtype,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name, values=[logits, probs]) as name:
            self._logits, self._probs = util.get_logits_and_probs(
                logits=logits, probs=probs, validate_args=validate_args,
                multidimensional=True, name=name)
            if validate_args:
                self._logits = util.embed_check_categorical_event_shape(self._logits)
            static = self._logits.shape.with_rank_at_least(1)
            if static.rank is not None:
                self._batch_rank = convert_to_tensor(static.rank - 1, dtype=D.int32,
                                                     name="batch_rank")
            else:
                with name_scope("batch_rank"):
                    self._batch_rank = array_ops.rank(self._logits) - 1
            logits_shape = array_ops.shape(self._logits, name="logits_shape")
            if dimension_value(static[-1]) is not None:
                self._event_size = convert_to_tensor(static.as_list()[-1], dtype=D.int32,
                                                     name="event_size")
            else:
                with name_scope("event_size"):
                    self._event_size = logits_shape[self._batch_rank]
            if static[:-1].is_fully_defined():
                self._batch_shape_val = constant(static[:-1].as_list(), dtype=D.int32,
                                                 name="batch_shape")
            else:
                with name_scope("batch_shape"):
                    self._batch_shape_val = logits_shape[:-1]
        super().__init__(dtype=D.as_dtype(dtype),
                         reparameterization_type=distribution.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._logits, self._probs],
                         name=name)

    @property
    def event_size(self) -> Tensor:
        return self._event_size

    @property
    def logits(self) -> Tensor:
        return self._logits

    @property
    def probs(self) -> Tensor:
        return self._probs

    def _batch_shape_tensor(self) -> Tensor:
        return array_ops.identity(self._batch_shape_val)

    def _batch_shape(self) -> TensorShape:
        return self.logits.shape[:-1]

    def _event_shape_tensor(self) -> Tensor:
        return _scalar_event_tensor()

    def _event_shape(self) -> TensorShape:
        return TensorShape([])

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        logits_2d = self.logits if self.logits.shape.rank == 2 else \
            array_ops.reshape(self.logits, [-1, self.event_size])
        sample_dtype = D.int64 if self.dtype.size > 4 else D.int32
        draws = multinomial(logits_2d, n, seed=seed, output_dtype=sample_dtype)
        draws = array_ops.reshape(transpose(draws),
                                  array_ops.concat([[n], self.batch_shape_tensor()], 0))
        return math_ops.cast(draws, self.dtype)

    def _cdf(self, k: Tensor) -> Tensor:
        k = convert_to_tensor(k, name="k")
        if self.validate_args:
            k = util.embed_check_integer_casting_closed(k, target_dtype=D.int32)
        k, probs = _broadcast_event_and_params(k, self.probs, self.dtype.base_dtype)
        flat_probs = array_ops.reshape(probs, (-1, self._event_size))
        flat_k = array_ops.reshape(k, [-1])
        summed = where(sequence_mask(flat_k, self._event_size), flat_probs,
                       zeros_like(flat_probs))
        return array_ops.reshape(reduce_sum(summed, axis=-1), array_ops.shape(k))

    def _log_prob(self, k: Tensor) -> Tensor:
        k = convert_to_tensor(k, name="k")
        if self.validate_args:
            k = util.embed_check_integer_casting_closed(k, target_dtype=D.int32)
        k, logits = _broadcast_event_and_params(k, self.logits, self.dtype.base_dtype)
        return -sparse_softmax_cross_entropy_with_logits(labels=k, logits=logits)

    def _entropy(self) -> Tensor:
        return -reduce_sum(nn_ops.log_softmax(self.logits) * self.probs, axis=-1)

    def _mode(self) -> Tensor:
        ret = math_ops.cast(argmax(self.logits, axis=self._batch_rank), self.dtype)
        ret.set_shape(self.batch_shape)
        return ret


@RegisterKL(Categorical, Categorical)
def _kl_categorical_categorical(a: Categorical, b: Categorical,
                                name: Optional[str] = None) -> Tensor:
    with name_scope(name, "kl_categorical_categorical", values=[a.logits, b.logits]):
        delta = nn_ops.log_softmax(a.logits) - nn_ops.log_softmax(b.logits)
        return reduce_sum(nn_ops.softmax(a.logits) * delta, axis=-1)


class Multinomial(distribution.Distribution):
    """Counts of `total_count` categorical draws over the last axis of logits/probs."""

    def __init__(self, total_count: Any, logits: Any = None, probs: Any = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Multinomial"):
        parameters = dict(total_count=total_count, logits=logits, probs=probs,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name, values=[total_count, logits, probs]) as name:
            self._total_count = convert_to_tensor(total_count, name="total_count")
            if validate_args:
                self._total_count = util.embed_check_nonnegative_integer_form(self._total_count)
            self._logits, self._probs = util.get_logits_and_probs(
                logits=logits, probs=probs, multidimensional=True,
                validate_args=validate_args, name=name)
            self._mean_val = self._total_count[..., None] * self._probs
        super().__init__(dtype=self._probs.dtype,
                         reparameterization_type=distribution.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._total_count, self._logits, self._probs],
                         name=name)

    @property
    def total_count(self) -> Tensor:
        return self._total_count

    @property
    def logits(self) -> Tensor:
        return self._logits

    @property
    def probs(self) -> Tensor:
        return self._probs

    def _batch_shape_tensor(self) -> Tensor:
        return array_ops.shape(self._mean_val)[:-1]

    def _batch_shape(self) -> TensorShape:
        return self._mean_val.shape.with_rank_at_least(1)[:-1]

    def _event_shape_tensor(self) -> Tensor:
        return array_ops.shape(self._mean_val)[-1:]

    def _event_shape(self) -> TensorShape:
        return self._mean_val.shape.with_rank_at_least(1)[-1:]

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        n_draws = math_ops.cast(self.total_count, dtype=D.int32)
        k = self.event_shape_tensor()[0]
        n_draws = ones_like(self.logits[..., 0], dtype=n_draws.dtype) * n_draws
        logits = ones_like(n_draws[..., None], dtype=self.logits.dtype) * self.logits
        flat_logits = array_ops.reshape(logits, [-1, k])
        flat_draws = n * array_ops.reshape(n_draws, [-1])

        def sample_single(args: Any) -> Tensor:
            row, draws = args[0], args[1]
            x = multinomial(row[None, ...], draws, seed)
            x = array_ops.reshape(x, shape=[n, -1])
            return reduce_sum(one_hot(x, depth=k), axis=-2)

        x = map_fn(sample_single, [flat_logits, flat_draws], dtype=self.dtype)
        x = transpose(x, perm=[1, 0, 2])
        final_shape = array_ops.concat([[n], self.batch_shape_tensor(), [k]], 0)
        return array_ops.reshape(x, final_shape)

    def _log_prob(self, counts: Tensor) -> Tensor:
        return self._log_unnormalized_prob(counts) - self._log_normalization(counts)

    def _log_unnormalized_prob(self, counts: Tensor) -> Tensor:
        counts = self._maybe_assert_valid_sample(counts)
        return reduce_sum(counts * nn_ops.log_softmax(self.logits), -1)

    def _log_normalization(self, counts: Tensor) -> Tensor:
        counts = self._maybe_assert_valid_sample(counts)
        return -util.log_combinations(self.total_count, counts)

    def _mean(self) -> Tensor:
        return array_ops.identity(self._mean_val)

    def _covariance(self) -> Tensor:
        from tf1compat.ops.linalg_ops import matmul
        p = self.probs * ones_like(self.total_count)[..., None]
        return matrix_set_diag(-matmul(self._mean_val[..., None], p[..., None, :]),
                               self._variance())

    def _variance(self) -> Tensor:
        p = self.probs * ones_like(self.total_count)[..., None]
        return self._mean_val - self._mean_val * p

    def _maybe_assert_valid_sample(self, counts: Tensor) -> Tensor:
        if not self.validate_args:
            return counts
        counts = util.embed_check_nonnegative_integer_form(counts)
        return with_dependencies([check_ops.assert_equal(
            self.total_count, reduce_sum(counts, -1),
            message="counts must sum to `self.total_count`")], counts)


class Dirichlet(distribution.Distribution):
    """The Dirichlet distribution over the simplex of the last axis."""

    def __init__(self, concentration: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Dirichlet"):
        parameters = dict(concentration=concentration, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[concentration]) as name:
            self._concentration = self._valid_concentration(
                convert_to_tensor(concentration, name="concentration"), validate_args)
            self._total_concentration = reduce_sum(self._concentration, -1)
        super().__init__(dtype=self._concentration.dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats,
                         reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         parameters=parameters,
                         graph_parents=[self._concentration, self._total_concentration],
                         name=name)

    @property
    def concentration(self) -> Tensor:
        return self._concentration

    @property
    def total_concentration(self) -> Tensor:
        return self._total_concentration

    def _batch_shape_tensor(self) -> Tensor:
        return array_ops.shape(self.total_concentration)

    def _batch_shape(self) -> TensorShape:
        return self.total_concentration.shape

    def _event_shape_tensor(self) -> Tensor:
        return array_ops.shape(self.concentration)[-1:]

    def _event_shape(self) -> TensorShape:
        return self.concentration.shape.with_rank_at_least(1)[-1:]

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        gamma = random_gamma(shape=[n], alpha=self.concentration, dtype=self.dtype, seed=seed)
        return gamma / reduce_sum(gamma, -1, keepdims=True)

    def _log_prob(self, x: Tensor) -> Tensor:
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _prob(self, x: Tensor) -> Tensor:
        return math_ops.exp(self._log_prob(x))

    def _log_unnormalized_prob(self, x: Tensor) -> Tensor:
        from tf1compat.ops.math_ops import xlogy
        x = self._maybe_assert_valid_sample(x)
        return reduce_sum(xlogy(self.concentration - 1.0, x), -1)

    def _log_normalization(self) -> Tensor:
        return lbeta(self.concentration)

    def _entropy(self) -> Tensor:
        k = math_ops.cast(self.event_shape_tensor()[0], self.dtype)
        return (self._log_normalization() +
                (self.total_concentration - k) * math_ops.digamma(self.total_concentration) -
                reduce_sum((self.concentration - 1.0) * math_ops.digamma(self.concentration),
                           axis=-1))

    def _mean(self) -> Tensor:
        return self.concentration / self.total_concentration[..., None]

    def _covariance(self) -> Tensor:
        from tf1compat.ops.linalg_ops import matmul
        x = self._variance_scale_term() * self._mean()
        return matrix_set_diag(-matmul(x[..., None], x[..., None, :]), self._variance())

    def _variance(self) -> Tensor:
        scale = self._variance_scale_term()
        x = scale * self._mean()
        return x * (scale - x)

    def _variance_scale_term(self) -> Tensor:
        return math_ops.rsqrt(1.0 + self.total_concentration[..., None])

    def _mode(self) -> Tensor:
        k = math_ops.cast(self.event_shape_tensor()[0], self.dtype)
        mode = (self.concentration - 1.0) / (self.total_concentration[..., None] - k)
        if self.allow_nan_stats:
            nan = fill(array_ops.shape(mode), np.array(np.nan, dtype=self.dtype.as_numpy_dtype),
                       name="nan")
            return where_v2(reduce_all(self.concentration > 1.0, axis=-1), mode, nan)
        return with_dependencies([check_ops.assert_less(
            ones([], self.dtype), self.concentration,
            message="Mode undefined when any concentration <= 1")], mode)

    @staticmethod
    def _valid_concentration(concentration: Tensor, validate_args: bool) -> Tensor:
        if not validate_args:
            return concentration
        return with_dependencies([
            check_ops.assert_positive(concentration,
                                      message="Concentration parameter must be positive."),
            check_ops.assert_rank_at_least(concentration, 1, message="Concentration "
                                           "parameter must have >=1 dimensions."),
            check_ops.assert_less(1, array_ops.shape(concentration)[-1], message="Concentration"
                                  " parameter must have event_size >= 2.")], concentration)

    def _maybe_assert_valid_sample(self, x: Tensor) -> Tensor:
        from tf1compat.ops.numerics_ops import assert_near
        if not self.validate_args:
            return x
        return with_dependencies([
            check_ops.assert_positive(x, message="samples must be positive"),
            assert_near(ones([], dtype=self.dtype), reduce_sum(x, -1),
                        message="sample last-dimension must sum to `1`")], x)


@RegisterKL(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(d1: Dirichlet, d2: Dirichlet, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "kl_dirichlet_dirichlet", values=[d1.concentration,
                                                            d2.concentration]):
        digamma_sum = math_ops.digamma(reduce_sum(d1.concentration, axis=-1, keepdims=True))
        digamma_diff = math_ops.digamma(d1.concentration) - digamma_sum
        concentration_diff = d1.concentration - d2.concentration
        return reduce_sum(concentration_diff * digamma_diff, axis=-1) - \
            lbeta(d1.concentration) + lbeta(d2.concentration)


class DirichletMultinomial(distribution.Distribution):
    """Counts of `total_count` draws with class probabilities from a Dirichlet."""

    def __init__(self, total_count: Any, concentration: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "DirichletMultinomial"):
        parameters = dict(total_count=total_count, concentration=concentration,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name, values=[total_count, concentration]) as name:
            self._total_count = convert_to_tensor(total_count, name="total_count")
            if validate_args:
                self._total_count = util.embed_check_nonnegative_integer_form(self._total_count)
            concentration = convert_to_tensor(concentration, name="concentration")
            if validate_args:
                concentration = util.embed_check_categorical_event_shape(concentration)
                concentration = with_dependencies([check_ops.assert_positive(
                    concentration, message="Concentration parameter must be positive.")],
                    concentration)
            self._concentration = concentration
            self._total_concentration = reduce_sum(self._concentration, -1)
        super().__init__(dtype=self._concentration.dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats,
                         reparameterization_type=distribution.NOT_REPARAMETERIZED,
                         parameters=parameters,
                         graph_parents=[self._total_count, self._concentration], name=name)

    @property
    def total_count(self) -> Tensor:
        return self._total_count

    @property
    def concentration(self) -> Tensor:
        return self._concentration

    @property
    def total_concentration(self) -> Tensor:
        return self._total_concentration

    def _batch_shape_tensor(self) -> Tensor:
        return array_ops.shape(self.total_concentration)

    def _batch_shape(self) -> TensorShape:
        return self.total_concentration.shape

    def _event_shape_tensor(self) -> Tensor:
        return array_ops.shape(self.concentration)[-1:]

    def _event_shape(self) -> TensorShape:
        return self.concentration.shape.with_rank_at_least(1)[-1:]

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        n_draws = math_ops.cast(self.total_count, dtype=D.int32)
        k = self.event_shape_tensor()[0]
        logits = array_ops.reshape(math_ops.log(random_gamma(
            shape=[n], alpha=self.concentration, dtype=self.dtype, seed=seed)), shape=[-1, k])
        draws = multinomial(logits=logits, num_samples=n_draws,
                            seed=util.gen_new_seed(seed, salt="dirichlet_multinomial"))
        x = reduce_sum(one_hot(draws, depth=k), -2)
        final_shape = array_ops.concat([[n], self.batch_shape_tensor(), [k]], 0)
        return math_ops.cast(array_ops.reshape(x, final_shape), self.dtype)

    def _log_prob(self, counts: Tensor) -> Tensor:
        counts = self._maybe_assert_valid_sample(counts)
        ordered = lbeta(self.concentration + counts) - lbeta(self.concentration)
        return ordered + util.log_combinations(self.total_count, counts)

    def _prob(self, counts: Tensor) -> Tensor:
        return math_ops.exp(self._log_prob(counts))

    def _mean(self) -> Tensor:
        return self.total_count * (self.concentration / self.total_concentration[..., None])

    def _covariance(self) -> Tensor:
        from tf1compat.ops.linalg_ops import matmul
        x = self._variance_scale_term() * self._mean()
        return matrix_set_diag(-matmul(x[..., None], x[..., None, :]), self._variance())

    def _variance(self) -> Tensor:
        scale = self._variance_scale_term()
        x = scale * self._mean()
        return x * (self.total_count * scale - x)

    def _variance_scale_term(self) -> Tensor:
        c0 = self.total_concentration[..., None]
        return math_ops.sqrt((1.0 + c0 / self.total_count) / (1.0 + c0))

    def _maybe_assert_valid_sample(self, counts: Tensor) -> Tensor:
        if not self.validate_args:
            return counts
        counts = util.embed_check_nonnegative_integer_form(counts)
        return with_dependencies([check_ops.assert_equal(
            self.total_count, reduce_sum(counts, -1),
            message="counts last-dimension must sum to `self.total_count`")], counts)
