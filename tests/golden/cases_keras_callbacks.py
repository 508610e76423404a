"""Golden cases: tf.keras callbacks in TF1 graph mode (EarlyStopping, ReduceLROnPlateau,
LearningRateScheduler, TerminateOnNaN, LambdaCallback, CSVLogger, ModelCheckpoint,
TensorBoard event files) and fitting on generators, Sequences and tf.data datasets."""

import os
import tempfile

import numpy as np

from tests.golden.harness import catch, tolerance
from tests.golden.keras_util import captured, data, history, make_recorder, mlp, weights_of


def _compiled(tf, loss="mse", optimizer=None, metrics=("mae",), **kwargs):
    model = mlp(tf, **kwargs)
    model.compile(optimizer or tf.keras.optimizers.SGD(0.05), loss, metrics=list(metrics))
    return model


@tolerance(rtol=2e-5, atol=1e-6)
def case_early_stopping_restore_best(tf):
    model = _compiled(tf, optimizer=tf.keras.optimizers.SGD(0.5))
    x, y = data(12)
    stop = tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=1, verbose=1,
                                            restore_best_weights=True, min_delta=1e-3)
    h, screen = captured(lambda: model.fit(x, y, batch_size=4, epochs=12, verbose=0,
                                           shuffle=False, validation_data=(x[:3], y[:3]),
                                           callbacks=[stop]))
    return {"history": history(h), "screen": screen, "stopped": stop.stopped_epoch,
            "best": stop.best, "weights": weights_of(model), "wait": stop.wait}


@tolerance(rtol=2e-5, atol=1e-6)
def case_reduce_lr_and_scheduler(tf):
    model = _compiled(tf)
    x, y = data(8)
    reduce = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0,
                                                  min_delta=10.0, cooldown=1, verbose=1)
    h, screen = captured(lambda: model.fit(x, y, batch_size=8, epochs=4, verbose=0,
                                           callbacks=[reduce]))
    model2 = _compiled(tf, seed=3)
    sched = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * (epoch + 1) / 2,
                                                     verbose=1)
    old_api = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.01 * (epoch + 1))
    h2, screen2 = captured(lambda: model2.fit(x, y, batch_size=8, epochs=3, verbose=0,
                                              callbacks=[sched]))
    h3 = model2.fit(x, y, batch_size=8, epochs=2, verbose=0, callbacks=[old_api])
    bad = tf.keras.callbacks.LearningRateScheduler(lambda epoch: "x")
    return {"reduce": history(h), "screen": screen, "sched": history(h2),
            "screen2": screen2, "old_api": history(h3),
            "bad": catch(lambda: model2.fit(x, y, verbose=0, callbacks=[bad]), message=True),
            "factor": catch(lambda: tf.keras.callbacks.ReduceLROnPlateau(factor=1.5),
                            message=True)}


def case_terminate_on_nan_and_lambda(tf):
    model = _compiled(tf, optimizer=tf.keras.optimizers.SGD(1e6))
    x, y = data(8)
    events = []
    cb = tf.keras.callbacks.LambdaCallback(
        on_epoch_begin=lambda epoch, logs: events.append(("epoch_begin", epoch)),
        on_batch_end=lambda batch, logs: events.append(("batch_end", batch,
                                                        sorted(logs))),
        on_train_end=lambda logs: events.append(("train_end",)))
    h, screen = captured(lambda: model.fit(x * 100, y, batch_size=2, epochs=3, verbose=0,
                                           shuffle=False,
                                           callbacks=[tf.keras.callbacks.TerminateOnNaN(),
                                                      cb]))
    return {"epochs": h.epoch, "screen": screen, "events": events,
            "nan": [bool(np.isnan(v) or np.isinf(v)) for v in h.history["loss"]]}


def _read(path):
    with open(path) as f:
        return f.read()


@tolerance(rtol=1e-4, atol=1e-6)
def case_csv_logger(tf):
    d = tempfile.mkdtemp()
    path = os.path.join(d, "log.csv")
    model = _compiled(tf, metrics=("mae", "acc"))
    x, y = data(8)
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False,
              validation_data=(x, y), callbacks=[tf.keras.callbacks.CSVLogger(path)])
    first = _read(path)
    model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False,
              callbacks=[tf.keras.callbacks.CSVLogger(path, separator=";", append=True)])
    rows = [line.split(";") if ";" in line else line.split(",")
            for line in _read(path).splitlines()]
    return {"header": first.splitlines()[0],
            "rows": [[r[0]] + [v if v == "NA" else float(v) for v in r[1:]] if i else r
                     for i, r in enumerate(rows)]}


@tolerance(rtol=1e-4, atol=1e-6)
def case_model_checkpoint_weights(tf):
    d = tempfile.mkdtemp()
    model = _compiled(tf)
    x, y = data(8)
    pattern = os.path.join(d, "w.{epoch:02d}-{val_loss:.3f}")
    best = os.path.join(d, "best")
    _, screen = captured(lambda: model.fit(
        x, y, batch_size=4, epochs=3, verbose=0, shuffle=False, validation_data=(x, y),
        callbacks=[tf.keras.callbacks.ModelCheckpoint(pattern, save_weights_only=True),
                   tf.keras.callbacks.ModelCheckpoint(best, save_weights_only=True,
                                                      save_best_only=True,
                                                      monitor="val_mean_absolute_error",
                                                      verbose=1)]))
    # (the data files' names differ: TF's .index/.data-* and tf1compat's .safetensors)
    files = sorted({f.split(".index")[0].split(".data-")[0].split(".safetensors")[0]
                    for f in os.listdir(d)})
    return {"files": files,
            "screen": [line.replace(d, "<dir>") for line in screen],
            "latest": os.path.basename(tf.train.latest_checkpoint(d))}


@tolerance(rtol=1e-4, atol=1e-6)
def case_model_checkpoint_h5(tf):
    d = tempfile.mkdtemp()
    model = _compiled(tf)
    x, y = data(8)
    path = os.path.join(d, "model.{epoch:02d}.h5")
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False,
              callbacks=[tf.keras.callbacks.ModelCheckpoint(path),
                         tf.keras.callbacks.ModelCheckpoint(os.path.join(d, "w.h5"),
                                                            save_weights_only=True,
                                                            save_freq=3)])
    restored = tf.keras.models.load_model(os.path.join(d, "model.02.h5"))
    fresh = mlp(tf, seed=9)
    fresh.load_weights(os.path.join(d, "w.h5"))
    return {"files": sorted(os.listdir(d)), "restored": restored.predict(x),
            "expected": model.predict(x), "fresh": fresh.predict(x),
            "optimizer": restored.optimizer.get_config()}


def _events(tf, log_dir):
    out = []
    for root, _, files in sorted(os.walk(log_dir)):
        for name in sorted(files):
            if not name.startswith("events.out.tfevents"):
                continue
            for event in tf.train.summary_iterator(os.path.join(root, name)):
                values = []
                for v in event.summary.value:
                    kind = "histo" if v.HasField("histo") else (
                        "image" if v.HasField("image") else "simple_value")
                    entry = [v.tag, kind]
                    if kind == "simple_value":
                        entry.append(round(float(v.simple_value), 4))
                    elif kind == "histo":
                        entry.append(int(v.histo.num))
                    values.append(entry)
                out.append({"dir": os.path.relpath(root, log_dir), "step": int(event.step),
                            "graph": bool(event.graph_def), "values": values})
    return out


def case_tensorboard_scalars_and_histograms(tf):
    d = tempfile.mkdtemp()
    model = _compiled(tf)
    x, y = data(8)
    tb = tf.keras.callbacks.TensorBoard(d, histogram_freq=1, profile_batch=0,
                                        update_freq=4)
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False,
              validation_data=(x, y), callbacks=[tb])
    d2 = tempfile.mkdtemp()
    model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False,
              callbacks=[tf.keras.callbacks.TensorBoard(d2, write_graph=False,
                                                        profile_batch=0)])
    return {"events": [e for e in _events(tf, d) if e["values"] or e["graph"]],
            "plain": [e for e in _events(tf, d2) if e["values"] or e["graph"]]}


class _Counter:
    pass


@tolerance(rtol=2e-5, atol=1e-6)
def case_fit_generator_and_sequence(tf):
    x, y = data(12)

    def gen():
        while True:
            for i in range(0, 12, 4):
                yield x[i:i + 4], y[i:i + 4]

    class Batches(tf.keras.utils.Sequence):
        def __init__(self):
            self.epochs = 0

        def __len__(self):
            return 3

        def __getitem__(self, i):
            return x[i * 4:(i + 1) * 4], y[i * 4:(i + 1) * 4]

        def on_epoch_end(self):
            self.epochs += 1

    def constant():
        while True:
            yield x[:5], y[:5]

    model = _compiled(tf)
    # (a validation generator shared between epochs continues where tf-keras's
    # prefetching enqueuer left it: a constant one makes the case independent of that)
    h1, screen1 = captured(lambda: model.fit_generator(gen(), steps_per_epoch=3, epochs=2,
                                                       validation_data=constant(),
                                                       validation_steps=2))
    seq = Batches()
    recorder = make_recorder(tf)()
    h2, screen2 = captured(lambda: model.fit(seq, epochs=2, verbose=2, shuffle=False,
                                             callbacks=[recorder]))
    evaluated = model.evaluate_generator(gen(), steps=3)
    predicted = model.predict_generator(Batches(), steps=2)
    via_fit_eval = model.evaluate(seq, verbose=0)
    return {"h1": history(h1), "screen1": screen1, "h2": history(h2), "screen2": screen2,
            "events": recorder.events, "evaluated": evaluated, "predicted": predicted,
            "via_fit_eval": via_fit_eval,
            "no_steps": catch(lambda: model.fit_generator(gen()), message=True),
            "y_given": catch(lambda: model.fit(gen(), y, steps_per_epoch=1), message=True)}


@tolerance(rtol=2e-5, atol=1e-6)
def case_fit_dataset(tf):
    x, y = data(10)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    model = _compiled(tf)
    h, screen = captured(lambda: model.fit(ds, epochs=2, validation_data=ds))
    evaluated = model.evaluate(ds, verbose=0)
    predicted = model.predict(tf.data.Dataset.from_tensor_slices(x).batch(3))
    repeated = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(5)
    h2, screen2 = captured(lambda: model.fit(repeated, epochs=2, steps_per_epoch=2,
                                             verbose=2))
    return {"history": history(h), "screen": screen, "evaluated": evaluated,
            "predicted": predicted, "h2": history(h2), "screen2": screen2,
            "weights": weights_of(model),
            "needs_steps": catch(lambda: model.fit(repeated, epochs=1, verbose=0),
                                 message=True),
            "y_given": catch(lambda: model.fit(ds, y, verbose=0)),
            "batch_size": catch(lambda: model.fit(ds, batch_size=3, verbose=0))}
