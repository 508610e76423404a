"""`tf.contrib.factorization.KMeans` (TF's clustering_ops.KMeans): the graph builder for
k-means clustering, under both k-means Estimators (kmeans.py and contrib's).

`KMeans(inputs, num_clusters, ...).training_graph()` returns TF 1.15's 6-tuple
(all_scores, cluster_idx, scores, cluster_centers_initialized, init_op, training_op), each of
the first three a tuple with one entry per input shard. The caller runs `init_op` until
`cluster_centers_initialized` is True (one batch may not yield all centers), then
`training_op` any number of times:

- full batch (use_mini_batch=False): one Lloyd step, centers := mean of their points
  (sum / (count + 1e-6), re-normalized for cosine distance);
- mini batch: each center moves towards the mean of its new points with rate
  k / (n + k) (n points seen so far, k new), counts starting at 1; with
  mini_batch_steps_per_iteration > 1 the updates go to a second copy, `clusters_updated`,
  which is copied back to `clusters` every that many steps (counts reset to 0).

Variables have TF's names: `clusters` (created empty, shape set by init_op), `initialized`,
the counts `Variable` (mini batch), `clusters_updated` and `update_in_steps`.
Distances come from the NearestNeighbors op (ops/clustering_ops.py); cosine distance
works on l2-normalized rows as 0.5 * squared euclidean distance.
"""

from __future__ import annotations

from typing import Any, Callable, List, Sequence, Tuple, Union

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import colocate_with, control_dependencies
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import check_ops, clustering_ops
# TF's clustering_ops module re-exports its generated ops (tflearn's KMeans calls
# `clustering_ops.nearest_neighbors` through the contrib path).
from tf1compat.ops.clustering_ops import (kmc2_chain_initialization,
                                          kmeans_plus_plus_initialization, nearest_neighbors)
from tf1compat.ops.array_ops import concat, identity, rank, reshape, shape, size, squeeze
from tf1compat.ops.cond import cond
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.ops.creation_ops import ones, ones_like, zeros, zeros_like
from tf1compat.ops.indexing_ops import gather, unique
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.math_ops import add_n, cast, equal, less, maximum, minimum, reciprocal
from tf1compat.ops.math_ops import square
from tf1compat.ops.nn_embedding import embedding_lookup
from tf1compat.ops.nn_norm import l2_normalize
from tf1compat.ops.random_ops import random_uniform
from tf1compat.ops.reduction_ops import reduce_sum, unsorted_segment_sum
from tf1compat.ops.state_ops import assign, assign_sub, scatter_add
from tf1compat.ops.transform_ops import transpose
from tf1compat.ops.while_loop import while_loop
from tf1compat.variables.variables import Variable

__all__ = ["KMeans", "SQUARED_EUCLIDEAN_DISTANCE", "COSINE_DISTANCE", "RANDOM_INIT",
           "KMEANS_PLUS_PLUS_INIT", "KMC2_INIT", "CLUSTERS_VAR_NAME", "nearest_neighbors",
           "kmeans_plus_plus_initialization", "kmc2_chain_initialization"]

SQUARED_EUCLIDEAN_DISTANCE = "squared_euclidean"
COSINE_DISTANCE = "cosine"
RANDOM_INIT = "random"
KMEANS_PLUS_PLUS_INIT = "kmeans_plus_plus"
KMC2_INIT = "kmc2"
CLUSTERS_VAR_NAME = "clusters"   # the Estimator reads the centers from this variable

InitialClusters = Union[str, Callable[[List[Any], Any], Any], Any]


def _normalize_rows(t: Any) -> Any:
    return l2_normalize(t, dim=1)


class KMeans:
    """Creates the graph for k-means clustering (see the module docstring)."""

    def __init__(self, inputs: Any, num_clusters: Any,
                 initial_clusters: InitialClusters = RANDOM_INIT,
                 distance_metric: str = SQUARED_EUCLIDEAN_DISTANCE,
                 use_mini_batch: bool = False, mini_batch_steps_per_iteration: int = 1,
                 random_seed: int = 0, kmeans_plus_plus_num_retries: int = 2,
                 kmc2_chain_length: int = 200):
        """Args:
          inputs: a float32 matrix, or a list of them (shards), rows randomly permuted.
          num_clusters: the number of clusters (int or int32 tensor); ignored when
            `initial_clusters` is a tensor or array.
          initial_clusters: "random", "kmeans_plus_plus", "kmc2", a tensor/array of
            centers, or a function f(inputs, k) returning up to k centers.
          distance_metric: "squared_euclidean" or "cosine".
          use_mini_batch: mini-batch k-means instead of full-batch Lloyd steps.
          mini_batch_steps_per_iteration: steps between syncs of the updated centers.
          random_seed: the seed of the initialization's random draws.
          kmeans_plus_plus_num_retries: extra draws per k-means++ center (negative:
            2 + log(k)).
          kmc2_chain_length: points per k-MC2 Markov chain.

        Raises:
          ValueError: an unknown initialization name or distance metric.
        """
        if isinstance(initial_clusters, str) and initial_clusters not in (
                RANDOM_INIT, KMEANS_PLUS_PLUS_INIT, KMC2_INIT):
            raise ValueError(f"Unsupported initialization algorithm '{initial_clusters}'")
        if distance_metric not in (SQUARED_EUCLIDEAN_DISTANCE, COSINE_DISTANCE):
            raise ValueError(f"Unsupported distance metric '{distance_metric}'")
        self._inputs = inputs if isinstance(inputs, list) else [inputs]
        self._num_clusters = num_clusters
        self._initial_clusters = initial_clusters
        self._distance_metric = distance_metric
        self._use_mini_batch = use_mini_batch
        self._mini_batch_steps_per_iteration = int(mini_batch_steps_per_iteration)
        self._random_seed = random_seed
        self._kmeans_plus_plus_num_retries = kmeans_plus_plus_num_retries
        self._kmc2_chain_length = kmc2_chain_length

    # -- distances ---------------------------------------------------------------------------

    @classmethod
    def _distance_graph(cls, inputs: List[Any], clusters: Any,
                        distance_metric: str) -> List[Any]:
        """Per input shard, the (rows, clusters) matrix of distances to every center."""
        if distance_metric == SQUARED_EUCLIDEAN_DISTANCE:
            return cls._compute_euclidean_distance(inputs, clusters)
        return cls._compute_cosine_distance(inputs, clusters, inputs_normalized=True)

    @classmethod
    def _compute_euclidean_distance(cls, inputs: List[Any], clusters: Any) -> List[Any]:
        out = []
        for inp in inputs:
            with colocate_with(inp, ignore_existing=True):
                # |x|^2 - 2 x.c + |c|^2, the norms broadcast along rows and columns.
                out.append(reduce_sum(square(inp), 1, keepdims=True)
                           - 2 * matmul(inp, clusters, transpose_b=True)
                           + transpose(reduce_sum(square(clusters), 1, keepdims=True)))
        return out

    @classmethod
    def _compute_cosine_distance(cls, inputs: List[Any], clusters: Any,
                                 inputs_normalized: bool = True) -> List[Any]:
        if not inputs_normalized:
            with colocate_with(clusters, ignore_existing=True):
                clusters = _normalize_rows(clusters)
        out = []
        for inp in inputs:
            with colocate_with(inp, ignore_existing=True):
                if not inputs_normalized:
                    inp = _normalize_rows(inp)
                out.append(1 - matmul(inp, clusters, transpose_b=True))
        return out

    def _infer_graph(self, inputs: List[Any], clusters: Any) -> Tuple[tuple, tuple, tuple]:
        """(all_scores, scores, cluster_idx), each a tuple over the input shards."""
        all_scores = self._distance_graph(inputs, clusters, self._distance_metric)
        if self._distance_metric == COSINE_DISTANCE and not self._clusters_l2_normalized():
            # On unit vectors cosine distance is half the squared euclidean distance, so
            # the euclidean NearestNeighbors op serves both metrics.
            with colocate_with(clusters, ignore_existing=True):
                clusters = _normalize_rows(clusters)
        scores, indices = [], []
        for inp in inputs:
            with colocate_with(inp, ignore_existing=True):
                nearest, distances = clustering_ops.nearest_neighbors(inp, clusters, 1)
                if self._distance_metric == COSINE_DISTANCE:
                    distances *= 0.5
                scores.append(squeeze(distances, [-1]))
                indices.append(squeeze(nearest, [-1]))
        return tuple(all_scores), tuple(scores), tuple(indices)

    def _clusters_l2_normalized(self) -> bool:
        """Whether the stored centers are kept unit length (cosine, except plain
        mini-batch where the running means are normalized when read)."""
        return self._distance_metric == COSINE_DISTANCE and (
            not self._use_mini_batch or self._mini_batch_steps_per_iteration > 1)

    # -- variables ---------------------------------------------------------------------------

    def _create_variables(self, num_clusters: Any) -> tuple:
        """(clusters, initialized, counts, clusters_updated, update_in_steps)."""
        empty = constant([], dtype=D.float32)
        centers = Variable(empty, name=CLUSTERS_VAR_NAME, validate_shape=False)
        initialized = Variable(False, dtype=D.bool, name="initialized")
        if self._use_mini_batch and self._mini_batch_steps_per_iteration > 1:
            updated = Variable(empty, name="clusters_updated", validate_shape=False)
            update_in_steps = Variable(self._mini_batch_steps_per_iteration, dtype=D.int64,
                                       name="update_in_steps")
            counts = Variable(zeros([num_clusters], dtype=D.int64))
        else:
            updated, update_in_steps = centers, None
            # Counts start at 1: the initial center counts as one point seen.
            counts = Variable(ones([num_clusters], dtype=D.int64)) \
                if self._use_mini_batch else None
        return centers, initialized, counts, updated, update_in_steps

    @classmethod
    def _l2_normalize_data(cls, inputs: List[Any]) -> List[Any]:
        out = []
        for inp in inputs:
            with colocate_with(inp, ignore_existing=True):
                out.append(_normalize_rows(inp))
        return out

    # -- training ----------------------------------------------------------------------------

    def training_graph(self) -> tuple:
        """Builds the training graph.

        Returns:
          (all_scores, cluster_idx, scores, cluster_centers_initialized, init_op,
          training_op): per input shard the distances to all centers, the index of the
          nearest center and the distance to it; the bool variable that init_op sets once
          all centers are chosen; the initialization op (run it until initialized); the op
          of one training step.
        """
        if isinstance(self._initial_clusters, str) or callable(self._initial_clusters):
            initial_clusters = self._initial_clusters
            num_clusters = convert_to_tensor(self._num_clusters)
        else:
            initial_clusters = convert_to_tensor(self._initial_clusters)
            num_clusters = shape(initial_clusters)[0]
        inputs = self._inputs
        centers, initialized, counts, updated, update_in_steps = \
            self._create_variables(num_clusters)
        init_op = _InitializeClustersOpFactory(
            self._inputs, num_clusters, initial_clusters, self._distance_metric,
            self._random_seed, self._kmeans_plus_plus_num_retries, self._kmc2_chain_length,
            centers, updated, initialized).op()
        read_centers = centers
        if self._distance_metric == COSINE_DISTANCE:
            inputs = self._l2_normalize_data(inputs)
            if not self._clusters_l2_normalized():
                read_centers = _normalize_rows(centers)
        all_scores, scores, cluster_idx = self._infer_graph(inputs, read_centers)
        if self._use_mini_batch:
            sync = self._mini_batch_sync_updates_op(update_in_steps, centers, updated,
                                                    counts)
            with control_dependencies([sync]):
                training_op = self._mini_batch_training_op(inputs, cluster_idx, updated,
                                                           counts)
        else:
            training_op = self._full_batch_training_op(inputs, num_clusters, cluster_idx,
                                                       centers)
        return all_scores, cluster_idx, scores, initialized, init_op, training_op

    def _mini_batch_sync_updates_op(self, update_in_steps: Any, centers: Any, updated: Any,
                                    counts: Any) -> Any:
        """Every mini_batch_steps_per_iteration steps: clusters := clusters_updated
        (normalized for cosine) and counts := 0; otherwise count the step down."""
        if not (self._use_mini_batch and self._mini_batch_steps_per_iteration > 1):
            return no_op()
        with colocate_with(update_in_steps, ignore_existing=True):

            def sync() -> Any:
                # Reset the step count first so that concurrent workers do not sync
                # twice; copy the centers before resetting the counts.
                reset = assign(update_in_steps, self._mini_batch_steps_per_iteration - 1)
                with control_dependencies([reset]):
                    with colocate_with(updated, ignore_existing=True):
                        fresh = _normalize_rows(updated) \
                            if self._distance_metric == COSINE_DISTANCE else updated
                    with colocate_with(centers, ignore_existing=True):
                        with control_dependencies([assign(centers, fresh)]):
                            with colocate_with(None, ignore_existing=True):
                                with control_dependencies([assign(counts,
                                                                  zeros_like(counts))]):
                                    return identity(update_in_steps)

            return cond(update_in_steps <= 0, sync,
                        lambda: assign_sub(update_in_steps, 1))

    def _mini_batch_training_op(self, inputs: List[Any], cluster_idx_list: Sequence[Any],
                                centers: Any, counts: Any) -> Any:
        """x += (sum of the k new points - k * x) / (n + k) for every center hit."""
        updates = []
        for inp, cluster_idx in zip(inputs, cluster_idx_list):
            with colocate_with(inp, ignore_existing=True):
                cluster_idx = reshape(cluster_idx, [-1])
                # Aggregate per distinct center so each is updated once.
                ids, position = unique(cluster_idx)
                num_ids = size(ids)
                with colocate_with(counts, ignore_existing=True):
                    old_counts = gather(counts, ids)
                with colocate_with(centers, ignore_existing=True):
                    old_centers = gather(centers, ids)
                new_counts = unsorted_segment_sum(ones_like(position, dtype=counts.dtype),
                                                  position, num_ids)
                point_sums = unsorted_segment_sum(inp, position, num_ids)
                # [num_ids, 1, ..., 1]: broadcasts per-center scalars over rows of inp.
                per_center = concat([reshape(num_ids, [1]),
                                     ones(reshape(rank(inp) - 1, [1]), dtype=D.int32)], 0)
                delta = point_sums - cast(reshape(new_counts, per_center),
                                          inp.dtype) * old_centers
                rate = reshape(reciprocal(cast(old_counts + new_counts, inp.dtype)),
                               per_center)
                delta = delta * rate
            updates.append(scatter_add(counts, ids, new_counts))
            updates.append(scatter_add(centers, ids, delta))
        return group(*updates)

    def _full_batch_training_op(self, inputs: List[Any], num_clusters: Any,
                                cluster_idx_list: Sequence[Any], centers: Any) -> Any:
        """centers := (sum of their points) / (count + 1e-6), over all shards."""
        sums, counts = [], []
        epsilon = constant(1e-6, dtype=inputs[0].dtype)
        for inp, cluster_idx in zip(inputs, cluster_idx_list):
            with colocate_with(inp, ignore_existing=True):
                sums.append(unsorted_segment_sum(inp, cluster_idx, num_clusters))
                row_ones = reshape(ones(reshape(shape(inp)[0], [-1])), [-1, 1])
                counts.append(unsorted_segment_sum(row_ones, cluster_idx, num_clusters))
        with colocate_with(centers, ignore_existing=True):
            means = add_n(sums) / (cast(add_n(counts), sums[0].dtype) + epsilon)
            if self._clusters_l2_normalized():
                means = _normalize_rows(means)
        return assign(centers, means)


class _InitializeClustersOpFactory:
    """Builds init_op. When run: if all centers are chosen, assert `initialized`;
    otherwise choose up to the number remaining (from this batch), append them to
    `clusters` (and `clusters_updated`), and set `initialized` once none remain."""

    def __init__(self, inputs: List[Any], num_clusters: Any,
                 initial_clusters: InitialClusters, distance_metric: str, random_seed: int,
                 kmeans_plus_plus_num_retries: int, kmc2_chain_length: int, centers: Any,
                 updated: Any, initialized: Any):
        self._inputs = inputs
        self._num_clusters = num_clusters
        self._initial_clusters = initial_clusters
        self._distance_metric = distance_metric
        self._seed = random_seed
        self._kmeans_plus_plus_num_retries = kmeans_plus_plus_num_retries
        self._kmc2_chain_length = kmc2_chain_length
        self._centers = centers
        self._updated = updated
        self._initialized = initialized
        self._num_selected = shape(centers)[0]
        self._num_remaining = num_clusters - self._num_selected
        self._num_data = add_n([shape(inp)[0] for inp in inputs])

    def _random(self) -> Any:
        # Uniform row indices over all shards (repeats possible), drawn with the seed.
        indices = random_uniform(reshape(self._num_remaining, [-1]), minval=0,
                                 maxval=cast(self._num_data, D.int64), seed=self._seed,
                                 dtype=D.int64)
        return embedding_lookup(self._inputs, indices, partition_strategy="div")

    def _kmeans_plus_plus(self) -> Any:
        # Only the first shard is sampled from, as in TF.
        first = self._inputs[0]
        if self._distance_metric == COSINE_DISTANCE:
            first = _normalize_rows(first)
        return clustering_ops.kmeans_plus_plus_initialization(
            first, cast(self._num_remaining, D.int64), self._seed,
            self._kmeans_plus_plus_num_retries)

    def _kmc2_multiple_centers(self) -> Any:
        """Adds centers with k-MC2: the first shard is cut into chunks of
        kmc2_chain_length rows (at least one chunk) and each chunk's Markov chain adds one
        center; the very first center is the shard's first row. Returns the number of
        centers still missing."""
        first = self._inputs[0]
        batch_size = shape(first)[0]
        max_to_sample = cast(batch_size / self._kmc2_chain_length, dtype=D.int32)
        num_to_sample = maximum(minimum(self._num_remaining, max_to_sample), 1)

        def body(i: Any, _: Any) -> Tuple[Any, Any]:
            def first_row() -> Any:
                # The batch is assumed shuffled, so its first row is a random point.
                center = reshape(first[0], [1, -1])
                return _normalize_rows(center) \
                    if self._distance_metric == COSINE_DISTANCE else center

            def chain() -> Any:
                start = i * self._kmc2_chain_length
                chunk = first[start:start + self._kmc2_chain_length]
                _, distances = clustering_ops.nearest_neighbors(chunk, self._centers, 1)
                chosen = clustering_ops.kmc2_chain_initialization(squeeze(distances),
                                                                  self._seed)
                center = reshape(chunk[chosen], [1, -1])
                if self._distance_metric == COSINE_DISTANCE:
                    center = _normalize_rows(center)
                return concat([self._centers, center], 0)

            # (TF runs the iterations in parallel, racing on the variable; here they run
            # in order, each chain seeing the centers the previous ones added.)
            new_centers = cond(equal(self._num_selected, 0), first_row, chain)
            assigned = assign(self._centers, new_centers, validate_shape=False)
            if self._updated is not self._centers:
                assigned = assign(self._updated, assigned, validate_shape=False)
            return i + 1, self._num_clusters - shape(assigned)[0]

        _, remaining = while_loop(lambda i, _: less(i, num_to_sample), body, [0, 0])
        return remaining

    def _greedy_batch_sampler(self, sampler: Callable[[], Any]) -> Any:
        # A batch no larger than the centers still missing is taken whole.
        return cond(self._num_data <= self._num_remaining,
                    lambda: concat(self._inputs, 0), sampler)

    def _single_batch_sampler(self, sampler: Callable[[], Any]) -> Any:
        # k-means++ must find all remaining centers in one batch.
        with control_dependencies([check_ops.assert_greater_equal(self._num_data,
                                                                  self._num_remaining)]):
            return sampler()

    def _choose_initial_centers(self) -> Any:
        if isinstance(self._initial_clusters, str):
            if self._initial_clusters == RANDOM_INIT:
                return self._greedy_batch_sampler(self._random)
            return self._single_batch_sampler(self._kmeans_plus_plus)
        if callable(self._initial_clusters):
            return self._initial_clusters(self._inputs, self._num_remaining)
        with control_dependencies([check_ops.assert_equal(
                self._num_remaining, shape(self._initial_clusters)[0])]):
            return self._initial_clusters

    def _add_new_centers(self) -> Any:
        """Appends newly chosen centers; returns the number still missing."""
        new_centers = self._choose_initial_centers()
        if self._distance_metric == COSINE_DISTANCE:
            new_centers = _normalize_rows(new_centers)
        # An empty `clusters` has shape [0], which does not concat with rows.
        all_centers = cond(equal(self._num_selected, 0), lambda: new_centers,
                           lambda: concat([self._centers, new_centers], 0))
        assigned = assign(self._centers, all_centers, validate_shape=False)
        if self._updated is not self._centers:
            assigned = assign(self._updated, assigned, validate_shape=False)
        return self._num_clusters - shape(assigned)[0]

    def _initialize(self) -> Any:
        with control_dependencies([check_ops.assert_positive(self._num_remaining)]):
            if isinstance(self._initial_clusters, str) and \
                    self._initial_clusters == KMC2_INIT:
                remaining = self._kmc2_multiple_centers()
            else:
                remaining = self._add_new_centers()
            return cond(equal(remaining, 0), lambda: assign(self._initialized, True), no_op)

    def op(self) -> Any:
        """The initialization op."""
        return cond(equal(self._num_remaining, 0),
                    lambda: check_ops.assert_equal(self._initialized, True),
                    self._initialize)

