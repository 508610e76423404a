"""`tf.contrib.training`'s evaluation helpers beyond tf.train's: `SummaryAtEndHook` (runs
the summaries once the evaluation ends and writes them at the global step) and
`evaluate_repeatedly` (evaluates each new checkpoint of a directory as it appears).
`evaluate_once`, `StopAfterNEvalsHook`, `checkpoints_iterator` and
`wait_for_new_checkpoint` are tf.train's, re-exported.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, List, Optional

from tf1compat.training.saving.checkpoint_utils import (checkpoints_iterator,
                                                        wait_for_new_checkpoint)
from tf1compat.training.sessions.basic_session_run_hooks import FinalOpsHook
from tf1compat.training.sessions.evaluation import (StopAfterNEvalsHook, evaluate_once,
                                                    get_or_create_eval_step,
                                                    with_eval_step_update)
from tf1compat.training.sessions.monitored_session import (ChiefSessionCreator,
                                                           MonitoredSession)
from tf1compat.training.sessions.session_run_hook import SessionRunHook
from tf1compat.util import tf_logging

__all__ = ["SummaryAtEndHook", "evaluate_repeatedly", "evaluate_once",
           "StopAfterNEvalsHook", "checkpoints_iterator", "wait_for_new_checkpoint",
           "get_or_create_eval_step"]


class SummaryAtEndHook(SessionRunHook):
    """Runs `summary_op` (default: all summaries, merged when the session starts) at the
    end of the evaluation and writes the result at the global step's value."""

    def __init__(self, log_dir: Optional[str] = None, summary_writer: Any = None,
                 summary_op: Any = None, feed_dict: Optional[Dict[Any, Any]] = None):
        if log_dir is None and summary_writer is None:
            raise ValueError("One of log_dir or summary_writer should be used.")
        self._summary_op = summary_op
        self._replace_summary_op = summary_op is None
        self._feed_dict = feed_dict
        self._summary_writer = summary_writer
        self._log_dir = log_dir
        self._global_step: Any = None

    def begin(self) -> None:
        from tf1compat.summary import merge_all
        from tf1compat.training.training_util import get_or_create_global_step
        if self._replace_summary_op:
            self._summary_op = merge_all()      # may stay None: no summaries
        self._global_step = get_or_create_global_step()

    def after_create_session(self, session: Any, coord: Any) -> None:
        from tf1compat.summary import FileWriterCache
        if self._summary_writer is None and self._log_dir:
            self._summary_writer = FileWriterCache.get(self._log_dir)

    def end(self, session: Any) -> None:
        from tf1compat.training.training_util import global_step
        if self._summary_op is not None:
            step = global_step(session, self._global_step)
            summary_str = session.run(self._summary_op, self._feed_dict)
            if self._summary_writer:
                self._summary_writer.add_summary(summary_str, step)
        if self._summary_writer:
            self._summary_writer.flush()


def evaluate_repeatedly(checkpoint_dir: str, master: str = "", scaffold: Any = None,
                        eval_ops: Any = None, feed_dict: Any = None, final_ops: Any = None,
                        final_ops_feed_dict: Any = None, eval_interval_secs: float = 60,
                        hooks: Optional[List[Any]] = None, config: Any = None,
                        max_number_of_evaluations: Optional[int] = None,
                        timeout: Optional[float] = None,
                        timeout_fn: Optional[Callable[[], bool]] = None) -> Any:
    """Evaluates each new checkpoint of `checkpoint_dir` (at most every
    `eval_interval_secs`): restores it, runs `eval_ops` until the hooks stop, and after
    `max_number_of_evaluations` (or the `timeout` without a new checkpoint) returns the
    last values of `final_ops`."""
    from tf1compat.ops.state_ops import assign_add
    eval_step = get_or_create_eval_step()
    hooks = list(hooks or [])
    if eval_ops is not None:
        update_eval_step = assign_add(eval_step, 1)
        for hook in hooks:
            if isinstance(hook, StopAfterNEvalsHook):
                hook._set_evals_completed_tensor(update_eval_step)
        eval_ops = with_eval_step_update(eval_ops, update_eval_step)
    final_ops_hook = FinalOpsHook(final_ops, final_ops_feed_dict)
    hooks.append(final_ops_hook)
    evaluations = 0
    for checkpoint_path in checkpoints_iterator(checkpoint_dir,
                                                min_interval_secs=eval_interval_secs,
                                                timeout=timeout, timeout_fn=timeout_fn):
        creator = ChiefSessionCreator(scaffold=scaffold,
                                      checkpoint_filename_with_path=checkpoint_path,
                                      master=master, config=config)
        with MonitoredSession(session_creator=creator, hooks=hooks) as session:
            tf_logging.info("Starting evaluation at " +
                            time.strftime("%Y-%m-%d-%H:%M:%S", time.gmtime()))
            if eval_ops is not None:
                while not session.should_stop():
                    session.run(eval_ops, feed_dict)
            tf_logging.info("Finished evaluation at " +
                            time.strftime("%Y-%m-%d-%H:%M:%S", time.gmtime()))
        evaluations += 1
        if max_number_of_evaluations is not None and evaluations >= max_number_of_evaluations:
            break
    return final_ops_hook.final_ops_values
