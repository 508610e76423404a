"""Embedding lookups: embedding_lookup (one tensor or a list of shards, 'mod'/'div'
partitioning, max_norm), embedding_lookup_sparse, and the ops they build on:
DynamicPartition, DynamicStitch / ParallelDynamicStitch and SparseSegmentSum/Mean/SqrtN.

The wrappers build TF's graphs (a sharded lookup is DynamicPartition -> GatherV2 per
shard -> ParallelDynamicStitch -> Reshape); the kernels are differentiable torch code.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import (apply_op, apply_op1, colocate_with,
                                       get_default_graph, name_scope)
from tf1compat.framework.op_def import Int, Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops._kernels import any_true
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops.creation_ops import range as _range
from tf1compat.ops.indexing_ops import gather, unique, where
from tf1compat.ops.reduction_ops import clip_by_norm, reduce_sum, segment_sum

__all__ = ["dynamic_partition", "dynamic_stitch", "parallel_dynamic_stitch",
           "sparse_segment_sum", "sparse_segment_mean", "sparse_segment_sqrt_n",
           "embedding_lookup", "embedding_lookup_sparse"]



# -- DynamicPartition / DynamicStitch ---------------------------------------------------------

def _partition_shape(ctx: Any) -> List[TensorShape]:
    data, parts = ctx.shape(0), ctx.shape(1)
    n = ctx.attrs["num_partitions"]
    if data.rank is None or parts.rank is None:
        return [unknown_shape() for _ in range(n)]
    if not TensorShape(data.as_list()[:parts.rank]).is_compatible_with(parts):
        raise ValueError(f"Dimensions must be equal {node_desc(ctx)}")
    out = TensorShape([None] + data.as_list()[parts.rank:])
    return [out for _ in range(n)]


def _partition_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    n = node.attrs["num_partitions"]

    def partition(data: torch.Tensor, parts: torch.Tensor) -> tuple:
        if parts.numel() and any_true((parts < 0) | (parts >= n)):
            flat = parts.reshape(-1)
            bad = int(torch.nonzero((flat < 0) | (flat >= n))[0, 0])
            raise errors.InvalidArgumentError(
                None, None, f"partitions[{bad}] = {int(flat[bad])} is not in [0, {n})")
        lead = parts.dim()
        rows = data.reshape((-1,) + tuple(data.shape[lead:]))
        flat = parts.reshape(-1)
        return tuple(rows[flat == i] for i in range(n))
    return partition


declare("DynamicPartition", inputs=["data: T", "partitions: int32"],
        outputs=["outputs: num_partitions * T"],
        attrs={"num_partitions": Int(1), "T": Type()},
        shape=_partition_shape, kernel=_partition_kernel)


def _stitch_shape(ctx: Any) -> List[TensorShape]:
    n = ctx.attrs["N"]
    idx_shapes = [ctx.shape(i) for i in range(n)]
    data_shapes = [ctx.shape(n + i) for i in range(n)]
    element = None
    for ishape, dshape in zip(idx_shapes, data_shapes):
        if ishape.rank is None or dshape.rank is None:
            continue
        rest = TensorShape(dshape.as_list()[ishape.rank:])
        if element is not None and not element.is_compatible_with(rest):
            raise ValueError(f"Dimensions must be equal {node_desc(ctx)}")
        element = rest if element is None else element.merge_with(rest)
    if element is None:
        return [unknown_shape()]
    # With every index known at graph build, the size is the largest index + 1.
    size = None
    values = [ctx.const(i) for i in range(n)]
    if all(v is not None for v in values):
        size = max([int(v.max()) + 1 for v in values if v.size] + [0])
    return [TensorShape([size] + element.as_list())]


def _stitch_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    n = node.attrs["N"]

    def stitch(*args: torch.Tensor) -> torch.Tensor:
        indices, data = args[:n], args[n:]
        size = 0
        for idx in indices:
            if idx.numel():
                size = max(size, int(idx.max()) + 1)
        first = data[0]
        element = tuple(first.shape[indices[0].dim():])
        out = torch.zeros((size,) + element, dtype=first.dtype, device=first.device)
        # Later inputs win on duplicate indices, as in TF's DynamicStitch.
        for idx, d in zip(indices, data):
            if idx.numel():
                out = out.index_put((idx.reshape(-1).long(),), d.reshape((-1,) + element))
        return out
    return stitch


for _stitch in ("DynamicStitch", "ParallelDynamicStitch"):
    declare(_stitch, inputs=["indices: N * int32", "data: N * T"], outputs=["merged: T"],
            attrs={"N": Int(1), "T": Type()}, shape=_stitch_shape, kernel=_stitch_kernel)


def dynamic_partition(data: Any, partitions: Any, num_partitions: int,
                      name: Optional[str] = None) -> List[Tensor]:
    """`tf.dynamic_partition`: splits `data` into `num_partitions` by `partitions`."""
    return list(apply_op("DynamicPartition", [data, partitions],
                         {"num_partitions": int(num_partitions)}, name=name)._outputs)


def dynamic_stitch(indices: Sequence[Any], data: Sequence[Any],
                   name: Optional[str] = None) -> Tensor:
    """`tf.dynamic_stitch`: interleaves `data` so that merged[indices[m][i]] = data[m][i]."""
    return apply_op1("DynamicStitch", [list(indices), list(data)], name=name)


def parallel_dynamic_stitch(indices: Sequence[Any], data: Sequence[Any],
                            name: Optional[str] = None) -> Tensor:
    return apply_op1("ParallelDynamicStitch", [list(indices), list(data)], name=name)


# -- SparseSegment{Sum,Mean,SqrtN} ----------------------------------------------------------------

def _sparse_segment_shape(ctx: Any) -> List[TensorShape]:
    data, idx, seg = ctx.shape(0), ctx.shape(1), ctx.shape(2)
    for s in (idx, seg):
        if s.rank is not None and s.rank != 1:
            raise ValueError(f"Shape must be rank 1 but is rank {s.rank} {node_desc(ctx)}")
    if data.rank is None:
        return [unknown_shape()]
    return [TensorShape([None] + data.as_list()[1:])]


def _sparse_segment_num_shape(ctx: Any) -> List[TensorShape]:
    shape = _sparse_segment_shape(ctx)[0]
    num = ctx.shape(3)
    if num.rank not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {num.rank} {node_desc(ctx)}")
    if shape.rank is None:
        return [shape]
    rows = ctx.const(3)
    return [TensorShape([None if rows is None else int(rows)] + shape.as_list()[1:])]


_BAG_DTYPES = (torch.float32, torch.float64, torch.float16, torch.bfloat16)


def _segment_bag(data: torch.Tensor, indices: torch.Tensor, segs: torch.Tensor, num: int,
                 mode: str) -> torch.Tensor:
    """Sorted-segment sum/mean/sqrtn of data[indices] in one pass: torch's embedding_bag
    (one fused gather-and-reduce kernel, ~3-4x the gather + index_add pair it replaces).
    Segment s is the bag starting at the first entry whose id is >= s; empty bags give
    zero rows, as TF's empty segments."""
    table = data.reshape(data.shape[0], -1)
    segs = segs.contiguous()     # (searchsorted warns about, and copies, a strided one)
    offsets = torch.searchsorted(segs, torch.arange(num, device=segs.device))
    if mode == "sqrtn":
        counts = torch.bincount(segs, minlength=num).to(data.dtype)
        weights = counts.rsqrt()[segs]
        out = torch.nn.functional.embedding_bag(indices, table, offsets, mode="sum",
                                                per_sample_weights=weights)
    else:
        out = torch.nn.functional.embedding_bag(indices, table, offsets, mode=mode)
    return out.reshape((num,) + tuple(data.shape[1:]))


def _sparse_segment_kernel(mode: str) -> Callable[[Any, Any], Callable]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        def run(data: torch.Tensor, indices: torch.Tensor, segs: torch.Tensor,
                num_segments: Any = None) -> torch.Tensor:
            n = data.shape[0]
            if indices.numel() and (bool((indices < 0).any()) or
                                    bool((indices >= n).any())):
                bad = int(torch.nonzero((indices < 0) | (indices >= n))[0, 0])
                raise errors.InvalidArgumentError(
                    None, None, f"Index {int(indices[bad])} out of range [0, {n}).")
            if segs.numel() > 1 and bool((segs[1:] < segs[:-1]).any()):
                raise errors.InvalidArgumentError(None, None,
                                                  "segment ids are not increasing")
            num = int(segs[-1]) + 1 if segs.numel() else 0
            if num_segments is not None:
                # The WithNumSegments forms: num_segments rows, the ones past the last
                # id empty (zeros), as TF's kernel.
                if num > int(num_segments):
                    raise errors.InvalidArgumentError(
                        None, None, "segment ids must be < num_segments")
                num = int(num_segments)
            if data.dtype in _BAG_DTYPES and data.dim() >= 1 and num:
                return _segment_bag(data, indices.long(), segs.long(), num, mode)
            rows = data.index_select(0, indices.long())
            out = torch.zeros((num,) + tuple(data.shape[1:]), dtype=data.dtype,
                              device=data.device)
            out = out.index_add(0, segs.long(), rows)
            if mode == "sum":
                return out
            counts = torch.zeros(num, dtype=data.dtype, device=data.device).index_add(
                0, segs.long(), torch.ones_like(segs, dtype=data.dtype))
            denom = counts if mode == "mean" else torch.sqrt(counts)
            denom = torch.where(counts > 0, denom, torch.ones_like(denom))
            return out / denom.reshape((-1,) + (1,) * (data.dim() - 1))
        return run
    return factory


for _op_type, _mode in (("SparseSegmentSum", "sum"), ("SparseSegmentMean", "mean"),
                        ("SparseSegmentSqrtN", "sqrtn")):
    declare(_op_type, inputs=["data: T", "indices: Tidx", "segment_ids: Tsegmentids"],
            outputs=["output: T"],
            attrs={"T": Type(math_ops.REAL if _mode == "sum" else math_ops.FLOAT),
                   "Tidx": Type(D.INDEX_TYPES, default=D.int32),
                   "Tsegmentids": Type(D.INDEX_TYPES, default=D.int32), "sparse_gradient": False},
            shape=_sparse_segment_shape, kernel=_sparse_segment_kernel(_mode))
    declare(f"{_op_type}WithNumSegments",
            inputs=["data: T", "indices: Tidx", "segment_ids: Tsegmentids",
                    "num_segments: Tnumsegments"],
            outputs=["output: T"],
            attrs={"T": Type(math_ops.REAL if _mode == "sum" else math_ops.FLOAT),
                   "Tidx": Type(D.INDEX_TYPES, default=D.int32),
                   "Tnumsegments": Type(D.INDEX_TYPES, default=D.int32),
                   "Tsegmentids": Type(D.INDEX_TYPES, default=D.int32), "sparse_gradient": False},
            shape=_sparse_segment_num_shape, kernel=_sparse_segment_kernel(_mode),
            doc=f"{_op_type} with num_segments output rows (tf.sparse.segment_* of "
                "num_segments; embedding_lookup_sparse's empty trailing rows).")


def _sparse_segment(op_type: str) -> Callable[..., Tensor]:
    def wrapper(data: Any, indices: Any, segment_ids: Any, name: Optional[str] = None,
                num_segments: Any = None, sparse_gradient: bool = False) -> Tensor:
        attrs = {"sparse_gradient": bool(sparse_gradient)}
        if num_segments is not None:
            return apply_op1(f"{op_type}WithNumSegments",
                             [data, indices, segment_ids, num_segments], attrs, name=name)
        return apply_op1(op_type, [data, indices, segment_ids], attrs, name=name)
    return wrapper


sparse_segment_sum = _sparse_segment("SparseSegmentSum")
sparse_segment_mean = _sparse_segment("SparseSegmentMean")
sparse_segment_sqrt_n = _sparse_segment("SparseSegmentSqrtN")


# -- embedding_lookup ---------------------------------------------------------------------------

def _clip(params: Tensor, ids: Tensor, max_norm: Any) -> Tensor:
    if max_norm is None:
        return params
    ids_rank, params_rank = ids.shape.rank, params.shape.rank
    if ids_rank and params_rank:
        axes: Any = list(range(ids_rank, params_rank))
    else:
        axes = _range(ids_rank if ids_rank else array_ops.rank(ids),
                      params_rank if params_rank else array_ops.rank(params))
    return clip_by_norm(params, max_norm, axes=axes)


def _colocate_with(param: Any) -> Any:
    """TF's embedding_ops._colocate_with: inside a function graph a variable (made
    eagerly, so it has no op there) is colocated with through its captured handle."""
    from tf1compat.framework.func_graph import FuncGraph
    if isinstance(get_default_graph(), FuncGraph) and hasattr(param, "handle"):
        return colocate_with(convert_to_tensor(param.handle))
    return colocate_with(param)


def embedding_lookup(params: Any, ids: Any, partition_strategy: str = "mod",
                     name: Optional[str] = None, validate_indices: bool = True,
                     max_norm: Any = None) -> Tensor:
    """`tf.nn.embedding_lookup`: rows of `params` (or of its shards, partitioned by 'mod'
    or 'div') for `ids`, optionally clipped to L2 norm `max_norm`."""
    if params is None:
        raise ValueError("params must be specified")
    if isinstance(params, (list, tuple)) and not params:
        raise ValueError("Length of params is currently 0. Need at least one param.")
    if hasattr(params, "_get_variable_list"):       # PartitionedVariable
        params = list(params)
    if not isinstance(params, list):
        params = list(params) if isinstance(params, tuple) else [params]
    with name_scope(name, "embedding_lookup", params + [ids]) as scope:
        n = len(params)
        # As TF, resource variables stay variables so that gather reads them sparsely.
        if not any(getattr(p, "_is_resource_variable", False) for p in params):
            params = [convert_to_tensor(p, name="params") if not isinstance(p, Tensor) else p
                      for p in params]
        ids = convert_to_tensor(ids, name="ids")
        if n == 1:
            with _colocate_with(params[0]):
                result = _clip(gather(params[0], ids, name=scope), ids, max_norm)
            return array_ops.identity(result)
        flat_ids = array_ops.reshape(ids, [-1])
        original_indices = _range(array_ops.size(flat_ids, out_type=D.int32))
        if partition_strategy == "mod":
            assignments = flat_ids % n
            new_ids = flat_ids // n
        elif partition_strategy == "div":
            sizes = [p.shape.as_list()[0] if p.shape.rank else None for p in params]
            if all(s is not None for s in sizes) and sum(sizes):
                total = constant(sum(sizes), flat_ids.dtype)
            else:
                dims = [s if s is not None else array_ops.shape(p)[0]
                        for s, p in zip(sizes, params)]
                total = reduce_sum(math_ops.cast(array_ops.stack(dims), flat_ids.dtype))
            per_partition = total // n
            extras = total % n
            assignments = math_ops.maximum(flat_ids // (per_partition + 1),
                                           (flat_ids - extras) // per_partition)
            new_ids = where(assignments < extras, flat_ids % (per_partition + 1),
                            (flat_ids - extras) % per_partition)
        else:
            raise ValueError(f"Unrecognized partition strategy: {partition_strategy}.Must be "
                             "one of either `mod` or `div`.")
        assignments = math_ops.cast(assignments, D.int32)
        gather_ids = dynamic_partition(new_ids, assignments, n)
        pindices = dynamic_partition(original_indices, assignments, n)
        partitioned = [gather(params[p], gather_ids[p]) for p in range(n)]
        ret = parallel_dynamic_stitch(pindices, partitioned, name=scope)
        element_s = TensorShape(params[0].shape.as_list()[1:]) if params[0].shape.rank \
            is not None else unknown_shape()
        for p in params[1:]:
            element_s = element_s.merge_with(
                TensorShape(p.shape.as_list()[1:]) if p.shape.rank is not None
                else unknown_shape())
        if element_s.is_fully_defined():
            element_d: Any = element_s.as_list()
        else:
            element_d = array_ops.shape(params[0])[1:]
        ret = array_ops.reshape(ret, array_ops.concat([array_ops.shape(ids), element_d], 0))
        ret.set_shape(ids.shape.concatenate(element_s))
        return _clip(ret, ids, max_norm)


def embedding_lookup_sparse(params: Any, sp_ids: Any, sp_weights: Any,
                            partition_strategy: str = "mod", name: Optional[str] = None,
                            combiner: Optional[str] = None, max_norm: Any = None,
                            allow_fast_lookup: bool = False) -> Tensor:
    """`tf.nn.embedding_lookup_sparse`: per-row combination ('mean', 'sqrtn', 'sum') of the
    embeddings of a SparseTensor of ids, optionally weighted by `sp_weights`."""
    from tf1compat.framework.sparse_tensor import SparseTensor
    combiner = combiner or "mean"
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")
    if hasattr(params, "_get_variable_list"):
        params = list(params)
    if not isinstance(params, list):
        params = [params]
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids)}")
    ignore_weights = sp_weights is None
    if not ignore_weights and not isinstance(sp_weights, SparseTensor):
        raise TypeError(f"sp_weights must be either None or SparseTensor,got "
                        f"{type(sp_weights)}")
    with name_scope(name, "embedding_lookup_sparse", params + [sp_ids]) as scope:
        segment_ids = sp_ids.indices[:, 0]
        ids = sp_ids.values
        segment_ids = convert_to_tensor(segment_ids, name="segment_ids")
        if len(params) == 1 and not isinstance(params[0], Tensor):
            params = [convert_to_tensor(params[0], name="params")]
        fast = len(params) == 1 and max_norm is None and (allow_fast_lookup or ignore_weights)
        if fast:
            idx = ids
            embeddings = params[0]
        else:
            ids, idx = unique(ids)
            embeddings = embedding_lookup(params, ids, partition_strategy=partition_strategy,
                                          max_norm=max_norm)
        if not ignore_weights:
            if segment_ids.dtype != D.int32:
                segment_ids = math_ops.cast(segment_ids, D.int32)
            weights = sp_weights.values
            embeddings = gather(embeddings, idx)
            original = embeddings.dtype
            if embeddings.dtype in (D.float16, D.bfloat16):
                embeddings = math_ops.cast(embeddings, D.float32)
            if weights.dtype != embeddings.dtype:
                weights = math_ops.cast(weights, embeddings.dtype)
            ones_shape = array_ops.expand_dims(array_ops.rank(embeddings) - 1, 0)
            weights_shape = array_ops.shape(weights)
            from tf1compat.ops.creation_ops import ones
            ones_t = ones(ones_shape, dtype=weights_shape.dtype)
            bcast = array_ops.concat([weights_shape, ones_t], 0)
            orig_wshape = weights.shape
            weights = array_ops.reshape(weights, bcast)
            if embeddings.shape.rank is not None:
                weights.set_shape(orig_wshape.concatenate([1] * (embeddings.shape.rank - 1)))
            embeddings *= weights
            if combiner == "sum":
                embeddings = segment_sum(embeddings, segment_ids, name=scope)
            elif combiner == "mean":
                embeddings = segment_sum(embeddings, segment_ids)
                weight_sum = segment_sum(weights, segment_ids)
                embeddings = math_ops.div_no_nan(embeddings, weight_sum, name=scope)
            else:
                embeddings = segment_sum(embeddings, segment_ids)
                weight_sum = segment_sum(math_ops.pow(weights, 2), segment_ids)
                embeddings = math_ops.div_no_nan(embeddings, math_ops.sqrt(weight_sum),
                                                 name=scope)
            if embeddings.dtype != original:
                embeddings = math_ops.cast(embeddings, original)
            return embeddings
        if segment_ids.dtype not in (D.int32, D.int64):
            segment_ids = math_ops.cast(segment_ids, D.int32)
        op_type = {"sum": "SparseSegmentSum", "mean": "SparseSegmentMean",
                   "sqrtn": "SparseSegmentSqrtN"}[combiner]
        return apply_op1(op_type, [embeddings, idx, segment_ids],
                         {"sparse_gradient": bool(fast and not allow_fast_lookup)}, name=scope)



def _prune_invalid_ids(sparse_ids: Any, sparse_weights: Any) -> tuple:
    from tf1compat.ops.creation_ops import ones_like
    from tf1compat.ops.sparse_math import sparse_retain
    is_valid = math_ops.greater_equal(sparse_ids.values, 0)
    if sparse_weights is not None:
        is_valid = math_ops.logical_and(is_valid,
                                        ones_like(sparse_weights.values, dtype=D.bool))
    sparse_ids = sparse_retain(sparse_ids, is_valid)
    if sparse_weights is not None:
        sparse_weights = sparse_retain(sparse_weights, is_valid)
    return sparse_ids, sparse_weights


def _prune_invalid_weights(sparse_ids: Any, sparse_weights: Any) -> tuple:
    from tf1compat.ops.sparse_math import sparse_retain
    if sparse_weights is not None:
        is_valid = math_ops.greater(sparse_weights.values, 0)
        sparse_ids = sparse_retain(sparse_ids, is_valid)
        sparse_weights = sparse_retain(sparse_weights, is_valid)
    return sparse_ids, sparse_weights
