"""Sorting and set-like index ops: `tf.sort`/`tf.argsort` (TopKV2 graphs, as TF builds
them), `tf.searchsorted` (LowerBound/UpperBound), `tf.unique_with_counts`
(UniqueWithCounts), `tf.setdiff1d` (ListDiff), `tf.invert_permutation`,
`tf.unravel_index`."""

from __future__ import annotations

import collections
from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._shape_rules import node_desc

__all__ = ["sort", "argsort", "searchsorted", "unique_with_counts", "setdiff1d",
           "invert_permutation", "unravel_index"]

INDEX = (D.int32, D.int64)


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _shape_text(shape: Any) -> str:
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def _with_rank_at_least(ctx: Any, i: int, k: int) -> TensorShape:
    s = ctx.shape(i)
    if s.rank is not None and s.rank < k:
        raise ValueError(f"Shape must be at least rank {k} but is rank {s.rank} "
                         f"{node_desc(ctx)}")
    return s


def _with_rank(ctx: Any, i: int, k: int) -> TensorShape:
    s = ctx.shape(i)
    if s.rank is not None and s.rank != k:
        raise ValueError(f"Shape must be rank {k} but is rank {s.rank} {node_desc(ctx)}")
    return s


# -- sort / argsort: TF's top_k graphs --------------------------------------------------------

def _descending_sort(values: Tensor, axis: int, return_argsort: bool) -> Tensor:
    from tf1compat.framework.constant_op import constant
    from tf1compat.ops.array_ops import rank, shape
    from tf1compat.ops.nn_ops import top_k
    from tf1compat.ops.transform_ops import transpose
    k = shape(values)[axis]
    rank(values)                       # TF builds it (unused for a known rank)
    static_rank = values.shape.rank
    transposition = None
    if axis != -1 and axis + 1 != static_rank:
        if static_rank is None:
            raise NotImplementedError("tf.sort along an axis other than the last of a tensor "
                                      "of unknown rank is not supported by tf1compat")
        if axis < 0:
            axis += static_rank
        perm = list(range(axis)) + [static_rank - 1] + \
            list(range(axis + 1, static_rank - 1)) + [axis]
        transposition = constant(perm, D.int32, name="transposition")
        values = transpose(values, transposition)
    sorted_values, indices = top_k(values, k)
    out = indices if return_argsort else sorted_values
    out.set_shape(values.shape)      # k is the sorted axis' size (TF folds it when known)
    if transposition is not None:
        out = transpose(out, transposition)
    return out


def _ascending_sort(values: Tensor, axis: int, return_argsort: bool) -> Tensor:
    dtype = values.dtype.base_dtype
    if dtype.is_unsigned:
        offset = dtype.max
        out = _descending_sort(offset - values, axis, return_argsort)
        return out if return_argsort else offset - out
    if dtype.is_integer:
        out = _descending_sort(-values - 1, axis, return_argsort)
        return out if return_argsort else -out - 1
    out = _descending_sort(-values, axis, return_argsort)
    return out if return_argsort else -out


_SORT_IMPL = {"ASCENDING": _ascending_sort, "DESCENDING": _descending_sort}


def _sort_or_argsort(values: Any, axis: Any, direction: str, return_argsort: bool) -> Tensor:
    from tf1compat.framework.constant_value import constant_value
    if direction not in _SORT_IMPL:
        raise ValueError("Argument `direction` should be one of ASCENDING, DESCENDING. "
                         f"Received: direction={direction}")
    axis = convert_to_tensor(axis, name="axis")
    axis_static = constant_value(axis)
    if axis.shape.rank not in (None, 0) or axis_static is None:
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={axis}.")
    values = convert_to_tensor(values, name="values")
    return _SORT_IMPL[direction](values, int(axis_static), return_argsort)


def sort(values: Any, axis: Any = -1, direction: str = "ASCENDING",
         name: Optional[str] = None) -> Tensor:
    """`tf.sort`: the values sorted along `axis` (TF's graph: top_k of the negated
    values, transposed when `axis` is not the last)."""
    with name_scope(name, "sort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=False)


def argsort(values: Any, axis: Any = -1, direction: str = "ASCENDING", stable: bool = False,
            name: Optional[str] = None) -> Tensor:
    """`tf.argsort`: int32 indices that sort `values` along `axis` (ties keep index
    order, as TF's top_k)."""
    del stable  # TF's sort is always stable
    with name_scope(name, "argsort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=True)


# -- searchsorted ----------------------------------------------------------------------------

def _bound_shape(ctx: Any) -> List[TensorShape]:
    _with_rank_at_least(ctx, 0, 1)
    return [_with_rank_at_least(ctx, 1, 1)]


def _bound_kernel(right: bool) -> Callable[[Any, Any], Callable[..., Any]]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        out_dtype = node.attrs["out_type"].torch_dtype

        def bound(sorted_inputs: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
            if sorted_inputs.shape[0] != values.shape[0]:
                raise _invalid("Leading dim_size of both tensors must match.")
            if sorted_inputs.shape[-1] == 0:
                return torch.zeros(values.shape, dtype=out_dtype, device=values.device)
            return torch.searchsorted(sorted_inputs.contiguous(), values.contiguous(),
                                      right=right).to(out_dtype)
        return bound
    return factory


for _type, _right in (("LowerBound", False), ("UpperBound", True)):
    declare(_type, inputs=["sorted_inputs: T", "values: T"], outputs=["output: out_type"],
            attrs={"T": Type(), "out_type": Type(INDEX, default=D.int32)},
            shape=_bound_shape, kernel=_bound_kernel(_right), grad="unregistered")


def searchsorted(sorted_sequence: Any, values: Any, side: str = "left",
                 out_type: Any = D.int32, name: Optional[str] = None) -> Tensor:
    """`tf.searchsorted`: per row of the innermost axis, where each value would be
    inserted to keep `sorted_sequence` sorted (TF's reshape/bound/reshape graph)."""
    from tf1compat.ops.array_ops import reshape, shape_internal
    sorted_sequence = convert_to_tensor(sorted_sequence)
    values = convert_to_tensor(values)
    sequence_size = shape_internal(sorted_sequence)[-1]
    values_size = shape_internal(values)[-1]
    sorted_2d = reshape(sorted_sequence, [-1, sequence_size])
    values_2d = reshape(values, [-1, values_size])
    if side == "right":
        op_type = "UpperBound"
    elif side == "left":
        op_type = "LowerBound"
    else:
        raise ValueError("Argument `side` must be either 'right' or 'left'. Received: "
                         f"`side` = {side!r}.")
    output = apply_op1(op_type, [sorted_2d, values_2d], {"out_type": D.as_dtype(out_type)},
                       name=name)
    return reshape(output, shape_internal(values))


# -- UniqueWithCounts, ListDiff -----------------------------------------------------------------

def first_occurrence_unique(x: Any) -> tuple:
    """(unique values in order of first occurrence, index of each element, counts)."""
    if isinstance(x, np.ndarray):                    # strings: object arrays of bytes
        order: dict = {}
        idx = np.empty(len(x), dtype=np.int64)
        for i, v in enumerate(x.tolist()):
            idx[i] = order.setdefault(v, len(order))
        uniq = np.empty(len(order), dtype=object)
        uniq[:] = list(order)
        return uniq, torch.from_numpy(idx), torch.from_numpy(
            np.bincount(idx, minlength=len(order)))
    uniq, inverse, counts = torch.unique(x, sorted=True, return_inverse=True,
                                         return_counts=True)
    n = x.shape[0]
    first = torch.full((uniq.shape[0],), n, dtype=torch.long, device=x.device)
    first = first.scatter_reduce(0, inverse, torch.arange(n, device=x.device), "amin")
    order_t = torch.argsort(first)
    rank = torch.empty_like(order_t)
    rank[order_t] = torch.arange(order_t.shape[0], device=x.device)
    return uniq[order_t], rank[inverse], counts[order_t]


def _unique_with_counts_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    out_idx = node.attrs["out_idx"].torch_dtype

    def unique_with_counts(x: Any) -> tuple:
        if len(x.shape) != 1:
            raise _invalid("unique expects a 1D vector.")
        y, idx, count = first_occurrence_unique(x)
        return y, idx.to(out_idx), count.to(out_idx)
    return unique_with_counts


def _unique_with_counts_shape(ctx: Any) -> List[TensorShape]:
    return [TensorShape([None]), ctx.shape(0), TensorShape([None])]


declare("UniqueWithCounts", inputs=["x: T"], outputs=["y: T", "idx: out_idx", "count: out_idx"],
        attrs={"T": Type(), "out_idx": Type(INDEX, default=D.int32)},
        shape=_unique_with_counts_shape, kernel=_unique_with_counts_kernel, grad="unregistered")

UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def unique_with_counts(x: Any, out_idx: Any = D.int32, name: Optional[str] = None
                       ) -> UniqueWithCounts:
    """`tf.unique_with_counts`: unique values in order of first occurrence, each
    element's index into them, and how often each occurs."""
    op = apply_op("UniqueWithCounts", [x], {"out_idx": D.as_dtype(out_idx)}, name=name)
    return UniqueWithCounts(*op.outputs)


def _list_diff_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    out_idx = node.attrs["out_idx"].torch_dtype

    def list_diff(x: Any, y: Any) -> tuple:
        if len(x.shape) != 1:
            raise _invalid("x should be a 1D vector.")
        if len(y.shape) != 1:
            raise _invalid("y should be a 1D vector.")
        if isinstance(x, np.ndarray):
            drop = set(y.tolist())
            keep = np.array([v not in drop for v in x.tolist()], dtype=bool)
            where = np.nonzero(keep)[0]
            return x[where], torch.from_numpy(where).to(out_idx)
        keep = ~torch.isin(x, y)
        where = torch.nonzero(keep).reshape(-1)
        return x[where], where.to(out_idx)
    return list_diff


def _list_diff_shape(ctx: Any) -> List[TensorShape]:
    _with_rank(ctx, 0, 1)
    _with_rank(ctx, 1, 1)
    return [TensorShape([None]), TensorShape([None])]


declare("ListDiff", inputs=["x: T", "y: T"], outputs=["out: T", "idx: out_idx"],
        attrs={"T": Type(), "out_idx": Type(INDEX, default=D.int32)},
        shape=_list_diff_shape, kernel=_list_diff_kernel, grad="unregistered")

ListDiff = collections.namedtuple("ListDiff", ["out", "idx"])


def setdiff1d(x: Any, y: Any, index_dtype: Any = D.int32, name: Optional[str] = None
              ) -> ListDiff:
    """`tf.setdiff1d`: the values of `x` not in `y`, in order, and their positions."""
    op = apply_op("ListDiff", [x, y], {"out_idx": D.as_dtype(index_dtype)}, name=name)
    return ListDiff(*op.outputs)


# -- InvertPermutation, UnravelIndex ----------------------------------------------------------

def _invert_permutation_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def invert_permutation(x: torch.Tensor) -> torch.Tensor:
        if len(x.shape) != 1:
            raise _invalid("invert_permutation expects a 1D vector.")
        n = x.shape[0]
        values = x.tolist()
        seen = [False] * n
        for v in values:
            if not 0 <= v < n:
                raise _invalid(f"{v} is not between 0 and {n}")
            if seen[v]:
                raise _invalid(f"{v} is duplicated in the input.")
            seen[v] = True
        out = torch.empty_like(x)
        out[x.long()] = torch.arange(n, dtype=x.dtype, device=x.device)
        return out
    return invert_permutation


declare("InvertPermutation", inputs=["x: T"], outputs=["y: T"],
        attrs={"T": Type(INDEX, default=D.int32)},
        shape=lambda ctx: [_with_rank(ctx, 0, 1)], kernel=_invert_permutation_kernel,
        grad="none")


def invert_permutation(x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.invert_permutation`: y[x[i]] = i."""
    return apply_op1("InvertPermutation", [x], name=name)


def _unravel_shape(ctx: Any) -> List[TensorShape]:
    indices = ctx.shape(0)
    dims = _with_rank(ctx, 1, 1)
    n = dims.as_list()[0] if dims.rank is not None else None
    if indices.rank is None:
        return [unknown_shape()]
    if indices.rank == 0:
        return [TensorShape([n])]
    return [TensorShape([n, indices.num_elements()])]


def _unravel_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def unravel_index(indices: torch.Tensor, dims: torch.Tensor) -> torch.Tensor:
        if len(dims.shape) != 1:
            raise _invalid("The indices can only be scalar or vector, got "
                           "\"{_shape_text(dims.shape)}\"")
        if len(indices.shape) > 1:
            raise _invalid("The indices can only be scalar or vector, got "
                           "\"{_shape_text(indices.shape)}\"")
        sizes = [int(d) for d in dims.tolist()]
        if any(d <= 0 for d in sizes):
            raise _invalid("Input dims must be > 0")
        total = int(np.prod(sizes))
        flat = indices.reshape(-1).long()
        if bool(((flat < 0) | (flat >= total)).any()):
            raise _invalid("index is out of bound as with dims")
        rows = []
        for d in reversed(sizes):
            rows.append(flat % d)
            flat = torch.div(flat, d, rounding_mode="floor")
        out = torch.stack(rows[::-1]).to(indices.dtype)
        return out.reshape(-1) if len(indices.shape) == 0 else out
    return unravel_index


declare("UnravelIndex", inputs=["indices: Tidx", "dims: Tidx"], outputs=["output: Tidx"],
        attrs={"Tidx": Type(INDEX, default=D.int32)},
        shape=_unravel_shape, kernel=_unravel_kernel, grad="unregistered")


def unravel_index(indices: Any, dims: Any, name: Optional[str] = None) -> Tensor:
    """`tf.unravel_index`: flat indices as coordinates in an array of shape `dims`."""
    return apply_op1("UnravelIndex", [indices, dims], name=name)
