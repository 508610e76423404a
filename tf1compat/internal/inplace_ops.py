"""`tensorflow.python.ops.inplace_ops`: row updates of a tensor (tensor2tensor's greedy
and beam-search decoders write each step's ids with `alias_inplace_update`).

`i` may be None (the whole tensor, v of x's shape), a scalar (one row, v of a row's
shape) or a vector (v with one row per entry), as in TF. The `alias_*` forms are one
Inplace* op on x; the plain forms copy x first (DeepCopy). Here every form leaves x as it
was (tf1compat/ops/inplace_ops.py says why that is one of TF's outcomes).
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op1
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import inplace_ops as _declared  # noqa: F401 - registers the op types
from tf1compat.ops.array_ops import expand_dims, reshape, shape
from tf1compat.ops.math_ops import cast
from tf1compat.util.deprecation import deprecated

__all__ = ["alias_inplace_update", "alias_inplace_add", "alias_inplace_sub",
           "inplace_update", "inplace_add", "inplace_sub", "empty", "empty_like"]


def _rows_op(op_type: str, x: Any, i: Any, v: Any) -> Tensor:
    """One `op_type` op on (x, i, v), i None / scalar / vector as the module says."""
    x = convert_to_tensor(x)
    v = convert_to_tensor(v, dtype=x.dtype)
    if i is None:
        flat = apply_op1(op_type, [reshape(x, [1, -1]), [0], reshape(v, [1, -1])])
        return reshape(flat, shape(x))
    i = cast(i, D.int32)
    if i.shape.ndims == 0:
        return apply_op1(op_type, [x, reshape(i, [1]), expand_dims(v, 0)])
    return apply_op1(op_type, [x, i, v])


def _deep_copy(x: Any) -> Tensor:
    return apply_op1("DeepCopy", [x])


@deprecated(None, "Prefer tf.tensor_scatter_nd_update, which offers the same functionality "
            "with well-defined read-write semantics.")
def alias_inplace_update(x: Any, i: Any, v: Any) -> Tensor:
    """x with rows i set to v (InplaceUpdate on x itself)."""
    return _rows_op("InplaceUpdate", x, i, v)


@deprecated(None, "Prefer tf.tensor_scatter_nd_add, which offers the same functionality "
            "with well-defined read-write semantics.")
def alias_inplace_add(x: Any, i: Any, v: Any) -> Tensor:
    """x with v added to rows i (InplaceAdd on x itself)."""
    return _rows_op("InplaceAdd", x, i, v)


@deprecated(None, "Prefer tf.tensor_scatter_nd_sub, which offers the same functionality "
            "with well-defined read-write semantics.")
def alias_inplace_sub(x: Any, i: Any, v: Any) -> Tensor:
    """x with v subtracted from rows i (InplaceSub on x itself)."""
    return _rows_op("InplaceSub", x, i, v)


@deprecated(None, "Prefer tf.tensor_scatter_nd_update, which offers the same functionality "
            "with well-defined read-write semantics.")
def inplace_update(x: Any, i: Any, v: Any) -> Tensor:
    """A copy of x with rows i set to v."""
    return alias_inplace_update(_deep_copy(x), i, v)


@deprecated(None, "Prefer tf.tensor_scatter_nd_add, which offers the same functionality "
            "with well-defined read-write semantics.")
def inplace_add(x: Any, i: Any, v: Any) -> Tensor:
    """A copy of x with v added to rows i."""
    return alias_inplace_add(_deep_copy(x), i, v)


@deprecated(None, "Prefer tf.tensor_scatter_nd_sub, which offers the same functionality "
            "with well-defined read-write semantics.")
def inplace_sub(x: Any, i: Any, v: Any) -> Tensor:
    """A copy of x with v subtracted from rows i."""
    return alias_inplace_sub(_deep_copy(x), i, v)


def empty(shape: Any, dtype: Any, init: bool = False, name: Optional[str] = None) -> Tensor:
    """One `Empty` op: a tensor of `shape` whose contents are unspecified unless init."""
    return apply_op1("Empty", [shape], {"dtype": D.as_dtype(dtype), "init": bool(init)},
                     name=name)


def empty_like(x: Any, init: Optional[bool] = None) -> Tensor:
    """An `Empty` tensor of x's run-time shape and dtype."""
    x = convert_to_tensor(x)
    return empty(shape(x), x.dtype, init=bool(init))
