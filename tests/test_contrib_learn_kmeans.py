"""`tf.contrib.learn.KMeansClustering` (TF 1.15's contrib/learn/python/learn/estimators/
kmeans.py): the contrib Estimator API over the same KMeans graph as
`tf.contrib.factorization.KMeansClustering` (whose centers are golden-tested against TF in
tests/golden/cases_clustering_estimator.py)."""

import numpy as np
import pytest

import tf1compat as tf

RNG = np.random.RandomState(4)
POINTS = np.concatenate([RNG.normal(c, .1, (10, 2)) for c in ((0, 0), (3, 3), (0, 3))]
                        ).astype(np.float32)


def _input_fn():
    return tf.constant(POINTS), None


def _once(points=POINTS):
    """The points as one batch, read once (predict and evaluate end there)."""
    return lambda: tf.data.Dataset.from_tensors(points)


def test_same_centers_as_contrib_factorization_and_contrib_api(tmp_path):
    learn_km = tf.contrib.learn.KMeansClustering(3, model_dir=str(tmp_path / "learn"),
                                                 random_seed=7, use_mini_batch=False)
    learn_km.fit(input_fn=_input_fn, steps=5)
    core_km = tf.contrib.factorization.KMeansClustering(
        3, model_dir=str(tmp_path / "core"), random_seed=7, use_mini_batch=False)
    core_km.train(lambda: tf.constant(POINTS), steps=5)
    centers = learn_km.clusters()
    np.testing.assert_allclose(centers, core_km.cluster_centers(), rtol=1e-6)
    assert "clusters" in learn_km.get_variable_names()
    squared = ((POINTS[:, None, :] - centers[None]) ** 2).sum(-1)
    np.testing.assert_allclose(learn_km.transform(input_fn=_once()), squared,
                               rtol=1e-4, atol=1e-5)
    idx = list(learn_km.predict_cluster_idx(input_fn=_once(POINTS[:4])))
    assert idx == squared[:4].argmin(1).tolist()
    assert learn_km.score(input_fn=_input_fn, steps=1) == pytest.approx(
        squared.min(1).sum(), rel=1e-4)


def test_class_constants_and_relative_tolerance_stop(tmp_path):
    km = tf.contrib.learn.KMeansClustering
    assert (km.SCORES, km.CLUSTER_IDX, km.CLUSTERS, km.ALL_SCORES, km.LOSS_OP_NAME) == (
        "scores", "cluster_idx", "clusters", "all_scores", "kmeans_loss")
    est = km(3, model_dir=str(tmp_path), random_seed=1, use_mini_batch=False,
             relative_tolerance=1e-3)
    est.fit(input_fn=_input_fn, steps=100)
    # Full-batch Lloyd steps converge in a few steps; the hook stops training then.
    assert est.get_variable_value("global_step") < 100
