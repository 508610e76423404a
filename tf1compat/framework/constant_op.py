"""The `Const` op and `tf.constant`."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as _dtypes
from tf1compat.framework.graph import apply_op1
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import (
    register_tensor_conversion_function, to_numpy_value)
from tf1compat.framework.tensor_shape import Dimension, TensorShape

__all__ = ["constant", "value_to_torch"]


def value_to_torch(value: np.ndarray, dtype: _dtypes.DType, device: torch.device) -> Any:
    """A constant's run-time value: a torch tensor on `device` (numpy bytes for strings)."""
    if dtype.base_dtype == _dtypes.string:
        return value if value.ndim else value[()]
    # (np.ascontiguousarray would turn a 0-d array into shape (1,))
    t = torch.from_numpy(value if value.flags.c_contiguous else value.copy(order="C"))
    target = dtype.torch_dtype
    if t.dtype != target:
        t = t.to(target)
    return t.to(device) if device.type != "cpu" else t


def _const_kernel(node: Any, kctx: Any) -> Any:
    return value_to_torch(node.attrs["value"], node.attrs["dtype"], kctx.device)


def _const_static_value(t: Tensor) -> np.ndarray:
    return t.op.attrs["value"]


declare("Const", outputs=["output: dtype"],
        attrs={"value": None, "dtype": Type()},
        shape=lambda ctx: [TensorShape(ctx.attrs["value"].shape)],
        kernel=_const_kernel, grad="none", constant=True,
        doc="A constant tensor; `value` holds its numpy value.", static_value=_const_static_value)

# Python ints given for these types are stored as int64 and cast by the kernel.
_TF_TO_NUMPY_SHAPE_ERR = "Too many elements provided. Takes at most {}, but got {}."


def constant(value: Any, dtype: Any = None, shape: Any = None, name: Optional[str] = "Const",
             verify_shape: bool = False) -> Tensor:
    """`tf.constant` (TF1 semantics: a smaller value is broadcast or padded to `shape`)."""
    if dtype is not None:
        dtype = _dtypes.as_dtype(dtype)
    if isinstance(value, Tensor):
        if value._is_eager_tensor:
            # Eager: the tensor itself (TF refuses a different dtype rather than casting).
            if dtype is not None and value.dtype != dtype:
                raise TypeError(f"Expected tensor {value} with dtype {dtype!r}, but got "
                                f"dtype {value.dtype!r}.")
            if shape is None:
                return value
            value = value.numpy()
        else:
            raise TypeError(f"tf.constant does not take a Tensor ({value.name}); "
                            "use tf.identity or tf.cast.")
    arr = to_numpy_value(value, dtype)
    if isinstance(value, np.ndarray) and (np.shares_memory(arr, value) or
                                          not arr.flags.writeable):
        # TF copies the value into the graph: later writes to the caller's array must not
        # reach the constant (and torch cannot share a read-only buffer, e.g. np.frombuffer's).
        arr = arr.copy()
    if dtype is None:
        dtype = _dtypes.as_dtype(arr.dtype) if arr.dtype != object else _dtypes.string
    if shape is not None:
        arr = _fit_to_shape(arr, shape, verify_shape)
    return apply_op1("Const", [], {"value": arr, "dtype": dtype.base_dtype}, name or "Const")


def constant_v2(value: Any, dtype: Any = None, shape: Any = None,
                name: Optional[str] = "Const") -> Tensor:
    """TF 2's `tf.constant` (`tf.compat.v2.constant`): with a `shape`, the value must have
    as many elements (it is reshaped) or a single one (it is broadcast); TF 1's padding of
    a shorter value is a TypeError."""
    if shape is not None and not isinstance(value, Tensor):
        arr = np.asarray(value)
        n = int(np.prod(_dims_of(shape))) if _dims_of(shape) else 1
        if arr.size not in (1, n):
            raise TypeError(f"Expected Tensor's shape: {tuple(_dims_of(shape))}, got "
                            f"{arr.shape}.")
    return constant(value, dtype, shape, name)


def _dims_of(shape: Any) -> list:
    return [int(d) for d in (shape.as_list() if isinstance(shape, TensorShape) else
                             np.atleast_1d(np.asarray(shape, dtype=np.int64)).tolist()
                             if not isinstance(shape, (list, tuple)) else shape)]


def _fit_to_shape(arr: np.ndarray, shape: Any, verify_shape: bool) -> np.ndarray:
    dims = _dims_of(shape)
    n = int(np.prod(dims)) if dims else 1
    if verify_shape and list(arr.shape) != dims:
        raise TypeError(f"Expected Tensor's shape: {tuple(dims)}, got {arr.shape}.")
    if arr.size == n:
        return arr.reshape(dims)
    if arr.size == 1:
        return np.full(dims, arr.reshape(()), dtype=arr.dtype) if arr.dtype != object else \
            _object_full(dims, arr.reshape(-1)[0])
    if arr.size > n:
        raise ValueError(_TF_TO_NUMPY_SHAPE_ERR.format(n, arr.size))
    if arr.size == 0:
        raise ValueError(f"Cannot fill a tensor of shape {tuple(dims)} from an empty value")
    flat = arr.reshape(-1)
    padded = np.concatenate([flat, np.repeat(flat[-1:], n - flat.size)])
    return padded.reshape(dims)


def _object_full(dims: list, item: Any) -> np.ndarray:
    out = np.empty(dims, dtype=object)
    out.fill(item)
    return out


def _tensor_shape_tensor_conversion_function(value: TensorShape, dtype: Any = None,
                                             name: Optional[str] = None,
                                             as_ref: bool = False) -> Tensor:
    """A fully known TensorShape as an int32 Const (int64 for a dim of 2**31 or more),
    `shape_as_tensor` (TF's name: TF-internal callers import it)."""
    if not value.is_fully_defined():
        raise ValueError(f"Cannot convert a partially known TensorShape {value} to a Tensor.")
    dims = value.as_list()
    if dtype is None:
        dtype = _dtypes.int64 if any(d >= 2**31 for d in dims) else _dtypes.int32
    elif dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"Cannot convert TensorShape {value} to dtype {dtype}. "
                        "Allowed dtypes are tf.int32 and tf.int64.")
    return constant(dims, dtype=dtype, name=name or "shape_as_tensor")


def _dimension_to_tensor(value: Dimension, dtype: Any = None, name: Optional[str] = None,
                         as_ref: bool = False) -> Tensor:
    if value.value is None:
        raise ValueError("Cannot convert an unknown Dimension to a Tensor: ?")
    if dtype is not None and dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"Cannot convert Dimension {value} to dtype {dtype}")
    return constant(value.value, dtype=dtype or _dtypes.int32, name=name or "Const")


register_tensor_conversion_function(TensorShape, _tensor_shape_tensor_conversion_function,
                                    100)
register_tensor_conversion_function(Dimension, _dimension_to_tensor, 100)
