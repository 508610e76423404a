"""`tensorflow.python.ops.linalg.linear_operator_util`: the helpers of TF's LinearOperator
module that code outside it imports (TensorFlow Probability: reference-semantics checks
and batch-broadcasting solves)."""

from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.linalg.linear_operator import (_broadcast_batch, cholesky_solve_with_broadcast,
                                              matrix_solve_with_broadcast, shape_tensor)
from tf1compat.ops.matrix_ops import matrix_triangular_solve
from tf1compat.training.module import Module
from tf1compat.variables.variables import Variable

__all__ = ["is_ref", "assert_not_ref_type", "convert_nonref_to_tensor", "shape_tensor",
           "matrix_solve_with_broadcast", "cholesky_solve_with_broadcast",
           "matrix_triangular_solve_with_broadcast"]


def is_ref(x: Any) -> bool:
    """Whether `x` has reference semantics: a `tf.Variable`, or a `tf.Module` with `dtype`
    and `shape` (its value is read where it is used, not when it is passed)."""
    return isinstance(x, Variable) or (
        isinstance(x, Module) and hasattr(x, "dtype") and hasattr(x, "shape"))


def assert_not_ref_type(x: Any, arg_name: str) -> None:
    """TypeError when `x` has a reference dtype (`float32_ref`)."""
    if hasattr(x, "dtype") and D.as_dtype(x.dtype)._is_ref_dtype:
        raise TypeError(f"{arg_name}: Expected argument to have non-reference dtype.  "
                        f"Found: {x}")


def convert_nonref_to_tensor(value: Any, dtype: Any = None, dtype_hint: Any = None,
                             name: Optional[str] = None) -> Any:
    """`value` itself when `is_ref(value)` (checked against `dtype`), else
    `convert_to_tensor(value, dtype, dtype_hint)`."""
    if is_ref(value):
        if dtype is not None and not D.as_dtype(dtype).is_compatible_with(value.dtype):
            raise TypeError(f"Mutable type must be of dtype \"{D.as_dtype(dtype).name}\" but "
                            f"is \"{D.as_dtype(value.dtype).name}\".")
        return value
    return convert_to_tensor(value, dtype=dtype, dtype_hint=dtype_hint, name=name)


def matrix_triangular_solve_with_broadcast(matrix: Any, rhs: Any, lower: bool = True,
                                           adjoint: bool = False,
                                           name: Optional[str] = None) -> Tensor:
    """`matrix_triangular_solve` with the batch dimensions of both sides broadcast."""
    with name_scope(name, "MatrixTriangularSolve", [matrix, rhs]):
        matrix = convert_to_tensor(matrix, name="matrix")
        rhs = convert_to_tensor(rhs, name="rhs", dtype=matrix.dtype)
        matrix, rhs = _broadcast_batch(matrix, rhs)
        return matrix_triangular_solve(matrix, rhs, lower=lower, adjoint=adjoint)
