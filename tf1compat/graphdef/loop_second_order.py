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

* a `StatelessWhile` runs each loop again carrying, beside each floating loop
  variable, its tangent (u where the variable's initial value is a source, else
  zeros; a captured source's tangent u enters likewise), the body written op by op
  with its tangents (tangent_lowering.py, tangent_function.py), and pushes each
  iteration's variables and tangents on TensorLists (TensorArrays the loop reads and
  writes, dynamic_rnn's: loop_second_order_arrays.py);
* the ops before the loops computing their floating inputs from the sources (a
  transpose, a reversal) are a function returning those inputs' tangents, called
  (`PartitionedCall`) where the tangents enter and differentiated by `SymbolicGradient`;
* the ops after the loops are a function returning the tangents of ys1; TF's
  `SymbolicGradient` of it given dys1 is the gradient of `<ys1', dys1>`: with respect
  to the loops' final values and tangents, and to the outside values those ops read;
* a second `StatelessWhile` per loop runs its iterations backwards, pops the pushed
  values and calls `SymbolicGradient` of the body's tangent function (all its ops are
  ones TF differentiates in a function), carrying the gradients of the variables and
  tangents and summing those of the captured tensors. Its results are the gradients
  of the loop's initial values and captures.

The first gradient op itself is written as usual (loop_gradient_export.py; its
`create_graph` no longer matters, as nothing differentiates its TF form), where every
gradient op computed from it takes it so (else both keep tf1compat's form). tf.hessians'
Jacobian form is written row by row by loop_gradient_export.py, each row such a
gradient given a unit vector, sharing this plan's functions. What this writes
(loop_second_order_plan.py decides): a first gradient op whose region holds top-level
loops (one's inputs computed from earlier loops' results by a function of those and
their tangents between them, "mid"), ops before and after them, the bodies and
those ops of the op types of tangent_lowering.TANGENTS, tf.conds of them (both branches
and Select), TensorArrays unstacked before a loop, read in it, written once per
iteration and stacked after it, and ops computing no floats from floats (the counter;
those TF's function gradients refuse, a FloorMod of it, are pushed and enter the
tangent function). Other regions keep tf1compat's form (warned, the reason naming the
op type or the case).

A region without a loop (a WGAN-GP critic's gradient penalty, d²/dx² of a network,
`tf.hessians`) is the tail alone: TF's SymbolicGradient of the whole region's tangent
function given dys1 (TF cannot differentiate the first gradient's own SymbolicGradient).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.serialization.messages import AttrValue
from tf1compat.graphdef.loop_second_order_plan import (LoopPart, SecondOrderPlan, cut,
                                                       differentiated_gradient,
                                                       plan_second_order, reach)
from tf1compat.graphdef.tangent_function import TangentFunction

__all__ = ["SecondOrderPlan", "plan_second_order", "differentiated_gradient",
           "write_second_order", "reach"]

_UNKNOWN = TensorShape(None)


def _gather(b: Any, params: str, index: str, dtype: Any) -> str:
    return b.add("GatherV2", [params, index, b.const(0, D.int32)], {
        "Tparams": dtype, "Tindices": D.int32, "Taxis": D.int32, "batch_dims": 0})


class _Types:
    """The dtypes of the values the loops of a plan carry and push."""

    def __init__(self, part: LoopPart, plan: SecondOrderPlan):
        arrays = part.arrays
        self.vars = [t.dtype.base_dtype for t in part.info.body_args]
        self.floats = [self.vars[k] for k in part.floats]
        self.captures = [c.dtype.base_dtype for c in part.captures]
        self.active = [c for c in part.captures if plan.has_tangent(c)]
        self.active_types = [c.dtype.base_dtype for c in self.active]
        self.reads = [r.outputs[0].dtype.base_dtype for r in arrays.reads]
        self.writes = [w.inputs[2].dtype.base_dtype for w in arrays.writes]
        # pushed each iteration: the variables, their tangents, the cut values, the
        # values read and their tangents (these the tangent function's inputs), the
        # indices read and written
        self.pushed = self.vars + self.floats + [t.dtype.base_dtype for t in part.cuts] + \
            [dtype for dtype in self.reads for _ in range(2)] + \
            [D.int32] * (len(self.reads) + len(self.writes))
        self.inputs = len(self.pushed) - len(self.reads) - len(self.writes)
        # the forward loop's variables: the loop's, their tangents, the captures and
        # their tangents, the arrays read and their tangents, the lists of the values
        # written and of their tangents, then the lists of each iteration's values
        self.forward = self.vars + self.floats + self.captures + self.active_types + \
            [dtype for dtype in self.reads for _ in range(2)] + \
            [D.variant] * (2 * len(self.writes) + len(self.pushed))
        self.summed = [c for c in part.captures if c.dtype.base_dtype.is_floating]
        self.derived = [c for c in self.active if c not in plan.active]
        # the backward loop's: the iterations left, the gradients of the variables and
        # of their tangents, the sums of the captures' and of the derived captures'
        # tangents', those of the arrays read and of their tangents, the lists, the
        # captures and their tangents, the gradients of the arrays written and of their
        # tangents
        self.backward = [D.int32] + self.floats * 2 + \
            [c.dtype.base_dtype for c in self.summed + self.derived] + self.reads * 2 + \
            [D.variant] * len(self.pushed) + self.captures + self.active_types + \
            [dtype for dtype in self.writes for _ in range(2)]


def _tangent_core(fn: TangentFunction, part: LoopPart, types: _Types) -> None:
    """Binds the body's arguments: the variables, their tangents, the captures and
    theirs."""
    info = part.info
    for t in info.body_args:
        fn.bind(t)
    for k in part.floats:
        fn.tangent[info.body_args[k]] = fn.arg(types.vars[k])
    for c in part.captures:
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


def _part_functions(functions: Any, base: str, part: LoopPart, types: _Types
                    ) -> Dict[str, AttrValue]:
    """The functions of the tangent and backward loops of `part` (written once a plan:
    the rows of a Jacobian share them)."""
    info, arrays = part.info, part.arrays
    floats = part.floats
    out: Dict[str, AttrValue] = {}
    # the body's tangent function, which the backward loop differentiates
    written: List[Tuple[str, str]] = []
    tangents = TangentFunction("tangent", {"TensorArrayWriteV3": _write_hook(written)})
    _tangent_core(tangents, part, types)
    for t in part.cuts:
        tangents.bind(t)
    for read in arrays.reads:
        tangents.bind(read.outputs[0])
        tangents.tangent[read.outputs[0]] = tangents.arg(read.outputs[0].dtype.base_dtype)
    tangents.write([member for member in part.body if not cut(member)])
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
    _tangent_core(body, part, types)
    for member, dtype in zip(arrays.reads, types.reads):
        sources[member] = (body.arg(dtype), body.arg(dtype))
    lists = [body.arg(D.variant) for _ in range(2 * len(arrays.writes))]
    body.hooks["TensorArrayWriteV3"] = _write_hook(in_body, lists)
    stacks = [body.arg(D.variant) for _ in types.pushed]
    body.write(part.body)
    pushed = [body.value[t] for t in info.body_args] + \
        [body.tangent[info.body_args[k]] for k in floats] + \
        [body.value[t] for t in part.cuts] + \
        [name for r in arrays.reads for name in (body.value[r.outputs[0]],
                                                 body.tangent[r.outputs[0]])] + \
        [body.value[r.inputs[1]] for r in arrays.reads] + \
        [body.value[w.inputs[1]] for w in arrays.writes]
    pushes = [body.b.add("TensorListPushBack", [handle, value], {"element_dtype": dtype})
              for handle, value, dtype in zip(stacks, pushed, types.pushed)]
    out["body"] = body.finish(functions, base + "forward_body", [
        (body.value[t], dtype) for t, dtype in zip(info.body_outputs, types.vars)] + [
        (body.tangent_of(info.body_outputs[k]), types.vars[k]) for k in floats] + [
        (body.value[c], c.dtype.base_dtype) for c in part.captures] + [
        (body.tangent[c], c.dtype.base_dtype) for c in types.active] + [
        (name, dtype) for r, dtype in zip(arrays.reads, types.reads)
        for name in sources[r]] + [(item, D.variant) for item in lists] + [
        (p, D.variant) for p in pushes])
    cond = TangentFunction("cond")
    for t, dtype in zip(info.cond_args, types.vars):
        cond.bind(t, dtype)
    for dtype in types.floats:
        cond.arg(dtype)
    for c in part.captures:
        cond.bind(c)
    for dtype in types.forward[len(types.vars) + len(types.floats) + len(part.captures):]:
        cond.arg(dtype)
    cond.write(part.cond)
    out["cond"] = cond.finish(functions, base + "forward_cond",
                              [(cond.value[info.pred], D.bool)])
    out["backward_cond"], out["backward_body"] = _backward_functions(
        functions, base, out["tangents"], types, part)
    return out


def _segment(functions: Any, name: str, plan: SecondOrderPlan, count: int,
             types: List[_Types], leaves: List[Tensor], ops: List[Operation],
             outputs: Any) -> AttrValue:
    """A function of ops after the first `count` loops: its arguments their final values
    and tangents, their stacked arrays and tangents, `leaves` and the tangents of those
    having one (_Segments.inputs); its results `outputs(function)`."""
    fn = TangentFunction("tangent")
    for part, ty in zip(plan.parts[:count], types):
        for t in part.loop.outputs[:len(ty.vars)]:
            fn.bind(t)
        for k in part.floats:
            fn.tangent[part.loop.outputs[k]] = fn.arg(ty.vars[k])
    for gather in _gathers(plan, count):
        fn.bind(gather.outputs[0])
        fn.tangent[gather.outputs[0]] = fn.arg(gather.outputs[0].dtype.base_dtype)
    for t in leaves:
        fn.bind(t)
    for t in leaves:
        if plan.has_tangent(t):
            fn.tangent[t] = fn.arg(t.dtype.base_dtype)
    fn.write(ops)
    return fn.finish(functions, name, outputs(fn))


def _plan_functions(functions: Any, base: str, plan: SecondOrderPlan,
                    types: List[_Types]) -> Dict[str, AttrValue]:
    """The functions of the ops after the loops (the tangents of the ys), between them
    (the values and tangents of a loop's inputs computed from earlier loops' results)
    and before them (the tangents of the derived values)."""
    out: Dict[str, AttrValue] = {}
    count = len(plan.parts)
    out["tail"] = _segment(functions, base + "after_loop_tangents", plan, count, types,
                           plan.leaves, plan.tail, lambda fn: [
                               (fn.tangent_of(y), y.dtype.base_dtype) for y in plan.ys])
    for j, part in enumerate(plan.parts):
        if part.mid_ops:
            out[f"mid_{j}"] = _segment(
                functions, base + f"loop_{j}_inputs", plan, j, types, part.mid_leaves,
                part.mid_ops, lambda fn: [(fn.value[t], t.dtype.base_dtype)
                                          for t in part.mids] +
                [(fn.tangent_of(t), t.dtype.base_dtype) for t in part.mids])
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
    return out


def _gathers(plan: SecondOrderPlan, count: int) -> List[Operation]:
    """The stacks of the arrays the first `count` loops write, loop by loop."""
    return [g for part in plan.parts[:count] for g in part.arrays.gathers]


class _Segments:
    """The inputs of the functions after loops (_segment) and where their gradients go:
    the gradient parts of each loop's final values and tangents and of each stack."""

    def __init__(self, w: Any, plan: SecondOrderPlan, types: List[_Types]):
        self.w, self.plan, self.types = w, plan, types
        self.forwards: List[str] = []
        self.stacks: Dict[Operation, List[str]] = {}        # write -> (values, tangents)
        self.finals = [[[] for _ in range(len(ty.vars) + len(ty.floats))] for ty in types]
        self.stacked: Dict[Operation, List[List[str]]] = {}   # gather -> parts of both

    def inputs(self, count: int, leaves: List[Tensor], tangent_init: Any
               ) -> Tuple[List[str], List[Any]]:
        plan, w = self.plan, self.w
        names = [f"{forward}:{k}" for forward, ty in zip(self.forwards[:count], self.types)
                 for k in range(len(ty.vars) + len(ty.floats))]
        dtypes = [d for ty in self.types[:count] for d in ty.vars + ty.floats]
        for part in plan.parts[:count]:
            for gather, write in part.arrays.gathers.items():
                names += self.stacks[write]
                dtypes += [gather.outputs[0].dtype.base_dtype] * 2
        active = [t for t in leaves if plan.has_tangent(t)]
        names += [w._name(t) for t in leaves] + [tangent_init(t) for t in active]
        dtypes += [t.dtype.base_dtype for t in leaves + active]
        return names, dtypes

    def spread(self, grad: str, count: int, leaves: List[Tensor],
               found: List[Tuple[Tensor, str]], tangent_grads: Dict[Tensor, List[str]]
               ) -> None:
        """Adds the outputs of `grad`, a SymbolicGradient of a segment after the first
        `count` loops, to the gradient parts they are of."""
        at = 0
        for finals in self.finals[:count]:
            for k in range(len(finals)):
                finals[k].append(f"{grad}:{at}")
                at += 1
        for gather in _gathers(self.plan, count):
            self.stacked.setdefault(gather, [[], []])
            for i in range(2):
                self.stacked[gather][i].append(f"{grad}:{at}")
                at += 1
        found += [(t, f"{grad}:{at + j}") for j, t in enumerate(leaves)
                  if t.dtype.base_dtype.is_floating]
        at += len(leaves)
        for t in [t for t in leaves if self.plan.has_tangent(t)]:
            tangent_grads.setdefault(t, []).append(f"{grad}:{at}")
            at += 1


def write_second_order(w: Any, plan: SecondOrderPlan, output_grads: List[str]
                       ) -> List[Tuple[Tensor, str]]:
    """Writes, through `w` (loop_gradient_export's writer), the gradient of the first
    gradient op of `plan` given the gradients `output_grads` of its outputs (one per
    source); returns (leaf tensor, its gradient) for the floating leaves."""
    base = w.writer._strip(w.writer.unique(f"{w.prefix}/{plan.op.name}_second_order")) + "/"
    all_types = [_Types(part, plan) for part in plan.parts]
    if plan.functions is None:
        for k, (part, types) in enumerate(zip(plan.parts, all_types)):
            part.functions = _part_functions(w.writer.functions, f"{base}loop_{k}_", part,
                                             types)
        plan.functions = _plan_functions(w.writer.functions, base, plan, all_types)
    funcs = plan.functions
    minus_one = w._const(base + "element_shape", -1, D.int32)
    outer = {c: w._node(base + "read", "ReadVariableOp", [w._name(handle)],
                        {"dtype": c.dtype.base_dtype}, [c.shape])
             for part in plan.parts for c, handle in part.variable_reads.items()}

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
    mid_tangents: Dict[Tensor, str] = {}

    def tangent_init(t: Tensor) -> str:
        if t in plan.active:
            return output_grads[plan.active[t]]
        if t in plan.derived:
            return f"{head}:{plan.derived.index(t)}"
        if t in mid_tangents:
            return mid_tangents[t]
        return zeros(t)

    def zeros(t: Tensor) -> str:
        return w._node(base + "zeros", "ZerosLike", [value(t)], {"T": t.dtype.base_dtype},
                       [t.shape])
    # the loops again, with tangents (a loop's inputs computed from earlier loops'
    # results: their values and tangents from a function of those)
    segments = _Segments(w, plan, all_types)
    mid_inputs = {}
    for k, (part, types) in enumerate(zip(plan.parts, all_types)):
        if part.mid_ops:
            mid_inputs[k] = segments.inputs(k, part.mid_leaves, tangent_init)
            call = w._node(f"{base}loop_{k}_inputs", "PartitionedCall", mid_inputs[k][0], {
                "Tin": mid_inputs[k][1], "Tout": [t.dtype.base_dtype for t in part.mids] * 2},
                [t.shape for t in part.mids] * 2)
            w.writer.nodes[-1].attr["f"].CopyFrom(funcs[f"mid_{k}"])
            mid_tangents.update((t, f"{call}:{len(part.mids) + j}")
                                for j, t in enumerate(part.mids))
        forward = _forward_loop(w, f"{base}loop_{k}_", part, types, value, tangent_init,
                                minus_one)
        segments.forwards.append(forward)
        first_written = len(types.forward) - len(types.pushed) - 2 * len(part.arrays.writes)
        for j, write in enumerate(part.arrays.writes):
            segments.stacks[write] = [w._node(base + "stack", "TensorListStack", [
                f"{forward}:{first_written + 2 * j + i}", minus_one], {
                    "element_dtype": types.writes[j], "num_elements": -1}, [_UNKNOWN])
                for i in range(2)]
    # the gradient of the ys' tangents given grad_ys
    count = len(plan.parts)
    tail_inputs, tail_types = segments.inputs(count, plan.leaves, tangent_init)
    tail_grad = w._gradient_node(base + "after_loop_grad", funcs["tail"], tail_inputs,
                                 tail_types, [w._name(d) for d in plan.dys],
                                 [y.dtype.base_dtype for y in plan.ys],
                                 [_UNKNOWN] * len(tail_inputs))
    found: List[Tuple[Tensor, str]] = []
    tangent_grads: Dict[Tensor, List[str]] = {}
    segments.spread(tail_grad, count, plan.leaves, found, tangent_grads)
    # the loops backwards, the last first
    for k in reversed(range(count)):
        part, types, forward = plan.parts[k], all_types[k], segments.forwards[k]
        outputs = part.loop.outputs
        grads = [w._total(base + "final_grad", segments.finals[k][i], outputs[i])
                 for i in range(len(types.vars))] + \
            [w._total(base + "final_grad", segments.finals[k][len(types.vars) + j],
                      outputs[i]) for j, i in enumerate(part.floats)]
        written = []
        for j, write in enumerate(part.arrays.writes):
            for i in range(2):
                parts = [g for gather, made in part.arrays.gathers.items() if made is write
                         for g in segments.stacked.get(gather, [[], []])[i]]
                written.append(_sum_of(w, base, parts, segments.stacks[write][i],
                                       types.writes[j]))
        mid_grads: Dict[Tensor, List[str]] = {}
        for t, g in _backward_loop(w, f"{base}loop_{k}_", part, types, forward, grads,
                                   written, value, tangent_init, zeros, tangent_grads):
            if t in part.mids:
                mid_grads.setdefault(t, []).append(g)
            else:
                found.append((t, g))
        if part.mid_ops:
            dys = [w._total(base + "input_grad", mid_grads.get(t, []), t)
                   for t in part.mids] + \
                [w._total(base + "input_grad", tangent_grads.get(t, []), t)
                 for t in part.mids]
            grad = w._gradient_node(f"{base}loop_{k}_inputs_grad", funcs[f"mid_{k}"],
                                    mid_inputs[k][0], mid_inputs[k][1], dys,
                                    [t.dtype.base_dtype for t in part.mids] * 2,
                                    [_UNKNOWN] * len(mid_inputs[k][0]))
            segments.spread(grad, k, part.mid_leaves, found, tangent_grads)
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


def _sum_of(w: Any, base: str, parts: List[str], like: str, dtype: Any) -> str:
    """The sum of gradient `parts` (node names), zeros like node `like` where none."""
    if not parts:
        return w._node(base + "zeros", "ZerosLike", [like], {"T": dtype}, [_UNKNOWN])
    if len(parts) == 1:
        return parts[0]
    return w._node(base + "AddN", "AddN", parts, {"T": dtype, "N": len(parts)}, [_UNKNOWN])


def _forward_loop(w: Any, base: str, part: LoopPart, types: _Types, value: Any,
                  tangent_init: Any, minus_one: str) -> str:
    """The loop of `part` again, with tangents, pushing each iteration's values."""
    arrays = part.arrays
    read_values = [arrays.read_values[r] for r in arrays.reads]
    inits = [w._name(t) for t in part.inits] + \
        [tangent_init(part.inits[k]) for k in part.floats] + \
        [value(c) for c in part.captures] + [tangent_init(c) for c in types.active] + \
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
    return _while(w, base + "forward", inits, types.forward, part.functions["cond"],
                  part.functions["body"])


def _backward_loop(w: Any, base: str, part: LoopPart, types: _Types, forward: str,
                   grads: List[str], written_grads: List[str], value: Any,
                   tangent_init: Any, zeros: Any, tangent_grads: Dict[Tensor, List[str]]
                   ) -> List[Tuple[Tensor, str]]:
    """The iterations of `part` backwards given the gradients `grads` of its final
    values and tangents and `written_grads` of its written arrays and their tangents;
    returns the gradients of its inputs, adds those of their tangents to
    `tangent_grads`."""
    n, m, floats = len(types.vars), len(types.floats), part.floats
    read_values = [part.arrays.read_values[r] for r in part.arrays.reads]
    first_list = len(types.forward) - len(types.pushed)
    count = w._node(base + "count", "TensorListLength", [f"{forward}:{first_list}"], {},
                    [TensorShape([])])
    inits = [count] + [grads[k] for k in floats] + grads[n:n + m] + \
        [zeros(c) for c in types.summed + types.derived] + \
        [zeros(t) for t in read_values * 2] + \
        [f"{forward}:{first_list + j}" for j in range(len(types.pushed))] + \
        [value(c) for c in part.captures] + [tangent_init(c) for c in types.active] + \
        written_grads
    backward = _while(w, base + "backward", inits, types.backward,
                      part.functions["backward_cond"], part.functions["backward_body"])
    found = [(part.inits[k], f"{backward}:{1 + j}") for j, k in enumerate(floats)]
    for j, k in enumerate(floats):
        tangent_grads.setdefault(part.inits[k], []).append(f"{backward}:{1 + m + j}")
    at = 1 + 2 * m
    found += [(part.variable_reads.get(c, c), f"{backward}:{at + j}")
              for j, c in enumerate(types.summed)]
    at += len(types.summed)
    for j, c in enumerate(types.derived):
        tangent_grads.setdefault(c, []).append(f"{backward}:{at + j}")
    at += len(types.derived)
    found += [(t, f"{backward}:{at + j}") for j, t in enumerate(read_values)]
    for j, t in enumerate(read_values):
        tangent_grads.setdefault(t, []).append(f"{backward}:{at + len(read_values) + j}")
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
                        part: LoopPart) -> Tuple[AttrValue, AttrValue]:
    """The condition (iterations left) and body of the backward loop: pops an
    iteration's values and runs the gradient of the body's tangent function."""
    cond = TangentFunction("cond")
    args = [cond.arg(dtype) for dtype in types.backward]
    greater = cond.b.add("Greater", [args[0], cond.b.const(0, D.int32)], {"T": D.int32})
    func_cond = cond.finish(functions, base + "backward_cond", [(greater, D.bool)])
    body = TangentFunction("grad")
    b = body.b
    args = [body.arg(dtype) for dtype in types.backward]
    floats, pushed_types, float_types = part.floats, types.pushed, types.floats
    m, n = len(floats), len(types.vars)
    nsums, nreads = len(types.summed) + len(types.derived), len(types.reads)
    first_list = 1 + 2 * m + nsums + 2 * nreads
    lists = args[first_list:first_list + len(pushed_types)]
    rest = args[first_list + len(pushed_types):]
    captures = rest[:len(part.captures) + len(types.active)]
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
    k_types = pushed_types[:n + m] + [c.dtype.base_dtype for c in part.captures] + \
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
    sums = [(c, first_capture + part.captures.index(c)) for c in types.summed] + \
        [(c, first_capture + len(part.captures) + types.active.index(c))
         for c in types.derived]
    for j, (c, index) in enumerate(sums):
        nexts.append(b.add("AddV2", [args[1 + 2 * m + j], f"{grad}:output:{index}"],
                           {"T": c.dtype.base_dtype}))
    first_read = first_capture + len(captures) + len(part.cuts)
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
