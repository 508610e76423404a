"""Which variables a training plan may hold in torch's layout across its runs.

runtime/physical_store.py keeps them; this pass picks them (docs/performance.md
"## lstm12"). A key qualifies where nothing in the plan can see the layout: a ref
variable of an LSTM layer of a fused `dynamic_rnn` loop (rnn/fused.py
`FusedRNNLoop.held_layouts`: read through the loop's captures, the loop starting at the
graph's constant 0), made a gradient leaf by the plan (`state_marks`), not fetched, read
by no op of the plan but that loop and the one gradient op (the loop's body, run where
the fused kernel declines, reads TF's layout: `FusedRNNLoop.bind`'s `restore`); its
gradient reaches, through Identity ops only and unfetched, one
elementwise Apply (whose rule then runs on the held tensors unchanged: the same values
permuted, so bit-identical) of that variable, whose slot variables no other op of the
plan touches. The slots are held in the variable's layout. Op-by-op plans only (not
TF1 dataflow; hot_plans.py compiles none of them). `TF1COMPAT_LSTM_PHYSICAL=0` turns
the pass off (read when a plan is built).
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Set

from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.runtime.plan import SLOT, STATE, Plan, is_pure_alias
from tf1compat.runtime.plan_order import state_key

__all__ = ["enabled", "held_layouts"]

# Updates whose rule is elementwise in the variable, its slots and the gradient, by the
# index of their gradient input.
_ELEMENTWISE_APPLY = {"ApplyAdam": 9, "ApplyGradientDescent": 2, "ApplyMomentum": 3,
                      "ApplyRMSProp": 7, "ApplyAdagrad": 3}


def enabled() -> bool:
    """Whether plans built now may hold variables in another layout
    (`TF1COMPAT_LSTM_PHYSICAL`, default on)."""
    return os.environ.get("TF1COMPAT_LSTM_PHYSICAL", "1").strip() not in ("0", "false", "off")


def held_layouts(plan: Plan) -> Optional[Dict[str, Any]]:
    """{key: layout} for the variables (and slots) `plan` may hold (module doc), or None."""
    if plan.dataflow or not plan.state_marks or not enabled():
        return None
    candidates: Dict[str, Any] = {}
    loops: Dict[str, Operation] = {}
    for step in plan.steps:
        op = step.op
        finder = getattr(getattr(op.attrs.get("loop"), "fast_path", None), "held_layouts",
                         None) if op._type == "While" and step.kernel is not None else None
        if finder is None:
            continue
        for t, layout in finder(op).items():
            key = state_key(t)
            if key in plan.state_marks:
                candidates[key], loops[key] = layout, op
    if not candidates:
        return None
    touches = _touches(plan)
    fetched = {plan.slot_tensors.get(f.ref) for f in plan.fetches if f.kind == SLOT}
    fetched_keys = {f.ref for f in plan.fetches if f.kind == STATE}
    in_plan = {step.op for step in plan.steps}
    held: Dict[str, Any] = {}
    for key, layout in candidates.items():
        users = touches.get(key, set()) - {loops[key]}
        grads = [op for op in users if op._type == "SymbolicGradient"]
        if key in fetched_keys or len(grads) != 1:
            continue
        out = _gradient_output(grads[0], key)
        apply = None if out is None else _sole_apply(out, in_plan, fetched)
        if apply is None or state_key(apply._inputs[0]) != key or \
                users != {grads[0], apply}:
            continue
        slots = [state_key(apply._inputs[i]) for i in apply._op_def.ref_input_indices
                 if i != 0]
        if any(s is None or touches.get(s, set()) != {apply} for s in slots):
            continue
        held[key] = layout
        held.update(dict.fromkeys(slots, layout))
    return held or None


def _touches(plan: Plan) -> Dict[str, Set[Operation]]:
    """key -> the plan's ops that read or write that variable (through an input, or from
    the store in a control-flow region: a loop's or branch's `reads`)."""
    found: Dict[str, Set[Operation]] = {}
    for step in plan.steps:
        op = step.op
        if step.kernel is None or (op._outputs and
                                   all(is_pure_alias(t) for t in op._outputs)):
            continue          # nothing runs: its consumers read the variable
        for t in op._inputs:
            key = state_key(t)
            if key is not None:
                found.setdefault(key, set()).add(op)
        for value in op.attrs.values():
            for item in value if isinstance(value, (list, tuple)) else (value,):
                for key in getattr(item, "reads", None) or ():
                    if isinstance(key, str):
                        found.setdefault(key, set()).add(op)
    return found


def _gradient_output(op: Operation, key: str) -> Optional[Tensor]:
    """The output of gradient op `op` for the variable `key` (a plain first-order
    gradient of TF1compat's form), else None."""
    attrs = op.attrs
    if attrs.get("f") is not None or attrs.get("create_graph") or attrs.get("jacobian") \
            or attrs.get("loop_slices"):
        return None
    ny, nx = len(attrs["Ty"]), len(attrs["Tx"])
    at = [i for i, t in enumerate(op._inputs[ny:ny + nx]) if state_key(t) == key]
    return op._outputs[at[0]] if len(at) == 1 else None


def _sole_apply(t: Tensor, in_plan: Set[Operation], fetched: Set[Any]) -> Optional[Operation]:
    """The elementwise Apply that alone receives `t` through Identity ops in the plan,
    none of those values fetched; else None."""
    while True:
        users = [op for op in t.consumers() if op in in_plan]
        if t.name in fetched or len(users) != 1:
            return None
        op = users[0]
        if op._type == "Identity":
            t = op._outputs[0]
            continue
        at = _ELEMENTWISE_APPLY.get(op._type)
        if at is None or len(op._inputs) <= at or op._inputs[at] is not t or \
                list(op._inputs).count(t) != 1:
            return None
        return op
