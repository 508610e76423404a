"""`tf.contrib.opt.ShampooOptimizer` (Gupta et al. 2018, arXiv:1802.09568): Adagrad with
one preconditioner matrix per dimension of a variable, TF 1.15's update.

For a rank-n variable with gradient g and step t = global_step + 1:

    gbar = gbar_decay(t) gbar + gbar_weight(t) g            (just g when gbar_decay == 0)
    G_i = mat_gbar_decay(t) G_i + mat_gbar_weight(t) g_(i) g_(i)^T   (dimension i <= max_size)
    H_i = ((G_i / d_i) + epsilon I)^(-alpha / n)            (SVD, or the iterative root)
    var -= learning_rate(t) * gbar x_0 H_0 x_1 H_1 ... x_(n-1) H_(n-1)

Dimensions larger than `max_matrix_size` get the diagonal variant (a vector G_i of
gradient squares summed over the other axes). Hyper-parameters may be callables of t.
`global_step` is read when the optimizer is built, as in TF: a Python number stays fixed.
Slots: "gbar", "Gbar_<i>" and, when svd_interval > 1, "H_<i>", all named
`<var>/<name>[_k]` as TF 1.15 names them. The Gbar/H slots are float32 as in TF.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Union

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import colocate_with, name_scope
from tf1compat.ops import math_ops, reduction_ops, state_ops
from tf1compat.ops.array_ops import expand_dims, shape as shape_of
from tf1compat.ops.cond import cond
from tf1compat.ops.creation_ops import zeros, zeros_like
from tf1compat.ops.indexing_ops import gather, scatter_nd, where
from tf1compat.ops.linalg_decomp import norm, svd
from tf1compat.ops.linalg_ops import matmul, tensordot
from tf1compat.ops.matrix_ops import eye
from tf1compat.ops.transform_ops import transpose
from tf1compat.ops.while_loop import while_loop
from tf1compat.util import tf_logging
from tf1compat.training.optimizers.optimizer import Optimizer

__all__ = ["ShampooOptimizer"]

Param = Union[float, Callable[[Any], Any]]


def _param(value: Param, timestep: Any) -> Any:
    """A hyper-parameter at step `timestep`: callables are evaluated on it."""
    return value(timestep) if callable(value) else value


def _matrix_square_root(mat_a: Any, mat_a_size: int, iter_count: int = 100,
                        ridge_epsilon: float = 1e-4) -> Any:
    """mat_a^0.5 of a symmetric PSD matrix by Higham's coupled Newton iteration (stopped
    when the residual stops shrinking), TF 1.15's matrix_functions.matrix_square_root."""
    identity = eye(math_ops.cast(mat_a_size, D.int32))
    mat_a = mat_a + ridge_epsilon * identity
    scale = math_ops.sqrt(reduction_ops.reduce_sum(mat_a * mat_a))
    mat_init_y = mat_a / scale

    def _condition(i, unused_y, unused_old_y, unused_z, unused_old_z, err, old_err):
        return math_ops.logical_and(i < iter_count, err < old_err)

    def _body(i, mat_y, unused_old_y, mat_z, unused_old_z, err, unused_old_err):
        current = 0.5 * (3.0 * identity - matmul(mat_z, mat_y))
        new_y = matmul(mat_y, current)
        new_z = matmul(current, mat_z)
        mat_sqrt_a = new_y * math_ops.sqrt(scale)
        residual = mat_a - matmul(mat_sqrt_a, mat_sqrt_a)
        new_err = math_ops.sqrt(reduction_ops.reduce_sum(residual * residual)) / scale
        return i + 1, new_y, mat_y, new_z, mat_z, new_err, err

    _, _, prev_mat_y, _, _, _, _ = while_loop(
        _condition, _body,
        [0, mat_init_y, mat_init_y, identity, identity, scale, scale + 1.0])
    return prev_mat_y * math_ops.sqrt(scale)


def _matrix_inverse_pth_root(mat_g: Any, mat_g_size: int, alpha: float, iter_count: int = 100,
                             epsilon: float = 1e-6, ridge_epsilon: float = 1e-6) -> Any:
    """mat_g^alpha for alpha = -1/p by Guo and Higham's Schur-Newton iteration, TF 1.15's
    matrix_functions.matrix_inverse_pth_root."""
    identity = eye(math_ops.cast(mat_g_size, D.int32))

    def mat_power(mat_m: Any, p: float) -> Any:
        # p is known when the graph is built: repeated squaring, no loop op.
        if p != int(p) or p <= 0:
            raise AssertionError(f"matrix_inverse_pth_root: alpha must be -1/p for a positive "
                             f"integer p, got alpha={alpha}")
        p = int(p)
        power = None
        while p > 0:
            if p % 2 == 1:
                power = matmul(mat_m, power) if power is not None else mat_m
            p //= 2
            mat_m = matmul(mat_m, mat_m)
        return power

    def _condition(i, mat_m, _):
        return math_ops.logical_and(
            i < iter_count, reduction_ops.reduce_max(math_ops.abs(mat_m - identity)) > epsilon)

    def _body(i, mat_m, mat_x):
        mat_m_i = (1 - alpha) * identity + alpha * mat_m
        return (i + 1, matmul(mat_power(mat_m_i, -1.0 / alpha), mat_m),
                matmul(mat_x, mat_m_i))

    if mat_g_size == 1:
        return math_ops.pow(mat_g + ridge_epsilon, alpha)
    damped = mat_g + ridge_epsilon * identity
    z = (1 - 1 / alpha) / (2 * norm(damped))
    _, _, mat_h = while_loop(_condition, _body,
                             [0, damped * z, identity * math_ops.pow(z, -alpha)])
    return mat_h


class ShampooOptimizer(Optimizer):
    """Shampoo with TF 1.15's defaults (learning_rate 1.0, alpha 0.5, epsilon 1e-4,
    max_matrix_size 768, gbar_decay 0: no momentum)."""

    def __init__(self, global_step: Any = 0, max_matrix_size: int = 768,
                 gbar_decay: Param = 0.0, gbar_weight: Param = 1.0,
                 mat_gbar_decay: Param = 1.0, mat_gbar_weight: Param = 1.0,
                 learning_rate: Param = 1.0, svd_interval: Param = 1,
                 precond_update_interval: Param = 1, epsilon: float = 1e-4,
                 alpha: Param = 0.5, use_iterative_root: bool = False,
                 use_locking: bool = False, name: str = "Shampoo"):
        super().__init__(use_locking, name)
        self._global_step = math_ops.cast(global_step, D.float32)
        self._max_matrix_size = max_matrix_size
        self._gbar_decay = gbar_decay
        self._gbar_weight = gbar_weight
        self._mat_gbar_decay = mat_gbar_decay
        self._mat_gbar_weight = mat_gbar_weight
        self._learning_rate = learning_rate
        self._svd_interval = svd_interval
        self._precond_update_interval = precond_update_interval
        self._epsilon = epsilon
        self._alpha = alpha
        self._use_iterative_root = use_iterative_root
        self._name = name

    def _create_slots(self, var_list: Any) -> None:
        for v in var_list:
            with colocate_with(v):
                self._zeros_slot(v, "gbar", self._name)
                for i, d in enumerate(v.get_shape().as_list()):
                    if d <= self._max_matrix_size:
                        mat_g_init = zeros_like(eye(d))
                        if self._svd_interval > 1:
                            self._get_or_make_slot(v, eye(d), "H_" + str(i), self._name)
                    else:
                        mat_g_init = zeros([d])
                    self._get_or_make_slot(v, mat_g_init, "Gbar_" + str(i), self._name)

    def _resource_apply_dense(self, grad: Any, var: Any) -> Any:
        return self._apply_gradient(grad, var)

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        return self._apply_gradient(grad, var)

    def _resource_apply_sparse(self, grad_values: Any, var: Any, grad_indices: Any) -> Any:
        return self._apply_sparse_shared(grad_values, grad_indices, var)

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        return self._apply_sparse_shared(grad.values, grad.indices, var)

    def _apply_sparse_shared(self, grad_values: Any, grad_indices: Any, var: Any) -> Any:
        if var.get_shape().as_list()[0] <= self._max_matrix_size or self._gbar_decay != 0.0:
            # A small first dimension (or momentum, which touches every row): densify.
            dense_grad = scatter_nd(expand_dims(grad_indices, axis=1), grad_values,
                                    shape_of(var, out_type=grad_indices.dtype))
            return self._apply_gradient(dense_grad, var)
        return self._apply_gradient(grad_values, var, grad_indices)

    def _weighted_average(self, var: Any, weight: Param, weight_t: Any, rest: Any) -> Any:
        """var = weight_t * var + rest, skipping the variable for the constant weights 0
        (never read again) and 1 (a plain assign_add)."""
        if weight == 0.0:
            return rest
        if weight == 1.0:
            return state_ops.assign_add(var, rest)
        return var.assign_add((weight_t - 1) * var + rest)

    def _update_mat_g(self, mat_g: Any, grad: Any, axes: List[int], mat_gbar_decay: Any,
                      mat_gbar_weight: Any, i: int) -> Any:
        """mat_g = decay * mat_g + weight * g_(i) g_(i)^T (g contracted with itself over
        every axis but i)."""
        grad_outer = tensordot(grad, grad, axes=(axes, axes), name="grad_outer_" + str(i))
        return self._weighted_average(mat_g, self._mat_gbar_decay, mat_gbar_decay,
                                      mat_gbar_weight * grad_outer)

    def _compute_power_svd(self, var: Any, mat_g: Any, mat_g_size: int, alpha: Any,
                           mat_h_slot_name: Optional[str]) -> Any:
        if mat_g_size == 1:
            mat_h = math_ops.pow(mat_g + self._epsilon, alpha)
        else:
            damping = self._epsilon * eye(math_ops.cast(mat_g_size, D.int32))
            diag_d, mat_u, mat_v = svd(mat_g + damping, full_matrices=True)
            mat_h = matmul(mat_v * math_ops.pow(math_ops.maximum(diag_d, self._epsilon), alpha),
                           transpose(mat_u))
        if mat_h_slot_name is not None:
            return state_ops.assign(self.get_slot(var, mat_h_slot_name), mat_h)
        return mat_h

    def _compute_power_iter(self, var: Any, mat_g: Any, mat_g_size: int, alpha: Any,
                            mat_h_slot_name: Optional[str], iter_count: int = 100,
                            epsilon: float = 1e-6) -> Any:
        mat_g_sqrt = _matrix_square_root(mat_g, mat_g_size, iter_count, self._epsilon)
        mat_h = _matrix_inverse_pth_root(mat_g_sqrt, mat_g_size, 2 * alpha, iter_count,
                                         epsilon, ridge_epsilon=0.0)
        if mat_h_slot_name is not None:
            return state_ops.assign(self.get_slot(var, mat_h_slot_name), mat_h)
        return mat_h

    def _compute_power(self, var: Any, mat_g: Any, mat_g_size: int, alpha: Any,
                       mat_h_slot_name: Optional[str] = None) -> Any:
        with name_scope("matrix_iterative_power"):
            compute = (self._compute_power_iter if self._use_iterative_root
                       else self._compute_power_svd)
            return compute(var, mat_g, mat_g_size, alpha, mat_h_slot_name)

    def _apply_gradient(self, grad: Any, var: Any, indices: Any = None) -> Any:
        """var -= learning_rate * (gbar preconditioned along every dimension); with
        `indices`, `grad` holds the rows of var they name."""
        global_step = self._global_step + 1
        gbar = self.get_slot(var, "gbar")
        gbar_decay_t = _param(self._gbar_decay, global_step)
        gbar_weight_t = _param(self._gbar_weight, global_step)
        if indices is not None:
            # Momentum would have to touch every row of gbar; TF skips it here.
            if self._gbar_decay != 0.0:
                tf_logging.warning("Not applying momentum for variable: %s" % var.name)
            gbar_updated = grad
        else:
            gbar_updated = self._weighted_average(gbar, self._gbar_decay, gbar_decay_t,
                                                  gbar_weight_t * grad)

        shape = var.get_shape().as_list()
        v_rank = len(shape)
        mat_g_list = [self.get_slot(var, "Gbar_" + str(i)) for i in range(v_rank)]
        mat_gbar_decay_t = _param(self._mat_gbar_decay, global_step)
        mat_gbar_weight_t = _param(self._mat_gbar_weight, global_step)
        preconditioned_grad = gbar_updated
        neg_alpha = -_param(self._alpha, global_step) / v_rank
        svd_interval = _param(self._svd_interval, global_step)
        precond_update_interval = _param(self._precond_update_interval, global_step)
        for i, mat_g in enumerate(mat_g_list):
            axes = list(range(i)) + list(range(i + 1, v_rank))
            if shape[i] <= self._max_matrix_size:
                # Full Shampoo. The (default-bound) lambdas run inside cond's branches.
                mat_g_updated = cond(
                    math_ops.mod(global_step, precond_update_interval) < 1,
                    lambda mat_g=mat_g, axes=axes, i=i: self._update_mat_g(
                        mat_g, grad, axes, mat_gbar_decay_t,
                        mat_gbar_weight_t * precond_update_interval, i),
                    lambda mat_g=mat_g: mat_g)
                mat_g_updated = mat_g_updated / float(shape[i])
                if self._svd_interval == 1:
                    mat_h = self._compute_power(var, mat_g_updated, shape[i], neg_alpha)
                else:
                    mat_h = cond(
                        math_ops.mod(global_step, svd_interval) < 1,
                        lambda mat_g_updated=mat_g_updated, i=i: self._compute_power(
                            var, mat_g_updated, shape[i], neg_alpha, "H_" + str(i)),
                        lambda i=i: self.get_slot(var, "H_" + str(i)))
                # Contracting the first axis with H_i moves axis i to the end: after all
                # n contractions the axes are back in order.
                preconditioned_grad = tensordot(preconditioned_grad, mat_h, axes=([0], [0]),
                                                name="precond_" + str(i))
                continue
            # Diagonal Shampoo for a dimension too large for a matrix.
            if axes:
                normalizer = 1.0 if indices is not None else float(shape[i])
                grad_outer = reduction_ops.reduce_sum(grad * grad, axis=axes) / normalizer
            else:
                grad_outer = grad * grad
            if i == 0 and indices is not None:
                if self._mat_gbar_decay != 1.0:
                    # TF asserts this.
                    raise AssertionError("ShampooOptimizer: a sparse update of a dimension "
                                         "larger than max_matrix_size needs "
                                         "mat_gbar_decay=1.0")
                mat_g_updated = state_ops.scatter_add(mat_g, indices,
                                                      mat_gbar_weight_t * grad_outer)
                mat_g_updated = gather(mat_g_updated, indices)
            else:
                mat_g_updated = self._weighted_average(mat_g, self._mat_gbar_decay,
                                                       mat_gbar_decay_t,
                                                       mat_gbar_weight_t * grad_outer)
            mat_h = where(math_ops.greater(mat_g_updated, 0),
                          math_ops.pow(mat_g_updated, neg_alpha), zeros_like(mat_g_updated))
            preconditioned_grad = transpose(
                preconditioned_grad, perm=list(range(1, v_rank)) + [0]) * mat_h

        learning_rate_t = _param(self._learning_rate, global_step)
        if indices is not None:
            return state_ops.scatter_add(var, indices, -learning_rate_t * preconditioned_grad)
        return state_ops.assign_sub(var, learning_rate_t * preconditioned_grad)

