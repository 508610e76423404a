"""Golden cases: Keras model configs and JSON, HDF5 weights and model files (their exact
layout, so files written by tf1compat load in tf-keras), loading `.h5` files written by
real tf-keras (tests/fixtures/keras/, made by scripts/record_keras_fixtures.py),
`clone_model`, custom objects."""

import json
import os
import tempfile

import numpy as np

from tests.golden.harness import catch, tolerance
from tests.golden.keras_util import data, mlp, set_weights, weights_of

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "fixtures", "keras")


def _h5_layout(path):
    """Every group and dataset of an HDF5 file with its attributes (values rounded)."""
    import h5py

    def attr(value):
        if isinstance(value, bytes):
            value = value.decode("utf8")
        if isinstance(value, str) and value.startswith("{"):
            return json.loads(value)
        if isinstance(value, np.ndarray):
            return [v.decode("utf8") if isinstance(v, bytes) else v for v in value.tolist()]
        return value

    out = []
    with h5py.File(path, "r") as f:
        out.append(["/", {k: attr(v) for k, v in sorted(f.attrs.items())}])

        def visit(name, obj):
            entry = [name, {k: attr(v) for k, v in sorted(obj.attrs.items())}]
            if isinstance(obj, h5py.Dataset):
                entry += [list(obj.shape), str(obj.dtype),
                          np.round(np.asarray(obj, dtype=np.float64), 5).reshape(-1).tolist()]
            out.append(entry)
        f.visititems(visit)
    return out


def _functional(tf):
    a = tf.keras.Input((3,), name="a")
    b = tf.keras.Input((2,), name="b")
    shared = tf.keras.layers.Dense(4, activation="relu", name="shared")
    ha = shared(tf.keras.layers.Dense(3, name="proj")(a))
    hb = shared(tf.keras.layers.Dense(3, name="proj_b", use_bias=False)(b))
    merged = tf.keras.layers.Concatenate(name="cat")([ha, hb])
    out1 = tf.keras.layers.Dense(1, activation="sigmoid", name="out1")(merged)
    out2 = tf.keras.layers.Dense(2, name="out2")(tf.keras.layers.Add()([ha, hb]))
    model = tf.keras.Model([a, b], [out1, out2], name="two_in_two_out")
    set_weights(model, 5)
    return model


def case_configs_and_json(tf):
    seq = tf.keras.Sequential([
        tf.keras.layers.Dense(4, input_shape=(3,), activation="relu",
                              kernel_regularizer=tf.keras.regularizers.l2(0.01)),
        tf.keras.layers.Dropout(0.25), tf.keras.layers.BatchNormalization(),
        tf.keras.layers.Dense(2, activation="softmax")], name="seq")
    unbuilt = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    unbuilt.build((None, 5))
    functional = _functional(tf)
    return {"seq": json.loads(seq.to_json()), "seq_config": json.loads(json.dumps(
        seq.get_config())), "unbuilt": json.loads(unbuilt.to_json()),
        "functional": json.loads(functional.to_json()),
        "yaml": catch(lambda: seq.to_yaml(), message=True)}


@tolerance(rtol=1e-5, atol=1e-6)
def case_json_round_trip(tf):
    x = np.random.RandomState(0).randn(4, 3).astype(np.float32)
    xb = np.random.RandomState(1).randn(4, 2).astype(np.float32)
    functional = _functional(tf)
    rebuilt = tf.keras.models.model_from_json(functional.to_json())
    rebuilt.set_weights(functional.get_weights())
    seq = mlp(tf)
    seq2 = tf.keras.models.model_from_json(seq.to_json())
    seq2.set_weights(seq.get_weights())
    from_config = tf.keras.Model.from_config(functional.get_config())
    clone = tf.keras.models.clone_model(functional)
    seq_clone = tf.keras.models.clone_model(seq)
    return {"same_json": json.loads(rebuilt.to_json()) == json.loads(functional.to_json()),
            "rebuilt": rebuilt.predict([x, xb]), "original": functional.predict([x, xb]),
            "seq": seq2.predict(x), "seq_original": seq.predict(x),
            "layers": [l.name for l in from_config.layers],
            "weights": [w.name for w in rebuilt.weights],
            "clone_layers": [l.name for l in clone.layers],
            "clone_weights": [w.name for w in clone.weights],
            "seq_clone": [l.name for l in seq_clone.layers],
            "list": catch(lambda: tf.keras.models.model_from_config([]), message=True)}


@tolerance(rtol=1e-5, atol=1e-6)
def case_h5_weights_layout(tf):
    d = tempfile.mkdtemp()
    model = _functional(tf)
    path = os.path.join(d, "w.h5")
    model.save_weights(path)
    other = _functional(tf)
    set_weights(other, 11)
    other.load_weights(path)
    x = np.random.RandomState(0).randn(4, 3).astype(np.float32)
    xb = np.random.RandomState(1).randn(4, 2).astype(np.float32)
    return {"layout": _h5_layout(path), "loaded": other.predict([x, xb]),
            "expected": model.predict([x, xb]), "files": sorted(os.listdir(d))}


@tolerance(rtol=1e-5, atol=1e-6)
def case_h5_model_layout_and_reload(tf):
    d = tempfile.mkdtemp()
    model = mlp(tf)
    model.compile(tf.keras.optimizers.Adam(0.01), "mse", metrics=["mae"])
    x, y = data(8)
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    path = os.path.join(d, "m.h5")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    h = loaded.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    no_compile = tf.keras.models.load_model(path, compile=False)
    bare = os.path.join(d, "bare.h5")
    mlp(tf, seed=3).save(bare)
    return {"layout": _h5_layout(path), "loss": h.history["loss"],
            "continued": weights_of(loaded), "reference": weights_of(model),
            "loaded_optimizer": loaded.optimizer.get_config(),
            "names": loaded.metrics_names, "no_compile": no_compile.optimizer is None,
            "bare_layout": _h5_layout(bare),
            "bare": tf.keras.models.load_model(bare).optimizer is None,
            "missing": catch(lambda: tf.keras.models.load_model(os.path.join(d, "x.h5")))}


@tolerance(rtol=1e-5, atol=1e-6)
def case_h5_by_name_and_mismatch(tf):
    d = tempfile.mkdtemp()
    path = os.path.join(d, "w.h5")
    mlp(tf, seed=2).save_weights(path)
    inp = tf.keras.Input((3,))
    renamed = tf.keras.Model(inp, tf.keras.layers.Dense(4, name="dense")(inp))
    renamed.load_weights(path, by_name=True)
    wider = tf.keras.Sequential([tf.keras.layers.Dense(5, input_shape=(3,), name="dense")])
    wider_result = catch(lambda: wider.load_weights(path, by_name=True), message=True)
    wider.load_weights(path, by_name=True, skip_mismatch=True)
    three = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,)),
                                 tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)])
    return {"renamed": weights_of(renamed), "wider": wider_result,
            "three": catch(lambda: three.load_weights(path), message=True),
            "skip_needs_by_name": catch(lambda: three.load_weights(path, skip_mismatch=True),
                                        message=True)}


@tolerance(rtol=1e-5, atol=1e-6)
def case_load_tf_keras_fixtures(tf):
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)
    model = tf.keras.models.load_model(os.path.join(FIXTURES, "mlp_adam.h5"))
    seq = mlp(tf, seed=8)
    seq.load_weights(os.path.join(FIXTURES, "mlp_weights.h5"))
    cnn = tf.keras.models.load_model(os.path.join(FIXTURES, "small_cnn.h5"))
    images = np.linspace(0, 1, 2 * 6 * 6 * 1, dtype=np.float32).reshape(2, 6, 6, 1)
    return {"predict": model.predict(x), "optimizer": model.optimizer.get_config(),
            "optimizer_weights": [np.asarray(w) for w in model.optimizer.get_weights()],
            "weights": seq.predict(x), "cnn": cnn.predict(images),
            "cnn_layers": [l.name for l in cnn.layers], "names": model.metrics_names}


def case_custom_objects(tf):
    d = tempfile.mkdtemp()

    def scaled_mse(y_true, y_pred):
        return 2.0 * tf.keras.losses.mean_squared_error(y_true, y_pred)

    class Scale(tf.keras.layers.Layer):
        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, inputs):
            return inputs * self.factor

        def get_config(self):
            config = super().get_config()
            config["factor"] = self.factor
            return config

    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,)), Scale(3.0)])
    set_weights(model, 1)
    model.compile("sgd", scaled_mse)
    path = os.path.join(d, "custom.h5")
    model.save(path)
    missing = catch(lambda: tf.keras.models.load_model(path), message=True)
    loaded = tf.keras.models.load_model(path, custom_objects={"Scale": Scale,
                                                              "scaled_mse": scaled_mse})
    with tf.keras.utils.custom_object_scope({"Scale": Scale, "scaled_mse": scaled_mse}):
        scoped = tf.keras.models.load_model(path)
    x = np.ones((2, 3), np.float32)
    return {"missing": missing, "loaded": loaded.predict(x), "scoped": scoped.predict(x),
            "factor": loaded.layers[-1].factor, "loss": loaded.loss.__name__
            if hasattr(loaded.loss, "__name__") else str(loaded.loss)}
