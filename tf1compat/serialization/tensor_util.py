"""`tf.make_tensor_proto` and `tf.make_ndarray`: Python and numpy values <-> TensorProto.

The public face of TF's tensor_util over the conversions of `tensor_proto.py`: values get
TF's dtype inference (`framework.tensor_conversion.to_numpy_value`: Python floats become
float32, Python ints int32 where they fit), then TF's shape rules (`shape` may hold more
elements than the values, the last one repeating; `verify_shape` demands the exact shape;
`allow_broadcast` accepts one value or exactly as many values as the shape holds).
"""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_conversion import to_numpy_value
from tf1compat.serialization.messages import TensorProto
from tf1compat.serialization.tensor_proto import proto_to_ndarray, tensor_to_proto

__all__ = ["make_tensor_proto", "make_ndarray"]


def _dims(shape: Any) -> List[int]:
    return [int(d) for d in shape]


def make_tensor_proto(values: Any, dtype: Any = None, shape: Any = None,
                      verify_shape: bool = False, allow_broadcast: bool = False) -> TensorProto:
    """A TensorProto holding `values` (a TensorProto is returned as it is).

    Raises TypeError when `dtype` does not fit the values or (with `verify_shape` or
    `allow_broadcast`) the shape differs, ValueError for None values or more values than
    `shape` holds."""
    if allow_broadcast and verify_shape:
        raise ValueError("allow_broadcast and verify_shape are not both allowed.")
    if isinstance(values, TensorProto):
        return values
    dtype = D.as_dtype(dtype).base_dtype if dtype else None
    if not isinstance(values, (np.ndarray, np.generic)) and values is None:
        raise ValueError("None values not supported.")
    if (shape is not None and not isinstance(values, (np.ndarray, np.generic))
            and int(np.prod(_dims(shape), dtype=np.int64)) == 0):
        # an empty shape takes any Python value without looking at it
        arr = np.empty(_dims(shape), dtype=(dtype or D.float32).as_numpy_dtype
                       if (dtype or D.float32) != D.string else object)
    else:
        arr = to_numpy_value(values, dtype)
    if dtype is None:
        dtype = D.string if arr.dtype.kind in "OSU" else D.as_dtype(arr.dtype)
    if shape is None:
        return tensor_to_proto(arr, dtype)
    dims = _dims(shape)
    count = int(np.prod(dims, dtype=np.int64))
    if allow_broadcast:
        if arr.shape not in ((), (1,)) and arr.size != count:
            raise TypeError(f"Expected Tensor's shape: {tuple(dims)}, but got {arr.shape}.")
    else:
        if verify_shape and arr.shape != tuple(dims):
            raise TypeError(f"Expected Tensor's shape: {tuple(dims)}, but got {arr.shape}.")
        if arr.size > count:
            raise ValueError(f"Too many elements provided. Takes at most {count:d}, but got "
                             f"{arr.size:d}.")
    return tensor_to_proto(arr, dtype, shape=dims)


def make_ndarray(tensor: TensorProto) -> np.ndarray:
    """The numpy value of a TensorProto (strings as bytes objects; a value listed fewer
    times than the shape holds repeats its last element, as TF reads it)."""
    _, value = proto_to_ndarray(tensor)
    return np.array(value)    # a writable copy, never the compact broadcast view
