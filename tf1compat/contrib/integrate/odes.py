"""TF 1.15's contrib ODE solvers (contrib/integrate/python/ops/odes.py), on graph ops.

`odeint`: Dormand-Prince 5(4) with adaptive steps (error ratio = RMS of error / (atol +
rtol * max(|y0|, |y1|)); a step is accepted when the ratio is <= 1; the next step is
dt / clip(ratio**(1/5) / safety, 1/ifactor, 1/dfactor)) and 4th-order dense output
between steps, inside two tf.while_loops (over the requested times, then over steps
until a time is passed). `odeint_fixed`: midpoint or classic RK4 with an integer number
of equal steps per interval. The arithmetic is TF's, term by term, so the results agree
to rounding.
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Dict, List, Optional, Sequence

from tf1compat.framework import dtypes
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.cond import cond
from tf1compat.framework.constant_op import constant
from tf1compat.ops.logging_ops import Assert
from tf1compat.ops.math_extra import imag, real
from tf1compat.ops.reduction_ops import reduce_all, reduce_mean
from tf1compat.ops.tensor_array_ops import TensorArray
from tf1compat.ops.while_loop import while_loop

__all__ = ["odeint", "odeint_fixed"]

# Dormand-Prince: stage times, stage weights, the 5th-order solution, the midpoint used
# for dense output, and the difference between the 5th- and 4th-order solutions.
_ALPHA = [1 / 5, 3 / 10, 4 / 5, 8 / 9, 1., 1.]
_BETA = [[1 / 5],
         [3 / 40, 9 / 40],
         [44 / 45, -56 / 15, 32 / 9],
         [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
         [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
         [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]]
_C_MID = [6025192743 / 30085553152 / 2, 0, 51252292925 / 65400821598 / 2,
          -2691868925 / 45128329728 / 2, 187940372067 / 1594534317056 / 2,
          -1776094331 / 19743644256 / 2, 11237099 / 235043384 / 2]
_C_ERROR = [1951 / 21600 - 35 / 384, 0, 22642 / 50085 - 500 / 1113, 451 / 720 - 125 / 192,
            -12231 / 42400 - -2187 / 6784, 649 / 6300 - 11 / 84, 1 / 60]

_State = collections.namedtuple("_State", "y1, f1, t0, t1, dt, interp_coeff")
_History = collections.namedtuple("_History", "integrate_points, error_ratio")


def _weighted_sum(scale: Any, weights: Sequence[Any], values: Sequence[Any],
                  name: Optional[str] = None) -> Tensor:
    """sum((scale * w) * v) over the terms whose weight is not a literal 0."""
    with name_scope(name, "scaled_dot_product", [scale, weights, values]) as scope:
        return math_ops.add_n([(scale * w) * v for w, v in zip(weights, values)
                               if isinstance(w, Tensor) or w != 0], name=scope)


def _dot(weights: Sequence[Any], values: Sequence[Any]) -> Tensor:
    with name_scope(None, "dot_product", [weights, values]) as scope:
        return math_ops.add_n([w * v for w, v in zip(weights, values)], name=scope)


def _rk_step(func: Callable, y0: Tensor, f0: Tensor, t0: Tensor, dt: Tensor) -> tuple:
    """One Dormand-Prince step: (y1, f1, error estimate, stage derivatives)."""
    with name_scope(None, "runge_kutta_step", [y0, f0, t0, dt]) as scope:
        dt_y = math_ops.cast(dt, y0.dtype)
        k = [f0]
        for alpha, beta in zip(_ALPHA, _BETA):
            y = y0 + _weighted_sum(dt_y, beta, k)
            k.append(func(y, t0 + alpha * dt))
        # The last stage is evaluated at the 5th-order solution itself (FSAL).
        y1 = array_ops.identity(y, name=f"{scope}/y1")
        f1 = array_ops.identity(k[-1], name=f"{scope}/f1")
        error = _weighted_sum(dt_y, _C_ERROR, k, name=f"{scope}/y1_error")
        return y1, f1, error, k


def _interp_fit(y0: Tensor, y1: Tensor, k: List[Tensor], dt: Tensor) -> List[Tensor]:
    """Coefficients [a, b, c, d, e] of a*x**4 + ... + e on x in [0, 1] through y0, the
    midpoint and y1 with the end derivatives."""
    with name_scope("interp_fit_rk"):
        dt = math_ops.cast(dt, y0.dtype)
        y_mid = y0 + _weighted_sum(dt, _C_MID, k)
        f0, f1 = k[0], k[-1]
        points = [f0, f1, y0, y1, y_mid]
        return [_dot([-2 * dt, 2 * dt, -8, -8, 16], points),
                _dot([5 * dt, -3 * dt, 18, 14, -32], points),
                _dot([-4 * dt, dt, -11, -5, 16], points), dt * f0, y0]


def _interp_evaluate(coefficients: List[Tensor], t0: Tensor, t1: Tensor, t: Tensor) -> Tensor:
    with name_scope("interp_evaluate"):
        t0, t1, t = convert_to_tensor(t0), convert_to_tensor(t1), convert_to_tensor(t)
        dtype = coefficients[0].dtype
        check = Assert((t0 <= t) & (t <= t1),
                       ["invalid interpolation, fails `t0 <= t <= t1`:", t0, t, t1])
        with control_dependencies([check]):
            x = math_ops.cast((t - t0) / (t1 - t0), dtype)
        powers = [constant(1, dtype), x]
        for _ in range(2, len(coefficients)):
            powers.append(powers[-1] * x)
        return _dot(coefficients, list(reversed(powers)))


def _next_step(last: Tensor, error_ratio: Tensor, safety: Tensor, ifactor: Tensor,
               dfactor: Tensor) -> Tensor:
    with name_scope(None, "optimal_step_size", [last, error_ratio]) as scope:
        error_ratio = math_ops.cast(error_ratio, last.dtype)
        exponent = math_ops.cast(1 / 5, last.dtype)
        factor = math_ops.maximum(1 / ifactor,
                                  math_ops.minimum(error_ratio ** exponent / safety,
                                                   1 / dfactor))
        return math_ops.div(last, factor, name=scope)


def _abs_square(x: Tensor) -> Tensor:
    if x.dtype.is_complex:
        return math_ops.square(real(x)) + math_ops.square(imag(x))
    return math_ops.square(x)


def _append(array: TensorArray, value: Tensor) -> TensorArray:
    return array.write(array.size(), value)


def _increasing(t: Tensor) -> Any:
    check = Assert(reduce_all(t[1:] > t[:-1]), ["`t` must be monotonic increasing"])
    return control_dependencies([check])


def _check_types(y0: Tensor, t: Tensor, dt: Optional[Tensor] = None) -> None:
    if not (y0.dtype.is_floating or y0.dtype.is_complex):
        raise TypeError("`y0` must have a floating point or complex floating point dtype")
    if not t.dtype.is_floating:
        raise TypeError("`t` must have a floating point dtype")
    if dt is not None and not dt.dtype.is_floating:
        raise TypeError("`dt` must have a floating point dtype")


def _dopri5(func: Callable, y0: Tensor, t: Tensor, rtol: Tensor, atol: Tensor,
            full_output: bool = False, first_step: Any = None, safety: Any = 0.9,
            ifactor: Any = 10.0, dfactor: Any = 0.2, max_num_steps: Any = 1000,
            name: Optional[str] = None) -> Any:
    with name_scope(name, "dopri5", [y0, t, rtol, atol, safety, ifactor, dfactor,
                                     max_num_steps]) as scope:
        first_step = convert_to_tensor(1.0 if first_step is None else first_step,
                                       dtype=t.dtype, name="first_step")
        safety = convert_to_tensor(safety, dtype=t.dtype, name="safety")
        ifactor = convert_to_tensor(ifactor, dtype=t.dtype, name="ifactor")
        dfactor = convert_to_tensor(dfactor, dtype=t.dtype, name="dfactor")
        max_num_steps = convert_to_tensor(max_num_steps, dtype=dtypes.int32,
                                          name="max_num_steps")

        def step(state: _State, history: _History, n_steps: Tensor) -> tuple:
            y0, f0, _, t0, dt, coeff = state
            with name_scope("assertions"):
                checks = [Assert(t0 + dt > t0, ["underflow in dt", dt]),
                          Assert(n_steps < max_num_steps, ["max_num_steps exceeded"]),
                          Assert(reduce_all(math_ops.is_finite(abs(y0))),
                                 ["non-finite values in state `y`", y0])]
            with control_dependencies(checks):
                y1, f1, error, k = _rk_step(func, y0, f0, t0, dt)
            with name_scope("error_ratio"):
                tolerance = atol + rtol * math_ops.maximum(abs(y0), abs(y1))
                ratio = math_ops.sqrt(reduce_mean(_abs_square(error)
                                                  / _abs_square(tolerance)))
                accept = ratio <= 1
            with name_scope("update/rk_state"):
                state = _State(cond(accept, lambda: y1, lambda: y0),
                               cond(accept, lambda: f1, lambda: f0), t0,
                               cond(accept, lambda: t0 + dt, lambda: t0),
                               _next_step(dt, ratio, safety, ifactor, dfactor),
                               cond(accept, lambda: _interp_fit(y0, y1, k, dt),
                                    lambda: coeff))
            with name_scope("update/history"):
                history = _History(_append(history.integrate_points, t0 + dt),
                                   _append(history.error_ratio, ratio))
            return state, history, n_steps + 1

        def next_time(solution: TensorArray, history: _History, state: _State,
                      i: Tensor) -> tuple:
            with name_scope("interpolate"):
                state, history, _ = while_loop(lambda state, *_: t[i] > state.t1, step,
                                               (state, history, 0), name="integrate_loop")
                y = _interp_evaluate(state.interp_coeff, state.t0, state.t1, t[i])
                return solution.write(i, y), history, state, i + 1

        with _increasing(t):
            num_times = array_ops.size(t)
        solution = TensorArray(y0.dtype, size=num_times).write(0, y0)
        history = _History(TensorArray(t.dtype, size=0, dynamic_size=True),
                           TensorArray(rtol.dtype, size=0, dynamic_size=True))
        state = _State(y0, func(y0, t[0]), t[0], t[0], first_step, [y0] * 5)
        solution, history, _, _ = while_loop(lambda _, __, ___, i: i < num_times, next_time,
                                             (solution, history, state, 1),
                                             name="interpolate_loop")
        y = solution.stack(name=scope)
        y.set_shape(t.get_shape().concatenate(y0.get_shape()))
        if not full_output:
            return y
        points = history.integrate_points.stack()
        return y, {"num_func_evals": 6 * array_ops.size(points) + 1,
                   "integrate_points": points, "error_ratio": history.error_ratio.stack()}


def odeint(func: Callable, y0: Any, t: Any, rtol: Any = 1e-6, atol: Any = 1e-12,
           method: Optional[str] = None, options: Optional[Dict[str, Any]] = None,
           full_output: bool = False, name: Optional[str] = None) -> Any:
    """Solves dy/dt = func(y, t), y(t[0]) = y0 at the times `t` (increasing; float64
    unless given as a tensor) with adaptive Dormand-Prince steps; `options` for
    method='dopri5': first_step, safety, ifactor, dfactor, max_num_steps. Returns y
    stacked over `t`, and with `full_output` a dict with num_func_evals,
    integrate_points and error_ratio."""
    if method is not None and method != "dopri5":
        raise ValueError("invalid method: %r" % method)
    if options is None:
        options = {}
    elif method is None:
        raise ValueError("cannot supply `options` without specifying `method`")
    with name_scope(name, "odeint", [y0, t, rtol, atol]) as scope:
        y0 = convert_to_tensor(y0, name="y0")
        t = convert_to_tensor(t, preferred_dtype=dtypes.float64, name="t")
        _check_types(y0, t)
        error_dtype = abs(y0).dtype
        rtol = convert_to_tensor(rtol, dtype=error_dtype, name="rtol")
        atol = convert_to_tensor(atol, dtype=error_dtype, name="atol")
        return _dopri5(func, y0, t, rtol=rtol, atol=atol, full_output=full_output,
                       name=scope, **options)


def _midpoint_step(func: Callable, t: Tensor, dt: Tensor, y: Tensor) -> Tensor:
    dt_y = math_ops.cast(dt, y.dtype)
    return dt_y * func(y + func(y, t) * dt_y / 2, t + dt / 2)


def _rk4_step(func: Callable, t: Tensor, dt: Tensor, y: Tensor) -> Tensor:
    k1 = func(y, t)
    half = t + dt / 2
    dt_y = math_ops.cast(dt, y.dtype)
    k2 = func(y + dt_y * k1 / 2, half)
    k3 = func(y + dt_y * k2 / 2, half)
    k4 = func(y + dt_y * k3, t + dt)
    return math_ops.add_n([k1, 2 * k2, 2 * k3, k4]) * (dt_y / 6)


def _fixed_grid(step_fn: Callable, func: Callable, y0: Tensor, t: Tensor, dt: Tensor,
                steps: Tensor) -> Tensor:
    """y at each time of `t`, with steps[i] steps of dt[i] across interval i."""

    def advance(y: Tensor, now: Tensor, j: Tensor, interval: Tensor) -> tuple:
        h = dt[interval - 1]
        dy = math_ops.cast(step_fn(func, now, h, y), dtype=y.dtype)
        return y + dy, now + h, j + 1, interval

    def integrate_interval(solution: TensorArray, y: Tensor, now: Tensor,
                           interval: Tensor) -> tuple:
        y, now, _, _ = while_loop(lambda _, __, j, interval: j < steps[interval - 1],
                                  advance, (y, now, 0, interval))
        return solution.write(interval, y), y, now, interval + 1

    num_times = array_ops.size(t)
    solution = TensorArray(y0.dtype, num_times).write(0, y0)
    solution, _, _, _ = while_loop(lambda _, __, ___, i: i < num_times, integrate_interval,
                                   (solution, y0, t[0], 1))
    out = solution.stack()
    out.set_shape(t.get_shape().concatenate(y0.get_shape()))
    return out


_FIXED_STEPS = {"midpoint": _midpoint_step, "rk4": _rk4_step}


def odeint_fixed(func: Callable, y0: Any, t: Any, dt: Any = None, method: str = "rk4",
                 name: Optional[str] = None) -> Tensor:
    """Solves dy/dt = func(y, t) at the times `t` with fixed steps ('midpoint' or
    'rk4'): each interval takes ceil(interval / dt) equal steps (dt: a scalar, one per
    interval, or None for one step per interval)."""
    with name_scope(name, "odeint_fixed", [y0, t, dt]):
        t = convert_to_tensor(t, preferred_dtype=dtypes.float64, name="t")
        y0 = convert_to_tensor(y0, name="y0")
        intervals = t[1:] - t[:-1]
        if dt is None:
            dt = intervals
        dt = convert_to_tensor(dt, preferred_dtype=dtypes.float64, name="dt")
        steps = math_ops.ceil(intervals / dt)
        dt = intervals / steps
        steps = math_ops.cast(steps, dtype=dtypes.int32)
        _check_types(y0, t, dt)
        if len(t.get_shape().as_list()) > 1 or len(dt.get_shape().as_list()) > 1:
            raise ValueError("t must be a 1D tensor")
        if t.get_shape()[0] != dt.get_shape()[0] + 1:
            raise ValueError("t and dt have incompatible lengths, must be N and N-1")
        with _increasing(t):
            with name_scope(method):
                if method not in _FIXED_STEPS:
                    raise ValueError("method not supported: {!s}".format(method))
                return _fixed_grid(_FIXED_STEPS[method], func, y0, t, dt, steps)
