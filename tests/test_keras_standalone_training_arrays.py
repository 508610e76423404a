"""`keras.engine.training_arrays` of standalone Keras 2.2.4 (fit_loop / test_loop /
predict_loop, tf1compat/keras/legacy/training_arrays.py), called the way 2018-era scripts
call them: with `model.train_function` / `test_function` / `predict_function` and the flat
`ins` list. Unshuffled, the loops must give exactly what `model.fit` / `evaluate` /
`predict` give (those are held to tf-keras's goldens elsewhere), and the batch logs,
validation keys and averaging must follow Keras 2.2.4's fit_loop/test_loop (tag 2.2.4)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from tests.child_env import child_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_SCRIPT = textwrap.dedent("""
    import json
    import numpy as np
    import tf1compat; tf1compat.install()
    import tensorflow as tf
    tf.compat.v1.disable_v2_behavior()
    import keras
    from keras import backend as K
    from keras.engine import training_arrays
    from keras.callbacks import Callback

    def build():
        K.clear_session()
        model = keras.models.Sequential([
            keras.layers.Dense(4, activation="tanh", input_shape=(3,),
                               kernel_initializer=keras.initializers.Constant(0.1)),
            keras.layers.Dense(1, kernel_initializer=keras.initializers.Constant(-0.2))])
        model.compile(keras.optimizers.SGD(lr=0.1), "mse", metrics=["mae"])
        return model

    rng = np.random.RandomState(0)
    x = rng.rand(10, 3).astype("float32")
    y = rng.rand(10, 1).astype("float32")
    vx, vy = x[:4], y[:4]
    out = {}

    model = build()
    hist = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0,
                     validation_data=(vx, vy))
    out["fit"] = {k: [float(v) for v in vals] for k, vals in hist.history.items()}
    out["evaluate"] = [float(v) for v in model.evaluate(x, y, batch_size=3, verbose=0)]
    out["predict"] = model.predict(x, batch_size=3).ravel().tolist()

    class Batches(Callback):
        def on_batch_end(self, batch, logs=None):
            seen.append(sorted(logs))

    seen = []
    model = build()
    model._make_train_function()
    model._make_test_function()
    model._make_predict_function()
    w = np.ones((10,), "float32")
    ins = [x, y, w]
    val_ins = [vx, vy, np.ones((4,), "float32")]
    hist = training_arrays.fit_loop(
        model, model.train_function, ins, out_labels=model.metrics_names, batch_size=4,
        epochs=2, verbose=0, callbacks=[Batches()], val_f=model.test_function,
        val_ins=val_ins, shuffle=False,
        callback_metrics=model.metrics_names + ["val_" + n for n in model.metrics_names])
    assert hist is model.history
    out["fit_loop"] = {k: [float(v) for v in vals] for k, vals in hist.history.items()}
    out["batch_keys"] = seen[0]
    out["test_loop"] = [float(v) for v in training_arrays.test_loop(
        model, model.test_function, ins, batch_size=3)]
    out["predict_loop"] = training_arrays.predict_loop(
        model, model.predict_function, [x], batch_size=3).ravel().tolist()
    out["predict_steps"] = training_arrays.predict_loop(
        model, model.predict_function, [x[:2]], batch_size=None, steps=2).shape
    try:
        training_arrays.fit_loop(model, model.train_function, ins, batch_size=4, epochs=1,
                                 verbose=0, val_f=model.test_function, val_ins=val_ins,
                                 steps_per_epoch=2)
    except ValueError as error:
        out["error"] = str(error)
    from keras.engine import training_generator

    def batches():
        while True:
            for start in (0, 5):
                yield x[start:start + 5], y[start:start + 5]

    model = build()
    out["fit5"] = [float(v) for v in model.fit(x, y, batch_size=5, epochs=2, shuffle=False,
                                               verbose=0).history["loss"]]
    out["evaluate5"] = float(model.evaluate(x, y, batch_size=5, verbose=0)[0])
    out["predict5"] = model.predict(x).ravel().tolist()
    model = build()
    hist = training_generator.fit_generator(model, batches(), steps_per_epoch=2, epochs=2,
                                            verbose=0)
    out["fit_generator"] = [float(v) for v in hist.history["loss"]]
    out["evaluate_generator"] = float(training_generator.evaluate_generator(
        model, batches(), steps=2)[0])
    out["predict_generator"] = training_generator.predict_generator(
        model, (b[0] for b in batches()), steps=2).ravel().tolist()
    print(json.dumps(out))
    """)


def test_loops_match_fit_evaluate_predict():
    env = child_env()
    proc = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    # standalone Keras 2.2.4 logs "mae" under its full name
    assert sorted(out["fit_loop"]) == ["loss", "mean_absolute_error", "val_loss",
                                       "val_mean_absolute_error"]
    assert sorted(out["fit"]) == sorted(out["fit_loop"])
    for key, values in out["fit"].items():
        assert len(values) == 2
        for ours, theirs in zip(out["fit_loop"][key], values):
            assert abs(ours - theirs) < 1e-6, (key, out)
    # after the same two epochs the weights agree, so evaluation and prediction do too
    for ours, theirs in zip(out["test_loop"], out["evaluate"]):
        assert abs(ours - theirs) < 1e-6, out
    assert max(abs(a - b) for a, b in zip(out["predict_loop"], out["predict"])) < 1e-6
    assert out["batch_keys"] == ["batch", "loss", "mean_absolute_error", "size"]
    assert out["predict_steps"] == [4, 1]
    # fit_generator over the same two unshuffled batches a step is fit's epoch
    for ours, theirs in zip(out["fit_generator"], out["fit5"]):
        assert abs(ours - theirs) < 1e-6, out
    assert abs(out["evaluate_generator"] - out["evaluate5"]) < 1e-6
    assert max(abs(a - b) for a, b in zip(out["predict_generator"], out["predict5"])) < 1e-6
    assert out["error"] == ("Must specify `validation_steps` to perform validation when "
                            "doing step-wise training.")
