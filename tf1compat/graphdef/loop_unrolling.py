"""A while loop nested in a loop body on the gradient path, written unrolled in the
outer body's function (loop_gradient_export.py).

TF's function gradients have no While (probed), so the outer loop's backward loop,
which runs `SymbolicGradient` of its body function, cannot differentiate an inner loop
kept as a loop. Where the inner loop's trip count is fixed when the graph is written
(its condition reads integer loop variables that start from constants and that the
body steps by constants: `tf.while_loop(lambda j, h: j < 3, ...)` in a body), the
function holds its body that many times, each copy reading the previous one's
values: the same computation for every run, which TF differentiates. The forward
graph keeps the real nested loop. Inner loops whose trip count depends on run-time
values, or whose body holds TensorArrays, conditionals, further loops, stateful ops or
ops TF cannot differentiate in a function, keep tf1compat's form (warned by the plan).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.serialization.messages import NodeDef
from tf1compat.graphdef.function_export import output_arg
from tf1compat.graphdef.gradient_export import TF_DIFFERENTIABLE_OP_TYPES
from tf1compat.graphdef.graph_io import op_to_node_def

__all__ = ["unrolling_reason", "unrolled_loop"]

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
    if t.op._control_flow_context is not region or t.op.type == "Const":
        return constant_value(t)
    fold = _FOLDS.get(t.op.type)
    if fold is None:
        return None
    args = [_fold(x, env, region) for x in t.op.inputs]
    if any(a is None for a in args):
        return None
    env[t] = np.asarray(fold(*args))
    return env[t]


def static_trip_count(loop: Operation) -> Optional[int]:
    """How many iterations tf.while_loop `loop` runs, where that is fixed when the graph
    is written, else None."""
    info = loop.attrs["loop"]
    n = len(info.body_args)
    state: List[Any] = [constant_value(t) if t.dtype.is_integer else None
                        for t in loop.inputs[:n]]
    for count in range(MAX_UNROLLED_ITERATIONS + 1):
        pred = _fold(info.pred, {a: v for a, v in zip(info.cond_args, state)
                                 if v is not None}, info.cond_region)
        if pred is None:
            return None
        if not bool(pred):
            return count
        env = {a: v for a, v in zip(info.body_args, state) if v is not None}
        state = [_fold(out, env, info.body_region) if out.dtype.is_integer else None
                 for out in info.body_outputs]
    return None


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
        if member.type != "Const" and member.type not in TF_DIFFERENTIABLE_OP_TYPES:
            return (f"the nested loop {loop.name} holds {member.type} (only ops TF "
                    "differentiates in a function are unrolled)")
    if static_trip_count(loop) is None:
        return (f"the trip count of the nested loop {loop.name} is not fixed when the "
                "graph is written (it is unrolled only then)")
    return None


def unrolled_loop(loop: Operation, name_of: Callable[[Tensor], str]
                  ) -> Tuple[List[NodeDef], List[str]]:
    """The NodeDefs of nested loop `loop`'s body, once per iteration (names
    `<loop>/unrolled_<k>/<op>`), and the name of each of the loop's outputs; `name_of`
    names the enclosing function's values (the loop's inputs, what its body reads from
    outside)."""
    info = loop.attrs["loop"]
    n = len(info.body_args)
    current = [name_of(t) for t in loop.inputs[:n]]
    nodes: List[NodeDef] = []
    for k in range(static_trip_count(loop)):
        prefix = f"{loop.name}/unrolled_{k}/"
        written: Dict[Tensor, str] = dict(zip(info.body_args, current))

        def value(t: Tensor) -> str:
            if t in written:
                return written[t]
            if t.op._control_flow_context is info.body_region:
                return f"{prefix}{t.op.name}:{output_arg(t.op, t.value_index)}"
            return name_of(t)
        for member in _body_ops(info):
            node = op_to_node_def(member)
            node.name = prefix + member.name
            del node.input[:]
            node.input.extend(value(t) for t in member.inputs)
            node.device = ""
            nodes.append(node)
        current = [value(t) for t in info.body_outputs]
    return nodes, current
