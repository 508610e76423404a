"""`tf.contrib.distributions.Mixture` (a Categorical over a list of distributions) and
`QuantizedDistribution` (a distribution's mass on the integers, P[Y = y] =
P[y - 1 < X <= y], optionally clipped to [low, high])."""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from tf1compat.distributions import distribution as distribution_lib
from tf1compat.distributions import util
from tf1compat.distributions.discrete import Categorical
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.ops import array_ops, check_ops, math_ops, nn_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import one_hot, ones_like, zeros_like
from tf1compat.ops.indexing_ops import where_v2
from tf1compat.ops.reduction_ops import reduce_logsumexp, reduce_sum

__all__ = ["Mixture", "QuantizedDistribution"]


class Mixture(distribution_lib.Distribution):
    """sum_i cat.probs[..., i] * components[i] for a list of same-shaped components."""

    def __init__(self, cat: Categorical, components: List[distribution_lib.Distribution],
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 use_static_graph: bool = False, name: str = "Mixture"):
        parameters = dict(cat=cat, components=components, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, use_static_graph=use_static_graph,
                          name=name)
        if not isinstance(cat, Categorical):
            raise TypeError(f"cat must be a Categorical distribution, but saw: {cat}")
        if not components:
            raise ValueError("components must be a non-empty list or tuple")
        if not isinstance(components, (list, tuple)):
            raise TypeError(f"components must be a list or tuple, but saw: {components}")
        if not all(isinstance(c, distribution_lib.Distribution) for c in components):
            raise TypeError(f"all entries in components must be Distribution instances but "
                            f"saw: {components}")
        dtype = components[0].dtype
        if not all(d.dtype == dtype for d in components):
            raise TypeError("All components must have the same dtype, but saw dtypes: "
                            f"{[(d.name, d.dtype) for d in components]}")
        event = components[0].event_shape
        batch = cat.batch_shape
        for d in components:
            event = event.merge_with(d.event_shape)
            batch = batch.merge_with(d.batch_shape)
        if event.rank is None:
            raise NotImplementedError("Mixture over events of unknown rank is not supported "
                                      "by tf1compat")
        num = dimension_value(cat.event_size) if not isinstance(cat.event_size, Tensor) \
            else None
        static = cat.logits.shape.with_rank_at_least(1)[-1]
        num = dimension_value(static) if num is None else num
        if num is not None and num != len(components):
            raise ValueError(f"cat.num_classes != len(components): {num} vs. "
                             f"{len(components)}")
        with name_scope(name, values=cat._graph_parents) as name:
            self._cat = cat
            self._components = list(components)
            self._num_components = len(components)
            self._static_event_shape = event
            self._static_batch_shape = batch
            self._use_static_graph = use_static_graph
        graph_parents = list(cat._graph_parents)
        for c in components:
            graph_parents += c._graph_parents
        super().__init__(dtype=dtype, reparameterization_type=distribution_lib.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=graph_parents, name=name)

    @property
    def cat(self) -> Categorical:
        return self._cat

    @property
    def components(self) -> List[distribution_lib.Distribution]:
        return self._components

    @property
    def num_components(self) -> int:
        return self._num_components

    def _batch_shape_tensor(self) -> Tensor:
        return self._cat.batch_shape_tensor()

    def _batch_shape(self) -> TensorShape:
        return self._static_batch_shape

    def _event_shape_tensor(self) -> Tensor:
        return self._components[0].event_shape_tensor()

    def _event_shape(self) -> TensorShape:
        return self._static_event_shape

    def _cat_probs(self, log_probs: bool) -> List[Tensor]:
        which = nn_ops.log_softmax if log_probs else nn_ops.softmax
        probs = array_ops.unstack(which(self.cat.logits), num=self.num_components, axis=-1)
        return [self._pad_event(p) for p in probs]

    def _pad_event(self, x: Tensor) -> Tensor:
        for _ in range(self._static_event_shape.rank):
            x = x[..., None]
        return x

    def _mean(self) -> Tensor:
        return _add_n([p * d.mean() for p, d in zip(self._cat_probs(False), self.components)])

    def _variance(self) -> Tensor:
        probs = self._cat_probs(False)
        means = [d.mean() for d in self.components]
        mean = _add_n([p * m for p, m in zip(probs, means)])
        second = _add_n([p * (d.variance() + math_ops.square(m))
                         for p, d, m in zip(probs, self.components, means)])
        return second - math_ops.square(mean)

    def _stddev(self) -> Tensor:
        return math_ops.sqrt(self._variance())

    def _log_prob(self, x: Tensor) -> Tensor:
        cat_lp = array_ops.unstack(nn_ops.log_softmax(self.cat.logits),
                                   num=self.num_components, axis=-1)
        terms = [c + d.log_prob(x) for c, d in zip(cat_lp, self.components)]
        return reduce_logsumexp(array_ops.stack(terms, 0), [0])

    def _log_cdf(self, x: Tensor) -> Tensor:
        cat_lp = array_ops.unstack(nn_ops.log_softmax(self.cat.logits),
                                   num=self.num_components, axis=-1)
        terms = [c + d.log_cdf(x) for c, d in zip(cat_lp, self.components)]
        return reduce_logsumexp(array_ops.stack(terms, 0), [0])

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        # TF's static-graph sampler: every component draws n samples, the categorical's
        # draw selects one per position. (TF's default dynamic_partition sampler draws the
        # same distribution with other numbers.)
        cat_samples = self.cat.sample(n, seed=seed)
        samples = []
        for component in self.components:
            seed = util.gen_new_seed(seed, "mixture")
            samples.append(component.sample(n, seed=seed))
        event_ndims = self._static_event_shape.rank
        x = array_ops.stack(samples, -event_ndims - 1)
        npdt = x.dtype.as_numpy_dtype
        mask = one_hot(cat_samples, depth=self.num_components,
                       on_value=np.ones([], dtype=npdt), off_value=np.zeros([], dtype=npdt))
        return reduce_sum(x * self._pad_event(mask), axis=-1 - event_ndims)

    def entropy_lower_bound(self, name: str = "entropy_lower_bound") -> Tensor:
        """sum_i p_i H(component_i) (<= the mixture's entropy)."""
        with self._name_scope(name, values=[self.cat.logits]):
            probs = array_ops.unstack(nn_ops.softmax(self.cat.logits),
                                      num=self.num_components, axis=-1)
            return _add_n([p * d.entropy() for p, d in zip(probs, self.components)])


def _add_n(terms: List[Tensor]) -> Tensor:
    total = terms[0]
    for t in terms[1:]:
        total = total + t
    return total


def _logsum_expbig_minus_expsmall(big: Tensor, small: Tensor) -> Tensor:
    with name_scope("logsum_expbig_minus_expsmall", values=[small, big]):
        return math_ops.log(1.0 - math_ops.exp(small - big)) + big


class QuantizedDistribution(distribution_lib.Distribution):
    """The integer-valued Y = ceil(X) of a scalar distribution, clipped to [low, high]."""

    def __init__(self, distribution: distribution_lib.Distribution, low: Any = None,
                 high: Any = None, validate_args: bool = False,
                 name: str = "QuantizedDistribution"):
        parameters = dict(distribution=distribution, low=low, high=high,
                          validate_args=validate_args, name=name)
        values = list(distribution._graph_parents) + [low, high]
        with name_scope(name, values=values) as name:
            self._dist = distribution
            self._low = None if low is None else convert_to_tensor(
                low, name="low", dtype=distribution.dtype)
            self._high = None if high is None else convert_to_tensor(
                high, name="high", dtype=distribution.dtype)
            if distribution.event_shape.rank not in (0, None):
                raise ValueError("Base distribution must have scalar event shape")
        super().__init__(dtype=distribution.dtype,
                         reparameterization_type=distribution_lib.NOT_REPARAMETERIZED,
                         validate_args=validate_args,
                         allow_nan_stats=distribution.allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[t for t in (self._low, self._high) if t is not None]
                         + list(distribution._graph_parents), name=name)

    @property
    def distribution(self) -> distribution_lib.Distribution:
        return self._dist

    @property
    def low(self) -> Optional[Tensor]:
        return self._low

    @property
    def high(self) -> Optional[Tensor]:
        return self._high

    def _batch_shape_tensor(self) -> Tensor:
        return self.distribution.batch_shape_tensor()

    def _batch_shape(self) -> TensorShape:
        return self.distribution.batch_shape

    def _event_shape_tensor(self) -> Tensor:
        return self.distribution.event_shape_tensor()

    def _event_shape(self) -> TensorShape:
        return self.distribution.event_shape

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        with name_scope("transform"):
            x = self.distribution.sample(n, seed=seed)
            ones = ones_like(x)
            # Snap values to the intervals (j - 1, j].
            result = math_ops.ceil(x)
            if self._low is not None:
                result = where_v2(result < self._low, self._low * ones, result)
            if self._high is not None:
                result = where_v2(result > self._high, self._high * ones, result)
            return result

    def _clip(self, value: Tensor, j: Tensor, below: float, above: float) -> Tensor:
        """`value` (a function of the integer j) forced to `below` under low and `above`
        from high on."""
        j = j + zeros_like(value)
        if self._low is not None:
            value = where_v2(j < self._low, np.array(below, self.dtype.as_numpy_dtype)
                             * ones_like(value), value)
        if self._high is not None:
            value = where_v2(j >= self._high, np.array(above, self.dtype.as_numpy_dtype)
                             * ones_like(value), value)
        return value

    # The cdf reads the base at floor(y), the survival function at ceil(y) (TF 1.x's
    # choice: the two agree at integers, where the mass is).
    def _log_cdf(self, y: Tensor) -> Tensor:
        j = math_ops.floor(y)
        return self._clip(self.distribution.log_cdf(j), j, -np.inf, 0.0)

    def _cdf(self, y: Tensor) -> Tensor:
        j = math_ops.floor(y)
        return self._clip(self.distribution.cdf(j), j, 0.0, 1.0)

    def _log_survival_function(self, y: Tensor) -> Tensor:
        j = math_ops.ceil(y)
        return self._clip(self.distribution.log_survival_function(j), j, 0.0, -np.inf)

    def _survival_function(self, y: Tensor) -> Tensor:
        j = math_ops.ceil(y)
        return self._clip(self.distribution.survival_function(j), j, 1.0, 0.0)

    def _checked_integer(self, y: Tensor) -> Tensor:
        if not self.validate_args:
            return y
        return with_dependencies([check_ops.assert_equal(
            y, math_ops.floor(y), message="has non-integer components")], y)

    def _log_prob(self, y: Tensor) -> Tensor:
        # Differences of the cdf on the left of the median, of the survival function on
        # the right (where each keeps its precision).
        y = self._checked_integer(y)
        logsf_y = self.log_survival_function(y)
        logsf_y_minus_1 = self.log_survival_function(y - 1)
        logcdf_y = self.log_cdf(y)
        logcdf_y_minus_1 = self.log_cdf(y - 1)
        right = logsf_y < logcdf_y
        big = where_v2(right, logsf_y_minus_1, logcdf_y)
        small = where_v2(right, logsf_y, logcdf_y_minus_1)
        return _logsum_expbig_minus_expsmall(big, small)

    def _prob(self, y: Tensor) -> Tensor:
        y = self._checked_integer(y)
        sf_y = self.survival_function(y)
        sf_y_minus_1 = self.survival_function(y - 1)
        cdf_y = self.cdf(y)
        cdf_y_minus_1 = self.cdf(y - 1)
        return where_v2(sf_y < cdf_y, sf_y_minus_1 - sf_y, cdf_y - cdf_y_minus_1)
