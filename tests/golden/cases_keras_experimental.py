"""Golden cases: tf.keras.experimental (tf-keras 2.21 under TF1 behaviour) — CosineDecay /
CosineDecayRestarts (the schedules' classes), LinearModel and WideDeepModel trained with
the v1 fit loop (weights, history, predictions, configs), SequenceFeatures on sequence
feature columns (output, sequence length, variable names)."""

import numpy as np

from tests.golden.harness import catch, tolerance

_X = np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3)
_Y = (_X @ np.array([[0.5], [-1.], [2.]], np.float32) + 0.3).astype(np.float32)


def _fit(model, x, y, epochs=3):
    h = model.fit(x, y, batch_size=4, epochs=epochs, verbose=0, shuffle=False)
    return {k: [float(v) for v in vals] for k, vals in h.history.items()}


def case_schedules_are_the_optimizer_schedules(tf):
    cd = tf.keras.experimental.CosineDecay(0.1, 10, alpha=0.1)
    cdr = tf.keras.experimental.CosineDecayRestarts(0.1, 4, t_mul=2.0, m_mul=0.5)
    steps = [0, 3, 7, 10, 15]
    values = [[cd(s) for s in steps], [cdr(s) for s in steps]]
    with tf.Session() as sess:
        values = sess.run(values)
    return {"same": [tf.keras.experimental.CosineDecay is
                     tf.keras.optimizers.schedules.CosineDecay,
                     tf.keras.experimental.CosineDecayRestarts is
                     tf.keras.optimizers.schedules.CosineDecayRestarts],
            "values": values, "configs": [cd.get_config(), cdr.get_config()]}


@tolerance(rtol=1e-5, atol=1e-6)
def case_linear_model_fit(tf):
    model = tf.keras.experimental.LinearModel()
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    out = {"history": _fit(model, _X, _Y)}
    out["weights"] = [[w.name, w.shape.as_list()] for w in model.weights]
    out["values"] = model.get_weights()
    out["predict"] = model.predict(_X[:3])
    config = model.get_config()
    out["config"] = {k: config[k] for k in ("units", "activation", "use_bias", "name")}
    out["layers"] = [layer.name for layer in model.layers]
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_linear_model_dict_inputs(tf):
    model = tf.keras.experimental.LinearModel(units=2, activation="sigmoid",
                                              kernel_initializer="ones",
                                              bias_initializer="zeros")
    model.compile(tf.keras.optimizers.Adam(0.05), "binary_crossentropy")
    x = {"b": _X[:, :1], "a": _X[:, 1:]}
    y = np.concatenate([_Y > 0, _Y < 0.5], 1).astype(np.float32)
    out = {"history": _fit(model, x, y, epochs=2)}
    out["weights"] = [w.name for w in model.weights]
    out["values"] = model.get_weights()
    out["predict"] = model.predict({"a": _X[:2, 1:], "b": _X[:2, :1]})
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_wide_deep_one_optimizer(tf):
    linear = tf.keras.experimental.LinearModel()
    dnn = tf.keras.Sequential([tf.keras.layers.Dense(
        1, kernel_initializer=tf.keras.initializers.Constant([[0.1], [0.2], [-0.3]]))])
    model = tf.keras.experimental.WideDeepModel(linear, dnn)
    model.compile(tf.keras.optimizers.SGD(0.05), "mse", metrics=["mae"])
    out = {"history": _fit(model, _X, _Y)}
    out["weights"] = [w.name for w in model.weights]
    out["values"] = model.get_weights()
    out["predict"] = model.predict(_X[:3])
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_wide_deep_two_optimizers_two_inputs(tf):
    linear = tf.keras.experimental.LinearModel()
    dnn = tf.keras.Sequential([tf.keras.layers.Dense(
        1, kernel_initializer=tf.keras.initializers.Constant([[0.4], [-0.2]]))])
    model = tf.keras.experimental.WideDeepModel(linear, dnn, activation="sigmoid")
    model.compile([tf.keras.optimizers.SGD(0.2), tf.keras.optimizers.Adam(0.05)],
                  "binary_crossentropy")
    y = (_Y > 0.3).astype(np.float32)
    out = {"history": _fit(model, [_X[:, :1], _X[:, 1:]], y)}
    out["weights"] = [w.name for w in model.weights]
    out["values"] = model.get_weights()
    out["optimizer_weights"] = sorted(v.name for v in tf.global_variables()
                                      if v.name.startswith("training"))
    return out


def _sequence_features(tf):
    ids = tf.SparseTensor(indices=[[0, 0], [0, 1], [1, 0], [2, 0], [2, 1], [2, 2]],
                          values=np.array([1, 2, 0, 3, 1, 2], np.int64),
                          dense_shape=[3, 3])
    nums = tf.SparseTensor(indices=[[0, 0], [0, 1], [1, 0], [2, 0], [2, 1], [2, 2]],
                           values=np.array([1., 2., 3., 4., 5., 6.], np.float32),
                           dense_shape=[3, 3])
    return {"tok": ids, "num": nums}


def case_sequence_features(tf):
    fc = tf.feature_column
    tok = fc.sequence_categorical_column_with_identity("tok", num_buckets=4)
    columns = [fc.embedding_column(tok, dimension=2,
                                   initializer=tf.constant_initializer(
                                       np.arange(8, dtype=np.float32).reshape(4, 2) / 8)),
               fc.sequence_numeric_column("num"), fc.indicator_column(tok)]
    layer = tf.keras.experimental.SequenceFeatures(columns)
    seq, length = layer(_sequence_features(tf))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([seq, length])
    return {"values": values, "shape": seq.shape.as_list(), "length_shape":
            length.shape.as_list(), "name": layer.name,
            "weights": [w.name for w in layer.weights],
            "globals": [v.name for v in tf.global_variables()]}


def case_sequence_features_errors(tf):
    fc = tf.feature_column
    return [catch(lambda: tf.keras.experimental.SequenceFeatures(
                [fc.numeric_column("x")])),
            catch(lambda: tf.keras.experimental.SequenceFeatures(
                [fc.sequence_numeric_column("num")])(np.zeros((2, 2), np.float32)))]
