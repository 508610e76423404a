"""Eager golden cases: raw TF functions and tensor operators on Keras inputs under eager
execution are tf-keras's TFOpLambda / SlicingOpLambda layers (`tf.nn.relu`,
`tf.math.multiply_1`, `tf.__operators__.getitem`): names, model.layers, summary, outputs,
get_config/from_config, .h5 and SavedModel round trips, training, and the models tf-keras
wrote (tests/fixtures/keras/op_lambda.h5, saved_model_tf_op_lambda, written by
scripts/record_keras_fixtures.py)."""

import contextlib
import io
import os
import shutil
import tempfile

import numpy as np

from tests.golden.harness import catch, tolerance

_FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                         "fixtures", "keras")
_VALUES = np.arange(8, dtype=np.float32).reshape(2, 4) / 3 + 0.1
_X = np.random.RandomState(0).rand(32, 4).astype(np.float32)
_Y = (_X.sum(1, keepdims=True) > 2).astype(np.float32)


def _functions(tf, x):
    """Operators and functions whose layers tf1compat records as tf-keras does."""
    return [x + 1.0, 1.0 + x, x - 1.0, 2.0 - x, x * 3.0, 3.0 * x, x / 2.0, 2.0 / x, -x,
            x ** 2, x[:, 0], x[:, 1:3], tf.nn.relu(x), tf.nn.relu(x), tf.abs(x),
            tf.exp(x), tf.nn.sigmoid(x), tf.sigmoid(x), tf.sqrt(x),
            tf.reshape(x, [-1, 2, 2]), tf.clip_by_value(x, 0., 1.), tf.add(x, x),
            tf.stack([x, x], 1), tf.split(x, 2, axis=1)[0], tf.concat([x, x], 1),
            tf.matmul(x, tf.ones((4, 2)))]


def _more_functions(tf, x):
    """Functions whose layers and outputs match tf-keras; their recorded call arguments
    differ (tf1compat records the values the function's frame holds)."""
    return [tf.reduce_mean(x, axis=1), tf.maximum(x, 0.5), tf.tanh(x),
            tf.expand_dims(x, 1), tf.squeeze(tf.expand_dims(x, 1), 1), tf.nn.softmax(x),
            tf.transpose(x), tf.unstack(x, axis=1)[0], tf.cast(x, tf.int32)]


def _layers(model):
    return [[type(layer).__name__, layer.name] for layer in model.layers]


def _outputs(model, values=_VALUES):
    return [np.asarray(o) for o in model(values)]


def trained_model(tf):
    """A model mixing Dense layers and TF functions, fitted two epochs (also the fixture
    tf-keras saves)."""
    keras = tf.keras
    keras.backend.clear_session()
    init = keras.initializers.glorot_uniform(seed=1)
    x = keras.Input((4,))
    h = keras.layers.Dense(8, kernel_initializer=init)(x)
    h = tf.nn.relu(h) * 2.0 + tf.reduce_sum(x, 1, keepdims=True)
    y = tf.sigmoid(keras.layers.Dense(1, kernel_initializer=init)(h[:, :6]))
    model = keras.Model(x, y)
    model.compile("sgd", "binary_crossentropy")
    model.fit(_X, _Y, batch_size=8, epochs=2, verbose=0, shuffle=False)
    return model


def case_issue_example(tf):
    tf.keras.backend.clear_session()
    x = tf.keras.Input((4,))
    y = tf.nn.relu(x) * 2 + tf.reduce_sum(x, 1, keepdims=True)
    model = tf.keras.Model(x, y)
    config = model.get_config()
    summary = io.StringIO()
    with contextlib.redirect_stdout(summary):
        model.summary()
    return {"layers": _layers(model), "name": y.name, "output": _outputs(model),
            "summary": summary.getvalue(),
            "config": [[layer["class_name"], layer["config"], layer["inbound_nodes"]]
                       for layer in config["layers"]],
            "outputs": config["output_layers"]}


def _model_of(tf, functions):
    tf.keras.backend.clear_session()
    x = tf.keras.Input((4,))
    model = tf.keras.Model(x, functions(tf, x))
    return model, model.get_config()


@tolerance(rtol=1e-6, atol=1e-6)
def case_functions_and_operators(tf):
    model, config = _model_of(tf, _functions)
    return {"layers": _layers(model), "outputs": _outputs(model),
            "config": [[layer["class_name"], layer["config"], layer["inbound_nodes"]]
                       for layer in config["layers"]],
            "output_layers": config["output_layers"]}


@tolerance(rtol=1e-6, atol=1e-6)
def case_more_functions(tf):
    model, config = _model_of(tf, _more_functions)
    return {"layers": _layers(model), "outputs": _outputs(model),
            "functions": [layer["config"]["function"] for layer in config["layers"][1:]]}


@tolerance(rtol=1e-6, atol=1e-6)
def case_config_and_h5_round_trips(tf):
    tf.keras.backend.clear_session()
    x = tf.keras.Input((4,))
    model = tf.keras.Model(x, _functions(tf, x) + _more_functions(tf, x))
    rebuilt = tf.keras.Model.from_config(model.get_config())
    directory = tempfile.mkdtemp()
    try:
        path = os.path.join(directory, "model.h5")
        model.save(path)
        loaded = tf.keras.models.load_model(path)
        json_model = tf.keras.models.model_from_json(model.to_json())
    finally:
        shutil.rmtree(directory)
    return {"from_config": [_layers(rebuilt), _outputs(rebuilt)],
            "h5": [_layers(loaded), _outputs(loaded)],
            "json": [_layers(json_model), _outputs(json_model)]}


@tolerance(rtol=1e-5, atol=1e-6)
def case_training_and_saved_model(tf):
    model = trained_model(tf)
    directory = tempfile.mkdtemp()
    try:
        model.save(directory, save_format="tf")
        loaded = tf.keras.models.load_model(directory)
        loaded_predict = loaded.predict(_X[:4], verbose=0)
        loaded_fit = loaded.fit(_X, _Y, batch_size=16, epochs=1, verbose=0,
                                shuffle=False).history
    finally:
        shutil.rmtree(directory)
    return {"layers": _layers(model), "weights": model.get_weights(),
            "predict": model.predict(_X[:4], verbose=0),
            "evaluate": model.evaluate(_X, _Y, verbose=0),
            "saved_model": [_layers(loaded), loaded_predict, loaded_fit]}


@tolerance(rtol=1e-5, atol=1e-6)
def case_gradient_tape_and_reuse(tf):
    """The model under a GradientTape, and called on a new Keras input (its layers
    replayed on it) inside a bigger model."""
    model = trained_model(tf)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(_X[:4]))
    grads = tape.gradient(loss, model.trainable_weights)
    x = tf.keras.Input((4,))
    outer = tf.keras.Model(x, model(x) * 3.0)
    # (names only: tf-keras's functional models are of class Functional, tf1compat's Model)
    return {"grads": [np.asarray(g) for g in grads],
            "outer_layers": [layer.name for layer in outer.layers],
            "outer": np.asarray(outer(_X[:4]))}


@tolerance(rtol=1e-5, atol=1e-6)
def case_load_tf_keras_files(tf):
    """tf-keras's own .h5 and SavedModel of trained_model."""
    tf.keras.backend.clear_session()
    h5 = tf.keras.models.load_model(os.path.join(_FIXTURES, "op_lambda.h5"))
    tf.keras.backend.clear_session()
    saved = tf.keras.models.load_model(os.path.join(_FIXTURES, "saved_model_tf_op_lambda"))
    return {"h5": [_layers(h5), h5.predict(_X[:4], verbose=0)],
            "saved_model": [_layers(saved), saved.predict(_X[:4], verbose=0)]}


def case_unknown_function(tf):
    """A config naming a TF function that does not exist: tf-keras's ValueError."""
    tf.keras.backend.clear_session()
    x = tf.keras.Input((4,))
    config = tf.keras.Model(x, tf.nn.relu(x)).get_config()
    config["layers"][1]["config"]["function"] = "nn.no_such_function"
    return {"from_config": catch(lambda: tf.keras.Model.from_config(config))}


def case_backend_functions_comparisons_and_lambda(tf):
    """`K.sum` (a backend function calling tf.reduce_sum), a comparison operator and
    `tf.where`/`tf.zeros_like` next to a Lambda layer."""
    tf.keras.backend.clear_session()
    x = tf.keras.Input((4,))
    y = tf.keras.backend.sum(x, axis=1, keepdims=True) + \
        tf.keras.layers.Lambda(lambda t: t * 2)(x)
    z = tf.where(x > 0.5, x, tf.zeros_like(x))
    model = tf.keras.Model(x, [y, z])
    return {"layers": _layers(model), "outputs": _outputs(model)}
