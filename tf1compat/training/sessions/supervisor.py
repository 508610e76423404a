"""`tf.train.Supervisor`: TF 1.x's deprecated training-loop helper, deterministically.

A Supervisor takes (or builds and adds to the graph's collections, as TF) the init op,
the readiness checks, the local init op, a Saver, the merged summary op and the global
step, creates a summary writer for `logdir`, then finalizes the graph.
`managed_session()` / `prepare_or_wait_for_session()` restore the latest checkpoint of
`logdir` (or run the init op), write `graph.pbtxt` and the graph events, and start the
"standard services".

The services differ from TF in *when* they run, never in what they write. TF runs them
in background threads whose first tick is immediate and whose later ticks come every
`save_summaries_secs` / `save_model_secs`, concurrently with the training loop. Here no
thread is started for them:

* each service runs once, synchronously, when the services start (TF's first tick) --
  in a graph with queue runners once those are started, since a summary op may read
  the input queues (TF's threads would wait on them beside the training loop):
  the summary op (with the global step), the `<global_step>/sec` step-rate summary
  (0.0 then, as TF's first tick reports), and a checkpoint `<logdir>/model.ckpt-<step>`
  with a CHECKPOINT session log;
* later ticks run in the caller's thread, inside `should_stop()`, once their interval
  has elapsed -- so they never race a `sess.run` of the training loop;
* nothing extra runs at `stop()` (TF's threads do not save on exit either): `stop()`
  writes the STOP session log and closes the writer.

An error raised by a service (say a summary op that needs a fed placeholder) stops the
coordinator and is re-raised when the session closes, as TF's threads do. `loop()`
(user code on a timer) does start a real `tf.train.LooperThread`, as TF.
"""

from __future__ import annotations

import contextlib
import os
import time
from typing import Any, Callable, Iterator, List, Optional

from tf1compat.util import tf_logging
from tf1compat.framework import context, dtypes
from tf1compat.framework.graph import GraphKeys, get_default_graph
from tf1compat.serialization.messages import SessionLog, Summary
from tf1compat.training import training_util
from tf1compat.training.sessions.coordinator import Coordinator, LooperThread
from tf1compat.training.sessions.session_manager import SessionManager

__all__ = ["Supervisor"]


class _Service:
    """One periodic service: `tick()` every `interval` seconds, the first one at start."""

    def __init__(self, interval: float, tick: Callable[[], None]):
        self.interval = interval
        self.tick = tick
        self.next_time = 0.0

    def run_if_due(self, now: float) -> None:
        if now >= self.next_time:
            self.next_time = now + self.interval
            self.tick()


class Supervisor:
    """`tf.train.Supervisor`: initialization/recovery, checkpoints and summaries around a
    training session (see the module docstring for when the services run)."""

    # TF's sentinel value (a class attribute equal to 0, compared by identity).
    USE_DEFAULT = 0

    def __init__(self, graph: Any = None, ready_op: Any = USE_DEFAULT,
                 ready_for_local_init_op: Any = USE_DEFAULT, is_chief: bool = True,
                 init_op: Any = USE_DEFAULT, init_feed_dict: Any = None,
                 local_init_op: Any = USE_DEFAULT, logdir: Optional[str] = None,
                 summary_op: Any = USE_DEFAULT, saver: Any = USE_DEFAULT,
                 global_step: Any = USE_DEFAULT, save_summaries_secs: float = 120,
                 save_model_secs: float = 600, recovery_wait_secs: float = 30,
                 stop_grace_secs: float = 120, checkpoint_basename: str = "model.ckpt",
                 session_manager: Any = None, summary_writer: Any = USE_DEFAULT,
                 init_fn: Any = None, local_init_run_options: Any = None):
        if context.executing_eagerly():
            raise RuntimeError("Supervisors are incompatible with eager execution.")
        graph = get_default_graph() if graph is None else graph
        with graph.as_default():
            self._init_ready_op(ready_op, ready_for_local_init_op)
            self._init_init_op(init_op, init_feed_dict)
            self._init_local_init_op(local_init_op)
            self._init_saver(saver)
            self._init_summary_op(summary_op)
            self._init_global_step(global_step)
        self._graph = graph
        self._is_chief = is_chief
        self._coord = Coordinator()
        self._recovery_wait_secs = recovery_wait_secs
        self._stop_grace_secs = stop_grace_secs
        self._init_fn = init_fn
        self._local_init_run_options = local_init_run_options
        self._logdir: Optional[str] = None
        self._save_summaries_secs: Optional[float] = None
        self._save_model_secs: Optional[float] = None
        self._save_path: Optional[str] = None
        self._summary_writer: Any = None
        self._graph_added_to_summary = False
        self._services: List[_Service] = []
        self._queue_runners_started = False
        if is_chief:
            self._logdir = logdir
            self._save_summaries_secs = save_summaries_secs
            self._save_model_secs = save_model_secs
            if logdir:
                self._save_path = os.path.join(logdir, checkpoint_basename)
            if summary_writer is Supervisor.USE_DEFAULT:
                if logdir:
                    from tf1compat.summary.writer import FileWriter
                    self._summary_writer = FileWriter(logdir)
            else:
                self._summary_writer = summary_writer
        self._session_manager = session_manager if session_manager is not None else \
            SessionManager(local_init_op=self._local_init_op, ready_op=self._ready_op,
                           ready_for_local_init_op=self._ready_for_local_init_op,
                           graph=graph, recovery_wait_secs=recovery_wait_secs,
                           local_init_run_options=local_init_run_options)
        self._verify_setup()
        graph.finalize()

    # -- defaults taken from (or added to) the graph's collections, as TF -----------------

    @staticmethod
    def _first_in_collection(key: str) -> Any:
        items = get_default_graph().get_collection(key)
        if len(items) > 1:
            tf_logging.info("Found %d %s operations. Returning the first one.", len(items), key)
        return items[0] if items else None

    def _init_ready_op(self, ready_op: Any, ready_for_local_init_op: Any) -> None:
        from tf1compat.variables.collections import report_uninitialized_variables
        if ready_op is Supervisor.USE_DEFAULT:
            ready_op = self._first_in_collection(GraphKeys.READY_OP)
            if ready_op is None:
                ready_op = report_uninitialized_variables()
                get_default_graph().add_to_collection(GraphKeys.READY_OP, ready_op)
        self._ready_op = ready_op
        if ready_for_local_init_op is Supervisor.USE_DEFAULT:
            ready_for_local_init_op = self._first_in_collection(
                GraphKeys.READY_FOR_LOCAL_INIT_OP)
        self._ready_for_local_init_op = ready_for_local_init_op

    def _init_init_op(self, init_op: Any, init_feed_dict: Any) -> None:
        from tf1compat.variables.collections import global_variables_initializer
        if init_op is Supervisor.USE_DEFAULT:
            init_op = self._first_in_collection(GraphKeys.INIT_OP)
            if init_op is None:
                init_op = global_variables_initializer()
                get_default_graph().add_to_collection(GraphKeys.INIT_OP, init_op)
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict

    def _init_local_init_op(self, local_init_op: Any) -> None:
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.variables.collections import (local_variables_initializer,
                                                     tables_initializer)
        if local_init_op is Supervisor.USE_DEFAULT:
            local_init_op = self._first_in_collection(GraphKeys.LOCAL_INIT_OP)
            if local_init_op is None:
                local_init_op = group(local_variables_initializer(), tables_initializer())
                get_default_graph().add_to_collection(GraphKeys.LOCAL_INIT_OP, local_init_op)
        self._local_init_op = local_init_op

    def _init_saver(self, saver: Any) -> None:
        from tf1compat.training.saving.saver import Saver
        from tf1compat.variables.collections import global_variables
        if saver is Supervisor.USE_DEFAULT:
            saver = self._first_in_collection(GraphKeys.SAVERS)
            if saver is None and global_variables():
                saver = Saver()
                get_default_graph().add_to_collection(GraphKeys.SAVERS, saver)
        self._saver = saver

    def _init_summary_op(self, summary_op: Any) -> None:
        from tf1compat.summary.summary_ops import merge_all
        if summary_op is Supervisor.USE_DEFAULT:
            summary_op = self._first_in_collection(GraphKeys.SUMMARY_OP)
            if summary_op is None:
                summary_op = merge_all()
                if summary_op is not None:
                    get_default_graph().add_to_collection(GraphKeys.SUMMARY_OP, summary_op)
        self._summary_op = summary_op

    def _init_global_step(self, global_step: Any) -> None:
        if global_step is Supervisor.USE_DEFAULT:
            global_step = self._first_in_collection(GraphKeys.GLOBAL_STEP)
            if global_step is None:
                global_step = self._default_global_step_tensor()
                if global_step is not None:
                    get_default_graph().add_to_collection(GraphKeys.GLOBAL_STEP, global_step)
        self._global_step = global_step

    @staticmethod
    def _default_global_step_tensor() -> Any:
        try:
            step = get_default_graph().get_tensor_by_name("global_step:0")
        except KeyError:
            return None
        if step.dtype.base_dtype in (dtypes.int32, dtypes.int64):
            return step
        tf_logging.warning("Found 'global_step' is not an int type: %s", step.dtype)
        return None

    def _verify_setup(self) -> None:
        if self._is_chief:
            return
        for op in self._graph.get_operations():
            if op.type in ("Variable", "VariableV2") and not op.device:
                raise ValueError("When using replicas, all Variables must have their device "
                                 f"set: {op}")

    # -- properties ---------------------------------------------------------------------

    @property
    def is_chief(self) -> bool:
        return self._is_chief

    @property
    def session_manager(self) -> Any:
        return self._session_manager

    @property
    def coord(self) -> Coordinator:
        return self._coord

    @property
    def init_op(self) -> Any:
        return self._init_op

    @property
    def init_feed_dict(self) -> Any:
        return self._init_feed_dict

    @property
    def ready_op(self) -> Any:
        return self._ready_op

    @property
    def ready_for_local_init_op(self) -> Any:
        return self._ready_for_local_init_op

    @property
    def summary_writer(self) -> Any:
        return self._summary_writer

    @property
    def summary_op(self) -> Any:
        return self._summary_op

    @property
    def save_summaries_secs(self) -> Optional[float]:
        return self._save_summaries_secs

    @property
    def global_step(self) -> Any:
        return self._global_step

    @property
    def saver(self) -> Any:
        return self._saver

    @property
    def save_model_secs(self) -> Optional[float]:
        return self._save_model_secs

    @property
    def save_path(self) -> Optional[str]:
        return self._save_path

    # -- sessions -----------------------------------------------------------------------

    def _write_graph(self) -> None:
        """`<logdir>/graph.pbtxt` and, once per writer, the graph and meta-graph events."""
        from tf1compat.graphdef import graph_io
        from tf1compat.training.saving.graph_util import write_graph
        from tf1compat.training.saving.meta_graph import export_meta_graph
        graph_def = graph_io.graph_def_for_events(self._graph)
        if self._logdir:
            write_graph(graph_def, self._logdir, "graph.pbtxt")
        if self._summary_writer and not self._graph_added_to_summary:
            self._summary_writer.add_graph(self._graph)
            try:
                with self._graph.as_default():
                    saver_def = self._saver.saver_def if self._saver else None
                    meta = export_meta_graph(graph_def=graph_def, saver_def=saver_def,
                                             graph=self._graph)
                self._summary_writer.add_meta_graph(meta)
            except graph_io.UnserializableGraphError:
                pass  # a collection item cannot be written; the graph event suffices
            self._graph_added_to_summary = True

    def start_standard_services(self, sess: Any) -> Optional[List[Any]]:
        """Writes the START session log and runs the summary, step-rate and checkpoint
        services once (later runs happen in `should_stop()`); returns [] (no threads), or
        None without a logdir, as TF."""
        if not self._is_chief:
            raise RuntimeError("Only chief supervisor can start standard services. Because "
                               "only chief supervisors can write events.")
        if not self._logdir:
            tf_logging.warning("Standard services need a 'logdir' passed to the "
                               "SessionManager")
            return None
        if self._global_step is not None and self._summary_writer:
            step = training_util.global_step(sess, self._global_step)
            self._summary_writer.add_session_log(SessionLog(status=SessionLog.START), step)
        self._services = []
        if self._save_summaries_secs and self._summary_writer:
            if self._summary_op is not None:
                self._services.append(_Service(self._save_summaries_secs,
                                               lambda: self._summary_tick(sess)))
            if self._global_step is not None:
                self._services.append(self._step_counter_service(sess))
        if self._saver and self._save_model_secs:
            self._services.append(_Service(self._save_model_secs,
                                           lambda: self._checkpoint_tick(sess)))
        # A summary op may read from the graph's input queues: until their runners run,
        # the first tick waits for start_queue_runners (TF's service threads would block
        # beside the caller instead of in it).
        if self._queue_runners_started or not self._graph.get_collection(
                GraphKeys.QUEUE_RUNNERS):
            self._run_due_services()
        return []

    def _summary_tick(self, sess: Any) -> None:
        if self._global_step is not None:
            summary, step = sess.run([self._summary_op, self._global_step])
        else:
            summary, step = sess.run(self._summary_op), None
        if self._summary_writer:
            tf_logging.info("Recording summary at step %s.", step)
            self._summary_writer.add_summary(summary, step)

    def _step_counter_service(self, sess: Any) -> _Service:
        tag = f"{self._global_step.op.name}/sec"
        last = {"time": time.time(), "step": training_util.global_step(sess, self._global_step)}

        def tick() -> None:
            step = training_util.global_step(sess, self._global_step)
            now = time.time()
            elapsed = now - last["time"]
            rate = (step - last["step"]) / elapsed if elapsed > 0.0 else float("inf")
            last["time"], last["step"] = now, step
            if self._summary_writer:
                self._summary_writer.add_summary(
                    Summary(value=[Summary.Value(tag=tag, simple_value=rate)]), step)
        return _Service(self._save_summaries_secs or 0, tick)

    def _checkpoint_tick(self, sess: Any) -> None:
        tf_logging.info("Saving checkpoint to path %s", self._save_path)
        self._saver.save(sess, self._save_path, global_step=self._global_step)
        if self._summary_writer and self._global_step is not None:
            step = training_util.global_step(sess, self._global_step)
            self._summary_writer.add_session_log(
                SessionLog(status=SessionLog.CHECKPOINT, checkpoint_path=self._save_path),
                step)

    def _run_due_services(self) -> None:
        if not self._services or self._coord.should_stop():
            return
        now = time.time()
        with self._coord.stop_on_exception():
            for service in self._services:
                service.run_if_due(now)

    def prepare_or_wait_for_session(self, master: str = "", config: Any = None,
                                    wait_for_checkpoint: bool = False,
                                    max_wait_secs: float = 7200,
                                    start_standard_services: bool = True) -> Any:
        """A session restored from `logdir`'s latest checkpoint or initialized (chief), or
        one waiting for the model to be ready (non-chief); starts the services."""
        self._coord.clear_stop()
        if self._summary_writer:
            self._summary_writer.reopen()
        if self._is_chief:
            sess = self._session_manager.prepare_session(
                master, init_op=self.init_op, saver=self.saver, checkpoint_dir=self._logdir,
                wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
                config=config, init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
            self._write_graph()
            if start_standard_services:
                tf_logging.info("Starting standard services.")
                self.start_standard_services(sess)
        else:
            sess = self._session_manager.wait_for_session(master, config=config,
                                                          max_wait_secs=max_wait_secs)
        if start_standard_services:
            tf_logging.info("Starting queue runners.")
            self.start_queue_runners(sess)
        return sess

    def start_queue_runners(self, sess: Any, queue_runners: Any = None) -> List[Any]:
        """Starts the graph's (or the given) QueueRunners; returns their threads."""
        if context.executing_eagerly():
            raise RuntimeError("Queues are not compatible with eager execution.")
        if queue_runners is None:
            queue_runners = self._graph.get_collection(GraphKeys.QUEUE_RUNNERS)
        threads: List[Any] = []
        for runner in queue_runners:
            threads.extend(runner.create_threads(sess, coord=self._coord, daemon=True,
                                                 start=True))
        self._queue_runners_started = True
        self._run_due_services()        # the first ticks start_standard_services held back
        return threads

    def loop(self, timer_interval_secs: float, target: Callable[..., Any], args: Any = None,
             kwargs: Any = None) -> LooperThread:
        """Starts a LooperThread calling `target(*args, **kwargs)` every interval."""
        looper = LooperThread(self._coord, timer_interval_secs, target=target, args=args,
                              kwargs=kwargs)
        looper.start()
        return looper

    def stop(self, threads: Any = None, close_summary_writer: bool = True,
             ignore_live_threads: bool = False) -> None:
        """Stops the coordinator, joins the threads (re-raising a recorded error) and
        writes the STOP session log and closes the summary writer."""
        self._coord.request_stop()
        self._services = []
        try:
            self._coord.join(threads, stop_grace_period_secs=self._stop_grace_secs,
                             ignore_live_threads=ignore_live_threads)
        finally:
            if close_summary_writer and self._summary_writer:
                self._summary_writer.add_session_log(SessionLog(status=SessionLog.STOP))
                self._summary_writer.close()
                self._graph_added_to_summary = False

    def request_stop(self, ex: Any = None) -> None:
        self._coord.request_stop(ex=ex)

    def should_stop(self) -> bool:
        """Whether a stop was requested; first runs the services whose interval elapsed."""
        self._run_due_services()
        return self._coord.should_stop()

    def stop_on_exception(self) -> Any:
        return self._coord.stop_on_exception()

    def wait_for_stop(self) -> None:
        self._coord.wait_for_stop()

    def summary_computed(self, sess: Any, summary: Any, global_step: Any = None) -> None:
        """Writes a computed summary at `global_step` (default: the global step's value)."""
        if not self._summary_writer:
            raise RuntimeError("Writing a summary requires a summary writer.")
        if global_step is None and self.global_step is not None:
            global_step = training_util.global_step(sess, self.global_step)
        self._summary_writer.add_summary(summary, global_step)

    @contextlib.contextmanager
    def managed_session(self, master: str = "", config: Any = None,
                        start_standard_services: bool = True,
                        close_summary_writer: bool = True) -> Iterator[Any]:
        """A context manager around a prepared session: an exception in the block stops
        the coordinator (OutOfRangeError ends quietly, others are re-raised by stop())."""
        sess = None
        try:
            sess = self.prepare_or_wait_for_session(
                master=master, config=config, start_standard_services=start_standard_services)
            yield sess
        except Exception as e:  # noqa: BLE001 - recorded by the coordinator, as TF
            self.request_stop(e)
        finally:
            try:
                self.stop(close_summary_writer=close_summary_writer)
            finally:
                try:
                    if sess is not None:
                        sess.close()
                except Exception:  # noqa: BLE001
                    pass

    # TF's CamelCase aliases.
    PrepareSession = prepare_or_wait_for_session
    StartQueueRunners = start_queue_runners
    StartStandardServices = start_standard_services
    Stop = stop
    RequestStop = request_stop
    Loop = loop
    ShouldStop = should_stop
    StopOnException = stop_on_exception
    WaitForStop = wait_for_stop
    SummaryComputed = summary_computed
