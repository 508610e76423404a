"""`tf.contrib.learn.Experiment` (TF 1.15) for `tf.estimator.Estimator`s: train, evaluate,
train_and_evaluate (evaluating new checkpoints while training), continuous_eval,
continuous_train_and_eval, test, with export strategies. Distributed schedules
(servers, parameter servers) are not supported."""

from __future__ import annotations

import contextlib
import functools
import math
import os
import time
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from tf1compat.contrib.learn.export_strategy import ExportStrategy
from tf1compat.contrib.learn.monitors import ValidationMonitor
from tf1compat.estimator.util import fn_args
from tf1compat.framework.graph import GraphKeys
from tf1compat.training.saving import checkpoint_state
from tf1compat.training.sessions.basic_session_run_hooks import (CheckpointSaverHook,
                                                                 CheckpointSaverListener,
                                                                 GlobalStepWaiterHook)
from tf1compat.util import tf_logging

__all__ = ["Experiment"]


def _standardized_predicate(predicate_fn: Callable) -> Callable:
    if "checkpoint_path" not in fn_args(predicate_fn):
        return lambda eval_results, checkpoint_path: predicate_fn(eval_results)
    return predicate_fn


class _EvalAndExportListener(CheckpointSaverListener):
    """After each checkpoint: evaluate it and export (checkpoint_and_export mode)."""

    def __init__(self, eval_fn: Callable, export_fn: Callable, model_dir: str):
        self._eval_fn = eval_fn
        self._export_fn = export_fn
        self._model_dir = model_dir
        self._latest_path: Optional[str] = None
        self.eval_result: Any = None
        self.export_results: Any = None

    def after_save(self, session: Any, global_step_value: int) -> None:
        tf_logging.info("Checking for checkpoint in %s", self._model_dir)
        latest = checkpoint_state.latest_checkpoint(self._model_dir)
        if not latest:
            tf_logging.warning("Skipping evaluation and export since model has not been "
                               "saved yet.")
        elif latest == self._latest_path:
            tf_logging.warning("Skipping evaluation due to same latest checkpoint %s.", latest)
        else:
            self._latest_path = latest
            self.eval_result = self._eval_fn(name="intermediate_export",
                                             checkpoint_path=latest)
            self.export_results = self._export_fn(self.eval_result, checkpoint_path=latest)


@contextlib.contextmanager
def _new_attr_context(obj: Any, attr: str) -> Iterator[None]:
    saved = getattr(obj, attr)
    try:
        yield
    finally:
        setattr(obj, attr, saved)


class Experiment:
    """Everything needed to train and evaluate an Estimator: input functions, step
    counts, evaluation cadence, hooks and export strategies."""

    def __init__(self, estimator: Any, train_input_fn: Callable, eval_input_fn: Callable,
                 eval_metrics: Any = None, train_steps: Optional[int] = None,
                 eval_steps: Optional[int] = 100, train_monitors: Any = None,
                 eval_hooks: Any = None, local_eval_frequency: Optional[int] = None,
                 eval_delay_secs: float = 120, continuous_eval_throttle_secs: float = 60,
                 min_eval_frequency: Optional[int] = None,
                 delay_workers_by_global_step: bool = False, export_strategies: Any = None,
                 train_steps_per_iteration: Optional[int] = None,
                 checkpoint_and_export: bool = False, saving_listeners: Any = None,
                 check_interval_secs: float = 5):
        from tf1compat.estimator.estimator import Estimator
        if not isinstance(estimator, Estimator):
            raise ValueError("`estimator` must implement `tf.contrib.learn.Evaluable` or "
                             "`tf.estimator.Estimator`.")
        if eval_metrics is not None:
            raise ValueError("`eval_metrics` must be `None` with `tf.estimator.Estimator`. Use "
                             "`eval_metric_ops` in `tf.estimator.EstimatorSpec` instead.")
        if type(estimator).__name__ == "TPUEstimator":
            tf_logging.warning(
                "`Experiment` class cannot work with `tf.contrib.tpu.TPUEstimator`. Please "
                "call `TPUEstimator` train/evaluate directly. \nDetails: `Experiment` class "
                "is designed for between-graph distributed training, while `TPUEstimator` is "
                "working in in-graph distributed mode. Use with care.")
        self._estimator = estimator
        self._train_input_fn = train_input_fn
        self._eval_input_fn = eval_input_fn
        self._eval_metrics = eval_metrics
        self._train_steps = train_steps
        self._eval_steps = eval_steps
        self._local_eval_frequency = local_eval_frequency
        self._eval_delay_secs = eval_delay_secs
        self._continuous_eval_throttle_secs = continuous_eval_throttle_secs
        self._checkpoint_and_export = checkpoint_and_export
        self._saving_listeners = saving_listeners
        self._min_eval_frequency = min_eval_frequency if min_eval_frequency is not None else 1
        self._check_interval_secs = check_interval_secs
        self._delay_workers_by_global_step = delay_workers_by_global_step
        self._train_monitors = list(train_monitors) if train_monitors else []
        self._eval_hooks = list(eval_hooks) if eval_hooks else []
        self._set_export_strategies(export_strategies)
        if train_steps_per_iteration is not None and \
                not isinstance(train_steps_per_iteration, int):
            raise ValueError("`train_steps_per_iteration` must be an integer.")
        self._train_steps_per_iteration = train_steps_per_iteration

    @property
    def estimator(self) -> Any:
        return self._estimator

    @property
    def eval_metrics(self) -> Any:
        return self._eval_metrics

    @property
    def train_steps(self) -> Optional[int]:
        return self._train_steps

    @property
    def eval_steps(self) -> Optional[int]:
        return self._eval_steps

    def _set_export_strategies(self, values: Any) -> None:
        strategies: List[ExportStrategy] = []
        if values:
            if isinstance(values, ExportStrategy):
                strategies.append(values)
            else:
                for value in values:
                    if not isinstance(value, ExportStrategy):
                        raise ValueError("`export_strategies` must be an ExportStrategy, an "
                                         "iterable of ExportStrategy, or `None`, found "
                                         f"{value}.")
                    strategies.append(value)
        self._export_strategies = tuple(strategies)

    def extend_train_hooks(self, additional_hooks: List[Any]) -> None:
        """Adds training hooks."""
        self._train_monitors.extend(additional_hooks)

    def reset_export_strategies(self, new_export_strategies: Any = None) -> tuple:
        """Replaces the export strategies; returns the old ones."""
        old = self._export_strategies
        self._set_export_strategies(new_export_strategies)
        return old

    # -- schedules ----------------------------------------------------------------------------
    def train(self, delay_secs: Optional[float] = None) -> Any:
        """Trains for `train_steps` (forever if None) after `delay_secs`."""
        start = time.time()
        extra_hooks = []
        if delay_secs is None:
            task_id = self._estimator.config.task_id or 0
            if self._delay_workers_by_global_step:
                extra_hooks.append(GlobalStepWaiterHook(int(8000.0 * math.log(task_id + 1))))
                delay_secs = 0
            else:
                delay_secs = min(60, task_id * 5)
        if delay_secs > 0:
            tf_logging.info("Waiting %d secs before starting training.",
                            delay_secs - (time.time() - start))
            time.sleep(delay_secs)
        return self._call_train(input_fn=self._train_input_fn, max_steps=self._train_steps,
                                hooks=self._train_monitors + extra_hooks,
                                saving_listeners=self._saving_listeners)

    def evaluate(self, delay_secs: Optional[float] = None,
                 name: Optional[str] = None) -> Dict[str, Any]:
        """Evaluates once (into `eval_one_pass`, or `eval_<name>`) after `delay_secs`."""
        if delay_secs is None:
            delay_secs = self._eval_delay_secs
        if delay_secs:
            tf_logging.info("Waiting %d secs before starting eval.", delay_secs)
            time.sleep(delay_secs)
        return self._call_evaluate(input_fn=self._eval_input_fn, steps=self._eval_steps,
                                   name=(name or "one_pass"), hooks=self._eval_hooks)

    def local_run(self) -> Tuple[Any, Any]:
        """Deprecated: train_and_evaluate with `local_eval_frequency`."""
        with _new_attr_context(self, "_min_eval_frequency"):
            self._min_eval_frequency = self._local_eval_frequency
            return self.train_and_evaluate()

    def _has_training_stopped(self, eval_result: Any) -> bool:
        if not eval_result:
            return False
        step = eval_result.get(GraphKeys.GLOBAL_STEP)
        return bool(step and self._train_steps and step >= self._train_steps)

    def _continuous_eval(self, input_fn: Callable, name: str, delay_secs: Optional[float],
                         throttle_delay_secs: Optional[float],
                         evaluate_checkpoint_only_once: bool = True,
                         continuous_eval_predicate_fn: Optional[Callable] = None,
                         export: bool = True) -> None:
        if continuous_eval_predicate_fn is not None:
            if not callable(continuous_eval_predicate_fn):
                raise ValueError("`continuous_eval_predicate_fn` must be a callable, or None.")
            predicate = _standardized_predicate(continuous_eval_predicate_fn)
        else:
            predicate = None
        delay_secs = self._eval_delay_secs if delay_secs is None else delay_secs
        if throttle_delay_secs is None:
            throttle_delay_secs = self._continuous_eval_throttle_secs
        if delay_secs:
            tf_logging.info("Waiting %f secs before starting eval.", delay_secs)
            time.sleep(delay_secs)
        previous_path = None
        eval_result = None
        last_warning = 0.0
        while not predicate or predicate(eval_result, checkpoint_path=previous_path):
            if self._has_training_stopped(eval_result):
                tf_logging.info("Exiting continuous eval, global_step=%s >= train_step=%s",
                                eval_result[GraphKeys.GLOBAL_STEP], self._train_steps)
                return
            start = time.time()
            latest = checkpoint_state.latest_checkpoint(self._estimator.model_dir)
            error = None
            if not latest:
                error = ("Estimator is not fitted yet. Will start an evaluation when a "
                         "checkpoint is ready.")
            elif evaluate_checkpoint_only_once and latest == previous_path:
                error = "No new checkpoint ready for evaluation."
            if error:
                eval_result = {}
                if time.time() - last_warning > 600:
                    tf_logging.warning(error)
                    last_warning = time.time()
            else:
                eval_result = self._call_evaluate(input_fn=input_fn, steps=self._eval_steps,
                                                  name=name, checkpoint_path=latest,
                                                  hooks=self._eval_hooks) or {}
                if export:
                    self._maybe_export(eval_result, checkpoint_path=latest)
                last_warning = 0.0
                previous_path = latest
            duration = time.time() - start
            if duration < throttle_delay_secs:
                tf_logging.info("Waiting %f secs before starting next eval run.",
                                throttle_delay_secs - duration)
                time.sleep(throttle_delay_secs - duration)

    def continuous_eval(self, delay_secs: Optional[float] = None,
                        throttle_delay_secs: Optional[float] = None,
                        evaluate_checkpoint_only_once: bool = True,
                        continuous_eval_predicate_fn: Optional[Callable] = None,
                        name: str = "continuous") -> None:
        """Evaluates each new checkpoint until training reaches `train_steps` (or the
        predicate says stop)."""
        self._continuous_eval(self._eval_input_fn, name, delay_secs, throttle_delay_secs,
                              evaluate_checkpoint_only_once, continuous_eval_predicate_fn)

    def continuous_eval_on_train_data(self, delay_secs: Optional[float] = None,
                                      throttle_delay_secs: Optional[float] = None,
                                      continuous_eval_predicate_fn: Optional[Callable] = None,
                                      name: str = "continuous_on_train_data") -> None:
        self._continuous_eval(self._train_input_fn, name, delay_secs, throttle_delay_secs,
                              continuous_eval_predicate_fn=continuous_eval_predicate_fn,
                              export=False)

    def train_and_evaluate(self) -> Tuple[Any, Any]:
        """Trains (evaluating new checkpoints every `min_eval_frequency` steps, or after
        every checkpoint with `checkpoint_and_export`), then evaluates and exports;
        returns (eval_result, export_results)."""
        with _new_attr_context(self, "_train_monitors"):
            self._train_monitors = list(self._train_monitors)
            config = self._estimator.config
            intermediate = self._checkpoint_and_export and (
                config.save_checkpoints_secs or config.save_checkpoints_steps)
            if intermediate:
                eval_fn = functools.partial(self._call_evaluate, input_fn=self._eval_input_fn,
                                            steps=self._eval_steps, hooks=self._eval_hooks)
                listener = _EvalAndExportListener(eval_fn, self._maybe_export,
                                                  self._estimator.model_dir)
                self._train_monitors.append(CheckpointSaverHook(
                    checkpoint_dir=self._estimator.model_dir,
                    save_secs=config.save_checkpoints_secs,
                    save_steps=config.save_checkpoints_steps, listeners=[listener]))
            elif self._min_eval_frequency:
                self._train_monitors.append(ValidationMonitor(
                    input_fn=self._eval_input_fn, eval_steps=self._eval_steps,
                    every_n_steps=self._min_eval_frequency,
                    check_interval_secs=self._check_interval_secs, name=None,
                    hooks=self._eval_hooks, estimator=self._estimator))
            self.train(delay_secs=0)
        if intermediate:
            return listener.eval_result, listener.export_results
        eval_result = self._call_evaluate(input_fn=self._eval_input_fn,
                                          steps=self._eval_steps, name=None,
                                          hooks=self._eval_hooks)
        return eval_result, self._maybe_export(eval_result)

    def continuous_train_and_eval(self, continuous_eval_predicate_fn: Optional[Callable] = None
                                  ) -> Tuple[Any, Any]:
        """Alternates `train_steps_per_iteration` training steps and an evaluation until
        `train_steps` (or the predicate says stop)."""
        predicate = None
        if continuous_eval_predicate_fn is not None:
            if not callable(continuous_eval_predicate_fn):
                raise ValueError("`continuous_eval_predicate_fn` must be a callable, or None.")
            predicate = _standardized_predicate(continuous_eval_predicate_fn)
        export_results = latest = eval_result = None
        per_iteration = 1000
        if self._train_steps_per_iteration is not None:
            per_iteration = self._train_steps_per_iteration
        elif self._train_steps is not None:
            per_iteration = int(self._train_steps / 10)
        while not predicate or predicate(eval_result,
                                         checkpoint_path=latest if eval_result else None):
            if self._has_training_stopped(eval_result):
                tf_logging.info("Stop training model as max steps reached")
                break
            tf_logging.info("Training model for %s steps", per_iteration)
            self._call_train(input_fn=self._train_input_fn, steps=per_iteration,
                             hooks=self._train_monitors,
                             saving_listeners=self._saving_listeners)
            tf_logging.info("Evaluating model now.")
            latest = checkpoint_state.latest_checkpoint(self._estimator.model_dir)
            eval_result = self._call_evaluate(input_fn=self._eval_input_fn,
                                              steps=self._eval_steps, name="one_pass",
                                              checkpoint_path=latest, hooks=self._eval_hooks)
            export_results = self._maybe_export(eval_result)
        return eval_result, export_results

    def test(self) -> Dict[str, Any]:
        """One training step, one evaluation step, and the exports."""
        self._call_train(input_fn=self._train_input_fn, steps=1, hooks=self._train_monitors,
                         saving_listeners=self._saving_listeners)
        eval_result = self._call_evaluate(input_fn=self._eval_input_fn, steps=1,
                                          name="one_pass")
        self._maybe_export(eval_result)
        return eval_result

    def run_std_server(self) -> None:
        raise NotImplementedError("Experiment.run_std_server: contrib.learn's distributed "
                                  "Experiment is not supported by tf1compat; "
                                  "tf.estimator.train_and_evaluate runs TF_CONFIG clusters "
                                  "(its ps tasks start and join a tf.train.Server).")

    def _maybe_export(self, eval_result: Any, checkpoint_path: Optional[str] = None) -> list:
        base = os.path.join(os.fsencode(self._estimator.model_dir), b"export")
        return [strategy.export(self._estimator,
                                os.path.join(base, os.fsencode(strategy.name)),
                                checkpoint_path=checkpoint_path, eval_result=eval_result)
                for strategy in self._export_strategies]

    def _call_train(self, input_fn: Any = None, steps: Optional[int] = None, hooks: Any = None,
                    max_steps: Optional[int] = None, saving_listeners: Any = None) -> Any:
        for hook in hooks or []:
            if isinstance(hook, ValidationMonitor):
                hook.set_estimator(self._estimator)
        return self._estimator.train(input_fn=input_fn, steps=steps, max_steps=max_steps,
                                     hooks=hooks, saving_listeners=saving_listeners)

    def _call_evaluate(self, input_fn: Any = None, steps: Optional[int] = None,
                       metrics: Any = None, name: Optional[str] = None,
                       checkpoint_path: Optional[str] = None, hooks: Any = None) -> Any:
        if metrics is not None:
            raise ValueError("`eval_metrics` must be `None` with `tf.estimator.Estimator`")
        return self._estimator.evaluate(input_fn=input_fn, steps=steps, name=name,
                                        checkpoint_path=checkpoint_path, hooks=hooks)
