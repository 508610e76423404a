"""Grappler's constant push-down for additions and subtractions, as TF runs them.

Before a Session runs a graph, TF's Grappler re-associates `(X + Y) - C` with a constant
`C` into `X + (Y - C)` (ConstantFolding::ConstantPushDown, for the Add/AddV2/Sub family
of float ops). A float sum's last bits depend on that association, and the first linear
regression of most TF1 courses is that pattern: `cost = reduce_mean(square(x_train * W +
b - y_train))` with Python-list data runs as `b + (x_train * W - y_train)` in TF, so its
printed costs differ from the graph as written in the last digits from the second step.
This module matches the pattern in a plan (`framework/hooks.PLAN_FUSIONS`; the plan
checks that nothing else reads the inner sum: runtime/plan_rewrites.py) and runs the
pair as one kernel in TF's rewritten form.

TF's rule, restated: a parent Add/AddV2/Sub with one input a constant `C` (a Const, or
computed from constants only: Grappler folds those first) and the other a child
Add/AddV2/Sub read by the parent alone, whose inputs `X` (its first non-constant input)
and `Y` (the other) are not both constant; the inputs of Add/AddV2 are first sorted by
their names (Grappler canonicalizes commutative ops before folding). Where `Y` is not a
constant, `C` must not be larger than `Y` (more elements, or a larger leading dimension:
Grappler's "do not push down a larger node"). The pair then becomes `X + (C + Y)` for
two additions, and otherwise one of six trees by the signs of `C`, `X` and `Y` (Add or
Sub at each level). Gradients: each leaf's gradient through the pair is the incoming
gradient, negated or summed over its broadcast axes, the same values either way; the
sums go in TF's order (ops/_eigen_reduce.py).

Only where the static shapes of the inner sum and of `C` are fully known: TF's gradient
of the parent then reads no `Shape` of the inner sum (a second reader would keep TF from
rewriting). Multiplications and divisions (Mul/Div), which Grappler pushes down too, are
not rewritten here: their gradients through the rewritten form would round differently
from TF's (computed on the graph as written).
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Tuple

import torch

from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.hooks import PLAN_FUSIONS
from tf1compat.ops._grad_formulas import tf_broadcast_binary

__all__ = ["match_constant_push_down"]

_ADD_SUB = ("Add", "AddV2", "Sub")
_FLOATS = ("float32", "float64", "complex64", "complex128")


def _input_name(t: Any) -> str:
    """The tensor's name as a NodeDef input string ("op" or "op:k")."""
    return t._op._name if t._value_index == 0 else f"{t._op._name}:{t._value_index}"


def _really_constant(t: Any) -> bool:
    return t._op._type == "Const" or constant_value(t) is not None


def _canonical(op: Any) -> List[Any]:
    """The op's two inputs, sorted by name for Add/AddV2 (Grappler's CanonicalizeNode)."""
    inputs = list(op._inputs)
    if op._type != "Sub":
        inputs.sort(key=_input_name)
    return inputs


def _larger(c: Any, y: Any) -> bool:
    """Grappler's refusal to push the constant `c` down beside a smaller `y`."""
    c_shape, y_shape = c.shape, y.shape
    if c_shape.is_fully_defined() and y_shape.is_fully_defined():
        if c_shape.num_elements() > y_shape.num_elements():
            return True
    if c_shape.rank is None or y_shape.rank is None or c_shape.rank == 0:
        return False
    for c_dim, y_dim in zip(c_shape.as_list(), y_shape.as_list()):
        if y_dim is not None and c_dim is not None and c_dim > y_dim:
            return True
    return False


def _apply(op_type: str, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return tf_broadcast_binary(torch.sub if op_type == "Sub" else torch.add, a, b)


def _rewritten(parent: Any, child: Any) -> Optional[Tuple[List[Any], Callable]]:
    """The inputs [X, Y, C] and the function of them TF runs for `parent(child, C)`."""
    left, right = _canonical(parent)
    left_const = _really_constant(left)
    if left_const == _really_constant(right):
        return None
    constant = left if left_const else right
    leaf0, leaf1 = _canonical(child)
    leaf0_const = _really_constant(leaf0)
    if leaf0_const and _really_constant(leaf1):
        return None                          # the child is folded, not pushed into
    x, y = (leaf1, leaf0) if leaf0_const else (leaf0, leaf1)
    if not _really_constant(y) and _larger(constant, y):
        return None
    symmetric, child_symmetric = parent._type != "Sub", child._type != "Sub"
    if symmetric and child_symmetric:
        return [x, y, constant], lambda xv, yv, cv: _apply(
            "Add", xv, _apply("Add", cv, yv))

    def negated(right_leaf: bool) -> bool:
        return (not child_symmetric and right_leaf) != (not symmetric and left_const)
    neg_c = not symmetric and not left_const
    neg_x, neg_y = negated(leaf0_const), negated(not leaf0_const)
    parent_op = "Sub" if neg_x or (neg_c and neg_y) else "Add"
    child_op = "Sub" if neg_c != neg_y else "Add"

    def run(xv: torch.Tensor, yv: torch.Tensor, cv: torch.Tensor) -> torch.Tensor:
        inner = _apply(child_op, yv, cv) if neg_c else _apply(child_op, cv, yv)
        return _apply(parent_op, inner, xv) if neg_x else _apply(parent_op, xv, inner)
    return [x, y, constant], run


def match_constant_push_down(op: Any
                             ) -> Optional[Tuple[List[Any], List[Any], Callable, bool]]:
    """For an Add/AddV2/Sub that Grappler's constant push-down rewrites: ([child, op],
    the inputs [X, Y, C], the kernel factory, True: the kernel sums broadcast gradients
    in TF's order itself); else None."""
    if op._type not in _ADD_SUB or op._control_inputs or \
            op._outputs[0].dtype.name not in _FLOATS:
        return None
    child = next((t._op for t in op._inputs if t._op._type in _ADD_SUB
                  and not _really_constant(t)), None)
    if child is None or child._control_inputs or \
            not child._outputs[0].shape.is_fully_defined() or \
            not all(t.shape.is_fully_defined() for t in op._inputs):
        return None
    found = _rewritten(op, child)
    if found is None:
        return None
    inputs, fn = found
    return [child, op], inputs, lambda kctx: fn, True


PLAN_FUSIONS["constant_push_down"] = match_constant_push_down
