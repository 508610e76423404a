"""`tf.convert_to_tensor` and `tf.register_tensor_conversion_function`.

Python and numpy values become `Const` ops with TF's dtype inference (Python int ->
int32, or int64 when it does not fit; float -> float32; numpy keeps its dtype; text ->
string). Other types (Variables, lists of tensors, TensorShape, IndexedSlices, ...)
register conversion functions, as in TF.
"""

from __future__ import annotations

import numbers
from typing import Any, Callable, List, Optional, Tuple

import numpy as np

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as _dtypes
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import Dimension

__all__ = ["convert_to_tensor", "register_tensor_conversion_function", "to_numpy_value",
           "convert_n_to_tensor", "convert_to_tensor_or_indexed_slices"]

# (base type, function(value, dtype, name, as_ref) -> Tensor, priority), sorted by priority.
_CONVERSION_FUNCS: List[Tuple[type, Callable[..., Any], int]] = []


def register_tensor_conversion_function(base_type: Any, conversion_func: Callable[..., Any],
                                        priority: int = 100) -> None:
    """Registers `conversion_func(value, dtype=None, name=None, as_ref=False)` for a type."""
    if not callable(conversion_func):
        raise TypeError("conversion_func must be callable.")
    _CONVERSION_FUNCS.append((base_type, conversion_func, priority))
    _CONVERSION_FUNCS.sort(key=lambda item: item[2])


def convert_to_tensor(value: Any, dtype: Any = None, name: Optional[str] = None,
                      as_ref: bool = False, preferred_dtype: Any = None,
                      dtype_hint: Any = None) -> Tensor:
    """Converts `value` to a Tensor of `dtype` (or its natural dtype), as TF does."""
    if dtype is not None:
        dtype = _dtypes.as_dtype(dtype)
    preferred = dtype_hint if dtype_hint is not None else preferred_dtype
    if isinstance(value, Tensor):
        if value._is_eager_tensor and not _context._state["eager"]:
            # An eager value used while building a graph: a traced function captures
            # it, any other graph refuses it (TF's message).
            from tf1compat.framework.graph import get_default_graph
            value = get_default_graph()._capture_eager_tensor(value, name)
        if dtype is not None and not dtype.is_compatible_with(value.dtype):
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with "
                             f"dtype {value.dtype.name}: {value!r}")
        return value
    if preferred is not None and dtype is None:
        try:
            return _convert(value, _dtypes.as_dtype(preferred), name, as_ref)
        except (TypeError, ValueError):
            pass
    return _convert(value, dtype, name, as_ref)


def _convert(value: Any, dtype: Optional[_dtypes.DType], name: Optional[str],
             as_ref: bool) -> Tensor:
    for base_type, func, _ in _CONVERSION_FUNCS:
        if isinstance(value, base_type):
            result = func(value, dtype=dtype, name=name, as_ref=as_ref)
            if result is NotImplemented:
                continue
            if not isinstance(result, Tensor) and not _is_eager_tensor(result):
                raise RuntimeError(f"Conversion function {func!r} for type {base_type} "
                                   f"returned non-Tensor: {result!r}")
            if dtype is not None and not dtype.is_compatible_with(result.dtype):
                raise RuntimeError(f"Conversion function {func!r} for type {base_type} returned "
                                   f"incompatible dtype: requested = {dtype.name}, "
                                   f"actual = {result.dtype.name}")
            return result
    from tf1compat.framework.constant_op import constant
    return constant(value, dtype=dtype, name=name or "Const")


def _is_eager_tensor(value: Any) -> bool:
    return getattr(value, "_is_eager_tensor", False)


def convert_n_to_tensor(values: Any, dtype: Any = None, name: Optional[str] = None,
                        preferred_dtype: Any = None) -> List[Tensor]:
    return [convert_to_tensor(v, dtype=dtype, preferred_dtype=preferred_dtype,
                              name=None if name is None else f"{name}_{i}")
            for i, v in enumerate(values)]


def convert_to_tensor_or_indexed_slices(value: Any, dtype: Any = None,
                                        name: Optional[str] = None) -> Any:
    if hasattr(value, "indices") and hasattr(value, "values") and hasattr(value, "dense_shape"):
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


# -- Python/numpy value -> numpy array with TF's dtype rules -------------------------------

def _convert_failure(values: Any) -> str:
    """TF's message for Python values with no common dtype."""
    return (f"Failed to convert elements of {values!r} to Tensor. Consider casting elements "
            "to a supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes "
            "for supported TF dtypes.")


def _infer_python_dtype(flat: list, value: Any) -> _dtypes.DType:
    """TF's dtype for the flattened Python scalars `flat` of `value` (named in errors)."""
    if not flat:
        return _dtypes.float32
    kinds = set()
    for v in flat:
        if isinstance(v, (bool, np.bool_)):
            kinds.add("bool")
        elif isinstance(v, (numbers.Integral,)):
            kinds.add("int")
        elif isinstance(v, numbers.Real):
            kinds.add("float")
        elif isinstance(v, numbers.Complex):
            kinds.add("complex")
        elif isinstance(v, (str, bytes)):
            kinds.add("string")
        elif v is None:
            raise ValueError("None values not supported.")
        else:
            raise TypeError(_convert_failure(value))
    if "string" in kinds:
        if len(kinds) > 1:
            raise TypeError(_convert_failure(value))
        return _dtypes.string
    if any(isinstance(v, np.generic) for v in flat):
        return _numpy_scalars_dtype(flat, value)
    if "complex" in kinds:
        return _dtypes.complex128
    if "float" in kinds:
        return _dtypes.float32
    if "int" in kinds:
        ints = [int(v) for v in flat]
        lo, hi = min(ints), max(ints)
        if -2**31 <= lo and hi < 2**31:
            return _dtypes.int32
        if -2**63 <= lo and hi < 2**63:
            return _dtypes.int64
        if lo >= 0 and hi < 2**64:
            return _dtypes.uint64
        raise TypeError(_convert_failure(value))
    return _dtypes.bool


def _numpy_scalars_dtype(flat: list, value: Any) -> _dtypes.DType:
    """TF's make_tensor_proto for a list holding numpy scalars: numpy's own inference
    (`[np.uint8(3)]` is uint8, `[np.int8(1), np.uint8(2)]` int16), then float64 narrowed to
    float32 and int64 to int32 where every value fits, as for plain Python numbers."""
    try:
        inferred = np.array(flat).dtype
    except (TypeError, ValueError, OverflowError):
        raise TypeError(_convert_failure(value)) from None
    if inferred == np.float64:
        return _dtypes.float32
    if inferred == np.int64:
        ints = [int(v) for v in flat]
        return _dtypes.int32 if -2**31 <= min(ints) and max(ints) < 2**31 else _dtypes.int64
    if inferred == np.object_:
        raise TypeError(_convert_failure(value))
    return _dtypes.as_dtype(inferred)


def _flatten(value: Any, out: list) -> None:
    if isinstance(value, (list, tuple)):
        for v in value:
            _flatten(v, out)
    elif isinstance(value, np.ndarray):
        out.extend(value.ravel().tolist())
    else:
        out.append(value)


def _check_compatible(flat: list, dtype: _dtypes.DType) -> None:
    """TF refuses to narrow Python values silently: 1.5 -> int32 is a TypeError."""
    for v in flat:
        if isinstance(v, Tensor):
            continue
        bad = False
        if dtype == _dtypes.string:
            bad = not isinstance(v, (str, bytes, np.str_, np.bytes_))
        elif dtype.is_bool:
            bad = not isinstance(v, (bool, np.bool_))
        elif dtype.is_integer:
            # TF's _check_int also takes static dimensions: [-1, x.shape[1]] as a shape.
            bad = not isinstance(v, (numbers.Integral, Dimension))
        elif dtype.is_quantized:
            bad = not isinstance(v, numbers.Integral)
        elif dtype.is_floating:
            bad = not isinstance(v, numbers.Real)
        elif dtype.is_complex:
            bad = not isinstance(v, numbers.Number)
        if bad:
            raise TypeError(f"Expected {dtype.name}, but got {v} of type '{type(v).__name__}'.")


def _dimensions_as_ints(value: Any) -> Any:
    """`value` with each Dimension replaced by its int (an unknown one is a TypeError)."""
    if isinstance(value, (list, tuple)):
        return [_dimensions_as_ints(v) for v in value]
    if isinstance(value, Dimension):
        if value.value is None:
            raise TypeError(f"Expected int, but got {value!r} of type 'Dimension'.")
        return value.value
    return value


def _to_bytes(v: Any) -> bytes:
    if type(v) is bytes:
        return v
    if isinstance(v, bytes):       # np.bytes_ (a bytes subclass): plain bytes, as TF
        return bytes(v)
    if isinstance(v, str):
        return v.encode("utf-8")
    if isinstance(v, np.bytes_):
        return bytes(v)
    raise TypeError(f"Expected string, but got {v!r} of type '{type(v).__name__}'.")


def to_numpy_value(value: Any, dtype: Optional[_dtypes.DType] = None) -> np.ndarray:
    """A constant's numpy value, with TF's dtype inference and compatibility checks."""
    if not isinstance(value, (list, tuple, str, bytes, np.ndarray, np.generic)) and \
            hasattr(value, "__array__"):
        # Array-likes (a pandas Series or DataFrame column): TF's make_tensor_proto takes
        # `np.array(value)`, so the array's own dtype decides (float64 for a float Series).
        value = np.asarray(value)
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        arr = np.asarray(value)
        if arr.dtype.kind in "OSU":
            arr = _string_array(arr)
            if dtype is not None and dtype != _dtypes.string:
                raise TypeError(f"Expected {dtype.name}, but got {arr!r}.")
            return arr
        if dtype is None:
            return arr
        if dtype == _dtypes.string:
            raise TypeError(f"Expected string, but got {value!r} of type "
                            f"'{type(value).__name__}'.")
        return arr.astype(_numpy_storage(dtype))
    if isinstance(value, (list, tuple)):
        flat: list = []
        _flatten(value, flat)
    else:
        if isinstance(value, range):
            # TF's make_tensor_proto reads dimensions from lists and tuples only; numpy
            # expands a range, and the two shapes disagree.
            raise ValueError(f"Expected values {value} to be a dense tensor with shape [], "
                             f"but got shape [{len(value)}].")
        flat = [value]
    if dtype is None:
        dtype = _infer_python_dtype(flat, value)
    else:
        if any(v is None for v in flat):
            raise ValueError("None values not supported.")
        _check_compatible(flat, dtype)
        if dtype.is_integer and any(isinstance(v, Dimension) for v in flat):
            value = _dimensions_as_ints(value)
    if dtype == _dtypes.string:
        arr = np.array(value, dtype=object)
        return _string_array(arr)
    try:
        arr = np.array(value)
    except ValueError:
        raise
    if arr.dtype == object:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
    np_type = _numpy_storage(dtype)
    if (dtype.is_integer or dtype.is_quantized) and arr.dtype.kind in "iub" and arr.size:
        # Python ints wrap into narrow/unsigned types as TF's proto conversion does.
        arr = arr.astype(np.int64 if arr.dtype.kind != "u" else np.uint64)
    if dtype.base_dtype in _SUB_BYTE_BITS:
        arr = _wrapped(arr, dtype.base_dtype)
    elif dtype.base_dtype == _dtypes.float8_e4m3fn:
        # No infinity: beyond the halfway point above its largest value (448) TF gives
        # NaN, where torch's conversion (the Const kernel's) saturates.
        arr = np.where(np.abs(arr.astype(np.float32)) > 464.0, np.float32("nan"), arr)
    return arr.astype(np_type)


# Integer types narrower than a byte, stored in int8/uint8: their widths.
_SUB_BYTE_BITS = {_dtypes.int4: 4, _dtypes.uint4: 4, _dtypes.int2: 2, _dtypes.uint2: 2}


def _wrapped(arr: np.ndarray, dtype: _dtypes.DType) -> np.ndarray:
    """Integers wrapped to the width of a sub-byte type, as TF converts them."""
    bits = _SUB_BYTE_BITS[dtype]
    low = arr.astype(np.int64) & ((1 << bits) - 1)
    if dtype.is_unsigned:
        return low
    sign = 1 << (bits - 1)
    return (low ^ sign) - sign


def _numpy_storage(dtype: _dtypes.DType) -> Any:
    if dtype == _dtypes.bfloat16:
        return np.float32  # kept as float32 in the attr; the kernel casts to torch.bfloat16
    if dtype.base_dtype in (_dtypes.float8_e4m3fn, _dtypes.float8_e5m2):
        return np.float32  # the kernel casts to torch's float8
    if dtype.base_dtype in _SUB_BYTE_BITS:
        return np.uint8 if dtype.is_unsigned else np.int8
    if dtype.base_dtype in (_dtypes.float8_e4m3fnuz, _dtypes.float8_e5m2fnuz,
                            _dtypes.float8_e4m3b11fnuz):
        raise TypeError(f"Element type not supported in TensorProto: {dtype.base_dtype.name}.")
    if dtype.base_dtype == _dtypes.float4_e2m1fn:
        raise NotImplementedError("float4_e2m1fn values are not supported by tf1compat "
                                  "(torch has no float4 dtype)")
    if dtype.is_quantized:
        return {"qint8": np.int8, "quint8": np.uint8, "qint16": np.int16, "quint16": np.uint16,
                "qint32": np.int32}[dtype.base_dtype.name]
    return dtype.as_numpy_dtype


def _string_array(arr: np.ndarray) -> np.ndarray:
    out = np.empty(arr.shape, dtype=object)
    flat_in = arr.ravel()
    flat_out = out.reshape(-1)
    for i, v in enumerate(flat_in):
        flat_out[i] = _to_bytes(v)
    return out
