"""tf.contrib.graph_editor beyond the goldens (tests/golden/cases_contrib_graph_editor.py):
the import paths gradient-checkpointing uses, edits seen by an existing session, copies of
list-input ops, and the memory a checkpointed gradient keeps alive."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.autodiff.grad_mode import GradModeRewriter

ge = tf.contrib.graph_editor


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_legacy_import_paths():
    code = (
        "import tf1compat; tf1compat.install()\n"
        "import tensorflow as tf\n"
        "import tensorflow.contrib.graph_editor as ge\n"
        "from tensorflow.python.ops import gradients as g, gen_random_ops\n"
        "u = gen_random_ops._random_uniform((3, 2), tf.float32, name='u')\n"
        "print(ge.sgv is ge.make_view, g.gradients is tf.gradients, u.op.type, u.name,\n"
        "      u.shape.as_list())\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "True", "RandomUniform", "u:0", "[3,", "2]"]


def test_edits_apply_to_later_runs_of_a_session():
    # TF 1.15 keeps running the graph a session already ran (the edit only warns);
    # tf1compat's plans follow the edited graph.
    x = tf.constant(2.0, name="x")
    y = tf.constant(5.0, name="y")
    z = tf.square(x, name="z")
    with tf.Session() as sess:
        assert sess.run(z) == 4.0
        assert ge.reroute_ts([y], [x]) == 1
        assert sess.run(z) == 25.0


def test_copy_of_list_input_ops():
    a = tf.constant([1.0, 2.0], name="a")
    b = tf.constant([3.0, 4.0], name="b")
    total = tf.add_n([a, b, a], name="total")
    joined = tf.concat([total, b], axis=0, name="joined")
    c = tf.constant([10.0, 20.0], name="c")
    _, info = ge.copy_with_input_replacements(ge.sgv(total.op, joined.op), {a: c})
    copied = info.transformed(joined)
    assert copied.name == "joined_1:0"
    assert [t.name for t in info.transformed(total.op).inputs] == ["c:0", "b:0", "c:0"]
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(copied), [23.0, 44.0, 3.0, 4.0])


def test_copy_op_handler_nodedef_fn_is_refused():
    a = tf.constant(1.0, name="a")
    b = tf.negative(a, name="b")
    copier = ge.Transformer()
    copier.transform_op_handler = lambda info, op, ins: ge.copy_op_handler(
        info, op, ins, nodedef_fn=lambda nd: nd)
    with pytest.raises(NotImplementedError, match="nodedef_fn"):
        copier(ge.sgv(b.op), tf.get_default_graph(), "copy")


def _chain(n: int, size: int = 250000):
    x = tf.Variable(np.linspace(-1.0, 1.0, size).astype(np.float32), name="x")
    h, nodes = x, []
    for i in range(n):
        h = tf.tanh(h * 1.01, name=f"a{i:02d}")
        nodes.append(h)
    return x, nodes, tf.reduce_sum(h)


def _checkpointed_gradient(loss, x, checkpoints):
    """gradient-checkpointing's rewrite (memory_saving_gradients.py): each segment between
    checkpoints is recomputed from a stop-gradient copy of the checkpoint below it."""
    fwd = [op for op in ge.get_forward_walk_ops(
        [x.op], within_ops=ge.get_backward_walk_ops([loss.op])) if op.inputs]
    stopped = {c: tf.stop_gradient(c, name=c.op.name + "_sg") for c in checkpoints}

    def recompute(seed, stop_at, after):
        # The copies wait for `after`, so a segment is recomputed only when its gradient
        # is due (the script's my_add_control_inputs).
        ops = [op for op in ge.get_backward_walk_ops([seed.op], stop_at_ts=stop_at)
               if op in fwd and op not in [t.op for t in stop_at]]
        _, info = ge.copy_with_input_replacements(ge.sgv(ops), {})
        copies = list(info._transformed_ops.values())
        ge.reroute_ts([stopped[c] for c in stop_at], stop_at, can_modify=copies)
        for op in copies:
            ge.add_control_inputs(op, [after])
        return info._transformed_ops[seed.op].outputs[0]

    top = checkpoints[-1]
    grads = tf.gradients(recompute(loss, [top], loss.op), [stopped[top], x])
    d_x = grads[1]
    for i in range(len(checkpoints) - 1, -1, -1):
        below = checkpoints[i - 1:i] if i else []
        sources = [stopped[c] for c in below] + [x]
        grads = tf.gradients(recompute(checkpoints[i], below, grads[0].op), sources,
                             grad_ys=[grads[0]])
        d_x = d_x + grads[-1] if d_x is not None else grads[-1]
    return d_x


def _peak_bytes(sess, fetch):
    """The benchmark's measurement (scripts/bench_gradient_checkpointing.py)."""
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "scripts",
                        "bench_gradient_checkpointing.py")
    spec = importlib.util.spec_from_file_location("bench_gradient_checkpointing", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench.peak_run(sess, fetch)


def test_checkpointed_gradient_keeps_fewer_values_alive():
    results = {}
    for mode in ("plain", "checkpointed"):
        tf.reset_default_graph()
        x, nodes, loss = _chain(16)
        if mode == "plain":
            grad = tf.gradients(loss, [x])[0]
        else:
            grad = _checkpointed_gradient(loss, x, nodes[3:15:4])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(grad)                      # builds the plan
            results[mode] = _peak_bytes(sess, grad)
    (plain, plain_peak), (ckpt, ckpt_peak) = results["plain"], results["checkpointed"]
    np.testing.assert_allclose(ckpt, plain, rtol=1e-6, atol=1e-7)
    # 16 activations of 1 MB against about one segment (4) plus the checkpoints (3).
    assert plain_peak >= 16e6
    assert ckpt_peak < 0.6 * plain_peak, (plain_peak, ckpt_peak)


def test_ops_no_gradient_flows_through_are_outside_the_differentiated_region():
    x, nodes, loss = _chain(6, size=4)
    stop = tf.stop_gradient(nodes[2])
    top = tf.reduce_sum(tf.tanh(stop * 2.0))
    grad_ops = [g.op.inputs[0].op for g in tf.gradients(top, [stop, x])
                if g is not None]
    region = GradModeRewriter(grad_ops).differentiated
    names = {op.name for op in region}
    assert "Tanh" in names and not names & {n.op.name for n in nodes}


def test_gradient_through_a_source_to_another_source():
    # d/dx sum(h * x) with h = tanh(x) also flows through h, which is itself a source.
    xv = np.array([0.3, -0.7], np.float32)
    x = tf.constant(xv, name="x")
    h = tf.tanh(x, name="h")
    y = tf.reduce_sum(h * x)
    dx, dh = tf.gradients(y, [x, h])
    with tf.Session() as sess:
        got_dx, got_dh = sess.run([dx, dh])
    th = np.tanh(xv)
    np.testing.assert_allclose(got_dx, th + xv * (1 - th ** 2), rtol=1e-6)
    np.testing.assert_allclose(got_dh, xv, rtol=1e-6)
