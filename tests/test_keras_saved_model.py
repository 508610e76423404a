"""Keras SavedModel directories (`model.save(dir, save_format="tf")`, `load_model(dir)`)
against what real TF did with them (tests/fixtures/keras/saved_models.json, recorded by
scripts/record_keras_saved_models.py): a directory tf-keras 2.21 wrote loads here and
predicts as tf-keras did, and real TF's TF1 loader ran tf1compat's directory."""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

import tf1compat as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "keras")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import record_keras_saved_models as script  # noqa: E402


@pytest.fixture(scope="module")
def record() -> dict:
    with open(os.path.join(FIXTURES, "saved_models.json")) as f:
        return json.load(f)


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    tf.keras.backend.clear_session()
    yield
    tf.keras.backend.clear_session()


def test_a_directory_tf_keras_wrote_loads_and_trains(record):
    model = tf.keras.models.load_model(os.path.join(FIXTURES, "saved_model_tf"))
    assert [layer.name for layer in model.layers] == ["hidden", "drop", "probs"]
    np.testing.assert_allclose(model.predict(script.INPUT), record["tf_written.predict"],
                               rtol=1e-5, atol=1e-6)
    assert model.metrics_names == ["loss", "acc"]
    x = np.random.RandomState(0).randn(8, 4).astype(np.float32)
    history = model.fit(x, np.arange(8) % 3, batch_size=4, verbose=0)
    assert np.isfinite(history.history["loss"][0])


def test_real_tf_ran_the_directory_tf1compat_wrote(record, tmp_path):
    # What real TF's tf.saved_model.loader.load computed from tf1compat's directory is
    # what tf1compat's model predicted ...
    np.testing.assert_allclose(record["tf1compat_written.tf_loader"]["probs"],
                               record["tf1compat_written.predict"], rtol=1e-5, atol=1e-6)
    assert record["tf1compat_written.signature"] == {
        "inputs": ["hidden_input"], "outputs": ["probs"],
        "method_name": "tensorflow/serving/predict"}
    assert record["tf1compat_written.tags"] == ["serve"]
    # ... and tf1compat still writes that directory: same predictions, same signature.
    model = script.build_and_train(tf)
    np.testing.assert_allclose(model.predict(script.INPUT), record["tf1compat_written.predict"],
                               rtol=1e-5, atol=1e-6)
    path = str(tmp_path / "model")
    model.save(path, save_format="tf")
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], path)
        sig = meta.signature_def["serving_default"]
        assert (sorted(sig.inputs), sorted(sig.outputs)) == (["hidden_input"], ["probs"])
        out = sess.run(sig.outputs["probs"].name, {sig.inputs["hidden_input"].name: script.INPUT})
    np.testing.assert_allclose(out, record["tf1compat_written.tf_loader"]["probs"], rtol=1e-5,
                               atol=1e-6)
    ours = tf.keras.models.load_model(os.path.join(FIXTURES, "saved_model_tf1compat"))
    np.testing.assert_allclose(ours.predict(script.INPUT), record["tf1compat_written.predict"],
                               rtol=1e-5, atol=1e-6)


def test_real_tf_ran_a_dense_features_directory_tf1compat_wrote(record):
    """Vocabulary lookup tables are initialized by the loader (the SavedModel's main op)."""
    np.testing.assert_allclose(record["tf1compat_written_features.tf_loader"]["dense_1"],
                               record["tf1compat_written_features.predict"], rtol=1e-5,
                               atol=1e-6)
    assert record["tf1compat_written_features.signature"]["inputs"] == ["age", "thal"]
    model, features, _ = script.build_features_model(tf)
    np.testing.assert_allclose(model.predict(features),
                               record["tf1compat_written_features.predict"], rtol=1e-5,
                               atol=1e-6)
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(
            sess, ["serve"], os.path.join(FIXTURES, "saved_model_tf1compat_features"))
        sig = meta.signature_def["serving_default"]
        out = sess.run(sig.outputs["dense_1"].name,
                       {sig.inputs[k].name: features[k] for k in sig.inputs})
    np.testing.assert_allclose(out, record["tf1compat_written_features.tf_loader"]["dense_1"],
                               rtol=1e-5, atol=1e-6)


def _our_structure(path: str) -> dict:
    from tf1compat.serialization.messages import (SavedMetadata, SavedModel,
                                                  TrackableObjectGraph)
    return script.directory_structure(path, SavedModel, SavedMetadata, TrackableObjectGraph,
                                      tf.train.load_checkpoint)


@pytest.mark.parametrize("subdir,build,predicted", [
    ("saved_model_tf1compat", script.build_and_train, "tf1compat_written.predict"),
    ("saved_model_tf1compat_functional", script.build_functional,
     "tf1compat_written_functional.predict"),
    ("saved_model_tf1compat_subclassed", script.build_subclassed,
     "tf1compat_written_subclassed.predict"),
    ("saved_model_tf1compat_nested", script.build_nested, "tf1compat_written_nested.predict"),
    ("saved_model_tf1compat_features", lambda tf: script.build_features_model(tf)[0],
     "tf1compat_written_features.predict")])
def test_tf_keras_load_model_read_the_directories_tf1compat_wrote(record, tmp_path, subdir,
                                                                   build, predicted):
    """tf-keras 2.21's own load_model (and tf.saved_model.load) rebuilt tf1compat's models
    with their weights and predicted as tf1compat did; a directory tf1compat writes now
    has everything those loaders read then (object graph, Keras metadata, checkpoint
    keys and object graph), unchanged."""
    loaded = record[f"{subdir}.tf_keras_load_model"]
    for got, want in zip(loaded["predict"], record[predicted]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    model = build(tf)
    assert loaded["layers"] == [layer.name for layer in model.layers]
    assert loaded["weights"] == [w.name for w in model.weights]
    # The values tf1compat wrote into the directory (not a fresh build's: the nested
    # model's one RMSprop step moves a weight whose gradient is at rounding level by
    # +-0.03 or 0, whichever sign the processor's rounding gives it).
    with tf.Graph().as_default():
        written = tf.keras.models.load_model(os.path.join(FIXTURES, subdir), compile=False)
        written_values = written.get_weights()
    assert len(written_values) == len(loaded["values"])
    for got, want in zip(loaded["values"], written_values):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    if subdir == "saved_model_tf1compat":   # compiled: tf-keras recompiled it
        assert (loaded["optimizer"], loaded["loss"]) == ("Adam",
                                                        "sparse_categorical_crossentropy")
    if subdir == "saved_model_tf1compat_subclassed":
        assert (loaded["class"], loaded["optimizer"], loaded["loss"]) == (
            "Sub", "SGD", "mean_squared_error")
    # tf.saved_model.load ran the "serving_default" signature as a TF2 function (not for
    # the feature-column model: its lookup tables live in the TF1 graph only).
    if subdir == "saved_model_tf1compat_features":
        assert record[f"{subdir}.signatures"] == []
    else:
        assert record[f"{subdir}.signatures"] == ["serving_default"]
        served = record[f"{subdir}.serving_default"]
        outputs = (sorted(served) if subdir != "saved_model_tf1compat_nested"
                   else ["head", "inner"])
        want = record[predicted] if len(outputs) > 1 else [record[predicted]]
        for key, expected in zip(outputs, want):
            np.testing.assert_allclose(served[key], expected, rtol=1e-5, atol=1e-6)
    revived = record[f"{subdir}.tf_saved_model_load"]
    assert sum(not key.startswith("optimizer/") for key in revived) == len(model.weights)
    path = str(tmp_path / "model")
    model.save(path, save_format="tf")
    assert _our_structure(path) == record[f"{subdir}.structure"]
    # The values tf.saved_model.load revived are those of the checkpoint tf1compat wrote
    # (the fixture's: a fresh build trains again, see above).
    reader = tf.train.load_checkpoint(os.path.join(FIXTURES, subdir, "variables",
                                                   "variables"))
    for key, value in revived.items():
        np.testing.assert_allclose(
            reader.get_tensor(f"{key}/.ATTRIBUTES/VARIABLE_VALUE"), value, rtol=1e-5,
            atol=1e-7)


def test_subclassed_model_saved_model(record, tmp_path):
    """A subclassed model with get_config: real TF's TF1 loader ran its signature
    ("input_1" -> "output_1", as tf-keras keys it); load_model rebuilds it from its class
    in custom_objects (without it, test_revived_subclassed_models)."""
    np.testing.assert_allclose(record["tf1compat_written_subclassed.tf_loader"]["output_1"],
                               record["tf1compat_written_subclassed.predict"], rtol=1e-5,
                               atol=1e-6)
    assert record["tf1compat_written_subclassed.signature"] == {
        "inputs": ["input_1"], "outputs": ["output_1"],
        "method_name": "tensorflow/serving/predict"}
    path = os.path.join(FIXTURES, "saved_model_tf1compat_subclassed")
    sub = script.subclassed_class(tf)
    model = tf.keras.models.load_model(path, custom_objects={"Sub": sub})
    assert type(model) is sub and model.units == 3
    np.testing.assert_allclose(model.predict(script.INPUT),
                               record["tf1compat_written_subclassed.predict"], rtol=1e-5,
                               atol=1e-6)
    assert type(model.optimizer).__name__ == "SGD"
    assert model.loss.__name__ == "mean_squared_error"
    # The one tf-keras wrote (its input shape in its save spec) loads the same way.
    theirs = tf.keras.models.load_model(os.path.join(FIXTURES, "saved_model_tf_subclassed"),
                                        custom_objects={"Sub": sub})
    np.testing.assert_allclose(theirs.predict(script.INPUT),
                               record["tf_written_subclassed.predict"], rtol=1e-5, atol=1e-6)
    with pytest.raises(NotImplementedError, match="subclassed models"):
        script.build_subclassed(tf).save(str(tmp_path / "m.h5"))


def test_recurrent_model_round_trip_and_tf1_loader(tmp_path):
    inp = tf.keras.Input((5, 3), name="seq")
    h = tf.keras.layers.LSTM(4, return_sequences=True)(inp)
    out = tf.keras.layers.Dense(1, name="y")(tf.keras.layers.GRU(2)(h))
    model = tf.keras.Model(inp, out)
    model.compile("rmsprop", "mse")
    x = np.random.RandomState(1).rand(4, 5, 3).astype(np.float32)
    path = str(tmp_path / "rnn")
    model.save(path, save_format="tf")
    expected = model.predict(x)
    np.testing.assert_allclose(tf.keras.models.load_model(path).predict(x), expected,
                               rtol=1e-6)
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], path)
        sig = meta.signature_def["serving_default"]
        got = sess.run(sig.outputs["y"].name, {sig.inputs["seq"].name: x})
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_overwrite_replaces_the_directory_and_a_failed_save_leaves_it(tmp_path):
    path = tmp_path / "model"
    path.mkdir()
    (path / "stale.txt").write_text("old")
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    model.save(str(path), save_format="tf")
    assert sorted(os.listdir(path)) == ["keras_metadata.pb", "saved_model.pb", "variables"]

    class Sub(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)
    sub = Sub()
    sub(tf.keras.Input((3,)))
    with pytest.raises(NotImplementedError, match="subclassed Keras model Sub without a "
                                                  "get_config"):
        sub.save(str(path), save_format="tf")
    assert sorted(os.listdir(tmp_path)) == ["model"]
    assert sorted(os.listdir(path)) == ["keras_metadata.pb", "saved_model.pb", "variables"]


def test_a_plain_saved_model_is_not_a_keras_model(tmp_path):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.layers.dense(x, 1)
    path = str(tmp_path / "plain")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.saved_model.simple_save(sess, path, {"x": x}, {"y": y})
    with pytest.raises(NotImplementedError, match="keras_metadata.pb"):
        tf.keras.models.load_model(path)


def test_eager_round_trip(tmp_path):
    path = str(tmp_path / "eager")
    script_code = f"""
import numpy as np, tf1compat as tf
tf.enable_eager_execution()
m = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,), name="a"),
                         tf.keras.layers.Dense(2, name="b")])
m.compile("adam", "mse")
m.fit(np.ones((4, 4)), np.ones((4, 2)), verbose=0)
m.save({path!r}, save_format="tf")
loaded = tf.keras.models.load_model({path!r})
assert np.allclose(loaded.predict(np.ones((2, 4))), m.predict(np.ones((2, 4))))
loaded.fit(np.ones((4, 4)), np.ones((4, 2)), verbose=0)
import sys
sys.path.insert(0, {os.path.join(ROOT, "scripts")!r})
import record_keras_saved_models as script
sub = script.build_subclassed(tf)
sub.save({path + "_sub"!r}, save_format="tf")
again = tf.keras.models.load_model({path + "_sub"!r},
                                   custom_objects={{"Sub": script.subclassed_class(tf)}})
assert np.allclose(again.predict(script.INPUT), sub.predict(script.INPUT))
print("ok")
"""
    import subprocess
    proc = subprocess.run([sys.executable, "-c", script_code], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().endswith("ok")


def test_lambda_layers_round_trip(tmp_path):
    """Lambda layers (a `lambda`, a `def`, a lambda output shape, arguments) are stored in
    the metadata's config as tf-keras stores them (marshalled bytecode) and come back from
    the directory as from `.h5`."""
    inp = tf.keras.Input((4,), name="x")
    h = tf.keras.layers.Lambda(lambda t: t * 3.0 + 1.0, name="lam")(inp)
    h = tf.keras.layers.Lambda(lambda t, k: t[:, :k], output_shape=lambda s: (s[0], 2),
                               arguments={"k": 2}, name="arg")(h)
    model = tf.keras.Model(inp, tf.keras.layers.Dense(1, name="d")(h))
    expected = model.predict(script.INPUT)
    model.save(str(tmp_path / "sm"), save_format="tf")
    with open(tmp_path / "sm" / "keras_metadata.pb", "rb") as f:
        assert b'"function_type": "lambda"' in f.read()
    tf.reset_default_graph()
    loaded = tf.keras.models.load_model(str(tmp_path / "sm"))
    assert [layer.name for layer in loaded.layers] == ["x", "lam", "arg", "d"]
    assert loaded.layers[2].arguments == {"k": 2}
    np.testing.assert_allclose(loaded.predict(script.INPUT), expected, rtol=1e-6)


@pytest.mark.parametrize("directory", ["saved_model_tf_subclassed",
                                       "saved_model_tf1compat_subclassed"])
def test_revived_subclassed_models(directory):
    """Without its class, a subclassed model is revived as tf-keras revives it
    (tests/fixtures/keras/revived_subclassed.json, scripts/record_keras_revived.py): a
    class of the saved name with the saved weights, compiled; tf-keras's directory calls
    its traced function (same predictions; another input shape is a ValueError), and
    tf1compat's, which has none, loads but cannot be called (ValueError). Its inner layers
    are tf-keras's: the same classes, names, attributes and variables, callable alone."""
    with open(os.path.join(FIXTURES, "revived_subclassed.json")) as f:
        record = json.load(f)
    expected = record[directory]
    model = tf.keras.models.load_model(os.path.join(FIXTURES, directory))
    assert type(model).__name__ == expected["class"] and model.name == expected["name"]
    assert [w.name for w in model.weights] == expected["weights"]
    for value, want in zip(model.get_weights(), expected["values"]):
        np.testing.assert_allclose(value, want, rtol=1e-6)
    assert type(model.optimizer).__name__ == expected["optimizer"]
    assert model.loss.__name__ == expected["loss"]
    # Its inner layers, revived from their configs, own the model's variables.
    layers = [{"class": type(layer).__name__, "name": layer.name,
               "attributes": [k for k, v in vars(model).items()
                              if v is layer and not k.startswith("_")],
               "weights": [w.name for w in layer.weights], "built": layer.built,
               "trainable": [w.name for w in layer.trainable_weights],
               "units": getattr(layer, "units", None),
               "same_variables": [any(w is m for m in model.weights) for w in layer.weights]}
              for layer in model.layers]
    assert layers == expected["layers"]
    inner = np.asarray(record["inner_input"], np.float32)
    np.testing.assert_allclose(tf.keras.backend.eval(model.layers[-1](inner)),
                               expected["inner_call"]["value"], rtol=1e-5)
    assert expected["inner_wrong_shape"] == {"error": "ValueError"}
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 4"):
        model.layers[0](inner)
    if "value" in expected["predict"]:
        np.testing.assert_allclose(model.predict(script.INPUT), expected["predict"]["value"],
                                   rtol=1e-5, atol=1e-6)
        # It trains in graph mode too (the traced call is differentiable here).
        before = model.predict(script.INPUT)
        model.fit(script.INPUT, np.ones((2, 1), np.float32), epochs=2, verbose=0)
        assert np.abs(model.predict(script.INPUT) - before).max() > 1e-3
    else:
        with pytest.raises(ValueError, match="call function was not serialized"):
            model.predict(script.INPUT)
    with pytest.raises(ValueError):
        model(tf.constant(np.ones((3, 5), np.float32)))


def test_revived_nested_models_in_graph_mode():
    """In graph mode, a revived model's nested Sequential and functional models are those
    tf-keras revives under eager execution (tests/golden/eager_cases_keras_revived,
    case revived_nested_models): names, variables (the model's own), the layers inside
    them, predictions, each called alone, and training through them."""
    from tests.golden.harness import decode
    with open(os.path.join(ROOT, "tests", "golden", "data",
                           "eager_cases_keras_revived.json")) as f:
        expected = decode(json.load(f)["revived_nested_models"])["result"]
    tf.reset_default_graph()
    model = tf.keras.models.load_model(os.path.join(FIXTURES,
                                                    "saved_model_tf_subclassed_nested"))
    assert [w.name for w in model.weights] == expected["weights"]
    layers = [[type(layer).__name__, layer.name, [w.name for w in layer.weights],
               [[type(inner).__name__, inner.name, [w.name for w in inner.weights]]
                for inner in getattr(layer, "layers", [])],
               [any(w is m for m in model.weights) for w in layer.weights]]
              for layer in model.layers]
    assert layers == expected["layers"]
    x = np.array([[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 1.0]], np.float32)
    np.testing.assert_allclose(model.predict(x), expected["predict"], rtol=1e-5)
    block, head = model.layers[0], model.layers[1]
    np.testing.assert_allclose(tf.keras.backend.eval(block(x)), expected["block"],
                               rtol=1e-5)
    np.testing.assert_allclose(tf.keras.backend.eval(head(np.ones((2, 3), np.float32))),
                               expected["head"], rtol=1e-5)
    history = model.fit(x, np.ones((2, 1), np.float32), epochs=2, verbose=0).history
    np.testing.assert_allclose(history["loss"], expected["history"]["loss"], rtol=1e-5)


def test_revived_nested_subclassed_model_in_graph_mode():
    """In graph mode, a revived model's nested subclassed model is the one tf-keras
    revives under eager execution (tests/golden/eager_cases_keras_revived, case
    revived_nested_subclassed): a revived model of its class name with its own layers and
    the model's variables, called alone through its traced function (another input shape
    is tf-keras's ValueError); the model trains through it."""
    from tests.golden.eager_cases_keras_revived import nested_subclassed_view
    from tests.golden.harness import decode
    with open(os.path.join(ROOT, "tests", "golden", "data",
                           "eager_cases_keras_revived.json")) as f:
        expected = decode(json.load(f)["revived_nested_subclassed"])["result"]
    tf.reset_default_graph()
    model = tf.keras.models.load_model(os.path.join(FIXTURES,
                                                    "saved_model_tf_subclassed_inner"))
    got = nested_subclassed_view(tf, model, tf.keras.backend.eval)
    for key in ("class", "weights", "layers"):
        assert got[key] == expected[key], key
    for key in ("predict", "inner", "inner_first"):
        np.testing.assert_allclose(got[key], expected[key], rtol=1e-5, atol=1e-6)
    assert got["inner_wrong_shape"]["error"] == expected["inner_wrong_shape"]["error"] == \
        "ValueError"
    x = np.array([[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 1.0]], np.float32)
    history = model.fit(x, np.ones((2, 1), np.float32), epochs=2, verbose=0).history
    np.testing.assert_allclose(history["loss"], expected["history"]["loss"], rtol=1e-5)
    for got_w, want in zip(model.get_weights(), expected["after_fit"]):
        np.testing.assert_allclose(got_w, want, rtol=1e-5, atol=1e-6)


def test_revived_nested_subclassed_model_written_by_tf1compat():
    """tf1compat writes a nested subclassed model without get_config with tf-keras's
    "saved without config" marker; without the classes, tf1compat revives the directory
    as tf-keras does (tests/fixtures/keras/revived_subclassed.json,
    scripts/record_keras_revived.py): the nested revived model with its layers and the
    model's variables; its layers call, the models (no traced functions) raise
    ValueError."""
    with open(os.path.join(FIXTURES, "revived_subclassed.json")) as f:
        expected = json.load(f)["saved_model_tf1compat_subclassed_inner"]
    tf.reset_default_graph()
    model = tf.keras.models.load_model(os.path.join(FIXTURES,
                                                    "saved_model_tf1compat_subclassed_inner"))
    from tests.golden.keras_util import nested_layers
    assert type(model).__name__ == expected["class"]
    assert [w.name for w in model.weights] == expected["weights"]
    assert nested_layers(model) == expected["layers"]
    for value, want in zip(model.get_weights(), expected["values"]):
        np.testing.assert_allclose(value, want, rtol=1e-6)
    inner = model.layers[0]
    np.testing.assert_allclose(tf.keras.backend.eval(inner.layers[0](script.INPUT)),
                               expected["inner_first"]["value"], rtol=1e-5)
    assert expected["predict"] == expected["inner"] == {"error": "ValueError"}
    with pytest.raises(ValueError, match="call function was not serialized"):
        model.predict(script.INPUT)
    with pytest.raises(ValueError, match="custom layer inner of type Inner"):
        inner(tf.constant(script.INPUT))


def test_revived_subclassed_model_without_traced_functions_under_eager_execution():
    """Under eager execution too, a revived model without traced functions (tf1compat's
    directory) loads but cannot be called (tf-keras's ValueError); tf-keras's directory
    is called, fitted and differentiated eagerly in tests/golden/eager_cases_keras_revived."""
    script_code = f"""
import numpy as np, tf1compat as tf
tf.enable_eager_execution()
model = tf.keras.models.load_model(
    {os.path.join(FIXTURES, "saved_model_tf1compat_subclassed")!r})
assert model.weights[0].name == "sub/dense/kernel:0", model.weights[0].name
try:
    model(np.ones((2, 4), np.float32))
except ValueError as e:
    assert "call function was not serialized" in str(e)
    print("ok")
"""
    import subprocess
    proc = subprocess.run([sys.executable, "-c", script_code], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().endswith("ok")
