"""`tf.keras.regularizers`: L1, L2, L1L2 penalties (callable on a weight tensor)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tf1compat.keras import backend
from tf1compat.keras.utils.serialization import get_registered_object

__all__ = ["Regularizer", "L1L2", "L1", "L2", "l1", "l2", "l1_l2", "get", "serialize",
           "deserialize"]


def _check_penalty_number(x: Any) -> None:
    if not isinstance(x, (float, int)):
        raise ValueError(f"Value {x} is not a valid regularization penalty number, expected an "
                         "int or float value.")
    if math.isinf(x) or math.isnan(x):
        raise ValueError(f"Value {x} is not a valid regularization penalty number, an infinite "
                         "number or NaN are not valid values.")


def _floatx(x: float) -> Any:
    return np.asarray(x, dtype=backend.floatx())[()]


class Regularizer:
    """Base class: `__call__(x)` returns a scalar penalty."""

    def __call__(self, x: Any) -> Any:
        return 0.0

    @classmethod
    def from_config(cls, config: dict) -> "Regularizer":
        return cls(**config)

    def get_config(self) -> dict:
        raise NotImplementedError(f"{self} does not implement get_config()")


class L1L2(Regularizer):
    """l1 * sum(|x|) + 2 * l2 * l2_loss(x) (= l2 * sum(x ** 2))."""

    def __init__(self, l1: float = 0.0, l2: float = 0.0):
        l1 = 0.0 if l1 is None else l1
        l2 = 0.0 if l2 is None else l2
        _check_penalty_number(l1)
        _check_penalty_number(l2)
        self.l1 = _floatx(l1)
        self.l2 = _floatx(l2)

    def __call__(self, x: Any) -> Any:
        from tf1compat.ops.math_ops import abs as _abs
        from tf1compat.ops.nn_ops import l2_loss
        from tf1compat.ops.reduction_ops import reduce_sum
        regularization = backend.constant(0.0, dtype=x.dtype.base_dtype)
        if self.l1:
            regularization += self.l1 * reduce_sum(_abs(x))
        if self.l2:
            regularization += 2.0 * self.l2 * l2_loss(x)
        return regularization

    def get_config(self) -> dict:
        return {"l1": float(self.l1), "l2": float(self.l2)}


class L1(Regularizer):
    def __init__(self, l1: float = 0.01, **kwargs: Any):
        l1 = kwargs.pop("l", l1)
        if kwargs:
            raise TypeError(f"Argument(s) not recognized: {kwargs}")
        l1 = 0.01 if l1 is None else l1
        _check_penalty_number(l1)
        self.l1 = _floatx(l1)

    def __call__(self, x: Any) -> Any:
        from tf1compat.ops.math_ops import abs as _abs
        from tf1compat.ops.reduction_ops import reduce_sum
        return self.l1 * reduce_sum(_abs(x))

    def get_config(self) -> dict:
        return {"l1": float(self.l1)}


class L2(Regularizer):
    def __init__(self, l2: float = 0.01, **kwargs: Any):
        l2 = kwargs.pop("l", l2)
        if kwargs:
            raise TypeError(f"Argument(s) not recognized: {kwargs}")
        l2 = 0.01 if l2 is None else l2
        _check_penalty_number(l2)
        self.l2 = _floatx(l2)

    def __call__(self, x: Any) -> Any:
        from tf1compat.ops.nn_ops import l2_loss
        return 2.0 * self.l2 * l2_loss(x)

    def get_config(self) -> dict:
        return {"l2": float(self.l2)}


def l1_l2(l1: float = 0.01, l2: float = 0.01) -> L1L2:
    return L1L2(l1=l1, l2=l2)


l1 = L1
l2 = L2

_BY_NAME = {"L1L2": L1L2, "L1": L1, "L2": L2, "l1": L1, "l2": L2}


def serialize(regularizer: Any) -> Any:
    if regularizer is None:
        return None
    return {"class_name": type(regularizer).__name__, "config": regularizer.get_config()}


def deserialize(config: Any, custom_objects: Any = None) -> Any:
    if config == "l1_l2":
        return L1L2(l1=0.01, l2=0.01)
    if isinstance(config, str):
        config = {"class_name": config, "config": {}}
    name = config["class_name"]
    cls = get_registered_object(name, custom_objects, _BY_NAME)
    if cls is None:
        raise ValueError(f"Unknown regularizer: '{name}'.")
    return cls(**config.get("config", {}))


def get(identifier: Any) -> Any:
    if identifier is None:
        return None
    if isinstance(identifier, (dict, str)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")
