"""`tf.contrib.opt` optimizers built on the tf.train ones (TF 1.15's semantics):

- LARSOptimizer: momentum with a per-variable learning rate lr * eeta ||w|| / (||g|| +
  weight_decay ||w|| + epsilon) (plain lr for variables named in `skip_list`, for a zero
  norm, and for sparse gradients).
- RegAdagradOptimizer: Adagrad whose `avoid_updating_slots()` context builds updates that
  leave the accumulators alone (ApplyAdagrad's update_slots=False).
- VariableClippingOptimizer: after the wrapped optimizer's step, clips chosen variables to
  an L2 norm along given dimensions.
- DropStaleGradientOptimizer: skips the wrapped optimizer's step when the global step moved
  more than `staleness` steps since the gradients were computed.
- MovingAverageOptimizer: the wrapped optimizer's step followed by an
  ExponentialMovingAverage of the trained variables; `swapping_saver()` saves the averages
  under the variables' names.
- MultitaskOptimizerWrapper: skips the update of variables whose gradient is all zeros;
  clip_gradients_by_global_norm.
"""

from __future__ import annotations

import contextlib
from typing import Any, Dict, Iterator, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import colocate_with, control_dependencies, name_scope
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.training_ops import training_op
from tf1compat.training.optimizers.adagrad import AdagradOptimizer
from tf1compat.training.optimizers.optimizer import Optimizer, cast_like

__all__ = ["LARSOptimizer", "RegAdagradOptimizer", "VariableClippingOptimizer",
           "DropStaleGradientOptimizer", "MovingAverageOptimizer", "MultitaskOptimizerWrapper",
           "clip_gradients_by_global_norm"]


class LARSOptimizer(Optimizer):
    """Layer-wise Adaptive Rate Scaling (You, Gitman & Ginsburg 2017) on momentum; slot
    "momentum" (`<var>/LARSOptimizer`)."""

    def __init__(self, learning_rate: Any, momentum: float = 0.9,
                 weight_decay: float = 0.0001, eeta: float = 0.001, epsilon: float = 0.0,
                 name: str = "LARSOptimizer", skip_list: Optional[list] = None,
                 use_nesterov: bool = False):
        if momentum < 0.0:
            raise ValueError(f"momentum should be positive: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"weight_decay should be positive: {weight_decay}")
        super().__init__(use_locking=False, name=name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._weight_decay = weight_decay
        self._eeta = eeta
        self._epsilon = epsilon
        self._skip_list = skip_list
        self._use_nesterov = use_nesterov
        self._learning_rate_tensor = self._momentum_tensor = None

    def _create_slots(self, var_list: Any) -> None:
        for v in var_list:
            self._zeros_slot(v, "momentum", self._name)

    def compute_lr(self, grad: Any, var: Any) -> Any:
        """The learning rate scaled by the trust ratio of `var` and its gradient."""
        from tf1compat.ops.linalg_decomp import norm
        from tf1compat.ops.indexing_ops import where
        from tf1compat.ops.math_ops import greater
        scaled_lr = self._learning_rate
        if self._skip_list is None or not any(v in var.name for v in self._skip_list):
            w_norm = norm(var, ord=2)
            g_norm = norm(grad, ord=2)
            trust_ratio = where(
                greater(w_norm, 0),
                where(greater(g_norm, 0),
                      (self._eeta * w_norm /
                       (g_norm + self._weight_decay * w_norm + self._epsilon)), 1.0),
                1.0)
            scaled_lr = self._learning_rate * trust_ratio
        return scaled_lr

    def _prepare(self) -> None:
        self._learning_rate_tensor = convert_to_tensor(
            self._call_if_callable(self._learning_rate), name="learning_rate")
        self._momentum_tensor = convert_to_tensor(self._call_if_callable(self._momentum),
                                                  name="momentum")

    # As TF 1.15, the dense ops take the scaled rate and the momentum as they are (converted
    # to the variable's dtype by the op), not cast from float32.
    def _apply_dense(self, grad: Any, var: Any) -> Any:
        mom = self.get_slot(var, "momentum")
        return training_op("ApplyMomentum",
                           [var, mom, self.compute_lr(grad, var), grad, self._momentum],
                           False, use_nesterov=self._use_nesterov)

    def _resource_apply_dense(self, grad: Any, var: Any) -> Any:
        mom = self.get_slot(var, "momentum")
        return training_op("ResourceApplyMomentum",
                           [var.handle, mom.handle, self.compute_lr(grad, var), grad,
                            self._momentum],
                           False, use_nesterov=self._use_nesterov)

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        mom = self.get_slot(var, "momentum")
        return training_op("SparseApplyMomentum",
                           [var, mom, cast_like(self._learning_rate_tensor, var.dtype),
                            grad.values, grad.indices,
                            cast_like(self._momentum_tensor, var.dtype)],
                           self._use_locking, use_nesterov=self._use_nesterov).op

    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any) -> Any:
        mom = self.get_slot(var, "momentum")
        return training_op("ResourceSparseApplyMomentum",
                           [var.handle, mom.handle,
                            cast_like(self._learning_rate_tensor, grad.dtype), grad, indices,
                            cast_like(self._momentum_tensor, grad.dtype)],
                           self._use_locking, use_nesterov=self._use_nesterov)


class RegAdagradOptimizer(AdagradOptimizer):
    """Adagrad whose updates built under `avoid_updating_slots()` keep the accumulators
    (for regularization terms that should not decay the learning rate)."""

    def __init__(self, learning_rate: Any, initial_accumulator_value: float = 0.1,
                 use_locking: bool = False, name: str = "RegAdagrad"):
        super().__init__(learning_rate, initial_accumulator_value=initial_accumulator_value,
                         use_locking=use_locking, name=name)
        self._should_update_slots = True

    @contextlib.contextmanager
    def avoid_updating_slots(self) -> Iterator[None]:
        """Updates built inside this context leave the accumulators unchanged."""
        old = self._should_update_slots
        self._should_update_slots = False
        try:
            yield
        finally:
            self._should_update_slots = old

    def _lr(self, dtype: Any) -> Any:
        return cast_like(self._learning_rate_tensor, dtype)

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        acc = self.get_slot(var, "accumulator")
        return training_op("ApplyAdagrad", [var, acc, self._lr(var.dtype), grad],
                           self._use_locking, update_slots=self._should_update_slots)

    def _resource_apply_dense(self, grad: Any, var: Any) -> Any:
        acc = self.get_slot(var, "accumulator")
        return training_op("ResourceApplyAdagrad",
                           [var.handle, acc.handle, self._lr(grad.dtype), grad],
                           self._use_locking, update_slots=self._should_update_slots)

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        acc = self.get_slot(var, "accumulator")
        return training_op("SparseApplyAdagrad",
                           [var, acc, self._lr(var.dtype), grad.values, grad.indices],
                           self._use_locking, update_slots=self._should_update_slots)

    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any) -> Any:
        acc = self.get_slot(var, "accumulator")
        return training_op("ResourceSparseApplyAdagrad",
                           [var.handle, acc.handle, self._lr(grad.dtype), grad, indices],
                           self._use_locking, update_slots=self._should_update_slots)


class _Wrapper(Optimizer):
    """An optimizer that delegates gradients and slots to `opt`."""

    def __init__(self, opt: Optimizer, use_locking: bool, name: str):
        super().__init__(use_locking, name)
        self._opt = opt

    def compute_gradients(self, *args: Any, **kwargs: Any) -> Any:
        """The wrapped optimizer's `compute_gradients`."""
        return self._opt.compute_gradients(*args, **kwargs)

    def get_slot(self, *args: Any, **kwargs: Any) -> Any:
        """The wrapped optimizer's slot."""
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args: Any, **kwargs: Any) -> Any:
        """The wrapped optimizer's slot names."""
        return self._opt.get_slot_names(*args, **kwargs)


class VariableClippingOptimizer(_Wrapper):
    """Runs `opt`'s step, then clips each variable of `vars_to_clip_dims` to L2 norm
    `max_norm` along its listed dimensions (`tf.clip_by_norm`); a sparse gradient clips
    only its rows unless dimension 0 is listed."""

    def __init__(self, opt: Optimizer, vars_to_clip_dims: Dict[Any, list], max_norm: Any,
                 use_locking: bool = False, colocate_clip_ops_with_vars: bool = False,
                 name: str = "VariableClipping"):
        super().__init__(opt, use_locking, name)
        self._vars_to_clip_dims = {var: dims[:] for var, dims in vars_to_clip_dims.items()}
        self._max_norm = max_norm
        self._colocate_clip_ops_with_vars = colocate_clip_ops_with_vars

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        """`opt.apply_gradients`, then the clipping assignments."""
        from tf1compat.ops.control_flow_ops import group
        grads_and_vars = list(grads_and_vars)
        with name_scope(name, self._name) as scope:
            update_op = self._opt.apply_gradients(grads_and_vars, global_step=global_step)
            clip_update_ops = []
            with control_dependencies([update_op]):
                for grad, var in grads_and_vars:
                    if grad is None or var not in self._vars_to_clip_dims:
                        continue
                    with name_scope("clip_" + var.op.name):
                        if isinstance(grad, Tensor):
                            clip_update_ops.append(self._clip_dense(var))
                        else:
                            clip_update_ops.append(self._clip_sparse(grad, var))
            return group(*([update_op] + clip_update_ops), name=scope)

    @contextlib.contextmanager
    def _maybe_colocate_with(self, var: Any) -> Iterator[None]:
        if self._colocate_clip_ops_with_vars:
            with colocate_with(var):
                yield
        else:
            yield

    def _clip_dense(self, var: Any) -> Any:
        from tf1compat.ops.reduction_ops import clip_by_norm
        with self._maybe_colocate_with(var):
            updated = var.read_value()
            delta = updated - clip_by_norm(updated, self._max_norm,
                                           self._vars_to_clip_dims[var])
        with colocate_with(var):
            return var.assign_sub(delta, use_locking=self._use_locking)

    def _clip_sparse(self, grad: Any, var: Any) -> Any:
        from tf1compat.ops.reduction_ops import clip_by_norm
        from tf1compat.ops.indexing_ops import gather
        clip_dims = self._vars_to_clip_dims[var]
        if 0 in clip_dims:
            # Norms across the sparse dimension need the whole variable.
            return self._clip_dense(var)
        with colocate_with(var):
            var_subset = gather(var, grad.indices)
        with self._maybe_colocate_with(var):
            delta = IndexedSlices(var_subset - clip_by_norm(var_subset, self._max_norm,
                                                            clip_dims),
                                  grad.indices, grad.dense_shape)
        with colocate_with(var):
            return var.scatter_sub(delta, use_locking=self._use_locking)


class DropStaleGradientOptimizer(_Wrapper):
    """Applies `opt`'s step only when the global step advanced at most `staleness` steps
    between `compute_gradients` and `apply_gradients`; the returned op adds 1 to the
    `stale_counter` variable for each dropped step and returns the counter."""

    def __init__(self, opt: Optimizer, staleness: int, use_locking: bool = False,
                 name: str = "DropStaleGradient"):
        super().__init__(opt, use_locking, name)
        self._staleness = staleness
        self._local_step = None

    def compute_gradients(self, loss: Any, *args: Any, **kwargs: Any) -> Any:
        """Records the global step, then `opt.compute_gradients` after it."""
        from tf1compat.ops.array_ops import identity
        from tf1compat.training.training_util import get_global_step
        with colocate_with(loss):
            self._local_step = get_global_step().read_value() + 0
        with control_dependencies([self._local_step]):
            loss = identity(loss)
            return self._opt.compute_gradients(loss, *args, **kwargs)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        """`opt.apply_gradients` unless the gradients are stale."""
        from tf1compat.ops.array_ops import identity, reshape
        from tf1compat.ops.cond import cond
        from tf1compat.variables.init_ops import zeros_initializer
        from tf1compat.ops.math_ops import cast, less_equal
        from tf1compat.summary.summary_ops import scalar
        from tf1compat.variables.variable_scope import get_variable
        if self._local_step is None:
            raise ValueError("DropStaleGradientOptimizer.apply_gradients needs "
                             "compute_gradients (or minimize) to record the global step "
                             "first")
        grads_and_vars = list(grads_and_vars)
        with colocate_with(global_step):
            stale_counter = get_variable("stale_counter", [],
                                         initializer=zeros_initializer(), trainable=False)

        def accept() -> Any:
            with control_dependencies([self._opt.apply_gradients(
                    grads_and_vars, global_step=global_step, name=name)]):
                return identity(0.0)

        gradients = [g if isinstance(g, Tensor) else g.op
                     for g, _ in grads_and_vars if g is not None]
        with control_dependencies(gradients), colocate_with(global_step):
            staleness = reshape(global_step.read_value() - self._local_step, shape=())
        conditional_update = stale_counter.assign_add(
            cond(less_equal(staleness, self._staleness), accept, lambda: identity(1.0)))
        scalar("Gradient staleness percentage",
               stale_counter / cast(global_step.read_value() + 1, D.float32))
        return conditional_update


class MovingAverageOptimizer(Optimizer):
    """`opt`'s step followed by an ExponentialMovingAverage(average_decay, num_updates) of
    the updated variables (after the step when `sequential_update`)."""

    def __init__(self, opt: Optimizer, average_decay: float = 0.9999,
                 num_updates: Any = None, sequential_update: bool = True):
        from tf1compat.training.moving_averages import ExponentialMovingAverage
        # TF 1.15 does not call Optimizer.__init__: the wrapper has no name or slots of
        # its own.
        self._optimizer = opt
        self._ema = ExponentialMovingAverage(average_decay, num_updates=num_updates)
        self._variable_map: Optional[Dict[str, Any]] = None
        self._sequential_update = sequential_update

    def compute_gradients(self, *args: Any, **kwargs: Any) -> Any:
        """The wrapped optimizer's `compute_gradients`."""
        return self._optimizer.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        """`opt.apply_gradients` and the moving-average update, grouped as
        "train_with_avg"."""
        from tf1compat.ops.control_flow_ops import group
        grads_and_vars = list(grads_and_vars)
        train_op = self._optimizer.apply_gradients(grads_and_vars, global_step=global_step,
                                                   name=name)
        var_list = [v for g, v in grads_and_vars if g is not None]
        self._variable_map = {}
        if self._sequential_update:
            with control_dependencies([train_op]):
                ma_op = self._ema.apply(var_list)
        else:
            ma_op = self._ema.apply(var_list)
        for v in var_list:
            v_avg = self._ema.average(v)
            self._variable_map[v.op.name] = v_avg
            self._variable_map[v_avg.op.name] = v
        return group(train_op, ma_op, name="train_with_avg")

    def swapping_saver(self, var_list: Any = None, name: str = "swapping_saver",
                       **kwargs: Any) -> Any:
        """A Saver writing each trained variable's moving average under the variable's
        name (and the variable under its average's name)."""
        from tf1compat.training.saving.saveable import op_list_to_dict
        from tf1compat.training.saving.saver import Saver
        from tf1compat.variables.collections import global_variables
        if self._variable_map is None:
            raise RuntimeError("Must call apply_gradients or minimize before creating the "
                               "swapping_saver")
        if var_list is None:
            var_list = global_variables()
        if not isinstance(var_list, dict):
            var_list = op_list_to_dict(var_list)
        swapped = {k: self._variable_map.get(v.op.name) or v for k, v in var_list.items()}
        return Saver(swapped, name=name, **kwargs)


def _skip_all_zero_gradients(fn: Any) -> Any:
    """`fn(grad, ...)` run only when `grad` has a nonzero entry (else a no-op)."""
    def wrapper(grad: Any, *args: Any, **kwargs: Any) -> Any:
        from tf1compat.ops.cond import cond
        from tf1compat.ops.control_flow_ops import no_op
        from tf1compat.ops.math_ops import equal
        from tf1compat.ops.reduction_ops import count_nonzero
        values = grad.values if isinstance(grad, IndexedSlices) else grad
        all_zeros = equal(count_nonzero(values), 0)

        def apply() -> Any:
            with control_dependencies([fn(grad, *args, **kwargs)]):
                return no_op()
        return cond(all_zeros, no_op, apply)
    return wrapper


class MultitaskOptimizerWrapper:
    """Wraps `opt` (in place, as TF 1.15 does) so that a variable whose gradient is all
    zeros is left alone: no update of the variable or of its slots. Every other attribute
    is `opt`'s."""

    def __init__(self, opt: Optimizer):
        self._opt = opt
        for name in ("_apply_dense", "_resource_apply_dense", "_apply_sparse",
                     "_resource_apply_sparse"):
            setattr(opt, name, _skip_all_zero_gradients(getattr(opt, name)))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._opt, name)


def clip_gradients_by_global_norm(gradients_variables: Any, clip_norm: Any = 20.0) -> list:
    """[(gradient, variable)] with the gradients scaled by `tf.clip_by_global_norm`."""
    from tf1compat.ops.clip_ops import clip_by_global_norm
    gradients, variables = zip(*gradients_variables)
    gradients, _ = clip_by_global_norm(gradients, clip_norm)
    return list(zip(gradients, variables))
