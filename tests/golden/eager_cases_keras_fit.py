"""Eager golden cases: tf.keras compile / fit / evaluate / predict under TF 1.x-style eager
execution (tf-keras's v2 loop): running-mean logs, metric names as given, step-counting
progress bars, callbacks, multi-output models, generators and datasets, saving."""

import os
import tempfile

import numpy as np

from tests.golden.harness import catch
from tests.golden.keras_util import (captured, data, history, make_recorder, mlp,
                                     set_weights, weights_of)


def case_fit_evaluate_predict(tf):
    model = mlp(tf)
    before = model.metrics_names
    model.compile(tf.keras.optimizers.Adam(0.01), "mse", metrics=["mae", "acc"])
    x, y = data(10)
    recorder = make_recorder(tf)()
    h, screen = captured(lambda: model.fit(x, y, batch_size=4, epochs=2, shuffle=False,
                                           validation_data=(x[:3], y[:3]),
                                           callbacks=[recorder]))
    evaluated, eval_screen = captured(lambda: model.evaluate(x, y, batch_size=4))
    predicted, predict_screen = captured(lambda: model.predict(x, batch_size=4))
    return {"before": before, "names": model.metrics_names, "history": history(h),
            "params": {k: v for k, v in sorted(h.params.items())}, "screen": screen,
            "events": recorder.events, "evaluated": evaluated, "eval_screen": eval_screen,
            "predicted": predicted, "predict_screen": predict_screen,
            "weights": weights_of(model),
            "optimizer_weights": [w.name for w in model.optimizer.weights],
            "as_dict": model.evaluate(x, y, verbose=0, return_dict=True)}


def case_on_batch_and_verbose2(tf):
    model = mlp(tf, outputs=3, out_activation="softmax")
    model.compile(tf.keras.optimizers.SGD(0.1, momentum=0.9),
                  "sparse_categorical_crossentropy", metrics=["accuracy"])
    x, labels = data(9, classes=3)
    first = model.train_on_batch(x, labels)
    second = model.train_on_batch(x, labels, reset_metrics=False)
    tested = model.test_on_batch(x, labels)
    as_dict = model.test_on_batch(x, labels, return_dict=True)
    h, screen = captured(lambda: model.fit(x, labels, batch_size=4, epochs=2, verbose=2,
                                           shuffle=False))
    return {"first": first, "second": second, "tested": tested, "as_dict": as_dict,
            "history": history(h), "screen": screen, "predict": model.predict_on_batch(x[:2]),
            "weights": weights_of(model)}


def case_multi_output_and_weights(tf):
    inp = tf.keras.Input((3,))
    hidden = tf.keras.layers.Dense(4, activation="relu", name="hidden")(inp)
    reg = tf.keras.layers.Dense(2, name="reg")(hidden)
    cls = tf.keras.layers.Dense(3, activation="softmax", name="cls")(hidden)
    model = tf.keras.Model(inp, [reg, cls])
    set_weights(model, 3)
    model.compile(tf.keras.optimizers.RMSprop(0.01),
                  loss={"reg": "mse", "cls": "sparse_categorical_crossentropy"},
                  loss_weights=[0.5, 2.0], metrics={"cls": ["acc"], "reg": ["mae"]},
                  weighted_metrics={"cls": ["acc"]})
    x, y_reg = data(8)
    _, y_cls = data(8, classes=3, seed=4)
    weights = np.linspace(0.5, 1.5, 8)
    h = model.fit(x, {"reg": y_reg, "cls": y_cls}, sample_weight=weights, batch_size=3,
                  epochs=2, verbose=0, shuffle=False)
    return {"names": model.metrics_names, "history": history(h),
            "evaluate": model.evaluate(x, [y_reg, y_cls], verbose=0)}


def case_class_weight_and_validation_split(tf):
    model = mlp(tf, outputs=3, out_activation="softmax")
    model.compile("adam", "categorical_crossentropy", metrics=["acc"])
    x, labels = data(12, classes=3)
    y = tf.keras.utils.to_categorical(labels, 3)
    h = model.fit(x, y, class_weight={0: 1.0, 1: 2.0, 2: 0.5}, batch_size=4, epochs=2,
                  verbose=0, shuffle=False, validation_split=0.25)
    return {"history": history(h), "weights": weights_of(model)}


def case_callbacks_and_generators(tf):
    model = mlp(tf)
    model.compile(tf.keras.optimizers.SGD(0.5), "mse")
    x, y = data(12)
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=0, min_delta=1.0,
                                            verbose=1)
    h, screen = captured(lambda: model.fit(x, y, batch_size=6, epochs=5, verbose=0,
                                           shuffle=False, callbacks=[stop]))

    class Batches(tf.keras.utils.Sequence):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return x[i * 4:(i + 1) * 4], y[i * 4:(i + 1) * 4]

    def gen():
        while True:
            for i in range(0, 12, 6):
                yield x[i:i + 6], y[i:i + 6]

    h2, screen2 = captured(lambda: model.fit(Batches(), epochs=2, shuffle=False))
    h3 = model.fit(gen(), steps_per_epoch=2, epochs=1, verbose=0)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(5)
    h4, screen4 = captured(lambda: model.fit(ds, epochs=2, verbose=1))
    return {"stopped": h.epoch, "screen": screen, "h2": history(h2), "screen2": screen2,
            "h3": history(h3), "h4": history(h4), "screen4": screen4,
            "dataset_eval": model.evaluate(ds, verbose=0),
            "dataset_predict": model.predict(tf.data.Dataset.from_tensor_slices(x).batch(5),
                                             verbose=0)}


def case_save_and_load_h5(tf):
    d = tempfile.mkdtemp()
    model = mlp(tf)
    model.compile(tf.keras.optimizers.Adam(0.01), "mse", metrics=["mae"])
    x, y = data(8)
    model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    path = os.path.join(d, "m.h5")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    h = loaded.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    weights_path = os.path.join(d, "w.h5")
    model.save_weights(weights_path)
    other = mlp(tf, seed=4)
    other.load_weights(weights_path)
    return {"loss": h.history["loss"], "continued": weights_of(loaded),
            "reference": weights_of(model), "other": weights_of(other),
            "optimizer": loaded.optimizer.get_config()}


def case_errors(tf):
    model = mlp(tf)
    x, y = data(4)
    uncompiled = catch(lambda: model.fit(x, y, verbose=0), message=True)
    model.compile("sgd")
    return {"uncompiled": uncompiled,
            "no_loss": catch(lambda: model.fit(x, y, verbose=0)),
            "targets": catch(lambda: mlp(tf).compile("sgd", "mse", target_tensors=[x]),
                             message=True)}


def case_optimizers(tf):
    x, y = data(8)
    out = {}
    for name in ("sgd", "rmsprop", "adagrad", "adadelta", "adam", "adamax", "nadam", "ftrl"):
        model = mlp(tf)
        model.compile(name, "mse")
        h = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
        out[name] = {"loss": history(h)["loss"], "weights": weights_of(model),
                     "optimizer_weights": [w.name for w in model.optimizer.weights]}
    model = mlp(tf)
    model.compile(tf.keras.optimizers.Adam(0.05, amsgrad=True), "mae")
    h = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    out["amsgrad"] = {"loss": history(h)["loss"], "weights": weights_of(model)}
    model = mlp(tf)
    model.compile(tf.train.GradientDescentOptimizer(0.1), "mse")
    h = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    out["tf_train"] = {"loss": history(h)["loss"], "weights": weights_of(model)}
    return out


def case_new_layers_eager(tf):
    """Normalization.adapt (eager only), MultiHeadAttention and a ConvLSTM2D trained
    under eager execution."""
    L = tf.keras.layers
    rng = np.random.RandomState(41)
    values = (rng.randn(70, 3) * [1.0, 2.0, 3.0] + [0.0, 5.0, -1.0]).astype(np.float32)
    norm = L.Normalization()
    norm.adapt(values)
    whole = L.Normalization(axis=None)
    whole.adapt(values, batch_size=16)
    q = rng.randn(2, 4, 6).astype(np.float32)
    attention = L.MultiHeadAttention(2, 3)
    out, scores = attention(q, q, return_attention_scores=True)
    set_weights(attention, 3)
    out, scores = attention(q, q, return_attention_scores=True)
    x = rng.randn(6, 3, 5, 4, 2).astype(np.float32)
    y = rng.randn(6, 1).astype(np.float32)
    model = tf.keras.Sequential([L.ConvLSTM2D(2, 3, input_shape=(3, 5, 4, 2)), L.Flatten(),
                                 L.Dense(1)])
    set_weights(model, 4)
    model.compile("sgd", "mse")
    h = model.fit(x, y, batch_size=3, epochs=2, verbose=0, shuffle=False)
    return {"adapted": [np.asarray(w, np.float64) for w in norm.get_weights()],
            "normalized": np.asarray(norm(values[:3]), np.float64),
            "adapted_whole": [np.asarray(w, np.float64) for w in whole.get_weights()],
            "attention": np.asarray(out, np.float64), "scores": np.asarray(scores, np.float64),
            "attention_weights": [w.name for w in attention.weights],
            "history": history(h), "weights": weights_of(model)}


def case_recurrent_fit_eager(tf):
    """Recurrent layers train under eager execution (gradients through the loop's
    TensorArrays), with a masked embedding."""
    L = tf.keras.layers
    tokens = np.array([[3, 1, 4, 0], [2, 2, 0, 0], [5, 1, 2, 3]], np.int32)
    y = np.random.RandomState(43).randn(3, 2).astype(np.float32)
    model = tf.keras.Sequential([L.Embedding(6, 4, mask_zero=True, input_length=4),
                                 L.LSTM(3, return_sequences=True), L.GRU(2)])
    set_weights(model, 6)
    model.compile(tf.keras.optimizers.Adam(0.05), "mse")
    h = model.fit(tokens, y, batch_size=2, epochs=3, verbose=0, shuffle=False)
    return {"history": history(h), "weights": weights_of(model)}


def case_confusion_metrics_eager(tf):
    """AUC / Precision / Recall as compile metrics and standalone under eager execution."""
    M = tf.keras.metrics
    rng = np.random.RandomState(44)
    y_true = (rng.rand(30, 2) > 0.5).astype(np.float32)
    y_pred = rng.rand(30, 2).astype(np.float32)
    auc = M.AUC(num_thresholds=50)
    auc.update_state(y_true, y_pred)
    precision = M.Precision(thresholds=[0.3, 0.6])
    precision.update_state(y_true, y_pred, sample_weight=rng.rand(30).astype(np.float32))
    x = tf.keras.layers.Input((2,))
    model = tf.keras.Model(x, tf.keras.layers.Dense(2, activation="sigmoid")(x))
    set_weights(model, 7)
    model.compile("sgd", "binary_crossentropy", metrics=[M.AUC(), M.Recall()])
    h = model.fit(y_pred, y_true, epochs=2, batch_size=10, verbose=0, shuffle=False)
    return {"auc": float(auc.result()), "precision": np.asarray(precision.result()),
            "history": history(h), "names": model.metrics_names}


def case_losses_on_eager_activation_outputs(tf):
    # Keras' sigmoid / softmax outputs carry their logits to the losses under eager
    # execution too (a saturated sigmoid gives a different loss through probabilities);
    # a plain tf.sigmoid output has none.
    x = tf.constant([[9.0], [-8.5], [0.3]])
    y = tf.constant([[0.], [1.], [1.]])
    keras_sigmoid = tf.keras.activations.sigmoid(x)
    softmax = tf.keras.activations.softmax(tf.constant([[12., -3., 0.5]]))
    return {"keras_sigmoid": tf.keras.losses.binary_crossentropy(y, keras_sigmoid).numpy(),
            "plain_sigmoid": tf.keras.backend.binary_crossentropy(y, tf.sigmoid(x)).numpy(),
            "softmax": tf.keras.losses.categorical_crossentropy(
                tf.constant([[0., 1., 0.]]), softmax).numpy()}
