"""More bijectors of `tf.contrib.distributions.bijectors`: SoftmaxCentered,
CholeskyOuterProduct, Ordered, MatrixInverseTriL, Kumaraswamy and SinhArcsinh."""

from __future__ import annotations

from typing import Any

import numpy as np

from tf1compat.contrib.distributions.bijectors.bijector import Bijector
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.ops import array_ops, check_ops, math_ops, nn_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import zeros
from tf1compat.ops.indexing_ops import where_v2
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.matrix_ops import (cholesky, eye, matrix_band_part, matrix_diag_part,
                                      matrix_triangular_solve)
from tf1compat.ops.reduction_ops import cumsum, reduce_logsumexp, reduce_sum

__all__ = ["SoftmaxCentered", "CholeskyOuterProduct", "Ordered", "MatrixInverseTriL",
           "Kumaraswamy", "SinhArcsinh"]


def _resize_last(shape: TensorShape, delta: int) -> TensorShape:
    shape = shape.with_rank_at_least(1)
    size = dimension_value(shape[-1])
    return shape[:-1].concatenate([None if size is None else size + delta])


class SoftmaxCentered(Bijector):
    """R^k to the (k + 1)-simplex: softmax of x with a zero appended."""

    def __init__(self, validate_args: bool = False, name: str = "softmax_centered"):
        super().__init__(forward_min_event_ndims=1, validate_args=validate_args, name=name)

    def _forward_event_shape(self, input_shape: TensorShape) -> TensorShape:
        return _resize_last(input_shape, 1)

    def _forward_event_shape_tensor(self, input_shape: Tensor) -> Tensor:
        return array_ops.concat([input_shape[:-1], input_shape[-1:] + 1], 0)

    def _inverse_event_shape(self, output_shape: TensorShape) -> TensorShape:
        return _resize_last(output_shape, -1)

    def _inverse_event_shape_tensor(self, output_shape: Tensor) -> Tensor:
        return array_ops.concat([output_shape[:-1], output_shape[-1:] - 1], 0)

    def _forward(self, x: Tensor) -> Tensor:
        pad = zeros(array_ops.concat([array_ops.shape(x)[:-1], [1]], 0), dtype=x.dtype)
        return nn_ops.softmax(array_ops.concat([x, pad], axis=-1))

    def _inverse(self, y: Tensor) -> Tensor:
        # x[i] = log(y[i]) - log(y[end]).
        x = math_ops.log(y)
        return x[..., :-1] + (-x[..., -1])[..., None]

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        # det(dX/dY) = 1 / prod(y) over the k + 1 outputs.
        return -reduce_sum(math_ops.log(y), axis=-1)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        # log_softmax with the implicit zero column: log normalization = softplus(lse(x)).
        log_normalization = nn_ops.softplus(reduce_logsumexp(x, axis=-1, keepdims=True))
        return array_ops.squeeze(-log_normalization + reduce_sum(
            x - log_normalization, axis=-1, keepdims=True), axis=-1)


class CholeskyOuterProduct(Bijector):
    """Lower-triangular X (positive diagonal) to the positive-definite X X^T."""

    def __init__(self, validate_args: bool = False, name: str = "cholesky_outer_product"):
        super().__init__(forward_min_event_ndims=2, validate_args=validate_args, name=name)

    def _forward(self, x: Tensor) -> Tensor:
        if self.validate_args:
            x = with_dependencies([check_ops.assert_positive(
                matrix_diag_part(x), message="diagonal part must be positive")], x)
        x = matrix_band_part(x, -1, 0)
        return matmul(x, x, adjoint_b=True)

    def _inverse(self, y: Tensor) -> Tensor:
        return cholesky(y)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        # log|dY/dX| = p log 2 + sum_i (p - i) log x_ii (i from 0).
        diag = matrix_diag_part(x)
        p = dimension_value(x.shape.with_rank_at_least(2)[-1])
        if p is None:
            raise NotImplementedError("CholeskyOuterProduct with an unknown matrix size is "
                                      "not supported by tf1compat")
        exponents = constant(np.linspace(p, 1.0, p), dtype=x.dtype)
        return p * np.log(2.0) + reduce_sum(math_ops.log(diag) * exponents, axis=-1)


class Ordered(Bijector):
    """Ascending vectors to R^k: y[0] = x[0], y[i] = log(x[i] - x[i - 1])."""

    def __init__(self, validate_args: bool = False, name: str = "ordered"):
        super().__init__(forward_min_event_ndims=1, validate_args=validate_args, name=name)

    def _forward(self, x: Tensor) -> Tensor:
        if self.validate_args:
            x = with_dependencies([check_ops.assert_positive(
                x[..., 1:] - x[..., :-1], message="Forward transformation input must be "
                "strictly increasing.")], x)
        return array_ops.concat([x[..., :1], math_ops.log(x[..., 1:] - x[..., :-1])], axis=-1)

    def _inverse(self, y: Tensor) -> Tensor:
        return cumsum(array_ops.concat([y[..., :1], math_ops.exp(y[..., 1:])], axis=-1),
                      axis=-1)

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return reduce_sum(y[..., 1:], axis=-1)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return -reduce_sum(math_ops.log(x[..., 1:] - x[..., :-1]), axis=-1)


class MatrixInverseTriL(Bijector):
    """The inverse of lower-triangular matrices (its own inverse)."""

    def __init__(self, validate_args: bool = False, name: str = "matrix_inverse_tril"):
        super().__init__(forward_min_event_ndims=2, validate_args=validate_args, name=name)

    def _invert(self, x: Tensor) -> Tensor:
        if self.validate_args:
            x = with_dependencies([check_ops.assert_none_equal(
                matrix_diag_part(x), constant(0.0, dtype=x.dtype),
                message="Input must have all diagonal entries nonzero.")], x)
        n = array_ops.shape(x)[-1]
        identity = eye(n, batch_shape=array_ops.shape(x)[:-2], dtype=x.dtype)
        return matrix_triangular_solve(matrix_band_part(x, -1, 0), identity, lower=True)

    def _forward(self, x: Tensor) -> Tensor:
        return self._invert(x)

    def _inverse(self, y: Tensor) -> Tensor:
        return self._invert(y)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        # TF 1.x's -2 n sum(log|x_ii|) (the dense n x n matrix's Jacobian).
        n = math_ops.cast(array_ops.shape(x)[-1], x.dtype.base_dtype)
        return -2.0 * n * reduce_sum(math_ops.log(math_ops.abs(matrix_diag_part(x))),
                                     axis=-1)


class _TwoParams(Bijector):
    """A scalar bijector of two parameters (converted to one dtype under its name scope)."""
    def _init_two(self, name: str, names: Any, values: Any, validate_args: bool,
                  positive: bool = False) -> None:
        with name_scope(name, values=list(values)):
            first = convert_to_tensor(values[0], name=names[0])
            second = convert_to_tensor(values[1], name=names[1], dtype=first.dtype)
            if validate_args and positive:
                first = with_dependencies([check_ops.assert_positive(
                    first, message=f"Argument {names[0]} must be positive.")], first)
                second = with_dependencies([check_ops.assert_positive(
                    second, message=f"Argument {names[1]} must be positive.")], second)
        setattr(self, "_" + names[0], first)
        setattr(self, "_" + names[1], second)
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name,
                         graph_parents=[first, second])


class Kumaraswamy(_TwoParams):
    """Y = (1 - (1 - X)^(1 / concentration0))^(1 / concentration1) on [0, 1] (the inverse
    of the Kumaraswamy CDF)."""

    def __init__(self, concentration1: Any = None, concentration0: Any = None,
                 validate_args: bool = False, name: str = "kumaraswamy"):
        self._init_two(name, ("concentration1", "concentration0"),
                       (1.0 if concentration1 is None else concentration1,
                        1.0 if concentration0 is None else concentration0),
                       validate_args, positive=True)

    @property
    def concentration1(self) -> Tensor:
        return self._concentration1

    @property
    def concentration0(self) -> Tensor:
        return self._concentration0

    def _forward(self, x: Tensor) -> Tensor:
        return math_ops.exp(math_ops.log1p(-math_ops.exp(
            math_ops.log1p(-x) / self.concentration0)) / self.concentration1)

    def _inverse(self, y: Tensor) -> Tensor:
        return -math_ops.expm1(self.concentration0 * math_ops.log1p(
            -(y ** self.concentration1)))

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        a, b = self.concentration1, self.concentration0
        return (math_ops.log(a) + math_ops.log(b) + (a - 1.0) * math_ops.log(y)
                + (b - 1.0) * math_ops.log1p(-(y ** a)))


def _sqrtx2p1(x: Tensor) -> Tensor:
    """sqrt(x^2 + 1), |x| where x^2 would overflow the precision."""
    sqrt_eps = np.sqrt(np.finfo(x.dtype.as_numpy_dtype).eps)
    return where_v2(math_ops.abs(x) * sqrt_eps <= 1.0, math_ops.sqrt(x ** 2 + 1.0),
                    math_ops.abs(x))


class SinhArcsinh(_TwoParams):
    """Y = sinh((arcsinh(X) + skewness) * tailweight)."""

    def __init__(self, skewness: Any = None, tailweight: Any = None,
                 validate_args: bool = False, name: str = "SinhArcsinh"):
        self._init_two(name, ("skewness", "tailweight"),
                       (0.0 if skewness is None else skewness,
                        1.0 if tailweight is None else tailweight), validate_args)

    @property
    def skewness(self) -> Tensor:
        return self._skewness

    @property
    def tailweight(self) -> Tensor:
        return self._tailweight

    def _forward(self, x: Tensor) -> Tensor:
        return math_ops.sinh((math_ops.asinh(x) + self.skewness) * self.tailweight)

    def _inverse(self, y: Tensor) -> Tensor:
        return math_ops.sinh(math_ops.asinh(y) / self.tailweight - self.skewness)

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return (math_ops.log(math_ops.cosh(math_ops.asinh(y) / self.tailweight - self.skewness)
                             / _sqrtx2p1(y)) - math_ops.log(self.tailweight))

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return math_ops.log(math_ops.cosh((math_ops.asinh(x) + self.skewness)
                                          * self.tailweight) * self.tailweight / _sqrtx2p1(x))
