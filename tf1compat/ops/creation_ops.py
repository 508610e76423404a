"""Tensor creation: fill, zeros/ones(_like), range, lin_space, one_hot, eye."""

from __future__ import annotations

import builtins
from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_op import constant
from tf1compat.framework.constant_value import constant_value, constant_value_as_shape
from tf1compat.framework.grad_names import names
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import (convert_to_tensor,
                                                   register_tensor_conversion_function)
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops import dispatch
from tf1compat.ops._kernels import as_int_list, static_ints, torch_or_numpy
from tf1compat.ops._shape_rules import node_desc, unary_rule
from tf1compat.ops.list_ops import zeros_of
from tf1compat.ops.math_ops import cast



# -- fill, zeros, ones ------------------------------------------------------------------------

def _fill_shape(ctx: Any) -> List[TensorShape]:
    if ctx.shape(1).rank not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {ctx.shape(1).rank} {node_desc(ctx)}")
    dims = ctx.const(0)
    if dims is not None and bool((np.asarray(dims) < 0).any()):
        raise ValueError(f"Fill dimensions must be >= 0 {node_desc(ctx, partial=(0,))}")
    return [constant_value_as_shape(ctx.inputs[0])]


def _fill_dims(d: Any) -> List[int]:
    """The dims input as ints; a negative one is TF's run-time InvalidArgumentError."""
    dims = as_int_list(d)
    for v in dims:
        if v < 0:
            raise errors.InvalidArgumentError(None, None, f"Dimension {v} must be >= 0")
    return dims


def _fill_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dims = static_ints(node, 0)
    if node.attrs["T"] == D.string:
        return lambda d, v: np.full(_fill_dims(d), v, dtype=object)
    if dims is not None:
        return lambda d, v: v.reshape(()).expand(dims).clone()
    return lambda d, v: v.reshape(()).expand(_fill_dims(d)).clone()


def _fill_static_value(t: Tensor) -> Optional[np.ndarray]:
    dims, value = constant_value(t.op.inputs[0]), constant_value(t.op.inputs[1])
    if dims is None or value is None:
        return None
    return np.full(dims, value, dtype=value.dtype)


declare("Fill", inputs=["dims: index_type", "value: T"], outputs=["output: T"],
        attrs={"T": Type(), "index_type": Type(D.INDEX_TYPES, default=D.int32)},
        shape=_fill_shape, kernel=_fill_kernel, grad_names=names(None, "Sum"),
        static_value=_fill_static_value)


def _empty_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["dtype"].torch_dtype

    def run(shape: Any) -> torch.Tensor:
        # TF leaves the memory uninitialised unless `init`; zeros are one such content.
        return torch.zeros([int(d) for d in shape.tolist()], dtype=dtype, device=kctx.device)
    return run


declare("Empty", inputs=["shape: int32"], outputs=["output: dtype"],
        attrs={"dtype": Type(), "init": False}, shape=lambda ctx: [ctx.const_shape(0)],
        kernel=_empty_kernel, grad="none",
        doc="A tensor of `shape` (zeros here; TF's holds whatever memory it got unless init).")


def fill(dims: Any, value: Any, name: Optional[str] = None) -> Tensor:
    """`tf.fill`."""
    return apply_op1("Fill", [dims, value], name=name)


def _zero_of(dtype: D.DType) -> Any:
    return False if dtype == D.bool else b"" if dtype == D.string else 0


def _constant_if_small(value: Any, shape: Any, dtype: D.DType, name: str) -> Optional[Tensor]:
    """TF's `_constant_if_small`, tried on any shape value before it becomes a tensor: a
    Const when the product of the dims is under 1000, each dim cut to an int as numpy does
    (`tf.zeros([2, 3, 4 / 2])` is a (2, 3, 2) Const in TF; a larger float shape is a
    TypeError, as is a scalar float). A Tensor among the dims makes numpy raise
    NotImplementedError: no Const."""
    try:
        if np.ndim(shape) == 1 and np.prod(shape) < 1000:
            return constant(value, shape=shape, dtype=dtype, name=name)
    except (NotImplementedError, TypeError):
        pass
    return None


def _filled(shape: Any, dtype: Any, name: Optional[str], value_of: Callable[[D.DType], Any],
            default_name: str) -> Tensor:
    dtype = D.as_dtype(dtype).base_dtype
    with name_scope(name, default_name, [shape]) as scope:
        value = value_of(dtype)
        if not isinstance(shape, Tensor):
            try:
                dims = TensorShape(shape).as_list() if not isinstance(shape, TensorShape) \
                    else shape.as_list()
                if all(isinstance(d, int) for d in dims) and int(np.prod(dims)) < 1000:
                    return constant(value, shape=dims, dtype=dtype, name=scope)
                shape = constant(dims, dtype=D.int64 if builtins.any(
                    d >= 2**31 for d in dims) else D.int32, name="shape_as_tensor")
            except (TypeError, ValueError):
                try:
                    small = _constant_if_small(value, shape, dtype, scope)
                except ValueError:
                    # a negative dim: TF's handler makes the shape a tensor, Fill rejects it
                    small = None
                if small is not None:
                    return small
                shape = convert_to_tensor(shape, dtype=D.int32)
        if shape.shape.rank == 0:
            from tf1compat.ops.array_ops import reshape
            shape = reshape(shape, [-1])
        return fill(shape, constant(value, dtype=dtype), name=scope)


def zeros(shape: Any, dtype: Any = D.float32, name: Optional[str] = None) -> Tensor:
    """`tf.zeros`: a Const when small and static, else Fill (as TF)."""
    return _filled(shape, dtype, name, _zero_of, "zeros")


def ones(shape: Any, dtype: Any = D.float32, name: Optional[str] = None) -> Tensor:
    """`tf.ones`."""
    return _filled(shape, dtype, name, lambda d: True if d == D.bool else 1, "ones")


def _empty_strings_like(x: Any) -> Any:
    return np.full(np.shape(x), b"", dtype=object)


declare("ZerosLike", inputs=["x: T"], outputs=["y: T"], attrs={"T": Type()},
        shape=unary_rule, grad="none",
        kernel=lambda node, kctx: torch_or_numpy(node, zeros_of, _empty_strings_like))
declare("OnesLike", inputs=["x: T"], outputs=["y: T"], attrs={"T": Type()},
        shape=unary_rule, grad="none", kernel=lambda node, kctx: torch.ones_like)


def zeros_like(tensor: Any, dtype: Any = None, name: Optional[str] = None,
               optimize: bool = True) -> Tensor:
    """`tf.zeros_like` (a Const when the shape is static, as TF)."""
    from tf1compat.ops.array_ops import shape_internal
    with name_scope(name, "zeros_like", [tensor]) as scope:
        tensor = convert_to_tensor(tensor, name="tensor")
        if optimize and tensor.shape.is_fully_defined() and tensor.dtype != D.variant:
            return zeros(tensor.shape, dtype=dtype or tensor.dtype.base_dtype, name=scope)
        if dtype is not None and D.as_dtype(dtype) != tensor.dtype.base_dtype:
            return zeros(shape_internal(tensor, optimize=optimize), dtype=dtype, name=scope)
        return apply_op1("ZerosLike", [tensor], name=scope)


def ones_like(tensor: Any, dtype: Any = None, name: Optional[str] = None,
              optimize: bool = True) -> Tensor:
    """`tf.ones_like`."""
    from tf1compat.ops.array_ops import shape_internal
    with name_scope(name, "ones_like", [tensor]) as scope:
        tensor = convert_to_tensor(tensor, name="tensor")
        ones_shape = shape_internal(tensor, optimize=optimize)
        if dtype is None:
            dtype = tensor.dtype.base_dtype
        ret = ones(ones_shape, dtype=dtype, name=scope)
        ret.set_shape(tensor.shape)
        return ret


# -- range, linspace ----------------------------------------------------------------------------

def _range_shape(ctx: Any) -> List[TensorShape]:
    vals = [ctx.const(i) for i in builtins.range(3)]
    if builtins.any(v is None for v in vals):
        return [TensorShape([None])]
    start, limit, delta = (v.item() for v in vals)
    if delta == 0:
        raise ValueError(f"Requires delta != 0 {node_desc(ctx)}")
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):
        raise ValueError(f"Requires start <= limit when delta > 0: {start}/{limit} "
                         f"{node_desc(ctx)}")
    if ctx.attrs["Tidx"].is_integer:
        n = (abs(int(limit) - int(start)) + abs(int(delta)) - 1) // abs(int(delta))
    else:
        n = int(np.ceil(abs((limit - start) / delta)))
    return [TensorShape([int(n)])]


def _range_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["Tidx"].torch_dtype
    device = kctx.device
    # Bounds the graph makes constant are taken from it: reading a value of the run is a
    # device synchronisation on CUDA (TensorArray.stack's range(0, size) runs per step).
    known = [constant_value(t) for t in node.inputs]
    known = [v.item() if v is not None and np.ndim(v) == 0 else None for v in known]

    def run(start: Any, limit: Any, delta: Any) -> torch.Tensor:
        a, b, c = (v.item() if k is None else k
                   for k, v in zip(known, (start, limit, delta)))
        return torch.arange(a, b, c, dtype=dtype, device=device)
    return run


def _range_static_value(t: Tensor) -> Optional[np.ndarray]:
    vals = [constant_value(i) for i in t.op.inputs]
    if any(v is None for v in vals):
        return None
    return np.arange(vals[0], vals[1], vals[2], dtype=t.dtype.as_numpy_dtype)


declare("Range", inputs=["start: Tidx", "limit: Tidx", "delta: Tidx"], outputs=["output: Tidx"],
        attrs={"Tidx": Type((D.bfloat16, D.float16, D.float32, D.float64, D.int8, D.int16,
                             D.int32, D.int64, D.uint16, D.uint32), default=D.int32)},
        shape=_range_shape, kernel=_range_kernel, grad="none", static_value=_range_static_value)

_RANGE_HIERARCHY = [D.int32, D.int64, D.float16, D.bfloat16, D.float32, D.float64]


def range(start: Any, limit: Any = None, delta: Any = 1, dtype: Any = None,  # noqa: A001
          name: str = "range") -> Tensor:
    """`tf.range(start, limit=None, delta=1, dtype=None, name="range")`."""
    if limit is None:
        start, limit = 0, start
    with name_scope(name, "Range", [start, limit, delta]) as scope:
        if not isinstance(start, Tensor):
            start = convert_to_tensor(start, dtype=dtype, name="start")
        if not isinstance(limit, Tensor):
            limit = convert_to_tensor(limit, dtype=dtype, name="limit")
        if not isinstance(delta, Tensor):
            delta = convert_to_tensor(delta, dtype=dtype, name="delta")
        if dtype is None:
            # TF asserts the hierarchy (a bare AssertionError for, say, a uint8 limit).
            if not all(t.dtype.base_dtype in _RANGE_HIERARCHY for t in (start, limit, delta)):
                raise AssertionError()
            inferred = max([t.dtype.base_dtype for t in (start, limit, delta)],
                           key=_RANGE_HIERARCHY.index)
        else:
            inferred = D.as_dtype(dtype)
        start, limit, delta = (cast(t, inferred) for t in (start, limit, delta))
        return apply_op1("Range", [start, limit, delta], name=scope)


def _linspace_shape(ctx: Any) -> List[TensorShape]:
    for i, arg in enumerate(("start", "stop", "num")):
        if ctx.rank(i) not in (None, 0):
            raise ValueError(f"Shape must be rank 0 but is rank {ctx.rank(i)}\n\t for '{arg}' "
                             f"{node_desc(ctx)}")
    num = ctx.const(2)
    if num is None:
        return [TensorShape([None])]
    if int(num) <= 0:
        raise ValueError(f"Requires num > 0: {int(num)} {node_desc(ctx, computed=(2,))}")
    return [TensorShape([int(num)])]


def _linspace(start: torch.Tensor, stop: torch.Tensor, num: torch.Tensor) -> torch.Tensor:
    """TF's LinSpace kernel: `step = (stop - start) / (num - 1)` in T, element i is
    `start + step * i` and the last is `stop` itself. (torch.linspace counts the upper half
    back from `stop`, so its values differ from TF's by an ulp: C51's atom supports.)"""
    for arg, value in (("start", start), ("stop", stop), ("num", num)):
        if value.dim():
            raise errors.InvalidArgumentError(
                None, None, f"{arg} must be a scalar, not shape {list(value.shape)}")
    n = int(num.item())
    if n <= 0:
        raise errors.InvalidArgumentError(None, None, f"Requires num > 0: {n}")
    if n == 1:
        return start.reshape(1).clone()
    step = (stop - start) / (n - 1)
    index = torch.arange(n - 1, device=start.device).to(start.dtype)
    return torch.cat([start + step * index, stop.reshape(1)])


declare("LinSpace", inputs=["start: T", "stop: T", "num: Tidx"], outputs=["output: T"],
        attrs={"T": Type((D.bfloat16, D.float16, D.float32, D.float64)),
               "Tidx": Type(D.INDEX_TYPES, default=D.int32)},
        shape=_linspace_shape, grad="none", kernel=lambda node, kctx: _linspace)


def lin_space(start: Any, stop: Any, num: Any, name: Optional[str] = None) -> Tensor:
    """`tf.lin_space` / `tf.linspace`."""
    return apply_op1("LinSpace", [start, stop, num], name=name)


# -- one_hot, eye ---------------------------------------------------------------------------------

def _one_hot_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    depth = ctx.const(1)
    axis = ctx.attrs["axis"]
    if s.rank is None:
        return [unknown_shape()]
    dims = s.as_list()
    d = None if depth is None else int(depth)
    if axis < -1 or axis > len(dims):
        raise ValueError(f"Expected axis to be -1 or between [0, {len(dims)}).  But received: "
                         f"{axis} {node_desc(ctx)}")
    pos = len(dims) if axis == -1 else axis
    return [TensorShape(dims[:pos] + [d] + dims[pos:])]


def _one_hot_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    axis = node.attrs["axis"]
    # A constant depth (the usual `tf.one_hot(x, n_classes)`) is baked in: reading it from
    # the tensor is a host sync, and a graph break inside a compiled plan.
    known = static_ints(node, 1)
    static_depth = known[0] if known is not None and len(known) == 1 else None

    def one_hot(indices: torch.Tensor, depth: Any, on: torch.Tensor, off: torch.Tensor
                ) -> torch.Tensor:
        if static_depth is not None:
            n = static_depth
        else:
            n = int(depth.item()) if isinstance(depth, torch.Tensor) else int(depth)
        for arg, value in (("on_value", on), ("off_value", off)):
            if value.dim():
                raise errors.InvalidArgumentError(
                    None, None, f"{arg} must be a scalar, but got: {list(value.shape)}")
        classes = torch.arange(n, device=indices.device, dtype=indices.dtype)
        pos = indices.dim() if axis == -1 else axis
        shape = [1] * (indices.dim() + 1)
        shape[pos] = n
        mask = indices.unsqueeze(pos) == classes.reshape(shape)
        return torch.where(mask, on.to(indices.device), off.to(indices.device))
    return one_hot


declare("OneHot", inputs=["indices: TI", "depth: int32", "on_value: T", "off_value: T"],
        outputs=["output: T"],
        attrs={"axis": -1, "T": Type(), "TI": Type((D.uint8, D.int8, D.int32, D.int64),
                                                    default=D.int64)},
        shape=_one_hot_shape, kernel=_one_hot_kernel, grad="none")


def one_hot(indices: Any, depth: Any, on_value: Any = None, off_value: Any = None,
            axis: Optional[int] = None, dtype: Any = None, name: Optional[str] = None) -> Tensor:
    """`tf.one_hot` (float32 by default; out-of-range indices give all `off_value`)."""
    with name_scope(name, "one_hot", [indices, depth, on_value, off_value, axis, dtype]) as scope:
        dtype = None if dtype is None else D.as_dtype(dtype)
        on_exists, off_exists = on_value is not None, off_value is not None
        if on_exists:
            on_value = convert_to_tensor(on_value, dtype_hint=dtype)
        if off_exists:
            off_value = convert_to_tensor(off_value, dtype_hint=dtype)
        on_dtype = on_value.dtype.base_dtype if on_exists else None
        off_dtype = off_value.dtype.base_dtype if off_exists else None
        if on_exists or off_exists:
            if dtype is not None:
                if on_exists and on_dtype != dtype:
                    raise TypeError(f"dtype {on_dtype} of on_value does not match dtype "
                                    f"parameter {dtype}")
                if off_exists and off_dtype != dtype:
                    raise TypeError(f"dtype {off_dtype} of off_value does not match dtype "
                                    f"parameter {dtype}")
            else:
                dtype = on_dtype if on_exists else off_dtype
        elif dtype is None:
            dtype = D.float32
        if not on_exists:
            on_value = convert_to_tensor(1, dtype, name="on_value")
            on_dtype = dtype
        if not off_exists:
            off_value = convert_to_tensor(0, dtype, name="off_value")
            off_dtype = dtype
        if on_dtype != off_dtype:
            raise TypeError(f"dtype {on_dtype} of on_value does not match dtype {off_dtype} "
                            "of off_value")
        return apply_op1("OneHot", [indices, depth, on_value, off_value],
                         {"axis": -1 if axis is None else axis}, name=scope)


def _range_conversion(value: Any, dtype: Any = None, name: Optional[str] = None,
                      as_ref: bool = False) -> Tensor:
    return range(value.start, value.stop, value.step, dtype=dtype, name=name or "range")


register_tensor_conversion_function(builtins.range, _range_conversion, 100)

# tf.one_hot of ragged indices: handler in tf1compat/ragged/ragged_array.py.
dispatch.add_dispatch_support(globals(), "one_hot", ("one_hot",))
