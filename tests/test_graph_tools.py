"""TF's graph tools by their internal paths (`tensorflow.python.tools.*`), as scripts under
`tf1compat run -m`; their results against TF are in tests/golden/cases_graph_tools.py."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tf1compat
from tests.child_env import child_env, tf1compat_command_lines


@pytest.fixture
def shim():
    tf1compat.install()
    yield
    tf1compat.uninstall()


def test_tools_import_by_tensorflow_paths(shim):
    from tensorflow.python.tools import freeze_graph, saved_model_utils, strip_unused_lib
    from tf1compat.training.saving import freeze_graph as ours
    assert freeze_graph.freeze_graph is ours.freeze_graph
    assert callable(strip_unused_lib.strip_unused_from_files)
    from tensorflow.python.tools import optimize_for_inference_lib
    assert callable(optimize_for_inference_lib.optimize_for_inference)
    assert callable(freeze_graph.freeze_graph_with_def_protos)
    assert callable(saved_model_utils.get_meta_graph_def)


def test_freeze_graph_as_a_script(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        import numpy as np
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2), name="W")
        tf.nn.relu(tf.matmul(x, w), name="out")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.save(sess, "./model.ckpt")
        tf.train.write_graph(tf.get_default_graph(), ".", "graph.pb", as_text=False)
    """))
    # The training script fills its default graph: a child of its own. The three tools
    # share one: freeze_graph, which imports into the (empty) default graph, comes first;
    # the other two work on GraphDefs alone.
    trained = subprocess.run([sys.executable, "-m", "tf1compat", "run", "train.py"], check=False,
                             capture_output=True, text=True, env=child_env(), timeout=300,
                             cwd=tmp_path)
    assert trained.returncode == 0, trained.stderr
    for proc in tf1compat_command_lines(
            ["run", "-m", "tensorflow.python.tools.freeze_graph", "--input_graph=graph.pb",
             "--input_binary", "--input_checkpoint=./model.ckpt",
             "--output_graph=frozen.pb", "--output_node_names=out"],
            ["run", "-m", "tensorflow.python.tools.optimize_for_inference",
             "--input=frozen.pb", "--output=optimized.pb", "--input_names=x",
             "--output_names=out"],
            ["run", "-m", "tensorflow.python.tools.strip_unused", "--input_graph=graph.pb",
             "--input_binary", "--output_graph=stripped.pb", "--input_node_names=W",
             "--output_node_names=out"], cwd=str(tmp_path)):
        assert proc.returncode == 0, proc.stderr
    graph_def = tf1compat.GraphDef.FromString((tmp_path / "frozen.pb").read_bytes())
    assert [(n.name, n.op) for n in graph_def.node] == [
        ("x", "Placeholder"), ("W", "Const"), ("W/read", "Identity"), ("MatMul", "MatMul"),
        ("out", "Relu")]
    optimized = tf1compat.GraphDef.FromString((tmp_path / "optimized.pb").read_bytes())
    # TF's result for this graph: W/read (an Identity) is gone.
    assert [(n.name, n.op, list(n.input)) for n in optimized.node] == [
        ("x", "Placeholder", []), ("W", "Const", []), ("MatMul", "MatMul", ["x", "W"]),
        ("out", "Relu", ["MatMul"])]
    stripped = tf1compat.GraphDef.FromString((tmp_path / "stripped.pb").read_bytes())
    assert [(n.name, n.op) for n in stripped.node] == [
        ("x", "Placeholder"), ("W", "Placeholder"), ("W/read", "Identity"),
        ("MatMul", "MatMul"), ("out", "Relu")]
    with tf1compat.Graph().as_default() as g:
        tf1compat.import_graph_def(graph_def, name="")
        with tf1compat.Session(graph=g) as sess:
            out = sess.run("out:0", {"x:0": np.ones((1, 3), np.float32)})
    np.testing.assert_allclose(out, [[6.0, 9.0]])


def test_freeze_graph_flags():
    from tf1compat.training.saving.freeze_graph import _parser
    flags = _parser().parse_args(["--variable_names_denylist=a,b", "--clear_devices=false"])
    assert flags.variable_names_blacklist == "a,b"
    assert flags.clear_devices is False and flags.input_binary is False
    assert flags.saved_model_tags == "serve" and flags.checkpoint_version == 2


def test_fused_convolutions_give_every_batch_element_its_unfused_value():
    """optimize_for_inference fuses ResizeBilinear + MirrorPad + Conv2D into TF's
    FusedResizeAndPadConv2D (its graph against TF's: cases_graph_tools_fusions.py); its
    kernel gives each element of a batch the unfused graph's value, where TF 2.21's CPU
    kernel repeats element 0's (a deliberate difference, docs/ARCHITECTURE.md)."""
    from tf1compat.training.saving.optimize_for_inference import optimize_for_inference
    tf = tf1compat
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 4, 4, 2], name="x")
        big = tf.pad(tf.image.resize_bilinear(x, [6, 5]), [[0, 0], [1, 1], [2, 0], [0, 0]],
                     mode="SYMMETRIC")
        tf.nn.conv2d(big, tf.constant(np.linspace(-1, 1, 18, dtype=np.float32).reshape(
            3, 3, 2, 1)), [1, 2, 1, 1], "SAME", name="out")
    optimized = optimize_for_inference(g.as_graph_def(), ["x"], ["out"],
                                       tf.float32.as_datatype_enum)
    assert [n.op for n in optimized.node][-1] == "FusedResizeAndPadConv2D"
    feed = np.cos(np.arange(3 * 32, dtype=np.float32)).reshape(3, 4, 4, 2)
    outs = []
    for graph_def in (g.as_graph_def(), optimized):
        with tf.Graph().as_default() as g2:
            tf.import_graph_def(graph_def, name="")
            with tf.Session(graph=g2) as sess:
                outs.append(sess.run("out:0", {"x:0": feed}))
    assert np.abs(outs[0][1] - outs[0][0]).max() > 0.1
    np.testing.assert_allclose(outs[0], outs[1], rtol=1e-5, atol=1e-6)


def test_inspect_checkpoint_as_a_script(tmp_path):
    """TF 2.21's script prints exactly these lines for the same checkpoint."""
    tf = tf1compat
    with tf.Graph().as_default():
        w = tf.Variable(np.array([[1.0, 2.5], [3.25, 4.0]], np.float32), name="W")
        with tf.Session() as sess:
            sess.run(w.initializer)
            tf.train.Saver().save(sess, str(tmp_path / "model.ckpt"))
    # One child: the usage line first, the printing one (it sets numpy's print options) last.
    run = ["run", "-m", "tensorflow.python.tools.inspect_checkpoint"]
    usage, proc = tf1compat_command_lines(
        run, run + ["--file_name=model.ckpt", "--all_tensors", "--printoptions", "precision=1"],
        cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ("tensor: W (float32) [2, 2]\n[[1.  2.5]\n [3.2 4. ]]\n"
                           "# Total number of params: 4\n")
    assert usage.returncode == 1 and usage.stdout.startswith("Usage: inspect_checkpoint")


def test_parse_numpy_printoption():
    import argparse
    from tf1compat.training.saving.inspect_checkpoint import parse_numpy_printoption
    saved = np.get_printoptions()
    try:
        parse_numpy_printoption("threshold=7")
        parse_numpy_printoption("suppress=true")
        assert np.get_printoptions()["threshold"] == 7
        assert np.get_printoptions()["suppress"] is True
        for bad in ("threshold", "=3", "nope=1", "threshold=x", "suppress=maybe"):
            with pytest.raises(argparse.ArgumentTypeError):
                parse_numpy_printoption(bad)
    finally:
        np.set_printoptions(**{k: v for k, v in saved.items() if k != "override_repr"})
