"""Shared by the tests of gradients in graph files (test_gradient_export.py,
test_gradient_lowering.py, test_loop_gradient_export.py): a fresh graph per test, the
export with its warnings, and the replay of what real TF computed from a recorded file."""

from __future__ import annotations

import json
import logging
import os
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.graphdef import gradient_export
from tf1compat.graphdef import graph_export

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "tf1compat_graphs")


@pytest.fixture(autouse=True)
def fresh_graph():
    """Each test in a new default graph, with the export's once-per-process warnings reset."""
    tf.reset_default_graph()
    gradient_export._warned.clear()
    yield
    tf.reset_default_graph()


def export_with_warnings(caplog: Any) -> Tuple[Any, List[str]]:
    """The default graph's GraphDef and the SymbolicGradient warnings writing it logged."""
    with caplog.at_level(logging.WARNING):
        gd = graph_export.graph_to_graph_def()
    warned = [r.getMessage() for r in caplog.records if "SymbolicGradient" in r.getMessage()]
    return gd, warned


def imported_gradient_matches(gd: Any, grad: Any, feeds: Dict[str, Any], init: str) -> None:
    """`grad` (nonzero) computed by the default graph's session equals what the GraphDef
    `gd`, imported into a new graph and initialized by running op `init`, computes."""
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        here = sess.run(grad, feeds)
    with tf.Graph().as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as sess:
            sess.run(init)
            back = sess.run(grad.name, feeds)
    assert np.abs(here).sum() > 0
    np.testing.assert_allclose(here, back, rtol=1e-5, atol=1e-6)


def recorded_case(case: Any) -> Tuple[str, Dict[str, Any], Dict[str, np.ndarray]]:
    """A recorded training case's fixture directory, its case.json and its arrays."""
    d = os.path.join(FIXTURES, case.__name__[len("case_"):])
    with open(os.path.join(d, "case.json")) as f:
        recorded = json.load(f)
    return d, recorded, dict(np.load(os.path.join(d, "arrays.npz")))


# Relative tolerance of a recorded training case against TF's values: 1e-5, but batch
# normalization over a batch of 8 subtracts nearly equal numbers in its gradient, so a
# last-bit difference in any op (its moments add in TF's order; rsqrt, the products do
# not) grows to ~4e-5 in three steps.
_RTOL = {"train_mlp_batch_norm_flag": 1e-4}


def case_rtol(name: str) -> float:
    """The relative tolerance the recorded case `name` is compared with."""
    return _RTOL.get(name, 1e-5)


def replay_tf_runs(sess: Any, recorded: Dict[str, Any], arrays: Dict[str, np.ndarray],
                   rtol: float = 1e-5) -> None:
    """Runs the recorded runs in `sess` and compares the fetches with TF's values."""
    for k, run in enumerate(recorded["runs"]):
        feeds = {feed: arrays[key] for feed, key in run["feeds"].items()}
        got = sess.run(run["fetches"] + run["targets"], feeds)
        for fetch, key, value in zip(run["fetches"], recorded["tf"]["values"][k], got):
            np.testing.assert_allclose(value, arrays[key], rtol=rtol, atol=1e-6,
                                       err_msg=f"run {k}: {fetch}")


def replay_the_written_train_op(case: Any) -> None:
    """The file TF trained from, imported into tf1compat and restored from its checkpoint:
    the recorded runs give TF's values here too."""
    d, recorded, arrays = recorded_case(case)
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(os.path.join(d, "graph.meta"))
        with tf.Session() as sess:
            saver.restore(sess, os.path.join(d, recorded["checkpoint"]))
            replay_tf_runs(sess, recorded, arrays)


def check_recorded_training_case(case: Any, caplog: Any, absent_types: set) -> None:
    """A training case real TF trained from tf1compat's file: TF's own graph trains to
    the same values, the file is written without a warning and its functions hold none
    of `absent_types` (the lowered ops), and tf1compat's steps give what TF computed."""
    d, recorded, arrays = recorded_case(case)
    assert recorded["tf"]["status"] == "ok"
    assert recorded["tf"]["native"] < 1e-5      # TF's own graph trains to the same values
    with tf.Graph().as_default():
        spec = case(tf)
        gd, warned = export_with_warnings(caplog)
        assert not warned, warned
        forward = {n.op for f in gd.library.function for n in f.node_def}
        assert not forward & set(absent_types), forward & set(absent_types)
        with tf.Session() as sess:
            spec["saver"].restore(sess, os.path.join(d, recorded["checkpoint"]))
            replay_tf_runs(sess, recorded, arrays)
