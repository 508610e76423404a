"""`tf.contrib.summary` (TF 1.15's summary_ops_v2): summaries written by ops into a
writer's events file, under a recording condition.

    writer = tf.contrib.summary.create_file_writer(logdir)
    with writer.as_default(), tf.contrib.summary.always_record_summaries():
        tf.contrib.summary.scalar("loss", loss)          # step: the global step
    with tf.Session() as sess:
        tf.contrib.summary.initialize(graph=tf.get_default_graph())
        sess.run([train_op, tf.contrib.summary.all_summary_ops()])

In a graph each summary function returns an op (added to the "_SUMMARY_V2" collection,
`all_summary_ops()`) that writes when the recording condition holds and returns whether
it wrote; without a default writer it is a no-op. The writer's file is created when its
init op runs (`summary_writer_initializer_op()`, `writer.init()`, `initialize()`).
Under eager execution the ops run at once. The ops are declared in
summary/summary_v2_ops.py.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Callable, Iterator, Optional

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import (GraphKeys, add_to_collection, apply_op,
                                       control_dependencies, device, get_collection,
                                       get_name_scope, name_scope)
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.summary.summary_ops import _summary_scope, initialize  # noqa: F401 - re-exported
from tf1compat.summary.summary_v2_ops import STATE, SUMMARY_WRITER_INIT_COLLECTION

__all__ = ["SummaryWriter", "create_file_writer", "create_summary_file_writer",
           "always_record_summaries", "never_record_summaries",
           "record_summaries_every_n_global_steps", "should_record_summaries",
           "summary_writer_function", "scalar", "histogram", "image", "audio", "generic",
           "graph", "flush", "all_summary_ops", "summary_writer_initializer_op",
           "initialize", "eval_dir"]


class SummaryWriter:
    """A summary writer resource with its init op factory (`create_file_writer`)."""

    def __init__(self, resource: Any, init_op_fn: Optional[Callable[[], Any]]):
        self._resource = resource
        self._init_op_fn = init_op_fn

    def set_as_default(self) -> None:
        """Makes this the thread's default writer."""
        STATE.writer = self

    @contextlib.contextmanager
    def as_default(self) -> Iterator["SummaryWriter"]:
        """This writer as the default inside the block (flushed on exit)."""
        if self._resource is None:
            yield self
            return
        old = STATE.writer
        try:
            STATE.writer = self
            yield self
            # Flushes the summaries written under eager execution in the block.
            if _context.executing_eagerly():
                self.flush()
        finally:
            STATE.writer = old

    def init(self) -> Any:
        """The op that creates the writer's events file."""
        if self._init_op_fn is None:
            return None
        return self._init_op_fn()

    def flush(self) -> Any:
        """An op flushing the events file (runs at once under eager execution)."""
        return flush(writer=self._resource)

    def close(self) -> Any:
        """An op closing the events file."""
        with device("cpu:0"):
            return apply_op("CloseSummaryWriter", [self._resource])


def create_file_writer(logdir: Any, max_queue: Any = None, flush_millis: Any = None,
                       filename_suffix: Any = None, name: Optional[str] = None
                       ) -> SummaryWriter:
    """A SummaryWriter writing events files in `logdir` (max_queue 10, flush every 2
    minutes, suffix ".v2" by default); a None logdir gives a writer that writes nothing."""
    if logdir is None:
        return SummaryWriter(None, None)
    logdir = str(logdir)
    with device("cpu:0"):
        if max_queue is None:
            max_queue = constant(10)
        if flush_millis is None:
            flush_millis = constant(2 * 60 * 1000)
        if filename_suffix is None:
            filename_suffix = constant(".v2")
        resource = apply_op("SummaryWriter", [], {"shared_name": name or ""}).outputs[0]

        def init_op_fn() -> Any:
            return apply_op("CreateSummaryFileWriter",
                            [resource, logdir, max_queue, flush_millis, filename_suffix])
        init_op = init_op_fn()
        if not _context.executing_eagerly():
            add_to_collection(SUMMARY_WRITER_INIT_COLLECTION, init_op)
        return SummaryWriter(resource, init_op_fn)


create_summary_file_writer = create_file_writer


@contextlib.contextmanager
def _record_summaries(condition: Any) -> Iterator[None]:
    old = STATE.is_recording
    try:
        STATE.is_recording = condition
        yield
    finally:
        STATE.is_recording = old


def always_record_summaries() -> Any:
    """A context in which summaries are always recorded."""
    return _record_summaries(True)


def never_record_summaries() -> Any:
    """A context in which summaries are never recorded."""
    return _record_summaries(False)


def record_summaries_every_n_global_steps(n: int, global_step: Any = None) -> Any:
    """A context recording summaries when global_step % n == 0."""
    from tf1compat.ops.math_ops import equal
    from tf1compat.training.training_util import get_or_create_global_step
    if global_step is None:
        global_step = get_or_create_global_step()
    with device("cpu:0"):
        def should() -> Any:
            return equal(global_step % n, 0)
        condition = should if _context.executing_eagerly() else should()
    return _record_summaries(condition)


def should_record_summaries() -> Any:
    """Whether summaries are recorded now (a bool tensor in graphs)."""
    condition = STATE.is_recording
    if callable(condition):
        condition = condition()
    if condition is None:
        condition = False
    return convert_to_tensor(condition, D.bool)


def _choose_step(step: Any) -> Any:
    from tf1compat.training.training_util import get_or_create_global_step
    if step is None:
        return get_or_create_global_step()
    if not isinstance(step, Tensor):
        return convert_to_tensor(step, D.int64)
    return step


def summary_writer_function(name: str, tensor: Any, function: Callable[[str, str], Any],
                            family: Optional[str] = None) -> Any:
    """Runs `function(tag, scope)` (which builds a Write op) when recording: returns the
    op, True where it wrote and False where it did not (no-op without a default
    writer)."""
    from tf1compat.ops.cond import cond
    from tf1compat.ops.control_flow_ops import no_op
    scope_prefix = get_name_scope()
    if scope_prefix:
        scope_prefix += "/"

    def record() -> Tensor:
        with name_scope(scope_prefix), _summary_scope(name, family,
                                                      values=[tensor]) as (tag, scope):
            with control_dependencies([function(tag, scope)]):
                return constant(True)

    if STATE.writer is None or STATE.writer._resource is None:
        return no_op()
    with device("cpu:0"):
        condition = STATE.is_recording
        if callable(condition):
            condition = condition()
        if condition is None or isinstance(condition, bool):
            op = record() if condition else constant(False)
        else:
            op = cond(condition, record, lambda: constant(False), name="")
        if not _context.executing_eagerly():
            add_to_collection(GraphKeys._SUMMARY_COLLECTION, op)
    return op


def _write(op_type: str, step: Any, inputs_after_tag: list, attrs: Optional[dict] = None,
           tag_last: bool = False) -> Callable[[str, str], Any]:
    from tf1compat.ops.array_ops import identity

    def function(tag: str, scope: str) -> Any:
        values = [identity(v) if isinstance(v, Tensor) else v for v in inputs_after_tag]
        inputs = ([STATE.writer._resource, _choose_step(step)] +
                  (values[:1] + [tag] + values[1:] if tag_last else [tag] + values))
        return apply_op(op_type, inputs, attrs, name=scope)
    return function


def scalar(name: str, tensor: Any, family: Optional[str] = None, step: Any = None) -> Any:
    """Writes a scalar (a simple_value summary)."""
    return summary_writer_function(name, tensor, _write("WriteScalarSummary", step,
                                                        [tensor]), family=family)


def histogram(name: str, tensor: Any, family: Optional[str] = None, step: Any = None) -> Any:
    """Writes a histogram of the tensor's values."""
    return summary_writer_function(name, tensor, _write("WriteHistogramSummary", step,
                                                        [tensor]), family=family)


def image(name: str, tensor: Any, bad_color: Any = None, max_images: int = 3,
          family: Optional[str] = None, step: Any = None) -> Any:
    """Writes up to `max_images` PNG images of a [batch, height, width, 1|3|4] tensor."""
    if bad_color is None:
        bad_color = constant([255, 0, 0, 255], dtype=D.uint8)
    return summary_writer_function(
        name, tensor, _write("WriteImageSummary", step, [tensor, bad_color],
                             {"max_images": max_images}), family=family)


def audio(name: str, tensor: Any, sample_rate: Any, max_outputs: int,
          family: Optional[str] = None, step: Any = None) -> Any:
    """Writes up to `max_outputs` WAV clips of a [batch, frames(, channels)] tensor."""
    return summary_writer_function(
        name, tensor, _write("WriteAudioSummary", step, [tensor, sample_rate],
                             {"max_outputs": max_outputs}), family=family)


def generic(name: str, tensor: Any, metadata: Any = None, family: Optional[str] = None,
            step: Any = None) -> Any:
    """Writes the tensor itself with `metadata` (a SummaryMetadata or its bytes)."""
    if metadata is None:
        metadata = constant("")
    elif hasattr(metadata, "SerializeToString"):
        metadata = constant(metadata.SerializeToString())
    return summary_writer_function(
        name, tensor, _write("WriteSummary", step, [tensor, metadata], tag_last=True),
        family=family)


def graph(param: Any, step: Any = None, name: Optional[str] = None) -> Any:
    """Writes a graph (a Graph, GraphDef or serialized GraphDef tensor) as the event's
    graph_def, whether or not summaries are recorded."""
    from tf1compat.ops.control_flow_ops import no_op
    if STATE.writer is None or STATE.writer._resource is None:
        return no_op()
    if hasattr(param, "as_graph_def"):
        param = param.as_graph_def()
    if hasattr(param, "SerializeToString"):
        param = constant(param.SerializeToString())
    with device("cpu:0"):
        return apply_op("WriteGraphSummary",
                        [STATE.writer._resource, _choose_step(step), param], name=name)


def flush(writer: Any = None, name: Optional[str] = None) -> Any:
    """An op flushing `writer` (default: the default writer; a no-op without one)."""
    from tf1compat.ops.control_flow_ops import no_op
    if writer is None:
        writer = STATE.writer
        if writer is None:
            return no_op()
    if isinstance(writer, SummaryWriter):
        writer = writer._resource
        if writer is None:
            return no_op()
    with device("cpu:0"):
        return apply_op("FlushSummaryWriter", [writer], name=name)


def all_summary_ops() -> Any:
    """The graph's summary ops (the "_SUMMARY_V2" collection); None when eager."""
    if _context.executing_eagerly():
        return None
    return get_collection(GraphKeys._SUMMARY_COLLECTION)


def summary_writer_initializer_op() -> Any:
    """The init ops of the graph's summary writers."""
    if _context.executing_eagerly():
        raise RuntimeError("tf.contrib.summary.summary_writer_initializer_op is only "
                           "supported in graph mode.")
    return get_collection(SUMMARY_WRITER_INIT_COLLECTION)


def eval_dir(model_dir: str, name: Optional[str] = None) -> str:
    """The directory of an Estimator's evaluation summaries."""
    return os.path.join(model_dir, "eval" if not name else "eval_" + name)
