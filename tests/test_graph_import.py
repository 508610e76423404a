"""Graphs written by real TensorFlow (tests/fixtures/tf_graphs, made by
scripts/make_graph_fixtures.py) imported and run by tf1compat to TF's values: TF1 dataflow
control flow and its gradients, TensorArrays, dynamic_rnn training with the train op from
the file, tf.data pipelines, functional control flow and calls with a function library,
a frozen Keras application. Also import_graph_def's checks."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.training.proto_messages import GraphDef, NodeDef

@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "tf_graphs")
CASES = sorted(d for d in os.listdir(FIXTURES) if os.path.isdir(os.path.join(FIXTURES, d)))
# Loose enough for a deep network's float32 reductions in another order.
TOLERANCE = {"frozen_keras_mobilenet": (2e-4, 1e-5)}


def _load(case: str):
    d = os.path.join(FIXTURES, case)
    with open(os.path.join(d, "case.json")) as f:
        spec = json.load(f)
    arrays = np.load(os.path.join(d, "expected.npz"), allow_pickle=False)
    return d, spec, arrays


def _import(d: str, spec: dict):
    path = os.path.join(d, spec["graph"])
    if path.endswith(".meta"):
        return tf.train.import_meta_graph(path)
    with open(path, "rb") as f:
        tf.import_graph_def(GraphDef.FromString(f.read()), name="")
    return None


@pytest.mark.parametrize("case", CASES)
def test_tf_graph_runs_to_tf_values(case):
    d, spec, arrays = _load(case)
    tf.reset_default_graph()
    saver = _import(d, spec)
    rtol, atol = TOLERANCE.get(case, (1e-5, 1e-6))
    with tf.Session() as sess:
        if spec["checkpoint"]:
            (saver or tf.train.Saver()).restore(sess, os.path.join(d, spec["checkpoint"]))
        for k, run in enumerate(spec["runs"]):
            feeds = {name: arrays[key] for name, key in run["feeds"].items()}
            got = sess.run(run["fetches"] + run["targets"], feeds)[:len(run["fetches"])]
            for name, key, value in zip(run["fetches"], run["values"], got):
                np.testing.assert_allclose(value, arrays[key], rtol=rtol, atol=atol,
                                           err_msg=f"{case} run {k}: {name}")
