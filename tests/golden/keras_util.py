"""Helpers for the Keras training golden cases (cases_keras_fit*.py, eager_cases_keras*.py).

`captured(fn)` runs `fn` with stdout captured and returns (result, screen): what a
terminal would show after the progress bars' backspaces and carriage returns, with the
time fields masked (`ETA: #`, `- #s`, `#/sample`), so tf-keras's output and tf1compat's
compare exactly. `Recorder` is a callback that logs every hook it receives, with the
logs' values rounded.
"""

import contextlib
import io
import re

import numpy as np

_TIME_FIELDS = [
    (re.compile(r"ETA: [0-9:]+s?"), "ETA: #"),
    (re.compile(r"\d+(us|ms|s)/(step|sample|epoch)"), r"#/\2"),
    (re.compile(r" - \d+s(?=( |$))"), " - #s"),
]


def render(text):
    """The screen after `text`: lines with backspaces and carriage returns applied."""
    lines, line, col = [], [], 0
    for ch in text:
        if ch == "\n":
            lines.append("".join(line).rstrip())
            line, col = [], 0
        elif ch == "\r":
            col = 0
        elif ch == "\b":
            col = max(col - 1, 0)
        else:
            if col < len(line):
                line[col] = ch
            else:
                line.extend(" " * (col - len(line)))
                line.append(ch)
            col += 1
    if line:
        lines.append("".join(line).rstrip())
    out = []
    for text_line in lines:
        for pattern, replacement in _TIME_FIELDS:
            text_line = pattern.sub(replacement, text_line)
        out.append(text_line)
    return out


def captured(fn):
    """(fn(), rendered stdout lines)."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        result = fn()
    return result, render(buffer.getvalue())


def rounded(value):
    if isinstance(value, (float, np.floating)):
        return round(float(value), 4)
    if isinstance(value, (np.ndarray, list)) and np.size(value) < 20:
        return np.round(np.asarray(value, dtype=np.float64), 4).tolist()
    if isinstance(value, (np.integer,)):
        return int(value)
    return value


def make_recorder(tf):
    """A Callback class logging (hook, index, {log key: rounded value})."""

    class Recorder(tf.keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.events = []

        def _log(self, hook, index=None, logs=None):
            entry = [hook]
            if index is not None:
                entry.append(index)
            entry.append({k: rounded(v) for k, v in sorted((logs or {}).items())
                          if k != "outputs"})
            self.events.append(entry)

        def on_train_begin(self, logs=None):
            self._log("train_begin", None, logs)
            self.params_seen = {k: v for k, v in sorted(self.params.items())}

        def on_train_end(self, logs=None):
            self._log("train_end", None, logs)

        def on_epoch_begin(self, epoch, logs=None):
            self._log("epoch_begin", epoch, logs)

        def on_epoch_end(self, epoch, logs=None):
            self._log("epoch_end", epoch, logs)

        def on_train_batch_begin(self, batch, logs=None):
            self._log("train_batch_begin", batch, logs)

        def on_train_batch_end(self, batch, logs=None):
            self._log("train_batch_end", batch, logs)

        def on_test_begin(self, logs=None):
            self._log("test_begin", None, logs)

        def on_test_end(self, logs=None):
            self._log("test_end", None, logs)

        def on_test_batch_begin(self, batch, logs=None):
            self._log("test_batch_begin", batch, logs)

        def on_test_batch_end(self, batch, logs=None):
            self._log("test_batch_end", batch, logs)

        def on_predict_begin(self, logs=None):
            self._log("predict_begin", None, logs)

        def on_predict_end(self, logs=None):
            self._log("predict_end", None, logs)

        def on_predict_batch_begin(self, batch, logs=None):
            self._log("predict_batch_begin", batch, logs)

        def on_predict_batch_end(self, batch, logs=None):
            self._log("predict_batch_end", batch, logs)

    return Recorder


def history(h):
    """History values as float64 arrays per key (History holds Python floats in TF1
    Keras, numpy scalars in some loops)."""
    return {k: np.asarray([float(x) for x in v]) for k, v in sorted(h.history.items())}


def weights_of(model):
    return [np.asarray(w) for w in model.get_weights()]


def mlp(tf, hidden=4, inputs=3, outputs=2, seed=0, activation="tanh", out_activation=None):
    """A Sequential Dense-Dense model with weights drawn from RandomState(seed)."""
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(hidden, activation=activation, input_shape=(inputs,)),
        tf.keras.layers.Dense(outputs, activation=out_activation)])
    set_weights(model, seed)
    return model


def set_weights(model, seed=0):
    rng = np.random.RandomState(seed)
    model.set_weights([rng.uniform(-0.5, 0.5, size=w.shape).astype(np.float32)
                       for w in model.get_weights()])


def data(n=12, inputs=3, outputs=2, seed=1, classes=None):
    rng = np.random.RandomState(seed)
    x = rng.randn(n, inputs).astype(np.float32)
    if classes:
        y = rng.randint(0, classes, size=(n,))
    else:
        y = rng.randn(n, outputs).astype(np.float32)
    return x, y


def outer_inner_model(tf, outer_config=False):
    """A subclassed `Outer` (named "outer") holding a subclassed `Inner` of two Dense and
    a Dense, seeded; `outer_config` gives Outer a get_config (tf1compat saves a subclassed
    model through it), Inner has none. For the revived-SavedModel fixtures."""
    init = tf.keras.initializers.glorot_uniform

    class Inner(tf.keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.d1 = tf.keras.layers.Dense(3, activation="relu",
                                            kernel_initializer=init(seed=1))
            self.d2 = tf.keras.layers.Dense(2, kernel_initializer=init(seed=2))

        def call(self, x):
            return self.d2(self.d1(x))

    class Outer(tf.keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.inner = Inner(name="inner")
            self.out = tf.keras.layers.Dense(1, kernel_initializer=init(seed=3))

        def call(self, x):
            return self.out(self.inner(x))

    if outer_config:
        Outer.get_config = lambda self: {"name": self.name}
    return Outer(name="outer")


def nested_layers(model):
    """A model's layers and the layers inside them: class, name, weight names, the
    attributes holding each, and whether a nested layer's weights are the model's."""
    return [[type(layer).__name__, layer.name, [w.name for w in layer.weights],
             [k for k, v in vars(model).items() if v is layer],
             [[type(sub).__name__, sub.name, [w.name for w in sub.weights],
               [k for k, v in vars(layer).items() if v is sub],
               [any(w is m for m in model.weights) for w in sub.weights]]
              for sub in getattr(layer, "layers", [])]]
            for layer in model.layers]
