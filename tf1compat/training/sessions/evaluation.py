"""One evaluation pass over a checkpoint (TF's training/sessions/evaluation.py): the `eval_step`
local counter, `_StopAfterNEvalsHook` and `_evaluate_once`, used by Estimator.evaluate
and `tf.contrib.training.evaluate_once`."""

from __future__ import annotations

import math
import time
from typing import Any, List, Optional

from tf1compat.util import tf_logging
from tf1compat.framework import dtypes
from tf1compat.framework.graph import GraphKeys, control_dependencies, get_default_graph
from tf1compat.training.sessions.basic_session_run_hooks import FinalOpsHook
from tf1compat.training.sessions.monitored_session import ChiefSessionCreator, MonitoredSession
from tf1compat.training.sessions.session_run_hook import SessionRunArgs, SessionRunHook

__all__ = ["get_or_create_eval_step", "StopAfterNEvalsHook", "evaluate_once",
           "with_eval_step_update"]


def get_or_create_eval_step() -> Any:
    """The graph's `eval_step` int64 local variable (EVAL_STEP collection)."""
    from tf1compat.variables.init_ops import zeros_initializer
    from tf1compat.variables.variable_scope import get_variable
    steps = get_default_graph().get_collection(GraphKeys.EVAL_STEP)
    if len(steps) == 1:
        return steps[0]
    if len(steps) > 1:
        raise ValueError("Multiple tensors added to tf.GraphKeys.EVAL_STEP")
    return get_variable("eval_step", shape=[], dtype=dtypes.int64,
                        initializer=zeros_initializer(), trainable=False,
                        collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.EVAL_STEP])


def _latest_eval_step_value(update_ops: Any) -> Any:
    from tf1compat.ops.array_ops import identity
    if isinstance(update_ops, dict):
        update_ops = list(update_ops.values())
    with control_dependencies(update_ops):
        return identity(get_or_create_eval_step().read_value())


class StopAfterNEvalsHook(SessionRunHook):
    """Stops after `num_evals` evaluation steps, logging `Evaluation [i/n]` (every step
    below 20 evaluations, else every tenth)."""

    def __init__(self, num_evals: Optional[int], log_progress: bool = True):
        self._num_evals = num_evals
        self._evals_completed = None
        self._log_progress = log_progress
        self._log_frequency = 1 if (num_evals is None or num_evals < 20) else \
            math.floor(num_evals / 10.)

    def _set_evals_completed_tensor(self, updated_eval_step: Any) -> None:
        self._evals_completed = updated_eval_step

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs({"evals_completed": self._evals_completed})

    def after_run(self, run_context: Any, run_values: Any) -> None:
        done = run_values.results["evals_completed"]
        if self._log_progress:
            if self._num_evals is None:
                tf_logging.info("Evaluation [%d]", done)
            elif done % self._log_frequency == 0 or self._num_evals == done:
                tf_logging.info("Evaluation [%d/%d]", done, self._num_evals)
        if self._num_evals is not None and done >= self._num_evals:
            run_context.request_stop()


def with_eval_step_update(eval_ops: Any, update_eval_step: Any) -> Any:
    """`eval_ops` also running `update_eval_step`: a dict gets the key
    "update_eval_step", a list or tuple one more element, a single op becomes a list."""
    if isinstance(eval_ops, dict):
        eval_ops["update_eval_step"] = update_eval_step
        return eval_ops
    if isinstance(eval_ops, (tuple, list)):
        return list(eval_ops) + [update_eval_step]
    return [eval_ops, update_eval_step]


def evaluate_once(checkpoint_path: Optional[str], master: str = "", scaffold: Any = None,
                  eval_ops: Any = None, feed_dict: Any = None, final_ops: Any = None,
                  final_ops_feed_dict: Any = None, hooks: Optional[List[Any]] = None,
                  config: Any = None) -> Any:
    """Restores `checkpoint_path`, runs `eval_ops` until the hooks stop or the input ends,
    and returns the values of `final_ops`."""
    from tf1compat.ops.state_ops import assign_add
    eval_step = get_or_create_eval_step()
    hooks = list(hooks or [])
    if eval_ops is not None:
        update_eval_step = assign_add(eval_step, 1, use_locking=True)
        eval_ops = with_eval_step_update(eval_ops, update_eval_step)
        step_value = _latest_eval_step_value(eval_ops)
        for hook in hooks:
            if isinstance(hook, StopAfterNEvalsHook):
                hook._set_evals_completed_tensor(step_value)
    tf_logging.info("Starting evaluation at " +
                    time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime()))
    start = time.time()
    creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config,
                                  checkpoint_filename_with_path=checkpoint_path)
    final_ops_hook = FinalOpsHook(final_ops, final_ops_feed_dict)
    hooks.append(final_ops_hook)
    with MonitoredSession(session_creator=creator, hooks=hooks) as session:
        if eval_ops is not None:
            while not session.should_stop():
                session.run(eval_ops, feed_dict)
    tf_logging.info("Inference Time : {:0.5f}s".format(time.time() - start))
    tf_logging.info("Finished evaluation at " +
                    time.strftime("%Y-%m-%d-%H:%M:%S", time.localtime()))
    return final_ops_hook.final_ops_values
