"""The plan of a gradient of a gradient through while loops (loop_second_order.py
writes it): which ops of the first gradient's region are the loops, their bodies and
conditions, the ops before and after them, which outside values they read and which of
those carry a tangent."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Set, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.serialization.messages import AttrValue
from tf1compat.graphdef.gradient_export import (TF_DIFFERENTIABLE_OP_TYPES, data_upstream,
                                                forward_reach)
from tf1compat.graphdef.gradient_lowering import LOWERINGS
from tf1compat.graphdef.loop_second_order_arrays import (ArrayPlan, full_reach, head_ops,
                                                         plan_arrays)
from tf1compat.graphdef.tangent_lowering import TANGENTS

__all__ = ["SecondOrderPlan", "LoopPart", "plan_second_order", "differentiated_gradient",
           "reach", "cut"]

_HEADS = ("Identity", "ReadVariableOp")   # a source's value as the loop reads it
_ARRAY_OPS = ("TensorArrayReadV3", "TensorArrayWriteV3", "TensorArrayGatherV3")


# TensorArray ops filling an array before a loop reads it, and their value's input index.
_FILL_VALUE_INPUT = {"TensorArrayScatterV3": 2, "TensorArraySplitV3": 1}


def reach(xs: List[Tensor], upstream: Set[Operation]) -> Set[Operation]:
    """The ops computed from sources `xs` (forward_reach), and those of a loop whose only
    way from them is a TensorArray unstacked or split before it (a stateful op, where the
    reach stops), among the ops `upstream` the ys are computed from."""
    reached = forward_reach(xs)
    fills = [o.outputs[0] for o in upstream if o.type in _FILL_VALUE_INPUT and o not in
             reached and (o.inputs[_FILL_VALUE_INPUT[o.type]].op in reached or
                          o.inputs[_FILL_VALUE_INPUT[o.type]] in xs)]
    return reached | forward_reach(fills) if fills else reached


def _region(op: Operation) -> Tuple[List[Tensor], List[Tensor], List[Tensor], Set[Operation]]:
    """(ys, sources, grad_ys) of gradient op `op` and the ops of its forward region."""
    attrs = op.attrs
    ny, nx, ndy = len(attrs["Ty"]), len(attrs["Tx"]), len(attrs["Tdy"])
    inputs = list(op.inputs)
    ys, xs, dys = inputs[:ny], inputs[ny:ny + nx], inputs[ny + nx:ny + nx + ndy]
    upstream = data_upstream(ys)
    return ys, xs, dys, upstream & reach(xs, upstream)


def differentiated_gradient(op: Operation) -> bool:
    """Whether `op` is a gradient op (tf1compat's form) that is differentiated again: a
    construct of the regions of the gradient ops computed from it (its region with
    loops or without)."""
    return op.type == "SymbolicGradient" and op.attrs.get("f") is None and \
        bool(op.attrs.get("create_graph"))


class LoopPart:
    """One loop of the region: its body and condition ops, the outside values they read."""

    def __init__(self, loop: Operation):
        self.loop = loop
        self.info = loop.attrs["loop"]
        self.body: List[Operation] = []       # body ops (not its arguments), in order
        self.cond: List[Operation] = []       # the loop condition's ops
        self.captures: List[Tensor] = []      # outside tensors the body and cond read
        # ReadVariableOps of the body (captures: the variable read once outside) -> the
        # resource variable they read
        self.variable_reads: Dict[Tensor, Tensor] = {}
        # outputs of the body's ops TF's function gradients refuse even computing no
        # floats (FloorMod of the counter): pushed, inputs of the tangent function
        self.cuts: List[Tensor] = []
        self.arrays = ArrayPlan()
        # the indices of the floating loop variables (not TensorArray flows)
        self.floats: List[int] = []
        # floating inputs computed from earlier loops' results (their final values and
        # stacked arrays) by the ops `mid_ops`, which read the outside values `mid_leaves`
        self.mids: List[Tensor] = []
        self.mid_ops: List[Operation] = []
        self.mid_leaves: List[Tensor] = []
        self.functions: Optional[Dict[str, AttrValue]] = None    # once written

    @property
    def inits(self) -> List[Tensor]:
        return list(self.loop.inputs[:len(self.info.body_args)])

    @property
    def inputs(self) -> List[Tensor]:
        """The outside values the loop reads that may carry a tangent."""
        return [t for k, t in enumerate(self.inits) if k not in self.arrays.flows] + \
            self.captures + list(self.arrays.read_values.values())


class SecondOrderPlan:
    """What the gradient of first gradient op `op` needs (see loop_second_order.py)."""

    def __init__(self, op: Operation):
        self.op = op
        self.ys, self.xs, self.dys, _ = _region(op)
        self.parts: List[LoopPart] = []       # the loops, in creation order
        self.tail: List[Operation] = []       # ops after the loops computing the ys
        self.leaves: List[Tensor] = []        # outside tensors the tail reads
        self.active: Dict[Tensor, int] = {}   # a value standing for source k -> k
        # floating inputs of the loops and of the ops after them computed from the
        # sources by the ops `head` (before the loops), which read the values `head_leaves`
        self.derived: List[Tensor] = []
        self.head: List[Operation] = []
        self.head_leaves: List[Tensor] = []
        self.functions: Optional[Dict[str, AttrValue]] = None    # once written

    def has_tangent(self, t: Tensor) -> bool:
        """Whether the outside value `t` the loops read has a tangent."""
        return t in self.active or t in self.derived or any(t in p.mids for p in self.parts)


def _source(t: Tensor, xs: List[Tensor]) -> Optional[int]:
    """The index of the source `t` is (or reads through an Identity/ReadVariableOp)."""
    for k, x in enumerate(xs):
        if t is x or (t.op.type in _HEADS and t.op.inputs and t.op.inputs[0] is x):
            return k
    return None


def cut(member: Operation) -> bool:
    """Whether `member` computes no floats and TF's function gradients refuse it."""
    return member.type not in TF_DIFFERENTIABLE_OP_TYPES and member.type not in (
        "Const", "If") and not any(t.dtype.base_dtype.is_floating for t in member.outputs)


def _op_reason(member: Operation, in_branch: bool = False) -> Optional[str]:
    if member.type == "If":     # both branches and Select: their ops' reasons
        for key in ("then_branch", "else_branch"):
            for inner in member.attrs[key].region.ops:
                reason = _op_reason(inner, True)
                if reason is not None:
                    return reason
        return None
    if in_branch and cut(member):
        return f"op type {member.type} in a tf.cond branch (no function gradient)"
    if member.type in _ARRAY_OPS:       # (planned: loop_second_order_arrays.py)
        return None
    if member.type in ("While", "Case") or "TensorArray" in member.type:
        return f"op type {member.type} (a nested construct)"
    if member._op_def.stateful or member.control_inputs:
        return f"the stateful or ordered op type {member.type}"
    # (an op computing floats from floats needs its tangent; a Const, none)
    if member.type not in TANGENTS and \
            any(t.dtype.base_dtype.is_floating for t in member.inputs) and \
            any(t.dtype.base_dtype.is_floating for t in member.outputs):
        return f"op type {member.type} (no tangent written)"
    # (the tangent functions are differentiated by TF: their forward ops too)
    if member.type in LOWERINGS:
        return LOWERINGS[member.type][0](member)
    if not cut(member) and member.type not in TF_DIFFERENTIABLE_OP_TYPES and \
            member.type != "Const":
        return f"op type {member.type} (TF has no function gradient for it)"
    return None


def plan_second_order(op: Operation, reached: Set[Operation]
                      ) -> Tuple[Optional[SecondOrderPlan], Optional[str]]:
    """The plan of the gradient of first gradient op `op` inside a second one (whose
    sources reach the ops `reached`), or why it has none TF runs."""
    ys, xs, dys, _ = _region(op)
    upstream = data_upstream(ys)
    region = full_reach(xs, upstream)
    loops = sorted((o for o in region if o.type == "While"), key=lambda o: o._id)
    through = " through a loop" if loops else ""
    prefix = f"the gradient of {op.name}{through} is differentiated again: "
    if any(o.attrs.get("loop") is None or o._control_flow_context is not None
           for o in loops):
        return None, prefix + "its region holds a loop in a construct"
    if any(d.op in reached for d in dys):
        return None, prefix + "its grad_ys are computed from the sources"
    if not all(x.dtype.base_dtype.is_floating or x.dtype.base_dtype == D.resource
               for x in xs):
        return None, prefix + "a source is not floating"
    plan = SecondOrderPlan(op)
    after: Set[Operation] = set()
    for loop in loops:
        after |= full_reach(list(loop.outputs), upstream)
    if not loops:       # (the whole region is the tail, but the sources' reads)
        after = {o for o in region if o.type not in _HEADS or
                 _source(o.outputs[0], xs) is None}
    # (the ops after the loops computing the ys other than through a later loop; those
    # computing a later loop's inputs are its `mid` ops)
    plan.tail = sorted((data_upstream(ys, set(loops)) & after) - set(loops),
                       key=lambda o: o._id)
    for loop in loops:
        part, reason = _plan_part(LoopPart(loop), sorted(after, key=lambda o: o._id),
                                  upstream)
        if reason is not None:
            return None, prefix + reason
        plan.parts.append(part)
    claimed = {g for part in plan.parts for g in part.arrays.gathers}
    for member in plan.tail:
        if "TensorArray" in member.type and member not in claimed:
            return None, prefix + (f"the TensorArray op type {member.type} after the loop "
                                   "other than one stack of a written array")
    tail = set(plan.tail)
    for member in plan.tail:
        for t in _read_inputs(member):
            if t.op not in tail and t.op not in loops and t not in plan.leaves:
                plan.leaves.append(t)
    for member in plan.tail:
        if cut(member):         # (its value in the graph: an input of the tail's function)
            plan.leaves += [t for t in member.outputs if t not in plan.leaves]
    plan.tail = [member for member in plan.tail if not cut(member)]
    for member in plan.tail:
        reason = _op_reason(member)
        if reason is not None:
            return None, prefix + "the ops after its loop hold " + reason
    reads = [t for part in plan.parts for t in part.variable_reads]
    for part in plan.parts:
        for t in part.inputs:
            if t.op in after and t.dtype.base_dtype.is_floating and t not in part.mids:
                part.mids.append(t)
    gathers = {g: part for part in plan.parts for g in part.arrays.gathers}
    for j, part in enumerate(plan.parts):
        part.mid_ops = head_ops(part.mids, after - set(loops))
        inside = set(part.mid_ops)
        for member in part.mid_ops:
            reason = _op_reason(member)
            if reason is not None:
                return None, prefix + ("a loop's inputs are computed from another's results "
                                       "by " + reason)
            for t in member.inputs:
                if t.op in inside or t in part.mid_leaves:
                    continue
                earlier = [p for p in plan.parts[:j] if t.op is p.loop]
                if t.op in gathers and gathers[t.op] not in plan.parts[:j] or \
                        t.op in loops and not earlier:
                    return None, prefix + "a loop reads a later loop's results"
                if t.op not in gathers and t.op not in loops:
                    if t.op in after and t.dtype.base_dtype.is_floating:
                        return None, prefix + (f"{t.name}, computed after a loop, is not "
                                               "read through its tangent")
                    part.mid_leaves.append(t)
    for t in [t for part in plan.parts for t in part.inputs + part.mid_leaves
              if t not in part.mids] + plan.leaves:
        k = _source(t, xs)
        if k is not None:
            plan.active[t] = k
        elif t.op in region and t not in reads and t.dtype.base_dtype.is_floating and \
                t not in plan.derived:
            plan.derived.append(t)
        if t.dtype.base_dtype in (D.resource, D.variant) or t.dtype._is_ref_dtype:
            return None, prefix + f"its loop reads {t.name} of type {t.dtype.name}"
    plan.head = head_ops(plan.derived, region - after - set(loops))
    for member in plan.head:
        reason = _op_reason(member)
        if reason is not None:
            return None, prefix + ("the loop's inputs are computed from the sources by " +
                                   reason)
    head = set(plan.head)
    for member in plan.head:
        for t in member.inputs:
            if t.op not in head and t not in plan.head_leaves:
                plan.head_leaves.append(t)
                k = _source(t, xs)
                if k is not None:
                    plan.active[t] = k
    return plan, None


def _plan_part(part: LoopPart, tail: List[Operation], upstream: Set[Operation]
               ) -> Tuple[LoopPart, Optional[str]]:
    """The body, condition, arrays and captures of loop `part`, or why not written."""
    info = part.info
    for region_ops, target in ((info.body_region.ops, part.body),
                               (_cond_ops(info), part.cond)):
        for member in region_ops:
            if member.type == "ReadVariableOp" and member.inputs[0].op not in region_ops:
                part.variable_reads[member.outputs[0]] = member.inputs[0]
            elif member.type != "_Arg":
                target.append(member)
    part.arrays, reason = plan_arrays(info, part.body, tail, upstream)
    if reason is not None:
        return part, "its loop holds " + reason
    part.floats = [k for k, t in enumerate(info.body_args)
                   if t.dtype.base_dtype.is_floating and k not in part.arrays.flows]
    part.captures = list(part.variable_reads)
    for region_ops, names in ((part.body, info.body_args), (part.cond, info.cond_args)):
        inside = set(region_ops)
        for member in region_ops:
            for t in _read_inputs(member):
                if t.op not in inside and t not in names and t not in part.captures:
                    part.captures.append(t)
    part.cuts = [t for member in part.body if cut(member) for t in member.outputs]
    for member in part.body + part.cond:
        reason = _op_reason(member)
        if reason is not None:
            return part, "its loop body holds " + reason
    return part, None


def _read_inputs(member: Operation) -> List[Tensor]:
    """The inputs of `member` the tangent loops read: a TensorArray op's handle and
    flows are not (loop_second_order_arrays.py), nor a stack's indices."""
    if member.type == "TensorArrayReadV3":
        return [member.inputs[1]]
    if member.type == "TensorArrayWriteV3":
        return list(member.inputs[1:3])
    if member.type == "TensorArrayGatherV3":
        return []
    return list(member.inputs)


def _cond_ops(info: Any) -> List[Operation]:
    """The ops of the loop condition (those computing `info.pred` from the cond's
    arguments), in creation order."""
    args = set(info.cond_args)
    found: Set[Operation] = set()
    stack = [info.pred.op]
    while stack:
        current = stack.pop()
        if current in found or current._control_flow_context is None or \
                any(t in args for t in current.outputs):
            continue
        found.add(current)
        stack.extend(t.op for t in current.inputs)
    return sorted(found, key=lambda o: o._id)
