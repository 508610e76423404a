"""File datasets: `tf.data.TFRecordDataset`, `TextLineDataset`, `FixedLengthRecordDataset`
and `Dataset.list_files`.

As TF builds them: the filenames become a `TensorSliceDataset` (`is_files=True`) of the
flattened names, and a `FlatMapDataset` (an interleave with `num_parallel_reads`) whose
function `read_one_file` creates the reader op for one file. The readers' kernels read
files sequentially on demand, with TF's checksums and error messages.
"""

from __future__ import annotations

import os
from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.data import _runtime as rt
from tf1compat.data._ops import dataset_op, scalar_bytes, scalar_int
from tf1compat.data.dataset_ops import AUTOTUNE, DatasetV1Adapter, DatasetV2, dataset_seeds
from tf1compat.data.structure import TensorSpec
from tf1compat.data.tf_record import RecordReader, local_path, open_for_read

__all__ = ["TFRecordDatasetV1", "TextLineDatasetV1", "FixedLengthRecordDatasetV1",
           "TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset", "list_files"]

_DEFAULT_TF_RECORD_BUFFER = 256 * 1024
_DEFAULT_READER_BUFFER = 256 * 1024
_STRING_SPEC = TensorSpec([], D.string)


def _file_names(value: Any) -> list:
    """Local paths of the file names a reader op got (`file://` URLs resolved)."""
    if isinstance(value, bytes):
        return [local_path(value)]
    return [local_path(v if isinstance(v, bytes) else str(v)) for v in value.reshape(-1)]


# -- run time ----------------------------------------------------------------------------------

class _FilesValue(rt.DatasetValue):
    """Records of each file in turn; `read(path)` yields the records of one file."""

    def __init__(self, filenames: list, compression: str):
        self.filenames = filenames
        self.compression = compression

    def records(self, path: str) -> Any:
        raise NotImplementedError

    def iterator(self) -> rt.Iter:
        names = list(self.filenames)
        state = {"file": 0, "reader": None}

        def get_next() -> Optional[tuple]:
            while state["file"] < len(names):
                try:
                    if state["reader"] is None:
                        state["reader"] = self.records(names[state["file"]])
                    record = state["reader"]()
                except Exception:
                    # As TF: after an error (DataLoss, NotFound) the pass goes on with the
                    # next file, so ignore_errors() skips the rest of a bad file.
                    state["reader"] = None
                    state["file"] += 1
                    raise
                if record is not None:
                    return (record,)
                state["reader"] = None
                state["file"] += 1
            return None
        return rt._FnIter(get_next)


class TFRecordValue(_FilesValue):
    def records(self, path: str) -> Any:
        reader = RecordReader(path, self.compression)

        def read() -> Optional[bytes]:
            record = reader.read()
            if record is None:
                reader.close()
            return record
        return read


class TextLineValue(_FilesValue):
    def records(self, path: str) -> Any:
        f = open_for_read(path, self.compression)
        data = f.read(-1) if self.compression == "" else _read_all(f)
        f.close()
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        it = iter([line[:-1] if line.endswith(b"\r") else line for line in lines])
        return lambda: next(it, None)


def _read_all(f: Any) -> bytes:
    chunks = []
    while True:
        chunk = f.read(1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


class FixedLengthValue(_FilesValue):
    def __init__(self, filenames: list, compression: str, header: int, record: int,
                 footer: int):
        super().__init__(filenames, compression)
        if record <= 0:
            raise rt.invalid("record_bytes must be > 0")
        self.header, self.record, self.footer = header, record, footer

    def records(self, path: str) -> Any:
        f = open_for_read(path, self.compression)
        data = _read_all(f)
        f.close()
        body = data[self.header:len(data) - self.footer]
        n = len(body) // self.record
        it = iter(body[i * self.record:(i + 1) * self.record] for i in range(n))
        return lambda: next(it, None)


def _compression(value: Any) -> str:
    name = scalar_bytes(value).decode()
    if name not in ("", "ZLIB", "GZIP"):
        raise rt.invalid(f"Unsupported compression_type: {name}.")
    return name


dataset_op("TFRecordDataset", ["filenames: string", "compression_type: string",
                               "buffer_size: int64"],
           lambda node, kctx: lambda names, comp, size: TFRecordValue(_file_names(names),
                                                                      _compression(comp)),
           common=False, attrs={"metadata": ""})
dataset_op("TextLineDataset", ["filenames: string", "compression_type: string",
                               "buffer_size: int64"],
           lambda node, kctx: lambda names, comp, size: TextLineValue(_file_names(names),
                                                                      _compression(comp)),
           common=False, attrs={"metadata": ""})
dataset_op("FixedLengthRecordDatasetV2",
           ["filenames: string", "header_bytes: int64", "record_bytes: int64",
            "footer_bytes: int64", "buffer_size: int64", "compression_type: string"],
           lambda node, kctx: lambda names, header, record, footer, size, comp:
           FixedLengthValue(_file_names(names), _compression(comp), scalar_int(header),
                            scalar_int(record), scalar_int(footer)),
           common=False, attrs={"metadata": ""})


# -- graph side --------------------------------------------------------------------------------

def _filenames_dataset(filenames: Any) -> DatasetV1Adapter:
    if isinstance(filenames, DatasetV2):
        if filenames.output_types != D.string:
            raise TypeError("The `filenames` argument must contain `tf.string` elements. Got "
                            f"a dataset of `{filenames.output_types!r}` elements.")
        return filenames
    if isinstance(filenames, os.PathLike):
        filenames = os.fspath(filenames)
    elif isinstance(filenames, (list, tuple)):
        filenames = [os.fspath(f) if isinstance(f, os.PathLike) else f for f in filenames]
    tensor = convert_to_tensor(filenames, preferred_dtype=D.string)
    if tensor.dtype.base_dtype != D.string:
        raise TypeError("The `filenames` argument must contain `tf.string` elements. Got "
                        f"`{tensor.dtype!r}` elements.")
    from tf1compat.ops.array_ops import reshape
    flat = reshape(tensor, [-1], name="flat_filenames")
    op = apply_op("TensorSliceDataset", [[flat]],
                  {"output_shapes": [TensorShape([])], "is_files": True})
    return DatasetV1Adapter(op._outputs[0], _STRING_SPEC, [])


def _optional(value: Any, default: Any, name: str, dtype: Any) -> Any:
    return convert_to_tensor(default if value is None else value, dtype=dtype, name=name)


def _reader_dataset(filenames: Any, num_parallel_reads: Any,
                    make_reader: Any) -> DatasetV1Adapter:
    files = _filenames_dataset(filenames)

    def read_one_file(filename: Any) -> DatasetV1Adapter:
        filename = convert_to_tensor(filename, D.string, name="filename")
        return make_reader(filename)
    if num_parallel_reads is None:
        return files.flat_map(read_one_file)
    if num_parallel_reads == AUTOTUNE:
        return files.interleave(read_one_file, num_parallel_calls=num_parallel_reads)
    from tf1compat.data.functions import StructuredFunction
    fn = StructuredFunction(read_one_file, "tf.data.experimental.parallel_interleave()",
                            files.element_spec)
    cycle = convert_to_tensor(num_parallel_reads, D.int64, name="cycle_length")
    block = convert_to_tensor(1, D.int64, name="block_length")
    buffered = convert_to_tensor(2, D.int64, name="buffer_output_elements")
    prefetched = convert_to_tensor(2 * num_parallel_reads, D.int64,
                                   name="prefetch_input_elements")
    return files._make("LegacyParallelInterleaveDatasetV2",
                       [files._variant_tensor, fn.captured_inputs, cycle, block, buffered,
                        prefetched], {"f": fn, "deterministic": "true"},
                       fn.output_structure.element_spec, [files])


class _FileDataset(DatasetV1Adapter):
    """A file dataset class (isinstance checks work) built around the reader pipeline."""

    def _adopt(self, dataset: DatasetV2) -> None:
        DatasetV2.__init__(self, dataset._variant_tensor, dataset.element_spec,
                           dataset._inputs())


class TFRecordDatasetV1(_FileDataset):
    """`tf.data.TFRecordDataset(filenames, compression_type=None, buffer_size=None,
    num_parallel_reads=None)`: the records of TFRecord files, as scalar strings."""

    def __init__(self, filenames: Any, compression_type: Any = None, buffer_size: Any = None,
                 num_parallel_reads: Any = None, name: Optional[str] = None):
        def make(filename: Any) -> DatasetV1Adapter:
            comp = _optional(compression_type, "", "compression_type", D.string)
            size = _optional(buffer_size, _DEFAULT_TF_RECORD_BUFFER, "buffer_size", D.int64)
            op = apply_op("TFRecordDataset", [filename, comp, size])
            return DatasetV1Adapter(op._outputs[0], _STRING_SPEC, [])
        self._adopt(_reader_dataset(filenames, num_parallel_reads, make))


class TextLineDatasetV1(_FileDataset):
    """`tf.data.TextLineDataset(filenames, compression_type=None, buffer_size=None,
    num_parallel_reads=None)`: the lines of text files, without line endings."""

    def __init__(self, filenames: Any, compression_type: Any = None, buffer_size: Any = None,
                 num_parallel_reads: Any = None, name: Optional[str] = None):
        def make(filename: Any) -> DatasetV1Adapter:
            comp = _optional(compression_type, "", "compression_type", D.string)
            size = _optional(buffer_size, _DEFAULT_READER_BUFFER, "buffer_size", D.int64)
            op = apply_op("TextLineDataset", [filename, comp, size])
            return DatasetV1Adapter(op._outputs[0], _STRING_SPEC, [])
        self._adopt(_reader_dataset(filenames, num_parallel_reads, make))


class FixedLengthRecordDatasetV1(_FileDataset):
    """`tf.data.FixedLengthRecordDataset(filenames, record_bytes, header_bytes=None,
    footer_bytes=None, buffer_size=None, compression_type=None, num_parallel_reads=None)`."""

    def __init__(self, filenames: Any, record_bytes: Any, header_bytes: Any = None,
                 footer_bytes: Any = None, buffer_size: Any = None,
                 compression_type: Any = None, num_parallel_reads: Any = None,
                 name: Optional[str] = None):
        def make(filename: Any) -> DatasetV1Adapter:
            record = convert_to_tensor(record_bytes, D.int64, name="record_bytes")
            header = _optional(header_bytes, 0, "header_bytes", D.int64)
            footer = _optional(footer_bytes, 0, "footer_bytes", D.int64)
            size = _optional(buffer_size, _DEFAULT_READER_BUFFER, "buffer_size", D.int64)
            comp = _optional(compression_type, "", "compression_type", D.string)
            op = apply_op("FixedLengthRecordDatasetV2",
                          [filename, header, record, footer, size, comp])
            return DatasetV1Adapter(op._outputs[0], _STRING_SPEC, [])
        self._adopt(_reader_dataset(filenames, num_parallel_reads, make))


TFRecordDataset = TFRecordDatasetV1
TextLineDataset = TextLineDatasetV1
FixedLengthRecordDataset = FixedLengthRecordDatasetV1


# -- list_files --------------------------------------------------------------------------------

def list_files(file_pattern: Any, shuffle: Optional[bool] = None,
               seed: Optional[int] = None) -> DatasetV1Adapter:
    """`Dataset.list_files`: MatchingFiles, a not-empty assertion, slices, a shuffle."""
    from tf1compat.framework.graph import control_dependencies
    from tf1compat.ops.array_ops import identity, shape
    from tf1compat.ops.logging_ops import Assert
    from tf1compat.ops.math_ops import add, greater, maximum
    from tf1compat.ops.file_ops import matching_files
    from tf1compat.ops.decode_ops import reduce_join
    with name_scope("list_files"):
        if shuffle is None:
            shuffle = True
        pattern = convert_to_tensor(file_pattern, dtype=D.string, name="file_pattern")
        matching = matching_files(pattern)
        condition = greater(shape(matching)[0], 0, name="match_not_empty")
        message = add("No files matched pattern: ",
                      reduce_join(pattern, separator=", "), name="message")
        assert_not_empty = Assert(condition, [message], summarize=1, name="assert_not_empty")
        with control_dependencies([assert_not_empty]):
            matching = identity(matching)
        op = apply_op("TensorSliceDataset", [[matching]],
                      {"output_shapes": [TensorShape([])], "is_files": True})
        dataset = DatasetV1Adapter(op._outputs[0], _STRING_SPEC, [])
        if shuffle:
            buffer_size = maximum(shape(matching, out_type=D.int64)[0], 1)
            seed_t, seed2_t = dataset_seeds(seed)
            dataset = dataset._make("ShuffleDataset", [dataset._variant_tensor, buffer_size,
                                                       seed_t, seed2_t],
                                    {"reshuffle_each_iteration": True}, _STRING_SPEC,
                                    [dataset])
        return dataset

