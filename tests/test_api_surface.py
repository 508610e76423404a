"""Issue 12's surface that goldens cannot record: session options and device placement,
the CLI, lazy FLAGS parsing, tf.test, checkpoint write errors, linecache, the table of
unsupported names. Expected outputs quoted here were recorded from TF 2.21."""

from __future__ import annotations

import errno
import gc
import linecache
import os
import subprocess
import sys
import textwrap
import unittest
from typing import Any

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.runtime import session_options
from tf1compat.runtime.placement import Placer
from tests.child_env import child_env, tf1compat_command_lines

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _python(*args: str, cwd: str = ROOT, input_: str = None) -> subprocess.CompletedProcess:
    env = child_env()
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          env=env, input=input_, timeout=300)


# -- device placement logging ------------------------------------------------------------------

def test_log_device_placement_prints_each_op_as_tf(capsys):
    # A graph of its own: TF's placer logs every op of the graph, not only the fetched ones.
    with tf.Graph().as_default():
        _check_log_device_placement(capsys)


def _check_log_device_placement(capsys: Any) -> None:
    a = tf.constant([1.0, 2.0], name="a")
    c = tf.add(a, a, name="c")
    with tf.Session(config=tf.ConfigProto(log_device_placement=True)) as sess:
        capsys.readouterr()
        sess.run(c)
        first = capsys.readouterr().out
        d = tf.multiply(c, 3.0, name="d")
        sess.run(d)
        grown = capsys.readouterr().out
        sess.run(c)
        again = capsys.readouterr().out
    cpu = "/job:localhost/replica:0/task:0/device:CPU:0"
    if torch.cuda.is_available():
        cpu = "/job:localhost/replica:0/task:0/device:GPU:0"
    # TF 2.21's placer output (ops with inputs first, then input-less ones), printed again
    # when the graph grew and not for a graph already placed.
    assert first == f"c: (AddV2): {cpu}\na: (Const): {cpu}\n"
    assert grown == (f"c: (AddV2): {cpu}\nd: (Mul): {cpu}\na: (Const): {cpu}\n"
                     f"d/y: (Const): {cpu}\n")
    assert again == ""


def test_set_log_device_placement_applies_to_sessions_without_config(capsys):
    a = tf.constant(1.0, name="a")
    tf.debugging.set_log_device_placement(True)
    try:
        assert tf.debugging.get_log_device_placement()
        with tf.Session() as sess:
            sess.run(a)
        assert "a: (Const): " in capsys.readouterr().out
        with tf.Session(config=tf.ConfigProto()) as sess:   # an explicit config wins
            sess.run(a)
        assert capsys.readouterr().out == ""
    finally:
        tf.debugging.set_log_device_placement(False)


# -- GPU options (CUDA faked: the mapping itself needs no GPU) ----------------------------------

def _fake_gpus(monkeypatch, count: int) -> None:
    monkeypatch.setattr(session_options, "cuda_device_count", lambda: count)


def test_visible_device_list_maps_tf_gpus_to_cuda_devices(monkeypatch):
    _fake_gpus(monkeypatch, 2)
    config = tf.ConfigProto()
    config.gpu_options.visible_device_list = "1"
    assert session_options.visible_gpus(config) == [1]
    config.gpu_options.visible_device_list = "1,0"
    assert session_options.visible_gpus(config) == [1, 0]
    config.gpu_options.visible_device_list = "-1"
    assert session_options.visible_gpus(config) == []
    config.gpu_options.visible_device_list = ""
    assert session_options.visible_gpus(config) == [0, 1]
    config.device_count["GPU"] = 1
    assert session_options.visible_gpus(config) == [0]
    placer = Placer([1, 0])
    op = tf.constant(1.0).op
    op._set_device("/device:GPU:0")
    assert placer.device_for(op) == torch.device("cuda", 1)
    assert placer.tf_device_name(torch.device("cuda", 1)).endswith("device:GPU:0")
    op._set_device("/device:GPU:1")
    assert Placer([1, 0]).device_for(op) == torch.device("cuda", 0)


@pytest.mark.parametrize("listed,message", [
    ("5", "'visible_device_list' listed an invalid Device id '5' but visible device count "
          "is 2"),
    ("0,0", "visible_device_list contained a duplicate entry: 0,0"),
    ("x", "Could not parse entry in 'visible_device_list': 'x'")])
def test_bad_visible_device_lists_are_tf_errors(monkeypatch, listed, message):
    _fake_gpus(monkeypatch, 2)
    config = tf.ConfigProto()
    config.gpu_options.visible_device_list = listed
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        session_options.visible_gpus(config)


def test_visible_device_list_is_ignored_without_gpus(monkeypatch):
    _fake_gpus(monkeypatch, 0)
    config = tf.ConfigProto()
    config.gpu_options.visible_device_list = "5"
    assert session_options.visible_gpus(config) == []


def test_memory_fraction_caps_torch_allocator_and_unsupported_options_report_once(
        monkeypatch):
    calls, warnings = [], []
    monkeypatch.setattr(torch.cuda, "set_per_process_memory_fraction",
                        lambda fraction, device: calls.append((fraction, device)))
    monkeypatch.setattr(session_options, "_REPORTED", set())
    monkeypatch.setattr(session_options.tf_logging, "warning", warnings.append)
    config = tf.ConfigProto()
    config.gpu_options.per_process_gpu_memory_fraction = 0.25
    config.gpu_options.allocator_type = "BFC"
    session_options.apply_gpu_memory_options(config, [1, 0])
    session_options.apply_gpu_memory_options(config, [1, 0])
    assert calls == [(0.25, 1), (0.25, 0)] * 2
    assert len(warnings) == 1 and "allocator_type" in warnings[0]


# -- CUDA (skipped without a GPU) ----------------------------------------------------------------

@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_cuda_visible_device_list_and_memory_fraction():
    config = tf.ConfigProto()
    config.gpu_options.visible_device_list = str(torch.cuda.device_count() - 1)
    x = tf.constant([1.0, 2.0])
    y = x * 2.0
    with tf.Session(config=config) as sess:
        assert sess._runtime.placer.device_for(y.op) == \
            torch.device("cuda", torch.cuda.device_count() - 1)
        np.testing.assert_allclose(sess.run(y), [2.0, 4.0])
    big = tf.zeros([2 ** 30], tf.float32)       # 4 GiB
    capped = tf.ConfigProto()
    capped.gpu_options.per_process_gpu_memory_fraction = 0.01
    try:
        with tf.Session(config=capped) as sess:
            with pytest.raises(tf.errors.ResourceExhaustedError):
                sess.run(tf.reduce_sum(big))
    finally:
        for gpu in range(torch.cuda.device_count()):
            torch.cuda.set_per_process_memory_fraction(1.0, gpu)
        torch.cuda.empty_cache()


@pytest.mark.cuda
@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
def test_cuda_visible_device_list_one_runs_on_the_second_gpu():
    config = tf.ConfigProto()
    config.gpu_options.visible_device_list = "1"
    with tf.device("/gpu:0"):
        y = tf.constant([1.0]) + 1.0
    with tf.Session(config=config) as sess:
        assert sess._runtime.placer.device_for(y.op) == torch.device("cuda", 1)
        assert sess.run(y).tolist() == [2.0]


# -- tf.config ---------------------------------------------------------------------------------------

def test_config_devices_threads_and_jit():
    assert tf.config.list_physical_devices("CPU") == [
        tf.config.PhysicalDevice("/physical_device:CPU:0", "CPU")]
    assert len(tf.config.list_physical_devices("GPU")) == torch.cuda.device_count()
    assert tf.config.list_logical_devices("CPU")[0].name == "/device:CPU:0"
    assert tf.config.threading.get_intra_op_parallelism_threads() in (0, torch.get_num_threads())
    assert tf.config.experimental.get_memory_info("CPU:0") == {"current": 0, "peak": 0}
    cpu = tf.config.list_physical_devices("CPU")[0]
    with pytest.raises(KeyError):
        tf.config.experimental.get_memory_growth(cpu)
    # The CPU splits into logical devices (CPU-only MirroredStrategy runs); a GPU cannot.
    before = tf.config.get_logical_device_configuration(cpu)
    try:
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()])
        assert [d.name for d in tf.config.list_logical_devices("CPU")] == [
            "/device:CPU:0", "/device:CPU:1"]
    finally:
        tf.config.set_logical_device_configuration(cpu, before)
    gpu = tf.config.PhysicalDevice("/physical_device:GPU:0", "GPU")
    with pytest.raises(NotImplementedError, match="logical devices"):
        tf.config.set_logical_device_configuration(
            gpu, [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()])
    tf.config.optimizer.set_jit(True)
    try:
        assert tf.config.optimizer.get_jit() == "autoclustering"
        with tf.Session() as sess:
            assert sess._hot_plans.jit
    finally:
        tf.config.optimizer.set_jit(False)
    with tf.Session() as sess:
        assert not sess._hot_plans.jit
    with pytest.raises(NotImplementedError, match="MLIR bridge"):
        tf.config.experimental.enable_mlir_bridge()


# -- CLI and flags --------------------------------------------------------------------------------

_SCRIPT = """
import tensorflow as tf
tf.app.flags.DEFINE_integer("steps", 3, "how many steps to train")
FLAGS = tf.app.flags.FLAGS
def main(argv):
    print("training", FLAGS.steps, argv[1:])
if __name__ == "__main__":
    tf.app.run()
"""


def test_cli_passes_help_to_the_script_and_lists_subcommands(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(_SCRIPT)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__main__.py").write_text("print('package main')\n")
    helped = _python("-m", "tf1compat", "run", str(script), "--help")
    assert helped.returncode == 1, helped.stderr     # absl's --help exit status, as in TF
    assert "--steps: how many steps to train" in helped.stdout
    assert "training" not in helped.stdout
    # The stateless command lines share one child; the script run (flags) comes last.
    usage, directory, missing, package, ran = tf1compat_command_lines(
        ["--help"], ["run", str(tmp_path)], ["run", str(tmp_path / "nope.py")],
        ["run", str(tmp_path / "pkg")], ["run", str(script), "--steps", "5", "extra"])
    assert usage.returncode == 0 and "run" in usage.stdout and "COMMAND" in usage.stdout
    assert directory.returncode == 2
    assert "is a directory, not a script" in directory.stderr
    assert missing.returncode == 2 and "no such script" in missing.stderr
    assert package.returncode == 0 and package.stdout.strip() == "package main"
    assert ran.returncode == 0 and ran.stdout.strip() == "training 5 ['extra']", ran.stderr


def test_flags_parse_sys_argv_on_first_read_without_app_run(tmp_path):
    script = tmp_path / "read_flags.py"
    script.write_text(textwrap.dedent("""
        import tensorflow as tf
        tf.flags.DEFINE_string("name", "x", docstring="a name")
        tf.app.flags.DEFINE_integer(flag_name="count", default_value=1, docstring="n")
        print(tf.app.flags.FLAGS.name, tf.flags.FLAGS.count)
    """))
    out = _python("-m", "tf1compat", "run", str(script), "--name=bob", "--count=4")
    assert out.stdout.strip() == "bob 4", out.stderr
    bad = _python("-m", "tf1compat", "run", str(script), "--bogus=1")
    assert bad.returncode != 0 and "Unknown command line flag 'bogus'" in bad.stderr


# -- tf.test -----------------------------------------------------------------------------------------

def test_test_session_is_not_collected_by_pytest(tmp_path):
    (tmp_path / "test_mine.py").write_text(textwrap.dedent("""
        import tf1compat as tf

        class MyTest(tf.test.TestCase):
            def test_add(self):
                with self.test_session() as sess:
                    self.assertEqual(sess.run(tf.constant(1) + 1), 2)
                self.assertItemsEqual([1, 2, 2], [2, 1, 2])
                self.assertDeviceEqual("/gpu:0", "/device:GPU:0")
                with self.assertRaises(AssertionError):
                    self.assertDeviceEqual("/cpu:0", "/gpu:0")
    """))
    out = _python("-m", "pytest", "-q", "-p", "no:cacheprovider", "-rA", str(tmp_path))
    assert "1 passed" in out.stdout, out.stdout + out.stderr
    assert "MyTest::test_session" not in out.stdout


def test_session_helpers_work_when_set_up_skips_super():
    # tensorflow/models' ptb reader_test overrides setUp without super().setUp().
    class ReaderTest(tf.test.TestCase):
        def setUp(self):
            self.data = [1, 2]

        def runTest(self):
            with self.test_session() as sess:
                self.assertAllEqual(sess.run(tf.constant(self.data) * 2), [2, 4])
            with self.cached_session() as again:
                assert again is sess

    result = unittest.TestResult()
    ReaderTest().run(result)
    assert result.wasSuccessful(), result.errors + result.failures


def test_stub_out_for_testing_and_benchmark():
    class Holder:
        value = 1

        @staticmethod
        def helper():
            return "real"

    stubs = tf.test.StubOutForTesting()
    stubs.Set(Holder, "value", 2)
    stubs.Set(Holder, "helper", staticmethod(lambda: "fake"))
    assert Holder.value == 2 and Holder.helper() == "fake"
    stubs.UnsetAll()
    assert Holder.value == 1 and Holder.helper() == "real"

    class Bench(tf.test.Benchmark):
        def benchmark_add(self):
            with tf.Session() as sess:
                return self.run_op_benchmark(sess, tf.constant(1.0) + 1.0, min_iters=3)

    report = Bench().benchmark_add()
    assert report["iters"] == 3 and report["wall_time"] >= 0
    assert report["name"] == "Bench.benchmark_add"
    assert tf.test.mock is __import__("unittest").mock
    assert not tf.test.is_built_with_xla()


def test_assert_equal_graph_def_names_the_difference():
    def build(y):
        g = tf.Graph()
        with g.as_default():
            a = tf.constant(1.0, name="a")
            tf.add(a, y, name="b")
        return g.as_graph_def()
    tf.test.assert_equal_graph_def(build(2.0), build(2.0))
    with pytest.raises(AssertionError, match="b/y"):
        tf.test.assert_equal_graph_def(build(2.0), build(3.0))
    with pytest.raises(TypeError):
        tf.test.assert_equal_graph_def("x", build(2.0))


# -- checkpoint writes: TF's error class per errno (mocked failures) ----------------------------

@pytest.mark.parametrize("code,cls", [
    (errno.ENOSPC, tf.errors.ResourceExhaustedError),
    (errno.EROFS, tf.errors.PermissionDeniedError),
    (errno.EACCES, tf.errors.PermissionDeniedError)])
def test_saving_to_a_full_or_read_only_disk(tmp_path, monkeypatch, code, cls):
    from tf1compat.serialization import atomic_files
    tf.reset_default_graph()
    v = tf.Variable([1.0, 2.0], name="v")
    saver = tf.train.Saver()
    real_open = os.open

    def failing_open(path, *args, **kwargs):
        if ".tmp-" in os.fspath(path):
            raise OSError(code, os.strerror(code), os.fspath(path))
        return real_open(path, *args, **kwargs)

    with tf.Session() as sess:
        sess.run(v.initializer)
        monkeypatch.setattr(atomic_files.os, "open", failing_open)
        with pytest.raises(cls, match=os.strerror(code)):
            saver.save(sess, str(tmp_path / "model.ckpt"))
    assert not any(p.name.startswith("model.ckpt") for p in tmp_path.iterdir())


# -- generated plans ------------------------------------------------------------------------------

def test_linecache_entries_go_with_their_plans():
    def generated() -> int:
        return sum(1 for key in linecache.cache if key.startswith("<tf1compat"))
    gc.collect()
    before = generated()
    for i in range(20):
        g = tf.Graph()
        with g.as_default():
            x = tf.constant(float(i)) * 2.0
            with tf.Session() as sess:
                sess.run(x)
        del g, x, sess
    gc.collect()
    assert generated() <= before


# -- unsupported names ------------------------------------------------------------------------------

@pytest.mark.parametrize("path,words", [
    ("lite", "TensorFlow Lite"), ("tpu.rewrite", "TPU"), ("keras.export", "simple_save"),
    ("load_op_library", "tf.py_func"), ("mlir", "MLIR"), ("io.RaggedFeature", "SparseTensor"),
    ("contrib.mpi_collectives", "torch.distributed"), ("saved_model.save", "simple_save"),
    ("contrib.tensorrt", "torch-tensorrt"),
    ("contrib.opt.ModelAverageOptimizer", "SyncReplicasOptimizer")])
def test_unsupported_names_say_why_and_what_instead(path, words):
    obj = tf
    with pytest.raises(NotImplementedError) as info:
        for part in path.split("."):
            obj = getattr(obj, part)
    assert f"tf.{path}" in str(info.value) and words in str(info.value)
    assert isinstance(info.value, AttributeError)       # hasattr() checks keep working


def test_unsupported_table_keys_are_tf_names():
    from tf1compat._tf_api_names import API_NAMES
    from tf1compat.framework.unsupported_api import UNSUPPORTED
    for key in UNSUPPORTED:
        namespace, _, name = key.rpartition(".")
        if key.startswith("contrib.") or namespace not in API_NAMES:
            continue
        assert name in API_NAMES[namespace], key


def test_autograph_keeps_what_needs_no_conversion(capsys):
    fn = tf.autograph.experimental.do_not_convert(lambda x: x + 1)
    assert fn(1) == 2
    tf.autograph.trace("a", 1)
    assert capsys.readouterr().out == "a 1\n"
    with pytest.raises(NotImplementedError, match="AutoGraph"):
        tf.autograph.to_graph(lambda x: x)


def test_graph_def_node_attrs_are_attr_value_protos():
    # TF1 inspection and freezing scripts read `node.attr["dtype"].type` and
    # `node.attr["value"].tensor` off `graph.as_graph_def().node` (TF: DT_FLOAT = 1,
    # DT_INT64 = 9).
    with tf.Graph().as_default() as g:
        tf.constant([1.0, 2.0], name="c")
        tf.placeholder(tf.int64, [None, 3], name="p")
        nodes = {n.name: n for n in g.as_graph_def().node}
    const, placeholder = nodes["c"], nodes["p"]
    assert const.attr["dtype"].type == 1 and "value" in const.attr
    np.testing.assert_array_equal(tf.make_ndarray(const.attr["value"].tensor), [1.0, 2.0])
    assert placeholder.attr["dtype"].type == 9
    assert [d.size for d in placeholder.attr["shape"].shape.dim] == [-1, 3]
    assert sorted(placeholder.attr) == ["dtype", "shape"]
    assert placeholder.attr_values["dtype"] == tf.int64
