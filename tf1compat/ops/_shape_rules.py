"""Shape rules shared by op families, as pure functions of static information (JAX lax style)."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np

from tf1compat.framework.op_def import InferCtx
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape

__all__ = ["broadcast_shapes", "broadcast_rule", "unary_rule", "node_desc", "merge_shapes",
           "normalize_axis",
           "reduced_shape"]


def node_desc(ctx: InferCtx, computed: Sequence[int] = (), partial: Sequence[int] = ()) -> str:
    """TF's shape-error context (InferenceContext::AttachContext), trailing period included:

        for '{{node add}} = AddV2[T=DT_INT32](a, b)' with input shapes: [2], [3].

    `computed` / `partial` name the inputs TF's shape function reads as values / as shapes
    (reductions' axes, Reshape's shape, ...); TF lists the ones known at graph build:
    "and with computed input tensors: input[1] = <2>" / "... as partial shapes: input[1] =
    [?,5]".
    """
    shapes = ", ".join(_shape_text(s) for s in ctx.shapes)
    attrs = ", ".join(f"{k}={_attr_text(v)}" for k, v in sorted(ctx.attrs.items())
                      if not k.startswith("_"))
    inputs = ", ".join(_input_text(t) for t in ctx.inputs)
    text = (f"for '{{{{node {ctx.name}}}}} = {ctx.op_type}[{attrs}]({inputs})' "
            f"with input shapes: {shapes}")
    values = []
    for i in computed:
        value = ctx.const(i) if i < len(ctx.inputs) else None
        if value is not None:
            values.append(f"input[{i}] = <{_value_text(value)}>")
    if values:
        text += " and with computed input tensors: " + ", ".join(values)
    as_shapes = []
    for i in partial:
        shape = ctx.const_shape(i) if i < len(ctx.inputs) else None
        if shape is not None and shape.rank is not None:
            as_shapes.append(f"input[{i}] = {_shape_text(shape)}")
    if as_shapes:
        text += " and with input tensors computed as partial shapes: " + ",".join(as_shapes)
    return text + "."


def merge_shapes(a: TensorShape, b: TensorShape, ctx: Optional[InferCtx] = None,
                 note: str = "") -> TensorShape:
    """TF's InferenceContext::Merge: the most specific shape compatible with both.

    Raises TF's messages ("Shapes must be equal rank, ..." / "Dimension i in both shapes must
    be equal, ..."); `note` is the extra line some shape functions add ("From merging ...").
    """
    if a.rank is None:
        return b
    if b.rank is None:
        return a
    suffix = (f"\n\t{note}" if note else "") + (f" {node_desc(ctx)}" if ctx is not None else "")
    if a.rank != b.rank:
        raise ValueError(f"Shapes must be equal rank, but are {a.rank} and {b.rank}{suffix}")
    out = []
    for i, (x, y) in enumerate(zip(a.as_list(), b.as_list())):
        if x is not None and y is not None and x != y:
            raise ValueError(f"Dimension {i} in both shapes must be equal, but are {x} and {y}. "
                             f"Shapes are {_shape_text(a)} and {_shape_text(b)}.{suffix}")
        out.append(y if x is None else x)
    return TensorShape(out)


def _input_text(t: Any) -> str:
    """A NodeDef input: "op" for output 0, "op:k" otherwise."""
    if getattr(t, "_is_eager_tensor", False):
        return "_"   # an eager value has no producing node
    index = getattr(t, "value_index", 0)
    return t.op.name if index == 0 else f"{t.op.name}:{index}"


def _value_text(value: Any) -> str:
    """Tensor::SummarizeValue: the (first 256) values separated by spaces."""
    flat = np.asarray(value).reshape(-1)
    items = [_scalar_text(v) for v in flat[:256]]
    return " ".join(items) + ("..." if flat.size > 256 else "")


def _scalar_text(v: Any) -> str:
    if isinstance(v, (bytes, np.bytes_)):
        return bytes(v).decode("utf-8", "replace")
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (float, np.floating)):
        return _float_text(float(v))
    return str(v)


def _float_text(f: float) -> str:
    """TF's LegacyPrecision: the shortest of %.6g / %.9g / %.17g that round-trips."""
    for digits in (6, 9, 17):
        text = f"{f:.{digits}g}"
        if float(text) == f:
            return text
    return repr(f)


def _attr_text(v: Any) -> str:
    """SummarizeAttrValue for the attr values tf1compat stores."""
    from tf1compat.framework import dtypes as _dtypes
    if isinstance(v, _dtypes.DType):
        from tf1compat.serialization.tensor_codec import DT_NAMES
        enum = v.as_datatype_enum
        base = DT_NAMES.get(enum % 100, f"DT_{enum}")
        return base + "_REF" if enum > 100 else base
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return _float_text(float(v))
    if isinstance(v, (str, bytes)):
        text = v.decode("utf-8", "replace") if isinstance(v, bytes) else v
        return '"' + text.encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"'
    if isinstance(v, TensorShape):
        return "<unknown>" if v.rank is None else _shape_text(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_attr_text(x) for x in v) + "]"
    if isinstance(v, np.ndarray):
        dtype = _dtypes.as_dtype(v.dtype).name if v.dtype != object else "string"
        dims = "[" + ",".join(str(d) for d in v.shape) + "]"
        return f"Tensor<type: {dtype} shape: {dims} values: {_value_text(v)}>"
    name = getattr(v, "name", None)
    return str(name) if name is not None else str(v)


def _shape_text(shape: TensorShape) -> str:
    if shape.rank is None:
        return "?"
    return "[" + ",".join("?" if d is None else str(d) for d in shape.as_list()) + "]"


def broadcast_shapes(a: TensorShape, b: TensorShape, ctx: Optional[InferCtx] = None
                     ) -> TensorShape:
    """TF's BroadcastBinaryOpShapeFn, unknown dimensions included."""
    if a.rank is None or b.rank is None:
        return unknown_shape()
    x, y = a.as_list(), b.as_list()
    n = max(len(x), len(y))
    x = [1] * (n - len(x)) + x
    y = [1] * (n - len(y)) + y
    out: List[Optional[int]] = []
    for dx, dy in zip(x, y):
        if dx is not None and dy is not None:
            if dx == dy or dy == 1:
                out.append(dx)
            elif dx == 1:
                out.append(dy)
            else:
                suffix = f" {node_desc(ctx)}" if ctx is not None else "."
                raise ValueError(f"Dimensions must be equal, but are {dx} and {dy}{suffix}")
        elif dx is not None and dx > 1:
            out.append(dx)
        elif dy is not None and dy > 1:
            out.append(dy)
        elif dx == 1:
            out.append(dy)
        elif dy == 1:
            out.append(dx)
        else:
            out.append(None)
    return TensorShape(out)


def broadcast_rule(ctx: InferCtx) -> List[TensorShape]:
    return [broadcast_shapes(ctx.shape(0), ctx.shape(1), ctx)]


def unary_rule(ctx: InferCtx) -> List[TensorShape]:
    return [ctx.shape(0)]


def normalize_axis(axis: int, rank: int, ctx: Optional[InferCtx] = None,
                   axis_input: Optional[int] = None) -> int:
    """`axis` in [0, rank); `axis_input` is the input holding the axes (for the message)."""
    if axis < -rank or axis >= rank:
        computed = () if axis_input is None else (axis_input,)
        where = f" {node_desc(ctx, computed=computed)}" if ctx is not None else ""
        raise ValueError(f"Invalid reduction dimension {axis} for input with {rank} "
                         f"dimensions.{where}")
    return axis % rank if rank else 0


def reduced_shape(shape: TensorShape, axes: Optional[Sequence[int]], keep_dims: bool,
                  ctx: Optional[InferCtx] = None) -> TensorShape:
    """Static shape of a reduction over `axes` (None: unknown axes)."""
    if shape.rank is None:
        return unknown_shape()
    if axes is None:
        return unknown_shape(shape.rank) if keep_dims else unknown_shape()
    rank = shape.rank
    # Reductions read their axes from input 1 (TF lists its value in the message).
    axes_set = {normalize_axis(int(a), rank, ctx, axis_input=1) for a in axes}
    dims = shape.as_list()
    if keep_dims:
        return TensorShape([1 if i in axes_set else d for i, d in enumerate(dims)])
    return TensorShape([d for i, d in enumerate(dims) if i not in axes_set])


def merge_all(shapes: Sequence[TensorShape]) -> Any:
    out = unknown_shape()
    for s in shapes:
        out = out.merge_with(s)
    return out
