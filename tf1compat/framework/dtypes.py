"""TensorFlow's DType objects (`tf.float32`, `tf.int32_ref`, ...) and their torch mapping.

A DType follows TF exactly: the same names, type enums, `_ref` variants (the dtype of a
ref variable's output in TF1 graph mode), numpy mapping and predicates.  Each DType also
knows the torch dtype that holds its values at run time (`torch_dtype`); strings have none
and live as numpy object arrays of bytes.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import torch

try:  # TF maps bfloat16 and the float8 types onto ml_dtypes; use it when present.
    import ml_dtypes as _ml_dtypes
except ImportError:  # pragma: no cover - optional
    _ml_dtypes = None

__all__ = [
    "DType", "as_dtype", "as_string",
    "float16", "half", "float32", "float64", "double", "bfloat16",
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "bool", "string", "complex64", "complex128", "qint8", "quint8", "qint16",
    "quint16", "qint32", "resource", "variant",
    "float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e4m3b11fnuz",
    "float8_e5m2fnuz", "float4_e2m1fn", "int4", "uint4", "int2", "uint2",
]

_REF_OFFSET = 100


class DType:
    """A TensorFlow element type, identified by its TF type enum."""

    __slots__ = ("_type_enum",)

    def __init__(self, type_enum: int):
        self._type_enum = int(type_enum)

    # -- identity ---------------------------------------------------------------
    @property
    def name(self) -> str:
        return _TYPE_TO_STRING[self._type_enum]

    @property
    def as_datatype_enum(self) -> int:
        return self._type_enum

    @property
    def _is_ref_dtype(self) -> builtins_bool:
        return self._type_enum > _REF_OFFSET

    @property
    def _as_ref(self) -> "DType":
        return self if self._is_ref_dtype else _INTERN[self._type_enum + _REF_OFFSET]

    @property
    def base_dtype(self) -> "DType":
        return _INTERN[self._type_enum - _REF_OFFSET] if self._is_ref_dtype else self

    @property
    def real_dtype(self) -> "DType":
        base = self.base_dtype
        if base == complex64:
            return float32
        if base == complex128:
            return float64
        return self

    # -- predicates ---------------------------------------------------------------
    @property
    def is_floating(self) -> builtins_bool:
        return self.base_dtype._type_enum in _FLOATING

    @property
    def is_integer(self) -> builtins_bool:
        return self.base_dtype._type_enum in _INTEGER

    @property
    def is_complex(self) -> builtins_bool:
        return self.base_dtype._type_enum in (8, 18)

    @property
    def is_quantized(self) -> builtins_bool:
        return self.base_dtype._type_enum in _QUANTIZED

    @property
    def is_unsigned(self) -> builtins_bool:
        return self.base_dtype._type_enum in (4, 17, 22, 23, 30, 32)

    @property
    def is_bool(self) -> builtins_bool:
        return self.base_dtype._type_enum == 10

    @property
    def is_numeric(self) -> builtins_bool:
        return self.is_floating or self.is_integer or self.is_complex or self.is_quantized

    @property
    def is_numpy_compatible(self) -> builtins_bool:
        return self.base_dtype._type_enum not in (20, 21)

    # -- conversions ----------------------------------------------------------------
    @property
    def as_numpy_dtype(self) -> Any:
        """The numpy scalar type TF maps this dtype to (object for strings)."""
        base = self.base_dtype._type_enum
        if base == 14 or base in _NARROW:
            if _ml_dtypes is None:
                raise TypeError(f"{self.base_dtype.name} has no numpy type without the "
                                "ml_dtypes package (pip install ml_dtypes)")
            return getattr(_ml_dtypes, self.base_dtype.name)
        if base in _NUMPY:
            return _NUMPY[base]
        raise TypeError(f"{self!r} has no numpy equivalent")

    @property
    def torch_dtype(self) -> Optional[torch.dtype]:
        """The torch dtype that holds this dtype's values at run time (None for strings)."""
        return _TORCH.get(self.base_dtype._type_enum)

    @property
    def size(self) -> int:
        return _SIZES.get(self.base_dtype._type_enum, 0)

    # -- limits ---------------------------------------------------------------------
    @property
    def min(self):
        """The smallest representable value (TF: TypeError for non-numeric types)."""
        return self._limit(low=True)

    @property
    def max(self):
        return self._limit(low=False)

    def _limit(self, low: builtins_bool):
        if self.is_quantized or self.base_dtype in (string, resource, variant, bool) or self.is_complex:
            what = "minimum" if low else "maximum"
            raise TypeError(f"Cannot find {what} value of {self} with type {self}.")
        if self.base_dtype == bfloat16:
            limit = 3.3895313892515355e38  # (2 - 2**-7) * 2**127, without needing ml_dtypes
            return -limit if low else limit
        if self.base_dtype._type_enum in _NARROW:
            lowest, highest = _NARROW[self.base_dtype._type_enum]
            return lowest if low else highest
        np_type = self.as_numpy_dtype
        info = np.finfo(np_type) if self.is_floating else np.iinfo(np_type)
        return info.min if low else info.max

    @property
    def limits(self, clip_negative: builtins_bool = True):
        lo, hi = self.min, self.max
        if clip_negative:
            lo = 0
        return lo, hi

    def is_compatible_with(self, other: Any) -> builtins_bool:
        """True if `other` can be converted to this dtype (refs accept non-refs, not back)."""
        other = as_dtype(other)
        return self._type_enum in (other._type_enum, other.base_dtype._type_enum)

    # -- python protocol -----------------------------------------------------------
    def __eq__(self, other: Any) -> builtins_bool:
        if other is self:          # DTypes are interned: the common case
            return True
        if isinstance(other, DType):
            return self._type_enum == other._type_enum
        if other is None:
            return False
        try:
            return self._type_enum == as_dtype(other)._type_enum
        except TypeError:
            return False

    def __ne__(self, other: Any) -> builtins_bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return self._type_enum

    def __reduce__(self):
        return as_dtype, (self.name,)

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"


builtins_bool = type(True)

_TYPE_TO_STRING = {
    1: "float32", 2: "float64", 3: "int32", 4: "uint8", 5: "int16", 6: "int8", 7: "string",
    8: "complex64", 9: "int64", 10: "bool", 11: "qint8", 12: "quint8", 13: "qint32",
    14: "bfloat16", 15: "qint16", 16: "quint16", 17: "uint16", 18: "complex128",
    19: "float16", 20: "resource", 21: "variant", 22: "uint32", 23: "uint64",
    # tf.dtypes.experimental: the 8-, 4- and 2-bit types of TF 2.x (ml_dtypes in numpy).
    24: "float8_e5m2", 25: "float8_e4m3fn", 26: "float8_e4m3fnuz", 27: "float8_e4m3b11fnuz",
    28: "float8_e5m2fnuz", 29: "int4", 30: "uint4", 31: "int2", 32: "uint2",
    33: "float4_e2m1fn",
}
for _enum, _name in list(_TYPE_TO_STRING.items()):
    _TYPE_TO_STRING[_enum + _REF_OFFSET] = _name + "_ref"

_FLOATING = {1, 2, 14, 19, 24, 25, 26, 27, 28, 33}
_INTEGER = {3, 4, 5, 6, 9, 17, 22, 23, 29, 30, 31, 32}
# The narrow types' (lowest, highest) finite values, as ml_dtypes gives them.
_NARROW = {24: (-57344.0, 57344.0), 25: (-448.0, 448.0), 26: (-240.0, 240.0),
           27: (-30.0, 30.0), 28: (-57344.0, 57344.0), 33: (-6.0, 6.0),
           29: (-8, 7), 30: (0, 15), 31: (-2, 1), 32: (0, 3)}
_QUANTIZED = {11, 12, 13, 15, 16}
_SIZES = {1: 4, 2: 8, 3: 4, 4: 1, 5: 2, 6: 1, 8: 8, 9: 8, 10: 1, 11: 1, 12: 1, 13: 4,
          14: 2, 15: 2, 16: 2, 17: 2, 18: 16, 19: 2, 22: 4, 23: 8,
          **{enum: 1 for enum in _NARROW}}
_NUMPY = {
    1: np.float32, 2: np.float64, 3: np.int32, 4: np.uint8, 5: np.int16, 6: np.int8,
    7: object, 8: np.complex64, 9: np.int64, 10: np.bool_, 17: np.uint16,
    18: np.complex128, 19: np.float16, 22: np.uint32, 23: np.uint64,
    11: np.dtype([("qint8", np.int8)]), 12: np.dtype([("quint8", np.uint8)]),
    13: np.dtype([("qint32", np.int32)]), 15: np.dtype([("qint16", np.int16)]),
    16: np.dtype([("quint16", np.uint16)]),
}
_TORCH = {
    1: torch.float32, 2: torch.float64, 3: torch.int32, 4: torch.uint8, 5: torch.int16,
    6: torch.int8, 8: torch.complex64, 9: torch.int64, 10: torch.bool, 14: torch.bfloat16,
    18: torch.complex128, 19: torch.float16, 11: torch.int8, 12: torch.uint8,
    13: torch.int32, 15: torch.int16, 16: torch.int16,
}
# torch >= 2.3 has (limited) unsigned 16/32/64-bit types.
for _enum, _attr in ((17, "uint16"), (22, "uint32"), (23, "uint64")):
    if hasattr(torch, _attr):
        _TORCH[_enum] = getattr(torch, _attr)

# The narrow types torch has (torch >= 2.1 float8); int4/uint4/int2/uint2 values live in
# int8/uint8 (wrapped to their width, as TF wraps them). float8_e4m3b11fnuz and
# float4_e2m1fn have no run-time values: TF itself casts to neither.
_NARROW_TORCH = {24: "float8_e5m2", 25: "float8_e4m3fn", 26: "float8_e4m3fnuz",
                 28: "float8_e5m2fnuz"}
_TORCH_TO_DTYPE = {t: e for e, t in _TORCH.items() if e not in _QUANTIZED}
for _enum, _attr in _NARROW_TORCH.items():
    if hasattr(torch, _attr):
        _TORCH[_enum] = getattr(torch, _attr)
        _TORCH_TO_DTYPE[_TORCH[_enum]] = _enum
_TORCH.update({29: torch.int8, 30: torch.uint8, 31: torch.int8, 32: torch.uint8})

_INTERN: dict = {enum: DType(enum) for enum in _TYPE_TO_STRING}

float32 = _INTERN[1]
float64 = double = _INTERN[2]
int32 = _INTERN[3]
uint8 = _INTERN[4]
int16 = _INTERN[5]
int8 = _INTERN[6]
string = _INTERN[7]
complex64 = _INTERN[8]
int64 = _INTERN[9]
bool = _INTERN[10]  # noqa: A001 - TF's own name
qint8 = _INTERN[11]
quint8 = _INTERN[12]
qint32 = _INTERN[13]
bfloat16 = _INTERN[14]
qint16 = _INTERN[15]
quint16 = _INTERN[16]
uint16 = _INTERN[17]
complex128 = _INTERN[18]
float16 = half = _INTERN[19]
resource = _INTERN[20]
variant = _INTERN[21]
uint32 = _INTERN[22]
uint64 = _INTERN[23]
float8_e5m2 = _INTERN[24]
float8_e4m3fn = _INTERN[25]
float8_e4m3fnuz = _INTERN[26]
float8_e4m3b11fnuz = _INTERN[27]
float8_e5m2fnuz = _INTERN[28]
int4 = _INTERN[29]
uint4 = _INTERN[30]
int2 = _INTERN[31]
uint2 = _INTERN[32]
float4_e2m1fn = _INTERN[33]

# The reference dtypes under their module names (`dtypes.float32_ref`: tensor2tensor picks
# its fp16 variables by `v.dtype == dtypes.float16_ref`), for TF 1.15's types; TF keeps them
# out of the public tf.* namespace, so they stay out of __all__ here too.
for _enum in [e for e in _TYPE_TO_STRING if e < _REF_OFFSET]:
    globals()[_TYPE_TO_STRING[_enum] + "_ref"] = _INTERN[_enum + _REF_OFFSET]
half_ref = globals()["float16_ref"]
double_ref = globals()["float64_ref"]

_STRING_TO_DTYPE = {name: _INTERN[enum] for enum, name in _TYPE_TO_STRING.items()}
_STRING_TO_DTYPE.update({"half": float16, "float": float32, "double": float64})

_NUMPY_TO_DTYPE = {np.dtype(t): _INTERN[e] for e, t in _NUMPY.items() if e != 7}
_PYTHON_TO_DTYPE = {
    float: float32, builtins_bool: bool, str: string, bytes: string, object: string,
    np.str_: string, np.bytes_: string, np.object_: string,
}
_TORCH_TO_DTYPE = {t: _INTERN[e] for t, e in _TORCH_TO_DTYPE.items()}


def as_dtype(type_value: Any) -> DType:
    """Converts a DType, name, enum, numpy dtype/type, torch dtype or python type to a DType."""
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, str):
        try:
            return _STRING_TO_DTYPE[type_value]
        except KeyError:
            pass
    elif isinstance(type_value, int) and not isinstance(type_value, builtins_bool):
        if type_value in _INTERN:
            return _INTERN[type_value]
    elif isinstance(type_value, torch.dtype):
        if type_value in _TORCH_TO_DTYPE:
            return _TORCH_TO_DTYPE[type_value]
    elif type_value is int:
        pass  # TF refuses Python's int: its width is ambiguous
    else:
        try:
            if type_value in _PYTHON_TO_DTYPE:
                return _PYTHON_TO_DTYPE[type_value]
        except TypeError:
            pass
        if _ml_dtypes is not None:
            for enum in (14, *_NARROW):
                ml_type = getattr(_ml_dtypes, _TYPE_TO_STRING[enum], None)
                if ml_type is not None and type_value in (ml_type, np.dtype(ml_type)):
                    return _INTERN[enum]
        try:
            np_dtype = np.dtype(type_value)
        except TypeError:
            np_dtype = None
        if np_dtype is not None:
            if np_dtype in _NUMPY_TO_DTYPE:
                return _NUMPY_TO_DTYPE[np_dtype]
            if np_dtype.kind in "OSU":
                return string
    raise TypeError(f"Cannot convert the argument `type_value`: {type_value!r} to a TensorFlow DType.")


def as_string(dtype: Any) -> str:
    return as_dtype(dtype).name


# Groups used by op declarations' type constraints (TF's `realnumbertypes`, ...), in TF's
# order (error messages list allowed types in it). The one definition of each group.
FLOATING_TYPES = (float16, bfloat16, float32, float64)
COMPLEX_TYPES = (complex64, complex128)
SIGNED_INTEGER_TYPES = (int8, int16, int32, int64)
INTEGER_TYPES = SIGNED_INTEGER_TYPES + (uint8, uint16, uint32, uint64)
REAL_NUMBER_TYPES = FLOATING_TYPES + INTEGER_TYPES
NUMBER_TYPES = REAL_NUMBER_TYPES + COMPLEX_TYPES
SIGNED_NUMBER_TYPES = FLOATING_TYPES + SIGNED_INTEGER_TYPES + COMPLEX_TYPES
ALL_TYPES = NUMBER_TYPES + (bool, string)
INDEX_TYPES = (int32, int64)          # TF's `Tidx: {int32, int64}` index attrs
QUANTIZED_DTYPES = frozenset(_INTERN[e] for e in _QUANTIZED) | frozenset(
    _INTERN[e + _REF_OFFSET] for e in _QUANTIZED)
