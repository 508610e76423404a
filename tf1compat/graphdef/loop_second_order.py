"""A gradient of a gradient through a tf.while_loop in a form real TF runs.

TF cannot differentiate the first-order form (loop_gradient_export.py: a backward loop
calling `SymbolicGradient` of the body's function): TF 2.21 has no function gradient for
While, Switch or Merge, and a SymbolicGradient of a function calling SymbolicGradient
fails ("No gradient defined for op: AddN"; probes in docs/graphs.md). So the second
gradient op treats the first one, `g = d<ys1, dys1>/dx1`, as a construct of its region
(like a loop) whose gradient it writes itself. Given the gradient `u` of g, what it
needs is the gradient of `<g, u>` (u held fixed) with respect to the values g's region
reads from outside ("leaves": the loop's initial values, the tensors its body
captures, the outside inputs of the ops after the loop). And `<g, u>` is the directional
derivative of `<ys1, dys1>` along `u` on the sources x1: a forward-mode product, which
needs no gradient of a gradient:

* a `StatelessWhile` runs the loop again carrying, beside each floating loop variable,
  its tangent (u where the variable's initial value is a source, else zeros; a captured
  source's tangent u enters likewise), the body written op by op with its tangents
  (tangent_lowering.py), and pushes each iteration's variables and tangents on
  TensorLists;
* the ops after the loop are a function returning the tangents of ys1; TF's
  `SymbolicGradient` of it given dys1 is the gradient of `<ys1', dys1>`: with respect
  to the loop's final values and tangents, and to the outside values those ops read;
* a second `StatelessWhile` runs the iterations backwards, pops the pushed values and
  calls `SymbolicGradient` of the body's tangent function (all its ops are ones TF
  differentiates in a function), carrying the gradients of the variables and tangents
  and summing those of the captured tensors. Its results are the gradients of the
  loop's initial values and captures.

The first gradient op itself is written as usual (loop_gradient_export.py; its
`create_graph` no longer matters, as nothing differentiates its TF form), where every
gradient op computed from it takes it so (else both keep tf1compat's form). tf.hessians'
Jacobian form is written row by row by loop_gradient_export.py, each row such a
gradient given a unit vector, sharing this plan's functions. What this
writes: a first gradient op whose region is one top-level loop and ops after it, the
body and those ops of the op types of tangent_lowering.TANGENTS, tf.conds of them (both
branches and Select) and ops computing no floats from floats (the counter; those TF's
function gradients refuse, a FloorMod of it, are pushed and enter the tangent function),
sources that are the loop's initial values, captured tensors (a resource variable the
body reads: read once outside) or outside inputs of the ops after it (or their
Identity/ReadVariableOp). Other regions keep tf1compat's form (warned, the reason naming
the op type).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Set, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.serialization.messages import AttrValue
from tf1compat.graphdef.gradient_export import (TF_DIFFERENTIABLE_OP_TYPES, data_upstream,
                                                forward_reach)
from tf1compat.graphdef.gradient_lowering import LOWERINGS
from tf1compat.graphdef.loop_second_order_arrays import (ArrayPlan, full_reach, head_ops,
                                                         plan_arrays)
from tf1compat.graphdef.tangent_function import TangentFunction
from tf1compat.graphdef.tangent_lowering import TANGENTS

__all__ = ["SecondOrderPlan", "plan_second_order", "holds_loop_gradient",
           "write_second_order", "reach"]

_UNKNOWN = TensorShape(None)
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


def holds_loop_gradient(op: Operation) -> bool:
    """Whether `op` is a gradient op (tf1compat's form) that is differentiated again and
    whose region holds a while loop."""
    if op.type != "SymbolicGradient" or op.attrs.get("f") is not None or \
            not op.attrs.get("create_graph"):
        return False
    return any(o.type == "While" for o in _region(op)[3])


class SecondOrderPlan:
    """What the gradient of first gradient op `op` needs (see the module docstring)."""

    def __init__(self, op: Operation, loop: Operation):
        self.op = op
        self.loop = loop
        self.info = loop.attrs["loop"]
        self.ys, self.xs, self.dys, _ = _region(op)
        self.body: List[Operation] = []       # body ops (not its arguments), in order
        self.cond: List[Operation] = []       # the loop condition's ops
        self.tail: List[Operation] = []       # ops after the loop computing the ys
        self.captures: List[Tensor] = []      # outside tensors the body and cond read
        self.leaves: List[Tensor] = []        # outside tensors the tail reads
        self.active: Dict[Tensor, int] = {}   # a value standing for source k -> k
        # ReadVariableOps of the body (captures: the variable read once outside) -> the
        # resource variable they read
        self.variable_reads: Dict[Tensor, Tensor] = {}
        # outputs of the body's ops TF's function gradients refuse even computing no
        # floats (FloorMod of the counter): pushed, inputs of the tangent function
        self.cuts: List[Tensor] = []
        self.arrays = ArrayPlan()
        # the indices of the floating loop variables (not TensorArray flows)
        self.floats: List[int] = []
        # floating inputs of the loop and of the ops after it computed from the sources
        # by the ops `head` (before the loop), which read the values `head_leaves`
        self.derived: List[Tensor] = []
        self.head: List[Operation] = []
        self.head_leaves: List[Tensor] = []
        self.functions: Optional[Dict[str, AttrValue]] = None    # once written

    @property
    def inits(self) -> List[Tensor]:
        return list(self.loop.inputs[:len(self.info.body_args)])

    def has_tangent(self, t: Tensor) -> bool:
        """Whether the outside value `t` the loops read has a tangent."""
        return t in self.active or t in self.derived


def _source(t: Tensor, xs: List[Tensor]) -> Optional[int]:
    """The index of the source `t` is (or reads through an Identity/ReadVariableOp)."""
    for k, x in enumerate(xs):
        if t is x or (t.op.type in _HEADS and t.op.inputs and t.op.inputs[0] is x):
            return k
    return None


def _cut(member: Operation) -> bool:
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
    if in_branch and _cut(member):
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
    if not _cut(member) and member.type not in TF_DIFFERENTIABLE_OP_TYPES and \
            member.type != "Const":
        return f"op type {member.type} (TF has no function gradient for it)"
    return None


def plan_second_order(op: Operation, reached: Set[Operation]
                      ) -> Tuple[Optional[SecondOrderPlan], Optional[str]]:
    """The plan of the gradient of first gradient op `op` inside a second one (whose
    sources reach the ops `reached`), or why it has none TF runs."""
    ys, xs, dys, _ = _region(op)
    prefix = f"the gradient of {op.name} through a loop is differentiated again: "
    upstream = data_upstream(ys)
    region = full_reach(xs, upstream)
    loops = [o for o in region if o.type == "While"]
    if len(loops) != 1 or loops[0].attrs.get("loop") is None or \
            loops[0]._control_flow_context is not None:
        return None, prefix + "its region holds other than one top-level while loop"
    if any(d.op in reached for d in dys):
        return None, prefix + "its grad_ys are computed from the sources"
    if not all(x.dtype.base_dtype.is_floating or x.dtype.base_dtype == D.resource
               for x in xs):
        return None, prefix + "a source is not floating"
    plan = SecondOrderPlan(op, loops[0])
    info = plan.info
    after = full_reach(list(plan.loop.outputs), upstream)
    plan.tail = sorted(after, key=lambda o: o._id)
    for region_ops, target, names in ((info.body_region.ops, plan.body, info.body_args),
                                      (_cond_ops(info), plan.cond, info.cond_args)):
        for member in region_ops:
            if member.type == "ReadVariableOp" and member.inputs[0].op not in region_ops:
                plan.variable_reads[member.outputs[0]] = member.inputs[0]
            elif member.type != "_Arg":
                target.append(member)
    plan.arrays, reason = plan_arrays(info, plan.body, plan.tail, upstream)
    if reason is not None:
        return None, prefix + "its loop holds " + reason
    plan.floats = [k for k, t in enumerate(info.body_args)
                   if t.dtype.base_dtype.is_floating and k not in plan.arrays.flows]
    plan.captures = list(plan.variable_reads)
    for region_ops, names in ((plan.body, info.body_args), (plan.cond, info.cond_args)):
        inside = set(region_ops)
        for member in region_ops:
            for t in _read_inputs(member):
                if t.op not in inside and t not in names and t not in plan.captures:
                    plan.captures.append(t)
    tail = set(plan.tail)
    for member in plan.tail:
        for t in _read_inputs(member):
            if t.op not in tail and t.op is not plan.loop and t not in plan.leaves:
                plan.leaves.append(t)
    for member in plan.tail:
        if _cut(member):        # (its value in the graph: an input of the tail's function)
            plan.leaves += [t for t in member.outputs if t not in plan.leaves]
    plan.tail = [member for member in plan.tail if not _cut(member)]
    plan.cuts = [t for member in plan.body if _cut(member) for t in member.outputs]
    for member in plan.body + plan.cond + plan.tail:
        reason = _op_reason(member)
        if reason is not None:
            return None, prefix + "its loop body or the ops after it hold " + reason
    inputs = [t for k, t in enumerate(plan.inits) if k not in plan.arrays.flows] + \
        plan.captures + plan.leaves + list(plan.arrays.read_values.values())
    for t in inputs:
        k = _source(t, xs)
        if k is not None:
            plan.active[t] = k
        elif t.op in region and t not in plan.variable_reads and \
                t.dtype.base_dtype.is_floating and t not in plan.derived:
            plan.derived.append(t)
        if t.dtype.base_dtype in (D.resource, D.variant) or t.dtype._is_ref_dtype:
            return None, prefix + f"its loop reads {t.name} of type {t.dtype.name}"
    plan.head = head_ops(plan.derived, region - after - {plan.loop})
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


def _gather(b: Any, params: str, index: str, dtype: Any) -> str:
    return b.add("GatherV2", [params, index, b.const(0, D.int32)], {
        "Tparams": dtype, "Tindices": D.int32, "Taxis": D.int32, "batch_dims": 0})


class _Types:
    """The dtypes of the values the loops of a plan carry and push."""

    def __init__(self, plan: SecondOrderPlan):
        arrays = plan.arrays
        self.vars = [t.dtype.base_dtype for t in plan.info.body_args]
        self.floats = [self.vars[k] for k in plan.floats]
        self.captures = [c.dtype.base_dtype for c in plan.captures]
        self.active = [c for c in plan.captures if plan.has_tangent(c)]
        self.active_types = [c.dtype.base_dtype for c in self.active]
        self.reads = [r.outputs[0].dtype.base_dtype for r in arrays.reads]
        self.writes = [w.inputs[2].dtype.base_dtype for w in arrays.writes]
        # pushed each iteration: the variables, their tangents, the cut values, the
        # values read and their tangents (these the tangent function's inputs), the
        # indices read and written
        self.pushed = self.vars + self.floats + [t.dtype.base_dtype for t in plan.cuts] + \
            [dtype for dtype in self.reads for _ in range(2)] + \
            [D.int32] * (len(self.reads) + len(self.writes))
        self.inputs = len(self.pushed) - len(self.reads) - len(self.writes)
        # the forward loop's variables: the loop's, their tangents, the captures and
        # their tangents, the arrays read and their tangents, the lists of the values
        # written and of their tangents, then the lists of each iteration's values
        self.forward = self.vars + self.floats + self.captures + self.active_types + \
            [dtype for dtype in self.reads for _ in range(2)] + \
            [D.variant] * (2 * len(self.writes) + len(self.pushed))
        self.summed = [c for c in plan.captures if c.dtype.base_dtype.is_floating]
        self.derived = [c for c in self.active if c in plan.derived]
        # the backward loop's: the iterations left, the gradients of the variables and
        # of their tangents, the sums of the captures' and of the derived captures'
        # tangents', those of the arrays read and of their tangents, the lists, the
        # captures and their tangents, the gradients of the arrays written and of their
        # tangents
        self.backward = [D.int32] + self.floats * 2 + \
            [c.dtype.base_dtype for c in self.summed + self.derived] + self.reads * 2 + \
            [D.variant] * len(self.pushed) + self.captures + self.active_types + \
            [dtype for dtype in self.writes for _ in range(2)]


def _tangent_core(fn: TangentFunction, plan: SecondOrderPlan, types: _Types) -> None:
    """Binds the body's arguments: the variables, their tangents, the captures and
    theirs."""
    info = plan.info
    for t in info.body_args:
        fn.bind(t)
    for k in plan.floats:
        fn.tangent[info.body_args[k]] = fn.arg(types.vars[k])
    for c in plan.captures:
        fn.bind(c)
    for c in types.active:
        fn.tangent[c] = fn.arg(c.dtype.base_dtype)


def _write_hook(written: List[Tuple[str, str]], lists: Optional[List[str]] = None):
    """A TensorArrayWriteV3 of the body: its flow passed on, (value, tangent) added to
    `written`; in the forward loop set at its index in the `lists` (values, tangents of
    each written array)."""
    def hook(fn: TangentFunction, member: Operation, names: List[str]) -> None:
        fn.value[member.outputs[0]] = names[3]
        pair = (names[2], fn.tangent_of(member.inputs[2]))
        if lists is not None:
            k = len(written)
            dtype = member.inputs[2].dtype.base_dtype
            for j, item in enumerate(pair):
                lists[2 * k + j] = fn.b.add("TensorListSetItem", [
                    lists[2 * k + j], names[1], item], {"element_dtype": dtype})
        written.append(pair)
    return hook


def _functions(functions: Any, base: str, plan: SecondOrderPlan, types: _Types
               ) -> Dict[str, AttrValue]:
    """The functions of the loops and of the ops before and after them (written once a
    plan: the rows of a Jacobian share them)."""
    info, arrays = plan.info, plan.arrays
    floats = plan.floats
    out: Dict[str, AttrValue] = {}
    # the body's tangent function, which the backward loop differentiates
    written: List[Tuple[str, str]] = []
    tangents = TangentFunction("tangent", {"TensorArrayWriteV3": _write_hook(written)})
    _tangent_core(tangents, plan, types)
    for t in plan.cuts:
        tangents.bind(t)
    for read in arrays.reads:
        tangents.bind(read.outputs[0])
        tangents.tangent[read.outputs[0]] = tangents.arg(read.outputs[0].dtype.base_dtype)
    tangents.write([member for member in plan.body if not _cut(member)])
    nexts = [info.body_outputs[k] for k in floats]
    out["tangents"] = tangents.finish(functions, base + "body_tangents", [
        (tangents.value[t], t.dtype.base_dtype) for t in nexts] + [
        (tangents.tangent_of(t), t.dtype.base_dtype) for t in nexts] + [
        (name, dtype) for pair, dtype in zip(written, types.writes) for name in pair])
    # the forward loop's body and condition
    sources: Dict[Operation, Tuple[str, str]] = {}     # read -> (array, its tangent)

    def read(fn: TangentFunction, member: Operation, names: List[str]) -> None:
        dtype = member.outputs[0].dtype.base_dtype
        array, tangent = sources[member]
        fn.value[member.outputs[0]] = _gather(fn.b, array, names[1], dtype)
        fn.tangent[member.outputs[0]] = _gather(fn.b, tangent, names[1], dtype)
    in_body: List[Tuple[str, str]] = []
    body = TangentFunction("tangent", {"TensorArrayReadV3": read})
    _tangent_core(body, plan, types)
    for member, dtype in zip(arrays.reads, types.reads):
        sources[member] = (body.arg(dtype), body.arg(dtype))
    lists = [body.arg(D.variant) for _ in range(2 * len(arrays.writes))]
    body.hooks["TensorArrayWriteV3"] = _write_hook(in_body, lists)
    stacks = [body.arg(D.variant) for _ in types.pushed]
    body.write(plan.body)
    pushed = [body.value[t] for t in info.body_args] + \
        [body.tangent[info.body_args[k]] for k in floats] + \
        [body.value[t] for t in plan.cuts] + \
        [name for r in arrays.reads for name in (body.value[r.outputs[0]],
                                                 body.tangent[r.outputs[0]])] + \
        [body.value[r.inputs[1]] for r in arrays.reads] + \
        [body.value[w.inputs[1]] for w in arrays.writes]
    pushes = [body.b.add("TensorListPushBack", [handle, value], {"element_dtype": dtype})
              for handle, value, dtype in zip(stacks, pushed, types.pushed)]
    out["body"] = body.finish(functions, base + "forward_body", [
        (body.value[t], dtype) for t, dtype in zip(info.body_outputs, types.vars)] + [
        (body.tangent_of(info.body_outputs[k]), types.vars[k]) for k in floats] + [
        (body.value[c], c.dtype.base_dtype) for c in plan.captures] + [
        (body.tangent[c], c.dtype.base_dtype) for c in types.active] + [
        (name, dtype) for r, dtype in zip(arrays.reads, types.reads)
        for name in sources[r]] + [(item, D.variant) for item in lists] + [
        (p, D.variant) for p in pushes])
    cond = TangentFunction("cond")
    for t, dtype in zip(info.cond_args, types.vars):
        cond.bind(t, dtype)
    for dtype in types.floats:
        cond.arg(dtype)
    for c in plan.captures:
        cond.bind(c)
    for dtype in types.forward[len(types.vars) + len(types.floats) + len(plan.captures):]:
        cond.arg(dtype)
    cond.write(plan.cond)
    out["cond"] = cond.finish(functions, base + "forward_cond",
                              [(cond.value[info.pred], D.bool)])
    # the ops after the loop: the tangents of the ys
    tail = TangentFunction("tangent")
    for t in plan.loop.outputs[:len(types.vars)]:
        tail.bind(t)
    for k in floats:
        tail.tangent[plan.loop.outputs[k]] = tail.arg(types.vars[k])
    for t in plan.leaves:
        tail.bind(t)
    for t in plan.leaves:
        if plan.has_tangent(t):
            tail.tangent[t] = tail.arg(t.dtype.base_dtype)
    for gather in arrays.gathers:
        tail.bind(gather.outputs[0])
        tail.tangent[gather.outputs[0]] = tail.arg(gather.outputs[0].dtype.base_dtype)
    tail.write(plan.tail)
    out["tail"] = tail.finish(functions, base + "after_loop_tangents", [
        (tail.tangent_of(y), y.dtype.base_dtype) for y in plan.ys])
    if plan.head:
        head = TangentFunction("tangent")
        for t in plan.head_leaves:
            head.bind(t)
        for t in plan.head_leaves:
            if t in plan.active:
                head.tangent[t] = head.arg(t.dtype.base_dtype)
        head.write(plan.head)
        out["head"] = head.finish(functions, base + "before_loop_tangents", [
            (head.tangent_of(t), t.dtype.base_dtype) for t in plan.derived])
    out["backward_cond"], out["backward_body"] = _backward_functions(
        functions, base, out["tangents"], types, plan)
    return out


def write_second_order(w: Any, plan: SecondOrderPlan, output_grads: List[str]
                       ) -> List[Tuple[Tensor, str]]:
    """Writes, through `w` (loop_gradient_export's writer), the gradient of the first
    gradient op of `plan` given the gradients `output_grads` of its outputs (one per
    source); returns (leaf tensor, its gradient) for the floating leaves."""
    base = w.writer._strip(w.writer.unique(f"{w.prefix}/{plan.op.name}_second_order")) + "/"
    types = _Types(plan)
    arrays = plan.arrays
    if plan.functions is None:
        plan.functions = _functions(w.writer.functions, base, plan, types)
    funcs = plan.functions
    n, floats = len(types.vars), plan.floats
    m = len(floats)
    minus_one = w._const(base + "element_shape", -1, D.int32)
    outer = {c: w._node(base + "read", "ReadVariableOp", [w._name(handle)],
                        {"dtype": c.dtype.base_dtype}, [c.shape])
             for c, handle in plan.variable_reads.items()}

    def value(t: Tensor) -> str:
        return outer[t] if t in outer else w._name(t)
    head_inputs = [w._name(t) for t in plan.head_leaves] + \
        [output_grads[plan.active[t]] for t in plan.head_leaves if t in plan.active]
    head_types = [t.dtype.base_dtype for t in plan.head_leaves] + \
        [t.dtype.base_dtype for t in plan.head_leaves if t in plan.active]
    if plan.head:
        head = w._node(base + "before_loop", "PartitionedCall", head_inputs, {
            "Tin": head_types, "Tout": [t.dtype.base_dtype for t in plan.derived]},
            [t.shape for t in plan.derived])
        w.writer.nodes[-1].attr["f"].CopyFrom(funcs["head"])

    def tangent_init(t: Tensor) -> str:
        if t in plan.active:
            return output_grads[plan.active[t]]
        if t in plan.derived:
            return f"{head}:{plan.derived.index(t)}"
        return w._node(base + "zeros", "ZerosLike", [value(t)],
                       {"T": t.dtype.base_dtype}, [t.shape])

    def zeros(t: Tensor) -> str:
        return w._node(base + "zeros", "ZerosLike", [value(t)], {"T": t.dtype.base_dtype},
                       [t.shape])
    read_values = [arrays.read_values[r] for r in arrays.reads]
    # the loop again, with tangents
    inits = [w._name(t) for t in plan.inits] + \
        [tangent_init(plan.inits[k]) for k in floats] + \
        [value(c) for c in plan.captures] + [tangent_init(c) for c in types.active] + \
        [name for t in read_values for name in (w._name(t), tangent_init(t))]
    for write, dtype in zip(arrays.writes, types.writes):
        shape = write.inputs[2].shape
        element = w._const(base + "element_shape", shape.as_list(), D.int32) \
            if shape.is_fully_defined() else minus_one
        inits += [w._node(base + "TensorListReserve", "TensorListReserve",
                          [element, w._name(arrays.size(write))],
                          {"element_dtype": dtype, "shape_type": D.int32},
                          [TensorShape([])]) for _ in range(2)]
    inits += [w._node(base + "EmptyTensorList", "EmptyTensorList", [minus_one, minus_one],
                      {"element_dtype": dtype, "shape_type": D.int32}, [TensorShape([])])
              for dtype in types.pushed]
    forward = _while(w, base + "forward", inits, types.forward, funcs["cond"],
                     funcs["body"])
    first_list = len(types.forward) - len(types.pushed)
    first_written = first_list - 2 * len(arrays.writes)
    stacks = [w._node(base + "stack", "TensorListStack", [
        f"{forward}:{first_written + j}", minus_one], {"element_dtype": dtype,
                                                        "num_elements": -1}, [_UNKNOWN])
              for j, dtype in enumerate(t for t in types.writes for _ in range(2))]
    # the gradient of the ys' tangents given grad_ys
    tail_active = [t for t in plan.leaves if plan.has_tangent(t)]
    gathers = list(arrays.gathers)
    tail_inputs = [f"{forward}:{k}" for k in range(n + m)] + \
        [w._name(t) for t in plan.leaves] + [tangent_init(t) for t in tail_active] + \
        [stacks[2 * arrays.writes.index(arrays.gathers[g]) + j] for g in gathers
         for j in range(2)]
    tail_types = types.vars + types.floats + [t.dtype.base_dtype for t in plan.leaves] + \
        [t.dtype.base_dtype for t in tail_active] + \
        [g.outputs[0].dtype.base_dtype for g in gathers for _ in range(2)]
    tail_grad = w._gradient_node(base + "after_loop_grad", funcs["tail"], tail_inputs,
                                 tail_types, [w._name(d) for d in plan.dys],
                                 [y.dtype.base_dtype for y in plan.ys],
                                 [_UNKNOWN] * len(tail_inputs))
    found = [(t, f"{tail_grad}:{n + m + j}") for j, t in enumerate(plan.leaves)
             if t.dtype.base_dtype.is_floating]
    tangent_grads: Dict[Tensor, List[str]] = {}
    for j, t in enumerate(tail_active):
        tangent_grads.setdefault(t, []).append(f"{tail_grad}:{n + m + len(plan.leaves) + j}")
    first_gather = n + m + len(plan.leaves) + len(tail_active)
    written_grads = []
    for j, write in enumerate(arrays.writes):
        if write in arrays.gathers.values():
            k = first_gather + 2 * [arrays.gathers[g] for g in gathers].index(write)
            written_grads += [f"{tail_grad}:{k}", f"{tail_grad}:{k + 1}"]
        else:
            written_grads += [w._node(base + "zeros", "ZerosLike", [stacks[2 * j + i]],
                                      {"T": types.writes[j]}, [_UNKNOWN]) for i in range(2)]
    # the backward loop
    count = w._node(base + "count", "TensorListLength", [f"{forward}:{first_list}"], {},
                    [TensorShape([])])
    bw_inits = [count] + [f"{tail_grad}:{k}" for k in floats] + \
        [f"{tail_grad}:{n + j}" for j in range(m)] + \
        [zeros(c) for c in types.summed + types.derived] + \
        [zeros(t) for t in read_values * 2] + \
        [f"{forward}:{first_list + j}" for j in range(len(types.pushed))] + \
        [value(c) for c in plan.captures] + [tangent_init(c) for c in types.active] + \
        written_grads
    backward = _while(w, base + "backward", bw_inits, types.backward,
                      funcs["backward_cond"], funcs["backward_body"])
    found += [(plan.inits[k], f"{backward}:{1 + j}") for j, k in enumerate(floats)]
    for j, k in enumerate(floats):
        tangent_grads.setdefault(plan.inits[k], []).append(f"{backward}:{1 + m + j}")
    at = 1 + 2 * m
    found += [(plan.variable_reads.get(c, c), f"{backward}:{at + j}")
              for j, c in enumerate(types.summed)]
    at += len(types.summed)
    for j, c in enumerate(types.derived):
        tangent_grads.setdefault(c, []).append(f"{backward}:{at + j}")
    at += len(types.derived)
    found += [(t, f"{backward}:{at + j}") for j, t in enumerate(read_values)]
    for j, t in enumerate(read_values):
        tangent_grads.setdefault(t, []).append(f"{backward}:{at + len(read_values) + j}")
    if plan.head:
        dys = [w._total(base + "derived_grad", tangent_grads.get(t, []), t)
               for t in plan.derived]
        head_grad = w._gradient_node(base + "before_loop_grad", funcs["head"], head_inputs,
                                     head_types, dys,
                                     [t.dtype.base_dtype for t in plan.derived],
                                     [_UNKNOWN] * len(head_inputs))
        found += [(t, f"{head_grad}:{j}") for j, t in enumerate(plan.head_leaves)
                  if t.dtype.base_dtype.is_floating]
    return found


def _while(w: Any, base: str, inputs: List[str], types: List[Any], cond: AttrValue,
           body: AttrValue) -> str:
    name = w._node(base, "StatelessWhile", inputs, {"T": types, "parallel_iterations": 10},
                   [_UNKNOWN] * len(types))
    node = w.writer.nodes[-1]
    node.attr["cond"].CopyFrom(cond)
    node.attr["body"].CopyFrom(body)
    return name


def _backward_functions(functions: Any, base: str, func_k: AttrValue, types: _Types,
                        plan: SecondOrderPlan) -> Tuple[AttrValue, AttrValue]:
    """The condition (iterations left) and body of the backward loop: pops an
    iteration's values and runs the gradient of the body's tangent function."""
    cond = TangentFunction("cond")
    args = [cond.arg(dtype) for dtype in types.backward]
    greater = cond.b.add("Greater", [args[0], cond.b.const(0, D.int32)], {"T": D.int32})
    func_cond = cond.finish(functions, base + "backward_cond", [(greater, D.bool)])
    body = TangentFunction("grad")
    b = body.b
    args = [body.arg(dtype) for dtype in types.backward]
    floats, pushed_types, float_types = plan.floats, types.pushed, types.floats
    m, n = len(floats), len(types.vars)
    nsums, nreads = len(types.summed) + len(types.derived), len(types.reads)
    first_list = 1 + 2 * m + nsums + 2 * nreads
    lists = args[first_list:first_list + len(pushed_types)]
    rest = args[first_list + len(pushed_types):]
    captures = rest[:len(plan.captures) + len(types.active)]
    written = rest[len(captures):]
    shape = b.const(-1, D.int32)
    popped, handles = [], []
    for handle, dtype in zip(lists, pushed_types):
        pop = b.add("TensorListPopBack", [handle, shape], {"element_dtype": dtype})
        handles.append(pop)
        popped.append(pop.replace(":output_handle:0", ":tensor:0"))
    # (the tangent function's inputs: the variables, their tangents, the captures and
    # theirs, the cut values and the values read and their tangents)
    k_inputs = popped[:n + m] + captures + popped[n + m:types.inputs]
    k_types = pushed_types[:n + m] + [c.dtype.base_dtype for c in plan.captures] + \
        types.active_types + pushed_types[n + m:types.inputs]
    read_at, write_at = types.inputs, types.inputs + nreads
    dys = args[1:1 + 2 * m] + [
        _gather(b, written[2 * j + i], popped[write_at + j], dtype)
        for j, dtype in enumerate(types.writes) for i in range(2)]
    grad = b.add("SymbolicGradient", k_inputs + dys, {
        "Tin": k_types + float_types * 2 + [t for t in types.writes for _ in range(2)],
        "Tout": k_types})
    node = b.nodes[-1]
    node.attr["f"].CopyFrom(func_k)
    grad = grad.rsplit(":", 2)[0]
    nexts = [b.add("Sub", [args[0], b.const(1, D.int32)], {"T": D.int32})]
    nexts += [f"{grad}:output:{k}" for k in floats]
    nexts += [f"{grad}:output:{n + j}" for j in range(m)]
    first_capture = n + m
    sums = [(c, first_capture + plan.captures.index(c)) for c in types.summed] + \
        [(c, first_capture + len(plan.captures) + types.active.index(c))
         for c in types.derived]
    for j, (c, index) in enumerate(sums):
        nexts.append(b.add("AddV2", [args[1 + 2 * m + j], f"{grad}:output:{index}"],
                           {"T": c.dtype.base_dtype}))
    first_read = first_capture + len(captures) + len(plan.cuts)
    for i in range(2):          # the values read, then their tangents
        for j, dtype in enumerate(types.reads):
            at = b.add("Reshape", [popped[read_at + j], b.const([1, 1], D.int32)],
                       {"T": D.int32, "Tshape": D.int32})
            update = b.add("ExpandDims", [f"{grad}:output:{first_read + 2 * j + i}",
                                          b.const(0, D.int32)], {"T": dtype, "Tdim": D.int32})
            nexts.append(b.add("TensorScatterAdd", [
                args[1 + 2 * m + nsums + i * nreads + j], at, update],
                {"T": dtype, "Tindices": D.int32}))
    nexts += handles + rest
    func_body = body.finish(functions, base + "backward_body",
                            list(zip(nexts, types.backward)))
    return func_cond, func_body
