"""More sparse-tensor ops: SparseFillEmptyRows, SparseSlice, SparseSoftmax,
SparseSparseMaximum/Minimum, SparseSplit; `tf.sparse.eye`, `tf.sparse.from_dense`,
`tf.sparse.expand_dims`. Helpers and conventions are those of ops/sparse_math.py."""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.op_def import Int, Type, declare
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.ops._kernels import as_int_list
from tf1compat.ops.sparse_math import (_as_sparse, _is_increasing, _linear, _rank_of,
                                       _sparse_outputs, _unlinear, gather_merged,
                                       merge_positions)

__all__ = ["sparse_fill_empty_rows", "sparse_slice", "sparse_softmax", "sparse_maximum",
           "sparse_minimum", "sparse_split", "sparse_eye", "from_dense",
           "sparse_expand_dims"]


# -- SparseFillEmptyRows ------------------------------------------------------------------

def _fill_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def fill_empty_rows(idx: torch.Tensor, vals: torch.Tensor, shape: torch.Tensor,
                        default: torch.Tensor) -> tuple:
        dims = as_int_list(shape)
        if not dims:
            raise errors.InvalidArgumentError(None, None,
                                              "Input dense_shape must be at least rank 1")
        n_rows = dims[0]
        rows = idx[:, 0].long()
        if rows.numel() and bool(((rows < 0) | (rows >= n_rows)).any()):
            raise errors.InvalidArgumentError(None, None, "indices is out of bounds")
        counts = torch.bincount(rows, minlength=n_rows) if rows.numel() else torch.zeros(
            n_rows, dtype=torch.int64, device=idx.device)
        empty = counts == 0
        empty_rows = torch.nonzero(empty).reshape(-1)
        fill_idx = torch.zeros((empty_rows.shape[0], idx.shape[1]), dtype=idx.dtype,
                               device=idx.device)
        fill_idx[:, 0] = empty_rows
        all_idx = torch.cat([idx, fill_idx])
        all_vals = torch.cat([vals, default.reshape(1).to(vals.dtype).expand(
            empty_rows.shape[0])])
        # Rows in order; a row keeps its entries in input order (TF's kernel is stable).
        order = torch.sort(all_idx[:, 0], stable=True).indices
        reverse = torch.empty_like(order)
        reverse[order] = torch.arange(order.shape[0], device=order.device)
        return all_idx[order], all_vals[order], empty, reverse[:idx.shape[0]]
    return fill_empty_rows


def _fill_shape(ctx: Any) -> List[TensorShape]:
    rank = _rank_of(ctx, 2, 0)
    shape = ctx.const(2)
    rows = None if shape is None else int(np.asarray(shape)[0])
    n = ctx.shape(0).as_list()[0] if ctx.shape(0).rank == 2 else None
    return [TensorShape([None, rank]), TensorShape([None]), TensorShape([rows]),
            TensorShape([n])]


declare("SparseFillEmptyRows", inputs=["indices: int64", "values: T", "dense_shape: int64",
                                       "default_value: T"],
        outputs=["output_indices: int64", "output_values: T", "empty_row_indicator: bool",
                 "reverse_index_map: int64"],
        attrs={"T": Type()}, shape=_fill_shape, kernel=_fill_kernel)


def sparse_fill_empty_rows(sp_input: Any, default_value: Any, name: Optional[str] = None
                           ) -> tuple:
    """`tf.sparse_fill_empty_rows`: (filled SparseTensor, empty_row_indicator)."""
    sp_input = _as_sparse(sp_input)
    with name_scope(name, "SparseFillEmptyRows", [sp_input]):
        default_value = convert_to_tensor(default_value, dtype=sp_input.values.dtype)
        ind, val, empty, _ = apply_op("SparseFillEmptyRows",
                                      [sp_input.indices, sp_input.values,
                                       sp_input.dense_shape, default_value]).outputs
        return SparseTensor(ind, val, sp_input.dense_shape), empty


# -- SparseSlice ----------------------------------------------------------------------------

def _slice_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def sparse_slice(idx: torch.Tensor, vals: torch.Tensor, shape: torch.Tensor,
                     start: torch.Tensor, size: torch.Tensor) -> tuple:
        dims, begin, extent = as_int_list(shape), as_int_list(start), as_int_list(size)
        if not len(dims) == len(begin) == len(extent):
            raise errors.InvalidArgumentError(
                None, None, "Expected input_shape, input_start and input_size to have the "
                            "same length")
        end = [min(b + s, d) for b, s, d in zip(begin, extent, dims)]
        out_dims = [max(0, e - b) for b, e in zip(begin, end)]
        lo = torch.tensor(begin, dtype=torch.int64, device=idx.device)
        hi = torch.tensor(end, dtype=torch.int64, device=idx.device)
        keep = ((idx >= lo) & (idx < hi)).all(1) if idx.shape[1] else torch.ones(
            idx.shape[0], dtype=torch.bool, device=idx.device)
        where = torch.nonzero(keep).reshape(-1)
        return (idx[where] - lo, vals[where],
                torch.tensor(out_dims, dtype=torch.int64, device=shape.device))
    return sparse_slice


declare("SparseSlice", inputs=["indices: int64", "values: T", "shape: int64",
                               "start: int64", "size: int64"],
        outputs=["output_indices: int64", "output_values: T", "output_shape: int64"],
        attrs={"T": Type()}, shape=lambda ctx: _sparse_outputs(ctx, 2, 0),
        kernel=_slice_kernel)


def sparse_slice(sp_input: Any, start: Any, size: Any, name: Optional[str] = None
                 ) -> SparseTensor:
    """`tf.sparse_slice` / `tf.sparse.slice`."""
    sp_input = _as_sparse(sp_input)
    start = convert_to_tensor(start, D.int64)
    size = convert_to_tensor(size, D.int64)
    ind, val, shape = apply_op("SparseSlice", [sp_input.indices, sp_input.values,
                                               sp_input.dense_shape, start, size],
                               name=name).outputs
    return SparseTensor(ind, val, shape)


# -- SparseSoftmax ----------------------------------------------------------------------

class _UnorderedSoftmaxValues(torch.autograd.Function):
    """SparseSoftmax's values for unordered indices, with TF's registered gradient: it
    pairs the output values with the input's indices by position, as the forward did, so
    grad_x[k] = (g[k] - sum of out*g over k's row) * out[k]."""

    @staticmethod
    def forward(ctx: Any, vals: torch.Tensor, out: torch.Tensor, rows: torch.Tensor,
                n_rows: int) -> torch.Tensor:
        ctx.save_for_backward(out, rows)
        ctx.n_rows = n_rows
        return out

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple:
        out, rows = ctx.saved_tensors
        row_sums = torch.zeros(ctx.n_rows, dtype=out.dtype, device=out.device).index_add(
            0, rows, out * grad)
        return (grad - row_sums[rows]) * out, None, None, None


def _softmax_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def sparse_softmax(idx: torch.Tensor, vals: torch.Tensor, shape: torch.Tensor
                       ) -> torch.Tensor:
        dims = as_int_list(shape)
        if len(dims) < 2:
            raise errors.InvalidArgumentError(
                None, None, f"Input should have rank >= 2, but received shape: {dims}")
        group = _linear(idx[:, :-1], dims[:-1])
        uniq, inverse = torch.unique(group, return_inverse=True)
        m = torch.full((uniq.shape[0],), float("-inf"), dtype=vals.dtype,
                       device=vals.device).scatter_reduce(0, inverse, vals.detach(), "amax")
        e = torch.exp(vals - m[inverse])
        total = torch.zeros_like(m).index_add(0, inverse, e)
        out = e / total[inverse]
        # TF computes on a copy put in canonical order and writes the values in that
        # order: for unordered indices they do not line up with the input's (GAT relies
        # on TF's result).
        lin = _linear(idx, dims)
        if lin.shape[0] > 1 and not bool((lin[1:] >= lin[:-1]).all()):
            out = _UnorderedSoftmaxValues.apply(
                vals, out.detach()[torch.sort(lin, stable=True).indices], inverse,
                uniq.shape[0])
        return out
    return sparse_softmax


declare("SparseSoftmax", inputs=["sp_indices: int64", "sp_values: T", "sp_shape: int64"],
        outputs=["output: T"], attrs={"T": Type((D.float16, D.float32, D.float64))},
        shape=lambda ctx: [TensorShape([dimension_value(ctx.shape(1)[0])
                                        if ctx.shape(1).rank == 1 else None])],
        kernel=_softmax_kernel)


def sparse_softmax(sp_input: Any, name: Optional[str] = None) -> SparseTensor:
    """`tf.sparse_softmax` / `tf.sparse.softmax`: softmax over the stored values of each
    innermost row."""
    sp_input = _as_sparse(sp_input)
    with name_scope(name, "SparseSoftmax", [sp_input.indices, sp_input.values]):
        out = apply_op("SparseSoftmax", [sp_input.indices, sp_input.values,
                                         sp_input.dense_shape]).outputs[0]
        return SparseTensor(sp_input.indices, out, sp_input.dense_shape)


# -- SparseSparseMaximum / Minimum -----------------------------------------------------------

def _extreme_kernel(fn: Callable[..., torch.Tensor]) -> Callable[..., Any]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        def sparse_sparse(a_idx: torch.Tensor, a_vals: torch.Tensor, a_shape: torch.Tensor,
                          b_idx: torch.Tensor, b_vals: torch.Tensor, b_shape: torch.Tensor
                          ) -> tuple:
            dims = as_int_list(a_shape)
            if dims != as_int_list(b_shape):
                raise errors.InvalidArgumentError(
                    None, None, f"Operands' shapes do not match: got {dims} and "
                                f"{as_int_list(b_shape)} for the dense shapes")
            la, lb = _linear(a_idx, dims), _linear(b_idx, dims)
            if not (_is_increasing(la) and _is_increasing(lb)):
                # TF's one-pass merge keeps unordered operands' order
                lin, a_at, b_at = gather_merged(la, a_vals, lb, b_vals,
                                                *merge_positions(la, lb, lambda i, j: True))
                return _unlinear(lin, dims), fn(a_at, b_at)
            uniq = torch.unique(torch.cat([la, lb]), sorted=True)
            # A missing entry on either side counts as 0, as TF's kernel.
            dense_a = torch.zeros(uniq.shape[0], dtype=a_vals.dtype, device=a_vals.device)
            dense_b = torch.zeros_like(dense_a)
            dense_a[torch.searchsorted(uniq, la)] = a_vals
            dense_b[torch.searchsorted(uniq, lb)] = b_vals
            return _unlinear(uniq, dims), fn(dense_a, dense_b)
        return sparse_sparse
    return factory


for _type, _fn in (("SparseSparseMaximum", torch.maximum),
                   ("SparseSparseMinimum", torch.minimum)):
    declare(_type, inputs=["a_indices: int64", "a_values: T", "a_shape: int64",
                           "b_indices: int64", "b_values: T", "b_shape: int64"],
            outputs=["output_indices: int64", "output_values: T"], attrs={"T": Type()},
            shape=lambda ctx: [TensorShape([None, None]), TensorShape([None])],
            kernel=_extreme_kernel(_fn), grad="none")


def _extreme_wrapper(op_type: str, default_name: str) -> Callable[..., SparseTensor]:
    def fn(sp_a: Any, sp_b: Any, name: Optional[str] = None) -> SparseTensor:
        sp_a, sp_b = _as_sparse(sp_a), _as_sparse(sp_b)
        with name_scope(name, default_name, [sp_a.indices, sp_a.values, sp_b.indices,
                                             sp_b.values]) as scope:
            ind, val = apply_op(op_type, [sp_a.indices, sp_a.values, sp_a.dense_shape,
                                          sp_b.indices, sp_b.values, sp_b.dense_shape],
                                name=scope).outputs
            return SparseTensor(ind, val, sp_a.dense_shape)
    fn.__name__ = default_name
    fn.__doc__ = f"`tf.sparse_{default_name.lower()[6:]}`: elementwise {op_type[12:]} " \
                 "of two SparseTensors (missing entries count as 0)."
    return fn


sparse_maximum = _extreme_wrapper("SparseSparseMaximum", "SparseSparseMaximum")
sparse_minimum = _extreme_wrapper("SparseSparseMinimum", "SparseSparseMinimum")


# -- SparseSplit ----------------------------------------------------------------------------

def _split_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    num = node.attrs["num_split"]

    def sparse_split(split_dim: torch.Tensor, idx: torch.Tensor, vals: torch.Tensor,
                     shape: torch.Tensor) -> tuple:
        dims = as_int_list(shape)
        rank = len(dims)
        axis = int(split_dim)
        if not -rank <= axis < rank:
            raise errors.InvalidArgumentError(
                None, None, f"Input split_dim should be between -{rank} and {rank}, "
                            f"got {axis}")
        axis %= rank
        size = dims[axis]
        if num > size:
            raise errors.InvalidArgumentError(
                None, None, f"Input num_split should be between 1 and {size}, got {num}")
        base, extra = divmod(size, num)
        inds, vls, shapes, begin = [], [], [], 0
        for k in range(num):
            width = base + (1 if k < extra else 0)
            keep = (idx[:, axis] >= begin) & (idx[:, axis] < begin + width)
            where = torch.nonzero(keep).reshape(-1)
            piece = idx[where].clone()
            piece[:, axis] -= begin
            out_dims = list(dims)
            out_dims[axis] = width
            inds.append(piece)
            vls.append(vals[where])
            shapes.append(torch.tensor(out_dims, dtype=torch.int64, device=shape.device))
            begin += width
        return tuple(inds) + tuple(vls) + tuple(shapes)
    return sparse_split


def _split_shape(ctx: Any) -> List[TensorShape]:
    num = ctx.attrs["num_split"]
    rank = _rank_of(ctx, 3, 1)
    return ([TensorShape([None, rank])] * num + [TensorShape([None])] * num +
            [TensorShape([rank])] * num)


declare("SparseSplit", inputs=["split_dim: int64", "indices: int64", "values: T",
                               "shape: int64"],
        outputs=["output_indices: num_split * int64", "output_values: num_split * T",
                 "output_shape: num_split * int64"],
        attrs={"num_split": Int(minimum=1), "T": Type()},
        shape=_split_shape, kernel=_split_kernel, grad="unregistered")


def sparse_split(keyword_required: Any = None, sp_input: Any = None, num_split: Any = None,
                 axis: Any = None, name: Optional[str] = None, split_dim: Any = None
                 ) -> List[SparseTensor]:
    """`tf.sparse_split` / `tf.sparse.split` (keyword arguments, as TF)."""
    if keyword_required is not None:
        raise ValueError("Keyword arguments are required for this function.")
    if sp_input is None:
        raise ValueError("sp_input is required")
    if num_split is None:
        raise ValueError("num_split is required")
    if split_dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'split_dim'")
        axis = split_dim
    if axis is None:
        raise ValueError("axis is required")
    sp_input = _as_sparse(sp_input)
    with name_scope(name, "SparseSplit") as scope:
        axis = convert_to_tensor(axis, D.int64, name="split_dim")
    outs = apply_op("SparseSplit", [axis, sp_input.indices, sp_input.values,
                                    sp_input.dense_shape], {"num_split": int(num_split)},
                    name=scope).outputs
    n = int(num_split)
    return [SparseTensor(outs[i], outs[n + i], outs[2 * n + i]) for i in range(n)]


# -- Python-built helpers -----------------------------------------------------------------

def sparse_eye(num_rows: Any, num_columns: Any = None, dtype: Any = D.float32,
               name: Optional[str] = None) -> SparseTensor:
    """`tf.sparse.eye`: a sparse identity matrix, TF's graph."""
    from tf1compat.ops.array_ops import stack
    from tf1compat.ops.creation_ops import ones, range as range_
    from tf1compat.ops.math_ops import minimum
    with name_scope(name, default_name="eye", values=[num_rows, num_columns]):
        num_rows = convert_to_tensor(num_rows, D.int64, name="num_rows")
        num_columns = num_rows if num_columns is None else convert_to_tensor(
            num_columns, D.int64, name="num_columns")
        diag_size = minimum(num_rows, num_columns)
        diag_range = range_(diag_size, dtype=D.int64)
        return SparseTensor(indices=stack([diag_range, diag_range], axis=1),
                            values=ones(diag_size, dtype=dtype),
                            dense_shape=[num_rows, num_columns])


def from_dense(tensor: Any, name: Optional[str] = None) -> SparseTensor:
    """`tf.sparse.from_dense`: the non-zero entries of a dense tensor."""
    from tf1compat.ops.array_ops import shape as shape_
    from tf1compat.ops.creation_ops import zeros_like
    from tf1compat.ops.indexing_ops import gather_nd, where
    from tf1compat.ops.math_ops import not_equal
    with name_scope(name, "dense_to_sparse"):
        tensor = convert_to_tensor(tensor)
        indices = where(not_equal(tensor, zeros_like(tensor)))
        values = gather_nd(tensor, indices)
        return SparseTensor(indices, values, shape_(tensor, out_type=D.int64))


def sparse_expand_dims(sp_input: Any, axis: Any = None, name: Optional[str] = None
                       ) -> SparseTensor:
    """`tf.sparse.expand_dims` (static rank and axis in tf1compat)."""
    from tf1compat.ops.array_ops import concat
    from tf1compat.ops.creation_ops import zeros
    from tf1compat.ops.strided_slice import slice as slice_
    sp_input = _as_sparse(sp_input)
    rank = sp_input.shape.rank
    if rank is None or isinstance(axis, Tensor):
        raise NotImplementedError("tf.sparse.expand_dims needs a static rank and a Python "
                                  "int axis in tf1compat")
    axis = -1 if axis is None else int(axis)
    with name_scope(name, default_name="expand_dims", values=[sp_input]):
        pos = axis if axis >= 0 else axis + rank + 1
        indices = sp_input.indices
        column = zeros([_nnz(indices), 1], dtype=D.int64)
        new_indices = concat([slice_(indices, [0, 0], [-1, pos]), column,
                              slice_(indices, [0, pos], [-1, -1])], axis=1)
        shape = sp_input.dense_shape
        new_shape = concat([slice_(shape, [0], [pos]),
                            convert_to_tensor([1], D.int64, name="new_shape"),
                            slice_(shape, [pos], [-1])], axis=0)
        out = SparseTensor(new_indices, sp_input.values, new_shape)
        # TF's static shape here knows only the new unit dimension.
        out._dense_shape_default = TensorShape([None] * pos + [1] + [None] * (rank - pos))
        return out


def _nnz(indices: Tensor) -> Any:
    from tf1compat.ops.array_ops import shape as shape_
    n = indices.shape[0] if indices.shape.rank else None
    n = dimension_value(n) if n is not None else None
    return n if n is not None else shape_(indices)[0]
