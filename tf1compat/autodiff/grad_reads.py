"""The forward tensors TF's backward pass reads.

TF's `tf.gradients` builds one gradient function per forward op between the xs and the
ys; a forward op runs (with its control dependencies) when the gradient fetch is run
only where one of those functions reads its output, directly or through a Shape whose
static value is not known. tf1compat's gradient op instead differentiates the computed
ys with torch autograd, so the plan computes every op between xs and ys for its value;
the tensors named here run in full (runtime/plan.py: `value_only`), the others for
autograd only: without their control inputs, and stateful ones without their effects.
So `tf.identity` hooks (contrib batch norm's `updates_collections=None`),
`tf.control_dependencies` chains and the like do not fire when only a gradient is
fetched, as in TF.

The same reads (less those made only for shapes) decide which gradients of a gradient
are None: `reaches_through_reads`.

The rules follow TF's gradient functions (math_grad.py, array_grad.py, nn_grad.py) for
the common op types; every other op type reads all of its inputs and outputs (more than
TF for some, so their control dependencies run, as before).
"""

from __future__ import annotations

import collections
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from tf1compat.framework.grad_names import is_trainable
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = ["forward_reads", "reaches_through_reads"]

# Gradient functions that pass the incoming gradient on without reading the forward op
# (dtype and shape come from attrs or static shapes).
_PASS_THROUGH = frozenset({
    "Identity", "Snapshot", "Print", "PreventGradient", "IdentityN", "Neg", "AddN",
    "Cast", "ReadVariableOp", "BiasAdd", "StopGradient", "CheckNumerics", "CheckNumericsV2",
})
# Binary ops whose gradient with respect to one input reads the other input
# (and, where broadcasting is not static, both inputs' shapes).
_READS_OTHER = frozenset({"Mul", "MatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3"})
# Gradients that read only the static shapes of the inputs (broadcast reduction).
_READS_SHAPES = frozenset({"Add", "AddV2", "Sub"})
# Reshapes: the gradient reshapes back to the input's shape. (TF's does not read the
# shape argument; reading it keeps ops computed for autograd only off it, see plan.py's
# `_without_effects`.)
_READS_INPUT_SHAPE = frozenset({"Reshape", "Squeeze", "ExpandDims"})
# Gradients computed from the op's output (y' = f(y)).
_READS_OUTPUT = frozenset({"Tanh", "Sigmoid", "Relu", "Exp", "Sqrt", "Rsqrt"})


def _static(t: Tensor) -> bool:
    return t.shape.is_fully_defined()


def _reads(op: Operation, wanted: Sequence[bool], values_only: bool) -> List[Tensor]:
    # (values_only: a shape read through Shape carries no gradient, so the inputs a
    # gradient reads only the shapes of are left out)
    ins, t = op._inputs, op._type
    if t in _PASS_THROUGH:
        return []
    if t in _READS_SHAPES:
        return [] if values_only or all(_static(x) for x in ins) else list(ins)
    if t in _READS_INPUT_SHAPE:
        return list(ins[1:]) if values_only or _static(ins[0]) else list(ins)
    if t in _READS_OUTPUT:
        return list(op._outputs)
    if t in ("Sum", "Mean"):
        static = _static(ins[0]) and (t == "Sum" or _static(op._outputs[0]))
        return [ins[1]] if static or values_only else list(ins) + list(op._outputs)
    if t in _READS_OTHER and len(ins) == 2:
        if not values_only and not all(_static(x) for x in ins):
            return list(ins)
        return [ins[1 - i] for i in range(2) if wanted[i]]
    return list(ins) + list(op._outputs)


def forward_reads(between: Set[Operation], stop_ops: Set[Operation],
                  custom_ops: Sequence[Operation],
                  captures: Callable[[Operation], Sequence[Tensor]],
                  values_only: bool = False) -> List[Tensor]:
    """The forward tensors the gradient functions of the ops in `between` (the ops a
    gradient reached) read, in a stable order. A custom gradient reads what
    `captures(op)` names. `values_only` leaves out the tensors read for their shapes
    only."""
    custom = set(custom_ops)
    out: Dict[Tensor, None] = {}
    for op in sorted(between, key=lambda o: o._id):
        if op in stop_ops:
            continue
        if op in custom:
            out.update(dict.fromkeys(captures(op)))
            continue
        wanted = [x._op in between and x._op not in stop_ops for x in op._inputs]
        if any(wanted):
            out.update(dict.fromkeys(_reads(op, wanted, values_only)))
    return list(out)


def reaches_through_reads(x: Tensor, ys: Sequence[Tensor],
                          reads_of: Callable[[Operation], Optional[Tuple[int, Set[Tensor]]]]
                          ) -> bool:
    """Whether a gradient of `ys` can reach `x` as in TF, where a gradient op (one
    tf1compat `tf.gradients` call) stands for TF's gradient functions of its region.

    `reads_of(op)` is None for an ordinary op; for a gradient op it gives how many of its
    first inputs are the forward values it differentiates (its ys and sources) and the
    forward tensors TF's gradient functions read. Through those inputs TF's gradient
    graph depends on `x` only where `x` reaches one of the read tensors (the gradient of
    `matmul(a, w) + b` with respect to `a` reads `w`, not `b`: a gradient of it with
    respect to `b` is None); its other inputs (the incoming gradients) are ordinary.
    Elsewhere this is the walk's reachability (trainable outputs to their consumers).
    """
    targets = {y._op for y in ys}
    done: Set[Operation] = set()
    reached: Set[Tensor] = set()
    waiting: Dict[Operation, Set[Tensor]] = {}
    queue = collections.deque([x._op])
    while True:
        while queue:
            op = queue.popleft()
            if op in done:
                continue
            done.add(op)
            if op in targets:
                return True
            for out in op._outputs:
                if not is_trainable(out):
                    continue
                reached.add(out)
                for consumer in out._consumers:
                    forward = reads_of(consumer)
                    if forward is None or any(t is out for t in
                                              consumer._inputs[forward[0]:]):
                        queue.append(consumer)
                    else:
                        waiting[consumer] = forward[1]
        ready = [op for op, reads in waiting.items() if op not in done and reads & reached]
        if not ready:
            return False
        for op in ready:
            del waiting[op]
            queue.append(op)
