"""The Wishart distributions of `tf.contrib.distributions`: WishartCholesky (scale given by
its Cholesky factor) and WishartFull (scale given in full), over positive-definite
matrices (or their Cholesky factors with `cholesky_input_output_matrices`). Sampling is
TF 1.x's Bartlett decomposition with its random ops and seeds."""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from tf1compat.distributions import distribution, util
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.linalg.linear_operator import LinearOperator
from tf1compat.linalg.linear_operator_structured import LinearOperatorLowerTriangular
from tf1compat.ops import array_ops, check_ops, math_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import lin_space, ones, range as range_
from tf1compat.ops.indexing_ops import where_v2
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.matrix_ops import (cholesky, matrix_band_part, matrix_diag_part,
                                      matrix_set_diag, matrix_transpose)
from tf1compat.ops.numerics_ops import assert_near
from tf1compat.ops.random_extra_ops import random_gamma
from tf1compat.ops.random_ops import random_normal
from tf1compat.ops.reduction_ops import reduce_sum
from tf1compat.ops.transform_ops import transpose

__all__ = ["WishartCholesky", "WishartFull"]


class _WishartLinearOperator(distribution.Distribution):
    """Wishart(df, scale @ scale^T) for a lower-triangular LinearOperator `scale`."""

    def __init__(self, df: Any, scale_operator: LinearOperator,
                 cholesky_input_output_matrices: bool = False, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: Optional[str] = None):
        parameters = dict(df=df, scale_operator=scale_operator,
                          cholesky_input_output_matrices=cholesky_input_output_matrices,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        self._cholesky_input_output_matrices = cholesky_input_output_matrices
        with name_scope(name) as name:
            with name_scope("init", values=[df]):
                if not scale_operator.dtype.is_floating:
                    raise TypeError(f"scale_operator.dtype={scale_operator.dtype} is not a "
                                    "floating-point type")
                if not scale_operator.is_square:
                    raise ValueError("scale_operator must be square.")
                self._scale_operator = scale_operator
                self._df = convert_to_tensor(df, dtype=scale_operator.dtype, name="df")
                size = dimension_value(scale_operator.shape[-1]) \
                    if scale_operator.shape.rank is not None else None
                if size is None:
                    self._dimension = math_ops.cast(scale_operator.domain_dimension_tensor(),
                                                    scale_operator.dtype, name="dimension")
                else:
                    self._dimension = convert_to_tensor(size, dtype=scale_operator.dtype,
                                                        name="dimension")
                df_val, dim_val = constant_value(self._df), constant_value(self._dimension)
                if df_val is not None and dim_val is not None:
                    if np.any(np.reshape(np.asarray(df_val), [-1]) < dim_val):
                        raise ValueError(f"Degrees of freedom (df = {df_val}) cannot be less "
                                         f"than dimension of scale matrix (scale.dimension "
                                         f"= {dim_val})")
                elif validate_args:
                    self._df = with_dependencies([check_ops.assert_less_equal(
                        self._dimension, self._df, message="Degrees of freedom (df) cannot "
                        "be less than dimension of scale matrix")], self._df)
        super().__init__(dtype=scale_operator.dtype,
                         reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._df, self._dimension]
                         + scale_operator.graph_parents, name=name)

    @property
    def df(self) -> Tensor:
        return self._df

    def scale(self) -> Tensor:
        """The scale matrix (its Cholesky factor with cholesky_input_output_matrices)."""
        if self._cholesky_input_output_matrices:
            return self.scale_operator.to_dense()
        return self._square_scale_operator()

    @property
    def scale_operator(self) -> LinearOperator:
        return self._scale_operator

    @property
    def cholesky_input_output_matrices(self) -> bool:
        return self._cholesky_input_output_matrices

    @property
    def dimension(self) -> Tensor:
        return self._dimension

    def _event_shape_tensor(self) -> Tensor:
        size = self.scale_operator.domain_dimension_tensor()
        return array_ops.stack([size, size])

    def _event_shape(self) -> TensorShape:
        size = self.scale_operator.domain_dimension
        return TensorShape([size, size])

    def _batch_shape_tensor(self) -> Tensor:
        return self.scale_operator.batch_shape_tensor()

    def _batch_shape(self) -> TensorShape:
        return self.scale_operator.batch_shape

    def _square_scale_operator(self) -> Tensor:
        return self.scale_operator.matmul(self.scale_operator.to_dense(), adjoint_arg=True)

    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        batch_shape = self.batch_shape_tensor()
        event_shape = self.event_shape_tensor()
        batch_ndims = array_ops.shape(batch_shape)[0]
        ndims = batch_ndims + 3      # one sample dim, two event dims
        shape = array_ops.concat([[n], batch_shape, event_shape], 0)
        x = random_normal(shape=shape, mean=0.0, stddev=1.0, dtype=self.dtype, seed=seed)
        expanded_df = self.df * ones(self.scale_operator.batch_shape_tensor(),
                                     dtype=self.df.dtype.base_dtype)
        # Bartlett: chi-square draws (Gamma(k / 2, 1 / 2)) on the diagonal, normals below.
        g = random_gamma(shape=[n], alpha=self._multi_gamma_sequence(0.5 * expanded_df,
                                                                     self.dimension),
                         beta=0.5, dtype=self.dtype, seed=util.gen_new_seed(seed, "wishart"))
        x = matrix_set_diag(matrix_band_part(x, -1, 0), math_ops.sqrt(g))
        # Sample dims to the right so that one matmul applies the scale to all of them.
        x = transpose(x, array_ops.concat([range_(1, ndims), [0]], 0))
        x = array_ops.reshape(x, array_ops.concat([batch_shape, [event_shape[0]], [-1]], 0))
        x = self.scale_operator.matmul(x)
        x = array_ops.reshape(x, array_ops.concat([batch_shape, event_shape, [n]], 0))
        x = transpose(x, array_ops.concat([[ndims - 1], range_(0, ndims - 1)], 0))
        if not self.cholesky_input_output_matrices:
            x = matmul(x, x, adjoint_b=True)
        return x

    def _log_prob(self, x: Tensor) -> Tensor:
        x_sqrt = x if self.cholesky_input_output_matrices else cholesky(x)
        batch_shape = self.batch_shape_tensor()
        event_shape = self.event_shape_tensor()
        ndims = array_ops.rank(x_sqrt)
        sample_ndims = ndims - array_ops.shape(batch_shape)[0] - 2
        sample_shape = array_ops.shape(x_sqrt)[:sample_ndims]
        # trace(scale^-1 x) = ||scale_sqrt^-1 x_sqrt||_F^2, solved for all samples at once
        # with the sample dims moved to the right.
        moved = transpose(x_sqrt, array_ops.concat([range_(sample_ndims, ndims),
                                                    range_(0, sample_ndims)], 0))
        moved = array_ops.reshape(moved, array_ops.concat(
            (batch_shape, (math_ops.cast(self.dimension, D.int32), -1)), 0))
        solved = self.scale_operator.solve(moved)
        solved = array_ops.reshape(solved, array_ops.concat([batch_shape, event_shape,
                                                             sample_shape], 0))
        solved = transpose(solved, array_ops.concat([range_(ndims - sample_ndims, ndims),
                                                     range_(0, ndims - sample_ndims)], 0))
        trace_scale_inv_x = reduce_sum(math_ops.square(solved), axis=[-2, -1])
        half_log_det_x = reduce_sum(math_ops.log(matrix_diag_part(x_sqrt)), axis=[-1])
        log_prob = ((self.df - self.dimension - 1.0) * half_log_det_x
                    - 0.5 * trace_scale_inv_x - self.log_normalization())
        if x.shape.rank is not None:
            log_prob.set_shape(x.shape[:-2])
        return log_prob

    def _prob(self, x: Tensor) -> Tensor:
        return math_ops.exp(self._log_prob(x))

    def _entropy(self) -> Tensor:
        half_dp1 = 0.5 * self.dimension + 0.5
        half_df = 0.5 * self.df
        return (self.dimension * (half_df + half_dp1 * math.log(2.0))
                + 2 * half_dp1 * self.scale_operator.log_abs_determinant()
                + self._multi_lgamma(half_df, self.dimension)
                + (half_dp1 - half_df) * self._multi_digamma(half_df, self.dimension))

    def _mean(self) -> Tensor:
        if self.cholesky_input_output_matrices:
            return math_ops.sqrt(self.df) * self.scale_operator.to_dense()
        return self.df * self._square_scale_operator()

    def _variance(self) -> Tensor:
        x = math_ops.sqrt(self.df) * self._square_scale_operator()
        d = array_ops.expand_dims(matrix_diag_part(x), -1)
        v = math_ops.square(x) + matmul(d, d, adjoint_b=True)
        return cholesky(v) if self.cholesky_input_output_matrices else v

    def _stddev(self) -> Tensor:
        if self.cholesky_input_output_matrices:
            raise ValueError("Computing std. dev. when is cholesky_input_output_matrices=True "
                             "does not make sense.")
        return cholesky(self.variance())

    def _mode(self) -> Tensor:
        s = self.df - self.dimension - 1.0
        s = where_v2(math_ops.less(s, 0.0), constant(float("NaN"), dtype=self.dtype,
                                                      name="nan"), s)
        if self.cholesky_input_output_matrices:
            return math_ops.sqrt(s) * self.scale_operator.to_dense()
        return s * self._square_scale_operator()

    def mean_log_det(self, name: str = "mean_log_det") -> Tensor:
        """E[log det X]."""
        with self._name_scope(name):
            return (self._multi_digamma(0.5 * self.df, self.dimension)
                    + self.dimension * math.log(2.0)
                    + 2 * self.scale_operator.log_abs_determinant())

    def log_normalization(self, name: str = "log_normalization") -> Tensor:
        """log of the normalizing constant."""
        with self._name_scope(name):
            return (self.df * self.scale_operator.log_abs_determinant()
                    + 0.5 * self.df * self.dimension * math.log(2.0)
                    + self._multi_lgamma(0.5 * self.df, self.dimension))

    def _multi_gamma_sequence(self, a: Tensor, p: Tensor,
                              name: str = "multi_gamma_sequence") -> Tensor:
        """[a, a - 1/2, ..., a - (p - 1)/2] along a new last axis."""
        with self._name_scope(name, values=[a, p]):
            seq = lin_space(constant(0.0, dtype=self.dtype), 0.5 - 0.5 * p,
                            math_ops.cast(p, D.int32))
            return seq + array_ops.expand_dims(a, [-1])

    def _multi_lgamma(self, a: Tensor, p: Tensor, name: str = "multi_lgamma") -> Tensor:
        with self._name_scope(name, values=[a, p]):
            seq = self._multi_gamma_sequence(a, p)
            return (0.25 * p * (p - 1.0) * math.log(math.pi)
                    + reduce_sum(math_ops.lgamma(seq), axis=[-1]))

    def _multi_digamma(self, a: Tensor, p: Tensor, name: str = "multi_digamma") -> Tensor:
        with self._name_scope(name, values=[a, p]):
            return reduce_sum(math_ops.digamma(self._multi_gamma_sequence(a, p)), axis=[-1])


class WishartCholesky(_WishartLinearOperator):
    """Wishart with its scale given by a lower-triangular Cholesky factor."""

    def __init__(self, df: Any, scale: Any, cholesky_input_output_matrices: bool = False,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "WishartCholesky"):
        parameters = dict(df=df, scale=scale,
                          cholesky_input_output_matrices=cholesky_input_output_matrices,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name, values=[scale]) as name:
            with name_scope("init", values=[scale]):
                scale = convert_to_tensor(scale)
                if validate_args:
                    scale = with_dependencies([
                        check_ops.assert_positive(matrix_diag_part(scale),
                                                  message="scale must be positive definite"),
                        check_ops.assert_equal(array_ops.shape(scale)[-1],
                                               array_ops.shape(scale)[-2],
                                               message="scale must be square")], scale)
            super().__init__(df=df, scale_operator=LinearOperatorLowerTriangular(
                tril=scale, is_non_singular=True, is_positive_definite=True, is_square=True),
                cholesky_input_output_matrices=cholesky_input_output_matrices,
                validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


class WishartFull(_WishartLinearOperator):
    """Wishart with its full (symmetric positive-definite) scale matrix."""

    def __init__(self, df: Any, scale: Any, cholesky_input_output_matrices: bool = False,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "WishartFull"):
        parameters = dict(df=df, scale=scale,
                          cholesky_input_output_matrices=cholesky_input_output_matrices,
                          validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                          name=name)
        with name_scope(name) as name:
            with name_scope("init", values=[scale]):
                scale = convert_to_tensor(scale)
                if validate_args:
                    scale = with_dependencies([assert_near(
                        scale, matrix_transpose(scale), message="Matrix was not symmetric")],
                        scale)
                chol = cholesky(scale)
                if validate_args:
                    chol = with_dependencies([check_ops.assert_positive(
                        matrix_diag_part(chol))], chol)
        super().__init__(df=df, scale_operator=LinearOperatorLowerTriangular(
            tril=chol, is_non_singular=True, is_positive_definite=True, is_square=True),
            cholesky_input_output_matrices=cholesky_input_output_matrices,
            validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters
