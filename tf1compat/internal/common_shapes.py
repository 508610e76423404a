"""`tensorflow.python.framework.common_shapes`: `broadcast_shape`, the static broadcast of
two TensorShapes (TensorFlow Probability's batch shapes)."""

from typing import Any

from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._shape_rules import broadcast_shapes

__all__ = ["broadcast_shape"]


def broadcast_shape(shape_x: Any, shape_y: Any) -> TensorShape:
    """The broadcast of TensorShapes `shape_x` and `shape_y` (unknown when either rank
    is); ValueError when they cannot broadcast."""
    if shape_x.ndims is None or shape_y.ndims is None:
        return unknown_shape()
    try:
        return broadcast_shapes(shape_x, shape_y)
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting: {shape_x} and {shape_y}"
                         ) from None
