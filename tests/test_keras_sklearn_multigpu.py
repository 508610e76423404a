"""tf.keras.wrappers.scikit_learn (and standalone keras.wrappers.scikit_learn),
tf.keras.utils.HDF5Matrix and tf.keras.utils.multi_gpu_model, with TF 1.15's semantics
(no oracle runs them any more: TF >= 2.12 dropped all three). scikit-learn is optional:
the tests that need it skip when it is absent."""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.keras.utils import multi_gpu_utils
from tf1compat.keras.wrappers.scikit_learn import KerasClassifier, KerasRegressor

K = tf.keras


def _classifier_model(hidden=4, optimizer="adam", n_classes=3):
    model = K.Sequential([K.layers.Dense(hidden, activation="relu", input_shape=(2,)),
                          K.layers.Dense(n_classes, activation="softmax")])
    model.compile(optimizer, "categorical_crossentropy", metrics=["accuracy"])
    return model


def _data(n=60):
    rng = np.random.RandomState(0)
    x = rng.randn(n, 2).astype(np.float32)
    labels = np.array(["a", "b", "c"])[(x[:, 0] > 0).astype(int) + (x[:, 1] > 1)]
    return x, labels


def test_classifier_fit_predict_score_with_string_labels():
    with tf.Graph().as_default():
        clf = KerasClassifier(_classifier_model, hidden=8, epochs=3, batch_size=16,
                              verbose=0)
        x, y = _data()
        history = clf.fit(x, y)
        assert len(history.history["loss"]) == 3
        assert list(clf.classes_) == ["a", "b", "c"] and clf.n_classes_ == 3
        proba = clf.predict_proba(x)
        assert proba.shape == (60, 3)
        np.testing.assert_allclose(proba, clf.model.predict(x), rtol=1e-6)
        np.testing.assert_array_equal(clf.predict(x), clf.classes_[proba.argmax(-1)])
        accuracy = clf.score(x, y)
        assert accuracy == pytest.approx(np.mean(clf.predict(x) == y), abs=1e-6)


def test_binary_classifier_probabilities_have_two_columns():
    def build():
        model = K.Sequential([K.layers.Dense(1, activation="sigmoid", input_shape=(2,))])
        model.compile("sgd", "binary_crossentropy")
        return model
    with tf.Graph().as_default():
        clf = KerasClassifier(build, epochs=1, verbose=0)
        x, _ = _data()
        clf.fit(x, (x[:, 0] > 0).astype(int))
        proba = clf.predict_proba(x)
        np.testing.assert_allclose(proba.sum(1), 1.0, rtol=1e-6)
        assert clf.predict(x).shape == (60, 1)
        with pytest.raises(ValueError, match="not configured to compute accuracy"):
            clf.score(x, (x[:, 0] > 0).astype(int))


def test_regressor_predict_and_score():
    def build(units=1):
        model = K.Sequential([K.layers.Dense(units, input_shape=(2,))])
        model.compile("sgd", "mse")
        return model
    with tf.Graph().as_default():
        reg = KerasRegressor(build_fn=build, epochs=2, verbose=0)
        x, _ = _data()
        y = x.sum(1)
        reg.fit(x, y)
        pred = reg.predict(x)
        assert pred.shape == (60,)
        assert reg.score(x, y) == pytest.approx(-np.mean((pred - y) ** 2), rel=1e-4)


def test_params_are_checked_and_filtered():
    with pytest.raises(ValueError, match="no_such is not a legal parameter"):
        KerasClassifier(_classifier_model, no_such=1)
    clf = KerasClassifier(_classifier_model, hidden=3, nb_epoch=4)   # Keras 1's, ignored
    assert clf.get_params(deep=True) == {"hidden": 3, "nb_epoch": 4,
                                         "build_fn": _classifier_model}
    assert clf.set_params(optimizer="sgd") is clf
    assert clf.filter_sk_params(_classifier_model) == {"hidden": 3, "optimizer": "sgd"}
    with pytest.raises(ValueError):
        clf.set_params(bogus=True)

    class Subclassed(KerasClassifier):     # build_fn=None: the subclass's __call__
        def __call__(self, width=2):
            return _classifier_model(hidden=width)
    assert Subclassed(width=5).filter_sk_params(Subclassed.__call__) == {"width": 5}


def test_sklearn_clone_and_cross_validation():
    sklearn = pytest.importorskip("sklearn")
    from sklearn.base import clone, is_classifier, is_regressor
    from sklearn.model_selection import cross_val_score
    with tf.Graph().as_default():
        clf = KerasClassifier(_classifier_model, epochs=1, verbose=0)
        assert is_classifier(clf) and not is_regressor(clf)
        assert is_regressor(KerasRegressor(_classifier_model))
        assert clone(clf).get_params()["epochs"] == 1
        x, y = _data()
        assert len(cross_val_score(clf, x, y, cv=2)) == 2
    assert sklearn


def test_standalone_keras_path():
    from tf1compat import shim_keras
    shim_keras.install()
    try:
        from keras.wrappers.scikit_learn import KerasClassifier as Standalone
        assert Standalone is KerasClassifier
    finally:
        shim_keras.uninstall()


def test_sequential_predict_classes_and_proba():
    with tf.Graph().as_default():
        model = _classifier_model()
        x, _ = _data()
        np.testing.assert_array_equal(model.predict_classes(x),
                                      model.predict(x).argmax(-1))
        binary = K.Sequential([K.layers.Dense(1, activation="sigmoid", input_shape=(2,))])
        np.testing.assert_array_equal(binary.predict_classes(x),
                                      (binary.predict(x) > 0.5).astype("int32"))
        np.testing.assert_allclose(model.predict_proba(x), model.predict(x))


def test_hdf5_matrix(tmp_path):
    h5py = pytest.importorskip("h5py")
    path = str(tmp_path / "data.h5")
    data = np.arange(40, dtype=np.float32).reshape(10, 4)
    with h5py.File(path, "w") as f:
        f["x"] = data
        f["y"] = data.sum(1, keepdims=True)
    x = K.utils.HDF5Matrix(path, "x", start=2, end=8, normalizer=lambda a: a / 10)
    assert len(x) == 6 and x.shape == (6, 4) and x.ndim == 2 and x.size == 24
    assert x.dtype == np.float32
    np.testing.assert_allclose(x[0], data[2] / 10)
    np.testing.assert_allclose(x[1:3], data[3:5] / 10)
    np.testing.assert_allclose(x[np.array([0, 5])], data[[2, 7]] / 10)
    np.testing.assert_allclose(x[[1, 2]], data[[3, 4]] / 10)
    with pytest.raises(IndexError):
        x[6]
    with pytest.raises(IndexError):
        x[4:7]
    with tf.Graph().as_default():
        model = K.Sequential([K.layers.Dense(1, input_shape=(4,))])
        model.compile("sgd", "mse")
        y = K.utils.HDF5Matrix(path, "y", start=2, end=8)
        history = model.fit(x, y, batch_size=4, epochs=2, shuffle="batch", verbose=0)
        assert len(history.history["loss"]) == 2
        np.testing.assert_allclose(model.predict(x), model.predict(data[2:8] / 10),
                                   rtol=1e-6)


def test_multi_gpu_model_needs_the_gpus():
    with tf.Graph().as_default():
        model = K.Sequential([K.layers.Dense(2, input_shape=(3,))])
        gpus = len([d for d in tf.Session().list_devices() if d.device_type == "GPU"])
        want = max(gpus + 1, 2)
        expected = ["/cpu:0"] + [f"/gpu:{i}" for i in range(want)]
        with pytest.raises(ValueError, match=(r"To call `multi_gpu_model` with `gpus=%d`, we "
                                              r"expect the following devices to be "
                                              r"available: %s\. However this machine only "
                                              r"has: \['/cpu:0'") % (
                                                  want, str(expected).replace("[", r"\[")
                                                  .replace("]", r"\]"))):
            K.utils.multi_gpu_model(model, want)
        with pytest.raises(ValueError, match="with `gpus >= 2`. Received: `gpus=1`"):
            K.utils.multi_gpu_model(model, 1)


def _replicated(monkeypatch, gpu_count, soft=True):
    """A model and its multi_gpu_model over `gpu_count` GPUs (on CPU: device check
    patched, soft placement runs the towers on the CPU)."""
    if soft:
        monkeypatch.setattr(multi_gpu_utils, "_available_devices", lambda: ["/cpu:0"] + [
            f"/gpu:{i}" for i in range(gpu_count)])
    inputs = K.Input((3,))
    hidden = K.layers.Dense(4, activation="relu", name="hidden")(inputs)
    outputs = [K.layers.Dense(2, name="out_a")(hidden), K.layers.Dense(1, name="out_b")(hidden)]
    model = K.Model(inputs, outputs)
    return model, K.utils.multi_gpu_model(model, gpu_count)


def test_multi_gpu_model_towers_slices_and_merge(monkeypatch):
    with tf.Graph().as_default() as graph:
        model, parallel = _replicated(monkeypatch, 3)
        assert parallel.output_names == ["out_a", "out_b"]
        assert parallel.count_params() == model.count_params()
        devices = {op.name.split("/")[0]: op.device for op in graph.get_operations()
                   if op.name.startswith("replica_")}
        assert {"replica_0", "replica_1", "replica_2"} <= set(devices)
        assert all(devices[f"replica_{i}"].lower().endswith(f"gpu:{i}") for i in range(3))
        merged = graph.get_tensor_by_name(parallel.outputs[0].name).op
        assert merged.device.lower().endswith("cpu:0")
        x = np.random.RandomState(1).randn(7, 3).astype(np.float32)   # 2 + 2 + 3 rows
        config = tf.ConfigProto(allow_soft_placement=True)
        sess = tf.Session(config=config)
        K.backend.set_session(sess)
        sess.run(tf.global_variables_initializer())
        want = model.predict(x)
        got = parallel.predict(x, batch_size=7)
        for a, b in zip(want, got):
            np.testing.assert_allclose(a, b, rtol=1e-6)
        parallel.compile("sgd", ["mse", "mse"])
        parallel.fit(x, [np.zeros((7, 2)), np.zeros((7, 1))], batch_size=7, verbose=0)
        for a, b in zip(model.predict(x), parallel.predict(x)):   # shared weights moved
            np.testing.assert_allclose(a, b, rtol=1e-6)


def test_multi_gpu_model_on_cuda():
    torch = pytest.importorskip("torch")
    if torch.cuda.device_count() < 2:
        pytest.skip("needs 2 CUDA GPUs")
    with tf.Graph().as_default():
        model, parallel = _replicated(None, 2, soft=False)
        x = np.random.RandomState(1).randn(9, 3).astype(np.float32)
        sess = tf.Session()
        K.backend.set_session(sess)
        sess.run(tf.global_variables_initializer())
        for a, b in zip(model.predict(x), parallel.predict(x, batch_size=9)):
            np.testing.assert_allclose(a, b, rtol=1e-5)
