"""String ops that return or take RaggedTensors (TF's ragged_string_ops):
`tf.strings.split` / `tf.string_split` with `result_type="RaggedTensor"` (and so
`tf.compat.v2.strings.split`: the ops layer's SparseTensor of tokens, rows made ragged;
inputs of rank 0 or 1), `tf.strings.unicode_decode` / `unicode_split` (with offsets) and
`bytes_split` on strings of any rank or ragged strings (one UnicodeDecode, or one substr,
of all the strings; its row splits the new innermost ragged dimension), and
`tf.strings.reduce_join` over ragged axes (ragged dispatch)."""

from __future__ import annotations

from typing import Any, Callable, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import (array_ops, creation_ops, dispatch, manip_ops, math_ops,
                           reduction_ops, string_ops, string_unicode_ops)
from tf1compat.ragged import _row_ops as R
from tf1compat.ragged.ragged_reduce import reduction, reduction_handler
from tf1compat.ragged.ragged_tensor import RaggedTensor

__all__ = ["bytes_split", "strings_split_v1", "string_split", "unicode_decode",
           "unicode_decode_with_offsets", "unicode_split", "unicode_split_with_offsets"]


def _ragged(tokens: Any, value: Any, scalar: bool = False) -> Any:
    rt = RaggedTensor.from_sparse(tokens)
    nrows = getattr(value, "shape", None)
    nrows = len(value) if isinstance(value, (list, tuple)) else \
        (nrows.as_list()[0] if nrows is not None and nrows.rank == 1 else None)
    if nrows is not None:   # the input's length, as TF's static shape knows it
        rt.row_splits.set_shape([nrows + 1])
    return rt[0] if scalar else rt


def _is_scalar(value: Any) -> bool:
    shape = getattr(value, "shape", None)
    if shape is not None and hasattr(shape, "rank"):
        return shape.rank == 0
    return isinstance(value, (str, bytes))


def strings_split_v1(input: Any = None, sep: Any = None, maxsplit: int = -1,  # noqa: A002
                     result_type: str = "SparseTensor", source: Any = None,
                     name: Optional[str] = None) -> Any:
    """`tf.strings.split`: str.split rules; a SparseTensor, or a RaggedTensor of tokens
    with `result_type="RaggedTensor"` (a 1-D Tensor for a scalar input, as TF)."""
    if result_type != "RaggedTensor":
        return string_ops.strings_split_v1(input, sep, maxsplit, result_type, source, name)
    value = source if input is None else input
    tokens = string_ops.strings_split_v1(input, sep, maxsplit, "SparseTensor", source, name)
    return _ragged(tokens, value, _is_scalar(value))


def string_split(source: Any, sep: Any = None, skip_empty: bool = True, delimiter: Any = None,
                 result_type: str = "SparseTensor", name: Optional[str] = None) -> Any:
    """`tf.string_split` (TF1): tokens split at any byte of `delimiter`; a SparseTensor, or
    a RaggedTensor with `result_type="RaggedTensor"`."""
    if result_type != "RaggedTensor":
        return string_ops.string_split(source, sep, skip_empty, delimiter, result_type, name)
    tokens = string_ops.string_split(source, sep, skip_empty, delimiter, "SparseTensor", name)
    return _ragged(tokens, source)


def _uniform_rows(flat: Any, shape: Any, rank: int) -> Any:
    """`flat` (ragged rows, one per string) grouped back into the dense dimensions
    `shape[1:rank]` of the strings, innermost first."""
    for i in reversed(range(1, rank)):
        step = shape[i]
        count = reduction_ops.reduce_prod(shape[:i])
        splits = creation_ops.range(count + 1, dtype=step.dtype) * step
        flat = RaggedTensor.from_row_splits(flat, splits, validate=False)
    return flat


def _per_string(input: Any, rows_of: Callable[[Any], list]) -> list:  # noqa: A002
    """`rows_of(strings)` (RaggedTensors of one row per string of a vector) applied to all
    the strings of `input`, dense or ragged, each result given back the input's dimensions
    (a scalar's: its one row)."""
    ragged = input if isinstance(input, RaggedTensor) else None
    strings = ragged.flat_values if ragged is not None else \
        convert_to_tensor(input, dtype=D.string, name="input")
    rank = strings.shape.rank
    if rank is None:
        raise NotImplementedError("tf.strings.unicode_decode / unicode_split / bytes_split of "
                                  "strings of unknown rank are not supported by tf1compat")
    shape = array_ops.shape(strings, out_type=D.int64)
    results = []
    for rows in rows_of(array_ops.reshape(strings, [-1])):
        if rank == 0:
            results.append(rows[0])
            continue
        rows = _uniform_rows(rows.with_row_splits_dtype(D.int64), shape, rank)
        results.append(ragged.with_flat_values(rows) if ragged is not None else rows)
    return results


def _decode(input: Any, input_encoding: str, errors: str,  # noqa: A002
            replacement_char: int, replace_control_characters: bool, with_offsets: bool,
            split: bool) -> Any:
    """Code points (or characters, `split`) of each string, a new ragged dimension."""
    def rows_of(strings: Any) -> list:
        outputs = string_unicode_ops.decode_op(strings, input_encoding, errors,
                                               replacement_char, replace_control_characters,
                                               with_offsets)
        splits, parts = outputs[0], list(outputs[1:])
        if split:
            parts[0] = string_unicode_ops.chars_of(parts[0], input_encoding, errors,
                                                   replacement_char)
        return [RaggedTensor.from_row_splits(part, splits, validate=False) for part in parts]
    results = _per_string(input, rows_of)
    return tuple(results) if with_offsets else results[0]


def bytes_split(input: Any, name: Optional[str] = None) -> Any:  # noqa: A002
    """`tf.strings.bytes_split`: each string's bytes (a RaggedTensor for inputs of rank 1
    and more or ragged inputs)."""
    if _is_scalar(input):   # the ops layer's graph (a 1-D Tensor)
        return string_unicode_ops.bytes_split(input, name)
    with name_scope(name, "StringsByteSplit", [input]):
        def rows_of(strings: Any) -> list:
            lengths = math_ops.cast(string_ops.string_length(strings), D.int64)
            at = math_ops.cast(R.ragged_range_positions(creation_ops.zeros_like(lengths),
                                                        lengths), D.int32)
            chars = string_ops.substr(manip_ops.repeat(strings, lengths), at,
                                      creation_ops.ones_like(at))
            return [RaggedTensor.from_row_lengths(chars, lengths, validate=False)]
        return _per_string(input, rows_of)[0]


def unicode_decode(input: Any, input_encoding: str, errors: str = "replace",  # noqa: A002
                   replacement_char: int = 65533, replace_control_characters: bool = False,
                   name: Optional[str] = None) -> Any:
    """`tf.strings.unicode_decode`: the code points of each string (a RaggedTensor for
    inputs of rank 1 and more or ragged inputs)."""
    if _is_scalar(input):
        return string_unicode_ops.unicode_decode(input, input_encoding, errors,
                                                 replacement_char, replace_control_characters,
                                                 name)
    with name_scope(name, "UnicodeDecode", [input]):
        return _decode(input, input_encoding, errors, replacement_char,
                       replace_control_characters, False, False)


def unicode_decode_with_offsets(input: Any, input_encoding: str,  # noqa: A002
                                errors: str = "replace", replacement_char: int = 65533,
                                replace_control_characters: bool = False,
                                name: Optional[str] = None) -> Any:
    """`tf.strings.unicode_decode_with_offsets`: code points and their byte offsets."""
    if _is_scalar(input):
        return string_unicode_ops.unicode_decode_with_offsets(
            input, input_encoding, errors, replacement_char, replace_control_characters, name)
    with name_scope(name, "UnicodeDecodeWithOffsets", [input]):
        return _decode(input, input_encoding, errors, replacement_char,
                       replace_control_characters, True, False)


def unicode_split(input: Any, input_encoding: str, errors: str = "replace",  # noqa: A002
                  replacement_char: int = 65533, name: Optional[str] = None) -> Any:
    """`tf.strings.unicode_split`: each string's characters."""
    if _is_scalar(input):
        return string_unicode_ops.unicode_split(input, input_encoding, errors,
                                                replacement_char, name)
    with name_scope(name, "UnicodeSplit", [input]):
        return _decode(input, input_encoding, errors, replacement_char, False, False, True)


def unicode_split_with_offsets(input: Any, input_encoding: str,  # noqa: A002
                               errors: str = "replace", replacement_char: int = 65533,
                               name: Optional[str] = None) -> Any:
    """`tf.strings.unicode_split_with_offsets`: characters and their byte offsets."""
    if _is_scalar(input):
        return string_unicode_ops.unicode_split_with_offsets(input, input_encoding, errors,
                                                             replacement_char, name)
    with name_scope(name, "UnicodeSplitWithOffsets", [input]):
        return _decode(input, input_encoding, errors, replacement_char, False, True, True)


def _reduce_join(fn: Callable[..., Any], bound: dict) -> Callable[..., Any]:
    """`tf.reduce_join` / `tf.strings.reduce_join` of a RaggedTensor: joined with
    UnsortedSegmentJoin over a ragged axis (TF's ragged_string_ops.reduce_join)."""
    separator = bound.get("separator", "")
    return reduction(lambda x, axis: fn(x, axis, separator=separator),
                     lambda data, ids, n: string_unicode_ops.unsorted_segment_join(
                         data, ids, n, separator=separator), "RaggedSegmentJoin")


dispatch.register("reduce_join", reduction_handler(_reduce_join, "inputs"))
