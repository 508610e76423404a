"""Optimizer arguments of the canned estimators: a name ('Adagrad', 'Adam', 'Ftrl',
'RMSProp', 'SGD'), an Optimizer, or a callable returning one."""

from __future__ import annotations

from typing import Any, Optional

__all__ = ["get_optimizer_instance", "LEARNING_RATE"]

LEARNING_RATE = 0.05


def _optimizer_classes() -> dict:
    from tf1compat.training import optimizers as opt
    return {"Adagrad": opt.AdagradOptimizer, "Adam": opt.AdamOptimizer,
            "Ftrl": opt.FtrlOptimizer, "RMSProp": opt.RMSPropOptimizer,
            "SGD": opt.GradientDescentOptimizer}


def get_optimizer_instance(opt: Any, learning_rate: Optional[float] = None) -> Any:
    """The Optimizer `opt` names, is, or returns (TF's canned/optimizers.py)."""
    from tf1compat.training.optimizers import Optimizer
    classes = _optimizer_classes()
    if isinstance(opt, str):
        if opt in classes:
            if not learning_rate:
                raise ValueError("learning_rate must be specified when opt is string.")
            return classes[opt](learning_rate=learning_rate)
        raise ValueError(f"Unsupported optimizer name: {opt}. Supported names are: "
                         f"{tuple(sorted(classes))}")
    if callable(opt) and not isinstance(opt, Optimizer):
        opt = opt()
    if not isinstance(opt, Optimizer):
        raise ValueError(f"The given object is not an Optimizer instance. Given: {opt}")
    return opt
