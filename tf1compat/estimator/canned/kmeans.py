"""`tf.estimator.experimental.KMeans`: the k-means Estimator (tensorflow-estimator's
KMeansClustering; TF 1.15's `tf.contrib.factorization.KMeansClustering` is the subclass in
contrib/factorization/kmeans.py).

Its model_fn builds `KMeans(...).training_graph()` (kmeans_graph.py) on the input points (a
dense matrix, or a dict of features concatenated in key order / through `feature_columns`).
Training runs `init_op` from a hook when the session is created (until all centers are
chosen), then one k-means step per Estimator step; the loss is the sum of the distances to
the nearest centers. `predict` yields `cluster_index` and `all_distances`, `evaluate`
reports `score` (mean of the loss), `cluster_centers()` reads the `clusters` variable from
the checkpoint.

The core class turns `seed` into the graph-level seed as TF's clustering ops do
(`get_seed(seed)[0]`: the RunConfig's `tf_random_seed`, else 87654321 when `seed` is given,
else None, with which k-means++ fails as in TF), and its `transform` yields euclidean (square
root) distances for the squared-euclidean metric; the contrib class uses `random_seed` as given
and yields the squared distances.
"""

from __future__ import annotations

import time
from typing import Any, Iterable, Iterator, Optional

import numpy as np

from tf1compat.estimator.canned import kmeans_graph as clustering_ops
from tf1compat.estimator.estimator import Estimator
from tf1compat.estimator.export.export_output import PredictOutput
from tf1compat.estimator.model_fn import EstimatorSpec
from tf1compat.feature_column.layers import input_layer
from tf1compat.framework.graph import colocate_with, get_default_graph
from tf1compat.framework.random_seed import get_seed
from tf1compat.metrics.metrics_impl import mean
from tf1compat.ops.array_ops import concat
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.reduction_ops import reduce_sum
from tf1compat.ops.state_ops import assign_add
from tf1compat.summary.summary_ops import scalar
from tf1compat.training.sessions.session_run_hook import SessionRunArgs, SessionRunHook
from tf1compat.training.training_util import get_global_step
from tf1compat.util import tf_logging

__all__ = ["KMeansClustering", "KMeans"]

_DEFAULT_SERVING_KEY = "serving_default"


class _LossRelativeChangeHook(SessionRunHook):
    """Requests a stop once |loss - previous| / (1 + |previous|) < tolerance."""

    def __init__(self, loss_tensor: Any, tolerance: float):
        self._loss_tensor = loss_tensor
        self._tolerance = tolerance
        self._prev_loss: Optional[float] = None

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        loss = run_values.results
        if self._prev_loss:
            change = abs(loss - self._prev_loss) / (1 + abs(self._prev_loss))
            if change < self._tolerance:
                run_context.request_stop()
        self._prev_loss = loss


class _InitializeClustersHook(SessionRunHook):
    """Runs init_op on the chief until all centers are chosen; other workers wait."""

    def __init__(self, init_op: Any, is_initialized_var: Any, is_chief: bool):
        self._init_op = init_op
        self._is_initialized_var = is_initialized_var
        self._is_chief = is_chief

    def after_create_session(self, session: Any, coord: Any) -> None:
        assert self._init_op.graph is get_default_graph()
        while True:
            try:
                if session.run(self._is_initialized_var):
                    break
                if self._is_chief:
                    session.run(self._init_op)
                else:
                    time.sleep(1)
            except RuntimeError as e:
                tf_logging.info(e)


def _parse_features_if_necessary(features: Any, feature_columns: Optional[Iterable[Any]]
                                 ) -> Any:
    """A dict of features becomes one (n, k) matrix: through `feature_columns`, or the
    features concatenated in sorted key order; anything else is used as is."""
    if not isinstance(features, dict):
        return features
    if feature_columns:
        return input_layer(features, feature_columns)
    keys = sorted(features)
    with colocate_with(features[keys[0]]):
        return concat([features[k] for k in keys], axis=1)


class _ModelFn:
    """The Estimator's model_fn (no `labels` argument: input_fn returns features only)."""

    def __init__(self, num_clusters: Any, initial_clusters: Any, distance_metric: str,
                 random_seed: Optional[int], use_mini_batch: bool,
                 mini_batch_steps_per_iteration: int, kmeans_plus_plus_num_retries: int,
                 relative_tolerance: Optional[float], feature_columns: Optional[Iterable[Any]],
                 graph_level_seed: bool):
        self._num_clusters = num_clusters
        self._initial_clusters = initial_clusters
        self._distance_metric = distance_metric
        self._random_seed = random_seed
        self._use_mini_batch = use_mini_batch
        self._mini_batch_steps_per_iteration = mini_batch_steps_per_iteration
        self._kmeans_plus_plus_num_retries = kmeans_plus_plus_num_retries
        self._relative_tolerance = relative_tolerance
        self._feature_columns = feature_columns
        self._graph_level_seed = graph_level_seed

    def model_fn(self, features: Any, mode: str, config: Any) -> EstimatorSpec:
        """One k-means step per train step; predictions cluster_index / all_distances."""
        points = _parse_features_if_necessary(features, self._feature_columns)
        seed = self._random_seed
        if self._graph_level_seed:
            seed = get_seed(seed)[0]
        (all_distances, predictions, losses, is_initialized, init_op,
         training_op) = clustering_ops.KMeans(
            inputs=points, num_clusters=self._num_clusters,
            initial_clusters=self._initial_clusters, distance_metric=self._distance_metric,
            use_mini_batch=self._use_mini_batch,
            mini_batch_steps_per_iteration=self._mini_batch_steps_per_iteration,
            random_seed=seed,
            kmeans_plus_plus_num_retries=self._kmeans_plus_plus_num_retries,
        ).training_graph()
        loss = reduce_sum(losses)
        scalar("loss/raw", loss)
        incr_step = assign_add(get_global_step(), 1)
        training_op = with_dependencies([training_op, incr_step], loss)
        hooks = [_InitializeClustersHook(init_op, is_initialized, config.is_chief)]
        if self._relative_tolerance is not None:
            hooks.append(_LossRelativeChangeHook(loss, self._relative_tolerance))
        export_outputs = {
            KMeansClustering.ALL_DISTANCES: PredictOutput(all_distances[0]),
            KMeansClustering.CLUSTER_INDEX: PredictOutput(predictions[0]),
            _DEFAULT_SERVING_KEY: PredictOutput(predictions[0]),
        }
        return EstimatorSpec(
            mode=mode,
            predictions={KMeansClustering.ALL_DISTANCES: all_distances[0],
                         KMeansClustering.CLUSTER_INDEX: predictions[0]},
            loss=loss, train_op=training_op,
            eval_metric_ops={KMeansClustering.SCORE: mean(loss)},
            training_hooks=hooks, export_outputs=export_outputs)


class KMeansClustering(Estimator):
    """An Estimator for k-means clustering, full batch or mini batch
    (`tf.estimator.experimental.KMeans`)."""

    SQUARED_EUCLIDEAN_DISTANCE = clustering_ops.SQUARED_EUCLIDEAN_DISTANCE
    COSINE_DISTANCE = clustering_ops.COSINE_DISTANCE
    RANDOM_INIT = clustering_ops.RANDOM_INIT
    KMEANS_PLUS_PLUS_INIT = clustering_ops.KMEANS_PLUS_PLUS_INIT
    SCORE = "score"                      # evaluate(): mean of the summed distances
    CLUSTER_INDEX = "cluster_index"      # predict(): the nearest center
    ALL_DISTANCES = "all_distances"      # predict(): distances to every center
    CLUSTER_CENTERS_VAR_NAME = clustering_ops.CLUSTERS_VAR_NAME

    # tensorflow-estimator's class: `seed` becomes the graph-level seed, transform() yields
    # euclidean distances; the contrib subclass differs in both.
    _GRAPH_LEVEL_SEED = True
    _TRANSFORM_SQRT = True

    def __init__(self, num_clusters: Any, model_dir: Optional[str] = None,
                 initial_clusters: Any = RANDOM_INIT,
                 distance_metric: str = SQUARED_EUCLIDEAN_DISTANCE, seed: Optional[int] = None,
                 use_mini_batch: bool = True, mini_batch_steps_per_iteration: int = 1,
                 kmeans_plus_plus_num_retries: int = 2,
                 relative_tolerance: Optional[float] = None, config: Any = None,
                 feature_columns: Optional[Iterable[Any]] = None):
        """Args as the `KMeans` graph builder (kmeans_graph.py), plus `model_dir` and
        `config` (see tf.estimator.Estimator), `seed` (the op seed of the initialization's
        random draws), `relative_tolerance` (stop training once the loss changes by less)
        and `feature_columns` (to build the points from dict features). Only "random" and
        "kmeans_plus_plus" initializations are accepted by name.

        Raises:
          ValueError: an unknown initialization name or distance metric.
        """
        if isinstance(initial_clusters, str) and initial_clusters not in (
                KMeansClustering.RANDOM_INIT, KMeansClustering.KMEANS_PLUS_PLUS_INIT):
            raise ValueError(f"Unsupported initialization algorithm '{initial_clusters}'")
        if distance_metric not in (KMeansClustering.SQUARED_EUCLIDEAN_DISTANCE,
                                   KMeansClustering.COSINE_DISTANCE):
            raise ValueError(f"Unsupported distance metric '{distance_metric}'")
        self._distance_metric = distance_metric
        model_fn = _ModelFn(num_clusters, initial_clusters, distance_metric, seed,
                            use_mini_batch, mini_batch_steps_per_iteration,
                            kmeans_plus_plus_num_retries, relative_tolerance,
                            feature_columns, self._GRAPH_LEVEL_SEED).model_fn
        super().__init__(model_fn=model_fn, model_dir=model_dir, config=config)

    def _predict_one_key(self, input_fn: Any, predict_key: str) -> Iterator[Any]:
        for result in self.predict(input_fn=input_fn, predict_keys=[predict_key]):
            yield result[predict_key]

    def predict_cluster_index(self, input_fn: Any) -> Iterator[Any]:
        """Yields the index of the nearest center of each input point."""
        yield from self._predict_one_key(input_fn, KMeansClustering.CLUSTER_INDEX)

    def score(self, input_fn: Any) -> Any:
        """The sum of the distances of the first batch's points to their nearest centers
        (not negated, unlike sklearn's)."""
        return self.evaluate(input_fn=input_fn, steps=1)[KMeansClustering.SCORE]

    def transform(self, input_fn: Any) -> Iterator[Any]:
        """Yields each input point's distances to all centers (for the squared-euclidean
        metric: their square roots here, the squared distances in the contrib class)."""
        sqrt = (self._TRANSFORM_SQRT
                and self._distance_metric == KMeansClustering.SQUARED_EUCLIDEAN_DISTANCE)
        for distances in self._predict_one_key(input_fn, KMeansClustering.ALL_DISTANCES):
            yield np.sqrt(distances) if sqrt else distances

    def cluster_centers(self) -> Any:
        """The cluster centers, from the latest checkpoint."""
        return self.get_variable_value(KMeansClustering.CLUSTER_CENTERS_VAR_NAME)


KMeans = KMeansClustering   # its name under tf.estimator.experimental
