"""Eager golden cases: a functional tf.keras model with BatchNormalization built, called
and trained under TF 1.x-style eager execution (its moving statistics are updated from
the model's graph: the variables were created eagerly)."""

import numpy as np

from tests.golden.keras_util import data, history


def _bn_model(tf, center_scale=True):
    rng = np.random.RandomState(4)
    inp = tf.keras.Input((3,))
    dense = tf.keras.layers.Dense(4, kernel_initializer=tf.keras.initializers.Constant(
        rng.uniform(-0.5, 0.5, (3, 4)).astype(np.float32)))
    norm = tf.keras.layers.BatchNormalization(center=center_scale, scale=center_scale,
                                              momentum=0.9)
    out = tf.keras.layers.Dense(2, kernel_initializer=tf.keras.initializers.Constant(
        rng.uniform(-0.5, 0.5, (4, 2)).astype(np.float32)))
    model = tf.keras.Model(inp, out(tf.keras.layers.Activation("relu")(norm(dense(inp)))))
    return model, norm


def case_functional_batchnorm_build_call_fit(tf):
    model, norm = _bn_model(tf)
    x, y = data(12)
    called = model(x).numpy()
    trained = model(x, training=True).numpy()
    model.compile(tf.keras.optimizers.SGD(0.05), "mse")
    h = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"called": called, "trained": trained, "history": history(h),
            "predicted": model.predict(x, batch_size=4),
            "norm_weights": [np.asarray(w) for w in norm.get_weights()],
            "names": [w.name for w in norm.weights]}


def case_functional_batchnorm_no_center_scale(tf):
    model, norm = _bn_model(tf, center_scale=False)
    x, y = data(8, seed=3)
    model.compile("adam", "mae")
    h = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
    return {"history": history(h), "norm_weights": [np.asarray(w) for w in norm.get_weights()],
            "evaluated": model.evaluate(x, y, verbose=0)}
