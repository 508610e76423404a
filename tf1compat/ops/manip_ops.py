"""Array manipulation long tail: `tf.roll` (Roll), `tf.repeat`, `tf.meshgrid`,
`tf.parallel_stack` (ParallelConcat), `tf.bitcast`, `tf.ensure_shape`, `tf.guarantee_const`,
`tf.diag` (Diag) and the `tf.tensor_scatter_*` family (TensorScatterUpdate/Add/Sub/Max/Min)."""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Int, Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape, unknown_shape
from tf1compat.ops._kernels import as_int_list
from tf1compat.ops._shape_rules import merge_shapes, node_desc

__all__ = ["roll", "repeat", "meshgrid", "parallel_stack", "bitcast", "ensure_shape", "diag",
           "guarantee_const",
           "tensor_scatter_nd_update", "tensor_scatter_nd_add", "tensor_scatter_nd_sub",
           "tensor_scatter_nd_max", "tensor_scatter_nd_min"]

INDEX = (D.int32, D.int64)


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _dims_text(dims: Sequence[Any]) -> str:
    return "[" + ",".join("?" if d is None else str(int(d)) for d in dims) + "]"


# -- Roll ----------------------------------------------------------------------------------

def _roll_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    if s.rank is not None and s.rank < 1:
        raise ValueError(f"Shape must be at least rank 1 but is rank 0 {node_desc(ctx)}")
    shift, axis = ctx.shape(1), ctx.shape(2)
    for t in (shift, axis):
        if t.rank is not None and t.rank > 1:
            raise ValueError(f"Shape must be at most rank 1 but is rank {t.rank} "
                             f"{node_desc(ctx)}")
    if shift.rank == 1 and axis.rank == 1:
        merge_shapes(shift, axis, ctx)
    return [s]


def _roll_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def roll(x: Any, shift: Any, axis: Any) -> Any:
        shifts, axes = as_int_list(shift), as_int_list(axis)
        if len(shifts) != len(axes):
            raise _invalid("shift and axis must have the same size")
        rank = len(x.shape)
        total = [0] * rank
        for s, a in zip(shifts, axes):
            if not -rank <= a < rank:
                raise _invalid(f"axis {a} is out of range")
            total[a % rank] += s           # repeated axes accumulate, as TF
        dims = [i for i, s in enumerate(total) if s]
        amounts = [total[i] for i in dims]
        if not dims:
            return x
        if isinstance(x, np.ndarray):
            return np.roll(x, amounts, dims)
        return torch.roll(x, amounts, dims)
    return roll


declare("Roll", inputs=["input: T", "shift: Tshift", "axis: Taxis"], outputs=["output: T"],
        attrs={"T": Type(), "Tshift": Type(INDEX), "Taxis": Type(INDEX)},
        shape=_roll_shape, kernel=_roll_kernel)


def roll(input: Any, shift: Any, axis: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    """`tf.roll` / `tf.manip.roll`: elements shifted cyclically along `axis`."""
    return apply_op1("Roll", [input, shift, axis], name=name)


# -- repeat (TF's graph: tile + sequence_mask + boolean_mask) ----------------------------------

def _with_nonzero_rank(data: Tensor) -> Tensor:
    from tf1compat.ops.array_ops import concat, rank, reshape, shape, stack
    if data.shape.rank is not None:
        return stack([data]) if data.shape.rank == 0 else data
    data_shape, data_ndims = shape(data), rank(data)
    return reshape(data, concat([[1], data_shape], axis=0)[-data_ndims:])


def _tile_one_dimension(data: Tensor, axis: int, multiple: Any) -> Tensor:
    from tf1compat.ops.transform_ops import tile
    multiples = [1] * data.shape.rank
    multiples[axis] = multiple
    return tile(data, multiples)


def _repeat_with_axis(data: Any, repeats: Any, axis: int) -> Tensor:
    from tf1compat.ops.array_ops import concat, expand_dims, reshape, shape
    from tf1compat.ops.indexing_ops import boolean_mask, sequence_mask
    from tf1compat.ops.math_ops import cast, maximum
    from tf1compat.ops.reduction_ops import reduce_max, reduce_sum
    from tf1compat.ops.transform_ops import broadcast_to
    if not isinstance(axis, int):
        raise TypeError("Argument `axis` must be an int. "
                        f"Received `axis` = {axis} of type {type(axis).__name__}")
    data = convert_to_tensor(data, name="data")
    repeats = convert_to_tensor(repeats, name="repeats")
    if not repeats.dtype.is_integer:
        raise TypeError(f"Argument `repeats` must be an integer tensor, got {repeats.dtype}")
    repeats = cast(repeats, D.int32)
    if repeats.shape.rank is not None and repeats.shape.rank > 1:
        raise ValueError(f"Shape {repeats.shape} must have rank at most 1")
    data = _with_nonzero_rank(data)
    if data.shape.rank is None:
        raise NotImplementedError("tf.repeat of a tensor of unknown rank is not supported "
                                  "by tf1compat")
    data_shape = shape(data, out_type=repeats.dtype)
    rank = data.shape.rank
    if not -rank <= axis < rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
    axis %= rank
    if repeats.shape.num_elements() == 1:
        repeats = reshape(repeats, [])
        tiled = _tile_one_dimension(expand_dims(data, axis + 1), axis + 1, repeats)
        result_shape = concat([data_shape[:axis], [repeats * data_shape[axis]],
                               data_shape[axis + 1:]], axis=0)
        return reshape(tiled, result_shape)
    if repeats.shape.rank == 1:
        data.shape.dims[axis].assert_is_compatible_with(repeats.shape[0])
    repeats = broadcast_to(repeats, [data_shape[axis]])
    repeats_original = repeats
    if axis > 0:
        # One row of repeats per leading index, so the mask lines up with the tiled data.
        repeats = broadcast_to(repeats, concat([data_shape[:axis], shape(repeats)], axis=0))
        repeats.set_shape([None] * (axis + 1))
    max_repeat = maximum(convert_to_tensor(0, name="zero", dtype=repeats.dtype),
                         reduce_max(repeats))
    mask = sequence_mask(repeats, max_repeat)
    tiled = _tile_one_dimension(expand_dims(data, axis + 1), axis + 1, max_repeat)
    masked = boolean_mask(tiled, mask)
    if axis == 0:
        result = masked
    else:
        repeated = reduce_sum(repeats_original, [0])
        result = reshape(masked, concat([data_shape[:axis], [repeated],
                                         data_shape[axis + 1:]], axis=0))
    new_axis = 0 if repeats.shape[0] == 0 else None
    result.set_shape(data.shape[:axis].concatenate([new_axis]).concatenate(
        data.shape[axis + 1:]))
    return result


def repeat(input: Any, repeats: Any, axis: Optional[int] = None,  # noqa: A002 - TF's name
           name: Optional[str] = None) -> Tensor:
    """`tf.repeat`: each element (or slice along `axis`) repeated `repeats` times;
    with no axis the input is flattened first."""
    from tf1compat.ops.array_ops import reshape
    if axis is None:
        input = reshape(input, [-1])
        axis = 0
    with name_scope(name, "Repeat", [input, repeats]):
        return _repeat_with_axis(input, repeats, axis)


# -- meshgrid, parallel_stack ----------------------------------------------------------------

def meshgrid(*args: Any, **kwargs: Any) -> List[Tensor]:
    """`tf.meshgrid(x, y, ..., indexing="xy", name="meshgrid")`: coordinate grids."""
    from tf1compat.ops.array_ops import reshape, size, stack
    from tf1compat.ops.creation_ops import ones
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        key = list(kwargs.keys())[0]
        raise TypeError(f"'{key}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError("Argument `indexing` parameter must be either 'xy' or 'ij', got "
                         f"'{indexing}'")
    with name_scope(name, "meshgrid", args):
        ndim = len(args)
        if not ndim:
            return []
        ones_shape = (1,) * ndim
        output = [reshape(stack(x), ones_shape[:i] + (-1,) + ones_shape[i + 1:])
                  for i, x in enumerate(args)]
        shapes = [size(x) for x in args]
        dtype = convert_to_tensor(args[0]).dtype.base_dtype
        if indexing == "xy" and ndim > 1:
            output[0] = reshape(output[0], (1, -1) + (1,) * (ndim - 2))
            output[1] = reshape(output[1], (-1, 1) + (1,) * (ndim - 2))
            shapes[0], shapes[1] = shapes[1], shapes[0]
        mult_fact = ones(shapes, dtype)
        return [x * mult_fact for x in output]


def _parallel_concat_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def parallel_concat(*values: Any) -> Any:
        if isinstance(values[0], np.ndarray):
            return np.concatenate(values, axis=0)
        return torch.cat(values, dim=0)
    return parallel_concat


def _parallel_concat_shape(ctx: Any) -> List[TensorShape]:
    out = as_shape(ctx.attr("shape"))
    for s in ctx.shapes:
        if s.rank is not None and out.rank is not None:
            if s.rank != out.rank or (s.as_list()[0] not in (None, 1)):
                raise ValueError(f"Shapes must be equal rank, but are {s.rank} and "
                                 f"{out.rank} {node_desc(ctx)}")
            merge_shapes(TensorShape(s.as_list()[1:]), TensorShape(out.as_list()[1:]), ctx)
    return [out]


declare("ParallelConcat", inputs=["values: N * T"], outputs=["output: T"],
        attrs={"N": Int(minimum=1), "T": Type(), "shape": TensorShape(None)},
        shape=_parallel_concat_shape, kernel=_parallel_concat_kernel, grad="unregistered")


def parallel_stack(values: Sequence[Any], name: str = "parallel_stack") -> Tensor:
    """`tf.parallel_stack`: `tf.stack` along a new first axis, as one ParallelConcat
    (the inputs' shapes must be fully known at graph build)."""
    from tf1compat.ops.array_ops import expand_dims
    with name_scope(name):
        first = convert_to_tensor(values[0])
        value_shape = first.shape
        if not value_shape.is_fully_defined():
            raise ValueError("Cannot infer the shape of the output of parallel_stack "
                             f"from an input of unknown shape {value_shape}")
        output_shape = TensorShape([len(values)]).concatenate(value_shape)
        expanded = [expand_dims(v, 0) for v in values]
        return apply_op1("ParallelConcat", [expanded], {"shape": output_shape})


# -- Bitcast ----------------------------------------------------------------------------------

_BITCAST_TYPES = (D.bfloat16, D.float16, D.float32, D.float64, D.int64, D.int32, D.uint8,
                  D.uint16, D.uint32, D.uint64, D.int8, D.int16, D.complex64, D.complex128)


def _bitcast_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    src, dst = ctx.dtype(0).size, D.as_dtype(ctx.attr("type")).size
    if s.rank is None or src == dst:
        return [s]
    if src > dst:
        return [s.concatenate([src // dst])]
    dims = s.as_list()
    if not dims:
        raise ValueError(f"Cannot bitcast from {src} to {dst} due to shape. "
                         f"{node_desc(ctx)}")
    if dims[-1] is not None and dims[-1] != dst // src:
        raise ValueError(f"Cannot bitcast from {src} to {dst} due to shape. {dims[-1]} does "
                         f"not match {dst // src} {node_desc(ctx)}")
    return [TensorShape(dims[:-1])]


def _bitcast_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    src, dst = node.attrs["T"], node.attrs["type"]
    target = dst.torch_dtype
    if src.size == dst.size:
        return lambda x: x.view(target).clone()
    if src.size > dst.size:
        return lambda x: x.contiguous().unsqueeze(-1).view(target).clone()

    def narrow_to_wide(x: torch.Tensor) -> torch.Tensor:
        if x.dim() == 0 or x.shape[-1] != dst.size // src.size:
            raise _invalid(f"Cannot bitcast from {src.size} to {dst.size}: shape "
                           f"{_dims_text(x.shape)}")
        return x.contiguous().view(target).squeeze(-1).clone()
    return narrow_to_wide


declare("Bitcast", inputs=["input: T"], outputs=["output: type"],
        attrs={"T": Type(_BITCAST_TYPES), "type": Type(_BITCAST_TYPES)},
        shape=_bitcast_shape, kernel=_bitcast_kernel, grad="unregistered")


def bitcast(input: Any, type: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    """`tf.bitcast`: the same bytes read as `type` (a last axis is added or removed
    when the element sizes differ)."""
    return apply_op1("Bitcast", [input], {"type": D.as_dtype(type)}, name=name)


# -- EnsureShape ------------------------------------------------------------------------------

def _ensure_shape_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    expected = as_shape(node.attrs["shape"])
    producer = getattr(node.inputs[0], "op", None)
    source = producer.name if producer is not None else "input"

    def ensure_shape(x: Any) -> Any:
        if not expected.is_compatible_with(TensorShape(list(x.shape))):
            raise _invalid(f"Shape of tensor {source} {_dims_text(x.shape)} is not "
                           f"compatible with expected shape {_dims_text(expected.as_list())}.")
        return x
    return ensure_shape


def _ensure_shape_rule(ctx: Any) -> List[TensorShape]:
    return [merge_shapes(ctx.shape(0), as_shape(ctx.attr("shape")), ctx)]


declare("EnsureShape", inputs=["input: T"], outputs=["output: T"],
        attrs={"shape": TensorShape(None), "T": Type()},
        shape=_ensure_shape_rule, kernel=_ensure_shape_kernel)


def ensure_shape(x: Any, shape: Any, name: Optional[str] = None) -> Tensor:
    """`tf.ensure_shape`: `x`, checked at run time to be compatible with `shape` (and
    given that static shape)."""
    if not isinstance(shape, TensorShape):
        shape = TensorShape(shape)
    return apply_op1("EnsureShape", [x], {"shape": shape}, name=name)


# -- GuaranteeConst ---------------------------------------------------------------------------

def _guarantee_const_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    is_handle = node.attrs["T"] == D.resource

    def guarantee_const(x: Any) -> Any:
        if is_handle:
            raise _invalid("Input tensor cannot be a resource variable handle.")
        return x
    return guarantee_const


declare("GuaranteeConst", inputs=["input: T"], outputs=["output: T"], attrs={"T": Type()},
        shape=lambda ctx: [ctx.shape(0)], kernel=_guarantee_const_kernel,
        grad="unregistered",  # TF registers no gradient for it
        doc="Its input, promised to TF's optimizers to be constant during the session.")


def guarantee_const(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    """`tf.guarantee_const` (deprecated in TF: "Not for public use."): `input`, marked as
    constant for the runtime (which changes nothing on torch)."""
    return apply_op1("GuaranteeConst", [input], name=name)


# -- Diag -------------------------------------------------------------------------------------

def _diag_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    if s.rank is None:
        return [unknown_shape()]
    if s.rank < 1:
        raise ValueError(f"Shape must be at least rank 1 but is rank 0 {node_desc(ctx)}")
    return [s.concatenate(s)]


def _diag_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def diag(d: torch.Tensor) -> torch.Tensor:
        n = d.numel()
        out = torch.zeros(n * n, dtype=d.dtype, device=d.device)
        out[::n + 1] = d.reshape(-1)
        return out.reshape(tuple(d.shape) * 2)
    return diag


declare("Diag", inputs=["diagonal: T"], outputs=["output: T"],
        attrs={"T": Type((D.bfloat16, D.float16, D.float32, D.float64, D.int32, D.int64,
                          D.complex64, D.complex128))},
        shape=_diag_shape, kernel=_diag_kernel)


def diag(diagonal: Any, name: Optional[str] = None) -> Tensor:
    """`tf.diag` / `tf.linalg.tensor_diag`: output[i1..ik, i1..ik] = diagonal[i1..ik]."""
    return apply_op1("Diag", [diagonal], name=name)


# -- TensorScatter* ----------------------------------------------------------------------------

def _tensor_scatter_shape(ctx: Any) -> List[TensorShape]:
    tensor, indices, updates = ctx.shape(0), ctx.shape(1), ctx.shape(2)
    if indices.rank is not None and indices.rank < 1:
        raise ValueError(f"Shape must be at least rank 1 but is rank 0 {node_desc(ctx)}")
    if tensor.rank is None or indices.rank is None or updates.rank is None:
        return [tensor]
    k = indices.as_list()[-1]
    if k is None:
        return [tensor]
    if k > tensor.rank:
        raise ValueError(f"Dimensions [{k},{tensor.rank}) of input[shape="
                         f"{_dims_text(tensor.as_list())}] = [] must match dimensions "
                         f"[{indices.rank - 1},{updates.rank}) of updates[shape="
                         f"{_dims_text(updates.as_list())}] {node_desc(ctx)}")
    expected = TensorShape(indices.as_list()[:-1] + tensor.as_list()[k:])
    if not expected.is_compatible_with(updates):
        raise ValueError(f"Dimensions [{k},{tensor.rank}) of input[shape="
                         f"{_dims_text(tensor.as_list())}] = "
                         f"{_dims_text(tensor.as_list()[k:])} must match dimensions "
                         f"[{indices.rank - 1},{updates.rank}) of updates[shape="
                         f"{_dims_text(updates.as_list())}] = "
                         f"{_dims_text(updates.as_list()[indices.rank - 1:])} "
                         f"{node_desc(ctx)}")
    return [tensor]


def _scatter_positions(tensor: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    """Flat slice numbers of `indices` (..., k) into `tensor`, range-checked as TF."""
    k = indices.shape[-1]
    dims = list(tensor.shape[:k])
    idx = indices.reshape(-1, k).long()
    limits = torch.tensor(dims, dtype=torch.long, device=idx.device)
    bad = ((idx < 0) | (idx >= limits)).any(dim=1)
    if bool(bad.any()):
        i = int(torch.nonzero(bad)[0])
        where = ", ".join(str(int(v)) for v in idx[i].tolist())
        raise _invalid(f"indices[{i}] = [{where}] does not index into shape "
                       f"{_dims_text(tensor.shape)}")
    strides = [int(np.prod(dims[j + 1:])) for j in range(k)]
    return (idx * torch.tensor(strides, dtype=torch.long, device=idx.device)).sum(dim=1)


def _tensor_scatter_kernel(mode: str) -> Callable[[Any, Any], Callable[..., Any]]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        def tensor_scatter(tensor: torch.Tensor, indices: torch.Tensor,
                           updates: torch.Tensor) -> torch.Tensor:
            if indices.dim() == 0:
                raise _invalid("Indices shape must have rank at least one.")
            k = indices.shape[-1]
            if k > tensor.dim():
                raise _invalid(f"indices.shape[-1] must be <= params.dims(); "
                               f"{k} vs. {tensor.dim()}")
            positions = _scatter_positions(tensor, indices)
            slice_shape = tuple(tensor.shape[k:])
            flat = tensor.reshape((-1,) + slice_shape)
            rows = updates.reshape((-1,) + slice_shape)
            if rows.shape[0] != positions.shape[0]:
                raise _invalid("updates must have the same number of slices as indices")
            if mode == "update":
                out = flat.index_copy(0, positions, rows)
            elif mode == "add":
                out = flat.index_add(0, positions, rows)
            elif mode == "sub":
                out = flat.index_add(0, positions, -rows)
            else:
                index = positions.reshape((-1,) + (1,) * len(slice_shape)).expand_as(rows)
                out = flat.scatter_reduce(0, index, rows, mode, include_self=True)
            return out.reshape(tensor.shape)
        return tensor_scatter
    return factory


_SCATTER_MODES = (("TensorScatterUpdate", "update", (D.int16, D.int32, D.int64, D.uint16)),
                  ("TensorScatterAdd", "add", INDEX), ("TensorScatterSub", "sub", INDEX),
                  ("TensorScatterMax", "amax", INDEX), ("TensorScatterMin", "amin", INDEX))
for _type, _mode, _index_types in _SCATTER_MODES:
    declare(_type, inputs=["tensor: T", "indices: Tindices", "updates: T"],
            outputs=["output: T"],
            attrs={"T": Type(), "Tindices": Type(_index_types), "bad_indices_policy": ""},
            shape=_tensor_scatter_shape, kernel=_tensor_scatter_kernel(_mode))


def _tensor_scatter_wrapper(op_type: str, public: str) -> Callable[..., Tensor]:
    def fn(tensor: Any, indices: Any, updates: Any, name: Optional[str] = None) -> Tensor:
        return apply_op1(op_type, [tensor, indices, updates], name=name)
    fn.__name__ = public
    fn.__doc__ = (f"`tf.{public}`: a copy of `tensor` with the slices at `indices` "
                  f"combined with `updates` ({op_type}).")
    return fn


tensor_scatter_nd_update = _tensor_scatter_wrapper("TensorScatterUpdate",
                                                   "tensor_scatter_nd_update")
tensor_scatter_nd_add = _tensor_scatter_wrapper("TensorScatterAdd", "tensor_scatter_nd_add")
tensor_scatter_nd_sub = _tensor_scatter_wrapper("TensorScatterSub", "tensor_scatter_nd_sub")
tensor_scatter_nd_max = _tensor_scatter_wrapper("TensorScatterMax", "tensor_scatter_nd_max")
tensor_scatter_nd_min = _tensor_scatter_wrapper("TensorScatterMin", "tensor_scatter_nd_min")
