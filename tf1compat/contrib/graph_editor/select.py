"""Selecting ops and tensors (TF 1.15's `graph_editor/select.py`): by regex on names, by
filter functions, by the boundary of a set of ops, and by walking the graph forward
(through consumers) or backward (through inputs) from seed ops.

The walks return each reached op once, the seeds first and then wave by wave; within a
wave TF's order follows Python set iteration (it varies from run to run), here it is
creation order, so results are the same sets as TF's in a reproducible order.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, List, Optional, Tuple

from tf1compat.contrib.graph_editor import util
from tf1compat.framework.graph import Graph
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = [
    "can_be_regex",
    "make_regex",
    "filter_ts",
    "filter_ts_from_regex",
    "filter_ops",
    "filter_ops_from_regex",
    "get_name_scope_ops",
    "check_cios",
    "get_ops_ios",
    "compute_boundary_ts",
    "get_within_boundary_ops",
    "get_forward_walk_ops",
    "get_backward_walk_ops",
    "get_walks_intersection_ops",
    "get_walks_union_ops",
    "select_ops",
    "select_ts",
    "select_ops_and_ts",
]

_RE_TYPE = type(re.compile(""))


def can_be_regex(obj: Any) -> bool:
    """True for a string or a compiled regular expression."""
    return isinstance(obj, (str, _RE_TYPE))


def make_regex(obj: Any) -> Any:
    """`obj` compiled (ValueError if it is neither a string nor a regex)."""
    if not can_be_regex(obj):
        raise ValueError(f"Expected a string or a regex, got: {type(obj)}")
    return re.compile(obj) if isinstance(obj, str) else obj


def _input_ts(ops: List[Operation]) -> List[Tensor]:
    ts: List[Tensor] = []
    for op in ops:
        util.concatenate_unique(ts, op.inputs)
    return ts


def _output_ts(ops: List[Operation]) -> List[Tensor]:
    return [t for op in ops for t in op.outputs]


def _filtered(items: list, positive_filter: Any) -> list:
    return items if positive_filter is True else [x for x in items if positive_filter(x)]


def filter_ts(ops: Any, positive_filter: Any) -> List[Tensor]:
    """The input and output tensors of `ops` (inputs first, each once) that pass
    `positive_filter` (True keeps all)."""
    ops = util.make_list_of_op(ops)
    return _filtered(util.concatenate_unique(_input_ts(ops), _output_ts(ops)),
                     positive_filter)


def filter_ts_from_regex(ops: Any, regex: Any) -> List[Tensor]:
    """`filter_ts` keeping the tensors whose name the regex matches (`re.search`)."""
    pattern = make_regex(regex)
    return filter_ts(ops, lambda t: pattern.search(t.name))


def filter_ops(ops: Any, positive_filter: Any) -> List[Operation]:
    """The ops of `ops` that pass `positive_filter` (True keeps all)."""
    return _filtered(util.make_list_of_op(ops), positive_filter)


def filter_ops_from_regex(ops: Any, regex: Any) -> List[Operation]:
    """The ops of `ops` whose name the regex matches (`re.search`)."""
    pattern = make_regex(regex)
    return filter_ops(ops, lambda op: pattern.search(op.name))


def get_name_scope_ops(ops: Any, scope: str) -> List[Operation]:
    """The ops of `ops` named `scope` or inside it."""
    if scope and scope[-1] == "/":
        scope = scope[:-1]
    return filter_ops_from_regex(ops, f"^{scope}(/.*)?$")


def check_cios(control_inputs: bool = False, control_outputs: Any = None,
               control_ios: Any = None) -> Tuple[bool, Any]:
    """Resolves the control-edge arguments the walks take into `(control_inputs,
    control_outputs)`: `control_ios` (a ControlOutputs) means both; the ControlOutputs
    returned is brought up to date."""
    if control_ios is not None:
        if not isinstance(control_ios, util.ControlOutputs):
            raise TypeError(f"Expected a util.ControlOutputs, got: {type(control_ios)}")
        if control_outputs is not None:
            raise ValueError("control_outputs should be None when using control_ios.")
        control_inputs = True
        control_outputs = control_ios
    elif control_outputs is not None and not isinstance(control_outputs,
                                                         util.ControlOutputs):
        raise TypeError(f"Expected a util.ControlOutputs, got: {type(control_outputs)}")
    if control_outputs is not None:
        control_outputs.update()
    return control_inputs, control_outputs


def get_ops_ios(ops: Any, control_inputs: bool = False, control_outputs: Any = None,
                control_ios: Any = None) -> List[Operation]:
    """The ops one edge away from `ops`: producers of their inputs, consumers of their
    outputs, and along control edges when asked."""
    control_inputs, control_outputs = check_cios(control_inputs, control_outputs,
                                                 control_ios)
    result: List[Operation] = []
    for op in util.make_list_of_op(ops):
        util.concatenate_unique(result, [t.op for t in op.inputs])
        for t in op.outputs:
            util.concatenate_unique(result, t.consumers())
        if control_outputs is not None:
            util.concatenate_unique(result, control_outputs.get(op))
        if control_inputs:
            util.concatenate_unique(result, op.control_inputs)
    return result


def compute_boundary_ts(ops: Any) -> Tuple[List[Tensor], List[Tensor], List[Tensor]]:
    """`(inputs, outputs, insides)` of the set `ops`: tensors coming from outside, tensors
    produced inside that something outside reads or that nothing reads, and tensors both
    produced and read inside (a tensor also read outside is in outputs and insides)."""
    ops = util.make_list_of_op(ops)
    inputs = _input_ts(ops)
    outputs = _output_ts(ops)
    produced = frozenset(outputs)
    op_set = frozenset(ops)
    insides = [t for t in inputs if t in produced]
    only_inside = frozenset(t for t in insides if not set(t.consumers()) - op_set)
    inside_set = frozenset(insides)
    return ([t for t in inputs if t not in inside_set],
            [t for t in outputs if t not in only_inside], insides)


def get_within_boundary_ops(ops: Any, seed_ops: Any, boundary_ops: Any = (),
                            inclusive: bool = True, control_inputs: bool = False,
                            control_outputs: Any = None, control_ios: Any = None
                            ) -> List[Operation]:
    """The ops of `ops` reachable from `seed_ops` in either direction without crossing
    `boundary_ops` (included when `inclusive`)."""
    control_inputs, control_outputs = check_cios(control_inputs, control_outputs,
                                                 control_ios)
    ops = util.make_list_of_op(ops)
    seed_ops = util.make_list_of_op(seed_ops, allow_graph=False)
    boundary = set(util.make_list_of_op(boundary_ops))
    reached = set(seed_ops)
    if boundary & reached:
        raise ValueError("Boundary is intersecting with the seeds.")
    wave = set(seed_ops)
    while wave:
        next_wave = set()
        for op in get_ops_ios(wave, control_inputs, control_outputs):
            if op in reached:
                continue
            if op in boundary:
                if inclusive:
                    reached.add(op)
            else:
                next_wave.add(op)
        reached.update(next_wave)
        wave = next_wave
    return [op for op in ops if op in reached]


def _walk(seed_ops: Any, forward: bool, inclusive: bool, within_ops: Any,
          within_ops_fn: Optional[Callable[[Operation], bool]], stop_at_ts: Any,
          control_edges: Any) -> List[Operation]:
    """The breadth-first walk both directions share. `control_edges` is a ControlOutputs
    going forward and a bool going backward."""
    if not util.is_iterable(seed_ops):
        seed_ops = [seed_ops]
    seed_ops = list(seed_ops)
    if not seed_ops:
        return []
    if isinstance(seed_ops[0], Tensor):
        ts = util.make_list_of_t(seed_ops, allow_graph=False)
        seed_ops = util.get_consuming_ops(ts) if forward else util.get_generating_ops(ts)
    else:
        seed_ops = util.make_list_of_op(seed_ops, allow_graph=False)
    stop = frozenset(util.make_list_of_t(stop_at_ts))
    # As TF: an empty `within_ops` restricts nothing.
    within = frozenset(util.make_list_of_op(within_ops, allow_graph=False)) \
        if within_ops else None
    seeds = util.concatenate_unique([], seed_ops)
    if within is not None:
        seeds = [op for op in seeds if op in within]

    def admitted(op: Operation) -> bool:
        return (within is None or op in within) and (within_ops_fn is None or
                                                     within_ops_fn(op))

    result = list(seeds)
    reached = set(seeds)
    wave = seeds
    while wave:
        found = set()
        for op in wave:
            if forward:
                nexts = [c for t in op.outputs if t not in stop for c in t.consumers()]
                if control_edges is not None:
                    nexts += control_edges.get(op)
            else:
                nexts = [t.op for t in op.inputs if t not in stop]
                if control_edges:
                    nexts += op.control_inputs
            found.update(n for n in nexts if n not in reached and admitted(n))
        wave = sorted(found, key=lambda o: o._id)
        result += wave
        reached.update(wave)
    if not inclusive:
        seed_set = frozenset(seeds)
        result = [op for op in result if op not in seed_set]
    return result


def get_forward_walk_ops(seed_ops: Any, inclusive: bool = True, within_ops: Any = None,
                         within_ops_fn: Optional[Callable[[Operation], bool]] = None,
                         stop_at_ts: Iterable[Tensor] = (), control_outputs: Any = None
                         ) -> List[Operation]:
    """The ops reached from `seed_ops` (ops, or tensors: their consumers) through
    consumers, not past `stop_at_ts`, restricted to `within_ops` / `within_ops_fn`, also
    along control edges when `control_outputs` (a ControlOutputs) is given."""
    _, control_outputs = check_cios(False, control_outputs)
    return _walk(seed_ops, True, inclusive, within_ops, within_ops_fn, stop_at_ts,
                 control_outputs)


def get_backward_walk_ops(seed_ops: Any, inclusive: bool = True, within_ops: Any = None,
                          within_ops_fn: Optional[Callable[[Operation], bool]] = None,
                          stop_at_ts: Iterable[Tensor] = (), control_inputs: bool = False
                          ) -> List[Operation]:
    """The ops reached from `seed_ops` (ops, or tensors: their producers) through inputs,
    not past `stop_at_ts`, restricted to `within_ops` / `within_ops_fn`, also along
    control inputs when `control_inputs`."""
    return _walk(seed_ops, False, inclusive, within_ops, within_ops_fn, stop_at_ts,
                 control_inputs)


def _both_walks(forward_seed_ops: Any, backward_seed_ops: Any, forward_inclusive: bool,
                backward_inclusive: bool, within_ops: Any, within_ops_fn: Any,
                control_inputs: bool, control_outputs: Any, control_ios: Any) -> tuple:
    control_inputs, control_outputs = check_cios(control_inputs, control_outputs,
                                                 control_ios)
    forward = get_forward_walk_ops(forward_seed_ops, inclusive=forward_inclusive,
                                   within_ops=within_ops, within_ops_fn=within_ops_fn,
                                   control_outputs=control_outputs)
    backward = get_backward_walk_ops(backward_seed_ops, inclusive=backward_inclusive,
                                     within_ops=within_ops, within_ops_fn=within_ops_fn,
                                     control_inputs=control_inputs)
    return forward, backward


def get_walks_intersection_ops(forward_seed_ops: Any, backward_seed_ops: Any,
                               forward_inclusive: bool = True,
                               backward_inclusive: bool = True, within_ops: Any = None,
                               within_ops_fn: Any = None, control_inputs: bool = False,
                               control_outputs: Any = None, control_ios: Any = None
                               ) -> List[Operation]:
    """The ops both on the forward walk from `forward_seed_ops` and on the backward walk
    from `backward_seed_ops` (the ops between them), in forward-walk order."""
    forward, backward = _both_walks(forward_seed_ops, backward_seed_ops, forward_inclusive,
                                    backward_inclusive, within_ops, within_ops_fn,
                                    control_inputs, control_outputs, control_ios)
    backward_set = frozenset(backward)
    return [op for op in forward if op in backward_set]


def get_walks_union_ops(forward_seed_ops: Any, backward_seed_ops: Any,
                        forward_inclusive: bool = True, backward_inclusive: bool = True,
                        within_ops: Any = None, within_ops_fn: Any = None,
                        control_inputs: bool = False, control_outputs: Any = None,
                        control_ios: Any = None) -> List[Operation]:
    """The ops on either walk: the forward walk's, then the backward walk's others."""
    forward, backward = _both_walks(forward_seed_ops, backward_seed_ops, forward_inclusive,
                                    backward_inclusive, within_ops, within_ops_fn,
                                    control_inputs, control_outputs, control_ios)
    return util.concatenate_unique(forward, backward)


def _select_kwargs(kwargs: dict, own_restrict: str, other_restrict: str) -> tuple:
    graph = None
    positive_filter = None
    restrict = False
    for key, value in kwargs.items():
        if key == "graph":
            graph = value
            if graph is not None and not isinstance(graph, Graph):
                raise TypeError(f"Expected a tf.Graph, got: {type(graph)}")
        elif key == "positive_filter":
            positive_filter = value
        elif key == own_restrict:
            restrict = value
        elif key != other_restrict:
            raise ValueError(f"Wrong keywords argument: {key}.")
    return graph, positive_filter, restrict


def _select(args: tuple, kwargs: dict, want_ops: bool) -> list:
    """select_ops (want_ops) or select_ts: regexes are matched against the graph's op or
    tensor names, a regex starting with the other kind's marker ("(?#ts)" / "(?#ops)") is
    skipped, and with the restrict flag only regexes with this kind's marker count."""
    own, other = ("(?#ops)", "(?#ts)") if want_ops else ("(?#ts)", "(?#ops)")
    own_key, other_key = ("restrict_ops_regex", "restrict_ts_regex") if want_ops else \
        ("restrict_ts_regex", "restrict_ops_regex")
    graph, positive_filter, restrict = _select_kwargs(kwargs, own_key, other_key)
    selected: list = []
    seen: set = set()
    for arg in args:
        if can_be_regex(arg):
            if graph is None:
                raise ValueError("Use the keyword argument 'graph' to use regex.")
            pattern = make_regex(arg)
            if pattern.pattern.startswith(other):
                continue
            if restrict and not pattern.pattern.startswith(own):
                continue
            found = filter_ops_from_regex(graph, pattern) if want_ops else \
                filter_ts_from_regex(graph, pattern)
        elif want_ops:
            found = util.make_list_of_op(arg, ignore_ts=True)
        else:
            found = util.make_list_of_t(arg, ignore_ops=True)
        for item in found:
            if item not in seen and (positive_filter is None or positive_filter(item)):
                selected.append(item)
                seen.add(item)
    return selected


def select_ops(*args: Any, **kwargs: Any) -> List[Operation]:
    """Ops from regexes (matched in the keyword `graph`), ops and lists of ops (tensors are
    ignored), each once, filtered by the keyword `positive_filter`."""
    return _select(args, kwargs, want_ops=True)


def select_ts(*args: Any, **kwargs: Any) -> List[Tensor]:
    """Tensors from regexes (matched in the keyword `graph`), tensors and lists of tensors
    (ops are ignored), each once, filtered by the keyword `positive_filter`."""
    return _select(args, kwargs, want_ops=False)


def select_ops_and_ts(*args: Any, **kwargs: Any) -> Tuple[List[Operation], List[Tensor]]:
    """`(select_ops(...), select_ts(...))`; a regex selects tensors only when it starts
    with "(?#ts)"."""
    ops = select_ops(*args, restrict_ops_regex=False, **kwargs)
    ts = select_ts(*args, restrict_ts_regex=True, **kwargs)
    return ops, ts
