"""`tf.contrib.opt.ExternalOptimizerInterface` and `ScipyOptimizerInterface`: an outside
optimizer (scipy.optimize.minimize, L-BFGS-B by default) drives a Session.

The interface packs the variables into one float vector, evaluates the loss and its
gradient (and any equality / inequality constraints) by feeding candidate values for the
variables, and finally assigns the optimum. SciPy is not a dependency of tf1compat:
`ScipyOptimizerInterface.minimize` imports it when called, so without SciPy it raises
ImportError there, as TF does.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

import numpy as np

from tf1compat.framework.tensor import Tensor
from tf1compat.util.tf_logging import get_logger

__all__ = ["ExternalOptimizerInterface", "ScipyOptimizerInterface"]

def _shape_tuple(tensor: Any) -> tuple:
    return tuple(dim.value for dim in tensor.get_shape().dims)


def _accumulate(sizes: Sequence[int]) -> Iterator[int]:
    total = 0
    yield total
    for size in sizes:
        total += size
        yield total


def _gradients_or_zeros(tensor: Tensor, var_list: List[Any]) -> List[Tensor]:
    """tf.gradients, with zeros where a variable does not affect `tensor`."""
    from tf1compat.autodiff.gradients import gradients
    from tf1compat.ops.creation_ops import zeros_like
    grads = gradients(tensor, var_list)
    return [g if g is not None else zeros_like(v) for v, g in zip(var_list, grads)]


def _pack(tensors: Sequence[Tensor]) -> Optional[Tensor]:
    """The tensors flattened and concatenated into one rank-1 tensor."""
    from tf1compat.ops.array_ops import concat, reshape
    if not tensors:
        return None
    if len(tensors) == 1:
        return reshape(tensors[0], [-1])
    return concat([reshape(t, [-1]) for t in tensors], 0)


class ExternalOptimizerInterface:
    """Base class: subclasses implement `_minimize` for an outside algorithm.

    Args:
      loss: the scalar tensor to minimize.
      var_list: the variables to optimize (default: the trainable variables).
      equalities / inequalities: scalar tensors to hold == 0 / >= 0.
      var_to_bounds: {variable: (low, high)}, each side broadcastable to the variable's
        shape; None or +-inf for no bound.
      **optimizer_kwargs: passed to the algorithm.
    """

    def __init__(self, loss: Tensor, var_list: Any = None, equalities: Any = None,
                 inequalities: Any = None, var_to_bounds: Optional[Dict[Any, Any]] = None,
                 **optimizer_kwargs: Any):
        from tf1compat.ops.array_ops import placeholder, reshape
        from tf1compat.variables.collections import trainable_variables
        self._loss = loss
        self._equalities = equalities or []
        self._inequalities = inequalities or []
        self._vars = trainable_variables() if var_list is None else list(var_list)
        packed_bounds = None
        if var_to_bounds is not None:
            lows: List[float] = []
            highs: List[float] = []
            for var in self._vars:
                shape = var.get_shape().as_list()
                low, high = var_to_bounds.get(var, (-np.inf, np.inf))
                lows.extend(np.broadcast_to(-np.inf if low is None else low, shape).flat)
                highs.extend(np.broadcast_to(np.inf if high is None else high, shape).flat)
            packed_bounds = list(zip(lows, highs))
        self._packed_bounds = packed_bounds
        self._update_placeholders = [placeholder(var.dtype.base_dtype) for var in self._vars]
        self._var_updates = [var.assign(reshape(ph, _shape_tuple(var)))
                             for var, ph in zip(self._vars, self._update_placeholders)]
        self.optimizer_kwargs = optimizer_kwargs
        self._packed_var = _pack(self._vars)
        self._packed_loss_grad = _pack(_gradients_or_zeros(loss, self._vars))
        self._packed_equality_grads = [_pack(_gradients_or_zeros(e, self._vars))
                                       for e in self._equalities]
        self._packed_inequality_grads = [_pack(_gradients_or_zeros(i, self._vars))
                                         for i in self._inequalities]
        sizes = [int(np.prod(_shape_tuple(var), dtype=np.int64)) for var in self._vars]
        bounds = list(_accumulate(sizes))
        self._packing_slices = [slice(a, b) for a, b in zip(bounds[:-1], bounds[1:])]

    def minimize(self, session: Any = None, feed_dict: Any = None, fetches: Any = None,
                 step_callback: Optional[Callable[[np.ndarray], Any]] = None,
                 loss_callback: Optional[Callable[..., Any]] = None,
                 **run_kwargs: Any) -> None:
        """Runs the outside algorithm with `session` (default: the default session) and
        assigns the variables their optimal values. `loss_callback` gets the values of
        `fetches` at each loss evaluation, `step_callback` the packed variables at each
        step."""
        from tf1compat.framework.tensor import get_default_session
        session = session or get_default_session()
        feed_dict = feed_dict or {}
        fetches = fetches or []
        loss_callback = loss_callback or (lambda *values: None)
        step_callback = step_callback or (lambda xk: None)
        loss_grad_func = self._make_eval_func([self._loss, self._packed_loss_grad], session,
                                              feed_dict, fetches, loss_callback)
        equality_funcs = self._make_eval_funcs(self._equalities, session, feed_dict, fetches)
        equality_grad_funcs = self._make_eval_funcs(self._packed_equality_grads, session,
                                                    feed_dict, fetches)
        inequality_funcs = self._make_eval_funcs(self._inequalities, session, feed_dict,
                                                 fetches)
        inequality_grad_funcs = self._make_eval_funcs(self._packed_inequality_grads, session,
                                                      feed_dict, fetches)
        initial_packed_var_val = session.run(self._packed_var)
        packed_var_val = self._minimize(
            initial_val=initial_packed_var_val, loss_grad_func=loss_grad_func,
            equality_funcs=equality_funcs, equality_grad_funcs=equality_grad_funcs,
            inequality_funcs=inequality_funcs, inequality_grad_funcs=inequality_grad_funcs,
            packed_bounds=self._packed_bounds, step_callback=step_callback,
            optimizer_kwargs=self.optimizer_kwargs)
        var_vals = [packed_var_val[s] for s in self._packing_slices]
        session.run(self._var_updates,
                    feed_dict=dict(zip(self._update_placeholders, var_vals)), **run_kwargs)

    def _minimize(self, initial_val: np.ndarray, loss_grad_func: Callable[..., Any],
                  equality_funcs: list, equality_grad_funcs: list, inequality_funcs: list,
                  inequality_grad_funcs: list, packed_bounds: Any,
                  step_callback: Callable[..., Any], optimizer_kwargs: dict) -> np.ndarray:
        """The algorithm: returns the optimal packed variable vector."""
        raise NotImplementedError("To use ExternalOptimizerInterface, subclass from it and "
                                  "implement the _minimize() method.")

    def _make_eval_func(self, tensors: Any, session: Any, feed_dict: Any, fetches: list,
                        callback: Optional[Callable[..., Any]] = None
                        ) -> Callable[[np.ndarray], list]:
        """A function of the packed variables that runs `tensors` with the variables fed."""
        if not isinstance(tensors, list):
            tensors = [tensors]
        num_tensors = len(tensors)

        def eval_func(x: np.ndarray) -> list:
            augmented_feed_dict = {var: x[s].reshape(_shape_tuple(var))
                                   for var, s in zip(self._vars, self._packing_slices)}
            augmented_feed_dict.update(feed_dict)
            values = session.run(tensors + fetches, feed_dict=augmented_feed_dict)
            if callable(callback):
                callback(*values[num_tensors:])
            return values[:num_tensors]

        return eval_func

    def _make_eval_funcs(self, tensors: list, session: Any, feed_dict: Any, fetches: list,
                         callback: Optional[Callable[..., Any]] = None) -> list:
        return [self._make_eval_func(t, session, feed_dict, fetches, callback)
                for t in tensors]


class ScipyOptimizerInterface(ExternalOptimizerInterface):
    """`scipy.optimize.minimize` over the variables (`method` in optimizer_kwargs,
    L-BFGS-B by default; `options={'maxiter': ...}` and the like pass through)."""

    _DEFAULT_METHOD = "L-BFGS-B"

    def _minimize(self, initial_val: np.ndarray, loss_grad_func: Callable[..., Any],
                  equality_funcs: list, equality_grad_funcs: list, inequality_funcs: list,
                  inequality_grad_funcs: list, packed_bounds: Any,
                  step_callback: Callable[..., Any], optimizer_kwargs: dict) -> np.ndarray:
        def loss_grad_func_wrapper(x: np.ndarray) -> tuple:
            # SciPy's L-BFGS-B (Fortran) needs float64 gradients.
            loss, gradient = loss_grad_func(x)
            return loss, gradient.astype("float64")

        optimizer_kwargs = dict(optimizer_kwargs)
        method = optimizer_kwargs.pop("method", self._DEFAULT_METHOD)
        constraints = ([{"type": "eq", "fun": f, "jac": g}
                        for f, g in zip(equality_funcs, equality_grad_funcs)] +
                       [{"type": "ineq", "fun": f, "jac": g}
                        for f, g in zip(inequality_funcs, inequality_grad_funcs)])
        minimize_kwargs = {"jac": True, "callback": step_callback, "method": method,
                           "constraints": constraints, "bounds": packed_bounds}
        for kwarg in minimize_kwargs:
            if kwarg in optimizer_kwargs:
                if kwarg == "bounds":
                    raise ValueError("Bounds must be set using the var_to_bounds argument")
                raise ValueError(f"Optimizer keyword arg '{kwarg}' is set automatically and "
                                 f"cannot be injected manually")
        minimize_kwargs.update(optimizer_kwargs)
        import scipy.optimize  # noqa: PLC0415 - optional: only this interface needs SciPy
        result = scipy.optimize.minimize(loss_grad_func_wrapper, initial_val,
                                         **minimize_kwargs)
        lines = ["Optimization terminated with:", "  Message: %s",
                 "  Objective function value: %f"]
        args = [result.message, result.fun]
        if hasattr(result, "nit"):
            lines.append("  Number of iterations: %d")
            args.append(result.nit)
        if hasattr(result, "nfev"):
            lines.append("  Number of functions evaluations: %d")
            args.append(result.nfev)
        get_logger().info("\n".join(lines), *args)
        return result["x"]
