"""The dataflow executor: plans with TF1 control flow (Switch, Merge, Enter, Exit, ...).

Graphs written by TF 1.x express conditionals and loops as dataflow (ops/dataflow_ops.py):
which ops run, and how often, is decided by the values flowing, not by the graph's
order. A plan containing such ops (`Plan.dataflow`) therefore runs here instead of as
generated straight-line code, with TF executor's semantics:

* Every value is produced in a *tag*: the root frame `()`, or a loop iteration
  `parent_tag + ((frame_name, iteration),)`. An op runs once per tag in which all its
  inputs (data and control, from ops of the plan) have arrived; constants, feeds and
  variables are available in every tag.
* A value is *live* or *dead*. `Switch` sends its data to one output and a dead token to
  the other; an op with a dead input does not run and sends dead tokens on; `Merge` runs
  on its first live input (dead only if all its forward inputs are dead);
  `ControlTrigger` runs either way.
* `Enter` moves a value into iteration 0 of its child frame (every iteration, when
  `is_constant`), `NextIteration` into the next iteration (dead tokens stop there),
  `Exit` to the parent frame. The dead exits of a loop that never produced a live value
  reach the parent once the frame instance is finished (all its Enters arrived and
  nothing is left to run), as TF does when a whole loop sits in an untaken branch.

Ready ops run depth first (the most recently enabled first), and a loop's next iteration
starts only when nothing of the current one can run any more: iterations run one after
the other, as tf1compat's own tf.while_loop runs them, so a body that assigns a variable
and reads it sees its own iteration's value (TF runs up to `parallel_iterations` at once,
with the same results wherever the graph's edges order such reads). The stacks TF's loop
gradients push to and pop from are ordered by control edges. Kernels are the plan's own
(bound once per plan); a failing kernel's exception is tagged with its op for the
session's error mapping, as the interpreter does.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Dict, List, Optional, Tuple

import torch

from tf1compat.framework import errors
from tf1compat.runtime.codegen import make_grad_source
from tf1compat.runtime.dataflow_loops import find_simple_loops, read_outside_getter
from tf1compat.runtime.plan import CONST, FEED, SLOT, STATE, Plan, Source, is_back_edge

__all__ = ["DataflowProgram", "compile_dataflow"]

_DEAD = object()            # the value of a dead output
# Whether frames without conditionals or nested loops run as plain Python loops
# (dataflow_loops.py); tests switch it off to check both paths give the same values.
FAST_LOOPS = [True]
Tag = Tuple[Tuple[str, int], ...]

_NORMAL, _SWITCH, _MERGE, _ENTER, _EXIT, _NEXT, _TRIGGER = range(7)
_KINDS = {"Switch": _SWITCH, "RefSwitch": _SWITCH, "Merge": _MERGE, "RefMerge": _MERGE,
          "Enter": _ENTER, "RefEnter": _ENTER, "Exit": _EXIT, "RefExit": _EXIT,
          "NextIteration": _NEXT, "RefNextIteration": _NEXT, "ControlTrigger": _TRIGGER}


class _Node:
    """One plan step with its edges to the other steps, prepared for the run loop."""

    __slots__ = ("index", "op", "kernel", "kind", "kind_name", "n_in", "n_forward",
                 "consumers", "control_consumers", "frame_name", "is_constant", "args",
                 "positional", "out_slots", "stores", "n_out", "value_indices",
                 "inputs_from", "producers", "all_nodes")

    def __init__(self, index: int, step: Any, feed_slots: set):
        op = step.op
        self.index = index
        self.op = op
        self.kernel = step.kernel
        self.kind = _KINDS.get(op._type, _NORMAL)
        self.kind_name = op._type
        self.n_in = 0            # edges from other steps (data and control)
        self.inputs_from: List[Optional["_Node"]] = [None] * len(op._inputs)
        self.producers: List[Tuple["_Node", bool]] = []   # (node, is a loop back edge)
        self.all_nodes: List["_Node"] = []
        self.n_forward = 0       # Merge: data edges that are not loop back edges
        self.consumers: List[List[Tuple[int, int]]] = [[] for _ in op._outputs]
        self.control_consumers: List[int] = []
        self.frame_name = op._attrs.get("frame_name") if self.kind == _ENTER else None
        self.is_constant = bool(op._attrs.get("is_constant")) if self.kind == _ENTER \
            else False
        self.args = [_getter(src, feed_slots) for src in step.args]
        # The argument getters by op input position (None where the input is a ref: the
        # plan binds those at kernel build).
        refs = op._op_def.ref_positions(len(op._inputs))
        args = iter(self.args)
        self.positional: List[Optional[tuple]] = [
            None if i in refs else next(args, None) for i in range(len(op._inputs))]
        self.out_slots = step.outs
        # (output index, slot, whether the value becomes an autograd source) per output
        # that later steps or fetches read.
        self.stores = [(k, slot, slot in step.marks) for k, slot in enumerate(step.outs)
                       if slot is not None]
        self.n_out = len(op._outputs)
        self.value_indices = [torch.tensor(i, dtype=torch.int32)
                              for i in range(len(op._inputs))] if self.kind == _MERGE else []

    def consumer_nodes(self, k: int) -> List[Tuple["_Node", int]]:
        """(consumer, input position) of output `k`."""
        return [(self.all_nodes[i], position) for i, position in self.consumers[k]]

    def control_consumer_nodes(self) -> List["_Node"]:
        return [self.all_nodes[i] for i in self.control_consumers]


def _getter(src: Source, feed_slots: set) -> tuple:
    """(kind, ref, device) for reading a Source: SLOT values live per tag, feeds and
    constants in every tag, variables in the store."""
    kind = src.kind
    if kind == SLOT and src.ref in feed_slots:
        kind = FEED
    return kind, src.ref, src.to_device


class _Frame:
    """One instance of a loop frame (a frame name inside one parent tag)."""

    __slots__ = ("parent", "name", "iterations", "constants", "enters_seen",
                 "dead_exits", "live_exits")

    def __init__(self, parent: Tag, name: str):
        self.parent = parent
        self.name = name
        self.iterations: set = set()
        self.constants: List[Tuple[_Node, Any]] = []   # (Enter node, value or _DEAD)
        self.enters_seen = 0
        self.dead_exits: Dict[_Node, None] = {}
        self.live_exits: set = set()


class DataflowProgram:
    """A dataflow plan ready to run: `program(F, S) -> tuple of fetched values`."""

    def __init__(self, plan: Plan):
        self.plan = plan
        feed_slots = set(plan.feed_slots)
        self.nodes = [_Node(i, s, feed_slots) for i, s in enumerate(plan.steps)]
        # A fed tensor that is a gradient source has a mark-only step (no kernel, its feed
        # slot in `marks`); the feed is made a source when the run starts.
        node_of_op = {n.op: n for n in self.nodes}
        self.feed_marks = [slot for s in plan.steps for slot in s.marks if slot in feed_slots]
        for n in self.nodes:
            op = n.op
            if node_of_op[op] is not n:
                continue        # (a mark-only step of an op that also has its own step)
            n.all_nodes = self.nodes
            for position, t in enumerate(op._inputs):
                producer = node_of_op.get(t._op)
                if producer is None:
                    continue
                producer.consumers[t._value_index].append((n.index, position))
                n.n_in += 1
                n.inputs_from[position] = producer
                n.producers.append((producer, is_back_edge(op, t)))
                if n.kind == _MERGE and not is_back_edge(op, t):
                    n.n_forward += 1
            for c in op._control_inputs:
                producer = node_of_op.get(c)
                if producer is not None:
                    producer.control_consumers.append(n.index)
                    n.n_in += 1
                    n.producers.append((producer, False))
        self.roots = [n for n in self.nodes if n.n_in == 0]
        self.enters_per_frame: Dict[str, int] = {}
        for n in self.nodes:
            if n.kind == _ENTER:
                self.enters_per_frame[n.frame_name] = \
                    self.enters_per_frame.get(n.frame_name, 0) + 1
        self.simple_loops = find_simple_loops(self.nodes) if FAST_LOOPS[0] else {}
        # Which node and output produce each fetched slot (root tag values).
        self.slot_producer: Dict[int, Tuple[_Node, int]] = {}
        for n in self.nodes:
            for k, slot in enumerate(n.out_slots):
                if slot is not None:
                    self.slot_producer[slot] = (n, k)

    def __call__(self, feeds: Any, state: Dict[str, Any]) -> tuple:
        return _Run(self, feeds, state).execute()


def compile_dataflow(plan: Plan) -> DataflowProgram:
    """Attaches the dataflow program as `plan.fn` (the codegen's contract) and returns it."""
    program = DataflowProgram(plan)
    plan.fn = program
    plan.source = "# dataflow plan: " + ", ".join(s.op.name for s in plan.steps[:20])
    return program


class _Run:
    """The state of one execution of a DataflowProgram."""

    def __init__(self, program: DataflowProgram, feeds: Any, state: Dict[str, Any]):
        self.program = program
        self.nodes = program.nodes
        self.state = state
        self.env: Dict[Tuple[int, Tag], Any] = {}
        self.feeds = dict(zip(program.plan.feed_slots, feeds))
        for slot in program.feed_marks:
            self.feeds[slot] = make_grad_source(self.feeds[slot])
        self.pending: Dict[Tuple[int, Tag], list] = {}    # [remaining, dead?]
        self.merged: set = set()                          # (Merge, tag) that fired
        self.ready: List[tuple] = []                      # (node, tag, dead, merge input)
        self.next_iterations: deque = deque()            # (NextIteration, tag, value)
        # (tag, frame) of a simple loop -> the Enters arrived so far (dataflow_loops.py)
        self.simple_enters: Dict[Tuple[Tag, str], list] = {}
        # simple-loop instances handed to the general path (see _start_stalled_loops)
        self.general_instances: set = set()
        self.read_outside = read_outside_getter(self.feeds, state)
        self.frames: Dict[Tuple[Tag, str], _Frame] = {}

    # -- tokens ------------------------------------------------------------------------------
    def _send(self, node: _Node, tag: Tag, outputs: List[Any], dead: bool) -> None:
        """Delivers a fired node's outputs (values or _DEAD) and its control token (dead
        when the node itself did not run) to the consumers in `tag`."""
        nodes = self.nodes
        for k, consumers in enumerate(node.consumers):
            if not consumers:
                continue
            value_dead = outputs[k] is _DEAD
            for index, position in consumers:
                consumer = nodes[index]
                if consumer.kind == _MERGE:
                    self._merge_token(consumer, (index, tag), position, value_dead)
                else:
                    self._token(consumer, tag, value_dead)
        for index in node.control_consumers:
            consumer = nodes[index]
            if consumer.kind != _MERGE:     # (a Merge waits for data only)
                self._token(consumer, tag, dead)

    def _token(self, node: _Node, tag: Tag, dead: bool) -> None:
        """One of `node`'s inputs arrived in `tag`: ready once all have (dead if any was
        dead, except for ControlTrigger)."""
        key = (node.index, tag)
        pending = self.pending
        entry = pending.get(key)
        if entry is None:
            entry = pending[key] = [node.n_in, False]
        entry[0] -= 1
        if dead:
            entry[1] = True
        if entry[0] == 0:
            del pending[key]
            self.ready.append((node, tag, entry[1] and node.kind != _TRIGGER, None))

    def _merge_token(self, node: _Node, key: tuple, position: int, dead: bool) -> None:
        if key in self.merged:
            return
        if not dead:
            self.merged.add(key)
            self.pending.pop(key, None)
            self.ready.append((node, key[1], False, position))
            return
        entry = self.pending.get(key)
        if entry is None:
            entry = self.pending[key] = [0, True]
        entry[0] += 1
        if entry[0] >= node.n_forward:
            self.merged.add(key)
            del self.pending[key]
            self.ready.append((node, key[1], True, None))

    # -- values -------------------------------------------------------------------------------
    def _value(self, getter: tuple, tag: Tag) -> Any:
        kind, ref, device = getter
        if kind == SLOT:
            value = self.env[(ref, tag)]
        elif kind == STATE:
            value = self.state[ref]
        elif kind == CONST:
            value = ref
        else:
            value = self.feeds[ref]
        if device is not None and hasattr(value, "to"):
            value = value.to(device)
        return value

    def _store(self, node: _Node, tag: Tag, outputs: List[Any]) -> None:
        env = self.env
        for k, slot, mark in node.stores:
            value = outputs[k]
            if value is _DEAD:
                continue
            if mark:
                value = outputs[k] = make_grad_source(value)
            env[(slot, tag)] = value

    # -- frames -----------------------------------------------------------------------------
    def _frame(self, parent: Tag, name: str) -> _Frame:
        frame = self.frames.get((parent, name))
        if frame is None:
            frame = self.frames[(parent, name)] = _Frame(parent, name)
        return frame

    def _iteration(self, frame: _Frame, i: int) -> Tag:
        """The tag of iteration `i`, delivering the frame's loop constants on creation."""
        tag = frame.parent + ((frame.name, i),)
        if i not in frame.iterations:
            frame.iterations.add(i)
            for enter, value in frame.constants:
                self._put(enter, tag, value)
        return tag

    def _put(self, node: _Node, tag: Tag, value: Any) -> None:
        """Places a frame-moving node's single output in `tag` and delivers it."""
        outputs = [value]
        self._store(node, tag, outputs)
        self._send(node, tag, outputs, value is _DEAD)

    # -- running ------------------------------------------------------------------------------
    def execute(self) -> tuple:
        program = self.program
        plan = program.plan
        state = self.state
        for key in plan.state_marks:
            state[key] = make_grad_source(state[key])
        ready = self.ready
        ready.extend((node, (), False, None) for node in reversed(program.roots))
        next_iterations = self.next_iterations
        while True:
            while ready:
                node, tag, dead, merge_input = ready.pop()
                self._fire(node, tag, dead, merge_input)
            if next_iterations:
                node, tag, value = next_iterations.popleft()
                name, i = tag[-1]
                self._put(node, self._iteration(self._frame(tag[:-1], name), i + 1), value)
                continue
            if not self._flush_dead_exits() and not self._start_stalled_loops():
                break
        out = tuple(self._fetch(src, i) for i, src in enumerate(plan.fetches))
        for key in plan.state_marks:
            if state[key].requires_grad:
                state[key] = state[key].detach()
        return out

    def _fire(self, node: _Node, tag: Tag, dead: bool, merge_input: Any) -> None:
        kind = node.kind
        if kind == _NORMAL or kind == _TRIGGER:
            if dead:
                self._send(node, tag, [_DEAD] * node.n_out, True)
                return
            kernel = node.kernel
            if kernel is None:
                outputs: List[Any] = [None] * node.n_out
            else:
                args = [self._value(g, tag) for g in node.args]
                try:
                    result = kernel(*args)
                except Exception as e:
                    e._tf1compat_op = node.op   # for the session's error mapping
                    e._tf1compat_args = args
                    raise
                n_out = node.n_out
                outputs = [result] if n_out == 1 else list(result) if n_out else []
            self._store(node, tag, outputs)
            self._send(node, tag, outputs, False)
            return
        if kind == _SWITCH:
            if dead:
                self._send(node, tag, [_DEAD, _DEAD], True)
                return
            data_getter, pred_getter = node.positional
            data = None if data_getter is None else self._value(data_getter, tag)
            outputs = [_DEAD, data] if bool(self._value(pred_getter, tag)) else [data, _DEAD]
            self._store(node, tag, outputs)
            self._send(node, tag, outputs, False)
        elif kind == _MERGE:
            if dead:
                self._send(node, tag, [_DEAD, _DEAD], True)
                return
            getter = node.positional[merge_input]
            outputs = [None if getter is None else self._value(getter, tag),
                       node.value_indices[merge_input]]
            self._store(node, tag, outputs)
            self._send(node, tag, outputs, False)
        elif kind == _ENTER:
            self._enter(node, tag, dead)
        elif kind == _EXIT:
            self._exit(node, tag, dead)
        elif not dead:             # NextIteration: the next iteration waits (see above)
            self.next_iterations.append((node, tag, self._input(node, tag)))

    def _input(self, node: _Node, tag: Tag) -> Any:
        getter = node.positional[0]
        return None if getter is None else self._value(getter, tag)

    def _enter(self, node: _Node, tag: Tag, dead: bool) -> None:
        loop = self.program.simple_loops.get(node.frame_name)
        key = (tag, node.frame_name)
        if loop is not None and key not in self.general_instances:
            arrived = self.simple_enters.setdefault(key, [])
            arrived.append((node, _DEAD if dead else self._input(node, tag), dead))
            if len(arrived) == loop.n_enters:
                del self.simple_enters[key]
                if any(d for _, _, d in arrived):    # entered dead: the general path
                    for enter, _, enter_dead in arrived:
                        self._enter_frame(enter, tag, enter_dead)
                    return
                loop.run([(e, v) for e, v, _ in arrived], self.read_outside,
                         lambda exit_node, value: self._put(exit_node, tag, value))
            return
        self._enter_frame(node, tag, dead)

    def _start_stalled_loops(self) -> bool:
        """Runs on the general path the simple loops still waiting for Enters when nothing
        else can run; whether there were any.

        An Enter may depend on the loop's own results: TF's gradient code enters the
        update ops of a `control_dependencies(UPDATE_OPS)` block into the forward loop's
        frame (as constants its stack pushes wait for), and those update ops read what the
        loop computed. TF's executor runs the frame without them and hands them to the
        iterations when they arrive; so does the general path here."""
        if not self.simple_enters:
            return False
        stalled, self.simple_enters = self.simple_enters, {}
        for key, arrived in stalled.items():
            self.general_instances.add(key)
            for enter, _, enter_dead in arrived:
                self._enter_frame(enter, key[0], enter_dead)
        return True

    def _enter_frame(self, node: _Node, tag: Tag, dead: bool) -> None:
        frame = self._frame(tag, node.frame_name)
        frame.enters_seen += 1
        value = _DEAD if dead else self._input(node, tag)
        if node.is_constant:
            frame.constants.append((node, value))
            for i in sorted(frame.iterations):
                self._put(node, frame.parent + ((frame.name, i),), value)
            if not frame.iterations:
                self._iteration(frame, 0)
            return
        self._put(node, self._iteration(frame, 0), value)

    def _exit(self, node: _Node, tag: Tag, dead: bool) -> None:
        name, _ = tag[-1]
        frame = self._frame(tag[:-1], name)
        if dead:
            if node not in frame.live_exits:
                frame.dead_exits[node] = None
            return
        frame.live_exits.add(node)
        frame.dead_exits.pop(node, None)
        self._put(node, frame.parent, self._input(node, tag))

    def _flush_dead_exits(self) -> bool:
        """Sends the dead exits of finished frame instances on; whether any were sent.

        Only the innermost such instances go first: a loop whose iteration waits for the
        dead exits of a loop nested in it (one in an untaken tf.cond branch of its body)
        has dead exits of its own from the iterations that went on (its Switch's other
        side), and is not finished until the nested one's reach it (as in TF, where an
        iteration with a live child frame is not done)."""
        expected = self.program.enters_per_frame
        while True:
            finished = [frame for frame in self.frames.values() if frame.dead_exits and
                        frame.enters_seen >= expected.get(frame.name, 0)]
            if not finished:
                return False
            sent = False
            for frame in finished:
                inside = frame.parent + ((frame.name, 0),)
                depth = len(inside)
                if any(other.parent[:depth - 1] == frame.parent and
                       other.parent[depth - 1][0] == frame.name
                       for other in finished if len(other.parent) >= depth):
                    continue        # a loop nested in one of its iterations goes first
                exits, frame.dead_exits = list(frame.dead_exits), {}
                for node in exits:
                    if node not in frame.live_exits:
                        self._send(node, frame.parent, [_DEAD], True)
                        sent = True
            if sent:
                return True

    def _fetch(self, src: Source, index: int) -> Any:
        if src.kind == CONST and src.ref is None:
            return None
        if src.kind == SLOT and src.ref not in self.feeds and \
                (src.ref, ()) not in self.env:
            node, k = self.program.slot_producer[src.ref]
            tensor = node.op._outputs[k]
            raise errors.InvalidArgumentError(
                None, node.op, f"Retval[{index}] does not have value ({tensor.name} is "
                "dead: the branch or loop computing it did not run)")
        return self._value(_getter(src, set(self.feeds)), ())
