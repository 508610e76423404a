"""`tf.contrib.opt.GGTOptimizer` (Agarwal et al. 2018): full-matrix adaptive
regularization over a window of first moments, TF 1.15's update.

All variables' gradients are flattened into one vector (variables ordered by name) and

    m_t = beta1 m + (1 - beta1) g;  buffer[(t - 1) % window] = m_t
    M = buffer^T / sqrt(min(t, window));  U, sigma = SVD(M^T M + svd_eps I)
    head = M U diag((sqrt(sigma) + sigma_eps)^-3) U^T M^T m_t
    step = head + (m_t - M U diag(1 / sigma) U^T M^T m_t) / min(sqrt(sigma))
           (just head when min(sqrt(sigma)) <= eps)
    vars -= lr * step

The state lives in non-slot variables (global_step, grad_buffer, moment1, flat_grad).
TF 1.15 builds GGT on contrib's OptimizerV2; here it is a tf.train.Optimizer, so the
non-slot variables and ops are named as Adam's are (`global_step`, `grad_buffer`, ...),
not with OptimizerV2's names. Sparse gradients are not supported, as in TF.
"""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from tf1compat.framework import dtypes
from tf1compat.framework.graph import control_dependencies
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.training.optimizers.optimizer import Optimizer, _current_graph, cast_like
from tf1compat.variables.variables import init_scope

__all__ = ["GGTOptimizer"]


class GGTOptimizer(Optimizer):
    """GGT with TF 1.15's defaults: lr 0.001, beta1 0.9, window 10, eps 1e-4, svd_eps
    1e-6, sigma_eps 1e-2."""

    def __init__(self, learning_rate: Any = 0.001, beta1: Any = 0.9, use_locking: bool = False,
                 name: str = "GGT", window: int = 10, eps: Any = 1e-4, svd_eps: Any = 1e-6,
                 sigma_eps: Any = 1e-2):
        super().__init__(use_locking, name)
        self._hyper_values = {"lr": learning_rate, "beta1": beta1, "eps": eps, "svd_eps": svd_eps,
                       "sigma_eps": sigma_eps}
        self._window = int(window)
        self.index_dict: Dict[str, int] = {}
        self.shape_dict: Dict[str, int] = {}
        self._variables: list = []

    def _create_slots(self, var_list: Any) -> None:
        from tf1compat.ops.creation_ops import zeros
        self.shape_dict = dict(sorted(
            (v.name, int(np.prod(v.get_shape().as_list()))) for v in var_list))
        index = 0
        for v_name, v_dim in self.shape_dict.items():
            self.index_dict[v_name] = index
            index += v_dim
        first = min(var_list, key=lambda x: x.name)
        dtype = first.dtype.base_dtype
        self._create_non_slot_variable(cast_like(0.0, dtype), "global_step", first)
        self._create_non_slot_variable(zeros([self._window, index], dtype=dtype),
                                       "grad_buffer", first)
        self._create_non_slot_variable(zeros([index], dtype=dtype), "moment1", first)
        self._create_non_slot_variable(zeros([index], dtype=dtype), "flat_grad", first)

    def _state(self, name: str) -> Any:
        with init_scope():
            return self._get_non_slot_variable(name, graph=_current_graph())

    def _prepare(self) -> None:
        self._variables = []

    def _scatter_flat_grad(self, grad: Any, var: Any) -> Any:
        from tf1compat.ops.array_ops import reshape
        from tf1compat.ops.creation_ops import range as range_
        from tf1compat.ops.state_ops import scatter_update
        self._variables.append(var)
        start = self.index_dict[var.name]
        end = start + self.shape_dict[var.name]
        return scatter_update(self._state("flat_grad"), range_(start, end),
                              reshape(grad, [-1]))

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        return self._scatter_flat_grad(grad, var)

    def _resource_apply_dense(self, grad: Any, var: Any) -> Any:
        return self._scatter_flat_grad(grad, var)

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        raise NotImplementedError("Sparse gradient updates are not supported.")

    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any) -> Any:
        raise NotImplementedError("Sparse gradient updates are not supported.")

    def _finish(self, update_ops: Any, name_scope: str) -> Any:
        from tf1compat.ops import array_ops, math_ops
        from tf1compat.ops.cond import cond
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.ops.linalg_decomp import svd
        from tf1compat.ops.linalg_ops import matmul
        from tf1compat.ops.manip_ops import diag
        from tf1compat.ops.matrix_ops import eye
        from tf1compat.ops.reduction_ops import reduce_min
        from tf1compat.ops.state_ops import assign_add, assign_sub, scatter_update
        from tf1compat.ops.transform_ops import transpose
        dtype = self._variables[0].dtype.base_dtype
        hyper = {k: cast_like(convert_to_tensor(self._call_if_callable(v)), dtype)
                 for k, v in self._hyper_values.items()}
        with control_dependencies(update_ops):
            update_global_step = assign_add(self._state("global_step"), 1.0)
            moment1, flat_grad = self._state("moment1"), self._state("flat_grad")
            beta1 = hyper["beta1"]
            update_moment1 = moment1.assign(beta1 * moment1 + (1.0 - beta1) * flat_grad)
            next_index = math_ops.floor_mod(
                math_ops.cast(update_global_step - 1.0, dtypes.int32), self._window)
            update_buffer = scatter_update(self._state("grad_buffer"), next_index,
                                           update_moment1)
            denom = math_ops.sqrt(math_ops.minimum(
                update_global_step, math_ops.cast(self._window, dtype)))
            moment1_2d = array_ops.expand_dims(update_moment1, -1)
            m = transpose(math_ops.divide(update_buffer, denom))
            mm = matmul(m, m, transpose_a=True)
            sigma, u, _ = svd(mm + math_ops.cast(eye(self._window), dtype) * hyper["svd_eps"])
            sigma_sqrt = math_ops.sqrt(sigma)
            sigma_sqrt_min = reduce_min(sigma_sqrt)
            sigma_sqrt_inv = math_ops.divide(math_ops.cast(1.0, dtype),
                                             math_ops.pow(sigma_sqrt + hyper["sigma_eps"], 3))
            projected = matmul(u, matmul(m, moment1_2d, transpose_a=True), transpose_a=True)
            head = matmul(m, matmul(u, matmul(diag(sigma_sqrt_inv), projected)))
            tail = moment1_2d - matmul(m, matmul(u, matmul(
                diag(math_ops.divide(math_ops.cast(1.0, dtype), sigma)), projected)))
            step = cond(sigma_sqrt_min > hyper["eps"],
                        lambda: math_ops.add(head, math_ops.divide(tail, sigma_sqrt_min)),
                        lambda: head)
            updates = []
            for var in self._variables:
                start = self.index_dict[var.name]
                end = start + self.shape_dict[var.name]
                updates.append(assign_sub(var, hyper["lr"] * array_ops.reshape(
                    step[start:end], var.get_shape())))
        return group(*updates, name=name_scope)
