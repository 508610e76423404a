"""A while loop nested in a loop body on the gradient path, written unrolled in the
outer body's function (loop_gradient_export.py).

TF's function gradients have no While (probed), so the outer loop's backward loop,
which runs `SymbolicGradient` of its body function, cannot differentiate an inner loop
kept as a loop. Where the inner loop's trip count is fixed when the graph is written
(its condition reads integer loop variables that start from constants and that the
body steps by constants: `tf.while_loop(lambda j, h: j < 3, ...)` in a body; a tf.scan
or dynamic_rnn over a static length), the function holds its body that many times,
each copy reading the previous one's values: the same computation for every run,
which TF differentiates. TensorArrays unstacked before the inner loop are read as
slices of the unstacked value; one written once per iteration at its index and
stacked after the loop is the Pack of its elements (read after the loop by gather() or
read(): rows of the Pack; by concat(): the Pack reshaped). The forward graph keeps the real
nested loop. Plain inner loops whose trip count depends on run-time values get a nested
backward loop instead (loop_gradient_export.py); others, and those whose body holds
other TensorArray uses, conditionals, further loops, stateful ops or ops TF cannot
differentiate in a function, keep tf1compat's form (warned by the plan).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.serialization.messages import NodeDef
from tf1compat.graphdef.function_export import output_arg
from tf1compat.graphdef.function_nodes import NodeBuilder
from tf1compat.graphdef.gradient_export import TF_DIFFERENTIABLE_OP_TYPES
from tf1compat.graphdef.graph_io import op_to_node_def

__all__ = ["unrolling_reason", "unrolled_loop", "unrolled_inputs", "stacked_loop",
           "read_loop", "lower_read", "static_trip_count"]

# The most iterations an inner loop is unrolled to (a function's size grows with it).
MAX_UNROLLED_ITERATIONS = 64

# What the trip count's evaluation computes, on numpy values (integer counters and
# their comparisons).
_FOLDS: Dict[str, Callable[..., Any]] = {
    "Less": np.less, "LessEqual": np.less_equal, "Greater": np.greater,
    "GreaterEqual": np.greater_equal, "Equal": np.equal, "NotEqual": np.not_equal,
    "AddV2": np.add, "Add": np.add, "Sub": np.subtract, "Mul": np.multiply,
    "Maximum": np.maximum, "Minimum": np.minimum, "LogicalAnd": np.logical_and,
    "LogicalOr": np.logical_or, "LogicalNot": np.logical_not, "Identity": lambda x: x,
    "FloorDiv": np.floor_divide, "FloorMod": np.mod,
}


def _fold(t: Tensor, env: Dict[Tensor, Any], region: Any) -> Optional[np.ndarray]:
    """`t`'s value given the loop variables' values `env` (None where not known)."""
    if t in env:
        return env[t]
    inside = t.op._control_flow_context is region
    if not inside or t.op.type == "Const":
        value = constant_value(t)
        if value is not None or t.op.type not in _FOLDS:
            return value
    fold = _FOLDS.get(t.op.type)
    if fold is None:
        return None
    args = [_fold(x, env, region) for x in t.op.inputs]
    if any(a is None for a in args):
        return None
    env[t] = np.asarray(fold(*args))
    return env[t]


def _iterations(loop: Operation) -> Optional[List[Dict[Tensor, Any]]]:
    """The known integer values of each iteration of tf.while_loop `loop` (one dict per
    iteration), where its trip count is fixed when the graph is written, else None."""
    info = loop.attrs["loop"]
    n = len(info.body_args)
    state: List[Any] = [constant_value(t) if t.dtype.is_integer else None
                        for t in loop.inputs[:n]]
    found: List[Dict[Tensor, Any]] = []
    for _ in range(MAX_UNROLLED_ITERATIONS + 1):
        pred = _fold(info.pred, {a: v for a, v in zip(info.cond_args, state)
                                 if v is not None}, info.cond_region)
        if pred is None:
            return None
        if not bool(pred):
            return found
        env = {a: v for a, v in zip(info.body_args, state) if v is not None}
        state = [_fold(out, env, info.body_region) if out.dtype.is_integer else None
                 for out in info.body_outputs]
        found.append(env)
    return None


def static_trip_count(loop: Operation) -> Optional[int]:
    """How many iterations tf.while_loop `loop` runs, where that is fixed when the graph
    is written, else None."""
    found = _iterations(loop)
    return None if found is None else len(found)


def _beyond_identities(t: Tensor) -> Tensor:
    while t.op.type == "Identity":
        t = t.op.inputs[0]
    return t


def _is_range(t: Tensor) -> bool:
    op = t.op
    return op.type == "Range" and [None if v is None else int(v) for v in (
        constant_value(op.inputs[0]), constant_value(op.inputs[2]))] == [0, 1]


def _unstacked(read: Operation) -> Optional[Tensor]:
    """The value unstacked (`TensorArrayScatterV3` of a range) into the array a nested
    loop's TensorArrayReadV3 `read` reads, or None."""
    scatter = _beyond_identities(read.inputs[2]).op
    if scatter.type != "TensorArrayScatterV3" or not _is_range(scatter.inputs[1]) or \
            _beyond_identities(scatter.inputs[0]) is not _beyond_identities(read.inputs[0]):
        return None
    return scatter.inputs[2]


def stacked_loop(op: Operation) -> Optional[Operation]:
    """The nested loop whose written TensorArray `op` stacks (a TensorArrayGatherV3 of
    a range of the loop's output flow), or None."""
    if op.type != "TensorArrayGatherV3" or not _is_range(op.inputs[1]):
        return None
    return read_loop(op)


def read_loop(op: Operation) -> Optional[Operation]:
    """The nested loop whose written TensorArray `op` reads after it, or None: a stack()
    (`stacked_loop`), a gather() or read() at indices known when the graph is written,
    or a concat() of elements of a static shape (an unrolled loop's elements are the
    rows of its Pack: `lower_read`)."""
    if op.type not in ("TensorArrayGatherV3", "TensorArrayReadV3", "TensorArrayConcatV3"):
        return None
    loop = _beyond_identities(op.inputs[-1]).op     # the flow is the last input
    if loop.type != "While" or loop.attrs.get("loop") is None:
        return None
    if op.type == "TensorArrayConcatV3":
        known = _element_shape(op) is not None
    else:
        known = _is_range(op.inputs[1]) or constant_value(op.inputs[1]) is not None
    return loop if known else None


def _element_shape(concat: Operation) -> Optional[List[int]]:
    """The static shape of the elements the nested loop writes to the array that
    TensorArrayConcatV3 `concat` reads (its body's write of it), or None."""
    flow = _beyond_identities(concat.inputs[-1])
    write = flow.op.attrs["loop"].body_outputs[flow.value_index].op
    if write.type != "TensorArrayWriteV3" or not write.inputs[2].shape.is_fully_defined() \
            or write.inputs[2].shape.ndims == 0:
        return None
    return write.inputs[2].shape.as_list()


def lower_read(op: Operation, name_of: Callable[[Tensor], str]
               ) -> Tuple[List[NodeDef], List[str]]:
    """A read `op` (`read_loop`) of an unrolled loop's array, from its elements packed by
    `unrolled_loop` (named as the loop's output flow): the Pack itself for a stack(),
    rows of it (slices, which TF differentiates in a function; GatherV2 it does not)
    for a gather() or read(), the Pack reshaped to the concatenation for a concat()
    (TensorArrayConcatV3's second output, the lengths, as a constant)."""
    packed = name_of(_beyond_identities(op.inputs[-1]))
    if stacked_loop(op) is not None:
        return [], [packed]
    builder = NodeBuilder(f"{op.name}/unrolled")
    dtype = op.outputs[0].dtype.base_dtype
    if op.type == "TensorArrayConcatV3":
        element = _element_shape(op) or []
        trips = static_trip_count(_beyond_identities(op.inputs[-1]).op) or 0
        rows = builder.add("Reshape", [packed, builder.const(
            [trips * element[0]] + element[1:], D.int32)], {"T": dtype, "Tshape": D.int32})
        return builder.nodes, [rows, builder.const([element[0]] * trips, D.int64)]

    def row(k: int) -> str:
        return builder.add("StridedSlice", [
            packed, builder.const([k], D.int32), builder.const([k + 1], D.int32),
            builder.const([1], D.int32)],
            {"T": dtype, "Index": D.int32, "begin_mask": 0, "end_mask": 0,
             "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 1})
    index = np.asarray(constant_value(op.inputs[1]))
    if op.type == "TensorArrayReadV3":
        return builder.nodes, [row(int(index))]
    rows = [row(int(k)) for k in index.reshape(-1)]
    return builder.nodes, [builder.add("Pack", rows, {"T": dtype, "N": len(rows),
                                                       "axis": 0})]


def _written_arrays(loop: Operation) -> Tuple[Dict[int, Operation], Optional[str]]:
    """The loop variables of nested loop `loop` that are flows of TensorArrays its body
    writes once per iteration (-> the write), each stacked after the loop (or not
    read), at indices 0, 1, ... in order; or why not."""
    info = loop.attrs["loop"]
    writes: Dict[int, Operation] = {}
    for k, out in enumerate(info.body_outputs):
        if out.op.type != "TensorArrayWriteV3":
            continue
        write = out.op
        if write.inputs[3] is not info.body_args[k]:
            return {}, f"the nested loop {loop.name} writes an array more than once"
        for consumer in loop.outputs[k].consumers():
            if consumer.type in ("Identity", "TensorArraySizeV3"):
                continue
            if read_loop(consumer) is not loop:
                return {}, (f"an array the nested loop {loop.name} writes is read after it "
                            "other than by stack(), gather() or read() at indices known "
                            "when the graph is written, or concat() of elements of a "
                            "static shape")
        writes[k] = write
    iterations = _iterations(loop) or []
    reads = [m for m in _body_ops(info) if m.type == "TensorArrayReadV3"]
    for step, env in enumerate(iterations):
        if any(_fold(r.inputs[1], dict(env), info.body_region) is None for r in reads):
            return {}, (f"the nested loop {loop.name} reads its array at an index not "
                        "known when the graph is written")
        for write in writes.values():
            index = _fold(write.inputs[1], dict(env), info.body_region)
            if index is None or int(index) != step:
                return {}, (f"the nested loop {loop.name} writes its array other than at "
                            "its iteration's index")
    return writes, None


def unrolled_inputs(loop: Operation) -> List[Tensor]:
    """The tensors from outside that unrolled nested loop `loop` reads: its initial
    values (not TensorArray flows), what its body reads from outside and the values
    unstacked into the arrays it reads."""
    info = loop.attrs["loop"]
    n = len(info.body_args)
    found = [t for t in loop.inputs[:n] if t.dtype.base_dtype.is_floating or
             t.dtype.is_integer]
    for member in _body_ops(info):
        if member.type == "TensorArrayReadV3":
            found.append(_unstacked(member))
            inputs = [member.inputs[1]]
        elif member.type == "TensorArrayWriteV3":
            inputs = [member.inputs[1], member.inputs[2]]
        else:
            inputs = list(member.inputs)
        found += [t for t in inputs if t.op._control_flow_context is not info.body_region]
    return found


def _body_ops(info: Any) -> List[Operation]:
    """The ops of a loop's body, less those standing for its loop variables."""
    args = {t.op for t in info.body_args}
    return [member for member in info.body_region.ops if member not in args]


def unrolling_reason(loop: Operation) -> Optional[str]:
    """Why nested loop `loop` cannot be written unrolled (None: it can)."""
    info = loop.attrs.get("loop")
    if info is None:
        return f"the nested loop {loop.name} has no region"
    if not loop.attrs.get("back_prop", True):
        return f"the nested loop {loop.name} has back_prop=False"
    for member in _body_ops(info):
        if member.type == "TensorArrayReadV3" and _unstacked(member) is not None or \
                member.type == "TensorArrayWriteV3":
            continue
        if member.type != "Const" and member.type not in TF_DIFFERENTIABLE_OP_TYPES:
            return (f"the nested loop {loop.name} holds {member.type} (only ops TF "
                    "differentiates in a function and TensorArrays unstacked before it "
                    "or stacked after it are unrolled)")
    if static_trip_count(loop) is None:
        return (f"the trip count of the nested loop {loop.name} is not fixed when the "
                "graph is written (it is unrolled only then)")
    arrays, reason = _written_arrays(loop)
    if arrays and not static_trip_count(loop):
        return f"the nested loop {loop.name} writes an array and runs no iteration"
    return reason


def unrolled_loop(loop: Operation, name_of: Callable[[Tensor], str]
                  ) -> Tuple[List[NodeDef], List[str]]:
    """The NodeDefs of nested loop `loop`'s body, once per iteration (names
    `<loop>/unrolled_<k>/<op>`), and the name of each of the loop's outputs; `name_of`
    names the enclosing function's values (the loop's inputs, what its body reads from
    outside)."""
    info = loop.attrs["loop"]
    n = len(info.body_args)
    arrays, _ = _written_arrays(loop)
    current = ["" if k in arrays else name_of(t) for k, t in enumerate(loop.inputs[:n])]
    builder = NodeBuilder(f"{loop.name}/unrolled")
    elements: Dict[int, List[str]] = {k: [] for k in arrays}
    for k, env in enumerate(_iterations(loop)):
        prefix = f"{loop.name}/unrolled_{k}/"
        written: Dict[Tensor, str] = dict(zip(info.body_args, current))

        def value(t: Tensor) -> str:
            if t in written:
                return written[t]
            if t.op._control_flow_context is info.body_region:
                return f"{prefix}{t.op.name}:{output_arg(t.op, t.value_index)}"
            return name_of(t)
        for member in _body_ops(info):
            if member.type == "TensorArrayReadV3":
                # row i of the unstacked value (i known for each iteration; a slice,
                # which TF differentiates in a function, GatherV2 it does not)
                row = int(_fold(member.inputs[1], dict(env), info.body_region))
                written[member.outputs[0]] = builder.add("StridedSlice", [
                    name_of(_unstacked(member)), builder.const([row], D.int32),
                    builder.const([row + 1], D.int32), builder.const([1], D.int32)],
                    {"T": member.outputs[0].dtype.base_dtype, "Index": D.int32,
                     "begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0,
                     "new_axis_mask": 0, "shrink_axis_mask": 1})
                continue
            if member.type == "TensorArrayWriteV3":     # element i of the stack
                k_of = [j for j, w in arrays.items() if w is member]
                elements[k_of[0]].append(value(member.inputs[2]))
                written[member.outputs[0]] = ""
                continue
            node = op_to_node_def(member)
            node.name = prefix + member.name
            del node.input[:]
            node.input.extend(value(t) for t in member.inputs)
            node.device = ""
            builder.nodes.append(node)
        current = [value(t) for t in info.body_outputs]
    for k, write in arrays.items():
        current[k] = builder.add("Pack", elements[k], {
            "T": write.inputs[2].dtype.base_dtype, "N": len(elements[k]), "axis": 0})
    return builder.nodes, current
