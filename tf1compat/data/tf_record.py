"""The TFRecord file format: `tf.python_io.TFRecordWriter`, `tf_record_iterator`,
`TFRecordOptions` and the record reader behind `tf.data.TFRecordDataset`.

A record is `uint64 length | uint32 masked_crc32c(length) | data | uint32
masked_crc32c(data)`, little-endian; a file is records back to back, optionally
compressed as a whole with GZIP or ZLIB. A failed checksum is TF's DataLossError
"corrupted record at <offset>" (the offset of the bytes that failed), a record cut short
"truncated record at <offset>".
"""

from __future__ import annotations

import gzip
import os
import struct
import zlib
from typing import Any, BinaryIO, Iterator, Optional

from tf1compat.framework import errors
from tf1compat.data import _crc as crc32c

__all__ = ["TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter",
           "tf_record_iterator", "RecordReader", "open_for_read", "encode_record",
           "compression_of"]

_HEADER = 12
_FOOTER = 4


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
        if options not in ("", "ZLIB", "GZIP"):
            raise ValueError(f'Not a valid compression_type: "{options}"')
        return options


def compression_of(options: Any) -> str:
    return TFRecordOptions.get_compression_type_string(options)


def encode_record(data: bytes) -> bytes:
    """One record's bytes: header, data, footer."""
    header = struct.pack("<Q", len(data))
    return (header + struct.pack("<I", crc32c.mask(crc32c.value(header))) + data +
            struct.pack("<I", crc32c.mask(crc32c.value(data))))


def _path(path: Any) -> str:
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = path.decode()
    from tf1compat.util.gfile import _local
    return _local(path)


class TFRecordWriter:
    """`tf.python_io.TFRecordWriter(path, options=None)`: writes records to a file."""

    def __init__(self, path: Any, options: Any = None):
        self._path = _path(path)
        compression = compression_of(options)
        level = getattr(options, "compression_level", None)
        level = 6 if level is None or level < 0 else level
        try:
            raw = open(self._path, "wb")  # noqa: SIM115 - closed in close()
        except FileNotFoundError:
            raise errors.NotFoundError(None, None,
                                       f"{self._path}; No such file or directory") from None
        self._raw: Optional[BinaryIO] = raw
        if compression == "GZIP":
            self._file: Any = gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=level,
                                            mtime=0)
        elif compression == "ZLIB":
            self._file = _ZlibWriter(raw, level)
        else:
            self._file = raw

    def write(self, record: Any) -> None:
        if self._file is None:
            raise errors.FailedPreconditionError(None, None, "File is closed.")
        if isinstance(record, str):
            record = record.encode()
        self._file.write(encode_record(bytes(record)))

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            if self._file is not self._raw and self._raw is not None:
                self._raw.close()
            self._file = None
            self._raw = None

    def __enter__(self) -> "TFRecordWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class _ZlibWriter:
    def __init__(self, raw: BinaryIO, level: int):
        self._raw = raw
        self._z = zlib.compressobj(level)

    def write(self, data: bytes) -> None:
        self._raw.write(self._z.compress(data))

    def flush(self) -> None:
        self._raw.write(self._z.flush(zlib.Z_SYNC_FLUSH))
        self._raw.flush()

    def close(self) -> None:
        self._raw.write(self._z.flush())
        self._raw.close()


class _ZlibReader:
    """A read-only file over a ZLIB stream."""

    def __init__(self, raw: BinaryIO):
        self._raw = raw
        self._z = zlib.decompressobj()
        self._buffer = b""

    def read(self, n: int) -> bytes:
        while len(self._buffer) < n:
            chunk = self._raw.read(1 << 16)
            if not chunk:
                self._buffer += self._z.flush()
                break
            try:
                self._buffer += self._z.decompress(chunk)
            except zlib.error as e:
                raise errors.DataLossError(None, None, f"Invalid ZLIB data: {e}") from None
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def close(self) -> None:
        self._raw.close()


def open_for_read(path: Any, compression: str) -> Any:
    """A binary file-like object over the (decompressed) bytes of `path`."""
    local = _path(path)
    try:
        raw = open(local, "rb")  # noqa: SIM115 - caller closes
    except FileNotFoundError:
        raise errors.NotFoundError(None, None,
                                   f"{local}; No such file or directory") from None
    except IsADirectoryError:
        raise errors.FailedPreconditionError(None, None,
                                             f"{local}; Is a directory") from None
    if compression == "GZIP":
        return _GzipReader(raw)
    if compression == "ZLIB":
        return _ZlibReader(raw)
    if compression != "":
        raw.close()
        raise errors.InvalidArgumentError(None, None,
                                          f"Unsupported compression_type: {compression}")
    return raw


class _GzipReader:
    def __init__(self, raw: BinaryIO):
        self._raw = raw
        self._file = gzip.GzipFile(fileobj=raw, mode="rb")

    def read(self, n: int) -> bytes:
        try:
            return self._file.read(n)
        except (OSError, EOFError, zlib.error) as e:
            raise errors.DataLossError(None, None, f"Invalid GZIP data: {e}") from None

    def close(self) -> None:
        self._file.close()
        self._raw.close()


class RecordReader:
    """Reads records one by one, checking both checksums of each, as TF's RecordReader."""

    def __init__(self, path: Any, compression: str = ""):
        self._file = open_for_read(path, compression)
        self.offset = 0
        self._failed: Optional[errors.DataLossError] = None

    def _checked(self, data: bytes, n: int, offset: int) -> bytes:
        (masked,) = struct.unpack("<I", data[n:n + 4])
        if crc32c.unmask(masked) != crc32c.value(data[:n]):
            raise errors.DataLossError(None, None, f"corrupted record at {offset}")
        return data[:n]

    def read(self) -> Optional[bytes]:
        """The next record, or None at the end of the file."""
        if self._failed is not None:
            raise self._failed                  # TF re-reads the same bad record
        offset = self.offset
        header = self._file.read(_HEADER)
        if not header:
            return None
        try:
            if len(header) != _HEADER:
                raise errors.DataLossError(None, None, f"truncated record at {offset}")
            self._checked(header, 8, offset)
            (length,) = struct.unpack("<Q", header[:8])
            data = self._file.read(length + _FOOTER)
            if len(data) != length + _FOOTER:
                raise errors.DataLossError(None, None, f"truncated record at {offset}' "
                                                       "failed with eof")
            record = self._checked(data, length, offset + _HEADER)
        except errors.DataLossError as e:
            self._failed = e
            raise
        self.offset = offset + _HEADER + length + _FOOTER
        return record

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def tf_record_iterator(path: Any, options: Any = None) -> Iterator[bytes]:
    """`tf.python_io.tf_record_iterator`: yields the records of a TFRecord file."""
    reader = RecordReader(path, compression_of(options))
    try:
        while True:
            record = reader.read()
            if record is None:
                return
            yield record
    finally:
        reader.close()
