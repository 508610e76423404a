"""Golden cases: `Lambda` layers in configs and saved models as tf-keras stores them (a
Python function as `func_dump`'s marshalled bytecode, `function_type: "lambda"`; another
callable by name; output shapes and masks the same way), restored by `from_config`,
`model_from_json` and `load_model`, and an `.h5` with Lambda layers written by real
tf-keras (tests/fixtures/keras/lambda.h5, made by scripts/record_keras_fixtures.py).

The bytecode is CPython 3.11's (the oracle's and the test venv's): marshalled code is
specific to a Python version, and code of another version fails as `marshal` fails
(tf-keras checks nothing), which `case_lambda_bytecode_of_other_pythons` records.
"""

import json
import os
import tempfile
import warnings

import numpy as np

from tests.golden.harness import catch

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "fixtures", "keras")

SCALE = 3.0

# `lambda t: t * 2.0 + 1.0` marshalled by CPython 3.6.15 and 3.8.18 (`codecs.encode(
# marshal.dumps(f.__code__), "base64")`), as Keras 2.2/2.3 files of that time hold it.
PY36_CODE = ("4wEAAAAAAAAAAQAAAAIAAABDAAAAcwwAAAB8AGQBFABkAhcAUwApA07nAAAAAAAAAEDnAAAAAAAA\n"
             "8D+pACkB2gF0cgMAAAByAwAAANoIPHN0cmluZz7aCDxsYW1iZGE+AwAAAHMAAAAA\n")
PY38_CODE = ("4wEAAAAAAAAAAAAAAAEAAAACAAAAQwAAAHMMAAAAfABkARQAZAIXAFMAKQNO5wAAAAAAAABA5wAA\n"
             "AAAAAPA/qQApAdoBdHIDAAAAcgMAAADaCDxzdHJpbmc+2gg8bGFtYmRhPgMAAADzAAAAAA==\n")


def double(t):
    return t * 2.0


def _lambda_model(tf):
    x = tf.keras.Input((3,), name="x")
    h = tf.keras.layers.Lambda(lambda t: t * SCALE + 1.0, name="lam")(x)
    h = tf.keras.layers.Lambda(double, output_shape=(3,), name="fn")(h)
    h = tf.keras.layers.Lambda(lambda t, k: t[:, :k], output_shape=lambda s: (s[0], 2),
                               arguments={"k": 2}, name="arg")(h)
    out = tf.keras.layers.Dense(1, kernel_initializer="ones", name="d")(h)
    return tf.keras.Model(x, out)


def _code(serialized):
    """A `func_dump` triple with its bytecode as what it defines (the marshalled bytes also
    hold the absolute path of the file the function was written in)."""
    import codecs
    import marshal
    code = marshal.loads(codecs.decode(serialized[0].encode("ascii"), "base64"))
    return {"co_name": code.co_name, "co_varnames": list(code.co_varnames),
            "co_names": list(code.co_names), "co_consts": [repr(c) for c in code.co_consts],
            "defaults": serialized[1], "closure": serialized[2]}


def _stable(config):
    """A Lambda config with its bytecode as `_code` describes it."""
    config = dict(config)
    for key in ("function", "output_shape", "mask"):
        if config.get(key + "_type") == "lambda":
            config[key] = _code(config[key])
    return config


def _lambda_configs(model):
    return [_stable(layer.get_config()) for layer in model.layers
            if type(layer).__name__ == "Lambda"]


def case_lambda_config_and_round_trips(tf):
    model = _lambda_model(tf)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = {"configs": _lambda_configs(model),
           "json_layers": [_stable(layer["config"]) for layer in
                           json.loads(model.to_json())["config"]["layers"]],
           "predict": model.predict(x)}
    restored = tf.keras.models.model_from_json(model.to_json())
    out["from_json"] = restored.predict(x)
    out["from_json_configs"] = _lambda_configs(restored)
    with tempfile.TemporaryDirectory() as d:
        model.save(os.path.join(d, "m.h5"))
        loaded = tf.keras.models.load_model(os.path.join(d, "m.h5"))
        out["h5"] = loaded.predict(x)
        out["h5_configs"] = _lambda_configs(loaded)
    seq = tf.keras.Sequential([tf.keras.layers.Lambda(lambda t: t - 1.0, input_shape=(3,)),
                               tf.keras.layers.Dense(2, kernel_initializer="ones")])
    out["clone"] = tf.keras.models.clone_model(seq).predict(x)
    out["sequential_config"] = _stable(seq.get_config()["layers"][1]["config"])
    return out


def case_lambda_masks_and_arguments(tf):
    x = tf.keras.Input((4,), name="x")
    masked = tf.keras.layers.Lambda(lambda t: t * 2.0, mask=lambda t, m: None, name="m")
    weights = tf.keras.layers.Lambda(lambda t, w: t * w, name="w",
                                     arguments={"w": np.array([1.0, 2.0, 3.0, 4.0])})
    model = tf.keras.Model(x, weights(masked(x)))
    value = np.ones((1, 4), np.float32)
    config = model.get_config()
    restored = tf.keras.Model.from_config(config)
    # An ndarray argument stored as {"type": "ndarray", "value": [...]}.
    by_dict = weights.get_config()
    by_dict["arguments"] = {"w": {"type": "ndarray", "value": [4.0, 3.0, 2.0, 1.0]}}
    rebuilt = tf.keras.layers.Lambda.from_config(by_dict)
    return {"configs": [_stable(layer["config"]) for layer in config["layers"][1:]],
            "predict": model.predict(value), "restored": restored.predict(value),
            "ndarray_argument": rebuilt.arguments["w"],
            "ndarray_type": type(rebuilt.arguments["w"]).__name__}


def case_lambda_function_by_name(tf):
    """A callable that is not a Python function is stored by name ("function") and found
    again among the custom objects; bad types and names raise tf-keras's errors."""

    class Halve:
        __name__ = "Halve"
        __module__ = "not_a_loaded_module"

        def __call__(self, t):
            return t / 2.0

    layer = tf.keras.layers.Lambda(Halve(), name="halve")
    config = layer.get_config()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        missing = catch(lambda: tf.keras.layers.Lambda.from_config(dict(config)))
        found = tf.keras.layers.Lambda.from_config(dict(config),
                                                   custom_objects={"Halve": Halve()})
    value = found(tf.constant([[4.0, 8.0]]))
    with tf.Session() as sess:
        halved = sess.run(value)
    bad_type = dict(config, function_type="bytes")
    nameless = catch(lambda: tf.keras.layers.Lambda(object.__new__(type(
        "NoName", (), {"__call__": lambda self, t: t}))).get_config())
    return {"config": config, "missing": missing, "halved": halved,
            "warnings": sorted({str(w.message) for w in caught}),
            "bad_type": catch(lambda: tf.keras.layers.Lambda.from_config(bad_type),
                              message=True),
            "raw_function": catch(lambda: tf.keras.layers.Lambda(
                lambda t: t, output_shape=3).get_config()["output_shape_type"]),
            "nameless": nameless}


def case_lambda_bytecode_of_other_pythons(tf):
    """Keras files from Python 3.6 / 3.8 hold bytecode CPython 3.11 cannot unmarshal:
    loading fails with marshal's error, as in tf-keras."""
    out = {}
    for name, code in (("py36", PY36_CODE), ("py38", PY38_CODE)):
        config = tf.keras.layers.Lambda(lambda t: t).get_config()
        config["function"] = [code, None, None]
        out[name] = catch(lambda: tf.keras.layers.Lambda.from_config(config),
                          message=True)
    return out


def case_load_tf_keras_lambda_h5(tf):
    """lambda.h5 from real tf-keras: a Lambda that needs the global `K` of the script
    that wrote it loads only with `K` among the custom objects (the function's globals are
    its module's, here the loading program's `__main__`, plus the custom objects)."""
    path = os.path.join(FIXTURES, "lambda.h5")
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    without_k = catch(lambda: tf.keras.models.load_model(path), message=True)
    tf.reset_default_graph()
    model = tf.keras.models.load_model(path, custom_objects={"K": tf.keras.backend})
    return {"without_k": without_k, "predict": model.predict(x),
            "configs": _lambda_configs(model),
            "layers": [type(layer).__name__ for layer in model.layers]}
