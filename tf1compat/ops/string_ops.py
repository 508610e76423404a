"""TF1's string ops: conversions, joins, lengths, substrings, case/whitespace, splitting,
hash buckets, base64 and StringFormat, each declared once with TF's op type and attrs.

String tensors hold numpy object arrays of `bytes` (a scalar string is a `bytes` object),
as in ops/decode_ops.py. None of these ops is differentiable and all run on the CPU.
The regex ops live in ops/regex_ops.py; the hashes in ops/_string_hash.py.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import REQUIRED, Int, Type, TypeList, declare
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import dispatch
from tf1compat.ops import _string_hash
from tf1compat.ops._shape_rules import broadcast_shapes, merge_shapes, node_desc, unary_rule
from tf1compat.ops.decode_ops import _strings

__all__ = ["string_to_number", "as_string", "string_join", "string_length", "substr",
           "string_strip", "string_lower", "string_upper", "string_split", "strings_split_v1",
           "string_to_hash_bucket_fast", "string_to_hash_bucket",
           "string_to_hash_bucket_strong", "encode_base64", "decode_base64", "string_format"]


# -- helpers -----------------------------------------------------------------------------------

def _flat(value: Any) -> tuple:
    """(list of bytes, shape) of a string kernel input."""
    arr = _strings(value)
    return [bytes(s) for s in arr.reshape(-1)], arr.shape


def _pack(values: Sequence[bytes], shape: tuple) -> Any:
    """A string kernel output: an object array, or `bytes` for a scalar."""
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    out = out.reshape(shape)
    return out if out.ndim else out[()]


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _attr_bytes(value: Any) -> bytes:
    return value.encode() if isinstance(value, str) else bytes(value)


def _check_allowed(param: str, dtype: D.DType, allowed: Sequence[D.DType]) -> None:
    """TF's op-def check of a type attr passed explicitly (TypeError at graph build)."""
    if dtype not in allowed:
        raise TypeError(f"Value passed to parameter '{param}' has DataType {dtype.name} not in "
                        f"list of allowed values: {', '.join(d.name for d in allowed)}")


def _check_unit(unit: str) -> None:
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"Attr 'unit' of 'StringLength' Op passed string '{unit}' not in: "
                         f"\"BYTE\", \"UTF8_CHAR\".")


def _elementwise(op_type: str, fn: Callable[[bytes], Any], doc: str,
                 attrs: Optional[dict] = None) -> None:
    """Declares a string -> string op applying `fn(node)(bytes)` element by element."""
    def kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
        one = fn(node)

        def run(x: Any) -> Any:
            flat, shape = _flat(x)
            return _pack([one(s) for s in flat], shape)
        return run

    declare(op_type, inputs=["input: string"], outputs=["output: string"], attrs=attrs or {},
            shape=unary_rule, kernel=kernel, grad="none", cpu_only=True, doc=doc)


# -- StringToNumber ----------------------------------------------------------------------------

_NUMBER_TYPES = (D.float32, D.float64, D.int32, D.int64, D.uint32, D.uint64)
_INT_RE = re.compile(rb"^[+-]?[0-9]+$")
_HEX_RE = re.compile(rb"^[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)"
                     rb"([pP][+-]?[0-9]+)?$")
_WS = b" \t\n\v\f\r"


def _parse_number(text: bytes, dtype: D.DType) -> Any:
    """TF's safe_strto*: surrounding ASCII whitespace allowed; ints are plain decimals."""
    body = text.strip(_WS)
    if dtype.is_integer:
        if not _INT_RE.match(body):
            return None
        value = int(body)
        info = np.iinfo(dtype.as_numpy_dtype)
        return value if info.min <= value <= info.max else None
    if not body or b"_" in body:  # Python's float() accepts digit separators; C does not
        return None
    if _HEX_RE.match(body):                   # C's hex floats: 0x1p3, 0x1.8p1, 0xA
        return float.fromhex(body.decode())
    try:
        return float(body)
    except ValueError:
        return None


def _string_to_number_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    dtype = D.as_dtype(node.attrs["out_type"])

    def run(x: Any) -> torch.Tensor:
        flat, shape = _flat(x)
        values = []
        for s in flat:
            v = _parse_number(s, dtype)
            if v is None:
                raise _invalid("StringToNumberOp could not correctly convert string: "
                               + s.decode("utf-8", "replace"))
            values.append(v)
        with np.errstate(over="ignore"):  # float32 overflow is inf, as in TF
            arr = np.asarray(values, dtype=dtype.as_numpy_dtype).reshape(shape)
        return torch.from_numpy(arr)
    return run


declare("StringToNumber", inputs=["string_tensor: string"], outputs=["output: out_type"],
        attrs={"out_type": Type(_NUMBER_TYPES, default=D.float32)}, shape=unary_rule,
        kernel=_string_to_number_kernel, grad="none", cpu_only=True,
        doc="Parses each string as a number of type out_type.")


def string_to_number(string_tensor: Any = None, out_type: Any = D.float32,
                     name: Optional[str] = None, input: Any = None) -> Tensor:  # noqa: A002
    """`tf.string_to_number` / `tf.strings.to_number` (v1 signature)."""
    if string_tensor is None:
        string_tensor = input
    out_type = D.as_dtype(out_type)
    _check_allowed("out_type", out_type, _NUMBER_TYPES)
    return apply_op1("StringToNumber", [string_tensor], {"out_type": out_type}, name=name)


# -- AsString ----------------------------------------------------------------------------------

_AS_STRING_TYPES = (D.float32, D.float64, D.int32, D.uint8, D.int16, D.int8, D.int64,
                    D.bfloat16, D.uint16, D.float16, D.uint32, D.uint64, D.complex64,
                    D.complex128, D.bool, D.variant, D.string)


def _as_string_format(node: Any, dtype: D.DType) -> str:
    """The printf format TF's AsString kernel builds from its attrs (validated as TF does)."""
    a = node.attrs
    precision, width = int(a["precision"]), int(a["width"])
    scientific, shortest = bool(a["scientific"]), bool(a["shortest"])
    fill = a["fill"].decode() if isinstance(a["fill"], bytes) else str(a["fill"])
    if scientific and shortest:
        raise _invalid("Cannot select both scientific and shortest notation")
    if len(fill) > 1:
        raise _invalid("Fill string must be one or fewer characters")
    is_float = dtype.is_floating or dtype.is_complex
    if not is_float:
        if precision > -1:
            raise _invalid(f"precision not supported for datatype {dtype.name}")
        if scientific or shortest:
            raise _invalid(f"scientific and shortest format not supported for datatype "
                           f"{dtype.name}")
    if fill and fill not in " +-0#":
        raise _invalid(f'Fill argument not supported: "{fill}"')
    fmt = "%" + fill + (str(width) if width > -1 else "") + \
        (f".{precision}" if precision > -1 else "")
    if is_float:
        return fmt + ("g" if shortest else "e" if scientific else "f")
    if dtype in (D.bool, D.string, D.variant):
        return fmt + "s"
    return fmt + "d"


def _as_string_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    dtype = D.as_dtype(node.attrs["T"])

    def run(x: Any) -> Any:
        fmt = _as_string_format(node, dtype)
        if dtype == D.string:
            flat, shape = _flat(x)
            return _pack([(fmt % s.decode("utf-8", "surrogateescape")).encode(
                "utf-8", "surrogateescape") for s in flat], shape)
        if dtype == D.variant:
            raise NotImplementedError("tf.as_string of variant tensors is not supported by "
                                      "tf1compat.")
        t = x.detach().cpu()
        if t.dtype in (torch.bfloat16, torch.float16):
            t = t.float()
        shape = tuple(t.shape)
        flat = t.reshape(-1).tolist()
        if dtype == D.bool:
            out = [fmt % ("true" if v else "false") for v in flat]
        elif dtype.is_complex:
            out = [f"({fmt % v.real},{fmt % v.imag})" for v in flat]
        else:
            out = [fmt % v for v in flat]
        return _pack([s.encode() for s in out], shape)
    return run


declare("AsString", inputs=["input: T"], outputs=["output: string"],
        attrs={"T": Type(_AS_STRING_TYPES), "precision": -1, "scientific": False,
               "shortest": False, "width": -1, "fill": ""},
        shape=unary_rule, kernel=_as_string_kernel, grad="none", cpu_only=True,
        doc="Formats each element as a string (printf-style attrs).")


def as_string(input: Any, precision: int = -1, scientific: bool = False,  # noqa: A002
              shortest: bool = False, width: int = -1, fill: str = "",
              name: Optional[str] = None) -> Tensor:
    """`tf.as_string` / `tf.strings.as_string`."""
    return apply_op1("AsString", [input], {"precision": int(precision),
                                           "scientific": bool(scientific),
                                           "shortest": bool(shortest), "width": int(width),
                                           "fill": fill}, name=name)


# -- StringJoin --------------------------------------------------------------------------------

def _string_join_shape(ctx: Any) -> List[TensorShape]:
    out: Optional[TensorShape] = None
    for shape in ctx.shapes:
        if shape.rank == 0:
            continue
        out = shape if out is None else merge_shapes(out, shape, ctx)
    return [TensorShape([]) if out is None else out]


def _string_join_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    sep = _attr_bytes(node.attrs["separator"])

    def run(*inputs: Any) -> Any:
        arrays = [_strings(x) for x in inputs]
        shape: Optional[tuple] = None
        for arr in arrays:
            if arr.ndim == 0:
                continue
            if shape is None:
                shape = arr.shape
            elif arr.shape != shape:
                raise _invalid(f"Input shapes do not match: {_dims(shape)} vs. "
                               f"{_dims(arr.shape)}")
        shape = () if shape is None else shape
        size = int(np.prod(shape))
        columns = [[bytes(arr[()])] * size if arr.ndim == 0 else
                   [bytes(s) for s in arr.reshape(-1)] for arr in arrays]
        return _pack([sep.join(parts) for parts in zip(*columns)], shape)
    return run


def _dims(shape: tuple) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


declare("StringJoin", inputs=["inputs: N * string"], outputs=["output: string"],
        attrs={"N": Int(minimum=0), "separator": ""}, shape=_string_join_shape,
        kernel=_string_join_kernel, grad="none", cpu_only=True,
        doc="Joins the strings of several tensors element-wise (scalars broadcast).")


def string_join(inputs: Sequence[Any], separator: str = "",
                name: Optional[str] = None) -> Tensor:
    """`tf.string_join` / `tf.strings.join`."""
    return apply_op1("StringJoin", [list(inputs)], {"separator": separator}, name=name)


# -- StringLength / Substr ----------------------------------------------------------------------

def _utf8_offsets(s: bytes) -> List[int]:
    """Byte offsets of the UTF-8 characters of `s` (continuation bytes are 10xxxxxx)."""
    return [i for i, c in enumerate(s) if c & 0xC0 != 0x80]


def _string_length_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    chars = node.attrs["unit"] == "UTF8_CHAR"

    def run(x: Any) -> torch.Tensor:
        flat, shape = _flat(x)
        counts = [len(_utf8_offsets(s)) if chars else len(s) for s in flat]
        return torch.tensor(counts, dtype=torch.int32).reshape(shape)
    return run


declare("StringLength", inputs=["input: string"], outputs=["output: int32"],
        attrs={"unit": "BYTE"}, shape=unary_rule, kernel=_string_length_kernel, grad="none",
        cpu_only=True, doc="The length of each string in bytes or UTF-8 characters.")


def string_length(input: Any, name: Optional[str] = None,  # noqa: A002
                  unit: str = "BYTE") -> Tensor:
    """`tf.strings.length` (v1 argument order)."""
    _check_unit(unit)
    return apply_op1("StringLength", [input], {"unit": unit}, name=name)


def _substr_shape(ctx: Any) -> List[TensorShape]:
    pos, length = ctx.shape(1), ctx.shape(2)
    if length.rank is not None and pos.rank is not None and pos.rank != length.rank:
        raise ValueError(f"Shape must be rank {length.rank} but is rank {pos.rank} "
                         f"{node_desc(ctx)}")
    merge_shapes(pos, length, ctx)
    return [broadcast_shapes(ctx.shape(0), pos, ctx)]


def _substr_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    chars = node.attrs["unit"] == "UTF8_CHAR"

    def run(x: Any, pos: Any, length: Any) -> Any:
        strings = _strings(x)
        p = pos.cpu().numpy() if isinstance(pos, torch.Tensor) else np.asarray(pos)
        n = length.cpu().numpy() if isinstance(length, torch.Tensor) else np.asarray(length)
        if p.shape != n.shape:
            raise _invalid(f"pos and len should have the same shape, got: "
                           f"{_dims(p.shape)} vs. {_dims(n.shape)}")
        try:
            s_b, p_b, n_b = np.broadcast_arrays(strings, p, n)
        except ValueError:
            raise _invalid(f"Incompatible shapes: {_dims(strings.shape)} vs. "
                           f"{_dims(p.shape)}") from None
        out = []
        for i, (s, start, count) in enumerate(zip(s_b.reshape(-1), p_b.reshape(-1),
                                                  n_b.reshape(-1))):
            s, start, count = bytes(s), int(start), int(count)
            offsets = _utf8_offsets(s) + [len(s)] if chars else None
            size = len(offsets) - 1 if chars else len(s)
            if start > size or start < -size:
                raise _invalid(f"pos {start} out of range for string b'"
                               f"{s.decode('utf-8', 'backslashreplace')}' at index {i}")
            start = start + size if start < 0 else start
            # A negative len is a huge size_t in TF's kernel: the rest of the string.
            end = size if count < 0 else min(size, start + count)
            out.append(s[offsets[start]:offsets[end]] if chars else s[start:end])
        return _pack(out, s_b.shape)
    return run


declare("Substr", inputs=["input: string", "pos: T", "len: T"], outputs=["output: string"],
        attrs={"T": Type((D.int32, D.int64)), "unit": "BYTE"}, shape=_substr_shape,
        kernel=_substr_kernel, grad="none", cpu_only=True,
        doc="Substrings [pos, pos + len) of each string, in bytes or UTF-8 characters.")


def substr(input: Any, pos: Any, len: Any, name: Optional[str] = None,  # noqa: A002
           unit: str = "BYTE") -> Tensor:
    """`tf.substr` / `tf.strings.substr` (v1 argument order)."""
    _check_unit(unit)
    return apply_op1("Substr", [input, pos, len], {"unit": unit}, name=name)


# -- StringStrip / StringLower / StringUpper / base64 --------------------------------------------

def _case_fn(lower: bool) -> Callable[[Any], Callable[[bytes], bytes]]:
    def make(node: Any) -> Callable[[bytes], bytes]:
        encoding = _attr_bytes(node.attrs["encoding"]).decode().lower()
        if encoding == "":
            return (lambda s: s.lower()) if lower else (lambda s: s.upper())  # ASCII only
        if encoding not in ("utf-8", "utf8"):
            raise _invalid(f"Invalid encoding: {encoding!r}")

        def one(s: bytes) -> bytes:
            text = s.decode("utf-8", "surrogateescape")
            return (text.lower() if lower else text.upper()).encode("utf-8", "surrogateescape")
        return one
    return make


_elementwise("StringStrip", lambda node: lambda s: s.strip(_WS),
             "Strips leading and trailing ASCII whitespace.")
_elementwise("StringLower", _case_fn(True), "Lower-cases strings (ASCII, or UTF-8 with "
             "encoding='utf-8').", {"encoding": ""})
_elementwise("StringUpper", _case_fn(False), "Upper-cases strings (ASCII, or UTF-8 with "
             "encoding='utf-8').", {"encoding": ""})


def string_strip(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    """`tf.string_strip` / `tf.strings.strip`."""
    return apply_op1("StringStrip", [input], {}, name=name)


def string_lower(input: Any, encoding: str = "",  # noqa: A002
                 name: Optional[str] = None) -> Tensor:
    """`tf.strings.lower`."""
    return apply_op1("StringLower", [input], {"encoding": encoding}, name=name)


def string_upper(input: Any, encoding: str = "",  # noqa: A002
                 name: Optional[str] = None) -> Tensor:
    """`tf.strings.upper`."""
    return apply_op1("StringUpper", [input], {"encoding": encoding}, name=name)


_B64_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _encode_base64(node: Any) -> Callable[[bytes], bytes]:
    pad = bool(node.attrs["pad"])
    return lambda s: base64.urlsafe_b64encode(s) if pad else \
        base64.urlsafe_b64encode(s).rstrip(b"=")


def _decode_base64_one(s: bytes) -> bytes:
    """Web-safe base64 with optional padding, rejecting what TF's decoder rejects."""
    body = s
    if len(body) % 4 == 0 and body.endswith(b"="):
        body = body[:-2] if body.endswith(b"==") else body[:-1]
    if any(c not in _B64_CHARS for c in body):
        raise _invalid("Invalid character found in base64.")
    if len(body) % 4 == 1:
        raise _invalid("Base64 string length cannot be 1 modulo 4.")
    try:
        return base64.urlsafe_b64decode(body + b"=" * (-len(body) % 4))
    except binascii.Error:
        raise _invalid("Invalid character found in base64.") from None


_elementwise("EncodeBase64", _encode_base64, "Web-safe base64 encoding.", {"pad": False})
_elementwise("DecodeBase64", lambda node: _decode_base64_one, "Web-safe base64 decoding.")


def encode_base64(input: Any, pad: bool = False,  # noqa: A002
                  name: Optional[str] = None) -> Tensor:
    """`tf.encode_base64` / `tf.io.encode_base64` (web-safe alphabet, `-` and `_`)."""
    return apply_op1("EncodeBase64", [input], {"pad": bool(pad)}, name=name)


def decode_base64(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    """`tf.decode_base64` / `tf.io.decode_base64`."""
    return apply_op1("DecodeBase64", [input], {}, name=name)


# -- StringSplit / StringSplitV2 ----------------------------------------------------------------

def _split_shape(ctx: Any) -> List[TensorShape]:
    for i, rank in ((0, 1), (1, 0)):
        shape = ctx.shape(i)
        if shape.rank is not None and shape.rank != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {shape.rank} "
                             f"{node_desc(ctx)}")
    return [TensorShape([None, 2]), TensorShape([None]), TensorShape([2])]


def _sparse_result(rows: List[List[bytes]]) -> tuple:
    indices = [[i, j] for i, tokens in enumerate(rows) for j in range(len(tokens))]
    values = [t for tokens in rows for t in tokens]
    width = max((len(tokens) for tokens in rows), default=0)
    index_arr = np.asarray(indices, dtype=np.int64).reshape(-1, 2)
    return (torch.from_numpy(index_arr), _pack(values, (len(values),)),
            torch.tensor([len(rows), width], dtype=torch.int64))


def _string_split_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    skip_empty = bool(node.attrs["skip_empty"])

    def run(x: Any, delimiter: Any) -> tuple:
        flat, shape = _flat(x)
        delim = bytes(_strings(delimiter)[()]) if _strings(delimiter).ndim == 0 else None
        if len(shape) != 1 or delim is None:
            raise _invalid("input must be a vector and delimiter a scalar")
        rows = []
        for s in flat:
            if not s:  # TF's kernel gives an empty string no tokens, even a kept empty one
                tokens = []
            elif delim == b"":
                tokens = [s[i:i + 1] for i in range(len(s))]
            else:
                tokens = re.split(b"[" + re.escape(delim) + b"]", s)
            rows.append([t for t in tokens if t] if skip_empty else tokens)
        return _sparse_result(rows)
    return run


def _split_whitespace(s: bytes, maxsplit: int) -> List[bytes]:
    """StringSplitV2 without sep: tokens between whitespace runs. After `maxsplit` tokens
    the rest (leading whitespace skipped) is one more token, even when it is empty."""
    tokens: List[bytes] = []
    i, n = 0, len(s)
    while True:
        while i < n and s[i] in _WS:
            i += 1
        if i == n:
            return tokens
        j = i
        while j < n and s[j] not in _WS:
            j += 1
        tokens.append(s[i:j])
        i = j
        if 0 < maxsplit == len(tokens):
            while i < n and s[i] in _WS:
                i += 1
            tokens.append(s[i:])
            return tokens


def _string_split_v2_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    maxsplit = int(node.attrs["maxsplit"])

    def run(x: Any, sep: Any) -> tuple:
        flat, shape = _flat(x)
        sep_b = bytes(_strings(sep)[()])
        # An explicit sep follows Python's bytes.split (empty tokens kept; maxsplit 0 splits
        # nothing); no sep splits on whitespace runs, TF's way.
        if sep_b:
            return _sparse_result([s.split(sep_b, maxsplit) for s in flat])
        return _sparse_result([_split_whitespace(s, maxsplit) for s in flat])
    return run


declare("StringSplit", inputs=["input: string", "delimiter: string"],
        outputs=["indices: int64", "values: string", "shape: int64"],
        attrs={"skip_empty": True}, shape=_split_shape, kernel=_string_split_kernel,
        grad="none", cpu_only=True,
        doc="Splits strings at any byte of the delimiter into a sparse matrix of tokens.")
declare("StringSplitV2", inputs=["input: string", "sep: string"],
        outputs=["indices: int64", "values: string", "shape: int64"],
        attrs={"maxsplit": -1}, shape=_split_shape, kernel=_string_split_v2_kernel,
        grad="none", cpu_only=True,
        doc="Splits strings at a separator (Python str.split rules) into sparse tokens.")


def _split_op(op_type: str, source: Tensor, sep: Any, attrs: dict) -> SparseTensor:
    indices, values, shape = apply_op(op_type, [source, sep], attrs, name=op_type)._outputs
    return SparseTensor(indices, values, shape)


def string_split(source: Any, sep: Any = None, skip_empty: bool = True,
                 delimiter: Any = None, result_type: str = "SparseTensor",
                 name: Optional[str] = None) -> SparseTensor:
    """`tf.string_split` (TF1): a SparseTensor of tokens; `delimiter` is a set of bytes."""
    if sep is not None and delimiter is not None:
        raise ValueError("Cannot specify both 'sep' and 'delimiter'")
    delimiter = sep if sep is not None else delimiter
    if result_type == "RaggedTensor":
        raise NotImplementedError("tf.string_split(result_type='RaggedTensor'): tf1compat has "
                                  "no RaggedTensor.")
    if result_type != "SparseTensor":
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")
    with name_scope(name, "StringSplit", [source]):
        delim = convert_to_tensor(" " if delimiter is None else delimiter, dtype=D.string)
        source = convert_to_tensor(source, dtype=D.string)
        return _split_op("StringSplit", source, delim, {"skip_empty": bool(skip_empty)})


def strings_split_v1(input: Any = None, sep: Any = None, maxsplit: int = -1,  # noqa: A002
                     result_type: str = "SparseTensor", source: Any = None,
                     name: Optional[str] = None) -> SparseTensor:
    """`tf.strings.split` (TF1 signature): str.split rules, a SparseTensor of tokens."""
    if input is not None and source is not None:
        raise ValueError("Cannot specify both 'input' and 'source'")
    input = source if input is None else input  # noqa: A001
    if result_type == "RaggedTensor":
        raise NotImplementedError("tf.strings.split(result_type='RaggedTensor'): tf1compat has "
                                  "no RaggedTensor.")
    if result_type != "SparseTensor":
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")
    from tf1compat.ops.array_ops import expand_dims
    with name_scope(name, "StringSplit", [input]):
        input = convert_to_tensor(input, dtype=D.string, name="input")  # noqa: A001
        if input.shape.rank == 0:
            input = expand_dims(input, 0)  # noqa: A001
        elif input.shape.rank != 1:
            raise NotImplementedError("tf.strings.split of a tensor of rank other than 0 or 1 "
                                      "(TF splits through a RaggedTensor) is not supported by "
                                      "tf1compat.")
        sep_t = convert_to_tensor("" if sep is None else sep, dtype=D.string)
        return _split_op("StringSplitV2", input, sep_t, {"maxsplit": int(maxsplit)})


# -- hash buckets ------------------------------------------------------------------------------

def _hash_kernel(hash_fn: Callable[[Any], Callable[[bytes], int]]
                 ) -> Callable[[Any, Any], Callable[[Any], Any]]:
    def kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
        buckets = int(node.attrs["num_buckets"])

        def run(x: Any) -> torch.Tensor:
            one = hash_fn(node)
            flat, shape = _flat(x)
            values = np.asarray([one(s) % buckets for s in flat], dtype=np.uint64)
            return torch.from_numpy(values.astype(np.int64).reshape(shape))
        return run
    return kernel


def _strong_hash(node: Any) -> Callable[[bytes], int]:
    key = list(node.attrs["key"])
    if len(key) != 2:
        raise _invalid("Key must have 2 elements")
    return lambda s: _string_hash.siphash24((key[0], key[1]), s)


declare("StringToHashBucketFast", inputs=["input: string"], outputs=["output: int64"],
        attrs={"num_buckets": REQUIRED}, shape=unary_rule,
        kernel=_hash_kernel(lambda node: _string_hash.fingerprint64), grad="none",
        cpu_only=True, doc="Fingerprint64(string) % num_buckets.")
declare("StringToHashBucket", inputs=["string_tensor: string"], outputs=["output: int64"],
        attrs={"num_buckets": REQUIRED}, shape=unary_rule,
        kernel=_hash_kernel(lambda node: _string_hash.tf_hash64), grad="none",
        cpu_only=True, doc="TF's legacy Hash64(string) % num_buckets.")
declare("StringToHashBucketStrong", inputs=["input: string"], outputs=["output: int64"],
        attrs={"num_buckets": REQUIRED, "key": REQUIRED}, shape=unary_rule,
        kernel=_hash_kernel(_strong_hash), grad="none", cpu_only=True,
        doc="SipHash-2-4(key, string) % num_buckets.")


def string_to_hash_bucket_fast(input: Any, num_buckets: int,  # noqa: A002
                               name: Optional[str] = None) -> Tensor:
    """`tf.string_to_hash_bucket_fast` / `tf.strings.to_hash_bucket_fast`."""
    return apply_op1("StringToHashBucketFast", [input], {"num_buckets": int(num_buckets)},
                     name=name)


def string_to_hash_bucket(string_tensor: Any = None, num_buckets: Optional[int] = None,
                          name: Optional[str] = None, input: Any = None) -> Tensor:  # noqa: A002
    """`tf.string_to_hash_bucket` / `tf.strings.to_hash_bucket` (TF's legacy Hash64)."""
    if string_tensor is None:
        string_tensor = input
    return apply_op1("StringToHashBucket", [string_tensor], {"num_buckets": int(num_buckets)},
                     name=name)


def string_to_hash_bucket_strong(input: Any, num_buckets: int, key: Sequence[int],  # noqa: A002
                                 name: Optional[str] = None) -> Tensor:
    """`tf.string_to_hash_bucket_strong` / `tf.strings.to_hash_bucket_strong` (SipHash)."""
    key = [int(k) for k in key]
    if any(not -2 ** 63 <= k < 2 ** 63 for k in key):
        raise ValueError(f"Value out of range: {next(k for k in key if not -2**63 <= k < 2**63)}")
    return apply_op1("StringToHashBucketStrong", [input],
                     {"num_buckets": int(num_buckets), "key": key}, name=name)


# -- StringFormat --------------------------------------------------------------------------------

def _element_text(value: Any) -> Callable[[Any], str]:
    """How TF's print_v2 summaries print one element of `value`."""
    from tf1compat.ops.logging_ops import _escape, _format_float
    if not isinstance(value, torch.Tensor):
        return lambda v: '"' + _escape(v) + '"'
    if value.dtype == torch.bool:
        return lambda v: "1" if v else "0"
    if value.dtype.is_complex:
        single = value.dtype == torch.complex64
        return lambda v: f"({_format_float(v.real, single)},{_format_float(v.imag, single)})"
    if value.dtype.is_floating_point:
        single = value.dtype != torch.float64
        return lambda v: _format_float(float(v), single)
    return lambda v: str(int(v))


def _summarize_v2(value: Any, summarize: int) -> str:
    """TF's Tensor::SummarizeValue(print_v2=True): first and last `summarize` per dim."""
    printer = _element_text(value)
    if isinstance(value, torch.Tensor):
        arr = value.detach().cpu()
        arr = arr.float() if arr.dtype in (torch.bfloat16, torch.float16) else arr
        shape, flat = list(arr.shape), arr.reshape(-1).tolist()
    else:
        arr = _strings(value)
        shape, flat = list(arr.shape), list(arr.reshape(-1))
    if not shape:
        return printer(flat[0])
    ends = len(flat) if summarize < 0 else summarize
    rank = len(shape)
    out: List[str] = []

    def spacing(dim: int) -> None:
        out.append(" " if dim == rank - 1 else "\n" * (rank - dim - 1) + " " * (dim + 1))

    def one_dim(dim: int, base: int) -> None:
        if dim == rank:
            out.append(printer(flat[base]))
            return
        out.append("[")
        count = shape[dim]
        step = int(np.prod(shape[dim + 1:]))
        for i in range(min(ends, count)):
            if i > 0:
                spacing(dim)
            one_dim(dim + 1, base + step * i)
        if count > 2 * ends:
            spacing(dim)
            out.append("...")
        for i in range(max(ends, count - ends), count):
            spacing(dim)
            one_dim(dim + 1, base + step * i)
        out.append("]")
    one_dim(0, 0)
    return "".join(out)


def _string_format_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    template = node.attrs["template"]
    placeholder = node.attrs["placeholder"]
    summarize = int(node.attrs["summarize"])
    pieces = template.split(placeholder)

    def run(*inputs: Any) -> bytes:
        parts = [pieces[0]]
        for value, piece in zip(inputs, pieces[1:]):
            parts += [_summarize_v2(value, summarize), piece]
        return "".join(parts).encode("utf-8", "surrogateescape")
    return run


declare("StringFormat", inputs=["inputs: T"], outputs=["output: string"],
        attrs={"T": TypeList(), "template": "%s", "placeholder": "%s", "summarize": 3},
        shape=lambda ctx: [TensorShape([])], kernel=_string_format_kernel, grad="none",
        cpu_only=True, doc="Formats tensors into a template string (print_v2 summaries).")


def string_format(template: str, inputs: Any, placeholder: str = "{}", summarize: int = 3,
                  name: Optional[str] = None) -> Tensor:
    """`tf.strings.format`: tensors summarized into `template` at each `placeholder`."""
    if isinstance(inputs, Tensor):
        inputs = [inputs]
    count = template.count(placeholder)
    if count != len(inputs):
        raise ValueError(f"The template expects {count} tensors, but the inputs only has "
                         f"{len(inputs)}. Please ensure the number of placeholders in "
                         "template matches inputs length.")
    return apply_op1("StringFormat", [list(inputs)],
                     {"template": template, "placeholder": placeholder,
                      "summarize": int(summarize)}, name=name)


# The string ops TF's ragged dispatch applies to a RaggedTensor's flat values (TF 2.21
# compat.v1's string_to_number is not among them): handlers in tf1compat/ragged/ragged_math.py.
dispatch.add_dispatch_support(globals(), dispatch.UNARY, (
    "as_string", "decode_base64", "encode_base64", "string_length", "string_lower",
    "string_strip", "string_to_hash_bucket", "string_to_hash_bucket_fast",
    "string_to_hash_bucket_strong", "string_upper", "substr"))
dispatch.add_dispatch_support(globals(), dispatch.UNARY_LIST, ("string_join",))
