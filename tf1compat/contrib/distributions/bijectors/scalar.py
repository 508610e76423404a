"""Elementwise bijectors of `tf.contrib.distributions.bijectors`: Identity, Exp,
PowerTransform, AffineScalar, Softplus, Sigmoid, Square, Softsign, Gumbel, and the
combinators Invert, Chain and Inline."""

from __future__ import annotations

from typing import Any, Callable, List, Optional

from tf1compat.contrib.distributions.bijectors.bijector import Bijector, static_event_ndims
from tf1compat.contrib.distributions.distribution_util import softplus_inverse
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, check_ops, math_ops, nn_ops
from tf1compat.ops.control_flow_ops import with_dependencies

__all__ = ["Identity", "Exp", "PowerTransform", "AffineScalar", "Softplus", "Sigmoid",
           "Square", "Softsign", "Gumbel", "Invert", "Chain", "Inline"]


class Identity(Bijector):
    """Y = X."""

    def __init__(self, validate_args: bool = False, name: str = "identity"):
        super().__init__(forward_min_event_ndims=0, is_constant_jacobian=True,
                         validate_args=validate_args, name=name)

    def _forward(self, x: Tensor) -> Tensor:
        return x

    def _inverse(self, y: Tensor) -> Tensor:
        return y

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return constant(0.0, dtype=y.dtype)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return constant(0.0, dtype=x.dtype)


class PowerTransform(Bijector):
    """Y = (1 + X c)^(1 / c) for power c > 0, Y = exp(X) for c = 0."""

    def __init__(self, power: float = 0.0, validate_args: bool = False,
                 name: str = "power_transform"):
        power = float(power)
        if power < 0:
            raise ValueError("`power` must be a non-negative TF constant.")
        self._power = power
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name)

    @property
    def power(self) -> float:
        return self._power

    def _forward(self, x: Tensor) -> Tensor:
        if self.power == 0.0:
            return math_ops.exp(x)
        return math_ops.exp(math_ops.log1p(x * self.power) / self.power)

    def _inverse(self, y: Tensor) -> Tensor:
        if self.power == 0.0:
            return math_ops.log(y)
        return math_ops.expm1(math_ops.log(y) * self.power) / self.power

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return (self.power - 1.0) * math_ops.log(y)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        if self.power == 0.0:
            return x
        return (1.0 / self.power - 1.0) * math_ops.log1p(x * self.power)


class Exp(PowerTransform):
    """Y = exp(X)."""

    def __init__(self, validate_args: bool = False, name: str = "exp"):
        super().__init__(power=0.0, validate_args=validate_args, name=name)


class AffineScalar(Bijector):
    """Y = scale * X + shift with scalar (or batch-of-scalar) shift and scale."""

    def __init__(self, shift: Any = None, scale: Any = None, validate_args: bool = False,
                 name: str = "affine_scalar"):
        with name_scope(name, values=[scale, shift]):
            self._shift = None if shift is None else convert_to_tensor(shift, name="shift")
            self._scale = None if scale is None else convert_to_tensor(scale, name="scale")
            if self._scale is not None and validate_args:
                self._scale = with_dependencies([check_ops.assert_none_equal(
                    self._scale, constant(0.0, dtype=self._scale.dtype))], self._scale)
        dtype = next((t.dtype for t in (self._shift, self._scale) if t is not None), None)
        super().__init__(forward_min_event_ndims=0, is_constant_jacobian=True,
                         validate_args=validate_args, dtype=dtype, name=name,
                         graph_parents=[t for t in (self._shift, self._scale)
                                        if t is not None])

    @property
    def shift(self) -> Optional[Tensor]:
        return self._shift

    @property
    def scale(self) -> Optional[Tensor]:
        return self._scale

    def _forward(self, x: Tensor) -> Tensor:
        y = array_ops.identity(x)
        if self.scale is not None:
            y = y * self.scale
        if self.shift is not None:
            y = y + self.shift
        return y

    def _inverse(self, y: Tensor) -> Tensor:
        x = array_ops.identity(y)
        if self.shift is not None:
            x = x - self.shift
        if self.scale is not None:
            x = x / self.scale
        return x

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        if self.scale is None:
            return constant(0.0, dtype=x.dtype.base_dtype)
        return math_ops.log(math_ops.abs(self.scale))


class Softplus(Bijector):
    """Y = c * log(1 + exp(X / c)) (c = `hinge_softness`, default 1)."""

    def __init__(self, hinge_softness: Any = None, validate_args: bool = False,
                 name: str = "softplus"):
        with name_scope(name, values=[hinge_softness]):
            self._hinge_softness = None if hinge_softness is None else \
                convert_to_tensor(hinge_softness, name="hinge_softness")
            if self._hinge_softness is not None and validate_args:
                self._hinge_softness = with_dependencies([check_ops.assert_none_equal(
                    self._hinge_softness, constant(0.0, dtype=self._hinge_softness.dtype),
                    message="hinge_softness must be non-zero")], self._hinge_softness)
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name)

    @property
    def hinge_softness(self) -> Optional[Tensor]:
        return self._hinge_softness

    def _forward(self, x: Tensor) -> Tensor:
        if self.hinge_softness is None:
            return nn_ops.softplus(x)
        c = math_ops.cast(self.hinge_softness, x.dtype)
        return c * nn_ops.softplus(x / c)

    def _inverse(self, y: Tensor) -> Tensor:
        if self.hinge_softness is None:
            return softplus_inverse(y)
        c = math_ops.cast(self.hinge_softness, y.dtype)
        return c * softplus_inverse(y / c)

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        if self.hinge_softness is not None:
            y = y / math_ops.cast(self.hinge_softness, y.dtype)
        return -math_ops.log(-math_ops.expm1(-y))

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        if self.hinge_softness is not None:
            x = x / math_ops.cast(self.hinge_softness, x.dtype)
        return -nn_ops.softplus(-x)


class Sigmoid(Bijector):
    """Y = 1 / (1 + exp(-X))."""

    def __init__(self, validate_args: bool = False, name: str = "sigmoid"):
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name)

    def _forward(self, x: Tensor) -> Tensor:
        return math_ops.sigmoid(x)

    def _inverse(self, y: Tensor) -> Tensor:
        return math_ops.log(y) - math_ops.log1p(-y)

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return -math_ops.log(y) - math_ops.log1p(-y)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return -nn_ops.softplus(-x) - nn_ops.softplus(x)


class Square(Bijector):
    """Y = X^2 on X >= 0."""

    def __init__(self, validate_args: bool = False, name: str = "square"):
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name)

    def _forward(self, x: Tensor) -> Tensor:
        return math_ops.square(self._checked(x))

    def _inverse(self, y: Tensor) -> Tensor:
        return math_ops.sqrt(self._checked(y))

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return 0.6931471805599453 + math_ops.log(math_ops.abs(self._checked(x)))

    def _checked(self, x: Tensor) -> Tensor:
        if not self.validate_args:
            return x
        return with_dependencies([check_ops.assert_non_negative(
            x, message="All elements must be non-negative.")], x)


class Softsign(Bijector):
    """Y = X / (1 + |X|)."""

    def __init__(self, validate_args: bool = False, name: str = "softsign"):
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name)

    def _forward(self, x: Tensor) -> Tensor:
        return x / (1.0 + math_ops.abs(x))

    def _inverse(self, y: Tensor) -> Tensor:
        return y / (1.0 - math_ops.abs(y))

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return -2.0 * math_ops.log1p(math_ops.abs(x))

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return -2.0 * math_ops.log1p(-math_ops.abs(y))


class _LocScaleBijector(Bijector):
    """Construction of a two-parameter bijector: both under its name scope, the second
    checked positive under validate_args."""

    def _init_params(self, name: str, first: str, a: Any, second: str, b: Any,
                     validate_args: bool) -> None:
        with name_scope(name, values=[a, b]):
            a = convert_to_tensor(a, name=first)
            b = convert_to_tensor(b, name=second, dtype=a.dtype)
            if validate_args:
                b = with_dependencies([check_ops.assert_positive(
                    b, message=f"Argument {second} was not positive")], b)
        setattr(self, "_" + first, a)
        setattr(self, "_" + second, b)
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name,
                         graph_parents=[a, b])


class Gumbel(_LocScaleBijector):
    """Y = exp(-exp(-(X - loc) / scale)), the Gumbel CDF."""

    def __init__(self, loc: Any = 0.0, scale: Any = 1.0, validate_args: bool = False,
                 name: str = "gumbel"):
        self._init_params(name, "loc", loc, "scale", scale, validate_args)

    @property
    def loc(self) -> Tensor:
        return self._loc

    @property
    def scale(self) -> Tensor:
        return self._scale

    def _forward(self, x: Tensor) -> Tensor:
        return math_ops.exp(-math_ops.exp(-(x - self.loc) / self.scale))

    def _inverse(self, y: Tensor) -> Tensor:
        return self.loc - self.scale * math_ops.log(-math_ops.log(y))

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return math_ops.log(self.scale / (-math_ops.log(y) * y))

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        z = (x - self.loc) / self.scale
        return -z - math_ops.exp(-z) - math_ops.log(self.scale)


class Invert(Bijector):
    """The inverse of another bijector (forward and inverse swapped)."""

    def __init__(self, bijector: Bijector, validate_args: bool = False,
                 name: Optional[str] = None):
        if not bijector._is_injective:
            raise NotImplementedError("Invert is not implemented for non-injective "
                                      "bijectors.")
        self._bijector = bijector
        super().__init__(graph_parents=bijector.graph_parents,
                         forward_min_event_ndims=bijector.inverse_min_event_ndims,
                         inverse_min_event_ndims=bijector.forward_min_event_ndims,
                         is_constant_jacobian=bijector.is_constant_jacobian,
                         validate_args=validate_args, dtype=bijector.dtype,
                         name=name or "_".join(["invert", bijector.name]))

    @property
    def bijector(self) -> Bijector:
        return self._bijector

    def _forward_event_shape_tensor(self, input_shape: Tensor) -> Tensor:
        return self.bijector._inverse_event_shape_tensor(input_shape)

    def _forward_event_shape(self, input_shape: Any) -> Any:
        return self.bijector.inverse_event_shape(input_shape)

    def _inverse_event_shape_tensor(self, output_shape: Tensor) -> Tensor:
        return self.bijector._forward_event_shape_tensor(output_shape)

    def _inverse_event_shape(self, output_shape: Any) -> Any:
        return self.bijector.forward_event_shape(output_shape)

    def _forward(self, x: Tensor) -> Tensor:
        return self.bijector.inverse(x)

    def _inverse(self, y: Tensor) -> Tensor:
        return self.bijector.forward(y)

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return self.bijector.forward_log_det_jacobian(
            y, event_ndims=self.bijector.forward_min_event_ndims)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return self.bijector.inverse_log_det_jacobian(
            x, event_ndims=self.bijector.inverse_min_event_ndims)


def _chain_min_event_ndims(bijectors: List[Bijector], forward: bool) -> int:
    """The smallest event rank every link of a chain can act on (TF's rule: a link that
    needs more dims than the ones before provide raises the minimum; rank changes shift
    what later links see)."""
    minimum, adjusted_max = 0, 0
    for b in (reversed(bijectors) if forward else bijectors):
        current = b.forward_min_event_ndims if forward else b.inverse_min_event_ndims
        other = b.inverse_min_event_ndims if forward else b.forward_min_event_ndims
        if adjusted_max < current:
            minimum += current - adjusted_max
        adjusted_max = max(current, adjusted_max) - (current - other)
    return minimum


class Chain(Bijector):
    """The composition of bijectors: forward applies the last one first."""

    def __init__(self, bijectors: Any = None, validate_args: bool = False,
                 name: Optional[str] = None):
        bijectors = list(bijectors or [])
        for b in bijectors:
            if not b._is_injective:
                raise NotImplementedError("Invert is not implemented for non-injective "
                                          "bijectors.")
        dtypes = {b.dtype for b in bijectors if b.dtype is not None}
        if len(dtypes) > 1:
            raise ValueError(f"incompatible dtypes: {sorted(d.name for d in dtypes)}")
        self._bijectors = bijectors
        parents = [t for b in bijectors for t in b.graph_parents]
        super().__init__(graph_parents=parents,
                         forward_min_event_ndims=_chain_min_event_ndims(bijectors, True),
                         inverse_min_event_ndims=_chain_min_event_ndims(bijectors, False),
                         is_constant_jacobian=all(b.is_constant_jacobian for b in bijectors),
                         validate_args=validate_args,
                         dtype=next(iter(dtypes)) if dtypes else None,
                         name=name or ("identity" if not bijectors else
                                       "_of_".join(["chain"] + [b.name for b in bijectors])))

    @property
    def bijectors(self) -> List[Bijector]:
        return self._bijectors

    def _forward_event_shape(self, input_shape: Any) -> Any:
        for b in reversed(self.bijectors):
            input_shape = b.forward_event_shape(input_shape)
        return input_shape

    def _forward_event_shape_tensor(self, input_shape: Tensor) -> Tensor:
        for b in reversed(self.bijectors):
            input_shape = b.forward_event_shape_tensor(input_shape)
        return input_shape

    def _inverse_event_shape(self, output_shape: Any) -> Any:
        for b in self.bijectors:
            output_shape = b.inverse_event_shape(output_shape)
        return output_shape

    def _inverse_event_shape_tensor(self, output_shape: Tensor) -> Tensor:
        for b in self.bijectors:
            output_shape = b.inverse_event_shape_tensor(output_shape)
        return output_shape

    def _forward(self, x: Tensor) -> Tensor:
        for b in reversed(self.bijectors):
            x = b.forward(x)
        return x

    def _inverse(self, y: Tensor) -> Tensor:
        for b in self.bijectors:
            y = b.inverse(y)
        return y

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        ildj = math_ops.cast(0.0, y.dtype.base_dtype)
        event_ndims = self.inverse_min_event_ndims
        for b in self.bijectors:
            ildj = ildj + b.inverse_log_det_jacobian(y, event_ndims=event_ndims)
            event_ndims = self._next_event_ndims(b.inverse_event_shape, y, event_ndims)
            y = b.inverse(y)
        return ildj

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        fldj = math_ops.cast(0.0, x.dtype.base_dtype)
        event_ndims = self.forward_min_event_ndims
        for b in reversed(self.bijectors):
            fldj = fldj + b.forward_log_det_jacobian(x, event_ndims=event_ndims)
            event_ndims = self._next_event_ndims(b.forward_event_shape, x, event_ndims)
            x = b.forward(x)
        return fldj

    @staticmethod
    def _next_event_ndims(event_shape_fn: Callable[[Any], Any], value: Tensor,
                          event_ndims: int) -> int:
        rank = value.shape.rank
        if rank is None:
            raise NotImplementedError("Chain over a tensor of unknown rank is not supported "
                                      "by tf1compat")
        shape = event_shape_fn(value.shape[rank - event_ndims:])
        return static_event_ndims(shape.rank)


class Inline(Bijector):
    """A bijector from user functions (forward_fn, inverse_fn, log-det-Jacobian fns)."""

    def __init__(self, forward_fn: Optional[Callable] = None,
                 inverse_fn: Optional[Callable] = None,
                 inverse_log_det_jacobian_fn: Optional[Callable] = None,
                 forward_log_det_jacobian_fn: Optional[Callable] = None,
                 forward_event_shape_fn: Optional[Callable] = None,
                 forward_event_shape_tensor_fn: Optional[Callable] = None,
                 inverse_event_shape_fn: Optional[Callable] = None,
                 inverse_event_shape_tensor_fn: Optional[Callable] = None,
                 is_constant_jacobian: bool = False, validate_args: bool = False,
                 forward_min_event_ndims: Optional[int] = None,
                 inverse_min_event_ndims: Optional[int] = None, name: str = "inline"):
        super().__init__(forward_min_event_ndims=forward_min_event_ndims,
                         inverse_min_event_ndims=inverse_min_event_ndims,
                         is_constant_jacobian=is_constant_jacobian,
                         validate_args=validate_args, name=name)
        self._fns = dict(forward=forward_fn, inverse=inverse_fn,
                         ildj=inverse_log_det_jacobian_fn, fldj=forward_log_det_jacobian_fn,
                         fshape=forward_event_shape_fn,
                         fshape_tensor=forward_event_shape_tensor_fn,
                         ishape=inverse_event_shape_fn,
                         ishape_tensor=inverse_event_shape_tensor_fn)

    def _call(self, key: str, what: str, *args: Any) -> Any:
        fn = self._fns[key]
        if fn is None:
            raise NotImplementedError(f"{what} not implemented: {type(self).__name__}")
        return fn(*args)

    def _forward(self, x: Tensor) -> Tensor:
        return self._call("forward", "forward", x)

    def _inverse(self, y: Tensor) -> Tensor:
        return self._call("inverse", "inverse", y)

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return self._call("ildj", "inverse_log_det_jacobian", y)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return self._call("fldj", "forward_log_det_jacobian", x)

    def _forward_event_shape(self, input_shape: Any) -> Any:
        fn = self._fns["fshape"]
        return input_shape if fn is None else fn(input_shape)

    def _forward_event_shape_tensor(self, input_shape: Tensor) -> Tensor:
        fn = self._fns["fshape_tensor"]
        return input_shape if fn is None else fn(input_shape)

    def _inverse_event_shape(self, output_shape: Any) -> Any:
        fn = self._fns["ishape"]
        return output_shape if fn is None else fn(output_shape)

    def _inverse_event_shape_tensor(self, output_shape: Tensor) -> Tensor:
        fn = self._fns["ishape_tensor"]
        return output_shape if fn is None else fn(output_shape)
