"""Simple TF1 while loops of a dataflow plan, run as plain Python loops.

Most loops TF writes — dynamic_rnn, map_fn, scan, the gradient loops of those — have no
conditional and no nested loop in their frame. Their iterations always run the same ops:
the condition part (from the Merges to LoopCond) every iteration, the body (everything
downstream of the Switches' true outputs, up to the NextIterations) in every iteration
whose predicate holds. Such a frame needs none of the dataflow executor's per-op token
bookkeeping: once all its Enters have arrived live, `SimpleLoop.run` executes

    vars = Enter values
    while condition ops (vars) -> LoopCond:
        vars = body ops -> NextIteration values
    Exit values = vars

calling the same bound kernels in plan order, and hands the Exit values to the parent
frame. Frames with a Switch/Merge of their own (a cond in the body), a nested frame or
reference edges keep the general executor (dataflow.py), as do instances entered dead.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence

from tf1compat.runtime.codegen import make_grad_source
from tf1compat.runtime.plan import CONST, SLOT, STATE

__all__ = ["SimpleLoop", "find_simple_loops"]


class SimpleLoop:
    """The static shape of one simple frame: its loop variables and its two op lists."""

    def __init__(self, frame: str, merges: List[Any], switches: List[Any],
                 exits: List[Optional[Any]], loop_cond: Any, condition: List[Any],
                 body: List[Any], next_iterations: List[Any], enters: List[Any]):
        self.frame = frame
        self.merges = merges                  # per loop variable
        self.switches = switches              # per loop variable
        self.exits = exits                    # per loop variable (None: not in the plan)
        self.loop_cond = loop_cond
        self.condition = condition            # ops run every iteration, in plan order
        self.body = body                      # ops run while the predicate holds
        self.next_iterations = next_iterations    # per loop variable
        # Enter node -> loop variable index (None for a loop constant)
        self.enter_index = {id(e): (None if e.is_constant else
                                    next(k for k, m in enumerate(merges)
                                         if m.inputs_from[0] is e)) for e in enters}
        self.n_enters = len(enters)

    def run(self, enters: Sequence[tuple], read_outside: Callable[[tuple], Any],
            deliver: Callable[[Any, Any], None]) -> None:
        """Runs the loop from its Enter values ((node, value) pairs) and delivers each
        Exit's value (`deliver(exit node, value)`)."""
        env: Dict[int, Any] = {}
        values: List[Any] = [None] * len(self.merges)
        for node, value in enters:
            k = self.enter_index[id(node)]
            if k is None:
                _store(node, [value], env)
            else:
                values[k] = value

        def read(getter: tuple) -> Any:
            if getter[0] == SLOT:
                value = env[getter[1]]
                return value if getter[2] is None else value.to(getter[2])
            return read_outside(getter)

        first = True
        while True:
            for k, merge in enumerate(self.merges):
                _store(merge, [values[k], merge.value_indices[0 if first else 1]], env)
            first = False
            pred = None
            for node in self.condition:
                outputs = _call(node, read)
                _store(node, outputs, env)
                if node is self.loop_cond:
                    pred = outputs[0]
            if not bool(pred):
                break
            for k, switch in enumerate(self.switches):
                _store(switch, [None, values[k]], env)
            for node in self.body:
                if node in self.next_iterations:
                    continue
                _store(node, _call(node, read), env)
            values = [read(n.positional[0]) for n in self.next_iterations]
        for k, exit_node in enumerate(self.exits):
            if exit_node is not None:
                deliver(exit_node, values[k])


def _call(node: Any, read: Callable[[tuple], Any]) -> List[Any]:
    kernel = node.kernel
    if kernel is None:
        return [None] * node.n_out
    args = [read(g) for g in node.args]
    try:
        result = kernel(*args)
    except Exception as e:
        e._tf1compat_op = node.op   # for the session's error mapping
        e._tf1compat_args = args
        raise
    n_out = node.n_out
    return [result] if n_out == 1 else list(result) if n_out else []


def _store(node: Any, outputs: List[Any], env: Dict[int, Any]) -> None:
    for k, slot, mark in node.stores:
        value = outputs[k]
        if mark:
            value = outputs[k] = make_grad_source(value)
        env[slot] = value


# -- finding them ------------------------------------------------------------------------------

_ENTERS = frozenset({"Enter", "RefEnter"})


def _frames(nodes: Sequence[Any]) -> Dict[int, str]:
    """The frame ('' for the root) each node runs in, from its producers: past an Enter
    the child frame, past an Exit the parent's."""
    frame_of: Dict[int, str] = {}
    parent: Dict[str, str] = {}
    for node in nodes:                      # plan order: producers first (but back edges)
        frame = ""
        for producer, back_edge in node.producers:
            if back_edge:
                continue
            if producer.kind_name in _ENTERS:
                frame = producer.frame_name
            elif producer.kind_name in ("Exit", "RefExit"):
                frame = parent.get(frame_of[producer.index], "")
            else:
                frame = frame_of[producer.index]
            break
        frame_of[node.index] = frame
        if node.kind_name in _ENTERS:
            parent.setdefault(node.frame_name, frame)
    return frame_of


def find_simple_loops(nodes: Sequence[Any]) -> Dict[str, SimpleLoop]:
    """The frames of the plan that SimpleLoop can run, by frame name."""
    frame_of = _frames(nodes)
    members: Dict[str, List[Any]] = {}
    for node in nodes:
        members.setdefault(frame_of[node.index], []).append(node)
    enters: Dict[str, List[Any]] = {}
    for node in nodes:
        if node.kind_name in _ENTERS:
            enters.setdefault(node.frame_name, []).append(node)
    out = {}
    for frame, nodes_in in members.items():
        if frame and frame in enters:
            loop = _simple_loop(frame, nodes_in, enters[frame])
            if loop is not None:
                out[frame] = loop
    return out


def _simple_loop(frame: str, nodes_in: List[Any], enters: List[Any]) -> Optional[SimpleLoop]:
    kinds = {n.kind_name for n in nodes_in} | {n.kind_name for n in enters}
    if any(n.kind_name in _ENTERS for n in nodes_in) or any(k.startswith("Ref") for k in kinds):
        return None                         # a nested frame, or reference edges
    loop_conds = [n for n in nodes_in if n.kind_name == "LoopCond"]
    if len(loop_conds) != 1:
        return None
    merges = [n for n in nodes_in if n.kind_name == "Merge"]
    switches = [n for n in nodes_in if n.kind_name == "Switch"]
    if len(merges) != len(switches):
        return None
    ordered_switches = []
    for merge in merges:
        producers = merge.inputs_from
        if len(producers) != 2 or None in producers or producers[0].kind_name != "Enter" or \
                producers[1].kind_name != "NextIteration" or producers[0].is_constant:
            return None
        switch = [s for s in switches if s.inputs_from[0] is merge]
        if len(switch) != 1 or switch[0].inputs_from[1] is not loop_conds[0]:
            return None
        ordered_switches.append(switch[0])
    if any(not e.is_constant and not any(m.inputs_from[0] is e for m in merges)
           for e in enters):
        return None
    # The body: everything downstream of the Switches' true outputs inside the frame.
    in_frame = {id(n) for n in nodes_in}
    body_ids = set()
    stack = [c for s in ordered_switches for c, _ in s.consumer_nodes(1)]
    while stack:
        node = stack.pop()
        if id(node) in body_ids or id(node) not in in_frame:
            continue
        body_ids.add(id(node))
        if node.kind_name == "NextIteration":
            continue                        # (its consumer is the next iteration's Merge)
        stack.extend(c for k in range(node.n_out) for c, _ in node.consumer_nodes(k))
        stack.extend(node.control_consumer_nodes())
    structural = {id(n) for n in merges + ordered_switches}
    next_iterations = [m.inputs_from[1] for m in merges]
    if any(id(n) not in body_ids for n in next_iterations):
        return None
    exits = []
    for switch in ordered_switches:
        consumers = [c for c, _ in switch.consumer_nodes(0)]
        if any(c.kind_name != "Exit" for c in consumers) or len(consumers) > 1:
            return None
        exits.append(consumers[0] if consumers else None)
    exit_ids = {id(e) for e in exits if e is not None}
    for node in nodes_in:
        if node.kind_name in ("Switch", "Merge") and id(node) not in structural:
            return None                     # a conditional inside the loop
    condition = [n for n in nodes_in if id(n) not in body_ids and
                 id(n) not in structural and id(n) not in exit_ids]
    body = [n for n in nodes_in if id(n) in body_ids]
    return SimpleLoop(frame, [m for m in merges], ordered_switches, exits, loop_conds[0],
                      condition, body, next_iterations, enters)


def read_outside_getter(feeds: Dict[int, Any], state: Dict[str, Any]
                        ) -> Callable[[tuple], Any]:
    """Reads a non-slot argument (feed, variable, constant) as the executor does."""
    def read(getter: tuple) -> Any:
        kind, ref, device = getter
        if kind == STATE:
            value = state[ref]
        elif kind == CONST:
            value = ref
        else:
            value = feeds[ref]
        if device is not None and hasattr(value, "to"):
            value = value.to(device)
        return value
    return read
