"""`tf.assert_*` (TF1's check_ops): comparisons, signs, ranks and types, built on tf.Assert.

As TF's: a condition decidable at graph build fails at once (InvalidArgumentError for
values, ValueError for ranks, TypeError for dtypes) or yields a NoOp; otherwise the
check is a `tf.Assert` op to run through control dependencies.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_value import constant_value as _folded_value
from tf1compat.framework.static_value import tensor_util_constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.control_flow_ops import no_op, with_dependencies
from tf1compat.ops.logging_ops import Assert

__all__ = ["assert_equal", "assert_none_equal", "assert_less", "assert_less_equal",
           "assert_greater", "assert_greater_equal", "assert_negative", "assert_positive",
           "assert_non_negative", "assert_non_positive", "assert_rank",
           "assert_rank_at_least", "assert_type", "assert_integer", "assert_scalar"]


def _message_prefix(message: Optional[str]) -> str:
    return f"{message}.  " if message else ""


def _static_value(t: Any) -> Any:
    """The static value TF's check ops decide on at graph build: `tensor_util.constant_value`'s
    narrower table (framework/static_value.py), so a check TF leaves to run time (on
    `tf.shape(x)[:-1]`, say) is not raised early here either."""
    if isinstance(t, Tensor) and not getattr(t, "_is_eager_tensor", False):
        return tensor_util_constant_value(t)
    return _folded_value(t)


def _constant_text(t: Any) -> Any:
    if not isinstance(t, Tensor):
        return str(t)
    value = _static_value(t)
    return t if value is None else str(value)


def _desc(t: Any) -> str:
    """A tensor's name for messages; eager tensors have none (TF describes them)."""
    if getattr(t, "_is_eager_tensor", False):
        return f"shape={t.shape} dtype={t.dtype.name}"
    return t.name


def _assert_static(condition: bool, data: Sequence[Any]) -> None:
    if not condition:
        raise errors.InvalidArgumentError(None, None,
                                          "\n".join(str(_constant_text(x)) for x in data))


def _binary_assert(sym: str, opname: str, op_func: Callable[..., Tensor],
                   static_func: Callable[..., Any], x: Any, y: Any, data: Any,
                   summarize: Optional[int], message: Optional[str],
                   name: Optional[str]) -> Operation:
    from tf1compat.ops.reduction_ops import reduce_all
    with name_scope(name, opname, [x, y, data]):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y")
        if data is None:
            data = [f"Condition x {sym} y did not hold element-wise:", f"x ({_desc(x)}) = ", x,
                    f"y ({_desc(y)}) = ", y]
        if message is not None:
            data = [message] + list(data)
        condition = reduce_all(op_func(x, y))
        x_static, y_static = _static_value(x), _static_value(y)
        if x_static is not None and y_static is not None:
            _assert_static(bool(np.all(static_func(x_static, y_static))), data)
        return Assert(condition, data, summarize=summarize)


def assert_equal(x: Any, y: Any, data: Any = None, summarize: Optional[int] = None,
                 message: Optional[str] = None, name: Optional[str] = None) -> Operation:
    """`tf.assert_equal`: x == y element-wise."""
    from tf1compat.ops.math_ops import equal
    with name_scope(name, "assert_equal", [x, y, data]):
        if x is y:
            return no_op()
    return _binary_assert("==", "assert_equal", equal, np.equal, x, y, data, summarize,
                          message, name)


def assert_none_equal(x: Any, y: Any, data: Any = None, summarize: Optional[int] = None,
                      message: Optional[str] = None, name: Optional[str] = None) -> Operation:
    """`tf.assert_none_equal`: x != y element-wise."""
    from tf1compat.ops.math_ops import not_equal
    return _binary_assert("!=", "assert_none_equal", not_equal, np.not_equal, x, y, data,
                          summarize, message, name)


def assert_less(x: Any, y: Any, data: Any = None, summarize: Optional[int] = None,
                message: Optional[str] = None, name: Optional[str] = None) -> Operation:
    """`tf.assert_less`: x < y element-wise."""
    from tf1compat.ops.math_ops import less
    return _binary_assert("<", "assert_less", less, np.less, x, y, data, summarize, message,
                          name)


def assert_less_equal(x: Any, y: Any, data: Any = None, summarize: Optional[int] = None,
                      message: Optional[str] = None, name: Optional[str] = None) -> Operation:
    """`tf.assert_less_equal`: x <= y element-wise."""
    from tf1compat.ops.math_ops import less_equal
    return _binary_assert("<=", "assert_less_equal", less_equal, np.less_equal, x, y, data,
                          summarize, message, name)


def assert_greater(x: Any, y: Any, data: Any = None, summarize: Optional[int] = None,
                   message: Optional[str] = None, name: Optional[str] = None) -> Operation:
    """`tf.assert_greater`: x > y element-wise."""
    from tf1compat.ops.math_ops import greater
    return _binary_assert(">", "assert_greater", greater, np.greater, x, y, data, summarize,
                          message, name)


def assert_greater_equal(x: Any, y: Any, data: Any = None, summarize: Optional[int] = None,
                         message: Optional[str] = None,
                         name: Optional[str] = None) -> Operation:
    """`tf.assert_greater_equal`: x >= y element-wise."""
    from tf1compat.ops.math_ops import greater_equal
    return _binary_assert(">=", "assert_greater_equal", greater_equal, np.greater_equal, x, y,
                          data, summarize, message, name)


def _sign_assert(opname: str, sym: str, zero_first: bool,
                 check: Callable[..., Operation]) -> Callable[..., Operation]:
    def assert_sign(x: Any, data: Any = None, summarize: Optional[int] = None,
                    message: Optional[str] = None, name: Optional[str] = None) -> Operation:
        prefix = _message_prefix(message)
        with name_scope(name, opname, [x, data]):
            x = convert_to_tensor(x, name="x")
            if data is None:
                # (TF's assert_non_positive runs two of its strings together; kept.)
                head = f"Condition x {sym} 0 did not hold element-wise:"
                data = [prefix, head + f"x ({_desc(x)}) = ", x] if opname == \
                    "assert_non_positive" else [prefix, head, f"x ({_desc(x)}) = ", x]
            zero = convert_to_tensor(0, dtype=x.dtype)
            if zero_first:
                return check(zero, x, data=data, summarize=summarize)
            return check(x, zero, data=data, summarize=summarize)
    assert_sign.__name__ = opname
    assert_sign.__doc__ = f"`tf.{opname}`: x {sym} 0 element-wise."
    return assert_sign


assert_negative = _sign_assert("assert_negative", "<", False, assert_less)
assert_positive = _sign_assert("assert_positive", ">", True, assert_less)
assert_non_negative = _sign_assert("assert_non_negative", ">=", True, assert_less_equal)
assert_non_positive = _sign_assert("assert_non_positive", "<=", False, assert_less_equal)


def _assert_rank_condition(x: Tensor, rank: Tensor, static_condition: Callable[..., bool],
                           dynamic_condition: Callable[..., Tensor], data: Any,
                           summarize: Optional[int]) -> Operation:
    from tf1compat.ops.array_ops import rank as rank_op
    assert_type(rank, D.int32)
    rank_static = _static_value(rank)
    if rank_static is not None:
        if np.ndim(rank_static) != 0:
            raise ValueError("Rank must be a scalar.")
        x_rank_static = x.shape.rank
        if x_rank_static is not None:
            if not static_condition(x_rank_static, int(rank_static)):
                raise ValueError("Static rank condition failed", x_rank_static,
                                 int(rank_static))
            return no_op(name="static_checks_determined_all_ok")
    condition = dynamic_condition(rank_op(x), rank)
    if rank_static is None:
        rank_check = assert_rank(rank, 0, data=["Rank must be a scalar. Received rank: ",
                                                rank])
        condition = with_dependencies([rank_check], condition)
    return Assert(condition, data, summarize=summarize)


def _rank_assert(opname: str, words: str, static: Callable[[int, int], bool],
                 dynamic_name: str) -> Callable[..., Operation]:
    def assert_rank_fn(x: Any, rank: Any, data: Any = None, summarize: Optional[int] = None,
                       message: Optional[str] = None, name: Optional[str] = None) -> Operation:
        from tf1compat.ops import array_ops, math_ops
        with name_scope(name, opname, (x, rank) + tuple(data or [])):
            x = convert_to_tensor(x, name="x")
            rank = convert_to_tensor(rank, name="rank")
            prefix = _message_prefix(message)
            if data is None:
                data = [prefix, f"Tensor {_desc(x)} must have {words}", rank,
                        "Received shape: ", array_ops.shape(x)]
            try:
                return _assert_rank_condition(x, rank, static,
                                              getattr(math_ops, dynamic_name), data,
                                              summarize)
            except ValueError as e:
                if e.args[0] == "Static rank condition failed":
                    raise ValueError(f"{prefix}Tensor {_desc(x)} must have {words} "
                                     f"{e.args[2]}.  Received rank {e.args[1]}, shape "
                                     f"{x.shape}") from None
                raise
    assert_rank_fn.__name__ = opname
    assert_rank_fn.__doc__ = f"`tf.{opname}`: the tensor has {words} `rank`."
    return assert_rank_fn


assert_rank = _rank_assert("assert_rank", "rank", lambda a, g: a == g, "equal")
assert_rank_at_least = _rank_assert("assert_rank_at_least", "rank at least",
                                    lambda a, g: a >= g, "greater_equal")


def assert_type(tensor: Any, tf_type: Any, message: Optional[str] = None,
                name: Optional[str] = None) -> Operation:
    """`tf.assert_type`: a TypeError at graph build unless `tensor` has `tf_type`."""
    tf_type = D.as_dtype(tf_type)
    with name_scope(name, "assert_type", [tensor]):
        tensor = convert_to_tensor(tensor, name="tensor")
        if tensor.dtype != tf_type:
            raise TypeError(f"{_message_prefix(message)}{_desc(tensor)} must be of type "
                            f"{tf_type!r}; got {tensor.dtype!r}")
        return no_op("statically_determined_correct_type")


def assert_integer(x: Any, message: Optional[str] = None,
                   name: Optional[str] = None) -> Operation:
    """`tf.assert_integer`: a TypeError at graph build unless `x` is an integer tensor."""
    with name_scope(name, "assert_integer", [x]):
        x = convert_to_tensor(x, name="x")
        if not x.dtype.is_integer:
            raise TypeError(f'{_message_prefix(message)}Expected "x" to be integer type.  '
                            f"Found: {_desc(x)} of dtype {x.dtype}")
        return no_op("statically_determined_was_integer")


def assert_scalar(tensor: Any, name: Optional[str] = None,
                  message: Optional[str] = None) -> Tensor:
    """`tf.assert_scalar`: a ValueError at graph build unless `tensor` is a scalar."""
    with name_scope(name, "assert_scalar", [tensor]) as scope:
        tensor = convert_to_tensor(tensor, name=scope)
        if tensor.shape.rank != 0:
            raise ValueError(f"{_message_prefix(message)}Expected scalar shape for "
                             f"{_desc(tensor)}, saw shape: {tensor.shape}.")
        return tensor
