"""Backward loops of loops nested in a loop body (loop_gradient_export.py).

A loop nested in a body on the gradient path whose trip count is known only at run
time (conds, random draws and gradient stops in them included, and loops of its own,
nested the same way, in its body or its conds; resource variable reads, read once
outside all loops as a top-level body's; TensorArrays only
unstacked or split before it or filled from empty, or from elements the outer body
wrote at constant indices, and stacked after it, or filled from empty and read after it
by read(k), gather() or concat(): a dynamic_rnn,
a tf.scan) gets a backward loop inside the outer one's, as TF 1.x nests them
(`NestedLoopGradients._nested_loops`): its stacks are made once outside all loops and
entered into every enclosing frame, its counter starts each outer iteration
after the outer counter's value (so the pushes of successive outer iterations keep their
order), the outer loop pushes its trip count, its outputs (inputs of the outer body's
function) and the body values it captures; the outer backward loop pops them, runs the
nested backward loop from the popped count and differentiates a second function of the
outer body, from the same inputs to the nested loop's initial values and captured body
values (and the elements written before it: their rows of the stack()'s gradient), with
its results. The next outer backward iteration waits for its Exits. A plain
loop in a tf.cond branch of the body is one too: the function writes the cond with the
loop's outputs as inputs (pushed through a Merge, as a branch's random draws), the loop's
counter starts only where its branch runs, its stacks pass the cond's Switch, and the
trip count the outer loop pushes is 0 where the branch did not run (in a tf.cond in a
branch: through every cond, the outermost first); values the branch computes for the
loop (or one around it, for a loop in a tf.cond in a branch) get their gradients
through a function of the branches' ops (`_branch_values`). What is
planned for each loop, and why a loop cannot be: loop_gradient_plan.py.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.tensor import Tensor
from tf1compat.graphdef.cond_stand_ins import shape_source
from tf1compat.graphdef.gradient_export import lower_op
from tf1compat.graphdef.loop_body_lowering import lower_body_op
from tf1compat.graphdef.loop_gradient_plan import LoopPlan

__all__ = ["Nest", "NestedLoopGradients"]


class NestedLoopGradients:
    """The nested-loop parts of `_LoopGradientWriter` (it supplies `writer`, `op`,
    `inner_stacks`, `_node`, `_const`, `_total`, `_scope`, `_gradient_node` and
    `_backward_loop`)."""

    writer: Any
    op: Any
    inner_stacks: Dict[LoopPlan, List[str]]
    _node: Any
    _const: Any
    _total: Any
    _scope: Any
    _gradient_node: Any
    _backward_loop: Any

    def _nested_loops(self, plan: LoopPlan, inputs: List[Any], feed: List[str],
                      parts: Dict[Any, List[str]], counts: List[str],
                      popped: Dict[Tensor, str], captured: List[str], lift: Any,
                      base: str, frame: str) -> List[str]:
        """Writes the backward loops of the loops nested in `plan`'s body (`plan.inner`,
        last-created first) inside `plan`'s backward loop (frame `frame`), adding the
        gradients they give to `parts` (the parts of the gradient of each input of the
        body function, whose values are `feed`); returns their Exits (the next backward
        iteration waits for them: the nested loops share their stacks over the outer
        iterations)."""
        exits: List[str] = []
        for inner, count in reversed(list(zip(plan.inner, counts))):
            def value(c: Tensor) -> str:    # a value of the outer backward loop's frame
                return popped[c] if c in popped else captured[plan.captures.index(c)]
            nest = Nest(count, [lift(s) for s in self.inner_stacks[inner]], value, frame,
                         lift)
            output_grads = [self._total(base + "inner_grad", parts[t], t)
                            for t in inner.sources]
            found = self._backward_loop(inner, output_grads, nest)
            exits += nest.exits
            targets = [(t, g) for t, g in found if t.op._control_flow_context is not None
                       and t not in plan.variable_reads]
            for write, (owner, reader) in plan.prewritten.items():
                if owner is inner:      # an element written before it: its stacked row
                    index = constant_value(write.inputs[1])
                    row = popped[write.inputs[1]] if index is None else self._const(
                        base + "prewritten_row", int(index), D.int32, [count])
                    axis = self._const(base + "prewritten_axis", 0, D.int32, [count])
                    targets.append((write.inputs[2], self._node(
                        base + "prewritten_grad", "GatherV2",
                        [output_grads[inner.sources.index(reader.outputs[0])], row, axis],
                        {"Tparams": write.inputs[2].dtype.base_dtype, "Tindices": D.int32,
                         "Taxis": D.int32, "batch_dims": 0}, [write.inputs[2].shape])))
            for t, g in found:
                # a top-level capture, or a variable read (read once outside all loops)
                if t.op._control_flow_context is None or t in plan.variable_reads:
                    parts[t].append(g)
            targets = self._branch_values(plan, inner, targets, parts, value, base)
            if not targets:
                continue
            # The initial values and captured body values of the nested loop, computed
            # by the body's ops from the function's inputs: their gradients pass there.
            func = self.writer.functions.function(
                f"{self.op.name}/{self._scope(inner)}inputs".replace("/", "_"), inputs,
                [t for t, _ in targets], plan.ops,
                lambda member, name_of: lower_body_op(plan, member, name_of),
                context=plan.info.body_region)
            grad = self._gradient_node(
                base + "inner_inputs_grad", func, feed, [t.dtype.base_dtype for t in inputs],
                [g for _, g in targets], [t.dtype.base_dtype for t, _ in targets],
                [t.shape for t in inputs])
            for j, t in enumerate(inputs):
                parts[t].append(f"{grad}:{j}")
        return exits

    def _branch_values(self, plan: LoopPlan, inner: LoopPlan,
                       targets: List[Tuple[Tensor, str]], parts: Dict[Any, List[str]],
                       value: Any, base: str) -> List[Tuple[Tensor, str]]:
        """`targets` (a value of `plan`'s body, its gradient from nested loop `inner`'s
        backward loop) with those its tf.cond branch computes (`plan.branch_values`)
        replaced by the outside values they are computed from: `SymbolicGradient` of a
        function of the branch's ops (a top-level value's gradient goes to `parts`)."""
        if inner not in plan.branch_values:
            return targets
        branches, ops, frontier = plan.branch_values[inner]
        inside = [(t, g) for t, g in targets if t.op._control_flow_context in branches]
        if not inside:
            return targets
        func = self.writer.functions.function(
            f"{self.op.name}/{self._scope(inner)}branch".replace("/", "_"), frontier,
            [t for t, _ in inside], ops,
            lambda member, name_of: lower_op(member, [name_of(t) for t in member.inputs]),
            context=branches)
        grad = self._gradient_node(
            base + "branch_values_grad", func, [value(t) for t in frontier],
            [t.dtype.base_dtype for t in frontier], self._shaped_grads(
                func, inside, [value(t) for t in frontier], base),
            [t.dtype.base_dtype for t, _ in inside], [t.shape for t in frontier])
        found = [(t, g) for t, g in targets if t.op._control_flow_context not in branches]
        for j, t in enumerate(frontier):
            if not t.dtype.base_dtype.is_floating or t.op._control_flow_context in branches:
                continue        # (a value of an op without a gradient in the branch)
            if t.op._control_flow_context is None:      # a top-level capture
                parts[t].append(f"{grad}:{j}")
            else:
                found.append((t, f"{grad}:{j}"))
        return found


    def _shaped_grads(self, func: Any, inside: List[Tuple[Tensor, str]], frontier: List[str],
                      base: str) -> List[str]:
        """The gradients of branch values `inside` for their function `func`: one of a
        value of a run-time shape its Merge passes a scalar stand-in for (where the
        branch did not run: the nested backward loop's zeros of that) broadcast to the
        value the function computes (`g + ZerosLike(func(frontier))`)."""
        if all(t.shape.is_fully_defined() or shape_source(t) is not None for t, _ in inside):
            return [g for _, g in inside]
        call = self._node(base + "branch_values", func.func.name, frontier, {},
                          [t.shape for t, _ in inside])
        found = []
        for k, (t, g) in enumerate(inside):
            if not (t.shape.is_fully_defined() or shape_source(t) is not None):
                dtype = t.dtype.base_dtype
                zeros = self._node(base + "branch_values_zeros", "ZerosLike",
                                   [f"{call}:{k}"], {"T": dtype}, [t.shape])
                g = self._node(base + "branch_values_shaped", "AddV2", [g, zeros],
                               {"T": dtype}, [t.shape])
            found.append(g)
        return found


class Nest:
    """What a backward loop nested in another's has from the outer one: its trip count
    and stacks (entered into the outer frame), the outer frame's values of the tensors
    it captures (`value`), the outer frame's name; its Exits once written."""

    def __init__(self, count: str, stacks: List[str], value: Any, frame: str, lift: Any):
        self.count = count
        self.stacks = stacks
        self.value = value
        self.frame = frame
        self.lift = lift        # a stack made outside all loops, in the outer frame
        self.exits: List[str] = []
