"""`tf.contrib.factorization` (TF 1.15): k-means clustering — the `KMeans` graph builder
and the `KMeansClustering` Estimator. WALS matrix factorization and Gaussian mixture models
are not implemented: their names raise NotImplementedError."""

from typing import Any

from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.factorization.clustering_ops import (COSINE_DISTANCE,
                                                            KMC2_INIT,
                                                            KMEANS_PLUS_PLUS_INIT,
                                                            RANDOM_INIT,
                                                            SQUARED_EUCLIDEAN_DISTANCE,
                                                            KMeans)
from tf1compat.framework.missing import UnimplementedAPIError

__all__ = ["KMeans", "COSINE_DISTANCE", "SQUARED_EUCLIDEAN_DISTANCE", "RANDOM_INIT",
           "KMEANS_PLUS_PLUS_INIT", "KMC2_INIT"]

# TF 1.15's other tf.contrib.factorization names: WALS and GMM models.
_NOT_IMPLEMENTED = ("WALSModel", "WALSMatrixFactorization", "WeightedALSEstimator", "GMM",
                    "gmm", "GmmAlgorithm")
_other_names = _missing("tf.contrib.factorization")


def __getattr__(name: str) -> Any:
    if name in _NOT_IMPLEMENTED:
        raise UnimplementedAPIError(
            f"tf.contrib.factorization.{name} is part of TensorFlow 1.x's tf.contrib but is "
            "not implemented by tf1compat: of tf.contrib.factorization only k-means "
            "(KMeans, KMeansClustering) is.")
    return _other_names(name)
