"""Ops a plan runs for autograd only, without their effects.

A gradient op (autodiff/gradients.py: SymbolicGradient) differentiates its computed ys;
the plan's prune (plan.py: `prune_modes`) runs the forward ops that TF's backward does not
read for their values only. TF does not run them at all, so a stateful one among them
that autograd does not differentiate through (an assign_add or py_func feeding an Add
whose gradient reads neither input) runs here without its effect.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Set

import torch

from tf1compat.framework.operation import Operation

__all__ = ["without_effects", "without_effects_ops"]


def without_effects_ops(modes: Dict[Operation, bool]) -> Set[Operation]:
    """The ops run for autograd only whose effects can be left out: those autograd does
    not differentiate through (a gradient op's `value_only` third part), and those that
    declare a kernel for that case (`autograd_only_kernel`: Print, CheckNumerics)."""
    through: Set[Operation] = set()
    for op in modes:
        value_only = op._op_def.value_only
        split = value_only(op) if value_only is not None else None
        if split is not None:
            through.update(split[2])
    return {op for op, full in modes.items()
            if not full and (op not in through or
                              op._op_def.autograd_only_kernel is not None)}


def without_effects(op: Operation, kernel: Callable[..., Any],
                     alias_outputs: List[Optional[str]], device: torch.device,
                     kctx: Any) -> Optional[Callable[..., Any]]:
    """The kernel of a stateful op run for autograd only (prune_modes): no gradient
    function reads its outputs, so TF does not run it; its values only connect autograd's
    graph. An op declaring its `autograd_only_kernel` runs that; an update of a
    variable (outputs aliasing the store) is left out; other outputs of static shape
    become zeros; otherwise the op still runs."""
    factory = op._op_def.autograd_only_kernel
    if factory is not None:
        return factory(op, kctx)
    outs = op._outputs
    if outs and all(k is not None for k in alias_outputs):
        return None
    dtypes = [t._dtype.base_dtype.torch_dtype for t in outs]
    if not outs or any(d is None for d in dtypes) or \
            not all(t.shape.is_fully_defined() for t in outs):
        return kernel
    shapes = [t.shape.as_list() for t in outs]

    def run(*args: Any) -> Any:
        zeros = tuple(torch.zeros(s, dtype=d, device=device) for s, d in zip(shapes, dtypes))
        return zeros[0] if len(zeros) == 1 else zeros
    return run
