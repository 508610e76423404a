"""`tf.keras.activations`: activation functions by name (`get('relu')`), callable on
tensors."""

from __future__ import annotations

import types
from typing import Any, Callable

from tf1compat.keras import backend
from tf1compat.ops import math_ops, nn_ops
from tf1compat.keras.utils.serialization import get_registered_object, serialize_keras_object

__all__ = ["softmax", "elu", "selu", "softplus", "softsign", "swish", "relu", "tanh",
           "sigmoid", "exponential", "hard_sigmoid", "linear", "mish", "leaky_relu",
           "log_softmax", "relu6", "silu", "gelu", "get", "serialize", "deserialize"]


def softmax(x: Any, axis: Any = -1) -> Any:
    return backend.softmax(x, axis)


def elu(x: Any, alpha: float = 1.0) -> Any:
    return backend.elu(x, alpha)


def selu(x: Any) -> Any:
    return nn_ops.selu(x)


def softplus(x: Any) -> Any:
    return nn_ops.softplus(x)


def softsign(x: Any) -> Any:
    return nn_ops.softsign(x)


def swish(x: Any) -> Any:
    return nn_ops.swish(x)


def relu(x: Any, alpha: float = 0.0, max_value: Any = None, threshold: float = 0.0) -> Any:
    return backend.relu(x, alpha=alpha, max_value=max_value, threshold=threshold)


def tanh(x: Any) -> Any:
    return math_ops.tanh(x)


def sigmoid(x: Any) -> Any:
    return backend.sigmoid(x)


def exponential(x: Any) -> Any:
    return math_ops.exp(x)


def hard_sigmoid(x: Any) -> Any:
    return backend.hard_sigmoid(x)


def linear(x: Any) -> Any:
    return x


def mish(x: Any) -> Any:
    return x * math_ops.tanh(nn_ops.softplus(x))


def gelu(x: Any, approximate: bool = False) -> Any:
    raise NotImplementedError("tf.keras.activations.gelu is not part of TF1's Keras and is not "
                              "provided by tf1compat")


leaky_relu = nn_ops.leaky_relu
log_softmax = nn_ops.log_softmax
relu6 = nn_ops.relu6
silu = nn_ops.swish

_BY_NAME = {name: globals()[name] for name in
            ["softmax", "elu", "selu", "softplus", "softsign", "swish", "relu", "tanh",
             "sigmoid", "exponential", "hard_sigmoid", "linear", "mish", "leaky_relu",
             "log_softmax", "relu6", "silu"]}


def serialize(activation: Callable) -> Any:
    """The activation's name; as tf-keras under TF1 behaviour, a user's function is
    saved by its `__name__` (loading it takes `custom_objects`) and an activation object
    by its `get_config()`."""
    name = getattr(activation, "__name__", None)
    if name in _BY_NAME:
        return name
    if isinstance(activation, (types.FunctionType, types.BuiltinFunctionType)) or \
            hasattr(activation, "get_config"):
        return serialize_keras_object(activation)     # (a registered name, else __name__)
    raise ValueError(f"Cannot serialize {activation} because it doesn't implement "
                     "`get_config()`.")


def deserialize(name: Any, custom_objects: Any = None) -> Callable:
    if isinstance(name, dict):
        name = name.get("config", name.get("class_name"))
    fn = get_registered_object(name, custom_objects, _BY_NAME)
    if fn is None:
        raise ValueError(f"Unknown activation function '{name}' cannot be deserialized.")
    return fn


def get(identifier: Any) -> Callable:
    """An activation from None (linear), a name, or a callable."""
    if identifier is None:
        return linear
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret activation function identifier: {identifier}")
