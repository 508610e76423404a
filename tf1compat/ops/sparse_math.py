"""Sparse-tensor ops and `tf.sparse_*` wrappers: SparseTensorDenseMatMul, SparseReduce*,
SparseAdd, SparseTensorDenseAdd, SparseConcat, SparseReshape, SparseReorder,
SparseFillEmptyRows, SparseSlice, SparseSoftmax, SparseSparseMaximum/Minimum, SparseSplit.

Kernels work on (indices [N, rank] int64, values [N], dense_shape [rank]) torch tensors.
Entries are addressed by their row-major linear index; like TF's kernels, ops that merge
or group entries assume (or produce) that canonical order. Values stay on the autograd
path (gathers, index_add, scatter_reduce), so gradients with respect to values and dense
operands come from torch autograd.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import Int, Type, declare
from tf1compat.framework.sparse_tensor import SparseTensor, SparseTensorValue
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import (TensorShape, dimension_at_index, dimension_value,
                                              unknown_shape)
from tf1compat.ops._kernels import as_int_list, static_ints
from tf1compat.ops._sparse_matmul import CsrLayout, check_index_bounds, csr_kernel_supports
from tf1compat.ops._sparse_matmul import sparse_dense_matmul as csr_sparse_dense_matmul
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops import sparse_dense_ops  # noqa: F401 - SparseTensor * and / (registers them)

__all__ = ["sparse_tensor_dense_matmul", "sparse_reduce_sum", "sparse_reduce_sum_sparse",
           "sparse_reduce_max", "sparse_reduce_max_sparse", "sparse_add", "sparse_concat",
           "sparse_reshape", "sparse_reorder", "sparse_fill_empty_rows", "sparse_slice",
           "sparse_softmax", "sparse_maximum", "sparse_minimum", "sparse_split",
           "sparse_transpose", "sparse_retain", "sparse_eye", "from_dense",
           "sparse_expand_dims"]



# -- shared helpers ---------------------------------------------------------------------

def _strides(shape: Sequence[int], device: Any) -> torch.Tensor:
    out, acc = [], 1
    for d in reversed(list(shape)):
        out.append(acc)
        acc *= int(d)
    return torch.tensor(out[::-1], dtype=torch.int64, device=device)


def _linear(idx: torch.Tensor, shape: Sequence[int]) -> torch.Tensor:
    """Row-major linear index of each entry."""
    if idx.shape[1] == 0:
        return torch.zeros(idx.shape[0], dtype=torch.int64, device=idx.device)
    return (idx.long() * _strides(shape, idx.device)).sum(1)


def _unlinear(lin: torch.Tensor, shape: Sequence[int]) -> torch.Tensor:
    strides = _strides(shape, lin.device)
    dims = torch.tensor([int(d) for d in shape], dtype=torch.int64, device=lin.device)
    return (lin.unsqueeze(1) // strides) % dims


def _canonical(idx: torch.Tensor, shape: Sequence[int]) -> torch.Tensor:
    """The permutation sorting entries into row-major order (stable)."""
    return torch.sort(_linear(idx, shape), stable=True).indices


def _rank_of(ctx: Any, shape_input: int, indices_input: Optional[int] = None
             ) -> Optional[int]:
    rank = dimension_value(ctx.shape(shape_input).with_rank(1)[0]) \
        if ctx.shape(shape_input).rank is not None else None
    if rank is None and indices_input is not None and ctx.shape(indices_input).rank == 2:
        rank = dimension_value(ctx.shape(indices_input)[1])
    return rank


def _sparse_outputs(ctx: Any, shape_input: int, indices_input: int,
                    with_shape: bool = True) -> List[TensorShape]:
    rank = _rank_of(ctx, shape_input, indices_input)
    out = [TensorShape([None, rank]), TensorShape([None])]
    if with_shape:
        out.append(TensorShape([rank]))
    return out


def _sparse(indices: Tensor, values: Tensor, dense_shape: Any) -> SparseTensor:
    return SparseTensor(indices, values, dense_shape)


def _as_sparse(x: Any) -> SparseTensor:
    if isinstance(x, SparseTensorValue):
        return SparseTensor.from_value(x)
    if not isinstance(x, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor, got {type(x)}")
    return x


# -- SparseTensorDenseMatMul -------------------------------------------------------------

def _sdmm_shape(ctx: Any) -> List[TensorShape]:
    shape = ctx.const(2)
    adj_a, adj_b = ctx.attrs["adjoint_a"], ctx.attrs["adjoint_b"]
    b = ctx.shape(3).with_rank(2) if ctx.shape(3).rank is not None else TensorShape(
        [None, None])
    m = None if shape is None else int(np.asarray(shape)[0 if not adj_a else 1])
    n = b.as_list()[0 if adj_b else 1]
    k = None if shape is None else int(np.asarray(shape)[1 if not adj_a else 0])
    kb = b.as_list()[1 if adj_b else 0]
    if k is not None and kb is not None and k != kb:
        raise ValueError(f"Dimensions must be equal, but are {k} and {kb} {node_desc(ctx)}")
    return [TensorShape([m, n])]


def _sdmm_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    adj_a, adj_b = node.attrs["adjoint_a"], node.attrs["adjoint_b"]
    # The last indices seen and their CSR layout: constant indices come back as the same
    # tensor every run, and fed ones (a GCN's sparse features and adjacency, fed each run
    # from the same arrays) as equal values; both reuse the layout. Comparing is one pass
    # over the indices, building the layout a sort and a gather.
    last: dict = {}

    def same_indices(idx: torch.Tensor, dims: List[int]) -> bool:
        seen = last.get("indices")
        if seen is None or last["dims"] != dims:
            return False
        return seen is idx or (seen.shape == idx.shape and seen.dtype == idx.dtype and
                               seen.device == idx.device and torch.equal(seen, idx))

    def sparse_dense_matmul(idx: torch.Tensor, vals: torch.Tensor, shape: torch.Tensor,
                            b: torch.Tensor) -> torch.Tensor:
        dims = as_int_list(shape)
        rows, cols = idx[:, 0].long(), idx[:, 1].long()
        if adj_a:
            rows, cols = cols, rows
            dims = dims[::-1]
            vals = vals.conj() if vals.is_complex() else vals
        if adj_b:
            b = b.mH if b.is_complex() else b.t()
        if b.shape[0] != dims[1]:
            raise errors.InvalidArgumentError(
                None, None, f"Cannot multiply A and B because inner dimension does not match: "
                            f"{dims[1]} vs. {b.shape[0]}.  Did you forget a transpose?  "
                            f"Dimensions of A: [{dims[0]}, {dims[1]}).  Dimensions of B: "
                            f"{list(b.shape)}")
        if csr_kernel_supports(b.dtype):
            if not same_indices(idx, dims):
                check_index_bounds(rows, cols, dims[0], dims[1], 1 if adj_a else 0)
                last.update(indices=idx, dims=dims,
                            layout=CsrLayout(rows, cols, dims[0], dims[1]))
            return csr_sparse_dense_matmul(last["layout"], vals.to(b.dtype), b)
        check_index_bounds(rows, cols, dims[0], dims[1], 1 if adj_a else 0)
        # Integer, complex and half types: torch's CSR kernels lack them everywhere.
        out = torch.zeros((dims[0], b.shape[1]), dtype=b.dtype, device=b.device)
        return out.index_add(0, rows, vals.unsqueeze(1).to(b.dtype) * b[cols])
    return sparse_dense_matmul


declare("SparseTensorDenseMatMul",
        inputs=["a_indices: Tindices", "a_values: T", "a_shape: int64", "b: T"],
        outputs=["product: T"],
        attrs={"T": Type(), "Tindices": Type(D.INDEX_TYPES, default=D.int64),
               "adjoint_a": False, "adjoint_b": False},
        shape=_sdmm_shape, kernel=_sdmm_kernel)


def sparse_tensor_dense_matmul(sp_a: Any, b: Any, adjoint_a: bool = False,
                               adjoint_b: bool = False, name: Optional[str] = None) -> Tensor:
    """`tf.sparse_tensor_dense_matmul` / `tf.sparse.sparse_dense_matmul`."""
    if isinstance(b, (SparseTensor, SparseTensorValue)):
        raise NotImplementedError("tf.sparse.sparse_dense_matmul of a dense matrix by a "
                                  "SparseTensor (sparse b) is not supported by tf1compat")
    sp_a = _as_sparse(sp_a)
    with name_scope(name, "SparseTensorDenseMatMul", [sp_a.indices, sp_a.values, b]):
        b = convert_to_tensor(b, name="b")
        return apply_op1("SparseTensorDenseMatMul",
                         [sp_a.indices, sp_a.values, sp_a.dense_shape, b],
                         {"adjoint_a": adjoint_a, "adjoint_b": adjoint_b})


# -- reductions --------------------------------------------------------------------------------

def _reduced_dims(shape: Sequence[int], axes: Optional[Sequence[int]]) -> List[int]:
    rank = len(shape)
    if axes is None:
        return list(range(rank))
    out = []
    for a in axes:
        if not -rank <= a < rank:
            raise errors.InvalidArgumentError(
                None, None, f"Invalid reduction dimension {a}, for input with {rank} "
                            "dimensions.")
        out.append(a % rank)
    return sorted(set(out))


def _reduce_groups(idx: torch.Tensor, dims: List[int], reduced: List[int], keep: bool):
    """(group linear index per entry, output dims) for a reduction over `reduced`."""
    kept = [d for d in range(len(dims)) if d not in reduced]
    out_dims = [1 if d in reduced else dims[d] for d in range(len(dims))] if keep else \
        [dims[d] for d in kept]
    kept_dims = [dims[d] for d in kept]
    group = _linear(idx[:, kept], kept_dims) if kept else torch.zeros(
        idx.shape[0], dtype=torch.int64, device=idx.device)
    return group, out_dims, kept, kept_dims


def _reduce_kernel(mode: str, sparse_out: bool) -> Callable[..., Any]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        keep = node.attrs["keep_dims"]
        static_axes = static_ints(node, 3)

        def run(idx: torch.Tensor, vals: torch.Tensor, shape: torch.Tensor, axes: Any):
            dims = as_int_list(shape)
            axes_list = static_axes if static_axes is not None else as_int_list(axes)
            reduced = _reduced_dims(dims, axes_list)
            group, out_dims, kept, kept_dims = _reduce_groups(idx, dims, reduced, keep)
            n = int(np.prod(kept_dims)) if kept_dims else 1
            if mode == "sum":
                flat = torch.zeros(n, dtype=vals.dtype, device=vals.device).index_add(
                    0, group, vals)
            else:
                # Max over the stored values only (implicit zeros take no part); groups
                # without entries are 0, as TF's kernel.
                flat = torch.zeros(n, dtype=vals.dtype, device=vals.device).scatter_reduce(
                    0, group, vals, "amax", include_self=False)
            if not sparse_out:
                return flat.reshape(out_dims)
            present = torch.zeros(n, dtype=torch.bool, device=vals.device)
            present[group] = True
            where = torch.nonzero(present).reshape(-1)
            kept_idx = _unlinear(where, kept_dims) if kept_dims else torch.zeros(
                (where.shape[0], 0), dtype=torch.int64, device=vals.device)
            if keep:
                full = torch.zeros((where.shape[0], len(dims)), dtype=torch.int64,
                                   device=vals.device)
                if kept:
                    full[:, kept] = kept_idx
                kept_idx = full
            out_shape = torch.tensor(out_dims, dtype=torch.int64, device=shape.device)
            return kept_idx, flat[where], out_shape
        return run
    return factory


def _reduce_shape(sparse_out: bool) -> Callable[[Any], List[TensorShape]]:
    def rule(ctx: Any) -> List[TensorShape]:
        keep = ctx.attrs["keep_dims"]
        if sparse_out:
            return [unknown_shape()] * 3     # TF infers nothing for the sparse forms
        shape, axes = ctx.const(2), ctx.const(3)
        if shape is None or axes is None:
            rank = _rank_of(ctx, 2, 0)
            if axes is not None and rank is not None:
                n = len({int(a) % rank for a in np.asarray(axes).reshape(-1)}) \
                    if np.asarray(axes).size else rank
                return [TensorShape([None] * (rank if keep else rank - n))]
            return [unknown_shape()]
        dims = [int(d) for d in np.asarray(shape).reshape(-1)]
        axes_list = [int(a) for a in np.asarray(axes).reshape(-1)]
        reduced = [a % len(dims) for a in axes_list] if axes_list else list(range(len(dims)))
        if keep:
            return [TensorShape([1 if d in reduced else s for d, s in enumerate(dims)])]
        return [TensorShape([s for d, s in enumerate(dims) if d not in reduced])]
    return rule


for _type, _mode, _sparse_out, _grad in (
        ("SparseReduceSum", "sum", False, "autograd"),
        ("SparseReduceSumSparse", "sum", True, "unregistered"),
        ("SparseReduceMax", "max", False, "unregistered"),
        ("SparseReduceMaxSparse", "max", True, "unregistered")):
    declare(_type, inputs=["input_indices: int64", "input_values: T", "input_shape: int64",
                           "reduction_axes: int32"],
            outputs=(["output_indices: int64", "output_values: T", "output_shape: int64"]
                     if _sparse_out else ["output: T"]),
            attrs={"keep_dims": False, "T": Type()},
            shape=_reduce_shape(_sparse_out), kernel=_reduce_kernel(_mode, _sparse_out),
            grad=_grad)


def _reduce_wrapper(op_type: str, sparse_out: bool, doc: str) -> Callable[..., Any]:
    def fn(sp_input: Any, axis: Any = None, keepdims: Any = None,
           reduction_axes: Any = None, keep_dims: Any = None, name: Optional[str] = None
           ) -> Any:
        from tf1compat.ops.creation_ops import range as range_
        sp_input = _as_sparse(sp_input)
        if reduction_axes is not None:
            if axis is not None:
                raise ValueError("Cannot specify both 'axis' and 'reduction_axes'")
            axis = reduction_axes
        if keep_dims is not None:
            if keepdims is not None:
                raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'")
            keepdims = keep_dims
        keepdims = bool(keepdims)
        if axis is None:
            rank = sp_input.shape.rank
            if rank is not None:
                axis = convert_to_tensor(np.arange(rank, dtype=np.int32))
            else:
                from tf1compat.ops.array_ops import size
                axis = range_(0, size(sp_input.dense_shape))
        op = apply_op(op_type, [sp_input.indices, sp_input.values, sp_input.dense_shape,
                                axis], {"keep_dims": keepdims}, name=name)
        if sparse_out:
            return SparseTensor(*op.outputs)
        return op.outputs[0]
    fn.__name__ = op_type
    fn.__doc__ = doc
    return fn


sparse_reduce_sum = _reduce_wrapper("SparseReduceSum", False,
                                    "`tf.sparse_reduce_sum` / `tf.sparse.reduce_sum`.")
sparse_reduce_sum_sparse = _reduce_wrapper("SparseReduceSumSparse", True,
                                           "`tf.sparse_reduce_sum_sparse`.")
sparse_reduce_max = _reduce_wrapper("SparseReduceMax", False,
                                    "`tf.sparse_reduce_max`: max of the stored values "
                                    "(implicit zeros take no part; empty groups are 0).")
sparse_reduce_max_sparse = _reduce_wrapper("SparseReduceMaxSparse", True,
                                           "`tf.sparse_reduce_max_sparse`.")


# -- adds ----------------------------------------------------------------------------------

def _is_increasing(lin: torch.Tensor) -> bool:
    return bool((lin[1:] > lin[:-1]).all()) if lin.shape[0] > 1 else True


def merge_positions(a_lin: torch.Tensor, b_lin: torch.Tensor,
                    keep_both: Callable[[int, int], bool]) -> tuple:
    """The positions TF's sparse-sparse kernels take from each operand, merging both index
    lists in one pass as given (smaller linear index first; equal indices together, kept
    where `keep_both(i, j)`), so unordered operands keep their order as in TF. Returns two
    int64 tensors of positions, -1 where that operand has no entry."""
    a_list, b_list = a_lin.tolist(), b_lin.tolist()
    take_a: List[int] = []
    take_b: List[int] = []
    i = j = 0
    while i < len(a_list) and j < len(b_list):
        if a_list[i] < b_list[j]:
            take_a.append(i)
            take_b.append(-1)
            i += 1
        elif a_list[i] > b_list[j]:
            take_a.append(-1)
            take_b.append(j)
            j += 1
        else:
            if keep_both(i, j):
                take_a.append(i)
                take_b.append(j)
            i += 1
            j += 1
    take_a += list(range(i, len(a_list)))
    take_b += [-1] * (len(a_list) - i)
    take_a += [-1] * (len(b_list) - j)
    take_b += list(range(j, len(b_list)))
    device = a_lin.device
    return (torch.tensor(take_a, dtype=torch.int64, device=device),
            torch.tensor(take_b, dtype=torch.int64, device=device))


def gather_merged(lin_a: torch.Tensor, vals_a: torch.Tensor, lin_b: torch.Tensor,
                  vals_b: torch.Tensor, ia: torch.Tensor, ib: torch.Tensor) -> tuple:
    """The merged linear indices and each operand's values at `merge_positions`' positions
    (0 where an operand has no entry)."""
    has_a, has_b = ia >= 0, ib >= 0
    zero = torch.zeros((), dtype=vals_a.dtype, device=vals_a.device)
    a_at = torch.where(has_a, vals_a[ia.clamp(min=0)], zero) if lin_a.numel() else \
        torch.zeros(ia.shape, dtype=vals_a.dtype, device=vals_a.device)
    b_at = torch.where(has_b, vals_b.to(vals_a.dtype)[ib.clamp(min=0)], zero) \
        if lin_b.numel() else torch.zeros(ib.shape, dtype=vals_a.dtype, device=vals_a.device)
    lin = torch.where(has_a, lin_a[ia.clamp(min=0)] if lin_a.numel() else ia,
                      lin_b[ib.clamp(min=0)] if lin_b.numel() else ib)
    return lin, a_at, b_at


def _merge_unordered(a_lin: torch.Tensor, a_vals: torch.Tensor, b_lin: torch.Tensor,
                     b_vals: torch.Tensor, thresh: torch.Tensor, dims: List[int],
                     shape: torch.Tensor) -> tuple:
    """SparseAdd of operands whose indices are not in canonical order, as TF computes it:
    one pass merging both lists as given, equal indices summed, so the output keeps the
    operands' order (GAT's sparse attention adds two tensors that share an unordered index
    list)."""
    limit = float(thresh)
    a_vals_list, b_vals_list = a_vals.detach().tolist(), b_vals.detach().tolist()
    ia, ib = merge_positions(
        a_lin, b_lin, lambda i, j: abs(a_vals_list[i] + b_vals_list[j]) >= limit)
    lin, a_at, b_at = gather_merged(a_lin, a_vals, b_lin, b_vals, ia, ib)
    return _unlinear(lin, dims), a_at + b_at, shape.clone()


def _sparse_add_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def sparse_add(a_idx: torch.Tensor, a_vals: torch.Tensor, a_shape: torch.Tensor,
                   b_idx: torch.Tensor, b_vals: torch.Tensor, b_shape: torch.Tensor,
                   thresh: torch.Tensor) -> tuple:
        dims = as_int_list(a_shape)
        if dims != as_int_list(b_shape):
            raise errors.InvalidArgumentError(
                None, None, f"Operands do not have the same ranks; got shapes: "
                            f"{as_int_list(a_shape)} and {as_int_list(b_shape)}")
        a_lin, b_lin = _linear(a_idx, dims), _linear(b_idx, dims)
        if not (_is_increasing(a_lin) and _is_increasing(b_lin)):
            return _merge_unordered(a_lin, a_vals, b_lin, b_vals, thresh, dims, a_shape)
        lin = torch.cat([a_lin, b_lin])
        vals = torch.cat([a_vals, b_vals.to(a_vals.dtype)])
        uniq, inverse, counts = torch.unique(lin, sorted=True, return_inverse=True,
                                             return_counts=True)
        summed = torch.zeros(uniq.shape[0], dtype=vals.dtype, device=vals.device).index_add(
            0, inverse, vals)
        # TF drops an entry only where both operands had one and |sum| < thresh.
        keep = (counts < 2) | (summed.abs() >= thresh.to(summed.real.dtype
                                                        if summed.is_complex() else
                                                        summed.dtype))
        where = torch.nonzero(keep).reshape(-1)
        return _unlinear(uniq[where], dims), summed[where], a_shape.clone()
    return sparse_add


declare("SparseAdd", inputs=["a_indices: int64", "a_values: T", "a_shape: int64",
                             "b_indices: int64", "b_values: T", "b_shape: int64",
                             "thresh: Treal"],
        outputs=["sum_indices: int64", "sum_values: T", "sum_shape: int64"],
        attrs={"T": Type(), "Treal": Type()},
        shape=lambda ctx: _sparse_outputs(ctx, 2, 0), kernel=_sparse_add_kernel)


def _dense_add_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def sparse_dense_add(idx: torch.Tensor, vals: torch.Tensor, shape: torch.Tensor,
                         b: torch.Tensor) -> torch.Tensor:
        dims = as_int_list(shape)
        if list(b.shape) != dims:
            raise errors.InvalidArgumentError(
                None, None, f"Dimension mismatch: expected shape {dims} but got "
                            f"{list(b.shape)}")
        flat = b.reshape(-1).index_add(0, _linear(idx, dims), vals.to(b.dtype))
        return flat.reshape(b.shape)
    return sparse_dense_add


declare("SparseTensorDenseAdd", inputs=["a_indices: Tindices", "a_values: T",
                                        "a_shape: Tindices", "b: T"],
        outputs=["output: T"], attrs={"T": Type(), "Tindices": Type(D.INDEX_TYPES)},
        shape=lambda ctx: [ctx.shape(3)], kernel=_dense_add_kernel)


def sparse_add(a: Any, b: Any, threshold: Any = None, thresh: Any = None) -> Any:
    """`tf.sparse_add` / `tf.sparse.add`: a SparseTensor for two sparse operands, a dense
    Tensor when one is dense."""
    if threshold is not None and thresh is not None:
        raise ValueError("Cannot specify both 'threshold' and 'thresh'")
    threshold = thresh if threshold is None else threshold
    threshold = 0 if threshold is None else threshold
    classes = (SparseTensor, SparseTensorValue)
    if not any(isinstance(x, classes) for x in (a, b)):
        raise TypeError("At least one input should be SparseTensor; do you mean to use "
                        "tf.add()?")
    if isinstance(a, classes) and isinstance(b, classes):
        a, b = _as_sparse(a), _as_sparse(b)
        real = a.values.dtype.real_dtype if hasattr(a.values.dtype, "real_dtype") else \
            a.values.dtype
        threshold = convert_to_tensor(threshold, dtype=real.base_dtype, name="threshold")
        ind, val, shape = apply_op("SparseAdd", [a.indices, a.values, a.dense_shape,
                                                 b.indices, b.values, b.dense_shape,
                                                 threshold]).outputs
        a.shape.assert_is_compatible_with(b.shape)
        static = a.shape.merge_with(b.shape)
        if static.is_fully_defined():
            shape = static.as_list()
        return SparseTensor(ind, val, shape)
    if isinstance(b, classes):
        a, b = b, a
    a = _as_sparse(a)
    return apply_op1("SparseTensorDenseAdd", [a.indices, a.values, a.dense_shape, b])


# -- concat, reshape, reorder -------------------------------------------------------------

def _concat_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    n = node.attrs["N"]
    axis_attr = node.attrs["concat_dim"]

    def sparse_concat(*args: torch.Tensor) -> tuple:
        inds, vals, shapes = args[:n], args[n:2 * n], args[2 * n:]
        dims = [as_int_list(s) for s in shapes]
        rank = len(dims[0])
        axis = axis_attr % rank if -rank <= axis_attr < rank else None
        if axis is None:
            raise errors.InvalidArgumentError(
                None, None, f"Concat dimension must be in range [{-rank}, {rank}), got "
                            f"{axis_attr}")
        for d in dims[1:]:
            if len(d) != rank or any(x != y for k, (x, y) in enumerate(zip(d, dims[0]))
                                     if k != axis):
                raise errors.InvalidArgumentError(
                    None, None, "All SparseTensors' shapes must match except on the "
                                "concat dimension")
        out_dims = list(dims[0])
        out_dims[axis] = sum(d[axis] for d in dims)
        shifted, offset = [], 0
        for idx, d in zip(inds, dims):
            idx = idx.clone()
            idx[:, axis] += offset
            offset += d[axis]
            shifted.append(idx)
        idx = torch.cat(shifted)
        val = torch.cat(vals)
        order = _canonical(idx, out_dims)
        return idx[order], val[order], torch.tensor(out_dims, dtype=torch.int64,
                                                    device=shapes[0].device)
    return sparse_concat


def _concat_shape(ctx: Any) -> List[TensorShape]:
    n = ctx.attrs["N"]
    total = 0
    for i in range(n):
        d = ctx.shape(i).as_list()[0] if ctx.shape(i).rank == 2 else None
        total = None if d is None or total is None else total + d
    rank = _rank_of(ctx, 2 * n, 0)
    return [TensorShape([total, rank]), TensorShape([total]), TensorShape([rank])]


declare("SparseConcat", inputs=["indices: N * int64", "values: N * T", "shapes: N * int64"],
        outputs=["output_indices: int64", "output_values: T", "output_shape: int64"],
        attrs={"concat_dim": 0, "N": Int(minimum=2), "T": Type()},
        shape=_concat_shape, kernel=_concat_kernel, grad="none")


def sparse_concat(axis: Any, sp_inputs: Sequence[Any], name: Optional[str] = None,
                  expand_nonconcat_dim: bool = False, concat_dim: Any = None,
                  expand_nonconcat_dims: Any = None) -> SparseTensor:
    """`tf.sparse_concat` / `tf.sparse.concat` (without expand_nonconcat_dim)."""
    if concat_dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'concat_dim'")
        axis = concat_dim
    if expand_nonconcat_dims is not None:
        expand_nonconcat_dim = expand_nonconcat_dims
    if expand_nonconcat_dim:
        raise NotImplementedError("tf.sparse_concat(expand_nonconcat_dim=True) is not "
                                  "supported by tf1compat")
    if not isinstance(sp_inputs, (list, tuple)):
        raise TypeError("Inputs must be a list")
    sp_inputs = [_as_sparse(s) for s in sp_inputs]
    if len(sp_inputs) == 1:
        return sp_inputs[0]
    ind, val, shape = apply_op(
        "SparseConcat", [[s.indices for s in sp_inputs], [s.values for s in sp_inputs],
                         [s.dense_shape for s in sp_inputs]],
        {"concat_dim": int(axis)}, name=name).outputs
    shapes = [s.shape for s in sp_inputs]
    if all(s.rank is not None for s in shapes):
        static = shapes[0].as_list()
        parts = [s.as_list()[axis] for s in shapes]
        static[axis] = None if None in parts else sum(parts)
    else:
        static = None
    if all(s.is_fully_defined() for s in shapes):
        return SparseTensor(ind, val, convert_to_tensor(static, dtype=D.int64))
    out = SparseTensor(ind, val, shape)
    if static is not None:
        out._dense_shape_default = TensorShape(static)
    return out


def _reshape_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def sparse_reshape(idx: torch.Tensor, shape: torch.Tensor, new_shape: torch.Tensor
                       ) -> tuple:
        dims = as_int_list(shape)
        target = as_int_list(new_shape)
        total = int(np.prod(dims)) if dims else 1
        unknown = [i for i, d in enumerate(target) if d == -1]
        if len(unknown) > 1:
            raise errors.InvalidArgumentError(
                None, None, f"only one output dimension may be -1, not both {unknown[0]} "
                            f"and {unknown[1]}")
        if unknown:
            known = int(np.prod([d for d in target if d != -1])) if len(target) > 1 else 1
            if known == 0 or total % known:
                raise errors.InvalidArgumentError(
                    None, None, f"Input to reshape is a SparseTensor with {total} dense "
                                f"values, but the requested shape requires a multiple of "
                                f"{known}. inputShape={dims} outputShape={target}")
            target[unknown[0]] = total // known
        if int(np.prod(target)) != total:
            raise errors.InvalidArgumentError(
                None, None, f"Input to reshape is a tensor with {total} dense values, but "
                            f"the requested shape has {int(np.prod(target))}. "
                            f"inputShape={dims} outputShape={target}")
        out = _unlinear(_linear(idx, dims), target) if target else torch.zeros(
            (idx.shape[0], 0), dtype=torch.int64, device=idx.device)
        return out, torch.tensor(target, dtype=torch.int64, device=shape.device)
    return sparse_reshape


def _reshape_shape(ctx: Any) -> List[TensorShape]:
    n = ctx.shape(0).as_list()[0] if ctx.shape(0).rank == 2 else None
    rank = dimension_value(ctx.shape(2)[0]) if ctx.shape(2).rank == 1 else None
    return [TensorShape([n, rank]), TensorShape([rank])]


declare("SparseReshape", inputs=["input_indices: int64", "input_shape: int64",
                                 "new_shape: int64"],
        outputs=["output_indices: int64", "output_shape: int64"],
        shape=_reshape_shape, kernel=_reshape_kernel, grad="none")


def sparse_reshape(sp_input: Any, shape: Any, name: Optional[str] = None) -> SparseTensor:
    """`tf.sparse_reshape` / `tf.sparse.reshape`."""
    from tf1compat.framework.constant_value import constant_value, constant_value_as_shape
    from tf1compat.ops.array_ops import identity
    from tf1compat.ops.math_ops import cast
    sp_input = _as_sparse(sp_input)
    shape = convert_to_tensor(shape)
    if shape.dtype != D.int64:
        shape = cast(shape, D.int64)
    with name_scope(name, "SparseReshape", [sp_input]) as scope:
        ind, out_shape = apply_op("SparseReshape", [sp_input.indices, sp_input.dense_shape,
                                                    shape], name=scope).outputs
        target = constant_value_as_shape(shape)
        target = target.as_list() if target.rank is not None else None
        if target is not None and sp_input.shape.is_fully_defined():
            user = constant_value(shape)
            if user is not None and sum(int(d) == -1 for d in np.asarray(user)) > 1:
                raise ValueError("At most one dimension can be inferred (-1). Found: %s"
                                 % user)
            original = list(target)
            size = int(np.prod(sp_input.shape.as_list()))
            implied = sum(d is None for d in target)
            if implied == 1 and 0 not in target:
                i = original.index(None)
                rest = original[:i] + original[i + 1:]
                target[i] = int(size // np.prod(rest))
            if implied == 0 or (implied == 1 and 0 not in target):
                if int(np.prod(target)) != size:
                    raise ValueError("Cannot reshape a tensor with %d elements to shape %s "
                                     "(%d elements)." % (size, original,
                                                         int(np.prod(target))))
                out_shape = convert_to_tensor(np.asarray(target, np.int64), dtype=D.int64)
        return SparseTensor(ind, identity(sp_input.values), out_shape)


def _reorder_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def sparse_reorder(idx: torch.Tensor, vals: torch.Tensor, shape: torch.Tensor) -> tuple:
        order = _canonical(idx, as_int_list(shape))
        return idx[order], vals[order]
    return sparse_reorder


declare("SparseReorder", inputs=["input_indices: int64", "input_values: T",
                                 "input_shape: int64"],
        outputs=["output_indices: int64", "output_values: T"], attrs={"T": Type()},
        shape=lambda ctx: [ctx.shape(0), ctx.shape(1)], kernel=_reorder_kernel)


def sparse_reorder(sp_input: Any, name: Optional[str] = None) -> SparseTensor:
    """`tf.sparse_reorder` / `tf.sparse.reorder`: entries in row-major order."""
    sp_input = _as_sparse(sp_input)
    ind, val = apply_op("SparseReorder", [sp_input.indices, sp_input.values,
                                          sp_input.dense_shape], name=name).outputs
    if sp_input.shape.is_fully_defined():
        return SparseTensor(ind, val, sp_input.shape.as_list())
    out = SparseTensor(ind, val, sp_input.dense_shape)
    out._dense_shape_default = sp_input.shape
    return out


def sparse_transpose(sp_input: Any, perm: Any = None, name: Optional[str] = None
                     ) -> SparseTensor:
    """`tf.sparse_transpose` / `tf.sparse.transpose`, with TF's graph."""
    from tf1compat.ops.array_ops import rank as rank_
    from tf1compat.ops.creation_ops import range as range_
    from tf1compat.ops.indexing_ops import gather
    from tf1compat.ops.transform_ops import transpose
    sp_input = _as_sparse(sp_input)
    with name_scope(name, "SparseTranspose", [sp_input]):
        if perm is None:
            rank = sp_input.shape.rank
            if rank is not None:
                perm = list(range(rank - 1, -1, -1))
            else:
                r = rank_(sp_input)
                perm = (r - 1) - range_(0, r, 1)
        indices = sp_input.indices
        transposed_indices = transpose(gather(transpose(indices), perm, axis=0))
        perm_ = np.asarray(perm) if not isinstance(perm, Tensor) else None
        static = sp_input.shape
        if perm_ is not None and static.is_fully_defined():
            dense_shape = [static.as_list()[int(p)] for p in perm_]
        else:
            dense_shape = gather(sp_input.dense_shape, perm)
        transposed = SparseTensor(transposed_indices, sp_input.values, dense_shape)
        transposed = sparse_reorder(transposed)
        if perm_ is not None and static.rank is not None:
            transposed._dense_shape_default = TensorShape(
                [static.as_list()[int(p)] for p in perm_])
        return transposed


def sparse_retain(sp_input: Any, to_retain: Any) -> SparseTensor:
    """`tf.sparse_retain` / `tf.sparse.retain`: the entries where `to_retain` is True."""
    from tf1compat.ops.array_ops import identity, reshape
    from tf1compat.ops.indexing_ops import gather, where
    sp_input = _as_sparse(sp_input)
    to_retain = convert_to_tensor(to_retain)
    retain_shape = to_retain.shape
    retain_shape.assert_has_rank(1)
    if sp_input.values.shape.rank is not None:
        sp_input.values.shape.dims[0].assert_is_compatible_with(
            dimension_at_index(retain_shape, 0))
    where_true = reshape(where(to_retain), [-1])
    new_indices = gather(sp_input.indices, where_true)
    new_values = gather(sp_input.values, where_true)
    return SparseTensor(new_indices, new_values, identity(sp_input.dense_shape))
