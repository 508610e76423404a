"""SparseCross: the per-row cartesian product of sparse/dense feature columns
(`tf.sparse.cross`, `tf.sparse.cross_hashed`; feature_column's crossed_column).

Hashed crosses are bit-exact with TF: each feature hashes to Fingerprint64 (strings) or
its own value (int64), the hashes chain through FingerprintCat64 from `hash_key`, and the
result is taken modulo `num_buckets`. Within a row the last input varies fastest; the
sparse inputs come before the dense ones, as in TF's kernel.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.op_def import Int, Type, TypeList, declare
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import _string_hash

__all__ = ["sparse_cross", "sparse_cross_hashed", "DEFAULT_HASH_KEY"]

DEFAULT_HASH_KEY = 0xDECAFCAFFE
_MASK = (1 << 64) - 1
_MUL = 0xC6A4A7935BD1E995


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def fingerprint_cat64(fp1: int, fp2: int) -> int:
    """TF's FingerprintCat64 of two unsigned 64-bit fingerprints."""
    result = fp1 ^ _MUL
    result ^= (_shift_mix((fp2 * _MUL) & _MASK) * _MUL) & _MASK
    result = (result * _MUL) & _MASK
    result = (_shift_mix(result) * _MUL) & _MASK
    return _shift_mix(result)


def _rows(indices: Optional[torch.Tensor], values: Any, batch: int) -> List[List[Any]]:
    """The feature values of each row of one input column."""
    rows: List[List[Any]] = [[] for _ in range(batch)]
    vals = values.reshape(-1) if isinstance(values, np.ndarray) else \
        values.reshape(-1).tolist()
    if indices is None:          # dense [batch, k]
        k = len(vals) // batch if batch else 0
        for r in range(batch):
            rows[r] = list(vals[r * k:(r + 1) * k])
        return rows
    for (r, *_), v in zip(indices.tolist(), vals):
        rows[r].append(v)
    return rows


def _feature_hash(value: Any) -> int:
    if isinstance(value, (bytes, str)):
        return _string_hash.fingerprint64(value if isinstance(value, bytes) else
                                          value.encode())
    return int(value) & _MASK


def _feature_string(value: Any) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    return str(int(value)).encode()


def _cross_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    n = int(node.attrs["N"])
    n_dense = len(node.attrs["dense_types"])
    hashed = bool(node.attrs["hashed_output"])
    buckets = int(node.attrs["num_buckets"])
    key = int(node.attrs["hash_key"]) & _MASK
    # TF's kernel: with a string internal_type every input must be a string (with int64,
    # string inputs are fingerprinted or joined as they are).
    wrong_type = next((t for t in list(node.attrs["sparse_types"]) +
                       list(node.attrs["dense_types"])
                       if node.attrs["internal_type"] == D.string and t != D.string), None)

    def cross(*args: Any) -> Any:
        if wrong_type is not None:
            raise errors.InvalidArgumentError(
                None, None, f"Input values should be of internal type "
                f"{D.string.as_datatype_enum} but received {wrong_type.as_datatype_enum}")
        indices, values, shapes = args[:n], args[n:2 * n], args[2 * n:3 * n]
        dense = args[3 * n:3 * n + n_dense]
        batches = [int(s[0]) for s in shapes] + [int(d.shape[0]) for d in dense]
        batch = batches[0] if batches else 0
        if any(b != batch for b in batches):
            raise errors.InvalidArgumentError(
                None, None, "Expected batch size " + str(batch) + " got " +
                str(next(b for b in batches if b != batch)))
        columns = [_rows(i, v, batch) for i, v in zip(indices, values)] + \
            [_rows(None, d if isinstance(d, np.ndarray) else d, batch) for d in dense]
        out_idx: List[List[int]] = []
        out_val: List[Any] = []
        width = 0
        for r in range(batch):
            product = list(itertools.product(*(col[r] for col in columns)))
            width = max(width, len(product))
            for j, combo in enumerate(product):
                out_idx.append([r, j])
                if hashed:
                    h = key
                    for v in combo:
                        h = fingerprint_cat64(h, _feature_hash(v))
                    out_val.append(h % buckets if buckets > 0 else h % ((1 << 63) - 1))
                else:
                    out_val.append(b"_X_".join(_feature_string(v) for v in combo))
        idx = torch.tensor(out_idx, dtype=torch.int64).reshape(-1, 2)
        if hashed:
            val: Any = torch.tensor(np.array(out_val, dtype=np.uint64).astype(np.int64),
                                    dtype=torch.int64)
        else:
            val = np.array(out_val, dtype=object)
        return idx, val, torch.tensor([batch, width], dtype=torch.int64)
    return cross


def _cross_shape(ctx: Any) -> List[TensorShape]:
    return [TensorShape([None, 2]), TensorShape([None]), TensorShape([2])]


declare("SparseCross",
        inputs=["indices: N * int64", "values: sparse_types", "shapes: N * int64",
                "dense_inputs: dense_types"],
        outputs=["output_indices: int64", "output_values: out_type", "output_shape: int64"],
        attrs={"N": Int(minimum=0, default=0), "hashed_output": False, "num_buckets": 0,
               "hash_key": 0, "sparse_types": TypeList(default=()),
               "dense_types": TypeList(default=()), "out_type": Type(),
               "internal_type": Type(default=D.int64)},
        shape=_cross_shape, kernel=_cross_kernel, grad="unregistered", cpu_only=True,
        doc="The per-row cartesian product of the inputs' features, hashed or joined "
            "with '_X_'.")


def _cross(inputs: Sequence[Any], hashed: bool, num_buckets: int, hash_key: int,
           name: Optional[str]) -> SparseTensor:
    from tf1compat.ops.math_ops import cast
    if not isinstance(inputs, (tuple, list)):
        raise TypeError("Inputs must be a list")
    if not all(isinstance(i, (SparseTensor, Tensor)) for i in inputs):
        raise TypeError("All inputs must be SparseTensors")
    sparse = [i for i in inputs if isinstance(i, SparseTensor)]
    dense = [i for i in inputs if not isinstance(i, SparseTensor)]
    # As TF: non-string features become int64, and the kernel then works in int64 (string
    # features fingerprinted or joined as they are); only all-string crosses use string.
    values = [s.values if s.values.dtype in (D.string, D.int64) else cast(s.values, D.int64)
              for s in sparse]
    dense = [d if d.dtype in (D.string, D.int64) else cast(d, D.int64) for d in dense]
    out_type = D.int64 if hashed else D.string
    ind, val, shape = apply_op(
        "SparseCross", [[s.indices for s in sparse], values, [s.dense_shape for s in sparse],
                        dense],
        {"N": len(sparse), "hashed_output": hashed, "num_buckets": int(num_buckets),
         "hash_key": int(hash_key), "sparse_types": [v.dtype for v in values],
         "dense_types": [d.dtype for d in dense], "out_type": out_type,
         "internal_type": D.string if all(v.dtype == D.string for v in values + dense)
         else D.int64}, name=name).outputs
    return SparseTensor(ind, val, shape)


def sparse_cross(inputs: Sequence[Any], name: Optional[str] = None,
                 separator: Optional[str] = None) -> SparseTensor:
    """`tf.sparse.cross`: crossed features as "a_X_b" strings."""
    if separator not in (None, "_X_"):
        raise NotImplementedError("tf.sparse.cross(separator=...) other than '_X_' is not "
                                  "supported by tf1compat.")
    return _cross(inputs, False, 0, 0, name)


def sparse_cross_hashed(inputs: Sequence[Any], num_buckets: int = 0,
                        hash_key: Optional[int] = None,
                        name: Optional[str] = None) -> SparseTensor:
    """`tf.sparse.cross_hashed`: crossed features hashed into `num_buckets` buckets
    (FingerprintCat64 chain from `hash_key`, TF's default 0xDECAFCAFFE)."""
    return _cross(inputs, True, num_buckets, hash_key or DEFAULT_HASH_KEY, name)
