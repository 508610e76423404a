"""`tf.train.QueueRunner`, `add_queue_runner` and `start_queue_runners`.

A QueueRunner holds a queue's enqueue ops; `create_threads` starts one thread per enqueue
op, each running its op over and over on one session (the session is shared between the
threads, which tf1compat sessions allow: runtime/session_state.py). A thread ends when
its op raises one of the "queue closed" errors (by default OutOfRangeError: an input
producer ran out of epochs); the last thread to end closes the queue, so its consumers
drain what is left and then get OutOfRangeError. Any other error is reported to the
Coordinator (which stops everyone), or logged and kept in `exceptions_raised`.

With a Coordinator, one more thread waits for the stop request and then runs the
queue's cancel op (close with `cancel_pending_enqueues`), so threads blocked on a full
queue wake up and `coord.join()` returns promptly.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, Callable, List, Optional, Sequence

from tf1compat.util import tf_logging
from tf1compat.framework import errors
from tf1compat.framework.graph import GraphKeys, add_to_collection, get_default_graph
from tf1compat.framework.graph_scopes import prepend_name_scope, strip_name_scope
from tf1compat.serialization.messages import QueueRunnerDef

__all__ = ["QueueRunner", "add_queue_runner", "start_queue_runners"]


class QueueRunner:
    """Runs a queue's enqueue ops in threads (`tf.train.QueueRunner`)."""

    def __init__(self, queue: Any = None, enqueue_ops: Optional[Sequence[Any]] = None,
                 close_op: Any = None, cancel_op: Any = None,
                 queue_closed_exception_types: Optional[tuple] = None,
                 queue_runner_def: Optional[QueueRunnerDef] = None,
                 import_scope: Optional[str] = None):
        from tf1compat.framework import context
        if context.executing_eagerly():
            raise RuntimeError("QueueRunners are not supported when eager execution is "
                               "enabled. Instead, please use tf.data to get data into your "
                               "model.")
        if queue_runner_def:
            if queue or enqueue_ops:
                raise ValueError("queue_runner_def and queue are mutually exclusive.")
            self._init_from_proto(queue_runner_def, import_scope)
        else:
            self._init_from_args(queue, enqueue_ops, close_op, cancel_op,
                                 queue_closed_exception_types)
        self._lock = threading.Lock()
        # Threads still running per session: the last one to end closes the queue.
        self._runs_per_session: "weakref.WeakKeyDictionary[Any, int]" = \
            weakref.WeakKeyDictionary()
        self._exceptions_raised: List[BaseException] = []

    def _init_from_args(self, queue: Any, enqueue_ops: Optional[Sequence[Any]], close_op: Any,
                        cancel_op: Any, closed_types: Optional[tuple]) -> None:
        if not queue or not enqueue_ops:
            raise ValueError("Must provide queue and enqueue_ops.")
        self._queue = queue
        self._enqueue_ops = list(enqueue_ops)
        if closed_types is not None and (
                not isinstance(closed_types, tuple) or not closed_types or
                not all(isinstance(t, type) and issubclass(t, errors.OpError)
                        for t in closed_types)):
            raise TypeError("queue_closed_exception_types, when provided, must be a tuple of "
                            f"tf.error types, but saw: {closed_types}")
        self._close_op = close_op if close_op is not None else queue.close()
        self._cancel_op = cancel_op if cancel_op is not None else \
            queue.close(cancel_pending_enqueues=True)
        self._queue_closed_exception_types = tuple(closed_types or (errors.OutOfRangeError,))

    def _init_from_proto(self, proto: QueueRunnerDef, import_scope: Optional[str]) -> None:
        graph = get_default_graph()

        def element(name: str) -> Any:
            return graph.as_graph_element(prepend_name_scope(name, import_scope))
        self._queue = element(proto.queue_name)
        self._enqueue_ops = [element(name) for name in proto.enqueue_op_name]
        self._close_op = element(proto.close_op_name)
        self._cancel_op = element(proto.cancel_op_name)
        self._queue_closed_exception_types = tuple(
            errors.exception_type_from_error_code(code)
            for code in proto.queue_closed_exception_types) or (errors.OutOfRangeError,)

    @property
    def queue(self) -> Any:
        return self._queue

    @property
    def enqueue_ops(self) -> List[Any]:
        return self._enqueue_ops

    @property
    def close_op(self) -> Any:
        return self._close_op

    @property
    def cancel_op(self) -> Any:
        return self._cancel_op

    @property
    def queue_closed_exception_types(self) -> tuple:
        return self._queue_closed_exception_types

    @property
    def exceptions_raised(self) -> List[BaseException]:
        """Errors the threads hit when no Coordinator was given."""
        return self._exceptions_raised

    @property
    def name(self) -> str:
        """The queue's name."""
        return self._queue.name

    # -- threads -------------------------------------------------------------------------------
    def _run(self, sess: Any, enqueue_op: Any, coord: Any = None) -> None:
        """One thread: runs `enqueue_op` until the queue is closed or the coordinator stops."""
        decremented = False
        try:
            enqueue = self._enqueue_callable(sess, enqueue_op)
            while True:
                if coord is not None and coord.should_stop():
                    break
                try:
                    enqueue()
                except self._queue_closed_exception_types:
                    # This thread is done; the last one closes the queue.
                    with self._lock:
                        self._runs_per_session[sess] -= 1
                        decremented = True
                        last = self._runs_per_session[sess] == 0
                    if last:
                        try:
                            sess.run(self._close_op)
                        except Exception as e:  # noqa: BLE001 - as TF: logged and ignored
                            tf_logging.vlog(1, "Ignored exception: %s", str(e))
                    return
        except Exception as e:  # noqa: BLE001 - reported to the coordinator or recorded
            if coord is not None:
                coord.request_stop(e)
            else:
                tf_logging.error("Exception in QueueRunner: %s", str(e))
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            if not decremented:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _enqueue_callable(self, sess: Any, enqueue_op: Any) -> Callable[[], Any]:
        """What one thread calls per enqueue (subclasses feeding placeholders override it)."""
        return sess.make_callable(enqueue_op)

    def _close_on_stop(self, sess: Any, cancel_op: Any, coord: Any) -> None:
        """Waits for the stop request, then cancels the enqueues blocked on the queue."""
        coord.wait_for_stop()
        try:
            sess.run(cancel_op)
        except Exception as e:  # noqa: BLE001 - the session may be closing already
            tf_logging.vlog(1, "Ignored exception: %s", str(e))

    def create_threads(self, sess: Any, coord: Any = None, daemon: bool = False,
                       start: bool = False) -> List[threading.Thread]:
        """One thread per enqueue op (plus the cancel-on-stop thread with a Coordinator);
        none if this runner's threads are already running for `sess`."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run, args=(sess, op, coord),
                                    name=f"QueueRunnerThread-{self.name}-{op.name}")
                   for op in self._enqueue_ops]
        if coord is not None:
            threads.append(threading.Thread(
                target=self._close_on_stop, args=(sess, self._cancel_op, coord),
                name=f"QueueRunnerThread-{self.name}-close_on_stop"))
        for t in threads:
            if coord is not None:
                coord.register_thread(t)
            if daemon:
                t.daemon = True
            if start:
                t.start()
        return threads

    # -- MetaGraphDef ------------------------------------------------------------------------------
    def to_proto(self, export_scope: Optional[str] = None) -> Optional[QueueRunnerDef]:
        """The QueueRunnerDef (op names relative to `export_scope`), or None when the queue
        is outside it."""
        if export_scope is not None and not self.queue.name.startswith(export_scope):
            return None
        proto = QueueRunnerDef()
        proto.queue_name = strip_name_scope(self.queue.name, export_scope)
        proto.enqueue_op_name.extend(strip_name_scope(op.name, export_scope)
                                     for op in self.enqueue_ops)
        proto.close_op_name = strip_name_scope(self.close_op.name, export_scope)
        proto.cancel_op_name = strip_name_scope(self.cancel_op.name, export_scope)
        proto.queue_closed_exception_types.extend(
            errors.error_code_from_exception_type(cls)
            for cls in self._queue_closed_exception_types)
        return proto

    @staticmethod
    def from_proto(queue_runner_def: QueueRunnerDef,
                   import_scope: Optional[str] = None) -> "QueueRunner":
        return QueueRunner(queue_runner_def=queue_runner_def, import_scope=import_scope)


def add_queue_runner(qr: QueueRunner, collection: str = GraphKeys.QUEUE_RUNNERS) -> None:
    """Adds `qr` to the graph's queue runners (started by `start_queue_runners`)."""
    add_to_collection(collection, qr)


def start_queue_runners(sess: Any = None, coord: Any = None, daemon: bool = True,
                        start: bool = True,
                        collection: str = GraphKeys.QUEUE_RUNNERS) -> List[threading.Thread]:
    """Starts the threads of every QueueRunner in `collection` of the session's graph."""
    from tf1compat.framework import context
    from tf1compat.runtime.session import BaseSession
    if context.executing_eagerly():
        raise RuntimeError("Queues are not compatible with eager execution.")
    if sess is None:
        from tf1compat.framework.tensor import get_default_session
        sess = get_default_session()
        if not sess:
            raise ValueError("Cannot start queue runners: No default session is registered. "
                             "Use `with sess.as_default()` or pass an explicit session to "
                             "tf.start_queue_runners(sess=sess)")
    if not isinstance(sess, BaseSession):
        # A MonitoredSession starts its queue runners itself.
        if type(sess).__name__ in ("MonitoredSession", "SingularMonitoredSession"):
            return []
        raise TypeError(f"sess must be a `tf.Session` object. Given class: {sess.__class__}")
    if not get_default_graph().get_collection(collection):
        tf_logging.warning("`tf.train.start_queue_runners()` was called when no queue runners "
                           "were defined. You can safely remove the call to this deprecated "
                           "function.")
    with sess.graph.as_default():
        threads: List[threading.Thread] = []
        for runner in sess.graph.get_collection(collection):
            threads.extend(runner.create_threads(sess, coord=coord, daemon=daemon,
                                                 start=start))
    return threads

