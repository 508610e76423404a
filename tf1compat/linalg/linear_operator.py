"""`tf.linalg.LinearOperator`, its dense-matrix and diagonal operators (FullMatrix, Diag),
and helpers shared by the other operator modules.

The base class follows TF's: public methods open `<name>/<method>` name scopes, check
dtypes and static shapes, and call private `_matmul`, `_solve`, `_determinant`, ...;
what a subclass does not specialise falls back to dense algebra on `to_dense()` (Cholesky
based when the operator is hinted self-adjoint and positive definite), as TF's defaults.
The hints (`is_non_singular`, `is_self_adjoint`, `is_positive_definite`, `is_square`) are
checked for consistency the way TF checks them.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Optional

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import Dimension, TensorShape, dimension_value
from tf1compat.ops import array_ops, check_ops, math_ops
from tf1compat.ops.creation_ops import ones
from tf1compat.ops.linalg_decomp import adjoint as _adjoint_matrix
from tf1compat.ops.linalg_decomp import (cholesky_solve, self_adjoint_eigvals, slogdet,
                                         svd)
from tf1compat.ops.linalg_ops import matmul as _matmul
from tf1compat.ops.matrix_ops import (cholesky, eye, matrix_determinant,
                                      matrix_diag, matrix_diag_part, matrix_set_diag,
                                      matrix_solve)
from tf1compat.ops.reduction_ops import reduce_max, reduce_min, reduce_prod, reduce_sum
from tf1compat.ops.transform_ops import broadcast_dynamic_shape, broadcast_to

__all__ = ["LinearOperator", "LinearOperatorFullMatrix", "LinearOperatorDiag"]


def shape_tensor(shape: Any, name: Optional[str] = None) -> Tensor:
    """A static shape as an int32 tensor (int64 only if it needs the range)."""
    dtype = D.int32
    if isinstance(shape, (list, tuple)) and shape and \
            max(int(s) for s in shape) > np.iinfo(np.int32).max:
        dtype = D.int64
    return convert_to_tensor(shape, dtype=dtype, name=name)


def _broadcast_batch(matrix: Tensor, rhs: Tensor) -> tuple:
    """Both sides with their batch dimensions broadcast (unchanged where they agree)."""
    if matrix.shape.rank is not None and rhs.shape.rank is not None and \
            matrix.shape[:-2] != rhs.shape[:-2]:
        batch = broadcast_dynamic_shape(array_ops.shape(matrix)[:-2],
                                        array_ops.shape(rhs)[:-2])
        matrix = broadcast_to(matrix, array_ops.concat([batch, array_ops.shape(matrix)[-2:]],
                                                       0))
        rhs = broadcast_to(rhs, array_ops.concat([batch, array_ops.shape(rhs)[-2:]], 0))
    return matrix, rhs


def matrix_solve_with_broadcast(matrix: Tensor, rhs: Tensor, adjoint: bool = False) -> Tensor:
    """matrix_solve with the batch dimensions of both sides broadcast."""
    matrix, rhs = _broadcast_batch(matrix, rhs)
    return matrix_solve(matrix, rhs, adjoint=adjoint)


def cholesky_solve_with_broadcast(chol: Tensor, rhs: Tensor) -> Tensor:
    """cholesky_solve with the batch dimensions of both sides broadcast."""
    chol, rhs = _broadcast_batch(chol, rhs)
    return cholesky_solve(chol, rhs)


class LinearOperator:
    """A linear map [B1, ..., Bb, M, N] held implicitly (TF's base class)."""

    def __init__(self, dtype: Any, graph_parents: Any = None, is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None,
                 is_square: Any = None, name: Optional[str] = None,
                 parameters: Optional[dict] = None):
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError("A positive definite matrix is always non-singular.")
            is_non_singular = True
        if is_non_singular:
            if is_square is False:
                raise ValueError("A non-singular matrix is always square.")
            is_square = True
        if is_self_adjoint:
            if is_square is False:
                raise ValueError("A self-adjoint matrix is always square.")
            is_square = True
        self._is_square_set_or_implied_by_hints = is_square
        self._graph_parents = list(graph_parents or [])
        self._dtype = D.as_dtype(dtype).base_dtype if dtype else dtype
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._parameters = dict(parameters or {})
        self._name = name or type(self).__name__

    @contextlib.contextmanager
    def _name_scope(self, name: Optional[str] = None) -> Iterator[str]:
        full = self.name if name is None else self.name + "/" + name
        with name_scope(full) as scope:
            yield scope

    # -- properties and hints ---------------------------------------------------------------
    @property
    def parameters(self) -> dict:
        return dict(self._parameters)

    @property
    def dtype(self) -> D.DType:
        return self._dtype

    @property
    def name(self) -> str:
        return self._name

    @property
    def graph_parents(self) -> list:
        return self._graph_parents

    @property
    def is_non_singular(self) -> Any:
        return self._is_non_singular

    @property
    def is_self_adjoint(self) -> Any:
        return self._is_self_adjoint

    @property
    def is_positive_definite(self) -> Any:
        return self._is_positive_definite

    @property
    def is_square(self) -> Any:
        auto = self.domain_dimension == self.range_dimension
        if self._is_square_set_or_implied_by_hints is False and auto:
            raise ValueError("User set is_square hint to False, but the operator was square.")
        if self._is_square_set_or_implied_by_hints is None:
            return auto
        return self._is_square_set_or_implied_by_hints

    # -- shapes ---------------------------------------------------------------------------
    def _shape(self) -> TensorShape:
        raise NotImplementedError("_shape is not implemented.")

    @property
    def shape(self) -> TensorShape:
        return self._shape()

    def _shape_tensor(self) -> Tensor:
        raise NotImplementedError("_shape_tensor is not implemented.")

    def shape_tensor(self, name: str = "shape_tensor") -> Tensor:
        with self._name_scope(name):
            if self.shape.is_fully_defined():
                return shape_tensor(self.shape.as_list())
            return self._shape_tensor()

    @property
    def batch_shape(self) -> TensorShape:
        return self.shape[:-2]

    def batch_shape_tensor(self, name: str = "batch_shape_tensor") -> Tensor:
        with self._name_scope(name):
            if self.batch_shape.is_fully_defined():
                return shape_tensor(self.batch_shape.as_list(), name="batch_shape")
            return self.shape_tensor()[:-2]

    @property
    def tensor_rank(self) -> Optional[int]:
        return self.shape.rank

    def tensor_rank_tensor(self, name: str = "tensor_rank_tensor") -> Tensor:
        with self._name_scope(name):
            if self.tensor_rank is not None:
                return convert_to_tensor(self.tensor_rank)
            return array_ops.size(self.shape_tensor())

    @property
    def domain_dimension(self) -> Dimension:
        return Dimension(None) if self.shape.rank is None else self.shape.dims[-1]

    def domain_dimension_tensor(self, name: str = "domain_dimension_tensor") -> Tensor:
        with self._name_scope(name):
            value = dimension_value(self.domain_dimension)
            return convert_to_tensor(value) if value is not None else self.shape_tensor()[-1]

    @property
    def range_dimension(self) -> Dimension:
        return self.shape.dims[-2] if self.shape.dims else Dimension(None)

    def range_dimension_tensor(self, name: str = "range_dimension_tensor") -> Tensor:
        with self._name_scope(name):
            value = dimension_value(self.range_dimension)
            return convert_to_tensor(value) if value is not None else self.shape_tensor()[-2]

    # -- assertions ---------------------------------------------------------------------------
    def _assert_non_singular(self) -> Any:
        if self._can_use_cholesky():
            return self.assert_positive_definite()
        values = svd(self.to_dense(), compute_uv=False)
        cond = reduce_max(values, axis=-1) / reduce_min(values, axis=-1)
        eps = np.finfo(self.dtype.real_dtype.as_numpy_dtype).eps
        size = max(100.0, float(dimension_value(self.range_dimension) or 0),
                   float(dimension_value(self.domain_dimension) or 0))
        return check_ops.assert_less(cond, math_ops.cast(1.0 / (size * eps),
                                                         cond.dtype),
                                     message="Singular matrix up to precision epsilon.")

    def assert_non_singular(self, name: str = "assert_non_singular") -> Any:
        """An op that fails if the operator is singular."""
        with self._name_scope(name):
            return self._assert_non_singular()

    def _assert_positive_definite(self) -> Any:
        if self.is_self_adjoint:
            return check_ops.assert_positive(matrix_diag_part(cholesky(self.to_dense())),
                                             message="Matrix was not positive definite.")
        raise NotImplementedError("assert_positive_definite is not implemented.")

    def assert_positive_definite(self, name: str = "assert_positive_definite") -> Any:
        """An op that fails if the operator is not positive definite."""
        with self._name_scope(name):
            return self._assert_positive_definite()

    def _assert_self_adjoint(self) -> Any:
        dense = self.to_dense()
        return check_ops.assert_equal(dense, _adjoint_matrix(dense),
                                      message="Matrix was not equal to its adjoint.")

    def assert_self_adjoint(self, name: str = "assert_self_adjoint") -> Any:
        """An op that fails if the operator is not self-adjoint."""
        with self._name_scope(name):
            return self._assert_self_adjoint()

    def _check_input_dtype(self, arg: Tensor) -> None:
        if arg.dtype.base_dtype != self.dtype:
            raise TypeError(f"Expected argument to have dtype {self.dtype}.  Found: "
                            f"{arg.dtype} in tensor {arg}")

    # -- products and solves -----------------------------------------------------------------
    def _matmul(self, x: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        return _matmul(self.to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False,
               name: str = "matmul") -> Any:
        """The operator (or its adjoint) times x (a tensor or another operator)."""
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            _check_compatible(left.domain_dimension, right.range_dimension, "x")
            with self._name_scope(name):
                return _compose(left, right)
        with self._name_scope(name):
            x = convert_to_tensor(x, name="x")
            self._check_input_dtype(x)
            self_dim = -2 if adjoint else -1
            arg_dim = -1 if adjoint_arg else -2
            _dim_at(self.shape, self_dim).assert_is_compatible_with(x.shape[arg_dim])
            return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def __matmul__(self, other: Any) -> Any:
        return self.matmul(other)

    def _matvec(self, x: Tensor, adjoint: bool = False) -> Tensor:
        return array_ops.squeeze(self.matmul(array_ops.expand_dims(x, -1), adjoint=adjoint),
                                 axis=-1)

    def matvec(self, x: Any, adjoint: bool = False, name: str = "matvec") -> Tensor:
        """The operator times a batch of vectors."""
        with self._name_scope(name):
            x = convert_to_tensor(x, name="x")
            self._check_input_dtype(x)
            _dim_at(self.shape, -2 if adjoint else -1).assert_is_compatible_with(x.shape[-1])
            return self._matvec(x, adjoint=adjoint)

    def _determinant(self) -> Tensor:
        if self._can_use_cholesky():
            return math_ops.exp(self.log_abs_determinant())
        return matrix_determinant(self.to_dense())

    def determinant(self, name: str = "det") -> Tensor:
        """det of each matrix in the batch."""
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is "
                                      "expected to not be square.")
        with self._name_scope(name):
            return self._determinant()

    def _log_abs_determinant(self) -> Tensor:
        if self._can_use_cholesky():
            diag = matrix_diag_part(cholesky(self.to_dense()))
            return 2 * reduce_sum(math_ops.log(diag), axis=[-1])
        return slogdet(self.to_dense())[1]

    def log_abs_determinant(self, name: str = "log_abs_det") -> Tensor:
        """log |det| of each matrix in the batch."""
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is "
                                      "expected to not be square.")
        with self._name_scope(name):
            return self._log_abs_determinant()

    def _solve(self, rhs: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        rhs = _adjoint_matrix(rhs) if adjoint_arg else rhs
        if self._can_use_cholesky():
            return cholesky_solve(cholesky(self.to_dense()), rhs)
        return matrix_solve_with_broadcast(self.to_dense(), rhs, adjoint=adjoint)

    def solve(self, rhs: Any, adjoint: bool = False, adjoint_arg: bool = False,
              name: str = "solve") -> Any:
        """X with (operator or its adjoint) X = rhs."""
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is "
                                      "expected to be singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is "
                                      "expected to not be square.")
        if isinstance(rhs, LinearOperator):
            from tf1compat.linalg.linear_operator_structured import LinearOperatorInversion
            left = self.adjoint() if adjoint else self
            right = rhs.adjoint() if adjoint_arg else rhs
            _check_compatible(left.domain_dimension, right.range_dimension, "rhs")
            with self._name_scope(name):
                if getattr(right, "_ones_diag", False) and not hasattr(right, "multiplier"):
                    return left.inverse()
                return _compose(LinearOperatorInversion(left), right)
        with self._name_scope(name):
            rhs = convert_to_tensor(rhs, name="rhs")
            self._check_input_dtype(rhs)
            self_dim = -1 if adjoint else -2
            arg_dim = -1 if adjoint_arg else -2
            _dim_at(self.shape, self_dim).assert_is_compatible_with(rhs.shape[arg_dim])
            return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solvevec(self, rhs: Tensor, adjoint: bool = False) -> Tensor:
        return array_ops.squeeze(self.solve(array_ops.expand_dims(rhs, -1), adjoint=adjoint),
                                 axis=-1)

    def solvevec(self, rhs: Any, adjoint: bool = False, name: str = "solve") -> Tensor:
        """x with (operator or its adjoint) x = rhs for a batch of vectors."""
        with self._name_scope(name):
            rhs = convert_to_tensor(rhs, name="rhs")
            self._check_input_dtype(rhs)
            _dim_at(self.shape, -1 if adjoint else -2).assert_is_compatible_with(rhs.shape[-1])
            return self._solvevec(rhs, adjoint=adjoint)

    # -- derived operators ------------------------------------------------------------------
    def adjoint(self, name: str = "adjoint") -> "LinearOperator":
        """The adjoint operator (this operator itself when hinted self-adjoint)."""
        if self.is_self_adjoint is True:
            return self
        with self._name_scope(name):
            return self._linop_adjoint()

    H = property(adjoint, None)

    def _linop_adjoint(self) -> "LinearOperator":
        from tf1compat.linalg.linear_operator_structured import LinearOperatorAdjoint
        return LinearOperatorAdjoint(self, is_non_singular=self.is_non_singular,
                                     is_self_adjoint=self.is_self_adjoint,
                                     is_positive_definite=self.is_positive_definite,
                                     is_square=self.is_square)

    def inverse(self, name: str = "inverse") -> "LinearOperator":
        """The inverse operator."""
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square "
                             "matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular "
                             "matrix.")
        with self._name_scope(name):
            return self._linop_inverse()

    def _linop_inverse(self) -> "LinearOperator":
        from tf1compat.linalg.linear_operator_structured import LinearOperatorInversion
        return LinearOperatorInversion(self, is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite,
                                       is_square=self.is_square)

    def cholesky(self, name: str = "cholesky") -> "LinearOperator":
        """The lower-triangular Cholesky factor (self-adjoint positive definite only)."""
        if not self._can_use_cholesky():
            raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite "
                             "self adjoint matrix.")
        with self._name_scope(name):
            return self._linop_cholesky()

    def _linop_cholesky(self) -> "LinearOperator":
        from tf1compat.linalg.linear_operator_structured import LinearOperatorLowerTriangular
        return LinearOperatorLowerTriangular(cholesky(self.to_dense()), is_non_singular=True,
                                             is_self_adjoint=False, is_square=True)

    # -- dense views ------------------------------------------------------------------------
    def _to_dense(self) -> Tensor:
        batch = self.batch_shape.as_list() if self.batch_shape.is_fully_defined() else \
            self.batch_shape_tensor()
        n = dimension_value(self.domain_dimension)
        n = n if n is not None else self.domain_dimension_tensor()
        return self.matmul(eye(num_rows=n, batch_shape=batch, dtype=self.dtype))

    def to_dense(self, name: str = "to_dense") -> Tensor:
        """The operator as a dense [..., M, N] tensor."""
        with self._name_scope(name):
            return self._to_dense()

    def _diag_part(self) -> Tensor:
        return matrix_diag_part(self.to_dense())

    def diag_part(self, name: str = "diag_part") -> Tensor:
        """The main diagonal."""
        with self._name_scope(name):
            return self._diag_part()

    def _trace(self) -> Tensor:
        return reduce_sum(self.diag_part(), axis=-1)

    def trace(self, name: str = "trace") -> Tensor:
        """The sum of the main diagonal."""
        with self._name_scope(name):
            return self._trace()

    def _add_to_tensor(self, x: Tensor) -> Tensor:
        return self.to_dense() + x

    def add_to_tensor(self, x: Any, name: str = "add_to_tensor") -> Tensor:
        """The dense operator plus x."""
        with self._name_scope(name):
            x = convert_to_tensor(x, name="x")
            self._check_input_dtype(x)
            return self._add_to_tensor(x)

    def _eigvals(self) -> Tensor:
        return self_adjoint_eigvals(self.to_dense())

    def eigvals(self, name: str = "eigvals") -> Tensor:
        """The eigenvalues (self-adjoint operators only)."""
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        with self._name_scope(name):
            return self._eigvals()

    def _cond(self) -> Tensor:
        values = svd(self.to_dense(), compute_uv=False) if not self.is_self_adjoint else \
            math_ops.abs(self._eigvals())
        return reduce_max(values, axis=-1) / reduce_min(values, axis=-1)

    def cond(self, name: str = "cond") -> Tensor:
        """The condition number (ratio of extreme singular values)."""
        with self._name_scope(name):
            return self._cond()

    def _can_use_cholesky(self) -> bool:
        return bool(self.is_self_adjoint and self.is_positive_definite)


def _dim_at(shape: TensorShape, index: int) -> Dimension:
    return Dimension(None) if shape.rank is None else shape.dims[index]


def _check_compatible(expected: Dimension, got: Dimension, what: str) -> None:
    if dimension_value(expected) is not None and dimension_value(got) is not None and \
            dimension_value(expected) != dimension_value(got):
        raise ValueError(f"Operators are incompatible. Expected `{what}` to have dimension "
                         f"{expected} but got {got}.")


def _compose(left: LinearOperator, right: LinearOperator) -> LinearOperator:
    """left @ right as an operator (TF's _linop_matmul)."""
    from tf1compat.linalg.linear_operator_structured import LinearOperatorComposition
    if getattr(right, "_ones_diag", False) and not hasattr(right, "multiplier"):
        return left
    if getattr(right, "_zeros_diag", False):
        if not right.is_square or not left.is_square:
            raise ValueError("Matmul with non-square `LinearOperator`s or non-square "
                             "`LinearOperatorZeros` not supported at this time.")
        return right
    square = None
    if left.is_square is not None and right.is_square is not None:
        square = left.is_square and right.is_square
    hints = {}
    if square:
        both = (left.is_non_singular, right.is_non_singular)
        hints["is_non_singular"] = True if both == (True, True) else \
            (False if False in both else None)
    elif square is False:
        hints = {"is_non_singular": False, "is_self_adjoint": False,
                 "is_positive_definite": False}
    return LinearOperatorComposition(operators=[left, right], is_square=square, **hints)


def _real_dtype_hint(dtype: D.DType, is_self_adjoint: Any) -> Any:
    """Real diagonals make self-adjoint operators (TF's check)."""
    if not dtype.is_complex:
        if is_self_adjoint is False:
            raise ValueError("A real diagonal operator is always self adjoint.")
        return True
    return is_self_adjoint


class LinearOperatorFullMatrix(LinearOperator):
    """An operator holding a dense [..., M, N] matrix."""

    def __init__(self, matrix: Any, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None,
                 name: str = "LinearOperatorFullMatrix"):
        parameters = dict(matrix=matrix, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        with name_scope(name, values=[matrix]):
            self._matrix = convert_to_tensor(matrix, name="matrix")
            allowed = (D.float16, D.float32, D.float64, D.complex64, D.complex128)
            if self._matrix.dtype not in allowed:
                raise TypeError(f"Argument matrix must have dtype in {allowed}.  Found: "
                                f"{self._matrix.dtype}")
            if self._matrix.shape.rank is not None and self._matrix.shape.rank < 2:
                raise ValueError("Argument matrix must have at least 2 dimensions.  Found: "
                                 f"{self._matrix}")
        super().__init__(dtype=self._matrix.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         parameters=parameters, name=name)

    def _shape(self) -> TensorShape:
        return self._matrix.shape

    def _shape_tensor(self) -> Tensor:
        return array_ops.shape(self._matrix)

    def _to_dense(self) -> Tensor:
        return self._matrix


class LinearOperatorDiag(LinearOperator):
    """A diagonal operator given by its [..., N] diagonal."""

    def __init__(self, diag: Any, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None,
                 name: str = "LinearOperatorDiag"):
        parameters = dict(diag=diag, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        with name_scope(name, values=[diag]):
            self._diag = convert_to_tensor(diag, name="diag")
            if self._diag.shape.rank is not None and self._diag.shape.rank < 1:
                raise ValueError(f"Argument diag must have at least 1 dimension.  Found: "
                                 f"{self._diag}")
            is_self_adjoint = _real_dtype_hint(self._diag.dtype, is_self_adjoint)
            if is_square is False:
                raise ValueError("Only square diagonal operators currently supported.")
        super().__init__(dtype=self._diag.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         parameters=parameters, name=name)

    @property
    def diag(self) -> Tensor:
        return self._diag

    def _shape(self) -> TensorShape:
        n = self._diag.shape[-1:] if self._diag.shape.rank is not None else TensorShape(None)
        return self._diag.shape.concatenate(n) if self._diag.shape.rank is not None \
            else TensorShape(None)

    def _shape_tensor(self) -> Tensor:
        d = array_ops.shape(self._diag)
        return array_ops.concat([d, d[-1:]], 0)

    def _matmul(self, x: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        term = math_ops.conj(self._diag) if adjoint else self._diag
        x = _adjoint_matrix(x) if adjoint_arg else x
        return array_ops.expand_dims(term, -1) * x

    def _matvec(self, x: Tensor, adjoint: bool = False) -> Tensor:
        return (math_ops.conj(self._diag) if adjoint else self._diag) * x

    def _determinant(self) -> Tensor:
        return reduce_prod(self._diag, axis=[-1])

    def _log_abs_determinant(self) -> Tensor:
        value = reduce_sum(math_ops.log(math_ops.abs(self._diag)), axis=[-1])
        return math_ops.cast(value, self.dtype) if self.dtype.is_complex else value

    def _solve(self, rhs: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        term = math_ops.conj(self._diag) if adjoint else self._diag
        rhs = _adjoint_matrix(rhs) if adjoint_arg else rhs
        return array_ops.expand_dims(1.0 / term, -1) * rhs

    def _solvevec(self, rhs: Tensor, adjoint: bool = False) -> Tensor:
        return rhs / (math_ops.conj(self._diag) if adjoint else self._diag)

    def _to_dense(self) -> Tensor:
        return matrix_diag(self._diag)

    def _diag_part(self) -> Tensor:
        return self._diag * ones(self.shape_tensor()[:-1], dtype=self.dtype)

    def _add_to_tensor(self, x: Tensor) -> Tensor:
        return matrix_set_diag(x, self._diag + matrix_diag_part(x))

    def _eigvals(self) -> Tensor:
        return convert_to_tensor(self._diag)

    def _cond(self) -> Tensor:
        abs_diag = math_ops.abs(self._diag)
        return reduce_max(abs_diag, axis=-1) / reduce_min(abs_diag, axis=-1)

    def _assert_non_singular(self) -> Any:
        return check_ops.assert_positive(math_ops.abs(self._diag),
                                         message="Singular operator:  Diagonal contained "
                                                 "zero values.")

    def _assert_positive_definite(self) -> Any:
        diag = math_ops.real(self._diag) if self.dtype.is_complex else self._diag
        return check_ops.assert_positive(diag, message="This diagonal operator contained "
                                         "non-positive entries.")

    def _assert_self_adjoint(self) -> Any:
        return check_ops.assert_equal(self._diag, math_ops.conj(self._diag),
                                      message="This diagonal operator contained non-real "
                                              "entries.")

    def _linop_inverse(self) -> LinearOperator:
        return LinearOperatorDiag(1.0 / self._diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite,
                                  is_square=True)

    def _linop_cholesky(self) -> LinearOperator:
        return LinearOperatorDiag(math_ops.sqrt(self._diag), is_non_singular=True,
                                  is_self_adjoint=True, is_positive_definite=True,
                                  is_square=True)

    def _linop_adjoint(self) -> LinearOperator:
        return LinearOperatorDiag(math_ops.conj(self._diag),
                                  is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite,
                                  is_square=True)


def _static(t: Tensor) -> Any:
    from tf1compat.framework.constant_value import constant_value
    return constant_value(t)


def _nonnegative_int(value: Any, what: str, vector: bool = False) -> Tensor:
    t = convert_to_tensor(value, name=what)
    if not t.dtype.is_integer:
        raise TypeError(f"Argument {what} must be integer type.  Found: {t}")
    if t.shape.rank is not None and t.shape.rank != (1 if vector else 0):
        raise ValueError(f"Argument {what} must be a {'1-D' if vector else '0-D'} Tensor.  "
                         f"Found: {t}")
    static = _static(t)
    if static is not None and np.any(np.asarray(static) < 0):
        raise ValueError(f"Argument {what} must be non-negative.  Found: {static}")
    return t


