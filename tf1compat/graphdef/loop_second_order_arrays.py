"""The TensorArrays and the ops before the loop of a gradient of a gradient through a
tf.while_loop (loop_second_order.py): dynamic_rnn's form.

dynamic_rnn unstacks its (transposed) input into a TensorArray before its loop, the body
reads the step's element (`TensorArrayReadV3` at the step's index) and writes the step's
output into a second array (`TensorArrayWriteV3`, its flow a loop variable), which is
stacked after the loop (`TensorArrayGatherV3` of every index). The tangent loops written
for it hold no TensorArray (TF's function gradients have none, and a function cannot
take an array's handle): an unstacked array is its dense value (a read: a `GatherV2` of
it and of its tangent, pushed each iteration and an input of the body's tangent
function, whose gradient the backward loop adds at the read's index), a written array a
TensorList of the written values and one of their tangents (set at the write's index;
stacked after the loop, the inputs of the ops after it standing for the gather), the
flows plain values. Ops computing the loop's floating inputs from the sources before it
(dynamic_rnn's transpose of its input) are a function returning their tangents ("head"),
called where the tangents are needed and differentiated by `SymbolicGradient`.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = ["ArrayPlan", "full_reach", "plan_arrays", "head_ops"]

_READ, _WRITE, _GATHER = "TensorArrayReadV3", "TensorArrayWriteV3", "TensorArrayGatherV3"


def full_reach(starts: List[Tensor], ops: Set[Operation]) -> Set[Operation]:
    """The ops of `ops` computed from `starts`, through stateful ops too (a TensorArray's
    fill, write and gather pass its values on through the flow)."""
    found: Set[Operation] = set()
    seeds = set(starts)
    for member in sorted(ops, key=lambda o: o._id):
        if any(t in seeds or t.op in found for t in member.inputs):
            found.add(member)
    return found


def _const_value(t: Tensor) -> Optional[int]:
    if t.op.type != "Const":
        return None
    value = t.op.attrs.get("value")
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _full_range(indices: Tensor, size: Optional[Tensor]) -> bool:
    """Whether `indices` is Range(0, size, 1) (`size`: the array's size; None: any
    limit), every index of an array in order."""
    op = indices.op
    return op.type == "Range" and _const_value(op.inputs[0]) == 0 and \
        _const_value(op.inputs[2]) == 1 and (size is None or op.inputs[1] is size)


class ArrayPlan:
    """The TensorArrays a loop reads and writes (see the module docstring)."""

    def __init__(self) -> None:
        self.reads: List[Operation] = []           # body reads, in order
        self.read_values: Dict[Operation, Tensor] = {}   # read -> the unstacked value
        self.writes: List[Operation] = []          # body writes, in order
        self.gathers: Dict[Operation, Operation] = {}    # tail gather -> its write
        self.flows: Set[int] = set()                # loop variables that are flows
        self.handles: Set[Tensor] = set()           # arrays' handles and fill flows

    def size(self, write: Operation) -> Tensor:
        """The size the written array was made with."""
        return write.inputs[0].op.inputs[0]


def plan_arrays(info, body: List[Operation], tail: List[Operation],
                upstream: Set[Operation]) -> Tuple[ArrayPlan, Optional[str]]:
    """The arrays of a loop (`info`: its LoopInfo) whose body ops are `body` and the
    ops after it `tail`, or why they are not of the form written here."""
    arrays = ArrayPlan()
    for member in body:
        if "TensorArray" not in member.type:
            continue
        handle = member.inputs[0]
        if handle.op.type != "TensorArrayV3" or handle.op._control_flow_context is not None:
            return arrays, f"a TensorArray {member.type} of an array made in the loop"
        arrays.handles.add(handle)
        if member.type == _READ:
            fills = [c for c in handle.consumers() if c in upstream and
                     c.type == "TensorArrayScatterV3"]
            if len(fills) != 1 or not _full_range(fills[0].inputs[1], None):
                return arrays, "a TensorArray read other than of one unstacked before it"
            arrays.reads.append(member)
            arrays.read_values[member] = fills[0].inputs[2]
            arrays.handles.add(member.inputs[2])
        elif member.type == _WRITE:
            flow = member.inputs[3]
            if flow not in info.body_args or \
                    info.body_outputs[info.body_args.index(flow)] is not member.outputs[0]:
                return arrays, "a TensorArray written other than once per iteration"
            if any(w.inputs[0] is handle for w in arrays.writes):
                return arrays, "a TensorArray written twice per iteration"
            arrays.writes.append(member)
            arrays.flows.add(info.body_args.index(flow))
        else:
            return arrays, f"the TensorArray op type {member.type} in the loop"
    for member in tail:
        if "TensorArray" not in member.type:
            continue
        written = [w for w in arrays.writes if w.inputs[0] is member.inputs[0]]
        if not written:         # (another loop's array: its plan's)
            continue
        if member.type != _GATHER or member.inputs[0] in [
                g.inputs[0] for g in arrays.gathers] or \
                not _full_range(member.inputs[1], arrays.size(written[0])):
            return arrays, (f"the TensorArray op type {member.type} after the loop other "
                            "than one stack of a written array")
        arrays.gathers[member] = written[0]
    return arrays, None


def head_ops(values: List[Tensor], reached: Set[Operation]) -> List[Operation]:
    """The ops computing `values` from the ops `reached` (those computed from the
    sources), back to values computing no floats and to the stacks of arrays an earlier
    loop wrote, in creation order."""
    found: Set[Operation] = set()
    stack = [t.op for t in values if t.op in reached]
    while stack:
        current = stack.pop()
        if current in found or current not in reached or current.type == _GATHER or \
                not any(t.dtype.base_dtype.is_floating for t in current.outputs):
            continue
        found.add(current)
        stack.extend(t.op for t in current.inputs)
    return sorted(found, key=lambda o: o._id)
