"""Run-time readers: TF's ReaderBase and its TFRecord, TextLine, WholeFile, FixedLength and
Identity readers.

A reader is a session resource (reader_ops.py). It takes *work units* (file names) from a
string queue and produces (key, value) records from the current one, TF's ReaderBase way:

* `read`: if no work is in progress, dequeue the next unit (blocking, with the run's
  deadline) and start it (`start`: open the file; a failure skips the unit); then read one
  record; at the unit's end, finish it and go on with the next. A read error (a corrupted
  record) leaves the unit in progress, so the next read fails the same way, as TF's.
* `read_up_to(n)`: records of one or more units, returning early at the end of a unit
  that produced some.
* counters `num_records_produced` / `num_work_units_completed`, `reset`, and for the
  readers TF can serialize (WholeFile, Identity) `serialize_state` / `restore_state`
  (a ReaderBaseState proto).

Keys are TF's: `<file>:<byte offset>` (TFRecord), `<file>:<line number from 1>` (TextLine),
`<file>:<record index>` (FixedLength), `<file>` (WholeFile), the unit itself (Identity).
Every operation on one reader holds its lock, as TF's ReaderBase mutex.
"""

from __future__ import annotations

import collections
from typing import Any, List, Optional, Tuple

import numpy as np

from tf1compat.framework import errors
from tf1compat.serialization import crc32c, tfrecord
from tf1compat.serialization.messages import DecodeError, ReaderBaseState
from tf1compat.util.gil_lock import GilLock

__all__ = ["Reader", "TFRecordReader", "TextLineReader", "WholeFileReader",
           "FixedLengthRecordReader", "IdentityReader"]

Record = Tuple[bytes, bytes]


class Reader:
    """TF's ReaderBase: work units from a queue, records from the current unit."""

    kind = "ReaderBase"
    supports_serialize = False

    def __init__(self, name: str):
        self.name = name
        # Shared by the reading threads of a pipeline (no lock convoy: util/gil_lock.py).
        self._lock = GilLock()
        self._reset_counters()

    def _reset_counters(self) -> None:
        self.work_started = 0
        self.work_finished = 0
        self.num_records_produced = 0
        self.work = b""

    # -- what a reader kind defines ---------------------------------------------------------
    def start(self) -> None:
        """Opens the current work unit (errors skip it)."""

    def finish(self) -> None:
        """Closes the current work unit."""

    def next_record(self) -> Tuple[Optional[Record], bool]:
        """The next (key, value) of the current unit (None if there is none), and whether
        the unit ends there."""
        raise NotImplementedError

    # -- TF's ReaderBase ----------------------------------------------------------------------
    def _in_progress(self) -> bool:
        return self.work_finished < self.work_started

    def _next_work(self, queue: Any, deadline: Optional[float]) -> None:
        element = queue.dequeue(deadline)
        if len(element) != 1:
            raise errors.InvalidArgumentError(None, None, "Expected single component queue")
        value = element[0]
        if isinstance(value, np.ndarray):
            if value.size != 1:
                raise errors.InvalidArgumentError(
                    None, None, "Expected to dequeue a one-element string tensor")
            value = value.reshape(-1)[0]
        if not isinstance(value, bytes):
            raise errors.InvalidArgumentError(
                None, None, "Expected queue with single string component")
        self.work = value
        self.start()
        self.work_started += 1

    def _end_work(self) -> None:
        self.finish()
        self.work_finished = self.work_started

    def read(self, queue: Any, deadline: Optional[float]) -> Record:
        with self._lock:
            while True:
                if not self._in_progress():
                    self._next_work(queue, deadline)
                record, at_end = self.next_record()
                if at_end:
                    self._end_work()
                if record is not None:
                    self.num_records_produced += 1
                    return record

    def read_up_to(self, queue: Any, n: int, deadline: Optional[float]) -> List[Record]:
        with self._lock:
            out: List[Record] = []
            while len(out) < n:
                if not self._in_progress():
                    self._next_work(queue, deadline)
                record, at_end = self.next_record()
                if record is not None:
                    out.append(record)
                    self.num_records_produced += 1
                if at_end:
                    self._end_work()
                    if out:        # a unit ended: return what this call has
                        break
            return out

    def reset(self) -> None:
        with self._lock:
            if self._in_progress():
                self.finish()
            self._reset_counters()

    def counters(self) -> Tuple[int, int]:
        with self._lock:
            return self.num_records_produced, self.work_finished

    def serialize_state(self) -> bytes:
        with self._lock:
            if not self.supports_serialize:
                raise errors.UnimplementedError(None, None, "Reader SerializeState")
            return ReaderBaseState(work_started=self.work_started,
                                   work_finished=self.work_finished,
                                   num_records_produced=self.num_records_produced,
                                   current_work=self.work).SerializeToString()

    def restore_state(self, state: bytes) -> None:
        with self._lock:
            if not self.supports_serialize:
                raise errors.UnimplementedError(None, None, "Reader RestoreState")
            try:
                fields = ReaderBaseState.FromString(state)
            except DecodeError:
                self._reset_counters()
                raise errors.InvalidArgumentError(
                    None, None, f"Could not parse state for {self.kind} '{self.name}': "
                                f"{state!r}") from None
            started, finished = fields.work_started, fields.work_finished
            produced = fields.num_records_produced
            if started < 0 or finished < 0 or produced < 0:
                self._reset_counters()
                raise errors.InvalidArgumentError(
                    None, None, f"Unexpected negative value when restoring in {self.kind} "
                                f"'{self.name}'")
            if started > finished:
                self._reset_counters()
                raise errors.InvalidArgumentError(
                    None, None, "Inconsistent work started vs. finished when restoring in "
                                f"{self.kind} '{self.name}'")
            self.work_started, self.work_finished = started, finished
            self.num_records_produced = produced
            self.work = fields.current_work

    def close(self) -> None:
        """The session closed: the open file is closed, unless a thread is reading (it
        is waiting on a queue, which the session cancels too)."""
        if self._lock.acquire(blocking=False):
            try:
                if self._in_progress():
                    self.finish()
            finally:
                self._lock.release()


def _path(work: bytes) -> str:
    return work.decode("utf-8", errors="surrogateescape")


def _masked_at(arr: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The stored (masked) CRCs at `offsets`, unmasked: TF's rotate-and-offset undone."""
    if not len(offsets):
        return np.zeros(0, np.uint32)
    words = (arr[offsets].astype(np.uint32) | (arr[offsets + 1].astype(np.uint32) << 8) |
             (arr[offsets + 2].astype(np.uint32) << 16) |
             (arr[offsets + 3].astype(np.uint32) << 24))
    rot = words - np.uint32(0xA282EAD8)
    return (rot >> np.uint32(17)) | (rot << np.uint32(15))


class _RecordBlocks:
    """The TFRecords of one (decompressed) stream, read a block at a time with the CRCs of
    a whole block checked in one pass (rather than two reads and two CRC calls per record
    through serialization/tfrecord.RecordReader). Records come out in
    order with their offsets; a bad record raises TF's DataLossError when its turn
    comes, and again on every later read, as TF's RecordReader."""

    _BLOCK = 1 << 18

    def __init__(self, stream: Any, compressed: bool = False):
        self._stream = stream
        self._compressed = compressed
        self._buffer = b""          # unread bytes; _base is the offset of the first one
        self._base = 0
        self._ready: "collections.deque[Tuple[int, bytes]]" = collections.deque()
        self._error: Optional[errors.OpError] = None
        self._eof = False

    def next(self) -> Optional[Tuple[int, bytes]]:
        """(offset, record), or None at the end of the stream."""
        while not self._ready:
            if self._error is not None:
                raise self._error
            if self._eof and not self._buffer:
                return None
            self._fill()
        return self._ready.popleft()

    def _fill(self) -> None:
        if not self._eof:
            chunk = self._stream.read(self._BLOCK)
            if chunk:
                self._buffer = self._buffer + chunk if self._buffer else chunk
            else:
                self._eof = True
        buf = self._buffer
        spans, pos = [], 0
        while pos + 12 <= len(buf):
            length = int.from_bytes(buf[pos:pos + 8], "little")
            if pos + 16 + length > len(buf):
                if self._eof:
                    spans.append((pos, length))   # its header is checked, then "truncated"
                break
            spans.append((pos, length))
            pos += 16 + length
        if not spans:
            if self._eof:
                self._buffer = b""      # as TF: a partial header at the end is the end
            return
        self._check(buf, spans)
        last, length = spans[-1]
        consumed = min(last + 16 + length, len(buf))
        self._buffer = buf[consumed:]
        self._base += consumed

    def _check(self, buf: bytes, spans: List[Tuple[int, int]]) -> None:
        """Queues the records of `spans` whose CRCs hold, up to the first bad one."""
        arr = np.frombuffer(buf, np.uint8)
        heads = np.array([p for p, _ in spans], dtype=np.int64)
        lengths = np.array([n for _, n in spans], dtype=np.int64)
        complete = heads + 16 + lengths <= len(buf)
        data_at = (heads + 12)[complete]
        starts = np.concatenate([heads, data_at]).tolist()
        sizes = [8] * len(heads) + lengths[complete].tolist()
        computed = np.array([crc32c.value(buf[s:s + n]) for s, n in zip(starts, sizes)],
                            dtype=np.uint32)
        stored = _masked_at(arr, np.concatenate([heads + 8, data_at + lengths[complete]]))
        header_ok = computed[:len(heads)] == stored[:len(heads)]
        data_ok = np.ones(len(heads), bool)
        data_ok[complete] = computed[len(heads):] == stored[len(heads):]
        bad = np.nonzero(~(header_ok & data_ok & complete))[0]
        good = int(bad[0]) if len(bad) else len(spans)
        ready = self._ready
        base = self._base
        for pos, length in spans[:good]:
            ready.append((base + pos, buf[pos + 12:pos + 12 + length]))
        if good < len(spans):
            offset = base + spans[good][0]
            if not header_ok[good]:
                hint = " (Is this even a TFRecord file?)" if offset == 0 else ""
                message = f"corrupted record at {offset}{hint}"
            elif not complete[good]:
                why = "EOF reached" if self._compressed else "Read less bytes than requested"
                message = f"truncated record at {offset}' failed with {why}"
            else:
                message = f"corrupted record at {offset + 12}"
            self._error = errors.DataLossError(None, None, message)

    def close(self) -> None:
        self._stream.close()


class TFRecordReader(Reader):
    """Records of TFRecord files; key `<file>:<offset>` (offset in the decompressed file)."""

    kind = "TFRecordReader"

    def __init__(self, name: str, compression_type: str):
        super().__init__(name)
        self.compression = compression_type
        self._records: Optional[_RecordBlocks] = None

    def start(self) -> None:
        self._records = _RecordBlocks(tfrecord.open_for_read(_path(self.work),
                                                             self.compression),
                                      compressed=self.compression != "")

    def finish(self) -> None:
        if self._records is not None:
            self._records.close()
            self._records = None

    def next_record(self) -> Tuple[Optional[Record], bool]:
        assert self._records is not None
        found = self._records.next()
        if found is None:
            return None, True
        offset, value = found
        return (self.work + b":" + str(offset).encode(), value), False


class TextLineReader(Reader):
    """Lines of text files (without "\\n" or "\\r\\n"); key `<file>:<line number>`."""

    kind = "TextLineReader"

    def __init__(self, name: str, skip_header_lines: int):
        super().__init__(name)
        self.skip_header_lines = skip_header_lines
        self._file: Any = None
        self._line = 0

    def start(self) -> None:
        self._file = tfrecord.open_for_read(_path(self.work), "")
        self._line = 0
        while self._line < self.skip_header_lines:
            if not self._file.readline():
                break        # a file shorter than its header has no records
            self._line += 1

    def finish(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def next_record(self) -> Tuple[Optional[Record], bool]:
        line = self._file.readline()
        if not line:
            return None, True
        self._line += 1
        if line.endswith(b"\n"):
            line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
        return (self.work + b":" + str(self._line).encode(), line), False


class WholeFileReader(Reader):
    """One record per file: its whole contents; key `<file>`."""

    kind = "WholeFileReader"
    supports_serialize = True

    def next_record(self) -> Tuple[Optional[Record], bool]:
        stream = tfrecord.open_for_read(_path(self.work), "")
        try:
            value = stream.read()
        finally:
            stream.close()
        return (self.work, value), True


class IdentityReader(Reader):
    """One record per work unit: the unit itself, as key and value."""

    kind = "IdentityReader"
    supports_serialize = True

    def next_record(self) -> Tuple[Optional[Record], bool]:
        return (self.work, self.work), True


class FixedLengthRecordReader(Reader):
    """Records of `record_bytes` bytes after a `header_bytes` header and before a
    `footer_bytes` footer, each starting `hop_bytes` after the previous (record_bytes
    when 0); key `<file>:<record index>`. Files may be ZLIB/GZIP compressed (`encoding`)."""

    kind = "FixedLengthRecordReader"

    def __init__(self, name: str, header_bytes: int, record_bytes: int, footer_bytes: int,
                 hop_bytes: int, encoding: str):
        super().__init__(name)
        self.header, self.record, self.footer = header_bytes, record_bytes, footer_bytes
        self.hop, self.encoding = hop_bytes, encoding
        self._file: Any = None
        self._cache = b""          # bytes from the next record's first byte on
        self._index = 0

    def start(self) -> None:
        self._file = tfrecord.open_for_read(_path(self.work), self.encoding)
        self._index = 0
        self._cache = b""
        if len(self._file.read(self.header)) < self.header:
            self._cache = None     # shorter than the header: no records

    def finish(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._cache = b""

    def _fill(self, n: int) -> bool:
        """Reads ahead until the cache holds `n` bytes; False at the end of the file."""
        while len(self._cache) < n:
            chunk = self._file.read(max(n - len(self._cache), 1 << 16))
            if not chunk:
                return False
            self._cache += chunk
        return True

    def next_record(self) -> Tuple[Optional[Record], bool]:
        if self._cache is None:
            return None, True
        if self._index > 0:
            step = self.hop if self.hop > 0 else self.record
            if not self._fill(step):
                return None, True
            self._cache = self._cache[step:]
        if not self._fill(self.record + self.footer):
            return None, True
        value = self._cache[:self.record]
        key = self.work + b":" + str(self._index).encode()
        self._index += 1
        return (key, value), False
