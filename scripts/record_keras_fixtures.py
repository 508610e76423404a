"""Writes the Keras HDF5 files in tests/fixtures/keras/ with real tf-keras (run with a TF
venv, never in CI): the golden case cases_keras_saving.load_tf_keras_fixtures checks that
tf1compat loads them and predicts as tf-keras does (lambda.h5: cases_keras_lambda), and
the SavedModel of a subclassed model with nested models (saved_model_tf_subclassed_nested:
eager_cases_keras_revived) and of a subclassed model holding a subclassed model
(saved_model_tf_subclassed_inner: eager_cases_keras_revived). A child process under eager
execution writes the model with TF-function layers (TFOpLambda) as `op_lambda.h5` and the
SavedModel `saved_model_tf_op_lambda` (eager_cases_keras_op_lambda).

    /tmp/tf/bin/python scripts/record_keras_fixtures.py
    /tmp/tf/bin/python scripts/record_keras_fixtures.py --subclassed-inner   # that one only
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
OUT = os.path.join(ROOT, "tests", "fixtures", "keras")


def main(argv: list) -> int:
    import numpy as np
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    if argv == ["--eager"]:
        return _eager_fixtures(tf)
    if argv == ["--subclassed-inner"]:
        _subclassed_inner(tf)
        return 0
    tf.get_logger().setLevel("ERROR")
    from tests.golden.keras_util import data, mlp, set_weights
    os.makedirs(OUT, exist_ok=True)

    model = mlp(tf, seed=6)
    model.compile(tf.keras.optimizers.Adam(0.02), "mse", metrics=["mae"])
    x, y = data(8)
    model.fit(x, y, batch_size=4, epochs=3, verbose=0, shuffle=False)
    model.save(os.path.join(OUT, "mlp_adam.h5"))
    mlp(tf, seed=7).save_weights(os.path.join(OUT, "mlp_weights.h5"))

    tf.reset_default_graph()
    cnn = tf.keras.Sequential([
        tf.keras.layers.Conv2D(3, 3, activation="relu", input_shape=(6, 6, 1)),
        tf.keras.layers.MaxPooling2D(2), tf.keras.layers.BatchNormalization(),
        tf.keras.layers.Flatten(), tf.keras.layers.Dense(2, activation="softmax")])
    set_weights(cnn, 4)
    cnn.compile("rmsprop", "categorical_crossentropy", metrics=["accuracy"])
    images = np.random.RandomState(0).rand(6, 6, 6, 1).astype(np.float32)
    labels = tf.keras.utils.to_categorical([0, 1, 0, 1, 1, 0], 2)
    cnn.fit(images, labels, batch_size=3, epochs=1, verbose=0, shuffle=False)
    cnn.save(os.path.join(OUT, "small_cnn.h5"))

    tf.reset_default_graph()
    # `K` as a 2018 script's global: the second Lambda's bytecode names it.
    global K
    K = tf.keras.backend
    x = tf.keras.Input((3,), name="x")
    h = tf.keras.layers.Lambda(lambda t: t * 2.0 + 1.0, name="affine")(x)
    h = tf.keras.layers.Lambda(lambda t: K.sum(t, axis=1, keepdims=True) - t,
                               output_shape=lambda s: s, name="uses_k")(h)
    out = tf.keras.layers.Dense(2, name="dense")(h)
    with_lambdas = tf.keras.Model(x, out)
    set_weights(with_lambdas, 8)
    with_lambdas.save(os.path.join(OUT, "lambda.h5"))
    _nested_subclassed(tf)
    _subclassed_inner(tf)
    subprocess.run([sys.executable, os.path.abspath(__file__), "--eager"], check=True)
    print("wrote", sorted(os.listdir(OUT)))
    return 0


def _nested_subclassed(tf) -> None:
    """A subclassed model holding a Sequential, a functional model and a Dense, fitted,
    as a SavedModel (`saved_model_tf_subclassed_nested`; eager_cases_keras_revived)."""
    import numpy as np
    tf.reset_default_graph()
    init = tf.keras.initializers.glorot_uniform

    class Nest(tf.keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.block = tf.keras.Sequential(
                [tf.keras.layers.Dense(3, kernel_initializer=init(seed=1)),
                 tf.keras.layers.Dense(3, activation="relu", kernel_initializer=init(seed=2))],
                name="block")
            x = tf.keras.Input((3,))
            self.head = tf.keras.Model(
                x, tf.keras.layers.Dense(2, kernel_initializer=init(seed=3))(x), name="head")
            self.out = tf.keras.layers.Dense(1, kernel_initializer=init(seed=4))

        def call(self, x):
            return self.out(self.head(self.block(x)))

    model = Nest(name="nest")
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    x = np.array([[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 1.0]], np.float32)
    model.fit(x, np.ones((2, 1), np.float32), epochs=2, verbose=0)
    directory = os.path.join(OUT, "saved_model_tf_subclassed_nested")
    shutil.rmtree(directory, ignore_errors=True)
    model.save(directory, save_format="tf")
    os.remove(os.path.join(directory, "fingerprint.pb"))   # (changes with every write)


def _subclassed_inner(tf) -> None:
    """A subclassed model holding a subclassed model (two Dense) and a Dense, fitted, as a
    SavedModel (`saved_model_tf_subclassed_inner`; eager_cases_keras_revived)."""
    import numpy as np
    from tests.golden.keras_util import outer_inner_model
    tf.reset_default_graph()
    model = outer_inner_model(tf)
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    x = np.array([[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 1.0]], np.float32)
    model.fit(x, np.ones((2, 1), np.float32), epochs=2, verbose=0)
    directory = os.path.join(OUT, "saved_model_tf_subclassed_inner")
    shutil.rmtree(directory, ignore_errors=True)
    model.save(directory, save_format="tf")
    os.remove(os.path.join(directory, "fingerprint.pb"))   # (changes with every write)


def _eager_fixtures(tf) -> int:
    tf.enable_eager_execution()
    tf.get_logger().setLevel("ERROR")
    from tests.golden.eager_cases_keras_op_lambda import trained_model
    model = trained_model(tf)
    model.save(os.path.join(OUT, "op_lambda.h5"))
    directory = os.path.join(OUT, "saved_model_tf_op_lambda")
    shutil.rmtree(directory, ignore_errors=True)
    model.save(directory, save_format="tf")
    os.remove(os.path.join(directory, "fingerprint.pb"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
