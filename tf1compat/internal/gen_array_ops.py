"""`tensorflow.python.ops.gen_array_ops`: array ops under their generated names, each one
op without the public wrapper's extras (TensorLayer 1.x's `alphas` builds its Fill and
Reshape from here). `shape` is always a Shape op, never the Const that `tf.shape` folds a
fully known shape into."""

from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op1
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.array_ops import reshape
from tf1compat.ops.creation_ops import fill

__all__ = ["fill", "reshape", "shape"]


def shape(input: Any, out_type: Any = D.int32, name: Optional[str] = None) -> Tensor:
    """One `Shape` op: the shape of `input` at run time."""
    return apply_op1("Shape", [input], {"out_type": D.as_dtype(out_type)}, name=name)
