"""Structured `tf.linalg.LinearOperator*` classes: LowerTriangular, Permutation,
Householder, Composition, Adjoint, Inversion, BlockDiag, BlockLowerTriangular, Kronecker,
LowRankUpdate (Circulant, Toeplitz and Tridiag are in linear_operator_banded.py).

Each gives its dense matrix (`_to_dense`) and shape; products, solves and determinants
use the structure where it is simple (composition chains, adjoints and inverses delegate,
block operators multiply block by block) and the dense matrix otherwise.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.linalg.linear_operator import (LinearOperator, _adjoint_matrix,
                                              cholesky_solve_with_broadcast,
                                              matrix_solve_with_broadcast)
from tf1compat.ops import array_ops, check_ops, math_ops
from tf1compat.ops.creation_ops import ones, zeros
from tf1compat.ops.linalg_ops import matmul as _matmul
from tf1compat.ops.matrix_ops import (cholesky, eye, matrix_band_part, matrix_determinant,
                                      matrix_diag_part, matrix_triangular_solve)
from tf1compat.ops.reduction_ops import reduce_prod, reduce_sum
from tf1compat.ops.transform_ops import broadcast_static_shape

__all__ = ["LinearOperatorLowerTriangular", "LinearOperatorPermutation",
           "LinearOperatorHouseholder", "LinearOperatorComposition", "LinearOperatorAdjoint",
           "LinearOperatorInversion", "LinearOperatorBlockDiag",
           "LinearOperatorBlockLowerTriangular", "LinearOperatorKronecker",
           "LinearOperatorLowRankUpdate"]


class LinearOperatorLowerTriangular(LinearOperator):
    """A lower-triangular operator (only the lower triangle of `tril` is read)."""

    def __init__(self, tril: Any, is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None,
                 name: str = "LinearOperatorLowerTriangular"):
        parameters = dict(tril=tril, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        with name_scope(name, values=[tril]):
            self._tril = convert_to_tensor(tril, name="tril")
            if self._tril.shape.rank is not None and self._tril.shape.rank < 2:
                raise ValueError(f"Argument tril must have at least 2 dimensions.  Found: "
                                 f"{self._tril}")
        super().__init__(dtype=self._tril.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         parameters=parameters, name=name)

    def _get_tril(self) -> Tensor:
        return matrix_band_part(self._tril, -1, 0)

    def _shape(self) -> TensorShape:
        return self._tril.shape

    def _shape_tensor(self) -> Tensor:
        return array_ops.shape(self._tril)

    def _matmul(self, x: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        return _matmul(self._get_tril(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _determinant(self) -> Tensor:
        return reduce_prod(matrix_diag_part(self._tril), axis=[-1])

    def _log_abs_determinant(self) -> Tensor:
        return reduce_sum(math_ops.log(math_ops.abs(matrix_diag_part(self._tril))), axis=[-1])

    def _solve(self, rhs: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        rhs = _adjoint_matrix(rhs) if adjoint_arg else rhs
        return matrix_triangular_solve(self._get_tril(), rhs, lower=True, adjoint=adjoint)

    def _to_dense(self) -> Tensor:
        return self._get_tril()

    def _eigvals(self) -> Tensor:
        return matrix_diag_part(self._tril)

    def _assert_non_singular(self) -> Any:
        return check_ops.assert_positive(math_ops.abs(matrix_diag_part(self._tril)),
                                         message="Singular operator:  Diagonal contained zero "
                                                 "values.")


class LinearOperatorPermutation(LinearOperator):
    """The permutation operator: (P x)[i] = x[perm[i]]."""

    def __init__(self, perm: Any, dtype: Any = D.float32, is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None,
                 is_square: Any = None, name: str = "LinearOperatorPermutation"):
        parameters = dict(perm=perm, dtype=dtype, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        if is_non_singular is False:
            raise ValueError("A Permutation operator is always non-singular.")
        if is_square is False:
            raise ValueError("A Permutation operator is always square.")
        with name_scope(name, values=[perm]):
            self._perm = convert_to_tensor(perm, name="perm")
            if not self._perm.dtype.is_integer:
                raise TypeError(f"Argument perm must have integer dtype. Found: "
                                f"{self._perm.dtype}")
        super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         parameters=parameters, name=name)

    @property
    def perm(self) -> Tensor:
        return self._perm

    def _shape(self) -> TensorShape:
        return self._perm.shape.concatenate(self._perm.shape[-1:]) \
            if self._perm.shape.rank is not None else TensorShape(None)

    def _shape_tensor(self) -> Tensor:
        s = array_ops.shape(self._perm)
        return array_ops.concat([s, s[-1:]], 0)

    def _to_dense(self) -> Tensor:
        from tf1compat.ops.creation_ops import one_hot
        return one_hot(self._perm, array_ops.shape(self._perm)[-1], dtype=self.dtype)

    def _determinant(self) -> Tensor:
        return matrix_determinant(self.to_dense())

    def _log_abs_determinant(self) -> Tensor:
        return zeros(self.batch_shape_tensor(), dtype=self.dtype)


class LinearOperatorHouseholder(LinearOperator):
    """The reflection I - 2 v v^H / (v^H v) for `reflection_axis` v."""

    def __init__(self, reflection_axis: Any, is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None,
                 is_square: Any = None, name: str = "LinearOperatorHouseholder"):
        parameters = dict(reflection_axis=reflection_axis, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        with name_scope(name, values=[reflection_axis]):
            self._axis = convert_to_tensor(reflection_axis, name="reflection_axis")
            if is_self_adjoint is False:
                raise ValueError("A Householder operator is always self adjoint.")
            if is_non_singular is False:
                raise ValueError("A Householder operator is always non-singular.")
            if is_positive_definite is True:
                raise ValueError("A Householder operator is always not positive definite.")
            if is_square is False:
                raise ValueError("A Householder operator is always square.")
        super().__init__(dtype=self._axis.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=True, is_positive_definite=False, is_square=True,
                         parameters=parameters, name=name)

    @property
    def reflection_axis(self) -> Tensor:
        return self._axis

    def _shape(self) -> TensorShape:
        return self._axis.shape.concatenate(self._axis.shape[-1:]) \
            if self._axis.shape.rank is not None else TensorShape(None)

    def _shape_tensor(self) -> Tensor:
        s = array_ops.shape(self._axis)
        return array_ops.concat([s, s[-1:]], 0)

    def _to_dense(self) -> Tensor:
        v = self._axis[..., None]
        norm_sq = _matmul(v, v, adjoint_a=True)
        identity = eye(array_ops.shape(self._axis)[-1], dtype=self.dtype)
        return identity - 2 * _matmul(v, v, adjoint_b=True) / norm_sq

    def _determinant(self) -> Tensor:
        return -ones(self.batch_shape_tensor(), dtype=self.dtype)

    def _log_abs_determinant(self) -> Tensor:
        return zeros(self.batch_shape_tensor(), dtype=self.dtype)

    def _solve(self, rhs: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        return self._matmul(rhs, adjoint, adjoint_arg)

    def _linop_inverse(self) -> LinearOperator:
        return self


def _common_dtype(operators: Sequence[LinearOperator]) -> D.DType:
    dtypes = {op.dtype for op in operators}
    if len(dtypes) > 1:
        raise TypeError("Expected all operators to have the same dtype.  Found "
                        f"{', '.join(str(d) for d in dtypes)}")
    return operators[0].dtype


def _batch_of(operators: Sequence[LinearOperator]) -> TensorShape:
    batch = operators[0].batch_shape
    for op in operators[1:]:
        batch = broadcast_static_shape(batch, op.batch_shape)
    return batch


class LinearOperatorComposition(LinearOperator):
    """The product operators[0] @ operators[1] @ ... ."""

    def __init__(self, operators: Sequence[LinearOperator], is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None,
                 is_square: Any = None, name: Optional[str] = None):
        operators = list(operators)
        if not operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
        parameters = dict(operators=operators, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        self._operators = operators
        dtype = _common_dtype(operators)
        if all(op.is_non_singular for op in operators):
            if is_non_singular is False:
                raise ValueError("The composition of non-singular operators is always "
                                 "non-singular.")
            is_non_singular = True
        name = name or "_o_".join(op.name for op in operators)
        super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         parameters=parameters, name=name)

    @property
    def operators(self) -> List[LinearOperator]:
        return self._operators

    def _shape(self) -> TensorShape:
        first, last = self._operators[0], self._operators[-1]
        matrix = TensorShape([first.range_dimension, last.domain_dimension])
        return _batch_of(self._operators).concatenate(matrix)

    def _matmul(self, x: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        ops = list(reversed(self._operators)) if adjoint else list(self._operators)
        result = ops[-1].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in reversed(ops[:-1]):
            result = op.matmul(result, adjoint=adjoint)
        return result

    def _determinant(self) -> Tensor:
        result = self._operators[0].determinant()
        for op in self._operators[1:]:
            result = result * op.determinant()
        return result

    def _log_abs_determinant(self) -> Tensor:
        result = self._operators[0].log_abs_determinant()
        for op in self._operators[1:]:
            result = result + op.log_abs_determinant()
        return result

    def _solve(self, rhs: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        ops = list(reversed(self._operators)) if adjoint else list(self._operators)
        solution = ops[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in ops[1:]:
            solution = op.solve(solution, adjoint=adjoint)
        return solution

    def _to_dense(self) -> Tensor:
        dense = self._operators[-1].to_dense()
        for op in reversed(self._operators[:-1]):
            dense = op.matmul(dense)
        return dense


class LinearOperatorAdjoint(LinearOperator):
    """The adjoint (conjugate transpose) of an operator."""

    def __init__(self, operator: LinearOperator, is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None,
                 is_square: Any = None, name: Optional[str] = None):
        parameters = dict(operator=operator, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        self._operator = operator
        for hint, mine, label in ((operator.is_non_singular, is_non_singular, "non-singular"),
                                  (operator.is_self_adjoint, is_self_adjoint, "self-adjoint"),
                                  (operator.is_positive_definite, is_positive_definite,
                                   "positive-definite"), (operator.is_square, is_square,
                                                          "square")):
            if hint is not None and mine is not None and hint != mine:
                raise ValueError(f"An operator is {label} if and only if its adjoint is "
                                 f"{label}.")
        super().__init__(dtype=operator.dtype,
                         is_non_singular=operator.is_non_singular if is_non_singular is None
                         else is_non_singular,
                         is_self_adjoint=operator.is_self_adjoint if is_self_adjoint is None
                         else is_self_adjoint,
                         is_positive_definite=operator.is_positive_definite
                         if is_positive_definite is None else is_positive_definite,
                         is_square=operator.is_square if is_square is None else is_square,
                         parameters=parameters, name=name or operator.name + "_adjoint")

    @property
    def operator(self) -> LinearOperator:
        return self._operator

    def _shape(self) -> TensorShape:
        s = self._operator.shape
        return s[:-2].concatenate([s[-1], s[-2]]) if s.rank is not None else s

    def _matmul(self, x: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        return self._operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self) -> Tensor:
        det = self._operator.determinant()
        return math_ops.conj(det) if self.dtype.is_complex else det

    def _log_abs_determinant(self) -> Tensor:
        return self._operator.log_abs_determinant()

    def _solve(self, rhs: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        return self._operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self) -> Tensor:
        return _adjoint_matrix(self._operator.to_dense())


class LinearOperatorInversion(LinearOperator):
    """The inverse of a non-singular operator (products are its solves)."""

    def __init__(self, operator: LinearOperator, is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None,
                 is_square: Any = None, name: Optional[str] = None):
        parameters = dict(operator=operator, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        self._operator = operator
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError(f"operator and supplied hints must have is_non_singular equal "
                             f"to True/None.  Found operator.is_non_singular = "
                             f"{operator.is_non_singular}, is_non_singular = "
                             f"{is_non_singular}.")
        if operator.is_square is False or is_square is False:
            raise ValueError("operator and supplied hints must have is_square equal to "
                             "True/None.")
        super().__init__(dtype=operator.dtype,
                         is_non_singular=operator.is_non_singular if is_non_singular is None
                         else is_non_singular,
                         is_self_adjoint=operator.is_self_adjoint if is_self_adjoint is None
                         else is_self_adjoint,
                         is_positive_definite=operator.is_positive_definite
                         if is_positive_definite is None else is_positive_definite,
                         is_square=True, parameters=parameters,
                         name=name or operator.name + "_inv")

    @property
    def operator(self) -> LinearOperator:
        return self._operator

    def _shape(self) -> TensorShape:
        return self._operator.shape

    def _matmul(self, x: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        return self._operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self) -> Tensor:
        return 1.0 / self._operator.determinant()

    def _log_abs_determinant(self) -> Tensor:
        return -1.0 * self._operator.log_abs_determinant()

    def _solve(self, rhs: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        return self._operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self) -> Tensor:
        from tf1compat.ops.matrix_ops import matrix_inverse
        return matrix_inverse(self._operator.to_dense())


def _assemble_blocks(rows: Sequence[Sequence[Optional[Tensor]]], row_dims: Sequence[Any],
                     col_dims: Sequence[Any], dtype: D.DType, batch: TensorShape) -> Tensor:
    """A dense matrix from blocks (None blocks are zeros)."""
    pieces = []
    for i, row in enumerate(rows):
        cells = []
        for j, block in enumerate(row):
            if block is None:
                shape = batch.as_list() + [row_dims[i], col_dims[j]]
                block = zeros(shape, dtype=dtype)
            cells.append(block)
        pieces.append(array_ops.concat(cells, axis=-1))
    return array_ops.concat(pieces, axis=-2)


def _static_dims(operators: Sequence[LinearOperator], which: str) -> List[int]:
    dims = [dimension_value(getattr(op, which)) for op in operators]
    if None in dims:
        raise NotImplementedError("tf1compat's block operators need the blocks' dimensions "
                                  "known at graph build")
    return dims


class LinearOperatorBlockDiag(LinearOperator):
    """A block-diagonal operator of square blocks."""

    def __init__(self, operators: Sequence[LinearOperator], is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None,
                 is_square: Any = True, name: Optional[str] = None):
        operators = list(operators)
        if not operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
        parameters = dict(operators=operators, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        self._operators = operators
        dtype = _common_dtype(operators)
        for attr, label in (("is_non_singular", "non-singular"),
                            ("is_self_adjoint", "self-adjoint"),
                            ("is_positive_definite", "positive-definite")):
            if all(getattr(op, attr) for op in operators):
                if locals()[attr] is False:
                    raise ValueError(f"The direct sum of {label} operators is always "
                                     f"{label}.")
        if all(op.is_non_singular for op in operators):
            is_non_singular = True
        if all(op.is_self_adjoint for op in operators):
            is_self_adjoint = True
        if all(op.is_positive_definite for op in operators):
            is_positive_definite = True
        super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         parameters=parameters, name=name or "_ds_".join(
                             op.name for op in operators))

    @property
    def operators(self) -> List[LinearOperator]:
        return self._operators

    def _shape(self) -> TensorShape:
        rows = [dimension_value(op.range_dimension) for op in self._operators]
        cols = [dimension_value(op.domain_dimension) for op in self._operators]
        matrix = TensorShape([None if None in rows else sum(rows),
                              None if None in cols else sum(cols)])
        return _batch_of(self._operators).concatenate(matrix)

    def _to_dense(self) -> Tensor:
        rows = _static_dims(self._operators, "range_dimension")
        cols = _static_dims(self._operators, "domain_dimension")
        batch = _batch_of(self._operators)
        grid = [[op.to_dense() if i == j else None for j in range(len(self._operators))]
                for i, op in enumerate(self._operators)]
        return _assemble_blocks(grid, rows, cols, self.dtype, batch)

    def _matmul(self, x: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        x = _adjoint_matrix(x) if adjoint_arg else x
        dims = _static_dims(self._operators, "range_dimension" if adjoint
                            else "domain_dimension")
        parts = array_ops.split(x, dims, axis=-2)
        return array_ops.concat([op.matmul(p, adjoint=adjoint)
                                 for op, p in zip(self._operators, parts)], axis=-2)

    def _determinant(self) -> Tensor:
        result = self._operators[0].determinant()
        for op in self._operators[1:]:
            result = result * op.determinant()
        return result

    def _log_abs_determinant(self) -> Tensor:
        result = self._operators[0].log_abs_determinant()
        for op in self._operators[1:]:
            result = result + op.log_abs_determinant()
        return result

    def _solve(self, rhs: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        rhs = _adjoint_matrix(rhs) if adjoint_arg else rhs
        dims = _static_dims(self._operators, "domain_dimension" if adjoint
                            else "range_dimension")
        parts = array_ops.split(rhs, dims, axis=-2)
        return array_ops.concat([op.solve(p, adjoint=adjoint)
                                 for op, p in zip(self._operators, parts)], axis=-2)

    def _diag_part(self) -> Tensor:
        return array_ops.concat([op.diag_part() for op in self._operators], axis=-1)


class LinearOperatorBlockLowerTriangular(LinearOperator):
    """A block lower-triangular operator; row i of `operators` lists blocks (i, 0..i)."""

    def __init__(self, operators: Sequence[Sequence[LinearOperator]],
                 is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None,
                 name: str = "LinearOperatorBlockLowerTriangular"):
        operators = [list(row) for row in operators]
        if not operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
        for i, row in enumerate(operators):
            if len(row) != i + 1:
                raise ValueError(f"Argument `operators[{i}]` must contain `{i + 1}` blocks. "
                                 f"Found: {len(row)} blocks.")
        parameters = dict(operators=operators, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        self._operators = operators
        flat = [op for row in operators for op in row]
        dtype = _common_dtype(flat)
        diagonal = [row[-1] for row in operators]
        if all(op.is_non_singular for op in diagonal):
            is_non_singular = True
        super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         parameters=parameters, name=name)

    @property
    def operators(self) -> List[List[LinearOperator]]:
        return self._operators

    def _shape(self) -> TensorShape:
        diagonal = [row[-1] for row in self._operators]
        dims = [dimension_value(op.domain_dimension) for op in diagonal]
        n = None if None in dims else sum(dims)
        return _batch_of([op for row in self._operators for op in row]).concatenate([n, n])

    def _to_dense(self) -> Tensor:
        diagonal = [row[-1] for row in self._operators]
        dims = _static_dims(diagonal, "domain_dimension")
        grid = [[row[j].to_dense() if j < len(row) else None
                 for j in range(len(self._operators))] for row in self._operators]
        batch = _batch_of([op for row in self._operators for op in row])
        return _assemble_blocks(grid, dims, dims, self.dtype, batch)

    def _determinant(self) -> Tensor:
        result = self._operators[0][-1].determinant()
        for row in self._operators[1:]:
            result = result * row[-1].determinant()
        return result

    def _log_abs_determinant(self) -> Tensor:
        result = self._operators[0][-1].log_abs_determinant()
        for row in self._operators[1:]:
            result = result + row[-1].log_abs_determinant()
        return result


class LinearOperatorKronecker(LinearOperator):
    """The Kronecker product operators[0] x operators[1] x ... ."""

    def __init__(self, operators: Sequence[LinearOperator], is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None,
                 is_square: Any = None, name: Optional[str] = None):
        operators = list(operators)
        if not operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
        parameters = dict(operators=operators, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        self._operators = operators
        dtype = _common_dtype(operators)
        if all(op.is_non_singular for op in operators):
            is_non_singular = True
        if all(op.is_self_adjoint for op in operators):
            is_self_adjoint = True
        super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         parameters=parameters,
                         name=name or "_x_".join(op.name for op in operators))

    @property
    def operators(self) -> List[LinearOperator]:
        return self._operators

    def _shape(self) -> TensorShape:
        rows = [dimension_value(op.range_dimension) for op in self._operators]
        cols = [dimension_value(op.domain_dimension) for op in self._operators]
        matrix = TensorShape([None if None in rows else int(np.prod(rows)),
                              None if None in cols else int(np.prod(cols))])
        return _batch_of(self._operators).concatenate(matrix)

    def _to_dense(self) -> Tensor:
        dense = self._operators[0].to_dense()
        for op in self._operators[1:]:
            other = op.to_dense()
            outer = dense[..., :, None, :, None] * other[..., None, :, None, :]
            shape = array_ops.shape(outer)
            dense = array_ops.reshape(outer, array_ops.concat(
                [shape[:-4], [shape[-4] * shape[-3], shape[-2] * shape[-1]]], 0))
        dense.set_shape(self.shape)
        return dense

    def _determinant(self) -> Tensor:
        total = dimension_value(self.range_dimension)
        result = None
        for op in self._operators:
            n = dimension_value(op.range_dimension)
            term = op.determinant() ** math_ops.cast(total // n, op.dtype)
            result = term if result is None else result * term
        return result


class LinearOperatorLowRankUpdate(LinearOperator):
    """base_operator + U diag(diag_update) V^H (V defaults to U)."""

    def __init__(self, base_operator: LinearOperator, u: Any, diag_update: Any = None,
                 v: Any = None, is_diag_update_positive: Any = None,
                 is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None,
                 name: str = "LinearOperatorLowRankUpdate"):
        parameters = dict(base_operator=base_operator, u=u, diag_update=diag_update, v=v,
                          is_diag_update_positive=is_diag_update_positive,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        dtype = base_operator.dtype
        with name_scope(name):
            self._base = base_operator
            self._u = convert_to_tensor(u, name="u", dtype=dtype)
            self._v = self._u if v is None else convert_to_tensor(v, name="v", dtype=dtype)
            self._diag_update = None if diag_update is None else \
                convert_to_tensor(diag_update, name="diag_update", dtype=dtype)
        if v is None and base_operator.is_self_adjoint:
            if is_self_adjoint is False:
                raise ValueError("A = L + UDU^H, with L self-adjoint and D real diagonal.  "
                                 "Since UDU^H is self-adjoint, this must be a self-adjoint "
                                 "operator.")
            is_self_adjoint = True
        # TF factors the capacitance by Cholesky only when L and D are known positive
        # definite and the update is symmetric; otherwise it solves it by LU, so a
        # "positive definite" hint on A alone (MultivariateNormalDiagPlusLowRank's, with
        # any scale_diag) never sends an indefinite matrix to Cholesky.
        self._use_cholesky = bool(base_operator.is_positive_definite and
                                  base_operator.is_self_adjoint and
                                  is_diag_update_positive and v is None)
        if self._use_cholesky:
            if is_positive_definite is False or is_self_adjoint is False or \
                    is_non_singular is False:
                raise ValueError("Arguments imply this is self-adjoint positive-definite "
                                 "operator.")
            is_positive_definite = is_self_adjoint = True
        super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         parameters=parameters, name=name)
        self._is_diag_update_positive = is_diag_update_positive
        if self._diag_update is None:
            from tf1compat.linalg.linear_operator_identity import LinearOperatorIdentity
            rank = dimension_value(self._u.shape[-1])
            self._diag_operator: LinearOperator = LinearOperatorIdentity(
                num_rows=rank if rank is not None else array_ops.shape(self._u)[-1],
                dtype=dtype)
        else:
            from tf1compat.linalg.linear_operator import LinearOperatorDiag
            self._diag_operator = LinearOperatorDiag(
                self._diag_update, is_non_singular=True, is_self_adjoint=True,
                is_positive_definite=is_diag_update_positive, is_square=True)

    @property
    def base_operator(self) -> LinearOperator:
        return self._base

    @property
    def u(self) -> Tensor:
        return self._u

    @property
    def v(self) -> Tensor:
        return self._v

    @property
    def diag_update(self) -> Optional[Tensor]:
        return self._diag_update

    def _shape(self) -> TensorShape:
        batch = broadcast_static_shape(self._base.batch_shape, self._u.shape[:-2])
        return batch.concatenate(self._base.shape[-2:])

    def _to_dense(self) -> Tensor:
        u = self._u if self._diag_update is None else \
            self._u * self._diag_update[..., None, :]
        return self._base.to_dense() + _matmul(u, self._v, adjoint_b=True)

    @property
    def is_diag_update_positive(self) -> Any:
        return self._is_diag_update_positive

    @property
    def diag_operator(self) -> LinearOperator:
        return self._diag_operator

    def _make_capacitance(self) -> Tensor:
        """C = D^-1 + V^H L^-1 U."""
        vh_linv_u = _matmul(self._v, self._base.solve(self._u), adjoint_a=True)
        return self._diag_operator.inverse().add_to_tensor(vh_linv_u)

    def _log_abs_determinant(self) -> Tensor:
        # det(L + U D V^H) = det(C) det(D) det(L)
        log_abs_det_d = self._diag_operator.log_abs_determinant()
        log_abs_det_l = self._base.log_abs_determinant()
        if self._use_cholesky:
            chol_diag = matrix_diag_part(cholesky(self._make_capacitance()))
            log_abs_det_c = 2 * reduce_sum(math_ops.log(chol_diag), axis=[-1])
        else:
            det_c = matrix_determinant(self._make_capacitance())
            log_abs_det_c = math_ops.log(math_ops.abs(det_c))
        return log_abs_det_c + log_abs_det_d + log_abs_det_l

    def _determinant(self) -> Tensor:
        if self.is_positive_definite:
            return math_ops.exp(self.log_abs_determinant())
        return matrix_determinant(self._make_capacitance()) * \
            self._diag_operator.determinant() * self._base.determinant()

    def _solve(self, rhs: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        """Woodbury: (L + U D V^H)^-1 = L^-1 - L^-1 U C^-1 V^H L^-1, as TF."""
        if self._base.is_non_singular is False:
            raise ValueError("Solve not implemented unless this is a perturbation of a "
                             "non-singular LinearOperator.")
        base = self._base
        u, v = (self._v, self._u) if adjoint else (self._u, self._v)
        linv_rhs = base.solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        vh_linv_rhs = _matmul(v, linv_rhs, adjoint_a=True)
        if self._use_cholesky:
            capinv = cholesky_solve_with_broadcast(cholesky(self._make_capacitance()),
                                                   vh_linv_rhs)
        else:
            capinv = matrix_solve_with_broadcast(self._make_capacitance(), vh_linv_rhs,
                                                 adjoint=adjoint)
        return linv_rhs - base.solve(_matmul(u, capinv), adjoint=adjoint)
