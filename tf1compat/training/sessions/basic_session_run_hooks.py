"""The standard session hooks of `tf.train` (TF's basic_session_run_hooks):
StopAtStepHook, CheckpointSaverHook (+ CheckpointSaverListener), StepCounterHook,
LoggingTensorHook, NanTensorHook, SummarySaverHook, GlobalStepWaiterHook, FinalOpsHook,
FeedFnHook, and the SecondOrStepTimer they trigger on.

Hooks fetch the cached global-step read (`global_step + 0`) next to the caller's
fetches, so the value they see is the step before the train op's increment ("stale"),
and re-read the variable when they are about to act, as TF does.
"""

from __future__ import annotations

import os
import time
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from tf1compat.util import tf_logging
from tf1compat.framework import errors
from tf1compat.framework.graph import GraphKeys, get_default_graph
from tf1compat.training import training_util
from tf1compat.training.sessions.session_run_hook import SessionRunArgs, SessionRunHook

__all__ = ["SecondOrStepTimer", "LoggingTensorHook", "StopAtStepHook",
           "CheckpointSaverListener", "CheckpointSaverHook", "StepCounterHook",
           "NanLossDuringTrainingError", "NanTensorHook", "SummarySaverHook",
           "GlobalStepWaiterHook", "FinalOpsHook", "FeedFnHook", "ProfilerHook"]


class SecondOrStepTimer:
    """Triggers at most once per step, every `every_secs` seconds or `every_steps` steps."""

    def __init__(self, every_secs: Optional[float] = None, every_steps: Optional[int] = None):
        self.reset()
        self._every_secs = every_secs
        self._every_steps = every_steps
        if every_secs is None and every_steps is None:
            raise ValueError("Either every_secs or every_steps should be provided.")
        if every_secs is not None and every_steps is not None:
            raise ValueError("Can not provide both every_secs and every_steps.")

    def reset(self) -> None:
        self._last_triggered_step: Optional[int] = None
        self._last_triggered_time: Optional[float] = None

    def should_trigger_for_step(self, step: int) -> bool:
        if self._last_triggered_step is None:
            return True
        if self._last_triggered_step == step:
            return False
        if self._every_secs is not None and \
                time.time() >= self._last_triggered_time + self._every_secs:
            return True
        if self._every_steps is not None and step >= self._last_triggered_step + \
                self._every_steps:
            return True
        return False

    def update_last_triggered_step(self, step: int) -> Tuple[Optional[float], Optional[int]]:
        """Records a trigger at `step`; returns (seconds, steps) since the previous one."""
        now = time.time()
        if self._last_triggered_time is None:
            elapsed: Tuple[Optional[float], Optional[int]] = (None, None)
        else:
            elapsed = (now - self._last_triggered_time, step - self._last_triggered_step)
        self._last_triggered_time = now
        self._last_triggered_step = step
        return elapsed

    def last_triggered_step(self) -> Optional[int]:
        return self._last_triggered_step


class NeverTriggerTimer(SecondOrStepTimer):
    """A timer that never triggers (LoggingTensorHook with only `at_end`)."""

    def __init__(self) -> None:
        self.reset()

    def should_trigger_for_step(self, step: int) -> bool:
        return False

    def update_last_triggered_step(self, step: int) -> Tuple[None, None]:
        return (None, None)

    def last_triggered_step(self) -> None:
        return None


def _as_graph_element(obj: Any) -> Any:
    """A tensor (or op) of the default graph from an object or a name ("x" = "x:0")."""
    graph = get_default_graph()
    if not isinstance(obj, str):
        if getattr(obj, "graph", None) is not graph:
            raise ValueError(f"Passed {obj} should have graph attribute that is equal to "
                             f"current graph {graph}.")
        return obj
    if ":" in obj:
        return graph.as_graph_element(obj)
    element = graph.as_graph_element(obj + ":0")
    try:
        graph.as_graph_element(obj + ":1")
    except (KeyError, ValueError):
        return element
    raise ValueError(f"Name {obj} is ambiguous, as this `Operation` has multiple outputs "
                     "(at least 2).")


def _global_step_read(hook_name: str) -> Any:
    tensor = training_util._get_or_create_global_step_read()
    if tensor is None:
        raise RuntimeError(f"Global step should be created to use {hook_name}.")
    return tensor


class LoggingTensorHook(SessionRunHook):
    """Logs the values of tensors every N local steps, every N seconds, or at the end,
    as `tag = value, ...` (numpy printed with suppress=True)."""

    def __init__(self, tensors: Any, every_n_iter: Optional[int] = None,
                 every_n_secs: Optional[float] = None, at_end: bool = False,
                 formatter: Any = None):
        only_at_end = at_end and every_n_iter is None and every_n_secs is None
        if not only_at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and "
                             "every_n_secs must be provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        if not isinstance(tensors, dict):
            self._tag_order = list(tensors)
            tensors = {item: item for item in tensors}
        else:
            self._tag_order = sorted(tensors.keys())
        self._tensors = tensors
        self._formatter = formatter
        self._timer = NeverTriggerTimer() if only_at_end else SecondOrStepTimer(
            every_secs=every_n_secs, every_steps=every_n_iter)
        self._log_at_end = at_end

    def begin(self) -> None:
        self._timer.reset()
        self._iter_count = 0
        self._current_tensors = {tag: _as_graph_element(t) for tag, t in self._tensors.items()}

    def before_run(self, run_context: Any) -> Any:
        self._should_trigger = self._timer.should_trigger_for_step(self._iter_count)
        return SessionRunArgs(self._current_tensors) if self._should_trigger else None

    def _log_tensors(self, values: Dict[Any, Any]) -> None:
        original = np.get_printoptions()
        np.set_printoptions(suppress=True)
        try:
            elapsed, _ = self._timer.update_last_triggered_step(self._iter_count)
            if self._formatter:
                tf_logging.info(self._formatter(values))
            else:
                # "%s" as TF: str() of numpy scalars (an f-string would print a float32
                # with float64 digits).
                stats = ", ".join("%s = %s" % (tag, values[tag]) for tag in self._tag_order)
                if elapsed is not None:
                    tf_logging.info("%s (%.3f sec)", stats, elapsed)
                else:
                    tf_logging.info("%s", stats)
        finally:
            np.set_printoptions(**original)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        if self._should_trigger:
            self._log_tensors(run_values.results)
        self._iter_count += 1

    def end(self, session: Any) -> None:
        if self._log_at_end:
            self._log_tensors(session.run(self._current_tensors))


class StopAtStepHook(SessionRunHook):
    """Requests a stop when the global step reaches `last_step` (or `num_steps` more
    than its value when the session was created)."""

    def __init__(self, num_steps: Optional[int] = None, last_step: Optional[int] = None):
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        self._num_steps = num_steps
        self._last_step = last_step

    def begin(self) -> None:
        self._global_step_tensor = _global_step_read("StopAtStepHook")

    def after_create_session(self, session: Any, coord: Any) -> None:
        if self._last_step is None:
            self._last_step = session.run(self._global_step_tensor) + self._num_steps

    def before_run(self, run_context: Any) -> Any:
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        # The fetched value predates this step's increment; confirm with a fresh read.
        if run_values.results + 1 >= self._last_step:
            if run_context.session.run(self._global_step_tensor) >= self._last_step:
                run_context.request_stop()


class CheckpointSaverListener:
    """Called by CheckpointSaverHook around each save; `after_save` returning True
    requests a stop."""

    def begin(self) -> None:
        pass

    def before_save(self, session: Any, global_step_value: int) -> None:
        pass

    def after_save(self, session: Any, global_step_value: int) -> Any:
        pass

    def end(self, session: Any, global_step_value: int) -> None:
        pass


def _summary_writer(logdir: str) -> Any:
    from tf1compat.summary.writer import FileWriterCache
    return FileWriterCache.get(logdir)


class CheckpointSaverHook(SessionRunHook):
    """Saves `<checkpoint_dir>/<checkpoint_basename>-<step>` when the session is created,
    every `save_secs` seconds or `save_steps` steps, and at the end."""

    def __init__(self, checkpoint_dir: str, save_secs: Optional[float] = None,
                 save_steps: Optional[int] = None, saver: Any = None,
                 checkpoint_basename: str = "model.ckpt", scaffold: Any = None,
                 listeners: Optional[List[CheckpointSaverListener]] = None,
                 save_graph_def: bool = True):
        tf_logging.info("Create CheckpointSaverHook.")
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver = saver
        self._checkpoint_dir = checkpoint_dir
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = listeners or []
        self._steps_per_run = 1000000
        self._save_graph_def = save_graph_def

    def _set_steps_per_run(self, steps_per_run: int) -> None:
        self._steps_per_run = steps_per_run

    def begin(self) -> None:
        self._summary_writer = _summary_writer(self._checkpoint_dir)
        self._global_step_tensor = _global_step_read("CheckpointSaverHook")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session: Any, coord: Any) -> None:
        from tf1compat.training.saving import graph_util, meta_graph
        from tf1compat.graphdef.graph_io import UnserializableGraphError
        step = session.run(self._global_step_tensor)
        graph = get_default_graph()
        saver = self._get_saver()
        try:
            if self._save_graph_def:
                graph_util.write_graph(graph,
                                       self._checkpoint_dir, "graph.pbtxt")
            meta = meta_graph.export_meta_graph(
                graph=graph, saver_def=saver.saver_def if saver else None)
        except UnserializableGraphError as e:
            # TF writes graph.pbtxt and the meta graph event; tf1compat cannot serialize
            # this graph (py_func, control-flow constructs): the checkpoints still work.
            tf_logging.warning("CheckpointSaverHook: the graph cannot be written (%s); "
                               "no graph.pbtxt or meta graph event.", e)
            meta = None
        self._summary_writer.add_graph(graph)
        if meta is not None:
            self._summary_writer.add_meta_graph(meta)
        self._save(session, step)
        self._timer.update_last_triggered_step(step)

    def before_run(self, run_context: Any) -> Any:
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        stale = run_values.results
        if self._timer.should_trigger_for_step(stale + self._steps_per_run):
            step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(step):
                self._timer.update_last_triggered_step(step)
                if self._save(run_context.session, step):
                    run_context.request_stop()

    def end(self, session: Any) -> None:
        last_step = session.run(self._global_step_tensor)
        if last_step != self._timer.last_triggered_step():
            self._save(session, last_step)
        for listener in self._listeners:
            listener.end(session, last_step)

    def _save(self, session: Any, step: int) -> bool:
        from tf1compat.serialization.messages import SessionLog
        tf_logging.info("Calling checkpoint listeners before saving checkpoint %d...", step)
        for listener in self._listeners:
            listener.before_save(session, step)
        tf_logging.info("Saving checkpoints for %d into %s.", step, self._save_path)
        self._get_saver().save(session, self._save_path, global_step=step,
                               write_meta_graph=self._save_graph_def)
        self._summary_writer.add_session_log(
            SessionLog(status=SessionLog.CHECKPOINT, checkpoint_path=self._save_path), step)
        tf_logging.info("Calling checkpoint listeners after saving checkpoint %d...", step)
        should_stop = False
        for listener in self._listeners:
            if listener.after_save(session, step):
                tf_logging.info("A CheckpointSaverListener requested that training be "
                                f"stopped. listener: {listener}")
                should_stop = True
        return should_stop

    def _get_saver(self) -> Any:
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        savers = get_default_graph().get_collection(GraphKeys.SAVERS)
        if not savers:
            raise RuntimeError(f"No items in collection {GraphKeys.SAVERS}. Please add a "
                               "saver to the collection or provide a saver or scaffold.")
        if len(savers) > 1:
            raise RuntimeError(f"More than one item in collection {GraphKeys.SAVERS}. "
                               "Please indicate which one to use by passing it to the "
                               "constructor.")
        self._saver = savers[0]
        return self._saver


class StepCounterHook(SessionRunHook):
    """Logs and records (`<global step op>/sec` summaries) the training speed."""

    def __init__(self, every_n_steps: Optional[int] = 100, every_n_secs: Optional[float] = None,
                 output_dir: Optional[str] = None, summary_writer: Any = None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be "
                             "provided.")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._last_global_step: Optional[int] = None
        self._steps_per_run = 1

    def _set_steps_per_run(self, steps_per_run: int) -> None:
        self._steps_per_run = steps_per_run

    def begin(self) -> None:
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = _summary_writer(self._output_dir)
        self._global_step_tensor = _global_step_read("StepCounterHook")
        self._summary_tag = training_util.get_global_step().op.name + "/sec"

    def before_run(self, run_context: Any) -> Any:
        return SessionRunArgs(self._global_step_tensor)

    def _log_and_record(self, elapsed_steps: int, elapsed_time: float, step: int) -> None:
        from tf1compat.serialization.messages import Summary
        per_sec = elapsed_steps / elapsed_time if elapsed_time else float("inf")
        if self._summary_writer is not None:
            summary = Summary(value=[Summary.Value(tag=self._summary_tag,
                                                   simple_value=per_sec)])
            self._summary_writer.add_summary(summary, step)
        tf_logging.info("%s: %g", self._summary_tag, per_sec)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        stale = run_values.results
        if self._timer.should_trigger_for_step(stale + self._steps_per_run):
            step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(step):
                elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(step)
                if elapsed_time is not None:
                    self._log_and_record(elapsed_steps, elapsed_time, step)
        if stale == self._last_global_step:
            tf_logging.log_first_n(
                tf_logging.WARN, "It seems that global step (tf.train.get_global_step) has "
                "not been increased. Current value (could be stable): %s vs previous value: "
                "%s. You could increase the global step by passing "
                "tf.train.get_global_step() to Optimizer.apply_gradients or "
                "Optimizer.minimize.", 5, stale, self._last_global_step)
        self._last_global_step = stale


class NanLossDuringTrainingError(RuntimeError):
    """Raised by NanTensorHook when the loss is NaN."""

    def __str__(self) -> str:
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Fails (NanLossDuringTrainingError) or requests a stop when the loss is NaN."""

    def __init__(self, loss_tensor: Any, fail_on_nan_loss: bool = True):
        self._loss_tensor = loss_tensor
        self._fail_on_nan_loss = fail_on_nan_loss

    def before_run(self, run_context: Any) -> Any:
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        if np.isnan(run_values.results):
            message = "Model diverged with loss = NaN."
            if self._fail_on_nan_loss:
                tf_logging.error(message)
                raise NanLossDuringTrainingError
            tf_logging.warning(message)
            run_context.request_stop()


class SummarySaverHook(SessionRunHook):
    """Writes the summary op's results every N steps / seconds (and a START session log
    on the first run)."""

    def __init__(self, save_steps: Optional[int] = None, save_secs: Optional[float] = None,
                 output_dir: Optional[str] = None, summary_writer: Any = None,
                 scaffold: Any = None, summary_op: Any = None):
        if (scaffold is None) == (summary_op is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        self._summary_op = summary_op
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self) -> None:
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = _summary_writer(self._output_dir)
        self._next_step: Optional[int] = None
        self._global_step_tensor = _global_step_read("SummarySaverHook")

    def before_run(self, run_context: Any) -> Any:
        self._request_summary = (self._next_step is None or
                                 self._timer.should_trigger_for_step(self._next_step))
        requests: Dict[str, Any] = {"global_step": self._global_step_tensor}
        if self._request_summary and self._get_summary_op() is not None:
            requests["summary"] = self._get_summary_op()
        return SessionRunArgs(requests)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        from tf1compat.serialization.messages import SessionLog
        if not self._summary_writer:
            return
        step = run_values.results["global_step"] + 1
        if self._next_step is None or self._request_summary:
            step = run_context.session.run(self._global_step_tensor)
        if self._next_step is None:
            self._summary_writer.add_session_log(SessionLog(status=SessionLog.START), step)
        if self._request_summary:
            self._timer.update_last_triggered_step(step)
            for summary in run_values.results.get("summary", ()):
                self._summary_writer.add_summary(summary, step)
        self._next_step = step + 1

    def end(self, session: Any = None) -> None:
        if self._summary_writer:
            self._summary_writer.flush()

    def _get_summary_op(self) -> Optional[List[Any]]:
        op = self._summary_op if self._summary_op is not None else self._scaffold.summary_op
        if op is None:
            return None
        return op if isinstance(op, list) else [op]


class GlobalStepWaiterHook(SessionRunHook):
    """Delays the first run until the global step reaches `wait_until_step` (workers
    waiting for the chief)."""

    def __init__(self, wait_until_step: int):
        self._wait_until_step = wait_until_step

    def begin(self) -> None:
        self._worker_is_started = False
        self._global_step_tensor = _global_step_read("_GlobalStepWaiterHook")

    def before_run(self, run_context: Any) -> Any:
        if self._worker_is_started:
            return None
        if self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        tf_logging.info("Waiting for global step %d before starting training.",
                        self._wait_until_step)
        last_logged = 0
        while True:
            current = run_context.session.run(self._global_step_tensor)
            if current >= self._wait_until_step:
                self._worker_is_started = True
                return None
            if current - last_logged > 1000:
                tf_logging.info("Waiting for global step %d before starting training. "
                                "Current step is %d.", self._wait_until_step, current)
                last_logged = current
            time.sleep(0.5)


class FinalOpsHook(SessionRunHook):
    """Runs `final_ops` when the session ends; their values are `final_ops_values`."""

    def __init__(self, final_ops: Any, final_ops_feed_dict: Any = None):
        self._final_ops = final_ops
        self._final_ops_feed_dict = final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self) -> Any:
        return self._final_ops_values

    def end(self, session: Any) -> None:
        if self._final_ops is None:
            return
        try:
            self._final_ops_values = session.run(self._final_ops,
                                                 feed_dict=self._final_ops_feed_dict)
        except (errors.OutOfRangeError, StopIteration):
            tf_logging.warning("An OutOfRangeError or StopIteration exception is raised by "
                               "the code in FinalOpsHook: the final ops depend on an input "
                               "source that is exhausted; they should only read variables.")
            raise


class FeedFnHook(SessionRunHook):
    """Adds `feed_fn()`'s feed dict to every run."""

    def __init__(self, feed_fn: Any):
        self.feed_fn = feed_fn

    def before_run(self, run_context: Any) -> Any:
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


class ProfilerHook(SessionRunHook):
    """`tf.train.ProfilerHook`: every `save_steps` steps or `save_secs` seconds, traces
    the step (RunOptions FULL_TRACE) and writes its timeline as
    `<output_dir>/timeline-<global step>.json` (Chrome trace format) and the RunMetadata
    to the summary writer as `step_<global step>`, as TF."""

    def __init__(self, save_steps: Optional[int] = None, save_secs: Optional[float] = None,
                 output_dir: str = "", show_dataflow: bool = True, show_memory: bool = False):
        self._output_file = os.path.join(output_dir, "timeline-{}.json")
        self._file_writer = _summary_writer(output_dir)
        self._show_dataflow = show_dataflow
        self._show_memory = show_memory
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._next_step: Optional[int] = None
        self._request_summary = False
        self._global_step_tensor: Any = None

    def begin(self) -> None:
        self._next_step = None
        self._global_step_tensor = _global_step_read("ProfilerHook")

    def before_run(self, run_context: Any) -> Any:
        from tf1compat.runtime.config import RunOptions
        self._request_summary = (self._next_step is not None and
                                 self._timer.should_trigger_for_step(self._next_step))
        options = RunOptions(trace_level=RunOptions.FULL_TRACE) \
            if self._request_summary else None
        return SessionRunArgs({"global_step": self._global_step_tensor}, options=options)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        stale_global_step = run_values.results["global_step"]
        if self._next_step is None:
            # The timer starts counting N steps or seconds from the first step.
            self._timer.update_last_triggered_step(stale_global_step)
        global_step = stale_global_step + 1
        if self._request_summary:
            global_step = run_context.session.run(self._global_step_tensor)
            self._timer.update_last_triggered_step(global_step)
            self._save(global_step, self._output_file.format(global_step),
                       run_values.run_metadata.step_stats)
            self._file_writer.add_run_metadata(run_values.run_metadata, "step_%d" % global_step)
        self._next_step = global_step + 1

    def _save(self, step: int, save_path: str, step_stats: Any) -> None:
        from tf1compat.training.profiler.timeline import Timeline
        from tf1compat.util import gfile
        tf_logging.info("Saving timeline for %d into '%s'.", step, save_path)
        with gfile.GFile(save_path, "w") as f:
            f.write(Timeline(step_stats).generate_chrome_trace_format(
                show_dataflow=self._show_dataflow, show_memory=self._show_memory))
