"""Golden cases: three TF1-style Keras training scripts end to end (graph mode; the first
two are replayed under eager execution by eager_cases_keras_real_scripts): `fit` with
ModelCheckpoint, EarlyStopping, ReduceLROnPlateau, LearningRateScheduler, CSVLogger,
TensorBoard, TerminateOnNaN and custom callbacks; what they print (times masked), the
history, the files they write, the callback order, evaluate/predict, a multi-output
functional model saved to `.h5` and loaded back, and a Session-style script with a
`Sequence`, `fit_generator` and TensorBoard histograms."""

import contextlib
import glob
import io
import os
import re
import shutil
import tempfile

import numpy as np

from tests.golden.harness import tolerance

_TIMES = re.compile(r"\d+(\.\d+)?(s|ms|us)(/(epoch|step|sample))?")


@contextlib.contextmanager
def _workdir():
    path = tempfile.mkdtemp(prefix="keras_script_")
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _printed(buffer, workdir):
    text = _TIMES.sub("T", buffer.getvalue().replace(workdir, "<dir>"))
    return [line for line in text.splitlines() if line.strip()]


def _csv(path):
    rows = [line.split(",") for line in open(path).read().splitlines()]
    return [rows[0]] + [[float(v) for v in row] for row in rows[1:]]


@tolerance(rtol=1e-4, atol=1e-5)
def case_mlp_with_callbacks(tf):
    keras = tf.keras
    keras.backend.clear_session()
    rng = np.random.RandomState(0)
    x = rng.randn(64, 6).astype(np.float32)
    y = np.argmax(x @ rng.randn(6, 3) + 0.5 * rng.randn(64, 3), 1)
    xv, yv, x, y = x[:16], y[:16], x[16:], y[16:]
    init = keras.initializers.glorot_uniform
    model = keras.Sequential([
        keras.layers.Dense(8, activation="relu", input_shape=(6,), kernel_initializer=init(1)),
        keras.layers.Dropout(0.0),
        keras.layers.Dense(3, activation="softmax", kernel_initializer=init(2))])
    model.compile(optimizer=keras.optimizers.Adam(0.05),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    epochs = []
    with _workdir() as workdir:
        callbacks = [
            keras.callbacks.ModelCheckpoint(
                os.path.join(workdir, "w.{epoch:02d}-{val_loss:.3f}.h5"), monitor="val_loss",
                save_best_only=True, save_weights_only=True, verbose=1),
            keras.callbacks.EarlyStopping(monitor="val_loss", patience=2, min_delta=0.01,
                                          restore_best_weights=True, verbose=1),
            keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.5, patience=1,
                                              min_lr=0.001, verbose=1),
            keras.callbacks.CSVLogger(os.path.join(workdir, "log.csv")),
            keras.callbacks.LambdaCallback(
                on_epoch_end=lambda e, logs: epochs.append((e, sorted(logs))))]
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            history = model.fit(x, y, batch_size=16, epochs=12, validation_data=(xv, yv),
                                callbacks=callbacks, verbose=2, shuffle=False)
        return {"printed": _printed(buffer, workdir), "history": history.history,
                "epoch": history.epoch, "epochs": epochs,
                "evaluate": model.evaluate(xv, yv, verbose=0),
                "predict": model.predict(xv[:3], verbose=0),
                "lr": float(keras.backend.get_value(model.optimizer.lr)),
                "files": sorted(os.listdir(workdir)),
                "csv": _csv(os.path.join(workdir, "log.csv"))}


@tolerance(rtol=1e-4, atol=1e-5)
def case_multi_output_functional_h5(tf):
    keras, layers = tf.keras, tf.keras.layers
    keras.backend.clear_session()
    rng = np.random.RandomState(1)
    x = rng.rand(40, 8, 8, 1).astype(np.float32)
    y = (x.mean(axis=(1, 2, 3)) > 0.5).astype(np.int64)
    y2 = x.reshape(40, -1)[:, :2].astype(np.float32)

    def init(seed):
        return keras.initializers.glorot_uniform(seed=seed)
    inp = layers.Input((8, 8, 1), name="img")
    h = layers.Conv2D(4, 3, activation="relu", kernel_initializer=init(1), name="c1")(inp)
    h = layers.Flatten()(layers.MaxPooling2D(2)(h))
    h = layers.Dense(8, activation="tanh", kernel_initializer=init(2), name="d1")(h)
    outputs = [layers.Dense(2, activation="softmax", kernel_initializer=init(3), name="cls")(h),
               layers.Dense(2, kernel_initializer=init(4), name="reg")(h)]
    model = keras.Model(inp, outputs)
    model.compile(keras.optimizers.SGD(0.1, momentum=0.9),
                  loss={"cls": "sparse_categorical_crossentropy", "reg": "mse"},
                  loss_weights={"cls": 1.0, "reg": 0.5},
                  metrics={"cls": ["accuracy"], "reg": ["mae"]})
    order = []

    class Recorder(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            order.append("train_begin")

        def on_epoch_begin(self, epoch, logs=None):
            order.append(f"epoch_begin{epoch}")

        def on_train_batch_end(self, batch, logs=None):
            order.append(f"batch{batch}:" + ",".join(sorted(logs)))

        def on_test_begin(self, logs=None):
            order.append("test_begin")

        def on_epoch_end(self, epoch, logs=None):
            order.append(f"epoch_end{epoch}:" + ",".join(sorted(logs)))

        def on_train_end(self, logs=None):
            order.append("train_end")
    with _workdir() as workdir:
        callbacks = [
            keras.callbacks.LearningRateScheduler(lambda e, lr: lr * 0.5 if e >= 1 else lr,
                                                  verbose=1),
            keras.callbacks.ModelCheckpoint(os.path.join(workdir, "m.h5"), monitor="val_loss",
                                            save_best_only=True),
            keras.callbacks.TerminateOnNaN(),
            keras.callbacks.CSVLogger(os.path.join(workdir, "l.csv"), separator=";"),
            Recorder()]
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            history = model.fit(x, {"cls": y, "reg": y2}, batch_size=10, epochs=3,
                                validation_split=0.25, callbacks=callbacks, verbose=0,
                                shuffle=False)
        loaded = keras.models.load_model(os.path.join(workdir, "m.h5"))
        return {"printed": _printed(buffer, workdir), "history": history.history,
                "order": order, "metrics_names": model.metrics_names,
                "evaluate": model.evaluate(x[:10], [y[:10], y2[:10]], verbose=0),
                "csv_header": open(os.path.join(workdir, "l.csv")).readline().strip(),
                "loaded_layers": [layer.name for layer in loaded.layers],
                "loaded_optimizer": [type(loaded.optimizer).__name__,
                                     float(loaded.optimizer.get_config()["momentum"])],
                "loaded_predict": loaded.predict(x[:2], verbose=0),
                "lr": float(keras.backend.get_value(model.optimizer.lr))}


@tolerance(rtol=1e-4, atol=1e-5)
def case_session_sequence_tensorboard(tf):
    keras = tf.keras
    keras.backend.clear_session()
    sess = tf.Session()
    keras.backend.set_session(sess)
    rng = np.random.RandomState(3)
    x = rng.randn(60, 5).astype(np.float32)
    y = (x @ rng.randn(5, 1) + 0.1).astype(np.float32)

    class Batches(keras.utils.Sequence):
        def __len__(self):
            return 6

        def __getitem__(self, i):
            return x[i * 10:(i + 1) * 10], y[i * 10:(i + 1) * 10]
    init = keras.initializers.glorot_uniform
    model = keras.Sequential([
        keras.layers.Dense(6, activation="relu", input_shape=(5,), kernel_initializer=init(5),
                           name="h"),
        keras.layers.Dense(1, kernel_initializer=init(6), name="o")])
    model.compile(tf.train.AdamOptimizer(0.01), loss="mse", metrics=["mae"])
    with _workdir() as workdir:
        callbacks = [
            keras.callbacks.EarlyStopping(monitor="loss", baseline=100.0, patience=1),
            keras.callbacks.TensorBoard(os.path.join(workdir, "tb"), histogram_freq=1,
                                        write_graph=True),
            keras.callbacks.ModelCheckpoint(os.path.join(workdir, "ck_{epoch}"),
                                            save_weights_only=True)]
        history = model.fit_generator(Batches(), epochs=4, verbose=0, callbacks=callbacks,
                                      validation_data=(x[:20], y[:20]), shuffle=False)
        tags = set()
        for path in glob.glob(os.path.join(workdir, "tb", "events*")):
            for event in tf.train.summary_iterator(path):
                tags.update((v.tag, event.step) for v in event.summary.value)
                if event.graph_def:
                    tags.add(("graph", event.step))
        weights = sess.run(model.weights[0])
        model.load_weights(os.path.join(workdir, "ck_2"))
        return {"history": history.history,
                "evaluate": model.evaluate_generator(Batches()),
                "predict": model.predict_generator(Batches())[:3],
                "files": sorted(f for f in os.listdir(workdir)),
                "tensorboard": sorted(tags),
                "ck_2_differs": bool(np.abs(sess.run(model.weights[0]) - weights).max() > 0)}
