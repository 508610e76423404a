"""`tf1compat.graph_support(path)`: which op types of a graph file tf1compat can run.

Before moving a pretrained model over, a user asks whether tf1compat implements every op
its file holds. This reads a `.meta` (MetaGraphDef), a frozen `.pb` (GraphDef, binary or
text), a SavedModel directory or `saved_model.pb`, counts the op types of the graph and of
its function library, and lists those tf1compat has no declaration for. The same report
is `tf1compat graph-support FILE` on the command line (cli.py).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Dict, List

from tf1compat.serialization.messages import GraphDef, MetaGraphDef, SavedModel, parse_text
from tf1compat.training.saving import meta_graph
from tf1compat.graphdef.graph_import import missing_op_types

__all__ = ["GraphSupport", "graph_support"]


@dataclass
class GraphSupport:
    """The op coverage of one graph file."""
    path: str
    kind: str                                   # "MetaGraphDef", "GraphDef", "SavedModel"
    op_counts: Dict[str, int] = field(default_factory=dict)
    function_count: int = 0
    unsupported: List[str] = field(default_factory=list)

    @property
    def supported(self) -> bool:
        """Whether tf1compat implements every op type of the file."""
        return not self.unsupported

    def __str__(self) -> str:
        nodes = sum(self.op_counts.values())
        lines = [f"{self.path}: {self.kind}, {nodes} nodes of {len(self.op_counts)} op "
                 f"types, {self.function_count} library functions"]
        if self.supported:
            lines.append("all op types are supported by tf1compat")
        else:
            lines.append(f"{len(self.unsupported)} op type(s) not supported by tf1compat:")
            lines += [f"  {t} ({self.op_counts[t]} node{'s' if self.op_counts[t] > 1 else ''})"
                      for t in self.unsupported]
        return "\n".join(lines)


def _graph_defs(path: str) -> tuple:
    """(kind, [GraphDef]) of a graph file or SavedModel directory."""
    if os.path.isdir(path):
        for name in ("saved_model.pb", "saved_model.pbtxt"):
            if os.path.exists(os.path.join(path, name)):
                return _graph_defs(os.path.join(path, name))
        raise IOError(f"{path}: not a SavedModel directory (no saved_model.pb)")
    if not os.path.exists(path):
        raise IOError(f"File does not exist: {path}")
    with open(path, "rb") as f:
        data = f.read()
    base = os.path.basename(path)
    if base.startswith("saved_model.pb"):
        model = parse_text(data.decode("utf-8"), SavedModel) \
            if base.endswith(".pbtxt") else SavedModel.FromString(data)
        return "SavedModel", [m.graph_def for m in model.meta_graphs]
    if path.endswith(".meta"):
        return "MetaGraphDef", [meta_graph.read_meta_graph_file(path).graph_def]
    for kind, cls in (("GraphDef", GraphDef), ("MetaGraphDef", MetaGraphDef)):
        try:
            proto = cls.FromString(data) if not path.endswith((".pbtxt", ".txt")) else \
                parse_text(data.decode("utf-8"), cls)
        except Exception:  # noqa: BLE001 - try the next message kind
            continue
        graph_def = proto if kind == "GraphDef" else proto.graph_def
        if graph_def.node or graph_def.library.function:
            return kind, [graph_def]
    raise IOError(f"{path}: neither a GraphDef, a MetaGraphDef nor a SavedModel")


def graph_support(path: Any) -> GraphSupport:
    """The op types of the graph file (or GraphDef / MetaGraphDef) `path`, and those of them
    tf1compat does not implement."""
    if isinstance(path, MetaGraphDef):
        kind, graph_defs, name = "MetaGraphDef", [path.graph_def], "<MetaGraphDef>"
    elif isinstance(path, GraphDef):
        kind, graph_defs, name = "GraphDef", [path], "<GraphDef>"
    else:
        name = os.fspath(path)
        kind, graph_defs = _graph_defs(name)
    counts: Counter = Counter()
    nodes = []
    functions = 0
    for graph_def in graph_defs:
        nodes.extend(graph_def.node)
        for fdef in graph_def.library.function:
            functions += 1
            nodes.extend(fdef.node_def)
    counts.update(n.op for n in nodes)
    return GraphSupport(name, kind, dict(sorted(counts.items())), functions,
                        missing_op_types(nodes))
