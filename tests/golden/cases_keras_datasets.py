"""Golden cases: the steps of an epoch that tf-keras's v1 loop reads from a dataset's
cardinality in graph mode ("Train on N steps", progress-bar targets, `steps` in the
callbacks' params): batched, repeated, taken, skipped, zipped, concatenated, cached, TF1
maps (size unknown), map_and_batch and filtered datasets."""

import numpy as np

from tests.golden.keras_util import captured, data, mlp


def case_dataset_steps_in_fit_output(tf):
    x, y = data(10)
    D = tf.data.Dataset
    pairs = D.from_tensor_slices((x, y))
    datasets = {
        "batch": pairs.batch(4),
        "drop_remainder": pairs.batch(4, drop_remainder=True),
        "repeat_take_skip": pairs.repeat(3).take(25).skip(3).batch(5),
        "zip_concat": D.zip((D.from_tensor_slices(x), D.from_tensor_slices(y)))
        .concatenate(pairs.take(2)).shuffle(4, seed=1).batch(3),
        "cache_prefetch": pairs.batch(6).cache().prefetch(1),
        "map": pairs.map(lambda a, b: (a * 2, b)).batch(4),
        "map_and_batch": pairs.apply(tf.data.experimental.map_and_batch(
            lambda a, b: (a, b), 4)),
        "filter": pairs.filter(lambda a, b: a[0] > -10.).batch(4)}
    out = {}
    for name, ds in datasets.items():
        model = mlp(tf)
        model.compile("sgd", "mse")
        h, fit_screen = captured(lambda: model.fit(ds, epochs=2, verbose=2))
        out[name] = {"fit": fit_screen, "steps": h.params.get("steps")}
        if h.params.get("steps") is not None:
            _, out[name]["evaluate"] = captured(lambda: model.evaluate(ds, verbose=1))
            predicted, out[name]["predict"] = captured(lambda: model.predict(ds, verbose=1))
            out[name]["rows"] = int(np.shape(predicted)[0])
    return out
