"""The batched layout of ParseSequenceExampleV2 (`tf.io.parse_sequence_example`): each
example is parsed alone (ops/parsing_ops.py), then its outputs are combined as TF lays out
a batch: sparse outputs gain a leading batch index and the largest shape, dense feature
lists are padded to the longest (zeros, or b"" for strings), lengths are stacked."""

from __future__ import annotations

from typing import Any, List

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["to_value", "batch_sparse", "batch_dense_context", "batch_dense_list",
           "batch_lengths", "combine_batch"]


def to_value(arr: np.ndarray, dtype: D.DType) -> Any:
    """A parsed numpy array as a kernel output (torch, or numpy objects for strings)."""
    if dtype == D.string:
        return arr if arr.ndim else arr[()]
    return torch.from_numpy(arr if arr.flags.c_contiguous else arr.copy())


def host_array(x: Any) -> np.ndarray:
    return x.numpy() if isinstance(x, torch.Tensor) else np.asarray(x, dtype=object)


def batch_sparse(parts: List[tuple], dtype: D.DType, rank: int) -> tuple:
    """Per-example sparse (indices, values, shape) of rank `rank` -> one batch of rank+1."""
    indices = [np.concatenate([np.full((len(host_array(i)), 1), b, np.int64),
                               host_array(i).reshape(-1, rank)], 1)
               for b, (i, _, _) in enumerate(parts)]
    shapes = [host_array(sh).astype(np.int64) for _, _, sh in parts]
    shape = np.concatenate([[len(parts)], np.max(shapes, 0) if shapes else
                            np.zeros(rank, np.int64)]).astype(np.int64)
    values = [host_array(v).reshape(-1) for _, v, _ in parts]
    if dtype == D.string:
        flat = np.empty(sum(len(v) for v in values), dtype=object)
        flat[:] = [item for v in values for item in v]
    else:
        flat = np.concatenate(values).astype(dtype.as_numpy_dtype) if values else \
            np.zeros(0, dtype.as_numpy_dtype)
    idx = np.concatenate(indices) if indices else np.zeros((0, rank + 1), np.int64)
    return (torch.from_numpy(np.ascontiguousarray(idx)), to_value(flat, dtype),
            torch.from_numpy(shape))


def batch_dense_context(values: List[Any], dtype: D.DType, shape: TensorShape) -> Any:
    arrays = [host_array(v) for v in values]
    np_dtype = object if dtype == D.string else dtype.as_numpy_dtype
    out = np.stack(arrays).astype(np_dtype) if arrays else \
        np.zeros([0] + shape.as_list(), np_dtype)
    return to_value(out, dtype)


def batch_dense_list(values: List[Any], dtype: D.DType, shape: TensorShape) -> Any:
    """Each example's [steps] + shape values padded (zeros, or b"") to the longest."""
    arrays = [host_array(v) for v in values]
    longest = max((a.shape[0] for a in arrays), default=0)
    np_dtype = object if dtype == D.string else dtype.as_numpy_dtype
    out = np.zeros([len(arrays), longest] + shape.as_list(), np_dtype)
    if dtype == D.string:
        out.fill(b"")
    for b, arr in enumerate(arrays):
        out[b, :arr.shape[0]] = arr
    return to_value(out, dtype)


def batch_lengths(values: List[Any], *_: Any) -> torch.Tensor:
    return torch.tensor([int(v) for v in values], dtype=torch.int64)


def combine_batch(per: List[List[Any]], groups: List[tuple]) -> List[Any]:
    """ParseSequenceExampleV2's outputs for a batch from the per-example outputs; `groups`
    lists the output groups in order as (combine function, dtypes, per-output extra)."""
    out: List[Any] = []
    pos = 0
    for combine, types, extras in groups:
        n = len(types)
        if combine is batch_sparse:
            made = [combine([(ex[pos + k], ex[pos + n + k], ex[pos + 2 * n + k]) for ex in per],
                            types[k], extras[k]) for k in range(n)]
            out += [m[0] for m in made] + [m[1] for m in made] + [m[2] for m in made]
            pos += 3 * n
        else:
            out += [combine([ex[pos + k] for ex in per], types[k], extras[k])
                    for k in range(n)]
            pos += n
    return out
