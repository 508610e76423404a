"""The rest of the sparse API: EditDistance (`tf.edit_distance`), SparseCross/SparseCrossV2
(`tf.sparse.cross`, `tf.sparse.cross_hashed`), DenseCountSparseOutput/SparseCountSparseOutput
(`tf.sparse.bincount`), SparseMatMul (`tf.sparse_matmul`), and the composites
`tf.sparse.mask`, `tf.sparse.merge`, `tf.sparse.to_indicator`, `tf.sparse.reset_shape`.

Sparse operands travel as (indices [N, rank] int64, values [N], dense_shape [rank]); string
values are numpy object arrays, numbers torch tensors, as in the other sparse kernels.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_op import constant
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.op_def import Int, Type, TypeList, declare
from tf1compat.framework.sparse_tensor import SparseTensor, SparseTensorValue
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._shape_rules import merge_shapes, node_desc
from tf1compat.ops._string_hash import fingerprint64
from tf1compat.ops.array_ops import concat, expand_dims, identity, reshape, shape
from tf1compat.ops.check_ops import assert_equal, assert_less_equal
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import fill, ones_like
from tf1compat.ops.indexing_ops import gather
from tf1compat.ops.linalg_ops import _matmul_shape
from tf1compat.ops.math_ops import add, cast, maximum
from tf1compat.ops.reduction_ops import reduce_max
from tf1compat.ops.sort_ops import setdiff1d
from tf1compat.ops.sparse_math import sparse_reorder
from tf1compat.ops.sparse_ops import sparse_tensor_to_dense

__all__ = ["edit_distance", "sparse_cross", "sparse_cross_hashed", "sparse_feature_cross",
           "sparse_bincount",
           "sparse_matmul", "sparse_mask", "sparse_merge", "sparse_to_indicator",
           "sparse_reset_shape"]

_UINT64 = (1 << 64) - 1
_INT64_MAX = (1 << 63) - 1


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _as_sparse(x: Any) -> SparseTensor:
    if isinstance(x, SparseTensorValue):
        return SparseTensor.from_value(x)
    return x


def _host_list(x: Any) -> list:
    """Values of a kernel input as a Python list (bytes for strings)."""
    if isinstance(x, torch.Tensor):
        return x.detach().cpu().reshape(-1).tolist()
    return [bytes(v) if isinstance(v, (bytes, np.bytes_)) else v
            for v in np.asarray(x, dtype=object).reshape(-1).tolist()]


def _ints(x: Any) -> List[int]:
    return [int(v) for v in _host_list(x)]


# -- EditDistance ----------------------------------------------------------------------------

def _levenshtein(a: Sequence[Any], b: Sequence[Any]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1,
                                           previous + (x != y))
    return row[-1]


def _groups(indices: torch.Tensor, values: Any) -> Dict[Tuple[int, ...], List[Any]]:
    """Each sequence of a sparse operand, keyed by its index without the last coordinate."""
    rows = indices.detach().cpu().tolist()
    items = _host_list(values)
    out: Dict[Tuple[int, ...], List[Any]] = {}
    for row, item in zip(rows, items):
        out.setdefault(tuple(row[:-1]), []).append(item)
    return out


def _edit_distance_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    normalize = bool(node.attrs["normalize"])

    def edit_distance_op(h_idx: torch.Tensor, h_val: Any, h_shape: torch.Tensor,
                         t_idx: torch.Tensor, t_val: Any, t_shape: torch.Tensor
                         ) -> torch.Tensor:
        hs, ts = _ints(h_shape), _ints(t_shape)
        if len(hs) != len(ts):
            raise _invalid(f"Expected truth and hypothesis to have matching ranks, but their "
                           f"shapes are: [{len(ts)}] and [{len(hs)}]")
        dims = [max(a, b) for a, b in zip(hs[:-1], ts[:-1])]
        size = int(np.prod(dims)) if dims else 1
        strides = [int(np.prod(dims[k + 1:])) for k in range(len(dims))]
        out = np.zeros(size, dtype=np.float32)
        hyp, truth = _groups(h_idx, h_val), _groups(t_idx, t_val)
        for key in list(hyp) + [k for k in truth if k not in hyp]:
            position = sum(k * s for k, s in zip(key, strides))
            if position >= size:
                raise errors.InternalError(
                    None, None, f"Got an inner product {position} which would require "
                                f"writing to outside of the buffer for the output tensor "
                                f"(max elements {size})")
            h_seq, t_seq = hyp.get(key, []), truth.get(key, [])
            distance = float(_levenshtein(h_seq, t_seq))
            if normalize:
                with np.errstate(divide="ignore", invalid="ignore"):
                    distance = float(np.float32(distance) / np.float32(len(t_seq)))
            out[position] = distance
        return torch.from_numpy(out.reshape(dims)).to(kctx.device)
    return edit_distance_op


def _edit_distance_shape(ctx: Any) -> List[TensorShape]:
    h_shape, t_shape = ctx.const(2), ctx.const(5)
    if h_shape is None or t_shape is None:
        return [unknown_shape()]
    hs, ts = [int(v) for v in np.reshape(h_shape, -1)], [int(v) for v in np.reshape(t_shape, -1)]
    if len(hs) != len(ts):
        raise ValueError(f"Num elements of hypothesis_shape does not match truth_shape: "
                         f"{len(hs)} vs. {len(ts)} {node_desc(ctx, computed=(2, 5))}")
    return [TensorShape([max(a, b) for a, b in zip(hs[:-1], ts[:-1])])]


declare("EditDistance",
        inputs=["hypothesis_indices: int64", "hypothesis_values: T", "hypothesis_shape: int64",
                "truth_indices: int64", "truth_values: T", "truth_shape: int64"],
        outputs=["output: float32"], attrs={"normalize": True, "T": Type()},
        shape=_edit_distance_shape, kernel=_edit_distance_kernel, grad="none",
        cpu_only=True)


def edit_distance(hypothesis: Any, truth: Any, normalize: bool = True,
                  name: str = "edit_distance") -> Tensor:
    """`tf.edit_distance`: Levenshtein distance between the sequences (last dimension) of
    two SparseTensors, optionally divided by the truth's length."""
    if not isinstance(hypothesis, (SparseTensor, SparseTensorValue)):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, (SparseTensor, SparseTensorValue)):
        raise TypeError("Truth must be a SparseTensor.")
    h, t = _as_sparse(hypothesis), _as_sparse(truth)
    return apply_op1("EditDistance", [h.indices, h.values, h.dense_shape, t.indices, t.values,
                                      t.dense_shape], {"normalize": bool(normalize)},
                     name=name)


# -- SparseCross, SparseCrossV2 ----------------------------------------------------------------

def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def _fingerprint_cat64(first: int, second: int) -> int:
    """FarmHash's FingerprintCat64: combines two 64-bit fingerprints (order matters)."""
    mul = 0xC6A4A7935BD1E995
    result = first ^ mul
    result ^= (_shift_mix((second * mul) & _UINT64) * mul) & _UINT64
    result = (result * mul) & _UINT64
    result = (_shift_mix(result) * mul) & _UINT64
    return _shift_mix(result)


def _cross_columns(node: Any, args: Sequence[Any]) -> Tuple[int, List[List[List[Any]]]]:
    """(batch size, per input column the feature list of each batch row), TF's checks."""
    n = node.attrs["N"]
    indices, values, shapes = args[:n], args[n:2 * n], args[2 * n:3 * n]
    dense = args[3 * n:3 * n + len(node.attrs["dense_types"])]
    for i, idx in enumerate(indices):
        if idx.dim() != 2 or idx.shape[1] != 2:
            raise _invalid(f"Expected D2 of index to be 2 got "
                           f"{idx.shape[1] if idx.dim() == 2 else idx.dim()} at position {i}")
    batch = _ints(shapes[0])[0] if n else (int(dense[0].shape[0]) if dense else 0)
    columns = []
    for i in range(n):
        size = _ints(shapes[i])[0]
        if size != batch:
            raise _invalid(f"Expected batch size {batch} got {size} at position {i}")
        rows: List[List[Any]] = [[] for _ in range(batch)]
        for (row, _), item in zip(indices[i].cpu().tolist(), _host_list(values[i])):
            rows[row].append(item)
        columns.append(rows)
    for i, tensor in enumerate(dense):
        if int(tensor.shape[0]) != batch:
            raise _invalid(f"Expected batch size {batch} got {int(tensor.shape[0])} at "
                           f"dense tensor {i}")
        flat = _host_list(tensor)
        width = len(flat) // batch if batch else 0
        columns.append([flat[b * width:(b + 1) * width] for b in range(batch)])
    return batch, columns


def _crosses(columns: List[List[List[Any]]], row: int) -> List[Tuple[Any, ...]]:
    """The cartesian product of the row's features, the last column varying fastest."""
    out: List[Tuple[Any, ...]] = [()]
    for column in columns:
        out = [prefix + (item,) for prefix in out for item in column[row]]
    return out


def _feature_text(item: Any) -> bytes:
    return item if isinstance(item, bytes) else str(int(item)).encode()


def _feature_hash(item: Any) -> int:
    return fingerprint64(item) if isinstance(item, bytes) else int(item) & _UINT64


def _hash_combine(a: int, b: int) -> int:
    """The v1 SparseFeatureCross kernel's HashCombine (int64 `a`, `b` as uint64 bits):
    a ^ (b + 0x9e3779b97f4a7800 + (a << 10) + (a >> 4)), `>>` arithmetic on int64."""
    signed_a = a - (1 << 64) if a >> 63 else a
    mixed = (b + 0x9e3779b97f4a7800 + (a << 10) + ((signed_a >> 4) & _UINT64)) & _UINT64
    return a ^ mixed


def _cross_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    v2 = node.type == "SparseCrossV2"
    # tf.contrib.layers' SparseFeatureCross (v1): ints as they are, strings fingerprinted,
    # combined by HashCombine from 0xDECAFCAFFE (no hash_key attr).
    contrib_v1 = node.type == "SparseFeatureCross"
    hashed = not v2 and node.attrs["hashed_output"]
    buckets = 0 if v2 else node.attrs["num_buckets"]
    key = 0xDECAFCAFFE if contrib_v1 else 0 if v2 else node.attrs["hash_key"] & _UINT64
    combine_hashes = _hash_combine if contrib_v1 else _fingerprint_cat64
    # TF's kernel: with a string internal_type every input must be a string (with int64,
    # string inputs are fingerprinted or joined as they are).
    wrong_type = None if v2 or contrib_v1 or node.attrs["internal_type"] != D.string else next(
        (t for t in list(node.attrs["sparse_types"]) + list(node.attrs["dense_types"])
         if t != D.string), None)

    def combine(features: Tuple[Any, ...], separator: bytes) -> Any:
        if not hashed:
            return separator.join(_feature_text(f) for f in features)
        value = key
        for feature in features:
            value = combine_hashes(value, _feature_hash(feature))
        return value % buckets if buckets > 0 else value % _INT64_MAX

    def sparse_cross(*args: Any) -> tuple:
        if wrong_type is not None:
            raise _invalid(f"Input values should be of internal type "
                           f"{D.string.as_datatype_enum} but received "
                           f"{wrong_type.as_datatype_enum}")
        separator = bytes(np.asarray(args[-1], dtype=object).item()) if v2 else b"_X_"
        batch, columns = _cross_columns(node, args)
        out_idx: List[List[int]] = []
        out_val: List[Any] = []
        width = 0
        for row in range(batch):
            crosses = _crosses(columns, row) if columns else []
            width = max(width, len(crosses))
            for k, features in enumerate(crosses):
                out_idx.append([row, k])
                out_val.append(combine(features, separator))
        idx = torch.tensor(out_idx, dtype=torch.int64).reshape(-1, 2)
        if hashed:
            val: Any = torch.tensor(out_val, dtype=torch.int64)
        else:
            val = np.empty(len(out_val), dtype=object)
            val[:] = out_val
        return idx, val, torch.tensor([batch, width], dtype=torch.int64)
    return sparse_cross


_CROSS_OUTPUTS = ["output_indices: int64", "output_values: {}", "output_shape: int64"]
_CROSS_SHAPES = lambda ctx: [TensorShape([None, 2]), TensorShape([None]),  # noqa: E731
                             TensorShape([2])]
declare("SparseCross", inputs=["indices: N * int64", "values: sparse_types",
                               "shapes: N * int64", "dense_inputs: dense_types"],
        outputs=[o.format("out_type") for o in _CROSS_OUTPUTS],
        attrs={"N": Int(minimum=0), "hashed_output": False, "num_buckets": 0, "hash_key": 0,
               "sparse_types": TypeList(), "dense_types": TypeList(),
               "out_type": Type((D.int64, D.string)),
               # TF's kernel picks its crosser by this attr; no argument carries it.
               "internal_type": Type((D.int64, D.string), default=D.string)},
        shape=_CROSS_SHAPES, kernel=_cross_kernel, grad="unregistered", cpu_only=True)
declare("SparseCrossV2", inputs=["indices: N * int64", "values: sparse_types",
                                 "shapes: N * int64", "dense_inputs: dense_types",
                                 "sep: string"],
        outputs=[o.format("string") for o in _CROSS_OUTPUTS],
        attrs={"N": Int(minimum=0), "sparse_types": TypeList(), "dense_types": TypeList()},
        shape=_CROSS_SHAPES, kernel=_cross_kernel, grad="unregistered", cpu_only=True)


declare("SparseFeatureCross", inputs=["indices: N * int64", "values: sparse_types",
                                      "shapes: N * int64", "dense: dense_types"],
        outputs=[o.format("out_type") for o in _CROSS_OUTPUTS],
        attrs={"N": Int(minimum=0), "hashed_output": False, "num_buckets": 0,
               "sparse_types": TypeList(), "dense_types": TypeList(),
               "out_type": Type((D.int64, D.string)),
               "internal_type": Type((D.int64, D.string), default=D.string)},
        shape=_CROSS_SHAPES, kernel=_cross_kernel, grad="unregistered", cpu_only=True)


def sparse_feature_cross(inputs: Any, hashed_output: bool = False, num_buckets: int = 0,
                         name: Optional[str] = None) -> SparseTensor:
    """TF 1.15 contrib's `sparse_feature_cross` without a hash_key (SparseFeatureCross):
    what `tf.contrib.layers.crossed_column` builds by default."""
    indices, values, shapes, dense, any_int = _cross_parts(
        inputs, "All inputs must be SparseTensors")
    attrs = dict(_cross_attrs(values, dense), hashed_output=bool(hashed_output),
                 num_buckets=int(num_buckets),
                 out_type=D.int64 if hashed_output else D.string,
                 internal_type=D.int64 if any_int else D.string)
    return SparseTensor(*apply_op("SparseFeatureCross", [indices, values, shapes, dense],
                                  attrs, name=name).outputs)


def _cross_parts(inputs: Any, message: str) -> Tuple[list, list, list, list, bool]:
    """TF's split of the inputs into sparse and dense ones, non-strings cast to int64."""
    if not isinstance(inputs, (tuple, list)):
        raise TypeError("Inputs must be a list")
    inputs = [_as_sparse(i) for i in inputs]
    if not all(isinstance(i, (SparseTensor, Tensor)) for i in inputs):
        raise TypeError(message)
    sparse = [i for i in inputs if isinstance(i, SparseTensor)]
    dense = [i for i in inputs if not isinstance(i, SparseTensor)]
    values = [s.values if s.values.dtype == D.string else cast(s.values, D.int64)
              for s in sparse]
    dense = [d if d.dtype == D.string else cast(d, D.int64) for d in dense]
    any_int = any(v.dtype != D.string for v in values + dense)
    return ([s.indices for s in sparse], values, [s.dense_shape for s in sparse], dense,
            any_int)


def _cross_attrs(values: list, dense: list) -> Dict[str, Any]:
    return {"sparse_types": [v.dtype for v in values], "dense_types": [d.dtype for d in dense]}


def sparse_cross(inputs: Any, name: Optional[str] = None, separator: Optional[str] = None
                 ) -> SparseTensor:
    """`tf.sparse.cross`: per batch row, the features of all inputs crossed (joined by
    `separator`, "_X_" by default) — SparseCrossV2."""
    sep = convert_to_tensor("_X_" if separator is None else separator, D.string)
    indices, values, shapes, dense, _ = _cross_parts(
        inputs, "All inputs must be Tensor or SparseTensor.")
    out = apply_op("SparseCrossV2", [indices, values, shapes, dense, sep],
                   _cross_attrs(values, dense), name=name).outputs
    return SparseTensor(*out)


def sparse_cross_hashed(inputs: Any, num_buckets: int = 0, hash_key: Optional[int] = None,
                        name: Optional[str] = None) -> SparseTensor:
    """`tf.sparse.cross_hashed`: crossed features as FarmHash fingerprints combined with
    FingerprintCat64 (modulo `num_buckets` when positive) — SparseCross."""
    indices, values, shapes, dense, any_int = _cross_parts(
        inputs, "All inputs must be SparseTensors")
    if num_buckets < 0:
        raise ValueError(f"Attr 'num_buckets' of 'SparseCross' Op passed {num_buckets} less "
                         "than minimum 0.")
    attrs = dict(_cross_attrs(values, dense), hashed_output=True, num_buckets=int(num_buckets),
                 hash_key=int(hash_key or 956888297470), out_type=D.int64,
                 internal_type=D.int64 if any_int else D.string)
    return SparseTensor(*apply_op("SparseCross", [indices, values, shapes, dense], attrs,
                                  name=name).outputs)


# -- DenseCountSparseOutput, SparseCountSparseOutput -------------------------------------------

def _count_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dense_input = node.type == "DenseCountSparseOutput"
    minlength, maxlength = node.attrs["minlength"], node.attrs["maxlength"]
    binary = node.attrs["binary_output"]
    out_dtype = node.attrs["output_type"]

    def count(*args: Any) -> tuple:
        if dense_input:
            values, weights = args
            rank = values.dim()
            if rank not in (1, 2):
                raise _invalid(f"Input must be a 1 or 2-dimensional tensor. Got: "
                               f"[{','.join(str(d) for d in values.shape)}]")
            if rank == 2 and values.shape[0] == 0:
                raise _invalid("Invalid input: Shapes dimension cannot be 0.")
            batches = 1 if rank == 1 else int(values.shape[0])
            flat = values.reshape(-1).tolist()
            width = len(flat) // batches if batches else 0
            rows = [b if rank == 2 else 0 for b in range(batches) for _ in range(width)]
        else:
            indices, values, dense_shape, weights = args
            shape_list = _ints(dense_shape)
            rank = len(shape_list)
            batches = 1 if rank == 1 else shape_list[0]
            flat = values.reshape(-1).tolist()
            rows = [0] * len(flat) if rank == 1 else indices[:, 0].tolist()
        weight_list = weights.reshape(-1).tolist() if weights.numel() else None
        counts: List[Dict[int, Any]] = [{} for _ in range(batches)]
        top = 0
        for i, (row, value) in enumerate(zip(rows, flat)):
            if value < 0:
                raise _invalid("Input values must all be non-negative")
            top = max(top, value)       # the size counts values beyond maxlength too
            if maxlength >= 0 and value >= maxlength:
                continue
            add_value = 1 if weight_list is None else weight_list[i]
            counts[row][value] = 1 if binary else counts[row].get(value, 0) + add_value
        size = top + 1
        if minlength >= 0:
            size = max(size, minlength)
        if maxlength >= 0:
            size = min(size, maxlength)
        out_idx, out_val = [], []
        for row, found in enumerate(counts):
            for value in sorted(found):
                out_idx.append([value] if rank == 1 else [row, value])
                out_val.append(found[value])
        width = 1 if rank == 1 else 2
        dense = [size] if rank == 1 else [batches, size]
        return (torch.tensor(out_idx, dtype=torch.int64).reshape(-1, width),
                torch.tensor(out_val, dtype=out_dtype.torch_dtype),
                torch.tensor(dense, dtype=torch.int64))
    return count


def _dense_count_shape(ctx: Any) -> List[TensorShape]:
    values, weights = ctx.shape(0), ctx.shape(1)
    merged = values
    if not (weights.is_fully_defined() and weights.num_elements() == 0):
        merged = merge_shapes(weights, values, ctx)
    rank = merged.rank
    return [TensorShape([None, rank]), TensorShape([None]), TensorShape([rank])]


def _sparse_count_shape(ctx: Any) -> List[TensorShape]:
    indices = ctx.shape(0)
    if indices.rank is not None and indices.rank != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {indices.rank} {node_desc(ctx)}")
    rank = indices.as_list()[1] if indices.rank == 2 else None
    # Counts are per row of the first dimension: the output has rank min(rank, 2). (TF's
    # shape function says `rank`, which its kernel contradicts for rank >= 3.)
    rank = None if rank is None else min(rank, 2)
    return [TensorShape([None, rank]), TensorShape([None]), TensorShape([rank])]


_COUNT_ATTRS = {"T": Type((D.int32, D.int64)), "minlength": -1, "maxlength": -1,
                "binary_output": False,
                "output_type": Type((D.int32, D.int64, D.float32, D.float64))}
_COUNT_OUTPUTS = ["output_indices: int64", "output_values: output_type",
                  "output_dense_shape: int64"]
declare("DenseCountSparseOutput", inputs=["values: T", "weights: output_type"],
        outputs=list(_COUNT_OUTPUTS), attrs=dict(_COUNT_ATTRS), shape=_dense_count_shape,
        kernel=_count_kernel, grad="unregistered", cpu_only=True)
declare("SparseCountSparseOutput", inputs=["indices: int64", "values: T", "dense_shape: int64",
                                           "weights: output_type"],
        outputs=list(_COUNT_OUTPUTS), attrs=dict(_COUNT_ATTRS), shape=_sparse_count_shape,
        kernel=_count_kernel, grad="unregistered", cpu_only=True)


def _sparse_weights(values: SparseTensor, weights: Any) -> Tensor:
    """TF's validate_sparse_weights: the weights' values, checked to match `values`."""
    if weights is None:
        return constant([], dtype=values.values.dtype)
    weights = _as_sparse(weights)
    if not isinstance(weights, SparseTensor):
        raise ValueError(f"Argument `weights` must be a SparseTensor if `values` is a "
                         f"SparseTensor. Received weights={weights} of type: "
                         f"{type(weights).__name__}")
    checks = []
    if weights.dense_shape is not values.dense_shape:
        checks.append(assert_equal(weights.dense_shape, values.dense_shape,
                                   message="'weights' and 'values' must have the same dense "
                                           "shape."))
    if weights.indices is not values.indices:
        checks.append(assert_equal(weights.indices, values.indices,
                                   message="'weights' and 'values' must have the same "
                                           "indices."))
    if not checks:
        return weights.values
    return with_dependencies(checks, weights.values)


def sparse_bincount(values: Any, weights: Any = None, axis: Optional[int] = 0,
                    minlength: Optional[int] = None, maxlength: Optional[int] = None,
                    binary_output: bool = False, name: Optional[str] = None) -> SparseTensor:
    """`tf.sparse.bincount`: counts (or summed weights) of each non-negative value, as a
    SparseTensor; per row with axis=-1, over everything with axis=0."""
    with name_scope(name, "count", [values, weights]):
        values = _as_sparse(values)
        if not isinstance(values, SparseTensor):
            values = convert_to_tensor(values, name="values")
        if weights is not None:
            weights = _as_sparse(weights)
            if not isinstance(weights, SparseTensor):
                weights = convert_to_tensor(weights, name="weights")
        if weights is not None and binary_output:
            raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                             "Please specify only one.")
        axis = 0 if axis is None else axis
        if axis not in (0, -1):
            raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are "
                             "currently supported.")
        attrs = {"minlength": -1 if minlength is None else int(minlength),
                 "maxlength": -1 if maxlength is None else int(maxlength),
                 "binary_output": bool(binary_output)}
        if axis == 0:
            if isinstance(values, SparseTensor):
                if weights is not None:
                    weights = _sparse_weights(values, weights)
                values = values.values
            else:
                if weights is not None:
                    weights = reshape(weights, [-1])
                values = reshape(values, [-1])
        if isinstance(values, SparseTensor):
            weights = _sparse_weights(values, weights)
            outputs = apply_op("SparseCountSparseOutput",
                               [values.indices, values.values, values.dense_shape, weights],
                               attrs).outputs
        else:
            if weights is None:
                weights = constant([], dtype=values.dtype)
            outputs = apply_op("DenseCountSparseOutput", [values, weights], attrs).outputs
        return SparseTensor(*outputs)


# -- SparseMatMul ----------------------------------------------------------------------------

def _sparse_matmul_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    transpose_a, transpose_b = node.attrs["transpose_a"], node.attrs["transpose_b"]

    def sparse_mat_mul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        # The *_is_sparse attrs only pick TF's kernel; the product is the dense one.
        a, b = a.float(), b.float()
        return torch.matmul(a.t() if transpose_a else a, b.t() if transpose_b else b)
    return sparse_mat_mul


declare("SparseMatMul", inputs=["a: Ta", "b: Tb"], outputs=["product: float32"],
        attrs={"transpose_a": False, "transpose_b": False, "a_is_sparse": False,
               "b_is_sparse": False, "Ta": Type((D.float32, D.bfloat16), default=D.float32),
               "Tb": Type((D.float32, D.bfloat16), default=D.float32)},
        shape=_matmul_shape, kernel=_sparse_matmul_kernel)


def sparse_matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False,
                  a_is_sparse: bool = False, b_is_sparse: bool = False,
                  name: Optional[str] = None) -> Tensor:
    """`tf.sparse_matmul`: a dense matrix product (float32 result) whose `*_is_sparse`
    hints only choose TF's kernel."""
    a = a if isinstance(a, Tensor) else convert_to_tensor(a, dtype=D.float32, name="a")
    b = b if isinstance(b, Tensor) else convert_to_tensor(b, dtype=D.float32, name="b")
    return apply_op1("SparseMatMul", [a, b],
                     {"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b),
                      "a_is_sparse": bool(a_is_sparse), "b_is_sparse": bool(b_is_sparse)},
                     name=name)


# -- composites: mask, merge, to_indicator, reset_shape ---------------------------------------

def sparse_mask(a: IndexedSlices, mask_indices: Any, name: Optional[str] = None
                ) -> IndexedSlices:
    """`tf.sparse.mask`: the IndexedSlices without the slices at `mask_indices`."""
    with name_scope(name, "sparse_mask", [a, mask_indices]) as scope:
        out_indices, to_gather = setdiff1d(a.indices, mask_indices)
        out_values = gather(a.values, to_gather, name=scope)
        return IndexedSlices(out_values, out_indices, a.dense_shape)


def _check_vocab(sp_ids: Any, vocab_size: Any) -> Tuple[list, list]:
    def is_size(v: Any) -> bool:
        return isinstance(v, Tensor) or (isinstance(v, numbers.Integral)
                                         and not isinstance(v, bool))
    if isinstance(sp_ids, (SparseTensor, SparseTensorValue)):
        if not is_size(vocab_size):
            raise TypeError(f"vocab_size has to be a Tensor or Python int. Found "
                            f"{type(vocab_size)}")
        return [sp_ids], [vocab_size]
    if not isinstance(sp_ids, Iterable):
        raise TypeError(f"sp_ids has to be a SparseTensor or list thereof. Found "
                        f"{type(sp_ids)}")
    if not isinstance(vocab_size, Iterable):
        raise TypeError(f"vocab_size has to be a list of Tensors or Python ints. Found "
                        f"{type(vocab_size)}")
    for dim in vocab_size:
        if not is_size(dim):
            raise TypeError(f"vocab_size has to be a list of Tensors or Python ints. Found "
                            f"{type(dim)}")
    return list(sp_ids), list(vocab_size)


def _merge(sp_ids: Any, sp_values: Any, vocab_size: Any, name: Optional[str],
           already_sorted: bool) -> SparseTensor:
    sp_ids, vocab_size = _check_vocab(sp_ids, vocab_size)
    if len(sp_ids) != len(vocab_size):
        raise ValueError("sp_ids and vocab_size have to have equal lengths.")
    with name_scope(name, "SparseMerge", [sp_ids, sp_values]):
        sp_ids = [_as_sparse(s) for s in sp_ids]
        sp_values = _as_sparse(sp_values)
        ids = []
        for sp_ids_dim in sp_ids:
            ids_dim = sp_ids_dim.values
            if sp_ids_dim.dtype != D.int64:
                ids_dim = cast(ids_dim, D.int64)
            ids.append(expand_dims(ids_dim, axis=1))
        vocab_size = [cast(x, D.int64) for x in vocab_size]
        new_indices = concat([sp_ids[0].indices[:, :-1]] + ids, 1)
        new_shape = concat([sp_ids[0].dense_shape[:-1], vocab_size], 0)
        result = SparseTensor(new_indices, sp_values.values, new_shape)
        if already_sorted:
            return result
        ordered = sparse_reorder(result)
        return SparseTensor(ordered.indices, ordered.values, new_shape)


def sparse_merge(sp_ids: Any, sp_values: Any, vocab_size: Any, name: Optional[str] = None,
                 already_sorted: bool = False) -> SparseTensor:
    """`tf.sparse.merge` (deprecated in TF): ids and values merged into one SparseTensor
    whose last dimension(s) are indexed by the ids."""
    return _merge(sp_ids, sp_values, vocab_size, name, already_sorted)


def sparse_to_indicator(sp_input: Any, vocab_size: Any, name: Optional[str] = None
                        ) -> Tensor:
    """`tf.sparse.to_indicator`: a dense bool tensor, True at each (row, id) present."""
    sp_input = _as_sparse(sp_input)
    with name_scope(name, "SparseToIndicator", [sp_input]) as scope:
        num_entries = shape(sp_input.indices)[0]
        new_values = fill(expand_dims(num_entries, 0), True)
        sp_values = SparseTensor(sp_input.indices, new_values, sp_input.dense_shape)
        sp_new = _merge(sp_input, sp_values, vocab_size, scope, False)
        return sparse_tensor_to_dense(sp_new, default_value=False, validate_indices=False,
                                      name=scope)


def sparse_reset_shape(sp_input: Any, new_shape: Any = None) -> SparseTensor:
    """`tf.sparse.reset_shape`: the same entries with a new (or the tightest) dense shape."""
    sp_input = _as_sparse(sp_input)
    in_indices = identity(sp_input.indices)
    in_values = identity(sp_input.values)
    in_shape = identity(sp_input.dense_shape)
    if new_shape is None:
        low_bound = reduce_max(in_indices, axis=0)
        return SparseTensor(in_indices, in_values,
                            maximum(constant(0, dtype=D.int64),
                                    add(low_bound, ones_like(in_shape))))
    output_shape = convert_to_tensor(new_shape)
    output_shape.shape.assert_has_rank(1)
    output_shape = cast(output_shape, D.int64)
    if output_shape.shape.rank is not None:
        output_shape.shape.dims[0].assert_is_compatible_with(in_shape.shape.dims[0])
    known = constant_value(output_shape)
    if known is not None and sp_input.shape.is_fully_defined():
        in_known = np.array(sp_input.shape.as_list())
        if not np.all(in_known <= known):
            raise ValueError(f"Requested new_shape should have dimension sizes >= "
                             f"sp_input.shape.  Found new_shape ({in_known}), sp_input.shape "
                             f"({known}).")
        return SparseTensor(in_indices, in_values, known)
    output_shape = with_dependencies([assert_equal(shape(in_shape), shape(output_shape))],
                                     output_shape)
    output_shape = with_dependencies([assert_less_equal(in_shape, output_shape)], output_shape)
    return SparseTensor(in_indices, in_values, output_shape)
