"""`tf.linalg.LinearOperatorCirculant` (1-3 D), `LinearOperatorToeplitz` and
`LinearOperatorTridiag`: operators given by a few generating vectors, with dense matrices
built by gathering them (and the tridiagonal ops for Tridiag's products and solves)."""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.linalg.linear_operator import LinearOperator, _adjoint_matrix
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.linalg_ops import matmul as _matmul
from tf1compat.ops.transform_ops import broadcast_static_shape

__all__ = ["LinearOperatorCirculant", "LinearOperatorCirculant2D", "LinearOperatorCirculant3D",
           "LinearOperatorToeplitz", "LinearOperatorTridiag"]


class _Circulant(LinearOperator):
    """Circulant operators: dense[i, j] = h[(i - j) mod n], h the inverse FFT of the
    spectrum over the last `rank` dimensions (blocks nested for 2-D and 3-D)."""

    _RANK = 1

    def __init__(self, spectrum: Any, input_output_dtype: Any = D.complex64,
                 is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = True,
                 name: Optional[str] = None):
        parameters = dict(spectrum=spectrum, input_output_dtype=input_output_dtype,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        with name_scope(name or type(self).__name__, values=[spectrum]):
            self._spectrum = convert_to_tensor(spectrum, name="spectrum")
            if not self._spectrum.dtype.is_complex:
                if is_self_adjoint is False:
                    raise ValueError("A real spectrum always corresponds to a self-adjoint "
                                     "operator.")
                is_self_adjoint = True
        super().__init__(dtype=D.as_dtype(input_output_dtype),
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         parameters=parameters, name=name or type(self).__name__)

    @property
    def spectrum(self) -> Tensor:
        return self._spectrum

    def _block_dims(self) -> List[int]:
        dims = self._spectrum.shape.as_list()[-self._RANK:]
        if None in dims:
            raise NotImplementedError("tf1compat's circulant operators need the spectrum's "
                                      "shape known at graph build")
        return dims

    def _shape(self) -> TensorShape:
        dims = self._spectrum.shape.as_list()[-self._RANK:]
        n = None if None in dims else int(np.prod(dims))
        return self._spectrum.shape[:-self._RANK].concatenate([n, n])

    def _to_dense(self) -> Tensor:
        from tf1compat.ops.indexing_ops import gather
        from tf1compat.ops.math_extra import ifft, ifft2d, ifft3d, real
        dims = self._block_dims()
        spectrum = self._spectrum
        complex_dtype = D.complex128 if self.dtype in (D.float64, D.complex128) \
            else D.complex64
        spectrum = math_ops.cast(spectrum, complex_dtype)
        kernel = {1: ifft, 2: ifft2d, 3: ifft3d}[self._RANK](spectrum)
        n = int(np.prod(dims))
        # index[i, j] = flat position of ((i - j) mod dims) in each nested coordinate.
        coords = np.stack(np.unravel_index(np.arange(n), dims), axis=-1)
        diff = (coords[:, None, :] - coords[None, :, :]) % np.array(dims)
        index = np.ravel_multi_index(tuple(diff[..., k] for k in range(len(dims))), dims)
        flat = array_ops.reshape(kernel, array_ops.concat(
            [array_ops.shape(kernel)[:-self._RANK], [n]], 0))
        dense = gather(flat, index, axis=-1)
        return math_ops.cast(real(dense) if not self.dtype.is_complex else dense,
                             self.dtype)


class LinearOperatorCirculant(_Circulant):
    """A circulant operator given by its spectrum (eigenvalues in DFT order)."""
    _RANK = 1


class LinearOperatorCirculant2D(_Circulant):
    """A block-circulant operator with circulant blocks (2-D spectrum)."""
    _RANK = 2


class LinearOperatorCirculant3D(_Circulant):
    """A doubly nested block-circulant operator (3-D spectrum)."""
    _RANK = 3


class LinearOperatorToeplitz(LinearOperator):
    """The Toeplitz operator with first column `col` and first row `row` (row[0] unused)."""

    def __init__(self, col: Any, row: Any, is_non_singular: Any = None,
                 is_self_adjoint: Any = None, is_positive_definite: Any = None,
                 is_square: Any = None, name: str = "LinearOperatorToeplitz"):
        parameters = dict(col=col, row=row, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        with name_scope(name, values=[row, col]):
            self._row = convert_to_tensor(row, name="row")
            self._col = convert_to_tensor(col, name="col", dtype=self._row.dtype)
        super().__init__(dtype=self._row.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         parameters=parameters, name=name)

    @property
    def col(self) -> Tensor:
        return self._col

    @property
    def row(self) -> Tensor:
        return self._row

    def _shape(self) -> TensorShape:
        batch = broadcast_static_shape(self._row.shape[:-1], self._col.shape[:-1])
        n = self._row.shape[-1]
        return batch.concatenate([n, n])

    def _to_dense(self) -> Tensor:
        from tf1compat.ops.indexing_ops import gather
        n = dimension_value(self._row.shape[-1])
        if n is None:
            raise NotImplementedError("tf1compat's LinearOperatorToeplitz needs the size "
                                      "known at graph build")
        # Flattened values [row[n-1], ..., row[1], col[0], ..., col[n-1]]; entry (i, j) is
        # at n - 1 + i - j.
        values = array_ops.concat([self._row[..., :0:-1], self._col], axis=-1)
        index = (n - 1) + np.arange(n)[:, None] - np.arange(n)[None, :]
        return gather(values, index, axis=-1)


class LinearOperatorTridiag(LinearOperator):
    """A tridiagonal operator given by its diagonals (compact, sequence or matrix)."""

    def __init__(self, diagonals: Any, diagonals_format: str = "compact",
                 is_non_singular: Any = None, is_self_adjoint: Any = None,
                 is_positive_definite: Any = None, is_square: Any = None,
                 name: str = "LinearOperatorTridiag"):
        from tf1compat.ops.linalg_extra import _diagonals_from
        parameters = dict(diagonals=diagonals, diagonals_format=diagonals_format,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        if diagonals_format not in ("compact", "sequence", "matrix"):
            raise ValueError(f"Diagonals Format must be one of compact, matrix, sequence, "
                             f"got : {diagonals_format}")
        with name_scope(name, values=[diagonals]):
            self._diagonals_format = diagonals_format
            self._super, self._main, self._sub = _diagonals_from(diagonals, diagonals_format)
            self._diagonals = diagonals
        super().__init__(dtype=self._main.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         parameters=parameters, name=name)

    @property
    def diagonals(self) -> Any:
        return self._diagonals

    @property
    def diagonals_format(self) -> str:
        return self._diagonals_format

    def _shape(self) -> TensorShape:
        n = self._main.shape[-1]
        return self._main.shape[:-1].concatenate([n, n])

    def _to_dense(self) -> Tensor:
        from tf1compat.ops.matrix_ops import matrix_diag
        diagonals = array_ops.stack([self._super, self._main, self._sub], axis=-2)
        return matrix_diag(diagonals, k=(-1, 1), align="LEFT_RIGHT")

    def _matmul(self, x: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        from tf1compat.ops.linalg_extra import tridiagonal_matmul
        x = _adjoint_matrix(x) if adjoint_arg else x
        if adjoint:
            return _matmul(self.to_dense(), x, adjoint_a=True)
        diagonals = array_ops.stack([self._super, self._main, self._sub], axis=-2)
        return tridiagonal_matmul(diagonals, x)

    def _solve(self, rhs: Tensor, adjoint: bool = False, adjoint_arg: bool = False) -> Tensor:
        from tf1compat.ops.linalg_extra import tridiagonal_solve
        rhs = _adjoint_matrix(rhs) if adjoint_arg else rhs
        if adjoint:
            return super()._solve(rhs, adjoint=True)
        diagonals = array_ops.stack([self._super, self._main, self._sub], axis=-2)
        return tridiagonal_solve(diagonals, rhs)

    def _diag_part(self) -> Tensor:
        return self._main
