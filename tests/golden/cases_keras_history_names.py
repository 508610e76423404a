"""Golden cases: the names tf-keras's v1 loop writes, swept over a table of small models
(Keras 2.3-era scripts read them back): `fit` history keys (`acc` for "accuracy",
`mean_absolute_error` for "mae", `val_` keys, multi-output `<output>_loss` and
`<output>_<metric>`, weighted metrics), `metrics_names`, `evaluate`'s values, and the
variable names of the common layers under default naming."""

import numpy as np

from tests.golden.harness import catch, tolerance
from tests.golden.keras_util import set_weights

_METRICS = {
    "accuracy": ["accuracy"], "acc": ["acc"], "mae_mse": ["mae", "mse"],
    "long_names": ["mean_absolute_error", "mean_squared_logarithmic_error",
                   "cosine_similarity", "mean_absolute_percentage_error"],
    "loss_functions": ["hinge", "squared_hinge", "categorical_hinge", "poisson", "logcosh",
                       "log_cosh", "kullback_leibler_divergence"],
    "upper_case": ["MSE", "MAE", "MAPE", "MSLE", "ACC", "BCE"],
    "categorical": ["categorical_accuracy", "top_k_categorical_accuracy"],
    "crossentropy": ["categorical_crossentropy", "ce"],
    "functions": "functions", "objects": "objects", "custom": "custom",
}


def _metric_list(tf, kind):
    if isinstance(_METRICS[kind], list):
        return _METRICS[kind]
    if kind == "functions":
        return [tf.keras.metrics.mean_absolute_error, tf.keras.losses.mean_squared_error,
                tf.keras.metrics.categorical_accuracy]
    if kind == "objects":
        return [tf.keras.metrics.CategoricalAccuracy(), tf.keras.metrics.AUC(),
                tf.keras.metrics.MeanSquaredError(name="my_mse"), tf.keras.metrics.Precision()]

    def custom_metric(y_true, y_pred):
        return tf.reduce_mean(y_pred)
    return [custom_metric]


def _classifier(tf, loss="categorical_crossentropy", activation="softmax"):
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu",
                                                       input_shape=(3,)),
                                 tf.keras.layers.Dense(3, activation=activation)])
    set_weights(model, 2)
    return model


def _data():
    rng = np.random.RandomState(3)
    x = rng.randn(10, 3).astype(np.float32)
    labels = rng.randint(0, 3, size=10)
    return x, labels, np.eye(3, dtype=np.float32)[labels]


def _run(model, x, y, **fit_kwargs):
    history = model.fit(x, y, batch_size=5, epochs=1, verbose=0, shuffle=False,
                        **fit_kwargs)
    return {"history": list(history.history), "metrics_names": list(model.metrics_names),
            "evaluate": np.asarray(model.evaluate(x, y, verbose=0), np.float64)}


@tolerance(rtol=1e-4, atol=1e-6)
def case_single_output_metric_names(tf):
    x, _, onehot = _data()
    out = {}
    for kind in _METRICS:
        tf.reset_default_graph()
        tf.keras.backend.clear_session()
        model = _classifier(tf)
        out[kind] = catch(lambda: (model.compile("sgd", "categorical_crossentropy",
                                                 metrics=_metric_list(tf, kind)),
                                   _run(model, x, onehot, validation_split=0.4))[1],
                          message=True)
    return out


@tolerance(rtol=1e-4, atol=1e-6)
def case_accuracy_by_loss(tf):
    """"accuracy"/"acc" become binary, categorical or sparse accuracy by the loss, all
    logged as `acc`; `weighted_metrics` as `weighted_acc`."""
    x, labels, onehot = _data()
    out = {}
    for loss, target, activation in (
            ("binary_crossentropy", (labels > 0).astype(np.float32)[:, None], "sigmoid"),
            ("sparse_categorical_crossentropy", labels, "softmax"),
            ("categorical_crossentropy", onehot, "softmax"),
            ("mse", onehot, None)):
        tf.reset_default_graph()
        tf.keras.backend.clear_session()
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(4, activation="relu", input_shape=(3,)),
            tf.keras.layers.Dense(1 if activation == "sigmoid" else 3,
                                  activation=activation)])
        set_weights(model, 4)
        model.compile("adam", loss, metrics=["accuracy"], weighted_metrics=["acc"])
        out[loss] = catch(lambda: _run(model, x, target,
                                       validation_data=(x[:4], target[:4])))
    return out


@tolerance(rtol=1e-4, atol=1e-6)
def case_multi_output_names(tf):
    x, labels, onehot = _data()
    target = (labels > 0).astype(np.float32)[:, None]
    out = {}
    for name, named, metrics, loss_weights in (
            ("named_list", True, ["accuracy"], None),
            ("named_dict", True, {"cls": ["acc", "mae"], "reg": "mse"}, {"cls": 1.0,
                                                                         "reg": 0.5}),
            ("default_names", False, ["mae"], [0.3, 0.7]),
            ("nested_lists", False, [["accuracy"], ["mse", "mae"]], None)):
        tf.reset_default_graph()
        tf.keras.backend.clear_session()
        inp = tf.keras.Input((3,))
        hidden = tf.keras.layers.Dense(4, activation="tanh")(inp)
        cls = tf.keras.layers.Dense(3, activation="softmax",
                                    name="cls" if named else None)(hidden)
        reg = tf.keras.layers.Dense(1, name="reg" if named else None)(hidden)
        model = tf.keras.Model(inp, [cls, reg])
        set_weights(model, 6)
        model.compile("rmsprop", ["categorical_crossentropy", "mse"], metrics=metrics,
                      loss_weights=loss_weights)
        out[name] = catch(lambda: _run(model, x, [onehot, target], validation_split=0.4))
        out[name + "_outputs"] = list(model.output_names)
    return out


def case_layer_weight_names(tf):
    """Variable names of the common layers, made twice each (the `_1` suffixes)."""
    L = tf.keras.layers
    makers = [lambda: L.Dense(2), lambda: L.Conv2D(2, 3), lambda: L.BatchNormalization(),
              lambda: L.LSTM(2), lambda: L.GRU(2), lambda: L.SimpleRNN(2),
              lambda: L.Embedding(5, 2), lambda: L.Conv1D(2, 2),
              lambda: L.SeparableConv2D(2, 3), lambda: L.DepthwiseConv2D(3),
              lambda: L.Conv2DTranspose(2, 3), lambda: L.LayerNormalization(),
              lambda: L.PReLU(), lambda: L.Bidirectional(L.LSTM(2)),
              lambda: L.TimeDistributed(L.Dense(2))]
    shapes = {"Conv2D": (6, 6, 1), "SeparableConv2D": (6, 6, 1), "DepthwiseConv2D": (6, 6, 1),
              "Conv2DTranspose": (6, 6, 1), "LSTM": (4, 3), "GRU": (4, 3),
              "SimpleRNN": (4, 3), "Conv1D": (4, 3), "Bidirectional": (4, 3),
              "TimeDistributed": (4, 3), "Embedding": (4,)}
    out = {}
    for make in makers:
        for _ in range(2):
            layer = make()
            kind = type(layer).__name__
            inp = tf.keras.Input(shapes.get(kind, (3,)),
                                 dtype="int32" if kind == "Embedding" else "float32")
            layer(inp)
            out.setdefault(kind, []).append({"layer": layer.name,
                                             "weights": [w.name for w in layer.weights]})
    return out
