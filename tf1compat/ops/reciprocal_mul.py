"""Grappler's division by a constant, as a TF session runs it.

Before a Session runs a graph, TF's Grappler (constant folding's ReduceDivToReciprocalMul)
turns `RealDiv(x, c)` and `Div(x, c)` of a constant `c` into `Mul(x, Reciprocal(c))` and
`Xdivy(x, c)` into `MulNoNan(Reciprocal(c), x)`, then folds `Reciprocal(c)`. `x * (1 / c)`
rounds twice where `x / c` rounds once: for `c = 3` about a third of float32 quotients
come out one ulp away from the true division, and every `x / 255.` of an image pipeline,
every `x / 2.` of a loss, is such a quotient.

TF's conditions, as probed with TF 2.21 (tests/golden/cases_reciprocal_mul.py):
* graph runs only: a Session, or a tf.function (eager ops see no Grappler);
* `c` is "really constant" after constant folding: a Const, or computed from constants
  alone (`tf.cast(3, tf.float32)`, `1. + 2.`), never a fed tensor (a fed Const, a
  placeholder_with_default, a variable); inside a while loop also a constant captured
  from outside it, but not one a cond branch captures (it passes a Switch);
* a float type (half, bfloat16, float, double; complex too in TF, not replayed here);
  `x` itself not constant (a constant quotient is folded as a division);
* DivNoNan, FloorDiv and TruncateDiv are left alone.
The gradients follow: TF's gradient of `x / c` divides by `c` again (and `-x / c / c` for
`c`), which Grappler rewrites the same way, so the formula multiplies by `1 / c` there too
(ops/_grad_formulas.py).

The decision is made per plan, from the plan's view of the divisor (PlanKernelContext.
input_is_constant), so graphs imported from GraphDefs get it as well; the graph itself
keeps its RealDiv (an exported graph holds what was built).
"""

from __future__ import annotations

from typing import Any, Callable

import torch

from tf1compat.framework import dtypes as D

__all__ = ["divides_by_constant", "reciprocal_mul", "real_div_kernel", "xdivy", "xdivy_kernel"]

_REAL_FLOATS = (D.float16, D.bfloat16, D.float32, D.float64)


def divides_by_constant(node: Any, kctx: Any) -> bool:
    """Whether TF's Grappler turns `node` (RealDiv, Div or Xdivy) into a product with the
    reciprocal of its constant divisor in the run `kctx` belongs to."""
    constant = getattr(kctx, "input_is_constant", None)
    if constant is None or node.outputs[0].dtype.base_dtype not in _REAL_FLOATS:
        return False
    return constant(node.inputs[1]) and not constant(node.inputs[0])


def reciprocal_mul(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """`x * (1 / y)`, each product and the reciprocal rounded to the dtype as TF's Mul and
    folded Reciprocal do."""
    return torch.mul(x, torch.reciprocal(y))


def real_div_kernel(division: Callable[..., Any]) -> Callable[[Any, Any], Callable[..., Any]]:
    """The kernel factory of RealDiv and Div: `reciprocal_mul` where Grappler rewrites
    the op, else `division`."""
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        return reciprocal_mul if divides_by_constant(node, kctx) else division
    return factory


def _mul_no_nan_reciprocal(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    # MulNoNan(Reciprocal(y), x): zero where x is zero, as Xdivy.
    return torch.where(x == 0, torch.zeros_like(x), reciprocal_mul(x, y))


def xdivy(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Xdivy's kernel: `x / y`, zero where x is zero."""
    return torch.where(x == 0, torch.zeros_like(x), x / y)


def xdivy_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    """Xdivy's kernel factory: MulNoNan by the reciprocal where Grappler rewrites it."""
    return _mul_no_nan_reciprocal if divides_by_constant(node, kctx) else xdivy
