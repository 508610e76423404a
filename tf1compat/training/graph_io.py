"""Ops, attrs, shapes and tensors as TF's NodeDef, AttrValue, TensorShapeProto and
TensorProto, and back.

`op_to_node_def` writes one op as a NodeDef with TF's op type, input names (`op`,
`op:1`, `^control`), device and attrs (types, shapes, ints, floats, strings, lists, and
Const values as TensorProtos). Ops whose behaviour lives only in this Python process
cannot be written (ops with Python gradients, Python generators);
`UnserializableGraphError` names the first one. Whole graphs (control-flow constructs in
TF1's form, function libraries) are written by graph_export.py.

Importing (NodeDefs back to ops) lives in graph_import.py; function-valued attrs read
here become `FunctionRef`s that the importer resolves against the graph's function
library (function_library.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.training import tensor_codec
from tf1compat.training.proto_messages import (AttrValue, GraphDef, ListValue, NameAttrList,
                                               NodeDef, TensorProto, TensorShapeProto,
                                               VersionDef)

__all__ = ["UnserializableGraphError", "op_to_node_def",
           "tensor_to_proto", "proto_to_ndarray", "shape_to_proto", "proto_to_shape",
           "attr_to_proto", "proto_to_attr", "check_serializable", "as_graph_def_proto",
           "FunctionRef"]

# Ops that are not one NodeDef each: control-flow constructs and their parts are written
# in TF1's dataflow form by graph_export.py; a generator dataset runs a Python generator.
_NOT_ONE_NODE = {
    "If": "its branches are traced regions (graph_export.py writes them)",
    "Case": "its branches are traced regions", "While": "its condition and body are "
    "traced regions (graph_export.py writes them)",
    "_Arg": "it belongs to a traced control-flow region",
    "GeneratorDataset": "it runs a Python generator of this process "
    "(Dataset.from_generator)",
}
# Attrs that hold graph-build bookkeeping, not part of TF's NodeDef.
_SKIPPED_ATTRS = {"_output_shapes"}


class UnserializableGraphError(ValueError):
    """The graph has an op that cannot be written to a GraphDef (the message names it)."""


@dataclass(frozen=True)
class FunctionRef:
    """A function-valued attr as read from a NodeDef (`AttrValue.func`): the name of a
    function of the graph's library and the attrs it is instantiated with."""
    name: str
    attrs: Tuple[Tuple[str, Any], ...] = ()


# -- shapes and tensors ------------------------------------------------------------------------

def shape_to_proto(shape: TensorShape) -> TensorShapeProto:
    proto = TensorShapeProto()
    if shape.rank is None:
        proto.unknown_rank = True
        return proto
    for d in shape.as_list():
        proto.dim.add(size=-1 if d is None else int(d))
    return proto


def proto_to_shape(proto: TensorShapeProto) -> TensorShape:
    if proto.unknown_rank:
        return TensorShape(None)
    return TensorShape([None if d.size < 0 else int(d.size) for d in proto.dim])


def tensor_to_proto(value: Any, dtype: Optional[D.DType] = None) -> TensorProto:
    """A TensorProto of a numpy value (numbers as tensor_content, strings as string_val)."""
    arr = np.asarray(value) if not isinstance(value, torch.Tensor) else value
    if dtype is None:
        dtype = D.string if isinstance(arr, np.ndarray) and arr.dtype.kind in "OSU" else \
            D.as_dtype(arr.dtype)
    dtype = dtype.base_dtype
    proto = TensorProto(dtype=dtype.as_datatype_enum,
                        tensor_shape=shape_to_proto(TensorShape(list(np.shape(arr)))))
    if dtype == D.string:
        for item in np.asarray(arr, dtype=object).reshape(-1):
            proto.string_val.append(item.encode("utf-8") if isinstance(item, str)
                                    else bytes(item))
        return proto
    if dtype == D.bfloat16:
        t = torch.as_tensor(np.asarray(arr, dtype=np.float32)).to(torch.bfloat16)
        storage = t.view(torch.int16).numpy().view(np.uint16)
    else:
        store = tensor_codec.storage_dtype(dtype)
        source = np.asarray(arr)
        storage = source.astype(store) if source.dtype != store else source
    enum = dtype.as_datatype_enum
    if storage.size > 1 and enum in _TENSOR_CONTENT_ENUMS:
        proto.tensor_content = tensor_codec.contiguous(storage).tobytes()
        return proto
    # As TF's make_tensor_proto: scalars (and types without a raw layout: bool, complex)
    # list their values in the dtype's repeated field (`int_val: 2`), which is what
    # printed NodeDefs show.
    field = _VALUE_FIELDS.get(enum)
    if field is None:
        proto.tensor_content = tensor_codec.contiguous(storage).tobytes()
        return proto
    flat = np.asarray(storage).reshape(-1)
    if enum in (8, 18):
        values = [float(p) for z in flat for p in (z.real, z.imag)]
    elif enum in (14, 19):
        values = [int(v) for v in flat.view(np.uint16)]
    elif enum == 10:
        values = [bool(v) for v in flat]
    elif enum in (1, 2):
        values = [float(v) for v in flat]
    else:
        values = [int(v) for v in flat]
    getattr(proto, field).extend(values)
    return proto


# TF's _TENSOR_CONTENT_TYPES (dtype enums): tensors of more than one value of these types
# are stored as raw bytes in tensor_content.
_TENSOR_CONTENT_ENUMS = frozenset({19, 1, 2, 3, 4, 5, 6, 9, 11, 12, 15, 16, 13, 22, 23, 14})


_VALUE_FIELDS = {  # dtype enum -> the repeated field TF uses when tensor_content is empty
    1: "float_val", 2: "double_val", 3: "int_val", 4: "int_val", 5: "int_val", 6: "int_val",
    9: "int64_val", 10: "bool_val", 11: "int_val", 12: "int_val", 13: "int_val",
    15: "int_val", 16: "int_val", 17: "int_val", 19: "half_val", 14: "half_val",
    22: "uint32_val", 23: "uint64_val", 8: "scomplex_val", 18: "dcomplex_val",
}


def proto_to_ndarray(proto: TensorProto) -> Tuple[D.DType, np.ndarray]:
    """(dtype, numpy value) of a TensorProto: bytes object arrays for strings, float32 for
    bfloat16 (as tf1compat's Const holds them)."""
    dtype = D.as_dtype(proto.dtype)
    shape = proto_to_shape(proto.tensor_shape).as_list()
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if dtype == D.string:
        values = list(proto.string_val)
        out = np.empty(count, dtype=object)
        for i in range(count):
            out[i] = values[i] if i < len(values) else (values[-1] if values else b"")
        return dtype, out.reshape(shape)
    enum = dtype.as_datatype_enum
    store = tensor_codec.storage_dtype(dtype)
    if proto.tensor_content:
        storage = np.frombuffer(proto.tensor_content, dtype=store).copy()
        if storage.size != count:
            raise ValueError(f"tensor_content holds {storage.size} values of {dtype.name}, "
                             f"the shape {shape} needs {count}")
    else:
        field = _VALUE_FIELDS.get(enum)
        if field is None:
            raise NotImplementedError(f"TensorProto of dtype {dtype.name} is not supported")
        values = list(getattr(proto, field))
        if enum in (8, 18):
            values = [complex(values[i], values[i + 1]) for i in range(0, len(values), 2)]
        if enum in (14, 19):
            raw = np.asarray(values, dtype=np.int64).astype(np.uint16)
        else:
            raw = np.asarray(values, dtype=store if enum not in (8, 18) else store)
        if raw.size == 0:
            raw = np.zeros(1, dtype=raw.dtype)
        if raw.size < count:   # TF repeats the last value to fill the tensor
            raw = np.concatenate([raw, np.repeat(raw[-1:], count - raw.size)])
        storage = raw[:count].astype(store) if enum not in (14, 19) else \
            raw[:count].view(store)
    if enum == 14:
        values32 = torch.from_numpy(storage.view(np.int16).copy()).view(torch.bfloat16)
        return dtype, values32.float().numpy().reshape(shape)
    return dtype, tensor_codec.to_numpy(dtype, storage).reshape(shape)


# -- attrs ----------------------------------------------------------------------------------------

def _is_scalar_kind(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    if kind is float:
        return isinstance(value, (float, np.floating))
    if kind is bool:
        return isinstance(value, (bool, np.bool_))
    return isinstance(value, kind)


def attr_to_proto(value: Any, dtype_hint: Optional[D.DType] = None) -> AttrValue:
    """An AttrValue for a tf1compat attr value; TypeError if it has no proto form."""
    if _is_scalar_kind(value, bool):
        return AttrValue(b=bool(value))
    if _is_scalar_kind(value, int):
        return AttrValue(i=int(value))
    if _is_scalar_kind(value, float):
        return AttrValue(f=float(value))
    if isinstance(value, str):
        return AttrValue(s=value.encode("utf-8"))
    if isinstance(value, bytes):
        return AttrValue(s=value)
    if isinstance(value, D.DType):
        return AttrValue(type=value.as_datatype_enum)
    if isinstance(value, TensorShape):
        return AttrValue(shape=shape_to_proto(value))
    if isinstance(value, (np.ndarray, np.generic)):
        return AttrValue(tensor=tensor_to_proto(value, dtype_hint))
    if isinstance(value, (list, tuple)):
        lst = ListValue()
        for item in value:
            if _is_scalar_kind(item, bool):
                lst.b.append(bool(item))
            elif _is_scalar_kind(item, int):
                lst.i.append(int(item))
            elif _is_scalar_kind(item, float):
                lst.f.append(float(item))
            elif isinstance(item, str):
                lst.s.append(item.encode("utf-8"))
            elif isinstance(item, bytes):
                lst.s.append(item)
            elif isinstance(item, D.DType):
                lst.type.append(item.as_datatype_enum)
            elif isinstance(item, TensorShape):
                lst.shape.append(shape_to_proto(item))
            elif isinstance(item, np.ndarray):
                lst.tensor.append(tensor_to_proto(item))
            else:
                raise TypeError(f"list element {item!r} of type {type(item).__name__}")
        return AttrValue(list=lst)
    raise TypeError(f"value {value!r:.80} of type {type(value).__name__}")


def _text(data: bytes, keep_bytes: bool) -> Any:
    if keep_bytes:
        return bytes(data)
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        return bytes(data)


def proto_to_attr(proto: AttrValue, name: str = "") -> Any:
    """The tf1compat attr value of an AttrValue (strings as str; `_class` as bytes)."""
    kind = proto.WhichOneof("value")
    keep_bytes = name == "_class"
    if kind is None:
        return None
    if kind == "s":
        return _text(proto.s, keep_bytes)
    if kind in ("i", "f", "b"):
        return getattr(proto, kind)
    if kind == "type":
        return D.as_dtype(proto.type)
    if kind == "shape":
        return proto_to_shape(proto.shape)
    if kind == "tensor":
        return proto_to_ndarray(proto.tensor)[1]
    if kind == "list":
        lst = proto.list
        for field in ("s", "i", "f", "b", "type", "shape", "tensor", "func"):
            items = list(getattr(lst, field))
            if not items:
                continue
            if field == "s":
                return [_text(v, keep_bytes) for v in items]
            if field == "type":
                return [D.as_dtype(v) for v in items]
            if field == "shape":
                return [proto_to_shape(v) for v in items]
            if field == "tensor":
                return [proto_to_ndarray(v)[1] for v in items]
            if field == "func":
                return [_function_ref(f) for f in items]
            return items
        return []
    if kind == "func":
        return _function_ref(proto.func)
    raise NotImplementedError(f"attr {name!r} holds a {kind!r} value")


def _function_ref(proto: NameAttrList) -> FunctionRef:
    attrs = tuple(sorted((k, proto_to_attr(v, k)) for k, v in proto.attr.items()))
    return FunctionRef(proto.name, attrs)


# -- export --------------------------------------------------------------------------------------

def check_serializable(op: Operation) -> None:
    """Raises UnserializableGraphError if `op` cannot be written to a GraphDef."""
    reason = _NOT_ONE_NODE.get(op.type)
    if reason is None and op.type == "SymbolicGradient":
        from tf1compat.autodiff.grad_mode import grad_info
        info = grad_info(op)
        if info is not None and (info.stop_ops or info.custom_ops):
            reason = "its stop_gradients / custom gradients are Python graph-build state"
    if reason is None:
        from tf1compat.autodiff.grad_mode import custom_record
        if custom_record(op) is not None:
            reason = "its gradient is a Python function (tf.custom_gradient)"
    if reason is not None:
        raise UnserializableGraphError(
            f"Cannot serialize op {op.name!r} of type {op.type}: {reason}. tf1compat writes "
            "graphs whose ops are all serializable (no custom gradients or Python "
            "generators).")


def op_to_node_def(op: Operation, clear_devices: bool = False,
                   strip_scope: Optional[str] = None,
                   attr_overrides: Optional[Dict[str, AttrValue]] = None) -> NodeDef:
    """The NodeDef of `op` (UnserializableGraphError if it has none); `attr_overrides`
    gives the AttrValues of attrs holding functions (graph_export.py writes those)."""
    check_serializable(op)
    attr_overrides = attr_overrides or {}

    def strip(name: str) -> str:
        if strip_scope and name.lstrip("^").startswith(strip_scope):
            prefix = "^" if name.startswith("^") else ""
            return prefix + name.lstrip("^")[len(strip_scope):]
        return name

    node = NodeDef(name=strip(op.name), op=op.type)
    for t in op._inputs:
        node.input.append(strip(t._as_node_def_input()))
    for c in op._control_inputs:
        node.input.append(strip("^" + c.name))
    if op.device and not clear_devices:
        node.device = op.device
    for key in sorted(op._attrs):
        value = op._attrs[key]
        if key in attr_overrides:
            node.attr[key] = attr_overrides[key]
            continue
        if value is None or key in _SKIPPED_ATTRS:
            continue
        if key == "_class" and strip_scope:
            value = [strip(v.decode("utf-8")).encode("utf-8") if isinstance(v, bytes) else v
                     for v in value]
        hint = op._attrs.get("dtype") if op.type == "Const" and key == "value" else None
        if isinstance(op._op_def.attrs.get(key), float) and _is_scalar_kind(value, int):
            value = float(value)     # a float attr given as an int (forget_bias=1)
        try:
            node.attr[key] = attr_to_proto(value, hint)
        except (TypeError, NotImplementedError) as e:
            raise UnserializableGraphError(
                f"Cannot serialize op {op.name!r} of type {op.type}: attr {key!r} holds a "
                f"{e}, which has no GraphDef form") from None
    return node


def as_graph_def_proto(graph_def: Any) -> GraphDef:
    """A GraphDef proto from a GraphDef or from `Graph.as_graph_def()`'s NodeDef views.

    Views of a whole graph are written as the graph itself (graph_export.py: control
    flow in TF1's form, functions in the library)."""
    if isinstance(graph_def, GraphDef):
        return graph_def
    nodes = getattr(graph_def, "node", None)
    if nodes is None:
        raise TypeError(f"graph_def must be a GraphDef proto, got {type(graph_def).__name__}")
    ops = [getattr(view, "_op", None) for view in nodes]
    if ops and all(op is not None for op in ops) and \
            ops == ops[0].graph.get_operations():
        from tf1compat.training.graph_export import graph_to_graph_def
        return graph_to_graph_def(ops[0].graph)
    from tf1compat._version import GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER
    out = GraphDef(versions=VersionDef(producer=GRAPH_DEF_VERSION,
                                       min_consumer=GRAPH_DEF_VERSION_MIN_CONSUMER))
    for view in nodes:
        reason = _NOT_ONE_NODE.get(view.op)
        if reason is not None:
            raise UnserializableGraphError(f"Cannot serialize op {view.name!r} of type "
                                           f"{view.op}: {reason}.")
        node = NodeDef(name=view.name, op=view.op, input=list(view.input))
        if view.device:
            node.device = view.device
        for key in sorted(view.attr):
            value = view.attr[key]
            if value is None or key in _SKIPPED_ATTRS:
                continue
            hint = view.attr.get("dtype") if view.op == "Const" and key == "value" else None
            try:
                node.attr[key] = attr_to_proto(value, hint)
            except (TypeError, NotImplementedError) as e:
                raise UnserializableGraphError(
                    f"Cannot serialize op {view.name!r} of type {view.op}: attr {key!r} "
                    f"holds a {e}, which has no GraphDef form") from None
        out.node.append(node)
    return out
