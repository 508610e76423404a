"""TFRecord framing, the one record format of TFRecord datasets and TensorBoard events.

A record is `uint64 length | uint32 masked_crc32c(length) | data | uint32
masked_crc32c(data)`, little-endian; a file is records back to back, optionally
compressed as a whole with GZIP or ZLIB. `encode_record` frames one record;
`RecordReader` reads them back checking both checksums, with TF's DataLossError
messages ("corrupted record at <offset>", "truncated record at <offset>' failed with
..."). Lengths are never trusted for allocation: data is read in bounded chunks, so a
corrupted length field gives DataLossError, not MemoryError.

Files are opened by local path (callers resolve `file://` URLs); `open_for_read` and
`open_for_write` give binary file objects over the decompressed bytes.
"""

from __future__ import annotations

import gzip
import io
import struct
import zlib
from typing import Any, BinaryIO, Optional

from tf1compat.framework import errors
from tf1compat.serialization import crc32c

__all__ = ["HEADER_SIZE", "FOOTER_SIZE", "COMPRESSIONS", "encode_record", "open_for_read",
           "open_for_write", "RecordReader"]

HEADER_SIZE = 12
FOOTER_SIZE = 4
COMPRESSIONS = ("", "ZLIB", "GZIP")
_READ_CHUNK = 1 << 26   # the most bytes one read asks for


def encode_record(data: bytes) -> bytes:
    """One record's bytes: header, data, footer."""
    header = struct.pack("<Q", len(data))
    return b"".join((header, struct.pack("<I", crc32c.masked_value(header)), data,
                     struct.pack("<I", crc32c.masked_value(data))))


# -- compressed streams --------------------------------------------------------------------------

class _ZlibWriter:
    """A write-only file that ZLIB-compresses everything written (one stream)."""

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


class _GzipWriter:
    """gzip.GzipFile that also closes the file under it."""

    def __init__(self, raw: BinaryIO, level: int):
        self._raw = raw
        self._file = gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=level, mtime=0)

    def write(self, data: bytes) -> None:
        self._file.write(data)

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        self._file.close()
        self._raw.close()


class _ZlibReader:
    """A read-only file over a ZLIB stream."""

    def __init__(self, raw: BinaryIO):
        self._raw = raw
        self._z = zlib.decompressobj()
        self._buffer = bytearray()
        self._eof = False

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0:
            n = 1 << 62     # everything
        while len(self._buffer) < n and not self._eof:
            # Compressed input left over from the last step goes first; each step
            # inflates a bounded amount, so corrupt input cannot expand unboundedly.
            data = self._z.unconsumed_tail or self._raw.read(1 << 16)
            try:
                if data:
                    self._buffer += self._z.decompress(
                        data, min(max(n - len(self._buffer), 1 << 16), _READ_CHUNK))
                else:
                    self._buffer += self._z.flush()
                    self._eof = True
            except zlib.error as e:
                raise errors.DataLossError(None, None, f"Invalid ZLIB data: {e}") from None
        out = bytes(self._buffer[:n])
        del self._buffer[:n]
        return out

    def close(self) -> None:
        self._raw.close()


class _GzipReader:
    def __init__(self, raw: BinaryIO):
        self._raw = raw
        self._file = gzip.GzipFile(fileobj=raw, mode="rb")

    def read(self, n: int = -1) -> bytes:
        try:
            return self._file.read(n)
        except (OSError, EOFError, zlib.error) as e:
            raise errors.DataLossError(None, None, f"Invalid GZIP data: {e}") from None

    def close(self) -> None:
        self._file.close()
        self._raw.close()


def _check_compression(compression: str) -> None:
    if compression not in COMPRESSIONS:
        raise errors.InvalidArgumentError(None, None,
                                          f"Unsupported compression_type: {compression}")


def open_for_read(path: str, compression: str = "") -> Any:
    """A binary file object over the decompressed bytes of the local file `path`."""
    _check_compression(compression)
    try:
        raw = open(path, "rb")  # noqa: SIM115 - the caller closes it
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise errors.FailedPreconditionError(None, None, f"{path}; Is a directory") from None
    if compression == "GZIP":
        return _GzipReader(raw)
    if compression == "ZLIB":
        return _ZlibReader(raw)
    return raw


def open_for_write(path: str, compression: str = "", level: Optional[int] = None,
                   append: bool = False) -> Any:
    """A binary file object writing (compressed) bytes to the local file `path`."""
    _check_compression(compression)
    level = 6 if level is None or level < 0 else level
    try:
        raw = open(path, "ab" if append else "wb")  # noqa: SIM115 - the caller closes it
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise errors.FailedPreconditionError(None, None, f"{path}; Is a directory") from None
    if compression == "GZIP":
        return _GzipWriter(raw, level)
    if compression == "ZLIB":
        return _ZlibWriter(raw, level)
    return raw


# -- reading records -----------------------------------------------------------------------------

class RecordReader:
    """Reads the records of one file, checking both checksums of each, as TF's RecordReader.

    `read()` returns the next record or None at the end. After a DataLossError the
    reader keeps raising it (TF re-reads the same bad record).
    """

    def __init__(self, path: str, compression: str = ""):
        self._file: Any = open_for_read(path, compression)
        self._compressed = compression != ""
        self.offset = 0
        self._failed: Optional[errors.DataLossError] = None

    def _read_exactly(self, n: int) -> bytes:
        """Up to `n` bytes, read in bounded chunks (fewer only at the end of the file)."""
        if n <= _READ_CHUNK:
            return self._file.read(n)
        parts = io.BytesIO()
        left = n
        while left:
            chunk = self._file.read(min(left, _READ_CHUNK))
            if not chunk:
                break
            parts.write(chunk)
            left -= len(chunk)
        return parts.getvalue()

    @staticmethod
    def _checked(data: bytes, n: int, offset: int) -> bytes:
        (masked,) = struct.unpack_from("<I", data, n)
        if crc32c.unmask(masked) != crc32c.value(data[:n]):
            # TF's hint when the very first header does not check out.
            hint = " (Is this even a TFRecord file?)" if offset == 0 else ""
            raise errors.DataLossError(None, None, f"corrupted record at {offset}{hint}")
        return data[:n]

    def read(self) -> Optional[bytes]:
        """The next record, or None at the end of the file."""
        if self._failed is not None:
            raise self._failed
        offset = self.offset
        header = self._file.read(HEADER_SIZE)
        if len(header) < HEADER_SIZE:
            # As TF: a partial header at the end reads as the end of the file.
            return None
        try:
            self._checked(header, 8, offset)
            (length,) = struct.unpack_from("<Q", header)
            data = self._read_exactly(length + FOOTER_SIZE)
            if len(data) != length + FOOTER_SIZE:
                why = "EOF reached" if self._compressed else "Read less bytes than requested"
                raise errors.DataLossError(None, None,
                                           f"truncated record at {offset}' failed with {why}")
            record = self._checked(data, length, offset + HEADER_SIZE)
        except errors.DataLossError as e:
            self._failed = e
            raise
        self.offset = offset + HEADER_SIZE + length + FOOTER_SIZE
        return record

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __del__(self) -> None:
        # A pass abandoned mid-file (an iterator re-initialized or dropped before the end,
        # as Estimator evaluation does) closes its file, as TF's reader does when its
        # iterator is destroyed, instead of leaving it to the garbage collector.
        if getattr(self, "_file", None) is not None:
            self.close()
