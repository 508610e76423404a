"""TensorProto, TensorShapeProto and AttrValue <-> numpy values, TensorShapes, attr values.

The pure-format half of GraphDef export and import (graph building lives in
graphdef/graph_io.py): Const values become TensorProtos as TF's `make_tensor_proto`
writes them (several values of a fixed-size dtype as raw `tensor_content`; scalars,
bools and complex values in the dtype's repeated `*_val` field), and attr values
become AttrValues.

A TensorProto that lists fewer values than its shape holds (TF repeats the last one:
`tf.constant(1.0, shape=[20000, 20000])` is stored as one `float_val`) is read as a
read-only broadcast view: nothing of the full size is allocated until the value is
used at run time, as in TF. Writing such a view gives the compact form back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.hooks import SERIALIZED_FORMS
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.serialization import tensor_codec
from tf1compat.serialization.messages import (AttrValue, NameAttrList, TensorProto,
                                              TensorShapeProto)

__all__ = ["shape_to_proto", "proto_to_shape", "tensor_to_proto", "proto_to_ndarray",
           "list_values", "attr_to_proto", "proto_to_attr", "FunctionRef", "is_scalar_kind"]


# -- shapes ----------------------------------------------------------------------------------

def shape_to_proto(shape: TensorShape) -> TensorShapeProto:
    """TF's TensorShapeProto of a TensorShape (-1 for unknown dimensions)."""
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


SERIALIZED_FORMS["shape_proto"] = shape_to_proto     # TensorShape.as_proto


# -- tensors ---------------------------------------------------------------------------------

# TF's _TENSOR_CONTENT_TYPES (dtype enums): tensors of more than one value of these types
# are stored as raw bytes in tensor_content.
_TENSOR_CONTENT_ENUMS = frozenset({19, 1, 2, 3, 4, 5, 6, 9, 11, 12, 15, 16, 13, 22, 23, 14})

_VALUE_FIELDS = {  # dtype enum -> the repeated field TF uses when tensor_content is empty
    1: "float_val", 2: "double_val", 3: "int_val", 4: "int_val", 5: "int_val", 6: "int_val",
    9: "int64_val", 10: "bool_val", 11: "int_val", 12: "int_val", 13: "int_val",
    15: "int_val", 16: "int_val", 17: "int_val", 19: "half_val", 14: "half_val",
    22: "uint32_val", 23: "uint64_val", 8: "scomplex_val", 18: "dcomplex_val",
}


def _is_splat(arr: Any) -> bool:
    """A broadcast view of one value (what reading a compact TensorProto gives)."""
    return isinstance(arr, np.ndarray) and arr.size > 1 and all(s == 0 for s in arr.strides)


def _field_values(enum: int, flat: np.ndarray) -> List[Any]:
    """Storage values as the Python values of the dtype's repeated field."""
    if enum in (8, 18):
        return [float(p) for z in flat for p in (z.real, z.imag)]
    if enum in (14, 19):
        return [int(v) for v in flat.view(np.uint16)]
    if enum == 10:
        return [bool(v) for v in flat]
    if enum in (1, 2):
        return [float(v) for v in flat]
    return [int(v) for v in flat]


def tensor_to_proto(value: Any, dtype: Optional[D.DType] = None,
                    shape: Optional[List[int]] = None) -> TensorProto:
    """A TensorProto of a numpy value (numbers as tensor_content, strings as string_val).

    With a `shape` holding more elements than `value` (the caller checked it holds no
    fewer), the values are listed in the dtype's repeated field and readers repeat the
    last one, as TF's `make_tensor_proto` writes `tf.constant(0, shape=[2, 3])`."""
    arr = np.asarray(value) if not isinstance(value, torch.Tensor) else value
    if dtype is None:
        dtype = D.string if isinstance(arr, np.ndarray) and arr.dtype.kind in "OSU" else \
            D.as_dtype(arr.dtype)
    dtype = dtype.base_dtype
    dims = list(np.shape(arr)) if shape is None else list(shape)
    proto = TensorProto(dtype=dtype.as_datatype_enum,
                        tensor_shape=shape_to_proto(TensorShape(dims)))
    # fewer values than the shape holds: listed, never raw content
    partial = _is_splat(arr) or np.size(arr) != int(np.prod(dims, dtype=np.int64))
    if _is_splat(arr):
        arr = np.asarray(arr).reshape(-1)[:1]
    if dtype == D.string:
        proto.string_val.extend(item.encode("utf-8") if isinstance(item, str) else bytes(item)
                                for item in np.asarray(arr, dtype=object).reshape(-1))
        return proto
    if dtype == D.bfloat16:
        t = torch.as_tensor(np.asarray(arr, dtype=np.float32)).to(torch.bfloat16)
        storage = t.view(torch.int16).numpy().view(np.uint16)
    else:
        store = tensor_codec.storage_dtype(dtype)
        source = np.asarray(arr)
        storage = source.astype(store) if source.dtype != store else source
    enum = dtype.as_datatype_enum
    if storage.size > 1 and enum in _TENSOR_CONTENT_ENUMS and not partial:
        proto.tensor_content = tensor_codec.contiguous(storage).tobytes()
        return proto
    # As TF's make_tensor_proto: scalars (and types without a raw layout: bool, complex)
    # list their values in the dtype's repeated field (`int_val: 2`), which is what
    # printed NodeDefs show.
    field = _VALUE_FIELDS.get(enum)
    if field is None:
        proto.tensor_content = tensor_codec.contiguous(storage).tobytes()
        return proto
    getattr(proto, field).extend(_field_values(enum, np.asarray(storage).reshape(-1)))
    return proto


def list_values(proto: TensorProto, value: Any, dtype: D.DType) -> None:
    """Adds `value`'s elements to `proto`'s repeated field of `dtype`, never as
    tensor_content (TF's V1 checkpoints store a slice's values so, without dtype or
    shape: serialization/v1_checkpoint.py)."""
    if dtype == D.string:
        proto.string_val.extend(bytes(v) for v in np.asarray(value, dtype=object).reshape(-1))
        return
    if dtype == D.bfloat16:
        t = torch.as_tensor(np.asarray(value, dtype=np.float32)).to(torch.bfloat16)
        storage = t.view(torch.int16).numpy().view(np.uint16)
    else:
        storage = np.asarray(value).astype(tensor_codec.storage_dtype(dtype))
    enum = dtype.as_datatype_enum
    field = _VALUE_FIELDS.get(enum)
    if field is None:
        raise NotImplementedError(f"TensorProto values of dtype {dtype.name} are not supported")
    getattr(proto, field).extend(_field_values(enum, storage.reshape(-1)))


def _filled(values: np.ndarray, count: int, shape: List[int]) -> np.ndarray:
    """`values` extended to `count` elements by repeating the last, in `shape`."""
    if values.size == 0:
        values = np.zeros(1, dtype=values.dtype) if values.dtype != object else \
            np.array([b""], dtype=object)
    if values.size >= count:
        return values[:count].reshape(shape)
    if values.size == 1:
        return np.broadcast_to(values.reshape(()), shape)   # no copy: expanded when used
    return np.concatenate([values, np.repeat(values[-1:], count - values.size)]
                          ).reshape(shape)


def proto_to_ndarray(proto: TensorProto) -> Tuple[D.DType, np.ndarray]:
    """(dtype, numpy value) of a TensorProto: bytes object arrays for strings, float32 for
    bfloat16 (as tf1compat's Const holds them); a read-only broadcast view when the proto
    lists one value for a larger shape."""
    dtype = D.as_dtype(proto.dtype)
    shape = proto_to_shape(proto.tensor_shape).as_list()
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if dtype == D.string:
        values = np.empty(len(proto.string_val), dtype=object)
        values[:] = list(proto.string_val)
        return dtype, _filled(values, count, shape)
    enum = dtype.as_datatype_enum
    store = tensor_codec.storage_dtype(dtype)
    if proto.tensor_content:
        storage = np.frombuffer(proto.tensor_content, dtype=store).copy()
        if storage.size != count:
            raise ValueError(f"tensor_content holds {storage.size} values of {dtype.name}, "
                             f"the shape {shape} needs {count}")
        storage = storage.reshape(shape)
    else:
        field = _VALUE_FIELDS.get(enum)
        if field is None:
            raise NotImplementedError(f"TensorProto of dtype {dtype.name} is not supported")
        values = list(getattr(proto, field))
        if enum in (8, 18):
            raw = np.asarray([complex(values[i], values[i + 1])
                              for i in range(0, len(values) - 1, 2)], dtype=store)
        elif enum in (14, 19):
            raw = np.asarray(values, dtype=np.int64).astype(np.uint16).view(store)
        else:
            raw = np.asarray(values).astype(store) if values else np.zeros(0, dtype=store)
        storage = _filled(raw, count, shape)
    if enum == 14:
        flat = np.ascontiguousarray(storage).view(np.int16)
        values32 = torch.from_numpy(flat.copy()).view(torch.bfloat16).float().numpy()
        return dtype, values32.reshape(shape)
    return dtype, tensor_codec.to_numpy(dtype, storage).reshape(shape)


# -- attrs -----------------------------------------------------------------------------------

def is_scalar_kind(value: Any, kind: type) -> bool:
    """Whether `value` is a Python or numpy scalar of `kind` (int, float, bool; bools are
    not ints here), or an instance of `kind`."""
    if kind is int:
        return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    if kind is float:
        return isinstance(value, (float, np.floating))
    if kind is bool:
        return isinstance(value, (bool, np.bool_))
    return isinstance(value, kind)


def attr_to_proto(value: Any, dtype_hint: Optional[D.DType] = None) -> AttrValue:
    """An AttrValue for a tf1compat attr value; TypeError if it has no proto form."""
    if is_scalar_kind(value, bool):
        return AttrValue(b=bool(value))
    if is_scalar_kind(value, int):
        return AttrValue(i=int(value))
    if is_scalar_kind(value, float):
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
        proto = AttrValue()
        lst = proto.list
        proto.list.SetInParent()    # an empty list is still a list value
        for item in value:
            if is_scalar_kind(item, bool):
                lst.b.append(bool(item))
            elif is_scalar_kind(item, int):
                lst.i.append(int(item))
            elif is_scalar_kind(item, float):
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
        return proto
    raise TypeError(f"value {value!r:.80} of type {type(value).__name__}")


def _text(data: bytes, keep_bytes: bool) -> Any:
    if keep_bytes:
        return bytes(data)
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        return bytes(data)


@dataclass(frozen=True)
class FunctionRef:
    """A function-valued attr as read from a NodeDef (`AttrValue.func`): the name of a
    function of the graph's library and the attrs it is instantiated with."""
    name: str
    attrs: Tuple[Tuple[str, Any], ...] = ()


def proto_to_attr(proto: AttrValue, name: str = "") -> Any:
    """The tf1compat attr value of an AttrValue (strings as str; `_class` as bytes;
    functions as `FunctionRef`s, resolved by the importer against the graph's library)."""
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


SERIALIZED_FORMS["attr_value"] = proto_to_attr     # tf.Operation(node_def, ...)


def _function_ref(proto: NameAttrList) -> FunctionRef:
    attrs = tuple(sorted((k, proto_to_attr(v, k)) for k, v in proto.attr.items()))
    return FunctionRef(proto.name, attrs)


SERIALIZED_FORMS["attr_proto"] = attr_to_proto       # NodeDef views' `attr[key]`
