"""A check a plan makes before binding (runtime/plan.py, pass 2): feeds that a gradient
of the plan would have to run through.
"""

from __future__ import annotations

from typing import Dict, List, Sequence, Set

from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = ["ancestors", "feeds_between_gradient_ends"]

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


def feeds_between_gradient_ends(order: List[Operation],
                                feeds: Dict[Tensor, int]) -> Set[Tensor]:
    """The fed tensors (not placeholders) that a gradient's ys depend on and that
    themselves depend on the gradient's xs. TF runs the gradient ops through the fed
    value (`tf.gradients(y, x)` with `h = f(x)` fed is dy/dh at the fed h times dh/dx
    from h's producer, recomputed in that run), while the autograd graph of a run would
    stop at a feed and give zero: runtime/plan.py computes such a tensor's producer too
    and hands its consumers the fed value carrying the producer's gradient."""
    fed = [t for t in feeds if t._op._type not in _PLACEHOLDER_TYPES]
    through: Set[Tensor] = set()
    if not fed:
        return through
    for op in order:
        od = op._op_def
        if od.grad_sources is None or op.get_attr("f") is not None:
            continue
        xs = set(od.grad_sources(op))
        ys = op._inputs[:len(op.get_attr("Ty"))]
        upstream = ancestors(ys, differentiable_only=True)
        for t in fed:
            if t in upstream and t not in xs and \
                    any(x is not t for x in ancestors([t]) & xs):
                through.add(t)
    return through
