"""`tf.contrib.learn.monitors.ValidationMonitor` as a SessionRunHook: during training,
every `every_n_steps` steps (and at most every `check_interval_secs`), evaluate the newest
checkpoint if there is one not evaluated yet (Experiment.train_and_evaluate uses it)."""

from __future__ import annotations

import time
from typing import Any, Dict, Optional

from tf1compat.training import checkpoint_state
from tf1compat.training.session_run_hook import SessionRunArgs, SessionRunHook
from tf1compat.util import tf_logging

__all__ = ["ValidationMonitor"]


class ValidationMonitor(SessionRunHook):
    """Evaluates new checkpoints while training (core Estimators only)."""

    def __init__(self, x: Any = None, y: Any = None, input_fn: Any = None,
                 batch_size: Any = None, eval_steps: Optional[int] = None,
                 every_n_steps: int = 100, metrics: Any = None, hooks: Any = None,
                 early_stopping_rounds: Optional[int] = None,
                 early_stopping_metric: str = "loss",
                 early_stopping_metric_minimize: bool = True, name: Optional[str] = None,
                 check_interval_secs: Optional[float] = 5, estimator: Any = None):
        if x is not None or y is not None or batch_size is not None or metrics is not None:
            raise NotImplementedError("ValidationMonitor(x=, y=, batch_size=, metrics=) "
                                      "(contrib.learn Estimator inputs) is not supported by "
                                      "tf1compat; pass input_fn.")
        if early_stopping_rounds is not None:
            raise NotImplementedError("ValidationMonitor(early_stopping_rounds=...) is not "
                                      "supported by tf1compat; use "
                                      "tf.estimator.experimental.stop_if_no_decrease_hook.")
        self._input_fn = input_fn
        self._eval_steps = eval_steps
        self._every_n_steps = every_n_steps
        self._hooks = hooks
        self._name = name
        self._check_interval_secs = check_interval_secs
        self._estimator = estimator
        self._latest_path: Optional[str] = None
        self._last_check: Optional[float] = None
        self._last_step: Optional[int] = None
        self.validation_outputs: Optional[Dict[str, Any]] = None

    def set_estimator(self, estimator: Any) -> None:
        self._estimator = estimator

    def begin(self) -> None:
        from tf1compat.training.training_util import get_global_step
        self._global_step = get_global_step()

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs(self._global_step)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        step = int(run_values.results) + 1
        if self._last_step is not None and step < self._last_step + self._every_n_steps:
            return
        self._last_step = step
        self._validate(step)

    def _validate(self, step: int) -> None:
        if self._estimator is None:
            raise ValueError("Missing call to set_estimator.")
        now = time.time()
        if self._check_interval_secs is not None and self._last_check is not None and \
                now - self._last_check <= self._check_interval_secs:
            return
        self._last_check = now
        latest = checkpoint_state.latest_checkpoint(self._estimator.model_dir)
        if latest is None or latest == self._latest_path:
            return
        self._latest_path = latest
        outputs = self._estimator.evaluate(input_fn=self._input_fn, steps=self._eval_steps,
                                           hooks=self._hooks, name=self._name)
        self.validation_outputs = outputs
        tf_logging.info("Validation (step %d): %s", step,
                        ", ".join("%s = %s" % (k, v) for k, v in outputs.items()))
