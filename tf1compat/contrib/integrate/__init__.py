"""`tf.contrib.integrate` (TF 1.15): ODE solvers, `odeint` (adaptive Dormand-Prince with
dense output) and `odeint_fixed` (midpoint / RK4 on a fixed grid)."""

from tf1compat.contrib.integrate.odes import odeint, odeint_fixed

__all__ = ["odeint", "odeint_fixed"]
