"""`tf.python_io.TFRecordWriter`, `tf_record_iterator`, `TFRecordOptions` and
`TFRecordCompressionType`: TF's API over the TFRecord framing of
serialization/tfrecord.py (which `tf.data.TFRecordDataset` and the summary FileWriter use
as well).
"""

from __future__ import annotations

import os
from typing import Any, Iterator

from tf1compat.framework import errors
from tf1compat.serialization import tfrecord
from tf1compat.serialization.tfrecord import RecordReader, open_for_read

__all__ = ["TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter",
           "tf_record_iterator", "RecordReader", "open_for_read", "compression_of",
           "local_path"]


class TFRecordCompressionType:
    """`tf.python_io.TFRecordCompressionType`."""
    NONE = 0
    ZLIB = 1
    GZIP = 2


_NAMES = {TFRecordCompressionType.NONE: "", TFRecordCompressionType.ZLIB: "ZLIB",
          TFRecordCompressionType.GZIP: "GZIP"}


class TFRecordOptions:
    """`tf.io.TFRecordOptions(compression_type=None, flush_mode=None, ...)`."""

    compression_type_map = {TFRecordCompressionType.ZLIB: "ZLIB",
                            TFRecordCompressionType.GZIP: "GZIP",
                            TFRecordCompressionType.NONE: ""}

    def __init__(self, compression_type: Any = None, flush_mode: Any = None,
                 input_buffer_size: Any = None, output_buffer_size: Any = None,
                 window_bits: Any = None, compression_level: Any = None,
                 compression_method: Any = None, mem_level: Any = None,
                 compression_strategy: Any = None):
        if compression_type is None:
            compression_type = ""
        if isinstance(compression_type, TFRecordOptions):
            compression_type = compression_type.compression_type
        self.compression_type = self.get_compression_type_string(compression_type)
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options: Any) -> str:
        """"", "ZLIB" or "GZIP" for an options object, an enum value or a string."""
        if options is None:
            return ""
        if isinstance(options, TFRecordOptions):
            return options.compression_type
        if isinstance(options, int):
            if options not in _NAMES:
                raise ValueError(f'Not a valid compression_type: "{options}"')
            return _NAMES[options]
        if isinstance(options, bytes):
            options = options.decode()
        if options not in tfrecord.COMPRESSIONS:
            raise ValueError(f'Not a valid compression_type: "{options}"')
        return options


def compression_of(options: Any) -> str:
    return TFRecordOptions.get_compression_type_string(options)


def local_path(path: Any) -> str:
    """A local file path for `path` (str, bytes, PathLike or a file:// URL)."""
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = path.decode()
    from tf1compat.util.gfile import _local
    return _local(path)


class TFRecordWriter:
    """`tf.python_io.TFRecordWriter(path, options=None)`: writes records to a file."""

    def __init__(self, path: Any, options: Any = None):
        self._path = local_path(path)
        self._file: Any = tfrecord.open_for_write(
            self._path, compression_of(options), getattr(options, "compression_level", None))

    def write(self, record: Any) -> None:
        if self._file is None:
            raise errors.FailedPreconditionError(None, None, "File is closed.")
        if isinstance(record, str):
            record = record.encode()
        self._file.write(tfrecord.encode_record(bytes(record)))

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> "TFRecordWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def tf_record_iterator(path: Any, options: Any = None) -> Iterator[bytes]:
    """`tf.python_io.tf_record_iterator`: yields the records of a TFRecord file."""
    reader = RecordReader(local_path(path), compression_of(options))
    try:
        while True:
            record = reader.read()
            if record is None:
                return
            yield record
    finally:
        reader.close()
