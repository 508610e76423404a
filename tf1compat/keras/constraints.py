"""`tf.keras.constraints`: projections applied to a weight after each optimizer update
(`MaxNorm`, `NonNeg`, `UnitNorm`, `MinMaxNorm`, `RadialConstraint`)."""

from __future__ import annotations

from typing import Any

from tf1compat.keras import backend
from tf1compat.keras.utils.serialization import get_registered_object

__all__ = ["Constraint", "MaxNorm", "NonNeg", "UnitNorm", "MinMaxNorm", "RadialConstraint",
           "max_norm", "non_neg", "unit_norm", "min_max_norm", "radial_constraint", "maxnorm",
           "nonneg", "unitnorm", "get", "serialize", "deserialize"]


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


class RadialConstraint(Constraint):
    """Makes each (rows, cols) slice of a Conv2D kernel `(rows, cols, in, out)` constant on
    the square rings around its centre, as tf-keras does: the innermost block (1x1 for an
    odd size, 2x2 for an even one) takes `kernel[s - 1, s - 1]` (s = rows // 2), and ring
    d around it `kernel[s + i, s + i]` for the loop's i (tf-keras's padding loop, whose
    values are off the diagonal centre by one for odd sizes, reproduced as it runs)."""

    def __call__(self, w: Any) -> Any:
        from tf1compat.ops.array_ops import unstack
        shape = w.shape
        if shape.rank is None or shape.rank != 4:
            raise ValueError("The weight tensor must have rank 4. "
                             f"Received weight tensor with shape: {shape}")
        height, width, channels, kernels = shape.as_list()
        w = backend.reshape(w, (height, width, channels * kernels))
        w = backend.map_fn(self._kernel_constraint, backend.stack(unstack(w, axis=-1), axis=0))
        return backend.reshape(backend.stack(unstack(w, axis=0), axis=-1),
                               (height, width, channels, kernels))

    @staticmethod
    def _kernel_constraint(kernel: Any) -> Any:
        from tf1compat.framework.tensor_shape import TensorShape
        from tf1compat.ops.math_ops import floor_mod
        from tf1compat.ops.transform_ops import pad
        from tf1compat.ops.while_loop import while_loop
        padding = backend.constant([[1, 1], [1, 1]], dtype="int32")
        size = backend.shape(kernel)[0]
        start = backend.cast(size / 2, "int32")
        odd = backend.cast(floor_mod(size, 2), "bool")
        # Both branches are built, so an even kernel's 2x2 zeros is a Keras variable
        # (graph mode) whatever the size: TF's needs initializing before a run.
        kernel_new = backend.switch(
            odd, lambda: kernel[start - 1:start, start - 1:start],
            lambda: kernel[start - 1:start, start - 1:start]
            + backend.zeros((2, 2), dtype=kernel.dtype))
        index = backend.switch(odd, lambda: backend.constant(0, dtype="int32"),
                               lambda: backend.constant(1, dtype="int32"))

        def body(i: Any, array: Any) -> Any:
            return i + 1, pad(array, padding, constant_values=kernel[start + i, start + i])

        _, kernel_new = while_loop(lambda i, *_: backend.less(i, start), body,
                                   [index, kernel_new],
                                   shape_invariants=[index.get_shape(),
                                                     TensorShape([None, None])])
        return kernel_new


max_norm = maxnorm = MaxNorm
non_neg = nonneg = NonNeg
unit_norm = unitnorm = UnitNorm
min_max_norm = MinMaxNorm
radial_constraint = RadialConstraint

_BY_NAME = {"MaxNorm": MaxNorm, "NonNeg": NonNeg, "UnitNorm": UnitNorm,
            "MinMaxNorm": MinMaxNorm, "RadialConstraint": RadialConstraint,
            "max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm,
            "min_max_norm": MinMaxNorm, "radial_constraint": RadialConstraint}


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
