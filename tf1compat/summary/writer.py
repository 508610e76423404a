"""`tf.summary.FileWriter`: TensorBoard event files (TFRecord-framed `Event` protos).

Each record is a serialized `Event` in TFRecord framing (serialization/tfrecord.py), as
TF's RecordWriter writes; the first event carries `file_version: "brain.Event:2"`. Files are
named `events.out.tfevents.<seconds>.<hostname><suffix>` in the log directory.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from typing import Any, Dict, Optional

import numpy as np

from tf1compat.framework.graph import get_default_graph
from tf1compat.framework.hooks import SERIALIZED_FORMS
from tf1compat.serialization.messages import Event, SessionLog, Summary, TaggedRunMetadata
from tf1compat.serialization.tfrecord import encode_record

__all__ = ["FileWriter", "FileWriterCache", "EventFileWriter"]


class EventFileWriter:
    """Appends serialized events to one events file (flushed on demand or on close)."""

    def __init__(self, logdir: str, max_queue: int = 10, flush_secs: float = 120,
                 filename_suffix: Optional[str] = None):
        self._logdir = str(logdir)
        if self._logdir:    # "" writes into the current directory, as TF's
            os.makedirs(self._logdir, exist_ok=True)
        name = f"events.out.tfevents.{int(time.time()):010d}.{socket.gethostname()}"
        self._path = os.path.join(self._logdir, name + (filename_suffix or ""))
        self._file = open(self._path, "ab")  # noqa: SIM115 - closed in close()
        self._lock = threading.Lock()
        self._pending = 0
        self._max_queue = max_queue
        self._flush_secs = flush_secs
        self._last_flush = time.time()
        self._closed = False
        self.add_event(Event(wall_time=time.time(), file_version="brain.Event:2"))
        self.flush()

    def get_logdir(self) -> str:
        return self._logdir

    def add_event(self, event: Event) -> None:
        if self._closed:
            return
        with self._lock:
            self._file.write(encode_record(event.SerializeToString()))
            self._pending += 1
            if self._pending >= self._max_queue or \
                    time.time() - self._last_flush >= self._flush_secs:
                self._flush_locked()

    def _flush_locked(self) -> None:
        self._file.flush()
        self._pending = 0
        self._last_flush = time.time()

    def flush(self) -> None:
        if not self._closed:
            with self._lock:
                self._flush_locked()

    def close(self) -> None:
        if not self._closed:
            self.flush()
            self._file.close()
            self._closed = True

    def reopen(self) -> None:
        if self._closed:
            self._file = open(self._path, "ab")  # noqa: SIM115
            self._closed = False


class FileWriter:
    """`tf.summary.FileWriter(logdir, graph=None, max_queue=10, flush_secs=120, ...)`."""

    def __init__(self, logdir: str, graph: Any = None, max_queue: int = 10,
                 flush_secs: float = 120, graph_def: Any = None,
                 filename_suffix: Optional[str] = None, session: Any = None):
        if session is not None:
            raise NotImplementedError("FileWriter(session=...) (summary writing through "
                                      "TF2 summary ops) is not supported by tf1compat")
        self.event_writer = EventFileWriter(logdir, max_queue, flush_secs, filename_suffix)
        self._seen_summary_tags: set = set()
        self._session_run_tags: set = set()
        if graph is not None or graph_def is not None:
            self.add_graph(graph, graph_def=graph_def)
            # As TF, a graph given at construction is also written as a MetaGraphDef
            # event (the graph plus the default graph's collections).
            self._add_construction_meta_graph(graph, graph_def)

    def get_logdir(self) -> str:
        return self.event_writer.get_logdir()

    def _add_event(self, event: Event, step: Optional[int]) -> None:
        event.wall_time = time.time()
        if step is not None:
            event.step = int(step)
        self.event_writer.add_event(event)

    def add_summary(self, summary: Any, global_step: Optional[int] = None) -> None:
        """Writes a Summary (a `tf.Summary` or the serialized bytes a summary op returns)."""
        if isinstance(summary, np.ndarray):
            summary = summary[()]
        if isinstance(summary, (bytes, bytearray)):
            summary = Summary.FromString(bytes(summary))
        if not isinstance(summary, Summary):
            raise TypeError(f"add_summary expects a Summary or its serialized bytes, got "
                            f"{type(summary).__name__}")
        # TF writes each tag's SummaryMetadata only the first time it sees the tag (every
        # value counts as seen: a message is always true, so TF's emptiness test passes).
        for value in summary.value:
            if value.tag in self._seen_summary_tags:
                value.ClearField("metadata")
            else:
                self._seen_summary_tags.add(value.tag)
        self._add_event(Event(summary=summary), global_step)

    def add_session_log(self, session_log: SessionLog, global_step: Optional[int] = None
                        ) -> None:
        self._add_event(Event(session_log=session_log), global_step)

    def add_event(self, event: Event) -> None:
        self.event_writer.add_event(event)

    def add_graph(self, graph: Any, global_step: Optional[int] = None,
                  graph_def: Any = None) -> None:
        """Writes the graph (a GraphDef) for TensorBoard's graph view."""
        proto = SERIALIZED_FORMS["graph_def_for_events"](graph, graph_def)
        self._add_event(Event(graph_def=proto.SerializeToString()), global_step)

    def _add_construction_meta_graph(self, graph: Any, graph_def: Any) -> None:
        meta = SERIALIZED_FORMS["meta_graph_for_events"](graph, graph_def)
        if meta is not None:
            self.add_meta_graph(meta)

    def add_meta_graph(self, meta_graph_def: Any, global_step: Optional[int] = None) -> None:
        serialize = getattr(meta_graph_def, "SerializeToString", None)
        if serialize is not None:
            self._add_event(Event(meta_graph_def=serialize()), global_step)

    def add_run_metadata(self, run_metadata: Any, tag: str, global_step: Optional[int] = None
                         ) -> None:
        """Writes a tagged RunMetadata event (the serialized proto: a traced run's
        step_stats included), as TF."""
        if tag in self._session_run_tags:
            raise ValueError("The provided tag was already used for this event type")
        self._session_run_tags.add(tag)
        tagged = TaggedRunMetadata(tag=tag, run_metadata=run_metadata.SerializeToString())
        self._add_event(Event(tagged_run_metadata=tagged), global_step)

    def flush(self) -> None:
        self.event_writer.flush()

    def close(self) -> None:
        self.event_writer.close()

    def reopen(self) -> None:
        self.event_writer.reopen()

    def __enter__(self) -> "FileWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class FileWriterCache:
    """`tf.summary.FileWriterCache`: one FileWriter per log directory."""

    _cache: Dict[str, FileWriter] = {}
    _lock = threading.Lock()

    @staticmethod
    def get(logdir: str) -> FileWriter:
        """The directory's writer; a new one writes the default graph (and its meta graph)
        first, as TF's does, so a MonitoredTrainingSession's event file holds the graph
        twice: once from here, once from the CheckpointSaverHook."""
        with FileWriterCache._lock:
            if logdir not in FileWriterCache._cache:
                FileWriterCache._cache[logdir] = FileWriter(logdir, graph=get_default_graph())
            return FileWriterCache._cache[logdir]

    @staticmethod
    def clear() -> None:
        with FileWriterCache._lock:
            for writer in FileWriterCache._cache.values():
                writer.close()
            FileWriterCache._cache.clear()
