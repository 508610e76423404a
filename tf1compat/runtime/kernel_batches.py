"""Batched kernels: adjacent ops of one kind run as one call (a plan pass and its rule).

An optimizer step updates every variable with one Apply* op each (TF's ApplyAdam, ...),
and op by op each costs a kernel call, a lock and an ownership pass per variable. A
kernel may instead say that its op can run together with others: it carries

* `batch_key` (hashable): steps with equal keys may be batched, and
* `make_batch(kernels)`: returns one callable taking every member's argument tuple, in
  plan order, that applies them all and returns True, or returns False having changed
  nothing when it cannot take these inputs (ops/training_ops.py `_batched_update`).

`group_batchable` (a plan pass, run before `compute_frees`) brings the members of a key
together within the graph's partial order: steps between them that no member feeds are
hoisted above the first member when that cannot change what they see (pure ops, and
ReadVariableOp of a variable none of the members updates; the tf.train optimizers read
beta1_power/beta2_power once per variable), steps fed by a member move below the last
one, and anything else (another stateful op, a read of a member's variable) ends the
group there. `batches` then finds the runs of adjacent equal keys that the code generator
emits as one call, keeping the op-by-op calls as its fallback (runtime/codegen.py).
`TF1COMPAT_BATCH_KERNELS=0` turns batching off.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Set

from tf1compat.framework.operation import Operation

__all__ = ["batch_key", "group_batchable", "batches", "enabled"]

_HOISTABLE_STATEFUL = ("ReadVariableOp",)


def enabled() -> bool:
    """Whether plans built now batch kernels (read per plan, so tests can switch it)."""
    return os.environ.get("TF1COMPAT_BATCH_KERNELS", "1").strip() not in ("0", "off")


def batch_key(step: Any) -> Any:
    """The step's kernel's batch key, or None when it runs alone (no key, or outputs
    that are used: the batched call returns nothing)."""
    kernel = step.kernel
    if kernel is None or any(s is not None for s in step.outs) or step.marks:
        return None
    return getattr(kernel, "batch_key", None)


def _variable_inputs(op: Operation) -> Set[Any]:
    return {t for t in op.inputs if t.dtype._is_ref_dtype or t.dtype.name == "resource"}


def _hoistable(op: Operation, updated: Set[Any]) -> bool:
    """Whether `op` may run before the group's updates: it updates nothing and reads
    none of the group's variables."""
    if op._op_def.stateful and op.type not in _HOISTABLE_STATEFUL:
        return False
    return not any(t in updated for t in op.inputs)


def group_batchable(steps: List[Any]) -> None:
    """Reorders `steps` in place so that batchable steps of one key are adjacent where
    the graph allows (see the module docstring)."""
    if not enabled():
        return
    start = 0
    while start < len(steps):
        key = batch_key(steps[start])
        if key is None:
            start += 1
            continue
        start += _gather(steps, start, key)


def _gather(steps: List[Any], first: int, key: Any) -> int:
    """Gathers key's members from `first` on; returns how many steps the region spans
    after reordering (the group first, after the hoisted steps)."""
    members = [s for s in steps[first:] if batch_key(s) == key]
    if len(members) < 2:
        return 1
    updated: Set[Any] = set()
    for member in members:
        updated |= _variable_inputs(member.op)
    last = max(i for i, s in enumerate(steps) if s is members[-1])
    hoist: List[Any] = []
    group: List[Any] = []
    after: List[Any] = []
    downstream: Set[Operation] = set()
    end = first
    for step in steps[first:last + 1]:
        op = step.op
        fed_by_group = any(t.op in downstream for t in op.inputs) or \
            any(c in downstream for c in op.control_inputs)
        if batch_key(step) == key and not fed_by_group:
            group.append(step)
            downstream.add(op)
        elif fed_by_group:
            after.append(step)
            downstream.add(op)
        elif step.kernel is None or _hoistable(op, updated):
            hoist.append(step)
        else:
            break           # an update or read the group must not be moved across
        end += 1
    steps[first:end] = hoist + group + after
    return max(1, len(hoist) + len(group))


def batches(steps: List[Any]) -> Dict[int, int]:
    """{index of a batch's first step: index after its last} for the runs of two or more
    adjacent steps with equal batch keys."""
    found: Dict[int, int] = {}
    start = 0
    while start < len(steps):
        key: Optional[Any] = batch_key(steps[start])
        end = start + 1
        while key is not None and end < len(steps) and batch_key(steps[end]) == key:
            end += 1
        if end - start > 1:
            found[start] = end
        start = end
    return found
