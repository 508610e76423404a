"""`tf.signal` window functions: Hann, Hamming (raised cosines), Kaiser,
Kaiser-Bessel-derived and Vorbis windows, computed from ops as TF computes them."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, math_ops, nn_ops, reduction_ops
from tf1compat.ops.creation_ops import ones
from tf1compat.ops.creation_ops import range as range_
from tf1compat.ops.special_math_ops import bessel_i0e

__all__ = ["hann_window", "hamming_window", "kaiser_window",
           "kaiser_bessel_derived_window", "vorbis_window"]


def _check_params(window_length: Any, dtype: D.DType) -> Tensor:
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype}")
    window_length = convert_to_tensor(window_length, dtype=D.int32)
    window_length.shape.assert_has_rank(0)
    return window_length


def kaiser_window(window_length: Any, beta: float = 12.0, dtype: Any = D.float32,
                  name: Optional[str] = None) -> Tensor:
    """`tf.signal.kaiser_window`: I0(beta sqrt(1 - (2n/(N-1) - 1)^2)) / I0(beta)."""
    dtype = D.as_dtype(dtype)
    with name_scope(name, "kaiser_window"):
        window_length = _check_params(window_length, dtype)
        if _static(window_length) == 1:
            return ones([1], dtype=dtype)
        half = (math_ops.cast(window_length, D.float32) - 1.0) / 2.0
        arg = math_ops.cast(range_(-half, half + 0.1, dtype=D.float32), dtype)
        beta = math_ops.cast(beta, dtype)
        one = math_ops.cast(1.0, dtype)
        half = math_ops.cast(half, dtype)
        num = beta * math_ops.sqrt(nn_ops.relu(one - math_ops.square(arg / half)))
        return math_ops.exp(num - beta) * (bessel_i0e(num) / bessel_i0e(beta))


def kaiser_bessel_derived_window(window_length: Any, beta: float = 12.0,
                                 dtype: Any = D.float32, name: Optional[str] = None) -> Tensor:
    """`tf.signal.kaiser_bessel_derived_window`: the square root of a normalised
    cumulative Kaiser window, mirrored."""
    dtype = D.as_dtype(dtype)
    with name_scope(name, "kaiser_bessel_derived_window"):
        window_length = _check_params(window_length, dtype)
        kaiser = kaiser_window(window_length // 2 + 1, beta, dtype=dtype)
        csum = reduction_ops.cumsum(kaiser)
        half = math_ops.sqrt(csum[:-1] / csum[-1])
        return array_ops.concat((half, half[::-1]), axis=0)


def vorbis_window(window_length: Any, dtype: Any = D.float32,
                  name: Optional[str] = None) -> Tensor:
    """`tf.signal.vorbis_window`: sin(pi/2 sin^2(pi (n + 1/2) / N))."""
    dtype = D.as_dtype(dtype)
    with name_scope(name, "vorbis_window"):
        window_length = _check_params(window_length, dtype)
        arg = math_ops.cast(range_(window_length), dtype=dtype)
        inner = math_ops.sin(np.pi / math_ops.cast(window_length, dtype=dtype) * (arg + 0.5))
        return math_ops.sin(np.pi / 2.0 * math_ops.pow(inner, 2.0))


def hann_window(window_length: Any, periodic: Any = True, dtype: Any = D.float32,
                name: Optional[str] = None) -> Tensor:
    """`tf.signal.hann_window`: 0.5 - 0.5 cos(2 pi n / N)."""
    return _raised_cosine(name, "hann_window", window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length: Any, periodic: Any = True, dtype: Any = D.float32,
                   name: Optional[str] = None) -> Tensor:
    """`tf.signal.hamming_window`: 0.54 - 0.46 cos(2 pi n / N)."""
    return _raised_cosine(name, "hamming_window", window_length, periodic, dtype, 0.54, 0.46)


def _static(t: Tensor) -> Any:
    v = constant_value(t)
    return None if v is None else v.item()


def _raised_cosine(name: Optional[str], default_name: str, window_length: Any, periodic: Any,
                   dtype: Any, a: float, b: float) -> Tensor:
    """a - b cos(2 pi n / N), N the length (periodic, even length) or the length - 1."""
    from tf1compat.ops.cond import cond
    dtype = D.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype}")
    with name_scope(name, default_name, [window_length, periodic]):
        window_length = convert_to_tensor(window_length, dtype=D.int32, name="window_length")
        window_length.shape.assert_has_rank(0)
        static_length = _static(window_length)
        if static_length == 1:
            return ones([1], dtype=dtype)
        periodic = math_ops.cast(convert_to_tensor(periodic, dtype=D.bool, name="periodic"),
                                 D.int32)
        periodic.shape.assert_has_rank(0)
        even = 1 - math_ops.mod(window_length, 2)
        n = math_ops.cast(window_length + periodic * even - 1, dtype=dtype)
        count = math_ops.cast(range_(window_length), dtype)
        cos_arg = constant(2 * np.pi, dtype=dtype) * count / n
        if static_length is not None:
            return math_ops.cast(a - b * math_ops.cos(cos_arg), dtype=dtype)
        return cond(math_ops.equal(window_length, 1),
                    lambda: ones([window_length], dtype=dtype),
                    lambda: math_ops.cast(a - b * math_ops.cos(cos_arg), dtype=dtype))
