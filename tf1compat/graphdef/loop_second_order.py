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

A region without a loop (a WGAN-GP critic's gradient penalty, d²/dx² of a network,
`tf.hessians`: TF 1.x differentiates its op-by-op gradient, TF's function gradients a
SymbolicGradient of it not at all) is the last part alone: the whole region as the
function returning the tangents of ys1 along the sources' tangents u, whose
`SymbolicGradient` given dys1 is the gradient of the leaves.

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
from tf1compat.serialization.messages import AttrValue, FunctionDef, NameAttrList
from tf1compat.graphdef.function_export import output_arg
from tf1compat.graphdef.function_nodes import NodeBuilder
from tf1compat.graphdef.gradient_export import (TF_DIFFERENTIABLE_OP_TYPES, data_upstream,
                                                forward_reach, lower_op)
from tf1compat.graphdef.gradient_lowering import LOWERINGS
from tf1compat.graphdef.graph_io import op_to_node_def
from tf1compat.graphdef.tangent_lowering import TANGENTS, zeros_of

__all__ = ["SecondOrderPlan", "plan_second_order", "differentiated_gradient",
           "write_second_order", "reach"]

_UNKNOWN = TensorShape(None)
_HEADS = ("Identity", "ReadVariableOp")   # a source's value as the loop reads it


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
    construct of the regions of the gradient ops computed from it."""
    return op.type == "SymbolicGradient" and op.attrs.get("f") is None and \
        bool(op.attrs.get("create_graph"))


class SecondOrderPlan:
    """What the gradient of first gradient op `op` needs (see the module docstring)."""

    def __init__(self, op: Operation, loop: Optional[Operation]):
        self.op = op
        self.loop = loop                      # None: a region without a loop
        self.info = loop.attrs["loop"] if loop is not None else None
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
        self.functions: Optional[Dict[str, AttrValue]] = None    # once written

    @property
    def inits(self) -> List[Tensor]:
        return list(self.loop.inputs[:len(self.info.body_args)])

    @property
    def floats(self) -> List[int]:
        """The indices of the floating loop variables."""
        return [k for k, t in enumerate(self.info.body_args) if t.dtype.base_dtype.is_floating]


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
    ys, xs, dys, region = _region(op)
    loops = [o for o in region if o.type == "While"]
    through = " through a loop" if loops else ""
    prefix = f"the gradient of {op.name}{through} is differentiated again: "
    if len(loops) > 1 or loops and (loops[0].attrs.get("loop") is None or
                                    loops[0]._control_flow_context is not None):
        return None, prefix + "its region holds other than one top-level while loop"
    arrays = sorted({o.type for o in data_upstream(ys) if "TensorArray" in o.type and
                     any(t.op in region or t in xs for t in o.inputs)})
    if arrays:
        return None, prefix + ("its region holds TensorArrays (dynamic_rnn, tf.scan, "
                               f"tf.map_fn: {', '.join(arrays)})")
    if any(d.op in reached for d in dys):
        return None, prefix + "its grad_ys are computed from the sources"
    if not all(x.dtype.base_dtype.is_floating or x.dtype.base_dtype == D.resource
               for x in xs):
        return None, prefix + "a source is not floating"
    plan = SecondOrderPlan(op, loops[0] if loops else None)
    info = plan.info
    # (without a loop, the whole region but the sources' reads)
    after = forward_reach(list(plan.loop.outputs)) if loops else {
        o for o in region if o.type not in _HEADS or _source(o.outputs[0], xs) is None}
    for member in sorted(region - {plan.loop}, key=lambda o: o._id):
        if member in after:
            plan.tail.append(member)
        elif member.type not in _HEADS or _source(member.outputs[0], xs) is None:
            return None, prefix + (f"the loop's inputs are computed from the sources by "
                                   f"op type {member.type}")
    for region_ops, target, names in ((info.body_region.ops, plan.body, info.body_args),
                                      (_cond_ops(info), plan.cond, info.cond_args)
                                      ) if info is not None else ():
        inside = set(region_ops)
        for member in region_ops:
            if member.type == "_Arg":
                continue
            if member.type == "ReadVariableOp" and member.inputs[0].op not in inside:
                plan.variable_reads[member.outputs[0]] = member.inputs[0]
                plan.captures.append(member.outputs[0])
                continue
            target.append(member)
            for t in member.inputs:
                if t.op not in inside and t not in names and t not in plan.captures:
                    plan.captures.append(t)
    tail = set(plan.tail)
    for member in plan.tail:
        for t in member.inputs:
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
    for t in (plan.inits if info is not None else []) + plan.captures + plan.leaves:
        k = _source(t, xs)
        if k is not None:
            plan.active[t] = k
        elif t.op in region and t not in plan.variable_reads:
            return None, prefix + f"{t.name} is computed from the sources"
        if t.dtype.base_dtype in (D.resource, D.variant) or t.dtype._is_ref_dtype:
            return None, prefix + f"its region reads {t.name} of type {t.dtype.name}"
    return plan, None


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


class _Function:
    """The NodeDefs of one function written here: the forward ops of the loop (or of the
    ops after it) with their tangents."""

    def __init__(self, prefix: str):
        self.fdef = FunctionDef()
        self.b = NodeBuilder(prefix)
        self.value: Dict[Tensor, str] = {}
        self.tangent: Dict[Tensor, Optional[str]] = {}

    def arg(self, dtype: Any) -> str:
        name = f"arg_{len(self.fdef.signature.input_arg)}"
        self.fdef.signature.input_arg.add(name=name, type=dtype.as_datatype_enum)
        return name

    def bind(self, t: Tensor, dtype: Any = None) -> str:
        self.value[t] = self.arg(dtype or t.dtype.base_dtype)
        return self.value[t]

    def write(self, ops: List[Operation]) -> None:
        """Writes `ops` and the tangents of their floating outputs."""
        for member in ops:
            if member.type == "If":
                self._cond(member)
                continue
            names = [self.value[t] for t in member.inputs]
            lowered = lower_op(member, names)
            if lowered is not None:
                self.b.nodes.extend(lowered[0])
                outs = lowered[1]
            else:
                node = op_to_node_def(member, clear_devices=True)
                del node.input[:]
                node.input.extend(names)
                self.b.nodes.append(node)
                outs = [f"{member.name}:{output_arg(member, k)}"
                        for k in range(len(member.outputs))]
            self.value.update(zip(member.outputs, outs))
            dx = [self.tangent.get(t) for t in member.inputs]
            if member.type in TANGENTS and any(d is not None for d in dx):
                tangents = TANGENTS[member.type](member, names, dx, outs, self.b)
                self.tangent.update(zip(member.outputs, tangents))

    def _cond(self, cond: Operation) -> None:
        """A tf.cond as both branches (their ops and tangents) and a Select of each
        output and of its tangent on the predicate (TF's function gradient of Select
        passes a branch zeros where it is not taken)."""
        pred = self.value[cond.inputs[0]]
        sides = []
        for key in ("then_branch", "else_branch"):
            branch = cond.attrs[key]
            self.write(list(branch.region.ops))
            sides.append(branch.outputs)
        for t, then_out, else_out in zip(cond.outputs, *sides):
            dtype = t.dtype.base_dtype
            self.value[t] = self.b.add("Select", [pred, self.value[then_out],
                                                  self.value[else_out]], {"T": dtype})
            if self.tangent.get(then_out) is None and self.tangent.get(else_out) is None:
                continue
            self.tangent[t] = self.b.add("Select", [pred, self.tangent_of(then_out),
                                                    self.tangent_of(else_out)], {"T": dtype})

    def tangent_of(self, t: Tensor) -> str:
        found = self.tangent.get(t)
        return found if found is not None else zeros_of(self.value[t], t.dtype.base_dtype,
                                                        self.b)

    def finish(self, functions: Any, name: str, outputs: List[Tuple[str, Any]]
               ) -> AttrValue:
        """Adds the function (results `outputs`: (value, dtype)) to the library."""
        fname = functions._unique(name.replace("/", "_"))
        self.fdef.signature.name = fname
        self.fdef.node_def.extend(self.b.nodes)
        for k, (value, dtype) in enumerate(outputs):
            self.fdef.signature.output_arg.add(name=f"output_{k}",
                                               type=dtype.as_datatype_enum)
            self.fdef.ret[f"output_{k}"] = value
        functions.library.function.append(self.fdef)
        return AttrValue(func=NameAttrList(name=fname))


class _Types:
    """The dtypes of the values the loops of a plan carry and push."""

    def __init__(self, plan: SecondOrderPlan):
        self.vars = [t.dtype.base_dtype for t in plan.info.body_args]
        self.floats = [self.vars[k] for k in plan.floats]
        self.captures = [c.dtype.base_dtype for c in plan.captures]
        self.active = [c for c in plan.captures if c in plan.active]
        self.active_types = [c.dtype.base_dtype for c in self.active]
        # pushed each iteration: the variables, their tangents, the cut values
        self.pushed = self.vars + self.floats + [t.dtype.base_dtype for t in plan.cuts]
        # the forward loop's variables: the loop's, their tangents, the captures and
        # their tangents, then the lists of each iteration's values
        self.forward = self.vars + self.floats + self.captures + self.active_types + \
            [D.variant] * len(self.pushed)
        self.summed = [c for c in plan.captures if c.dtype.base_dtype.is_floating]
        # the backward loop's: the iterations left, the gradients of the variables and
        # of their tangents, the sums of the captures', the lists, the captures and
        # their tangents
        self.backward = [D.int32] + self.floats * 2 + [c.dtype.base_dtype for c in
                                                       self.summed] + \
            [D.variant] * len(self.pushed) + self.captures + self.active_types


def _functions(functions: Any, base: str, plan: SecondOrderPlan, types: _Types
               ) -> Dict[str, AttrValue]:
    """The functions of the loops and of the ops after them (written once a plan: the
    rows of a Jacobian share them)."""
    info = plan.info
    floats = plan.floats

    def core(fn: _Function) -> None:
        """Binds the body's arguments: the variables, their tangents, the captures and
        theirs."""
        for t in info.body_args:
            fn.bind(t)
        for k in floats:
            fn.tangent[info.body_args[k]] = fn.arg(types.vars[k])
        for c in plan.captures:
            fn.bind(c)
        for c in types.active:
            fn.tangent[c] = fn.arg(c.dtype.base_dtype)
    out: Dict[str, AttrValue] = {}
    # the body's tangent function, which the backward loop differentiates
    tangents = _Function("tangent")
    core(tangents)
    for t in plan.cuts:
        tangents.bind(t)
    tangents.write([member for member in plan.body if not _cut(member)])
    nexts = [info.body_outputs[k] for k in floats]
    out["tangents"] = tangents.finish(functions, base + "body_tangents", [
        (tangents.value[t], t.dtype.base_dtype) for t in nexts] + [
        (tangents.tangent_of(t), t.dtype.base_dtype) for t in nexts])
    # the forward loop's body and condition
    body = _Function("tangent")
    core(body)
    lists = [body.arg(D.variant) for _ in types.pushed]
    body.write(plan.body)
    pushed = [body.value[t] for t in info.body_args] + \
        [body.tangent[info.body_args[k]] for k in floats] + [body.value[t] for t in plan.cuts]
    pushes = [body.b.add("TensorListPushBack", [handle, value], {"element_dtype": dtype})
              for handle, value, dtype in zip(lists, pushed, types.pushed)]
    out["body"] = body.finish(functions, base + "forward_body", [
        (body.value[t], dtype) for t, dtype in zip(info.body_outputs, types.vars)] + [
        (body.tangent_of(info.body_outputs[k]), types.vars[k]) for k in floats] + [
        (body.value[c], c.dtype.base_dtype) for c in plan.captures] + [
        (body.tangent[c], c.dtype.base_dtype) for c in types.active] + [
        (p, D.variant) for p in pushes])
    cond = _Function("cond")
    for t, dtype in zip(info.cond_args, types.vars):
        cond.bind(t, dtype)
    for dtype in types.floats:
        cond.arg(dtype)
    for c in plan.captures:
        cond.bind(c)
    for dtype in types.active_types + [D.variant] * len(types.pushed):
        cond.arg(dtype)
    cond.write(plan.cond)
    out["cond"] = cond.finish(functions, base + "forward_cond",
                              [(cond.value[info.pred], D.bool)])
    out["tail"] = _tail_function(functions, base, plan)
    out["backward_cond"], out["backward_body"] = _backward_functions(
        functions, base, out["tangents"], types, plan)
    return out


def write_second_order(w: Any, plan: SecondOrderPlan, output_grads: List[str]
                       ) -> List[Tuple[Tensor, str]]:
    """Writes, through `w` (loop_gradient_export's writer), the gradient of the first
    gradient op of `plan` given the gradients `output_grads` of its outputs (one per
    source); returns (leaf tensor, its gradient) for the floating leaves."""
    base = w.writer._strip(w.writer.unique(f"{w.prefix}/{plan.op.name}_second_order")) + "/"
    if plan.loop is None:
        return _write_without_loop(w, base, plan, output_grads)
    types = _Types(plan)
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

    def tangent_init(t: Tensor) -> str:
        if t in plan.active:
            return output_grads[plan.active[t]]
        return w._node(base + "zeros", "ZerosLike", [value(t)],
                       {"T": t.dtype.base_dtype}, [t.shape])
    # the loop again, with tangents
    inits = [w._name(t) for t in plan.inits] + \
        [tangent_init(plan.inits[k]) for k in floats] + \
        [value(c) for c in plan.captures] + [tangent_init(c) for c in types.active] + \
        [w._node(base + "EmptyTensorList", "EmptyTensorList", [minus_one, minus_one],
                 {"element_dtype": dtype, "shape_type": D.int32}, [TensorShape([])])
         for dtype in types.pushed]
    forward = _while(w, base + "forward", inits, types.forward, funcs["cond"],
                     funcs["body"])
    first_list = len(types.forward) - len(types.pushed)
    # the gradient of the ys' tangents given grad_ys
    tail_active = [t for t in plan.leaves if t in plan.active]
    tail_inputs = [f"{forward}:{k}" for k in range(n + m)] + \
        [w._name(t) for t in plan.leaves] + [tangent_init(t) for t in tail_active]
    tail_types = types.vars + types.floats + [t.dtype.base_dtype for t in plan.leaves] + \
        [t.dtype.base_dtype for t in tail_active]
    tail_grad = w._gradient_node(base + "after_loop_grad", funcs["tail"], tail_inputs,
                                 tail_types, [w._name(d) for d in plan.dys],
                                 [y.dtype.base_dtype for y in plan.ys],
                                 [_UNKNOWN] * len(tail_inputs))
    found = [(t, f"{tail_grad}:{n + m + j}") for j, t in enumerate(plan.leaves)
             if t.dtype.base_dtype.is_floating]
    # the backward loop
    count = w._node(base + "count", "TensorListLength", [f"{forward}:{first_list}"], {},
                    [TensorShape([])])
    bw_inits = [count] + [f"{tail_grad}:{k}" for k in floats] + \
        [f"{tail_grad}:{n + j}" for j in range(m)] + \
        [w._node(base + "zeros", "ZerosLike", [value(c)], {"T": c.dtype.base_dtype},
                 [c.shape]) for c in types.summed] + \
        [f"{forward}:{first_list + j}" for j in range(len(types.pushed))] + \
        [value(c) for c in plan.captures] + [tangent_init(c) for c in types.active]
    backward = _while(w, base + "backward", bw_inits, types.backward,
                      funcs["backward_cond"], funcs["backward_body"])
    found += [(plan.inits[k], f"{backward}:{1 + j}") for j, k in enumerate(floats)]
    found += [(plan.variable_reads.get(c, c), f"{backward}:{1 + 2 * m + j}")
              for j, c in enumerate(types.summed)]
    return found


def _tail_function(functions: Any, base: str, plan: SecondOrderPlan) -> AttrValue:
    """The ops after the loop (without a loop: the whole region) as a function of the
    loop's results and their tangents, the leaves and the active leaves' tangents,
    returning the tangents of the ys."""
    tail = _Function("tangent")
    if plan.loop is not None:
        carried = [t.dtype.base_dtype for t in plan.info.body_args]
        for t in plan.loop.outputs[:len(carried)]:
            tail.bind(t)
        for k in plan.floats:
            tail.tangent[plan.loop.outputs[k]] = tail.arg(carried[k])
    for t in plan.leaves:
        tail.bind(t)
    for t in plan.leaves:
        if t in plan.active:
            tail.tangent[t] = tail.arg(t.dtype.base_dtype)
    tail.write(plan.tail)
    name = "after_loop_tangents" if plan.loop is not None else "tangents"
    return tail.finish(functions, base + name,
                       [(tail.tangent_of(y), y.dtype.base_dtype) for y in plan.ys])


def _write_without_loop(w: Any, base: str, plan: SecondOrderPlan, output_grads: List[str]
                        ) -> List[Tuple[Tensor, str]]:
    """write_second_order for a region without a loop: TF's gradient of the tangent
    function given grad_ys, the tangents of the sources their gradients `output_grads`."""
    if plan.functions is None:
        plan.functions = {"tail": _tail_function(w.writer.functions, base, plan)}
    active = [t for t in plan.leaves if t in plan.active]
    inputs = [w._name(t) for t in plan.leaves] + [output_grads[plan.active[t]] for t in active]
    grad = w._gradient_node(base + "tangents_grad", plan.functions["tail"], inputs,
                            [t.dtype.base_dtype for t in plan.leaves + active],
                            [w._name(d) for d in plan.dys],
                            [y.dtype.base_dtype for y in plan.ys], [_UNKNOWN] * len(inputs))
    return [(t, f"{grad}:{j}") for j, t in enumerate(plan.leaves)
            if t.dtype.base_dtype.is_floating]


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
    cond = _Function("cond")
    args = [cond.arg(dtype) for dtype in types.backward]
    greater = cond.b.add("Greater", [args[0], cond.b.const(0, D.int32)], {"T": D.int32})
    func_cond = cond.finish(functions, base + "backward_cond", [(greater, D.bool)])
    body = _Function("grad")
    b = body.b
    args = [body.arg(dtype) for dtype in types.backward]
    floats, pushed_types, float_types = plan.floats, types.pushed, types.floats
    m, n = len(floats), len(types.vars)
    first_list = 1 + 2 * m + len(types.summed)
    lists = args[first_list:first_list + len(pushed_types)]
    rest = args[first_list + len(pushed_types):]
    shape = b.const(-1, D.int32)
    popped, handles = [], []
    for handle, dtype in zip(lists, pushed_types):
        pop = b.add("TensorListPopBack", [handle, shape], {"element_dtype": dtype})
        handles.append(pop)
        popped.append(pop.replace(":output_handle:0", ":tensor:0"))
    # (the tangent function's inputs: the variables, their tangents, the captures and
    # theirs, the cut values)
    k_inputs = popped[:n + m] + rest + popped[n + m:]
    k_types = pushed_types[:n + m] + [c.dtype.base_dtype for c in plan.captures] + \
        types.active_types + pushed_types[n + m:]
    grad = b.add("SymbolicGradient", k_inputs + args[1:1 + 2 * m], {
        "Tin": k_types + float_types * 2, "Tout": k_types})
    node = b.nodes[-1]
    node.attr["f"].CopyFrom(func_k)
    grad = grad.rsplit(":", 2)[0]
    nexts = [b.add("Sub", [args[0], b.const(1, D.int32)], {"T": D.int32})]
    nexts += [f"{grad}:output:{k}" for k in floats]
    nexts += [f"{grad}:output:{n + j}" for j in range(m)]
    first_capture = n + m
    for j, c in enumerate(types.summed):
        index = first_capture + plan.captures.index(c)
        nexts.append(b.add("AddV2", [args[1 + 2 * m + j], f"{grad}:output:{index}"],
                           {"T": c.dtype.base_dtype}))
    nexts += handles + rest
    func_body = body.finish(functions, base + "backward_body",
                            list(zip(nexts, types.backward)))
    return func_cond, func_body
