"""`tf.gradients` through `tf.while_loop` in graph files: a backward loop TF can run.

TF 2.21 has no function gradient for While (or Switch/Merge: probed), so a gradient op
whose region holds a loop cannot be one `SymbolicGradient` of a forward function
(gradient_export.py). TF 1.x itself differentiates a loop op by op: the forward loop
pushes the values the gradient needs on stacks (`StackPushV2`), a second loop under
`gradients/` runs as many iterations backwards, pops them (`StackPopV2`) and
accumulates the gradients of the tensors the body captures. tf1compat has no per-op
gradient graph (autograd), so its backward loop calls TF's gradient of the loop BODY
as a function instead:

* the forward loop (already written as TF 1.x writes it, control_flow_export.py) gains,
  in its frame, an iteration counter (`<grad op>/<loop>/f_count`, TF's own `f_count`)
  and one `StackPushV2` per loop variable the body's gradient reads: the variable's
  value at the start of each iteration. The pushes are ordered by the counter (each
  waits for this iteration's counter, the next increment waits for them), and run only
  when the gradient runs (only the backward loop reads the counter's Exit);
* the body becomes a FunctionDef: the loop variables it reads, the elements it reads
  from TensorArrays unstacked or split before the loop, the outside values of the body's
  ops (and of its tf.conds' branch ops) written as expansions around them
  (gradient_lowering_math.py: Erf, TopKV2, ...; pushed where computed in the body or a
  branch), the body values not computed
  from what is differentiated that feed ops TF cannot differentiate (dropout's random
  masks) or gradient stops, also those of a tf.cond's branches (those three pushed
  each iteration too; a branch value through a Merge: `_pushed_value`), and the
  tensors it takes from outside (a resource variable's ReadVariableOp in the body or
  in a branch of its conds: one read outside), returning the next values of the
  floating loop variables and the elements it writes to TensorArrays read after the
  loop (by stack(), read(k), concat(): `_element_grad` places each element's gradient);
* the backward loop (frame `<grad op>/<loop>_grad/while_context`) counts the
  iterations down; each pops the saved variables and runs `SymbolicGradient` of the
  body function with the gradients of the next values: its outputs are the gradients
  of the variables (carried to the next backward iteration) and of the captured
  tensors (summed over iterations). Its Exits are the gradients of the loop's initial
  values and captured tensors;
* a gather of a variable's rows in the body (of a loop in no other loop) is no op of
  the body function: its rows are pushed and are an input, and the backward loop
  accumulates their gradients and indices as TF 1.x's IndexedSlices `b_acc`
  (loop_gradient_slices.py), summed into the variable's rows after the loop;
* the rest of the region is cut at the loops: one forward function from the sources
  and the loops' outputs to the ys (its gradient gives the loops' output gradients),
  and per loop one from the sources (and earlier loops' outputs) to the loop's inputs,
  differentiated with the backward loop's results. Loops are taken last-created first,
  so a loop's output gradient is complete before its backward loop runs;
* the gradient op's name is an `IdentityN` of the summed gradients of the sources, so
  its consumers (the optimizer's updates) read the same outputs as from tf1compat's op.

A tf.cond of the body on the gradient path is written in the body function as both
branches + Select (cond_lowering.py); one off the path (seq2seq's TrainingHelper picking
the next inputs) is a pushed value. A tf.cond of the region whose branches hold loops
is cut like a loop (`_cond_gradient`): each branch's gradient is a region of its own
behind a Switch on the predicate, merged back with zeros (a branch's own conds
holding loops: the same, inside). An array the body reads elements of that earlier
iterations wrote (before this iteration's writes, or after them at any index: the
function selects this iteration's element where the indices are equal) gets their
gradients through a backward-loop variable holding the gradients of all its elements
(`_own_array_zeros`). Not written this way
(tf1compat's form, with gradient_export's warning; real TF refuses the file at
import): loops in conds in loops and nested loops on the gradient path other than those
of a fixed trip count (unrolled in the body's function: loop_unrolling.py) and the plain
ones below, conds in a body
holding nested constructs, an op TF cannot differentiate in a function on the gradient path, other
TensorArray uses, gradients of gradients through loops other than loop_second_order.py's
(which takes a first gradient op through a loop as a construct of the second one's
region, like a loop) and tf.hessians through loops. (An array the loop
carries written in a tf.cond of the body, one element per branch at one index or none in
one branch: the body function's output for the element is the cond's Select; at indices
differing per branch or more than once in a branch: each write's element is the Select of
it and zeros; loop_array_plan.cond_write.)

A loop nested in a body on the gradient path whose trip count is known only at run
time gets a backward loop inside the outer one's (loop_gradient_nested.py). How the
body's ops are written in its function: loop_body_lowering.py. What is planned
for each loop, and why a loop cannot be: loop_gradient_plan.py.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Set, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._regions import CondRegion
from tf1compat.serialization.messages import AttrValue, ValuesDef, WhileContextDef
from tf1compat.serialization.tensor_proto import tensor_to_proto
from tf1compat.graphdef.gradient_export import (
    data_upstream, forward_function, forward_has_control_dependencies, forward_reach,
    unsupported, warn_once, y_dtype)
from tf1compat.graphdef.graph_io import check_serializable
from tf1compat.graphdef.loop_array_plan import stack_after
from tf1compat.graphdef.loop_body_lowering import lower_body_op
from tf1compat.graphdef.loop_gradient_arrays import ArrayGradients
from tf1compat.graphdef.loop_gradient_nested import Nest, NestedLoopGradients
from tf1compat.graphdef.loop_gradient_slices import SliceAccumulators
from tf1compat.graphdef.loop_gradient_stacks import HANDLE, ForwardStacks
from tf1compat.graphdef.loop_gradient_plan import (
    LoopPlan, branch_frontier, holds_loop, plan_branch_loops, plan_loop)
from tf1compat.graphdef.loop_second_order import (
    SecondOrderPlan, differentiated_gradient, plan_second_order, reach, write_second_order)

__all__ = ["write_loop_gradient", "differentiated_as_construct"]

_SCALAR = TensorShape([])


def write_loop_gradient(writer: Any, op: Operation) -> Optional[bool]:
    """Writes gradient op `op` with the while loops of its region as backward loops
    (see the module docstring) through `writer` (control_flow_export.ControlFlowExport).
    True: written; None: its region has no loop; False: it has one this cannot write
    (warned; the caller writes tf1compat's form)."""
    planned = _plan_gradient(op)
    if planned is None:
        return None
    ys, xs, dys, plans, conds, seconds, reason = planned
    if reason is not None:
        warn_once(op, reason)
        return False
    marks = (len(writer.nodes), len(writer.functions.library.function))
    try:
        _LoopGradientWriter(writer, op, plans, conds, seconds=seconds).write(ys, xs, dys)
    except _Unwritable as e:
        del writer.nodes[marks[0]:]
        del writer.functions.library.function[marks[1]:]
        warn_once(op, str(e))
        return False
    return True


def _plan_gradient(op: Operation) -> Optional[Tuple[Any, ...]]:
    """(ys, xs, dys, loop plans, conds holding loops, first gradient ops' plans, why
    it cannot be written or None) of gradient op `op`; None where its region has no
    loop."""
    if op.attrs.get("f") is not None:
        return None
    check_serializable(op)
    attrs = op.attrs
    ny, nx, ndy = len(attrs["Ty"]), len(attrs["Tx"]), len(attrs["Tdy"])
    inputs = list(op.inputs)
    ys, xs, dys = inputs[:ny], inputs[ny:ny + nx], inputs[ny + nx:ny + nx + ndy]
    upstream = data_upstream(ys)
    # (a loop whose only way from the sources is a TensorArray unstacked or split before
    # it: reached through the array's flow)
    reached = reach(xs, upstream)
    # First gradient ops through loops the ys are computed from: constructs of the
    # region (loop_second_order.py), whose own regions are theirs alone (also behind a
    # stateful op the sources' reach stops at, a TensorArray's gather).
    firsts = sorted((o for o in upstream if differentiated_gradient(o)), key=lambda o: o._id)
    if firsts:
        upstream = data_upstream(ys, set(firsts))
    loops = sorted((o for o in upstream if o.type == "While" and o in reached
                    and o.attrs.get("loop") is not None), key=lambda o: o._id)
    conds = sorted((o for o in upstream if o in reached and o._control_flow_context is None
                    and holds_loop(o)), key=lambda o: o._id)
    if not loops and not conds and not firsts:
        return None
    reason = unsupported(op)
    if reason is not None and (differentiated_as_construct(op) or
                               _jacobian_size(op, firsts) is not None):
        reason = None
        if op.attrs["jacobian"] and (loops or conds):
            reason = "tf.hessians' Jacobian form through a loop other than a gradient's"
    seconds: List[SecondOrderPlan] = []
    for first in firsts:
        if reason is None:
            second, reason = plan_second_order(first, reached)
            seconds.append(second)
    plans: List[LoopPlan] = []
    for loop in loops:
        if reason is None:
            plan, reason = plan_loop(loop, upstream, reached, set(xs))
            plans.append(plan)
    return ys, xs, dys, plans, conds, seconds, reason


# The largest Jacobian written row by row (tf.hessians of as many elements).
_MAX_JACOBIAN_ROWS = 256


def _jacobian_size(op: Operation, firsts: List[Operation]) -> Optional[int]:
    """The number of rows of tf.hessians' Jacobian form `op` where it is written as
    that many gradients of first gradient ops through loops `firsts`: of a vector of a
    size known when the file is written, at most _MAX_JACOBIAN_ROWS; else None."""
    attrs = op.attrs
    if not attrs["jacobian"] or attrs["create_graph"] or attrs["Tc"] or not firsts or \
            op._control_flow_context is not None or len(attrs["Ty"]) != 1:
        return None
    size = op.inputs[0].shape.num_elements() if op.inputs[0].shape.is_fully_defined() \
        else None
    return size if size and size <= _MAX_JACOBIAN_ROWS else None


def differentiated_as_construct(op: Operation) -> bool:
    """Whether `op`, a gradient op that is differentiated again (through a loop or
    not), is written as a first-order one: every gradient op differentiating it has a plan
    taking it as a construct (loop_second_order.py), so none differentiates its TF form
    (which neither TF nor tf1compat could)."""
    attrs = op.attrs
    if not attrs["create_graph"] or attrs["jacobian"] or attrs["Tc"] or \
            op._control_flow_context is not None or not differentiated_gradient(op):
        return False
    for other in op.graph.get_operations():
        if other.type != "SymbolicGradient" or other is op or \
                other.attrs.get("f") is not None:
            continue
        # (any gradient op computed from it: where one is not planned to differentiate
        # through it, say behind a stateful op its sources' reach stops at, its written
        # form may still come to)
        if op not in data_upstream(list(other.inputs[:len(other.attrs["Ty"])])):
            continue
        planned = _plan_gradient(other)
        if planned is None or planned[-1] is not None or \
                op not in [second.op for second in planned[5]]:
            return False
    return True


class _Unwritable(Exception):
    """A part of the gradient has no TF form (the message says why)."""


class _LoopGradientWriter(ArrayGradients, ForwardStacks, SliceAccumulators,
                          NestedLoopGradients):
    """Writes the nodes of one gradient op with loops in its region."""

    def __init__(self, writer: Any, op: Operation, plans: List[LoopPlan],
                 conds: List[Operation] = (), context: Any = None, pivot: str = "",
                 seconds: List[SecondOrderPlan] = ()):
        self.writer = writer
        self.op = op
        self.plans = plans
        # first gradient ops through loops this one differentiates (loop_second_order.py)
        self.seconds = list(seconds)
        # tf.conds with loops in a branch (cut like loops: `_cond_gradient`); `context`:
        # the branch this writes the gradient of, `pivot` the node its values wait for
        self.conds = list(conds)
        self.context = context
        self.pivot = pivot
        self.prefix = op.name
        self.stops = {plan.op for plan in plans} | set(self.conds) | \
            {r for plan in plans for readers in plan.writes.values() for r in readers} | \
            {second.op for second in self.seconds}
        self.loop_outputs = [t for plan in plans for t in plan.sources] + [
            t for cond in self.conds for t in cond.outputs if t.dtype.base_dtype.is_floating
        ] + [t for second in self.seconds for t in second.op.outputs]
        self.sums: Dict[Tensor, List[str]] = {}   # tensor -> its gradient's parts
        # a gather of an outermost loop's body -> its accumulated (indices, values) Exits
        self.slice_exits: Dict[Operation, Tuple[str, str]] = {}
        # loop nested in a body (LoopPlan) -> its stacks, made by the outer loop's
        self.inner_stacks: Dict[LoopPlan, List[str]] = {}

    # -- helpers --------------------------------------------------------------------------
    def _node(self, base: str, op_type: str, inputs: List[str], attrs: Dict[str, Any],
              shapes: List[TensorShape]) -> str:
        name = self.writer.unique(base)
        self.writer._add(name, op_type, inputs, attrs, shapes)
        return self.writer._strip(name)

    def _const(self, base: str, value: Any, dtype: Any, controls: List[str] = ()) -> str:
        value = np.asarray(value, dtype.as_numpy_dtype)
        name = self._node(base, "Const", ["^" + c for c in controls if c], {"dtype": dtype},
                          [TensorShape(value.shape)])
        self.writer.nodes[-1].attr["value"].tensor.CopyFrom(tensor_to_proto(value, dtype))
        return name

    def _name(self, t: Tensor) -> str:
        region = t.op._control_flow_context
        if isinstance(region, CondRegion) and region.outer_context is not None:
            # A value of a tf.cond inside a tf.cond's branch, read by the gradient of
            # that branch: as it is (dead, as what reads it, where the branch did not run)
            return self.writer._name(t)
        return self.writer.gradient_input(t, None, self.op.name)

    def _value(self, t: Tensor, base: str) -> str:
        """A top-level value of `t`: its name; a resource variable's (or a body's read
        of it) a new ReadVariableOp."""
        handle = t if t.dtype.base_dtype == D.resource else None
        for plan in self.plans:
            handle = plan.variable_reads.get(t, handle)
        if handle is None:
            return self._name(t)
        dtype = t.op.outputs[0].dtype.base_dtype if t.op.type == "ReadVariableOp" else \
            handle.op.attrs["dtype"]
        return self._node(base + "/read", "ReadVariableOp", [self._name(handle)],
                          {"dtype": dtype}, [TensorShape(None)])

    def _total(self, base: str, parts: List[str], like: Tensor,
               value: Optional[str] = None, dtype: Any = None) -> str:
        """The sum of gradient `parts` of `like` (zeros like it, or like the node
        `value`, where there is none; `dtype`: the gradient's, where not like's)."""
        dtype = dtype or like.dtype.base_dtype
        shape = like.shape if like.dtype.base_dtype != D.resource else TensorShape(None)
        if not parts:
            return self._node(base + "/zeros", "ZerosLike", [value or self._name(like)],
                              {"T": dtype}, [shape])
        if len(parts) == 1:
            return parts[0]
        return self._node(base + "/AddN", "AddN", parts, {"T": dtype, "N": len(parts)},
                          [shape])

    def _gradient_node(self, base: str, func: AttrValue, inputs: List[str],
                       in_types: List[Any], dys: List[str], dy_types: List[Any],
                       shapes: List[TensorShape]) -> str:
        name = self._node(base, "SymbolicGradient", inputs + dys,
                          {"Tin": in_types + dy_types, "Tout": in_types}, shapes)
        self.writer.nodes[-1].attr["f"].CopyFrom(func)
        return name

    def _segment(self, base: str, ys: List[Tensor], dys: List[str], xs: List[Tensor],
                 controls: List[str] = ()) -> None:
        """Gradient of the region from `xs` (and the loops' outputs) to `ys` given `dys`,
        added to the parts of each x and loop output."""
        # A resource variable read only inside the loops has no value here.
        xs = [x for x in xs if x.dtype.base_dtype != D.resource or any(
            c.type == "ReadVariableOp" and c._control_flow_context in (None, self.context)
            for c in x.consumers())]
        sources = xs + self.loop_outputs
        written = forward_function(f"{base.replace('/', '_')}_forward", ys, sources,
                                   self.writer.functions, self.stops, self.context)
        if isinstance(written, str):
            raise _Unwritable(written)
        func, f_inputs = written
        name = self._gradient_node(
            base, func, [self._name(t) for t in f_inputs],
            [t.dtype.base_dtype for t in f_inputs], dys, [y_dtype(y) for y in ys],
            [t.shape for t in f_inputs])
        self.writer.nodes[-1].input.extend(controls)
        for k, t in enumerate(sources):
            self.sums.setdefault(t, []).append(f"{name}:{k}")

    # -- the whole gradient ---------------------------------------------------------------
    def write(self, ys: List[Tensor], xs: List[Tensor], dys: List[Tensor]) -> None:
        op = self.op
        if op.attrs["jacobian"]:
            totals = self._jacobian(ys[0], xs)
        else:
            self.accumulate(ys, xs, [self._name(d) for d in dys])
            totals = [self._total(f"{op.name}/total", self.sums.get(x, []), g,
                                  self._value(x, f"{op.name}/total"))
                      for x, g in zip(xs, op.outputs)]
        slices = [part for spec in op.attrs.get("loop_slices") or []
                  for part in self.slice_outputs(spec, totals)]
        self.writer._add(op.name, "IdentityN", totals + slices,
                         {"T": [g.dtype.base_dtype for g in op.outputs]},
                         [g.shape for g in op.outputs],
                         device="" if self.writer.clear_devices else op.device)

    def _jacobian(self, y: Tensor, xs: List[Tensor]) -> List[str]:
        """tf.hessians' Jacobian form (`_jacobian_size`): per element i of `y`, the
        gradient given the i-th unit vector, written as a gradient of its own (the
        functions of its constructs shared), the rows stacked."""
        op = self.op
        size = y.shape.num_elements()
        rows: List[List[str]] = [[] for _ in xs]
        for i in range(size):
            row = _LoopGradientWriter(self.writer, op, self.plans, self.conds,
                                      seconds=self.seconds)
            row.prefix = f"{op.name}/row_{i}"
            unit = np.eye(size)[i].reshape(y.shape.as_list())
            row.accumulate([y], xs, [self._const(row.prefix + "/unit", unit,
                                                 y.dtype.base_dtype)])
            for parts, x, g in zip(rows, xs, op.outputs):
                parts.append(row._total(row.prefix + "/total", row.sums.get(x, []), x,
                                        row._value(x, row.prefix + "/total"),
                                        g.dtype.base_dtype))
        return [self._node(f"{op.name}/rows", "Pack", parts,
                           {"T": g.dtype.base_dtype, "N": size, "axis": 0}, [g.shape])
                for parts, g in zip(rows, op.outputs)]

    def accumulate(self, ys: List[Tensor], xs: List[Tensor], dys: List[str]) -> None:
        """Adds the gradient parts of `xs` (and of the loops' and conds' outputs) from
        `ys` given the gradients `dys` (node names) to `sums`."""
        controls = sorted({"^" + self._name(y).split(":")[0] for y in ys}) \
            if forward_has_control_dependencies(ys) else []
        self._segment(self.prefix + "/head", ys, dys, xs, controls)
        sources = set(xs) | set(self.loop_outputs)
        reached = forward_reach(xs + self.loop_outputs, self.stops)
        constructs = sorted([(plan.op._id, plan) for plan in self.plans] +
                            [(cond._id, cond) for cond in self.conds] +
                            [(second.op._id, second) for second in self.seconds],
                            key=lambda pair: pair[0], reverse=True)
        for _, item in constructs:
            if isinstance(item, SecondOrderPlan):
                outputs = list(item.op.outputs)
                if not any(len(self.sums.get(t, ())) for t in outputs):
                    continue
                scope = f"{self.prefix}/{item.op.name}_second_order/"
                grads = write_second_order(self, item, [
                    self._total(scope + "grad_out", self.sums.get(t, []), t)
                    for t in outputs])
            elif isinstance(item, LoopPlan):
                outputs = item.sources
                if not any(len(self.sums.get(t, ())) for t in outputs):
                    continue
                scope = f"{self.prefix}/{self._scope(item)}"
                grads = [(item.variable_reads.get(t, t), g) for t, g in self._backward_loop(
                    item, [self._total(scope + "grad_out", self.sums.get(t, []), t)
                           for t in outputs])]
            else:
                scope = f"{self.prefix}/{item.name}_grad/"
                grads = self._cond_gradient(item, scope, xs, reached)
            # Gradients of the construct's inputs: a source's (or an earlier construct
            # output's) directly, one computed from them through the region before it.
            before: Dict[Tensor, List[str]] = {}
            for t, g in grads:
                if t in sources:
                    self.sums.setdefault(t, []).append(g)
                elif t.op in reached:
                    before.setdefault(t, []).append(g)
            if before:
                targets = list(before)
                self._segment(scope + "inputs_grad", targets,
                              [self._total(scope + "input_grad", before[t], t)
                               for t in targets], xs)

    def _cond_gradient(self, cond: Operation, scope: str, xs: List[Tensor],
                       reached: Set[Operation]) -> List[Tuple[Tensor, str]]:
        """(outside tensor, its gradient) through tf.cond `cond`, whose branches hold
        loops: per branch, the gradients of the cond's outputs pass a Switch on its
        predicate (dead where the branch did not run), the branch's gradient is written
        as the region's (backward loops included), and each result passes a Merge with
        zeros from the other side."""
        outputs = [t for t in cond.outputs if t in self.loop_outputs]
        if not any(len(self.sums.get(t, ())) for t in outputs):
            return []
        header = self.writer.conds[cond]
        self.writer._cond_header(header)
        pred = self.writer._strip(header.pred_id)
        grads = [self._total(scope + "grad_out", self.sums.get(t, []), t) for t in outputs]
        found: List[Tuple[Tensor, str]] = []
        for branch in (cond.attrs["then_branch"], cond.attrs["else_branch"]):
            region = branch.region
            side = region.branch
            frontier = branch_frontier(region, set(xs), reached)
            sub_plans, sub_conds, reason = plan_branch_loops(region, frontier, [
                branch.outputs[t.value_index] for t in outputs])
            if reason is not None:
                raise _Unwritable(reason)
            sub = _LoopGradientWriter(self.writer, self.op, sub_plans, sub_conds,
                                      context=region,
                                      pivot=self.writer._strip(header.pivots[side]))
            sub.prefix = scope + ("then" if side else "else")
            ys, dys = [], []
            for t, g in zip(outputs, grads):
                y = branch.outputs[t.value_index]
                switch = self._node(scope + "Switch", "Switch", [g, pred],
                                    {"T": t.dtype.base_dtype}, [t.shape, t.shape])
                if y.op._control_flow_context is region:
                    ys.append(y)
                    dys.append(f"{switch}:{side}")
                elif y in frontier:       # an outside value the branch returns
                    sub.sums.setdefault(y, []).append(f"{switch}:{side}")
            if ys:
                sub.accumulate(ys, frontier, dys)
            for t in frontier:
                if not sub.sums.get(t):
                    continue
                # (a resource variable's gradient: of its value's type and shape)
                dtype, shape = (t.dtype.base_dtype, t.shape) if t.dtype.base_dtype != \
                    D.resource else (t.op.attrs["dtype"], TensorShape(None))
                value = self._value(t, scope + "value")
                zeros = self._node(scope + "zeros", "ZerosLike", [value], {"T": dtype}, [shape])
                other = self._node(scope + "Switch", "Switch", [zeros, pred], {"T": dtype},
                                   [shape, shape])
                total = sub._total(sub.prefix + "/total", sub.sums[t], t, value, dtype)
                found.append((t, self._node(scope + "Merge", "Merge",
                                            [total, f"{other}:{1 - side}"],
                                            {"T": dtype, "N": 2}, [shape, _SCALAR])))
        return found

    def _scope(self, plan: LoopPlan) -> str:
        return self.writer.loops[plan.op].scope

    # -- the backward loop -------------------------------------------------------------------
    def _backward_loop(self, plan: LoopPlan, output_grads: List[str],
                       nest: Optional[Nest] = None) -> List[Tuple[Tensor, str]]:
        """Writes the backward loop of `plan` given the gradients of `plan.sources`;
        returns (loop input, its gradient) for the initial values of the floating loop
        variables, the captured tensors and the values unstacked into the arrays the
        body reads. `nest`: where the loop is nested in another's body, what the outer
        backward loop has for it (its trip count and stacks, its inputs' values)."""
        writer = self.writer
        info = plan.info
        count, stacks = (nest.count, nest.stacks) if nest else self._forward_stacks(plan)
        args = [info.body_args[k] for k in plan.args]
        reads = list(plan.reads)
        writes = list(plan.writes)
        own = list(plan.own_reads)
        outer_inputs = plan.outer_inputs
        inputs = args + [plan.read_input(r) for r in reads + own] + plan.extras + \
            plan.inner_outputs + outer_inputs + plan.captures
        floats = [info.body_outputs[k] for k in plan.floats]
        func = writer.functions.function(
            f"{self.op.name}/{self._scope(plan)}body".replace("/", "_"), inputs,
            floats + [plan.written(w) for w in writes], plan.ops,
            lambda member, name_of: lower_body_op(plan, member, name_of),
            context=info.body_region, dtypes=[t.dtype.base_dtype for t in floats] + [
                w.inputs[2].dtype.base_dtype for w in writes])
        base = writer._strip(writer.unique(
            f"{self.op.name}/{self._scope(plan).rstrip('/')}_grad")) + "/"
        frame = base + "while_context"
        iterations = int(plan.op.attrs["parallel_iterations"])
        enter = {"frame_name": frame, "parallel_iterations": iterations}
        unstacked = [plan.reads[r] for r in reads]
        # Loop variables: the count of iterations left, the gradients of the floating
        # loop variables, the sums of the captured tensors' and of the unstacked
        # values' gradients.
        differentiated = [c for c in plan.captures if c.dtype.base_dtype.is_floating]
        summed = differentiated + unstacked
        outer = {c: nest.value(c) if nest else self._value(c, base + "captured")
                 for c in plan.captures + unstacked}
        inits = [count] + output_grads[:len(floats)] + [
            self._node(base + "zeros", "ZerosLike", [outer[c]],
                       {"T": c.dtype.base_dtype}, [c.shape]) for c in summed]
        types = [D.int32] + [t.dtype.base_dtype for t in floats + summed]
        shapes = [_SCALAR] + [t.shape for t in floats + summed]
        # The gradients of all elements of each array the body reads and writes, summed
        # as its reads' gradients come (a loop variable after the others).
        for k, (handle, chain) in plan.own_arrays.items():
            # (a nested loop's, or one of elements of a run-time shape: the zeros of its
            # stack()'s gradient, of its size and shape; the outer frame's)
            stack = stack_after(plan, chain)
            if nest and stack is None:
                # (a nested loop's array not stacked after it: of its size input, which
                # the outer backward loop pops or captures; of a dynamic size, written
                # at the counter: the larger of that and the trip count)
                size = nest.value(handle.op.inputs[0])
                if handle.op.attrs.get("dynamic_size"):
                    size = self._node(base + "own/dynamic_size", "Maximum",
                                      [size, nest.count], {"T": D.int32}, [_SCALAR])
                inits.append(self._sized_zeros(base, size, chain[0].inputs[2]))
            elif stack is not None and (nest or not chain[0].inputs[2].shape.is_fully_defined()):
                stacked = output_grads[len(floats) + plan.readers_outputs.index(
                    stack.outputs[0])]
                inits.append(self._node(base + "own/zeros", "ZerosLike", [stacked], {
                    "T": chain[0].inputs[2].dtype.base_dtype}, [TensorShape(None)]))
            elif not chain[0].inputs[2].shape.is_fully_defined():
                # (elements of a run-time shape not stacked after the loop: zeros of them
                # all, gathered after it)
                inits.append(self._gathered_zeros(base, handle, plan.op.outputs[k],
                                                  chain[0].inputs[2]))
            else:
                inits.append(self._own_array_zeros(base, handle, plan.op.outputs[k],
                                                   chain[0].inputs[2]))
            types.append(chain[0].inputs[2].dtype.base_dtype)
            shapes.append(TensorShape([None]).concatenate(chain[0].inputs[2].shape))
        own_first = 1 + len(floats) + len(summed)
        slice_first = len(inits)
        for part, more in zip((inits, types, shapes), self._slice_inits(plan, base)):
            part.extend(more)
        enters = [self._node(base + "Enter", "Enter", [init],
                             dict(enter, T=dtype, is_constant=False), [shape])
                  for init, dtype, shape in zip(inits, types, shapes)]
        next_names = [writer.unique(base + "NextIteration") for _ in inits]
        merges = [self._node(base + "Merge", "Merge", [e, n], {"T": dtype, "N": 2},
                             [shape, _SCALAR])
                  for e, n, dtype, shape in zip(enters, next_names, types, shapes)]
        zero = self._const(base + "Greater/y", 0, D.int32, [merges[0]])
        greater = self._node(base + "Greater", "Greater", [merges[0], zero], {"T": D.int32},
                             [_SCALAR])
        loop_cond = self._node(base + "LoopCond", "LoopCond", [greater], {}, [_SCALAR])
        switches = [self._node(base + "Switch", "Switch", [m, loop_cond], {"T": dtype},
                               [shape, shape])
                    for m, dtype, shape in zip(merges, types, shapes)]
        views = [self._node(base + "Identity", "Identity", [s + ":1"], {"T": dtype}, [shape])
                 for s, dtype, shape in zip(switches, types, shapes)]
        exits = [self._node(base + "Exit", "Exit", [s], {"T": dtype}, [shape])
                 for s, dtype, shape in zip(switches, types, shapes)]
        external: Dict[str, str] = {}

        def constant_enter(outer: str, dtype: Any, shape: TensorShape, what: str) -> str:
            key = outer if ":" in outer else outer + ":0"
            if key in external:     # entered for another write of the same array
                return external[key][:-len(":0")]
            name = self._node(base + what + "/Enter", "Enter", [outer],
                              dict(enter, T=dtype, is_constant=True), [shape])
            external[key] = name + ":0"
            return name

        def lift(stack: str) -> str:
            """Stack `stack` (made outside all loops) entered into this frame."""
            return constant_enter(nest.lift(stack) if nest else stack, D.resource, HANDLE,
                                  "stack")
        popped: Dict[Tensor, str] = {}
        for value, stack in zip(plan.pushed, stacks):
            popped[value] = self._node(
                base + "stack/pop", "StackPopV2",
                [constant_enter(stack, D.resource, HANDLE, "stack"), "^" + views[0]],
                {"elem_type": value.dtype.base_dtype}, [value.shape])
        # the trip counts of the nested loops this iteration
        counts = [self._node(base + "stack/pop", "StackPopV2", [
            constant_enter(stack, D.resource, HANDLE, "stack"), "^" + views[0]],
            {"elem_type": D.int32}, [_SCALAR]) for stack in stacks[len(plan.pushed):]]
        captured = [constant_enter(outer[c], c.dtype.base_dtype, c.shape, "captured")
                    for c in plan.captures]
        axis = self._const(base + "axis", 0, D.int32, [views[0]]) if writes or reads else ""
        written = []
        # The gradients of what is read after the loop, entered once (an array's writes
        # share them)
        read_grads = dict(zip(plan.readers_outputs, output_grads[len(floats):]))
        for w, readers in plan.writes.items():
            # The gradient of each written element: the sum of its parts in the gradients
            # of what is read from the array after the loop.
            parts = [self._element_grad(r, constant_enter(
                read_grads[r.outputs[0]], w.inputs[2].dtype.base_dtype, TensorShape(None),
                "stacked_grad" if r.type == "TensorArrayGatherV3" else "read_after_grad"),
                popped[w.inputs[1]], w.inputs[2], base, views[0], axis, constant_enter,
                nest.value if nest else None) for r in readers]
            for j, (_, chain) in enumerate(plan.own_arrays.values()):
                if w in chain:      # what later iterations read of it
                    parts.append(self._node(
                        base + "own_grad", "GatherV2",
                        [views[own_first + j], popped[w.inputs[1]], axis],
                        {"Tparams": types[own_first + j], "Tindices": D.int32,
                         "Taxis": D.int32, "batch_dims": 0}, [w.inputs[2].shape]))
            written.append(parts[0] if len(parts) == 1 else self._node(
                base + "written_grad", "AddN", parts,
                {"T": w.inputs[2].dtype.base_dtype, "N": len(parts)}, [w.inputs[2].shape]))
        feed = [popped[t] for t in args + [r.outputs[0] for r in reads + own] + plan.extras +
                plan.inner_outputs] + \
            [popped[value.tensor] if value.tensor in popped else constant_enter(
                self._value(value.tensor, base + "outer"), value.dtype.base_dtype,
                value.shape, "outer") for value in outer_inputs] + captured
        grad = self._gradient_node(
            base + "body_grad", func, feed, [t.dtype.base_dtype for t in inputs],
            views[1:1 + len(floats)] + written,
            types[1:1 + len(floats)] + [w.inputs[2].dtype.base_dtype for w in writes],
            [t.shape for t in inputs])
        # the gradient of each input of the body function: its part from the function's
        # gradient, and from the nested backward loops through the function's ops
        parts = {t: [f"{grad}:{j}"] for j, t in enumerate(inputs)}
        inner_exits = self._nested_loops(plan, inputs, feed, parts, counts, popped,
                                         captured, lift, base, frame)

        def grad_of(t: Tensor) -> str:
            return self._total(base + "grad_sum", parts[t], t)
        one = self._const(base + "sub/y", 1, D.int32, [views[0]])
        nexts = [self._node(base + "sub", "Sub",
                            [views[0], one] + ["^" + p for p in list(popped.values()) +
                                               counts + inner_exits],
                            {"T": D.int32}, [_SCALAR])]
        for j, k in enumerate(plan.floats):
            if k in plan.args:
                nexts.append(grad_of(args[plan.args.index(k)]))
            else:                       # the next value does not read this variable
                nexts.append(self._node(base + "zeros", "ZerosLike", [views[1 + j]],
                                        {"T": types[1 + j]}, [shapes[1 + j]]))
        first = 1 + len(floats)
        for j, c in enumerate(differentiated):
            nexts.append(self._node(base + "add", "AddV2",
                                    [views[first + j], grad_of(c)],
                                    {"T": c.dtype.base_dtype}, [c.shape]))
        first += len(differentiated)
        if reads:
            row = self._const(base + "row_shape", [1, 1], D.int32, [views[0]])
            column = self._const(base + "column_shape", [-1, 1], D.int32, [views[0]]) \
                if plan.splits else ""
        for j, (r, value) in enumerate(zip(reads, unstacked)):
            if r in plan.splits:
                # Split: the element read at index i is rows offset_i ... of the value.
                lengths = plan.splits[r].inputs[2]
                lengths = constant_enter(nest.value(lengths) if nest else self._name(lengths),
                                         D.int64, TensorShape([None]), "split_lengths")
                offset, length = self._offset_and_length(lengths, popped[r.inputs[1]], base,
                                                         views[0])
                last = self._node(base + "read_rows/limit", "AddV2", [offset, length],
                                  {"T": D.int32}, [_SCALAR])
                rows = self._node(base + "read_rows", "Range", [offset, last, one],
                                  {"Tidx": D.int32}, [TensorShape([None])])
                index = self._node(base + "read_index", "Reshape", [rows, column],
                                   {"T": D.int32, "Tshape": D.int32}, [TensorShape([None, 1])])
                update = grad_of(inputs[len(args) + j])
            else:
                # Unstack: the element read at index i gets its gradient at row i.
                index = self._node(base + "read_index", "Reshape", [popped[r.inputs[1]], row],
                                   {"T": D.int32, "Tshape": D.int32}, [TensorShape([1, 1])])
                update = self._node(base + "read_grad", "ExpandDims",
                                    [grad_of(inputs[len(args) + j]), axis],
                                    {"T": value.dtype.base_dtype, "Tdim": D.int32},
                                    [TensorShape(None)])
            nexts.append(self._node(base + "read_sum", "TensorScatterAdd",
                                    [views[first + j], index, update],
                                    {"T": value.dtype.base_dtype, "Tindices": D.int32},
                                    [value.shape]))
        for j, k in enumerate(plan.own_arrays):
            summed_reads = views[own_first + j]
            for r in (r for r in own if plan.own_reads[r] == k):
                index = self._node(base + "own_index", "Reshape", [
                    popped[r.inputs[1]], self._const(base + "own_row", [1, 1], D.int32,
                                                     [views[0]])],
                    {"T": D.int32, "Tshape": D.int32}, [TensorShape([1, 1])])
                update = self._node(base + "own_read_grad", "ExpandDims",
                                    [grad_of(plan.read_input(r)), axis],
                                    {"T": types[own_first + j], "Tdim": D.int32},
                                    [TensorShape(None)])
                summed_reads = self._node(base + "own_sum", "TensorScatterAdd",
                                          [summed_reads, index, update],
                                          {"T": types[own_first + j], "Tindices": D.int32},
                                          [shapes[own_first + j]])
            nexts.append(summed_reads)
        nexts += self._slice_nexts(
            plan, views[slice_first:], lambda t: popped[t] if t in popped else constant_enter(
                self._name(t), t.dtype.base_dtype, t.shape, "indices"), grad_of, base)
        for name, value, dtype, shape in zip(next_names, nexts, types, shapes):
            writer._add(name, "NextIteration", [value], {"T": dtype}, [shape])
        values = {f"{n.name}:0" for n in writer.nodes if n.name.startswith(base)} | \
            {f"{s}:1" for s in switches} | {f"{m}:1" for m in merges}
        writer.while_protos.append(WhileContextDef(
            context_name=frame, parallel_iterations=iterations, back_prop=False,
            swap_memory=bool(plan.op.attrs["swap_memory"]), pivot_name=loop_cond + ":0",
            pivot_for_pred_name=merges[0] + ":0", pivot_for_body_name=views[0] + ":0",
            loop_exit_names=[e + ":0" for e in exits],
            loop_enter_names=[e + ":0" for e in enters],
            values_def=ValuesDef(values=sorted(values | set(external)),
                                 external_values=external)))
        if nest:
            writer.context_parents[frame] = nest.frame
            nest.exits = exits
        out = [(plan.op.inputs[k], exits[1 + j]) for j, k in enumerate(plan.floats)]
        out += [(c, exits[1 + len(floats) + j]) for j, c in enumerate(summed)]
        out += self._slice_grads(plan, exits[slice_first:])
        if nest:
            return out
        for j, gather in enumerate(plan.sparse_reads):
            self.slice_exits[gather] = (exits[slice_first + 2 * j],
                                        exits[slice_first + 2 * j + 1])
        own_exits = {k: exits[own_first + j] for j, k in enumerate(plan.own_arrays)}
        scope = f"{self.prefix}/{self._scope(plan)}entering_grad/"
        return self._through_reads(
            out + self._entering_grads(plan, read_grads, own_exits, scope),
            plan.op._control_flow_context, scope)
