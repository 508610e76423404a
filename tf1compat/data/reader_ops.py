"""TF's readers: `tf.TFRecordReader`, `TextLineReader`, `WholeFileReader`,
`FixedLengthRecordReader`, `IdentityReader` (`tf.ReaderBase`), with TF's ops
(TFRecordReaderV2, ..., ReaderReadV2, ReaderReadUpToV2, ReaderResetV2, ...).

A reader op outputs a `resource` handle whose run-time value is the session's reader
object (`_readers.py`), one per op or per `shared_name`, as queues (queue_ops.py). Read ops
take it and a queue of file names (the work units); they block on that queue with the
run's deadline. Readers run on the CPU.
"""

from __future__ import annotations

import collections
import functools
from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import context
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import REQUIRED, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.data import _readers
from tf1compat.data.tf_record import TFRecordOptions
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops.legacy_handle_ops import declare_string_handle_form
from tf1compat.ops.queue_ops import as_queue, shared_resource

__all__ = ["ReaderBase", "TFRecordReader", "TextLineReader", "WholeFileReader",
           "FixedLengthRecordReader", "IdentityReader"]


# -- reader resources -----------------------------------------------------------------------------

def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value or "")


def _tf_record(node: Any, name: str) -> _readers.Reader:
    compression = _text(node.attrs["compression_type"])
    if compression not in ("", "ZLIB", "GZIP"):
        raise errors.op_error(errors.InvalidArgumentError, node,
                              f"Unsupported compression_type: {compression}")
    return _readers.TFRecordReader(name, compression)


def _text_line(node: Any, name: str) -> _readers.Reader:
    skip = node.attrs["skip_header_lines"]
    if skip < 0:
        raise errors.op_error(errors.InvalidArgumentError, node,
                              f"skip_header_lines must be >= 0 not {skip}")
    return _readers.TextLineReader(name, skip)


def _fixed_length(node: Any, name: str) -> _readers.Reader:
    a = node.attrs
    for attr in ("header_bytes", "record_bytes", "footer_bytes", "hop_bytes"):
        if a[attr] < 0:
            raise errors.op_error(errors.InvalidArgumentError, node,
                                  f"{attr} must be >= 0 not {a[attr]}")
    encoding = _text(a["encoding"])
    if encoding not in ("", "ZLIB", "GZIP"):
        raise errors.op_error(errors.InvalidArgumentError, node,
                              f"Unsupported encoding: {encoding}")
    return _readers.FixedLengthRecordReader(name, a["header_bytes"], a["record_bytes"],
                                            a["footer_bytes"], a["hop_bytes"], encoding)


def _mismatch(reader: Any, node: Any) -> Optional[str]:
    kind = node.type[:-2]
    if getattr(reader, "kind", None) != kind:
        return f"Shared resource '{_text(node.attrs['shared_name'])}' is not a {kind}"
    return None


def _reader_kernel(make: Callable[[Any, str], _readers.Reader]) -> Callable[..., Any]:
    def factory(node: Any, kctx: Any) -> Any:
        return shared_resource(node, kctx, functools.partial(make, node), _mismatch)
    return factory


_SHARED = {"container": "", "shared_name": ""}
for _type, _make, _attrs in (
        ("TFRecordReaderV2", _tf_record, {"compression_type": ""}),
        ("TextLineReaderV2", _text_line, {"skip_header_lines": 0}),
        ("WholeFileReaderV2", lambda node, name: _readers.WholeFileReader(name), {}),
        ("FixedLengthRecordReaderV2", _fixed_length,
         {"header_bytes": 0, "record_bytes": REQUIRED, "footer_bytes": 0, "hop_bytes": 0,
          "encoding": ""}),
        ("IdentityReaderV2", lambda node, name: _readers.IdentityReader(name), {})):
    declare(_type, outputs=["reader_handle: resource"], attrs={**_attrs, **_SHARED},
            shape=lambda ctx: [TensorShape([])], kernel=_reader_kernel(_make), grad="none",
            stateful=True, cpu_only=True, constant=True,
            doc=f"TF's {_type}: the session's reader object.")


# -- reading -----------------------------------------------------------------------------------

def _as_reader(handle: Any) -> _readers.Reader:
    if isinstance(handle, np.ndarray) and handle.shape == ():
        handle = handle[()]
    if not isinstance(handle, _readers.Reader):
        raise errors.InvalidArgumentError(None, None, "Input handle is not a reader resource")
    return handle


def _strings(values: List[bytes]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _read_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    deadline = kctx.runtime.run_deadline

    def read(reader: Any, queue: Any) -> tuple:
        return _as_reader(reader).read(as_queue(queue), deadline())
    return read


def _read_up_to_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    deadline = kctx.runtime.run_deadline

    def read_up_to(reader: Any, queue: Any, num_records: Any) -> tuple:
        records = _as_reader(reader).read_up_to(as_queue(queue), int(num_records),
                                                deadline())
        return _strings([k for k, _ in records]), _strings([v for _, v in records])
    return read_up_to


def _scalar_input(index: int) -> Callable[[Any], List[TensorShape]]:
    def rule(ctx: Any) -> List[TensorShape]:
        rank = ctx.shape(index).rank
        if rank not in (None, 0):
            raise ValueError(f"Shape must be rank 0 but is rank {rank} {node_desc(ctx)}")
        return [TensorShape([None]), TensorShape([None])]
    return rule


declare("ReaderReadV2", inputs=["reader_handle: resource", "queue_handle: resource"],
        outputs=["key: string", "value: string"],
        shape=lambda ctx: [TensorShape([]), TensorShape([])], kernel=_read_kernel,
        grad="none", stateful=True, cpu_only=True,
        doc="The next record (key, value), taking file names from the queue as needed.")
declare("ReaderReadUpToV2",
        inputs=["reader_handle: resource", "queue_handle: resource", "num_records: int64"],
        outputs=["keys: string", "values: string"], shape=_scalar_input(2),
        kernel=_read_up_to_kernel, grad="none", stateful=True, cpu_only=True,
        doc="Up to `num_records` records.")


def _counter_kernel(index: int) -> Callable[..., Any]:
    def factory(node: Any, kctx: Any) -> Callable[[Any], Any]:
        return lambda reader: torch.tensor(_as_reader(reader).counters()[index],
                                           dtype=torch.int64)
    return factory


declare("ReaderNumRecordsProducedV2", inputs=["reader_handle: resource"],
        outputs=["records_produced: int64"], shape=lambda ctx: [TensorShape([])],
        kernel=_counter_kernel(0), grad="none", stateful=True, cpu_only=True)
declare("ReaderNumWorkUnitsCompletedV2", inputs=["reader_handle: resource"],
        outputs=["units_completed: int64"], shape=lambda ctx: [TensorShape([])],
        kernel=_counter_kernel(1), grad="none", stateful=True, cpu_only=True)
declare("ReaderResetV2", inputs=["reader_handle: resource"], shape=lambda ctx: [],
        kernel=lambda node, kctx: lambda reader: _as_reader(reader).reset(), grad="none",
        stateful=True, cpu_only=True)
declare("ReaderSerializeStateV2", inputs=["reader_handle: resource"],
        outputs=["state: string"], shape=lambda ctx: [TensorShape([])],
        kernel=lambda node, kctx: lambda reader: _as_reader(reader).serialize_state(),
        grad="none", stateful=True, cpu_only=True)


def _restore_state_shape(ctx: Any) -> List[TensorShape]:
    rank = ctx.shape(1).rank
    if rank not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {rank} {node_desc(ctx)}")
    return []


declare("ReaderRestoreStateV2", inputs=["reader_handle: resource", "state: string"],
        shape=_restore_state_shape,
        kernel=lambda node, kctx: lambda reader, state: _as_reader(reader).restore_state(
            bytes(state)), grad="none", stateful=True, cpu_only=True)


# The V1 readers of TF 0.x graphs (a Ref(string) handle; TF removed most of them at
# GraphDef version 26): the same reader objects and kernels. (FixedLengthRecordReader
# predates `encoding`: it reads records uncompressed, as TF 1.x did; TF 2.21's kernel asks
# the V1 node for the attr and fails with "No attr named 'encoding' in NodeDef".)
for _v2 in ("TFRecordReaderV2", "TextLineReaderV2", "WholeFileReaderV2",
            "FixedLengthRecordReaderV2", "IdentityReaderV2", "ReaderReadV2", "ReaderReadUpToV2",
            "ReaderNumRecordsProducedV2", "ReaderNumWorkUnitsCompletedV2", "ReaderResetV2",
            "ReaderSerializeStateV2", "ReaderRestoreStateV2"):
    declare_string_handle_form(_v2[:-2], _v2, f"{_v2} of a Ref(string) handle (TF 0.x "
                                              "graphs).", without_attrs=("encoding",))

# -- the Python API ------------------------------------------------------------------------------

class ReaderBase:
    """`tf.ReaderBase`: reads records from the files (work units) a queue hands out."""

    def __init__(self, reader_ref: Tensor, supports_serialize: bool = False):
        if context.executing_eagerly():
            raise RuntimeError("Readers are not supported when eager execution is enabled. "
                               "Instead, please use tf.data to get data into your model.")
        self._reader_ref = reader_ref
        self._supports_serialize = supports_serialize

    @property
    def reader_ref(self) -> Tensor:
        return self._reader_ref

    @property
    def supports_serialize(self) -> bool:
        return self._supports_serialize

    @staticmethod
    def _queue_ref(queue: Any) -> Tensor:
        return queue if isinstance(queue, Tensor) else queue.queue_ref

    def read(self, queue: Any, name: Optional[str] = None) -> Any:
        """The next record: (key, value) string scalars."""
        op = apply_op("ReaderReadV2", [self._reader_ref, self._queue_ref(queue)], {},
                      name=name)
        return _ReadResult(*op.outputs)

    def read_up_to(self, queue: Any, num_records: Any, name: Optional[str] = None) -> Any:
        """Up to `num_records` records: (keys, values) string vectors."""
        op = apply_op("ReaderReadUpToV2",
                      [self._reader_ref, self._queue_ref(queue), num_records], {}, name=name)
        return _ReadUpToResult(*op.outputs)

    def num_records_produced(self, name: Optional[str] = None) -> Tensor:
        return apply_op("ReaderNumRecordsProducedV2", [self._reader_ref], {},
                        name=name).outputs[0]

    def num_work_units_completed(self, name: Optional[str] = None) -> Tensor:
        return apply_op("ReaderNumWorkUnitsCompletedV2", [self._reader_ref], {},
                        name=name).outputs[0]

    def serialize_state(self, name: Optional[str] = None) -> Tensor:
        return apply_op("ReaderSerializeStateV2", [self._reader_ref], {},
                        name=name).outputs[0]

    def restore_state(self, state: Any, name: Optional[str] = None) -> Any:
        return apply_op("ReaderRestoreStateV2", [self._reader_ref, state], {}, name=name)

    def reset(self, name: Optional[str] = None) -> Any:
        """The op restoring the reader to its initial clean state."""
        return apply_op("ReaderResetV2", [self._reader_ref], {}, name=name)


# TF's generated op wrappers return namedtuples.
_ReadResult = collections.namedtuple("ReaderReadV2", ["key", "value"])
_ReadUpToResult = collections.namedtuple("ReaderReadUpToV2", ["keys", "values"])


def _reader_op(op_type: str, attrs: dict, name: Optional[str]) -> Tensor:
    return apply_op(op_type, [], attrs, name=name).outputs[0]


class WholeFileReader(ReaderBase):
    """`tf.WholeFileReader`: one record per file, its contents (key: the file name)."""

    def __init__(self, name: Optional[str] = None):
        super().__init__(_reader_op("WholeFileReaderV2", {}, name), supports_serialize=True)


class TextLineReader(ReaderBase):
    """`tf.TextLineReader`: one record per line (key: `file:line`)."""

    def __init__(self, skip_header_lines: Optional[int] = None, name: Optional[str] = None):
        attrs = {} if skip_header_lines is None else {"skip_header_lines": skip_header_lines}
        super().__init__(_reader_op("TextLineReaderV2", attrs, name))


class FixedLengthRecordReader(ReaderBase):
    """`tf.FixedLengthRecordReader`: fixed-size records between a header and a footer
    (key: `file:record index`)."""

    def __init__(self, record_bytes: int, header_bytes: Optional[int] = None,
                 footer_bytes: Optional[int] = None, hop_bytes: Optional[int] = None,
                 name: Optional[str] = None, encoding: Optional[str] = None):
        attrs = {"record_bytes": record_bytes}
        for key, value in (("header_bytes", header_bytes), ("footer_bytes", footer_bytes),
                           ("hop_bytes", hop_bytes), ("encoding", encoding)):
            if value is not None:
                attrs[key] = value
        super().__init__(_reader_op("FixedLengthRecordReaderV2", attrs, name))


class TFRecordReader(ReaderBase):
    """`tf.TFRecordReader`: the records of TFRecord files (key: `file:offset`)."""

    def __init__(self, name: Optional[str] = None, options: Any = None):
        compression = TFRecordOptions.get_compression_type_string(options)
        super().__init__(_reader_op("TFRecordReaderV2", {"compression_type": compression},
                                    name))


class IdentityReader(ReaderBase):
    """`tf.IdentityReader`: each work unit is one record, as key and value."""

    def __init__(self, name: Optional[str] = None):
        super().__init__(_reader_op("IdentityReaderV2", {}, name), supports_serialize=True)
