"""tf.profiler's scope and op views: the trees of GraphNodeProto / MultiGraphNodeProto.

Scope view (TF's TFScope): ops form a tree by name ("conv1/w" under "conv1"), with a node
made for each name prefix no op has. A node is *accounted* when one of its op types
matches `account_type_regexes`; nodes neither accounted nor above an accounted one drop
out. A node is *shown* when its name matches a `show_name_regexes` and no
`hide_name_regexes` entry, its own statistics reach the `min_*` thresholds, it has fewer
than `max_depth` shown ancestors (the root counts) and under no `trim_name_regexes` match; the shown nodes
under a hidden one move up to its place. With `account_displayed_op_only`, totals add a
shown node's own statistics (when accounted) to its shown children's totals; without it,
they cover every accounted node of its name subtree, shown or not. Siblings are ordered by `order_by` (totals, largest first,
then by name).

Op view (TF's TFOp): the accounted ops grouped by their op type (not the extra types);
each group's statistics are its ops' sums, ordered by `order_by`, and its totals add those
of the groups after it. Groups whose totals are below the thresholds are not shown; TF
returns the shown groups as a chain (each group the only child of the one before it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from tf1compat.serialization.messages import (GraphNodeProto, MultiGraphNodeProto,
                                              TensorShapeProto)
from tf1compat.training.profiler.model import NodeStats

__all__ = ["ROOT", "STAT_FIELDS", "ScopeNode", "scope_view", "op_view", "OpGroup"]

ROOT = "_TFProfRoot"
# The summable statistics, as GraphNodeProto names them (own; totals are total_<name>).
STAT_FIELDS = ("run_count", "exec_micros", "accelerator_exec_micros", "cpu_exec_micros",
               "requested_bytes", "peak_bytes", "residual_bytes", "output_bytes",
               "parameters", "float_ops")
# order_by attribute -> the total a node is ordered by (largest first).
_ORDER_KEYS = {"micros": "exec_micros", "accelerator_micros": "accelerator_exec_micros",
               "cpu_micros": "cpu_exec_micros", "bytes": "requested_bytes",
               "peak_bytes": "peak_bytes", "residual_bytes": "residual_bytes",
               "output_bytes": "output_bytes", "params": "parameters",
               "float_ops": "float_ops", "occurrence": "run_count"}
# min_<option> -> the own statistic it bounds.
_THRESHOLDS = {"min_bytes": "requested_bytes", "min_peak_bytes": "peak_bytes",
               "min_residual_bytes": "residual_bytes", "min_output_bytes": "output_bytes",
               "min_micros": "exec_micros", "min_accelerator_micros": "accelerator_exec_micros",
               "min_cpu_micros": "cpu_exec_micros", "min_params": "parameters",
               "min_float_ops": "float_ops"}


def _matches(name: str, regexes: List[str]) -> bool:
    return any(re.fullmatch(r, name) for r in regexes)


@dataclass(eq=False)
class ScopeNode:
    """A node of the scope tree: an op (`stats`) or a name prefix no op has."""
    name: str
    stats: Optional[NodeStats] = None
    children: List["ScopeNode"] = field(default_factory=list)
    accounted: bool = False
    totals: Dict[str, int] = field(default_factory=dict)
    definitions: int = 0
    shown: List["ScopeNode"] = field(default_factory=list)

    def own(self, stat: str) -> int:
        return getattr(self.stats, stat, 0) if self.stats is not None and \
            stat in NodeStats.__dataclass_fields__ else 0


def _scope_tree(nodes: List[NodeStats]) -> ScopeNode:
    root = ScopeNode(ROOT)
    by_name: Dict[str, ScopeNode] = {}

    def get(name: str) -> ScopeNode:
        node = by_name.get(name)
        if node is None:
            node = by_name[name] = ScopeNode(name)
            parent_name = name.rpartition("/")[0]
            (get(parent_name) if parent_name else root).children.append(node)
        return node
    for stats in nodes:
        get(stats.name).stats = stats
    return root


def _account(node: ScopeNode, regexes: List[str]) -> bool:
    """Marks accounted nodes; drops children with nothing accounted beneath."""
    node.children = [c for c in node.children if _account(c, regexes)]
    node.accounted = node.stats is not None and any(
        _matches(t, regexes) for t in node.stats.op_types)
    return node.accounted or bool(node.children)


def _passes(node: ScopeNode, options: Dict[str, Any]) -> bool:
    if not _matches(node.name, options.get("show_name_regexes", [".*"])):
        return False
    if _matches(node.name, options.get("hide_name_regexes", [])):
        return False
    for option, stat in _THRESHOLDS.items():
        if node.own(stat) < int(options.get(option, 0) or 0):
            return False
    if node.own("run_count") < int(options.get("min_occurrence", 0) or 0) and \
            int(options.get("min_occurrence", 0) or 0) > 0:
        return False
    return True


def _order(nodes: List[Any], order_by: str) -> List[Any]:
    nodes = sorted(nodes, key=lambda n: n.name)
    key = _ORDER_KEYS.get(order_by)
    if key is None:
        return nodes
    return sorted(nodes, key=lambda n: -n.totals.get(key, 0))


def _display(node: ScopeNode, options: Dict[str, Any], depth: int, started: bool,
             displayed_only: bool) -> List[ScopeNode]:
    """The shown nodes for `node`'s place: itself, or its shown descendants lifted."""
    if _matches(node.name, options.get("trim_name_regexes", [])):
        return []
    started = started or _matches(node.name, options.get("start_name_regexes", [".*"]))
    show = started and depth < int(options.get("max_depth", 100)) and _passes(node, options)
    below: List[ScopeNode] = []
    for child in node.children:
        below.extend(_display(child, options, depth + 1 if show else depth, started,
                              displayed_only))
    if show:
        node.shown = below
        if displayed_only:
            node.totals = {s: (node.own(s) if node.accounted else 0)
                           + sum(c.totals.get(s, 0) for c in below) for s in STAT_FIELDS}
            node.definitions = 1 + sum(c.definitions for c in below)
        else:
            node.totals, node.definitions = _subtree_totals(node)
        return [node]
    return below


def _subtree_totals(node: ScopeNode) -> tuple:
    """Statistics of the accounted nodes of the whole subtree, shown or not, and its
    node count (totals without account_displayed_op_only)."""
    totals = {s: node.own(s) if node.accounted else 0 for s in STAT_FIELDS}
    count = 1
    for child in node.children:
        child_totals, child_count = _subtree_totals(child)
        for s in STAT_FIELDS:
            totals[s] += child_totals[s]
        count += child_count
    return totals, count


def scope_view(nodes: List[NodeStats], options: Dict[str, Any]) -> ScopeNode:
    """The shown scope tree under the root (`root.shown`), totals filled in."""
    root = _scope_tree(nodes)
    _account(root, list(options.get("account_type_regexes", [".*"])))
    displayed_only = bool(options.get("account_displayed_op_only", False))
    shown: List[ScopeNode] = []
    for child in root.children:
        shown.extend(_display(child, options, 1, False, displayed_only))
    root.shown = shown
    if displayed_only:
        root.totals = {s: sum(c.totals.get(s, 0) for c in shown) for s in STAT_FIELDS}
        root.definitions = 1 + sum(c.definitions for c in shown)
    else:
        root.totals, count = _subtree_totals(root)
        root.definitions = count - 1        # TF leaves the root out of this count
    order_by = options.get("order_by", "name")

    def sort(node: ScopeNode) -> None:
        node.shown = _order(node.shown, order_by)
        for c in node.shown:
            sort(c)
    sort(root)
    return root


def _shape_proto(dims: Optional[List[int]]) -> TensorShapeProto:
    proto = TensorShapeProto()
    if dims is None:
        proto.unknown_rank = True
    elif not dims:
        proto.dim.add(size=1)           # TF's profiler shows a scalar input as [1]
    else:
        for d in dims:
            proto.dim.add(size=d)
    return proto


def graph_node_proto(node: Any, stats: Optional[NodeStats], totals: Dict[str, int],
                     definitions: int) -> GraphNodeProto:
    """A GraphNodeProto of one node (its own statistics from `stats`, when an op)."""
    proto = GraphNodeProto(name=node.name)
    if stats is not None:
        for stat in ("run_count", "exec_micros", "cpu_exec_micros", "parameters",
                     "float_ops"):
            setattr(proto, stat, int(getattr(stats, stat)))
        proto.devices.extend(stats.devices)
        for i, dims in enumerate(stats.input_shapes):
            proto.input_shapes[i].CopyFrom(_shape_proto(dims))
    for stat in STAT_FIELDS:
        if stat in ("run_count",):
            proto.total_run_count = int(totals.get(stat, 0))
        else:
            setattr(proto, "total_" + stat, int(totals.get(stat, 0)))
    proto.total_definition_count = definitions
    return proto


def scope_proto(node: ScopeNode) -> GraphNodeProto:
    proto = graph_node_proto(node, node.stats if node.name != ROOT else None, node.totals,
                             node.definitions)
    proto.children.extend(scope_proto(c) for c in node.shown)
    return proto


@dataclass(eq=False)
class OpGroup:
    """The ops of one op type (a node of the op view)."""
    name: str
    members: List[NodeStats] = field(default_factory=list)
    own: Dict[str, int] = field(default_factory=dict)
    totals: Dict[str, int] = field(default_factory=dict)


def op_view(nodes: List[NodeStats], options: Dict[str, Any]) -> tuple:
    """(the shown op-type groups in `order_by` order, the root's totals). A group's totals
    add its own statistics to those of the groups after it: the shown ones with
    `account_displayed_op_only`, every accounted one without (so is the root's)."""
    regexes = list(options.get("account_type_regexes", [".*"]))
    groups: Dict[str, OpGroup] = {}
    for stats in nodes:
        if not any(_matches(t, regexes) for t in stats.op_types):
            continue
        op_type = stats.op_types[0]            # grouped by the op's own type
        groups.setdefault(op_type, OpGroup(op_type)).members.append(stats)
    for group in groups.values():
        group.own = {s: sum(getattr(m, s, 0) for m in group.members
                            if s in NodeStats.__dataclass_fields__) for s in STAT_FIELDS}
        group.totals = dict(group.own)           # what _order sorts by
    ordered = _order(list(groups.values()), options.get("order_by", "name"))
    totals = _chain_totals(ordered)
    # The thresholds apply to a group's totals over every accounted group (TF's order).
    shown = []
    for group in ordered:
        probe = ScopeNode(group.name, NodeStats(group.name, [], **{
            s: group.totals[s] for s in STAT_FIELDS if s in NodeStats.__dataclass_fields__}))
        if _passes(probe, options):
            shown.append(group)
    if options.get("account_displayed_op_only", False):
        totals = _chain_totals(shown)
    return shown, totals


def _chain_totals(chain: List[OpGroup]) -> Dict[str, int]:
    """Sets each group's totals to its own plus those after it; returns the sum."""
    running = {s: 0 for s in STAT_FIELDS}
    for group in reversed(chain):
        running = {s: running[s] + group.own[s] for s in STAT_FIELDS}
        group.totals = dict(running)
    return running


_OP_STATS = ("exec_micros", "cpu_exec_micros", "parameters", "float_ops")


def op_proto(groups: List[OpGroup], root_totals: Dict[str, int]) -> MultiGraphNodeProto:
    """TF's op-view answer: the root, then the shown groups as a chain."""
    root = MultiGraphNodeProto(name=ROOT)
    parent = root
    for group in groups:
        proto = parent.children.add(name=group.name)
        for stat in _OP_STATS:
            setattr(proto, stat, int(group.own[stat]))
            setattr(proto, "total_" + stat, int(group.totals[stat]))
        for m in sorted(group.members, key=lambda n: n.name):
            totals = {s: getattr(m, s, 0) for s in STAT_FIELDS
                      if s in NodeStats.__dataclass_fields__}
            proto.graph_nodes.append(graph_node_proto(m, m, totals, 1))
        parent = proto
    for stat in _OP_STATS:
        setattr(root, "total_" + stat, int(root_totals[stat]))
    return root
