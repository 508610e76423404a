"""`keras.legacy.layers`: the Keras 1 layers standalone Keras 2.2.4 still shipped (and
exported from `keras.layers`), deprecated there with a warning: MaxoutDense, Highway,
AtrousConvolution1D/2D. Keras 2.2.4 had already removed `Merge`/`merge` (Keras 2.2.0:
use `keras.layers.Add`, `Concatenate`, ... or `add`, `concatenate`); asking for them is
an ImportError/AttributeError as it was there. Its Keras 1 RNN base classes `Recurrent`
and `ConvRecurrent2D` (for custom `step`-function RNNs) are not built: NotImplementedError.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, Optional

from tf1compat.keras import activations, backend, constraints, initializers, regularizers
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.legacy import keras1_classes

__all__ = ["MaxoutDense", "Highway", "AtrousConvolution1D", "AtrousConvolution2D"]

_NOT_BUILT = ("Recurrent", "ConvRecurrent2D")


def __getattr__(name: str) -> Any:
    if name in _NOT_BUILT:
        raise NotImplementedError(
            f"keras.legacy.layers.{name} (Keras 1's RNN base class for custom step "
            "functions) is not supported by tf1compat: subclass keras.layers.RNN with a "
            "cell (Keras 2's API) instead.")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Keras1Dense(Layer):
    """The arguments and config MaxoutDense and Highway share (Keras 1 names)."""

    def __init__(self, init: Any, weights: Any, W_regularizer: Any, b_regularizer: Any,
                 activity_regularizer: Any, W_constraint: Any, b_constraint: Any,
                 bias: bool, input_dim: Optional[int], **kwargs: Any):
        self.init = initializers.get(init)
        self.W_regularizer = regularizers.get(W_regularizer)
        self.b_regularizer = regularizers.get(b_regularizer)
        self.W_constraint = constraints.get(W_constraint)
        self.b_constraint = constraints.get(b_constraint)
        self.bias = bias
        self.initial_weights = weights
        self.input_dim = input_dim
        if input_dim:
            kwargs["input_shape"] = (input_dim,)
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer),
                         **kwargs)
        self.input_spec = InputSpec(ndim=2)

    def _set_initial_weights(self) -> None:
        if self.initial_weights is not None:
            self.set_weights(self.initial_weights)
            del self.initial_weights

    def get_config(self) -> Dict[str, Any]:
        config = {"init": initializers.serialize(self.init),
                  "W_regularizer": regularizers.serialize(self.W_regularizer),
                  "b_regularizer": regularizers.serialize(self.b_regularizer),
                  "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                  "W_constraint": constraints.serialize(self.W_constraint),
                  "b_constraint": constraints.serialize(self.b_constraint),
                  "bias": self.bias, "input_dim": self.input_dim}
        return {**super().get_config(), **config}


class MaxoutDense(_Keras1Dense):
    """Element-wise maximum of `nb_feature` affine maps of a 2D input (a linear layer:
    weights `W [nb_feature, input_dim, output_dim]`, `b [nb_feature, output_dim]`)."""

    def __init__(self, output_dim: int, nb_feature: int = 4, init: Any = "glorot_uniform",
                 weights: Any = None, W_regularizer: Any = None, b_regularizer: Any = None,
                 activity_regularizer: Any = None, W_constraint: Any = None,
                 b_constraint: Any = None, bias: bool = True, input_dim: Optional[int] = None,
                 **kwargs: Any):
        warnings.warn("The `MaxoutDense` layer is deprecated and will be removed after "
                      "06/2017.", stacklevel=2)
        self.output_dim = output_dim
        self.nb_feature = nb_feature
        super().__init__(init, weights, W_regularizer, b_regularizer, activity_regularizer,
                         W_constraint, b_constraint, bias, input_dim, **kwargs)

    def build(self, input_shape: Any) -> None:
        input_dim = int(input_shape[1])
        self.input_spec = InputSpec(dtype=backend.floatx(), shape=(None, input_dim))
        self.W = self.add_weight(name="W", shape=(self.nb_feature, input_dim,
                                                  self.output_dim),
                                 initializer=self.init, regularizer=self.W_regularizer,
                                 constraint=self.W_constraint)
        self.b = (self.add_weight(name="b", shape=(self.nb_feature, self.output_dim),
                                  initializer="zeros", regularizer=self.b_regularizer,
                                  constraint=self.b_constraint)
                  if self.bias else None)
        self._set_initial_weights()
        self.built = True

    def compute_output_shape(self, input_shape: Any) -> Any:
        return (input_shape[0], self.output_dim)

    def call(self, inputs: Any) -> Any:
        output = backend.dot(inputs, self.W)     # [batch, nb_feature, output_dim]
        if self.bias:
            output += self.b
        return backend.max(output, axis=1)

    def get_config(self) -> Dict[str, Any]:
        return {**super().get_config(), "output_dim": self.output_dim,
                "nb_feature": self.nb_feature}


class Highway(_Keras1Dense):
    """Highway layer: `t * activation(x W + b) + (1 - t) * x`, with the transform gate
    `t = sigmoid(x W_carry + b_carry)` (`b_carry` starts at one)."""

    def __init__(self, init: Any = "glorot_uniform", activation: Any = None,
                 weights: Any = None, W_regularizer: Any = None, b_regularizer: Any = None,
                 activity_regularizer: Any = None, W_constraint: Any = None,
                 b_constraint: Any = None, bias: bool = True, input_dim: Optional[int] = None,
                 **kwargs: Any):
        warnings.warn("The `Highway` layer is deprecated and will be removed after "
                      "06/2017.", stacklevel=2)
        if "transform_bias" in kwargs:
            kwargs.pop("transform_bias")
            warnings.warn("`transform_bias` argument is deprecated and has been removed.",
                          stacklevel=2)
        self.activation = activations.get(activation)
        super().__init__(init, weights, W_regularizer, b_regularizer, activity_regularizer,
                         W_constraint, b_constraint, bias, input_dim, **kwargs)

    def build(self, input_shape: Any) -> None:
        input_dim = int(input_shape[1])
        self.input_spec = InputSpec(dtype=backend.floatx(), shape=(None, input_dim))
        self.W = self.add_weight(name="W", shape=(input_dim, input_dim),
                                 initializer=self.init, regularizer=self.W_regularizer,
                                 constraint=self.W_constraint)
        self.W_carry = self.add_weight(name="W_carry", shape=(input_dim, input_dim),
                                       initializer=self.init)
        if self.bias:
            self.b = self.add_weight(name="b", shape=(input_dim,), initializer="zeros",
                                     regularizer=self.b_regularizer,
                                     constraint=self.b_constraint)
            self.b_carry = self.add_weight(name="b_carry", shape=(input_dim,),
                                           initializer="ones")
        else:
            self.b_carry = None
        self._set_initial_weights()
        self.built = True

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def call(self, inputs: Any) -> Any:
        gate = backend.dot(inputs, self.W_carry)
        if self.bias:
            gate += self.b_carry
        transform = activations.sigmoid(gate)
        output = backend.dot(inputs, self.W)
        if self.bias:
            output += self.b
        return self.activation(output) * transform + (1 - transform) * inputs

    def get_config(self) -> Dict[str, Any]:
        return {**super().get_config(),
                "activation": activations.serialize(self.activation)}


def _atrous(conv_name: str, *args: Any, **kwargs: Any) -> Layer:
    kwargs["dilation_rate"] = kwargs.pop("atrous_rate", 1)
    rank = conv_name[-2]
    warnings.warn(f"The `AtrousConvolution{rank}D` layer  has been deprecated. Use instead "
                  f"the `{conv_name}` layer with the `dilation_rate` argument.",
                  stacklevel=3)
    return keras1_classes.CLASSES[conv_name](*args, **kwargs)


def AtrousConvolution1D(*args: Any, **kwargs: Any) -> Layer:   # noqa: N802 (Keras's name)
    """Keras 1's dilated Conv1D: a `Conv1D` with `dilation_rate=atrous_rate`."""
    return _atrous("Conv1D", *args, **kwargs)


def AtrousConvolution2D(*args: Any, **kwargs: Any) -> Layer:   # noqa: N802 (Keras's name)
    """Keras 1's dilated Conv2D: a `Conv2D` with `dilation_rate=atrous_rate`."""
    return _atrous("Conv2D", *args, **kwargs)
