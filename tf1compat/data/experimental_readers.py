"""`tf.data.experimental` file and database readers.

`CsvDataset` (TF's CSVDatasetV2 op, `_csv.py`), `make_csv_dataset` (TF's pipeline: the
files' TensorSliceDataset, shuffled, read by a LegacyParallelInterleaveDatasetV2 of
CsvDatasets, shuffled, repeated, batched, mapped into a feature dict; column types
inferred from the first rows with TF's rules), `SqlDataset` (sqlite3 of the standard
library, TF's only driver), `make_batched_features_dataset` / `parse_example_dataset`
(tf.Example records parsed by batch) and `TFRecordWriter` (DatasetToTFRecord).
"""

from __future__ import annotations

import collections
import csv
import gzip
import sqlite3
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.data import _csv  # noqa: F401 - registers CSVDatasetV2
from tf1compat.data import _runtime as rt
from tf1compat.data import structure
from tf1compat.data._ops import ELEMENT_SPEC_ATTRS, dataset_op, scalar_bytes
from tf1compat.data.dataset_ops import AUTOTUNE, DatasetV1, DatasetV1Adapter, DatasetV2
from tf1compat.data.structure import TensorSpec
from tf1compat.data.tf_record import local_path

__all__ = ["CsvDataset", "make_csv_dataset", "SqlDataset", "make_batched_features_dataset",
           "parse_example_dataset", "TFRecordWriter"]

_CSV_TYPES = (D.float32, D.float64, D.int32, D.int64, D.string)
_DEFAULT_READER_BUFFER_BYTES = 4 * 1024 * 1024


def _optional_tensor(name: str, value: Any, default: Any, dtype: D.DType) -> Tensor:
    """TF's `optional_param_to_tensor`: the value, or the default, named `name`."""
    from tf1compat.framework.constant_op import constant
    if value is not None:
        return convert_to_tensor(value, dtype=dtype, name=name)
    return constant(default, dtype=dtype, name=name)


def _record_defaults(defaults: Sequence[Any]) -> List[Tensor]:
    """A dtype means a required column (an empty default), other values are defaults."""
    from tf1compat.framework.constant_op import constant
    # As TF: the empty defaults of every dtype first, then the others are converted.
    typed = [constant([], dtype=D.as_dtype(v)) if not isinstance(v, Tensor) and
             _is_csv_type(v) else v for v in defaults]
    return [v if isinstance(v, Tensor) else convert_to_tensor(v, name=f"record_defaults_{i}")
            for i, v in enumerate(typed)]


def _is_csv_type(value: Any) -> bool:
    try:
        return D.as_dtype(value) in _CSV_TYPES
    except (TypeError, ValueError, KeyError):
        return False


class CsvDatasetV1(DatasetV1Adapter):
    """`tf.data.experimental.CsvDataset`: the records of CSV files, one scalar per column
    (`record_defaults` give the columns' types and the values of empty fields)."""

    def __init__(self, filenames: Any, record_defaults: Sequence[Any],
                 compression_type: Any = None, buffer_size: Any = None, header: Any = False,
                 field_delim: Any = ",", use_quote_delim: Any = True, na_value: Any = "",
                 select_cols: Any = None):
        names = convert_to_tensor(filenames, dtype=D.string, name="filenames")
        compression = _optional_tensor("compression_type", compression_type, "", D.string)
        defaults = _record_defaults(record_defaults)
        for t in defaults:
            if t.dtype not in _CSV_TYPES:
                raise TypeError(f"Value passed to parameter 'record_defaults' has DataType "
                                f"{t.dtype.name} not in list of allowed values: float32, "
                                f"float64, int32, int64, string")
        size = _optional_tensor("buffer_size", buffer_size, _DEFAULT_READER_BUFFER_BYTES,
                                D.int64)
        header_t = convert_to_tensor(header, dtype=D.bool, name="header")
        delim = convert_to_tensor(field_delim, dtype=D.string, name="field_delim")
        quote = convert_to_tensor(use_quote_delim, dtype=D.bool, name="use_quote_delim")
        na = convert_to_tensor(na_value, dtype=D.string, name="na_value")
        select = _optional_tensor("select_cols", select_cols, [], D.int64)
        exclude = _optional_tensor("exclude_cols", None, [], D.int64)  # TF2's argument
        spec = tuple(TensorSpec([], t.dtype) for t in defaults)
        op = apply_op("CSVDatasetV2", [names, compression, size, header_t, delim, quote, na,
                                       select, defaults, exclude],
                      {"output_types": [t.dtype for t in defaults],
                       "output_shapes": [TensorShape([]) for _ in defaults]})
        super().__init__(op._outputs[0], spec, [])


CsvDataset = CsvDatasetV1


# -- make_csv_dataset ----------------------------------------------------------------------------

def file_names(file_pattern: Any) -> List[str]:
    """The sorted files matching a pattern or list of patterns (ValueError if none)."""
    from tf1compat.util.gfile import Glob
    if isinstance(file_pattern, list):
        if not file_pattern:
            raise ValueError("Argument `file_pattern` should not be empty.")
        names: List[str] = []
        for entry in file_pattern:
            names.extend(Glob(entry))
    else:
        names = list(Glob(file_pattern))
    if not names:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    return sorted(names)


def _valid_int(text: str, dtype: Any) -> bool:
    try:
        return np.int32(text) == np.int64(text) if dtype is np.int32 else \
            (np.int64(text) is not None)
    except (ValueError, OverflowError):
        return False


def _valid_float(text: str, dtype: Any) -> bool:
    try:
        return bool(dtype(text) < np.inf)
    except ValueError:
        return False


_INFERENCE = [(D.int32, lambda s: _valid_int(s, np.int32)),
              (D.int64, lambda s: _valid_int(s, np.int64)),
              (D.float32, lambda s: _valid_float(s, np.float32)),
              (D.float64, lambda s: _valid_float(s, np.float64)),
              (D.string, lambda s: True)]


def _infer_type(text: str, na_value: str, previous: Optional[D.DType]) -> Optional[D.DType]:
    """The least permissive of int32 < int64 < float32 < float64 < string that holds
    `text` and every earlier value of the column (TF's rule)."""
    if text in ("", na_value):
        return previous
    order = [t for t, _ in _INFERENCE]
    for i, (dtype, valid) in enumerate(_INFERENCE):
        if valid(text) and (previous is None or previous in order[:i + 1]):
            return dtype
    return D.string


def _csv_rows(filenames: List[str], num_cols: int, delim: str, quote: bool, header: bool,
              opener: Callable[[str], Any]) -> Any:
    for name in filenames:
        with opener(name) as f:
            rows = csv.reader(f, delimiter=delim,
                              quoting=csv.QUOTE_MINIMAL if quote else csv.QUOTE_NONE)
            row_num = 1
            if header:
                next(rows)
                row_num += 1
            for row in rows:
                if len(row) != num_cols:
                    raise ValueError(f"Problem inferring types: CSV row {row_num} has "
                                     f"{len(row)} number of fields. Expected: {num_cols}.")
                row_num += 1
                yield row


def _infer_defaults(filenames: List[str], num_cols: int, delim: str, quote: bool,
                    na_value: str, header: bool, num_rows: Optional[int],
                    select: Optional[List[int]], opener: Callable[[str], Any]) -> list:
    from tf1compat.framework.constant_op import constant
    columns = list(range(num_cols)) if select is None else select
    types: List[Optional[D.DType]] = [None] * len(columns)
    for i, row in enumerate(_csv_rows(filenames, num_cols, delim, quote, header, opener)):
        if num_rows is not None and i >= num_rows:
            break
        for j, col in enumerate(columns):
            types[j] = _infer_type(row[col], na_value, types[j])
    return [constant([0 if (t or D.string) != D.string else ""], dtype=t or D.string)
            for t in types]


def _infer_names(filenames: List[str], delim: str, quote: bool,
                 opener: Callable[[str], Any]) -> List[str]:
    kwargs = {"delimiter": delim, "quoting": csv.QUOTE_MINIMAL if quote else csv.QUOTE_NONE}
    names = None
    for name in filenames:
        with opener(name) as f:
            try:
                row = next(csv.reader(f, **kwargs))
            except StopIteration:
                raise ValueError(f"Failed when reading the header line of {name}. Is it an "
                                 f"empty file?") from None
        if names is None:
            names = row
        elif row != names:
            raise ValueError(f"All input CSV files should have the same column names in the "
                             f"header row. File {name} has different column names.")
    return names or []


def _selected_columns(select_columns: Sequence[Any], names: List[str]) -> List[int]:
    index = {n: i for i, n in enumerate(names)}
    out = []
    for v in select_columns:
        if isinstance(v, int):
            if v < 0 or v >= len(names):
                raise ValueError(f"Column index {v} specified in `select_columns` should be > "
                                 f"0  and <= {len(names)}, which is the number of columns.")
            out.append(v)
        elif v not in index:
            raise ValueError(f"Column {v} specified in `select_columns` must be of one of "
                             f"the columns: {index.keys()}.")
        else:
            out.append(index[v])
    result = sorted(set(out))
    if len(result) != len(select_columns):
        ordered = result        # TF looks for the duplicates here, after removing them
        duplicates = {a for a, b in zip(ordered[:-1], ordered[1:]) if a == b}
        raise ValueError(f"The `select_columns` argument contains duplicate columns: "
                         f"{duplicates}.")
    return result


def _opener(compression_type: Any, encoding: str) -> Callable[[str], Any]:
    if compression_type is None:
        return lambda name: open(local_path(name), "r", encoding=encoding, newline="")
    kind = compression_type if isinstance(compression_type, str) else \
        constant_value(convert_to_tensor(compression_type))
    if kind is None:
        raise ValueError(f"Received unknown `compression_type` {compression_type}. "
                         f"Expected: GZIP, ZLIB or  (empty string).")
    kind = kind.decode() if isinstance(kind, bytes) else str(kind)
    if kind == "GZIP":
        return lambda name: gzip.open(local_path(name), "rt", encoding=encoding, newline="")
    if kind == "ZLIB":
        raise ValueError(f"`compression_type` {compression_type} is not supported for "
                         f"probing columns.")
    if kind:
        raise ValueError(f"Received unknown `compression_type` {compression_type}. "
                         f"Expected: GZIP, ZLIB or  (empty string).")
    return lambda name: open(local_path(name), "r", encoding=encoding, newline="")


def _shuffle_and_repeat(dataset: DatasetV2, num_epochs: Any, shuffle: bool,
                        buffer_size: Any, seed: Any) -> DatasetV2:
    if shuffle:
        dataset = dataset.shuffle(buffer_size, seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    return dataset


def _read_files(dataset: DatasetV2, read: Callable[[Any], DatasetV2], threads: Any,
                sloppy: bool) -> DatasetV2:
    """TF's file interleave of make_csv_dataset / make_batched_features_dataset."""
    from tf1compat.data.experimental import Options, parallel_interleave
    if threads == AUTOTUNE:
        dataset = dataset.interleave(read, num_parallel_calls=threads)
        options = Options()
        options.deterministic = not sloppy
        return dataset.with_options(options)
    return dataset.apply(parallel_interleave(read, cycle_length=threads, block_length=1,
                                             sloppy=sloppy))


def make_csv_dataset(file_pattern: Any, batch_size: int, column_names: Any = None,
                     column_defaults: Any = None, label_name: Optional[str] = None,
                     select_columns: Any = None, field_delim: str = ",",
                     use_quote_delim: bool = True, na_value: str = "", header: bool = True,
                     num_epochs: Any = None, shuffle: bool = True,
                     shuffle_buffer_size: int = 10000, shuffle_seed: Any = None,
                     prefetch_buffer_size: Any = None, num_parallel_reads: Any = None,
                     sloppy: bool = False, num_rows_for_inference: Optional[int] = 100,
                     compression_type: Any = None, ignore_errors: bool = False,
                     encoding: str = "utf-8") -> DatasetV1Adapter:
    """Batches of CSV rows as (OrderedDict of columns[, label]) — TF's pipeline and its
    column name and type inference (see the module docstring)."""
    from tf1compat.data import experimental as exp
    from tf1compat.data.experimental_transforms import map_preserving
    if num_parallel_reads is None:
        num_parallel_reads = 1
    if prefetch_buffer_size is None:
        prefetch_buffer_size = AUTOTUNE
    filenames = file_names(file_pattern)
    dataset: DatasetV2 = DatasetV1.from_tensor_slices(filenames)
    if shuffle:
        dataset = dataset.shuffle(len(filenames), shuffle_seed)
    if column_names is None or column_defaults is None:
        opener = _opener(compression_type, encoding)
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is "
                             "provided.")
        column_names = _infer_names(filenames, field_delim, use_quote_delim, opener)
    column_names = list(column_names)
    if len(column_names) != len(set(column_names)):
        ordered = sorted(column_names)
        duplicates = {a for a, b in zip(ordered[:-1], ordered[1:]) if a == b}
        raise ValueError(f"Either `column_names` argument or CSV header row contains "
                         f"duplicate column names: {duplicates}.")
    if select_columns is not None:
        select_columns = _selected_columns(select_columns, column_names)
    if column_defaults is not None:
        column_defaults = _record_defaults(column_defaults)
    else:
        column_defaults = _infer_defaults(filenames, len(column_names), field_delim,
                                          use_quote_delim, na_value, header,
                                          num_rows_for_inference, select_columns, opener)
    if select_columns is not None and len(column_defaults) != len(select_columns):
        raise ValueError(f"If specified, `column_defaults` and `select_columns` must have the "
                         f"same length: `column_defaults` has length {len(column_defaults)}, "
                         f"`select_columns` has length {len(select_columns)}.")
    if select_columns is not None and len(column_names) > len(select_columns):
        column_names = [column_names[i] for i in select_columns]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f"`label_name` provided must be one of the columns: {column_names}. "
                         f"Received: {label_name}.")

    def filename_to_dataset(filename: Tensor) -> DatasetV2:
        ds: DatasetV2 = CsvDataset(filename, record_defaults=column_defaults,
                                   field_delim=field_delim, use_quote_delim=use_quote_delim,
                                   na_value=na_value, select_cols=select_columns,
                                   header=header, compression_type=compression_type)
        if ignore_errors:
            ds = ds.apply(exp.ignore_errors())
        return ds

    def map_fn(*columns: Tensor) -> Any:
        features = collections.OrderedDict(zip(column_names, columns))
        if label_name is not None:
            label = features.pop(label_name)
            return features, label
        return features

    dataset = _read_files(dataset, filename_to_dataset, num_parallel_reads, sloppy)
    dataset = _shuffle_and_repeat(dataset, num_epochs, shuffle, shuffle_buffer_size,
                                  shuffle_seed)
    dataset = dataset.batch(batch_size=batch_size, drop_remainder=num_epochs is None)
    dataset = map_preserving(dataset, map_fn)
    return dataset.prefetch(prefetch_buffer_size)


# -- tf.Example batches ------------------------------------------------------------------------

def parse_example_dataset(features: Any, num_parallel_calls: Any = 1,
                          deterministic: Optional[bool] = None) -> Callable[[Any], Any]:
    """A transformation parsing batches of serialized tf.Examples into feature dicts
    (`tf.parse_example` of each batch)."""
    if features is None:
        raise ValueError("Argument `features` is required, but not specified.")

    def apply(dataset: DatasetV2) -> DatasetV2:
        spec = dataset.element_spec
        if not (isinstance(spec, TensorSpec) and spec.dtype == D.string):
            raise TypeError(f"Input dataset should be a dataset of vectors of strings. Instead "
                            f"it is `{spec}`.")
        from tf1compat.ops.parsing_ops import parse_example
        from tf1compat.data.experimental_transforms import map_preserving
        return map_preserving(dataset, lambda serialized: parse_example(serialized, features))
    return apply


def make_batched_features_dataset(file_pattern: Any, batch_size: int, features: Any,
                                  reader: Any = None, label_key: Optional[str] = None,
                                  reader_args: Optional[list] = None, num_epochs: Any = None,
                                  shuffle: bool = True, shuffle_buffer_size: int = 10000,
                                  shuffle_seed: Any = None, prefetch_buffer_size: Any = None,
                                  reader_num_threads: Any = None,
                                  parser_num_threads: Any = None,
                                  sloppy_ordering: bool = False,
                                  drop_final_batch: bool = False) -> DatasetV1Adapter:
    """Batches of parsed tf.Examples read from files (TF's pipeline: list_files,
    interleaved readers, shuffle, repeat, batch, parse, label split, prefetch)."""
    from tf1compat.data.readers import TFRecordDatasetV1
    if reader is None:
        reader = TFRecordDatasetV1
    if reader_num_threads is None:
        reader_num_threads = 1
    if parser_num_threads is None:
        parser_num_threads = 2
    if prefetch_buffer_size is None:
        prefetch_buffer_size = AUTOTUNE
    dataset: DatasetV2 = DatasetV1.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
    from tf1compat.data.reader_ops import ReaderBase
    if isinstance(reader, type) and issubclass(reader, ReaderBase):
        raise TypeError("The `reader` argument must return a `Dataset` object. "
                        "`tf.ReaderBase` subclasses are not supported. For example, pass "
                        "`tf.data.TFRecordDataset` instead of `tf.TFRecordReader`.")
    args = list(reader_args or [])
    dataset = _read_files(dataset, lambda filename: reader(filename, *args),
                          reader_num_threads, sloppy_ordering)
    if structure.legacy_types(dataset.element_spec) == (D.string, D.string):
        from tf1compat.data.experimental_transforms import map_preserving
        dataset = map_preserving(dataset, lambda _, v: v)
    dataset = _shuffle_and_repeat(dataset, num_epochs, shuffle, shuffle_buffer_size,
                                  shuffle_seed)
    dataset = dataset.batch(batch_size, drop_remainder=drop_final_batch or num_epochs is None)
    dataset = dataset.apply(parse_example_dataset(features,
                                                  num_parallel_calls=parser_num_threads))
    if label_key:
        if label_key not in features:
            raise ValueError(f"The `label_key` provided ({label_key}) must be one of the "
                             f"`features` keys: {features.keys()}.")
        dataset = dataset.map(lambda x: (x, x.pop(label_key)))
    return dataset.prefetch(prefetch_buffer_size)


# -- SQL -----------------------------------------------------------------------------------------

class _SqlValue(rt.DatasetValue):
    """The rows of a sqlite query, one scalar per column of `types`."""

    def __init__(self, driver: str, source: str, query: str, types: List[D.DType]):
        if driver != "sqlite":
            raise rt.invalid(f"The database type, {driver}, is not supported by SqlDataset. "
                             f"The set of supported databases is: {{'sqlite'}}.")
        self.source, self.query, self.types = source, query, types

    def iterator(self) -> rt.Iter:
        state: dict = {"rows": None}

        def get_next() -> Optional[tuple]:
            if state["rows"] is None:
                try:
                    connection = sqlite3.connect(f"file:{self.source}?mode=ro", uri=True)
                    state["rows"] = iter(connection.execute(self.query).fetchall())
                    connection.close()
                except sqlite3.Error as e:
                    raise errors.FailedPreconditionError(
                        None, None, f"Failed to prepare query: {e}") from None
            row = next(state["rows"], None)
            if row is None:
                return None
            if len(row) != len(self.types):
                raise rt.invalid(f"The number of columns in query ({len(row)}) must match the "
                                 f"number of elements in output_types "
                                 f"({len(self.types)}).")
            return tuple(self._value(v, t) for v, t in zip(row, self.types))
        return rt._FnIter(get_next)

    @staticmethod
    def _value(value: Any, dtype: D.DType) -> Any:
        if dtype == D.string:
            if value is None:
                return b""
            return value if isinstance(value, bytes) else str(value).encode()
        if dtype == D.bool:
            return torch.tensor(bool(value or 0))
        if dtype.is_floating:
            return torch.tensor(float(value or 0), dtype=dtype.torch_dtype)
        return torch.tensor(int(value or 0), dtype=torch.int64).to(dtype.torch_dtype)


dataset_op("SqlDataset", ["driver_name: string", "data_source_name: string", "query: string"],
           lambda node, kctx: lambda driver, source, query: _SqlValue(
               scalar_bytes(driver).decode(), scalar_bytes(source).decode(),
               scalar_bytes(query).decode(),
               [D.as_dtype(t) for t in node.attrs["output_types"]]),
           ELEMENT_SPEC_ATTRS, common=False)


class SqlDatasetV1(DatasetV1Adapter):
    """`tf.data.experimental.SqlDataset("sqlite", path, query, output_types)`: the rows
    of a query, one scalar per column."""

    def __init__(self, driver_name: Any, data_source_name: Any, query: Any,
                 output_types: Any):
        driver = convert_to_tensor(driver_name, dtype=D.string, name="driver_name")
        source = convert_to_tensor(data_source_name, dtype=D.string, name="data_source_name")
        query_t = convert_to_tensor(query, dtype=D.string, name="query")
        spec = structure.map_structure(lambda t: TensorSpec([], t), output_types)
        flat = [D.as_dtype(t) for t in structure.flatten(output_types)]
        op = apply_op("SqlDataset", [driver, source, query_t],
                      {"output_types": flat, "output_shapes": [TensorShape([])] * len(flat)})
        super().__init__(op._outputs[0], spec, [])


SqlDataset = SqlDatasetV1


# -- writing -------------------------------------------------------------------------------------

def _to_tfrecord_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def run(dataset: rt.DatasetValue, filename: Any, compression: Any) -> None:
        from tf1compat.data.tf_record import TFRecordOptions, TFRecordWriter as Writer
        kind = scalar_bytes(compression).decode()
        if kind not in ("", "ZLIB", "GZIP"):
            raise rt.invalid(f"Unsupported compression_type: {kind}.")
        with Writer(scalar_bytes(filename).decode(), TFRecordOptions(kind or None)) as w:
            for element in dataset:
                value = element[0]
                w.write(value if isinstance(value, bytes) else scalar_bytes(value))
    return run


declare("DatasetToTFRecord", inputs=["input_dataset: variant", "filename: string",
                                     "compression_type: string"], outputs=[],
        shape=lambda ctx: [], kernel=_to_tfrecord_kernel, grad="none", stateful=True,
        cpu_only=True, doc="Writes a dataset of scalar strings to a TFRecord file.")


class TFRecordWriter:
    """`tf.data.experimental.TFRecordWriter(filename, compression_type)`: `write(dataset)`
    is an op writing every element (scalar strings) as a record."""

    def __init__(self, filename: Any, compression_type: Any = None):
        self._filename = convert_to_tensor(filename, D.string, "filename")
        self._compression_type = _optional_tensor("compression_type", compression_type, "",
                                                  D.string)

    def write(self, dataset: DatasetV2) -> Any:
        spec = dataset.element_spec
        if not (isinstance(spec, TensorSpec) and spec.dtype == D.string and
                spec.shape.is_compatible_with(TensorShape([]))):
            raise TypeError(f"Invalid `dataset.` Expected a `dataset` that produces scalar "
                            f"`tf.string` elements, but got a dataset which produces "
                            f"elements with shapes {structure.legacy_shapes(spec)} and types "
                            f"{structure.legacy_types(spec)}.")
        op = apply_op("DatasetToTFRecord", [dataset._variant_tensor, self._filename,
                                            self._compression_type], {})
        # Under eager execution the records are written now; TF returns None.
        return None if _context._state["eager"] else op
