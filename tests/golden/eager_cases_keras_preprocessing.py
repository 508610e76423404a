"""Eager golden cases: Keras `fit`/`predict` under eager execution (tf-keras's v2 loop)
reading `tf.keras.preprocessing` iterators: a seeded, augmenting ImageDataGenerator flow
(tf-keras's Sequence adapter reads the first batch once before training, which moves
the seeded draws) and a TimeseriesGenerator."""

import numpy as np

from tests.golden.keras_util import captured, history


def _model(tf, shape):
    model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=shape),
                                 tf.keras.layers.Dense(2)])
    model.set_weights([np.random.RandomState(1).uniform(-0.5, 0.5, w.shape)
                       .astype(np.float32) for w in model.get_weights()])
    model.compile("sgd", "mse")
    return model


def case_fit_on_augmenting_flow(tf):
    image = tf.keras.preprocessing.image
    rng = np.random.RandomState(0)
    x = rng.uniform(size=(10, 2, 3, 1)).astype(np.float32)
    y = rng.uniform(size=(10, 2)).astype(np.float32)
    model = _model(tf, (2, 3, 1))
    flow = image.ImageDataGenerator(horizontal_flip=True, vertical_flip=True).flow(
        x, y, batch_size=4, seed=1, shuffle=False)
    h, screen = captured(lambda: model.fit(flow, epochs=3, verbose=2, shuffle=False))
    plain = image.ImageDataGenerator().flow(x, batch_size=5, shuffle=False)
    return {"history": history(h), "screen": screen,
            "batches_seen": flow.total_batches_seen,
            "predict": model.predict(plain)}


def case_fit_on_timeseries(tf):
    seq = tf.keras.preprocessing.sequence
    series = np.sin(np.arange(40, dtype=np.float32) / 3).reshape(20, 2)
    gen = seq.TimeseriesGenerator(series, series, length=3, batch_size=5)
    model = _model(tf, (3, 2))
    h, _ = captured(lambda: model.fit(gen, epochs=2, verbose=0, shuffle=False))
    return {"history": history(h), "evaluate": model.evaluate(gen, verbose=0)}
