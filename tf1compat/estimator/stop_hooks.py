"""`tf.estimator.experimental.make_stop_at_checkpoint_step_hook`: stop training at a step -
on the chief by the global step (StopAtStepHook), on other workers once the chief's
checkpoint for that step is on disk."""

from __future__ import annotations

import time
from typing import Any

from tf1compat.training.sessions.basic_session_run_hooks import StopAtStepHook
from tf1compat.training.sessions.session_run_hook import SessionRunArgs, SessionRunHook

__all__ = ["make_stop_at_checkpoint_step_hook"]


class _StopAtCheckpointStepHook(SessionRunHook):
    """Requests a stop once the global step reaches `last_step` and the latest checkpoint in
    `model_dir` is at least that step (read at most every `wait_after_file_check_secs`)."""

    def __init__(self, model_dir: str, last_step: int, wait_after_file_check_secs: float = 30):
        if last_step is None:
            raise ValueError("last_step must be specified.")
        if model_dir is None:
            raise ValueError("model_dir must be specified.")
        self._model_dir = model_dir
        self._last_step = last_step
        self._wait_after_file_check_secs = wait_after_file_check_secs

    def begin(self) -> None:
        from tf1compat.training.training_util import _get_or_create_global_step_read
        self._global_step_tensor = _get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use StopAtCheckpointStepHook.")

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        from tf1compat.estimator.estimator import _load_global_step_from_checkpoint_dir
        global_step = run_values.results + 1
        if global_step >= self._last_step:
            step = _load_global_step_from_checkpoint_dir(self._model_dir)
            if step >= self._last_step:
                run_context.request_stop()
            else:
                time.sleep(self._wait_after_file_check_secs)


def make_stop_at_checkpoint_step_hook(estimator: Any, last_step: int,
                                      wait_after_file_check_secs: float = 30) -> SessionRunHook:
    """A StopAtStepHook on the chief; elsewhere a hook that waits for the checkpoint."""
    if estimator.config.is_chief:
        return StopAtStepHook(last_step=last_step)
    return _StopAtCheckpointStepHook(model_dir=estimator.model_dir, last_step=last_step,
                                     wait_after_file_check_secs=wait_after_file_check_secs)
