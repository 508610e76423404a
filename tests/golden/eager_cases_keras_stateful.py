"""Eager golden cases: stateful Keras recurrent layers under TF 1.x-style eager execution
(tf-keras's v2 loop): states carried across train_on_batch / predict calls and reset, and
a Keras model saved as a SavedModel directory and loaded back."""

import os
import tempfile

import numpy as np

from tests.golden.harness import tolerance


def _init(tf, seed):
    return {"kernel_initializer": tf.keras.initializers.glorot_uniform(seed=seed),
            "recurrent_initializer": tf.keras.initializers.Orthogonal(seed=seed + 1),
            "bias_initializer": tf.keras.initializers.RandomUniform(-0.3, 0.3,
                                                                     seed=seed + 2)}


@tolerance(1e-5, 1e-5)
def case_stateful_lstm_carry_and_reset(tf):
    model = tf.keras.Sequential([
        tf.keras.layers.LSTM(3, stateful=True, batch_input_shape=(2, 4, 2), **_init(tf, 1)),
        tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.glorot_uniform(7))])
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    x = np.random.RandomState(0).randn(2, 4, 2).astype(np.float32)
    y = np.ones((2, 1), np.float32)
    first = model.predict(x, verbose=0)
    second = model.predict(x, verbose=0)
    states = [s.numpy() for s in model.layers[0].states]
    model.reset_states()
    third = model.predict(x, verbose=0)
    losses = [float(model.train_on_batch(x, y)) for _ in range(3)]
    model.layers[0].reset_states([np.full((2, 3), 0.5, np.float32),
                                  np.zeros((2, 3), np.float32)])
    from_values = model.predict(x, verbose=0)
    return {"first": first, "second": second, "third": third, "states": states,
            "losses": losses, "from_values": from_values,
            "names": [s.name for s in model.layers[0].states]}


@tolerance(1e-5, 1e-6)
def case_saved_model_round_trip(tf):
    init = tf.keras.initializers.glorot_uniform
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(4, activation="relu", input_shape=(3,), name="h",
                              kernel_initializer=init(seed=1)),
        tf.keras.layers.Dense(2, name="o", kernel_initializer=init(seed=2))])
    model.compile(tf.keras.optimizers.Adam(0.05), "mse")
    x = np.random.RandomState(1).randn(6, 3).astype(np.float32)
    y = np.random.RandomState(2).randn(6, 2).astype(np.float32)
    model.fit(x, y, batch_size=3, epochs=2, shuffle=False, verbose=0)
    path = os.path.join(tempfile.mkdtemp(), "model")
    model.save(path, save_format="tf")
    loaded = tf.keras.models.load_model(path)
    history = loaded.fit(x, y, batch_size=3, epochs=1, shuffle=False, verbose=0).history
    return {"before": model.predict(x, verbose=0), "after": loaded.predict(x, verbose=0),
            "history": history, "names": [layer.name for layer in loaded.layers]}


@tolerance(1e-5, 1e-5)
def case_stateful_conv_lstm_carry_and_reset(tf):
    layer = tf.keras.layers.ConvLSTM2D(2, (2, 2), padding="same", stateful=True,
                                       batch_input_shape=(2, 3, 3, 3, 1), **_init(tf, 60))
    model = tf.keras.Sequential([layer, tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(1, kernel_initializer=tf.keras.
                                                       initializers.glorot_uniform(64))])
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    x = np.random.RandomState(3).randn(2, 3, 3, 3, 1).astype(np.float32)
    first = model.predict(x, verbose=0)
    second = model.predict(x, verbose=0)
    loss = float(model.train_on_batch(x, np.ones((2, 1), np.float32)))
    states = [s.numpy() for s in layer.states]
    model.reset_states()
    third = model.predict(x, verbose=0)
    return {"first": first, "second": second, "loss": loss, "states": states,
            "third": third, "shapes": [s.shape.as_list() for s in layer.states]}


@tolerance(1e-5, 1e-6)
def case_subclassed_saved_model_round_trip(tf):
    class Sub(tf.keras.Model):
        def __init__(self, units=2, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.hidden = tf.keras.layers.Dense(
                units, kernel_initializer=tf.keras.initializers.glorot_uniform(5))
            self.out = tf.keras.layers.Dense(
                1, kernel_initializer=tf.keras.initializers.glorot_uniform(6))

        def call(self, x):
            return self.out(tf.nn.relu(self.hidden(x)))

        def get_config(self):
            return {"units": self.units}
    model = Sub(3)
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    x = np.random.RandomState(4).randn(4, 3).astype(np.float32)
    model.fit(x, np.ones((4, 1), np.float32), batch_size=2, shuffle=False, verbose=0)
    path = os.path.join(tempfile.mkdtemp(), "sub")
    model.save(path, save_format="tf")
    loaded = tf.keras.models.load_model(path, custom_objects={"Sub": Sub})
    return {"before": model.predict(x, verbose=0), "after": loaded.predict(x, verbose=0),
            "units": loaded.units, "type": type(loaded).__name__,
            "weights": len(loaded.weights)}
