"""Elementwise math on RaggedTensors (TF 1.15's ragged_operators / ragged_dispatch for
the unary and binary elementwise ops): the op runs on `flat_values`; two ragged operands
must have the same row partitions (checked at run time, InvalidArgumentError), and a
dense operand broadcasts as TF's ragged_tensor_shape.broadcast_to (`broadcast_dense`: over
the flat values' inner dimensions, or gathered per flat value when it lines up with the
rows or ragged dimensions). `RaggedTensor`'s `+ - * / // % ** < <= > >= & | ^ - abs ~`
call these, and the handlers registered below with ops/dispatch.py let `tf.add`, `tf.exp`,
`tf.cast`, `tf.add_n` ... take RaggedTensors.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import (array_ops, check_ops, creation_ops, dispatch, indexing_ops,
                           math_ops, reduction_ops)
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ragged import _row_ops as R
from tf1compat.ragged.ragged_tensor import RaggedTensor

__all__ = ["map_flat_values", "add", "subtract", "multiply", "truediv", "floordiv",
           "floormod", "pow", "less", "less_equal", "greater", "greater_equal",
           "logical_and", "logical_or", "logical_xor", "negative", "abs", "logical_not"]


def splits_match(splits: Any, other: Any) -> list:
    """The run-time checks that two RaggedTensors' nested row splits are equal (TF's
    InvalidArgumentError "Inputs must have identical ragged splits"; incompatible static
    shapes raise it at once)."""
    checks = []
    for a, b in zip(splits, other):
        if not a.shape.is_compatible_with(b.shape):
            raise errors.InvalidArgumentError(None, None,
                                              "Inputs must have identical ragged splits")
        if a is not b:
            checks.append(check_ops.assert_equal(
                a, math_ops.cast(b, a.dtype), message="Inputs must have identical ragged splits"))
    return checks


def map_flat_values(op: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`tf.ragged.map_flat_values`: `op` applied to the flat values of the RaggedTensor
    arguments (which must share their row partitions); the result keeps that partition."""
    ragged = [a for a in list(args) + list(kwargs.values()) if isinstance(a, RaggedTensor)]
    if not ragged:
        return op(*args, **kwargs)
    template = ragged[0]
    splits = template.nested_row_splits
    checks = []
    for other in ragged[1:]:
        if other.ragged_rank != template.ragged_rank:
            raise ValueError("All ragged inputs must have the same ragged_rank.")
        checks += splits_match(splits, other.nested_row_splits)

    def flat(x: Any) -> Any:
        if not isinstance(x, RaggedTensor):
            return x
        return with_dependencies(checks, x.flat_values) if checks else x.flat_values
    result = op(*[flat(a) for a in args], **{k: flat(v) for k, v in kwargs.items()})
    return template.with_flat_values(result)


def broadcast_dense(dense: Tensor, rt: RaggedTensor) -> Tensor:
    """`dense` made to broadcast against `rt.flat_values` as TF broadcasts it against `rt`
    (ragged_tensor_shape.broadcast_to): a dense dimension lined up with `rt`'s rows or a
    ragged dimension is 1 (repeated over it) or its size (the number of rows; at a ragged
    dimension every row's length, checked at run time), and each flat value takes the
    dense element at its own indices (one gather)."""
    flat_rank = rt.flat_values.shape.rank
    rank = dense.shape.rank
    if rank is None or flat_rank is None:
        raise NotImplementedError("a RaggedTensor op with a dense operand of unknown rank is "
                                  "not supported by tf1compat")
    if rank < flat_rank:        # lines up with the flat values' inner dimensions only
        return dense
    outer = rt.ragged_rank + 1  # the dimensions of rows and ragged positions
    full = outer + flat_rank - 1
    if rank > full:
        raise NotImplementedError("a RaggedTensor op with a dense operand of higher rank "
                                  "(the RaggedTensor broadcast to new outer dimensions) is "
                                  "not supported by tf1compat")
    if rank < full:
        dense = array_ops.reshape(dense, array_ops.concat(
            [creation_ops.ones([full - rank], dtype=D.int32), array_ops.shape(dense)], 0))
    static = dense.shape.as_list()[:outer]
    inner = array_ops.shape(dense)[outer:]
    if all(d == 1 for d in static):     # no gather: the inner dimensions only
        return array_ops.reshape(dense, inner)
    nrows = rt.shape.as_list()[0]
    if nrows == 1 and static[0] not in (1, None):
        raise NotImplementedError("a RaggedTensor of one row broadcast to the rows of a "
                                  "dense operand is not supported by tf1compat")
    splits_dtype = rt.row_splits.dtype
    sizes = array_ops.shape(dense, out_type=splits_dtype)
    lengths = [rt.nrows()] + [R.splits_to_lengths(s) for s in rt.nested_row_splits]
    indices = R.flat_value_indices(rt.nested_row_splits)
    index, stride, checks = None, None, []
    for d in reversed(range(outer)):
        size = sizes[d] if static[d] is None else static[d]
        if static[d] != 1:
            term = indices[d]
            fits = reduction_ops.reduce_all(math_ops.equal(lengths[d], size))
            if static[d] is None:   # a size-1 dimension repeats its element
                is_one = math_ops.equal(size, 1)
                term = term * math_ops.cast(math_ops.logical_not(is_one), splits_dtype)
                fits = math_ops.logical_or(is_one, fits)
            term = term if stride is None else term * stride
            index = term if index is None else index + term
            if d or nrows is None or static[0] != nrows:
                checks.append(check_ops.assert_equal(
                    fits, True, message="Unable to broadcast: dimension size mismatch"))
        stride = size if stride is None else stride * size
    flat_dense = array_ops.reshape(dense, array_ops.concat([[-1], inner], 0))
    return indexing_ops.gather(flat_dense, with_dependencies(checks, index) if checks
                               else index)


def _binary_flat(fn: Callable[..., Any], x: Any, y: Any, *args: Any, **kwargs: Any) -> Any:
    """`fn(x, y, ...)` with one or both operands ragged, as TF's
    BinaryRaggedElementwiseDispatcher: the dense one is converted (preferring the ragged
    one's dtype) and must broadcast against the flat values alone."""
    ragged = x if isinstance(x, RaggedTensor) else y
    if not isinstance(x, RaggedTensor):
        x = convert_to_tensor(x, dtype_hint=ragged.dtype, name="x")
    if not isinstance(y, RaggedTensor):
        y = convert_to_tensor(y, dtype_hint=ragged.dtype, name="y")
    if not isinstance(x, RaggedTensor):
        x = broadcast_dense(x, ragged)
    if not isinstance(y, RaggedTensor):
        y = broadcast_dense(y, ragged)
    return map_flat_values(fn, x, y, *args, **kwargs)


def _binary(fn: Callable[..., Any]) -> Callable[..., Any]:
    def apply(x: Any, y: Any) -> Any:
        return _binary_flat(fn, x, y)
    apply.__name__ = fn.__name__
    return apply


add = _binary(math_ops.add)
subtract = _binary(math_ops.subtract)
multiply = _binary(math_ops.multiply)
truediv = _binary(math_ops.truediv)
floordiv = _binary(math_ops.floordiv)
floormod = _binary(math_ops.floor_mod)
pow = _binary(math_ops.pow)  # noqa: A001 - TF's name
less = _binary(math_ops.less)
less_equal = _binary(math_ops.less_equal)
greater = _binary(math_ops.greater)
greater_equal = _binary(math_ops.greater_equal)
logical_and = _binary(math_ops.logical_and)
logical_or = _binary(math_ops.logical_or)
logical_xor = _binary(math_ops.logical_xor)


def negative(x: RaggedTensor) -> RaggedTensor:
    return map_flat_values(math_ops.negative, x)


def abs(x: RaggedTensor) -> RaggedTensor:  # noqa: A001 - TF's name
    return map_flat_values(math_ops.abs, x)


def logical_not(x: RaggedTensor) -> RaggedTensor:
    return map_flat_values(math_ops.logical_not, x)


# -- tf.* functions given RaggedTensors (ops/dispatch.py's handlers) -------------------------

def _split_first(fn: Callable[..., Any], count: int, args: tuple, kwargs: dict) -> Any:
    """The first `count` arguments of a call of `fn` (positional or by name), and the
    rest."""
    names = list(inspect.signature(fn).parameters)[:count]
    kwargs = dict(kwargs)
    first = list(args[:count])
    for name in names[len(first):]:
        first.append(kwargs.pop(name, None))
    return first, args[count:], kwargs


def _dispatch_unary(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    (x,), rest, kwargs = _split_first(fn, 1, args, kwargs)
    if not isinstance(x, RaggedTensor):
        return dispatch.NOT_SUPPORTED
    return x.with_flat_values(fn(x.flat_values, *rest, **kwargs))


def _dispatch_binary(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    (x, y), rest, kwargs = _split_first(fn, 2, args, kwargs)
    if not (isinstance(x, RaggedTensor) or isinstance(y, RaggedTensor)):
        return dispatch.NOT_SUPPORTED
    return _binary_flat(fn, x, y, *rest, **kwargs)


def _dispatch_unary_list(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    (values,), rest, kwargs = _split_first(fn, 1, args, kwargs)
    if not isinstance(values, (list, tuple)) or \
            not any(isinstance(v, RaggedTensor) for v in values):
        return dispatch.NOT_SUPPORTED
    return map_flat_values(lambda *flat: fn(list(flat), *rest, **kwargs), *values)


dispatch.register(dispatch.UNARY, _dispatch_unary)
dispatch.register(dispatch.BINARY, _dispatch_binary)
dispatch.register(dispatch.UNARY_LIST, _dispatch_unary_list)
