"""`tf.contrib.learn.KMeansClustering` (TF 1.15's contrib/learn/python/learn/estimators/
kmeans.py): k-means as a contrib `Estimator` - the same KMeans training graph as
`tf.contrib.factorization.KMeansClustering` (its `random_seed` used as given), with contrib's
API: `fit`/`evaluate`/`predict`, `predict_cluster_idx`, `score` (the summed distances),
`transform` (squared euclidean distances to every center) and `clusters()`.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

import numpy as np

from tf1compat.contrib.learn.estimator import Estimator, ModelFnOps
from tf1compat.estimator.canned import kmeans_graph as clustering_ops
from tf1compat.estimator.canned.kmeans import (_InitializeClustersHook,
                                               _LossRelativeChangeHook,
                                               _parse_features_if_necessary)

__all__ = ["KMeansClustering"]


def _kmeans_clustering_model_fn(features: Any, labels: Any, mode: str, params: Any,
                                config: Any) -> ModelFnOps:
    from tf1compat.ops.control_flow_ops import with_dependencies
    from tf1compat.ops.reduction_ops import reduce_sum
    from tf1compat.ops.state_ops import assign_add
    from tf1compat.summary.summary_ops import scalar
    from tf1compat.training.training_util import get_global_step
    assert labels is None, labels
    (all_scores, model_predictions, losses, is_initialized, init_op,
     training_op) = clustering_ops.KMeans(
        _parse_features_if_necessary(features, None), params["num_clusters"],
        initial_clusters=params["training_initial_clusters"],
        distance_metric=params["distance_metric"], use_mini_batch=params["use_mini_batch"],
        mini_batch_steps_per_iteration=params["mini_batch_steps_per_iteration"],
        random_seed=params["random_seed"],
        kmeans_plus_plus_num_retries=params["kmeans_plus_plus_num_retries"]).training_graph()
    incr_step = assign_add(get_global_step(), 1)
    loss = reduce_sum(losses, name=KMeansClustering.LOSS_OP_NAME)
    scalar("loss/raw", loss)
    training_op = with_dependencies([training_op, incr_step], loss)
    hooks = [_InitializeClustersHook(init_op, is_initialized, config.is_chief)]
    if params["relative_tolerance"] is not None:
        hooks.append(_LossRelativeChangeHook(loss, params["relative_tolerance"]))
    return ModelFnOps(mode=mode,
                      predictions={KMeansClustering.ALL_SCORES: all_scores[0],
                                   KMeansClustering.CLUSTER_IDX: model_predictions[0]},
                      eval_metric_ops={KMeansClustering.SCORES: loss}, loss=loss,
                      train_op=training_op, training_hooks=hooks)


class KMeansClustering(Estimator):
    """An Estimator for k-means clustering (full batch or mini batch) in contrib.learn's
    API; its input_fn gives features only (a matrix, or a dict concatenated in key order)."""

    SQUARED_EUCLIDEAN_DISTANCE = clustering_ops.SQUARED_EUCLIDEAN_DISTANCE
    COSINE_DISTANCE = clustering_ops.COSINE_DISTANCE
    RANDOM_INIT = clustering_ops.RANDOM_INIT
    KMEANS_PLUS_PLUS_INIT = clustering_ops.KMEANS_PLUS_PLUS_INIT
    SCORES = "scores"
    CLUSTER_IDX = "cluster_idx"
    CLUSTERS = "clusters"
    ALL_SCORES = "all_scores"
    LOSS_OP_NAME = "kmeans_loss"

    def __init__(self, num_clusters: Any, model_dir: Optional[str] = None,
                 initial_clusters: Any = RANDOM_INIT,
                 distance_metric: str = SQUARED_EUCLIDEAN_DISTANCE, random_seed: int = 0,
                 use_mini_batch: bool = True, mini_batch_steps_per_iteration: int = 1,
                 kmeans_plus_plus_num_retries: int = 2,
                 relative_tolerance: Optional[float] = None, config: Any = None):
        params = {"num_clusters": num_clusters, "training_initial_clusters": initial_clusters,
                  "distance_metric": distance_metric, "random_seed": random_seed,
                  "use_mini_batch": use_mini_batch,
                  "mini_batch_steps_per_iteration": mini_batch_steps_per_iteration,
                  "kmeans_plus_plus_num_retries": kmeans_plus_plus_num_retries,
                  "relative_tolerance": relative_tolerance}
        super().__init__(model_fn=_kmeans_clustering_model_fn, params=params,
                         model_dir=model_dir, config=config)

    def predict_cluster_idx(self, input_fn: Any = None) -> Iterator[Any]:
        """Yields the index of each example's nearest center."""
        for result in self.predict(input_fn=input_fn, outputs=[self.CLUSTER_IDX]):
            yield result[self.CLUSTER_IDX]

    def score(self, input_fn: Any = None, steps: Optional[int] = None) -> Any:
        """The total distance of the examples to their nearest centers (not sklearn's
        negative)."""
        return np.sum(self.evaluate(input_fn=input_fn, steps=steps)[self.SCORES])

    def transform(self, input_fn: Any = None, as_iterable: bool = False) -> Any:
        """Each example's distances to all centers (squared euclidean for that metric)."""
        results = self.predict(input_fn=input_fn, outputs=[self.ALL_SCORES],
                               as_iterable=as_iterable)
        return results if as_iterable else results[self.ALL_SCORES]

    def clusters(self) -> np.ndarray:
        """The cluster centers."""
        return self.get_variable_value(self.CLUSTERS)
