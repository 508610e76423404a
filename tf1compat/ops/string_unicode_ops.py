"""`tf.strings` rest: Unicode decoding / encoding / transcoding, byte splitting, n-grams
(StringNGrams), UnsortedSegmentJoin, and `tf.fingerprint` (FarmHash Fingerprint64,
bit-exact).

Input encodings are read with Python's codecs under their ICU names (UTF-16/UTF-32 without
a byte order mark are big-endian, as ICU reads them); output encodings are TF's three
(UTF-8, UTF-16-BE, UTF-32-BE). Invalid input sequences are replaced one per maximal invalid
subpart, as ICU does, and character offsets count the source bytes.

Not supported (NotImplementedError): TF returns RaggedTensors from unicode_decode,
unicode_split and bytes_split for inputs of rank 1 or more, and tf1compat has no
RaggedTensor, so only scalar inputs (whose results are dense) work. (unicode_script, which
needs ICU's script table, is not provided: framework/unsupported_api.py.)
"""

from __future__ import annotations

import codecs
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops._string_hash import fingerprint64
from tf1compat.ops.array_ops import expand_dims, reshape, shape, stack
from tf1compat.ops.creation_ops import fill
from tf1compat.ops.creation_ops import range as range_
from tf1compat.ops.math_ops import cast
from tf1compat.ops.reduction_ops import reduce_prod
from tf1compat.ops.string_ops import string_length, substr

__all__ = ["fingerprint", "unicode_transcode", "unicode_encode", "unicode_decode",
           "unicode_decode_with_offsets", "unicode_split", "unicode_split_with_offsets",
           "bytes_split", "ngrams", "unsorted_segment_join", "decode_op", "chars_of"]

_CODECS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _strings(x: Any) -> np.ndarray:
    return np.asarray(x, dtype=object)


def _object_array(values: Sequence[Any], shape: Tuple[int, ...]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out.reshape(shape)


# -- Fingerprint -----------------------------------------------------------------------------

def _fingerprint_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def fingerprint_rows(data: Any, method: Any) -> torch.Tensor:
        name = method.item() if isinstance(method, np.ndarray) else method
        name = name.decode() if isinstance(name, bytes) else str(name)
        if name != "farmhash64":
            raise _invalid(f"Unsupported fingerprint method: {name}")
        if isinstance(data, np.ndarray):                  # strings
            rows = data.reshape(data.shape[0], int(np.prod(data.shape[1:])))
            out = []
            for row in rows:
                prints = [fingerprint64(bytes(s)) for s in row]
                value = prints[0] if len(prints) == 1 else fingerprint64(
                    b"".join(p.to_bytes(8, "little") for p in prints))
                out.append(list(value.to_bytes(8, "little")))
        else:
            host = data.detach().cpu().contiguous().numpy()
            rows = host.reshape(host.shape[0], int(np.prod(host.shape[1:])))
            out = [list(fingerprint64(row.tobytes()).to_bytes(8, "little")) for row in rows]
        return torch.tensor(out, dtype=torch.uint8).reshape(-1, 8).to(kctx.device)
    return fingerprint_rows


def _fingerprint_shape(ctx: Any) -> List[TensorShape]:
    data = ctx.shape(0)
    if data.rank is not None and data.rank < 1:
        raise ValueError(f"Shape must be at least rank 1 but is rank {data.rank} "
                         f"{node_desc(ctx)}")
    method = ctx.const(1)
    if method is not None:
        text = method.item() if isinstance(method, np.ndarray) else method
        text = text.decode() if isinstance(text, bytes) else str(text)
        if text != "farmhash64":
            raise ValueError(f"Unsupported method: {text} {node_desc(ctx, computed=(1,))}")
    return [TensorShape([data.as_list()[0] if data.rank else None, 8])]


declare("Fingerprint", inputs=["data: T", "method: string"], outputs=["fingerprint: uint8"],
        attrs={"T": Type()}, shape=_fingerprint_shape, kernel=_fingerprint_kernel,
        grad="unregistered", cpu_only=True)


def fingerprint(data: Any, method: str = "farmhash64", name: Optional[str] = None) -> Tensor:
    """`tf.fingerprint`: an 8-byte FarmHash fingerprint of each row (first dimension)."""
    return apply_op1("Fingerprint", [data, method], name=name)


# -- Unicode -----------------------------------------------------------------------------------

_ERRORS = ("strict", "replace", "ignore")
# An undecodable byte span is marked in the decoded text by a lone low surrogate (which no
# strict UTF decoder can produce) followed by one carrying the span's length in bytes, so
# the byte offset of every character can be recovered after decoding.
_MARK = 0xDC00


def _mark_invalid(error: UnicodeDecodeError) -> Tuple[str, int]:
    return chr(_MARK) + chr(_MARK + error.end - error.start), error.end


codecs.register_error("tf1compat.mark_invalid", _mark_invalid)


def _check_choice(op_type: str, attr: str, value: str, allowed: Sequence[str]) -> None:
    """TF's op-def check of a string attr with a fixed set of values (graph build)."""
    if value not in allowed:
        choices = ", ".join(f'"{v}"' for v in allowed)
        raise ValueError(f"Attr '{attr}' of '{op_type}' Op passed string '{value}' not in: "
                         f"{choices}.")


def _input_codec(encoding: str, raw: bytes) -> str:
    """The Python codec for an ICU input encoding name (ICU reads UTF-16/32 without a byte
    order mark as big-endian)."""
    upper = encoding.upper()
    if upper in ("UTF-16", "UTF16", "UTF-32", "UTF32"):
        width = 2 if "16" in upper else 4
        boms = (codecs.BOM_UTF16_BE, codecs.BOM_UTF16_LE) if width == 2 else \
            (codecs.BOM_UTF32_BE, codecs.BOM_UTF32_LE)
        if not raw.startswith(boms):
            return f"utf-{width * 8}-be"
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise _invalid(f"Could not create converter for input encoding: {encoding}") from None


def _decode_one(raw: bytes, encoding: str, errors_mode: str, replacement: int,
                replace_control: bool) -> Tuple[List[int], List[int]]:
    """(code points, byte offsets of their first bytes) of one string, with TF's handling
    of invalid sequences (one replacement per maximal invalid subpart)."""
    codec = _input_codec(encoding, raw)
    text = raw.decode(codec, errors="tf1compat.mark_invalid")
    points: List[int] = []
    starts: List[int] = []
    position, i = 0, 0
    while i < len(text):
        code = ord(text[i])
        if code == _MARK:
            if errors_mode == "strict":
                raise _invalid("Invalid formatting on input string")
            if errors_mode == "replace":
                points.append(replacement)
                starts.append(position)
            position += ord(text[i + 1]) - _MARK
            i += 2
            continue
        points.append(replacement if replace_control and code < 0x20 else code)
        starts.append(position)
        position += len(text[i].encode(codec, errors="surrogatepass"))
        i += 1
    return points, starts


def _check_replacement(replacement: int) -> None:
    if not 0 <= replacement <= 0x10FFFF:
        raise _invalid("replacement_char out of unicode codepoint range")


def _encode_one(points: Sequence[int], encoding: str, errors_mode: str, replacement: int
                ) -> bytes:
    codec = _CODECS[encoding]
    if 0xD800 <= replacement <= 0xDFFF:
        replacement = 0xFFFD          # a surrogate cannot be encoded: ICU's substitute
    out = []
    for code in points:
        code = int(code)
        if not (0 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF):
            if errors_mode == "strict":
                raise _invalid("Code point is out of range for Unicode, or is a surrogate.")
            if errors_mode == "ignore":
                continue
            code = replacement
        out.append(chr(code))
    return "".join(out).encode(codec)


def _transcode_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    attrs = node.attrs
    source, target = attrs["input_encoding"], attrs["output_encoding"]
    mode, replacement = attrs["errors"], attrs["replacement_char"]
    control = attrs["replace_control_characters"]

    def transcode(x: Any) -> np.ndarray:
        _check_replacement(replacement)
        values = _strings(x)
        out = [_encode_one(_decode_one(bytes(s), source, mode, replacement, control)[0],
                           target, mode, replacement) for s in values.reshape(-1).tolist()]
        return _object_array(out, values.shape)
    return transcode


declare("UnicodeTranscode", inputs=["input: string"], outputs=["output: string"],
        attrs={"input_encoding": "", "output_encoding": "", "errors": "replace",
               "replacement_char": 65533, "replace_control_characters": False},
        shape=lambda ctx: [ctx.shape(0)], kernel=_transcode_kernel, grad="unregistered",
        cpu_only=True)


def unicode_transcode(input: Any, input_encoding: str, output_encoding: str,  # noqa: A002
                      errors: str = "replace", replacement_char: int = 65533,
                      replace_control_characters: bool = False,
                      name: Optional[str] = None) -> Tensor:
    """`tf.strings.unicode_transcode`: each string re-encoded from one encoding to another."""
    _check_choice("UnicodeTranscode", "errors", errors, _ERRORS)
    _check_choice("UnicodeTranscode", "output_encoding", output_encoding, tuple(_CODECS))
    return apply_op1("UnicodeTranscode", [input],
                     {"input_encoding": input_encoding, "output_encoding": output_encoding,
                      "errors": errors, "replacement_char": int(replacement_char),
                      "replace_control_characters": bool(replace_control_characters)},
                     name=name)


def _decode_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    attrs = node.attrs
    with_offsets = node.type == "UnicodeDecodeWithOffsets"
    split_dtype = attrs["Tsplits"].torch_dtype

    def decode(x: Any) -> tuple:
        _check_replacement(attrs["replacement_char"])
        values = _strings(x).reshape(-1).tolist()
        splits, points, starts = [0], [], []
        for s in values:
            p, o = _decode_one(bytes(s), attrs["input_encoding"], attrs["errors"],
                               attrs["replacement_char"], attrs["replace_control_characters"])
            points.extend(p)
            starts.extend(o)
            splits.append(len(points))
        out = (torch.tensor(splits, dtype=split_dtype),
               torch.tensor(points, dtype=torch.int32))
        if with_offsets:
            out = out + (torch.tensor(starts, dtype=torch.int64),)
        return out
    return decode


_DECODE_ATTRS = {"input_encoding": "", "errors": "replace", "replacement_char": 65533,
                 "replace_control_characters": False,
                 "Tsplits": Type((D.int32, D.int64), default=D.int64)}
def _decode_shape(ctx: Any) -> List[TensorShape]:
    """TF's: row_splits holds one more entry than the input has strings (when known)."""
    n = ctx.shape(0).num_elements()
    splits = TensorShape([None if n is None else n + 1])
    return [splits] + [TensorShape([None])] * (2 if ctx.op_type.endswith("Offsets") else 1)


declare("UnicodeDecode", inputs=["input: string"],
        outputs=["row_splits: Tsplits", "char_values: int32"], attrs=dict(_DECODE_ATTRS),
        shape=_decode_shape, kernel=_decode_kernel, grad="unregistered", cpu_only=True)
declare("UnicodeDecodeWithOffsets", inputs=["input: string"],
        outputs=["row_splits: Tsplits", "char_values: int32", "char_to_byte_starts: int64"],
        attrs=dict(_DECODE_ATTRS),
        shape=_decode_shape, kernel=_decode_kernel, grad="unregistered", cpu_only=True)


def _encode_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    attrs = node.attrs

    def encode(values: torch.Tensor, splits: torch.Tensor) -> np.ndarray:
        _check_replacement(attrs["replacement_char"])
        points = values.tolist()
        bounds = splits.tolist()
        out = [_encode_one(points[a:b], attrs["output_encoding"], attrs["errors"],
                           attrs["replacement_char"]) for a, b in zip(bounds[:-1], bounds[1:])]
        return _object_array(out, (len(out),))
    return encode


declare("UnicodeEncode", inputs=["input_values: int32", "input_splits: Tsplits"],
        outputs=["output: string"],
        attrs={"errors": "replace", "output_encoding": "", "replacement_char": 65533,
               "Tsplits": Type((D.int32, D.int64), default=D.int64)},
        shape=lambda ctx: [TensorShape([None if ctx.shape(1).rank is None or
                                        ctx.shape(1).as_list()[0] is None
                                        else ctx.shape(1).as_list()[0] - 1])],
        kernel=_encode_kernel, grad="unregistered", cpu_only=True)


def unicode_encode(input: Any, output_encoding: str, errors: str = "replace",  # noqa: A002
                   replacement_char: int = 65533, name: Optional[str] = None) -> Tensor:
    """`tf.strings.unicode_encode`: the last axis of code points encoded as strings."""
    _check_choice("UnicodeEncode", "errors", errors, ("ignore", "replace", "strict"))
    _check_choice("UnicodeEncode", "output_encoding", output_encoding, tuple(_CODECS))
    with name_scope(name, "UnicodeEncode", [input]):
        values = convert_to_tensor(input, name="input", dtype=D.int32)
        rank = values.shape.rank
        if rank is None:
            raise ValueError("Rank of input_tensor must be statically known.")
        if rank == 0:
            raise ValueError("input_tensor's rank must be at least 1.")
        attrs = {"output_encoding": output_encoding, "errors": errors,
                 "replacement_char": int(replacement_char)}
        dims = shape(values, out_type=D.int64)
        width = dims[-1]
        count = reduce_prod(dims[:-1])
        splits = range_(count + 1) * width
        flat = values if rank == 1 else reshape(values, [-1])
        with name_scope("UnicodeEncode"):
            encoded = apply_op1("UnicodeEncode", [flat, splits], attrs)
        if rank == 2:
            return encoded
        outer = values.shape[:-1]
        return reshape(encoded, outer.as_list() if outer.is_fully_defined() else dims[:-1])


def _ragged_not_supported(what: str) -> NotImplementedError:
    return NotImplementedError(f"tf.strings.{what} of a tensor of rank 1 or more returns a "
                               "tf.RaggedTensor, which tf1compat does not support yet; "
                               "call it on scalar strings")


def decode_op(values: Tensor, input_encoding: str, errors: str, replacement_char: int,
              replace_control_characters: bool, with_offsets: bool) -> list:
    """The outputs of UnicodeDecode(WithOffsets) on `values`, strings of any rank read in
    order: row_splits, code points[, byte starts]."""
    op_type = "UnicodeDecodeWithOffsets" if with_offsets else "UnicodeDecode"
    _check_choice(op_type, "errors", errors, _ERRORS)
    attrs = {"input_encoding": input_encoding, "errors": errors,
             "replacement_char": int(replacement_char),
             "replace_control_characters": bool(replace_control_characters)}
    return apply_op(op_type, [values], attrs).outputs


def chars_of(points: Tensor, encoding: str, errors: str, replacement_char: int) -> Tensor:
    """Each code point of a vector as a one-character string."""
    return unicode_encode(expand_dims(points, 1), encoding, errors, replacement_char)


def _decode_scalar(input: Any, input_encoding: str, errors: str, replacement_char: int,  # noqa: A002
                   replace_control_characters: bool, with_offsets: bool, what: str) -> tuple:
    values = convert_to_tensor(input, dtype=D.string)
    if values.shape.rank != 0:
        raise _ragged_not_supported(what)
    return tuple(decode_op(values, input_encoding, errors, replacement_char,
                           replace_control_characters, with_offsets)[1:])


def unicode_decode(input: Any, input_encoding: str, errors: str = "replace",  # noqa: A002
                   replacement_char: int = 65533, replace_control_characters: bool = False,
                   name: Optional[str] = None) -> Tensor:
    """`tf.strings.unicode_decode`: the code points of a (scalar) string."""
    with name_scope(name, "UnicodeDecode", [input]):
        return _decode_scalar(input, input_encoding, errors, replacement_char,
                              replace_control_characters, False, "unicode_decode")[0]


def unicode_decode_with_offsets(input: Any, input_encoding: str,  # noqa: A002
                                errors: str = "replace", replacement_char: int = 65533,
                                replace_control_characters: bool = False,
                                name: Optional[str] = None) -> Tuple[Tensor, Tensor]:
    """`tf.strings.unicode_decode_with_offsets`: code points and their byte offsets."""
    with name_scope(name, "UnicodeDecodeWithOffsets", [input]):
        return _decode_scalar(input, input_encoding, errors, replacement_char,
                              replace_control_characters, True,
                              "unicode_decode_with_offsets")


def _split(input: Any, input_encoding: str, errors: str, replacement_char: int,  # noqa: A002
           with_offsets: bool, what: str) -> tuple:
    points = _decode_scalar(input, input_encoding, errors, replacement_char, False,
                            with_offsets, what)
    chars = chars_of(points[0], input_encoding, errors, replacement_char)
    return (chars,) + tuple(points[1:])


def unicode_split(input: Any, input_encoding: str, errors: str = "replace",  # noqa: A002
                  replacement_char: int = 65533, name: Optional[str] = None) -> Tensor:
    """`tf.strings.unicode_split`: a (scalar) string split into its characters."""
    with name_scope(name, "UnicodeSplit", [input]):
        return _split(input, input_encoding, errors, replacement_char, False,
                      "unicode_split")[0]


def unicode_split_with_offsets(input: Any, input_encoding: str,  # noqa: A002
                               errors: str = "replace", replacement_char: int = 65533,
                               name: Optional[str] = None) -> Tuple[Tensor, Tensor]:
    """`tf.strings.unicode_split_with_offsets`: characters and their byte offsets."""
    with name_scope(name, "UnicodeSplitWithOffsets", [input]):
        return _split(input, input_encoding, errors, replacement_char, True,
                      "unicode_split_with_offsets")


def bytes_split(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    """`tf.strings.bytes_split`: a (scalar) string split into single bytes."""
    with name_scope(name, "StringsByteSplit", [input]):
        values = convert_to_tensor(input, dtype=D.string, name="input")
        if values.shape.rank != 0:
            raise _ragged_not_supported("bytes_split")
        count = string_length(values)
        starts = range_(count)
        return substr(fill(shape(starts), values), starts, fill(shape(starts), 1))


# -- StringNGrams ----------------------------------------------------------------------------

def _ngrams_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    attrs = node.attrs
    separator = attrs["separator"].encode() if isinstance(attrs["separator"], str) \
        else attrs["separator"]
    left = attrs["left_pad"].encode() if isinstance(attrs["left_pad"], str) \
        else attrs["left_pad"]
    right = attrs["right_pad"].encode() if isinstance(attrs["right_pad"], str) \
        else attrs["right_pad"]
    widths, pad_width = list(attrs["ngram_widths"]), attrs["pad_width"]
    preserve = attrs["preserve_short_sequences"]
    split_dtype = attrs["Tsplits"].torch_dtype

    def string_ngrams(data: Any, splits: torch.Tensor) -> tuple:
        tokens = [bytes(t) for t in _strings(data).reshape(-1).tolist()]
        bounds = splits.tolist()
        out, out_splits = [], [0]
        for a, b in zip(bounds[:-1], bounds[1:]):
            row = tokens[a:b]
            found = []
            for w in widths:
                pad = (w - 1 if pad_width < 0 else min(pad_width, w - 1))
                padded = [left] * pad + row + [right] * pad
                found.extend(separator.join(padded[i:i + w])
                             for i in range(max(0, len(padded) - w + 1)))
            if not found and preserve and row:
                pad = max(pad_width, 0) if pad_width >= 0 else max(widths) - 1
                found.append(separator.join([left] * pad + row + [right] * pad))
            out.extend(found)
            out_splits.append(len(out))
        return _object_array(out, (len(out),)), torch.tensor(out_splits, dtype=split_dtype)
    return string_ngrams


declare("StringNGrams", inputs=["data: string", "data_splits: Tsplits"],
        outputs=["ngrams: string", "ngrams_splits: Tsplits"],
        attrs={"separator": "", "ngram_widths": [], "left_pad": "", "right_pad": "",
               "pad_width": 0, "preserve_short_sequences": False,
               "Tsplits": Type((D.int32, D.int64), default=D.int64)},
        shape=lambda ctx: [TensorShape([None]), ctx.shape(1)], kernel=_ngrams_kernel,
        grad="unregistered", cpu_only=True)


def ngrams(data: Any, ngram_width: Any, separator: str = " ", pad_values: Any = None,
           padding_width: Optional[int] = None, preserve_short_sequences: bool = False,
           name: Optional[str] = None) -> Tensor:
    """`tf.strings.ngrams`: n-grams of the innermost axis of a dense string tensor (joined
    with `separator`, optionally padded)."""
    with name_scope(name, "StringNGrams", [data]):
        if pad_values is None:
            left_pad = right_pad = ""
        elif isinstance(pad_values, (list, tuple)):
            if len(pad_values) != 2 or not all(isinstance(v, (str, bytes))
                                               for v in pad_values):
                raise TypeError("pad_values must be a string, tuple of strings, or None.")
            left_pad, right_pad = pad_values
        elif isinstance(pad_values, (str, bytes)):
            left_pad = right_pad = pad_values
        else:
            raise TypeError("pad_values must be a string, tuple of strings, or None.")
        if padding_width is not None:
            if padding_width < 1:
                raise ValueError("padding_width must be greater than 0.")
            if pad_values is None:
                raise ValueError("pad_values must be provided if padding_width is set.")
        widths = [ngram_width] if isinstance(ngram_width, int) else list(ngram_width)
        for width in widths:
            if width < 1:
                raise ValueError(f"All ngram_widths must be greater than 0. Got {width}")
        data = convert_to_tensor(data, name="data", dtype=D.string)
        if data.shape.rank is None or data.shape.rank == 0:
            raise ValueError("Data must have rank>0")
        dims = shape(data)
        with name_scope("RaggedFromTensor"):
            dims64 = cast(dims, D.int64)
            splits = range_(reduce_prod(dims64[:-1]) + 1) * dims64[-1]
            flat = reshape(data, [-1])
        op = apply_op("StringNGrams", [flat, splits],
                      {"separator": separator, "ngram_widths": widths,
                       "left_pad": left_pad, "right_pad": right_pad,
                       "pad_width": -1 if padding_width is None and pad_values is not None
                       else (padding_width or 0),
                       "preserve_short_sequences": preserve_short_sequences})
        grams = op.outputs[0]
        if data.shape.rank == 1:
            return grams
        return reshape(grams, stack([dims[i] for i in range(data.shape.rank - 1)] + [-1]))


# -- UnsortedSegmentJoin ---------------------------------------------------------------------

def _segment_join_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    separator = node.attrs["separator"]
    separator = separator.encode() if isinstance(separator, str) else separator

    def unsorted_segment_join(inputs: Any, ids: torch.Tensor, num: Any) -> np.ndarray:
        values = _strings(inputs)
        ids_list = ids.reshape(-1).tolist()
        count = int(num)
        if any(not 0 <= segment < count for segment in ids_list):
            raise _invalid("segment_ids are not allowed to exceed num_segments or to have "
                           "negative values.")
        tail = values.shape[ids.dim():]
        rows = values.reshape((len(ids_list),) + tail)
        out = np.empty((count,) + tail, dtype=object)
        for index in np.ndindex(*tail):
            members: List[List[bytes]] = [[] for _ in range(count)]
            for row, segment in enumerate(ids_list):
                members[segment].append(bytes(rows[(row,) + index]))
            for segment in range(count):
                out[(segment,) + index] = separator.join(members[segment])
        return out
    return unsorted_segment_join


def _segment_join_shape(ctx: Any) -> List[TensorShape]:
    data, ids = ctx.shape(0), ctx.shape(1)
    num = ctx.const(2)
    if ctx.shape(2).rank not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {ctx.shape(2).rank} "
                         f"{node_desc(ctx)}")
    if data.rank is None or ids.rank is None:
        return [unknown_shape()]
    if data.rank < ids.rank:
        raise ValueError(f"Shape must be at least rank {ids.rank} but is rank {data.rank} "
                         f"{node_desc(ctx)}")
    for x, y in zip(data.as_list(), ids.as_list()):
        if x is not None and y is not None and x != y:
            raise ValueError(f"Dimensions must be equal, but are {x} and {y} {node_desc(ctx)}")
    return [TensorShape([None if num is None else int(num)] + data.as_list()[ids.rank:])]


declare("UnsortedSegmentJoin", inputs=["inputs: string", "segment_ids: Tindices",
                                       "num_segments: Tnumsegments"],
        outputs=["output: string"],
        attrs={"separator": "", "Tindices": Type((D.int32, D.int64)),
               "Tnumsegments": Type((D.int32, D.int64), default=D.int32)},
        shape=_segment_join_shape, kernel=_segment_join_kernel, grad="unregistered", cpu_only=True)


def unsorted_segment_join(inputs: Any, segment_ids: Any, num_segments: Any,
                          separator: str = "", name: Optional[str] = None) -> Tensor:
    """`tf.strings.unsorted_segment_join`: strings joined per segment, in input order."""
    return apply_op1("UnsortedSegmentJoin", [inputs, segment_ids, num_segments],
                     {"separator": separator}, name=name)
