"""tf.contrib.factorization: KMeans' training loop against a numpy re-implementation of the
k-means updates (the oracle: TF 2.21 has no contrib, and its mini-batch steps race on the
counts variable so they are not reproducible run to run), k-MC2 initialization, the
tutorial script through the shim, and the names that are not implemented.
Seeded ops and full-batch training against real TF: tests/golden/cases_clustering.py."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.contrib.factorization import KMeans


def _data(seed: int = 4) -> np.ndarray:
    rng = np.random.RandomState(seed)
    centers = np.eye(5)[:3] * 4
    rows = np.concatenate([rng.randn(30, 5) + c for c in centers]).astype(np.float32)
    return rows[rng.permutation(len(rows))]


def _unit(a: np.ndarray) -> np.ndarray:
    return a / np.sqrt(np.maximum((a * a).sum(1, keepdims=True), 1e-12))


class _Oracle:
    """TF 1.15's k-means updates in float64 numpy (see clustering_ops.py's docstring)."""

    def __init__(self, centers: np.ndarray, metric: str, mini_batch: bool, steps: int):
        self.metric, self.mini_batch, self.steps = metric, mini_batch, steps
        self.centers = centers.astype(np.float64)      # `clusters`
        self.updated = self.centers.copy()             # `clusters_updated`
        synced = mini_batch and steps > 1
        self.counts = np.zeros(len(centers)) if synced else np.ones(len(centers))
        self.update_in_steps = steps

    def _assign(self, x: np.ndarray, centers: np.ndarray) -> tuple:
        if self.metric == "cosine":
            distances = 1 - x @ _unit(centers).T
        else:
            distances = ((x[:, None, :] - centers[None]) ** 2).sum(-1)
        idx = distances.argmin(1)
        return idx, distances[np.arange(len(x)), idx].mean()

    def step(self, data: np.ndarray) -> tuple:
        """One training step; returns (cluster_idx, mean distance) as computed before it."""
        x = _unit(data.astype(np.float64)) if self.metric == "cosine" else \
            data.astype(np.float64)
        # TF's executor runs each op once its inputs are ready. The squared-euclidean
        # distances read `clusters` at once, before the step's sync (the cond copying
        # `clusters_updated` into `clusters`); the cosine distances first normalize the
        # inputs, so their read comes after the sync, as real TF 2.21 does on this graph.
        reads_after_sync = self.metric == "cosine" and self.mini_batch and self.steps > 1
        if not reads_after_sync:
            idx, mean = self._assign(x, self.centers)
        if not self.mini_batch:
            k = len(self.centers)
            sums = np.zeros_like(self.centers)
            np.add.at(sums, idx, x)
            means = sums / (np.bincount(idx, minlength=k)[:, None] + 1e-6)
            self.centers = _unit(means) if self.metric == "cosine" else means
            return idx, mean
        if self.steps > 1:
            if self.update_in_steps <= 0:
                self.update_in_steps = self.steps - 1
                self.centers = _unit(self.updated) if self.metric == "cosine" else \
                    self.updated.copy()
                self.counts[:] = 0
            else:
                self.update_in_steps -= 1
        if reads_after_sync:
            idx, mean = self._assign(x, self.centers)
        target = self.updated if self.steps > 1 else self.centers
        ids, position = np.unique(idx, return_inverse=True)
        k = np.bincount(position).astype(np.float64)
        sums = np.zeros((len(ids), x.shape[1]))
        np.add.at(sums, position, x)
        # x += (sum of the k new points - k x) / (n + k)
        target[ids] += (sums - k[:, None] * target[ids]) / (self.counts[ids] + k)[:, None]
        self.counts[ids] += k
        return idx, mean


def _clusters_var(graph: tf.Graph) -> tf.Variable:
    return [v for v in graph.get_collection("variables") if v.op.name == "clusters"][0]


@pytest.mark.parametrize("metric", ["squared_euclidean", "cosine"])
@pytest.mark.parametrize("mini_batch,steps", [(False, 1), (True, 1), (True, 3)])
def test_training_steps_match_numpy_oracle(metric: str, mini_batch: bool, steps: int):
    data = _data()
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 5])
        km = KMeans(x, 4, initial_clusters="kmeans_plus_plus", distance_metric=metric,
                    use_mini_batch=mini_batch, mini_batch_steps_per_iteration=steps,
                    random_seed=5)
        result = km.training_graph()
        assert len(result) == 6
        _, idx, scores, initialized, init_op, train_op = result
        avg = tf.reduce_mean(scores[0])
        clusters = _clusters_var(g)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer(), {x: data})
            sess.run(init_op, {x: data})
            assert sess.run(initialized)
            oracle = _Oracle(sess.run(clusters), metric, mini_batch, steps)
            for step in range(7):
                _, got_mean, got_idx = sess.run([train_op, avg, idx[0]], {x: data})
                want_idx, want_mean = oracle.step(data)
                np.testing.assert_array_equal(got_idx, want_idx, err_msg=f"step {step}")
                np.testing.assert_allclose(got_mean, want_mean, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(sess.run(clusters), oracle.centers, rtol=1e-4,
                                       atol=1e-5)


def test_variable_names_and_sharded_inputs():
    data = _data()
    g = tf.Graph()
    with g.as_default():
        shards = [tf.constant(data[:40]), tf.constant(data[40:])]
        km = KMeans(shards, 3, use_mini_batch=True, mini_batch_steps_per_iteration=2)
        all_scores, idx, scores, initialized, init_op, train_op = km.training_graph()
        names = [(v.op.name, v.dtype.base_dtype.name) for v in g.get_collection("variables")]
        assert names == [("clusters", "float32"), ("initialized", "bool"),
                         ("clusters_updated", "float32"), ("update_in_steps", "int64"),
                         ("Variable", "int64")]
        assert len(all_scores) == len(idx) == len(scores) == 2
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(init_op)
            assert sess.run(initialized)
            sess.run(train_op)
            got = sess.run(list(idx))
            assert [len(i) for i in got] == [40, 50]


def test_kmc2_initialization_adds_rows_of_the_batch_until_initialized():
    data = _data()
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 5])
        km = KMeans(x, 4, initial_clusters="kmc2", kmc2_chain_length=15, random_seed=2)
        _, _, _, initialized, init_op, _ = km.training_graph()
        clusters = _clusters_var(g)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer(), {x: data})
            runs = 0
            while not sess.run(initialized):
                sess.run(init_op, {x: data})
                runs += 1
                assert runs < 5
            centers = sess.run(clusters)
        assert centers.shape == (4, 5)
        np.testing.assert_array_equal(centers[0], data[0])   # the first center: row 0
        for c in centers:
            assert np.any(np.all(data == c, axis=1))


def test_init_is_refused_with_fewer_points_than_kmeans_plus_plus_centers():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 2])
        _, _, _, _, init_op, _ = KMeans(x, 5, initial_clusters="kmeans_plus_plus") \
            .training_graph()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer(), {x: np.zeros((3, 2), np.float32)})
            with pytest.raises(tf.errors.InvalidArgumentError):
                sess.run(init_op, {x: np.zeros((3, 2), np.float32)})


def test_bad_arguments_raise_value_error():
    x = tf.placeholder(tf.float32, [None, 2])
    with pytest.raises(ValueError, match="Unsupported initialization algorithm 'foo'"):
        KMeans(x, 2, initial_clusters="foo")
    with pytest.raises(ValueError, match="Unsupported distance metric 'l1'"):
        KMeans(x, 2, distance_metric="l1")


def test_tutorial_runs_through_the_shim(tmp_path):
    """aymericdamien's kmeans.py, MNIST replaced by stand-in digits: its imports, tuple
    unpacking, training loop and evaluation run unchanged."""
    script = tmp_path / "kmeans.py"
    script.write_text(textwrap.dedent("""
        import numpy as np
        import tensorflow as tf
        from tensorflow.contrib.factorization import KMeans
        rng = np.random.RandomState(0)
        protos = rng.rand(10, 64) ** 3
        labels = rng.randint(0, 10, 500)
        full_data_x = np.clip(protos[labels] + rng.rand(500, 64), 0, None).astype("f4")
        onehot = np.eye(10, dtype="f4")[labels]
        k, num_classes, num_features = 25, 10, 64
        X = tf.placeholder(tf.float32, shape=[None, num_features])
        Y = tf.placeholder(tf.float32, shape=[None, num_classes])
        kmeans = KMeans(inputs=X, num_clusters=k, distance_metric='cosine',
                        use_mini_batch=True)
        training_graph = kmeans.training_graph()
        if len(training_graph) > 6:
            (all_scores, cluster_idx, scores, cluster_centers_initialized,
             cluster_centers_var, init_op, train_op) = training_graph
        else:
            (all_scores, cluster_idx, scores, cluster_centers_initialized,
             init_op, train_op) = training_graph
        cluster_idx = cluster_idx[0]
        avg_distance = tf.reduce_mean(scores)
        init_vars = tf.global_variables_initializer()
        sess = tf.Session()
        sess.run(init_vars, feed_dict={X: full_data_x})
        sess.run(init_op, feed_dict={X: full_data_x})
        for i in range(1, 21):
            _, d, idx = sess.run([train_op, avg_distance, cluster_idx],
                                 feed_dict={X: full_data_x})
        counts = np.zeros(shape=(k, num_classes))
        for i in range(len(idx)):
            counts[idx[i]] += onehot[i]
        labels_map = tf.convert_to_tensor([np.argmax(c) for c in counts])
        cluster_label = tf.nn.embedding_lookup(labels_map, cluster_idx)
        correct_prediction = tf.equal(cluster_label, tf.cast(tf.argmax(Y, 1), tf.int32))
        accuracy_op = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
        print("Test Accuracy:", sess.run(accuracy_op, feed_dict={X: full_data_x, Y: onehot}))
    """))
    proc = subprocess.run([sys.executable, "-m", "tf1compat", "run", str(script)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    accuracy = float(proc.stdout.split("Test Accuracy:")[1])
    assert accuracy > 0.9


def test_kmeans_clustering_estimator_trains_predicts_and_stops_on_tolerance(tmp_path):
    data = _data()

    def input_fn():
        return tf.train.limit_epochs(tf.convert_to_tensor(data), num_epochs=None)

    def one_pass():
        return tf.train.limit_epochs(tf.convert_to_tensor(data[:6]), num_epochs=1)

    km = tf.contrib.factorization.KMeansClustering(
        3, model_dir=str(tmp_path), use_mini_batch=False, relative_tolerance=1e-4)
    km.train(input_fn, steps=50)
    steps = km.get_variable_value("global_step")
    assert 2 <= steps < 50                          # the tolerance hook stopped it
    centers = km.cluster_centers()
    assert centers.shape == (3, 5)
    index = list(km.predict_cluster_index(one_pass))
    distances = np.stack(list(km.transform(one_pass)))
    want = ((data[:6, None, :] - centers[None]) ** 2).sum(-1)
    np.testing.assert_allclose(distances, want, rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(index, want.argmin(1))
    nearest = ((data[:, None, :] - centers[None]) ** 2).sum(-1).min(1)
    np.testing.assert_allclose(km.score(input_fn), nearest.sum(), rtol=1e-4)
    with pytest.raises(ValueError, match="Unsupported initialization algorithm 'kmc2'"):
        tf.contrib.factorization.KMeansClustering(3, initial_clusters="kmc2")
