"""TF's CSVDatasetV2 op: its declaration and its run-time dataset (TF's CSV grammar).

A record ends at `\\n`, `\\r` or `\\r\\n`; fields are split at the one-byte delimiter;
with `use_quote_delim` a field that starts with `"` is quoted (delimiters and line breaks
inside it are data, `""` is a quote). An empty field or one equal to `na_value` takes its
column's default (InvalidArgumentError "Field i is required but missing in record!" when
the default is empty); numbers are parsed by TF's safe_strto* rules. A bad record raises
InvalidArgumentError for that element only: the next `get_next` reads the next record,
as TF's iterator does (`ignore_errors` skips such records). With `header` the first record
of every file is skipped. Files are read whole, decompressed for GZIP/ZLIB.
"""

from __future__ import annotations

import re
import zlib
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.op_def import TypeList
from tf1compat.data import _runtime as rt
from tf1compat.data._ops import dataset_op, scalar_bool, scalar_bytes, scalar_int
from tf1compat.data.tf_record import local_path
from tf1compat.ops.string_ops import _parse_number

__all__ = ["CsvValue", "read_file_bytes"]

_TYPE_NAMES = {D.int32: "int32", D.int64: "int64", D.float32: "float", D.float64: "double"}
_QUOTE = 0x22
_LINE_END = re.compile(rb"[\r\n]")


def read_file_bytes(filename: str, compression: str) -> bytes:
    """The (decompressed) bytes of a file, TF's NotFoundError when it is missing."""
    try:
        with open(filename, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise errors.NotFoundError(None, None,
                                   f"{filename}; No such file or directory") from None
    except IsADirectoryError:
        raise errors.FailedPreconditionError(None, None,
                                             f"{filename}; Is a directory") from None
    if not compression:
        return data
    try:
        return zlib.decompress(data, 31 if compression == "GZIP" else 15)
    except zlib.error as e:
        raise errors.DataLossError(None, None, f"{compression} stream of {filename} is "
                                               f"corrupted: {e}") from None


class _Field:
    """One field of a record: its bytes (None when it is not output) and the first
    grammar error met while reading it."""

    __slots__ = ("value", "error")

    def __init__(self, value: Optional[bytes], error: Optional[str] = None):
        self.value, self.error = value, error


class _Reader:
    """TF's CSV record grammar over the bytes of one file."""

    def __init__(self, data: bytes, delim: int, quote: bool):
        self.data, self.delim, self.quote = data, delim, quote
        self.delim_bytes = bytes([delim])
        self.pos = 0

    def _skip_newline_after_cr(self) -> None:
        if self.pos < len(self.data) and self.data[self.pos] == 0x0A:
            self.pos += 1

    def record(self, include: Callable[[int], bool]) -> Optional[List[_Field]]:
        """The fields of the next record (None at the end of the data); `include(i)`:
        whether field i is output."""
        if self.pos >= len(self.data):
            return None
        plain = self._plain_record(include)
        if plain is not None:
            return plain
        fields: List[_Field] = []
        end = False
        while not end:
            keep = include(len(fields))
            if self.pos >= len(self.data):          # a delimiter ended the data
                fields.append(_Field(b"" if keep else None))
                break
            if self.quote and self.data[self.pos] == _QUOTE:
                field, end = self._quoted(keep)
            else:
                field, end = self._unquoted(keep)
            fields.append(field)
        return fields

    def _plain_record(self, include: Callable[[int], bool]) -> Optional[List[_Field]]:
        """A record without quote characters, split at once (the common case); None
        when the record needs the field-by-field grammar."""
        data, start = self.data, self.pos
        match = _LINE_END.search(data, start)
        end = match.start() if match else len(data)
        line = data[start:end]
        if self.quote and b'"' in line:
            return None
        self.pos = end + 1 if match else end
        if match and data[end] == 0x0D:
            self._skip_newline_after_cr()
        return [_Field(v if include(i) else None)
                for i, v in enumerate(line.split(self.delim_bytes))]

    def _unquoted(self, keep: bool) -> Tuple[_Field, bool]:
        data, start, delim = self.data, self.pos, self.delim
        error = None
        i, n = start, len(data)
        while i < n:
            ch = data[i]
            if ch == delim or ch == 0x0A or ch == 0x0D:
                self.pos = i + 1
                if ch == 0x0D:
                    self._skip_newline_after_cr()
                return _Field(data[start:i] if keep else None, error), ch != delim
            if self.quote and ch == _QUOTE and error is None:
                error = "Unquoted fields cannot have quotes inside"
            i += 1
        self.pos = n
        return _Field(data[start:] if keep else None, error), True

    def _quoted(self, keep: bool) -> Tuple[_Field, bool]:
        data, start, n = self.data, self.pos, len(self.data)
        i = start + 1
        error = None
        while True:
            close = data.find(b'"', i)
            if close < 0:
                # TF returns this error alone: it replaces the field's earlier one.
                self.pos = n
                return _Field(None, "Reached end of file without closing quoted field in "
                                    "record"), True
            if close + 1 >= n:
                self.pos = n
                return _Field(_unescape(data[start:close + 1]) if keep and error is None
                              else None, error), True
            nxt = data[close + 1]
            i = close + 2
            if nxt == self.delim or nxt == 0x0A or nxt == 0x0D:
                self.pos = i
                if nxt == 0x0D:
                    self._skip_newline_after_cr()
                return _Field(_unescape(data[start:close + 1]) if keep and error is None
                              else None, error), nxt != self.delim
            if nxt != _QUOTE and error is None:
                error = "Quote inside a string has to be escaped by another quote"


def _unescape(field: bytes) -> bytes:
    return field[1:-1].replace(b'""', b'"')


_FLOAT32_MAX = float(np.finfo(np.float32).max)
_FLOAT32_LIMIT = 3.4028235677973366e38     # FLT_MAX + half an ulp: larger rounds to inf


def _parser(dtype: D.DType) -> Callable[[bytes], Any]:
    """bytes -> a scalar of `dtype` (TF's safe_strto* rules), None when invalid."""
    if dtype == D.string:
        return lambda field: field
    torch_dtype = dtype.torch_dtype
    if dtype == D.float32:
        def parse_float32(field: bytes) -> Any:
            value = _parse_number(field, dtype)
            if value is None:
                return None
            if abs(value) >= _FLOAT32_LIMIT:
                value = float("inf") if value > 0 else float("-inf")
            elif abs(value) > _FLOAT32_MAX:       # rounds down to the largest float32
                value = _FLOAT32_MAX if value > 0 else -_FLOAT32_MAX
            return torch.scalar_tensor(value, dtype=torch_dtype)
        return parse_float32

    def parse(field: bytes) -> Any:
        value = _parse_number(field, dtype)
        return None if value is None else torch.scalar_tensor(value, dtype=torch_dtype)
    return parse


def _convert(field: bytes, index: int, parse: Callable[[bytes], Any], dtype: D.DType,
             default: Any, na_value: bytes) -> Any:
    """One output value of column `index` (TF's FieldToOutput)."""
    if not field or field == na_value:
        if default is None:
            raise rt.invalid(f"Field {index} is required but missing in record!")
        return default
    value = parse(field)
    if value is None:
        raise rt.invalid(f"Field {index} in record is not a valid {_TYPE_NAMES[dtype]}: "
                         f"{field.decode('utf-8', 'replace')}")
    return value


class CsvValue(rt.DatasetValue):
    """The records of CSV files as tuples of scalars (one per output column)."""

    def __init__(self, filenames: List[str], compression: str, header: bool, delim: bytes,
                 quote: bool, na_value: bytes, select: List[int], exclude: List[int],
                 types: List[D.DType], defaults: List[Any]):
        self.filenames, self.compression, self.header = filenames, compression, header
        self.delim, self.quote, self.na_value = delim[0], quote, na_value
        self.select, self.exclude = select, exclude
        self.types, self.defaults = types, defaults
        self.parsers = [_parser(t) for t in types]

    def _include(self) -> Callable[[int], bool]:
        if self.select:
            chosen = set(self.select)
            return chosen.__contains__
        if self.exclude:
            dropped = set(self.exclude)
            return lambda i: i not in dropped
        return lambda i: True

    def iterator(self) -> rt.Iter:
        include = self._include()
        state: dict = {"reader": None, "file": 0}
        n_out = len(self.types)

        def open_next() -> bool:
            if state["file"] >= len(self.filenames):
                return False
            # A file that fails to open fails again at the next call, as in TF.
            name = self.filenames[state["file"]]
            reader = _Reader(read_file_bytes(name, self.compression), self.delim, self.quote)
            state["file"] += 1
            if self.header:
                header = reader.record(lambda i: False)
                if header is None or any(f.error is not None for f in header):
                    raise rt.invalid("Can't read header of file")
            state["reader"] = reader
            return True

        def get_next() -> Optional[tuple]:
            while True:
                reader = state["reader"]
                record = reader.record(include) if reader is not None else None
                if record is not None:
                    return self._element(record, n_out)
                state["reader"] = None
                if not open_next():
                    return None
        return rt._FnIter(get_next)

    def _element(self, fields: List[_Field], n_out: int) -> tuple:
        """The record's output values; as TF, the first failing field (in order: its
        grammar error, then its conversion) is the record's error."""
        out: List[Any] = []
        error = None
        for field in fields:
            if field.error is not None:
                error = error or field.error
            if field.value is None:
                continue
            index = len(out)
            if index >= n_out:
                error = error or f"Expect {n_out} fields but have more in record"
                continue
            try:
                out.append(_convert(field.value, index, self.parsers[index],
                                    self.types[index], self.defaults[index], self.na_value))
            except errors.InvalidArgumentError as e:
                error = error or e.message
                out.append(None)
        if error is not None:
            raise rt.invalid(error)
        if len(out) != n_out:
            raise rt.invalid(f"Expect {n_out} fields but have {len(out)} in record")
        return tuple(out)


def _default_value(value: Any, dtype: D.DType) -> Any:
    """A column's default as a run-time scalar, None when the column is required."""
    if isinstance(value, torch.Tensor):
        if value.numel() == 0:
            return None
        return value.reshape(-1)[0].clone()
    array = np.asarray(value, dtype=object).reshape(-1)
    if array.size == 0:
        return None
    item = array[0]
    return item.encode() if isinstance(item, str) else bytes(item)


def _check_columns(name: str, cols: List[int]) -> None:
    if any(a >= b for a, b in zip(cols, cols[1:])):
        raise rt.invalid(f"{name} should be strictly increasing indices")
    if cols and cols[0] < 0:
        raise rt.invalid(f"{name} should be non-negative indices")


def _csv_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    types = [D.as_dtype(t) for t in node.attrs["output_types"]]

    def run(filenames: Any, compression: Any, buffer_size: Any, header: Any, delim: Any,
            quote: Any, na_value: Any, select_cols: Any, *rest: Any) -> CsvValue:
        defaults, exclude_cols = rest[:-1], rest[-1]
        names = np.asarray(filenames, dtype=object).reshape(-1)
        for i, d in enumerate(defaults):
            size = d.numel() if isinstance(d, torch.Tensor) else np.asarray(d).size
            if size >= 2:
                raise rt.invalid(f"There should only be 1 default per field but field {i} "
                                 f"has {size}")
        kind = scalar_bytes(compression).decode()
        if kind not in ("", "ZLIB", "GZIP"):
            raise rt.invalid(f"Unsupported compression_type: {kind}.")
        if scalar_int(buffer_size) <= 0:
            raise rt.invalid("buffer_size should be positive")
        delim_b = scalar_bytes(delim)
        if len(delim_b) != 1:
            raise rt.invalid("field_delim should be only 1 char")
        select = [int(c) for c in select_cols.reshape(-1).tolist()]
        exclude = [int(c) for c in exclude_cols.reshape(-1).tolist()]
        if select and len(select) != len(types):
            raise rt.invalid("select_cols should match output size")
        _check_columns("select_cols", select)
        if select and exclude:
            raise rt.invalid("Either select_cols or exclude_cols should be empty")
        _check_columns("exclude_cols", exclude)
        return CsvValue([local_path(n) for n in names], kind,
                        scalar_bool(header), delim_b, scalar_bool(quote),
                        scalar_bytes(na_value), select, exclude, types,
                        [_default_value(d, t) for d, t in zip(defaults, types)])
    return run


dataset_op("CSVDatasetV2", ["filenames: string", "compression_type: string",
                            "buffer_size: int64", "header: bool", "field_delim: string",
                            "use_quote_delim: bool", "na_value: string", "select_cols: int64",
                            "record_defaults: output_types", "exclude_cols: int64"],
           _csv_kernel, {"output_types": TypeList(), "output_shapes": []}, common=False)
