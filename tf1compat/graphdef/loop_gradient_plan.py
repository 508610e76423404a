"""The plan of one while loop's backward loop (loop_gradient_export.py): which body ops
the body's function computes, which values the forward loop pushes each iteration, the
outside tensors the body captures, the tf.conds of the body on the gradient path and
the TensorArrays the loop reads and writes, or why the loop has no backward loop TF
can run."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Set, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.ops._regions import CondRegion
from tf1compat.graphdef.gradient_export import (
    CUT_OP_TYPES, TF_DIFFERENTIABLE_OP_TYPES, data_upstream, forward_reach)
from tf1compat.graphdef.cond_lowering import CondPlan, plan_cond
from tf1compat.graphdef.cond_stand_ins import array_loop
from tf1compat.graphdef.gradient_lowering import LOWERINGS
from tf1compat.graphdef.gradient_lowering_math import (LINEARIZED, PICKED, OuterValue,
                                                      outer_values)
from tf1compat.graphdef.loop_unrolling import (read_loop, unrolled_inputs,
                                               unrolling_reason)
from tf1compat.graphdef.loop_array_plan import (
    PushedRead, array_variables, is_flow, is_range, outside, plan_entering, plan_read,
    plan_write, same_iteration_write, stack_after, unstacked_in, written_at_counter)

__all__ = ["LoopPlan", "plan_loop", "holds_loop", "branch_frontier", "plan_branch_loops"]


class LoopPlan:
    """What the backward loop of one forward loop needs: the body ops its function
    computes, the values pushed each iteration (the loop variables the function reads,
    the elements it reads from TensorArrays and their indices, the indices of the
    elements it writes), the outside tensors it captures, the floating loop variables
    that carry gradients and the TensorArray reads and writes."""

    def __init__(self, op: Operation):
        info = op.attrs["loop"]
        self.op = op
        self.info = info
        self.floats: List[int] = []       # floating loop variables (not TensorArray flows)
        self.ops: List[Operation] = []
        self.args: List[int] = []           # loop variables the body function reads
        self.captures: List[Tensor] = []    # outside tensors it reads
        # TensorArrayReadV3 ops of arrays filled before the loop (TensorArrayScatterV3
        # of a range: an unstack; TensorArraySplitV3) -> the scattered or split value
        self.reads: Dict[Operation, Tensor] = {}
        # body values the function takes as inputs, not differentiated (a dropout mask)
        self.extras: List[Tensor] = []
        # body ops written from their values outside the function (Erf, TopKV2, ...:
        # gradient_lowering_math.py) -> those values (the op's inputs, then outputs),
        # pushed each iteration like the extras (those computed in the body), inputs of
        # the function of their own
        self.outer: Dict[Operation, List[OuterValue]] = {}
        # ReadVariableOps of the body (captures) -> the resource variable they read
        self.variable_reads: Dict[Tensor, Tensor] = {}
        # tf.conds of the body on the gradient path: both branches + Select
        self.conds: Dict[Operation, CondPlan] = {}
        # TensorArrayReadV3 ops of arrays split before the loop (TensorArraySplitV3) ->
        # the split op (its lengths place each element's gradient)
        self.splits: Dict[Operation, Operation] = {}
        # TensorArrayWriteV3 ops of the body -> the ops reading the array after the loop
        # from its output flow: TensorArrayGatherV3 (of a range: a stack),
        # TensorArrayReadV3 (an index computed outside), TensorArrayConcatV3
        self.writes: Dict[Operation, List[Operation]] = {}
        # such a write in a tf.cond branch of the body (loop_array_plan.cond_write) ->
        # the cond's output, which the body function computes as the written element
        self.cond_writes: Dict[Operation, Tensor] = {}
        # the writes of tf.conds of the body writing at indices differing per branch or
        # more than once in a branch -> the cond's output: the body function computes
        # each written element as the Select of it and zeros (`Select(p, e, 0)` for the
        # then branch's), named as the write's output (its stand-in)
        self.masked_writes: Dict[Operation, Tensor] = {}
        # TensorArrayReadV3 ops of the body reading an array the loop writes (elements
        # of earlier iterations) -> the loop variable of its flow
        self.own_reads: Dict[Operation, int] = {}
        # such an array's loop variable -> (its handle, the writes of the body to it)
        self.own_arrays: Dict[int, Tuple[Tensor, List[Operation]]] = {}
        # TensorArrayReadV3 ops of the body reading, through a write's flow and at its
        # index tensor, the element that write stored this iteration -> the write (the
        # function reads the written value: the same tensor, so the same gradient)
        self.forwarded: Dict[Operation, Operation] = {}
        # TensorArrayReadV3 ops of the body reading, after this iteration's writes (or
        # some of them) to the array, an element at a computed index (of this or an
        # earlier iteration: also in `own_reads`) -> the function's input for the value
        # read (pushed); the function computes the read as `Select(index == write index,
        # written element, that input)` per write before it, so an element written this
        # iteration gets the read's gradient inside the function, an earlier one through
        # the array's gradients (the backward loop adds the read's gradient after taking
        # this iteration's written rows)
        self.after_reads: Dict[Operation, "PushedRead"] = {}
        # TensorArrayReadV3 ops of the body reading an array unstacked in the body itself
        # (`tf.foldl`'s first element of a value the body computes) -> the unstacked
        # value (the function reads its row at the read's index)
        self.local_reads: Dict[Operation, Tensor] = {}
        # loops nested in the body on the gradient path whose trip count is known only
        # at run time: backward loops of their own inside this one (creation order); the
        # function takes their outputs as inputs (`inner_outputs`), and the body values
        # their backward loops read (`inner_values`) are pushed each iteration
        self.inner: List["LoopPlan"] = []
        self.inner_outputs: List[Tensor] = []
        self.inner_values: List[Tensor] = []
        # the contexts whose values the body reads besides its own (the loop's context,
        # the loop bodies and branches around it)
        self.enclosing: Tuple[Any, ...] = ()
        # elements written before a nested loop into an array it writes and stacks after
        # it (`tf.scan` without an initializer: its first; a run-time index is pushed) ->
        # (the nested loop's plan, the stack() reading them); the body function computes
        # them, their gradients are their rows of the stack()'s
        self.prewritten: Dict[Operation, Tuple["LoopPlan", Operation]] = {}
        # loops nested in a tf.cond branch of the body reading values the branch (or one
        # around it) computes (initial values, captures) -> (the branches around the loop,
        # innermost first; their ops computing them, the outside values those read): a
        # function of the branch carries their gradients
        # to those values
        self.branch_values: Dict["LoopPlan", Tuple[Any, List[Operation], List[Tensor]]] = {}
        # elements written, in the loop's own context just before it, into an array it
        # writes (a loop not nested in another's body) -> (the array's loop variable, the
        # ops reading the array after the loop): their gradients are their parts of what
        # those read, and of what the body reads of them (`own_arrays`)
        self.entering: Dict[Operation, Tuple[int, List[Operation]]] = {}
        # of those, the writes in a tf.cond's then branch before the loop (each branch
        # writing one element at one index) -> the cond's output: the element the array
        # gets is the Select of the branches' (gradient_export's forward function)
        self.entering_conds: Dict[Operation, Tensor] = {}
        # gathers of the body (GatherV2 along axis 0, ResourceGather) taking rows of a
        # tensor from outside all loops (a ref variable's; a resource variable's handle,
        # or the body's read of it) -> that tensor: as TF's gradient of a gather is
        # IndexedSlices, the backward loop
        # accumulates its slices (TF 1.x's `b_acc` of IndexedSlices: indices and values
        # concatenated per iteration); the gathered rows are pushed (an input of the
        # body function, like the extras) with their indices
        self.sparse_reads: Dict[Operation, Tensor] = {}

    def written(self, write: Operation) -> Tensor:
        """The body function's output for the element TensorArrayWriteV3 `write` writes."""
        if write in self.masked_writes:
            return write.outputs[0]
        return self.cond_writes.get(write, write.inputs[2])

    def write_branch(self, write: Operation) -> Optional[Tuple[Tensor, bool]]:
        """For a write in a tf.cond branch of the body after which the array may hold
        another element at its index than the one it writes (the other branch writes
        none, or elsewhere): the cond's predicate and whether the write is in the then
        branch (a read after it reads the written element only where its branch ran);
        None for the others."""
        out = self.masked_writes.get(write, self.cond_writes.get(write))
        if out is None:
            return None
        branches = (out.op.attrs["then_branch"], out.op.attrs["else_branch"])
        if write in self.cond_writes and all(
                b.outputs[out.value_index].op.type == "TensorArrayWriteV3" for b in branches):
            return None
        return out.op.inputs[0], write._control_flow_context is branches[0].region

    def read_input(self, read: Operation) -> Any:
        """The body function's input for the value TensorArrayReadV3 `read` reads."""
        return self.after_reads.get(read) or read.outputs[0]

    @property
    def pushed(self) -> List[Tensor]:
        """The body values the backward loop pops, in this order."""
        values = [self.info.body_args[k] for k in self.args] + \
            [read.outputs[0] for read in list(self.reads) + list(self.own_reads)] + \
            self.extras
        values += [t for t in self.inner_outputs + self.inner_values if t not in values]
        # (a gather's indices from outside the loop are entered into the backward loop)
        for op in list(self.reads) + list(self.own_reads) + list(self.writes) + [
                g for g in self.sparse_reads if g.inputs[1].op._control_flow_context]:
            if op.inputs[1] not in values:
                values.append(op.inputs[1])
        body = self.info.body_region
        for value in self.outer_inputs:
            # (one computed outside the loop is entered into the backward loop instead;
            # one of a branch of a body tf.cond passes a Merge, loop_gradient_export.py)
            context = value.tensor.op._control_flow_context
            if value.tensor not in values and (
                    context is body or getattr(context, "outer_context", None) is body):
                values.append(value.tensor)
        return values

    @property
    def outer_inputs(self) -> List[OuterValue]:
        """The body function's inputs for the outside values of its linearized ops (of
        the body, then of the branches of its tf.conds)."""
        return [value for member in self.ops if member in self.outer
                for value in self.outer[member]] + \
            [value for cond in self.ops if cond in self.conds
             for values in self.conds[cond].outer.values() for value in values]

    @property
    def sources(self) -> List[Tensor]:
        """The loop's outputs the rest of the region reads: floating loop variables and
        what is read from the TensorArrays it writes."""
        return [self.op.outputs[k] for k in self.floats] + self.readers_outputs

    @property
    def readers_outputs(self) -> List[Tensor]:
        """What is read after the loop from the TensorArrays it writes (once each: the
        writes of one array share their readers)."""
        found: List[Tensor] = []
        for readers in self.writes.values():
            found += [r.outputs[0] for r in readers if r.outputs[0] not in found]
        return found


def plan_loop(op: Operation, upstream: Set[Operation], on_path: Set[Operation],
              sources: Set[Tensor], context: Any = None, around: Tuple[Any, ...] = (),
              nested: bool = False) -> Tuple[Optional[LoopPlan], Optional[str]]:
    """The plan of loop `op`'s backward loop (`upstream`: the ops the ys are computed
    from; `on_path`: the ops computed from the `sources`; `context`: the tf.cond branch
    the loop is in, or None; `around`: the contexts outside that whose values the body
    may read too: the loop body around a tf.cond holding a nested loop), or why it
    cannot be written. `nested`: a loop in another's body, whose arrays may enter it
    with elements the outer body wrote (`_prewritten`)."""
    plan = LoopPlan(op)
    plan.enclosing = tuple(c for c in (context, *around) if c is not None)
    info = plan.info
    region = info.body_region
    if op._control_flow_context is not context:
        return None, f"the loop {op.name} is inside another control-flow construct"
    arg_index = {t: k for k, t in enumerate(info.body_args)}
    outputs: List[Tensor] = []
    for k, out in enumerate(info.body_outputs):
        if not out.dtype.base_dtype.is_floating:
            continue
        if out.op.type != "TensorArrayWriteV3" and not is_flow(op.inputs[k]):
            plan.floats.append(k)
            outputs.append(out)
            continue
        reason = plan_write(plan, k, upstream)
        if reason is not None:
            return None, reason
    outputs += [plan.written(w) for w in plan.writes]
    reason = None if nested else plan_entering(plan)
    if reason is not None:
        return None, reason
    live = _live_tensors(plan, on_path, sources, around)
    # (a loop nested in another's body keeps its gathers in its function)
    gathers_slices = not nested
    included: Set[Operation] = set()
    seen: Set[Tensor] = set()
    stack = list(outputs)
    used: Set[int] = set()
    while stack:
        t = stack.pop()
        if t in seen:
            continue
        seen.add(t)
        member = t.op
        if t in arg_index:
            used.add(arg_index[t])
            continue
        if member in plan.masked_writes:    # its element: the Select of its cond
            stack.append(plan.masked_writes[member])
            continue
        if member._control_flow_context is not region:
            if member._control_flow_context not in (None, context, *around):
                return None, f"the body of loop {op.name} holds a control-flow construct"
            if t not in plan.captures:
                plan.captures.append(t)     # an outside tensor
            continue
        if member.type == "TensorArrayReadV3" and read_loop(member) is None and \
                _after_nested_loop(member, region) is None:
            write = same_iteration_write(plan, member)
            if write is not None:
                plan.forwarded[member] = write
                if member not in included:
                    included.add(member)
                    plan.ops.append(member)
                    stack.append(plan.written(write))
                continue
            unstacked = unstacked_in(member, region)
            if unstacked is not None:
                plan.local_reads[member] = unstacked
                if member not in included:
                    included.add(member)
                    plan.ops.append(member)
                    stack.extend([unstacked, member.inputs[1]])
                continue
            reason = plan_read(plan, member)
            if reason is not None:
                return None, reason
            if member in plan.after_reads and member not in included:
                included.add(member)
                plan.ops.append(member)
                chain = plan.after_reads[member].writes
                stack.extend(plan.written(w) for w in chain)
                stack.extend(plan.write_branch(w)[0] for w in chain if plan.write_branch(w))
                for index in [member.inputs[1]] + [w.inputs[1] for w in chain]:
                    if index in arg_index:
                        used.add(arg_index[index])
                    elif index not in plan.extras:
                        plan.extras.append(index)   # pushed (an index), an input
            continue
        params = _gathered_capture(member, region) if gathers_slices else None
        if params is not None and (params in live or params in sources or
                                   params.op in on_path):
            plan.sparse_reads[member] = params
            if params.op._control_flow_context is region:   # a read of a resource variable
                plan.variable_reads[params] = params.op.inputs[0]
            if t not in plan.extras:
                plan.extras.append(t)
            continue
        if member.type == "ReadVariableOp" and member.inputs[0].op._control_flow_context \
                is None:
            # A resource variable's value: loop-invariant, read once outside for the
            # backward loop; its gradient is the variable's.
            plan.variable_reads[t] = member.inputs[0]
            plan.captures.append(t)
            continue
        if member.type == "If" and any(x in live for x in _construct_inputs(member)):
            reason = _plan_body_cond(plan, member, live, on_path, lambda loop: _plan_inner(
                plan, loop, upstream, on_path | {x.op for x in live}, sources, stack))
            if reason is not None:
                return None, reason
            if member not in included:
                included.add(member)
                plan.ops.append(member)
                stack.extend(plan.conds[member].reads)
            continue
        nested = read_loop(member) or _after_nested_loop(member, region) or member
        if nested.type == "While" and nested._control_flow_context is region and \
                any(x in live for x in nested.outputs):
            # A nested loop on the gradient path (or a read of an array it writes after
            # it: loop_unrolling.read_loop): unrolled in the body's function where its
            # trip count is fixed (loop_unrolling.py) and what reads its arrays after it
            # is known when the graph is written
            reason = unrolling_reason(nested)
            if reason is None and member is not nested and read_loop(member) is None:
                reason = f"{member.type} at indices known only at run time"
            if reason is not None:
                # a backward loop of its own inside this one's (t: an output of the
                # loop, or the stack() of an array it writes)
                why = _plan_inner(plan, nested, upstream, on_path | {x.op for x in live},
                                  sources, stack)
                if why is not None:
                    return None, f"{reason}; {why} (in the body of loop {op.name})"
                if t not in plan.inner_outputs:
                    plan.inner_outputs.append(t)
                continue
            if member not in included:
                included.add(member)
                plan.ops.append(member)
                stack.extend(unrolled_inputs(member) if member is nested else
                             [member.inputs[-1]])
            continue
        if member.type in _CONSTRUCTS:
            reason = (f"the body of loop {op.name} holds a control-flow construct "
                      f"({member.type}: a nested loop or conditional) on the gradient path")
        else:
            reason = "" if member.type in CUT_OP_TYPES else _body_op_reason(member)
            if reason is None and member.type in (*LINEARIZED, *PICKED) and \
                    not any(x in live for x in member.inputs):
                reason = ""     # off the gradient path: its value is pushed as it is
        if reason is not None:
            if reason and any(x in live for x in _construct_inputs(member)):
                return None, reason if member.type in _CONSTRUCTS else \
                    f"{reason} (in the body of loop {op.name})"
            # Not computed from what is differentiated (dropout's random mask) or a
            # gradient stop: pushed each iteration, an input of the body function.
            plan.extras.append(t)
            continue
        if member not in included:
            included.add(member)
            plan.ops.append(member)
            stack.extend(member.inputs)
            if member.type in LINEARIZED or member.type in PICKED:
                plan.outer[member] = outer_values(member)
    if any(t.dtype.base_dtype == D.resource for t in plan.captures):
        return None, f"the body of loop {op.name} reads a resource variable"
    for t in plan.pushed:
        context = t.op._control_flow_context
        while isinstance(context, CondRegion) and context is not region:
            context = context.outer_context     # (a tf.cond of the body, conds in it)
        if context is not region:
            return None, (f"a value the backward loop of {op.name} pops (a TensorArray index, "
                          "a random draw or gradient stop) is not computed in its body or "
                          "a tf.cond directly in it")
    plan.ops.sort(key=lambda o: o._id)
    plan.inner.sort(key=lambda p: p.op._id)
    plan.args = sorted(used)
    return plan, None


def _plan_inner(plan: LoopPlan, nested: Operation, upstream: Set[Operation],
                on_path: Set[Operation], sources: Set[Tensor], stack: List[Tensor]
                ) -> Optional[str]:
    """Plans loop `nested` of `plan`'s body (not unrolled: its trip count is known only
    at run time) as a backward loop inside `plan`'s, or says why it cannot be. What the
    outer body function must compute for it (its initial values and the body values it
    captures) goes on the traversal's `stack`."""
    if any(p.op is nested for p in plan.inner):
        return None
    region = plan.info.body_region
    context = nested._control_flow_context      # the body, or a tf.cond branch in it
    branches = []           # the tf.cond branches around it, innermost first
    while context is not region and isinstance(context, CondRegion):
        branches.append(context)
        context = context.outer_context
    if context is not region:
        return (f"the nested loop {nested.name} is in a control-flow construct of the body "
                "other than tf.conds")
    context = nested._control_flow_context
    ops = set(region.ops).union(*(b.ops for b in branches))
    inner, reason = plan_loop(nested, upstream | ops, on_path, sources, context=context,
                              around=tuple(branches[1:]) + ((region,) if branches else ()) +
                              plan.enclosing, nested=True)
    if reason is not None:
        return reason
    read = [nested.inputs[k] for k in inner.floats] + inner.captures + list(
        inner.reads.values())
    in_branch = [t for t in read if t.op._control_flow_context in branches]
    if in_branch:
        computed = _branch_computation(in_branch, branches, region)
        if computed is None:
            return (f"the nested loop {nested.name} reads a value its tf.cond branch "
                    "computes other than by ops TF differentiates in a function from values "
                    "outside the branch")
        plan.branch_values[inner] = (tuple(branches),) + computed
    sized = [handle.op.inputs[0] for handle, chain in inner.own_arrays.values()
             if stack_after(inner, chain) is None]
    if any(not _sized(inner, handle, chain) for handle, chain in inner.own_arrays.values()
           if stack_after(inner, chain) is None):
        return (f"the nested loop {nested.name} holds a TensorArray read in it after a "
                "write, not stacked after it, of a dynamic size or elements of a shape "
                "unknown when the graph is written (its nested backward loop takes the "
                "array's size from its size input, the trip count where it is written once "
                "per iteration at a counter from 0, or the stack()'s gradient)")
    if any(t.dtype.base_dtype == D.resource and not t.op.type.startswith("TensorArray")
           and t not in inner.variable_reads.values() for t in nested.inputs):
        return (f"the nested loop {nested.name} takes a resource other than a TensorArray "
                "or a variable it reads on the gradient path")
    prewritten = _prewritten(inner, context)
    if prewritten is None:
        return (f"the nested loop {nested.name} writes a TensorArray that enters it with "
                "elements other than written in its enclosing body and stacked after it")
    if any(value.tensor not in inner.pushed for value in inner.outer_inputs):
        return (f"the nested loop {nested.name} linearizes an op of a value computed "
                "outside its body")
    plan.inner.append(inner)
    for write, reader in prewritten.items():
        plan.prewritten[write] = (inner, reader)
        stack.append(write.inputs[2])
        if constant_value(write.inputs[1]) is None and write.inputs[1] not in plan.extras:
            plan.extras.append(write.inputs[1])     # its run-time index: pushed
    # (all its floating outputs: the function's gradient gives each one's part)
    plan.inner_outputs.extend(t for t in inner.sources if t not in plan.inner_outputs)
    # (the sizes of the arrays it reads after writes and that are not stacked after it:
    # their gradients' zeros)
    lengths = [split.inputs[2] for split in inner.splits.values()] + sized
    # what the nested backward loop reads of the readers after it: the indices of a
    # read() or gather() other than a stack(), the lengths of the concat()ed elements
    lengths += [r.outputs[1] if r.type == "TensorArrayConcatV3" else r.inputs[1]
                for readers in inner.writes.values() for r in readers
                if r.type != "TensorArrayGatherV3" or not is_range(r.inputs[1])]
    frontier = plan.branch_values[inner][2] if in_branch else []
    for t in inner.captures + list(inner.reads.values()) + lengths + frontier:
        if t.op._control_flow_context in (region, *branches) and \
                t not in plan.info.body_args and t not in plan.inner_values:
            plan.inner_values.append(t)     # read by the nested backward loop
    # the function computes the initial values and the captured body values (their
    # gradients pass through it; of those its branch computes, the values the branch
    # reads from outside); top-level captures become this loop's captures (the lengths
    # of arrays split before the nested loop: read, not computed)
    # its reads of resource variables: read once outside all loops (as this loop's own),
    # their gradients summed by both backward loops
    for t, handle in inner.variable_reads.items():
        plan.variable_reads[t] = handle
        if t not in plan.captures:
            plan.captures.append(t)
    stack.extend([t for t in read if t not in in_branch and t not in inner.variable_reads] +
                 [t for t in frontier if t.op._control_flow_context not in branches])
    stack.extend(t for t in lengths if t.op._control_flow_context is not region)
    return None


def _sized(inner: LoopPlan, handle: Tensor, chain: List[Operation]) -> bool:
    """Whether the array `handle` (written by `chain` in loop `inner`) has a fixed size
    (its size input) or a dynamic one written once per iteration at the counter (the
    larger of its size input and the trip count), and elements of one static shape:
    its gradients' zeros need no stack() after it."""
    shape = chain[0].inputs[2].shape
    return (not handle.op.attrs.get("dynamic_size") or written_at_counter(inner, chain)) \
        and shape.is_fully_defined() and all(
            w.inputs[2].shape.as_list() == shape.as_list() for w in chain)


def _branch_computation(values: List[Tensor], branches: List[Any], region: Any
                        ) -> Optional[Tuple[List[Operation], List[Tensor]]]:
    """(the ops of the tf.cond `branches` around a nested loop (innermost first: a
    branch of a tf.cond in a branch of the body's) computing `values` from outside them,
    in creation order; the values of the loop body `region` or the top level they
    read), or None where they take other ops (constructs, ops TF cannot differentiate
    in a function) or values of a branch not around the loop."""
    ops: List[Operation] = []
    frontier: List[Tensor] = []
    seen: Set[Tensor] = set()
    stack = list(values)
    while stack:
        t = stack.pop()
        if t in seen:
            continue
        seen.add(t)
        context = t.op._control_flow_context
        if context not in branches or t.op.type in CUT_OP_TYPES:
            # (an op without a gradient in the branch, a stop or a rounding: its value
            # an input of the function as the outside ones, pushed through the cond)
            if context not in (region, None, *branches):
                return None
            frontier.append(t)
            continue
        if t.op.type in _CONSTRUCTS or t.op.type in LINEARIZED or t.op.type in PICKED or \
                t.op.type != "Const" and _body_op_reason(t.op) is not None:
            return None
        if t.op not in ops:
            ops.append(t.op)
            stack.extend(t.op.inputs)
    return sorted(ops, key=lambda o: o._id), frontier


def _prewritten(inner: LoopPlan, context: Any) -> Optional[Dict[Operation, Operation]]:
    """The writes, before nested loop `inner.op` and in its `context`, of elements into
    the arrays it writes (`tf.scan`'s first element: `acc.write(0, elems.read(0))`; a
    reversed one's last, at `n - 1`), each read after the loop only by the stack() of
    `inner`'s writes -> that stack(); None where an array enters with elements
    otherwise."""
    found: Dict[Operation, Operation] = {}
    for k in array_variables(inner):
        flow = outside(inner.op.inputs[k])
        while flow.op.type == "TensorArrayWriteV3":
            write = flow.op
            readers = [r for w, rs in inner.writes.items()
                       if outside(w.inputs[0]) is outside(write.inputs[0]) for r in rs]
            if write._control_flow_context is not context or len(readers) > 1:
                return None
            if readers and write.inputs[2].dtype.base_dtype.is_floating:
                found[write] = readers[0]
            flow = write.inputs[3]
        if flow.op.type != "TensorArrayV3":
            return None
    return found


def _live_tensors(plan: LoopPlan, on_path: Set[Operation], sources: Set[Tensor],
                  around: Tuple[Any, ...] = ()) -> Set[Tensor]:
    """The floating body values computed from what the gradient differentiates: the
    floating loop variables, TensorArray elements, outside tensors computed from the
    sources and what reads a source variable; not through stateful ops or stops."""
    info = plan.info
    live: Set[Tensor] = {info.body_args[k] for k in plan.floats}
    for member in info.body_region.ops:
        inputs = _construct_inputs(member)
        if member.type == "TensorArrayReadV3" or any(t in sources for t in inputs):
            live.update(t for t in member.outputs if t.dtype.base_dtype.is_floating)
            continue
        if member.type in CUT_OP_TYPES or (member._op_def.stateful and
                                            member.type not in _CONSTRUCTS):
            continue
        if any(t in live or (t.op._control_flow_context in (
                None, plan.op._control_flow_context, *around) and t.op in on_path
                             and t.dtype.base_dtype.is_floating) for t in inputs):
            live.update(t for t in member.outputs if t.dtype.base_dtype.is_floating)
    return live


_CONSTRUCTS = ("If", "Case", "While")


def _plan_body_cond(plan: LoopPlan, cond: Operation, live: Set[Tensor],
                    on_path: Set[Operation], loops: Any) -> Optional[str]:
    """Plans a tf.cond of the body on the gradient path as both branches + Select in the
    body function (cond_lowering.py; `loops` plans a loop of a branch as a nested
    backward loop, `_plan_inner`), or says why not."""
    masked = [w for w, out in plan.masked_writes.items() if out.op is cond]
    flows = {plan.masked_writes[w].value_index for w in masked}
    used = [k for k, t in enumerate(cond.outputs) if t in live and k not in flows]
    # What the branches read from the body comes back as `reads`: the traversal takes
    # them on (loop variables, TensorArray elements, body ops, captures).
    cond_plan, reason = plan_cond(
        cond, used, _branch_reach(cond, live, on_path), set(), loops,
        lambda member: _body_op_reason(member) is not None,
        [out.value_index for out in plan.cond_writes.values() if out.op is cond], masked)
    where = f" (a tf.cond in the body of loop {plan.op.name})"
    if reason is not None:
        return reason + where
    for t in cond_plan.cut:
        if t in plan.inner_outputs:
            continue        # a nested loop's output (`_plan_inner`)
        if t.op.type == "ReadVariableOp" and t.op.inputs[0].op._control_flow_context is None:
            # A variable's value, loop-invariant: one read outside, as a body read.
            plan.variable_reads[t] = t.op.inputs[0]
            if t not in plan.captures:
                plan.captures.append(t)
        elif t not in plan.extras:
            # Random numbers or a gradient stop of a branch: pushed each iteration (the
            # forward loop passes it through a Merge, loop_gradient_export.py).
            plan.extras.append(t)
    plan.conds[cond] = cond_plan
    return None


def _branch_reach(cond: Operation, live: Set[Tensor], on_path: Set[Operation]
                  ) -> Set[Operation]:
    """The ops computed from what the gradient differentiates, the branch ops of `cond`
    included: those reading a live body value, a variable (its read in the branch) or
    one of them; not through stateful ops or gradient stops."""
    reached = {t.op for t in live} | on_path
    members = sorted((m for region in _regions(cond) for m in region.ops), key=lambda o: o._id)
    for member in members:
        if member.type == "ReadVariableOp":
            if member.inputs[0].op._control_flow_context is None and \
                    member.outputs[0].dtype.base_dtype.is_floating:
                reached.add(member)
        elif member.type not in CUT_OP_TYPES and not member._op_def.stateful and any(
                t.op in reached for t in member.inputs):
            reached.add(member)
    return reached


def _regions(op: Operation) -> List[Any]:
    """The regions of a tf.cond / tf.switch_case / tf.while_loop op."""
    attrs = op.attrs
    if op.type == "While":
        return [attrs["loop"].cond_region, attrs["loop"].body_region]
    if op.type == "If":
        return [attrs["then_branch"].region, attrs["else_branch"].region]
    return [branch.region for branch in attrs["branches"]]


def _construct_inputs(op: Operation) -> List[Tensor]:
    """The inputs of `op`; of a tf.cond / nested loop, also every tensor an op of its
    regions (at any depth) reads from outside them (variables are read in place)."""
    if op.type not in _CONSTRUCTS:
        return list(op.inputs)
    regions = _regions(op)
    inside: Set[Operation] = set()
    while regions:
        region = regions.pop()
        for member in region.ops:
            inside.add(member)
            if member.type in _CONSTRUCTS:
                regions.extend(_regions(member))
    return list(op.inputs) + [t for member in inside for t in member.inputs
                              if t.op not in inside]


def _after_nested_loop(member: Operation, region: Any) -> Optional[Operation]:
    """The loop nested in body `region` whose written TensorArray `member` reads after
    it (gather(), read(), concat(), at indices computed at run time too), or None."""
    if member.type not in ("TensorArrayGatherV3", "TensorArrayReadV3",
                           "TensorArrayConcatV3"):
        return None
    return array_loop(member, region)


def _gathered_capture(member: Operation, region: Any) -> Optional[Tensor]:
    """What gather `member` of loop body `region` takes rows of (along axis 0, at indices
    the body computes or from the top level), where that is of the top level: a floating
    tensor (a ref variable's) or a resource variable (its handle: ResourceGather, or
    GatherV2 of the body's read of it: the read); else None (`LoopPlan.sparse_reads`)."""
    if member.type not in ("GatherV2", "ResourceGather") or \
            member.attrs["batch_dims"] != 0 or \
            member.inputs[1].op._control_flow_context not in (region, None) or \
            not member.outputs[0].dtype.base_dtype.is_floating:
        return None
    params = member.inputs[0]
    source = params.op
    if member.type == "ResourceGather":
        return params if source._control_flow_context is None else None
    axis = constant_value(member.inputs[2])
    if axis is None or int(axis) != 0:
        return None
    if source._control_flow_context is None or (
            source._control_flow_context is region and source.type == "ReadVariableOp" and
            source.inputs[0].op._control_flow_context is None):
        return params
    return None


def _body_op_reason(member: Operation) -> Optional[str]:
    if member.type in LINEARIZED or member.type in PICKED:
        return (LINEARIZED.get(member.type) or PICKED[member.type])[0](member)
    if member.type in LOWERINGS:
        reason = LOWERINGS[member.type][0](member)
        if reason is None and len(member.outputs) > 1 and any(
                c for t in member.outputs[1:] for c in t.consumers()):
            reason = f"the body uses a second output of {member.type}"
        return reason
    if member.type in TF_DIFFERENTIABLE_OP_TYPES or member.type == "Const":
        return None
    return f"TF has no function gradient for op type {member.type}"


def holds_loop(op: Operation) -> bool:
    """Whether tf.cond `op` has a while loop in a branch, directly or in a tf.cond of
    a branch (at any depth)."""
    return op.type == "If" and all(getattr(op.attrs.get(k), "region", None) is not None
                                   for k in ("then_branch", "else_branch")) and any(
        m.type == "While" and m.attrs.get("loop") is not None or holds_loop(m)
        for region in _regions(op) for m in region.ops)


def _enclosing(region: Any) -> List[Any]:
    """The contexts around tf.cond branch `region`, innermost first, ending with None
    (the top level)."""
    found: List[Any] = []
    context = getattr(region, "outer_context", None)
    while context is not None:
        found.append(context)
        context = getattr(context, "outer_context", None)
    return found + [None]


def branch_frontier(region: Any, sources: Set[Tensor], reached: Set[Operation]
                    ) -> List[Tensor]:
    """The tensors from outside that the ops of tf.cond branch `region` (those of its
    loops included) read and that are differentiated: sources or computed from them."""
    found: List[Tensor] = []
    outside = _enclosing(region)
    for member in region.ops:
        for t in _construct_inputs(member):
            if t.op._control_flow_context in outside and t not in found and (
                    t in sources or t.op in reached) and (
                    t.dtype.base_dtype.is_floating or t.dtype.base_dtype == D.resource):
                found.append(t)
    return found


def plan_branch_loops(region: Any, frontier: List[Tensor], ys: List[Tensor]
                      ) -> Tuple[List[LoopPlan], List[Operation], Optional[str]]:
    """The plans of the loops of tf.cond branch `region` on the way from `frontier` to
    its outputs `ys` and the tf.conds of the branch holding loops on that way (cut as
    the top level's are), or why one cannot be written."""
    upstream = data_upstream(ys)
    reached = forward_reach(frontier)
    conds = sorted((m for m in region.ops if m in upstream and m in reached and
                    holds_loop(m)), key=lambda o: o._id)
    plans: List[LoopPlan] = []
    for loop in sorted((m for m in region.ops if m.type == "While" and m in upstream and
                        m in reached and m.attrs.get("loop") is not None),
                       key=lambda o: o._id):
        plan, reason = plan_loop(loop, upstream, reached, set(frontier), context=region)
        if reason is not None:
            return [], [], reason
        plans.append(plan)
    return plans, conds, None
