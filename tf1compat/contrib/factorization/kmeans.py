"""`tf.contrib.factorization.KMeansClustering`: TF 1.15's k-means Estimator.

The core Estimator (estimator/canned/kmeans.py) with contrib's two differences: the
initialization's seed is the `random_seed` argument itself (default 0), not turned into a
graph-level seed, and `transform` yields squared euclidean distances for that metric.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

from tf1compat.estimator.canned.kmeans import KMeansClustering as _CoreKMeansClustering

__all__ = ["KMeansClustering"]


class KMeansClustering(_CoreKMeansClustering):
    """An Estimator for k-means clustering (full batch or mini batch; see
    `tf.contrib.factorization.KMeans`)."""

    _GRAPH_LEVEL_SEED = False
    _TRANSFORM_SQRT = False

    def __init__(self, num_clusters: Any, model_dir: Optional[str] = None,
                 initial_clusters: Any = _CoreKMeansClustering.RANDOM_INIT,
                 distance_metric: str = _CoreKMeansClustering.SQUARED_EUCLIDEAN_DISTANCE,
                 random_seed: int = 0, use_mini_batch: bool = True,
                 mini_batch_steps_per_iteration: int = 1,
                 kmeans_plus_plus_num_retries: int = 2,
                 relative_tolerance: Optional[float] = None, config: Any = None,
                 feature_columns: Optional[Iterable[Any]] = None):
        """As `tf.estimator.experimental.KMeans`, with `random_seed` (the seed of the
        initialization's random draws, used as given) in place of `seed`."""
        super().__init__(num_clusters, model_dir=model_dir, initial_clusters=initial_clusters,
                         distance_metric=distance_metric, seed=random_seed,
                         use_mini_batch=use_mini_batch,
                         mini_batch_steps_per_iteration=mini_batch_steps_per_iteration,
                         kmeans_plus_plus_num_retries=kmeans_plus_plus_num_retries,
                         relative_tolerance=relative_tolerance, config=config,
                         feature_columns=feature_columns)
