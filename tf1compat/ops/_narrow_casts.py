"""Cast to and from tf.dtypes.experimental's narrow types, with TF 2.21's rules.

TF's Cast kernel runs: wide floats and float8 -> float8_e4m3fn/float8_e5m2; those two ->
any float, integer, bool or float8; int4/uint4 <-> any 8- to 64-bit integer and each
other. Every other cast involving a narrow type (the fnuz floats, float4, int2/uint2)
raises TF's UnimplementedError. float8 values are torch's float8 tensors; int4/uint4
values live in int8/uint8 tensors, wrapped to 4 bits as TF wraps them.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import torch

from tf1compat.framework import dtypes as D

__all__ = ["narrow_cast"]

_FLOAT8 = frozenset({D.float8_e4m3fn, D.float8_e5m2})
_INT4 = frozenset({D.int4, D.uint4})
_NARROW = frozenset({D.float8_e4m3fn, D.float8_e5m2, D.float8_e4m3fnuz, D.float8_e5m2fnuz,
                     D.float8_e4m3b11fnuz, D.float4_e2m1fn, D.int4, D.uint4, D.int2,
                     D.uint2})
_WIDE_FLOATS = frozenset({D.float16, D.bfloat16, D.float32, D.float64})
_INTEGERS = frozenset({D.int8, D.uint8, D.int16, D.uint16, D.int32, D.uint32, D.int64,
                       D.uint64})
# float8_e4m3fn has no infinity: TF rounds anything beyond the halfway point above its
# largest value (448) to NaN, where torch saturates.
_E4M3FN_OVERFLOW = 464.0


def _supported(src: D.DType, dst: D.DType) -> bool:
    if dst in _FLOAT8:
        return src in _WIDE_FLOATS | _FLOAT8
    if src in _FLOAT8:
        return dst in _WIDE_FLOATS | _FLOAT8 | _INTEGERS | {D.bool}
    if dst in _INT4 or src in _INT4:
        return (src if dst in _INT4 else dst) in _INTEGERS | _INT4
    return False


def _to_int4(signed: bool) -> Callable[[torch.Tensor], torch.Tensor]:
    def wrap(x: torch.Tensor) -> torch.Tensor:
        low = x.to(torch.int64) & 15
        return ((low ^ 8) - 8).to(torch.int8) if signed else low.to(torch.uint8)
    return wrap


def _to_e4m3fn(x: torch.Tensor) -> torch.Tensor:
    out = x.to(torch.float8_e4m3fn)
    wide = x if x.dtype.itemsize > 1 else x.float()     # (torch has no float8 abs)
    overflow = wide.abs() > _E4M3FN_OVERFLOW
    if bool(overflow.any()):
        out = torch.where(overflow, torch.tensor(float("nan"), dtype=out.dtype,
                                                 device=out.device), out)
    return out


def narrow_cast(src: D.DType, dst: D.DType) -> Optional[Callable[[Any], Any]]:
    """The Cast kernel between `src` and `dst` when one is a narrow type (None if neither
    is); NotImplementedError (TF's UnimplementedError) where TF has no such cast."""
    src, dst = src.base_dtype, dst.base_dtype
    if src not in _NARROW and dst not in _NARROW:
        return None
    if not _supported(src, dst):
        raise NotImplementedError(f"Cast {src.name} to {dst.name} is not supported")
    if dst in _INT4:
        return _to_int4(dst == D.int4)
    if dst == D.float8_e4m3fn:
        return _to_e4m3fn
    target = dst.torch_dtype
    return lambda x: x.to(target)
