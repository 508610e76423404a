"""`tensorflow.python.keras.utils.tf_utils`: Keras's tensor helpers that libraries import
(TensorFlow Probability registers its distributions as symbolic tensor types here)."""

from typing import Any, Set

from tf1compat.eager.context import executing_eagerly
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.keras.layers.core import constant_value, smart_cond
from tf1compat.variables.variables import Variable

__all__ = ["smart_cond", "constant_value", "is_symbolic_tensor",
           "register_symbolic_tensor_type"]

# classes registered with register_symbolic_tensor_type (each also has a tensor
# conversion function registered by its owner)
_user_convertible_tensor_types: Set[type] = set()


def register_symbolic_tensor_type(cls: type) -> None:
    """Lets instances of `cls` (convertible to tensors with
    `tf.register_tensor_conversion_function`) count as symbolic tensors."""
    _user_convertible_tensor_types.add(cls)


def is_symbolic_tensor(tensor: Any) -> bool:
    """Whether `tensor` is a graph tensor (a variable counts as one outside eager mode;
    registered types as what they convert to)."""
    if isinstance(tensor, tuple(_user_convertible_tensor_types)):
        tensor = convert_to_tensor(tensor)
    if isinstance(tensor, Variable):
        return bool(getattr(tensor, "_keras_history", False)) or not executing_eagerly()
    return isinstance(tensor, Tensor) and not tensor._is_eager_tensor
