"""`tf.linalg.experimental.conjugate_gradient`: (preconditioned) conjugate gradients on a
self-adjoint positive definite LinearOperator, as TF's while-loop graph."""

from __future__ import annotations

import collections
from typing import Any

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.creation_ops import zeros
from tf1compat.ops.linalg_decomp import norm
from tf1compat.ops.linalg_extra import matvec
from tf1compat.ops.reduction_ops import reduce_any
from tf1compat.ops.transform_ops import broadcast_dynamic_shape, broadcast_to
from tf1compat.ops.while_loop import while_loop

__all__ = ["conjugate_gradient", "CGState"]

CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])


def _dot(x: Tensor, y: Tensor) -> Tensor:
    return array_ops.squeeze(matvec(array_ops.expand_dims(x, -1), y, adjoint_a=True),
                             axis=-1)


def conjugate_gradient(operator: Any, rhs: Any, preconditioner: Any = None, x: Any = None,
                       tol: float = 1e-5, max_iter: int = 20,
                       name: str = "conjugate_gradient") -> CGState:
    """Solves operator @ x = rhs by conjugate gradients; returns the final CGState
    (iterations, solution, residual, search direction, gamma)."""
    if not (operator.is_self_adjoint and operator.is_positive_definite):
        raise ValueError("Expected a self-adjoint, positive definite operator.")

    def stopping_criterion(i: Tensor, state: CGState) -> Tensor:
        return math_ops.logical_and(i < max_iter,
                                    reduce_any(norm(state.r, axis=-1) > tol_tensor))

    def cg_step(i: Tensor, state: CGState) -> tuple:
        z = operator.matvec(state.p)
        alpha = state.gamma / _dot(state.p, z)
        new_x = state.x + array_ops.expand_dims(alpha, -1) * state.p
        r = state.r - array_ops.expand_dims(alpha, -1) * z
        q = r if preconditioner is None else preconditioner.matvec(r)
        gamma = _dot(r, q)
        beta = gamma / state.gamma
        p = q + array_ops.expand_dims(beta, -1) * state.p
        return i + 1, CGState(i + 1, new_x, r, p, gamma)

    with name_scope(name):
        rhs_shape = array_ops.shape(rhs)
        batch = broadcast_dynamic_shape(rhs_shape[:-1], operator.batch_shape_tensor())
        if preconditioner is not None:
            batch = broadcast_dynamic_shape(batch, preconditioner.batch_shape_tensor())
        full_shape = array_ops.concat([batch, [rhs_shape[-1]]], axis=-1)
        r0 = broadcast_to(rhs, full_shape)
        tol_tensor = tol * norm(r0, axis=-1)
        if x is None:
            x = zeros(full_shape, dtype=rhs.dtype.base_dtype)
        else:
            r0 = rhs - operator.matvec(x)
        p0 = r0 if preconditioner is None else preconditioner.matvec(r0)
        gamma0 = _dot(r0, p0)
        i = constant(0, dtype=D.int32)
        state = CGState(i=i, x=x, r=r0, p=p0, gamma=gamma0)
        _, state = while_loop(stopping_criterion, cg_step, [i, state])
        return CGState(state.i, x=state.x, r=state.r, p=state.p, gamma=state.gamma)
