"""Golden cases: the k-means Estimators, recorded with TF 2.15's tensorflow-estimator KMeans
(`tf.compat.v1.estimator.experimental.KMeans`, TF 1.15's contrib Estimator under the core
clustering ops). That one turns its `seed` into the graph-level seed (87654321 without
`tf_random_seed`). The `kmeans_clustering_*` cases run tf1compat's contrib class, given
that seed as `random_seed` so both build the same random ops; the `experimental_kmeans_*`
cases run `tf.estimator.experimental.KMeans` in both. Full batch only: TF's mini-batch
steps race (tests/golden/cases_clustering.py)."""

import numpy as np

from tests.golden.estimator_util import as_py, model_dir

TF_VERSION = "2.15"

_DEFAULT_GRAPH_SEED = 87654321


def _estimator(tf, core=False, **kwargs):
    contrib = getattr(tf, "contrib", None)
    if core:
        return tf.estimator.experimental.KMeans(**kwargs)
    if contrib is not None:
        return contrib.factorization.KMeansClustering(random_seed=_DEFAULT_GRAPH_SEED,
                                                      **kwargs)
    return tf.estimator.experimental.KMeans(seed=0, **kwargs)


def _points():
    rng = np.random.RandomState(0)
    return np.concatenate([rng.randn(20, 2) + c for c in ([0, 0], [5, 5], [0, 6])]) \
        .astype(np.float32)


def _run(tf, core=False, **kwargs):
    points = _points()

    def input_fn():
        return tf.train.limit_epochs(tf.convert_to_tensor(points, dtype=tf.float32),
                                     num_epochs=None)

    def one_pass():
        return tf.train.limit_epochs(tf.convert_to_tensor(points[:7], dtype=tf.float32),
                                     num_epochs=1)

    with model_dir() as d:
        km = _estimator(tf, core, num_clusters=3, use_mini_batch=False, model_dir=d, **kwargs)
        scores = []
        for _ in range(3):
            km.train(input_fn, steps=2)
            scores.append(km.score(input_fn))
        distances = list(km.transform(one_pass))
        if not core and getattr(tf, "contrib", None) is None and \
                kwargs.get("distance_metric", "squared_euclidean") == "squared_euclidean":
            # tensorflow-estimator's transform() takes the square root of squared
            # euclidean distances; TF 1.15's contrib one (tf1compat's) does not.
            distances = [np.square(d) for d in distances]
        return as_py({"scores": scores, "centers": km.cluster_centers(),
                      "global_step": km.get_variable_value("global_step"),
                      "index": list(km.predict_cluster_index(one_pass)),
                      "distances": distances})


def case_kmeans_clustering_random(tf):
    return _run(tf)


def case_kmeans_clustering_kmeans_plus_plus_cosine(tf):
    return _run(tf, initial_clusters="kmeans_plus_plus", distance_metric="cosine")


def case_experimental_kmeans_seeded_random(tf):
    return _run(tf, core=True, seed=5)


def case_experimental_kmeans_graph_seed_kmeans_plus_plus(tf):
    return _run(tf, core=True, initial_clusters="kmeans_plus_plus",
                config=tf.estimator.RunConfig(tf_random_seed=3))


def case_experimental_kmeans_cosine_transform(tf):
    return _run(tf, core=True, seed=1, distance_metric="cosine")


def case_experimental_kmeans_kmeans_plus_plus_without_seed(tf):
    # No `seed` and no tf_random_seed: TF's k-means++ op is given a None seed and fails.
    try:
        _run(tf, core=True, initial_clusters="kmeans_plus_plus")
    except Exception as e:  # noqa: BLE001 - the class is the result
        return {"error": type(e).__name__}
    return {"error": None}


def case_experimental_kmeans_rejects_kmc2(tf):
    try:
        tf.estimator.experimental.KMeans(num_clusters=3, initial_clusters="kmc2")
    except ValueError as e:
        return {"error": str(e)}
    return {"error": None}
