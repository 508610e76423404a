"""Bijectors acting on vectors and matrices: Affine, AffineLinearOperator, FillTriangular,
TransformDiagonal, ScaleTriL, Reshape, Permute; and the scale-operator builders
(`make_tril_scale`, `make_diag_scale`) the multivariate normals share with Affine."""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from tf1compat.contrib.distributions.bijectors.bijector import Bijector
from tf1compat.contrib.distributions.bijectors.scalar import AffineScalar, Chain, Softplus
from tf1compat.contrib.distributions.distribution_util import (fill_triangular,
                                                               fill_triangular_inverse)
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape, dimension_value
from tf1compat.linalg.linear_operator import LinearOperator, LinearOperatorDiag
from tf1compat.linalg.linear_operator_identity import (LinearOperatorIdentity,
                                                       LinearOperatorScaledIdentity)
from tf1compat.linalg.linear_operator_structured import (LinearOperatorLowerTriangular,
                                                         LinearOperatorLowRankUpdate)
from tf1compat.ops import array_ops, check_ops, math_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import zeros_like
from tf1compat.ops.indexing_ops import gather
from tf1compat.ops.matrix_ops import matrix_band_part, matrix_diag_part, matrix_set_diag
from tf1compat.ops.sort_ops import argsort
from tf1compat.ops.transform_ops import broadcast_to, transpose

__all__ = ["Affine", "AffineLinearOperator", "FillTriangular", "TransformDiagonal",
           "ScaleTriL", "Reshape", "Permute", "make_tril_scale", "make_diag_scale"]


def _checked_diag(diag: Tensor, validate_args: bool, assert_positive: bool) -> Tensor:
    checks = []
    if validate_args:
        checks.append(check_ops.assert_none_equal(diag, zeros_like(diag),
                                                  message="diagonal part must be non-zero"))
    if assert_positive:
        checks.append(check_ops.assert_positive(diag, message="diagonal part must be positive"))
    return with_dependencies(checks, diag) if checks else diag


def make_diag_scale(loc: Optional[Tensor] = None, scale_diag: Any = None,
                    scale_identity_multiplier: Any = None, shape_hint: Any = None,
                    validate_args: bool = False, assert_positive: bool = False,
                    dtype: Any = None) -> LinearOperator:
    """A diagonal scale operator: Diag(scale_diag + multiplier), else ScaledIdentity or
    Identity of `loc`'s (or `shape_hint`'s) size."""
    if scale_diag is not None:
        scale_diag = convert_to_tensor(scale_diag, name="scale_diag")
        if scale_identity_multiplier is not None:
            multiplier = convert_to_tensor(scale_identity_multiplier,
                                           name="scale_identity_multiplier")
            scale_diag = scale_diag + multiplier[..., None]
        return LinearOperatorDiag(_checked_diag(scale_diag, validate_args, assert_positive),
                                  is_non_singular=True, is_self_adjoint=True,
                                  is_positive_definite=assert_positive)
    if loc is None and shape_hint is None:
        raise ValueError("Cannot infer `event_shape` unless `loc` or `shape_hint` is "
                         "specified.")
    num_rows = shape_hint
    if num_rows is None:
        num_rows = dimension_value(loc.shape[-1])
        if num_rows is None:
            num_rows = array_ops.shape(loc)[-1]
    if scale_identity_multiplier is None:
        return LinearOperatorIdentity(num_rows=num_rows, dtype=dtype, is_self_adjoint=True,
                                      is_positive_definite=True,
                                      assert_proper_shapes=validate_args)
    multiplier = convert_to_tensor(scale_identity_multiplier, name="scale_identity_multiplier")
    return LinearOperatorScaledIdentity(
        num_rows=num_rows, multiplier=_checked_diag(multiplier, validate_args, assert_positive),
        is_non_singular=True, is_self_adjoint=True, is_positive_definite=assert_positive,
        assert_proper_shapes=validate_args)


def make_tril_scale(loc: Optional[Tensor] = None, scale_tril: Any = None,
                    scale_diag: Any = None, scale_identity_multiplier: Any = None,
                    shape_hint: Any = None, validate_args: bool = False,
                    assert_positive: bool = False) -> LinearOperator:
    """A lower-triangular scale operator (tril's lower triangle, its diagonal plus
    scale_diag and the multiplier), else `make_diag_scale`."""
    if scale_tril is None:
        return make_diag_scale(loc=loc, scale_diag=scale_diag,
                               scale_identity_multiplier=scale_identity_multiplier,
                               shape_hint=shape_hint, validate_args=validate_args,
                               assert_positive=assert_positive)
    tril = matrix_band_part(convert_to_tensor(scale_tril, name="scale_tril"), -1, 0)
    diag = matrix_diag_part(tril)
    if scale_diag is not None:
        diag = diag + scale_diag
    if scale_identity_multiplier is not None:
        diag = diag + convert_to_tensor(scale_identity_multiplier)[..., None]
    tril = matrix_set_diag(tril, _checked_diag(diag, validate_args, assert_positive))
    return LinearOperatorLowerTriangular(tril=tril, is_non_singular=True,
                                         is_self_adjoint=False,
                                         is_positive_definite=assert_positive)


class AffineLinearOperator(Bijector):
    """Y = scale @ X + shift with `scale` a LinearOperator."""

    def __init__(self, shift: Any = None, scale: Optional[LinearOperator] = None,
                 adjoint: bool = False, validate_args: bool = False,
                 name: str = "affine_linear_operator"):
        self._name = name
        parents: List[Tensor] = []
        dtype = D.float32
        with name_scope(name):
            with name_scope("init", values=[shift]):
                if shift is not None:
                    shift = convert_to_tensor(shift, name="shift")
                    parents.append(shift)
                    dtype = shift.dtype.base_dtype
                if scale is not None:
                    if shift is not None and shift.dtype.base_dtype != scale.dtype.base_dtype:
                        raise TypeError(f"shift.dtype({shift.dtype}) is incompatible with "
                                        f"scale.dtype({scale.dtype}).")
                    if not isinstance(scale, LinearOperator):
                        raise TypeError("scale is not an instance of tf.LinearOperator")
                    if validate_args and not scale.is_non_singular:
                        raise ValueError("Scale matrix must be non-singular.")
                    parents.extend(scale.graph_parents)
                    dtype = scale.dtype.base_dtype if scale.dtype is not None else dtype
        self._shift, self._scale, self._adjoint = shift, scale, adjoint
        super().__init__(forward_min_event_ndims=1, graph_parents=parents,
                         is_constant_jacobian=True, dtype=dtype, validate_args=validate_args,
                         name=name)

    @property
    def shift(self) -> Optional[Tensor]:
        return self._shift

    @property
    def scale(self) -> Optional[LinearOperator]:
        return self._scale

    @property
    def adjoint(self) -> bool:
        return self._adjoint

    def _forward(self, x: Tensor) -> Tensor:
        y = x
        if self.scale is not None:
            y = self.scale.matvec(y, adjoint=self.adjoint)
        if self.shift is not None:
            y = y + self.shift
        return y

    def _inverse(self, y: Tensor) -> Tensor:
        x = y
        if self.shift is not None:
            x = x - self.shift
        if self.scale is not None:
            x = _solvevec(self.scale, x, self.adjoint)
        return x

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        if self.scale is None:
            return constant(0.0, dtype=x.dtype.base_dtype)
        return self.scale.log_abs_determinant()


def _solvevec(scale: LinearOperator, rhs: Tensor, adjoint: bool) -> Tensor:
    """scale^{-1} rhs for rhs with sample dims left of scale's batch dims: as TF, the
    sample dims are moved to the right (columns of one matrix) and back."""
    batch_rank, rank = scale.batch_shape.rank, rhs.shape.rank
    if batch_rank is None or rank is None:
        raise NotImplementedError("AffineLinearOperator.inverse with unknown ranks is not "
                                  "supported by tf1compat")
    sample_rank = rank - 1 - batch_rank
    if sample_rank <= 0:
        return scale.solvevec(rhs, adjoint=adjoint)
    batch = scale.batch_shape_tensor()
    full = array_ops.concat([array_ops.shape(rhs)[:sample_rank], batch,
                             array_ops.shape(rhs)[-1:]], 0)
    rhs = broadcast_to(rhs, full)
    perm = list(range(sample_rank, rank)) + list(range(sample_rank))
    moved = transpose(rhs, perm)                               # [B..., k, S...]
    moved_shape = array_ops.shape(moved)
    matrix = array_ops.reshape(moved, array_ops.concat([moved_shape[:batch_rank + 1], [-1]], 0))
    solved = array_ops.reshape(scale.solve(matrix, adjoint=adjoint), moved_shape)
    inverse_perm = list(np.argsort(perm))
    return transpose(solved, inverse_perm)


class Affine(Bijector):
    """Y = scale @ X + shift, scale = c I + diag(d) + tril(L) + U diag(v) U^T built from the
    arguments given (only a multiplier: a scalar multiply)."""

    def __init__(self, shift: Any = None, scale_identity_multiplier: Any = None,
                 scale_diag: Any = None, scale_tril: Any = None,
                 scale_perturb_factor: Any = None, scale_perturb_diag: Any = None,
                 adjoint: bool = False, validate_args: bool = False, name: str = "affine",
                 dtype: Any = None):
        self._is_only_identity_multiplier = all(
            arg is None for arg in (scale_tril, scale_perturb_factor, scale_diag))
        if scale_perturb_factor is None and scale_perturb_diag is not None:
            raise ValueError("When scale_perturb_diag is specified, scale_perturb_factor must "
                             "be specified.")
        self._adjoint = adjoint
        parents: List[Tensor] = []
        with name_scope(name):
            with name_scope("init", values=[shift, scale_identity_multiplier, scale_diag,
                                            scale_tril, scale_perturb_diag,
                                            scale_perturb_factor]):
                dtype = D.as_dtype(dtype) if dtype is not None else D.float32
                if shift is not None:
                    shift = convert_to_tensor(shift, name="shift", dtype_hint=dtype)
                    dtype = shift.dtype.base_dtype
                    parents.append(shift)
                if self._is_only_identity_multiplier:
                    multiplier = convert_to_tensor(
                        1.0 if scale_identity_multiplier is None else scale_identity_multiplier,
                        name="identity_multiplier", dtype=dtype)
                    if validate_args:
                        multiplier = with_dependencies([check_ops.assert_none_equal(
                            multiplier, constant(0.0, dtype=multiplier.dtype),
                            message="identity_multiplier should be non-zero.")], multiplier)
                    scale: Any = multiplier
                    parents.append(multiplier)
                else:
                    shape_hint = None
                    if scale_perturb_factor is not None:
                        scale_perturb_factor = convert_to_tensor(scale_perturb_factor,
                                                                 name="perturb_factor")
                        shape_hint = dimension_value(scale_perturb_factor.shape[-2])
                        if shape_hint is None:
                            shape_hint = array_ops.shape(scale_perturb_factor)[-2]
                    scale = make_tril_scale(loc=shift, scale_tril=scale_tril,
                                            scale_diag=scale_diag,
                                            scale_identity_multiplier=scale_identity_multiplier,
                                            shape_hint=shape_hint, validate_args=validate_args)
                    if scale_perturb_factor is not None:
                        scale = LinearOperatorLowRankUpdate(
                            scale, u=scale_perturb_factor, diag_update=scale_perturb_diag,
                            is_diag_update_positive=scale_perturb_diag is None,
                            is_non_singular=True, is_self_adjoint=False,
                            is_positive_definite=False, is_square=True)
                    if shift is not None and shift.dtype.base_dtype != scale.dtype.base_dtype:
                        raise TypeError(f"shift.dtype({shift.dtype}) is incompatible with "
                                        f"scale.dtype({scale.dtype}).")
                    dtype = scale.dtype.base_dtype
                    parents.extend(scale.graph_parents)
        self._shift, self._scale = shift, scale
        super().__init__(forward_min_event_ndims=1, graph_parents=parents,
                         is_constant_jacobian=True, dtype=dtype, validate_args=validate_args,
                         name=name)

    @property
    def shift(self) -> Optional[Tensor]:
        return self._shift

    @property
    def scale(self) -> Any:
        """The LinearOperator (a scalar tensor when only a multiplier was given)."""
        return self._scale

    @property
    def adjoint(self) -> bool:
        return self._adjoint

    def _forward(self, x: Tensor) -> Tensor:
        if self._is_only_identity_multiplier:
            y = x * self._scale
        else:
            y = self._scale.matvec(x, adjoint=self.adjoint)
        return y if self.shift is None else y + self.shift

    def _inverse(self, y: Tensor) -> Tensor:
        x = y if self.shift is None else y - self.shift
        if self._is_only_identity_multiplier:
            return x / self._scale
        return _solvevec(self._scale, x, self.adjoint)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        if self._is_only_identity_multiplier:
            event_size = math_ops.cast(array_ops.shape(x)[-1], self._scale.dtype)
            return math_ops.log(math_ops.abs(self._scale)) * event_size
        return self._scale.log_abs_determinant()


class FillTriangular(Bijector):
    """Vectors of n (n + 1) / 2 values to n x n triangular matrices (`fill_triangular`)."""

    def __init__(self, upper: bool = False, validate_args: bool = False,
                 name: str = "fill_triangular"):
        self._upper = upper
        super().__init__(forward_min_event_ndims=1, inverse_min_event_ndims=2,
                         is_constant_jacobian=True, validate_args=validate_args, name=name)

    def _forward(self, x: Tensor) -> Tensor:
        return fill_triangular(x, upper=self._upper)

    def _inverse(self, y: Tensor) -> Tensor:
        return fill_triangular_inverse(y, upper=self._upper)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return zeros_like(x[..., 0])

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return zeros_like(y[..., 0, 0])

    def _forward_event_shape(self, input_shape: TensorShape) -> TensorShape:
        m = dimension_value(input_shape.with_rank_at_least(1)[-1])
        if m is None:
            return input_shape[:-1].concatenate([None, None])
        n = int(np.sqrt(0.25 + 2.0 * m) - 0.5)
        if n * (n + 1) // 2 != m:
            raise ValueError("Input right-most shape ({}) does not correspond to a "
                             "triangular matrix.".format(m))
        return input_shape[:-1].concatenate([n, n])

    def _inverse_event_shape(self, output_shape: TensorShape) -> TensorShape:
        n = dimension_value(output_shape.with_rank_at_least(2)[-1])
        m = None if n is None else n * (n + 1) // 2
        return output_shape[:-2].concatenate([m])

    def _forward_event_shape_tensor(self, input_shape: Tensor) -> Tensor:
        m = math_ops.cast(input_shape[-1], D.float32)
        n = math_ops.cast(math_ops.sqrt(0.25 + 2.0 * m) - 0.5, D.int32)
        return array_ops.concat([input_shape[:-1], array_ops.stack([n, n])], 0)

    def _inverse_event_shape_tensor(self, output_shape: Tensor) -> Tensor:
        n = output_shape[-1]
        return array_ops.concat([output_shape[:-2], array_ops.stack([n * (n + 1) // 2])], 0)


class TransformDiagonal(Bijector):
    """Applies a scalar bijector to the diagonal of matrices."""

    def __init__(self, diag_bijector: Bijector, validate_args: bool = False,
                 name: str = "transform_diagonal"):
        self._diag_bijector = diag_bijector
        super().__init__(forward_min_event_ndims=2, inverse_min_event_ndims=2,
                         validate_args=validate_args, name=name)

    def _forward(self, x: Tensor) -> Tensor:
        return matrix_set_diag(x, self._diag_bijector.forward(matrix_diag_part(x)))

    def _inverse(self, y: Tensor) -> Tensor:
        return matrix_set_diag(y, self._diag_bijector.inverse(matrix_diag_part(y)))

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return self._diag_bijector.forward_log_det_jacobian(matrix_diag_part(x), event_ndims=1)

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return self._diag_bijector.inverse_log_det_jacobian(matrix_diag_part(y), event_ndims=1)


class ScaleTriL(Chain):
    """Unconstrained vectors to lower-triangular matrices with positive diagonal:
    FillTriangular, then `diag_bijector` (default Softplus) plus `diag_shift` on the
    diagonal."""

    def __init__(self, diag_bijector: Optional[Bijector] = None, diag_shift: Any = 1e-5,
                 validate_args: bool = False, name: str = "scale_tril"):
        if diag_bijector is None:
            diag_bijector = Softplus(validate_args=validate_args)
        if diag_shift is not None:
            diag_bijector = Chain([AffineScalar(shift=diag_shift), diag_bijector])
        super().__init__([TransformDiagonal(diag_bijector=diag_bijector),
                          FillTriangular()], validate_args=validate_args, name=name)


def _static_shape_vector(shape: Any, name: str) -> List[int]:
    value = constant_value(shape) if isinstance(shape, Tensor) else shape
    if value is None:
        raise NotImplementedError(f"Reshape with a {name} known only at run time is not "
                                  "supported by tf1compat")
    value = [int(v) for v in np.asarray(value).reshape([-1])]
    if sum(1 for v in value if v == -1) > 1:
        raise ValueError(f"{name} can contain at most one -1.")
    if any(v < -1 for v in value):
        raise ValueError(f"{name} elements must be either positive integers or `-1`.")
    return value


def _resolve(shape: List[int], other: List[int]) -> List[int]:
    """`shape` with its -1 replaced from `other`'s size (both fully known otherwise)."""
    if -1 not in shape or -1 in other:
        return shape
    known = int(np.prod([v for v in shape if v != -1]))
    return [int(np.prod(other)) // known if v == -1 else v for v in shape]


class Reshape(Bijector):
    """Reshapes the rightmost `event_shape_in` dims to `event_shape_out`."""

    def __init__(self, event_shape_out: Any, event_shape_in: Any = (-1,),
                 validate_args: bool = False, name: Optional[str] = None):
        self._out = _static_shape_vector(event_shape_out, "event_shape_out")
        self._in = _static_shape_vector(event_shape_in, "event_shape_in")
        super().__init__(forward_min_event_ndims=len(self._in),
                         inverse_min_event_ndims=len(self._out), is_constant_jacobian=True,
                         validate_args=validate_args, name=name or "reshape")

    def _replace(self, x: Tensor, shape_in: List[int], shape_out: List[int]) -> Tensor:
        rank = x.shape.rank
        if rank is None:
            raise NotImplementedError("Reshape of a tensor of unknown rank is not supported "
                                      "by tf1compat")
        event = x.shape[rank - len(shape_in):]
        if event.is_fully_defined():
            seen = event.as_list()
            for want, got in zip(shape_in, seen):
                if want != -1 and want != got:
                    raise ValueError(f"Input `event_shape` does not match `event_shape_in` "
                                     f"({seen} vs {shape_in}).")
            shape_out = _resolve(shape_out, seen)
        batch = array_ops.shape(x)[:rank - len(shape_in)]
        return array_ops.reshape(x, array_ops.concat([batch, shape_out], 0))

    def _forward(self, x: Tensor) -> Tensor:
        return self._replace(x, self._in, self._out)

    def _inverse(self, y: Tensor) -> Tensor:
        return self._replace(y, self._out, self._in)

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return constant(0.0, dtype=y.dtype)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return constant(0.0, dtype=x.dtype)

    def _forward_event_shape(self, input_shape: TensorShape) -> TensorShape:
        if input_shape.rank is None or not input_shape.is_fully_defined():
            return as_shape([None] * len(self._out))
        return as_shape(_resolve(self._out, input_shape.as_list()))

    def _inverse_event_shape(self, output_shape: TensorShape) -> TensorShape:
        if output_shape.rank is None or not output_shape.is_fully_defined():
            return as_shape([None] * len(self._in))
        return as_shape(_resolve(self._in, output_shape.as_list()))

    def _forward_event_shape_tensor(self, input_shape: Tensor) -> Tensor:
        return convert_to_tensor(self._forward_event_shape(
            as_shape(constant_value(input_shape))).as_list(), dtype=D.int32)

    def _inverse_event_shape_tensor(self, output_shape: Tensor) -> Tensor:
        return convert_to_tensor(self._inverse_event_shape(
            as_shape(constant_value(output_shape))).as_list(), dtype=D.int32)


class Permute(Bijector):
    """Permutes the rightmost dim: Y[..., i] = X[..., permutation[i]]."""

    def __init__(self, permutation: Any, validate_args: bool = False,
                 name: Optional[str] = None):
        with name_scope(name, "permute", values=[permutation]):
            permutation = convert_to_tensor(permutation, name="permutation")
            if not permutation.dtype.is_integer:
                raise TypeError("permutation.dtype ({}) should be `int`-like.".format(
                    permutation.dtype.name))
            value = constant_value(permutation)
            if value is not None and not np.all(np.sort(value) == np.arange(np.size(value))):
                raise ValueError("Permutation over `d` must contain exactly one of each of "
                                 "`{0, 1, ..., d}`.")
            self._permutation = permutation
        super().__init__(forward_min_event_ndims=1, is_constant_jacobian=True,
                         validate_args=validate_args, name=name or "permute")

    @property
    def permutation(self) -> Tensor:
        return self._permutation

    def _forward(self, x: Tensor) -> Tensor:
        return gather(x, self.permutation, axis=-1)

    def _inverse(self, y: Tensor) -> Tensor:
        return gather(y, argsort(self.permutation), axis=-1)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return constant(0.0, dtype=x.dtype)

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        return constant(0.0, dtype=y.dtype)
