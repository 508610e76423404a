"""Keras activation layers: LeakyReLU, ReLU, Softmax, ELU, PReLU, ThresholdedReLU."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.keras import backend, constraints, initializers, regularizers
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.input_spec import InputSpec

__all__ = ["LeakyReLU", "ReLU", "Softmax", "ELU", "PReLU", "ThresholdedReLU"]


class LeakyReLU(Layer):
    """max(x, alpha * x)."""

    def __init__(self, alpha: float = 0.3, **kwargs: Any):
        super().__init__(**kwargs)
        if alpha is None:
            raise ValueError("The alpha value of a Leaky ReLU layer cannot be None, Expecting "
                             f"a float. Received: {alpha}")
        self.supports_masking = True
        self.alpha = float(alpha)

    def call(self, inputs: Any) -> Any:
        return backend.relu(inputs, alpha=self.alpha)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"alpha": self.alpha})
        return config


class ReLU(Layer):
    """ReLU with optional max_value, negative_slope and threshold."""

    def __init__(self, max_value: Optional[float] = None, negative_slope: float = 0.0,
                 threshold: float = 0.0, **kwargs: Any):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError("max_value of a ReLU layer cannot be a negative value. Received: "
                             f"{max_value}")
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError("negative_slope of a ReLU layer cannot be a negative value. "
                             f"Received: {negative_slope}")
        if threshold is None or threshold < 0.0:
            raise ValueError("threshold of a ReLU layer cannot be a negative value. "
                             f"Received: {threshold}")
        self.supports_masking = True
        self.max_value = max_value
        self.negative_slope = negative_slope
        self.threshold = threshold

    def call(self, inputs: Any) -> Any:
        return backend.relu(inputs, alpha=self.negative_slope, max_value=self.max_value,
                            threshold=self.threshold)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"max_value": self.max_value, "negative_slope": self.negative_slope,
                       "threshold": self.threshold})
        return config


class Softmax(Layer):
    """softmax over `axis` (an int or a tuple of axes); masked positions (mask 0 / False)
    get a large negative score first (-1e9, or float16's minimum)."""

    def __init__(self, axis: Any = -1, robust_masking: bool = False, **kwargs: Any):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.robust_masking = robust_masking
        self.axis = axis

    def call(self, inputs: Any, mask: Any = None) -> Any:
        from tf1compat.framework import dtypes as D
        from tf1compat.ops import math_ops, reduction_ops
        from tf1compat.ops.indexing_ops import where_v2
        if mask is not None:
            large_negative = D.float16.min if inputs.dtype == D.float16 else -1e9
            if self.robust_masking:
                if mask.dtype != D.bool:
                    mask = math_ops.greater(mask, math_ops.cast(0.5, mask.dtype))
                inputs = where_v2(mask, inputs, math_ops.cast(large_negative, inputs.dtype))
            else:
                inputs += (1.0 - math_ops.cast(mask, inputs.dtype)) * large_negative
        if isinstance(self.axis, (tuple, list)):
            if len(self.axis) > 1:
                return math_ops.exp(inputs - reduction_ops.reduce_logsumexp(
                    inputs, axis=self.axis, keepdims=True))
            return backend.softmax(inputs, axis=self.axis[0])
        return backend.softmax(inputs, axis=self.axis)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        config = {"axis": self.axis}
        if self.robust_masking:
            config["robust_masking"] = True
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class ELU(Layer):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""

    def __init__(self, alpha: float = 1.0, **kwargs: Any):
        super().__init__(**kwargs)
        if alpha is None:
            raise ValueError("Alpha of an ELU layer cannot be None, expecting a float. "
                             f"Received: {alpha}")
        self.supports_masking = True
        self.alpha = backend.cast_to_floatx(alpha)

    def call(self, inputs: Any) -> Any:
        return backend.elu(inputs, self.alpha)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "alpha": float(self.alpha)}


class PReLU(Layer):
    """x for x > 0, alpha * x otherwise, with a learned `alpha` per input element (shared
    along `shared_axes`)."""

    def __init__(self, alpha_initializer: Any = "zeros", alpha_regularizer: Any = None,
                 alpha_constraint: Any = None, shared_axes: Any = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        if shared_axes is None:
            self.shared_axes = None
        elif not isinstance(shared_axes, (list, tuple)):
            self.shared_axes = [shared_axes]
        else:
            self.shared_axes = list(shared_axes)

    def build(self, input_shape: Any) -> None:
        input_shape = list(getattr(input_shape, "as_list", lambda: input_shape)())
        param_shape = list(input_shape[1:])
        if self.shared_axes is not None:
            for i in self.shared_axes:
                param_shape[i - 1] = 1
        self.alpha = self.add_weight(shape=param_shape, name="alpha",
                                     initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer,
                                     constraint=self.alpha_constraint)
        axes = {}
        if self.shared_axes:
            for i in range(1, len(input_shape)):
                if i not in self.shared_axes:
                    axes[i] = input_shape[i]
        self.input_spec = InputSpec(ndim=len(input_shape), axes=axes)
        self.built = True

    def call(self, inputs: Any) -> Any:
        positive = backend.relu(inputs)
        negative = -self.alpha * backend.relu(-inputs)
        return positive + negative

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(),
                "alpha_initializer": initializers.serialize(self.alpha_initializer),
                "alpha_regularizer": regularizers.serialize(self.alpha_regularizer),
                "alpha_constraint": constraints.serialize(self.alpha_constraint),
                "shared_axes": self.shared_axes}


class ThresholdedReLU(Layer):
    """x for x > theta, 0 otherwise."""

    def __init__(self, theta: float = 1.0, **kwargs: Any):
        super().__init__(**kwargs)
        if theta is None:
            raise ValueError("Theta of a Thresholded ReLU layer cannot be None, expecting a "
                             f"float. Received: {theta}")
        if theta < 0:
            raise ValueError("The theta value of a Thresholded ReLU layer should be >=0. "
                             f"Received: {theta}")
        self.supports_masking = True
        self.theta = backend.cast_to_floatx(theta)

    def call(self, inputs: Any) -> Any:
        dtype = inputs.dtype
        theta = backend.cast(self.theta, dtype)
        return inputs * backend.cast(backend.greater(inputs, theta), dtype)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "theta": float(self.theta)}
