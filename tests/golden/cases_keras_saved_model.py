"""Golden cases: Keras models saved as SavedModel directories in TF1 graph mode
(`model.save(dir, save_format="tf")`, `tf.keras.models.load_model(dir)`): the reloaded
model's predictions, compile state and optimizer state, training it further, the
directory opened with the TF1 loader (`tf.saved_model.loader.load`) and its
"serving_default" signature run, HDF5 as the default format, and the errors."""

import os
import tempfile

import numpy as np

from tests.golden.harness import catch, tolerance


def _data(n=8, seed=0):
    rng = np.random.RandomState(seed)
    return rng.randn(n, 4).astype(np.float32), np.arange(n) % 3


def _mlp(tf):
    init = tf.keras.initializers.glorot_uniform
    return tf.keras.Sequential([
        tf.keras.layers.Dense(5, activation="relu", input_shape=(4,), name="hidden",
                              kernel_initializer=init(seed=1)),
        tf.keras.layers.Dropout(0.5, seed=3, name="drop"),
        tf.keras.layers.Dense(3, activation="softmax", name="probs",
                              kernel_initializer=init(seed=2))])


def _signature(meta, key="serving_default"):
    sig = meta.signature_def[key]

    def info(i):
        return {"dtype": i.dtype, "shape": [d.size for d in i.tensor_shape.dim]}
    return {"inputs": {k: info(v) for k, v in sorted(sig.inputs.items())},
            "outputs": {k: info(v) for k, v in sorted(sig.outputs.items())},
            "method_name": sig.method_name}


@tolerance(2e-5, 1e-6)
def case_sequential_round_trip_and_tf1_loader(tf):
    model = _mlp(tf)
    model.compile(tf.keras.optimizers.Adam(0.05), "sparse_categorical_crossentropy",
                  metrics=["acc"])
    x, y = _data()
    model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    before = model.predict(x)
    path = os.path.join(tempfile.mkdtemp(), "model")
    model.save(path, save_format="tf")
    present = {name: os.path.exists(os.path.join(path, name)) for name in
               ("saved_model.pb", "keras_metadata.pb", "variables/variables.index")}
    loaded = tf.keras.models.load_model(path)
    after = loaded.predict(x)
    optimizer_state = loaded.optimizer.get_weights()
    history = loaded.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0).history
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], path)
        sig = meta.signature_def["serving_default"]
        served = sess.run(sig.outputs["probs"].name, {sig.inputs["hidden_input"].name: x})
    return {"present": present, "before": before, "after": after, "served": served,
            "class": type(loaded).__name__, "names": [l.name for l in loaded.layers],
            "metrics_names": loaded.metrics_names, "optimizer": type(loaded.optimizer).__name__,
            "lr": float(tf.keras.backend.get_value(loaded.optimizer.lr)),
            "optimizer_state": optimizer_state, "history": history,
            "signature": _signature(meta), "tags": list(meta.meta_info_def.tags),
            "keys": sorted(meta.signature_def)[-1:]}


@tolerance(2e-5, 1e-6)
def case_functional_multi_output_round_trip(tf):
    init = tf.keras.initializers.glorot_uniform
    a = tf.keras.Input((3,), name="a")
    b = tf.keras.Input((2,), name="b")
    h = tf.keras.layers.Dense(4, activation="tanh", kernel_initializer=init(seed=3),
                              name="h")(tf.keras.layers.Concatenate()([a, b]))
    out1 = tf.keras.layers.Dense(1, kernel_initializer=init(seed=4), name="reg")(h)
    out2 = tf.keras.layers.Dense(2, activation="softmax", kernel_initializer=init(seed=5),
                                 name="cls")(h)
    model = tf.keras.Model([a, b], [out1, out2])
    model.compile("sgd", ["mse", "categorical_crossentropy"], loss_weights=[1.0, 0.5])
    rng = np.random.RandomState(1)
    xa, xb = rng.randn(6, 3).astype(np.float32), rng.randn(6, 2).astype(np.float32)
    ys = [rng.randn(6, 1).astype(np.float32), np.eye(2, dtype=np.float32)[[0, 1] * 3]]
    model.fit([xa, xb], ys, batch_size=3, epochs=1, shuffle=False, verbose=0)
    path = os.path.join(tempfile.mkdtemp(), "functional")
    model.save(path, save_format="tf")
    loaded = tf.keras.models.load_model(path)
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], path)
        sig = meta.signature_def["serving_default"]
        served = sess.run({k: v.name for k, v in sig.outputs.items()},
                          {sig.inputs["a"].name: xa, sig.inputs["b"].name: xb})
    return {"before": model.predict([xa, xb]), "after": loaded.predict([xa, xb]),
            "served": served, "signature": _signature(meta),
            "evaluate": loaded.evaluate([xa, xb], ys, verbose=0),
            "metrics_names": loaded.metrics_names}


def case_default_format_and_errors(tf):
    model = _mlp(tf)
    model.compile("sgd", "mse")
    root = tempfile.mkdtemp()
    plain = os.path.join(root, "no_extension")
    model.save(plain)
    empty = os.path.join(root, "empty")
    os.makedirs(empty)
    return {"plain_is_file": os.path.isfile(plain),
            "plain_loads": type(tf.keras.models.load_model(plain)).__name__,
            "bad_format": catch(lambda: model.save(plain, save_format="pickle"),
                                message=True),
            "missing": catch(lambda: tf.keras.models.load_model(os.path.join(root, "nope"))),
            "not_a_model": catch(lambda: tf.keras.models.load_model(empty))}
