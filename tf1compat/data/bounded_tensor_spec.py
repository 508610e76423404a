"""`BoundedTensorSpec` (TF's tensor_spec.BoundedTensorSpec, exported in TF 1.x as
`tf.contrib.framework.BoundedTensorSpec`): a TensorSpec with inclusive element bounds."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from tf1compat.data.structure import TensorSpec
from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops.transform_ops import broadcast_static_shape

__all__ = ["BoundedTensorSpec"]


class BoundedTensorSpec(TensorSpec):
    """`BoundedTensorSpec(shape, dtype, minimum, maximum, name=None)`: the bounds are
    read-only numpy arrays of `dtype`, each broadcastable to `shape`."""

    __slots__ = ("_minimum", "_maximum")

    def __init__(self, shape: Any, dtype: Any, minimum: Any, maximum: Any,
                 name: Optional[str] = None):
        super().__init__(shape, dtype, name)
        if minimum is None:
            raise ValueError("`minimum` can not be None.")
        if maximum is None:
            raise ValueError("`maximum` can not be None.")
        for label, bound in (("minimum", minimum), ("maximum", maximum)):
            try:
                broadcast_static_shape(TensorShape(np.shape(bound)), self.shape)
            except ValueError as e:
                raise ValueError(f"`{label}` {bound} is not compatible with shape "
                                 f"{self.shape}.") from e
        self._minimum = np.array(minimum, dtype=self.dtype.as_numpy_dtype)
        self._minimum.setflags(write=False)
        self._maximum = np.array(maximum, dtype=self.dtype.as_numpy_dtype)
        self._maximum.setflags(write=False)

    @classmethod
    def from_spec(cls, spec: Any) -> "BoundedTensorSpec":
        """`spec` with its own bounds if it has them, else its dtype's min and max."""
        dtype = D.as_dtype(spec.dtype)
        return cls(spec.shape, dtype, getattr(spec, "minimum", dtype.min),
                   getattr(spec, "maximum", dtype.max), spec.name)

    @property
    def minimum(self) -> np.ndarray:
        return self._minimum

    @property
    def maximum(self) -> np.ndarray:
        return self._maximum

    def __repr__(self) -> str:
        return (f"BoundedTensorSpec(shape={self.shape}, dtype={self.dtype!r}, "
                f"name={self.name!r}, minimum={self.minimum!r}, maximum={self.maximum!r})")

    def __eq__(self, other: Any) -> bool:
        return (super().__eq__(other) and np.allclose(self.minimum, other.minimum)
                and np.allclose(self.maximum, other.maximum))

    def __hash__(self) -> int:
        return hash((self.shape.rank, self.dtype))

    def __reduce__(self) -> Any:
        return BoundedTensorSpec, (self.shape, self.dtype, self._minimum, self._maximum,
                                   self.name)
