"""Records the pydot graphs tf-keras's `model_to_dot` builds for a few models (run with a
TF venv and pydot on the path, never in CI):

    pip install --target /tmp/pydot pydot
    PYTHONPATH=/tmp/pydot TF_USE_LEGACY_KERAS=1 /tmp/tf/bin/python \\
        scripts/record_keras_dot_graphs.py

Graphs are stored normalized (`describe`): node names (tf-keras uses `id(layer)`) become
their order of appearance; attributes, labels, edges and clusters are kept. The result is
tests/fixtures/keras/dot_graphs.json; tests/test_keras_vis_utils.py compares tf1compat's
graphs with it (with real pydot when installed, else with a small stand-in).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "keras", "dot_graphs.json")


def describe(dot: Any, names: Dict[str, int] = None) -> Dict[str, Any]:
    """A pydot graph as plain data, node names replaced by their order of appearance."""
    names = {} if names is None else names

    def index(name: str) -> int:
        return names.setdefault(str(name).strip('"'), len(names))
    nodes = [[index(n.get_name()), n.get_attributes().get("label")] for n in dot.get_nodes()]
    subgraphs = [describe(s, names) for s in dot.get_subgraphs()]
    edges = [[index(e.get_source()), index(e.get_destination())] for e in dot.get_edges()]
    return {"attributes": {k: str(v) for k, v in sorted(dot.get_attributes().items())},
            "nodes": nodes, "edges": edges, "subgraphs": subgraphs}


def build_cases(tf: Any) -> Dict[str, Any]:
    """{case name: (model, model_to_dot keyword arguments)}."""
    layers = tf.keras.layers
    seq = tf.keras.Sequential([layers.Dense(4, activation="relu", input_shape=(3,),
                                            name="d1"),
                               layers.Dropout(0.5, name="drop"),
                               layers.Dense(2, activation="softmax", name="d2")])
    seq.layers[1].trainable = False
    inner_in = tf.keras.Input((8,), name="inner_in")
    inner = tf.keras.Model(inner_in, layers.Dense(3, name="inner_dense")(inner_in),
                           name="inner")
    a = tf.keras.Input((2,), name="a")
    b = tf.keras.Input((2,), name="b")
    seq_in = tf.keras.Input((5, 2), name="seq_in")
    merged = layers.Concatenate(name="cat")([a, b])
    rnn = layers.Bidirectional(layers.LSTM(2), name="bi")(seq_in)
    joined = layers.Concatenate(name="join")([merged, rnn])
    out = layers.Dense(1, name="out")(inner(joined))
    functional = tf.keras.Model([a, b, seq_in], out, name="functional")

    class Sub(tf.keras.Model):
        def __init__(self):
            super().__init__(name="sub")
            self.dense = layers.Dense(1)

        def call(self, x):
            return self.dense(x)
    sub = Sub()
    sub(tf.keras.Input((3,)))
    return {
        "sequential_all_fields": (seq, dict(show_shapes=True, show_dtype=True,
                                            show_layer_activations=True,
                                            show_trainable=True)),
        "sequential_plain_lr": (seq, dict(rankdir="LR", dpi=50, show_layer_names=False)),
        "functional": (functional, dict(show_shapes=True)),
        "functional_expanded": (functional, dict(expand_nested=True)),
        "sequential_range": (seq, dict(layer_range=["drop", "d2"])),
        "functional_subgraph": (functional, dict(subgraph=True)),
        "subclassed": (sub, {}),
    }


def main() -> int:
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    import pydot  # noqa: F401 - the recording needs it
    record = {name: describe(tf.keras.utils.model_to_dot(model, **kwargs))
              for name, (model, kwargs) in build_cases(tf).items()}
    with open(OUT, "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"recorded {len(record)} graphs -> {os.path.relpath(OUT, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    sys.exit(main())
