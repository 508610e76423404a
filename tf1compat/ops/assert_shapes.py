"""`tf.debugging.assert_shapes`: shapes and dimension relationships between tensors.

Each tensor is paired with a symbolic shape: ints are sizes, strings name a size shared
between tensors (`('N', 'Q')` and `('N', 'D')`), None or '.' is any size, a leading
`...` or `'*'` leaves the outer dimensions free. As TF's wrapper: rank checks first
(assert_rank / assert_rank_at_least / assert_rank_in [0, 1] for rank-0/1 specs), then a
size check per constrained dimension, each decided at graph build when both sizes are
static (ValueError naming the tensor, dimension and sizes) and an Assert op otherwise.
The result is a group of the size assertions under control dependencies on the rank
assertions.
"""

from __future__ import annotations

import collections
from typing import Any, Dict, List, Optional, Tuple

from tf1compat.framework import context as _context
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.operation import Operation
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor_conversion import convert_to_tensor

__all__ = ["assert_shapes"]

_DimSizes = collections.namedtuple("_DimSizes",
                                   ["x", "unspecified_dim", "actual_sizes", "symbolic_sizes"])


def _message_prefix(message: Optional[str]) -> str:
    return f"{message}.  " if message else ""


def _dimension_sizes(x: Any) -> Tuple[Any, ...]:
    """Static sizes as ints, unknown ones as tensors; a scalar counts as [1]."""
    from tf1compat.ops import array_ops, math_ops
    from tf1compat.ops.cond import cond
    from tf1compat.ops.creation_ops import ones
    dynamic = array_ops.shape(x)
    rank = x.shape.rank
    if rank == 0:
        return (1,)
    if rank is not None:
        return tuple(int(d) if d is not None else dynamic[i]
                     for i, d in enumerate(x.shape.as_list()))
    is_scalar = math_ops.equal(array_ops.rank(x), 0)
    return cond(is_scalar, lambda: ones([1], dtype=dynamic.dtype), lambda: dynamic)


def _has_known_value(size: Any) -> bool:
    if size is None:
        return False
    try:
        int(size)
    except (TypeError, ValueError):
        return False
    return True


def _shape_and_dtype(x: Any) -> str:
    return f"shape={x.shape} dtype={x.dtype.name}"


def assert_shapes(shapes: Any, data: Any = None, summarize: Optional[int] = None,
                  message: Optional[str] = None, name: Optional[str] = None) -> Operation:
    """`tf.debugging.assert_shapes`: an op that fails unless every shape constraint holds
    (a no_op-like group when all were checked at graph build); ValueError at graph build
    when a static check fails."""
    from tf1compat.ops import array_ops, math_ops
    from tf1compat.ops.check_ops import assert_rank, assert_rank_at_least
    from tf1compat.ops.control_flow_ops import group
    from tf1compat.ops.logging_ops import Assert
    from tf1compat.ops.numerics_ops import assert_rank_in
    if isinstance(shapes, dict):
        shapes = shapes.items()
    prefix = _message_prefix(message)
    eager = _context.executing_eagerly()
    with name_scope(name, "assert_shapes", [shapes, data]):
        constraints = [(x if isinstance(x, SparseTensor) else convert_to_tensor(x), s)
                       for x, s in shapes if s is not None]

        def tensor_name(x: Any) -> str:
            return _shape_and_dtype(x) if eager or isinstance(x, SparseTensor) else x.name

        sizes_of: List[_DimSizes] = []
        for tensor, symbolic in constraints:
            if not (hasattr(symbolic, "__iter__") or hasattr(symbolic, "__getitem__")):
                raise ValueError(f"{prefix}Tensor {tensor_name(tensor)}.  Specified shape "
                                 "must be an iterable.  An iterable has the attribute "
                                 "`__iter__` or `__getitem__`.  Received specified shape: "
                                 f"{symbolic}")
            symbols = tuple(symbolic)
            innermost = False
            for i, symbol in enumerate(symbols):
                if symbol is not Ellipsis and symbol != "*":
                    continue
                if i != 0:
                    raise ValueError(f"{prefix}Tensor {tensor_name(tensor)} specified shape "
                                     f"index {i}.  Symbol `...` or `*` for a variable number "
                                     "of unspecified dimensions is only allowed as the first "
                                     "entry")
                innermost = True
            spec = symbols[1:] if innermost else symbols
            sizes_of.append(_DimSizes(tensor, innermost, _dimension_sizes(tensor),
                                      spec if spec else (1,)))

        rank_assertions = []
        for sizes in sizes_of:
            rank = len(sizes.symbolic_sizes)
            low_rank = rank in (0, 1)
            if sizes.unspecified_dim:
                if low_rank:
                    continue  # any rank is acceptable
                rank_assertions.append(assert_rank_at_least(
                    x=sizes.x, rank=rank, data=data, summarize=summarize, message=message,
                    name=name))
            elif low_rank:
                # A [1] spec also matches a scalar (sizes treat scalars as [1]).
                rank_assertions.append(assert_rank_in(
                    x=sizes.x, ranks=[0, 1], data=data, summarize=summarize,
                    message=message, name=name))
            else:
                rank_assertions.append(assert_rank(
                    x=sizes.x, rank=rank, data=data, summarize=summarize, message=message,
                    name=name))

        size_assertions = []
        specified: Dict[Any, Tuple[Any, Any, int]] = {}
        for sizes in sizes_of:
            for i, symbol in enumerate(sizes.symbolic_sizes):
                if symbol is None or symbol == ".":
                    continue
                dim = i - len(sizes.symbolic_sizes) if sizes.unspecified_dim else i
                if symbol in specified or _has_known_value(symbol):
                    if _has_known_value(symbol):
                        expected = int(symbol)
                        origin = "Specified explicitly"
                    else:
                        expected, by, at = specified[symbol]
                        origin = f"Specified by tensor {tensor_name(by)} dimension {at}"
                    with control_dependencies(rank_assertions):
                        actual = sizes.actual_sizes[dim]
                    if _has_known_value(actual) and _has_known_value(expected):
                        if int(actual) != int(expected):
                            raise ValueError(
                                f"{prefix}{origin}.  Tensor {tensor_name(sizes.x)} dimension "
                                f"{dim} must have size {int(expected)}.  Received size "
                                f"{int(actual)}, shape {sizes.x.shape}")
                        continue
                    condition = math_ops.equal(convert_to_tensor(actual),
                                               convert_to_tensor(expected))
                    data_ = data
                    if data is None:
                        data_ = [prefix, origin, f"Tensor {tensor_name(sizes.x)} dimension",
                                 dim, "must have size", expected, "Received shape: ",
                                 array_ops.shape(sizes.x)]
                    size_assertions.append(Assert(condition, data_, summarize=summarize))
                else:
                    with control_dependencies(rank_assertions):
                        actual = sizes.actual_sizes[dim]
                    specified[symbol] = (actual, sizes.x, dim)

    with control_dependencies(rank_assertions):
        return group(size_assertions)
