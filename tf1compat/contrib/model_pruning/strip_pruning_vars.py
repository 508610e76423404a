"""`tf.contrib.model_pruning`'s GraphDef rewrite (TF 1.15 strip_pruning_vars_lib.py): in a
frozen graph each `masked_weight` node becomes a Const holding its value (mask * weight),
so the masks and thresholds drop out of the graph kept for the outputs."""

from __future__ import annotations

from typing import Any, Dict, Sequence

import numpy as np

from tf1compat.framework.graph import Graph
from tf1compat.graphdef.graph_import import import_graph_def
from tf1compat.runtime.session import Session
from tf1compat.serialization.messages import AttrValue, GraphDef, NodeDef
from tf1compat.serialization.tensor_util import make_tensor_proto
from tf1compat.training.saving.checkpoint_state import latest_checkpoint
from tf1compat.training.saving.graph_util import (convert_variables_to_constants,
                                                  extract_sub_graph)
from tf1compat.training.saving.meta_graph import import_meta_graph
from tf1compat.util import tf_logging as logging

__all__ = ["strip_pruning_vars_fn", "graph_def_from_checkpoint"]


def _tensor_name(node_name: str) -> str:
    return node_name if ":" in node_name else node_name + ":0"


def _masked_weight_values(graph_def: Any) -> Dict[str, np.ndarray]:
    """The value of every node whose name contains 'masked_weight', by node name."""
    graph = Graph()
    with graph.as_default():
        import_graph_def(graph_def, name="")
        with Session(graph=graph) as sess:
            values = {}
            for node in graph_def.node:
                if "masked_weight" in node.name:
                    value = sess.run(graph.get_tensor_by_name(_tensor_name(node.name)))
                    logging.info("%s has %d values, %1.2f%% zeros \n", node.name,
                                 np.size(value),
                                 100 - float(100 * np.count_nonzero(value)) / np.size(value))
                    values[node.name] = value
    return values


def strip_pruning_vars_fn(input_graph_def: Any, output_node_names: Sequence[str]) -> GraphDef:
    """`input_graph_def` (frozen: variables turned into constants) with each
    masked_weight node replaced by a Const of its value, reduced to what
    `output_node_names` need."""
    values = _masked_weight_values(input_graph_def)
    pruned = GraphDef()
    for node in input_graph_def.node:
        out = NodeDef()
        if "masked_weight" in node.name:
            out.op = "Const"
            out.name = node.name
            out.attr["dtype"].CopyFrom(node.attr["T"])
            out.attr["value"].CopyFrom(AttrValue(tensor=make_tensor_proto(values[node.name])))
        else:
            out.CopyFrom(node)
        pruned.node.extend([out])
    return extract_sub_graph(pruned, output_node_names)


def graph_def_from_checkpoint(checkpoint_dir: str, output_node_names: Sequence[str]) -> Any:
    """The latest checkpoint in `checkpoint_dir` (with its .meta graph, imported into the
    default graph) as a frozen GraphDef for `output_node_names`."""
    checkpoint_path = latest_checkpoint(checkpoint_dir)
    if checkpoint_path is None:
        raise ValueError("Could not find a checkpoint at: {0}.".format(checkpoint_dir))
    # as TF, the meta graph is imported into the caller's default graph
    saver = import_meta_graph(checkpoint_path + ".meta", clear_devices=True)
    with Session() as sess:
        saver.restore(sess, checkpoint_path)
        return convert_variables_to_constants(sess, sess.graph.as_graph_def(),
                                              output_node_names)
