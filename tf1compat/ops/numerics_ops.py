"""Numeric checks: `tf.check_numerics`, `verify_tensor_all_finite`, `add_check_numerics_ops`,
and the rest of `tf.debugging` that check_ops.py does not hold (monotonicity, `assert_near`,
`assert_rank_in`, dtype checks).

`CheckNumerics` passes its input through and raises InvalidArgumentError at run time when
it holds NaN or Inf. Its gradient is checked the same way, with TF's message, so a NaN
that appears in backprop is reported where TF reports it.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import (apply_op1, colocate_with, control_dependencies,
                                       get_default_graph, name_scope)
from tf1compat.framework.op_def import REQUIRED, Type, declare
from tf1compat.framework.operation import Operation
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops._shape_rules import unary_rule

__all__ = ["check_numerics", "verify_tensor_all_finite", "assert_all_finite",
           "add_check_numerics_ops", "is_numeric_tensor", "is_non_decreasing",
           "is_strictly_increasing", "assert_near", "assert_rank_in",
           "assert_same_float_dtype", "assert_proper_iterable"]

# The order TF's op definition lists them in (it shows in the dtype error).
_CHECKED = (D.bfloat16, D.float16, D.float32, D.float64)
_GRAD_MESSAGE = "Not a number (NaN) or infinity (Inf) values detected in gradient. "


def _check(x: torch.Tensor, message: str, signed: bool = False) -> None:
    """TF's CheckNumerics error when `x` holds NaN or Inf (CheckNumericsV2, `signed`,
    names -Inf and +Inf apart)."""
    # One pass (and one device sync) in the common all-finite case; details only on failure.
    if x.is_floating_point() and x.numel() and not bool(torch.isfinite(x).all()):
        if signed:
            found = [name for name, flag in (("-Inf", bool(torch.isneginf(x).any())),
                                             ("+Inf", bool(torch.isposinf(x).any())),
                                             ("NaN", bool(torch.isnan(x).any()))) if flag]
        else:
            found = [name for name, flag in (("Inf", bool(torch.isinf(x).any())),
                                             ("NaN", bool(torch.isnan(x).any()))) if flag]
        if found:
            what = ", ".join(found[:-1]) + ", and " + found[-1] if len(found) == 3 else \
                " and ".join(found)
            raise errors.InvalidArgumentError(None, None,
                                              f"{message} : Tensor had {what} values")


class _CheckNumericsFn(torch.autograd.Function):
    """Identity whose forward value (unless `forward_check` is off) and incoming
    gradient are checked."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, message: str,  # type: ignore[override]
                signed: bool, forward_check: bool) -> torch.Tensor:
        if forward_check:
            _check(x, message, signed)
        ctx.message, ctx.signed = message, signed
        return x.view_as(x)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Any:  # type: ignore[override]
        # TF formats the bytes attr with %s, so the message shows as b'...'.
        _check(grad, _GRAD_MESSAGE + str(ctx.message.encode("utf-8")), ctx.signed)
        return grad, None, None, None


def _message(node: Any) -> str:
    message = node.attrs["message"]
    return message.decode("utf-8", "replace") if isinstance(message, bytes) else message


def _check_numerics_kernel(node: Any, kctx: Any) -> Callable[[torch.Tensor], torch.Tensor]:
    message, signed = _message(node), node.type == "CheckNumericsV2"

    def run(x: torch.Tensor) -> torch.Tensor:
        if x.requires_grad and torch.is_grad_enabled():
            return _CheckNumericsFn.apply(x, message, signed, True)
        _check(x, message, signed)
        return x
    return run


def _gradient_check_kernel(node: Any, kctx: Any) -> Callable[[torch.Tensor], torch.Tensor]:
    """Run for autograd only: TF's backward checks the gradient without running the op,
    so the forward value is not checked."""
    message, signed = _message(node), node.type == "CheckNumericsV2"

    def run(x: torch.Tensor) -> torch.Tensor:
        if x.requires_grad and torch.is_grad_enabled():
            return _CheckNumericsFn.apply(x, message, signed, False)
        return x
    return run


declare("CheckNumerics", inputs=["tensor: T"], outputs=["output: T"],
        attrs={"T": Type(_CHECKED), "message": REQUIRED},
        shape=unary_rule, kernel=_check_numerics_kernel, view=True,
        autograd_only_kernel=_gradient_check_kernel,
        doc="Passes `tensor` through; InvalidArgumentError if it holds NaN or Inf.")
declare("CheckNumericsV2", inputs=["tensor: T"], outputs=["output: T"],
        attrs={"T": Type(_CHECKED), "message": REQUIRED},
        shape=unary_rule, kernel=_check_numerics_kernel, view=True,
        autograd_only_kernel=_gradient_check_kernel,
        doc="CheckNumerics naming -Inf and +Inf apart (tf.debugging.enable_check_numerics).")


def check_numerics(tensor: Any, message: str, name: Optional[str] = None) -> Tensor:
    """`tf.check_numerics(tensor, message, name=None)`: `tensor`, checked for NaN/Inf."""
    return apply_op1("CheckNumerics", [tensor], {"message": str(message)}, name=name)


def verify_tensor_all_finite(t: Any = None, msg: Any = None, name: Optional[str] = None,
                             x: Any = None, message: Any = None) -> Tensor:
    """`tf.verify_tensor_all_finite` / `tf.debugging.assert_all_finite` (TF1 signature):
    `t` after a CheckNumerics of it has run."""
    t = x if t is None else t
    msg = message if msg is None else msg
    with name_scope(name, "VerifyFinite", [t]):
        t = convert_to_tensor(t, name="x")
        with colocate_with(t):
            verify_input = check_numerics(t, message=msg)
            from tf1compat.ops.control_flow_ops import with_dependencies
            return with_dependencies([verify_input], t)


assert_all_finite = verify_tensor_all_finite


def add_check_numerics_ops() -> Operation:
    """`tf.add_check_numerics_ops()`: a CheckNumerics on every float tensor of the graph,
    chained by control dependencies, grouped in one op."""
    if _context.executing_eagerly():
        raise RuntimeError("add_check_numerics_ops() is not compatible with eager execution. "
                           "To check for Inf's and NaN's under eager execution, call "
                           "tf.debugging.enable_check_numerics() once before executing the "
                           "checked operations.")
    from tf1compat.ops.control_flow_ops import group
    checks: list = []
    # get_operations() lists producers before consumers, so each check follows its inputs'.
    for op in get_default_graph().get_operations():
        for output in op.outputs:
            if output.dtype not in (D.float16, D.float32, D.float64):
                continue
            if op._control_flow_context is not None:
                raise ValueError("`tf.add_check_numerics_ops() is not compatible with "
                                 "TensorFlow control flow operations such as `tf.cond()` "
                                 "or `tf.while_loop()`.")
            with control_dependencies(checks):
                checks = [check_numerics(output, message=f"{op.name}:{output.value_index}")]
    return group(*checks)


# -- tf.debugging predicates and asserts ---------------------------------------------------

_NUMERIC = frozenset(D.as_dtype(t) for t in (
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "int8", "int16",
    "int32", "int64", "uint8", "uint16", "uint32", "uint64", "qint8", "qint16", "qint32",
    "quint8", "quint16")
    if hasattr(D, t))


def is_numeric_tensor(tensor: Any) -> bool:
    """`tf.debugging.is_numeric_tensor`: a Tensor of a numeric (not bool/string) dtype."""
    return isinstance(tensor, Tensor) and tensor.dtype in _NUMERIC


def _monotonic(x: Any, compare: Callable[..., Tensor]) -> Tensor:
    from tf1compat.ops import array_ops, math_ops
    from tf1compat.ops.cond import cond
    from tf1compat.ops.strided_slice import strided_slice
    x = array_ops.reshape(x, [-1])
    if not is_numeric_tensor(x):
        raise TypeError(f"Expected x to be numeric, instead found: {x}")
    shorter_than_two = math_ops.less(array_ops.size(x), 2)
    s_len = array_ops.shape(x) - 1
    return cond(shorter_than_two,
                lambda: convert_to_tensor([], dtype=D.bool),
                lambda: compare(strided_slice(x, [1], [1] + s_len),
                                strided_slice(x, [0], s_len)))


def is_non_decreasing(x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.is_non_decreasing`: whether the flattened `x` never decreases."""
    from tf1compat.ops import math_ops, reduction_ops
    with name_scope(name, "is_non_decreasing", [x]):
        return reduction_ops.reduce_all(_monotonic(x, math_ops.greater_equal))


def is_strictly_increasing(x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.is_strictly_increasing`: whether the flattened `x` always increases."""
    from tf1compat.ops import math_ops, reduction_ops
    with name_scope(name, "is_strictly_increasing", [x]):
        return reduction_ops.reduce_all(_monotonic(x, math_ops.greater))


def assert_near(x: Any, y: Any, rtol: Any = None, atol: Any = None, data: Any = None,
                summarize: Optional[int] = None, message: Optional[str] = None,
                name: Optional[str] = None) -> Operation:
    """`tf.assert_near`: `|x - y| < atol + rtol * |y|` elementwise (10 eps by default)."""
    from tf1compat.ops import math_ops, reduction_ops
    from tf1compat.ops.check_ops import _desc  # eager tensors have no name: TF describes them
    from tf1compat.ops.logging_ops import Assert
    values = [x, y, rtol, atol] + list(data or [])
    with name_scope(name, "assert_near", [v for v in values if v is not None]):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype)
        dtype = x.dtype.real_dtype if x.dtype.is_complex else x.dtype
        eps = np.finfo(dtype.as_numpy_dtype).eps
        rtol = convert_to_tensor(10 * eps if rtol is None else rtol, name="rtol", dtype=dtype)
        atol = convert_to_tensor(10 * eps if atol is None else atol, name="atol", dtype=dtype)
        if data is None:
            data = [f"{message}.  " if message else "", f"x and y not equal to tolerance rtol = {rtol}, atol = {atol}",
                    f"x ({_desc(x)}) = ", x, f"y ({_desc(y)}) = ", y]
        tol = atol + rtol * math_ops.abs(y)
        diff = math_ops.abs(x - y)
        condition = reduction_ops.reduce_all(math_ops.less(diff, tol))
        return Assert(condition, data, summarize=summarize)


def assert_rank_in(x: Any, ranks: Sequence[Any], data: Any = None,
                   summarize: Optional[int] = None, message: Optional[str] = None,
                   name: Optional[str] = None) -> Operation:
    """`tf.assert_rank_in`: the rank of `x` is one of `ranks`."""
    from tf1compat.framework.constant_value import constant_value
    from tf1compat.ops import array_ops, math_ops, reduction_ops
    from tf1compat.ops.control_flow_ops import no_op
    from tf1compat.ops.logging_ops import Assert
    with name_scope(name, "assert_rank_in", (x,) + tuple(ranks) + tuple(data or [])):
        if not isinstance(x, SparseTensor):
            x = convert_to_tensor(x, name="x")
        ranks = tuple(convert_to_tensor(r, name="rank") for r in ranks)
        prefix = f"{message}.  " if message else ""
        x_name = "" if isinstance(x, SparseTensor) else x.name
        if data is None:
            data = [prefix, f"Tensor {x_name} must have rank in"] + list(ranks) + \
                ["Received shape: ", array_ops.shape(x)]
        static = [constant_value(r) for r in ranks]
        x_rank = x.shape.rank
        if all(s is not None for s in static):
            for s in static:
                if np.ndim(s) != 0:
                    raise ValueError("Rank must be a scalar.")
            if x_rank is not None:
                if x_rank not in [int(s) for s in static]:
                    raise ValueError(f"{prefix}Tensor {x_name} must have rank in "
                                     f"{tuple(int(s) for s in static)}.  Received rank "
                                     f"{x_rank}, shape {x.shape}")
                return no_op(name="static_checks_determined_all_ok")
        x_rank_t = array_ops.rank(x)
        condition = reduction_ops.reduce_any(
            array_ops.stack([math_ops.equal(x_rank_t, r) for r in ranks]))
        return Assert(condition, data, summarize=summarize)


def assert_same_float_dtype(tensors: Any = None, dtype: Any = None) -> D.DType:
    """`tf.assert_same_float_dtype`: the one float dtype of `tensors` (and `dtype`)."""
    if tensors:
        expected = dtype
        first_name = None
        for item in tensors:
            if item is None:
                continue
            item_type = item.dtype.base_dtype
            if not expected:
                expected = item_type
                first_name = getattr(item, "name", str(item))
            elif expected != item_type:
                suffix = f" as {first_name}" if first_name else ""
                raise ValueError(f"{getattr(item, 'name', str(item))}, type={item_type}, must "
                                 f"be of the same type ({expected}){suffix}.")
        dtype = expected
    if not dtype:
        return D.float32
    if not D.as_dtype(dtype).is_floating:
        raise ValueError(f"Expected floating point type, got {dtype}.")
    return D.as_dtype(dtype)


def assert_proper_iterable(values: Any) -> None:
    """`tf.assert_proper_iterable`: TypeError for Tensors, arrays and strings, which are
    iterable by accident, and for what is not iterable at all."""
    if isinstance(values, (Tensor, SparseTensor, np.ndarray, bytes, str)):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: '
                        f"{type(values)}")
    if not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')
