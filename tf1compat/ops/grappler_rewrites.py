"""Grappler's rewrites that change float bits, as a TF session runs them.

Before a Session runs a graph (and on a tf.function's graph; never for eager ops), TF's
Grappler rewrites it. Two of its rewrites change float results, and both are replayed
here, per plan (the kernel factories read the plan's view of their inputs), so graphs
imported from GraphDefs get them as well while the graph itself keeps what was built
(an exported graph holds RealDiv and the AddN's inputs in their order):

* Division by a constant. Constant folding's ReduceDivToReciprocalMul turns
  `RealDiv(x, c)` and `Div(x, c)` of a constant `c` into `Mul(x, Reciprocal(c))` and
  `Xdivy(x, c)` into `MulNoNan(Reciprocal(c), x)`, then folds `Reciprocal(c)`. `x * (1 /
  c)` rounds twice where `x / c` rounds once: for `c = 3` about a third of float32
  quotients come out one ulp away from the true division, and every `x / 255.` of an
  image pipeline, every `x / 2.` of a loss, is such a quotient.
* The order of AddN's inputs. The common subgraph elimination pass canonicalizes every
  commutative op, sorting its data inputs by their names ("op" or "op:k", compared as
  strings), and TF's AddN kernel adds left to right: `tf.add_n([e, a, d])` adds
  `(a + d) + e`. (Add/AddV2/Mul of two inputs are sorted too, without effect.)

TF's conditions for the division, as probed with TF 2.21
(tests/golden/cases_reciprocal_mul.py):
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

Not replayed: complex divisors; the gradient's products that the arithmetic optimizer
regroups when a chain multiplies three or more factors of different shapes
(MinimizeBroadcasts; e.g. the gradient with respect to the constant divisor itself);
AddOpsRewrite, which merges a tree of Add/AddN ops no fetch reads into one AddN; and the
order autograd adds a tensor's gradient contributions in (TF's gradient AddN ops are
sorted by the same rule: docs/math.md).
"""

from __future__ import annotations

from typing import Any, Callable, List

import torch

from tf1compat.framework import dtypes as D

__all__ = ["add_n_kernel", "divides_by_constant", "grappler_add_n_order", "reciprocal_mul",
           "real_div_kernel", "xdivy", "xdivy_kernel"]

_REAL_FLOATS = (D.float16, D.bfloat16, D.float32, D.float64)


def _graph_run(kctx: Any) -> bool:
    """Whether the op runs in a plan (a Session's, or a function's), which Grappler
    would have optimized; eager ops and build-time constant folding see no Grappler."""
    return getattr(kctx, "input_is_constant", None) is not None


def divides_by_constant(node: Any, kctx: Any) -> bool:
    """Whether TF's Grappler turns `node` (RealDiv, Div or Xdivy) into a product with the
    reciprocal of its constant divisor in the run `kctx` belongs to."""
    if not _graph_run(kctx) or node.outputs[0].dtype.base_dtype not in _REAL_FLOATS:
        return False
    constant = kctx.input_is_constant
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


def grappler_add_n_order(node: Any, kctx: Any) -> List[int]:
    """The order an AddN adds its inputs in: sorted by their names in a graph run of
    float or complex values (Grappler's canonical form), else as given. Only where TF's
    graph names the inputs as tf1compat's does: values made in the AddN's own region. A
    loop variable or a value from outside a cond branch or a while body reaches TF's
    AddN through an Identity, Switch or Enter named by TF's control-flow lowering, an
    order not replayed (the given one is kept)."""
    indices = list(range(len(node.inputs)))
    dtype = node.outputs[0].dtype.base_dtype
    if not _graph_run(kctx) or not (dtype.is_floating or dtype.is_complex):
        return indices
    region = node._control_flow_context
    if all(t.op._control_flow_context is region and t.op.type != "_Arg"
           for t in node.inputs):
        indices.sort(key=lambda i: node.inputs[i]._as_node_def_input())
    return indices


def add_n_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    """AddN's kernel factory: a left-to-right sum (TF's CPU kernel's order, per element)
    of the inputs in `grappler_add_n_order`."""
    order = grappler_add_n_order(node, kctx)

    def add_n(*xs: Any) -> Any:
        out = xs[order[0]]
        for i in order[1:]:
            out = out + xs[i]
        return out
    return add_n
