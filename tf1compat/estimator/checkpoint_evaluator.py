"""Evaluating an Estimator's newest checkpoint for `train_and_evaluate`.

`CheckpointEvaluator` evaluates each new checkpoint once and runs the EvalSpec's exporters
(with `is_the_final_export` once the checkpoint's global step reaches the training's
`max_steps`). Two drivers use it, as TF's executor does: `NewCheckpointListenerForEvaluate`,
a saving listener of the training task itself (local mode, a `master` task), and the
`evaluator` task's loop in distributed_training.py.
"""

from __future__ import annotations

import collections
import os
import time
from typing import Any, Optional, Tuple

from tf1compat.util import tf_logging
from tf1compat.framework.graph import GraphKeys
from tf1compat.training.sessions.basic_session_run_hooks import (CheckpointSaverListener,
                                                                 SecondOrStepTimer)

__all__ = ["EvalStatus", "EvalResult", "CheckpointEvaluator",
           "NewCheckpointListenerForEvaluate"]

# TF repeats "no (new) checkpoint" warnings at most once per 10 minutes.
_WARNING_INTERVAL_SECS = 600


class EvalStatus:
    """What one evaluation attempt found."""

    EVALUATED = "evaluated"
    MISSING_CHECKPOINT = "missing checkpoint"
    NO_NEW_CHECKPOINT = "no new checkpoint"


EvalResult = collections.namedtuple("EvalResult", ["status", "metrics", "checkpoint_path"])


class CheckpointEvaluator:
    """Evaluates the newest checkpoint (once per checkpoint) and runs the exporters."""

    def __init__(self, estimator: Any, eval_spec: Any, max_training_steps: Any):
        self._estimator = estimator
        self._eval_spec = eval_spec
        self._previous_ckpt_path = None
        self._max_training_steps = max_training_steps
        self._last_warning_time = 0.0
        self.is_final_export_triggered = False

    def evaluate_and_export(self) -> Tuple[EvalResult, list]:
        latest = self._estimator.latest_checkpoint()
        if not latest:
            self._warn("Estimator is not trained yet. Will start an evaluation when a "
                       "checkpoint is ready.")
            return EvalResult(EvalStatus.MISSING_CHECKPOINT, None, None), []
        if latest == self._previous_ckpt_path:
            self._warn("No new checkpoint ready for evaluation. Skip the current evaluation "
                       "pass as evaluation results are expected to be same for the same "
                       "checkpoint.")
            return EvalResult(EvalStatus.NO_NEW_CHECKPOINT, None, None), []
        metrics = self._estimator.evaluate(input_fn=self._eval_spec.input_fn,
                                           steps=self._eval_spec.steps,
                                           name=self._eval_spec.name, checkpoint_path=latest,
                                           hooks=self._eval_spec.hooks)
        result = EvalResult(EvalStatus.EVALUATED, metrics, latest)
        final = bool(self._max_training_steps) and \
            metrics[GraphKeys.GLOBAL_STEP] >= self._max_training_steps
        exports = self._export(result, final)
        if final:
            self.is_final_export_triggered = True
        self._last_warning_time = 0.0
        self._previous_ckpt_path = latest
        return result, exports

    def _warn(self, message: str) -> None:
        now = time.time()
        if now - self._last_warning_time > _WARNING_INTERVAL_SECS:
            tf_logging.warning(message)
            self._last_warning_time = now

    def _export(self, result: EvalResult, is_the_final_export: bool) -> list:
        base = os.path.join(str(self._estimator.model_dir), "export")
        return [exporter.export(estimator=self._estimator,
                                export_path=os.path.join(base, exporter.name),
                                checkpoint_path=result.checkpoint_path,
                                eval_result=result.metrics,
                                is_the_final_export=is_the_final_export)
                for exporter in self._eval_spec.exporters]


class NewCheckpointListenerForEvaluate(CheckpointSaverListener):
    """Evaluates after each new checkpoint (throttled), and at the end of training."""

    def __init__(self, evaluator: CheckpointEvaluator, eval_throttle_secs: int):
        self._evaluator = evaluator
        self._eval_throttle_secs = eval_throttle_secs
        self.eval_result: Optional[EvalResult] = None
        self.export_results: Any = None

    def begin(self) -> None:
        self._timer = SecondOrStepTimer(every_secs=self._eval_throttle_secs)
        self._is_first_run = True

    def after_save(self, session: Any, global_step_value: int) -> None:
        if self._is_first_run:
            # The checkpoint written when the session starts is not evaluated.
            self._is_first_run = False
            return
        if self._timer.should_trigger_for_step(global_step_value):
            self._evaluate(global_step_value)
        else:
            tf_logging.info("Skip the current checkpoint eval due to throttle secs "
                            f"({self._eval_throttle_secs} secs).")

    def end(self, session: Any, global_step_value: int) -> None:
        if global_step_value != self._timer.last_triggered_step():
            self._evaluate(global_step_value)

    def _evaluate(self, global_step_value: int) -> None:
        self._timer.update_last_triggered_step(global_step_value)
        self.eval_result, self.export_results = self._evaluator.evaluate_and_export()
        if self.eval_result.status != EvalStatus.EVALUATED:
            raise RuntimeError("There was no new checkpoint after the training. Eval status: "
                               f"{self.eval_result.status}")
