"""Tensor creation and shape manipulation: placeholders, identity, shape, reshape, concat,
stack/unstack, split, tile, transpose, reverse, pad, fill/zeros/ones, one_hot, range."""

from __future__ import annotations

import math
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.constant_value import constant_value, constant_value_as_shape
from tf1compat.framework.deprecation import deprecated_argument_lookup
from tf1compat.framework.grad_names import Pass, names
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import Int, Type, TypeList, declare
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import (convert_to_tensor,
                                                   register_tensor_conversion_function)
from tf1compat.framework.tensor_shape import (Dimension, TensorShape, as_shape, dimension_value,
                                              unknown_shape)
from tf1compat.ops import dispatch
from tf1compat.ops._kernels import as_int_list, identity_kernel, static_ints
from tf1compat.ops._shape_rules import merge_shapes, unary_rule
from tf1compat.ops.array_shapes import (concat_shape, expand_dims_shape, pack_shape, reshape_shape,
                                        split_shape, split_v_shape, squeeze_shape,
                                        unpack_shape)
from tf1compat.ops._kernel_errors import concat_error, pack_error, reshape_error



# -- placeholders and identities -------------------------------------------------------------

declare("Placeholder", outputs=["output: dtype"],
        attrs={"dtype": Type(), "shape": unknown_shape()},
        shape=lambda ctx: [ctx.attrs["shape"]], kernel=None, grad="unregistered",
        must_feed=True, doc="A value fed at run time; running it unfed is InvalidArgumentError.")

def _placeholder_with_default_shape(ctx: Any) -> List[TensorShape]:
    # TF: the default value must fit the declared shape.
    merge_shapes(ctx.shape(0), ctx.attrs["shape"], ctx)
    return [ctx.attrs["shape"]]


declare("PlaceholderWithDefault", inputs=["input: dtype"], outputs=["output: dtype"],
        attrs={"dtype": Type(), "shape": unknown_shape()},
        shape=_placeholder_with_default_shape, kernel=identity_kernel, view=True,
        grad_names=names(Pass(0)), foldable=False)   # it can be fed: never a constant

def _identity_static_value(t: Tensor) -> Optional[np.ndarray]:
    return constant_value(t.op.inputs[0])


declare("Identity", inputs=["input: T"], outputs=["output: T"], attrs={"T": Type()},
        shape=unary_rule, kernel=identity_kernel, view=True, grad_names=names(Pass(0)),
        static_value=_identity_static_value, forwards_alias=True)

declare("IdentityN", inputs=["input: T"], outputs=["output: T"], attrs={"T": TypeList()},
        shape=lambda ctx: ctx.shapes, kernel=lambda node, kctx: (lambda *xs: xs), view=True,
        grad_names=lambda op: [Pass(i) for i in range(len(op.inputs))])

declare("Snapshot", inputs=["input: T"], outputs=["output: T"], attrs={"T": Type()},
        shape=unary_rule,
        kernel=lambda node, kctx: (lambda x: x.clone() if isinstance(x, torch.Tensor) else x),
        grad="unregistered", grad_names=names(Pass(0)), static_value=_identity_static_value)

declare("StopGradient", inputs=["input: T"], outputs=["output: T"], attrs={"T": Type()},
        shape=unary_rule, grad="none",
        kernel=lambda node, kctx: (lambda x: x.detach() if isinstance(x, torch.Tensor) else x),
        static_value=_identity_static_value)

declare("PreventGradient", inputs=["input: T"], outputs=["output: T"],
        attrs={"T": Type(), "message": ""}, shape=unary_rule, grad="none",
        grad_error=lambda op: LookupError(
            f"Gradient explicitly disabled. Reason: {op.get_attr('message')}"),
        kernel=lambda node, kctx: (lambda x: x.detach() if isinstance(x, torch.Tensor) else x))


def placeholder(dtype: Any, shape: Any = None, name: Optional[str] = None) -> Tensor:
    """`tf.placeholder(dtype, shape=None, name=None)`."""
    if _context._state["eager"]:
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    shape = unknown_shape() if shape is None else as_shape(shape)
    return apply_op1("Placeholder", [], {"dtype": D.as_dtype(dtype).base_dtype, "shape": shape},
                     name=name)


def placeholder_with_default(input: Any, shape: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    """`tf.placeholder_with_default`: `input` unless fed."""
    with name_scope(name, "PlaceholderWithDefault", [input]) as scope:
        value = convert_to_tensor(input, name="input")
        return apply_op1("PlaceholderWithDefault", [value], {"shape": as_shape(shape)},
                         name=scope)


def sparse_placeholder(dtype: Any, shape: Any = None, name: Optional[str] = None
                       ) -> SparseTensor:
    """`tf.sparse_placeholder`: a SparseTensor of placeholders, fed as a whole."""
    shape_name = name + "/shape" if name is not None else None
    default_name = name + "/shape_default" if name is not None else None
    if shape is None:
        rank = None
        dense_shape = placeholder(D.int64, shape=[rank], name=shape_name)
        default = constant_value_as_shape(dense_shape)
    else:
        if isinstance(shape, Tensor):
            rank = shape.shape.as_list()[0]
            default = constant_value_as_shape(shape)
        else:
            rank = len(shape)
            default = TensorShape([None if d == -1 else d for d in shape])
            dims = tuple(dimension_value(d) for d in shape)
            shape = convert_to_tensor(tuple(-1 if d is None else d for d in dims),
                                      dtype=D.int64, name=default_name)
        dense_shape = placeholder_with_default(shape, shape=shape.shape, name=shape_name)
    result = SparseTensor(
        values=placeholder(dtype, shape=[None], name=name + "/values" if name else None),
        indices=placeholder(D.int64, shape=[None, rank],
                            name=name + "/indices" if name else None),
        dense_shape=dense_shape)
    result._dense_shape_default = default
    return result


def identity(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002 - TF's name
    """`tf.identity`."""
    if hasattr(input, "_as_graph_element") and hasattr(input, "read_value") and \
            getattr(input, "_is_resource_variable", False):
        return input.read_value()
    return apply_op1("Identity", [input], name=name)


def identity_n(input: Sequence[Any], name: Optional[str] = None) -> List[Tensor]:  # noqa: A002
    return apply_op("IdentityN", [list(input)], name=name).outputs


def stop_gradient(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    """`tf.stop_gradient`: identity whose gradient is None."""
    return apply_op1("StopGradient", [input], name=name)


def prevent_gradient(input: Any, message: str = "", name: Optional[str] = None) -> Tensor:  # noqa: A002
    return apply_op1("PreventGradient", [input], {"message": message}, name=name)


# -- shape queries ---------------------------------------------------------------------------

def _dims(x: Any) -> tuple:
    """A run-time value's dimensions: a string scalar may be plain `bytes` (a fed or
    dequeued record), whose shape is ()."""
    return tuple(x.shape) if hasattr(x, "shape") else np.shape(x)


def _shape_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    out = node.attrs["out_type"].torch_dtype
    device = kctx.device
    cache: dict = {}

    def shape_of(x: Any) -> torch.Tensor:
        s = _dims(x)
        t = cache.get(s)
        if t is None:
            t = cache[s] = torch.tensor(s, dtype=out, device=device)
        return t
    return shape_of


def _shape_static_value(t: Tensor) -> Optional[np.ndarray]:
    s = t.op.inputs[0].shape
    if s.is_fully_defined():
        return np.array(s.as_list(), dtype=t.op.attrs["out_type"].as_numpy_dtype)
    return None


def _shape_shape_value(t: Tensor) -> TensorShape:
    return t.op.inputs[0].shape


declare("Shape", inputs=["input: T"], outputs=["output: out_type"],
        attrs={"T": Type(), "out_type": Type(D.INDEX_TYPES, default=D.int32)},
        shape=lambda ctx: [TensorShape([ctx.shape(0).rank])], kernel=_shape_kernel,
        grad="none", view=True, static_value=_shape_static_value, shape_value=_shape_shape_value)


def _shape_n_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    out = node.attrs["out_type"].torch_dtype
    return lambda *xs: tuple(torch.tensor(_dims(x), dtype=out, device=kctx.device)
                             for x in xs)


def _shape_n_static_value(t: Tensor) -> Optional[np.ndarray]:
    s = t.op.inputs[t.value_index].shape
    if s.is_fully_defined():
        return np.array(s.as_list(), dtype=t.op.attrs["out_type"].as_numpy_dtype)
    return None


declare("ShapeN", inputs=["input: N * T"], outputs=["output: N * out_type"],
        attrs={"N": Int(1), "T": Type(), "out_type": Type(D.INDEX_TYPES, default=D.int32)},
        shape=lambda ctx: [TensorShape([s.rank]) for s in ctx.shapes],
        kernel=_shape_n_kernel, grad="none", static_value=_shape_n_static_value)

def _size_static_value(t: Tensor) -> Optional[np.ndarray]:
    s = t.op.inputs[0].shape
    if s.is_fully_defined():
        return np.array(s.num_elements(), dtype=t.op.attrs["out_type"].as_numpy_dtype)
    return None


declare("Size", inputs=["input: T"], outputs=["output: out_type"],
        attrs={"T": Type(), "out_type": Type(D.INDEX_TYPES, default=D.int32)},
        shape=lambda ctx: [TensorShape([])], grad="none",
        kernel=lambda node, kctx: (lambda x: torch.tensor(
            x.numel() if isinstance(x, torch.Tensor) else int(np.prod(_dims(x))),
            dtype=node.attrs["out_type"].torch_dtype,
            device=kctx.device)), static_value=_size_static_value)

def _rank_static_value(t: Tensor) -> Optional[np.ndarray]:
    r = t.op.inputs[0].shape.rank
    return None if r is None else np.array(r, dtype=np.int32)


declare("Rank", inputs=["input: T"], outputs=["output: int32"], attrs={"T": Type()},
        shape=lambda ctx: [TensorShape([])], grad="none",
        kernel=lambda node, kctx: (lambda x: torch.tensor(
            len(_dims(x)), dtype=torch.int32, device=kctx.device)),
        static_value=_rank_static_value)


def shape(input: Any, name: Optional[str] = None, out_type: Any = D.int32) -> Tensor:  # noqa: A002
    """`tf.shape`: a Const when the static shape is fully known, as TF does."""
    return shape_internal(input, name, optimize=True, out_type=out_type)


def shape_internal(input: Any, name: Optional[str] = None, optimize: bool = True,  # noqa: A002
                   out_type: Any = None) -> Tensor:
    """TF's shape_internal: internal callers pass no out_type and get `Shape/shape_as_tensor`."""
    with name_scope(name, "Shape", [input]) as scope:
        if _is_sparse(input):
            return cast_shape(input.dense_shape, out_type or D.int32)
        value = convert_to_tensor(input)
        if optimize and value.shape.is_fully_defined():
            if out_type is None:
                return convert_to_tensor(value.shape)
            return constant(value.shape.as_list(), D.as_dtype(out_type), name=scope)
        return apply_op1("Shape", [value], {"out_type": D.as_dtype(out_type or D.int32)},
                         name=scope)


def cast_shape(value: Any, out_type: Any) -> Tensor:
    from tf1compat.ops.math_ops import cast
    return cast(value, out_type)


def _is_sparse(x: Any) -> bool:
    return hasattr(x, "indices") and hasattr(x, "dense_shape") and hasattr(x, "values") and \
        not isinstance(x, Tensor)


def shape_n(input: Sequence[Any], out_type: Any = D.int32, name: Optional[str] = None  # noqa: A002
            ) -> List[Tensor]:
    return apply_op("ShapeN", [list(input)], {"out_type": D.as_dtype(out_type)},
                    name=name).outputs


def size(input: Any, name: Optional[str] = None, out_type: Any = D.int32) -> Tensor:  # noqa: A002
    """`tf.size`: a Const when the static shape is fully known."""
    with name_scope(name, "Size", [input]) as scope:
        value = convert_to_tensor(input)
        if value.shape.is_fully_defined():
            return constant(value.shape.num_elements(), D.as_dtype(out_type), name=scope)
        return apply_op1("Size", [value], {"out_type": D.as_dtype(out_type)}, name=scope)


def rank(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    """`tf.rank`: a Const when the rank is known."""
    with name_scope(name, "Rank", [input]) as scope:
        value = convert_to_tensor(input)
        if value.shape.rank is not None:
            return constant(value.shape.rank, D.int32, name=scope)
        return apply_op1("Rank", [value], name=scope)


# -- reshape, expand_dims, squeeze ---------------------------------------------------------------


def _check_reshape(x: Any, dims: List[int]) -> List[int]:
    """The shape TF's Reshape kernel gives `x` for `dims`, or its InvalidArgumentError."""
    from tf1compat.framework import errors
    if dims.count(-1) > 1:
        first = dims.index(-1)
        raise errors.InvalidArgumentError(
            None, None, f"Only one input size may be -1, not both {first} and "
                        f"{dims.index(-1, first + 1)}")
    for i, d in enumerate(dims):
        if d < -1:
            raise errors.InvalidArgumentError(
                None, None, f"Size {i} must be non-negative, not {d}")
    # math.prod: np.prod of a torch.Size costs microseconds on this hot path.
    n = math.prod(x.shape)
    if -1 not in dims:
        if n != math.prod(dims):
            raise errors.InvalidArgumentError(
                None, None, f"Input to reshape is a tensor with {n} values, but the requested "
                            f"shape has {math.prod(dims)}")
        return dims
    # TF leaves zero sizes out of both products when the target has one, so the -1 still
    # comes out of the other sizes: [0, 2, 0, 0] -> [-1, 2, 0, 0] is [1, 2, 0, 0].
    has_zero = 0 in dims
    product = math.prod([d for d in dims if d > 0])
    elements = math.prod([d for d in x.shape if d > 0 or not has_zero])
    missing = elements // product
    if not (has_zero and 0 in x.shape) and product * missing != elements:
        raise errors.InvalidArgumentError(
            None, None, f"Input to reshape is a tensor with {elements} values, but the "
                        f"requested shape requires a multiple of {product}")
    out = [missing if d == -1 else d for d in dims]
    if math.prod(out) != n:
        raise errors.InvalidArgumentError(
            None, None, f"Input to reshape is a tensor with {n} values, but the requested "
                        f"shape has {math.prod(out)}")
    return out


def _own_shape_kernel(string: bool, spec: List[Any]) -> Callable[..., Any]:
    """Reshape to `spec` (runtime/plan_rewrites.py: per target dimension a constant or
    ("dim", i), input 0's own dimension i), checked as the general kernel checks."""
    picks = [(k, item[1]) for k, item in enumerate(spec) if isinstance(item, tuple)]
    template = [0 if isinstance(item, tuple) else item for item in spec]
    # Without a -1, and each dimension read once, the count matches when the constants'
    # product is that of the dimensions not read; otherwise `_check_reshape` decides.
    picked = {i for _, i in picks}
    constants = math.prod(template[k] for k in range(len(spec)) if k not in dict(picks))
    plain = -1 not in template and len(picked) == len(picks)

    def reshape(x: Any, _shape: Any) -> Any:
        dims = list(template)
        shape = x.shape
        for k, i in picks:
            dims[k] = shape[i]
        if not plain or constants != math.prod(
                d for i, d in enumerate(shape) if i not in picked):
            dims = _check_reshape(x, dims)
        return np.reshape(x, dims) if string else x.reshape(dims)
    return reshape


def _reshape_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    string = node.attrs["T"] == D.string
    own_shape = getattr(kctx, "own_shape", None)
    if own_shape is not None:
        return _own_shape_kernel(string, own_shape)
    dims = static_ints(node, 1)
    if dims is not None and (dims.count(-1) > 1 or -1 in dims and 0 in dims
                             or min(dims, default=0) < -1):
        # Torch cannot infer a -1 beside a zero size; TF's rule does (and raises the rest).
        if string:
            return lambda x, s: np.reshape(x, _check_reshape(x, dims))
        return lambda x, s: x.reshape(_check_reshape(x, dims))
    if dims is not None:
        target = tuple(dims)
        if string:
            return lambda x, s: np.reshape(x, target)
        return lambda x, s: x.reshape(target)
    # The last shape tensor read, its version (in-place writes bump it) and its ints: a
    # shape the plan folded to a constant (tf.shape(x)[0] of a static shape, as every
    # feature column builds) is the same tensor on every run, read only once.
    last: List[Any] = [(None, -1, [])]

    def dynamic(x: Any, s: Any) -> Any:
        if isinstance(s, list):
            # A shape a compiled plan baked in (runtime/compiled_steps.py): no cache,
            # whose update torch.compile would guard on.
            return x.reshape(_check_reshape(x, s))
        shape, version, target = last[0]
        if s is not shape or not isinstance(s, torch.Tensor) or s._version != version:
            target = as_int_list(s)
            last[0] = (s, s._version if isinstance(s, torch.Tensor) else -1, target)
        out = _check_reshape(x, target)
        return np.reshape(x, out) if string else x.reshape(out)
    return dynamic


declare("Reshape", inputs=["tensor: T", "shape: Tshape"], outputs=["output: T"],
        attrs={"T": Type(), "Tshape": Type(D.INDEX_TYPES, default=D.int32)},
        shape=reshape_shape, kernel=_reshape_kernel, view=True, grad_names=names("Reshape", None),
        kernel_error=reshape_error)


def reshape(tensor: Any, shape: Any, name: Optional[str] = None) -> Tensor:
    """`tf.reshape`: -1 infers one dimension; shapes may be dynamic tensors."""
    return apply_op1("Reshape", [tensor, shape], name=name)



def _expand_dims_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    axis = static_ints(node, 1)

    def run(x: Any, a: Any) -> Any:
        k = axis[0] if axis is not None else as_int_list(a)[0]
        if isinstance(x, bytes):  # a scalar string value
            x = np.array(x, dtype=object)
        if isinstance(x, np.ndarray):
            return np.expand_dims(x, k)
        return x.unsqueeze(k)
    if axis is not None and node.attrs["T"] != D.string:
        k0 = axis[0]
        return lambda x, a: x.unsqueeze(k0)
    return run


def _expand_dims_static_value(t: Tensor) -> Optional[np.ndarray]:
    # TF's C++ shape inference evaluates this one too (gradients of gathers rely on it).
    value, axis = constant_value(t.op.inputs[0]), constant_value(t.op.inputs[1])
    if value is None or axis is None:
        return None
    return np.expand_dims(value, int(np.asarray(axis).reshape(-1)[0]))


declare("ExpandDims", inputs=["input: T", "dim: Tdim"], outputs=["output: T"],
        attrs={"T": Type(), "Tdim": Type(D.INDEX_TYPES, default=D.int32)},
        shape=expand_dims_shape, kernel=_expand_dims_kernel, view=True,
        grad_names=names("Reshape", None), static_value=_expand_dims_static_value)


def expand_dims(input: Any, axis: Any = None, name: Optional[str] = None,  # noqa: A002
                dim: Any = None) -> Tensor:
    """`tf.expand_dims` (TF1 also accepts the deprecated `dim`)."""
    axis = deprecated_argument_lookup("axis", axis, "dim", dim)
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    return apply_op1("ExpandDims", [input, axis], name=name)



def _squeeze_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    axes = list(node.attrs["squeeze_dims"])
    if node.attrs["T"] == D.string:
        return lambda x: np.squeeze(x, axis=tuple(axes) if axes else None)
    if not axes:
        return lambda x: x.reshape([d for d in x.shape if d != 1])
    def squeeze(x: torch.Tensor) -> torch.Tensor:
        r = x.dim()
        for a in axes:
            if x.shape[a % r] != 1:
                from tf1compat.framework import errors
                raise errors.InvalidArgumentError(
                    None, None, f"Can not squeeze dim[{a % r}], expected a dimension of 1, "
                                f"got {x.shape[a % r]}")
        keep = [d for i, d in enumerate(x.shape) if i not in {a % r for a in axes}]
        return x.reshape(keep)
    return squeeze


declare("Squeeze", inputs=["input: T"], outputs=["output: T"],
        attrs={"T": Type(), "squeeze_dims": []},
        shape=squeeze_shape, kernel=_squeeze_kernel, view=True, grad_names=names("Reshape"))


def squeeze(input: Any, axis: Any = None, name: Optional[str] = None,  # noqa: A002
            squeeze_dims: Any = None) -> Tensor:
    """`tf.squeeze` (TF1 also accepts the deprecated `squeeze_dims`)."""
    # (`axis` itself is left as given: a Keras op layer records the argument it was passed)
    dims = deprecated_argument_lookup("axis", axis, "squeeze_dims", squeeze_dims)
    if np.isscalar(dims):
        dims = [dims]
    return apply_op1("Squeeze", [input], {"squeeze_dims": [int(a) for a in (dims or [])]},
                     name=name)


# -- concat, stack, unstack, split --------------------------------------------------------------


def _concat_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    axis = static_ints(node, len(node.inputs) - 1)
    if node.attrs["T"] == D.string:
        return lambda *xs: np.concatenate(xs[:-1], axis=as_int_list(xs[-1])[0])
    if axis is not None:
        a = axis[0]
        return lambda *xs: torch.cat(xs[:-1], dim=a)
    return lambda *xs: torch.cat(xs[:-1], dim=as_int_list(xs[-1])[0])


def _concat_grad_names(op: Any) -> List[Any]:
    return [f"Slice_{i}" if i else "Slice" for i in range(len(op.inputs) - 1)] + [None]


def _concat_v2_static_value(t: Tensor) -> Optional[np.ndarray]:
    vals = [constant_value(i) for i in t.op.inputs]
    if any(v is None for v in vals):
        return None
    return np.concatenate(vals[:-1], axis=int(vals[-1]))


def _concat_shape_value(t: Tensor) -> TensorShape:
    result = TensorShape([])
    for inp in t.op.inputs[:-1]:
        result = result.concatenate(constant_value_as_shape(inp))
    return result


declare("ConcatV2", inputs=["values: N * T", "axis: Tidx"], outputs=["output: T"],
        attrs={"N": Int(2), "T": Type(), "Tidx": Type(D.INDEX_TYPES, default=D.int32)},
        shape=concat_shape, kernel=_concat_kernel, grad_names=_concat_grad_names,
        static_value=_concat_v2_static_value, shape_value=_concat_shape_value,
        kernel_error=concat_error)


def concat(values: Any, axis: Any, name: str = "concat") -> Tensor:
    """`tf.concat`; a single value becomes an Identity, as TF."""
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        with name_scope(name):
            axis_t = convert_to_tensor(axis, name="concat_dim", dtype=D.int32)
            axis_t.shape.assert_has_rank(0)
            return identity(values[0], name=name)
    return apply_op1("ConcatV2", [list(values), axis], name=name)



def _pack_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    axis = node.attrs["axis"]
    if node.attrs["T"] in (D.string, D.resource):
        # Strings, and resource handles (run-time objects: QueueBase.from_list stacks
        # queues), are numpy object arrays.
        return lambda *xs: np.stack([_object_array(x) for x in xs], axis=axis)
    return lambda *xs: torch.stack(xs, dim=axis)


def _object_array(value: Any) -> np.ndarray:
    if isinstance(value, np.ndarray):
        return value
    out = np.empty((), dtype=object)
    out[()] = value
    return out


def _pack_grad_names(op: Any) -> List[Any]:
    return [f"unstack:{i}" for i in range(len(op.inputs))]


def _pack_static_value(t: Tensor) -> Optional[np.ndarray]:
    vals = [constant_value(i) for i in t.op.inputs]
    if any(v is None for v in vals):
        return None
    return np.stack(vals, axis=t.op.attrs["axis"]).astype(t.dtype.as_numpy_dtype)


def _pack_shape_value(t: Tensor) -> TensorShape:
    dims = []
    for inp in t.op.inputs:
        v = constant_value(inp)
        dims.append(None if v is None or int(v) < 0 else int(v))
    return TensorShape(dims)


declare("Pack", inputs=["values: N * T"], outputs=["output: T"],
        attrs={"N": Int(1), "T": Type(), "axis": 0},
        shape=pack_shape, kernel=_pack_kernel, grad_names=_pack_grad_names,
        static_value=_pack_static_value, shape_value=_pack_shape_value, kernel_error=pack_error)


def stack(values: Sequence[Any], axis: int = 0, name: str = "stack") -> Tensor:
    """`tf.stack` (a constant list becomes one Const, as TF)."""
    if axis == 0:
        try:
            return convert_to_tensor(values, name=name)
        except (TypeError, ValueError, NotImplementedError):
            pass
    value_shape = convert_to_tensor(values[0], name=name).shape
    if value_shape.rank is not None:
        expanded = value_shape.rank + 1
        if axis < -expanded or axis >= expanded:
            raise ValueError(f"Argument `axis` = {axis} not in range [{-expanded}, {expanded})")
    return apply_op1("Pack", [list(values)], {"axis": axis}, name=name)


def _autopacking_conversion(value: Any, dtype: Any = None, name: Optional[str] = None,
                            as_ref: bool = False) -> Any:
    """Lists that contain tensors convert by packing, as TF's autopacking."""
    if dtype is not None:
        dtype = D.as_dtype(dtype)
    if not _contains_tensor(value):
        return NotImplemented
    return _autopack(value, dtype, name or "packed")


def _contains_tensor(value: Any) -> bool:
    if isinstance(value, Tensor) or hasattr(value, "_as_graph_element") and \
            not isinstance(value, (list, tuple)):
        return True
    if isinstance(value, (list, tuple)):
        return any(_contains_tensor(v) for v in value)
    return False


def _autopack(items: Sequence[Any], dtype: Optional[D.DType], name: str) -> Tensor:
    inferred = dtype
    if inferred is None:
        for item in _flat(items):
            if isinstance(item, Tensor) or hasattr(item, "dtype") and \
                    hasattr(item, "_as_graph_element"):
                inferred = item.dtype.base_dtype
                break
    with name_scope(name) as scope:
        elems = []
        for i, elem in enumerate(items):
            if isinstance(elem, (list, tuple)):
                elems.append(_autopack(elem, inferred, str(i)) if _contains_tensor(elem)
                             else constant(elem, dtype=inferred, name=str(i)))
            elif isinstance(elem, Tensor) or hasattr(elem, "_as_graph_element"):
                t = convert_to_tensor(elem)
                if inferred is not None and t.dtype.base_dtype != inferred:
                    raise TypeError(f"Cannot convert a list containing a tensor of dtype "
                                    f"{t.dtype.base_dtype} to {inferred} (Tensor is: {t!r})")
                elems.append(t)
            else:
                elems.append(constant(elem, dtype=inferred, name=str(i)))
        return apply_op1("Pack", [elems], {"axis": 0}, name=scope)


def _flat(items: Any) -> Any:
    for item in items:
        if isinstance(item, (list, tuple)):
            yield from _flat(item)
        else:
            yield item


register_tensor_conversion_function((list, tuple), _autopacking_conversion, 99)



def _unpack_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    axis = node.attrs["axis"]
    if node.attrs["T"] == D.string:
        unpack = lambda x: tuple(np.moveaxis(x, axis, 0))  # noqa: E731
    else:
        unpack = lambda x: torch.unbind(x, dim=axis)  # noqa: E731
    if node.attrs["num"] == 1:
        # A single-output op's kernel returns the value itself, not a 1-tuple.
        return lambda x: unpack(x)[0]
    return unpack


declare("Unpack", inputs=["value: T"], outputs=["output: num * T"],
        attrs={"num": Int(0), "T": Type(), "axis": 0},
        shape=unpack_shape, kernel=_unpack_kernel, view=True, grad_names=names("stack"))


def unstack(value: Any, num: Optional[int] = None, axis: int = 0,
            name: str = "unstack") -> List[Tensor]:
    """`tf.unstack`: `num` must be inferable from the static shape when not given."""
    with name_scope(name, "unstack", [value]) as scope:
        value = convert_to_tensor(value)
        if num is None:
            s = value.shape
            if s.rank is None:
                raise ValueError(f"Cannot infer argument `num` from shape {s}")
            if axis < -s.rank or axis >= s.rank:
                raise ValueError(f"Argument `axis` = {axis} not in range [{-s.rank}, {s.rank})")
            num = s.as_list()[axis]
            if num is None:
                raise ValueError(f"Cannot infer argument `num` from shape {s}")
        return apply_op("Unpack", [value], {"num": num, "axis": axis}, name=scope).outputs



def _split_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    n = node.attrs["num_split"]
    axis = static_ints(node, 0)

    def split(a: Any, x: Any) -> Any:
        k = axis[0] if axis is not None else as_int_list(a)[0]
        if isinstance(x, np.ndarray):
            return tuple(np.split(x, n, axis=k))
        if x.shape[k] % n:
            from tf1compat.framework import errors
            raise errors.InvalidArgumentError(
                None, None, f"Number of ways to split should evenly divide the split "
                            f"dimension, but got split_dim {k} (size = {x.shape[k]}) and "
                            f"num_split {n}")
        return torch.chunk(x, n, dim=k)
    return split


declare("Split", inputs=["split_dim: int32", "value: T"], outputs=["output: num_split * T"],
        attrs={"num_split": Int(1), "T": Type()},
        shape=split_shape, kernel=_split_kernel, view=True, grad_names=names(None, "concat"))



def _split_v_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def split(x: Any, sizes: Any, a: Any) -> Any:
        k = as_int_list(a)[0]
        sz = as_int_list(sizes)
        if -1 in sz:
            sz[sz.index(-1)] = x.shape[k] - sum(v for v in sz if v != -1)
        if isinstance(x, np.ndarray):
            return tuple(np.split(x, np.cumsum(sz)[:-1], axis=k))
        return torch.split(x, sz, dim=k)
    return split


declare("SplitV", inputs=["value: T", "size_splits: Tlen", "split_dim: int32"],
        outputs=["output: num_split * T"],
        attrs={"num_split": Int(1), "T": Type(),
               "Tlen": Type(D.INDEX_TYPES + (D.int8,), default=D.int64)},
        shape=split_v_shape, kernel=_split_v_kernel, view=True,
        grad_names=names("concat", None, None))


def split(value: Any, num_or_size_splits: Any, axis: Any = 0, num: Optional[int] = None,
          name: str = "split") -> List[Tensor]:
    """`tf.split`: an int (or static Dimension) splits evenly (Split), a list gives sizes
    (SplitV). Always a list, also of one tensor."""
    if isinstance(num_or_size_splits, Dimension):
        if num_or_size_splits.value is None:
            raise TypeError(f"Expected int for argument 'num_split' not "
                            f"{num_or_size_splits!r}.")
        num_or_size_splits = num_or_size_splits.value
    if isinstance(num_or_size_splits, (int, np.integer)) and \
            not isinstance(num_or_size_splits, bool):
        return apply_op("Split", [axis, value], {"num_split": int(num_or_size_splits)},
                        name=name).outputs
    size_splits = convert_to_tensor(num_or_size_splits) if not isinstance(
        num_or_size_splits, Tensor) else num_or_size_splits
    if num is None:
        s = size_splits.shape
        if s.rank is None or s.as_list()[0] is None:
            raise ValueError(f"Cannot infer argument `num` from shape {s}")
        num = s.as_list()[0]
    return apply_op("SplitV", [value, size_splits, axis], {"num_split": num},
                    name=name).outputs

# tf.concat / stack / expand_dims / size / rank / squeeze given RaggedTensors: handlers in
# tf1compat/ragged/ragged_concat.py and ragged_array.py.
dispatch.add_dispatch_support(globals(), "concat", ("concat",))
dispatch.add_dispatch_support(globals(), "stack", ("stack",))
for _name in ("expand_dims", "size", "rank", "squeeze"):
    dispatch.add_dispatch_support(globals(), _name, (_name,))
