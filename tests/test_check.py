"""`tf1compat check`: the static scan of TF1 scripts (nothing is run, TF is not needed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from tf1compat import cli
from tf1compat.check import check_paths
from tf1compat.check.scanner import scan_source
from tf1compat.check.support import MISSING, SUPPORTED, UNKNOWN, UNSUPPORTED, support_of
from tf1compat.framework import unsupported_api
from tests.migration import EXAMPLES
from tests.child_env import child_env


def _names(source: str) -> list:
    return [(u.line, u.module, u.attrs, u.kind) for u in scan_source(textwrap.dedent(source))]


def test_aliases_the_scan_follows():
    uses = _names("""
        import tensorflow as tf
        import tensorflow.compat.v1 as v1
        from tensorflow.compat import v1 as tfv1
        from tensorflow.contrib import slim
        import tensorflow.contrib.rnn as rnn
        from tensorflow.keras.layers import Dense as D
        from tensorflow.python.ops import math_ops
        import tensorflow
        compat = tensorflow.compat.v1
        def f():
            import tensorflow.contrib.layers as layers
            return layers.fully_connected
        a = tf.nn.rnn_cell.LSTMCell(3).zero_state(1, tf.float32)
        b = v1.placeholder + tfv1.layers.dense + slim.conv2d + rnn.LSTMCell
        c = D(3) + math_ops.add(1, 2) + getattr(tf, "flags") + compat.Variable
        d = something_else.nn.relu
    """)
    assert uses == [
        (2, "tensorflow", (), "import"),
        (3, "tensorflow", (), "import"),
        (4, "tensorflow", (), "import"),
        (5, "tensorflow.contrib", ("slim",), "import"),
        (6, "tensorflow.contrib.rnn", (), "import"),
        (7, "tensorflow.keras.layers", ("Dense",), "import"),
        (8, "tensorflow.python.ops", ("math_ops",), "import"),
        (9, "tensorflow", (), "import"),
        (10, "tensorflow", ("compat", "v1"), "name"),
        (12, "tensorflow.contrib.layers", (), "import"),
        (13, "tensorflow.contrib.layers", ("fully_connected",), "name"),
        (14, "tensorflow", ("nn", "rnn_cell", "LSTMCell"), "name"),
        (14, "tensorflow", ("float32",), "name"),
        (15, "tensorflow", ("placeholder",), "name"),
        (15, "tensorflow", ("layers", "dense"), "name"),
        (15, "tensorflow.contrib", ("slim", "conv2d"), "name"),
        (15, "tensorflow.contrib.rnn", ("LSTMCell",), "name"),
        (16, "tensorflow.keras.layers", ("Dense",), "name"),
        (16, "tensorflow.python.ops", ("math_ops", "add"), "name"),
        (16, "tensorflow", ("flags",), "name"),
        (16, "tensorflow", ("compat", "v1", "Variable"), "name"),
    ]


def test_support_answers():
    assert support_of("nn.relu").status == SUPPORTED
    assert support_of("compat.v1.train.AdamOptimizer").status == SUPPORTED
    assert support_of("GraphKeys.TRAINABLE_VARIABLES").status == SUPPORTED
    lite = support_of("lite.TFLiteConverter")
    assert lite.status == UNSUPPORTED and "TensorFlow Lite" in lite.reason
    assert "torch.export" in lite.replacement
    typo = support_of("nn.relu_layer_typo")
    assert typo.status == UNKNOWN and "Did you mean tf.nn.relu_layer?" in typo.reason
    assert support_of("GraphKeys.NOT_A_KEY").status == UNKNOWN


def test_names_the_scanned_code_sets_on_tf_are_supported_in_every_file(tmp_path):
    # tflearn adds its collection keys to tf.GraphKeys in one module, reads them elsewhere
    (tmp_path / "keys.py").write_text("import tensorflow as tf\n"
                                      "tf.GraphKeys.LAYER_TENSOR = 'layer_tensor'\n")
    (tmp_path / "layers.py").write_text("import tensorflow.compat.v1 as tf\n"
                                        "tf.add_to_collection(tf.GraphKeys.LAYER_TENSOR, 1)\n"
                                        "tf.GraphKeys.NOT_SET_ANYWHERE\n")
    report = check_paths([str(tmp_path)])
    found = {(os.path.basename(f.file), f.name): f for f in report.findings}
    for file in ("keys.py", "layers.py"):
        finding = found[(file, "tf.GraphKeys.LAYER_TENSOR")]
        assert finding.status == SUPPORTED and "keys.py:2" in finding.reason
    assert found[("layers.py", "tf.GraphKeys.NOT_SET_ANYWHERE")].status == UNKNOWN
    assert [use.kind for use in scan_source("import tensorflow as tf\ntf.A.b = 1\n")] == \
        ["import", "assign"]


def test_report_of_a_script(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""
        import tensorflow as tf
        from tensorflow.contrib.tensorrt import create_inference_graph
        from tensorflow.python.ops import math_ops, gen_nn_ops
        import tensorflow_hub as hub
        x = tf.placeholder(tf.float32)
        rewrite = tf.train.do_quantize_training_on_graphdef
        y = math_ops.add(x, x)
    """))
    report = check_paths([str(tmp_path)])
    assert report.files == [str(script)]
    by_name = {f.name: f for f in report.findings}
    assert by_name["tf.placeholder"].status == SUPPORTED
    assert (by_name["tf.placeholder"].line, by_name["tf.placeholder"].col) == (6, 5)
    assert by_name["tensorflow.python.ops.math_ops.add"].status == SUPPORTED
    assert by_name["tf.contrib.tensorrt.create_inference_graph"].status == UNSUPPORTED
    assert "torch-tensorrt" in by_name[
        "tf.contrib.tensorrt.create_inference_graph"].replacement
    assert by_name["tf.train.do_quantize_training_on_graphdef"].status == UNSUPPORTED
    assert by_name["tensorflow.python.ops.gen_nn_ops"].status == MISSING
    assert by_name["tensorflow_hub"].kind == "package"
    summary = report.summary()
    assert summary["unsupported_names"] == 4 and summary["files"] == 1
    assert [e["name"] for e in report.unsupported()] == [
        "tensorflow.python.ops.gen_nn_ops", "tensorflow_hub",
        "tf.contrib.tensorrt.create_inference_graph",
        "tf.train.do_quantize_training_on_graphdef"]


def test_unreadable_files_are_reported(tmp_path):
    (tmp_path / "broken.py").write_text("import tensorflow as tf\ndef (:\n")
    (report_finding,) = check_paths([str(tmp_path)]).findings
    assert report_finding.status == "error" and report_finding.line == 2


def test_cli_text_json_and_exit_status(tmp_path, capsys):
    good = tmp_path / "good.py"
    good.write_text("import tensorflow as tf\nx = tf.constant(1)\n")
    bad = tmp_path / "bad.py"
    bad.write_text("import tensorflow as tf\nm = tf.contrib.learn.DynamicRnnEstimator\n")
    assert cli.main(["check", str(good)]) == 0
    out = capsys.readouterr().out
    assert f"{good}:2:5: tf.constant: supported" in out
    assert "1 file(s), 2 use(s) of 2 TensorFlow name(s): 2 supported, 0 not supported." in out
    assert cli.main(["check", "--problems-only", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "tf.constant" not in out.split("\n\n")[0]
    # The reason and the replacement come from the table of unsupported names.
    entry = unsupported_api.lookup("contrib.learn.DynamicRnnEstimator")
    assert entry.reason.startswith("tf.contrib.learn was deprecated") and entry.replacement
    assert (f"{bad}:2:5: tf.contrib.learn.DynamicRnnEstimator: unsupported - {entry.reason}. "
            f"Instead: {entry.replacement}.") in out
    assert cli.main(["check", "--json", str(bad)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["unsupported_names"] == 1
    assert data["unsupported"][0]["locations"] == [f"{bad}:2"]
    assert {u["name"] for u in data["uses"]} == {"tensorflow",
                                                 "tf.contrib.learn.DynamicRnnEstimator"}
    assert cli.main(["check", str(tmp_path / "missing.py")]) == 2


def test_check_of_the_migration_examples_runs_nothing_and_passes():
    env = child_env()
    proc = subprocess.run([sys.executable, "-m", "tf1compat", "check", "--json", EXAMPLES],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    data = json.loads(proc.stdout)
    examples = sorted(d for d in os.listdir(EXAMPLES)
                      if os.path.isdir(os.path.join(EXAMPLES, d)))
    assert len(data["files"]) >= len(examples)
    assert data["summary"]["unsupported_names"] == 0
    names = {u["name"] for u in data["uses"]}
    assert {"tf.placeholder", "tf.nn.rnn_cell.LSTMCell", "tf.layers.conv2d",
            "tf.train.AdamOptimizer", "tf.data.TFRecordDataset"} <= names
    # nothing ran: no example wrote its output files or printed
    assert "step" not in proc.stderr


@pytest.mark.parametrize("source,status", [
    ("import tensorflow.contrib.lite as lite\n", UNSUPPORTED),
    # a namespace the table explains but tf1compat provides in part: its names are
    # checked one by one (Experiment is provided, Estimator is not)
    ("import tensorflow.contrib.learn as learn\n", SUPPORTED),
    ("from tensorflow.contrib.learn import Experiment\n", SUPPORTED),
    ("from tensorflow.contrib.learn import SVM\n", SUPPORTED),
    ("from tensorflow.contrib.learn import DynamicRnnEstimator\n", UNSUPPORTED),
    ("from tensorflow.contrib.learn import DNNClassifier\n", SUPPORTED),
    ("from tensorflow.python.util import keras_deps\n", MISSING),
    ("import tensorflow.python.no_such_module\n", UNSUPPORTED),
])
def test_imports_tf1compat_does_not_provide(tmp_path, source, status):
    path = tmp_path / "s.py"
    path.write_text(source)
    (finding,) = check_paths([str(path)]).findings
    assert finding.status == status, finding


def test_standalone_keras_names_are_scanned(tmp_path):
    # `import keras` resolves to tf1compat's Keras (shim_keras.py): its names are checked
    script = tmp_path / "keras_script.py"
    script.write_text(textwrap.dedent("""
        import keras
        from keras.models import Sequential
        from keras.layers import Dense, Merge
        from keras.layers.core import Lambda
        from keras import backend as K
        from keras.backend import theano_backend
        import keras.layers.recurrent
        shape = K.int_shape(None)
        K.no_such_function(1)
        keras.layers.Recurrent
        keras.utils.multi_gpu_model
    """))
    assert ("keras.layers", ("Dense",), "import") in [
        (u.module, u.attrs, u.kind) for u in scan_source(script.read_text())]
    report = check_paths([str(script)])
    by_name = {f.name: f for f in report.findings}
    for name in ("keras", "keras.models.Sequential", "keras.layers.Dense",
                 "keras.layers.core.Lambda", "keras.backend", "keras.backend.int_shape",
                 "keras.layers.recurrent", "keras.utils.multi_gpu_model"):
        assert by_name[name].status == SUPPORTED, by_name[name]
        assert by_name[name].kind == "keras"
    assert by_name["keras.layers.Merge"].status == MISSING
    assert "'Merge'" in by_name["keras.layers.Merge"].reason
    assert by_name["keras.backend.no_such_function"].status == MISSING
    assert by_name["keras.backend.theano_backend"].status == MISSING
    assert "Recurrent" in by_name["keras.layers.Recurrent"].reason
    assert "keras" not in sys.modules or not hasattr(sys.modules["keras"],
                                                     "_tf1compat_sources")
