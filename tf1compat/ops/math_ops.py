"""Elementwise math, casts, comparisons, logic, matmul, and Tensor's operator overloads.

Elementwise ops come from three factories (`unary`, `binary`, `compare`) that declare the
op with TF's type name, allowed dtypes and a torch kernel; the tf.* wrappers below mirror
TF's Python wrappers, including the names they give ops (`x + y` is named "add", while
`tf.add(x, y)` is named "Add": both are AddV2 ops).
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value, constant_value_as_shape
from tf1compat.framework.grad_names import Pass, broadcast_names, names
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.hooks import TENSOR_OPERATORS
from tf1compat.framework.op_def import Int, Type, declare, no_kernel
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._narrow_casts import narrow_cast
from tf1compat.ops._shape_rules import broadcast_rule, node_desc, unary_rule
from tf1compat.ops._grad_formulas import (atan2_formula, broadcast_formula, maximum_formula,
                                          minimum_formula, mul_no_nan_formula, pow_formula,
                                          real_div_formula, xdivy_formula, xlogy_formula)
from tf1compat.ops import _flops_rules as flops
from tf1compat.ops import _eigen_pow, dispatch, grappler_rewrites
from tf1compat.ops._kernel_errors import incompatible_shapes, same_shape_error

# Short names for framework/dtypes' type groups, the vocabulary of these declarations.
FLOAT = D.FLOATING_TYPES
COMPLEX = D.COMPLEX_TYPES
FLOAT_COMPLEX = FLOAT + COMPLEX
SIGNED_INT = D.SIGNED_INTEGER_TYPES
INT = D.INTEGER_TYPES
REAL = D.REAL_NUMBER_TYPES
NUMBER = D.NUMBER_TYPES
SIGNED = D.SIGNED_NUMBER_TYPES
ALL = D.ALL_TYPES


def fixed(fn: Callable[..., Any]) -> Callable[[Any, Any], Callable[..., Any]]:
    """Kernel factory for ops whose torch function needs no attrs."""
    return lambda node, kctx: fn


# -- factories ---------------------------------------------------------------------------

def _type_attrs(types: Any) -> dict:
    """A factory's `types`: the dtypes its attr T allows, or one DType the op is fixed to
    (TF's logical ops take bool and have no T attr)."""
    return {} if isinstance(types, D.DType) else {"T": Type(tuple(types))}


def unary(op_type: str, fn: Callable[..., Any], types: Any = FLOAT_COMPLEX,
          out_type: Optional[D.DType] = None,
          kernel_types: Optional[Sequence[D.DType]] = None,
          args: Sequence[str] = ("x", "y"), **facts: Any) -> Callable[..., Tensor]:
    """Declares a one-input elementwise op and returns its gen-style wrapper.

    `kernel_types`: the dtypes TF registers a kernel for, when narrower than the op's
    declared types (running others is TF's "No OpKernel was registered" error). `args`:
    TF's names of the input and the output. `facts`: the op's other declared facts
    (gradient policy and names, ...), as `declare` takes them.
    """
    in_name, out_name = args
    type_attrs = _type_attrs(types)
    element = "T" if type_attrs else types.name
    outputs = [f"{out_name}: {out_type.name if out_type is not None else element}"]
    kernel = fixed(fn)
    if kernel_types is not None:
        allowed = tuple(kernel_types)

        def kernel(node: Any, kctx: Any) -> Callable[..., Any]:
            if node.attrs["T"] not in allowed:
                raise no_kernel(node, f"T=DT_{node.attrs['T'].name.upper()}")
            return fn
    declare(op_type, inputs=[f"{in_name}: {element}"], outputs=outputs, attrs=type_attrs,
            shape=unary_rule, kernel=kernel, **facts)

    def wrapper(x: Any, name: Optional[str] = None) -> Tensor:
        return apply_op1(op_type, [x], name=name)
    wrapper.__name__ = op_type
    wrapper._op_wrapper_of = op_type  # named after its binding: _name_op_wrappers
    wrapper.__doc__ = f"Elementwise `{op_type}` (TF op type {op_type!r})."
    return wrapper


def binary(op_type: str, fn: Callable[..., Any], types: Any = NUMBER,
           args: Sequence[str] = ("x", "y", "z"), **facts: Any) -> Callable[..., Tensor]:
    """Declares a broadcasting two-input elementwise op; returns its gen-style wrapper
    (positional). `args`: TF's names of the two inputs and the output."""
    first, second, out = args
    type_attrs = _type_attrs(types)
    element = "T" if type_attrs else types.name
    declare(op_type, inputs=[f"{first}: {element}", f"{second}: {element}"],
            outputs=[f"{out}: {element}"], attrs=type_attrs, shape=broadcast_rule,
            kernel=facts.pop("kernel", fixed(fn)), kernel_error=incompatible_shapes, **facts)

    def wrapper(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
        return apply_op1(op_type, [x, y], name=name)
    wrapper.__name__ = op_type
    wrapper._op_wrapper_of = op_type  # named after its binding: _name_op_wrappers
    wrapper.__doc__ = f"Elementwise broadcasting `{op_type}` (TF op type {op_type!r})."
    return wrapper


def compare(op_type: str, fn: Callable[..., Any], types: Sequence[D.DType] = REAL,
            extra_attrs: Optional[dict] = None, **facts: Any) -> Callable[..., Tensor]:
    """Declares a broadcasting comparison producing bool."""
    attrs = {"T": Type(tuple(types))}
    attrs.update(extra_attrs or {})
    declare(op_type, inputs=["x: T", "y: T"], outputs=["z: bool"], attrs=attrs,
            shape=broadcast_rule, kernel=fixed(fn), grad="none",
            kernel_error=incompatible_shapes, **facts)

    def wrapper(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
        return apply_op1(op_type, [x, y], name=name)
    wrapper.__name__ = op_type
    wrapper._op_wrapper_of = op_type  # named after its binding: _name_op_wrappers
    return wrapper


# -- kernels that differ from torch's defaults ------------------------------------------------

def _is_int(t: torch.Tensor) -> bool:
    return not (t.is_floating_point() or t.is_complex() or t.dtype == torch.bool)


def _nonzero_int_divisor(y: torch.Tensor) -> torch.Tensor:
    """`y`, after checking that no element is zero where torch does not check: its CPU
    integer division raises (as TF's kernels do), its CUDA one yields garbage."""
    if isinstance(y, torch.Tensor) and y.is_cuda and bool((y == 0).any()):
        raise RuntimeError("ZeroDivisionError")
    return y


def _real_div(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    # TF's RealDiv/Div on integers is C++ division: truncation toward zero.
    if _is_int(x):
        return torch.div(x, _nonzero_int_divisor(y), rounding_mode="trunc")
    return torch.div(x, y)


def _floor_div(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if _is_int(x):
        return torch.div(x, _nonzero_int_divisor(y), rounding_mode="floor")
    return torch.floor(torch.div(x, y))


def _reciprocal(x: torch.Tensor) -> torch.Tensor:
    if _is_int(x):
        return torch.div(torch.ones_like(x), x, rounding_mode="trunc")
    return torch.reciprocal(x)


def _sign(x: torch.Tensor) -> torch.Tensor:
    if x.is_complex():
        mag = torch.abs(x)
        return torch.where(mag == 0, torch.zeros_like(x), x / mag.to(x.dtype))
    return torch.sign(x)


def _squared_difference(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    d = x - y
    return d * torch.conj(d) if d.is_complex() else d * d


def _round(x: torch.Tensor) -> torch.Tensor:
    return x if _is_int(x) else torch.round(x)


def _abs(x: torch.Tensor) -> torch.Tensor:
    return torch.abs(x)


def _rsqrt(x: torch.Tensor) -> torch.Tensor:
    return torch.rsqrt(x)


def _add_strings(x: Any, y: Any) -> Any:
    return np.char.add(np.asarray(x, dtype=object).astype(bytes),
                       np.asarray(y, dtype=object).astype(bytes)).astype(object)


# -- declarations ------------------------------------------------------------------------------

add_v2 = binary("AddV2", torch.add, grad_names=broadcast_names(Pass(0), Pass(0)),
                grad_formula=broadcast_formula, flops=flops.per_output_element())
declare("Add", inputs=["x: T", "y: T"], outputs=["z: T"], attrs={"T": Type(NUMBER + (D.string,))},
        shape=broadcast_rule, kernel_error=incompatible_shapes, flops=flops.per_output_element(),
        kernel=lambda node, kctx: _add_strings if node.attrs["T"] == D.string else torch.add,
        grad_names=broadcast_names(Pass(0), Pass(0)), grad_formula=broadcast_formula)
sub = binary("Sub", torch.sub, grad_names=broadcast_names(Pass(0), "Neg"),
             grad_formula=broadcast_formula, flops=flops.per_output_element())
mul = binary("Mul", torch.mul, grad_names=broadcast_names("Mul", "Mul_1"),
             grad_formula=broadcast_formula, flops=flops.per_output_element())
real_div = binary("RealDiv", _real_div, kernel=grappler_rewrites.real_div_kernel(_real_div),
                  grad_names=broadcast_names("RealDiv", "mul"),
                  grad_formula=real_div_formula, flops=flops.per_output_element())
div_legacy = binary("Div", _real_div, kernel=grappler_rewrites.real_div_kernel(_real_div),
                    grad_names=broadcast_names("truediv", "mul"), grad_formula=real_div_formula)
floor_div = binary("FloorDiv", _floor_div, REAL, grad="none")
truncate_div = binary("TruncateDiv", lambda x, y: torch.div(x, y, rounding_mode="trunc"), REAL,
                      grad="none")
floor_mod = binary("FloorMod", torch.remainder, REAL, grad_names=broadcast_names(Pass(0), "mul"))
truncate_mod = binary("TruncateMod", torch.fmod, REAL, grad="unregistered")
pow_ = binary("Pow", _eigen_pow.tf_pow, FLOAT_COMPLEX + (D.int32, D.int64, D.int8, D.int16),
              kernel=_eigen_pow.pow_kernel, grad_names=broadcast_names("mul_1", "mul_3"),
              grad_formula=pow_formula, flops=flops.per_output_element())
maximum_ = binary("Maximum", torch.maximum, REAL, grad_formula=maximum_formula,
                  grad_names=broadcast_names("SelectV2", "SelectV2_1"),
                  flops=flops.per_output_element())
minimum_ = binary("Minimum", torch.minimum, REAL, grad_formula=minimum_formula,
                  grad_names=broadcast_names("SelectV2", "SelectV2_1"),
                  flops=flops.per_output_element())
squared_difference = binary(
    "SquaredDifference", _squared_difference, SIGNED, grad_names=broadcast_names("mul_1", "Neg"),
    grad_formula=broadcast_formula, flops=flops.per_output_element(2))
_atan2 = binary("Atan2", torch.atan2, FLOAT, args=("y", "x", "z"),
                grad_names=broadcast_names("mul", "mul_1"), grad_formula=atan2_formula)
div_no_nan_ = binary(
    "DivNoNan", lambda x, y: torch.where(
        y == 0, torch.zeros_like(x), x / torch.where(y == 0, torch.ones_like(y), y)),
    FLOAT_COMPLEX, grad_names=broadcast_names("div_no_nan", "mul"))
mul_no_nan_ = binary(
    "MulNoNan", lambda x, y: torch.where(y == 0, torch.zeros_like(x), x * y), FLOAT_COMPLEX,
    grad_names=broadcast_names("MulNoNan", "MulNoNan_1"), grad_formula=mul_no_nan_formula)
xdivy = binary("Xdivy", grappler_rewrites.xdivy, FLOAT_COMPLEX,
               kernel=grappler_rewrites.xdivy_kernel,
               grad_names=names("Reshape", "Reshape_1"), grad_formula=xdivy_formula)
xlogy = binary(
    "Xlogy", lambda x, y: torch.where(x == 0, torch.zeros_like(x), x * torch.log(y)),
    FLOAT_COMPLEX, grad_names=names("Reshape", "Reshape_1"), grad_formula=xlogy_formula)

neg = unary("Neg", torch.neg, SIGNED, grad_names=names("Neg"),
            flops=flops.per_input_element())
abs_ = unary("Abs", _abs, FLOAT + SIGNED_INT, grad_names=names("mul"))
sign = unary("Sign", _sign, SIGNED, grad_names=names("zeros_like"))
square = unary("Square", torch.square, SIGNED + (D.uint8, D.uint16, D.uint32, D.uint64),
               grad_names=names("Mul_1"), flops=flops.per_input_element())
sqrt = unary("Sqrt", torch.sqrt, grad_names=names("SqrtGrad"))
rsqrt = unary("Rsqrt", _rsqrt, grad_names=names("RsqrtGrad"),
              flops=flops.per_input_element(2))
exp = unary("Exp", torch.exp, grad_names=names("mul"))
expm1 = unary("Expm1", torch.expm1, grad_names=names("mul"))
log = unary("Log", torch.log, grad_names=names("mul"), flops=flops.per_input_element())
log1p = unary("Log1p", torch.log1p, grad_names=names("mul"))
sin = unary("Sin", torch.sin, grad_names=names("mul"))
cos = unary("Cos", torch.cos, grad_names=names("mul"))
tan = unary("Tan", torch.tan, grad_names=names("mul"))
asin = unary("Asin", torch.asin, grad_names=names("mul"))
acos = unary("Acos", torch.acos, grad_names=names("mul"))
atan = unary("Atan", torch.atan, grad_names=names("mul"))
sinh = unary("Sinh", torch.sinh, grad_names=names("mul"))
cosh = unary("Cosh", torch.cosh, grad_names=names("mul"))
tanh = unary("Tanh", torch.tanh, grad_names=names("TanhGrad"))
asinh = unary("Asinh", torch.asinh, grad_names=names("truediv"))
acosh = unary("Acosh", torch.acosh, grad_names=names("truediv"))
atanh = unary("Atanh", torch.atanh, grad_names=names("mul"))
sigmoid_ = unary("Sigmoid", torch.sigmoid, grad_names=names("SigmoidGrad"))
erf = unary("Erf", torch.erf, FLOAT, grad_names=names("mul_1"))
erfc = unary("Erfc", torch.erfc, FLOAT, grad_names=names("mul_1"))
lgamma = unary("Lgamma", torch.lgamma, FLOAT, grad_names=names("mul"))
digamma = unary("Digamma", torch.digamma, FLOAT, grad_names=names("mul"))
floor = unary("Floor", torch.floor, FLOAT, grad="none")
ceil = unary("Ceil", torch.ceil, FLOAT, grad="none")
rint = unary("Rint", torch.round, FLOAT, grad="none")
round_ = unary("Round", _round, FLOAT + SIGNED_INT + COMPLEX, grad="none")
reciprocal = unary("Reciprocal", _reciprocal, SIGNED, kernel_types=FLOAT_COMPLEX,
                   grad_names=names("ReciprocalGrad"), flops=flops.per_input_element())
inv = unary("Inv", _reciprocal, SIGNED, kernel_types=FLOAT_COMPLEX,
            grad_names=names("ReciprocalGrad"))
is_nan = unary("IsNan", torch.isnan, FLOAT, out_type=D.bool, grad="unregistered")
is_inf = unary("IsInf", torch.isinf, FLOAT, out_type=D.bool, grad="unregistered")
is_finite = unary("IsFinite", torch.isfinite, FLOAT, out_type=D.bool,
                  grad="unregistered")
conj_ = unary("Conj", torch.conj_physical, COMPLEX + (D.variant,), args=("input", "output"))


def atan2(y: Any, x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.atan2(y, x)`: the elementwise angle of the point (x, y), in [-pi, pi]."""
    return _atan2(y, x, name=name)


less = compare("Less", torch.lt, flops=flops.per_output_element())
less_equal = compare("LessEqual", torch.le, flops=flops.per_output_element())
greater = compare("Greater", torch.gt, flops=flops.per_output_element())
greater_equal = compare("GreaterEqual", torch.ge, flops=flops.per_output_element())


def _equality_kernel(fn: Callable[..., Any], np_fn: Callable[..., Any],
                     mismatch: bool) -> Callable:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        if node.attrs["T"] == D.string:
            # bool results are torch tensors whatever the input dtype (Where, LogicalAnd,
            # Select consume them).
            def compute(x: Any, y: Any) -> Any:
                return torch.from_numpy(np.asarray(np_fn(
                    np.asarray(x, dtype=object), np.asarray(y, dtype=object)), dtype=bool))
        else:
            compute = fn
        if node.attrs.get("incompatible_shape_error", True):
            return compute

        def tolerant(x: Any, y: Any) -> Any:
            # TF: shapes that do not broadcast compare as one scalar (unequal).
            try:
                np.broadcast_shapes(tuple(x.shape), tuple(y.shape))
            except ValueError:
                device = x.device if isinstance(x, torch.Tensor) else None
                return torch.tensor(mismatch, device=device)
            return compute(x, y)
        return tolerant
    return factory


def _equality_shape(ctx: Any) -> List[TensorShape]:
    if not ctx.attrs.get("incompatible_shape_error", True):
        try:
            return broadcast_rule(ctx)
        except ValueError:
            return [TensorShape([])]
    return broadcast_rule(ctx)


def _equal_static_value(t: Tensor) -> Optional[np.ndarray]:
    a, b = constant_value(t.op.inputs[0]), constant_value(t.op.inputs[1])
    if a is None or b is None:
        return None
    try:
        return np.equal(a, b) if t.op.type == "Equal" else np.not_equal(a, b)
    except ValueError:          # shapes that do not broadcast (incompatible_shape_error)
        return None


for _op_type, _fn, _np_fn, _mismatch in (("Equal", torch.eq, np.equal, False),
                                         ("NotEqual", torch.ne, np.not_equal, True)):
    declare(_op_type, inputs=["x: T", "y: T"], outputs=["z: bool"],
            attrs={"T": Type(ALL), "incompatible_shape_error": True},
            shape=_equality_shape, kernel=_equality_kernel(_fn, _np_fn, _mismatch),
            grad="none", static_value=_equal_static_value,
            flops=flops.per_output_element(), kernel_error=incompatible_shapes)

logical_and = binary("LogicalAnd", torch.logical_and, D.bool, grad="none")
logical_or = binary("LogicalOr", torch.logical_or, D.bool, grad="none")
logical_not = unary("LogicalNot", torch.logical_not, D.bool, grad="none")
bitwise_and = binary("BitwiseAnd", torch.bitwise_and, INT, grad="none")
bitwise_or = binary("BitwiseOr", torch.bitwise_or, INT, grad="none")
bitwise_xor = binary("BitwiseXor", torch.bitwise_xor, INT, grad="none")
invert = unary("Invert", torch.bitwise_not, INT, grad="none")
left_shift = binary("LeftShift", torch.bitwise_left_shift, INT, grad="none")
right_shift = binary("RightShift", torch.bitwise_right_shift, INT, grad="none")


def _cast_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    src, dst = node.attrs["SrcT"], node.attrs["DstT"]
    target = dst.torch_dtype
    if dst == D.string or src == D.string:
        # TF's kernel message, with C++ DataTypeString names ("float", "double", ...).
        names = {"float32": "float", "float64": "double", "float16": "half"}
        raise NotImplementedError(f"Cast {names.get(src.name, src.name)} to "
                                  f"{names.get(dst.name, dst.name)} is not supported")
    narrow = narrow_cast(src, dst)
    if narrow is not None:
        return narrow
    if src.is_complex and not dst.is_complex:
        return lambda x: torch.real(x).to(target)
    return lambda x: x.to(target)


def _cast_grad_names(op: Any) -> List[Any]:
    float_like = D.float16, D.bfloat16, D.float32, D.float64, D.complex64, D.complex128
    both_float = (D.as_dtype(op.attrs["SrcT"]).base_dtype in float_like and
                  D.as_dtype(op.attrs["DstT"]).base_dtype in float_like)
    return ["Cast" if both_float else None]


def _cast_static_value(t: Tensor) -> Optional[np.ndarray]:
    v = constant_value(t.op.inputs[0])
    return None if v is None else np.asarray(v).astype(t.dtype.as_numpy_dtype)


def _cast_shape_value(t: Tensor) -> TensorShape:
    return constant_value_as_shape(t.op.inputs[0])


declare("Cast", inputs=["x: SrcT"], outputs=["y: DstT"],
        attrs={"SrcT": Type(), "DstT": Type(), "Truncate": False},
        shape=unary_rule, kernel=_cast_kernel, grad_names=_cast_grad_names,
        static_value=_cast_static_value, shape_value=_cast_shape_value)


def _add_n_shape(ctx: Any) -> List[TensorShape]:
    out = unknown_shape()
    for s in ctx.shapes:
        if not out.is_compatible_with(s):
            raise ValueError(f"Shapes must be equal rank, but are {out} and {s} "
                             f"{node_desc(ctx)}")
        out = out.merge_with(s)
    return [out]


declare("AddN", inputs=["inputs: N * T"], outputs=["sum: T"],
        attrs={"N": Int(minimum=1), "T": Type(NUMBER + (D.variant,))},
        shape=_add_n_shape, kernel=grappler_rewrites.add_n_kernel,
        grad_names=lambda op: [Pass(0)] * len(op.inputs),
        flops=flops.add_n, kernel_error=same_shape_error)


# -- tf.* wrappers, following TF's Python layer ------------------------------------------------

def add(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    """`tf.add`: AddV2 (Add for strings), named "Add" by default."""
    if _context._state["eager"] and type(x) is type(y) and isinstance(x, Tensor) and \
            x._dtype is not D.string:
        return apply_op1("AddV2", [x, y])    # eager tensors: no scope or conversion to do
    with name_scope(name, "Add", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, dtype_hint=x.dtype.base_dtype, name="y")
        if x.dtype == D.string:
            return apply_op1("Add", [x, y], name=scope)
        return add_v2(x, y, name=scope)


def _add_dispatch(x: Tensor, y: Any, name: Optional[str] = None) -> Tensor:
    if not isinstance(y, Tensor):
        y = convert_to_tensor(y, dtype_hint=x.dtype.base_dtype, name="y")
    if x.dtype == D.string:
        return apply_op1("Add", [x, y], name=name)
    return add_v2(x, y, name=name)


subtract = sub


def multiply(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    return mul(x, y, name)


_TRUEDIV_TABLE = {
    D.uint8: D.float32, D.int8: D.float32, D.uint16: D.float32, D.int16: D.float32,
    D.uint32: D.float64, D.int32: D.float64, D.uint64: D.float64, D.int64: D.float64,
    D.bfloat16: None, D.float16: None, D.float32: None, D.float64: None,
    D.complex64: None, D.complex128: None,
}


def _truediv_python3(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "truediv", [x, y]) as scope:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, dtype_hint=x.dtype.base_dtype, name="y")
        x_dtype, y_dtype = x.dtype.base_dtype, y.dtype.base_dtype
        if x_dtype != y_dtype:
            raise TypeError(f"`x` and `y` must have the same dtype, got {x_dtype!r} != "
                            f"{y_dtype!r}.")
        try:
            dtype = _TRUEDIV_TABLE[x_dtype]
        except KeyError:
            raise TypeError(f"Invalid dtype {x_dtype!r} in __truediv__") from None
        if dtype is not None:
            x = cast(x, dtype)
            y = cast(y, dtype)
        return real_div(x, y, name=scope)


def truediv(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    return _truediv_python3(x, y, name)


def divide(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    """`tf.divide`: Python 3 division (`x / y`)."""
    if name is not None:
        return DivideDelegateWithName(x, name) / y
    return truediv(x, y)


class DivideDelegateWithName:
    """Lets `tf.divide(x, y, name)` go through `/` with a name, as TF does."""

    def __init__(self, x: Any, name: str):
        self.x = x
        self.name = name

    def __truediv__(self, y: Any) -> Tensor:
        return _truediv_python3(self.x, y, self.name)


def div(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    """`tf.div` (TF1): Python 2 division — floor for integers, true division for floats."""
    with name_scope(name, "div", [x, y]) as scope:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        if x.dtype.is_floating or x.dtype.is_complex:
            return real_div(x, y, name=scope)
        return floor_div(x, y, name=scope)


def floordiv(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "floordiv", [x, y]) as scope:
        return floor_div(x, y, name=scope)


def mod(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "mod", [x, y]) as scope:
        return floor_mod(x, y, name=scope)


def pow(x: Any, y: Any, name: Optional[str] = None) -> Tensor:  # noqa: A001 - TF's name
    with name_scope(name, "Pow", [x]) as scope:
        return pow_(x, y, name=scope)


def maximum(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    return maximum_(x, y, name=name)


def minimum(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    return minimum_(x, y, name=name)


def div_no_nan(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "div_no_nan", [x, y]) as scope:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        return div_no_nan_(x, y, name=scope)


def multiply_no_nan(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "multiply_no_nan", [x, y]) as scope:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        return mul_no_nan_(x, y, name=scope)


def negative(x: Any, name: Optional[str] = None) -> Tensor:
    return neg(x, name=name)


def abs(x: Any, name: Optional[str] = None) -> Tensor:  # noqa: A001 - TF's name
    with name_scope(name, "Abs", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        if x.dtype.is_complex:
            return apply_op1("ComplexAbs", [x], {"Tout": x.dtype.real_dtype}, name=scope)
        return abs_(x, name=scope)


declare("ComplexAbs", inputs=["x: T"], outputs=["y: Tout"],
        attrs={"T": Type(COMPLEX), "Tout": Type(default=D.float32)},
        shape=unary_rule, kernel=fixed(torch.abs))


def sigmoid(x: Any, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "Sigmoid", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return sigmoid_(x, name=scope)


def cast(x: Any, dtype: Any, name: Optional[str] = None) -> Any:
    """`tf.cast`: returns `x` itself when it already has `dtype`, as TF."""
    base = D.as_dtype(dtype).base_dtype
    if isinstance(x, Tensor) and base == x.dtype:
        return x
    # A resource variable of the wanted dtype is returned as is (no read op), as TF.
    if getattr(x, "_is_resource_variable", False) and base == x.dtype:
        return x
    if hasattr(x, "values") and hasattr(x, "indices") and not isinstance(x, Tensor):
        with name_scope(name, "Cast", [x]) as scope:
            values = cast(x.values, base, name=scope)
            return type(x)(x.indices, values, x.dense_shape)
    with name_scope(name, "Cast", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        if x.dtype.base_dtype != base:
            x = apply_op1("Cast", [x], {"DstT": base, "Truncate": False}, name=scope)
        return x


def saturate_cast(value: Any, dtype: Any, name: Optional[str] = None) -> Tensor:
    """`tf.saturate_cast`: a cast that clamps to the output range first.

    As TF 2.21: a ClipByValue named `clamp` whose limits are nudged inside the range where
    the output's min/max is not representable in the input dtype (float32 -> int32 clamps
    to 2147483520), then the Cast.
    """
    import numpy as np
    with name_scope(name, "saturate_cast", [value]) as scope:
        value = convert_to_tensor(value, name="value")
        dtype = D.as_dtype(dtype).base_dtype
        in_dtype = value.dtype.base_dtype
        if in_dtype.is_complex:
            raise NotImplementedError("tf.saturate_cast of complex input is not supported "
                                      "by tf1compat")
        out_real = dtype.real_dtype if dtype.is_complex else dtype
        np_in = in_dtype.as_numpy_dtype
        try:
            promoted = np.promote_types(np_in, out_real.as_numpy_dtype)
        except TypeError:
            promoted = np.dtype(float)
        lo = np_in(np.maximum(in_dtype.min, out_real.min))
        if np.array([lo], promoted)[0] < np.array([out_real.min], promoted)[0]:
            lo = np.nextafter(lo, np_in(0), dtype=np_in)
        hi = np_in(np.minimum(float(in_dtype.max), float(out_real.max)))
        if np.array([hi], promoted)[0] > np.array([out_real.max], promoted)[0]:
            hi = np.nextafter(hi, np_in(0), dtype=np_in)
        value = apply_op1("ClipByValue", [value, convert_to_tensor(lo, dtype=in_dtype),
                                          convert_to_tensor(hi, dtype=in_dtype)],
                          name="clamp")
        return cast(value, dtype, name=scope)


def _to(dtype: D.DType, default_name: str) -> Callable[..., Tensor]:
    def wrapper(x: Any, name: str = default_name) -> Tensor:
        return cast(x, dtype, name=name)
    wrapper.__name__ = default_name
    wrapper.__doc__ = f"`tf.{default_name}` (deprecated TF1 cast to {dtype.name})."
    return wrapper


to_float = _to(D.float32, "ToFloat")
to_double = _to(D.float64, "ToDouble")
to_int32 = _to(D.int32, "ToInt32")
to_int64 = _to(D.int64, "ToInt64")
to_bfloat16 = _to(D.bfloat16, "ToBFloat16")
to_complex64 = _to(D.complex64, "ToComplex64")
to_complex128 = _to(D.complex128, "ToComplex128")


def equal(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    return apply_op1("Equal", [x, y], name=name)


def not_equal(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    return apply_op1("NotEqual", [x, y], name=name)


def logical_xor(x: Any, y: Any, name: str = "LogicalXor") -> Tensor:
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


def add_n(inputs: Sequence[Any], name: Optional[str] = None) -> Tensor:
    """`tf.add_n`: sums a list of same-shaped tensors."""
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices "
                         "with the same dtype and shape.")
    inputs = [convert_to_tensor(i) if not _is_indexed_slices(i) else i for i in inputs]
    if len(inputs) == 1:
        value = inputs[0]
        if _is_indexed_slices(value):
            from tf1compat.ops import array_ops
            value = array_ops.convert_indexed_slices(value)
        from tf1compat.ops.array_ops import identity
        return identity(value, name=name)
    return apply_op1("AddN", [inputs], name=name)


def _is_indexed_slices(x: Any) -> bool:
    return hasattr(x, "indices") and hasattr(x, "values") and hasattr(x, "dense_shape") and \
        not isinstance(x, Tensor)


def accumulate_n(inputs: Sequence[Any], shape: Any = None, tensor_dtype: Any = None,
                 name: Optional[str] = None) -> Tensor:
    return add_n(inputs, name=name or "AccumulateNV2")


def scalar_mul(scalar: Any, x: Any, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "scalar_mul", [scalar, x]) as scope:
        scalar = convert_to_tensor(scalar, dtype=x.dtype.base_dtype, name="scalar")
        if scalar.shape.rank not in (0, None):
            raise ValueError(f"`scalar` must be a 0-D (scalar) Tensor, got {scalar.shape}")
        return multiply(scalar, x, name=scope)


def conj(x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.conj`: the input itself for real tensors, as TF."""
    if isinstance(x, Tensor) and not x.dtype.is_complex:
        return x
    with name_scope(name, "Conj", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        if x.dtype.is_complex:
            return conj_(x, name=scope)
        return x


# -- operator overloads (Tensor.__add__ etc.), TF's binary_op_wrapper ------------------------

def _binary_overload(op_name: str, func: Callable[..., Tensor]) -> None:
    def binary_op_wrapper(x: Tensor, y: Any) -> Tensor:
        if _context._state["eager"] and type(y) is type(x):
            return func(x, y)    # two eager tensors: no scope to open, no reflected operator
        with name_scope(None, op_name, [x, y]) as scope:
            try:
                return func(x, y, name=scope)
            except (TypeError, ValueError) as e:
                r_op = getattr(type(y), f"__r{op_name}__", None)
                if r_op is None or isinstance(y, Tensor):
                    raise
                try:
                    out = r_op(y, x)
                except (TypeError, ValueError):
                    raise e from None
                if out is NotImplemented:
                    raise
                return out

    def r_binary_op_wrapper(y: Tensor, x: Any) -> Tensor:
        with name_scope(None, op_name, [x, y]) as scope:
            x = convert_to_tensor(x, dtype=y.dtype.base_dtype, name="x")
            return func(x, y, name=scope)

    TENSOR_OPERATORS[op_name] = binary_op_wrapper
    TENSOR_OPERATORS["r" + op_name] = r_binary_op_wrapper


def _mul_dispatch(x: Tensor, y: Any, name: Optional[str] = None) -> Any:
    if isinstance(y, SparseTensor):  # dense * sparse: the sparse operand's values scaled
        from tf1compat.ops.sparse_dense_ops import dense_times_sparse
        return dense_times_sparse(x, y, name=name)
    if (isinstance(x, Tensor) and x.dtype == D.bool) or (isinstance(y, Tensor) and
                                                        y.dtype == D.bool):
        return cast(multiply(cast(x, D.int32), cast(y, D.int32), name=name), D.bool)
    return multiply(x, y, name=name)


def and_(x: Tensor, y: Any, name: Optional[str] = None) -> Tensor:
    if x.dtype == D.bool:
        return logical_and(x, y, name)
    return bitwise_and(x, y)


def or_(x: Tensor, y: Any, name: Optional[str] = None) -> Tensor:
    if x.dtype == D.bool:
        return logical_or(x, y, name)
    return bitwise_or(x, y)


def xor_(x: Tensor, y: Any, name: Optional[str] = None) -> Tensor:
    if x.dtype == D.bool:
        return logical_xor(x, y, name)
    return bitwise_xor(x, y)


def invert_(x: Tensor, name: Optional[str] = None) -> Tensor:
    if x.dtype == D.bool:
        return logical_not(x, name=name)
    return invert(x, name=name)


def _matmul_overload(a: Any, b: Any, name: Optional[str] = None) -> Tensor:
    from tf1compat.ops.linalg_ops import matmul
    return matmul(a, b, name=name)


_binary_overload("add", _add_dispatch)
_binary_overload("sub", subtract)
_binary_overload("mul", _mul_dispatch)
_binary_overload("truediv", truediv)
_binary_overload("floordiv", floordiv)
_binary_overload("mod", mod)
_binary_overload("pow", pow)
_binary_overload("matmul", _matmul_overload)
_binary_overload("and", and_)
_binary_overload("or", or_)
_binary_overload("xor", xor_)
TENSOR_OPERATORS["lt"] = lambda x, y: less(x, y)
TENSOR_OPERATORS["le"] = lambda x, y: less_equal(x, y)
TENSOR_OPERATORS["gt"] = lambda x, y: greater(x, y)
TENSOR_OPERATORS["ge"] = lambda x, y: greater_equal(x, y)
TENSOR_OPERATORS["neg"] = lambda x: neg(x)
TENSOR_OPERATORS["abs"] = lambda x: abs(x)
TENSOR_OPERATORS["invert"] = lambda x: invert_(x)


def _name_op_wrappers(namespace: dict) -> None:
    """Gives each wrapper the factories above made the name it is first bound to here (TF's
    `tf.exp.__name__` is "exp", and libraries find a function again by its module and name:
    GPflow's saver)."""
    for binding, value in list(namespace.items()):
        op_type = getattr(value, "_op_wrapper_of", None)
        if op_type is not None and value.__name__ == op_type and not binding.startswith("_"):
            value.__name__ = value.__qualname__ = binding


_name_op_wrappers(globals())
# The functions TF's ragged dispatch makes accept RaggedTensors (names in ops/dispatch.py).
for _kind, _names in dispatch.MATH_FUNCTIONS.items():
    dispatch.add_dispatch_support(globals(), _kind, _names)
