"""Distributions built from other distributions: Independent (rightmost batch dims read
as event dims), MixtureSameFamily (a Categorical over the last batch dim of a components
distribution), with Independent's KL divergence, and Autoregressive (a distribution-valued
function iterated to its fixed point)."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from tf1compat.distributions import distribution, util
from tf1compat.distributions.discrete import Categorical
from tf1compat.distributions.kullback_leibler import RegisterKL, kl_divergence
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.misc import is_tensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.ops import array_ops, nn_ops
from tf1compat.ops.creation_ops import one_hot
from tf1compat.ops.reduction_ops import reduce_logsumexp, reduce_sum

__all__ = ["Independent", "MixtureSameFamily", "Autoregressive"]


class Independent(distribution.Distribution):
    """Reinterprets the rightmost `reinterpreted_batch_ndims` batch dims of a distribution
    as event dims (log_prob sums over them)."""

    def __init__(self, distribution: distribution.Distribution,
                 reinterpreted_batch_ndims: Any = None, validate_args: bool = False,
                 name: Optional[str] = None):
        parameters = dict(distribution=distribution,
                          reinterpreted_batch_ndims=reinterpreted_batch_ndims,
                          validate_args=validate_args, name=name)
        name = name or "Independent" + distribution.name
        self._distribution = distribution
        with name_scope(name) as name:
            if reinterpreted_batch_ndims is None:
                batch_rank = distribution.batch_shape.rank
                if batch_rank is None:
                    raise NotImplementedError("Independent over a batch of unknown rank is "
                                              "not supported by tf1compat")
                reinterpreted_batch_ndims = max(0, batch_rank - 1)
            if is_tensor(reinterpreted_batch_ndims):
                value = constant_value(reinterpreted_batch_ndims)
                if value is None:
                    raise NotImplementedError("Independent with reinterpreted_batch_ndims "
                                              "known only at run time is not supported by "
                                              "tf1compat")
                reinterpreted_batch_ndims = value
            reinterpreted_batch_ndims = int(np.asarray(reinterpreted_batch_ndims))
            if reinterpreted_batch_ndims < 0:
                raise ValueError("reinterpreted_batch_ndims must be non-negative")
            batch_rank = distribution.batch_shape.rank
            if batch_rank is not None and reinterpreted_batch_ndims > batch_rank:
                raise ValueError(f"reinterpreted_batch_ndims({reinterpreted_batch_ndims}) "
                                 f"cannot exceed distribution.batch_ndims({batch_rank})")
            self._reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__(dtype=distribution.dtype,
                         reparameterization_type=distribution.reparameterization_type,
                         validate_args=validate_args,
                         allow_nan_stats=distribution.allow_nan_stats,
                         parameters=parameters, graph_parents=distribution._graph_parents,
                         name=name)

    @property
    def distribution(self) -> distribution.Distribution:
        return self._distribution

    @property
    def reinterpreted_batch_ndims(self) -> int:
        return self._reinterpreted_batch_ndims

    def _batch_shape_tensor(self) -> Tensor:
        shape = self.distribution.batch_shape_tensor()
        r = self.reinterpreted_batch_ndims
        return shape[:array_ops.size(shape) - r] if r else shape

    def _batch_shape(self) -> TensorShape:
        batch = self.distribution.batch_shape
        if batch.rank is None:
            return TensorShape(None)
        return batch[:batch.rank - self.reinterpreted_batch_ndims]

    def _event_shape_tensor(self) -> Tensor:
        batch = self.distribution.batch_shape_tensor()
        tail = batch[array_ops.size(batch) - self.reinterpreted_batch_ndims:]
        return array_ops.concat([tail, self.distribution.event_shape_tensor()], 0)

    def _event_shape(self) -> TensorShape:
        batch = self.distribution.batch_shape
        if batch.rank is None:
            return TensorShape(None)
        return batch[batch.rank - self.reinterpreted_batch_ndims:].concatenate(
            self.distribution.event_shape)

    def _reduce(self, reducer: Any, stat: Tensor) -> Tensor:
        r = self.reinterpreted_batch_ndims
        return reducer(stat, axis=list(range(-r, 0))) if r else stat

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        return self.distribution.sample(sample_shape=n, seed=seed)

    def _log_prob(self, x: Tensor) -> Tensor:
        return self._reduce(reduce_sum, self.distribution.log_prob(x))

    def _entropy(self) -> Tensor:
        return self._reduce(reduce_sum, self.distribution.entropy())

    def _mean(self) -> Tensor:
        return self.distribution.mean()

    def _variance(self) -> Tensor:
        return self.distribution.variance()

    def _stddev(self) -> Tensor:
        return self.distribution.stddev()

    def _mode(self) -> Tensor:
        return self.distribution.mode()


@RegisterKL(Independent, Independent)
def _kl_independent(a: Independent, b: Independent, name: Optional[str] = None) -> Tensor:
    """Sum of the underlying distributions' KL over the reinterpreted dims."""
    p, q = a.distribution, b.distribution
    if not (a.event_shape.is_fully_defined() and b.event_shape.is_fully_defined()):
        raise NotImplementedError("KL between Independents with different event shapes.")
    if a.event_shape != b.event_shape:
        raise ValueError(f"Event shapes do not match: {a.event_shape} vs {b.event_shape}")
    if not (p.event_shape.is_fully_defined() and q.event_shape.is_fully_defined()):
        raise NotImplementedError("KL between Independents with different event shapes.")
    if p.event_shape != q.event_shape:
        raise NotImplementedError("KL between Independents over distributions with "
                                  "different event shapes is not implemented.")
    reduce_ndims = a.event_shape.rank - p.event_shape.rank
    with name_scope(name, "kl_independent", values=[]):
        kl = kl_divergence(p, q)
        return reduce_sum(kl, axis=list(range(-reduce_ndims, 0))) if reduce_ndims else kl


class MixtureSameFamily(distribution.Distribution):
    """A mixture whose components are the last batch dim of one distribution, weighted by
    a Categorical."""

    def __init__(self, mixture_distribution: Categorical,
                 components_distribution: distribution.Distribution,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "MixtureSameFamily"):
        parameters = dict(mixture_distribution=mixture_distribution,
                          components_distribution=components_distribution,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name) as name:
            self._mixture_distribution = mixture_distribution
            self._components_distribution = components_distribution
            if not mixture_distribution.dtype.is_integer:
                raise ValueError(f"`mixture_distribution.dtype`"
                                 f"({mixture_distribution.dtype.name}) is not over integers")
            if mixture_distribution.event_shape.rank is not None and \
                    mixture_distribution.event_shape.rank != 0:
                raise ValueError("`mixture_distribution` must have scalar `event_dim`s")
            mdbs = mixture_distribution.batch_shape
            cdbs = components_distribution.batch_shape.with_rank_at_least(1)[:-1]
            if mdbs.is_fully_defined() and cdbs.is_fully_defined() and mdbs.rank != 0 and \
                    mdbs != cdbs:
                raise ValueError(f"`mixture_distribution.batch_shape` (`{mdbs}`) is not "
                                 f"compatible with `components_distribution.batch_shape` "
                                 f"(`{cdbs}`)")
            km = dimension_value(mixture_distribution.logits.shape.with_rank_at_least(1)[-1])
            kc = dimension_value(components_distribution.batch_shape.with_rank_at_least(1)[-1])
            if km is not None and kc is not None and km != kc:
                raise ValueError(f"`mixture_distribution components` ({km}) does not equal "
                                 f"`components_distribution.batch_shape[-1]` ({kc})")
            if km is None:
                km = array_ops.shape(mixture_distribution.logits)[-1]
            self._num_components = km
            event_rank = components_distribution.event_shape.rank
            if event_rank is None:
                raise NotImplementedError("MixtureSameFamily over events of unknown rank is "
                                          "not supported by tf1compat")
            self._event_ndims = event_rank
        super().__init__(dtype=components_distribution.dtype,
                         reparameterization_type=distribution.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=mixture_distribution._graph_parents
                         + components_distribution._graph_parents, name=name)

    @property
    def mixture_distribution(self) -> Categorical:
        return self._mixture_distribution

    @property
    def components_distribution(self) -> distribution.Distribution:
        return self._components_distribution

    def _batch_shape_tensor(self) -> Tensor:
        return self.components_distribution.batch_shape_tensor()[:-1]

    def _batch_shape(self) -> TensorShape:
        return self.components_distribution.batch_shape.with_rank_at_least(1)[:-1]

    def _event_shape_tensor(self) -> Tensor:
        return self.components_distribution.event_shape_tensor()

    def _event_shape(self) -> TensorShape:
        return self.components_distribution.event_shape

    def _pad_event(self, x: Tensor) -> Tensor:
        """[..., k] -> [..., k, 1 * event_ndims] to broadcast against component values."""
        for _ in range(self._event_ndims):
            x = x[..., None]
        return x

    def _pad_sample_dims(self, x: Tensor) -> Tensor:
        with name_scope("pad_sample_dims", values=[x]):
            ndims = x.shape.rank if x.shape.rank is not None else array_ops.rank(x)
            shape = array_ops.shape(x)
            d = ndims - self._event_ndims
            return array_ops.reshape(x, array_ops.concat([shape[:d], [1], shape[d:]], 0))

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        # TF 1.15 draws both without the op seed (only the graph seed makes them
        # repeatable); kept, so the numbers are TF's.
        x = self.components_distribution.sample(n)                         # [n, B, k, E]
        npdt = x.dtype.as_numpy_dtype
        mask = one_hot(self.mixture_distribution.sample(n),
                       depth=self._num_components, on_value=np.ones([], dtype=npdt),
                       off_value=np.zeros([], dtype=npdt))                   # [n, B, k]
        return reduce_sum(x * self._pad_event(mask), axis=-1 - self._event_ndims)

    def _log_prob(self, x: Tensor) -> Tensor:
        log_prob_x = self.components_distribution.log_prob(self._pad_sample_dims(x))
        log_mix_prob = nn_ops.log_softmax(self.mixture_distribution.logits, axis=-1)
        return reduce_logsumexp(log_prob_x + log_mix_prob, axis=-1)

    def _log_cdf(self, x: Tensor) -> Tensor:
        log_cdf_x = self.components_distribution.log_cdf(self._pad_sample_dims(x))
        log_mix_prob = nn_ops.log_softmax(self.mixture_distribution.logits, axis=-1)
        return reduce_logsumexp(log_cdf_x + log_mix_prob, axis=-1)

    def _mean(self) -> Tensor:
        probs = self._pad_event(self.mixture_distribution.probs)
        return reduce_sum(probs * self.components_distribution.mean(),
                          axis=-1 - self._event_ndims)

    def _variance(self) -> Tensor:
        # Law of total variance: Var(Y) = E[Var(Y|X)] + Var(E[Y|X]).
        probs = self._pad_event(self.mixture_distribution.probs)
        mean_cond_var = reduce_sum(probs * self.components_distribution.variance(),
                                   axis=-1 - self._event_ndims)
        centered = self.components_distribution.mean() - self._pad_sample_dims(self._mean())
        var_cond_mean = reduce_sum(probs * centered * centered, axis=-1 - self._event_ndims)
        return mean_cond_var + var_cond_mean

    def _covariance(self) -> Tensor:
        if self.event_shape.rank != 1:
            raise NotImplementedError("covariance is not implemented")
        probs = self._pad_event(self._pad_event(self.mixture_distribution.probs))
        mean_cond_var = reduce_sum(probs * self.components_distribution.covariance(), axis=-3)
        z = self.components_distribution.mean() - self._pad_sample_dims(self._mean())
        var_cond_mean = reduce_sum(probs * (z[..., None, :] * z[..., None]), axis=-3)
        return mean_cond_var + var_cond_mean


class Autoregressive(distribution.Distribution):
    """The fixed point of `distribution_fn`: sampling feeds each draw back `num_steps`
    times (same seed every step, as TF 1.x), log_prob is distribution_fn(x).log_prob(x)."""

    def __init__(self, distribution_fn: Any, sample0: Any = None,
                 num_steps: Optional[int] = None, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Autoregressive"):
        parameters = dict(distribution_fn=distribution_fn, sample0=sample0,
                          num_steps=num_steps, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name) as name:
            self._distribution_fn = distribution_fn
            self._sample0 = sample0
            self._distribution0 = distribution_fn() if sample0 is None else \
                distribution_fn(sample0)
            if num_steps is None:
                num_steps = self._distribution0.event_shape.num_elements()
                if num_steps is None:
                    raise ValueError("distribution_fn must generate a distribution with "
                                     "fully known `event_shape`.")
            if num_steps < 1:
                raise ValueError(f"num_steps ({num_steps}) must be at least 1.")
            self._num_steps = num_steps
        super().__init__(dtype=self._distribution0.dtype,
                         reparameterization_type=self._distribution0.reparameterization_type,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=self._distribution0._graph_parents, name=name)

    @property
    def distribution_fn(self) -> Any:
        return self._distribution_fn

    @property
    def sample0(self) -> Any:
        return self._sample0

    @property
    def num_steps(self) -> int:
        return self._num_steps

    @property
    def distribution0(self) -> distribution.Distribution:
        return self._distribution0

    def _batch_shape(self) -> TensorShape:
        return self.distribution0.batch_shape

    def _batch_shape_tensor(self) -> Tensor:
        return self.distribution0.batch_shape_tensor()

    def _event_shape(self) -> TensorShape:
        return self.distribution0.event_shape

    def _event_shape_tensor(self) -> Tensor:
        return self.distribution0.event_shape_tensor()

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        if seed is None:
            # TF 1.x: one random op seed shared by every step.
            seed = util.gen_new_seed(seed=np.random.randint(2 ** 32 - 1), salt="autoregressive")
        samples = self.distribution0.sample(n, seed=seed)
        for _ in range(self._num_steps):
            samples = self.distribution_fn(samples).sample(seed=seed)
        return samples

    def _log_prob(self, value: Tensor) -> Tensor:
        return self.distribution_fn(value).log_prob(value)

    def _prob(self, value: Tensor) -> Tensor:
        return self.distribution_fn(value).prob(value)
