"""`tf.compat`: text/bytes helpers and the v1/v2 switches.

`tf.compat.v1` is the tf1compat namespace itself (set by tf1compat/__init__.py).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from tf1compat.eager.context import enable_v2_behavior
from tf1compat.framework import context as _context

__all__ = ["as_bytes", "as_text", "as_str", "as_str_any", "path_to_str", "forward_compatible",
           "forward_compatibility_horizon", "disable_v2_behavior", "enable_v2_behavior",
           "integral_types", "real_types", "complex_types", "bytes_or_text_types",
           "v1", "v2"]

integral_types = (numbers.Integral, np.integer)
real_types = (numbers.Real, np.integer, np.floating)
complex_types = (numbers.Complex, np.number)
bytes_or_text_types = (bytes, str)


def as_bytes(bytes_or_text: Any, encoding: str = "utf-8") -> bytes:
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text: Any, encoding: str = "utf-8") -> str:
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text
as_unicode = as_text


def as_str_any(value: Any, encoding: str = "utf-8") -> str:
    if isinstance(value, bytes):
        return as_str(value, encoding)
    return str(value)


def path_to_str(path: Any) -> Any:
    if hasattr(path, "__fspath__"):
        path = as_str_any(path.__fspath__())
    return path


def forward_compatible(year: int, month: int, day: int) -> bool:
    return False


class forward_compatibility_horizon:  # noqa: N801 - TF's name
    def __init__(self, year: int, month: int, day: int):
        pass

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


_v2 = {"enabled": False}


def disable_v2_behavior() -> None:
    """TF1 behaviour is what tf1compat provides; as in TF, this turns eager execution off
    (graph mode for the rest of the program)."""
    from tf1compat.framework.tensor_shape import disable_v2_tensorshape
    _v2["enabled"] = False
    _context.set_default_eager(False)
    disable_v2_tensorshape()


def dimension_value(dimension: Any) -> Any:
    from tf1compat.framework.tensor_shape import dimension_value as dv
    return dv(dimension)


def dimension_at_index(shape: Any, index: int) -> Any:
    from tf1compat.framework.tensor_shape import dimension_at_index as da
    return da(shape, index)


v1: Any = None   # the tf1compat module, filled in by tf1compat/__init__.py
v2: Any = None


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('compat', globals())
