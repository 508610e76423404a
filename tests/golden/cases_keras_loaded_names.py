"""Golden cases: a functional model holding raw TF ops on constants (`tf_op_layer_*`:
its config names the op's NodeDef and keeps the constant inputs' values, and `to_json` /
`model_from_json` bring it back), and `metrics_names` of models from `load_model` (HDF5
and SavedModel) before any train or test step, with the metric names the files keep.
The loaded-model case replays under eager execution (eager_cases_keras_loaded_names),
where tf-keras builds the compiled metrics on the outputs when it saves and loads."""

import json
import os
import shutil
import tempfile

import numpy as np

from tests.golden.harness import tolerance


def _op_layer_model(tf):
    inp = tf.keras.Input((3,))
    y = tf.add(inp, tf.constant([1.0, 2.0, 3.0]))
    y = tf.matmul(y, tf.ones((3, 3)) * 2.0)
    out = tf.keras.layers.Dense(2, kernel_initializer="ones", name="out")(y)
    return tf.keras.Model(inp, out)


def _sorted_attrs(config):
    """The layer configs with their NodeDef attrs as sorted pairs (TF writes a NodeDef's
    attr map in no fixed order)."""
    layers = []
    for layer in config["layers"]:
        layer = json.loads(json.dumps(layer))
        node_def = layer["config"].get("node_def")
        if node_def and "attr" in node_def:
            node_def["attr"] = sorted(node_def["attr"].items())
        layers.append(layer)
    return layers


@tolerance(rtol=1e-5, atol=1e-6)
def case_op_layer_constants_config(tf):
    model = _op_layer_model(tf)
    config = model.get_config()
    restored = tf.keras.models.model_from_json(model.to_json())
    x = np.arange(6, dtype="float32").reshape(2, 3)
    restored.compile(tf.keras.optimizers.SGD(0.001), "mse")
    fitted = restored.fit(x, np.ones((2, 2), "float32"), batch_size=2, epochs=2, verbose=0)
    return {"classes": [type(layer).__name__ for layer in model.layers],
            "layers": _sorted_attrs(config),
            "restored": [layer.name for layer in restored.layers],
            "same_config": _sorted_attrs(restored.get_config()) == _sorted_attrs(config),
            "predict": model.predict(x), "restored_predict": restored.predict(x),
            "history": fitted.history}



@tolerance(rtol=1e-5, atol=1e-6)
def case_op_layer_inputs_frozen_at_creation(tf):
    """tf-keras evaluates a raw op's non-Keras inputs (a resource variable, a random op)
    when the Model makes its `tf_op_layer_*`: a later assignment or draw reaches neither
    the config nor a model rebuilt from it; an uninitialized variable fails the Model's
    construction."""
    inp = tf.keras.Input((3,))
    v = tf.Variable([1.0, 2.0, 3.0], name="frozen_var", use_resource=True)
    sess = tf.keras.backend.get_session()
    sess.run(v.initializer)
    drawn = tf.random.uniform([3], seed=1)
    model = tf.keras.Model(inp, tf.add(tf.add(inp, v), drawn))
    sess.run(v.assign([10.0, 10.0, 10.0]))
    first, second = model.get_config(), model.get_config()
    rebuilt = tf.keras.Model.from_config(first)
    x = np.zeros((1, 3), np.float32)
    try:
        tf.keras.Model(inp, tf.add(inp, tf.Variable([1.0, 1.0, 1.0], name="never_init")))
        uninitialized = "no error"
    except Exception as e:  # noqa: BLE001 - the class is the result
        uninitialized = type(e).__name__
    def constants(config):
        return [{str(i): value for i, value in layer["config"]["constants"].items()}
                for layer in config["layers"][1:]]
    return {"constants": constants(first), "second_read": constants(second),
            "rebuilt_predict": rebuilt.predict(x),
            "model_reads_variable": model.predict(x) - rebuilt.predict(x),
            "uninitialized": uninitialized}

def _multi_output(tf, metrics, weighted=None):
    inp = tf.keras.Input((3,), name="x")
    h = tf.keras.layers.Dense(4, activation="relu", kernel_initializer="ones", name="h")(inp)
    a = tf.keras.layers.Dense(1, kernel_initializer="ones", name="a")(h)
    b = tf.keras.layers.Dense(2, activation="softmax", kernel_initializer="ones",
                              name="b")(h)
    model = tf.keras.Model(inp, [a, b])
    model.compile("adam", ["mse", "sparse_categorical_crossentropy"], metrics=metrics,
                  weighted_metrics=weighted)
    return model


def _single_output(tf, metrics, weighted=None):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,),
                                                       kernel_initializer="ones")])
    model.compile("sgd", "mse", metrics=metrics, weighted_metrics=weighted)
    return model


def case_loaded_metrics_names(tf):
    import h5py
    directory = tempfile.mkdtemp()
    x = np.ones((4, 3), "float32")
    out = {}
    try:
        builds = {
            "multi_dict": lambda: _multi_output(tf, {"a": ["mae"], "b": ["acc"]}),
            "multi_weighted": lambda: _multi_output(tf, ["mae"], ["mse"]),
            "multi_nested": lambda: _multi_output(tf, [["mae"], ["acc", "ce"]]),
            "single": lambda: _single_output(
                tf, ["mae", "acc", tf.keras.metrics.AUC(name="auc")]),
            "single_none": lambda: _single_output(tf, None),
        }
        for name, build in builds.items():
            model = build()
            record = {"fresh": model.metrics_names}
            for fmt in ("h5", "tf"):
                path = os.path.join(directory, name + (".h5" if fmt == "h5" else ""))
                model.save(path, save_format=fmt)
                record[f"after_{fmt}_save"] = model.metrics_names
                if fmt == "h5":
                    with h5py.File(path, "r") as f:
                        saved = json.loads(f.attrs["training_config"])
                    record["saved_metrics"] = saved["metrics"]
                    record["saved_weighted"] = saved["weighted_metrics"]
                loaded = tf.keras.models.load_model(path)
                record[f"{fmt}_loaded"] = loaded.metrics_names
                loaded.predict(x)
                record[f"{fmt}_after_predict"] = loaded.metrics_names
            out[name] = record
    finally:
        shutil.rmtree(directory)
    return out
