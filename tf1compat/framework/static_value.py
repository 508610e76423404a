"""`tf.get_static_value` (`tensor_util.constant_value`) with TF's own, narrower rules.

tf1compat's shape inference folds any small pure subgraph (framework/constant_value.py, as
TF's C++ shape inference does), but TF's Python `constant_value` knows only a fixed table
of op types: a Const, the Shape/Size/Rank of a static shape, Range, Cast, Concat(V2),
Pack and Unpack along axis 0, Split, Fill of a static shape, Equal, NotEqual and
identities of those. Anything else (`tf.shape(x)[0]`, `x * 2`, a Reshape of a Const) is
None in TF, and code written for TF branches on that None, so the public function
follows TF's table.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from tf1compat.framework.tensor import Tensor

__all__ = ["tensor_util_constant_value"]


def tensor_util_constant_value(tensor: Tensor, partial: bool = False) -> Optional[Any]:
    """The value TF's `tensor_util.constant_value` computes for a graph tensor, or None."""
    op = tensor.op
    kind = op.type
    value_of = tensor_util_constant_value
    if kind == "Const":
        from tf1compat.framework.constant_value import constant_value
        return constant_value(tensor)
    if kind in ("Shape", "Size", "Rank"):
        shape = op.inputs[0].shape
        if kind == "Rank":
            return None if shape.rank is None else np.array(shape.rank, np.int32)
        if not shape.is_fully_defined():
            return None
        dims = shape.as_list()
        if kind == "Size":
            return np.prod(dims, dtype=np.int32)
        return np.array(dims, dtype=tensor.dtype.as_numpy_dtype)
    if kind == "Range":
        parts = [value_of(t) for t in op.inputs[:3]]
        if any(p is None for p in parts):
            return None
        return np.arange(*parts, dtype=tensor.dtype.as_numpy_dtype)
    if kind == "Cast":
        value = value_of(op.inputs[0])
        return None if value is None else np.asarray(value).astype(
            tensor.dtype.as_numpy_dtype)
    if kind in ("Concat", "ConcatV2"):
        axis_input = op.inputs[0] if kind == "Concat" else op.inputs[-1]
        values = op.inputs[1:] if kind == "Concat" else op.inputs[:-1]
        axis = value_of(axis_input)
        parts = [value_of(t) for t in values]
        if axis is None or any(p is None for p in parts):
            return None
        return np.concatenate(parts, axis=int(axis))
    if kind == "Pack":
        if not op.inputs or op.get_attr("axis") != 0:
            return None
        parts = [value_of(t, partial) for t in op.inputs]
        if not partial and any(p is None for p in parts):
            return None
        try:
            return np.array(parts)
        except ValueError:
            return np.array(parts, dtype=object)
    if kind == "Unpack":
        if op.get_attr("axis") != 0:
            return None
        value = value_of(op.inputs[0], partial)
        return None if value is None else value[tensor.value_index]
    if kind == "Split":
        axis, value = value_of(op.inputs[0]), value_of(op.inputs[1], partial)
        if axis is None or value is None:
            return None
        return np.split(value, op.get_attr("num_split"), int(axis))[tensor.value_index]
    if kind == "Fill":
        fill = value_of(op.inputs[1])
        if not tensor.shape.is_fully_defined() or fill is None:
            return None
        fill = np.asarray(fill)
        return np.full(tensor.shape.as_list(), fill, dtype=fill.dtype)
    if kind in ("Equal", "NotEqual"):
        a, b = value_of(op.inputs[0]), value_of(op.inputs[1])
        if a is None or b is None:
            return None
        return np.equal(a, b) if kind == "Equal" else np.not_equal(a, b)
    if kind in ("StopGradient", "Identity", "CheckNumericsV2", "DebugIdentityV2"):
        return value_of(op.inputs[0], partial)
    return None
