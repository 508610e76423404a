"""How the ops of a loop body are written in the body's function of its backward loop
(loop_gradient_export.py): a tf.cond as both branches + Select (cond_lowering.py), a
nested loop of a fixed trip count unrolled (loop_unrolling.py), an op TF cannot
differentiate in a function as ops it can, a TensorArray read of an array unstacked in
the same body as a row of the unstacked value, a read after this iteration's writes as
the written element where the indices are equal (and a tf.cond's branch writing it ran)."""

from __future__ import annotations

from typing import Any

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.graphdef.cond_lowering import write_cond
from tf1compat.graphdef.gradient_export import lower_op
from tf1compat.graphdef.gradient_lowering import NodeBuilder
from tf1compat.graphdef.gradient_lowering_math import linearize
from tf1compat.graphdef.loop_gradient_plan import LoopPlan
from tf1compat.graphdef.loop_unrolling import lower_read, read_loop, unrolled_loop

__all__ = ["lower_body_op"]


def lower_body_op(plan: LoopPlan, member: Operation, name_of: Any) -> Any:
    """How op `member` of `plan`'s body is written in the body's function: a tf.cond as
    both branches + Select, a nested loop unrolled (and the stack() of its array), an
    op TF cannot differentiate as ops it can, a read of the element written this
    iteration as the written value (None: as it is)."""
    if member in plan.forwarded:
        return [], [name_of(plan.written(plan.forwarded[member]))]
    if member in plan.after_reads:
        return _after_write_read(plan, member, name_of)
    if member in plan.local_reads:
        return _row(member, name_of(plan.local_reads[member]), name_of(member.inputs[1]))
    if member in plan.conds:
        nodes, outputs = write_cond(plan.conds[member], name_of, lower_op)
        count = len(member.outputs)     # then the masked writes' elements, their names
        return nodes, outputs[:count], {w.outputs[0]: name for w, name in zip(
            plan.conds[member].masked, outputs[count:])}
    if member.type == "While":
        return unrolled_loop(member, name_of)
    if read_loop(member) is not None:
        return lower_read(member, name_of)
    if member in plan.outer:
        builder = NodeBuilder(member.name)
        outputs = linearize(member, [name_of(t) for t in member.inputs],
                            [name_of(value) for value in plan.outer[member]], builder)
        return builder.nodes, outputs
    return lower_op(member, [name_of(t) for t in member.inputs])


def _row(read: Operation, value: str, index: str) -> Any:
    """TensorArrayReadV3 `read` of an array unstacked from `value` in the same body: row
    `index` of `value`, a StridedSlice (which TF differentiates in a function; GatherV2
    it does not)."""
    builder = NodeBuilder(read.name)
    begin = builder.add("Pack", [index], {"T": D.int32, "N": 1, "axis": 0})
    end = builder.add("AddV2", [begin, builder.const([1], D.int32)], {"T": D.int32})
    row = builder.add("StridedSlice", [value, begin, end, builder.const([1], D.int32)], {
        "T": read.outputs[0].dtype.base_dtype, "Index": D.int32, "begin_mask": 0,
        "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 1})
    return builder.nodes, [row]


def _after_write_read(plan: LoopPlan, read: Operation, name_of: Any) -> Any:
    """TensorArrayReadV3 `read` after (some of) this iteration's writes to its array, at
    a computed index: the element a write before it stored where the indices are equal
    (the later write's), else the value read (pushed: an earlier iteration's element)."""
    builder = NodeBuilder(read.name)
    value = name_of(plan.after_reads[read])
    dtype = read.outputs[0].dtype.base_dtype
    for write in plan.after_reads[read].writes:
        same = builder.add("Equal", [name_of(read.inputs[1]), name_of(write.inputs[1])],
                           {"T": D.int32, "incompatible_shape_error": True})
        branch = plan.write_branch(write)
        if branch is not None:      # and the write's branch ran
            ran = name_of(branch[0])
            if not branch[1]:
                ran = builder.add("LogicalNot", [ran], {})
            same = builder.add("LogicalAnd", [same, ran], {})
        value = builder.add("Select", [same, name_of(plan.written(write)), value],
                            {"T": dtype})
    return builder.nodes, [value]
