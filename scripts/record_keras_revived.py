"""Records what tf-keras 2.21 revives from a subclassed model's SavedModel when the
model's class is not available (run with the TF venv, never in CI):

    /tmp/tf/bin/python scripts/record_keras_revived.py

For tests/fixtures/keras/saved_model_tf_subclassed/ (traced functions, written by
tf-keras) and saved_model_tf1compat_subclassed/ (none, written by tf1compat),
`tf.keras.models.load_model(dir)` without custom objects (TF2 behaviour: tf-keras 2.21
cannot load a SavedModel under `disable_v2_behavior`): the revived class's name, the
model's name, weights, predictions on record_keras_saved_models.INPUT, the compiled
optimizer and loss, what a call with another input shape raises, and its revived inner
layers (class, name, attribute, weights, an inner layer called on its own). Written to
tests/fixtures/keras/revived_subclassed.json; tests/test_keras_saved_model.py replays it.
Also what it revives from saved_model_tf1compat_subclassed_inner/ (a subclassed model
holding a subclassed model without get_config, written by tf1compat with

    .venv/bin/python scripts/record_keras_revived.py --write-tf1compat

before): the nested revived model, its layers and what calls raise.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "keras")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, ROOT)

DIRECTORIES = ("saved_model_tf_subclassed", "saved_model_tf1compat_subclassed")
NESTED = "saved_model_tf1compat_subclassed_inner"
# The second inner layer takes the first's 3 units; the first layer expects 4.
INNER_INPUT = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]]


def _error(fn: Any) -> Dict[str, Any]:
    try:
        return {"value": fn().tolist()}
    except Exception as e:  # noqa: BLE001 - the class tf-keras raises is the record
        return {"error": type(e).__name__}


def revived(tf: Any, directory: str) -> Dict[str, Any]:
    import numpy as np
    from record_keras_saved_models import INPUT
    model = tf.keras.models.load_model(os.path.join(FIXTURES, directory))
    inner = np.asarray(INNER_INPUT, np.float32)
    return {"class": type(model).__name__, "name": model.name,
            "weights": [w.name for w in model.weights],
            "values": [np.asarray(w).tolist() for w in model.get_weights()],
            "predict": _error(lambda: model.predict(INPUT, verbose=0)),
            "other_shape": _error(lambda: model(np.ones((3, 5), np.float32)).numpy()),
            "optimizer": type(model.optimizer).__name__,
            "loss": getattr(model.loss, "__name__", str(model.loss)),
            "layers": [_layer(model, layer) for layer in model.layers],
            "inner_call": _error(lambda: model.layers[-1](inner).numpy()),
            "inner_wrong_shape": _error(lambda: model.layers[0](inner).numpy())}


def _layer(model: Any, layer: Any) -> Dict[str, Any]:
    attribute = [k for k, v in vars(model).items() if v is layer and not k.startswith("_")]
    return {"class": type(layer).__name__, "name": layer.name, "attributes": attribute,
            "weights": [w.name for w in layer.weights], "built": layer.built,
            "trainable": [w.name for w in layer.trainable_weights],
            "units": getattr(layer, "units", None),
            "same_variables": [any(w is m for m in model.weights) for w in layer.weights]}


def revived_nested(tf: Any, directory: str) -> Dict[str, Any]:
    """The revived model of a directory without traced functions whose subclassed model
    holds a subclassed model: its structure, and what calling it and its parts gives."""
    import numpy as np
    from record_keras_saved_models import INPUT
    from tests.golden.keras_util import nested_layers
    model = tf.keras.models.load_model(os.path.join(FIXTURES, directory))
    inner = model.layers[0]
    return {"class": type(model).__name__, "weights": [w.name for w in model.weights],
            "values": [np.asarray(w).tolist() for w in model.get_weights()],
            "layers": nested_layers(model),
            "predict": _error(lambda: model.predict(INPUT, verbose=0)),
            "inner": _error(lambda: inner(INPUT).numpy()),
            "inner_first": _error(lambda: inner.layers[0](INPUT).numpy())}


def write_tf1compat_nested() -> int:
    """tf1compat writes saved_model_tf1compat_subclassed_inner/: an `Outer` (with
    get_config) holding an `Inner` subclassed model (without) of two Dense, fitted."""
    import shutil
    import numpy as np
    import tf1compat as tf
    from record_keras_saved_models import INPUT
    from tests.golden.keras_util import outer_inner_model
    tf.disable_v2_behavior()
    model = outer_inner_model(tf, outer_config=True)
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    model.fit(INPUT, np.ones((2, 1), np.float32), epochs=2, verbose=0)
    directory = os.path.join(FIXTURES, NESTED)
    shutil.rmtree(directory, ignore_errors=True)
    model.save(directory, save_format="tf")
    print("wrote", directory)
    return 0


def main() -> int:
    import tensorflow as tf
    tf.get_logger().setLevel("ERROR")
    record = {name: revived(tf, name) for name in DIRECTORIES}
    record[NESTED] = revived_nested(tf, NESTED)
    record["tensorflow"] = tf.__version__
    record["inner_input"] = INNER_INPUT
    path = os.path.join(FIXTURES, "revived_subclassed.json")
    with open(path, "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", path)
    return 0


if __name__ == "__main__":
    sys.exit(write_tf1compat_nested() if sys.argv[1:] == ["--write-tf1compat"] else main())
