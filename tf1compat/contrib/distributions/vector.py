"""The Vector* distributions of `tf.contrib.distributions`: loc + scale @ X for X a vector
of iid standard Laplace (VectorLaplaceLinearOperator, VectorLaplaceDiag) or Exponential
(VectorExponentialLinearOperator, VectorExponentialDiag) draws, and the SinhArcsinh
transform of a scalar distribution (SinhArcsinh, and VectorSinhArcsinhDiag for vectors)."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.contrib.distributions.bijectors.extra import SinhArcsinh as SinhArcsinhBijector
from tf1compat.contrib.distributions.bijectors.scalar import AffineScalar, Chain
from tf1compat.contrib.distributions.bijectors.matrix import Affine, make_diag_scale
from tf1compat.contrib.distributions.mvn import (AffineVectorDistribution, diag_scale_init,
                                                 shapes_from_loc_and_scale)
from tf1compat.contrib.distributions.transformed_distribution import TransformedDistribution
from tf1compat.distributions.continuous import Exponential, Laplace, Normal
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.linalg.linear_operator import LinearOperator
from tf1compat.ops import array_ops
from tf1compat.ops.creation_ops import ones, zeros

__all__ = ["VectorLaplaceLinearOperator", "VectorLaplaceDiag",
           "VectorExponentialLinearOperator", "VectorExponentialDiag", "SinhArcsinh",
           "VectorSinhArcsinhDiag"]


class VectorLaplaceLinearOperator(AffineVectorDistribution):
    """loc + scale @ X, X iid Laplace(0, 1) (covariance 2 scale scale^T)."""

    _base_variance = 2.0
    _nested_name_scope = True

    @staticmethod
    def _base(dtype: D.DType) -> Any:
        return Laplace(loc=zeros([], dtype=dtype), scale=ones([], dtype=dtype))

    def __init__(self, loc: Any = None, scale: Optional[LinearOperator] = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "VectorLaplaceLinearOperator"):
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)


class VectorLaplaceDiag(VectorLaplaceLinearOperator):
    """VectorLaplaceLinearOperator with scale = diag(scale_diag + multiplier)."""

    def __init__(self, loc: Any = None, scale_diag: Any = None,
                 scale_identity_multiplier: Any = None, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "VectorLaplaceDiag"):
        parameters = dict(loc=loc, scale_diag=scale_diag,
                          scale_identity_multiplier=scale_identity_multiplier,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        # TF 1.x passes on its plain name here (not the scope it opened).
        _, loc, scale = diag_scale_init(name, loc, scale_diag, scale_identity_multiplier,
                                        validate_args)
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


class VectorExponentialLinearOperator(AffineVectorDistribution):
    """loc + scale @ W, W iid Exponential(1): mean loc + scale @ 1, mode loc."""

    @staticmethod
    def _base(dtype: D.DType) -> Any:
        return Exponential(rate=ones([], dtype=dtype))

    def __init__(self, loc: Any = None, scale: Optional[LinearOperator] = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "VectorExponentialLinearOperator"):
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)

    def _shift_of(self, base_value: float) -> Tensor:
        shape = array_ops.concat([self.batch_shape_tensor(), self.event_shape_tensor()], 0)
        filled = (ones if base_value else zeros)(shape, dtype=self.dtype)
        moved = self.scale.matvec(filled)
        return moved if self.loc is None else array_ops.identity(self.loc) + moved

    def _mean(self) -> Tensor:
        return self._shift_of(1.0)

    def _mode(self) -> Tensor:
        return self._shift_of(0.0)


class VectorExponentialDiag(VectorExponentialLinearOperator):
    """VectorExponentialLinearOperator with scale = diag(scale_diag + multiplier)."""

    def __init__(self, loc: Any = None, scale_diag: Any = None,
                 scale_identity_multiplier: Any = None, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "VectorExponentialDiag"):
        parameters = dict(loc=loc, scale_diag=scale_diag,
                          scale_identity_multiplier=scale_identity_multiplier,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        name, loc, scale = diag_scale_init(name, loc, scale_diag, scale_identity_multiplier,
                                           validate_args)
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


class SinhArcsinh(TransformedDistribution):
    """Y = loc + scale * F(Z) * 2 / F_0(2), F(z) = sinh((arcsinh(z) + skewness) *
    tailweight), F_0 the same without skewness, Z ~ `distribution` (default N(0, 1))."""

    def __init__(self, loc: Any, scale: Any, skewness: Any = None, tailweight: Any = None,
                 distribution: Any = None, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "SinhArcsinh"):
        parameters = dict(loc=loc, scale=scale, skewness=skewness, tailweight=tailweight,
                          distribution=distribution, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[loc, scale, skewness, tailweight]) as name:
            loc = convert_to_tensor(loc, name="loc")
            dtype = loc.dtype
            scale = convert_to_tensor(scale, name="scale", dtype=dtype)
            skewness, tailweight, f, c = _sinh_arcsinh_parts(scale, skewness, tailweight,
                                                             dtype, validate_args)
            self._loc, self._scale = loc, scale
            self._tailweight, self._skewness = tailweight, skewness
            batch_shape = array_ops.shape(loc + scale + tailweight + skewness)
            if distribution is None:
                distribution = Normal(loc=zeros([], dtype=dtype), scale=ones([], dtype=dtype),
                                      allow_nan_stats=allow_nan_stats)
            elif distribution.event_shape.rank != 0:
                raise ValueError("Base distribution must have scalar event shape")
            affine = AffineScalar(shift=loc, scale=c, validate_args=validate_args)
            bijector = Chain([affine, f])
            super().__init__(distribution=distribution, bijector=bijector,
                             batch_shape=batch_shape, validate_args=validate_args, name=name)
        self._parameters = parameters

    @property
    def loc(self) -> Tensor:
        return self._loc

    @property
    def scale(self) -> Tensor:
        return self._scale

    @property
    def skewness(self) -> Tensor:
        return self._skewness

    @property
    def tailweight(self) -> Tensor:
        return self._tailweight



def _sinh_arcsinh_parts(scale: Tensor, skewness: Any, tailweight: Any, dtype: D.DType,
                        validate_args: bool) -> Any:
    """(skewness, tailweight, F, c) with c = 2 scale / F_0(2): `scale` then sets the
    half-width of the ~96% interval whatever the tail weight."""
    tailweight = convert_to_tensor(1.0 if tailweight is None else tailweight,
                                   name="tailweight", dtype=dtype)
    skewness = convert_to_tensor(0.0 if skewness is None else skewness, name="skewness",
                                 dtype=dtype)
    f = SinhArcsinhBijector(skewness=skewness, tailweight=tailweight,
                            validate_args=validate_args)
    f_noskew = SinhArcsinhBijector(skewness=dtype.as_numpy_dtype(0.0), tailweight=tailweight)
    c = 2.0 * scale / f_noskew.forward(convert_to_tensor(2.0, dtype=dtype))
    return skewness, tailweight, f, c


class VectorSinhArcsinhDiag(TransformedDistribution):
    """Y = loc + c * F(Z) per component, Z iid `distribution` (default N(0, 1)), F the
    SinhArcsinh bijector, c = 2 scale_diag / F_0(2)."""

    def __init__(self, loc: Any = None, scale_diag: Any = None,
                 scale_identity_multiplier: Any = None, skewness: Any = None,
                 tailweight: Any = None, distribution: Any = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "MultivariateNormalLinearOperator"):
        # (TF 1.x's default name is MultivariateNormalLinearOperator, kept.)
        parameters = dict(loc=loc, scale_diag=scale_diag,
                          scale_identity_multiplier=scale_identity_multiplier,
                          skewness=skewness, tailweight=tailweight,
                          distribution=distribution, validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)
        with name_scope(name, values=[loc, scale_diag, scale_identity_multiplier, skewness,
                                      tailweight]) as name:
            loc = None if loc is None else convert_to_tensor(loc, name="loc")
            scale = make_diag_scale(loc=loc, scale_diag=scale_diag,
                                    scale_identity_multiplier=scale_identity_multiplier)
            batch_shape, event_shape = shapes_from_loc_and_scale(loc, scale)
            diag = scale.diag_part()
            dtype = diag.dtype
            if distribution is None:
                distribution = Normal(loc=zeros([], dtype=dtype), scale=ones([], dtype=dtype),
                                      allow_nan_stats=allow_nan_stats)
            elif distribution.event_shape.rank != 0 or distribution.batch_shape.rank != 0:
                raise ValueError("Base distribution must be scalar (batch and event).")
            skewness, tailweight, f, c = _sinh_arcsinh_parts(diag, skewness, tailweight,
                                                             dtype, False)
            affine = Affine(shift=loc, scale_diag=c, validate_args=validate_args)
            super().__init__(distribution=distribution, bijector=Chain([affine, f]),
                             batch_shape=batch_shape, event_shape=event_shape,
                             validate_args=validate_args, name=name)
        self._parameters = parameters
        self._loc, self._scale = loc, scale
        self._tailweight, self._skewness = tailweight, skewness

    @property
    def loc(self) -> Optional[Tensor]:
        return self._loc

    @property
    def scale(self) -> Any:
        return self._scale

    @property
    def skewness(self) -> Tensor:
        return self._skewness

    @property
    def tailweight(self) -> Tensor:
        return self._tailweight
