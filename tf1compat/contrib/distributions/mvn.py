"""The multivariate normals of `tf.contrib.distributions`: MultivariateNormalLinearOperator
and its constructors from parameters (Diag, DiagWithSoftplusScale, TriL,
FullCovariance, DiagPlusLowRank), with their KL divergence.

As in TF 1.x each is a TransformedDistribution of a scalar standard Normal (batch and
event shapes overridden) through an AffineLinearOperator, so seeded samples are
`loc + scale @ random_normal([n] + batch + event, seed)` — TF's numbers.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from tf1compat.contrib.distributions.bijectors.matrix import (AffineLinearOperator,
                                                              make_diag_scale)
from tf1compat.contrib.distributions.transformed_distribution import TransformedDistribution
from tf1compat.distributions.continuous import Normal
from tf1compat.distributions.kullback_leibler import RegisterKL
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.linalg.linear_operator import LinearOperator, LinearOperatorDiag
from tf1compat.linalg.linear_operator_identity import (LinearOperatorIdentity,
                                                       LinearOperatorScaledIdentity)
from tf1compat.linalg.linear_operator_structured import (LinearOperatorLowerTriangular,
                                                         LinearOperatorLowRankUpdate)
from tf1compat.ops import array_ops, math_ops, nn_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import ones, zeros
from tf1compat.ops.reduction_ops import reduce_sum
from tf1compat.ops.matrix_ops import (cholesky, matrix_diag, matrix_diag_part,
                                      matrix_transpose)
from tf1compat.ops.numerics_ops import assert_near
from tf1compat.ops.transform_ops import broadcast_dynamic_shape, broadcast_static_shape

__all__ = ["AffineVectorDistribution", "diag_scale_init", "shapes_from_loc_and_scale",
           "MultivariateNormalLinearOperator",
           "MultivariateNormalDiag",
           "MultivariateNormalDiagWithSoftplusScale", "MultivariateNormalTriL",
           "MultivariateNormalFullCovariance", "MultivariateNormalDiagPlusLowRank"]

_DIAGONAL = (LinearOperatorIdentity, LinearOperatorScaledIdentity, LinearOperatorDiag)


def _common_float(values: list, default: D.DType = D.float32) -> D.DType:
    for v in values:
        if v is not None and hasattr(v, "dtype"):
            return D.as_dtype(v.dtype).base_dtype
    for v in values:
        if v is not None:
            return convert_to_tensor(v).dtype.base_dtype
    return default


def _to_tensor(value: Any, name: str, dtype: D.DType) -> Optional[Tensor]:
    return None if value is None else convert_to_tensor(value, name=name, dtype=dtype)


class AffineVectorDistribution(TransformedDistribution):
    """loc + scale @ X for X a vector of iid copies of a scalar base distribution (the
    shared parts of the multivariate normals and the Vector* distributions); subclasses
    say which base (`_base`) and its variance (`_base_variance`)."""

    _base_variance = 1.0
    _nested_name_scope = False

    @staticmethod
    def _base(dtype: D.DType) -> Any:
        return Normal(loc=zeros([], dtype=dtype), scale=ones([], dtype=dtype))

    def __init__(self, loc: Any = None, scale: Optional[LinearOperator] = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "MultivariateNormalLinearOperator"):
        parameters = dict(loc=loc, scale=scale, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        if scale is None:
            raise ValueError("Missing required `scale` parameter.")
        if not scale.dtype.is_floating:
            raise TypeError("`scale` parameter must have floating-point dtype.")
        with name_scope(name, values=[loc] + scale.graph_parents) as scope:
            if loc is not None:
                loc = convert_to_tensor(loc, name="loc")
            batch_shape, event_shape = shapes_from_loc_and_scale(loc, scale)
            # TF 1.x's VectorLaplaceLinearOperator builds itself inside its name scope
            # under its plain name (so "VectorLaplaceDiag_1/VectorLaplaceDiag/").
            nested = name if self._nested_name_scope else None
            if nested is not None:
                self._build(loc, scale, batch_shape, event_shape, validate_args, nested)
        if nested is None:
            self._build(loc, scale, batch_shape, event_shape, validate_args, scope)
        self._parameters = parameters
        self._allow_nan_stats = allow_nan_stats

    def _build(self, loc: Optional[Tensor], scale: LinearOperator, batch_shape: Any,
               event_shape: Any, validate_args: bool, name: str) -> None:
        super().__init__(
            distribution=self._base(scale.dtype),
            bijector=AffineLinearOperator(shift=loc, scale=scale,
                                          validate_args=validate_args),
            batch_shape=batch_shape, event_shape=event_shape,
            validate_args=validate_args, name=name)

    @property
    def loc(self) -> Optional[Tensor]:
        """`loc` in Y = scale @ X + loc."""
        return self.bijector.shift

    @property
    def scale(self) -> LinearOperator:
        """The `scale` LinearOperator in Y = scale @ X + loc."""
        return self.bijector.scale

    def _mean(self) -> Tensor:
        shape = self.batch_shape.concatenate(self.event_shape)
        static = shape.is_fully_defined()
        if not static:
            shape = array_ops.concat([self.batch_shape_tensor(), self.event_shape_tensor()], 0)
        else:
            shape = shape.as_list()
        if self.loc is None:
            return zeros(shape, self.dtype)
        if static and shape == self.loc.shape.as_list():
            return array_ops.identity(self.loc)
        return array_ops.identity(self.loc) + zeros(shape, self.dtype)

    def _dense_covariance_root_product(self) -> Tensor:
        return self.scale.matmul(matrix_transpose(self.scale.to_dense()))

    def _times_base_variance(self, value: Tensor) -> Tensor:
        return value if self._base_variance == 1.0 else self._base_variance * value

    def _covariance(self) -> Tensor:
        if isinstance(self.scale, _DIAGONAL):
            return self._times_base_variance(matrix_diag(math_ops.square(
                self.scale.diag_part())))
        return self._times_base_variance(self._dense_covariance_root_product())

    def _variance(self) -> Tensor:
        if isinstance(self.scale, _DIAGONAL):
            return self._times_base_variance(math_ops.square(self.scale.diag_part()))
        return self._times_base_variance(matrix_diag_part(
            self._dense_covariance_root_product()))

    def _stddev(self) -> Tensor:
        if isinstance(self.scale, _DIAGONAL):
            stddev = math_ops.abs(self.scale.diag_part())
        else:
            stddev = math_ops.sqrt(matrix_diag_part(self._dense_covariance_root_product()))
        return stddev if self._base_variance == 1.0 else np.sqrt(self._base_variance) * stddev

    def _mode(self) -> Tensor:
        return self._mean()


class MultivariateNormalLinearOperator(AffineVectorDistribution):
    """N(loc, scale @ scale^T) for a LinearOperator `scale` of shape [B..., k, k]."""

    def __init__(self, loc: Any = None, scale: Optional[LinearOperator] = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "MultivariateNormalLinearOperator"):
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)


def shapes_from_loc_and_scale(loc: Optional[Tensor], scale: LinearOperator) -> Any:
    """(batch_shape, event_shape) of loc + scale @ X: the broadcast of scale's batch with
    loc's leading dims, and scale's range dimension."""
    event_size = dimension_value(scale.range_dimension)
    event_shape = [event_size] if event_size is not None else \
        scale.range_dimension_tensor()[None]
    batch_shape = scale.batch_shape_tensor()
    if loc is not None:
        loc_batch = loc.shape.with_rank_at_least(1)[:-1]
        loc_batch = convert_to_tensor(loc_batch.as_list(), dtype=D.int32,
                                      name="loc_batch_shape") \
            if loc_batch.is_fully_defined() else array_ops.shape(loc)[:-1]
        batch_shape = _broadcast_shape(batch_shape, loc_batch)
    return batch_shape, event_shape


def _broadcast_shape(a: Tensor, b: Tensor) -> Tensor:
    static_a, static_b = constant_value(a), constant_value(b)
    if static_a is not None and static_b is not None:
        return convert_to_tensor(np.broadcast_shapes(tuple(static_a), tuple(static_b)),
                                 dtype=D.int32)
    return broadcast_dynamic_shape(a, b)


def diag_scale_init(name: str, loc: Any, scale_diag: Any, scale_identity_multiplier: Any,
                    validate_args: bool) -> Any:
    """(name scope, loc, diagonal scale operator) as the *Diag constructors build them."""
    with name_scope(name) as scope:
        with name_scope("init", values=[loc, scale_diag, scale_identity_multiplier]):
            dtype = _common_float([loc, scale_diag, scale_identity_multiplier])
            loc = _to_tensor(loc, "loc", dtype)
            scale = make_diag_scale(
                loc=loc, scale_diag=_to_tensor(scale_diag, "scale_diag", dtype),
                scale_identity_multiplier=_to_tensor(
                    scale_identity_multiplier, "scale_identity_multiplier", dtype),
                validate_args=validate_args, assert_positive=False, dtype=dtype)
    return scope, loc, scale


class MultivariateNormalDiag(MultivariateNormalLinearOperator):
    """N(loc, diag(scale_diag + scale_identity_multiplier)^2)."""

    def __init__(self, loc: Any = None, scale_diag: Any = None,
                 scale_identity_multiplier: Any = None, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "MultivariateNormalDiag"):
        parameters = dict(loc=loc, scale_diag=scale_diag,
                          scale_identity_multiplier=scale_identity_multiplier,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        name, loc, scale = diag_scale_init(name, loc, scale_diag, scale_identity_multiplier,
                                           validate_args)
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


class MultivariateNormalDiagWithSoftplusScale(MultivariateNormalDiag):
    """MultivariateNormalDiag with scale_diag = softplus(scale_diag)."""

    def __init__(self, loc: Any, scale_diag: Any, validate_args: bool = False,
                 allow_nan_stats: bool = True,
                 name: str = "MultivariateNormalDiagWithSoftplusScale"):
        parameters = dict(loc=loc, scale_diag=scale_diag, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[scale_diag]) as name:
            super().__init__(loc=loc, scale_diag=nn_ops.softplus(scale_diag),
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             name=name)
        self._parameters = parameters


class MultivariateNormalTriL(MultivariateNormalLinearOperator):
    """N(loc, scale_tril @ scale_tril^T) (only the lower triangle of scale_tril is read)."""

    def __init__(self, loc: Any = None, scale_tril: Any = None, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "MultivariateNormalTriL"):
        parameters = dict(loc=loc, scale_tril=scale_tril, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        if loc is None and scale_tril is None:
            raise ValueError("Must specify one or both of `loc`, `scale_tril`.")
        with name_scope(name, values=[loc, scale_tril]) as name:
            with name_scope("init", values=[loc, scale_tril]):
                dtype = _common_float([loc, scale_tril])
                loc = _to_tensor(loc, "loc", dtype)
                scale_tril = _to_tensor(scale_tril, "scale_tril", dtype)
                if scale_tril is None:
                    size = dimension_value(loc.shape[-1])
                    scale: LinearOperator = LinearOperatorIdentity(
                        num_rows=size if size is not None else array_ops.shape(loc)[-1],
                        dtype=loc.dtype, is_self_adjoint=True, is_positive_definite=True,
                        assert_proper_shapes=validate_args)
                else:
                    scale = LinearOperatorLowerTriangular(scale_tril, is_non_singular=True,
                                                          is_self_adjoint=False,
                                                          is_positive_definite=False)
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


class MultivariateNormalFullCovariance(MultivariateNormalTriL):
    """N(loc, covariance_matrix), scale_tril = cholesky(covariance_matrix)."""

    def __init__(self, loc: Any = None, covariance_matrix: Any = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "MultivariateNormalFullCovariance"):
        parameters = dict(loc=loc, covariance_matrix=covariance_matrix,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name, values=[loc, covariance_matrix]) as name:
            with name_scope("init", values=[loc, covariance_matrix]):
                dtype = _common_float([loc, covariance_matrix])
                loc = _to_tensor(loc, "loc", dtype)
                scale_tril = None
                if covariance_matrix is not None:
                    covariance_matrix = convert_to_tensor(covariance_matrix,
                                                          name="covariance_matrix",
                                                          dtype=dtype)
                    if validate_args:
                        covariance_matrix = with_dependencies([assert_near(
                            covariance_matrix, matrix_transpose(covariance_matrix),
                            message="Matrix was not symmetric")], covariance_matrix)
                    # A non-positive-definite matrix fails in the Cholesky (TF's check).
                    scale_tril = cholesky(covariance_matrix)
        super().__init__(loc=loc, scale_tril=scale_tril, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


class MultivariateNormalDiagPlusLowRank(MultivariateNormalLinearOperator):
    """N(loc, S S^T) with S = diag(scale_diag + c) + U diag(v) U^T."""

    def __init__(self, loc: Any = None, scale_diag: Any = None,
                 scale_identity_multiplier: Any = None, scale_perturb_factor: Any = None,
                 scale_perturb_diag: Any = None, validate_args: bool = False,
                 allow_nan_stats: bool = True,
                 name: str = "MultivariateNormalDiagPlusLowRank"):
        parameters = dict(loc=loc, scale_diag=scale_diag,
                          scale_identity_multiplier=scale_identity_multiplier,
                          scale_perturb_factor=scale_perturb_factor,
                          scale_perturb_diag=scale_perturb_diag,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        args = [loc, scale_diag, scale_identity_multiplier, scale_perturb_factor,
                scale_perturb_diag]
        with name_scope(name, values=args) as name:
            with name_scope("init", values=args):
                dtype = _common_float(args)
                has_low_rank = scale_perturb_factor is not None or \
                    scale_perturb_diag is not None
                loc = _to_tensor(loc, "loc", dtype)
                factor = _to_tensor(scale_perturb_factor, "scale_perturb_factor", dtype)
                shape_hint = None if factor is None else dimension_value(factor.shape[-2])
                scale: LinearOperator = make_diag_scale(
                    loc=loc, scale_diag=_to_tensor(scale_diag, "scale_diag", dtype),
                    scale_identity_multiplier=_to_tensor(
                        scale_identity_multiplier, "scale_identity_multiplier", dtype),
                    shape_hint=shape_hint, validate_args=validate_args,
                    assert_positive=False, dtype=dtype)
                if has_low_rank:
                    scale = LinearOperatorLowRankUpdate(
                        scale, u=factor,
                        diag_update=_to_tensor(scale_perturb_diag, "scale_perturb_diag",
                                               dtype),
                        is_diag_update_positive=scale_perturb_diag is None,
                        is_non_singular=True, is_self_adjoint=True,
                        is_positive_definite=True, is_square=True)
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


@RegisterKL(MultivariateNormalLinearOperator, MultivariateNormalLinearOperator)
def _kl_brute_force(a: MultivariateNormalLinearOperator, b: MultivariateNormalLinearOperator,
                    name: Optional[str] = None) -> Tensor:
    """KL(a || b) = log|det B| - log|det A| + (||B^-1 A||_F^2 + ||B^-1 (mu_b - mu_a)||^2
    - k) / 2 with covariances A A^T and B B^T."""

    def squared_frobenius_norm(x: Tensor) -> Tensor:
        # A sum of squares, not square(norm(x)): the norm's gradient is NaN at zero, which
        # is where the mean term sits whenever the two means coincide (TF 1.15's note).
        return reduce_sum(math_ops.square(x), axis=[-2, -1])

    with name_scope(name, "kl_mvn", values=[a.loc, b.loc] + a.scale.graph_parents
                    + b.scale.graph_parents):
        if isinstance(a.scale, _DIAGONAL) and isinstance(b.scale, _DIAGONAL):
            b_inv_a = (a.stddev() / b.stddev())[..., None]
        else:
            b_inv_a = b.scale.solve(a.scale.to_dense())
        kl = (b.scale.log_abs_determinant() - a.scale.log_abs_determinant()
              + 0.5 * (-math_ops.cast(a.scale.domain_dimension_tensor(), a.dtype)
                       + squared_frobenius_norm(b_inv_a)
                       + squared_frobenius_norm(b.scale.solve(
                           (b.mean() - a.mean())[..., None]))))
        kl.set_shape(broadcast_static_shape(a.batch_shape, b.batch_shape))
        return kl

