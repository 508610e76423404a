"""String decoding ops: `tf.decode_raw` (DecodeRaw), `tf.decode_csv` (DecodeCSV),
`tf.io.decode_compressed` (DecodeCompressed) and `tf.reduce_join` (ReduceJoin), with TF's
shapes, defaults and error messages."""

from __future__ import annotations

import zlib
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import Type, TypeList, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import dispatch

__all__ = ["decode_raw", "decode_csv", "reduce_join", "decode_compressed"]

_RAW_TYPES = (D.float16, D.float32, D.float64, D.int32, D.uint16, D.uint8, D.int16, D.int8,
              D.int64, D.bool, D.complex64, D.complex128, D.bfloat16, D.uint32, D.uint64)
_C_NAMES = {D.float32: "float", D.float64: "double", D.float16: "half"}


def _strings(value: Any) -> np.ndarray:
    if isinstance(value, bytes):
        out = np.empty((), dtype=object)
        out[()] = value
        return out
    return np.asarray(value, dtype=object)


# -- DecodeRaw ---------------------------------------------------------------------------------

def _decode_raw_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    dtype = D.as_dtype(node.attrs["out_type"])
    np_dtype = np.dtype(np.float32 if dtype == D.bfloat16 else dtype.as_numpy_dtype)
    if not node.attrs["little_endian"]:
        np_dtype = np_dtype.newbyteorder(">")
    itemsize = np_dtype.itemsize

    def run(data: Any) -> torch.Tensor:
        strings = _strings(data)
        flat = [bytes(s) for s in strings.reshape(-1)]
        if not flat:
            return torch.zeros(strings.shape + (0,), dtype=dtype.torch_dtype)
        size = len(flat[0])
        if size % itemsize:
            raise errors.InvalidArgumentError(
                None, None, f"Input to DecodeRaw has length {size} that is not a multiple of "
                            f"{itemsize}, the size of {_C_NAMES.get(dtype, dtype.name)}")
        for i, s in enumerate(flat[1:], 1):
            if len(s) != size:
                raise errors.InvalidArgumentError(
                    None, None, f"DecodeRaw requires input strings to all be the same size, "
                                f"but element {i} has size {len(s)} != {size}")
        arr = np.frombuffer(b"".join(flat), dtype=np_dtype).astype(np_dtype.newbyteorder("="))
        arr = arr.reshape(strings.shape + (size // itemsize,))
        return torch.from_numpy(arr.copy()).to(dtype.torch_dtype)
    return run


def _decode_raw_shape(ctx: Any) -> List[TensorShape]:
    return [ctx.shape(0).concatenate(TensorShape([None]))]


declare("DecodeRaw", inputs=["bytes: string"], outputs=["output: out_type"],
        attrs={"out_type": Type(_RAW_TYPES), "little_endian": True},
        shape=_decode_raw_shape, kernel=_decode_raw_kernel, grad="none", cpu_only=True,
        doc="Reinterprets the bytes of strings as a vector of numbers.")


def decode_raw(input_bytes: Any = None, out_type: Any = None, little_endian: bool = True,
               name: Optional[str] = None, bytes: Any = None) -> Tensor:  # noqa: A002
    """`tf.decode_raw(input_bytes, out_type, little_endian=True)`."""
    if input_bytes is None:
        input_bytes = bytes
    return apply_op1("DecodeRaw", [input_bytes], {"out_type": D.as_dtype(out_type),
                                                  "little_endian": bool(little_endian)},
                     name=name)


# -- DecodeCSV ---------------------------------------------------------------------------------

def _split_record(record: bytes, delim: bytes, quote: bool, index: int) -> List[bytes]:
    """TF's CSV field split: quoted fields may hold delimiters and doubled quotes."""
    fields: List[bytes] = []
    n = len(record)
    pos = 0
    while True:
        if quote and pos < n and record[pos:pos + 1] == b'"':
            pos += 1
            field = bytearray()
            while True:
                if pos >= n:
                    raise errors.InvalidArgumentError(
                        None, None, f"Quoted field has to end with quote followed by delim or "
                                    f"end of record, record {index}")
                c = record[pos:pos + 1]
                if c == b'"':
                    if record[pos + 1:pos + 2] == b'"':
                        field += b'"'
                        pos += 2
                        continue
                    pos += 1
                    break
                field += c
                pos += 1
            fields.append(bytes(field))
            if pos < n and record[pos:pos + len(delim)] != delim:
                raise errors.InvalidArgumentError(
                    None, None, f"Quoted field has to end with quote followed by delim or end "
                                f"of record, record {index}")
        else:
            end = record.find(delim, pos)
            end = n if end < 0 else end
            field = record[pos:end]
            if quote and b'"' in field:
                raise errors.InvalidArgumentError(
                    None, None, f"Unquoted fields cannot have quotes inside, record {index}")
            fields.append(field)
            pos = end
        if pos >= n:
            return fields
        pos += len(delim)
        if pos == n:
            fields.append(b"")
            return fields


def _decode_csv_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    types = [D.as_dtype(t) for t in node.attrs["OUT_TYPE"]]
    delim = node.attrs["field_delim"]
    delim = delim.encode() if isinstance(delim, str) else bytes(delim)
    quote = bool(node.attrs["use_quote_delim"])
    na = node.attrs["na_value"]
    na = na.encode() if isinstance(na, str) else bytes(na)
    select = list(node.attrs["select_cols"])

    def convert(text: bytes, dtype: D.DType, default: Any, col: int, row: int) -> Any:
        if text == b"" or text == na:
            if default is None:
                raise errors.InvalidArgumentError(
                    None, None, f"Field {col} is required but missing in record {row}!")
            return default
        if dtype == D.string:
            return text
        try:
            if dtype in (D.int32, D.int64):
                value = int(text)
                info = np.iinfo(np.int32 if dtype == D.int32 else np.int64)
                if not info.min <= value <= info.max:
                    raise ValueError
                return value
            return float(text)
        except ValueError:
            raise errors.InvalidArgumentError(
                None, None, f"Field {col} in record {row} is not a valid "
                            f"{'float' if dtype == D.float32 else dtype.name}: "
                            f"{text.decode(errors='replace')}") from None

    def run(records: Any, *defaults: Any) -> tuple:
        strings = _strings(records)
        flat = [bytes(s) for s in strings.reshape(-1)]
        defs = []
        for k, (d, dtype) in enumerate(zip(defaults, types)):
            values = d.reshape(-1).tolist() if isinstance(d, torch.Tensor) else \
                ([d] if isinstance(d, bytes) else list(np.asarray(d, dtype=object).reshape(-1)))
            if len(values) > 1:
                raise errors.InvalidArgumentError(
                    None, None, f"Shape of a default must be a length-0 or length-1 vector, "
                                f"or a scalar.")
            defs.append(values[0] if values else None)
        columns: List[List[Any]] = [[] for _ in types]
        expected = len(types) if not select else None
        for row, record in enumerate(flat):
            fields = _split_record(record, delim, quote, row)
            if select:
                if len(fields) <= select[-1]:
                    raise errors.InvalidArgumentError(
                        None, None, f"Expect {len(types)} fields but have {len(select)} in "
                                    f"record {row}")
                fields = [fields[c] for c in select]
            elif len(fields) != expected:
                raise errors.InvalidArgumentError(
                    None, None, f"Expect {expected} fields but have {len(fields)} in record "
                                f"{row}")
            for col, (text, dtype, default) in enumerate(zip(fields, types, defs)):
                columns[col].append(convert(text, dtype, default, col, row))
        out = []
        for values, dtype in zip(columns, types):
            if dtype == D.string:
                arr = np.empty(len(values), dtype=object)
                arr[:] = values
                arr = arr.reshape(strings.shape)
                out.append(arr if arr.ndim else arr[()])
            else:
                arr = np.asarray(values, dtype=dtype.as_numpy_dtype).reshape(strings.shape)
                out.append(torch.from_numpy(arr))
        return tuple(out) if len(out) != 1 else out[0]
    return run


declare("DecodeCSV", inputs=["records: string", "record_defaults: OUT_TYPE"],
        outputs=["output: OUT_TYPE"],
        attrs={"OUT_TYPE": TypeList(), "field_delim": ",", "use_quote_delim": True,
               "na_value": "", "select_cols": []},
        shape=lambda ctx: [ctx.shape(0) for _ in ctx.attrs["OUT_TYPE"]],
        kernel=_decode_csv_kernel, grad="unregistered", cpu_only=True,
        doc="Parses CSV records into one tensor per column.")


def decode_csv(records: Any, record_defaults: Sequence[Any], field_delim: str = ",",
               use_quote_delim: bool = True, name: Optional[str] = None, na_value: str = "",
               select_cols: Optional[Sequence[int]] = None) -> List[Tensor]:
    """`tf.decode_csv`: CSV records -> a list of column tensors (record_defaults' types)."""
    if select_cols is not None and any(select_cols[i] >= select_cols[i + 1]
                                       for i in range(len(select_cols) - 1)):
        raise ValueError("select_cols is not strictly increasing.")
    if select_cols is not None and select_cols and select_cols[0] < 0:
        raise ValueError("select_cols contains negative values.")
    if select_cols is not None and len(select_cols) != len(record_defaults):
        raise ValueError("Length of select_cols and record_defaults do not match.")
    op = apply_op("DecodeCSV", [records, list(record_defaults)],
                  {"field_delim": field_delim, "use_quote_delim": bool(use_quote_delim),
                   "na_value": na_value, "select_cols": list(select_cols or [])}, name=name)
    return list(op._outputs)


# -- ReduceJoin --------------------------------------------------------------------------------

def _reduce_join_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    sep = node.attrs["separator"]
    sep = sep.encode() if isinstance(sep, str) else bytes(sep)
    keep = bool(node.attrs["keep_dims"])

    def run(inputs: Any, axes: Any) -> Any:
        arr = _strings(inputs)
        axes_list = [int(a) % max(arr.ndim, 1) for a in
                     (axes.reshape(-1).tolist() if isinstance(axes, torch.Tensor) else axes)]
        if arr.ndim == 0:
            return arr[()]
        moved = np.moveaxis(arr, axes_list, list(range(arr.ndim - len(axes_list), arr.ndim)))
        lead = moved.shape[:arr.ndim - len(axes_list)]
        flat = moved.reshape(lead + (-1,))
        out = np.empty(lead, dtype=object)
        for idx in np.ndindex(*lead):
            out[idx] = sep.join(bytes(v) for v in flat[idx])
        if keep:
            for a in sorted(axes_list):
                out = np.expand_dims(out, a)
        return out if out.ndim else out[()]
    return run


def _reduce_join_shape(ctx: Any) -> List[TensorShape]:
    shape = ctx.shape(0)
    axes = ctx.const(1)
    if shape.rank is None or axes is None:
        return [TensorShape(None)]
    rank = shape.rank
    axes = {int(a) % max(rank, 1) for a in np.asarray(axes).reshape(-1)}
    dims = shape.as_list()
    if ctx.attrs["keep_dims"]:
        return [TensorShape([1 if i in axes else d for i, d in enumerate(dims)])]
    return [TensorShape([d for i, d in enumerate(dims) if i not in axes])]


declare("ReduceJoin", inputs=["inputs: string", "reduction_indices: int32"],
        outputs=["output: string"], attrs={"keep_dims": False, "separator": ""},
        shape=_reduce_join_shape, kernel=_reduce_join_kernel, grad="none", cpu_only=True,
        doc="Joins strings along the given axes.")


def reduce_join(inputs: Any, axis: Any = None, keep_dims: bool = False, separator: str = "",
                name: Optional[str] = None, reduction_indices: Any = None,
                keepdims: Optional[bool] = None) -> Tensor:
    """`tf.reduce_join` (TF1): joins strings along `axis` (all axes by default)."""
    if keepdims is not None:
        keep_dims = keepdims
    if axis is None:
        axis = reduction_indices
    with name_scope(name, "ReduceJoin", [inputs, axis]):
        inputs = convert_to_tensor(inputs, dtype=D.string)
        if axis is None:
            rank = inputs.shape.rank
            if rank is None:
                raise NotImplementedError("tf.reduce_join over all axes of a tensor of unknown "
                                          "rank is not supported by tf1compat.")
            axis = convert_to_tensor(list(range(rank)), dtype=D.int32)
        return apply_op1("ReduceJoin", [inputs, axis], {"keep_dims": bool(keep_dims),
                                                        "separator": separator},
                         name="ReduceJoin")


# -- DecodeCompressed --------------------------------------------------------------------------

# zlib's window-bits argument per compression type: 15 reads a zlib header, 31 a gzip one.
_WINDOW_BITS = {"ZLIB": 15, "GZIP": 31}


def _inflate(data: bytes, compression: str) -> bytes:
    """Inflates one string as TF's ZlibInputStream reads it: a ZLIB string ends at its
    first stream end (anything after it is ignored), GZIP members are read one after
    another; a truncated stream gives what was inflated so far."""
    out = []
    while data:
        inflater = zlib.decompressobj(_WINDOW_BITS[compression])
        try:
            out.append(inflater.decompress(data))
        except zlib.error as e:
            # "Error -3 while decompressing data: incorrect header check" -> TF's text.
            code, _, reason = str(e).partition(" while decompressing data: ")
            raise errors.DataLossError(
                None, None, f"inflate() failed with error {code.split()[-1]}: {reason}")
        if compression != "GZIP" or not inflater.eof:
            break
        data = inflater.unused_data
    return b"".join(out)


def _decode_compressed_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    compression = node.attrs["compression_type"]

    def run(data: Any) -> Any:
        if compression not in ("", "ZLIB", "GZIP", "ZSTD"):
            raise errors.InvalidArgumentError(
                None, None, "Only ZLIB, ZSTD, GZIP or NONE are supported compressions")
        if compression == "ZSTD":
            raise errors.UnimplementedError(
                None, None, "DecodeCompressed with compression_type='ZSTD' is not supported "
                            "by tf1compat (no zstd decoder)")
        strings = _strings(data)
        out = np.empty(strings.shape, dtype=object)
        for i, s in enumerate(strings.reshape(-1)):
            out.reshape(-1)[i] = bytes(s) if not compression else _inflate(bytes(s),
                                                                            compression)
        return out
    return run


declare("DecodeCompressed", inputs=["bytes: string"], outputs=["output: string"],
        attrs={"compression_type": ""}, shape=lambda ctx: [ctx.shape(0)],
        kernel=_decode_compressed_kernel, grad="unregistered", cpu_only=True,
        doc="Decompresses each string (ZLIB or GZIP; '' passes them through).")


def decode_compressed(bytes: Any, compression_type: str = "",  # noqa: A002 - TF's name
                      name: Optional[str] = None) -> Tensor:
    """`tf.io.decode_compressed`: each string inflated from `compression_type` ("ZLIB",
    "GZIP", or "" for none; TF's "ZSTD" is not supported)."""
    if compression_type == "ZSTD":
        raise NotImplementedError("tf.io.decode_compressed(compression_type='ZSTD') is not "
                                  "supported by tf1compat (no zstd decoder); ZLIB and GZIP "
                                  "are.")
    return apply_op1("DecodeCompressed", [bytes], {"compression_type": compression_type},
                     name=name)


# tf.reduce_join given a RaggedTensor: handler in tf1compat/ragged/ragged_string_ops.py.
dispatch.add_dispatch_support(globals(), "reduce_join", ("reduce_join",))
