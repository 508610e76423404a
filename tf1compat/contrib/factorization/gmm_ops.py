"""Gaussian mixture models fitted by expectation maximization, as TF 1.15's
contrib/factorization gmm_ops.py builds them: `GmmAlgorithm` and `gmm`.

The model keeps the mixture weights `alphas` [K], the means `clusters` [K, 1, D] and the
covariances `clusters_covs` ([K, D, D] full or [K, D] diagonal). Initialization takes
the given means or K rows of the data drawn with `random_seed`, and for every class the
sample covariance of the first data shard plus 1e-3 I, and sets `initialized`; it is not
guarded: each run of the init op assigns again, as TF's does (see
`_initialize_variables`). One training step is one EM iteration over all shards:

* E step: log p(x, k) = log N(x; mu_k, Sigma_k) + log alpha_k, where the full Gaussian
  uses the Cholesky factor of Sigma_k + 1e-3 I and the diagonal one Sigma_k + 1e-3; the
  responsibilities w = softmax_k of those.
* M step ("w", "m", "c" of `params` choose what is updated): alpha = N_k / (sum N_k +
  eps) (N_k averaged over the shards), mu_k = sum_x w x / (N_k + eps), and, with the new
  means, Sigma_k = sum_x w x x^T / (N_k + eps) - mu_k^T mu_k + 1e-3 I (its diagonal for
  "diag"), eps being float64's machine epsilon.

The log likelihood op is the log-sum-exp over the shards of each shard's log-sum-exp of
the per-point log p(x); the scores are the per-point log p(x).
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np

from tf1compat.framework import dtypes
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import colocate_with, control_dependencies
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.array_ops import concat, expand_dims, reshape, shape, squeeze, stack
from tf1compat.ops.check_ops import assert_less_equal
from tf1compat.ops.control_flow_ops import group, no_op, with_dependencies
from tf1compat.ops.creation_ops import ones
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.manip_ops import diag
from tf1compat.ops.math_ops import add_n, cast, div, exp, log, square, squared_difference
from tf1compat.ops.matrix_ops import cholesky, diag_part, matrix_diag_part, matrix_triangular_solve
from tf1compat.ops.nn_embedding import embedding_lookup
from tf1compat.ops.random_ops import random_uniform
from tf1compat.ops.reduction_ops import argmax, reduce_logsumexp, reduce_mean, reduce_sum
from tf1compat.ops.state_ops import assign
from tf1compat.ops.transform_ops import tile, transpose
from tf1compat.variables.variables import Variable

__all__ = ["GmmAlgorithm", "gmm", "FULL_COVARIANCE", "DIAG_COVARIANCE"]

MEPS = np.finfo(float).eps
FULL_COVARIANCE = "full"
DIAG_COVARIANCE = "diag"


def _covariance(x: Any, diagonal: bool) -> Any:
    """The sample covariance of the rows of `x` ([1, D] variances when `diagonal`)."""
    count = cast(shape(x)[0], dtypes.float32)
    x -= reduce_mean(x, 0, keepdims=True)
    if diagonal:
        return reduce_sum(square(x), 0, keepdims=True) / (count - 1)
    return matmul(x, x, transpose_a=True) / (count - 1)


def _init_clusters_random(data: List[Any], num_clusters: int, random_seed: int) -> Any:
    """`num_clusters` rows drawn (with replacement) from the concatenated shards."""
    assert isinstance(data, list)
    count = add_n([shape(shard)[0] for shard in data])
    with control_dependencies([assert_less_equal(num_clusters, count)]):
        indices = random_uniform([num_clusters], minval=0, maxval=cast(count, dtypes.int64),
                                 seed=random_seed, dtype=dtypes.int64)
    indices %= cast(count, dtypes.int64)
    return embedding_lookup(data, indices, partition_strategy="div")


class GmmAlgorithm:
    """The graph of EM for a Gaussian mixture over a list of data shards (see the module
    docstring)."""

    CLUSTERS_WEIGHT = "alphas"
    CLUSTERS_VARIABLE = "clusters"
    CLUSTERS_COVS_VARIABLE = "clusters_covs"

    def __init__(self, data: List[Any], num_classes: int, initial_means: Any = None,
                 params: str = "wmc", covariance_type: str = FULL_COVARIANCE,
                 random_seed: int = 0):
        self._params = params
        self._random_seed = random_seed
        self._covariance_type = covariance_type
        if covariance_type not in (DIAG_COVARIANCE, FULL_COVARIANCE):
            raise Exception("programmer error: Invalid covariance type: %s" % covariance_type)
        self._probs: List[Any] = [None] * len(data)
        self._prior_probs: List[Any] = [None] * len(data)
        self._w: List[Any] = [None] * len(data)
        self._points_in_k: List[Any] = [None] * len(data)
        self._dimensions = shape(data[0])[1]
        self._num_classes = num_classes
        self._min_var = diag(ones(stack([self._dimensions]))) * 1e-3
        self._create_variables()
        self._initialize_variables(data, initial_means)
        self._w_mul_x: List[Any] = []
        self._w_mul_x2: List[Any] = []
        self._define_graph(data)

    def _create_variables(self) -> None:
        empty = constant([], dtype=dtypes.float32)
        self._means = Variable(empty, name=self.CLUSTERS_VARIABLE, validate_shape=False)
        self._covs = Variable(empty, name=self.CLUSTERS_COVS_VARIABLE, validate_shape=False)
        self._alpha = Variable(tile([1.0 / self._num_classes], [self._num_classes]),
                               name=self.CLUSTERS_WEIGHT, validate_shape=False)
        self._cluster_centers_initialized = Variable(False, dtype=dtypes.bool,
                                                     name="initialized")

    def _initialize_variables(self, data: List[Any], initial_means: Any = None) -> None:
        if initial_means is None:
            initial_means = _init_clusters_random(data, self._num_classes, self._random_seed)
        means = expand_dims(initial_means, 1)
        diagonal = self._covariance_type == DIAG_COVARIANCE
        cov = _covariance(data[0], diagonal) + self._min_var
        if diagonal:
            covs = tile(expand_dims(diag_part(cov), 0), [self._num_classes, 1])
        else:
            covs = tile(expand_dims(cov, 0), [self._num_classes, 1, 1])
        # TF guards these assignments with a cond on the `initialized` flag, but builds
        # them outside the cond: TF1 control flow then runs them whenever the init op runs,
        # flag or not (each run re-draws random means). That is the behaviour kept here.
        self._init_ops = []
        for variable, value in ((self._means, means), (self._covs, covs)):
            with colocate_with(variable):
                self._init_ops.append(with_dependencies(
                    [assign(variable, value, validate_shape=False)],
                    assign(self._cluster_centers_initialized, True)).op)

    def init_ops(self) -> Any:
        """The initialization op."""
        return group(*self._init_ops)

    def training_ops(self) -> Any:
        """One EM iteration."""
        return group(*self._train_ops)

    def is_initialized(self) -> Any:
        """The boolean variable set by initialization."""
        return self._cluster_centers_initialized

    def alphas(self) -> Any:
        """The mixture weights variable."""
        return self._alpha

    def clusters(self) -> Any:
        """The means, [num_classes, 1, dimensions]."""
        return self._means

    def covariances(self) -> Any:
        """The covariances variable."""
        return self._covs

    def assignments(self) -> List[Any]:
        """Per shard, each point's most responsible class."""
        return [argmax(w, 1) for w in self._w]

    def scores(self) -> Any:
        """Each point's log likelihood."""
        return self._scores

    def log_likelihood_op(self) -> Any:
        """The data's total log likelihood (see the module docstring)."""
        return self._log_likelihood_op

    def _define_graph(self, data: Sequence[Any]) -> None:
        for shard_id, shard in enumerate(data):
            self._num_examples = shape(shard)[0]
            shard = expand_dims(shard, 0)
            self._define_log_prob_operation(shard_id, shard)
            self._prior_probs[shard_id] = reduce_logsumexp(self._probs[shard_id], axis=1,
                                                           keepdims=True)
            self._define_expectation_operation(shard_id)
            self._define_partial_maximization_operation(shard_id, shard)
        self._define_maximization_operation(len(data))
        self._log_likelihood_op = reduce_logsumexp(
            [reduce_logsumexp(prior) for prior in self._prior_probs])
        self._scores = squeeze(reduce_logsumexp(
            [prior + log(w) for prior, w in zip(self._prior_probs, self._w)], axis=2,
            keepdims=True), axis=0)

    def _define_full_covariance_probs(self, shard_id: int, shard: Any) -> None:
        diff = shard - self._means
        chol = cholesky(self._covs + self._min_var)
        log_det_covs = 2.0 * reduce_sum(log(matrix_diag_part(chol)), 1)
        # ||L^-1 (x - mu)||^2, the Mahalanobis distance, per class and point.
        x_mu_cov = square(matrix_triangular_solve(chol, transpose(diff, perm=[0, 2, 1]),
                                                  lower=True))
        diag_m = transpose(reduce_sum(x_mu_cov, 1))
        self._probs[shard_id] = -0.5 * (diag_m + cast(self._dimensions, dtypes.float32) *
                                        log(2 * np.pi) + log_det_covs)

    def _define_diag_covariance_probs(self, shard_id: int, shard: Any) -> None:
        det_expanded = reduce_sum(log(self._covs + 1e-3), 1, keepdims=True)
        x2 = squared_difference(shard, self._means)
        cov_expanded = expand_dims(1.0 / (self._covs + 1e-3), 2)
        x2_cov = transpose(squeeze(matmul(x2, cov_expanded), [2]))
        self._probs[shard_id] = -0.5 * (cast(self._dimensions, dtypes.float32) *
                                        log(2.0 * np.pi) + transpose(det_expanded) + x2_cov)

    def _define_log_prob_operation(self, shard_id: int, shard: Any) -> None:
        if self._covariance_type == FULL_COVARIANCE:
            self._define_full_covariance_probs(shard_id, shard)
        else:
            self._define_diag_covariance_probs(shard_id, shard)
        self._probs[shard_id] += log(self._alpha)

    def _define_expectation_operation(self, shard_id: int) -> None:
        probs = expand_dims(self._probs[shard_id], 0)
        self._w[shard_id] = reshape(exp(probs - self._prior_probs[shard_id]),
                                    stack([self._num_examples, self._num_classes]))

    def _define_partial_maximization_operation(self, shard_id: int, shard: Any) -> None:
        w = self._w[shard_id]
        self._points_in_k[shard_id] = reduce_sum(w, 0, keepdims=True)
        self._w_mul_x.append(expand_dims(matmul(w, squeeze(shard, [0]), transpose_a=True), 1))
        x = concat([shard for _ in range(self._num_classes)], 0)
        x_trans = transpose(x, perm=[0, 2, 1])
        x_mul_w = concat([expand_dims(x_trans[k, :, :] * w[:, k], 0)
                          for k in range(self._num_classes)], 0)
        self._w_mul_x2.append(matmul(x_mul_w, x))

    def _define_maximization_operation(self, num_batches: int) -> None:
        with control_dependencies(self._w):
            points_in_k = squeeze(add_n(self._points_in_k), axis=[0])
            if "w" in self._params:
                final_points_in_k = points_in_k / num_batches
                num_examples = cast(reduce_sum(final_points_in_k), dtypes.float32)
                self._alpha_op = self._alpha.assign(final_points_in_k / (num_examples + MEPS))
            else:
                self._alpha_op = no_op()
            self._train_ops = [self._alpha_op]
            points_in_k_expanded = reshape(points_in_k, [self._num_classes, 1, 1])
            if "m" in self._params:
                self._means_op = self._means.assign(
                    div(add_n(self._w_mul_x), points_in_k_expanded + MEPS))
            else:
                self._means_op = no_op()
            # The covariances use the means this step writes (read after the update).
            with control_dependencies([self._means_op]):
                b = add_n(self._w_mul_x2) / (points_in_k_expanded + MEPS)
                new_covs = []
                for k in range(self._num_classes):
                    mean = self._means.value()[k, :, :]
                    new_cov = b[k, :, :] - matmul(mean, mean, transpose_a=True) + self._min_var
                    if self._covariance_type == DIAG_COVARIANCE:
                        new_cov = diag_part(new_cov)
                    new_covs.append(expand_dims(new_cov, 0))
                new_covs = concat(new_covs, 0)
                if "c" in self._params:
                    with control_dependencies([self._means_op, new_covs]):
                        self._train_ops.append(assign(self._covs, new_covs,
                                                      validate_shape=False))


def gmm(inp: Any, initial_clusters: Any, num_clusters: int, random_seed: int,
        covariance_type: str = FULL_COVARIANCE, params: str = "wmc") -> tuple:
    """The EM graph for a Gaussian mixture over `inp` (a tensor or list of shards).

    `initial_clusters`: "random" (rows of the data), a tensor, or values for the means.
    Returns (log likelihood, scores, [assignments per shard], training op, init op,
    initialized flag)."""
    initial_means: Optional[Any] = None
    if not (isinstance(initial_clusters, str) and initial_clusters == "random") and \
            not isinstance(initial_clusters, Tensor):
        initial_means = constant(initial_clusters, dtype=dtypes.float32)
    inp = inp if isinstance(inp, list) else [inp]
    tool = GmmAlgorithm(inp, num_clusters, initial_means, params, covariance_type, random_seed)
    return (tool.log_likelihood_op(), tool.scores(), [tool.assignments()],
            tool.training_ops(), tool.init_ops(), tool.is_initialized())
