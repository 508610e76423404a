"""Tensor values as checkpoints store them, and as the readers hand them out.

Both checkpoint formats hold a tensor as raw little-endian element bytes ("storage"):
`storage_dtype` gives the numpy dtype of those bytes for each TF dtype (bfloat16 as its
uint16 bit pattern, quantized types as their underlying integers). `to_numpy` turns
storage into what TF's CheckpointReader returns (ml_dtypes.bfloat16 for bfloat16, plain
integer arrays for quantized types, numpy object arrays of bytes for strings);
`to_torch` into a torch tensor for restoring variables. `from_value` goes the other way
for writers: a torch tensor, numpy array or Python value -> (TF dtype, storage array).
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes
from tf1compat.framework.tensor_conversion import to_numpy_value
from tf1compat.serialization.messages import DATA_TYPE_NAMES

__all__ = ["storage_dtype", "to_numpy", "to_torch", "from_value", "as_reader_result",
           "contiguous", "DT_NAMES"]

# TF's DataType enum names (types.proto), used in debug strings.
DT_NAMES = DATA_TYPE_NAMES

_STORAGE = {1: "<f4", 2: "<f8", 3: "<i4", 4: "u1", 5: "<i2", 6: "i1", 8: "<c8", 9: "<i8",
            10: "?", 11: "i1", 12: "u1", 13: "<i4", 14: "<u2", 15: "<i2", 16: "<u2",
            17: "<u2", 18: "<c16", 19: "<f2", 22: "<u4", 23: "<u8"}


def storage_dtype(dtype: dtypes.DType) -> np.dtype:
    """numpy dtype of the raw element bytes of a fixed-size TF dtype (little-endian)."""
    enum = dtype.base_dtype.as_datatype_enum
    if enum not in _STORAGE:
        raise NotImplementedError(f"checkpoint tensors of dtype {dtype.base_dtype.name} are "
                                  f"not supported")
    return np.dtype(_STORAGE[enum])


def to_numpy(dtype: dtypes.DType, storage: np.ndarray, key: str = "") -> np.ndarray:
    """The array TF's CheckpointReader.get_tensor returns for this storage."""
    enum = dtype.base_dtype.as_datatype_enum
    if enum == 7:
        return storage
    if enum == 14:
        try:
            np_type = dtype.as_numpy_dtype
        except TypeError:
            raise TypeError(f"tensor {key!r} is bfloat16, which numpy can only hold with the "
                            f"ml_dtypes package (TF returns ml_dtypes.bfloat16 arrays); install "
                            f"ml_dtypes, or read it as a torch tensor") from None
        return storage.view(np_type)
    return storage  # quantized types come back as their plain integer arrays, as in TF


def to_torch(dtype: dtypes.DType, storage: np.ndarray) -> Any:
    """A torch tensor with the storage's values (strings stay numpy object arrays)."""
    enum = dtype.base_dtype.as_datatype_enum
    if enum == 7:
        return storage
    if enum == 14:
        return torch.from_numpy(storage.view(np.int16)).view(torch.bfloat16)
    target = dtype.torch_dtype
    if target is None:
        raise NotImplementedError(f"dtype {dtype.name} has no torch equivalent")
    if storage.dtype.itemsize != torch.empty((), dtype=target).element_size():
        raise NotImplementedError(f"dtype {dtype.name} cannot be held by torch.{target}")
    src = storage
    if not src.flags.writeable:
        src = src.copy()
    t = torch.from_numpy(src)
    return t if t.dtype == target else t.view(target)


def contiguous(array: np.ndarray) -> np.ndarray:
    """`array` in C order, keeping its shape (np.ascontiguousarray makes 0-d arrays 1-d)."""
    return array if array.flags.c_contiguous else array.copy(order="C")


def as_reader_result(array: np.ndarray) -> Any:
    """TF's get_tensor returns numpy scalars (bytes for strings) for rank-0 tensors."""
    if array.ndim == 0:
        return array[()]
    return array


def _string_array(value: Any) -> np.ndarray:
    arr = np.array(value, dtype=object)
    flat = arr.reshape(-1)
    for i, v in enumerate(flat):
        if isinstance(v, str):
            flat[i] = v.encode("utf-8")
        elif isinstance(v, (bytes, bytearray, np.bytes_)):
            flat[i] = bytes(v)
        else:
            raise TypeError(f"string tensor element {v!r} is neither bytes nor str")
    return arr


def from_value(value: Any, dtype: Optional[Any] = None) -> Tuple[dtypes.DType, np.ndarray]:
    """(TF dtype, storage array) of a torch tensor, numpy array or Python value.

    `dtype` overrides the inferred TF dtype (e.g. qint8 held in an int8 tensor); the
    value's bits must fit it (same element size). Strings give an object array of bytes.
    """
    want = None if dtype is None else dtypes.as_dtype(dtype).base_dtype
    python_value = not isinstance(value, (torch.Tensor, np.ndarray, np.generic))
    if python_value and want == dtypes.bfloat16:
        value = torch.tensor(value, dtype=torch.bfloat16)  # rounds like TF's conversion
    elif python_value and want is not None and want.is_quantized:
        value = np.asarray(value, dtype=storage_dtype(want))
    if isinstance(value, torch.Tensor):
        t = value.detach()
        if t.device.type != "cpu":
            t = t.cpu()
        t = t.contiguous()
        if t.dtype == torch.bfloat16:
            got, arr = dtypes.bfloat16, t.view(torch.int16).numpy().view(np.uint16)
        else:
            got, arr = dtypes.as_dtype(t.dtype), t.numpy()
    elif want is not None and want == dtypes.string:
        got, arr = dtypes.string, _string_array(value)
    else:
        if isinstance(value, (np.ndarray, np.generic)):
            arr = np.asarray(value)
        else:  # Python values get TF's dtypes (int32 / float32 unless they do not fit)
            arr = to_numpy_value(value, want if want != dtypes.string else None)
        if arr.dtype.kind in "OSU":
            got, arr = dtypes.string, _string_array(value)
        elif arr.dtype.name == "bfloat16":
            got, arr = dtypes.bfloat16, arr.view(np.uint16)
        else:
            got = dtypes.as_dtype(arr.dtype)
    if want is not None and want != got:
        if got == dtypes.string or want == dtypes.string:
            raise TypeError(f"cannot store a {got.name} value as {want.name}")
        if storage_dtype(want).itemsize != arr.dtype.itemsize:
            raise TypeError(f"cannot store a {got.name} value as {want.name}: element sizes "
                            f"differ")
        got = want
    if got == dtypes.string:
        return got, arr
    store = storage_dtype(got)
    arr = contiguous(arr)
    if arr.dtype != store:
        if np.can_cast(arr.dtype, store, casting="equiv"):
            arr = arr.astype(store)  # same values, other byte order
        else:
            arr = arr.view(store)  # same bits: quantized types, explicit dtype overrides
    return got, arr
