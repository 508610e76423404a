"""Gradients of gradients through loops and TensorArrays read after nested loops, built by
tf1compat, against the values real TF 2.21 computed for the same graphs
(tests/fixtures/tf_graphs: scripts/make_graph_fixtures_second_order.py and
scripts/make_graph_fixtures_loops.py; TF 1.x's own form cannot build the second-order
ones, TF's control flow v2 did), from TF's checkpoint; and tf1compat's graph files of
them read back here."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tf1compat as tf
from tests import graph_loop_array_cases, graph_second_order_cases

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "tf_graphs")


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _load(case: str):
    d = os.path.join(FIXTURES, case)
    with open(os.path.join(d, "case.json")) as f:
        spec = json.load(f)
    return d, spec, np.load(os.path.join(d, "expected.npz"))


def _replay(sess, spec: dict, arrays, rename: dict = None) -> None:
    """Runs the fixture's runs in order in `sess`, comparing what TF fetched."""
    rename = rename or {}
    for k, run in enumerate(spec["runs"]):
        feeds = {name: arrays[key] for name, key in run["feeds"].items()}
        fetches = [rename.get(name, name) for name in run["fetches"]]
        got = sess.run(fetches + run["targets"], feeds)[:len(fetches)]
        for name, key, value in zip(run["fetches"], run["values"], got):
            np.testing.assert_allclose(value, arrays[key], rtol=1e-5, atol=1e-6,
                                       err_msg=f"run {k}: {name}")


def test_tf1x_form_cannot_build_them():
    for case in ("loop_second_order_gradients", "loop_gradient_penalty_training"):
        assert _load(case)[1]["v1_error"] == \
            "TypeError: Second-order gradient for while loops not supported."


@pytest.mark.parametrize("case, build", [
    ("loop_second_order_gradients", graph_second_order_cases.build_second_order),
    ("loop_gradient_penalty_training", graph_second_order_cases.build_gradient_penalty)])
def test_second_order_gradients_through_a_loop_with_a_cond(case, build, tmp_path):
    """tf.gradients of tf.gradients, tf.hessians and a gradient penalty's training
    through a while loop whose body holds a tf.cond, as TF computes them; the graph file
    tf1compat writes of it (its gradient ops in tf1compat's own form: TF's has none that
    TF 1.x imports) runs to the same values after import here."""
    d, spec, arrays = _load(case)
    build(tf)
    path = str(tmp_path / "graph.meta")
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, os.path.join(d, spec["checkpoint"]))
        tf.train.export_meta_graph(path)
        _replay(sess, spec, arrays)
    tf.reset_default_graph()
    saver = tf.train.import_meta_graph(path)
    with tf.Session() as sess:
        saver.restore(sess, os.path.join(d, spec["checkpoint"]))
        _replay(sess, spec, arrays)


@pytest.mark.parametrize("case", ["tensor_arrays_read_after_nested_loop",
                                  "tensor_array_read_after_unrolled_nested_loop",
                                  "tensor_array_written_in_cond_in_loop"])
def test_array_reads_after_nested_loops_train_as_tf(case):
    """TensorArrays a nested loop writes read after it by read/gather/concat/size, and an
    array written in a tf.cond of a loop body: loss, gradients and two training steps
    of tf1compat's own graph of the case as TF's."""
    d, spec, arrays = _load(case)
    build = getattr(graph_loop_array_cases, f"case_train_{case}")
    build(tf)
    graph = tf.get_default_graph()
    grads = tf.gradients(graph.get_tensor_by_name("loss:0"),
                         [graph.get_tensor_by_name("w:0"), graph.get_tensor_by_name("v:0")])
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, os.path.join(d, spec["checkpoint"]))
        _replay(sess, spec, arrays, {"grad_0:0": grads[0].name, "grad_1:0": grads[1].name})
