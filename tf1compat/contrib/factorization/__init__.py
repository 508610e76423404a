"""`tf.contrib.factorization` (TF 1.15): k-means clustering, the `KMeans` graph builder and
the `KMeansClustering` Estimator; weighted alternating least squares, `WALSModel`
(wals_model.py); Gaussian mixtures: the EM graph (`gmm`, `GmmAlgorithm`, gmm_ops.py) and
the `GMM` Estimator (gmm.py); the `WALSMatrixFactorization` Estimator over WALSModel
(wals.py)."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.estimator.canned.kmeans_graph import (COSINE_DISTANCE, KMC2_INIT,
                                                            KMEANS_PLUS_PLUS_INIT,
                                                            RANDOM_INIT,
                                                            SQUARED_EUCLIDEAN_DISTANCE,
                                                            KMeans)
from tf1compat.contrib.factorization.gmm import GMM
from tf1compat.contrib.factorization.gmm_ops import GmmAlgorithm, gmm
from tf1compat.contrib.factorization.kmeans import KMeansClustering
from tf1compat.contrib.factorization.wals import WALSMatrixFactorization
from tf1compat.contrib.factorization.wals_model import WALSModel

__all__ = ["KMeans", "KMeansClustering", "COSINE_DISTANCE", "SQUARED_EUCLIDEAN_DISTANCE",
           "RANDOM_INIT", "KMEANS_PLUS_PLUS_INIT", "KMC2_INIT", "WALSModel",
           "WALSMatrixFactorization", "GMM", "gmm", "GmmAlgorithm"]

__getattr__ = _missing("tf.contrib.factorization")
