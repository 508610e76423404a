"""A check a plan makes before binding (runtime/plan.py, pass 2): feeds that a gradient
of the plan would have to run through.
"""

from __future__ import annotations

from typing import Dict, List, Sequence, Set

from tf1compat.framework import errors
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = ["ancestors", "refuse_feeds_between_gradient_ends"]

_PLACEHOLDER_TYPES = frozenset({"Placeholder", "PlaceholderV2"})


def ancestors(tensors: Sequence[Tensor], differentiable_only: bool = False) -> Set[Tensor]:
    """The tensors `tensors` are computed from (data inputs, transitively), themselves too;
    with `differentiable_only`, not past ops no gradient flows through (StopGradient)."""
    seen: Set[Tensor] = set()
    todo = list(tensors)
    while todo:
        t = todo.pop()
        if t not in seen:
            seen.add(t)
            if not differentiable_only or t._op._op_def.grad != "none":
                todo.extend(t._op._inputs)
    return seen


def refuse_feeds_between_gradient_ends(order: List[Operation],
                                        feeds: Dict[Tensor, int]) -> None:
    """UnimplementedError for a fed tensor (not a placeholder) that a gradient's ys depend
    on and that itself depends on the gradient's xs: TF runs the gradient ops through
    the fed value (`tf.gradients(y, x)` with `h = f(x)` fed is dy/dh(fed) * dh/dx), while
    the autograd graph of a run stops at a feed and would give zero."""
    fed = [t for t in feeds if t._op._type not in _PLACEHOLDER_TYPES]
    if not fed:
        return
    for op in order:
        od = op._op_def
        if od.grad_sources is None or op.get_attr("f") is not None:
            continue
        xs = set(od.grad_sources(op))
        ys = op._inputs[:len(op.get_attr("Ty"))]
        upstream = ancestors(ys, differentiable_only=True)
        for t in fed:
            if t in upstream and t not in xs:
                reached = [x for x in ancestors([t]) & xs if x is not t]
                if reached:
                    raise errors.op_error(
                        errors.UnimplementedError, op,
                        f"{t.name} is fed, and the gradient {op.name} computes runs through "
                        f"it to {reached[0].name}: TensorFlow takes that gradient through "
                        f"the fed value; tf1compat does not support it. Feed a "
                        f"tf.placeholder instead, or take the gradient with respect to "
                        f"{t.name} itself")
