"""`tf.saved_model.utils`: TensorInfo protos of tensors and back."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import context as _context
from tf1compat.framework.graph import get_default_graph
from tf1compat.framework.graph_scopes import prepend_name_scope
from tf1compat.serialization.messages import TensorInfo, TensorShapeProto
from tf1compat.serialization.tensor_proto import shape_to_proto

__all__ = ["build_tensor_info", "build_tensor_info_from_op", "get_tensor_from_tensor_info"]


def build_tensor_info(tensor: Any) -> TensorInfo:
    """The TensorInfo (name or sparse component names, dtype, shape) of a graph tensor or
    SparseTensor."""
    from tf1compat.framework.sparse_tensor import SparseTensor
    if _context.executing_eagerly():
        raise RuntimeError("`build_tensor_info` is not supported in eager execution.")
    info = TensorInfo(dtype=tensor.dtype.as_datatype_enum,
                      tensor_shape=shape_to_proto(tensor.get_shape()))
    if isinstance(tensor, SparseTensor):
        info.coo_sparse.values_tensor_name = tensor.values.name
        info.coo_sparse.indices_tensor_name = tensor.indices.name
        info.coo_sparse.dense_shape_tensor_name = tensor.dense_shape.name
    else:
        info.name = tensor.name
    return info


def build_tensor_info_from_op(op: Any) -> TensorInfo:
    """The TensorInfo of an operation (a signature entry naming an op, e.g. an init op)."""
    if _context.executing_eagerly():
        raise RuntimeError("`build_tensor_info_from_op` is not supported in eager "
                           "execution.")
    return TensorInfo(dtype=0, name=op.name, tensor_shape=TensorShapeProto(unknown_rank=True))


def get_tensor_from_tensor_info(tensor_info: TensorInfo, graph: Any = None,
                                import_scope: Optional[str] = None) -> Any:
    """The tensor (or SparseTensor) a TensorInfo names, in `graph`."""
    from tf1compat.framework.sparse_tensor import SparseTensor
    graph = graph or get_default_graph()

    def tensor(name: str) -> Any:
        return graph.get_tensor_by_name(prepend_name_scope(name, import_scope))

    encoding = tensor_info.WhichOneof("encoding")
    if encoding == "name":
        return tensor(tensor_info.name)
    if encoding == "coo_sparse":
        sparse = tensor_info.coo_sparse
        return SparseTensor(tensor(sparse.indices_tensor_name),
                            tensor(sparse.values_tensor_name),
                            tensor(sparse.dense_shape_tensor_name))
    raise ValueError(f"Invalid TensorInfo.encoding: {encoding}. Expected `coo_sparse`, "
                     "`composite_tensor`, or `name` for a dense tensor.")


def get_element_from_tensor_info(tensor_info: TensorInfo, graph: Any = None,
                                 import_scope: Optional[str] = None) -> Any:
    """The tensor or operation a TensorInfo names."""
    graph = graph or get_default_graph()
    return graph.as_graph_element(prepend_name_scope(tensor_info.name, import_scope))
