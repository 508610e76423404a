"""`$KERAS_HOME/keras.json` sets floatx, epsilon and image_data_format on import, as TF's
Keras does (facts from tf-keras's backend; checked by hand against TF 2.15's keras 2.15:
float64 / 1e-05 / channels_first from the file below give the same three values)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from tests.child_env import child_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODE = ("import tf1compat as tf; K = tf.keras.backend; "
        "print(K.floatx(), K.epsilon(), K.image_data_format())")


def _settings(keras_home: str) -> subprocess.CompletedProcess:
    env = child_env(KERAS_HOME=keras_home)
    return subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                          env=env, timeout=300)


def test_keras_json_sets_the_backend_defaults(tmp_path):
    (tmp_path / "keras.json").write_text(json.dumps({
        "floatx": "float64", "epsilon": 1e-05, "backend": "tensorflow",
        "image_data_format": "channels_first"}))
    proc = _settings(str(tmp_path))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["float64", "1e-05", "channels_first"]


def test_missing_partial_or_unreadable_keras_json(tmp_path):
    missing = _settings(str(tmp_path / "nowhere"))
    assert missing.stdout.split() == ["float32", "1e-07", "channels_last"]
    assert not (tmp_path / "nowhere").exists()          # tf1compat does not write the file
    (tmp_path / "keras.json").write_text('{"image_data_format": "channels_first"}')
    assert _settings(str(tmp_path)).stdout.split() == ["float32", "1e-07", "channels_first"]
    (tmp_path / "keras.json").write_text("not json")
    assert _settings(str(tmp_path)).stdout.split() == ["float32", "1e-07", "channels_last"]


def test_keras_json_with_a_bad_value_fails_as_in_tf(tmp_path):
    (tmp_path / "keras.json").write_text('{"epsilon": 1}')
    proc = _settings(str(tmp_path))
    assert proc.returncode != 0
    assert "AssertionError" in proc.stderr and "epsilon 1 is not a float" in proc.stderr
