"""Keras SavedModel directories both ways between tf-keras and tf1compat, recorded.

    python scripts/record_keras_saved_models.py            # needs /tmp/tf (tf-keras 2.21)
    python scripts/record_keras_saved_models.py --tf PYTHON_OF_A_TF_VENV

Step 1 (the TF venv, a subprocess): real tf-keras 2.21 under TF1 behaviour trains a small
model and writes it with `model.save(dir, save_format="tf")` to
tests/fixtures/keras/saved_model_tf/ (with its predictions and optimizer state).
Step 2 (this interpreter, tf1compat): the same model, trained the same way, is written by
tf1compat to tests/fixtures/keras/saved_model_tf1compat/, and a DenseFeatures model
(vocabulary lookup tables) to saved_model_tf1compat_features/. Step 3 (the TF venv): real
TF opens tf1compat's directories with the TF1 loader `tf.saved_model.loader.load` and runs
their "serving_default" signatures. Everything TF saw goes to
tests/fixtures/keras/saved_models.json; tests/test_keras_saved_model.py replays it without
TensorFlow.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from typing import Any, Dict

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "keras")
TF_PYTHON = "/tmp/tf/bin/python"
INPUT = np.array([[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 1.0]], np.float32)


def build_and_train(tf: Any) -> Any:
    """A Dense/Dropout/Dense classifier with seeded weights, one epoch of Adam."""
    init = tf.keras.initializers.glorot_uniform
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(5, activation="relu", input_shape=(4,), name="hidden",
                              kernel_initializer=init(seed=1)),
        tf.keras.layers.Dropout(0.5, seed=3, name="drop"),
        tf.keras.layers.Dense(3, activation="softmax", name="probs",
                              kernel_initializer=init(seed=2))])
    model.compile(tf.keras.optimizers.Adam(0.05), "sparse_categorical_crossentropy",
                  metrics=["acc"])
    x = np.random.RandomState(0).randn(8, 4).astype(np.float32)
    y = np.arange(8) % 3
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    return model


def _listed(value: Any) -> Any:
    return np.asarray(value).tolist()


def tf_write(out_dir: str) -> Dict[str, Any]:
    """tf-keras writes its SavedModel (run under TensorFlow)."""
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    model = build_and_train(tf)
    shutil.rmtree(out_dir, ignore_errors=True)
    model.save(out_dir, save_format="tf")
    # (fingerprint.pb changes with every write and nothing reads it here)
    os.remove(os.path.join(out_dir, "fingerprint.pb"))
    return {"tf_written.predict": _listed(model.predict(INPUT)),
            "tf_written.optimizer": [_listed(w) for w in model.optimizer.get_weights()],
            "tensorflow": tf.__version__}


def build_features_model(tf: Any) -> Any:
    """The DenseFeatures golden cases' model (numeric, bucketized, vocabulary columns)."""
    from tests.golden.cases_keras_dense_features_saving import _model
    return _model(tf)


def tf_read(directory: str) -> Dict[str, Any]:
    """Real TF's TF1 loader opens tf1compat's directories and runs their signatures."""
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    from tests.golden.keras_features_util import features_and_labels
    features, _ = features_and_labels()
    result = {}
    for name, subdir, feeds in (
            ("tf1compat_written", "saved_model_tf1compat", {"hidden_input": INPUT}),
            ("tf1compat_written_features", "saved_model_tf1compat_features", features)):
        with tf.Graph().as_default(), tf.Session() as sess:
            meta = tf.saved_model.loader.load(sess, ["serve"], os.path.join(directory, subdir))
            signature = meta.signature_def["serving_default"]
            out = sess.run({k: v.name for k, v in signature.outputs.items()},
                           {signature.inputs[k].name: v for k, v in feeds.items()})
        result[f"{name}.tf_loader"] = {k: _listed(v) for k, v in out.items()}
        result[f"{name}.signature"] = {
            "inputs": sorted(signature.inputs), "outputs": sorted(signature.outputs),
            "method_name": signature.method_name}
        result[f"{name}.tags"] = list(meta.meta_info_def.tags)
    return result


def _run_tf(python: str, mode: str, directory: str) -> Dict[str, Any]:
    env = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([python, os.path.abspath(__file__), mode, directory],
                          capture_output=True, text=True, env=env)
    if proc.returncode:
        sys.stderr.write(proc.stderr[-5000:])
        raise SystemExit(proc.returncode)
    return json.loads(proc.stdout)


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tf", default=TF_PYTHON, help="python of a TensorFlow venv")
    parser.add_argument("--tf-write", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--tf-read", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sys.path.insert(0, ROOT)
    if args.tf_write or args.tf_read:
        result = tf_write(args.tf_write) if args.tf_write else tf_read(args.tf_read)
        json.dump(result, sys.stdout, sort_keys=True)
        return 0
    record = _run_tf(args.tf, "--tf-write", os.path.join(FIXTURES, "saved_model_tf"))
    import tf1compat as tf
    model = build_and_train(tf)
    model.save(os.path.join(FIXTURES, "saved_model_tf1compat"), save_format="tf")
    record["tf1compat_written.predict"] = _listed(model.predict(INPUT))
    tf.reset_default_graph()
    tf.keras.backend.clear_session()
    model, features, _ = build_features_model(tf)
    model.save(os.path.join(FIXTURES, "saved_model_tf1compat_features"), save_format="tf")
    record["tf1compat_written_features.predict"] = _listed(model.predict(features))
    record.update(_run_tf(args.tf, "--tf-read", FIXTURES))
    with open(os.path.join(FIXTURES, "saved_models.json"), "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"TensorFlow {record['tensorflow']} wrote and read Keras SavedModels; recorded "
          f"{os.path.join(FIXTURES, 'saved_models.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
