"""What tf.profiler knows about each op of a graph: its statistics and extra op types.

`op_log_for(graph, op_log, run_meta)` is TF's merge of the caller's OpLogProto with the
facts the graph gives: each op's float operations (the `flops` fact of its declaration,
framework/op_def.py; an op whose shapes are not fully known counts as lacking them, and
the count of such ops is reported on stderr as TF does) and the `_trainable_variables`
type of the ops of tf.trainable_variables(). `node_stats(graph, op_log, run_meta)` turns
that into one `NodeStats` per op, adding parameters (the element count of a fully
defined `shape` attr: variables, placeholders), input shapes, devices and, from a
RunMetadata's step_stats, run counts and execution time (a traced Session.run records
them: runtime/step_stats.py); memory (requested/peak/residual/output bytes) is never
measured.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from tf1compat.framework.graph import GraphKeys, get_default_graph
from tf1compat.framework.op_def import get_op_def
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.serialization.messages import OpLogEntry, OpLogProto
from tf1compat.training.profiler.options import TRAINABLE_VARIABLES

__all__ = ["NodeStats", "op_log_for", "node_stats", "float_ops_of"]


@dataclass
class NodeStats:
    """The statistics of one graph op (TF's TFGraphNode, for the views)."""
    name: str
    op_types: List[str]
    float_ops: int = 0
    parameters: int = 0
    run_count: int = 0
    exec_micros: int = 0
    cpu_exec_micros: int = 0
    accelerator_exec_micros: int = 0
    devices: List[str] = field(default_factory=list)
    input_shapes: List[Optional[List[int]]] = field(default_factory=list)
    shape: Optional[List[int]] = None              # the `shape` attr, for the params text


def float_ops_of(op: Any) -> Optional[int]:
    """The op's flops statistic; None where its shapes are not fully defined (TF's
    ValueError) or the op type is not one tf1compat declares."""
    try:
        rule = get_op_def(op.type).flops
    except NotImplementedError:
        return 0
    if rule is None:
        return 0
    try:
        return int(rule(op))
    except ValueError:
        return None


def _logged_ops(graph: Any, add_trace: bool) -> Tuple[Dict[str, OpLogEntry], int]:
    logged: Dict[str, OpLogEntry] = {}
    missing_shapes = 0
    for op in graph.get_operations():
        flops = float_ops_of(op)
        if flops is None:
            missing_shapes += 1
        if flops or add_trace:
            entry = OpLogEntry(name=op.name)
            if flops:
                entry.float_ops = flops
            logged[op.name] = entry
    for v in graph.get_collection(GraphKeys.TRAINABLE_VARIABLES):
        name = v.op.name
        if name not in logged:
            logged[name] = OpLogEntry(name=name)
        logged[name].types.append(TRAINABLE_VARIABLES)
    return logged, missing_shapes


def op_log_for(graph: Any = None, op_log: Optional[OpLogProto] = None, run_meta: Any = None,
               add_trace: bool = True) -> OpLogProto:
    """TF's `merge_default_with_oplog`: the caller's entries, completed with the graph's
    float operations and trainable-variable types (the caller's own values win).

    Op tracebacks (the code view's data) are not written to the entries.
    """
    graph = graph if graph is not None else get_default_graph()
    logged, missing_shapes = _logged_ops(graph, add_trace)
    if missing_shapes and not run_meta:
        sys.stderr.write(f"{missing_shapes} ops no flops stats due to incomplete shapes.\n")
    merged = OpLogProto()
    if op_log is None or not op_log.log_entries:
        merged.log_entries.extend(logged.values())
    else:
        entries: Dict[str, OpLogEntry] = {e.name: e for e in op_log.log_entries}
        for name, entry in logged.items():
            mine = entries.get(name)
            if mine is None:
                entries[name] = entry
                continue
            mine.types.extend(entry.types)
            if entry.float_ops > 0 and mine.float_ops == 0:
                mine.float_ops = entry.float_ops
        merged.log_entries.extend(entries.values())
    merged.id_to_string[0] = "none"
    return merged


def _dims(shape: TensorShape) -> Optional[List[int]]:
    if shape.ndims is None:
        return None
    return [-1 if d is None else int(d) for d in shape.as_list()]


def _parameters(op: Any) -> Tuple[int, Optional[List[int]]]:
    try:
        shape = op.get_attr("shape")
    except (ValueError, KeyError):
        return 0, None
    if not isinstance(shape, TensorShape):
        shape = TensorShape(shape) if shape is not None else TensorShape(None)
    dims = _dims(shape)
    if dims is None:
        return 0, None
    count = 1
    for d in dims:
        if d < 0:
            return 0, dims
        count *= d
    return count, dims


def _exec_stats(run_meta: Any) -> Dict[str, Tuple[int, int, List[str]]]:
    """name -> (runs, micros, devices) from a RunMetadata's step_stats."""
    out: Dict[str, Tuple[int, int, List[str]]] = {}
    if run_meta is None:
        return out
    for dev in run_meta.step_stats.dev_stats:
        for stats in dev.node_stats:
            runs, micros, devices = out.get(stats.node_name, (0, 0, []))
            if dev.device not in devices:
                devices = devices + [dev.device]
            out[stats.node_name] = (runs + 1,
                                    micros + max(int(stats.op_end_rel_micros)
                                                 - int(stats.op_start_rel_micros), 0),
                                    devices)
    return out


def node_stats(graph: Any, op_log: OpLogProto, run_meta: Any = None) -> List[NodeStats]:
    """One NodeStats per op of `graph`, in creation order."""
    entries = {e.name: e for e in op_log.log_entries}
    timings = _exec_stats(run_meta)
    out: List[NodeStats] = []
    for op in graph.get_operations():
        entry = entries.get(op.name)
        types = [op.type] + ([t for t in entry.types if t != op.type] if entry else [])
        params, shape = _parameters(op)
        node = NodeStats(op.name, types, float_ops=int(entry.float_ops) if entry else 0,
                         parameters=params, shape=shape,
                         input_shapes=[_dims(t.shape) for t in op.inputs])
        runs, micros, devices = timings.get(op.name, (0, 0, []))
        node.run_count, node.exec_micros, node.cpu_exec_micros = runs, micros, micros
        node.devices = devices or ([op.device] if op.device else [])
        out.append(node)
    return out
