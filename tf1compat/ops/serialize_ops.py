"""`tf.io.serialize_tensor` (SerializeTensor) and `tf.io.parse_tensor` (ParseTensor): a
tensor as the bytes of a TensorProto, as TF's kernels write and read them (so bytes
written by TF parse here and the other way round). The SparseTensor forms
(SerializeSparse & co.) are ops/sparse_serialization_ops.py's."""

from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op1
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.serialization.tensor_content import (parse_tensor_content,
                                                    serialize_tensor_content)

__all__ = ["serialize_tensor", "parse_tensor"]


def _serialize_kernel(node: Any, kctx: Any) -> Callable[[Any], bytes]:
    dtype = node.attrs["T"]

    def serialize(tensor: Any) -> bytes:
        value = tensor.cpu().numpy() if isinstance(tensor, torch.Tensor) else tensor
        return serialize_tensor_content(dtype, value, strings_in_content=False)
    return serialize


declare("SerializeTensor", inputs=["tensor: T"], outputs=["serialized: string"],
        attrs={"T": Type()}, shape=lambda ctx: [TensorShape([])], kernel=_serialize_kernel,
        grad="none", cpu_only=True, doc="The serialized TensorProto of a tensor.")


def _parse_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    out_type = node.attrs["out_type"]

    def parse(serialized: Any) -> Any:
        # TF checks the rank here, not at graph build.
        if isinstance(serialized, np.ndarray) and serialized.ndim:
            raise errors.InvalidArgumentError(
                None, None, "Expected `serialized` to be a scalar, got shape: "
                f"[{','.join(map(str, serialized.shape))}]")
        data = serialized[()] if isinstance(serialized, np.ndarray) else serialized
        try:
            dtype, value = parse_tensor_content(data)
        except ValueError:
            raise errors.InvalidArgumentError(
                None, None, "Could not parse `serialized` as TensorProto: "
                f"'{data!r}'") from None
        if dtype != out_type:
            raise errors.InvalidArgumentError(
                None, None, f"Type mismatch between parsed tensor ({dtype.name}) and dtype "
                f"({out_type.name})")
        if dtype == D.string:
            return value
        return torch.from_numpy(np.ascontiguousarray(value.astype(dtype.as_numpy_dtype)))
    return parse


declare("ParseTensor", inputs=["serialized: string"], outputs=["output: out_type"],
        attrs={"out_type": Type()}, shape=lambda ctx: [TensorShape(None)],
        kernel=_parse_kernel,
        grad="none", cpu_only=True, doc="The tensor in a serialized TensorProto.")


def serialize_tensor(tensor: Any, name: Optional[str] = None) -> Tensor:
    """`tf.io.serialize_tensor`: the bytes of `tensor`'s TensorProto (a scalar string)."""
    return apply_op1("SerializeTensor", [tensor], {}, name=name)


def parse_tensor(serialized: Any, out_type: D.DType, name: Optional[str] = None) -> Tensor:
    """`tf.io.parse_tensor`: the `out_type` tensor in a serialized TensorProto (its shape
    is known only at run time)."""
    return apply_op1("ParseTensor", [serialized], {"out_type": D.as_dtype(out_type)},
                     name=name)
