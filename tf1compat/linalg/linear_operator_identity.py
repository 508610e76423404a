"""`tf.linalg.LinearOperatorIdentity`, `LinearOperatorScaledIdentity` and
`LinearOperatorZeros`: operators defined by their size alone (and a multiplier)."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.linalg.linear_operator import (LinearOperator, _adjoint_matrix,
                                              _nonnegative_int, _real_dtype_hint, _static)
from tf1compat.ops import array_ops, check_ops, math_ops
from tf1compat.ops.creation_ops import ones, zeros
from tf1compat.ops.matrix_ops import eye, matrix_diag_part, matrix_set_diag
from tf1compat.ops.reduction_ops import reduce_sum

__all__ = ["LinearOperatorIdentity", "LinearOperatorScaledIdentity", "LinearOperatorZeros"]


class LinearOperatorIdentity(LinearOperator):
    """The [batch_shape] x num_rows x num_rows identity."""

    def __init__(self, num_rows: Any, batch_shape: Any = None, dtype: Any = None,
                 is_non_singular: Any = True, is_self_adjoint: Any = True,
                 is_positive_definite: Any = True, is_square: Any = True,
                 assert_proper_shapes: bool = False, name: str = "LinearOperatorIdentity"):
        parameters = dict(num_rows=num_rows, batch_shape=batch_shape, dtype=dtype,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          assert_proper_shapes=assert_proper_shapes, name=name)
        dtype = D.as_dtype(dtype or D.float32)
        for hint, label in ((is_self_adjoint, "self adjoint"),
                            (is_positive_definite, "positive definite"),
                            (is_non_singular, "non-singular")):
            if not hint:
                raise ValueError(f"An identity operator is always {label}.")
        if not is_square:
            raise ValueError("An identity operator is always square.")
        with name_scope(name, values=[num_rows]):
            self._num_rows = _nonnegative_int(num_rows, "num_rows")
            self._batch_shape_arg = None if batch_shape is None else \
                _nonnegative_int(batch_shape, "batch_shape", vector=True)
        super().__init__(dtype=dtype, is_non_singular=True, is_self_adjoint=True,
                         is_positive_definite=True, is_square=True, parameters=parameters,
                         name=name)
        self._ones_diag = True

    def _static_rows(self) -> Optional[int]:
        value = _static(self._num_rows)
        return None if value is None else int(value)

    def _shape(self) -> TensorShape:
        n = self._static_rows()
        matrix = TensorShape([n, n])
        if self._batch_shape_arg is None:
            return matrix
        batch = _static(self._batch_shape_arg)
        batch_shape = TensorShape(None) if batch is None else TensorShape(list(batch))
        return batch_shape.concatenate(matrix)

    def _shape_tensor(self) -> Tensor:
        matrix = array_ops.stack([self._num_rows, self._num_rows], axis=0)
        if self._batch_shape_arg is None:
            return matrix
        return array_ops.concat([self._batch_shape_arg, matrix], 0)

    def _broadcast_batch(self, x: Tensor) -> Tensor:
        if self._batch_shape_arg is None:
            return x
        special = array_ops.concat([self._batch_shape_arg, [1, 1]], 0)
        return x + zeros(special, dtype=self.dtype)

    def _matmul(self, x: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        return self._broadcast_batch(_adjoint_matrix(x) if adjoint_arg else x)

    def _determinant(self) -> Tensor:
        return ones(self.batch_shape_tensor(), dtype=self.dtype)

    def _log_abs_determinant(self) -> Tensor:
        return zeros(self.batch_shape_tensor(), dtype=self.dtype)

    def _solve(self, rhs: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _to_dense(self) -> Tensor:
        batch = None if self._batch_shape_arg is None else self._batch_shape_arg
        return eye(num_rows=self._num_rows, batch_shape=batch, dtype=self.dtype)

    def _diag_part(self) -> Tensor:
        return ones(self.shape_tensor()[:-1], dtype=self.dtype)

    def _trace(self) -> Tensor:
        return reduce_sum(self._diag_part(), axis=-1)

    def _add_to_tensor(self, x: Tensor) -> Tensor:
        return matrix_set_diag(x, 1.0 + matrix_diag_part(x))

    def _eigvals(self) -> Tensor:
        return self._diag_part()

    def _cond(self) -> Tensor:
        return ones(self.batch_shape_tensor(), dtype=self.dtype)

    def _assert_non_singular(self) -> Any:
        from tf1compat.ops.control_flow_ops import no_op
        return no_op("assert_non_singular")

    _assert_positive_definite = _assert_non_singular
    _assert_self_adjoint = _assert_non_singular

    def _linop_inverse(self) -> LinearOperator:
        return self

    def _linop_cholesky(self) -> LinearOperator:
        return self

    def _linop_adjoint(self) -> LinearOperator:
        return self


class LinearOperatorScaledIdentity(LinearOperatorIdentity):
    """multiplier times the num_rows x num_rows identity (multiplier may be batched)."""

    def __init__(self, num_rows: Any, multiplier: Any, is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None,
                 is_square: Any = True, assert_proper_shapes: bool = False,
                 name: str = "LinearOperatorScaledIdentity"):
        parameters = dict(num_rows=num_rows, multiplier=multiplier,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          assert_proper_shapes=assert_proper_shapes, name=name)
        if not is_square:
            raise ValueError("A ScaledIdentity operator is always square.")
        with name_scope(name, values=[multiplier, num_rows]):
            self._multiplier = convert_to_tensor(multiplier, name="multiplier")
            is_self_adjoint = _real_dtype_hint(self._multiplier.dtype, is_self_adjoint)
            self._num_rows = _nonnegative_int(num_rows, "num_rows")
            self._batch_shape_arg = None
        LinearOperator.__init__(self, dtype=self._multiplier.dtype,
                                is_non_singular=is_non_singular,
                                is_self_adjoint=is_self_adjoint,
                                is_positive_definite=is_positive_definite, is_square=True,
                                parameters=parameters, name=name)

    @property
    def multiplier(self) -> Tensor:
        return self._multiplier

    def _shape(self) -> TensorShape:
        n = self._static_rows()
        return self._multiplier.shape.concatenate([n, n])

    def _shape_tensor(self) -> Tensor:
        return array_ops.concat([array_ops.shape(self._multiplier),
                                 [self._num_rows, self._num_rows]], 0)

    def _scale(self, adjoint: bool) -> Tensor:
        m = math_ops.conj(self._multiplier) if adjoint else self._multiplier
        return m[..., None, None]

    def _matmul(self, x: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        x = _adjoint_matrix(x) if adjoint_arg else x
        return x * self._scale(adjoint)

    def _determinant(self) -> Tensor:
        return self._multiplier ** math_ops.cast(self._num_rows, self.dtype)

    def _log_abs_determinant(self) -> Tensor:
        return math_ops.cast(self._num_rows, self.dtype.real_dtype) * \
            math_ops.log(math_ops.abs(self._multiplier))

    def _solve(self, rhs: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        rhs = _adjoint_matrix(rhs) if adjoint_arg else rhs
        return rhs / self._scale(adjoint)

    def _to_dense(self) -> Tensor:
        return self._multiplier[..., None, None] * eye(self._num_rows, dtype=self.dtype)

    def _diag_part(self) -> Tensor:
        return self._multiplier[..., None] * ones([self._num_rows], dtype=self.dtype)

    def _add_to_tensor(self, x: Tensor) -> Tensor:
        return matrix_set_diag(x, self._multiplier[..., None] + matrix_diag_part(x))

    def _eigvals(self) -> Tensor:
        return self._diag_part()

    def _cond(self) -> Tensor:
        return ones(self.batch_shape_tensor(), dtype=self.dtype.real_dtype)

    def _assert_non_singular(self) -> Any:
        return check_ops.assert_positive(math_ops.abs(self._multiplier),
                                         message="LinearOperator was singular")

    def _assert_positive_definite(self) -> Any:
        value = math_ops.real(self._multiplier) if self.dtype.is_complex else self._multiplier
        return check_ops.assert_positive(value, message="LinearOperator was not positive "
                                         "definite.")

    def _assert_self_adjoint(self) -> Any:
        return check_ops.assert_equal(self._multiplier, math_ops.conj(self._multiplier),
                                      message="LinearOperator was not self-adjoint")

    def _linop_inverse(self) -> LinearOperator:
        return LinearOperatorScaledIdentity(self._num_rows, 1.0 / self._multiplier,
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite)

    def _linop_cholesky(self) -> LinearOperator:
        return LinearOperatorScaledIdentity(self._num_rows, math_ops.sqrt(self._multiplier),
                                            is_non_singular=True, is_self_adjoint=True,
                                            is_positive_definite=True)

    def _linop_adjoint(self) -> LinearOperator:
        return LinearOperatorScaledIdentity(self._num_rows, math_ops.conj(self._multiplier),
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite)


class LinearOperatorZeros(LinearOperator):
    """The [batch_shape] x num_rows x num_columns zero operator."""

    def __init__(self, num_rows: Any, num_columns: Any = None, batch_shape: Any = None,
                 dtype: Any = None, is_non_singular: Any = False, is_self_adjoint: Any = True,
                 is_positive_definite: Any = False, is_square: Any = True,
                 assert_proper_shapes: bool = False, name: str = "LinearOperatorZeros"):
        parameters = dict(num_rows=num_rows, num_columns=num_columns, batch_shape=batch_shape,
                          dtype=dtype, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          assert_proper_shapes=assert_proper_shapes, name=name)
        dtype = D.as_dtype(dtype or D.float32)
        if is_non_singular:
            raise ValueError("A Zeros operator is always singular.")
        if is_positive_definite:
            raise ValueError("A Zeros operator is always not positive-definite.")
        with name_scope(name):
            self._num_rows = _nonnegative_int(num_rows, "num_rows")
            self._num_columns = self._num_rows if num_columns is None else \
                _nonnegative_int(num_columns, "num_columns")
            self._batch_shape_arg = None if batch_shape is None else \
                _nonnegative_int(batch_shape, "batch_shape", vector=True)
        rows, cols = _static(self._num_rows), _static(self._num_columns)
        if num_columns is not None and rows is not None and cols is not None and rows != cols:
            is_square, is_self_adjoint = False, False
        super().__init__(dtype=dtype, is_non_singular=False, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=False, is_square=is_square,
                         parameters=parameters, name=name)
        self._zeros_diag = True

    def _shape(self) -> TensorShape:
        rows, cols = _static(self._num_rows), _static(self._num_columns)
        matrix = TensorShape([None if rows is None else int(rows),
                              None if cols is None else int(cols)])
        if self._batch_shape_arg is None:
            return matrix
        batch = _static(self._batch_shape_arg)
        return (TensorShape(None) if batch is None else TensorShape(list(batch))) \
            .concatenate(matrix)

    def _shape_tensor(self) -> Tensor:
        matrix = array_ops.stack([self._num_rows, self._num_columns], axis=0)
        return matrix if self._batch_shape_arg is None else \
            array_ops.concat([self._batch_shape_arg, matrix], 0)

    def _matmul(self, x: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        x = _adjoint_matrix(x) if adjoint_arg else x
        rows = self._num_columns if adjoint else self._num_rows
        out_shape = array_ops.concat([array_ops.shape(x)[:-2], [rows, array_ops.shape(x)[-1]]],
                                     0)
        result = zeros(out_shape, dtype=x.dtype)
        if self._batch_shape_arg is not None:
            result = result + zeros(array_ops.concat([self._batch_shape_arg, [1, 1]], 0),
                                    dtype=x.dtype)
        return result

    def _determinant(self) -> Tensor:
        return zeros(self.batch_shape_tensor(), dtype=self.dtype)

    def _log_abs_determinant(self) -> Tensor:
        return math_ops.log(self._determinant())

    def _to_dense(self) -> Tensor:
        return zeros(self.shape_tensor(), dtype=self.dtype)

    def _diag_part(self) -> Tensor:
        n = math_ops.minimum(self._num_rows, self._num_columns)
        return zeros(array_ops.concat([self.batch_shape_tensor(), [n]], 0), dtype=self.dtype)

    def _add_to_tensor(self, x: Tensor) -> Tensor:
        return self._matmul(x) + x

    def _eigvals(self) -> Tensor:
        return self._diag_part()
