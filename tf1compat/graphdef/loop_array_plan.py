"""The TensorArray side of a while loop's backward-loop plan (loop_gradient_plan.py): the
arrays a loop writes (once or more per iteration, read after it by stack(), gather(),
read(k), concat()), the elements written into them just before it, and the arrays its
body reads (unstacked or split before it, or its own: elements earlier iterations or
this one wrote)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Set, Tuple

from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.graphdef.cond_lowering import inner_element
from tf1compat.ops._regions import LoopRegion

if TYPE_CHECKING:
    from tf1compat.graphdef.loop_gradient_plan import LoopPlan

__all__ = ["PushedRead", "is_range", "is_flow", "outside", "plan_write", "plan_read",
           "plan_entering", "entering_cond_writes", "unstacked_source", "unstacked_in",
           "same_iteration_write", "array_variables", "body_writes", "cond_write",
           "stack_after", "writes_before", "written_at_counter"]


class PushedRead:
    """The body function's input for the pushed value of a TensorArray read after this
    iteration's writes (the read op itself is computed in the function), standing for
    a tensor where the function writer names and types its inputs."""

    def __init__(self, read: Operation, writes: List[Operation]):
        self.read = read
        self.writes = writes        # this iteration's writes before the read, in order
        self.op = _Named(read.name + "/pushed")
        self.dtype = read.outputs[0].dtype
        self.shape = read.outputs[0].shape


class _Named:
    def __init__(self, name: str):
        self.name = name


def is_range(t: Tensor) -> bool:
    """Whether `t` is `tf.range(n)` (indices 0, 1, ...: TensorArray.unstack/stack)."""
    op = t.op
    if op.type != "Range":
        return False
    start, delta = constant_value(op.inputs[0]), constant_value(op.inputs[2])
    return start is not None and delta is not None and int(start) == 0 and int(delta) == 1


def is_flow(t: Tensor) -> bool:
    """Whether loop input `t` is a TensorArray's flow (not an element read from one:
    `tf.foldl`'s first accumulator, `elems.read(0)`)."""
    return t.op.type.startswith("TensorArray") and t.op.type not in _AFTER_LOOP_READS


def outside(t: Tensor) -> Tensor:
    """`t` past the Identity ops (a loop's Exit) in front of it, outside loop bodies (in
    one, only a nested loop's Exit)."""
    while t.op.type == "Identity" and (not isinstance(t.op._control_flow_context, LoopRegion)
                                       or t.op.inputs[0].op.type == "While"):
        t = t.op.inputs[0]
    return t


def plan_entering(plan: LoopPlan) -> Optional[str]:
    """Fills `plan.entering` with the writes of elements into the arrays the loop writes
    before it, in its context (`ta.write(0, x).write(1, y)`, then the loop; `tf.scan`'s
    first element, read from its unstacked input), or says why an array read after the
    loop enters it with elements whose gradients this cannot hand on (passed through a
    tf.cond, read from another array)."""
    op, info = plan.op, plan.info
    for k in array_variables(plan):
        writes, flow, why = [], outside(op.inputs[k]), ""
        while flow.op._control_flow_context is op._control_flow_context:
            if flow.op.type == "TensorArrayWriteV3":
                writes.append(flow.op)
                flow = outside(flow.op.inputs[3])
                continue
            paired = None if op._control_flow_context is not None else \
                entering_cond_writes(flow)
            if not paired:
                if paired is not None and _apart_by_nested_predicate(flow):
                    why = (" (written at different indices by a tf.cond whose predicate is "
                           "computed in a branch of a tf.cond inside another's branch: the "
                           "gradient's Select of the rows would read it outside, where only "
                           "a top-level tf.cond's branch values pass a Merge)")
                break
            writes.extend(paired)
            plan.entering_conds.update((w, flow) for w in paired)
            flow = outside(paired[0].inputs[3])
        readers = next((plan.writes[w] for w in body_writes(info, k) if w in plan.writes), [])
        if flow.op.type != "TensorArrayV3" and readers:
            return (f"loop {op.name} writes a TensorArray that enters it with elements "
                    "passed through a tf.cond" + why)
        for write in (w for w in writes if w.inputs[2].dtype.base_dtype.is_floating):
            plan.entering[write] = (k, readers)
    # (an element, or initial value, read from an array before the loop: a stateful
    # read, where forward functions stop; its gradient goes to the unstacked value)
    for t in [w.inputs[2] for w in plan.entering] + [op.inputs[k] for k in plan.floats]:
        if t.op.type.startswith("TensorArray") and \
                unstacked_source(t, op._control_flow_context) is None:
            return (f"loop {op.name} starts from a TensorArray element read before it "
                    "from an array not unstacked there")
    return None


def entering_cond_writes(flow: Tensor) -> List[Operation]:
    """The branches' writes where `flow` is the output of a top-level tf.cond whose
    branches each write one floating element (of one dtype and compatible shapes),
    return the array unchanged or return the output of such a tf.cond inside them, at
    least one writing, to the array of one flow from outside them, each at an index
    computed outside them or a constant: the first alone where all write at one index
    (`tf.cond(p, lambda: ta.write(1, a), lambda: ta.write(1, b))`), else each writing
    branch's (`ta.write(1, a)` beside `ta.write(4, b)` or `ta`; of a cond in a branch
    only where its predicate is computed outside the branches or in the top-level
    cond's: the gradient's Select of the rows reads it outside, through a Merge with a
    stand-in from the other branch, control_flow_export.gradient_input); else none."""
    found = _cond_element_writes(flow)
    if not found or not found[0]:
        return []
    writes, unchanged, nested = found
    entering = outside(writes[0].inputs[3])
    dtype = writes[0].inputs[2].dtype.base_dtype
    if entering.op._control_flow_context is not None or not dtype.is_floating or any(
            outside(w.inputs[3]) is not entering or w.inputs[2].dtype.base_dtype != dtype
            or not w.inputs[2].shape.is_compatible_with(writes[0].inputs[2].shape) or
            constant_value(w.inputs[1]) is None and
            w.inputs[1].op._control_flow_context is not None for w in writes) or \
            any(t is not entering for t in unchanged):
        return []
    indices = [w.inputs[1] if constant_value(w.inputs[1]) is None else
               int(constant_value(w.inputs[1])) for w in writes]
    same = all(i is indices[0] or isinstance(i, int) and i == indices[0] for i in indices)
    if same:
        return writes[:1]
    return [] if nested and _apart_by_nested_predicate(flow) else writes


def _apart_by_nested_predicate(flow: Tensor) -> bool:
    """Whether a write of tf.cond output `flow`'s branches is in a tf.cond whose
    predicate is computed in a branch of a cond inside another's (`entering_cond_writes`
    does not take it)."""
    found = _cond_element_writes(flow)
    return bool(found) and any(_nested_branch_predicates(w) for w in found[0])


def _nested_branch_predicates(write: Operation) -> List[Tensor]:
    """The predicates of the tf.conds around `write` computed inside a branch of a
    tf.cond inside another's (which the gradient's Select of the elements' rows cannot
    read outside it: only a top-level cond's branch values pass a Merge there)."""
    found: List[Tensor] = []
    region = write._control_flow_context
    while region is not None:
        around = region.pred.op._control_flow_context
        if around is not None and around.outer_context is not None:
            found.append(region.pred)
        region = region.outer_context
    return found


def _cond_element_writes(flow: Tensor
                         ) -> Optional[Tuple[List[Operation], List[Tensor], bool]]:
    """(the TensorArray writes the branches of the tf.cond of output `flow` return, of
    conds inside them too; the flows branches return unchanged, from outside; whether
    there is a cond inside), or None where a branch returns another value."""
    if flow.op.type != "If" or getattr(flow.op.attrs.get("then_branch"), "region",
                                       None) is None:
        return None
    writes: List[Operation] = []
    unchanged: List[Tensor] = []
    nested = False
    for b in ("then_branch", "else_branch"):
        t = flow.op.attrs[b].outputs[flow.value_index]
        inner = inner_element(t)
        if t.op.type == "TensorArrayWriteV3" and t.op._control_flow_context is not None:
            writes.append(t.op)
        elif inner is not None:
            found = _cond_element_writes(inner)
            if found is None:
                return None
            writes += found[0]
            unchanged += found[1]
            nested = True
        elif t.op.type == "Identity":
            unchanged.append(outside(t))
        else:
            return None
    return writes, unchanged, nested


def unstacked_source(t: Tensor, context: Any) -> Optional[Tensor]:
    """The value unstacked in `context` into the array `t` is read from (`tf.scan`'s
    first element, `elems.read(0)`), or None where `t` is no such read."""
    return unstacked_in(t.op, context) if t.op.type == "TensorArrayReadV3" else None


def _array_start(plan: LoopPlan, k: int) -> Operation:
    """The TensorArrayV3 op of the array of `plan`'s loop variable `k` (past the
    elements written before the loop: `plan.entering`, in a tf.cond's branches too), or
    what its flow comes from."""
    conds = {out: write for write, out in plan.entering_conds.items()}
    flow = outside(plan.op.inputs[k])
    while flow.op in plan.entering or flow in conds:
        flow = outside(conds.get(flow, flow.op).inputs[3])
    return flow.op


def array_variables(plan: LoopPlan) -> List[int]:
    """The loop variables of `plan`'s loop that are TensorArray flows (written in the
    body, or entering from a TensorArray op)."""
    info = plan.info
    return [k for k, t in enumerate(plan.op.inputs[:len(info.body_args)])
            if t.dtype.base_dtype.is_floating and (
                info.body_outputs[k].op.type == "TensorArrayWriteV3" or is_flow(t))]


def cond_write(info: Any, out: Tensor
               ) -> Optional[Tuple[List[Operation], Tensor, Tensor, bool]]:
    """(writes, the cond's output, the flow they take, paired) where flow `out` of the
    body is a tf.cond output whose branches each return writes one after another (or the
    flow unchanged: `lambda: ta`) of elements of one floating dtype and compatible shapes
    (static or not), to one array at indices computed outside the branches or in the
    write's own branch (pushed through the cond's Merge, as TF 1.x pushes them inside
    the branch; such a write is paired only with a branch writing none), from one flow
    (the loop variable's, or a write's before the cond). `paired`: one write per branch
    at one index, or one write and the flow unchanged (`tf.cond(p, lambda: ta.write(i,
    a), lambda: ta.write(i, b))`; `writes` holds a branch's): the body function computes
    the written element as the cond's Select of the two (zeros for a branch that does
    not write; cond_lowering.py). Otherwise (indices differing per branch, more than one
    write in a branch) each write is one of its own whose element the function computes
    as the Select of it and zeros (`plan.masked_writes`)."""
    out = _past_identities(info, out)
    if out.op.type != "If" or out.op._control_flow_context is not info.body_region:
        return None
    branches = (out.op.attrs["then_branch"], out.op.attrs["else_branch"])
    if any(getattr(b, "region", None) is None for b in branches):
        return None
    chains: List[List[Operation]] = []
    ends: List[Tensor] = []
    for b in branches:
        chain, t = [], b.outputs[out.value_index]
        while t.op.type == "TensorArrayWriteV3" and t.op._control_flow_context is b.region:
            chain.insert(0, t.op)
            t = t.op.inputs[3]
        if t.op.type == "Identity" and t.op._control_flow_context is b.region:
            t = t.op.inputs[0]      # `lambda: ta` (the flow through an Identity)
        chains.append(chain)
        ends.append(t)
    writes = chains[0] + chains[1]
    if not writes or ends[0] is not ends[1] or \
            ends[0].op._control_flow_context in (b.region for b in branches):
        return None
    first = writes[0]
    if not all(outside(w.inputs[0]) is outside(first.inputs[0]) and
               w.inputs[2].dtype.base_dtype == first.inputs[2].dtype.base_dtype and
               w.inputs[2].shape.is_compatible_with(first.inputs[2].shape) and
               w.inputs[1].op._control_flow_context in (info.body_region,
                                                         w._control_flow_context) and
               len(w.outputs[0].consumers()) == (w is not chain[-1])
               for chain in chains for w in chain):
        return None
    if all(len(chain) <= 1 for chain in chains) and \
            all(w.inputs[1] is first.inputs[1] for w in writes):
        return [first], out, ends[0], True
    return writes, out, ends[0], False


def _past_identities(info: Any, t: Tensor) -> Tensor:
    """`t` past the Identity ops of the body in front of it (the loop's flow returned
    through one)."""
    while t.op.type == "Identity" and t.op._control_flow_context is info.body_region:
        t = t.op.inputs[0]
    return t


def _chain(info: Any, k: int) -> Tuple[List[Operation], Tensor, List[Tensor], Dict[
        Operation, Tuple[Tensor, bool]]]:
    """The writes of the body to the array of loop variable `k`, in order (a tf.cond's:
    `cond_write`), the flow the first takes, the flow after each write or tf.cond, and
    the writes in tf.conds -> (the cond's output, paired)."""
    chain: List[Operation] = []
    steps: List[Tensor] = []
    conds: Dict[Operation, Tuple[Tensor, bool]] = {}
    flow = info.body_outputs[k]
    while flow is not info.body_args[k]:
        if flow.op.type == "TensorArrayWriteV3":
            chain.insert(0, flow.op)
            steps.insert(0, flow)
            flow = flow.op.inputs[3]
            continue
        in_cond = cond_write(info, flow)
        if in_cond is None:
            break
        writes, out, flow, paired = in_cond
        conds.update((w, (out, paired)) for w in writes)
        chain[:0] = writes
        steps.insert(0, out)
    return chain, flow, steps, conds


def writes_before(plan: LoopPlan, flow: Tensor, every_branch: bool
                  ) -> Optional[Tuple[List[Operation], Tensor]]:
    """The writes of the body whose output is `flow` and the flow they take: a
    TensorArrayWriteV3, or a tf.cond's (`cond_write`; `every_branch`: only one whose
    branches both write at one index, so that what is read of it after the cond is the
    element its Select computes)."""
    if flow.op.type == "TensorArrayWriteV3":
        if flow.op._control_flow_context is not plan.info.body_region:
            return None
        return [flow.op], flow.op.inputs[3]
    in_cond = cond_write(plan.info, flow)
    if in_cond is None or every_branch and not (in_cond[3] and all(
            b.outputs[in_cond[1].value_index].op.type == "TensorArrayWriteV3"
            for b in (in_cond[1].op.attrs["then_branch"], in_cond[1].op.attrs["else_branch"]))):
        return None
    return in_cond[0], in_cond[2]


def written_at_counter(plan: LoopPlan, chain: List[Operation]) -> bool:
    """Whether the loop's writes `chain` are one per iteration at its counter (a loop
    variable from 0, stepped by 1): a dynamic-size array written so has the larger of
    its size input and the trip count as its size after the loop."""
    if len(chain) != 1 or chain[0].inputs[1] not in plan.info.body_args:
        return False
    k = plan.info.body_args.index(chain[0].inputs[1])
    step = plan.info.body_outputs[k].op
    return constant_value(plan.op.inputs[k]) == 0 and step.type in ("AddV2", "Add") and \
        step.inputs[0] is plan.info.body_args[k] and constant_value(step.inputs[1]) == 1


def stack_after(plan: LoopPlan, chain: List[Operation]) -> Optional[Operation]:
    """The stack() (a gather of a range) reading, after `plan`'s loop, the array its
    writes `chain` write, if any."""
    for reader in plan.writes.get(chain[0], []):
        if reader.type == "TensorArrayGatherV3" and is_range(reader.inputs[1]):
            return reader
    return None


def body_writes(info: Any, k: int) -> List[Operation]:
    """The writes of the body to the array of loop variable `k`, in order."""
    return _chain(info, k)[0]


def plan_write(plan: LoopPlan, k: int, upstream: Set[Operation]) -> Optional[str]:
    """Loop variable `k` is a TensorArray's flow: written once or more per iteration
    (writes one after another: `ta.write(2 * i, a).write(2 * i + 1, b)`), read after
    the loop by a stack(), read(index) or concat() (or not read on the way to the ys)."""
    op, info = plan.op, plan.info
    chain, flow, outs, conds = _chain(info, k)
    for write, (out, paired) in conds.items():
        (plan.cond_writes if paired else plan.masked_writes)[write] = out
    if flow is not info.body_args[k] and _past_identities(info, flow).op.type == "If":
        return (f"loop {op.name} writes a TensorArray in a tf.cond of its body other than "
                "at indices computed outside the branches or in the write's own branch, "
                "elements of one floating dtype and compatible shapes, one write after "
                "another in each branch")
    # Each write's flow goes only to the next write (besides reads of the element it
    # wrote or of earlier ones: `same_iteration_write`, `_earlier_read_after_write`)
    # and all write the same array.
    if not chain or flow is not info.body_args[k] or any(
            len([c for c in t.consumers() if c.type != "TensorArrayReadV3"]) != 1
            for t in outs[:-1]) or any(
            outside(w.inputs[0]) is not outside(chain[0].inputs[0]) for w in chain):
        return (f"loop {op.name} carries a TensorArray other than written once or more "
                "per iteration, one write after another")
    readers = [c for c in upstream if any(outside(t) is op.outputs[k] for t in c.inputs)
               and c.type not in ("Identity", "TensorArraySizeV3")]
    read_in_body = any(c.type == "TensorArrayReadV3" for t in [info.body_args[k]] + outs
                       for c in t.consumers())
    if not readers and not read_in_body or \
            not chain[0].inputs[2].dtype.base_dtype.is_floating:
        return None         # the array does not lead to the ys, or carries no gradient
    for reader in readers:
        handle = outside(reader.inputs[0])
        if handle is not outside(chain[0].inputs[0]) or \
                reader._control_flow_context is not op._control_flow_context or \
                reader.type not in _AFTER_LOOP_READS:
            return (f"a TensorArray written in loop {op.name} is read after it other than "
                    "by stack(), read() or concat()")
        if reader.type == "TensorArrayConcatV3" and any(
                w.inputs[2].shape.ndims is None for w in chain):
            return (f"a TensorArray written in loop {op.name} is concatenated after it "
                    "from elements of unknown rank")
    for write in chain:
        plan.writes[write] = sorted(readers, key=lambda o: o._id)
    return None


# The reads of a TensorArray after the loop that wrote it, and what each reads: the
# elements at some indices (of a range: all, element i at row i), one element, all
# elements one after another.
_AFTER_LOOP_READS = ("TensorArrayGatherV3", "TensorArrayReadV3", "TensorArrayConcatV3")


def plan_read(plan: LoopPlan, read: Operation) -> Optional[str]:
    """A TensorArray read in the body: of an array unstacked or split before the loop,
    or of one the loop writes (`_plan_own_read`)."""
    handle, _, flow = read.inputs
    if flow in plan.info.body_args:
        return _plan_own_read(plan, read, plan.info.body_args.index(flow))
    k = _earlier_read_after_write(plan, read)
    if k is not None:
        return _plan_own_read(plan, read, k)
    if writes_before(plan, flow, False) is not None:
        writes: List[Operation] = []
        while writes_before(plan, flow, False) is not None:
            more, flow = writes_before(plan, flow, False)
            writes[:0] = more
        if flow not in plan.info.body_args:
            return (f"loop {plan.op.name} reads a TensorArray element after a write other "
                    "than to an array the loop carries")
        reason = _plan_own_read(plan, read, plan.info.body_args.index(flow))
        if reason is None:
            plan.after_reads[read] = PushedRead(read, writes)
        return reason
    filled = outside(flow).op
    outer = plan.op._control_flow_context       # None, or the tf.cond branch of the loop
    if handle.op._control_flow_context is not outer or \
            filled._control_flow_context is not outer or \
            outside(filled.inputs[0]) is not outside(handle) or not (
                filled.type == "TensorArrayScatterV3" and is_range(filled.inputs[1]) or
                filled.type == "TensorArraySplitV3"):
        return (f"loop {plan.op.name} reads a TensorArray that is not unstacked or split "
                "before it")
    if filled.type == "TensorArraySplitV3":
        plan.reads[read] = filled.inputs[1]
        plan.splits[read] = filled
    else:
        plan.reads[read] = filled.inputs[2]
    return None


def _earlier_read_after_write(plan: LoopPlan, read: Operation) -> Optional[int]:
    """The loop variable of the array whose earlier element `read` reads after this
    iteration's writes (`ta = ta.write(i, e); ta.read(i - 1)`): its index is provably
    below that of each write before it (the write's index minus a positive constant),
    so the element is one an earlier iteration wrote (or none wrote: zeros), as for a
    read before the writes. None where it is not such a read."""
    flow, writes = read.inputs[2], []
    while writes_before(plan, flow, False) is not None:
        more, flow = writes_before(plan, flow, False)
        writes.extend(more)
    if not writes or flow not in plan.info.body_args or not all(
            _below(read.inputs[1], w.inputs[1]) for w in writes):
        return None
    return plan.info.body_args.index(flow)


def _below(t: Tensor, index: Tensor) -> bool:
    """Whether `t` is `index` minus a positive constant (`index - c`, `index + (-c)`)."""
    op = t.op
    if op.type == "Sub" and op.inputs[0] is index:
        step = constant_value(op.inputs[1])
        return step is not None and int(step) > 0
    if op.type in ("AddV2", "Add") and index in op.inputs:
        other = op.inputs[1] if op.inputs[0] is index else op.inputs[0]
        step = constant_value(other)
        return step is not None and int(step) < 0
    return False


def unstacked_in(read: Operation, region: Any) -> Optional[Tensor]:
    """The value unstacked in `region` (a `TensorArrayScatterV3` of a range there) into
    the array that TensorArrayReadV3 `read` reads, or None."""
    filled = read.inputs[2].op
    if filled.type != "TensorArrayScatterV3" or filled._control_flow_context is not region \
            or read.inputs[0].op._control_flow_context is not region or \
            outside(filled.inputs[0]) is not outside(read.inputs[0]) or \
            not is_range(filled.inputs[1]):
        return None
    return filled.inputs[2]


def same_iteration_write(plan: LoopPlan, read: Operation) -> Optional[Operation]:
    """The TensorArrayWriteV3 whose element `read` reads back: `read` takes that write's
    flow and index tensor (`ta = ta.write(i, v); ta.read(i)` in one iteration; the flow
    of a tf.cond whose branches both write at `i`: `plan.cond_writes`)."""
    writes = writes_before(plan, read.inputs[2], True)
    write = writes[0][0] if writes else None
    if write is None or read.inputs[1] is not write.inputs[1] or \
            outside(read.inputs[0]) is not outside(write.inputs[0]):
        return None
    writer = plan.cond_writes[write].op if write in plan.cond_writes else write
    return write if writer._control_flow_context is read._control_flow_context else None


def _plan_own_read(plan: LoopPlan, read: Operation, k: int) -> Optional[str]:
    """A read in the body, before this iteration's writes, of the array the loop writes
    through loop variable `k` (an element an earlier iteration wrote, or one written
    just before the loop: `plan.entering`, which gets its row of the gradients the
    backward loop sums) with elements of one static shape (the backward loop sums their
    gradients in a tensor of all elements)."""
    op = plan.op
    chain = [w for w in plan.writes if outside(w.inputs[0]) is outside(read.inputs[0])]
    start = _array_start(plan, k)
    entering = [w for w, (j, _) in plan.entering.items() if j == k]
    # (elements of a run-time shape: the backward loop's zeros for them are those of
    # the gradient of the array's stack() after the loop, or of its elements gathered
    # after it)
    static = all(w.inputs[2].shape.is_fully_defined() and
                 w.inputs[2].shape.as_list() == chain[0].inputs[2].shape.as_list()
                 for w in chain + entering) if chain else False
    if not chain or start.type != "TensorArrayV3" or \
            outside(read.inputs[0]) is not start.outputs[0] or \
            start._control_flow_context is not op._control_flow_context or \
            not static and not all(
                w.inputs[2].shape.is_compatible_with(chain[0].inputs[2].shape)
                for w in chain + entering):
        return (f"loop {op.name} reads a TensorArray it writes other than one it fills "
                "from empty (or from elements written just before it) with elements of "
                "compatible shapes")
    plan.own_reads[read] = k
    plan.own_arrays[k] = (start.outputs[0], chain)
    return None
