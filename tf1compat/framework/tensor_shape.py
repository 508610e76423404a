"""Static shapes with unknown dimensions: TF1's `Dimension` and `TensorShape`.

Shapes store plain ints (None for unknown); indexing and iteration hand out `Dimension`
objects, as TF1 (v1 tensor-shape behaviour) does, so `x.shape[1].value` works.
`tf.enable_v2_tensorshape()` switches them to TF 2's behaviour, process-wide as in TF:
indexing and iteration give ints and None, shapes print as `TensorShape([2, None])` and
`(2, None)`; `dims` stays a list of Dimensions (as TF 2's). Library code reads one
dimension through `dimension_value` / `dimension_at_index`, which serve both.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional, Union

__all__ = [
    "Dimension", "TensorShape", "as_dimension", "as_shape", "dimension_value",
    "dimension_at_index", "unknown_shape", "scalar", "vector", "matrix",
    "enable_v2_tensorshape", "disable_v2_tensorshape",
]

# TF's _TENSORSHAPE_V2_OVERRIDE: whether shapes hand out ints (v2) or Dimensions (v1).
_V2 = [False]


def enable_v2_tensorshape() -> None:
    """`tf.enable_v2_tensorshape`: indexing and iterating shapes give ints or None."""
    _V2[0] = True


def disable_v2_tensorshape() -> None:
    """`tf.disable_v2_tensorshape`: indexing and iterating shapes give `Dimension`s."""
    _V2[0] = False


class Dimension:
    """One dimension of a static shape; `value` is an int or None (unknown)."""

    __slots__ = ("_value",)

    def __init__(self, value: Any):
        if isinstance(value, Dimension):
            value = value._value
        if value is None:
            self._value = None
            return
        if not hasattr(value, "__index__"):
            raise TypeError(
                "Dimension value must be integer or None or have an __index__ method, "
                f"got value '{value!r}' with type '{type(value)}'")
        # A bool is an int to TF (StyleGAN's noise shape `[1, use_noise, h, w]`); TF 1.x
        # stores int(value), so True becomes 1.
        value = int(value.__index__())
        if value < 0:
            raise ValueError(f"Dimension {value} must be >= 0")
        self._value = value

    @property
    def value(self) -> Optional[int]:
        return self._value

    def __repr__(self) -> str:
        return f"Dimension({self._value!r})"

    def __str__(self) -> str:
        return "?" if self._value is None else str(self._value)

    def __int__(self) -> int:
        return self._value

    def __index__(self) -> int:
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __hash__(self) -> int:
        return hash(self._value)

    def __eq__(self, other: Any) -> Optional[bool]:
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other._value is None:
            return None
        return self._value == other._value

    def __ne__(self, other: Any) -> Optional[bool]:
        result = self.__eq__(other)
        if result is None or result is NotImplemented:
            return result
        return not result

    def is_compatible_with(self, other: Any) -> bool:
        other = as_dimension(other)
        return self._value is None or other._value is None or self._value == other._value

    def assert_is_compatible_with(self, other: Any) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {other} are not compatible")

    def merge_with(self, other: Any) -> "Dimension":
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(other._value if self._value is None else self._value)

    def _binary(self, other: Any, fn) -> "Dimension":
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other._value is None:
            return Dimension(None)
        return Dimension(fn(self._value, other._value))

    def __add__(self, other): return self._binary(other, lambda a, b: a + b)
    def __radd__(self, other): return self.__add__(other)
    def __sub__(self, other): return self._binary(other, lambda a, b: a - b)
    def __rsub__(self, other): return as_dimension(other).__sub__(self)
    def __mul__(self, other): return self._binary(other, lambda a, b: a * b)
    def __rmul__(self, other): return self.__mul__(other)
    def __floordiv__(self, other): return self._binary(other, lambda a, b: a // b)
    def __rfloordiv__(self, other): return as_dimension(other).__floordiv__(self)
    def __mod__(self, other): return self._binary(other, lambda a, b: a % b)
    def __rmod__(self, other): return as_dimension(other).__mod__(self)

    def __truediv__(self, other):
        raise TypeError("unsupported operand type(s) for /: 'Dimension' and "
                        f"'{type(other).__name__}', please use // instead")

    def _compare(self, other: Any, fn) -> Optional[bool]:
        other = as_dimension(other)
        if self._value is None or other._value is None:
            return None
        return fn(self._value, other._value)

    def __lt__(self, other): return self._compare(other, lambda a, b: a < b)
    def __le__(self, other): return self._compare(other, lambda a, b: a <= b)
    def __gt__(self, other): return self._compare(other, lambda a, b: a > b)
    def __ge__(self, other): return self._compare(other, lambda a, b: a >= b)

    def __reduce__(self):
        return Dimension, (self._value,)


def as_dimension(value: Any) -> Dimension:
    return value if isinstance(value, Dimension) else Dimension(value)


def dimension_value(dimension: Any) -> Optional[int]:
    """The int (or None) of a Dimension or plain value, as `tf.dimension_value`."""
    if isinstance(dimension, Dimension):
        return dimension.value
    return dimension


def dimension_at_index(shape: Any, index: int) -> Dimension:
    shape = as_shape(shape)
    if shape.rank is None:
        return Dimension(None)
    return Dimension(shape._dims[index])


def _dim_int(value: Any) -> Optional[int]:
    return Dimension(value)._value if not isinstance(value, int) or isinstance(value, bool) or value < 0 else value


class TensorShape:
    """A possibly partially known shape: unknown rank (`dims is None`) or a list of dims."""

    __slots__ = ("_dims",)

    def __init__(self, dims: Any):
        if isinstance(dims, TensorShape):
            self._dims = dims._dims
        elif dims is None:
            self._dims = None
        elif isinstance(dims, (str, bytes)):
            raise TypeError(f"A string has ambiguous TensorShape, please wrap in a list or "
                            f"convert to an int: {dims!r}")
        elif _is_shape_proto(dims):
            self._dims = None if dims.unknown_rank else tuple(
                None if d.size == -1 else d.size for d in dims.dim)
        else:
            try:
                items = iter(dims)
            except TypeError:
                items = iter([dims])
            self._dims = tuple(_dim_int(d) for d in items)

    # -- basic properties ----------------------------------------------------------
    @property
    def rank(self) -> Optional[int]:
        return None if self._dims is None else len(self._dims)

    @property
    def ndims(self) -> Optional[int]:
        return self.rank

    @property
    def dims(self) -> Optional[list]:
        return None if self._dims is None else [Dimension(d) for d in self._dims]

    def as_list(self) -> list:
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def is_fully_defined(self) -> bool:
        return self._dims is not None and all(d is not None for d in self._dims)

    def assert_is_fully_defined(self) -> None:
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def num_elements(self) -> Optional[int]:
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    # -- compatibility ---------------------------------------------------------------
    def is_compatible_with(self, other: Any) -> bool:
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def assert_is_compatible_with(self, other: Any) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def merge_with(self, other: Any) -> "TensorShape":
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if len(self._dims) != len(other._dims) or not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def most_specific_compatible_shape(self, other: Any) -> "TensorShape":
        other = as_shape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return unknown_shape()
        return TensorShape([a if a == b else None for a, b in zip(self._dims, other._dims)])

    def concatenate(self, other: Any) -> "TensorShape":
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return unknown_shape()
        return TensorShape(self._dims + other._dims)

    def assert_same_rank(self, other: Any) -> None:
        other = as_shape(other)
        if self.rank is not None and other.rank is not None and self.rank != other.rank:
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_has_rank(self, rank: int) -> None:
        if self.rank not in (None, rank):
            raise ValueError(f"Shape {self} must have rank {rank}")

    def with_rank(self, rank: int) -> "TensorShape":
        try:
            return self.merge_with(unknown_shape(rank=rank))
        except ValueError:
            raise ValueError(f"Shape {self} must have rank {rank}") from None

    def with_rank_at_least(self, rank: int) -> "TensorShape":
        if self.rank is not None and self.rank < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank: int) -> "TensorShape":
        if self.rank is not None and self.rank > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def is_subtype_of(self, other: Any) -> bool:
        other = as_shape(other)
        if other._dims is None:
            return True
        if self._dims is None or len(self._dims) != len(other._dims):
            return False
        return all(b is None or a == b for a, b in zip(self._dims, other._dims))

    # -- python protocol -------------------------------------------------------------
    def __len__(self) -> int:
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __bool__(self) -> bool:
        return self._dims is not None

    def __iter__(self) -> Iterator[Dimension]:
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        if _V2[0]:
            return iter(self._dims)
        return iter([Dimension(d) for d in self._dims])

    def __getitem__(self, key: Union[int, slice]) -> Any:
        if self._dims is not None:
            if isinstance(key, slice):
                return TensorShape(self._dims[key])
            return self._dims[key] if _V2[0] else Dimension(self._dims[key])
        if isinstance(key, slice):
            start, stop = key.start, key.stop
            if key.step is not None or (start is not None and start < 0) or \
                    (stop is not None and stop < 0):
                return unknown_shape()
            if stop is None:
                return unknown_shape()
            return unknown_shape(rank=stop - (start or 0))
        return None if _V2[0] else Dimension(None)

    def __eq__(self, other: Any) -> bool:
        try:
            other = as_shape(other)
        except TypeError:
            return NotImplemented
        return self._dims == other._dims

    def __ne__(self, other: Any) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash(self._dims)

    def __add__(self, other: Any) -> "TensorShape":
        return self.concatenate(other)

    def __radd__(self, other: Any) -> "TensorShape":
        return as_shape(other).concatenate(self)

    def __repr__(self) -> str:
        if self._dims is None:
            return "TensorShape(None)"
        if _V2[0]:
            return f"TensorShape({list(self._dims)!r})"
        return "TensorShape([" + ", ".join(f"Dimension({d!r})" for d in self._dims) + "])"

    def __str__(self) -> str:
        if self._dims is None:
            return "<unknown>"
        unknown = "None" if _V2[0] else "?"
        parts = [unknown if d is None else str(d) for d in self._dims]
        if len(parts) == 1:
            return f"({parts[0]},)"
        return "(" + ", ".join(parts) + ")"

    def __reduce__(self):
        return TensorShape, (self._dims,)

    def as_proto(self) -> Any:
        """This shape as TF's TensorShapeProto (unknown dimensions as size -1)."""
        from tf1compat.framework.hooks import SERIALIZED_FORMS
        return SERIALIZED_FORMS["shape_proto"](self)


def _is_shape_proto(value: Any) -> bool:
    return hasattr(value, "unknown_rank") and hasattr(value, "dim")


def as_shape(shape: Any) -> TensorShape:
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank: Optional[int] = None, **kwargs: Any) -> TensorShape:
    if rank is None and "ndims" in kwargs:
        rank = kwargs.pop("ndims")
    if rank is None:
        return TensorShape(None)
    return TensorShape([None] * rank)


def scalar() -> TensorShape:
    return TensorShape([])


def vector(length: Any) -> TensorShape:
    return TensorShape([length])


def matrix(rows: Any, cols: Any) -> TensorShape:
    return TensorShape([rows, cols])

