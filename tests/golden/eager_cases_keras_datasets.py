"""Eager golden cases: the steps of an epoch that tf-keras's v2 loop reads from a dataset's
cardinality (progress-bar targets of fit / evaluate / predict, `steps` in the callbacks'
params) for batched, repeated, taken, skipped, zipped, concatenated, cached and filtered
datasets (a filter's size is unknown: the bar counts up to `Unknown`), the iterators made as
TF's DataHandler makes them (a seeded shuffle gives TF's order), data running out."""

import numpy as np

from tests.golden.keras_util import captured, data, mlp


def _datasets(tf):
    x, y = data(10)
    D = tf.data.Dataset
    pairs = D.from_tensor_slices((x, y))
    return {"batch": pairs.batch(4),
            "drop_remainder": pairs.batch(4, drop_remainder=True),
            "repeat_take_skip": pairs.repeat(3).take(25).skip(3).batch(5),
            "zip_concat": D.zip((D.from_tensor_slices(x), D.from_tensor_slices(y)))
            .concatenate(pairs.take(2)).shuffle(4, seed=1).batch(3),
            "cache_prefetch": pairs.map(lambda a, b: (a * 2, b)).cache().batch(6).prefetch(1),
            "filter": pairs.filter(lambda a, b: a[0] > -10.).batch(4)}


def case_dataset_steps_in_progress_bars(tf):
    out = {}
    for name, ds in _datasets(tf).items():
        model = mlp(tf)
        model.compile("sgd", "mse")
        h, fit_screen = captured(lambda: model.fit(ds, epochs=2, verbose=1))
        _, eval_screen = captured(lambda: model.evaluate(ds, verbose=1))
        predicted, predict_screen = captured(lambda: model.predict(ds, verbose=1))
        out[name] = {"fit": fit_screen, "evaluate": eval_screen, "predict": predict_screen,
                     "steps": h.params.get("steps"), "rows": int(np.shape(predicted)[0])}
    return out


def case_dataset_runs_out_with_steps_per_epoch(tf):
    # Fewer batches than steps_per_epoch * epochs: training stops after the epoch that ran
    # out (a warning, no error), as TF's DataHandler does.
    x, y = data(8)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)
    model = mlp(tf)
    model.compile("sgd", "mse", metrics=["mae"])
    h = model.fit(ds, epochs=3, steps_per_epoch=3, verbose=0)
    return {"epoch": h.epoch, "history": {k: np.asarray(v) for k, v in h.history.items()}}
