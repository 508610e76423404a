"""String ops that return or take RaggedTensors (TF's ragged_string_ops):
`tf.strings.split` / `tf.string_split` with `result_type="RaggedTensor"` (and so
`tf.compat.v2.strings.split`: the ops layer's SparseTensor of tokens, rows made ragged;
inputs of rank 0 or 1), `tf.strings.unicode_decode` / `unicode_split` (with offsets) on
strings of any rank or ragged strings (one UnicodeDecode of all the strings, its row
splits the new innermost ragged dimension), and `tf.strings.reduce_join` over ragged
axes (ragged dispatch)."""

from __future__ import annotations

from typing import Any, Callable, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import (array_ops, creation_ops, dispatch, reduction_ops, string_ops,
                           string_unicode_ops)
from tf1compat.ragged.ragged_reduce import reduction, reduction_handler
from tf1compat.ragged.ragged_tensor import RaggedTensor

__all__ = ["strings_split_v1", "string_split", "unicode_decode", "unicode_decode_with_offsets",
           "unicode_split", "unicode_split_with_offsets"]


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


def _decode(input: Any, input_encoding: str, errors: str,  # noqa: A002
            replacement_char: int, replace_control_characters: bool, with_offsets: bool,
            split: bool, scalar_fn: Callable[..., Any]) -> Any:
    """Code points (or characters, `split`) of each string, a new ragged dimension."""
    ragged = input if isinstance(input, RaggedTensor) else None
    strings = ragged.flat_values if ragged is not None else \
        convert_to_tensor(input, dtype=D.string, name="input")
    rank = strings.shape.rank
    if ragged is None and rank == 0:
        return scalar_fn()
    if rank is None:
        raise NotImplementedError("tf.strings.unicode_decode / unicode_split of strings of "
                                  "unknown rank is not supported by tf1compat")
    outputs = string_unicode_ops.decode_op(array_ops.reshape(strings, [-1]), input_encoding,
                                           errors, replacement_char,
                                           replace_control_characters, with_offsets)
    splits, parts = outputs[0], list(outputs[1:])
    if split:
        parts[0] = string_unicode_ops.chars_of(parts[0], input_encoding, errors,
                                               replacement_char)
    shape = array_ops.shape(strings, out_type=splits.dtype)
    results = []
    for part in parts:
        rows = _uniform_rows(RaggedTensor.from_row_splits(part, splits, validate=False),
                             shape, rank)
        results.append(ragged.with_flat_values(rows) if ragged is not None else rows)
    return tuple(results) if with_offsets else results[0]


def unicode_decode(input: Any, input_encoding: str, errors: str = "replace",  # noqa: A002
                   replacement_char: int = 65533, replace_control_characters: bool = False,
                   name: Optional[str] = None) -> Any:
    """`tf.strings.unicode_decode`: the code points of each string (a RaggedTensor for
    inputs of rank 1 and more or ragged inputs)."""
    with name_scope(name, "UnicodeDecode", [input]):
        return _decode(input, input_encoding, errors, replacement_char,
                       replace_control_characters, False, False,
                       lambda: string_unicode_ops.unicode_decode(
                           input, input_encoding, errors, replacement_char,
                           replace_control_characters))


def unicode_decode_with_offsets(input: Any, input_encoding: str,  # noqa: A002
                                errors: str = "replace", replacement_char: int = 65533,
                                replace_control_characters: bool = False,
                                name: Optional[str] = None) -> Any:
    """`tf.strings.unicode_decode_with_offsets`: code points and their byte offsets."""
    with name_scope(name, "UnicodeDecodeWithOffsets", [input]):
        return _decode(input, input_encoding, errors, replacement_char,
                       replace_control_characters, True, False,
                       lambda: string_unicode_ops.unicode_decode_with_offsets(
                           input, input_encoding, errors, replacement_char,
                           replace_control_characters))


def unicode_split(input: Any, input_encoding: str, errors: str = "replace",  # noqa: A002
                  replacement_char: int = 65533, name: Optional[str] = None) -> Any:
    """`tf.strings.unicode_split`: each string's characters."""
    with name_scope(name, "UnicodeSplit", [input]):
        return _decode(input, input_encoding, errors, replacement_char, False, False, True,
                       lambda: string_unicode_ops.unicode_split(
                           input, input_encoding, errors, replacement_char))


def unicode_split_with_offsets(input: Any, input_encoding: str,  # noqa: A002
                               errors: str = "replace", replacement_char: int = 65533,
                               name: Optional[str] = None) -> Any:
    """`tf.strings.unicode_split_with_offsets`: characters and their byte offsets."""
    with name_scope(name, "UnicodeSplitWithOffsets", [input]):
        return _decode(input, input_encoding, errors, replacement_char, False, True, True,
                       lambda: string_unicode_ops.unicode_split_with_offsets(
                           input, input_encoding, errors, replacement_char))


def _reduce_join(fn: Callable[..., Any], bound: dict) -> Callable[..., Any]:
    """`tf.reduce_join` / `tf.strings.reduce_join` of a RaggedTensor: joined with
    UnsortedSegmentJoin over a ragged axis (TF's ragged_string_ops.reduce_join)."""
    separator = bound.get("separator", "")
    return reduction(lambda x, axis: fn(x, axis, separator=separator),
                     lambda data, ids, n: string_unicode_ops.unsorted_segment_join(
                         data, ids, n, separator=separator), "RaggedSegmentJoin")


dispatch.register("reduce_join", reduction_handler(_reduce_join, "inputs"))
