"""`tf.contrib.distributions.bijectors.Bijector`, TF 1.x's base class of invertible,
differentiable maps (Y = g(X)).

Public methods open the bijector's name scope and the method's (`exp/forward/...`),
convert and dtype-check their input, fall back between `_forward_log_det_jacobian` and
`-_inverse_log_det_jacobian(forward(x))` as TF does, reduce a log-det-Jacobian computed at
`*_min_event_ndims` over the extra rightmost `event_ndims`, and cache x <-> y pairs so that
`inverse(forward(x))` returns `x` itself (TF's cache: exact, and gradients flow to x).
"""

from __future__ import annotations

import contextlib
import re
from typing import Any, Dict, Iterator, List, Optional

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.misc import is_tensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.ops import array_ops
from tf1compat.ops.creation_ops import ones
from tf1compat.ops.reduction_ops import reduce_sum

__all__ = ["Bijector"]


def _camel_to_snake(name: str) -> str:
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()


def static_event_ndims(event_ndims: Any) -> int:
    """`event_ndims` as a Python int (a tensor must have a value known at graph build)."""
    if is_tensor(event_ndims):
        value = constant_value(event_ndims)
        if value is None:
            raise NotImplementedError("a Bijector's event_ndims given as a tensor whose value "
                                      "is only known at run time is not supported by "
                                      "tf1compat")
        event_ndims = value
    value = np.asarray(event_ndims)
    if value.ndim != 0 or not np.issubdtype(value.dtype, np.integer):
        raise ValueError(f"Expected scalar event_ndims, saw: {event_ndims}")
    return int(value)


class Bijector:
    """An invertible map with its log-det-Jacobians; subclasses implement `_forward`,
    `_inverse`, `_inverse_log_det_jacobian` and/or `_forward_log_det_jacobian`, and the
    event-shape hooks when they change the event shape."""

    def __init__(self, graph_parents: Optional[List[Tensor]] = None,
                 is_constant_jacobian: bool = False, validate_args: bool = False,
                 dtype: Any = None, forward_min_event_ndims: Optional[int] = None,
                 inverse_min_event_ndims: Optional[int] = None, name: Optional[str] = None):
        self._graph_parents = list(graph_parents or [])
        if forward_min_event_ndims is None and inverse_min_event_ndims is None:
            raise ValueError("Must specify at least one of `forward_min_event_ndims` and "
                             "`inverse_min_event_ndims`.")
        if forward_min_event_ndims is None:
            forward_min_event_ndims = inverse_min_event_ndims
        if inverse_min_event_ndims is None:
            inverse_min_event_ndims = forward_min_event_ndims
        for label, value in (("forward_min_event_ndims", forward_min_event_ndims),
                             ("inverse_min_event_ndims", inverse_min_event_ndims)):
            if not isinstance(value, int):
                raise TypeError(f"Expected int for {label}, got {value!r}.")
            if value < 0:
                raise ValueError(f"{label} must be a non-negative integer.")
        self._forward_min_event_ndims = forward_min_event_ndims
        self._inverse_min_event_ndims = inverse_min_event_ndims
        self._is_constant_jacobian = is_constant_jacobian
        self._validate_args = validate_args
        self._dtype = None if dtype is None else D.as_dtype(dtype)
        self._from_x: Dict[int, Dict[str, Any]] = {}
        self._from_y: Dict[int, Dict[str, Any]] = {}
        self._name = name or _camel_to_snake(type(self).__name__.lstrip("_"))
        for i, t in enumerate(self._graph_parents):
            if t is None or not is_tensor(t):
                raise ValueError(f"Graph parent item {i} is not a Tensor; {t}.")

    # -- properties -------------------------------------------------------------------------
    @property
    def graph_parents(self) -> List[Tensor]:
        return self._graph_parents

    @property
    def forward_min_event_ndims(self) -> int:
        return self._forward_min_event_ndims

    @property
    def inverse_min_event_ndims(self) -> int:
        return self._inverse_min_event_ndims

    @property
    def is_constant_jacobian(self) -> bool:
        return self._is_constant_jacobian

    @property
    def _is_injective(self) -> bool:
        return True

    @property
    def validate_args(self) -> bool:
        return self._validate_args

    @property
    def dtype(self) -> Optional[D.DType]:
        return self._dtype

    @property
    def name(self) -> str:
        return self._name

    # -- event shapes -------------------------------------------------------------------------
    def _forward_event_shape_tensor(self, input_shape: Tensor) -> Tensor:
        return input_shape

    def forward_event_shape_tensor(self, input_shape: Any,
                                   name: str = "forward_event_shape_tensor") -> Tensor:
        """The event shape (int32 vector) of forward's output for an input event shape."""
        with self._name_scope(name, [input_shape]):
            input_shape = convert_to_tensor(input_shape, dtype=D.int32, name="input_shape")
            return self._forward_event_shape_tensor(input_shape)

    def _forward_event_shape(self, input_shape: TensorShape) -> TensorShape:
        return input_shape

    def forward_event_shape(self, input_shape: Any) -> TensorShape:
        return self._forward_event_shape(as_shape(input_shape))

    def _inverse_event_shape_tensor(self, output_shape: Tensor) -> Tensor:
        return output_shape

    def inverse_event_shape_tensor(self, output_shape: Any,
                                   name: str = "inverse_event_shape_tensor") -> Tensor:
        """The event shape (int32 vector) of inverse's output for an output event shape."""
        with self._name_scope(name, [output_shape]):
            output_shape = convert_to_tensor(output_shape, dtype=D.int32, name="output_shape")
            return self._inverse_event_shape_tensor(output_shape)

    def _inverse_event_shape(self, output_shape: TensorShape) -> TensorShape:
        return output_shape

    def inverse_event_shape(self, output_shape: Any) -> TensorShape:
        return self._inverse_event_shape(as_shape(output_shape))

    # -- the map ------------------------------------------------------------------------------
    def _forward(self, x: Tensor) -> Tensor:
        raise NotImplementedError(f"forward not implemented: {type(self).__name__}")

    def forward(self, x: Any, name: str = "forward") -> Tensor:
        """Y = g(X)."""
        with self._name_scope(name, [x]):
            x = self._convert_input(x, "x")
            cached = self._from_x.get(id(x))
            if cached is not None and "y" in cached:
                return cached["y"]
            y = self._forward(x)
            self._remember(x=x, y=y)
            return y

    def _inverse(self, y: Tensor) -> Tensor:
        raise NotImplementedError(f"inverse not implemented: {type(self).__name__}")

    def inverse(self, y: Any, name: str = "inverse") -> Tensor:
        """X = g^{-1}(Y)."""
        with self._name_scope(name, [y]):
            y = self._convert_input(y, "y")
            cached = self._from_y.get(id(y))
            if cached is not None and "x" in cached:
                return cached["x"]
            x = self._inverse(y)
            self._remember(x=x, y=y)
            return x

    # -- log-det-Jacobians --------------------------------------------------------------------
    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        raise NotImplementedError(f"inverse_log_det_jacobian not implemented: "
                                  f"{type(self).__name__}")

    def inverse_log_det_jacobian(self, y: Any, event_ndims: Any,
                                 name: str = "inverse_log_det_jacobian") -> Tensor:
        """log |det d g^{-1}(y) / dy|, summed over the rightmost `event_ndims` dims."""
        with self._name_scope(name, [y]):
            event_ndims = self._check_event_ndims(event_ndims, self.inverse_min_event_ndims)
            y = self._convert_input(y, "y")
            try:
                ildj = self._inverse_log_det_jacobian(y)
            except NotImplementedError as original:
                try:
                    x = self.inverse(y)
                    ildj = -self._forward_log_det_jacobian(x)
                except NotImplementedError:
                    raise original from None
            return self._reduce_over_event(y, ildj, self.inverse_min_event_ndims, event_ndims)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        raise NotImplementedError(f"forward_log_det_jacobian not implemented: "
                                  f"{type(self).__name__}")

    def forward_log_det_jacobian(self, x: Any, event_ndims: Any,
                                 name: str = "forward_log_det_jacobian") -> Tensor:
        """log |det d g(x) / dx|, summed over the rightmost `event_ndims` dims."""
        if not self._is_injective:
            raise NotImplementedError("forward_log_det_jacobian cannot be implemented for "
                                      "non-injective transforms.")
        with self._name_scope(name, [x]):
            event_ndims = self._check_event_ndims(event_ndims, self.forward_min_event_ndims)
            x = self._convert_input(x, "x")
            try:
                fldj = self._forward_log_det_jacobian(x)
            except NotImplementedError as original:
                try:
                    y = self.forward(x)
                    fldj = -self._inverse_log_det_jacobian(y)
                except NotImplementedError:
                    raise original from None
            return self._reduce_over_event(x, fldj, self.forward_min_event_ndims, event_ndims)

    # -- helpers ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _name_scope(self, name: Optional[str] = None, values: Optional[list] = None
                    ) -> Iterator[str]:
        with name_scope(self.name):
            with name_scope(name, values=(values or []) + self.graph_parents) as scope:
                yield scope

    def _convert_input(self, value: Any, name: str) -> Tensor:
        value = convert_to_tensor(value, name=name, dtype_hint=self.dtype)
        if self.dtype is not None and value.dtype.base_dtype != self.dtype.base_dtype:
            raise TypeError(f"Input had dtype {value.dtype} but expected {self.dtype}.")
        return value

    def _remember(self, x: Tensor, y: Tensor) -> None:
        # Keyed by identity (the tensors are kept alive in the entry, so ids stay unique).
        entry = {"x": x, "y": y}
        self._from_x[id(x)] = entry
        self._from_y[id(y)] = entry

    @staticmethod
    def _check_event_ndims(event_ndims: Any, min_event_ndims: int) -> int:
        event_ndims = static_event_ndims(event_ndims)
        if event_ndims < min_event_ndims:
            raise ValueError(f"event_ndims ({event_ndims}) must be larger than or equal to "
                             f"min_event_ndims ({min_event_ndims}) ")
        return event_ndims

    @staticmethod
    def _reduce_over_event(value: Tensor, ldj: Tensor, min_event_ndims: int,
                           event_ndims: int) -> Tensor:
        """Sums a log-det-Jacobian computed per `min_event_ndims` event over the
        `event_ndims - min_event_ndims` dims left of it; a constant Jacobian is first
        tiled over those dims (so each element counts)."""
        reduce_ndims = event_ndims - min_event_ndims
        if reduce_ndims == 0:
            return ldj
        rank = value.shape.rank
        if rank is not None:
            shape = array_ops.shape(value)[rank - event_ndims:rank - min_event_ndims]
        else:
            full = array_ops.shape(value)
            r = array_ops.size(full)
            shape = full[r - event_ndims:r - min_event_ndims]
        tiled = ones(shape, dtype=ldj.dtype) * ldj
        return reduce_sum(tiled, axis=list(range(-reduce_ndims, 0)))
