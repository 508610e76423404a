"""`tensorflow.python.ops.linalg.linear_operator_addition.add_operators`: the sum of
LinearOperators as one operator of the most specific kind that holds it (TensorFlow
Probability's VectorDiffeomixture adds its scale operators).

TF tries its addition tiers in order (scaled identities, then diagonals, lower-triangular
matrices, full matrices); with its default tiers every list sums to ONE operator whose
kind is the most general kind among the summands, which is what this computes, adding
pairwise in TF's order with TF's hint rules (self-adjoint and positive-definite when
both summands are; positive-definite implies non-singular) and names.
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
    if len(operators) == 1:
        return operators
    kind = max(_kind(op) for op in operators)
    graph_parents = [p for op in operators for p in op.graph_parents]
    with name_scope(name or "add_operators", values=graph_parents):
        total = operators.pop()
        while operators:
            total = _add(total, operators.pop(), kind, operator_name)
        return [total]
