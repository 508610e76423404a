"""Gather/scatter and selection: gather, gather_nd, scatter_nd, where (TF1), where_v2,
boolean_mask, sequence_mask, unique."""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_op import constant
from tf1compat.framework.constant_value import constant_value, constant_value_as_shape
from tf1compat.framework.grad_names import SPARSE, broadcast_names, names
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops import dispatch
from tf1compat.ops._kernels import any_true, static_ints
from tf1compat.ops._shape_rules import broadcast_shapes, merge_shapes, node_desc
from tf1compat.ops._kernel_errors import same_shape_error, shape_text

INDEX = (D.int16, D.int32, D.int64)


# -- gather ------------------------------------------------------------------------------------

def _gather_shape(ctx: Any) -> List[TensorShape]:
    params, indices = ctx.shape(0), ctx.shape(1)
    axis = ctx.const(2)
    batch_dims = ctx.attrs["batch_dims"]
    if params.rank is None or indices.rank is None or axis is None:
        return [unknown_shape()]
    a = int(np.asarray(axis).reshape(-1)[0])
    if a < -params.rank or a >= params.rank:
        need = a + 1 if a >= 0 else -a
        raise ValueError(f"Shape must be at least rank {need} but is rank {params.rank} "
                         f"{node_desc(ctx, computed=(2,))}")
    a %= params.rank
    if batch_dims < 0:
        batch_dims += indices.rank
    p, i = params.as_list(), indices.as_list()
    return [TensorShape(p[:a] + i[batch_dims:] + p[a + 1:])]


def _check_range(idx: torch.Tensor, n: int, what: str = "indices") -> None:
    if idx.numel() and any_true((idx < 0) | (idx >= n)):
        flat = idx.reshape(-1)
        bad = int(torch.nonzero((flat < 0) | (flat >= n))[0, 0])
        value = int(flat[bad])
        where = "" if idx.dim() == 0 else "[" + ",".join(
            str(v) for v in np.unravel_index(bad, tuple(idx.shape))) + "]"
        raise errors.InvalidArgumentError(None, None,
                                          f"{what}{where} = {value} is not in [0, {n})")


def _gather_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    axis_static = static_ints(node, 2)
    batch_dims = node.attrs["batch_dims"]
    string = node.attrs["Tparams"] in (D.string, D.resource)   # numpy object arrays

    def gather(params: Any, indices: Any, axis: Any) -> Any:
        a = axis_static[0] if axis_static is not None else int(axis)
        a %= len(params.shape)
        if 0 in params.shape[:a] or 0 in params.shape[a + 1:]:
            return _empty_gather(params, indices, a, batch_dims)
        if string:
            idx = indices.cpu().numpy() if isinstance(indices, torch.Tensor) else indices
            _check_range(torch.as_tensor(idx), params.shape[a])
            return np.take(params, idx, axis=a)
        _check_range(indices, params.shape[a])
        idx = indices.long()
        if batch_dims == 0:
            if idx.dim() == 1:
                return params.index_select(a, idx)
            out = params.index_select(a, idx.reshape(-1))
            return out.reshape(params.shape[:a] + idx.shape + params.shape[a + 1:])
        return _batched_gather(params, idx, a, batch_dims)
    return gather


def _empty_gather(params: Any, indices: Any, axis: int, batch_dims: int) -> Any:
    """A gather whose slices hold no elements: TF's kernel copies nothing and so checks no
    index either (Object Detection's placeholder masks of shape [n, q, 0, 0] are gathered
    with indices past their n)."""
    if batch_dims < 0:
        batch_dims += len(indices.shape)
    shape = (tuple(params.shape[:axis]) + tuple(indices.shape[batch_dims:])
             + tuple(params.shape[axis + 1:]))
    if isinstance(params, np.ndarray):
        return np.empty(shape, dtype=params.dtype)
    return params.new_zeros(shape)


def _batched_gather(params: torch.Tensor, idx: torch.Tensor, axis: int, batch_dims: int
                    ) -> torch.Tensor:
    if batch_dims < 0:
        batch_dims += idx.dim()
    batch_shape = params.shape[:batch_dims]
    nb = int(np.prod(batch_shape)) if batch_shape else 1
    p = params.reshape((nb,) + params.shape[batch_dims:])
    i = idx.reshape((nb,) + idx.shape[batch_dims:])
    a = axis - batch_dims + 1
    outs = [p[b].index_select(a - 1, i[b].reshape(-1)).reshape(
        p.shape[1:a] + i.shape[1:] + p.shape[a + 1:]) for b in range(nb)]
    out = torch.stack(outs)
    return out.reshape(tuple(batch_shape) + out.shape[1:])


def _gather_grad_names(op: Any) -> List[Any]:
    """TF's gather gradient: IndexedSlices along axis 0 without batch dims."""
    axis = constant_value(op.inputs[2])
    if axis is not None and int(axis) == 0 and not op.attrs.get("batch_dims", 0):
        return [SPARSE, None, None]
    return ["Reshape_2", None, None]


declare("GatherV2", inputs=["params: Tparams", "indices: Tindices", "axis: Taxis"],
        outputs=["output: Tparams"],
        attrs={"batch_dims": 0, "Tparams": Type(), "Tindices": Type(INDEX),
               "Taxis": Type((D.int32, D.int64), default=D.int32)},
        shape=_gather_shape, kernel=_gather_kernel,
        grad_names=_gather_grad_names, grad_indexed_slices=True)


def gather(params: Any, indices: Any, validate_indices: Any = None, name: Optional[str] = None,
           axis: Any = None, batch_dims: int = 0) -> Tensor:
    """`tf.gather` (GatherV2); out-of-range indices are InvalidArgumentError at run time."""
    if axis is None:
        axis = batch_dims
    # TF's tensor_util.constant_value returns a Python axis as it is; tf1compat's gives
    # None for anything but a tensor.
    axis_value = axis if isinstance(axis, (int, np.integer)) else constant_value(axis)
    if _sparse_reads(params) and axis_value is not None and int(axis_value) == 0 and \
            batch_dims == 0:
        return params.sparse_read(indices, name=name)
    if hasattr(params, "_as_graph_element") and not isinstance(params, Tensor) and \
            not getattr(params, "_is_resource_variable", False):
        # A resource variable is read inside the op's scope (GatherV2/ReadVariableOp), as TF.
        params = convert_to_tensor(params)
    return apply_op1("GatherV2", [params, indices, axis], {"batch_dims": batch_dims},
                     name=name)


def _sparse_reads(params: Any, in_loops: bool = True) -> bool:
    """Whether gather/gather_nd of `params` is a ResourceGather(Nd), as in TF: for a
    resource variable. Inside tf.while_loop bodies (`in_loops`: gather's, not
    gather_nd's) only directly in a loop that is in no other loop: elsewhere in loops
    tf1compat reads the variable and gathers from the value, because its TF 1.x-form
    export of loop gradients accumulates the slices of a ResourceGather only there
    (graphdef/loop_gradient_slices.py); values and gradients are the same, the graph
    differs from TF's there (docs/ARCHITECTURE.md)."""
    if not getattr(params, "_is_resource_variable", False):
        return False
    from tf1compat.framework.graph import get_default_graph
    from tf1compat.ops._regions import building_in_loop, building_in_outer_loop
    graph = get_default_graph()
    return not building_in_loop(graph) or in_loops and building_in_outer_loop(graph)


def batch_gather(params: Any, indices: Any, name: Optional[str] = None) -> Tensor:
    """`tf.batch_gather`: gather with batch_dims = rank(indices) - 1."""
    with name_scope(name, "BatchGather", [params, indices]) as scope:
        indices = convert_to_tensor(indices, name="indices")
        params = convert_to_tensor(params, name="params")
        if indices.shape.rank is None:
            raise ValueError("batch_gather does not allow indices with unknown shape.")
        bd = indices.shape.rank - 1
        return apply_op1("GatherV2", [params, indices, bd], {"batch_dims": bd}, name=scope)


# -- gather_nd / scatter_nd ------------------------------------------------------------------------

def _gather_nd_shape(ctx: Any) -> List[TensorShape]:
    params, indices = ctx.shape(0), ctx.shape(1)
    if params.rank is None or indices.rank is None:
        return [unknown_shape()]
    k = indices.as_list()[-1]
    if k is None:
        return [unknown_shape()]
    if k > params.rank:
        raise ValueError(f"indices.shape[-1] must be <= params.rank, but saw indices shape: "
                         f"{indices} and params shape: {params} {node_desc(ctx)}")
    return [TensorShape(indices.as_list()[:-1] + params.as_list()[k:])]


def _gather_nd_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def gather_nd(params: Any, indices: Any) -> Any:
        idx = indices.long() if isinstance(indices, torch.Tensor) else torch.as_tensor(indices)
        k = idx.shape[-1]
        limits = torch.tensor(list(params.shape[:k]), device=idx.device)
        bad = (idx < 0) | (idx >= limits)
        if any_true(bad):
            row = int(torch.nonzero(bad.reshape(-1, k).any(1))[0, 0])
            flat = idx.reshape(-1, k)
            raise errors.InvalidArgumentError(
                None, None, f"indices[{row}] = {flat[row].tolist()} does not index into param "
                            f"shape {list(params.shape)}, node name: {node.name}")
        cols = tuple(idx[..., j] for j in range(k))
        if isinstance(params, np.ndarray):
            return params[tuple(c.cpu().numpy() for c in cols)]
        return params[cols]
    return gather_nd


def _gather_nd_grad_names(op: Any) -> List[Any]:
    """TF's _GatherNdGrad: IndexedSlices for indices of shape [n, 1], else a ScatterNd."""
    if op.inputs[1].shape.rank == 2 and op.inputs[1].shape.as_list()[-1] == 1:
        return [SPARSE, None]
    return ["ScatterNd", None]


declare("GatherNd", inputs=["params: Tparams", "indices: Tindices"], outputs=["output: Tparams"],
        attrs={"Tparams": Type(), "Tindices": Type(INDEX), "bad_indices_policy": ""},
        shape=_gather_nd_shape, kernel=_gather_nd_kernel, grad_names=_gather_nd_grad_names)


def gather_nd(params: Any, indices: Any, name: Optional[str] = None, batch_dims: int = 0) -> Tensor:
    """`tf.gather_nd`; with `batch_dims`, TF's composition around one GatherNd
    (`_batch_gather_nd`)."""
    if batch_dims:
        return _batch_gather_nd(params, indices, batch_dims, name)
    if _sparse_reads(params, in_loops=False):
        return params.gather_nd(indices, name=name)
    return apply_op1("GatherNd", [params, indices], name=name)


def _batch_gather_nd(params: Any, indices: Any, batch_dims: Any,
                     name: Optional[str]) -> Tensor:
    """GatherNd over the leading `batch_dims` dimensions shared by params and indices, as
    TF builds it: every index row is prefixed with its batch coordinates (a meshgrid of the
    batch ranges, tiled over the index dimensions), one GatherNd, and the flat batch
    reshaped back to the batch shape."""
    from tf1compat.ops.array_ops import concat, rank, reshape, shape, stack, unstack
    from tf1compat.ops.creation_ops import ones, range as range_
    from tf1compat.ops.manip_ops import meshgrid
    from tf1compat.ops.math_ops import cast
    from tf1compat.ops.reduction_ops import reduce_prod
    from tf1compat.ops.transform_ops import tile, transpose
    with name_scope(name, "BatchGatherND", [params, indices]):
        indices = convert_to_tensor(indices, name="indices")
        params = convert_to_tensor(params, name="params")
        if not isinstance(batch_dims, int):
            raise TypeError(f"Argument `batch_dims` must be an int; got {batch_dims}")
        if batch_dims < 0:
            raise ValueError("tf.gather_nd does not allow negative batch_dims.")
        for what, ndims in (("indices", indices.shape.ndims), ("params", params.shape.ndims)):
            if ndims is not None and batch_dims >= ndims:
                raise ValueError(f"Argument `batch_dims` = {batch_dims} must be less than "
                                 f"rank(`{what}`) = {ndims}")
        params_shape, indices_shape = shape(params), shape(indices)
        batch_shape = params_shape[:batch_dims]
        batch_size = reduce_prod(batch_shape, [0])
        index_internal_ndims = rank(indices) - batch_dims - 1
        indices_internal_shape = indices_shape[batch_dims:-1]
        ranges = [cast(range_(0, cast(size, D.int32), 1), indices.dtype)
                  for size in unstack(batch_shape, axis=0)]
        flat_grids = [reshape(grid, (-1,)) for grid in meshgrid(*ranges, indexing="ij")]
        index_grid = transpose(stack(flat_grids, axis=0))
        grid_shape = shape(index_grid)
        index_grid = reshape(index_grid, concat(
            [grid_shape[:1], ones(index_internal_ndims, dtype=grid_shape.dtype),
             grid_shape[1:]], axis=0))
        index_grid = tile(index_grid, concat(((1,), indices_internal_shape, (1,)), axis=0))
        flat_indices = reshape(indices, concat(([batch_size], indices_shape[batch_dims:]),
                                               axis=0))
        out = apply_op1("GatherNd", [params, concat((index_grid, flat_indices), axis=-1)])
        return reshape(out, concat((batch_shape, shape(out)[1:]), axis=0))


def _scatter_nd_shape(ctx: Any) -> List[TensorShape]:
    return [constant_value_as_shape(ctx.inputs[2])]


def _scatter_nd_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def scatter_nd(indices: torch.Tensor, updates: torch.Tensor, shape: Any) -> torch.Tensor:
        dims = [int(d) for d in shape.reshape(-1).tolist()]
        out = torch.zeros(dims, dtype=updates.dtype, device=updates.device)
        idx = indices.long()
        k = idx.shape[-1]
        limits = torch.tensor(dims[:k], device=idx.device)
        if any_true((idx < 0) | (idx >= limits)):
            raise errors.InvalidArgumentError(None, None,
                                              f"indices are out of range for shape {dims}")
        cols = tuple(idx[..., j] for j in range(k))
        return out.index_put(cols, updates, accumulate=True)
    return scatter_nd


declare("ScatterNd", inputs=["indices: Tindices", "updates: T", "shape: Tindices"],
        outputs=["output: T"], attrs={"T": Type(), "Tindices": Type(INDEX),
                                      "bad_indices_policy": ""},
        shape=_scatter_nd_shape, kernel=_scatter_nd_kernel,
        grad_names=names(None, "GatherNd", None))


def scatter_nd(indices: Any, updates: Any, shape: Any, name: Optional[str] = None) -> Tensor:
    """`tf.scatter_nd`: duplicates are summed."""
    return apply_op1("ScatterNd", [indices, updates, shape], name=name)


# -- where / select -----------------------------------------------------------------------------

# torch's CPU nonzero is ~10x slower than numpy's on a large mask (tkipf/gcn's sparse
# dropout: 49k entries, ~600 us against ~35); both list the indices in row-major order.
_NUMPY_NONZERO = frozenset({torch.bool, torch.float16, torch.float32, torch.float64,
                            torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8,
                            torch.complex64, torch.complex128})


def _where(x: torch.Tensor) -> torch.Tensor:
    if x.device.type == "cpu" and x.dtype in _NUMPY_NONZERO and x.dim() > 0:
        array = x.detach().resolve_conj().resolve_neg().numpy()   # numpy() refuses lazy bits
        return torch.from_numpy(np.ascontiguousarray(np.argwhere(array)))
    return torch.nonzero(x)


declare("Where", inputs=["input: T"], outputs=["index: int64"],
        attrs={"T": Type(default=D.bool)},
        shape=lambda ctx: [TensorShape([None, ctx.shape(0).rank])],
        kernel=lambda node, kctx: _where, grad="unregistered")


def _select_shape(ctx: Any) -> List[TensorShape]:
    # TF's Select shape function: merge then/else, then check the condition against them.
    c, x, y = ctx.shapes
    out = merge_shapes(x, y, ctx)
    if c.rank is None or out.rank is None or c.rank == 0:
        return [out]
    if c.rank != 1 or out.rank == 0:
        return [merge_shapes(out, c, ctx)]
    # A vector condition must match the first dimension; TF does not refine the output's
    # first dimension from it (dynamic_rnn's masked outputs keep an unknown batch size).
    merge_shapes(c, TensorShape([out.as_list()[0]]), ctx)
    return [out]


def _select_strings(c: Any, x: Any, y: Any) -> Any:
    cond = c.cpu().numpy() if isinstance(c, torch.Tensor) else np.asarray(c)
    if cond.ndim == 0:
        return x if bool(cond) else y
    xs, ys = np.asarray(x, dtype=object), np.asarray(y, dtype=object)
    if cond.ndim == 1 and xs.ndim > 1:
        cond = cond.reshape((-1,) + (1,) * (xs.ndim - 1))
    return np.where(cond, xs, ys)


def _select_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    if node.attrs["T"] == D.string:
        # Strings are numpy object arrays / bytes (a sharded Saver selects its temp suffix).
        return _select_strings

    def select(c: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        # TF's SelectOp: a scalar condition picks a whole tensor, a vector one whole rows
        # of a batch; otherwise all three have one shape (torch.where would broadcast).
        if c.dim() == 0 or (c.dim() == 1 and x.dim() > 1):
            if x.shape != y.shape:
                raise errors.InvalidArgumentError(
                    None, None, f"'then' and 'else' must have the same size.  but received: "
                                f"{shape_text(x.shape)} vs. {shape_text(y.shape)}")
            if c.dim() == 1:
                if c.shape[0] != x.shape[0]:
                    raise errors.InvalidArgumentError(
                        None, None, f"Number of batches of 'then' must match size of 'cond', "
                                    f"but saw: {x.shape[0]} vs. {c.shape[0]}")
                c = c.reshape((-1,) + (1,) * (x.dim() - 1))
        elif c.shape != x.shape or c.shape != y.shape:
            raise errors.InvalidArgumentError(None, None, same_shape_error(node, [c, x, y]))
        return torch.where(c, x, y)
    return select


declare("Select", inputs=["condition: bool", "t: T", "e: T"], outputs=["output: T"],
        attrs={"T": Type()}, shape=_select_shape, kernel=_select_kernel,
        grad_names=names(None, "Select", "Select_1"))


def _select_v2_shape(ctx: Any) -> List[TensorShape]:
    c, x, y = ctx.shapes
    return [broadcast_shapes(broadcast_shapes(x, y, ctx), c, ctx)]


declare("SelectV2", inputs=["condition: bool", "t: T", "e: T"], outputs=["output: T"],
        attrs={"T": Type()}, shape=_select_v2_shape,
        kernel=lambda node, kctx: torch.where,
        grad_names=broadcast_names("SelectV2", "SelectV2_1", fast=False, first=1))


def where(condition: Any, x: Any = None, y: Any = None, name: Optional[str] = None) -> Tensor:
    """`tf.where` (TF1): coordinates of true elements, or Select without broadcasting."""
    if x is None and y is None:
        with name_scope(name, "Where", [condition]) as scope:
            condition = convert_to_tensor(condition, preferred_dtype=D.bool, name="condition")
            return apply_op1("Where", [condition], name=scope)
    if x is not None and y is not None:
        return apply_op1("Select", [condition, x, y], name=name)
    raise ValueError("x and y must both be non-None or both be None.")


def where_v2(condition: Any, x: Any = None, y: Any = None, name: Optional[str] = None) -> Tensor:
    """`tf.where_v2`: broadcasting select (or coordinates with one argument)."""
    if x is None and y is None:
        return where(condition, name=name)
    if x is not None and y is not None:
        return apply_op1("SelectV2", [condition, x, y], name=name)
    raise ValueError("x and y must both be non-None or both be None.")


# -- unique ------------------------------------------------------------------------------------

def _unique_strings(x: np.ndarray, out_idx: np.dtype) -> tuple:
    first: dict = {}
    idx = np.array([first.setdefault(v, len(first)) for v in x.reshape(-1)], dtype=out_idx)
    values = np.empty(len(first), dtype=object)
    values[:] = list(first)
    return values, idx


def _unique_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    from tf1compat.ops.sort_ops import first_occurrence_unique
    out_idx = node.attrs["out_idx"].torch_dtype
    if node.attrs["T"] == D.string:
        np_idx = node.attrs["out_idx"].as_numpy_dtype
        return lambda x: _unique_strings(x, np_idx)

    def unique(x: Any) -> tuple:
        y, idx, _ = first_occurrence_unique(x)
        return y, idx.to(out_idx)
    return unique


declare("Unique", inputs=["x: T"], outputs=["y: T", "idx: out_idx"],
        attrs={"T": Type(), "out_idx": Type((D.int32, D.int64), default=D.int32)},
        shape=lambda ctx: [TensorShape([None]), ctx.shape(0)], kernel=_unique_kernel,
        grad="unregistered")


def unique(x: Any, out_idx: Any = D.int32, name: Optional[str] = None) -> Any:
    """`tf.unique`: values in order of first occurrence, and each element's index."""
    outputs = apply_op("Unique", [x], {"out_idx": D.as_dtype(out_idx)}, name=name).outputs
    return _UniqueOutput(*outputs)


from collections import namedtuple as _namedtuple  # noqa: E402

_UniqueOutput = _namedtuple("Unique", ["y", "idx"])


# -- boolean_mask, sequence_mask ----------------------------------------------------------------

def boolean_mask(tensor: Any, mask: Any, name: str = "boolean_mask", axis: Any = None) -> Tensor:
    """`tf.boolean_mask`, built from reshape/where/gather as TF builds it."""
    from tf1compat.ops.array_ops import concat, reshape, shape, squeeze
    from tf1compat.ops.reduction_ops import prod_
    with name_scope(name, values=[tensor, mask]):
        tensor = convert_to_tensor(tensor, name="tensor")
        mask = convert_to_tensor(mask, name="mask")
        shape_mask = mask.shape
        ndims_mask = shape_mask.rank
        shape_tensor = tensor.shape
        if ndims_mask == 0:
            raise ValueError("mask cannot be scalar.")
        if ndims_mask is None:
            raise ValueError("Number of mask dimensions must be specified, even if some "
                             "dimensions are None.  E.g. shape=[None] is ok, but shape=None "
                             "is not.")
        axis = 0 if axis is None else axis
        # TF's constant_value returns a non-tensor axis as it is (so a Python int is known).
        axis_value = constant_value(axis) if isinstance(axis, Tensor) else axis
        if axis_value is not None:
            axis = int(axis_value)
            shape_tensor[axis:axis + ndims_mask].assert_is_compatible_with(shape_mask)
        leading_size = prod_(shape(tensor)[axis:axis + ndims_mask], [0])
        tensor = reshape(tensor, concat([shape(tensor)[:axis], [leading_size],
                                         shape(tensor)[axis + ndims_mask:]], 0))
        if not isinstance(axis, Tensor) and shape_tensor.rank is not None:
            first_dim = shape_tensor[axis:axis + ndims_mask].num_elements()
            tensor.set_shape(TensorShape(shape_tensor.as_list()[:axis]).concatenate(
                [first_dim]).concatenate(shape_tensor.as_list()[axis + ndims_mask:]))
        mask = reshape(mask, [-1])
        indices = squeeze(where(mask), axis=[1])
        return gather(tensor, indices, axis=axis)


def sequence_mask(lengths: Any, maxlen: Any = None, dtype: Any = D.bool,
                  name: Optional[str] = None) -> Tensor:
    """`tf.sequence_mask`."""
    from tf1compat.ops.array_ops import expand_dims
    from tf1compat.ops.math_ops import less, maximum
    from tf1compat.ops.reduction_ops import max_
    with name_scope(name, "SequenceMask", [lengths, maxlen]):
        lengths = convert_to_tensor(lengths)
        if maxlen is None:
            axes = constant(np.arange(lengths.shape.rank), dtype=D.int32) \
                if lengths.shape.rank is not None else None
            maxlen = max_(lengths, axes)
            maxlen = maximum(constant(0, maxlen.dtype), maxlen)
        else:
            maxlen = convert_to_tensor(maxlen)
        if maxlen.shape.rank not in (None, 0):
            raise ValueError("Argument `maxlen` must be scalar for sequence_mask, received "
                             f"`maxlen` = {maxlen} with shape '{maxlen.shape}' instead")
        row_vector = apply_op1("Range", [constant(0, maxlen.dtype), maxlen,
                                         constant(1, maxlen.dtype)])
        # TF calls the Cast op directly here, so a same-dtype cast still creates one.
        matrix = apply_op1("Cast", [expand_dims(lengths, -1)], {"DstT": maxlen.dtype})
        result = less(row_vector, matrix)
        if dtype is None or result.dtype.is_compatible_with(dtype):
            return result
        return apply_op1("Cast", [result], {"DstT": D.as_dtype(dtype)})

# tf.gather / tf.where given RaggedTensors: handlers in tf1compat/ragged/ragged_concat.py
# and ragged_array.py.
for _name in ("gather", "where", "where_v2"):
    dispatch.add_dispatch_support(globals(), _name, (_name,))
