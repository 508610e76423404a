"""`tf.contrib.factorization.GMM` (TF 1.15's gmm.py): Gaussian mixture clustering as a
contrib.learn `Estimator` over the EM graph of gmm_ops.py.

Each training step is one EM iteration (and one global step); the clusters are
initialized by a hook when the session starts (on the chief; other workers wait). Input
functions give features only (a matrix, or a dict concatenated in sorted key order).
Predictions are each example's `assignments`; evaluation reports the `scores` (the
per-example log likelihoods of the last batch) and `loss`, the log likelihood: TF 1.15
sums it over the evaluated batches, tf1compat's contrib Estimator (built on the core one,
which reserves `loss`) averages it, the same for one batch. The fitted weights, means and
covariances are read from the checkpoint.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

import numpy as np

from tf1compat.contrib.factorization import gmm_ops
from tf1compat.contrib.learn.estimator import Estimator, ModelFnOps
from tf1compat.estimator.canned.kmeans import _InitializeClustersHook

__all__ = ["GMM"]


def _streaming_sum(scalar_tensor: Any) -> tuple:
    """A metric summing `scalar_tensor` over the evaluation's batches: (value, update)."""
    from tf1compat.contrib.framework.variables import local_variable
    from tf1compat.framework.constant_op import constant
    total = local_variable(constant(0.0))
    return total, total.assign_add(scalar_tensor)


class GMM(Estimator):
    """An Estimator for Gaussian mixture clustering ("full" or "diag" covariances)."""

    SCORES = "scores"
    LOG_LIKELIHOOD = "loss"
    ASSIGNMENTS = "assignments"

    def __init__(self, num_clusters: int, model_dir: Optional[str] = None, random_seed: int = 0,
                 params: str = "wmc", initial_clusters: Any = "random",
                 covariance_type: str = "full", config: Any = None):
        self._num_clusters = num_clusters
        # (not `_params`: the contrib Estimator keeps its model_fn params there)
        self._em_params = params
        self._training_initial_clusters = initial_clusters
        self._covariance_type = covariance_type
        self._training_graph = None
        self._random_seed = random_seed
        super().__init__(model_fn=self._model_builder(), model_dir=model_dir, config=config)

    def predict_assignments(self, input_fn: Any = None, batch_size: Optional[int] = None,
                            outputs: Any = None) -> Iterator[Any]:
        """Yields each example's cluster."""
        for result in self.predict(input_fn=input_fn, batch_size=batch_size, outputs=outputs):
            yield result[GMM.ASSIGNMENTS]

    def score(self, input_fn: Any = None, batch_size: Optional[int] = None,
              steps: Optional[int] = None) -> Any:
        """The log of the summed likelihoods of the evaluated examples (of the last
        batch's scores, as TF)."""
        results = self.evaluate(input_fn=input_fn, batch_size=batch_size, steps=steps)
        return np.log(np.sum(np.exp(results[GMM.SCORES])))

    def weights(self) -> np.ndarray:
        """The mixture weights."""
        return self.get_variable_value(gmm_ops.GmmAlgorithm.CLUSTERS_WEIGHT)

    def clusters(self) -> np.ndarray:
        """The cluster means, [num_clusters, dimensions]."""
        return np.squeeze(self.get_variable_value(gmm_ops.GmmAlgorithm.CLUSTERS_VARIABLE), 1)

    def covariances(self) -> np.ndarray:
        """The covariances ([K, D, D] full, [K, D] diagonal)."""
        return self.get_variable_value(gmm_ops.GmmAlgorithm.CLUSTERS_COVS_VARIABLE)

    def _parse_tensor_or_dict(self, features: Any) -> Any:
        if isinstance(features, dict):
            from tf1compat.ops.array_ops import concat
            return concat([features[k] for k in sorted(features.keys())], 1)
        return features

    def _model_builder(self) -> Any:
        def model_fn(features: Any, labels: Any, mode: str, config: Any) -> ModelFnOps:
            from tf1compat.ops.control_flow_ops import with_dependencies
            from tf1compat.ops.state_ops import assign_add
            from tf1compat.training.training_util import get_global_step
            assert labels is None, labels
            loss, scores, predictions, training_op, init_op, is_initialized = gmm_ops.gmm(
                self._parse_tensor_or_dict(features), self._training_initial_clusters,
                self._num_clusters, self._random_seed, self._covariance_type, self._em_params)
            incr_step = assign_add(get_global_step(), 1)
            training_op = with_dependencies([training_op, incr_step], loss)
            hooks = [_InitializeClustersHook(init_op, is_initialized, config.is_chief)]
            return ModelFnOps(mode=mode, predictions={GMM.ASSIGNMENTS: predictions[0][0]},
                              eval_metric_ops={GMM.SCORES: scores,
                                               GMM.LOG_LIKELIHOOD: _streaming_sum(loss)},
                              loss=loss, train_op=training_op, training_hooks=hooks)
        return model_fn
