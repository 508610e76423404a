"""Monitored sessions: `tf.train.Scaffold`, session creators, `MonitoredSession`,
`SingularMonitoredSession` and `MonitoredTrainingSession` (TF's monitored_session).

A monitored session is a stack of wrappers around a plain Session, as in TF:

* `_RecoverableSession` (MonitoredSession only): re-creates the session after an
  AbortedError / UnavailableError;
* `_CoordinatedSession`: owns the Coordinator; `should_stop()` re-raises an exception a
  thread reported; closing stops and joins the threads;
* `_HookedSession`: calls the hooks' `before_run` / `after_run` around each run, merging
  their fetches (a dict keyed by hook next to the caller's under "caller") and feeds.

Creating one calls every hook's `begin()`, finalizes the Scaffold (which finalizes the
graph; closing un-finalizes it again if it was not finalized before), restores the latest
checkpoint of `checkpoint_dir` or runs the init ops, then `after_create_session`. Leaving
the `with` block runs the hooks' `end()` unless an exception other than OutOfRangeError /
StopIteration ended it; those two end the loop cleanly.
"""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.util import tf_logging
from tf1compat.framework import errors
from tf1compat.framework.graph import GraphKeys, get_default_graph
from tf1compat.training.sessions import basic_session_run_hooks as hooks_lib
from tf1compat.training.sessions.coordinator import Coordinator
from tf1compat.training.queue_runner import start_queue_runners
from tf1compat.training.sessions.session_manager import SessionManager
from tf1compat.training.sessions.session_run_hook import (SessionRunArgs, SessionRunContext,
                                                          SessionRunValues)

__all__ = ["Scaffold", "SessionCreator", "ChiefSessionCreator", "WorkerSessionCreator",
           "MonitoredSession", "SingularMonitoredSession", "MonitoredTrainingSession",
           "USE_DEFAULT"]

# Errors after which a MonitoredSession creates a new session (lost workers in TF).
_PREEMPTION_ERRORS = (errors.AbortedError, errors.UnavailableError)

USE_DEFAULT = object()


def _get_saver_or_default() -> Any:
    """The graph's one Saver (SAVERS collection), or a new sharded Saver added to it."""
    from tf1compat.training.saving.saver import Saver
    savers = get_default_graph().get_collection(GraphKeys.SAVERS)
    if savers:
        if len(savers) > 1:
            raise RuntimeError(f"More than one item in collection {GraphKeys.SAVERS}. Please "
                               "indicate which one to use by passing it to the constructor.")
        return savers[0]
    saver = Saver(sharded=True, allow_empty=True)
    get_default_graph().add_to_collection(GraphKeys.SAVERS, saver)
    return saver


class Scaffold:
    """The ops a monitored session needs (init, ready checks, local init, summaries, a
    Saver); missing ones are taken from the graph's collections or built by
    `finalize()`, which then finalizes the graph."""

    def __init__(self, init_op: Any = None, init_feed_dict: Any = None, init_fn: Any = None,
                 ready_op: Any = None, ready_for_local_init_op: Any = None,
                 local_init_op: Any = None, summary_op: Any = None, saver: Any = None,
                 copy_from_scaffold: Optional["Scaffold"] = None,
                 local_init_feed_dict: Any = None):
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError("copy_from_scaffold is not a Scaffold instance.")
            base = copy_from_scaffold

            def pick(mine: Any, theirs: Any) -> Any:
                return mine if mine is not None else theirs
            init_op = pick(init_op, base.init_op)
            init_feed_dict = pick(init_feed_dict, base.init_feed_dict)
            init_fn = pick(init_fn, base._user_init_fn)
            ready_op = pick(ready_op, base.ready_op)
            ready_for_local_init_op = pick(ready_for_local_init_op,
                                           base.ready_for_local_init_op)
            local_init_op = pick(local_init_op, base.local_init_op)
            local_init_feed_dict = pick(local_init_feed_dict, base.local_init_feed_dict)
            summary_op = pick(summary_op, base.summary_op)
            saver = pick(saver, base.saver)
        self._user_init_fn = init_fn
        self._init_fn = (lambda sess: init_fn(self, sess)) if init_fn else None
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._local_init_op = local_init_op
        self._local_init_feed_dict = local_init_feed_dict
        self._summary_op = summary_op
        self._saver = saver

    def finalize(self) -> "Scaffold":
        """Builds the missing ops (TF's defaults), builds the Saver, finalizes the graph."""
        from tf1compat.ops.array_ops import concat
        from tf1compat.ops.control_flow_ops import group, no_op
        from tf1compat.framework.constant_op import constant
        from tf1compat.framework import dtypes
        from tf1compat.framework.graph import name_scope
        from tf1compat.variables import collections as var_collections
        graph = get_default_graph()

        def no_resources(name: str) -> Any:
            # TF's resources.initialize_resources([]) / report_uninitialized_resources([]).
            return no_op(name=name)

        def no_uninitialized_resources() -> Any:
            with name_scope("report_uninitialized_resources"):
                return constant([], dtype=dtypes.string)

        if self._init_op is None:
            self._init_op = Scaffold.get_or_default(
                "init_op", GraphKeys.INIT_OP,
                lambda: group(var_collections.global_variables_initializer(),
                              no_resources("init"),
                              graph.get_collection("saved_model_initializers")))
        if self._ready_op is None:
            self._ready_op = Scaffold.get_or_default(
                "ready_op", GraphKeys.READY_OP,
                lambda: concat([var_collections.report_uninitialized_variables(),
                                no_uninitialized_resources()], 0))
        if self._ready_for_local_init_op is None:
            self._ready_for_local_init_op = Scaffold.get_or_default(
                "ready_for_local_init_op", GraphKeys.READY_FOR_LOCAL_INIT_OP,
                lambda: concat([var_collections.report_uninitialized_variables(
                    var_collections.global_variables()), no_uninitialized_resources()], 0))
        if self._local_init_op is None:
            self._local_init_op = Scaffold.get_or_default(
                "local_init_op", GraphKeys.LOCAL_INIT_OP, Scaffold.default_local_init_op)
        if self._summary_op is None:
            from tf1compat.summary.summary_ops import merge_all
            self._summary_op = Scaffold.get_or_default("summary_op", GraphKeys.SUMMARY_OP,
                                                       merge_all)
        if self._saver is None:
            self._saver = _get_saver_or_default()
        from tf1compat.training.saving.trackable_checkpoint import Checkpoint
        if isinstance(self._saver, Checkpoint):
            raise NotImplementedError("A tf.train.Checkpoint as Scaffold saver is not "
                                      "supported by tf1compat; pass a tf.train.Saver.")
        self._saver.build()
        graph.finalize()
        tf_logging.info("Graph was finalized.")
        return self

    @property
    def init_fn(self) -> Any:
        return self._init_fn

    @property
    def init_op(self) -> Any:
        return self._init_op

    @property
    def ready_op(self) -> Any:
        return self._ready_op

    @property
    def ready_for_local_init_op(self) -> Any:
        return self._ready_for_local_init_op

    @property
    def local_init_op(self) -> Any:
        return self._local_init_op

    @property
    def local_init_feed_dict(self) -> Any:
        return self._local_init_feed_dict

    @property
    def summary_op(self) -> Any:
        return self._summary_op

    @property
    def saver(self) -> Any:
        return self._saver

    @property
    def init_feed_dict(self) -> Any:
        return self._init_feed_dict

    @staticmethod
    def get_or_default(arg_name: str, collection_key: str, default_constructor: Any) -> Any:
        """The one element of `collection_key`, or `default_constructor()` (added to it)."""
        graph = get_default_graph()
        elements = graph.get_collection(collection_key)
        if elements:
            if len(elements) > 1:
                raise RuntimeError(f'More than one item in the collection "{collection_key}". '
                                   "Please indicate which one to use by passing it to the "
                                   f"tf.Scaffold constructor as:  tf.Scaffold({arg_name}="
                                   "item to use)")
            return elements[0]
        op = default_constructor()
        if op is not None:
            graph.add_to_collection(collection_key, op)
        return op

    @staticmethod
    def default_local_init_op() -> Any:
        """Initializes local variables and tables (TF: and local resources)."""
        from tf1compat.ops.control_flow_ops import group, no_op
        from tf1compat.variables import collections as var_collections
        return group(var_collections.local_variables_initializer(),
                     var_collections.tables_initializer(), no_op(name="init"))


class SessionCreator:
    """Creates a session for a MonitoredSession (subclasses define create_session)."""

    def create_session(self) -> Any:
        raise NotImplementedError("create_session is not implemented for "
                                  f"{type(self).__name__}.")


class ChiefSessionCreator(SessionCreator):
    """Restores from the latest checkpoint (or `checkpoint_filename_with_path`), else
    initializes the model."""

    def __init__(self, scaffold: Optional[Scaffold] = None, master: str = "",
                 config: Any = None, checkpoint_dir: Optional[str] = None,
                 checkpoint_filename_with_path: Optional[str] = None):
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path
        self._scaffold = scaffold or Scaffold()
        self._session_manager: Optional[SessionManager] = None
        self._master = master
        self._config = config

    def _get_session_manager(self) -> SessionManager:
        if self._session_manager is None:
            s = self._scaffold
            self._session_manager = SessionManager(
                local_init_op=s.local_init_op, local_init_feed_dict=s.local_init_feed_dict,
                ready_op=s.ready_op, ready_for_local_init_op=s.ready_for_local_init_op,
                graph=get_default_graph())
        return self._session_manager

    def create_session(self) -> Any:
        self._scaffold.finalize()
        return self._get_session_manager().prepare_session(
            self._master, saver=self._scaffold.saver, checkpoint_dir=self._checkpoint_dir,
            checkpoint_filename_with_path=self._checkpoint_filename_with_path,
            config=self._config, init_op=self._scaffold.init_op,
            init_feed_dict=self._scaffold.init_feed_dict, init_fn=self._scaffold.init_fn)


class WorkerSessionCreator(ChiefSessionCreator):
    """Waits until the model is ready (initialized by a chief) instead of initializing."""

    def __init__(self, scaffold: Optional[Scaffold] = None, master: str = "",
                 config: Any = None, max_wait_secs: float = 30 * 60):
        super().__init__(scaffold=scaffold, master=master, config=config)
        self._max_wait_secs = max_wait_secs

    def create_session(self) -> Any:
        self._scaffold.finalize()
        return self._get_session_manager().wait_for_session(
            self._master, config=self._config, max_wait_secs=self._max_wait_secs)


# -- the session wrappers ------------------------------------------------------------------------

class _WrappedSession:
    def __init__(self, sess: Any):
        self._sess = sess
        self._wrapped_is_stoppable = isinstance(sess, _WrappedSession)

    @property
    def graph(self) -> Any:
        return self._sess.graph

    @property
    def sess_str(self) -> str:
        return self._sess.sess_str

    def should_stop(self) -> bool:
        if self._check_stop():
            return True
        if self._sess:
            return self._wrapped_is_stoppable and self._sess.should_stop()
        return True

    def _check_stop(self) -> bool:
        return False

    def close(self) -> None:
        if self._sess:
            try:
                self._sess.close()
            except _PREEMPTION_ERRORS as e:
                tf_logging.error("An error occurred when attempting to close the session. "
                                 "Error: %s", e)
            finally:
                self._sess = None

    def run(self, *args: Any, **kwargs: Any) -> Any:
        return self._sess.run(*args, **kwargs)

    def run_step_fn(self, step_fn: Any, raw_session: Any, run_with_hooks: Any) -> Any:
        return step_fn(_MonitoredSession.StepContext(raw_session, run_with_hooks or self.run))


class _RecoverableSession(_WrappedSession):
    """Creates a new session when the current one fails with a preemption error."""

    def __init__(self, sess_creator: Any):
        self._sess_creator = sess_creator
        super().__init__(self._create_session())

    def _create_session(self) -> Any:
        while True:
            try:
                return self._sess_creator.create_session()
            except _PREEMPTION_ERRORS as e:
                tf_logging.info("An error was raised while a session was being created. A new "
                                "session will be created. Error: %s", e)

    def _check_stop(self) -> bool:
        try:
            return self._sess._check_stop() if self._sess else True
        except _PREEMPTION_ERRORS as e:
            tf_logging.info("An error was raised while considering whether the session is "
                            "complete. A new session will be created. Error: %s", e)
            self.close()
            self._sess = self._create_session()
            return False
        except Exception:  # noqa: BLE001 - TF: any other error means "stop"
            return True

    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None,
            run_metadata: Any = None) -> Any:
        while True:
            try:
                if not self._sess:
                    self._sess = self._create_session()
                return self._sess.run(fetches, feed_dict=feed_dict, options=options,
                                      run_metadata=run_metadata)
            except _PREEMPTION_ERRORS as e:
                tf_logging.info("An error was raised. The current session will be closed and "
                                "a new session will be created. Error: %s", e)
                self.close()
                self._sess = None

    def run_step_fn(self, step_fn: Any, raw_session: Any, run_with_hooks: Any) -> Any:
        while True:
            try:
                if not self._sess:
                    self._sess = self._create_session()
                return self._sess.run_step_fn(step_fn, raw_session, self._sess.run)
            except _PREEMPTION_ERRORS as e:
                tf_logging.info("An error was raised. The current session will be closed and "
                                "a new session will be created. Error: %s", e)
                self.close()
                self._sess = None


class _CoordinatedSession(_WrappedSession):
    """Stops when the coordinator does; a run error yields to an exception a thread
    reported."""

    def __init__(self, sess: Any, coord: Coordinator, stop_grace_period_secs: float = 120):
        super().__init__(sess)
        self._coord = coord
        self._stop_grace_period_secs = stop_grace_period_secs

    def _check_stop(self) -> bool:
        self._coord.raise_requested_exception()
        return self._coord.should_stop()

    def close(self) -> None:
        self._coord.request_stop()
        try:
            self._coord.join(stop_grace_period_secs=self._stop_grace_period_secs,
                             ignore_live_threads=True)
        finally:
            try:
                _WrappedSession.close(self)
            except Exception:  # noqa: BLE001 - TF ignores errors while closing
                pass

    def run(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return self._sess.run(*args, **kwargs)
        except _PREEMPTION_ERRORS:
            raise
        except Exception as original:
            try:
                self._coord.raise_requested_exception()
            except _PREEMPTION_ERRORS:
                raise
            except Exception:  # noqa: BLE001 - the run's own error is the one to report
                raise original from None
            raise


class _HookedSession(_WrappedSession):
    """Calls the hooks around each run and merges their fetches and feeds."""

    def __init__(self, sess: Any, hooks: List[Any]):
        super().__init__(sess)
        self._hooks = hooks
        self._should_stop = False

    def _check_stop(self) -> bool:
        return self._should_stop

    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None,
            run_metadata: Any = None) -> Any:
        from tf1compat.runtime.config import RunMetadata, RunOptions
        if self.should_stop():
            raise RuntimeError("Run called even after should_stop requested.")
        actual_fetches = {"caller": fetches}
        run_context = SessionRunContext(original_args=SessionRunArgs(fetches, feed_dict),
                                        session=self._sess)
        options = options or RunOptions()
        feed_dict = self._call_hook_before_run(run_context, actual_fetches, feed_dict,
                                               options)
        run_metadata = run_metadata or RunMetadata()
        outputs = _WrappedSession.run(self, fetches=actual_fetches, feed_dict=feed_dict,
                                      options=options, run_metadata=run_metadata)
        for hook in self._hooks:
            hook.after_run(run_context, SessionRunValues(
                results=outputs[hook] if hook in outputs else None, options=options,
                run_metadata=run_metadata))
        self._should_stop = self._should_stop or run_context.stop_requested
        return outputs["caller"]

    def _call_hook_before_run(self, run_context: SessionRunContext, fetch_dict: dict,
                              user_feed_dict: Any, options: Any) -> Any:
        hook_feeds: dict = {}
        for hook in self._hooks:
            request = hook.before_run(run_context)
            if request is None:
                continue
            if request.fetches is not None:
                fetch_dict[hook] = request.fetches
            if request.feed_dict:
                _raise_if_feeds_intersect(hook_feeds, request.feed_dict,
                                          "Same tensor is fed by two hooks.")
                hook_feeds.update(request.feed_dict)
            if request.options:
                _merge_run_options(options, request.options)
        if not hook_feeds:
            return user_feed_dict
        if not user_feed_dict:
            return hook_feeds
        _raise_if_feeds_intersect(user_feed_dict, hook_feeds,
                                  "Same tensor is fed by a SessionRunHook and user.")
        hook_feeds.update(user_feed_dict)
        return hook_feeds


def _merge_run_options(options: Any, incoming: Any) -> None:
    """A hook's RunOptions merged into the run's, as TF: the larger trace level, timeout,
    thread pool and flags win."""
    options.trace_level = max(options.trace_level, incoming.trace_level)
    options.timeout_in_ms = max(options.timeout_in_ms, incoming.timeout_in_ms)
    options.inter_op_thread_pool = max(options.inter_op_thread_pool,
                                       incoming.inter_op_thread_pool)
    options.output_partition_graphs = max(options.output_partition_graphs,
                                          incoming.output_partition_graphs)
    options.report_tensor_allocations_upon_oom = (
        options.report_tensor_allocations_upon_oom or
        incoming.report_tensor_allocations_upon_oom)


def _raise_if_feeds_intersect(feeds1: dict, feeds2: dict, message: str) -> None:
    both = set(feeds1.keys()) & set(feeds2.keys())
    if both:
        raise RuntimeError(message + " Conflict(s): " + str(list(both)))


# -- monitored sessions --------------------------------------------------------------------------

class _MonitoredSession:
    """The common part of MonitoredSession and SingularMonitoredSession."""

    def __init__(self, session_creator: Any, hooks: Any, should_recover: bool,
                 stop_grace_period_secs: float = 120):
        self._graph_was_finalized = get_default_graph().finalized
        self._hooks = list(hooks or [])
        for hook in self._hooks:
            hook.begin()
        self._coordinated_creator = self._CoordinatedSessionCreator(
            session_creator=session_creator or ChiefSessionCreator(), hooks=self._hooks,
            stop_grace_period_secs=stop_grace_period_secs)
        if should_recover:
            self._sess: Any = _RecoverableSession(self._coordinated_creator)
        else:
            self._sess = self._coordinated_creator.create_session()

    @property
    def graph(self) -> Any:
        sess = self._tf_sess()
        return None if sess is None else sess.graph

    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None,
            run_metadata: Any = None) -> Any:
        """Runs `fetches` with the hooks' fetches and feeds added; returns the caller's
        results only."""
        return self._sess.run(fetches, feed_dict=feed_dict, options=options,
                              run_metadata=run_metadata)

    def run_step_fn(self, step_fn: Any) -> Any:
        """Calls `step_fn(step_context)` (which may use `step_context.session` raw or
        `run_with_hooks`); `step_context.request_stop()` ends the loop."""
        import inspect
        args = tuple(inspect.signature(step_fn).parameters)
        if inspect.ismethod(step_fn):
            args = ("self",) + args
        if args not in (("step_context",), ("self", "step_context")):
            raise ValueError("`step_fn` may either have one `step_context` argument, or "
                             "`self` and `step_context` arguments if it's an instance "
                             f"method. Got {args} instead.")
        return self._sess.run_step_fn(step_fn, self._tf_sess(), run_with_hooks=None)

    class StepContext:
        """What `run_step_fn` passes to the step function."""

        def __init__(self, session: Any, run_with_hooks_fn: Any):
            self._session = session
            self._run_with_hooks_fn = run_with_hooks_fn

        @property
        def session(self) -> Any:
            return self._session

        def run_with_hooks(self, *args: Any, **kwargs: Any) -> Any:
            return self._run_with_hooks_fn(*args, **kwargs)

        def request_stop(self) -> None:
            raise StopIteration("step_fn has requested the iterations to stop.")

    def should_stop(self) -> bool:
        return self._sess is None or self._sess.should_stop()

    def close(self) -> None:
        self._close_internal()

    def __enter__(self) -> "_MonitoredSession":
        return self

    def __exit__(self, exception_type: Any, exception_value: Any, traceback: Any) -> bool:
        # Running out of input ends a training loop cleanly: the exception is swallowed
        # and the hooks' end() runs (final checkpoint).
        if exception_type in (errors.OutOfRangeError, StopIteration):
            exception_type = None
        self._close_internal(exception_type)
        return exception_type is None

    class _CoordinatedSessionCreator(SessionCreator):
        def __init__(self, session_creator: Any, hooks: List[Any],
                     stop_grace_period_secs: float):
            self._session_creator = session_creator
            self._hooks = hooks
            self.coord: Optional[Coordinator] = None
            self.tf_sess: Any = None
            self._stop_grace_period_secs = stop_grace_period_secs

        def create_session(self) -> Any:
            self.tf_sess = self._session_creator.create_session()
            self.coord = Coordinator(clean_stop_exception_types=[])
            if get_default_graph().get_collection(GraphKeys.QUEUE_RUNNERS):
                start_queue_runners(sess=self.tf_sess, coord=self.coord)
            for hook in self._hooks:
                hook.after_create_session(self.tf_sess, self.coord)
            return _CoordinatedSession(_HookedSession(self.tf_sess, self._hooks), self.coord,
                                       self._stop_grace_period_secs)

    def _close_internal(self, exception_type: Any = None) -> None:
        try:
            if not exception_type:
                for hook in self._hooks:
                    hook.end(self._coordinated_creator.tf_sess)
        finally:
            try:
                if self._sess is None:
                    raise RuntimeError("Session is already closed.")
                self._sess.close()
            finally:
                self._sess = None
                self._coordinated_creator.tf_sess = None
                self._coordinated_creator.coord = None
                if not self._graph_was_finalized:
                    get_default_graph()._unsafe_unfinalize()

    def _is_closed(self) -> bool:
        return self._coordinated_creator.tf_sess is None

    def _tf_sess(self) -> Any:
        return self._coordinated_creator.tf_sess


class MonitoredSession(_MonitoredSession):
    """A session that runs hooks, initializes or restores the model, and recovers from
    preemption errors by creating a new session (`tf.train.MonitoredSession`)."""

    def __init__(self, session_creator: Any = None, hooks: Any = None,
                 stop_grace_period_secs: float = 120):
        super().__init__(session_creator, hooks, should_recover=True,
                         stop_grace_period_secs=stop_grace_period_secs)


class SingularMonitoredSession(_MonitoredSession):
    """A MonitoredSession without recovery, with access to the raw session."""

    def __init__(self, hooks: Any = None, scaffold: Optional[Scaffold] = None,
                 master: str = "", config: Any = None, checkpoint_dir: Optional[str] = None,
                 stop_grace_period_secs: float = 120,
                 checkpoint_filename_with_path: Optional[str] = None):
        creator = ChiefSessionCreator(
            scaffold=scaffold, master=master, config=config, checkpoint_dir=checkpoint_dir,
            checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(creator, hooks, should_recover=False,
                         stop_grace_period_secs=stop_grace_period_secs)

    def raw_session(self) -> Any:
        """The underlying Session (runs without hooks)."""
        return self._tf_sess()


def MonitoredTrainingSession(master: str = "", is_chief: bool = True,  # noqa: N802
                             checkpoint_dir: Optional[str] = None,
                             scaffold: Optional[Scaffold] = None, hooks: Any = None,
                             chief_only_hooks: Any = None,
                             save_checkpoint_secs: Any = USE_DEFAULT,
                             save_summaries_steps: Any = USE_DEFAULT,
                             save_summaries_secs: Any = USE_DEFAULT, config: Any = None,
                             stop_grace_period_secs: float = 120,
                             log_step_count_steps: Optional[int] = 100,
                             max_wait_secs: float = 7200,
                             save_checkpoint_steps: Any = USE_DEFAULT,
                             summary_dir: Optional[str] = None,
                             save_graph_def: bool = True) -> MonitoredSession:
    """`tf.train.MonitoredTrainingSession`: a MonitoredSession for training.

    The chief restores from / initializes and saves checkpoints in `checkpoint_dir`
    (default every 600 seconds), writes summaries (default every 100 steps) and the
    step rate (every `log_step_count_steps`) to `summary_dir` or `checkpoint_dir`; the
    chief-only hooks come first, then these, then `hooks`. A worker
    (`is_chief=False`) waits for the model to be initialized and runs `hooks` only.
    """
    if save_summaries_steps is USE_DEFAULT and save_summaries_secs is USE_DEFAULT:
        save_summaries_steps, save_summaries_secs = 100, None
    elif save_summaries_secs is USE_DEFAULT:
        save_summaries_secs = None
    elif save_summaries_steps is USE_DEFAULT:
        save_summaries_steps = None
    if save_checkpoint_steps is USE_DEFAULT and save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_steps, save_checkpoint_secs = None, 600
    elif save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_secs = None
    elif save_checkpoint_steps is USE_DEFAULT:
        save_checkpoint_steps = None
    scaffold = scaffold or Scaffold()
    from tf1compat.training.strategies.distribute_lib import get_strategy
    extended = get_strategy().extended
    if extended._in_multi_worker_mode():
        # A multi-worker strategy (TF's worker context): every worker initializes (or
        # restores), the chief runs the chief-only hooks, summaries and checkpoints go
        # where the strategy says.
        is_chief = extended.should_checkpoint
        if not extended.should_save_summary:
            save_summaries_steps = save_summaries_secs = log_step_count_steps = None
        if not extended.should_checkpoint:
            save_checkpoint_steps = save_checkpoint_secs = None
    elif not is_chief:
        creator = WorkerSessionCreator(scaffold=scaffold, master=master, config=config,
                                       max_wait_secs=max_wait_secs)
        return MonitoredSession(session_creator=creator, hooks=hooks or [],
                                stop_grace_period_secs=stop_grace_period_secs)
    all_hooks: List[Any] = list(chief_only_hooks or []) if is_chief else []
    creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_dir=checkpoint_dir,
                                  master=master, config=config)
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(hooks_lib.StepCounterHook(output_dir=summary_dir,
                                                       every_n_steps=log_step_count_steps))
        if (save_summaries_steps and save_summaries_steps > 0) or \
                (save_summaries_secs and save_summaries_secs > 0):
            all_hooks.append(hooks_lib.SummarySaverHook(
                scaffold=scaffold, save_steps=save_summaries_steps,
                save_secs=save_summaries_secs, output_dir=summary_dir))
    if checkpoint_dir:
        if (save_checkpoint_secs and save_checkpoint_secs > 0) or \
                (save_checkpoint_steps and save_checkpoint_steps > 0):
            all_hooks.append(hooks_lib.CheckpointSaverHook(
                checkpoint_dir, save_steps=save_checkpoint_steps,
                save_secs=save_checkpoint_secs, scaffold=scaffold,
                save_graph_def=save_graph_def))
    if hooks:
        all_hooks.extend(hooks)
    return MonitoredSession(session_creator=creator, hooks=all_hooks,
                            stop_grace_period_secs=stop_grace_period_secs)

