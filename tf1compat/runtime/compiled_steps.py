"""Training steps compiled in pieces: forward (and gradient) compiled, the rest op by op.

A plan that computes gradients (`tf.gradients`, every `optimizer.minimize` step) runs
the forward ops, then the gradient op (`SymbolicGradient`: `torch.autograd.grad` on the
forward values, autodiff/gradients.py), then whatever follows (the optimizer's updates,
batched into foreach calls by runtime/kernel_batches.py). torch.compile cannot trace
through `torch.autograd.grad`, and the updates write the session's store under locks,
so the plan is cut in three pieces (`split`):

* the **forward segment**: the plan's steps before its first gradient op, generated as
  one function of the feeds, the variables it reads and the resource-variable reads,
  returning the values still needed after it. It is what hot_plans.py hands to
  torch.compile: with autograd sources among its inputs, AOTAutograd compiles its
  backward too, so the gradient op's `torch.autograd.grad` runs compiled kernels;
* the gradient op and every step after it (the **tail**), generated from the same steps
  as the op-by-op plan, run op by op as before;
* the run's autograd sources (variables' leaves, fed values differentiated) are made
  before the forward segment, exactly as the op-by-op plan makes them.

Where the gradient op is the plan's only one and a plain `torch.autograd.grad` (no
library function, Jacobian, second-order graph, custom-gradient captures or resource
handles), it joins the forward segment (`_merged`, the usual case: every
`optimizer.minimize` step on ref variables): the differentiated variables are inputs of
the segment, made autograd leaves inside it, and Dynamo traces the gradient op
(`trace_autograd_ops`), so the loss and the gradients come from one compiled graph with
no AOTAutograd wrapper or autograd-engine run per step; the segment returns values
without a graph, and the tail is the optimizer's updates. Should that graph fail to
compile or to check, the forward segment alone is compiled as above
(hot_plans.py; the record's reason says why).

The optimizer's updates join the merged segment too where they can (`_joined`: every
step after the gradient op pure, or a dense update of a ref variable, an Assign or an
AssignAdd/Sub, none reading a variable an earlier one wrote): the graph then returns
the new values of the variables and slots as well, inductor fusing each update into one
pass over memory (RMSProp's nine foreach passes, Adam's fused kernel), and the step
stores them under the variables' locks, with no Python per variable left in the step.
Should that graph fail to compile or to check, the merged segment without the updates
is compiled instead, the updates then run op by op (batched); TF1COMPAT_COMPILE_UPDATES=0
keeps them out of the graph.

Input ops (a tf.data iterator's `IteratorGetNext` and the iterator op it reads, a
queue's dequeue and the queue op: `_INPUT_OPS`), and reads whose values no gradient
flows through (`IsVariableInitialized`, the `initialized_value()` read that Estimator
puts before every model op: `reads_only` ops without a gradient) are stateful but need
not run at any particular point of the step: they run first, op by op, once per step
(`StepPieces.head_plan`), and the forward segment takes their values as feeds. Should
the compiled segment then fail (another batch shape, an error), the step goes on op by
op with those values (`run_op_by_op`): the iterator has moved on, and running the whole
plan again would skip a batch.

Checks (`tf.Assert`, and the If of its AssertGuard: ops declared `only_checks`, whose
outputs nothing reads) raise or do nothing: they run op by op after the forward segment
(`StepPieces.check_plan`, on values the segment returns) and before anything is written,
so a failing check leaves the variables as they were. The step then runs op by op
(`ForwardFailed`), which raises the check's error as TF's does, at its place in the plan.

The forward segment must be pure. Variable assignments before the gradient op that
nothing up to it needs (batch norm's moving averages, Adam's sparse slot scaling) and
ops whose output shapes depend on values (`Unique` of an embedding's indices) or that
a graph cannot hold (summaries) run right after the gradient op instead (`_deferred`).
Any other stateful op before the gradient op (a random op, whose stream must stay TF's;
an assignment a forward op reads) keeps the plan op by op with that op named as the
reason. A value differentiated where it is computed (an embedding lookup's output: the
variable's gradient is IndexedSlices of it) is made an autograd source inside the merged
graph; a step whose gradient op cannot join the graph then stays op by op. The segment's
results and their gradients (a merged segment's results include them) are checked
against the op-by-op segment on copies of the variables before the compiled segment is
used (`check`).

A plan that differentiates fed values only, with pure ops throughout (`tf.gradients` of
a computation, no store writes: `compiles_whole`), is not cut: hot_plans.py compiles it
whole with Dynamo tracing `torch.autograd.grad`.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import torch

from tf1compat.framework import dtypes as D
from tf1compat.runtime.codegen import compile_plan, make_grad_source
from tf1compat.runtime.plan import CONST, SLOT, STATE, Plan, Source, Step
from tf1compat.runtime.session_state import VariableStore

__all__ = ["ForwardFailed", "StepPieces", "split", "check", "first_gradient",
           "compiles_whole"]


class ForwardFailed(Exception):
    """The forward segment raised (its error is the cause); the run changed nothing but
    what its input ops did: `inputs` is None, or, when the plan has input ops (an
    iterator that moved on), the step's feeds with their values, which the step must go
    on with (`StepPieces.run_op_by_op`)."""

    def __init__(self, message: str, inputs: Optional[List[Any]] = None):
        super().__init__(message)
        self.inputs = inputs


# Input ops: stateful, but what they do does not depend on when in the step they run, so
# the step runs them first, op by op, and the forward segment takes their values as
# feeds (`split`): a tf.data iterator's next batch.
_INPUT_OPS = frozenset({"OneShotIterator", "IteratorV2", "IteratorGetNext",
                        "FIFOQueueV2", "PaddingFIFOQueueV2", "RandomShuffleQueueV2",
                        "PriorityQueueV2", "QueueDequeueV2", "QueueDequeueManyV2",
                        "QueueDequeueUpToV2"})


def _runs_first(step: Step, head_slots: Dict[int, None]) -> bool:
    """Whether a step before the gradient op joins the head (see the module docstring):
    an input op, or a read no gradient flows through, of constants and head values."""
    od = step.op._op_def
    if step.kernel is None or not (step.op.type in _INPUT_OPS or (
            od.reads_only and od.grad == "none")):
        return False
    return all(a.kind == CONST or (a.kind == SLOT and a.ref in head_slots)
               for a in step.args)


def _checks(steps: Sequence[Step], plan: Plan) -> List[Step]:
    """The checks among `steps`: ops declared `only_checks`, and pure ops of their
    outputs alone (a traced cond's output Identity), where no other step of the plan and
    no fetch reads their outputs; none if one does."""
    checks: List[Step] = []
    outs: set = set()
    for step in steps:
        if step.kernel is None:
            continue
        od = step.op._op_def
        follows = not od.stateful and any(a.kind == SLOT for a in step.args) and all(
            a.kind == CONST or (a.kind == SLOT and a.ref in outs) for a in step.args)
        if follows or (od.only_checks is not None and od.only_checks(step.op)):
            checks.append(step)
            outs.update(s for s in step.outs if s is not None)
    checked = {id(step) for step in checks}
    if any(a.kind == SLOT and a.ref in outs for step in plan.steps
           if id(step) not in checked for a in step.args) or \
            any(f.kind == SLOT and f.ref in outs for f in plan.fetches):
        return []
    return checks


@dataclass
class StepPieces:
    """A gradient plan cut for compiling (see the module docstring). The pieces' code is
    generated by `generate()`, when the plan is about to be compiled."""
    plan: Plan
    forward_plan: Plan       # (feeds + reads, variables) -> values live after it
    tail_plan: Plan          # (those values, the run's store view) -> the plan's fetches
    marked_feeds: List[int]               # feed positions made autograd sources
    reads: List[Tuple[Callable[..., Any], str]]   # resource reads: (kernel, variable key)
    state_keys: List[str]                 # variables the forward segment reads directly
    forward_kernels: int
    # Merged (see `_merged`): the gradient op ends the forward segment, which takes the
    # differentiated variables' stored values as inputs (after the feeds and reads).
    merged: bool = False
    source_keys: List[str] = dataclasses.field(default_factory=list)
    # Input ops (`_INPUT_OPS`) run before the forward segment: (feeds, store view) -> their
    # values, which the forward segment takes after the feeds. None: the plan has none.
    head_plan: Optional[Plan] = None
    # The positions among the head's values of its reads (`_runs_first`): values the
    # store holds, which the forward segment gets as new tensor objects (`step_inputs`).
    head_reads: List[int] = dataclasses.field(default_factory=list)
    # Joined (see `_joined`): variables the forward segment computes new values of (its
    # last results, in this order), the store they are written to, and their locks.
    writes: List[str] = dataclasses.field(default_factory=list)
    store: Any = None
    write_locks: List[Any] = dataclasses.field(default_factory=list)
    # Checks (`_checks`) run after the forward segment, before any write: their steps
    # (a plan of the values they read, which the forward segment returns), or None.
    check_plan: Optional[Plan] = None
    # With checks and input ops: the plan's steps after its input ops, in the plan's
    # order ((feeds + the input ops' values, store view) -> fetches), which runs a step
    # op by op once its input ops ran, each check at its place (`run_op_by_op`).
    rest_plan: Optional[Plan] = None

    def _generate(self, plan: Plan, name: str) -> None:
        compile_plan(plan, name, detach_fetches=self.merged)

    def specialised_forward(self, feeds: Sequence[Any], variables: Dict[str, Any]
                            ) -> Plan:
        """The forward segment for these feeds' shapes, generated: values computed from
        shapes alone (`tf.shape(x)`, slices and concatenations of it: the dynamic-shape
        arithmetic of losses and layers) are computed once here and become constants,
        since torch.compile would stop its graph at every tensor read back as Python ints
        (a reshape's target). Small integer ones are baked in as Python lists, which the
        kernels read as shapes (ops/_kernels.py `as_int_list`). The compiled function is
        used only for feeds of these shapes and variables of the shapes traced."""
        # The probe computes values from shapes alone: the gradient op (merged) and what
        # follows it (joined updates) are not run.
        g = first_gradient(self.forward_plan)
        static = _static_slots(self.forward_plan.steps[:g])
        if not static:
            return self.forward_plan
        probe = Plan(steps=self.forward_plan.steps[:g],
                     feed_slots=self.forward_plan.feed_slots,
                     fetches=[Source(SLOT, s) for s in static],
                     fetch_copies=[False] * len(static), needs_grad=False, state_marks=[],
                     slot_tensors=self.plan.slot_tensors)
        frees = {slot for step in probe.steps for slot in step.frees}
        if frees & set(static):
            # Fetched by the probe, so never freed in it.
            probe.steps = [dataclasses.replace(step, frees=[f for f in step.frees
                                                            if f not in static])
                           for step in probe.steps]
        values, state, _ = _snapshot_inputs(self, feeds, variables)
        with torch.no_grad():
            got = compile_plan(probe, "probe")(values, state)
        known = {slot: Source(CONST, _baked(value)) for slot, value in zip(static, got)}
        tensors = {slot: Source(CONST, value) for slot, value in zip(static, got)}
        steps = []
        for step in self.forward_plan.steps:
            kept_frees = [f for f in step.frees if f not in known]
            if step.outs and all(s is None or s in known for s in step.outs) and \
                    any(s is not None for s in step.outs):
                if kept_frees:
                    steps.append(dataclasses.replace(step, kernel=None, args=[], outs=[],
                                                     frees=kept_frees))
                continue
            args = [known.get(a.ref, a) if a.kind == SLOT else a for a in step.args]
            steps.append(dataclasses.replace(step, args=args, frees=kept_frees))
        fetches = [tensors.get(f.ref, f) if f.kind == SLOT else f
                   for f in self.forward_plan.fetches]
        special = Plan(steps=steps, feed_slots=self.forward_plan.feed_slots, fetches=fetches,
                       fetch_copies=self.forward_plan.fetch_copies, needs_grad=False,
                       state_marks=[], slot_tensors=self.plan.slot_tensors)
        self._generate(special, "forward")
        return special

    def generate(self) -> None:
        """Generates the forward segment's and the tail's functions (runtime/codegen.py)."""
        if self.forward_plan.fn is None:
            self._generate(self.forward_plan, "forward")
            compile_plan(self.tail_plan, "tail", release_feeds=True)
            if self.head_plan is not None:
                compile_plan(self.head_plan, "head")
            if self.check_plan is not None:
                compile_plan(self.check_plan, "checks")
            if self.rest_plan is not None:
                compile_plan(self.rest_plan, "rest")

    def step_inputs(self, feeds: Sequence[Any], view: Any) -> List[Any]:
        """The step's feeds, followed by its input ops' values (the input ops run here)."""
        if self.head_plan is None:
            return list(feeds)
        values = list(self.head_plan.fn(list(feeds), view))
        # A read (`initialized_value()`) gives the stored tensor itself, which the forward
        # segment may also take as a variable: the same object twice among a compiled
        # function's inputs fails Dynamo's guard on duplicate inputs (traced on copies,
        # they were distinct), and the step went back to op by op at its first run.
        for i in self.head_reads:
            if isinstance(values[i], torch.Tensor):
                values[i] = values[i].detach()
        return [*feeds, *values]

    @property
    def forward(self) -> Callable[..., tuple]:
        return self.forward_plan.fn

    def forward_inputs(self, feeds: Sequence[Any], view: Any) -> Tuple[List[Any], Dict]:
        """The forward segment's arguments for one run: feeds (those differentiated made
        autograd sources; the input ops' values after them) and resource reads, then the
        variables it reads."""
        values = list(feeds)
        for i in self.marked_feeds:
            values[i] = make_grad_source(values[i])
        values.extend(kernel(key) for kernel, key in self.reads)
        values.extend(view[key] for key in self.source_keys)
        return values, {key: view[key] for key in self.state_keys}

    def run(self, forward: Callable[..., tuple], feeds: Sequence[Any], view: Any,
            inputs: Optional[List[Any]] = None) -> tuple:
        """One step with `forward` (compiled or not) as its forward segment; `inputs`:
        the step's inputs (`step_inputs`) when its input ops have run already. The
        forward segment changes nothing: an error there leaves the run as it was (the
        leaves made here are undone), so the caller may run the step op by op instead:
        the whole plan where the step has no input ops, else `run_op_by_op` with the
        error's `inputs`."""
        if inputs is None:
            inputs = self.step_inputs(feeds, view)
        marks = [] if self.merged else self.plan.state_marks
        stored = {key: view[key] for key in marks}
        for key in marks:
            view[key] = make_grad_source(stored[key])
        # A joined segment's updates are read-modify-writes of their variables: their
        # locks are held from the reads to the writes, as the Apply* kernels hold them.
        for lock in self.write_locks:
            lock.acquire()
        try:
            try:
                values, state = self.forward_inputs(inputs, view)
                live = list(forward(values, state))
                if self.check_plan is not None:
                    self.check_plan.fn(self._check_values(live), view)
            except Exception as e:
                for key, value in stored.items():
                    view[key] = value
                raise ForwardFailed(f"{type(e).__name__}: {e}",
                                    None if self.head_plan is None else inputs) from e
            if self.writes:
                # The new values replace the stored tensors (which values fetched or read
                # earlier may still hold: they keep theirs, as with any copy-on-write).
                store = self.store
                for key, value in zip(self.writes, live[len(live) - len(self.writes):]):
                    store[key] = value
                del live[len(live) - len(self.writes):]
        finally:
            for lock in reversed(self.write_locks):
                lock.release()
        # Only the tail may hold the forward's values and the variables' leaves from
        # here (it empties `live`): the optimizer's updates then find the variables
        # unshared and update them in place, as op by op.
        del values, state, stored
        out = self.tail_plan.fn(live, view)
        for key in marks:
            if view[key].requires_grad:
                view[key] = view[key].detach()
        return out

    def _check_values(self, live: List[Any]) -> List[Any]:
        """The checks' inputs among the forward segment's results."""
        position = {f.ref: i for i, f in enumerate(self.forward_plan.fetches)
                    if f.kind == SLOT}
        return [live[position[slot]] for slot in self.check_plan.feed_slots]

    def run_op_by_op(self, feeds: Sequence[Any], view: Any, inputs: List[Any]) -> tuple:
        """One step whose input ops have run (`inputs`), the forward segment op by op:
        the same kernels in the same order as the whole plan op by op, and its errors."""
        if self.rest_plan is not None:
            return self.rest_plan.fn(list(inputs), view)
        try:
            return self.run(self.forward_plan.fn, feeds, view, inputs)
        except ForwardFailed as e:
            raise e.__cause__ from None


def first_gradient(plan: Plan) -> Optional[int]:
    """The index of the plan's first gradient op, None when it has none."""
    for number, step in enumerate(plan.steps):
        if step.kernel is not None and step.op._op_def.grad_sources is not None:
            return number
    return None


def compiles_whole(plan: Plan) -> bool:
    """Whether a gradient plan is compiled whole rather than in pieces: no variable is
    differentiated (no store writes), every op is pure and every gradient op a plain
    `torch.autograd.grad` of values (no custom-gradient captures, Jacobian, second-order
    graph or library function, no resource handles to resolve). torch.compile then traces
    the gradient op too (Dynamo's `trace_autograd_ops`): forward, backward and the ops
    after them become one graph, without AOTAutograd's runtime wrappers and the autograd
    engine's run at every step (`tf.gradients` of a 100-op chain: ~3x faster)."""
    if plan.state_marks or first_gradient(plan) is None:
        return False
    for step in plan.steps:
        if step.kernel is None:
            continue
        if step.op._op_def.grad_sources is not None:
            if not _plain_gradient(step):
                return False
        elif _blocker(step) is not None:
            return False
    return True


# Ops whose value depends on their input's shape alone.
_SHAPE_OPS = frozenset({"Shape", "ShapeN", "Size", "Rank"})


def _static_slots(steps: Sequence[Any]) -> List[int]:
    """Slots of values computed from shapes and constants alone, in plan order."""
    static: Dict[int, None] = {}
    for step in steps:
        if step.kernel is None or step.marks or not any(s is not None for s in step.outs):
            continue
        if step.op.type in _SHAPE_OPS or (step.args and all(
                a.kind == CONST or (a.kind == SLOT and a.ref in static) for a in step.args)):
            static.update(dict.fromkeys(s for s in step.outs if s is not None))
    return list(static)


def _baked(value: Any) -> Any:
    """A shape-derived value as the compiled segment gets it: a small integer vector as
    a Python list of ints (read as a shape), anything else as the tensor."""
    if isinstance(value, torch.Tensor) and value.dtype in (torch.int32, torch.int64) and \
            value.dim() == 1 and value.numel() <= 16:
        return [int(v) for v in value.tolist()]
    return value


def _blocker(step: Any) -> Optional[str]:
    """Why `step` may not be in a compiled forward segment (None: it may)."""
    op = step.op
    od = op._op_def
    for t in op._outputs:
        if t._dtype.base_dtype in (D.string, D.variant):
            return f"op {op.name} ({op.type}) makes {t._dtype.name} values"
    if od.stateful:
        if od.ref_input_indices or any(t._dtype.base_dtype == D.resource for t in op._inputs):
            return (f"op {op.name} ({op.type}) updates variables before the gradient is "
                    f"taken")
        if "Random" in op.type or "Dropout" in op.type:
            return (f"op {op.name} ({op.type}) draws random numbers (TF's stream is kept "
                    f"op by op)")
        return f"op {op.name} ({op.type}) has side effects"
    if od.cpu_only:
        return f"op {op.name} ({op.type}) runs on the CPU only"
    return None


def _plain_gradient(step: Any) -> bool:
    """Whether a gradient op is a plain `torch.autograd.grad` of values Dynamo can trace:
    no library function, Jacobian, second-order graph, custom-gradient captures or
    resource handles to resolve."""
    attrs = step.op.attrs
    return not (attrs.get("f") is not None or attrs.get("jacobian") or
                attrs.get("create_graph") or attrs.get("Tc") or
                any(t._dtype.base_dtype == D.resource for t in step.op._inputs))


# Ops whose outputs' shapes depend on their inputs' values: a compiled graph breaks at
# each (Dynamo cannot trace them), so they run after the gradient op where nothing
# before it needs them (`_deferred`).
_DATA_SHAPED = frozenset({"Unique", "UniqueV2", "UniqueWithCounts", "UniqueWithCountsV2",
                          "Where", "ListDiff"})


def _deferred(plan: Plan, g: int) -> Tuple[Plan, int]:
    """`plan` with the steps before its gradient op (step `g`) that nothing up to the
    gradient op needs moved to right after it (in their order), and the gradient op's
    new index. Moved: variable assignments, ops of `_DATA_SHAPED`, pure ops a compiled
    graph cannot hold (summaries: strings, CPU-only kernels) and the ops of their
    values. Adam's sparse update scales its slots (`Assign(m, m * beta1)`) and finds the
    unique indices of an embedding's gradient without waiting for the gradient, and a
    fetched summary of the logits needs only them, so the plan's order may put that
    work among the forward ops, where it stops the compiled graph (an update, a
    data-dependent shape, a string). Running it after the gradient op gives
    the same values: a moved assignment writes a variable no step left up to the
    gradient op reads, and nothing there writes what a moved step reads (TF's executor
    too may run them in either order)."""
    steps = plan.steps
    moved: Dict[int, None] = {}
    made: Dict[int, int] = {}       # slot -> the candidate step that makes it
    for i, step in enumerate(steps[:g]):
        keys = getattr(step.kernel, "bound_keys", None)
        assigns = bool(keys) and bool(step.op._op_def.ref_input_indices)
        if step.kernel is None or step.marks or not (
                assigns or step.op.type in _DATA_SHAPED or _blocker(step) is not None or
                any(a.kind == SLOT and a.ref in made for a in step.args)):
            continue
        if not assigns and step.op._op_def.stateful:
            continue
        moved[i] = None
        made.update((s, i) for s in step.outs if s is not None)
    changed = True
    while changed:                  # a step something left before the gradient needs stays
        changed = False
        for i in list(moved):
            step = steps[i]
            outs = {s for s in step.outs if s is not None}
            keys = getattr(step.kernel, "bound_keys", None) or ()
            if any((a.kind == STATE and a.ref in keys) or (a.kind == SLOT and a.ref in outs)
                   for j in range(i + 1, g + 1) if j not in moved for a in steps[j].args) or \
                    any(step.op in steps[j].op.control_inputs
                        for j in range(i + 1, g + 1) if j not in moved):
                del moved[i]
                changed = True
    if not moved:
        return plan, g
    # A value a moved step reads, freed by a step that now runs before it, is freed
    # by the last moved step that reads it instead.
    reads: Dict[int, int] = {}
    for i in moved:
        reads.update((a.ref, i) for a in steps[i].args if a.kind == SLOT)
    frees: Dict[int, List[int]] = {i: list(step.frees) for i, step in enumerate(steps)}
    for i in range(g + 1):
        for slot in list(frees[i]):
            if i not in moved and slot in reads:
                frees[i].remove(slot)
                frees[reads[slot]].append(slot)
    new = [dataclasses.replace(step, frees=frees[i]) if frees[i] != step.frees else step
           for i, step in enumerate(steps)]
    order = [st for i, st in enumerate(new[:g]) if i not in moved]
    order += [new[g], *(new[i] for i in sorted(moved)), *new[g + 1:]]
    return dataclasses.replace(plan, steps=order, fn=None, source="", line_to_op={},
                               hot=None), g - len(moved)


def split(plan: Plan, merge: bool = True, join: Optional[bool] = None
          ) -> Union[StepPieces, str]:
    """`plan` (with a gradient op) cut in pieces, or why it cannot be. `merge`: the
    gradient op joins the forward segment where it can (`_merged`); `join`: so do the
    optimizer's updates after it (`_joined`; None: unless TF1COMPAT_COMPILE_UPDATES=0)."""
    g = first_gradient(plan)
    if g is None:
        return "no gradient op"
    plan, g = _deferred(plan, g)
    feed_position = {slot: i for i, slot in enumerate(plan.feed_slots)}
    forward_steps = []
    reads: List[Tuple[Callable[..., Any], str]] = []
    read_slots: List[int] = []
    head_steps: List[Step] = []
    head_slots: Dict[int, None] = {}
    marked_feeds: List[int] = []
    state_keys: Dict[str, None] = {}
    live: Dict[int, None] = dict.fromkeys(plan.feed_slots)
    check_steps = _checks(plan.steps[:g], plan)
    # The checks' inputs from the forward segment stay alive to its end: it returns them.
    check_outs = {s for step in check_steps for s in step.outs if s is not None}
    check_slots = dict.fromkeys(a.ref for step in check_steps for a in step.args
                                if a.kind == SLOT and a.ref not in check_outs)
    checked = {id(step.op) for step in check_steps}
    # A value differentiated where it is computed (an embedding lookup's output, whose
    # gradient becomes the variable's IndexedSlices) can be a source only inside the
    # graph that also traces the gradient op (`_merged`): the first such value.
    inner_mark = None
    kernels = 0
    for step in plan.steps[:g]:
        if id(step.op) in checked:
            continue
        for slot in step.marks:
            if slot not in feed_position:
                inner_mark = inner_mark or plan.slot_tensors.get(slot, "a value")
            else:
                marked_feeds.append(feed_position[slot])
        frees = [slot for slot in step.frees if slot not in check_slots]
        if _runs_first(step, head_slots):
            head_steps.append(step)
            head_slots.update(dict.fromkeys(s for s in step.outs if s is not None))
            for slot in frees:
                head_slots.pop(slot, None)
        elif step.kernel is not None and step.op.type == "ReadVariableOp" and \
                len(step.args) == 1 and step.args[0].kind == CONST and \
                isinstance(step.args[0].ref, str) and step.outs[0] is not None:
            reads.append((step.kernel, step.args[0].ref))
            read_slots.append(step.outs[0])
        elif step.kernel is not None:
            reason = _blocker(step)
            if reason is not None:
                return reason
            kernels += 1
            for src in step.args:
                if src.kind == STATE:
                    state_keys[src.ref] = None
            forward_steps.append(dataclasses.replace(step, marks=[], frees=frees))
        elif frees:
            forward_steps.append(dataclasses.replace(step, marks=[], frees=frees))
        live.update(dict.fromkeys(s for s in step.outs if s is not None))
        for slot in frees:
            live.pop(slot, None)
    if kernels == 0:
        return "nothing to compile before the gradient op"
    live_slots = list(live)
    head_outs = list(head_slots)
    read_outs = {s for step in head_steps if step.op.type not in _INPUT_OPS
                 for s in step.outs if s is not None}
    head = None if not head_steps else Plan(
        steps=head_steps, feed_slots=plan.feed_slots,
        fetches=[Source(SLOT, s) for s in head_outs], fetch_copies=[False] * len(head_outs),
        needs_grad=False, state_marks=[], slot_tensors=plan.slot_tensors)
    forward = Plan(steps=forward_steps, feed_slots=plan.feed_slots + head_outs + read_slots,
                   fetches=[Source(SLOT, s) for s in live_slots],
                   fetch_copies=[False] * len(live_slots), needs_grad=False,
                   state_marks=[], slot_tensors=plan.slot_tensors)
    tail = Plan(steps=plan.steps[g:], feed_slots=live_slots, fetches=plan.fetches,
                fetch_copies=plan.fetch_copies, needs_grad=True, state_marks=[],
                slot_tensors=plan.slot_tensors)
    checks = None if not check_steps else Plan(
        steps=check_steps, feed_slots=list(check_slots), fetches=[], fetch_copies=[],
        needs_grad=False, state_marks=[], slot_tensors=plan.slot_tensors)
    rest = None
    if head is not None and checks is not None:
        heads = {id(step) for step in head_steps}
        rest = dataclasses.replace(plan, steps=[st for st in plan.steps if id(st) not in heads],
                                   feed_slots=plan.feed_slots + head_outs, fn=None, source="",
                                   line_to_op={}, hot=None)
    pieces = StepPieces(plan, forward, tail, marked_feeds, reads, list(state_keys), kernels,
                        head_plan=head, check_plan=checks, rest_plan=rest,
                        head_reads=[i for i, s in enumerate(head_outs) if s in read_outs])
    if merge and _plain_gradient(plan.steps[g]) and first_gradient(
            Plan(steps=plan.steps[g + 1:], feed_slots=[], fetches=[], fetch_copies=[],
                 needs_grad=False, state_marks=[])) is None:
        merged = _merged(pieces, g)
        if join is None:
            join = os.environ.get("TF1COMPAT_COMPILE_UPDATES", "1").strip() not in ("0", "off")
        return _joined(merged) if join else merged
    if inner_mark is not None:
        return (f"gradient with respect to {inner_mark}, computed in the forward segment "
                f"(the gradient op cannot join the compiled graph)")
    return pieces


def _merged(pieces: StepPieces, g: int) -> StepPieces:
    """`pieces` with the gradient op (plan step `g`, the plan's only one, a plain one)
    moved into the forward segment: one compiled graph then computes the forward values
    and the gradients (Dynamo traces `torch.autograd.grad`, `trace_autograd_ops`), with
    no AOTAutograd wrapper or autograd-engine run left at each step. The differentiated
    variables come in as plain values (the stored tensors) and become autograd leaves
    inside the graph; what the segment returns carries no graph, so nothing holds the
    variables when the optimizer's updates (the tail, op by op) write them in place."""
    plan = pieces.plan
    keys = list(plan.state_marks)
    top = max([*plan.feed_slots, *(s for st in plan.steps for s in st.outs if s is not None),
               *plan.slot_tensors, -1])
    var_slot = {key: top + 1 + i for i, key in enumerate(keys)}
    names = {**plan.slot_tensors, **{slot: f"{key}:0" for key, slot in var_slot.items()}}

    def as_slot(src: Source) -> Source:
        if src.kind == STATE and src.ref in var_slot:
            return dataclasses.replace(src, kind=SLOT, ref=var_slot[src.ref])
        return src

    gradient = plan.steps[g]
    steps = [Step(op=gradient.op, kernel=None, args=[], outs=[],
                  marks=list(var_slot.values()))]
    live: Dict[int, None] = dict.fromkeys(plan.feed_slots)
    checks = [] if pieces.check_plan is None else pieces.check_plan.steps
    checked = {id(step.op) for step in checks}
    check_slots = set(pieces.check_plan.feed_slots) if checks else set()
    for step in plan.steps[:g + 1]:
        if id(step.op) in checked:
            continue                      # a check: run after the segment
        frees = [slot for slot in step.frees if slot not in check_slots]
        live.update(dict.fromkeys(s for s in step.outs if s is not None))
        for slot in frees:
            live.pop(slot, None)
        if pieces.head_plan is not None and any(step is h for h in pieces.head_plan.steps):
            continue                      # an input op: run before the segment
        if step.kernel is not None and step.op.type == "ReadVariableOp" and \
                step.outs and step.outs[0] in pieces.forward_plan.feed_slots:
            continue                      # a resource read: an input of the segment
        # Fed and computed values differentiated become autograd sources in the graph.
        steps.append(dataclasses.replace(step, args=[as_slot(a) for a in step.args],
                                         frees=frees))
    live_slots = list(live)
    read_slots = pieces.forward_plan.feed_slots[len(plan.feed_slots):]  # input ops' too
    forward = Plan(steps=steps, feed_slots=[*plan.feed_slots, *read_slots,
                                            *var_slot.values()],
                   fetches=[Source(SLOT, s) for s in live_slots],
                   fetch_copies=[False] * len(live_slots), needs_grad=True,
                   state_marks=[], slot_tensors=names)
    tail = Plan(steps=plan.steps[g + 1:], feed_slots=live_slots, fetches=plan.fetches,
                fetch_copies=plan.fetch_copies, needs_grad=False, state_marks=[],
                slot_tensors=plan.slot_tensors)
    state_keys = [k for k in pieces.state_keys if k not in var_slot]
    return StepPieces(plan, forward, tail, [], pieces.reads, state_keys,
                      pieces.forward_kernels + 1, merged=True, source_keys=keys,
                      head_plan=pieces.head_plan, head_reads=pieces.head_reads,
                      check_plan=pieces.check_plan,
                      rest_plan=pieces.rest_plan)


def _joined(pieces: StepPieces) -> StepPieces:
    """Merged `pieces` with the steps after the gradient op moved into the forward
    segment as well, where every one is pure or a ref-variable update that has a pure
    form (dense Apply* updates and Assign: the kernel's `in_graph`): one compiled graph
    then computes the loss, the gradients and the new values of the variables and
    optimizer slots (inductor fuses each update into one pass over memory), and the
    step stores those values (`StepPieces.run`) instead of running the updates op by
    op. The new values are results of the segment, so the check before the compiled
    segment is used compares them with the op-by-op segment's on copies.

    Updates read the values the variables had when the step began: `pieces` is kept
    as it is where a step reads a variable an earlier step of the tail writes, writes
    one twice, or is anything else (resource or sparse updates, side effects)."""
    forward = pieces.forward_plan
    keys = pieces.source_keys
    var_slot = dict(zip(keys, forward.feed_slots[len(forward.feed_slots) - len(keys):]))
    top = max([*forward.feed_slots, *pieces.plan.slot_tensors, -1,
               *(s for st in pieces.plan.steps for s in st.outs if s is not None)])
    names = dict(forward.slot_tensors)

    def as_slot(src: Source) -> Source:
        if src.kind == STATE and src.ref in var_slot:
            return dataclasses.replace(src, kind=SLOT, ref=var_slot[src.ref])
        return src

    steps: List[Step] = []
    writes: Dict[str, int] = {}
    stores = set()
    state_keys = dict.fromkeys(pieces.state_keys)
    # The checks' inputs are results of the joined segment: no update frees them.
    check_slots = () if pieces.check_plan is None else pieces.check_plan.feed_slots
    for step in pieces.tail_plan.steps:
        frees = [slot for slot in step.frees if slot not in check_slots]
        if step.kernel is None:
            steps.append(dataclasses.replace(step, frees=frees))
            continue
        reads = [a.ref for a in step.args if a.kind == STATE]
        in_graph = getattr(step.kernel, "in_graph", None)
        if in_graph is None:
            if _blocker(step) is not None or step.op._op_def.grad_sources is not None:
                return pieces
            args = [as_slot(a) for a in step.args]
            outs = list(step.outs)
        else:
            if any(s is not None for s in step.outs) or step.marks:
                return pieces
            written = list(step.kernel.bound_keys)
            reads += written
            stores.add(id(step.kernel.store))
            args = [as_slot(Source(STATE, key)) for key in written] + \
                [as_slot(a) for a in step.args]
            outs = list(range(top + 1, top + 1 + len(written)))
            top += len(written)
        if any(key in writes for key in reads):
            return pieces
        if in_graph is not None:
            writes.update(zip(written, outs))
            names.update({slot: f"{key}:0" for key, slot in zip(written, outs)})
            store = step.kernel.store
        state_keys.update(dict.fromkeys(a.ref for a in args if a.kind == STATE))
        steps.append(Step(op=step.op, kernel=in_graph or step.kernel, args=args, outs=outs,
                          frees=frees))
    if not writes or len(stores) != 1 or not isinstance(store, VariableStore):
        return pieces
    fetched = list(dict.fromkeys([*(f.ref for f in pieces.plan.fetches if f.kind == SLOT),
                                  *check_slots]))
    joined = Plan(steps=forward.steps + steps, feed_slots=forward.feed_slots,
                  fetches=[Source(SLOT, s) for s in [*fetched, *writes.values()]],
                  fetch_copies=[False] * (len(fetched) + len(writes)), needs_grad=True,
                  state_marks=[], slot_tensors=names)
    tail = Plan(steps=[], feed_slots=fetched, fetches=pieces.plan.fetches,
                fetch_copies=pieces.plan.fetch_copies, needs_grad=False, state_marks=[],
                slot_tensors=pieces.plan.slot_tensors)
    return dataclasses.replace(
        pieces, forward_plan=joined, tail_plan=tail, state_keys=list(state_keys),
        forward_kernels=pieces.forward_kernels + len(steps), writes=list(writes),
        store=store, write_locks=[store.lock(key) for key in sorted(writes)])


def _snapshot_inputs(pieces: StepPieces, feeds: Sequence[Any], variables: Dict[str, Any]
                     ) -> Tuple[List[Any], Dict[str, Any], List[Any]]:
    """Fresh forward-segment inputs from copies: (values, variables, autograd sources).
    A merged segment makes its autograd sources itself: none are returned."""
    if pieces.merged:
        values = [f.detach() if isinstance(f, torch.Tensor) else f for f in feeds]
        values.extend(variables[key] for _, key in pieces.reads)
        values.extend(variables[key] for key in pieces.source_keys)
        return values, {key: variables[key] for key in pieces.state_keys}, []
    leaves = {key: make_grad_source(variables[key]) for key in pieces.plan.state_marks}
    view = {**variables, **leaves}
    values = [f.detach() if isinstance(f, torch.Tensor) else f for f in feeds]
    sources = list(leaves.values())
    for i in pieces.marked_feeds:
        values[i] = make_grad_source(values[i])
        sources.append(values[i])
    values.extend(view[key] for _, key in pieces.reads)
    return values, {key: view[key] for key in pieces.state_keys}, sources


def _gradients(outs: Sequence[Any], sources: Sequence[Any]) -> List[Any]:
    """d(sum of outs * fixed pseudo-random weights)/d sources, None where unreached."""
    generator = torch.Generator().manual_seed(1)
    ys, dys = [], []
    for out in outs:
        if isinstance(out, torch.Tensor) and out.requires_grad and out.is_floating_point():
            ys.append(out)
            dys.append(torch.rand(out.shape, generator=generator,
                                  dtype=torch.float64).to(out.dtype).to(out.device))
    if not ys or not sources:
        return []
    return list(torch.autograd.grad(ys, list(sources), dys, allow_unused=True))


def check(pieces: StepPieces, compiled: Callable[..., tuple], feeds: Sequence[Any],
          variables: Dict[str, Any], same: Callable[[Any, Any], bool]) -> Optional[str]:
    """Runs the forward segment op by op and compiled on the same copies of the inputs;
    None when the values and their gradients agree, else how they differ."""
    results = []
    for forward in (pieces.forward, compiled):
        values, state, sources = _snapshot_inputs(pieces, feeds, variables)
        with torch.enable_grad():
            outs = forward(values, state)
            results.append((outs, _gradients(outs, sources)))
    (want, want_grads), (got, got_grads) = results
    if len(want) != len(got) or not all(same(a, b) for a, b in zip(want, got)):
        return "compiled forward values differ from the op-by-op values"
    if len(want_grads) != len(got_grads) or not all(
            (a is None and b is None) or (a is not None and b is not None and same(a, b))
            for a, b in zip(want_grads, got_grads)):
        return "compiled gradients differ from the op-by-op gradients"
    return None
