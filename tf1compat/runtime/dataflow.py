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

Ready ops run in order of (iteration created first, plan order), so one iteration's work
completes before the next one's: the stacks TF's loop gradients push to and pop from see
the order TF's control edges guarantee. Kernels are the plan's own (bound once per
plan); a failing kernel's exception is tagged with its op for the session's error
mapping, as the interpreter does.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Any, Dict, List, Optional, Tuple

import torch

from tf1compat.framework import errors
from tf1compat.runtime.codegen import make_grad_source
from tf1compat.runtime.plan import CONST, SLOT, STATE, Plan, Source, is_back_edge

__all__ = ["DataflowProgram", "compile_dataflow"]

_DEAD = object()            # the value of a dead output
Tag = Tuple[Tuple[str, int], ...]

_NORMAL, _SWITCH, _MERGE, _ENTER, _EXIT, _NEXT, _TRIGGER = range(7)
_KINDS = {"Switch": _SWITCH, "RefSwitch": _SWITCH, "Merge": _MERGE, "RefMerge": _MERGE,
          "Enter": _ENTER, "RefEnter": _ENTER, "Exit": _EXIT, "RefExit": _EXIT,
          "NextIteration": _NEXT, "RefNextIteration": _NEXT, "ControlTrigger": _TRIGGER}


class _Node:
    """One plan step with its edges to the other steps."""

    __slots__ = ("index", "step", "kind", "n_in", "n_forward", "consumers",
                 "frame_name", "is_constant", "value_args", "positional", "out_slots",
                 "marks")

    def __init__(self, index: int, step: Any):
        self.index = index
        self.step = step
        op = step.op
        self.kind = _KINDS.get(op._type, _NORMAL)
        self.n_in = 0            # edges from other steps (data and control)
        self.n_forward = 0       # Merge: data edges that are not loop back edges
        # per output index (-1: control): [(consumer node, input position or -1)]
        self.consumers: Dict[int, List[Tuple["_Node", int]]] = {}
        self.frame_name = op._attrs.get("frame_name") if self.kind == _ENTER else None
        self.is_constant = bool(op._attrs.get("is_constant")) if self.kind == _ENTER \
            else False
        self.value_args: List[Source] = step.args
        # The sources by op input position (None where the input is a ref: the plan
        # binds those at kernel build).
        refs = op._op_def.ref_input_indices
        args = iter(step.args)
        self.positional: List[Optional[Source]] = [
            None if i in refs else next(args, None) for i in range(len(op._inputs))]
        self.out_slots = step.outs
        self.marks = step.marks


class _Frame:
    """One instance of a loop frame (a frame name inside one parent tag)."""

    __slots__ = ("parent", "name", "iterations", "constants", "enters_seen",
                 "dead_exits", "live_exits")

    def __init__(self, parent: Tag, name: str):
        self.parent = parent
        self.name = name
        self.iterations: List[int] = []
        self.constants: List[Tuple[_Node, Any]] = []   # (Enter node, value or _DEAD)
        self.enters_seen = 0
        self.dead_exits: Dict[_Node, None] = {}
        self.live_exits: set = set()


class DataflowProgram:
    """A dataflow plan ready to run: `program(F, S) -> tuple of fetched values`."""

    def __init__(self, plan: Plan):
        self.plan = plan
        steps = plan.steps
        self.nodes = [_Node(i, s) for i, s in enumerate(steps)]
        # A fed tensor that is a gradient source has a mark-only step (no kernel, its feed
        # slot in `marks`); the feed is made a source when the run starts.
        node_of_op = {n.step.op: n for n in self.nodes}
        feed_slots = set(plan.feed_slots)
        self.feed_marks = [slot for n in self.nodes for slot in n.marks if slot in feed_slots]
        for n in self.nodes:
            op = n.step.op
            if node_of_op[op] is not n:
                continue        # (a mark-only step of an op that also has its own step)
            for position, t in enumerate(op._inputs):
                producer = node_of_op.get(t._op)
                if producer is None or producer is n and not is_back_edge(op, t):
                    continue
                producer.consumers.setdefault(t._value_index, []).append((n, position))
                n.n_in += 1
                if n.kind == _MERGE and not is_back_edge(op, t):
                    n.n_forward += 1
            for c in op._control_inputs:
                producer = node_of_op.get(c)
                if producer is not None:
                    producer.consumers.setdefault(-1, []).append((n, -1))
                    n.n_in += 1
        self.roots = [n for n in self.nodes if n.n_in == 0]
        self.enters_per_frame: Dict[str, int] = {}
        for n in self.nodes:
            if n.kind == _ENTER:
                self.enters_per_frame[n.frame_name] = \
                    self.enters_per_frame.get(n.frame_name, 0) + 1
        self.feed_slots = set(plan.feed_slots)
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
        self.state = state
        self.env: Dict[Tuple[int, Tag], Any] = {}
        self.feeds = dict(zip(program.plan.feed_slots, feeds))
        for slot in program.feed_marks:
            self.feeds[slot] = make_grad_source(self.feeds[slot])
        self.pending: Dict[Tuple[int, Tag], list] = {}   # [remaining, dead?, inputs dict]
        self.fired: set = set()
        self.heap: list = []
        self.counter = itertools.count()
        self.tag_seq: Dict[Tag, int] = {(): 0}
        self.frames: Dict[Tuple[Tag, str], _Frame] = {}

    # -- scheduling -------------------------------------------------------------------------
    def _seq(self, tag: Tag) -> int:
        seq = self.tag_seq.get(tag)
        if seq is None:
            seq = self.tag_seq[tag] = len(self.tag_seq)
        return seq

    def _ready(self, node: _Node, tag: Tag, dead: bool, merge_input: Any = None) -> None:
        key = (node.index, tag)
        if key in self.fired:
            return
        self.fired.add(key)
        heapq.heappush(self.heap, (self._seq(tag), node.index, next(self.counter), node, tag,
                                   dead, merge_input))

    def _deliver(self, node: _Node, position: int, tag: Tag, dead: bool,
                 value_index: int) -> None:
        """One token reaches `node` (input `position`, -1 for control) in `tag`."""
        key = (node.index, tag)
        if key in self.fired:
            return
        if node.kind == _MERGE:
            if position < 0:
                return           # (a Merge waits for data only)
            if not dead:
                self._ready(node, tag, False, position)
                return
            entry = self.pending.get(key)
            if entry is None:
                entry = self.pending[key] = [0, True, None]
            entry[0] += 1
            if entry[0] >= node.n_forward:
                self._ready(node, tag, True)
            return
        entry = self.pending.get(key)
        if entry is None:
            entry = self.pending[key] = [node.n_in, False, None]
        entry[0] -= 1
        if dead:
            entry[1] = True
        if entry[0] <= 0:
            del self.pending[key]
            self._ready(node, tag, entry[1] and node.kind != _TRIGGER)

    def _send(self, node: _Node, tag: Tag, outputs: List[Any], dead: bool = False) -> None:
        """Delivers a fired node's outputs (values or _DEAD) and its control token (dead
        when the node itself did not run)."""
        for k, value in enumerate(outputs):
            for consumer, position in node.consumers.get(k, ()):
                self._deliver(consumer, position, tag, value is _DEAD, k)
        for consumer, position in node.consumers.get(-1, ()):
            self._deliver(consumer, position, tag, dead, -1)

    # -- values -------------------------------------------------------------------------------
    def _value(self, src: Source, tag: Tag) -> Any:
        kind = src.kind
        if kind == SLOT:
            slot = src.ref
            if slot in self.feeds:
                value = self.feeds[slot]
            else:
                value = self.env[(slot, tag)]
        elif kind == STATE:
            value = self.state[src.ref]
        elif kind == CONST:
            value = src.ref
        else:  # pragma: no cover - FEED sources are bound to slots first
            raise AssertionError(kind)
        if src.to_device is not None and hasattr(value, "to"):
            value = value.to(src.to_device)
        return value

    def _store(self, node: _Node, tag: Tag, outputs: List[Any]) -> None:
        for k, (slot, value) in enumerate(zip(node.out_slots, outputs)):
            if slot is None or value is _DEAD:
                continue
            if slot in node.marks:
                value = make_grad_source(value)
                outputs[k] = value
            self.env[(slot, tag)] = value

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
            frame.iterations.append(i)
            self._seq(tag)
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
        for node in program.roots:
            self._ready(node, (), False)
        while True:
            while self.heap:
                _, _, _, node, tag, dead, merge_input = heapq.heappop(self.heap)
                self._fire(node, tag, dead, merge_input)
            if not self._flush_dead_exits():
                break
        out = tuple(self._fetch(src, i) for i, src in enumerate(plan.fetches))
        for key in plan.state_marks:
            if state[key].requires_grad:
                state[key] = state[key].detach()
        return out

    def _fetch(self, src: Source, index: int) -> Any:
        if src.kind == CONST and src.ref is None:
            return None
        if src.kind == SLOT and src.ref not in self.feeds and \
                (src.ref, ()) not in self.env:
            node, k = self.program.slot_producer[src.ref]
            tensor = node.step.op._outputs[k]
            if (node.index, ()) in self.fired:
                raise errors.InvalidArgumentError(
                    None, node.step.op, f"Retval[{index}] does not have value "
                    f"({tensor.name} is dead: its branch or loop did not run)")
            raise errors.InternalError(None, node.step.op, f"{tensor.name} was never "
                                       "computed: the graph's control flow is malformed")
        return self._value(src, ())

    def _fire(self, node: _Node, tag: Tag, dead: bool, merge_input: Any) -> None:
        kind = node.kind
        n_out = len(node.step.op._outputs)
        if kind == _ENTER:
            self._enter(node, tag, dead)
            return
        if kind == _EXIT:
            self._exit(node, tag, dead)
            return
        if kind == _NEXT:
            if not dead:
                name, i = tag[-1]
                frame = self._frame(tag[:-1], name)
                value = self._single_value(node, tag)
                self._put(node, self._iteration(frame, i + 1), value)
            return
        if dead:
            self._send(node, tag, [_DEAD] * n_out, True)
            return
        if kind == _MERGE:
            value = self._single_value(node, tag, merge_input)
            outputs = [value, torch.tensor(merge_input, dtype=torch.int32)]
        elif kind == _SWITCH:
            outputs = self._switch(node, tag)
        else:
            outputs = self._run_kernel(node, tag, n_out)
        self._store(node, tag, outputs)
        self._send(node, tag, outputs)

    def _single_value(self, node: _Node, tag: Tag, position: int = 0) -> Any:
        """The value of data input `position` (None for a ref input: the store key is
        the plan's business)."""
        src = node.positional[position]
        return None if src is None else self._value(src, tag)

    def _switch(self, node: _Node, tag: Tag) -> List[Any]:
        sources = node.positional
        data = None if sources[0] is None else self._value(sources[0], tag)
        pred = self._value(sources[1], tag)
        taken = bool(pred)
        return [_DEAD, data] if taken else [data, _DEAD]

    def _run_kernel(self, node: _Node, tag: Tag, n_out: int) -> List[Any]:
        step = node.step
        if step.kernel is None:
            return [None] * n_out
        args = [self._value(a, tag) for a in node.value_args]
        try:
            result = step.kernel(*args)
        except Exception as e:
            e._tf1compat_op = step.op   # for the session's error mapping
            raise
        if n_out == 1:
            return [result]
        if n_out == 0:
            return []
        return list(result)

    def _enter(self, node: _Node, tag: Tag, dead: bool) -> None:
        frame = self._frame(tag, node.frame_name)
        frame.enters_seen += 1
        value = _DEAD if dead else self._single_value(node, tag)
        if node.is_constant:
            frame.constants.append((node, value))
            for i in list(frame.iterations):
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
        self._put(node, frame.parent, self._single_value(node, tag))

    def _flush_dead_exits(self) -> bool:
        """Sends the dead exits of finished frame instances on; whether any were sent."""
        sent = False
        program = self.program
        for frame in list(self.frames.values()):
            if not frame.dead_exits:
                continue
            if frame.enters_seen < program.enters_per_frame.get(frame.name, 0):
                continue
            exits, frame.dead_exits = list(frame.dead_exits), {}
            for node in exits:
                if node not in frame.live_exits:
                    self._send(node, frame.parent, [_DEAD], True)
                    sent = True
        return sent
