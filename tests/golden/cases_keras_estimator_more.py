"""Golden cases: tf.keras.estimator.model_to_estimator beyond cases_keras_estimator —
batch normalization and dropout (update ops, learning phase), a functional model with two
inputs fed as a tuple and two outputs (loss dict and weights, per-output metric keys),
custom_objects for a custom activation, warm start from weights fitted by Keras, and the
variable names of the first checkpoint with Adam (recorded under TF 2.15 +
tensorflow-estimator)."""

import os

import numpy as np

from tests.golden.estimator_util import as_py, model_dir

TF_VERSION = "2.15"

_X = np.linspace(-1, 1, 48, dtype=np.float32).reshape(16, 3)
_Y = (_X @ np.array([[0.5], [-1.], [2.]], np.float32) > 0.1).astype(np.float32)


def _weights(model):
    """Deterministic weights for every variable of `model` (by shape)."""
    out = []
    for i, w in enumerate(model.get_weights()):
        n = int(np.prod(w.shape))
        values = np.sin(np.arange(n, dtype=np.float32) * 0.7 + i).reshape(w.shape) * 0.5
        out.append(values.astype(np.float32))
    return out


def _variables(est):
    names = sorted(est.get_variable_names())
    return names, [est.get_variable_value(n) for n in names
                   if not n.startswith("training/") and "global_step" not in n
                   and "iter" not in n]


def case_batch_norm_and_dropout(tf):
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(4, input_shape=(3,)),
        tf.keras.layers.BatchNormalization(momentum=0.5),
        tf.keras.layers.Activation("relu"),
        tf.keras.layers.Dropout(0.0),
        tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(tf.keras.optimizers.SGD(0.2), "binary_crossentropy",
                  metrics=["accuracy"])
    model.set_weights(_weights(model))
    with model_dir() as d:
        est = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir=d)
        est.train(lambda: tf.data.Dataset.from_tensor_slices((_X, _Y)).batch(8), steps=2)
        names, values = _variables(est)
        return {"eval": as_py(est.evaluate(
                    lambda: tf.data.Dataset.from_tensor_slices((_X, _Y)).batch(16))),
                "predict": as_py(list(est.predict(
                    lambda: tf.data.Dataset.from_tensor_slices(_X[:4]).batch(4)))),
                "variables": names, "values": as_py(values)}


def case_two_inputs_two_outputs(tf):
    a = tf.keras.Input(shape=(2,), name="in_a")
    b = tf.keras.Input(shape=(1,), name="in_b")
    h = tf.keras.layers.Dense(3, activation="tanh", name="hidden")(
        tf.keras.layers.Concatenate()([a, b]))
    reg = tf.keras.layers.Dense(1, name="reg")(h)
    cls = tf.keras.layers.Dense(1, activation="sigmoid", name="cls")(h)
    model = tf.keras.Model([a, b], [reg, cls])
    model.compile(tf.keras.optimizers.SGD(0.1),
                  loss={"reg": "mse", "cls": "binary_crossentropy"},
                  loss_weights={"reg": 0.5, "cls": 2.0},
                  metrics={"reg": ["mae"], "cls": ["accuracy"]})
    model.set_weights(_weights(model))
    y_reg = _X.sum(axis=1, keepdims=True)

    def train_input():
        return tf.data.Dataset.from_tensor_slices(
            ((_X[:, :2], _X[:, 2:]), {"reg": y_reg, "cls": _Y})).batch(4)

    with model_dir() as d:
        est = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir=d)
        est.train(train_input)
        names, values = _variables(est)
        return {"eval": as_py(est.evaluate(train_input)),
                # A tuple from predict's input_fn would be (features, labels).
                "predict": as_py(list(est.predict(
                    lambda: tf.data.Dataset.from_tensor_slices(
                        {"in_a": _X[:3, :2], "in_b": _X[:3, 2:]}).batch(3)))),
                "variables": names, "values": as_py(values)}


def case_custom_objects(tf):
    def scaled_tanh(x):
        return 1.5 * tf.tanh(x)

    model = tf.keras.Sequential([
        tf.keras.layers.Dense(4, activation=scaled_tanh, input_shape=(3,)),
        tf.keras.layers.Dense(1)])
    model.compile(tf.keras.optimizers.SGD(0.05), "mse")
    model.set_weights(_weights(model))
    with model_dir() as d:
        est = tf.keras.estimator.model_to_estimator(
            keras_model=model, model_dir=d, custom_objects={"scaled_tanh": scaled_tanh})
        est.train(lambda: tf.data.Dataset.from_tensor_slices((_X, _Y)).batch(8))
        return {"eval": as_py(est.evaluate(
                    lambda: tf.data.Dataset.from_tensor_slices((_X, _Y)).batch(16))),
                "predict": as_py(list(est.predict(
                    lambda: tf.data.Dataset.from_tensor_slices(_X[:2]).batch(2))))}


def case_warm_start_from_keras_fit(tf):
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(4, activation="relu", input_shape=(3,)),
        tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(tf.keras.optimizers.Adam(0.05), "binary_crossentropy",
                  metrics=["accuracy", "mse"])
    model.set_weights(_weights(model))
    model.fit(_X, _Y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    keras_eval = model.evaluate(_X, _Y, batch_size=16, verbose=0)
    with model_dir() as d:
        est = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir=d)
        # float(): TF 2.15's Keras returns the loss as float64, tf-keras 2.21 float32.
        out = {"keras_eval": [float(v) for v in keras_eval],
               "eval": as_py(est.evaluate(
                   lambda: tf.data.Dataset.from_tensor_slices((_X, _Y)).batch(16))),
               "keras_ckpt": sorted(n for n, _ in tf.train.list_variables(
                   os.path.join(d, "keras", "keras_model.ckpt")))}
        est.train(lambda: tf.data.Dataset.from_tensor_slices((_X, _Y)).batch(4), steps=2)
        names, values = _variables(est)
        out.update(variables=names, values=as_py(values))
    return out
