"""`tensorflow.python.ops.linalg.linear_operator_addition.add_operators`: the sum of
LinearOperators as one operator of the most specific kind that holds it (TensorFlow
Probability's VectorDiffeomixture adds its scale operators).

TF's default addition tiers are tried in order: scaled identities, then diagonals,
lower-triangular matrices, full matrices (any operator); a tier adds two operators whose
kinds it holds into one of its kind. Every list therefore sums to ONE operator. The
summation order, names (`Add/<op1>__<op2>/`) and hints (self-adjoint and
positive-definite when both summands are; positive-definite implies non-singular) are
TF's. Operator types other than these five count as full matrices (TF raises TypeError
for them below the last tier).
"""

from typing import Any, List, Optional

from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.linalg.linear_operator import (LinearOperator, LinearOperatorDiag,
                                              LinearOperatorFullMatrix)
from tf1compat.linalg.linear_operator_identity import (LinearOperatorIdentity,
                                                       LinearOperatorScaledIdentity)
from tf1compat.linalg.linear_operator_structured import LinearOperatorLowerTriangular
from tf1compat.ops.transform_ops import broadcast_static_shape

__all__ = ["add_operators"]

_IDENTITY, _DIAG, _TRIL, _MATRIX = range(4)


def _kind(op: LinearOperator) -> int:
    if isinstance(op, LinearOperatorIdentity):
        return _IDENTITY
    if isinstance(op, LinearOperatorDiag):
        return _DIAG
    if isinstance(op, LinearOperatorLowerTriangular):
        return _TRIL
    return _MATRIX


def _hints(op1: LinearOperator, op2: LinearOperator) -> dict:
    is_self_adjoint = op1.is_self_adjoint and op2.is_self_adjoint
    is_positive_definite = op1.is_positive_definite and op2.is_positive_definite
    return dict(is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                is_non_singular=True if is_positive_definite else None)


def _add(op1: LinearOperator, op2: LinearOperator, kind: int,
         operator_name: Optional[str]) -> LinearOperator:
    """TF's adder of tier `kind` (its hint rules and default name)."""
    name = operator_name or f"Add/{op1.name}__{op2.name}/"
    hints = _hints(op1, op2)
    if kind == _IDENTITY:
        def multiplier(op: LinearOperator) -> Any:
            return op.multiplier if isinstance(op, LinearOperatorScaledIdentity) else 1.
        return LinearOperatorScaledIdentity(op1.range_dimension_tensor(),
                                            multiplier(op1) + multiplier(op2),
                                            name=name, **hints)
    if kind == _DIAG:
        return LinearOperatorDiag(op1.diag_part() + op2.diag_part(), name=name, **hints)
    if kind == _TRIL:
        return LinearOperatorLowerTriangular(op1.to_dense() + op2.to_dense(), name=name,
                                             **hints)
    return LinearOperatorFullMatrix(op1.to_dense() + op2.to_dense(), name=name, **hints)


def _pop_a_match(op1: LinearOperator, candidates: list, tier: int) -> Any:
    """The last of `candidates` that tier `tier` can add to `op1` (removed), or None."""
    for i in range(len(candidates) - 1, -1, -1):
        if max(_kind(op1), _kind(candidates[i])) <= tier:
            return candidates.pop(i)
    return None


def add_operators(operators: Any, operator_name: Optional[str] = None,
                  addition_tiers: Any = None, name: Optional[str] = None
                  ) -> List[LinearOperator]:
    """`[B]` with `B.matmul(x) == sum_k A_k.matmul(x)` for `operators = [A_1, A_2, ...]`
    (same dtype and dimensions, broadcastable batch shapes)."""
    if addition_tiers is not None:
        raise NotImplementedError("add_operators(addition_tiers=...): only TF's default "
                                  "addition tiers are implemented")
    operators = list(reversed(list(operators)))
    if not operators:
        raise ValueError("Argument 'operators' must contain at least one operator.  "
                         f"Found: {operators}")
    if not all(isinstance(op, LinearOperator) for op in operators):
        raise TypeError("Argument 'operators' must contain only LinearOperator instances.  "
                        f"Found: {operators}")
    for what in ("domain", "range"):
        dims = [(op.name, dimension_value(getattr(op, f"{what}_dimension")))
                for op in operators]
        dims = [(n, d) for n, d in dims if d is not None]
        if len({d for _, d in dims}) > 1:
            raise ValueError(f"Operators must have the same {what} dimension. Found: {dims}")
    batch_shape = operators[0].batch_shape
    for op in operators[1:]:
        batch_shape = broadcast_static_shape(batch_shape, op.batch_shape)
    graph_parents = [p for op in operators for p in op.graph_parents]
    with name_scope(name or "add_operators", values=graph_parents):
        # TF's tier loop: each tier pops from the end of what the last tier left, adding
        # the first match from the end; unmatched operators go on to the next tier (the
        # order of the summands, so the names and rounding, follow TF's)
        next_tier = operators
        for tier in (_IDENTITY, _DIAG, _TRIL, _MATRIX):
            this_tier, next_tier = next_tier, []
            while this_tier:
                op1 = this_tier.pop()
                op2 = _pop_a_match(op1, this_tier, tier)
                if op2 is None:
                    next_tier.append(op1)
                else:
                    this_tier.append(_add(op1, op2, tier, operator_name))
        return next_tier
