"""`tf.compat.v2.summary`: TF 2's summary API as TF 1.15 shipped it beside the v1 one, for
graph-mode programs (tensorflow/tpu's efficientnet and mnasnet write their learning rate
from a TPUEstimator host_call this way):

    with tf2.summary.create_file_writer(model_dir).as_default():
        with tf2.summary.record_if(True):
            tf2.summary.scalar("learning_rate", lr, step=global_step)
            return tf.summary.all_v2_summary_ops()

The writers, recording condition and Write ops are tf.contrib.summary's (TF shares them
between the two APIs too): a writer's file is created when its init op runs (a
TPUEstimator host_call hook runs them), and each summary is an op in the "_SUMMARY_V2"
collection that writes when recording and returns whether it wrote. As in TF 2, recording
is on unless `record_if` says otherwise, a step must be given (`step=`,
`as_default(step=)` or `experimental.set_step`), and `scalar` writes TensorBoard's
"scalars" plugin tensor (a float32 scalar), not v1's simple_value.
"""

from __future__ import annotations

import contextlib
import re
import types
from typing import Any, Iterator, Optional, Tuple

from tf1compat.contrib.summary import summary_ops_v2 as _contrib
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import (GraphKeys, add_to_collection, apply_op,
                                       control_dependencies, device, get_name_scope,
                                       name_scope)
from tf1compat.framework.missing import UnimplementedAPIError
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.serialization.messages import SummaryMetadata
from tf1compat.summary.summary_ops import all_v2_summary_ops  # noqa: F401 - TF 2 has it too
from tf1compat.summary.summary_v2_ops import STATE

__all__ = ["SummaryWriter", "create_file_writer", "create_noop_writer", "record_if",
           "should_record_summaries", "write", "scalar", "text", "flush", "experimental"]

_INVALID_SCOPE_CHARACTERS = re.compile(r"[^-_/.A-Za-z0-9]")


class SummaryWriter(_contrib.SummaryWriter):
    """A TF 2 summary writer: `as_default(step=None)` also sets the default step."""

    def set_as_default(self, step: Any = None) -> None:
        """Makes this the thread's default writer (and `step` the default step)."""
        STATE.writer = self
        if step is not None:
            STATE.step = step

    @contextlib.contextmanager
    def as_default(self, step: Any = None) -> Iterator["SummaryWriter"]:
        """This writer (and `step`, when given) as the default inside the block; on exit
        a flush op is made, as TF does (run at once under eager execution)."""
        old_writer, old_step = STATE.writer, STATE.step
        STATE.writer = self
        if step is not None:
            STATE.step = step
        try:
            yield self
            self.flush()
        finally:
            STATE.writer = old_writer
            if step is not None:
                STATE.step = old_step


class _NoopSummaryWriter(SummaryWriter):
    """`create_noop_writer()`: a default writer whose summaries write nothing."""

    def __init__(self) -> None:
        super().__init__(None, None)

    def flush(self) -> Any:
        return None

    def close(self) -> Any:
        return None


def create_file_writer(logdir: Any, max_queue: Any = None, flush_millis: Any = None,
                       filename_suffix: Any = None, name: Optional[str] = None,
                       experimental_trackable: bool = False,
                       experimental_mesh: Any = None) -> SummaryWriter:
    """A writer of events files in `logdir` (max_queue 10, flush every 2 minutes, suffix
    ".v2" by default); its init op joins the graph's summary-writer initializers."""
    if logdir is None:
        raise ValueError("Argument `logdir` cannot be None")
    if experimental_mesh is not None:
        raise NotImplementedError("tf.compat.v2.summary.create_file_writer("
                                  "experimental_mesh=): DTensor meshes are not provided")
    with name_scope(name, "create_file_writer"):
        contrib_writer = _contrib.create_file_writer(logdir, max_queue, flush_millis,
                                                     filename_suffix, name)
    return SummaryWriter(contrib_writer._resource, contrib_writer._init_op_fn)


def create_noop_writer() -> SummaryWriter:
    """A writer that writes nothing."""
    return _NoopSummaryWriter()


def record_if(condition: Any) -> Any:
    """Summaries are recorded inside the block when `condition` (a bool, a boolean tensor
    or a callable giving one) holds."""
    return _contrib._record_summaries(condition)


def should_record_summaries() -> Tensor:
    """Whether summaries are recorded now: False without a default writer, else the
    recording condition (True when none is set)."""
    from tf1compat.framework.constant_value import constant_value
    from tf1compat.ops.math_ops import logical_and
    if STATE.writer is None:
        return constant(False)
    condition = STATE.is_recording
    if not callable(condition):
        static = constant_value(condition) if isinstance(condition, Tensor) else condition
        if static is not None and not static:
            return constant(False)
    if callable(condition):
        condition = condition()
    if condition is None:
        condition = True
    # TF ands in the distribution strategy's per-replica condition (True here).
    return logical_and(True, condition)


def get_step() -> Any:
    """The default step (`set_step`, `as_default(step=)`), or None."""
    return STATE.step


def set_step(step: Any) -> None:
    """Sets the default step of the summary functions."""
    STATE.step = step


@contextlib.contextmanager
def summary_scope(name: Optional[str], default_name: str = "summary",
                  values: Any = None) -> Iterator[Tuple[str, str]]:
    """A name scope for a summary op, yielding `(tag, scope)`: the tag is `name` under the
    enclosing name scopes, not uniquified and with its characters kept."""
    name = name or default_name
    current = get_name_scope()
    tag = current + "/" + name if current else name
    name = _INVALID_SCOPE_CHARACTERS.sub("", name) or None
    with name_scope(name, default_name, values) as scope:
        yield tag, scope


def write(tag: Any, tensor: Any, step: Any = None, metadata: Any = None,
          name: Optional[str] = None) -> Any:
    """Writes `tensor` (or what a callable `tensor` returns) under `tag` through the
    default writer when recording; returns whether it wrote (False without a writer)."""
    from tf1compat.ops.array_ops import identity
    from tf1compat.ops.cond import smart_cond
    with name_scope(name, "write_summary") as scope:
        if STATE.writer is None:
            return constant(False)
        if step is None:
            step = get_step()
        if metadata is None:
            serialized = b""
        elif hasattr(metadata, "SerializeToString"):
            serialized = metadata.SerializeToString()
        else:
            serialized = metadata

        def record() -> Tensor:
            if step is None:
                raise ValueError("No step set. Please specify one either through the "
                                 "`step` argument or through "
                                 "tf.summary.experimental.set_step()")
            with device("cpu:0"):
                value = tensor() if callable(tensor) else identity(tensor)
                op = apply_op("WriteSummary", [STATE.writer._resource, step, value, tag,
                                               serialized], name=scope)
                with control_dependencies([op]):
                    return constant(True)

        def nothing() -> Tensor:
            return constant(False)

        op = smart_cond(should_record_summaries(), record, nothing, name="summary_cond")
        if not _executing_eagerly():
            add_to_collection(GraphKeys._SUMMARY_COLLECTION, op)
        return op


def _executing_eagerly() -> bool:
    from tf1compat.framework import context
    return context.executing_eagerly()


def _plugin_metadata(plugin_name: str, description: Optional[str]) -> SummaryMetadata:
    # TensorBoard's scalar/text plugin data is a version-0 message: empty content.
    return SummaryMetadata(summary_description=description or "",
                           plugin_data=SummaryMetadata.PluginData(plugin_name=plugin_name))


def scalar(name: str, data: Any, step: Any = None, description: Optional[str] = None) -> Any:
    """Writes a scalar as TensorBoard's "scalars" plugin does: a float32 scalar tensor."""
    from tf1compat.ops.check_ops import assert_scalar
    from tf1compat.ops.math_ops import cast
    with summary_scope(name, "scalar_summary", values=[data, step]) as (tag, _):
        assert_scalar(data)
        return write(tag=tag, tensor=cast(data, D.float32), step=step,
                     metadata=_plugin_metadata("scalars", description))


def text(name: str, data: Any, step: Any = None, description: Optional[str] = None) -> Any:
    """Writes a string tensor as TensorBoard's "text" plugin does."""
    with summary_scope(name, "text_summary", values=[data, step]) as (tag, _):
        return write(tag=tag, tensor=convert_to_tensor(data, D.string), step=step,
                     metadata=_plugin_metadata("text", description))


def flush(writer: Any = None, name: Optional[str] = None) -> Any:
    """An op flushing `writer` (default: the default writer; a no-op without one)."""
    return _contrib.flush(writer=writer, name=name)


experimental = types.ModuleType("tf1compat.api.summary_v2.experimental",
                                "tf.compat.v2.summary.experimental")
experimental.get_step = get_step
experimental.set_step = set_step
experimental.summary_scope = summary_scope

_NOT_PROVIDED = {"histogram", "image", "audio", "graph", "trace_on", "trace_off",
                 "trace_export", "import_event"}


def __getattr__(name: str) -> Any:  # noqa: N807 - module protocol
    if name in _NOT_PROVIDED:
        raise UnimplementedAPIError(
            f"tf.compat.v2.summary.{name} is not implemented by tf1compat: of TF 2's "
            "summary API it provides scalar, text and write (use tf.contrib.summary."
            f"{name} for TF 1.x's writer-based {name} summaries where it has one).")
    raise AttributeError(f"module 'tf.compat.v2.summary' has no attribute {name!r}")
