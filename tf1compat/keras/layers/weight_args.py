"""The kernel and bias arguments most Keras layers share (initializer, regularizer and
constraint of each, plus the activity regularizer): storing them, creating the weights
and writing them into `get_config` in tf-keras's order."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.keras import constraints, initializers, regularizers

__all__ = ["set_kernel_bias_args", "kernel_bias_config", "add_kernel", "add_bias"]


def set_kernel_bias_args(layer: Any, kernel_initializer: Any, bias_initializer: Any,
                         kernel_regularizer: Any, bias_regularizer: Any,
                         kernel_constraint: Any, bias_constraint: Any) -> None:
    """Resolves and stores the six kernel/bias arguments on `layer`."""
    layer.kernel_initializer = initializers.get(kernel_initializer)
    layer.bias_initializer = initializers.get(bias_initializer)
    layer.kernel_regularizer = regularizers.get(kernel_regularizer)
    layer.bias_regularizer = regularizers.get(bias_regularizer)
    layer.kernel_constraint = constraints.get(kernel_constraint)
    layer.bias_constraint = constraints.get(bias_constraint)


def kernel_bias_config(layer: Any) -> dict:
    """The serialized kernel/bias/activity arguments, in tf-keras's config order."""
    return {"kernel_initializer": initializers.serialize(layer.kernel_initializer),
            "bias_initializer": initializers.serialize(layer.bias_initializer),
            "kernel_regularizer": regularizers.serialize(layer.kernel_regularizer),
            "bias_regularizer": regularizers.serialize(layer.bias_regularizer),
            "activity_regularizer": regularizers.serialize(layer.activity_regularizer),
            "kernel_constraint": constraints.serialize(layer.kernel_constraint),
            "bias_constraint": constraints.serialize(layer.bias_constraint)}


def add_kernel(layer: Any, shape: Any, name: str = "kernel") -> Any:
    """The layer's trainable kernel weight of `shape`."""
    return layer.add_weight(name=name, shape=shape, initializer=layer.kernel_initializer,
                            regularizer=layer.kernel_regularizer,
                            constraint=layer.kernel_constraint, trainable=True,
                            dtype=layer.dtype)


def add_bias(layer: Any, shape: Any) -> Optional[Any]:
    """The layer's trainable bias weight of `shape`, or None without `use_bias`."""
    if not layer.use_bias:
        return None
    return layer.add_weight(name="bias", shape=shape, initializer=layer.bias_initializer,
                            regularizer=layer.bias_regularizer,
                            constraint=layer.bias_constraint, trainable=True,
                            dtype=layer.dtype)
