"""Standalone Keras 2.2.4's paths on the `keras` 2.15 package, for recording migration
examples that `import keras` (scripts/record_migration_examples.py; never run in CI).

Keras 2.15 (installed with TF 2.15) is tf.keras's code under TF1 behaviour, the oracle for
tf1compat's standalone `keras`; it lacks the 2.2.4 module paths 2018 scripts import
(`keras.layers.core`, `keras.utils.np_utils`, `K.tensorflow_backend`, ...) and its
`keras.optimizers.X` are the TF2 optimizers. `install(v1)` registers those paths as
aliases of 2.15's modules, makes `keras.optimizers.X` the legacy (TF1-graph) classes and
`keras.layers.LSTM` / `GRU` the TF1 layers (Keras 2.2.4's defaults: `hard_sigmoid`
recurrent activation, GRU without `reset_after`). This TF 2.15 venv has no SciPy, which
2.15's ImageDataGenerator checks for even when no affine transform is drawn: the check is
satisfied by a placeholder, so flips and standardization record (shifts and rotations
would fail on the placeholder, not silently). Keras 2.2.4 drew the op seed of each
unseeded random op from numpy (`np.random.randint(10e6)`: initializers when a layer creates
its weights, Dropout / GaussianNoise at each call); `_numpy_op_seeds` restores that in 2.15,
whose legacy ops otherwise take their seeds from the graph seed.
"""

from __future__ import annotations

import copy
import sys
import types

import numpy as np

_LAYER_MODULES = ("advanced_activations", "convolutional", "convolutional_recurrent", "core",
                  "embeddings", "merge", "noise", "normalization", "pooling", "recurrent",
                  "wrappers")
_OPTIMIZERS = ("SGD", "RMSprop", "Adagrad", "Adadelta", "Adam", "Adamax", "Nadam")


def install(v1: types.ModuleType) -> None:
    """Imports the real `keras` and adds Keras 2.2.4's paths to it."""
    import keras
    for name in _LAYER_MODULES:
        sys.modules[f"keras.layers.{name}"] = keras.layers
    sys.modules["keras.utils.np_utils"] = keras.utils
    keras.utils.np_utils = keras.utils
    backend = keras.backend
    for name in ("get_session", "set_session"):
        setattr(backend, name, getattr(v1.keras.backend, name))
    tensorflow_backend = types.ModuleType("keras.backend.tensorflow_backend")
    for name in dir(backend):
        if not name.startswith("__"):
            setattr(tensorflow_backend, name, getattr(backend, name))
    tensorflow_backend._get_available_gpus = lambda: [
        device.name for device in v1.config.list_logical_devices("GPU")]
    backend.tensorflow_backend = tensorflow_backend
    sys.modules["keras.backend.tensorflow_backend"] = tensorflow_backend
    from keras.src.preprocessing import image
    if getattr(image, "scipy", None) is None:
        image.scipy = types.ModuleType("scipy placeholder: affine transforms need SciPy")
    from keras.src.layers.rnn import gru_v1, lstm_v1
    keras.layers.LSTM, keras.layers.GRU = lstm_v1.LSTM, gru_v1.GRU
    for name in _OPTIMIZERS:
        setattr(keras.optimizers, name, getattr(keras.optimizers.legacy, name))
    _numpy_op_seeds()


def _numpy_op_seeds() -> None:
    """Keras 2.2.4's seeding in Keras 2.15: unseeded initializers get a copy seeded from
    numpy when the variable is made; unseeded legacy generators draw one per op."""
    from keras.src import backend
    from keras.src.engine import base_layer_utils
    make_variable = base_layer_utils.make_variable

    def make_numpy_seeded_variable(*args, initializer=None, **kwargs):
        if getattr(initializer, "seed", 0) is None:
            initializer = copy.copy(initializer)
            initializer.seed = int(np.random.randint(10e6))
        return make_variable(*args, initializer=initializer, **kwargs)
    base_layer_utils.make_variable = make_numpy_seeded_variable
    make_legacy_seed = backend.RandomGenerator.make_legacy_seed

    def make_numpy_legacy_seed(self):
        seed = make_legacy_seed(self)
        return int(np.random.randint(10e6)) if seed is None else seed
    backend.RandomGenerator.make_legacy_seed = make_numpy_legacy_seed
