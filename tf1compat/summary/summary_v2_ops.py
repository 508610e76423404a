"""The summary-writer ops behind `tf.contrib.summary` (TF 1.15's summary_ops_v2):
SummaryWriter (the writer resource), CreateSummaryFileWriter, WriteScalarSummary,
WriteHistogramSummary, WriteImageSummary, WriteAudioSummary, WriteSummary,
WriteGraphSummary, FlushSummaryWriter and CloseSummaryWriter.

A SummaryWriter op's run-time value is the session's `_WriterResource`
(`kctx.op_resource`), bound to an events file by CreateSummaryFileWriter (a second
CreateSummaryFileWriter for the same log directory keeps the open file, as TF). Each Write
op appends one `Event` (wall time, step, a `Summary` encoded as the matching tf.summary op
encodes it: simple_value for scalars, HistogramProto, PNG images, WAV audio, TensorProto)
to the writer's file; writing through a writer that was never created raises TF's
NotFoundError.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.serialization.messages import Event, Summary
from tf1compat.summary import summary_ops as v1
from tf1compat.summary.writer import EventFileWriter

__all__ = ["WriterResource", "STATE", "SUMMARY_WRITER_INIT_COLLECTION"]


class WriterResource:
    """One SummaryWriter resource: the events file it writes to, once created."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.writer: Optional[EventFileWriter] = None
        self.logdir: Optional[str] = None

    def create(self, logdir: str, max_queue: int, flush_millis: int, suffix: str) -> None:
        with self.lock:
            if self.writer is not None and self.logdir == logdir:
                return
            if self.writer is not None:
                self.writer.close()
            self.writer = EventFileWriter(logdir, max_queue=max_queue,
                                          flush_secs=flush_millis / 1000.0,
                                          filename_suffix=suffix)
            self.logdir = logdir

    def write(self, step: Any, summary: Optional[Summary] = None,
              graph_def: Optional[bytes] = None) -> None:
        with self.lock:
            if self.writer is None:
                raise errors.NotFoundError(
                    None, None, "Resource does not exist: the summary writer was never "
                                "created (run tf.contrib.summary.summary_writer_initializer_op"
                                "() or writer.init() first)")
            event = Event(wall_time=time.time(), step=int(v1._to_numpy(step)))
            if summary is not None:
                event.summary.CopyFrom(summary)
            if graph_def is not None:
                event.graph_def = graph_def
            self.writer.add_event(event)

    def flush(self) -> None:
        with self.lock:
            if self.writer is not None:
                self.writer.flush()

    def close(self) -> None:
        with self.lock:
            if self.writer is not None:
                self.writer.close()
            self.writer = None
            self.logdir = None


def _text(value: Any) -> str:
    return v1._as_text(v1._to_numpy(value).reshape(()).item()
                       if not isinstance(value, (bytes, str)) else value)


def _writer_kernel(node: Any, kctx: Any) -> Any:
    return kctx.op_resource(WriterResource)


declare("SummaryWriter", outputs=["writer: resource"],
        attrs={"shared_name": "", "container": ""}, shape=lambda ctx: [TensorShape([])],
        kernel=_writer_kernel, grad="none", stateful=True, constant=True, cpu_only=True,
        doc="A summary writer; its run-time value is the session's writer resource.")


def _create_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    def create(writer: WriterResource, logdir: Any, max_queue: Any, flush_millis: Any,
               filename_suffix: Any) -> None:
        writer.create(_text(logdir), int(v1._to_numpy(max_queue)),
                      int(v1._to_numpy(flush_millis)), _text(filename_suffix))
    return create


declare("CreateSummaryFileWriter",
        inputs=["writer: resource", "logdir: string", "max_queue: int32",
                "flush_millis: int32", "filename_suffix: string"],
        shape=lambda ctx: [], kernel=_create_kernel, grad="none", stateful=True,
        cpu_only=True)


def _summary_of(v1_factory: Callable[..., Any]) -> Callable[[Any, Any], Any]:
    """A Write* kernel from the tf.summary op kernel that encodes the same Summary."""
    def factory(node: Any, kctx: Any) -> Callable[..., None]:
        encode = v1_factory(node, kctx)

        def write(writer: WriterResource, step: Any, tag: Any, *values: Any) -> None:
            summary = Summary.FromString(bytes(encode(tag, *values).item()))
            writer.write(step, summary)
        return write
    return factory


_REAL = (D.float32, D.float64, D.int32, D.uint8, D.int16, D.int8, D.int64, D.bfloat16,
         D.uint16, D.float16, D.uint32, D.uint64)

declare("WriteScalarSummary",
        inputs=["writer: resource", "step: int64", "tag: string", "value: T"],
        attrs={"T": Type(_REAL)}, shape=lambda ctx: [],
        kernel=_summary_of(v1._scalar_kernel), grad="none", stateful=True, cpu_only=True)
declare("WriteHistogramSummary",
        inputs=["writer: resource", "step: int64", "tag: string", "values: T"],
        attrs={"T": Type(_REAL + (D.bool,), default=D.float32)}, shape=lambda ctx: [],
        kernel=_summary_of(v1._histogram_kernel), grad="none", stateful=True,
        cpu_only=True)


def _image_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    encode = v1._image_kernel(node, kctx)

    def write(writer: WriterResource, step: Any, tag: Any, tensor: Any,
              bad_color: Any) -> None:
        writer.write(step, Summary.FromString(bytes(encode(tag, tensor).item())))
    return write


declare("WriteImageSummary",
        inputs=["writer: resource", "step: int64", "tag: string", "tensor: T",
                "bad_color: uint8"],
        attrs={"max_images": 3, "T": Type((D.uint8, D.float64, D.float32, D.float16),
                                          default=D.float32)},
        shape=lambda ctx: [], kernel=_image_kernel, grad="none", stateful=True,
        cpu_only=True)
declare("WriteAudioSummary",
        inputs=["writer: resource", "step: int64", "tag: string", "tensor: float",
                "sample_rate: float"],
        attrs={"max_outputs": 3}, shape=lambda ctx: [],
        kernel=_summary_of(v1._audio_kernel), grad="none", stateful=True, cpu_only=True)


def _tensor_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    encode = v1._tensor_summary_kernel(node, kctx)

    def write(writer: WriterResource, step: Any, tensor: Any, tag: Any,
              summary_metadata: Any) -> None:
        meta = v1._to_numpy(summary_metadata).reshape(()).item() \
            if not isinstance(summary_metadata, bytes) else summary_metadata
        writer.write(step, Summary.FromString(bytes(encode(tag, tensor, meta).item())))
    return write


declare("WriteSummary",
        inputs=["writer: resource", "step: int64", "tensor: T", "tag: string",
                "summary_metadata: string"],
        attrs={"T": Type()}, shape=lambda ctx: [], kernel=_tensor_kernel, grad="none",
        stateful=True, cpu_only=True)


def _graph_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    def write(writer: WriterResource, step: Any, tensor: Any) -> None:
        data = tensor if isinstance(tensor, bytes) else v1._to_numpy(tensor).reshape(
            ()).item()
        writer.write(step, graph_def=bytes(data))
    return write


declare("WriteGraphSummary", inputs=["writer: resource", "step: int64", "tensor: string"],
        shape=lambda ctx: [], kernel=_graph_kernel, grad="none", stateful=True,
        cpu_only=True)


def _flush_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    def flush(writer: WriterResource) -> None:
        writer.flush()
    return flush


def _close_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    def close(writer: WriterResource) -> None:
        writer.close()
    return close


declare("FlushSummaryWriter", inputs=["writer: resource"], shape=lambda ctx: [],
        kernel=_flush_kernel, grad="none", stateful=True, cpu_only=True)
declare("CloseSummaryWriter", inputs=["writer: resource"], shape=lambda ctx: [],
        kernel=_close_kernel, grad="none", stateful=True, cpu_only=True)


class _SummaryState(threading.local):
    """The thread's default writer (a tf.contrib.summary SummaryWriter), recording
    condition (None: tf.contrib.summary never records, tf.compat.v2.summary always does; a
    bool, a boolean tensor or a callable giving one) and tf.compat.v2.summary's default
    step (`as_default(step=)`, `experimental.set_step`)."""

    def __init__(self) -> None:
        super().__init__()
        self.writer: Any = None
        self.is_recording: Any = None
        self.step: Any = None


STATE = _SummaryState()
"""The default tf.contrib.summary writer and recording condition of this thread."""
SUMMARY_WRITER_INIT_COLLECTION = "_SUMMARY_WRITER_V2"
