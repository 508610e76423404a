"""`tf.contrib.learn.monitors.ValidationMonitor` as a SessionRunHook: during training,
every `every_n_steps` steps (and at most every `check_interval_secs`), evaluate the newest
checkpoint if there is one not evaluated yet (Experiment.train_and_evaluate uses it), and
with `early_stopping_rounds` stop training once the metric has not improved for that many
steps."""

from __future__ import annotations

import time
from typing import Any, Dict, List, Optional

from tf1compat.training.saving import checkpoint_state
from tf1compat.training.sessions.session_run_hook import SessionRunArgs, SessionRunHook
from tf1compat.util import tf_logging

__all__ = ["ValidationMonitor", "replace_monitors_with_hooks"]


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
        self._input_fn = input_fn
        self._eval_steps = eval_steps
        self._every_n_steps = every_n_steps
        self._hooks = hooks
        self._name = name
        self._check_interval_secs = check_interval_secs
        self._estimator = estimator
        self._latest_path: Optional[str] = None
        self._last_check: Optional[float] = None
        self._last_active_step = 0      # TF's EveryN monitor (first_n_steps=-1)
        self.validation_outputs: Optional[Dict[str, Any]] = None
        self.early_stopping_rounds = early_stopping_rounds
        self.early_stopping_metric = early_stopping_metric
        self.early_stopping_metric_minimize = early_stopping_metric_minimize
        self._best_value: Any = None
        self._best_value_step: Optional[int] = None
        self._early_stopped = False

    @property
    def early_stopped(self) -> bool:
        """Whether training was stopped early by this monitor."""
        return self._early_stopped

    @property
    def best_step(self) -> Optional[int]:
        """The step of the best early-stopping metric value so far."""
        return self._best_value_step

    @property
    def best_value(self) -> Any:
        """The best early-stopping metric value so far."""
        return self._best_value

    def set_estimator(self, estimator: Any) -> None:
        self._estimator = estimator

    def begin(self) -> None:
        # the value before the train op's increment, as TF's monitor adapter reads it
        from tf1compat.training.training_util import _get_or_create_global_step_read
        self._global_step = _get_or_create_global_step_read()

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs(self._global_step)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        step = int(run_values.results) + 1
        if step < self._last_active_step + self._every_n_steps:
            return
        self._last_active_step = step
        if self._validate(step):
            run_context.request_stop()

    def _validate(self, step: int) -> bool:
        """Evaluates a new checkpoint; True when early stopping asks to stop."""
        if self._estimator is None:
            raise ValueError("Missing call to set_estimator.")
        now = time.time()
        if self._check_interval_secs is not None and self._last_check is not None and \
                now - self._last_check <= self._check_interval_secs:
            return False
        self._last_check = now
        latest = checkpoint_state.latest_checkpoint(self._estimator.model_dir)
        if latest is None or latest == self._latest_path:
            return False
        self._latest_path = latest
        outputs = self._estimator.evaluate(input_fn=self._input_fn, steps=self._eval_steps,
                                           hooks=self._hooks, name=self._name)
        self.validation_outputs = outputs
        tf_logging.info("Validation (step %d): %s", step,
                        ", ".join("%s = %s" % (k, v) for k, v in outputs.items()))
        if self.early_stopping_rounds is None:
            return False
        if self.early_stopping_metric not in outputs:
            raise ValueError("Metric %s missing from outputs %s." % (
                self.early_stopping_metric, set(outputs.keys())))
        current = outputs[self.early_stopping_metric]
        if self._best_value is None or (
                current < self._best_value if self.early_stopping_metric_minimize
                else current > self._best_value):
            self._best_value = current
            self._best_value_step = step
        if step - self._best_value_step >= self.early_stopping_rounds:
            tf_logging.info("Stopping. Best step: {} with {} = {}.".format(
                self._best_value_step, self.early_stopping_metric, self._best_value))
            self._early_stopped = True
            return True
        return False


def replace_monitors_with_hooks(monitors_or_hooks: Any, estimator: Any) -> List[Any]:
    """The hooks to train `estimator` with, given a list of monitors and hooks
    (tensor2tensor's trainer passes its hooks through it). Every monitor here is a
    SessionRunHook already, so the list comes back as it is; TF 1.15's BaseMonitor
    family, which would need its RunHookAdapterForMonitors, does not exist here."""
    del estimator  # TF's uses it only to set up old-style monitors.
    hooks = list(monitors_or_hooks or [])
    for m in hooks:
        if not isinstance(m, SessionRunHook):
            raise NotImplementedError(
                f"replace_monitors_with_hooks: {type(m).__name__} is not a "
                "SessionRunHook; contrib.learn's BaseMonitor adapters are not implemented")
    return hooks

