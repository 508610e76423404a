"""`tf.keras.utils.model_to_dot` against the graphs tf-keras 2.21 built with real pydot
(tests/fixtures/keras/dot_graphs.json, recorded by scripts/record_keras_dot_graphs.py):
with a small stand-in for pydot (the parts model_to_dot uses), and with pydot itself
where it is installed."""

from __future__ import annotations

import json
import os
import sys
import types

import pytest

import tf1compat as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import record_keras_dot_graphs as script  # noqa: E402

with open(os.path.join(ROOT, "tests", "fixtures", "keras", "dot_graphs.json")) as f:
    RECORD = json.load(f)


class _Node:
    def __init__(self, name, **attributes):
        self.name, self.attributes = name, attributes

    def get_name(self):
        return self.name

    def get_attributes(self):
        return self.attributes


class _Edge:
    def __init__(self, source, destination):
        self.source, self.destination = source, destination

    def get_source(self):
        return self.source

    def get_destination(self):
        return self.destination


class _Graph:
    def __init__(self, graph_name="G", **attributes):
        self.attributes = dict(attributes)
        self.nodes, self.edges, self.subgraphs = [], [], []

    def set(self, key, value):
        self.attributes[key] = value

    def get_attributes(self):
        return self.attributes

    def set_node_defaults(self, **attributes):
        self.nodes.append(_Node("node", **attributes))

    def add_node(self, node):
        self.nodes.append(node)

    def get_nodes(self):
        return list(self.nodes)

    def add_edge(self, edge):
        self.edges.append(edge)

    def get_edge(self, source, destination):
        return [e for e in self.edges if (e.source, e.destination) == (source, destination)]

    def get_edges(self):
        return list(self.edges)

    def add_subgraph(self, graph):
        self.subgraphs.append(graph)

    def get_subgraphs(self):
        return list(self.subgraphs)


STAND_IN = types.ModuleType("pydot")
STAND_IN.Dot, STAND_IN.Cluster = type("Dot", (_Graph,), {}), type("Cluster", (_Graph,), {})
STAND_IN.Node, STAND_IN.Edge = _Node, _Edge


@pytest.fixture
def stand_in_pydot(monkeypatch):
    for name in ("pydot_ng", "pydotplus"):
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "pydot", STAND_IN)


@pytest.fixture(scope="module")
def cases():
    tf.reset_default_graph()
    tf.keras.backend.clear_session()
    return script.build_cases(tf)


@pytest.mark.parametrize("name", sorted(RECORD))
def test_graph_matches_tf_keras(name, cases, stand_in_pydot):
    model, kwargs = cases[name]
    assert script.describe(tf.keras.utils.model_to_dot(model, **kwargs)) == RECORD[name]


@pytest.mark.parametrize("name", sorted(RECORD))
def test_graph_matches_tf_keras_with_real_pydot(name, cases):
    pytest.importorskip("pydot")
    model, kwargs = cases[name]
    assert script.describe(tf.keras.utils.model_to_dot(model, **kwargs)) == RECORD[name]


def test_plot_model_writes_through_pydot(cases, stand_in_pydot, tmp_path, monkeypatch):
    written = []
    STAND_IN.Dot.create = lambda self, *a, **k: b""
    STAND_IN.Dot.write = lambda self, path, format="raw": written.append((path, format))
    try:
        model, _ = cases["sequential_plain_lr"]
        monkeypatch.setitem(sys.modules, "IPython", None)
        assert tf.keras.utils.plot_model(model, to_file=str(tmp_path / "m")) is None
        tf.keras.utils.plot_model(model, to_file=str(tmp_path / "m.svg"))
        assert written == [(str(tmp_path / "m"), "png"), (str(tmp_path / "m.svg"), "svg")]
    finally:
        del STAND_IN.Dot.create, STAND_IN.Dot.write


def test_plot_model_without_graphviz(cases, stand_in_pydot):
    def missing_dot(self, *args, **kwargs):
        raise FileNotFoundError("dot")
    STAND_IN.Dot.create = missing_dot
    try:
        with pytest.raises(ImportError, match="install graphviz"):
            tf.keras.utils.plot_model(cases["subclassed"][0])
    finally:
        del STAND_IN.Dot.create
