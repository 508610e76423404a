"""`tf.profiler.profile`, `Profiler`, `advise`, `write_op_log` (TF1's tfprof Python API).

What is measured: float operations (each op declaration's `flops` fact, TF's per-op-type
formulas on static shapes) and parameters (variables' shapes), exactly as TF counts them,
and, from a RunMetadata's step_stats (a traced Session.run fills them:
runtime/step_stats.py), run counts and execution times; memory
(requested/peak/residual/output bytes) is never measured. The scope and op views are
built (GraphNodeProto / MultiGraphNodeProto, and TF's text report to stdout or a file);
the graph and code views, the advisor and timeline/pprof outputs raise
NotImplementedError naming what is missing.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional

from tf1compat.framework import errors
from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.graph import get_default_graph
from tf1compat.serialization.messages import AdviceProto, OpLogProto
from tf1compat.training.profiler.model import node_stats, op_log_for
from tf1compat.training.profiler.options import ProfileOptionBuilder
from tf1compat.training.profiler.report import report_body, write_report
from tf1compat.training.profiler.views import (op_proto, op_view, scope_proto,
                                               scope_view)

__all__ = ["profile", "Profiler", "advise", "write_op_log", "ALL_ADVICE"]

# TF's advisor checkers (tf.profiler.ALL_ADVICE).
ALL_ADVICE = {"ExpensiveOperationChecker": {}, "AcceleratorUtilizationChecker": {},
              "JobChecker": {}, "OperationChecker": {}}
_VIEWS = ("scope", "graph", "op", "code")


def _run_view(graph: Any, op_log: OpLogProto, run_meta: Any, cmd: str,
              options: Dict[str, Any]) -> Any:
    if cmd in ("graph", "code"):
        raise NotImplementedError(
            f"tf.profiler {cmd!r} view: tf1compat builds the 'scope' and 'op' views "
            f"(the {'data-flow' if cmd == 'graph' else 'Python call-stack'} view is not "
            "implemented)")
    nodes = node_stats(graph, op_log, run_meta)
    if cmd == "scope":
        tree = scope_view(nodes, options)
        result = scope_proto(tree)
    else:
        tree = op_view(nodes, options)
        result = op_proto(*tree)
    write_report(options, report_body(cmd, options, tree))
    return result


def _graph_or_default(graph: Any) -> Any:
    if graph is None:
        if executing_eagerly():
            raise NotImplementedError("tf.profiler under eager execution: profile a graph "
                                      "(tf1compat records no eager op statistics)")
        return get_default_graph()
    return graph


def profile(graph: Any = None, run_meta: Any = None, op_log: Optional[OpLogProto] = None,
            cmd: str = "scope", options: Optional[Dict[str, Any]] = None) -> Any:
    """Profiles `graph` (default: the default graph) in view `cmd` with `options`
    (default: ProfileOptionBuilder.trainable_variables_parameter(), as TF); returns a
    GraphNodeProto (scope) or MultiGraphNodeProto (op) and writes the report where
    options["output"] says."""
    if options is None:
        options = ProfileOptionBuilder.trainable_variables_parameter()
    graph = _graph_or_default(graph)
    merged = op_log_for(graph, op_log, run_meta)
    if cmd not in _VIEWS:
        raise errors.InvalidArgumentError(None, None, f"unknown cmd: {cmd}\n")
    return _run_view(graph, merged, run_meta, cmd, options)


def advise(graph: Any = None, run_meta: Any = None, options: Any = None) -> AdviceProto:
    """TF's advisor (checkers of expensive ops, accelerator use, ...): not implemented."""
    raise NotImplementedError("tf.profiler.advise: TF's advisor checkers are not "
                              "implemented by tf1compat; use tf.profiler.profile views")


def write_op_log(graph: Any, log_dir: str, op_log: Optional[OpLogProto] = None,
                 run_meta: Any = None, add_trace: bool = True) -> None:
    """Writes `<log_dir>/tfprof_log`: `op_log` merged with the graph's float operations
    and trainable-variable types (an OpLogProto, as TF writes it)."""
    graph = _graph_or_default(graph)
    merged = op_log_for(graph, op_log, run_meta, add_trace)
    with open(os.path.join(log_dir, "tfprof_log"), "wb") as f:
        f.write(merged.SerializeToString())


class Profiler:
    """`tf.profiler.Profiler(graph=None, op_log=None)`: profiles a graph across steps.

    `add_step(step, run_meta)` records a step's RunMetadata (the latest step's timings
    are used); `profile_name_scope` / `profile_operations` give the scope / op views;
    `profile_graph`, `profile_python` and `advise` raise NotImplementedError.
    """

    def __init__(self, graph: Any = None, op_log: Optional[OpLogProto] = None):
        self._graph = _graph_or_default(graph)
        self._op_log = op_log
        self._steps: Dict[int, Any] = {}

    def add_step(self, step: int, run_meta: Any) -> None:
        self._steps[int(step)] = run_meta

    def _run_meta(self, options: Dict[str, Any]) -> Any:
        step = int(options.get("step", -1))
        if step >= 0 and step in self._steps:
            return self._steps[step]
        return self._steps[max(self._steps)] if self._steps else None

    def _profile(self, cmd: str, options: Dict[str, Any]) -> Any:
        run_meta = self._run_meta(options)
        merged = op_log_for(self._graph, self._op_log, run_meta)
        return _run_view(self._graph, merged, run_meta, cmd, options)

    def profile_name_scope(self, options: Dict[str, Any]) -> Any:
        return self._profile("scope", options)

    def profile_operations(self, options: Dict[str, Any]) -> Any:
        return self._profile("op", options)

    def profile_graph(self, options: Dict[str, Any]) -> Any:
        return self._profile("graph", options)

    def profile_python(self, options: Dict[str, Any]) -> Any:
        return self._profile("code", options)

    def advise(self, options: Any) -> AdviceProto:
        return advise(self._graph, self._run_meta({}), options)
