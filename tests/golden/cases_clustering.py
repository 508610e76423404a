"""Golden cases: the clustering ops (KmeansPlusPlusInitialization, KMC2ChainInitialization,
NearestNeighbors: seeded results equal TF's) and the k-means training graph.

TF 2.21 has no tf.contrib; its `tensorflow.python.ops.clustering_ops.KMeans` is TF 1.15's
contrib class except that it turns `random_seed` into the graph-level seed
(get_seed(seed)[0], 87654321 without a graph seed) where contrib passes it on unchanged.
The cases give tf1compat's contrib KMeans that seed, so both build the same random ops.
Mini-batch steps are left out here: TF's update races its own count reads (see
tests/test_contrib_factorization.py, which checks them against a numpy oracle).
"""

import numpy as np

from tests.golden.harness import catch, describe

_DEFAULT_GRAPH_SEED = 87654321


def _gen(tf):
    """The gen_clustering_ops functions (keyword arguments, TF's names)."""
    raw = getattr(tf, "raw_ops", None)
    if raw is not None:
        return raw.KmeansPlusPlusInitialization, raw.KMC2ChainInitialization, \
            raw.NearestNeighbors
    from tf1compat.ops import clustering_ops as ops
    return ops.kmeans_plus_plus_initialization, ops.kmc2_chain_initialization, \
        ops.nearest_neighbors


def _kmeans(tf, inputs, num_clusters, **kwargs):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.factorization.KMeans(inputs, num_clusters,
                                            random_seed=_DEFAULT_GRAPH_SEED, **kwargs)
    from tensorflow.python.ops.clustering_ops import KMeans
    return KMeans(inputs, num_clusters, random_seed=0, **kwargs)


def _blobs(n_per, dims, centers, scale, seed):
    rng = np.random.RandomState(seed)
    rows = [rng.randn(n_per, dims) * scale + c for c in centers]
    data = np.concatenate(rows).astype(np.float32)
    return data[rng.permutation(len(data))]


def case_kmeans_plus_plus(tf):
    pp, _, _ = _gen(tf)
    data = _blobs(30, 4, np.eye(4) * 5, 1.0, 0)
    dup = np.repeat(data[:3], 4, axis=0)
    points = tf.placeholder(tf.float32, [None, None])
    out = {}
    for seed in (0, 7, -3, 2 ** 40 + 5):
        for retries in (0, 2, -1):
            out[f"s{seed}_r{retries}"] = pp(
                points=points, num_to_sample=tf.constant(5, tf.int64),
                seed=tf.constant(seed, tf.int64),
                num_retries_per_sample=tf.constant(retries, tf.int64))
    out["all"] = pp(points=points, num_to_sample=tf.constant(3, tf.int64),
                    seed=tf.constant(1, tf.int64),
                    num_retries_per_sample=tf.constant(1, tf.int64))
    with tf.Session() as sess:
        vals = sess.run(out, {points: data})
        vals["dup"] = sess.run(out["all"], {points: dup})
        vals["same"] = sess.run(out["all"], {points: np.ones((3, 2), np.float32)})
        errors = {
            "too_many": catch(lambda: sess.run(out["all"], {points: data[:2]})),
            "vector": catch(lambda: sess.run(pp(
                points=tf.constant([1.0, 2.0]), num_to_sample=tf.constant(1, tf.int64),
                seed=tf.constant(0, tf.int64),
                num_retries_per_sample=tf.constant(0, tf.int64)))),
        }
    return {"vals": vals, "shape": describe(out["all"]), "errors": errors}


def case_kmc2_chain(tf):
    _, kmc2, _ = _gen(tf)
    rng = np.random.RandomState(3)
    distances = tf.placeholder(tf.float32, [None])
    out = {f"s{seed}": kmc2(distances=distances, seed=tf.constant(seed, tf.int64))
           for seed in (0, 1, 42, -9)}
    with tf.Session() as sess:
        vals = {}
        for name, d in (("random", rng.rand(50)), ("spiky", np.r_[np.zeros(20), 5.0,
                                                                    np.ones(30)]),
                        ("one", np.array([2.0]))):
            vals[name] = sess.run(out, {distances: d.astype(np.float32)})
        empty = catch(lambda: sess.run(out["s0"], {distances: np.zeros(0, np.float32)}))
    return {"vals": vals, "shape": describe(out["s0"]), "empty": empty}


def case_nearest_neighbors(tf):
    _, _, nearest = _gen(tf)
    rng = np.random.RandomState(5)
    points = rng.randn(20, 3).astype(np.float32)
    centers = np.concatenate([points[:4], points[:2]]).astype(np.float32)  # ties
    p = tf.placeholder(tf.float32, [None, 3])
    c = tf.placeholder(tf.float32, [None, 3])
    out = {f"k{k}": list(nearest(points=p, centers=c, k=tf.constant(k, tf.int64)))
           for k in (1, 2, 4, 9)}
    with tf.Session() as sess:
        vals = sess.run(out, {p: points, c: centers})
        mismatch = catch(lambda: sess.run(out["k1"], {p: points, c: np.ones((2, 2))}))
    return {"vals": vals, "shapes": [describe(t) for t in out["k2"]], "mismatch": mismatch}


def _train(tf, init, metric, steps=5):
    data = _blobs(25, 6, np.eye(6)[:4] * 3, 1.0, 11)
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 6])
        km = _kmeans(tf, x, 4, initial_clusters=init, distance_metric=metric)
        all_scores, idx, scores, initialized, init_op, train_op = km.training_graph()
        avg = tf.reduce_mean(scores[0])
        clusters = [v for v in tf.global_variables() if v.op.name == "clusters"][0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer(), {x: data})
            sess.run(init_op, {x: data})
            out = {"initialized": sess.run(initialized), "init": sess.run(clusters),
                   "again": catch(lambda: sess.run(init_op, {x: data}) and None)}
            history = []
            for _ in range(steps):
                _, d, i = sess.run([train_op, avg, idx[0]], {x: data})
                history.append([d, i])
            out["history"] = history
            out["final"] = sess.run(clusters)
            out["all_scores"] = sess.run(all_scores[0], {x: data[:5]})
        out["variables"] = [[v.op.name, v.dtype.name] for v in g.get_collection("variables")]
        out["tuple"] = [len(all_scores), len(idx), len(scores), initialized.op.name]
        out["statics"] = [describe(t) for t in (all_scores[0], idx[0], scores[0])]
    return out


def case_kmeans_full_batch_random(tf):
    return {m: _train(tf, "random", m) for m in ("squared_euclidean", "cosine")}


def case_kmeans_full_batch_kmeans_plus_plus(tf):
    return {m: _train(tf, "kmeans_plus_plus", m) for m in ("squared_euclidean", "cosine")}


def case_kmeans_given_centers(tf):
    data = _blobs(10, 2, np.array([[0.0, 0.0], [4.0, 4.0]]), 0.5, 2)
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(data)
        km = _kmeans(tf, x, 7, initial_clusters=np.array([[1.0, 1.0], [3.0, 3.0]],
                                                         np.float32))
        _, idx, scores, initialized, init_op, train_op = km.training_graph()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(init_op)
            for _ in range(3):
                sess.run(train_op)
            return sess.run([initialized, idx[0], scores[0]])


def case_kmeans_errors(tf):
    x = tf.placeholder(tf.float32, [None, 2])
    # (TF 2.21's messages list the choices; TF 1.15's contrib ones, which tf1compat
    # keeps, do not: only the class is compared.)
    return {"init": catch(lambda: _kmeans(tf, x, 2, initial_clusters="bogus")),
            "metric": catch(lambda: _kmeans(tf, x, 2, distance_metric="l1"))}


def _digits(n, noise, seed):
    """MNIST-like stand-in: 10 sparse non-negative 64-pixel prototypes plus noise."""
    rng = np.random.RandomState(seed)
    prototypes = np.random.RandomState(123).rand(10, 64) ** 3
    labels = rng.randint(0, 10, n)
    images = np.clip(prototypes[labels] + rng.rand(n, 64) * noise, 0, None)
    return images.astype(np.float32), np.eye(10, dtype=np.float32)[labels]


def case_kmeans_tutorial(tf):
    """aymericdamien's TF1 kmeans.py (cosine, mini-batch, 25 clusters, cluster -> majority
    label) on the stand-in digits. TF's mini-batch steps race (see the module docstring),
    so only what no race changes is compared: the first step's distance and the test
    accuracy, on data where TF's runs agree."""
    train_x, train_y = _digits(600, 1.5, 1)
    test_x, test_y = _digits(200, 1.5, 2)
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, shape=[None, 64])
        y = tf.placeholder(tf.float32, shape=[None, 10])
        kmeans = _kmeans(tf, x, 25, distance_metric="cosine", use_mini_batch=True)
        (_, cluster_idx, scores, _, init_op, train_op) = kmeans.training_graph()
        cluster_idx = cluster_idx[0]
        avg_distance = tf.reduce_mean(scores)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer(), feed_dict={x: train_x})
            sess.run(init_op, feed_dict={x: train_x})
            first = None
            for _ in range(30):
                _, d, idx = sess.run([train_op, avg_distance, cluster_idx],
                                     feed_dict={x: train_x})
                first = d if first is None else first
            counts = np.zeros((25, 10))
            for i in range(len(idx)):
                counts[idx[i]] += train_y[i]
            labels_map = tf.convert_to_tensor([np.argmax(c) for c in counts])
            cluster_label = tf.nn.embedding_lookup(labels_map, cluster_idx)
            correct = tf.equal(cluster_label, tf.cast(tf.argmax(y, 1), tf.int32))
            accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
            return {"first_avg_distance": first,
                    "accuracy": sess.run(accuracy, feed_dict={x: test_x, y: test_y})}
