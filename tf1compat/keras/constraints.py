"""`tf.keras.constraints`: projections applied to a weight after each optimizer update
(`MaxNorm`, `NonNeg`, `UnitNorm`, `MinMaxNorm`)."""

from __future__ import annotations

from typing import Any

from tf1compat.keras import backend
from tf1compat.keras.utils.serialization import get_registered_object

__all__ = ["Constraint", "MaxNorm", "NonNeg", "UnitNorm", "MinMaxNorm", "max_norm",
           "non_neg", "unit_norm", "min_max_norm", "maxnorm", "nonneg", "unitnorm", "get",
           "serialize", "deserialize"]


def _norms(w: Any, axis: Any) -> Any:
    from tf1compat.ops.math_ops import square
    from tf1compat.ops.reduction_ops import reduce_sum
    return backend.sqrt(reduce_sum(square(w), axis=axis, keepdims=True))


class Constraint:
    """Base class: `__call__(w)` returns the projected weight."""

    def __call__(self, w: Any) -> Any:
        return w

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> "Constraint":
        return cls(**config)


class MaxNorm(Constraint):
    def __init__(self, max_value: float = 2, axis: Any = 0):
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w: Any) -> Any:
        norms = _norms(w, self.axis)
        desired = backend.clip(norms, 0, self.max_value)
        return w * (desired / (backend.epsilon() + norms))

    def get_config(self) -> dict:
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    def __call__(self, w: Any) -> Any:
        from tf1compat.ops.math_ops import cast, greater_equal
        return w * cast(greater_equal(w, 0.0), backend.floatx())


class UnitNorm(Constraint):
    def __init__(self, axis: Any = 0):
        self.axis = axis

    def __call__(self, w: Any) -> Any:
        return w / (backend.epsilon() + _norms(w, self.axis))

    def get_config(self) -> dict:
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    def __init__(self, min_value: float = 0.0, max_value: float = 1.0, rate: float = 1.0,
                 axis: Any = 0):
        self.min_value = min_value
        self.max_value = max_value
        self.rate = rate
        self.axis = axis

    def __call__(self, w: Any) -> Any:
        norms = _norms(w, self.axis)
        desired = self.rate * backend.clip(norms, self.min_value, self.max_value) + \
            (1 - self.rate) * norms
        return w * (desired / (backend.epsilon() + norms))

    def get_config(self) -> dict:
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


max_norm = maxnorm = MaxNorm
non_neg = nonneg = NonNeg
unit_norm = unitnorm = UnitNorm
min_max_norm = MinMaxNorm

_BY_NAME = {"MaxNorm": MaxNorm, "NonNeg": NonNeg, "UnitNorm": UnitNorm,
            "MinMaxNorm": MinMaxNorm, "max_norm": MaxNorm, "non_neg": NonNeg,
            "unit_norm": UnitNorm, "min_max_norm": MinMaxNorm}


def serialize(constraint: Any) -> Any:
    if constraint is None:
        return None
    return {"class_name": type(constraint).__name__, "config": constraint.get_config()}


def deserialize(config: Any, custom_objects: Any = None) -> Any:
    name = config["class_name"]
    cls = get_registered_object(name, custom_objects, _BY_NAME)
    if cls is None:
        raise ValueError(f"Unknown constraint: '{name}'.")
    return cls(**config.get("config", {}))


def get(identifier: Any) -> Any:
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return deserialize({"class_name": identifier, "config": {}})
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret constraint function identifier: {identifier}")

# Names of tf-keras's tf.keras.constraints that tf1compat lacks raise UnimplementedAPIError.
from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook("keras.constraints", globals())
