"""Drop-in use: `tf1compat.install()`, internal import paths, `tf1compat run`, versions."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tf1compat
from tests.child_env import child_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run_python(code: str, *args: str, cwd: str = ROOT) -> subprocess.CompletedProcess:
    env = child_env()
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300)


def test_versions():
    assert tf1compat.__version__.startswith("1.")
    assert tf1compat.VERSION == tf1compat.__version__
    assert tf1compat.__tf1compat_version__ == "0.1.0"
    assert tf1compat.version.VERSION.startswith("1.")


def test_install_makes_tensorflow_importable():
    code = textwrap.dedent("""
        import tf1compat; tf1compat.install()
        import tensorflow as tf
        import tensorflow.compat.v1 as v1
        v1.disable_v2_behavior()
        from tensorflow.python.framework import ops, dtypes, tensor_shape, constant_op
        from tensorflow.python.ops import math_ops, array_ops
        from tensorflow.python.client import device_lib
        from tensorflow.python.platform import gfile
        import tensorflow.python.framework.ops as ops2
        ops.reset_default_graph()
        g = ops.Graph()
        assert tf is v1 and ops is ops2
        assert ops.convert_to_tensor(1.0).dtype == dtypes.float32
        assert tensor_shape.TensorShape([1]).as_list() == [1]
        assert any(d.device_type == "CPU" for d in device_lib.list_local_devices())
        assert gfile.Exists(".")
        from tensorflow import nn, train
        from tensorflow.python.training import training  # facenet.py's import
        assert training.NewCheckpointReader is train.NewCheckpointReader
        print("ok", tf.__version__)
    """)
    proc = _run_python(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok 1.")


def test_tensor_array_ops_internal_path():
    # SeqGAN's generator.py: TensorArrays written inside control_flow_ops.while_loop.
    code = textwrap.dedent("""
        import tf1compat; tf1compat.install()
        import tensorflow as tf
        from tensorflow.python.ops import tensor_array_ops, control_flow_ops
        ta = tensor_array_ops.TensorArray(dtype=tf.float32, size=3, dynamic_size=False,
                                          infer_shape=True)
        body = lambda i, ta: (i + 1, ta.write(i, 2.0 * tf.cast(i, tf.float32)))
        _, ta = control_flow_ops.while_loop(lambda i, _: i < 3, body, (tf.constant(0), ta))
        assert tensor_array_ops.TensorArray is tf.TensorArray
        with tf.Session() as sess:
            print("ok", sess.run(ta.stack()).tolist())
    """)
    proc = _run_python(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok [0.0, 2.0, 4.0]"


def test_framework_ops_tensor_like_base():
    # TF 1.15's ops._TensorLike, the base of Tensor, SparseTensor and IndexedSlices (TF 2.21
    # has none to record a golden from); standalone Keras 2.2.4's K.is_tensor tests it.
    from tf1compat.internal import framework_ops as ops
    tf = tf1compat
    with tf.Graph().as_default():
        t = tf.constant([1.0])
        v = tf.Variable([1.0])
        sp = tf.SparseTensor([[0]], [1.0], [2])
        sl = tf.IndexedSlices(t, tf.constant([0]))
        assert [isinstance(x, ops._TensorLike) for x in (t, sp, sl, v, np.ones(1), 1.0)] == \
            [True, True, True, False, False, False]


def test_tpu_program_imports():
    # tensorflow/tpu's efficientnet/mnasnet and google-research/simclr import these at module
    # level: TF 2's summaries (tf.compat.v2), the TPU context (single replica: no shards),
    # TF 2's graph functions beside them, and XLA's op wrappers, whose ops say they need an
    # XLA compilation when used.
    code = textwrap.dedent("""
        import tf1compat; tf1compat.install()
        import tensorflow.compat.v1 as tf
        import tensorflow.compat.v2 as tf2
        from tensorflow.python.tpu import tpu_function
        from tensorflow.compiler.tf2xla.python import xla
        assert tf2 is tf.compat.v2 and tf2.summary.scalar is not None
        print("shards", tpu_function.get_tpu_context().number_of_shards)
        import tensorflow.compat.v2.nn as nn2
        from tensorflow.compat.v2.keras import layers
        assert nn2 is tf2.nn and layers.Dense is tf.keras.layers.Dense
        print("v2", tf2.constant(1).name, tf2.reduce_sum(tf.ones([2]), keepdims=True).shape)
        for thunk in (lambda: xla.replica_id(), lambda: tf2.saved_model.load):
            try:
                thunk()
            except NotImplementedError as e:
                print("NI", str(e).split(":")[0])
    """)
    proc = _run_python(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n")[:4] == [
        "shards None", "v2 Const:0 (1,)",
        "NI tensorflow.compiler.tf2xla.python.xla.replica_id is not implemented by tf1compat",
        "NI tf.compat.v2.saved_model.load is not implemented by tf1compat"]


def test_unknown_internal_path_is_a_clear_import_error():
    code = textwrap.dedent("""
        import tf1compat; tf1compat.install()
        try:
            from tensorflow.python.training import moving_averages_internal_thing
        except ImportError as e:
            print("ERR", e)
    """)
    proc = _run_python(code)
    assert proc.returncode == 0, proc.stderr
    assert "ERR tf1compat does not provide TensorFlow's module" in proc.stdout
    assert "tensorflow.python.training" in proc.stdout


def test_missing_contrib_module_names_the_contrib_piece():
    code = textwrap.dedent("""
        import tf1compat; tf1compat.install()
        try:
            from tensorflow.contrib.timeseries import ARRegressor
        except ImportError as e:
            print("ERR", e)
    """)
    proc = _run_python(code)
    assert proc.returncode == 0, proc.stderr
    assert "ERR tf.contrib.timeseries is part of TensorFlow 1.x's tf.contrib but is not " \
        "implemented by tf1compat." in proc.stdout
    assert "Instead: tf.keras recurrent models" in proc.stdout


def test_contrib_module_refused_on_purpose_is_not_implemented_and_an_import_error():
    # aymericdamien's random_forest.py / gradient_boosted_decision_tree.py import these
    code = textwrap.dedent("""
        import tf1compat; tf1compat.install()
        for path in ("tensorflow.contrib.tensor_forest.python",
                     "tensorflow.contrib.boosted_trees.estimator_batch.estimator"):
            try:
                __import__(path)
            except ImportError as e:
                print("ERR", isinstance(e, NotImplementedError), e)
    """)
    proc = _run_python(code)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("ERR True tf.contrib.tensor_forest is part of TensorFlow "
                               "1.x's tf.contrib but is not implemented by tf1compat.")
    assert "Instead: a forest from scikit-learn" in lines[0]
    assert lines[1].startswith("ERR True tf.contrib.boosted_trees is part of")


def test_cli_runs_script_as_main_with_argv(tmp_path):
    script = tmp_path / "legacy.py"
    script.write_text(textwrap.dedent("""
        import sys
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None])
        with tf.Session() as sess:
            print(__name__, sys.argv[1:], sess.run(tf.reduce_sum(x), {x: [1.0, 2.0]}))
    """))
    env = child_env()
    proc = subprocess.run([sys.executable, "-m", "tf1compat", "run", str(script), "--flag", "3"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "__main__ ['--flag', '3'] 3.0"


def test_cli_exit_code_and_usage(tmp_path):
    script = tmp_path / "fails.py"
    script.write_text("import sys\nsys.exit(3)\n")
    from tf1compat.cli import main
    assert main(["run", str(script)]) == 3
    assert main(["run", str(tmp_path / "missing.py")]) == 2
    assert main(["--version"]) == 0
    assert main(["bogus"]) == 2


def test_cli_runs_module_as_python_dash_m(tmp_path):
    (tmp_path / "legacy_mod.py").write_text(textwrap.dedent("""
        import sys
        import tensorflow as tf
        print(__name__, sys.argv[0].endswith("legacy_mod.py"), sys.argv[1:],
              tf.Session().run(tf.constant(2.0) * 3))
    """))
    env = child_env()
    proc = subprocess.run([sys.executable, "-m", "tf1compat", "run", "-m", "legacy_mod",
                           "-x", "--flag=3"], capture_output=True, text=True, env=env,
                          timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "__main__ True ['-x', '--flag=3'] 6.0"
    from tf1compat.cli import main
    assert main(["run", "-m", "no_such_module_here"]) == 1


def test_cli_runs_a_projects_tf1_test_suite_with_pytest(tmp_path):
    (tmp_path / "test_legacy.py").write_text(textwrap.dedent("""
        import tensorflow as tf

        class AddTest(tf.test.TestCase):
            def test_add(self):
                with self.test_session() as sess:
                    self.assertAllClose(sess.run(tf.add(1.0, 2.0)), 3.0)

            def test_fails(self):
                with self.test_session() as sess:
                    self.assertAllClose(sess.run(tf.add(1.0, 2.0)), 4.0)
    """))
    env = child_env()
    proc = subprocess.run([sys.executable, "-m", "tf1compat", "run", "-m", "pytest", "-q",
                           "-p", "no:cacheprovider", "test_legacy.py"],
                          capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "1 failed, 1 passed" in proc.stdout


def test_cli_app_run_and_flags(tmp_path):
    script = tmp_path / "flags_script.py"
    script.write_text(textwrap.dedent("""
        import tensorflow as tf
        flags = tf.app.flags
        flags.DEFINE_integer("steps", 5, "number of steps")
        FLAGS = flags.FLAGS
        def main(_):
            print("steps", FLAGS.steps)
        if __name__ == "__main__":
            tf.app.run()
    """))
    env = child_env()
    proc = subprocess.run([sys.executable, "-m", "tf1compat", "run", str(script), "--steps=7"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "steps 7"


def test_logging_and_gfile(tmp_path):
    tf1compat.logging.set_verbosity(tf1compat.logging.INFO)
    assert tf1compat.logging.get_verbosity() == tf1compat.logging.INFO
    path = str(tmp_path / "sub" / "f.txt")
    tf1compat.gfile.MakeDirs(os.path.dirname(path))
    with tf1compat.gfile.GFile(path, "w") as f:
        f.write("hello\n")
    assert tf1compat.gfile.Exists(path)
    assert tf1compat.gfile.GFile(path).read() == "hello\n"
    assert tf1compat.gfile.ListDirectory(os.path.dirname(path)) == ["f.txt"]
    with pytest.raises(tf1compat.errors.NotFoundError):
        tf1compat.gfile.GFile(str(tmp_path / "missing")).read()


def test_missing_symbols_explain_themselves():
    with pytest.raises(AttributeError, match=r"tf.placehodler does not exist .*Did you mean "
                                             r"tf.placeholder"):
        tf1compat.placehodler
    with pytest.raises(AttributeError, match="part of the TensorFlow 1.x API but is not "
                                             "implemented by tf1compat"):
        tf1compat.io.decode_jxl
    with pytest.raises(AttributeError, match=r"Did you mean tf.nn.relu"):
        tf1compat.nn.reluu
    assert not hasattr(tf1compat, "definitely_not_a_tf_name")


def test_every_internal_path_names_a_module_that_imports():
    # A stale target (a module moved or removed) would make `from tensorflow.X import Y`
    # fail with "tf1compat does not provide", as it did for meta_graph_pb2.
    import importlib

    from tf1compat.shim import INTERNAL_PATHS
    broken = []
    for path, target in INTERNAL_PATHS.items():
        try:
            importlib.import_module(target)
        except ImportError as e:
            broken.append(f"{path} -> {target}: {e}")
    assert not broken, broken


def test_realcode_aa_internal_imports_resolve():
    # balancap/SSD-Tensorflow's tf_extended imports these TF 1.15 modules by path; the
    # names it uses are the public ones (set_ops is TF 1.15's alias module of tf.sets).
    code = textwrap.dedent("""
        import tf1compat; tf1compat.install()
        import tensorflow as tf
        from tensorflow.contrib.metrics.python.ops import set_ops
        from tensorflow.python.framework import sparse_tensor
        from tensorflow.python.ops import check_ops
        print(set_ops.set_intersection is tf.sets.set_intersection,
              set_ops.set_size is tf.sets.set_size,
              sparse_tensor.SparseTensor is tf.SparseTensor,
              sparse_tensor.SparseTensorValue is tf.SparseTensorValue,
              check_ops.assert_positive is tf.assert_positive,
              check_ops.assert_equal is tf.assert_equal)
        # deepmind/learning-to-learn: TF 1.15's deprecated aliases of tf.train's classes
        from tensorflow.contrib.learn.python.learn import monitored_session as ms
        print(ms.MonitoredSession is tf.train.MonitoredSession,
              ms.Scaffold is tf.train.Scaffold,
              ms.ChiefSessionCreator is tf.train.ChiefSessionCreator)
    """)
    proc = _run_python(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True"] * 9


def test_tensorflow_core_protos_resolve():
    code = textwrap.dedent("""
        import tf1compat; tf1compat.install()
        from tensorflow.core.protobuf import meta_graph_pb2, saved_model_pb2
        print(meta_graph_pb2.MetaGraphDef.__name__, saved_model_pb2.SavedModel.__name__)
    """)
    proc = _run_python(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["MetaGraphDef", "SavedModel"]


def test_cli_reports_an_uncaught_error_from_the_script_as_python_does(tmp_path):
    """The traceback starts at the script (no tf1compat CLI or runpy frames) and ends with
    the error; the exit status is 1."""
    script = tmp_path / "typo.py"
    script.write_text("import tensorflow as tf\n\ndef build():\n    return tf.placeholdr\n\n"
                      "build()\n")
    proc = subprocess.run([sys.executable, "-m", "tf1compat", "run", str(script)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1].startswith(f'  File "{script}", line 6')
    assert "cli.py" not in proc.stderr and "runpy" not in proc.stderr
    assert "Did you mean tf.placeholder" in lines[-1]


def test_tensorflow_python_keras_paths_are_tf_keras():
    # TF 1.x's tf.keras lives at tensorflow.python.keras (tensorflow.python.keras._impl.keras
    # before TF 1.9); tutorials import models, layers and engine modules from there.
    code = textwrap.dedent("""
        import tf1compat; tf1compat.install()
        import tensorflow as tf
        from tensorflow.python.keras.models import Model, Sequential, load_model
        from tensorflow.python.keras.layers import Dense, Input
        from tensorflow.python.keras import backend as K
        from tensorflow.python.keras.layers.core import Dense as CoreDense
        from tensorflow.python.keras.engine.base_layer import Layer
        from tensorflow.python.keras._impl.keras.layers import Dense as ImplDense
        import tensorflow.python.keras as pk
        assert Model is tf.keras.Model and Sequential is tf.keras.Sequential
        assert load_model is tf.keras.models.load_model and K is tf.keras.backend
        assert Dense is CoreDense is ImplDense is tf.keras.layers.Dense
        assert Layer is tf.keras.layers.Layer and pk.layers is tf.keras.layers
        x = Input(shape=(3,))
        print(Model(x, Dense(2)(x)).output_shape)
        try:
            import tensorflow.python.keras.no_such_module
        except ImportError as e:
            print("ERR", e)
    """)
    proc = _run_python(code)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "(None, 2)"
    assert lines[1].startswith("ERR tf1compat does not provide TensorFlow's module "
                               "'tensorflow.python.keras.no_such_module'")


def test_internal_package_paths_import_their_children_and_leave_public_names_alone():
    # `from tensorflow.contrib.framework.python.ops import audio_ops` (DeepSpeech) needs the
    # child's own stand-in; `import tensorflow.contrib.framework.python.ops.arg_scope` must
    # not replace the function tf.contrib.framework.arg_scope with that module.
    code = textwrap.dedent("""
        import importlib
        import tf1compat; tf1compat.install()
        import tensorflow as tf
        from tf1compat.shim import INTERNAL_PATHS
        for path in INTERNAL_PATHS:
            parent, _, leaf = path.rpartition(".")
            if parent in INTERNAL_PATHS:
                child = getattr(__import__(parent, fromlist=[leaf]), leaf)
                # TF's package re-exports its children's names over the children
                # (`from ...ops.arg_scope import *`): a function of the child's name wins
                assert (child is importlib.import_module(INTERNAL_PATHS[path])
                        or not isinstance(child, type(importlib))), path
        from tensorflow.contrib.framework.python.ops import audio_ops
        print(audio_ops.mfcc.__name__, callable(tf.contrib.framework.arg_scope),
              tf.contrib.framework.python.ops.add_arg_scope is tf.contrib.framework.add_arg_scope)
    """)
    proc = _run_python(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["mfcc", "True", "True"]
