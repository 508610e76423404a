"""Elementwise math on RaggedTensors (TF 1.15's ragged_operators / ragged_dispatch for
the unary and binary elementwise ops): the op runs on `flat_values`; two ragged operands
must have the same row partitions (checked at run time, InvalidArgumentError), and a
dense operand must broadcast against the flat values (a scalar, or the uniform inner
dimensions). `RaggedTensor`'s `+ - * / // % ** < <= > >= & | ^ - abs ~` call these.
"""

from __future__ import annotations

from typing import Any, Callable

from tf1compat.framework import errors
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import check_ops, math_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ragged.ragged_tensor import RaggedTensor

__all__ = ["map_flat_values", "add", "subtract", "multiply", "truediv", "floordiv",
           "floormod", "pow", "less", "less_equal", "greater", "greater_equal",
           "logical_and", "logical_or", "logical_xor", "negative", "abs", "logical_not"]


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
        for a, b in zip(splits, other.nested_row_splits):
            if not a.shape.is_compatible_with(b.shape):
                raise errors.InvalidArgumentError(None, None,
                                                  "Inputs must have identical ragged splits")
            if a is not b:
                checks.append(check_ops.assert_equal(
                    a, math_ops.cast(b, a.dtype),
                    message="Inputs must have identical ragged splits"))

    def flat(x: Any) -> Any:
        if not isinstance(x, RaggedTensor):
            return x
        return with_dependencies(checks, x.flat_values) if checks else x.flat_values
    result = op(*[flat(a) for a in args], **{k: flat(v) for k, v in kwargs.items()})
    return template.with_flat_values(result)


def _binary(fn: Callable[..., Any]) -> Callable[..., Any]:
    def apply(x: Any, y: Any) -> Any:
        if not isinstance(x, RaggedTensor):
            x = convert_to_tensor(x, dtype=y.dtype)
        if not isinstance(y, RaggedTensor):
            y = convert_to_tensor(y, dtype=x.dtype)
        for dense in (x, y):
            if not isinstance(dense, RaggedTensor) and dense.shape.rank not in (0, None) and \
                    dense.shape.rank >= (x if isinstance(x, RaggedTensor) else y).shape.rank - 1:
                raise NotImplementedError(
                    f"{fn.__name__} of a RaggedTensor and a dense tensor that broadcasts over "
                    "its ragged dimensions is not supported by tf1compat")
        return map_flat_values(fn, x, y)
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
