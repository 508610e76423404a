"""Keras behaviour the golden cases do not cover: unsupported features raising
NotImplementedError (or TF's own errors), v2 dtype behaviour, eager adapt and gradients
through recurrent layers, the ops added for the preprocessing layers, and the migration
example's and benchmark's plumbing."""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf

L = tf.keras.layers


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


@pytest.mark.parametrize("make", [
    lambda: L.LocallyConnected1D(2, 3, implementation=3),
    lambda: L.Hashing(4, output_mode="count", sparse=True),
    lambda: L.CategoryEncoding(4, sparse=True),
    lambda: L.DenseFeatures([tf.feature_column.numeric_column("a")],
                            partitioner=tf.fixed_size_partitioner(2)).get_config(),
    lambda: L.experimental.DynamicEmbedding(4, 2),
    lambda: L.experimental.DynamicLookup(4),
])
def test_unsupported_layers_say_so(make):
    with pytest.raises(NotImplementedError, match="tf1compat"):
        make()


def test_unsupported_layer_calls_say_so():
    x = tf.placeholder(tf.float32, [None, 4, 4, 3])
    with pytest.raises(NotImplementedError, match="ScaleAndTranslate"):
        L.Resizing(2, 2, interpolation="lanczos3")(x)
    with pytest.raises(NotImplementedError, match="quantile"):
        L.Discretization(num_bins=3)(tf.placeholder(tf.float32, [None, 2]))


def test_tf_errors_for_bad_arguments():
    with pytest.raises(TypeError, match="Unrolling"):
        L.ConvLSTM2D(2, 3, unroll=True)
    with pytest.raises(ValueError, match="only \"valid\" is supported"):
        L.LocallyConnected2D(2, 3, padding="same")
    with pytest.raises(ValueError, match="sparse"):
        L.Hashing(3, sparse=True)
    with pytest.raises(ValueError, match="num_tokens"):
        L.CategoryEncoding()
    with pytest.raises(ValueError, match="Invalid einsum equation"):
        L.EinsumDense("ab,bc", 3)(tf.placeholder(tf.float32, [None, 2]))
    with pytest.raises(RuntimeError, match="only supported in tensorflow v2"):
        L.Normalization().adapt(np.ones((4, 2), np.float32))


def test_v2_dtype_behavior_toggles():
    x = tf.constant([[1.0, 2.0]], dtype=tf.float64)
    assert L.Dense(2).dtype is None
    L.enable_v2_dtype_behavior()
    try:
        layer = L.Dense(2)
        assert layer.dtype == "float32"
        assert layer(x).dtype == tf.float32
    finally:
        L.disable_v2_dtype_behavior()
    layer = L.Dense(2)
    assert layer(x).dtype == tf.float64


def test_bias_add_per_position_and_channels_first():
    K = tf.keras.backend
    x = tf.ones((2, 3, 4))
    per_position = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    per_channel = tf.constant([1.0, 2.0, 3.0])
    with tf.Session() as sess:
        a, b = sess.run([K.bias_add(x, per_position), K.bias_add(x, per_channel,
                                                                   "channels_first")])
    np.testing.assert_allclose(a[1], 1 + np.arange(12).reshape(3, 4))
    np.testing.assert_allclose(b[0], [[2] * 4, [3] * 4, [4] * 4])
    with pytest.raises(ValueError, match="Unexpected bias dimensions"):
        K.bias_add(x, tf.ones((2, 2, 2, 2)))


def test_bucketize_and_row_bincount_ops():
    from tf1compat.ops.math_extra import bucketize, dense_bincount
    with tf.Session() as sess:
        buckets = sess.run(bucketize(tf.constant([[-1.0, 0.0, 1.5, 3.0]]), [0.0, 1.0, 2.5]))
        rows = sess.run(dense_bincount(tf.constant([[0, 1, 1], [4, 2, 9]]), 5))
        binary = sess.run(dense_bincount(tf.constant([[0, 1, 1]]), 3, binary_output=True))
    assert buckets.dtype == np.int32 and buckets.tolist() == [[0, 1, 2, 3]]
    assert rows.tolist() == [[1, 2, 0, 0, 0], [0, 0, 1, 0, 1]]
    assert binary.tolist() == [[1, 1, 0]]
    # TF builds the op and fails when its kernel is made; a float64 value just below a
    # float32 boundary stays below it.
    unsorted = bucketize(tf.constant([1.0]), [2.0, 1.0])
    near = bucketize(tf.constant([0.9999999999, 1.0], tf.float64), [1.0])
    with tf.Session() as sess:
        assert sess.run(near).tolist() == [0, 1]
        with pytest.raises(tf.errors.InvalidArgumentError, match="sorted boundaries"):
            sess.run(unsorted)


def test_einsum_static_shapes_with_ellipsis():
    a = tf.placeholder(tf.float32, [None, 9, 4])
    assert tf.einsum("...b,bc->...c", a, tf.zeros((4, 3))).shape.as_list() == [None, 9, 3]
    assert tf.einsum("...ij,...jk->...ik", tf.zeros((7, 1, 2, 3)),
                     tf.zeros((5, 3, 4))).shape.as_list() == [7, 5, 2, 4]
    with pytest.raises(ValueError, match="without ellipsis"):
        tf.einsum("...ij,...jk", tf.zeros((7, 1, 2, 3)), tf.zeros((5, 3, 4)))


def test_string_equality_feeds_select():
    x = tf.constant([["a"], ["b"]])
    values = tf.constant([[1], [2]], tf.int64)
    out = tf.where(tf.equal(x, "b"), tf.zeros_like(values), values)
    with tf.Session() as sess:
        assert sess.run(out).tolist() == [[1], [0]]


def test_layer_round_trips_through_json_and_weights():
    x = L.Input((3, 4, 4, 3))
    y = L.ConvLSTM2D(2, 2, return_sequences=True)(x)
    y = L.TimeDistributed(L.LayerNormalization())(y)
    model = tf.keras.Model(x, y)
    clone = tf.keras.models.model_from_json(model.to_json())
    assert clone.to_json() == model.to_json()
    clone.set_weights(model.get_weights())
    data = np.random.RandomState(0).randn(2, 3, 4, 4, 3).astype(np.float32)
    np.testing.assert_allclose(clone.predict(data), model.predict(data), rtol=1e-5)


def _eager(code: str) -> str:
    """Runs `code` in a fresh interpreter with eager execution enabled."""
    import subprocess
    import sys
    script = "import numpy as np\nimport tf1compat as tf\ntf.enable_eager_execution()\n" + code
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_recurrent_gradients_and_adapt_under_eager():
    out = _eager(
        "L = tf.keras.layers\n"
        "for layer, shape in [(L.LSTM(2), (3, 4, 2)), (L.ConvLSTM1D(2, 2), (3, 4, 5, 2))]:\n"
        "    x = np.random.RandomState(0).randn(*shape).astype('float32')\n"
        "    with tf.GradientTape() as tape:\n"
        "        y = tf.reduce_sum(layer(x))\n"
        "    print(all(g is not None for g in tape.gradient(y, layer.trainable_weights)))\n"
        "n = L.Normalization()\n"
        "n.adapt(np.arange(12, dtype=np.float32).reshape(4, 3))\n"
        "print(np.round(n.get_weights()[0], 4).tolist(), int(n.get_weights()[2]))\n")
    assert out.split("\n")[:3] == ["True", "True", "[4.5, 5.5, 6.5] 4"]


def test_bench_keras_smoke(monkeypatch):
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "scripts"))
    import bench_keras
    monkeypatch.setattr(bench_keras, "N_EXAMPLES", 256)
    assert bench_keras.fit_examples_per_second(tf, repeats=1) > 0
    # A variant's settings: environment variables, and another checkout's tf1compat.
    name, env = bench_keras.parse_variant("main=TF1COMPAT_ROOT=/src/main,TF1COMPAT_THREADS=1")
    assert name == "main"
    assert env == {"BENCH_TF1COMPAT_ROOT": os.path.abspath("/src/main"),
                   "TF1COMPAT_THREADS": "1"}
    assert bench_keras.parse_variant("auto=") == ("auto", {})


def test_keras_version_is_tf115s():
    # TF 1.15 (TF1 behaviour) sets tf.keras.__version__ to "2.2.4-tf"; TF 2.x's compat.v1
    # has none, so no golden: tutorials print it (Hvass-Labs 20_Natural_Language_Processing).
    assert tf.keras.__version__ == "2.2.4-tf"
