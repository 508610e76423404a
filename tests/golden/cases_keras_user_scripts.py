"""Golden cases from 2018-2019 style tf.keras scripts: per-output class weights or
partial sample weights with `validation_split` (tf-keras fills the missing outputs'
weights with ones as a tuple, which its `validation_split` slicing turns into `[None]`:
such a fit trains and validates unweighted), and a sequence model with a user-defined
activation function and a Lambda layer saved to `.h5` and loaded with `custom_objects`
(the function is saved by its name)."""

import os
import shutil
import tempfile

import numpy as np

from tests.golden.harness import catch, tolerance


def _init(tf, shape, seed):
    return tf.keras.initializers.Constant(np.random.RandomState(seed).randn(*shape) * 0.3)


def _two_outputs(tf):
    inp = tf.keras.Input((4,), name="x")
    h = tf.keras.layers.Dense(5, kernel_initializer=_init(tf, (4, 5), 3), name="h")(inp)
    c = tf.keras.layers.Dense(3, activation="softmax", kernel_initializer=_init(tf, (5, 3), 4),
                              name="cls")(h)
    r = tf.keras.layers.Dense(1, kernel_initializer=_init(tf, (5, 1), 5), name="reg")(h)
    model = tf.keras.Model(inp, [c, r])
    model.compile(tf.keras.optimizers.SGD(0.1), ["sparse_categorical_crossentropy", "mse"])
    return model


def _single_output(tf):
    inp = tf.keras.Input((4,), name="x")
    c = tf.keras.layers.Dense(3, activation="softmax", kernel_initializer=_init(tf, (4, 3), 4),
                              name="cls")(inp)
    model = tf.keras.Model(inp, c)
    model.compile(tf.keras.optimizers.SGD(0.1), "sparse_categorical_crossentropy")
    return model


@tolerance(rtol=1e-5, atol=1e-6)
def case_weights_with_validation_split(tf):
    rng = np.random.RandomState(1)
    x = rng.rand(32, 4).astype("float32")
    yc, yr = rng.randint(0, 3, 32), rng.rand(32, 1).astype("float32")
    cw = {0: 1.0, 1: 2.0, 2: 0.5}
    runs = {"none": {}, "class_by_name": {"class_weight": {"cls": cw}},
            "class_list": {"class_weight": [cw, None]},
            "split": {"validation_split": 0.25},
            "split_class": {"class_weight": {"cls": cw}, "validation_split": 0.25},
            "split_partial_sample": {"sample_weight": [np.linspace(0.5, 2, 32), None],
                                     "validation_split": 0.25},
            "split_all_sample": {"sample_weight": [np.linspace(0.5, 2, 32)] * 2,
                                 "validation_split": 0.25},
            "flat_class": {"class_weight": cw}}
    out = {}
    for name, kwargs in runs.items():
        model = _two_outputs(tf)
        out[name] = catch(lambda: model.fit(x, [yc, yr], batch_size=8, epochs=2, verbose=0,
                                            shuffle=False, **kwargs).history)
    for name, kwargs in (("single_split_class", {"class_weight": cw,
                                                 "validation_split": 0.25}),):
        model = _single_output(tf)
        out[name] = model.fit(x, yc, batch_size=8, epochs=2, verbose=0, shuffle=False,
                              **kwargs).history
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def case_custom_activation_lambda_h5(tf):
    K = tf.keras.backend

    def swishy(x):
        return x * K.sigmoid(x)

    inp = tf.keras.Input((5, 3), name="seq")
    t = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(
        4, activation=swishy, kernel_initializer=_init(tf, (3, 4), 1)), name="td")(inp)
    b = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(
        2, return_sequences=True, kernel_initializer=_init(tf, (4, 8), 2),
        recurrent_initializer=_init(tf, (2, 8), 3)), name="bi")(t)
    p = tf.keras.layers.Lambda(lambda z: z[:, 0, :] + z[:, -1, :], name="ends")(b)
    out = tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer=_init(tf, (4, 1), 4),
                                name="out")(p)
    model = tf.keras.Model(inp, out)
    model.compile(tf.keras.optimizers.RMSprop(0.01), "binary_crossentropy",
                  metrics=["accuracy"], weighted_metrics=["accuracy"])
    rng = np.random.RandomState(2)
    x = rng.rand(12, 5, 3).astype("float32")
    y = rng.randint(0, 2, (12, 1))
    sw = np.where(y[:, 0] == 1, 2.0, 1.0)
    fitted = model.fit(x, y, batch_size=4, epochs=2, sample_weight=sw, verbose=0,
                       shuffle=False)
    directory = tempfile.mkdtemp()
    try:
        path = os.path.join(directory, "seq.h5")
        model.save(path)
        without = catch(lambda: type(tf.keras.models.load_model(path)).__name__)
        loaded = tf.keras.models.load_model(path, custom_objects={"swishy": swishy})
        return {"history": fitted.history,
                "activation_config": model.get_layer("td").get_config()["layer"]["config"][
                    "activation"],
                "without_custom_objects": without,
                "layers": [type(layer).__name__ for layer in loaded.layers],
                "names": loaded.metrics_names,
                "same_predict": bool(np.allclose(loaded.predict(x), model.predict(x),
                                                 atol=1e-6)),
                "evaluate": loaded.evaluate(x, y, sample_weight=sw, verbose=0),
                "serialize_errors": [catch(lambda: tf.keras.activations.serialize("abcd")),
                                     tf.keras.activations.serialize(swishy)]}
    finally:
        shutil.rmtree(directory)
